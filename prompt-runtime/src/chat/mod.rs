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

pub use content::{Content, ContentPart, Media, PartRef};

pub(crate) use template::nodes as template_nodes;
pub use template::{ChatTemplate, MARKER, TemplateSection};

use crate::meta::Meta;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// Who speaks a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions to the model.
    System,
    /// The person talking to the model.
    User,
    /// The model.
    Assistant,
    /// A tool's answer to the model's call (dotprompt's `tool` messages).
    Tool,
}

impl Role {
    /// `system`, `user`, `assistant` or `tool`.
    ///
    /// ```
    /// assert_eq!(promptic::chat::Role::Assistant.as_str(), "assistant");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    /// The role named by `word` (`system`, `user`, `assistant`).
    ///
    /// ```
    /// use promptic::chat::Role;
    /// assert_eq!(Role::from_word("user"), Some(Role::User));
    /// assert_eq!(Role::from_word("User"), None);
    /// ```
    pub fn from_word(word: &str) -> Option<Role> {
        match word {
            "system" => Some(Role::System),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            _ => None,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who speaks it.
    pub role: Role,
    /// What it says: a text, or text and media parts.
    pub content: Content,
    /// The prompt section it came from (`system_prompt`, `history`, …); empty when it did
    /// not come from a prompt.
    #[serde(skip)]
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
}

impl Chat {
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
