//! Every path a template reads into its values, through its includes and loops: what the
//! derive checks against the [`Shape`](crate::value::Shape) of each field.
//!
//! A loop variable reads into the list it walks: in `{% for s in stops %}{{ s.city }}`,
//! `s.city` is the path `stops[…].city`, shown as `s.city`. A `set` name is the template's
//! own and is not followed.

use super::data::Value;
use super::expr::{CmpOp, Expr, ExprKind, Filter, Op, Test};
use super::parser::Node;
use super::set::Templates;
use super::uses::MAX_INCLUDE_WALKS;
use crate::diagnostic::Diagnostic;
use std::ops::Range;

/// One step of a [`PathUse`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathStep {
    /// `.name` or `["name"]`.
    Field(String),
    /// An item of a list: a loop variable, or `xs[1.5]`.
    Element,
    /// An item of a list (or a text's character) by a literal index: `xs[0]`, `xs[-1]`.
    Index(i64),
    /// A map's value, as `items()` gives it to a loop.
    Value,
}

/// A path a template reads into one of its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathUse {
    /// The value read (a context name).
    pub name: String,
    /// The name the template writes it with: `name`, or a loop variable over it.
    pub shown: String,
    /// The steps from the value, the loop's included.
    pub steps: Vec<PathStep>,
    /// How many of `steps` are the loop's (not written at the use).
    pub skip: usize,
    /// The file of the use.
    pub file: String,
    /// The span of the use in that file.
    pub span: Range<usize>,
    /// Whether the use tolerates the path's absence, as rendering does: it is under
    /// `| default(…)` or `is [not] defined`, tested bare (`{% if a.b %}`, `not a.b`,
    /// `a.b or c`), compared (`a.b == 1`), or on the right of an `and`/`or` (which its
    /// left side guards).
    pub(crate) guarded: bool,
    /// Whether a step was written as a literal index that is no integer (`xs[1.5]`): such
    /// an `Element` is one item, not every item.
    pub(crate) indexed: bool,
    /// Whether rendering fails wherever the path is read and not there: it is printed, a
    /// filter's input (not `default`'s), or a loop's iterable.
    pub(crate) loud: bool,
    /// The filter the use is the input of, when that filter takes values of some types
    /// only (`length` and `join` text, a list or a map; `abs` a number; `dictsort` a map;
    /// `indent` text; `sum` a list): another type there fails in Jinja2 too.
    pub(crate) sized: Option<&'static str>,
    /// The blocks the use is inside, outermost first, each with the outcome it needs: the
    /// use is read only when every one holds. Indices into the walk's [`Cond`]s; a loop
    /// the path itself walks (`s.city` inside `for s in stops`) is left out, since every
    /// item is then read.
    pub(crate) gates: Vec<Gate>,
    /// The filter whose attribute argument this path is (`groupby("kind")` reads
    /// `tools[…].kind`), written at the argument.
    pub(crate) by_filter: Option<&'static str>,
}

impl PathUse {
    /// The filter the use is the input of, when that filter takes values of some types
    /// only (see [`check_sized`](crate::value::path::check_sized)): the derive checks the
    /// value's type against it.
    pub fn sized(&self) -> Option<&'static str> {
        self.sized
    }
}

/// A block a use is inside: its condition, and whether the use needs it to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Gate {
    pub cond: usize,
    pub holds: bool,
}

/// What opens a block, as far as the values can tell.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CondKind {
    /// An `{% if %}` or `{% elif %}` condition that reads only the values.
    Test(Expr),
    /// A `{% for %}` without a loop filter over an iterable that reads only the values: its
    /// body runs when it has items.
    NonEmpty(Expr),
    /// A condition that reads loop variables, `set` names or `loop`, or a loop filter: the
    /// values alone do not say whether the block runs.
    Unknown,
}

/// One block's condition, with the file it is written in.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Cond {
    pub file: String,
    pub kind: CondKind,
    /// For a loop, the path it walks (its last step the iteration): a use of a path
    /// under it reads every item, so the loop is not a condition of that use.
    walks: Option<(String, Vec<PathStep>)>,
}

/// Most paths reported: a template reading more is far past any prompt's size.
const MAX_PATHS: usize = 10_000;

