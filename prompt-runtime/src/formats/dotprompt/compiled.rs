//! The compiled render of a derived dotprompt prompt: [`compile`] turns a parsed prompt
//! (its body and the partials it includes, inlined) into Rust code that `#[derive(Prompt)]`
//! emits. The code reads the struct's fields in place (no JSON): `{{#each}}` over a list
//! field and `{{#with}}` of a field go typed, a derived struct's fields read by its static
//! match (`PromptValue::attr`, folded by the compiler), anything else through [`View`]s.
//! It writes what the run-time renderer writes (text, role, history, media and section
//! markers; Handlebars' addition of adjacent numbers and booleans; a standalone partial's
//! indentation) into one open `String`, and gives the same [`RenderedPrompt`]: a prompt
//! whose only markers are roles named by literals and `{{history}}` is cut into messages
//! as the markers come, by the rule the run-time renderer's `to_messages` follows for
//! such pieces (see [`Out`]); any other prompt (one that marks a `{{cacheBreakpoint}}`
//! among them) keeps the run-time renderer's pieces and cuts them with its own code, which
//! also finds where each breakpoint falls.
//!
//! Wherever it cannot be sure to do what the run-time renderer does, it gives `None` and
//! the derive renders with the run-time renderer instead: a value it cannot read in place
//! ([`View::Opaque`], or a variant it does not know), two objects or lists compared by
//! `{{#ifEquals}}` (JavaScript compares them by identity), a partial's arguments over
//! something that is not an object; and, in a prompt cut as it goes, text that would go
//! before a marker already written (a number run before a block that writes a role, an
//! indented partial that writes a marker). A render past the step or output bound it
//! stops itself where it writes text or counts nodes, with the run-time renderer's
//! message in `fail` ([`past_output`], [`past_steps`], [`put_stopped`]), so that a prompt
//! with nothing else to hand over links no parser and no run-time renderer; its metadata
//! is the JSON the derive wrote ([`metadata_of`]).
//!
//! A call of a helper named in the derive's `helpers(...)` leaves the render that reaches
//! it to the run-time renderer, which calls the helper's function.
//!
//! What [`compile`] refuses, with a [`Diagnostic`] at the construct that the derive
//! reports as a build error (a derived prompt never switches to the run-time renderer for
//! a whole prompt): `@metadata`, `../` in an `@` path, `this` inside a partial given
//! arguments, partials that include themselves, and prompts of more than [`MAX_NODES`]
//! nodes once partials are inlined (or nested more than [`MAX_NESTING`] deep). `this` at
//! the top and `@root` alone read the fields' values gathered into one map first
//! (`DotpromptPrompt::values`), the map the run-time renderer would get.
//!
//! The helpers the emitted code calls ([`Out::text`], [`Out::put`], [`if_view`], ...) are
//! ordinary `#[inline]` functions in a build with debug assertions (cargo's `dev`
//! profile), so that a debug build of a crate of prompts generates little code per
//! prompt, and `#[inline(always)]` with the assertions off.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::ast::{Block, BlockKind, Expr, HelperCall, HelperName, Node, PartialCall, Path, Span};
pub use super::render::Prim;
use super::render::{Piece, js_string, js_truthy, json_indent, stringify, well_formed_role};
use super::value::{Value, js_number};
use super::{DEFAULT_OUTPUT_LIMIT, Dotprompt, MAX_STEPS, Message, PromptMetadata, RenderedPrompt};
pub use crate::formats::jinja::compiled::{Item, MapView, SeqView, Slice, Var, View};
use crate::value::path::Digits;
use crate::{Diagnostic, SourceFile};

/// The numbers 0 to 99 as two digits each.
const DIGIT_PAIRS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/// The most nodes a compiled render may hold once partials are inlined.
pub const MAX_NODES: usize = 20_000;

/// How deep blocks and partials may nest in a compiled render.
pub const MAX_NESTING: usize = 48;

/// The output of a compiled render.
///
/// Text goes into one open `String` (`cur`). Where the prompt has only roles named by
/// literals and `{{history}}` as markers (the generator knows this: `lean`), the messages
/// are cut as the markers come, with the rule of the run-time renderer's `to_messages`
/// for such pieces: the text between two markers is one part of one message, dropped when
/// it is blank. Otherwise the markers and texts are kept as the run-time renderer's
/// pieces and cut with its own code at the end.
#[doc(hidden)]
pub struct Out<'h> {
    /// The open text: the last text piece, or the current message's text.
    cur: String,
    /// The pieces before `cur` (not `lean`).
    pieces: Vec<Piece>,
    /// The messages so far (`lean`).
    messages: Vec<Message>,
    /// The current message's role (`lean`).
    role: Cow<'static, str>,
    /// How many markers were written (`lean`): [`Out::mark`]'s first half.
    markers: usize,
    /// Whether `{{history}}` placed a non-empty history (`lean`).
    placed: bool,
    lean: bool,
    history: &'h [Message],
    /// The bytes written that are not in `cur`.
    done: usize,
    steps: usize,
    /// The capacity `cur` starts with.
    hint: usize,
    /// The longest text cut so far, kept in `last` for the next render's hint.
    longest: usize,
    last: &'static AtomicUsize,
}

/// One body's state: Handlebars adds a leading run of numbers and booleans until a
/// string joins it (see the run-time renderer's `nodes`).
#[doc(hidden)]
pub struct Body {
    pending: Option<Prim>,
    string: bool,
}

/// The items `{{#each}}` goes over: a list read in place, or the values (and the keys of
/// an object's entries) collected.
#[doc(hidden)]
pub struct Items<'a> {
    /// A list read in place: the items are taken from it by index.
    seq: Option<&'a (dyn SeqView + 'a)>,
    /// The keys, when the items are an object's entries.
    keys: Vec<Cow<'a, str>>,
    /// The values, when they were collected, taken in order.
    values: std::vec::IntoIter<View<'a>>,
    len: usize,
    /// The next item's index in `seq`.
    at: usize,
}

impl<'a> Items<'a> {
    fn collected(keys: Vec<Cow<'a, str>>, values: Vec<View<'a>>) -> Items<'a> {
        Items {
            seq: None,
            keys,
            len: values.len(),
            values: values.into_iter(),
            at: 0,
        }
    }

    /// How many items.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<'a> EachItems<'a> for Items<'a> {
    type Var = View<'a>;

    #[inline(always)]
    fn count(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn next_item(&mut self) -> Option<View<'a>> {
        match self.seq {
            Some(seq) => {
                let at = self.at;
                self.at += 1;
                Some(seq.at(at))
            }
            None => self.values.next(),
        }
    }

    #[inline(always)]
    fn key(&self, index: usize) -> View<'_> {
        match self.keys.get(index) {
            Some(key) => View::Text(Cow::Borrowed(key.as_ref())),
            // An array's item: Handlebars' `each` gives its index as its key.
            None => View::Int(index as i128),
        }
    }

    #[inline(always)]
    fn done(self) {
        if self.seq.is_some() {
            std::mem::forget(self);
        } else {
            drop_items(self);
        }
    }
}

/// What `{{#each}}` goes over, as the emitted code reads it: [`Items`] (through views) or
/// [`Typed`] (a list field's items, typed).
#[doc(hidden)]
pub trait EachItems<'a> {
    /// An item: a [`View`], or a typed [`Item`].
    type Var: Local<'a>;
    /// How many items.
    fn count(&self) -> usize;
    /// The next item.
    fn next_item(&mut self) -> Option<Self::Var>;
    /// `@key` of the item at `index`: an object entry's key, or an array item's index (as
    /// Handlebars' `each` gives it).
    fn key(&self, index: usize) -> View<'_>;
    /// Ends the items' life (without a call where they own nothing).
    fn done(self);
}

/// A list field's items, typed: what `{{#each field}}` goes over when the field's type is
/// a slice, a `Vec` or an array (see [`Probe`]). Reading `item.key` of a derived struct is
/// then a static match the compiler folds into the field, not a call through `dyn`.
#[doc(hidden)]
pub struct Typed<'a, T>(std::slice::Iter<'a, T>);

impl<'a, T: crate::value::PromptValue> EachItems<'a> for Typed<'a, T> {
    type Var = Item<'a, T>;

    #[inline(always)]
    fn count(&self) -> usize {
        self.0.len()
    }

    #[inline(always)]
    fn next_item(&mut self) -> Option<Item<'a, T>> {
        self.0.next().map(Item)
    }

    #[inline(always)]
    fn key(&self, index: usize) -> View<'_> {
        View::Int(index as i128)
    }

    #[inline(always)]
    fn done(self) {}
}

/// A field as the emitted code probes it for `{{#each}}`: `(&Probe(&self.orders))
/// .dc_each()` goes over a list field's items typed ([`TypedEach`]), and over any other
/// field through its view ([`ViewEach`]). Method resolution picks the typed impl where
/// the field's type has one (it takes `Probe` by reference, the view's `&Probe`), so the
/// choice costs nothing at run time; both give the same items.
#[doc(hidden)]
pub struct Probe<'a, T: ?Sized>(pub &'a T);

/// `{{#each}}` over a list field, typed.
#[doc(hidden)]
pub trait TypedEach<'a> {
    /// The items.
    type Items: EachItems<'a>;
    /// The items, in place.
    fn dc_each(&self) -> Option<Self::Items>;
}

impl<'a, S: Slice + ?Sized> TypedEach<'a> for Probe<'a, S> {
    type Items = Typed<'a, S::Item>;
    #[inline(always)]
    fn dc_each(&self) -> Option<Typed<'a, S::Item>> {
        Some(Typed(self.0.items().iter()))
    }
}

/// `{{#each}}` over any other field: through its view ([`each`]).
#[doc(hidden)]
pub trait ViewEach<'a> {
    /// The items.
    fn dc_each(&self) -> Option<Items<'a>>;
}

