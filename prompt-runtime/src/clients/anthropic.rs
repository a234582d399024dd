//! The body of a request to Anthropic's Messages API (`POST /v1/messages`), typed.
//!
//! Rust has no one Anthropic client that everyone uses, so promptic builds the body
//! itself: [`MessagesRequest`] serializes with serde to the JSON the API documents, for
//! whichever HTTP client sends it. The system messages of a chat become the `system` text
//! blocks, in order; the others become `messages` with text and image blocks. The chat's
//! cache breakpoints ([`Chat::breakpoints`]) become `cache_control` marks: a text is split
//! where a breakpoint falls, and the block that ends there is marked. Every block has a
//! [`cache_control`](TextBlock::cache_control) field a program can set too.
//!
//! ```
//! use promptic::anthropic::MessagesRequest;
//! use promptic::chat::{CacheBreakpoint, Chat, Message};
//! use promptic::Meta;
//! use std::borrow::Cow;
//!
//! let chat = Chat {
//!     messages: vec![
//!         Message::system("You answer in French.\nToday is Friday."),
//!         Message::user("Hello!"),
//!     ],
//!     path: Cow::Borrowed("prompts/greet.md"),
//!     metadata: Cow::Owned(Meta {
//!         model: Some(Cow::Borrowed("anthropic/claude-sonnet-4-5")),
//!         max_output_tokens: Some(512),
//!         ..Meta::DEFAULT
//!     }),
//!     // The cached prefix ends after the first line of the system prompt.
//!     breakpoints: vec![CacheBreakpoint { message: 0, offset: 22 }],
//! };
//! let request = MessagesRequest::try_from(&chat)?;
//! assert_eq!(
//!     serde_json::to_value(&request)?,
//!     serde_json::json!({
//!         "model": "claude-sonnet-4-5",
//!         "max_tokens": 512,
//!         "system": [
//!             {"type": "text", "text": "You answer in French.\n", "cache_control": {"type": "ephemeral"}},
//!             {"type": "text", "text": "Today is Friday."}
//!         ],
//!         "messages": [{"role": "user", "content": [{"type": "text", "text": "Hello!"}]}]
//!     })
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{ConversionError, Settings, bare_model, media_error};
use crate::chat::{Chat, Message, PartRef, Role};
use crate::source::json::serialize_fields;
use serde_core::ser::{SerializeMap, SerializeStruct};
use serde_core::{Serialize, Serializer};

const CLIENT: &str = "Anthropic's Messages API";

/// The request body of Anthropic's Messages API.
///
/// Optional fields left `None` (or empty) are not serialized, so the API applies its
/// defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct MessagesRequest {
    /// The model, without a provider prefix (`claude-sonnet-4-5`).
    pub model: String,
    /// The most tokens the answer may have; the API requires it.
    pub max_tokens: u64,
    /// The system prompt as text blocks.
    pub system: Vec<TextBlock>,
    /// The conversation: user and assistant turns.
    pub messages: Vec<MessageParam>,
    /// Sampling temperature, 0 to 1.
    pub temperature: Option<f64>,
    /// Nucleus sampling.
    pub top_p: Option<f64>,
    /// Sample from the top K options only.
    pub top_k: Option<u64>,
    /// Texts that end the answer.
    pub stop_sequences: Vec<String>,
}

/// One turn of the conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct MessageParam {
    /// `user` or `assistant`.
    pub role: MessageRole,
    /// The turn's blocks.
    pub content: Vec<ContentBlock>,
}

/// Who speaks a turn: the Messages API has no system turns (the system prompt is apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageRole {
    /// The person.
    User,
    /// The model.
    Assistant,
}

/// A block of a turn's content.
#[derive(Clone, Debug, PartialEq)]
pub enum ContentBlock {
    /// `{"type": "text", ...}`
    Text(TextBlock),
    /// `{"type": "image", ...}`
    Image(ImageBlock),
}

/// `{"type": "text", "text": ..., "cache_control": ...}`
#[derive(Clone, Debug, PartialEq)]
pub struct TextBlock {
    /// The text.
    pub text: String,
    /// A cache breakpoint after this block.
    pub cache_control: Option<CacheControl>,
}

impl TextBlock {
    /// A text block with no cache breakpoint.
    pub fn new(text: impl Into<String>) -> TextBlock {
        TextBlock {
            text: text.into(),
            cache_control: None,
        }
    }
}

