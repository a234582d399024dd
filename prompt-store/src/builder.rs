//! [`Store`]: a checked folder with its values, rendered as PromptEngine renders it, only
//! strictly, and changed while it is in use; and its builder.

use crate::atomic::{Faults, no_faults};
use prompt_runtime::store::layout::{Layer, MANIFEST};
use prompt_runtime::store::parsed::{Folder, PromptDef};
use prompt_runtime::store::reader::{self, OpenHooks, Opening, Reader, State, registry_names};
use prompt_runtime::store::{
    Defaults, Preview, PromptEntry, SequenceEntry, StoreError, TargetName,
};
use prompt_runtime::{Diagnostics, Message};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Builds a [`Store`]: the defaults, the user's folder, the static values and the computed
/// functions. See [`Store::builder`].
pub struct StoreBuilder {
    opening: Opening,
    faults: Faults,
}

impl StoreBuilder {
    /// All or nothing: with `true`, a problem in any prompt (an unknown `{{key}}` saved
    /// into its text, a missing domain file) refuses the whole folder, as
    /// [`Defaults::load`] and `#[derive(PromptStore)]` do. By default such a prompt alone
    /// is refused: [`StoreBuilder::open`] succeeds, [`Store::problems`] lists it with its
    /// diagnostics, rendering it (or an assembly that takes it) returns them, and every
    /// other prompt serves.
    pub fn strict(mut self, strict: bool) -> Self {
        self.opening.strict = strict;
        self
    }

    /// The user's folder: its `_meta/user_manifest.json` and
    /// `_meta/user_placeholder_registry.json` are read (when they exist) over the
    /// defaults, and [`Store::set_enabled`] writes its user manifest.
    ///
    /// A folder that holds its own `_meta/prompt_manifest.json` is a PromptEngine folder
    /// (PersonaUI's, edited in place by PromptEngine): it is read and written as
    /// [`Store::open_folder`] reads and writes it, so that PromptEngine reads every file
    /// the store writes there, with these defaults in the role of its `_defaults/` (the
    /// reset source, and what its one-time migration compares with).
    pub fn user_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.opening.user_dir = Some(dir.into());
        self
    }

    /// A static placeholder's value: fixed until the store is rebuilt.
    pub fn static_value(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.opening.statics.push((key.into(), value.into()));
        self
    }

    /// A computed placeholder's function: called on every render that uses the key (once
    /// per render however often the key is used). Wins over a static value.
    pub fn computed(
        mut self,
        key: impl Into<String>,
        f: impl Fn() -> String + Send + Sync + 'static,
    ) -> Self {
        self.opening.computed.push((key.into(), Arc::new(f)));
        self
    }

    /// A source document (PromptEngine's `persona_config`, `user_profile`, …): every static
    /// placeholder whose registry entry names `source: NAME` takes its value from it, at
    /// the entry's `source_path`, converted as PromptEngine converts it:
    ///
    /// - `user_profile` is looked up by the whole path as one key, any other source by a
    ///   dotted path through its objects (`persona_settings.name`), as PromptEngine does;
    /// - a missing or `null` value gives the registry's `default` (`""` without one);
    /// - a list of a `"type": "list"` placeholder is joined with its `join_separator`
    ///   (`", "` by default), each item as Python's `str()` prints it; any other value is
    ///   printed as Python's `str()` prints it (`True`, `18`, `1.5`, `['a', 'b']`).
    ///
    /// A [`StoreBuilder::static_value`] for the same key wins. A source that no registry
    /// entry names is not used: [`Store::unused_names`] lists it with a suggestion (a
    /// [`strict`](StoreBuilder::strict) open refuses it). [`Defaults::sources`] lists the
    /// names the registry uses.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"p": {"domain": "p"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {
    /// #         "char_name": {"resolve_phase": "static", "source": "persona_config", "source_path": "persona_settings.name", "default": "Assistant"},
    /// #         "char_age": {"resolve_phase": "static", "type": "number", "source": "persona_config", "source_path": "persona_settings.age", "default": 18},
    /// #         "likes": {"resolve_phase": "static", "type": "list", "source": "user_profile", "source_path": "user_interested_in"}}}"#),
    /// #     ("p.json", br#"{"variants": {"default": {"text": "{{char_name}} ({{char_age}}) likes {{likes}}."}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?)
    ///     .source("persona_config", serde_json::json!({"persona_settings": {"name": "Mia"}}))
    ///     .source("user_profile", serde_json::json!({"user_interested_in": ["tea", "chess"]}))
    ///     .open()?;
    /// assert_eq!(store.resolve_prompt("p", "default", &[])?, "Mia (18) likes tea, chess.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn source(mut self, name: impl Into<String>, document: serde_json::Value) -> Self {
        self.opening.sources.push((name.into(), Arc::new(document)));
        self
    }

    /// A computed function by the name the registry's `compute_function` gives
    /// (`build_character_description`, `get_time_context.current_date`, …): every computed
    /// placeholder naming it calls `f` on each render that uses it. A
    /// [`StoreBuilder::computed`] for the same key wins. A name that no registry entry
    /// uses is not called: [`Store::unused_names`] lists it with a suggestion (a
    /// [`strict`](StoreBuilder::strict) open refuses it). [`Defaults::compute_functions`]
    /// lists the names the registry uses.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"p": {"domain": "p"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {
    /// #         "current_date": {"resolve_phase": "computed", "compute_function": "get_time_context.current_date", "default": ""}}}"#),
    /// #     ("p.json", br#"{"variants": {"default": {"text": "Today is {{current_date}}."}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?)
    ///     .compute_function("get_time_context.current_date", || "24.01.2026".to_owned())
    ///     .open()?;
    /// assert_eq!(store.resolve_prompt("p", "default", &[])?, "Today is 24.01.2026.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compute_function(
        mut self,
        name: impl Into<String>,
        f: impl Fn() -> String + Send + Sync + 'static,
    ) -> Self {
        self.opening.functions.push((name.into(), Arc::new(f)));
        self
    }

    /// The defaults this builder opens over: their prompts and placeholders, to decide
    /// which values to give before opening.
    pub fn defaults(&self) -> &Defaults {
        &self.opening.defaults
    }

    /// Makes steps of the store's writes fail, for the failure-injection tests.
    #[cfg(test)]
    pub(crate) fn faults(mut self, faults: Faults) -> Self {
        self.faults = faults;
        self
    }

    /// Reads the user folder, checks it, and checks that every static and computed
    /// placeholder has a value or a registry `default` (listing all that do not).
    ///
    /// A PromptEngine folder (see [`StoreBuilder::user_dir`] and [`Store::open_folder`]) in
    /// PromptEngine's older layout, a single `_meta/prompt_manifest.json` and no user
    /// manifest, is migrated first as PromptEngine migrates it: the user's own prompts
    /// (those the factory defaults' manifest lacks) move whole into a user manifest, after
    /// a backup of the old manifest (see [`Store::migration_backup`]). The temporary files
    /// of a write that crashed before its rename are removed.
    pub fn open(self) -> Result<Store, StoreError> {
        let hooks = Writing {
            faults: &self.faults,
        };
        let opened = reader::open(self.opening, &hooks)?;
        Ok(Store {
            reader: opened.reader,
            defaults: opened.defaults.__layer().clone(),
            default_folder: Arc::clone(opened.defaults.__folder()),
            migrated: opened.migrated,
            reset_from: opened.reset_from,
            user_dir: opened.user_dir,
            writing: Mutex::new(()),
            in_place: opened.in_place,
            faults: self.faults,
        })
    }
}

