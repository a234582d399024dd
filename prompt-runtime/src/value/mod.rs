//! Structured values: what a template reads by path (`user.name`), loops over (a list) or
//! reads the items of (a map), for every front end that reads more than flat names.
//!
//! A type a template reads implements [`PromptValue`]: its [`Shape`], known at compile
//! time, lets the derive of a prompt check every path the prompt reads into it
//! ([`path`]), and [`PromptValue::to_value`] gives the value the renderers read at run
//! time (JSON, as the CLI and [`Project`](crate::load::Project) take values).
//! `#[derive(promptic::PromptValue)]` implements it for a struct with named fields.
//!
//! What the renderers read at run time is one [`Value`] ([`data`]): null, booleans,
//! exact integers and floats ([`Number`]), strings, lists, tuples and ordered mappings
//! ([`Map`]). Both front ends render it (it is `formats::jinja::Value` and
//! `formats::dotprompt::Value`); each language's rules for printing, comparing and reading
//! it live beside it once, [`python`] for Jinja and [`js`] for dotprompt.
//!
//! ```
//! use promptic::value::{PromptValue, Shape};
//!
//! let stops = vec!["Lyon", "Turin"];
//! assert_eq!(stops.to_value(), Some(serde_json::json!(["Lyon", "Turin"])));
//! assert!(matches!(<Vec<&str>>::SHAPE, Shape::List(Shape::Text)));
//! assert_eq!(None::<&str>.to_value(), None);
//! ```

pub mod data;
pub mod js;
mod json;
pub mod ordered;
pub mod path;
pub(crate) mod pprint;
pub mod python;
pub(crate) mod view;

pub(crate) use data::set_path;
pub use data::{JsonError, MAX_INT_DIGITS, Map, Number, Value};

#[doc(hidden)]
pub use view::{MapView, SeqView, View};
pub(crate) use view::{discard, get, map_entries};

use serde_json::Value as Json;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// What a value is, as far as a template can tell: enough to check a path into it at
/// compile time.
///
/// ```
/// use promptic::value::{FieldShape, PromptValue, Shape};
///
/// const CITY: Shape = Shape::Struct {
///     name: "City",
///     fields: &[FieldShape { name: "name", shape: &<String as PromptValue>::SHAPE }],
/// };
/// assert!(matches!(CITY, Shape::Struct { fields, .. } if fields[0].name == "name"));
/// ```
#[derive(Debug)]
pub enum Shape {
    /// A string.
    Text,
    /// An integer or a float.
    Number,
    /// `true` or `false`.
    Bool,
    /// A struct read by field (`user.name`), named for messages.
    Struct {
        /// The Rust type's name.
        name: &'static str,
        /// Its fields as templates read them.
        fields: &'static [FieldShape],
    },
    /// A list of values of one shape (`for x in xs`).
    List(&'static Shape),
    /// A map from strings to values of one shape (`m.items()`, `m.key`).
    Map(&'static Shape),
    /// A value that may be absent.
    Optional(&'static Shape),
    /// Anything (a `serde_json::Value`): checked at run time only.
    Any,
}

/// One field of a [`Shape::Struct`].
#[derive(Debug)]
pub struct FieldShape {
    /// The name templates read it by.
    pub name: &'static str,
    /// What it holds.
    pub shape: &'static Shape,
}

/// A value a template reads: its [`Shape`] for the compile-time checks, and the value
/// itself for rendering.
///
/// Implemented for strings, numbers, `bool`, `char`, [`Guidance`](crate::Guidance),
/// `Option`, lists (`Vec<T>`, `[T]`, arrays), maps with string keys (`BTreeMap`,
/// `HashMap`), references and boxes of these, and `serde_json::Value` (any JSON, checked
/// at run time only). Derive it for a struct with `#[derive(promptic::PromptValue)]`.
///
/// ```
/// use promptic::value::PromptValue;
/// use std::collections::BTreeMap;
///
/// let mut tools = BTreeMap::new();
/// tools.insert("search".to_owned(), 2);
/// assert_eq!(tools.to_value(), Some(serde_json::json!({"search": 2})));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a value a template can read",
    label = "a template reads this value",
    note = "a struct a template reads by field derives it: `#[derive(promptic::PromptValue)]`"
)]
pub trait PromptValue {
    /// What the value is, for the derive's checks of the paths a prompt reads into it.
    const SHAPE: Shape;

