//! Python's rules for [`Value`]: `str()` and `repr()` (as Jinja prints values and Python
//! programs print JSON they loaded) and how numbers compare (`1 == 1.0`, integers exact).
//! The Jinja front end's truthiness, `==`, ordering and `in` are built on these.

use super::data::{Num, Number, Value};
use std::cmp::Ordering;
use std::fmt::Write;

/// How deep a list a template builds may nest: as deep as values read from JSON text
/// do (serde_json reads 128 levels), so every value a render holds is one that copying,
/// printing and comparing, which recurse, take on a small stack. A template that wraps a
/// value in itself, `{% set a = [[a]] %}` over and over, would otherwise build one that
/// none of them can.
pub(crate) const MAX_DEPTH: usize = 128;

/// Appends Python's `str(value)`.
pub(crate) fn write_str(out: &mut String, value: &Value) {
    match value {
        Value::String(s) => out.push_str(s),
        other => write_repr(out, other),
    }
}

/// Appends Python's `repr(value)`.
pub(crate) fn write_repr(out: &mut String, value: &Value) {
    write_repr_as(out, value, false);
}

/// Appends Python's `repr(value)`, with every dict's keys sorted when `sorted` (as
/// `pprint` writes them).
pub(crate) fn write_repr_as(out: &mut String, value: &Value, sorted: bool) {
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
                write_repr_as(out, item, sorted);
            }
            out.push(']');
        }
        Value::Tuple(items) => {
            out.push('(');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr_as(out, item, sorted);
            }
            // A tuple of one is written `(x,)`.
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Value::Object(map) => {
            out.push('{');
            let mut entry = |i: usize, key: &str, item: &Value| {
                if i > 0 {
                    out.push_str(", ");
                }
                write_str_repr(out, key);
                out.push_str(": ");
                write_repr_as(out, item, sorted);
            };
            if sorted {
                let mut entries: Vec<(&str, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                for (i, (key, item)) in entries.into_iter().enumerate() {
                    entry(i, key, item);
                }
            } else {
                for (i, (key, item)) in map.iter().enumerate() {
                    entry(i, key, item);
                }
            }
            out.push('}');
        }
    }
}

pub(crate) fn write_number(out: &mut String, n: &Number) {
    match &n.0 {
        // A single digit (a loop's index, a count) without the digits' buffer.
        Num::Int(i @ 0..=9) => out.push(char::from(b'0' + *i as u8)),
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
pub(crate) fn write_str_repr(out: &mut String, s: &str) {
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

/// A number as Python compares it: `True` is 1, an int is exact, a float is a float.
#[derive(Clone, Copy)]
pub(crate) enum NumRef<'v> {
    Int(i128),
    Big(&'v str),
    Float(f64),
}

pub(crate) fn num(value: &Value) -> Option<NumRef<'_>> {
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

pub(crate) fn num_cmp(a: NumRef<'_>, b: NumRef<'_>) -> Option<Ordering> {
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

/// `str(value)` of a JSON value, as a Python program that loaded it with `json.load`
/// prints it: a string as it is, everything else as its `repr` (`True`, `None`, `1e+16`,
/// `['a', 1]`). PromptEngine turns a placeholder's source value into text this way.
pub(crate) fn str_of(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value);
    out
}

/// Appends [`str_of`] `value`: what a Jinja template prints of a JSON value its data holds.
#[inline(never)]
pub(crate) fn write_json(out: &mut String, value: &serde_json::Value) {
    write_str(out, &value.into());
}
