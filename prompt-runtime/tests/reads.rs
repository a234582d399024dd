//! What a loaded prompt says it reads (`LoadedPrompt::reads`): each value by its name, with
//! its kind, whether a render needs it, and the paths the prompt reads into it, for every
//! format alike.

use promptic::formats::ValueUse;
use promptic::load::Project;

fn folder(files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "promptic-reads-{}-{}",
        std::process::id(),
        files[0].0.replace('/', "_")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn reads_of(files: &[(&str, &str)], name: &str) -> Vec<ValueUse> {
    let dir = folder(files);
    let project = Project::open(&dir, "prompts").unwrap();
    let reads = project.load(name).unwrap().reads().to_vec();
    std::fs::remove_dir_all(&dir).unwrap();
    reads
}

fn named<'r>(reads: &'r [ValueUse], name: &str) -> &'r ValueUse {
    reads
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no `{name}` in {reads:?}"))
}

#[test]
fn jinja_reads_say_which_keys_of_a_value_are_read() {
    let reads = reads_of(
        &[
            (
                "trip.md.j2",
                "{% include \"parts/sign.j2\" %}{{ user.name }} in {{ user.address.city }}\n\
                 {% for step in steps %}{{ step.title }}{% endfor %}\n\
                 {% for h, v in hosts.items() %}{{ h }}{% endfor %}{{ user.name }}",
            ),
            ("parts/sign.j2", "{{ who }}"),
        ],
        "trip",
    );
    assert_eq!(named(&reads, "who").paths, Vec::<String>::new());
    assert!(named(&reads, "who").required);
    // Each path once, in the order first read; a key of every item of a list.
    assert_eq!(
        named(&reads, "user").paths,
        ["user.name", "user.address.city"]
    );
    assert_eq!(named(&reads, "user").kind, "object");
    assert!(
        named(&reads, "steps")
            .paths
            .contains(&"steps[…].title".to_owned())
    );
    assert!(
        named(&reads, "hosts")
            .paths
            .iter()
            .all(|p| p.starts_with("hosts.items()"))
    );
}

#[test]
fn dotprompt_reads_say_which_properties_of_an_input_are_read() {
    let schema = "---\ninput:\n  schema:\n    user(object):\n      name: string\n      tier?: string\n    note?: string\n---\n";
    let reads = reads_of(
        &[(
            "ticket.prompt",
            &format!("{schema}For {{{{user.name}}}} ({{{{user.tier}}}}). {{{{note}}}}"),
        )],
        "ticket",
    );
    let user = named(&reads, "user");
    assert_eq!((user.kind, user.required), ("object", true));
    assert_eq!(user.paths, ["user.name", "user.tier"]);
    let note = named(&reads, "note");
    assert_eq!(
        (note.kind, note.required, note.paths.len()),
        ("text", false, 0)
    );

    // Without a schema, the names the template reads, each with its paths.
    let reads = reads_of(
        &[("free.prompt", "{{user.name}} and {{user.name}} {{day}}")],
        "free",
    );
    assert_eq!(named(&reads, "user").paths, ["user.name"]);
    assert!(named(&reads, "day").paths.is_empty());
}

#[test]
fn markdown_reads_are_names_read_whole() {
    let reads = reads_of(&[("note.md", "Remind $who about the $thing.")], "note");
    assert!(reads.iter().all(|r| r.paths.is_empty()), "{reads:?}");
    assert!(reads.iter().any(|r| r.name == "who"));
}

#[test]
fn reads_serialize_with_their_paths_and_places() {
    let reads = reads_of(&[("t.md.j2", "{{ user.name }}")], "t");
    let json = serde_json::to_value(&reads).unwrap();
    assert_eq!(
        json,
        serde_json::json!([{
            "name": "user",
            "kind": "object",
            "required": true,
            "paths": ["user.name"],
            "at": {"path": "prompts/t.md.j2", "line": 1, "column": 4},
        }])
    );
}

