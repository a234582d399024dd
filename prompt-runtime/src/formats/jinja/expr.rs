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
pub(crate) const MAX_DEPTH: usize = 64;

/// An expression and the bytes of the source it was written as.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Expr {
    pub kind: ExprKind,
    pub span: Range<usize>,
    /// How many expressions deep the tree is, 1 for a leaf; at most [`MAX_DEPTH`].
    pub(crate) depth: usize,
}

impl Expr {
    /// An expression the reader makes (no source of its own: `span` is where it stands).
    pub(crate) fn made(kind: ExprKind, span: Range<usize>) -> Expr {
        let depth = kind.operand_depth() + 1;
        Expr { kind, span, depth }
    }

    /// What a `{% filter %}` or `{% set name %}` block's filters start from: an empty text
    /// at `at`, which the body's text stands in for.
    pub(crate) fn placeholder(at: Range<usize>) -> Expr {
        Expr::leaf(ExprKind::Literal(Value::String(String::new())), at)
    }

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
            ExprKind::List(items) | ExprKind::Tuple(items) => {
                deepest(&mut items.iter()).unwrap_or(0)
            }
            ExprKind::Dict(entries) => {
                deepest(&mut entries.iter().flat_map(|(k, v)| [k, v])).unwrap_or(0)
            }
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
            ExprKind::Op(_, operands) => deepest(&mut operands.iter()).unwrap_or(0),
            ExprKind::MacroCall(call) => {
                deepest(&mut call.args.iter().chain(call.named.iter().map(|(.., e)| e)))
                    .unwrap_or(0)
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ExprKind {
    /// A string, number, boolean or `none`.
    Literal(Value),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `(a, b)`, `(a,)`, `()`: a Python tuple.
    Tuple(Vec<Expr>),
    /// `name(args)` of a macro the template defined before: only while the template is
    /// read. The reader puts the call's text in a name of its own before the tag and reads
    /// that name here, so nothing after the reader sees one.
    MacroCall(Box<MacroCall>),
    /// `{k: v, …}`: each key with its value, in the order written.
    Dict(Vec<(Expr, Expr)>),
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
    /// `m.items()`: the entries as `(key, value)` tuples.
    Items(Box<Expr>),
    /// Arithmetic, slices, methods, `loop.cycle`, `namespace()`, `range()` and the tests
    /// that take an argument or came with them: an operation on its operands, evaluated
    /// in order (see [`Op`]).
    Op(Op, Vec<Expr>),
}

/// What [`ExprKind::Op`] does with its operands.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Op {
    /// Two operands.
    Binary(BinOp),
    /// `-x`.
    Neg,
    /// `+x`.
    Pos,
    /// `x[start:stop:step]`: four operands, an omitted part a `none` literal.
    Slice,
    /// `x.method(args)`: the receiver, then the arguments.
    Method(Method),
    /// `loop.cycle(a, b, …)`.
    Cycle,
    /// `namespace(a=…, b=…)`: the values, named in order.
    Namespace(Vec<String>),
    /// `range(stop)`, `range(start, stop[, step])`.
    Range,
    /// `x is [not] test [arg]`: the value, then the argument if any.
    Is(Test, bool),
    /// `a if condition else b` (`else` omitted: an undefined value): the condition, `a`,
    /// then `b` when written.
    IfElse,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    /// `~`: both sides as strings, joined.
    Concat,
}

impl BinOp {
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::Concat => "~",
        }
    }
}

/// The methods of strings and dicts a template may call, with how many arguments each
/// takes (fewest, most).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    Values,
    Keys,
    Get,
    Lower,
    Upper,
    Strip,
    Lstrip,
    Rstrip,
    Title,
    Capitalize,
    Replace,
    Endswith,
    Join,
    Count,
    Find,
    /// `s.split(sep, maxsplit)`: with a most count of splits (`s.split(sep)` and
    /// `s.split()` are [`ExprKind::Split`]).
    SplitMax,
    Rsplit,
    Ljust,
    Rjust,
    Center,
    Zfill,
    Splitlines,
    Removeprefix,
    Removesuffix,
    Partition,
    Rpartition,
    Rfind,
    Index,
    Rindex,
    Isspace,
    Islower,
    Isupper,
}

impl Method {
    pub(crate) const ALL: [(&'static str, Method, usize, usize); 32] = [
        ("values", Method::Values, 0, 0),
        ("keys", Method::Keys, 0, 0),
        ("get", Method::Get, 1, 2),
        ("lower", Method::Lower, 0, 0),
        ("upper", Method::Upper, 0, 0),
        ("strip", Method::Strip, 0, 1),
        ("lstrip", Method::Lstrip, 0, 1),
        ("rstrip", Method::Rstrip, 0, 1),
        ("title", Method::Title, 0, 0),
        ("capitalize", Method::Capitalize, 0, 0),
        ("replace", Method::Replace, 2, 3),
        ("endswith", Method::Endswith, 1, 1),
        ("join", Method::Join, 1, 1),
        ("count", Method::Count, 1, 1),
        ("find", Method::Find, 1, 1),
        ("split", Method::SplitMax, 2, 2),
        ("rsplit", Method::Rsplit, 0, 2),
        ("ljust", Method::Ljust, 1, 2),
        ("rjust", Method::Rjust, 1, 2),
        ("center", Method::Center, 1, 2),
        ("zfill", Method::Zfill, 1, 1),
        ("splitlines", Method::Splitlines, 0, 1),
        ("removeprefix", Method::Removeprefix, 1, 1),
        ("removesuffix", Method::Removesuffix, 1, 1),
        ("partition", Method::Partition, 1, 1),
        ("rpartition", Method::Rpartition, 1, 1),
        ("rfind", Method::Rfind, 1, 1),
        ("index", Method::Index, 1, 1),
        ("rindex", Method::Rindex, 1, 1),
        ("isspace", Method::Isspace, 0, 0),
        ("islower", Method::Islower, 0, 0),
        ("isupper", Method::Isupper, 0, 0),
    ];

    pub(crate) fn name(self) -> &'static str {
        Method::ALL
            .iter()
            .find(|m| m.1 == self)
            .map_or("?", |m| m.0)
    }
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
    Previtem,
    Nextitem,
    Depth,
    Depth0,
}

