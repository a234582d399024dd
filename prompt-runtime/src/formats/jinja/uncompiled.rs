//! What the derive's compiled render does not cover: the constructs the run-time renderer
//! reads that came after the compiled subset (arithmetic, slices, methods, most filters
//! and tests, `namespace()`, `loop.cycle` and its kin, dict literals, `{% filter %}`). A
//! derived prompt that uses one is a build error at it, rather than a prompt that quietly
//! renders another way.

use super::Template;
use super::expr::{BinOp, Expr, ExprKind, Filter, LoopAttr, Op, visit};
use super::parser::Node;
use super::set::Templates;
use crate::diagnostic::Diagnostic;
use std::ops::Range;

/// The first construct of the templates `entry` reads that the compiled render does not
/// cover, as an error at it.
pub(crate) fn first(templates: &Templates, entry: &str) -> Option<Diagnostic> {
    let mut names = vec![entry];
    names.extend(templates.names().filter(|n| *n != entry));
    names.into_iter().find_map(|name| {
        let template = templates.get(name)?;
        let (span, what) = in_nodes(&template.nodes)?;
        Some(error(template, span, &what))
    })
}

fn error(template: &Template, span: Range<usize>, what: &str) -> Diagnostic {
    Diagnostic::new(format!("{what} is not compiled by `#[derive(Prompt)]`"))
        .at(&template.source, span)
        .with_help(format!(
            "render this template at run time (`Templates::render`, `promptic render`), or write it without {what}"
        ))
}

fn in_nodes(nodes: &[Node]) -> Option<(Range<usize>, String)> {
    nodes.iter().find_map(|node| match node {
        Node::Text(_) | Node::Include { .. } => None,
        Node::Output(e) | Node::Set { value: e, .. } => in_expr(e),
        Node::SetAttr {
            span, name, attr, ..
        } => Some((span.clone(), format!("`{{% set {name}.{attr} %}}`"))),
        Node::If(block) => block
            .branches
            .iter()
            .find_map(|(c, body)| in_expr(c).or_else(|| in_nodes(body)))
            .or_else(|| block.otherwise.as_ref().and_then(|(_, b)| in_nodes(b))),
        Node::FilterBlock(block) => Some((block.span.clone(), "`{% filter %}`".to_owned())),
        Node::For(each) => {
            let iter = match &each.iter.kind {
                // `.items()` as what a loop walks is compiled; its dict is looked at.
                ExprKind::Items(inner) => in_expr(inner),
                _ => in_expr(&each.iter),
            };
            iter.or_else(|| each.filter.as_ref().and_then(in_expr))
                .or_else(|| in_nodes(&each.body))
                .or_else(|| each.otherwise.as_ref().and_then(|b| in_nodes(b)))
        }
    })
}

fn in_expr(expr: &Expr) -> Option<(Range<usize>, String)> {
    let mut found = None;
    visit(expr, &mut |e| {
        if found.is_none() {
            found = what(e).map(|w| (e.span.clone(), w));
        }
    });
    found
}

/// What `expr` is, when it is outside the compiled subset (its operands aside).
fn what(expr: &Expr) -> Option<String> {
    Some(match &expr.kind {
        ExprKind::Filter(_, filter, args) if filter.is_new() => {
            format!("the filter `{}`", filter.name())
        }
        ExprKind::Filter(_, Filter::Join, args) if args.len() > 1 => {
            "`join` by an attribute".to_owned()
        }
        ExprKind::Loop(
            attr @ (LoopAttr::Previtem | LoopAttr::Nextitem | LoopAttr::Depth | LoopAttr::Depth0),
        ) => {
            format!("`loop.{}`", format!("{attr:?}").to_lowercase())
        }
        ExprKind::Items(_) => "`.items()` outside a loop".to_owned(),
        ExprKind::Dict(_) => "a dict literal".to_owned(),
        ExprKind::Op(op, _) => match op {
            Op::Binary(BinOp::Concat) => "the operator `~`".to_owned(),
            Op::Binary(b) => format!("the operator `{}`", b.symbol()),
            Op::Neg => "a minus sign before a value".to_owned(),
            Op::Pos => "a plus sign before a value".to_owned(),
            Op::Slice => "a slice".to_owned(),
            Op::Method(m) => format!("the method `.{}()`", m.name()),
            Op::Cycle => "`loop.cycle`".to_owned(),
            Op::Namespace(_) => "`namespace()`".to_owned(),
            Op::Range => "`range()`".to_owned(),
            Op::Is(test, _) => format!("the test `is {}`", format!("{test:?}").to_lowercase()),
            Op::IfElse => "an inline `if … else …`".to_owned(),
        },
        _ => return None,
    })
}
