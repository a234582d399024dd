//! JavaScript's rules for [`Value`], as dotprompt (Handlebars on JavaScript) applies them:
//! `String(value)` ([`Value::to_js_string`], numbers by [`js_number`]), truthiness
//! ([`Value::is_truthy`]), `===` ([`Value::strict_equals`]), and how JavaScript reads JSON
//! and YAML ([`deserialize`], [`from_json`]).
//!
//! A JavaScript number is a float: read this way, a float with an integral value (`3.0`)
//! is the integer 3, an integer beyond 64 bits is the nearest float, and infinities and
//! NaN, which JSON cannot write, are `null`. An object lists the keys that are array
//! indices first, in numeric order, then the others in the order written; a key YAML
//! writes as a number or a boolean is its `String()`. A [`Value::Tuple`] never arises
//! here: it is an array.

use super::data::{self, Map, Num, Number, Read, Rules, Value};
use serde_core::de::{self, Deserialize, DeserializeSeed, Deserializer};

/// How deep an array is printed: hostile input cannot exhaust the stack (dotprompt's
/// [`MAX_DEPTH`](crate::formats::dotprompt::MAX_DEPTH)).
pub(crate) const MAX_DEPTH: usize = 100;

impl Value {
    /// JavaScript truthiness, as Handlebars' `{{#if}}` tests it: `false`, `null`, `0`,
    /// NaN and `""` are false, and so is an empty array (Handlebars' own rule).
    ///
    /// ```
    /// use promptic::value::Value;
    ///
    /// assert!(!Value::from(0).is_truthy());
    /// assert!(Value::from("0").is_truthy());
    /// ```
    pub fn is_truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
            Value::String(s) => !s.is_empty(),
            Value::Array(items) | Value::Tuple(items) => !items.is_empty(),
            Value::Object(_) => true,
        }
    }

    /// The text `String(value)` gives in JavaScript, as `{{value}}` prints it (with
    /// `null` printed as nothing, as Handlebars does).
    pub fn to_js_string(&self) -> String {
        let mut out = String::new();
        self.write_js_string(&mut out, 0);
        out
    }

    pub(crate) fn write_js_string(&self, out: &mut String, depth: usize) {
        match self {
            Value::Null => {}
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => out.push_str(&js_number(n)),
            Value::String(s) => out.push_str(s),
            Value::Array(items) | Value::Tuple(items) => {
                // `Array.prototype.join`: elements joined by commas, null ones empty. A
                // depth bound keeps a deep array from exhausting the stack.
                if depth > MAX_DEPTH {
                    return;
                }
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_js_string(out, depth + 1);
                }
            }
            Value::Object(_) => out.push_str("[object Object]"),
        }
    }

    /// Whether two values are `==` in JavaScript, for values that are not the same one (two
    /// objects or arrays are then never equal): `null` only to `null`; a boolean as the
    /// number 1 or 0; a text against a number as the number it reads as (`Number(text)`);
    /// an object or array against a text or number as its `String()` (`[object Object]`,
    /// an array's items joined by commas).
    pub(crate) fn loose_equals(&self, other: &Value) -> bool {
        let number = |n: &Number| n.as_f64().unwrap_or(f64::NAN);
        let flag = |b: bool| Value::Number(Number::from(i64::from(b)));
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Null, _) | (_, Value::Null) => false,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Bool(a), b) => flag(*a).loose_equals(b),
            (a, Value::Bool(b)) => a.loose_equals(&flag(*b)),
            (Value::Number(a), Value::Number(b)) => number(a) == number(b),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) => {
                number(n) == string_to_number(s)
            }
            (
                Value::Object(_) | Value::Array(_) | Value::Tuple(_),
                Value::Object(_) | Value::Array(_) | Value::Tuple(_),
            ) => false,
            (whole @ (Value::Object(_) | Value::Array(_) | Value::Tuple(_)), other)
            | (other, whole @ (Value::Object(_) | Value::Array(_) | Value::Tuple(_))) => {
                Value::String(whole.to_js_string()).loose_equals(other)
            }
        }
    }

    /// Whether two values are `===` in JavaScript: the same primitive (numbers by value),
    /// never two objects or arrays (which are equal only when they are the same one).
    pub fn strict_equals(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
            (Value::String(a), Value::String(b)) => a == b,
            _ => false,
        }
    }
}