impl Templates {
    /// Every path template `entry` and those it includes read into the values, in order
    /// of use (a name alone is a path with no steps). An error when the templates hold
    /// more than can be walked: more than 10,000 paths, or includes that expand to more than
    /// 10,000 include sites (each level including the next under new loop variables):
    /// a check over part of them would not be a check.
    ///
    /// ```
    /// use promptic::formats::jinja::{Options, PathStep, Templates};
    /// use promptic::SourceFile;
    ///
    /// let text = "{% for s in stops %}{{ s.city }}{% endfor %}";
    /// let templates = Templates::load("t.j2", Options::default(), &mut |_: &str| {
    ///     Ok(SourceFile::new("prompts/t.j2", text))
    /// })
    /// .unwrap();
    /// let paths = templates.paths("t.j2").unwrap();
    /// assert_eq!(paths[0].steps, [PathStep::Element]); // the loop reads `stops` as a list
    /// assert_eq!(paths[1].name, "stops");
    /// assert_eq!(paths[1].shown, "s");
    /// assert_eq!(paths[1].steps, [PathStep::Element, PathStep::Field("city".into())]);
    /// ```
    pub fn paths(&self, entry: &str) -> Result<Vec<PathUse>, Diagnostic> {
        self.gated_paths(entry).map(|(paths, _)| paths)
    }

    /// [`paths`](Self::paths) with the conditions of the blocks they are in, which their
    /// [`Gate`]s index.
    pub(crate) fn gated_paths(&self, entry: &str) -> Result<(Vec<PathUse>, Vec<Cond>), Diagnostic> {
        let mut walk = Walk {
            set: self,
            bound: Vec::new(),
            gates: Vec::new(),
            conds: Vec::new(),
            out: Vec::new(),
            walked: std::collections::HashSet::new(),
            includes: 0,
            cut: false,
        };
        if let Some(template) = self.get(entry) {
            walk.nodes(entry, &template.nodes);
        }
        if walk.cut {
            let shown = self.get(entry).map_or(entry, |t| t.source().path());
            return Err(Diagnostic::new(format!(
                "`{shown}` and its includes read more than {MAX_PATHS} paths or expand to more than {MAX_INCLUDE_WALKS} includes: too many to check each one"
            ))
            .in_file(shown));
        }
        Ok((walk.out, walk.conds))
    }
}

/// A name the templates bind: a loop variable reading into a value (the value, the steps
/// to its items, whether they hold a literal index), or their own.
type Bound = (String, Option<(String, Vec<PathStep>, bool)>);

struct Walk<'a> {
    set: &'a Templates,
    bound: Vec<Bound>,
    /// The blocks around the node being walked, outermost first.
    gates: Vec<Gate>,
    conds: Vec<Cond>,
    out: Vec<PathUse>,
    walked: std::collections::HashSet<(String, Vec<Bound>, Vec<Gate>)>,
    /// Includes walked, against [`MAX_INCLUDE_WALKS`].
    includes: usize,
    /// Whether a limit cut the walk short.
    cut: bool,
}

