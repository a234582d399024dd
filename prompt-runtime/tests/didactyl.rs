//! didactyl's template format, read at run time (`ChatTemplate`) and as a prompt file.

use prompt_runtime::Identity;
use prompt_runtime::chat::{ChatTemplate, Message, Role};
use prompt_runtime::check::{check, infer_context};
use prompt_runtime::load::PromptFile;
use prompt_runtime::resolve::{Schema, Templates, VarKind};
use std::collections::HashMap;

const SOUL: &str = "\
You are Didi, a patient tutor.
Keep answers short.
---template---
- section: admin_identity
  role: system
  limit: 0
  content: |

    Your administrator is {{admin_name}} ({{ admin_pubkey }}).

      Indented lines keep their extra indent.

- section: history
  role: expand
  limit: 2
- section: question
  role: user
  content: {{question}}
";

#[test]
fn a_template_reads_as_didactyl_reads_it() {
    let template = ChatTemplate::parse(SOUL).unwrap().unwrap();
    assert_eq!(
        template.personality(),
        "You are Didi, a patient tutor.\nKeep answers short."
    );
    let sections: Vec<(&str, Option<Role>, u64)> = template
        .sections()
        .iter()
        .map(|s| (s.name.as_str(), s.role, s.limit))
        .collect();
    assert_eq!(
        sections,
        [
            ("admin_identity", Some(Role::System), 0),
            ("history", None, 2),
            ("question", Some(Role::User), 0)
        ]
    );
    assert_eq!(template.names(), ["admin_name", "admin_pubkey", "question"]);
    let history = [
        Message::user("one"),
        Message::assistant("two"),
        Message::user("three"),
    ];
    let messages = template.messages(
        |name| match name {
            "admin_name" => Some("Ana".to_owned()),
            "question" => Some("What is 2+2?".to_owned()),
            _ => None,
        },
        &history,
    );
    let shown: Vec<(Role, &str, &str)> = messages
        .iter()
        .map(|m| (m.role, &*m.section, m.content.as_text().unwrap_or_default()))
        .collect();
    assert_eq!(
        shown,
        [
            (
                Role::System,
                "system_prompt",
                "You are Didi, a patient tutor.\nKeep answers short."
            ),
            (
                Role::System,
                "admin_identity",
                "Your administrator is Ana ().\n\n  Indented lines keep their extra indent."
            ),
            (Role::Assistant, "history", "two"),
            (Role::User, "history", "three"),
            (Role::User, "question", "What is 2+2?"),
        ]
    );
    assert!(
        template
            .check(&["admin_name", "admin_pubkey", "question"])
            .is_ok()
    );
    let err = template
        .check(&["admin_name", "question", "admin_pubkeys"])
        .unwrap_err();
    assert_eq!(err.0.len(), 1);
    let shown = err.to_string();
    assert!(
        shown.contains("unknown placeholder `{{admin_pubkey}}`\n --> template:9:43"),
        "{shown}"
    );
    assert!(
        shown.contains("did you mean `{{admin_pubkeys}}`?"),
        "{shown}"
    );
}

#[test]
fn no_marker_means_no_template() {
    assert!(
        ChatTemplate::parse("A soul without a template.\n--- template ---")
            .unwrap()
            .is_none()
    );
    assert!(ChatTemplate::parse("").unwrap().is_none());
}

#[test]
fn every_problem_is_reported_at_its_line() {
    let err = ChatTemplate::parse(
        "P\n---template---\nrole: system\n- section: a\n  role: expnad\n  limit: ten\n  colour: red\n  content: {{name\n- section:\n",
    )
    .unwrap_err();
    let found: Vec<(usize, &str)> = err
        .0
        .iter()
        .map(|d| (d.location().unwrap().line, d.message()))
        .collect();
    assert_eq!(
        found,
        [
            (3, "`role:` outside a section"),
            (5, "unknown role `expnad`"),
            (6, "`limit` must be a whole number, found `ten`"),
            (7, "unknown key `colour`"),
            (8, "`{{name` is never closed on its line"),
            (9, "a section needs a name"),
        ]
    );
    assert_eq!(
        err.0[1].help(),
        Some("did you mean `expand`? the roles are `system`, `user`, `assistant` and `expand`")
    );
}

#[test]
fn a_prompt_file_in_the_format_checks_and_renders_like_any_prompt() {
    let file = PromptFile::from_text("prompts/didi.md", SOUL).unwrap();
    let templates = Templates::new();
    let context = infer_context(&file, &["admin_name".into()], &[], &templates);
    let kinds: Vec<(&str, &VarKind)> = context.iter().map(|v| (v.name.as_str(), &v.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("admin_pubkey", &VarKind::Text),
            ("history", &VarKind::Messages),
            ("question", &VarKind::Text)
        ]
    );
    let schema = Schema {
        context,
        identity: vec!["admin_name".into()],
        ..Schema::default()
    };
    let prompt = check("didi", file, schema, &templates).unwrap();
    assert!(prompt.resolved.is_chat());
    let identity = Identity::from_pairs([("admin_name", "Ana")]);
    let values = HashMap::from([
        ("admin_pubkey".to_owned(), "npub1".to_owned()),
        ("question".to_owned(), "Why?".to_owned()),
    ]);
    let history = [
        Message::user("a"),
        Message::assistant("b"),
        Message::user("c"),
    ];
    let chat = prompt.messages(&values, &history, &identity).unwrap();
    let runtime = ChatTemplate::parse(SOUL).unwrap().unwrap().messages(
        |name| match name {
            "admin_name" => Some("Ana".into()),
            "admin_pubkey" => Some("npub1".into()),
            "question" => Some("Why?".into()),
            _ => None,
        },
        &history,
    );
    assert_eq!(chat.messages, runtime);
    // An unknown name in a section is an unknown placeholder, located in the file.
    let typo = PromptFile::from_text(
        "prompts/didi.md",
        &SOUL.replace("{{question}}", "{{questoin}}"),
    )
    .unwrap();
    let schema = Schema {
        context: prompt.schema.context.clone(),
        identity: vec!["admin_name".into()],
        ..Schema::default()
    };
    let err = check("didi", typo, schema, &templates).unwrap_err();
    let shown = err.to_string();
    assert!(
        shown.contains("unknown placeholder `{{questoin}}`\n  --> prompts/didi.md:18:12"),
        "{shown}"
    );
    assert!(shown.contains("did you mean `{{question}}`?"), "{shown}");
}

#[test]
fn only_spaces_and_tabs_indent_a_content_block() {
    // U+1680 and U+3000 are white space to Unicode but content here: the block is
    // dedented by its ASCII indentation only, and a line whose white space is shorter
    // (a blank line of other white space) loses only what it has.
    let text = "P\n---template---\n- section: q\n  role: user\n  content: |\n    one\n\u{1680}\n  \u{3000}two\n";
    let template = ChatTemplate::parse(text).unwrap().unwrap();
    let messages = template.messages(|_| None, &[]);
    let q = messages
        .iter()
        .find(|m| &*m.section == "q")
        .expect("section q");
    assert_eq!(q.content, "  one\n\u{1680}\n\u{3000}two");
}
