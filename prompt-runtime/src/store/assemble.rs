//! PromptEngine's assembly operations over a `Store`: one prompt, the system prompt and
//! its append, the prefill, the first assistant message, the dialog injections, the chat
//! sequence's plan, and the lists an editor shows. Each selects prompts exactly as
//! PromptEngine's `engine.py` does (targets, positions, categories, `variant_condition`,
//! `requires_any`, `order`), and renders them with promptic's checks: every missing
//! runtime value of an assembly is reported at once, never left as `{{key}}` (except in a
//! preview, `Store::preview`, which renders as PromptEngine does).

use super::error::StoreError;
use super::parsed::{Body, Folder, PromptDef, Target};
use super::reader::{Reader, State};
use super::render::{Values, render, tidy_into, tidy_tail};
use crate::chat::Message;
use crate::python::space::is_space;
use crate::source::json::{deserialize_fields, required, serialize_fields};
use std::collections::BTreeMap;

/// Categories whose system-prompt parts are not part of a chat's system prompt unless a
/// category filter asks for them (PromptEngine's `NON_CHAT_CATEGORIES`).
const NON_CHAT_SYSTEM: &[&str] = &["summary", "spec_autofill", "cortex"];
/// The same for the prefill.
const NON_CHAT_PREFILL: &[&str] = &["summary", "spec_autofill"];
/// Message prompts of these categories are not in the chat sequence.
const NOT_IN_SEQUENCE: &[&str] = &["afterthought", "utility", "summary"];

/// One step of the chat's assembly plan (`Store::get_chat_message_sequence`): which
/// prompt goes where. Serializes as PromptEngine's `{"id", "position", "order"}`.
///
/// ```
/// let entry = promptic::store::SequenceEntry {
///     id: "remember".into(),
///     position: "prefill".into(),
///     order: 300,
/// };
/// assert_eq!(
///     serde_json::to_string(&entry)?,
///     r#"{"id":"remember","position":"prefill","order":300}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceEntry {
    /// The prompt's id.
    pub id: String,
    /// `first_assistant`, `history` or `prefill`.
    pub position: String,
    /// The prompt's `order` (9999 when the manifest gives none).
    pub order: i64,
}

/// A [`Target`], or its name (`"system_prompt"`, `"message"`, `"prefill"`), for
/// `Store::get_prompts_by_target`.
pub trait TargetName {
    /// The target, `None` for a name that is no target.
    fn target(&self) -> Option<Target>;
}

impl TargetName for Target {
    fn target(&self) -> Option<Target> {
        Some(*self)
    }
}

impl TargetName for &str {
    fn target(&self) -> Option<Target> {
        Target::from_word(self)
    }
}

impl TargetName for String {
    fn target(&self) -> Option<Target> {
        Target::from_word(self)
    }
}

/// A prompt's manifest entry as the store sees it now (system and user layers merged):
/// what `Store::get_prompts_by_target` and `Store::get_prompts_by_category` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptEntry {
    /// The id.
    pub id: String,
    /// The manifest's `name` (or `label`).
    pub label: Option<String>,
    /// The manifest's `description`.
    pub description: Option<String>,
    /// The manifest's `category`.
    pub category: Option<String>,
    /// Where it goes.
    pub target: Target,
    /// The manifest's `position`, when given.
    pub position: Option<String>,
    /// The `order` (9999 when not given).
    pub order: i64,
    /// The manifests' `enabled`.
    pub enabled: bool,
    /// `multi_turn` (messages) rather than `text`.
    pub multi_turn: bool,
    /// The only variant the prompt is used for, when set.
    pub variant_condition: Option<String>,
    /// The variants its domain file holds.
    pub variants: Vec<String>,
    /// The placeholders named by `requires_any`.
    pub requires_any: Vec<String>,
}

serialize_fields!(SequenceEntry {
    id,
    position,
    order
});

