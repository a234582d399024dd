//! Archives of a store's user layer (cargo feature `archive`): [`Store::export_prompts`]
//! writes one as a zip file, [`Store::import_prompts`] reads one back.
//!
//! An archive holds the user layer's files under their paths in the user folder —
//! `_meta/user_manifest.json`, `_meta/user_placeholder_registry.json` when there is one,
//! and every domain file the user manifest names (`prompts/<id>.json`) — and
//! `metadata.json`: the format and its version, the promptic version, the ids and
//! placeholders the user layer has, and a digest (FNV-1a, 64 bits: a fingerprint, not a
//! seal) of the defaults' manifest and registry it was made over. The defaults are not in
//! it: they come with the application. (PromptEngine's archives also hold the system
//! manifest and registry; promptic does not read those.)
//!
//! The stages of an import, one file each: `zipped` reads the zip and refuses anything but
//! a plain archive of small files within its limits; here, the archive's user layer is
//! checked over the store's defaults exactly as a user folder is when a store opens
//! (diagnostics point into the archive: `backup.zip/prompts/a.json:3:20`); `plan` merges
//! it with the user layer by the [`ImportMode`]; and the store's one edit path checks the
//! result again, writes it atomically (the user manifest last) and swaps it in. Nothing
//! changes, in memory or on disk, until all of that has passed.

mod engine;
mod plan;
mod zipped;

pub use zipped::{MAX_ARCHIVE_BYTES, MAX_ARCHIVE_ENTRIES, MAX_ENTRY_BYTES};

use crate::builder::Store;
use crate::{atomic, folder_lock};
use prompt_runtime::__internal::decode;
use prompt_runtime::__internal::object_entries;
use prompt_runtime::store::StoreError;
use prompt_runtime::store::check;
use prompt_runtime::store::json::Reader;
use prompt_runtime::store::layout::{Layer, MANIFEST, REGISTRY, USER_MANIFEST, USER_REGISTRY};
use prompt_runtime::store::reader::State;
use prompt_runtime::{Diagnostics, SourceFile};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `metadata.json`'s `format`.
const FORMAT: &str = "promptic-store-archive";
/// The `format_version` written, and the newest one read.
const FORMAT_VERSION: i64 = 1;
/// The archive's own file, beside the user layer's.
const METADATA: &str = "metadata.json";

/// How [`Store::import_prompts_with`] combines an archive with the user layer, as
/// PromptEngine's import modes do. A prompt's user manifest entry (its texts, enabled
/// flags, order, …) moves whole: an import never mixes an archived entry with a current
/// one. Likewise each placeholder of the user registry.
///
/// ```
/// use promptic::store::ImportMode;
/// assert_eq!(ImportMode::default(), ImportMode::Merge);
/// assert_eq!(ImportMode::from_word("overwrite"), Some(ImportMode::Overwrite));
/// assert_eq!(ImportMode::Replace.as_str(), "replace");
/// ```
///
/// Needs the `archive` feature.
#[cfg_attr(docsrs, doc(cfg(feature = "archive")))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ImportMode {
    /// The user layer becomes the archive's: customizations the archive lacks are gone.
    Replace,
    /// The archive's entries are added for the prompts (and placeholders) the user layer
    /// does not customize yet; the others are skipped and kept as they are.
    #[default]
    Merge,
    /// The archive's entries win for the prompts (and placeholders) it has; the user
    /// layer's others are kept.
    Overwrite,
}

impl ImportMode {
    /// `replace`, `merge` or `overwrite`.
    pub fn as_str(self) -> &'static str {
        match self {
            ImportMode::Replace => "replace",
            ImportMode::Merge => "merge",
            ImportMode::Overwrite => "overwrite",
        }
    }

    /// The mode named by `word`.
    pub fn from_word(word: &str) -> Option<ImportMode> {
        match word {
            "replace" => Some(ImportMode::Replace),
            "merge" => Some(ImportMode::Merge),
            "overwrite" => Some(ImportMode::Overwrite),
            _ => None,
        }
    }
}

