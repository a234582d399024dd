//! An archive's user layer combined with the store's by an [`ImportMode`]: the writes of
//! one [`Change`] for the store's edit path.
//!
//! The order is the edit path's: first the archive's domain files, each under a name no
//! file of the user layer has now (`prompts/<id>.json`, or `prompts/<id>.<n>.json` beside
//! one in use), so nothing the store reads changes before the commit point; then the user
//! placeholder registry with what the archive adds (placeholders no text of the store
//! uses now, so its renders stay as they are); last the user manifest that names the new
//! files, the commit point. The files it no longer names are removed after it.
//!
//! What the registry loses — placeholders the archive drops ([`ImportMode::Replace`]), or
//! changes while a text of the store uses them — would break or change the texts before
//! the commit point, so it is a second edit ([`Rest`]) once the manifest is written: a
//! crash between the two leaves the imported prompts with placeholders nothing uses any
//! more (the renders are the imported ones) or, for a placeholder whose definition
//! changes while texts on both sides use it, its old definition.

use crate::archive::{Archived, ArchivedPrompt, ImportMode, ImportSummary};
use crate::edit::{Change, user_domain_file, write_error};
use crate::persist::{remove_path, remove_paths, set_path, set_paths};
use prompt_runtime::SourceFile;
use prompt_runtime::store::StoreError;
use prompt_runtime::store::layout::{USER_MANIFEST, USER_REGISTRY};
use prompt_runtime::store::reader::State;
use std::collections::{HashMap, HashSet};

/// What the user registry still has to lose or change once the manifest is written.
#[derive(Debug, Default)]
pub(super) struct Rest {
    /// Placeholders to remove.
    removed: Vec<String>,
    /// Placeholders to set to the archive's entry (JSON text).
    changed: Vec<(String, String)>,
    /// The user registry goes as a whole (`Replace` with an archive without one).
    drop_file: bool,
}

impl Rest {
    fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.changed.is_empty() && !self.drop_file
    }
}