impl<'a, T: crate::value::PromptValue + ?Sized> ViewEach<'a> for &Probe<'a, T> {
    #[inline(always)]
    fn dc_each(&self) -> Option<Items<'a>> {
        each(self.0.view())
    }
}

/// A local of the emitted code that a scope's `this` is: a [`View`] (an item read through
/// views, `{{#with}}`'s value), or a typed [`Item`] of a list field.
#[doc(hidden)]
pub trait Local<'a> {
    /// The value, borrowed from the local.
    fn look(&self) -> View<'_>;
    /// `this.name` (as [`prop`]).
    fn prop(&self, name: &str) -> Option<View<'a>>;
    /// Ends the local's life (without a call where it owns nothing).
    fn done(self);
}

impl<'a> Local<'a> for View<'a> {
    #[inline(always)]
    fn look(&self) -> View<'_> {
        Var::view(self)
    }
    #[inline(always)]
    fn prop(&self, name: &str) -> Option<View<'a>> {
        prop(self, name)
    }
    #[inline(always)]
    fn done(self) {
        discard(self);
    }
}

impl<'a, T: crate::value::PromptValue + ?Sized> Local<'a> for Item<'a, T> {
    #[inline(always)]
    fn look(&self) -> View<'_> {
        Var::view(self)
    }
    #[inline(always)]
    fn prop(&self, name: &str) -> Option<View<'a>> {
        item_prop(self.0, name)
    }
    #[inline(always)]
    fn done(self) {}
}

/// `field.name` of a struct field: the derived struct's static match (see
/// `PromptValue::attr`), which the compiler folds when `name` is a constant; any other
/// value through its view, as [`prop`] reads it.
#[doc(hidden)]
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn field_prop<'a, T: crate::value::PromptValue + ?Sized>(
    field: &'a T,
    name: &str,
) -> Option<View<'a>> {
    read_prop(field, name, false)
}

/// `item.name` of a list's item: as [`field_prop`], an absent item being `null` (as the
/// list's view gives it).
#[doc(hidden)]
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn item_prop<'a, T: crate::value::PromptValue + ?Sized>(
    item: &'a T,
    name: &str,
) -> Option<View<'a>> {
    read_prop(item, name, true)
}

/// [`field_prop`] and [`item_prop`]: `item` says whether an absent value is a list's
/// item (an empty `Option` in a list is `null`).
#[inline(always)]
fn read_prop<'a, T: crate::value::PromptValue + ?Sized>(
    value: &'a T,
    name: &str,
    item: bool,
) -> Option<View<'a>> {
    if let Some(found) = struct_attr(value, name) {
        return Some(found);
    }
    match value.view() {
        View::Undefined if item => Some(View::None),
        view => at(view, name),
    }
}

/// A struct's field by its static match: for a struct, whose view is an object, that is
/// what [`prop`] reads (`MapView::get`). `None` for anything else.
#[inline(always)]
fn struct_attr<'a, T: crate::value::PromptValue + ?Sized>(
    value: &'a T,
    name: &str,
) -> Option<View<'a>> {
    match T::SHAPE {
        crate::value::Shape::Struct { .. } => match value.attr(name) {
            Some(View::Opaque) | None => None,
            found => found,
        },
        _ => None,
    }
}

#[inline(never)]
fn drop_items(items: Items<'_>) {
    drop(items);
}

impl<'h> Out<'h> {
    /// An empty output. `cur` starts with the capacity of the longest text of the last
    /// render (kept in `last`; at most 64 KiB), or `text` bytes for the first; `messages` is how many
    /// messages the template can make (before the history), for `lean`.
    pub fn new(
        last: &'static AtomicUsize,
        text: usize,
        history: &'h [Message],
        lean: bool,
        messages: usize,
    ) -> Out<'h> {
        let before = last.load(Ordering::Relaxed);
        Out {
            cur: String::new(),
            pieces: if lean {
                Vec::new()
            } else {
                Vec::with_capacity(8)
            },
            messages: if lean {
                Vec::with_capacity(messages + history.len())
            } else {
                Vec::new()
            },
            role: Cow::Borrowed("user"),
            markers: 0,
            placed: false,
            lean,
            history,
            done: 0,
            steps: 0,
            // One huge render does not make every later one reserve as much.
            hint: if before == 0 {
                text
            } else {
                before.min(1 << 16)
            },
            longest: 0,
            last,
        }
    }

    /// Counts `n` nodes rendered; `None` past the run-time renderer's bound, and nothing
    /// else (see [`past_steps`]).
    #[inline]
    pub fn steps(&mut self, n: usize) -> Option<()> {
        self.steps += n;
        (self.steps <= MAX_STEPS).then_some(())
    }

    /// Appends text; `None` past the output bound (checked when `cur` grows, and at the
    /// end), and nothing else (see [`past_output`]).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn text(&mut self, text: &str) -> Option<()> {
        if self.cur.capacity() - self.cur.len() < text.len() {
            self.grow(text.len())?;
        }
        self.cur.push_str(text);
        Some(())
    }

    /// Room for `more` bytes in `cur`: the hint at first, then as `String` grows.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, more: usize) -> Option<()> {
        if self.done + self.cur.len() + more > DEFAULT_OUTPUT_LIMIT {
            return None;
        }
        let room = if self.cur.capacity() == 0 {
            self.hint.max(more)
        } else {
            more
        };
        self.cur.reserve(room);
        Some(())
    }

    /// Where the output ends now: the markers (`lean`) or pieces before the open text,
    /// and the open text's length (see the run-time renderer's `mark`).
    #[inline]
    pub fn mark(&self) -> (usize, usize) {
        let before = if self.lean {
            self.markers
        } else {
            self.pieces.len()
        };
        (before, self.cur.len())
    }

    /// The open text as the last piece (not `lean`), for code that works on pieces.
    fn close(&mut self) {
        if !self.cur.is_empty() {
            self.longest = self.longest.max(self.cur.len());
            self.done += self.cur.len();
            self.pieces.push(Piece::Text(std::mem::take(&mut self.cur)));
        }
    }

    /// After [`Out::close`]: a text last piece is open again.
    fn reopen(&mut self) {
        if let Some(Piece::Text(_)) = self.pieces.last()
            && let Some(Piece::Text(text)) = self.pieces.pop()
        {
            self.done -= text.len();
            self.cur = text;
        }
    }

    /// The open text ends a message's content (`lean`): it is the message's one part, or
    /// dropped when blank.
    fn cut(&mut self) {
        self.longest = self.longest.max(self.cur.len());
        self.done += self.cur.len();
        if super::messages::is_blank(&self.cur) {
            self.cur.clear();
        } else {
            let role = std::mem::replace(&mut self.role, Cow::Borrowed("user"));
            self.messages.push(Message {
                role: role.into_owned(),
                content: vec![super::Part::from_text(std::mem::take(&mut self.cur))],
                metadata: None,
            });
        }
    }

    fn insert(&mut self, (piece, offset): (usize, usize), text: &str) -> Option<()> {
        if text.is_empty() {
            return Some(());
        }
        if self.lean {
            // Text before a marker written since is in a message already: left to the
            // run-time renderer.
            if piece != self.markers {
                return None;
            }
            self.cur.insert_str(offset, text);
        } else {
            self.close();
            self.done += text.len();
            match self.pieces.get_mut(piece) {
                Some(Piece::Text(t)) => t.insert_str(offset, text),
                _ => self.pieces.insert(piece, Piece::Text(text.to_owned())),
            }
            self.reopen();
        }
        (self.done + self.cur.len() <= DEFAULT_OUTPUT_LIMIT).then_some(())
    }

    /// `{{value}}` where a string is already being built: `String(value)`. Numbers,
    /// booleans and borrowed text are written without a call, and a view that owns
    /// nothing is not dropped. What stopped it: the output bound, or what the run-time
    /// renderer renders (see [`put_stopped`]).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn put(&mut self, view: View<'_>) -> Result<(), Stop> {
        let done = match &view {
            View::Text(Cow::Borrowed(s)) => self.text(s).ok_or(Stop::Output),
            View::Undefined | View::None => Ok(()),
            View::Int(i) => self.int(*i).ok_or(Stop::HandOver),
            View::Bool(b) => self
                .text(if *b { "true" } else { "false" })
                .ok_or(Stop::Output),
            View::Map(_) => self.text("[object Object]").ok_or(Stop::Output),
            _ => return self.put_other(view).ok_or(Stop::HandOver),
        };
        // What the arms above read owns nothing.
        std::mem::forget(view);
        done
    }

    #[inline(never)]
    fn put_other(&mut self, view: View<'_>) -> Option<()> {
        self.print(&view)
    }

    /// An integer's decimal digits: `None` past `i64` and `u64`, which the run-time
    /// renderer prints as floats.
    #[inline(always)]
    fn int(&mut self, i: i128) -> Option<()> {
        match u8::try_from(i) {
            Ok(small) if small < 100 => {
                // Digits from a table: copies of a constant length, where
                // `String::push` of a `char` is a call.
                let at = usize::from(small) * 2;
                if small < 10 {
                    self.text(DIGIT_PAIRS.get(at + 1..at + 2)?)
                } else {
                    self.text(DIGIT_PAIRS.get(at..at + 2)?)
                }
            }
            _ => self.big_int(i),
        }
    }

    #[inline(never)]
    fn big_int(&mut self, i: i128) -> Option<()> {
        if let Ok(n) = u64::try_from(i) {
            self.text(Digits::of(n).as_str())
        } else if let Ok(n) = i64::try_from(i) {
            self.text("-")?;
            self.text(Digits::of(n.unsigned_abs()).as_str())
        } else {
            None
        }
    }

    /// `{{value}}` where a string is already being built: `String(value)`.
    pub fn print(&mut self, view: &View<'_>) -> Option<()> {
        match view {
            View::Text(s) => self.text(s),
            View::Undefined | View::None => Some(()),
            View::Int(i) => self.int(*i),
            View::Bool(b) => self.text(if *b { "true" } else { "false" }),
            _ => {
                let mut text = String::new();
                write_js(&mut text, view, 0)?;
                self.text(&text)
            }
        }
    }

    /// `{{role "name"}}` (a literal) and `{{role value}}`.
    pub fn role(&mut self, role: Cow<'static, str>) -> Option<()> {
        if self.lean {
            // The generator makes a lean output only for well-formed literal roles.
            debug_assert!(well_formed_role(&role));
            self.cut();
            self.markers += 1;
            self.role = role;
            return Some(());
        }
        self.close();
        if well_formed_role(&role) {
            self.pieces.push(Piece::Role(role.into_owned()));
        } else {
            self.done += role.len();
            self.pieces.push(Piece::BadRole(role.into_owned()));
        }
        Some(())
    }

    /// `{{role value}}`.
    pub fn role_of(&mut self, view: &View<'_>) -> Option<()> {
        self.role(Cow::Owned(js_text(view)?))
    }

    /// `{{history}}`.
    pub fn history(&mut self) {
        if self.lean {
            self.cut();
            self.markers += 1;
            self.messages
                .extend(self.history.iter().map(super::messages::marked_history));
            self.placed |= !self.history.is_empty();
            self.role = Cow::Borrowed("model");
        } else {
            self.close();
            self.pieces.push(Piece::History);
        }
    }

    /// `{{cacheBreakpoint}}`: the cacheable prefix ends here (the generator makes no lean
    /// output for a prompt that marks one).
    pub fn breakpoint(&mut self) -> Option<()> {
        if self.lean {
            return None;
        }
        self.close();
        self.pieces.push(Piece::Breakpoint);
        Some(())
    }

    /// `{{section name}}`.
    pub fn section(&mut self, name: &View<'_>) -> Option<()> {
        let name = js_text(name)?;
        self.marker("<<<dotprompt:section ", name, |mut words| {
            Piece::Section(words.next().unwrap_or("").to_owned())
        })
    }

    /// `{{media url=… contentType=…}}`.
    pub fn media(&mut self, url: &View<'_>, content_type: &View<'_>) -> Option<()> {
        let mut body = js_text(url)?;
        let content_type = to_value(content_type)?;
        if let Some(ct) = content_type.filter(|v| js_truthy(Some(v))) {
            body.push(' ');
            body.push_str(&js_string(Some(&ct)));
        }
        self.marker("<<<dotprompt:media:url ", body, |mut words| {
            let url = words.next().unwrap_or("").to_owned();
            let content_type = words.next().filter(|w| !w.is_empty()).map(str::to_owned);
            Piece::Media { url, content_type }
        })
    }

    fn marker(
        &mut self,
        prefix: &str,
        body: String,
        piece: impl FnOnce(std::str::Split<'_, char>) -> Piece,
    ) -> Option<()> {
        match super::render::split_marker(prefix, body) {
            Err(text) => self.text(&text),
            Ok((words, rest)) => {
                // The generator makes a lean output only without media and sections.
                if self.lean {
                    return None;
                }
                self.close();
                self.done += words.len();
                self.pieces.push(piece(words.split(' ')));
                self.text(&rest)
            }
        }
    }

    /// `{{json value indent=…}}`.
    pub fn json(&mut self, value: &View<'_>, indent: &View<'_>) -> Option<()> {
        let indent = json_indent(to_value(indent)?.as_ref());
        let text = match to_value(value)? {
            None => "undefined".to_owned(),
            Some(value) => {
                let mut text = String::new();
                let room = DEFAULT_OUTPUT_LIMIT.saturating_sub(self.done + self.cur.len());
                stringify(&value, &indent, 0, &mut text, room);
                text
            }
        };
        self.text(&text)
    }

    /// Indents a standalone partial's output, which starts at `start` (a [`Out::mark`]).
    pub fn indent(&mut self, (start, text_start): (usize, usize), indent: &str) -> Option<()> {
        if self.lean {
            // A partial that wrote a marker: left to the run-time renderer.
            if start != self.markers {
                return None;
            }
            if self.cur.len() > text_start {
                let mut pieces = vec![Piece::Text(std::mem::take(&mut self.cur))];
                let room = DEFAULT_OUTPUT_LIMIT.saturating_sub(self.done);
                self.done +=
                    super::render::indent_pieces(&mut pieces, 0, text_start, indent, room)?;
                if let Some(Piece::Text(text)) = pieces.pop() {
                    self.cur = text;
                }
            }
        } else {
            self.close();
            let room = DEFAULT_OUTPUT_LIMIT.saturating_sub(self.done);
            self.done +=
                super::render::indent_pieces(&mut self.pieces, start, text_start, indent, room)?;
            self.reopen();
        }
        (self.done + self.cur.len() <= DEFAULT_OUTPUT_LIMIT).then_some(())
    }

    /// The rendered prompt: the messages (with the history), and `metadata`; `None` past
    /// the output bound, and nothing else (see [`past_output`]).
    pub fn finish(mut self, metadata: &Arc<PromptMetadata>) -> Option<RenderedPrompt> {
        if self.done + self.cur.len() > DEFAULT_OUTPUT_LIMIT {
            return None;
        }
        let (messages, breakpoints) = if self.lean {
            self.cut();
            if self.placed {
                (self.messages, Vec::new())
            } else {
                let messages =
                    super::messages::insert_history(self.messages, self.history, &mut []);
                (messages, Vec::new())
            }
        } else {
            self.close();
            super::messages::to_messages(self.pieces, self.history)
        };
        self.last.store(self.longest, Ordering::Relaxed);
        Some(RenderedPrompt {
            metadata: Arc::clone(metadata),
            messages,
            breakpoints,
        })
    }
}

