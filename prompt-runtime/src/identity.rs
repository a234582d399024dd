//! The owner's identity: a JSON object flattened to `$name`, `$pronouns_subject`, … with
//! uppercase-first variants (`$Name`, `$Pronouns_subject`).
//!
//! The same flattening serves the example identity in `prompts/promptic.json` (which
//! fixes, at build time, the keys a prompt may use) and the real identity loaded at run
//! time, so both always agree on the names.

use crate::case::{upper_first, variant_name};
use crate::source::json::object_entries;
use serde_json::value::RawValue;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;

mod slots;

pub use slots::{KeySlots, MAX_SLOTS, Slot};

/// A flattened identity: each key with its text, and each key's uppercase-first variant.
///
/// Names are in the file's order, each variant directly after its key. A variant is the
/// key as Python's `str.capitalize()` writes it (see [`crate::variant_name`]) with the
/// value's first character uppercased (see [`crate::upper_first`]). A key written in the
/// identity always wins over a generated variant of the same name, and when two keys
/// would generate the same variant (`day_ABC` and `day_abc`), the first one does.
///
/// ```
/// use promptic::Identity;
///
/// let identity = Identity::from_json(r#"{
///     "preferred": "alex",
///     "pronouns": { "subject": "they", "object": "them" }
/// }"#).unwrap();
/// assert_eq!(identity.get("pronouns_subject"), Some("they"));
/// assert_eq!(identity.get("Pronouns_subject"), Some("They"));
/// assert_eq!(identity.get("Preferred"), Some("Alex"));
/// assert_eq!(
///     identity.keys().collect::<Vec<_>>(),
///     ["preferred", "pronouns_subject", "pronouns_object"]
/// );
/// ```
#[derive(Clone, Default)]
pub struct Identity {
    entries: Vec<Entry>,
    index: HashMap<String, usize>,
    /// Per [`Slot`], the value of the entry with that name, empty where this identity
    /// lacks it (`has_slot` tells the two apart). A copy of the entries' values, so that a
    /// compiled prompt reaches each one with a single bounds-checked load, and with no
    /// test for a missing value on its path: the optimizer cannot follow an empty value
    /// through the render, where a `None` arm gave it a second copy of each step.
    by_slot: Vec<Box<str>>,
    /// Per [`Slot`], whether this identity has the name.
    has_slot: Vec<bool>,
}

impl PartialEq for Identity {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl Eq for Identity {}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    name: String,
    value: String,
    /// False for a generated uppercase-first variant.
    base: bool,
}

/// Why an identity could not be read or does not fit the prompts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdentityError {
    /// The text is not JSON.
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the JSON parser expected.
        message: String,
    },
    /// The identity (or the config's `identity` value) is not a JSON object.
    NotAnObject {
        /// The kind of JSON value found instead, such as "an array".
        found: &'static str,
    },
    /// An array holds an object or another array, which has no one-line text form.
    NestedArray {
        /// The flattened key.
        key: String,
    },
    /// Two entries flatten to the same key (`"a_b"` and `"a": {"b": …}`, or a key given twice).
    DuplicateKey {
        /// The flattened key.
        key: String,
    },
    /// An object nested deeper than [`MAX_DEPTH`] levels.
    TooDeep {
        /// The flattened key of the object that is one level too deep.
        key: String,
    },
    /// Keys the prompts use that the identity lacks, all of them.
    MissingKeys(Vec<String>),
}

impl std::fmt::Display for IdentityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IdentityError::Json {
                line,
                column,
                message,
            } => write!(
                f,
                "malformed identity JSON at line {line}:{column}: {message}"
            ),
            IdentityError::NotAnObject { found } => {
                write!(f, "an identity is a JSON object, found {found}")
            }
            IdentityError::NestedArray { key } => write!(
                f,
                "identity key `{key}` holds an array with an object or array in it; only arrays of strings, numbers, booleans and nulls are allowed"
            ),
            IdentityError::DuplicateKey { key } => write!(
                f,
                "identity key `{key}` is given twice (nested objects are flattened with `_`)"
            ),
            IdentityError::TooDeep { key } => write!(
                f,
                "identity key `{key}` holds an object nested more than {MAX_DEPTH} levels deep"
            ),
            IdentityError::MissingKeys(keys) => write!(
                f,
                "identity is missing {} used by the prompts: {}",
                count_keys(keys.len()),
                list_keys(keys)
            ),
        }
    }
}

