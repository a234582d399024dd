//! Chat prompts: a prompt rendered as a list of messages with roles.
//!
//! A prompt with section directives (`{% system NAME %}`, `{% user NAME %}`,
//! `{% assistant NAME %}`, `{% history NAME limit=N %}`) renders to a [`Chat`]: one
//! [`Message`] per section whose content is not empty, each tagged with its section's name
//! for logs. A [`Chat`] is also what a dotprompt render gives
//! ([`RenderedPrompt::to_chat`](crate::formats::dotprompt::RenderedPrompt::to_chat)), its
//! media parts kept as [`ContentPart::Media`].
//!
//! [`Message`] serializes as exactly `{"role": "...", "content": ...}`, the shape
//! OpenAI-style chat APIs take: the content is a string when it is one text, else an array
//! of typed parts (see [`Content`]).

mod content;
mod template;

pub use crate::parse::didactyl::{ChatTemplate, MARKER, TemplateSection};
pub use crate::role::{MAX_CACHE_BREAKPOINTS, Role};
pub use content::{Content, ContentPart, Media, PartRef};

use crate::meta::Meta;
use crate::source::json::{deserialize_fields, required, serialize_fields};
use std::borrow::Cow;
use std::fmt;

/// One message of a chat: a role, its content, and the section of the prompt it came from.
///
/// Every format's chat output is made of these: the messages of a chat prompt, and those of
/// a dotprompt render through
/// [`RenderedPrompt::to_chat`](crate::formats::dotprompt::RenderedPrompt::to_chat). The
/// content is a text ([`Content::Text`]) or, where the format has them, text and media
/// parts ([`Content::Parts`]).
///
/// Serialized with serde as exactly `{"role": "...", "content": ...}`: the section is for
/// logs, not for the model. A deserialized message has an empty section.
///
/// ```
/// use promptic::chat::{Content, ContentPart, Message, Role};
///
/// let m = Message::user("What did I do on Friday?");
/// assert_eq!(m.role, Role::User);
/// assert_eq!(m.content, "What did I do on Friday?");
/// assert_eq!(
///     serde_json::to_string(&m).unwrap(),
///     r#"{"role":"user","content":"What did I do on Friday?"}"#
/// );
/// let back: Message = serde_json::from_str(r#"{"role": "assistant", "content": "Hi"}"#).unwrap();
/// assert_eq!(back, Message::assistant("Hi"));
///
/// let look = Message::user(vec![
///     ContentPart::text("What is in this picture?"),
///     ContentPart::media("https://example.com/cat.png", Some("image/png")),
/// ]);
/// assert_eq!(look.text(), "What is in this picture?");
/// assert_eq!(
///     serde_json::to_value(&look).unwrap()["content"][1]["image_url"]["url"],
///     "https://example.com/cat.png"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Who speaks it.
    pub role: Role,
    /// What it says: a text, or text and media parts.
    pub content: Content,
    /// The prompt section it came from (`system_prompt`, `history`, …); empty when it did
    /// not come from a prompt. Not serialized.
    pub section: Cow<'static, str>,
}

impl Message {
    /// A message with a role and content (a text, or parts), from no section.
    pub fn new(role: Role, content: impl Into<Content>) -> Message {
        Message {
            role,
            content: content.into(),
            section: Cow::Borrowed(""),
        }
    }

    /// A system message.
    pub fn system(content: impl Into<Content>) -> Message {
        Message::new(Role::System, content)
    }

    /// A user message.
    pub fn user(content: impl Into<Content>) -> Message {
        Message::new(Role::User, content)
    }

    /// An assistant message.
    pub fn assistant(content: impl Into<Content>) -> Message {
        Message::new(Role::Assistant, content)
    }

    /// A tool's answer.
    pub fn tool(content: impl Into<Content>) -> Message {
        Message::new(Role::Tool, content)
    }

