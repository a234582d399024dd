//! [`Store`]: a checked folder with its values, rendered as PromptEngine renders it, only
//! strictly; and its builder.

use super::atomic::{Faults, no_faults};
use super::error::StoreError;
use super::layout::{Layer, MANIFEST};
use super::parsed::{Folder, Key, Phase, PromptDef};
use super::render::{Computed, Values};
use super::{Defaults, check};
use crate::suggest::closest;
use crate::swap::Swapped;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Builds a [`Store`]: the defaults, the user's folder, the static values and the computed
/// functions. See [`Store::builder`].
pub struct StoreBuilder {
    defaults: Defaults,
    user_dir: Option<PathBuf>,
    statics: Vec<(String, String)>,
    computed: Vec<(String, Computed)>,
    sources: Vec<(String, Arc<serde_json::Value>)>,
    functions: Vec<(String, Computed)>,
    strict: bool,
    /// Set by [`Store::folder_builder`]: the PromptEngine folder read in place.
    in_place: Option<PathBuf>,
    /// Opened only to read and render (the store format, for the CLI's commands): no
    /// folder is changed by the open — no migration of PromptEngine's older layout (which
    /// changes where the folder keeps its prompts, never what it shows), no sweep of a
    /// crashed write's temporary files, no lock file made.
    pub(crate) read_only: bool,
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
        self.strict = strict;
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
        self.user_dir = Some(dir.into());
        self
    }

    /// A static placeholder's value: fixed until the store is rebuilt.
    pub fn static_value(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.statics.push((key.into(), value.into()));
        self
    }

    /// A computed placeholder's function: called on every render that uses the key (once
    /// per render however often the key is used). Wins over a static value.
    pub fn computed(
        mut self,
        key: impl Into<String>,
        f: impl Fn() -> String + Send + Sync + 'static,
    ) -> Self {
        self.computed.push((key.into(), Arc::new(f)));
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
        self.sources.push((name.into(), Arc::new(document)));
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
        self.functions.push((name.into(), Arc::new(f)));
        self
    }

    /// The defaults this builder opens over: their prompts and placeholders, to decide
    /// which values to give before opening.
    pub fn defaults(&self) -> &Defaults {
        &self.defaults
    }

    fn mode(&self) -> check::Mode {
        if self.strict {
            check::Mode::Strict
        } else {
            check::Mode::PerPrompt
        }
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
    pub fn open(mut self) -> Result<Store, StoreError> {
        let mode = self.mode();
        // A user folder that holds PromptEngine's own manifest is a PromptEngine folder:
        // it is read and written as PromptEngine keeps it (as `Store::open_folder`), with
        // the given defaults in the role of its `_defaults/`.
        let mut reset_from = None;
        if self.in_place.is_none()
            && let Some(dir) = &self.user_dir
            && super::layout::is_store_dir(dir)
        {
            reset_from = Some(self.defaults.inner.layer.clone());
            self.in_place = self.user_dir.take();
        }
        let mut migrated = None;
        if let Some(dir) = self.in_place.clone() {
            if self.user_dir.is_some() {
                return Err(StoreError::InPlace {
                    path: dir.to_string_lossy().into_owned(),
                    what: "a user folder (`user_dir`)",
                });
            }
            // A folder promptic wrote before (it has the lock file): a temporary file of
            // a crashed write is removed while no write is under way. A folder promptic
            // never wrote gets no lock file from a read.
            if !self.read_only
                && dir.join(super::folder_lock::LOCK).is_file()
                && let Some(_shared) = super::folder_lock::shared(&dir)
            {
                for sub in ["_meta", "", super::migrate::BACKUPS] {
                    if super::atomic::confine(&dir, sub).is_ok() {
                        super::atomic::sweep(&dir.join(sub));
                    }
                }
            }
            // PromptEngine's one-time migration of its single-manifest layout, against its
            // factory defaults' manifest.
            let ground = match &reset_from {
                Some(layer) => layer.get(MANIFEST).map(|f| f.text().to_owned()),
                None => super::in_place::defaults_file(&dir, MANIFEST),
            };
            if !self.read_only
                && super::migrate::needed(&dir, ground.as_deref())
                && let Some(ground) = &ground
            {
                migrated = super::migrate::run(&dir, ground, &self.faults)?;
            }
            if migrated.is_some() || reset_from.is_some() {
                self.defaults = Defaults::load_folder(&dir).map_err(StoreError::Invalid)?;
            }
            let folder = &self.defaults.inner.folder;
            if self.strict && !folder.broken.is_empty() {
                let mut all = crate::Diagnostics::default();
                for (_, d) in &folder.broken {
                    all.extend(d.clone());
                }
                return Err(StoreError::Invalid(all));
            }
        }
        let (folder, user) = match &self.user_dir {
            // A folder opened in place is its own layer: its edits are written into it.
            None if self.in_place.is_some() => (
                Arc::clone(&self.defaults.inner.folder),
                self.defaults.inner.layer.clone(),
            ),
            None => (
                Arc::clone(&self.defaults.inner.folder),
                Layer::in_memory("(user layer)"),
            ),
            Some(dir) => {
                // Not while another store writes the folder: its files belong together.
                let folder_lock = match self.read_only {
                    true => super::folder_lock::shared_if_there(dir),
                    false => super::folder_lock::shared(dir),
                };
                if folder_lock.is_some() && !self.read_only {
                    // No write is under way: a temporary file here is a crashed write's.
                    for sub in ["_meta", "prompts", ""] {
                        // Never a folder linked out of the user folder: its files are
                        // not the store's to remove.
                        if super::atomic::confine(dir, sub).is_ok() {
                            super::atomic::sweep(&dir.join(sub));
                        }
                    }
                }
                let mut defaults = self.defaults.inner.layer.clone();
                let mut user = Layer::disk(dir, &dir.to_string_lossy());
                let folder = check::build(&mut defaults, Some(&mut user), self.mode())
                    .map_err(StoreError::Invalid)?;
                (Arc::new(folder), user.frozen())
            }
        };
        let mut unknown = Vec::new();
        for key in self
            .statics
            .iter()
            .map(|(k, _)| k)
            .chain(self.computed.iter().map(|(k, _)| k))
        {
            if folder.key(key).is_none() {
                let suggestion =
                    closest(key, folder.keys.iter().map(|k| k.name.as_str())).map(str::to_owned);
                unknown.push((key.clone(), suggestion));
            }
        }
        if !unknown.is_empty() {
            return Err(StoreError::UnknownPlaceholders(unknown));
        }
        // A source or compute function the registry does not name: an application that
        // gives its whole set can open an older folder that uses fewer. Listed (with the
        // closest name the registry uses), or refused when opening all or nothing.
        let mut unused = crate::Diagnostics::default();
        for (what, names, known) in [
            (
                "source",
                self.sources
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>(),
                registry_names(&folder, |k| k.source.as_deref()),
            ),
            (
                "compute function",
                self.functions.iter().map(|(n, _)| n.as_str()).collect(),
                registry_names(&folder, |k| k.compute_function.as_deref()),
            ),
        ] {
            for name in names.iter().filter(|n| !known.contains(n)) {
                let suggestion = closest(name, known.iter().copied()).map(str::to_owned);
                if mode == check::Mode::Strict {
                    return Err(StoreError::UnknownSource {
                        what,
                        name: (*name).to_owned(),
                        suggestion,
                    });
                }
                let diagnostic = crate::Diagnostic::new(format!(
                    "no placeholder of the registry names the {what} `{name}`: it is not used"
                ));
                unused.push(match suggestion {
                    Some(close) => diagnostic.with_help(format!("did you mean `{close}`?")),
                    None if known.is_empty() => {
                        diagnostic.with_help(format!("the registry names no {what}"))
                    }
                    None => diagnostic.with_help(format!(
                        "the registry names the {what}{} {}",
                        if known.len() == 1 { "" } else { "s" },
                        known
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                });
            }
        }
        let given = Given {
            statics: self.statics,
            computed: self.computed,
            sources: self.sources,
            functions: self.functions,
        };
        let state = State::new(folder, user, &given)?;
        Ok(Store {
            defaults: self.defaults.inner.layer.clone(),
            default_folder: Arc::clone(&self.defaults.inner.folder),
            given,
            migrated,
            reset_from,
            state: Swapped::new(state),
            user_dir: self.user_dir,
            writing: Mutex::new(()),
            mode,
            in_place: self.in_place,
            faults: self.faults,
            unused,
        })
    }
}

/// The values given to the builder, by placeholder name: indexed again for every state,
/// since an edit may add or remove a user placeholder.
pub(super) struct Given {
    statics: Vec<(String, String)>,
    computed: Vec<(String, Computed)>,
    /// Source documents by name, for static values.
    sources: Vec<(String, Arc<serde_json::Value>)>,
    /// Computed functions by the registry's `compute_function` name.
    functions: Vec<(String, Computed)>,
}

impl Given {
    /// A static key's value from its source document, as PromptEngine reads it; `None`
    /// when the builder was given no document of that name.
    fn source_value(&self, key: &Key) -> Option<String> {
        let source = key.source.as_deref()?;
        let (_, document) = self.sources.iter().rev().find(|(n, _)| n == source)?;
        let path = key.source_path.as_deref().unwrap_or("");
        let raw = if source == "user_profile" {
            document.get(path)
        } else {
            path.split('.')
                .try_fold(&**document, |value, part| value.as_object()?.get(part))
        };
        Some(match raw {
            None | Some(serde_json::Value::Null) => key.default.clone().unwrap_or_default(),
            Some(serde_json::Value::Array(items)) if key.list => {
                let separator = key.join_separator.as_deref().unwrap_or(", ");
                items
                    .iter()
                    .map(crate::value::python::str_of)
                    .collect::<Vec<_>>()
                    .join(separator)
            }
            Some(value) => crate::value::python::str_of(value),
        })
    }
}

/// What a render reads: one consistent version of the store, swapped whole by an edit.
pub(super) struct State {
    pub folder: Arc<Folder>,
    /// Prompt indexes by `order`, stable: ties keep manifest order.
    pub by_order: Vec<usize>,
    /// The user layer as written (on disk, or in memory only): every file the checks read.
    pub user: Layer,
    /// Per key of `folder`: the static value given to the builder.
    statics: Vec<Option<String>>,
    /// Per key of `folder`: the computed function given to the builder.
    computed: Vec<Option<Computed>>,
    /// The length of the last text an assembly built: the next one's first capacity.
    length_hint: std::sync::atomic::AtomicUsize,
    /// Per key: its value when it is the same in every render (a static value or a
    /// registry `default` with no computed function), unless a runtime value overrides it.
    fixed: Vec<Option<String>>,
    /// Per prompt, per variant: its text with the fixed values merged into the literals
    /// (`None` for messages), rendered when no runtime value names a fixed key.
    baked: Vec<Vec<Option<super::parsed::Text>>>,
    /// Per variant name any prompt has: each prompt's variant rendered for it
    /// ([`PromptDef::variant_index`]); the last entry, named `""`, is for every other name.
    plans: Vec<(String, Vec<Option<usize>>)>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("folder", &self.folder)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

impl State {
    /// The state of `folder`: its values indexed by key. Every static and computed key
    /// needs a value or a registry `default` (all that lack one are listed); a value for
    /// a key the folder no longer has (a removed user placeholder) is unused.
    pub fn new(folder: Arc<Folder>, user: Layer, given: &Given) -> Result<State, StoreError> {
        let n = folder.keys.len();
        let mut statics: Vec<Option<String>> = vec![None; n];
        let mut computed: Vec<Option<Computed>> = vec![None; n];
        for (key, value) in &given.statics {
            if let Some(i) = folder.key(key) {
                statics[i] = Some(value.clone());
            }
        }
        for (i, key) in folder.keys.iter().enumerate() {
            match key.phase {
                Phase::Static if statics[i].is_none() => statics[i] = given.source_value(key),
                Phase::Computed => {
                    computed[i] = key.compute_function.as_deref().and_then(|name| {
                        let (_, f) = given.functions.iter().rev().find(|(n, _)| n == name)?;
                        Some(Arc::clone(f))
                    })
                }
                _ => {}
            }
        }
        for (key, f) in &given.computed {
            if let Some(i) = folder.key(key) {
                computed[i] = Some(Arc::clone(f));
            }
        }
        let missing: Vec<String> = folder
            .keys
            .iter()
            .enumerate()
            .filter(|(i, k)| {
                k.phase != Phase::Runtime
                    && k.default.is_none()
                    && statics[*i].is_none()
                    && computed[*i].is_none()
            })
            .map(|(_, k)| k.name.clone())
            .collect();
        if !missing.is_empty() {
            return Err(StoreError::MissingValues { keys: missing });
        }
        let mut by_order: Vec<usize> = (0..folder.prompts.len()).collect();
        by_order.sort_by_key(|&i| folder.prompts[i].order);
        let fixed: Vec<Option<String>> = folder
            .keys
            .iter()
            .enumerate()
            .map(|(i, k)| match k.phase {
                Phase::Runtime => None,
                _ if computed[i].is_some() => None,
                _ => statics[i].clone().or_else(|| k.default.clone()),
            })
            .collect();
        let baked = folder
            .prompts
            .iter()
            .map(|p| {
                p.variants
                    .iter()
                    .map(|v| match &v.body {
                        super::parsed::Body::Text(t) => Some(t.baked(&fixed)),
                        super::parsed::Body::Messages(_) => None,
                    })
                    .collect()
            })
            .collect();
        let mut names: Vec<&str> = folder
            .prompts
            .iter()
            .flat_map(|p| p.variants.iter().map(|v| v.name.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        let plan = |name: &str| -> Vec<Option<usize>> {
            folder
                .prompts
                .iter()
                .map(|p| p.variant_index(name))
                .collect()
        };
        let mut plans: Vec<(String, Vec<Option<usize>>)> =
            names.iter().map(|n| ((*n).to_owned(), plan(n))).collect();
        // A name no prompt has: `default` everywhere (the empty name is no variant name).
        plans.push((String::new(), plan("")));
        Ok(State {
            folder,
            by_order,
            user,
            statics,
            computed,
            length_hint: std::sync::atomic::AtomicUsize::new(0),
            fixed,
            baked,
            plans,
        })
    }

    /// Each prompt's variant rendered for `variant`, by prompt index.
    pub(super) fn plan(&self, variant: &str) -> &[Option<usize>] {
        let found = self.plans[..self.plans.len() - 1]
            .binary_search_by(|(n, _)| n.as_str().cmp(variant))
            .unwrap_or(self.plans.len() - 1);
        &self.plans[found].1
    }

    /// Whether a render with these runtime values may use the baked texts: none of them
    /// overrides a fixed value.
    pub(super) fn bakeable(&self, runtime: &[(&str, &str)]) -> bool {
        runtime.iter().all(|(name, _)| {
            self.folder
                .key(name)
                .is_none_or(|i| self.fixed[i].is_none())
        })
    }

    /// Prompt `prompt`'s text of variant `variant` with the fixed values merged in.
    pub(super) fn baked(&self, prompt: usize, variant: usize) -> Option<&super::parsed::Text> {
        self.baked.get(prompt)?.get(variant)?.as_ref()
    }

    pub(super) fn length_hint(&self) -> usize {
        // Bounded, so that one huge render does not make every later one allocate as much.
        self.length_hint
            .load(std::sync::atomic::Ordering::Relaxed)
            .min(1 << 20)
    }

    pub(super) fn note_length(&self, len: usize) {
        self.length_hint
            .store(len, std::sync::atomic::Ordering::Relaxed);
    }

    pub(super) fn values<'a>(&'a self, runtime: &'a [(&'a str, &'a str)]) -> Values<'a> {
        Values::new(&self.folder.keys, &self.statics, &self.computed, runtime)
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
    /// The defaults' files, in memory: every edit is checked over them.
    pub(super) defaults: Layer,
    /// The defaults' prompts alone: which prompts have a default.
    pub(super) default_folder: Arc<Folder>,
    /// The static values and computed functions, by name.
    pub(super) given: Given,
    /// The backup written when `open` upgraded an older user folder.
    migrated: Option<PathBuf>,
    /// The current state; a render clones the `Arc` and lets go of the lock at once.
    pub(super) state: Swapped<State>,
    /// Where the user layer is written; `None` keeps edits in memory.
    pub(super) user_dir: Option<PathBuf>,
    /// Held by an edit from reading the state to swapping in the new one.
    pub(super) writing: Mutex<()>,
    /// Whether a prompt's problems refuse the folder or only that prompt.
    pub(super) mode: check::Mode,
    /// The PromptEngine folder read in place ([`Store::open_folder`]).
    pub(super) in_place: Option<PathBuf>,
    /// For a PromptEngine folder given as a user folder: the given defaults, its factory
    /// defaults (reset source) in place of its `_defaults/`.
    pub(super) reset_from: Option<Layer>,
    pub(super) faults: Faults,
    /// The sources and compute functions given to the builder that the registry does not
    /// name.
    unused: crate::Diagnostics,
}

/// The names the registry's placeholders give in one field (`source`,
/// `compute_function`), sorted, each once.
pub(super) fn registry_names<'f>(
    folder: &'f Folder,
    field: impl Fn(&'f Key) -> Option<&'f str>,
) -> Vec<&'f str> {
    let mut names: Vec<&str> = folder.keys.iter().filter_map(field).collect();
    names.sort_unstable();
    names.dedup();
    names
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
            defaults,
            user_dir: None,
            statics: Vec::new(),
            computed: Vec::new(),
            sources: Vec::new(),
            functions: Vec::new(),
            strict: false,
            in_place: None,
            read_only: false,
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
    pub(crate) fn folder_builder_of(defaults: Defaults, path: &std::path::Path) -> StoreBuilder {
        let mut builder = Store::builder(defaults);
        builder.in_place = Some(path.to_path_buf());
        builder
    }

    /// The sources and compute functions given to the builder that no placeholder of the
    /// registry names (each with the closest name it does use): they are not used. Empty
    /// when every name given is used. See [`Defaults::sources`] for an example.
    pub fn unused_names(&self) -> &crate::Diagnostics {
        &self.unused
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
    pub(super) fn current(&self) -> Arc<State> {
        self.state.current()
    }

    pub(super) fn find<'f>(folder: &'f Folder, id: &str) -> Result<&'f PromptDef, StoreError> {
        match folder.prompt(id) {
            Some(i) => Ok(&folder.prompts[i]),
            None => Err(Self::unknown_prompt(folder, id)),
        }
    }

    pub(super) fn unknown_prompt(folder: &Folder, id: &str) -> StoreError {
        StoreError::UnknownPrompt {
            id: id.to_owned(),
            suggestion: closest(id, folder.prompts.iter().map(|p| p.id.as_str()))
                .map(str::to_owned),
        }
    }

    pub(super) fn unknown_variant(prompt: &PromptDef, variant: &str) -> StoreError {
        StoreError::UnknownVariant {
            id: prompt.id.clone(),
            variant: variant.to_owned(),
            suggestion: closest(variant, prompt.variant_names()).map(str::to_owned),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn store_is_send_and_sync() {
        fn both<T: Send + Sync>() {}
        both::<super::Store>();
        both::<super::Defaults>();
    }
}