/// What [`Store::export_prompts`] wrote. Needs the `archive` feature.
#[cfg_attr(docsrs, doc(cfg(feature = "archive")))]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportSummary {
    /// The archive.
    pub path: PathBuf,
    /// Its entries, in order (`metadata.json` first).
    pub files: Vec<String>,
    /// The prompts the user layer customizes (or adds), in user manifest order.
    pub prompt_ids: Vec<String>,
    /// The user placeholder registry's placeholders.
    pub placeholders: Vec<String>,
}

/// What [`Store::import_prompts`] changed. Needs the `archive` feature.
#[cfg_attr(docsrs, doc(cfg(feature = "archive")))]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImportSummary {
    /// The mode used.
    pub mode: ImportMode,
    /// The prompts whose user manifest entry (and domain file) came from the archive.
    pub imported: Vec<String>,
    /// The archive's prompts that were not imported: [`ImportMode::Merge`] skips the ones
    /// the user layer customizes already.
    pub skipped: Vec<String>,
    /// The prompts whose customization is gone: [`ImportMode::Replace`] drops the ones the
    /// archive lacks.
    pub removed: Vec<String>,
    /// The user placeholders that came from the archive.
    pub placeholders_imported: Vec<String>,
    /// The archive's user placeholders that were not imported ([`ImportMode::Merge`]).
    pub placeholders_skipped: Vec<String>,
    /// True when the archive was exported over other defaults (their manifest or registry
    /// differ from this store's). It was checked against this store's defaults all the
    /// same; it is worth a look at what it customizes.
    pub defaults_differ: bool,
    /// The promptic version that wrote the archive, when it says.
    pub exported_by: Option<String>,
}

/// An archive read and checked over the defaults: what [`plan`] combines with a user layer.
#[derive(Debug)]
pub(super) struct Archived {
    /// Its user manifest and registry, as written.
    pub manifest: Option<String>,
    pub registry: Option<String>,
    /// The user manifest's prompts, in order.
    pub prompts: Vec<ArchivedPrompt>,
    /// The user registry's placeholders, in order: name and entry (JSON text).
    pub placeholders: Vec<(String, String)>,
    exported_by: Option<String>,
    defaults_digest: Option<String>,
}

/// One prompt of an archive's user manifest.
#[derive(Debug)]
pub(super) struct ArchivedPrompt {
    pub id: String,
    /// Its user manifest entry, as written (JSON text).
    pub entry: String,
    /// The text of the domain file the entry names in the archive, if it names one.
    pub domain: Option<String>,
}

