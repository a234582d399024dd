//! The YAML frontmatter of a `.prompt` file and the body after it.
//!
//! The split follows dotprompt's rule: blank lines and `#` comment lines may come first,
//! then `---`, the YAML, and `---` each on a line of its own. With frontmatter the body is
//! trimmed; without it (or with an empty one) the whole source is the body, untouched.
//! Reserved keys become the metadata, dotted keys (`ext1.sub.key`) the `ext` namespaces,
//! and everything written stays in `raw`.

use std::ops::Range;

use super::value::{Object, Value};

/// dotprompt's reserved frontmatter keys (`metadata` is not one of them).
const RESERVED: [&str; 12] = [
    "config",
    "description",
    "ext",
    "input",
    "model",
    "name",
    "output",
    "raw",
    "toolDefs",
    "tools",
    "variant",
    "version",
];

/// A source split in two.
#[derive(Debug, PartialEq)]
pub(crate) struct Split {
    /// The YAML between the `---` lines, if there is a non-empty one.
    pub frontmatter: Option<Range<usize>>,
    /// The template body.
    pub body: Range<usize>,
}

fn is_js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// Splits a source the way dotprompt's frontmatter expression does.
pub(crate) fn split(text: &str) -> Split {
    let whole = Split {
        frontmatter: None,
        body: 0..text.len(),
    };
    // Leading `#` lines and blank lines.
    let mut pos = 0;
    loop {
        let line_end = text[pos..].find('\n').map(|i| pos + i);
        let Some(end) = line_end else { break };
        let line = &text[pos..end];
        if line.starts_with('#') || line.bytes().all(|b| b == b' ' || b == b'\t') {
            pos = end + 1;
        } else {
            break;
        }
    }
    if !text[pos..].starts_with("---") {
        return whole;
    }
    let after_dashes = pos + 3;
    let run_end = after_dashes + text[after_dashes..].len()
        - text[after_dashes..].trim_start_matches(is_js_space).len();
    // The longest blank run after `---` that still leaves a line break, then the shortest
    // frontmatter that a closing `---` line follows. The starts tried only go down, and
    // none before found a closing line from where it started on, so each one searches only
    // up to where the one before it started: the whole search reads the text once.
    let mut k = run_end;
    let mut searched_from = text.len();
    loop {
        let widths: &[usize] = if text[k..].starts_with("\r\n") {
            &[2, 1]
        } else if text[k..].starts_with(['\r', '\n']) {
            &[1]
        } else {
            &[]
        };
        for &width in widths {
            let start = k + width;
            let found = closing(text, start, searched_from);
            searched_from = searched_from.min(start);
            if let Some((fm_end, body_start)) = found {
                if fm_end == start {
                    return whole;
                }
                let body = trim_range(text, body_start..text.len());
                return Split {
                    frontmatter: Some(start..fm_end),
                    body,
                };
            }
        }
        if k == after_dashes {
            return whole;
        }
        k = text[..k]
            .char_indices()
            .next_back()
            .map_or(after_dashes, |(i, _)| i);
    }
}

/// The first line break at or after `start` and before `end` that `---` and a blank run
/// holding a line break follow: the frontmatter's end and the body's start.
fn closing(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let mut at = start;
    loop {
        let found = text.get(at..end)?.find(['\r', '\n'])? + at;
        let widths: &[usize] = if text[found..].starts_with("\r\n") {
            &[2, 1]
        } else {
            &[1]
        };
        for &width in widths {
            let dashes = found + width;
            if text[dashes..].starts_with("---") {
                let run_start = dashes + 3;
                let mut run = text[run_start..].chars().take_while(|&c| is_js_space(c));
                if run.any(|c| c == '\r' || c == '\n') {
                    return Some((found, run_start));
                }
            }
        }
        at = found + 1;
    }
}

/// The range without JavaScript white space at either end.
fn trim_range(text: &str, range: Range<usize>) -> Range<usize> {
    let slice = &text[range.clone()];
    let start = range.start + (slice.len() - slice.trim_start_matches(is_js_space).len());
    let end = range.start + slice.trim_end_matches(is_js_space).len();
    start..end.max(start)
}

