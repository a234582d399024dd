//! The promptic prompt language and its runtime.
//!
//! One implementation of the language, shared by the `#[derive(Prompt)]` macro at build
//! time, by applications for prompts that arrive at run time, and by the CLI. A prompt goes
//! through one module per stage: [`load`] → [`parse`] → [`resolve`] → [`render`].
//!
//! Most users reach this crate through the `promptic` facade.

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
#[cfg(feature = "hot-reload")]
#[cfg_attr(docsrs, doc(cfg(feature = "hot-reload")))]
pub mod hot;
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
pub mod suggest;
mod swap;
pub mod value;

pub use case::{upper_first, variant_name};
pub use chat::{Chat, Content, ContentPart, Message, Role};
pub use clients::anthropic;
pub use context::ContextValues;
pub use diagnostic::{Diagnostic, Diagnostics, SourceFile};
pub use family::Tags;
pub use guidance::Guidance;
pub use identity::{Identity, IdentityError};
pub use load::config::Config;
pub use meta::{Color, Extra, Meta};
pub use prompt::{ChatPrompt, ChatSection, Prompt, PromptVariable, check_identity};
pub use python::safe_substitute;
pub use render::PromptContent;
pub use resolve::VarSource;
pub use value::PromptValue;