/// What a store's open does besides reading: a crashed write's temporary files removed
/// and PromptEngine's older layout migrated (in a folder read in place), the user folder
/// held under its shared lock while it is read.
struct Writing<'f> {
    faults: &'f Faults,
}

impl OpenHooks for Writing<'_> {
    fn before_in_place(
        &self,
        dir: &Path,
        reset_from: Option<&Layer>,
    ) -> Result<Option<PathBuf>, StoreError> {
        // A folder promptic wrote before (it has the lock file): a temporary file of a
        // crashed write is removed while no write is under way. A folder promptic never
        // wrote gets no lock file from a read.
        if dir.join(crate::folder_lock::LOCK).is_file()
            && let Some(_shared) = crate::folder_lock::shared(dir)
        {
            for sub in ["_meta", "", crate::migrate::BACKUPS] {
                if crate::atomic::confine(dir, sub).is_ok() {
                    crate::atomic::sweep(&dir.join(sub));
                }
            }
        }
        // PromptEngine's one-time migration of its single-manifest layout, against its
        // factory defaults' manifest.
        let ground = match reset_from {
            Some(layer) => layer.get(MANIFEST).map(|f| f.text().to_owned()),
            None => crate::in_place::defaults_file(dir, MANIFEST),
        };
        match &ground {
            Some(ground) if crate::migrate::needed(dir, Some(ground)) => {
                crate::migrate::run(dir, ground, self.faults)
            }
            _ => Ok(None),
        }
    }

    fn lock_user(&self, dir: &Path) -> Option<Box<dyn std::any::Any>> {
        // Not while another store writes the folder: its files belong together.
        let lock = crate::folder_lock::shared(dir)?;
        // No write is under way: a temporary file here is a crashed write's.
        for sub in ["_meta", "prompts", ""] {
            // Never a folder linked out of the user folder: its files are not the
            // store's to remove.
            if crate::atomic::confine(dir, sub).is_ok() {
                crate::atomic::sweep(&dir.join(sub));
            }
        }
        Some(Box::new(lock))
    }
}

