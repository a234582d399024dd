//! The values a Jinja template renders, as Python holds them: dicts keep the order their
//! keys were written in, integers are exact however long, floats are floats (`3.0` stays
//! `3.0`), and a tuple is apart from a list. JSON text is read into them by
//! [`Value::from_json`], which keeps every integer's digits; `serde_json::Value`s convert
//! (their maps are sorted already, so the order is the keys').

use crate::value::ordered;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use std::fmt;

/// A dict: keys in the order they were first written.
pub type Map = ordered::Map<Value>;

/// A value a template reads or computes.
///
/// ```
/// use promptic::formats::jinja::Value;
///
/// let value = Value::from_json(r#"{"b": 1, "a": 100000000000000000000}"#).unwrap();
/// let keys: Vec<&str> = value.as_object().unwrap().keys().collect();
/// assert_eq!(keys, ["b", "a"]);
/// assert_eq!(value.get("a").unwrap().to_string(), "100000000000000000000");
/// assert!(Value::from_json("[1,]").is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// `None`.
    #[default]
    Null,
    /// `True` or `False`.
    Bool(bool),
    /// An `int` or a `float`.
    Number(Number),
    /// A `str`.
    String(String),
    /// A `list`.
    Array(Vec<Value>),
    /// A `tuple`: what `items()` and `dictsort` give for each entry. JSON writes it as a
    /// list.
    Tuple(Vec<Value>),
    /// A `dict`, keys in order.
    Object(Map),
}

/// A Python number: an `int` of any length or a `float`.
///
/// ```
/// use promptic::formats::jinja::Number;
///
/// assert_eq!(Number::from(7).as_i64(), Some(7));
/// assert!(Number::from_f64(2.5).is_f64());
/// ```
#[derive(Clone, Debug)]
pub struct Number(pub(crate) Num);

/// What a [`Number`] holds: integers in `i128` range as one, longer ones as their digits
/// (printed and compared exactly, refused by arithmetic), floats as `f64`.
#[derive(Clone, Debug)]
pub(crate) enum Num {
    Int(i128),
    /// Decimal digits with an optional leading `-`, beyond `i128`, no leading zeros.
    Big(Box<str>),
    Float(f64),
}

/// The most digits an integer may have: Python refuses to read or print longer ones
/// (`sys.get_int_max_str_digits()`, 4300 by default).
pub const MAX_INT_DIGITS: usize = 4300;

impl Number {
    /// A float (any, infinities and NaN too: Python's `float('inf')`).
    pub fn from_f64(f: f64) -> Number {
        Number(Num::Float(f))
    }

    /// An integer written in decimal (`-` allowed), `None` when it is not one or has more
    /// than [`MAX_INT_DIGITS`] digits.
    pub fn from_digits(text: &str) -> Option<Number> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.len() > MAX_INT_DIGITS {
            return None;
        }
        if let Ok(i) = text.parse::<i128>() {
            return Some(Number(Num::Int(i)));
        }
        let trimmed = digits.trim_start_matches('0');
        let negative = text.starts_with('-');
        Some(Number(Num::Big(
            if negative {
                format!("-{trimmed}")
            } else {
                trimmed.to_owned()
            }
            .into(),
        )))
    }

    /// The integer, when it is one that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            Num::Int(i) => i64::try_from(i).ok(),
            _ => None,
        }
    }

    /// The integer, when it is one that fits.
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            Num::Int(i) => u64::try_from(i).ok(),
            _ => None,
        }
    }

    /// The integer, when it is one that fits.
    pub fn as_i128(&self) -> Option<i128> {
        match self.0 {
            Num::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The number as a float (a long integer rounded).
    pub fn as_f64(&self) -> Option<f64> {
        Some(match &self.0 {
            Num::Int(i) => *i as f64,
            Num::Big(digits) => digits.parse().unwrap_or(f64::NAN),
            Num::Float(f) => *f,
        })
    }

    /// Whether it is a float.
    pub fn is_f64(&self) -> bool {
        matches!(self.0, Num::Float(_))
    }
}

impl PartialEq for Number {
    /// Python's `==` on numbers: `1 == 1.0`.
    fn eq(&self, other: &Self) -> bool {
        super::value::num_cmp_numbers(self, other) == Some(std::cmp::Ordering::Equal)
    }
}

impl fmt::Display for Number {
    /// Python's `str()` of the number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        super::value::write_number(&mut out, self);
        f.write_str(&out)
    }
}