/// Each format says where its text first reads a value: in an included file, under a
/// capitalized variant, in the template body; nowhere for an input only a schema declares.
#[test]
fn reads_say_where_a_value_is_first_read() {
    let place = |reads: &[ValueUse], name: &str| {
        let at = named(reads, name).at.clone()?;
        Some(format!("{}:{}:{}", at.path, at.line, at.column))
    };
    let jinja = reads_of(
        &[
            (
                "placed.md.j2",
                "Trip.\n{% include 'parts/who.j2' %} {{ when }}",
            ),
            ("parts/who.j2", "For  {{ who }}."),
        ],
        "placed",
    );
    assert_eq!(
        place(&jinja, "who").as_deref(),
        Some("prompts/parts/who.j2:1:9")
    );
    assert_eq!(
        place(&jinja, "when").as_deref(),
        Some("prompts/placed.md.j2:2:33")
    );
    let markdown = reads_of(
        &[("placed_note.md", "Hi $Topic.\nBye $topic, $day.")],
        "placed_note",
    );
    assert_eq!(
        place(&markdown, "topic").as_deref(),
        Some("prompts/placed_note.md:1:4")
    );
    assert_eq!(
        place(&markdown, "day").as_deref(),
        Some("prompts/placed_note.md:2:13")
    );
    let dot = reads_of(
        &[(
            "placed_ticket.prompt",
            "---\ninput:\n  schema:\n    summary: string\n    unused?: string\n---\nTicket: {{summary}}",
        )],
        "placed_ticket",
    );
    assert_eq!(
        place(&dot, "summary").as_deref(),
        Some("prompts/placed_ticket.prompt:7:11")
    );
    assert_eq!(place(&dot, "unused"), None);
}

/// Thousands of keys of one value, and of thousands of values, are gathered in one pass:
/// the reads of a large template come at once (a quadratic gathering would take minutes).
#[test]
fn many_paths_are_gathered_in_linear_time() {
    let n = 5_000;
    let mut jinja = String::new();
    let mut dot = String::new();
    for i in 0..n {
        jinja.push_str(&format!("{{{{ u.k{i} }}}}{{{{ v{i}.x }}}}"));
        dot.push_str(&format!("{{{{u.k{i}}}}}{{{{v{i}.x}}}}"));
    }
    let reads = reads_of(&[("big.md.j2", &jinja)], "big");
    assert_eq!(named(&reads, "u").paths.len(), n);
    assert_eq!(named(&reads, "v4999").paths, ["v4999.x"]);
    let reads = reads_of(&[("bigd.prompt", &dot)], "bigd");
    assert_eq!(named(&reads, "u").paths.len(), n);
    assert_eq!(named(&reads, "v4999").paths, ["v4999.x"]);
    // Each of thousands of Markdown values is found where it is first read in one pass.
    let markdown: String = (0..n).map(|i| format!("$v{i} ")).collect();
    let reads = reads_of(&[("bigm.md", &markdown)], "bigm");
    let last = named(&reads, "v4999").at.clone().expect("a place");
    assert_eq!(
        (last.line, last.column),
        (1, markdown.len() - "$v4999 ".len() + 1)
    );
}