/// A frontmatter problem: message, byte span in the source, help.
pub(crate) type FrontmatterError = (String, Range<usize>, Option<String>);

/// Reads the YAML at `range` of `text` into the parsed metadata (dotprompt's
/// `ParsedPrompt` without the template): `config`, `ext` and `metadata` always present,
/// the reserved keys as written, `ext` from dotted keys, and `raw`.
pub(crate) fn metadata(
    text: &str,
    range: Option<Range<usize>>,
) -> Result<Object, FrontmatterError> {
    let mut out = Object::new();
    out.insert("ext", Value::Object(Object::new()));
    out.insert("metadata", Value::Object(Object::new()));
    out.insert("config", Value::Object(Object::new()));
    let Some(range) = range else { return Ok(out) };
    let yaml = &text[range.clone()];
    // YAML 1.2's core schema, as dotprompt's JS `yaml` reads it: `y`, `n`, `yes`, `on`
    // and the like are strings (a property `n: integer` is named `n`), only
    // `true`/`false` (any case of the first letter, or all caps) are booleans.
    let raw = super::yaml::parse(yaml).map_err(|e| {
        let at = range.start + e.at;
        (
            format!("invalid YAML frontmatter: {}", e.message),
            at..(at + 1).min(range.end.max(at + 1)),
            Some("the frontmatter is YAML 1.2, between two `---` lines".to_owned()),
        )
    })?;
    let raw = match raw {
        Value::Object(object) => object,
        Value::Null => Object::new(),
        _ => {
            return Err((
                "the frontmatter is not a mapping".to_owned(),
                range,
                Some("write `key: value` lines between the `---` lines".to_owned()),
            ));
        }
    };
    // dotprompt merges `config` key by key with the render options' and hands it to the
    // model as settings: one that is no mapping would be dropped without a word.
    if let Some(config) = raw.get("config")
        && !matches!(config, Value::Object(_) | Value::Null)
    {
        let at = key_span(text, range.clone(), &["config"]).unwrap_or(range);
        return Err((
            "`config` must be a mapping of model settings".to_owned(),
            at,
            Some(
                "write the settings under it, one per line: `config:` then `  temperature: 0.4`"
                    .to_owned(),
            ),
        ));
    }
    let mut ext = Object::new();
    for (key, value) in raw.iter() {
        if RESERVED.contains(&key) {
            out.insert(key, value.clone());
        } else if let Some(dot) = key.rfind('.') {
            let (namespace, field) = (&key[..dot], &key[dot + 1..]);
            if !matches!(ext.get(namespace), Some(Value::Object(_))) {
                ext.insert(namespace, Value::Object(Object::new()));
            }
            if let Some(Value::Object(fields)) = ext.get_mut(namespace) {
                fields.insert(field, value.clone());
            }
        }
    }
    out.insert("raw", Value::Object(raw));
    out.insert("ext", Value::Object(ext));
    Ok(out)
}

/// The span of the key at `path` (each step a block-mapping key, nested by indentation)
/// in the frontmatter `text[range]`, found by reading the lines as YAML lays out a block
/// mapping: a key's children are the keys indented under it, up to the next key at its
/// indentation or less. A step matches a key written `name`, `name?`, `name(…)` or
/// `name?(…)` (Picoschema's forms) or quoted; the span covers the name. `None` when a step
/// is not written as a block key (a flow mapping `{…}`, a key in a sequence).
pub(crate) fn key_span(text: &str, range: Range<usize>, path: &[&str]) -> Option<Range<usize>> {
    if path.is_empty() {
        return None;
    }
    let mut stack: Vec<(usize, Range<usize>)> = Vec::new();
    let mut offset = range.start;
    let frontmatter = text.get(range.clone())?;
    for line in frontmatter.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim_start_matches(' ');
        let indent = content.len() - trimmed.len();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        // A tab in the indentation, a sequence item or a block scalar's text: not a key
        // of a block mapping; a line less indented than the stack's keys closes them.
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let Some(name) = block_key(trimmed) else {
            continue;
        };
        let name = start + indent + name.start..start + indent + name.end;
        stack.push((indent, name));
        if stack.len() == path.len()
            && stack
                .iter()
                .zip(path)
                .all(|((_, span), step)| key_name(&text[span.clone()]) == *step)
        {
            return stack
                .last()
                .map(|(_, span)| span.start..span.start + key_name(&text[span.clone()]).len());
        }
    }
    None
}

