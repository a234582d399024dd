//! Statements: `{% if %}`, `{% for %}`, `{% include %}`, `{% set %}`, `{% filter %}`,
//! `{% extends %}`, `{% block %}` and `{% macro %}`, read from the lexer's segments into a
//! tree. Tags promptic does not support are located errors.
//!
//! A macro's call is its body in place, in a [`Scope`] that binds its parameters, so
//! nothing downstream knows macros. A block is a [`Scope`] too; a template that extends
//! another keeps its blocks apart, and loading the set puts them into the parent's tree
//! (see [`super::set`]).

use super::expr::{Expr, ExprKind, MacroCall, Parser, operands_mut, stray_items, visit};
use super::lexer::Segment;
use crate::diagnostic::{Diagnostic, SourceFile};
use std::ops::Range;

/// How deep blocks may nest: far past any prompt, well inside the stack.
const MAX_NESTING: usize = 100;

/// A template's tree.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node {
    /// Text, by its span in the source.
    Text(Range<usize>),
    /// `{{ expr }}`.
    Output(Expr),
    If(If),
    For(Box<For>),
    /// `{% include "name" %}`: the name as the set finds it (relative to `prompts/`,
    /// normalised), and the tag's span.
    Include {
        name: String,
        span: Range<usize>,
    },
    /// `{% set name = value %}`.
    Set {
        name: String,
        span: Range<usize>,
        value: Expr,
    },
    /// `{% set ns.attr = value %}`, on a `namespace()`: `span` is `ns.attr`'s.
    SetAttr {
        name: String,
        attr: String,
        span: Range<usize>,
        value: Expr,
    },
    /// `{% filter f(args) | g %}…{% endfilter %}`.
    FilterBlock(Box<FilterBlock>),
    /// Nodes rendered in a scope of their own: a `{% block %}`, a macro's body where it is
    /// called, a parent template, or the parent's block that `super()` stands for.
    Scope(Box<Scope>),
    /// `{{ super() }}` in a block of a template that extends another, until loading the
    /// set puts the parent's block in its place.
    Super(Range<usize>),
}

impl Node {
    /// The node lists inside this node, in order: an `if`'s branches and its `else`, a
    /// loop's body and its `else`, a filter block's body, a scope's nodes.
    pub(crate) fn bodies(&self) -> Vec<&[Node]> {
        match self {
            Node::If(block) => block
                .branches
                .iter()
                .map(|(_, body)| body.as_slice())
                .chain(block.otherwise.iter().map(|(_, body)| body.as_slice()))
                .collect(),
            Node::For(each) => std::iter::once(each.body.as_slice())
                .chain(each.otherwise.as_deref())
                .collect(),
            Node::FilterBlock(block) => vec![&block.body],
            Node::Scope(scope) => vec![&scope.nodes],
            Node::Text(_)
            | Node::Output(_)
            | Node::Include { .. }
            | Node::Set { .. }
            | Node::SetAttr { .. }
            | Node::Super(_) => Vec::new(),
        }
    }

    /// The span to report the node at.
    pub(crate) fn span(&self) -> Range<usize> {
        match self {
            Node::Text(span)
            | Node::Include { span, .. }
            | Node::Set { span, .. }
            | Node::SetAttr { span, .. }
            | Node::Super(span) => span.clone(),
            Node::Output(expr) => expr.span.clone(),
            Node::If(block) => block.span.clone(),
            Node::For(each) => each.iter.span.clone(),
            Node::FilterBlock(block) => block.span.clone(),
            Node::Scope(scope) => scope.span.clone(),
        }
    }
}

/// See [`Node::Scope`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Scope {
    /// The template whose source `nodes` point into; `None` for the enclosing one.
    pub template: Option<String>,
    /// The block's name, for the block a template defines itself (one a child may
    /// replace).
    pub block: Option<String>,
    /// The names bound before `nodes` render (a macro's parameters), each evaluated
    /// where the scope stands, in the enclosing template.
    pub binds: Vec<(String, Expr)>,
    pub nodes: Vec<Node>,
    /// The tag it stands for, in the enclosing template.
    pub span: Range<usize>,
}

/// A `{% macro %}`: its parameters (each with its default), and its body.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Macro {
    name: String,
    params: Vec<(String, Option<Expr>)>,
    body: Vec<Node>,
    /// The template it is defined in, when it was imported from another: its body's and
    /// defaults' spans point into that template.
    template: Option<String>,
}

impl Macro {
    /// Its name, as the template that defines it writes it.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The macro as template `from` exports it, under `name`.
    pub(crate) fn exported(&self, from: &str, name: &str) -> Macro {
        Macro {
            name: name.to_owned(),
            params: self.params.clone(),
            body: self.body.clone(),
            template: Some(self.template.clone().unwrap_or_else(|| from.to_owned())),
        }
    }
}

/// What reads an imported template for [`parse`]: the macros template `name` defines at
/// its top level (each with its template), or `None` when there is no such file (reported
/// at the tag), or a diagnostic of its own.
pub(crate) type Import<'i> = dyn FnMut(&str) -> Result<Vec<Macro>, Option<Diagnostic>> + 'i;