/// Opening a store only to read it, under the user folder's shared lock when the folder
/// has one (a folder promptic never wrote gets no lock file): what `promptic store
/// render` gives the store format ([`StorePrompt::with_hooks`]), so that a render never
/// reads half of another process's edit.
///
/// [`StorePrompt::with_hooks`]: prompt_runtime::formats::promptengine::StorePrompt::with_hooks
pub static LOCKED: Locked = Locked;

/// The type of [`LOCKED`].
#[derive(Debug)]
pub struct Locked;

impl OpenHooks for Locked {
    fn lock_user(&self, dir: &Path) -> Option<Box<dyn std::any::Any>> {
        crate::folder_lock::shared_if_there(dir)
            .map(|lock| Box::new(lock) as Box<dyn std::any::Any>)
    }
}

/// A store of prompts: PromptEngine's folder, checked, with its placeholder values.
///
/// Texts were parsed when the folder was loaded: rendering walks them and copies bytes.
/// `Store` is `Send + Sync`: share it between threads in an `Arc`; the edits
/// ([`Store::update_prompt`], [`Store::set_enabled`], …) take `&self`.
///
/// ```
/// use promptic::store::{Defaults, Store};
///
/// let files: &[(&str, &[u8])] = &[
///     ("_meta/prompt_manifest.json", br#"{"prompts": {
///         "rules": {"domain": "rules", "order": 2},
///         "persona": {"domain_file": "persona.json", "order": 1}}}"#),
///     ("_meta/placeholder_registry.json", br#"{"placeholders": {
///         "char_name": {"type": "static"},
///         "mood": {"resolve_phase": "runtime", "type": "string"}}}"#),
///     ("rules.json", br#"{"id": "rules", "variants": {"default": {"text": "Stay in character, {{char_name}}."}}}"#),
///     ("persona.json", br#"{"persona": {"variants": {"default": {"content": "You are {{char_name}}, feeling {{mood}}.\n\n\n\n"}}}}"#),
/// ];
/// let defaults = Defaults::from_files("persona_prompts", files)?;
/// let store = Store::builder(defaults).static_value("char_name", "Luna").open()?;
/// assert_eq!(
///     store.build_system_prompt("default", &[("mood", "calm")])?,
///     "You are Luna, feeling calm.\n\nStay in character, Luna."
/// );
/// // a runtime value that is not given is an error, never `{{mood}}` in the text
/// let e = store.resolve_prompt("persona", "default", &[]).unwrap_err();
/// assert_eq!(e.to_string(), "missing runtime value for placeholder `{{mood}}` (used by `persona`): pass each one in `runtime`");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Durability and concurrency
///
/// - An edit is checked in full (the same checks as [`Defaults::load`]) before anything is
///   written; a refused edit changes nothing, in memory or on disk.
/// - Every file is written atomically: a temporary file in the same folder, written,
///   `fsync`ed, renamed over the old one, then the folder `fsync`ed. An edit that touches
///   two files (a new user domain file, then the user manifest that names it) writes the
///   manifest last: a crash at any point leaves the old state or the new one, at worst
///   with an unreferenced file behind, never a mix or an empty file.
/// - Renders never wait for the disk: they take the current state (an `Arc`, swapped under
///   a short lock once an edit's files are written) and render from it, so a render sees
///   the store before an edit or after it, never half of it.
/// - Edits within one process are serialised (one writer at a time, each starting from
///   the state the last one left): edits of different prompts all survive, and of two
///   edits of one prompt the later one wins whole.
/// - An I/O error is returned as [`StoreError::Write`] and the store keeps showing what a
///   fresh open would read: the old state, or the new one when only the final folder
///   flush failed (the rename is done; it may not survive a power cut).
/// - A crash can leave a write's temporary file (`.NAME.PID.N.tmp`) behind, never in a
///   file's place; the next open removes it.
/// - Nothing is read outside the defaults' folder and the user folder, and nothing is
///   written outside the user folder: a link on the way that leads out (`prompts/` or
///   `_meta/` linked elsewhere, a linked lock file) is refused by name, and an edit that
///   would write through one writes nothing. Each prompt's user domain file is its own:
///   an edit of one prompt never writes into another's file (see the README's store
///   section for the names).
/// - Across processes (or `Store`s) on one user folder: an edit holds an exclusive
///   advisory lock on `_meta/.promptic.lock` (`flock`, `LockFileEx`) and reads the folder
///   again before it plans, so no process loses another's edit; an open holds the lock
///   shared while it reads. A store shows another's edits after its own next edit or
///   [`Store::reload`]. The lock is advisory: a program writing the folder without it (a
///   hand edit, PromptEngine itself) is not kept out, and network file systems may not
///   honour it.
pub struct Store {
    /// The current state and the values: what renders read.
    pub(crate) reader: Reader,
    /// The defaults' files, in memory: every edit is checked over them.
    pub(crate) defaults: Layer,
    /// The defaults' prompts alone: which prompts have a default.
    pub(crate) default_folder: Arc<Folder>,
    /// The backup written when `open` upgraded an older user folder.
    migrated: Option<PathBuf>,
    /// Where the user layer is written; `None` keeps edits in memory.
    pub(crate) user_dir: Option<PathBuf>,
    /// Held by an edit from reading the state to swapping in the new one.
    pub(crate) writing: Mutex<()>,
    /// The PromptEngine folder read in place ([`Store::open_folder`]).
    pub(crate) in_place: Option<PathBuf>,
    /// For a PromptEngine folder given as a user folder: the given defaults, its factory
    /// defaults (reset source) in place of its `_defaults/`.
    pub(crate) reset_from: Option<Layer>,
    pub(crate) faults: Faults,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.current();
        f.debug_struct("Store")
            .field("prompts", &state.folder.prompts.len())
            .field("placeholders", &state.folder.keys.len())
            .field("user_dir", &self.user_dir)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// A builder over `defaults` (from [`Defaults::load`] or a derived store's `defaults()`).
    pub fn builder(defaults: Defaults) -> StoreBuilder {
        StoreBuilder {
            opening: Opening::new(defaults),
            faults: no_faults(),
        }
    }

