//! What a message says: one text, or parts (text and media) where a format has them.
//!
//! Serialized as chat APIs take it: a single text is a JSON string; anything else is an
//! array of typed parts, `{"type": "text", "text": ...}` and, for an image,
//! `{"type": "image_url", "image_url": {"url": ...}}`. Media that is not an image has no
//! shape common to chat APIs; it is written as `{"type": "media", "media": {"url",
//! "contentType"}}`, the part dotprompt writes.

use serde_core::de::{self, Deserializer};
use serde_core::ser::{SerializeMap, SerializeSeq, Serializer};
use serde_core::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// A message's content: one text, or a list of parts.
///
/// `Text(s)` and `Parts` holding the one text part `s` are the same content: they compare
/// equal and serialize alike, as a string. Content compares equal to a `&str` when it is
/// that text and nothing else.
///
/// ```
/// use promptic::chat::{Content, ContentPart};
///
/// let plain = Content::from("Describe this.");
/// assert_eq!(plain, "Describe this.");
/// assert_eq!(plain.to_string(), "Describe this.");
///
/// let with_image = Content::Parts(vec![
///     ContentPart::text("Describe this."),
///     ContentPart::media("https://example.com/cat.png", Some("image/png")),
/// ]);
/// assert_ne!(with_image, "Describe this.");
/// assert_eq!(with_image.text(), "Describe this.");
/// assert_eq!(with_image.media().count(), 1);
/// assert_eq!(
///     serde_json::to_string(&with_image).unwrap(),
///     r#"[{"type":"text","text":"Describe this."},{"type":"image_url","image_url":{"url":"https://example.com/cat.png"}}]"#
/// );
/// ```
#[derive(Clone, Debug)]
pub enum Content {
    /// Plain text, the content of every message a Markdown, chat or Jinja prompt renders.
    Text(String),
    /// Text and media parts, in order (a dotprompt message with `{{media}}`).
    Parts(Vec<ContentPart>),
}

/// One part of a message's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContentPart {
    /// A piece of text.
    Text(String),
    /// An image, a sound, a document: anything the model reads from a URL.
    Media(Media),
}

/// A media part: where it is, and what it is when the prompt says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Media {
    /// An `https:` URL, a `gs:` URL, or a `data:` URL holding the bytes.
    pub url: String,
    /// The MIME type (`image/png`), when known.
    pub content_type: Option<String>,
}

impl Media {
    /// The MIME type: the one given, else the one a `data:` URL declares.
    ///
    /// ```
    /// use promptic::chat::Media;
    ///
    /// let inline = Media { url: "data:image/jpeg;base64,AAAA".into(), content_type: None };
    /// assert_eq!(inline.mime_type(), Some("image/jpeg"));
    /// let remote = Media { url: "https://example.com/a".into(), content_type: None };
    /// assert_eq!(remote.mime_type(), None);
    /// ```
    pub fn mime_type(&self) -> Option<&str> {
        self.content_type.as_deref().or_else(|| {
            let rest = self.url.strip_prefix("data:")?;
            let end = rest.find([';', ','])?;
            Some(&rest[..end]).filter(|t| !t.is_empty())
        })
    }

    /// True when the part is an image: its MIME type is `image/*`, or it has none (a URL
    /// in a prompt's `{{media}}` is most often a picture, and chat APIs take images by
    /// URL).
    pub fn is_image(&self) -> bool {
        self.mime_type().is_none_or(|t| t.starts_with("image/"))
    }

    /// The base64 data and MIME type of a `data:…;base64,` URL; `None` for any other URL.
    ///
    /// ```
    /// use promptic::chat::Media;
    ///
    /// let inline = Media { url: "data:image/png;base64,iVBOR".into(), content_type: None };
    /// assert_eq!(inline.base64_data(), Some(("image/png", "iVBOR")));
    /// ```
    pub fn base64_data(&self) -> Option<(&str, &str)> {
        let rest = self.url.strip_prefix("data:")?;
        let (head, data) = rest.split_once(',')?;
        let mime = head.strip_suffix(";base64")?;
        Some((mime, data))
    }
}

impl ContentPart {
    /// A text part.
    pub fn text(text: impl Into<String>) -> ContentPart {
        ContentPart::Text(text.into())
    }

    /// A media part.
    pub fn media(url: impl Into<String>, content_type: Option<&str>) -> ContentPart {
        ContentPart::Media(Media {
            url: url.into(),
            content_type: content_type.map(str::to_owned),
        })
    }
}