/// A `{% filter %}` block: its body renders to text, which the filters then take. A
/// block `{% set name | filters %}…{% endset %}` is one too, whose value is bound to
/// `name` (`into`) instead of written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FilterBlock {
    /// The filters as one expression: [`super::expr::ExprKind::Filter`]s, each around the
    /// one applied before it, the first around a placeholder (an empty string literal at
    /// the `filter` keyword) that the body's text stands in for; the placeholder alone
    /// for a `{% set name %}` block without filters.
    pub filters: Expr,
    pub body: Vec<Node>,
    /// The `{% filter %}` or `{% set %}` tag.
    pub span: Range<usize>,
    /// The name a `{% set name %}…{% endset %}` block binds its value to, as a
    /// `{% set name = value %}` binds it; `None` for a `{% filter %}` block.
    pub into: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct If {
    /// Each `if`/`elif` condition with its body, in order.
    pub branches: Vec<(Expr, Vec<Node>)>,
    /// The `{% if %}` and `{% elif %}` tags, one per branch.
    pub tags: Vec<Range<usize>>,
    /// The `else` body, with the `else` tag's span.
    pub otherwise: Option<(Range<usize>, Vec<Node>)>,
    /// The text of a comment right after `{% else %}` (`{# either-or: why #}`), which
    /// registers an either-or on a guidance fence.
    pub else_comment: Option<String>,
    /// The `{% if %}` tag.
    pub span: Range<usize>,
    /// The `{% endif %}` tag.
    pub end: Range<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct For {
    /// The loop variables: one, or two for `k, v`.
    pub targets: Vec<(String, Range<usize>)>,
    pub iter: Expr,
    /// `{% for x in xs if cond %}`.
    pub filter: Option<Expr>,
    pub body: Vec<Node>,
    pub otherwise: Option<Vec<Node>>,
    /// Whether the body reads `loop.previtem` or `loop.nextitem`: found by the first
    /// render (after loading has put every macro's and block's nodes in place), kept.
    pub neighbours: std::sync::OnceLock<bool>,
}

/// Tags Jinja2 has that promptic does not, for a message that says so rather than
/// "unknown tag".
const UNSUPPORTED: [&str; 5] = ["autoescape", "break", "continue", "do", "trans"];

/// The tags promptic reads, for the note on an unknown one.
const SUPPORTED_TAGS: &str = "supported tags: if/elif/else, for, include, set, with, filter, extends, block, macro, call, import, from, raw";

/// The comment that marks where a prompt's cacheable prefix ends.
pub(crate) const BREAKPOINT: &str = "cache_breakpoint";

/// A parsed template.
pub(crate) struct Parsed {
    /// What it renders; for a template that extends another, what comes before the
    /// `{% extends %}` and its `set`s after it.
    pub nodes: Vec<Node>,
    /// Its cache breakpoints: for each, how many top-level nodes come before it, and the
    /// comment's span.
    pub breakpoints: Vec<(usize, Range<usize>)>,
    /// The template it extends, with the tag's span.
    pub extends: Option<(String, Range<usize>)>,
    /// The blocks of a template that extends another, by name, in order.
    pub blocks: Vec<(String, Vec<Node>)>,
    /// The macros it defines at its top level, which other templates may import.
    pub macros: Vec<Macro>,
    /// The templates it imports macros from, with the tags.
    pub imports: Vec<(String, Range<usize>)>,
}

/// The guard under which what follows `part` is evaluated: `guard` (if any) and `part`
/// true (`holds`), or false.
#[inline(never)]
fn guarded(guard: Option<&Expr>, part: &Expr, holds: bool) -> Expr {
    let part = if holds {
        part.clone()
    } else {
        Expr::made(ExprKind::Not(Box::new(part.clone())), part.span.clone())
    };
    match guard {
        None => part,
        Some(guard) => {
            let span = guard.span.start.min(part.span.start)..guard.span.end.max(part.span.end);
            Expr::made(ExprKind::And(Box::new(guard.clone()), Box::new(part)), span)
        }
    }
}

/// What a macro's body holds where it calls `caller()`, until a `{% call %}` puts its body
/// there.
const CALLER: &str = "\u{0}caller";

/// What `caller()` is inside a `{% call %}`'s own body: nothing to call.
const NO_CALLER: &str = "\u{0}no caller";

/// A mark of `kind` ([`CALLER`], [`NO_CALLER`]) left in a macro's body at `span`.
fn mark(kind: &str, span: Range<usize>) -> Node {
    Node::Scope(Box::new(Scope {
        template: None,
        block: Some(kind.to_owned()),
        binds: Vec::new(),
        nodes: Vec::new(),
        span,
    }))
}

fn caller_mark(span: Range<usize>) -> Node {
    mark(CALLER, span)
}

fn no_caller_mark(span: Range<usize>) -> Node {
    mark(NO_CALLER, span)
}

/// Whether `node` is a mark of `kind`.
fn is_mark(node: &Node, kind: &str) -> bool {
    matches!(node, Node::Scope(scope) if scope.block.as_deref() == Some(kind))
}

fn is_caller_mark(node: &Node) -> bool {
    is_mark(node, CALLER)
}

fn is_no_caller_mark(node: &Node) -> bool {
    is_mark(node, NO_CALLER)
}

/// Whether `nodes` call `caller()` anywhere.
fn has_caller_mark(nodes: &[Node]) -> bool {
    nodes
        .iter()
        .any(|node| is_caller_mark(node) || node.bodies().into_iter().any(has_caller_mark))
}

/// Puts `caller` in place of every `caller()` mark in `nodes`, counting them.
fn fill_caller(nodes: &mut [Node], caller: &[Node], filled: &mut usize) {
    for node in nodes {
        if let Node::Scope(scope) = node
            && scope.block.as_deref() == Some(CALLER)
        {
            let span = scope.span.clone();
            *node = Node::Scope(Box::new(Scope {
                template: None,
                block: None,
                binds: Vec::new(),
                nodes: caller.to_vec(),
                span,
            }));
            *filled += 1;
            continue;
        }
        match node {
            Node::Scope(scope) => fill_caller(&mut scope.nodes, caller, filled),
            Node::If(block) => {
                for (_, body) in &mut block.branches {
                    fill_caller(body, caller, filled);
                }
                if let Some((_, body)) = &mut block.otherwise {
                    fill_caller(body, caller, filled);
                }
            }
            Node::For(each) => {
                fill_caller(&mut each.body, caller, filled);
                if let Some(body) = &mut each.otherwise {
                    fill_caller(body, caller, filled);
                }
            }
            Node::FilterBlock(block) => fill_caller(&mut block.body, caller, filled),
            _ => {}
        }
    }
}

/// `with context` or `without context` at the end of an import, read and passed over:
/// promptic's macros see the names where they are called either way.
fn context_clause(parser: &mut Parser<'_>) -> bool {
    let with = parser.keyword("with") || parser.keyword("without");
    if with {
        parser.keyword("context");
    }
    with
}

/// The names of the macros `segments` define, in order (`{% macro name(…) %}` tags).
fn macro_names(source: &SourceFile, segments: &[Segment]) -> Vec<String> {
    segments
        .iter()
        .filter_map(|segment| {
            let Segment::Block { inner, .. } = segment else {
                return None;
            };
            let text = source.text().get(inner.clone())?;
            let mut words = text.trim_start_matches(['-', '+']).split_whitespace();
            if words.next()? != "macro" {
                return None;
            }
            let name: String = words
                .next()?
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// How many nodes the macro calls of one template may copy in all: calls that each call
/// another twice would double it per level.
pub(crate) const MAX_COPIED: usize = 200_000;

pub(crate) fn parse(
    source: &SourceFile,
    segments: &[Segment],
    import: &mut Import<'_>,
) -> Result<Parsed, Diagnostic> {
    let mut reader = Reader {
        import,
        imports: Vec::new(),
        source,
        segments,
        pos: 0,
        loops: 0,
        depth: 0,
        breakpoints: Vec::new(),
        extends: None,
        block_names: Vec::new(),
        in_block: 0,
        macros: Vec::new(),
        copied: 0,
        prelude: Vec::new(),
        lifted: 0,
        defining: Vec::new(),
        all_macros: macro_names(source, segments),
    };
    let (mut nodes, end) = reader.body(&[])?;
    if let Some((word, span)) = end {
        return Err(
            Diagnostic::new(format!("`{{% {word} %}}` without an opening tag")).at(source, span),
        );
    }
    let mut blocks = Vec::new();
    let extends = match reader.extends.take() {
        Some((name, span, at)) => {
            if let Some((_, span)) = reader.breakpoints.first() {
                return Err(reader
                    .error(
                        span.clone(),
                        "a cache breakpoint in a template that extends another",
                    )
                    .with_help("mark the breakpoint in the parent template, at its top level"));
            }
            let after = nodes.split_off(at);
            for node in after {
                match node {
                    Node::Text(span) if source.text()[span.clone()].trim().is_empty() => {}
                    Node::Set { .. } | Node::SetAttr { .. } => nodes.push(node),
                    Node::FilterBlock(block) if block.into.is_some() => {
                        nodes.push(Node::FilterBlock(block));
                    }
                    Node::Scope(scope) if scope.block.is_some() => {
                        let name = scope.block.unwrap_or_default();
                        blocks.push((name, scope.nodes));
                    }
                    other => {
                        let span = other.span();
                        return Err(reader
                            .error(span, "a template that extends another renders only its blocks: this is never written")
                            .with_help("move it into a `{% block %}`, or before the `{% extends %}`"));
                    }
                }
            }
            Some((name, span))
        }
        None => {
            if let Some(span) = first_super(&nodes) {
                return Err(reader
                    .error(span, "`super()` in a template that extends none")
                    .with_note("`super()` writes the parent template's block of the same name"));
            }
            None
        }
    };
    Ok(Parsed {
        nodes,
        breakpoints: reader.breakpoints,
        extends,
        blocks,
        macros: reader
            .macros
            .into_iter()
            .filter(|m| m.template.is_none())
            .collect(),
        imports: reader.imports,
    })
}

/// The first `{{ super() }}` in `nodes`.
fn first_super(nodes: &[Node]) -> Option<Range<usize>> {
    nodes.iter().find_map(|node| match node {
        Node::Super(span) => Some(span.clone()),
        Node::Scope(scope) => first_super(&scope.nodes),
        Node::If(block) => block
            .branches
            .iter()
            .map(|(_, body)| body)
            .chain(block.otherwise.iter().map(|(_, body)| body))
            .find_map(|body| first_super(body)),
        Node::For(each) => {
            first_super(&each.body).or_else(|| each.otherwise.as_deref().and_then(first_super))
        }
        Node::FilterBlock(block) => first_super(&block.body),
        _ => None,
    })
}

struct Reader<'a> {
    /// Reads a template this one imports macros from.
    import: &'a mut Import<'a>,
    /// The templates imported so far, with the tags.
    imports: Vec<(String, Range<usize>)>,
    source: &'a SourceFile,
    segments: &'a [Segment],
    pos: usize,
    /// How many `for`s enclose the current point.
    loops: usize,
    depth: usize,
    /// The `{# cache_breakpoint #}` comments read so far (see [`Parsed`]).
    breakpoints: Vec<(usize, Range<usize>)>,
    /// The `{% extends %}` read: the name, the tag, and how many top-level nodes come
    /// before it.
    extends: Option<(String, Range<usize>, usize)>,
    /// The blocks defined so far, with their tags: a name may be defined once.
    block_names: Vec<(String, Range<usize>)>,
    /// How many blocks enclose the current point.
    in_block: usize,
    /// The macros defined so far, in order.
    macros: Vec<Macro>,
    /// The nodes macro calls copied so far, against [`MAX_COPIED`].
    copied: usize,
    /// What goes before the node a tag makes: the macro calls its expressions make, each
    /// a block `set` of a name of its own (see [`Reader::lift`]).
    prelude: Vec<Node>,
    /// How many macro calls were lifted out of expressions: their names' numbers.
    lifted: usize,
    /// The macros whose bodies are being read, innermost last.
    defining: Vec<String>,
    /// Every macro the template defines, wherever: for the message on an early call.
    all_macros: Vec<String>,
}

/// The tag that ended a body: its keyword, its span, and a parser over the rest of it.
type End = Option<(String, Range<usize>)>;

impl<'a> Reader<'a> {
    /// Records a `{# cache_breakpoint #}` after `before` nodes of the body that `stops`
    /// ends: only at the top level, and at most
    /// [`MAX_CACHE_BREAKPOINTS`](crate::chat::MAX_CACHE_BREAKPOINTS) of them.
    fn breakpoint(
        &mut self,
        stops: &[&str],
        before: usize,
        span: Range<usize>,
    ) -> Result<(), Diagnostic> {
        if !stops.is_empty() {
            return Err(self
                .error(span, "`{# cache_breakpoint #}` inside a block")
                .with_help("a cached prefix ends at one place whatever the values: put the breakpoint outside the block"));
        }
        if self.breakpoints.len() == crate::chat::MAX_CACHE_BREAKPOINTS {
            return Err(self
                .error(
                    span,
                    format!(
                        "more than {} cache breakpoints",
                        crate::chat::MAX_CACHE_BREAKPOINTS
                    ),
                )
                .with_help("Anthropic's Messages API takes at most 4 `cache_control` marks in a request: keep the breakpoints that end the longest stable prefixes"));
        }
        self.breakpoints.push((before, span));
        Ok(())
    }

    /// The error for a name a template binds (`for`, `set`, `with`) that is `loop`.
    fn loop_named(&self, span: Range<usize>) -> Diagnostic {
        self.error(
            span,
            "`loop` is Jinja's own loop variable; name yours differently",
        )
    }

    fn error(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(message).at(self.source, span)
    }

    fn expr_parser(&self, inner: Range<usize>) -> Result<Parser<'a>, Diagnostic> {
        let mut parser = Parser::new(self.source, inner, self.loops > 0)?;
        parser.macros = self.macros.iter().map(|m| m.name.clone()).collect();
        parser.defining.clone_from(&self.defining);
        parser.all_macros.clone_from(&self.all_macros);
        Ok(parser)
    }

    /// Puts each macro call in `expr` (those in its arguments first) into `prelude`, as a
    /// block `{% set %}` of a name no template can write that holds the text the macro
    /// writes, and reads that name in its place: what Jinja2's call gives, the macro's
    /// text. The calls run before the tag, in the order Jinja2 runs them; one that `and`,
    /// `or` or an inline `if` may not reach runs under an `if` of what lets it be reached
    /// (that part of the expression is then evaluated twice, which gives the same).
    fn lift(&mut self, expr: &mut Expr, prelude: &mut Vec<Node>) -> Result<(), Diagnostic> {
        // Most expressions call no macro: nothing to walk, however deep they are.
        let mut calls = false;
        visit(expr, &mut |e| {
            calls |= matches!(e.kind, ExprKind::MacroCall(_))
        });
        if !calls {
            return Ok(());
        }
        self.lift_under(expr, None, prelude)
    }

    /// [`lift`](Self::lift) of a part of an expression that is evaluated only when `guard`
    /// holds: the right side of `and` (`or`) when the left is true (false), a branch of an
    /// inline `if`. Its calls run under that guard, as Jinja2 runs them only then. It
    /// recurses as deep as the expression is: its frame holds little, the work is done
    /// in [`guarded`] and [`lift_call`](Self::lift_call).
    #[inline(never)]
    fn lift_under(
        &mut self,
        expr: &mut Expr,
        guard: Option<&Expr>,
        prelude: &mut Vec<Node>,
    ) -> Result<(), Diagnostic> {
        match &mut expr.kind {
            // `b` is evaluated when `a` is true (`and`) or false (`or`).
            ExprKind::And(a, b) => self.lift_pair(a, b, true, guard, prelude)?,
            ExprKind::Or(a, b) => self.lift_pair(a, b, false, guard, prelude)?,
            // `then if condition else otherwise`: the condition first.
            ExprKind::Op(super::expr::Op::IfElse, operands) if !operands.is_empty() => {
                let (condition, branches) = operands.split_at_mut(1);
                let condition = &mut condition[0];
                self.lift_under(condition, guard, prelude)?;
                for (i, branch) in branches.iter_mut().enumerate() {
                    let under = guarded(guard, condition, i == 0);
                    self.lift_under(branch, Some(&under), prelude)?;
                }
            }
            _ => {
                for operand in operands_mut(expr) {
                    self.lift_under(operand, guard, prelude)?;
                }
            }
        }
        if matches!(expr.kind, ExprKind::MacroCall(_)) {
            self.lift_call(expr, guard, prelude)?;
        }
        Ok(())
    }

    /// `a` then `b` of an `and` (`holds`) or an `or`: `b` under `a` being `holds`.
    fn lift_pair(
        &mut self,
        a: &mut Expr,
        b: &mut Expr,
        holds: bool,
        guard: Option<&Expr>,
        prelude: &mut Vec<Node>,
    ) -> Result<(), Diagnostic> {
        self.lift_under(a, guard, prelude)?;
        let under = guarded(guard, a, holds);
        self.lift_under(b, Some(&under), prelude)
    }

    /// The macro call `expr` (its arguments lifted already) put into `prelude` under
    /// `guard`, and the name it is put in read in its place.
    #[inline(never)]
    fn lift_call(
        &mut self,
        expr: &mut Expr,
        guard: Option<&Expr>,
        prelude: &mut Vec<Node>,
    ) -> Result<(), Diagnostic> {
        let span = expr.span.clone();
        // A guard is read like any condition: no deeper than an expression may be.
        if guard.is_some_and(|g| g.depth > super::expr::MAX_DEPTH) {
            return Err(self.error(
                span,
                "a macro's call this deep inside `and`, `or` and inline `if`s is not supported",
            ));
        }
        self.lifted += 1;
        let name = format!("\u{0}call{}", self.lifted);
        let ExprKind::MacroCall(call) =
            std::mem::replace(&mut expr.kind, ExprKind::Name(name.clone()))
        else {
            return Ok(());
        };
        // The block `set`, its guard's `if` and the scope around the tag nest the call's
        // body deeper: counted against the nesting limit with it.
        let around = 2 + usize::from(guard.is_some());
        self.depth += around;
        let scope = self.inline(*call, span.clone());
        self.depth -= around;
        let scope = scope?;
        let set = Node::FilterBlock(Box::new(FilterBlock {
            filters: Expr::placeholder(span.clone()),
            body: vec![scope],
            span: span.clone(),
            into: Some(name),
        }));
        prelude.push(match guard {
            None => set,
            Some(guard) => Node::If(If {
                branches: vec![(guard.clone(), vec![set])],
                tags: vec![span.clone()],
                otherwise: None,
                else_comment: None,
                span: span.clone(),
                end: span,
            }),
        });
        Ok(())
    }

    /// A macro's call where the reader cannot put it before its tag: an error at it.
    fn no_calls(&self, expr: &Expr, place: &str) -> Result<(), Diagnostic> {
        let mut found = None;
        visit(expr, &mut |e| {
            if let (None, ExprKind::MacroCall(call)) = (&found, &e.kind) {
                found = Some((call.name.clone(), e.span.clone()));
            }
        });
        match found {
            Some((name, span)) => Err(self
                .error(span, format!("a macro's call in {place} is not supported"))
                .with_help(format!(
                    "set its text to a name before the tag, `{{% set text = {name}(…) %}}`, and use the name"
                ))),
            None => Ok(()),
        }
    }

    /// `node` after the nodes `prelude` holds, in a scope of their own (the names the
    /// calls were put in end with it).
    fn after(prelude: Vec<Node>, node: Node, span: Range<usize>) -> Node {
        if prelude.is_empty() {
            return node;
        }
        let mut nodes = prelude;
        nodes.push(node);
        Node::Scope(Box::new(Scope {
            template: None,
            block: None,
            binds: Vec::new(),
            nodes,
            span,
        }))
    }

    /// Nodes up to a tag whose keyword is in `stops` (or the end of the template when
    /// `stops` is empty). The stop tag is left for the caller to read: `self.pos` points
    /// at it.
    fn body(&mut self, stops: &[&str]) -> Result<(Vec<Node>, End), Diagnostic> {
        let mut nodes = Vec::new();
        while let Some(segment) = self.segments.get(self.pos) {
            match segment {
                Segment::Comment { inner } => {
                    if self.source.text()[inner.clone()].trim() == BREAKPOINT {
                        self.breakpoint(stops, nodes.len(), inner.clone())?;
                    }
                    self.pos += 1;
                }
                Segment::Text(span) => {
                    nodes.push(Node::Text(span.clone()));
                    self.pos += 1;
                }
                Segment::Var { inner, tag } => {
                    let node = self.output(inner.clone(), tag.clone())?;
                    nodes.push(node);
                    self.pos += 1;
                }
                Segment::Block { tag, inner } => {
                    let mut parser = self.expr_parser(inner.clone())?;
                    let Some((word, word_span)) = parser.name() else {
                        return Err(self.error(tag.clone(), "expected a tag name after `{%`"));
                    };
                    if stops.contains(&word.as_str()) {
                        return Ok((nodes, Some((word, tag.clone()))));
                    }
                    self.pos += 1;
                    // Every arm writes its outcome into one place, and one `?` reads it:
                    // this frame is on the stack once per level blocks nest, so each arm
                    // keeps no temporaries of its own.
                    let tag = tag.clone();
                    let outcome: Result<Option<Node>, Diagnostic> = match word.as_str() {
                        "if" => self.if_block(parser, tag).map(Some),
                        "for" => self.for_block(parser, tag).map(Some),
                        "include" => self.include(parser, tag).map(Some),
                        "set" => self.set(parser, tag, word_span).map(Some),
                        "filter" => self.filter_block(parser, tag, word_span).map(Some),
                        "with" => self.with_block(parser, tag).map(Some),
                        "call" => self.call_block(parser, tag).map(Some),
                        "block" => self.block(parser, tag).map(Some),
                        "extends" => self.extends(parser, tag, stops, nodes.len()).map(|()| None),
                        "macro" => self.define_macro(parser, tag).map(|()| None),
                        "from" | "import" => self.import_tag(&word, parser, tag).map(|()| None),
                        _ => Err(self.tag_error(&word, tag, word_span)),
                    };
                    let Some(node) = outcome? else {
                        continue;
                    };
                    nodes.append(&mut self.prelude);
                    nodes.push(node);
                }
            }
        }
        Ok((nodes, None))
    }

    /// `{{ expr }}`. Apart from [`body`](Self::body), whose frame each level of nested
    /// blocks adds to the stack, so that it stays small.
    #[inline(never)]
    fn output(&mut self, inner: Range<usize>, tag: Range<usize>) -> Result<Node, Diagnostic> {
        let mut parser = self.expr_parser(inner)?;
        if parser.at_end() {
            return Err(self.error(tag, "empty `{{ }}`: write an expression in it"));
        }
        if parser.at_call() == Some("super") {
            return self.call(parser, tag);
        }
        let mut expr = parser.expr()?;
        parser.finish("in `{{ }}`")?;
        self.no_stray_items(&expr)?;
        let mut prelude = Vec::new();
        let node = match expr.kind {
            // The whole output a macro's call: its body in place.
            ExprKind::MacroCall(mut call) => {
                for arg in call
                    .args
                    .iter_mut()
                    .chain(call.named.iter_mut().map(|(.., e)| e))
                {
                    self.lift(arg, &mut prelude)?;
                }
                self.inline(*call, tag.clone())?
            }
            _ => {
                self.lift(&mut expr, &mut prelude)?;
                Node::Output(expr)
            }
        };
        Ok(Self::after(prelude, node, tag))
    }

    fn no_stray_items(&self, expr: &Expr) -> Result<(), Diagnostic> {
        match stray_items(expr) {
            Some(span) => Err(self.error(
                span,
                "a dict view (`.items()`, `.keys()`, `.values()`) prints as Python's `dict_items([…])`, which promptic does not write",
            ).with_help("loop over it, or make it a list first: `| list`"
            )),
            None => Ok(()),
        }
    }

    fn nest(&mut self, span: &Range<usize>) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error(
                span.clone(),
                format!("blocks nest more than {MAX_NESTING} deep here"),
            ));
        }
        Ok(())
    }

    /// The condition of an `if`/`elif`, the whole rest of its tag.
    fn condition(
        &self,
        mut parser: Parser<'a>,
        tag: &Range<usize>,
        word: &str,
    ) -> Result<Expr, Diagnostic> {
        if parser.at_end() {
            return Err(self.error(tag.clone(), format!("`{{% {word} %}}` needs a condition")));
        }
        // Jinja2 reads a condition without an inline `if` (`{% if a if b else c %}` is
        // its syntax error; in parentheses it is one).
        let expr = parser.iterable()?;
        parser.finish(&format!("in `{{% {word} %}}`"))?;
        Ok(expr)
    }

    /// Reads the tag at `self.pos` (a stop tag `body` left) again, past its keyword.
    fn stop_tag(&mut self) -> Result<(Parser<'a>, Range<usize>), Diagnostic> {
        let Some(Segment::Block { tag, inner }) = self.segments.get(self.pos) else {
            return Err(self.error(0..0, "internal: expected a block tag"));
        };
        self.pos += 1;
        let (tag, inner) = (tag.clone(), inner.clone());
        let mut parser = self.expr_parser(inner)?;
        parser.name();
        Ok((parser, tag))
    }

    fn if_block(&mut self, parser: Parser<'a>, tag: Range<usize>) -> Result<Node, Diagnostic> {
        self.nest(&tag)?;
        // The macro calls of the conditions go before the `if`, an `elif`'s too.
        let mut prelude = Vec::new();
        let mut condition = self.condition(parser, &tag, "if")?;
        self.lift(&mut condition, &mut prelude)?;
        let mut branches = Vec::new();
        let mut tags = vec![tag.clone()];
        let unclosed = "this `{% if %}` is never closed with `{% endif %}`";
        let (otherwise, else_comment, end) = loop {
            let (body, stop) = self.body(&["elif", "else", "endif"])?;
            branches.push((condition, body));
            let Some((word, _)) = stop else {
                return Err(self.error(tag, unclosed));
            };
            let (parser, stop) = self.stop_tag()?;
            match word.as_str() {
                "elif" => {
                    condition = self.condition(parser, &stop, "elif")?;
                    self.lift(&mut condition, &mut prelude)?;
                    tags.push(stop);
                }
                "else" => {
                    parser.finish("after `else`")?;
                    let comment = match self.segments.get(self.pos) {
                        Some(Segment::Comment { inner }) => {
                            Some(self.source.text()[inner.clone()].trim().to_owned())
                        }
                        _ => None,
                    };
                    let (body, end) = self.body(&["endif", "elif", "else"])?;
                    match end {
                        Some((w, _)) if w == "endif" => {
                            let (parser, end) = self.stop_tag()?;
                            parser.finish("after `endif`")?;
                            break (Some((stop, body)), comment, end);
                        }
                        Some((w, span)) => {
                            return Err(
                                self.error(span, format!("`{{% {w} %}}` after `{{% else %}}`"))
                            );
                        }
                        None => return Err(self.error(tag, unclosed)),
                    }
                }
                _ => {
                    parser.finish("after `endif`")?;
                    break (None, None, stop);
                }
            }
        };
        self.depth -= 1;
        self.prelude = prelude;
        Ok(Node::If(If {
            branches,
            tags,
            otherwise,
            else_comment,
            span: tag,
            end,
        }))
    }

    fn for_block(&mut self, mut parser: Parser<'a>, tag: Range<usize>) -> Result<Node, Diagnostic> {
        self.nest(&tag)?;
        let mut targets = Vec::new();
        loop {
            let here = parser.next_span();
            match parser.name() {
                Some((name, span)) if !["in", "loop"].contains(&name.as_str()) => {
                    targets.push((name, span))
                }
                Some((name, span)) if name == "loop" => return Err(self.loop_named(span)),
                _ => return Err(self.error(here, "expected a loop variable after `for`")),
            }
            if !parser.op(",") {
                break;
            }
        }
        if targets.len() > 2 {
            return Err(self.error(targets[2].1.clone(), "at most two loop variables (`k, v`)"));
        }
        let here = parser.next_span();
        if !parser.keyword("in") {
            return Err(self.error(here, "expected `in` after the loop variable"));
        }
        let mut iter = parser.iterable()?;
        let mut prelude = Vec::new();
        self.lift(&mut iter, &mut prelude)?;
        let filter = if parser.keyword("if") {
            let cond = parser.expr()?;
            self.no_calls(&cond, "a loop's filter")?;
            Some(cond)
        } else {
            None
        };
        if parser.keyword("recursive") {
            return Err(self.error(tag, "recursive loops are not supported"));
        }
        parser.finish("in `{% for %}`")?;
        if !matches!(
            iter.kind,
            ExprKind::Items(_)
                | ExprKind::Op(
                    super::expr::Op::Method(
                        super::expr::Method::Keys | super::expr::Method::Values
                    ),
                    _
                )
        ) {
            self.no_stray_items(&iter)?;
        }
        drop(parser);
        self.loops += 1;
        let (body, end) = self.body(&["else", "endfor"])?;
        self.loops -= 1;
        let mut otherwise = None;
        match end {
            Some((w, _)) if w == "else" => {
                let (parser, _) = self.stop_tag()?;
                parser.finish("after `else`")?;
                // Jinja2 does not define `loop` in a loop's `else`.
                let (body, end) = self.body(&["endfor"])?;
                if end.is_none() {
                    return Err(
                        self.error(tag, "this `{% for %}` is never closed with `{% endfor %}`")
                    );
                }
                otherwise = Some(body);
            }
            Some(_) => {}
            None => {
                return Err(self.error(tag, "this `{% for %}` is never closed with `{% endfor %}`"));
            }
        }
        let (parser, _) = self.stop_tag()?;
        parser.finish("after `endfor`")?;
        self.depth -= 1;
        self.prelude = prelude;
        Ok(Node::For(Box::new(For {
            targets,
            iter,
            filter,
            body,
            otherwise,
            neighbours: std::sync::OnceLock::new(),
        })))
    }

    fn filter_block(
        &mut self,
        mut parser: Parser<'a>,
        tag: Range<usize>,
        word: Range<usize>,
    ) -> Result<Node, Diagnostic> {
        self.nest(&tag)?;
        if parser.at_end() {
            return Err(self.error(
                tag,
                "`{% filter %}` needs a filter: `{% filter upper %}`, `{% filter indent(2) %}`",
            ));
        }
        let filters = parser.filter_chain(word)?;
        parser.finish("in `{% filter %}`")?;
        self.no_calls(&filters, "a `{% filter %}` tag")?;
        drop(parser);
        let body = self.block_body(&tag, "filter")?;
        Ok(Node::FilterBlock(Box::new(FilterBlock {
            filters,
            body,
            span: tag,
            into: None,
        })))
    }

    /// `{% with a = x, b = y %}…{% endwith %}`: the body with the names bound, each to its
    /// value evaluated where the tag stands (before any of them is bound: `b = a` reads the
    /// `a` outside); a `set` inside stays inside, as in Jinja2.
    fn with_block(
        &mut self,
        mut parser: Parser<'a>,
        tag: Range<usize>,
    ) -> Result<Node, Diagnostic> {
        let mut binds: Vec<(String, Expr)> = Vec::new();
        let mut prelude = Vec::new();
        while !parser.at_end() {
            if !binds.is_empty() {
                let here = parser.next_span();
                if !parser.op(",") {
                    return Err(
                        self.error(here, "expected `,` before the next name `{% with %}` binds")
                    );
                }
            }
            let here = parser.next_span();
            let Some((name, span)) = parser.name() else {
                return Err(self.error(here, "expected a name to bind in `{% with %}`"));
            };
            if name == "loop" {
                return Err(self.loop_named(span));
            }
            let here = parser.next_span();
            if !parser.op("=") {
                return Err(self
                    .error(here, format!("expected `=` and a value after `{name}`"))
                    .with_help("bind each name to its own value: `{% with a = x, b = y %}`"));
            }
            let mut value = parser.expr()?;
            self.no_stray_items(&value)?;
            self.lift(&mut value, &mut prelude)?;
            binds.push((name, value));
        }
        drop(parser);
        self.nest(&tag)?;
        let body = self.block_body(&tag, "with")?;
        // The calls its values make run before it.
        self.prelude = prelude;
        Ok(Node::Scope(Box::new(Scope {
            template: None,
            block: None,
            binds,
            nodes: body,
            span: tag,
        })))
    }

    /// The body of a `{% filter %}` or `{% set %}` block up to its `{% endfilter %}` or
    /// `{% endset %}` (`word` is the opening tag's keyword), which it reads too.
    fn block_body(&mut self, tag: &Range<usize>, word: &str) -> Result<Vec<Node>, Diagnostic> {
        let end_word = format!("end{word}");
        let (body, end) = self.body(&[end_word.as_str()])?;
        if end.is_none() {
            return Err(self.error(
                tag.clone(),
                format!("this `{{% {word} %}}` is never closed with `{{% {end_word} %}}`"),
            ));
        }
        let (parser, _) = self.stop_tag()?;
        parser.finish(&format!("after `{end_word}`"))?;
        self.depth -= 1;
        Ok(body)
    }

    /// `{% set name %}…{% endset %}` and `{% set name | filters %}…{% endset %}`: the
    /// body's text (through the filters) bound to `name`, after `name` is read.
    fn set_block(
        &mut self,
        mut parser: Parser<'a>,
        tag: Range<usize>,
        name: String,
        span: Range<usize>,
    ) -> Result<Node, Diagnostic> {
        self.nest(&tag)?;
        let filters = if parser.op("|") {
            parser.filter_chain(span.clone())?
        } else {
            Expr::placeholder(span)
        };
        parser.finish("in `{% set %}`: `=` and a value, or `|` and filters, or nothing")?;
        self.no_calls(&filters, "a `{% set %}` block's filters")?;
        drop(parser);
        let body = self.block_body(&tag, "set")?;
        Ok(Node::FilterBlock(Box::new(FilterBlock {
            filters,
            body,
            span: tag,
            into: Some(name),
        })))
    }

    /// `{% extends "name" %}`, once, at the top level.
    fn extends(
        &mut self,
        mut parser: Parser<'a>,
        tag: Range<usize>,
        stops: &[&str],
        before: usize,
    ) -> Result<(), Diagnostic> {
        if !stops.is_empty() || self.in_block > 0 {
            return Err(self
                .error(tag, "`{% extends %}` inside a block")
                .with_help("a template extends another from its top level: move the tag there"));
        }
        if let Some((_, first, _)) = &self.extends {
            let first = self.source.line_col(first.start).0;
            return Err(self
                .error(tag, "a second `{% extends %}`")
                .with_note(format!(
                    "this template extends another on line {first} already"
                )));
        }
        let name = self.file_name(&mut parser, &tag, "extends")?;
        self.extends = Some((name, tag, before));
        Ok(())
    }

    /// The quoted file name of an `{% include %}` or `{% extends %}`, normalised, ending
    /// the tag.
    fn file_name(
        &self,
        parser: &mut Parser<'a>,
        tag: &Range<usize>,
        word: &str,
    ) -> Result<String, Diagnostic> {
        let here = parser.next_span();
        let expr = parser.expr()?;
        let ExprKind::Literal(super::data::Value::String(name)) = expr.kind else {
            return Err(self.error(
                here.start..expr.span.end,
                format!(
                    "`{{% {word} %}}` takes a quoted file name; computed names are not supported"
                ),
            ));
        };
        if !parser.at_end() {
            let rest = parser.next_span();
            return Err(self
                .error(
                    rest.start..tag.end.saturating_sub(2),
                    format!("only `{{% {word} \"name\" %}}` is supported"),
                )
                .with_note("`ignore missing`, `with context` and `without context` are not"));
        }
        normalize(&name).map_err(|why| self.error(expr.span.clone(), why))
    }

    /// `{% block name [scoped] %}…{% endblock [name] %}`.
    fn block(&mut self, mut parser: Parser<'a>, tag: Range<usize>) -> Result<Node, Diagnostic> {
        let here = parser.next_span();
        let Some((name, name_span)) = parser.name() else {
            return Err(self.error(here, "expected the block's name after `block`"));
        };
        let scoped = parser.keyword("scoped");
        if parser.keyword("required") {
            return Err(self.error(tag, "required blocks are not supported"));
        }
        parser.finish("in `{% block %}`")?;
        if let Some((_, first)) = self.block_names.iter().find(|(n, _)| *n == name) {
            let first = self.source.line_col(first.start).0;
            return Err(self
                .error(name_span, format!("the block `{name}` is defined twice"))
                .with_note(format!("it is defined on line {first} already")));
        }
        if self.loops > 0 && !scoped {
            return Err(self
                .error(
                    tag,
                    "a block inside a `{% for %}` sees no loop variable in Jinja2",
                )
                .with_help(format!(
                    "write `{{% block {name} scoped %}}` to give it the loop's names"
                )));
        }
        self.block_names.push((name.clone(), name_span));
        self.nest(&tag)?;
        self.in_block += 1;
        let (body, end) = self.body(&["endblock"])?;
        self.in_block -= 1;
        if end.is_none() {
            return Err(self.error(
                tag,
                "this `{% block %}` is never closed with `{% endblock %}`",
            ));
        }
        let (mut parser, _) = self.stop_tag()?;
        if let Some((closing, span)) = parser.name()
            && closing != name
        {
            return Err(self
                .error(
                    span,
                    format!("`{{% endblock {closing} %}}` closes the block `{name}`"),
                )
                .with_help(format!(
                    "write `{{% endblock {name} %}}`, or `{{% endblock %}}`"
                )));
        }
        parser.finish("after `endblock`")?;
        self.depth -= 1;
        Ok(Node::Scope(Box::new(Scope {
            template: None,
            block: Some(name),
            binds: Vec::new(),
            nodes: body,
            span: tag,
        })))
    }

    /// `{% macro name(a, b=default) %}…{% endmacro %}`: remembered for the calls after
    /// it; it writes nothing where it stands.
    fn define_macro(
        &mut self,
        mut parser: Parser<'a>,
        tag: Range<usize>,
    ) -> Result<(), Diagnostic> {
        let here = parser.next_span();
        let Some((name, name_span)) = parser.name() else {
            return Err(self.error(here, "expected the macro's name after `macro`"));
        };
        if parser.at_end() {
            return Err(self.error(
                name_span,
                format!("a macro needs its parameters in parentheses: `{{% macro {name}() %}}`"),
            ));
        }
        let (positional, named) = parser.call_args()?;
        parser.finish("in `{% macro %}`")?;
        let mut params: Vec<(String, Option<Expr>)> = Vec::new();
        for param in positional {
            let ExprKind::Name(param_name) = param.kind else {
                return Err(self.error(param.span, "a macro's parameter is a name"));
            };
            if !params.is_empty() && params.iter().any(|(_, d)| d.is_some()) {
                return Err(self.error(
                    param.span,
                    "a parameter without a default after one with a default",
                ));
            }
            params.push((param_name, None));
        }
        for (param, _, default) in named {
            self.no_calls(&default, "a parameter's default")?;
            params.push((param, Some(default)));
        }
        if let Some((param, _)) = params
            .iter()
            .find(|(p, _)| ["caller", "varargs", "kwargs", "loop"].contains(&p.as_str()))
        {
            return Err(self.error(
                tag,
                format!("a macro parameter named `{param}` is not supported"),
            ));
        }
        self.nest(&tag)?;
        // Its own name is not known inside it: a macro that calls itself would copy itself
        // for ever.
        // The macros it defines are its own.
        let defined = self.macros.len();
        self.defining.push(name.clone());
        // `caller()` inside it: the body of the `{% call %}` that calls it, put in place
        // there; a mark until then.
        self.macros.push(Macro {
            name: "caller".to_owned(),
            params: Vec::new(),
            body: vec![caller_mark(tag.clone())],
            template: None,
        });
        let (body, end) = self.body(&["endmacro"])?;
        self.macros.truncate(defined);
        if end.is_none() {
            return Err(self.error(
                tag,
                "this `{% macro %}` is never closed with `{% endmacro %}`",
            ));
        }
        let (parser, _) = self.stop_tag()?;
        parser.finish("after `endmacro`")?;
        self.depth -= 1;
        if let Some(span) = first_super(&body) {
            return Err(self.error(span, "`super()` in a macro"));
        }
        self.defining.pop();
        self.macros.retain(|m| m.name != name);
        self.macros.push(Macro {
            name,
            params,
            body,
            template: None,
        });
        Ok(())
    }

    /// `{{ super() }}` in a block.
    fn call(&mut self, mut parser: Parser<'a>, tag: Range<usize>) -> Result<Node, Diagnostic> {
        parser.name();
        let (args, _) = parser.call_args()?;
        if !parser.at_end() {
            let rest = parser.next_span();
            return Err(self
                .error(
                    rest.start..tag.end.saturating_sub(2),
                    "`super()` must be all of its `{{ }}`",
                )
                .with_help("filter its text with a `{% filter %}` block around it"));
        }
        if self.in_block == 0 {
            return Err(self.error(tag, "`super()` outside a block"));
        }
        if let Some(arg) = args.first() {
            return Err(self.error(arg.span.clone(), "`super()` takes no arguments"));
        }
        Ok(Node::Super(tag))
    }

    /// A macro's call (its arguments' own calls already lifted): its body in place, its
    /// parameters bound.
    fn inline(&mut self, call: MacroCall, tag: Range<usize>) -> Result<Node, Diagnostic> {
        self.inline_with(call, tag, None)
    }

    /// [`inline`](Self::inline), for a `{% call %}` with its body: each `caller()` of the
    /// macro's body is that body, put in place.
    fn inline_with(
        &mut self,
        call: MacroCall,
        tag: Range<usize>,
        caller: Option<Vec<Node>>,
    ) -> Result<Node, Diagnostic> {
        let MacroCall {
            name,
            name_span,
            args,
            named,
        } = call;
        let Some(found) = self.macros.iter().rev().find(|m| m.name == name) else {
            return Err(self.error(
                name_span,
                format!("calling `{name}(…)` is not supported: it is not a macro defined above it in this template"),
            ));
        };
        if args.len() > found.params.len() {
            return Err(self.error(
                args[found.params.len()].span.clone(),
                format!("`{name}` takes {} arguments", found.params.len()),
            ));
        }
        if let Some((key, span, _)) = named
            .iter()
            .find(|(k, ..)| !found.params.iter().any(|(p, _)| p == k))
        {
            let mut error = self.error(span.clone(), format!("`{name}` has no parameter `{key}`"));
            if let Some(close) =
                crate::suggest::closest(key, found.params.iter().map(|(p, _)| p.as_str()))
            {
                error = error.with_help(format!("did you mean `{close}`?"));
            }
            return Err(error);
        }
        let mut binds = Vec::new();
        for (i, (param, default)) in found.params.iter().enumerate() {
            let given = args.get(i).cloned().or_else(|| {
                named
                    .iter()
                    .find(|(k, ..)| k == param)
                    .map(|(.., v)| v.clone())
            });
            if given.is_none()
                && found.template.is_some()
                && default
                    .as_ref()
                    .is_some_and(|d| !matches!(d.kind, ExprKind::Literal(_)))
            {
                return Err(self
                    .error(tag, format!("give `{name}` its parameter `{param}`"))
                    .with_note("an imported macro's default is read where the macro is written, in the other template; promptic takes a literal there, and this one is not"));
            }
            match given.or_else(|| default.clone()) {
                Some(value) => binds.push((param.clone(), value)),
                None => {
                    return Err(self
                        .error(tag, format!("`{name}` needs its parameter `{param}`"))
                        .with_note("Jinja2 would leave it undefined"));
                }
            }
        }
        let size = count_nodes(&found.body);
        self.copied = self.copied.saturating_add(size);
        if self.copied > MAX_COPIED {
            return Err(self
                .error(
                    tag,
                    format!("the macro calls of this template copy more than {MAX_COPIED} nodes"),
                )
                .with_note("each call writes its macro's body, and the calls inside it, in full"));
        }
        let depth = nesting(&found.body) + 1;
        if self.depth + depth > MAX_NESTING {
            return Err(self.error(
                tag,
                format!("blocks nest more than {MAX_NESTING} deep with the macros called here"),
            ));
        }
        let mut body = found.body.clone();
        let template = found.template.clone();
        if name == "caller" && body.len() == 1 && is_no_caller_mark(&body[0]) {
            return Err(self
                .error(tag, "`caller()` in a `{% call %}`'s body has no caller")
                .with_note(
                    "Jinja2 fails there: the body is a macro of its own, called by no `{% call %}`",
                ));
        }
        let is_caller =
            name == "caller" && template.is_none() && body.len() == 1 && is_caller_mark(&body[0]);
        match caller {
            // The `caller()` of a macro being defined: its mark, kept.
            None if is_caller => {}
            None if has_caller_mark(&body) => {
                return Err(self
                    .error(tag, format!("`{name}` calls `caller()`, which only a `{{% call %}}` gives it"))
                    .with_help(format!("call it as `{{% call {name}(…) %}}…{{% endcall %}}`, the text `caller()` writes between the tags")));
            }
            None => {}
            Some(_) if template.is_some() => {
                return Err(self.error(
                    tag,
                    format!("a `{{% call %}}` of `{name}`, a macro imported from `{}`, is not supported", template.unwrap_or_default()),
                ).with_help("define the macro in this template to call it with a body"));
            }
            Some(caller) => {
                let mut filled = 0;
                fill_caller(&mut body, &caller, &mut filled);
                self.copied = self
                    .copied
                    .saturating_add(count_nodes(&caller).saturating_mul(filled));
                if self.copied > MAX_COPIED {
                    return Err(self
                        .error(
                            tag,
                            format!(
                                "the macro calls of this template copy more than {MAX_COPIED} nodes"
                            ),
                        )
                        .with_note("each `caller()` writes the `{% call %}`'s body in full"));
                }
                if self.depth + nesting(&body) + 1 > MAX_NESTING {
                    return Err(self.error(
                        tag,
                        format!(
                            "blocks nest more than {MAX_NESTING} deep with the macros called here"
                        ),
                    ));
                }
            }
        }
        Ok(Node::Scope(Box::new(Scope {
            template,
            block: None,
            binds,
            nodes: body,
            span: tag,
        })))
    }

    /// `{% call name(args) %}…{% endcall %}`: the macro's body with each `caller()` in it
    /// the text between the tags.
    #[inline(never)]
    fn call_block(
        &mut self,
        mut parser: Parser<'a>,
        tag: Range<usize>,
    ) -> Result<Node, Diagnostic> {
        if parser.op("(") {
            return Err(self
                .error(
                    tag,
                    "a `{% call %}` whose `caller` takes parameters is not supported",
                )
                .with_help(
                    "read the values the macro would pass from the names around the `{% call %}`",
                ));
        }
        let here = parser.next_span();
        let expr = parser.expr()?;
        parser.finish("in `{% call %}`")?;
        let ExprKind::MacroCall(mut call) = expr.kind else {
            return Err(self.error(
                here.start..expr.span.end,
                "`{% call %}` calls a macro defined above it: `{% call name(…) %}`",
            ));
        };
        drop(parser);
        let mut prelude = Vec::new();
        for arg in call
            .args
            .iter_mut()
            .chain(call.named.iter_mut().map(|(.., e)| e))
        {
            self.lift(arg, &mut prelude)?;
        }
        self.nest(&tag)?;
        // Its body is a macro of its own, which no `{% call %}` calls: `caller()` in it has
        // nothing to give.
        let defined = self.macros.len();
        self.macros.push(Macro {
            name: "caller".to_owned(),
            params: Vec::new(),
            body: vec![no_caller_mark(tag.clone())],
            template: None,
        });
        let body = self.block_body(&tag, "call");
        self.macros.truncate(defined);
        let node = self.inline_with(*call, tag, Some(body?))?;
        self.prelude = prelude;
        Ok(node)
    }

    /// `{% from %}` or `{% import %}`, at the top level of the template: the other template
    /// is read while this one is, so an import inside nested blocks would keep both
    /// nestings on the stack at once, and a chain of them each one's.
    fn import_tag(
        &mut self,
        word: &str,
        parser: Parser<'a>,
        tag: Range<usize>,
    ) -> Result<(), Diagnostic> {
        if self.depth > 0 {
            return Err(self
                .error(tag, format!("`{{% {word} %}}` inside a block"))
                .with_help("import macros at the top level of the template, before the blocks that call them"));
        }
        if word == "from" {
            self.import_from(parser, tag)
        } else {
            self.import_as(parser, tag)
        }
    }

    /// The error for a tag no arm of [`body`](Self::body) reads: a closing tag without its
    /// opening one, a tag promptic does not support, or an unknown one.
    #[inline(never)]
    fn tag_error(&self, word: &str, tag: Range<usize>, word_span: Range<usize>) -> Diagnostic {
        match word {
            "elif" | "else" | "endif" | "endfor" | "endraw" | "endfilter" | "endblock"
            | "endmacro" | "endwith" | "endcall" => {
                self.error(tag, format!("`{{% {word} %}}` without an opening tag"))
            }
            w if UNSUPPORTED.contains(&w) => self
                .error(
                    word_span,
                    format!("`{{% {w} %}}` is not supported by promptic's Jinja front end"),
                )
                .with_note(SUPPORTED_TAGS),
            w => self
                .error(word_span, format!("unknown tag `{{% {w} %}}`"))
                .with_note(SUPPORTED_TAGS),
        }
    }

    /// `{% from "x" import a, b as c %}`: the macros `a` and `b` of template `x`, callable
    /// as `a(…)` and `c(…)` after the tag.
    fn import_from(&mut self, mut parser: Parser<'a>, tag: Range<usize>) -> Result<(), Diagnostic> {
        let here = parser.next_span();
        let expr = parser.expr()?;
        let name = self.quoted_name(expr, here, "from")?;
        if !parser.keyword("import") {
            let here = parser.next_span();
            return Err(self.error(here, "expected `import` and the macros' names"));
        }
        let mut wanted: Vec<(String, Range<usize>, String)> = Vec::new();
        loop {
            if !wanted.is_empty() && !parser.op(",") {
                break;
            }
            if context_clause(&mut parser) {
                break;
            }
            let here = parser.next_span();
            let Some((imported, span)) = parser.name() else {
                return Err(self.error(here, "expected the name of a macro to import"));
            };
            if imported.starts_with('_') {
                return Err(self.error(
                    span,
                    "a name that starts with `_` is not exported, so it cannot be imported",
                ));
            }
            let alias = if parser.keyword("as") {
                let here = parser.next_span();
                let Some((alias, _)) = parser.name() else {
                    return Err(self.error(here, "expected a name after `as`"));
                };
                alias
            } else {
                imported.clone()
            };
            wanted.push((imported, span, alias));
            if context_clause(&mut parser) {
                break;
            }
        }
        parser.finish("in `{% from %}`")?;
        drop(parser);
        if wanted.is_empty() {
            return Err(self.error(tag, "`{% from %}` names the macros it imports"));
        }
        let macros = self.imported(&name, &tag)?;
        for (imported, span, alias) in wanted {
            let Some(found) = macros.iter().find(|m| m.name == imported) else {
                let mut error = self.error(span, format!("`{name}` defines no macro `{imported}`"));
                if let Some(close) =
                    crate::suggest::closest(&imported, macros.iter().map(|m| m.name.as_str()))
                {
                    error = error.with_help(format!("did you mean `{close}`?"));
                }
                return Err(
                    error.with_note("promptic imports a template's macros, not the names it sets")
                );
            };
            let exported = found.exported(&name, &alias);
            self.macros.retain(|m| m.name != alias);
            self.macros.push(exported);
        }
        Ok(())
    }

    /// `{% import "x" as lib %}`: the macros of template `x`, callable as `lib.name(…)`
    /// after the tag.
    fn import_as(&mut self, mut parser: Parser<'a>, tag: Range<usize>) -> Result<(), Diagnostic> {
        let here = parser.next_span();
        let expr = parser.expr()?;
        let name = self.quoted_name(expr, here, "import")?;
        if !parser.keyword("as") {
            let here = parser.next_span();
            return Err(self.error(
                here,
                "expected `as` and a name: `{% import \"x\" as lib %}`",
            ));
        }
        let here = parser.next_span();
        let Some((alias, _)) = parser.name() else {
            return Err(self.error(here, "expected a name after `as`"));
        };
        context_clause(&mut parser);
        parser.finish("in `{% import %}`")?;
        drop(parser);
        let macros = self.imported(&name, &tag)?;
        let prefix = format!("{alias}.");
        self.macros.retain(|m| !m.name.starts_with(&prefix));
        for found in &macros {
            if !found.name.starts_with('_') {
                let exported = found.exported(&name, &format!("{prefix}{}", found.name));
                self.macros.push(exported);
            }
        }
        Ok(())
    }

    /// The name a `{% from %}` or `{% import %}` takes, quoted.
    fn quoted_name(
        &self,
        expr: Expr,
        here: Range<usize>,
        word: &str,
    ) -> Result<String, Diagnostic> {
        let ExprKind::Literal(super::data::Value::String(name)) = expr.kind else {
            return Err(self.error(
                here.start..expr.span.end,
                format!(
                    "`{{% {word} %}}` takes a quoted file name; computed names are not supported"
                ),
            ));
        };
        normalize(&name).map_err(|why| self.error(expr.span.clone(), why))
    }

    /// The top-level macros of template `name`, read for the tag at `tag`.
    fn imported(&mut self, name: &str, tag: &Range<usize>) -> Result<Vec<Macro>, Diagnostic> {
        self.imports.push((name.to_owned(), tag.clone()));
        match (self.import)(name) {
            Ok(macros) => Ok(macros),
            // A cycle, a bound: at the tag; a mistake in the other template: there.
            Err(Some(error)) if error.location().is_none() => {
                Err(error.at(self.source, tag.clone()))
            }
            Err(Some(error)) => Err(error),
            Err(None) => {
                Err(self.error(tag.clone(), format!("no template `{name}` in `prompts/`")))
            }
        }
    }

    fn include(&mut self, mut parser: Parser<'a>, tag: Range<usize>) -> Result<Node, Diagnostic> {
        let name = self.file_name(&mut parser, &tag, "include")?;
        Ok(Node::Include { name, span: tag })
    }

    fn set(
        &mut self,
        mut parser: Parser<'a>,
        tag: Range<usize>,
        word: Range<usize>,
    ) -> Result<Node, Diagnostic> {
        let here = parser.next_span();
        let Some((name, span)) = parser.name() else {
            return Err(self.error(here, "expected a name after `set`"));
        };
        let mut attr = None;
        if parser.op(".") {
            let here = parser.next_span();
            let Some((name, attr_span)) = parser.name() else {
                return Err(self.error(here, "expected a name after `.`"));
            };
            attr = Some((name, attr_span));
        }
        if parser.op(",") || parser.op(".") {
            let here = parser.next_span();
            return Err(self.error(
                here,
                "only `{% set name = value %}` and `{% set ns.name = value %}` are supported",
            ));
        }
        if name == "loop" {
            return Err(self.loop_named(span));
        }
        let eq = parser.next_span();
        if !parser.op("=") {
            if let Some((attr, _)) = attr {
                return Err(self
                    .error(
                        word.start..eq.end,
                        format!("a block `{{% set {name}.{attr} %}}…{{% endset %}}` is not supported"),
                    )
                    .with_help(format!(
                        "set a name with the block, then the attribute: `{{% set text %}}…{{% endset %}}{{% set {name}.{attr} = text %}}`"
                    )));
            }
            return self.set_block(parser, tag, name, span);
        }
        let mut value = parser.expr()?;
        parser.finish("in `{% set %}`")?;
        self.no_stray_items(&value)?;
        let mut prelude = Vec::new();
        self.lift(&mut value, &mut prelude)?;
        self.prelude = prelude;
        if let Some((attr, attr_span)) = attr {
            let span = span.start..attr_span.end;
            return Ok(Node::SetAttr {
                name,
                attr,
                span,
                value,
            });
        }
        Ok(Node::Set { name, span, value })
    }
}

