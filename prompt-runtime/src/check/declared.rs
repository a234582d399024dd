//! Two frontmatter keys that constrain what a prompt may use: `"cache": "static"` (the
//! prompt renders the same bytes on every turn, so a provider can cache it) and
//! `"context": ["day", "note"]` (the context values it takes, declared).

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::load::PromptFile;
use crate::resolve::{Resolved, Schema, Templates, VarKind, VarSource};
use serde_json::value::RawValue;
use std::ops::Range;

/// Declared context names, each with the span of its string in the file.
pub type Declared = Vec<(String, Range<usize>)>;

/// The names a prompt declares with `"context": [...]`, each with its span; `Ok(None)`
/// without the key.
///
/// ```
/// use promptic::check::declared_context;
/// use promptic::load::PromptFile;
///
/// let file = PromptFile::from_text("p.md", "{\n\"context\": [\"day\", \"note\"]\n}\n$day").unwrap();
/// let names: Vec<String> = declared_context(&file).unwrap().unwrap().into_iter().map(|(n, _)| n).collect();
/// assert_eq!(names, ["day", "note"]);
/// let bad = PromptFile::from_text("p.md", "{\n\"context\": [\"day\", \"no te\"]\n}\nx").unwrap();
/// assert_eq!(declared_context(&bad).unwrap_err().0[0].message(), "`no te` is not a placeholder name");
/// ```
pub fn declared_context(file: &PromptFile) -> Result<Option<Declared>, Diagnostics> {
    let Some(entry) = file.frontmatter.as_ref().and_then(|f| f.get("context")) else {
        return Ok(None);
    };
    let source = &file.source;
    let usage = r#"write the context values the prompt takes: `"context": ["day", "note"]`"#;
    let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(&entry.json) else {
        return Err(Diagnostic::new("`context` must be a list of names")
            .at(source, entry.span.clone())
            .with_help(usage)
            .into());
    };
    let base = entry.json.as_ptr() as usize;
    let mut names: Vec<(String, Range<usize>)> = Vec::new();
    let mut diagnostics = Diagnostics::default();
    for item in items {
        let start = entry.span.start + (item.get().as_ptr() as usize - base);
        let span = start..start + item.get().len();
        match serde_json::from_str::<String>(item.get()) {
            Ok(name) if crate::parse::lexer::is_name(&name) => {
                if names.iter().any(|(n, _)| *n == name) {
                    diagnostics.push(
                        Diagnostic::new(format!("`{name}` is declared twice"))
                            .at(source, span)
                            .with_help("remove one of them"),
                    );
                } else {
                    names.push((name, span));
                }
            }
            Ok(name) => diagnostics.push(
                Diagnostic::new(format!("`{name}` is not a placeholder name"))
                    .at(source, span)
                    .with_help(
                        "a name is ASCII letters, digits and `_`, not starting with a digit",
                    ),
            ),
            Err(_) => diagnostics.push(
                Diagnostic::new("`context` lists names as strings")
                    .at(source, span)
                    .with_help(usage),
            ),
        }
    }
    diagnostics.into_result(Some(names))
}

/// True when the frontmatter says `"cache": "static"`; a `cache` other than `"static"` is
/// an error.
pub(super) fn is_static(file: &PromptFile) -> Result<bool, Diagnostic> {
    let Some(entry) = file.frontmatter.as_ref().and_then(|f| f.get("cache")) else {
        return Ok(false);
    };
    match serde_json::from_str::<String>(&entry.json).as_deref() {
        Ok("static") => Ok(true),
        _ => Err(Diagnostic::new(format!(
            "`cache` must be \"static\", found {}",
            entry.json
        ))
        .at(&file.source, entry.span.clone())
        .with_help("write `\"cache\": \"static\"` for a prompt that renders the same on every turn, or leave the key out")),
    }
}

/// The uses that break a static prompt: identity keys and free-text context values (a
/// choice, a flag or the guidance level have a few fixed renderings and are fine), where
/// they are written, the template's file when they are in one.
pub(super) fn static_violations(
    file: &PromptFile,
    schema: &Schema,
    resolved: &Resolved,
    templates: &Templates,
) -> Diagnostics {
    let mut diagnostics = Diagnostics::default();
    for variable in &resolved.variables {
        let what = match variable.source {
            VarSource::Identity => "an identity value",
            VarSource::Context => match schema
                .context_index(&variable.name)
                .map(|i| &schema.context[i].kind)
            {
                Some(VarKind::Choice(_) | VarKind::Flag) | None => continue,
                Some(VarKind::Messages) => "a conversation's messages",
                Some(VarKind::Text | VarKind::Optional) => "a free-text context value",
            },
            VarSource::Template | VarSource::Literal => continue,
        };
        for place in &variable.uses {
            let source = if place.path == file.source.path() {
                Some(file.source.clone())
            } else {
                templates
                    .iter()
                    .map(|(_, t)| &t.file.source)
                    .find(|s| s.path() == place.path)
                    .cloned()
            };
            let mut d = Diagnostic::new(format!(
                "`{}` is {what}, used in a static prompt",
                variable.name
            ));
            if let Some(source) = &source {
                let at = source.offset(place.line, place.col);
                let rest = &source.text()[at..];
                // Tested, not written (`{% if note %}`): a block renders one of two ways.
                if !(rest.starts_with('$') || rest.starts_with("{{")) {
                    continue;
                }
                d = d.at(source, source.span_at(place.line, place.col));
            }
            diagnostics.push(d.with_help(
                "a prompt marked `\"cache\": \"static\"` must render the same bytes on every turn, so that the model provider can cache it; a value that changes per request breaks the cache: move it to a per-request message, or make it a choice, a flag or the guidance level",
            ));
        }
    }
    diagnostics
}
