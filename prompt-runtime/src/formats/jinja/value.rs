//! Values as Jinja's Python sees them: truthiness, `==`, ordering and `in`, and `tojson` as
//! Jinja2 writes it, over the one [`Value`](crate::value::Value); `str()` and `repr()` are
//! [`crate::value::python`]'s.

use super::data::{Map, Num, Number, Value};
use crate::value::python::{num, num_cmp};
pub(crate) use crate::value::python::{write_float, write_number, write_repr, write_str};
use std::cmp::Ordering;
use std::fmt::Write;

pub(crate) use crate::value::python::MAX_DEPTH;

/// About how many bytes a copy of `value` takes (each value, each string's text, each
/// key), or `None` when it nests more than `depth` lists and dicts deep (a string or a
/// number nests none). Looks no deeper than that.
pub(crate) fn footprint(value: &Value, depth: usize) -> Option<usize> {
    const NODE: usize = std::mem::size_of::<Value>();
    match value {
        Value::String(s) => Some(NODE + s.len()),
        Value::Array(items) | Value::Tuple(items) => {
            let below = depth.checked_sub(1)?;
            items
                .iter()
                .try_fold(NODE, |sum, v| Some(sum + footprint(v, below)?))
        }
        Value::Object(map) => {
            let below = depth.checked_sub(1)?;
            map.iter().try_fold(NODE, |sum, (k, v)| {
                Some(sum + k.len() + footprint(v, below)?)
            })
        }
        _ => Some(NODE),
    }
}

/// Python's truthiness.
pub(crate) fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => match &n.0 {
            Num::Int(i) => *i != 0,
            Num::Big(_) => true,
            Num::Float(f) => *f != 0.0,
        },
        Value::String(s) => !s.is_empty(),
        Value::Array(a) | Value::Tuple(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

/// Python's `==`.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    if let (Some(x), Some(y)) = (num(a), num(b)) {
        return num_cmp(x, y) == Some(Ordering::Equal);
    }
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) | (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => false,
    }
}

/// Python's ordering of two values, or `None` where Python raises a `TypeError`
/// (`"a" < 1`, `None < None`). Lists compare item by item.
pub(crate) fn order(a: &Value, b: &Value) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (num(a), num(b)) {
        return num_cmp(x, y);
    }
    match (a, b) {
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Array(x), Value::Array(y)) | (Value::Tuple(x), Value::Tuple(y)) => {
            for (p, q) in x.iter().zip(y) {
                if !equal(p, q) {
                    return order(p, q);
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ => None,
    }
}

/// Python's `needle in haystack`, or `None` where Python raises a `TypeError`.
pub(crate) fn contains(haystack: &Value, needle: &Value) -> Option<bool> {
    match haystack {
        Value::String(h) => match needle {
            Value::String(n) => Some(h.contains(n.as_str())),
            _ => None,
        },
        Value::Array(items) | Value::Tuple(items) => {
            Some(items.iter().any(|item| equal(item, needle)))
        }
        Value::Object(map) => match needle {
            Value::String(key) => Some(map.contains_key(key)),
            Value::Array(_) | Value::Object(_) => None,
            // A number or `None` is hashable but never equal to a string key.
            _ => Some(false),
        },
        _ => None,
    }
}

/// Python's name for a value's type with its article (`a str`, `an int`), for messages.
pub(crate) fn a_type(value: &Value) -> String {
    let name = type_name(value);
    let article = if name == "int" { "an" } else { "a" };
    format!("{article} {name}")
}

/// Python's name for a value's type, for messages.
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Tuple(_) => "tuple",
        Value::Object(_) => "dict",
    }
}

