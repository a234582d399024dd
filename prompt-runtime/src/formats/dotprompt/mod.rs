//! dotprompt front end: `.prompt` files (YAML frontmatter and a Handlebars body), as
//! Google's dotprompt reads and renders them.
//!
//! A source goes through one module per stage: [`frontmatter`](self) splits it and reads
//! the YAML; `picoschema` compiles the input and output schemas to JSON Schema; `lexer` and
//! `parser` read the body into [`ast::Node`]s with Handlebars' whitespace control applied;
//! `render` evaluates them into text and markers; `messages` cuts those into messages and
//! parts. [`Dotprompt::parse`] runs every check once (YAML, schemas, tags, helpers,
//! partials); rendering then only reads the data.
//!
//! ```
//! use promptic::formats::dotprompt::{DataArgument, Dotprompt};
//!
//! let prompt = Dotprompt::parse(
//!     "---\nmodel: demo\ninput:\n  schema:\n    name: string\n---\n\
//!      {{role \"system\"}}Be brief.\n{{role \"user\"}}Hello, {{name}}!",
//! )?;
//! let data: DataArgument = serde_json::from_str(r#"{"input": {"name": "Ada"}}"#).unwrap();
//! let rendered = prompt.render(&data).unwrap();
//! assert_eq!(rendered.messages.len(), 2);
//! assert_eq!(rendered.messages[1].content[0].text(), Some("Hello, Ada!"));
//! assert_eq!(rendered.metadata.model(), Some("demo"));
//!
//! // A mistake is found when parsing, with its line and column.
//! let error = Dotprompt::parse("Hi {{#iff x}}{{/iff}}").unwrap_err();
//! assert!(error.to_string().contains("did you mean `{{#if}}`?"));
//! # Ok::<(), promptic::Diagnostics>(())
//! ```

pub mod ast;
mod cache;
mod chat;
#[doc(hidden)]
pub mod compiled;
pub mod fields;
pub mod folder;
mod front;
pub use front::{DOTPROMPT, DotpromptFormat, LoadedDotprompt, log};
mod frontmatter;
pub mod helpers;
mod lexer;
mod messages;
mod parser;
mod picoschema;
mod render;
pub mod schema;
#[cfg(test)]
mod tests;
mod value;
mod wire;
mod yaml;

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::Arc;

use serde_core::Serialize;

use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
pub use chat::ToChatError;
pub use fields::{
    DotpromptField, DotpromptPrompt, FieldCheck, FieldKind, check_arguments, check_field_kinds,
};
pub use helpers::{HelperArgs, HelperFn, HelperPtr};
pub use value::{Object, Value};

/// How deep blocks, partials and schemas may nest (parse and render), and how deep a value
/// is printed: hostile input cannot exhaust the stack.
pub const MAX_DEPTH: usize = crate::value::js::MAX_DEPTH;

/// How many template nodes one render may visit, so that a render that writes little but
/// works long (partials that call partials twice, nested loops) ends with an error.
pub const MAX_STEPS: usize = 20_000_000;

/// The default bound on a rendered prompt's size, in bytes.
pub const DEFAULT_OUTPUT_LIMIT: usize = 32 * 1024 * 1024;

/// A partial template, parsed once.
#[derive(Debug)]
pub struct PartialTemplate {
    source: SourceFile,
    nodes: Vec<ast::Node>,
}

type PartialResolver = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// The registries a prompt is parsed against: partials (registered by name, or found by a
/// resolver callback), named schemas for Picoschema, tool definitions, and helpers
/// registered from Rust ([`Registry::define_helper`]).
///
/// ```
/// use promptic::formats::dotprompt::{DataArgument, Registry};
///
/// let mut registry = Registry::new();
/// registry.define_partial("greeting", "Hello, {{name}}!")?;
/// registry.define_schema("Person", serde_json::json!({"type": "object"}));
/// registry.set_partial_resolver(|name| (name == "bye").then(|| "Bye.".to_owned()));
/// let prompt = registry.parse("---\noutput:\n  schema: Person\n---\n{{> greeting}} {{> bye}}")?;
/// let data: DataArgument = serde_json::from_str(r#"{"input": {"name": "Ada"}}"#).unwrap();
/// let rendered = prompt.render(&data).unwrap();
/// assert_eq!(rendered.messages[0].content[0].text(), Some("Hello, Ada! Bye."));
/// assert_eq!(prompt.output_schema_json().as_deref(), Some(r#"{"type":"object"}"#));
/// # Ok::<(), promptic::Diagnostics>(())
/// ```
#[derive(Clone, Default)]
pub struct Registry {
    partials: HashMap<String, Arc<PartialTemplate>>,
    schemas: HashMap<String, Value>,
    tools: HashMap<String, Value>,
    helpers: helpers::Helpers,
    resolver: Option<PartialResolver>,
    /// The folder the resolver's partials are shown in (`prompts` shows
    /// `prompts/_name.prompt`).
    resolver_dir: Option<String>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("partials", &self.partials.keys().collect::<BTreeSet<_>>())
            .field("schemas", &self.schemas.keys().collect::<BTreeSet<_>>())
            .field("tools", &self.tools.keys().collect::<BTreeSet<_>>())
            .field("helpers", &self.helpers)
            .field("resolver", &self.resolver.is_some())
            .finish()
    }
}

