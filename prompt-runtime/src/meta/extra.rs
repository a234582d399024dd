//! The frontmatter keys without a field of their own, kept as raw JSON.

use serde_core::de::DeserializeOwned;
use std::borrow::Cow;

/// The frontmatter keys [`Meta`](super::Meta) has no field for: `(key, raw JSON)` pairs in file order.
///
/// The getters read one key: `None` when it is absent, `Some(Err(..))` when its JSON is
/// not of the asked type.
///
/// ```
/// use promptic::Extra;
/// use std::borrow::Cow;
///
/// const EXTRA: Extra = Extra(Cow::Borrowed(&[
///     (Cow::Borrowed("model"), Cow::Borrowed("\"fast\"")),
///     (Cow::Borrowed("retries"), Cow::Borrowed("3")),
/// ]));
/// assert_eq!(EXTRA.get("model"), Some("\"fast\""));
/// assert_eq!(EXTRA.get_str("model").unwrap().unwrap(), "fast");
/// assert_eq!(EXTRA.get_i64("retries").unwrap().unwrap(), 3);
/// assert!(EXTRA.get_bool("retries").unwrap().is_err());
/// assert!(EXTRA.get("missing").is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Extra(pub Cow<'static, [(Cow<'static, str>, Cow<'static, str>)]>);

impl Extra {
    /// No extras.
    pub const EMPTY: Extra = Extra(Cow::Borrowed(&[]));

    /// The raw JSON text of `key`, exactly as written in the frontmatter.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, raw)| &**raw)
    }

    /// `key`'s value read as any deserializable type.
    ///
    /// ```
    /// use promptic::Extra;
    ///
    /// let extra: Extra = [("tags", r#"["daily", "work"]"#)].into_iter().collect();
    /// let tags: Vec<String> = extra.get_as("tags").unwrap().unwrap();
    /// assert_eq!(tags, ["daily", "work"]);
    /// ```
    pub fn get_as<T: DeserializeOwned>(&self, key: &str) -> Option<Result<T, serde_json::Error>> {
        self.get(key).map(serde_json::from_str)
    }

    /// `key`'s value as a string (a JSON string, unescaped).
    pub fn get_str(&self, key: &str) -> Option<Result<String, serde_json::Error>> {
        self.get_as(key)
    }

    /// `key`'s value as an integer that fits `i64`.
    pub fn get_i64(&self, key: &str) -> Option<Result<i64, serde_json::Error>> {
        self.get_as(key)
    }

    /// `key`'s value as a number (integers included).
    ///
    /// ```
    /// use promptic::Extra;
    ///
    /// let extra: Extra = [("temperature", "0.2"), ("top_k", "40")].into_iter().collect();
    /// assert_eq!(extra.get_f64("temperature").unwrap().unwrap(), 0.2);
    /// assert_eq!(extra.get_f64("top_k").unwrap().unwrap(), 40.0);
    /// ```
    pub fn get_f64(&self, key: &str) -> Option<Result<f64, serde_json::Error>> {
        self.get_as(key)
    }

    /// `key`'s value as a boolean.
    pub fn get_bool(&self, key: &str) -> Option<Result<bool, serde_json::Error>> {
        self.get_as(key)
    }

    /// True when `key` is among the extras.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// `(key, raw JSON)` pairs in file order.
    ///
    /// ```
    /// use promptic::Extra;
    ///
    /// let extra: Extra = [("b", "1"), ("a", "true")].into_iter().collect();
    /// let keys: Vec<&str> = extra.iter().map(|(key, _)| key).collect();
    /// assert_eq!(keys, ["b", "a"]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.0.iter().map(|(k, v)| (&**k, &**v))
    }

    /// How many extras there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Collects `(key, raw JSON)` pairs, keeping their order. The JSON is not checked here;
/// a getter reports it when read.
impl<K, V> FromIterator<(K, V)> for Extra
where
    K: Into<Cow<'static, str>>,
    V: Into<Cow<'static, str>>,
{
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Extra(Cow::Owned(
            iter.into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        ))
    }
}
