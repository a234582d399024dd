//! [`HotDotprompt`] with a hand-written prompt; `tests/hot_reload.rs` runs it on derived
//! ones.

use super::HotDotprompt;
use prompt_runtime::formats::dotprompt::schema::TypeKind;
use prompt_runtime::formats::dotprompt::{
    DotpromptField, DotpromptPrompt, HelperArgs, HelperPtr, Message, Registry, RenderedPrompt,
    Value,
};
use prompt_runtime::value::{FieldShape, PromptValue, Shape};
use prompt_runtime::{Diagnostic, Diagnostics};
use std::path::PathBuf;

const PROMPT: &str = "---\n\
model: demo\n\
input:\n  \
  schema:\n    \
    summary: string\n    \
    priority?: integer\n    \
    user: Person\n\
---\n\
{{role \"system\"}}\n\
Triage the ticket.{{cacheBreakpoint}}\n\
{{role \"user\"}}\n\
{{> sign}}{{shout summary}} from {{user.name}}{{#if priority}} (p{{priority}}){{/if}}\n";
const SIGN: &str = "Desk: ";
const SCHEMAS: &str = r#"{"Person": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}"#;

struct Person {
    name: &'static str,
}

const PERSON: Shape = Shape::Struct {
    name: "Person",
    fields: &[FieldShape {
        name: "name",
        shape: &<&str as PromptValue>::SHAPE,
    }],
};

/// `prompts/ticket.prompt` with `_sign.prompt` and `schemas.json`, by hand as the derive
/// would write it.
struct Ticket {
    summary: &'static str,
    priority: Option<i64>,
    user: Person,
}

fn shout(args: &HelperArgs<'_>) -> Result<Value, String> {
    match args.param(0) {
        Some(Value::String(s)) => Ok(Value::String(s.to_uppercase())),
        _ => Err("shout takes a text".to_owned()),
    }
}

impl DotpromptPrompt for Ticket {
    const NAME: &'static str = "ticket";
    const PATH: &'static str = "prompts/ticket.prompt";
    const STRUCT_NAME: &'static str = "Ticket";
    const FIELDS: &'static [DotpromptField] = &[
        DotpromptField {
            name: "summary",
            kind: &[TypeKind::Text],
            shape: &Shape::Text,
        },
        DotpromptField {
            name: "priority",
            kind: &[TypeKind::Optional, TypeKind::Number],
            shape: &<Option<i64> as PromptValue>::SHAPE,
        },
        DotpromptField {
            name: "user",
            kind: &[TypeKind::Other],
            shape: &PERSON,
        },
    ];
    const SOURCES: &'static [(&'static str, &'static str)] = &[
        ("prompts/ticket.prompt", PROMPT),
        ("prompts/_sign.prompt", SIGN),
        ("prompts/schemas.json", SCHEMAS),
    ];
    const HELPERS: &'static [(&'static str, HelperPtr)] = &[("shout", shout)];

    fn values(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut values = serde_json::Map::new();
        values.insert("summary".into(), self.summary.into());
        if let Some(p) = self.priority {
            values.insert("priority".into(), p.into());
        }
        values.insert("user".into(), serde_json::json!({ "name": self.user.name }));
        values
    }

    /// The compiled texts through the run-time renderer, marked so that a test can tell
    /// the compiled render from a reloaded one.
    fn render_compiled(
        &self,
        context: &serde_json::Map<String, serde_json::Value>,
        history: &[Message],
    ) -> Result<RenderedPrompt, Diagnostic> {
        let first = |d: Diagnostics| d.0[0].clone();
        let mut registry = Registry::new();
        registry.define_helper("shout", shout as HelperPtr)?;
        registry
            .define_partial_file("sign", "prompts/_sign.prompt", SIGN)
            .map_err(first)?;
        let schemas: serde_json::Value = serde_json::from_str(SCHEMAS).unwrap_or_default();
        registry.define_schema("Person", schemas["Person"].clone());
        let prompt = registry
            .parse_file("prompts/ticket.prompt", PROMPT)
            .map_err(first)?;
        let mut rendered = prompt_runtime::__private::render_dotprompt_with_context(
            &prompt,
            self.values(),
            context,
            history,
        )?;
        rendered.messages[0]
            .content
            .push(prompt_runtime::formats::dotprompt::Part::from_text(
                "[compiled]",
            ));
        Ok(rendered)
    }
}

fn ticket() -> Ticket {
    Ticket {
        summary: "wifi drops",
        priority: Some(2),
        user: Person { name: "Ann" },
    }
}

