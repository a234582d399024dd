//! Two frontmatter keys that constrain what a prompt may use: `"cache": "static"` (the
//! prompt renders the same bytes on every turn, so a provider can cache it) and
//! `"context": ["day", "note"]` (the context values it takes, declared).

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::parse::Node;
use crate::parse::PromptFile;
use crate::resolve::{Resolved, Schema, Templates, Use, VarKind, VarSource, Variable};
use serde_json::value::RawValue;
use std::collections::BTreeSet;
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

/// What a variable is when its value changes per request (an identity key, a free-text
/// context value, a conversation); `None` for what renders one of a few fixed ways (a
/// choice, a flag, the guidance level) or is part of the prompt (a template, a literal).
fn per_request(variable: &Variable, schema: &Schema) -> Option<&'static str> {
    match variable.source {
        VarSource::Identity => Some("an identity value"),
        VarSource::Context => match schema
            .context_index(&variable.name)
            .map(|i| &schema.context[i].kind)
        {
            Some(VarKind::Choice(_) | VarKind::Flag) | None => None,
            Some(VarKind::Messages) => Some("a conversation's messages"),
            Some(VarKind::Text | VarKind::Optional) => Some("a free-text context value"),
        },
        VarSource::Template | VarSource::Literal => None,
    }
}

/// The errors for the places of `variable` that `counts` picks: where it is written (a
/// test of it in `{% if %}` renders one of two ways, and is fine), in the template's file
/// when it is in one.
fn written_uses(
    file: &PromptFile,
    templates: &Templates,
    variable: &Variable,
    counts: impl Fn(&Use, usize) -> bool,
    error: impl Fn(&str) -> Diagnostic,
    diagnostics: &mut Diagnostics,
) {
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
        let Some(source) = source else {
            if counts(place, 0) {
                diagnostics.push(error(&variable.name));
            }
            continue;
        };
        let at = source.offset(place.line, place.col);
        let rest = &source.text()[at..];
        if !(rest.starts_with('$') || rest.starts_with("{{")) || !counts(place, at) {
            continue;
        }
        diagnostics.push(error(&variable.name).at(&source, source.span_at(place.line, place.col)));
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
        let Some(what) = per_request(variable, schema) else {
            continue;
        };
        written_uses(
            file,
            templates,
            variable,
            |_, _| true,
            |name| {
                Diagnostic::new(format!("`{name}` is {what}, used in a static prompt")).with_help(
                    "a prompt marked `\"cache\": \"static\"` must render the same bytes on every turn, so that the model provider can cache it; a value that changes per request breaks the cache: move it to a per-request message, or make it a choice, a flag or the guidance level",
                )
            },
            &mut diagnostics,
        );
    }
    diagnostics
}

/// The uses that break the prefix a `{% cache_breakpoint %}` ends: a per-request value
/// (see [`per_request`]) or a history section before the prompt's last breakpoint,
/// directly or in a template used there.
pub(super) fn breakpoint_violations(
    file: &PromptFile,
    nodes: &[Node],
    schema: &Schema,
    resolved: &Resolved,
    templates: &Templates,
) -> Diagnostics {
    let mut diagnostics = Diagnostics::default();
    let Some(last) = nodes.iter().rev().find_map(|n| match n {
        Node::CacheBreakpoint(span) => Some(span.clone()),
        _ => None,
    }) else {
        return diagnostics;
    };
    let (line, _) = file.source.line_col(last.start);
    let main = file.source.path();
    // The files of the templates used before the breakpoint, and of the ones they use.
    let mut reached: BTreeSet<&str> = BTreeSet::new();
    loop {
        let before = reached.len();
        for variable in &resolved.variables {
            let Some(template) = (variable.source == VarSource::Template)
                .then(|| templates.get(&variable.name))
                .flatten()
            else {
                continue;
            };
            let used = variable.uses.iter().any(|place| {
                if place.path == main {
                    file.source.offset(place.line, place.col) < last.start
                } else {
                    reached.contains(place.path.as_str())
                }
            });
            if used {
                reached.insert(template.file.source.path());
            }
        }
        if reached.len() == before {
            break;
        }
    }
    let help = format!(
        "everything before the cache breakpoint on line {line} is the prefix the model provider caches, and must be the same bytes on every request; a value that changes per request breaks the cache: move it after the breakpoint, or make it a choice, a flag or the guidance level"
    );
    for node in nodes
        .iter()
        .take_while(|n| !matches!(n, Node::CacheBreakpoint(s) if *s == last))
    {
        if let Node::Section(section) = node
            && let crate::parse::SectionKind::History { name_span, .. } = &section.kind
        {
            diagnostics.push(
                Diagnostic::new(format!(
                    "the history `{}` comes before a cache breakpoint, and would break the cache",
                    section.name
                ))
                .at(&file.source, name_span.clone())
                .with_help(help.clone()),
            );
        }
    }
    for variable in &resolved.variables {
        let Some(what) = per_request(variable, schema) else {
            continue;
        };
        written_uses(
            file,
            templates,
            variable,
            |place, at| {
                if place.path == main {
                    at < last.start
                } else {
                    reached.contains(place.path.as_str())
                }
            },
            |name| {
                Diagnostic::new(format!(
                    "`{name}` is {what}, used before a cache breakpoint: it would break the cache"
                ))
                .with_help(help.clone())
            },
            &mut diagnostics,
        );
    }
    diagnostics
}