impl fmt::Display for Value {
    /// Python's `str()` of the value, as `{{ value }}` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        super::value::write_str(&mut out, self);
        f.write_str(&out)
    }
}

macro_rules! int_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Number {
                Number(Num::Int(i128::from(n)))
            }
        }
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(Number::from(n))
            }
        }
    )*};
}
int_from!(i8, i16, i32, i64, i128, u8, u16, u32, u64);

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Number(Number(Num::Int(n as i128)))
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Number(Number::from_f64(f))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl Value {
    /// The value of a key, when this is a dict.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(map) => map.get(key),
            _ => None,
        }
    }

    /// The dict, when this is one.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(map) => Some(map),
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

    /// Whether this is `None`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether this is a dict.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// The items of a list or a tuple.
    pub(crate) fn as_seq(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) | Value::Tuple(items) => Some(items),
            _ => None,
        }
    }

    /// Reads JSON text as Python's `json.loads` does: keys in the order written (a
    /// repeated key keeps its first place and its last value), integers exact, and
    /// `NaN`, `Infinity` and `-Infinity` as floats. Nests at most 128 deep.
    pub fn from_json(text: &str) -> Result<Value, JsonError> {
        super::json::read(text)
    }
}

/// Where JSON text is not JSON, and why.
///
/// ```
/// use promptic::formats::jinja::Value;
///
/// let error = Value::from_json("{\"a\": tru}").unwrap_err();
/// assert_eq!(error.offset, 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The byte offset of the problem.
    pub offset: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for JsonError {}

impl From<serde_json::Value> for Value {
    fn from(value: serde_json::Value) -> Value {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(number_of(&n)),
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

impl From<&serde_json::Value> for Value {
    fn from(value: &serde_json::Value) -> Value {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(number_of(n)),
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(items) => {
                Value::Array(items.iter().map(Value::from).collect())
            }
            serde_json::Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), Value::from(v)))
                    .collect(),
            ),
        }
    }
}

fn number_of(n: &serde_json::Number) -> Number {
    if let Some(i) = n.as_i64() {
        Number::from(i)
    } else if let Some(u) = n.as_u64() {
        Number::from(u)
    } else {
        Number::from_f64(n.as_f64().unwrap_or(f64::NAN))
    }
}

impl From<&Value> for serde_json::Value {
    /// The value as `serde_json` holds it: keys sorted, a tuple a list, an integer beyond
    /// 64 bits and a float JSON cannot write (infinity, NaN) as the nearest float or
    /// `null`.
    fn from(value: &Value) -> serde_json::Value {
        match value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => serde_json::Value::from(i),
                (_, Some(u)) => serde_json::Value::from(u),
                _ => serde_json::Number::from_f64(n.as_f64().unwrap_or(f64::NAN))
                    .map_or(serde_json::Value::Null, serde_json::Value::Number),
            },
            Value::String(s) => serde_json::Value::String(s.clone()),
            Value::Array(items) | Value::Tuple(items) => {
                serde_json::Value::Array(items.iter().map(Into::into).collect())
            }
            Value::Object(map) => serde_json::Value::Object(
                map.iter().map(|(k, v)| (k.to_owned(), v.into())).collect(),
            ),
        }
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => match &n.0 {
                Num::Int(i) => serializer.serialize_i128(*i),
                Num::Big(_) | Num::Float(_) => {
                    serializer.serialize_f64(n.as_f64().unwrap_or(f64::NAN))
                }
            },
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) | Value::Tuple(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(map) => map.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    /// Reads any self-describing format (JSON, YAML) in order. An integer longer than
    /// 128 bits comes as the float the format gives: read JSON text with
    /// [`Value::from_json`] to keep its digits.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
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
        Ok(Value::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_i128<E>(self, n: i128) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Value, E> {
        Ok(Value::Number(
            Number::from_digits(&n.to_string()).ok_or_else(|| E::custom("not a number"))?,
        ))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::from(f))
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

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let value = access.next_value()?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}