    /// The value as the renderers read it; `None` when it is absent (an `Option` that is
    /// `None`), so that `| default(…)` and `is defined` see no value.
    fn to_value(&self) -> Option<Json>;

    /// The value as the compiled render of a derived prompt reads it, in place. The
    /// default, [`View::Opaque`], makes a derived prompt render this value through
    /// [`to_value`](Self::to_value) and the run-time renderer instead (a copy made from
    /// `to_value` at each read would cost the whole value per key read).
    #[doc(hidden)]
    fn view(&self) -> View<'_> {
        View::Opaque
    }

    /// The view of a reference to the value: the same as [`view`](Self::view), except
    /// that a slice is read lazily ([`View::Seq`]) through the reference, which is sized
    /// where the slice is not.
    #[doc(hidden)]
    #[inline]
    fn view_ref<'s>(this: &'s &Self) -> View<'s> {
        (**this).view()
    }

    /// `value.key` as the compiled render reads it: `None` where [`view`](Self::view)
    /// gives no value or one not readable in place (the same as reading the key of the
    /// view). A derived struct reads its field by a match the compiler folds away when
    /// `key` is a constant.
    #[doc(hidden)]
    #[inline(always)]
    fn attr(&self, key: &str) -> Option<View<'_>> {
        let view = self.view();
        let value = get(&view, key);
        discard(view);
        value
    }

    /// `{{ value.a.b }}` (the keys `keys`; none: `{{ value }}`) printed as the compiled
    /// render prints it, for a type that reads its keys typed: [`Written::ByView`] (the
    /// default) where the render goes through [`attr`](Self::attr) and the view instead.
    /// A value printed here is whole, whatever it holds, so the compiler sees nothing of
    /// it is left to the run-time renderer.
    #[doc(hidden)]
    #[inline(always)]
    fn write_path(&self, keys: &[&str], out: &mut String) -> Written {
        let _ = (keys, out);
        Written::ByView
    }

    /// Whether `{% if value.key %}` (one key, or none: `{% if value %}`) holds, as the
    /// compiled render tests it, for a type that reads its keys typed: `None` (the default)
    /// where the render tests the view instead. A key that is not there is Jinja's
    /// undefined, which is false.
    #[doc(hidden)]
    #[inline(always)]
    fn truth_at(&self, keys: &[&str]) -> Option<bool> {
        let _ = keys;
        None
    }

    /// Whether `value.key == "text"` (one key, or none: `value == "text"`) holds, as the
    /// compiled render compares it, for a type that reads its keys typed: `None` (the
    /// default) where the render compares the view instead. Only a text equal to `text`
    /// is equal to it; a key that is not there is Jinja's undefined, which is not.
    #[doc(hidden)]
    #[inline(always)]
    fn is_text_at(&self, keys: &[&str], text: &str) -> Option<bool> {
        let _ = (keys, text);
        None
    }

    /// Whether [`view`](Self::view) reads the value in place: never [`View::Opaque`] for
    /// the value itself (what it holds may still be). The compiled render goes over a
    /// map's entries in place only when its values are.
    #[doc(hidden)]
    const IN_PLACE: bool = false;
}