#[cfg_attr(docsrs, doc(cfg(feature = "archive")))]
impl Store {
    /// Writes the user layer to a zip archive at `path`: the user manifest, the user
    /// placeholder registry, every domain file the user manifest names, and
    /// `metadata.json` (the format version, the promptic version, the ids and user
    /// placeholders, a fingerprint of the defaults' manifest and registry: an import over
    /// other defaults says so in [`ImportSummary::defaults_differ`]). The user folder is
    /// read again first (as [`Store::reload`] does), so edits of other processes are in it.
    /// The archive is written atomically, as every file of a store is: a crash leaves no
    /// half-written zip at `path`. Needs the `archive` feature.
    ///
    /// On a folder opened in place ([`Store::open_folder`]) the archive is PromptEngine's
    /// own: the folder's manifests and registries under `_meta/`, its domain files under
    /// `prompts/`, and PromptEngine's `metadata.json`; [`ExportSummary::prompt_ids`] then
    /// lists every prompt of the folder.
    ///
    /// ```
    /// # use promptic::store::{Defaults, ImportMode, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a"}, "b": {"domain": "b"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// #     ("b.json", br#"{"variants": {"default": {"text": "B"}}}"#),
    /// # ];
    /// # let dir = std::env::temp_dir().join(format!("pk-export-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// let store = Store::builder(Defaults::from_files("p", files)?).user_dir(dir.join("user")).open()?;
    /// store.update_prompt("a", "default", "Changed.")?;
    /// store.set_enabled("b", "default", false)?;
    /// let written = store.export_prompts(dir.join("backup.zip"))?;
    /// assert_eq!(written.prompt_ids, ["a", "b"]);
    ///
    /// store.factory_reset()?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "A\n\nB");
    /// let read = store.import_prompts_with(dir.join("backup.zip"), ImportMode::Replace)?;
    /// assert_eq!(read.imported, ["a", "b"]);
    /// assert_eq!(store.build_system_prompt("default", &[])?, "Changed.");
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn export_prompts(&self, path: impl AsRef<Path>) -> Result<ExportSummary, StoreError> {
        let path = path.as_ref();
        if let Some(dir) = &self.in_place {
            return self.export_in_place(dir, path);
        }
        let shown = path.to_string_lossy().into_owned();
        let refuse = |message: String| StoreError::Archive {
            path: shown.clone(),
            message,
        };
        let state = self.latest()?;
        let mut files = vec![(METADATA.to_owned(), String::new())];
        let mut layer: Vec<(String, String)> = state
            .user
            .files()
            .iter()
            .filter_map(|(rel, source)| Some((rel.clone(), source.as_ref()?.text().to_owned())))
            .collect();
        // The manifests first, then the domain files by name.
        layer.sort_by(|(a, _), (b, _)| {
            (!a.starts_with("_meta/"), a).cmp(&(!b.starts_with("_meta/"), b))
        });
        let mut total = 0u64;
        for (rel, text) in &layer {
            if rel == METADATA || zipped::unsafe_name(rel).is_some() {
                return Err(refuse(format!(
                    "cannot export `{}`: its name cannot be an entry of an archive (rename the domain file in the user manifest)",
                    state.user.shown(rel)
                )));
            }
            total += text.len() as u64;
            if text.len() as u64 > MAX_ENTRY_BYTES || total > MAX_ARCHIVE_BYTES {
                return Err(refuse(format!(
                    "cannot export: the user layer is larger than an import reads ({} MiB a file, {} MiB in all)",
                    MAX_ENTRY_BYTES >> 20,
                    MAX_ARCHIVE_BYTES >> 20
                )));
            }
        }
        let prompt_ids = names_in(state.user.get(USER_MANIFEST), "prompts");
        let placeholders = names_in(state.user.get(USER_REGISTRY), "placeholders");
        files[0].1 = self.metadata(&prompt_ids, &placeholders, &layer);
        files.extend(layer);
        let bytes = zipped::pack(&files).map_err(|e| refuse(format!("cannot write it: {e}")))?;
        atomic::write(path, &bytes, &self.faults).map_err(|e| StoreError::Write {
            path: shown.clone(),
            message: e.error.to_string(),
        })?;
        Ok(ExportSummary {
            path: path.to_owned(),
            files: files.into_iter().map(|(name, _)| name).collect(),
            prompt_ids,
            placeholders,
        })
    }

    /// [`Store::import_prompts_with`] in [`ImportMode::Merge`]: the archive's
    /// customizations are added for the prompts the user layer does not customize yet.
    /// Needs the `archive` feature.
    pub fn import_prompts(&self, path: impl AsRef<Path>) -> Result<ImportSummary, StoreError> {
        self.import_prompts_with(path, ImportMode::Merge)
    }

