//! Edits of a store opened with [`Store::open_folder`], written as PromptEngine writes
//! them, into the folder itself: a text into its domain file (the entry of its id), a flag
//! or an order into the manifest that holds the prompt's entry (the system manifest for the
//! folder's own prompts, the user manifest for the user's), a new prompt as a whole entry
//! of the user manifest with every field PromptEngine's validator asks for and a domain
//! file of its own. PromptEngine reads every file written here as it reads its own.
//!
//! Each plan returns the files to write; [`Store::commit`](crate::builder::Store) checks
//! the folder with them before anything is written, as for every edit.

use crate::builder::Store;
use crate::edit::{Change, check_text, json_string, with_text, write_error};
use crate::file_name::user_domain_file;
use crate::persist::{remove_path, set_path, set_paths};
use prompt_runtime::SourceFile;
use prompt_runtime::store::StoreError;
use prompt_runtime::store::layout::{Layer, MANIFEST, USER_MANIFEST};
use prompt_runtime::store::reader::State;
use std::path::Path;

/// The ids the user manifest names, read once per edit.
fn user_ids(state: &State) -> std::collections::HashSet<String> {
    state
        .user
        .get(USER_MANIFEST)
        .and_then(|m| prompt_runtime::__internal::object_entries(m.text()).ok())
        .and_then(|top| {
            top.into_iter()
                .find(|(k, _)| k == "prompts")
                .and_then(|(_, raw)| prompt_runtime::__internal::object_entries(raw.get()).ok())
        })
        .map(|prompts| prompts.into_iter().map(|(k, _)| k).collect())
        .unwrap_or_default()
}

/// The manifest that holds prompt `id`'s entry: the user manifest when it names it.
fn owner(state: &State, id: &str) -> &'static str {
    owner_in(&user_ids(state), id)
}

fn owner_in(user: &std::collections::HashSet<String>, id: &str) -> &'static str {
    if user.contains(id) {
        USER_MANIFEST
    } else {
        MANIFEST
    }
}

fn text_of<'s>(state: &'s State, rel: &str) -> &'s str {
    state
        .user
        .get(rel)
        .map(SourceFile::text)
        .unwrap_or_default()
}

/// A domain file name for new prompt `id` beside the folder's others (PromptEngine's
/// `ID.json`, named as [`user_domain_file`] names them): one no prompt reads and no file
/// holds, compared ignoring ASCII case.
fn fresh_file(state: &State, id: &str) -> String {
    let named = user_domain_file(id);
    let first = named.strip_prefix("prompts/").unwrap_or(&named).to_owned();
    let taken = |name: &str| {
        state.user.get(name).is_some()
            || state
                .folder
                .prompts
                .iter()
                .any(|p| p.domain.0.eq_ignore_ascii_case(name))
    };
    if !taken(&first) {
        return first;
    }
    let stem = first.strip_suffix(".json").unwrap_or(&first).to_owned();
    (1usize..)
        .map(|n| format!("{stem}.{n}.json"))
        .find(|name| !taken(name))
        .unwrap_or(first)
}

/// `update_prompt`: the text goes into the prompt's domain file, in the form it has.
pub(super) fn update(
    state: &State,
    id: &str,
    variant: &str,
    text: &str,
) -> Result<Change, StoreError> {
    let prompt = Store::find(&state.folder, id)?;
    if prompt.multi_turn {
        return Err(StoreError::NotText { id: id.to_owned() });
    }
    if !prompt.broken && !prompt.variant_names().any(|v| v == variant) {
        return Err(Store::unknown_variant(prompt, variant));
    }
    check_text(&state.folder, id, variant, text)?;
    let rel = prompt.domain.0.clone();
    let domain = with_text(text_of(state, &rel), id, variant, text)?;
    Ok(Change {
        writes: vec![(rel, Some(domain))],
        cleanup: Vec::new(),
    })
}

/// `set_enabled`: PromptEngine has one `enabled` per prompt, so the flag is the entry's,
/// for every variant.
pub(super) fn set_enabled(
    state: &State,
    id: &str,
    variant: &str,
    enabled: bool,
) -> Result<Change, StoreError> {
    let prompt = Store::find(&state.folder, id)?;
    if !prompt.variant_names().any(|v| v == variant) {
        return Err(Store::unknown_variant(prompt, variant));
    }
    let rel = owner(state, id);
    let on = if enabled { "true" } else { "false" };
    let new = set_path(text_of(state, rel), &["prompts", id, "enabled"], on, 0)
        .map_err(write_error(&state.user, rel))?;
    Ok(Change {
        writes: vec![(rel.to_owned(), Some(format!("{new}\n")))],
        cleanup: Vec::new(),
    })
}