impl Registry {
    /// Empty registries.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Registers a helper that templates call as `{{name args key=value}}` (or `{{name}}`),
    /// as dotprompt's `defineHelper` does: `helper` gets the arguments' values and returns
    /// the value the tag prints ([`helpers`] says how). A helper is known to the prompts
    /// and partials parsed after it is registered; a name dotprompt or Handlebars defines
    /// (`json`, `if`, `lookup`, ...) or one a tag cannot call is refused. An error the
    /// helper returns fails the render, located at the tag.
    ///
    /// ```
    /// use promptic::dotprompt::{DataArgument, Registry, Value};
    ///
    /// let mut registry = Registry::new();
    /// registry.define_helper("list", |args| {
    ///     Ok(match args.param(0) {
    ///         Some(Value::Array(items)) => Value::from(
    ///             items.iter().map(|i| format!("- {}", i.to_js_string())).collect::<Vec<_>>().join("\n"),
    ///         ),
    ///         _ => Value::from(""),
    ///     })
    /// })?;
    /// let prompt = registry.parse("Buy:\n{{list items}}")?;
    /// let data: DataArgument = serde_json::from_str(r#"{"input": {"items": ["eggs", "flour"]}}"#).unwrap();
    /// assert_eq!(prompt.render(&data)?.messages[0].content[0].text(), Some("Buy:\n- eggs\n- flour"));
    ///
    /// // A name that is not registered is still an error, with a suggestion.
    /// let error = registry.parse("{{lsit items}}").unwrap_err().to_string();
    /// assert!(error.contains("did you mean `{{list ...}}`?"));
    /// assert!(registry.define_helper("json", |_| Ok(Value::Null)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn define_helper(
        &mut self,
        name: &str,
        helper: impl Fn(&HelperArgs<'_>) -> Result<Value, String> + Send + Sync + 'static,
    ) -> Result<&mut Self, Diagnostic> {
        if let Some(why) = helpers::refused_name(name) {
            return Err(Diagnostic::new(why)
                .with_help("register it under another name, and call that name in the template"));
        }
        self.helpers.0.insert(name.to_owned(), Arc::new(helper));
        Ok(self)
    }

    /// The names of the helpers registered from Rust, sorted.
    pub fn helper_names(&self) -> Vec<&str> {
        self.helpers.names()
    }

    /// Registers a partial for `{{> name}}`, parsed now (its problems are reported with
    /// the display path `_name.prompt`).
    pub fn define_partial(&mut self, name: &str, source: &str) -> Result<&mut Self, Diagnostics> {
        self.define_partial_file(name, &format!("_{name}.prompt"), source)
    }

    /// Registers a partial read from a file shown as `path` in diagnostics.
    pub fn define_partial_file(
        &mut self,
        name: &str,
        path: &str,
        source: &str,
    ) -> Result<&mut Self, Diagnostics> {
        let partial = parse_partial(path, source, &self.helper_names())?;
        self.partials.insert(name.to_owned(), Arc::new(partial));
        Ok(self)
    }

    /// Registers a named schema that Picoschema type names resolve to.
    pub fn define_schema(&mut self, name: &str, schema: impl Into<Value>) -> &mut Self {
        self.schemas.insert(name.to_owned(), schema.into());
        self
    }

    /// Registers a tool definition: a prompt's `tools` list resolves registered names
    /// into `toolDefs`.
    pub fn define_tool(&mut self, name: &str, definition: impl Into<Value>) -> &mut Self {
        self.tools.insert(name.to_owned(), definition.into());
        self
    }

    /// Sets the callback that finds partials that are not registered (their source, or
    /// `None`), asked once per name at parse time.
    pub fn set_partial_resolver(
        &mut self,
        resolver: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
    ) -> &mut Self {
        self.resolver = Some(Arc::new(resolver));
        self
    }

    /// Shows the partials the resolver finds as `DIR/_name.prompt` in diagnostics (not
    /// `_name.prompt`).
    pub fn set_partial_display_dir(&mut self, dir: &str) -> &mut Self {
        self.resolver_dir = Some(dir.to_owned());
        self
    }

    /// Parses and checks a prompt against these registries.
    pub fn parse(&self, source: &str) -> Result<Dotprompt, Diagnostics> {
        self.parse_file("<prompt>", source)
    }

    /// Parses and checks a prompt shown as `path` in diagnostics.
    pub fn parse_file(&self, path: &str, source: &str) -> Result<Dotprompt, Diagnostics> {
        let source = SourceFile::new(path, source);
        let text = source.text();
        let parsed = frontmatter::metadata(text, frontmatter::split(text).frontmatter)
            .map_err(|e| Diagnostics::from(located(&source, e)))?;
        Dotprompt::build(source, parsed, self)
    }

    /// [`parse_file`](Self::parse_file) with the frontmatter already read, as
    /// [`Dotprompt::frontmatter_json`] gave it: what a derived prompt's run-time renderer
    /// is built from, so that a binary holds no YAML reader.
    #[doc(hidden)]
    pub fn parse_file_read(
        &self,
        path: &str,
        source: &str,
        frontmatter: &str,
    ) -> Result<Dotprompt, Diagnostics> {
        let source = SourceFile::new(path, source);
        let parsed = match crate::value::js::from_str(frontmatter) {
            Ok(Value::Object(parsed)) => parsed,
            _ => {
                let problem =
                    Diagnostic::new("the frontmatter read at build time is not an object")
                        .in_file(path)
                        .with_help("build the crate again: the derive writes it");
                return Err(problem.into());
            }
        };
        Dotprompt::build(source, parsed, self)
    }
}

fn parse_partial(
    path: &str,
    source: &str,
    custom: &[&str],
) -> Result<PartialTemplate, Diagnostics> {
    let file = SourceFile::new(path, source);
    let nodes = parser::parse(
        file.text(),
        0..file.text().len(),
        custom,
        parser::Body::Partial,
    )
    .map_err(|e| Diagnostics::from(located(&file, e)))?;
    Ok(PartialTemplate {
        source: file,
        nodes,
    })
}

