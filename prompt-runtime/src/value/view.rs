//! Values as the compiled render of a derived prompt reads them: [`View`], borrowed from
//! the struct where it can be, and the lists and maps it reads in place ([`SeqView`],
//! [`MapView`]). [`PromptValue::view`] gives a value's view; the compiled renders of
//! `formats` read them.

use super::PromptValue;
use super::data::Value as Data;
use serde_json::Value;
use std::borrow::Cow;

/// A value as the compiled render reads it: borrowed from the struct where it can be.
#[derive(Clone)]
pub enum View<'a> {
    /// Not defined: an absent `Option`, a missing attribute.
    Undefined,
    /// Python's `None` (an absent item of a list).
    None,
    Bool(bool),
    Int(i128),
    Float(f64),
    Text(Cow<'a, str>),
    /// A list's items, collected.
    List(Vec<View<'a>>),
    /// A list read in place, item by item (a slice, a `Vec`, an array): what
    /// `PromptValue::view` gives for lists. Everything [`List`](View::List) does, this
    /// does too: code that matches on `View::List` should match `View::Seq` as well, or
    /// go through `formats::jinja::compiled`'s `iter`, `truthy`, `write`, or [`to_json`].
    Seq(&'a (dyn SeqView + 'a)),
    /// A dict: a struct or a map.
    Map(&'a (dyn MapView + 'a)),
    /// A dict a literal, a filter or an operation made, its entries collected in its
    /// order (what
    /// [`List`](View::List) is to [`Seq`](View::Seq)). Everything [`Map`](View::Map) does,
    /// this does too.
    Dict(Vec<(Cow<'a, str>, View<'a>)>),
    /// A Python tuple (an entry of `items()` or `dictsort`), its items collected: a list
    /// that prints as a tuple.
    Tuple(Vec<View<'a>>),
    /// A value the compiled render does not read in place: the run-time renderer renders.
    Opaque,
}

/// A struct or map the compiled render reads by key.
pub trait MapView {
    /// The value at `key`, [`View::Undefined`] when there is none.
    fn get(&self, key: &str) -> View<'_>;
    /// The defined entries, in the order the run-time renderer sees them (by key for a
    /// struct and a `BTreeMap` or `HashMap`; a dict made by the template, or a
    /// `serde_json` map, in its own order).
    fn entries(&self) -> Vec<(Cow<'_, str>, View<'_>)>;
    /// The value as JSON, for what the compiled render leaves to the value module
    /// (`tojson`, printing a dict, comparing dicts).
    fn json(&self) -> Option<Value>;
    /// The value as the value module holds it; through [`json`](Self::json) unless the
    /// map keeps its keys in an order of its own (a dict a template or a filter made).
    fn data(&self) -> Option<Data> {
        Some(Data::from(self.json()?))
    }
}

/// A list the compiled render reads item by item, without collecting it.
pub trait SeqView {
    /// How many items.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The item at `index`: an absent one (`None` in a list) is [`View::None`], one past
    /// the end [`View::Undefined`].
    fn at(&self, index: usize) -> View<'_>;
}

/// An item as a list gives it: an absent one is Python's `None`.
#[inline]
pub(crate) fn item<T: PromptValue + ?Sized>(item: Option<&T>) -> View<'_> {
    match item.map(PromptValue::view) {
        None => View::Undefined,
        Some(View::Undefined) => View::None,
        Some(view) => view,
    }
}

impl<T: PromptValue> SeqView for &[T] {
    #[inline]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    #[inline]
    fn at(&self, index: usize) -> View<'_> {
        item(self.get(index))
    }
}

impl<T: PromptValue> SeqView for Vec<T> {
    #[inline]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline]
    fn at(&self, index: usize) -> View<'_> {
        item(self.get(index))
    }
}

impl<T: PromptValue, const N: usize> SeqView for [T; N] {
    #[inline]
    fn len(&self) -> usize {
        N
    }
    #[inline]
    fn at(&self, index: usize) -> View<'_> {
        item(self.get(index))
    }
}

