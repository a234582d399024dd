//! Writing the user manifest: one value set at a path of objects, everything else in the
//! file kept as written and in its order (serde_json's `Value` would sort the keys, and
//! the order of a manifest's entries is the order of its prompts). The text is written by
//! [`atomic`](super::atomic).

use crate::load::json::object_entries;

/// `json` (an object, or empty for none yet) with `value` (JSON text) at `path`; missing
/// objects on the way are created. Objects rebuilt on the way are indented two spaces a
/// level; values not on the path are copied as written.
pub(crate) fn set_path(
    json: &str,
    path: &[&str],
    value: &str,
    depth: usize,
) -> Result<String, String> {
    // The value replaces whatever was at the end of the path, object or not.
    let Some((head, rest)) = path.split_first() else {
        return Ok(value.to_owned());
    };
    let entries = if json.trim().is_empty() {
        Vec::new()
    } else {
        object_entries(json).map_err(|e| e.to_string())?
    };
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut found = false;
    for (key, raw) in entries {
        let text = if key == *head {
            found = true;
            set_path(raw.get(), rest, value, depth + 1)?
        } else {
            raw.get().to_owned()
        };
        fields.push((key, text));
    }
    if !found {
        fields.push(((*head).to_owned(), set_path("", rest, value, depth + 1)?));
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

    #[test]
    fn set_path_refuses_what_is_not_an_object() {
        assert!(set_path("[1]", &["a"], "1", 0).is_err());
    }
}