/// A scratch root with the compiled files, removed when dropped.
struct Root(PathBuf);

impl Root {
    fn new(name: &str) -> Root {
        let root = std::env::temp_dir().join(format!(
            "promptic-hot-dotprompt-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("prompts")).unwrap();
        let r = Root(root);
        r.write("prompts/ticket.prompt", PROMPT);
        r.write("prompts/_sign.prompt", SIGN);
        r.write("prompts/schemas.json", SCHEMAS);
        r
    }

    fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.0.join(rel), text).unwrap();
    }

    fn edit(&self, rel: &str, from: &str, to: &str) {
        let text = std::fs::read_to_string(self.0.join(rel)).unwrap();
        assert!(text.contains(from), "{rel} has no {from:?}");
        self.write(rel, &text.replacen(from, to, 1));
    }

    fn hot(&self) -> HotDotprompt<Ticket> {
        HotDotprompt::<Ticket>::builder()
            .root(&self.0)
            .enabled(true)
            .in_release(true)
            .build()
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every message's text, one line each.
fn text(hot: &HotDotprompt<Ticket>) -> String {
    let rendered = hot.render(&ticket()).unwrap();
    rendered
        .messages
        .iter()
        .map(|m| {
            let parts: Vec<&str> = m.content.iter().filter_map(|p| p.text()).collect();
            format!("{}: {}", m.role, parts.concat())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn located(problems: &Diagnostics) -> (String, Option<String>, String, usize, usize) {
    let d = &problems.0[0];
    let at = d.location().expect("a located diagnostic");
    (
        d.message().to_owned(),
        d.help().map(str::to_owned),
        at.path.clone(),
        at.line,
        at.col,
    )
}

#[test]
fn an_edit_is_swapped_in_and_a_bad_one_keeps_the_previous_version() {
    let root = Root::new("swap");
    let hot = root.hot();
    let compiled =
        "system: \nTriage the ticket.\n[compiled]\nuser: \nDesk: WIFI DROPS from Ann (p2)";
    assert_eq!(text(&hot), compiled);
    // The files are the compiled ones: the compiled render stays.
    assert_eq!(hot.reload(), Ok(false));
    assert!(!hot.is_reloaded());

    root.edit(
        "prompts/ticket.prompt",
        "Triage the ticket.",
        "Sort the ticket.",
    );
    assert_eq!(hot.reload(), Ok(true));
    assert!(hot.is_reloaded());
    let edited = "system: \nSort the ticket.\n\nuser: \nDesk: WIFI DROPS from Ann (p2)";
    assert_eq!(text(&hot), edited);
    assert_eq!(hot.reload(), Ok(false), "the same files again");

    // A misspelt name the template reads: refused where it stands, with the closest one.
    root.edit(
        "prompts/ticket.prompt",
        "{{shout summary}}",
        "{{shout summray}}",
    );
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        located(&problems),
        (
            "the template reads `summray`, which the input schema does not have".to_owned(),
            Some("did you mean `summary`?".to_owned()),
            "prompts/ticket.prompt".to_owned(),
            12,
            19
        ),
        "{problems}"
    );
    assert!(
        problems
            .to_string()
            .contains("--> prompts/ticket.prompt:12:19")
    );
    assert_eq!(hot.last_error(), Some(problems));
    assert_eq!(text(&hot), edited);

    // Broken Handlebars: the dotprompt reader's own diagnostic.
    root.edit(
        "prompts/ticket.prompt",
        "{{shout summray}}",
        "{{#if summary}}",
    );
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        problems.0[0].location().unwrap().path,
        "prompts/ticket.prompt"
    );
    assert_eq!(text(&hot), edited);

    // Back to the compiled files: the compiled render again.
    root.write("prompts/ticket.prompt", PROMPT);
    assert_eq!(hot.reload(), Ok(true));
    assert!(!hot.is_reloaded());
    assert_eq!(hot.last_error(), None);
    assert_eq!(text(&hot), compiled);
    assert!(format!("{hot:?}").starts_with("HotDotprompt { root: Some("));
}

/// An edit of the input schema: what it replaces, with what, where, the error, its help,
/// and its line and column.
type SchemaEdit<'a> = (
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    Option<&'a str>,
    (usize, usize),
);

/// Each edit of the input schema is checked against the struct as the derive checks it.
#[test]
fn the_input_schema_is_checked_against_the_struct() {
    let root = Root::new("schema");
    let hot = root.hot();
    let cases: [SchemaEdit; 5] = [
        // Renamed where the schema declares it and where the template reads it.
        (
            "summary",
            "sumary",
            "prompts/ticket.prompt",
            "field `summary` is not a property of the input schema of prompts/ticket.prompt",
            Some("did you mean `sumary`?"),
            (4, 3),
        ),
        (
            "    priority?: integer\n",
            "    priority: integer\n",
            "prompts/ticket.prompt",
            "property `priority` is required, but field `priority` of `Ticket` is an `Option`",
            Some("make the field not an `Option`, or the property optional (`priority?`)"),
            (6, 5),
        ),
        (
            "    summary: string\n",
            "    summary: integer\n",
            "prompts/ticket.prompt",
            "field `summary` of `Ticket` does not fit the schema's type",
            Some("the schema says integer: use an integer type (`i64`, `u32`, ...)"),
            (5, 5),
        ),
        (
            "    user: Person\n",
            "    user: Person\n    tag?: string\n",
            "prompts/ticket.prompt",
            "property `tag` is not a field of `Ticket`",
            Some("add a field `tag: Option<…>` to `Ticket`"),
            (8, 5),
        ),
        (
            "    user: Person\n",
            "    user(object):\n      name: string\n      mail: string\n",
            "prompts/ticket.prompt",
            "no field `mail` in `Person` (read as `user.mail`)",
            Some("its fields are `name`"),
            (9, 7),
        ),
    ];
    for (from, to, file, message, help, (line, col)) in cases {
        root.write(file, &PROMPT.replace(from, to));
        let problems = hot.reload().unwrap_err();
        let d = &problems.0[0];
        assert_eq!(d.message(), message, "{problems}");
        assert_eq!(d.help(), help, "{problems}");
        let at = d.location().expect("located");
        assert_eq!(
            (at.path.as_str(), at.line, at.col),
            (file, line, col),
            "{problems}"
        );
        assert!(!hot.is_reloaded());
        root.write(file, PROMPT);
    }

    // The schema a property names is read from `schemas.json` again too.
    root.write(
        "prompts/schemas.json",
        &SCHEMAS.replace("\"name\"", "\"nom\""),
    );
    let problems = hot.reload_if_changed().unwrap_err();
    assert_eq!(
        problems.0[0].message(),
        "the template reads `user.name`, which the input schema does not have",
        "{problems}"
    );
    root.write("prompts/schemas.json", SCHEMAS);
    assert_eq!(
        hot.reload_if_changed(),
        Ok(false),
        "the compiled files again"
    );
    assert_eq!(hot.last_error(), None);
}

#[test]
fn partials_are_watched_found_or_not_and_read_by_the_guarded_reader() {
    let root = Root::new("partials");
    let hot = root.hot();
    assert_eq!(hot.reload_if_changed(), Ok(false));
    root.write("prompts/_sign.prompt", "Help desk: ");
    assert_eq!(hot.reload_if_changed(), Ok(true), "the partial changed");
    assert!(
        text(&hot).contains("user: \nHelp desk: WIFI"),
        "{}",
        text(&hot)
    );
    assert_eq!(hot.reload_if_changed(), Ok(false));

    // A partial that does not exist yet is refused, and noticed when it appears.
    root.edit(
        "prompts/ticket.prompt",
        "{{> sign}}",
        "{{> sign}}{{> lead}}",
    );
    assert!(hot.reload_if_changed().is_err());
    assert_eq!(hot.reload_if_changed(), Ok(false), "reported once");
    root.write("prompts/_lead.prompt", "Re: ");
    assert_eq!(hot.reload_if_changed(), Ok(true));
    assert!(
        text(&hot).contains("user: \nHelp desk: Re: WIFI"),
        "{}",
        text(&hot)
    );

    // Too large a partial is refused before it is read.
    let big = "x".repeat(usize::try_from(super::MAX_FILE).unwrap() + 1);
    root.write("prompts/_lead.prompt", &big);
    let problems = hot.reload_if_changed().unwrap_err();
    assert!(
        problems.0[0]
            .message()
            .starts_with("`prompts/_lead.prompt` is 4194305 bytes, more than"),
        "{problems}"
    );
    assert!(text(&hot).contains("user: \nHelp desk: Re: WIFI"));

    // A partial that links out of `prompts/` is refused.
    #[cfg(unix)]
    {
        let outside = root.0.join("secret.prompt");
        std::fs::write(&outside, "secret").unwrap();
        std::fs::remove_file(root.0.join("prompts/_lead.prompt")).unwrap();
        std::os::unix::fs::symlink(&outside, root.0.join("prompts/_lead.prompt")).unwrap();
        let problems = hot.reload_if_changed().unwrap_err();
        assert_eq!(
            problems.0[0].message(),
            format!(
                "`prompts/_lead.prompt` is a link to `{}`, outside `prompts/`, so it is not read",
                outside.display()
            ),
            "{problems}"
        );
        assert!(text(&hot).contains("user: \nHelp desk: Re: WIFI"));
    }
}

#[test]
fn cache_breakpoints_helpers_and_the_prompt_file_are_kept_as_compiled() {
    let root = Root::new("kept");
    let hot = root.hot();
    let compiled = hot.render(&ticket()).unwrap().breakpoints;
    assert_eq!(compiled.len(), 1);
    root.edit(
        "prompts/ticket.prompt",
        "Triage the ticket.",
        "Triage this ticket.",
    );
    assert_eq!(hot.reload(), Ok(true));
    let reloaded = hot.render(&ticket()).unwrap();
    assert_eq!(reloaded.breakpoints.len(), 1);
    assert_eq!(reloaded.breakpoints[0].message, compiled[0].message);
    assert_eq!(reloaded.breakpoints[0].offset, compiled[0].offset + 1);
    let history = [Message {
        role: "model".into(),
        content: vec![prompt_runtime::formats::dotprompt::Part::from_text(
            "earlier",
        )],
        metadata: None,
    }];
    let with_history = hot.render_with_history(&ticket(), &history).unwrap();
    assert_eq!(with_history.messages.len(), reloaded.messages.len() + 1);

    // A variable before the breakpoint: the cacheable prefix is no longer static.
    root.edit(
        "prompts/ticket.prompt",
        "Triage this ticket.",
        "Triage {{summary}}.",
    );
    assert!(hot.reload().is_err());
    assert_eq!(hot.render(&ticket()).unwrap(), reloaded);

    // A helper of the struct that the template stops calling.
    root.write(
        "prompts/ticket.prompt",
        &PROMPT.replace("{{shout summary}}", "{{summary}}"),
    );
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        problems.0[0].message(),
        "the helper `shout` is not called by prompts/ticket.prompt"
    );

    // Another file with the prompt's name makes the name ambiguous.
    root.write("prompts/ticket.prompt", PROMPT);
    root.write("prompts/ticket.md", "Hello");
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        problems.0[0].message(),
        "the prompt `ticket` has two files: `prompts/ticket.md` and `prompts/ticket.prompt`"
    );
    assert_eq!(hot.render(&ticket()).unwrap(), reloaded);
}

