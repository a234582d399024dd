//! A typed context's values by name, for the renderers that work at run time.
//!
//! `#[derive(Prompt)]` compiles a render function for the prompt as it was at build time.
//! To render another text with the same struct (a prompt reloaded from its file in
//! development, see `hot` with the `hot-reload` feature), the runtime needs the struct's
//! fields as data: [`ContextValues::CONTEXT`] says which context variables the struct has
//! and of what kind, [`ContextValues::context_values`] gives one value's values. With the `hot-reload`
//! feature, the derive implements the trait for every prompt struct (text prompts, chat
//! prompts, families and keep agent prompts); without it, for none, so that a crate of
//! prompts does not compile what only hot reload reads.

use crate::chat::Message;
use crate::render::Fill;
use crate::resolve::{ContextVar, VarKind};
use std::borrow::Cow;
use std::collections::HashMap;

/// A struct's context variables, as data. Implemented by `#[derive(promptic::Prompt)]`
/// when promptic's `hot-reload` feature is on.
///
/// ```
/// use promptic::context::{ContextField, ContextValue, ContextValues, FieldKind};
///
/// // What the derive writes for `struct Daily<'a> { day: &'a str, note: Option<&'a str> }`.
/// struct Daily<'a> {
///     day: &'a str,
///     note: Option<&'a str>,
/// }
///
/// impl ContextValues for Daily<'_> {
///     const STRUCT_NAME: &'static str = "Daily";
///     const CONTEXT: &'static [ContextField] = &[
///         ContextField { name: "day", kind: FieldKind::Text },
///         ContextField { name: "note", kind: FieldKind::Optional },
///     ];
///     fn context_values(&self) -> Vec<(&'static str, ContextValue<'_>)> {
///         vec![
///             ("day", ContextValue::Text(self.day.into())),
///             ("note", self.note.map_or(ContextValue::Absent, |n| ContextValue::Text(n.into()))),
///         ]
///     }
/// }
///
/// let daily = Daily { day: "Friday", note: None };
/// let map = daily.context_map();
/// assert_eq!(map.get("day").map(String::as_str), Some("Friday"));
/// assert!(!map.contains_key("note"));
/// ```
pub trait ContextValues {
    /// The struct's name (`SegmentSynthesis`), for diagnostics.
    const STRUCT_NAME: &'static str;
    /// The context variables, in field order: each field's name in the prompt (after
    /// `#[prompt(rename = "...")]`) and its kind.
    const CONTEXT: &'static [ContextField];

    /// This value's values, one per entry of [`ContextValues::CONTEXT`] and in its order,
    /// each with its name. Text values that are string-like are borrowed; others are
    /// formatted with `Display`.
    fn context_values(&self) -> Vec<(&'static str, ContextValue<'_>)>;

    /// The values as a map of text, as [`crate::check::CheckedPrompt::render`] takes them:
    /// a flag is `"true"` or `"false"`, an absent optional is left out, a choice is its
    /// value, and messages are left out (they go to
    /// [`crate::check::CheckedPrompt::messages`] as the history).
    ///
    /// A map of text cannot tell an `Option` from a `bool`: the run-time renderer reads an
    /// optional given as empty text or a false word (`"no"`) as absent. To render exactly
    /// as the compiled code does, use [`ContextValues::context_values`].
    ///
    /// ```
    /// use promptic::context::{ContextField, ContextValue, ContextValues, FieldKind};
    ///
    /// struct Flags {
    ///     verbose: bool,
    /// }
    /// impl ContextValues for Flags {
    ///     const STRUCT_NAME: &'static str = "Flags";
    ///     const CONTEXT: &'static [ContextField] = &[ContextField { name: "verbose", kind: FieldKind::Flag }];
    ///     fn context_values(&self) -> Vec<(&'static str, ContextValue<'_>)> {
    ///         vec![("verbose", ContextValue::Flag(self.verbose))]
    ///     }
    /// }
    /// assert_eq!(Flags { verbose: false }.context_map()["verbose"], "false");
    /// ```
    fn context_map(&self) -> HashMap<String, String> {
        self.context_values()
            .into_iter()
            .filter_map(|(name, value)| {
                let text = match value {
                    ContextValue::Text(text) => text.into_owned(),
                    ContextValue::Flag(on) => on.to_string(),
                    ContextValue::Absent | ContextValue::Messages(_) => return None,
                };
                Some((name.to_owned(), text))
            })
            .collect()
    }
}

