//! YAML frontmatter (`---` … `---` at the top), recognised so that it is refused with its
//! JSON form instead of being sent to the model as prompt text.
//!
//! This is not a YAML reader: it tells a YAML block from a Markdown rule by the shape of
//! its lines, and writes the JSON of the simple `key: value` lines. Anything else (nested
//! maps, lists, block scalars) is shown by its shape, for the author to fill in.

use crate::diagnostic::{Diagnostic, SourceFile};

/// The diagnostic for a file that opens with YAML frontmatter, or `None` when its first
/// lines are something else (a Markdown rule `---` followed by text, say).
pub(super) fn frontmatter(source: &SourceFile) -> Option<Diagnostic> {
    let text = source.text();
    let mut lines = text.split('\n');
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let mut block = Vec::new();
    let mut closed_on = None;
    for (i, line) in lines.enumerate() {
        if matches!(line.trim_end(), "---" | "...") {
            closed_on = Some(i + 2);
            break;
        }
        block.push(line);
    }
    let closed_on = closed_on?;
    let entries = entries(&block)?;
    let json = to_json(&entries);
    let mut d =
        Diagnostic::new("YAML frontmatter is not supported: promptic reads JSON frontmatter")
            .at(source, 0..3)
            .with_help(format!(
                "write it as JSON, the first line exactly `{{` and the last exactly `}}`:\n{json}"
            ));
    if entries.iter().any(|e| matches!(e.value, Value::Shape(_))) {
        d = d.with_note(
            "fill in the values shown as `...`: only plain `key: value` lines are converted",
        );
    }
    Some(d.with_note(format!(
        "as written, lines 1 to {closed_on} would be sent to the model as prompt text; if the `---` lines are meant as text, start the file with a blank line"
    )))
}

/// One top-level key of the block.
struct Entry<'a> {
    key: &'a str,
    value: Value,
}

enum Value {
    /// The value's JSON.
    Json(String),
    /// Not converted: the JSON shape to fill in (`[ ... ]`, `{ ... }`, `"..."`).
    Shape(&'static str),
}

/// The block's top-level keys, or `None` when a line is not YAML-shaped (so the block is
/// text between two rules) or there is no key at all.
fn entries<'a>(block: &[&'a str]) -> Option<Vec<Entry<'a>>> {
    let mut entries: Vec<Entry<'a>> = Vec::new();
    for line in block {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let nested = line.starts_with([' ', '\t']) || trimmed.starts_with("- ") || trimmed == "-";
        if nested {
            // Belongs to the key above: a list item, a nested map, or a plain value that
            // goes on over more lines.
            let last = entries.last_mut()?;
            match last.value {
                Value::Shape(PENDING) if trimmed.starts_with('-') => {
                    last.value = Value::Shape("[ ... ]");
                }
                Value::Shape(PENDING) => last.value = Value::Shape("{ ... }"),
                Value::Shape(_) => {}
                Value::Json(_) => last.value = Value::Shape("\"...\""),
            }
            continue;
        }
        let (key, rest) = line.split_once(':')?;
        let rest_ok = rest.is_empty() || rest.starts_with([' ', '\t']);
        if !is_key(key) || !rest_ok {
            return None;
        }
        entries.push(Entry {
            key,
            value: scalar(rest.trim()),
        });
    }
    for entry in &mut entries {
        if matches!(entry.value, Value::Shape(PENDING)) {
            // `key:` and nothing below it is YAML's null
            entry.value = Value::Json("null".to_owned());
        }
    }
    (!entries.is_empty()).then_some(entries)
}

/// The value of a `key:` whose value is on the lines below, until they show its shape.
const PENDING: &str = "";