#[test]
fn off_it_renders_the_compiled_prompt_and_reads_nothing() {
    let root = Root::new("off");
    let hot = HotDotprompt::<Ticket>::builder().root(&root.0).build();
    assert!(!hot.is_enabled());
    root.edit(
        "prompts/ticket.prompt",
        "Triage the ticket.",
        "Sort the ticket.",
    );
    assert_eq!(hot.reload(), Ok(false));
    assert_eq!(hot.reload_if_changed(), Ok(false));
    assert!(text(&hot).contains("[compiled]"));
    let no_root = HotDotprompt::<Ticket>::builder()
        .enabled(true)
        .in_release(true)
        .build();
    assert_eq!(
        no_root.reload().unwrap_err().0[0].message(),
        "cannot reload `prompts/ticket.prompt`: the hot prompt has no root folder"
    );
}

#[test]
fn a_field_type_the_derive_reads_as_other_fits_any_schema_but_a_scalar() {
    use prompt_runtime::formats::dotprompt::schema::compatible;
    let schema = |json: &str| -> Value { serde_json::from_str(json).unwrap() };
    let other = [TypeKind::Other];
    assert_eq!(compatible(&schema(r#"{"type": "object"}"#), &other), None);
    assert_eq!(compatible(&schema(r#"{"type": "array"}"#), &other), None);
    assert!(compatible(&schema(r#"{"type": "string"}"#), &other).is_some());
    let optional_list = [
        TypeKind::Optional,
        TypeKind::List,
        TypeKind::Optional,
        TypeKind::Number,
    ];
    let numbers = schema(r#"{"type": "array", "items": {"type": ["integer", "null"]}}"#);
    assert_eq!(compatible(&numbers, &optional_list), None);
    assert_eq!(
        compatible(&numbers, &[TypeKind::List, TypeKind::Bool]).as_deref(),
        Some("its items: the schema says integer: use an integer type (`i64`, `u32`, ...)")
    );
}
