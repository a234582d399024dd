//! JSON objects read in the file's order, each value kept as raw JSON that borrows from
//! the text, so that its byte span (for diagnostics) is known. Shared by the frontmatter,
//! the identity and the configuration; serde_json's `preserve_order` is not needed.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
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
pub(crate) fn object_entries(json: &str) -> Result<Vec<(String, &RawValue)>, serde_json::Error> {
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
