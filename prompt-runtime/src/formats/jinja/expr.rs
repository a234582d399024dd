//! Expressions inside `{{ … }}` and `{% … %}`: tokens, the tree, and a parser for the
//! subset promptic supports. Everything outside it is a located error saying so.

use super::data::Value;
use super::lexer::py_space;
use crate::diagnostic::{Diagnostic, SourceFile};
use std::ops::Range;

/// How deep one expression may nest, in brackets and parentheses as the parser reads it
/// and in operations as the tree it builds holds them (`x[0][0]`, `a and b and c`,
/// `x | trim | trim`, `not not x` are as deep as they are long): far past anything a
/// prompt writes, and well inside the stack of every walk over the tree (rendering,
/// checking, generating code), on a 2 MiB thread too.
const MAX_DEPTH: usize = 64;

/// An expression and the bytes of the source it was written as.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Expr {
    pub kind: ExprKind,
    pub span: Range<usize>,
    /// How many expressions deep the tree is, 1 for a leaf; at most [`MAX_DEPTH`].
    depth: usize,
}

impl Expr {
    fn leaf(kind: ExprKind, span: Range<usize>) -> Expr {
        Expr {
            kind,
            span,
            depth: 1,
        }
    }
}

impl ExprKind {
    /// How deep its deepest operand is (0 for a leaf).
    fn operand_depth(&self) -> usize {
        let deepest = |list: &mut dyn Iterator<Item = &Expr>| list.map(|e| e.depth).max();
        match self {
            ExprKind::Literal(_) | ExprKind::Name(_) | ExprKind::Loop(_) => 0,
            ExprKind::List(items) => deepest(&mut items.iter()).unwrap_or(0),
            ExprKind::Attr(e, _)
            | ExprKind::Not(e)
            | ExprKind::Items(e)
            | ExprKind::Test(e, ..) => e.depth,
            ExprKind::Item(a, b)
            | ExprKind::And(a, b)
            | ExprKind::Or(a, b)
            | ExprKind::StartsWith(a, b) => a.depth.max(b.depth),
            ExprKind::Split(a, b) => a.depth.max(b.as_ref().map_or(0, |b| b.depth)),
            ExprKind::Filter(e, _, args) => e.depth.max(deepest(&mut args.iter()).unwrap_or(0)),
            ExprKind::Compare(first, rest) => first
                .depth
                .max(deepest(&mut rest.iter().map(|(_, e)| e)).unwrap_or(0)),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ExprKind {
    /// A string, number, boolean or `none`.
    Literal(Value),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// A variable.
    Name(String),
    /// `a.b`.
    Attr(Box<Expr>, String),
    /// `a[b]`.
    Item(Box<Expr>, Box<Expr>),
    /// `loop.index` and its kin, inside a `for`.
    Loop(LoopAttr),
    /// `value | filter(args)`.
    Filter(Box<Expr>, Filter, Vec<Expr>),
    /// `value is [not] test`.
    Test(Box<Expr>, Test, bool),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    /// A comparison chain, `a < b <= c`, as Python reads it.
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    /// `s.startswith(prefix)`.
    StartsWith(Box<Expr>, Box<Expr>),
    /// `s.split(sep)` or `s.split()`.
    Split(Box<Expr>, Option<Box<Expr>>),
    /// `m.items()`: only as the iterable of a `for`.
    Items(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LoopAttr {
    Index,
    Index0,
    First,
    Last,
    Length,
    Revindex,
    Revindex0,
}

impl LoopAttr {
    const NAMES: [(&'static str, LoopAttr); 7] = [
        ("index", LoopAttr::Index),
        ("index0", LoopAttr::Index0),
        ("first", LoopAttr::First),
        ("last", LoopAttr::Last),
        ("length", LoopAttr::Length),
        ("revindex", LoopAttr::Revindex),
        ("revindex0", LoopAttr::Revindex0),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Filter {
    Default,
    Join,
    Trim,
    Upper,
    Lower,
    Length,
    Tojson,
}

impl Filter {
    /// Each filter's name and how many arguments it takes (fewest, most).
    const ALL: [(&'static str, Filter, usize, usize); 7] = [
        ("default", Filter::Default, 0, 2),
        ("join", Filter::Join, 0, 1),
        ("trim", Filter::Trim, 0, 1),
        ("upper", Filter::Upper, 0, 0),
        ("lower", Filter::Lower, 0, 0),
        ("length", Filter::Length, 0, 0),
        ("tojson", Filter::Tojson, 0, 0),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Test {
    Defined,
    Undefined,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Name(String),
    Str(String),
    Int(i64),
    Float(f64),
    Op(&'static str),
}

/// Operators Jinja2 knows, longest first. The ones promptic does not support are lexed
/// anyway, so that the error names them.
const OPS: [&str; 25] = [
    "//", "**", "==", "!=", "<=", ">=", "<", ">", "(", ")", "[", "]", "{", "}", ".", ",", "|", "=",
    "-", "+", "*", "/", "%", "~", ":",
];

fn tokenize(
    source: &SourceFile,
    span: Range<usize>,
) -> Result<Vec<(Tok, Range<usize>)>, Diagnostic> {
    let text = source.text();
    let mut out = Vec::new();
    let mut i = span.start;
    let at = |range: Range<usize>, message: String| Diagnostic::new(message).at(source, range);
    while i < span.end {
        let rest = &text[i..span.end];
        let c = rest.chars().next().unwrap_or(' ');
        if py_space(c) {
            i += c.len_utf8();
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            out.push((Tok::Name(rest[..len].to_owned()), i..i + len));
            i += len;
            continue;
        }
        if c.is_ascii_digit() {
            let (tok, len) = number(rest).ok_or_else(|| {
                at(
                    i..i + 1,
                    "this number is not written as Jinja reads numbers".into(),
                )
            })?;
            out.push((tok, i..i + len));
            i += len;
            continue;
        }
        if c == '\'' || c == '"' {
            let (value, len) = string(rest, c).map_err(|(offset, message)| {
                let start = i + offset;
                at(start..start + 1, message)
            })?;
            out.push((Tok::Str(value), i..i + len));
            i += len;
            continue;
        }
        let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) else {
            return Err(at(
                i..i + c.len_utf8(),
                format!("`{c}` is not part of a Jinja expression"),
            ));
        };
        out.push((Tok::Op(op), i..i + op.len()));
        i += op.len();
    }
    Ok(out)
}

/// An integer or float at the start of `text`, as Jinja2's lexer reads it (`1`, `1.5`,
/// `1e3`, `1.5e-3`; underscores between digits).
fn number(text: &str) -> Option<(Tok, usize)> {
    let bytes = text.as_bytes();
    let digits = |from: usize| {
        let mut i = from;
        while i < bytes.len()
            && (bytes[i].is_ascii_digit()
                || (bytes[i] == b'_'
                    && i > from
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        i
    };
    let mut end = digits(0);
    let mut float = false;
    if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
        end = digits(end + 1);
        float = true;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut e = end + 1;
        if matches!(bytes.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        if bytes.get(e).is_some_and(u8::is_ascii_digit) {
            end = digits(e);
            float = true;
        }
    }
    let written: String = text[..end].chars().filter(|&c| c != '_').collect();
    let tok = if float {
        Tok::Float(written.parse().ok()?)
    } else {
        Tok::Int(written.parse().ok()?)
    };
    Some((tok, end))
}

/// A quoted string at the start of `text`, its escapes read as Python's `unicode-escape`
/// reads them (which is what Jinja2 does), and its length. An error carries the byte
/// offset it is at.
fn string(text: &str, quote: char) -> Result<(String, usize), (usize, String)> {
    let mut out = String::new();
    let mut chars = text.char_indices().skip(1).peekable();
    while let Some((i, c)) = chars.next() {
        if c == quote {
            return Ok((out, i + 1));
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        let simple = match e {
            '\\' => Some('\\'),
            '\'' => Some('\''),
            '"' => Some('"'),
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '0' => Some('\0'),
            '\n' => None,
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let width = match e {
            '\n' => continue,
            'x' => 2,
            'u' => 4,
            'U' => 8,
            // Python keeps an unknown escape as written.
            other => {
                out.push('\\');
                out.push(other);
                continue;
            }
        };
        let mut hex = String::new();
        for _ in 0..width {
            match chars.peek() {
                Some(&(_, h)) if h.is_ascii_hexdigit() => {
                    hex.push(h);
                    chars.next();
                }
                _ => return Err((i, format!("`\\{e}` needs {width} hex digits"))),
            }
        }
        let code = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
        match code {
            Some(c) => out.push(c),
            None => return Err((i, format!("`\\{e}{hex}` is not a character"))),
        }
    }
    Err((0, format!("this string is never closed with `{quote}`")))
}

/// Parses the expression tokens in `span` of `source`.
pub(crate) struct Parser<'s> {
    source: &'s SourceFile,
    tokens: Vec<(Tok, Range<usize>)>,
    pos: usize,
    end: usize,
    depth: usize,
    /// Whether a `for` encloses this expression, so `loop.index` means something.
    pub in_loop: bool,
}

type Parsed<T> = Result<T, Diagnostic>;

impl<'s> Parser<'s> {
    pub(crate) fn new(source: &'s SourceFile, span: Range<usize>, in_loop: bool) -> Parsed<Self> {
        Ok(Parser {
            source,
            tokens: tokenize(source, span.clone())?,
            pos: 0,
            end: span.end,
            depth: 0,
            in_loop,
        })
    }

    fn error(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(message).at(self.source, span)
    }

    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.0)
    }

    fn here(&self) -> Range<usize> {
        self.tokens
            .get(self.pos)
            .map_or(self.end..self.end, |t| t.1.clone())
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Some(Tok::Op(o)) if *o == op)
    }

    fn is_name(&self, name: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(n)) if n == name)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        let found = self.is_op(op);
        self.pos += usize::from(found);
        found
    }

    fn eat_name(&mut self, name: &str) -> bool {
        let found = self.is_name(name);
        self.pos += usize::from(found);
        found
    }

    fn expect_op(&mut self, op: &str, what: &str) -> Parsed<Range<usize>> {
        let here = self.here();
        if self.eat_op(op) {
            Ok(here)
        } else {
            Err(self.error(here, format!("expected `{op}` {what}")))
        }
    }

    /// Whether every token was read.
    pub(crate) fn at_end(&self) -> bool {
        self.pos == self.tokens.len()
    }

    /// The next name, with its span, if the next token is a name.
    pub(crate) fn name(&mut self) -> Option<(String, Range<usize>)> {
        match self.tokens.get(self.pos) {
            Some((Tok::Name(n), span)) => {
                let found = (n.clone(), span.clone());
                self.pos += 1;
                Some(found)
            }
            _ => None,
        }
    }

    /// Consumes the keyword `word` if it is next.
    pub(crate) fn keyword(&mut self, word: &str) -> bool {
        self.eat_name(word)
    }

    /// Consumes `op` if it is next.
    pub(crate) fn op(&mut self, op: &str) -> bool {
        self.eat_op(op)
    }

    /// The span of the next token (or the end, when there is none).
    pub(crate) fn next_span(&self) -> Range<usize> {
        self.here()
    }

    /// Fails unless every token was read: something is left over.
    pub(crate) fn finish(&self, what: &str) -> Parsed<()> {
        if self.at_end() {
            return Ok(());
        }
        let here = self.here();
        let rest = self.source.text()[here.start..self.end].trim_end();
        let message = match self.peek() {
            Some(Tok::Name(n)) if n == "if" => {
                "inline `if … else …` expressions are not supported; use `{% if %}` blocks".into()
            }
            Some(Tok::Op(op)) if ["+", "-", "*", "/", "//", "%", "**", "~"].contains(op) => {
                format!("the operator `{op}` is not supported")
            }
            _ => format!("unexpected `{rest}` {what}"),
        };
        Err(self.error(here.start..self.end.max(here.end), message))
    }

    fn deeper(&mut self, span: &Range<usize>) -> Parsed<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(span.clone(), "this expression is nested too deeply"));
        }
        Ok(())
    }

    /// An operation on `kind`'s operands, refused when it would nest deeper than
    /// [`MAX_DEPTH`]: the error is at the last token read, which made it too deep.
    fn node(&self, kind: ExprKind, span: Range<usize>) -> Parsed<Expr> {
        let depth = kind.operand_depth() + 1;
        if depth > MAX_DEPTH {
            let last = self.pos.checked_sub(1).and_then(|i| self.tokens.get(i));
            let at = last.map_or_else(|| span.clone(), |t| t.1.clone());
            return Err(self.error(at, "this expression is nested too deeply"));
        }
        Ok(Expr { kind, span, depth })
    }

    /// `left` and `right` joined by `and` or `or`.
    fn join(
        &self,
        left: Expr,
        right: Expr,
        make: fn(Box<Expr>, Box<Expr>) -> ExprKind,
    ) -> Parsed<Expr> {
        let span = left.span.start..right.span.end;
        self.node(make(Box::new(left), Box::new(right)), span)
    }

    /// `or` and below.
    pub(crate) fn expr(&mut self) -> Parsed<Expr> {
        let here = self.here();
        self.deeper(&here)?;
        let mut left = self.and()?;
        while self.eat_name("or") {
            let right = self.and()?;
            left = self.join(left, right, ExprKind::Or)?;
        }
        self.depth -= 1;
        Ok(left)
    }

    fn and(&mut self) -> Parsed<Expr> {
        let mut left = self.not()?;
        while self.eat_name("and") {
            let right = self.not()?;
            left = self.join(left, right, ExprKind::And)?;
        }
        Ok(left)
    }

    fn not(&mut self) -> Parsed<Expr> {
        let here = self.here();
        if self.eat_name("not") {
            self.deeper(&here)?;
            let inner = self.not()?;
            self.depth -= 1;
            let span = here.start..inner.span.end;
            return self.node(ExprKind::Not(Box::new(inner)), span);
        }
        self.compare()
    }

    fn compare(&mut self) -> Parsed<Expr> {
        let left = self.unary()?;
        let mut chain = Vec::new();
        loop {
            let op = match self.peek() {
                Some(Tok::Op("==")) => CmpOp::Eq,
                Some(Tok::Op("!=")) => CmpOp::Ne,
                Some(Tok::Op("<")) => CmpOp::Lt,
                Some(Tok::Op("<=")) => CmpOp::Le,
                Some(Tok::Op(">")) => CmpOp::Gt,
                Some(Tok::Op(">=")) => CmpOp::Ge,
                Some(Tok::Name(n)) if n == "in" => CmpOp::In,
                Some(Tok::Name(n))
                    if n == "not"
                        && matches!(self.tokens.get(self.pos + 1), Some((Tok::Name(m), _)) if m == "in") =>
                {
                    self.pos += 1;
                    CmpOp::NotIn
                }
                _ => break,
            };
            self.pos += 1;
            chain.push((op, self.unary()?));
        }
        if chain.is_empty() {
            return Ok(left);
        }
        let span = left.span.start..chain.last().map_or(left.span.end, |(_, e)| e.span.end);
        self.node(ExprKind::Compare(Box::new(left), chain), span)
    }

    /// A primary with its postfixes, filters and tests.
    fn unary(&mut self) -> Parsed<Expr> {
        let mut value = self.postfix()?;
        loop {
            if self.eat_op("|") {
                value = self.filter(value)?;
            } else if self.is_name("is") {
                self.pos += 1;
                value = self.test(value)?;
            } else {
                return Ok(value);
            }
        }
    }

    fn filter(&mut self, value: Expr) -> Parsed<Expr> {
        let here = self.here();
        let Some((name, span)) = self.name() else {
            return Err(self.error(here, "expected a filter name after `|`"));
        };
        let Some(&(_, filter, fewest, most)) = Filter::ALL.iter().find(|f| f.0 == name) else {
            let known = Filter::ALL.iter().map(|f| f.0);
            let mut error = self.error(span, format!("the filter `{name}` is not supported"));
            error = match crate::suggest::closest(&name, known) {
                Some(close) => error.with_help(format!("did you mean `{close}`?")),
                None => error.with_note(
                    "supported filters: default, join, trim, upper, lower, length, tojson",
                ),
            };
            return Err(error);
        };
        let args = if self.is_op("(") {
            self.args()?
        } else {
            Vec::new()
        };
        if args.len() < fewest || args.len() > most {
            let end = args.last().map_or(span.end, |a| a.span.end);
            return Err(self.error(
                span.start..end,
                format!(
                    "`{name}` takes at most {most} argument{}",
                    if most == 1 { "" } else { "s" }
                ),
            ));
        }
        let end = self.tokens[self.pos - 1].1.end;
        let span = value.span.start..end;
        self.node(ExprKind::Filter(Box::new(value), filter, args), span)
    }

    fn test(&mut self, value: Expr) -> Parsed<Expr> {
        let negated = self.eat_name("not");
        let here = self.here();
        let test = match self.name() {
            Some((n, _)) if n == "defined" => Test::Defined,
            Some((n, _)) if n == "undefined" => Test::Undefined,
            Some((n, _)) if n == "none" => Test::None,
            Some((n, span)) => {
                return Err(self
                    .error(span, format!("the test `is {n}` is not supported"))
                    .with_note("supported tests: `is defined`, `is undefined`, `is none`"));
            }
            None => return Err(self.error(here, "expected a test name after `is`")),
        };
        let span = value.span.start..here.end;
        self.node(ExprKind::Test(Box::new(value), test, negated), span)
    }

    /// `( a, b )` after a filter or method: positional arguments only.
    fn args(&mut self) -> Parsed<Vec<Expr>> {
        let open = self.expect_op("(", "")?;
        let mut args = Vec::new();
        while !self.eat_op(")") {
            if !args.is_empty() {
                self.expect_op(",", "between arguments")?;
                if self.eat_op(")") {
                    break;
                }
            }
            if matches!(self.tokens.get(self.pos + 1), Some((Tok::Op("="), _))) {
                let here = self.here();
                return Err(self.error(
                    here,
                    "keyword arguments are not supported; pass it by position",
                ));
            }
            if self.at_end() {
                return Err(self.error(open, "this `(` is never closed"));
            }
            args.push(self.expr()?);
        }
        Ok(args)
    }

    fn postfix(&mut self) -> Parsed<Expr> {
        let mut value = self.primary()?;
        loop {
            if self.eat_op(".") {
                let here = self.here();
                let Some((attr, span)) = self.name() else {
                    return Err(self.error(here, "expected a name after `.`"));
                };
                if self.is_op("(") {
                    value = self.method(value, attr, span)?;
                    continue;
                }
                let whole = value.span.start..span.end;
                value = self.node(ExprKind::Attr(Box::new(value), attr), whole)?;
            } else if self.is_op("[") {
                let open = self.here();
                self.pos += 1;
                self.deeper(&open)?;
                let key = self.expr()?;
                self.depth -= 1;
                if self.is_op(":") {
                    let here = self.here();
                    return Err(self.error(here, "slices are not supported"));
                }
                let close = self.expect_op("]", "to close `[`")?;
                let whole = value.span.start..close.end;
                value = self.node(ExprKind::Item(Box::new(value), Box::new(key)), whole)?;
            } else if self.is_op("(") {
                let here = self.here();
                return Err(self.error(
                    value.span.start..here.end,
                    "calling functions is not supported (only `.items()`, `.startswith(…)` and `.split(…)`)",
                ));
            } else {
                return Ok(value);
            }
        }
    }

    fn method(&mut self, recv: Expr, name: String, span: Range<usize>) -> Parsed<Expr> {
        let args = self.args()?;
        let end = self.tokens[self.pos - 1].1.end;
        let whole = recv.span.start..end;
        let arity = |n: usize, most: usize| -> Parsed<()> {
            if args.len() < n || args.len() > most {
                Err(self.error(
                    whole.clone(),
                    format!(
                        "`.{name}(…)` takes {}",
                        match (n, most) {
                            (0, 0) => "no arguments".to_owned(),
                            (1, 1) => "one argument".to_owned(),
                            _ => "at most one argument".to_owned(),
                        }
                    ),
                ))
            } else {
                Ok(())
            }
        };
        let kind = match name.as_str() {
            "items" => {
                arity(0, 0)?;
                ExprKind::Items(Box::new(recv))
            }
            "startswith" => {
                arity(1, 1)?;
                let mut args = args;
                ExprKind::StartsWith(Box::new(recv), Box::new(args.remove(0)))
            }
            "split" => {
                arity(0, 1)?;
                ExprKind::Split(Box::new(recv), args.into_iter().next().map(Box::new))
            }
            _ => {
                return Err(self
                    .error(
                        span.start..end,
                        format!("the method `.{name}(…)` is not supported"),
                    )
                    .with_note(
                        "supported methods: `.items()` (in `for`), `.startswith(…)`, `.split(…)`",
                    ));
            }
        };
        self.node(kind, whole)
    }

    fn primary(&mut self) -> Parsed<Expr> {
        let here = self.here();
        let Some((tok, span)) = self.tokens.get(self.pos).cloned() else {
            return Err(self.error(here, "expected an expression"));
        };
        self.pos += 1;
        let literal = |value: Value| Expr::leaf(ExprKind::Literal(value), span.clone());
        match tok {
            Tok::Str(mut s) => {
                // Adjacent strings join, as in Python.
                let mut end = span.end;
                while let Some((Tok::Str(next), next_span)) = self.tokens.get(self.pos) {
                    s.push_str(next);
                    end = next_span.end;
                    self.pos += 1;
                }
                Ok(Expr::leaf(
                    ExprKind::Literal(Value::String(s)),
                    span.start..end,
                ))
            }
            Tok::Int(n) => Ok(literal(Value::from(n))),
            Tok::Float(f) => Ok(literal(float(f))),
            Tok::Op("-") => match self.tokens.get(self.pos).cloned() {
                Some((Tok::Int(n), s)) => {
                    self.pos += 1;
                    Ok(Expr::leaf(
                        ExprKind::Literal(Value::from(-n)),
                        span.start..s.end,
                    ))
                }
                Some((Tok::Float(f), s)) => {
                    self.pos += 1;
                    Ok(Expr::leaf(ExprKind::Literal(float(-f)), span.start..s.end))
                }
                _ => Err(self.error(span, "the operator `-` is not supported")),
            },
            Tok::Op("(") => {
                self.deeper(&span)?;
                let inner = self.expr()?;
                self.depth -= 1;
                if self.is_op(",") {
                    let here = self.here();
                    return Err(self.error(here, "tuples are not supported"));
                }
                let close = self.expect_op(")", "to close `(`")?;
                Ok(Expr {
                    span: span.start..close.end,
                    ..inner
                })
            }
            Tok::Op("[") => {
                self.deeper(&span)?;
                let mut items = Vec::new();
                while !self.eat_op("]") {
                    if !items.is_empty() {
                        self.expect_op(",", "between list items")?;
                        if self.eat_op("]") {
                            break;
                        }
                    }
                    if self.at_end() {
                        return Err(self.error(span, "this `[` is never closed"));
                    }
                    items.push(self.expr()?);
                }
                self.depth -= 1;
                let end = self.tokens[self.pos - 1].1.end;
                self.node(ExprKind::List(items), span.start..end)
            }
            Tok::Op("{") => Err(self.error(span, "dict literals are not supported")),
            Tok::Op(op) => Err(self.error(span, format!("expected an expression, found `{op}`"))),
            Tok::Name(name) => self.name_expr(name, span),
        }
    }

    fn name_expr(&mut self, name: String, span: Range<usize>) -> Parsed<Expr> {
        let literal = |value: Value| Ok(Expr::leaf(ExprKind::Literal(value), span.clone()));
        match name.as_str() {
            "true" | "True" => return literal(Value::Bool(true)),
            "false" | "False" => return literal(Value::Bool(false)),
            "none" | "None" => return literal(Value::Null),
            "and" | "or" | "in" | "is" | "if" | "else" | "not" => {
                return Err(self.error(span, format!("expected an expression, found `{name}`")));
            }
            _ => {}
        }
        if name == "loop" {
            if !self.in_loop {
                return Err(self.error(span, "`loop` is only defined inside `{% for %}`"));
            }
            let here = self.here();
            if !self.eat_op(".") {
                return Err(self
                    .error(
                        span,
                        "`loop` is only supported as `loop.index`, `loop.first`, …",
                    )
                    .with_note(supported_loop()));
            }
            let Some((attr, attr_span)) = self.name() else {
                return Err(self.error(here, "expected a name after `.`"));
            };
            let Some(&(_, which)) = LoopAttr::NAMES.iter().find(|(n, _)| *n == attr) else {
                let mut error = self.error(
                    span.start..attr_span.end,
                    format!("`loop.{attr}` is not supported"),
                );
                if let Some(close) =
                    crate::suggest::closest(&attr, LoopAttr::NAMES.iter().map(|n| n.0))
                {
                    error = error.with_help(format!("did you mean `loop.{close}`?"));
                }
                return Err(error.with_note(supported_loop()));
            };
            return Ok(Expr::leaf(ExprKind::Loop(which), span.start..attr_span.end));
        }
        if self.is_op("(") {
            let here = self.here();
            return Err(self.error(
                span.start..here.end,
                format!("calling `{name}(…)` is not supported: promptic's Jinja has no functions"),
            ));
        }
        Ok(Expr::leaf(ExprKind::Name(name), span))
    }
}

fn supported_loop() -> String {
    let names: Vec<String> = LoopAttr::NAMES
        .iter()
        .map(|(n, _)| format!("loop.{n}"))
        .collect();
    format!("supported: {}", names.join(", "))
}

fn float(f: f64) -> Value {
    Value::from(f)
}

/// Every `.items()` in `expr` that is not where a `for` takes it: an error, since Python
/// would print a `dict_items` view there, which promptic does not model.
pub(crate) fn stray_items(expr: &Expr) -> Option<Range<usize>> {
    let mut found = None;
    visit(expr, &mut |e| {
        if matches!(e.kind, ExprKind::Items(_)) && found.is_none() {
            found = Some(e.span.clone());
        }
    });
    found
}

/// Calls `f` on `expr` and every expression inside it, outermost first.
pub(crate) fn visit(expr: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(expr);
    match &expr.kind {
        ExprKind::Literal(_) | ExprKind::Name(_) | ExprKind::Loop(_) => {}
        ExprKind::List(items) => items.iter().for_each(|e| visit(e, f)),
        ExprKind::Attr(e, _) | ExprKind::Not(e) | ExprKind::Items(e) | ExprKind::Test(e, ..) => {
            visit(e, f)
        }
        ExprKind::Item(a, b)
        | ExprKind::And(a, b)
        | ExprKind::Or(a, b)
        | ExprKind::StartsWith(a, b) => {
            visit(a, f);
            visit(b, f);
        }
        ExprKind::Split(a, b) => {
            visit(a, f);
            if let Some(b) = b {
                visit(b, f);
            }
        }
        ExprKind::Filter(e, _, args) => {
            visit(e, f);
            args.iter().for_each(|a| visit(a, f));
        }
        ExprKind::Compare(first, rest) => {
            visit(first, f);
            rest.iter().for_each(|(_, e)| visit(e, f));
        }
    }
}
