//! `{{name}}` placeholders: a file opts in with `"placeholders": "braces"`, a folder with
//! the same key in `promptkit.json`; they mean what `$name` means.

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
        "{{greeting}}, it is {{day}} ({{ Day }}), costs $5 and ${x}.\n{% if note %}\nNote: {{note}}\n{% endif %}\n{{#each}} {{ }}",
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
        "Hi Sam, it is friday (Friday), costs $5 and ${x}.\n{{#each}} {{ }}"
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
    let dir = std::env::temp_dir().join(format!("promptkit-braces-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("templates")).unwrap();
    fs::write(dir.join("promptkit.json"), r#"{"placeholders": "braces"}"#).unwrap();
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
