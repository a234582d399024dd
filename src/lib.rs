//! # promptic
//!
//! LLM prompts as part of the type system. promptic reads your prompt files at build time,
//! checks every placeholder against a typed struct, and generates a render function that
//! allocates once. A misspelt `$preferd`, a value nobody passes or a typo in a block is a
//! compile error at the prompt file's line and column, not text that reaches the model.
//!
//! It reads the prompt files people already have: Markdown with `$name` placeholders, chat
//! prompts, Jinja templates, dotprompt files, keep documents and PromptEngine folders, and
//! renders the bytes their own engines render.
//!
//! ```
//! use promptic::{Identity, Prompt};
//!
//! #[derive(Prompt)]
//! #[prompt("segment_synthesis")] // prompts/segment_synthesis.md
//! struct SegmentSynthesis<'a> {
//!     day: &'a str,
//!     segment_start: &'a str,
//!     segment_end: &'a str,
//!     note: Option<&'a str>, // may only be used inside {% if note %}
//! }
//!
//! let identity = Identity::from_json(r#"{"identity": {"preferred": "Sam"}}"#)?;
//! let out = SegmentSynthesis {
//!     day: "Friday",
//!     segment_start: "2:30 PM",
//!     segment_end: "2:35 PM",
//!     note: None,
//! }
//! .render(&identity);
//! assert_eq!(out.metadata.title.as_deref(), Some("Segment Activity Synthesis"));
//! assert!(out.text.contains("between 2:30 PM and 2:35 PM"));
//! # Ok::<(), promptic::IdentityError>(())
//! ```
//!
//! ## Where to find what
//!
//! - The macros, each with its attributes and examples: [`derive@Prompt`] (a struct checked
//!   against its prompt file), [`prompt!`] (the same in expression position),
//!   [`derive@PromptValue`] (nested values of Jinja and dotprompt prompts) and
//!   [`derive@PromptStore`] (PromptEngine folders).
//! - What renders return: [`PromptContent`] (text, path, typed [`Meta`]), [`Chat`] of
//!   [`Message`]s for chat prompts, [`dotprompt::RenderedPrompt`] for dotprompt files.
//! - Run time: [`Identity`] and [`check_identity`] at start-up, [`load::Project`] and
//!   [`check::check`] for prompts that arrive at run time, [`formats::jinja::Templates`] and
//!   [`dotprompt::Dotprompt`] for Jinja and dotprompt text, [`family::Family`] and
//!   [`store::Store`] for families and stores, `hot` for hot reload.
//! - The book, one module per chapter: [getting started](book::getting_started),
//!   [the prompt language](book::language), [identity and templates](book::identity_and_templates),
//!   [chat prompts](book::chat), [guidance levels and prompt caching](book::guidance_and_caching),
//!   [Jinja](book::jinja), [dotprompt](book::dotprompt), [LLM clients](book::clients),
//!   [families](book::families),
//!   [stores](book::stores), [the command line](book::cli), [hot reload](book::hot_reload),
//!   [limits and security](book::limits), [performance](book::performance),
//!   [compatibility](book::compatibility) and [migrating](book::migrating).
//!
//! ## Features
//!
//! - `hot-reload`: `promptic::hot`, derived prompts reloaded from their files in development
//!   (the derive then implements [`ContextValues`] too).
//! - `archive`: `Store::export_prompts` and `Store::import_prompts`, zip archives of a
//!   store's user layer.
//! - `async-openai`, `genai`, `rig`, `ollama`: a [`Chat`] converted into the request type of
//!   that client crate (see [`clients`] and [the chapter](book::clients));
//!   [`anthropic::MessagesRequest`] needs no feature.

// docs.rs builds with `--cfg docsrs` on nightly: each feature-gated item gets its badge.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod book;

