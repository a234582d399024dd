//! Tests of Python's `str()` and `repr()` of JSON values (`crate::value::python`), as a
//! Python program that loaded the JSON with `json.load` prints them: `True`, `None`,
//! `1.5`, `1e+16`, `['a', 1]`, `{'k': 'v'}`.
//!
//! PromptEngine turns a placeholder's source value into text with `str(raw)` (and joins a
//! list with `str(item)`), so a store renders these bytes where PromptEngine does. One
//! implementation of Python's printing serves the store and the Jinja front end (which
//! Jinja2's own renders test case by case); these are its `String` forms.

use crate::value::python::str_of;
use serde_json::Value;

/// `repr(value)`.
fn repr(value: &Value) -> String {
    let mut out = String::new();
    super::value::write_repr(&mut out, &value.into());
    out
}

/// Python's `repr(float)`.
fn float_repr(x: f64) -> String {
    let mut out = String::new();
    super::value::write_float(&mut out, x);
    out
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
