//! Guidance fences in Jinja templates, checked as LangAlpha's fence test and promptic's
//! lean ⊆ detailed proof want them.
//!
//! The fence is `{% if guidance | default("detailed") == "detailed" %}`: coaching inside,
//! left out at lean. A template whose only guidance tests are such fences, each on whole
//! lines, renders at lean exactly the lines of detailed minus the fenced ones, so lean ⊆
//! detailed holds for every value of every other name. What could break that is refused:
//! a fence on `"lean"`, an `{% elif %}` or unregistered `{% else %}` after a fence (their
//! text renders only at lean), a fence in the middle of a line (lean's line would differ
//! from detailed's), and a test of `guidance` in any other shape (a typo'd level, a missing
//! `| default("detailed")`, which would make "no level given" mean lean).

use super::data::Value;
use super::expr::{CmpOp, Expr, ExprKind, Filter, visit};
use super::parser::{If, Node};
use crate::diagnostic::{Diagnostic, SourceFile};
use crate::guidance::{GUIDANCE, LEVELS};
use std::ops::Range;

/// How `{% else %}` on a fence is registered: a comment right after it starting so.
const REGISTER: &str = "either-or:";

const SHAPE: &str =
    "write the fence as `{% if guidance | default(\"detailed\") == \"detailed\" %}`";

/// Every fence problem in `nodes`, in order.
pub(crate) fn check(source: &SourceFile, nodes: &[Node], out: &mut Vec<Diagnostic>) {
    for node in nodes {
        match node {
            Node::If(block) => {
                check_if(source, block, out);
                for (_, body) in &block.branches {
                    check(source, body, out);
                }
                if let Some((_, body)) = &block.otherwise {
                    check(source, body, out);
                }
            }
            Node::For(each) => {
                check(source, &each.body, out);
                if let Some(body) = &each.otherwise {
                    check(source, body, out);
                }
            }
            // A filter may join, wrap or cut lines (`wordwrap`, `truncate`): lean's text
            // through it need not be detailed's minus whole lines, so no fence goes inside.
            Node::FilterBlock(block) => {
                let before = out.len();
                check(source, &block.body, out);
                if out.len() == before
                    && let Some(tag) = first_fence(source, &block.body)
                {
                    out.push(
                        Diagnostic::new("a guidance fence inside `{% filter %}`")
                            .at(source, tag)
                            .with_help("a filter can change the lines the fence stands on: put the fence around the `{% filter %}` block, or end the block before it"),
                    );
                }
            }
            // A block or a macro's body, read with this template.
            Node::Scope(scope) => check(source, &scope.nodes, out),
            Node::Text(_)
            | Node::Output(_)
            | Node::Include { .. }
            | Node::Set { .. }
            | Node::SetAttr { .. }
            | Node::Super(_) => {}
        }
    }
}

/// The `{% if %}` tag of the first guidance fence in `nodes`, at any depth.
fn first_fence(source: &SourceFile, nodes: &[Node]) -> Option<Range<usize>> {
    nodes.iter().find_map(|node| match node {
        Node::If(block) => block
            .branches
            .iter()
            .zip(&block.tags)
            .find(|((condition, _), _)| matches!(level(source, condition), Ok(Some(_))))
            .map(|(_, tag)| tag.clone())
            .or_else(|| {
                block
                    .branches
                    .iter()
                    .map(|(_, body)| body)
                    .chain(block.otherwise.iter().map(|(_, body)| body))
                    .find_map(|body| first_fence(source, body))
            }),
        Node::For(each) => first_fence(source, &each.body)
            .or_else(|| each.otherwise.as_ref().and_then(|b| first_fence(source, b))),
        Node::FilterBlock(block) => first_fence(source, &block.body),
        Node::Scope(scope) if scope.template.is_none() => first_fence(source, &scope.nodes),
        Node::Scope(_)
        | Node::Text(_)
        | Node::Output(_)
        | Node::Include { .. }
        | Node::Set { .. }
        | Node::SetAttr { .. }
        | Node::Super(_) => None,
    })
}

fn check_if(source: &SourceFile, block: &If, out: &mut Vec<Diagnostic>) {
    let mut fenced = false;
    for (i, (condition, _)) in block.branches.iter().enumerate() {
        if fenced {
            out.push(
                Diagnostic::new("an `{% elif %}` after a guidance fence renders lines at lean that detailed lacks")
                    .at(source, block.tags[i].clone())
                    .with_help("end the fence with `{% endif %}` and start a new `{% if %}`"),
            );
            return;
        }
        match level(source, condition) {
            Ok(None) => {}
            Ok(Some(level)) if level == "lean" => {
                out.push(
                    Diagnostic::new("a guidance fence on \"lean\" renders lines at lean that detailed lacks")
                        .at(source, block.tags[i].clone())
                        .with_help("lean is what remains when the detailed fences are left out: fence the other text with `== \"detailed\"`"),
                );
                return;
            }
            Ok(Some(_)) => {
                fenced = true;
                whole_lines(source, block, out);
            }
            Err(problem) => {
                out.push(problem);
                return;
            }
        }
    }
    if let (true, Some((else_span, _))) = (fenced, &block.otherwise) {
        let registered = block
            .else_comment
            .as_deref()
            .and_then(|c| c.strip_prefix(REGISTER))
            .is_some_and(|why| !why.trim().is_empty());
        if !registered {
            out.push(
                Diagnostic::new("an `{% else %}` on a guidance fence renders lines at lean that detailed lacks")
                    .at(source, else_span.clone())
                    .with_help("move the lean text out of the block, where both levels render it; if the steering must invert at lean, register the either-or right after the tag: `{% else %}{# either-or: why the steering inverts #}`"),
            );
        }
    }
}

