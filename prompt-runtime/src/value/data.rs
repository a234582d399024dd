//! The one run-time value every front end renders: [`Value`], with its [`Number`].
//!
//! It holds what JSON, YAML and Python hold, losing nothing: mappings keep the order their
//! keys were written in, integers are exact however long, floats are floats (`3.0` stays
//! `3.0`), and a tuple is apart from a list. How a value prints, compares and tests true is
//! each language's own, so it lives beside the type once per language:
//! [`python`](super::python) (`str()`, `repr()`, `==` on numbers) for the Jinja front end,
//! [`js`](super::js) (`String()`, `===`, truthiness, JavaScript's reading of JSON and
//! YAML) for dotprompt.
//!
//! JSON text is read by [`Value::from_json`] as Python's `json.loads` reads it, keeping every
//! integer's digits; any self-describing serde format is read by the [`Deserialize`] impl,
//! with Python's (lossless) rules; `serde_json::Value`s convert both ways (their maps are
//! sorted already, so the order is the keys').

use super::ordered;
use serde_core::de::{
    self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
};
use serde_core::ser::{Serialize, SerializeSeq, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// A mapping (a Python dict, a JavaScript object): keys in the order they were first
/// written.
pub type Map = ordered::Map<Value>;

/// A value a template reads or computes, in any front end: the Jinja front end's
/// [`jinja::Value`](crate::formats::jinja::Value) and dotprompt's
/// [`dotprompt::Value`](crate::formats::dotprompt::Value) are this type.
///
/// `==` is structural, numbers compared by value (`1 == 1.0`, as Python compares them);
/// each front end's own comparison is a function of its language
/// ([`Value::strict_equals`] for JavaScript's `===`).
///
/// ```
/// use promptic::value::Value;
///
/// let value = Value::from_json(r#"{"b": 1, "a": 100000000000000000000}"#).unwrap();
/// let keys: Vec<&str> = value.as_object().unwrap().keys().collect();
/// assert_eq!(keys, ["b", "a"]);
/// assert_eq!(value.get("a").unwrap().to_string(), "100000000000000000000");
/// assert_eq!(Value::from(2.5).to_js_string(), "2.5");
/// assert!(Value::from_json("[1,]").is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// `None`, `null` (and JavaScript's `undefined`, which JSON cannot hold).
    #[default]
    Null,
    /// `True` or `False`.
    Bool(bool),
    /// An integer (of any length) or a float.
    Number(Number),
    /// A string.
    String(String),
    /// A list, an array.
    Array(Vec<Value>),
    /// A Python `tuple`: what Jinja's `items()` and `dictsort` give for each entry. JSON
    /// writes it as a list, and JavaScript sees an array.
    Tuple(Vec<Value>),
    /// A mapping (a dict, an object), keys in order.
    Object(Map),
}

/// A Python number: an `int` of any length or a `float`.
///
/// ```
/// use promptic::value::Number;
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

    /// Whether it is an integer that fits an `i64`.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether it is an integer that fits a `u64`.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }
}

impl PartialEq for Number {
    /// Python's `==` on numbers: `1 == 1.0`.
    fn eq(&self, other: &Self) -> bool {
        super::python::num_cmp_numbers(self, other) == Some(std::cmp::Ordering::Equal)
    }
}

impl fmt::Display for Number {
    /// Python's `str()` of the number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        super::python::write_number(&mut out, self);
        f.write_str(&out)
    }
}