/// The change that imports `archive` into the user layer of `state` by `mode`, what it
/// imports, and the registry's rest (see the module doc), if any.
pub(super) fn plan(
    state: &State,
    archive: &Archived,
    mode: ImportMode,
) -> Result<(Change, ImportSummary, Option<Rest>), StoreError> {
    let fail_manifest = write_error(&state.user, USER_MANIFEST);
    let fail_registry = write_error(&state.user, USER_REGISTRY);
    let text_of = |rel: &str| state.user.get(rel).map(SourceFile::text);
    let current_manifest = text_of(USER_MANIFEST);
    let current_registry = text_of(USER_REGISTRY);
    let current_ids = crate::archive::entries_of(current_manifest, "prompts");
    let current_keys = crate::archive::entries_of(current_registry, "placeholders");
    // Everything looked up by name: an import of N placeholders or prompts costs time in
    // proportion to N (one at a time, each a scan or a rewrite of the file: 10,000
    // placeholders took 38 s, 150,000 did not finish in 15 minutes).
    let current_id_set: HashSet<&str> = current_ids.iter().map(|(id, _)| id.as_str()).collect();
    let current_key_map: HashMap<&str, &str> = current_keys
        .iter()
        .map(|(k, e)| (k.as_str(), e.as_str()))
        .collect();
    let customized = |id: &str| current_id_set.contains(id);

    let mut summary = ImportSummary {
        mode,
        imported: Vec::new(),
        skipped: Vec::new(),
        removed: Vec::new(),
        placeholders_imported: Vec::new(),
        placeholders_skipped: Vec::new(),
        defaults_differ: false,
        exported_by: None,
    };
    let mut chosen: Vec<&ArchivedPrompt> = Vec::new();
    for prompt in &archive.prompts {
        if mode == ImportMode::Merge && customized(&prompt.id) {
            summary.skipped.push(prompt.id.clone());
        } else {
            summary.imported.push(prompt.id.clone());
            chosen.push(prompt);
        }
    }
    if mode == ImportMode::Replace {
        let archived: HashSet<&str> = archive.prompts.iter().map(|p| p.id.as_str()).collect();
        summary.removed = current_ids
            .iter()
            .map(|(id, _)| id.clone())
            .filter(|id| !archived.contains(id.as_str()))
            .collect();
    }

    // The domain files: a new file for each, unless the same text is in place already.
    let mut taken: HashSet<String> = state
        .user
        .files()
        .iter()
        .filter(|(_, source)| source.is_some())
        .map(|(rel, _)| rel.clone())
        .collect();
    let mut writes: Vec<(String, Option<String>)> = Vec::new();
    let mut named: Vec<(&str, String)> = Vec::new();
    for prompt in &chosen {
        let Some(text) = &prompt.domain else {
            continue;
        };
        let rel = match user_domain(state, &prompt.id) {
            Some(rel) if text_of(&rel) == Some(text.as_str()) => rel,
            _ => {
                let rel = fresh_name(&prompt.id, &taken);
                taken.insert(rel.clone());
                writes.push((rel.clone(), Some(text.clone())));
                rel
            }
        };
        named.push((&prompt.id, rel));
    }

    let manifest = match mode {
        ImportMode::Replace => match &archive.manifest {
            None => None,
            Some(text) => {
                // Each named entry rewritten on its own (as `with_domain` writes an entry
                // at its depth), then all set in one pass.
                let entry_of: HashMap<&str, &str> = archive
                    .prompts
                    .iter()
                    .map(|p| (p.id.as_str(), p.entry.as_str()))
                    .collect();
                let mut entries: Vec<([&str; 2], String)> = Vec::with_capacity(named.len());
                for (id, rel) in &named {
                    let entry = entry_of.get(id).copied().unwrap_or("{}");
                    let entry = with_domain(entry, Some(rel)).map_err(&fail_manifest)?;
                    entries.push((["prompts", id], entry));
                }
                let edits: Vec<(&[&str], &str)> = entries
                    .iter()
                    .map(|(path, entry)| (&path[..], entry.as_str()))
                    .collect();
                let text = set_paths(text.trim_end(), &edits, 0).map_err(&fail_manifest)?;
                Some(format!("{text}\n"))
            }
        },
        ImportMode::Merge | ImportMode::Overwrite => {
            let rel_of: HashMap<&str, &str> =
                named.iter().map(|(id, rel)| (*id, rel.as_str())).collect();
            let mut entries: Vec<([&str; 2], String)> = Vec::with_capacity(chosen.len());
            for prompt in &chosen {
                let rel = rel_of.get(prompt.id.as_str()).copied();
                let entry = with_domain(&prompt.entry, rel).map_err(&fail_manifest)?;
                entries.push((["prompts", prompt.id.as_str()], entry));
            }
            // In one pass: set one at a time, each entry rewrote the whole manifest.
            let edits: Vec<(&[&str], &str)> = entries
                .iter()
                .map(|(path, entry)| (&path[..], entry.as_str()))
                .collect();
            let current = current_manifest.unwrap_or_default();
            let text = set_paths(current.trim_end(), &edits, 0).map_err(&fail_manifest)?;
            (!text.is_empty()).then(|| format!("{text}\n"))
        }
    };

    let registry = match mode {
        ImportMode::Replace => {
            summary.placeholders_imported = archive
                .placeholders
                .iter()
                .map(|(n, _)| n.clone())
                .collect();
            archive.registry.clone()
        }
        ImportMode::Merge | ImportMode::Overwrite => {
            let mut edits: Vec<([&str; 2], &str)> = Vec::new();
            for (name, entry) in &archive.placeholders {
                if mode == ImportMode::Merge && current_key_map.contains_key(name.as_str()) {
                    summary.placeholders_skipped.push(name.clone());
                    continue;
                }
                summary.placeholders_imported.push(name.clone());
                edits.push((["placeholders", name], entry));
            }
            let edits: Vec<(&[&str], &str)> = edits
                .iter()
                .map(|(path, entry)| (&path[..], *entry))
                .collect();
            let current = current_registry.unwrap_or_default().trim_end();
            let text = set_paths(current, &edits, 0).map_err(&fail_registry)?;
            (!text.is_empty()).then(|| format!("{text}\n"))
        }
    };

    // Before the manifest, what the archive adds and changes that no text uses now (the
    // manifest's texts may use it); the rest after it.
    let final_keys = crate::archive::entries_of(registry.as_deref(), "placeholders");
    // The keys some text of the store uses now, found in one pass over the prompts.
    let used: HashSet<usize> = state
        .folder
        .prompts
        .iter()
        .flat_map(|p| p.used_keys())
        .collect();
    let used_now = |name: &str| state.folder.key(name).is_some_and(|i| used.contains(&i));
    let mut rest = Rest {
        drop_file: registry.is_none() && current_registry.is_some(),
        ..Rest::default()
    };
    let mut edits: Vec<([&str; 2], &str)> = Vec::new();
    for (name, entry) in &final_keys {
        let now = current_key_map.get(name.as_str());
        if now.is_some_and(|now| same_json(now, entry)) {
            continue;
        }
        if now.is_some() && used_now(name) {
            rest.changed.push((name.clone(), entry.clone()));
        } else {
            edits.push((["placeholders", name], entry));
        }
    }
    let edits: Vec<(&[&str], &str)> = edits
        .iter()
        .map(|(path, entry)| (&path[..], *entry))
        .collect();
    let current = current_registry.unwrap_or_default().trim_end();
    let before = set_paths(current, &edits, 0).map_err(&fail_registry)?;
    if !rest.drop_file {
        let kept: HashSet<&str> = final_keys.iter().map(|(f, _)| f.as_str()).collect();
        rest.removed = current_keys
            .iter()
            .filter(|(k, _)| !kept.contains(k.as_str()))
            .map(|(k, _)| k.clone())
            .collect();
    }
    let before = (!before.is_empty()).then(|| format!("{before}\n"));
    if changed(current_registry, before.as_deref()) {
        writes.push((USER_REGISTRY.to_owned(), before));
    }
    if changed(current_manifest, manifest.as_deref()) {
        writes.push((USER_MANIFEST.to_owned(), manifest));
    }

    // The user domain files in use now that nothing names once the manifest is written.
    let chosen_ids: HashSet<&str> = chosen.iter().map(|p| p.id.as_str()).collect();
    let replaced = |id: &str| match mode {
        ImportMode::Replace => true,
        ImportMode::Merge => false,
        ImportMode::Overwrite => chosen_ids.contains(id),
    };
    let mut kept: HashSet<&str> = named.iter().map(|(_, rel)| rel.as_str()).collect();
    let mut cleanup: Vec<String> = Vec::new();
    let mut cleaned: HashSet<&str> = HashSet::new();
    let ours = state.folder.prompts.iter().filter(|p| p.domain.1 == 1);
    for prompt in ours.clone().filter(|p| !replaced(&p.id)) {
        kept.insert(&prompt.domain.0);
    }
    for prompt in ours.filter(|p| replaced(&p.id)) {
        let rel = prompt.domain.0.as_str();
        if !kept.contains(rel) && cleaned.insert(rel) {
            cleanup.push(rel.to_owned());
        }
    }
    let rest = (!rest.is_empty()).then_some(rest);
    Ok((Change { writes, cleanup }, summary, rest))
}

