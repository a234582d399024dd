//! The compiled render of a derived Jinja prompt: [`compile`] turns a loaded template set
//! into Rust code (the body of a closure over `self`), which `#[derive(Prompt)]` emits.
//! The code reads the struct's fields in place through [`View`]s (no JSON), pushes the
//! text into one `String` (given out through `into`), and gives `None` wherever the
//! run-time renderer would do anything but print the same text: an error (a value not
//! defined, a type Jinja2 refuses), a value it cannot read in place ([`View::Opaque`]).
//! The derive then renders that render with the run-time renderer, so the output is the
//! same bytes either way, errors included. Some errors it makes itself, with the run-time
//! renderer's message at the run-time renderer's place, put in `fail`: a render past the
//! output or step bound ([`done`], [`steps`], [`within`]), and what a filter or operation
//! run through the run-time renderer's implementation fails at, or makes that is not
//! defined where it must be ([`apply`], [`op`], [`Site`]), and keys of a name (`user.name`)
//! printed where the last is not defined ([`write_defined`]). Where a render
//! stops, the derive checks the values against the paths the templates read, as the
//! run-time renderer does before it reports a failure ([`compile_plan`], [`check_plan`]),
//! so that the two give the same error. So where nothing else can give `None` (fields that
//! read in place), the compiler sees the hand-over cannot happen, and the derived prompt
//! links no run-time renderer.
//!
//! What keeps it close to a hand-written `String` builder: a loop over a field of a list
//! type goes over its items typed ([`Probe`], [`Item`]), and `items()` of a `BTreeMap`
//! field over its entries in place (no `Vec`, no sort); `name.key` of a field or of such
//! an item is a static match ([`PromptValue::attr`](crate::value::PromptValue::attr))
//! that the compiler folds into the struct's field, not a call through `dyn MapView`;
//! any other list is read item by item in place ([`View::Seq`], no `Vec` of views); a
//! loop goes over its items once (twice when
//! it has a loop filter and reads `loop.length`, `loop.last` or `loop.revindex`, to count
//! first) and collects nothing; `upper`, `lower`, `trim` and `join` in an output write
//! straight into the text; integers are written without `fmt`; a loop variable is read
//! in place, not cloned; each view the code makes is dropped through [`discard`], which
//! forgets one that owns nothing instead of calling its drop glue; the small helpers here
//! are inlined in a release build, so a field whose view is known where it is read (a
//! `&str`, an integer) compiles down to a push.
//!
//! What keeps it small to build: an output or a condition of a field, a loop variable or
//! a key of one is one call of a shared generic helper ([`put`], [`put_var`],
//! [`put_attr`], [`is`], [`is_var`], [`is_attr`]), so a crate holds one copy of it per
//! field type, not one per output. In a build with debug assertions (cargo's `dev`
//! profile) the helpers the emitted code calls are ordinary `#[inline]` functions, so a
//! debug build of a crate of prompts generates little code per prompt; with the
//! assertions off they are `#[inline(always)]`, as a hand-written builder would be.
//!
//! The filters past the first ones, the tests past `defined`/`undefined`/`none`,
//! arithmetic and `~`, slices, the methods, `range()` and `a[b]` with a key that is not
//! written as a literal are calls of the run-time renderer's implementation of each
//! ([`apply`], [`test_with`], [`op`], [`key`]) on the values; a chain of them keeps the
//! values between steps, and a filter's or operation's value printed whole is written
//! as it is made ([`put_made`]).
//!
//! A macro's call (which the parser has already put in place as its body) binds its
//! arguments as locals of a frame of its own; `super()` is the parent's block in place. A
//! namespace is a local per attribute (each attribute any `{% set ns.attr %}` of the set
//! assigns), holding a copy as the run-time renderer's namespace does, counted against
//! half its limit of what a render builds ([`keep`]); read whole, it is a value the
//! compiled render does not read ([`Namespace`]). A dict a literal, a filter or an
//! operation makes is a [`View::Dict`], its entries in the order they were made.
//!
//! What [`compile`] refuses, with a [`Diagnostic`] at the construct that the derive
//! reports as a build error (a derived prompt never switches to the run-time renderer
//! for a whole template): a `namespace()` made inside a branch and read after it (one
//! read only inside its branch is made there), `{% set ns.attr %}` of a
//! name that is no namespace yet, a `for` over `.items()` into more than two names,
//! `loop.previtem` and `loop.nextitem` in a loop that unpacks its items, an attribute
//! named like a dict method, an integer literal past 128 bits, and sets of more than
//! [`MAX_NODES`] nodes once includes and macro calls are in place.

use super::Template;
pub use super::check::{Checked, PlanPath, check_plan};
use super::data::Value as Data;
use super::expr::{BinOp, CmpOp, Expr, ExprKind, Filter, LoopAttr, Method, Op, Test};
use super::parser::{FilterBlock, For, Node};
use super::render::{DICT_METHODS, MAX_OUTPUT, MAX_STEPS};
use super::set::Templates;
use super::value::{a_type, contains, equal, order, write_float, write_json};
use crate::Diagnostic;
pub use crate::value::path::Step;
pub use crate::value::view::{MapView, SeqView, View, discard, get, list, map_entries, to_json};
use crate::value::view::{dict_get, item, reborrow, to_data};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;

/// The name the text of a `{% filter %}` block's body is bound to while its filters are
/// compiled: no template can write it.
const FILTERED: &str = "\u{0}filtered";

/// The names the branches of `node` (an `if`'s, a loop's `else`, and the `if`s within
/// them) set, each with whether that set makes a `namespace()`.
fn branch_sets<'n>(node: &'n Node, out: &mut Vec<(&'n str, bool)>) {
    let bodies: Vec<&[Node]> = match node {
        Node::If(_) => node.bodies(),
        Node::For(each) => each.otherwise.as_deref().into_iter().collect(),
        _ => return,
    };
    for body in bodies {
        for n in body {
            match n {
                Node::Set { name, value, .. } => {
                    out.push((
                        name,
                        matches!(value.kind, ExprKind::Op(Op::Namespace(_), _)),
                    ));
                }
                Node::FilterBlock(block) => {
                    if let Some(name) = &block.into {
                        out.push((name, false));
                    }
                }
                other => branch_sets(other, out),
            }
        }
    }
}

/// Whether `nodes` (or what they hold, the templates they include among it) may read or
/// set `name`: any expression naming it, a set or loop binding it, and, not to miss a
/// read, a parent's block in place or includes nested past the loader's bound.
/// `walked` holds the included templates already looked into, each looked into once.
fn mentions<'t>(
    templates: &'t Templates,
    nodes: &'t [Node],
    name: &str,
    walked: &mut Vec<&'t str>,
) -> bool {
    let named = |e: &Expr| {
        let mut found = false;
        super::expr::visit(e, &mut |e| {
            found |= matches!(&e.kind, ExprKind::Name(n) if n == name);
        });
        found
    };
    nodes.iter().any(|node| {
        let here = match node {
            Node::Text(_) => false,
            Node::Include { name: file, .. } if walked.contains(&file.as_str()) => false,
            Node::Include { name: file, .. } => {
                walked.push(file);
                templates
                    .get(file)
                    .is_none_or(|t| mentions(templates, &t.nodes, name, walked))
            }
            Node::Super(_) => true,
            Node::Output(e) => named(e),
            Node::Set { name: n, value, .. } => n == name || named(value),
            Node::SetAttr { name: n, value, .. } => n == name || named(value),
            Node::If(block) => block.branches.iter().any(|(c, _)| named(c)),
            Node::For(each) => {
                named(&each.iter)
                    || each.filter.as_ref().is_some_and(named)
                    || each.targets.iter().any(|(n, _)| n == name)
            }
            Node::FilterBlock(block) => {
                named(&block.filters) || block.into.as_deref() == Some(name)
            }
            Node::Scope(scope) => {
                scope.template.is_some() || scope.binds.iter().any(|(n, e)| n == name || named(e))
            }
        };
        here || node
            .bodies()
            .into_iter()
            .any(|body| mentions(templates, body, name, walked))
    })
}

/// Puts the body's text in place of the placeholder the parser put innermost in a block's
/// filters (an empty text at the `filter` or `set` keyword): a name no template can write.
fn placeholder(expr: &mut Expr) {
    match &mut expr.kind {
        ExprKind::Filter(inner, _, _) => placeholder(inner),
        other => *other = ExprKind::Name(FILTERED.to_owned()),
    }
}

/// The most nodes a compiled render may hold once includes and macro calls are inlined.
pub const MAX_NODES: usize = 20_000;

/// A loop variable of the compiled render: a [`View`] (an item of a list read through
/// views, a key or value of `items()` collected), or an [`Item`], a typed item of a list
/// or map field that the loop reads in place (see [`Probe`]). The emitted code reads both
/// the same way.
pub trait Var {
    /// The value, borrowed from the variable.
    fn view(&self) -> View<'_>;
    /// `var.key` (as [`get`]).
    fn attr(&self, key: &str) -> Option<View<'_>>;
    /// The value at `keys` printed by its type, where the type prints itself (see
    /// [`PromptValue::write_path`](crate::value::PromptValue::write_path)); a view
    /// leaves it to [`view`](Self::view).
    #[inline(always)]
    fn write_path(&self, keys: &[&str], out: &mut String) -> crate::value::Written {
        let _ = (keys, out);
        crate::value::Written::ByView
    }
    /// Whether `{% if var.key %}` (or `{% if var %}`) holds, where the type tests itself
    /// (see `PromptValue::truth_at`); `None` leaves it to the view.
    #[inline(always)]
    fn truth_at(&self, keys: &[&str]) -> Option<bool> {
        let _ = keys;
        None
    }
    /// Whether `var.key == "text"` (or `var == "text"`) holds, where the type compares
    /// itself (see `PromptValue::is_text_at`); `None` leaves it to the view.
    #[inline(always)]
    fn is_text_at(&self, keys: &[&str], text: &str) -> Option<bool> {
        let _ = (keys, text);
        None
    }
    /// Ends the variable's life: a view through [`discard`], a typed item for free.
    fn discard(self);
}

impl Var for View<'_> {
    #[inline(always)]
    fn view(&self) -> View<'_> {
        reborrow(self)
    }
    #[inline(always)]
    fn attr(&self, key: &str) -> Option<View<'_>> {
        get(self, key)
    }
    #[inline(always)]
    fn discard(self) {
        discard(self);
    }
}

/// An item of the kept items a loop collected first (when its body reads
/// `loop.previtem` or `loop.nextitem`), borrowed as its loop variable.
#[inline(always)]
pub fn kept<'s>(item: &'s View<'_>) -> View<'s> {
    reborrow(item)
}

/// `loop.previtem` (or, `next`, `loop.nextitem`) of the item at `index` of the kept
/// items: undefined at either end.
#[inline]
pub fn neighbour<'s>(all: &'s [View<'_>], index: usize, next: bool) -> View<'s> {
    let at = if next {
        index.checked_add(1)
    } else {
        index.checked_sub(1)
    };
    at.and_then(|i| all.get(i))
        .map_or(View::Undefined, |v| reborrow(v))
}

/// An item of a list (or a key or value of a map) read in place, typed: what a loop over
/// a field of a list or map type gives (see [`Probe`]). Reading `item.key` of a derived
/// struct is then a static match the compiler folds into the field.
pub struct Item<'a, T: ?Sized>(pub &'a T);

impl<T: crate::value::PromptValue + ?Sized> Var for Item<'_, T> {
    #[inline(always)]
    fn view(&self) -> View<'_> {
        item(Some(self.0))
    }
    #[inline(always)]
    fn attr(&self, key: &str) -> Option<View<'_>> {
        match self.0.attr(key) {
            Some(view) => Some(view),
            // Not defined (an absent item is `None`, whose attributes are not defined) or
            // not readable in place: as the view says.
            None => get(&self.view(), key),
        }
    }
    #[inline(always)]
    fn write_path(&self, keys: &[&str], out: &mut String) -> crate::value::Written {
        self.0.write_path(keys, out)
    }
    #[inline(always)]
    fn truth_at(&self, keys: &[&str]) -> Option<bool> {
        self.0.truth_at(keys)
    }
    #[inline(always)]
    fn is_text_at(&self, keys: &[&str], text: &str) -> Option<bool> {
        self.0.is_text_at(keys, text)
    }
    #[inline(always)]
    fn discard(self) {}
}

/// A field as the emitted code probes it for a typed loop: `(&Probe(&self.tools))
/// .jc_iter()` goes over a list field's items typed ([`TypedList`]), `.jc_items()` over
/// a `BTreeMap` field's entries typed ([`TypedMap`]); a field of any other type goes
/// through its view ([`ViewLoop`]). Method resolution picks the typed impl where the
/// field's type has one (it takes `Probe` by reference, the view's `&Probe`), so the
/// choice costs nothing at run time and both give the same items.
pub struct Probe<'a, T: ?Sized>(pub &'a T);

/// A field as the emitted code reads it: `(&&Field(&self.user)).value()` is the field
/// itself when its type is a [`PromptValue`](crate::value::PromptValue) ([`IsValue`]),
/// and a [`NotAValue`] otherwise ([`NotValue`]). The derive reports a field whose type is
/// no value once, at the type; reading it through `Field` keeps every read of it from
/// repeating that error.
pub struct Field<'a, T: ?Sized>(pub &'a T);

/// [`Field`] of a value: the field itself.
pub trait IsValue<'a> {
    /// The field's type.
    type Out: crate::value::PromptValue + ?Sized;
    /// The field.
    fn value(self) -> &'a Self::Out;
}

impl<'a, T: crate::value::PromptValue + ?Sized> IsValue<'a> for &&Field<'a, T> {
    type Out = T;
    #[inline(always)]
    fn value(self) -> &'a T {
        self.0
    }
}

/// [`Field`] of a type that is no value (a build error already reported at the type).
pub trait NotValue<'a> {
    /// Stands in for the field.
    fn value(self) -> &'a NotAValue;
}

impl<'a, T: ?Sized> NotValue<'a> for &Field<'a, T> {
    #[inline(always)]
    fn value(self) -> &'a NotAValue {
        &NotAValue
    }
}

/// What [`NotValue`] reads in place of a field whose type is no value: never rendered,
/// since the build that emits it fails.
pub struct NotAValue;

impl crate::value::PromptValue for NotAValue {
    const SHAPE: crate::value::Shape = crate::value::Shape::Any;
    fn to_value(&self) -> Option<serde_json::Value> {
        None
    }
}

/// A list type whose items a loop reads in place: slices, `Vec`s, arrays, and references
/// and boxes of these (their views are lists of the same items).
pub trait Slice {
    /// The items' type.
    type Item: crate::value::PromptValue;
    /// The items.
    fn items(&self) -> &[Self::Item];
}

impl<T: crate::value::PromptValue> Slice for [T] {
    type Item = T;
    #[inline]
    fn items(&self) -> &[T] {
        self
    }
}

impl<T: crate::value::PromptValue> Slice for Vec<T> {
    type Item = T;
    #[inline]
    fn items(&self) -> &[T] {
        self
    }
}

impl<T: crate::value::PromptValue, const N: usize> Slice for [T; N] {
    type Item = T;
    #[inline]
    fn items(&self) -> &[T] {
        self
    }
}

macro_rules! forward_slice {
    ($($ty:ty),*) => {$(
        impl<S: Slice + ?Sized> Slice for $ty {
            type Item = S::Item;
            #[inline]
            fn items(&self) -> &[S::Item] {
                (**self).items()
            }
        }
    )*};
}
forward_slice!(&S, &mut S, Box<S>, std::rc::Rc<S>, std::sync::Arc<S>);

/// A map type whose entries `items()` reads in place, in key order: a `BTreeMap` whose
/// keys order as their text does ([`StrKey`]), and references and boxes of one.
pub trait SortedMap {
    /// The keys' type.
    type Key: StrKey;
    /// The values' type.
    type Value: crate::value::PromptValue;
    /// The map.
    fn map(&self) -> &std::collections::BTreeMap<Self::Key, Self::Value>;
}

impl<K: StrKey, V: crate::value::PromptValue> SortedMap for std::collections::BTreeMap<K, V> {
    type Key = K;
    type Value = V;
    #[inline]
    fn map(&self) -> &std::collections::BTreeMap<K, V> {
        self
    }
}

macro_rules! forward_map {
    ($($ty:ty),*) => {$(
        impl<M: SortedMap + ?Sized> SortedMap for $ty {
            type Key = M::Key;
            type Value = M::Value;
            #[inline]
            fn map(&self) -> &std::collections::BTreeMap<M::Key, M::Value> {
                (**self).map()
            }
        }
    )*};
}
forward_map!(&M, &mut M, Box<M>, std::rc::Rc<M>, std::sync::Arc<M>);

/// A key type that orders as its text orders (so a `BTreeMap` of it is in the order of a
/// JSON object's keys) and is viewed as that text.
pub trait StrKey: crate::value::PromptValue + AsRef<str> + Ord {}
impl StrKey for str {}
impl StrKey for String {}
impl StrKey for Cow<'_, str> {}
impl<K: StrKey + ?Sized> StrKey for &K {}
impl StrKey for Box<str> {}
impl StrKey for std::rc::Rc<str> {}
impl StrKey for std::sync::Arc<str> {}

/// A list field's items, typed.
pub struct Items<'a, T>(std::slice::Iter<'a, T>);

impl<T> Clone for Items<'_, T> {
    #[inline]
    fn clone(&self) -> Self {
        Items(self.0.clone())
    }
}

impl<'a, T> Iterator for Items<'a, T> {
    type Item = Item<'a, T>;
    #[inline]
    fn next(&mut self) -> Option<Item<'a, T>> {
        self.0.next().map(Item)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<T> ExactSizeIterator for Items<'_, T> {}

/// A `BTreeMap` field's defined entries (an absent `Option` value leaves its key out, as
/// in the map's JSON), typed, in key order.
pub struct Entries<'a, K, V>(std::collections::btree_map::Iter<'a, K, V>);

impl<K, V> Clone for Entries<'_, K, V> {
    #[inline]
    fn clone(&self) -> Self {
        Entries(self.0.clone())
    }
}

impl<'a, K: crate::value::PromptValue, V: crate::value::PromptValue> Iterator
    for Entries<'a, K, V>
{
    type Item = (Item<'a, K>, Item<'a, V>);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (k, v) = self.0.next()?;
            if defined(v) {
                return Some((Item(k), Item(v)));
            }
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        // Exact: counted (only a loop that reads `loop.length` or `loop.last` asks).
        let n = self.0.clone().filter(|(_, v)| defined(*v)).count();
        (n, Some(n))
    }
}

impl<K: crate::value::PromptValue, V: crate::value::PromptValue> ExactSizeIterator
    for Entries<'_, K, V>
{
}

/// Whether a map's value is defined (a `None` leaves its key out).
#[inline]
fn defined<V: crate::value::PromptValue + ?Sized>(v: &V) -> bool {
    let view = v.view();
    let defined = !matches!(view, View::Undefined);
    discard(view);
    defined
}

