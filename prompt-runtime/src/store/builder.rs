//! [`Store`]: a checked folder with its values, rendered as PromptEngine renders it, only
//! strictly; and its builder.

use super::atomic::{Faults, no_faults};
use super::error::StoreError;
use super::layout::Layer;
use super::parsed::{Body, Folder, Phase, PromptDef, Target};
use super::render::{Computed, Values, render, tidy_into};
use super::{Defaults, check};
use crate::chat::Message;
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
    faults: Faults,
}

impl StoreBuilder {
    /// The user's folder: its `_meta/user_manifest.json` and
    /// `_meta/user_placeholder_registry.json` are read (when they exist) over the
    /// defaults, and [`Store::set_enabled`] writes its user manifest.
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

    /// Makes steps of the store's writes fail, for the failure-injection tests.
    #[cfg(test)]
    pub(crate) fn faults(mut self, faults: Faults) -> Self {
        self.faults = faults;
        self
    }

    /// Reads the user folder, checks it, and checks that every static and computed
    /// placeholder has a value or a registry `default` (listing all that do not).
    ///
    /// A user folder in an older layout (a PromptEngine folder with a single
    /// `_meta/prompt_manifest.json` and no user manifest) is upgraded first, keeping every
    /// customization, with a backup of the old manifest written before anything else (see
    /// [`Store::migration_backup`]); an upgrade that fails its checks writes nothing. The
    /// temporary files of a write that crashed before its rename are removed.
    pub fn open(self) -> Result<Store, StoreError> {
        let mut migrated = None;
        let (folder, user) = match &self.user_dir {
            None => (
                Arc::clone(&self.defaults.inner.folder),
                Layer::in_memory("(user layer)"),
            ),
            Some(dir) => {
                // An older layout is upgraded first (under the exclusive lock).
                if super::migrate::needed(dir) {
                    migrated = super::migrate::run(dir, &self.defaults.inner.layer, &self.faults)?;
                }
                // Not while another store writes the folder: its files belong together.
                let folder_lock = super::folder_lock::shared(dir);
                if folder_lock.is_some() {
                    // No write is under way: a temporary file here is a crashed write's.
                    for sub in ["_meta", "prompts", "", super::migrate::BACKUPS] {
                        // Never a folder linked out of the user folder: its files are
                        // not the store's to remove.
                        if super::atomic::confine(dir, sub).is_ok() {
                            super::atomic::sweep(&dir.join(sub));
                        }
                    }
                }
                let mut defaults = self.defaults.inner.layer.clone();
                let mut user = Layer::disk(dir, &dir.to_string_lossy());
                let folder =
                    check::build(&mut defaults, Some(&mut user)).map_err(StoreError::Invalid)?;
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
        let given = Given {
            statics: self.statics,
            computed: self.computed,
        };
        let state = State::new(folder, user, &given)?;
        Ok(Store {
            defaults: self.defaults.inner.layer.clone(),
            default_folder: Arc::clone(&self.defaults.inner.folder),
            given,
            migrated,
            state: Swapped::new(state),
            user_dir: self.user_dir,
            writing: Mutex::new(()),
            faults: self.faults,
        })
    }
}

/// The values given to the builder, by placeholder name: indexed again for every state,
/// since an edit may add or remove a user placeholder.
pub(super) struct Given {
    statics: Vec<(String, String)>,
    computed: Vec<(String, Computed)>,
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
        Ok(State {
            folder,
            by_order,
            user,
            statics,
            computed,
        })
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
/// use prompt_runtime::store::{Defaults, Store};
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
///   advisory lock on `_meta/.promptkit.lock` (`flock`, `LockFileEx`) and reads the folder
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
    pub(super) faults: Faults,
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
            faults: no_faults(),
        }
    }

    /// The backup of the old manifest, when [`StoreBuilder::open`] upgraded the user
    /// folder from an older layout (a PromptEngine folder with a single manifest; see the
    /// README's store section): `_meta/_backups/pre_migration_YYYYmmdd_HHMMSS.json`.
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