impl Default for Body {
    fn default() -> Self {
        Body::new()
    }
}

impl Body {
    /// A body that has written nothing yet.
    #[inline]
    pub fn new() -> Body {
        Body {
            pending: None,
            string: false,
        }
    }

    /// Before a node that builds a string (text, a helper, `{{#each}}`): numbers and
    /// booleans added so far are printed first.
    #[inline]
    pub fn string(&mut self, out: &mut Out) -> Option<()> {
        self.string = true;
        match self.pending.take() {
            Some(before) => write_prim(out, &before),
            None => Some(()),
        }
    }

    /// `{{value}}`: a number or a boolean is added to the run, anything else printed.
    pub fn value(&mut self, out: &mut Out, view: &View<'_>) -> Option<()> {
        if self.string {
            return out.print(view);
        }
        match prim(view)? {
            Some(value) => {
                let prim = Prim::Value(value);
                self.pending = Some(match self.pending.take() {
                    None => prim,
                    Some(before) => Prim::Sum(before.number() + prim.number()),
                });
                Some(())
            }
            None => {
                self.string(out)?;
                out.print(view)
            }
        }
    }

    /// What a block or partial gave, its output having started at `mark`.
    pub fn result(
        &mut self,
        out: &mut Out,
        mark: (usize, usize),
        result: Option<Prim>,
    ) -> Option<()> {
        match result {
            Some(prim) if !self.string => {
                self.pending = Some(match self.pending.take() {
                    None => prim,
                    Some(before) => Prim::Sum(before.number() + prim.number()),
                });
                Some(())
            }
            Some(prim) => write_prim(out, &prim),
            None => {
                self.string = true;
                match self.pending.take() {
                    Some(before) => out.insert(mark, &before.text()),
                    None => Some(()),
                }
            }
        }
    }

    /// The body's value for its caller: `Some` when it held only numbers and booleans.
    #[inline]
    pub fn end(self) -> Option<Prim> {
        if self.string { None } else { self.pending }
    }
}

/// The metadata a render of `prompt` reports (without options): the render metadata
/// without `input`, as [`Dotprompt::render`] reports it, shared.
pub fn metadata(prompt: &Dotprompt) -> Arc<PromptMetadata> {
    Arc::clone(&prompt.rendered_metadata)
}

/// [`metadata`] as the derive wrote it (its JSON, dotprompt's order kept), read back: a
/// derived prompt's metadata without the parser. JSON the derive wrote always reads;
/// were it not to, the metadata would be empty rather than the render refused.
#[inline(never)]
pub fn metadata_of(json: &str) -> Arc<PromptMetadata> {
    Arc::new(serde_json::from_str(json).unwrap_or_default())
}

/// Why [`Out::put`] stopped.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Past the output bound.
    Output,
    /// A value the run-time renderer renders.
    HandOver,
}

/// [`Out::text`] or [`Out::finish`]'s `None` (the output bound, nothing else) as the
/// run-time renderer's error, put in `fail` here, in code the render inlines: the
/// compiler then sees that a render stopped there is never handed over.
#[inline(always)]
pub fn past_output<T>(
    done: Option<T>,
    fail: &mut Option<Box<Diagnostic>>,
    path: &'static str,
) -> Option<T> {
    if done.is_none() {
        *fail = Some(too_large(path));
    }
    done
}

/// [`Out::steps`]'s `None` (the step bound) as the run-time renderer's error in `fail`,
/// as [`past_output`] does.
#[inline(always)]
pub fn past_steps(
    done: Option<()>,
    fail: &mut Option<Box<Diagnostic>>,
    path: &'static str,
) -> Option<()> {
    if done.is_none() {
        *fail = Some(too_long(path));
    }
    done
}

/// [`Out::put`]'s result: past the output bound, the run-time renderer's error in `fail`
/// (as [`past_output`]); `None` without one where the run-time renderer renders.
#[inline(always)]
pub fn put_stopped(
    done: Result<(), Stop>,
    fail: &mut Option<Box<Diagnostic>>,
    path: &'static str,
) -> Option<()> {
    match done {
        Ok(()) => Some(()),
        Err(Stop::Output) => {
            *fail = Some(too_large(path));
            None
        }
        Err(Stop::HandOver) => None,
    }
}

