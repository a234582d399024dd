//! Conversions into [ollama-rs](https://docs.rs/ollama-rs)'s chat types (feature `ollama`).
//!
//! ollama-rs always builds its HTTP client (reqwest); promptic turns off its TLS features.
//! Ollama takes images inline only, as base64: an image must come as a `data:` URL.
//!
//! ```
//! use ollama_rs::generation::chat::request::ChatMessageRequest;
//! use promptic::chat::{Chat, Message};
//! use promptic::Meta;
//! use std::borrow::Cow;
//!
//! let chat = Chat {
//!     messages: vec![Message::system("Be brief."), Message::user("What is Rust?")],
//!     path: Cow::Borrowed("prompts/ask.md"),
//!     metadata: Cow::Owned(Meta { model: Some(Cow::Borrowed("ollama/llama3.2")), ..Meta::DEFAULT }),
//!     breakpoints: Vec::new(),
//! };
//! let request = ChatMessageRequest::try_from(&chat)?;
//! assert_eq!(request.model_name, "llama3.2");
//! # Ok::<(), promptic::clients::ConversionError>(())
//! ```

use super::{ConversionError, Settings, bare_model, each_message, media_error};
use crate::chat::{Chat, Message, PartRef, Role};
use ollama_rs::generation::chat::request::ChatMessageRequest;
use ollama_rs::generation::chat::{ChatMessage, MessageRole};
use ollama_rs::generation::images::Image;
use ollama_rs::generation::parameters::{FormatType, JsonStructure};
use ollama_rs::models::ModelOptions;

const CLIENT: &str = "ollama-rs";

impl TryFrom<&Message> for ChatMessage {
    type Error = ConversionError;

    /// A message with its role: its text parts joined as the content, its images (from
    /// `data:` URLs) as `images`. An image by any other URL and other media are errors.
    fn try_from(message: &Message) -> Result<ChatMessage, ConversionError> {
        let role = match message.role {
            Role::System => MessageRole::System,
            Role::User => MessageRole::User,
            Role::Assistant => MessageRole::Assistant,
            // Ollama's tool messages carry no call id, so they convert as they are.
            Role::Tool => MessageRole::Tool,
        };
        let mut images = Vec::new();
        for part in message.content.parts() {
            if let PartRef::Media(media) = part {
                match media.base64_data() {
                    Some((kind, data)) if kind.starts_with("image/") => {
                        images.push(Image::from_base64(data));
                    }
                    Some((kind, _)) => {
                        let what = format!("media of type {kind}");
                        return Err(media_error(CLIENT, message.role, media, &what));
                    }
                    None => {
                        return Err(media_error(
                            CLIENT,
                            message.role,
                            media,
                            "image by URL (it takes images inline: use a base64 `data:` URL)",
                        ));
                    }
                }
            }
        }
        let mut out = ChatMessage::new(role, message.text().into_owned());
        if !images.is_empty() {
            out.images = Some(images);
        }
        Ok(out)
    }
}

impl TryFrom<&Chat> for ChatMessageRequest {
    type Error = ConversionError;

    /// The request for a chat: its messages in order, and from the prompt's
    /// [`Meta`](crate::Meta) the model (an `ollama/` prefix dropped; another provider's
    /// model is an error), the options `temperature`, `num_predict`, `top_k`, `top_p` and
    /// `stop`, and, for a prompt with an output schema, that schema as `format`. A prompt
    /// without a model is an error: Ollama needs one.
    fn try_from(chat: &Chat) -> Result<ChatMessageRequest, ConversionError> {
        let meta = &chat.metadata;
        let model = bare_model(meta, CLIENT, Some("ollama"))?
            .ok_or(ConversionError::NoModel { client: CLIENT })?;
        let settings = Settings::read(meta, CLIENT)?;
        let messages = each_message(chat.messages.iter().enumerate(), ChatMessage::try_from)?;
        let mut request = ChatMessageRequest::new(model, messages);
        let mut options = ModelOptions::default();
        let mut any = false;
        if let Some(temperature) = settings.temperature {
            options = options.temperature(temperature as f32);
            any = true;
        }
        if let Some(limit) = settings.max_tokens {
            let limit = i32::try_from(limit).map_err(|_| ConversionError::Config {
                client: CLIENT,
                key: "max_output_tokens".to_owned(),
                value: limit.to_string(),
                why: "at most 2147483647",
            })?;
            options = options.num_predict(limit);
            any = true;
        }
        if let Some(top_k) = settings.top_k {
            let top_k = u32::try_from(top_k).map_err(|_| ConversionError::Config {
                client: CLIENT,
                key: "top_k".to_owned(),
                value: top_k.to_string(),
                why: "at most 4294967295",
            })?;
            options = options.top_k(top_k);
            any = true;
        }
        if let Some(top_p) = settings.top_p {
            options = options.top_p(top_p as f32);
            any = true;
        }
        if !settings.stop.is_empty() {
            options = options.stop(settings.stop);
            any = true;
        }
        if any {
            request = request.options(options);
        }
        if let Some(value) = settings.output_schema {
            let schema = serde_json::from_value::<JsonStructure>(value.clone()).map_err(|_| {
                ConversionError::Config {
                    client: CLIENT,
                    key: "output_schema".to_owned(),
                    value: value.to_string(),
                    why: "a JSON Schema (an object or a boolean)",
                }
            })?;
            request = request.format(FormatType::StructuredJson(Box::new(schema)));
        }
        Ok(request)
    }
}
