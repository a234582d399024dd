//! Reading JSON values of a store file with their spans, each problem reported as a
//! located diagnostic into the file, never a stop at the first.

use crate::source::json::{error_position, key_span, object_entries, span_in, string_offset};
use crate::suggest::closest;
use crate::{Diagnostic, Diagnostics, SourceFile};
use serde_json::value::RawValue;
use std::ops::Range;

/// One file being read, and where its problems go.
pub struct Reader<'a> {
    pub source: &'a SourceFile,
    pub problems: &'a mut Diagnostics,
}

/// An object's entries: key, value, value span.
pub type Entries<'t> = Vec<(String, &'t RawValue)>;

/// An object's entries as Python's `json.load` gives them to PromptEngine: a key written
/// twice keeps its first place and its last value.
fn as_python_reads(entries: Entries<'_>) -> Entries<'_> {
    let mut kept: Entries<'_> = Vec::with_capacity(entries.len());
    let mut at: std::collections::HashMap<String, usize> = Default::default();
    for (key, value) in entries {
        match at.get(&key) {
            Some(&i) => kept[i].1 = value,
            None => {
                at.insert(key.clone(), kept.len());
                kept.push((key, value));
            }
        }
    }
    kept
}

impl<'a> Reader<'a> {
    pub fn text(&self) -> &'a str {
        self.source.text()
    }

    pub fn error(&mut self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(message).at(self.source, span)
    }

    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.problems.push(diagnostic);
    }

    /// The whole file as a JSON object; a syntax error is reported where it is.
    pub fn top(&mut self) -> Option<Entries<'a>> {
        let text = self.text();
        match object_entries(text) {
            Ok(entries) => Some(as_python_reads(entries)),
            Err(e) => {
                let (at, message) = error_position(text, &e);
                let what = if e.is_data() {
                    "must be a JSON object"
                } else {
                    "is not valid JSON"
                };
                let d = self
                    .error(
                        at..at + 1,
                        format!("`{}` {what}: {message}", self.source.path()),
                    )
                    .with_help(
                        "PromptEngine files are JSON objects: check the commas, quotes and braces",
                    );
                self.push(d);
                None
            }
        }
    }

    pub fn span(&self, raw: &RawValue) -> Range<usize> {
        span_in(self.text(), raw)
    }

    /// The span of the key whose value is `raw`.
    pub fn key_span(&self, raw: &RawValue) -> Range<usize> {
        let start = self.span(raw).start;
        let span = key_span(self.text(), start);
        if span.is_empty() {
            start..start + 1
        } else {
            span
        }
    }

    /// The span of a piece of a JSON string's decoded value (`decoded` is a byte range of it).
    pub fn inside_string(&self, raw: &RawValue, decoded: Range<usize>) -> Range<usize> {
        let base = self.span(raw).start;
        base + string_offset(raw.get(), decoded.start)..base + string_offset(raw.get(), decoded.end)
    }

    fn wrong(&mut self, raw: &RawValue, what: &str, expected: &str) {
        let found = found(raw);
        let d = self.error(
            self.span(raw),
            format!("{what} must be {expected}, found {found}"),
        );
        self.push(d);
    }

    pub fn object<'t>(&mut self, raw: &'t RawValue, what: &str) -> Option<Entries<'t>> {
        match object_entries(raw.get()) {
            Ok(entries) => Some(as_python_reads(entries)),
            Err(_) => {
                self.wrong(raw, what, "a JSON object");
                None
            }
        }
    }

    pub fn string(&mut self, raw: &RawValue, what: &str) -> Option<String> {
        match serde_json::from_str::<String>(raw.get()) {
            Ok(s) => Some(s),
            Err(_) => {
                self.wrong(raw, what, "a string");
                None
            }
        }
    }

    pub fn bool(&mut self, raw: &RawValue, what: &str) -> Option<bool> {
        match serde_json::from_str::<bool>(raw.get()) {
            Ok(b) => Some(b),
            Err(_) => {
                self.wrong(raw, what, "`true` or `false`");
                None
            }
        }
    }

    pub fn integer(&mut self, raw: &RawValue, what: &str) -> Option<i64> {
        match serde_json::from_str::<i64>(raw.get()) {
            Ok(n) => Some(n),
            Err(_) => {
                self.wrong(raw, what, "a whole number");
                None
            }
        }
    }

    /// An array of strings, each with its span.
    pub fn strings(&mut self, raw: &RawValue, what: &str) -> Option<Vec<(String, Range<usize>)>> {
        let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(raw.get()) else {
            self.wrong(raw, what, "an array of strings");
            return None;
        };
        let mut out = Vec::new();
        for item in items {
            let span = self.span(item);
            out.push((self.string(item, &format!("each of {what}"))?, span));
        }
        Some(out)
    }

    /// Reports the keys that are not `known` but close to one of them: a misspelt field
    /// would otherwise be ignored without a word. Keys close to nothing are PromptEngine
    /// fields promptic does not use, and are left alone.
    pub fn misspelt_fields(&mut self, entries: &Entries<'_>, known: &[&str], what: &str) {
        for (key, raw) in entries {
            if known.contains(&key.as_str()) {
                continue;
            }
            if let Some(close) = closest(key, known.iter().copied()) {
                let d = self
                    .error(
                        self.key_span(raw),
                        format!("unknown field `{key}` in {what}"),
                    )
                    .with_help(format!("did you mean `{close}`?"));
                self.push(d);
            }
        }
    }
}

/// What a JSON value is, for "found …".
fn found(raw: &RawValue) -> &'static str {
    match raw.get().as_bytes().first() {
        Some(b'"') => "a string",
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// True for names of variants and categories: ASCII letters, digits, `_` and `-`.
pub fn is_word(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The value of field `name` of an object's entries.
pub fn field<'t>(entries: &Entries<'t>, name: &str) -> Option<&'t RawValue> {
    entries.iter().find(|(k, _)| k == name).map(|(_, v)| *v)
}