    /// Opens a PromptEngine folder as PromptEngine itself uses it — PersonaUI's
    /// `src/instructions/prompts/`, which PersonaUI edits in place: its own
    /// `_meta/prompt_manifest.json` and `_meta/user_manifest.json` (a user entry replacing
    /// the whole entry of its id, as PromptEngine merges them), its registries and its domain
    /// files, so the store shows exactly the prompts, texts, orders and flags PromptEngine
    /// shows (its `_defaults/` is PromptEngine's reset source and is not read). A prompt
    /// with problems is refused alone ([`Store::problems`]). Without values: static and
    /// computed placeholders take their registry defaults; use
    /// [`Store::folder_builder`] to hand the store its sources and functions.
    ///
    /// Its edits are written into the folder as PromptEngine writes them, so PromptEngine
    /// reads them as its own: [`Store::update_prompt`] into the prompt's domain file,
    /// [`Store::set_enabled`] (the prompt's one `enabled`: PromptEngine has no flag per
    /// variant) and [`Store::reorder_prompts`] into the manifest that holds the prompt's
    /// entry, [`Store::create_prompt`] as a whole entry of the user manifest with every
    /// field PromptEngine's validator asks for and a domain file `ID.json`, and
    /// [`Store::delete_prompt`] of a prompt of the user manifest (its entry, then its part of
    /// its domain file), [`Store::reset_prompt_to_default`] from the folder's `_defaults/`
    /// (its domain entry and its manifest entry, as PromptEngine resets), the user's
    /// placeholders in the folder's `_meta/user_placeholder_registry.json`,
    /// [`Store::factory_reset`] as PromptEngine's full reset (every file of `_defaults/` and
    /// `_defaults/_meta/` copied back, the user manifest emptied), and archives in
    /// PromptEngine's own form (feature `archive`: `Store::export_prompts` writes the zip
    /// PromptEngine's export writes, `Store::import_prompts_with` writes one as its import
    /// modes do). [`Store::reload`] reads what PromptEngine wrote since.
    ///
    /// A folder in PromptEngine's older layout (one manifest, no user manifest) is migrated
    /// when it opens, as PromptEngine migrates it: the prompts `_defaults/`'s manifest lacks
    /// move whole into a new user manifest, after a backup of the manifest
    /// ([`Store::migration_backup`]); nothing else is written, and the folder shows the same.
    /// A folder promptic never wrote is only read (no lock file, no user manifest).
    ///
    /// ```
    /// # use promptic::store::{Store, StoreError};
    /// # let dir = std::env::temp_dir().join(format!("pk-open-folder-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// # std::fs::create_dir_all(dir.join("_meta"))?;
    /// std::fs::write(dir.join("_meta/prompt_manifest.json"), r#"{"prompts": {
    ///     "rules": {"domain_file": "rules.json", "order": 1},
    ///     "mine": {"domain_file": "rules.json", "order": 2, "enabled": false}}}"#)?;
    /// // the user manifest's entry is the whole entry: `mine` is on (PromptEngine's default)
    /// std::fs::write(dir.join("_meta/user_manifest.json"), r#"{"prompts": {"mine": {"domain_file": "mine.json"}}}"#)?;
    /// std::fs::write(dir.join("_meta/placeholder_registry.json"), r#"{"placeholders": {"char_name": {"resolve_phase": "static", "default": "Luna"}}}"#)?;
    /// std::fs::write(dir.join("rules.json"), r#"{"rules": {"variants": {"default": {"content": "Be {{char_name}}."}}}}"#)?;
    /// std::fs::write(dir.join("mine.json"), r#"{"mine": {"variants": {"default": {"content": "Mine."}}}}"#)?;
    /// let store = Store::open_folder(&dir)?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "Be Luna.\n\nMine.");
    /// store.update_prompt("rules", "default", "Be kind, {{char_name}}.")?;
    /// assert!(std::fs::read_to_string(dir.join("rules.json"))?.contains(r#""content": "Be kind, {{char_name}}.""#));
    /// // the user's prompt goes with a factory reset; without `_defaults/` it is refused
    /// assert!(store.factory_reset().is_err());
    /// assert!(matches!(Store::folder_builder(&dir)?.user_dir(&dir).open(), Err(StoreError::InPlace { .. })));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_folder(path: impl AsRef<std::path::Path>) -> Result<Store, StoreError> {
        Store::folder_builder(path)?.open()
    }

    /// The builder of [`Store::open_folder`], to give values ([`StoreBuilder::source`],
    /// [`StoreBuilder::compute_function`], …) or [`StoreBuilder::strict`] first.
    pub fn folder_builder(path: impl AsRef<std::path::Path>) -> Result<StoreBuilder, StoreError> {
        let path = path.as_ref();
        let defaults = Defaults::load_folder(path).map_err(StoreError::Invalid)?;
        Ok(Store::folder_builder_of(defaults, path))
    }

    /// [`Store::folder_builder`] of a folder already read as `defaults`.
    fn folder_builder_of(defaults: Defaults, path: &std::path::Path) -> StoreBuilder {
        let mut builder = Store::builder(defaults);
        builder.opening.in_place = Some(path.to_path_buf());
        builder
    }

    /// The sources and compute functions given to the builder that no placeholder of the
    /// registry names (each with the closest name it does use): they are not used. Empty
    /// when every name given is used. See [`Defaults::sources`] for an example.
    pub fn unused_names(&self) -> &Diagnostics {
        &self.reader.unused
    }

    /// The source documents the store's registry names (the defaults' and the user's
    /// placeholders), sorted.
    pub fn sources(&self) -> Vec<String> {
        let state = self.current();
        registry_names(&state.folder, |k| k.source.as_deref())
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    /// The compute functions the store's registry names, sorted.
    pub fn compute_functions(&self) -> Vec<String> {
        let state = self.current();
        registry_names(&state.folder, |k| k.compute_function.as_deref())
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    /// The backup of the old manifest, when [`StoreBuilder::open`] migrated a PromptEngine
    /// folder from its older single-manifest layout, as PromptEngine does (see the README's
    /// store section): `_meta/_backups/pre_migration_YYYYmmdd_HHMMSS.json`.
    pub fn migration_backup(&self) -> Option<&std::path::Path> {
        self.migrated.as_deref()
    }

    /// The state renders read now. The lock is held only to clone the `Arc`.
    pub(crate) fn current(&self) -> Arc<State> {
        self.reader.current()
    }

    pub(crate) fn find<'f>(folder: &'f Folder, id: &str) -> Result<&'f PromptDef, StoreError> {
        Reader::find(folder, id)
    }

    pub(crate) fn unknown_prompt(folder: &Folder, id: &str) -> StoreError {
        Reader::unknown_prompt(folder, id)
    }

    pub(crate) fn unknown_variant(prompt: &PromptDef, variant: &str) -> StoreError {
        Reader::unknown_variant(prompt, variant)
    }
}