/// A context variable of a compiled struct: see [`ContextValues::CONTEXT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContextField {
    /// The name in the prompt (`day_YYYYMMDD` for a field renamed so).
    pub name: &'static str,
    /// What values it takes.
    pub kind: FieldKind,
}

impl ContextField {
    /// The variable as a schema takes it.
    ///
    /// ```
    /// use promptic::context::{ContextField, FieldKind};
    /// use promptic::resolve::{ContextVar, VarKind};
    ///
    /// let level = ContextField { name: "level", kind: FieldKind::Choice(&["lean", "detailed"]) };
    /// assert_eq!(
    ///     level.to_var(),
    ///     ContextVar::new("level", VarKind::Choice(vec!["lean".into(), "detailed".into()]))
    /// );
    /// ```
    pub fn to_var(&self) -> ContextVar {
        ContextVar::new(self.name, self.kind.to_var_kind())
    }
}

/// The kind of a compiled context variable: [`VarKind`] as a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// Always present text: any `Display` or string-like field.
    Text,
    /// An `Option<T>`: may be absent, usable only inside `{% if name %}`.
    Optional,
    /// A `bool`, for `{% if name %}`.
    Flag,
    /// A field with `#[prompt(one_of(...))]`, or the guidance level: one of these values.
    Choice(&'static [&'static str]),
    /// `&[Message]` or `Vec<Message>`, for `{% history name %}`.
    Messages,
}

impl FieldKind {
    /// The same kind as [`VarKind`].
    ///
    /// ```
    /// use promptic::context::FieldKind;
    /// use promptic::resolve::VarKind;
    ///
    /// assert_eq!(FieldKind::Flag.to_var_kind(), VarKind::Flag);
    /// ```
    pub fn to_var_kind(&self) -> VarKind {
        match self {
            FieldKind::Text => VarKind::Text,
            FieldKind::Optional => VarKind::Optional,
            FieldKind::Flag => VarKind::Flag,
            FieldKind::Choice(values) => {
                VarKind::Choice(values.iter().map(|v| (*v).to_owned()).collect())
            }
            FieldKind::Messages => VarKind::Messages,
        }
    }
}

/// One field of a Markdown prompt's struct, borrowed for a render: see
/// [`ContextValues::context_values`]. What fills a placeholder ([`Fill`]), or a history
/// section's messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContextValue<'a> {
    /// A text or choice field, or an optional one that is `Some`: its text.
    Text(Cow<'a, str>),
    /// A `bool` field.
    Flag(bool),
    /// An optional field that is `None`.
    Absent,
    /// A history field's messages.
    Messages(&'a [Message]),
}

impl ContextValue<'_> {
    /// What it fills a placeholder with; messages are [`Fill::Absent`] there (they are
    /// given to the renderer as the history).
    ///
    /// ```
    /// use promptic::context::ContextValue;
    /// use promptic::render::Fill;
    ///
    /// assert_eq!(ContextValue::Text("Friday".into()).fill(), Fill::Text("Friday"));
    /// assert_eq!(ContextValue::Flag(true).fill(), Fill::Flag(true));
    /// ```
    pub fn fill(&self) -> Fill<'_> {
        match self {
            ContextValue::Text(text) => Fill::Text(text),
            ContextValue::Flag(on) => Fill::Flag(*on),
            ContextValue::Absent | ContextValue::Messages(_) => Fill::Absent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_map_to_the_schema_kinds() {
        let all = [
            (FieldKind::Text, VarKind::Text),
            (FieldKind::Optional, VarKind::Optional),
            (FieldKind::Flag, VarKind::Flag),
            (FieldKind::Messages, VarKind::Messages),
            (
                FieldKind::Choice(&["a", "b"]),
                VarKind::Choice(vec!["a".into(), "b".into()]),
            ),
        ];
        for (field, var) in all {
            assert_eq!(field.to_var_kind(), var);
        }
    }

    #[test]
    fn values_as_the_renderer_reads_them() {
        let turns = [Message::user("hi")];
        assert_eq!(ContextValue::Absent.fill(), Fill::Absent);
        assert_eq!(ContextValue::Messages(&turns).fill(), Fill::Absent);
        assert_eq!(
            ContextValue::Text(Cow::Owned("x".into())).fill(),
            Fill::Text("x")
        );
    }
}
