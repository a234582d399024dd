//! A member's frontmatter `"scope"`: keep's prompt-doc `scope` tag, a glob over the id of
//! the item a prompt is chosen for (`"scope": "*@*.*"` for email addresses).

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::load::PromptFile;

/// The frontmatter key that holds a member's scope.
pub const SCOPE_KEY: &str = "scope";

/// The member's scope, if its frontmatter has one; a value that is not a string is an
/// error at its line and column. An empty string is no scope, as in keep.
///
/// ```
/// use prompt_runtime::family::read_scope;
/// use prompt_runtime::load::PromptFile;
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
