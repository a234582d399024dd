//! The static prefix before a prompt's last `{{cacheBreakpoint}}`: the bytes a model
//! provider caches, which must be the same on every request. It may test values
//! (`{{#if flag}}` renders one of a few ways) and name roles, sections and media with
//! literals, but may not write a value, the history or a registered helper's output,
//! directly or through a partial.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use super::PartialTemplate;
use super::ast::{BlockKind, Expr, HelperName, Node, Span};
use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};

/// Every value written before the last breakpoint of `nodes` (a prompt's top level), as
/// an error at its use; none when it marks none.
pub(crate) fn check(
    nodes: &[Node],
    source: &SourceFile,
    partials: &HashMap<String, Arc<PartialTemplate>>,
) -> Diagnostics {
    let mut errors = Diagnostics::default();
    let last = nodes
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, node)| match node {
            Node::Helper(call) if call.name == HelperName::CacheBreakpoint => {
                Some((i, call.span.start))
            }
            _ => None,
        });
    let Some((last, at)) = last else {
        return errors;
    };
    let (line, _) = source.line_col(at);
    let help = format!(
        "everything before the cache breakpoint on line {line} is the prefix the model provider caches, and must be the same bytes on every request: move the value after the breakpoint, or only test it (`{{{{#if …}}}}`)"
    );
    let mut report = |name: &str, file: &SourceFile, span: Span| {
        errors.push(
            Diagnostic::new(format!(
                "`{name}` is written before a cache breakpoint: it would break the cache"
            ))
            .at(file, span)
            .with_help(help.clone()),
        );
    };
    let before = nodes.get(..last).unwrap_or_default();
    written(before, source, partials, &mut BTreeSet::new(), &mut report);
    errors
}

type Report<'r> = dyn FnMut(&str, &SourceFile, Span) + 'r;

/// Reports what `nodes` (of `source`) write that can differ between requests, and what
/// the partials they include do (each partial once).
fn written(
    nodes: &[Node],
    source: &SourceFile,
    partials: &HashMap<String, Arc<PartialTemplate>>,
    walked: &mut BTreeSet<String>,
    report: &mut Report<'_>,
) {
    let paths = |exprs: &mut dyn Iterator<Item = &Expr>, report: &mut Report<'_>| {
        for expr in exprs {
            if let Expr::Path(path) = expr {
                report(&path.original, source, path.span.clone());
            }
        }
    };
    for node in nodes {
        match node {
            Node::Text(_) => {}
            Node::Value(expr) => paths(&mut std::iter::once(expr), report),
            Node::Helper(call) => match call.name {
                HelperName::Log | HelperName::CacheBreakpoint => {}
                HelperName::History => report("history", source, call.span.clone()),
                HelperName::Custom => report(&call.custom, source, call.span.clone()),
                HelperName::Role
                | HelperName::Section
                | HelperName::Media
                | HelperName::Json
                | HelperName::Lookup => paths(
                    &mut call.params.iter().chain(call.hash.iter().map(|(_, e)| e)),
                    report,
                ),
            },
            Node::Block(block) => {
                // A test renders one of a few fixed ways; a loop as many times as the list
                // is long.
                if block.kind == BlockKind::Each {
                    paths(&mut block.params.iter(), report);
                }
                written(&block.body, source, partials, walked, report);
                written(&block.inverse, source, partials, walked, report);
            }
            Node::Partial(call) => {
                if walked.insert(call.name.clone())
                    && let Some(partial) = partials.get(&call.name)
                {
                    written(&partial.nodes, &partial.source, partials, walked, report);
                }
            }
        }
    }
}