/// A reference or pointer to a value is read as the value; `$view` is its view, of the
/// pointer `$this`.
macro_rules! through_pointer {
    ($($pointer:ty),+; view: |$this:ident| $view:expr) => {$(
        impl<T: PromptValue + ?Sized> PromptValue for $pointer {
            const SHAPE: Shape = T::SHAPE;
            const IN_PLACE: bool = T::IN_PLACE;
            #[inline(always)]
            fn attr(&self, key: &str) -> Option<View<'_>> {
                (**self).attr(key)
            }
            #[inline(always)]
            fn write_path(&self, keys: &[&str], out: &mut String) -> Written {
                (**self).write_path(keys, out)
            }
            #[inline(always)]
            fn truth_at(&self, keys: &[&str]) -> Option<bool> {
                (**self).truth_at(keys)
            }
            #[inline(always)]
            fn is_text_at(&self, keys: &[&str], text: &str) -> Option<bool> {
                (**self).is_text_at(keys, text)
            }
            fn to_value(&self) -> Option<Json> {
                (**self).to_value()
            }
            #[inline]
            fn view(&self) -> View<'_> {
                let $this = self;
                $view
            }
        }
    )+};
}

through_pointer!(&T; view: |this| T::view_ref(this));
through_pointer!(&mut T, Box<T>, std::rc::Rc<T>, std::sync::Arc<T>; view: |this| (**this).view());

macro_rules! text {
    ($($ty:ty),*) => {$(
        impl PromptValue for $ty {
            const SHAPE: Shape = Shape::Text;
            const IN_PLACE: bool = true;
            fn to_value(&self) -> Option<Json> {
                Some(Json::String(self.to_string()))
            }
            #[inline]
            fn view(&self) -> View<'_> {
                View::Text(Cow::Borrowed(self.as_ref()))
            }
            /// The text itself; a key of it through the view (not defined).
            #[inline(always)]
            fn write_path(&self, keys: &[&str], out: &mut String) -> Written {
                if !keys.is_empty() {
                    return Written::ByView;
                }
                out.push_str(self.as_ref());
                Written::Done
            }
        }
    )*};
}
text!(str, String, Cow<'_, str>);

impl PromptValue for char {
    const SHAPE: Shape = Shape::Text;
    const IN_PLACE: bool = true;
    fn to_value(&self) -> Option<Json> {
        Some(Json::String(self.to_string()))
    }
    fn view(&self) -> View<'_> {
        View::Text(Cow::Owned(self.to_string()))
    }
}

impl PromptValue for crate::Guidance {
    const SHAPE: Shape = Shape::Text;
    const IN_PLACE: bool = true;
    fn to_value(&self) -> Option<Json> {
        Some(Json::String(self.as_str().to_owned()))
    }
    #[inline]
    fn view(&self) -> View<'_> {
        View::Text(Cow::Borrowed(self.as_str()))
    }
}

macro_rules! number {
    ($($ty:ty),*) => {$(
        impl PromptValue for $ty {
            const SHAPE: Shape = Shape::Number;
            const IN_PLACE: bool = true;
            fn to_value(&self) -> Option<Json> {
                Some(Json::from(*self))
            }
            #[inline]
            fn view(&self) -> View<'_> {
                View::Int(*self as i128)
            }
        }
    )*};
}
number!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! float {
    ($($ty:ty),*) => {$(
        impl PromptValue for $ty {
            const SHAPE: Shape = Shape::Number;
            const IN_PLACE: bool = true;
            fn to_value(&self) -> Option<Json> {
                Some(Json::from(*self))
            }
            #[inline]
            fn view(&self) -> View<'_> {
                View::float(f64::from(*self))
            }
        }
    )*};
}
float!(f32, f64);

impl PromptValue for bool {
    const SHAPE: Shape = Shape::Bool;
    const IN_PLACE: bool = true;
    fn to_value(&self) -> Option<Json> {
        Some(Json::Bool(*self))
    }
    #[inline]
    fn view(&self) -> View<'_> {
        View::Bool(*self)
    }
}