deserialize_fields!(
    SequenceEntry,
    "a sequence entry: `id`, `position` and `order`",
    { id: String, position: String, order: i64 } => {
        Ok(SequenceEntry {
            id: required(id, "id")?,
            position: required(position, "position")?,
            order: required(order, "order")?,
        })
    }
);

serialize_fields!(PromptEntry {
    id,
    label,
    description,
    category,
    target,
    position,
    order,
    enabled,
    multi_turn,
    variant_condition,
    variants,
    requires_any,
});

impl serde_core::Serialize for Target {
    fn serialize<S: serde_core::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

fn in_category(prompt: &PromptDef, categories: &[&str]) -> bool {
    prompt
        .category
        .as_deref()
        .is_some_and(|c| categories.contains(&c))
}

/// What an assembly collects besides its text: the runtime values it lacked, and which
/// prompts needed them.
#[derive(Default)]
struct Missing {
    keys: Vec<usize>,
    prompts: Vec<String>,
}

impl Missing {
    fn refuse(self, folder: &Folder) -> Result<(), StoreError> {
        if self.keys.is_empty() {
            return Ok(());
        }
        Err(StoreError::MissingRuntime {
            keys: self
                .keys
                .iter()
                .map(|&i| folder.keys[i].name.clone())
                .collect(),
            prompts: self.prompts,
        })
    }
}

impl Reader {
    /// `Store::resolve_prompt`.
    pub fn resolve_prompt(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.resolve_prompt_in(id, variant, runtime, false)
    }

    /// `Store::resolve_prompt`, or its preview (`preview`: keys without a value stay
    /// `{{key}}`).
    pub(super) fn resolve_prompt_in(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
        preview: bool,
    ) -> Result<String, StoreError> {
        let state = self.current();
        let prompt = Self::find(&state.folder, id)?;
        Self::refused(&state.folder, prompt)?;
        let chosen = prompt
            .variant(variant)
            .ok_or_else(|| Self::unknown_variant(prompt, variant))?;
        // A `multi_turn` prompt has no text: `""`, as PromptEngine's `resolve_prompt` gives
        // (its messages: `prompt_messages`, `get_dialog_injections`).
        let Body::Text(text) = &chosen.body else {
            return Ok(String::new());
        };
        if !prompt.serves(variant) {
            return Ok(String::new());
        }
        let mut values = state.values(runtime).previewing(preview);
        let mut raw = String::new();
        let mut missing = Vec::new();
        render(text, &mut values, &mut raw, &mut missing);
        Missing {
            keys: missing,
            prompts: vec![id.to_owned()],
        }
        .refuse(&state.folder)?;
        let mut out = String::with_capacity(raw.len());
        tidy_into(&raw, &mut out);
        Ok(out)
    }

    /// The text prompts `take` accepts, among the enabled ones that serve `variant`, by
    /// `order` (ties in manifest order), each rendered as by `Store::resolve_prompt`,
    /// empty ones dropped, joined with a blank line.
    fn join(
        state: &State,
        variant: &str,
        runtime: &[(&str, &str)],
        preview: bool,
        take: impl Fn(&PromptDef) -> bool,
    ) -> Result<String, StoreError> {
        let folder = &state.folder;
        let mut values = state.values(runtime).previewing(preview);
        // The last assembly's length: renders of one store are alike, so one allocation
        // usually holds the whole text.
        let mut out = String::with_capacity(state.length_hint());
        let mut missing = Missing::default();
        let bakeable = state.bakeable(runtime);
        let plan = state.plan(variant);
        for &i in &state.by_order {
            let prompt = &folder.prompts[i];
            if !Self::serving(prompt, variant) || !take(prompt) {
                continue;
            }
            Self::refused(folder, prompt)?;
            let Some(chosen) = plan[i] else {
                continue;
            };
            let text = match (
                bakeable,
                state.baked(i, chosen),
                &prompt.variants[chosen].body,
            ) {
                (true, Some(baked), _) => baked,
                (_, _, Body::Text(text)) => text,
                _ => continue,
            };
            let before = missing.keys.len();
            let at = out.len();
            if at > 0 {
                out.push_str("\n\n");
            }
            // Rendered in place, then tidied where it stands.
            let start = out.len();
            let may_run = render(text, &mut values, &mut out, &mut missing.keys);
            if missing.keys.len() > before {
                missing.prompts.push(prompt.id.clone());
            }
            if !tidy_tail(&mut out, start, may_run) {
                out.truncate(at);
            }
        }
        missing.refuse(folder)?;
        state.note_length(out.len());
        Ok(out)
    }

