//! Archives of a folder opened in place ([`Store::open_folder`]), in PromptEngine's own
//! form, so that PromptEngine imports what promptic exports and the other way round.
//!
//! An archive holds `_meta/prompt_manifest.json`, `_meta/user_manifest.json` and
//! `_meta/placeholder_registry.json` (each when the folder has it), every domain file of
//! the folder as `prompts/<name>.json`, and `metadata.json` (the export time, the
//! manifest's version, the counts). promptic also puts in
//! `_meta/user_placeholder_registry.json` when the folder has one, so that texts using the
//! user's placeholders keep them; PromptEngine skips that entry.
//!
//! An import writes those files into the folder by the [`ImportMode`], as PromptEngine's
//! modes do: `Replace` writes every file the archive has (and removes the user manifest
//! when the archive has none), `Merge` only the files the folder lacks, `Overwrite` every
//! file, keeping the folder's others. Unlike PromptEngine, which writes the entries that
//! read and reports the others, nothing is written unless the whole archive reads (a
//! plain zip within [`MAX_ARCHIVE_BYTES`](crate::archive::MAX_ARCHIVE_BYTES), every entry JSON) and
//! the folder it makes passes the store's checks; a prompt that would be refused refuses
//! the import, as for every edit.

use crate::archive::{ExportSummary, ImportMode, ImportSummary, METADATA, read_capped, zipped};
use crate::builder::Store;
use crate::edit::Change;
use crate::{atomic, folder_lock};
use prompt_runtime::SourceFile;
use prompt_runtime::store::StoreError;
use prompt_runtime::store::layout::{MANIFEST, REGISTRY, USER_MANIFEST, USER_REGISTRY};
use std::path::Path;

/// The `_meta/` files an archive carries, by their name in the archive and in the folder.
const META: [&str; 4] = [MANIFEST, USER_MANIFEST, REGISTRY, USER_REGISTRY];
/// The folder of the domain files in an archive.
const PROMPTS: &str = "prompts/";

impl Store {
    /// `export_prompts` of a folder opened in place.
    pub(super) fn export_in_place(
        &self,
        dir: &Path,
        path: &Path,
    ) -> Result<ExportSummary, StoreError> {
        let shown = path.to_string_lossy().into_owned();
        let refuse = |message: String| StoreError::Archive {
            path: shown.clone(),
            message,
        };
        let state = {
            let _writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
            let _folder = folder_lock::shared(dir);
            self.reread(dir)?
        };
        let mut meta = Vec::new();
        let mut domains = Vec::new();
        for (rel, source) in state.user.files() {
            let Some(source) = source else { continue };
            if META.contains(&rel.as_str()) {
                meta.push((rel.clone(), source.text().to_owned()));
            } else if !rel.contains('/') && rel.ends_with(".json") {
                domains.push((format!("{PROMPTS}{rel}"), source.text().to_owned()));
            } else {
                return Err(refuse(format!(
                    "cannot export `{}`: a PromptEngine archive holds only the domain files at the top of the folder (PromptEngine's import would write it elsewhere)",
                    state.user.shown(rel)
                )));
            }
        }
        meta.sort_by_key(|(rel, _)| META.iter().position(|m| m == rel));
        domains.sort();
        domains.dedup_by(|a, b| a.0 == b.0);
        let version = state
            .user
            .get(MANIFEST)
            .and_then(|m| prompt_runtime::__internal::object_entries(m.text()).ok())
            .and_then(|top| top.into_iter().find(|(k, _)| k == "version"))
            .and_then(|(_, v)| serde_json::from_str::<serde_json::Value>(v.get()).ok())
            .unwrap_or_else(|| "unknown".into());
        let placeholders = names_of(state.user.get(USER_REGISTRY), "placeholders");
        let metadata = serde_json::json!({
            "export_date": crate::migrate::iso_time(std::time::SystemTime::now()),
            "version": version,
            "prompt_count": state.folder.prompts.len(),
            "domain_files": domains.iter().map(|(n, _)| &n[PROMPTS.len()..]).collect::<Vec<_>>(),
            "placeholder_count": state.folder.keys.len(),
            "exported_by": format!("promptic {}", env!("CARGO_PKG_VERSION")),
        });
        let mut files = vec![(
            METADATA.to_owned(),
            format!(
                "{}\n",
                serde_json::to_string_pretty(&metadata).unwrap_or_default()
            ),
        )];
        files.extend(meta);
        files.extend(domains);
        let mut total = 0u64;
        for (name, text) in &files {
            total += text.len() as u64;
            if text.len() as u64 > crate::archive::MAX_ENTRY_BYTES
                || total > crate::archive::MAX_ARCHIVE_BYTES
            {
                return Err(refuse(format!(
                    "cannot export: `{name}` makes the folder larger than an import reads ({} MiB a file, {} MiB in all)",
                    crate::archive::MAX_ENTRY_BYTES >> 20,
                    crate::archive::MAX_ARCHIVE_BYTES >> 20
                )));
            }
        }
        let bytes = zipped::pack(&files).map_err(|e| refuse(format!("cannot write it: {e}")))?;
        atomic::write(path, &bytes, &self.faults).map_err(|e| StoreError::Write {
            path: shown.clone(),
            message: e.error.to_string(),
        })?;
        Ok(ExportSummary {
            path: path.to_owned(),
            files: files.into_iter().map(|(name, _)| name).collect(),
            prompt_ids: state.folder.prompts.iter().map(|p| p.id.clone()).collect(),
            placeholders,
        })
    }

