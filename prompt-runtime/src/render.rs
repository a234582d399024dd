//! Stage 4, render: a resolved prompt plus values to text.
//!
//! Walking the parts ([`walk`]) is kept apart from collecting them ([`Sink`]): today the
//! sinks measure and fill one `String`; chat messages will be another sink. The text is
//! built in two passes, the first measuring the exact length, so that the output is
//! allocated once. Values are copied as they are, never scanned for placeholders.

use crate::case::{push_upper_first, upper_first_len};
use crate::identity::Identity;
use crate::meta::Meta;
use crate::resolve::{Part, Resolved, Test};
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
    /// Where the text's cacheable prefixes end: the byte offsets of the prompt's cache
    /// breakpoints, in order (see [`CacheBreakpoint`](crate::chat::CacheBreakpoint)).
    pub breakpoints: Vec<usize>,
}

impl PromptContent {
    /// The text as a one-message [`Chat`](crate::Chat) with the role given (`System` for
    /// an agent's instructions, `User` for a task), keeping the path and metadata: the
    /// form the client conversions take (see [`clients`](crate::clients)).
    ///
    /// ```
    /// use promptic::{Meta, PromptContent, Role};
    /// use std::borrow::Cow;
    ///
    /// let content = PromptContent {
    ///     text: "Summarize the day.".to_owned(),
    ///     path: Cow::Borrowed("prompts/daily.md"),
    ///     metadata: Cow::Owned(Meta::DEFAULT),
    ///     breakpoints: vec![10],
    /// };
    /// let chat = content.to_chat(Role::User);
    /// assert_eq!(chat.breakpoints, [promptic::chat::CacheBreakpoint { message: 0, offset: 10 }]);
    /// assert_eq!(chat.messages[0].content, "Summarize the day.");
    /// assert_eq!(chat.path, "prompts/daily.md");
    /// ```
    pub fn to_chat(&self, role: crate::chat::Role) -> crate::Chat {
        crate::Chat {
            messages: vec![crate::chat::Message::new(role, self.text.as_str())],
            path: self.path.clone(),
            metadata: self.metadata.clone(),
            // A breakpoint before any text marks nothing.
            breakpoints: self
                .breakpoints
                .iter()
                .filter(|&&offset| offset > 0)
                .map(|&offset| crate::chat::CacheBreakpoint { message: 0, offset })
                .collect(),
        }
    }
}

/// What a Markdown placeholder is filled with at render time: text, nothing, or a flag's
/// state for `{% if %}`. All a `$name` can take, so no data model: a value with lists,
/// dicts or numbers (a Jinja or dotprompt value, a context file's) is
/// [`value::Value`](crate::value::Value), and its text is what fills a placeholder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill<'a> {
    /// Text to insert.
    Text(&'a str),
    /// An optional variable with no value.
    Absent,
    /// A flag.
    Flag(bool),
}

/// The words a flag's value may be, for messages.
pub const FLAG_WORDS: &str = "`true`/`false`, `yes`/`no`, `on`/`off` or `1`/`0` (in any case)";

/// Reads a flag's value given as text (`--set verbose=no`, a JSON context's `false` or
/// `"off"`): `true`, `yes`, `on`, `1` are on and `false`, `no`, `off`, `0` are off, in
/// any case; anything else, the empty text too, is `None`, for the caller to refuse.
///
/// ```
/// use promptic::render::parse_flag;
///
/// assert_eq!(parse_flag("true"), Some(true));
/// assert_eq!(parse_flag("Yes"), Some(true));
/// assert_eq!(parse_flag("FALSE"), Some(false));
/// assert_eq!(parse_flag("0"), Some(false));
/// assert_eq!(parse_flag("off"), Some(false));
/// assert_eq!(parse_flag(""), None);
/// assert_eq!(parse_flag("maybe"), None);
/// ```
pub fn parse_flag(word: &str) -> Option<bool> {
    const ON: [&str; 4] = ["true", "yes", "on", "1"];
    const OFF: [&str; 4] = ["false", "no", "off", "0"];
    if ON.iter().any(|w| word.eq_ignore_ascii_case(w)) {
        Some(true)
    } else if OFF.iter().any(|w| word.eq_ignore_ascii_case(w)) {
        Some(false)
    } else {
        None
    }
}

/// Where rendered pieces go.
pub trait Sink {
    /// A piece of text, as it is.
    fn text(&mut self, text: &str);
    /// A value written with its first character uppercased.
    fn upper_first(&mut self, text: &str);
    /// A cache breakpoint: the cacheable prefix ends here.
    fn breakpoint(&mut self) {}
}

/// A rendered text and where its cache breakpoints fall.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Marked {
    /// The text.
    pub text: String,
    /// The byte offsets of its cache breakpoints.
    pub breakpoints: Vec<usize>,
}