fn is_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The JSON of a plain YAML scalar; lists, maps and block scalars are shapes.
fn scalar(value: &str) -> Value {
    if value.is_empty() {
        return Value::Shape(PENDING);
    }
    if value.starts_with('[') {
        return Value::Shape("[ ... ]");
    }
    if value.starts_with('{') {
        return Value::Shape("{ ... }");
    }
    if value.starts_with(['|', '>', '&', '*', '!']) {
        return Value::Shape("\"...\"");
    }
    if let Some(inner) = value.strip_prefix('\'') {
        return match inner.strip_suffix('\'') {
            Some(inner) => Value::Json(string(&inner.replace("''", "'"))),
            None => Value::Shape("\"...\""),
        };
    }
    if value.starts_with('"') {
        // A double-quoted YAML string with no YAML-only escapes is already JSON.
        return match serde_json::from_str::<String>(value) {
            Ok(text) => Value::Json(string(&text)),
            Err(_) => Value::Shape("\"...\""),
        };
    }
    // An unquoted value ends at a comment.
    let value = value.split(" #").next().unwrap_or(value).trim_end();
    match value {
        "true" | "True" | "TRUE" => return Value::Json("true".to_owned()),
        "false" | "False" | "FALSE" => return Value::Json("false".to_owned()),
        "null" | "Null" | "NULL" | "~" => return Value::Json("null".to_owned()),
        _ => {}
    }
    let numeric = value
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
    if numeric && serde_json::from_str::<serde_json::Number>(value).is_ok() {
        return Value::Json(value.to_owned());
    }
    Value::Json(string(value))
}

fn string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"...\"".to_owned())
}

fn to_json(entries: &[Entry<'_>]) -> String {
    let mut out = String::from("{\n");
    for (i, entry) in entries.iter().enumerate() {
        let value = match &entry.value {
            Value::Json(json) => json.as_str(),
            Value::Shape(shape) => shape,
        };
        let comma = if i + 1 < entries.len() { "," } else { "" };
        out.push_str(&format!("  {}: {value}{comma}\n", string(entry.key)));
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn help(text: &str) -> Option<String> {
        frontmatter(&SourceFile::new("p.md", text)).map(|d| d.help().unwrap_or("").to_owned())
    }

    #[test]
    fn simple_lines_become_json() {
        let help = help(
            "---\ntitle: Daily Summary\ncolor: \"#00bcd4\"\npriority: 10\nratio: 0.5\ndraft: false\nowner: 'Sam''s team'\nnote: ~\ndescription: A day: in short # why\n---\n\nBody",
        )
        .unwrap();
        assert_eq!(
            help,
            "write it as JSON, the first line exactly `{` and the last exactly `}`:\n{\n  \"title\": \"Daily Summary\",\n  \"color\": \"#00bcd4\",\n  \"priority\": 10,\n  \"ratio\": 0.5,\n  \"draft\": false,\n  \"owner\": \"Sam's team\",\n  \"note\": null,\n  \"description\": \"A day: in short\"\n}"
        );
    }

    #[test]
    fn lists_and_maps_are_shown_by_their_shape() {
        let d = frontmatter(&SourceFile::new(
            "p.md",
            "---\ntitle: T\ntools:\n  - journal\n  - calendar\nowner:\n  name: Sam\ntags: [a, b]\ntext: |\n  more\n---\nBody",
        ))
        .unwrap();
        assert_eq!(
            d.help().unwrap(),
            "write it as JSON, the first line exactly `{` and the last exactly `}`:\n{\n  \"title\": \"T\",\n  \"tools\": [ ... ],\n  \"owner\": { ... },\n  \"tags\": [ ... ],\n  \"text\": \"...\"\n}"
        );
        assert!(d.notes()[0].contains("fill in the values shown as `...`"));
        assert!(d.notes()[1].starts_with("as written, lines 1 to 11 would be sent"));
    }

    #[test]
    fn rules_around_text_are_not_frontmatter() {
        assert!(help("---\nSome section\n---\nBody").is_none());
        assert!(help("---\n\n---\nBody").is_none());
        assert!(help("---\ntitle: never closed\nBody").is_none());
        assert!(help(" ---\ntitle: T\n---").is_none());
        assert!(help("---\nNote:this is text\n---").is_none());
        assert!(help("---\n- a list first\n---").is_none());
    }

    #[test]
    fn the_caret_is_on_the_opening_line() {
        let d = frontmatter(&SourceFile::new("prompts/y.md", "---\ntitle: T\n---\nBody")).unwrap();
        let at = d.location().unwrap();
        assert_eq!((at.line, at.col, at.span.clone()), (1, 1, 0..3));
    }
}
