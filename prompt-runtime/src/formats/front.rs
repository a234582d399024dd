//! The one interface every prompt format is reached through.
//!
//! A [`Format`] says which files of a prompts folder are its own and loads a prompt
//! through the folder's guarded reader; the [`LoadedPrompt`] it gives says what values the
//! prompt reads and renders it with [`Values`] into the common [`Output`]. The CLI's
//! commands, `list`, `docs` and the value checks all go through it, so a format one of them
//! knows, they all know. [`FORMATS`](super::FORMATS) lists the formats.

use crate::chat::{Chat, Message};
use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use crate::identity::Identity;
use crate::load::Project;
use crate::meta::Meta;
use crate::render::PromptContent;
use crate::source::json::serialize_fields;
use crate::suggest::closest;
use serde_core::Serialize;
use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

/// What a file of a prompts folder is to a format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// A prompt, reached by this name (`agents/analyst` for `agents/analyst.md.j2`).
    Prompt(String),
    /// A file prompts read (a partial, a registry): never listed as a prompt.
    Part,
}

/// A kind of prompt file: Markdown (with chat prompts and keep agent prompts), Jinja,
/// dotprompt. One implementation per format, listed in [`FORMATS`](super::FORMATS).
pub trait Format: Send + Sync + 'static {
    /// `markdown`, `jinja`, `dotprompt`: as `promptic list --json` says it.
    fn name(&self) -> &'static str;
    /// How messages name its prompts (`a Jinja prompt`).
    fn title(&self) -> &'static str;
    /// The endings of its prompt files, in the order they are looked for.
    fn endings(&self) -> &'static [&'static str];
    /// The language of its files, as a Markdown code fence names it (`jinja`,
    /// `handlebars`).
    fn language(&self) -> &'static str;
    /// What the file at `rel` (relative to the folder, `/`-separated) is to this format, if
    /// it is its own. Folders the project keeps apart (the templates folder) are not
    /// offered.
    fn claim(&self, rel: &str) -> Option<Claim>;
    /// Loads and checks prompt `name` (without its file ending). Every file it reads goes
    /// through the folder's guarded reader.
    fn load(&self, project: &Project, name: &str) -> Result<Box<dyn LoadedPrompt>, Diagnostics>;
    /// Whether it reads `project`'s folder whole, in a layout of its own (a PromptEngine
    /// store's `_meta/prompt_manifest.json`): then it alone reads the folder, names its
    /// prompts itself ([`Format::list`]) and every name of the folder is its to load.
    fn whole_folder(&self, project: &Project) -> bool {
        let _ = project;
        false
    }
    /// The prompts of a folder it reads whole: each name and its file (relative to the
    /// folder), in its own order.
    fn list(&self, project: &Project) -> Result<Vec<(String, String)>, Diagnostics> {
        let _ = project;
        Ok(Vec::new())
    }
    /// Which of the prompts it claimed other prompts read as parts (a Jinja template
    /// another includes): known only once they are read.
    fn included(&self, project: &Project, prompts: &[String]) -> Vec<String> {
        let _ = (project, prompts);
        Vec::new()
    }
}

/// A checked prompt of any format.
pub trait LoadedPrompt: Send + Sync {
    /// Its name (`agents/analyst`).
    fn name(&self) -> &str;
    /// Its file as messages show it (`prompts/agents/analyst.md.j2`).
    fn path(&self) -> &str;
    /// Its format.
    fn format(&self) -> &'static dyn Format;
    /// Every file it read besides its own (templates, includes, partials, registries), by
    /// path relative to the folder: to embed and to watch.
    fn files(&self) -> Vec<String> {
        Vec::new()
    }
    /// The files of [`files`](Self::files) whose text it takes in: templates, includes,
    /// partials (not registries such as `schemas.json`), for `list`.
    fn parts(&self) -> Vec<String> {
        Vec::new()
    }
    /// The values it reads, in the order it reads them first. The one source for value
    /// checks, `list` and `docs`.
    fn reads(&self) -> &[ValueUse];
    /// A hex digest of what it renders from (its file and every file it reads), the same
    /// on every OS and release: `Render::VERSION` of a derived prompt, and `version` in
    /// `promptic list --json`, for tracing, evaluations and cache keys.
    fn version(&self) -> String;
    /// What the file declares for the model call.
    fn meta(&self) -> &Meta;
    /// Where the file declares its output schema (`property` `None`), or one of the
    /// schema's top-level properties: the file and the span, for a diagnostic about the
    /// answer's type. `None` for a format without output schemas.
    fn output_schema_span(&self, property: Option<&str>) -> Option<(SourceFile, Range<usize>)> {
        let _ = property;
        None
    }
    /// Which inputs besides values it takes.
    fn takes(&self) -> Takes {
        Takes::default()
    }
    /// Renders with `values`. A value it does not read (given by the program or by a
    /// flag; a context file may hold more), a required one missing, or one of the wrong
    /// type is an error before anything renders.
    fn render(&self, values: &Values) -> Result<Output, Diagnostics>;
    /// The render as JSON: `{"text", "path", "metadata"}`, or `{"messages", "path",
    /// "metadata"}` for a chat; a format with a JSON shape of its own (dotprompt's render
    /// result) gives that. Pretty-printed, keys in their documented order.
    fn render_json(&self, values: &Values) -> Result<String, Diagnostics> {
        Ok(self.render(values)?.to_json())
    }
    /// The render as a reader sees it: the text, or each message under a header.
    fn render_log(&self, values: &Values) -> Result<String, Diagnostics> {
        Ok(self.render(values)?.log())
    }
    /// What a render with `values` leaves out without an error, to tell the reader (a keep
    /// binding without a value renders as nothing, as in keep).
    fn notes(&self, values: &Values) -> Vec<String> {
        let _ = values;
        Vec::new()
    }
    /// What the prompt's file likely says other than it means, though it renders (a
    /// frontmatter the model would receive as text, a misspelt-looking name): the
    /// warnings `promptic check` gives for it, which `render`, `tokens` and `diff` print
    /// too. Empty for a format without such checks.
    fn warnings(&self) -> Vec<Diagnostic> {
        Vec::new()
    }
    /// What `#[derive(Prompt)]` of this prompt would refuse to compile (a construct its
    /// compiled render does not have, at its place), which the run-time renderer renders
    /// all the same: for `promptic check` to say so before a build does. `None` for a
    /// prompt the derive compiles, and for a format whose derive compiles everything.
    fn derive_refusal(&self) -> Option<Diagnostic> {
        None
    }
    /// The prompt with every registered either-or muted (its lean branch left out), and
    /// each registration as the file writes it; `None` for a format without guidance
    /// fences.
    fn without_either_ors(&self) -> Option<(Box<dyn LoadedPrompt>, Vec<String>)> {
        None
    }
}

