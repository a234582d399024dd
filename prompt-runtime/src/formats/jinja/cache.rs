//! `{# cache: static #}` as a template's first comment: the Jinja form of `"cache":
//! "static"`. Such a prompt must render the same bytes on every turn at a level, so that a
//! provider can cache it: it may test values (`{% if flag %}` renders one of a few ways)
//! and read `guidance`, but may not write a value into its text, directly or through an
//! include. Loop variables and `set` names count as what they are read from.
//!
//! `{# cache_breakpoint #}` at the top level of a prompt marks where its cacheable prefix
//! ends: what comes before it is held to the same rule.

use super::expr::{Expr, ExprKind, visit};
use super::parser::Node;
use super::set::Templates;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::guidance::GUIDANCE;

/// The comment that marks a static prompt.
pub(crate) const MARK: &str = "cache: static";

/// Every value `entry` writes into its text, through its includes, as an error at its use.
pub(crate) fn check(set: &Templates, entry: &str, errors: &mut Diagnostics) {
    let Some(template) = set.get(entry) else {
        return;
    };
    let mut walked = std::collections::HashSet::new();
    let error = |n: &str| {
        Diagnostic::new(format!("`{n}` is written into a static prompt"))
            .with_help("a prompt marked `{# cache: static #}` must render the same bytes on every turn, so that the provider can cache it: move the value to a per-request message, or only test it (`{% if … %}`)")
    };
    walk(
        set,
        entry,
        template,
        &template.nodes,
        &mut walked,
        &error,
        errors,
    );
}

/// The `{# cache_breakpoint #}` comments of the templates `entry` renders: only `entry`'s
/// own may mark one (where a prefix ends is the prompt's choice, not an included part's),
/// and every value written before its last one, through its includes, is an error at its
/// use.
pub(crate) fn check_breakpoints(set: &Templates, entry: &str, errors: &mut Diagnostics) {
    for name in set.names() {
        let Some(template) = set.get(name) else {
            continue;
        };
        if name != entry
            && let Some((_, span)) = template.breakpoints.first()
        {
            errors.push(
                Diagnostic::new(format!("a cache breakpoint in the included template `{name}`"))
                    .at(&template.source, span.clone())
                    .with_help(format!("where a cached prefix ends is the prompt's choice: move the comment into `{entry}`, after the include")),
            );
        }
    }
    let Some(template) = set.get(entry) else {
        return;
    };
    let Some((last, span)) = template.breakpoints.last() else {
        return;
    };
    let (line, _) = template.source.line_col(span.start);
    let help = format!(
        "everything before the cache breakpoint on line {line} is the prefix the model provider caches, and must be the same bytes on every request: move the value after the breakpoint, or only test it (`{{% if … %}}`)"
    );
    let error = |n: &str| {
        Diagnostic::new(format!(
            "`{n}` is written before a cache breakpoint: it would break the cache"
        ))
        .with_help(help.clone())
    };
    let before = template.nodes.get(..*last).unwrap_or_default();
    let mut walked = std::collections::HashSet::new();
    walk(set, entry, template, before, &mut walked, &error, errors);
}

/// Reports, with `error`, every value `nodes` of `template` (named `name`) write, and
/// those of the templates they include.
fn walk<'a>(
    set: &'a Templates,
    name: &str,
    template: &'a super::Template,
    nodes: &'a [Node],
    walked: &mut std::collections::HashSet<String>,
    error: &dyn Fn(&str) -> Diagnostic,
    errors: &mut Diagnostics,
) {
    if !walked.insert(name.to_owned()) {
        return;
    }
    let mut written = Vec::new();
    let mut bound = Vec::new();
    let mut foreign = Vec::new();
    self::nodes(nodes, &mut written, &mut bound, &mut foreign);
    for expr in written {
        visit(expr, &mut |e| {
            if let ExprKind::Name(n) = &e.kind
                && n != GUIDANCE
                && !bound.contains(&n.as_str())
            {
                errors.push(error(n).at(&template.source, e.span.clone()));
            }
        });
    }
    let mut includes = Vec::new();
    super::set::includes_of(nodes, &mut includes);
    for (included, _) in includes {
        if let Some(inner) = set.get(&included) {
            walk(set, &included, inner, &inner.nodes, walked, error, errors);
        }
    }
    // A parent template, or a block of another template, in place: walked once each.
    for (other, nodes) in foreign {
        if let Some(inner) = set.get(other) {
            let key = format!("{other}@{:p}", nodes.as_ptr());
            walk(set, &key, inner, nodes, walked, error, errors);
        }
    }
}

/// The expressions whose values reach the text: outputs, what loops iterate (their items
/// are the loop variables), and what `set` stores; and the names the file binds itself.
fn nodes<'a>(
    nodes: &'a [Node],
    out: &mut Vec<&'a Expr>,
    bound: &mut Vec<&'a str>,
    foreign: &mut Vec<(&'a str, &'a [Node])>,
) {
    for node in nodes {
        match node {
            Node::Output(expr) => out.push(expr),
            Node::Set { value, name, .. } => {
                out.push(value);
                bound.push(name);
            }
            Node::SetAttr { value, .. } => out.push(value),
            // The filters' arguments can reach the text (`replace('a', name)`).
            Node::FilterBlock(block) => {
                out.push(&block.filters);
                self::nodes(&block.body, out, bound, foreign);
                if let Some(name) = &block.into {
                    bound.push(name);
                }
            }
            Node::For(each) => {
                out.push(&each.iter);
                bound.extend(each.targets.iter().map(|(n, _)| n.as_str()));
                self::nodes(&each.body, out, bound, foreign);
                if let Some(body) = &each.otherwise {
                    self::nodes(body, out, bound, foreign);
                }
            }
            Node::If(block) => {
                for (_, body) in &block.branches {
                    self::nodes(body, out, bound, foreign);
                }
                if let Some((_, body)) = &block.otherwise {
                    self::nodes(body, out, bound, foreign);
                }
            }
            Node::Scope(scope) => {
                for (name, value) in &scope.binds {
                    out.push(value);
                    bound.push(name);
                }
                match &scope.template {
                    None => self::nodes(&scope.nodes, out, bound, foreign),
                    Some(other) => foreign.push((other, &scope.nodes)),
                }
            }
            Node::Text(_) | Node::Include { .. } | Node::Super(_) => {}
        }
    }
}