/// The second edit of an import: the user registry of `state` without the placeholders
/// the archive dropped, and with the ones it changes.
pub(super) fn rest_change(state: &State, rest: &Rest) -> Result<Change, StoreError> {
    let fail = write_error(&state.user, USER_REGISTRY);
    let Some(now) = state.user.get(USER_REGISTRY).map(SourceFile::text) else {
        return Ok(Change::default());
    };
    let new = if rest.drop_file {
        None
    } else {
        let removed: Vec<[&str; 2]> = rest.removed.iter().map(|k| ["placeholders", k]).collect();
        let removed: Vec<&[&str]> = removed.iter().map(|path| &path[..]).collect();
        let text = remove_paths(now.trim_end(), &removed, 0).map_err(&fail)?;
        let changed: Vec<([&str; 2], &str)> = rest
            .changed
            .iter()
            .map(|(k, entry)| (["placeholders", k.as_str()], entry.as_str()))
            .collect();
        let changed: Vec<(&[&str], &str)> = changed
            .iter()
            .map(|(path, entry)| (&path[..], *entry))
            .collect();
        let text = set_paths(&text, &changed, 0).map_err(&fail)?;
        Some(format!("{text}\n"))
    };
    let mut change = Change::default();
    if changed(Some(now), new.as_deref()) {
        change.writes.push((USER_REGISTRY.to_owned(), new));
    }
    Ok(change)
}