/// The digest of [`LoadedPrompt::version`]: of each file a prompt reads, by its name with
/// its text (the prompt's own first), and of anything else its render depends on.
///
/// ```
/// use promptic::formats::version_of;
///
/// let a = version_of([("greet.md.j2", "Hi {{ who }}"), ("sig.j2", "-- A")]);
/// assert_eq!(a.len(), 16);
/// assert_ne!(a, version_of([("greet.md.j2", "Hi {{ who }}"), ("sig.j2", "-- B")]));
/// // A name and its text are not run together.
/// assert_ne!(version_of([("ab", "c")]), version_of([("a", "bc")]));
/// ```
pub fn version_of<'a>(parts: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut hash = crate::digest::Fnv::new();
    hash.feed(b"promptic version 1\0");
    for (name, text) in parts {
        hash.feed(name.as_bytes())
            .feed(b"\0")
            .feed(text.as_bytes())
            .feed(b"\0");
    }
    hash.hex()
}

/// Inputs besides values that a prompt takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Takes {
    /// An [`Identity`] (Markdown prompts that read identity keys).
    pub identity: bool,
    /// A conversation history (chat prompts with history sections).
    pub history: bool,
    /// dotprompt's whole data argument (`input`, `context`, `messages`, `options`).
    pub data: bool,
}

/// One value a prompt reads. Serialized as `{"name", "kind", "required", "paths", "at"}`
/// (`at` is `null` when the prompt's text does not read it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueUse {
    /// Its name (the first name of a path: `user` for `user.name`).
    pub name: String,
    /// What it must be: `text`, `number`, `integer`, `boolean`, `list`, `object`, or
    /// `any`.
    pub kind: &'static str,
    /// Whether a render needs it.
    pub required: bool,
    /// The paths the prompt reads into it, written from its name (`user.name`,
    /// `steps[…].title` for a key of every item), each once, in the order first read;
    /// empty when the prompt reads it only whole.
    pub paths: Vec<String>,
    /// Where the prompt's files read it: first, or, for a Jinja value that is required,
    /// first where it must have a value (outside every guard and default). `None` for a
    /// value no text reads (an input only its schema declares, an identity key) and for
    /// a PromptEngine store's values, which the store's files hold in JSON strings.
    pub at: Option<Place>,
}

/// A place in a prompt's files: where a value is first read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file as messages show it (`prompts/components/user.j2`).
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The bytes of the read in the file.
    pub span: Range<usize>,
}

impl Place {
    /// The place of `span` in `source`.
    pub fn new(source: &SourceFile, span: Range<usize>) -> Place {
        let (line, column) = source.line_col(span.start);
        Place {
            path: source.path().to_owned(),
            line,
            column,
            span,
        }
    }
}

impl From<&crate::resolve::Use> for Place {
    fn from(u: &crate::resolve::Use) -> Place {
        Place {
            path: u.path.clone(),
            line: u.line,
            column: u.col,
            span: u.span.clone(),
        }
    }
}

/// `path:line:column`, as messages and `promptic list --json` write a place.
impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.path, self.line, self.column)
    }
}

serialize_fields!(Place { path, line, column });

impl ValueUse {
    /// A value of kind `kind`, read whole.
    pub fn new(name: impl Into<String>, kind: &'static str, required: bool) -> ValueUse {
        ValueUse {
            name: name.into(),
            kind,
            required,
            paths: Vec::new(),
            at: None,
        }
    }