    /// Reads the zip archive at `path` (one [`Store::export_prompts`] wrote, or a user
    /// layer zipped by hand: `metadata.json` is optional, and checked when present) into
    /// the user layer, combined with it by `mode`. Needs the `archive` feature.
    ///
    /// The whole archive is checked before anything changes, and a broken or hostile one is
    /// refused with nothing changed, in memory or on disk: a file that is not a zip or is
    /// cut short; bad JSON or an unknown `{{placeholder}}` (located diagnostics into the
    /// archive, with suggestions, as for a user folder); entry names that leave the folder
    /// (`..`, absolute paths, backslashes, drive letters), links, duplicate names, entries
    /// that are no part of a user layer, encrypted entries; more than
    /// [`MAX_ARCHIVE_ENTRIES`] entries, an entry over [`MAX_ENTRY_BYTES`] or all of them
    /// over [`MAX_ARCHIVE_BYTES`] uncompressed (counted as they are read: a declared size
    /// can lie). The archive's user layer must check on its own over this store's
    /// defaults, as it would in a user folder.
    ///
    /// Domain files are written as `prompts/<id>.json` (a fresh name beside a file in use),
    /// never where the archive says; then the user placeholders it adds; then the user
    /// manifest, last, as every edit writes (see [`Store`]): a crash at any point leaves the
    /// user layer as it was or as imported. What the user registry loses (placeholders a
    /// `Replace` drops, changes of ones texts use) is a second edit after that: a crash
    /// between the two leaves an unused placeholder behind, or the old definition of one
    /// that texts on both sides use.
    ///
    /// On a folder opened in place ([`Store::open_folder`]) the archive is PromptEngine's
    /// (one that PromptEngine or [`Store::export_prompts`] wrote): its files are written into
    /// the folder as PromptEngine's import modes write them — `Replace` every file (and the
    /// user manifest removed when the archive has none), `Merge` only the files the folder
    /// lacks, `Overwrite` every file it has — and [`ImportSummary::imported`],
    /// [`ImportSummary::skipped`] and [`ImportSummary::removed`] list files, not prompts.
    /// Nothing is written unless every entry reads as JSON and the folder it makes passes the
    /// store's checks.
    ///
    /// ```
    /// # use promptic::store::{Defaults, ImportMode, Store, StoreError};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// # ];
    /// # let dir = std::env::temp_dir().join(format!("pk-import-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// # std::fs::create_dir_all(&dir)?;
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// std::fs::write(dir.join("not.zip"), "{}")?;
    /// let e = store.import_prompts(dir.join("not.zip")).unwrap_err();
    /// assert!(matches!(e, StoreError::Archive { .. }));
    /// assert!(e.to_string().contains("not a zip archive"), "{e}");
    /// assert_eq!(store.build_system_prompt("default", &[])?, "A");
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn import_prompts_with(
        &self,
        path: impl AsRef<Path>,
        mode: ImportMode,
    ) -> Result<ImportSummary, StoreError> {
        let path = path.as_ref();
        if let Some(dir) = &self.in_place {
            return self.import_in_place(dir, path, mode);
        }
        let shown = path.to_string_lossy().replace('\\', "/");
        let refuse = |message: String| StoreError::Archive {
            path: shown.clone(),
            message: format!("{message}; nothing was imported"),
        };
        let bytes = read_capped(path).map_err(&refuse)?;
        let unpacked = zipped::unpack(&bytes).map_err(&refuse)?;
        let archived = self.check_archive(unpacked, &shown)?;
        let mut planned = None;
        self.commit(|_, state| {
            let (change, done, rest) = plan::plan(state, &archived, mode)?;
            planned = Some((done, rest));
            Ok(change)
        })?;
        let (mut summary, rest) =
            planned.ok_or_else(|| refuse("the import was not planned".into()))?;
        if let Some(rest) = rest {
            // What the user registry loses, once no text needs it (see `plan`).
            self.commit(|_, state| plan::rest_change(state, &rest))?;
        }
        summary.defaults_differ = archived
            .defaults_digest
            .is_some_and(|d| d != self.defaults_digest());
        summary.exported_by = archived.exported_by;
        Ok(summary)
    }

    /// The user folder as it is on disk now (a store without one: its state).
    fn latest(&self) -> Result<Arc<State>, StoreError> {
        let Some(dir) = &self.user_dir else {
            return Ok(self.current());
        };
        let _writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        let _folder = folder_lock::shared(dir);
        self.reread(dir)
    }

    /// `metadata.json` of an archive of `layer`.
    fn metadata(
        &self,
        prompt_ids: &[String],
        placeholders: &[String],
        layer: &[(String, String)],
    ) -> String {
        let exported_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let (manifest, registry) = self.defaults_digests();
        let json = serde_json::json!({
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "promptic_version": env!("CARGO_PKG_VERSION"),
            "exported_at_unix": exported_at,
            "prompt_ids": prompt_ids,
            "user_placeholders": placeholders,
            "defaults": {"manifest_fnv1a64": manifest, "registry_fnv1a64": registry},
            "files": layer.iter().map(|(name, _)| name).collect::<Vec<_>>(),
        });
        let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
        text.push('\n');
        text
    }

    fn defaults_digests(&self) -> (String, String) {
        let digest = |rel: &str| fnv1a64(self.defaults.get(rel).map_or("", SourceFile::text));
        (digest(MANIFEST), digest(REGISTRY))
    }