/// Jinja2's `tojson`: Python's `json.dumps(value, sort_keys=True)` (ASCII only, `", "`
/// and `": "` between items), then `<`, `>`, `&` and `'` as `\u003c`, `\u003e`, `\u0026`,
/// `\u0027` so the result is safe in HTML.
pub(crate) fn write_json(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_json_number(out, n),
        Value::String(s) => write_json_str(out, s),
        Value::Array(items) | Value::Tuple(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_json(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => write_json_object(out, map),
    }
}

/// Jinja2's `tojson(indent=…)`: `json.dumps(value, sort_keys=True, indent=indent)`, made
/// safe for HTML as [`write_json`] is (the indentation too). Each item and entry of a
/// list or dict goes on a line of its own, `indent` repeated once per level before it,
/// `,` after it (`": "` between a key and its value); an empty list or dict stays `[]` or
/// `{}`, and a scalar is written as [`write_json`] writes it. `None` as soon as the text
/// would pass `limit` bytes: the indentation grows with the depth, so it is checked as
/// it is written.
pub(crate) fn write_json_indented(
    out: &mut String,
    value: &Value,
    indent: &str,
    level: usize,
    limit: usize,
) -> Option<()> {
    let line = |out: &mut String, level: usize| {
        let more = indent.len().checked_mul(level)?.checked_add(1)?;
        if out.len().checked_add(more)? > limit {
            return None;
        }
        out.push('\n');
        for _ in 0..level {
            out.push_str(indent);
        }
        Some(())
    };
    match value {
        Value::Array(items) | Value::Tuple(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                line(out, level + 1)?;
                write_json_indented(out, item, indent, level + 1, limit)?;
            }
            line(out, level)?;
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            let mut entries: Vec<(&str, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                line(out, level + 1)?;
                write_json_str(out, key);
                out.push_str(": ");
                write_json_indented(out, item, indent, level + 1, limit)?;
            }
            line(out, level)?;
            out.push('}');
        }
        scalar => write_json(out, scalar),
    }
    (out.len() <= limit).then_some(())
}

/// The indentation `tojson(indent=…)` writes per level, as Python's `json.dumps` makes it
/// from its argument (an integer is that many spaces, none when it is not positive; a
/// string is itself; `true` is one space), made HTML-safe as the whole text is; at most
/// `limit + 1` bytes (any longer fails at its first use all the same). `Err` with Python's
/// complaint for any other value.
pub(crate) fn json_indent(indent: &Value, limit: usize) -> Result<String, String> {
    let spaces = |n: i128| {
        let n = usize::try_from(n.max(0)).unwrap_or(usize::MAX);
        " ".repeat(n.min(limit.saturating_add(1)))
    };
    match indent {
        Value::Bool(b) => Ok(spaces(i128::from(*b))),
        Value::Number(n) if !n.is_f64() => Ok(match n.as_i128() {
            Some(n) => spaces(n),
            // Longer than any limit: a negative one is no indentation at all.
            None if n.as_f64().is_some_and(|f| f < 0.0) => String::new(),
            None => spaces(i128::MAX),
        }),
        Value::String(s) => {
            let mut out = String::new();
            for c in s.chars() {
                match c {
                    '<' => out.push_str("\\u003c"),
                    '>' => out.push_str("\\u003e"),
                    '&' => out.push_str("\\u0026"),
                    '\'' => out.push_str("\\u0027"),
                    c => out.push(c),
                }
                if out.len() > limit {
                    break;
                }
            }
            Ok(out)
        }
        other => Err(format!(
            "`tojson`'s `indent` must be an integer or a string, not a {}",
            type_name(other)
        )),
    }
}

/// A number as Python's `json.dumps` writes it: infinities and NaN as JavaScript names
/// them.
fn write_json_number(out: &mut String, n: &Number) {
    match &n.0 {
        Num::Float(f) if f.is_nan() => out.push_str("NaN"),
        Num::Float(f) if f.is_infinite() => {
            out.push_str(if *f > 0.0 { "Infinity" } else { "-Infinity" })
        }
        _ => write_number(out, n),
    }
}

fn write_json_object(out: &mut String, map: &Map) {
    let mut entries: Vec<(&str, &Value)> = map.iter().collect();
    // Python sorts str keys by code point, which is UTF-8 byte order.
    entries.sort_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (i, (key, item)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_json_str(out, key);
        out.push_str(": ");
        write_json(out, item);
    }
    out.push('}');
}

fn write_json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\'' => out.push_str("\\u0027"),
            ' '..='~' => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}