impl<'a> Walk<'a> {
    fn nodes(&mut self, file: &str, nodes: &'a [Node]) {
        for node in nodes {
            match node {
                Node::Text(_) => {}
                Node::Output(expr) => self.loud(file, expr),
                Node::If(block) => {
                    let depth = self.gates.len();
                    // Each condition is tested only when those before it failed, and its
                    // body runs only when it holds.
                    for (condition, body) in &block.branches {
                        self.expr(file, condition, true, false);
                        let kind = if self.evaluable(condition) {
                            CondKind::Test(condition.clone())
                        } else {
                            CondKind::Unknown
                        };
                        let cond = self.cond(file, kind, None);
                        self.gates.push(Gate { cond, holds: true });
                        self.scoped(file, body);
                        self.gates.pop();
                        self.gates.push(Gate { cond, holds: false });
                    }
                    if let Some((_, body)) = &block.otherwise {
                        self.scoped(file, body);
                    }
                    self.gates.truncate(depth);
                }
                Node::For(each) => self.for_loop(file, each),
                Node::Include { name, .. } => {
                    if self.out.len() >= MAX_PATHS || self.includes >= MAX_INCLUDE_WALKS {
                        self.cut = true;
                        continue;
                    }
                    let key = (name.clone(), self.bound.clone(), self.gates.clone());
                    if !self.walked.insert(key) {
                        continue;
                    }
                    self.includes += 1;
                    if let Some(included) = self.set.get(name) {
                        let depth = self.bound.len();
                        self.nodes(name, &included.nodes);
                        self.bound.truncate(depth);
                    }
                }
                Node::Set { name, value, .. } => {
                    self.expr(file, value, false, false);
                    self.bound.push((name.clone(), None));
                }
                Node::SetAttr { value, .. } => self.expr(file, value, false, false),
                Node::Scope(scope) => {
                    let depth = self.bound.len();
                    for (name, value) in &scope.binds {
                        self.expr(file, value, false, false);
                        self.bound.push((name.clone(), None));
                    }
                    let file = scope.template.as_deref().unwrap_or(file);
                    self.nodes(file, &scope.nodes);
                    self.bound.truncate(depth);
                }
                Node::Super(_) => {}
                // The body, then the filters on its text (their arguments see the body's
                // `set`s, which end with the block).
                Node::FilterBlock(block) => {
                    let depth = self.bound.len();
                    self.nodes(file, &block.body);
                    self.expr(file, &block.filters, false, false);
                    self.bound.truncate(depth);
                    // `{% set name %}…{% endset %}`: bound after the block, as `set` binds.
                    if let Some(name) = &block.into {
                        self.bound.push((name.clone(), None));
                    }
                }
            }
        }
    }

    fn for_loop(&mut self, file: &str, each: &'a super::parser::For) {
        // The iterable is read as a list (or, through `items()`, a map).
        match self.iterable(file, &each.iter) {
            Some(iterable) => self.push(iterable),
            None => self.expr(file, &each.iter, false, false),
        }
        let walks = self
            .alias(&each.iter)
            .filter(|(_, _, _, indexed)| !indexed)
            .map(|(root, mut steps, kind, _)| {
                steps.push(kind);
                (root, steps)
            });
        let kind = if self.evaluable(&each.iter) {
            CondKind::NonEmpty(each.iter.clone())
        } else {
            CondKind::Unknown
        };
        let items = self.cond(file, kind, walks);
        let depth = self.bound.len();
        let targets = each.targets.iter().map(|(n, _)| n.clone());
        match (self.alias(&each.iter), each.targets.len()) {
            (Some((root, steps, PathStep::Element, indexed)), 1) => {
                self.bound.extend(targets.map(|n| {
                    let mut steps = steps.clone();
                    steps.push(PathStep::Element);
                    (n, Some((root.clone(), steps, indexed)))
                }));
            }
            (Some((root, mut steps, PathStep::Value, indexed)), 2) => {
                steps.push(PathStep::Value);
                let mut targets = targets;
                if let Some(key) = targets.next() {
                    self.bound.push((key, None));
                }
                self.bound
                    .extend(targets.map(|n| (n, Some((root.clone(), steps.clone(), indexed)))));
            }
            _ => self.bound.extend(targets.map(|n| (n, None))),
        }
        // The filter runs on every item; the body only on those it keeps, which the values
        // alone do not tell.
        let body = match &each.filter {
            Some(filter) => {
                self.gates.push(Gate {
                    cond: items,
                    holds: true,
                });
                self.expr(file, filter, true, false);
                self.gates.pop();
                self.cond(file, CondKind::Unknown, None)
            }
            None => items,
        };
        self.gates.push(Gate {
            cond: body,
            holds: true,
        });
        self.nodes(file, &each.body);
        self.gates.pop();
        self.bound.truncate(depth);
        if let Some(otherwise) = &each.otherwise {
            self.gates.push(Gate {
                cond: body,
                holds: false,
            });
            self.scoped(file, otherwise);
            self.gates.pop();
        }
    }

    fn cond(
        &mut self,
        file: &str,
        kind: CondKind,
        walks: Option<(String, Vec<PathStep>)>,
    ) -> usize {
        self.conds.push(Cond {
            file: file.to_owned(),
            kind,
            walks,
        });
        self.conds.len() - 1
    }

