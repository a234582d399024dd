//! The parsed form of a dotprompt body: Handlebars as dotprompt uses it.
//!
//! Every node carries its byte span in the source it was read from, so a later stage (the
//! renderer, the compile-time derive) can point at it. Whitespace control (`~` and the
//! standalone-line rule) is already applied: a [`Node::Text`] holds the text that renders.

use std::ops::Range;

/// A byte range in the prompt or partial source.
pub type Span = Range<usize>;

/// One piece of a template body.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// Literal text, after whitespace control.
    Text(String),
    /// `{{path}}` or `{{{path}}}`: a value printed as JavaScript prints it.
    Value(Expr),
    /// `{{role "system"}}`, `{{json this indent=2}}`, ...: one of dotprompt's helpers.
    Helper(HelperCall),
    /// `{{#if}}`, `{{#unless}}`, `{{#each}}`, `{{#with}}`, `{{#ifEquals}}`,
    /// `{{#unlessEquals}}` with their `{{else}}` branch.
    Block(Block),
    /// `{{> name arg=value}}`.
    Partial(PartialCall),
}

/// Whether `expr` holds of an expression of `nodes` (in the blocks among them too, and a
/// partial call's arguments, not the partial's body), or `helper` of an inline helper's
/// call.
pub(crate) fn any_expr(
    nodes: &[Node],
    expr: &dyn Fn(&Expr) -> bool,
    helper: &dyn Fn(&HelperCall) -> bool,
) -> bool {
    nodes.iter().any(|node| match node {
        Node::Value(e) => expr(e),
        Node::Helper(c) => {
            helper(c) || c.params.iter().chain(c.hash.iter().map(|h| &h.1)).any(expr)
        }
        Node::Block(b) => {
            b.params.iter().chain(b.hash.iter().map(|h| &h.1)).any(expr)
                || any_expr(&b.body, expr, helper)
                || any_expr(&b.inverse, expr, helper)
        }
        Node::Partial(p) => p
            .context
            .iter()
            .chain(p.hash.iter().map(|h| &h.1))
            .any(expr),
        Node::Text(_) => false,
    })
}

/// An argument or a value: a path, or a literal.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A path into the context or the `@` data.
    Path(Path),
    /// A string, number, boolean, `null` or `undefined` (`None`) literal.
    Literal(Option<super::Value>),
}

impl Expr {
    /// Where it is written.
    pub fn span(&self) -> Option<Span> {
        match self {
            Expr::Path(path) => Some(path.span.clone()),
            Expr::Literal(_) => None,
        }
    }
}

/// A path: `name`, `a.b.c`, `this`, `../up`, `@index`, `@root.user.name`.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// Starts with `@`: read from the data frame (loop variables, `@root`, context).
    pub data: bool,
    /// How many `../` lead it.
    pub depth: usize,
    /// The segments after `this` and `../` are removed (`[]` for `this`).
    pub parts: Vec<String>,
    /// As written.
    pub original: String,
    /// Where it is written.
    pub span: Span,
}

/// dotprompt's inline helpers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelperName {
    /// `{{role "user"}}`: starts a message.
    Role,
    /// `{{history}}`: where the conversation goes.
    History,
    /// `{{section "name"}}`: a section marker part.
    Section,
    /// `{{media url=... contentType=...}}`: a media part.
    Media,
    /// `{{json value indent=2}}`: the value as JSON.
    Json,
    /// Handlebars' `{{lookup value key}}`: the value's own property `key`.
    Lookup,
    /// Handlebars' `{{log value ...}}`: renders nothing (JavaScript writes its arguments
    /// to the console).
    Log,
    /// `{{cacheBreakpoint}}`: renders nothing, and marks where the prompt's cacheable
    /// prefix ends. promptic's own helper (dotprompt's JavaScript implementation does not
    /// define it); only at the top level of a prompt.
    CacheBreakpoint,
    /// A helper registered from Rust ([`Registry::define_helper`](super::Registry::define_helper)),
    /// named by [`HelperCall::custom`].
    Custom,
}

/// A call of an inline helper.
#[derive(Clone, Debug, PartialEq)]
pub struct HelperCall {
    /// Which helper.
    pub name: HelperName,
    /// The name of a [`HelperName::Custom`] helper (empty for the others).
    pub custom: String,
    /// Positional arguments.
    pub params: Vec<Expr>,
    /// `key=value` arguments, in order.
    pub hash: Vec<(String, Expr)>,
    /// The whole tag.
    pub span: Span,
}

/// The block helpers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `{{#if value}}`.
    If,
    /// `{{#unless value}}`.
    Unless,
    /// `{{#each list}}` over an array or an object.
    Each,
    /// `{{#with value}}`.
    With,
    /// `{{#ifEquals a b}}`: `===` in JavaScript.
    IfEquals,
    /// `{{#unlessEquals a b}}`.
    UnlessEquals,
}

/// A block with its body and its `{{else}}` branch.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Which helper.
    pub kind: BlockKind,
    /// Its arguments.
    pub params: Vec<Expr>,
    /// `key=value` arguments (`includeZero=true` for `if`).
    pub hash: Vec<(String, Expr)>,
    /// What renders when the helper says so.
    pub body: Vec<Node>,
    /// The `{{else}}` branch (empty when there is none).
    pub inverse: Vec<Node>,
    /// The opening tag.
    pub span: Span,
}

/// `{{> name}}`, `{{> name context}}`, `{{> name key=value}}`.
#[derive(Clone, Debug, PartialEq)]
pub struct PartialCall {
    /// The partial's name.
    pub name: String,
    /// The context it renders with (the current one when absent).
    pub context: Option<Expr>,
    /// Values added to that context.
    pub hash: Vec<(String, Expr)>,
    /// The indentation of a partial standing alone on its line: Handlebars indents every
    /// line of the partial's output with it.
    pub indent: String,
    /// The whole tag.
    pub span: Span,
}
