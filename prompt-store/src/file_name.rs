//! The names of the domain files a store writes in its user folder: `prompts/<id>.json`,
//! one per prompt, different for different ids and short enough for any file system.
//!
//! - An id that is a plain name (`system_rule`: ASCII letters, digits, `_`, `-`) is its
//!   own file name, as PromptEngine names domain files.
//! - Any other id is percent-encoded: every byte but those is `%XX` (`a.b` →
//!   `prompts/a%2Eb.json`). No plain name holds a `%`, and the encoding can be undone,
//!   so no two ids share a name. (Hex behind a `_` would not do: a plain id can also
//!   start with `_`, so `a.b` and `_612e62` would share `prompts/_612e62.json`. A file is
//!   found through the manifest entry that names it, never by its name, so a folder whose
//!   files are named another way opens too.)
//! - A name longer than [`MAX_NAME`] bytes keeps its first part and adds `~` and a
//!   64-bit FNV-1a hash of the whole id. No plain or encoded name holds a `~`.
//! - Last, a name already named by another prompt of the user layer (a hash collision,
//!   or an id differing only in case on a file system that ignores case, or a hand-made
//!   manifest that named the file for another prompt) is not taken: `.1`, `.2`, … is
//!   added before `.json` (no name above holds a `.`), so an edit never writes into
//!   another prompt's file.

use prompt_runtime::store::json::is_word;
use prompt_runtime::store::parsed::Folder;
use std::collections::HashSet;

/// The longest file name given to a user domain file, `.json` included: 255 bytes is the
/// limit of the common file systems, and an atomic write's temporary file adds up to 38
/// bytes to the name (`.NAME.PID.N.tmp`).
pub(crate) const MAX_NAME: usize = 200;

/// The user domain file of prompt `id`, by name alone (see the module doc).
pub(crate) fn user_domain_file(id: &str) -> String {
    format!("prompts/{}.json", stem(id))
}

/// The user domain file for prompt `id` in `folder`: [`user_domain_file`], or one with
/// `.N` added when another prompt of the user layer names that one already (compared
/// ignoring ASCII case, as some file systems do).
pub(crate) fn fresh_domain_file(folder: &Folder, id: &str) -> String {
    let taken: HashSet<String> = folder
        .prompts
        .iter()
        .filter(|p| p.domain.1 == 1 && p.id != id)
        .map(|p| p.domain.0.to_ascii_lowercase())
        .collect();
    let first = user_domain_file(id);
    if !taken.contains(&first.to_ascii_lowercase()) {
        return first;
    }
    let stem = first.strip_suffix(".json").unwrap_or(&first);
    (1usize..)
        .map(|n| format!("{stem}.{n}.json"))
        .find(|name| !taken.contains(&name.to_ascii_lowercase()))
        .unwrap_or(first)
}

/// The file name of `id` without `prompts/` and `.json`.
fn stem(id: &str) -> String {
    const SUFFIX: usize = ".json".len();
    // Room for `.N` when the name is taken (see `fresh_domain_file`).
    const ROOM: usize = MAX_NAME - SUFFIX - 8;
    let stem = if is_word(id) {
        id.to_owned()
    } else if id.is_empty() {
        // No escape is `%` alone: the empty id has a name of its own.
        "%".to_owned()
    } else {
        let mut encoded = String::with_capacity(id.len() * 3);
        for b in id.bytes() {
            if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
                encoded.push(char::from(b));
            } else {
                encoded.push_str(&format!("%{b:02X}"));
            }
        }
        encoded
    };
    if stem.len() <= ROOM {
        return stem;
    }
    let hash = format!("~{:016x}", fnv1a64(id));
    let mut cut = ROOM - hash.len();
    // Never half an escape: the stem is ASCII, so any byte is a character boundary.
    let bytes = stem.as_bytes();
    if bytes[cut - 1] == b'%' {
        cut -= 1;
    } else if bytes[cut - 2] == b'%' {
        cut -= 2;
    }
    format!("{}{hash}", &stem[..cut])
}

/// FNV-1a, 64 bits: stable across versions and platforms (std's hasher is neither).
fn fnv1a64(text: &str) -> u64 {
    prompt_runtime::__internal::digest_of(text).value()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn plain_ids_keep_promptengines_names() {
        assert_eq!(user_domain_file("system_rule"), "prompts/system_rule.json");
        assert_eq!(user_domain_file("_612e62"), "prompts/_612e62.json");
        assert_eq!(user_domain_file("a-b"), "prompts/a-b.json");
    }

    #[test]
    fn other_ids_are_escaped_apart_from_every_plain_one() {
        assert_eq!(user_domain_file("a.b"), "prompts/a%2Eb.json");
        assert_eq!(user_domain_file("../x"), "prompts/%2E%2E%2Fx.json");
        assert_eq!(user_domain_file("é"), "prompts/%C3%A9.json");
        assert_eq!(user_domain_file(""), "prompts/%.json");
        assert_ne!(user_domain_file("a.b"), user_domain_file("_612e62"));
    }

    /// Different ids, different names: plain, escaped, long and very long ids, and ids
    /// that are each other's escapes.
    #[test]
    fn names_are_injective_and_fit_the_file_name_limit() {
        let mut ids: Vec<String> = [
            "a", "A", "a.b", "_612e62", "a%2Eb", "%", "", "a~b", "a.1", "x/y", "x%2Fy", "~",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        for n in [120, 125, 150, 184, 185, 186, 187, 190, 200, 255, 1000] {
            ids.push("a".repeat(n));
            ids.push(format!("{}b", "a".repeat(n)));
            ids.push(".".repeat(n));
            ids.push(format!("{}.", "a".repeat(n)));
            ids.push("é".repeat(n));
        }
        let mut seen: HashMap<String, &str> = HashMap::new();
        for id in &ids {
            let name = user_domain_file(id);
            let file = name.strip_prefix("prompts/").unwrap();
            assert!(file.len() <= MAX_NAME - 8, "{id:?}: {} bytes", file.len());
            assert!(!file[..file.len() - 5].contains('.'), "{name}");
            assert!(prompt_runtime::store::layout::is_inside(&name), "{name}");
            if let Some(other) = seen.insert(name.clone(), id) {
                panic!("{id:?} and {other:?} share {name}");
            }
        }
    }
}