impl std::error::Error for IdentityError {}

fn count_keys(n: usize) -> String {
    if n == 1 {
        "1 key".to_owned()
    } else {
        format!("{n} keys")
    }
}

fn list_keys(keys: &[String]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Identity {
    /// Reads an identity from JSON: either the identity object itself or a configuration
    /// object whose `"identity"` key holds it (as solstone's `config/journal.json` does);
    /// an `"identity"` key that holds anything but an object is an error.
    ///
    /// Nested objects are flattened with `_`, up to [`MAX_DEPTH`] levels deep (deeper is
    /// [`IdentityError::TooDeep`]). Strings are taken as they are;
    /// numbers and booleans as the file writes them (`1.5`, `1e3`, `true`: never rounded,
    /// where Python would print `1000.0`); `null` becomes empty text;
    /// an array of strings, numbers, booleans or nulls becomes its items joined with `", "`.
    /// An array holding an object or an array is an error naming the key.
    ///
    /// This differs from solstone, which silently drops arrays (and so leaves `$key` in the
    /// rendered prompt); here an array of scalars has a text and anything else is an error.
    ///
    /// ```
    /// use promptic::Identity;
    ///
    /// let identity = Identity::from_json(r#"{
    ///     "identity": { "name": "Alex Rivera", "age": 41, "langs": ["en", "es"], "bio": null }
    /// }"#).unwrap();
    /// assert_eq!(identity.get("name"), Some("Alex Rivera"));
    /// assert_eq!(identity.get("age"), Some("41"));
    /// assert_eq!(identity.get("Langs"), Some("En, es"));
    /// assert_eq!(identity.get("bio"), Some(""));
    ///
    /// let err = Identity::from_json("{\n  \"name\": oops\n}").unwrap_err();
    /// assert!(err.to_string().starts_with("malformed identity JSON at line 2:11"), "{err}");
    /// ```
    pub fn from_json(json: &str) -> Result<Identity, IdentityError> {
        let root: &RawValue = serde_json::from_str(json).map_err(|e| json_error(json, &e))?;
        let mut object = root;
        if root.get().starts_with('{') {
            let entries = object_entries(root.get()).map_err(|e| json_error(json, &e))?;
            // A config with an `identity` key: that key must hold the identity object.
            if let Some((_, inner)) = entries.iter().find(|(key, _)| key == "identity") {
                if !inner.get().starts_with('{') {
                    return Err(IdentityError::NotAnObject {
                        found: kind(inner.get()),
                    });
                }
                object = inner;
            }
        }
        let pairs = flatten(json, object).map_err(|mut errors| errors.swap_remove(0).0)?;
        Ok(Identity::build(pairs.into_iter().map(|p| (p.key, p.value))))
    }

    /// Builds an identity from flattened keys and their values, as code or tests have them.
    /// Variants are generated as for [`Identity::from_json`]; a key given again replaces the
    /// earlier value and keeps its place.
    ///
    /// ```
    /// use promptic::Identity;
    ///
    /// let identity = Identity::from_pairs([("name", "alex"), ("Name", "ALEX")]);
    /// // the written `Name` wins over the variant of `name`
    /// assert_eq!(identity.get("Name"), Some("ALEX"));
    /// assert_eq!(identity.len(), 2);
    /// ```
    pub fn from_pairs<I, K, V>(pairs: I) -> Identity
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let mut unique: Vec<(String, String)> = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (key, value) in pairs {
            let (key, value) = (key.into(), value.into());
            match seen.get(&key) {
                Some(&i) => unique[i].1 = value,
                None => {
                    seen.insert(key.clone(), unique.len());
                    unique.push((key, value));
                }
            }
        }
        Identity::build(unique)
    }

    /// `pairs` holds each key once.
    fn build(pairs: impl IntoIterator<Item = (String, String)>) -> Identity {
        let pairs: Vec<(String, String)> = pairs.into_iter().collect();
        let written: HashSet<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
        let mut entries = Vec::with_capacity(pairs.len() * 2);
        let mut index = HashMap::with_capacity(pairs.len() * 2);
        for (key, value) in &pairs {
            let variant = variant_name(key);
            let variant_value = upper_first(value).into_owned();
            index.insert(key.clone(), entries.len());
            entries.push(Entry {
                name: key.clone(),
                value: value.clone(),
                base: true,
            });
            if variant != *key
                && !written.contains(variant.as_str())
                && !index.contains_key(&variant)
            {
                index.insert(variant.clone(), entries.len());
                entries.push(Entry {
                    name: variant,
                    value: variant_value,
                    base: false,
                });
            }
        }
        let mut by_slot: Vec<Box<str>> = Vec::new();
        let mut has_slot = Vec::new();
        for entry in &entries {
            if let Some(slot) = Slot::of(&entry.name).index() {
                if by_slot.len() <= slot {
                    by_slot.resize(slot + 1, Box::default());
                    has_slot.resize(slot + 1, false);
                }
                by_slot[slot] = entry.value.as_str().into();
                has_slot[slot] = true;
            }
        }
        Identity {
            entries,
            index,
            by_slot,
            has_slot,
        }
    }

    /// The text for the name with this slot; `name` is that name, looked up by hashing
    /// only when it has no slot (see [`MAX_SLOTS`]). What compiled prompts call.
    ///
    /// ```
    /// use promptic::identity::Slot;
    /// use promptic::Identity;
    ///
    /// let identity = Identity::from_pairs([("bio", "writes code")]);
    /// assert_eq!(identity.at(Slot::of("Bio"), "Bio"), Some("Writes code"));
    /// assert_eq!(identity.at(Slot::of("nickname"), "nickname"), None);
    /// ```
    #[inline]
    pub fn at(&self, slot: Slot, name: &str) -> Option<&str> {
        match slot.index() {
            // A name numbered after this identity was built is not one of its names: every
            // name of an identity is numbered when it is built.
            Some(slot) => match self.has_slot.get(slot) {
                Some(true) => Some(&self.by_slot[slot]),
                _ => None,
            },
            None => self.get(name),
        }
    }

    /// The values by slot, for [`KeySlots::values`].
    #[inline]
    pub(crate) fn slot_table(&self) -> &[Box<str>] {
        &self.by_slot
    }

    /// The text for a key or a variant.
    ///
    /// ```
    /// let identity = promptic::Identity::from_pairs([("bio", "writes code")]);
    /// assert_eq!(identity.get("Bio"), Some("Writes code"));
    /// assert_eq!(identity.get("bIO"), None);
    /// ```
    pub fn get(&self, key: &str) -> Option<&str> {
        self.index.get(key).map(|&i| self.entries[i].value.as_str())
    }

    /// Every name with its text, variants included, in order.
    ///
    /// ```
    /// let identity = promptic::Identity::from_pairs([("a", "x"), ("b", "y")]);
    /// let all: Vec<_> = identity.iter().collect();
    /// assert_eq!(all, [("a", "x"), ("A", "X"), ("b", "y"), ("B", "Y")]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.entries
            .iter()
            .map(|e| (e.name.as_str(), e.value.as_str()))
    }

    /// The flattened keys, without the generated variants, in order.
    ///
    /// ```
    /// let identity = promptic::Identity::from_pairs([("a", "x"), ("b", "y")]);
    /// assert_eq!(identity.keys().collect::<Vec<_>>(), ["a", "b"]);
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.entries
            .iter()
            .filter(|e| e.base)
            .map(|e| e.name.as_str())
    }

    /// The number of names, variants included (what [`Identity::iter`] yields).
    ///
    /// ```
    /// assert_eq!(promptic::Identity::from_pairs([("a", "x")]).len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for an identity without keys.
    ///
    /// ```
    /// assert!(promptic::Identity::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Checks that every name the prompts use is here, variants included; the error
    /// lists every missing name, in the order given, each once.
    ///
    /// ```
    /// use promptic::{Identity, IdentityError};
    ///
    /// let identity = Identity::from_pairs([("name", "Alex")]);
    /// assert!(identity.check_keys(&["name", "Name"]).is_ok());
    /// let err = identity.check_keys(&["bio", "name", "pronouns_subject"]).unwrap_err();
    /// assert_eq!(err, IdentityError::MissingKeys(vec!["bio".into(), "pronouns_subject".into()]));
    /// assert_eq!(
    ///     err.to_string(),
    ///     "identity is missing 2 keys used by the prompts: `bio`, `pronouns_subject`"
    /// );
    /// ```
    pub fn check_keys(&self, required: &[&str]) -> Result<(), IdentityError> {
        let mut missing: Vec<String> = Vec::new();
        for &key in required {
            if !self.index.contains_key(key) && !missing.iter().any(|m| m == key) {
                missing.push(key.to_owned());
            }
        }
        if missing.is_empty() {
            Ok(())
        } else {
            Err(IdentityError::MissingKeys(missing))
        }
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// One flattened key, its text, and the byte span of its JSON value in the source.
pub(crate) struct FlatPair {
    pub(crate) key: String,
    pub(crate) value: String,
    pub(crate) span: Range<usize>,
}

/// How deep an identity's objects may nest: the identity object is level 1, so
/// `{"pronouns": {"subject": "they"}}` is 2 deep. Real identities are a few levels deep;
/// an object deeper than this is an error naming its key
/// ([`IdentityError::TooDeep`]), so that no identity can take the flattening anywhere
/// near the limits of memory or time.
///
/// ```
/// use promptic::identity::MAX_DEPTH;
/// use promptic::{Identity, IdentityError};
///
/// let nested = |levels: usize| {
///     format!("{}\"x\"{}", "{\"a\": ".repeat(levels), "}".repeat(levels))
/// };
/// assert!(Identity::from_json(&nested(MAX_DEPTH)).is_ok());
/// let err = Identity::from_json(&nested(MAX_DEPTH + 1)).unwrap_err();
/// assert!(matches!(err, IdentityError::TooDeep { .. }), "{err}");
/// ```
pub const MAX_DEPTH: usize = 64;

/// Flattens the JSON object `object`, which borrows from `source`. Collects every error,
/// each with the byte span of the value at fault.
///
/// One pass over the text, with a stack of the objects open rather than a call per level:
/// however the identity nests, it costs time in proportion to its text (and the keys it
/// makes) and no stack.
pub(crate) fn flatten(
    source: &str,
    object: &RawValue,
) -> Result<Vec<FlatPair>, Vec<(IdentityError, Range<usize>)>> {
    let base = object.get().as_ptr() as usize - source.as_ptr() as usize;
    let text = object.get();
    if !text.starts_with('{') {
        let error = IdentityError::NotAnObject { found: kind(text) };
        return Err(vec![(error, base..base + text.len())]);
    }
    let bytes = text.as_bytes();
    let mut pairs = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut errors = Vec::new();
    // The key of the innermost open object (`a_b` inside `{"a": {"b": {`), and for each
    // open object the length of its parent's: leaving an object truncates back to it.
    let mut prefix = String::new();
    let mut open: Vec<usize> = Vec::new();
    let mut at = 1;
    // `text` is JSON that serde_json accepted: a key, a `:` and a value after each `{` or
    // `,`. Anything else ends the walk rather than panicking.
    loop {
        at = skip_space(bytes, at);
        match bytes.get(at) {
            Some(b',') => at += 1,
            Some(b'}') => {
                at += 1;
                match open.pop() {
                    Some(len) => prefix.truncate(len),
                    None => break,
                }
            }
            Some(b'"') => {
                let key_end = string_end(bytes, at);
                let key: String = serde_json::from_str(&text[at..key_end]).unwrap_or_default();
                at = skip_space(bytes, key_end);
                if bytes.get(at) != Some(&b':') {
                    break;
                }
                at = skip_space(bytes, at + 1);
                if bytes.get(at) == Some(&b'{') && open.len() + 1 < MAX_DEPTH {
                    // The prefix grows in place: a chain of objects costs its keys' length
                    // once, not once per level.
                    open.push(prefix.len());
                    if !prefix.is_empty() {
                        prefix.push('_');
                    }
                    prefix.push_str(&key);
                    at += 1;
                    continue;
                }
                let key = if prefix.is_empty() {
                    key
                } else {
                    format!("{prefix}_{key}")
                };
                let value_end = value_end(bytes, at);
                let span = base + at..base + value_end;
                if bytes.get(at) == Some(&b'{') {
                    // At its `{`: the object itself may run for megabytes.
                    let brace = span.start..span.start + 1;
                    errors.push((IdentityError::TooDeep { key }, brace));
                    at = value_end;
                    continue;
                }
                let raw = &text[at..value_end];
                at = value_end;
                let value = match scalar_text(raw).or_else(|| array_text(raw)) {
                    Some(value) => value,
                    None => {
                        errors.push((IdentityError::NestedArray { key }, span));
                        continue;
                    }
                };
                if !seen.insert(key.clone()) {
                    errors.push((IdentityError::DuplicateKey { key }, span));
                    continue;
                }
                pairs.push(FlatPair { key, value, span });
            }
            _ => break,
        }
    }
    if errors.is_empty() {
        Ok(pairs)
    } else {
        Err(errors)
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes
        .get(at)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        at += 1;
    }
    at
}

/// The end of the string whose opening quote is at `at`: after its closing quote.
fn string_end(bytes: &[u8], mut at: usize) -> usize {
    at += 1;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// The end of the JSON value that starts at `at`. Objects and arrays are skipped by
/// counting brackets (strings skipped whole), not by descending into them.
fn value_end(bytes: &[u8], mut at: usize) -> usize {
    match bytes.get(at) {
        Some(b'"') => string_end(bytes, at),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            while let Some(&b) = bytes.get(at) {
                match b {
                    b'"' => {
                        at = string_end(bytes, at);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return at + 1;
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
            bytes.len()
        }
        _ => {
            while bytes
                .get(at)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
            {
                at += 1;
            }
            at
        }
    }
}

/// The text of a string, number, boolean or null; `None` for objects and arrays.
fn scalar_text(json: &str) -> Option<String> {
    match json.as_bytes().first()? {
        b'{' | b'[' => None,
        b'"' => serde_json::from_str::<String>(json).ok(),
        b'n' => Some(String::new()),
        // Booleans and numbers keep the text the file gives them: the JSON was validated
        // when read, and a number too large for `f64` (or an integer past 2^53) loses
        // nothing this way.
        _ => Some(json.to_owned()),
    }
}

/// An array of scalars joined with `", "`; `None` when it holds an object or an array.
fn array_text(json: &str) -> Option<String> {
    let items: Vec<&RawValue> = serde_json::from_str(json).ok()?;
    let texts = items
        .iter()
        .map(|item| scalar_text(item.get()))
        .collect::<Option<Vec<_>>>()?;
    Some(texts.join(", "))
}

/// What a JSON value is, for messages.
pub(crate) fn kind(json: &str) -> &'static str {
    match json.as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// A serde_json error as an identity error, with a line and a column in characters.
fn json_error(text: &str, e: &serde_json::Error) -> IdentityError {
    let (offset, message) = crate::source::json::error_position(text, e);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    IdentityError::Json {
        line: text[..line_start].matches('\n').count() + 1,
        column: text[line_start..offset].chars().count() + 1,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::json::Entries;

    fn all(identity: &Identity) -> Vec<(String, String)> {
        identity
            .iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    }

    #[test]
    fn flattens_at_depth_three() {
        let id =
            Identity::from_json(r#"{"a": {"b": {"c": "deep", "d": "x"}, "e": "y"}, "f": "z"}"#)
                .unwrap();
        assert_eq!(
            id.keys().collect::<Vec<_>>(),
            ["a_b_c", "a_b_d", "a_e", "f"]
        );
        assert_eq!(id.get("a_b_c"), Some("deep"));
        assert_eq!(id.get("A_b_c"), Some("Deep"));
    }

    #[test]
    fn scalars_and_arrays_become_text() {
        let id = Identity::from_json(
            r#"{"n": 1.5, "i": -3, "big": 1e3, "t": true, "f": false, "z": null, "huge": 1e400, "long": 123456789012345678901234,
                "arr": ["a", 2, true, null], "empty": [], "s": "a \"q\" \u00e9"}"#,
        )
        .unwrap();
        assert_eq!(id.get("n"), Some("1.5"));
        assert_eq!(id.get("i"), Some("-3"));
        assert_eq!(id.get("big"), Some("1e3"));
        assert_eq!(id.get("huge"), Some("1e400"));
        assert_eq!(id.get("long"), Some("123456789012345678901234"));
        assert_eq!(id.get("t"), Some("true"));
        assert_eq!(id.get("T"), Some("True"));
        assert_eq!(id.get("f"), Some("false"));
        assert_eq!(id.get("z"), Some(""));
        assert_eq!(id.get("Z"), Some(""));
        assert_eq!(id.get("arr"), Some("a, 2, true, "));
        assert_eq!(id.get("empty"), Some(""));
        assert_eq!(id.get("s"), Some("a \"q\" é"));
    }

    #[test]
    fn order_follows_the_file_with_each_variant_after_its_key() {
        let id = Identity::from_json(
            r#"{"zeta": "z", "alpha": "a", "pronouns": {"subject": "they"}, "mid": "m"}"#,
        )
        .unwrap();
        let names: Vec<_> = id.iter().map(|(k, _)| k).collect();
        assert_eq!(
            names,
            [
                "zeta",
                "Zeta",
                "alpha",
                "Alpha",
                "pronouns_subject",
                "Pronouns_subject",
                "mid",
                "Mid"
            ]
        );
        assert_eq!(id.get("Pronouns_subject"), Some("They"));
        assert_eq!(id.len(), 8);
    }

    #[test]
    fn variant_name_is_python_capitalize_and_value_keeps_the_rest() {
        let id = Identity::from_pairs([("day_YYYYMMDD", "friday, Jan 24"), ("_x", "v")]);
        assert_eq!(id.get("Day_yyyymmdd"), Some("Friday, Jan 24"));
        // `_x` is its own variant: no second entry
        assert_eq!(all(&id).len(), 3);
    }

    #[test]
    fn written_key_wins_over_a_variant() {
        let id = Identity::from_json(r#"{"name": "alex rivera", "Name": "Custom"}"#).unwrap();
        assert_eq!(id.get("Name"), Some("Custom"));
        assert_eq!(
            all(&id),
            [
                ("name".into(), "alex rivera".into()),
                ("Name".into(), "Custom".into())
            ]
        );
        // also when the written key comes first
        let id = Identity::from_pairs([("Name", "Custom"), ("name", "alex")]);
        assert_eq!(id.get("Name"), Some("Custom"));
        assert_eq!(id.len(), 2);
        // two keys with the same variant: the first wins
        let id = Identity::from_pairs([("day_ABC", "one"), ("day_abc", "two")]);
        assert_eq!(id.get("Day_abc"), Some("One"));
    }

    #[test]
    fn config_object_with_identity_key() {
        let id = Identity::from_json(r#"{"other": 1, "identity": {"name": "Alex"}}"#).unwrap();
        assert_eq!(id.keys().collect::<Vec<_>>(), ["name"]);
        // an `identity` key must hold the identity: anything else is a mistake, not a key
        let err = Identity::from_json(r#"{"identity": "me", "name": "Alex"}"#).unwrap_err();
        assert_eq!(err, IdentityError::NotAnObject { found: "a string" });
    }

    #[test]
    fn errors() {
        let err = Identity::from_json(r#"{"a": {"b": [1, {"c": 2}]}}"#).unwrap_err();
        assert_eq!(err, IdentityError::NestedArray { key: "a_b".into() });
        assert!(err.to_string().contains("`a_b`"), "{err}");
        assert_eq!(
            Identity::from_json(r#"{"a": [[1]]}"#).unwrap_err(),
            IdentityError::NestedArray { key: "a".into() }
        );
        assert_eq!(
            Identity::from_json("[1, 2]").unwrap_err(),
            IdentityError::NotAnObject { found: "an array" }
        );
        assert_eq!(
            Identity::from_json(r#""x""#).unwrap_err().to_string(),
            "an identity is a JSON object, found a string"
        );
        assert_eq!(
            Identity::from_json(r#"{"a_b": 1, "a": {"b": 2}}"#).unwrap_err(),
            IdentityError::DuplicateKey { key: "a_b".into() }
        );
        assert_eq!(
            Identity::from_json(r#"{"a": 1, "a": 2}"#).unwrap_err(),
            IdentityError::DuplicateKey { key: "a".into() }
        );
        match Identity::from_json("{\n  \"é\": \"x\",\n  \"b\": oops\n}").unwrap_err() {
            IdentityError::Json {
                line,
                column,
                message,
            } => {
                assert_eq!((line, column), (3, 8));
                assert!(message.starts_with("expected value"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        match Identity::from_json("{\"a\": 1,}").unwrap_err() {
            IdentityError::Json { line, .. } => assert_eq!(line, 1),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            Identity::from_json(""),
            Err(IdentityError::Json { .. })
        ));
        assert!(matches!(
            Identity::from_json("{} x"),
            Err(IdentityError::Json { .. })
        ));
    }

    #[test]
    fn check_keys_lists_every_missing_key_once() {
        let id = Identity::from_pairs([("name", "Alex")]);
        let err = id
            .check_keys(&["Name", "bio", "pronouns_subject", "bio", "name"])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "identity is missing 2 keys used by the prompts: `bio`, `pronouns_subject`"
        );
        assert_eq!(
            id.check_keys(&["bio"]).unwrap_err().to_string(),
            "identity is missing 1 key used by the prompts: `bio`"
        );
        assert_eq!(id.check_keys(&[]), Ok(()));
    }

    #[test]
    fn from_pairs_replaces_a_repeated_key_in_place() {
        let id = Identity::from_pairs([("a", "1"), ("b", "2"), ("a", "3")]);
        assert_eq!(id.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(id.get("a"), Some("3"));
        assert_eq!(id.get("A"), Some("3"));
        assert_eq!(
            format!("{id:?}"),
            r#"{"a": "3", "A": "3", "b": "2", "B": "2"}"#
        );
    }

    /// `levels` objects, one in another, around one string.
    fn nested(levels: usize) -> String {
        format!("{}\"x\"{}", "{\"a\": ".repeat(levels), "}".repeat(levels))
    }

    /// An identity nested 20,000 objects deep (140 KB) would overflow the stack of a
    /// reader with one call a level; on a test thread's small stack, 50,000 levels are an
    /// error naming the key.
    #[test]
    fn an_identity_nested_too_deep_is_one_error_not_a_stack_overflow() {
        let at_limit = Identity::from_json(&nested(MAX_DEPTH)).unwrap();
        let key = vec!["a"; MAX_DEPTH].join("_");
        assert_eq!(at_limit.keys().collect::<Vec<_>>(), [key.as_str()]);
        for levels in [MAX_DEPTH + 1, 20_000, 50_000] {
            let err = Identity::from_json(&nested(levels)).unwrap_err();
            let key = vec!["a"; MAX_DEPTH].join("_");
            assert_eq!(err, IdentityError::TooDeep { key: key.clone() }, "{levels}");
            assert_eq!(
                err.to_string(),
                format!("identity key `{key}` holds an object nested more than 64 levels deep")
            );
        }
        // under an `identity` key, and beside keys that are fine
        let json = format!(
            r#"{{"identity": {{"name": "Sam", "deep": {}}}}}"#,
            nested(50_000)
        );
        let errors = flatten(
            &json,
            serde_json::from_str::<Entries<'_>>(&json).unwrap().0[0].1,
        )
        .err()
        .unwrap();
        assert_eq!(errors.len(), 1);
        assert_eq!(&json[errors[0].1.clone()], "{");
    }

    /// One pass over the text, not each level parsed again with its key prefix rebuilt
    /// (10,000 levels would take 0.9 s and 147 MB). Ten times the keys, or ten times the
    /// depth of each, costs about ten times the time.
    #[test]
    fn flattening_costs_time_in_proportion_to_the_identity() {
        let wide = |n: usize| {
            let entries: Vec<String> = (0..n)
                .map(|i| format!(r#""k{i}": {{"a": {{"b": "v{i}", "c": [1, "two", null]}}}}"#))
                .collect();
            format!("{{{}}}", entries.join(", "))
        };
        let (small, large) = (wide(200), wide(2_000));
        crate::scaling::assert_linear(
            "the keys",
            || assert_eq!(Identity::from_json(&small).unwrap().keys().count(), 400),
            || assert_eq!(Identity::from_json(&large).unwrap().keys().count(), 4_000),
        );
        // 100 chains 6 deep, and 100 chains 60 deep
        let deep = |levels: usize| {
            let entries: Vec<String> = (0..100)
                .map(|i| format!(r#""k{i}": {}"#, nested(levels)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        };
        let (shallow, deeper) = (deep(6), deep(60));
        crate::scaling::assert_linear(
            "the depth",
            || assert_eq!(Identity::from_json(&shallow).unwrap().keys().count(), 100),
            || assert_eq!(Identity::from_json(&deeper).unwrap().keys().count(), 100),
        );
    }

    #[test]
    fn empty_identity() {
        let id = Identity::from_json("{}").unwrap();
        assert!(id.is_empty());
        assert_eq!(id, Identity::default());
        assert_eq!(id.get("name"), None);
    }
}