/// The typed loop over a list field.
pub trait TypedList<'a> {
    /// The items.
    type Items: Iterator + ExactSizeIterator + Clone;
    /// The items, in place.
    fn jc_iter(&self) -> Option<Self::Items>;
    /// `{{ field | join(sep) }}`, appended to `out`.
    fn jc_join(&self, out: &mut String, sep: Option<&View<'_>>) -> Option<()>;
}

impl<'a, S: Slice + ?Sized> TypedList<'a> for Probe<'a, S> {
    type Items = Items<'a, S::Item>;
    #[inline]
    fn jc_iter(&self) -> Option<Items<'a, S::Item>> {
        Some(Items(self.0.items().iter()))
    }
    #[inline]
    fn jc_join(&self, out: &mut String, sep: Option<&View<'_>>) -> Option<()> {
        let sep = match sep {
            Some(View::Text(s)) => Cow::Borrowed(s.as_ref()),
            Some(sep) => Cow::Owned(text(sep)?),
            None => Cow::Borrowed(""),
        };
        for (i, x) in self.0.items().iter().enumerate() {
            if i > 0 {
                out.push_str(&sep);
            }
            let view = item(Some(x));
            let written = write(out, &view);
            discard(view);
            written?;
        }
        Some(())
    }
}

/// The typed `items()` loop over a `BTreeMap` field.
pub trait TypedMap<'a> {
    /// The entries.
    type Entries: Iterator + ExactSizeIterator + Clone;
    /// The defined entries, in place; `None` (the run-time renderer renders) when a value
    /// may not be readable in place.
    fn jc_items(&self) -> Option<Self::Entries>;
}

impl<'a, M: SortedMap + ?Sized> TypedMap<'a> for Probe<'a, M> {
    type Entries = Entries<'a, M::Key, M::Value>;
    #[inline]
    fn jc_items(&self) -> Option<Self::Entries> {
        // A value the compiled render cannot read in place may be absent to the run-time
        // renderer, which would leave its key out: not known here.
        if !<M::Value as crate::value::PromptValue>::IN_PLACE {
            return None;
        }
        Some(Entries(self.0.map().iter()))
    }
}

/// The loop over any other field: through its view (what [`TypedList`] and [`TypedMap`]
/// do, for the types they do not know).
pub trait ViewLoop<'a> {
    /// The items of the field ([`iter`]).
    fn jc_iter(&self) -> Option<Iter<'a>>;
    /// The entries of the field ([`items`]).
    fn jc_items(&self) -> Option<std::vec::IntoIter<(View<'a>, View<'a>)>>;
    /// `{{ field | join(sep) }}` ([`write_join`]).
    fn jc_join(&self, out: &mut String, sep: Option<&View<'_>>) -> Option<()>;
}

impl<'a, T: crate::value::PromptValue + ?Sized> ViewLoop<'a> for &Probe<'a, T> {
    #[inline]
    fn jc_iter(&self) -> Option<Iter<'a>> {
        let view = self.0.view();
        let items = iter(&view);
        discard(view);
        items
    }
    #[inline]
    fn jc_items(&self) -> Option<std::vec::IntoIter<(View<'a>, View<'a>)>> {
        let view = self.0.view();
        let entries = items(&view);
        discard(view);
        Some(entries?.into_iter())
    }
    #[inline]
    fn jc_join(&self, out: &mut String, sep: Option<&View<'_>>) -> Option<()> {
        let view = self.0.view();
        let written = write_join(out, &view, sep);
        discard(view);
        written
    }
}

/// Where an expression the compiled render runs an operation for stands in its file:
/// the run-time renderer's errors there are made from it (see [`apply`]), at the
/// expression (`at`) or at one of its arguments (`args`, by the run-time renderer's
/// count), as byte offsets into `text`, the file as it was read.
pub struct Site {
    /// The file as messages show it (`prompts/agent.md.j2`).
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
    /// The expression.
    pub at: (usize, usize),
    /// Its arguments (a filter's after the value, an operation's operands).
    pub args: &'static [(usize, usize)],
}

/// What [`apply`] and [`op`] make: the value (`None`: undefined, as `first` of an empty
/// list makes), or the error the run-time renderer reports for it, already located.
pub type Made = Result<Option<Data>, Box<Diagnostic>>;

/// `value | filter(args)` for a filter the compiled render does not write out: the
/// filter numbered `FILTER` (see `filter_index`; a copy per filter, which keeps that
/// filter's code alone), through the run-time renderer's
/// implementation of it, on the value and the arguments' values (each defined, see
/// [`data_of`]), its steps counted in `steps`, what it builds against what is left of
/// the output bound past `written` bytes. A failure is the run-time renderer's error at
/// `site` (an `ops::Fail` as it reports it), made here: the compiled render
/// stops with it, and never hands such a render over.
#[inline(never)]
pub fn apply<const FILTER: usize>(
    value: Data,
    args: &[Data],
    steps: &mut usize,
    written: usize,
    site: &Site,
) -> Made {
    let Some(filter) = filter_at(FILTER) else {
        return Err(Box::new(
            Diagnostic::new("promptic's code generator named no filter here").in_file(site.path),
        ));
    };
    // Called here, not through a closure, so that the compiler keeps this filter's code
    // alone (`filters::apply_inline`, its match on a constant).
    let mut budget = budget_after(*steps, written);
    let done = super::filters::apply_inline(filter, &value, args, &mut budget);
    let made = settled(done, steps, &budget, site)?;
    if let Some(made) = &made {
        kept_within_depth(made, site)?;
    }
    Ok(made)
}

/// `operands[0] op operands[1]`, `-x`, `x[a:b:c]`, `x.method(args)` or `range(args)`: the
/// operation numbered `OP` (see `op_index`; a copy per operation) through the run-time
/// renderer's implementation of it, on the operands' values, as [`apply`] does for a
/// filter (always a value).
#[inline(never)]
pub fn op<const OP: u16>(
    operands: &[Data],
    steps: &mut usize,
    written: usize,
    site: &Site,
) -> Made {
    let op = OP;
    let binary = BINARY.get(usize::from(op)).copied();
    let method = op
        .checked_sub(40)
        .and_then(|m| Method::ALL.get(usize::from(m)))
        .map(|m| m.1);
    let mut budget = budget_after(*steps, written);
    let done = match (binary, method, op, operands) {
        (Some(binary), _, _, [a, b]) => super::ops::binary_inline(binary, a, b, &mut budget),
        (_, Some(method), _, [receiver, args @ ..]) => {
            super::ops::method_inline(method, receiver, args, &mut budget)
        }
        (_, _, 20, [a]) => super::ops::sign(a, true),
        (_, _, 21, [a]) => super::ops::sign(a, false),
        (_, _, 22, [value, start, stop, step]) => {
            super::ops::slice(value, start, stop, step, &mut budget)
        }
        (_, _, 23, args) => {
            let args: Vec<Cow<'_, Data>> = args.iter().map(Cow::Borrowed).collect();
            super::render::range(&args, &mut budget)
        }
        _ => Err(super::ops::Fail::Here(
            "promptic's code generator gave this operation the wrong operands".to_owned(),
        )),
    };
    let made = settled(done, steps, &budget, site)?;
    kept_within_depth(&made, site)?;
    Ok(Some(made))
}

/// The run-time renderer's limits for a filter or an operation: the steps left of
/// [`MAX_STEPS`] after `steps`, the bytes left of [`MAX_OUTPUT`] after `written`.
#[inline(always)]
fn budget_after(steps: usize, written: usize) -> super::ops::Budget {
    super::ops::Budget {
        bytes: MAX_OUTPUT.saturating_sub(written),
        steps: MAX_STEPS.saturating_sub(steps),
    }
}

/// Counts in `steps` what an operation given [`budget_after`] `steps` used of it, leaving
/// `left`; its failure as the run-time renderer's error at `site`.
#[inline(always)]
fn settled<T>(
    done: Result<T, super::ops::Fail>,
    steps: &mut usize,
    left: &super::ops::Budget,
    site: &Site,
) -> Result<T, Box<Diagnostic>> {
    let made = done.map_err(|fail| failed(site, fail))?;
    *steps += MAX_STEPS.saturating_sub(*steps) - left.steps;
    Ok(made)
}

/// A list an operation made that nests deeper than values may: the run-time renderer's
/// error.
fn kept_within_depth(made: &Data, site: &Site) -> Result<(), Box<Diagnostic>> {
    let kept = matches!(made, Data::Array(_) | Data::Tuple(_));
    if kept && super::value::footprint(made, super::value::MAX_DEPTH).is_none() {
        return Err(Box::new(
            Diagnostic::new(super::render::too_deep()).at(&site.source(), site.at.0..site.at.1),
        ));
    }
    Ok(())
}

/// The run-time renderer's error for an operation's failure at `site`.
#[cold]
#[inline(never)]
fn failed(site: &Site, fail: super::ops::Fail) -> Box<Diagnostic> {
    let args: Vec<Range<usize>> = site.args.iter().map(|&(a, b)| a..b).collect();
    Box::new(super::render::failed_at(
        &site.source(),
        site.at.0..site.at.1,
        &args,
        fail,
        MAX_STEPS,
    ))
}

impl Site {
    /// Its file, for a diagnostic.
    #[cold]
    fn source(&self) -> crate::SourceFile {
        crate::SourceFile::new(self.path, self.text)
    }

    /// A diagnostic at `at` of its file.
    #[cold]
    fn error(&self, at: (usize, usize), message: String) -> Box<Diagnostic> {
        Box::new(Diagnostic::new(message).at(&self.source(), at.0..at.1))
    }
}

/// The run-time renderer's error for the value at `site` that is not defined.
#[cold]
#[inline(never)]
pub fn undefined(site: &Site) -> Box<Diagnostic> {
    Box::new(super::render::undefined_at(
        &site.source(),
        site.at.0..site.at.1,
    ))
}

/// The conditions of a plan whose paths are in no block: none to decide.
pub fn no_conditions(_: usize) -> Option<Option<bool>> {
    None
}

/// Whether a `for` over `view` runs its body (over `view.items()` when `pairs`): `None`
/// where the loop fails (what it cannot go over), as the run-time check decides it.
pub fn has_items(view: &View<'_>, pairs: bool) -> Option<bool> {
    match (view, pairs) {
        (View::Map(m), _) => Some(!m.entries().is_empty()),
        (View::Dict(entries), _) => Some(!entries.is_empty()),
        (View::List(items), false) => Some(!items.is_empty()),
        (View::Seq(items), false) => Some(!items.is_empty()),
        (View::Text(s), false) => Some(!s.is_empty()),
        _ => None,
    }
}

/// `{{ path }}` of a name or keys of one (see [`write`]): where the value is not defined,
/// the run-time renderer's error at `site`, the whole expression, put in `fail`.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn write_defined(
    out: &mut String,
    view: &View<'_>,
    fail: &mut Option<Box<Diagnostic>>,
    site: &Site,
) -> Option<()> {
    if let View::Undefined = view {
        *fail = Some(undefined(site));
        return None;
    }
    write(out, view)
}

/// `{{ field.a.b }}`, keys `keys` of a top-level field (see [`write_defined`]): printed
/// by the field's type where it reads its keys typed ([`PromptValue::write_path`]: a
/// `serde_json::Value`, which then prints whatever the keys hold), through its view
/// otherwise. A key not there is the run-time renderer's error at the whole expression
/// (where one before the last is not, the values' check the derived render runs where
/// its compiled render stops names it, as the run-time renderer does).
///
/// [`PromptValue::write_path`]: crate::value::PromptValue::write_path
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn put_path<T: crate::value::PromptValue + ?Sized>(
    out: &mut String,
    value: &T,
    keys: &[&str],
    op: u8,
    fail: &mut Option<Box<Diagnostic>>,
    site: &Site,
) -> Option<()> {
    let start = out.len();
    let written = value.write_path(keys, out);
    match typed(out, start, written, op, fail, site) {
        Some(done) => done,
        None => {
            let (first, rest) = keys.split_first()?;
            let mut view = value.attr(first)?;
            for key in rest {
                let next = get(&view, key);
                discard(view);
                view = next?;
            }
            let done = if op == WRITE {
                write_defined(out, &view, fail, site)
            } else if let View::Undefined = view {
                *fail = Some(undefined(site));
                None
            } else {
                put_view(out, &view, op)
            };
            discard(view);
            done
        }
    }
}

/// The value of `view` for [`apply`] and [`op`], which must be defined; `None` (the
/// run-time renderer renders) when it is not, or not readable in place. Not defined is
/// left to the run-time renderer, which reports a path the values lack (`no item [5] in
/// `xs``) rather than the expression that read it. A text, a number, a boolean or `None`
/// is read here, inline, so that where the compiler sees the value it sees that nothing
/// else can happen.
#[inline(always)]
pub fn data_of(view: &View<'_>) -> Option<Data> {
    match view {
        View::Text(s) => Some(Data::String(s.as_ref().to_owned())),
        View::Int(i) => Some(Data::from(*i)),
        View::Bool(b) => Some(Data::Bool(*b)),
        View::Float(f) => Some(Data::from(*f)),
        View::None => Some(Data::Null),
        other => data(other),
    }
}

/// Prints what [`apply`] or [`op`] made, as `{{ … }}` prints it; not defined, the
/// run-time renderer's error at `site` (the whole expression); a failure, its error. The
/// error goes into `fail` here, in code the render inlines, so that the compiler sees
/// the render never hands over for it.
#[inline(always)]
pub fn put_made(
    out: &mut String,
    made: Made,
    fail: &mut Option<Box<Diagnostic>>,
    site: &Site,
) -> Option<()> {
    let value = data_made(made, fail, site)?;
    write_made(out, &value);
    Some(())
}

/// Python's `str()` of a made value, appended.
#[inline(never)]
fn write_made(out: &mut String, value: &Data) {
    super::value::write_str(out, value);
}

/// What [`apply`] or [`op`] made, as the value of the next filter or operation, which
/// must be defined: not defined, the run-time renderer's error at `site`.
#[inline(always)]
pub fn data_made(made: Made, fail: &mut Option<Box<Diagnostic>>, site: &Site) -> Option<Data> {
    match stopped(made, fail)? {
        Some(value) => Some(value),
        None => {
            *fail = Some(undefined(site));
            None
        }
    }
}

/// What [`apply`] or [`op`] made, as a view (not defined: [`View::Undefined`]); `None`
/// (the run-time renderer renders) for what a view cannot hold (an integer beyond 128
/// bits, a list nested past the depth limit).
#[inline(always)]
pub fn view_made(made: Made, fail: &mut Option<Box<Diagnostic>>) -> Option<View<'static>> {
    match stopped(made, fail)? {
        Some(value) => owned(value, 0),
        None => Some(View::Undefined),
    }
}

/// [`data_made`] where the run-time renderer reads parts in an order of its own: `None`
/// (the run-time renderer renders, and reports what it meets first) for a value not
/// defined or an error.
#[inline(always)]
pub fn data_made_or_hand_over(made: Made) -> Option<Data> {
    made.ok().flatten()
}

/// [`view_made`] where the run-time renderer reads parts in an order of its own: `None`
/// for an error, as [`data_made_or_hand_over`].
#[inline(always)]
pub fn view_made_or_hand_over(made: Made) -> Option<View<'static>> {
    match made.ok()? {
        Some(value) => owned(value, 0),
        None => Some(View::Undefined),
    }
}

/// The value of a view, for a filter or operation; `None` when it is not defined or not
/// readable in place.
#[inline(never)]
pub fn data(view: &View<'_>) -> Option<Data> {
    to_data(view)
}

/// `value[key]` for a key that is not written as a literal: a key of a dict, an item of a
/// list or a character of a text by its index, undefined otherwise, as the run-time
/// renderer reads it.
#[inline(never)]
pub fn key(value: Data, key: Data) -> Option<View<'static>> {
    let key = super::render::Key::Item(&key);
    let found = match &value {
        Data::String(s) => super::render::char_at(s, key),
        _ => super::render::child(&value, key).cloned(),
    };
    match found {
        Some(found) => owned(found, 0),
        None => Some(View::Undefined),
    }
}

/// `value is [not] test(arg)` for a test past `defined`, `undefined` and `none`: the test
/// numbered `TEST` (its place in the parser's list; a copy per test) through the run-time
/// renderer's implementation of it, on the subject's value (`None`: not defined, see
/// [`subject_of`]) and the argument's; what the test fails at is the run-time renderer's
/// error at `site`, made here, as [`apply`] makes a filter's.
#[inline(never)]
pub fn test_with<const TEST: usize>(
    negated: bool,
    subject: Option<Data>,
    arg: Option<Data>,
    steps: &mut usize,
    site: &Site,
) -> Result<bool, Box<Diagnostic>> {
    let Some((_, test, _)) = Test::ALL.get(TEST) else {
        return Err(Box::new(
            Diagnostic::new("promptic's code generator named no test here").in_file(site.path),
        ));
    };
    let mut budget = budget_after(*steps, 0);
    let done = super::ops::test(*test, subject.as_ref(), arg.as_ref(), &mut budget);
    let holds = settled(done, steps, &budget, site)?;
    Ok(holds != negated)
}

/// The subject of a test, which may be not defined (`Some(None)`); `None` (the run-time
/// renderer renders) for a value not readable in place. Read inline, as [`data_of`].
#[inline(always)]
pub fn subject_of(view: &View<'_>) -> Option<Option<Data>> {
    match view {
        View::Undefined => Some(None),
        other => data_of(other).map(Some),
    }
}

/// What [`test_with`], [`starts_with`] or [`split`] gave; its error put in `fail` here,
/// in code the render inlines.
#[inline(always)]
pub fn stopped<T>(
    done: Result<T, Box<Diagnostic>>,
    fail: &mut Option<Box<Diagnostic>>,
) -> Option<T> {
    match done {
        Ok(made) => Some(made),
        Err(error) => {
            *fail = Some(error);
            None
        }
    }
}

/// `value.startswith(prefix)` of a text; anything else is the run-time renderer's error
/// at `site`.
#[inline(never)]
pub fn starts_with(
    value: Data,
    prefix: Data,
    site: &Site,
) -> Result<View<'static>, Box<Diagnostic>> {
    let message = match (&value, &prefix) {
        (Data::String(s), Data::String(p)) => return Ok(View::Bool(s.starts_with(p.as_str()))),
        (Data::String(_), other) => {
            format!("`.startswith` needs a string, not {}", a_type(other))
        }
        (other, _) => format!("{} has no `.startswith`", a_type(other)),
    };
    Err(site.error(site.at, message))
}