    /// Whether `expr` reads only the values: no loop variable, `set` name or `loop`.
    fn evaluable(&self, expr: &Expr) -> bool {
        let mut only_values = true;
        super::expr::visit(expr, &mut |e| match &e.kind {
            ExprKind::Name(name) if self.bound.iter().any(|(n, _)| n == name) => {
                only_values = false
            }
            ExprKind::Loop(_) => only_values = false,
            _ => {}
        });
        only_values
    }

    /// A block body: a `set` inside it stays bound after it, as in Jinja2 (an `if` has no
    /// scope of its own), so nothing is undone here.
    fn scoped(&mut self, file: &str, body: &'a [Node]) {
        self.nodes(file, body);
    }

    /// What a loop over `iter` walks: the value and steps it reads, whether its items are
    /// elements or (through `items()`) a map's values, and whether a step is an index.
    fn alias(&self, iter: &Expr) -> Option<(String, Vec<PathStep>, PathStep, bool)> {
        let (inner, kind) = match &iter.kind {
            ExprKind::Items(inner) => (&**inner, PathStep::Value),
            _ => (iter, PathStep::Element),
        };
        let (name, steps, _) = chain(inner)?;
        let (root, steps, _, indexed) = self.resolve(name, steps)?;
        Some((root, steps, kind, indexed || has_index(inner)))
    }

    /// The loop's iterable as a path with its last step the iteration itself, when it is
    /// a path into a value.
    fn iterable(&self, file: &str, iter: &Expr) -> Option<PathUse> {
        let (inner, kind) = match &iter.kind {
            ExprKind::Items(inner) => (&**inner, PathStep::Value),
            _ => (iter, PathStep::Element),
        };
        let (name, steps, _) = chain(inner)?;
        let (root, mut steps, skip, indexed) = self.resolve(name, steps)?;
        steps.push(kind);
        let mut path = self.path_use(
            file,
            root,
            name,
            steps,
            skip,
            iter.span.clone(),
            false,
            indexed || has_index(inner),
        );
        path.loud = true;
        Some(path)
    }

    #[allow(clippy::too_many_arguments)]
    fn path_use(
        &self,
        file: &str,
        root: String,
        shown: &str,
        steps: Vec<PathStep>,
        skip: usize,
        span: Range<usize>,
        guarded: bool,
        indexed: bool,
    ) -> PathUse {
        // A loop this path walks reads every item: it is no condition of the use.
        let gates = self
            .gates
            .iter()
            .filter(|g| match &self.conds[g.cond].walks {
                Some((r, s)) => !(g.holds && *r == root && steps.starts_with(s)),
                None => true,
            })
            .copied()
            .collect();
        PathUse {
            name: root,
            shown: shown.to_owned(),
            steps,
            skip,
            file: file.to_owned(),
            span,
            guarded,
            indexed,
            loud: false,
            sized: None,
            by_filter: None,
            gates,
        }
    }

    /// `name` with `steps` as a path from a value: through a loop variable, or `None` for
    /// a name the templates bind themselves. With how many steps are the loop's, and
    /// whether the loop's steps hold a literal index.
    fn resolve(
        &self,
        name: &str,
        steps: Vec<PathStep>,
    ) -> Option<(String, Vec<PathStep>, usize, bool)> {
        match self.bound.iter().rev().find(|(n, _)| n == name) {
            Some((_, Some((root, before, indexed)))) => {
                let skip = before.len();
                let mut all = before.clone();
                all.extend(steps);
                Some((root.clone(), all, skip, *indexed))
            }
            Some((_, None)) => None,
            None => Some((name.to_owned(), steps, 0, false)),
        }
    }

    fn push(&mut self, path: PathUse) {
        if self.out.len() >= MAX_PATHS {
            self.cut = true;
        } else {
            self.out.push(path);
        }
    }

    /// The paths `expr` reads, where `expr` is printed or a filter's input: when it is a
    /// path, rendering fails wherever the path is not there.
    fn loud(&mut self, file: &str, expr: &Expr) {
        let at = self.out.len();
        self.expr(file, expr, false, false);
        if chain(expr).is_some()
            && let Some(path) = self.out.get_mut(at)
        {
            path.loud = true;
        }
    }

