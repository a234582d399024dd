//! Conversions into [rig](https://docs.rs/rig-core)'s completion types (feature `rig`;
//! rig without its default features, so no HTTP client).
//!
//! rig's [`CompletionRequest`] carries the whole conversation in its history, the system
//! prompt first (what rig's `preamble` makes), and the prompt as its last message.
//!
//! ```
//! use promptic::chat::{Chat, Message};
//! use promptic::Meta;
//! use rig::completion::CompletionRequest;
//! use std::borrow::Cow;
//!
//! let chat = Chat {
//!     messages: vec![Message::system("Be brief."), Message::user("What is Rust?")],
//!     path: Cow::Borrowed("prompts/ask.md"),
//!     metadata: Cow::Owned(Meta { model: Some(Cow::Borrowed("openai/gpt-4o")), ..Meta::DEFAULT }),
//!     breakpoints: Vec::new(),
//! };
//! let request = CompletionRequest::try_from(&chat)?;
//! assert_eq!(request.system_instructions(), Some("Be brief."));
//! assert_eq!(request.model.as_deref(), Some("gpt-4o"));
//! # Ok::<(), promptic::clients::ConversionError>(())
//! ```

use super::{ConversionError, Settings, bare_model, each_message, image_type, media_error};
use crate::chat::{Chat, Content, Message, PartRef, Role};
use rig::completion::{CompletionRequest, GenerationOptions};
use rig::message::{ImageMediaType, Message as RigMessage, MimeType, UserContent};
use rig::schemars::Schema;

const CLIENT: &str = "rig";

/// The text of a message that can hold text only (system, assistant).
fn only_text(message: &Message) -> Result<String, ConversionError> {
    match message.content.media().next() {
        Some(media) => Err(media_error(CLIENT, message.role, media, "media")),
        None => Ok(message.text().into_owned()),
    }
}

impl TryFrom<&Message> for RigMessage {
    type Error = ConversionError;

    /// A system, user or assistant message; images become image content of a user message
    /// (by URL, or inline from a `data:` URL). Other media, and a tool message (rig wants
    /// the id of the call it answers), are errors.
    fn try_from(message: &Message) -> Result<RigMessage, ConversionError> {
        Ok(match message.role {
            Role::System => RigMessage::system(only_text(message)?),
            Role::Assistant => RigMessage::assistant(only_text(message)?),
            Role::Tool => return Err(ConversionError::ToolMessage { client: CLIENT }),
            Role::User => match &message.content {
                Content::Text(text) => RigMessage::user(text.clone()),
                content => {
                    let mut parts = Vec::new();
                    for part in content.parts() {
                        parts.push(match part {
                            PartRef::Text(text) => UserContent::text(text),
                            PartRef::Media(media) if media.is_image() => {
                                let kind =
                                    image_type(media).and_then(ImageMediaType::from_mime_type);
                                match media.base64_data() {
                                    Some((_, data)) => UserContent::image_base64(data, kind, None),
                                    None => UserContent::image_url(media.url.clone(), kind, None),
                                }
                            }
                            PartRef::Media(media) => {
                                let what = format!(
                                    "media of type {}",
                                    media.mime_type().unwrap_or("unknown")
                                );
                                return Err(media_error(CLIENT, Role::User, media, &what));
                            }
                        });
                    }
                    if parts.is_empty() {
                        parts.push(UserContent::text(""));
                    }
                    RigMessage::User { content: parts }
                }
            },
        })
    }
}

impl TryFrom<&Chat> for CompletionRequest {
    type Error = ConversionError;

    /// The request for a chat: every message in order in the history (the system prompt
    /// first when the prompt starts with it, as rig's preamble), and from the prompt's
    /// [`Meta`](crate::Meta) the model (its provider prefix dropped; `None` when the
    /// prompt names none, for the agent's model), temperature, max tokens, top-p, stop
    /// sequences and output schema.
    fn try_from(chat: &Chat) -> Result<CompletionRequest, ConversionError> {
        let meta = &chat.metadata;
        let settings = Settings::read(meta, CLIENT)?;
        let history = each_message(chat.messages.iter().enumerate(), RigMessage::try_from)?;
        let mut options = GenerationOptions::new();
        if let Some(top_p) = settings.top_p {
            options = options.top_p(top_p);
        }
        if !settings.stop.is_empty() {
            options = options.stop(settings.stop);
        }
        let schema = match settings.output_schema {
            Some(value) => {
                Some(
                    Schema::try_from(value.clone()).map_err(|_| ConversionError::Config {
                        client: CLIENT,
                        key: "output_schema".to_owned(),
                        value: value.to_string(),
                        why: "a JSON Schema (an object or a boolean)",
                    })?,
                )
            }
            None => None,
        };
        Ok(CompletionRequest::from(history)
            .model::<String>(bare_model(meta, CLIENT, None)?)
            .temperature(settings.temperature)
            .max_tokens(settings.max_tokens)
            .output_schema(schema)
            .options(options))
    }
}