/// A value missing at render time is shown where the prompt first reads it: in the
/// prompt's file with a caret, in a note when a template reads it.
#[test]
fn a_missing_value_is_shown_where_it_is_read() {
    let dir = folder(&[
        ("missing_note.md", "Hello $who.\n$sig"),
        ("templates/sig.md", "Signed, $author."),
    ]);
    let project = Project::open(&dir, "prompts").unwrap();
    let prompt = project.load("missing_note").unwrap();
    let mut values = promptic::formats::Values::new();
    values.text("author", "Ann");
    let error = prompt.render(&values).unwrap_err().to_string();
    assert!(
        error.contains(" --> prompts/missing_note.md:1:7\n"),
        "{error}"
    );
    let mut values = promptic::formats::Values::new();
    values.text("who", "Bo");
    let error = prompt.render(&values).unwrap_err().to_string();
    assert!(
        error.contains("note: `$author` is first read at prompts/templates/sig.md:1:9"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A context file serves many prompts: a key a prompt does not read is not looked into (a
/// list for a Jinja prompt is no error for a Markdown one), and a file of 100,000 keys is
/// checked against each format's reads in one pass (it took minutes when each key was
/// compared with every other).
#[test]
fn a_context_file_of_many_keys_for_other_prompts_is_left_alone() {
    let dir = folder(&[
        (
            "shared_note.md",
            "Hello $who.\n{% if title %}\n$title\n{% endif %}",
        ),
        (
            "shared_trip.md.j2",
            "Trip for {{ who }}.{{ title | default('') }}",
        ),
        (
            "shared_ticket.prompt",
            "---\ninput:\n  schema:\n    who: string\n    title?: string\n---\nFor {{who}}.{{title}}",
        ),
    ]);
    // `has_user_counts` names another value (a word more), not `user_counts` mistyped.
    let mut json = String::from(r#"{"who": "Ada", "items": [1, 2], "has_user_counts": true"#);
    for i in 0..100_000 {
        json.push_str(&format!(r#", "key{i}": {i}"#));
    }
    json.push('}');
    let project = Project::open(&dir, "prompts").unwrap();
    let mut values = promptic::formats::Values::new();
    values
        .read_file(promptic::SourceFile::new("context.json", json))
        .unwrap();
    for name in ["shared_note", "shared_trip", "shared_ticket"] {
        let output = project.load(name).unwrap().render(&values);
        let text = output.map(|o| o.contents().concat());
        assert!(
            text.as_ref().is_ok_and(|t| t.contains("Ada")),
            "{name}: {text:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A value nested past what the readers take (128 lists and objects) is an error, never
/// read as nothing: in a context file, at its place; given by the program, for every
/// format that reads values as JSON.
#[test]
fn a_value_nested_too_deep_is_refused_not_read_as_nothing() {
    use promptic::SourceFile;
    use promptic::formats::Values;
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let mut values = Values::new();
    let file = SourceFile::new("ctx.json", format!("{{\"who\": \"Ada\", \"u\": {deep}}}"));
    let error = values.read_file(file).unwrap_err().to_string();
    assert!(
        error.starts_with(
            "error: the value of `u` in `ctx.json` cannot be read: nested more than 128 deep\n --> ctx.json:1:149"
        ),
        "{error}"
    );

    let dir = folder(&[
        ("j.md.j2", "{{ u }}"),
        ("d.prompt", "{{u}}"),
        (
            "store/_meta/prompt_manifest.json",
            r#"{"prompts": {"a": {"domain": "a"}}}"#,
        ),
        (
            "store/_meta/placeholder_registry.json",
            r#"{"placeholders": {"u": {"default": "", "resolve_phase": "runtime"}}}"#,
        ),
        (
            "store/a.json",
            r#"{"variants": {"default": {"text": "{{u}}"}}}"#,
        ),
    ]);
    let value: serde_json::Value =
        serde_json::from_str(&format!("{}{}", "[".repeat(100), "]".repeat(100))).unwrap();
    // Nested 200 deep, past what the readers take, built without a reader.
    let mut nested = value;
    for _ in 0..100 {
        nested = serde_json::Value::Array(vec![nested]);
    }
    let mut values = Values::new();
    values.json("u", &nested);
    for (folder, name) in [("", "j"), ("", "d"), ("store", "a")] {
        let project = Project::open(&dir.join(folder), "prompts").unwrap();
        let error = match project.load(name).unwrap().render(&values) {
            Ok(output) => panic!("{name}: rendered {:?}", output.contents()),
            Err(e) => e.to_string(),
        };
        assert!(error.contains("`u` cannot be read"), "{name}: {error}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A dotprompt input's schema holds inside the values given too: a required property an
/// object lacks, or an item of a list lacks, is an error naming its path (`null` is no
/// value, at the top as inside), and so is a key an object's schema does not allow.
#[test]
fn a_required_property_inside_a_dotprompt_input_is_required_too() {
    use promptic::SourceFile;
    use promptic::formats::Values;
    let dir = folder(&[
        (
            "o.prompt",
            "---\ninput:\n  schema:\n    user(object):\n      name: string\n      email: string\n    orders(array):\n      id: string\n      note?: string\n---\n{{user.name}} <{{user.email}}> {{#each orders}}{{id}} {{/each}}",
        ),
        (
            "n.prompt",
            "---\ninput:\n  schema:\n    type: object\n    properties:\n      note: {type: [string, \"null\"]}\n    required: [note]\n---\n[{{note}}]",
        ),
    ]);
    let project = Project::open(&dir, "prompts").unwrap();
    let render = |json: &str| {
        let mut values = Values::new();
        values.read_file(SourceFile::new("c.json", json)).unwrap();
        project
            .load("o")
            .unwrap()
            .render(&values)
            .map(|o| o.contents().concat())
    };
    let fine = r#"{"user": {"name": "Ada", "email": "a@b"}, "orders": [{"id": "1"}, {"id": "2", "note": "x"}]}"#;
    assert_eq!(render(fine).unwrap(), "Ada <a@b> 1 2 ");
    let error = render(
        r#"{"user": {"name": "Ada", "email": null}, "orders": [{"id": "1"}, {"note": "x"}]}"#,
    )
    .unwrap_err()
    .to_string();
    for path in ["user.email", "orders[1].id"] {
        assert!(
            error.contains(&format!(
                "cannot render `o`: the input `{path}` is required and has no value"
            )),
            "{path}: {error}"
        );
    }
    // A key an object's schema does not allow (Picoschema's objects allow no other) is a
    // misspelling until shown otherwise.
    let error = render(r#"{"user": {"name": "Ada", "email": "a@b", "emial": "x"}, "orders": []}"#)
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with(
            "error: cannot render `o`: the input `user` has `user.emial`, which its schema does not allow\n --> c.json:1:2"
        ),
        "{error}"
    );
    assert!(error.contains("did you mean `user.email`?"), "{error}");
    let error = render(r#"{"user": null, "orders": []}"#)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("the input `user` is required and has no value"),
        "{error}"
    );
    // Unless the schema takes `null`.
    let mut values = Values::new();
    values
        .read_file(SourceFile::new("c.json", r#"{"note": null}"#))
        .unwrap();
    let output = project.load("n").unwrap().render(&values).unwrap();
    assert_eq!(output.contents().concat(), "[]");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A chat prompt's history section is a value like any other: its messages come by its
/// name (from a program, a context file), for that section alone, ahead of the one
/// conversation `Values::history` gives every section; text there is an error.
#[test]
fn a_history_section_takes_its_messages_by_name() {
    use promptic::{Message, Role};
    let dir = folder(&[(
        "support_chat.md",
        "Support for $product.\n\n{% history earlier %}\n\n{% history turns %}\n\n{% user %}\n$question",
    )]);
    let project = Project::open(&dir, "prompts").unwrap();
    let prompt = project.load("support_chat").unwrap();
    let turns = vec![Message::user("Is it on?"), Message::assistant("It is.")];
    let mut values = promptic::formats::Values::new();
    values
        .text("product", "X")
        .text("question", "Why?")
        .json("turns", &turns);
    values.history = Some(vec![Message::user("Before.")]);
    let promptic::formats::Output::Chat(chat) = prompt.render(&values).unwrap() else {
        panic!("a chat prompt renders a chat");
    };
    let shown: Vec<(Role, &str)> = chat
        .messages
        .iter()
        .map(|m| (m.role, m.content.as_text().unwrap_or_default()))
        .collect();
    assert_eq!(
        shown,
        [
            (Role::System, "Support for X."),
            (Role::User, "Before."),
            (Role::User, "Is it on?"),
            (Role::Assistant, "It is."),
            (Role::User, "Why?"),
        ]
    );

    let mut values = promptic::formats::Values::new();
    values
        .text("product", "X")
        .text("question", "Why?")
        .text("turns", "hello");
    let error = prompt.render(&values).unwrap_err().to_string();
    assert!(
        error.contains("`turns` is a history section: it takes a list of messages, not text"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A value serde cannot write as JSON (a map keyed by pairs) is no value at all: every
/// format refuses it, naming it and serde's reason, where it rendered as `null` (Jinja's
/// `None`, an absent dotprompt input, an empty placeholder).
#[test]
fn a_value_serde_cannot_write_is_refused_by_every_format() {
    let dir = folder(&[
        ("unwritable_md.md", "Grid: $grid"),
        ("unwritable_j.md.j2", "Grid: {{ grid }}"),
        (
            "unwritable_d.prompt",
            "---\ninput:\n  schema:\n    grid?: any\n---\nGrid: {{grid}}",
        ),
    ]);
    let project = Project::open(&dir, "prompts").unwrap();
    let by_pair: std::collections::BTreeMap<(u8, u8), &str> = [((1, 2), "x")].into();
    for name in ["unwritable_md", "unwritable_j", "unwritable_d"] {
        let mut values = promptic::formats::Values::new();
        values.json("grid", &by_pair);
        let error = project
            .load(name)
            .unwrap()
            .render(&values)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with(
                "error: the value `grid` cannot be written as JSON: key must be a string"
            ),
            "{name}: {error}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