/// `Number(text)` in JavaScript: white space around is dropped; nothing is 0; `Infinity`
/// with or without a sign; `0x`, `0o` and `0b` digits; a decimal with an optional sign,
/// point and exponent; anything else NaN.
pub(crate) fn string_to_number(text: &str) -> f64 {
    let space = |c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}';
    let text = text.trim_matches(space);
    match text {
        "" => return 0.0,
        "Infinity" | "+Infinity" => return f64::INFINITY,
        "-Infinity" => return f64::NEG_INFINITY,
        _ => {}
    }
    let radix = match text.get(..2) {
        Some("0x" | "0X") => 16,
        Some("0o" | "0O") => 8,
        Some("0b" | "0B") => 2,
        _ => 10,
    };
    if radix != 10 {
        let digits = &text[2..];
        if digits.is_empty() {
            return f64::NAN;
        }
        let mut value = 0.0;
        for c in digits.chars() {
            match c.to_digit(radix) {
                Some(d) => value = value * f64::from(radix) + f64::from(d),
                None => return f64::NAN,
            }
        }
        return value;
    }
    // Rust reads the same decimals, and words (`inf`, `nan`) JavaScript does not.
    if !text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'))
    {
        return f64::NAN;
    }
    text.parse().unwrap_or(f64::NAN)
}

/// A number as JavaScript prints it: integers plainly, `1e+21` from 10^21 on, and the
/// shortest digits that read back to the same float.
///
/// ```
/// use promptic::value::{Number, js::js_number};
///
/// assert_eq!(js_number(&Number::from_f64(3.0)), "3");
/// assert_eq!(js_number(&Number::from_f64(1e21)), "1e+21");
/// assert_eq!(js_number(&Number::from(12)), "12");
/// ```
pub fn js_number(n: &Number) -> String {
    if let Num::Int(i) = n.0
        && (i64::try_from(i).is_ok() || u64::try_from(i).is_ok())
    {
        // Below 2^64, so below 10^21: written out.
        return i.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f.is_nan() {
        return "NaN".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if f == 0.0 {
        return "0".to_owned();
    }
    let abs = f.abs();
    if (1e-6..1e21).contains(&abs) {
        return format!("{f}");
    }
    // Rust writes `1e21` and `1.5e-7`; JavaScript writes `1e+21` and `1.5e-7`.
    let text = format!("{f:e}");
    match text.split_once('e') {
        Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
        _ => text,
    }
}

/// A float as JavaScript holds it: one with an integral value up to 2^53 is that
/// integer (`-0.0` too, which JavaScript prints as `0`), infinities and NaN are `null`.
pub(crate) fn number(f: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if f.fract() == 0.0 && f.abs() <= EXACT {
        return Value::from(f as i64);
    }
    if f.is_finite() {
        Value::from(f)
    } else {
        Value::Null
    }
}

/// A `serde_json::Value` as JavaScript holds it (see the module's rules; the map's keys
/// stay in its order).
///
/// ```
/// use promptic::value::{Value, js};
///
/// assert_eq!(js::from_json(serde_json::json!(3.0)), Value::from(3));
/// assert_eq!(js::from_json(serde_json::json!(3.0)).to_js_string(), "3");
/// ```
pub fn from_json(value: serde_json::Value) -> Value {
    match value {
        serde_json::Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => number(f),
            _ => Value::Number(Number::from(&n)),
        },
        serde_json::Value::Array(items) => Value::Array(items.into_iter().map(from_json).collect()),
        serde_json::Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, from_json(v))).collect())
        }
        other => Value::from(other),
    }
}

/// Reads a value as JavaScript reads JSON or YAML (see the module's rules): for
/// `#[serde(deserialize_with = "...")]`.
///
/// ```
/// use promptic::value::js;
///
/// let mut json = serde_json::Deserializer::from_str(r#"{"b": 1.0, "10": 2, "2": 3}"#);
/// let value = js::deserialize(&mut json).unwrap();
/// assert_eq!(serde_json::to_string(&value).unwrap(), r#"{"2":3,"10":2,"b":1}"#);
/// ```
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    Read::<Js>::new().deserialize(deserializer)
}

/// Reads an object as [`deserialize`] does, `null` as an empty one.
pub fn deserialize_object<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Map, D::Error> {
    data::object(deserialize(deserializer)?)
}

/// Reads an object as [`deserialize`] does, `null` as none.
pub fn deserialize_optional_object<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Map>, D::Error> {
    match deserialize(deserializer)? {
        Value::Null => Ok(None),
        value => data::object(value).map(Some),
    }
}

/// A value read with JavaScript's rules, for a format's `from_str`.
///
/// ```
/// use promptic::value::js::Js;
///
/// let Js(value) = serde_json::from_str(r#"{"b": 2.0, "1": true}"#).unwrap();
/// assert_eq!(serde_json::to_string(&value).unwrap(), r#"{"1":true,"b":2}"#);
/// ```
pub struct Js(pub Value);

impl<'de> Deserialize<'de> for Js {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer).map(Js)
    }
}