    /// The paths into the items of `inner` that a filter sorting or grouping them by an
    /// attribute written as a literal reads (`tools | groupby("kind")` reads
    /// `tools[…].kind`; `sort(attribute="a,b")` both): the filter fails on an item without
    /// it, unless a `default` is given (`groupby`'s).
    fn attribute_paths(
        &mut self,
        file: &str,
        inner: &Expr,
        filter: Filter,
        args: &[Expr],
        under: bool,
    ) {
        let (at, defaulted) = match filter {
            Filter::Sort => (2, false),
            Filter::Unique | Filter::Min | Filter::Max => (1, false),
            Filter::Sum => (0, false),
            Filter::Groupby => (
                0,
                args.get(1)
                    .is_some_and(|d| !matches!(d.kind, ExprKind::Literal(Value::Null))),
            ),
            _ => return,
        };
        let attribute = match args.get(at).map(|a| &a.kind) {
            Some(ExprKind::Literal(Value::String(a))) => a.clone(),
            Some(ExprKind::Literal(Value::Number(n))) if filter == Filter::Groupby => {
                match n.as_i64() {
                    Some(i) => i.to_string(),
                    None => return,
                }
            }
            _ => return,
        };
        let Some((name, steps, _)) = chain(inner) else {
            return;
        };
        let Some((root, mut steps, skip, indexed)) = self.resolve(name, steps) else {
            return;
        };
        steps.push(PathStep::Element);
        let span = args.get(at).map_or(inner.span.clone(), |a| a.span.clone());
        for one in attribute.split(',') {
            let mut path_steps = steps.clone();
            for part in one.trim().split('.') {
                path_steps.push(match part.parse::<i64>() {
                    Ok(i) => PathStep::Index(i),
                    Err(_) => PathStep::Field(part.to_owned()),
                });
            }
            let mut path = self.path_use(
                file,
                root.clone(),
                name,
                path_steps,
                skip,
                span.clone(),
                defaulted || under,
                indexed || has_index(inner),
            );
            path.loud = !defaulted;
            path.by_filter = Some(filter.name());
            self.push(path);
        }
    }