/// An include name as Jinja2's `FileSystemLoader` splits it: `/`-separated, empty and
/// `.` pieces dropped; `..` refused (it would leave `prompts/`), and so is `\`.
pub(crate) fn normalize(name: &str) -> Result<String, String> {
    let mut pieces = Vec::new();
    for piece in name.split('/') {
        if piece == ".." || piece.contains('\\') {
            return Err(format!(
                "`{name}` leaves `prompts/`: include names are relative to it, without `..`"
            ));
        }
        if !piece.is_empty() && piece != "." {
            pieces.push(piece);
        }
    }
    if pieces.is_empty() {
        return Err("an include needs a file name".into());
    }
    Ok(pieces.join("/"))
}

/// How many nodes `nodes` holds, all the way down.
pub(crate) fn count_nodes(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|node| {
            1 + match node {
                Node::If(block) => block
                    .branches
                    .iter()
                    .map(|(_, body)| body)
                    .chain(block.otherwise.iter().map(|(_, body)| body))
                    .map(|body| count_nodes(body))
                    .sum(),
                Node::For(each) => {
                    count_nodes(&each.body) + each.otherwise.as_deref().map_or(0, count_nodes)
                }
                Node::FilterBlock(block) => count_nodes(&block.body),
                Node::Scope(scope) => count_nodes(&scope.nodes),
                _ => 0,
            }
        })
        .sum()
}

/// How deep blocks nest in `nodes`, each scope a level.
pub(crate) fn nesting(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|node| match node {
            Node::If(block) => {
                1 + block
                    .branches
                    .iter()
                    .map(|(_, body)| body)
                    .chain(block.otherwise.iter().map(|(_, body)| body))
                    .map(|body| nesting(body))
                    .max()
                    .unwrap_or(0)
            }
            Node::For(each) => {
                1 + nesting(&each.body).max(each.otherwise.as_deref().map_or(0, nesting))
            }
            Node::FilterBlock(block) => 1 + nesting(&block.body),
            Node::Scope(scope) => 1 + nesting(&scope.nodes),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}