impl LoopAttr {
    const NAMES: [(&'static str, LoopAttr); 11] = [
        ("index", LoopAttr::Index),
        ("index0", LoopAttr::Index0),
        ("first", LoopAttr::First),
        ("last", LoopAttr::Last),
        ("length", LoopAttr::Length),
        ("revindex", LoopAttr::Revindex),
        ("revindex0", LoopAttr::Revindex0),
        ("previtem", LoopAttr::Previtem),
        ("nextitem", LoopAttr::Nextitem),
        ("depth", LoopAttr::Depth),
        ("depth0", LoopAttr::Depth0),
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
    List,
    Int,
    Float,
    String,
    Abs,
    Round,
    Title,
    Capitalize,
    Replace,
    First,
    Last,
    Min,
    Max,
    Sum,
    Sort,
    Unique,
    Reverse,
    /// `map('filter', args…)`.
    Map,
    /// `map(attribute='a', default=…)`.
    MapAttr,
    Select,
    Reject,
    Selectattr,
    Rejectattr,
    Dictsort,
    Items,
    Indent,
    Truncate,
    Wordcount,
    Wordwrap,
    Batch,
    Center,
    /// `escape` (`e`), `forceescape`: HTML's five special characters as entities.
    Escape,
    /// `striptags`: tags and comments removed, whitespace made single spaces, entities
    /// read back.
    Striptags,
    /// `urlencode`: text quoted for a URL, a dict or pairs as a query string.
    Urlencode,
    /// `filesizeformat(binary)`: a number of bytes as `13.0 kB`.
    Filesizeformat,
    /// `slice(slices, fill_with)`: the items in that many columns.
    Slice,
    /// `xmlattr(autospace)`: a dict as XML attributes.
    Xmlattr,
    /// `pprint`: Python's `pprint.pformat`.
    Pprint,
    /// `groupby(attribute, default, case_sensitive)`: `(grouper, list)` pairs.
    Groupby,
    /// `format(args…)`: Python's `text % args`.
    Format,
    /// `format(name=value, …)`: Python's `text % kwargs`, the names given as one dict.
    FormatNamed,
}

/// A macro's call inside an expression, as written: see [`ExprKind::MacroCall`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MacroCall {
    pub name: String,
    pub name_span: Range<usize>,
    pub args: Vec<Expr>,
    pub named: Vec<(String, Range<usize>, Expr)>,
}

/// A parameter of a filter: its name, and the value it takes when it is not given
/// (`None`: it must be given).
pub(crate) type Param = (&'static str, Option<Def>);

/// A parameter's default, as a literal.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Def {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'static str),
}

impl Def {
    fn value(self) -> Value {
        match self {
            Def::None => Value::Null,
            Def::Bool(b) => Value::Bool(b),
            Def::Int(i) => Value::from(i),
            Def::Float(f) => Value::from(f),
            Def::Str(s) => Value::from(s),
        }
    }
}

/// Filters that take any number of positional arguments after their named ones (a test's
/// or a filter's name and its arguments).
const VARIADIC: [Filter; 6] = [
    Filter::Format,
    Filter::Map,
    Filter::Select,
    Filter::Reject,
    Filter::Selectattr,
    Filter::Rejectattr,
];

impl Filter {
    /// Each filter's name and parameters, in Jinja2's order.
    pub(crate) const ALL: [(&'static str, Filter, &'static [Param]); 51] = [
        (
            "default",
            Filter::Default,
            &[
                ("default_value", Some(Def::Str(""))),
                ("boolean", Some(Def::Bool(false))),
            ],
        ),
        (
            "d",
            Filter::Default,
            &[
                ("default_value", Some(Def::Str(""))),
                ("boolean", Some(Def::Bool(false))),
            ],
        ),
        (
            "join",
            Filter::Join,
            &[("d", Some(Def::Str(""))), ("attribute", Some(Def::None))],
        ),
        ("trim", Filter::Trim, &[("chars", Some(Def::None))]),
        ("upper", Filter::Upper, &[]),
        ("lower", Filter::Lower, &[]),
        ("length", Filter::Length, &[]),
        ("count", Filter::Length, &[]),
        ("tojson", Filter::Tojson, &[("indent", Some(Def::None))]),
        ("list", Filter::List, &[]),
        (
            "int",
            Filter::Int,
            &[("default", Some(Def::Int(0))), ("base", Some(Def::Int(10)))],
        ),
        (
            "float",
            Filter::Float,
            &[("default", Some(Def::Float(0.0)))],
        ),
        ("string", Filter::String, &[]),
        ("abs", Filter::Abs, &[]),
        (
            "round",
            Filter::Round,
            &[
                ("precision", Some(Def::Int(0))),
                ("method", Some(Def::Str("common"))),
            ],
        ),
        ("title", Filter::Title, &[]),
        ("capitalize", Filter::Capitalize, &[]),
        (
            "replace",
            Filter::Replace,
            &[("old", None), ("new", None), ("count", Some(Def::None))],
        ),
        ("first", Filter::First, &[]),
        ("last", Filter::Last, &[]),
        (
            "min",
            Filter::Min,
            &[
                ("case_sensitive", Some(Def::Bool(false))),
                ("attribute", Some(Def::None)),
            ],
        ),
        (
            "max",
            Filter::Max,
            &[
                ("case_sensitive", Some(Def::Bool(false))),
                ("attribute", Some(Def::None)),
            ],
        ),
        (
            "sum",
            Filter::Sum,
            &[("attribute", Some(Def::None)), ("start", Some(Def::Int(0)))],
        ),
        (
            "sort",
            Filter::Sort,
            &[
                ("reverse", Some(Def::Bool(false))),
                ("case_sensitive", Some(Def::Bool(false))),
                ("attribute", Some(Def::None)),
            ],
        ),
        (
            "unique",
            Filter::Unique,
            &[
                ("case_sensitive", Some(Def::Bool(false))),
                ("attribute", Some(Def::None)),
            ],
        ),
        ("reverse", Filter::Reverse, &[]),
        ("map", Filter::Map, &[("filter", None)]),
        ("select", Filter::Select, &[("test", Some(Def::None))]),
        ("reject", Filter::Reject, &[("test", Some(Def::None))]),
        (
            "selectattr",
            Filter::Selectattr,
            &[("attribute", None), ("test", Some(Def::None))],
        ),
        (
            "rejectattr",
            Filter::Rejectattr,
            &[("attribute", None), ("test", Some(Def::None))],
        ),
        (
            "dictsort",
            Filter::Dictsort,
            &[
                ("case_sensitive", Some(Def::Bool(false))),
                ("by", Some(Def::Str("key"))),
                ("reverse", Some(Def::Bool(false))),
            ],
        ),
        ("items", Filter::Items, &[]),
        (
            "indent",
            Filter::Indent,
            &[
                ("width", Some(Def::Int(4))),
                ("first", Some(Def::Bool(false))),
                ("blank", Some(Def::Bool(false))),
            ],
        ),
        (
            "truncate",
            Filter::Truncate,
            &[
                ("length", Some(Def::Int(255))),
                ("killwords", Some(Def::Bool(false))),
                ("end", Some(Def::Str("..."))),
                ("leeway", Some(Def::None)),
            ],
        ),
        ("wordcount", Filter::Wordcount, &[]),
        (
            "wordwrap",
            Filter::Wordwrap,
            &[
                ("width", Some(Def::Int(79))),
                ("break_long_words", Some(Def::Bool(true))),
                ("wrapstring", Some(Def::None)),
                ("break_on_hyphens", Some(Def::Bool(true))),
            ],
        ),
        (
            "batch",
            Filter::Batch,
            &[("linecount", None), ("fill_with", Some(Def::None))],
        ),
        ("center", Filter::Center, &[("width", Some(Def::Int(80)))]),
        ("safe", Filter::String, &[]),
        ("escape", Filter::Escape, &[]),
        ("e", Filter::Escape, &[]),
        ("forceescape", Filter::Escape, &[]),
        ("striptags", Filter::Striptags, &[]),
        ("urlencode", Filter::Urlencode, &[]),
        (
            "filesizeformat",
            Filter::Filesizeformat,
            &[("binary", Some(Def::Bool(false)))],
        ),
        (
            "slice",
            Filter::Slice,
            &[("slices", None), ("fill_with", Some(Def::None))],
        ),
        (
            "xmlattr",
            Filter::Xmlattr,
            &[("autospace", Some(Def::Bool(true)))],
        ),
        ("pprint", Filter::Pprint, &[]),
        ("format", Filter::Format, &[]),
        (
            "groupby",
            Filter::Groupby,
            &[
                ("attribute", None),
                ("default", Some(Def::None)),
                ("case_sensitive", Some(Def::Bool(false))),
            ],
        ),
    ];

