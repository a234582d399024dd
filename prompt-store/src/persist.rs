//! Writing the user manifest: one value set at a path of objects, everything else in the
//! file kept as written and in its order (serde_json's `Value` would sort the keys, and
//! the order of a manifest's entries is the order of its prompts). The text is written by
//! [`atomic`](crate::atomic).

use prompt_runtime::__internal::object_entries;
use std::collections::{HashMap, HashSet};

/// `json` (an object, or empty for none yet) with `value` (JSON text) at `path`; missing
/// objects on the way are created. Objects rebuilt on the way are indented two spaces a
/// level; values not on the path are copied as written.
pub(crate) fn set_path(
    json: &str,
    path: &[&str],
    value: &str,
    depth: usize,
) -> Result<String, String> {
    set_paths(json, &[(path, value)], depth)
}

/// `json` with every `(path, value)` of `edits` set as [`set_path`] sets one, in order (a
/// later edit of the same path wins; new keys come in the order first set), in one pass:
/// each object on the way is read and written once, however many edits reach into it, so
/// that setting a field of each of N prompts costs time in proportion to the file, not N
/// times it.
pub(crate) fn set_paths(
    json: &str,
    edits: &[(&[&str], &str)],
    depth: usize,
) -> Result<String, String> {
    // An edit of the whole value (an empty path) replaces what the edits before it made.
    let mut current = std::borrow::Cow::Borrowed(json);
    let mut run: Vec<(&[&str], &str)> = Vec::new();
    for &(path, value) in edits {
        if path.is_empty() {
            run.clear();
            current = std::borrow::Cow::Borrowed(value);
        } else {
            run.push((path, value));
        }
    }
    if run.is_empty() {
        return Ok(current.into_owned());
    }
    set_in_object(&current, &run, depth)
}

/// `json`, an object (or empty), with `edits` (each with a non-empty path) set.
fn set_in_object(json: &str, edits: &[(&[&str], &str)], depth: usize) -> Result<String, String> {
    // The edits by their first key, the keys in the order first set.
    let mut by_head: HashMap<&str, Vec<(&[&str], &str)>> = HashMap::new();
    let mut heads: Vec<&str> = Vec::new();
    for &(path, value) in edits {
        let Some((head, rest)) = path.split_first() else {
            continue;
        };
        by_head
            .entry(head)
            .or_insert_with(|| {
                heads.push(head);
                Vec::new()
            })
            .push((rest, value));
    }
    let entries = if json.trim().is_empty() {
        Vec::new()
    } else {
        object_entries(json).map_err(|e| e.to_string())?
    };
    let mut fields: Vec<(String, String)> = Vec::with_capacity(entries.len() + heads.len());
    let mut found: HashSet<&str> = HashSet::new();
    for (key, raw) in entries {
        let text = match by_head.get_key_value(key.as_str()) {
            Some((&head, inner)) => {
                found.insert(head);
                set_paths(raw.get(), inner, depth + 1)?
            }
            None => raw.get().to_owned(),
        };
        fields.push((key, text));
    }
    for head in heads {
        if !found.contains(head) {
            fields.push((head.to_owned(), set_paths("", &by_head[head], depth + 1)?));
        }
    }
    object(&fields, depth)
}

/// `json` without the value at `path` (nothing to remove is no change); objects on the
/// way are rebuilt as by [`set_path`], an object left empty by the removal is kept.
pub(crate) fn remove_path(json: &str, path: &[&str], depth: usize) -> Result<String, String> {
    if json.trim().is_empty() {
        return Ok(String::new());
    }
    let Some((head, rest)) = path.split_first() else {
        return Ok(json.to_owned());
    };
    let entries = object_entries(json).map_err(|e| e.to_string())?;
    let mut fields: Vec<(String, String)> = Vec::new();
    for (key, raw) in entries {
        if key != *head {
            fields.push((key, raw.get().to_owned()));
        } else if !rest.is_empty() {
            fields.push((key, remove_path(raw.get(), rest, depth + 1)?));
        }
    }
    object(&fields, depth)
}

/// `json` without the value at each of `paths`, as [`remove_path`] removes them one at
/// a time, in one pass: each object on the way is read and written once, however many
/// removals reach into it.
#[cfg_attr(not(feature = "archive"), allow(dead_code))]
pub(crate) fn remove_paths(json: &str, paths: &[&[&str]], depth: usize) -> Result<String, String> {
    if paths.is_empty() {
        return Ok(json.to_owned());
    }
    if json.trim().is_empty() {
        return Ok(String::new());
    }
    // The removals by their first key: a path of one key drops that key, a longer one
    // reaches into its value. A path with no key removes nothing (as `remove_path`).
    let mut dropped: HashSet<&str> = HashSet::new();
    let mut inner: HashMap<&str, Vec<&[&str]>> = HashMap::new();
    let mut rebuilt = false;
    for path in paths {
        match path.split_first() {
            None => {}
            Some((head, [])) => {
                dropped.insert(head);
                rebuilt = true;
            }
            Some((head, rest)) => {
                inner.entry(head).or_default().push(rest);
                rebuilt = true;
            }
        }
    }
    if !rebuilt {
        return Ok(json.to_owned());
    }
    let entries = object_entries(json).map_err(|e| e.to_string())?;
    let mut fields: Vec<(String, String)> = Vec::new();
    for (key, raw) in entries {
        if dropped.contains(key.as_str()) {
            continue;
        }
        let text = match inner.get(key.as_str()) {
            Some(rest) => remove_paths(raw.get(), rest, depth + 1)?,
            None => raw.get().to_owned(),
        };
        fields.push((key, text));
    }
    object(&fields, depth)
}