impl View<'_> {
    /// A number from JSON's point of view: non-finite floats are `None`, as
    /// `serde_json::Value::from` makes them.
    pub fn float(f: f64) -> Self {
        if f.is_finite() {
            View::Float(f)
        } else {
            View::None
        }
    }
}

/// The same view, borrowing what `view` owns instead of copying it.
#[inline(always)]
pub(crate) fn reborrow<'s>(view: &'s View<'_>) -> View<'s> {
    match view {
        View::Text(s) => View::Text(Cow::Borrowed(s.as_ref())),
        View::List(items) => View::Seq(items),
        View::Undefined => View::Undefined,
        View::None => View::None,
        View::Bool(b) => View::Bool(*b),
        View::Int(i) => View::Int(*i),
        View::Float(f) => View::Float(*f),
        View::Seq(items) => View::Seq(*items),
        View::Map(m) => View::Map(*m),
        View::Dict(entries) => View::Map(entries),
        View::Tuple(items) => View::Tuple(items.iter().map(reborrow).collect()),
        View::Opaque => View::Opaque,
    }
}

/// A collected dict's entries, read in place.
impl MapView for Vec<(Cow<'_, str>, View<'_>)> {
    fn get(&self, key: &str) -> View<'_> {
        self.iter()
            .find(|(k, _)| k == key)
            .map_or(View::Undefined, |(_, v)| reborrow(v))
    }
    fn entries(&self) -> Vec<(Cow<'_, str>, View<'_>)> {
        self.iter()
            .map(|(k, v)| (Cow::Borrowed(k.as_ref()), reborrow(v)))
            .collect()
    }
    fn json(&self) -> Option<Value> {
        Some(Value::Object(
            self.iter()
                .map(|(k, v)| Some((k.as_ref().to_owned(), to_json(v)?)))
                .collect::<Option<_>>()?,
        ))
    }
    fn data(&self) -> Option<Data> {
        Some(Data::Object(
            self.iter()
                .map(|(k, v)| Some((k.as_ref().to_owned(), to_data(v)?)))
                .collect::<Option<_>>()?,
        ))
    }
}

/// A collected list's items (already `None` where absent), read in place.
impl SeqView for Vec<View<'_>> {
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline(always)]
    fn at(&self, index: usize) -> View<'_> {
        self.get(index).map_or(View::Undefined, reborrow)
    }
}

