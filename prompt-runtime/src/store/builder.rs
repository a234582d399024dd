//! [`Store`]: a checked folder with its values, rendered as PromptEngine renders it, only
//! strictly; and its builder.

use super::error::StoreError;
use super::layout::{Layer, USER_MANIFEST};
use super::parsed::{Body, Folder, Phase, PromptDef, Target};
use super::persist::{set_path, write_atomic};
use super::render::{Computed, Values, render, tidy_into};
use super::{Defaults, check};
use crate::chat::Message;
use crate::suggest::closest;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

/// Builds a [`Store`]: the defaults, the user's folder, the static values and the computed
/// functions. See [`Store::builder`].
pub struct StoreBuilder {
    defaults: Defaults,
    user_dir: Option<PathBuf>,
    statics: Vec<(String, String)>,
    computed: Vec<(String, Computed)>,
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
        self.computed.push((key.into(), Box::new(f)));
        self
    }

    /// Reads the user folder, checks it, and checks that every static and computed
    /// placeholder has a value or a registry `default` (listing all that do not).
    pub fn open(self) -> Result<Store, StoreError> {
        let folder = match &self.user_dir {
            None => Arc::clone(&self.defaults.inner.folder),
            Some(dir) => {
                let mut defaults = self.defaults.inner.layer.clone();
                let mut user = Layer::disk(dir, &dir.to_string_lossy());
                Arc::new(check::build(&mut defaults, Some(&mut user)).map_err(StoreError::Invalid)?)
            }
        };
        let n = folder.keys.len();
        let mut statics: Vec<Option<String>> = vec![None; n];
        let mut computed: Vec<Option<Computed>> = (0..n).map(|_| None).collect();
        let mut unknown = Vec::new();
        let mut unknown_key = |key: &str| {
            let suggestion =
                closest(key, folder.keys.iter().map(|k| k.name.as_str())).map(str::to_owned);
            unknown.push((key.to_owned(), suggestion));
        };
        for (key, value) in self.statics {
            match folder.key(&key) {
                Some(i) => statics[i] = Some(value),
                None => unknown_key(&key),
            }
        }
        for (key, f) in self.computed {
            match folder.key(&key) {
                Some(i) => computed[i] = Some(f),
                None => unknown_key(&key),
            }
        }
        if !unknown.is_empty() {
            return Err(StoreError::UnknownPlaceholders(unknown));
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
        let flags = folder
            .prompts
            .iter()
            .map(|p| Flags {
                enabled: p.enabled,
                variants: p.variant_enabled.clone(),
            })
            .collect();
        Ok(Store {
            folder,
            statics,
            computed,
            by_order,
            flags: RwLock::new(flags),
            user_manifest: self.user_dir.map(|d| d.join(USER_MANIFEST)),
            writing: Mutex::new(()),
        })
    }
}

/// The enabled flags of one prompt, as they are now.
#[derive(Clone, Debug)]
struct Flags {
    enabled: bool,
    variants: Vec<(String, bool)>,
}