fn object(fields: &[(String, String)], depth: usize) -> Result<String, String> {
    if fields.is_empty() {
        return Ok("{}".to_owned());
    }
    let inner = "  ".repeat(depth + 1);
    let mut out = String::from("{\n");
    for (i, (key, text)) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&inner);
        out.push_str(&serde_json::to_string(key).map_err(|e| e.to_string())?);
        out.push_str(": ");
        out.push_str(text);
    }
    out.push('\n');
    out.push_str(&"  ".repeat(depth));
    out.push('}');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_path_keeps_order_and_other_values() {
        let json = r#"{"version": "2.0", "prompts": {"b": {"order": 1}, "a": {"variants": {"x": {"enabled": true}}}}}"#;
        let out = set_path(
            json,
            &["prompts", "a", "variants", "default", "enabled"],
            "false",
            0,
        )
        .unwrap();
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            back["prompts"]["a"]["variants"]["default"]["enabled"],
            false
        );
        assert_eq!(back["prompts"]["a"]["variants"]["x"]["enabled"], true);
        assert!(out.find("\"b\"").unwrap() < out.find("\"a\"").unwrap());
        let again = set_path(
            &out,
            &["prompts", "a", "variants", "x", "enabled"],
            "false",
            0,
        )
        .unwrap();
        let back: serde_json::Value = serde_json::from_str(&again).unwrap();
        assert_eq!(back["prompts"]["a"]["variants"]["x"]["enabled"], false);
        let fresh = set_path("", &["prompts", "a"], "1", 0).unwrap();
        assert_eq!(fresh, "{\n  \"prompts\": {\n    \"a\": 1\n  }\n}");
    }

    #[test]
    fn remove_path_drops_one_value_and_keeps_the_rest() {
        let json = r#"{"prompts": {"b": {"order": 1}, "a": {"domain": "a.json"}}}"#;
        let out = remove_path(json, &["prompts", "a", "domain"], 0).unwrap();
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back["prompts"]["a"], serde_json::json!({}));
        assert_eq!(back["prompts"]["b"]["order"], 1);
        let out = remove_path(json, &["prompts", "a"], 0).unwrap();
        assert!(!out.contains("\"a\""), "{out}");
        let same = remove_path(json, &["prompts", "zz", "x"], 0).unwrap();
        let same: serde_json::Value = serde_json::from_str(&same).unwrap();
        assert_eq!(
            same,
            serde_json::from_str::<serde_json::Value>(json).unwrap()
        );
    }

    /// Many edits in one pass give what the same edits one at a time give, byte for byte.
    #[test]
    fn set_paths_is_set_path_in_sequence() {
        let json = r#"{"version": "2.0", "prompts": {"b": {"order": 1}, "a": {"variants": {"x": {"enabled": true}}}, "b": {"twice": 1}}, "tail": [1, 2]}"#;
        let edits: &[(&[&str], &str)] = &[
            (&["prompts", "a", "order"], "20"),
            (&["prompts", "b", "order"], "10"),
            (&["prompts", "new", "order"], "30"),
            (&["prompts", "a", "variants", "x", "enabled"], "false"),
            (&["prompts", "a", "order"], "25"),
            (&["other"], "{}"),
            (&["other", "deep", "er"], "\"s\""),
            (&["prompts", "new"], "{\"replaced\": true}"),
            (&["prompts", "new", "order"], "35"),
            (&["version"], "\"3.0\""),
        ];
        for start in ["", json, "{}"] {
            for n in 0..=edits.len() {
                let mut one_by_one = start.to_owned();
                for (path, value) in &edits[..n] {
                    one_by_one = set_path(&one_by_one, path, value, 0).unwrap();
                }
                let at_once = set_paths(start, &edits[..n], 0).unwrap();
                if n == 0 {
                    assert_eq!(at_once, start);
                } else {
                    assert_eq!(at_once, one_by_one, "{n} edits of {start:?}");
                }
            }
        }
        // An edit of the whole value starts over.
        let whole = set_paths(json, &[(&["a"], "1"), (&[], "{}"), (&["b"], "2")], 0).unwrap();
        assert_eq!(whole, "{\n  \"b\": 2\n}");
        assert!(set_paths("[1]", &[(&["a"], "1"), (&["b"], "2")], 0).is_err());
    }

    /// Many removals in one pass give what the same removals one at a time give.
    #[test]
    fn remove_paths_is_remove_path_in_sequence() {
        let json = r#"{"version": "2.0", "placeholders": {"a": {"x": 1}, "b": 2, "c": {"y": {"z": 3}}}, "tail": [1, 2]}"#;
        let paths: &[&[&str]] = &[
            &["placeholders", "b"],
            &["placeholders", "missing"],
            &["placeholders", "c", "y", "z"],
            &["placeholders", "a"],
            &["nothing", "here"],
            &["tail"],
            &["placeholders", "a", "x"],
        ];
        for start in ["", json, "{}"] {
            for n in 0..=paths.len() {
                let mut one_by_one = start.to_owned();
                for path in &paths[..n] {
                    one_by_one = remove_path(&one_by_one, path, 0).unwrap();
                }
                let at_once = remove_paths(start, &paths[..n], 0).unwrap();
                if n == 0 {
                    assert_eq!(at_once, start);
                } else {
                    assert_eq!(at_once, one_by_one, "{n} removals of {start:?}");
                }
            }
        }
    }

    #[test]
    fn set_path_refuses_what_is_not_an_object() {
        assert!(set_path("[1]", &["a"], "1", 0).is_err());
    }
}