impl PromptValue for Json {
    const SHAPE: Shape = Shape::Any;
    const IN_PLACE: bool = true;
    fn to_value(&self) -> Option<Json> {
        Some(self.clone())
    }
    /// Read in place: an object through its map (its keys in the order `serde_json` keeps
    /// them, which is the order the run-time renderer gets), a list item by item; only an
    /// integer past 128 bits is left to the run-time renderer.
    fn view(&self) -> View<'_> {
        match self {
            Json::Null => View::None,
            Json::Bool(b) => View::Bool(*b),
            Json::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => View::Int(i128::from(i)),
                (None, Some(u), _) => View::Int(i128::from(u)),
                (None, None, Some(f)) => View::float(f),
                (None, None, None) => View::Opaque,
            },
            Json::String(s) => View::Text(Cow::Borrowed(s)),
            Json::Array(items) => View::Seq(items),
            Json::Object(map) => View::Map(map),
        }
    }
    /// A key of an object looked up typed (not through `dyn MapView`), so that the
    /// compiled render sees what kind of value it reads; nothing of anything else.
    #[inline]
    fn attr(&self, key: &str) -> Option<View<'_>> {
        Some(match self {
            Json::Object(map) => MapView::get(map, key),
            _ => View::Undefined,
        })
    }
    /// The value at `keys` printed whole (a list or an object as Python prints the value
    /// the run-time renderer reads, an integer of any length exactly): nothing of JSON is
    /// left to the run-time renderer. A key that is not there, or a key of anything but
    /// an object, is [`Written::Undefined`].
    #[inline]
    fn write_path(&self, keys: &[&str], out: &mut String) -> Written {
        let mut value = self;
        for key in keys {
            match value {
                Json::Object(map) => match map.get(*key) {
                    Some(found) => value = found,
                    None => return Written::Undefined,
                },
                _ => return Written::Undefined,
            }
        }
        match value {
            Json::String(s) => out.push_str(s),
            value => python::write_json(out, value),
        }
        Written::Done
    }
    /// The value itself or at one key, as Python's `bool` holds it (a key of anything but
    /// an object is undefined, false); more keys are tested through the view.
    #[inline]
    fn truth_at(&self, keys: &[&str]) -> Option<bool> {
        let value = match keys {
            [] => self,
            [key] => match self {
                Json::Object(map) => match map.get(*key) {
                    Some(found) => found,
                    None => return Some(false),
                },
                _ => return Some(false),
            },
            _ => return None,
        };
        Some(match value {
            Json::Null => false,
            Json::Bool(b) => *b,
            Json::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => u != 0,
                (_, Some(i)) => i != 0,
                _ => n.as_f64().is_none_or(|f| f != 0.0),
            },
            Json::String(s) => !s.is_empty(),
            Json::Array(items) => !items.is_empty(),
            Json::Object(map) => !map.is_empty(),
        })
    }
    /// Whether the value itself or at one key is the text `text` (a key of anything but an
    /// object is undefined, which is no text); more keys are compared through the view.
    #[inline]
    fn is_text_at(&self, keys: &[&str], text: &str) -> Option<bool> {
        let value = match keys {
            [] => Some(self),
            [key] => match self {
                Json::Object(map) => map.get(*key),
                _ => None,
            },
            _ => return None,
        };
        Some(matches!(value, Some(Json::String(s)) if s == text))
    }
}

/// What [`PromptValue::write_path`] did.
#[doc(hidden)]
pub enum Written {
    /// The value at the keys is printed.
    Done,
    /// A key is not there: Jinja's undefined.
    Undefined,
    /// Not printed: the compiled render reads the key through [`PromptValue::attr`].
    ByView,
}

impl MapView for serde_json::Map<String, Json> {
    #[inline]
    fn get(&self, key: &str) -> View<'_> {
        serde_json::Map::get(self, key).map_or(View::Undefined, PromptValue::view)
    }
    /// In the map's own order (sorted, or as written when a crate in the build turns on
    /// `serde_json`'s `preserve_order`): the order [`to_value`](PromptValue::to_value)
    /// hands the run-time renderer.
    fn entries(&self) -> Vec<(Cow<'_, str>, View<'_>)> {
        self.iter()
            .map(|(k, v)| (Cow::Borrowed(k.as_str()), v.view()))
            .collect()
    }
    fn json(&self) -> Option<Json> {
        Some(Json::Object(self.clone()))
    }
}

