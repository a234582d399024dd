//! Stage 4, render: a resolved prompt plus values to text.
//!
//! Walking the parts ([`walk`]) is kept apart from collecting them ([`Sink`]): today the
//! sinks measure and fill one `String`; chat messages will be another sink. The text is
//! built in two passes, the first measuring the exact length, so that the output is
//! allocated once. Values are copied as they are, never scanned for placeholders.

use crate::case::{push_upper_first, upper_first_len};
use crate::identity::Identity;
use crate::meta::Meta;
use crate::resolve::{Part, Test};
use std::borrow::Cow;

/// A rendered prompt: what solstone's `load_prompt` returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptContent {
    /// The text to send to a model.
    pub text: String,
    /// The prompt file it came from (`prompts/segment_synthesis.md`).
    pub path: Cow<'static, str>,
    /// The typed frontmatter. A compiled prompt borrows its constant (rendering copies
    /// nothing); a prompt checked at run time owns its own.
    pub metadata: Cow<'static, Meta>,
}

/// The value of one context variable at render time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// Text to insert.
    Text(&'a str),
    /// An optional variable with no value.
    Absent,
    /// A flag.
    Flag(bool),
}

/// Where rendered pieces go.
pub trait Sink {
    /// A piece of text, as it is.
    fn text(&mut self, text: &str);
    /// A value written with its first character uppercased.
    fn upper_first(&mut self, text: &str);
}

/// Counts the bytes a render will produce.
#[derive(Default)]
pub struct Measure(pub usize);

impl Sink for Measure {
    fn text(&mut self, text: &str) {
        self.0 += text.len();
    }
    fn upper_first(&mut self, text: &str) {
        self.0 += upper_first_len(text);
    }
}

impl Sink for String {
    fn text(&mut self, text: &str) {
        self.push_str(text);
    }
    fn upper_first(&mut self, text: &str) {
        push_upper_first(self, text);
    }
}

/// Feeds the rendered pieces of `parts` to `sink`. `value(i)` gives context variable `i`;
/// a missing identity key renders as empty text (check the identity up front with
/// [`Identity::check_keys`]).
pub fn walk<'a, F>(parts: &'a [Part], value: &F, identity: &'a Identity, sink: &mut impl Sink)
where
    F: Fn(usize) -> Value<'a>,
{
    for part in parts {
        match part {
            Part::Text(text) => sink.text(text),
            Part::Context { index, upper } => {
                if let Value::Text(text) = value(*index) {
                    if *upper {
                        sink.upper_first(text);
                    } else {
                        sink.text(text);
                    }
                }
            }
            Part::Identity { lookup, .. } => sink.text(identity.get(lookup).unwrap_or("")),
            Part::If {
                test,
                then,
                otherwise,
            } => {
                let holds = match test {
                    Test::Set(i) => match value(*i) {
                        Value::Text(_) => true,
                        Value::Flag(set) => set,
                        Value::Absent => false,
                    },
                    Test::Equals(i, expected) => value(*i) == Value::Text(expected),
                };
                walk(if holds { then } else { otherwise }, value, identity, sink);
            }
        }
    }
}

/// Renders `parts` into a `String` allocated once, at its exact size.
///
/// ```
/// use prompt_runtime::render::{render_to_string, Value};
/// use prompt_runtime::resolve::Part;
/// use prompt_runtime::Identity;
///
/// let parts = [Part::Text("Day: ".into()), Part::Context { index: 0, upper: true }];
/// let text = render_to_string(&parts, &|_| Value::Text("friday"), &Identity::default());
/// assert_eq!(text, "Day: Friday");
/// assert_eq!(text.capacity(), text.len());
/// ```
pub fn render_to_string<'a, F>(parts: &'a [Part], value: &F, identity: &'a Identity) -> String
where
    F: Fn(usize) -> Value<'a>,
{
    let mut measure = Measure::default();
    walk(parts, value, identity, &mut measure);
    let mut out = String::with_capacity(measure.0);
    walk(parts, value, identity, &mut out);
    out
}