    fn defaults_digest(&self) -> String {
        let (manifest, registry) = self.defaults_digests();
        format!("{manifest}/{registry}")
    }

    /// The archive's user layer, checked over the defaults as a user folder is.
    fn check_archive(
        &self,
        unpacked: zipped::Unpacked,
        shown: &str,
    ) -> Result<Archived, StoreError> {
        let refuse = |message: String| StoreError::Archive {
            path: shown.to_owned(),
            message: format!("{message}; nothing was imported"),
        };
        let mut metadata = None;
        let mut files: Vec<(&str, &[u8])> = Vec::new();
        for (name, bytes) in &unpacked.files {
            if name == METADATA {
                metadata = Some(bytes.as_slice());
            } else {
                files.push((name.as_str(), bytes.as_slice()));
            }
        }
        // `metadata.json` is optional (a user layer zipped by hand has none); when there is
        // one, it must be this format's.
        let (exported_by, defaults_digest) = match metadata {
            None => (None, None),
            Some(metadata) => {
                let source = decode(&format!("{shown}/{METADATA}"), metadata)
                    .map_err(StoreError::Invalid)?;
                read_metadata(&source).map_err(StoreError::Invalid)?
            }
        };

        let mut layer = Layer::memory(shown, &files).map_err(StoreError::Invalid)?;
        let mut defaults = self.defaults.clone();
        // The archive's layer must be whole: a prompt it cannot serve is refused with it.
        let folder = check::build(&mut defaults, Some(&mut layer), check::Mode::Strict)
            .map_err(StoreError::Invalid)?;

        // Every entry must be a file of the user layer (or a folder on the way to one).
        let mut expected: HashSet<&str> = HashSet::from([USER_MANIFEST, USER_REGISTRY]);
        expected.extend(
            folder
                .prompts
                .iter()
                .filter(|p| p.domain.1 == 1)
                .map(|p| p.domain.0.as_str()),
        );
        for (name, _) in &files {
            if !expected.contains(name) {
                let why = if *name == MANIFEST || *name == REGISTRY {
                    "it belongs to the defaults, which an archive of the user layer does not hold"
                } else {
                    "it is no file of a store's user layer (the user manifest does not name it)"
                };
                return Err(refuse(format!("entry `{name}` is refused: {why}")));
            }
        }
        // Every folder on the way to a file: a folder entry must be one of them.
        let mut holding: HashSet<&str> = HashSet::new();
        for (name, _) in &files {
            let mut path: &str = name;
            while let Some((parent, _)) = path.rsplit_once('/') {
                if !holding.insert(parent) {
                    break;
                }
                path = parent;
            }
        }
        for name in &unpacked.folders {
            if !holding.contains(name.as_str()) {
                return Err(refuse(format!(
                    "entry `{name}/` is refused: a folder with no file of the user layer in it"
                )));
            }
        }

        let manifest = layer.get(USER_MANIFEST).map(|s| s.text().to_owned());
        let registry = layer.get(USER_REGISTRY).map(|s| s.text().to_owned());
        // By id and by name, so that an archive of N entries is read in time in
        // proportion to N.
        let by_id: HashMap<&str, usize> = folder
            .prompts
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.as_str(), i))
            .collect();
        let mut prompts: Vec<ArchivedPrompt> = Vec::new();
        let mut ids: HashSet<String> = HashSet::new();
        for (id, entry) in entries_of(manifest.as_deref(), "prompts") {
            if !ids.insert(id.clone()) {
                return Err(refuse(format!(
                    "prompt `{id}` is listed twice in `{USER_MANIFEST}`"
                )));
            }
            let domain = by_id
                .get(id.as_str())
                .map(|&i| &folder.prompts[i].domain)
                .filter(|(_, layer)| *layer == 1)
                .and_then(|(rel, _)| layer.get(rel))
                .map(|s| s.text().to_owned());
            prompts.push(ArchivedPrompt { id, entry, domain });
        }
        let mut placeholders: Vec<(String, String)> = Vec::new();
        let mut names: HashSet<String> = HashSet::new();
        for (name, entry) in entries_of(registry.as_deref(), "placeholders") {
            if !names.insert(name.clone()) {
                return Err(refuse(format!(
                    "placeholder `{name}` is listed twice in `{USER_REGISTRY}`"
                )));
            }
            placeholders.push((name, entry));
        }
        Ok(Archived {
            manifest,
            registry,
            prompts,
            placeholders,
            exported_by,
            defaults_digest,
        })
    }
}