/// `{"type": "image", "source": ..., "cache_control": ...}`
#[derive(Clone, Debug, PartialEq)]
pub struct ImageBlock {
    /// Where the image is.
    pub source: ImageSource,
    /// A cache breakpoint after this block.
    pub cache_control: Option<CacheControl>,
}

/// An image's bytes or URL.
#[derive(Clone, Debug, PartialEq)]
pub enum ImageSource {
    /// `{"type": "base64", "media_type": "image/png", "data": ...}`: from a `data:` URL.
    Base64 {
        /// `image/jpeg`, `image/png`, `image/gif` or `image/webp`.
        media_type: String,
        /// The bytes, base64.
        data: String,
    },
    /// `{"type": "url", "url": ...}`
    Url {
        /// An `https:` URL the API fetches.
        url: String,
    },
}

/// `{"type": "ephemeral"}`, with a `ttl` when one is set: where a cached prefix ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheControl {
    /// How long the cache entry lives (`"5m"`, the API's default, or `"1h"`).
    pub ttl: Option<String>,
}

impl CacheControl {
    /// A breakpoint with the API's default lifetime.
    pub fn ephemeral() -> CacheControl {
        CacheControl { ttl: None }
    }
}

// The request's JSON, written by hand (this crate derives no serde impls): the fields in
// the order declared, optional ones left out when unset, a block's `type` first.

impl Serialize for MessagesRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("MessagesRequest", 8)?;
        out.serialize_field("model", &self.model)?;
        out.serialize_field("max_tokens", &self.max_tokens)?;
        if !self.system.is_empty() {
            out.serialize_field("system", &self.system)?;
        }
        out.serialize_field("messages", &self.messages)?;
        if let Some(temperature) = &self.temperature {
            out.serialize_field("temperature", temperature)?;
        }
        if let Some(top_p) = &self.top_p {
            out.serialize_field("top_p", top_p)?;
        }
        if let Some(top_k) = &self.top_k {
            out.serialize_field("top_k", top_k)?;
        }
        if !self.stop_sequences.is_empty() {
            out.serialize_field("stop_sequences", &self.stop_sequences)?;
        }
        out.end()
    }
}

serialize_fields!(MessageParam { role, content });

impl Serialize for MessageRole {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            MessageRole::User => serializer.serialize_unit_variant("MessageRole", 0, "user"),
            MessageRole::Assistant => {
                serializer.serialize_unit_variant("MessageRole", 1, "assistant")
            }
        }
    }
}

impl Serialize for ContentBlock {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ContentBlock::Text(block) => block.serialize(serializer),
            ContentBlock::Image(block) => block.serialize(serializer),
        }
    }
}

impl Serialize for TextBlock {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(None)?;
        out.serialize_entry("type", "text")?;
        out.serialize_entry("text", &self.text)?;
        if let Some(cache_control) = &self.cache_control {
            out.serialize_entry("cache_control", cache_control)?;
        }
        out.end()
    }
}

impl Serialize for ImageBlock {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(None)?;
        out.serialize_entry("type", "image")?;
        out.serialize_entry("source", &self.source)?;
        if let Some(cache_control) = &self.cache_control {
            out.serialize_entry("cache_control", cache_control)?;
        }
        out.end()
    }
}

impl Serialize for ImageSource {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(None)?;
        match self {
            ImageSource::Base64 { media_type, data } => {
                out.serialize_entry("type", "base64")?;
                out.serialize_entry("media_type", media_type)?;
                out.serialize_entry("data", data)?;
            }
            ImageSource::Url { url } => {
                out.serialize_entry("type", "url")?;
                out.serialize_entry("url", url)?;
            }
        }
        out.end()
    }
}

impl Serialize for CacheControl {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(None)?;
        out.serialize_entry("type", "ephemeral")?;
        if let Some(ttl) = &self.ttl {
            out.serialize_entry("ttl", ttl)?;
        }
        out.end()
    }
}

impl TryFrom<&Message> for MessageParam {
    type Error = ConversionError;

    /// A user or assistant message as a turn: text parts as text blocks, images as image
    /// blocks (a `data:` URL inline, any other URL by reference). A system or tool message,
    /// or media that is not an image, is an error.
    fn try_from(message: &Message) -> Result<MessageParam, ConversionError> {
        turn(message, &[])
    }
}