    /// One prompt's text for `variant` (else its `default` variant), placeholders filled
    /// (static → computed → runtime, the later winning), runs of 3+ newlines made 2, and
    /// stripped. Enabled flags do not matter here.
    ///
    /// ```
    /// # use prompt_runtime::store::{Defaults, Store, StoreError};
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
        let state = self.current();
        let prompt = Self::find(&state.folder, id)?;
        let chosen = prompt
            .variant(variant)
            .ok_or_else(|| Self::unknown_variant(prompt, variant))?;
        let Body::Text(text) = &chosen.body else {
            return Err(StoreError::NotText { id: id.to_owned() });
        };
        let mut values = state.values(runtime);
        let mut raw = String::new();
        let mut missing = Vec::new();
        render(text, &mut values, &mut raw, &mut missing);
        Self::refuse_missing(&state.folder, &missing, vec![id.to_owned()])?;
        let mut out = String::with_capacity(raw.len());
        tidy_into(&raw, &mut out);
        Ok(out)
    }

    fn refuse_missing(
        folder: &Folder,
        missing: &[usize],
        prompts: Vec<String>,
    ) -> Result<(), StoreError> {
        if missing.is_empty() {
            return Ok(());
        }
        Err(StoreError::MissingRuntime {
            keys: missing
                .iter()
                .map(|&i| folder.keys[i].name.clone())
                .collect(),
            prompts,
        })
    }

    /// Whether prompt `index` is used for `variant` now: it and the variant are enabled,
    /// and, with `requires_any`, one of the listed runtime values is not empty.
    fn used(folder: &Folder, index: usize, variant: &str, runtime: &[(&str, &str)]) -> bool {
        let prompt = &folder.prompts[index];
        prompt.enabled
            && PromptDef::variant_is_enabled(&prompt.variant_enabled, variant)
            && (prompt.requires_any.is_empty()
                || prompt.requires_any.iter().any(|&k| {
                    let name = folder.keys[k].name.as_str();
                    runtime.iter().any(|(n, v)| *n == name && !v.is_empty())
                }))
    }

    /// The system prompt for `variant`: the text prompts whose target is the system prompt
    /// and that are enabled for the variant, by `order` (ties in manifest order), each
    /// rendered as by [`Store::resolve_prompt`], empty ones dropped, joined with a blank
    /// line. Every missing runtime value is reported at once.
    ///
    /// See [`Store`] for an example.
    pub fn build_system_prompt(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        let state = self.current();
        let folder = &state.folder;
        let mut values = state.values(runtime);
        let mut out = String::new();
        let mut scratch = String::new();
        let mut missing = Vec::new();
        let mut users = Vec::new();
        for &i in &state.by_order {
            let prompt = &folder.prompts[i];
            if prompt.target != Target::SystemPrompt || !Self::used(folder, i, variant, runtime) {
                continue;
            }
            let Some(Body::Text(text)) = prompt.variant(variant).map(|v| &v.body) else {
                continue;
            };
            scratch.clear();
            let before = missing.len();
            render(text, &mut values, &mut scratch, &mut missing);
            if missing.len() > before {
                users.push(prompt.id.clone());
            }
            let at = out.len();
            if at > 0 {
                out.push_str("\n\n");
            }
            if !tidy_into(&scratch, &mut out) {
                out.truncate(at);
            }
        }
        Self::refuse_missing(folder, &missing, users)?;
        Ok(out)
    }

    /// The messages of one prompt's variant: a text prompt gives one message (a user
    /// message, an assistant one for a `prefill` target), a `multi_turn` prompt its
    /// messages. Empty messages are dropped.
    fn messages(
        &self,
        prompt: &PromptDef,
        variant: &str,
        values: &mut Values<'_>,
        out: &mut Vec<Message>,
        missing: &mut Vec<usize>,
    ) {
        let Some(chosen) = prompt.variant(variant) else {
            return;
        };
        let mut push = |role, text, missing: &mut Vec<usize>, values: &mut Values<'_>| {
            let mut raw = String::new();
            render(text, values, &mut raw, missing);
            let mut content = String::with_capacity(raw.len());
            if tidy_into(&raw, &mut content) {
                out.push(Message::new(role, content).in_section(prompt.id.clone()));
            }
        };
        match &chosen.body {
            Body::Text(text) => {
                let role = if prompt.target == Target::Prefill {
                    crate::Role::Assistant
                } else {
                    crate::Role::User
                };
                push(role, text, missing, values);
            }
            Body::Messages(messages) => {
                for (role, text) in messages {
                    push(*role, text, missing, values);
                }
            }
        }
    }

    fn sequence(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        take: impl Fn(&PromptDef) -> bool,
    ) -> Result<Vec<Message>, StoreError> {
        let state = self.current();
        let folder = &state.folder;
        let mut values = state.values(runtime);
        let mut out = Vec::new();
        let mut missing = Vec::new();
        let mut users = Vec::new();
        for &i in &state.by_order {
            let prompt = &folder.prompts[i];
            if !take(prompt) || !Self::used(folder, i, variant, runtime) {
                continue;
            }
            let before = missing.len();
            self.messages(prompt, variant, &mut values, &mut out, &mut missing);
            if missing.len() > before {
                users.push(prompt.id.clone());
            }
        }
        Self::refuse_missing(folder, &missing, users)?;
        Ok(out)
    }

    /// PromptEngine's dialog injections: the messages of the enabled `multi_turn` prompts
    /// (example exchanges), by `order`.
    ///
    /// ```
    /// # use prompt_runtime::store::{Defaults, Store};
    /// # use prompt_runtime::{Message, Role};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"example": {"domain": "example", "type": "multi_turn", "target": "message"}}}"#),
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
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_dialog_injections(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.sequence(variant, runtime, |p| p.multi_turn)
    }

    /// The whole message sequence for `variant`: the system prompt as a system message
    /// (when not empty), then, by `order`, every enabled prompt that is not part of it:
    /// `multi_turn` prompts' messages, text prompts targeting `message` (a user message) or
    /// `prefill` (an assistant message).
    ///
    /// ```
    /// # use prompt_runtime::store::{Defaults, Store};
    /// # use prompt_runtime::Role;
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {
    /// #         "rules": {"domain": "rules"},
    /// #         "reply_start": {"domain": "reply_start", "target": "prefill"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("rules.json", br#"{"variants": {"default": {"text": "Be kind."}}}"#),
    /// #     ("reply_start.json", br#"{"variants": {"default": {"text": "Well,"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// let sequence = store.get_chat_message_sequence("default", &[])?;
    /// let roles: Vec<Role> = sequence.iter().map(|m| m.role).collect();
    /// assert_eq!(roles, [Role::System, Role::Assistant]);
    /// assert_eq!(sequence[0].content, "Be kind.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_chat_message_sequence(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        let system = self.build_system_prompt(variant, runtime)?;
        let mut out = Vec::new();
        if !system.is_empty() {
            out.push(Message::system(system).in_section("system_prompt"));
        }
        out.extend(self.sequence(variant, runtime, |p| {
            p.multi_turn || p.target != Target::SystemPrompt
        })?);
        Ok(out)
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
