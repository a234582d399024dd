//! Changing a store while it is in use: every edit is a [`Change`] to the user layer's
//! files as they are on disk now (read again under the folder's lock), checked over the
//! defaults by the same checks as a fresh open, then written (atomically, the commit
//! point last) and swapped in whole.
//!
//! The user layer is the user folder's `_meta/user_manifest.json` and one domain file per
//! edited prompt, `prompts/<id>.json`: a copy of the prompt's domain file with the edited
//! variant's text, named by the prompt's user manifest entry. A new file gets a name no
//! other prompt's file has (see `file_name`), so an edit of one prompt never writes into
//! another's file. Every write stays inside the user folder (`atomic::confine`): a link
//! on the way that leads out is refused, and nothing is written. The defaults are never
//! written.

use crate::atomic::{self, Faults, WriteError};
use crate::builder::Store;
use crate::file_name::fresh_domain_file;
#[cfg(feature = "archive")]
pub(super) use crate::file_name::user_domain_file;
use crate::folder_lock;
use crate::persist::{remove_path, set_path, set_paths};
use prompt_runtime::__internal::object_entries;
use prompt_runtime::diagnostic::Repeats;
use prompt_runtime::parse::lexer::{Syntax, Token, is_name};
use prompt_runtime::store::StoreError;
use prompt_runtime::store::check;
use prompt_runtime::store::json::is_word;
use prompt_runtime::store::layout::{Layer, USER_MANIFEST, USER_REGISTRY};
use prompt_runtime::store::parsed::{Folder, PromptDef};
use prompt_runtime::store::reader::State;
use prompt_runtime::suggest::closest;
use prompt_runtime::{Diagnostic, Diagnostics, SourceFile};
use std::path::Path;
use std::sync::Arc;

/// What an edit does to the user layer's files.
#[derive(Default)]
pub(super) struct Change {
    /// Files written (`Some`) or removed (`None`), in order. Every one but the last is a
    /// file nothing names yet; the last one is the commit point.
    pub writes: Vec<(String, Option<String>)>,
    /// Files nothing names any more once the commit is written: removed after it, and a
    /// failure to remove one changes nothing a store reads.
    pub cleanup: Vec<String>,
}