    /// The same value, first read at `place`.
    pub fn read_at(mut self, place: Place) -> ValueUse {
        self.at = Some(place);
        self
    }

    /// The same value, read at `paths` too (repeats dropped, the first kept in place).
    pub fn with_paths(mut self, paths: impl IntoIterator<Item = String>) -> ValueUse {
        let mut seen: std::collections::HashSet<String> = self.paths.iter().cloned().collect();
        for path in paths {
            if seen.insert(path.clone()) {
                self.paths.push(path);
            }
        }
        self
    }
}

/// A rendered prompt of any format.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// A text, with its path and metadata.
    Text(PromptContent),
    /// Messages with roles.
    Chat(Chat),
}

impl Output {
    /// The prompt file it came from.
    pub fn path(&self) -> &str {
        match self {
            Output::Text(content) => &content.path,
            Output::Chat(chat) => &chat.path,
        }
    }

    /// What the file declares.
    pub fn meta(&self) -> &Meta {
        match self {
            Output::Text(content) => &content.metadata,
            Output::Chat(chat) => &chat.metadata,
        }
    }

    /// What a model is sent as text: the text, or each message's text parts (media parts
    /// are not text).
    pub fn contents(&self) -> Vec<&str> {
        match self {
            Output::Text(content) => vec![content.text.as_str()],
            Output::Chat(chat) => chat
                .messages
                .iter()
                .flat_map(|m| m.content.parts())
                .filter_map(|part| match part {
                    crate::chat::PartRef::Text(text) => Some(text),
                    crate::chat::PartRef::Media(_) => None,
                })
                .collect(),
        }
    }

    /// The output as messages, for a chat API (and the client conversions, which take a
    /// [`Chat`]): a chat as it is, a text as one message of `role` (with its cache
    /// breakpoints), so that a prompt of any format is sent the same way.
    ///
    /// ```
    /// use promptic::{Meta, Output, PromptContent, Role};
    /// use std::borrow::Cow;
    ///
    /// let text = Output::Text(PromptContent {
    ///     text: "Summarize the day.".to_owned(),
    ///     path: Cow::Borrowed("prompts/daily.md"),
    ///     metadata: Cow::Owned(Meta::DEFAULT),
    ///     breakpoints: Vec::new(),
    /// });
    /// let chat = text.to_chat(Role::User);
    /// assert_eq!(chat.messages.len(), 1);
    /// assert_eq!(chat.messages[0].role, Role::User);
    /// assert_eq!(chat.path, "prompts/daily.md");
    /// let chat = Output::Chat(chat);
    /// assert_eq!(chat.to_chat(Role::System), chat.clone().into_chat(Role::System));
    /// ```
    pub fn to_chat(&self, role: crate::chat::Role) -> Chat {
        match self {
            Output::Text(content) => content.to_chat(role),
            Output::Chat(chat) => chat.clone(),
        }
    }

    /// [`to_chat`](Output::to_chat), without copying a chat.
    pub fn into_chat(self, role: crate::chat::Role) -> Chat {
        match self {
            Output::Text(content) => content.to_chat(role),
            Output::Chat(chat) => chat,
        }
    }

    /// What a reader sees: the text, or the chat's log form.
    pub fn log(&self) -> String {
        match self {
            Output::Text(content) => content.text.clone(),
            Output::Chat(chat) => chat.to_string(),
        }
    }

    /// `{"text", "path", "metadata"}` or `{"messages", "path", "metadata"}`, pretty-printed;
    /// with `"breakpoints"` when the prompt marks cache breakpoints: for each, where it
    /// falls (`"message"` for a chat, `"offset"`, in bytes of that text) and the
    /// `"prefix_hash"` of everything before it (see [`Chat::prefix_hash`]).
    pub fn to_json(&self) -> String {
        let json = match self {
            Output::Text(c) => {
                let chat = c.to_chat(crate::chat::Role::System);
                serde_json::to_string_pretty(&OutputJson {
                    body: Body::Text(&c.text),
                    path: &c.path,
                    metadata: &c.metadata,
                    breakpoints: chat
                        .breakpoints
                        .iter()
                        .map(|&b| Breakpoint {
                            message: None,
                            offset: b.offset,
                            prefix_hash: chat.prefix_hash(b),
                        })
                        .collect(),
                })
            }
            Output::Chat(c) => serde_json::to_string_pretty(&OutputJson {
                body: Body::Messages(&c.messages),
                path: &c.path,
                metadata: &c.metadata,
                breakpoints: c
                    .breakpoints
                    .iter()
                    .map(|&b| Breakpoint {
                        message: Some(b.message),
                        offset: b.offset,
                        prefix_hash: c.prefix_hash(b),
                    })
                    .collect(),
            }),
        };
        json.unwrap_or_default()
    }
}

serialize_fields!(ValueUse {
    name,
    kind,
    required,
    paths,
    at
});