/// `value.split(sep)` (`None`: `.split()`) of a text; anything else, or an empty
/// separator, is the run-time renderer's error at `site` (at the separator, its first
/// argument, for the separator's).
#[inline(never)]
pub fn split(
    value: Data,
    sep: Option<Data>,
    site: &Site,
) -> Result<View<'static>, Box<Diagnostic>> {
    let Data::String(s) = &value else {
        let message = format!("{} has no `.split`", a_type(&value));
        return Err(site.error(site.at, message));
    };
    let at_sep = site.args.first().copied().unwrap_or(site.at);
    let sep = match &sep {
        None | Some(Data::Null) => None,
        Some(Data::String(sep)) if !sep.is_empty() => Some(sep.as_str()),
        Some(Data::String(_)) => {
            let message = "`.split` needs a separator that is not empty".to_owned();
            return Err(site.error(at_sep, message));
        }
        Some(other) => {
            let message = format!("`.split` needs a string, not {}", a_type(other));
            return Err(site.error(at_sep, message));
        }
    };
    Ok(View::List(
        super::ops::split(s, sep)
            .map(|p| View::Text(Cow::Owned(p.to_owned())))
            .collect(),
    ))
}

/// `view` as a view that borrows nothing (through its value); `None` for a dict (or a
/// list holding one), a value not readable in place, or lists nested past the depth
/// limit.
#[inline(never)]
pub fn own(view: View<'_>) -> Option<View<'static>> {
    match view {
        View::Undefined => Some(View::Undefined),
        view => owned(to_data(&view)?, 0),
    }
}

/// What a namespace is when it is read whole (printed, compared, passed on): a value the
/// compiled render does not read, so the run-time renderer renders. Its attributes are
/// locals of their own.
pub struct Namespace;

impl Var for Namespace {
    #[inline(always)]
    fn view(&self) -> View<'_> {
        View::Opaque
    }
    #[inline(always)]
    fn attr(&self, _: &str) -> Option<View<'_>> {
        None
    }
    #[inline(always)]
    fn discard(self) {}
}

/// The copy of `value` a namespace's attribute holds, its size counted in `built` as the
/// run-time renderer counts what a namespace keeps (within half its limit); `None` when
/// the value is not defined (Jinja2 refuses it), not readable in place, a dict, or past
/// the limit.
#[inline(never)]
pub fn keep(built: &mut usize, value: View<'_>) -> Option<View<'static>> {
    if matches!(value, View::Undefined) {
        return None;
    }
    let data = to_data(&value)?;
    let size = super::value::footprint(&data, super::value::MAX_DEPTH - 1)?;
    *built = built.checked_add(size)?;
    if *built > MAX_OUTPUT / 2 {
        return None;
    }
    owned(data, 0)
}

/// A copy of a namespace's attribute, its size counted in `steps` as the run-time
/// renderer counts it (a step per 64 bytes).
#[inline(never)]
pub fn read(value: &View<'static>, steps: &mut usize) -> Option<View<'static>> {
    let size = match value {
        View::Undefined => return Some(View::Undefined),
        View::Text(s) => s.len(),
        other => super::value::footprint(&to_data(other)?, super::value::MAX_DEPTH)?,
    };
    *steps = steps.checked_add(size / 64)?;
    if *steps > MAX_STEPS / 2 {
        return None;
    }
    Some(value.clone())
}

/// A value the compiled code built (a dict literal) as a view that owns it; `None` for
/// what a view cannot hold (see [`own`]).
#[inline(never)]
pub fn made(value: Data) -> Option<View<'static>> {
    owned(value, 0)
}

/// The binary operations by the number [`op`] knows them by.
const BINARY: [BinOp; 8] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::FloorDiv,
    BinOp::Mod,
    BinOp::Pow,
    BinOp::Concat,
];

/// The number [`op`] knows an operation by; `None` for one it does not run.
fn op_index(op: &Op) -> Option<u16> {
    Some(match op {
        Op::Binary(b) => u16::try_from(BINARY.iter().position(|x| x == b)?).ok()?,
        Op::Neg => 20,
        Op::Pos => 21,
        Op::Slice => 22,
        Op::Range => 23,
        Op::Method(m) => 40 + u16::try_from(Method::ALL.iter().position(|x| x.1 == *m)?).ok()?,
        Op::IfElse | Op::Is(..) | Op::Cycle | Op::Namespace(_) => return None,
    })
}

/// The number [`apply`] knows `filter` by: its place in [`Filter::ALL`], or past the end
/// for the forms a name there takes with names given (`map(attribute=…)`,
/// `format(name=…)`).
fn filter_index(filter: Filter) -> Option<usize> {
    match filter {
        Filter::MapAttr => Some(Filter::ALL.len()),
        Filter::FormatNamed => Some(Filter::ALL.len() + 1),
        _ => Filter::ALL.iter().position(|(_, f, _)| *f == filter),
    }
}

/// The filter [`filter_index`] numbered `index`.
fn filter_at(index: usize) -> Option<Filter> {
    match index.checked_sub(Filter::ALL.len()) {
        Some(0) => Some(Filter::MapAttr),
        Some(1) => Some(Filter::FormatNamed),
        Some(_) => None,
        None => Filter::ALL.get(index).map(|(_, f, _)| *f),
    }
}

/// A value a filter made, as a view that owns it; `None` for what a view cannot hold (an integer beyond 128 bits, a list or dict nested past the
/// depth limit).
fn owned(value: Data, depth: usize) -> Option<View<'static>> {
    Some(match value {
        Data::Null => View::None,
        Data::Bool(b) => View::Bool(b),
        Data::Number(n) => match n.as_i128() {
            Some(i) => View::Int(i),
            None if n.is_f64() => View::float(n.as_f64()?),
            None => return None,
        },
        Data::String(s) => View::Text(Cow::Owned(s)),
        Data::Array(items) if depth < super::value::MAX_DEPTH => View::List(
            items
                .into_iter()
                .map(|item| owned(item, depth + 1))
                .collect::<Option<_>>()?,
        ),
        Data::Tuple(items) if depth < super::value::MAX_DEPTH => View::Tuple(
            items
                .into_iter()
                .map(|item| owned(item, depth + 1))
                .collect::<Option<_>>()?,
        ),
        Data::Object(entries) if depth < super::value::MAX_DEPTH => View::Dict(
            entries
                .into_iter()
                .map(|(k, v)| Some((Cow::Owned(k), owned(v, depth + 1)?)))
                .collect::<Option<_>>()?,
        ),
        _ => return None,
    })
}

/// Python's truthiness; `None` when it cannot be told here.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn truthy(view: &View<'_>) -> Option<bool> {
    Some(match view {
        View::Undefined | View::None => false,
        View::Bool(b) => *b,
        View::Int(i) => *i != 0,
        View::Float(f) => *f != 0.0,
        View::Text(s) => !s.is_empty(),
        View::List(items) => !items.is_empty(),
        View::Seq(items) => !items.is_empty(),
        View::Map(m) => return map_truthy(*m),
        View::Dict(entries) => return map_truthy(entries),
        View::Tuple(items) => !items.is_empty(),
        View::Opaque => return None,
    })
}

#[inline(never)]
fn map_truthy(m: &dyn MapView) -> Option<bool> {
    let entries = m.entries();
    if entries.iter().any(|(_, v)| matches!(v, View::Opaque)) {
        return None;
    }
    Some(!entries.is_empty())
}

/// Appends Python's `str(view)`; `None` when the run-time renderer would not print it.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn write(out: &mut String, view: &View<'_>) -> Option<()> {
    // Every value that always prints is handled here, in code the render inlines, so that
    // the compiler sees such a value never leaves the render to the run-time renderer.
    match view {
        View::Text(s) => out.push_str(s),
        View::Int(i) => write_int(out, *i),
        View::Float(f) => write_float(out, *f),
        View::Bool(true) => out.push_str("True"),
        View::Bool(false) => out.push_str("False"),
        View::None => out.push_str("None"),
        _ => return write_other(out, view),
    }
    Some(())
}

#[inline(never)]
fn write_other(out: &mut String, view: &View<'_>) -> Option<()> {
    match view {
        View::Undefined | View::Opaque => return None,
        View::Text(s) => out.push_str(s),
        View::None => out.push_str("None"),
        View::Bool(true) => out.push_str("True"),
        View::Bool(false) => out.push_str("False"),
        View::Int(i) => write_int(out, *i),
        View::Float(f) => write_float(out, *f),
        View::List(_) | View::Seq(_) | View::Map(_) | View::Dict(_) | View::Tuple(_) => {
            super::value::write_str(out, &to_data(view)?);
        }
    }
    Some(())
}

/// Appends an integer in decimal, as `{i}` formats it, without `fmt`.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn write_int(out: &mut String, i: i128) {
    if (0..10).contains(&i) {
        out.push(char::from(b'0' + i as u8));
    } else {
        write_digits(out, i);
    }
}

/// [`write_int`] of an integer of more than one digit (or negative).
#[inline(never)]
fn write_digits(out: &mut String, i: i128) {
    let Ok(magnitude) = u64::try_from(i.unsigned_abs()) else {
        let _ = write!(out, "{i}");
        return;
    };
    if i < 0 {
        out.push('-');
    }
    // ASCII digits: one copy, not a push per character.
    out.push_str(crate::value::path::Digits::of(magnitude).as_str());
}

/// `value[index]`, an integer index: an item of a list, a character of a text (counted
/// from the end when negative, as Python counts), undefined past either end and for any
/// other value; `None` when the run-time renderer renders.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn index<'a>(view: &View<'a>, index: i64) -> Option<View<'a>> {
    let at = |len: usize| {
        let len = i64::try_from(len).ok()?;
        usize::try_from(if index < 0 { index + len } else { index }).ok()
    };
    Some(match view {
        View::Undefined | View::Opaque => return None,
        View::Text(s) => {
            let key = Data::from(i128::from(index));
            match super::render::char_at(s, super::render::Key::Item(&key)) {
                Some(Data::String(c)) => View::Text(Cow::Owned(c)),
                _ => View::Undefined,
            }
        }
        View::List(items) | View::Tuple(items) => {
            match at(items.len()).and_then(|i| items.get(i)) {
                Some(item) => item.clone(),
                None => View::Undefined,
            }
        }
        View::Seq(items) => match at(items.len()) {
            Some(i) if i < items.len() => items.at(i),
            _ => View::Undefined,
        },
        _ => View::Undefined,
    })
}

/// `value.attr`.
pub fn attr<'a>(view: &View<'a>, name: &str) -> Option<View<'a>> {
    match view {
        View::Undefined | View::Opaque => None,
        View::Map(_) if DICT_METHODS.contains(&name) => None,
        View::Map(m) => Some(match m.get(name) {
            View::Undefined => View::Undefined,
            v => v,
        }),
        View::Dict(_) if DICT_METHODS.contains(&name) => None,
        View::Dict(entries) => Some(dict_get(entries, name)),
        View::Tuple(items) => Some(crate::value::view::pair_attr(items, name)),
        _ => Some(View::Undefined),
    }
}

/// `a == b`, `a < b`, `a in b`, as the run-time renderer compares.
/// `op` is `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `not in` by index.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn compare(op: u8, left: &View<'_>, right: &View<'_>) -> Option<bool> {
    match (left, right) {
        (View::Text(l), View::Text(r)) if op <= 1 => Some((l == r) == (op == 0)),
        (View::Int(l), View::Int(r)) if op <= 5 && json_int(*l) && json_int(*r) => Some(match op {
            0 => l == r,
            1 => l != r,
            2 => l < r,
            3 => l <= r,
            4 => l > r,
            _ => l >= r,
        }),
        // Two texts ordered by their characters (code points, as Python orders them, which
        // UTF-8's byte order keeps), two floats as IEEE orders them: decided here, where
        // the compiler sees that nothing is left to the run-time renderer.
        (View::Text(l), View::Text(r)) if op <= 5 => Some(holds(op, l.as_ref().cmp(r.as_ref()))),
        (View::Float(l), View::Float(r)) if op <= 5 => match l.partial_cmp(r) {
            Some(ordering) => Some(holds(op, ordering)),
            None => compare_other(op, left, right),
        },
        _ => compare_other(op, left, right),
    }
}

/// Whether comparison `op` (`==`, `!=`, `<`, `<=`, `>`, `>=` by index) holds of two values
/// ordered `ordering`.
#[inline(always)]
fn holds(op: u8, ordering: std::cmp::Ordering) -> bool {
    match op {
        0 => ordering.is_eq(),
        1 => ordering.is_ne(),
        2 => ordering.is_lt(),
        3 => ordering.is_le(),
        4 => ordering.is_gt(),
        _ => ordering.is_ge(),
    }
}

/// Whether JSON holds the integer (`to_json` gives it).
#[inline]
fn json_int(i: i128) -> bool {
    i64::try_from(i).is_ok() || u64::try_from(i).is_ok()
}

#[inline(never)]
fn compare_other(op: u8, left: &View<'_>, right: &View<'_>) -> Option<bool> {
    let op = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
        CmpOp::In,
        CmpOp::NotIn,
    ]
    .get(usize::from(op))
    .copied()?;
    if matches!(left, View::Opaque) || matches!(right, View::Opaque) {
        return None;
    }
    let undefined = (
        matches!(left, View::Undefined),
        matches!(right, View::Undefined),
    );
    if undefined.0 || undefined.1 {
        let both = undefined.0 && undefined.1;
        return match op {
            CmpOp::Eq => Some(both),
            CmpOp::Ne => Some(!both),
            CmpOp::In => Some(false),
            CmpOp::NotIn => Some(true),
            _ => None,
        };
    }
    if let (View::Text(l), View::Text(r)) = (left, right) {
        match op {
            CmpOp::Eq => return Some(l == r),
            CmpOp::Ne => return Some(l != r),
            _ => {}
        }
    }
    let (l, r) = (to_data(left)?, to_data(right)?);
    // The run-time renderer counts each item `in` looks through as a step; a long list
    // is left to it, so that both stop at the same budget.
    if matches!(op, CmpOp::In | CmpOp::NotIn) && r.as_seq().is_some_and(|r| r.len() > 1_000) {
        return None;
    }
    Some(match op {
        CmpOp::Eq => equal(&l, &r),
        CmpOp::Ne => !equal(&l, &r),
        CmpOp::Lt => order(&l, &r)?.is_lt(),
        CmpOp::Le => order(&l, &r)?.is_le(),
        CmpOp::Gt => order(&l, &r)?.is_gt(),
        CmpOp::Ge => order(&l, &r)?.is_ge(),
        CmpOp::In => contains(&r, &l)?,
        CmpOp::NotIn => !contains(&r, &l)?,
    })
}

/// `value is [not] test`.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn test(view: &View<'_>, which: u8, negated: bool) -> Option<bool> {
    let result = match (which, view) {
        (_, View::Opaque) => return None,
        (0, v) => !matches!(v, View::Undefined),
        (1, v) => matches!(v, View::Undefined),
        (_, v) => matches!(v, View::None),
    };
    Some(result != negated)
}

/// `value | default(fallback, boolean)`.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn default<'a>(value: View<'a>, fallback: View<'a>, boolean: bool) -> Option<View<'a>> {
    let use_default = match &value {
        View::Opaque => return None,
        View::Undefined => true,
        v => boolean && !truthy(v)?,
    };
    Some(if use_default {
        discard(value);
        fallback
    } else {
        discard(fallback);
        value
    })
}

/// `str(value)` of a defined value.
pub fn text(view: &View<'_>) -> Option<String> {
    let mut s = String::new();
    write(&mut s, view)?;
    Some(s)
}

/// The items a `for` or `join` goes over: a list's items, a dict's keys, a string's
/// characters.
pub fn iterate<'a>(view: &View<'a>) -> Option<Vec<View<'a>>> {
    Some(match view {
        View::List(items) | View::Tuple(items) => items.clone(),
        View::Seq(items) => (0..items.len()).map(|i| items.at(i)).collect(),
        View::Map(m) => {
            let entries = m.entries();
            if entries.iter().any(|(_, v)| matches!(v, View::Opaque)) {
                return None;
            }
            entries
                .into_iter()
                .map(|(k, _)| View::Text(Cow::Owned(k.into_owned())))
                .collect()
        }
        View::Dict(entries) => entries.iter().map(|(k, _)| View::Text(k.clone())).collect(),
        View::Text(s) => s
            .chars()
            .map(|c| View::Text(Cow::Owned(c.to_string())))
            .collect(),
        _ => return None,
    })
}

/// `for k, v in m.items()`.
pub fn items<'a>(view: &View<'a>) -> Option<Vec<(View<'a>, View<'a>)>> {
    let m = match view {
        View::Map(m) => *m,
        View::Dict(entries) => {
            return Some(
                entries
                    .iter()
                    .map(|(k, v)| (View::Text(k.clone()), v.clone()))
                    .collect(),
            );
        }
        _ => return None,
    };
    let entries = m.entries();
    if entries.iter().any(|(_, v)| matches!(v, View::Opaque)) {
        return None;
    }
    Some(
        entries
            .into_iter()
            .map(|(k, v)| (View::Text(k), v))
            .collect(),
    )
}

/// `for entry in m.items()`: each entry a `(key, value)` tuple.
pub fn entries<'a>(view: &View<'a>) -> Option<std::vec::IntoIter<View<'a>>> {
    let pairs = items(view)?;
    Some(
        pairs
            .into_iter()
            .map(|(k, v)| View::Tuple(vec![k, v]))
            .collect::<Vec<_>>()
            .into_iter(),
    )
}

/// `for a, b in pairs`: each item a list or tuple of `N` items, unpacked; `None` when
/// one is anything else (Jinja2 refuses it).
pub fn unpack<'a, const N: usize>(view: &View<'a>) -> Option<std::vec::IntoIter<[View<'a>; N]>> {
    let mut unpacked = Vec::new();
    for item in iterate(view)? {
        let parts: Vec<View<'a>> = match item {
            View::List(items) | View::Tuple(items) => items,
            View::Seq(items) => (0..items.len()).map(|i| items.at(i)).collect(),
            _ => return None,
        };
        unpacked.push(<[View<'a>; N]>::try_from(parts).ok()?);
    }
    Some(unpacked.into_iter())
}

/// `value | upper`, `lower`, `trim`, `length`, `tojson`, `join(sep)`: `which` is the
/// filter's index in that order.
pub fn filter<'a>(view: &View<'a>, which: u8, sep: Option<&View<'a>>) -> Option<View<'a>> {
    if matches!(view, View::Undefined | View::Opaque) {
        return None;
    }
    Some(match which {
        0 => View::Text(Cow::Owned(text(view)?.to_uppercase())),
        1 => View::Text(Cow::Owned(text(view)?.to_lowercase())),
        2 => View::Text(Cow::Owned(
            text(view)?.trim_matches(super::lexer::py_space).to_owned(),
        )),
        3 => View::Int(match view {
            View::Text(s) => s.chars().count() as i128,
            View::List(items) | View::Tuple(items) => items.len() as i128,
            View::Seq(items) => items.len() as i128,
            View::Map(_) | View::Dict(_) => iterate(view)?.len() as i128,
            _ => return None,
        }),
        4 => {
            let mut out = String::new();
            write_json(&mut out, &to_data(view)?);
            View::Text(Cow::Owned(out))
        }
        _ => {
            let sep = match sep {
                Some(sep) => text(sep)?,
                None => String::new(),
            };
            let mut out = String::new();
            for (i, item) in iterate(view)?.iter().enumerate() {
                if i > 0 {
                    out.push_str(&sep);
                }
                write(&mut out, item)?;
            }
            View::Text(Cow::Owned(out))
        }
    })
}

/// `value | length`: a list's or a text's length at once, anything else as [`filter`].
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn length<'a>(view: &View<'a>) -> Option<View<'a>> {
    match view {
        View::Seq(items) => Some(View::Int(items.len() as i128)),
        View::List(items) => Some(View::Int(items.len() as i128)),
        _ => filter(view, 3, None),
    }
}

