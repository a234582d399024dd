//! Frontmatter that promptic reads otherwise than its author meant: a near-miss, sent to
//! the model as text, and a key one typo away from one promptic reads, kept in `extra`.
//!
//! Solstone's rule decides what frontmatter is (the first line exactly `{`, the closing
//! line exactly `}`), and it stays the rule: a file that breaks it renders the same
//! everywhere. These findings are errors in compiled prompts (the derive) and warnings in
//! the CLI (errors under `check --strict`), as [`super::run_on_names`] is.

use crate::diagnostic::{Diagnostic, SourceFile};
use crate::meta::Meta;
use crate::parse::PromptFile;
use crate::source::json::Entries;

/// Every frontmatter key promptic reads: the typed [`Meta`] keys, then those of the
/// placeholder syntax, families, declared context and static prompts.
pub const FRONTMATTER_KEYS: [&str; 15] = [
    Meta::KEYS[0],
    Meta::KEYS[1],
    Meta::KEYS[2],
    Meta::KEYS[3],
    Meta::KEYS[4],
    Meta::KEYS[5],
    Meta::KEYS[6],
    Meta::KEYS[7],
    Meta::KEYS[8],
    Meta::KEYS[9],
    Meta::KEYS[10],
    "placeholders",
    // a family member's rules: `family::MATCH_KEY`
    "match",
    "context",
    "cache",
];

/// The frontmatter near-miss and the misspelt keys of `file`, in the file's order.
///
/// ```
/// use promptic::check::frontmatter_warnings;
/// use promptic::load::PromptFile;
///
/// let file = PromptFile::from_text("p.md", "{\"title\": \"Daily\"}\nSummarize the day.").unwrap();
/// assert!(file.frontmatter.is_none());
/// let found = frontmatter_warnings(&file);
/// assert_eq!(found[0].message(), "this looks like frontmatter but is sent to the model as text: it opens on a line that holds more than `{`");
///
/// let file = PromptFile::from_text("p.md", "{\n\"titel\": \"Daily\", \"model\": \"fast\"\n}\nSummarize.").unwrap();
/// let found = frontmatter_warnings(&file);
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].help(), Some("did you mean `title`?"));
/// ```
pub fn frontmatter_warnings(file: &PromptFile) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    match &file.frontmatter {
        None => found.extend(near_miss(&file.source)),
        Some(frontmatter) => {
            for entry in &frontmatter.entries {
                let key = entry.key.as_str();
                if FRONTMATTER_KEYS.contains(&key) {
                    continue;
                }
                let Some(known) = misspelt(key) else {
                    continue;
                };
                let span = key_span(file.source.text(), key, entry.span.start)
                    .unwrap_or_else(|| entry.span.clone());
                found.push(
                    Diagnostic::new(format!(
                        "frontmatter key `{key}` is not one promptic reads, so it is kept in `extra`"
                    ))
                    .at(&file.source, span)
                    .with_help(format!("did you mean `{known}`?")),
                );
            }
        }
    }
    found
}

/// The known key that `key` misspells: one edit away (a transposition counts one, case
/// is ignored), or two from a key of eight letters or more. Stricter than the "did you mean"
/// of names, since the derive refuses what it reports: `time` beside `tier` is a key of
/// its own.
fn misspelt(key: &str) -> Option<&'static str> {
    let lower = key.to_ascii_lowercase();
    FRONTMATTER_KEYS
        .iter()
        .map(|known| (strsim::damerau_levenshtein(&lower, known), *known))
        .filter(|(distance, known)| *distance <= if known.len() >= 8 { 2 } else { 1 })
        .min()
        .map(|(_, known)| known)
}

/// The span of `"key"` just before its value, which starts at `value_start`.
fn key_span(text: &str, key: &str, value_start: usize) -> Option<std::ops::Range<usize>> {
    let quoted = serde_json::to_string(key).ok()?;
    let start = text[..value_start].rfind(&quoted)?;
    Some(start..start + quoted.len())
}

