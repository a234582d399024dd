//! Writing the user manifest: one value set at a path of objects, everything else in the
//! file kept as written and in its order (serde_json's `Value` would sort the keys, and
//! the order of a manifest's entries is the order of its prompts). Written to a temporary
//! file in the same folder, then renamed over the old one.

use crate::load::json::object_entries;
use std::path::Path;

/// `json` (an object, or empty for none yet) with `value` (JSON text) at `path`; missing
/// objects on the way are created. Objects rebuilt on the way are indented two spaces a
/// level; values not on the path are copied as written.
pub(crate) fn set_path(
    json: &str,
    path: &[&str],
    value: &str,
    depth: usize,
) -> Result<String, String> {
    let entries = if json.trim().is_empty() {
        Vec::new()
    } else {
        object_entries(json).map_err(|e| e.to_string())?
    };
    let Some((head, rest)) = path.split_first() else {
        return Ok(value.to_owned());
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

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so a
/// reader sees the old file or the new one, never half of one.
pub(crate) fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&temp, text)?;
    std::fs::rename(&temp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
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
        let fresh = set_path("", &["prompts", "a"], "1", 0).unwrap();
        assert_eq!(fresh, "{\n  \"prompts\": {\n    \"a\": 1\n  }\n}");
    }

    #[test]
    fn set_path_refuses_what_is_not_an_object() {
        assert!(set_path("[1]", &["a"], "1", 0).is_err());
    }
}