/// The run-time renderer's error for a render past the output bound, in `path` (the
/// run-time renderer names the node; the compiled render checks as the text grows).
#[cold]
#[inline(never)]
fn too_large(path: &str) -> Box<Diagnostic> {
    Box::new(super::render::too_large(DEFAULT_OUTPUT_LIMIT).in_file(path))
}

/// The run-time renderer's error for a render past the step bound.
#[cold]
#[inline(never)]
fn too_long(path: &str) -> Box<Diagnostic> {
    Box::new(super::render::too_long(path))
}

/// Prints what a body gave that its caller does not add (a loop's iteration, the prompt).
#[inline]
pub fn flush(out: &mut Out, result: Option<Prim>) -> Option<()> {
    match result {
        Some(prim) => write_prim(out, &prim),
        None => Some(()),
    }
}

/// Prints a number or boolean as the run-time renderer does (`Prim::text`), integers
/// without an allocation.
fn write_prim(out: &mut Out, prim: &Prim) -> Option<()> {
    match prim {
        Prim::Value(Value::Number(n)) if n.is_i64() || n.is_u64() => {
            let i = n.as_i64().map(i128::from).or(n.as_u64().map(i128::from))?;
            out.int(i)
        }
        Prim::Value(Value::Bool(b)) => out.text(if *b { "true" } else { "false" }),
        other => out.text(&other.text()),
    }
}

/// A number or boolean view as the value the run-time renderer adds; `Some(None)` for any
/// other value, `None` when it cannot be told.
#[inline]
fn prim(view: &View<'_>) -> Option<Option<Value>> {
    Some(match view {
        View::Bool(b) => Some(Value::Bool(*b)),
        View::Int(i) if i64::try_from(*i).is_ok() => Some(Value::from(*i as i64)),
        View::Int(_) | View::Float(_) => to_value(view)?.filter(|v| matches!(v, Value::Number(_))),
        View::Undefined
        | View::None
        | View::Text(_)
        | View::List(_)
        | View::Seq(_)
        | View::Map(_) => None,
        _ => return None,
    })
}

/// The value the run-time renderer sees for a view (`Ok(None)`: JavaScript's
/// `undefined`); `None` when it cannot be told here.
pub fn to_value(view: &View<'_>) -> Option<Option<Value>> {
    Some(match view {
        View::Undefined => None,
        _ => Some(crate::value::js::from_json(
            crate::formats::jinja::compiled::to_json(view)?,
        )),
    })
}

/// `String(value)` as the helpers print their arguments (`undefined`, `null`).
fn js_text(view: &View<'_>) -> Option<String> {
    Some(match view {
        View::Text(s) => s.as_ref().to_owned(),
        _ => js_string(to_value(view)?.as_ref()),
    })
}

/// Whether `nodes` read a path with `../` (in a block inside them too; a partial's body
/// starts its own levels, its arguments are read here).
fn reads_up(nodes: &[Node]) -> bool {
    super::ast::any_expr(
        nodes,
        &|e| matches!(e, Expr::Path(p) if p.depth > 0),
        &|_| false,
    )
}

/// Whether a block's context `item` is the context `around` it, as Handlebars tells them
/// apart (`context != depths[0]`, JavaScript's `==`, as the run-time renderer's
/// `This::equals`): the same object or list (by address: an item read in place is the value
/// itself), or an equal text, number or boolean, an object or list against one of those as
/// its `String()`. Then the block is no `../` level of its own.
pub fn same_context(item: &View<'_>, around: &View<'_>) -> bool {
    fn whole(v: &View<'_>) -> bool {
        matches!(
            v,
            View::Map(_) | View::Seq(_) | View::List(_) | View::Dict(_) | View::Tuple(_)
        )
    }
    fn address(v: &View<'_>) -> Option<*const ()> {
        match v {
            View::Map(m) => Some(std::ptr::from_ref(*m).cast()),
            View::Seq(s) => Some(std::ptr::from_ref(*s).cast()),
            _ => None,
        }
    }
    fn number(v: &View<'_>) -> f64 {
        match v {
            View::Int(i) => *i as f64,
            View::Float(f) => *f,
            _ => f64::NAN,
        }
    }
    match (item, around) {
        (View::Opaque, _) | (_, View::Opaque) => false,
        (a, b) if whole(a) && whole(b) => address(a).is_some() && address(a) == address(b),
        (a, b) if whole(a) || whole(b) => {
            let (value, other) = if whole(a) { (a, b) } else { (b, a) };
            if let View::Map(_) | View::Dict(_) = value {
                // `[object Object]` reads as no number: only that text is equal to it.
                return matches!(other, View::Text(s) if s == "[object Object]");
            }
            let mut text = String::new();
            if write_js(&mut text, value, 0).is_none() {
                return false;
            }
            same_context(&View::Text(Cow::Owned(text)), other)
        }
        (View::None | View::Undefined, View::None | View::Undefined) => true,
        (View::None | View::Undefined, _) | (_, View::None | View::Undefined) => false,
        (View::Bool(a), View::Bool(b)) => a == b,
        (View::Bool(a), b) => same_context(&View::Int(i128::from(*a)), b),
        (a, View::Bool(b)) => same_context(a, &View::Int(i128::from(*b))),
        (View::Text(a), View::Text(b)) => a == b,
        (View::Text(s), n) | (n, View::Text(s)) => {
            number(n) == crate::value::js::string_to_number(s)
        }
        (a, b) => number(a) == number(b),
    }
}

/// `String(value)` as `{{value}}` prints it (`null` and `undefined` as nothing); arrays
/// joined with commas to the run-time renderer's depth bound.
fn write_js(out: &mut String, view: &View<'_>, depth: usize) -> Option<()> {
    match view {
        View::Undefined | View::None => {}
        View::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        View::Int(i) => {
            if let Ok(i) = i64::try_from(*i) {
                let _ = write!(out, "{i}");
            } else if let Ok(u) = u64::try_from(*i) {
                let _ = write!(out, "{u}");
            } else {
                return None;
            }
        }
        View::Float(_) => match to_value(view)? {
            Some(Value::Number(n)) => out.push_str(&js_number(&n)),
            Some(Value::Null) | None => {}
            Some(_) => return None,
        },
        View::Text(s) => out.push_str(s),
        View::List(items) => {
            if depth > super::MAX_DEPTH {
                return Some(());
            }
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_js(out, item, depth + 1)?;
            }
        }
        View::Seq(items) => {
            if depth > super::MAX_DEPTH {
                return Some(());
            }
            for i in 0..items.len() {
                if i > 0 {
                    out.push(',');
                }
                write_js(out, &items.at(i), depth + 1)?;
            }
        }
        View::Map(_) => out.push_str("[object Object]"),
        _ => return None,
    }
    Some(())
}

/// `value.name` as Handlebars reads it (see the run-time renderer's `property`).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn prop<'a>(view: &View<'a>, name: &str) -> Option<View<'a>> {
    match view {
        View::Map(m) => Some(m.get(name)),
        _ => prop_other(view, name),
    }
}

/// [`prop`] of a view that is given, not borrowed: it is dropped after (without a call
/// when it owns nothing).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn at<'a>(view: View<'a>, name: &str) -> Option<View<'a>> {
    let value = prop(&view, name);
    discard(view);
    value
}

/// Drops a view: one that owns nothing (all but owned text and a collected list) is
/// forgotten, where its drop glue would be a call.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn discard(view: View<'_>) {
    if matches!(view, View::Text(Cow::Owned(_)) | View::List(_)) {
        drop_owned(view);
    } else {
        std::mem::forget(view);
    }
}

#[inline(never)]
fn drop_owned(view: View<'_>) {
    drop(view);
}

/// [`prop`] of anything but an object.
#[inline(never)]
fn prop_other<'a>(view: &View<'a>, name: &str) -> Option<View<'a>> {
    Some(match view {
        View::None => View::None,
        View::Map(m) => m.get(name),
        View::List(items) => {
            if name == "length" {
                return Some(View::Int(items.len() as i128));
            }
            let index = name.parse::<usize>().ok().filter(|i| i.to_string() == name);
            match index.and_then(|i| items.get(i)) {
                Some(item) => item.clone(),
                None => View::Undefined,
            }
        }
        View::Seq(items) => {
            if name == "length" {
                return Some(View::Int(items.len() as i128));
            }
            let index = name.parse::<usize>().ok().filter(|i| i.to_string() == name);
            match index.filter(|&i| i < items.len()) {
                Some(i) => items.at(i),
                None => View::Undefined,
            }
        }
        View::Text(s) if name == "length" => View::Int(s.encode_utf16().count() as i128),
        View::Text(s) => match super::render::string_index(s, name) {
            Some(unit) => View::Text(Cow::Owned(unit)),
            None => View::Undefined,
        },
        View::Undefined | View::Bool(_) | View::Int(_) | View::Float(_) => View::Undefined,
        _ => return None,
    })
}

/// JavaScript truthiness.
#[inline]
pub fn truthy(view: &View<'_>) -> Option<bool> {
    Some(match view {
        View::Undefined | View::None => false,
        View::Bool(b) => *b,
        View::Int(i) => *i != 0,
        View::Float(f) => *f != 0.0 && !f.is_nan(),
        View::Text(s) => !s.is_empty(),
        View::List(_) | View::Seq(_) | View::Map(_) => true,
        _ => return None,
    })
}

/// Handlebars' `isEmpty`.
#[inline]
pub fn empty(view: &View<'_>) -> Option<bool> {
    Some(match view {
        View::List(items) => items.is_empty(),
        View::Seq(items) => items.is_empty(),
        View::Int(0) => false,
        View::Float(f) if *f == 0.0 => false,
        _ => !truthy(view)?,
    })
}

