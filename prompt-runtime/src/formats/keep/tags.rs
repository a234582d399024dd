//! [`Tags`]: the tags of the document a family member is chosen for.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// A document's tags: each key holds one or more values (keep's tags are multi-valued).
///
/// A rule pair `key=value` holds when `key` has `value` among its values. A value is
/// normalized as keep normalizes a document's tags when it is added (stripped of Python's
/// whitespace, NFC, `http(s)://` URLs canonicalized: see
/// [`normalize_tag_value`](super::normalize_tag_value)); then keys and
/// values compare byte for byte with the rule's, which is taken as written. The order
/// values were added in does not matter.
///
/// ```
/// use promptic::Tags;
///
/// let mut tags = Tags::new();
/// tags.insert("type", "meeting").insert("project", "myapp");
/// tags.insert("type", "standup"); // adds a second value
/// assert!(tags.has("type", "meeting") && tags.has("type", "standup"));
/// assert!(!tags.has("type", "paper"));
/// assert_eq!(tags.to_string(), "project=myapp type=meeting type=standup");
///
/// let same: Tags = [("type", "meeting"), ("project", "myapp"), ("type", "standup")]
///     .into_iter()
///     .collect();
/// assert_eq!(same, tags);
///
/// // padded, decomposed or URL-cased values match as they do in keep
/// let padded: Tags = [("type", "paper "), ("url", "HTTP://Example.org:80")].into_iter().collect();
/// assert!(padded.has("type", "paper") && padded.has("url", "http://example.org/"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    // Sorted, so that a `Tags` prints and compares the same however it was built.
    values: BTreeMap<String, Vec<String>>,
}

impl Tags {
    /// No tags: only a family's default member applies.
    ///
    /// ```
    /// assert!(promptic::Tags::new().is_empty());
    /// ```
    pub fn new() -> Tags {
        Tags::default()
    }

    /// Adds `value`, normalized, to the values of `key` (a value already there is not
    /// added twice).
    ///
    /// ```
    /// let mut tags = promptic::Tags::new();
    /// tags.insert("topic", "code").insert("topic", "code");
    /// assert_eq!(tags.values("topic"), ["code"]);
    /// ```
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<String>) -> &mut Tags {
        let value = super::normalize_tag_value(&value.into());
        let values = self.values.entry(key.into()).or_default();
        if !values.contains(&value) {
            values.push(value);
        }
        self
    }

    /// True when `key` has `value` among its values: the test a rule pair makes. Allocates
    /// nothing.
    ///
    /// ```
    /// let tags: promptic::Tags = [("type", "paper")].into_iter().collect();
    /// assert!(tags.has("type", "paper"));
    /// assert!(!tags.has("kind", "paper"));
    /// ```
    pub fn has(&self, key: &str, value: &str) -> bool {
        self.values
            .get(key)
            .is_some_and(|values| values.iter().any(|v| v == value))
    }

    /// The values of `key`, in the order they were added; empty when it has none.
    ///
    /// ```
    /// let tags: promptic::Tags = [("type", "a"), ("type", "b")].into_iter().collect();
    /// assert_eq!(tags.values("type"), ["a", "b"]);
    /// assert!(tags.values("other").is_empty());
    /// ```
    pub fn values(&self, key: &str) -> &[String] {
        self.values.get(key).map_or(&[], Vec::as_slice)
    }

    /// Every `(key, value)` pair, keys sorted, each key's values in the order added.
    ///
    /// ```
    /// let tags: promptic::Tags = [("b", "1"), ("a", "2")].into_iter().collect();
    /// let pairs: Vec<(&str, &str)> = tags.iter().collect();
    /// assert_eq!(pairs, [("a", "2"), ("b", "1")]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values
            .iter()
            .flat_map(|(k, vs)| vs.iter().map(move |v| (k.as_str(), v.as_str())))
    }

    /// True when there are no tags.
    ///
    /// ```
    /// let mut tags = promptic::Tags::new();
    /// assert!(tags.is_empty());
    /// tags.insert("a", "b");
    /// assert!(!tags.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.values.values().all(Vec::is_empty)
    }
}

/// `key=value` pairs separated by spaces, as a rule line writes them; `(no tags)` when
/// empty.
impl fmt::Display for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("(no tags)");
        }
        for (i, (key, value)) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{key}={value}")?;
        }
        Ok(())
    }
}

impl<K: Into<String>, V: Into<String>> FromIterator<(K, V)> for Tags {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Tags {
        let mut tags = Tags::new();
        tags.extend(pairs);
        tags
    }
}

impl<K: Into<String>, V: Into<String>> Extend<(K, V)> for Tags {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, pairs: I) {
        for (key, value) in pairs {
            self.insert(key, value);
        }
    }
}

/// keep's form: each tag with its values.
///
/// ```
/// use std::collections::HashMap;
///
/// let map = HashMap::from([("type".to_owned(), vec!["meeting".to_owned(), "notes".to_owned()])]);
/// let tags = promptic::Tags::from(map);
/// assert!(tags.has("type", "notes"));
/// ```
impl From<HashMap<String, Vec<String>>> for Tags {
    fn from(map: HashMap<String, Vec<String>>) -> Tags {
        map.into_iter()
            .flat_map(|(k, vs)| vs.into_iter().map(move |v| (k.clone(), v)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_without_values_is_no_tag() {
        let map = HashMap::from([("type".to_owned(), Vec::new())]);
        let tags = Tags::from(map);
        assert!(tags.is_empty());
        assert_eq!(tags.to_string(), "(no tags)");
        assert!(!tags.has("type", ""));
    }

    #[test]
    fn values_that_normalize_alike_are_one_value() {
        let tags: Tags = [
            ("type", "paper"),
            ("type", " paper\u{1f}"),
            ("n", "e\u{301}"),
        ]
        .into_iter()
        .collect();
        assert_eq!(tags.values("type"), ["paper"]);
        assert!(tags.has("n", "\u{e9}"));
        // the rule's value is not normalized: a padded rule value matches nothing
        assert!(!tags.has("type", "paper "));
    }
}
