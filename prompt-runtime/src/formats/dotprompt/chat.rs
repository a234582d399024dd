//! dotprompt's wire messages and promptic's common [`Message`](ChatMessage), both ways.
//!
//! dotprompt's [`Message`] (a role string, `model` for the assistant, parts as JSON objects)
//! is that format's serialization: what its spec suite compares and what
//! [`RenderedPrompt`] serializes to. Everything else in promptic reads the common
//! [`Chat`](crate::Chat); these conversions are the bridge.

use super::value::Value;
use super::{Message, Part, RenderedPrompt};
use crate::chat::{Content, ContentPart, Media, Message as ChatMessage, PartRef, Role};
use crate::diagnostic::Diagnostic;
use std::borrow::Cow;

/// Why a dotprompt message has no common [`Message`](ChatMessage): each case names what
/// the chat message cannot hold, since nothing is dropped silently.
#[derive(Clone, Debug, PartialEq)]
pub enum ToChatError {
    /// A role other than `system`, `user`, `model` (or `assistant`) and `tool`.
    Role(String),
    /// A part that is neither text nor media (a tool request, a pending section, ...),
    /// as JSON.
    Part(String),
}

impl std::fmt::Display for ToChatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToChatError::Role(role) => write!(
                f,
                "the role `{role}` is none of a chat's roles (`system`, `user`, `model`, `tool`)"
            ),
            ToChatError::Part(part) => write!(
                f,
                "the message has a part that is neither text nor media ({part})"
            ),
        }
    }
}

impl std::error::Error for ToChatError {}

impl TryFrom<&Message> for ChatMessage {
    type Error = ToChatError;

    /// dotprompt's `model` is the assistant; text and media parts are kept in order; the
    /// message's section is its dotprompt role.
    ///
    /// ```
    /// use promptic::chat::{Message, Role};
    /// use promptic::dotprompt::{Message as WireMessage, Part};
    ///
    /// let wire = WireMessage { role: "model".into(), content: vec![Part::from_text("Hi")], metadata: None };
    /// let message = Message::try_from(&wire)?;
    /// assert_eq!((message.role, message.text()), (Role::Assistant, "Hi".into()));
    /// # Ok::<(), promptic::dotprompt::ToChatError>(())
    /// ```
    fn try_from(message: &Message) -> Result<ChatMessage, ToChatError> {
        let role = match message.role.as_str() {
            "system" => Role::System,
            "user" => Role::User,
            "model" | "assistant" => Role::Assistant,
            "tool" => Role::Tool,
            other => return Err(ToChatError::Role(other.to_owned())),
        };
        let mut parts = Vec::with_capacity(message.content.len());
        for part in &message.content {
            parts.push(common_part(part)?);
        }
        let content = match parts.as_slice() {
            [] => Content::Text(String::new()),
            [ContentPart::Text(_)] => match parts.pop() {
                Some(ContentPart::Text(text)) => Content::Text(text),
                _ => Content::Parts(parts),
            },
            _ => Content::Parts(parts),
        };
        Ok(ChatMessage::new(role, content).in_section(message.role.clone()))
    }
}

fn common_part(part: &Part) -> Result<ContentPart, ToChatError> {
    if let Some(text) = part.text() {
        return Ok(ContentPart::Text(text.to_owned()));
    }
    let media = part.0.get("media").and_then(Value::as_object);
    if let Some(url) = media.and_then(|m| m.get("url")).and_then(Value::as_str) {
        let content_type = media
            .and_then(|m| m.get("contentType"))
            .and_then(Value::as_str);
        return Ok(ContentPart::Media(Media {
            url: url.to_owned(),
            content_type: content_type.map(str::to_owned),
        }));
    }
    Err(ToChatError::Part(
        serde_json::to_string(&part.0).unwrap_or_default(),
    ))
}

impl From<&ChatMessage> for Message {
    /// The message in dotprompt's shape: the assistant is `model`, each part a
    /// `{"text"}` or `{"media": {"url", "contentType"}}` object.
    ///
    /// ```
    /// use promptic::chat::Message;
    /// use promptic::dotprompt::Message as WireMessage;
    ///
    /// let wire = WireMessage::from(&Message::assistant("Hi"));
    /// assert_eq!(serde_json::to_string(&wire)?, r#"{"role":"model","content":[{"text":"Hi"}]}"#);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    fn from(message: &ChatMessage) -> Message {
        let role = match message.role {
            Role::Assistant => "model",
            other => other.as_str(),
        };
        let content = message
            .content
            .parts()
            .map(|part| match part {
                PartRef::Text(text) => Part::from_text(text),
                PartRef::Media(media) => Part::media(media.url.clone(), media.content_type.clone()),
            })
            .collect();
        Message {
            role: role.to_owned(),
            content,
            metadata: None,
        }
    }
}

impl From<ChatMessage> for Message {
    fn from(message: ChatMessage) -> Message {
        Message::from(&message)
    }
}

/// The chat a render makes, or a diagnostic naming the message that has no chat form.
pub(super) fn to_chat(rendered: &RenderedPrompt, path: &str) -> Result<crate::Chat, Diagnostic> {
    let mut messages = Vec::with_capacity(rendered.messages.len());
    for (i, message) in rendered.messages.iter().enumerate() {
        match ChatMessage::try_from(message) {
            Ok(message) => messages.push(message),
            Err(error) => {
                let help = match error {
                    ToChatError::Role(_) => "use `system`, `user`, `model` or `tool` in `{{role}}`",
                    ToChatError::Part(_) => "send dotprompt's messages as they are, parts and all",
                };
                return Err(Diagnostic::new(format!(
                    "message {} of `{path}` cannot be a chat message: {error}",
                    i + 1
                ))
                .with_help(help));
            }
        }
    }
    Ok(crate::Chat {
        messages,
        path: Cow::Owned(path.to_owned()),
        metadata: Cow::Owned(rendered.metadata.to_meta()),
        // The chat's messages are the render's, one for one, text for text.
        breakpoints: rendered.breakpoints.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::value::Object;
    use super::*;

    /// A pending section's part, as `{{section}}` leaves it.
    fn section_part(purpose: &str) -> Part {
        let mut metadata = Object::new();
        metadata.insert("purpose", Value::from(purpose));
        metadata.insert("pending", Value::Bool(true));
        let mut object = Object::new();
        object.insert("metadata", Value::Object(metadata));
        Part(object)
    }

    fn wire(role: &str, content: Vec<Part>) -> Message {
        Message {
            role: role.to_owned(),
            content,
            metadata: None,
        }
    }

    #[test]
    fn media_survives_both_ways() {
        let original = wire(
            "user",
            vec![
                Part::from_text("Describe "),
                Part::media("https://x/cat.png".into(), Some("image/png".into())),
            ],
        );
        let common = ChatMessage::try_from(&original).unwrap();
        assert_eq!(common.content.media().count(), 1);
        assert_eq!(Message::from(&common), original);
    }

    #[test]
    fn a_section_part_and_an_unknown_role_are_errors() {
        let pending = wire("user", vec![section_part("output")]);
        assert!(matches!(
            ChatMessage::try_from(&pending),
            Err(ToChatError::Part(json)) if json.contains("pending")
        ));
        let odd = wire("narrator", vec![Part::from_text("x")]);
        assert_eq!(
            ChatMessage::try_from(&odd).unwrap_err().to_string(),
            "the role `narrator` is none of a chat's roles (`system`, `user`, `model`, `tool`)"
        );
    }
}