fn located(
    source: &SourceFile,
    (message, span, help): (String, std::ops::Range<usize>, Option<String>),
) -> Diagnostic {
    let diagnostic = Diagnostic::new(message).at(source, span);
    match help {
        Some(help) => diagnostic.with_help(help),
        None => diagnostic,
    }
}

/// What a template is rendered with: the input variables, the `@` data (`@state`,
/// `@auth`, ...) and the conversation so far for `{{history}}`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DataArgument {
    /// The template's variables.
    pub input: Object,
    /// Values read as `@name`.
    pub context: Object,
    /// The conversation history.
    pub messages: Vec<Message>,
}

/// One message as dotprompt writes it: a role, its content parts, and metadata (`purpose:
/// history` on history).
///
/// This is the format's own serialization, the JSON shape of dotprompt's spec and of
/// [`RenderedPrompt`]; the message every prompt format shares is
/// [`chat::Message`](crate::chat::Message). They convert both ways:
/// `chat::Message::try_from(&message)` (`model` is the assistant; a part other than text
/// or media is an error) and `Message::from(&chat_message)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// `user`, `model`, `system`, or any lowercase role a template names.
    pub role: String,
    /// The parts.
    pub content: Vec<Part>,
    /// Metadata, when there is some.
    pub metadata: Option<Object>,
}

/// A content part, kept as its JSON object: `{"text": ...}`, `{"media": {"url", "contentType"}}`,
/// `{"metadata": {"purpose", "pending": true}}` for a section, or any part a history
/// message carries.
///
/// ```
/// use promptic::formats::dotprompt::Part;
/// assert_eq!(Part::from_text("hi").text(), Some("hi"));
/// let media = Part::media("http://x/y.png".into(), Some("image/png".into()));
/// assert_eq!(serde_json::to_string(&media).unwrap(), r#"{"media":{"url":"http://x/y.png","contentType":"image/png"}}"#);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Part(pub Object);

impl Part {
    /// A text part.
    pub fn from_text(text: impl Into<String>) -> Part {
        let mut object = Object::new();
        object.insert("text", Value::String(text.into()));
        Part(object)
    }

    /// A media part.
    pub fn media(url: String, content_type: Option<String>) -> Part {
        let mut media = Object::new();
        media.insert("url", Value::String(url));
        if let Some(content_type) = content_type {
            media.insert("contentType", Value::String(content_type));
        }
        let mut object = Object::new();
        object.insert("media", Value::Object(media));
        Part(object)
    }

    /// The text of a text part.
    pub fn text(&self) -> Option<&str> {
        self.0.get("text").and_then(Value::as_str)
    }
}

/// A prompt's metadata as dotprompt reports it: `config`, `ext` and `metadata` always,
/// then what the frontmatter sets (`model`, `input`, `output` with compiled schemas,
/// `tools` and `toolDefs`, `raw`, ...). Keys keep dotprompt's order when serialized.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PromptMetadata(pub Object);

impl PromptMetadata {
    /// The `model`.
    pub fn model(&self) -> Option<&str> {
        self.0.get("model").and_then(Value::as_str)
    }

    /// The `config` object.
    pub fn config(&self) -> Option<&Object> {
        self.0.get("config").and_then(Value::as_object)
    }

    /// The `ext` namespaces.
    pub fn ext(&self) -> Option<&Object> {
        self.0.get("ext").and_then(Value::as_object)
    }

    /// The frontmatter as written.
    pub fn raw(&self) -> Option<&Object> {
        self.0.get("raw").and_then(Value::as_object)
    }

    /// `input.schema`.
    pub fn input_schema(&self) -> Option<&Value> {
        self.0.get("input").and_then(|i| i.get("schema"))
    }

    /// `output.schema`.
    pub fn output_schema(&self) -> Option<&Value> {
        self.0.get("output").and_then(|o| o.get("schema"))
    }

    /// The common [`Meta`](crate::Meta) of this metadata, what a client of any format
    /// reads for the model call: `description`, `model`, `config` (its keys as written,
    /// `maxOutputTokens` also as [`max_output_tokens`](crate::Meta::max_output_tokens)),
    /// the input and output JSON Schemas; the tools (`toolDefs`, the definitions found in
    /// `tools.json`, read with [`Meta::tool_definitions`](crate::Meta::tool_definitions);
    /// `tools`, the names it has none for) and the other keys dotprompt reports go to
    /// [`extra`](crate::Meta::extra).
    ///
    /// ```
    /// use promptic::dotprompt::Dotprompt;
    ///
    /// let prompt = Dotprompt::parse(
    ///     "---\nmodel: openai/gpt-4o\nconfig:\n  temperature: 0.4\n  maxOutputTokens: 512\noutput:\n  schema:\n    answer: string\n---\nHi",
    /// )?;
    /// let meta = prompt.render_metadata().to_meta();
    /// assert_eq!(meta.model.as_deref(), Some("openai/gpt-4o"));
    /// assert_eq!(meta.temperature(), Some(0.4));
    /// assert_eq!(meta.max_output_tokens, Some(512));
    /// assert!(meta.output_schema.as_deref().unwrap().contains(r#""answer":{"type":"string"}"#));
    /// # Ok::<(), promptic::Diagnostics>(())
    /// ```
    pub fn to_meta(&self) -> crate::Meta {
        use std::borrow::Cow;
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(|t| Cow::Owned(t.to_owned()));
        let json = |v: &Value| serde_json::to_string(v).unwrap_or_default();
        let config: Vec<(Cow<'static, str>, Cow<'static, str>)> = self
            .config()
            .map(|c| {
                c.iter()
                    .map(|(k, v)| (Cow::Owned(k.to_owned()), Cow::Owned(json(v))))
                    .collect()
            })
            .unwrap_or_default();
        let max_output_tokens = self
            .config()
            .and_then(|c| c.get("maxOutputTokens"))
            .and_then(Value::as_f64)
            .filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n <= u64::MAX as f64)
            .map(|n| n as u64);
        let own = [
            "config",
            "ext",
            "metadata",
            "description",
            "model",
            "input",
            "output",
            "raw",
        ];
        let extra: Vec<(Cow<'static, str>, Cow<'static, str>)> = self
            .0
            .iter()
            .filter(|(k, _)| !own.contains(k))
            .map(|(k, v)| (Cow::Owned(k.to_owned()), Cow::Owned(json(v))))
            .collect();
        crate::Meta {
            description: text(self.0.get("description")),
            model: text(self.0.get("model")),
            max_output_tokens,
            config: crate::Extra(Cow::Owned(config)),
            input_schema: self.input_schema().map(|s| Cow::Owned(json(s))),
            output_schema: self.output_schema().map(|s| Cow::Owned(json(s))),
            extra: crate::Extra(Cow::Owned(extra)),
            ..crate::Meta::DEFAULT
        }
    }
}

