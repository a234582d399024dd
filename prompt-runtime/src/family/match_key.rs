//! A member's frontmatter `"match"`: a list of rule lines, each a JSON string.
//!
//! `"match": ["type=meeting project=myapp", "type=standup"]`. A malformed rule is an error
//! at its line and column in the prompt file, showing the `key=value` form. The key stays
//! in the prompt's [`Meta::extra`](crate::Meta::extra) like every key `Meta` does not
//! type (`placeholders` too): metadata shows the frontmatter as written.

use super::rules::{RuleLine, Rules};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::parse::PromptFile;
use serde_json::value::RawValue;
use std::ops::Range;

/// The frontmatter key that holds a member's rules.
pub const MATCH_KEY: &str = "match";

/// True when the file's frontmatter has a `"match"`, a `"scope"` or a `"_when"` key (well
/// formed or not): it is a member of a family.
pub(crate) fn declares_rules(file: &PromptFile) -> bool {
    // keep's `_when` marks a member too: its folder is a family, so that the condition is
    // refused where the derive refuses it, not passed over.
    file.frontmatter.as_ref().is_some_and(|f| {
        f.get(MATCH_KEY).is_some()
            || f.get(super::scope_key::SCOPE_KEY).is_some()
            || f.get(super::scope_key::WHEN_KEY).is_some()
    })
}