    /// The paths `expr` reads. `tested`: only its being defined or truthy is asked
    /// (`{% if a.b %}`, `a.b | default(…)`); `under`: it is evaluated only when another
    /// part of the expression allows (the right of `and`/`or`).
    fn expr(&mut self, file: &str, expr: &Expr, tested: bool, under: bool) {
        if self.cut {
            return;
        }
        if let Some((name, steps, span)) = chain(expr) {
            if let Some((root, steps, skip, indexed)) = self.resolve(name, steps) {
                let indexed = indexed || has_index(expr);
                let path = self.path_use(
                    file,
                    root,
                    name,
                    steps,
                    skip,
                    span,
                    tested || under,
                    indexed,
                );
                self.push(path);
            }
            return;
        }
        match &expr.kind {
            // A macro's call is put in place when the template is read.
            ExprKind::Literal(_)
            | ExprKind::Loop(_)
            | ExprKind::Name(_)
            | ExprKind::MacroCall(_) => {}
            ExprKind::Attr(inner, _) | ExprKind::Items(inner) => {
                self.expr(file, inner, false, under)
            }
            ExprKind::Not(inner) => self.expr(file, inner, true, under),
            ExprKind::Test(inner, Test::Defined | Test::Undefined, _) => {
                self.expr(file, inner, true, under)
            }
            ExprKind::Test(inner, ..) => self.expr(file, inner, false, under),
            ExprKind::Item(a, b) => {
                self.expr(file, a, false, under);
                self.expr(file, b, false, under);
            }
            // Python's `and`/`or` test their left side and evaluate the right only when
            // the left allows.
            ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                self.expr(file, a, true, under);
                self.expr(file, b, true, true);
            }
            ExprKind::StartsWith(a, b) => {
                self.expr(file, a, false, under);
                self.expr(file, b, false, under);
            }
            ExprKind::Split(a, b) => {
                self.expr(file, a, false, under);
                if let Some(b) = b {
                    self.expr(file, b, false, under);
                }
            }
            ExprKind::List(items) | ExprKind::Tuple(items) => {
                items.iter().for_each(|e| self.expr(file, e, false, under))
            }
            ExprKind::Dict(entries) => entries.iter().for_each(|(k, v)| {
                self.expr(file, k, false, under);
                self.expr(file, v, false, under);
            }),
            // `a if c else b`: the condition is tested, each side read only when it holds
            // or fails.
            ExprKind::Op(Op::IfElse, operands) => {
                if let [condition, sides @ ..] = operands.as_slice() {
                    self.expr(file, condition, true, under);
                    sides.iter().for_each(|e| self.expr(file, e, false, true));
                }
            }
            ExprKind::Op(Op::Is(..), operands) => {
                if let [subject, args @ ..] = operands.as_slice() {
                    self.expr(file, subject, true, under);
                    args.iter().for_each(|e| self.expr(file, e, false, under));
                }
            }
            ExprKind::Op(_, operands) => operands
                .iter()
                .for_each(|e| self.expr(file, e, false, under)),
            ExprKind::Filter(inner, Filter::Default, args) => {
                self.expr(file, inner, true, under);
                args.iter().for_each(|e| self.expr(file, e, false, under));
            }
            ExprKind::Filter(inner, filter, args) => {
                let at = self.out.len();
                if under {
                    self.expr(file, inner, false, under);
                } else {
                    self.loud(file, inner);
                }
                if let (
                    Filter::Length
                    | Filter::Join
                    | Filter::First
                    | Filter::Last
                    | Filter::List
                    | Filter::Reverse
                    | Filter::Sort
                    | Filter::Min
                    | Filter::Max
                    | Filter::Sum
                    | Filter::Abs
                    | Filter::Round
                    | Filter::Dictsort
                    | Filter::Indent,
                    Some(_),
                ) = (filter, chain(inner))
                    && let Some(path) = self.out.get_mut(at)
                {
                    path.sized = Some(filter.name());
                }
                args.iter().for_each(|e| self.expr(file, e, false, under));
                self.attribute_paths(file, inner, *filter, args, under);
            }
            // `==`, `!=`, `in` and `not in` with a value that is not there give a boolean,
            // as in Jinja2: such an operand is not required. Ordering one is an error.
            ExprKind::Compare(first, rest) => {
                let ordering =
                    |op: &CmpOp| !matches!(op, CmpOp::Eq | CmpOp::Ne | CmpOp::In | CmpOp::NotIn);
                let first_ordered = rest.first().is_some_and(|(op, _)| ordering(op));
                self.expr(file, first, !first_ordered, under);
                for (i, (op, e)) in rest.iter().enumerate() {
                    let ordered =
                        ordering(op) || rest.get(i + 1).is_some_and(|(next, _)| ordering(next));
                    self.expr(file, e, !ordered, under);
                }
            }
        }
    }
}

/// Whether the chain `expr` reads an item by a literal number that is no integer
/// (`xs[1.5]`), which a path does not follow ([`PathStep::Index`] is an integer's).
fn has_index(expr: &Expr) -> bool {
    let mut at = expr;
    loop {
        match &at.kind {
            ExprKind::Attr(inner, _) => at = inner,
            ExprKind::Item(inner, key) => {
                if matches!(&key.kind, ExprKind::Literal(Value::Number(n)) if n.as_i64().is_none())
                {
                    return true;
                }
                at = inner;
            }
            _ => return false,
        }
    }
}

