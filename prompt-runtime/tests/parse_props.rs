//! Property tests: no input makes the pipeline panic, and every span it reports lies on
//! character boundaries inside the text.

use prompt_runtime::check::check;
use prompt_runtime::load::PromptFile;
use prompt_runtime::parse::{Node, ParseOptions, parse};
use prompt_runtime::resolve::{ContextVar, Schema, Templates, VarKind};
use proptest::prelude::*;

fn spans(nodes: &[Node], out: &mut Vec<std::ops::Range<usize>>) {
    for node in nodes {
        match node {
            Node::Text(r) | Node::Dollar(r) | Node::CacheBreakpoint(r) => out.push(r.clone()),
            Node::Placeholder(p) => out.push(p.span.clone()),
            Node::Section(s) => out.push(s.span.clone()),
            Node::If(block) => {
                out.push(block.span.clone());
                let (_, name_span) = block.condition.name();
                out.push(name_span.clone());
                spans(&block.then, out);
                if let Some(otherwise) = &block.otherwise {
                    spans(otherwise, out);
                }
            }
        }
    }
}

/// Text made of the pieces the language cares about, so that the interesting paths run.
fn prompt_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("$".to_owned()),
        Just("$$".to_owned()),
        Just("${".to_owned()),
        Just("}".to_owned()),
        Just("{%".to_owned()),
        Just("%}".to_owned()),
        Just("{% if note %}\n".to_owned()),
        Just("{% if level == \"lean\" %}\n".to_owned()),
        Just("{% else %}\n".to_owned()),
        Just("{% cache_breakpoint %}\n".to_owned()),
        Just("{% endif %}\n".to_owned()),
        Just("{% endfi %}\n".to_owned()),
        Just("{\n".to_owned()),
        Just("\"title\": \"x\"\n".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just("note".to_owned()),
        Just("day".to_owned()),
        Just("é".to_owned()),
        Just("\u{212A}".to_owned()),
        Just("\"".to_owned()),
        "[a-z_ ]{1,6}",
        any::<char>().prop_map(|c| c.to_string()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

fn schema() -> Schema {
    Schema {
        context: vec![
            ContextVar::new("day", VarKind::Text),
            ContextVar::new("note", VarKind::Optional),
            ContextVar::new(
                "level",
                VarKind::Choice(vec!["lean".into(), "detailed".into()]),
            ),
        ],
        identity: vec!["preferred".into()],
        ..Schema::default()
    }
}

fn check_all(text: &str) {
    let source = prompt_runtime::SourceFile::new("p.md", text);
    let (nodes, diagnostics) = parse(&source, 0..text.len(), ParseOptions::default());
    let mut all = Vec::new();
    spans(&nodes, &mut all);
    for span in all {
        assert!(
            span.start <= span.end && span.end <= text.len(),
            "{span:?} in {text:?}"
        );
        assert!(
            text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
            "{span:?} in {text:?}"
        );
    }
    for d in diagnostics {
        let loc = d.location().expect("parse diagnostics have a location");
        assert!(text.is_char_boundary(loc.span.start) && text.is_char_boundary(loc.span.end));
        let _ = d.to_string();
    }
    // The whole pipeline, frontmatter and metadata included, never panics either.
    if let Ok(file) = PromptFile::from_text("p.md", text) {
        match check("p", file, schema(), &Templates::new()) {
            Ok(prompt) => {
                let context = std::collections::HashMap::from([
                    ("day".to_owned(), "Friday".to_owned()),
                    ("level".to_owned(), "lean".to_owned()),
                ]);
                let identity = prompt_runtime::Identity::from_pairs([("preferred", "sam")]);
                let out = prompt
                    .render(&context, &identity)
                    .expect("all values given");
                assert_eq!(
                    out.text.capacity(),
                    out.text.len(),
                    "one allocation of the exact size"
                );
            }
            Err(diagnostics) => {
                let _ = diagnostics.to_string();
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn prompt_like_text_never_panics(text in prompt_like()) {
        check_all(&text);
    }

    #[test]
    fn any_text_never_panics(text in any::<String>()) {
        check_all(&text);
    }
}
