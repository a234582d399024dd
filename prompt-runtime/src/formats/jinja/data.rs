//! The values a Jinja template renders: the one run-time value of every front end,
//! [`crate::value::Value`], with Python's rules beside it in [`crate::value::python`].

pub(crate) use crate::value::data::Num;
pub use crate::value::data::{JsonError, MAX_INT_DIGITS, Map, Number, Value};