/// The level a condition fences on, `None` when it does not test `guidance`, or why its
/// test of `guidance` is not a fence.
fn level(source: &SourceFile, condition: &Expr) -> Result<Option<String>, Diagnostic> {
    let mut mentions = None;
    visit(condition, &mut |e| {
        if matches!(&e.kind, ExprKind::Name(n) if n == GUIDANCE) && mentions.is_none() {
            mentions = Some(e.span.clone());
        }
    });
    let Some(name_span) = mentions else {
        return Ok(None);
    };
    let not_a_fence = |span: Range<usize>, message: &str| {
        Diagnostic::new(message.to_owned())
            .at(source, span)
            .with_help(SHAPE)
    };
    let ExprKind::Compare(left, chain) = &condition.kind else {
        return Err(not_a_fence(
            condition.span.clone(),
            "`guidance` is tested here, but not as a guidance fence",
        ));
    };
    let [(CmpOp::Eq, right)] = chain.as_slice() else {
        return Err(not_a_fence(
            condition.span.clone(),
            "a guidance fence compares with `==`, once",
        ));
    };
    let ExprKind::Literal(Value::String(level)) = &right.kind else {
        return Err(not_a_fence(
            right.span.clone(),
            "a guidance fence compares with a level written out",
        ));
    };
    if !LEVELS.contains(&level.as_str()) {
        let mut d = Diagnostic::new(format!("`{level}` is not a guidance level"))
            .at(source, right.span.clone());
        d = match crate::suggest::closest(level, LEVELS) {
            Some(close) => d.with_help(format!("did you mean `\"{close}\"`?")),
            None => d.with_help("the levels are \"lean\" and \"detailed\""),
        };
        return Err(d);
    }
    match &left.kind {
        ExprKind::Name(n) if n == GUIDANCE => Err(Diagnostic::new(
            "a guidance fence needs `| default(\"detailed\")`",
        )
        .at(source, name_span)
        .with_help(SHAPE)
        .with_note("without it, a render that gives no level is rendered at lean: detailed is the fail-safe")),
        ExprKind::Filter(inner, Filter::Default, args)
            if matches!(&inner.kind, ExprKind::Name(n) if n == GUIDANCE) =>
        {
            match args.as_slice() {
                [Expr { kind: ExprKind::Literal(Value::String(d)), .. }] if d == "detailed" => {
                    Ok(Some(level.clone()))
                }
                _ => Err(not_a_fence(left.span.clone(), "a guidance fence defaults to \"detailed\"")),
            }
        }
        _ => Err(not_a_fence(left.span.clone(), "`guidance` is tested here, but not as a guidance fence")),
    }
}

/// A fence must stand on lines of its own: nothing but indentation before `{% if %}` on
/// its line, nothing after `{% endif %}`, and no `-` joining them to the lines around.
fn whole_lines(source: &SourceFile, block: &If, out: &mut Vec<Diagnostic>) {
    let text = source.text();
    let open = &block.span;
    let before = &text[text[..open.start].rfind('\n').map_or(0, |i| i + 1)..open.start];
    let joins_before = text[open.start..].starts_with("{%-");
    let close = text[block.end.clone()]
        .rfind("%}")
        .map_or(block.end.end, |i| block.end.start + i);
    let after_close = close + 2;
    let rest = &text[after_close.min(text.len())..];
    let after = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let joins_after = text[..close].ends_with('-');
    if !before.trim().is_empty() || !after.trim().is_empty() || joins_before || joins_after {
        out.push(
            Diagnostic::new("a guidance fence in the middle of a line")
                .at(source, open.clone())
                .with_help("put `{% if … %}` and `{% endif %}` on lines of their own, without `-`: lean's line would otherwise be one detailed never renders")
        );
    }
}

/// Leaves out the `else` branch of every registered either-or in `nodes` (see
/// `Templates::without_either_ors`), collecting the reasons.
pub(crate) fn mute_either_ors(
    source: &SourceFile,
    nodes: &mut [Node],
    reasons: &mut Vec<String>,
    sources: &dyn Fn(&str) -> Option<SourceFile>,
) {
    for node in nodes {
        match node {
            Node::If(block) => {
                let why = block
                    .else_comment
                    .as_deref()
                    .and_then(|c| c.strip_prefix(REGISTER))
                    .map(str::trim)
                    .filter(|why| !why.is_empty())
                    .map(str::to_owned);
                let fenced = block
                    .branches
                    .iter()
                    .any(|(condition, _)| matches!(level(source, condition), Ok(Some(_))));
                for (_, body) in &mut block.branches {
                    mute_either_ors(source, body, reasons, sources);
                }
                match why {
                    Some(why) if fenced && block.otherwise.is_some() => {
                        block.otherwise = None;
                        reasons.push(why);
                    }
                    _ => {
                        if let Some((_, body)) = &mut block.otherwise {
                            mute_either_ors(source, body, reasons, sources);
                        }
                    }
                }
            }
            Node::For(each) => {
                mute_either_ors(source, &mut each.body, reasons, sources);
                if let Some(body) = &mut each.otherwise {
                    mute_either_ors(source, body, reasons, sources);
                }
            }
            Node::FilterBlock(block) => mute_either_ors(source, &mut block.body, reasons, sources),
            Node::Scope(scope) => match &scope.template {
                None => mute_either_ors(source, &mut scope.nodes, reasons, sources),
                Some(other) => {
                    if let Some(other) = sources(other) {
                        mute_either_ors(&other, &mut scope.nodes, reasons, sources);
                    }
                }
            },
            Node::Text(_)
            | Node::Output(_)
            | Node::Include { .. }
            | Node::Set { .. }
            | Node::SetAttr { .. }
            | Node::Super(_) => {}
        }
    }
}