/// A part seen without copying, whichever way the content holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartRef<'a> {
    /// A piece of text.
    Text(&'a str),
    /// A media part.
    Media(&'a Media),
}

impl Content {
    /// The parts in order; a `Text` content is one text part, and an empty text none.
    ///
    /// ```
    /// use promptic::chat::{Content, PartRef};
    ///
    /// let hi = Content::from("hi");
    /// let parts: Vec<PartRef> = hi.parts().collect();
    /// assert_eq!(parts, [PartRef::Text("hi")]);
    /// assert_eq!(Content::from("").parts().count(), 0);
    /// ```
    pub fn parts(&self) -> impl Iterator<Item = PartRef<'_>> {
        let (one, many) = match self {
            Content::Text(text) => (Some(text.as_str()).filter(|t| !t.is_empty()), &[][..]),
            Content::Parts(parts) => (None, &parts[..]),
        };
        one.map(PartRef::Text)
            .into_iter()
            .chain(many.iter().map(|part| match part {
                ContentPart::Text(text) => PartRef::Text(text),
                ContentPart::Media(media) => PartRef::Media(media),
            }))
    }

    /// The text when the content is one text and nothing else.
    ///
    /// ```
    /// use promptic::chat::{Content, ContentPart};
    ///
    /// assert_eq!(Content::from("hi").as_text(), Some("hi"));
    /// let image = Content::Parts(vec![ContentPart::media("https://x/y.png", None)]);
    /// assert_eq!(image.as_text(), None);
    /// ```
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(text),
            Content::Parts(parts) => match parts.as_slice() {
                [] => Some(""),
                [ContentPart::Text(text)] => Some(text),
                _ => None,
            },
        }
    }

    /// Every text part joined, media left out.
    pub fn text(&self) -> Cow<'_, str> {
        if let Some(text) = self.as_text() {
            return Cow::Borrowed(text);
        }
        let mut out = String::new();
        for part in self.parts() {
            if let PartRef::Text(text) = part {
                out.push_str(text);
            }
        }
        Cow::Owned(out)
    }

    /// The media parts, in order.
    pub fn media(&self) -> impl Iterator<Item = &Media> {
        self.parts().filter_map(|part| match part {
            PartRef::Media(media) => Some(media),
            PartRef::Text(_) => None,
        })
    }

    /// True when there is no text and no media.
    pub fn is_empty(&self) -> bool {
        self.parts().all(|part| part == PartRef::Text(""))
    }
}

impl Default for Content {
    fn default() -> Content {
        Content::Text(String::new())
    }
}

impl PartialEq for Content {
    fn eq(&self, other: &Content) -> bool {
        self.parts().eq(other.parts())
    }
}

impl Eq for Content {}

impl PartialEq<str> for Content {
    fn eq(&self, other: &str) -> bool {
        self.as_text() == Some(other)
    }
}

impl PartialEq<&str> for Content {
    fn eq(&self, other: &&str) -> bool {
        self.as_text() == Some(*other)
    }
}

impl PartialEq<String> for Content {
    fn eq(&self, other: &String) -> bool {
        self.as_text() == Some(other.as_str())
    }
}

impl From<String> for Content {
    fn from(text: String) -> Content {
        Content::Text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Content {
        Content::Text(text.to_owned())
    }
}

impl From<Cow<'_, str>> for Content {
    fn from(text: Cow<'_, str>) -> Content {
        Content::Text(text.into_owned())
    }
}

impl From<Vec<ContentPart>> for Content {
    fn from(parts: Vec<ContentPart>) -> Content {
        Content::Parts(parts)
    }
}

/// The text, each media part shown as `[media URL]` where it stands.
impl fmt::Display for Content {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for part in self.parts() {
            match part {
                PartRef::Text(text) => f.write_str(text)?,
                PartRef::Media(media) => write!(f, "[media {}]", media.url)?,
            }
        }
        Ok(())
    }
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(text) = self.as_text() {
            return serializer.serialize_str(text);
        }
        let mut seq = serializer.serialize_seq(None)?;
        for part in self.parts() {
            seq.serialize_element(&WirePart(part))?;
        }
        seq.end()
    }
}

struct WirePart<'a>(PartRef<'a>);

