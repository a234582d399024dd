//! The promptic prompt language and its runtime.
//!
//! One implementation of the language, shared by the `#[derive(Prompt)]` macro at build
//! time, by applications for prompts that arrive at run time, and by the CLI. A prompt goes
//! through one module per stage: its file is read ([`load::PromptFile`]), then [`parse`] →
//! [`resolve`] → [`render`], and [`check`] takes it through all of them at once.
//!
//! Most users reach this crate through the `promptic` facade.
//!
//! # Layout
//!
//! The modules are layers, bottom first; each uses only the layers before its own, so the
//! language core never reaches up into what is built on it (`tests/layering.rs` holds
//! them to this order):
//!
//! 1. the shared pieces: [`diagnostic`], [`suggest`], [`guidance`], `case`, `digest`,
//!    `swap`, and `role` ([`Role`] and [`chat::MAX_CACHE_BREAKPOINTS`], reached through
//!    [`chat`]);
//! 2. `source`: reading one file — bytes to normalised text, only from inside its folder
//!    ([`load::Root`]), and its JSON frontmatter ([`load::Frontmatter`]), all reached
//!    through [`load`];
//! 3. the language core, [`parse`] (a [`PromptFile`](load::PromptFile), its lexer, its
//!    `{% %}` directives, and didactyl's `---template---` files,
//!    [`ChatTemplate`](chat::ChatTemplate)), and [`identity`];
//! 4. [`meta`], the typed frontmatter, and `python`, Python's `string.Template` and
//!    whitespace rules;
//! 5. [`chat`], messages and chats;
//! 6. [`resolve`], then [`render`], then [`context`];
//! 7. the project, each on the ones before it: [`value`], the one run-time value (and the
//!    views the compiled renders read); [`store`], PromptEngine's stores; [`load`], the
//!    prompts folder ([`Project`](load::Project), [`Config`]); [`check`], the Markdown
//!    checker (`Project::check`); the front ends of [`formats`], each adding its own
//!    loading to `Project`; and [`family`], keep's families over keep's documents;
//! 8. what is built on all of it: [`doc`], [`output`], the [`Prompt`] trait and
//!    [`clients`]. Built on this crate: `prompt-store` (a store that changes) and the
//!    facade's hot reload (`promptic::hot`).
//!
//! Where each format is read, checked and rendered:
//!
//! | format | read | checked | rendered |
//! |---|---|---|---|
//! | Markdown (`$name`, `{{name}}`), chat sections | [`parse`] | [`resolve`], [`check`] | [`render`] |
//! | didactyl templates (`---template---`) | [`parse`] (`parse/didactyl.rs`) | [`resolve`], [`check`] | [`render`], [`ChatTemplate::messages`](chat::ChatTemplate::messages) |
//! | keep agent prompts, keep prompt documents | [`formats::keep`] | [`formats::keep`] | [`formats::keep`] |
//! | Jinja (`.j2`, `.md.j2`) | [`formats::jinja`] | [`formats::jinja`] | [`formats::jinja`] |
//! | dotprompt (`.prompt`) | [`formats::dotprompt`] | [`formats::dotprompt`] | [`formats::dotprompt`] |
//! | PromptEngine stores | [`store`] | [`store`] | [`store`] |
//!
//! Every prompt of a prompts folder is reached through one interface, [`formats::Format`]:
//! `formats/markdown.rs` (Markdown, chat and keep agent prompts), `formats/jinja/front.rs`,
//! `formats/dotprompt/front.rs` and `formats/promptengine.rs` (a store folder, read whole)
//! implement it.

// Where links into this crate point from the documentation of a crate built without it
// (`cargo doc --no-deps`): the page of a user's derived prompt shows the `Prompt` trait's
// docs, whose links otherwise stay `[check_identity]` in brackets. Keep the version in step
// with Cargo.toml.
#![doc(html_root_url = "https://docs.rs/prompt-runtime/0.1.0")]
// docs.rs builds with `--cfg docsrs` on nightly: each feature-gated item gets its badge.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
mod case;
pub mod chat;
pub mod check;
pub mod clients;
pub mod context;
pub mod diagnostic;
mod digest;
pub mod doc;
pub mod family;
pub mod formats;
pub mod guidance;
pub mod identity;
pub mod load;
pub mod meta;
pub mod output;
pub mod parse;
mod prompt;
mod python;
pub mod render;
pub mod resolve;
mod role;
#[cfg(test)]
mod scaling;
mod source;
pub mod store;
/// What promptic's other crates reach of the runtime's internals: the store's writer
/// (`prompt-store`) the guarded reader, the JSON reader with places and the digest of file
/// names; the facade's hot reload the swap of a version read whole.
#[doc(hidden)]
pub mod __internal {
    pub use crate::digest::of as digest_of;
    pub use crate::source::json::object_entries;
    pub use crate::source::{MAX_FILE, Root, decode, read_file};
    pub use crate::swap::Swapped;
}
pub mod suggest;
mod swap;
pub mod value;

pub use case::{upper_first, variant_name};
pub use chat::{Chat, Content, ContentPart, Message, Role};
pub use clients::anthropic;
pub use context::ContextValues;
pub use diagnostic::{Diagnostic, Diagnostics, SourceFile};
pub use family::Tags;
pub use formats::Output;
pub use guidance::Guidance;
pub use identity::{Identity, IdentityError};
pub use load::config::Config;
pub use meta::{Color, Extra, Meta};
pub use prompt::{ChatPrompt, ChatSection, Prompt, PromptVariable, Render, check_identity};
pub use python::safe_substitute;
pub use render::PromptContent;
pub use resolve::VarSource;
pub use value::PromptValue;