/// The items a `for` or `join` goes over, one by one: a list's items (read in place when
/// the list is a [`View::Seq`]), a dict's keys, a string's characters.
#[derive(Clone)]
pub enum Iter<'a> {
    /// A list read in place: the list, the next index, the end.
    Seq(&'a (dyn SeqView + 'a), usize, usize),
    /// Items collected first.
    Views(std::vec::IntoIter<View<'a>>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = View<'a>;
    #[inline]
    fn next(&mut self) -> Option<View<'a>> {
        match self {
            Iter::Seq(items, next, end) => {
                if *next >= *end {
                    return None;
                }
                *next += 1;
                Some(items.at(*next - 1))
            }
            Iter::Views(views) => views.next(),
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self {
            Iter::Seq(_, next, end) => end.saturating_sub(*next),
            Iter::Views(views) => views.len(),
        };
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The items of `view` as [`Iter`]; `None` where [`iterate`] gives `None`.
#[inline]
pub fn iter<'a>(view: &View<'a>) -> Option<Iter<'a>> {
    match view {
        View::Seq(items) => Some(Iter::Seq(*items, 0, items.len())),
        _ => Some(Iter::Views(iterate(view)?.into_iter())),
    }
}

/// `{{ value | upper }}` (`upper`) or `lower`, appended to `out`.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn write_case(out: &mut String, view: &View<'_>, upper: bool) -> Option<()> {
    match view {
        View::Text(s) => super::render::push_case(out, s, upper),
        View::Undefined | View::Opaque => return None,
        _ => super::render::push_case(out, &text(view)?, upper),
    }
    Some(())
}

/// `{{ value | trim }}`, appended to `out`.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn write_trim(out: &mut String, view: &View<'_>) -> Option<()> {
    match view {
        View::Text(s) => out.push_str(s.trim_matches(super::lexer::py_space)),
        View::Undefined | View::Opaque => return None,
        _ => out.push_str(text(view)?.trim_matches(super::lexer::py_space)),
    }
    Some(())
}

/// `{{ value | join(sep) }}`, appended to `out`.
pub fn write_join(out: &mut String, view: &View<'_>, sep: Option<&View<'_>>) -> Option<()> {
    if matches!(view, View::Undefined | View::Opaque) {
        return None;
    }
    let sep = match sep {
        Some(View::Text(s)) => Cow::Borrowed(s.as_ref()),
        Some(sep) => Cow::Owned(text(sep)?),
        None => Cow::Borrowed(""),
    };
    for (i, item) in iter(view)?.enumerate() {
        if i > 0 {
            out.push_str(&sep);
        }
        write(out, &item)?;
        discard(item);
    }
    Some(())
}

/// What [`put`] and its kin append: `str(value)`.
pub const WRITE: u8 = 0;
/// `value | upper`.
pub const UPPER: u8 = 1;
/// `value | lower`.
pub const LOWER: u8 = 2;
/// `value | trim`.
pub const TRIM: u8 = 3;

/// Appends `view` as `op` says ([`WRITE`], [`UPPER`], [`LOWER`], [`TRIM`]).
#[inline(always)]
fn put_view(out: &mut String, view: &View<'_>, op: u8) -> Option<()> {
    match op {
        UPPER => write_case(out, view, true),
        LOWER => write_case(out, view, false),
        TRIM => write_trim(out, view),
        _ => write(out, view),
    }
}

/// `{{ field }}` (or with `upper`, `lower`, `trim`: see [`WRITE`]) of a top-level field.
/// In a build with debug assertions (cargo's `dev` profile) this is one function per field
/// type, shared by every output of every prompt of the crate, so that a debug build
/// generates little code per prompt; in a release build it is inlined into the render.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn put<T: crate::value::PromptValue + ?Sized>(
    out: &mut String,
    value: &T,
    op: u8,
) -> Option<()> {
    if op == WRITE
        && let crate::value::Written::Done = value.write_path(&[], out)
    {
        return Some(());
    }
    let view = value.view();
    let done = put_view(out, &view, op);
    discard(view);
    done
}

/// `{{ var }}` of a loop variable (see [`put`]).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn put_var<V: Var>(out: &mut String, var: &V, op: u8) -> Option<()> {
    if op == WRITE
        && let crate::value::Written::Done = var.write_path(&[], out)
    {
        return Some(());
    }
    let view = var.view();
    let done = put_view(out, &view, op);
    discard(view);
    done
}

/// `{{ var.key }}` of a loop variable, with `upper`, `lower` or `trim` (see [`put`]).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn put_attr<V: Var>(out: &mut String, var: &V, key: &str, op: u8) -> Option<()> {
    let view = var.attr(key)?;
    let done = put_view(out, &view, op);
    discard(view);
    done
}

/// `{{ var.key }}` of a loop variable, or with `upper`, `lower` or `trim` (`op`, see
/// [`put`]). A typed item that prints itself ([`Var::write_path`]: a `serde_json::Value`,
/// a derived struct) prints the key (then cased or trimmed in place, as [`write_case`]
/// and [`write_trim`] do what they print), and a key it does not have is the run-time
/// renderer's error at `site`, `var.key` (the values' check the derived render runs where
/// its compiled render stops names the item first, as the run-time renderer's check
/// does); anything else is printed through its view.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn put_key<V: Var>(
    out: &mut String,
    var: &V,
    key: &str,
    op: u8,
    fail: &mut Option<Box<Diagnostic>>,
    site: &Site,
) -> Option<()> {
    let start = out.len();
    let written = var.write_path(&[key], out);
    match typed(out, start, written, op, fail, site) {
        Some(done) => done,
        None => put_attr(out, var, key, op),
    }
}

/// What [`put_key`] and [`put_path`] make of what a type wrote past `start`: `op` applied
/// to it, or the run-time renderer's error at `site` where a key is not there; `None`
/// where the view is to print it.
#[inline(always)]
fn typed(
    out: &mut String,
    start: usize,
    written: crate::value::Written,
    op: u8,
    fail: &mut Option<Box<Diagnostic>>,
    site: &Site,
) -> Option<Option<()>> {
    match written {
        crate::value::Written::Done => {
            if op != WRITE {
                filter_tail(out, start, op);
            }
            Some(Some(()))
        }
        crate::value::Written::Undefined => {
            *fail = Some(undefined(site));
            Some(None)
        }
        crate::value::Written::ByView => None,
    }
}

/// Applies `op` ([`UPPER`], [`LOWER`], [`TRIM`]) to what `out` holds past `start`: ASCII
/// cased where it lies, anything else written again.
#[inline(never)]
fn filter_tail(out: &mut String, start: usize, op: u8) {
    let Some(tail) = out.get_mut(start..) else {
        return;
    };
    match op {
        UPPER if tail.is_ascii() => tail.make_ascii_uppercase(),
        LOWER if tail.is_ascii() => tail.make_ascii_lowercase(),
        UPPER | LOWER => {
            let printed = out.split_off(start);
            super::render::push_case(out, &printed, op == UPPER);
        }
        _ => {
            let lead = tail.len() - tail.trim_start_matches(super::lexer::py_space).len();
            let kept = tail[lead..].trim_end_matches(super::lexer::py_space).len();
            out.truncate(start + lead + kept);
            out.drain(start..start + lead);
        }
    }
}

/// `{% if field %}`: the truthiness of a top-level field (see [`put`]).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn is<T: crate::value::PromptValue + ?Sized>(value: &T) -> Option<bool> {
    if let Some(holds) = value.truth_at(&[]) {
        return Some(holds);
    }
    let view = value.view();
    let done = truthy(&view);
    discard(view);
    done
}

/// `{% if var %}` of a loop variable (see [`put`]).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn is_var<V: Var>(var: &V) -> Option<bool> {
    if let Some(holds) = var.truth_at(&[]) {
        return Some(holds);
    }
    let view = var.view();
    let done = truthy(&view);
    discard(view);
    done
}

/// `{% if var.key %}` of a loop variable (see [`put`]).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn is_attr<V: Var>(var: &V, key: &str) -> Option<bool> {
    if let Some(holds) = var.truth_at(&[key]) {
        return Some(holds);
    }
    let view = var.attr(key)?;
    let done = truthy(&view);
    discard(view);
    done
}

/// `var.key == "text"` (`key` none: `var == "text"`; `ne`: `!=`) of a loop variable:
/// compared by the item's type where it compares itself ([`Var::is_text_at`]), through
/// the view otherwise (see [`compare`]).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn is_text<V: Var>(var: &V, key: Option<&str>, text: &str, ne: bool) -> Option<bool> {
    let keys: &[&str] = match &key {
        Some(key) => std::slice::from_ref(key),
        None => &[],
    };
    if let Some(same) = var.is_text_at(keys, text) {
        return Some(same != ne);
    }
    let view = match key {
        Some(key) => var.attr(key)?,
        None => var.view(),
    };
    let done = compare(u8::from(ne), &view, &View::Text(Cow::Borrowed(text)));
    discard(view);
    done
}

/// A dict literal's value, as the run-time renderer builds it: a key written again keeps
/// its first place and takes the last value; `None` (the run-time renderer reports it)
/// for a key that is not text or a dict nested past the value depth limit.
pub fn dict(entries: Vec<(Data, Data)>) -> Option<Data> {
    let mut map = super::data::Map::with_capacity(entries.len());
    for (key, value) in entries {
        let Data::String(key) = key else {
            return None;
        };
        super::value::footprint(&value, super::value::MAX_DEPTH - 1)?;
        map.insert(key, value);
    }
    Some(Data::Object(map))
}

/// Writes what the filters of a `{% filter %}` block gave: `None` unless it is text.
pub fn put_text(out: &mut String, view: View<'_>) -> Option<()> {
    let done = match &view {
        View::Text(text) => {
            out.push_str(text);
            Some(())
        }
        _ => None,
    };
    discard(view);
    done
}

/// Counts `by` steps of a loop (see [`within`]).
#[inline]
pub fn steps(
    steps: &mut usize,
    by: usize,
    out: &str,
    fail: &mut Option<Box<Diagnostic>>,
) -> Option<()> {
    *steps = steps.saturating_add(by);
    bounded(*steps, out, fail)
}

/// `Some` while a render is within the run-time renderer's bounds: at most [`MAX_STEPS`]
/// steps (the compiled render's own count: a loop's items, each weighed by what its body
/// holds) and [`MAX_OUTPUT`] bytes. Past them the render stops with the run-time
/// renderer's message, put in `fail`; it names no place in the template, since the
/// compiled render does not stop between every two nodes to look.
///
/// The error is put in `fail` here, boxed in code the render inlines, so that the compiler
/// sees every `None` of such a render come with an error (a box is never null), and drops
/// the hand-over to the run-time renderer from a render that has no other way to `None`.
#[inline(always)]
fn bounded(steps: usize, out: &str, fail: &mut Option<Box<Diagnostic>>) -> Option<()> {
    if steps <= MAX_STEPS && out.len() <= MAX_OUTPUT {
        return Some(());
    }
    *fail = Some(Box::new(too_much(out)));
    None
}

#[cold]
#[inline(never)]
fn too_much(out: &str) -> Diagnostic {
    let message = if out.len() > MAX_OUTPUT {
        format!("the render is larger than {} MiB", MAX_OUTPUT >> 20)
    } else {
        format!("the render takes more than {MAX_STEPS} steps")
    };
    Diagnostic::new(message)
        .with_help("loops nested in loops multiply: loop over shorter lists, or fewer levels deep")
}

/// The capacity to start with: the last render's length and a little more, or the
/// template's own text.
pub fn capacity(last: &std::sync::atomic::AtomicUsize, text: usize) -> usize {
    let last = last.load(std::sync::atomic::Ordering::Relaxed);
    text.max(last + last / 8)
}

/// Puts the render into `into`, and records its length for [`capacity`]; past
/// [`MAX_OUTPUT`], `None` and the run-time renderer's message in `fail`, in `path` (the
/// entry's file). The text goes out through `into`, not in the `Option`: an
/// `Option<String>` tells `None` by a capacity no `String` has, which the compiler cannot
/// always see a grown `String` lacks, and then keeps the hand-over to the run-time
/// renderer (see [`within`]).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn done(
    last: &std::sync::atomic::AtomicUsize,
    out: String,
    into: &mut String,
    fail: &mut Option<Box<Diagnostic>>,
    path: &str,
) -> Option<()> {
    if out.len() > MAX_OUTPUT {
        // Put here, where the render sees it (see `bounded`).
        *fail = Some(Box::new(too_large(path)));
        return None;
    }
    last.store(out.len(), std::sync::atomic::Ordering::Relaxed);
    *into = out;
    Some(())
}

#[cold]
#[inline(never)]
fn too_large(path: &str) -> Diagnostic {
    let message = format!("the render is larger than {} MiB", MAX_OUTPUT >> 20);
    Diagnostic::new(message).in_file(path)
}

/// Whether a render may go on: `Some` while it is within [`MAX_STEPS`] steps (the compiled
/// render's own count: a loop's items, each weighed by what its body holds) and
/// [`MAX_OUTPUT`] bytes; past them `None`, with the run-time renderer's message in `fail`.
#[inline]
pub fn within(steps: &mut usize, out: &str, fail: &mut Option<Box<Diagnostic>>) -> Option<()> {
    *steps += 1;
    bounded(*steps, out, fail)
}

/// The Rust code of the compiled render of `entry`: a block of type `Option<()>`, in which
/// `field(name)` gives the Rust place of a top-level name (a field of `self`,
/// `self.name`, whose type implements `PromptValue`), and `None` is not defined. The
/// surrounding code declares `into` (a `&mut String` the text is put in), `marks` (a
/// `&mut Vec<usize>` the offset of each cache breakpoint is pushed onto) and `fail` (a
/// `&mut Option<Box<Diagnostic>>` for the error of a render the code stops itself). An
/// error at the construct when the set uses something not compiled (see the module's
/// docs).
pub fn compile(
    templates: &Templates,
    entry: &str,
    field: &dyn Fn(&str) -> Option<String>,
) -> Result<String, Diagnostic> {
    let Some(template) = templates.get(entry) else {
        return Err(Diagnostic::new(format!("`{entry}` was not loaded")));
    };
    let mut emitter = Emitter::new(templates, entry, field);
    let mut body = String::new();
    if emitter.body(template, &mut body).is_none() {
        return Err(emitter.refused.unwrap_or_else(|| {
            Diagnostic::new("the derive could not compile this template")
                .at(&template.source, 0..0)
                .with_help(
                    "this is a bug of promptic's code generator: render the template at run time (`formats::jinja::Templates`) meanwhile",
                )
        }));
    }
    let files = emitter.site_consts();
    Ok(format!(
        "{{ {PRELUDE} {files}\
         static LAST: ::std::sync::atomic::AtomicUsize = ::std::sync::atomic::AtomicUsize::new(0); \
         let mut out = ::std::string::String::with_capacity(jc::capacity(&LAST, {})); \
         let mut steps: usize = 0; let _ = &mut steps; {built} \
         {body} jc::done(&LAST, out, into, fail, {path:?}) }}",
        emitter.text,
        path = template.source.path(),
        // What the namespaces keep, counted across the render (see `keep`).
        built = if emitter.namespaces.is_empty() {
            ""
        } else {
            "let mut built: usize = 0;"
        },
    ))
}

/// The prelude of emitted code: the helpers' module and the traits its calls use.
const PRELUDE: &str = "use ::promptic::__private::jc; use ::promptic::__private::jc::View; \
     use ::promptic::__private::jc::{IsValue as _, NotValue as _, TypedList as _, TypedMap as _, ViewLoop as _};";

/// The check of a derived prompt's values against the plan of `entry` (see
/// [`Templates::render`]'s check), run where its compiled render stops, as a
/// [`PlanCode`]: the plan's paths as JSON text, and, where a path is inside blocks the
/// values decide, code of type [`Checked`] in which `self` is the prompt, `FILES` the
/// `JinjaFile`s of its templates and `values` an expression giving its values as a JSON
/// map. The conditions of those blocks are compiled as `{% if %}` compiles them (a
/// condition the code leaves to the run-time renderer leaves the check to it too:
/// undecided); a path inside a block that the values never decide (one whose condition
/// reads a loop variable or a `set` name) is left out, as the run-time check leaves it.
pub fn compile_plan(
    templates: &Templates,
    entry: &str,
    field: &dyn Fn(&str) -> Option<String>,
    values: &str,
) -> PlanCode {
    use super::paths::CondKind;
    let plan = templates.plan(entry);
    // The paths as JSON text, read back only where a render stops: one string for the
    // compiler, where a `PlanPath` written out per path is a literal to check each.
    let mut paths = Vec::new();
    let mut read = Vec::new();
    let mut used: Vec<usize> = Vec::new();
    for path in &plan.paths {
        let decidable = path.gates.iter().all(|g| {
            plan.conds
                .get(g.cond)
                .is_some_and(|c| !matches!(c.kind, CondKind::Unknown))
        });
        if !decidable {
            continue;
        }
        read.push((path.name.clone(), path.steps.clone()));
        let steps: Vec<serde_json::Value> = path
            .steps
            .iter()
            .map(|step| match step {
                super::PathStep::Field(key) => serde_json::json!([key]),
                super::PathStep::Element => serde_json::json!("e"),
                super::PathStep::Index(i) => serde_json::json!(i),
                super::PathStep::Value => serde_json::json!("v"),
            })
            .collect();
        for gate in &path.gates {
            if !used.contains(&gate.cond) {
                used.push(gate.cond);
            }
        }
        let gates: Vec<serde_json::Value> = path
            .gates
            .iter()
            .map(|g| serde_json::json!([g.cond, g.holds]))
            .collect();
        paths.push(serde_json::json!([
            path.name,
            path.shown,
            path.skip,
            path.file,
            path.span.start,
            path.span.end,
            path.by_filter,
            gates,
            steps
        ]));
    }
    let json = format!("{:?}", serde_json::Value::Array(paths).to_string());
    if used.is_empty() {
        // No block around a path: nothing to decide, no code of conditions.
        return PlanCode {
            json,
            check: None,
            paths: read,
        };
    }
    used.sort_unstable();
    let mut emitter = Emitter::new(templates, entry, field);
    let mut arms = String::new();
    for i in used {
        let Some(cond) = plan.conds.get(i) else {
            continue;
        };
        let Some(template) = templates.get(&cond.file) else {
            continue;
        };
        let code = match &cond.kind {
            CondKind::Test(expr) => emitter.condition(template, expr),
            CondKind::NonEmpty(expr) => {
                let (inner, pairs) = match &expr.kind {
                    ExprKind::Items(map) => (&**map, true),
                    _ => (expr, false),
                };
                emitter
                    .with_ref(template, inner, |v| format!("jc::has_items({v}, {pairs})"))
                    .map(|code| format!("{code}?"))
            }
            CondKind::Unknown => None,
        };
        if let Some(code) = code {
            let _ = write!(
                arms,
                "{i} => (|| -> ::core::option::Option<bool> {{ ::core::option::Option::Some({code}) }})(),"
            );
        }
    }
    let files = emitter.site_consts();
    // A condition's code gives `None` where it fails (then `fail` holds the error: the
    // block is not reached, as the run-time check has it) or where it leaves the render
    // to the run-time renderer (undecided).
    let check = format!(
        "{{ {PRELUDE} {files} \
         ::promptic::__private::check_jinja_plan({json}, FILES, &|| {values}, &mut |__cond: usize| {{ \
         let mut out = ::std::string::String::new(); \
         let mut __failed: ::core::option::Option<::std::boxed::Box<::promptic::Diagnostic>> = ::core::option::Option::None; \
         let fail = &mut __failed; \
         let mut steps: usize = 0; let _ = (&mut out, &mut steps); \
         let __decided: ::core::option::Option<bool> = match __cond {{ {arms} _ => ::core::option::Option::None }}; \
         match __decided {{ \
             ::core::option::Option::Some(__b) => ::core::option::Option::Some(::core::option::Option::Some(__b)), \
             ::core::option::Option::None if fail.is_some() => ::core::option::Option::Some(::core::option::Option::None), \
             ::core::option::Option::None => ::core::option::Option::None, \
         }} }}) }}"
    );
    PlanCode {
        json,
        check: Some(check),
        paths: read,
    }
}

