//! The parsed form of a store folder: what the checks hand to rendering. Every text is
//! split into literal runs and placeholders once, here, so rendering parses nothing.

use crate::chat::Role;

/// When a placeholder gets its value (PromptEngine's `resolve_phase`, the seed's `type`).
///
/// ```
/// use promptic::store::Phase;
/// assert_eq!(Phase::from_word("computed"), Some(Phase::Computed));
/// assert_eq!(Phase::Runtime.as_str(), "runtime");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Given once (`static_value`) and fixed until changed.
    Static,
    /// A function called on every render (`computed`).
    Computed,
    /// Given by the caller of each render (`runtime`).
    Runtime,
}

impl Phase {
    /// `static`, `computed` or `runtime`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Static => "static",
            Phase::Computed => "computed",
            Phase::Runtime => "runtime",
        }
    }

    /// The phase named by `word`.
    pub fn from_word(word: &str) -> Option<Phase> {
        match word {
            "static" => Some(Phase::Static),
            "computed" => Some(Phase::Computed),
            "runtime" => Some(Phase::Runtime),
            _ => None,
        }
    }
}

/// Where a prompt goes (PromptEngine's `target`).
///
/// ```
/// use promptic::store::Target;
/// assert_eq!(Target::from_word("prefill"), Some(Target::Prefill));
/// assert_eq!(Target::SystemPrompt.as_str(), "system_prompt");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A part of the system prompt (the default).
    SystemPrompt,
    /// A user message of the chat sequence.
    Message,
    /// An assistant message that starts the model's answer.
    Prefill,
}

impl Target {
    /// `system_prompt`, `message` or `prefill`.
    pub fn as_str(self) -> &'static str {
        match self {
            Target::SystemPrompt => "system_prompt",
            Target::Message => "message",
            Target::Prefill => "prefill",
        }
    }

    /// The target named by `word`.
    pub fn from_word(word: &str) -> Option<Target> {
        match word {
            "system_prompt" => Some(Target::SystemPrompt),
            "message" => Some(Target::Message),
            "prefill" => Some(Target::Prefill),
            _ => None,
        }
    }
}

/// One registry entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub name: String,
    pub phase: Phase,
    /// The registry's `default`, as text.
    pub default: Option<String>,
    /// The registry's `source` (`persona_config`, `user_profile`): the document a static
    /// value is read from (`StoreBuilder::source`).
    pub source: Option<String>,
    /// Where in the source document the value is.
    pub source_path: Option<String>,
    /// The data type is `list`: a list value is joined with `join_separator`.
    pub list: bool,
    pub join_separator: Option<String>,
    /// The registry's `compute_function`: the name a computed value is registered under
    /// (`StoreBuilder::compute_function`).
    pub compute_function: Option<String>,
}

/// A text split once: literal runs and placeholders (indexes into [`Folder::keys`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text {
    pub parts: Vec<Part>,
    /// A literal run holds three newlines in a row: a render always has runs to collapse.
    pub literal_run: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Literal(String),
    Key(usize),
}

/// What a variant holds: a text (`type: text`), or messages (`type: multi_turn`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    Text(Text),
    Messages(Vec<(Role, Text)>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    pub body: Body,
}

/// One prompt: its manifest entry (system and user layers merged) and its domain's variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptDef {
    pub id: String,
    pub label: Option<String>,
    pub description: Option<String>,
    pub category: Option<String>,
    pub multi_turn: bool,
    pub target: Target,
    /// PromptEngine's default is 9999.
    pub order: i64,
    pub enabled: bool,
    /// Keys of which one must have a non-empty runtime value for the prompt to be used.
    pub requires_any: Vec<usize>,
    /// The manifest's `position` (`system_prompt_append`, `first_assistant`, …).
    pub position: Option<String>,
    /// The only variant this prompt is used for, when set (PromptEngine's
    /// `variant_condition`).
    pub variant_condition: Option<String>,
    pub variants: Vec<Variant>,
    /// The domain file (relative to its folder) and its layer: 0 the defaults, 1 the
    /// user's folder.
    pub domain: (String, usize),
    /// Enabled flags by variant name: the manifests' over the domain file's.
    pub variant_enabled: Vec<(String, bool)>,
    /// The prompt has problems and is refused (its diagnostics are in [`Folder::broken`]).
    pub broken: bool,
}

impl PromptDef {
    /// Whether the prompt is used for `variant` at all: PromptEngine's `variant_condition`.
    pub fn serves(&self, variant: &str) -> bool {
        self.variant_condition
            .as_deref()
            .is_none_or(|c| c == variant)
    }

    /// The position, with PromptEngine's default for a system prompt part.
    pub fn position_or_default(&self) -> &str {
        self.position.as_deref().unwrap_or("system_prompt")
    }