impl Sink for Marked {
    fn text(&mut self, text: &str) {
        self.text.push_str(text);
    }
    fn upper_first(&mut self, text: &str) {
        push_upper_first(&mut self.text, text);
    }
    fn breakpoint(&mut self) {
        self.breakpoints.push(self.text.len());
    }
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
/// [`Identity::check_keys`]). `flags` are the line flags ([`Resolved::line_flags`] of
/// them), all `false` at the start of a render.
pub fn walk<'a, F>(
    parts: &'a [Part],
    value: &F,
    identity: &'a Identity,
    flags: &mut [bool],
    sink: &mut impl Sink,
) where
    F: Fn(usize) -> Fill<'a>,
{
    for part in parts {
        match part {
            Part::Text(text) => sink.text(text),
            Part::Context { index, upper } => {
                // A flag written as text reads as a `bool` displays.
                let text = match value(*index) {
                    Fill::Text(text) => text,
                    Fill::Flag(true) => "true",
                    Fill::Flag(false) => "false",
                    Fill::Absent => continue,
                };
                if *upper {
                    sink.upper_first(text);
                } else {
                    sink.text(text);
                }
            }
            Part::Identity { lookup, slot, .. } => {
                sink.text(identity.at(*slot, lookup).unwrap_or(""))
            }
            Part::Line { flag } => {
                // `flags` holds `Resolved::line_flags` entries: a shorter slice is a bug of
                // the caller, not something to render around.
                let seen = &mut flags[*flag];
                if *seen {
                    sink.text("\n");
                }
                *seen = true;
            }
            Part::If {
                test,
                then,
                otherwise,
                ..
            } => {
                let holds = match test {
                    Test::Set(i) => match value(*i) {
                        Fill::Text(_) => true,
                        Fill::Flag(set) => set,
                        Fill::Absent => false,
                    },
                    Test::Equals(i, expected) => value(*i) == Fill::Text(expected),
                };
                let branch = if holds { then } else { otherwise };
                walk(branch, value, identity, flags, sink);
            }
            // Sections split a chat prompt's parts into messages (see `render_messages`);
            // they write no text.
            Part::Section { .. } | Part::History { .. } => {}
            Part::CacheBreakpoint => sink.breakpoint(),
        }
    }
}

/// What the measuring pass of a render needs, made once per prompt: the parts without the
/// top-level text, whose length is summed once instead of on every render.
#[derive(Clone, Debug)]
pub(crate) struct Measured {
    parts: Vec<Part>,
    fixed: usize,
}

impl Measured {
    pub(crate) fn new(parts: &[Part]) -> Measured {
        let mut fixed = 0;
        let mut rest = Vec::new();
        for part in parts {
            match part {
                Part::Text(text) => fixed += text.len(),
                other => rest.push(other.clone()),
            }
        }
        Measured { parts: rest, fixed }
    }
}

/// [`render_to_string`] with the measuring pass prepared.
pub(crate) fn render_measured<'a, F>(
    resolved: &'a Resolved,
    measured: &'a Measured,
    value: &F,
    identity: &'a Identity,
) -> Marked
where
    F: Fn(usize) -> Fill<'a>,
{
    two_passes(resolved, &measured.parts, measured.fixed, value, identity)
}

/// Measures `measure` (plus `fixed` bytes), allocates once, writes `resolved`'s parts.
/// The line flags live on the stack for the usual few: the text is the one allocation.
fn two_passes<'a, F>(
    resolved: &'a Resolved,
    measure: &'a [Part],
    fixed: usize,
    value: &F,
    identity: &'a Identity,
) -> Marked
where
    F: Fn(usize) -> Fill<'a>,
{
    const ON_STACK: usize = 64;
    let mut inline = [false; ON_STACK];
    let mut heap = Vec::new();
    let flags: &mut [bool] = if resolved.line_flags <= ON_STACK {
        &mut inline[..resolved.line_flags]
    } else {
        heap.resize(resolved.line_flags, false);
        &mut heap
    };
    let mut length = Measure(fixed);
    walk(measure, value, identity, flags, &mut length);
    flags.fill(false);
    let mut out = Marked {
        text: String::with_capacity(length.0),
        breakpoints: Vec::new(),
    };
    walk(&resolved.parts, value, identity, flags, &mut out);
    out
}

/// Renders a resolved prompt into a `String` allocated once, at its exact size.
///
/// ```
/// use promptic::load::PromptFile;
/// use promptic::parse::{parse, ParseOptions};
/// use promptic::render::{Fill, render_to_string};
/// use promptic::resolve::{resolve, ContextVar, Schema, Templates, VarKind};
/// use promptic::Identity;
///
/// let file = PromptFile::from_text("p.md", "Day: $Day\n{% if note %}\nNote: $note\n{% endif %}").unwrap();
/// let (nodes, _) = parse(&file.source, file.body.clone(), ParseOptions::default());
/// let schema = Schema {
///     context: vec![ContextVar::new("day", VarKind::Text), ContextVar::new("note", VarKind::Optional)],
///     ..Schema::default()
/// };
/// let resolved = resolve(&file.source, &nodes, &schema, &Templates::new()).unwrap();
/// let values = [Fill::Text("friday"), Fill::Absent];
/// let text = render_to_string(&resolved, &|i| values[i], &Identity::default());
/// assert_eq!(text, "Day: Friday");
/// assert_eq!(text.capacity(), text.len());
/// ```
pub fn render_to_string<'a, F>(resolved: &'a Resolved, value: &F, identity: &'a Identity) -> String
where
    F: Fn(usize) -> Fill<'a>,
{
    render_marked(resolved, value, identity).text
}