impl Store {
    /// Replaces the text of variant `variant` of prompt `id` (in the user layer: the
    /// defaults are never modified). The text is checked first: a `{{key}}` the registry
    /// lacks is refused with its line and column in `text` and a suggestion, and then
    /// nothing changes, in memory or on disk. The next render uses the new text.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"system_rule": {"domain": "system_rule"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {"char_name": {"type": "static", "default": "Luna"}}}"#),
    /// #     ("system_rule.json", br#"{"id": "system_rule", "variants": {"default": {"text": "You are {{char_name}}."}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// let e = store.update_prompt("system_rule", "default", "Be kind.\nYou are {{char_nmae}}.").unwrap_err();
    /// assert_eq!(e.to_string(), "error: unknown placeholder `{{char_nmae}}` in the new text of variant `default` of prompt `system_rule`
    ///  --> system_rule/default (edit):2:9
    ///   |
    /// 2 | You are {{char_nmae}}.
    ///   |         ^^^^^^^^^^^^^
    ///   = help: did you mean `{{char_name}}`?");
    /// assert_eq!(store.resolve_prompt("system_rule", "default", &[])?, "You are Luna.");
    ///
    /// store.update_prompt("system_rule", "default", "You are {{char_name}}, always.")?;
    /// assert_eq!(store.resolve_prompt("system_rule", "default", &[])?, "You are Luna, always.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn update_prompt(&self, id: &str, variant: &str, text: &str) -> Result<(), StoreError> {
        self.commit(|store, state| {
            if store.in_place.is_some() {
                return crate::in_place::update(state, id, variant, text);
            }
            let prompt = Store::find(&state.folder, id)?;
            if prompt.multi_turn {
                return Err(StoreError::NotText { id: id.to_owned() });
            }
            // A refused prompt may have lost its variants to its problems: any variant
            // name may be written to fix it.
            if !prompt.broken && !prompt.variant_names().any(|v| v == variant) {
                return Err(Store::unknown_variant(prompt, variant));
            }
            check_text(&state.folder, id, variant, text)?;
            let (rel, layer) = &prompt.domain;
            let source = if *layer == 1 {
                state.user.get(rel)
            } else {
                store.defaults.get(rel)
            };
            let source = source.map(SourceFile::text).unwrap_or_default();
            let domain = with_text(source, id, variant, text)?;
            store.write_domain(state, prompt, domain)
        })
    }

    /// Adds a prompt of the user's own: a text prompt with a `default` variant, for the
    /// system prompt, after the others (`order` 9999). `text` is checked as by
    /// [`Store::update_prompt`]; an id that is taken or not a name is refused.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// store.create_prompt("mine", "Mine.")?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "A\n\nMine.");
    /// assert!(store.create_prompt("a", "again").is_err());
    /// store.delete_prompt("mine")?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "A");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn create_prompt(&self, id: &str, text: &str) -> Result<(), StoreError> {
        self.commit(|store, state| {
            if !is_word(id) {
                return Err(StoreError::BadPromptId { id: id.to_owned() });
            }
            if state.folder.prompt(id).is_some() {
                return Err(StoreError::PromptExists { id: id.to_owned() });
            }
            if store.in_place.is_some() {
                return crate::in_place::create(state, id, text);
            }
            check_text(&state.folder, id, "default", text)?;
            let rel = fresh_domain_file(&state.folder, id);
            let domain = format!(
                "{{\n  \"id\": {},\n  \"variants\": {{\n    \"default\": {{\n      \"text\": {}\n    }}\n  }}\n}}\n",
                json_string(id)?,
                json_string(text)?
            );
            let manifest = manifest_with(state, &["prompts", id, "domain"], &json_string(&rel)?)?;
            Ok(Change {
                writes: vec![(rel, Some(domain)), (USER_MANIFEST.to_owned(), Some(manifest))],
                cleanup: Vec::new(),
            })
        })
    }

    /// Removes a prompt of the user's own (one [`Store::create_prompt`] made, or the user
    /// manifest adds); a prompt of the defaults is refused (see
    /// [`Store::reset_prompt_to_default`]).
    pub fn delete_prompt(&self, id: &str) -> Result<(), StoreError> {
        self.commit(|store, state| {
            if store.in_place.is_some() {
                return crate::in_place::delete(state, id);
            }
            let prompt = Store::find(&state.folder, id)?;
            if store.default_folder.prompt(id).is_some() {
                return Err(StoreError::NotUserPrompt { id: id.to_owned() });
            }
            store.drop_entry(state, prompt)
        })
    }

    /// Undoes every user change to prompt `id`: its edited texts and its enabled flags.
    /// A prompt of the user's own has no default and is refused (see
    /// [`Store::delete_prompt`]).
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// store.update_prompt("a", "default", "Changed.")?;
    /// store.set_enabled("a", "default", false)?;
    /// store.reset_prompt_to_default("a")?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "A");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reset_prompt_to_default(&self, id: &str) -> Result<(), StoreError> {
        self.commit(|store, state| {
            if store.in_place.is_some() {
                return crate::in_place::reset(store, state, id);
            }
            let prompt = Store::find(&state.folder, id)?;
            if store.default_folder.prompt(id).is_none() {
                return Err(StoreError::NoDefault { id: id.to_owned() });
            }
            store.drop_entry(state, prompt)
        })
    }

    /// Undoes every user change: the user manifest (edits, enabled flags, orders, the
    /// user's own prompts) is emptied, then the domain files it named and the user
    /// placeholder registry are removed. A crash after the manifest is removed can leave those files
    /// behind; no prompt uses them then, and the next factory reset removes them.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a"}, "b": {"domain": "b"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// #     ("b.json", br#"{"variants": {"default": {"text": "B"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// store.update_prompt("a", "default", "Changed.")?;
    /// store.set_enabled("b", "default", false)?;
    /// store.create_prompt("mine", "Mine.")?;
    /// store.factory_reset()?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "A\n\nB");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn factory_reset(&self) -> Result<(), StoreError> {
        self.commit(|store, state| {
            if store.in_place.is_some() {
                return crate::in_place::factory_reset(store);
            }
            let cleanup = state
                .folder
                .prompts
                .iter()
                .filter(|p| p.domain.1 == 1)
                .map(|p| p.domain.0.clone())
                .chain([USER_REGISTRY.to_owned()])
                .collect();
            // An empty user manifest, not none: a folder without one that holds an old
            // single manifest would be migrated again at the next open.
            Ok(Change {
                writes: vec![(USER_MANIFEST.to_owned(), Some(EMPTY_MANIFEST.to_owned()))],
                cleanup,
            })
        })
    }

    /// Turns variant `variant` of prompt `id` on or off for [`Store::build_system_prompt`]
    /// and the message sequences, and writes it to the user manifest of the
    /// [`user_dir`](crate::StoreBuilder::user_dir) (a store without one keeps it in
    /// memory). The rest of the user manifest is kept as written.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a"}, "b": {"domain": "b"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// #     ("b.json", br#"{"variants": {"default": {"text": "B"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// store.set_enabled("a", "default", false)?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "B");
    /// assert_eq!(store.resolve_prompt("a", "default", &[])?, "A");
    /// assert!(store.set_enabled("a", "defualt", true).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_enabled(&self, id: &str, variant: &str, enabled: bool) -> Result<(), StoreError> {
        self.commit(|store, state| {
            if store.in_place.is_some() {
                return crate::in_place::set_enabled(state, id, variant, enabled);
            }
            let prompt = Store::find(&state.folder, id)?;
            if !prompt.variant_names().any(|v| v == variant) {
                return Err(Store::unknown_variant(prompt, variant));
            }
            let on = if enabled { "true" } else { "false" };
            let manifest =
                manifest_with(state, &["prompts", id, "variants", variant, "enabled"], on)?;
            Ok(Change {
                writes: vec![(USER_MANIFEST.to_owned(), Some(manifest))],
                cleanup: Vec::new(),
            })
        })
    }

    /// Puts prompts in a new order: the prompts listed come first, in the order given,
    /// then every other prompt in its order now. Each prompt's `order` is written to the
    /// user manifest (10, 20, 30, …), so [`Store::build_system_prompt`] and the message
    /// sequences follow it; [`Store::reset_prompt_to_default`] gives a prompt its
    /// default order back. An unknown id (with a suggestion) or an id listed twice is
    /// refused, and then nothing changes.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a", "order": 1}, "b": {"domain": "b", "order": 2}, "c": {"domain": "c", "order": 3}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// #     ("b.json", br#"{"variants": {"default": {"text": "B"}}}"#),
    /// #     ("c.json", br#"{"variants": {"default": {"text": "C"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// store.reorder_prompts(&["c", "a"])?;
    /// assert_eq!(store.build_system_prompt("default", &[])?, "C\n\nA\n\nB");
    /// assert!(store.reorder_prompts(&["c", "x"]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reorder_prompts(&self, ids: &[&str]) -> Result<(), StoreError> {
        self.commit(|store, state| {
            let folder = &state.folder;
            let mut sequence: Vec<usize> = Vec::with_capacity(folder.prompts.len());
            let mut placed = vec![false; folder.prompts.len()];
            for id in ids {
                let i = folder
                    .prompt(id)
                    .ok_or_else(|| Store::unknown_prompt(folder, id))?;
                if std::mem::replace(&mut placed[i], true) {
                    return Err(StoreError::DuplicateInOrder {
                        id: (*id).to_owned(),
                    });
                }
                sequence.push(i);
            }
            sequence.extend(state.by_order.iter().copied().filter(|&i| !placed[i]));
            let orders: Vec<([&str; 3], String)> = sequence
                .iter()
                .enumerate()
                .map(|(n, &i)| {
                    let path = ["prompts", folder.prompts[i].id.as_str(), "order"];
                    (path, ((n + 1) * 10).to_string())
                })
                .collect();
            if store.in_place.is_some() {
                let orders: Vec<(String, String)> = orders
                    .iter()
                    .map(|(path, order)| (path[1].to_owned(), order.clone()))
                    .collect();
                return crate::in_place::reorder(state, &orders);
            }
            let edits: Vec<(&[&str], &str)> = orders
                .iter()
                .map(|(path, order)| (&path[..], order.as_str()))
                .collect();
            let manifest = set_paths(user_manifest(state), &edits, 0)
                .map_err(write_error(&state.user, USER_MANIFEST))?;
            Ok(Change {
                writes: vec![(USER_MANIFEST.to_owned(), Some(format!("{manifest}\n")))],
                cleanup: Vec::new(),
            })
        })
    }

    /// Adds a placeholder of the user's own: `{{key}}`, a static value, written to the
    /// user folder's `_meta/user_placeholder_registry.json` with `value` as its
    /// `default`. Texts may use it from the next edit on. A key the registry has, or one
    /// that is not a name, is refused.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// # ];
    /// let store = Store::builder(Defaults::from_files("p", files)?).open()?;
    /// assert!(store.update_prompt("a", "default", "Hi {{nickname}}").is_err());
    /// store.add_placeholder("nickname", "Lu")?;
    /// store.update_prompt("a", "default", "Hi {{nickname}}")?;
    /// assert_eq!(store.resolve_prompt("a", "default", &[])?, "Hi Lu");
    /// // in use: refused until no text uses it
    /// assert!(store.remove_placeholder("nickname").is_err());
    /// store.reset_prompt_to_default("a")?;
    /// store.remove_placeholder("nickname")?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_placeholder(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.commit(|_, state| {
            if !is_name(key) {
                return Err(StoreError::BadPlaceholder {
                    key: key.to_owned(),
                });
            }
            if state.folder.key(key).is_some() {
                return Err(StoreError::PlaceholderExists {
                    key: key.to_owned(),
                    user: user_placeholders(state).iter().any(|k| k == key),
                });
            }
            let entry = format!(
                "{{\"resolve_phase\": \"static\", \"type\": \"string\", \"default\": {}}}",
                json_string(value)?
            );
            let registry = registry_with(state, Some(&entry), key)?;
            Ok(Change {
                writes: vec![(USER_REGISTRY.to_owned(), Some(registry))],
                cleanup: Vec::new(),
            })
        })
    }

    /// Removes a placeholder of the user's own (one [`Store::add_placeholder`] added, or
    /// the user registry holds). One of the defaults' placeholders, or one that a prompt
    /// still uses (in a text or its `requires_any`), is refused, naming the prompts.
    pub fn remove_placeholder(&self, key: &str) -> Result<(), StoreError> {
        self.commit(|_, state| {
            let mine = user_placeholders(state);
            if !mine.iter().any(|k| k == key) {
                return Err(StoreError::NotUserPlaceholder {
                    key: key.to_owned(),
                    suggestion: closest(key, mine.iter().map(String::as_str)).map(str::to_owned),
                });
            }
            if let Some(index) = state.folder.key(key) {
                let users: Vec<String> = state
                    .folder
                    .prompts
                    .iter()
                    .filter(|p| p.uses_key(index))
                    .map(|p| p.id.clone())
                    .collect();
                if !users.is_empty() {
                    return Err(StoreError::PlaceholderInUse {
                        key: key.to_owned(),
                        prompts: users,
                    });
                }
            }
            let registry = registry_with(state, None, key)?;
            Ok(Change {
                writes: vec![(USER_REGISTRY.to_owned(), Some(registry))],
                cleanup: Vec::new(),
            })
        })
    }

    /// The placeholders of the user's own: the user registry's keys, in its order.
    pub fn user_placeholders(&self) -> Vec<String> {
        user_placeholders(&self.current())
    }

    /// Whether variant `variant` of prompt `id` is used now (the prompt and the variant
    /// enabled; `requires_any` aside), `None` for an unknown id.
    pub fn is_enabled(&self, id: &str, variant: &str) -> Option<bool> {
        let state = self.current();
        let prompt = &state.folder.prompts[state.folder.prompt(id)?];
        Some(prompt.enabled && PromptDef::variant_is_enabled(&prompt.variant_enabled, variant))
    }

    /// The change that writes `domain` as prompt `prompt`'s user domain file: in place
    /// when the user manifest already names one, else as `prompts/<id>.json`, then the
    /// manifest naming it.
    fn write_domain(
        &self,
        state: &State,
        prompt: &PromptDef,
        domain: String,
    ) -> Result<Change, StoreError> {
        let (rel, layer) = &prompt.domain;
        if *layer == 1 {
            return Ok(Change {
                writes: vec![(rel.clone(), Some(domain))],
                cleanup: Vec::new(),
            });
        }
        // Never a file another prompt of the user layer names: it would lose its text.
        let rel = fresh_domain_file(&state.folder, &prompt.id);
        let manifest = manifest_with(
            state,
            &["prompts", &prompt.id, "domain"],
            &json_string(&rel)?,
        )?;
        Ok(Change {
            writes: vec![
                (rel, Some(domain)),
                (USER_MANIFEST.to_owned(), Some(manifest)),
            ],
            cleanup: Vec::new(),
        })
    }

    /// The change that removes prompt `prompt`'s user manifest entry, then its user domain
    /// file.
    fn drop_entry(&self, state: &State, prompt: &PromptDef) -> Result<Change, StoreError> {
        let fail = write_error(&state.user, USER_MANIFEST);
        let old = state
            .user
            .get(USER_MANIFEST)
            .map(SourceFile::text)
            .unwrap_or_default();
        let new = remove_path(old, &["prompts", &prompt.id], 0).map_err(fail)?;
        let mut change = Change::default();
        if new != old && !old.trim().is_empty() {
            change
                .writes
                .push((USER_MANIFEST.to_owned(), Some(format!("{new}\n"))));
        }
        // A file another prompt still reads (PromptEngine keeps a duplicated prompt in
        // its original's file, each under its own id) stays.
        let shared = state
            .folder
            .prompts
            .iter()
            .any(|p| p.id != prompt.id && p.domain == prompt.domain);
        if prompt.domain.1 == 1 && !shared {
            change.cleanup.push(prompt.domain.0.clone());
        }
        Ok(change)
    }

    /// Runs one edit: under the writer lock, `plan` turns the current state into a
    /// [`Change`]; the changed user layer is checked over the defaults; the files are
    /// written; the new state is swapped in. A refused plan or check changes nothing.
    pub(super) fn commit(
        &self,
        plan: impl FnOnce(&Store, &State) -> Result<Change, StoreError>,
    ) -> Result<(), StoreError> {
        let _writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        // The folder written: the user folder, or the PromptEngine folder opened in place.
        let target = self.user_dir.as_ref().or(self.in_place.as_ref());
        // Another process (or store) may have written the folder since: edit from what is
        // on disk now, and keep it from writing until this edit is done.
        let (_folder, state) = match target {
            Some(dir) => {
                let lock = folder_lock::exclusive(dir).map_err(|e| StoreError::Write {
                    path: dir.join(folder_lock::LOCK).to_string_lossy().into_owned(),
                    message: e.to_string(),
                })?;
                (Some(lock), self.reread(dir)?)
            }
            None => (None, self.current()),
        };
        let change = plan(self, &state)?;
        // A file past the limit could not be read again: the store would not open. Such an
        // edit is refused whole, before anything is checked or written.
        let mut too_large = prompt_runtime::Diagnostics::default();
        for (rel, text) in &change.writes {
            if let Some(text) = text
                && text.len() as u64 > prompt_runtime::__internal::MAX_FILE
            {
                let shown = state.user.shown(rel);
                too_large.push(
                    prompt_runtime::Diagnostic::new(format!(
                        "this edit would make `{shown}` {} bytes, more than promptic reads from one file ({} bytes), so the store could not be opened again",
                        text.len(),
                        prompt_runtime::__internal::MAX_FILE
                    ))
                    .in_file(&shown)
                    .with_help("keep the text or the value shorter; nothing was written"),
                );
            }
        }
        if !too_large.is_empty() {
            return Err(StoreError::Invalid(too_large));
        }
        let mut user = state.user.clone();
        for (rel, text) in &change.writes {
            user.set(rel, text.as_deref());
        }
        for rel in &change.cleanup {
            user.set(rel, None);
        }
        let folder = self.check_layers(&mut user).map_err(StoreError::Invalid)?;
        // A prompt refused before may stay refused; an edit never refuses another one.
        if let Some(problems) = newly_broken(&state.folder, &folder) {
            return Err(StoreError::Invalid(problems));
        }
        // Every static and computed key of the new folder needs a value (an added user
        // placeholder brings its own `default`).
        let next = State::new(Arc::new(folder), user.frozen(), &self.reader.given)?;
        // Nothing is written when one write would reach outside the user folder.
        if let Some(dir) = target {
            for (rel, _) in &change.writes {
                atomic::confine(dir, rel)?;
            }
        }
        if let Some(dir) = target
            && let Err((i, e)) = write_files(dir, &change, &self.faults)
        {
            let error = write_error(&user, &change.writes[i].0)(e.error.to_string());
            if i + 1 == change.writes.len() && e.in_place {
                // The commit point is on disk (only the folder flush failed): the store
                // shows what a fresh open reads.
                self.reader.swap(next);
            }
            return Err(error);
        }
        self.reader.swap(next);
        if let Some(dir) = target {
            for rel in &change.cleanup {
                // Nothing names the file any more; one left behind is harmless (and one
                // behind a link out of the user folder is not the store's to remove).
                if atomic::confine(dir, rel).is_ok() {
                    let _ = atomic::remove(&dir.join(rel), &self.faults);
                }
            }
        }
        Ok(())
    }

    /// Reads the user folder again (another process or store may have changed it) and
    /// shows what it holds; edits made elsewhere become visible here. Waits while a
    /// writer holds the folder's lock; a store without a user folder has nothing to read.
    ///
    /// ```
    /// # use promptic::store::{Defaults, Store};
    /// # let files: &[(&str, &[u8])] = &[
    /// #     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a"}}}"#),
    /// #     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// #     ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    /// # ];
    /// # let user = std::env::temp_dir().join(format!("pk-reload-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&user);
    /// let defaults = Defaults::from_files("p", files)?;
    /// let editor = Store::builder(defaults.clone()).user_dir(&user).open()?;
    /// let chat = Store::builder(defaults).user_dir(&user).open()?;
    /// editor.update_prompt("a", "default", "Changed.")?;
    /// assert_eq!(chat.resolve_prompt("a", "default", &[])?, "A");
    /// chat.reload()?;
    /// assert_eq!(chat.resolve_prompt("a", "default", &[])?, "Changed.");
    /// # let _ = std::fs::remove_dir_all(&user);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reload(&self) -> Result<(), StoreError> {
        // A folder opened in place is read again whole (PromptEngine writes it too).
        let Some(dir) = self.user_dir.as_ref().or(self.in_place.as_ref()) else {
            return Ok(());
        };
        let _writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        let _folder = folder_lock::shared(dir);
        self.reread(dir).map(drop)
    }

    /// The user folder as it is on disk now, swapped in.
    pub(super) fn reread(&self, dir: &Path) -> Result<Arc<State>, StoreError> {
        let mut user = Layer::disk(dir, &dir.to_string_lossy());
        let folder = self.check_layers(&mut user).map_err(StoreError::Invalid)?;
        let next = State::new(Arc::new(folder), user.frozen(), &self.reader.given)?;
        Ok(self.reader.swap(next))
    }

    /// The checked folder of a user layer over the defaults; for a folder opened in
    /// place, of the folder alone, read as PromptEngine reads it.
    fn check_layers(&self, user: &mut Layer) -> Result<Folder, prompt_runtime::Diagnostics> {
        if self.in_place.is_some() {
            return check::build_with(user, None, self.reader.mode, true);
        }
        let mut defaults = self.defaults.clone();
        check::build(&mut defaults, Some(user), self.reader.mode)
    }
}