    /// The variant rendered for `name`: its own, else `default`.
    pub fn variant(&self, name: &str) -> Option<&Variant> {
        self.variant_index(name).map(|i| &self.variants[i])
    }

    /// The index of [`PromptDef::variant`] in `variants`.
    pub fn variant_index(&self, name: &str) -> Option<usize> {
        self.variants
            .iter()
            .position(|v| v.name == name)
            .or_else(|| self.variants.iter().position(|v| v.name == "default"))
    }

    /// Whether variant `name` is enabled: its flag, else the flag of the variant rendered
    /// in its place (`default`), else enabled.
    pub fn variant_is_enabled(flags: &[(String, bool)], name: &str) -> bool {
        let find = |n: &str| flags.iter().find(|(v, _)| v == n).map(|(_, on)| *on);
        find(name).or_else(|| find("default")).unwrap_or(true)
    }

    /// Every key used by a text or a message of any variant, or by `requires_any` (a key
    /// may come more than once): [`PromptDef::uses_key`] for all keys in one pass.
    pub fn used_keys(&self) -> Vec<usize> {
        let mut keys = self.requires_any.clone();
        let mut add = |t: &Text| {
            keys.extend(t.parts.iter().filter_map(|part| match part {
                Part::Key(index) => Some(*index),
                _ => None,
            }));
        };
        for variant in &self.variants {
            match &variant.body {
                Body::Text(t) => add(t),
                Body::Messages(m) => m.iter().for_each(|(_, t)| add(t)),
            }
        }
        keys
    }

    /// Whether key `index` is used by a text or a message of any variant, or by
    /// `requires_any`.
    pub fn uses_key(&self, index: usize) -> bool {
        let in_text = |t: &Text| t.parts.contains(&Part::Key(index));
        self.requires_any.contains(&index)
            || self.variants.iter().any(|v| match &v.body {
                Body::Text(t) => in_text(t),
                Body::Messages(m) => m.iter().any(|(_, t)| in_text(t)),
            })
    }

    /// Every variant name known: the domain's and the manifests'.
    pub fn variant_names(&self) -> impl Iterator<Item = &str> {
        self.variants.iter().map(|v| v.name.as_str()).chain(
            self.variant_enabled
                .iter()
                .map(|(n, _)| n.as_str())
                .filter(|n| !self.variants.iter().any(|v| v.name == *n)),
        )
    }
}

/// A whole store folder, checked.
#[derive(Clone, Debug, Default)]
pub struct Folder {
    /// The registry, system and user entries merged, sorted by name.
    pub keys: Vec<Key>,
    /// The prompts in manifest order (the system manifest's, then new user entries).
    pub prompts: Vec<PromptDef>,
    /// The refused prompts (indexes into `prompts`) with their problems, when the folder
    /// was checked prompt by prompt.
    pub broken: Vec<(usize, crate::Diagnostics)>,
}

impl PartialEq for Folder {
    fn eq(&self, other: &Folder) -> bool {
        let problems = |f: &Folder| -> Vec<(usize, String)> {
            f.broken.iter().map(|(i, d)| (*i, d.to_string())).collect()
        };
        self.keys == other.keys
            && self.prompts == other.prompts
            && problems(self) == problems(other)
    }
}

impl Eq for Folder {}

impl Text {
    /// This text with the keys `fixed` gives a value merged into the literal runs around
    /// them: what every render of it would copy anyway.
    pub fn baked(&self, fixed: &[Option<String>]) -> Text {
        let mut parts: Vec<Part> = Vec::with_capacity(self.parts.len());
        for part in &self.parts {
            let piece = match part {
                Part::Literal(s) => s.as_str(),
                Part::Key(i) => match &fixed[*i] {
                    Some(value) => value.as_str(),
                    None => {
                        parts.push(Part::Key(*i));
                        continue;
                    }
                },
            };
            match parts.last_mut() {
                Some(Part::Literal(prev)) => prev.push_str(piece),
                _ => parts.push(Part::Literal(piece.to_owned())),
            }
        }
        let literal_run = parts
            .iter()
            .any(|p| matches!(p, Part::Literal(s) if s.contains("\n\n\n")));
        Text { parts, literal_run }
    }
}

impl Folder {
    pub fn key(&self, name: &str) -> Option<usize> {
        self.keys
            .binary_search_by(|k| k.name.as_str().cmp(name))
            .ok()
    }

    pub fn prompt(&self, id: &str) -> Option<usize> {
        self.prompts.iter().position(|p| p.id == id)
    }

    /// The problems of refused prompt `index`.
    pub fn problems_of(&self, index: usize) -> Option<&crate::Diagnostics> {
        self.broken
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, d)| d)
    }
}
