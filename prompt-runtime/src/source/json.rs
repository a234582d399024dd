//! JSON objects read in the file's order, each value kept as raw JSON that borrows from
//! the text, so that its byte span (for diagnostics) is known. Shared by the frontmatter,
//! the identity and the configuration; serde_json's `preserve_order` is not needed.

use serde_core::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// The entries of one JSON object, in order.
pub(crate) struct Entries<'a>(pub(crate) Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Entries<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}

/// The entries of the JSON object `json`, in the file's order.
pub fn object_entries(json: &str) -> Result<Vec<(String, &RawValue)>, serde_json::Error> {
    serde_json::from_str::<Entries<'_>>(json).map(|e| e.0)
}

/// The byte span of `raw` inside `text`, which it borrows from.
pub(crate) fn span_in(text: &str, raw: &RawValue) -> std::ops::Range<usize> {
    let start = raw.get().as_ptr() as usize - text.as_ptr() as usize;
    start..start + raw.get().len()
}

/// Where a serde_json error points in `text` (a byte offset on a character boundary;
/// serde_json's column counts bytes), and its message without the trailing
/// " at line L column C".
pub(crate) fn error_position(text: &str, e: &serde_json::Error) -> (usize, String) {
    let message = e.to_string();
    let message = match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message,
    };
    let line_start: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let mut offset = (line_start + e.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    (offset, message)
}

/// The byte offset, inside the raw JSON string `raw` (quotes included, as the file writes
/// it), of byte `at` of its decoded value: what a diagnostic needs to put its caret on a
/// placeholder inside a JSON string. Escapes are walked as JSON defines them (`\n` is one
/// decoded byte for two raw ones, `\u00e9` two for six, a surrogate pair four for twelve);
/// `raw` is a string serde_json already accepted.
///
/// An offset past the end gives the offset of the closing quote.
pub(crate) fn string_offset(raw: &str, at: usize) -> usize {
    let bytes = raw.as_bytes();
    let end = raw.len().saturating_sub(1).max(1);
    let mut i = 1;
    let mut decoded = 0;
    while decoded < at && i < end {
        if bytes[i] != b'\\' {
            let width = utf8_width(bytes[i]);
            i += width;
            decoded += width;
            continue;
        }
        match bytes.get(i + 1) {
            Some(b'u') => {
                let unit = hex4(raw, i + 2);
                let low = (raw.get(i + 6..i + 8) == Some("\\u"))
                    .then(|| hex4(raw, i + 8))
                    .flatten();
                match (unit, low) {
                    (Some(0xD800..=0xDBFF), Some(0xDC00..=0xDFFF)) => {
                        i += 12;
                        decoded += 4;
                    }
                    (Some(unit), _) => {
                        i += 6;
                        decoded += char::from_u32(unit).map_or(3, char::len_utf8);
                    }
                    (None, _) => i += 2,
                }
            }
            _ => {
                i += 2;
                decoded += 1;
            }
        }
    }
    i.min(end)
}

fn hex4(raw: &str, at: usize) -> Option<u32> {
    raw.get(at..at + 4)
        .and_then(|h| u32::from_str_radix(h, 16).ok())
}

