//! The preview of a store's prompts, as PromptEngine's Prompt Editor shows them: rendered
//! like the strict operations, except that a placeholder without a value is left in the
//! text as `{{key}}` (PromptEngine's own output for a value it does not have) instead of
//! refusing the render. For showing a prompt to a person; what goes to a model is
//! rendered strictly.

use super::error::StoreError;
use super::parsed::Target;
use super::reader::Reader;
use crate::chat::Message;

/// A view of a `Store` that renders previews: `Store::preview`.
#[derive(Clone, Copy)]
pub struct Preview<'s> {
    store: &'s Reader,
}

impl std::fmt::Debug for Preview<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Preview").finish_non_exhaustive()
    }
}

impl Reader {
    /// `Store::preview`.
    pub fn preview(&self) -> Preview<'_> {
        Preview { store: self }
    }
}

impl Preview<'_> {
    /// `Store::resolve_prompt` as a preview.
    pub fn resolve_prompt(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.resolve_prompt_in(id, variant, runtime, true)
    }

    /// `Store::build_system_prompt` as a preview.
    pub fn build_system_prompt(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.system_prompt_in(variant, runtime, "", true)
    }

    /// `Store::build_system_prompt_filtered` as a preview.
    pub fn build_system_prompt_filtered(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
    ) -> Result<String, StoreError> {
        self.store
            .system_prompt_in(variant, runtime, category, true)
    }

    /// `Store::get_system_prompt_append` as a preview.
    pub fn get_system_prompt_append(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.system_prompt_append_in(variant, runtime, true)
    }

    /// `Store::build_prefill` as a preview.
    pub fn build_prefill(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.prefill_in(variant, runtime, "", true)
    }

    /// `Store::build_prefill_filtered` as a preview.
    pub fn build_prefill_filtered(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
    ) -> Result<String, StoreError> {
        self.store.prefill_in(variant, runtime, category, true)
    }

    /// `Store::get_first_assistant_content` as a preview.
    pub fn get_first_assistant_content(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.store.first_assistant_in(variant, runtime, true)
    }

    /// `Store::prompt_messages` as a preview.
    pub fn prompt_messages(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.store.prompt_messages_in(id, variant, runtime, true)
    }

    /// `Store::get_dialog_injections` as a preview.
    pub fn get_dialog_injections(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.store.messages_of(variant, runtime, true, |p| {
            p.multi_turn && p.category.as_deref() == Some("dialog_injection")
        })
    }

    /// `Store::render_chat_message_sequence` as a preview.
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