/// Derives [`Prompt`](trait@Prompt) for a context struct, checked against its prompt file at
/// build time.
///
/// # Attributes
///
/// | attribute | on | meaning |
/// |---|---|---|
/// | `#[prompt("name")]` | the struct | the prompt file: `prompts/name.md`, `name.md.j2`, `name.j2` or `name.prompt` under the crate root; `/` for subfolders |
/// | `#[prompt(family = "name")]` | the struct | a family: every `prompts/name/*.md`, one chosen per document by its tags |
/// | `#[prompt(rename = "key")]` | a field | the placeholder the field fills, when it is not the field's name |
/// | `#[prompt(one_of("a", "b"))]` | a text field | the values the field can take; `{% if field == "a" %}` is checked against them |
///
/// Each field is the value of the placeholder with its name. Every field must be used, every
/// placeholder must be filled (by a field, the identity or a template), and an `Option` or
/// `bool` field may only be used inside `{% if field %}`. The derive adds an inherent
/// `render`: `render(&self, &Identity) -> PromptContent` for a Markdown prompt, which cannot
/// fail; `messages(&self, &Identity) -> Chat` for a chat prompt; `render(&self)` returning a
/// `Result` for Jinja and dotprompt prompts, which fails only where their own engines fail
/// (the [`Render`] trait says where).
///
/// Every derived prompt also implements [`Render`], the one shape of all formats: its
/// `NAME`, `PATH` and `FORMAT`, and `output(&identity)`, the render as the common
/// [`Output`] (a text or a chat).
///
/// ```
/// use promptic::{Identity, Output, Prompt, Render};
///
/// #[derive(Prompt)]
/// #[prompt("reply")]
/// struct Reply<'a> {
///     topic: &'a str,
///     #[prompt(one_of("short", "long"))]
///     length: &'a str,
/// }
///
/// fn sent<P: Render>(prompt: &P, identity: &Identity) -> Result<String, promptic::Diagnostics> {
///     Ok(prompt.output(identity)?.contents().concat())
/// }
///
/// let identity = Identity::from_json(r#"{"preferred": "Sam"}"#)?;
/// assert_eq!(Reply::FORMAT, "markdown");
/// let text = sent(&Reply { topic: "tides", length: "short" }, &identity).unwrap();
/// assert!(text.ends_with("Two sentences at most."));
/// # Ok::<(), promptic::IdentityError>(())
/// ```
///
/// # `rename`
///
/// ```
/// use promptic::{Identity, Prompt};
///
/// #[derive(Prompt)]
/// #[prompt("daily_summary")] // uses `$day_YYYYMMDD`
/// struct DailySummary<'a> {
///     day: &'a str,
///     #[prompt(rename = "day_YYYYMMDD")]
///     day_yyyymmdd: &'a str,
///     facet: Option<&'a str>,
/// }
///
/// let identity = Identity::from_json(r#"{"preferred": "Sam"}"#)?;
/// let out = DailySummary { day: "Friday", day_yyyymmdd: "20260124", facet: None }.render(&identity);
/// assert!(out.text.contains("# Daily Summary for Friday"));
/// # Ok::<(), promptic::IdentityError>(())
/// ```
///
/// # `one_of`
///
/// ```
/// use promptic::{Identity, Prompt};
///
/// #[derive(Prompt)]
/// #[prompt("reply")] // {% if length == "short" %} ... {% else %} ... {% endif %}
/// struct Reply<'a> {
///     topic: &'a str,
///     #[prompt(one_of("short", "long"))]
///     length: &'a str,
/// }
///
/// let identity = Identity::from_json(r#"{"preferred": "Sam"}"#)?;
/// let short = Reply { topic: "tides", length: "short" }.render(&identity);
/// assert!(short.text.ends_with("Two sentences at most."));
/// # Ok::<(), promptic::IdentityError>(())
/// ```
///
/// A value the prompt compares with that is not among the choices (`length == "shrot"`) is a
/// compile error with the closest choice.
///
/// # `family`
///
/// ```
/// use promptic::{Identity, Tags};
///
/// #[derive(promptic::Prompt)]
/// #[prompt(family = "summarize")] // prompts/summarize/*.md
/// struct Summarize<'a> {
///     text: &'a str,
///     sprint: Option<&'a str>,
/// }
///
/// let tags: Tags = [("type", "meeting"), ("project", "myapp")].into_iter().collect();
/// let out = Summarize { text: "Notes.", sprint: None }.render(&tags, &Identity::default());
/// assert_eq!(out.path, "prompts/summarize/myapp_meetings.md");
/// ```
pub use prompt_macros::Prompt;