fn utf8_width(first: u8) -> usize {
    match first {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

/// The byte span of the key of the object entry whose value starts at `value_start` in
/// `text`: from its opening quote to after its closing quote. Falls back to the value's
/// start when the text before it is not `"key" :` (it always is, in JSON serde_json read).
pub(crate) fn key_span(text: &str, value_start: usize) -> std::ops::Range<usize> {
    let before = text[..value_start].trim_end();
    let Some(before) = before.strip_suffix(':') else {
        return value_start..value_start;
    };
    let before = before.trim_end();
    let close = before.len();
    if !before.ends_with('"') || close < 2 {
        return value_start..value_start;
    }
    let bytes = before.as_bytes();
    let mut open = close - 1;
    while open > 0 {
        open -= 1;
        if bytes[open] == b'"' {
            let backslashes = bytes[..open]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count();
            if backslashes % 2 == 0 {
                return open..close;
            }
        }
    }
    value_start..value_start
}

/// One field of a struct read from a map by hand (this crate derives no serde impls, so
/// that it compiles beside `serde_derive` instead of after it): the next value into
/// `slot`, a key given twice an error, as serde's derive has it.
pub(crate) fn take_field<'de, A, T>(
    map: &mut A,
    slot: &mut Option<T>,
    key: &'static str,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    T: Deserialize<'de>,
{
    if slot.is_some() {
        return Err(serde_core::de::Error::duplicate_field(key));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// The value of a key a struct does not read, skipped (serde's derive ignores them too).
pub(crate) fn skip_field<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<serde_core::de::IgnoredAny>().map(|_| ())
}

/// A required key's value, or serde's "missing field" error.
pub(crate) fn required<T, E: serde_core::de::Error>(
    value: Option<T>,
    key: &'static str,
) -> Result<T, E> {
    value.ok_or_else(|| E::missing_field(key))
}

/// `Serialize` for a struct written as an object of its fields, each under its own name,
/// in the order given.
macro_rules! serialize_fields {
    ($ty:ident { $($field:ident),+ $(,)? }) => {
        impl ::serde_core::Serialize for $ty {
            fn serialize<S: ::serde_core::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                use ::serde_core::ser::SerializeStruct;
                let fields = [$(stringify!($field)),+];
                let mut out = serializer.serialize_struct(stringify!($ty), fields.len())?;
                $(out.serialize_field(stringify!($field), &self.$field)?;)+
                out.end()
            }
        }
    };
}
pub(crate) use serialize_fields;

/// `Deserialize` for a struct read from an object: each key listed is read into an
/// `Option` of its type under its own name (a key given twice is an error, other keys are
/// skipped), then `$build` makes the value from them, with [`required`] for a key that
/// must be there and a default for one that may not.
macro_rules! deserialize_fields {
    ($ty:ident, $expecting:literal, { $($field:ident: $field_ty:ty),+ $(,)? } => $build:expr) => {
        impl<'de> ::serde_core::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde_core::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<$ty, D::Error> {
                struct Fields;
                impl<'de> ::serde_core::de::Visitor<'de> for Fields {
                    type Value = $ty;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_map<A: ::serde_core::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> ::core::result::Result<$ty, A::Error> {
                        $(let mut $field = None::<$field_ty>;)+
                        while let Some(key) = map.next_key::<String>()? {
                            match key.as_str() {
                                $(stringify!($field) => $crate::source::json::take_field(
                                    &mut map,
                                    &mut $field,
                                    stringify!($field),
                                )?,)+
                                _ => $crate::source::json::skip_field(&mut map)?,
                            }
                        }
                        $build
                    }
                }
                deserializer.deserialize_struct(
                    stringify!($ty),
                    &[$(stringify!($field)),+],
                    Fields,
                )
            }
        }
    };
}
pub(crate) use deserialize_fields;

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(raw: &str) -> String {
        serde_json::from_str(raw).unwrap()
    }

    #[derive(Debug, PartialEq)]
    struct Pair {
        name: String,
        count: u32,
    }

    serialize_fields!(Pair { name, count });

    deserialize_fields!(Pair, "a pair: `name` and `count`", { name: String, count: u32 } => {
        Ok(Pair { name: required(name, "name")?, count: count.unwrap_or(1) })
    });

    #[test]
    fn struct_macros_read_and_write_objects_by_field() {
        let pair = Pair {
            name: "a".into(),
            count: 2,
        };
        assert_eq!(
            serde_json::to_string(&pair).unwrap(),
            r#"{"name":"a","count":2}"#
        );
        let read = |json: &str| serde_json::from_str::<Pair>(json).map_err(|e| e.to_string());
        assert_eq!(read(r#"{"count": 2, "other": [1], "name": "a"}"#), Ok(pair));
        assert_eq!(
            read(r#"{"name": "b"}"#),
            Ok(Pair {
                name: "b".into(),
                count: 1
            })
        );
        assert_eq!(
            read(r#"{"count": 2}"#),
            Err("missing field `name` at line 1 column 12".into())
        );
        assert_eq!(
            read(r#"{"name": "a", "name": "b"}"#),
            Err("duplicate field `name` at line 1 column 20".into())
        );
        assert_eq!(
            read("[1]"),
            Err(
                "invalid type: sequence, expected a pair: `name` and `count` at line 1 column 1"
                    .into()
            )
        );
    }

    #[test]
    fn offsets_inside_strings_walk_escapes() {
        let raw = r#""a\n\"é\u00e9\ud83d\ude00{{k}}""#;
        let text = decoded(raw);
        let at = text.find("{{k}}").unwrap();
        assert_eq!(&raw[string_offset(raw, at)..][..5], "{{k}}");
        assert_eq!(string_offset(raw, 0), 1);
        assert_eq!(string_offset(raw, 999), raw.len() - 1);
    }

    #[test]
    fn key_spans_are_found_before_the_colon() {
        let text = r#"{ "a\"b" : 1, "c":2 }"#;
        let one = text.find('1').unwrap();
        assert_eq!(&text[key_span(text, one)], r#""a\"b""#);
        let two = text.find('2').unwrap();
        assert_eq!(&text[key_span(text, two)], r#""c""#);
    }
}