/// `reorder_prompts`: each prompt's `order` into the manifest that holds its entry.
pub(super) fn reorder(state: &State, orders: &[(String, String)]) -> Result<Change, StoreError> {
    let mut writes = Vec::new();
    // One read of the user manifest for every prompt placed, not one per prompt.
    let user = user_ids(state);
    for rel in [MANIFEST, USER_MANIFEST] {
        let paths: Vec<[&str; 3]> = orders
            .iter()
            .filter(|(id, _)| owner_in(&user, id) == rel)
            .map(|(id, _)| ["prompts", id.as_str(), "order"])
            .collect();
        if paths.is_empty() {
            continue;
        }
        let values = orders
            .iter()
            .filter(|(id, _)| owner_in(&user, id) == rel)
            .map(|(_, order)| order.as_str());
        let edits: Vec<(&[&str], &str)> = paths.iter().map(|p| &p[..]).zip(values).collect();
        let new =
            set_paths(text_of(state, rel), &edits, 0).map_err(write_error(&state.user, rel))?;
        writes.push((rel.to_owned(), Some(format!("{new}\n"))));
    }
    Ok(Change {
        writes,
        cleanup: Vec::new(),
    })
}

/// `create_prompt`: a domain file of its own in PromptEngine's form, then a whole entry in
/// the user manifest (the commit point), with the fields PromptEngine's validator requires.
pub(super) fn create(state: &State, id: &str, text: &str) -> Result<Change, StoreError> {
    check_text(&state.folder, id, "default", text)?;
    let rel = fresh_file(state, id);
    let domain = format!(
        "{{\n  {}: {{\n    \"variants\": {{\n      \"default\": {{\n        \"content\": {}\n      }}\n    }}\n  }}\n}}\n",
        json_string(id)?,
        json_string(text)?
    );
    let order = state
        .folder
        .prompts
        .iter()
        .map(|p| p.order)
        .filter(|&o| o < 9999)
        .max()
        .map_or(9999, |o| o + 10);
    let entry = format!(
        "{{\"name\": {}, \"description\": \"\", \"category\": \"custom\", \"type\": \"text\", \"target\": \"system_prompt\", \"position\": \"system_prompt\", \"order\": {order}, \"enabled\": true, \"domain_file\": {}}}",
        json_string(id)?,
        json_string(&rel)?
    );
    let old = match text_of(state, USER_MANIFEST) {
        t if t.trim().is_empty() => "{\"version\": \"2.0\", \"prompts\": {}}",
        t => t,
    };
    let manifest = set_path(old, &["prompts", id], &entry, 0)
        .map_err(write_error(&state.user, USER_MANIFEST))?;
    Ok(Change {
        writes: vec![
            (rel, Some(domain)),
            (USER_MANIFEST.to_owned(), Some(format!("{manifest}\n"))),
        ],
        cleanup: Vec::new(),
    })
}

/// `delete_prompt`: as PromptEngine deletes, only a prompt of the user manifest. Its entry
/// leaves the user manifest (the commit point), then its part of its domain file: the
/// file goes when it held nothing else, else it is written without the prompt's entry.
pub(super) fn delete(state: &State, id: &str) -> Result<Change, StoreError> {
    let prompt = Store::find(&state.folder, id)?;
    if owner(state, id) != USER_MANIFEST {
        return Err(StoreError::NotUserPrompt { id: id.to_owned() });
    }
    let manifest = remove_path(text_of(state, USER_MANIFEST), &["prompts", id], 0)
        .map_err(write_error(&state.user, USER_MANIFEST))?;
    let mut change = Change {
        writes: vec![(USER_MANIFEST.to_owned(), Some(format!("{manifest}\n")))],
        cleanup: Vec::new(),
    };
    let rel = prompt.domain.0.clone();
    let shared = state
        .folder
        .prompts
        .iter()
        .any(|p| p.id != id && p.domain.0 == rel);
    if shared {
        // Another prompt reads the file under its own id: only this prompt's entry goes.
        let rest =
            remove_path(text_of(state, &rel), &[id], 0).map_err(write_error(&state.user, &rel))?;
        change.writes.push((rel, Some(format!("{rest}\n"))));
    } else {
        change.cleanup.push(rel);
    }
    Ok(change)
}

/// The folder PromptEngine resets from, inside the folder opened in place.
const DEFAULTS: &str = "_defaults";

