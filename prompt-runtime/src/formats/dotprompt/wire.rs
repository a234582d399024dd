//! The serde forms of dotprompt's data types, written by hand (this crate derives no serde
//! impls, so that it compiles beside `serde_derive` instead of after it): the shapes of
//! dotprompt's JSON, objects read with JavaScript's rules ([`crate::value::js`]).

use super::{DataArgument, Message, Object, Part, PromptMetadata};
use crate::source::json::{deserialize_fields, required, serialize_fields, skip_field, take_field};
use crate::value::js;
use serde_core::de::{MapAccess, Visitor};
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

serialize_fields!(DataArgument {
    input,
    context,
    messages
});

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

// `{"role", "content", "metadata"}`: `role` required, `content` an empty list when
// missing, `metadata` none when missing or `null`.
deserialize_fields!(
    Message,
    "a dotprompt message: `role`, `content` and `metadata`",
    { role: String, content: Vec<Part>, metadata: JsOptionalObject } => {
        Ok(Message {
            role: required(role, "role")?,
            content: content.unwrap_or_default(),
            metadata: metadata.and_then(|m| m.0),
        })
    }
);

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
