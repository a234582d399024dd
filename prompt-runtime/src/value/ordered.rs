//! A mapping that keeps its keys in the order they were first written, as Python dicts
//! and JavaScript objects do. `serde_json::Map` sorts its keys (unless a feature that
//! changes it for every crate of a build is on), so the front ends whose engines show a
//! mapping's order (Jinja's `items()` and dict printing, dotprompt's `{{#each}}` and
//! `{{json}}`) read their data into this one.

use serde_core::ser::{Serialize, SerializeMap, Serializer};
use std::collections::HashMap;

/// Keys in the order they were first written, each with its value (a later write of a
/// key keeps its first place, as in Python and JavaScript).
///
/// ```
/// use promptic::value::ordered::Map;
///
/// let mut map = Map::new();
/// map.insert("z", 1);
/// map.insert("a", 2);
/// map.insert("z", 3);
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["z", "a"]);
/// assert_eq!(map.get("z"), Some(&3));
/// assert_eq!(map.get("y"), None);
/// ```
#[derive(Clone, Debug)]
pub struct Map<V> {
    entries: Vec<(String, V)>,
    /// Key to position, so a lookup in a large mapping stays constant time: every key,
    /// once there are more than [`INDEXED`]; empty until then (a short scan is faster than
    /// hashing, and a small mapping copies without a table).
    index: HashMap<String, usize>,
}

/// How many keys a mapping holds before it keeps an index.
const INDEXED: usize = 16;

/// Whether two keys are equal: their lengths and first bytes, compared here, set most keys
/// of a mapping apart (`name`, `kind`, `cost` are all four bytes long) without a call to
/// `memcmp`.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.first() == b.first() && a == b
}

impl<V> Default for Map<V> {
    fn default() -> Self {
        Map {
            entries: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<V: PartialEq> PartialEq for Map<V> {
    /// Mappings are equal when they hold the same keys with equal values, in any order
    /// (as Python's `==` and a deep comparison in JavaScript treat them).
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .entries
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|o| o == v))
    }
}

impl<V> Map<V> {
    /// An empty mapping.
    pub fn new() -> Self {
        Map::default()
    }

    /// An empty mapping with room for `capacity` keys.
    pub fn with_capacity(capacity: usize) -> Self {
        Map {
            entries: Vec::with_capacity(capacity),
            index: if capacity > INDEXED {
                HashMap::with_capacity(capacity)
            } else {
                HashMap::new()
            },
        }
    }

    /// Where a key is in `entries`.
    fn position(&self, key: &str) -> Option<usize> {
        if self.entries.len() > INDEXED {
            self.index.get(key).copied()
        } else {
            let key = key.as_bytes();
            self.entries
                .iter()
                .position(|(k, _)| same_bytes(k.as_bytes(), key))
        }
    }

    /// The value of a key.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// The value of a key, to change it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        let i = self.position(key)?;
        Some(&mut self.entries[i].1)
    }

    /// Sets a key: a new key goes last, an existing one keeps its place.
    pub fn insert(&mut self, key: impl Into<String>, value: V) {
        let key = key.into();
        match self.position(&key) {
            Some(i) => self.entries[i].1 = value,
            None => {
                let at = self.entries.len();
                if at == INDEXED {
                    // The first key past the limit: index every one before it.
                    self.index.reserve(INDEXED * 2);
                    for (i, (k, _)) in self.entries.iter().enumerate() {
                        self.index.insert(k.clone(), i);
                    }
                }
                if at >= INDEXED {
                    self.index.insert(key.clone(), at);
                }
                self.entries.push((key, value));
            }
        }
    }

    /// Removes a key, keeping the order of the others.
    pub fn remove(&mut self, key: &str) -> Option<V> {
        let i = self.position(key)?;
        let (_, value) = self.entries.remove(i);
        if self.entries.len() <= INDEXED {
            self.index.clear();
        } else {
            self.index.remove(key);
            for position in self.index.values_mut() {
                if *position > i {
                    *position -= 1;
                }
            }
        }
        Some(value)
    }

    /// Whether the key is set.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// The values in the order of their keys.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &V> + DoubleEndedIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &V)> + DoubleEndedIterator {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The entries in order, as stored (a slice iterator has a name; `iter`'s has not).
    pub(crate) fn entries(&self) -> &[(String, V)] {
        &self.entries
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has no keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<V: Clone> Map<V> {
    /// Copies every entry of `other` over this mapping (JavaScript's `{...this, ...other}`,
    /// Python's `update`).
    pub fn extend_from(&mut self, other: &Map<V>) {
        if self.is_empty() {
            self.clone_from(other);
            return;
        }
        for (k, v) in other.iter() {
            self.insert(k, v.clone());
        }
    }
}

impl<V> IntoIterator for Map<V> {
    type Item = (String, V);
    type IntoIter = std::vec::IntoIter<(String, V)>;

    /// The entries in order, by value.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<V> FromIterator<(String, V)> for Map<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut map = Map::with_capacity(iter.size_hint().0);
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl<V: Serialize> Serialize for Map<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::{INDEXED, Map};

    /// Past the size where the index starts, and back under it by removals, every key is
    /// found at its place.
    #[test]
    fn lookups_hold_across_the_index_limit() {
        let mut map = Map::new();
        for i in 0..INDEXED * 3 {
            map.insert(format!("k{i}"), i);
            for j in 0..=i {
                assert_eq!(map.get(&format!("k{j}")), Some(&j), "after {i} inserts");
            }
            assert_eq!(map.get("absent"), None);
        }
        map.insert("k3", 333);
        assert_eq!(map.get("k3"), Some(&333));
        for i in (0..INDEXED * 3).rev().step_by(2) {
            assert!(map.remove(&format!("k{i}")).is_some());
            assert!(!map.contains_key(&format!("k{i}")));
            for (at, (k, v)) in map.iter().enumerate() {
                assert_eq!(map.get(k), Some(v));
                assert_eq!(map.keys().nth(at), Some(k));
            }
        }
        let mut copy = Map::new();
        copy.extend_from(&map);
        assert_eq!(copy, map);
        copy.extend_from(&map);
        assert_eq!(copy.len(), map.len());
    }

    #[test]
    fn order_is_first_write_and_removal_keeps_lookups_right() {
        let mut map: Map<i32> = [("b", 1), ("a", 2), ("c", 3), ("b", 4)]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [("b", &4), ("a", &2), ("c", &3)]
        );
        assert_eq!(map.remove("b"), Some(4));
        assert_eq!(map.get("c"), Some(&3));
        assert_eq!(map.keys().collect::<Vec<_>>(), ["a", "c"]);
        let other: Map<i32> = [("c".to_owned(), 3), ("a".to_owned(), 2)]
            .into_iter()
            .collect();
        assert_eq!(map, other);
    }
}
