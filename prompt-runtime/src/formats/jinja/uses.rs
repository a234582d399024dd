//! Which names a template reads from its values, through its includes, and which of them
//! it cannot render without.
//!
//! A name is *required* when the template reads it outside every `{% if %}` and
//! `{% for %}` body and not under `| default(…)`, `is defined` or as a bare test (`{% if
//! name %}`): rendering would fail without it. `user.name | default(…)` still requires
//! `user`, as Jinja2 does. Everything else is optional: a value used
//! only inside a block that may be off need not be given when it is off (LangAlpha never
//! passes `subagent_summary` when its block is off). Loop variables and `set` names are
//! the template's own, not values.

use super::expr::{Expr, ExprKind, Filter, Op, Test};
use super::parser::Node;
use super::set::Templates;
use std::ops::Range;

/// A name a template reads from its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameUse {
    /// The name (`user_profile`).
    pub name: String,
    /// The attributes read from it at its first use, in order (`["name"]` for
    /// `user_profile.name`).
    pub path: Vec<String>,
    /// Whether rendering fails without it.
    pub required: bool,
    /// The file of its first use (`components/user_profile.md.j2`).
    pub file: String,
    /// The span of its first use in that file.
    pub span: Range<usize>,
}

impl Templates {
    /// The names template `entry` and those it includes read from the values, each once
    /// (its first use, `required` if any use is), in order of first use.
    pub fn uses(&self, entry: &str) -> Vec<NameUse> {
        let mut walk = Walk {
            set: self,
            bound: Vec::new(),
            out: Vec::new(),
            walked: std::collections::HashSet::new(),
            includes: 0,
        };
        if let Some(template) = self.get(entry) {
            walk.nodes(entry, &template.nodes, false);
        }
        walk.out
    }
}

struct Walk<'a> {
    set: &'a Templates,
    /// Names the templates bind themselves (loop variables, `set`), innermost last.
    bound: Vec<String>,
    out: Vec<NameUse>,
    /// Includes already walked, by name, whether conditional, and the names bound around
    /// them: walking one again would find nothing new, and a diamond of includes would
    /// otherwise be walked once per path.
    walked: std::collections::HashSet<(String, bool, Vec<String>)>,
    /// Includes walked so far, against [`MAX_INCLUDE_WALKS`]: includes under different
    /// loop variables at every level would otherwise be walked exponentially often.
    includes: usize,
}

/// How many include sites a walk over the names visits at most; past that it stops
/// (`Templates::paths` reports it, so the derive never trusts a partial walk).
pub(super) const MAX_INCLUDE_WALKS: usize = 10_000;

impl<'a> Walk<'a> {
    fn nodes(&mut self, file: &str, nodes: &'a [Node], conditional: bool) {
        for node in nodes {
            match node {
                Node::Text(_) => {}
                Node::Output(expr) => self.expr(file, expr, !conditional),
                Node::If(block) => {
                    for (condition, body) in &block.branches {
                        self.condition(file, condition, conditional);
                        self.nodes(file, body, true);
                    }
                    if let Some((_, body)) = &block.otherwise {
                        self.nodes(file, body, true);
                    }
                }
                Node::For(each) => {
                    self.expr(file, &each.iter, !conditional);
                    let depth = self.bound.len();
                    self.bound
                        .extend(each.targets.iter().map(|(n, _)| n.clone()));
                    if let Some(filter) = &each.filter {
                        self.condition(file, filter, true);
                    }
                    self.nodes(file, &each.body, true);
                    self.bound.truncate(depth);
                    if let Some(body) = &each.otherwise {
                        self.nodes(file, body, true);
                    }
                }
                Node::Include { name, .. } => {
                    let mut bound = self.bound.clone();
                    bound.sort();
                    bound.dedup();
                    if self.includes >= MAX_INCLUDE_WALKS
                        || !self.walked.insert((name.clone(), conditional, bound))
                    {
                        continue;
                    }
                    self.includes += 1;
                    if let Some(included) = self.set.get(name) {
                        let depth = self.bound.len();
                        self.nodes(name, &included.nodes, conditional);
                        self.bound.truncate(depth);
                    }
                }
                Node::Set { name, value, .. } => {
                    self.expr(file, value, !conditional);
                    self.bound.push(name.clone());
                }
                Node::Scope(scope) => {
                    let depth = self.bound.len();
                    for (name, value) in &scope.binds {
                        self.expr(file, value, !conditional);
                        self.bound.push(name.clone());
                    }
                    let file = scope.template.as_deref().unwrap_or(file);
                    self.nodes(file, &scope.nodes, conditional);
                    self.bound.truncate(depth);
                }
                Node::Super(_) => {}
                // The body, then the filters on its text: their arguments see the body's
                // `set`s, which end with the block.
                Node::FilterBlock(block) => {
                    let depth = self.bound.len();
                    self.nodes(file, &block.body, conditional);
                    self.expr(file, &block.filters, !conditional);
                    self.bound.truncate(depth);
                    // `{% set name %}…{% endset %}`: bound after the block, as `set` binds.
                    if let Some(name) = &block.into {
                        self.bound.push(name.clone());
                    }
                }
                Node::SetAttr {
                    name, span, value, ..
                } => {
                    self.expr(file, value, !conditional);
                    // The namespace itself is read: one that is not set is the context's.
                    self.record(
                        file,
                        name,
                        Vec::new(),
                        span.start..span.start + name.len(),
                        !conditional,
                    );
                }
            }
        }
    }