/// A JSON object at the top of a file without frontmatter that its author surely meant as
/// frontmatter: its first line is `{` and white space, or it has a key promptic reads,
/// and nothing follows it on its closing line. A prompt that opens with other braces, or
/// with a JSON example whose keys mean nothing to promptic, is left alone.
fn near_miss(source: &SourceFile) -> Option<Diagnostic> {
    let text = source.text();
    let start = text.len() - text.trim_start().len();
    if !text[start..].starts_with('{') {
        return None;
    }
    let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Entries>();
    let entries = match stream.next() {
        Some(Ok(entries)) => entries.0,
        _ => return None,
    };
    let end = start + stream.byte_offset();
    let after = text[end..].find('\n').map_or(text.len(), |i| end + i);
    if !text[end..after].trim().is_empty() {
        return None;
    }
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let opening = &text[line_start..line_end];
    let opening_alone = opening.trim() == "{";
    let known = entries
        .iter()
        .any(|(key, _)| FRONTMATTER_KEYS.contains(&key.as_str()));
    if !opening_alone && !known {
        return None;
    }
    let closing_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
    let reason = if line_start > 0 {
        let (line, _) = source.line_col(start);
        format!("it opens on line {line}, not on the first line of the file")
    } else if opening.starts_with(char::is_whitespace) {
        "its `{` is indented".to_owned()
    } else if opening_alone {
        "its first line has white space after the `{`".to_owned()
    } else {
        "it opens on a line that holds more than `{`".to_owned()
    };
    let closing = if closing_start > line_start && text[closing_start..after].trim() == "}" {
        if text[closing_start..after] == *"}" {
            ""
        } else {
            ", and its closing line has white space around the `}`"
        }
    } else if opening_alone {
        ", and its `}` does not stand alone on its line"
    } else {
        ""
    };
    let mut json = String::from("{\n");
    for (i, (key, value)) in entries.iter().enumerate() {
        let key = serde_json::to_string(key).unwrap_or_default();
        let comma = if i + 1 < entries.len() { "," } else { "" };
        json.push_str(&format!("  {key}: {}{comma}\n", value.get()));
    }
    json.push('}');
    Some(
        Diagnostic::new(format!(
            "this looks like frontmatter but is sent to the model as text: {reason}{closing}"
        ))
        .at(source, start..line_end)
        .with_help(format!(
            "frontmatter is a JSON object whose first line, the file's first, is exactly `{{` and whose closing line is exactly `}}`:\n{json}"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::frontmatter_warnings;
    use crate::parse::PromptFile;

    fn messages(text: &str) -> Vec<String> {
        let file = PromptFile::from_text("p.md", text).expect("loads");
        frontmatter_warnings(&file)
            .iter()
            .map(|d| d.message().to_owned())
            .collect()
    }

    const LOOKS: &str = "this looks like frontmatter but is sent to the model as text: ";

    #[test]
    fn near_misses_are_found() {
        for (text, reason) in [
            (
                "{ \n\"title\": \"x\"\n}\nBody",
                "its first line has white space after the `{`",
            ),
            (
                "{\t\n\"anything\": 1\n}\nBody",
                "its first line has white space after the `{`",
            ),
            (
                "{\"title\": \"x\"}\nBody",
                "it opens on a line that holds more than `{`",
            ),
            (
                "{\"title\": \"x\",\n \"color\": \"#00bcd4\"}\n\nBody",
                "it opens on a line that holds more than `{`",
            ),
            ("  {\n\"title\": \"x\"\n}\nBody", "its `{` is indented"),
            (
                "\n{\n\"title\": \"x\"\n}\nBody",
                "it opens on line 2, not on the first line of the file",
            ),
            (
                "{ \n\"title\": \"x\"\n}  \nBody",
                "its first line has white space after the `{`, and its closing line has white space around the `}`",
            ),
            (
                "{ \n\"title\": \"x\"}\nBody",
                "its first line has white space after the `{`, and its `}` does not stand alone on its line",
            ),
        ] {
            assert_eq!(messages(text), [format!("{LOOKS}{reason}")], "{text:?}");
        }
    }

    #[test]
    fn the_help_shows_the_frontmatter_as_it_must_be_written() {
        let file = PromptFile::from_text("p.md", "{\"title\": \"x\", \"tier\": 2}\nBody").unwrap();
        let found = frontmatter_warnings(&file);
        assert_eq!(
            found[0].help(),
            Some(
                "frontmatter is a JSON object whose first line, the file's first, is exactly `{` and whose closing line is exactly `}`:\n{\n  \"title\": \"x\",\n  \"tier\": 2\n}"
            )
        );
        let location = found[0].location().unwrap();
        assert_eq!((location.line, location.col), (1, 1));
    }

    #[test]
    fn prompts_that_merely_start_with_a_brace_are_left_alone() {
        for text in [
            // frontmatter by the rule
            "{\n\"title\": \"x\"\n}\nBody",
            // a JSON example whose keys promptic does not read
            "{\"name\": \"Ada\", \"age\": 36}\nExtract these fields from the text.",
            // not JSON, or not an object, or text after it on its line
            "{name} is a placeholder in another language",
            "{ }\nBody",
            "[1, 2]\nBody",
            "{\"title\": \"x\"} is the shape of the answer",
            "{{\"title\": \"x\"}}\nBody",
            "Body\n{\n\"title\": \"x\"\n}",
        ] {
            assert_eq!(messages(text), Vec::<String>::new(), "{text:?}");
        }
    }

    #[test]
    fn a_key_a_typo_away_from_a_known_one_is_reported_and_others_are_not() {
        let text = "{\n\"titel\": \"x\",\n\"colour\": \"#00bcd4\",\n\"placeholder\": \"braces\",\n\"model\": \"fast\",\n\"owner\": \"me\",\n\"time\": \"noon\",\n\"Tier\": 2,\n\"thinkin_budgt\": 9,\n\"matches\": 1,\n\"tags\": [],\n\"match\": [\"a=b\"],\n\"cache\": \"static\",\n\"tier\": 1\n}\nBody";
        let file = PromptFile::from_text("p.md", text).unwrap();
        let found = frontmatter_warnings(&file);
        let shown: Vec<(String, Option<&str>, usize)> = found
            .iter()
            .map(|d| {
                (
                    d.message().to_owned(),
                    d.help(),
                    d.location().map_or(0, |l| l.line),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "frontmatter key `titel` is not one promptic reads, so it is kept in `extra`"
                        .to_owned(),
                    Some("did you mean `title`?"),
                    2
                ),
                (
                    "frontmatter key `colour` is not one promptic reads, so it is kept in `extra`"
                        .to_owned(),
                    Some("did you mean `color`?"),
                    3
                ),
                (
                    "frontmatter key `placeholder` is not one promptic reads, so it is kept in `extra`"
                        .to_owned(),
                    Some("did you mean `placeholders`?"),
                    4
                ),
                (
                    "frontmatter key `Tier` is not one promptic reads, so it is kept in `extra`"
                        .to_owned(),
                    Some("did you mean `tier`?"),
                    8
                ),
                (
                    "frontmatter key `thinkin_budgt` is not one promptic reads, so it is kept in `extra`"
                        .to_owned(),
                    Some("did you mean `thinking_budget`?"),
                    9
                ),
            ]
        );
        let span = found[0].location().unwrap().span.clone();
        assert_eq!(&text[span], "\"titel\"");
    }
}