/// A rendered prompt: the metadata (without `input`), the messages, and where the
/// prompt's cache breakpoints fall in them. Serializes to dotprompt's JSON shape (the
/// metadata and the messages: the breakpoints are promptic's own).
#[derive(Clone, Debug, PartialEq)]
pub struct RenderedPrompt {
    /// Everything but the messages: the prompt's own, shared by its renders (a render
    /// copies no metadata).
    pub metadata: Arc<PromptMetadata>,
    /// The messages.
    pub messages: Vec<Message>,
    /// Where each `{{cacheBreakpoint}}` falls: the message (an index into `messages`)
    /// and the bytes of its text parts before it, as [`Chat::breakpoints`](crate::Chat)
    /// holds them.
    pub breakpoints: Vec<crate::chat::CacheBreakpoint>,
}

impl RenderedPrompt {
    /// The render as a [`Chat`](crate::Chat), the output every chat prompt of promptic
    /// gives: dotprompt's `model` is the assistant, each message's text and media parts are
    /// its [`Content`](crate::chat::Content), and the metadata is the common
    /// [`Meta`](crate::Meta) ([`PromptMetadata::to_meta`]). A part that is neither text nor
    /// media (a pending `{{section}}`, a tool request), or a role a chat API does not know,
    /// is an error naming the message: nothing is dropped.
    ///
    /// ```
    /// use promptic::dotprompt::{DataArgument, Dotprompt};
    /// use promptic::Role;
    ///
    /// let prompt = Dotprompt::parse(
    ///     "---\nmodel: openai/gpt-4o\n---\n{{role \"system\"}}Be brief.\n{{role \"user\"}}Hi {{who}}. {{media url=\"https://example.com/a.png\"}}",
    /// )?;
    /// let data: DataArgument = serde_json::from_str(r#"{"input": {"who": "Ada"}}"#)?;
    /// let chat = prompt.render(&data)?.to_chat("prompts/greet.prompt")?;
    /// assert_eq!(chat.messages[0].role, Role::System);
    /// assert_eq!(chat.messages[1].text(), "Hi Ada. ");
    /// assert_eq!(chat.messages[1].content.media().next().unwrap().url, "https://example.com/a.png");
    /// assert_eq!(chat.metadata.model.as_deref(), Some("openai/gpt-4o"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_chat(&self, path: &str) -> Result<crate::Chat, Diagnostic> {
        chat::to_chat(self, path)
    }
}

impl Serialize for RenderedPrompt {
    fn serialize<S: serde_core::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde_core::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.metadata.0.len() + 1))?;
        for (k, v) in self.metadata.0.iter() {
            map.serialize_entry(k, v)?;
        }
        map.serialize_entry("messages", &self.messages)?;
        map.end()
    }
}

/// A path the template reads from its input, for checks against a schema or a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadPath {
    /// The segments (`["user", "name"]` for `{{user.name}}` or `{{@root.user.name}}`).
    pub segments: Vec<String>,
    /// Where it is written (in the prompt, not in partials).
    pub span: std::ops::Range<usize>,
}

/// A parsed and checked `.prompt` file.
#[derive(Clone, Debug)]
pub struct Dotprompt {
    source: SourceFile,
    /// dotprompt's parsed prompt without its template: config, ext, metadata, reserved
    /// keys, raw.
    parsed: Object,
    nodes: Arc<Vec<ast::Node>>,
    partials: Arc<HashMap<String, Arc<PartialTemplate>>>,
    schemas: Arc<HashMap<String, Value>>,
    tools: Arc<HashMap<String, Value>>,
    helpers: Arc<helpers::Helpers>,
    /// `render_metadata()` without options, computed once.
    metadata: PromptMetadata,
    /// What a render reports: the metadata without `input`, shared by every render.
    rendered_metadata: Arc<PromptMetadata>,
    limit: usize,
    /// Whether a render may reach its input whole (`this` or `../` with nothing after it,
    /// `@root`, a helper registered from Rust, which is handed `this`): then a render
    /// makes the input one value first, so that every way to a value gives the same one
    /// (a context is a new `../` level unless it is the very value). Otherwise the input
    /// is read where the data argument holds it.
    input_whole: bool,
}

impl Dotprompt {
    /// Renders with a derived prompt's fields (as JSON) as the input, `context` as the
    /// values the template reads as `@name`, and `history` as the conversation.
    #[doc(hidden)]
    pub fn render_fields(
        &self,
        values: serde_json::Map<String, serde_json::Value>,
        context: &serde_json::Map<String, serde_json::Value>,
        history: &[Message],
    ) -> Result<RenderedPrompt, crate::Diagnostic> {
        let object =
            |map: serde_json::Map<String, serde_json::Value>| match crate::value::js::from_json(
                serde_json::Value::Object(map),
            ) {
                Value::Object(object) => object,
                _ => Object::default(),
            };
        self.render(&DataArgument {
            input: object(values),
            context: object(context.clone()),
            messages: history.to_vec(),
        })
    }

