//! Conversions into [genai](https://docs.rs/genai)'s chat types (feature `genai`).
//!
//! genai takes a request in three pieces, as its `exec_chat(model, request, options)` does:
//! the [`ChatRequest`] (the system text apart, then the messages), the [`ChatOptions`]
//! (from the prompt's [`Meta`]) and the model name ([`model_name`]).
//!
//! genai always builds its HTTP client (reqwest); promptic turns off its TLS features.
//!
//! ```
//! use genai::chat::{ChatOptions, ChatRequest};
//! use promptic::chat::{Chat, Message};
//! use promptic::Meta;
//! use std::borrow::Cow;
//!
//! let chat = Chat {
//!     messages: vec![Message::system("Be brief."), Message::user("What is Rust?")],
//!     path: Cow::Borrowed("prompts/ask.md"),
//!     metadata: Cow::Owned(Meta { model: Some(Cow::Borrowed("googleai/gemini-2.0-flash")), ..Meta::DEFAULT }),
//!     breakpoints: Vec::new(),
//! };
//! let request = ChatRequest::try_from(&chat)?;
//! assert_eq!(request.system.as_deref(), Some("Be brief."));
//! let options = ChatOptions::try_from(&*chat.metadata)?;
//! let model = promptic::clients::genai::model_name(&chat.metadata);
//! assert_eq!(model.as_deref(), Some("gemini::gemini-2.0-flash"));
//! # Ok::<(), promptic::clients::ConversionError>(())
//! ```

use super::{
    ConversionError, ModelName, Settings, each_message, image_type, media_error, schema_name,
};
use crate::chat::{Chat, Content, Message, PartRef, Role};
use crate::meta::Meta;
use genai::adapter::AdapterKind;
use genai::chat::{
    ChatMessage, ChatOptions, ChatRequest, ChatResponseFormat, ContentPart, JsonSpec,
    MessageContent,
};

const CLIENT: &str = "genai";

/// The prompt's model as genai names it: a provider prefix becomes genai's namespace
/// (`googleai/gemini-2.0-flash` is `gemini::gemini-2.0-flash`, `vertexai/…` is
/// `vertex::…`, `openai/gpt-4o` is `openai::gpt-4o`); a model without one is left as it
/// is, for genai to pick the provider from its name.
pub fn model_name(meta: &Meta) -> Option<String> {
    let model = meta.model.as_deref()?;
    let parsed = ModelName::parse(model);
    let namespace = match parsed.provider {
        None => return Some(model.to_owned()),
        Some("googleai") => "gemini",
        Some("vertexai") => "vertex",
        Some(other) => match AdapterKind::from_lower_str(other) {
            Some(kind) => kind.as_lower_str(),
            None => return Some(model.to_owned()),
        },
    };
    Some(format!("{namespace}::{}", parsed.name))
}

impl TryFrom<&Message> for ChatMessage {
    type Error = ConversionError;

    /// A message with its role; media with a known MIME type becomes a binary part (by
    /// URL, or inline from a `data:` URL). Media whose type is not known, and a tool
    /// message (genai wants the id of the call it answers), are errors.
    fn try_from(message: &Message) -> Result<ChatMessage, ConversionError> {
        let content = match &message.content {
            Content::Text(text) => MessageContent::from_text(text.clone()),
            content => {
                let mut parts = Vec::new();
                for part in content.parts() {
                    parts.push(match part {
                        PartRef::Text(text) => ContentPart::from_text(text),
                        PartRef::Media(media) => {
                            let Some(kind) = image_type(media) else {
                                return Err(media_error(
                                    CLIENT,
                                    message.role,
                                    media,
                                    "media without a known type (give it a contentType)",
                                ));
                            };
                            match media.base64_data() {
                                Some((kind, data)) => {
                                    ContentPart::from_binary_base64(kind, data, None)
                                }
                                None => ContentPart::from_binary_url(kind, media.url.clone(), None),
                            }
                        }
                    });
                }
                MessageContent::from_parts(parts)
            }
        };
        Ok(match message.role {
            Role::System => ChatMessage::system(content),
            Role::User => ChatMessage::user(content),
            Role::Assistant => ChatMessage::assistant(content),
            Role::Tool => return Err(ConversionError::ToolMessage { client: CLIENT }),
        })
    }
}

impl TryFrom<&Chat> for ChatRequest {
    type Error = ConversionError;

    /// The chat as genai takes it: the system messages' text (joined with a blank line) as
    /// `system`, every other message in order. The generation settings are in
    /// `ChatOptions::try_from(&*chat.metadata)`, the model in [`model_name`].
    fn try_from(chat: &Chat) -> Result<ChatRequest, ConversionError> {
        for (i, message) in chat.messages.iter().enumerate() {
            if message.role == Role::System
                && let Some(media) = message.content.media().next()
            {
                return Err(
                    media_error(CLIENT, Role::System, media, "media").in_message(i, Role::System)
                );
            }
        }
        let messages = each_message(
            chat.messages
                .iter()
                .enumerate()
                .filter(|(_, m)| m.role != Role::System),
            ChatMessage::try_from,
        )?;
        let mut request = ChatRequest::from_messages(messages);
        if chat.system().next().is_some() {
            request.system = Some(chat.system_text());
        }
        Ok(request)
    }
}

impl TryFrom<&Meta> for ChatOptions {
    type Error = ConversionError;

    /// Temperature, max tokens, top-p, stop sequences and, for a prompt with an output
    /// schema, a JSON-spec response format.
    fn try_from(meta: &Meta) -> Result<ChatOptions, ConversionError> {
        let settings = Settings::read(meta, CLIENT)?;
        let max_tokens = settings.max_tokens_u32(CLIENT)?;
        let response_format = settings.output_schema.map(|schema| {
            ChatResponseFormat::JsonSpec(JsonSpec {
                name: schema_name(&schema, ""),
                description: None,
                schema,
            })
        });
        Ok(ChatOptions {
            temperature: settings.temperature,
            max_tokens,
            top_p: settings.top_p,
            stop_sequences: settings.stop,
            response_format,
            ..ChatOptions::default()
        })
    }
}