    /// A prompt refused when the folder was read is an error wherever it would render.
    fn refused(folder: &Folder, prompt: &PromptDef) -> Result<(), StoreError> {
        if !prompt.broken {
            return Ok(());
        }
        let index = folder.prompt(&prompt.id).unwrap_or(usize::MAX);
        Err(StoreError::Refused {
            id: prompt.id.clone(),
            problems: Box::new(folder.problems_of(index).cloned().unwrap_or_default()),
        })
    }

    /// `Store::problems`.
    pub fn problems(&self) -> Vec<(String, crate::Diagnostics)> {
        let state = self.current();
        state
            .folder
            .broken
            .iter()
            .map(|(i, d)| (state.folder.prompts[*i].id.clone(), d.clone()))
            .collect()
    }

    /// Whether a prompt takes part in assemblies for `variant`: it is enabled, its variant
    /// is not turned off (`Store::set_enabled`), and its `variant_condition` allows it.
    fn serving(prompt: &PromptDef, variant: &str) -> bool {
        prompt.enabled
            && PromptDef::variant_is_enabled(&prompt.variant_enabled, variant)
            && prompt.serves(variant)
    }

    /// PromptEngine's `requires_any`: one of the listed runtime values is not empty once
    /// stripped (a prompt without the list always passes).
    fn requirements_met(folder: &Folder, prompt: &PromptDef, runtime: &[(&str, &str)]) -> bool {
        prompt.requires_any.is_empty()
            || prompt.requires_any.iter().any(|&k| {
                let name = folder.keys[k].name.as_str();
                runtime
                    .iter()
                    .rev()
                    .find(|(n, _)| *n == name)
                    .is_some_and(|(_, v)| !v.trim_matches(is_space).is_empty())
            })
    }

    /// `Store::build_system_prompt`.
    pub fn build_system_prompt(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.build_system_prompt_filtered(variant, runtime, "")
    }

    /// `Store::build_system_prompt_filtered`.
    pub fn build_system_prompt_filtered(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
    ) -> Result<String, StoreError> {
        self.system_prompt_in(variant, runtime, category, false)
    }

    pub(super) fn system_prompt_in(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
        preview: bool,
    ) -> Result<String, StoreError> {
        let state = self.current();
        let folder = &state.folder;
        Self::join(&state, variant, runtime, preview, |p| {
            p.target == Target::SystemPrompt
                && p.position_or_default() != "system_prompt_append"
                && if category.is_empty() {
                    !in_category(p, NON_CHAT_SYSTEM)
                } else {
                    p.category.as_deref() == Some(category)
                }
                && Self::requirements_met(folder, p, runtime)
        })
    }

    /// `Store::get_system_prompt_append`.
    pub fn get_system_prompt_append(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.system_prompt_append_in(variant, runtime, false)
    }

    pub(super) fn system_prompt_append_in(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        preview: bool,
    ) -> Result<String, StoreError> {
        let state = self.current();
        Self::join(&state, variant, runtime, preview, |p| {
            p.target == Target::SystemPrompt
                && p.position.as_deref() == Some("system_prompt_append")
        })
    }

    /// `Store::build_prefill`.
    pub fn build_prefill(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.build_prefill_filtered(variant, runtime, "")
    }