impl<T: PromptValue> PromptValue for Option<T> {
    const SHAPE: Shape = Shape::Optional(&T::SHAPE);
    const IN_PLACE: bool = T::IN_PLACE;
    #[inline(always)]
    fn attr(&self, key: &str) -> Option<View<'_>> {
        match self {
            Some(value) => value.attr(key),
            None => None,
        }
    }
    #[inline(always)]
    fn write_path(&self, keys: &[&str], out: &mut String) -> Written {
        match self {
            Some(value) => value.write_path(keys, out),
            None => Written::ByView,
        }
    }
    #[inline(always)]
    fn truth_at(&self, keys: &[&str]) -> Option<bool> {
        match self {
            Some(value) => value.truth_at(keys),
            None if keys.is_empty() => Some(false),
            None => None,
        }
    }
    #[inline(always)]
    fn is_text_at(&self, keys: &[&str], text: &str) -> Option<bool> {
        match self {
            Some(value) => value.is_text_at(keys, text),
            None => None,
        }
    }
    fn to_value(&self) -> Option<Json> {
        self.as_ref().and_then(PromptValue::to_value)
    }
    #[inline]
    fn view(&self) -> View<'_> {
        // A `match`, not `map_or`: an unused `View::Undefined` would be dropped by a call.
        match self {
            Some(value) => value.view(),
            None => View::Undefined,
        }
    }
}

/// A list's items; an absent one (`None` in a list) is Python's `None`.
fn list<'a, T: PromptValue + 'a>(items: impl Iterator<Item = &'a T>) -> Option<Json> {
    Some(Json::Array(
        items.map(|x| x.to_value().unwrap_or(Json::Null)).collect(),
    ))
}

impl<T: PromptValue> PromptValue for [T] {
    const SHAPE: Shape = Shape::List(&T::SHAPE);
    const IN_PLACE: bool = true;
    fn to_value(&self) -> Option<Json> {
        list(self.iter())
    }
    fn view(&self) -> View<'_> {
        view::list(self.iter())
    }
    #[inline]
    fn view_ref<'s>(this: &'s &Self) -> View<'s> {
        View::Seq(this)
    }
}

impl<T: PromptValue, const N: usize> PromptValue for [T; N] {
    const SHAPE: Shape = Shape::List(&T::SHAPE);
    const IN_PLACE: bool = true;
    fn to_value(&self) -> Option<Json> {
        list(self.iter())
    }
    #[inline]
    fn view(&self) -> View<'_> {
        View::Seq(self)
    }
}

impl<T: PromptValue> PromptValue for Vec<T> {
    const SHAPE: Shape = Shape::List(&T::SHAPE);
    const IN_PLACE: bool = true;
    fn to_value(&self) -> Option<Json> {
        list(self.iter())
    }
    #[inline]
    fn view(&self) -> View<'_> {
        View::Seq(self)
    }
}

/// [`PromptValue::write_path`] of a map with `entries`: the value at the first key
/// prints the rest, a key not there is not defined; the map itself prints through its view.
#[inline(always)]
fn write_entry<'a, K: AsRef<str> + 'a, V: PromptValue + 'a>(
    mut entries: impl Iterator<Item = (&'a K, &'a V)>,
    keys: &[&str],
    out: &mut String,
) -> Written {
    let Some((first, rest)) = keys.split_first() else {
        return Written::ByView;
    };
    match entries.find(|(k, _)| k.as_ref() == *first) {
        Some((_, value)) => value.write_path(rest, out),
        None => Written::Undefined,
    }
}

