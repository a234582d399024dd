//! `{{name}}` placeholders: a file opts in with `"placeholders": "braces"`, a folder with
//! the same key in `promptic.json`; they mean what `$name` means.

use prompt_runtime::check::{check, infer_context};
use prompt_runtime::load::{Project, PromptFile};
use prompt_runtime::parse::lexer::Syntax;
use prompt_runtime::resolve::{ContextVar, Schema, Templates, VarKind};
use prompt_runtime::{Diagnostics, Identity};
use std::collections::HashMap;
use std::fs;

fn braces(text: &str) -> PromptFile {
    let file = PromptFile::from_text(
        "prompts/b.md",
        &format!("{{\n\"placeholders\": \"braces\"\n}}\n{text}"),
    )
    .expect("loads");
    assert_eq!(file.syntax, Syntax::Braces);
    file
}

fn schema(context: Vec<ContextVar>) -> Schema {
    Schema {
        context,
        identity: vec!["preferred".into()],
        ..Schema::default()
    }
}

fn values(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn braces_resolve_like_dollars() {
    let mut templates = Templates::new();
    let mut greeting =
        PromptFile::from_text("prompts/templates/greeting.md", "Hi {{ Preferred }}").unwrap();
    greeting.syntax = Syntax::Braces;
    templates.insert("greeting", greeting);
    let file = braces(
        "{{greeting}}, it is {{day}} ({{ Day }}), costs $5 and ${x}.\n{% if note %}\nNote: {{note}}\n{% endif %}\n{{ }} {{1}} {{\"k\": 1}} {{{day}}}",
    );
    let prompt = check(
        "b",
        file,
        schema(vec![
            ContextVar::new("day", VarKind::Text),
            ContextVar::new("note", VarKind::Optional),
        ]),
        &templates,
    )
    .unwrap();
    let identity = Identity::from_pairs([("preferred", "sam")]);
    let out = prompt
        .render(&values(&[("day", "friday")]), &identity)
        .unwrap();
    assert_eq!(
        out.text,
        "Hi Sam, it is friday (Friday), costs $5 and ${x}.\n{{ }} {{1}} {{\"k\": 1}} {friday}"
    );
}

#[test]
fn unknown_and_unclosed_braces_are_errors_with_locations() {
    let file = braces("Hello {{ preferd }}!\nSee {{day and more");
    let errors: Diagnostics = check(
        "b",
        file,
        schema(vec![ContextVar::new("day", VarKind::Text)]),
        &Templates::new(),
    )
    .unwrap_err();
    let shown = errors.to_string();
    assert!(
        shown.contains("error: unknown placeholder `{{preferd}}`\n --> prompts/b.md:4:7"),
        "{shown}"
    );
    assert!(shown.contains("did you mean `{{preferred}}`?"), "{shown}");
    assert!(
        shown.contains("error: `{{day` is never closed on its line\n --> prompts/b.md:5:5"),
        "{shown}"
    );
    assert!(shown.contains("help: write `{{day}}`"), "{shown}");
}

#[test]
fn a_bad_setting_is_an_error_with_a_suggestion() {
    let err = PromptFile::from_text("p.md", "{\n\"placeholders\": \"brace\"\n}\nx").unwrap_err();
    let shown = err.to_string();
    assert!(
        shown
            .contains("`placeholders` must be \"dollar\", \"braces\" or \"keep\", found \"brace\""),
        "{shown}"
    );
    assert!(shown.contains("did you mean \"braces\"?"), "{shown}");
    assert!(shown.contains("p.md:2:17"), "{shown}");
    let err = PromptFile::from_text("p.md", "{\n\"placeholders\": 1\n}\nx").unwrap_err();
    assert!(err.to_string().contains("must be the string"), "{err}");
}

#[test]
fn a_folder_default_applies_unless_a_file_says_otherwise() {
    let dir = std::env::temp_dir().join(format!("promptic-braces-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("templates")).unwrap();
    fs::write(dir.join("promptic.json"), r#"{"placeholders": "braces"}"#).unwrap();
    fs::write(dir.join("templates/sig.md"), "-- {{ name }}").unwrap();
    fs::write(dir.join("a.md"), "Dear {{who}},\n{{sig}} $5").unwrap();
    fs::write(
        dir.join("b.md"),
        "{\n\"placeholders\": \"dollar\"\n}\nDear $who, {{who}}",
    )
    .unwrap();
    let project = Project::open(&dir, "prompts").expect("opens");
    let a = project.load_prompt("a").unwrap();
    assert_eq!(a.syntax, Syntax::Braces);
    let names: Vec<String> = infer_context(&a, &["name".into()], &[], &project.templates)
        .into_iter()
        .map(|v| v.name)
        .collect();
    assert_eq!(names, ["who"]);
    let b = project.load_prompt("b").unwrap();
    assert_eq!(b.syntax, Syntax::Dollar);
    let identity = Identity::from_pairs([("name", "Ana")]);
    let a = project.check_inferred("a").unwrap();
    assert_eq!(
        a.render(&values(&[("who", "Bo")]), &identity).unwrap().text,
        "Dear Bo,\n-- Ana $5"
    );
    let b = project.check_inferred("b").unwrap();
    assert_eq!(
        b.render(&values(&[("who", "Bo")]), &identity).unwrap().text,
        "Dear Bo, {{who}}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A folder of braces prompts copied from Jinja and Handlebars projects: what those engines
/// read as an expression, a tag or a comment is an error where it stands, at run time as
/// in the derive and the CLI; PromptEngine's literal texts stay text.
#[test]
fn jinja_and_handlebars_syntax_in_a_braces_folder_is_an_error_where_it_stands() {
    let dir = std::env::temp_dir().join(format!("promptic-braces-jinja-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("templates")).unwrap();
    fs::write(dir.join("promptic.json"), r#"{"placeholders": "braces"}"#).unwrap();
    fs::write(dir.join("templates/sig.md"), "-- {{ user.name }}").unwrap();
    fs::write(
        dir.join("agent.md"),
        "Run at most {{ max_iterations | default(15) }} times.\n{# for the team #}\n{{#each tools}}\n{{sig}}",
    )
    .unwrap();
    fs::write(
        dir.join("literal.md"),
        "{{\"description\": \"{{who}}\"}} and {{{who}}} and {{ 15 }}",
    )
    .unwrap();
    fs::write(
        dir.join("dollar.md"),
        "{\n\"placeholders\": \"dollar\"\n}\n$who: {{ user.name | upper }} {# x #}",
    )
    .unwrap();
    let project = Project::open(&dir, "prompts").expect("opens");
    let shown = project.check_inferred("agent").unwrap_err().to_string();
    for (message, at) in [
        (
            "error: `{{ max_iterations | default(15) }}` is a Jinja filter expression, which braces placeholders do not read",
            "prompts/agent.md:1:13",
        ),
        (
            "error: `{# for the team #}` is a Jinja comment, which a braces prompt does not read: it would reach the model",
            "prompts/agent.md:2:1",
        ),
        (
            "error: `{{#each tools}}` is a Handlebars block",
            "prompts/agent.md:3:1",
        ),
        (
            "error: `{{ user.name }}` is a path into `user`, which braces placeholders do not read",
            "prompts/templates/sig.md:1:4",
        ),
    ] {
        assert!(
            shown.contains(&format!("{message}\n --> {at}\n")),
            "{message}:\n{shown}"
        );
    }
    assert!(
        shown.contains("help: write `{{max_iterations}}` and give the value, filtered or defaulted in the code, as a context field"),
        "{shown}"
    );
    let identity = Identity::default();
    let literal = project.check_inferred("literal").unwrap();
    assert_eq!(
        literal
            .render(&values(&[("who", "Bo")]), &identity)
            .unwrap()
            .text,
        "{{\"description\": \"Bo\"}} and {Bo} and {{ 15 }}"
    );
    // With `$name` placeholders, `{{` is plain text: the way to keep such text as written.
    let dollar = project.check_inferred("dollar").unwrap();
    assert_eq!(
        dollar
            .render(&values(&[("who", "Bo")]), &identity)
            .unwrap()
            .text,
        "Bo: {{ user.name | upper }} {# x #}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A store's texts follow PromptEngine's rule, which the Jinja and Handlebars errors of
/// braces prompts leave alone: only `{{name}}` is a placeholder, all else is its text.
#[test]
fn store_texts_keep_what_looks_like_jinja_as_promptengine_does() {
    use promptic::store::{Defaults, Store};
    let text = r#"Hi {{char_name}}: {{ user.name }} {# note #} {{ n | default(15) }} {{#each x}} {{"description": 1}} {{{char_name}}}"#;
    let domain = serde_json::json!({"variants": {"default": {"text": text}}}).to_string();
    let files: &[(&str, &[u8])] = &[
        (
            "_meta/prompt_manifest.json",
            br#"{"prompts": {"a": {"domain": "a"}}}"#,
        ),
        (
            "_meta/placeholder_registry.json",
            br#"{"placeholders": {"char_name": {"resolve_phase": "static", "default": "Ava"}}}"#,
        ),
        ("a.json", domain.as_bytes()),
    ];
    let store = Store::builder(Defaults::from_files("s", files).expect("defaults"))
        .open()
        .expect("opens");
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        r#"Hi Ava: {{ user.name }} {# note #} {{ n | default(15) }} {{#each x}} {{"description": 1}} {Ava}"#
    );
}
