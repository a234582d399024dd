//! Python's `pprint.pformat(value)` (what Jinja2's `pprint` filter prints), with its
//! defaults: 80 columns, one level of indent, dicts sorted by key. A value whose `repr`
//! fits where it stands is written as that `repr`; a list, tuple or dict that does not is
//! written an item a line, and a string that does not is cut into quoted pieces at word
//! ends, one a line, in parentheses at the top.

use super::data::Value;
use super::python::{write_repr_as, write_str_repr};

const WIDTH: usize = 80;

/// `pprint.pformat(value)`; `None` once it is longer than `limit` bytes (the indents
/// of a deep value with long keys can make it far longer than the value).
pub(crate) fn pformat(value: &Value, limit: usize) -> Option<String> {
    let mut out = Out {
        text: String::new(),
        limit,
    };
    format(&mut out, value, 0, 0, 0)?;
    Some(out.text)
}

/// The text so far and how long it may grow.
struct Out {
    text: String,
    limit: usize,
}

impl Out {
    fn push_str(&mut self, s: &str) -> Option<()> {
        self.text.push_str(s);
        (self.text.len() <= self.limit).then_some(())
    }

    fn push(&mut self, c: char) -> Option<()> {
        self.text.push(c);
        (self.text.len() <= self.limit).then_some(())
    }

    fn line(&mut self, indent: usize) -> Option<()> {
        self.push('\n')?;
        if self.text.len() + indent > self.limit {
            return None;
        }
        self.text.extend(std::iter::repeat_n(' ', indent));
        Some(())
    }
}

fn sorted(map: &super::data::Map) -> Vec<(&str, &Value)> {
    let mut entries: Vec<(&str, &Value)> = map.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

/// `repr` as pprint writes it: dicts sorted by key at every depth.
fn repr_of(value: &Value) -> String {
    let mut out = String::new();
    write_repr_as(&mut out, value, true);
    out
}

/// The `repr` of `value` if it is at most `most` characters wide, found without writing
/// more than that: a line's test must not cost a pass over a large value at each of its
/// levels.
fn repr_within(value: &Value, most: usize) -> Option<String> {
    fn write(out: &mut String, value: &Value, most: usize) -> Option<()> {
        match value {
            Value::String(s) => {
                // Each character writes at least one.
                if s.len() / 4 > most {
                    return None;
                }
                write_str_repr(out, s);
            }
            // Each item writes a character at least, each entry five.
            Value::Array(items) | Value::Tuple(items) if items.len() > most => return None,
            Value::Object(map) if map.len() > most => return None,
            Value::Array(items) | Value::Tuple(items) => {
                let tuple = matches!(value, Value::Tuple(_));
                out.push(if tuple { '(' } else { '[' });
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write(out, item, most)?;
                }
                if tuple && items.len() == 1 {
                    out.push(',');
                }
                out.push(if tuple { ')' } else { ']' });
            }
            Value::Object(map) => {
                out.push('{');
                for (i, (key, item)) in sorted(map).into_iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    if key.len() / 4 > most {
                        return None;
                    }
                    write_str_repr(out, key);
                    out.push_str(": ");
                    write(out, item, most)?;
                }
                out.push('}');
            }
            scalar => write_repr_as(out, scalar, true),
        }
        // Characters are never fewer than bytes over four: a cheap test first.
        (out.len() / 4 <= most && width(out) <= most).then_some(())
    }
    let mut out = String::new();
    write(&mut out, value, most)?;
    Some(out)
}

fn width(text: &str) -> usize {
    text.chars().count()
}

/// `PrettyPrinter._format`: the `repr` where it fits in what is left of the line after
/// `indent` columns and `allowance` for what closes after it, else the value's own layout.
fn format(
    out: &mut Out,
    value: &Value,
    indent: usize,
    allowance: usize,
    level: usize,
) -> Option<()> {
    if let Some(rep) = repr_within(value, WIDTH.saturating_sub(indent + allowance)) {
        return out.push_str(&rep);
    }
    match value {
        Value::Object(map) => {
            out.push('{')?;
            let entries = sorted(map);
            let indent = indent + 1;
            let last = entries.len().saturating_sub(1);
            for (i, (key, item)) in entries.into_iter().enumerate() {
                let mut key_rep = String::new();
                write_str_repr(&mut key_rep, key);
                out.push_str(&key_rep)?;
                out.push_str(": ")?;
                let allowance = if i == last { allowance + 1 } else { 1 };
                format(
                    out,
                    item,
                    indent + width(&key_rep) + 2,
                    allowance,
                    level + 1,
                )?;
                if i != last {
                    out.push(',')?;
                    out.line(indent)?;
                }
            }
            out.push('}')
        }
        Value::Array(items) => {
            out.push('[')?;
            format_items(out, items, indent, allowance + 1, level + 1)?;
            out.push(']')
        }
        Value::Tuple(items) => {
            let end = if items.len() == 1 { ",)" } else { ")" };
            out.push('(')?;
            format_items(out, items, indent, allowance + end.len(), level + 1)?;
            out.push_str(end)
        }
        Value::String(s) if !s.is_empty() => format_str(out, s, indent, allowance, level + 1),
        _ => out.push_str(&repr_of(value)),
    }
}

