//! The preview of a store's prompts, as PromptEngine's Prompt Editor shows them: rendered
//! like the strict operations, except that a placeholder without a value is left in the
//! text as `{{key}}` (PromptEngine's own output for a value it does not have) instead of
//! refusing the render. For showing a prompt to a person; what goes to a model is
//! rendered strictly.

use super::builder::Store;
use super::error::StoreError;
use super::parsed::Target;
use crate::chat::Message;

/// A view of a [`Store`] that renders previews: [`Store::preview`].
#[derive(Clone, Copy)]
pub struct Preview<'s> {
    store: &'s Store,
}

impl std::fmt::Debug for Preview<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Preview").finish_non_exhaustive()
    }
}

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
        Preview { store: self }
    }
}

impl Preview<'_> {
    /// [`Store::resolve_prompt`] as a preview.
    pub fn resolve_prompt(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.resolve_prompt_in(id, variant, runtime, true)
    }

    /// [`Store::build_system_prompt`] as a preview.
    pub fn build_system_prompt(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.system_prompt_in(variant, runtime, "", true)
    }

    /// [`Store::build_system_prompt_filtered`] as a preview.
    pub fn build_system_prompt_filtered(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
    ) -> Result<String, StoreError> {
        self.store
            .system_prompt_in(variant, runtime, category, true)
    }

    /// [`Store::get_system_prompt_append`] as a preview.
    pub fn get_system_prompt_append(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.system_prompt_append_in(variant, runtime, true)
    }

    /// [`Store::build_prefill`] as a preview.
    pub fn build_prefill(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.prefill_in(variant, runtime, "", true)
    }

    /// [`Store::build_prefill_filtered`] as a preview.
    pub fn build_prefill_filtered(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
    ) -> Result<String, StoreError> {
        self.store.prefill_in(variant, runtime, category, true)
    }

    /// [`Store::get_first_assistant_content`] as a preview.
    pub fn get_first_assistant_content(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.first_assistant_in(variant, runtime, true)
    }

    /// [`Store::prompt_messages`] as a preview.
    pub fn prompt_messages(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.store.prompt_messages_in(id, variant, runtime, true)
    }

    /// [`Store::get_dialog_injections`] as a preview.
    pub fn get_dialog_injections(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.store.messages_of(variant, runtime, true, |p| {
            p.multi_turn && p.category.as_deref() == Some("dialog_injection")
        })
    }

    /// [`Store::render_chat_message_sequence`] as a preview.
    pub fn render_chat_message_sequence(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        let system = self.build_system_prompt(variant, runtime)?;
        let mut out = Vec::new();
        if !system.is_empty() {
            out.push(Message::system(system).in_section("system_prompt"));
        }
        out.extend(self.store.messages_of(variant, runtime, true, |p| {
            p.multi_turn || p.target != Target::SystemPrompt
        })?);
        Ok(out)
    }
}