/// [`Output::to_json`]'s shape.
struct OutputJson<'a> {
    body: Body<'a>,
    path: &'a str,
    metadata: &'a Meta,
    breakpoints: Vec<Breakpoint>,
}

enum Body<'a> {
    Text(&'a str),
    Messages(&'a [Message]),
}

struct Breakpoint {
    /// The message, for a chat.
    message: Option<usize>,
    offset: usize,
    prefix_hash: String,
}

impl Serialize for OutputJson<'_> {
    fn serialize<S: serde_core::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde_core::ser::SerializeMap;
        let mut out = serializer.serialize_map(None)?;
        match self.body {
            Body::Text(text) => out.serialize_entry("text", text)?,
            Body::Messages(messages) => out.serialize_entry("messages", messages)?,
        }
        out.serialize_entry("path", self.path)?;
        out.serialize_entry("metadata", self.metadata)?;
        if !self.breakpoints.is_empty() {
            out.serialize_entry("breakpoints", &self.breakpoints)?;
        }
        out.end()
    }
}

impl Serialize for Breakpoint {
    fn serialize<S: serde_core::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde_core::ser::SerializeMap;
        let mut out = serializer.serialize_map(None)?;
        if let Some(message) = self.message {
            out.serialize_entry("message", &message)?;
        }
        out.serialize_entry("offset", &self.offset)?;
        out.serialize_entry("prefix_hash", &self.prefix_hash)?;
        out.end()
    }
}

/// Where a value came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The program gave it.
    Program,
    /// A flag gave it as text (`--set NAME=VALUE`); the flag is `--set`.
    Flag(String),
    /// A key of a JSON file (`--context FILE.json`), which may hold values a prompt does
    /// not read: one file serves many prompts.
    File(Arc<SourceFile>),
}

/// One value given.
#[derive(Clone, Debug, PartialEq)]
pub struct Given {
    /// The name it is given by.
    pub name: String,
    /// Its value.
    pub value: GivenValue,
    /// Who gave it.
    pub origin: Origin,
    /// Where a file holds it.
    pub span: Range<usize>,
}

/// A value as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GivenValue {
    /// Text, as a flag gives it; a format reads it as its type asks (`--set n=3` is the
    /// number 3 for an input whose schema says `integer`).
    Text(String),
    /// JSON, as written (numbers keep their text: `1e3` stays `1e3`).
    Json(String),
    /// A value the program gave that serde could not write as JSON (a map whose keys are
    /// not text), with serde's reason: every render refuses it, as nothing stands for it.
    Unwritable(String),
}

impl Given {
    /// How messages say where it came from: `` `--set name=value` ``, `` the key `name`
    /// of `ctx.json` ``, `` `name` ``.
    pub fn origin_text(&self) -> String {
        let name = &self.name;
        match (&self.origin, &self.value) {
            (Origin::Flag(flag), GivenValue::Text(text)) => format!("`{flag} {name}={text}`"),
            (Origin::Flag(flag), GivenValue::Json(json)) => format!("`{flag} {name}={json}`"),
            (Origin::File(file), _) => format!("the key `{name}` of `{}`", file.path()),
            (Origin::Program | Origin::Flag(_), _) => format!("`{name}`"),
        }
    }

    /// The text of a flag that names a path (`--set user.name=Ada`), which a format may
    /// read as one key of a value.
    pub(crate) fn dotted_flag(&self) -> Option<&str> {
        match (&self.origin, &self.value) {
            (Origin::Flag(_), GivenValue::Text(text)) if self.name.contains('.') => Some(text),
            _ => None,
        }
    }

    /// The value a dotted flag that could not be set meant: its name's root, or the value
    /// of `reads` that the root misspells.
    pub(crate) fn meant<'a>(&'a self, reads: &'a [ValueUse]) -> &'a str {
        let root = self.name.split('.').next().unwrap_or_default();
        crate::suggest::closest(root, reads.iter().map(|r| r.name.as_str())).unwrap_or(root)
    }

    /// `d`, the error for this value that the prompt does not read, at the key that gave
    /// it when a file did (`"ordr"` in the file), with a way out for a file that serves
    /// other prompts too.
    pub(crate) fn at_key(&self, d: Diagnostic, reads: &[ValueUse]) -> Diagnostic {
        if !matches!(self.origin, Origin::File(_)) {
            return d;
        }
        self.at_its_key(d).with_note(format!(
            "if the file gives `{}` to another prompt, write `\"{}\": null` in it to leave this prompt's value out",
            self.name,
            self.meant(reads)
        ))
    }

    /// The error for a value the program gave that serde could not write as JSON.
    pub(crate) fn unwritable(&self, why: &str) -> Diagnostic {
        Diagnostic::new(format!(
            "the value {} cannot be written as JSON: {why}",
            self.origin_text()
        ))
        .with_help("give a value serde writes as JSON (a map keyed by text); `Values::try_json` says so where the value is given")
    }

    /// The error for a JSON value no reader takes (one nested past the readers' depth, as
    /// a program may give it), at the key that gave it when a file did.
    pub(crate) fn unreadable(&self, why: &str) -> Diagnostic {
        let d = Diagnostic::new(format!("{} cannot be read: {why}", self.origin_text()))
            .with_help("a value may nest lists and objects at most 128 deep");
        self.at_its_key(d)
    }

