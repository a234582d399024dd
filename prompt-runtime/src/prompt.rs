//! What a compiled prompt offers: the [`Prompt`] trait that `#[derive(Prompt)]` implements.

use crate::identity::{Identity, IdentityError};
use crate::meta::Meta;
use crate::render::PromptContent;
use crate::resolve::VarSource;

/// A prompt checked at compile time. Implemented by `#[derive(promptic::Prompt)]`; every
/// item but `render` is a constant, so nothing is parsed at run time.
pub trait Prompt {
    /// The prompt's name: its path under `prompts/` without `.md`.
    const NAME: &'static str;
    /// The prompt file, relative to the crate (`prompts/segment_synthesis.md`).
    const PATH: &'static str;
    /// The typed frontmatter.
    const META: Meta;
    /// The prompt file's text as compiled.
    const SOURCE: &'static str;
    /// Every name the prompt uses, where it comes from and where it is used.
    const VARIABLES: &'static [PromptVariable];
    /// The identity keys the prompt needs (see [`check_identity`]).
    const IDENTITY_KEYS: &'static [&'static str];
    /// A hex digest of what the prompt renders from (its file and every template it uses),
    /// the same on every OS and build: for tracing, evaluations and cache keys (see
    /// [`crate::check::version`]).
    const VERSION: &'static str;

    /// Renders the prompt. Cannot fail; an identity key the identity lacks renders as
    /// empty text, so check the identity once at start-up with [`check_identity`].
    fn render(&self, identity: &Identity) -> PromptContent;
}

/// The one shape of every `#[derive(Prompt)]` struct, whatever its prompt file's format
/// (Markdown, chat, Jinja, dotprompt): its name, its file and its format, and its render
/// into the common [`Output`](crate::formats::Output), a text
/// ([`PromptContent`]) or a [`Chat`](crate::Chat). Code that takes any derived prompt
/// takes it through this trait. (A family is chosen by tags, and has a `render` of its
/// own.)
///
/// ```
/// use promptic::{Diagnostics, Identity, Render};
///
/// /// What a model is sent, whatever the prompt's format.
/// fn sent<P: Render>(prompt: &P, identity: &Identity) -> Result<String, Diagnostics> {
///     Ok(prompt.output(identity)?.contents().concat())
/// }
/// ```
///
/// Which renders can fail, and why. A Markdown or chat prompt never: the build proved
/// that every value it reads is there. A Jinja prompt only where Jinja2 would fail on the
/// values at run time (an index past the end of a list, a key a map lacks, arithmetic
/// beyond 128 bits) or past the render's limits (64 MiB of text, 50 million steps). A
/// dotprompt prompt where dotprompt's JavaScript would fail on the values, past its
/// limits, or when a message holds a part a chat cannot carry (a pending `{{section}}`).
pub trait Render {
    /// The prompt's name: its path under `prompts/` without the extension.
    const NAME: &'static str;
    /// The prompt file, relative to the crate (`prompts/NAME.md`, `prompts/NAME.md.j2`).
    const PATH: &'static str;
    /// The file's format: `"markdown"`, `"chat"`, `"jinja"` or `"dotprompt"`.
    const FORMAT: &'static str;
    /// A hex digest of what the prompt renders from (its file and every file it reads:
    /// templates, includes, partials, registries), the same on every OS and build, and
    /// the `version` that `promptic list --json` shows for the file: for tracing,
    /// evaluations and cache keys.
    const VERSION: &'static str;

    /// Renders the prompt with this context into the common output: a text for Markdown
    /// and Jinja, a chat for chat prompts and dotprompt. `identity` fills a Markdown
    /// prompt's identity keys; the other formats read none.
    fn output(&self, identity: &Identity) -> Result<crate::formats::Output, crate::Diagnostics>;
}

/// A chat prompt checked at compile time: a prompt with section directives. Implemented by
/// `#[derive(promptic::Prompt)]` in place of [`Prompt`]; every item but `messages` is a
/// constant.
pub trait ChatPrompt {
    /// The prompt's name: its path under `prompts/` without `.md`.
    const NAME: &'static str;
    /// The prompt file, relative to the crate.
    const PATH: &'static str;
    /// The typed frontmatter.
    const META: Meta;
    /// The prompt file's text as compiled.
    const SOURCE: &'static str;
    /// Every name the prompt uses, where it comes from and where it is used.
    const VARIABLES: &'static [PromptVariable];
    /// The identity keys the prompt needs (see [`check_identity`]).
    const IDENTITY_KEYS: &'static [&'static str];
    /// The sections in order, the text before the first one (`system_prompt`) included.
    const SECTIONS: &'static [ChatSection];
    /// A hex digest of what the prompt renders from, as [`Prompt::VERSION`].
    const VERSION: &'static str;

    /// Renders the messages. Cannot fail.
    fn messages(&self, identity: &Identity) -> crate::chat::Chat;
}

/// A section of a compiled chat prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatSection {
    /// Its name (`system_prompt`, `question`, the history field's name).
    pub name: &'static str,
    /// The role of its message; `None` for a history section, whose messages keep theirs.
    pub role: Option<crate::chat::Role>,
    /// A history section's `limit=N`.
    pub limit: Option<u64>,
}

/// A name a compiled prompt uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromptVariable {
    /// The name as written in the prompt (`Preferred`, `segment_preamble`).
    pub name: &'static str,
    /// What provides it.
    pub source: VarSource,
    /// The Rust type of a context field; empty for other sources.
    pub ty: &'static str,
    /// Where it is used: file, line, column.
    pub uses: &'static [(&'static str, u32, u32)],
}

/// Checks, once at start-up, that `identity` has every identity key that the given
/// prompts use; the error lists every missing key.
///
/// ```
/// use promptic::{check_identity, Identity};
///
/// const GREETING_KEYS: &[&str] = &["preferred", "pronouns_subject"];
/// const REPORT_KEYS: &[&str] = &["timezone"];
/// let identity = Identity::from_json(r#"{"preferred": "Sam", "pronouns": {"subject": "they"}}"#).unwrap();
/// let err = check_identity(&identity, &[GREETING_KEYS, REPORT_KEYS]).unwrap_err();
/// assert_eq!(err.to_string(), "identity is missing 1 key used by the prompts: `timezone`");
/// ```
///
/// With derived prompts, pass their constants: `check_identity(&identity, &[Daily::IDENTITY_KEYS, Segment::IDENTITY_KEYS])`.
pub fn check_identity(identity: &Identity, prompts: &[&[&str]]) -> Result<(), IdentityError> {
    let all: Vec<&str> = prompts
        .iter()
        .flat_map(|keys| keys.iter().copied())
        .collect();
    identity.check_keys(&all)
}
