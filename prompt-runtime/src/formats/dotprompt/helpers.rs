//! Helpers registered from Rust: what a template's `{{name args key=value}}` calls when
//! `name` is neither dotprompt's nor Handlebars' own.
//!
//! dotprompt compiles templates with only the helpers it knows (`knownHelpersOnly`): a
//! name with arguments that no one registered is an error, a name without arguments is
//! a value. A registered helper is known at parse time the same way, so its name with or
//! without arguments is a call, and a misspelt one is still an error with a suggestion.
//!
//! A helper receives the values of its arguments as JavaScript would pass them
//! ([`HelperArgs`]) and returns a [`Value`], printed as Handlebars prints a helper's
//! result: nothing for `null`, numbers and booleans added to the values beside them,
//! anything else as JavaScript's `String()`.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use super::value::{Object, Value};

/// A helper's implementation: the call's arguments in, the value it prints out, or an
/// error message (reported at the tag that called it).
pub type HelperFn = dyn Fn(&HelperArgs<'_>) -> Result<Value, String> + Send + Sync;

/// A helper function as a plain function pointer: what a derived prompt's
/// `#[prompt("name", helpers(list = my_list))]` names.
pub type HelperPtr = fn(&HelperArgs<'_>) -> Result<Value, String>;

/// The names dotprompt defines: `{{role}}`, `{{history}}`, `{{section}}`, `{{media}}`,
/// `{{json}}`; and `{{cacheBreakpoint}}`, promptic's own (where a cacheable prefix ends).
pub const DOTPROMPT_HELPERS: [&str; 6] = [
    "role",
    "history",
    "section",
    "media",
    "json",
    "cacheBreakpoint",
];

/// Handlebars' inline helpers that dotprompt keeps.
pub const HANDLEBARS_HELPERS: [&str; 2] = ["lookup", "log"];

/// The block helpers (`{{#if}}` ...).
pub const BLOCK_HELPERS: [&str; 6] = ["if", "unless", "each", "with", "ifEquals", "unlessEquals"];

/// Names Handlebars reserves for itself.
pub const INTERNAL_HELPERS: [&str; 2] = ["helperMissing", "blockHelperMissing"];

/// The arguments of one call of a registered helper: positional values (`None` where
/// JavaScript passes `undefined`, a path that reads nothing), `key=value` values, and
/// the context the call is in (`this`).
///
/// ```
/// use promptic::dotprompt::{DataArgument, Registry, Value};
///
/// let mut registry = Registry::new();
/// registry.define_helper("shout", |args| {
///     let text = args.param(0).and_then(Value::as_str).unwrap_or_default();
///     let marks = args.hash("marks").and_then(Value::as_f64).unwrap_or(1.0);
///     Ok(Value::from(format!("{}{}", text.to_uppercase(), "!".repeat(marks as usize))))
/// })?;
/// let prompt = registry.parse("{{shout name marks=2}} ({{shout}})")?;
/// let data: DataArgument = serde_json::from_str(r#"{"input": {"name": "ada"}}"#).unwrap();
/// let rendered = prompt.render(&data).unwrap();
/// assert_eq!(rendered.messages[0].content[0].text(), Some("ADA!! (!)"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct HelperArgs<'a> {
    pub(crate) name: &'a str,
    pub(crate) params: &'a [Option<Value>],
    pub(crate) hash: &'a Object,
    pub(crate) this: &'a Value,
}

impl<'a> HelperArgs<'a> {
    /// The helper's name as the template calls it.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// How many positional arguments the template passes.
    pub fn len(&self) -> usize {
        self.params.len()
    }

    /// Whether the template passes no positional argument.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }

    /// The positional argument `i`: `None` when there is none or it is `undefined`.
    pub fn param(&self, i: usize) -> Option<&'a Value> {
        self.params.get(i).and_then(Option::as_ref)
    }

    /// The positional arguments in order, `None` for `undefined`.
    pub fn params(&self) -> impl Iterator<Item = Option<&'a Value>> + 'a {
        self.params.iter().map(Option::as_ref)
    }

    /// The `key=value` argument `key` (`None` when absent or `undefined`).
    pub fn hash(&self, key: &str) -> Option<&'a Value> {
        self.hash.get(key)
    }

    /// Every `key=value` argument that has a value, in the order written.
    pub fn hash_entries(&self) -> &'a Object {
        self.hash
    }

    /// The context the call is in: the input, or the item of the enclosing `{{#each}}`,
    /// the value of `{{#with}}`, a partial's context.
    pub fn this(&self) -> &'a Value {
        self.this
    }
}

impl fmt::Debug for HelperArgs<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HelperArgs")
            .field("name", &self.name)
            .field("params", &self.params)
            .field("hash", &self.hash)
            .finish_non_exhaustive()
    }
}

/// A registered helper, shared by the prompts parsed with it.
pub(crate) type Helper = Arc<HelperFn>;

/// The helpers a registry or a prompt holds, by name.
#[derive(Clone, Default)]
pub(crate) struct Helpers(pub HashMap<String, Helper>);

impl Helpers {
    /// The names, sorted.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.0.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }
}

impl fmt::Debug for Helpers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.names()).finish()
    }
}

/// Why a name cannot be registered as a helper, or `None` when it can: it must be a
/// name a tag can call (`{{name ...}}`) and not one dotprompt or Handlebars defines.
pub(crate) fn refused_name(name: &str) -> Option<String> {
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '-');
    if !simple || name == "this" || name == "else" {
        return Some(format!(
            "`{name}` cannot be a helper's name: a template calls a helper as `{{{{name ...}}}}` with a name of letters, digits, `_`, `$` or `-`"
        ));
    }
    let builtin = DOTPROMPT_HELPERS
        .iter()
        .chain(&HANDLEBARS_HELPERS)
        .chain(&BLOCK_HELPERS)
        .chain(&INTERNAL_HELPERS)
        .any(|b| *b == name);
    builtin.then(|| {
        format!("`{name}` is a helper dotprompt or Handlebars defines: a registered helper needs a name of its own")
    })
}

#[cfg(test)]
mod tests {
    use super::refused_name;

    #[test]
    fn names_a_tag_can_call_and_that_no_one_defines() {
        assert_eq!(refused_name("list"), None);
        assert_eq!(refused_name("add_2"), None);
        assert_eq!(refused_name("kebab-case"), None);
        for bad in ["", "a.b", "a b", "2x", "this", "else", "{{x}}"] {
            assert!(
                refused_name(bad)
                    .unwrap()
                    .contains("cannot be a helper's name"),
                "{bad}"
            );
        }
        for taken in [
            "json",
            "if",
            "lookup",
            "log",
            "helperMissing",
            "ifEquals",
            "cacheBreakpoint",
        ] {
            assert!(refused_name(taken).unwrap().contains("defines"), "{taken}");
        }
    }
}