/// [`render_to_string`], with where the cache breakpoints fall.
#[doc(hidden)]
pub fn render_marked<'a, F>(resolved: &'a Resolved, value: &F, identity: &'a Identity) -> Marked
where
    F: Fn(usize) -> Fill<'a>,
{
    two_passes(resolved, &resolved.parts, 0, value, identity)
}

/// Renders a chat prompt's parts as messages: the text before the first section is the
/// system message `system_prompt`, each section's content is one message (left out when
/// it renders empty), and a history section inserts the messages `history(i)` gives for
/// context variable `i`, the last `limit` of them when a limit other than 0 is given, each
/// tagged with the section's name. Each message's text is allocated once.
///
/// ```
/// use promptic::chat::{Message, Role};
/// use promptic::load::PromptFile;
/// use promptic::parse::parse;
/// use promptic::render::{Fill, render_messages};
/// use promptic::resolve::{resolve, ContextVar, Schema, Templates, VarKind};
/// use promptic::Identity;
///
/// let file = PromptFile::from_text(
///     "p.md",
///     "Be brief.\n{% history turns limit=1 %}\n{% user question %}\n$q",
/// ).unwrap();
/// let (nodes, _) = parse(&file.source, file.body.clone(), file.parse_options());
/// let schema = Schema {
///     context: vec![ContextVar::new("turns", VarKind::Messages), ContextVar::new("q", VarKind::Text)],
///     ..Schema::default()
/// };
/// let resolved = resolve(&file.source, &nodes, &schema, &Templates::new()).unwrap();
/// let turns = [Message::user("hi"), Message::assistant("hello")];
/// let values = [Fill::Absent, Fill::Text("And now?")];
/// let messages = render_messages(&resolved, &|i| values[i], &|_| &turns[..], &Identity::default());
/// let shown: Vec<(Role, &str, &str)> =
///     messages.iter().map(|m| (m.role, &*m.section, m.content.as_text().unwrap_or_default())).collect();
/// assert_eq!(shown, [
///     (Role::System, "system_prompt", "Be brief."),
///     (Role::Assistant, "turns", "hello"),
///     (Role::User, "question", "And now?"),
/// ]);
/// ```
pub fn render_messages<'a, F, H>(
    resolved: &'a Resolved,
    value: &F,
    history: &H,
    identity: &'a Identity,
) -> Vec<crate::chat::Message>
where
    F: Fn(usize) -> Fill<'a>,
    H: Fn(usize) -> &'a [crate::chat::Message],
{
    render_chat(resolved, value, history, identity).0
}

/// [`render_messages`], with where the cache breakpoints fall.
#[doc(hidden)]
pub fn render_chat<'a, F, H>(
    resolved: &'a Resolved,
    value: &F,
    history: &H,
    identity: &'a Identity,
) -> (Vec<crate::chat::Message>, Vec<crate::chat::CacheBreakpoint>)
where
    F: Fn(usize) -> Fill<'a>,
    H: Fn(usize) -> &'a [crate::chat::Message],
{
    use crate::chat::{CacheBreakpoint, Message, Role};
    let mut flags = vec![false; resolved.line_flags];
    let mut messages = Vec::new();
    let mut breakpoints = Vec::new();
    let parts = &resolved.parts;
    let mut emit = |role: Role, name: &str, parts: &'a [Part], messages: &mut Vec<Message>| {
        let mut measure = Measure::default();
        walk(parts, value, identity, &mut flags, &mut measure);
        flags.fill(false);
        let mut out = Marked {
            text: String::with_capacity(measure.0),
            breakpoints: Vec::new(),
        };
        if measure.0 > 0 || parts.contains(&Part::CacheBreakpoint) {
            walk(parts, value, identity, &mut flags, &mut out);
        }
        let message = Message::new(role, out.text).in_section(name.to_owned());
        CacheBreakpoint::push(messages, &mut breakpoints, message, &out.breakpoints);
    };
    let mut current: (Role, &str) = (Role::System, "system_prompt");
    let mut start = 0;
    for (i, part) in parts.iter().enumerate() {
        match part {
            Part::Section { role, name } => {
                emit(current.0, current.1, &parts[start..i], &mut messages);
                current = (*role, name);
                start = i + 1;
            }
            Part::History { index, limit, name } => {
                emit(current.0, current.1, &parts[start..i], &mut messages);
                let all = history(*index);
                let keep = match limit {
                    Some(n) if *n > 0 => usize::try_from(*n).unwrap_or(usize::MAX),
                    _ => all.len(),
                };
                for m in &all[all.len().saturating_sub(keep)..] {
                    messages.push(Message::new(m.role, m.content.clone()).in_section(name.clone()));
                }
                // Text after a history section and before the next one is a system message
                // of the history's name.
                current = (Role::System, name);
                start = i + 1;
            }
            _ => {}
        }
    }
    emit(current.0, current.1, &parts[start..], &mut messages);
    (messages, breakpoints)
}