/// `PrettyPrinter._format_items`: an item a line, lined up after the bracket.
fn format_items(
    out: &mut Out,
    items: &[Value],
    indent: usize,
    allowance: usize,
    level: usize,
) -> Option<()> {
    let indent = indent + 1;
    let last = items.len().saturating_sub(1);
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',')?;
            out.line(indent)?;
        }
        format(
            out,
            item,
            indent,
            if i == last { allowance } else { 1 },
            level,
        )?;
    }
    Some(())
}

/// `PrettyPrinter._pprint_str`: each line of the text (its line end kept), and a line too
/// long for what is left cut after a run of spaces, each piece quoted.
fn format_str(
    out: &mut Out,
    text: &str,
    indent: usize,
    allowance: usize,
    level: usize,
) -> Option<()> {
    let (indent, allowance) = if level == 1 {
        (indent + 1, allowance + 1)
    } else {
        (indent, allowance)
    };
    let max_width = WIDTH as isize - indent as isize;
    let lines = crate::python::space::split_lines(text, true);
    let mut chunks: Vec<String> = Vec::new();
    let mut last_rep = String::new();
    let mut max_width1 = max_width;
    for (i, line) in lines.iter().enumerate() {
        let rep = quoted(line);
        if i == lines.len() - 1 {
            max_width1 -= allowance as isize;
        }
        if width(&rep) as isize <= max_width1 {
            chunks.push(rep.clone());
        } else {
            let parts = words(line);
            let mut max_width2 = max_width;
            let mut current = String::new();
            for (j, part) in parts.iter().enumerate() {
                let candidate = format!("{current}{part}");
                if j == parts.len() - 1 && i == lines.len() - 1 {
                    max_width2 -= allowance as isize;
                }
                if width(&quoted(&candidate)) as isize > max_width2 {
                    if !current.is_empty() {
                        chunks.push(quoted(&current));
                    }
                    current = (*part).to_owned();
                } else {
                    current = candidate;
                }
            }
            if !current.is_empty() {
                chunks.push(quoted(&current));
            }
        }
        last_rep = rep;
    }
    if chunks.len() == 1 {
        // Python writes the last line's `repr` here, which is the whole text's when it is
        // one line.
        return out.push_str(&last_rep);
    }
    if level == 1 {
        out.push('(')?;
    }
    for (i, chunk) in chunks.iter().enumerate() {
        if i > 0 {
            out.line(indent)?;
        }
        out.push_str(chunk)?;
    }
    if level == 1 {
        out.push(')')?;
    }
    Some(())
}

fn quoted(text: &str) -> String {
    let mut out = String::new();
    write_str_repr(&mut out, text);
    out
}

/// `re.findall(r'\S*\s*', line)` without its empty last match: each run of non-spaces
/// with the spaces after it.
fn words(line: &str) -> Vec<&str> {
    let is_space = crate::python::space::is_space;
    let mut parts = Vec::new();
    let mut start = 0;
    let mut in_space = false;
    for (i, c) in line.char_indices() {
        if is_space(c) {
            in_space = true;
        } else if in_space {
            parts.push(&line[start..i]);
            start = i;
            in_space = false;
        }
    }
    if start < line.len() {
        parts.push(&line[start..]);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pf(json: &str) -> String {
        pformat(&Value::from_json(json).unwrap(), 1 << 20).unwrap()
    }

    #[test]
    fn short_values_are_their_repr_with_dicts_sorted() {
        assert_eq!(
            pf(r#"{"b": 1, "a": [true, null, "x"]}"#),
            "{'a': [True, None, 'x'], 'b': 1}"
        );
        assert_eq!(pf(r#""it's""#), "\"it's\"");
        assert_eq!(pf("[]"), "[]");
    }

    #[test]
    fn a_deep_wide_value_is_laid_out_without_a_pass_per_level() {
        // 100 levels, each a list holding the next and 1,000 numbers: a repr test that
        // wrote every level whole would write 100 times 600,000 characters.
        let mut value = Value::Array(Vec::new());
        for _ in 0..100 {
            let mut items: Vec<Value> = (0..1_000).map(Value::from).collect();
            items.push(value);
            value = Value::Array(items);
        }
        let text = pformat(&value, 1 << 30).unwrap();
        assert!(text.starts_with("[0,\n 1,\n"));
    }

    #[test]
    fn a_print_past_its_limit_stops() {
        let long = format!("[{}]", vec!["\"some words here\""; 50].join(", "));
        let value = Value::from_json(&long).unwrap();
        assert!(pformat(&value, 100).is_none());
        assert!(pformat(&value, 10_000).is_some_and(|t| t.lines().count() == 50));
    }
}