/// The renders, PromptEngine's operations: each reads the current state.
impl Store {
    /// Renders previews: the same operations as the store's, each giving what the strict
    /// one gives when every value is there, and otherwise the text with `{{key}}` where a
    /// value is missing, exactly as PromptEngine renders it (its Prompt Editor shows
    /// `{{elapsed_time}}` for a runtime value it has no value for). Static and computed
    /// keys still take their values and registry defaults. A prompt refused when the
    /// store was read, an unknown prompt or variant are errors as in the strict render.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store, StoreError};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {
    /// #         "persona": {"domain": "persona", "order": 1},
    /// #         "time": {"domain": "time", "order": 2}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {
    /// #         "char_name": {"type": "static", "default": "Luna"},
    /// #         "elapsed_time": {"resolve_phase": "runtime"}}}"#),
    /// #     ("persona.json", br#"{"variants": {"default": {"text": "You are {{char_name}}."}}}"#),
    /// #     ("time.json", br#"{"variants": {"default": {"text": "It has been {{elapsed_time}}."}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// // The strict render refuses a prompt without its runtime value ...
    /// assert!(matches!(store.resolve_prompt("time", "default", &[]), Err(StoreError::MissingRuntime { .. })));
    /// // ... the preview shows where it goes.
    /// let preview = store.preview();
    /// assert_eq!(preview.resolve_prompt("time", "default", &[])?, "It has been {{elapsed_time}}.");
    /// assert_eq!(
    ///     preview.build_system_prompt("default", &[])?,
    ///     "You are Luna.\n\nIt has been {{elapsed_time}}."
    /// );
    /// // With every value, a preview is the strict render.
    /// let rt = [("elapsed_time", "2 days")];
    /// assert_eq!(preview.build_system_prompt("default", &rt)?, store.build_system_prompt("default", &rt)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn preview(&self) -> Preview<'_> {
        self.reader.preview()
    }
    /// One prompt's text for `variant` (else its `default` variant), placeholders filled
    /// (static → computed → runtime, the later winning), runs of 3+ newlines made 2, and
    /// stripped. Enabled flags do not matter here; a prompt whose `variant_condition` names
    /// another variant, and a `multi_turn` prompt (whose messages
    /// [`Store::prompt_messages`] gives), render as `""`, as in PromptEngine.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store, StoreError};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"greeting": {"domain": "greeting"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {"user_name": {"type": "static", "default": "friend"}}}"#),
    /// #     ("greeting.json", br#"{"variants": {"default": {"text": "Hello, {{user_name}}!"}, "short": {"text": "Hi {{user_name}}"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// assert_eq!(store.resolve_prompt("greeting", "experimental", &[])?, "Hello, friend!");
    /// assert_eq!(store.resolve_prompt("greeting", "short", &[("user_name", "Alex")])?, "Hi Alex");
    /// assert!(matches!(store.resolve_prompt("greting", "default", &[]), Err(StoreError::UnknownPrompt { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve_prompt(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.reader.resolve_prompt(id, variant, runtime)
    }

    /// The prompts refused when the folder was read, each with its problems (located in
    /// its files, with suggestions), in manifest order. Empty unless the store was opened
    /// prompt by prompt (the default; see [`StoreBuilder::strict`](StoreBuilder::strict)).
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store, StoreError};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a", "order": 1}, "b": {"domain": "b", "order": 2}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {"mood": {"resolve_phase": "runtime"}}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// #     ("b.json", br#"{"variants": {"default": {"text": "B"}}}"#),
    /// # ];
    /// # let user = std::env::temp_dir().join(format!("pk-problems-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&user);
    /// # std::fs::create_dir_all(user.join("_meta")).unwrap();
    /// # std::fs::create_dir_all(user.join("prompts")).unwrap();
    /// // the user saved a misspelt `{{moood}}` into prompt `b`
    /// std::fs::write(user.join("_meta/user_manifest.json"), r#"{"prompts": {"b": {"domain_file": "prompts/b.json"}}}"#)?;
    /// std::fs::write(user.join("prompts/b.json"), r#"{"variants": {"default": {"text": "B {{moood}}"}}}"#)?;
    /// let store = Store::builder(Defaults::from_files("p", files)?).user_dir(&user).open()?;
    /// let problems = store.problems();
    /// assert_eq!(problems[0].0, "b");
    /// assert!(problems[0].1.to_string().contains("did you mean `{{mood}}`?"));
    /// assert!(matches!(store.resolve_prompt("b", "default", &[]), Err(StoreError::Refused { .. })));
    /// assert!(matches!(store.build_system_prompt("default", &[]), Err(StoreError::Refused { .. })));
    /// assert_eq!(store.resolve_prompt("a", "default", &[])?, "A");
    /// // all or nothing, as the defaults and the derive are checked
    /// let strict = Store::builder(Defaults::from_files("p", files)?).user_dir(&user).strict(true).open();
    /// assert!(matches!(strict, Err(StoreError::Invalid(_))));
    /// # let _ = std::fs::remove_dir_all(&user);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn problems(&self) -> Vec<(String, prompt_runtime::Diagnostics)> {
        self.reader.problems()
    }

    /// The system prompt for `variant`, as PromptEngine's `build_system_prompt` builds it:
    /// the enabled text prompts whose target is the system prompt, except those at
    /// position `system_prompt_append` ([`Store::get_system_prompt_append`]) and those of
    /// the categories `summary`, `spec_autofill` and `cortex`; with `requires_any`, only
    /// when one of the listed runtime values is not blank; with a `variant_condition`,
    /// only for that variant. By `order` (ties in manifest order), each rendered as by
    /// [`Store::resolve_prompt`], empty ones dropped, joined with a blank line. Every
    /// missing runtime value is reported at once.
    ///
    /// See [`Store`] for an example.
    pub fn build_system_prompt(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.reader.build_system_prompt(variant, runtime)
    }

    /// [`Store::build_system_prompt`] with PromptEngine's `category_filter`: only the parts
    /// of `category`, which may be one of the categories the plain system prompt leaves
    /// out (`summary`, `spec_autofill`, `cortex`). An empty `category` is no filter.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {
    /// #         "rules": {"domain": "rules", "category": "system", "order": 1},
    /// #         "summarize": {"domain": "summarize", "category": "summary", "order": 2}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("rules.json", br#"{"variants": {"default": {"text": "Be kind."}}}"#),
    /// #     ("summarize.json", br#"{"variants": {"default": {"text": "Summarize the chat."}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "Be kind.");
    /// assert_eq!(store.build_system_prompt_filtered("default", &[], "summary")?, "Summarize the chat.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build_system_prompt_filtered(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
    ) -> Result<String, StoreError> {
        self.reader
            .build_system_prompt_filtered(variant, runtime, category)
    }

    /// PromptEngine's `get_system_prompt_append`: the enabled system-prompt parts at
    /// position `system_prompt_append` (of any category), joined as the system prompt is.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {
    /// #         "rules": {"domain": "rules"},
    /// #         "note": {"domain": "note", "position": "system_prompt_append", "category": "afterthought"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("rules.json", br#"{"variants": {"default": {"text": "Be kind."}}}"#),
    /// #     ("note.json", br#"{"variants": {"default": {"text": "You may add a thought later."}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "Be kind.");
    /// assert_eq!(store.get_system_prompt_append("default", &[])?, "You may add a thought later.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_system_prompt_append(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.reader.get_system_prompt_append(variant, runtime)
    }

    /// PromptEngine's `build_prefill`: the enabled prompts whose target is `prefill`,
    /// except those of the categories `summary` and `spec_autofill`, joined as the system
    /// prompt is.
    pub fn build_prefill(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.reader.build_prefill(variant, runtime)
    }

    /// [`Store::build_prefill`] with PromptEngine's `category_filter`: only the prefill
    /// prompts of `category`. An empty `category` is no filter.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {
    /// #         "remember": {"domain": "remember", "target": "prefill", "category": "prefill"},
    /// #         "summary_start": {"domain": "summary_start", "target": "prefill", "category": "summary"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("remember.json", br#"{"variants": {"default": {"text": "(staying in character)"}}}"#),
    /// #     ("summary_start.json", br#"{"variants": {"default": {"text": "Summary:"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// assert_eq!(store.build_prefill("default", &[])?, "(staying in character)");
    /// assert_eq!(store.build_prefill_filtered("default", &[], "summary")?, "Summary:");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build_prefill_filtered(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
    ) -> Result<String, StoreError> {
        self.reader
            .build_prefill_filtered(variant, runtime, category)
    }

    /// PromptEngine's `get_first_assistant_content`: the enabled message prompts at
    /// position `first_assistant`, joined as the system prompt is.
    pub fn get_first_assistant_content(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.reader.get_first_assistant_content(variant, runtime)
    }

    /// PromptEngine's dialog injections: the messages of the enabled `multi_turn` prompts
    /// of category `dialog_injection` that serve `variant`, by `order`, placeholders
    /// filled (PromptEngine passes these texts on unfilled; promptic renders them, and
    /// drops a message that renders empty).
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # use promptic::{Message, Role};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"example": {"domain": "example", "type": "multi_turn", "target": "message", "category": "dialog_injection"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {"char_name": {"type": "static", "default": "Luna"}}}"#),
    /// #     ("example.json", br#"{"variants": {"experimental": {"messages": [
    /// #         {"role": "user", "content": "Who are you?"}, {"role": "assistant", "content": "I am {{char_name}}."}]}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// let messages = store.get_dialog_injections("experimental", &[])?;
    /// assert_eq!(messages, [
    ///     Message::user("Who are you?").in_section("example"),
    ///     Message::assistant("I am Luna.").in_section("example"),
    /// ]);
    /// assert!(store.get_dialog_injections("default", &[])?.is_empty());
    /// assert_eq!(store.get_consent_dialog("default")?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_dialog_injections(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.reader.get_dialog_injections(variant, runtime)
    }

    /// The messages of one prompt's variant (else its `default` variant): a `multi_turn`
    /// prompt's messages, or a text prompt's text as one message (an assistant message for
    /// a `prefill` target, else a user message). Empty messages are dropped.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # use promptic::Message;
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"example": {"domain": "example", "type": "multi_turn", "target": "message"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("example.json", br#"{"variants": {"default": {"messages": [
    /// #         {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}]}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// assert_eq!(store.prompt_messages("example", "default", &[])?, [
    ///     Message::user("Hi").in_section("example"),
    ///     Message::assistant("Hello!").in_section("example"),
    /// ]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prompt_messages(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.reader.prompt_messages(id, variant, runtime)
    }

    /// PromptEngine's `get_consent_dialog`: the dialog injections for `variant`
    /// ([`Store::get_dialog_injections`] without runtime values), `None` when there are
    /// none.
    pub fn get_consent_dialog(&self, variant: &str) -> Result<Option<Vec<Message>>, StoreError> {
        self.reader.get_consent_dialog(variant)
    }

    /// PromptEngine's `get_chat_message_sequence`: the plan of the chat's messages around
    /// the system prompt, by `order` (ties: message prompts first, each in manifest
    /// order). The enabled message prompts at position `first_assistant` or `history`
    /// (except those of the categories `afterthought`, `utility` and `summary`) and the
    /// enabled prefill prompts (except `summary`), each only for its
    /// `variant_condition`. [`Store::render_chat_message_sequence`] renders messages.
    ///
    /// ```
    /// # use promptic::store::{Defaults, SequenceEntry, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {
    /// #         "history": {"domain": "history", "target": "message", "position": "history", "category": "context", "order": 200},
    /// #         "remember": {"domain": "remember", "target": "prefill", "position": "prefill", "category": "prefill", "order": 100},
    /// #         "title": {"domain": "title", "target": "message", "position": "user_message", "category": "utility"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("history.json", br#"{"variants": {"default": {"text": "The conversation so far."}}}"#),
    /// #     ("remember.json", br#"{"variants": {"default": {"text": "(in character)"}}}"#),
    /// #     ("title.json", br#"{"variants": {"default": {"text": "Give the chat a title."}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// let plan = store.get_chat_message_sequence("default");
    /// assert_eq!(serde_json::to_string(&plan)?,
    ///     r#"[{"id":"remember","position":"prefill","order":100},{"id":"history","position":"history","order":200}]"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_chat_message_sequence(&self, variant: &str) -> Vec<SequenceEntry> {
        self.reader.get_chat_message_sequence(variant)
    }

    /// The whole message sequence for `variant`, rendered: the system prompt as a system
    /// message (when not empty), then, by `order`, every enabled prompt that serves the
    /// variant and is not part of it: `multi_turn` prompts' messages, text prompts
    /// targeting `message` (a user message) or `prefill` (an assistant message).
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # use promptic::Role;
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {
    /// #         "rules": {"domain": "rules"},
    /// #         "reply_start": {"domain": "reply_start", "target": "prefill"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("rules.json", br#"{"variants": {"default": {"text": "Be kind."}}}"#),
    /// #     ("reply_start.json", br#"{"variants": {"default": {"text": "Well,"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// let sequence = store.render_chat_message_sequence("default", &[])?;
    /// let roles: Vec<Role> = sequence.iter().map(|m| m.role).collect();
    /// assert_eq!(roles, [Role::System, Role::Assistant]);
    /// assert_eq!(sequence[0].content, "Be kind.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn render_chat_message_sequence(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.reader.render_chat_message_sequence(variant, runtime)
    }

    /// PromptEngine's `get_prompts_by_target`: the enabled prompts with this target, by
    /// `order`.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store, Target};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {
    /// #         "b": {"domain": "b", "order": 2}, "a": {"domain": "a", "order": 1},
    /// #         "off": {"domain": "off", "enabled": false}, "start": {"domain": "start", "target": "prefill"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// #     ("b.json", br#"{"variants": {"default": {"text": "B"}}}"#),
    /// #     ("off.json", br#"{"variants": {"default": {"text": "Off"}}}"#),
    /// #     ("start.json", br#"{"variants": {"default": {"text": "Well,"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// let ids: Vec<String> = store.get_prompts_by_target(Target::SystemPrompt).into_iter().map(|p| p.id).collect();
    /// assert_eq!(ids, ["a", "b"]);
    /// assert_eq!(store.get_prompts_by_target("prefill")[0].id, "start");
    /// assert!(store.get_prompts_by_target("sidebar").is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// The target is a [`Target`](prompt_runtime::store::Target) or its name, as PromptEngine takes it
    /// (`get_prompts_by_target("prefill")`); a name that is no target lists nothing.
    pub fn get_prompts_by_target(&self, target: impl TargetName) -> Vec<PromptEntry> {
        self.reader.get_prompts_by_target(target)
    }

    /// PromptEngine's `get_prompts_by_category`: every prompt of `category`, enabled or
    /// not, by `order`.
    pub fn get_prompts_by_category(&self, category: &str) -> Vec<PromptEntry> {
        self.reader.get_prompts_by_category(category)
    }

    /// PromptEngine's `get_all_prompts`: every prompt the store has now (the defaults' and
    /// the user's own), in manifest order.
    pub fn get_all_prompts(&self) -> Vec<PromptEntry> {
        self.reader.get_all_prompts()
    }

    /// PromptEngine's `get_current_values`, for an editor's preview: what every static and
    /// computed placeholder resolves to now (computed functions are called), with the
    /// `runtime` values over them, by name. A runtime placeholder without a runtime value
    /// is absent.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {
    /// #         "char_name": {"resolve_phase": "static", "default": "Assistant"},
    /// #         "mood": {"resolve_phase": "runtime", "default": "calm"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// let values = store.get_current_values("default", &[]);
    /// assert_eq!(values.get("char_name").map(String::as_str), Some("Assistant"));
    /// assert_eq!(values.get("mood"), None);
    /// let values = store.get_current_values("default", &[("mood", "cheerful")]);
    /// assert_eq!(values["mood"], "cheerful");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_current_values(
        &self,
        _variant: &str,
        runtime: &[(&str, &str)],
    ) -> BTreeMap<String, String> {
        self.reader.get_current_values(_variant, runtime)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn store_is_send_and_sync() {
        fn both<T: Send + Sync>() {}
        both::<super::Store>();
        both::<prompt_runtime::store::Defaults>();
    }
}