/// Renders a prompt file with the values given, checked at build time as
/// [`derive(Prompt)`](derive@Prompt) checks a struct.
///
/// `prompt!("name", key = expr, other)` names the prompt file as `#[prompt("name")]` does;
/// each argument is a value (`other` alone is short for `other = other`). The arguments are
/// moved into the value the macro makes, which has the same `render` as a derived struct.
/// An argument that a block tests must be an `Option` or a `bool`.
///
/// ```
/// use promptic::{Identity, prompt};
///
/// let day = "Friday";
/// let facet: Option<&str> = Some("work");
/// let out = prompt!("daily_summary", day, day_YYYYMMDD = "20260124", facet)
///     .render(&Identity::from_json(r#"{"preferred": "Sam"}"#)?);
/// assert!(out.text.contains("Focus on the **work** facet."));
/// # Ok::<(), promptic::IdentityError>(())
/// ```
///
/// A missing argument, an argument the prompt does not use and a misspelt one are compile
/// errors at the prompt file's line and column.
///
/// On a Jinja template or a dotprompt file, the value has that format's `render()`, as a
/// derived struct of it has (see the book's Jinja and dotprompt chapters); a dotprompt file
/// that calls helpers of its own takes them as the derive's attribute does,
/// `prompt!("recipe", helpers(list = dash_list), food = …)`:
///
/// ```
/// let rendered = promptic::prompt!("travel_agent", traveller = "Sam", city = "Lisbon")
///     .render()?;
/// assert_eq!(rendered.metadata.model(), Some("googleai/gemini-2.5-flash"));
/// # Ok::<(), promptic::Diagnostic>(())
/// ```
pub use prompt_macros::prompt;

/// Derives a value a Jinja or dotprompt template can read by path (`traveller.name`), so that
/// a path into it that does not exist is a compile error.
///
/// # Attributes
///
/// | attribute | on | meaning |
/// |---|---|---|
/// | `#[prompt(rename = "key")]` | a field | the key templates read, when it is not the field's name |
///
/// ```
/// use promptic::{Guidance, PromptValue};
///
/// #[derive(PromptValue)]
/// struct Traveller<'a> {
///     #[prompt(rename = "name")]
///     full_name: &'a str,
/// }
///
/// #[derive(PromptValue)]
/// struct Stop<'a> {
///     city: &'a str,
///     nights: Option<u8>,
/// }
///
/// #[derive(promptic::Prompt)]
/// #[prompt("trip_planner")] // prompts/trip_planner.md.j2 reads traveller.name, stop.city
/// struct TripPlanner<'a> {
///     guidance: Guidance,
///     traveller: Traveller<'a>,
///     stops: &'a [Stop<'a>],
///     currency: Option<&'a str>,
/// }
///
/// let stops = [Stop { city: "Lyon", nights: None }];
/// let traveller = Traveller { full_name: "Sam" };
/// let prompt = TripPlanner { guidance: Guidance::Lean, traveller, stops: &stops, currency: None };
/// assert!(prompt.render()?.text.contains("You plan trips for Sam."));
/// # Ok::<(), promptic::Diagnostic>(())
/// ```
pub use prompt_macros::PromptValue;

/// Derives the embedded defaults of a PromptEngine store folder, checked at build time.
///
/// # Attributes
///
/// | attribute | on | meaning |
/// |---|---|---|
/// | `#[store("folder")]` | the struct | the store folder (its `_meta/` registries and domain files), relative to the crate root |
///
/// The derive adds `defaults()` (every file of the folder, embedded), a constant per prompt
/// id (`system_rule` becomes `SYSTEM_RULE`) and `PROMPT_IDS`. A problem in the folder is a
/// compile error at the JSON file's line and column.
///
/// ```
/// use promptic::PromptStore;
/// use promptic::store::Store;
///
/// #[derive(PromptStore)]
/// #[store("examples/persona_prompts")]
/// struct Persona;
///
/// let store = Store::builder(Persona::defaults())
///     .static_value("char_name", "Luna")
///     .computed("current_date", || "Friday".to_owned())
///     .open()?;
/// let text = store.resolve_prompt(Persona::PERSONA_DESCRIPTION, "default", &[])?;
/// assert!(text.starts_with("Luna is patient"));
/// # Ok::<(), promptic::store::StoreError>(())
/// ```
pub use prompt_macros::PromptStore;
// What users reach, by name. The facade is this list: a new public item of the runtime
// is not part of promptic until it is added here.