    /// Its text parts joined, media left out: the whole content for a text message.
    ///
    /// ```
    /// assert_eq!(promptic::chat::Message::user("hi").text(), "hi");
    /// ```
    pub fn text(&self) -> Cow<'_, str> {
        self.content.text()
    }

    /// The same message tagged with a section name.
    ///
    /// ```
    /// let m = promptic::chat::Message::user("hi").in_section("history");
    /// assert_eq!(m.section, "history");
    /// ```
    pub fn in_section(mut self, section: impl Into<Cow<'static, str>>) -> Message {
        self.section = section.into();
        self
    }
}

/// A rendered chat prompt: its messages in order, and where they came from. The chat
/// counterpart of [`crate::PromptContent`].
///
/// Displays in didactyl's log form: per message a `Section: NAME | role=ROLE` line, then
/// the content.
///
/// ```
/// use promptic::chat::{Chat, Message};
/// use promptic::Meta;
/// use std::borrow::Cow;
///
/// let chat = Chat {
///     messages: vec![
///         Message::system("Be brief.").in_section("system_prompt"),
///         Message::user("Hi").in_section("question"),
///     ],
///     path: Cow::Borrowed("prompts/agent.md"),
///     metadata: Cow::Owned(Meta::DEFAULT),
///     breakpoints: Vec::new(),
/// };
/// assert_eq!(
///     chat.to_string(),
///     "Section: system_prompt | role=system\nBe brief.\n\nSection: question | role=user\nHi"
/// );
/// assert_eq!(chat.system_text(), "Be brief.");
/// assert_eq!(chat.conversation().count(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chat {
    /// The messages, in order.
    pub messages: Vec<Message>,
    /// The prompt file it came from.
    pub path: Cow<'static, str>,
    /// The prompt's typed frontmatter.
    pub metadata: Cow<'static, Meta>,
    /// Where the prompt's cacheable prefixes end, in order: one per
    /// `{% cache_breakpoint %}` (Markdown), `{# cache_breakpoint #}` (Jinja) or
    /// `{{cacheBreakpoint}}` (dotprompt). The Anthropic request marks each with
    /// `cache_control`.
    pub breakpoints: Vec<CacheBreakpoint>,
}

/// Where a cacheable prefix of a chat ends: after `offset` bytes of message `message`'s
/// text (its text parts, media counting none).
///
/// A breakpoint always falls inside or at the end of a message with text: one that a
/// prompt places at the start of a message, or in a message that renders empty, is moved
/// to the end of the message before it (the cached prefix is the same bytes), and one
/// with no message before it marks nothing and is left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CacheBreakpoint {
    /// The message it falls in, counted from 0.
    pub message: usize,
    /// The bytes of that message's text before it: the message's whole text when the
    /// breakpoint ends it.
    pub offset: usize,
}

impl CacheBreakpoint {
    /// Adds the breakpoints a message's render marked (`marks`, byte offsets into its
    /// text) as the message is pushed onto `messages`; an empty message is not pushed, and
    /// its marks move to the end of the message before it.
    ///
    /// ```
    /// use promptic::chat::{CacheBreakpoint, Message};
    ///
    /// let (mut messages, mut breakpoints) = (Vec::new(), Vec::new());
    /// CacheBreakpoint::push(&mut messages, &mut breakpoints, Message::system("Rules."), &[6]);
    /// CacheBreakpoint::push(&mut messages, &mut breakpoints, Message::user(""), &[0]);
    /// CacheBreakpoint::push(&mut messages, &mut breakpoints, Message::user("Hi"), &[0]);
    /// assert_eq!(messages.len(), 2);
    /// assert_eq!(breakpoints, [CacheBreakpoint { message: 0, offset: 6 }]);
    /// ```
    pub fn push(
        messages: &mut Vec<Message>,
        breakpoints: &mut Vec<CacheBreakpoint>,
        message: Message,
        marks: &[usize],
    ) {
        let empty = message.content.is_empty();
        if !empty {
            messages.push(message);
        }
        let this = messages.len().wrapping_sub(1);
        for &offset in marks {
            let at = if empty || offset == 0 {
                if empty { messages.len() } else { this }
                    .checked_sub(1)
                    .and_then(|i| messages.get(i).map(|m| (i, m.text().len())))
            } else {
                Some((this, offset))
            };
            if let Some((message, offset)) = at
                && breakpoints.last() != Some(&CacheBreakpoint { message, offset })
            {
                breakpoints.push(CacheBreakpoint { message, offset });
            }
        }
    }
}