    /// `d` at the key that gave this value, when a file gave it.
    pub(crate) fn at_its_key(&self, d: Diagnostic) -> Diagnostic {
        match &self.origin {
            Origin::File(file) => {
                let key = crate::source::json::key_span(file.text(), self.span.start);
                d.at(file, key)
            }
            _ => d,
        }
    }

    /// Whether a prompt that does not read it must refuse it (all but a file's keys).
    pub fn must_be_read(&self) -> bool {
        !matches!(self.origin, Origin::File(_))
    }

    /// The value as JSON text (text given by a flag becomes a JSON string; a value serde
    /// could not write, `null`).
    pub fn json(&self) -> String {
        match &self.value {
            GivenValue::Json(json) => json.clone(),
            GivenValue::Text(text) => serde_json::to_string(text).unwrap_or_default(),
            GivenValue::Unwritable(_) => "null".to_owned(),
        }
    }

    /// The value as serde_json reads it: an error for JSON it does not take (nested past
    /// its 128 levels, as a program may give it).
    ///
    /// ```
    /// use promptic::formats::Values;
    ///
    /// let mut values = Values::new();
    /// values.text("who", "Ada").json("n", &3);
    /// assert_eq!(values.get("who").unwrap().to_json_value()?, serde_json::json!("Ada"));
    /// assert_eq!(values.get("n").unwrap().to_json_value()?, serde_json::json!(3));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn to_json_value(&self) -> Result<serde_json::Value, serde_json::Error> {
        match &self.value {
            GivenValue::Text(text) => Ok(serde_json::Value::String(text.clone())),
            GivenValue::Json(json) => serde_json::from_str(json),
            GivenValue::Unwritable(why) => Err(serde_core::ser::Error::custom(why)),
        }
    }
}

/// The values a prompt is rendered with, by name, in the order given; a later value of a
/// name wins. Also the other inputs a format may take: an identity, a conversation
/// history, dotprompt's data argument.
///
/// ```
/// use promptic::formats::Values;
///
/// let mut values = Values::new();
/// values.text("who", "Ada").json("items", &["tea", "cake"]);
/// assert_eq!(values.get("items").map(|g| g.json()), Some(r#"["tea","cake"]"#.to_owned()));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Values {
    given: Vec<Given>,
    /// The identity, where one is given.
    pub identity: Option<Identity>,
    /// The conversation so far, for a chat prompt's history sections.
    pub history: Option<Vec<Message>>,
    /// dotprompt's data argument, a JSON file (`{"input", "context", "messages",
    /// "options"}`), read as the format reads it.
    pub data: Option<SourceFile>,
}

impl Values {
    /// No values.
    pub fn new() -> Values {
        Values::default()
    }

    /// Gives `name` a text.
    pub fn text(&mut self, name: impl Into<String>, text: impl Into<String>) -> &mut Values {
        self.push(Given {
            name: name.into(),
            value: GivenValue::Text(text.into()),
            origin: Origin::Program,
            span: 0..0,
        })
    }

    /// Gives `name` any value serde can write as JSON. One it cannot write (a map whose
    /// keys are not text) makes every render refuse it, naming it and serde's reason;
    /// [`try_json`](Values::try_json) says so here instead.
    ///
    /// ```
    /// use promptic::formats::{GivenValue, Values};
    /// use std::collections::BTreeMap;
    ///
    /// let by_pair: BTreeMap<(u8, u8), &str> = [((1, 2), "x")].into();
    /// let mut values = Values::new();
    /// values.json("grid", &by_pair);
    /// assert!(matches!(values.get("grid").unwrap().value, GivenValue::Unwritable(_)));
    /// ```
    pub fn json(&mut self, name: impl Into<String>, value: &impl Serialize) -> &mut Values {
        match serde_json::to_string(value) {
            Ok(json) => self.program_json(name.into(), json),
            Err(e) => self.push(Given {
                name: name.into(),
                value: GivenValue::Unwritable(e.to_string()),
                origin: Origin::Program,
                span: 0..0,
            }),
        }
    }

    /// Gives `name` a value serde writes as JSON, or says why it cannot.
    ///
    /// ```
    /// use promptic::formats::Values;
    /// use std::collections::BTreeMap;
    ///
    /// let mut values = Values::new();
    /// assert!(values.try_json("tags", &["a", "b"]).is_ok());
    /// let by_pair: BTreeMap<(u8, u8), &str> = [((1, 2), "x")].into();
    /// assert!(values.try_json("grid", &by_pair).is_err());
    /// assert!(values.get("grid").is_none());
    /// ```
    pub fn try_json(
        &mut self,
        name: impl Into<String>,
        value: &impl Serialize,
    ) -> Result<&mut Values, serde_json::Error> {
        let json = serde_json::to_string(value)?;
        Ok(self.program_json(name.into(), json))
    }

