//! Warnings the CLI adds to the language's checks.
//!
//! Without a typed context, every name that is not an identity key, a template or a literal
//! is taken as a context variable (see `check::infer_context`), so `$preambel` for the
//! template `preamble` passes the checks and fails only when rendered. A context variable
//! whose name is close to one of those known names is probably such a typo. It is a
//! warning, not an error: `$timezone_offset` beside the identity key `timezone` is fine.

use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::load::Project;
use prompt_runtime::resolve::VarSource;
use prompt_runtime::suggest::closest;
use prompt_runtime::{Diagnostic, SourceFile};

/// A warning for each context variable of `prompt` that looks like a misspelt name,
/// pointing at its first use.
pub fn warnings(project: &Project, prompt: &CheckedPrompt) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let names = prompt_runtime::formats::markdown::known_names(project);
    for variable in &prompt.resolved.variables {
        if variable.source != VarSource::Context {
            continue;
        }
        let Some(known) = closest(&variable.name, names.iter().map(String::as_str)) else {
            continue;
        };
        let mut d = Diagnostic::new(format!(
            "`${}` is not a template, an identity key or a literal, so it is read as a context value",
            variable.name
        ));
        if let Some(first) = variable.uses.first()
            && let Some(source) = source_of(project, prompt, &first.path)
        {
            d = d.at(&source, span_at(&source, first.line, first.col));
        }
        found.push(d.with_help(format!("did you mean `${known}`?")));
    }
    found
}

/// The loaded file with this display path: the prompt itself or one of the templates.
fn source_of(project: &Project, prompt: &CheckedPrompt, path: &str) -> Option<SourceFile> {
    if prompt.file.source.path() == path {
        return Some(prompt.file.source.clone());
    }
    project
        .templates
        .iter()
        .map(|(_, t)| &t.file.source)
        .find(|s| s.path() == path)
        .cloned()
}

/// The span of the placeholder or condition name at a 1-based line and column.
fn span_at(source: &SourceFile, line: usize, col: usize) -> std::ops::Range<usize> {
    source.span_at(line, col)
}

#[cfg(test)]
mod tests {
    use super::span_at;
    use prompt_runtime::SourceFile;

    #[test]
    fn spans_cover_the_placeholder() {
        let source = SourceFile::new("p.md", "first\nsé $headr and ${x_y}\n{% if mood %}");
        assert_eq!(&source.text()[span_at(&source, 2, 4)], "$headr");
        assert_eq!(&source.text()[span_at(&source, 2, 15)], "${x_y}");
        assert_eq!(&source.text()[span_at(&source, 3, 7)], "mood");
        // past the end: an empty span at the end, never a panic
        let end = source.text().len();
        assert_eq!(span_at(&source, 9, 9), end..end);
    }
}