impl Serialize for WirePart<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Url<'a>(&'a str);
        impl Serialize for Url<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("url", self.0)?;
                map.end()
            }
        }
        struct DotpromptMedia<'a>(&'a Media);
        impl Serialize for DotpromptMedia<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("url", &self.0.url)?;
                if let Some(content_type) = &self.0.content_type {
                    map.serialize_entry("contentType", content_type)?;
                }
                map.end()
            }
        }
        let mut map = serializer.serialize_map(Some(2))?;
        match self.0 {
            PartRef::Text(text) => {
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", text)?;
            }
            PartRef::Media(media) if media.is_image() => {
                map.serialize_entry("type", "image_url")?;
                map.serialize_entry("image_url", &Url(&media.url))?;
            }
            PartRef::Media(media) => {
                map.serialize_entry("type", "media")?;
                map.serialize_entry("media", &DotpromptMedia(media))?;
            }
        }
        map.end()
    }
}

/// Reads a string, or an array of the parts [`Content`] writes; any other part type is an
/// error naming the types it takes.
impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Content, D::Error> {
        let refuse = || {
            de::Error::custom(
                "message content must be a string or an array of parts of type `text`, `image_url` or `media`",
            )
        };
        match serde_json::Value::deserialize(deserializer).map_err(|_| refuse())? {
            serde_json::Value::String(text) => Ok(Content::Text(text)),
            serde_json::Value::Array(parts) => parts
                .iter()
                .map(wire_part)
                .collect::<Option<Vec<_>>>()
                .map(Content::Parts)
                .ok_or_else(refuse),
            _ => Err(refuse()),
        }
    }
}

/// A part in one of the shapes [`Content`] writes (`{"type": "text", "text"}`,
/// `{"type": "image_url", "image_url": {"url"}}`, `{"type": "media", "media": {"url",
/// "contentType"?}}`), other keys ignored.
fn wire_part(part: &serde_json::Value) -> Option<ContentPart> {
    let text = |value: &serde_json::Value, key: &str| Some(value.get(key)?.as_str()?.to_owned());
    Some(match part.get("type")?.as_str()? {
        "text" => ContentPart::Text(text(part, "text")?),
        "image_url" => ContentPart::Media(Media {
            url: text(part.get("image_url")?, "url")?,
            content_type: None,
        }),
        "media" => {
            let media = part.get("media")?;
            let content_type = match media.get("contentType") {
                None | Some(serde_json::Value::Null) => None,
                Some(_) => Some(text(media, "contentType")?),
            };
            ContentPart::Media(Media {
                url: text(media, "url")?,
                content_type,
            })
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_text_part_is_a_string_and_equals_text() {
        let parts = Content::Parts(vec![ContentPart::text("hi")]);
        assert_eq!(parts, Content::from("hi"));
        assert_eq!(serde_json::to_string(&parts).unwrap(), r#""hi""#);
        assert_eq!(Content::Parts(vec![]), Content::from(""));
    }

    #[test]
    fn two_text_parts_stay_parts() {
        let parts = Content::Parts(vec![ContentPart::text("a"), ContentPart::text("b")]);
        assert_ne!(parts, "ab");
        assert_eq!(parts.text(), "ab");
        assert_eq!(
            serde_json::to_string(&parts).unwrap(),
            r#"[{"type":"text","text":"a"},{"type":"text","text":"b"}]"#
        );
    }

    #[test]
    fn non_image_media_keeps_its_type_through_json() {
        let content = Content::Parts(vec![ContentPart::media(
            "https://x/a.pdf",
            Some("application/pdf"),
        )]);
        let json = serde_json::to_string(&content).unwrap();
        assert_eq!(
            json,
            r#"[{"type":"media","media":{"url":"https://x/a.pdf","contentType":"application/pdf"}}]"#
        );
        let back: Content = serde_json::from_str(&json).unwrap();
        assert_eq!(back, content);
    }

    #[test]
    fn reads_image_parts_and_rejects_unknown_ones() {
        let back: Content = serde_json::from_str(
            r#"[{"type":"text","text":"see"},{"type":"image_url","image_url":{"url":"data:image/gif;base64,R0"}}]"#,
        )
        .unwrap();
        assert_eq!(back.media().next().unwrap().mime_type(), Some("image/gif"));
        let error = serde_json::from_str::<Content>(r#"[{"type":"audio"}]"#).unwrap_err();
        assert!(error.to_string().contains("`text`, `image_url` or `media`"));
    }

    #[test]
    fn display_marks_media() {
        let content = Content::Parts(vec![
            ContentPart::text("look: "),
            ContentPart::media("https://x/y.png", None),
        ]);
        assert_eq!(content.to_string(), "look: [media https://x/y.png]");
        assert!(!content.is_empty());
        assert!(Content::Parts(vec![ContentPart::text("")]).is_empty());
    }
}