/// Text blocks for `text`, which starts at byte `start` of its message's text: split at
/// each breakpoint offset inside it, the block before an offset marked with
/// `cache_control`.
fn text_blocks(text: &str, start: usize, breakpoints: &[usize], out: &mut Vec<TextBlock>) {
    let mut from = 0;
    for &offset in breakpoints {
        let Some(at) = offset
            .checked_sub(start)
            .filter(|&at| at > from && at <= text.len())
        else {
            continue;
        };
        let Some(piece) = text.get(from..at) else {
            continue;
        };
        out.push(TextBlock {
            text: piece.to_owned(),
            cache_control: Some(CacheControl::ephemeral()),
        });
        from = at;
    }
    if from < text.len() {
        out.push(TextBlock::new(&text[from..]));
    }
}

/// A message as a turn, its text split at `breakpoints` (offsets into its text).
fn turn(message: &Message, breakpoints: &[usize]) -> Result<MessageParam, ConversionError> {
    let role = match message.role {
        Role::User => MessageRole::User,
        Role::Assistant => MessageRole::Assistant,
        Role::Tool => return Err(ConversionError::ToolMessage { client: CLIENT }),
        Role::System => {
            return Err(ConversionError::Config {
                client: CLIENT,
                key: "role".to_owned(),
                value: "\"system\"".to_owned(),
                why: "a turn is a user's or an assistant's; the system prompt goes in `system`",
            });
        }
    };
    let mut content = Vec::new();
    let mut position = 0;
    for part in message.content.parts() {
        match part {
            PartRef::Text(text) => {
                let mut blocks = Vec::new();
                text_blocks(text, position, breakpoints, &mut blocks);
                content.extend(blocks.into_iter().map(ContentBlock::Text));
                position += text.len();
            }
            PartRef::Media(media) if role == MessageRole::User && media.is_image() => {
                let source = match media.base64_data() {
                    Some((media_type, data)) => ImageSource::Base64 {
                        media_type: media_type.to_owned(),
                        data: data.to_owned(),
                    },
                    None => ImageSource::Url {
                        url: media.url.clone(),
                    },
                };
                content.push(ContentBlock::Image(ImageBlock {
                    source,
                    cache_control: None,
                }));
            }
            PartRef::Media(media) => {
                let what = match (role, media.mime_type()) {
                    (MessageRole::Assistant, _) => "media".to_owned(),
                    (_, Some(kind)) => format!("media of type {kind}"),
                    (_, None) => "media".to_owned(),
                };
                return Err(media_error(CLIENT, message.role, media, &what));
            }
        }
    }
    Ok(MessageParam { role, content })
}

/// The offsets of the chat's breakpoints in message `index`.
fn breakpoints_in(chat: &Chat, index: usize) -> Vec<usize> {
    chat.breakpoints
        .iter()
        .filter(|b| b.message == index)
        .map(|b| b.offset)
        .collect()
}

impl TryFrom<&Chat> for MessagesRequest {
    type Error = ConversionError;

    /// The request for a chat: its system messages as the `system` blocks, the others as
    /// turns, and the prompt's model (its provider prefix dropped), output token limit,
    /// temperature, top-p, top-k and stop sequences. The API requires a model and
    /// `max_tokens`: a prompt without them is an error.
    fn try_from(chat: &Chat) -> Result<MessagesRequest, ConversionError> {
        let meta = &chat.metadata;
        let model = bare_model(meta, CLIENT, Some("anthropic"))?
            .ok_or(ConversionError::NoModel { client: CLIENT })?;
        let settings = Settings::read(meta, CLIENT)?;
        let max_tokens = settings.max_tokens.ok_or(ConversionError::Missing {
            client: CLIENT,
            what: "`max_tokens`",
            how: "`max_output_tokens` in Markdown frontmatter, `config.maxOutputTokens` in dotprompt",
        })?;
        let mut system = Vec::new();
        let mut messages = Vec::new();
        for (i, m) in chat.messages.iter().enumerate() {
            let breakpoints = breakpoints_in(chat, i);
            if m.role == Role::System {
                if let Some(media) = m.content.media().next() {
                    let error = media_error(CLIENT, Role::System, media, "media");
                    return Err(error.in_message(i, m.role));
                }
                text_blocks(&m.text(), 0, &breakpoints, &mut system);
            } else {
                messages.push(turn(m, &breakpoints).map_err(|e| e.in_message(i, m.role))?);
            }
        }
        Ok(MessagesRequest {
            model,
            max_tokens,
            system,
            messages,
            temperature: settings.temperature,
            top_p: settings.top_p,
            top_k: settings.top_k,
            stop_sequences: settings.stop,
        })
    }
}
