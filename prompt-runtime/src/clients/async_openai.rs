//! Conversions into [async-openai](https://docs.rs/async-openai)'s chat-completion types
//! (feature `async-openai`; the crate's types only, no HTTP client).
//!
//! ```
//! use async_openai::types::chat::CreateChatCompletionRequest;
//! use promptic::chat::{Chat, Message};
//! use promptic::Meta;
//! use std::borrow::Cow;
//!
//! let chat = Chat {
//!     messages: vec![Message::system("Be brief."), Message::user("What is Rust?")],
//!     path: Cow::Borrowed("prompts/ask.md"),
//!     metadata: Cow::Owned(Meta { model: Some(Cow::Borrowed("openai/gpt-4o")), ..Meta::DEFAULT }),
//!     breakpoints: Vec::new(),
//! };
//! let request = CreateChatCompletionRequest::try_from(&chat)?;
//! assert_eq!(request.model, "gpt-4o");
//! assert_eq!(
//!     serde_json::to_value(&request)?["messages"][1],
//!     serde_json::json!({"role": "user", "content": "What is Rust?"})
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{ConversionError, Settings, bare_model, each_message, media_error, schema_name};
use crate::chat::{Chat, Content, Message, PartRef, Role};
use async_openai::types::chat::{
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestAssistantMessageContent,
    ChatCompletionRequestMessage, ChatCompletionRequestMessageContentPartImage,
    ChatCompletionRequestMessageContentPartText, ChatCompletionRequestSystemMessage,
    ChatCompletionRequestSystemMessageContent, ChatCompletionRequestUserMessage,
    ChatCompletionRequestUserMessageContent, ChatCompletionRequestUserMessageContentPart,
    CreateChatCompletionRequest, ImageUrl, ResponseFormat, ResponseFormatJsonSchema,
    StopConfiguration,
};

const CLIENT: &str = "async-openai";

/// The text of a message that can hold text only (system, assistant).
fn only_text(message: &Message) -> Result<String, ConversionError> {
    match message.content.media().next() {
        Some(media) => Err(media_error(CLIENT, message.role, media, "media")),
        None => Ok(message.text().into_owned()),
    }
}

fn user_content(
    message: &Message,
) -> Result<ChatCompletionRequestUserMessageContent, ConversionError> {
    if let Content::Text(text) = &message.content {
        return Ok(ChatCompletionRequestUserMessageContent::Text(text.clone()));
    }
    if let Some(text) = message.content.as_text() {
        return Ok(ChatCompletionRequestUserMessageContent::Text(
            text.to_owned(),
        ));
    }
    let mut parts = Vec::new();
    for part in message.content.parts() {
        parts.push(match part {
            PartRef::Text(text) => ChatCompletionRequestUserMessageContentPart::Text(
                ChatCompletionRequestMessageContentPartText::from(text),
            ),
            PartRef::Media(media) if media.is_image() => {
                ChatCompletionRequestUserMessageContentPart::ImageUrl(
                    ChatCompletionRequestMessageContentPartImage {
                        image_url: ImageUrl {
                            url: media.url.clone(),
                            detail: None,
                        },
                        prompt_cache_breakpoint: None,
                    },
                )
            }
            PartRef::Media(media) => {
                let what = format!("media of type {}", media.mime_type().unwrap_or("unknown"));
                return Err(media_error(CLIENT, Role::User, media, &what));
            }
        });
    }
    Ok(ChatCompletionRequestUserMessageContent::Array(parts))
}

impl TryFrom<&Message> for ChatCompletionRequestMessage {
    type Error = ConversionError;

    /// A system, user or assistant message; images (by URL or `data:` URL) become
    /// `image_url` parts of a user message. A tool message is an error: async-openai wants
    /// the id of the call it answers.
    fn try_from(message: &Message) -> Result<ChatCompletionRequestMessage, ConversionError> {
        Ok(match message.role {
            Role::System => ChatCompletionRequestSystemMessage {
                content: ChatCompletionRequestSystemMessageContent::Text(only_text(message)?),
                name: None,
            }
            .into(),
            Role::User => ChatCompletionRequestUserMessage {
                content: user_content(message)?,
                name: None,
            }
            .into(),
            Role::Assistant => ChatCompletionRequestAssistantMessage {
                content: Some(ChatCompletionRequestAssistantMessageContent::Text(
                    only_text(message)?,
                )),
                ..Default::default()
            }
            .into(),
            Role::Tool => return Err(ConversionError::ToolMessage { client: CLIENT }),
        })
    }
}

impl TryFrom<Message> for ChatCompletionRequestMessage {
    type Error = ConversionError;

    fn try_from(message: Message) -> Result<ChatCompletionRequestMessage, ConversionError> {
        ChatCompletionRequestMessage::try_from(&message)
    }
}

impl TryFrom<&Chat> for CreateChatCompletionRequest {
    type Error = ConversionError;

    /// The request for a chat: its messages in order, and from the prompt's
    /// [`Meta`](crate::Meta) the model (its provider prefix dropped; async-openai talks to
    /// whichever OpenAI-compatible server its client is configured for),
    /// `temperature`, `max_completion_tokens`, `top_p`, `stop` and, for a prompt with an
    /// output schema, a `json_schema` response format. A prompt without a model is an
    /// error: the request's `model` is required.
    fn try_from(chat: &Chat) -> Result<CreateChatCompletionRequest, ConversionError> {
        let meta = &chat.metadata;
        let model =
            bare_model(meta, CLIENT, None)?.ok_or(ConversionError::NoModel { client: CLIENT })?;
        let settings = Settings::read(meta, CLIENT)?;
        let messages = each_message(
            chat.messages.iter().enumerate(),
            ChatCompletionRequestMessage::try_from,
        )?;
        let max_completion_tokens = settings.max_tokens_u32(CLIENT)?;
        let stop = match settings.stop.len() {
            0 => None,
            1 => Some(StopConfiguration::String(settings.stop[0].clone())),
            _ => Some(StopConfiguration::StringArray(settings.stop.clone())),
        };
        let response_format = settings
            .output_schema
            .map(|schema| ResponseFormat::JsonSchema {
                json_schema: ResponseFormatJsonSchema {
                    description: None,
                    name: schema_name(&schema, &chat.path),
                    schema,
                    strict: None,
                },
            });
        Ok(CreateChatCompletionRequest {
            messages,
            model,
            temperature: settings.temperature.map(|t| t as f32),
            top_p: settings.top_p.map(|p| p as f32),
            max_completion_tokens,
            stop,
            response_format,
            ..Default::default()
        })
    }
}