/// The view of a list's items: an absent item is `None`.
pub fn list<'a, T: PromptValue + 'a>(items: impl Iterator<Item = &'a T>) -> View<'a> {
    View::List(
        items
            .map(|item| match item.view() {
                View::Undefined => View::None,
                view => view,
            })
            .collect(),
    )
}

/// The defined entries of a map, sorted by key as a JSON object keeps them.
pub fn map_entries<'a, K: AsRef<str> + 'a, V: PromptValue + 'a>(
    entries: impl Iterator<Item = (&'a K, &'a V)>,
) -> Vec<(Cow<'a, str>, View<'a>)> {
    let mut out: Vec<(Cow<'a, str>, View<'a>)> = entries
        .filter_map(|(k, v)| match v.view() {
            View::Undefined => None,
            view => Some((Cow::Borrowed(k.as_ref()), view)),
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    // Two keys the same text: the JSON object keeps one; leave it to the run-time renderer.
    if out.windows(2).any(|w| w[0].0 == w[1].0) {
        out.clear();
        out.push((Cow::Borrowed(""), View::Opaque));
    }
    out
}

/// The JSON of a view; `None` when it is not defined or not readable in place.
pub fn to_json(view: &View<'_>) -> Option<Value> {
    Some(match view {
        View::Undefined | View::Opaque => return None,
        View::None => Value::Null,
        View::Bool(b) => Value::Bool(*b),
        View::Int(i) => match i64::try_from(*i) {
            Ok(i) => Value::from(i),
            Err(_) => Value::from(u64::try_from(*i).ok()?),
        },
        View::Float(f) => Value::from(*f),
        View::Text(s) => Value::String(s.as_ref().to_owned()),
        View::List(items) => Value::Array(items.iter().map(to_json).collect::<Option<_>>()?),
        View::Seq(items) => Value::Array(
            (0..items.len())
                .map(|i| to_json(&items.at(i)))
                .collect::<Option<_>>()?,
        ),
        View::Map(m) => m.json()?,
        View::Dict(entries) => entries.json()?,
        View::Tuple(items) => Value::Array(items.iter().map(to_json).collect::<Option<_>>()?),
    })
}

/// A view as the value module holds values (what the compiled render leaves to it:
/// printing a list or dict, comparing, `tojson`); `None` when it is not defined or not
/// readable in place.
pub(crate) fn to_data(view: &View<'_>) -> Option<Data> {
    to_data_within(view, 0)
}

/// [`to_data`] of a view `depth` lists deep: `None` past the depth limit.
pub(crate) fn to_data_within(view: &View<'_>, depth: usize) -> Option<Data> {
    if depth > super::python::MAX_DEPTH {
        return None;
    }
    let item = |item: &View<'_>| to_data_within(item, depth + 1);
    Some(match view {
        View::Undefined | View::Opaque => return None,
        View::None => Data::Null,
        View::Bool(b) => Data::Bool(*b),
        View::Int(i) => Data::from(*i),
        View::Float(f) => Data::from(*f),
        View::Text(s) => Data::String(s.as_ref().to_owned()),
        View::List(items) => Data::Array(items.iter().map(item).collect::<Option<_>>()?),
        View::Seq(items) => Data::Array(
            (0..items.len())
                .map(|i| item(&items.at(i)))
                .collect::<Option<_>>()?,
        ),
        View::Map(m) => m.data()?,
        View::Dict(entries) => Data::Object(
            entries
                .iter()
                .map(|(k, v)| Some((k.as_ref().to_owned(), item(v)?)))
                .collect::<Option<_>>()?,
        ),
        View::Tuple(items) => Data::Tuple(items.iter().map(item).collect::<Option<_>>()?),
    })
}

/// `value.attr` of a name the compiler checked is not a dict method (as `formats::jinja::compiled::attr` checks).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn get<'a>(view: &View<'a>, name: &str) -> Option<View<'a>> {
    match view {
        View::Undefined | View::Opaque => None,
        View::Map(m) => Some(m.get(name)),
        View::Dict(entries) => Some(dict_get(entries, name)),
        View::Tuple(items) => Some(pair_attr(items, name)),
        _ => Some(View::Undefined),
    }
}

/// `pair.grouper` and `pair.list` of a pair Jinja's `groupby` made (its items), undefined
/// otherwise. Out of line: the inlined readers of struct fields stay small.
#[inline(never)]
pub(crate) fn pair_attr<'a>(items: &[View<'a>], name: &str) -> View<'a> {
    match (items, name) {
        ([grouper, _], "grouper") => grouper.clone(),
        ([_, list], "list") => list.clone(),
        _ => View::Undefined,
    }
}

/// The value at `key` of a collected dict (a copy of it: the dict is the view's own).
#[inline(never)]
pub(crate) fn dict_get<'a>(entries: &[(Cow<'a, str>, View<'a>)], key: &str) -> View<'a> {
    entries
        .iter()
        .find(|(k, _)| k == key)
        .map_or(View::Undefined, |(_, v)| v.clone())
}

/// Drops a view: one that owns nothing (all but owned text and a collected list) is
/// forgotten, which is free, where its drop glue would be a call.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn discard(view: View<'_>) {
    match view {
        View::Text(Cow::Owned(_)) | View::List(_) | View::Dict(_) | View::Tuple(_) => drop(view),
        nothing_owned => std::mem::forget(nothing_owned),
    }
}
