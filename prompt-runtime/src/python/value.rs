//! Python's `str()` and `repr()` of JSON values, as a Python program that loaded the JSON
//! with `json.load` prints them: `True`, `None`, `1.5`, `1e+16`, `['a', 1]`, `{'k': 'v'}`.
//!
//! PromptEngine turns a placeholder's source value into text with `str(raw)` (and joins a
//! list with `str(item)`), so a store renders these bytes where PromptEngine does.

use serde_json::{Number, Value};

/// `str(value)`: a string as it is, everything else as [`repr`].
///
/// ```ignore
/// assert_eq!(str_of(&json!(true)), "True");
/// ```
pub(crate) fn str_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => repr(other),
    }
}

/// `repr(value)`.
pub(crate) fn repr(value: &Value) -> String {
    let mut out = String::new();
    repr_into(value, &mut out);
    out
}

fn repr_into(value: &Value, out: &mut String) {
    // Nesting is bounded by serde_json's recursion limit (128) when the value was parsed.
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => out.push_str(&number(n)),
        Value::String(s) => string_repr(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                string_repr(k, out);
                out.push_str(": ");
                repr_into(v, out);
            }
            out.push('}');
        }
    }
}

/// A JSON number as Python prints what `json.load` made of it: an integer as its digits, a
/// number with a fraction or an exponent as a float's `repr`.
pub(crate) fn number(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    float_repr(n.as_f64().unwrap_or(f64::NAN))
}

/// Python's `repr(float)`: the shortest digits that read back as the same float, in fixed
/// notation with at least one decimal when the decimal exponent is in `-4..16`, else in
/// scientific notation with a signed exponent of at least two digits.
pub(crate) fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `d.ddde[-]X`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if x < 0.0 { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        let body = if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            let (int, frac) = digits.split_at(point as usize);
            format!("{int}.{frac}")
        };
        format!("{sign}{body}")
    } else {
        let (first, rest) = digits.split_at(1);
        let frac = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}{frac}e{esign}{:02}", exp.abs())
    }
}

/// Python's `repr(str)`: single quotes unless the text holds `'` and no `"`; backslash,
/// the quote, `\n`, `\r`, `\t` escaped; other characters Python does not print as they
/// are written as `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
fn string_repr(s: &str, out: &mut String) {
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
                let n = c as u32;
                if n < 0x100 {
                    out.push_str(&format!("\\x{n:02x}"));
                } else if n < 0x10000 {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// Python's `str.isprintable` for one character, for the characters a prompt's values
/// hold: controls (Cc), the format characters (Cf) that occur in text, the line and
/// paragraph separators (Zl, Zp), surrogates and private use, and every space separator
/// (Zs) but the ASCII space are not printable.
fn printable(c: char) -> bool {
    let n = c as u32;
    !(n < 0x20
        || (0x7f..=0xa0).contains(&n)
        || n == 0xad
        || n == 0x1680
        || (0x2000..=0x200f).contains(&n)
        || (0x2028..=0x202f).contains(&n)
        || (0x205f..=0x2064).contains(&n)
        || (0x2066..=0x206f).contains(&n)
        || n == 0x3000
        || n == 0xfeff
        || (0xfff9..=0xfffb).contains(&n)
        || (0xe000..=0xf8ff).contains(&n)
        || n >= 0xf0000
        || n == 0x061c
        || n == 0x180e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_print_as_python_prints_them() {
        assert_eq!(str_of(&json!(true)), "True");
        assert_eq!(str_of(&json!(false)), "False");
        assert_eq!(str_of(&json!(null)), "None");
        assert_eq!(str_of(&json!(18)), "18");
        assert_eq!(str_of(&json!(-3)), "-3");
        assert_eq!(str_of(&json!("as is")), "as is");
    }

    #[test]
    fn floats_print_as_python_repr() {
        let cases = [
            (1.5, "1.5"),
            (1.0, "1.0"),
            (100.0, "100.0"),
            (0.1, "0.1"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1e16, "1e+16"),
            (1.234e16, "1.234e+16"),
            (9999999999999998.0, "9999999999999998.0"),
            (123456.789, "123456.789"),
            (-2.5, "-2.5"),
            (-0.0, "-0.0"),
            (1e300, "1e+300"),
        ];
        for (x, want) in cases {
            assert_eq!(float_repr(x), want, "{x:?}");
        }
        // `1.50` and `1e3` in a JSON file are floats in Python.
        let v: Value = serde_json::from_str("[1.50, 1e3, 7]").unwrap();
        assert_eq!(repr(&v), "[1.5, 1000.0, 7]");
    }

    #[test]
    fn strings_in_containers_are_quoted_as_repr_quotes_them() {
        assert_eq!(
            repr(&json!(["a", "it's", "say \"hi\"", "both ' \""])),
            r#"['a', "it's", 'say "hi"', 'both \' "']"#
        );
        assert_eq!(
            repr(&json!(["tab\there", "line\nnext", "back\\slash"])),
            r"['tab\there', 'line\nnext', 'back\\slash']"
        );
        assert_eq!(
            repr(&json!(["\u{7}", "\u{a0}", "\u{2028}", "é", "日本"])),
            r"['\x07', '\xa0', '\u2028', 'é', '日本']"
        );
        assert_eq!(
            repr(&json!({"k": [1, true, null]})),
            "{'k': [1, True, None]}"
        );
    }
}
