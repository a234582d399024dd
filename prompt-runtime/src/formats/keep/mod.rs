//! keep's prompt documents (`.prompt/summarize/*`, `.prompt/analyze/*`, …), read as keep
//! reads them.
//!
//! keep's code is the reference for every rule here (its prompt-doc selection, its
//! meta-doc rule parser, its `## Prompt` extraction and its tag normalization):
//!
//! - the prompt is the text after the first line that is exactly `## Prompt` (trailing
//!   whitespace allowed) up to the next line starting `## `, stripped; a document whose
//!   section is missing **or empty** is no candidate;
//! - rule lines come from the **whole** document, the Prompt section included: a line
//!   whose every token is `key=value` is a rule; a line that is only `key=*` (keep's
//!   prerequisite) or `key=` (its context key) is not one; a key written twice on a line
//!   keeps its last value and counts once;
//! - whitespace is Python's `str.isspace()`: Unicode spaces and the four ASCII information
//!   separators U+001C..U+001F;
//! - a document's tag values are normalized before they are compared
//!   ([`normalize_tag_value`]: stripped, NFC, `http(s)://` URLs canonicalized).
//!
//! keep's agent prompts (`.prompt/agent/*`) are templates of their own: [`AgentPrompt`]
//! reads and renders them as keep's `expand_prompt` does, after [`expand_includes`].

mod agent;
mod agent_file;
mod doc;
mod fnmatch;
mod http_uri;
mod include;
mod normalize;
pub(crate) mod rules;
pub(crate) mod tags;
pub(crate) use crate::python::space as pyspace;

pub use agent::{AgentKind, AgentPart, AgentPlaceholder, AgentPrompt};
pub(crate) use agent::{clean_up, is_blank};
pub use agent_file::AgentFile;
pub use doc::prompt_rule_lines;
pub(crate) use doc::{read, rule_line};
pub(crate) use fnmatch::fnmatch;
pub use include::{
    IncludeError, IncludeOrigin, MAX_EXPANDED, TracedExpansion, TracedIncludeError,
    expand_includes, expand_includes_traced,
};
pub use normalize::normalize_tag_value;
