//! JSON frontmatter: the file's first line is exactly `{`, the closing line exactly `}`.
//!
//! The JSON is parsed by serde_json, not by looking for the first line that holds `}`, so a
//! nested object closed on a line of its own does not cut the frontmatter short. Each value
//! keeps its raw JSON text and its span, so that a metadata error can point at the line.
//! A YAML frontmatter (`---` lines) is an error that shows its JSON form (see `yaml`).

use super::json::{Entries, span_in};
use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use std::ops::Range;

/// The parsed frontmatter, keys in the file's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frontmatter {
    /// The frontmatter's span, from the opening `{` to the closing `}`.
    pub span: Range<usize>,
    /// One entry per key, in the file's order.
    pub entries: Vec<FrontmatterEntry>,
}

/// One key of the frontmatter and its value as raw JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontmatterEntry {
    /// The key.
    pub key: String,
    /// The value's JSON text, exactly as written.
    pub json: String,
    /// The value's byte span in the file.
    pub span: Range<usize>,
}

impl Frontmatter {
    /// The entry for `key`, if present.
    pub fn get(&self, key: &str) -> Option<&FrontmatterEntry> {
        self.entries.iter().find(|e| e.key == key)
    }
}

/// Splits off the frontmatter; returns it and the byte offset where the body begins.
pub(crate) fn split(source: &SourceFile) -> Result<(Option<Frontmatter>, usize), Diagnostics> {
    let text = source.text();
    let first_line = text.split('\n').next().unwrap_or("");
    if first_line != "{" {
        // YAML frontmatter would otherwise pass silently into the prompt text.
        return match super::yaml::frontmatter(source) {
            Some(yaml) => Err(yaml.into()),
            None => Ok((None, 0)),
        };
    }
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Entries>();
    let entries = match stream.next() {
        Some(Ok(entries)) => entries,
        Some(Err(e)) => return Err(json_error(source, &e).into()),
        None => {
            return Err(Diagnostic::new("the frontmatter is empty")
                .at(source, 0..1)
                .into());
        }
    };
    let end = stream.byte_offset();
    let closing_line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
    let rest_of_line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    if &text[closing_line_start..end] != "}" || !text[end..rest_of_line_end].is_empty() {
        return Err(Diagnostic::new("the frontmatter must end with a line holding exactly `}`")
            .at(source, end.saturating_sub(1)..end)
            .with_help("put the closing `}` of the frontmatter alone on its line, with nothing before or after it")
            .into());
    }
    let mut diagnostics = Diagnostics::default();
    let mut seen = std::collections::HashSet::new();
    let entries = entries
        .0
        .into_iter()
        .filter_map(|(key, raw)| {
            let json = raw.get();
            let span = span_in(text, raw);
            if !seen.insert(key.clone()) {
                diagnostics.push(
                    Diagnostic::new(format!("frontmatter key `{key}` is given twice"))
                        .at(source, span)
                        .with_help("remove one of them"),
                );
                return None;
            }
            Some(FrontmatterEntry {
                key,
                json: json.to_owned(),
                span,
            })
        })
        .collect::<Vec<_>>();
    let frontmatter = Frontmatter {
        span: 0..end,
        entries,
    };
    diagnostics.into_result((Some(frontmatter), rest_of_line_end))
}

fn json_error(source: &SourceFile, e: &serde_json::Error) -> Diagnostic {
    let (offset, message) = super::json::error_position(source.text(), e);
    if e.is_eof() {
        return Diagnostic::new("the frontmatter opened on line 1 is never closed")
            .at(source, 0..1)
            .with_help("end the frontmatter with a line holding exactly `}`, then a blank line and the prompt body")
            .with_note(format!("JSON parser: {message}"));
    }
    Diagnostic::new(format!("malformed frontmatter JSON: {message}"))
        .at(source, offset..offset + 1)
        .with_help("the frontmatter is a JSON object: keys and strings in double quotes, no trailing commas")
}

#[cfg(test)]
mod tests {
    use crate::parse::PromptFile;