/// True when two JSON texts hold the same value (object keys in any order).
fn same_json(a: &str, b: &str) -> bool {
    match (
        serde_json::from_str::<serde_json::Value>(a),
        serde_json::from_str::<serde_json::Value>(b),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The user domain file prompt `id` reads now, if it has one.
fn user_domain(state: &State, id: &str) -> Option<String> {
    let prompt = &state.folder.prompts[state.folder.prompt(id)?];
    (prompt.domain.1 == 1).then(|| prompt.domain.0.clone())
}

/// `prompts/<id>.json`, or `prompts/<id>.<n>.json` with the first `n` not `taken`. (No
/// name `user_domain_file` gives holds a `.`, and no two ids share one.)
fn fresh_name(id: &str, taken: &HashSet<String>) -> String {
    let first = user_domain_file(id);
    if !taken.contains(&first) {
        return first;
    }
    let stem = first.strip_suffix(".json").unwrap_or(&first).to_owned();
    let mut n = 1usize;
    loop {
        let name = format!("{stem}.{n}.json");
        if !taken.contains(&name) {
            return name;
        }
        n += 1;
    }
}

/// A user manifest entry naming `rel` as its domain file (`None`: as written).
fn with_domain(entry: &str, rel: Option<&str>) -> Result<String, String> {
    let Some(rel) = rel else {
        return Ok(entry.to_owned());
    };
    let value = serde_json::to_string(rel).map_err(|e| e.to_string())?;
    let entry = remove_path(entry, &["domain_file"], 2)?;
    set_path(&entry, &["domain"], &value, 2)
}

/// True when a file's new text (`None`: no file) differs from what it holds now.
fn changed(now: Option<&str>, new: Option<&str>) -> bool {
    now.map(str::trim_end) != new.map(str::trim_end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_step_past_the_ones_in_use() {
        let taken = HashSet::from(["prompts/a.json".to_owned(), "prompts/a.1.json".to_owned()]);
        assert_eq!(fresh_name("b", &taken), "prompts/b.json");
        assert_eq!(fresh_name("a", &taken), "prompts/a.2.json");
        assert_eq!(
            fresh_name("../x", &HashSet::new()),
            "prompts/%2E%2E%2Fx.json"
        );
    }

    #[test]
    fn an_entry_names_its_new_domain_file_only() {
        let entry = r#"{"domain_file": "../../evil.json", "order": 3, "domain": "x"}"#;
        let out = with_domain(entry, Some("prompts/a.json")).unwrap();
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"domain": "prompts/a.json", "order": 3})
        );
        assert_eq!(
            with_domain(r#"{"order": 1}"#, None).unwrap(),
            r#"{"order": 1}"#
        );
    }
}
