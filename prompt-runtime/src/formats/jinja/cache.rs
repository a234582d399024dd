//! `{# cache: static #}` as a template's first comment: the Jinja form of `"cache":
//! "static"`. Such a prompt must render the same bytes on every turn at a level, so that a
//! provider can cache it: it may test values (`{% if flag %}` renders one of a few ways)
//! and read `guidance`, but may not write a value into its text, directly or through an
//! include. Loop variables and `set` names count as what they are read from.

use super::expr::{Expr, ExprKind, visit};
use super::parser::Node;
use super::set::Templates;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::guidance::GUIDANCE;

/// The comment that marks a static prompt.
pub(crate) const MARK: &str = "cache: static";

/// Every value `entry` writes into its text, through its includes, as an error at its use.
pub(crate) fn check(set: &Templates, entry: &str, errors: &mut Diagnostics) {
    let mut walked = std::collections::HashSet::new();
    walk(set, entry, &mut walked, errors);
}

fn walk(
    set: &Templates,
    name: &str,
    walked: &mut std::collections::HashSet<String>,
    errors: &mut Diagnostics,
) {
    if !walked.insert(name.to_owned()) {
        return;
    }
    let Some(template) = set.get(name) else {
        return;
    };
    let mut written = Vec::new();
    let mut bound = Vec::new();
    nodes(&template.nodes, &mut written, &mut bound);
    for expr in written {
        visit(expr, &mut |e| {
            if let ExprKind::Name(n) = &e.kind
                && n != GUIDANCE
                && !bound.contains(&n.as_str())
            {
                errors.push(
                    Diagnostic::new(format!("`{n}` is written into a static prompt"))
                        .at(&template.source, e.span.clone())
                        .with_help("a prompt marked `{# cache: static #}` must render the same bytes on every turn, so that the provider can cache it: move the value to a per-request message, or only test it (`{% if … %}`)"),
                );
            }
        });
    }
    let mut includes = Vec::new();
    super::set::includes_of(&template.nodes, &mut includes);
    for (included, _) in includes {
        walk(set, &included, walked, errors);
    }
}

/// The expressions whose values reach the text: outputs, what loops iterate (their items
/// are the loop variables), and what `set` stores; and the names the file binds itself.
fn nodes<'a>(nodes: &'a [Node], out: &mut Vec<&'a Expr>, bound: &mut Vec<&'a str>) {
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
                self::nodes(&block.body, out, bound);
            }
            Node::For(each) => {
                out.push(&each.iter);
                bound.extend(each.targets.iter().map(|(n, _)| n.as_str()));
                self::nodes(&each.body, out, bound);
                if let Some(body) = &each.otherwise {
                    self::nodes(body, out, bound);
                }
            }
            Node::If(block) => {
                for (_, body) in &block.branches {
                    self::nodes(body, out, bound);
                }
                if let Some((_, body)) = &block.otherwise {
                    self::nodes(body, out, bound);
                }
            }
            Node::Text(_) | Node::Include { .. } => {}
        }
    }
}