    #[test]
    fn nested_closing_brace_alone_on_a_line_does_not_end_frontmatter() {
        let text = "{\n\"a\": {\n\"b\": 1\n}\n,\n\"c\": \"x\"\n}\n\nBody\n";
        let file = PromptFile::from_text("p.md", text).unwrap();
        let fm = file.frontmatter.as_ref().unwrap();
        assert_eq!(fm.entries.len(), 2);
        assert_eq!(fm.entries[0].json, "{\n\"b\": 1\n}");
        assert_eq!(fm.get("c").unwrap().json, "\"x\"");
        assert_eq!(&text[fm.get("c").unwrap().span.clone()], "\"x\"");
        assert_eq!(file.body_text(), "Body");
    }

    #[test]
    fn keys_keep_file_order() {
        let file = PromptFile::from_text("p.md", "{\n\"z\": 1, \"a\": 2, \"m\": 3\n}\nx").unwrap();
        let keys: Vec<_> = file
            .frontmatter
            .unwrap()
            .entries
            .into_iter()
            .map(|e| e.key)
            .collect();
        assert_eq!(keys, ["z", "a", "m"]);
    }

    #[test]
    fn malformed_json_points_at_line_and_column() {
        let err = PromptFile::from_text(
            "prompts/x.md",
            "{\n  \"title\": \"A\",\n  \"color\": oops\n}\nBody",
        )
        .unwrap_err();
        let d = &err.0[0];
        assert!(
            d.message()
                .starts_with("malformed frontmatter JSON: expected value"),
            "{d}"
        );
        let loc = d.location().unwrap();
        assert_eq!((loc.line, loc.col), (3, 12));
    }

    #[test]
    fn trailing_comma_is_malformed() {
        let err = PromptFile::from_text("p.md", "{\n\"a\": 1,\n}\nBody").unwrap_err();
        let loc = err.0[0].location().unwrap().clone();
        assert_eq!(loc.line, 3);
    }

    #[test]
    fn unclosed_frontmatter() {
        let err = PromptFile::from_text("p.md", "{\n\"a\": 1\n").unwrap_err();
        assert!(err.0[0].message().contains("never closed"), "{}", err);
        // with a body after it, the parser stops where the JSON goes wrong
        let err = PromptFile::from_text("p.md", "{\n\"a\": 1\nBody text").unwrap_err();
        assert!(
            err.0[0].message().contains("expected `,` or `}`"),
            "{}",
            err
        );
        assert_eq!(err.0[0].location().unwrap().line, 3);
    }

    #[test]
    fn closing_brace_must_be_alone() {
        let err = PromptFile::from_text("p.md", "{\n\"a\": 1 }\nBody").unwrap_err();
        assert!(err.0[0].message().contains("exactly `}`"), "{err}");
        let loc = err.0[0].location().unwrap();
        assert_eq!(loc.line, 2);
        let err = PromptFile::from_text("p.md", "{\n\"a\": 1\n} trailing\nBody").unwrap_err();
        assert!(err.0[0].message().contains("exactly `}`"), "{err}");
    }

    #[test]
    fn duplicate_key() {
        let err = PromptFile::from_text("p.md", "{\n\"a\": 1,\n\"a\": 2\n}\nBody").unwrap_err();
        assert!(err.0[0].message().contains("`a` is given twice"), "{err}");
    }

    #[test]
    fn yaml_frontmatter_is_an_error_with_its_json_form() {
        let err =
            PromptFile::from_text("prompts/y.md", "---\ntitle: Y\n---\n\nBody $day").unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(
                "error: YAML frontmatter is not supported: promptic reads JSON frontmatter\n --> prompts/y.md:1:1\n  |\n1 | ---\n  | ^^^\n  = help: write it as JSON, the first line exactly `{` and the last exactly `}`:\n{\n  \"title\": \"Y\"\n}\n"
            ),
            "{text}"
        );
        // Markdown rules around text are text; so is YAML after a blank first line
        let file = PromptFile::from_text("p.md", "---\nSome section\n---\nBody").unwrap();
        assert_eq!(file.body_text(), "---\nSome section\n---\nBody");
        let file = PromptFile::from_text("p.md", "\n---\ntitle: Y\n---\nBody").unwrap();
        assert_eq!(file.body_text(), "---\ntitle: Y\n---\nBody");
    }

    #[test]
    fn first_line_not_exactly_brace_is_body() {
        let file = PromptFile::from_text("p.md", "{ \"a\": 1 }\nBody").unwrap();
        assert!(file.frontmatter.is_none());
        assert_eq!(file.body_text(), "{ \"a\": 1 }\nBody");
    }
}