/// The problems of the prompts `new` refuses that `old` did not refuse (or did not have).
fn newly_broken(old: &Folder, new: &Folder) -> Option<prompt_runtime::Diagnostics> {
    let mut problems = prompt_runtime::Diagnostics::default();
    for (i, diagnostics) in &new.broken {
        let id = &new.prompts[*i].id;
        if !old.prompt(id).is_some_and(|j| old.prompts[j].broken) {
            problems.extend(diagnostics.clone());
        }
    }
    (!problems.is_empty()).then_some(problems)
}

/// Writes the change's files in order; on an error, which one failed.
fn write_files(dir: &Path, change: &Change, faults: &Faults) -> Result<(), (usize, WriteError)> {
    for (i, (rel, text)) in change.writes.iter().enumerate() {
        let path = dir.join(rel);
        match text {
            Some(text) => atomic::write(&path, text.as_bytes(), faults),
            None => atomic::remove(&path, faults),
        }
        .map_err(|e| (i, e))?;
    }
    Ok(())
}

pub(super) fn write_error<'a>(user: &'a Layer, rel: &'a str) -> impl Fn(String) -> StoreError + 'a {
    move |message| StoreError::Write {
        path: user.shown(rel),
        message,
    }
}

/// The user manifest with `value` (JSON text) at `path`.
fn manifest_with(state: &State, path: &[&str], value: &str) -> Result<String, StoreError> {
    let old = state
        .user
        .get(USER_MANIFEST)
        .map(SourceFile::text)
        .unwrap_or_default();
    let new = set_path(old, path, value, 0).map_err(write_error(&state.user, USER_MANIFEST))?;
    Ok(format!("{new}\n"))
}