/// The name of a block-mapping key that starts `line` (after its indentation): its range
/// in `line`, without quotes. `None` when the line is no `key:` line.
fn block_key(line: &str) -> Option<Range<usize>> {
    if line.starts_with(['-', '[', '{', '|', '>', '&', '*', '!', '%', '@', '`']) {
        return None;
    }
    if let Some(quote) = line.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let close = line[1..].find(quote)? + 1;
        return line[close + 1..]
            .trim_start_matches(' ')
            .starts_with(':')
            .then_some(1..close);
    }
    // `key:` ends the line or is followed by a space; a `:` inside `(…)` is not it.
    let mut depth = 0usize;
    for (i, c) in line.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ':' if depth == 0 => {
                let rest = &line[i + 1..];
                if rest.is_empty() || rest.starts_with([' ', '\t']) {
                    let key = line[..i].trim_end_matches([' ', '\t']);
                    return (!key.is_empty()).then_some(0..key.len());
                }
            }
            '#' if depth == 0 && i > 0 && line[..i].ends_with([' ', '\t']) => return None,
            _ => {}
        }
    }
    None
}

/// A Picoschema key's property name: without `?` and `(…)`.
fn key_name(key: &str) -> &str {
    let name = key.split('(').next().unwrap_or(key).trim_end();
    name.strip_suffix('?').unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_1_1_booleans_are_strings_as_in_yaml_1_2() {
        // What dotprompt's JS `yaml` package gives for this frontmatter (checked with
        // `yaml` 2 under node): the keys and values stay strings but for `true`/`True`.
        let text = "---\nn: integer\ny: yes\n\"on\": off\nNo: N\nt: True\nf: FALSE\n---\n";
        let range = split(text).frontmatter;
        let raw = metadata(text, range).unwrap();
        let raw = raw.get("raw").and_then(Value::as_object).unwrap();
        let got = |k: &str| raw.get(k).cloned();
        assert_eq!(got("n"), Some(Value::from("integer")));
        assert_eq!(got("y"), Some(Value::from("yes")));
        assert_eq!(got("on"), Some(Value::from("off")));
        assert_eq!(got("No"), Some(Value::from("N")));
        assert_eq!(got("t"), Some(Value::Bool(true)));
        assert_eq!(got("f"), Some(Value::Bool(false)));
        assert_eq!(raw.len(), 6);
    }

    #[test]
    fn keys_are_found_by_their_place_in_the_mapping() {
        let text = "---\nname: x\ninput:\n  # a comment\n  schema:\n    name?: string, the name\n    user(object):\n      name: string\n      tags(array, labels): string\n    note: string # name: not a key\n    \"quoted\": string\noutput:\n  schema:\n    name: string\n---\nbody";
        let range = split(text).frontmatter.unwrap();
        let at = |path: &[&str]| {
            key_span(text, range.clone(), path)
                .map(|s| &text[s.clone()])
                .zip(key_span(text, range.clone(), path).map(|s| s.start))
        };
        let found = |path: &[&str]| {
            at(path).map(|(name, start)| (name, text[..start].matches('\n').count() + 1))
        };
        // The same name at four places: each path finds its own.
        assert_eq!(found(&["name"]), Some(("name", 2)));
        assert_eq!(found(&["input", "schema", "name"]), Some(("name", 6)));
        assert_eq!(
            found(&["input", "schema", "user", "name"]),
            Some(("name", 8))
        );
        assert_eq!(found(&["output", "schema", "name"]), Some(("name", 14)));
        assert_eq!(found(&["input", "schema", "quoted"]), Some(("quoted", 11)));
        assert_eq!(
            found(&["input", "schema", "user", "tags"]),
            Some(("tags", 9))
        );
        assert_eq!(found(&["input", "schema", "user"]), Some(("user", 7)));
        assert_eq!(found(&["input", "schema"]), Some(("schema", 5)));
        assert_eq!(found(&["input", "schema", "tags"]), None);
        assert_eq!(found(&["input", "schema", "note"]), Some(("note", 10)));
        // A flow mapping is not read.
        let text = "---\ninput:\n  schema: {name: string}\n---\n";
        let range = split(text).frontmatter.unwrap();
        assert_eq!(
            key_span(text, range.clone(), &["input", "schema", "name"]),
            None
        );
        assert!(key_span(text, range, &["input", "schema"]).is_some());
        // CRLF lines.
        let text = "---\r\ninput:\r\n  schema:\r\n    city: string\r\n---\r\n";
        let range = split(text).frontmatter.unwrap();
        let span = key_span(text, range, &["input", "schema", "city"]).unwrap();
        assert_eq!(&text[span], "city");
    }

    fn parts(text: &str) -> (Option<&str>, &str) {
        let split = split(text);
        (split.frontmatter.map(|r| &text[r]), &text[split.body])
    }

    #[test]
    fn frontmatter_and_trimmed_body() {
        assert_eq!(
            parts("---\nmodel: m\n---\n\nHi there\n\n"),
            (Some("model: m"), "Hi there")
        );
        assert_eq!(
            parts("# licence\n\n---\na: 1\n---\nbody"),
            (Some("a: 1"), "body")
        );
        assert_eq!(parts("---\r\na: 1\r\n---\r\nbody"), (Some("a: 1"), "body"));
    }

    #[test]
    fn an_unclosed_frontmatter_of_blank_lines_reads_in_linear_time() {
        // A half-saved file: `---`, then blank lines and no closing line. Each place the
        // frontmatter could start is tried, but the text after it is searched once.
        let (small, large) = (
            format!("---{}", "\n".repeat(20_000)),
            format!("---{}", "\n".repeat(200_000)),
        );
        let whole = |text: &str| assert_eq!(parts(text), (None, text));
        crate::scaling::assert_linear(
            "200,000 blank lines after an unclosed `---` over 20,000",
            || whole(&small),
            || whole(&large),
        );
        // Closed after the blank lines, it is frontmatter.
        let closed = format!("---\n{}a: 1\n---\nbody", "\n".repeat(100_000));
        assert_eq!(parts(&closed), (Some("a: 1"), "body"));
    }

    #[test]
    fn without_frontmatter_the_source_is_the_body_untouched() {
        assert_eq!(parts("Hello\n"), (None, "Hello\n"));
        assert_eq!(parts("---\n---\nbody\n"), (None, "---\n---\nbody\n"));
        assert_eq!(
            parts("text\n---\na: 1\n---\n"),
            (None, "text\n---\na: 1\n---\n")
        );
        // The closing line must be exactly `---` and blanks.
        assert_eq!(parts("---\na: 1\n----\n"), (None, "---\na: 1\n----\n"));
    }

    #[test]
    fn dotted_keys_become_namespaces_split_at_the_last_dot() {
        let text = "---\na.b: 1\na.c: 2\na.x.y: 3\nplain: 4\n---\n";
        let meta = metadata(text, split(text).frontmatter).unwrap();
        let ext = serde_json::to_string(meta.get("ext").unwrap()).unwrap();
        assert_eq!(ext, r#"{"a":{"b":1,"c":2},"a.x":{"y":3}}"#);
        let raw = serde_json::to_string(meta.get("raw").unwrap()).unwrap();
        assert_eq!(raw, r#"{"a.b":1,"a.c":2,"a.x.y":3,"plain":4}"#);
    }

    #[test]
    fn a_config_that_is_no_mapping_is_an_error_at_its_key() {
        let text = "---\nmodel: m\nconfig: hi\n---\nBody";
        let range = split(text).frontmatter;
        let (message, at, _) = metadata(text, range).unwrap_err();
        assert_eq!(message, "`config` must be a mapping of model settings");
        assert_eq!(&text[at], "config");
        let text = "---\nconfig:\n  temperature: 0.4\n---\nBody";
        assert!(metadata(text, split(text).frontmatter).is_ok());
    }

    #[test]
    fn broken_yaml_is_located() {
        let text = "---\nmodel: [unclosed\n---\nbody";
        let (message, span, _) = metadata(text, split(text).frontmatter).unwrap_err();
        assert!(message.starts_with("invalid YAML frontmatter"), "{message}");
        assert!(span.start >= 4, "{span:?}");
    }
}