    /// Parses and checks a source with no partials, schemas or tools registered.
    pub fn parse(source: &str) -> Result<Dotprompt, Diagnostics> {
        Registry::new().parse(source)
    }

    /// The frontmatter as read (dotprompt's parsed prompt without its template), as JSON
    /// text that [`Registry::parse_file_read`] reads back to the same values: the derive
    /// writes it into the binary in place of the YAML.
    #[doc(hidden)]
    pub fn frontmatter_json(&self) -> String {
        serde_json::to_string(&self.parsed).unwrap_or_default()
    }

    fn build(
        source: SourceFile,
        parsed: Object,
        registry: &Registry,
    ) -> Result<Dotprompt, Diagnostics> {
        let text = source.text();
        let split = frontmatter::split(text);
        let nodes = parser::parse(
            text,
            split.body.clone(),
            &registry.helper_names(),
            parser::Body::Prompt,
        )
        .map_err(|e| Diagnostics::from(located(&source, e)))?;
        let mut partials = HashMap::new();
        let mut problems = Diagnostics::default();
        collect_partials(&nodes, &source, registry, &mut partials, &mut problems);
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut prompt = Dotprompt {
            source,
            parsed,
            nodes: Arc::new(nodes),
            partials: Arc::new(partials),
            schemas: Arc::new(registry.schemas.clone()),
            tools: Arc::new(registry.tools.clone()),
            helpers: Arc::new(registry.helpers.clone()),
            metadata: PromptMetadata::default(),
            rendered_metadata: Arc::default(),
            limit: DEFAULT_OUTPUT_LIMIT,
            input_whole: false,
        };
        prompt.input_whole = prompt.reaches_input_whole();
        prompt.metadata = prompt.resolve_metadata(None).map_err(Diagnostics::from)?;
        let mut rendered = prompt.metadata.clone();
        rendered.0.remove("input");
        prompt.rendered_metadata = Arc::new(rendered);
        Ok(prompt)
    }

    /// Bounds the size of a rendered prompt (default [`DEFAULT_OUTPUT_LIMIT`] bytes).
    pub fn with_output_limit(mut self, bytes: usize) -> Self {
        self.limit = bytes;
        self
    }

    /// The source, as loaded.
    pub fn source(&self) -> &SourceFile {
        &self.source
    }

    /// The body's parsed nodes.
    pub fn nodes(&self) -> &[ast::Node] {
        &self.nodes
    }

    /// The compiled input schema as JSON text, when the prompt has one.
    pub fn input_schema_json(&self) -> Option<String> {
        self.metadata
            .input_schema()
            .and_then(|s| serde_json::to_string(s).ok())
    }

    /// The compiled output schema as JSON text, when the prompt has one.
    pub fn output_schema_json(&self) -> Option<String> {
        self.metadata
            .output_schema()
            .and_then(|s| serde_json::to_string(s).ok())
    }

    /// Where the frontmatter writes the key at `path` (`["input", "schema", "user",
    /// "name"]`), by the layout of its block mappings: the span of the name (without
    /// Picoschema's `?` and `(…)`). `None` when the key is not written as a block-mapping
    /// key (a flow mapping, a JSON Schema `properties` object's key is found, a key inside
    /// a sequence is not).
    pub fn frontmatter_key_span(&self, path: &[&str]) -> Option<std::ops::Range<usize>> {
        let text = self.source.text();
        let range = frontmatter::split(text).frontmatter?;
        frontmatter::key_span(text, range, path)
    }

    /// What every render of this prompt would fail on, whatever the data: a partial that
    /// includes itself outside any block (directly or through others: the render never
    /// ends), or partials included outside blocks that expand to more than
    /// [`MAX_STEPS`] nodes. Located at the tag that closes the cycle, or at the prompt's
    /// first such tag. The compile-time derive reports it; the run-time renderer stops at
    /// its bounds.
    pub fn sure_render_failure(&self) -> Option<Diagnostic> {
        #[derive(Clone, Copy)]
        enum State {
            Visiting,
            Done(u128),
        }
        fn size(
            nodes: &[ast::Node],
            source: &SourceFile,
            partials: &HashMap<String, Arc<PartialTemplate>>,
            states: &mut HashMap<String, State>,
            chain: &mut Vec<String>,
        ) -> Result<u128, Diagnostic> {
            let mut total = nodes.len() as u128;
            for node in nodes {
                let ast::Node::Partial(call) = node else {
                    continue;
                };
                let inner = match states.get(&call.name).copied() {
                    Some(State::Done(n)) => n,
                    Some(State::Visiting) => {
                        let from = chain
                            .iter()
                            .position(|n| n == &call.name)
                            .unwrap_or_default();
                        let mut cycle: Vec<String> =
                            chain[from..].iter().map(|n| format!("`_{n}`")).collect();
                        cycle.push(format!("`_{}`", call.name));
                        return Err(Diagnostic::new(format!(
                            "partial `{}` includes itself outside any block ({}): every render would recurse until the depth bound",
                            call.name,
                            cycle.join(" → ")
                        ))
                        .at(source, call.span.clone())
                        .with_help("put the inclusion inside a block that ends the recursion (`{{#if}}`, `{{#each}}`), or remove it"));
                    }
                    None => {
                        let Some(partial) = partials.get(&call.name) else {
                            continue;
                        };
                        states.insert(call.name.clone(), State::Visiting);
                        chain.push(call.name.clone());
                        let n = size(&partial.nodes, &partial.source, partials, states, chain)?;
                        chain.pop();
                        states.insert(call.name.clone(), State::Done(n));
                        n
                    }
                };
                total = total.saturating_add(inner);
            }
            Ok(total)
        }
        let mut states = HashMap::new();
        match size(
            &self.nodes,
            &self.source,
            &self.partials,
            &mut states,
            &mut Vec::new(),
        ) {
            Err(cycle) => Some(cycle),
            Ok(n) if n > MAX_STEPS as u128 => {
                let first = self.nodes.iter().find_map(|node| match node {
                    ast::Node::Partial(call) => Some(call.span.clone()),
                    _ => None,
                });
                let diagnostic = Diagnostic::new(format!(
                    "the partials this prompt includes expand to {n} nodes, more than a render may visit ({MAX_STEPS})"
                ))
                .with_help("a partial that includes another twice doubles at each level: include less, or loop over data");
                Some(match first {
                    Some(span) => diagnostic.at(&self.source, span),
                    None => diagnostic.in_file(self.source.path()),
                })
            }
            Ok(_) => None,
        }
    }