/// What [`compile_plan`] writes.
pub struct PlanCode {
    /// The plan's paths as JSON text, a Rust string literal: each
    /// `[name, shown, skip, file, start, end, by_filter, gates, steps]`, which
    /// `__private::check_jinja_plan` reads back.
    pub json: String,
    /// Where a path is inside blocks the values decide, the check with their conditions
    /// compiled: an expression of type [`Checked`], which can be [`Checked::Undecided`]
    /// (a condition the compiled code leaves to the run-time renderer). `None` where no
    /// path is inside such a block: `__private::jinja_stopped` checks the plan alone.
    pub check: Option<String>,
    /// The paths it checks, each a value's name and the steps into it: where every value
    /// has each (see [`loose`](crate::value::path::loose)), the check finds nothing.
    pub paths: Vec<(String, Vec<super::PathStep>)>,
}

/// A loop's locals in the emitted code: its index (from 0) and its length, which is
/// computed only when the body reads it (`length_used`).
struct Loop {
    index: String,
    length: String,
    length_used: bool,
    /// The kept items, collected first, when the body reads `loop.previtem` or
    /// `loop.nextitem` (the loop then goes over them through [`kept`]).
    all: Option<String>,
}

struct Emitter<'t> {
    templates: &'t Templates,
    field: &'t dyn Fn(&str) -> Option<String>,
    /// Loop variables in scope, innermost last: the template's name and the local's.
    scopes: Vec<(String, String)>,
    /// The enclosing loops, innermost last.
    loops: Vec<Loop>,
    next: usize,
    nodes: usize,
    text: usize,
    depth: usize,
    /// How many branches (of an `if`, or a loop's `else`) enclose the nodes being
    /// emitted within their frame (the template, a loop's body, an include, a block):
    /// a `{% set %}` there assigns the local [`hoist`](Self::hoist) declared before the
    /// branch, since a `let` in the branch's Rust block would end with it.
    branch: usize,
    /// Where the templates read paths into the values, found when a `{% set %}` first
    /// needs them.
    paths: Option<Vec<super::PathUse>>,
    /// The template set's entry.
    entry: &'t str,
    /// The locals [`hoist`](Self::hoist) declared.
    hoisted: Vec<String>,
    /// The namespaces in the emitted code: the local standing for each (a [`Namespace`],
    /// which is what reading it whole gives), with a local per attribute.
    namespaces: Vec<(String, Vec<(String, String)>)>,
    /// Names a branch makes a namespace of, read nowhere after the branch (see
    /// [`hoist`](Self::hoist)).
    in_branch: Vec<String>,
    /// What the emitter refused first, at its place: what [`compile`] reports.
    refused: Option<Diagnostic>,
    /// The name and attribute of every `{% set ns.attr %}` of the set, found when a
    /// `namespace()` first needs them.
    assigned: Option<Vec<(String, String)>>,
    /// The files a [`Site`] names, by their place: each a `const` of the emitted code
    /// (`__P0`, `__T0`: its path and text).
    site_files: Vec<(String, String)>,
    /// The [`Site`]s of the emitted code, each written once (`__SITES`).
    sites: Vec<String>,
    /// Inside an expression whose parts the run-time renderer reads in an order of its
    /// own (a dict literal with a key that is not a string literal, `.split`'s
    /// separator): a value not defined, or a filter or operation that fails, there hands
    /// the render over, so that the run-time renderer reports what it meets first.
    lenient: bool,
}

/// A value a shared helper reads (see `Emitter::shared`).
enum Shared {
    /// A top-level field, by its Rust place.
    Field(String),
    /// A loop variable, by its local.
    Var(String),
    /// A key of a loop variable.
    Attr(String, String),
}

impl<'t> Emitter<'t> {
    fn new(
        templates: &'t Templates,
        entry: &'t str,
        field: &'t dyn Fn(&str) -> Option<String>,
    ) -> Self {
        Emitter {
            templates,
            field,
            scopes: Vec::new(),
            loops: Vec::new(),
            next: 0,
            nodes: 0,
            text: 0,
            depth: 0,
            branch: 0,
            paths: None,
            entry,
            hoisted: Vec::new(),
            in_branch: Vec::new(),
            namespaces: Vec::new(),
            refused: None,
            assigned: None,
            site_files: Vec::new(),
            sites: Vec::new(),
            lenient: false,
        }
    }

    /// The `const`s of the files the emitted [`Site`]s name, and the table of the sites.
    fn site_consts(&self) -> String {
        let mut files = String::new();
        for (i, (path, text)) in self.site_files.iter().enumerate() {
            let _ = write!(
                files,
                "const __P{i}: &str = {path:?}; const __T{i}: &str = {text:?}; "
            );
        }
        if !self.sites.is_empty() {
            let _ = write!(
                files,
                "static __SITES: [jc::Site; {}] = [{}]; ",
                self.sites.len(),
                self.sites.join(", ")
            );
        }
        files
    }

    /// The entry template's nodes, between its cache breakpoints in turn: at each, the
    /// bytes written so far are recorded in `marks` (a `&mut Vec<usize>` in scope).
    fn body(&mut self, template: &Template, body: &mut String) -> Option<()> {
        let mut start = 0;
        for (at, _) in &template.breakpoints {
            self.nodes(template, template.nodes.get(start..*at)?, body)?;
            body.push_str("marks.push(out.len()); ");
            start = *at;
        }
        self.nodes(template, template.nodes.get(start..)?, body)
    }

    /// `None`, noting that the derive does not compile `what`, at `span` of `template`
    /// (the first such place is the one reported).
    fn refuse<T>(
        &mut self,
        template: &Template,
        span: Range<usize>,
        what: &str,
        help: &str,
    ) -> Option<T> {
        if self.refused.is_none() {
            self.refused = Some(
                Diagnostic::new(format!("the derive does not compile {what}"))
                    .at(&template.source, span)
                    .with_help(format!(
                        "{help}; a template the derive cannot compile renders at run time, through `formats::jinja::Templates`"
                    )),
            );
        }
        None
    }

    fn local(&mut self, what: &str) -> String {
        self.next += 1;
        format!("__{what}{}", self.next)
    }

    fn nodes(&mut self, template: &Template, nodes: &[Node], out: &mut String) -> Option<()> {
        self.depth += 1;
        let nested = self.depth > 200;
        let mut pending = String::new();
        for (at, node) in nodes.iter().enumerate() {
            self.nodes += 1;
            if nested || self.nodes > MAX_NODES {
                return self.refuse(
                    template,
                    node.span(),
                    &format!(
                        "a template set of more than {MAX_NODES} nodes, or nested more than 200 deep, once its includes and macro calls are in place"
                    ),
                    "split it, or call a macro fewer times",
                );
            }
            if let Node::Text(span) = node {
                pending.push_str(template.source.text().get(span.clone())?);
                continue;
            }
            flush(&mut pending, out, &mut self.text);
            // What `hoist` leaves in the branches is for this node's branches only.
            let in_branch = self.in_branch.len();
            if self.branch == 0 {
                self.hoist(node, nodes.get(at + 1..).unwrap_or_default(), out);
            }
            self.node(template, node, out)?;
            self.in_branch.truncate(in_branch);
        }
        flush(&mut pending, out, &mut self.text);
        self.depth -= 1;
        Some(())
    }

    /// One node of [`nodes`](Self::nodes) (not a text, which `nodes` gathers).
    fn node(&mut self, template: &Template, node: &Node, out: &mut String) -> Option<()> {
        match node {
            Node::Text(_) => {}
            Node::Output(expr) => self.output(template, expr, out)?,
            Node::If(block) => {
                self.branch += 1;
                // A namespace made in a branch ends with it (see `hoist`).
                let depth = self.scopes.len();
                for (i, (condition, body)) in block.branches.iter().enumerate() {
                    let condition = self.condition(template, condition)?;
                    if i > 0 {
                        out.push_str(" else ");
                    }
                    let _ = write!(out, "if {condition} {{");
                    self.nodes(template, body, out)?;
                    self.scopes.truncate(depth);
                    out.push('}');
                }
                if let Some((_, body)) = &block.otherwise {
                    out.push_str(" else {");
                    self.nodes(template, body, out)?;
                    self.scopes.truncate(depth);
                    out.push('}');
                }
                self.branch -= 1;
            }
            // `{% set name = value %}`: a local from here to the end of its frame, as
            // the run-time renderer binds it (reads before it see the outer value).
            Node::Set { name, value, .. }
                if self.branch == 0
                    && name != "loop"
                    && !matches!(value.kind, ExprKind::Op(Op::Namespace(_), _)) =>
            {
                let code = self.set_value(template, value)?;
                let local = self.local("set");
                let _ = write!(out, "let {local} = {code};");
                self.scopes.push((name.clone(), local));
            }
            // A namespace made in a branch and read nowhere after it: its locals in
            // the branch's block (see `hoist`).
            Node::Set { name, value, .. }
                if self.branch > 0 && self.in_branch.iter().any(|n| n == name) =>
            {
                let ExprKind::Op(Op::Namespace(attrs), values) = &value.kind else {
                    return None;
                };
                self.namespace(template, name, attrs, values, out)?;
            }
            // Inside a branch: the local `hoist` declared before the branch's block.
            Node::Set { name, value, .. }
                if self.scoped(name).is_some_and(|l| self.hoisted.contains(l)) =>
            {
                let local = self.scoped(name)?.clone();
                let code = self.set_value(template, value)?;
                let _ = write!(out, "{local} = {code};");
            }
            Node::For(each) => self.for_loop(template, each, out)?,
            // An include and a block are frames of their own: what they set ends
            // with them.
            Node::Include { name, .. } => {
                let included = self.templates.get(name)?;
                self.frame(included, &included.nodes, Vec::new(), out)?;
            }
            // A block, a parent template in place, or a macro's body where it is
            // called: its arguments evaluated here, all before any is bound, then its
            // nodes, in its template, in a frame that binds them.
            Node::Scope(scope) => {
                out.push('{');
                let mut bound = Vec::with_capacity(scope.binds.len());
                for (name, value) in &scope.binds {
                    let code = self.set_value(template, value)?;
                    let local = self.local("arg");
                    let _ = write!(out, "let {local} = {code};");
                    bound.push((name.clone(), local));
                }
                let inner = match &scope.template {
                    None => template,
                    Some(other) => self.templates.get(other)?,
                };
                self.frame(inner, &scope.nodes, bound, out)?;
                out.push('}');
            }
            Node::FilterBlock(block) if block.into.is_some() => {
                self.set_block(template, block, out)?;
            }
            Node::FilterBlock(block) => self.filter_block(template, block, out)?,
            // `{% set ns = namespace(…) %}`, where a `let` outlives what follows.
            Node::Set { name, value, span } if self.branch == 0 => {
                let ExprKind::Op(Op::Namespace(attrs), values) = &value.kind else {
                    return self.refuse(
                        template,
                        span.clone(),
                        &format!("`{{% set {name} %}}`"),
                        "give the value another name",
                    );
                };
                self.namespace(template, name, attrs, values, out)?;
            }
            // `{% set ns.attr = value %}`: the attribute's local, wherever it stands.
            Node::SetAttr {
                name,
                attr,
                value,
                span,
            } => {
                let Some(local) = self.namespace_attr(name, attr) else {
                    return self.refuse(
                            template,
                            span.clone(),
                            &format!("`{{% set {name}.{attr} %}}` where `{name}` is no namespace the template made before"),
                            &format!("make it one first: `{{% set {name} = namespace({attr}=…) %}}`"),
                        );
                };
                let code = self.set_value(template, value)?;
                let _ = write!(out, "{local} = jc::keep(&mut built, {code})?;");
            }
            Node::Set { span, .. } | Node::Super(span) => {
                return self.refuse(
                    template,
                    span.clone(),
                    "this tag here",
                    "make the value outside the `if`",
                );
            }
        }
        Some(())
    }

    /// Before `node` at the top of its frame: a mutable local for each name a
    /// `{% set %}` in its branches (an `if`'s, a loop's `else`) binds, holding what the
    /// name reads now, so that the set, inside the branch's block, outlives it as the
    /// run-time renderer's binding does.
    ///
    /// A name that the branches set only to a `namespace()`, and that nothing after
    /// `node` in its frame reads (`rest`), is not hoisted: the namespace is made in the
    /// branch and ends with it (`in_branch`), as its attributes' locals must be known
    /// where it is made.
    fn hoist(&mut self, node: &Node, rest: &[Node], out: &mut String) {
        let mut sets = Vec::new();
        branch_sets(node, &mut sets);
        let mut names: Vec<&str> = sets.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        names.retain(|name| {
            let only_namespace = sets.iter().any(|(n, made)| n == name && *made)
                && !sets.iter().any(|(n, made)| n == name && !made);
            if only_namespace && !mentions(self.templates, rest, name, &mut Vec::new()) {
                self.in_branch.push((*name).to_owned());
                return false;
            }
            true
        });
        for name in names.into_iter().filter(|n| *n != "loop") {
            let now = match (self.scoped(name), (self.field)(name)) {
                (Some(local), _) => format!("jc::Var::view(&{local})"),
                (None, Some(place)) => {
                    format!("::promptic::__private::PromptValue::view(&{place})")
                }
                (None, None) => "View::Undefined".to_owned(),
            };
            let local = self.local("set");
            let _ = write!(out, "let mut {local} = {now};");
            self.hoisted.push(local.clone());
            self.scopes.push((name.to_owned(), local));
        }
    }

    /// `inner.key`, or `inner['key']`: a loop variable's key, a field's (the struct's
    /// static match), any other value's through its view.
    fn key_of(&mut self, template: &Template, inner: &Expr, key: &str) -> Option<String> {
        if let ExprKind::Name(var) = &inner.kind
            && let Some(local) = self.scoped(var)
        {
            return Some(format!("jc::Var::attr(&{local}, {key:?})?"));
        }
        if let Some(place) = self.top_place(inner) {
            return Some(format!(
                "::promptic::__private::PromptValue::attr(&{place}, {key:?})?"
            ));
        }
        let code = self.with_ref(template, inner, |v| format!("jc::get({v}, {key:?})"))?;
        Some(format!("{code}?"))
    }

    /// Code of a [`Site`] for `span` of `template` (with `args`, the spans of its
    /// arguments): the run-time renderer's errors there.
    fn site(&mut self, template: &Template, span: &Range<usize>, args: &[&Expr]) -> String {
        let path = template.source.path();
        let index = match self.site_files.iter().position(|(p, _)| p == path) {
            Some(index) => index,
            None => {
                let text = template.source.text().to_owned();
                self.site_files.push((path.to_owned(), text));
                self.site_files.len() - 1
            }
        };
        let mut code = format!(
            "jc::Site {{ path: __P{index}, text: __T{index}, at: ({}, {}), args: &[",
            span.start, span.end
        );
        for arg in args {
            let _ = write!(code, "({}, {}),", arg.span.start, arg.span.end);
        }
        code.push_str("] }");
        // One table of sites per emitted block: each use an index into it, which is
        // less for the compiler to check than a `Site` written at every use.
        let at = match self.sites.iter().position(|s| *s == code) {
            Some(at) => at,
            None => {
                self.sites.push(code);
                self.sites.len() - 1
            }
        };
        format!("&__SITES[{at}]")
    }

    /// [`apply`] of `inner | filter(args)` (the whole expression `whole`): code of type
    /// [`Made`]. The value (a filter of a chain is applied to the value the one before
    /// makes), then the arguments, as the run-time renderer evaluates them.
    fn filter_call(
        &mut self,
        template: &Template,
        whole: &Expr,
        inner: &Expr,
        filter: Filter,
        args: &[Expr],
    ) -> Option<String> {
        let index = filter_index(filter)?;
        let value = self.data(template, inner)?;
        let values = args
            .iter()
            .map(|a| self.data(template, a))
            .collect::<Option<Vec<_>>>()?;
        let spans: Vec<&Expr> = args.iter().collect();
        let site = self.site(template, &whole.span, &spans);
        Some(format!(
            "jc::apply::<{index}>({value}, &[{}], &mut steps, out.len(), {site})",
            values.join(", ")
        ))
    }

    /// [`op`] of `whole`, the operation `op` on `operands`: code of type [`Made`]. The
    /// operands' values in order; a failure is reported at the operand the run-time
    /// renderer names (a method's and a slice's arguments count after the value).
    fn op_call(
        &mut self,
        template: &Template,
        whole: &Expr,
        op: &Op,
        operands: &[Expr],
    ) -> Option<String> {
        let index = op_index(op)?;
        let values = operands
            .iter()
            .map(|o| self.data(template, o))
            .collect::<Option<Vec<_>>>()?;
        let args: Vec<&Expr> = match op {
            Op::Method(_) | Op::Slice => operands.iter().skip(1).collect(),
            _ => operands.iter().collect(),
        };
        let site = self.site(template, &whole.span, &args);
        Some(format!(
            "jc::op::<{index}>(&[{}], &mut steps, out.len(), {site})",
            values.join(", ")
        ))
    }