    /// A condition: a bare name or a comparison may be undefined (it is then false); a
    /// name read into (`a.b`) may not, unless guarded.
    fn condition(&mut self, file: &str, expr: &Expr, conditional: bool) {
        match &expr.kind {
            ExprKind::Name(_) => self.expr(file, expr, false),
            ExprKind::Not(inner) => self.condition(file, inner, conditional),
            ExprKind::And(a, b) => {
                self.condition(file, a, conditional);
                // The right side runs only when the left holds: it is guarded by it.
                self.condition(file, b, true);
            }
            ExprKind::Or(a, b) => {
                self.condition(file, a, conditional);
                self.condition(file, b, true);
            }
            ExprKind::Compare(first, rest) => {
                self.condition(file, first, conditional);
                for (_, e) in rest {
                    self.condition(file, e, conditional);
                }
            }
            _ => self.expr(file, expr, !conditional),
        }
    }

    fn expr(&mut self, file: &str, expr: &Expr, required: bool) {
        match &expr.kind {
            // A macro's call is put in place when the template is read.
            ExprKind::Literal(_) | ExprKind::Loop(_) | ExprKind::MacroCall(_) => {}
            ExprKind::Name(_) | ExprKind::Attr(..) | ExprKind::Item(..) => {
                if let Some((name, path, span)) = chain(expr) {
                    self.record(file, name, path, span, required);
                }
                if let ExprKind::Item(inner, key) = &expr.kind {
                    if chain(expr).is_none() {
                        self.expr(file, inner, required);
                    }
                    self.expr(file, key, required);
                } else if let ExprKind::Attr(inner, _) = &expr.kind
                    && chain(expr).is_none()
                {
                    self.expr(file, inner, required);
                }
            }
            ExprKind::List(items) | ExprKind::Tuple(items) => {
                items.iter().for_each(|e| self.expr(file, e, required))
            }
            ExprKind::Dict(entries) => entries.iter().for_each(|(k, v)| {
                self.expr(file, k, required);
                self.expr(file, v, required);
            }),
            // `a.b | default(x)` makes `a.b` optional, not `a`: Jinja2 fails reading `b` of
            // an `a` that is not there.
            ExprKind::Filter(inner, Filter::Default, args) => {
                self.expr(file, inner, required && reads_into(inner));
                args.iter().for_each(|e| self.expr(file, e, required));
            }
            ExprKind::Filter(inner, _, args) => {
                self.expr(file, inner, required);
                args.iter().for_each(|e| self.expr(file, e, required));
            }
            ExprKind::Test(inner, Test::Defined | Test::Undefined, _) => {
                self.expr(file, inner, false)
            }
            ExprKind::Test(inner, _, _) => self.expr(file, inner, required),
            ExprKind::Not(_) | ExprKind::And(..) | ExprKind::Or(..) | ExprKind::Compare(..) => {
                self.condition(file, expr, !required)
            }
            ExprKind::StartsWith(a, b) => {
                self.expr(file, a, required);
                self.expr(file, b, required);
            }
            ExprKind::Split(a, b) => {
                self.expr(file, a, required);
                if let Some(b) = b {
                    self.expr(file, b, required);
                }
            }
            ExprKind::Items(inner) => self.expr(file, inner, required),
            // `a if c else b`: the condition may be undefined (it is then false), and each
            // side is read only when it is chosen.
            ExprKind::Op(Op::IfElse, operands) => {
                if let [condition, sides @ ..] = operands.as_slice() {
                    self.condition(file, condition, !required);
                    sides.iter().for_each(|e| self.expr(file, e, false));
                }
            }
            // A test takes a value that is not there, as Jinja2's undefined (`x is number`
            // is false); its argument is read.
            ExprKind::Op(Op::Is(..), operands) => {
                if let [subject, args @ ..] = operands.as_slice() {
                    self.expr(file, subject, false);
                    args.iter().for_each(|e| self.expr(file, e, required));
                }
            }
            ExprKind::Op(_, operands) => operands.iter().for_each(|e| self.expr(file, e, required)),
        }
    }

    fn record(
        &mut self,
        file: &str,
        name: &str,
        path: Vec<String>,
        span: Range<usize>,
        required: bool,
    ) {
        if self.bound.iter().any(|b| b == name) {
            return;
        }
        match self.out.iter_mut().find(|u| u.name == name) {
            Some(found) => {
                if required && !found.required {
                    found.required = true;
                    found.file = file.to_owned();
                    found.span = span;
                    found.path = path;
                }
            }
            None => self.out.push(NameUse {
                name: name.to_owned(),
                path,
                required,
                file: file.to_owned(),
                span,
            }),
        }
    }
}

fn reads_into(expr: &Expr) -> bool {
    matches!(expr.kind, ExprKind::Attr(..) | ExprKind::Item(..))
}

/// `a.b.c` as the name `a`, the path `[b, c]` and the span of the whole; `None` when the
/// chain does not start at a name (`[1][0]`) or reads an item by a computed key.
fn chain(expr: &Expr) -> Option<(&str, Vec<String>, Range<usize>)> {
    let mut path = Vec::new();
    let mut at = expr;
    loop {
        match &at.kind {
            ExprKind::Name(name) => {
                path.reverse();
                return Some((name, path, expr.span.clone()));
            }
            ExprKind::Attr(inner, attr) => {
                path.push(attr.clone());
                at = inner;
            }
            ExprKind::Item(inner, key) => {
                match &key.kind {
                    ExprKind::Literal(super::data::Value::String(k)) => path.push(k.clone()),
                    ExprKind::Literal(_) => {}
                    _ => return None,
                }
                at = inner;
            }
            _ => return None,
        }
    }
}