    /// The name it is written with (the first, for one with aliases).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Filter::MapAttr => "map",
            Filter::FormatNamed => "format",
            _ => Filter::ALL
                .iter()
                .find(|f| f.1 == self)
                .map_or("map", |f| f.0),
        }
    }

    /// Whether the run-time renderer has it but the compiled render of the derive does
    /// not (the ones promptic had first are compiled).
    pub(crate) fn is_new(self) -> bool {
        !matches!(
            self,
            Filter::Default
                | Filter::Join
                | Filter::Trim
                | Filter::Upper
                | Filter::Lower
                | Filter::Length
                | Filter::Tojson
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Test {
    Defined,
    Undefined,
    None,
    Number,
    String,
    Mapping,
    Sequence,
    Iterable,
    Even,
    Odd,
    Divisibleby,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    True,
    False,
    Boolean,
    Integer,
    Float,
    Lower,
    Upper,
    /// `callable`: a value from data is never one (a macro's name is, which the reader
    /// answers itself).
    Callable,
    /// `escaped`: marked safe HTML, which no value of promptic is.
    Escaped,
    /// `filter`: the name of one of Jinja2's filters.
    Filter,
    /// `test`: the name of one of Jinja2's tests.
    Predicate,
}

/// The filters Jinja2 3.1 has, for `is filter` (promptic refuses a few of them).
pub(crate) const JINJA2_FILTERS: [&str; 54] = [
    "abs",
    "attr",
    "batch",
    "capitalize",
    "center",
    "count",
    "d",
    "default",
    "dictsort",
    "e",
    "escape",
    "filesizeformat",
    "first",
    "float",
    "forceescape",
    "format",
    "groupby",
    "indent",
    "int",
    "items",
    "join",
    "last",
    "length",
    "list",
    "lower",
    "map",
    "max",
    "min",
    "pprint",
    "random",
    "reject",
    "rejectattr",
    "replace",
    "reverse",
    "round",
    "safe",
    "select",
    "selectattr",
    "slice",
    "sort",
    "string",
    "striptags",
    "sum",
    "title",
    "tojson",
    "trim",
    "truncate",
    "unique",
    "upper",
    "urlencode",
    "urlize",
    "wordcount",
    "wordwrap",
    "xmlattr",
];

/// The tests Jinja2 3.1 has, for `is test`.
pub(crate) const JINJA2_TESTS: [&str; 39] = [
    "!=",
    "<",
    "<=",
    "==",
    ">",
    ">=",
    "boolean",
    "callable",
    "defined",
    "divisibleby",
    "eq",
    "equalto",
    "escaped",
    "even",
    "false",
    "filter",
    "float",
    "ge",
    "greaterthan",
    "gt",
    "in",
    "integer",
    "iterable",
    "le",
    "lessthan",
    "lower",
    "lt",
    "mapping",
    "ne",
    "none",
    "number",
    "odd",
    "sameas",
    "sequence",
    "string",
    "test",
    "true",
    "undefined",
    "upper",
];

impl Test {
    /// Each test's names and whether it takes an argument.
    pub(crate) const ALL: [(&'static str, Test, bool); 38] = [
        ("defined", Test::Defined, false),
        ("undefined", Test::Undefined, false),
        ("none", Test::None, false),
        ("number", Test::Number, false),
        ("string", Test::String, false),
        ("mapping", Test::Mapping, false),
        ("sequence", Test::Sequence, false),
        ("iterable", Test::Iterable, false),
        ("even", Test::Even, false),
        ("odd", Test::Odd, false),
        ("divisibleby", Test::Divisibleby, true),
        ("eq", Test::Eq, true),
        ("equalto", Test::Eq, true),
        ("==", Test::Eq, true),
        ("ne", Test::Ne, true),
        ("!=", Test::Ne, true),
        ("lt", Test::Lt, true),
        ("lessthan", Test::Lt, true),
        ("<", Test::Lt, true),
        ("le", Test::Le, true),
        ("<=", Test::Le, true),
        ("gt", Test::Gt, true),
        ("greaterthan", Test::Gt, true),
        (">", Test::Gt, true),
        ("ge", Test::Ge, true),
        (">=", Test::Ge, true),
        ("in", Test::In, true),
        ("true", Test::True, false),
        ("false", Test::False, false),
        ("boolean", Test::Boolean, false),
        ("integer", Test::Integer, false),
        ("float", Test::Float, false),
        ("lower", Test::Lower, false),
        ("upper", Test::Upper, false),
        ("callable", Test::Callable, false),
        ("escaped", Test::Escaped, false),
        ("filter", Test::Filter, false),
        ("test", Test::Predicate, false),
    ];

    /// The test of a name, with whether it takes an argument.
    pub(crate) fn named(name: &str) -> Option<(Test, bool)> {
        Test::ALL
            .iter()
            .find(|t| t.0 == name)
            .map(|&(_, test, arg)| (test, arg))
    }
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
    Int(super::data::Number),
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
        Tok::Int(super::data::Number::from_digits(&written)?)
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
    /// The macros the template defined before this expression: a call of one is a
    /// [`ExprKind::MacroCall`].
    pub macros: Vec<String>,
    /// The macros whose bodies enclose this expression, innermost last, and every macro
    /// the template defines: for the message on a call of one that is not callable here.
    pub defining: Vec<String>,
    pub all_macros: Vec<String>,
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
            macros: Vec::new(),
            defining: Vec::new(),
            all_macros: Vec::new(),
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

    /// Whether the tokens left are a name and a `(`: a call of a macro or function.
    pub(crate) fn at_call(&self) -> Option<&str> {
        match (self.tokens.get(self.pos), self.tokens.get(self.pos + 1)) {
            (Some((Tok::Name(name), _)), Some((Tok::Op("("), _))) => Some(name),
            _ => None,
        }
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
        let message = format!("unexpected `{rest}` {what}");
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

    /// An expression: `a if cond else b` and below.
    pub(crate) fn expr(&mut self) -> Parsed<Expr> {
        let here = self.here();
        self.deeper(&here)?;
        let mut value = self.or()?;
        while self.eat_name("if") {
            let condition = self.or()?;
            let mut operands = vec![condition, value];
            if self.eat_name("else") {
                operands.push(self.expr()?);
            }
            let start = operands[1].span.start;
            let end = operands.last().map_or(start, |e| e.span.end);
            value = self.node(ExprKind::Op(Op::IfElse, operands), start..end)?;
        }
        self.depth -= 1;
        Ok(value)
    }

    /// What a `for` loops over: an expression without an inline `if`, which would be the
    /// loop's filter.
    pub(crate) fn iterable(&mut self) -> Parsed<Expr> {
        let here = self.here();
        self.deeper(&here)?;
        let value = self.or()?;
        self.depth -= 1;
        Ok(value)
    }

    /// `or` and below.
    fn or(&mut self) -> Parsed<Expr> {
        let mut left = self.and()?;
        while self.eat_name("or") {
            let right = self.and()?;
            left = self.join(left, right, ExprKind::Or)?;
        }
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
        let left = self.sum()?;
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
            chain.push((op, self.sum()?));
        }
        if chain.is_empty() {
            return Ok(left);
        }
        let span = left.span.start..chain.last().map_or(left.span.end, |(_, e)| e.span.end);
        self.node(ExprKind::Compare(Box::new(left), chain), span)
    }

    /// `left op right` for each of `ops` in a row, left to right, each side read by
    /// `next`: Jinja2's levels, `+ -` over `~` over `* / // %` over `**` (which Jinja2
    /// also reads left to right: `2 ** 3 ** 2` is 64).
    fn binary(
        &mut self,
        ops: &[(&str, BinOp)],
        next: fn(&mut Self) -> Parsed<Expr>,
    ) -> Parsed<Expr> {
        let mut left = next(self)?;
        while let Some(&(_, op)) = ops.iter().find(|(symbol, _)| self.is_op(symbol)) {
            self.pos += 1;
            let right = next(self)?;
            let span = left.span.start..right.span.end;
            left = self.node(ExprKind::Op(Op::Binary(op), vec![left, right]), span)?;
        }
        Ok(left)
    }

    fn sum(&mut self) -> Parsed<Expr> {
        self.binary(&[("+", BinOp::Add), ("-", BinOp::Sub)], Self::concat)
    }

    fn concat(&mut self) -> Parsed<Expr> {
        self.binary(&[("~", BinOp::Concat)], Self::product)
    }

    fn product(&mut self) -> Parsed<Expr> {
        self.binary(
            &[
                ("*", BinOp::Mul),
                ("//", BinOp::FloorDiv),
                ("/", BinOp::Div),
                ("%", BinOp::Mod),
            ],
            Self::power,
        )
    }

    fn power(&mut self) -> Parsed<Expr> {
        self.binary(&[("**", BinOp::Pow)], |p| p.signed(true))
    }

    /// `-x` and `+x`, then filters and tests (which apply to the signed value, as in
    /// Jinja2: `-x | abs` is `abs(-x)`) when `with_filters`.
    fn signed(&mut self, with_filters: bool) -> Parsed<Expr> {
        let here = self.here();
        let sign = if self.is_op("-") {
            Some(Op::Neg)
        } else if self.is_op("+") {
            Some(Op::Pos)
        } else {
            None
        };
        let value = match sign {
            Some(op) => {
                self.pos += 1;
                self.deeper(&here)?;
                let inner = self.signed(false)?;
                self.depth -= 1;
                let span = here.start..inner.span.end;
                match (&op, &inner.kind) {
                    // A literal number with its sign is the negative literal.
                    (Op::Neg, ExprKind::Literal(Value::Number(n))) => {
                        Expr::leaf(ExprKind::Literal(negate(n)), span)
                    }
                    _ => self.node(ExprKind::Op(op, vec![inner]), span)?,
                }
            }
            None => self.postfix()?,
        };
        if with_filters {
            self.filters(value)
        } else {
            Ok(value)
        }
    }

    /// Filters and tests after a value.
    fn filters(&mut self, mut value: Expr) -> Parsed<Expr> {
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
        let Some(&(_, filter, params)) = Filter::ALL.iter().find(|f| f.0 == name) else {
            let known = Filter::ALL.iter().map(|f| f.0);
            let mut error = self.error(span, format!("the filter `{name}` is not supported"));
            error = match crate::suggest::closest(&name, known) {
                Some(close) => error.with_help(format!("did you mean `{close}`?")),
                None => error.with_note(supported_filters()),
            };
            return Err(error);
        };
        let (args, named) = if self.is_op("(") {
            self.call_args()?
        } else {
            (Vec::new(), Vec::new())
        };
        let end = self.tokens[self.pos - 1].1.end;
        let whole = span.start..end;
        // `format(name=…)` formats with a mapping of the names given (Jinja2 refuses
        // names and positions together, when it renders).
        if filter == Filter::Format && !named.is_empty() {
            if let Some(first) = args.first() {
                return Err(self.error(
                    first.span.start..whole.end,
                    "`format` takes its arguments by position or by name, not both",
                ));
            }
            let mapping = self.node(ExprKind::Dict(dict_entries(named)), whole.clone())?;
            let span = value.span.start..end;
            return self.node(
                ExprKind::Filter(Box::new(value), Filter::FormatNamed, vec![mapping]),
                span,
            );
        }
        // `map(attribute=…)` maps items to an attribute; `map('name', …)` through a filter.
        let (filter, params): (Filter, &[Param]) =
            if filter == Filter::Map && named.iter().any(|(n, ..)| n == "attribute") {
                (
                    Filter::MapAttr,
                    &[("attribute", None), ("default", Some(Def::None))],
                )
            } else {
                (filter, params)
            };
        let args = self.bind_args(&name, filter, params, args, named, &whole)?;
        let span = value.span.start..end;
        self.node(ExprKind::Filter(Box::new(value), filter, args), span)
    }

    /// The arguments of filter `name` by position: each named one put at its parameter's
    /// place, and the parameters before it that were not given filled with their
    /// defaults. A filter called without names keeps what was written.
    fn bind_args(
        &self,
        name: &str,
        filter: Filter,
        params: &[Param],
        args: Vec<Expr>,
        named: Vec<(String, Range<usize>, Expr)>,
        whole: &Range<usize>,
    ) -> Parsed<Vec<Expr>> {
        let variadic = VARIADIC.contains(&filter);
        if args.len() > params.len() && !variadic {
            let extra = &args[params.len()];
            return Err(self.error(
                extra.span.start..whole.end,
                format!(
                    "`{name}` takes at most {} argument{}",
                    params.len(),
                    if params.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        if variadic && args.len() > 8 {
            return Err(self.error(whole.clone(), format!("too many arguments for `{name}`")));
        }
        if named.is_empty() {
            if let Some((missing, _)) = params
                .iter()
                .take_while(|(_, default)| default.is_none())
                .nth(args.len())
            {
                return Err(self.error(
                    whole.clone(),
                    format!("`{name}` needs its argument `{missing}`"),
                ));
            }
            return Ok(args);
        }
        if variadic && !args.is_empty() {
            let (_, key_span, _) = &named[0];
            return Err(self.error(
                key_span.clone(),
                format!("pass `{}` by position after the others", &named[0].0),
            ));
        }
        // Each argument at its parameter's place; the places before the last one given
        // take their defaults.
        let mut slots: Vec<Option<Expr>> = args.into_iter().map(Some).collect();
        slots.resize(params.len().max(slots.len()), None);
        for (key, key_span, value) in named {
            let Some(at) = params.iter().position(|(p, _)| *p == key) else {
                let known: Vec<&str> = params.iter().map(|p| p.0).collect();
                let mut error = self.error(key_span, format!("`{name}` has no argument `{key}`"));
                error = match crate::suggest::closest(&key, known.iter().copied()) {
                    Some(close) => error.with_help(format!("did you mean `{close}`?")),
                    None if known.is_empty() => error.with_note(format!("`{name}` takes none")),
                    None => error.with_note(format!("its arguments: {}", known.join(", "))),
                };
                return Err(error);
            };
            if slots[at].is_some() {
                return Err(self.error(
                    key_span,
                    format!("`{key}` is given twice: by position and by name"),
                ));
            }
            slots[at] = Some(value);
        }
        let given = slots.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
        slots.truncate(given);
        let mut args = Vec::with_capacity(given);
        for (slot, (param, default)) in slots.into_iter().zip(params) {
            match (slot, default) {
                (Some(value), _) => args.push(value),
                (None, Some(default)) => args.push(Expr::leaf(
                    ExprKind::Literal(default.value()),
                    whole.clone(),
                )),
                (None, None) => {
                    return Err(self.error(
                        whole.clone(),
                        format!("`{name}` needs its argument `{param}`"),
                    ));
                }
            }
        }
        if let Some((missing, _)) = params
            .iter()
            .take_while(|(_, default)| default.is_none())
            .nth(args.len())
        {
            return Err(self.error(
                whole.clone(),
                format!("`{name}` needs its argument `{missing}`"),
            ));
        }
        Ok(args)
    }

    fn test(&mut self, value: Expr) -> Parsed<Expr> {
        let negated = self.eat_name("not");
        let here = self.here();
        let name = match self.tokens.get(self.pos).cloned() {
            Some((Tok::Name(n), span)) => {
                self.pos += 1;
                (n, span)
            }
            _ => return Err(self.error(here, "expected a test name after `is`")),
        };
        let (name, span) = name;
        if name == "sameas" {
            return self.sameas(value, negated, span);
        }
        let Some((test, takes_arg)) = Test::named(&name) else {
            let known = Test::ALL
                .iter()
                .map(|t| t.0)
                .filter(|n| n.starts_with(char::is_alphabetic));
            let mut error = self.error(span, format!("the test `is {name}` is not supported"));
            error = match crate::suggest::closest(&name, known) {
                Some(close) => error.with_help(format!("did you mean `is {close}`?")),
                None => error.with_note(supported_tests()),
            };
            return Err(error);
        };
        if matches!(
            test,
            Test::Defined | Test::Undefined | Test::None | Test::Callable
        ) {
            let whole = value.span.start..span.end;
            // A macro the template defined before is a defined name, callable, and no
            // `none`.
            if let ExprKind::Name(name) = &value.kind
                && self.macros.contains(name)
            {
                let holds = matches!(test, Test::Defined | Test::Callable) != negated;
                return Ok(Expr::leaf(ExprKind::Literal(Value::Bool(holds)), whole));
            }
        }
        if matches!(test, Test::Defined | Test::Undefined | Test::None) {
            let whole = value.span.start..span.end;
            return self.node(ExprKind::Test(Box::new(value), test, negated), whole);
        }
        let mut operands = vec![value];
        // The argument: in parentheses, or one value written right after the name.
        if self.is_op("(") {
            let (args, named) = self.call_args()?;
            if let Some((_, key_span, _)) = named.first() {
                return Err(self.error(key_span.clone(), "a test takes its argument by position"));
            }
            operands.extend(args);
        } else if takes_arg && self.starts_operand() {
            operands.push(self.signed(false)?);
        }
        let end = self.tokens[self.pos - 1].1.end;
        let given = operands.len() - 1;
        if given != usize::from(takes_arg) {
            return Err(self.error(
                span.start..end,
                if takes_arg {
                    format!("`is {name}` takes one argument")
                } else {
                    format!("`is {name}` takes no argument")
                },
            ));
        }
        let whole = operands[0].span.start..end;
        self.node(ExprKind::Op(Op::Is(test, negated), operands), whole)
    }

    /// `is sameas none`, `is sameas true`, `is sameas false`: Python's `is`, which for these
    /// is `is none`, `is true` and `is false`. Another argument is refused: which other
    /// values are the same object in Python is up to the interpreter.
    #[inline(never)]
    fn sameas(&mut self, value: Expr, negated: bool, span: Range<usize>) -> Parsed<Expr> {
        let parenthesized = self.eat_op("(");
        let here = self.here();
        let test = match self.tokens.get(self.pos) {
            Some((Tok::Name(n), _)) if matches!(n.as_str(), "none" | "None") => Test::None,
            Some((Tok::Name(n), _)) if matches!(n.as_str(), "true" | "True") => Test::True,
            Some((Tok::Name(n), _)) if matches!(n.as_str(), "false" | "False") => Test::False,
            _ => {
                return Err(self
                    .error(here, "`is sameas` compares with `none`, `true` or `false`")
                    .with_help("compare other values with `==`")
                    .with_note(
                        "which other values are the same object is up to Python, not the language",
                    ));
            }
        };
        self.pos += 1;
        if parenthesized {
            self.expect_op(")", "to close `sameas(…)`")?;
        }
        let end = self.tokens[self.pos - 1].1.end;
        let whole = value.span.start..end.max(span.end);
        if test == Test::None {
            return self.node(ExprKind::Test(Box::new(value), test, negated), whole);
        }
        self.node(ExprKind::Op(Op::Is(test, negated), vec![value]), whole)
    }

    /// Whether the next token can start a test's argument written without parentheses.
    fn starts_operand(&self) -> bool {
        match self.peek() {
            Some(Tok::Name(n)) => !matches!(
                n.as_str(),
                "and" | "or" | "else" | "if" | "is" | "in" | "not"
            ),
            Some(Tok::Str(_) | Tok::Int(_) | Tok::Float(_)) => true,
            Some(Tok::Op(op)) => matches!(*op, "[" | "-" | "+" | "("),
            None => false,
        }
    }

    /// `( a, b, name=c )` after a filter, test or method: the positional arguments and
    /// the named ones, each with the span of its name.
    #[allow(clippy::type_complexity)]
    pub(crate) fn call_args(&mut self) -> Parsed<(Vec<Expr>, Vec<(String, Range<usize>, Expr)>)> {
        let open = self.expect_op("(", "")?;
        let mut args = Vec::new();
        let mut named: Vec<(String, Range<usize>, Expr)> = Vec::new();
        let mut first = true;
        while !self.eat_op(")") {
            if !first {
                self.expect_op(",", "between arguments")?;
                if self.eat_op(")") {
                    break;
                }
            }
            first = false;
            if self.at_end() {
                return Err(self.error(open, "this `(` is never closed"));
            }
            if let (Some((Tok::Name(key), key_span)), Some((Tok::Op("="), _))) =
                (self.tokens.get(self.pos), self.tokens.get(self.pos + 1))
            {
                let (key, key_span) = (key.clone(), key_span.clone());
                self.pos += 2;
                if named.iter().any(|(k, ..)| *k == key) {
                    return Err(self.error(key_span, format!("`{key}` is given twice")));
                }
                let value = self.expr()?;
                named.push((key, key_span, value));
                continue;
            }
            if let Some((_, key_span, _)) = named.first() {
                let here = self.here();
                return Err(self
                    .error(here, "an argument by position after one by name")
                    .with_note(format!(
                        "`{}` is named before it",
                        &self.source.text()[key_span.clone()]
                    )));
            }
            args.push(self.expr()?);
        }
        Ok((args, named))
    }

    /// `( a, b )` after a method: positional arguments only.
    fn args(&mut self) -> Parsed<Vec<Expr>> {
        let (args, named) = self.call_args()?;
        if let Some((_, key_span, _)) = named.first() {
            return Err(self.error(
                key_span.clone(),
                "keyword arguments are not supported here; pass it by position",
            ));
        }
        Ok(args)
    }

    fn postfix(&mut self) -> Parsed<Expr> {
        let mut value = self.primary()?;
        loop {
            if self.eat_op(".") {
                let here = self.here();
                let (attr, span) = match self.tokens.get(self.pos).cloned() {
                    Some((Tok::Name(n), span)) => {
                        self.pos += 1;
                        (n, span)
                    }
                    // `xs.0` reads item 0, as Jinja2 reads it.
                    Some((Tok::Int(i), span)) => {
                        self.pos += 1;
                        let whole = value.span.start..span.end;
                        let key = Expr::leaf(ExprKind::Literal(Value::Number(i)), span);
                        value = self.node(ExprKind::Item(Box::new(value), Box::new(key)), whole)?;
                        continue;
                    }
                    _ => return Err(self.error(here, "expected a name after `.`")),
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
                value = self.subscript(value, &open)?;
                self.depth -= 1;
            } else if self.is_op("(") {
                let here = self.here();
                return Err(self.error(
                    value.span.start..here.end,
                    "calling this is not supported: only the methods of strings and dicts, `loop.cycle`, `namespace` and `range`",
                ));
            } else {
                return Ok(value);
            }
        }
    }

    /// `value[key]` or a slice `value[start:stop:step]`, after the `[`.
    fn subscript(&mut self, value: Expr, open: &Range<usize>) -> Parsed<Expr> {
        let none = |at: Range<usize>| Expr::leaf(ExprKind::Literal(Value::Null), at);
        let start = if self.is_op(":") {
            None
        } else {
            Some(self.expr()?)
        };
        if !self.is_op(":") {
            let Some(key) = start else {
                return Err(self.error(open.clone(), "expected an expression"));
            };
            let close = self.expect_op("]", "to close `[`")?;
            let whole = value.span.start..close.end;
            return self.node(ExprKind::Item(Box::new(value), Box::new(key)), whole);
        }
        let colon = self.here();
        self.pos += 1;
        let mut parts = vec![start.unwrap_or_else(|| none(colon.clone()))];
        let stop = if self.is_op(":") || self.is_op("]") {
            none(colon.clone())
        } else {
            self.expr()?
        };
        parts.push(stop);
        let step = if self.eat_op(":") {
            if self.is_op("]") {
                none(colon.clone())
            } else {
                self.expr()?
            }
        } else {
            none(colon)
        };
        parts.push(step);
        let close = self.expect_op("]", "to close `[`")?;
        let whole = value.span.start..close.end;
        let mut operands = vec![value];
        operands.extend(parts);
        self.node(ExprKind::Op(Op::Slice, operands), whole)
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
                            (a, b) if a == b => format!("{a} arguments"),
                            (0, 1) => "at most one argument".to_owned(),
                            (a, b) => format!("{a} to {b} arguments"),
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
            "split" if args.len() < 2 => {
                ExprKind::Split(Box::new(recv), args.into_iter().next().map(Box::new))
            }
            _ => {
                let Some(&(_, method, fewest, most)) = Method::ALL.iter().find(|m| m.0 == name)
                else {
                    let known = Method::ALL
                        .iter()
                        .map(|m| m.0)
                        .chain(["items", "startswith"]);
                    let mut error = self.error(
                        span.start..end,
                        format!("the method `.{name}(…)` is not supported"),
                    );
                    error = match crate::suggest::closest(&name, known) {
                        Some(close) => error.with_help(format!("did you mean `.{close}(…)`?")),
                        None => error.with_note(supported_methods()),
                    };
                    return Err(error);
                };
                arity(fewest, most)?;
                let mut operands = vec![recv];
                operands.extend(args);
                ExprKind::Op(Op::Method(method), operands)
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
            Tok::Int(n) => Ok(literal(Value::Number(n))),
            Tok::Float(f) => Ok(literal(float(f))),
            Tok::Op("(") => {
                self.deeper(&span)?;
                // `()`: the empty tuple.
                if self.eat_op(")") {
                    self.depth -= 1;
                    let end = self.tokens[self.pos - 1].1.end;
                    return self.node(ExprKind::Tuple(Vec::new()), span.start..end);
                }
                let inner = self.expr()?;
                // `(a, b)` and `(a,)`: a tuple, as in Python.
                if self.eat_op(",") {
                    let mut items = vec![inner];
                    while !self.eat_op(")") {
                        if self.at_end() {
                            return Err(self.error(span, "this `(` is never closed"));
                        }
                        items.push(self.expr()?);
                        if !self.is_op(")") {
                            self.expect_op(",", "between tuple items")?;
                        }
                    }
                    self.depth -= 1;
                    let end = self.tokens[self.pos - 1].1.end;
                    return self.node(ExprKind::Tuple(items), span.start..end);
                }
                self.depth -= 1;
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
            Tok::Op("{") => self.dict(span),
            Tok::Op(op) => Err(self.error(span, format!("expected an expression, found `{op}`"))),
            Tok::Name(name) => self.name_expr(name, span),
        }
    }

    /// `{k: v, …}` after its `{`, as Jinja2 reads it: a comma between entries, one more
    /// allowed before the `}`. A key written as a number, a boolean or `none` is refused
    /// here (a dict's keys are strings in promptic's values); one computed is refused when
    /// it renders to anything but a string.
    fn dict(&mut self, open: Range<usize>) -> Parsed<Expr> {
        self.deeper(&open)?;
        let mut entries = Vec::new();
        while !self.eat_op("}") {
            if !entries.is_empty() {
                self.expect_op(",", "between dict entries")?;
                if self.eat_op("}") {
                    break;
                }
            }
            if self.at_end() {
                return Err(self.error(open, "this `{` is never closed"));
            }
            let key = self.expr()?;
            if let ExprKind::Literal(value) = &key.kind
                && !matches!(value, Value::String(_))
            {
                return Err(self
                    .error(
                        key.span.clone(),
                        "a dict literal's keys must be strings here",
                    )
                    .with_note("promptic's dicts are keyed by text: write the key quoted, `'1'`"));
            }
            self.expect_op(":", "after a dict key")?;
            let value = self.expr()?;
            entries.push((key, value));
        }
        self.depth -= 1;
        let end = self.tokens[self.pos - 1].1.end;
        self.node(ExprKind::Dict(entries), open.start..end)
    }

    /// The filters of a `{% filter name(args) | name2 %}` tag, after its keyword: a chain
    /// of [`ExprKind::Filter`] over a placeholder, an empty string literal at `at` (the
    /// keyword), which the block's body text takes the place of when it renders.
    pub(crate) fn filter_chain(&mut self, at: Range<usize>) -> Parsed<Expr> {
        let mut value = Expr::placeholder(at);
        loop {
            value = self.filter(value)?;
            if !self.eat_op("|") {
                return Ok(value);
            }
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
            if attr == "cycle" && self.is_op("(") {
                let args = self.args()?;
                let end = self.tokens[self.pos - 1].1.end;
                if args.is_empty() {
                    return Err(
                        self.error(span.start..end, "`loop.cycle` needs at least one value")
                    );
                }
                return self.node(ExprKind::Op(Op::Cycle, args), span.start..end);
            }
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
        // `lib.name(…)`: a macro of a template imported as `lib`.
        if let Some(call) = self.imported_call(&name, &span) {
            return call;
        }
        if self.is_op("(") {
            let here = self.here();
            match name.as_str() {
                "namespace" => {
                    let (args, named) = self.call_args()?;
                    let end = self.tokens[self.pos - 1].1.end;
                    if let Some(first) = args.first() {
                        return Err(self.error(
                            first.span.clone(),
                            "`namespace` takes its values by name: `namespace(count=0)`",
                        ));
                    }
                    let (names, values) = named.into_iter().map(|(n, _, v)| (n, v)).unzip();
                    return self.node(ExprKind::Op(Op::Namespace(names), values), span.start..end);
                }
                // `dict(a=1, b=x)`: a dict literal with those keys, in that order.
                "dict" if !self.macros.contains(&name) => {
                    let (args, named) = self.call_args()?;
                    let end = self.tokens[self.pos - 1].1.end;
                    if let Some(first) = args.first() {
                        return Err(self
                            .error(
                                first.span.clone(),
                                "`dict` takes its entries by name: `dict(a=1, b=x)`",
                            )
                            .with_help(
                                "merge dicts with a loop and `{% set %}`, or write the keys out",
                            ));
                    }
                    return self.node(ExprKind::Dict(dict_entries(named)), span.start..end);
                }
                "range" => {
                    let args = self.args()?;
                    let end = self.tokens[self.pos - 1].1.end;
                    if !(1..=3).contains(&args.len()) {
                        return Err(
                            self.error(span.start..end, "`range` takes one to three integers")
                        );
                    }
                    return self.node(ExprKind::Op(Op::Range, args), span.start..end);
                }
                _ if self.macros.contains(&name) => {
                    let (args, named) = self.call_args()?;
                    let end = self.tokens[self.pos - 1].1.end;
                    let call = MacroCall {
                        name,
                        name_span: span.clone(),
                        args,
                        named,
                    };
                    return self.node(ExprKind::MacroCall(Box::new(call)), span.start..end);
                }
                _ => {}
            }
            if self.defining.contains(&name) {
                return Err(self
                    .error(
                        span.start..here.end,
                        format!("`{name}` calls itself: a macro that calls itself is not supported"),
                    )
                    .with_help("write out the levels the data has, or render that part in the program and pass it as a value")
                    .with_note("promptic puts a macro's body in place of each call when it reads the template, which a call of itself would do for ever"));
            }
            if self.all_macros.contains(&name) {
                return Err(self
                    .error(
                        span.start..here.end,
                        format!("`{name}` is called before its definition"),
                    )
                    .with_help(format!("move `{{% macro {name}(…) %}}` above the place that calls it"))
                    .with_note("promptic puts a macro's body in place of each call when it reads the template, so a macro is called after it is defined"));
            }
            let mut error = self.error(
                span.start..here.end,
                format!("calling `{name}(…)` is not supported: it is not a macro defined above it in this template"),
            );
            if let Some(close) =
                crate::suggest::closest(&name, self.macros.iter().map(String::as_str))
            {
                error = error.with_help(format!("did you mean `{close}`?"));
            }
            return Err(error.with_note("a template calls the macros it defines or imports before the call, `namespace` and `range`; `caller()` and functions given with the values are not supported"));
        }
        Ok(Expr::leaf(ExprKind::Name(name), span))
    }

    /// `lib.name(…)`, a call of a macro of the template imported as `lib` (`name` is
    /// `lib`): the call, or its error; `None` when it is not one. Out of line: the
    /// expression reader recurses once per level an expression nests.
    #[inline(never)]
    fn imported_call(&mut self, name: &str, span: &Range<usize>) -> Option<Parsed<Expr>> {
        let (Some((Tok::Op("."), _)), Some((Tok::Name(attr), attr_span)), Some((Tok::Op("("), _))) = (
            self.tokens.get(self.pos),
            self.tokens.get(self.pos + 1),
            self.tokens.get(self.pos + 2),
        ) else {
            return None;
        };
        let (attr, attr_span) = (attr.clone(), attr_span.clone());
        let qualified = format!("{name}.{attr}");
        let prefix = format!("{name}.");
        let imported: Vec<&str> = self
            .macros
            .iter()
            .filter_map(|m| m.strip_prefix(&prefix))
            .collect();
        if imported.is_empty() {
            return None;
        }
        if !imported.contains(&attr.as_str()) {
            let mut error = self.error(
                attr_span,
                format!("the template imported as `{name}` defines no macro `{attr}`"),
            );
            if let Some(close) = crate::suggest::closest(&attr, imported.iter().copied()) {
                error = error.with_help(format!("did you mean `{name}.{close}`?"));
            }
            return Some(Err(error));
        }
        let name_span = span.start..attr_span.end;
        self.pos += 2;
        Some((|| {
            let (args, named) = self.call_args()?;
            let end = self.tokens[self.pos - 1].1.end;
            let call = MacroCall {
                name: qualified,
                name_span,
                args,
                named,
            };
            self.node(ExprKind::MacroCall(Box::new(call)), span.start..end)
        })())
    }
}

/// Arguments given by name (`format(who=s)`, `dict(a=1)`) as a dict literal's entries,
/// each key the name as text.
fn dict_entries(named: Vec<(String, Range<usize>, Expr)>) -> Vec<(Expr, Expr)> {
    named
        .into_iter()
        .map(|(key, key_span, value)| {
            (
                Expr::leaf(ExprKind::Literal(Value::String(key)), key_span),
                value,
            )
        })
        .collect()
}

/// A literal number with its sign turned.
fn negate(n: &super::data::Number) -> Value {
    use super::data::Number;
    if n.is_f64() {
        return Value::from(-n.as_f64().unwrap_or(0.0));
    }
    match n.as_i128().and_then(i128::checked_neg) {
        Some(i) => Value::from(i),
        None => Value::Number(Number::from_digits(&format!("-{n}")).unwrap_or_else(|| n.clone())),
    }
}

fn supported_filters() -> String {
    let mut names: Vec<&str> = Filter::ALL.iter().map(|f| f.0).collect();
    names.dedup();
    format!("supported filters: {}", names.join(", "))
}

fn supported_tests() -> String {
    let names: Vec<&str> = Test::ALL
        .iter()
        .map(|t| t.0)
        .filter(|n| n.starts_with(char::is_alphabetic))
        .collect();
    format!("supported tests: {}", names.join(", "))
}

fn supported_methods() -> String {
    let names: Vec<String> = ["items", "startswith", "split"]
        .into_iter()
        .chain(Method::ALL.iter().map(|m| m.0))
        .map(|n| format!(".{n}()"))
        .collect();
    format!("supported methods: {}", names.join(", "))
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

/// A dict view (`.items()`, `.keys()`, `.values()`) where Python would print it or
/// compare it as a view (`dict_items([…])`), which promptic does not model: the whole of
/// an output or a `set`, an item of a list, a side of `~`. Looping over one, filtering it
/// (`| list`, `| join`) and testing membership in one are what templates do.
pub(crate) fn stray_items(expr: &Expr) -> Option<Range<usize>> {
    let is_view = |e: &Expr| {
        matches!(
            e.kind,
            ExprKind::Items(_) | ExprKind::Op(Op::Method(Method::Keys | Method::Values), _)
        )
    };
    if is_view(expr) {
        return Some(expr.span.clone());
    }
    let mut found = None;
    visit(expr, &mut |e| {
        let inside: &[Expr] = match &e.kind {
            ExprKind::List(items) | ExprKind::Tuple(items) => items,
            ExprKind::Op(Op::Binary(BinOp::Concat), operands) => operands,
            ExprKind::Dict(entries) => {
                // A dict prints its values as views too; a view as a key is unhashable.
                if found.is_none() {
                    found = entries
                        .iter()
                        .flat_map(|(k, v)| [k, v])
                        .find(|e| is_view(e))
                        .map(|e| e.span.clone());
                }
                &[]
            }
            _ => &[],
        };
        if found.is_none() {
            found = inside.iter().find(|e| is_view(e)).map(|e| e.span.clone());
        }
    });
    found
}

/// Calls `f` on `expr` and every expression inside it, outermost first.
pub(crate) fn visit<'e>(expr: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    f(expr);
    match &expr.kind {
        ExprKind::Literal(_) | ExprKind::Name(_) | ExprKind::Loop(_) => {}
        ExprKind::List(items) | ExprKind::Tuple(items) => items.iter().for_each(|e| visit(e, f)),
        ExprKind::Dict(entries) => entries.iter().for_each(|(k, v)| {
            visit(k, f);
            visit(v, f);
        }),
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
        ExprKind::Op(_, operands) => operands.iter().for_each(|e| visit(e, f)),
        ExprKind::MacroCall(call) => {
            call.args.iter().for_each(|e| visit(e, f));
            call.named.iter().for_each(|(.., e)| visit(e, f));
        }
    }
}

/// The operands of `expr`, to change in place, in the order they are evaluated.
pub(crate) fn operands_mut(expr: &mut Expr) -> Vec<&mut Expr> {
    match &mut expr.kind {
        ExprKind::Literal(_) | ExprKind::Name(_) | ExprKind::Loop(_) => Vec::new(),
        ExprKind::List(items) | ExprKind::Tuple(items) | ExprKind::Op(_, items) => {
            items.iter_mut().collect()
        }
        ExprKind::Dict(entries) => entries.iter_mut().flat_map(|(k, v)| [k, v]).collect(),
        ExprKind::Attr(e, _) | ExprKind::Not(e) | ExprKind::Items(e) | ExprKind::Test(e, ..) => {
            vec![&mut **e]
        }
        ExprKind::Item(a, b)
        | ExprKind::And(a, b)
        | ExprKind::Or(a, b)
        | ExprKind::StartsWith(a, b) => vec![&mut **a, &mut **b],
        ExprKind::Split(a, b) => std::iter::once(&mut **a).chain(b.as_deref_mut()).collect(),
        ExprKind::Filter(e, _, args) => std::iter::once(&mut **e).chain(args.iter_mut()).collect(),
        ExprKind::Compare(first, rest) => std::iter::once(&mut **first)
            .chain(rest.iter_mut().map(|(_, e)| e))
            .collect(),
        ExprKind::MacroCall(call) => {
            let call = &mut **call;
            call.args
                .iter_mut()
                .chain(call.named.iter_mut().map(|(.., e)| e))
                .collect()
        }
    }
}