/// JSON text read as JavaScript's `JSON.parse` reads it (see the module's rules).
pub fn from_str(text: &str) -> serde_json::Result<Value> {
    serde_json::from_str::<Js>(text).map(|js| js.0)
}

impl Rules for Js {
    const EXPECTING: &'static str = "a JSON or YAML value";

    fn i128(n: i128) -> Value {
        number(n as f64)
    }

    fn u128<E: de::Error>(n: u128) -> Result<Value, E> {
        Ok(number(n as f64))
    }

    fn f64(f: f64) -> Value {
        number(f)
    }

    fn key(key: Value) -> String {
        // YAML allows keys of any kind; JavaScript makes them strings.
        match key {
            Value::Null => "null".to_owned(),
            other => other.to_js_string(),
        }
    }

    fn finish(map: Map) -> Map {
        if !map.keys().any(|k| array_index(k).is_some()) {
            return map;
        }
        // JavaScript lists keys that are array indices first, in numeric order.
        let mut entries: Vec<(String, Value)> = map.into_iter().collect();
        entries.sort_by_key(|(k, _)| array_index(k).map_or((1, 0), |i| (0, i)));
        entries.into_iter().collect()
    }
}

/// The key as an array index (`0` to 2^32 − 2, written without leading zeros).
fn array_index(key: &str) -> Option<u64> {
    let n: u64 = key.parse().ok()?;
    (n < u64::from(u32::MAX) && n.to_string() == key).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Number(text)` as JavaScript reads it (each checked against node).
    #[test]
    fn text_reads_as_a_number_as_javascript_reads_it() {
        for (text, number) in [
            ("  12  ", 12.0),
            ("", 0.0),
            (" \n", 0.0),
            ("1e3", 1000.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("-2.5E-1", -0.25),
            ("0b101", 5.0),
            ("0X1f", 31.0),
            ("0o17", 15.0),
            ("+Infinity", f64::INFINITY),
            ("\u{a0} 7 \u{feff}", 7.0),
        ] {
            assert_eq!(string_to_number(text), number, "{text:?}");
        }
        for text in [
            "-0x10", "0x", "inf", "nan", "1_0", "\u{85} 7", "1e", ".", "+-1", "12px",
        ] {
            assert!(string_to_number(text).is_nan(), "{text:?}");
        }
    }

    fn read(json: &str) -> Value {
        from_str(json).unwrap()
    }

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        let cases = [
            ("3", "3"),
            ("3.0", "3"),
            ("0.5", "0.5"),
            ("-2.25", "-2.25"),
            ("1e21", "1e+21"),
            ("1.5e-7", "1.5e-7"),
            ("123456789012", "123456789012"),
        ];
        for (json, shown) in cases {
            assert_eq!(read(json).to_js_string(), shown, "{json}");
            // Read with Python's rules, a float stays one and prints the same.
            let python: Value = serde_json::from_str(json).unwrap();
            assert_eq!(python.to_js_string(), shown, "{json}");
        }
    }

    #[test]
    fn arrays_join_with_commas_and_objects_are_opaque() {
        let value = read(r#"[1, null, "x", [2, 3], {"a": 1}]"#);
        assert_eq!(value.to_js_string(), "1,,x,2,3,[object Object]");
        let tuple = Value::Tuple(vec![Value::from(1), Value::from("a")]);
        assert_eq!(tuple.to_js_string(), "1,a");
    }

    #[test]
    fn index_keys_come_first_as_in_javascript() {
        let value = read(r#"{"b": 1, "10": 2, "a": 3, "2": 4, "01": 5}"#);
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            r#"{"2":4,"10":2,"b":1,"a":3,"01":5}"#
        );
        // Python keeps the order written.
        let python: Value = serde_json::from_str(r#"{"b": 1, "10": 2}"#).unwrap();
        assert_eq!(serde_json::to_string(&python).unwrap(), r#"{"b":1,"10":2}"#);
    }

    #[test]
    fn removing_a_key_keeps_lookups_right() {
        let mut object =
            data::object::<serde_json::Error>(read(r#"{"a": 1, "b": 2, "c": 3}"#)).unwrap();
        assert_eq!(object.remove("a"), Some(Value::from(1)));
        assert_eq!(object.get("c"), Some(&Value::from(3)));
        assert_eq!(object.keys().collect::<Vec<_>>(), ["b", "c"]);
    }

    #[test]
    fn truthiness_follows_handlebars() {
        for (json, truthy) in [
            ("0", false),
            ("0.0", false),
            ("\"\"", false),
            ("[]", false),
            ("null", false),
            ("{}", true),
            ("\"0\"", true),
            ("[0]", true),
        ] {
            assert_eq!(read(json).is_truthy(), truthy, "{json}");
        }
        assert!(!Value::from(f64::NAN).is_truthy());
    }
}
