//! The data a dotprompt renders: JSON values whose objects keep their keys in order.
//!
//! dotprompt runs on JavaScript, where an object remembers the order its keys were written
//! in (`{{#each}}` over an object, `{{json}}`, and Picoschema's `required` list all show it).
//! `serde_json::Map` sorts its keys, so the front end reads frontmatter and data into this
//! ordered [`Value`] instead; it converts from and to `serde_json::Value`.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// A JSON value with ordered objects, as JavaScript sees it.
///
/// ```
/// use promptic::formats::dotprompt::Value;
///
/// let value: Value = serde_json::from_str(r#"{"b": 1, "a": [true, null]}"#).unwrap();
/// assert_eq!(serde_json::to_string(&value).unwrap(), r#"{"b":1,"a":[true,null]}"#);
/// assert_eq!(value.get("b").and_then(Value::as_f64), Some(1.0));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// `null` (and JavaScript's `undefined`, which JSON cannot hold).
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number; integers up to 2^53 are kept exact, as in JavaScript.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, keys in order.
    Object(Object),
}

/// An object whose keys keep their order (the last write of a key keeps its first place):
/// the ordered mapping every front end shares.
///
/// ```
/// use promptic::formats::dotprompt::{Object, Value};
///
/// let mut object = Object::new();
/// object.insert("z", Value::from("last"));
/// object.insert("a", Value::Bool(true));
/// object.insert("z", Value::from("again"));
/// assert_eq!(object.keys().collect::<Vec<_>>(), ["z", "a"]);
/// assert_eq!(object.get("z"), Some(&Value::from("again")));
/// ```
pub type Object = crate::value::ordered::Map<Value>;

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::String(text.to_owned())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::String(text)
    }
}

impl From<Object> for Value {
    fn from(object: Object) -> Self {
        Value::Object(object)
    }
}

impl From<serde_json::Value> for Value {
    fn from(value: serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => number_value(n),
            serde_json::Value::String(s) => Value::String(s),
            serde_json::Value::Array(items) => {
                Value::Array(items.into_iter().map(Value::from).collect())
            }
            serde_json::Value::Object(map) => {
                Value::Object(map.into_iter().map(|(k, v)| (k, Value::from(v))).collect())
            }
        }
    }
}

impl From<Value> for serde_json::Value {
    fn from(value: Value) -> Self {
        match value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(b),
            Value::Number(n) => serde_json::Value::Number(n),
            Value::String(s) => serde_json::Value::String(s),
            Value::Array(items) => {
                serde_json::Value::Array(items.into_iter().map(Into::into).collect())
            }
            Value::Object(object) => {
                serde_json::Value::Object(object.into_iter().map(|(k, v)| (k, v.into())).collect())
            }
        }
    }
}

/// A number as JavaScript holds it: a float with an integral value (`3.0`) is the
/// integer 3; infinities and NaN, which JSON cannot write, are `null`.
fn number_value(n: serde_json::Number) -> Value {
    match n.as_f64() {
        Some(f) if n.is_f64() => float_value(f),
        _ => Value::Number(n),
    }
}

fn float_value(f: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if f.fract() == 0.0 && f.abs() <= EXACT {
        // `-0.0` prints as `0` in JavaScript too.
        return Value::Number(serde_json::Number::from(f as i64));
    }
    serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
}

impl Value {
    /// The value of a key, when this is an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(object) => object.get(key),
            _ => None,
        }
    }

    /// The object, when this is one.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(object) => Some(object),
            _ => None,
        }
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number as a float, when this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// JavaScript truthiness, as Handlebars' `{{#if}}` tests it: `false`, `null`, `0`,
    /// NaN and `""` are false, and so is an empty array (Handlebars' own rule).
    pub fn is_truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
            Value::String(s) => !s.is_empty(),
            Value::Array(items) => !items.is_empty(),
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
            Value::Array(items) => {
                // `Array.prototype.join`: elements joined by commas, null ones empty. A
                // depth bound keeps a deep array from exhausting the stack.
                if depth > super::MAX_DEPTH {
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

/// A number as JavaScript prints it: integers plainly, `1e+21` from 10^21 on, and the
/// shortest digits that read back to the same float.
pub(crate) fn js_number(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        let f = n.as_f64().unwrap_or(0.0);
        if f.abs() < 1e21 {
            return n.to_string();
        }
    }
    let f = n.as_f64().unwrap_or(0.0);
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

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => n.serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(object) => object.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Object {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Object(object) => Ok(object),
            Value::Null => Ok(Object::new()),
            _ => Err(de::Error::custom("expected an object")),
        }
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON or YAML value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_i128<E>(self, n: i128) -> Result<Value, E> {
        Ok(float_value(n as f64))
    }

    fn visit_u128<E>(self, n: u128) -> Result<Value, E> {
        Ok(float_value(n as f64))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(float_value(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Object::new();
        let mut has_index = false;
        while let Some(key) = map.next_key::<Value>()? {
            // YAML allows keys of any kind; JavaScript makes them strings.
            let key = match key {
                Value::String(s) => s,
                Value::Null => "null".to_owned(),
                other => other.to_js_string(),
            };
            has_index |= array_index(&key).is_some();
            let value = map.next_value()?;
            object.insert(key, value);
        }
        if has_index {
            // JavaScript lists keys that are array indices first, in numeric order.
            let mut entries: Vec<(String, Value)> = object.into_iter().collect();
            entries.sort_by_key(|(k, _)| array_index(k).map_or((1, 0), |i| (0, i)));
            object = entries.into_iter().collect();
        }
        Ok(Value::Object(object))
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
            let value: Value = serde_json::from_str(json).unwrap();
            assert_eq!(value.to_js_string(), shown, "{json}");
        }
    }

    #[test]
    fn arrays_join_with_commas_and_objects_are_opaque() {
        let value: Value = serde_json::from_str(r#"[1, null, "x", [2, 3], {"a": 1}]"#).unwrap();
        assert_eq!(value.to_js_string(), "1,,x,2,3,[object Object]");
    }

    #[test]
    fn index_keys_come_first_as_in_javascript() {
        let value: Value =
            serde_json::from_str(r#"{"b": 1, "10": 2, "a": 3, "2": 4, "01": 5}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            r#"{"2":4,"10":2,"b":1,"a":3,"01":5}"#
        );
    }

    #[test]
    fn removing_a_key_keeps_lookups_right() {
        let mut object: Object = serde_json::from_str(r#"{"a": 1, "b": 2, "c": 3}"#).unwrap();
        assert_eq!(object.remove("a"), Some(Value::Number(1.into())));
        assert_eq!(object.get("c"), Some(&Value::Number(3.into())));
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
            let value: Value = serde_json::from_str(json).unwrap();
            assert_eq!(value.is_truthy(), truthy, "{json}");
        }
    }
}