    fn program_json(&mut self, name: String, json: String) -> &mut Values {
        self.push(Given {
            name,
            value: GivenValue::Json(json),
            origin: Origin::Program,
            span: 0..0,
        })
    }

    /// Gives a value as a flag does: `flag` is how messages name it (`--set`).
    pub fn flag(
        &mut self,
        flag: &str,
        name: impl Into<String>,
        text: impl Into<String>,
    ) -> &mut Values {
        self.push(Given {
            name: name.into(),
            value: GivenValue::Text(text.into()),
            origin: Origin::Flag(flag.to_owned()),
            span: 0..0,
        })
    }

    /// Adds one value; a later value of a name wins over an earlier one.
    pub fn push(&mut self, given: Given) -> &mut Values {
        self.given.push(given);
        self
    }

    /// Reads the values of a JSON object file (its text decoded as prompt files are). A
    /// text that is not a JSON object is an error at its place.
    pub fn read_file(&mut self, source: SourceFile) -> Result<&mut Values, Diagnostics> {
        let source = Arc::new(source);
        let text = source.text();
        let object = match crate::source::json::object_entries(text) {
            Ok(object) => object,
            Err(e) => {
                let what = if e.is_data() {
                    "must hold a JSON object"
                } else {
                    "is not valid JSON"
                };
                let message = e.to_string();
                let position = format!(" at line {} column {}", e.line(), e.column());
                let message = message.strip_suffix(&position).unwrap_or(&message);
                let at = source.offset(e.line(), e.column().max(1));
                return Err(Diagnostic::new(format!("`{}` {what}: {message}", source.path()))
                        .at(&source, at..at + 1)
                        .with_help(r#"write the values as {"name": "value", "user": {"name": "Ada"}, ...}"#)
                        .into());
            }
        };
        let mut problems = Diagnostics::default();
        for (name, raw) in object {
            let json = raw.get();
            // The raw value borrows from `text`: its place there is its span.
            let start = (json.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
            // Valid JSON, but perhaps past what a value may nest: refused here, at its
            // place, rather than read as nothing by the format.
            if let Err(e) = crate::value::Value::from_json(json) {
                let at = start + e.offset.min(json.len());
                problems.push(
                    Diagnostic::new(format!(
                        "the value of `{name}` in `{}` cannot be read: {}",
                        source.path(),
                        e.message
                    ))
                    .at(&source, at..at + 1)
                    .with_help("a value may nest lists and objects at most 128 deep"),
                );
                continue;
            }
            self.given.push(Given {
                name,
                value: GivenValue::Json(json.to_owned()),
                origin: Origin::File(source.clone()),
                span: start..start + json.len(),
            });
        }
        problems.into_result(self)
    }

    /// The value given for `name` last.
    pub fn get(&self, name: &str) -> Option<&Given> {
        self.given.iter().rev().find(|g| g.name == name)
    }

    /// Every value given, in order (a name given twice appears twice).
    pub fn iter(&self) -> impl Iterator<Item = &Given> {
        self.given.iter()
    }

    /// Each name once, with the value given last for it, in the order names first came.
    pub fn latest(&self) -> Vec<&Given> {
        let mut out: Vec<&Given> = Vec::new();
        let mut at: std::collections::HashMap<&str, usize> = Default::default();
        for given in &self.given {
            match at.get(given.name.as_str()) {
                Some(&i) => out[i] = given,
                None => {
                    at.insert(&given.name, out.len());
                    out.push(given);
                }
            }
        }
        out
    }

    /// The values checked against what a prompt reads (`reads`), found once for a render:
    /// which names it reads, and which keys of context files are its names mistyped.
    pub fn against<'a>(&'a self, reads: &'a [ValueUse]) -> Against<'a> {
        let root = |name: &'a str| name.split('.').next().unwrap_or_default();
        let read: HashSet<&str> = reads.iter().map(|r| r.name.as_str()).collect();
        let given: HashSet<&str> = self.given.iter().map(|g| root(&g.name)).collect();
        // A file's key can only be meant for a value the prompt reads that nothing gives.
        let wanted: HashSet<&str> = reads
            .iter()
            .map(|r| r.name.as_str())
            .filter(|name| !given.contains(name))
            .collect();
        let mut misspelt = HashSet::new();
        let mut compared = 0usize;
        for g in &self.given {
            if wanted.is_empty() || g.must_be_read() || read.contains(g.name.as_str()) {
                continue;
            }
            // A file of many keys against a prompt of many values: past this many
            // comparisons, the remaining keys are left alone, as any other extra key is.
            compared += reads.len();
            if compared > MAX_COMPARED {
                break;
            }
            let key = root(&g.name);
            let meant = closest(key, reads.iter().map(|r| r.name.as_str()));
            if meant.is_some_and(|meant| wanted.contains(&meant) && typo(key, meant)) {
                misspelt.insert(g.name.as_str());
            }
        }
        Against { read, misspelt }
    }

    /// The values `reads` does not name that must be read ([`Against::must_read`]), each as
    /// an error with a did-you-mean. `what` names the prompt in messages
    /// (`` prompt `x` uses no value ``).
    pub fn unread(&self, reads: &[ValueUse], message: impl Fn(&Given) -> String) -> Diagnostics {
        let mut problems = Diagnostics::default();
        let against = self.against(reads);
        for given in &self.given {
            if against.reads(&given.name) || !against.must_read(given) {
                continue;
            }
            problems.push(unread_value(given, reads, message(given)));
        }
        problems
    }
}

/// Whether context-file key `key` reads as `name` mistyped: one or two letters wrong,
/// missing, extra or swapped (`ordr`, `custmoer`), where the did-you-mean of an error may
/// go further. A key that is the name with a word more or less (`has_user_data_counts`,
/// `user_data_counts_total` for `user_data_counts`) names another value, for another
/// prompt.
fn typo(key: &str, name: &str) -> bool {
    let word_more = |long: &str, short: &str| {
        long.strip_suffix(short)
            .is_some_and(|rest| rest.ends_with('_'))
            || long
                .strip_prefix(short)
                .is_some_and(|rest| rest.starts_with('_'))
    };
    if word_more(key, name) || word_more(name, key) {
        return false;
    }
    let edits = strsim::damerau_levenshtein(&key.to_lowercase(), &name.to_lowercase());
    edits <= 2 && edits <= (name.chars().count() / 3).max(1)
}

/// How many name comparisons [`Values::against`] makes at most looking for misspelt keys.
const MAX_COMPARED: usize = 1 << 20;

/// [`Values::against`]: the values given, checked against what a prompt reads.
#[derive(Debug)]
pub struct Against<'a> {
    read: HashSet<&'a str>,
    misspelt: HashSet<&'a str>,
}

impl Against<'_> {
    /// Whether the prompt reads a value of this name.
    pub fn reads(&self, name: &str) -> bool {
        self.read.contains(name)
    }