    /// What makes the prompt's cacheable prefix differ between requests: before its last
    /// `{{cacheBreakpoint}}`, every value written (`{{name}}`, a helper's path argument,
    /// the list `{{#each}}` goes over), `{{history}}` and every registered helper's call,
    /// there or in a partial it includes, as an error at its use. Tests (`{{#if}}`,
    /// `{{#unless}}`, `{{#with}}`, `{{#ifEquals}}`) and helpers given literals are fine.
    /// Loading a prompt from a folder checks it (the derive and `promptic check` report
    /// it); a prompt parsed on its own renders as it is.
    ///
    /// ```
    /// use promptic::dotprompt::Dotprompt;
    ///
    /// let fine = Dotprompt::parse("{{#if vip}}Be kind.{{/if}}\n{{cacheBreakpoint}}\n{{question}}")?;
    /// assert!(fine.check_breakpoints().is_ok());
    /// let late = Dotprompt::parse("Hello {{name}}.\n{{cacheBreakpoint}}\n{{question}}")?;
    /// let error = late.check_breakpoints().unwrap_err().to_string();
    /// assert!(error.contains("`name` is written before a cache breakpoint: it would break the cache"));
    /// # Ok::<(), promptic::Diagnostics>(())
    /// ```
    pub fn check_breakpoints(&self) -> Result<(), Diagnostics> {
        cache::check(&self.nodes, &self.source, &self.partials).into_result(())
    }

