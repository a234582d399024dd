//! Property test of how lines are joined: for any nesting of blocks, blank lines and
//! templates alone on their lines, the rendered text is the lines whose blocks hold, joined
//! with `\n` — no blank line left behind by a false block or an empty template, wherever
//! it stands — in the prompt and inside a template.

use prompt_runtime::Identity;
use prompt_runtime::check::check;
use prompt_runtime::load::PromptFile;
use prompt_runtime::resolve::{ContextVar, Schema, Templates, VarKind};
use proptest::prelude::*;
use std::collections::HashMap;

#[derive(Clone, Debug)]
enum Item {
    Line(String),
    /// `$tpl` alone on its line: the template's lines, `T1` and `T2`, when `c` is set.
    Template,
    Block {
        flag: usize,
        then: Vec<Item>,
        otherwise: Option<Vec<Item>>,
    },
}

const FLAGS: [&str; 3] = ["a", "b", "c"];

fn items() -> impl Strategy<Value = Vec<Item>> {
    let line = "[a-z]{1,4}( [a-z]{1,4})?".prop_map(Item::Line);
    let item = line.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            3 => "[a-z]{0,4}".prop_map(Item::Line),
            1 => Just(Item::Template),
            2 => (0..FLAGS.len(), prop::collection::vec(inner.clone(), 0..4), prop::option::of(prop::collection::vec(inner, 0..3)))
                .prop_map(|(flag, then, otherwise)| Item::Block { flag, then, otherwise }),
        ]
    });
    // A body's surrounding blank lines are stripped when it is loaded: keep them out.
    prop::collection::vec(item, 1..6).prop_filter("no blank first or last line", |items| {
        let mut lines = Vec::new();
        source(items, &mut lines);
        lines.first().is_some_and(|l| !l.is_empty()) && lines.last().is_some_and(|l| !l.is_empty())
    })
}

fn source(items: &[Item], out: &mut Vec<String>) {
    for item in items {
        match item {
            Item::Line(text) => out.push(text.clone()),
            Item::Template => out.push("$tpl".to_owned()),
            Item::Block {
                flag,
                then,
                otherwise,
            } => {
                out.push(format!("{{% if {} %}}", FLAGS[*flag]));
                source(then, out);
                if let Some(otherwise) = otherwise {
                    out.push("{% else %}".to_owned());
                    source(otherwise, out);
                }
                out.push("{% endif %}".to_owned());
            }
        }
    }
}

/// The lines that render, by the definition.
fn expected(items: &[Item], set: &[bool; 3], out: &mut Vec<String>) {
    for item in items {
        match item {
            Item::Line(text) => out.push(text.clone()),
            Item::Template => {
                if set[2] {
                    out.extend(["T1".to_owned(), "T2".to_owned()]);
                }
            }
            Item::Block {
                flag,
                then,
                otherwise,
            } => {
                if set[*flag] {
                    expected(then, set, out);
                } else if let Some(otherwise) = otherwise {
                    expected(otherwise, set, out);
                }
            }
        }
    }
}

fn schema() -> Schema {
    Schema {
        context: FLAGS
            .iter()
            .map(|f| ContextVar::new(*f, VarKind::Flag))
            .collect(),
        ..Schema::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn rendered_lines_are_the_kept_lines_joined(body in items(), before in "[A-Z]{0,3}", after in "[A-Z]{0,3}") {
        let mut lines = Vec::new();
        source(&body, &mut lines);
        let text = lines.join("\n");
        // The same body as a prompt, and as a template inlined between two words.
        let mut templates = Templates::new();
        templates.insert("tpl", PromptFile::from_text("t/tpl.md", "{% if c %}\nT1\nT2\n{% endif %}").unwrap());
        let direct = check("p", PromptFile::from_text("p.md", &text).unwrap(), schema(), &templates);
        templates.insert("body", PromptFile::from_text("t/body.md", &text).unwrap());
        let direct = direct.map_err(|d| TestCaseError::fail(d.to_string()))?;
        let wrapper = format!("{before}${{body}}{after}");
        let inlined = check("w", PromptFile::from_text("w.md", &wrapper).unwrap(), schema(), &templates);
        let inlined = inlined.map_err(|d| TestCaseError::fail(d.to_string()))?;
        for bits in 0..8u8 {
            let set = [bits & 1 != 0, bits & 2 != 0, bits & 4 != 0];
            let values: HashMap<String, String> = FLAGS
                .iter()
                .zip(set)
                .map(|(f, on)| (f.to_string(), on.to_string()))
                .collect();
            let mut kept = Vec::new();
            expected(&body, &set, &mut kept);
            let want = kept.join("\n");
            let got = direct.render(&values, &Identity::default()).unwrap().text;
            prop_assert_eq!(&got, &want, "prompt {:?} with {:?}", text, set);
            let got = inlined.render(&values, &Identity::default()).unwrap().text;
            prop_assert_eq!(got, format!("{before}{want}{after}"), "template {:?} with {:?}", text, set);
        }
    }
}