/// The user manifest of a user layer without changes.
const EMPTY_MANIFEST: &str = "{\"prompts\": {}}\n";

/// The user manifest's text now (empty when there is none).
fn user_manifest(state: &State) -> &str {
    state
        .user
        .get(USER_MANIFEST)
        .map(SourceFile::text)
        .unwrap_or_default()
}

/// The keys of the user registry, in its order.
fn user_placeholders(state: &State) -> Vec<String> {
    let Some(text) = state.user.get(USER_REGISTRY).map(SourceFile::text) else {
        return Vec::new();
    };
    let Ok(top) = object_entries(text) else {
        return Vec::new();
    };
    top.iter()
        .find(|(k, _)| k == "placeholders")
        .and_then(|(_, raw)| object_entries(raw.get()).ok())
        .map(|entries| entries.into_iter().map(|(k, _)| k).collect())
        .unwrap_or_default()
}

/// The user registry with `entry` (JSON text) for `key`, or without `key`.
fn registry_with(state: &State, entry: Option<&str>, key: &str) -> Result<String, StoreError> {
    let old = state
        .user
        .get(USER_REGISTRY)
        .map(SourceFile::text)
        .unwrap_or_default();
    let new = match entry {
        Some(entry) => set_path(old, &["placeholders", key], entry, 0),
        None => remove_path(old, &["placeholders", key], 0),
    }
    .map_err(write_error(&state.user, USER_REGISTRY))?;
    Ok(format!("{new}\n"))
}