/// [`empty`] of a local's value (`{{#with}}`), dropping the value read without a call
/// where it owns nothing.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn local_empty<'a, L: Local<'a>>(local: &L) -> Option<bool> {
    let view = local.look();
    let empty = empty(&view);
    discard(view);
    empty
}

/// `{{#if value includeZero=…}}`: whether the body renders.
#[inline]
pub fn if_yes(view: &View<'_>, include_zero: &View<'_>) -> Option<bool> {
    let include_zero = truthy(include_zero)?;
    Some(!((!include_zero && !truthy(view)?) || empty(view)?))
}

/// `{{#if value}}` (no `includeZero`): whether the body renders.
#[inline]
pub fn if_plain(view: &View<'_>) -> Option<bool> {
    Some(truthy(view)? && !empty(view)?)
}

/// [`if_plain`] of a view that is given, not borrowed: it is dropped after (without a
/// call when it owns nothing).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn if_view(view: View<'_>) -> Option<bool> {
    let yes = match &view {
        View::Map(_) => Some(true),
        View::Text(s) => Some(!s.is_empty()),
        View::Bool(b) => Some(*b),
        View::Undefined | View::None => Some(false),
        other => if_plain(other),
    };
    discard(view);
    yes
}

/// `a === b`; `None` for two objects or lists (equal only when the same one).
pub fn strict_equals(a: &View<'_>, b: &View<'_>) -> Option<bool> {
    let composite = |v: &View<'_>| matches!(v, View::List(_) | View::Seq(_) | View::Map(_));
    if composite(a) && composite(b) {
        return None;
    }
    Some(match (to_value(a)?, to_value(b)?) {
        (None, None) => true,
        (Some(a), Some(b)) => a.strict_equals(&b),
        _ => false,
    })
}

/// Whether a view is an object (a partial's arguments go over it).
#[inline]
pub fn is_object(view: &View<'_>) -> Option<bool> {
    Some(match view {
        View::Map(_) => true,
        View::Undefined
        | View::None
        | View::Bool(_)
        | View::Int(_)
        | View::Float(_)
        | View::Text(_)
        | View::List(_)
        | View::Seq(_) => false,
        _ => return None,
    })
}

/// A partial's argument: `undefined` becomes `null`, as Handlebars' hash holds it.
#[inline]
pub fn argument(view: View<'_>) -> View<'_> {
    match view {
        View::Undefined => View::None,
        other => other,
    }
}

/// What `{{#each}}` goes over: a list's items (read in place), an object's entries (as
/// the run-time renderer sees them: by key), nothing for anything else.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn each(view: View<'_>) -> Option<Items<'_>> {
    match &view {
        View::Seq(items) => {
            let items = *items;
            // A list read in place owns nothing: no call of the view's drop glue.
            std::mem::forget(view);
            Some(Items {
                seq: Some(items),
                keys: Vec::new(),
                values: Vec::new().into_iter(),
                len: items.len(),
                at: 0,
            })
        }
        _ => each_other(view),
    }
}

/// [`each`] of anything but a list read in place.
#[inline(never)]
fn each_other(view: View<'_>) -> Option<Items<'_>> {
    Some(match view {
        View::List(values) => Items::collected(Vec::new(), values),
        View::Map(m) => {
            let entries = m.entries();
            if entries.iter().any(|(_, v)| matches!(v, View::Opaque)) {
                return None;
            }
            let (keys, values) = entries.into_iter().unzip();
            Items::collected(keys, values)
        }
        View::Undefined
        | View::None
        | View::Bool(_)
        | View::Int(_)
        | View::Float(_)
        | View::Text(_)
        | View::Seq(_) => Items::collected(Vec::new(), Vec::new()),
        _ => return None,
    })
}

/// `@first` or `@last` of the innermost loop, alone, as a Rust `bool` expression.
fn loop_flag(expr: Option<&Expr>, looping: Option<&Loop>) -> Option<String> {
    let (Some(Expr::Path(path)), Some(l)) = (expr, looping) else {
        return None;
    };
    if !path.data || path.parts.len() != 1 {
        return None;
    }
    match path.parts[0].as_str() {
        "first" => Some(format!("{} == 0", l.index)),
        "last" => Some(format!("{} + 1 == {}", l.index, l.count)),
        _ => None,
    }
}

/// Whether a body surely gives no run of numbers for its caller to add: it builds a
/// string (a text, a helper, a loop) or is empty.
fn surely_string(nodes: &[Node], prompt: &Dotprompt) -> bool {
    nodes.is_empty()
        || nodes.iter().any(|node| match node {
            Node::Text(_) => true,
            // `{{lookup}}` gives a value, which a number run adds.
            Node::Helper(call) => call.name != HelperName::Lookup,
            // An `{{#each}}` over items builds a string; over none it gives its `{{else}}`.
            Node::Block(block) => {
                block.kind == BlockKind::Each && surely_string(&block.inverse, prompt)
            }
            Node::Partial(call) => {
                !call.indent.is_empty() && prompt.partials.contains_key(&call.name)
            }
            Node::Value(_) => false,
        })
}

/// A scope's `this`: the whole input (the struct), or a value.
#[derive(Clone)]
enum This {
    Root,
    Local(String),
}

#[derive(Clone)]
struct Scope {
    this: This,
    /// A partial's `key=value` arguments: the key and the local holding its view.
    overlay: Option<Vec<(String, String)>>,
    /// The scope `../` reads: the one this one was entered from, where the run-time
    /// renderer enters a new one (`{{#each}}`, `{{#with}}` of another value); none in a
    /// partial's own top scope.
    parent: Option<Box<Scope>>,
    /// A block's context that may be the one around it (by JavaScript's `==`, decided
    /// when it renders): the Rust `bool` local that says it is, and so no `../` level.
    same: Option<String>,
}

impl Scope {
    /// A scope entered from `self`.
    fn child(&self, this: This, overlay: Option<Vec<(String, String)>>) -> Scope {
        Scope {
            this,
            overlay,
            same: None,
            parent: Some(Box::new(self.clone())),
        }
    }
}

/// The locals of the innermost `{{#each}}`: index, count, key (for objects).
#[derive(Clone)]
struct Loop {
    index: String,
    count: String,
    /// The local holding the `Items` (their keys).
    items: String,
}

struct Emitter<'p> {
    prompt: &'p Dotprompt,
    field: &'p dyn Fn(&str) -> Option<String>,
    next: usize,
    nodes: usize,
    depth: usize,
    text: usize,
    /// Whether the markers are only well-formed literal roles and `{{history}}` (see
    /// [`Out`]).
    lean: bool,
    /// How many literal roles.
    roles: usize,
    /// The files whose nodes are being emitted, innermost last: the prompt's, then each
    /// partial's as it is inlined.
    sources: Vec<SourceFile>,
    /// The partial calls that inlined each of `sources` past the first, each in the file
    /// before it: where a bound passed inside a partial is reported.
    calls: Vec<Span>,
    /// What the emitter refused first, at its place: what [`compile`] reports.
    refused: Option<Diagnostic>,
    /// Whether the prompt reads its whole input (`this` at the top, `@root` alone): the
    /// fields' values are then gathered into `__root` first, the map the run-time renderer
    /// would get.
    root: bool,
}

/// `{{lookup value key}}`, as Handlebars' `lookup`: a falsy value as it is, else its own
/// property named by the key as JavaScript converts it to a property key; `None` where the
/// key or the value is not read in place.
pub fn lookup<'a>(value: View<'a>, key: &View<'_>) -> Option<View<'a>> {
    if !truthy(&value)? {
        return Some(value);
    }
    let key = js_string(to_value(key)?.as_ref());
    at(value, &key)
}

/// Where the compiled code reaches a call of a helper named in the derive's
/// `helpers(...)`: `None`, so that the run-time renderer, which calls it, renders.
#[inline]
pub fn helper_at_run_time() -> Option<()> {
    None
}

/// The Rust code of the compiled render of `prompt`: a block of type `Option<Out>`, in
/// which `field(name)` gives the Rust place of a top-level name (a field of `self`, whose
/// type implements `PromptValue`; `None`: there is no such field), and `history` is the
/// `&[Message]` to render with. An error at the construct when the prompt uses something
/// not compiled (see the module's docs): the derive reports it as a build error.
pub fn compile(
    prompt: &Dotprompt,
    field: &dyn Fn(&str) -> Option<String>,
) -> Result<String, Diagnostic> {
    compile_with_root(
        prompt,
        field,
        "<Self as ::promptic::dotprompt::DotpromptPrompt>::values(self)",
    )
}

/// [`compile`] with `root`, the Rust expression of the whole input as a JSON map, for a
/// template that reads it whole (`{{json this}}`, `@root`): a derived struct's values, or
/// `prompt!`'s arguments'.
pub fn compile_with_root(
    prompt: &Dotprompt,
    field: &dyn Fn(&str) -> Option<String>,
    root: &str,
) -> Result<String, Diagnostic> {
    let mut emitter = Emitter {
        prompt,
        field,
        next: 0,
        nodes: 0,
        depth: 0,
        text: 0,
        lean: true,
        roles: 0,
        sources: vec![prompt.source().clone()],
        calls: Vec::new(),
        refused: None,
        root: false,
    };
    let scope = Scope {
        this: This::Root,
        overlay: None,
        parent: None,
        same: None,
    };
    let Some(body) = emitter.body(prompt.nodes(), &scope, None) else {
        return Err(emitter.refused.unwrap_or_else(|| {
            Diagnostic::new("the derive could not compile this prompt")
                .at(prompt.source(), 0..0)
                .with_help(
                    "this is a bug of promptic's code generator: render the prompt at run time (`formats::dotprompt::Dotprompt`) meanwhile",
                )
        }));
    };
    Ok(format!(
        "{{ use ::promptic::__private::dc; use ::promptic::__private::dc::View; \
         use ::promptic::__private::dc::{{EachItems as _, Local as _, TypedEach as _, ViewEach as _}}; \
         use ::promptic::__private::jc::{{IsValue as _, NotValue as _}}; \
         static LAST: ::std::sync::atomic::AtomicUsize = ::std::sync::atomic::AtomicUsize::new(0); \
         const __P: &str = {path:?}; \
         {root}let mut out = dc::Out::new(&LAST, {}, history, {}, {}); let __r = {body}; \
         dc::flush(&mut out, __r)?; ::core::option::Option::Some(out) }}",
        emitter.text.clamp(64, 1 << 16),
        emitter.lean,
        emitter.roles + 1,
        path = prompt.source().path(),
        root = if emitter.root {
            format!("let __root = {root}; ")
        } else {
            String::new()
        },
    ))
}