/// File `rel` of the folder's `_defaults/`, read through the folder's one reader; `None`
/// when it does not exist or cannot be read as text.
pub(super) fn defaults_file(dir: &Path, rel: &str) -> Option<String> {
    let root = prompt_runtime::__internal::Root::new(dir, dir.to_string_lossy());
    let bytes = root.read(format!("{DEFAULTS}/{rel}")).ok()??;
    String::from_utf8(bytes).ok()
}

/// The factory defaults of a folder opened in place: its `_defaults/`, or the defaults
/// given to the builder when the folder was given as a user folder.
struct Factory<'s> {
    dir: &'s Path,
    given: Option<&'s Layer>,
}

impl Factory<'_> {
    fn of(store: &Store) -> Option<Factory<'_>> {
        Some(Factory {
            dir: store.in_place.as_deref()?,
            given: store.reset_from.as_ref(),
        })
    }

    /// Where a file of the factory defaults is said to be.
    fn shown(&self, rel: &str) -> String {
        match self.given {
            Some(layer) => layer.shown(rel),
            None => self
                .dir
                .join(DEFAULTS)
                .join(rel)
                .to_string_lossy()
                .into_owned(),
        }
    }

    /// File `rel` of the factory defaults, an error naming it when it is missing.
    fn read(&self, id: &str, rel: &str) -> Result<String, StoreError> {
        let fail = |message: String| StoreError::Write {
            path: self.shown(rel),
            message,
        };
        if let Some(layer) = self.given {
            return match layer.get(rel) {
                Some(file) => Ok(file.text().to_owned()),
                None => Err(fail(format!(
                    "the defaults have no such file, so prompt `{id}` has no default"
                ))),
            };
        }
        let root = prompt_runtime::__internal::Root::new(self.dir, self.dir.to_string_lossy());
        match root.read(format!("{DEFAULTS}/{rel}")) {
            Ok(Some(bytes)) => String::from_utf8(bytes).map_err(|e| fail(e.to_string())),
            Ok(None) => Err(fail(format!(
                "PromptEngine's reset source does not exist, so prompt `{id}` has no default"
            ))),
            Err(e) => Err(fail(e.to_string())),
        }
    }

    /// Every JSON file PromptEngine's factory reset copies: the domain files at the top of
    /// the factory defaults and the files of their `_meta/`, by path relative to the
    /// folder, with their text.
    fn files(&self) -> Result<Vec<(String, String)>, StoreError> {
        let copied = |rel: &str| {
            rel.ends_with(".json")
                && match rel.split_once('/') {
                    None => true,
                    Some((first, rest)) => first == "_meta" && !rest.contains('/'),
                }
        };
        if let Some(layer) = self.given {
            let mut files: Vec<(String, String)> = layer
                .files()
                .iter()
                .filter(|(rel, _)| copied(rel))
                .filter_map(|(rel, file)| Some((rel.clone(), file.as_ref()?.text().to_owned())))
                .collect();
            files.sort();
            files.dedup_by(|a, b| a.0 == b.0);
            return Ok(files);
        }
        let root = prompt_runtime::__internal::Root::new(self.dir, self.dir.to_string_lossy());
        let mut files = Vec::new();
        for sub in ["", "_meta"] {
            let at = self.dir.join(DEFAULTS).join(sub);
            let fail = |message: String| StoreError::Write {
                path: at.to_string_lossy().into_owned(),
                message,
            };
            let entries = match std::fs::read_dir(&at) {
                Ok(entries) => entries,
                Err(e) if sub.is_empty() => {
                    return Err(fail(format!(
                        "PromptEngine's factory reset copies the folder's `_defaults/`, which cannot be read: {e}"
                    )));
                }
                Err(_) => continue,
            };
            let mut names: Vec<String> = Vec::new();
            for entry in entries.filter_map(Result::ok) {
                let Ok(name) = entry.file_name().into_string() else {
                    continue;
                };
                let rel = if sub.is_empty() {
                    name
                } else {
                    format!("{sub}/{name}")
                };
                if !copied(&rel) {
                    continue;
                }
                // A file the reset would copy that is not one (a FIFO, a socket, a
                // folder) is an error before anything is written, never skipped: skipping
                // it would leave that prompt customized after a reset that said it was done.
                if !entry
                    .file_type()
                    .is_ok_and(|t| t.is_file() || t.is_symlink())
                {
                    return Err(StoreError::Write {
                        path: at.join(entry.file_name()).to_string_lossy().into_owned(),
                        message: format!(
                            "`{DEFAULTS}/{rel}` is not a regular file, so the factory reset cannot copy it; nothing was changed"
                        ),
                    });
                }
                names.push(rel);
            }
            names.sort();
            for rel in names {
                // Through the one reader: a file linked out of the folder is refused.
                let bytes = root
                    .read(format!("{DEFAULTS}/{rel}"))
                    .map_err(|e| fail(e.to_string()))?;
                let Some(bytes) = bytes else { continue };
                let text = String::from_utf8(bytes).map_err(|e| fail(format!("`{rel}`: {e}")))?;
                files.push((rel, text));
            }
        }
        Ok(files)
    }
}