/// `a.b["c"][0]` as the name `a`, its steps and the span of the whole; `None` when the
/// chain does not start at a name or reads an item by a computed key.
fn chain(expr: &Expr) -> Option<(&str, Vec<PathStep>, Range<usize>)> {
    let mut steps = Vec::new();
    let mut at = expr;
    loop {
        match &at.kind {
            ExprKind::Name(name) => {
                steps.reverse();
                return Some((name, steps, expr.span.clone()));
            }
            ExprKind::Attr(inner, attr) => {
                steps.push(PathStep::Field(attr.clone()));
                at = inner;
            }
            ExprKind::Item(inner, key) => {
                match &key.kind {
                    ExprKind::Literal(Value::String(k)) => steps.push(PathStep::Field(k.clone())),
                    ExprKind::Literal(Value::Number(n)) => match n.as_i64() {
                        Some(i) => steps.push(PathStep::Index(i)),
                        None => steps.push(PathStep::Element),
                    },
                    _ => return None,
                }
                at = inner;
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;
    use crate::formats::jinja::Options;

    fn paths(files: &[(&str, &str)]) -> Vec<(String, String, Vec<PathStep>, usize, String)> {
        let templates = Templates::load(files[0].0, Options::default(), &mut |name: &str| {
            let (_, text) = files.iter().find(|(n, _)| *n == name).ok_or(None)?;
            Ok(SourceFile::new(format!("prompts/{name}"), *text))
        })
        .unwrap();
        templates
            .paths(files[0].0)
            .unwrap()
            .into_iter()
            .map(|p| (p.name, p.shown, p.steps, p.skip, p.file))
            .collect()
    }

    fn field(name: &str) -> PathStep {
        PathStep::Field(name.to_owned())
    }

    #[test]
    fn loops_read_into_their_lists_and_maps_through_includes() {
        let found = paths(&[
            (
                "a.j2",
                "{% for k, v in tools.items() %}{{ k }}{{ v.about }}{% endfor %}\
                 {% for s in trip.stops if s.open %}{% include 'b.j2' %}{% endfor %}",
            ),
            (
                "b.j2",
                "{{ s.city | upper }}{{ user['name'] }}{{ xs[0].y }}",
            ),
        ]);
        assert_eq!(
            found,
            [
                (
                    "tools".into(),
                    "tools".into(),
                    vec![PathStep::Value],
                    0,
                    "a.j2".into()
                ),
                (
                    "tools".into(),
                    "v".into(),
                    vec![PathStep::Value, field("about")],
                    1,
                    "a.j2".into()
                ),
                (
                    "trip".into(),
                    "trip".into(),
                    vec![field("stops"), PathStep::Element],
                    0,
                    "a.j2".into()
                ),
                (
                    "trip".into(),
                    "s".into(),
                    vec![field("stops"), PathStep::Element, field("open")],
                    2,
                    "a.j2".into()
                ),
                (
                    "trip".into(),
                    "s".into(),
                    vec![field("stops"), PathStep::Element, field("city")],
                    2,
                    "b.j2".into()
                ),
                (
                    "user".into(),
                    "user".into(),
                    vec![field("name")],
                    0,
                    "b.j2".into()
                ),
                (
                    "xs".into(),
                    "xs".into(),
                    vec![PathStep::Index(0), field("y")],
                    0,
                    "b.j2".into()
                ),
            ]
        );
    }

    #[test]
    fn set_names_and_computed_keys_are_not_paths_of_values() {
        let found = paths(&[(
            "a.j2",
            "{% set n = user.name %}{{ n.first }}{{ m[key].x }}{{ loop_free }}",
        )]);
        let names: Vec<_> = found.iter().map(|p| (p.0.as_str(), p.2.len())).collect();
        assert_eq!(names, [("user", 1), ("m", 0), ("key", 0), ("loop_free", 0)]);
    }
}

#[cfg(test)]
mod hostile {
    use super::*;
    use crate::SourceFile;
    use crate::formats::jinja::Options;

    /// Each level includes the next twice, under different loop variables: walked naively,
    /// 2^30 includes.
    #[test]
    fn includes_doubling_at_each_level_are_walked_in_bounded_time() {
        let levels = 30;
        let files: Vec<(String, String)> = (0..levels)
            .map(|i| {
                let next = format!("l{}.j2", i + 1);
                let text = if i + 1 == levels {
                    "{{ leaf }}".to_owned()
                } else {
                    format!(
                        "{{% for a{i} in xs %}}{{% include '{next}' %}}{{% endfor %}}{{% for b{i} in xs %}}{{% include '{next}' %}}{{% endfor %}}"
                    )
                };
                (format!("l{i}.j2"), text)
            })
            .collect();
        let templates = Templates::load("l0.j2", Options::default(), &mut |name: &str| {
            let (_, text) = files.iter().find(|(n, _)| n == name).ok_or(None)?;
            Ok(SourceFile::new(format!("prompts/{name}"), text.clone()))
        })
        .unwrap();
        // Both walks stop at their limit; the derive's is an error, not a partial check.
        assert!(templates.uses("l0.j2").iter().any(|u| u.name == "xs"));
        let error = templates.paths("l0.j2").unwrap_err();
        assert!(error.to_string().contains("too many to check"), "{error}");
    }
}