/// The rules of a family member's frontmatter `"match"` list, as a prompts folder's
/// family reads them, and the span of the `"match"` value; a file without the key has no
/// rules (it is the family's default). A malformed rule, or a value that is not a list of
/// strings, is an error at its line and column in the file.
///
/// ```
/// use promptic::family::read_match;
/// use promptic::load::PromptFile;
///
/// let file = PromptFile::from_text("prompts/summarize/meeting.md",
///     "{\n  \"match\": [\"type=meeting project=myapp\", \"type=standup\"]\n}\nSummarize.").unwrap();
/// let (rules, _) = read_match(&file).unwrap();
/// assert_eq!(rules.lines.len(), 2);
///
/// let bad = PromptFile::from_text("prompts/summarize/bad.md", "{\n  \"match\": [\"type meeting\"]\n}\nx").unwrap();
/// assert!(read_match(&bad).unwrap_err().to_string().contains("prompts/summarize/bad.md:2:"));
/// ```
pub fn read_match(file: &PromptFile) -> Result<(Rules, Option<Range<usize>>), Diagnostics> {
    let Some(entry) = file.frontmatter.as_ref().and_then(|f| f.get(MATCH_KEY)) else {
        return Ok((Rules::default(), None));
    };
    let source = &file.source;
    let at = entry.span.clone();
    let example = "\"match\": [\"type=meeting project=myapp\", \"type=standup\"]";
    let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(&entry.json) else {
        let found = match serde_json::from_str::<serde_json::Value>(&entry.json) {
            Ok(serde_json::Value::String(s)) => {
                let help = format!("put the rule in a list: `\"match\": [{}]`", entry.json);
                return Err(Diagnostic::new(format!(
                    "frontmatter key `match` must be a list of rules, found the string \"{s}\""
                ))
                .at(source, at)
                .with_help(help)
                .into());
            }
            Ok(serde_json::Value::Null) => "null",
            Ok(serde_json::Value::Object(_)) => "an object",
            Ok(serde_json::Value::Bool(_)) => "a boolean",
            Ok(serde_json::Value::Number(_)) => "a number",
            _ => "a list of other values",
        };
        return Err(Diagnostic::new(format!(
            "frontmatter key `match` must be a list of rules, found {found}"
        ))
        .at(source, at)
        .with_help(format!(
            "write each rule as a string of `key=value` pairs: `{example}`"
        ))
        .into());
    };
    if items.is_empty() {
        return Err(Diagnostic::new("frontmatter key `match` is an empty list")
            .at(source, at)
            .with_help("remove `match` to make this prompt the family's default, or give it rules: `\"match\": [\"type=meeting\"]`")
            .into());
    }
    let mut problems = Diagnostics::default();
    let mut lines = Vec::new();
    for raw in items {
        // Where the item is in the file: the entry's JSON is a copy of the file's text.
        let offset = raw.get().as_ptr() as usize - entry.json.as_ptr() as usize;
        let item_span = at.start + offset..at.start + offset + raw.get().len();
        let Ok(text) = serde_json::from_str::<String>(raw.get()) else {
            problems.push(
                Diagnostic::new(format!(
                    "a match rule must be a string, found `{}`",
                    raw.get()
                ))
                .at(source, item_span)
                .with_help("write the rule in double quotes: `\"type=meeting\"`"),
            );
            continue;
        };
        match RuleLine::parse(&text) {
            Ok(line) => lines.push(line),
            Err(e) => {
                // Without escapes the rule's bytes are the file's, one after the quote.
                let plain = raw.get().len() == text.len() + 2;
                let span = if plain {
                    item_span.start + 1 + e.span.start..item_span.start + 1 + e.span.end
                } else {
                    item_span
                };
                problems.push(
                    Diagnostic::new(e.message)
                        .at(source, span)
                        .with_help(e.help)
                        .with_note("a rule is `key=value` pairs separated by spaces, all of which must hold; each string of the list is an alternative"),
                );
            }
        }
    }
    problems.into_result((Rules { lines }, Some(at)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(frontmatter: &str) -> Result<Rules, Diagnostics> {
        let text = format!("{{\n{frontmatter}\n}}\n\nBody");
        let file = PromptFile::from_text("prompts/summarize/x.md", &text).unwrap();
        read_match(&file).map(|(rules, _)| rules)
    }

    #[test]
    fn the_match_key_is_a_frontmatter_key_promptic_reads() {
        assert!(crate::check::FRONTMATTER_KEYS.contains(&MATCH_KEY));
    }

    #[test]
    fn rules_are_read_in_order() {
        let r = rules("\"match\": [\"type=meeting project=myapp\", \"type=standup\"]").unwrap();
        assert_eq!(r.to_string(), "type=meeting project=myapp | type=standup");
        assert!(rules("\"title\": \"x\"").unwrap().is_default());
    }

    #[test]
    fn a_malformed_rule_points_into_its_string() {
        let e = rules("\"title\": \"x\",\n\"match\": [\"type=meeting\", \"type = paper\"]")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "error: malformed match rule `type = paper`
 --> prompts/summarize/x.md:3:28
  |
3 | \"match\": [\"type=meeting\", \"type = paper\"]
  |                            ^^^^^^^^^^^^
  = help: write `type=paper`, without spaces around `=`
  = note: a rule is `key=value` pairs separated by spaces, all of which must hold; each string of the list is an alternative"
        );
    }

    #[test]
    fn every_bad_rule_is_reported_and_escapes_point_at_the_whole_string() {
        let e = rules("\"match\": [\"a b\", 3, \"t\\u0061g=\"]").unwrap_err();
        let found: Vec<(&str, usize)> =
            e.0.iter()
                .map(|d| (d.message(), d.location().unwrap().col))
                .collect();
        assert_eq!(
            found,
            [
                ("`a` in match rule `a b` is not a `key=value` pair", 12),
                ("a match rule must be a string, found `3`", 18),
                ("tag `tag` in match rule `tag=` has no value", 21),
            ]
        );
    }

    #[test]
    fn wrong_shapes_say_what_to_write() {
        let e = rules("\"match\": \"type=meeting\"").unwrap_err();
        assert_eq!(
            e.0[0].help(),
            Some("put the rule in a list: `\"match\": [\"type=meeting\"]`")
        );
        let e = rules("\"match\": []").unwrap_err();
        assert_eq!(e.0[0].message(), "frontmatter key `match` is an empty list");
        let e = rules("\"match\": {\"type\": \"x\"}").unwrap_err();
        assert_eq!(
            e.0[0].message(),
            "frontmatter key `match` must be a list of rules, found an object"
        );
    }
}