    /// Whether `given`, a value the prompt does not read, is an error: one the program or
    /// a flag gave, or a key of a context file that is the name of a value the prompt
    /// reads and nothing gives, mistyped by a letter or two (`ordr` for `order`, not
    /// `has_order`). A file's other keys are left alone: one file may serve many prompts.
    pub fn must_read(&self, given: &Given) -> bool {
        given.must_be_read() || self.misspelt.contains(given.name.as_str())
    }
}

/// The error for a value the prompt does not read, with a did-you-mean or the names it
/// does read.
pub fn unread_value(given: &Given, reads: &[ValueUse], message: String) -> Diagnostic {
    let d = given.at_key(Diagnostic::new(message), reads);
    match closest(&given.name, reads.iter().map(|r| r.name.as_str())) {
        Some(close) => d.with_help(format!("did you mean `{close}`?")),
        None if reads.is_empty() => d.with_help("this prompt takes no values"),
        None => {
            let all: Vec<String> = reads.iter().map(|r| format!("`{}`", r.name)).collect();
            d.with_help(format!("its values are {}", all.join(", ")))
        }
    }
}

impl Project {
    /// The format of prompt `name` and its file (relative to the folder), found by the file
    /// that exists: `Ok(None)` when none does. Two files for one name are an error.
    pub fn format_of(
        &self,
        name: &str,
    ) -> Result<Option<(&'static dyn Format, String)>, Diagnostic> {
        Ok(self
            .front_end(name)?
            .map(|(front_end, file)| (front_end.format(), file)))
    }

    /// Loads and checks prompt `name`, whatever its format.
    ///
    /// ```
    /// use promptic::formats::Values;
    /// use promptic::load::Project;
    ///
    /// let dir = std::env::temp_dir().join(format!("promptic-doc-load-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// std::fs::write(dir.join("note.md"), "Hello $who.")?;
    /// std::fs::write(dir.join("trip.md.j2"), "Trip for {{ who }}.")?;
    /// let project = Project::open(&dir, "prompts")?;
    /// let mut values = Values::new();
    /// values.text("who", "Ada");
    /// for name in ["note", "trip"] {
    ///     let prompt = project.load(name)?;
    ///     assert_eq!(prompt.reads()[0].name, "who");
    ///     assert!(prompt.render(&values)?.contents()[0].contains("Ada"));
    /// }
    /// // A value the prompt does not read is an error, with a did-you-mean.
    /// values.text("whom", "Bo");
    /// let error = project.load("trip")?.render(&values).unwrap_err().to_string();
    /// assert!(error.contains("did you mean `who`?"), "{error}");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(&self, name: &str) -> Result<Box<dyn LoadedPrompt>, Diagnostics> {
        match self.front_end(name)? {
            Some((front_end, _)) => front_end
                .format()
                .load(self, super::FrontEnd::prompt_name(name)),
            // The Markdown reader says what is missing, with a did-you-mean.
            None => super::markdown::MARKDOWN.load(self, super::FrontEnd::prompt_name(name)),
        }
    }
}

/// A prompt of the folder: its name, its file (relative to the folder) and its format.
#[derive(Clone)]
pub struct Found {
    /// Its name (`agents/analyst`).
    pub name: String,
    /// Its file, relative to the folder (`agents/analyst.md.j2`).
    pub file: String,
    /// Its format.
    pub format: &'static dyn Format,
}

