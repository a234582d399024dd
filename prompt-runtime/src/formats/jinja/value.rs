//! Values as Python sees them: `str()` for output, `repr()` inside lists and dicts,
//! truthiness, `==`, ordering and `in`, and `tojson` as Jinja2 writes it, over the
//! [`Value`]s of [`super::data`].

use super::data::{Map, Num, Number, Value};
use std::cmp::Ordering;
use std::fmt::Write;

/// How deep a list a template builds may nest: as deep as values read from JSON text
/// do (serde_json reads 128 levels), so every value a render holds is one that copying,
/// printing and comparing, which recurse, take on a small stack. A template that wraps a
/// value in itself, `{% set a = [[a]] %}` over and over, would otherwise build one that
/// none of them can.
pub(crate) const MAX_DEPTH: usize = 128;

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

/// Appends Python's `str(value)`.
pub(crate) fn write_str(out: &mut String, value: &Value) {
    match value {
        Value::String(s) => out.push_str(s),
        other => write_repr(out, other),
    }
}

/// Appends Python's `repr(value)`.
pub(crate) fn write_repr(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_str_repr(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(out, item);
            }
            out.push(']');
        }
        Value::Tuple(items) => {
            out.push('(');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(out, item);
            }
            // A tuple of one is written `(x,)`.
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_str_repr(out, key);
                out.push_str(": ");
                write_repr(out, item);
            }
            out.push('}');
        }
    }
}

pub(crate) fn write_number(out: &mut String, n: &Number) {
    match &n.0 {
        Num::Int(i) => {
            if *i < 0 {
                out.push('-');
            }
            match u64::try_from(i.unsigned_abs()) {
                Ok(small) => write_digits(out, small),
                Err(_) => {
                    let _ = write!(out, "{}", i.unsigned_abs());
                }
            }
        }
        Num::Big(digits) => out.push_str(digits),
        Num::Float(f) => write_float(out, *f),
    }
}

/// Appends `n` in decimal: what `write!(out, "{n}")` writes, without the formatting
/// machinery (loop counters are printed on every item).
fn write_digits(out: &mut String, n: u64) {
    out.push_str(crate::value::path::Digits::of(n).as_str());
}

/// Python's `repr(float)`: the shortest digits that read back the same, in fixed
/// notation when the exponent is in `-4..16`, else as `1e+16`, `1.5e-07`.
pub(crate) fn write_float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str("nan");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { "inf" } else { "-inf" });
        return;
    }
    // Rust's `{:e}` gives the same shortest round-trip digits, as `d.ddde±x`.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if negative {
        out.push('-');
    }
    if (-4..16).contains(&exp) {
        if exp < 0 {
            out.push_str("0.");
            out.push_str(&"0".repeat((-exp - 1) as usize));
            out.push_str(&digits);
        } else {
            let point = exp as usize + 1;
            if digits.len() <= point {
                out.push_str(&digits);
                out.push_str(&"0".repeat(point - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..point]);
                out.push('.');
                out.push_str(&digits[point..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
}

/// Python's `repr(str)`: single quotes unless the text holds `'` and no `"`; `\\`, the
/// quote, `\n`, `\r`, `\t` escaped, and other characters Python does not print as
/// `\xhh`, `\uhhhh` or `\Uhhhhhhhh`.
fn write_str_repr(out: &mut String, s: &str) {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !printable(c) => {
                let code = c as u32;
                let _ = if code < 0x100 {
                    write!(out, "\\x{code:02x}")
                } else if code < 0x10000 {
                    write!(out, "\\u{code:04x}")
                } else {
                    write!(out, "\\U{code:08x}")
                };
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// Python's `str.isprintable` for one character, for the characters a prompt meets:
/// controls, separators other than the space, format characters and surrogates are not.
/// Unassigned code points Python also escapes are printed as they are (documented).
fn printable(c: char) -> bool {
    let code = c as u32;
    !(code < 0x20
        || (0x7f..=0xa0).contains(&code)
        || code == 0xad
        || (0x600..=0x605).contains(&code)
        || code == 0x61c
        || code == 0x6dd
        || code == 0x70f
        || code == 0x1680
        || code == 0x180e
        || (0x2000..=0x200f).contains(&code)
        || (0x2028..=0x202f).contains(&code)
        || (0x205f..=0x2064).contains(&code)
        || (0x2066..=0x206f).contains(&code)
        || code == 0x3000
        || (0xd800..=0xf8ff).contains(&code)
        || code == 0xfeff
        || (0xfff9..=0xfffb).contains(&code)
        || (0xf0000..).contains(&code)
        || (0xe0000..=0xe007f).contains(&code))
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

/// A number as Python compares it: `True` is 1, an int is exact, a float is a float.
#[derive(Clone, Copy)]
enum NumRef<'v> {
    Int(i128),
    Big(&'v str),
    Float(f64),
}

fn num(value: &Value) -> Option<NumRef<'_>> {
    match value {
        Value::Bool(b) => Some(NumRef::Int(i128::from(*b))),
        Value::Number(n) => Some(num_of(n)),
        _ => None,
    }
}

fn num_of(n: &Number) -> NumRef<'_> {
    match &n.0 {
        Num::Int(i) => NumRef::Int(*i),
        Num::Big(d) => NumRef::Big(d),
        Num::Float(f) => NumRef::Float(*f),
    }
}

/// Two numbers compared as Python compares them.
pub(crate) fn num_cmp_numbers(a: &Number, b: &Number) -> Option<Ordering> {
    num_cmp(num_of(a), num_of(b))
}

fn num_cmp(a: NumRef<'_>, b: NumRef<'_>) -> Option<Ordering> {
    match (a, b) {
        (NumRef::Int(a), NumRef::Int(b)) => Some(a.cmp(&b)),
        (NumRef::Int(a), NumRef::Float(b)) => (a as f64).partial_cmp(&b),
        (NumRef::Float(a), NumRef::Int(b)) => a.partial_cmp(&(b as f64)),
        (NumRef::Float(a), NumRef::Float(b)) => a.partial_cmp(&b),
        // A long integer is beyond every `i128`: its sign decides.
        (NumRef::Big(a), NumRef::Int(_)) => Some(if a.starts_with('-') {
            Ordering::Less
        } else {
            Ordering::Greater
        }),
        (NumRef::Int(_), NumRef::Big(b)) => Some(if b.starts_with('-') {
            Ordering::Greater
        } else {
            Ordering::Less
        }),
        (NumRef::Big(a), NumRef::Big(b)) => Some(big_cmp(a, b)),
        (NumRef::Big(a), NumRef::Float(b)) => a.parse::<f64>().ok()?.partial_cmp(&b),
        (NumRef::Float(a), NumRef::Big(b)) => a.partial_cmp(&b.parse::<f64>().ok()?),
    }
}

/// Two integers written in decimal without leading zeros, compared by value.
fn big_cmp(a: &str, b: &str) -> Ordering {
    let (an, bn) = (a.starts_with('-'), b.starts_with('-'));
    let magnitude = |x: &str, y: &str| {
        let (x, y) = (x.trim_start_matches('-'), y.trim_start_matches('-'));
        x.len().cmp(&y.len()).then_with(|| x.cmp(y))
    };
    match (an, bn) {
        (false, false) => magnitude(a, b),
        (true, true) => magnitude(b, a),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
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
