//! # promptic
//!
//! LLM prompts as part of the type system. Prompt files — Markdown with optional JSON
//! frontmatter, `$name` placeholders, reusable templates and `{% if %}` blocks — are read
//! at compile time. Every placeholder is checked against a typed context struct, the
//! identity schema (`prompts/promptic.json`) and the templates; a mistake is a compile
//! error pointing at the prompt file's line and column.
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
//! assert!(!out.text.contains("Note from"));
//! # Ok::<(), promptic::IdentityError>(())
//! ```
//!
//! ## `#[derive(Prompt)]`
//!
//! `#[prompt("name")]` names `prompts/name.md` under the crate's `CARGO_MANIFEST_DIR`
//! (subfolders with `/`; paths leaving `prompts/` are refused). Each field is the context
//! variable of the same name (`#[prompt(rename = "day_YYYYMMDD")]` for other names). A
//! field may be any `Display` type; string-like values (`&str`, `String`, `Cow<str>`) are
//! copied without formatting. A type that is neither (`Vec<u32>`) is a compile error at the
//! field, naming the placeholder that renders it and the types accepted. `bool` and `Option<T>` fields drive `{% if field %}`; an
//! `Option<T>` may only be used inside such a block. `#[prompt(one_of("lean", "detailed"))]`
//! makes a field a choice: `{% if level == "lean" %}` is then checked against its values
//! (a value outside them at run time matches no branch). Every field must be used.
//!
//! The derive implements [`Prompt`] (name, path, typed [`Meta`] as a constant, variables,
//! source, identity keys) and an inherent `render(&self, &Identity) -> PromptContent`
//! that cannot fail and allocates the text once. The generated rustdoc shows the prompt's
//! metadata, variables and source.
//!
//! ## `prompt!`
//!
//! `prompt!("name", field = expr, other)` checks the same way and evaluates to a value
//! with the same `render`. The arguments are moved into it (pass references to keep
//! them). An argument that a block tests must be an `Option<T>` or a `bool`.
//!
//! ## Chat prompts
//!
//! A prompt with `{% system NAME %}`, `{% user NAME %}`, `{% assistant NAME %}` or
//! `{% history NAME limit=N %}` lines is a chat prompt: the derive implements
//! [`ChatPrompt`] and an inherent `messages(&self, &Identity) -> Chat`, one [`Message`] per
//! section that renders text, history fields (`&[Message]`, `Vec<Message>`) inserted where
//! their section stands.
//!
//! ```
//! use promptic::{Identity, Message, Prompt, Role};
//!
//! #[derive(Prompt)]
//! #[prompt("journal_chat")]
//! struct JournalChat<'a> {
//!     day: &'a str,
//!     note: Option<&'a str>,
//!     turns: &'a [Message],
//!     question: &'a str,
//! }
//!
//! let turns = [Message::user("Hi"), Message::assistant("Hello")];
//! let chat = JournalChat { day: "Friday", note: None, turns: &turns, question: "Now what?" }
//!     .messages(&Identity::from_json(r#"{"preferred": "Sam"}"#)?);
//! assert_eq!(chat.messages[0].section, "system_prompt");
//! assert_eq!(chat.messages.last().map(|m| m.role), Some(Role::User));
//! assert_eq!(
//!     serde_json::to_string(&chat.messages[4])?,
//!     r#"{"role":"user","content":"Now what?"}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`chat::ChatTemplate`] reads didactyl's `---template---` format at run time.
//!
//! ## Jinja prompts and `#[derive(PromptValue)]`
//!
//! When `#[prompt("name")]` finds `prompts/name.md.j2` (or `name.j2`), the derive reads it
//! with the Jinja front end ([`formats::jinja`]): the supported subset, includes, cycles
//! and guidance fences are checked as the CLI checks them, and every name the template
//! reads, through its includes, must be a field (`guidance` aside: its fence defaults it).
//! A field read without a guard or `| default(…)` must not be an `Option`; a field the
//! template never reads is an error. A field can be a struct the template reads by path
//! (`traveller.name`), a list (`&[T]`, `Vec<T>`) it loops over, or a map
//! (`BTreeMap<String, V>`, `HashMap<String, V>`) it reads with `items()`: such a struct
//! derives [`PromptValue`], and a path into it that does not exist is
//! a compile error at the prompt's line and column, with the closest field. The generated
//! `render(&self)` renders byte for byte as Jinja2 (and as [`formats::jinja::Templates`]
//! at run time) and returns an error only where Jinja2 would fail too.
//!
//! ```
//! use promptic::{Guidance, PromptValue};
//!
//! #[derive(PromptValue)]
//! struct Traveller<'a> {
//!     name: &'a str,
//! }
//!
//! #[derive(PromptValue)]
//! struct Stop<'a> {
//!     city: &'a str,
//!     nights: Option<u8>,
//! }
//!
//! #[derive(promptic::Prompt)]
//! #[prompt("trip_planner")] // prompts/trip_planner.md.j2
//! struct TripPlanner<'a> {
//!     guidance: Guidance,
//!     traveller: Traveller<'a>,
//!     stops: &'a [Stop<'a>],
//!     currency: Option<&'a str>,
//! }
//!
//! let stops = [Stop { city: "Lyon", nights: Some(2) }];
//! let lean = TripPlanner {
//!     guidance: Guidance::Lean,
//!     traveller: Traveller { name: "Sam" },
//!     stops: &stops,
//!     currency: Some("chf"),
//! };
//! let text = lean.render()?.text;
//! assert!(text.starts_with("# Trip planner\n\nYou plan trips for Sam.\n"));
//! assert!(text.contains("- Prices in CHF.\n"));
//! assert!(text.contains("- 1. Lyon (2 nights)\n"));
//! assert!(!text.contains("## How to plan"));
//! # Ok::<(), promptic::Diagnostic>(())
//! ```
//!
//! `prompt!("trip_planner", guidance = …, traveller = …, …)` reads the same file with the
//! arguments' own types and evaluates to a value whose `render()` renders it.
//!
//! ## `#[derive(PromptStore)]`
//!
//! `#[store("folder")]` names a PromptEngine store folder under the crate's
//! `CARGO_MANIFEST_DIR`. The macro checks it as [`store::Defaults::load`] does (every
//! problem a compile error with the JSON file's line and column), embeds every file it read
//! (so cargo rebuilds when one changes), and adds `defaults()`, a constant per prompt id
//! (`system_rule` → `SYSTEM_RULE`) and `PROMPT_IDS`.
//!
//! ```
//! use promptic::PromptStore;
//! use promptic::store::Store;
//!
//! #[derive(PromptStore)]
//! #[store("examples/persona_prompts")]
//! struct Persona;
//!
//! let store = Store::builder(Persona::defaults())
//!     .static_value("char_name", "Luna")
//!     .computed("current_date", || "Friday".to_owned())
//!     .open()?;
//! let text = store.resolve_prompt(Persona::PERSONA_DESCRIPTION, "default", &[])?;
//! assert!(text.starts_with("Luna is patient"));
//! # Ok::<(), promptic::store::StoreError>(())
//! ```
//!
//! ## `#[prompt(family = "...")]`
//!
//! A family is a folder of prompts, `prompts/summarize/*.md`, each member with frontmatter
//! `"match"` rules over a document's [`Tags`] (keep's rules: the most specific member
//! wins, a tie goes to the name that sorts first, the member without rules is the
//! default). The derive checks every member against the struct and generates an inherent
//! `select(&Tags) -> &'static str`, `render(&self, &Tags, &Identity) -> PromptContent`
//! (the chosen member's text, path and metadata) and the `MEMBERS` and `IDENTITY_KEYS`
//! constants. A family without a default, two members with the same rules and a
//! malformed rule are compile errors. See [`family`] for the run-time side.
//!
//! ```
//! use promptic::{Identity, Tags};
//!
//! #[derive(promptic::Prompt)]
//! #[prompt(family = "summarize")] // prompts/summarize/*.md
//! struct Summarize<'a> {
//!     text: &'a str,
//!     sprint: Option<&'a str>,
//! }
//!
//! let tags: Tags = [("type", "meeting"), ("project", "myapp")].into_iter().collect();
//! assert_eq!(Summarize::select(&tags), "summarize/myapp_meetings");
//! let identity = Identity::from_json(r#"{"preferred": "Sam"}"#)?;
//! let out = Summarize { text: "Notes.", sprint: None }.render(&tags, &identity);
//! assert_eq!(out.path, "prompts/summarize/myapp_meetings.md");
//! assert!(out.text.ends_with("Notes."));
//! assert_eq!(Summarize::select(&Tags::new()), "summarize/default");
//! # Ok::<(), promptic::IdentityError>(())
//! ```
//!
//! ## Guidance levels
//!
//! A field named `guidance` has the type [`Guidance`]; `{% if guidance == "detailed" %}`
//! fences hold the coaching and lean is what remains. The derive proves that lean renders
//! no line detailed lacks (a `guidance == "lean"` block or an `{% else %}` on a detailed
//! fence is an error unless registered as `{% else "why" %}`), refuses per-request values
//! in a `"cache": "static"` prompt, and gives every prompt a [`Prompt::VERSION`].
//!
//! ```
//! use promptic::{Guidance, Identity, Prompt};
//!
//! #[derive(Prompt)]
//! #[prompt("research_answer")]
//! struct ResearchAnswer {
//!     guidance: Guidance,
//! }
//!
//! let identity = Identity::default();
//! let detailed = ResearchAnswer { guidance: Guidance::Detailed }.render(&identity);
//! let lean = ResearchAnswer { guidance: Guidance::resolve([None, Some("lean")]) }.render(&identity);
//! assert!(detailed.text.len() > lean.text.len());
//! assert_eq!(<ResearchAnswer as Prompt>::VERSION.len(), 16);
//! ```
//!
//! ## At start-up
//!
//! [`check_identity`] checks that a loaded [`Identity`] has every key your compiled
//! prompts use, listing every missing key.
//!
//! ## Hot reload in development
//!
//! With the `hot-reload` feature (`promptic = { version = "0.1", features = ["hot-reload"] }`),
//! `promptic::hot::HotPrompt` wraps a derived prompt so that, when the application turns it
//! on, an edit of its file shows on the next render without a rebuild: the new text is
//! checked against the compiled struct (every field, its kind, the identity schema, the
//! templates) and swapped in whole, or refused with located diagnostics while the compiled
//! (or last good) text keeps rendering. Off by default, and off in a release build unless
//! the builder says `in_release(true)`. `HotChat` does the same for chat prompts, and
//! `HotJinja` for derived Jinja prompts (their includes and `"jinja"` options too, checked
//! against the fields' `PromptValue` shapes, which the derive keeps in its
//! [`formats::jinja::JinjaPrompt`] impl); families, dotprompt prompts and keep agent
//! prompts are not supported. The derive gives every prompt struct an impl of [`ContextValues`]
//! (its fields by name, as data) for this.
//!
//! ```
//! # #[cfg(feature = "hot-reload")] {
//! use promptic::hot::HotPrompt;
//! use promptic::{Identity, Prompt};
//!
//! #[derive(Prompt)]
//! #[prompt("daily_summary")]
//! struct DailySummary<'a> {
//!     day: &'a str,
//!     #[prompt(rename = "day_YYYYMMDD")]
//!     day_yyyymmdd: &'a str,
//!     facet: Option<&'a str>,
//! }
//!
//! let hot = HotPrompt::<DailySummary>::builder()
//!     .root(env!("CARGO_MANIFEST_DIR")) // the folder of `prompts/`
//!     .enabled(true)
//!     .build();
//! // Per request: reads the files only when one changed; a refused edit is reported once.
//! if let Err(problems) = hot.reload_if_changed() {
//!     eprintln!("{problems}");
//! }
//! let context = DailySummary { day: "Friday", day_yyyymmdd: "20260124", facet: None };
//! let identity = Identity::from_json(r#"{"preferred": "Sam"}"#)?;
//! // The files are as compiled, so the compiled code renders.
//! assert_eq!(hot.render(&context, &identity), context.render(&identity));
//! # }
//! # Ok::<(), promptic::IdentityError>(())
//! ```
//!
//! ## Prompts that arrive at run time
//!
//! [`load::Project`] and [`check::check`] run the same checks on text loaded at run time,
//! and [`safe_substitute`] reproduces Python's `string.Template.safe_substitute` byte for
//! byte for existing corpora.

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
/// `Result` for Jinja and dotprompt prompts, which fails only where their own engines fail.
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
/// dotprompt `.prompt` files at run time: [`dotprompt::Dotprompt`] parses and checks a
/// source once, then renders it to dotprompt's messages and metadata.
pub use prompt_runtime::formats::dotprompt;
pub use prompt_runtime::*;

// The README's examples are compiled and run by `cargo test` too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
