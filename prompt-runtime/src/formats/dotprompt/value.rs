//! The data a dotprompt renders: the one run-time value of every front end,
//! [`crate::value::Value`], read and printed here by JavaScript's rules
//! ([`crate::value::js`]).
//!
//! dotprompt runs on JavaScript, where an object remembers the order its keys were written
//! in (`{{#each}}` over an object, `{{json}}`, and Picoschema's `required` list all show it),
//! so the front end reads frontmatter and data into this ordered [`Value`] (with
//! JavaScript's reading: [`DataArgument`](super::DataArgument) and the frontmatter do);
//! it converts from and to `serde_json::Value`.

/// A JSON value with ordered objects, as JavaScript sees it: [`crate::value::Value`],
/// which the Jinja front end reads by Python's rules.
///
/// ```
/// use promptic::formats::dotprompt::Value;
///
/// let value: Value = serde_json::from_str(r#"{"b": 1, "a": [true, null]}"#).unwrap();
/// assert_eq!(serde_json::to_string(&value).unwrap(), r#"{"b":1,"a":[true,null]}"#);
/// assert_eq!(value.get("b").and_then(Value::as_f64), Some(1.0));
/// ```
pub use crate::value::Value;

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
pub type Object = crate::value::Map;

pub(crate) use crate::value::js::js_number;