impl Emitter<'_> {
    /// `None`, noting that the derive does not compile `what`, at `span` of the file
    /// being emitted (the first such place is the one reported).
    fn refuse<T>(&mut self, span: Span, what: &str, help: &str) -> Option<T> {
        if self.refused.is_none()
            && let Some(source) = self.sources.last()
        {
            self.refused = Some(
                Diagnostic::new(format!("the derive does not compile {what}"))
                    .at(source, span)
                    .with_help(format!(
                        "{help}; a prompt the derive cannot compile renders at run time, through `formats::dotprompt::Dotprompt`"
                    )),
            );
        }
        None
    }

    /// [`refuse`](Self::refuse) for a bound a prompt passes once its partials are in
    /// place: at the partial call that passed it (in the file that makes the call), at the
    /// top of the prompt when no partial is in place.
    fn refuse_bound<T>(&mut self, what: &str, help: &str) -> Option<T> {
        let Some(call) = self.calls.last().cloned() else {
            return self.refuse(0..0, what, help);
        };
        let inner = self.sources.pop();
        self.refuse::<()>(call, what, help);
        self.sources.extend(inner);
        None
    }

    fn local(&mut self, what: &str) -> String {
        self.next += 1;
        format!("__{what}{}", self.next)
    }

    /// A body: a block of type `Option<Prim>`.
    ///
    /// Where the run-time renderer keeps a run of numbers and booleans (see [`Body`]), the
    /// code does only where it must: it knows when nothing can be pending (`Fresh`: at the
    /// start, or after nodes that gave nothing) and when a string is surely being built
    /// (`Str`), and uses a [`Body`] for the rest (`Maybe`).
    fn body(&mut self, nodes: &[Node], scope: &Scope, looping: Option<&Loop>) -> Option<String> {
        #[derive(Clone, Copy, PartialEq)]
        enum State {
            Fresh,
            Maybe,
            Str,
        }
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return self.refuse_bound(
                &format!("a prompt nested more than {MAX_NESTING} deep once its partials are in place (a partial that includes itself)"),
                "include fewer levels of partials",
            );
        }
        // As the run-time renderer counts: each node, and entering the body.
        let mut out = format!(
            "{{ dc::past_steps(out.steps({}), fail, __P)?;",
            nodes.len() + 1
        );
        let mut state = State::Fresh;
        let mut uses_body = false;
        for (n, node) in nodes.iter().enumerate() {
            self.nodes += 1;
            if self.nodes > MAX_NODES {
                return self.refuse_bound(
                    &format!(
                        "a prompt of more than {MAX_NODES} nodes once its partials are in place"
                    ),
                    "split it, or include its partials fewer times",
                );
            }
            // Before a node that builds a string: a pending run is printed first.
            let to_string = |out: &mut String, state: &mut State| {
                if *state == State::Maybe {
                    out.push_str("__b.string(&mut out)?;");
                }
                *state = State::Str;
            };
            match node {
                Node::Text(text) => {
                    to_string(&mut out, &mut state);
                    if !text.is_empty() {
                        self.text += text.len();
                        let _ = write!(out, "dc::past_output(out.text({text:?}), fail, __P)?;");
                    }
                }
                Node::Value(_)
                | Node::Helper(HelperCall {
                    name: HelperName::Lookup,
                    ..
                }) => {
                    let value = match node {
                        Node::Value(expr) => self.expr(expr, scope, looping)?,
                        // `{{lookup value key}}`: a value, as the run-time renderer adds
                        // or prints it.
                        Node::Helper(call) => {
                            let mut param = |i: usize| match call.params.get(i) {
                                Some(expr) => self.expr(expr, scope, looping),
                                None => Some("View::Undefined".to_owned()),
                            };
                            let (object, key) = (param(0)?, param(1)?);
                            format!("dc::lookup({object}, &{key})?")
                        }
                        _ => return None,
                    };
                    // A value first, then a node that builds a string: it is printed
                    // either way (a number alone in a run prints as itself).
                    let starter = match nodes.get(n + 1) {
                        Some(Node::Text(_)) => true,
                        Some(Node::Helper(call)) => call.name != HelperName::Lookup,
                        Some(Node::Block(block)) => {
                            block.kind == BlockKind::Each
                                && surely_string(&block.inverse, self.prompt)
                        }
                        _ => false,
                    };
                    if state == State::Str || (state == State::Fresh && starter) {
                        let _ = write!(out, "dc::put_stopped(out.put({value}), fail, __P)?;");
                        state = State::Str;
                    } else {
                        uses_body = true;
                        let _ = write!(out, "__b.value(&mut out, &{value})?;");
                        state = State::Maybe;
                    }
                }
                Node::Helper(call) => {
                    to_string(&mut out, &mut state);
                    self.helper(call, scope, looping, &mut out)?;
                }
                Node::Block(_) | Node::Partial(_) => {
                    let (code, surely_string) = match node {
                        Node::Block(block) if block.kind == BlockKind::Each => (
                            self.each(block, scope, looping)?,
                            surely_string(&block.inverse, self.prompt),
                        ),
                        Node::Block(block) => (
                            self.block(block, scope, looping)?,
                            surely_string(&block.body, self.prompt)
                                && surely_string(&block.inverse, self.prompt),
                        ),
                        Node::Partial(call) => (
                            self.partial(call, scope, looping)?,
                            !call.indent.is_empty()
                                || self
                                    .prompt
                                    .partials
                                    .get(&call.name)
                                    .is_some_and(|p| surely_string(&p.nodes, self.prompt)),
                        ),
                        _ => return None,
                    };
                    match state {
                        State::Str if surely_string => {
                            let _ = write!(
                                out,
                                "{{ let _: ::core::option::Option<dc::Prim> = {code}; }}"
                            );
                        }
                        State::Str => {
                            let _ =
                                write!(out, "{{ let __r = {code}; dc::flush(&mut out, __r)?; }}");
                        }
                        State::Fresh if surely_string => {
                            let _ = write!(
                                out,
                                "{{ let _: ::core::option::Option<dc::Prim> = {code}; }}"
                            );
                            state = State::Str;
                        }
                        State::Fresh | State::Maybe => {
                            uses_body = true;
                            let _ = write!(
                                out,
                                "{{ let __m = out.mark(); let __r = {code}; __b.result(&mut out, __m, __r)?; }}"
                            );
                            state = State::Maybe;
                        }
                    }
                }
            }
        }
        if uses_body {
            out.insert_str(1, " let mut __b = dc::Body::new();");
        }
        out.push_str(match state {
            State::Maybe => "__b.end() }",
            State::Fresh | State::Str => "::core::option::Option::<dc::Prim>::None }",
        });
        self.depth -= 1;
        Some(out)
    }

    /// An inline helper's statements.
    fn helper(
        &mut self,
        call: &super::ast::HelperCall,
        scope: &Scope,
        looping: Option<&Loop>,
        out: &mut String,
    ) -> Option<()> {
        let param = |e: &mut Self, i: usize| match call.params.get(i) {
            Some(expr) => e.expr(expr, scope, looping),
            None => Some("View::Undefined".to_owned()),
        };
        let hash = |e: &mut Self, key: &str| match call.hash.iter().find(|(k, _)| k == key) {
            Some((_, expr)) => e.expr(expr, scope, looping),
            None => Some("View::Undefined".to_owned()),
        };
        match call.name {
            HelperName::Role => match call.params.first() {
                Some(Expr::Literal(Some(Value::String(role)))) => {
                    if !well_formed_role(role) {
                        self.lean = false;
                    }
                    self.roles += 1;
                    let _ = write!(out, "out.role(::std::borrow::Cow::Borrowed({role:?}))?;");
                }
                _ => {
                    self.lean = false;
                    let role = param(self, 0)?;
                    let _ = write!(out, "out.role_of(&{role})?;");
                }
            },
            HelperName::History => out.push_str("out.history();"),
            HelperName::CacheBreakpoint => {
                self.lean = false;
                out.push_str("out.breakpoint()?;");
            }
            HelperName::Section => {
                self.lean = false;
                let name = param(self, 0)?;
                let _ = write!(out, "out.section(&{name})?;");
            }
            HelperName::Media => {
                self.lean = false;
                let (url, ct) = (hash(self, "url")?, hash(self, "contentType")?);
                let _ = write!(out, "out.media(&{url}, &{ct})?;");
            }
            HelperName::Json => {
                let (value, indent) = (param(self, 0)?, hash(self, "indent")?);
                let _ = write!(out, "out.json(&{value}, &{indent})?;");
            }
            // JavaScript writes the arguments to its console; the render gets nothing.
            HelperName::Log => {}
            // A helper named in the derive's `helpers(...)` is a function the run-time
            // renderer calls with the values as it holds them: a render that reaches
            // the call is left to it.
            HelperName::Custom => out.push_str("dc::helper_at_run_time()?;"),
            // Written by `body` as a value.
            HelperName::Lookup => return None,
        }
        Some(())
    }

    /// `if`, `unless`, `ifEquals`, `unlessEquals`, `with`: a block of type `Option<Prim>`.
    fn block(&mut self, block: &Block, scope: &Scope, looping: Option<&Loop>) -> Option<String> {
        let first = match block.params.first() {
            Some(expr) => self.expr(expr, scope, looping)?,
            None => "View::Undefined".to_owned(),
        };
        let condition = match block.kind {
            BlockKind::If | BlockKind::Unless => {
                let not = if block.kind == BlockKind::Unless {
                    "!"
                } else {
                    ""
                };
                let include_zero = block.hash.iter().find(|(k, _)| k == "includeZero");
                match (include_zero, loop_flag(block.params.first(), looping)) {
                    // `@first` and `@last` are booleans: the body renders when it is true.
                    (None, Some(flag)) => format!("{not}({flag})"),
                    (None, None) => format!("{not}dc::if_view({first})?"),
                    (Some((_, expr)), _) => {
                        let include_zero = self.expr(expr, scope, looping)?;
                        format!("{not}dc::if_yes(&{first}, &{include_zero})?")
                    }
                }
            }
            BlockKind::IfEquals | BlockKind::UnlessEquals => {
                let second = match block.params.get(1) {
                    Some(expr) => self.expr(expr, scope, looping)?,
                    None => "View::Undefined".to_owned(),
                };
                let not = if block.kind == BlockKind::UnlessEquals {
                    "!"
                } else {
                    ""
                };
                format!("{not}dc::strict_equals(&{first}, &{second})?")
            }
            BlockKind::With => {
                let value = self.local("w");
                // `{{#with this}}` (and `{{#with @root}}` at the top) stays at its level,
                // as the run-time renderer does for the very same value.
                let same = match block.params.first() {
                    Some(Expr::Path(p)) if p.depth == 0 => {
                        (!p.data && p.parts.is_empty())
                            || (p.data
                                && p.parts.len() == 1
                                && p.parts[0] == "root"
                                && matches!(scope.this, This::Root)
                                && scope.overlay.is_none())
                    }
                    _ => false,
                };
                let mut inner = scope.child(This::Local(value.clone()), None);
                let mut test = String::new();
                if same {
                    inner.parent = scope.parent.clone();
                } else if reads_up(&block.body) {
                    let flag = self.local("same");
                    let around = self.around(scope);
                    let _ = write!(
                        test,
                        "let {flag} = dc::same_context(&dc::Local::look(&{value}), &{around});"
                    );
                    inner.same = Some(flag);
                }
                let body = self.body(&block.body, &inner, looping)?;
                let inverse = self.body(&block.inverse, scope, looping)?;
                // A field is read typed (a struct's fields by its static match), as a
                // list's item is (an absent value, `null` then, is empty all the same).
                let first = match block.params.first() {
                    Some(Expr::Path(path)) => match self.root_place(path, scope) {
                        Some(place) => format!("dc::Item(&{place})"),
                        None => first,
                    },
                    _ => first,
                };
                return Some(format!(
                    "{{ let {value} = {first}; {test} \
                     let __w = if !dc::local_empty(&{value})? {body} else {inverse}; \
                     dc::Local::done({value}); __w }}"
                ));
            }
            BlockKind::Each => return None,
        };
        let body = self.body(&block.body, scope, looping)?;
        let inverse = self.body(&block.inverse, scope, looping)?;
        Some(format!("if {condition} {body} else {inverse}"))
    }

    /// `{{#each}}`: a block of type `Option<Prim>`: a string built from the items, or, with
    /// none, what the `{{else}}` gives (a number or a boolean as it is, as Handlebars'
    /// `each` returns its inverse's value).
    fn each(&mut self, block: &Block, scope: &Scope, looping: Option<&Loop>) -> Option<String> {
        // A field of a list type goes typed; anything else through its view.
        let first = match block.params.first() {
            Some(Expr::Path(path)) if self.root_place(path, scope).is_some() => {
                let place = self.root_place(path, scope)?;
                format!("(&dc::Probe(&{place})).dc_each()")
            }
            Some(expr) => format!("dc::each({})", self.expr(expr, scope, looping)?),
            None => "dc::each(View::Undefined)".to_owned(),
        };
        let (items, item) = (self.local("items"), self.local("item"));
        let inner_loop = Loop {
            index: self.local("i"),
            count: self.local("n"),
            items: items.clone(),
        };
        let mut inner = scope.child(This::Local(item.clone()), None);
        // Where the body reads `../`, whether an item is the context around it decides
        // what `../` reaches (Handlebars' `==`): tested per item.
        let same = if reads_up(&block.body) {
            let flag = self.local("same");
            let around = self.around(scope);
            inner.same = Some(flag.clone());
            format!("let {flag} = dc::same_context(&dc::Local::look(&{item}), &{around});")
        } else {
            String::new()
        };
        let body = self.body(&block.body, &inner, Some(&inner_loop))?;
        let inverse = self.body(&block.inverse, scope, looping)?;
        // A body that surely builds a string gives nothing to print after it.
        let run = |code: &str, nodes: &[Node]| {
            if surely_string(nodes, self.prompt) {
                format!("let _: ::core::option::Option<dc::Prim> = {code};")
            } else {
                format!("let __r = {code}; dc::flush(&mut out, __r)?;")
            }
        };
        let body_run = run(&body, &block.body);
        let Loop { index, count, .. } = &inner_loop;
        // A list is read in place; collected values are taken in order.
        Some(format!(
            "{{ let mut {items} = {first}?; let {count} = {items}.count(); \
             for {index} in 0..{count} {{ \
             let ::core::option::Option::Some({item}) = {items}.next_item() else {{ break; }}; \
             let _ = (&{index}, &{count}, &{item}); {same} {body_run} dc::Local::done({item}); }} \
             {items}.done(); if {count} == 0 {{ {inverse} }} else {{ ::core::option::Option::<dc::Prim>::None }} }}"
        ))
    }

    /// `{{> name key=value}}` inlined: a block of type `Option<Prim>`.
    fn partial(
        &mut self,
        call: &PartialCall,
        scope: &Scope,
        looping: Option<&Loop>,
    ) -> Option<String> {
        let partial = self.prompt.partials.get(&call.name)?.clone();
        let mut code = String::from("{");
        // `{{> name value}}`: the value is the partial's `this` (`undefined` too), a
        // level of its own; `{{> name this}}` outside a partial given arguments is the
        // same value, and stays at its level, as in the run-time renderer.
        let context = match &call.context {
            None => None,
            Some(Expr::Path(p))
                if p.depth == 0 && !p.data && p.parts.is_empty() && scope.overlay.is_none() =>
            {
                None
            }
            // A context that is not there stays `undefined` (`{{json this}}` prints it so).
            Some(expr) => {
                let value = self.expr(expr, scope, looping)?;
                let local = self.local("c");
                let _ = write!(code, "let {local} = {value};");
                Some(This::Local(local))
            }
        };
        let this = context.clone().unwrap_or_else(|| scope.this.clone());
        let overlay = if call.hash.is_empty() {
            None
        } else {
            if let This::Local(this) = &this {
                let _ = write!(
                    code,
                    "if !dc::is_object(&dc::Local::look(&{this}))? {{ return None; }}"
                );
            }
            let mut locals = Vec::new();
            for (key, expr) in &call.hash {
                let value = self.expr(expr, scope, looping)?;
                let local = self.local("a");
                let _ = write!(code, "let {local} = dc::argument({value});");
                locals.push((key.clone(), local));
            }
            // A later key wins, as in a JavaScript object.
            locals.reverse();
            Some(locals)
        };
        // A partial starts its own `../` levels (Handlebars runs it as a template of its
        // own): without a context or arguments, the caller's context as the caller reads
        // it; otherwise the one given, with the arguments over it.
        // The arguments' locals made here, dropped after the partial (not the caller's).
        let discard: String = overlay
            .iter()
            .flatten()
            .map(|(_, local)| format!("dc::discard({local});"))
            .collect();
        let inner = if context.is_none() && overlay.is_none() {
            Scope {
                parent: None,
                same: None,
                ..scope.clone()
            }
        } else {
            Scope {
                this,
                overlay,
                parent: None,
                same: None,
            }
        };
        self.sources.push(partial.source.clone());
        self.calls.push(call.span.clone());
        let body = self.body(&partial.nodes, &inner, looping);
        self.calls.pop();
        self.sources.pop();
        let body = body?;
        if call.indent.is_empty() {
            let _ = write!(code, "let __p = {body}; {discard} __p }}");
        } else {
            let _ = write!(
                code,
                "let __s = out.mark(); let __r = {body}; dc::flush(&mut out, __r)?; out.indent(__s, {:?})?; {discard} None }}",
                call.indent
            );
        }
        Some(code)
    }

    /// A Rust expression of type `View` (with `?` inside).
    fn expr(&mut self, expr: &Expr, scope: &Scope, looping: Option<&Loop>) -> Option<String> {
        match expr {
            Expr::Literal(value) => literal(value.as_ref()),
            Expr::Path(path) => self.path(path, scope, looping),
        }
    }

    /// `../` `levels` times from `scope`, then `here`: the scope that many levels up, read
    /// as its own `this` (past the top, nothing). A scope whose context may be the one
    /// around it ([`Scope::same`]) is a level only when it is not: then which scope is
    /// reached is counted when the prompt renders, over the flags on the way, and the
    /// path is written once for each scope it may reach (never once per way of reaching
    /// it, which would grow with the number of flags as a binomial).
    fn up(
        &mut self,
        here: &Path,
        scope: &Scope,
        levels: usize,
        looping: Option<&Loop>,
    ) -> Option<String> {
        let mut chain = vec![scope];
        while let Some(parent) = &chain[chain.len() - 1].parent {
            chain.push(parent);
        }
        let flags: Vec<String> = chain[..chain.len() - 1]
            .iter()
            .map(|s| s.same.clone().unwrap_or_else(|| "false".to_owned()))
            .collect();
        // No flag on the first `levels` scopes: each one is a level, whatever comes after.
        if flags.iter().take(levels).all(|f| f == "false") {
            return match chain.get(levels) {
                Some(target) => self.path(here, target, looping),
                None => Some("View::Undefined".to_owned()),
            };
        }
        let (i, left, f) = (self.local("i"), self.local("l"), self.local("f"));
        let mut arms = String::new();
        for (at, target) in chain.iter().enumerate().skip(levels) {
            let read = self.path(here, target, looping)?;
            let _ = write!(arms, "{at} => {read}, ");
        }
        Some(format!(
            "{{ let {f}: [bool; {n}] = [{flags}]; let mut {i} = 0usize; let mut {left} = {levels}usize; \
             while {left} > 0 && {i} < {n} {{ if !{f}[{i}] {{ {left} -= 1; }} {i} += 1; }} \
             if {left} > 0 {{ View::Undefined }} else {{ match {i} {{ {arms}_ => View::Undefined }} }} }}",
            n = flags.len(),
            flags = flags.join(", "),
        ))
    }

    /// The view of `scope`'s context, for [`same_context`]: a partial's context with
    /// arguments over it is an object of its own.
    fn around(&mut self, scope: &Scope) -> String {
        match (&scope.this, &scope.overlay) {
            (This::Local(this), None) => format!("dc::Local::look(&{this})"),
            (This::Root, None) => {
                self.root = true;
                "View::Map(&__root)".to_owned()
            }
            (_, Some(_)) => "View::Dict(::std::vec::Vec::new())".to_owned(),
        }
    }

    fn path(&mut self, path: &Path, scope: &Scope, looping: Option<&Loop>) -> Option<String> {
        if path.depth > 0 && path.data {
            let help = format!(
                "read the value from the top: `@root.{}`",
                path.parts.join(".")
            );
            return self.refuse(path.span.clone(), "`../` in an `@` path", &help);
        }
        if path.depth > 0 {
            let here = Path {
                depth: 0,
                ..path.clone()
            };
            return self.up(&here, scope, path.depth, looping);
        }
        let (mut code, rest): (String, &[String]) = if path.data {
            let (name, rest) = path.parts.split_first()?;
            let looped = looping.and_then(|l| match name.as_str() {
                "index" => Some(format!("View::Int({} as i128)", l.index)),
                "first" => Some(format!("View::Bool({} == 0)", l.index)),
                "last" => Some(format!("View::Bool({} + 1 == {})", l.index, l.count)),
                _ => None,
            });
            match (looped, name.as_str()) {
                (Some(code), _) => (code, rest),
                (None, "key") if looping.is_some() => {
                    // An array's items have no key: then it is the context's (none).
                    let l = looping?;
                    (format!("{}.key({})", l.items, l.index), rest)
                }
                (None, "root") => match rest.split_first() {
                    Some((first, rest)) => self.root_field(first, rest),
                    None => {
                        self.root = true;
                        ("View::Map(&__root)".to_owned(), rest)
                    }
                },
                (None, "metadata") => {
                    return self.refuse(
                        path.span.clone(),
                        "`@metadata`",
                        "give the value as an input field",
                    );
                }
                // No `@` data is given to a derived prompt.
                (None, _) => return Some("View::Undefined".to_owned()),
            }
        } else {
            let overlay = scope.overlay.as_ref().and_then(|o| {
                let first = path.parts.first()?;
                o.iter().find(|(k, _)| k == first)
            });
            match (overlay, path.parts.split_first(), &scope.this) {
                (Some((_, local)), Some((_, rest)), _) => match rest.split_first() {
                    // Read in place: the local is not cloned.
                    Some((next, rest)) => (format!("dc::prop(&{local}, {next:?})?"), rest),
                    None => (format!("dc::Local::look(&{local})"), rest),
                },
                (None, None, This::Local(this)) if scope.overlay.is_none() => {
                    (format!("dc::Local::look(&{this})"), &[][..])
                }
                (None, None, This::Root) if scope.overlay.is_none() => {
                    self.root = true;
                    ("View::Map(&__root)".to_owned(), &[][..])
                }
                (None, None, _) => {
                    return self.refuse(
                        path.span.clone(),
                        "`this` inside a partial given arguments",
                        "give the partial what it reads as arguments, and read them by name",
                    );
                }
                (None, Some((first, rest)), This::Root) => self.root_field(first, rest),
                (None, Some((first, rest)), This::Local(this)) => {
                    (format!("dc::Local::prop(&{this}, {first:?})?"), rest)
                }
                (Some(_), None, _) => return None,
            }
        };
        for part in rest {
            code = format!("dc::at({code}, {part:?})?");
        }
        Some(code)
    }

    /// A top-level name and what is read from it: its view, or its first part read by
    /// the field's own type (a derived struct's static match); and the parts left.
    fn root_field<'r>(&self, name: &str, rest: &'r [String]) -> (String, &'r [String]) {
        match ((self.field)(name), rest.split_first()) {
            (None, _) => ("View::Undefined".to_owned(), rest),
            (Some(place), Some((next, rest))) => {
                (format!("dc::field_prop(&{place}, {next:?})?"), rest)
            }
            (Some(place), None) => (
                format!("::promptic::__private::PromptValue::view(&{place})"),
                rest,
            ),
        }
    }

    /// The Rust place of the field that `path` names alone (`field`, `@root.field`), in
    /// `scope`.
    fn root_place(&self, path: &Path, scope: &Scope) -> Option<String> {
        if path.depth > 0 {
            return None;
        }
        let name = match (path.data, path.parts.as_slice()) {
            (true, [root, name]) if root == "root" => name,
            (false, [name]) => {
                let shadowed = scope
                    .overlay
                    .as_ref()
                    .is_some_and(|o| o.iter().any(|(k, _)| k == name));
                if !matches!(scope.this, This::Root) || shadowed {
                    return None;
                }
                name
            }
            _ => return None,
        };
        (self.field)(name)
    }
}

