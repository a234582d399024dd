//! Who speaks a message, and how many cache breakpoints a prompt may mark: the small
//! facts about chats that the language core already needs when it parses a section
//! directive. Reached through [`crate::chat`].

use serde_core::{Deserialize, Deserializer, Serialize, Serializer, de};
use std::fmt;

/// Who speaks a message. Serialized as its name (`"system"`, ...); read from its name, or
/// from `"model"`, the assistant's name in dotprompt and Gemini's API.
///
/// ```
/// use promptic::chat::Role;
///
/// let roles: Vec<Role> = serde_json::from_str(r#"["user", "model", "assistant"]"#)?;
/// assert_eq!(roles, [Role::User, Role::Assistant, Role::Assistant]);
/// assert_eq!(serde_json::to_string(&Role::Assistant)?, r#""assistant""#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Instructions to the model.
    System,
    /// The person talking to the model.
    User,
    /// The model.
    Assistant,
    /// A tool's answer to the model's call (dotprompt's `tool` messages).
    Tool,
}

impl Role {
    /// `system`, `user`, `assistant` or `tool`.
    ///
    /// ```
    /// assert_eq!(promptic::chat::Role::Assistant.as_str(), "assistant");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    /// The role named by `word` (`system`, `user`, `assistant`).
    ///
    /// ```
    /// use promptic::chat::Role;
    /// assert_eq!(Role::from_word("user"), Some(Role::User));
    /// assert_eq!(Role::from_word("User"), None);
    /// ```
    pub fn from_word(word: &str) -> Option<Role> {
        match word {
            "system" => Some(Role::System),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            _ => None,
        }
    }
}

/// The roles' names, in order.
const NAMES: &[&str] = &["system", "user", "assistant", "tool"];

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_variant("Role", *self as u32, self.as_str())
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Role, D::Error> {
        struct Name;
        impl de::Visitor<'_> for Name {
            type Value = Role;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a role: `system`, `user`, `assistant` or `tool`")
            }
            fn visit_str<E: de::Error>(self, word: &str) -> Result<Role, E> {
                match word {
                    "tool" => Ok(Role::Tool),
                    "model" => Ok(Role::Assistant),
                    _ => Role::from_word(word).ok_or_else(|| E::unknown_variant(word, NAMES)),
                }
            }
        }
        deserializer.deserialize_str(Name)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The most cache breakpoints a prompt may mark: the `cache_control` marks Anthropic's
/// Messages API takes in one request.
pub const MAX_CACHE_BREAKPOINTS: usize = 4;