    /// [`filter_call`](Self::filter_call) or [`op_call`](Self::op_call) of `expr` when it
    /// is a filter or an operation the run-time renderer's implementation runs.
    fn made(&mut self, template: &Template, expr: &Expr) -> Option<Option<String>> {
        Some(match &expr.kind {
            ExprKind::Filter(inner, f, args)
                if f.is_new()
                    || (matches!(f, Filter::Trim | Filter::Tojson) && !args.is_empty())
                    || (*f == Filter::Join && args.len() > 1) =>
            {
                Some(self.filter_call(template, expr, inner, *f, args)?)
            }
            ExprKind::Op(op, operands) if op_index(op).is_some() => {
                Some(self.op_call(template, expr, op, operands)?)
            }
            _ => None,
        })
    }

    /// Code of type `View` (with `?` inside) of what [`made`](Self::made) runs.
    fn view_made(&self, made: String) -> String {
        if self.lenient {
            format!("jc::view_made_or_hand_over({made})?")
        } else {
            format!("jc::view_made({made}, fail)?")
        }
    }

    /// Code of type `Data` (with `?` inside): the value of `expr`, which must be defined
    /// (not defined: the run-time renderer renders). A filter or operation that
    /// [`apply`] or [`op`] runs gives its value as it is made, for the one that takes it
    /// (a dict or a tuple on the way is kept).
    fn data(&mut self, template: &Template, expr: &Expr) -> Option<String> {
        if let Some(made) = self.made(template, expr)? {
            if self.lenient {
                return Some(format!("jc::data_made_or_hand_over({made})?"));
            }
            let site = self.site(template, &expr.span, &[]);
            return Some(format!("jc::data_made({made}, fail, {site})?"));
        }
        Some(match &expr.kind {
            // A dict literal where its value is taken as it is (an argument, an operand):
            // its entries evaluated in order, keyed by text. The run-time renderer checks
            // each key is a string before it reads the key's value: with a key that is
            // not a string literal, what fails inside hands the render over.
            ExprKind::Dict(entries) => {
                let lenient = self.lenient;
                self.lenient |= !entries
                    .iter()
                    .all(|(k, _)| matches!(k.kind, ExprKind::Literal(Data::String(_))));
                let mut code = String::from("jc::dict(::std::vec![");
                for (key, value) in entries {
                    let (key, value) = (self.data(template, key)?, self.data(template, value)?);
                    let _ = write!(code, "({key}, {value}),");
                }
                code.push_str("])?");
                self.lenient = lenient;
                code
            }
            _ => {
                let view = self.expr(template, expr)?;
                format!("jc::data_of(&{view})?")
            }
        })
    }

    /// `inner is [not] which` as Rust `bool` code (with `?` inside): `defined`, `undefined`
    /// and `none` written out, the other tests through [`test_with`].
    fn test(
        &mut self,
        template: &Template,
        inner: &Expr,
        which: Test,
        negated: bool,
    ) -> Option<String> {
        if let Some(index) = test_index(&which) {
            let code = self.with_ref(template, inner, |v| {
                format!("jc::test({v}, {index}, {negated})")
            })?;
            return Some(format!("{code}?"));
        }
        let index = Test::ALL.iter().position(|t| t.1 == which)?;
        let subject = self.subject(template, inner, which)?;
        // The run-time renderer reports a test's failure at the tested value.
        let site = self.site(template, &inner.span, &[]);
        Some(self.tested(format!(
            "jc::test_with::<{index}>({negated}, {subject}, None, &mut steps, {site})"
        )))
    }

    /// The subject of a test, code of type `Option<Data>`: one the test refuses when it
    /// is not defined (`even`, `divisibleby`, `lt`, ...) must be defined, else the
    /// run-time renderer renders (and names the path the values lack).
    fn subject(&mut self, template: &Template, subject: &Expr, which: Test) -> Option<String> {
        let value = self.expr(template, subject)?;
        let defined = matches!(
            which,
            Test::Even | Test::Odd | Test::Divisibleby | Test::Lt | Test::Le | Test::Gt | Test::Ge
        );
        Some(if defined {
            format!("Some(jc::data_of(&{value})?)")
        } else {
            format!("jc::subject_of(&{value})?")
        })
    }

    /// Code (with `?` inside) of what a call of [`test_with`], [`starts_with`] or
    /// [`split`] gives.
    fn tested(&self, call: String) -> String {
        if self.lenient {
            format!("{call}.ok()?")
        } else {
            format!("jc::stopped({call}, fail)?")
        }
    }

    /// The value `{% set %}` binds. The run-time renderer refuses, before it renders, a
    /// path the value reads that is not there (unless the read tolerates it: under
    /// `default`, tested, ...), wherever in the value it is: each such path is read first,
    /// and one that is not defined leaves the render to the run-time renderer.
    fn set_value(&mut self, template: &Template, value: &Expr) -> Option<String> {
        let templates = self.templates;
        let paths = self
            .paths
            .get_or_insert_with(|| templates.paths(self.entry).unwrap_or_default());
        let mut checked: Vec<&Expr> = Vec::new();
        super::expr::visit(value, &mut |e| {
            let checked_here = paths.iter().any(|p| {
                p.span == e.span
                    && !p.guarded
                    && !p.indexed
                    && !p.steps.is_empty()
                    && templates
                        .get(&p.file)
                        .is_some_and(|t| std::ptr::eq(t, template))
            });
            if checked_here {
                checked.push(e);
            }
        });
        let mut code = String::from("{");
        for path in checked {
            let read = self.expr(template, path)?;
            let _ = write!(
                code,
                "if matches!({read}, View::Undefined) {{ return None; }}"
            );
        }
        // A value read from a name set in a branch must not borrow that name's local,
        // which a later set assigns: it is copied out (a dict stays at run time).
        let mut reads_hoisted = false;
        super::expr::visit(value, &mut |e| {
            if let ExprKind::Name(n) = &e.kind
                && self.scoped(n).is_some_and(|l| self.hoisted.contains(l))
            {
                reads_hoisted = true;
            }
        });
        let view = self.expr(template, value)?;
        if reads_hoisted {
            let _ = write!(code, "jc::own({view})? }}");
        } else {
            let _ = write!(code, "{view} }}");
        }
        Some(code)
    }

    /// `{% set name = namespace(a=…, …) %}`: a local per attribute (those given here and
    /// those any `{% set name.attr %}` of the set assigns), each holding a copy, as the
    /// run-time renderer's namespace holds one; the values are evaluated in order, before
    /// `name` stands for the new namespace.
    fn namespace(
        &mut self,
        template: &Template,
        name: &str,
        given: &[String],
        values: &[Expr],
        out: &mut String,
    ) -> Option<()> {
        if self.assigned.is_none() {
            let mut assigned = Vec::new();
            for other in self.templates.names() {
                set_attrs(&self.templates.get(other)?.nodes, &mut assigned);
            }
            self.assigned = Some(assigned);
        }
        let mut attrs: Vec<String> = given.to_vec();
        attrs.extend(
            self.assigned
                .iter()
                .flatten()
                .filter(|(n, _)| n == name)
                .map(|(_, attr)| attr.clone()),
        );
        attrs.sort_unstable();
        attrs.dedup();
        let marker = self.local("ns");
        let locals: Vec<(String, String)> = attrs
            .into_iter()
            .map(|attr| {
                let local = self.local("na");
                (attr, local)
            })
            .collect();
        for (_, local) in &locals {
            let _ = write!(out, "let mut {local}: View<'static> = View::Undefined;");
        }
        for (attr, value) in given.iter().zip(values) {
            let (_, local) = locals.iter().find(|(a, _)| a == attr)?;
            let code = self.set_value(template, value)?;
            let _ = write!(out, "{local} = jc::keep(&mut built, {code})?;");
        }
        let _ = write!(out, "let {marker} = jc::Namespace;");
        self.scopes.push((name.to_owned(), marker.clone()));
        self.namespaces.push((marker, locals));
        Some(())
    }

    /// The attributes' locals of the namespace `name` stands for here, if it stands for
    /// one.
    fn namespace_of(&self, name: &str) -> Option<&[(String, String)]> {
        let local = self.scoped(name)?;
        let (_, attrs) = self.namespaces.iter().find(|(m, _)| m == local)?;
        Some(attrs)
    }

    /// The local of `name.attr`, when `name` stands for a namespace here.
    fn namespace_attr(&self, name: &str, attr: &str) -> Option<String> {
        let (_, local) = self.namespace_of(name)?.iter().find(|(a, _)| a == attr)?;
        Some(local.clone())
    }

    /// `nodes` as a frame of their own (an include, a block): in a Rust block, with the
    /// names they set ending with it.
    fn frame(
        &mut self,
        template: &Template,
        nodes: &[Node],
        bound: Vec<(String, String)>,
        out: &mut String,
    ) -> Option<()> {
        let (branch, depth) = (std::mem::take(&mut self.branch), self.scopes.len());
        self.scopes.extend(bound);
        out.push('{');
        self.nodes(template, nodes, out)?;
        out.push('}');
        self.scopes.truncate(depth);
        self.branch = branch;
        Some(())
    }

    /// `{% filter f %}body{% endfilter %}`, as the run-time renderer renders it: the body,
    /// a frame of its own that the filters are in too, writes into the output; within the limits, its text is taken
    /// back out and the filters run on it, innermost first; what they give is written
    /// when it is text (Jinja2 refuses anything else: the run-time renderer reports it).
    fn filter_block(
        &mut self,
        template: &Template,
        block: &FilterBlock,
        out: &mut String,
    ) -> Option<()> {
        let value = self.local("fv");
        out.push('{');
        let (text, depth) = self.body_text(template, block, out)?;
        let mut filters = block.filters.clone();
        placeholder(&mut filters);
        self.scopes.push((FILTERED.to_owned(), text));
        let code = self.expr(template, &filters);
        self.scopes.truncate(depth);
        let _ = write!(
            out,
            "let {value} = {}; jc::put_text(&mut out, {value})?; }}",
            code?
        );
        Some(())
    }

    /// The body of a `{% filter %}` or block `{% set %}`, in a frame of its own (as `frame`
    /// makes one, but what comes after, the filters, is inside it too: a name the body sets
    /// is what their arguments read, as in Jinja2), written into the output and taken
    /// back out as a text: code for `out`, then the text's local and the depth of the
    /// scopes to truncate to once the filters are emitted.
    fn body_text(
        &mut self,
        template: &Template,
        block: &FilterBlock,
        out: &mut String,
    ) -> Option<(String, usize)> {
        let (start, text) = (self.local("fs"), self.local("ft"));
        let _ = write!(out, "let {start} = out.len();");
        let (branch, depth) = (std::mem::take(&mut self.branch), self.scopes.len());
        let body = self.nodes(template, &block.body, out);
        self.branch = branch;
        if body.is_none() {
            self.scopes.truncate(depth);
            return None;
        }
        let _ = write!(
            out,
            "jc::within(&mut steps, &out, fail)?; \
             let {text}: View<'_> = View::Text(::std::borrow::Cow::Owned(out.split_off({start})));"
        );
        Some((text, depth))
    }

    /// `{% set name | filters %}…{% endset %}`: the body's text, through the filters, in a
    /// block of its own (see [`body_text`](Self::body_text)), bound as
    /// `{% set name = value %}` binds (a local from here on, or the hoisted local of a name
    /// set in a branch).
    fn set_block(
        &mut self,
        template: &Template,
        block: &FilterBlock,
        out: &mut String,
    ) -> Option<()> {
        let name = block.into.as_ref()?;
        let mut code = String::from("{");
        let (text, depth) = self.body_text(template, block, &mut code)?;
        let value = if matches!(block.filters.kind, ExprKind::Filter(..)) {
            let mut filters = block.filters.clone();
            placeholder(&mut filters);
            self.scopes.push((FILTERED.to_owned(), text));
            let value = self.expr(template, &filters);
            self.scopes.truncate(depth);
            // The filters' value may borrow the text, which ends with the block.
            format!("jc::own({})?", value?)
        } else {
            self.scopes.truncate(depth);
            text
        };
        let _ = write!(code, "{value} }}");
        if self.branch == 0 {
            let local = self.local("set");
            let _ = write!(out, "let {local} = {code};");
            self.scopes.push((name.clone(), local));
        } else {
            let Some(local) = self
                .scoped(name)
                .filter(|l| self.hoisted.contains(*l))
                .cloned()
            else {
                return self.refuse(
                    template,
                    block.span.clone(),
                    "this tag here",
                    "make the value outside the `if`",
                );
            };
            let _ = write!(out, "{local} = {code};");
        }
        Some(())
    }

    fn for_loop(&mut self, template: &Template, each: &For, out: &mut String) -> Option<()> {
        // `loop.previtem` and `loop.nextitem` read the kept items, collected first as
        // views.
        let neighbours = super::render::reads_neighbours(&each.body);
        if neighbours && each.targets.len() > 1 {
            return self.refuse(
                template,
                each.iter.span.clone(),
                "`loop.previtem` and `loop.nextitem` in a loop that unpacks its items",
                "loop over the items into one name, and read each one's parts inside the loop",
            );
        }
        let (items, pattern, names) = match (&each.iter.kind, each.targets.as_slice()) {
            (ExprKind::Items(map), [(k, _), (v, _)]) => {
                let entries = match self.top_place(map) {
                    Some(place) => format!("(&jc::Probe(&{place})).jc_items()?"),
                    None => {
                        let map = self.with_ref(template, map, |m| format!("jc::items({m})"))?;
                        format!("{map}?.into_iter()")
                    }
                };
                let (kl, vl) = (self.local("k"), self.local("v"));
                (
                    entries,
                    format!("({kl}, {vl})"),
                    vec![(k.clone(), kl), (v.clone(), vl)],
                )
            }
            // `for entry in m.items()`: each entry a `(key, value)` tuple.
            (ExprKind::Items(map), [(name, _)]) => {
                let entries = self.with_ref(template, map, |m| format!("jc::entries({m})"))?;
                let local = self.local("x");
                (
                    format!("{entries}?"),
                    local.clone(),
                    vec![(name.clone(), local)],
                )
            }
            (ExprKind::Items(_), _) => {
                return self.refuse(
                    template,
                    each.iter.span.clone(),
                    "a loop over `.items()` into more than two names",
                    "each entry is a key and a value: `{% for k, v in m.items() %}`",
                );
            }
            // `for a, b in pairs`: each item unpacked into the names.
            (_, targets) if targets.len() > 1 => {
                let n = targets.len();
                let items =
                    self.with_ref(template, &each.iter, |v| format!("jc::unpack::<{n}>({v})"))?;
                let names: Vec<(String, String)> = targets
                    .iter()
                    .map(|(name, _)| (name.clone(), self.local("x")))
                    .collect();
                let pattern = names
                    .iter()
                    .map(|(_, local)| local.as_str())
                    .collect::<Vec<_>>()
                    .join(", ");
                (format!("{items}?"), format!("[{pattern}]"), names)
            }
            (_, [(name, _)]) => {
                let iter = match self.top_place(&each.iter) {
                    Some(place) if !neighbours => format!("(&jc::Probe(&{place})).jc_iter()"),
                    _ => self.with_ref(template, &each.iter, |v| format!("jc::iter({v})"))?,
                };
                let local = self.local("x");
                (
                    format!("{iter}?"),
                    local.clone(),
                    vec![(name.clone(), local)],
                )
            }
            _ => return None,
        };
        let it = self.local("it");
        let (index, length) = (self.local("i"), self.local("n"));
        let all = neighbours.then(|| self.local("all"));
        let depth = self.scopes.len();
        self.scopes.extend(names.iter().cloned());
        let filter = match &each.filter {
            Some(filter) => {
                // The loop filter sees the loop variables, not `loop`.
                let saved = std::mem::take(&mut self.loops);
                let condition = self.condition(template, filter);
                self.loops = saved;
                match condition {
                    Some(c) => Some(c),
                    None => {
                        self.scopes.truncate(depth);
                        return None;
                    }
                }
            }
            None => None,
        };
        // The body, with `loop` of this loop; whether it reads the length decides whether
        // the items are counted first.
        let mut body = String::new();
        let before = self.nodes;
        self.loops.push(Loop {
            index: index.clone(),
            length: length.clone(),
            length_used: false,
            all: all.clone(),
        });
        let branch = std::mem::take(&mut self.branch);
        let emitted = self.nodes(template, &each.body, &mut body);
        self.branch = branch;
        let this = self.loops.pop();
        self.scopes.truncate(depth);
        emitted?;
        let length_used = this.is_some_and(|l| l.length_used);
        // The run-time renderer counts a step per node rendered and per item: each item
        // counts at least that many here (nested loops count their own items).
        let weight = 2 + self.nodes.saturating_sub(before);
        // The loop variables are discarded by hand: no drop glue for views that own nothing.
        let discard: String = names
            .iter()
            .map(|(_, local)| format!("jc::Var::discard({local});"))
            .collect();
        // With the neighbours read: the items the filter keeps, collected (counting a
        // step each, as the run-time renderer's filter pass does), then the loop over
        // them alone.
        let filter = match &all {
            Some(all) => {
                let keep = match &filter {
                    Some(condition) => format!(
                        "jc::steps(&mut steps, 1, &out, fail)?; if {condition} {{ {all}.push({pattern}); }} else {{ {discard} }}"
                    ),
                    None => format!("{all}.push({pattern});"),
                };
                let _ = write!(
                    out,
                    "{{ let mut {all}: ::std::vec::Vec<View<'_>> = ::std::vec::Vec::new(); for {pattern} in {items} {{ {keep} }} let {it} = {all}.iter().map(jc::kept);"
                );
                None
            }
            None => {
                let _ = write!(out, "{{ let {it} = {items};");
                filter
            }
        };
        if length_used {
            match &filter {
                Some(condition) => {
                    let _ = write!(
                        out,
                        "let mut {length} = 0usize; for {pattern} in {it}.clone() {{ jc::steps(&mut steps, 1, &out, fail)?; if {condition} {{ {length} += 1; }} {discard} }}"
                    );
                }
                None => {
                    let _ = write!(out, "let {length} = {it}.len();");
                }
            }
        }
        let _ = write!(
            out,
            "let mut {index} = 0usize; for {pattern} in {it} {{ jc::steps(&mut steps, {weight}, &out, fail)?;"
        );
        if let Some(condition) = &filter {
            let _ = write!(out, "if !({condition}) {{ {discard} continue; }}");
        }
        let _ = write!(out, "{{ {body} }} {index} += 1; {discard} }}");
        if let Some(otherwise) = &each.otherwise {
            let _ = write!(out, "if {index} == 0 {{");
            self.branch += 1;
            self.nodes(template, otherwise, out)?;
            self.branch -= 1;
            out.push('}');
        }
        out.push('}');
        Some(())
    }