impl fmt::Display for Value {
    /// Python's `str()` of the value, as Jinja's `{{ value }}` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        super::python::write_str(&mut out, self);
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

impl From<usize> for Number {
    fn from(n: usize) -> Number {
        Number(Num::Int(n as i128))
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Number(Number::from(n))
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

    /// The number as a float, when this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.as_f64(),
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
/// use promptic::value::Value;
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

impl From<Map> for Value {
    fn from(map: Map) -> Value {
        Value::Object(map)
    }
}

impl From<serde_json::Value> for Value {
    /// The value as it is: integers exact, a float a float (`3.0` stays one), keys in
    /// the map's order. [`js::from_json`](super::js::from_json) reads it as JavaScript
    /// holds it instead.
    fn from(value: serde_json::Value) -> Value {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(Number::from(&n)),
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
            serde_json::Value::Number(n) => Value::Number(Number::from(n)),
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

impl From<&serde_json::Number> for Number {
    fn from(n: &serde_json::Number) -> Number {
        if let Some(i) = n.as_i64() {
            Number::from(i)
        } else if let Some(u) = n.as_u64() {
            Number::from(u)
        } else {
            Number::from_f64(n.as_f64().unwrap_or(f64::NAN))
        }
    }
}

impl From<&Number> for serde_json::Value {
    /// An integer of 64 bits as one, any other number as the nearest float, and a float
    /// JSON cannot write (infinity, NaN) as `null`.
    fn from(n: &Number) -> serde_json::Value {
        match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => serde_json::Value::from(i),
            (_, Some(u)) => serde_json::Value::from(u),
            _ => serde_json::Number::from_f64(n.as_f64().unwrap_or(f64::NAN))
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
        }
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
            Value::Number(n) => n.into(),
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

impl From<Value> for serde_json::Value {
    fn from(value: Value) -> serde_json::Value {
        match value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(b),
            Value::Number(n) => (&n).into(),
            Value::String(s) => serde_json::Value::String(s),
            Value::Array(items) | Value::Tuple(items) => {
                serde_json::Value::Array(items.into_iter().map(Into::into).collect())
            }
            Value::Object(map) => {
                serde_json::Value::Object(map.into_iter().map(|(k, v)| (k, v.into())).collect())
            }
        }
    }
}

impl Serialize for Value {
    /// Integers exactly (as `i128` within its range), other numbers as floats, a tuple as
    /// a list, mappings in order.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => match &n.0 {
                // What fits 64 bits goes as `i64`/`u64`, which every format takes.
                Num::Int(i) => match (i64::try_from(*i), u64::try_from(*i)) {
                    (Ok(i), _) => serializer.serialize_i64(i),
                    (_, Ok(u)) => serializer.serialize_u64(u),
                    _ => serializer.serialize_i128(*i),
                },
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
    /// Reads any self-describing format (JSON, YAML) with Python's rules, losing nothing:
    /// keys in order, integers exact to 128 bits (a longer one comes as the float the
    /// format gives: read JSON text with [`Value::from_json`] to keep its digits), floats
    /// as floats. [`js::deserialize`](super::js::deserialize) reads as JavaScript does.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Read::<Python>::new().deserialize(deserializer)
    }
}

impl<'de> Deserialize<'de> for Map {
    /// A mapping, with [`Value`]'s rules; `null` (an empty YAML document) is an empty one.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        object(Value::deserialize(deserializer)?)
    }
}

/// The mapping a value read for one is, `null` as an empty one.
pub(crate) fn object<E: de::Error>(value: Value) -> Result<Map, E> {
    match value {
        Value::Object(map) => Ok(map),
        Value::Null => Ok(Map::new()),
        _ => Err(E::custom("expected an object")),
    }
}

/// How a language reads what a serde format gives: the one place Python's reading (the
/// [`Deserialize`] impl) and JavaScript's ([`js`](super::js)) differ.
pub(crate) trait Rules {
    /// What the reader expects, for messages.
    const EXPECTING: &'static str;
    /// An integer beyond 64 bits.
    fn i128(n: i128) -> Value;
    /// An unsigned integer beyond 64 bits.
    fn u128<E: de::Error>(n: u128) -> Result<Value, E>;
    /// A float.
    fn f64(f: f64) -> Value;
    /// A key that is not a string (YAML allows any).
    fn key(key: Value) -> String;
    /// The mapping read, keys in the order written.
    fn finish(map: Map) -> Map {
        map
    }
}

/// Python's reading: nothing lost.
pub(crate) struct Python;

impl Rules for Python {
    const EXPECTING: &'static str = "a JSON value";

    fn i128(n: i128) -> Value {
        Value::from(n)
    }

    fn u128<E: de::Error>(n: u128) -> Result<Value, E> {
        Ok(Value::Number(
            Number::from_digits(&n.to_string()).ok_or_else(|| E::custom("not a number"))?,
        ))
    }

    fn f64(f: f64) -> Value {
        Value::from(f)
    }

    fn key(key: Value) -> String {
        key.to_string()
    }
}

/// The one reader of serde formats, by a language's [`Rules`].
pub(crate) struct Read<R>(PhantomData<R>);

impl<R> Read<R> {
    pub(crate) fn new() -> Self {
        Read(PhantomData)
    }
}

impl<'de, R: Rules> DeserializeSeed<'de> for Read<R> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, R: Rules> Visitor<'de> for Read<R> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(R::EXPECTING)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
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
        Ok(R::i128(n))
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Value, E> {
        R::u128(n)
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(R::f64(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Read::<R>::new())? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key_seed(Read::<R>::new())? {
            let key = match key {
                Value::String(s) => s,
                other => R::key(other),
            };
            let value = access.next_value_seed(Read::<R>::new())?;
            map.insert(key, value);
        }
        Ok(Value::Object(R::finish(map)))
    }
}

/// Sets `value` at `path` (`--set user.name=Ada`: `["user", "name"]`) in `map`, making
/// each step before the last a mapping: a step that holds something else is replaced.
pub(crate) fn set_path(map: &mut Map, path: &[String], value: Value) {
    let (last, steps) = match path.split_last() {
        Some(split) => split,
        None => return,
    };
    let mut at = map;
    for step in steps {
        if !matches!(at.get(step), Some(Value::Object(_))) {
            at.insert(step.clone(), Value::Object(Map::new()));
        }
        at = match at.get_mut(step) {
            Some(Value::Object(next)) => next,
            _ => return,
        };
    }
    at.insert(last.clone(), value);
}