/// The archive file's bytes, refused past [`zipped::MAX_FILE_BYTES`] (by its size first,
/// then while reading) and refused when it is no regular file (a FIFO, a device): the
/// user names it, so it may be anywhere, but it is read as every file is (`load::root`).
fn read_capped(path: &Path) -> Result<Vec<u8>, String> {
    let shown = path.to_string_lossy();
    prompt_runtime::__internal::read_file(path, &shown, zipped::MAX_FILE_BYTES).map_err(|e| {
        if e.is_too_large() {
            format!(
                "the file is larger than {} MiB",
                zipped::MAX_FILE_BYTES >> 20
            )
        } else if let Some(io) = e.io_error() {
            format!("cannot read it: {io}")
        } else {
            e.to_string()
        }
    })
}

/// `metadata.json`: its format and version checked; the promptic version that wrote it
/// and the digest of its defaults, when it says.
fn read_metadata(source: &SourceFile) -> Result<(Option<String>, Option<String>), Diagnostics> {
    let mut problems = Diagnostics::default();
    let mut r = Reader {
        source,
        problems: &mut problems,
    };
    let Some(top) = r.top() else {
        return Err(problems);
    };
    let field = |name: &str| top.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
    match field("format") {
        Some(raw) => {
            if let Some(format) = r.string(raw, "`format`")
                && format != FORMAT
            {
                let d = r
                    .error(
                        r.span(raw),
                        format!("`format` is `{format}`, not `{FORMAT}`"),
                    )
                    .with_help("this is not an archive of a promptic store");
                r.push(d);
            }
        }
        None => {
            let d = r
                .error(0..1, format!("`{}` has no `format`", source.path()))
                .with_help(format!(
                    "an archive of a promptic store says `\"format\": \"{FORMAT}\"`"
                ));
            r.push(d);
        }
    }
    match field("format_version") {
        Some(raw) => {
            if let Some(version) = r.integer(raw, "`format_version`")
                && !(1..=FORMAT_VERSION).contains(&version)
            {
                let d = r
                    .error(r.span(raw), format!("`format_version` is {version}: this promptic reads archives of version {FORMAT_VERSION}"))
                    .with_help("import it with the promptic version that wrote it, or a newer one");
                r.push(d);
            }
        }
        None => {
            let d = r.error(0..1, format!("`{}` has no `format_version`", source.path()));
            r.push(d);
        }
    }
    let version = field("promptic_version").and_then(|raw| r.string(raw, "`promptic_version`"));
    let digest = field("defaults").and_then(|raw| {
        let fields = r.object(raw, "`defaults`")?;
        let get = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .and_then(|(_, v)| serde_json::from_str::<String>(v.get()).ok())
        };
        Some(format!(
            "{}/{}",
            get("manifest_fnv1a64")?,
            get("registry_fnv1a64")?
        ))
    });
    problems.into_result((version, digest))
}

/// The entries of object `key` of a JSON object (none when it is missing or not one).
fn entries_of(json: Option<&str>, key: &str) -> Vec<(String, String)> {
    let Some(json) = json else {
        return Vec::new();
    };
    let Ok(top) = object_entries(json) else {
        return Vec::new();
    };
    let Some((_, inner)) = top.iter().find(|(k, _)| k == key) else {
        return Vec::new();
    };
    object_entries(inner.get())
        .map(|entries| {
            entries
                .into_iter()
                .map(|(name, raw)| (name, raw.get().to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// The names of object `key` of a file, in order.
fn names_in(source: Option<&SourceFile>, key: &str) -> Vec<String> {
    entries_of(source.map(SourceFile::text), key)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// FNV-1a, 64 bits, in hex: a fingerprint of a file, to tell whether two are the same.
fn fnv1a64(text: &str) -> String {
    prompt_runtime::__internal::digest_of(text).hex()
}

#[cfg(test)]
mod tests;