pub(super) fn json_string(text: &str) -> Result<String, StoreError> {
    serde_json::to_string(text).map_err(|e| StoreError::Write {
        path: "(a JSON string)".to_owned(),
        message: e.to_string(),
    })
}

/// Checks a new text against the registry with the one lexer: every unknown `{{key}}`,
/// located in `text`, with a suggestion.
pub(super) fn check_text(
    folder: &Folder,
    id: &str,
    variant: &str,
    text: &str,
) -> Result<(), StoreError> {
    let source = SourceFile::new(format!("{id}/{variant} (edit)"), text);
    let mut problems = Diagnostics::default();
    // An unknown key is one error, however often the text writes it, noting its other
    // places.
    let mut unknown = Repeats::default();
    for token in Syntax::TightBraces.tokenize(text, 0) {
        let Token::Placeholder { span, name, .. } = token else {
            continue;
        };
        let key = &text[name];
        if folder.key(key).is_some() {
            continue;
        }
        if unknown.again(key, &source, &span) {
            continue;
        }
        let d = Diagnostic::new(format!(
            "unknown placeholder `{{{{{key}}}}}` in the new text of variant `{variant}` of prompt `{id}`"
        ))
        .at(&source, span.clone());
        let d = match closest(key, folder.keys.iter().map(|k| k.name.as_str())) {
            Some(c) => d.with_help(format!("did you mean `{{{{{c}}}}}`?")),
            // An edit is the user's: its new keys are the user registry's.
            None => d.with_help(format!(
                "add `{key}` to `{USER_REGISTRY}` (`Store::add_placeholder`)"
            )),
        };
        unknown.report(key, &mut problems, d, &source, &span);
    }
    unknown.note(&mut problems, "also written");
    problems.into_result(()).map_err(StoreError::Invalid)
}

/// `domain` (a domain file's JSON, in either form) with variant `variant` of prompt `id`
/// holding `text`: the variant's `content` when it is written that way, else its `text`.
pub(super) fn with_text(
    domain: &str,
    id: &str,
    variant: &str,
    text: &str,
) -> Result<String, StoreError> {
    let fail = |message: String| StoreError::Write {
        path: format!("the domain file of prompt `{id}`"),
        message,
    };
    let top = if domain.trim().is_empty() {
        Vec::new()
    } else {
        object_entries(domain).map_err(|e| fail(e.to_string()))?
    };
    let seed_form = top.is_empty() || top.iter().any(|(k, _)| k == "variants");
    let mut path: Vec<&str> = if seed_form { vec![] } else { vec![id] };
    path.extend(["variants", variant]);
    let parsed: serde_json::Value = if domain.trim().is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(domain).map_err(|e| fail(e.to_string()))?
    };
    let fields = path.iter().fold(&parsed, |v, k| &v[*k]);
    let key = if fields.get("content").is_some() && fields.get("text").is_none() {
        "content"
    } else {
        "text"
    };
    path.push(key);
    let new = set_path(domain, &path, &json_string(text)?, 0).map_err(fail)?;
    Ok(format!("{new}\n"))
}