    /// The names of the registered helpers the prompt and its partials call, sorted.
    ///
    /// ```
    /// use promptic::dotprompt::{Registry, Value};
    ///
    /// let mut registry = Registry::new();
    /// registry.define_helper("list", |_| Ok(Value::Null))?;
    /// registry.define_helper("add", |_| Ok(Value::Null))?;
    /// let prompt = registry.parse("{{#if x}}{{list xs}}{{/if}} {{json x}}")?;
    /// assert_eq!(prompt.helpers_called(), ["list"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn helpers_called(&self) -> Vec<&str> {
        fn walk<'a>(nodes: &'a [ast::Node], out: &mut BTreeSet<&'a str>) {
            for node in nodes {
                match node {
                    ast::Node::Helper(call) if call.name == ast::HelperName::Custom => {
                        out.insert(&call.custom);
                    }
                    ast::Node::Block(block) => {
                        walk(&block.body, out);
                        walk(&block.inverse, out);
                    }
                    _ => {}
                }
            }
        }
        let mut out = BTreeSet::new();
        walk(&self.nodes, &mut out);
        for partial in self.partials.values() {
            walk(&partial.nodes, &mut out);
        }
        out.into_iter().collect()
    }

    /// The paths the body reads from its input (outside `{{#each}}` and `{{#with}}`,
    /// where `this` is something else), in order, without repeats.
    pub fn input_paths(&self) -> Vec<ReadPath> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        read_paths(&self.nodes, &mut out, &mut seen, true);
        out
    }

    /// Whether the template may read input values by names it does not write: it reads
    /// the whole input (`{{json this}}` or `{{@root}}` where `this` is the input), reaches
    /// up with `../`, or calls a registered helper (which sees `this`). Then
    /// [`Dotprompt::input_paths`] does not list every value the template can use.
    ///
    /// ```
    /// use promptic::dotprompt::Dotprompt;
    ///
    /// assert!(Dotprompt::parse("{{json this}}")?.reads_whole_input());
    /// assert!(Dotprompt::parse("{{#each xs}}{{../title}}{{/each}}")?.reads_whole_input());
    /// assert!(!Dotprompt::parse("{{#each xs}}{{this}}{{/each}} {{title}}")?.reads_whole_input());
    /// # Ok::<(), promptic::Diagnostics>(())
    /// ```
    pub fn reads_whole_input(&self) -> bool {
        fn whole(expr: &ast::Expr, top: bool) -> bool {
            let ast::Expr::Path(path) = expr else {
                return false;
            };
            if path.data {
                return path.parts.len() == 1 && path.parts[0] == "root";
            }
            path.depth > 0 || (top && path.parts.is_empty())
        }
        fn walk(
            nodes: &[ast::Node],
            top: bool,
            partials: &HashMap<String, Arc<PartialTemplate>>,
            seen: &mut BTreeSet<(String, bool)>,
        ) -> bool {
            nodes.iter().any(|node| match node {
                ast::Node::Text(_) => false,
                ast::Node::Value(e) => whole(e, top),
                ast::Node::Helper(c) => {
                    c.name == ast::HelperName::Custom
                        || c.params
                            .iter()
                            .chain(c.hash.iter().map(|h| &h.1))
                            .any(|e| whole(e, top))
                }
                ast::Node::Block(b) => {
                    let inner =
                        top && !matches!(b.kind, ast::BlockKind::Each | ast::BlockKind::With);
                    b.params.iter().any(|e| whole(e, top))
                        || walk(&b.body, inner, partials, seen)
                        || walk(&b.inverse, top, partials, seen)
                }
                ast::Node::Partial(p) => {
                    p.context
                        .iter()
                        .chain(p.hash.iter().map(|h| &h.1))
                        .any(|e| whole(e, top))
                        || {
                            let top = top && p.context.is_none();
                            seen.insert((p.name.clone(), top))
                                && partials.get(&p.name).is_some_and(|partial| {
                                    walk(&partial.nodes, top, partials, seen)
                                })
                        }
                }
            })
        }
        walk(&self.nodes, true, &self.partials, &mut BTreeSet::new())
    }

    /// The metadata dotprompt's `renderMetadata` gives: defaults, the frontmatter, schemas
    /// compiled and tools resolved.
    pub fn render_metadata(&self) -> PromptMetadata {
        self.metadata.clone()
    }

    /// [`Dotprompt::render_metadata`] with render options merged over the frontmatter
    /// (key by key, `config` merged inside).
    pub fn render_metadata_with(
        &self,
        options: &PromptMetadata,
    ) -> Result<PromptMetadata, Diagnostic> {
        self.resolve_metadata(Some(options))
    }

    /// Renders the prompt.
    pub fn render(&self, data: &DataArgument) -> Result<RenderedPrompt, Diagnostic> {
        self.render_with(data, &PromptMetadata::default())
    }

    /// Renders with options: `options.input.default` fills input variables the data
    /// leaves out (dotprompt's render options).
    pub fn render_with(
        &self,
        data: &DataArgument,
        options: &PromptMetadata,
    ) -> Result<RenderedPrompt, Diagnostic> {
        let metadata = Arc::clone(&self.rendered_metadata);
        // The data's input, read in place; under the options' defaults, a copy that
        // merges them; one value, where the template may reach it whole.
        let merged;
        let defaults = options
            .0
            .get("input")
            .and_then(|i| i.get("default"))
            .and_then(Value::as_object)
            .filter(|d| !d.is_empty());
        let input = match defaults {
            Some(defaults) => {
                let mut input = defaults.clone();
                input.extend_from(&data.input);
                merged = Value::Object(input);
                render::Input::Value(&merged)
            }
            None if self.input_whole => {
                merged = Value::Object(data.input.clone());
                render::Input::Value(&merged)
            }
            None => render::Input::InPlace(&data.input),
        };
        let meta_value = if self.uses_metadata() {
            let mut m = Object::new();
            m.insert("prompt", Value::Object(metadata.0.clone()));
            // No history is none given: `@metadata.messages` is then undefined, as in
            // JavaScript when the data has no `messages`. Through JSON text, so that each
            // message keeps its keys in order (`role`, `content`, `metadata`) for `{{json}}`.
            if !data.messages.is_empty()
                && let Ok(Value::Array(items)) = serde_json::to_string(&data.messages)
                    .and_then(|text| crate::value::js::from_str(&text))
            {
                m.insert("messages", Value::Array(items));
            }
            Value::Object(m)
        } else {
            Value::Null
        };
        let mut renderer = render::Renderer {
            partials: &self.partials,
            helpers: &self.helpers.0,
            limit: self.limit,
            steps: 0,
            written: 0,
            out: Vec::new(),
        };
        renderer
            .run(&self.nodes, &self.source, input, &data.context, &meta_value)
            .map_err(|e| *e)?;
        let (messages, breakpoints) = messages::to_messages(renderer.out, &data.messages);
        Ok(RenderedPrompt {
            metadata,
            messages,
            breakpoints,
        })
    }

    /// See [`Dotprompt::input_whole`]: any path with nothing after `this`, `../` or
    /// `@root`, or any call of a helper registered from Rust, in the body or a partial.
    fn reaches_input_whole(&self) -> bool {
        let whole = |e: &ast::Expr| match e {
            ast::Expr::Path(p) if p.data => p.parts.len() == 1 && p.parts[0] == "root",
            ast::Expr::Path(p) => p.parts.is_empty(),
            ast::Expr::Literal(_) => false,
        };
        let custom = |c: &ast::HelperCall| c.name == ast::HelperName::Custom;
        self.any_expr(&whole, &custom)
    }

    fn uses_metadata(&self) -> bool {
        let metadata = |e: &ast::Expr| matches!(e, ast::Expr::Path(p) if p.data && p.parts.first().is_some_and(|s| s == "metadata"));
        self.any_expr(&metadata, &|_| false)
    }

    /// [`ast::any_expr`] over the body and every partial.
    fn any_expr(
        &self,
        expr: &dyn Fn(&ast::Expr) -> bool,
        helper: &dyn Fn(&ast::HelperCall) -> bool,
    ) -> bool {
        ast::any_expr(&self.nodes, expr, helper)
            || self
                .partials
                .values()
                .any(|p| ast::any_expr(&p.nodes, expr, helper))
    }

    /// dotprompt's `resolveMetadata`: the parsed prompt, then the options, each merged key
    /// by key with `config` merged inside; then tools resolved and schemas compiled.
    fn resolve_metadata(
        &self,
        options: Option<&PromptMetadata>,
    ) -> Result<PromptMetadata, Diagnostic> {
        let mut out = Object::new();
        for merge in std::iter::once(&self.parsed).chain(options.map(|o| &o.0)) {
            let mut config = out
                .get("config")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            out.extend_from(merge);
            if let Some(Value::Object(more)) = merge.get("config") {
                config.extend_from(more);
            }
            out.insert("config", Value::Object(config));
        }
        if let Some(Value::Array(names)) = out.get("tools").cloned() {
            let mut defs = match out.get("toolDefs") {
                Some(Value::Array(defs)) => defs.clone(),
                _ => Vec::new(),
            };
            let mut unregistered = Vec::new();
            for name in names {
                match self.tools.get(&name.to_js_string()) {
                    Some(def) => defs.push(def.clone()),
                    None => unregistered.push(name),
                }
            }
            out.insert("toolDefs", Value::Array(defs));
            out.insert("tools", Value::Array(unregistered));
        }
        let resolve = |name: &str| self.schemas.get(name).cloned();
        for key in ["input", "output"] {
            let Some(Value::Object(section)) = out.get(key) else {
                continue;
            };
            let Some(schema) = section.get("schema") else {
                continue;
            };
            match picoschema::compile(schema, &resolve) {
                Ok(Some(compiled)) => {
                    let mut section = section.clone();
                    section.insert("schema", compiled);
                    out.insert(key, Value::Object(section));
                }
                Ok(None) => {}
                Err(e) => {
                    let text = self.source.text();
                    let at = if e.culprit.is_empty() {
                        None
                    } else {
                        text.find(&e.culprit)
                    };
                    let diagnostic = Diagnostic::new(format!("{key} schema: {}", e.message));
                    let diagnostic = match at {
                        Some(at) => diagnostic.at(&self.source, at..at + e.culprit.len()),
                        None => diagnostic.in_file(self.source.path()),
                    };
                    return Err(match e.help {
                        Some(help) => diagnostic.with_help(help),
                        None => diagnostic,
                    });
                }
            }
        }
        Ok(PromptMetadata(out))
    }
}