    /// `Store::build_prefill_filtered`.
    pub fn build_prefill_filtered(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
    ) -> Result<String, StoreError> {
        self.prefill_in(variant, runtime, category, false)
    }

    pub(super) fn prefill_in(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        category: &str,
        preview: bool,
    ) -> Result<String, StoreError> {
        let state = self.current();
        Self::join(&state, variant, runtime, preview, |p| {
            p.target == Target::Prefill
                && if category.is_empty() {
                    !in_category(p, NON_CHAT_PREFILL)
                } else {
                    p.category.as_deref() == Some(category)
                }
        })
    }

    /// `Store::get_first_assistant_content`.
    pub fn get_first_assistant_content(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<String, StoreError> {
        self.first_assistant_in(variant, runtime, false)
    }

    pub(super) fn first_assistant_in(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        preview: bool,
    ) -> Result<String, StoreError> {
        let state = self.current();
        Self::join(&state, variant, runtime, preview, |p| {
            p.target == Target::Message && p.position.as_deref() == Some("first_assistant")
        })
    }

    /// `Store::get_dialog_injections`.
    pub fn get_dialog_injections(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.messages_of(variant, runtime, false, |p| {
            p.multi_turn && p.category.as_deref() == Some("dialog_injection")
        })
    }

    /// `Store::prompt_messages`.
    pub fn prompt_messages(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
    ) -> Result<Vec<Message>, StoreError> {
        self.prompt_messages_in(id, variant, runtime, false)
    }

    pub(super) fn prompt_messages_in(
        &self,
        id: &str,
        variant: &str,
        runtime: &[(&str, &str)],
        preview: bool,
    ) -> Result<Vec<Message>, StoreError> {
        let state = self.current();
        let folder = &state.folder;
        let prompt = Self::find(folder, id)?;
        Self::refused(folder, prompt)?;
        if prompt.variant(variant).is_none() {
            return Err(Self::unknown_variant(prompt, variant));
        }
        let mut out = Vec::new();
        if !prompt.serves(variant) {
            return Ok(out);
        }
        let mut values = state.values(runtime).previewing(preview);
        let mut missing = Vec::new();
        Self::messages(prompt, variant, &mut values, &mut out, &mut missing);
        Missing {
            keys: missing,
            prompts: vec![id.to_owned()],
        }
        .refuse(folder)?;
        Ok(out)
    }

    /// `Store::get_consent_dialog`.
    pub fn get_consent_dialog(&self, variant: &str) -> Result<Option<Vec<Message>>, StoreError> {
        let messages = self.get_dialog_injections(variant, &[])?;
        Ok((!messages.is_empty()).then_some(messages))
    }

    /// The messages of one prompt's variant: a text prompt gives one message (a user
    /// message, an assistant one for a `prefill` target), a `multi_turn` prompt its
    /// messages. Empty messages are dropped.
    fn messages(
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

    /// The messages of the prompts `take` accepts, among those that serve `variant`, by
    /// `order`.
    pub(super) fn messages_of(
        &self,
        variant: &str,
        runtime: &[(&str, &str)],
        preview: bool,
        take: impl Fn(&PromptDef) -> bool,
    ) -> Result<Vec<Message>, StoreError> {
        let state = self.current();
        let folder = &state.folder;
        let mut values = state.values(runtime).previewing(preview);
        let mut out = Vec::new();
        let mut missing = Missing::default();
        for &i in &state.by_order {
            let prompt = &folder.prompts[i];
            if !Self::serving(prompt, variant) || !take(prompt) {
                continue;
            }
            Self::refused(folder, prompt)?;
            let before = missing.keys.len();
            Self::messages(prompt, variant, &mut values, &mut out, &mut missing.keys);
            if missing.keys.len() > before {
                missing.prompts.push(prompt.id.clone());
            }
        }
        missing.refuse(folder)?;
        Ok(out)
    }

    /// `Store::get_chat_message_sequence`.
    pub fn get_chat_message_sequence(&self, variant: &str) -> Vec<SequenceEntry> {
        let state = self.current();
        let folder = &state.folder;
        let mut plan = Vec::new();
        for (target, first) in [(Target::Message, true), (Target::Prefill, false)] {
            for &i in &state.by_order {
                let prompt = &folder.prompts[i];
                if prompt.target != target || !Self::serving(prompt, variant) {
                    continue;
                }
                let position = if first {
                    match prompt.position.as_deref() {
                        Some(p @ ("first_assistant" | "history"))
                            if !in_category(prompt, NOT_IN_SEQUENCE) =>
                        {
                            p
                        }
                        _ => continue,
                    }
                } else if in_category(prompt, &["summary"]) {
                    continue;
                } else {
                    "prefill"
                };
                plan.push(SequenceEntry {
                    id: prompt.id.clone(),
                    position: position.to_owned(),
                    order: prompt.order,
                });
            }
        }
        // Stable: entries of one order keep message prompts first, as PromptEngine's sort.
        plan.sort_by_key(|e| e.order);
        plan
    }

    /// `Store::render_chat_message_sequence`.
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
        out.extend(self.messages_of(variant, runtime, false, |p| {
            p.multi_turn || p.target != Target::SystemPrompt
        })?);
        Ok(out)
    }

    /// `Store::get_prompts_by_target`.
    pub fn get_prompts_by_target(&self, target: impl TargetName) -> Vec<PromptEntry> {
        let Some(target) = target.target() else {
            return Vec::new();
        };
        self.entries(|p| p.enabled && p.target == target)
    }

    /// `Store::get_prompts_by_category`.
    pub fn get_prompts_by_category(&self, category: &str) -> Vec<PromptEntry> {
        self.entries(|p| p.category.as_deref() == Some(category))
    }

    /// `Store::get_all_prompts`.
    pub fn get_all_prompts(&self) -> Vec<PromptEntry> {
        let state = self.current();
        let order: Vec<usize> = (0..state.folder.prompts.len()).collect();
        Self::entries_in(&state, &order, |_| true)
    }

    fn entries(&self, take: impl Fn(&PromptDef) -> bool) -> Vec<PromptEntry> {
        let state = self.current();
        Self::entries_in(&state, &state.by_order, take)
    }

    fn entries_in(
        state: &State,
        order: &[usize],
        take: impl Fn(&PromptDef) -> bool,
    ) -> Vec<PromptEntry> {
        let folder = &state.folder;
        order
            .iter()
            .map(|&i| &folder.prompts[i])
            .filter(|p| take(p))
            .map(|p| PromptEntry {
                id: p.id.clone(),
                label: p.label.clone(),
                description: p.description.clone(),
                category: p.category.clone(),
                target: p.target,
                position: p.position.clone(),
                order: p.order,
                enabled: p.enabled,
                multi_turn: p.multi_turn,
                variant_condition: p.variant_condition.clone(),
                variants: p.variants.iter().map(|v| v.name.clone()).collect(),
                requires_any: p
                    .requires_any
                    .iter()
                    .map(|&k| folder.keys[k].name.clone())
                    .collect(),
            })
            .collect()
    }

    /// `Store::get_current_values`.
    pub fn get_current_values(
        &self,
        _variant: &str,
        runtime: &[(&str, &str)],
    ) -> BTreeMap<String, String> {
        let state = self.current();
        let mut values = state.values(&[]);
        let mut out = BTreeMap::new();
        for (i, key) in state.folder.keys.iter().enumerate() {
            if let Some(value) = values.get(i) {
                out.insert(key.name.clone(), value.to_owned());
            }
        }
        for (name, value) in runtime {
            out.insert((*name).to_owned(), (*value).to_owned());
        }
        out
    }
}
