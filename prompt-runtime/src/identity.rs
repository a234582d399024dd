//! The owner's identity: a JSON object flattened to `$name`, `$pronouns_subject`, … with
//! uppercase-first variants (`$Name`, `$Pronouns_subject`).
//!
//! The same flattening serves the example identity in `prompts/promptkit.json` (which
//! fixes, at build time, the keys a prompt may use) and the real identity loaded at run
//! time, so both always agree on the names.

use crate::case::{upper_first, variant_name};
use crate::load::json::object_entries;
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
/// use prompt_runtime::Identity;
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
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// The text is not JSON.
    #[error("malformed identity JSON at line {line}:{column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the JSON parser expected.
        message: String,
    },
    /// The identity (or the config's `identity` value) is not a JSON object.
    #[error("an identity is a JSON object, found {found}")]
    NotAnObject {
        /// The kind of JSON value found instead, such as "an array".
        found: &'static str,
    },
    /// An array holds an object or another array, which has no one-line text form.
    #[error(
        "identity key `{key}` holds an array with an object or array in it; only arrays of strings, numbers, booleans and nulls are allowed"
    )]
    NestedArray {
        /// The flattened key.
        key: String,
    },
    /// Two entries flatten to the same key (`"a_b"` and `"a": {"b": …}`, or a key given twice).
    #[error("identity key `{key}` is given twice (nested objects are flattened with `_`)")]
    DuplicateKey {
        /// The flattened key.
        key: String,
    },
    /// Keys the prompts use that the identity lacks, all of them.
    #[error(
        "identity is missing {} used by the prompts: {}",
        count_keys(.0.len()),
        list_keys(.0)
    )]
    MissingKeys(Vec<String>),
}

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
    /// Nested objects are flattened with `_` at any depth. Strings are taken as they are;
    /// numbers and booleans as the file writes them (`1.5`, `1e3`, `true`: never rounded,
    /// where Python would print `1000.0`); `null` becomes empty text;
    /// an array of strings, numbers, booleans or nulls becomes its items joined with `", "`.
    /// An array holding an object or an array is an error naming the key.
    ///
    /// This differs from solstone, which silently drops arrays (and so leaves `$key` in the
    /// rendered prompt); here an array of scalars has a text and anything else is an error.
    ///
    /// ```
    /// use prompt_runtime::Identity;
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
    /// use prompt_runtime::Identity;
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
    /// use prompt_runtime::identity::Slot;
    /// use prompt_runtime::Identity;
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
    /// let identity = prompt_runtime::Identity::from_pairs([("bio", "writes code")]);
    /// assert_eq!(identity.get("Bio"), Some("Writes code"));
    /// assert_eq!(identity.get("bIO"), None);
    /// ```
    pub fn get(&self, key: &str) -> Option<&str> {
        self.index.get(key).map(|&i| self.entries[i].value.as_str())
    }

    /// Every name with its text, variants included, in order.
    ///
    /// ```
    /// let identity = prompt_runtime::Identity::from_pairs([("a", "x"), ("b", "y")]);
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
    /// let identity = prompt_runtime::Identity::from_pairs([("a", "x"), ("b", "y")]);
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
    /// assert_eq!(prompt_runtime::Identity::from_pairs([("a", "x")]).len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for an identity without keys.
    ///
    /// ```
    /// assert!(prompt_runtime::Identity::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Checks that every name the prompts use is here, variants included; the error
    /// lists every missing name, in the order given, each once.
    ///
    /// ```
    /// use prompt_runtime::{Identity, IdentityError};
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

/// Flattens the JSON object `object`, which borrows from `source`. Collects every error,
/// each with the byte span of the value at fault.
pub(crate) fn flatten(
    source: &str,
    object: &RawValue,
) -> Result<Vec<FlatPair>, Vec<(IdentityError, Range<usize>)>> {
    let mut flat = Flattener {
        base: source.as_ptr() as usize,
        pairs: Vec::new(),
        seen: HashSet::new(),
        errors: Vec::new(),
    };
    if !object.get().starts_with('{') {
        let error = IdentityError::NotAnObject {
            found: kind(object.get()),
        };
        return Err(vec![(error, flat.span(object))]);
    }
    flat.object("", object);
    if flat.errors.is_empty() {
        Ok(flat.pairs)
    } else {
        Err(flat.errors)
    }
}

struct Flattener {
    base: usize,
    pairs: Vec<FlatPair>,
    seen: HashSet<String>,
    errors: Vec<(IdentityError, Range<usize>)>,
}

impl Flattener {
    fn span(&self, raw: &RawValue) -> Range<usize> {
        let start = raw.get().as_ptr() as usize - self.base;
        start..start + raw.get().len()
    }

    fn object(&mut self, prefix: &str, raw: &RawValue) {
        // `raw` was validated as JSON when it was read, so its entries parse.
        let Ok(entries) = object_entries(raw.get()) else {
            return;
        };
        for (key, value) in entries {
            let key = if prefix.is_empty() {
                key
            } else {
                format!("{prefix}_{key}")
            };
            if value.get().starts_with('{') {
                self.object(&key, value);
                continue;
            }
            let span = self.span(value);
            let text = match scalar_text(value.get()) {
                Some(text) => text,
                None => match array_text(value.get()) {
                    Some(text) => text,
                    None => {
                        self.errors.push((IdentityError::NestedArray { key }, span));
                        continue;
                    }
                },
            };
            if !self.seen.insert(key.clone()) {
                self.errors
                    .push((IdentityError::DuplicateKey { key }, span));
                continue;
            }
            self.pairs.push(FlatPair {
                key,
                value: text,
                span,
            });
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
    let (offset, message) = crate::load::json::error_position(text, e);
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

    #[test]
    fn empty_identity() {
        let id = Identity::from_json("{}").unwrap();
        assert!(id.is_empty());
        assert_eq!(id, Identity::default());
        assert_eq!(id.get("name"), None);
    }
}