/// `reset_prompt_to_default`: as PromptEngine resets a prompt of the system manifest, its
/// entry in its domain file and its manifest entry become the factory defaults' again
/// (`_defaults/`, each read through the folder's reader). A prompt of the user manifest
/// has no default and is refused, as by every store (PromptEngine deletes it;
/// `delete_prompt` does that).
pub(super) fn reset(store: &Store, state: &State, id: &str) -> Result<Change, StoreError> {
    let prompt = Store::find(&state.folder, id)?;
    if owner(state, id) == USER_MANIFEST {
        return Err(StoreError::NoDefault { id: id.to_owned() });
    }
    let Some(factory) = Factory::of(store) else {
        return Err(StoreError::NoDefault { id: id.to_owned() });
    };
    let rel = prompt.domain.0.clone();
    let default_domain = factory.read(id, &rel)?;
    // A domain file of PromptEngine's code holds its prompts by id; the seed's form is the
    // prompt itself.
    let domain = match entry_of(&default_domain, &[id]) {
        Some(entry) => set_path(text_of(state, &rel), &[id], &entry, 0)
            .map_err(write_error(&state.user, &rel))?,
        None => default_domain.trim_end().to_owned(),
    };
    let default_manifest = factory.read(id, MANIFEST)?;
    let Some(entry) = entry_of(&default_manifest, &["prompts", id]) else {
        return Err(StoreError::NoDefault { id: id.to_owned() });
    };
    let manifest = set_path(text_of(state, MANIFEST), &["prompts", id], &entry, 0)
        .map_err(write_error(&state.user, MANIFEST))?;
    Ok(Change {
        writes: vec![
            (rel, Some(format!("{domain}\n"))),
            (MANIFEST.to_owned(), Some(format!("{manifest}\n"))),
        ],
        cleanup: Vec::new(),
    })
}

/// The user manifest PromptEngine leaves after a factory reset (it removes the user
/// manifest and writes this one when it reads the folder again).
const EMPTY_USER_MANIFEST: &str = "{\n  \"version\": \"1\",\n  \"prompts\": {}\n}\n";

/// `factory_reset`: PromptEngine's full factory reset. Every domain file of the factory
/// defaults and every file of their `_meta/` is copied over the folder's, and the user
/// manifest is emptied (the user's prompts go; their domain files and the user's
/// placeholder registry stay, unread by any prompt, as PromptEngine leaves them).
pub(super) fn factory_reset(store: &Store) -> Result<Change, StoreError> {
    let Some(factory) = Factory::of(store) else {
        return Ok(Change {
            writes: Vec::new(),
            cleanup: Vec::new(),
        });
    };
    let mut writes: Vec<(String, Option<String>)> = Vec::new();
    let mut manifest = None;
    for (rel, text) in factory.files()? {
        match rel.as_str() {
            USER_MANIFEST => {}
            MANIFEST => manifest = Some(text),
            _ => writes.push((rel, Some(text))),
        }
    }
    let Some(manifest) = manifest else {
        return Err(StoreError::Write {
            path: factory.shown(MANIFEST),
            message: "PromptEngine's factory reset needs the factory defaults' manifest, which does not exist".to_owned(),
        });
    };
    // The manifest, then the user manifest last: the commit point.
    writes.push((MANIFEST.to_owned(), Some(manifest)));
    writes.push((
        USER_MANIFEST.to_owned(),
        Some(EMPTY_USER_MANIFEST.to_owned()),
    ));
    Ok(Change {
        writes,
        cleanup: Vec::new(),
    })
}

/// The JSON text at `path` (object keys) in `text`, as written there.
fn entry_of(text: &str, path: &[&str]) -> Option<String> {
    let mut current = text.to_owned();
    for key in path {
        let next = prompt_runtime::__internal::object_entries(&current)
            .ok()?
            .into_iter()
            .find(|(k, _)| k == key)?
            .1
            .get()
            .to_owned();
        current = next;
    }
    Some(current)
}