/// Finds the partials a body uses (and theirs), registered or from the resolver; a name
/// neither knows is an error at its tag.
fn collect_partials(
    nodes: &[ast::Node],
    source: &SourceFile,
    registry: &Registry,
    found: &mut HashMap<String, Arc<PartialTemplate>>,
    problems: &mut Diagnostics,
) {
    for node in nodes {
        match node {
            ast::Node::Block(block) => {
                collect_partials(&block.body, source, registry, found, problems);
                collect_partials(&block.inverse, source, registry, found, problems);
            }
            ast::Node::Partial(call) => {
                if found.contains_key(&call.name) {
                    continue;
                }
                if let Some(partial) = registry.partials.get(&call.name) {
                    found.insert(call.name.clone(), partial.clone());
                    let partial = partial.clone();
                    collect_partials(&partial.nodes, &partial.source, registry, found, problems);
                    continue;
                }
                let resolved = registry
                    .resolver
                    .as_ref()
                    .and_then(|r| r(&call.name))
                    .filter(|s| !s.is_empty());
                let Some(text) = resolved else {
                    let known: Vec<&str> = registry.partials.keys().map(String::as_str).collect();
                    let mut diagnostic =
                        Diagnostic::new(format!("unknown partial `{}`", call.name))
                            .at(source, call.span.clone());
                    diagnostic = match crate::suggest::closest(&call.name, known) {
                        Some(close) => {
                            diagnostic.with_help(format!("did you mean `{{{{> {close}}}}}`?"))
                        }
                        None => diagnostic
                            .with_help(format!("register it, or add `_{}.prompt`", call.name)),
                    };
                    problems.push(diagnostic);
                    continue;
                };
                let shown = match &registry.resolver_dir {
                    Some(dir) => format!("{dir}/_{}.prompt", call.name),
                    None => format!("_{}.prompt", call.name),
                };
                match parse_partial(&shown, &text, &registry.helper_names()) {
                    Ok(partial) => {
                        let partial = Arc::new(partial);
                        found.insert(call.name.clone(), partial.clone());
                        collect_partials(
                            &partial.nodes,
                            &partial.source,
                            registry,
                            found,
                            problems,
                        );
                    }
                    Err(errors) => problems.extend(errors),
                }
            }
            _ => {}
        }
    }
}

fn read_paths(
    nodes: &[ast::Node],
    out: &mut Vec<ReadPath>,
    seen: &mut BTreeSet<Vec<String>>,
    top: bool,
) {
    fn note(
        expr: &ast::Expr,
        top: bool,
        out: &mut Vec<ReadPath>,
        seen: &mut BTreeSet<Vec<String>>,
    ) {
        let ast::Expr::Path(path) = expr else { return };
        let segments = if path.data {
            match path.parts.split_first() {
                Some((root, rest)) if root == "root" && !rest.is_empty() => rest.to_vec(),
                _ => return,
            }
        } else if top && path.depth == 0 && !path.parts.is_empty() {
            path.parts.clone()
        } else {
            return;
        };
        if seen.insert(segments.clone()) {
            out.push(ReadPath {
                segments,
                span: path.span.clone(),
            });
        }
    }
    for node in nodes {
        match node {
            ast::Node::Text(_) => {}
            ast::Node::Value(e) => note(e, top, out, seen),
            ast::Node::Helper(c) => c
                .params
                .iter()
                .chain(c.hash.iter().map(|h| &h.1))
                .for_each(|e| note(e, top, out, seen)),
            ast::Node::Partial(p) => p
                .context
                .iter()
                .chain(p.hash.iter().map(|h| &h.1))
                .for_each(|e| note(e, top, out, seen)),
            ast::Node::Block(b) => {
                b.params.iter().for_each(|e| note(e, top, out, seen));
                let inner = top && !matches!(b.kind, ast::BlockKind::Each | ast::BlockKind::With);
                read_paths(&b.body, out, seen, inner);
                read_paths(&b.inverse, out, seen, top);
            }
        }
    }
}
