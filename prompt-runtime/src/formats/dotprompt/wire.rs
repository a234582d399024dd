//! The serde forms of dotprompt's data types, written by hand (this crate derives no serde
//! impls, so that it compiles beside `serde_derive` instead of after it): the shapes of
//! dotprompt's JSON, objects read with JavaScript's rules ([`crate::value::js`]).

use super::{DataArgument, Message, Object, Part, PromptMetadata};
use crate::source::json::{skip_field, take_field};
use crate::value::js;
use serde_core::de::{self, MapAccess, Visitor};
use serde_core::ser::SerializeStruct;
use serde_core::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An object read with JavaScript's rules; `null` is an empty one.
struct JsObject(Object);

impl<'de> Deserialize<'de> for JsObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        js::deserialize_object(deserializer).map(JsObject)
    }
}

/// An object read with JavaScript's rules; `null` is none.
struct JsOptionalObject(Option<Object>);

impl<'de> Deserialize<'de> for JsOptionalObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        js::deserialize_optional_object(deserializer).map(JsOptionalObject)
    }
}

impl Serialize for DataArgument {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("DataArgument", 3)?;
        out.serialize_field("input", &self.input)?;
        out.serialize_field("context", &self.context)?;
        out.serialize_field("messages", &self.messages)?;
        out.end()
    }
}

/// `{"input", "context", "messages"}`, each optional; other keys are skipped.
impl<'de> Deserialize<'de> for DataArgument {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_map(DataVisitor)
            .map(|(data, _)| data)
    }
}

/// A data argument's keys, and `options` beside them (for a `--data` file).
pub(super) struct DataVisitor;

impl<'de> Visitor<'de> for DataVisitor {
    type Value = (DataArgument, PromptMetadata);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("dotprompt's data: an object with `input`, `context` and `messages`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut input, mut context, mut messages, mut options) =
            (None::<JsObject>, None::<JsObject>, None, None::<JsObject>);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "input" => take_field(&mut map, &mut input, "input")?,
                "context" => take_field(&mut map, &mut context, "context")?,
                "messages" => take_field(&mut map, &mut messages, "messages")?,
                "options" => take_field(&mut map, &mut options, "options")?,
                _ => skip_field(&mut map)?,
            }
        }
        let object = |o: Option<JsObject>| o.map(|o| o.0).unwrap_or_default();
        Ok((
            DataArgument {
                input: object(input),
                context: object(context),
                messages: messages.unwrap_or_default(),
            },
            PromptMetadata(object(options)),
        ))
    }
}

impl Serialize for Message {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Message", 3)?;
        out.serialize_field("role", &self.role)?;
        out.serialize_field("content", &self.content)?;
        match &self.metadata {
            Some(metadata) => out.serialize_field("metadata", metadata)?,
            None => out.skip_field("metadata")?,
        }
        out.end()
    }
}

/// `{"role", "content", "metadata"}`: `role` required, `content` an empty list when
/// missing, `metadata` none when missing or `null`.
impl<'de> Deserialize<'de> for Message {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> Visitor<'de> for Fields {
            type Value = Message;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a dotprompt message: `role`, `content` and `metadata`")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
                let (mut role, mut content, mut metadata) = (None, None, None::<JsOptionalObject>);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "role" => take_field(&mut map, &mut role, "role")?,
                        "content" => take_field(&mut map, &mut content, "content")?,
                        "metadata" => take_field(&mut map, &mut metadata, "metadata")?,
                        _ => skip_field(&mut map)?,
                    }
                }
                Ok(Message {
                    role: role.ok_or_else(|| de::Error::missing_field("role"))?,
                    content: content.unwrap_or_default(),
                    metadata: metadata.and_then(|m| m.0),
                })
            }
        }
        deserializer.deserialize_struct("Message", &["role", "content", "metadata"], Fields)
    }
}

impl Serialize for Part {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// An object, read with JavaScript's rules.
impl<'de> Deserialize<'de> for Part {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        js::deserialize_object(deserializer).map(Part)
    }
}

impl Serialize for PromptMetadata {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// An object, read with JavaScript's rules.
impl<'de> Deserialize<'de> for PromptMetadata {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        js::deserialize_object(deserializer).map(PromptMetadata)
    }
}
