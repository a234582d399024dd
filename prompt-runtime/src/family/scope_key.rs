//! A member's frontmatter `"scope"`: keep's prompt-doc `scope` tag, a glob over the id of
//! the item a prompt is chosen for (`"scope": "*@*.*"` for email addresses).

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::parse::PromptFile;

/// The frontmatter key that holds a member's scope.
pub const SCOPE_KEY: &str = "scope";

/// The member's scope, if its frontmatter has one; a value that is not a string is an
/// error at its line and column. An empty string is no scope, as in keep.
///
/// ```
/// use promptic::family::read_scope;
/// use promptic::load::PromptFile;
///
/// let file = PromptFile::from_text("prompts/supernode/email.md", "{\n  \"scope\": \"*@*.*\"\n}\nA contact card.").unwrap();
/// assert_eq!(read_scope(&file).unwrap().as_deref(), Some("*@*.*"));
/// let bad = PromptFile::from_text("prompts/supernode/bad.md", "{\n  \"scope\": [\"*\"]\n}\nx").unwrap();
/// assert!(read_scope(&bad).unwrap_err().to_string().contains("prompts/supernode/bad.md:2:"));
/// ```
pub fn read_scope(file: &PromptFile) -> Result<Option<String>, Diagnostics> {
    let Some(entry) = file.frontmatter.as_ref().and_then(|f| f.get(SCOPE_KEY)) else {
        return Ok(None);
    };
    match serde_json::from_str::<String>(&entry.json) {
        Ok(scope) => Ok((!scope.is_empty()).then_some(scope)),
        Err(_) => Err(Diagnostic::new(format!(
            "frontmatter key `scope` must be a string, a glob over the item's id, found {}",
            entry.json
        ))
        .at(&file.source, entry.span.clone())
        .with_help("write one glob: `\"scope\": \"*@*.*\"` (`*` any run of characters, `?` one, `[...]` a class)")
        .into()),
    }
}

/// The frontmatter key of keep's `_when` condition, which promptic does not evaluate.
pub(crate) const WHEN_KEY: &str = "_when";

/// A member whose frontmatter has keep's `_when` condition (a CEL expression over the
/// item) is an error at the key, as [`UnsupportedCondition`](super::UnsupportedCondition)
/// is for keep's own documents: choosing it without the condition would choose unlike
/// keep. An empty condition is none, as in keep.
pub(crate) fn refuse_condition(file: &PromptFile) -> Result<(), Diagnostics> {
    let Some(entry) = file.frontmatter.as_ref().and_then(|f| f.get(WHEN_KEY)) else {
        return Ok(());
    };
    if serde_json::from_str::<String>(&entry.json).is_ok_and(|w| w.is_empty()) {
        return Ok(());
    }
    Err(Diagnostic::new(format!(
        "frontmatter key `_when` ({}) is keep's condition over the item, which promptic does not evaluate",
        entry.json
    ))
    .at(&file.source, entry.span.clone())
    .with_help("choose the member by `\"match\"` rules or a `\"scope\"` glob instead, or leave it out of the family: without the condition it would be chosen for items keep would not choose it for")
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_when_condition_is_refused_at_its_key_and_an_empty_one_is_none() {
        let file = |text: &str| PromptFile::from_text("prompts/fam/rust.md", text).unwrap();
        let err = refuse_condition(&file(
            "{\n  \"_when\": \"item.content_type == 'text/x-rust'\"\n}\nR",
        ))
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("prompts/fam/rust.md:2:"), "{text}");
        assert!(text.contains("promptic does not evaluate"), "{text}");
        assert!(refuse_condition(&file("{\n  \"_when\": \"\"\n}\nR")).is_ok());
        assert!(refuse_condition(&file("{\n  \"_when\": true\n}\nR")).is_err());
        assert!(refuse_condition(&file("No frontmatter.")).is_ok());
    }
}