fn literal(value: Option<&Value>) -> Option<String> {
    Some(match value {
        None => "View::Undefined".to_owned(),
        Some(Value::Null) => "View::None".to_owned(),
        Some(Value::Bool(b)) => format!("View::Bool({b})"),
        Some(Value::String(s)) => format!("View::Text(::std::borrow::Cow::Borrowed({s:?}))"),
        Some(Value::Number(n)) => {
            if let Some(i) = n.as_i64() {
                format!("View::Int({i})")
            } else if let Some(u) = n.as_u64() {
                format!("View::Int({u})")
            } else {
                format!("View::Float(f64::from_bits({:#x}))", n.as_f64()?.to_bits())
            }
        }
        Some(Value::Array(_) | Value::Tuple(_) | Value::Object(_)) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_print_as_rust_prints_them() {
        static LAST: AtomicUsize = AtomicUsize::new(0);
        for n in [
            0,
            7,
            -5,
            10,
            99,
            100,
            255,
            -100,
            i128::from(i64::MIN),
            i128::from(u64::MAX),
        ] {
            let mut out = Out::new(&LAST, 0, &[], true, 1);
            assert_eq!(out.int(n), Some(()));
            assert_eq!(out.cur, n.to_string());
        }
        // Past `i64` and `u64` the run-time renderer prints a float: left to it.
        for n in [
            i128::from(u64::MAX) + 1,
            i128::from(i64::MIN) - 1,
            i128::MAX,
        ] {
            assert_eq!(Out::new(&LAST, 0, &[], true, 1).int(n), None);
        }
    }

    #[test]
    fn prompts_the_derive_does_not_compile_are_refused_at_the_construct() {
        let field = |name: &str| Some(format!("self.{name}"));
        let compiles = |source: &str| {
            let prompt = Dotprompt::parse(source).unwrap();
            compile(&prompt, &field).is_ok()
        };
        assert!(compiles("{{#each xs}}{{@index}}: {{this}}{{/each}}"));
        assert!(compiles("{{#each xs}}{{../title}}{{/each}}"));
        assert!(!compiles("{{@metadata.prompt.model}}"));
        assert!(compiles("{{json this}}"));
        assert!(compiles("{{@root}}{{#each this}}{{@key}}{{/each}}"));
        // A partial that includes itself cannot be inlined.
        let mut registry = super::super::Registry::new();
        registry
            .define_partial("tree", "{{name}}{{#each kids}}{{> tree}}{{/each}}")
            .unwrap();
        let prompt = registry.parse("{{> tree}}").unwrap();
        let refused = compile(&prompt, &field)
            .expect_err("not compiled")
            .to_string();
        assert!(refused.contains("nested more than"), "{refused}");
        // A bound passed once the partials are in place is reported at the partial call
        // that passed it, in the file that makes the call.
        assert!(refused.contains("--> _tree.prompt:1:23"), "{refused}");
        let mut registry = super::super::Registry::new();
        registry
            .define_partial("leaf", &"{{x}}.".repeat(150))
            .unwrap();
        registry
            .define_partial("row", &"{{> leaf}}\n".repeat(12))
            .unwrap();
        let prompt = registry.parse(&"{{> row}}\n".repeat(12)).unwrap();
        let refused = compile(&prompt, &field).expect_err("too large").to_string();
        assert!(refused.contains("of more than 20000 nodes"), "{refused}");
        assert!(refused.contains("--> _row.prompt:"), "{refused}");
        assert!(refused.contains("^^^^^^^^^^"), "{refused}");
        // Each refusal names the construct, at its place.
        let refused = |source: &str| {
            let prompt = Dotprompt::parse(source).unwrap();
            let error = compile(&prompt, &field)
                .expect_err("not compiled")
                .to_string();
            error.lines().next().unwrap_or_default().to_owned()
        };

        assert_eq!(
            refused("{{#each xs}}{{@metadata.prompt}}{{/each}}"),
            "error: the derive does not compile `@metadata`"
        );
        assert!(compiles("{{log 'x'}}done"));
    }
}