impl std::fmt::Debug for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}, {})", self.name, self.file, self.format.name())
    }
}

/// Every prompt of a folder, whatever its format: see [`Project::all_prompts`].
#[derive(Clone, Debug, Default)]
pub struct AllPrompts {
    /// The prompts, sorted by name.
    pub prompts: Vec<Found>,
    /// Problems that may hide prompts (a folder that cannot be read, a name that is not
    /// UTF-8), and names two files claim.
    pub errors: Diagnostics,
    /// What was left out on purpose: folder links that lead outside the folder.
    pub warnings: Vec<Diagnostic>,
}

impl Project {
    /// Every prompt of the folder, of every format: the folder is walked once (as
    /// [`Project::prompts`] walks it) and each format claims its files; files prompts read
    /// (partials, registries, included templates) are not prompts. A name two files claim
    /// (`x.md` and `x.prompt`) is an error; the first format of
    /// [`FORMATS`](super::FORMATS) keeps it. A folder a format reads whole (a PromptEngine
    /// store, [`Format::whole_folder`]) is that format's alone: its prompts are the ones it
    /// lists.
    ///
    /// ```
    /// use promptic::load::Project;
    ///
    /// let dir = std::env::temp_dir().join(format!("promptic-doc-all-{}", std::process::id()));
    /// std::fs::create_dir_all(dir.join("parts"))?;
    /// std::fs::write(dir.join("note.md"), "Hello $who.")?;
    /// std::fs::write(dir.join("trip.md.j2"), "Trip. {% include 'parts/day.j2' %}")?;
    /// std::fs::write(dir.join("parts/day.j2"), "A day.")?;
    /// std::fs::write(dir.join("ticket.prompt"), "Ticket {{> sign}}")?;
    /// std::fs::write(dir.join("_sign.prompt"), "Bye.")?;
    /// let project = Project::open(&dir, "prompts")?;
    /// let all = project.all_prompts();
    /// let listed: Vec<(&str, &str)> =
    ///     all.prompts.iter().map(|p| (p.name.as_str(), p.format.name())).collect();
    /// assert_eq!(listed, [("note", "markdown"), ("ticket", "dotprompt"), ("trip", "jinja")]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn all_prompts(&self) -> AllPrompts {
        if let Some(format) = super::FORMATS.iter().find(|f| f.whole_folder(self)) {
            let (prompts, errors) = match format.list(self) {
                Ok(listed) => (listed, Diagnostics::default()),
                Err(errors) => (Vec::new(), errors),
            };
            let mut prompts: Vec<Found> = prompts
                .into_iter()
                .map(|(name, file)| Found {
                    name,
                    file,
                    format: *format,
                })
                .collect();
            prompts.sort_by(|a, b| a.name.cmp(&b.name));
            return AllPrompts {
                prompts,
                errors,
                warnings: Vec::new(),
            };
        }
        let walked = self.prompts();
        let mut errors = walked.errors;
        let mut prompts: Vec<Found> = Vec::new();
        for format in super::FORMATS {
            let claimed: Vec<(String, String)> = walked
                .files
                .iter()
                .filter_map(|rel| match format.claim(rel) {
                    Some(Claim::Prompt(name)) => Some((name, rel.clone())),
                    _ => None,
                })
                .collect();
            let names: Vec<String> = claimed.iter().map(|(n, _)| n.clone()).collect();
            let parts = format.included(self, &names);
            for (name, file) in claimed {
                if parts.contains(&name) {
                    continue;
                }
                if let Some(other) = prompts.iter().find(|p| p.name == name) {
                    errors.push(
                        Diagnostic::new(format!(
                            "the prompt `{name}` has two files: `{0}/{1}` and `{0}/{file}`",
                            self.display, other.file
                        ))
                        .with_help("keep one of them: a prompt's name must say which file it is"),
                    );
                    continue;
                }
                prompts.push(Found { name, file, format });
            }
        }
        prompts.sort_by(|a, b| a.name.cmp(&b.name));
        AllPrompts {
            prompts,
            errors,
            warnings: walked.warnings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{SourceFile, ValueUse, Values};

    /// A context file's key is an error only when it reads as a mistyped value the prompt
    /// reads and nothing gives; a name with a word more is another value.
    #[test]
    fn only_a_mistyped_key_of_a_context_file_must_be_read() {
        let reads = [
            ValueUse::new("user_data_counts", "text", false),
            ValueUse::new("order", "text", true),
        ];
        let json = r#"{"has_user_data_counts": true, "user_data_counts_total": 3, "ordr": "A-1", "orders": []}"#;
        let mut values = Values::new();
        values.read_file(SourceFile::new("c.json", json)).unwrap();
        let against = values.against(&reads);
        let must: Vec<&str> = values
            .iter()
            .filter(|g| against.must_read(g))
            .map(|g| g.name.as_str())
            .collect();
        // `orders` is one letter from `order`: a typo as likely as another value.
        assert_eq!(must, ["ordr", "orders"]);
    }
}