    /// The statement that appends `{{ expr }}`: a filter that makes text (`upper`,
    /// `lower`, `trim`, `join`) writes it straight into the output.
    fn output(&mut self, template: &Template, expr: &Expr, out: &mut String) -> Option<()> {
        // `{{ a if condition else b }}`: one branch's output, the other's or nothing (an
        // inline `if` without `else` prints an empty text when its condition is false).
        if let ExprKind::Op(Op::IfElse, operands) = &expr.kind {
            let condition = self.condition(template, operands.first()?)?;
            let _ = write!(out, "if {condition} {{");
            self.output(template, operands.get(1)?, out)?;
            out.push_str("} else {");
            if let Some(otherwise) = operands.get(2) {
                self.output(template, otherwise, out)?;
            }
            out.push('}');
            return Some(());
        }
        // A new filter's or an operation's value, printed as it is made (the run-time
        // renderer's error at the expression when it is not defined).
        let printed_whole = match &expr.kind {
            ExprKind::Filter(_, f, _) => f.is_new(),
            ExprKind::Op(op, _) => op_index(op).is_some(),
            _ => false,
        };
        if printed_whole && let Some(made) = self.made(template, expr)? {
            let site = self.site(template, &expr.span, &[]);
            let made_local = self.local("m");
            let _ = write!(
                out,
                "let {made_local} = {made}; jc::put_made(&mut out, {made_local}, fail, {site})?;"
            );
            return Some(());
        }
        if let Some(code) = self.put(template, expr) {
            // Not `?`: a plain test is less for the compiler to check and lower.
            let _ = write!(out, "if {code}.is_none() {{ return None; }}");
            return Some(());
        }
        // Keys of a field through `upper`, `lower` or `trim`: printed by the field's type,
        // then cased or trimmed where they lie.
        if let ExprKind::Filter(inner, which, args) = &expr.kind {
            let op = match (which, args.is_empty()) {
                (Filter::Upper, _) => Some("jc::UPPER"),
                (Filter::Lower, _) => Some("jc::LOWER"),
                (Filter::Trim, true) => Some("jc::TRIM"),
                _ => None,
            };
            if let (Some(op), Some((place, keys))) = (op, self.field_path(inner)) {
                let site = self.site(template, &inner.span, &[]);
                let _ = write!(
                    out,
                    "jc::put_path(&mut out, &{place}, &{keys:?}, {op}, fail, {site})?;"
                );
                return Some(());
            }
        }
        if let ExprKind::Filter(inner, which, args) = &expr.kind {
            let code = match which {
                Filter::Upper => Some(self.with_ref(template, inner, |v| {
                    format!("jc::write_case(&mut out, {v}, true)")
                })?),
                Filter::Lower => Some(self.with_ref(template, inner, |v| {
                    format!("jc::write_case(&mut out, {v}, false)")
                })?),
                Filter::Trim if args.is_empty() => Some(self.with_ref(template, inner, |v| {
                    format!("jc::write_trim(&mut out, {v})")
                })?),
                Filter::Join => {
                    let sep = self.join_sep(template, args)?;
                    match self.top_place(inner) {
                        Some(place) => {
                            Some(format!("(&jc::Probe(&{place})).jc_join(&mut out, {sep})"))
                        }
                        None => Some(self.with_ref(template, inner, |v| {
                            format!("jc::write_join(&mut out, {v}, {sep})")
                        })?),
                    }
                }
                _ => None,
            };
            if let Some(code) = code {
                let _ = write!(out, "{code}?;");
                return Some(());
            }
        }
        // Keys of a field: one call, which a type that reads its keys typed prints whole.
        if let Some((place, keys)) = self.field_path(expr) {
            let site = self.site(template, &expr.span, &[]);
            let _ = write!(
                out,
                "jc::put_path(&mut out, &{place}, &{keys:?}, jc::WRITE, fail, {site})?;"
            );
            return Some(());
        }
        // A name or keys of one: the last part not defined is the run-time renderer's error
        // at the whole expression, made where the value is written, so that where the
        // compiler sees the value prints otherwise, it sees nothing is handed over.
        let code = if self.plain_path(expr) {
            let site = self.site(template, &expr.span, &[]);
            self.with_ref(template, expr, |v| {
                format!("jc::write_defined(&mut out, {v}, fail, {site})")
            })?
        } else {
            self.with_ref(template, expr, |v| format!("jc::write(&mut out, {v})"))?
        };
        let _ = write!(out, "{code}?;");
        Some(())
    }

    /// The place of a top-level field and the keys `expr` reads of it (`a.b.c`: `a`'s
    /// place, `["b", "c"]`), none a dict's method; `None` for anything else.
    fn field_path(&self, expr: &Expr) -> Option<(String, Vec<String>)> {
        let mut keys = Vec::new();
        let mut at = expr;
        while let ExprKind::Attr(inner, key) = &at.kind {
            if DICT_METHODS.contains(&key.as_str()) {
                return None;
            }
            keys.push(key.clone());
            at = inner;
        }
        let ExprKind::Name(name) = &at.kind else {
            return None;
        };
        if keys.is_empty() || self.namespace_of(name).is_some() {
            return None;
        }
        keys.reverse();
        Some((self.top_place(at)?, keys))
    }

    /// Whether `expr` is a name or keys of one (`a.b.c`), which the run-time renderer
    /// reports at the whole expression when the last key is not there.
    fn plain_path(&self, expr: &Expr) -> bool {
        match &expr.kind {
            ExprKind::Attr(inner, key) => {
                !DICT_METHODS.contains(&key.as_str()) && self.plain_path(inner)
            }
            ExprKind::Name(name) => {
                self.namespace_of(name).is_none()
                    && (self.scoped(name).is_some() || (self.field)(name).is_some())
            }
            _ => false,
        }
    }

    /// `{{ expr }}` through one of the shared helpers ([`put`], [`put_var`], [`put_attr`])
    /// when `expr` is a field, a loop variable or a key of one, bare or through `upper`,
    /// `lower` or `trim`: code of type `Option<()>`. A value not defined there is left to
    /// the run-time renderer (a site per output would cost every prompt's build more than
    /// the few whose fields can be undefined gain).
    fn put(&mut self, template: &Template, expr: &Expr) -> Option<String> {
        let (inner, op) = match &expr.kind {
            ExprKind::Filter(inner, Filter::Upper, _) => (&**inner, "jc::UPPER"),
            ExprKind::Filter(inner, Filter::Lower, _) => (&**inner, "jc::LOWER"),
            ExprKind::Filter(inner, Filter::Trim, args) if args.is_empty() => {
                (&**inner, "jc::TRIM")
            }
            _ => (expr, "jc::WRITE"),
        };
        Some(match self.shared(inner)? {
            Shared::Field(place) => format!("jc::put(&mut out, &{place}, {op})"),
            Shared::Var(local) => format!("jc::put_var(&mut out, &{local}, {op})"),
            Shared::Attr(local, key) => {
                let site = self.site(template, &inner.span, &[]);
                format!("jc::put_key(&mut out, &{local}, {key:?}, {op}, fail, {site})")
            }
        })
    }

    /// The Rust local of a loop variable named `name`, the innermost one.
    fn scoped(&self, name: &str) -> Option<&String> {
        let (_, local) = self.scopes.iter().rev().find(|(n, _)| n == name)?;
        Some(local)
    }

    /// What `expr` is, when a shared helper reads it: a field, a loop variable, or a key
    /// of a loop variable.
    fn shared(&self, expr: &Expr) -> Option<Shared> {
        let local = |name: &str| self.scoped(name).cloned();
        match &expr.kind {
            ExprKind::Name(name) => match local(name) {
                Some(local) => Some(Shared::Var(local)),
                None => self.top_place(expr).map(Shared::Field),
            },
            ExprKind::Attr(inner, key) if !DICT_METHODS.contains(&key.as_str()) => {
                let ExprKind::Name(var) = &inner.kind else {
                    return None;
                };
                // A namespace's attribute is a local of its own, read through `expr`.
                if self.namespace_of(var).is_some() {
                    return None;
                }
                Some(Shared::Attr(local(var)?, key.clone()))
            }
            _ => None,
        }
    }

    /// The Rust place of `expr` when it is a top-level name (a field), not a loop variable.
    fn top_place(&self, expr: &Expr) -> Option<String> {
        let ExprKind::Name(name) = &expr.kind else {
            return None;
        };
        if self.scopes.iter().any(|(n, _)| n == name) {
            return None;
        }
        (self.field)(name)
    }

    /// Code of type `Option<_>` that reads the value of `expr` through a `&View`, given to
    /// `call` as its argument: a loop variable in place; any other value held in a local
    /// that is discarded after the call ([`discard`]: no drop glue for a view that owns
    /// nothing). The view `call` gives back may outlive the local (it borrows what the
    /// local borrows).
    fn with_ref(
        &mut self,
        template: &Template,
        expr: &Expr,
        call: impl FnOnce(&str) -> String,
    ) -> Option<String> {
        if let ExprKind::Name(name) = &expr.kind
            && let Some(local) = self.scoped(name)
        {
            let local = local.clone();
            let held = self.local("t");
            let code = call(&format!("&{held}"));
            return Some(format!(
                "{{ let {held} = jc::Var::view(&{local}); let __r = {code}; jc::discard({held}); __r }}"
            ));
        }
        let value = self.expr(template, expr)?;
        let held = self.local("t");
        let code = call(&format!("&{held}"));
        Some(format!(
            "{{ let {held} = {value}; let __r = {code}; jc::discard({held}); __r }}"
        ))
    }

    /// `a op b` as a `bool` (with `?` inside), each side held and discarded.
    fn comparison(
        &mut self,
        template: &Template,
        left: &Expr,
        op: CmpOp,
        right: &Expr,
    ) -> Option<String> {
        // A loop variable, or a key of one, against a text: compared by the item's type
        // where it compares itself (a `serde_json::Value` item, whose view the compiler
        // cannot see through).
        if let (CmpOp::Eq | CmpOp::Ne, ExprKind::Literal(Data::String(text))) = (op, &right.kind) {
            let ne = op == CmpOp::Ne;
            match self.shared(left) {
                Some(Shared::Var(local)) => {
                    return Some(format!("jc::is_text(&{local}, None, {text:?}, {ne})?"));
                }
                Some(Shared::Attr(local, key)) => {
                    return Some(format!(
                        "jc::is_text(&{local}, Some({key:?}), {text:?}, {ne})?"
                    ));
                }
                _ => {}
            }
        }
        let op = cmp_index(op);
        let right = self.expr(template, right)?;
        let r = self.local("r");
        let code = self.with_ref(template, left, |l| {
            format!(
                "{{ let {r} = {right}; let __r = jc::compare({op}, {l}, &{r}); jc::discard({r}); __r }}"
            )
        })?;
        Some(format!("{code}?"))
    }

    /// The separator argument of `join`: `None` for none, `return None` when not defined.
    fn join_sep(&mut self, template: &Template, args: &[Expr]) -> Option<String> {
        Some(match args.first() {
            Some(sep) => format!(
                "Some(&{{ let __s = {}; if matches!(__s, View::Undefined) {{ return None; }} __s }})",
                self.expr(template, sep)?
            ),
            None => "None".to_owned(),
        })
    }

    /// A Rust expression of type `bool` (with `?` inside).
    fn condition(&mut self, template: &Template, expr: &Expr) -> Option<String> {
        Some(match &expr.kind {
            ExprKind::Not(inner) => format!("!({})", self.condition(template, inner)?),
            ExprKind::And(a, b) => format!(
                "({} && {})",
                self.condition(template, a)?,
                self.condition(template, b)?
            ),
            ExprKind::Or(a, b) => format!(
                "({} || {})",
                self.condition(template, a)?,
                self.condition(template, b)?
            ),
            ExprKind::Compare(first, chain) if chain.len() == 1 => {
                let (op, right) = &chain[0];
                self.comparison(template, first, *op, right)?
            }
            ExprKind::Test(inner, which, negated) => {
                self.test(template, inner, *which, *negated)?
            }
            _ => match self.shared(expr) {
                Some(shared) => {
                    let call = match shared {
                        Shared::Field(place) => format!("jc::is(&{place})"),
                        Shared::Var(local) => format!("jc::is_var(&{local})"),
                        Shared::Attr(local, key) => format!("jc::is_attr(&{local}, {key:?})"),
                    };
                    format!("match {call} {{ Some(b) => b, None => return None }}")
                }
                None => format!(
                    "{}?",
                    self.with_ref(template, expr, |v| format!("jc::truthy({v})"))?
                ),
            },
        })
    }

    /// A Rust expression of type `&View` (with `?` inside): a loop variable borrowed in
    /// place, anything else a borrowed temporary.
    fn place(&mut self, template: &Template, expr: &Expr) -> Option<String> {
        if let ExprKind::Name(name) = &expr.kind
            && let Some(local) = self.scoped(name)
        {
            return Some(format!("&jc::Var::view(&{local})"));
        }
        Some(format!("&{}", self.expr(template, expr)?))
    }

    /// A Rust expression of type `View` (with `?` inside).
    fn expr(&mut self, template: &Template, expr: &Expr) -> Option<String> {
        Some(match &expr.kind {
            // Put in place when the template is read: never here.
            ExprKind::MacroCall(_) => return None,
            ExprKind::Literal(value) => match literal(value) {
                Some(code) => code,
                None => {
                    return self.refuse(
                        template,
                        expr.span.clone(),
                        "an integer literal past 128 bits",
                        "write it as a string",
                    );
                }
            },
            ExprKind::Name(name) => {
                if let Some(local) = self.scoped(name) {
                    format!("jc::Var::view(&{local})")
                } else {
                    match (self.field)(name) {
                        Some(place) => {
                            format!("::promptic::__private::PromptValue::view(&{place})")
                        }
                        None => "View::Undefined".to_owned(),
                    }
                }
            }
            ExprKind::Attr(inner, name) => {
                if let ExprKind::Name(ns) = &inner.kind
                    && let Some(attrs) = self.namespace_of(ns)
                {
                    return Some(match attrs.iter().find(|(a, _)| a == name) {
                        Some((_, local)) => format!("jc::read(&{local}, &mut steps)?"),
                        None => "View::Undefined".to_owned(),
                    });
                }
                if DICT_METHODS.contains(&name.as_str()) {
                    return self.refuse(
                        template,
                        expr.span.clone(),
                        &format!("`.{name}` read as an attribute (Jinja2 gives the dict's method)"),
                        &format!("read the key as `['{name}']`"),
                    );
                }
                self.key_of(template, inner, name)?
            }
            ExprKind::Loop(attr) => {
                let Some(this) = self.loops.last_mut() else {
                    return Some("View::Undefined".to_owned());
                };
                if !matches!(attr, LoopAttr::Index | LoopAttr::Index0 | LoopAttr::First) {
                    this.length_used = true;
                }
                let (i, n) = (&this.index, &this.length);
                match attr {
                    LoopAttr::Index => format!("View::Int({i} as i128 + 1)"),
                    LoopAttr::Index0 => format!("View::Int({i} as i128)"),
                    LoopAttr::First => format!("View::Bool({i} == 0)"),
                    LoopAttr::Last => format!("View::Bool({i} + 1 == {n})"),
                    LoopAttr::Length => format!("View::Int({n} as i128)"),
                    LoopAttr::Revindex => format!("View::Int(({n} - {i}) as i128)"),
                    LoopAttr::Revindex0 => format!("View::Int(({n} - {i} - 1) as i128)"),
                    LoopAttr::Depth => "View::Int(1)".to_owned(),
                    LoopAttr::Depth0 => "View::Int(0)".to_owned(),
                    LoopAttr::Previtem | LoopAttr::Nextitem => match &this.all {
                        Some(all) => {
                            let next = *attr == LoopAttr::Nextitem;
                            format!("jc::neighbour(&{all}, {i}, {next})")
                        }
                        // Read from an include: the run-time renderer keeps no neighbours
                        // for it.
                        None => "View::Undefined".to_owned(),
                    },
                }
            }
            ExprKind::Test(inner, which, negated) => {
                format!(
                    "View::Bool({})",
                    self.test(template, inner, *which, *negated)?
                )
            }
            // `x is test(arg)`.
            ExprKind::Op(Op::Is(which, negated), operands) => {
                let index = Test::ALL.iter().position(|t| t.1 == *which)?;
                let subject = self.subject(template, operands.first()?, *which)?;
                let arg = match operands.get(1) {
                    Some(arg) => format!("Some({})", self.data(template, arg)?),
                    None => "None".to_owned(),
                };
                let args: Vec<&Expr> = operands.iter().skip(1).collect();
                let site = self.site(template, &expr.span, &args);
                let tested = self.tested(format!(
                    "jc::test_with::<{index}>({negated}, {subject}, {arg}, &mut steps, {site})"
                ));
                format!("View::Bool({tested})")
            }
            // `loop.cycle(a, b, ...)`: the operand of the item's place, the others not read.
            ExprKind::Op(Op::Cycle, operands) if !operands.is_empty() => {
                let Some(this) = self.loops.last() else {
                    return Some("View::Undefined".to_owned());
                };
                let index = this.index.clone();
                let mut code = format!("match {index} % {} {{", operands.len());
                for (i, operand) in operands.iter().enumerate() {
                    let value = self.expr(template, operand)?;
                    if i + 1 == operands.len() {
                        let _ = write!(code, "_ => {value} }}");
                    } else {
                        let _ = write!(code, "{i} => {value},");
                    }
                }
                code
            }
            // `[a, b]`.
            ExprKind::List(items) | ExprKind::Tuple(items) => {
                let items = items
                    .iter()
                    .map(|item| self.expr(template, item))
                    .collect::<Option<Vec<_>>>()?;
                let kind = match expr.kind {
                    ExprKind::Tuple(_) => "Tuple",
                    _ => "List",
                };
                format!("View::{kind}(::std::vec![{}])", items.join(", "))
            }
            ExprKind::Not(inner) => {
                format!("View::Bool(!({}))", self.condition(template, inner)?)
            }
            // Python's `and`/`or` give one of their operands.
            ExprKind::And(a, b) => {
                let (a, b) = (self.expr(template, a)?, self.expr(template, b)?);
                format!("{{ let __l = {a}; if jc::truthy(&__l)? {{ {b} }} else {{ __l }} }}")
            }
            ExprKind::Or(a, b) => {
                let (a, b) = (self.expr(template, a)?, self.expr(template, b)?);
                format!("{{ let __l = {a}; if jc::truthy(&__l)? {{ __l }} else {{ {b} }} }}")
            }
            ExprKind::Compare(first, chain) if chain.len() == 1 => {
                let (op, right) = &chain[0];
                format!(
                    "View::Bool({})",
                    self.comparison(template, first, *op, right)?
                )
            }
            ExprKind::Compare(first, chain) => {
                let mut code = format!("{{ let __c0 = {};", self.place(template, first)?);
                for (i, (op, right)) in chain.iter().enumerate() {
                    let right = self.place(template, right)?;
                    let op = cmp_index(*op);
                    let next = i + 1;
                    let _ = write!(
                        code,
                        "let __c{next} = {right}; if !jc::compare({op}, __c{i}, __c{next})? {{ View::Bool(false) }} else {{"
                    );
                }
                code.push_str("View::Bool(true)");
                code.push_str(&"}".repeat(chain.len() + 1));
                code
            }
            ExprKind::Filter(inner, which, args) => match which {
                Filter::Default => {
                    let value = self.expr(template, inner)?;
                    let fallback = match args.first() {
                        Some(f) => self.expr(template, f)?,
                        None => "View::Text(::std::borrow::Cow::Borrowed(\"\"))".to_owned(),
                    };
                    let boolean = match args.get(1) {
                        Some(flag) => self.condition(template, flag)?,
                        None => "false".to_owned(),
                    };
                    format!(
                        "{{ let __v = {value}; let __f = {fallback}; let __b = {boolean}; jc::default(__v, __f, __b)? }}"
                    )
                }
                f if f.is_new()
                    || (matches!(f, Filter::Trim | Filter::Tojson) && !args.is_empty())
                    || (*f == Filter::Join && args.len() > 1) =>
                {
                    let call = self.filter_call(template, expr, inner, *f, args)?;
                    self.view_made(call)
                }
                Filter::Join => {
                    let sep = self.join_sep(template, args)?;
                    let code =
                        self.with_ref(template, inner, |v| format!("jc::filter({v}, 5, {sep})"))?;
                    format!("{code}?")
                }
                Filter::Length => {
                    let code = self.with_ref(template, inner, |v| format!("jc::length({v})"))?;
                    format!("{code}?")
                }
                other => {
                    let which = match other {
                        Filter::Upper => 0,
                        Filter::Lower => 1,
                        Filter::Trim => 2,
                        Filter::Length => 3,
                        _ => 4,
                    };
                    let code = self.with_ref(template, inner, |v| {
                        format!("jc::filter({v}, {which}, None)")
                    })?;
                    format!("{code}?")
                }
            },
            // `a['key']` reads the key as `a.key` does (no dict method is looked up);
            // `a[i]` an item of a list or a character of a text, from the end when `i`
            // is negative. Other keys are left to the run-time renderer.
            ExprKind::Item(inner, key) => match &key.kind {
                ExprKind::Literal(Data::String(key)) => self.key_of(template, inner, key)?,
                ExprKind::Literal(Data::Number(n)) if n.is_i64() => {
                    let i = n.as_i64()?;
                    let code =
                        self.with_ref(template, inner, |v| format!("jc::index({v}, {i})"))?;
                    format!("{code}?")
                }
                _ => {
                    let (value, key) = (self.data(template, inner)?, self.data(template, key)?);
                    format!("jc::key({value}, {key})?")
                }
            },
            ExprKind::Op(op, operands) if op_index(op).is_some() => {
                let call = self.op_call(template, expr, op, operands)?;
                self.view_made(call)
            }
            // `a if condition else b`: without `else`, an undefined value, as Jinja2's.
            ExprKind::Op(Op::IfElse, operands) => {
                let condition = self.condition(template, operands.first()?)?;
                let then = self.expr(template, operands.get(1)?)?;
                let otherwise = match operands.get(2) {
                    Some(e) => self.expr(template, e)?,
                    None => "View::Undefined".to_owned(),
                };
                format!("if {condition} {{ {then} }} else {{ {otherwise} }}")
            }
            ExprKind::StartsWith(inner, prefix) => {
                let (value, prefix) = (self.data(template, inner)?, self.data(template, prefix)?);
                let site = self.site(template, &expr.span, &[]);
                self.tested(format!("jc::starts_with({value}, {prefix}, {site})"))
            }
            ExprKind::Split(inner, sep_expr) => {
                let value = self.data(template, inner)?;
                // The run-time renderer checks the value is a string before it reads the
                // separator.
                let lenient = self.lenient;
                self.lenient = true;
                let sep = match sep_expr {
                    Some(sep) => self.data(template, sep).map(|sep| format!("Some({sep})")),
                    None => Some("None".to_owned()),
                };
                self.lenient = lenient;
                let args: Vec<&Expr> = sep_expr.iter().map(|s| &**s).collect();
                let site = self.site(template, &expr.span, &args);
                self.tested(format!("jc::split({value}, {}, {site})", sep?))
            }
            // A dict literal, built as the run-time renderer builds it, its entries
            // collected in the order written.
            ExprKind::Dict(_) => format!("jc::made({})?", self.data(template, expr)?),
            ExprKind::Items(_) => {
                return self.refuse(
                    template,
                    expr.span.clone(),
                    "`.items()` but as what a `for` loops over",
                    "loop over it: `{% for k, v in m.items() %}`",
                );
            }
            ExprKind::Op(Op::Namespace(_), _) => {
                return self.refuse(
                    template,
                    expr.span.clone(),
                    "a `namespace()` made inside an `if` and read after it, or used as a value",
                    "make the namespace before the `if` (`{% set ns = namespace(…) %}`), and set its attributes inside",
                );
            }
            ExprKind::Op(..) => {
                return self.refuse(
                    template,
                    expr.span.clone(),
                    "this expression",
                    "write it another way",
                );
            }
        })
    }
}

