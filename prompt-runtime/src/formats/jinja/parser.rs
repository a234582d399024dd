//! Statements: `{% if %}`, `{% for %}`, `{% include %}`, `{% set %}`, `{% filter %}`,
//! read from the lexer's segments into a tree. Tags promptic does not support are located
//! errors.

use super::expr::{Expr, ExprKind, Parser, stray_items};
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
}

/// A `{% filter %}` block: its body renders to text, which the filters then take.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FilterBlock {
    /// The filters as one expression: [`super::expr::ExprKind::Filter`]s, each around the
    /// one applied before it, the first around a placeholder (an empty string literal at
    /// the `filter` keyword) that the body's text stands in for.
    pub filters: Expr,
    pub body: Vec<Node>,
    /// The `{% filter %}` tag.
    pub span: Range<usize>,
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
}

/// Tags Jinja2 has that promptic does not, for a message that says so rather than
/// "unknown tag".
const UNSUPPORTED: [&str; 13] = [
    "macro",
    "call",
    "extends",
    "block",
    "import",
    "from",
    "with",
    "autoescape",
    "break",
    "continue",
    "do",
    "trans",
    "endset",
];

/// The comment that marks where a prompt's cacheable prefix ends.
pub(crate) const BREAKPOINT: &str = "cache_breakpoint";

/// A template's nodes, and its cache breakpoints: for each, how many top-level nodes come
/// before it, and the comment's span.
pub(crate) type Parsed = (Vec<Node>, Vec<(usize, Range<usize>)>);

pub(crate) fn parse(source: &SourceFile, segments: &[Segment]) -> Result<Parsed, Diagnostic> {
    let mut reader = Reader {
        source,
        segments,
        pos: 0,
        loops: 0,
        depth: 0,
        breakpoints: Vec::new(),
    };
    let (nodes, end) = reader.body(&[])?;
    if let Some((word, span)) = end {
        return Err(
            Diagnostic::new(format!("`{{% {word} %}}` without an opening tag")).at(source, span),
        );
    }
    Ok((nodes, reader.breakpoints))
}

struct Reader<'a> {
    source: &'a SourceFile,
    segments: &'a [Segment],
    pos: usize,
    /// How many `for`s enclose the current point.
    loops: usize,
    depth: usize,
    /// The `{# cache_breakpoint #}` comments read so far (see [`Parsed`]).
    breakpoints: Vec<(usize, Range<usize>)>,
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

    fn error(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(message).at(self.source, span)
    }

    fn expr_parser(&self, inner: Range<usize>) -> Result<Parser<'a>, Diagnostic> {
        Parser::new(self.source, inner, self.loops > 0)
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
                    let mut parser = self.expr_parser(inner.clone())?;
                    if parser.at_end() {
                        return Err(
                            self.error(tag.clone(), "empty `{{ }}`: write an expression in it")
                        );
                    }
                    let expr = parser.expr()?;
                    parser.finish("in `{{ }}`")?;
                    self.no_stray_items(&expr)?;
                    nodes.push(Node::Output(expr));
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
                    let node = match word.as_str() {
                        "if" => self.if_block(parser, tag.clone())?,
                        "for" => self.for_block(parser, tag.clone())?,
                        "include" => self.include(parser, tag.clone())?,
                        "set" => self.set(parser, word_span)?,
                        "filter" => self.filter_block(parser, tag.clone(), word_span)?,
                        "elif" | "else" | "endif" | "endfor" | "endraw" | "endfilter" => {
                            return Err(self.error(
                                tag.clone(),
                                format!("`{{% {word} %}}` without an opening tag"),
                            ));
                        }
                        w if UNSUPPORTED.contains(&w) => {
                            return Err(self
                                .error(word_span, format!("`{{% {w} %}}` is not supported by promptic's Jinja front end"))
                                .with_note("supported tags: if/elif/else, for, include, set, filter, raw"));
                        }
                        w => {
                            return Err(self
                                .error(word_span, format!("unknown tag `{{% {w} %}}`"))
                                .with_note(
                                    "supported tags: if/elif/else, for, include, set, filter, raw",
                                ));
                        }
                    };
                    nodes.push(node);
                }
            }
        }
        Ok((nodes, None))
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
        let expr = parser.expr()?;
        parser.finish(&format!("in `{{% {word} %}}`"))?;
        Ok(expr)
    }

    /// Reads the tag at `self.pos` (a stop tag `body` left) again, past its keyword.
    fn stop_tag(&mut self) -> Result<(Parser<'a>, Range<usize>), Diagnostic> {
        let Some(Segment::Block { tag, inner }) = self.segments.get(self.pos) else {
            return Err(self.error(0..0, "internal: expected a block tag"));
        };
        self.pos += 1;
        let mut parser = Parser::new(self.source, inner.clone(), self.loops > 0)?;
        parser.name();
        Ok((parser, tag.clone()))
    }

    fn if_block(&mut self, parser: Parser<'a>, tag: Range<usize>) -> Result<Node, Diagnostic> {
        self.nest(&tag)?;
        let mut condition = self.condition(parser, &tag, "if")?;
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
                Some((name, span)) if name == "loop" => {
                    return Err(self.error(
                        span,
                        "`loop` is Jinja's own loop variable; name yours differently",
                    ));
                }
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
        let iter = parser.iterable()?;
        let filter = if parser.keyword("if") {
            let cond = parser.expr()?;
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
        Ok(Node::For(Box::new(For {
            targets,
            iter,
            filter,
            body,
            otherwise,
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
        drop(parser);
        let (body, end) = self.body(&["endfilter"])?;
        if end.is_none() {
            return Err(self.error(
                tag,
                "this `{% filter %}` is never closed with `{% endfilter %}`",
            ));
        }
        let (parser, _) = self.stop_tag()?;
        parser.finish("after `endfilter`")?;
        self.depth -= 1;
        Ok(Node::FilterBlock(Box::new(FilterBlock {
            filters,
            body,
            span: tag,
        })))
    }

    fn include(&mut self, mut parser: Parser<'a>, tag: Range<usize>) -> Result<Node, Diagnostic> {
        let here = parser.next_span();
        let expr = parser.expr()?;
        let ExprKind::Literal(super::data::Value::String(name)) = expr.kind else {
            return Err(self.error(
                here.start..expr.span.end,
                "`{% include %}` takes a quoted file name; computed names are not supported",
            ));
        };
        if !parser.at_end() {
            let rest = parser.next_span();
            return Err(self
                .error(
                    rest.start..tag.end.saturating_sub(2),
                    "only `{% include \"name\" %}` is supported",
                )
                .with_note("`ignore missing`, `with context` and `without context` are not"));
        }
        let name = normalize(&name).map_err(|why| self.error(expr.span.clone(), why))?;
        Ok(Node::Include { name, span: tag })
    }

    fn set(&mut self, mut parser: Parser<'a>, word: Range<usize>) -> Result<Node, Diagnostic> {
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
        let eq = parser.next_span();
        if !parser.op("=") {
            return Err(self.error(
                word.start..eq.end,
                "block `{% set name %}…{% endset %}` is not supported; write `{% set name = value %}`",
            ));
        }
        if name == "loop" {
            return Err(self.error(
                span,
                "`loop` is Jinja's own loop variable; name yours differently",
            ));
        }
        let value = parser.expr()?;
        parser.finish("in `{% set %}`")?;
        self.no_stray_items(&value)?;
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