impl Chat {
    /// A fingerprint of everything a model is sent before `breakpoint`: the roles, texts
    /// and media of the messages before it, and the text of its own message up to it.
    /// Two renders whose prefixes have the same fingerprint send the same bytes there, so
    /// the provider's cache holds across them; a test or a dashboard can watch it. 16 hex
    /// digits of FNV-1a, the same on every platform and release (not a security digest).
    ///
    /// ```
    /// use promptic::chat::{CacheBreakpoint, Chat, Message};
    /// use promptic::Meta;
    /// use std::borrow::Cow;
    ///
    /// let chat = |question: &str| Chat {
    ///     messages: vec![Message::system("Be brief."), Message::user(question)],
    ///     path: Cow::Borrowed("prompts/agent.md"),
    ///     metadata: Cow::Owned(Meta::DEFAULT),
    ///     breakpoints: vec![CacheBreakpoint { message: 0, offset: 9 }],
    /// };
    /// let (a, b) = (chat("Why?"), chat("How?"));
    /// assert_eq!(a.prefix_hash(a.breakpoints[0]), b.prefix_hash(b.breakpoints[0]));
    /// assert_eq!(a.prefix_hash(a.breakpoints[0]).len(), 16);
    /// ```
    pub fn prefix_hash(&self, breakpoint: CacheBreakpoint) -> String {
        let mut hash = crate::digest::Fnv::new();
        for (i, message) in self
            .messages
            .iter()
            .enumerate()
            .take(breakpoint.message + 1)
        {
            hash.feed(message.role.as_str().as_bytes()).feed(b"\0");
            if i == breakpoint.message {
                let text = message.text();
                let cut = text.get(..breakpoint.offset).unwrap_or(&text);
                hash.feed(cut.as_bytes());
                break;
            }
            for part in message.content.parts() {
                match part {
                    PartRef::Text(text) => hash.feed(b"t").feed(text.as_bytes()),
                    PartRef::Media(media) => hash.feed(b"m").feed(media.url.as_bytes()),
                };
                hash.feed(b"\0");
            }
            hash.feed(b"\x01");
        }
        hash.hex()
    }

    /// The system messages, in order: what an Anthropic-style API takes apart from the
    /// conversation.
    pub fn system(&self) -> impl Iterator<Item = &Message> {
        self.messages.iter().filter(|m| m.role == Role::System)
    }

    /// The system messages' texts joined with a blank line: the one `system` text an
    /// Anthropic-style API takes.
    pub fn system_text(&self) -> String {
        self.system()
            .map(Message::text)
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    /// Every message that is not a system message, in order.
    pub fn conversation(&self) -> impl Iterator<Item = &Message> {
        self.messages.iter().filter(|m| m.role != Role::System)
    }
}

impl fmt::Display for Chat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.messages.iter().enumerate() {
            if i > 0 {
                f.write_str("\n\n")?;
            }
            write!(f, "Section: {} | role={}\n{}", m.section, m.role, m.content)?;
        }
        Ok(())
    }
}

serialize_fields!(Message { role, content });

deserialize_fields!(Message, "a message: `role` and `content`", { role: Role, content: Content } => {
    Ok(Message::new(required(role, "role")?, required(content, "content")?))
});

serialize_fields!(CacheBreakpoint { message, offset });

deserialize_fields!(
    CacheBreakpoint,
    "a cache breakpoint: `message` and `offset`",
    { message: usize, offset: usize } => {
        Ok(CacheBreakpoint {
            message: required(message, "message")?,
            offset: required(offset, "offset")?,
        })
    }
);