/// A store of prompts: PromptEngine's folder, checked, with its placeholder values.
///
/// Texts were parsed when the folder was loaded: rendering walks them and copies bytes.
/// `Store` is `Send + Sync`: share it between threads in an `Arc`; [`Store::set_enabled`]
/// takes `&self`.
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
pub struct Store {
    folder: Arc<Folder>,
    statics: Vec<Option<String>>,
    computed: Vec<Option<Computed>>,
    /// Prompt indexes by `order`, stable: ties keep manifest order.
    by_order: Vec<usize>,
    flags: RwLock<Vec<Flags>>,
    user_manifest: Option<PathBuf>,
    /// Held while the user manifest is read, changed and written.
    writing: Mutex<()>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("prompts", &self.folder.prompts.len())
            .field("placeholders", &self.folder.keys.len())
            .field("user_manifest", &self.user_manifest)
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
        }
    }

    fn values<'a>(&'a self, runtime: &'a [(&'a str, &'a str)]) -> Values<'a> {
        Values::new(&self.folder.keys, &self.statics, &self.computed, runtime)
    }

    fn find(&self, id: &str) -> Result<&PromptDef, StoreError> {
        match self.folder.prompt(id) {
            Some(i) => Ok(&self.folder.prompts[i]),
            None => Err(StoreError::UnknownPrompt {
                id: id.to_owned(),
                suggestion: closest(id, self.folder.prompts.iter().map(|p| p.id.as_str()))
                    .map(str::to_owned),
            }),
        }
    }

    fn unknown_variant(prompt: &PromptDef, variant: &str) -> StoreError {
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
        let prompt = self.find(id)?;
        let chosen = prompt
            .variant(variant)
            .ok_or_else(|| Self::unknown_variant(prompt, variant))?;
        let Body::Text(text) = &chosen.body else {
            return Err(StoreError::NotText { id: id.to_owned() });
        };
        let mut values = self.values(runtime);
        let mut raw = String::new();
        let mut missing = Vec::new();
        render(text, &mut values, &mut raw, &mut missing);
        self.refuse_missing(&missing, vec![id.to_owned()])?;
        let mut out = String::with_capacity(raw.len());
        tidy_into(&raw, &mut out);
        Ok(out)
    }

    fn refuse_missing(&self, missing: &[usize], prompts: Vec<String>) -> Result<(), StoreError> {
        if missing.is_empty() {
            return Ok(());
        }
        Err(StoreError::MissingRuntime {
            keys: missing
                .iter()
                .map(|&i| self.folder.keys[i].name.clone())
                .collect(),
            prompts,
        })
    }

    /// Whether prompt `index` is used for `variant` now: it and the variant are enabled,
    /// and, with `requires_any`, one of the listed runtime values is not empty.
    fn used(&self, flags: &[Flags], index: usize, variant: &str, runtime: &[(&str, &str)]) -> bool {
        let prompt = &self.folder.prompts[index];
        let flags = &flags[index];
        flags.enabled
            && PromptDef::variant_is_enabled(&flags.variants, variant)
            && (prompt.requires_any.is_empty()
                || prompt.requires_any.iter().any(|&k| {
                    let name = self.folder.keys[k].name.as_str();
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
        let flags = self.flags.read().unwrap_or_else(|e| e.into_inner());
        let mut values = self.values(runtime);
        let mut out = String::new();
        let mut scratch = String::new();
        let mut missing = Vec::new();
        let mut users = Vec::new();
        for &i in &self.by_order {
            let prompt = &self.folder.prompts[i];
            if prompt.target != Target::SystemPrompt || !self.used(&flags, i, variant, runtime) {
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
        self.refuse_missing(&missing, users)?;
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
        let flags = self.flags.read().unwrap_or_else(|e| e.into_inner());
        let mut values = self.values(runtime);
        let mut out = Vec::new();
        let mut missing = Vec::new();
        let mut users = Vec::new();
        for &i in &self.by_order {
            let prompt = &self.folder.prompts[i];
            if !take(prompt) || !self.used(&flags, i, variant, runtime) {
                continue;
            }
            let before = missing.len();
            self.messages(prompt, variant, &mut values, &mut out, &mut missing);
            if missing.len() > before {
                users.push(prompt.id.clone());
            }
        }
        self.refuse_missing(&missing, users)?;
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

    /// Turns variant `variant` of prompt `id` on or off for [`Store::build_system_prompt`]
    /// and the message sequences, and writes it to the user manifest of the
    /// [`user_dir`](StoreBuilder::user_dir) (a store without one keeps it in memory). The
    /// rest of the user manifest is kept as written.
    ///
    /// ```
    /// # use prompt_runtime::store::{Defaults, Store};
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
        let prompt = self.find(id)?;
        if !prompt.variant_names().any(|v| v == variant) {
            return Err(Self::unknown_variant(prompt, variant));
        }
        let index = self.folder.prompt(id).unwrap_or_default();
        let _writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(path) = &self.user_manifest {
            let shown = path.to_string_lossy().into_owned();
            let fail = |message: String| StoreError::Write {
                path: shown.clone(),
                message,
            };
            let old = match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
                Err(e) => return Err(fail(e.to_string())),
            };
            let old = crate::load::normalize(&old);
            let path_in = ["prompts", id, "variants", variant, "enabled"];
            let new = set_path(&old, &path_in, if enabled { "true" } else { "false" }, 0)
                .map_err(fail)?;
            write_atomic(path, &format!("{new}\n")).map_err(|e| fail(e.to_string()))?;
        }
        let mut flags = self.flags.write().unwrap_or_else(|e| e.into_inner());
        let variants = &mut flags[index].variants;
        variants.retain(|(n, _)| n != variant);
        variants.push((variant.to_owned(), enabled));
        Ok(())
    }

    /// Whether variant `variant` of prompt `id` is used now (the prompt and the variant
    /// enabled; `requires_any` aside), `None` for an unknown id.
    pub fn is_enabled(&self, id: &str, variant: &str) -> Option<bool> {
        let index = self.folder.prompt(id)?;
        let flags = self.flags.read().unwrap_or_else(|e| e.into_inner());
        let f = &flags[index];
        Some(f.enabled && PromptDef::variant_is_enabled(&f.variants, variant))
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