/// A comparison's index for [`compare`].
fn cmp_index(op: CmpOp) -> u8 {
    match op {
        CmpOp::Eq => 0,
        CmpOp::Ne => 1,
        CmpOp::Lt => 2,
        CmpOp::Le => 3,
        CmpOp::Gt => 4,
        CmpOp::Ge => 5,
        CmpOp::In => 6,
        CmpOp::NotIn => 7,
    }
}

/// A test's index for [`test`].
fn test_index(which: &Test) -> Option<u8> {
    Some(match which {
        Test::Defined => 0,
        Test::Undefined => 1,
        Test::None => 2,
        _ => return None,
    })
}

/// Adds to `assigned` the name and attribute of each `{% set name.attr %}` in `nodes`.
fn set_attrs(nodes: &[Node], assigned: &mut Vec<(String, String)>) {
    for node in nodes {
        match node {
            Node::SetAttr { name, attr, .. } => assigned.push((name.clone(), attr.clone())),
            other => {
                for body in other.bodies() {
                    set_attrs(body, assigned);
                }
            }
        }
    }
}

fn flush(pending: &mut String, out: &mut String, text: &mut usize) {
    if !pending.is_empty() {
        *text += pending.len();
        let _ = write!(out, "out.push_str({pending:?});");
        pending.clear();
    }
}

fn literal(value: &Data) -> Option<String> {
    Some(match value {
        Data::Null => "View::None".to_owned(),
        Data::Bool(b) => format!("View::Bool({b})"),
        Data::String(s) => format!("View::Text(::std::borrow::Cow::Borrowed({s:?}))"),
        Data::Number(n) => {
            if let Some(i) = n.as_i128() {
                format!("View::Int({i})")
            } else if n.is_f64() {
                format!("View::float(f64::from_bits({:#x}))", n.as_f64()?.to_bits())
            } else {
                return None;
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::PromptValue;
    use serde_json::Value;

    #[test]
    fn values_nested_past_the_depth_limit_are_left_to_the_run_time_renderer() {
        // Lists nested past the depth limit (which no value of a render gets past: a
        // user's value is read lazily, what a filter makes is held to the limit).
        let nested = |depth: usize| {
            let mut view = View::Int(1);
            for _ in 0..depth {
                view = View::List(vec![view]);
            }
            view
        };
        let deep = super::super::value::MAX_DEPTH + 50;
        assert!(own(nested(deep)).is_none());
        assert!(to_data(&nested(deep)).is_none());
        assert!(own(nested(10)).is_some());
        let shallow = View::List(vec![View::Text(Cow::Borrowed("a")), View::Int(2)]);
        assert!(matches!(own(shallow.clone()), Some(View::List(items)) if items.len() == 2));
        assert_eq!(
            to_data(&shallow),
            Some(Data::Array(vec![Data::from("a"), Data::from(2i128)]))
        );
    }

    #[test]
    fn integers_print_as_fmt_prints_them() {
        let cases = [
            0,
            7,
            -7,
            10,
            -10,
            99,
            1_000_000_007,
            i128::from(u64::MAX),
            -i128::from(u64::MAX),
            i128::from(u64::MAX) + 1,
            i128::from(i64::MIN),
            i128::MIN,
            i128::MAX,
        ];
        for i in cases {
            let mut out = String::from("x");
            write_int(&mut out, i);
            assert_eq!(out, format!("x{i}"));
        }
    }

    #[test]
    fn upper_and_lower_in_place_match_str_to_uppercase_and_to_lowercase() {
        let cases = [
            "",
            "plain ASCII 42",
            "mémoire ß",
            "ΟΔΥΣΣΕΥΣ ΣΑΣ",
            "Σ",
            "ascii first: ΣΑΣ, then ascii",
            "İstanbul ǅ ǈ",
            "ﬁ ŉ 日本語",
            "the Zürich Rates Desk",
        ];
        for s in cases {
            let (mut upper, mut lower) = (String::from(">"), String::from(">"));
            write_case(&mut upper, &View::Text(Cow::Borrowed(s)), true).expect("text");
            write_case(&mut lower, &View::Text(Cow::Borrowed(s)), false).expect("text");
            assert_eq!(upper, format!(">{}", s.to_uppercase()), "{s}");
            assert_eq!(lower, format!(">{}", s.to_lowercase()), "{s}");
        }
        assert_eq!(write_case(&mut String::new(), &View::Undefined, true), None);
    }

    // `(&Probe(x))` as the emitted code writes it: the borrow picks the typed impl.
    #[allow(clippy::needless_borrow)]
    #[test]
    fn typed_items_read_what_their_views_read() {
        #[derive(Clone)]
        struct Point(i32);
        impl PromptValue for Point {
            const SHAPE: crate::value::Shape = crate::value::Shape::Any;
            fn to_value(&self) -> Option<Value> {
                Some(serde_json::json!({ "x": self.0 }))
            }
            fn view(&self) -> View<'_> {
                View::Map(self)
            }
            const IN_PLACE: bool = true;
        }
        impl MapView for Point {
            fn get(&self, key: &str) -> View<'_> {
                if key == "x" {
                    View::Int(self.0.into())
                } else {
                    View::Undefined
                }
            }
            fn entries(&self) -> Vec<(Cow<'_, str>, View<'_>)> {
                vec![(Cow::Borrowed("x"), View::Int(self.0.into()))]
            }
            fn json(&self) -> Option<Value> {
                self.to_value()
            }
        }
        // A list of `Option`s: an absent item is `None`, whose attributes are not defined.
        let items = vec![Some(Point(1)), None, Some(Point(-3))];
        let typed: Vec<_> = (&Probe(&items)).jc_iter().expect("a list").collect();
        let viewed: Vec<_> = iter(&items.view()).expect("a list").collect();
        assert_eq!(typed.len(), viewed.len());
        for (t, v) in typed.iter().zip(&viewed) {
            // The item and its `x`, as JSON.
            let t = (to_json(&t.view()), t.attr("x").map(|a| to_json(&a)));
            let v = (
                to_json(&Var::view(v)),
                Var::attr(v, "x").map(|a| to_json(&a)),
            );
            assert_eq!(t, v);
        }
        assert_eq!(
            typed[1].attr("x").map(|a| matches!(a, View::Undefined)),
            Some(true)
        );
        // A map's absent values leave their keys out, in key order, counted exactly.
        let map = std::collections::BTreeMap::from([
            ("b".to_owned(), Some(2)),
            ("a".to_owned(), None),
            ("c".to_owned(), Some(0)),
        ]);
        let entries = (&Probe(&map)).jc_items().expect("in place");
        assert_eq!(entries.len(), 2);
        let typed: Vec<_> = entries
            .map(|(k, v)| (to_json(&k.view()), to_json(&v.view())))
            .collect();
        let viewed: Vec<_> = items_of(&map.view());
        assert_eq!(typed, viewed);
        // Values not read in place (a type whose view is opaque): the run-time renderer
        // renders; a `serde_json::Value` is read in place.
        struct Opaque;
        impl PromptValue for Opaque {
            const SHAPE: crate::value::Shape = crate::value::Shape::Any;
            fn to_value(&self) -> Option<Value> {
                Some(serde_json::json!(1))
            }
        }
        let opaque = std::collections::BTreeMap::from([("k".to_owned(), Opaque)]);
        assert!((&Probe(&opaque)).jc_items().is_none());
        let json = std::collections::BTreeMap::from([("k".to_owned(), serde_json::json!(1))]);
        assert!((&Probe(&json)).jc_items().is_some());
        // A field of another type loops through its view.
        let text = "ab";
        let chars: Vec<_> = (&Probe(&text))
            .jc_iter()
            .expect("a text's characters")
            .map(|c| to_json(&c))
            .collect();
        assert_eq!(
            chars,
            [Some(serde_json::json!("a")), Some(serde_json::json!("b"))]
        );
        // `join` of a typed list writes what the view's `join` writes.
        let (mut typed, mut viewed) = (String::new(), String::new());
        let sep = View::Text(Cow::Borrowed(", "));
        let words = vec![Some("x"), None, Some("ç")];
        (&Probe(&words)).jc_join(&mut typed, Some(&sep));
        write_join(&mut viewed, &words.view(), Some(&sep));
        assert_eq!(typed, viewed);
        assert_eq!(typed, "x, None, ç");
    }

    fn items_of(view: &View<'_>) -> Vec<(Option<Value>, Option<Value>)> {
        items(view)
            .expect("a map")
            .iter()
            .map(|(k, v)| (to_json(k), to_json(v)))
            .collect()
    }

    #[test]
    fn lists_read_in_place_give_what_collected_lists_give() {
        let items = vec![Some(1u8), None, Some(3)];
        let slice: &[Option<u8>] = &items;
        let array = [Some(1u8), None, Some(3)];
        let collected = list(items.iter());
        // A slice is read in place through a reference to it, as the derive reads a
        // `&[T]` field; `[T]` alone (a boxed slice) is collected.
        assert!(matches!(PromptValue::view(slice), View::List(_)));
        for view in [items.view(), PromptValue::view(&slice), array.view()] {
            assert!(matches!(view, View::Seq(_)));
            assert_eq!(to_json(&view), to_json(&collected));
            assert_eq!(text(&view), text(&collected));
            assert_eq!(truthy(&view), Some(true));
            assert_eq!(
                iter(&view).map(|i| i.map(|v| to_json(&v)).collect::<Vec<_>>()),
                iterate(&collected).map(|i| i.iter().map(to_json).collect::<Vec<_>>())
            );
            assert_eq!(iter(&view).map(|i| i.len()), Some(3));
            assert!(matches!(filter(&view, 3, None), Some(View::Int(3))));
        }
        let empty: Vec<u8> = Vec::new();
        assert_eq!(truthy(&empty.view()), Some(false));
        assert!(
            matches!(PromptValue::view(&slice), View::Seq(s) if matches!(s.at(3), View::Undefined))
        );
    }

    #[test]
    fn dicts_made_keep_their_order_wherever_they_are_read() {
        let made =
            Data::from_json(r#"{"b": 1, "a": {"y": [true, null], "x": "t"}}"#).expect("JSON");
        let dict = super::made(made.clone()).expect("a dict a view holds");
        assert!(matches!(dict, View::Dict(_)));
        // Printed, converted and looped over in the order it was made, not by key.
        assert_eq!(
            text(&dict).as_deref(),
            Some("{'b': 1, 'a': {'y': [True, None], 'x': 't'}}")
        );
        assert_eq!(to_data(&dict), Some(made.clone()));
        assert_eq!(to_data(&reborrow(&dict)), Some(made));
        let keys: Vec<_> = iterate(&dict)
            .expect("keys")
            .iter()
            .map(|k| text(k).expect("text"))
            .collect();
        assert_eq!(keys, ["b", "a"]);
        assert_eq!(items(&dict).map(|i| i.len()), Some(2));
        assert!(matches!(get(&dict, "b"), Some(View::Int(1))));
        assert!(attr(&dict, "items").is_none());
        assert!(matches!(get(&dict, "c"), Some(View::Undefined)));
        let inner = get(&dict, "a").expect("defined");
        assert_eq!(text(&get(&inner, "x").expect("x")).as_deref(), Some("t"));
        assert_eq!(truthy(&dict), Some(true));
        assert_eq!(
            truthy(&super::made(Data::Object(Default::default())).expect("{}")),
            Some(false)
        );
        // A tuple prints as Python prints one.
        let tuple = super::made(Data::Tuple(vec![Data::from(1usize)])).expect("a tuple");
        assert_eq!(text(&tuple).as_deref(), Some("(1,)"));
        assert_eq!(text(&reborrow(&tuple)).as_deref(), Some("(1,)"));
        // What a view cannot hold is left to the run-time renderer.
        let big =
            Data::from_json("[1e400, 123456789012345678901234567890123456789012]").expect("JSON");
        assert!(super::made(big).is_none());
    }

    /// The first line of what `compile` says of `template`, with where it points.
    fn refusal(template: &str) -> Option<String> {
        let templates = Templates::load(
            "main.j2",
            super::super::Options::default(),
            &mut |name: &str| Ok(crate::SourceFile::new(format!("prompts/{name}"), template)),
        )
        .expect("the template loads");
        let field = |name: &str| Some(format!("self.{name}"));
        let error = compile(&templates, "main.j2", &field).err()?.to_string();
        let mut lines = error.lines();
        Some(format!(
            "{} {}",
            lines.next().unwrap_or_default(),
            lines.next().unwrap_or_default().trim()
        ))
    }

    #[test]
    fn what_the_derive_does_not_compile_is_refused_at_its_place() {
        assert_eq!(
            refusal("{% for x in xs %}{{ loop.previtem }}{% endfor %}"),
            None
        );
        assert_eq!(
            refusal(
                "{% set ns = namespace(n=0) %}{% for x in xs %}{% set ns.n = ns.n + 1 %}{% endfor %}{{ ns.n }}"
            ),
            None
        );
        assert_eq!(
            refusal(
                "{% if xs %}{% set ns = namespace(n=0) %}{% set ns.n = 1 %}{{ ns.n }}{% endif %}"
            ),
            None
        );
        assert_eq!(
            refusal("a\n{% if xs %}{% set ns = namespace(n=0) %}{% endif %}{{ ns.n }}"),
            Some(
                "error: the derive does not compile a `namespace()` made inside an `if` and read after it, or used as a value --> prompts/main.j2:2:24"
                    .to_owned()
            )
        );
        assert_eq!(
            refusal("{% for a, b in xs %}{{ loop.nextitem }}{% endfor %}"),
            Some(
                "error: the derive does not compile `loop.previtem` and `loop.nextitem` in a loop that unpacks its items --> prompts/main.j2:1:16"
                    .to_owned()
            )
        );
        assert_eq!(
            refusal("{% set ns.a = 1 %}{% set ns = namespace(a=0) %}"),
            Some(
                "error: the derive does not compile `{% set ns.a %}` where `ns` is no namespace the template made before --> prompts/main.j2:1:8"
                    .to_owned()
            )
        );
        assert_eq!(
            refusal("{{ 123456789012345678901234567890123456789012 }}"),
            Some(
                "error: the derive does not compile an integer literal past 128 bits --> prompts/main.j2:1:4"
                    .to_owned()
            )
        );
    }
}