    /// `import_prompts_with` into a folder opened in place.
    pub(super) fn import_in_place(
        &self,
        dir: &Path,
        path: &Path,
        mode: ImportMode,
    ) -> Result<ImportSummary, StoreError> {
        let shown = path.to_string_lossy().replace('\\', "/");
        let refuse = |message: String| StoreError::Archive {
            path: shown.clone(),
            message: format!("{message}; nothing was imported"),
        };
        let bytes = read_capped(path).map_err(&refuse)?;
        let unpacked = zipped::unpack(&bytes).map_err(&refuse)?;
        // The archive's files by where they go in the folder; later entries of one name
        // win, as PromptEngine writes them one after the other.
        let mut incoming: Vec<(String, String)> = Vec::new();
        for (name, data) in unpacked.files {
            let rel = if META.contains(&name.as_str()) {
                name.clone()
            } else if let Some(rest) = name.strip_prefix(PROMPTS)
                && rest.ends_with(".json")
            {
                let file = rest.rsplit('/').next().unwrap_or(rest);
                if file.starts_with('_') || file == ".json" {
                    continue;
                }
                file.to_owned()
            } else {
                // `metadata.json` and anything PromptEngine does not import.
                continue;
            };
            let text = String::from_utf8(data).map_err(|_| {
                refuse(format!("entry `{}` is not UTF-8 text", name.escape_debug()))
            })?;
            if let Err(e) = serde_json::from_str::<serde_core::de::IgnoredAny>(&text) {
                return Err(refuse(format!(
                    "entry `{}` is not JSON: {e}",
                    name.escape_debug()
                )));
            }
            incoming.retain(|(r, _)| *r != rel);
            incoming.push((rel, text));
        }
        if !incoming.iter().any(|(rel, _)| rel == MANIFEST) {
            return Err(refuse(format!(
                "it has no `{MANIFEST}`: not a PromptEngine archive"
            )));
        }
        // Domain files first, then the registries, the manifest, and the user manifest
        // last: the commit point.
        incoming.sort_by_key(|(rel, _)| match rel.as_str() {
            USER_MANIFEST => 4,
            MANIFEST => 3,
            REGISTRY | USER_REGISTRY => 2,
            _ => 1,
        });
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
        self.commit(|_, _| {
            let mut writes: Vec<(String, Option<String>)> = Vec::new();
            let (mut imported, mut skipped, mut removed) = (Vec::new(), Vec::new(), Vec::new());
            for (rel, text) in &incoming {
                if mode == ImportMode::Merge && dir.join(rel).exists() {
                    skipped.push(rel.clone());
                } else {
                    imported.push(rel.clone());
                    writes.push((rel.clone(), Some(text.clone())));
                }
            }
            let has_user = incoming.iter().any(|(rel, _)| rel == USER_MANIFEST);
            if mode == ImportMode::Replace && !has_user && dir.join(USER_MANIFEST).exists() {
                removed.push(USER_MANIFEST.to_owned());
                writes.push((USER_MANIFEST.to_owned(), None));
            }
            summary.imported = imported;
            summary.skipped = skipped;
            summary.removed = removed;
            Ok(Change {
                writes,
                cleanup: Vec::new(),
            })
        })?;
        summary.placeholders_imported = incoming
            .iter()
            .filter(|(rel, _)| rel == USER_REGISTRY && summary.imported.contains(rel))
            .flat_map(|(_, text)| names_in_text(text, "placeholders"))
            .collect();
        Ok(summary)
    }
}

/// The keys of object `key` of a JSON file.
fn names_of(file: Option<&SourceFile>, key: &str) -> Vec<String> {
    file.map(|f| names_in_text(f.text(), key))
        .unwrap_or_default()
}

fn names_in_text(text: &str, key: &str) -> Vec<String> {
    prompt_runtime::__internal::object_entries(text)
        .ok()
        .and_then(|top| top.into_iter().find(|(k, _)| k == key))
        .and_then(|(_, v)| prompt_runtime::__internal::object_entries(v.get()).ok())
        .map(|entries| entries.into_iter().map(|(k, _)| k).collect())
        .unwrap_or_default()
}