// The outputs of a render and what they carry.
pub use prompt_runtime::{
    Chat, Color, Content, ContentPart, Diagnostic, Diagnostics, Extra, Message, Meta, Output,
    PromptContent, Role, SourceFile, anthropic,
};
// What the derives implement, and what their renders take.
pub use prompt_runtime::{
    ChatPrompt, ChatSection, Config, ContextValues, Guidance, Identity, IdentityError, Prompt,
    PromptValue, PromptVariable, Render, Tags, VarSource, check_identity,
};
// Python's rules, for corpora that depend on them.
pub use prompt_runtime::{safe_substitute, upper_first, variant_name};
// The modules, one per part of the language and its runtime (see the crate's docs above).
/// dotprompt `.prompt` files at run time: [`dotprompt::Dotprompt`] parses and checks a
/// source once, then renders it to dotprompt's messages and metadata.
pub use prompt_runtime::formats::dotprompt;
// Hot reload, with the `hot-reload` feature: this crate's own module.
#[cfg(feature = "hot-reload")]
#[cfg_attr(docsrs, doc(cfg(feature = "hot-reload")))]
pub mod hot;
pub use prompt_runtime::{
    chat, check, clients, context, diagnostic, doc, family, formats, guidance, identity, load,
    meta, output, parse, render, resolve, value,
};

pub mod store {
    //! Prompt stores: PromptEngine's folders of prompts as data, checked when loaded and
    //! rendered as PromptEngine renders them, only strictly.
    //!
    //! A store folder has the PromptEngine layout ([`layout`]): `_meta/prompt_manifest.json`
    //! (every prompt: `domain` or `domain_file`, `category`, `type`, `target`, `order`,
    //! `enabled`, `requires_any`, `variants`), `_meta/placeholder_registry.json` (every
    //! `{{key}}` with its phase: the seed's `type`, or the code's `resolve_phase`), optional
    //! `_meta/user_manifest.json` and `_meta/user_placeholder_registry.json`, and a domain
    //! file per prompt (the seed's `{"id", "variants": {NAME: {"text"}}}` or the code's
    //! `{ID: {"variants": {NAME: {"content"}}}}`).
    //!
    //! The stages, one file each: [`layout`] reads the files once, `check` turns them into
    //! the parsed form (every problem at once, located in the JSON, the caret on the
    //! placeholder inside its string), `render` fills a parsed text, and [`Store`] holds the
    //! values and the current state. `edit` changes the user layer ([`Store::update_prompt`],
    //! [`Store::reset_prompt_to_default`], [`Store::factory_reset`], …): each change is checked
    //! like a fresh open before `atomic` writes it (see [`Store`] for the guarantees). A placeholder is `{{key}}` with nothing else inside (the
    //! one lexer's [`Syntax::TightBraces`](crate::parse::lexer::Syntax::TightBraces));
    //! anything else is text. Unlike PromptEngine, an unknown `{{key}}` is an error when the
    //! folder is loaded and a missing value an error when it is rendered: `{{key}}` never
    //! reaches a model.
    //!
    //! ```
    //! use promptic::store::{Defaults, Store};
    //!
    //! let files: &[(&str, &[u8])] = &[
    //!     ("_meta/prompt_manifest.json", br#"{"prompts": {"system_rule": {"domain": "system_rule", "order": 100}}}"#),
    //!     ("_meta/placeholder_registry.json", br#"{"placeholders": {"char_name": {"type": "static"}}}"#),
    //!     ("system_rule.json", br#"{"id": "system_rule", "variants": {"default": {"text": "You are {{char_nme}}."}}}"#),
    //! ];
    //! let problems = Defaults::from_files("persona_prompts", files).unwrap_err();
    //! assert_eq!(
    //!     problems.to_string(),
    //!     r#"error: unknown placeholder `{{char_nme}}` in variant `default` of prompt `system_rule`
    //!  --> persona_prompts/system_rule.json:1:65
    //!   |
    //! 1 | {"id": "system_rule", "variants": {"default": {"text": "You are {{char_nme}}."}}}
    //!   |                                                                 ^^^^^^^^^^^^
    //!   = help: did you mean `{{char_name}}`?"#
    //! );
    //! ```

    pub use prompt_runtime::store::{
        Defaults, Phase, Preview, PromptEntry, PromptInfo, SequenceEntry, StoreError, Target,
        TargetName, is_store_dir, layout,
    };
    #[cfg(feature = "archive")]
    pub use prompt_store::{
        ExportSummary, ImportMode, ImportSummary, MAX_ARCHIVE_BYTES, MAX_ARCHIVE_ENTRIES,
        MAX_ENTRY_BYTES,
    };
    pub use prompt_store::{Store, StoreBuilder};
}
// The code the macros generate reaches the runtime through this module only.
#[doc(hidden)]
pub use prompt_runtime::__private;

// The README's examples are compiled and run by `cargo test` too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