/// A map's entries; an absent value leaves its key out.
fn map<'a, K: AsRef<str> + 'a, V: PromptValue + 'a>(
    entries: impl Iterator<Item = (&'a K, &'a V)>,
) -> Option<Json> {
    Some(Json::Object(
        entries
            .filter_map(|(k, v)| Some((k.as_ref().to_owned(), v.to_value()?)))
            .collect(),
    ))
}

impl<K: AsRef<str> + Ord, V: PromptValue> PromptValue for BTreeMap<K, V> {
    const SHAPE: Shape = Shape::Map(&V::SHAPE);
    const IN_PLACE: bool = true;
    fn to_value(&self) -> Option<Json> {
        map(self.iter())
    }
    fn view(&self) -> View<'_> {
        View::Map(self)
    }
    /// The value at `key`, looked up typed (not through `dyn MapView`), so that the
    /// compiled render sees what kind of value it reads.
    #[inline]
    fn attr(&self, key: &str) -> Option<View<'_>> {
        Some(MapView::get(self, key))
    }
    /// The value at the first key prints the rest itself where its type does (a map of
    /// `serde_json::Value`s, of text).
    #[inline]
    fn write_path(&self, keys: &[&str], out: &mut String) -> Written {
        write_entry(self.iter(), keys, out)
    }
}

impl<K: AsRef<str> + Ord, V: PromptValue> MapView for BTreeMap<K, V> {
    #[inline]
    fn get(&self, key: &str) -> View<'_> {
        self.iter()
            .find(|(k, _)| k.as_ref() == key)
            .map_or(View::Undefined, |(_, v)| v.view())
    }
    fn entries(&self) -> Vec<(Cow<'_, str>, View<'_>)> {
        map_entries(self.iter())
    }
    fn json(&self) -> Option<Json> {
        self.to_value()
    }
}

impl<K: AsRef<str>, V: PromptValue, S> PromptValue for HashMap<K, V, S> {
    const SHAPE: Shape = Shape::Map(&V::SHAPE);
    const IN_PLACE: bool = true;
    fn to_value(&self) -> Option<Json> {
        map(self.iter())
    }
    fn view(&self) -> View<'_> {
        View::Map(self)
    }
    /// The value at `key`, looked up typed (not through `dyn MapView`), so that the
    /// compiled render sees what kind of value it reads.
    #[inline]
    fn attr(&self, key: &str) -> Option<View<'_>> {
        Some(MapView::get(self, key))
    }
    /// The value at the first key prints the rest itself where its type does (a map of
    /// `serde_json::Value`s, of text).
    #[inline]
    fn write_path(&self, keys: &[&str], out: &mut String) -> Written {
        write_entry(self.iter(), keys, out)
    }
}

impl<K: AsRef<str>, V: PromptValue, S> MapView for HashMap<K, V, S> {
    #[inline]
    fn get(&self, key: &str) -> View<'_> {
        self.iter()
            .find(|(k, _)| k.as_ref() == key)
            .map_or(View::Undefined, |(_, v)| v.view())
    }
    fn entries(&self) -> Vec<(Cow<'_, str>, View<'_>)> {
        map_entries(self.iter())
    }
    fn json(&self) -> Option<Json> {
        self.to_value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_json_with_absent_options_left_out() {
        let mut m: HashMap<&str, Option<u8>> = HashMap::new();
        m.insert("a", Some(1));
        m.insert("b", None);
        assert_eq!(m.to_value(), Some(serde_json::json!({"a": 1})));
        assert_eq!(
            vec![Some("x"), None].to_value(),
            Some(serde_json::json!(["x", null]))
        );
        assert_eq!(
            crate::Guidance::Lean.to_value(),
            Some(serde_json::json!("lean"))
        );
        assert_eq!(2.5f64.to_value(), Some(serde_json::json!(2.5)));
        assert!(matches!(
            <BTreeMap<String, Vec<bool>>>::SHAPE,
            Shape::Map(Shape::List(Shape::Bool))
        ));
    }
}
