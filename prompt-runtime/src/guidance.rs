//! Guidance levels: one template serves frontier and small models.
//!
//! Coaching sits inside `{% if guidance == "detailed" %}` fences; lean is what remains.
//! promptic proves per prompt, templates included, that lean renders no line detailed
//! cannot (see [`crate::resolve`]), so a small model never gets text a large one would not.

use serde_core::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How much scaffolding a prompt gives the model.
///
/// ```
/// use promptic::Guidance;
///
/// assert_eq!(Guidance::default(), Guidance::Detailed);
/// assert_eq!("lean".parse::<Guidance>(), Ok(Guidance::Lean));
/// assert!("Lean".parse::<Guidance>().is_err());
/// assert_eq!(Guidance::Lean.to_string(), "lean");
/// assert_eq!(serde_json::to_string(&Guidance::Detailed).unwrap(), r#""detailed""#);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Guidance {
    /// The least scaffolding: for frontier models.
    Lean,
    /// Every fence included: the fail-safe default, so a path that forgot the level gets
    /// more scaffolding, never less.
    #[default]
    Detailed,
}

/// Its name, `"lean"` or `"detailed"`.
impl Serialize for Guidance {
    fn serialize<S: serde_core::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_variant("Guidance", *self as u32, self.as_str())
    }
}

/// `"lean"` or `"detailed"`.
impl<'de> Deserialize<'de> for Guidance {
    fn deserialize<D: serde_core::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Level;
        impl serde_core::de::Visitor<'_> for Level {
            type Value = Guidance;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a guidance level: `lean` or `detailed`")
            }
            fn visit_str<E: serde_core::de::Error>(self, word: &str) -> Result<Guidance, E> {
                word.parse().map_err(|_| E::unknown_variant(word, &LEVELS))
            }
        }
        deserializer.deserialize_str(Level)
    }
}

/// The name reserved for the level, in prompts and contexts.
pub const GUIDANCE: &str = "guidance";

/// The words the levels are written as.
pub const LEVELS: [&str; 2] = ["lean", "detailed"];

impl Guidance {
    /// `lean` or `detailed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Guidance::Lean => "lean",
            Guidance::Detailed => "detailed",
        }
    }

    /// The first valid level of a chain in order (user preference, deployment config, the
    /// model's entry, …), skipping absent and invalid ones; `Detailed` when none is valid.
    ///
    /// ```
    /// use promptic::Guidance;
    ///
    /// assert_eq!(Guidance::resolve([None, Some("leen"), Some("lean"), Some("detailed")]), Guidance::Lean);
    /// assert_eq!(Guidance::resolve([None, Some("")]), Guidance::Detailed);
    /// assert_eq!(Guidance::resolve(std::iter::empty::<Option<&str>>()), Guidance::Detailed);
    /// ```
    pub fn resolve<'a>(levels: impl IntoIterator<Item = Option<&'a str>>) -> Guidance {
        levels
            .into_iter()
            .flatten()
            .find_map(|level| level.parse().ok())
            .unwrap_or_default()
    }
}

/// A word that is not a guidance level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGuidance(pub String);

impl std::fmt::Display for UnknownGuidance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnknownGuidance(word) => {
                write!(
                    f,
                    "`{word}` is not a guidance level: write `lean` or `detailed`"
                )
            }
        }
    }
}

impl std::error::Error for UnknownGuidance {}

impl FromStr for Guidance {
    type Err = UnknownGuidance;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "lean" => Ok(Guidance::Lean),
            "detailed" => Ok(Guidance::Detailed),
            other => Err(UnknownGuidance(other.to_owned())),
        }
    }
}

impl fmt::Display for Guidance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl AsRef<str> for Guidance {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}
