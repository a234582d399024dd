//! What can go wrong when a store is opened, rendered or changed.

use crate::Diagnostics;

/// An error of `Store`.
///
/// ```
/// use promptic::store::StoreError;
///
/// let e = StoreError::UnknownPrompt { id: "sytem_rule".into(), suggestion: Some("system_rule".into()) };
/// assert_eq!(e.to_string(), "unknown prompt `sytem_rule`; did you mean `system_rule`?");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// The user folder's files, or an edit, have problems (the same checks as the
    /// defaults'); a refused edit changed nothing.
    Invalid(Diagnostics),
    /// Values were given to the builder for placeholders the registry does not have.
    UnknownPlaceholders(Vec<(String, Option<String>)>),
    /// A source document (`StoreBuilder::source`) or a
    /// compute function (`StoreBuilder::compute_function`)
    /// that no registry entry names.
    UnknownSource {
        /// `source` or `compute function`.
        what: &'static str,
        /// The name given to the builder.
        name: String,
        /// The closest name the registry uses, if one is close.
        suggestion: Option<String>,
    },
    /// Static or computed placeholders that have neither a value nor a registry `default`.
    MissingValues {
        /// Their names.
        keys: Vec<String>,
    },
    /// A render needs runtime values it was not given.
    MissingRuntime {
        /// The placeholders without a value.
        keys: Vec<String>,
        /// The prompts that use them.
        prompts: Vec<String>,
    },
    /// The prompt was refused when the folder was read (see
    /// `Store::problems`): it is not rendered, alone or in an
    /// assembly, until its problems are fixed.
    Refused {
        /// The prompt.
        id: String,
        /// Its problems, located in its files.
        problems: Box<Diagnostics>,
    },
    /// A store opened with `Store::open_folder` was given what
    /// only a store over separate defaults takes (a user folder).
    InPlace {
        /// The folder.
        path: String,
        /// What was asked.
        what: &'static str,
    },
    /// No prompt has this id.
    UnknownPrompt {
        /// The id asked for.
        id: String,
        /// The closest id, if one is close.
        suggestion: Option<String>,
    },
    /// The prompt has neither this variant nor a `default` one.
    UnknownVariant {
        /// The prompt.
        id: String,
        /// The variant asked for.
        variant: String,
        /// The closest variant, if one is close.
        suggestion: Option<String>,
    },
    /// A text was asked of a `multi_turn` prompt, which holds messages.
    NotText {
        /// The prompt.
        id: String,
    },
    /// `Store::create_prompt` was given an id in use.
    PromptExists {
        /// The id.
        id: String,
    },
    /// A new prompt's id is not a name.
    BadPromptId {
        /// The id.
        id: String,
    },
    /// Only the user's own prompts can be deleted.
    NotUserPrompt {
        /// The id.
        id: String,
    },
    /// A prompt of the user's own has no default to reset to.
    NoDefault {
        /// The id.
        id: String,
    },
    /// An archive given to `Store::import_prompts` (feature `archive`) was refused
    /// (not a zip file, an entry a user layer cannot hold, over a size limit, …), or one
    /// could not be exported. A refused import changed nothing.
    Archive {
        /// The archive, as given.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// `Store::add_placeholder` was given a key the
    /// registry has already.
    PlaceholderExists {
        /// The key.
        key: String,
        /// Whether it is the user's own (else the defaults').
        user: bool,
    },
    /// A new placeholder's key is not a name `{{key}}` could use.
    BadPlaceholder {
        /// The key.
        key: String,
    },
    /// Only placeholders the user added can be removed.
    NotUserPlaceholder {
        /// The key.
        key: String,
        /// The closest user placeholder, if one is close.
        suggestion: Option<String>,
    },
    /// A placeholder still used by prompts cannot be removed.
    PlaceholderInUse {
        /// The key.
        key: String,
        /// The prompts that use it (in a text or in `requires_any`).
        prompts: Vec<String>,
    },
    /// `Store::reorder_prompts` was given an id twice.
    DuplicateInOrder {
        /// The id.
        id: String,
    },
    /// A file of the user layer could not be written.
    Write {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Invalid(diagnostics) => write!(f, "{diagnostics}"),
            StoreError::UnknownPlaceholders(keys) => write!(f, "{}", unknown_keys(keys)),
            StoreError::UnknownSource {
                what,
                name,
                suggestion,
            } => write!(
                f,
                "no placeholder of the registry names the {what} `{name}`{}",
                did_you_mean(suggestion)
            ),
            StoreError::MissingValues { keys } => write!(
                f,
                "no value for {}: give each one with `static_value`, `source`, `computed` or `compute_function`, or a `default` in the registry",
                names("static or computed placeholder", keys)
            ),
            StoreError::MissingRuntime { keys, prompts } => write!(
                f,
                "{} (used by {}): pass each one in `runtime`",
                names("missing runtime value for placeholder", keys),
                ids(prompts)
            ),
            StoreError::Refused { id, problems } => write!(
                f,
                "prompt `{id}` is refused until its problems are fixed:\n{problems}"
            ),
            StoreError::InPlace { path, what } => write!(
                f,
                "`{path}` is a PromptEngine folder opened in place, its own user layer: {what} cannot be added to it; give the folder itself as the user folder, or open it with `Store::open_folder` alone"
            ),
            StoreError::UnknownPrompt { id, suggestion } => {
                write!(f, "unknown prompt `{id}`{}", did_you_mean(suggestion))
            }
            StoreError::UnknownVariant {
                id,
                variant,
                suggestion,
            } => write!(
                f,
                "prompt `{id}` has no variant `{variant}` and no `default` variant{}",
                did_you_mean(suggestion)
            ),
            StoreError::NotText { id } => write!(
                f,
                "prompt `{id}` is `multi_turn`: it holds messages, not a text (see `prompt_messages`)"
            ),
            StoreError::PromptExists { id } => write!(f, "prompt `{id}` exists already"),
            StoreError::BadPromptId { id } => write!(
                f,
                "`{id}` is not a prompt id: use ASCII letters, digits, `_` and `-`"
            ),
            StoreError::NotUserPrompt { id } => write!(
                f,
                "prompt `{id}` is one of the defaults: reset it with `reset_prompt_to_default`, or turn it off with `set_enabled`"
            ),
            StoreError::NoDefault { id } => write!(
                f,
                "prompt `{id}` is the user's own and has no default: remove it with `delete_prompt`"
            ),
            StoreError::Archive { path, message } => write!(f, "archive `{path}`: {message}"),
            StoreError::PlaceholderExists { key, user } => write!(
                f,
                "placeholder `{{{{{key}}}}}` exists already{}",
                if *user {
                    " (a user placeholder: remove it first to change it)"
                } else {
                    " in the registry"
                }
            ),
            StoreError::BadPlaceholder { key } => write!(
                f,
                "`{key}` is not a placeholder name: use ASCII letters, digits and `_`, not starting with a digit"
            ),
            StoreError::NotUserPlaceholder { key, suggestion } => write!(
                f,
                "placeholder `{{{{{key}}}}}` is not one the user added{}",
                did_you_mean(suggestion)
            ),
            StoreError::PlaceholderInUse { key, prompts } => write!(
                f,
                "placeholder `{{{{{key}}}}}` is used by {}: change those texts first",
                ids(prompts)
            ),
            StoreError::DuplicateInOrder { id } => {
                write!(f, "prompt `{id}` is listed twice in the new order")
            }
            StoreError::Write { path, message } => write!(f, "cannot write `{path}`: {message}"),
        }
    }
}

impl std::error::Error for StoreError {}

fn did_you_mean(suggestion: &Option<String>) -> String {
    suggestion
        .as_ref()
        .map_or_else(String::new, |s| format!("; did you mean `{s}`?"))
}

fn names(what: &str, keys: &[String]) -> String {
    let list = keys
        .iter()
        .map(|k| format!("`{{{{{k}}}}}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if keys.len() == 1 {
        format!("{what} {list}")
    } else {
        format!("{what}s {list}")
    }
}

fn ids(prompts: &[String]) -> String {
    prompts
        .iter()
        .map(|p| format!("`{p}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn unknown_keys(keys: &[(String, Option<String>)]) -> String {
    let list = keys
        .iter()
        .map(|(k, s)| match s {
            Some(s) => format!("`{k}` (did you mean `{s}`?)"),
            None => format!("`{k}`"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!("values given for placeholders the registry does not have: {list}")
}
