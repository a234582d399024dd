//! Rendering a parsed template over `serde_json` values, as Jinja2 renders it.
//!
//! Strictness where Jinja2 is silent: printing, iterating or filtering (other than with
//! `default`) a value that is not defined is an error naming the expression, where Jinja2
//! prints nothing. Testing one (`{% if x %}`, `x is defined`, `==`) behaves as in Jinja2,
//! so a value guarded by its block need not be given when the block is off.

use super::Template;
use super::expr::{CmpOp, Expr, ExprKind, Filter, LoopAttr, Test};
use super::parser::{FilterBlock, For, Node, Scope};
use super::set::Templates;
use super::value::{self, a_type, contains, equal, order, truthy, write_json, write_str};
use crate::diagnostic::{Diagnostic, SourceFile};
use std::ops::Range;

/// Errors boxed inside the renderer: every `eval` returns a `Result`, and a small one
/// moves faster.
type Error = Box<Diagnostic>;
use super::data::{Map, Value};
use super::expr::Op;
use super::ops::{self, Budget, Fail};
use super::slots::{CACHED, Slots};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::rc::Rc;

/// A value while rendering: borrowed from the context or the template where it can be.
#[derive(Clone, Debug)]
enum Val<'a> {
    /// Not defined: the name, attribute or item is absent. Holds nothing; the expression
    /// it came from names it in errors.
    Undefined,
    Defined(Cow<'a, Value>),
    /// A dict's key as `items()` gives it to a loop: borrowed, so a loop over a dict's
    /// items copies nothing.
    Key(&'a str),
    /// A `namespace()`: shared, so `{% set ns.x = … %}` inside a loop changes the one
    /// outside it, as in Jinja2.
    Namespace(Rc<RefCell<Map>>),
}

impl<'a> Val<'a> {
    fn borrowed(value: &'a Value) -> Self {
        Val::Defined(Cow::Borrowed(value))
    }

    fn owned(value: Value) -> Self {
        Val::Defined(Cow::Owned(value))
    }

    /// The value, if defined (a key made a string value).
    #[inline]
    fn into_value(self) -> Option<Cow<'a, Value>> {
        match self {
            Val::Undefined => None,
            Val::Defined(value) => Some(value),
            made => made.made_value(),
        }
    }

    /// [`into_value`](Self::into_value) of a key or a namespace: a copy.
    #[inline(never)]
    fn made_value(self) -> Option<Cow<'a, Value>> {
        match self {
            Val::Undefined => None,
            Val::Defined(value) => Some(value),
            Val::Key(key) => Some(Cow::Owned(Value::String(key.to_owned()))),
            Val::Namespace(ns) => Some(Cow::Owned(Value::Object(ns.borrow().clone()))),
        }
    }
}

/// What a `for` walks: a borrowed list or dict (nothing copied), or items made while
/// rendering.
enum Items<'a> {
    List(&'a [Value]),
    Pairs(&'a Map),
    Made(Vec<Val<'a>>),
}

impl<'a> Items<'a> {
    fn len(&self) -> usize {
        match self {
            Items::List(items) => items.len(),
            Items::Pairs(map) => map.len(),
            Items::Made(items) => items.len(),
        }
    }

    fn iter(&self) -> ItemsIter<'_, 'a> {
        match self {
            Items::List(items) => ItemsIter::List(items.iter()),
            Items::Pairs(map) => ItemsIter::Pairs(map.entries().iter()),
            Items::Made(items) => ItemsIter::Made(items.iter()),
        }
    }
}

/// The items of [`Items`] in order.
enum ItemsIter<'i, 'a> {
    List(std::slice::Iter<'a, Value>),
    Pairs(std::slice::Iter<'a, (String, Value)>),
    Made(std::slice::Iter<'i, Val<'a>>),
}

impl<'a> Iterator for ItemsIter<'_, 'a> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        Some(match self {
            ItemsIter::List(items) => Item::One(Val::borrowed(items.next()?)),
            ItemsIter::Pairs(map) => {
                let (k, v) = map.next()?;
                Item::Pair(k, v)
            }
            ItemsIter::Made(items) => Item::One(items.next()?.clone()),
        })
    }
}

/// One item of [`Items`]: a value, or a dict's key and value.
enum Item<'a> {
    One(Val<'a>),
    Pair(&'a str, &'a Value),
}

/// Which items a loop filter kept, without allocating for up to 128 items.
enum Kept {
    Bits(u128),
    Many(Vec<bool>),
}

impl Kept {
    fn new(len: usize) -> Kept {
        if len <= 128 {
            Kept::Bits(0)
        } else {
            Kept::Many(vec![false; len])
        }
    }

    fn keep(&mut self, i: usize) {
        match self {
            Kept::Bits(bits) => *bits |= 1 << i,
            Kept::Many(flags) => flags[i] = true,
        }
    }

    fn has(&self, i: usize) -> bool {
        match self {
            Kept::Bits(bits) => bits & (1 << i) != 0,
            Kept::Many(flags) => flags.get(i).copied().unwrap_or(false),
        }
    }
}

struct LoopState<'a> {
    index0: usize,
    length: usize,
    /// The items before and after this one, when the body reads `loop.previtem` or
    /// `loop.nextitem`.
    neighbours: Option<(Option<Val<'a>>, Option<Val<'a>>)>,
}

/// A render with another step limit, so that the limit is tested without 50 million
/// steps.
#[cfg(test)]
pub(crate) fn render_limited(
    set: &Templates,
    template: &Template,
    context: &Map,
    max_steps: usize,
) -> Result<String, Diagnostic> {
    render_marked(set, template, context, max_steps).map(|(text, _)| text)
}

/// Renders `template` of `set` over `context`, at most `max_steps` steps, with the byte
/// offsets where `template`'s cache breakpoints fall.
pub(crate) fn render_marked(
    set: &Templates,
    template: &Template,
    context: &Map,
    max_steps: usize,
) -> Result<(String, Vec<usize>), Diagnostic> {
    let mut renderer = Renderer {
        // A little more than last time, so a render a few bytes longer does not grow.
        out: String::with_capacity(
            template
                .source
                .text()
                .len()
                .max(set.last_len.get() + set.last_len.get() / 8),
        ),
        max_steps,
        ..Renderer::probe(set, context)
    };
    // The top-level nodes between breakpoints, in turn: where one falls is what is
    // written by then.
    let mut marks = Vec::new();
    let mut start = 0;
    for (at, _) in &template.breakpoints {
        let part = template.nodes.get(start..*at).unwrap_or_default();
        renderer.nodes(template, part).map_err(|e| *e)?;
        marks.push(renderer.out.len());
        start = *at;
    }
    let rest = template.nodes.get(start..).unwrap_or_default();
    renderer.nodes(template, rest).map_err(|e| *e)?;
    // Each node is checked before it is rendered: the last one may still have passed it.
    if renderer.out.len() > MAX_OUTPUT {
        let message = format!("the render is larger than {} MiB", MAX_OUTPUT >> 20);
        return Err(Diagnostic::new(message).in_file(template.source.path()));
    }
    set.last_len.set(renderer.out.len());
    Ok((renderer.out, marks))
}

/// Whether `expr`, a condition of `template` that reads only the values, holds for
/// `context`; `None` when evaluating it fails (rendering then reports it).
pub(super) fn holds(
    set: &Templates,
    template: &Template,
    expr: &Expr,
    context: &Map,
) -> Option<bool> {
    Renderer::probe(set, context).test(template, expr).ok()
}

/// Whether the iterable `expr` of a `for` in `template` has items for `context`; `None`
/// when it is not defined or cannot be looped over (rendering then reports it).
pub(super) fn has_items(
    set: &Templates,
    template: &Template,
    expr: &Expr,
    context: &Map,
) -> Option<bool> {
    let renderer = Renderer::probe(set, context);
    let (inner, pairs) = match &expr.kind {
        ExprKind::Items(map) => (&**map, true),
        _ => (expr, false),
    };
    let value = renderer.defined(template, inner).ok()?;
    match (&*value, pairs) {
        (Value::Object(map), _) => Some(!map.is_empty()),
        (Value::Array(items), false) => Some(!items.is_empty()),
        (Value::String(s), false) => Some(!s.is_empty()),
        _ => None,
    }
}

struct Renderer<'a> {
    set: &'a Templates,
    context: &'a Map,
    /// The names the templates bind, innermost last, in scopes: one per template being
    /// rendered (an include's `set`s stay in it) and one per loop iteration (a loop
    /// body's `set`s are gone at its end, as in Jinja2, and each iteration starts afresh).
    /// One list for all scopes, so entering one allocates nothing.
    locals: Vec<(&'a str, u32, Val<'a>)>,
    /// The slots of the names (see [`super::slots`]).
    slots: &'a Slots,
    /// Whether a loop variable or `set` name was bound without a slot (never, for the
    /// templates' own nodes): names are then compared as strings.
    unslotted: bool,
    /// Which of the first [`CACHED`] slots `values` holds the context's value of.
    cached: Cell<u64>,
    values: [Cell<Option<&'a Value>>; CACHED],
    /// Where the innermost scope starts in `locals`.
    frame: usize,
    loops: Vec<LoopState<'a>>,
    out: String,
    /// Nodes rendered, loop items visited, loop filters tested and list items a
    /// membership test (`in`) looked at so far, against [`MAX_STEPS`]. Counted where
    /// expressions are evaluated too, which only read the renderer.
    steps: Cell<usize>,
    max_steps: usize,
    /// The bytes copied into the lists the templates build, against [`MAX_OUTPUT`].
    built: Cell<usize>,
}

/// The most text one render may produce: loops nested in loops over a long list could
/// otherwise ask for more memory than there is.
pub const MAX_OUTPUT: usize = 64 << 20;

/// The most nodes and loop items one render may visit: nested loops whose bodies print
/// nothing could otherwise run for ever.
pub const MAX_STEPS: usize = 50_000_000;

type Done = Result<(), Error>;

impl<'a> Renderer<'a> {
    /// A renderer that only evaluates expressions over `context`: it has no scopes of the
    /// templates' own and writes nothing (`render_limited` gives it an output and a limit).
    fn probe(set: &'a Templates, context: &'a Map) -> Self {
        Renderer {
            set,
            context,
            slots: set.slots(),
            unslotted: false,
            cached: Cell::new(0),
            values: [const { Cell::new(None) }; CACHED],
            locals: Vec::new(),
            frame: 0,
            loops: Vec::new(),
            out: String::new(),
            steps: Cell::new(0),
            max_steps: MAX_STEPS,
            built: Cell::new(0),
        }
    }

    #[cold]
    fn error(&self, template: &Template, expr: &Expr, message: impl Into<String>) -> Error {
        Box::new(Diagnostic::new(message).at(&template.source, expr.span.clone()))
    }

    fn nodes(&mut self, template: &'a Template, nodes: &'a [Node]) -> Done {
        for node in nodes {
            self.steps.set(self.steps.get() + 1);
            if self.steps.get() > self.max_steps || self.out.len() > MAX_OUTPUT {
                return Err(self.too_much(template, node));
            }
            match node {
                Node::Text(span) => self.out.push_str(&template.source.text()[span.clone()]),
                Node::Output(expr) => self.print(template, expr)?,
                Node::If(block) => {
                    let mut taken = false;
                    for (condition, body) in &block.branches {
                        if self.test(template, condition)? {
                            self.nodes(template, body)?;
                            taken = true;
                            break;
                        }
                    }
                    if !taken && let Some((_, body)) = &block.otherwise {
                        self.nodes(template, body)?;
                    }
                }
                Node::For(each) => self.for_loop(template, each)?,
                Node::FilterBlock(block) => self.filter_block(template, block)?,
                Node::Include { name, span } => {
                    let Some(included) = self.set.get(name) else {
                        return Err(Box::new(
                            Diagnostic::new(format!("`{name}` was not loaded"))
                                .at(&template.source, span.clone()),
                        ));
                    };
                    let (outer, start) = (self.frame, self.locals.len());
                    self.frame = start;
                    let result = self.nodes(included, &included.nodes);
                    self.locals.truncate(start);
                    self.frame = outer;
                    result?;
                }
                Node::Scope(scope) => self.scope(template, scope)?,
                Node::Super(span) => {
                    return Err(Box::new(
                        Diagnostic::new("`super()` was not put in place")
                            .at(&template.source, span.clone()),
                    ));
                }
                Node::Set { name, value, .. } => {
                    let value = self.eval(template, value)?;
                    let scope = &mut self.locals[self.frame..];
                    match scope.iter_mut().find(|(n, ..)| *n == name.as_str()) {
                        Some(local) => local.2 = value,
                        None => self.bind_one(name, value),
                    }
                }
                Node::SetAttr {
                    name,
                    attr,
                    span,
                    value,
                } => {
                    let value_expr = value;
                    let value = self.defined(template, value_expr)?.into_owned();
                    match self.lookup_by_name(name) {
                        Val::Namespace(ns) => {
                            // A namespace holds a copy: `{% set ns.a = ns %}` over and over
                            // would otherwise nest and grow without end.
                            self.keep(template, value_expr, &value)?;
                            ns.borrow_mut().insert(attr.clone(), value);
                        }
                        _ => {
                            return Err(Box::new(
                                Diagnostic::new(format!("`{name}` is not a namespace"))
                                    .at(&template.source, span.clone())
                                    .with_help(format!(
                                        "make it one first: `{{% set {name} = namespace({attr}=…) %}}`"
                                    )),
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A block, a macro's body or a parent template: its parameters evaluated here, then
    /// its nodes in a scope of their own, read with their template.
    fn scope(&mut self, template: &'a Template, scope: &'a Scope) -> Done {
        let mut values = Vec::with_capacity(scope.binds.len());
        for (name, value) in &scope.binds {
            values.push((name, self.eval(template, value)?));
        }
        let inner = match &scope.template {
            None => template,
            Some(name) => self.set.get(name).ok_or_else(|| {
                Box::new(
                    Diagnostic::new(format!("`{name}` was not loaded"))
                        .at(&template.source, scope.span.clone()),
                )
            })?,
        };
        let (outer, start) = (self.frame, self.locals.len());
        self.frame = start;
        for (name, value) in values {
            self.bind_one(name, value);
        }
        let result = self.nodes(inner, &scope.nodes);
        self.locals.truncate(start);
        self.frame = outer;
        result
    }

    fn too_much(&self, template: &Template, node: &Node) -> Error {
        let span = node.span();
        let message = if self.out.len() > MAX_OUTPUT {
            format!("the render is larger than {} MiB", MAX_OUTPUT >> 20)
        } else {
            format!("the render takes more than {} steps", self.max_steps)
        };
        Box::new(
            Diagnostic::new(message)
                .at(&template.source, span)
                .with_help(
                    "loops nested in loops multiply: loop over shorter lists, or fewer levels deep",
                ),
        )
    }

    fn for_loop(&mut self, template: &'a Template, each: &'a For) -> Done {
        let items = match &each.iter.kind {
            ExprKind::Items(map) => match self.defined(template, map)? {
                Cow::Borrowed(Value::Object(entries)) => Items::Pairs(entries),
                Cow::Owned(Value::Object(entries)) => Items::Made(
                    entries
                        .into_iter()
                        .map(|(k, v)| Val::owned(Value::Tuple(vec![Value::String(k), v])))
                        .collect(),
                ),
                value => {
                    return Err(self.error(
                        template,
                        map,
                        format!("`.items()` needs a dict, and this is {}", a_type(&value)),
                    ));
                }
            },
            _ => match self.defined(template, &each.iter)? {
                Cow::Borrowed(Value::Array(list)) => Items::List(list),
                value => Items::Made(self.iterate(template, &each.iter, value)?),
            },
        };
        // The loop filter runs first: `loop.length` and `loop.index` count what passes.
        let mut kept = None;
        let mut length = items.len();
        if let Some(filter) = &each.filter {
            let mut passed = Kept::new(items.len());
            length = 0;
            for (i, item) in items.iter().enumerate() {
                self.step(template, filter, 1)?;
                let start = self.enter(template, each, item)?;
                let pass = self.test(template, filter);
                self.leave(start);
                if pass? {
                    passed.keep(i);
                    length += 1;
                }
            }
            kept = Some(passed);
        }
        if length == 0 {
            if let Some(otherwise) = &each.otherwise {
                self.nodes(template, otherwise)?;
            }
            return Ok(());
        }
        let mut index0: usize = 0;
        // `loop.previtem` and `loop.nextitem` need the items kept, as values.
        let neighbours = *each.neighbours.get_or_init(|| reads_neighbours(&each.body));
        let around: Option<Vec<Val<'a>>> = neighbours.then(|| {
            items
                .iter()
                .enumerate()
                .filter(|(i, _)| kept.as_ref().is_none_or(|k| k.has(*i)))
                .map(|(_, item)| match item {
                    Item::One(v) => v,
                    Item::Pair(k, v) => Val::owned(Value::Tuple(vec![Value::from(k), v.clone()])),
                })
                .collect()
        });
        for (i, item) in items.iter().enumerate() {
            if kept.as_ref().is_some_and(|k| !k.has(i)) {
                continue;
            }
            self.steps.set(self.steps.get() + 1);
            let start = self.enter(template, each, item)?;
            let neighbours = around.as_ref().map(|all| {
                let before = index0.checked_sub(1).and_then(|p| all.get(p)).cloned();
                (before, all.get(index0 + 1).cloned())
            });
            self.loops.push(LoopState {
                index0,
                length,
                neighbours,
            });
            let result = self.nodes(template, &each.body);
            self.loops.pop();
            self.leave(start);
            result?;
            index0 += 1;
        }
        Ok(())
    }

    /// Opens the scope of one item, its loop variables bound; returns where it starts.
    fn enter(
        &mut self,
        template: &'a Template,
        each: &'a For,
        item: Item<'a>,
    ) -> Result<(usize, usize), Error> {
        let start = (self.frame, self.locals.len());
        self.frame = start.1;
        self.bind(template, each, item)?;
        Ok(start)
    }

    /// Closes the scope [`enter`](Self::enter) opened.
    fn leave(&mut self, (outer, start): (usize, usize)) {
        self.locals.truncate(start);
        self.frame = outer;
    }

    /// Binds the loop variables for one item: the item itself, or its two halves for
    /// `k, v`.
    fn bind(&mut self, template: &'a Template, each: &'a For, item: Item<'a>) -> Done {
        let targets = each.targets.as_slice();
        match (targets, item) {
            ([(name, _)], Item::One(value)) => self.bind_one(name, value),
            ([(name, _)], Item::Pair(k, v)) => {
                let pair = Value::Tuple(vec![Value::String(k.to_owned()), v.clone()]);
                self.bind_one(name, Val::owned(pair));
            }
            ([(k_name, _), (v_name, _)], Item::Pair(k, v)) => {
                self.bind_one(k_name, Val::Key(k));
                self.bind_one(v_name, Val::borrowed(v));
            }
            (
                _,
                Item::One(Val::Defined(Cow::Borrowed(Value::Array(pair) | Value::Tuple(pair)))),
            ) if pair.len() == targets.len() => {
                for ((name, _), part) in targets.iter().zip(pair) {
                    self.bind_one(name, Val::borrowed(part));
                }
            }
            (_, Item::One(Val::Defined(Cow::Owned(Value::Array(pair) | Value::Tuple(pair)))))
                if pair.len() == targets.len() =>
            {
                for ((name, _), part) in targets.iter().zip(pair) {
                    self.bind_one(name, Val::owned(part));
                }
            }
            _ => {
                return Err(self.error(
                    template,
                    &each.iter,
                    format!(
                        "each item must be a pair to unpack into {} loop variables",
                        targets.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    fn iterate(
        &self,
        template: &Template,
        expr: &Expr,
        value: Cow<'a, Value>,
    ) -> Result<Vec<Val<'a>>, Error> {
        Ok(match value {
            Cow::Borrowed(Value::Array(items)) => items.iter().map(Val::borrowed).collect(),
            Cow::Owned(Value::Array(items) | Value::Tuple(items)) => {
                items.into_iter().map(Val::owned).collect()
            }
            Cow::Borrowed(Value::Tuple(items)) => items.iter().map(Val::borrowed).collect(),
            // A dict iterates over its keys, a string over its characters.
            Cow::Borrowed(Value::Object(map)) => map
                .keys()
                .map(|k| Val::owned(Value::String(k.to_owned())))
                .collect(),
            Cow::Owned(Value::Object(map)) => map
                .into_iter()
                .map(|(k, _)| Val::owned(Value::String(k)))
                .collect(),
            Cow::Borrowed(Value::String(s)) => chars(s),
            Cow::Owned(Value::String(s)) => chars(&s),
            other => {
                return Err(self.error(
                    template,
                    expr,
                    format!("{} cannot be looped over", a_type(&other)),
                ));
            }
        })
    }

    /// Binds `name` (a loop variable or `set` name of the templates) in the innermost
    /// scope.
    fn bind_one(&mut self, name: &'a String, value: Val<'a>) {
        let slot = match self.slots.slot(std::ptr::from_ref(name) as usize) {
            Some(slot) => slot,
            None => {
                self.unslotted = true;
                u32::MAX
            }
        };
        self.locals.push((name, slot, value));
    }

    /// The value of the name `expr` (which is `name`): the innermost loop variable or
    /// `set` name of that name, else the context's.
    fn lookup(&self, expr: &Expr, name: &str) -> Val<'a> {
        let Some(slot) = self.slots.slot(std::ptr::from_ref(expr) as usize) else {
            return self.lookup_by_name(name);
        };
        if self.unslotted {
            return self.lookup_by_name(name);
        }
        if let Some((.., value)) = self.locals.iter().rev().find(|(_, s, _)| *s == slot) {
            return value.clone();
        }
        let Some(cell) = self.values.get(slot as usize) else {
            return self.context.get(name).map_or(Val::Undefined, Val::borrowed);
        };
        let bit = 1u64 << slot;
        let found = if self.cached.get() & bit != 0 {
            cell.get()
        } else {
            let found = self.context.get(name);
            cell.set(found);
            self.cached.set(self.cached.get() | bit);
            found
        };
        found.map_or(Val::Undefined, Val::borrowed)
    }

    fn lookup_by_name(&self, name: &str) -> Val<'a> {
        if let Some((.., value)) = self.locals.iter().rev().find(|(n, ..)| *n == name) {
            return value.clone();
        }
        match self.context.get(name) {
            Some(value) => Val::borrowed(value),
            None => Val::Undefined,
        }
    }

    /// The value of `expr`, which must be defined.
    fn defined(&self, template: &'a Template, expr: &'a Expr) -> Result<Cow<'a, Value>, Error> {
        match self.eval(template, expr)?.into_value() {
            Some(value) => Ok(value),
            None => Err(self.undefined(template, expr)),
        }
    }

    /// Writes `expr` as `{{ expr }}` prints it: straight into the output, without a
    /// copy of the value or of a filter's result.
    fn print(&mut self, template: &'a Template, expr: &'a Expr) -> Done {
        if let ExprKind::Filter(inner, filter, args) = &expr.kind
            && self.print_filtered(template, expr, inner, *filter, args)?
        {
            return Ok(());
        }
        // `value | default(literal)`, the commonest filter: the value printed where it is
        // defined, the literal otherwise (a literal cannot fail, so nothing need be
        // evaluated before the value is looked at).
        if let ExprKind::Filter(inner, Filter::Default, args) = &expr.kind
            && let []
            | [
                Expr {
                    kind: ExprKind::Literal(_),
                    ..
                },
            ] = args.as_slice()
        {
            let value = match self.eval(template, inner)? {
                Val::Undefined => match args.first() {
                    Some(Expr {
                        kind: ExprKind::Literal(fallback),
                        ..
                    }) => Val::borrowed(fallback),
                    _ => return Ok(()),
                },
                value => value,
            };
            return self.print_val(template, expr, value);
        }
        let value = self.eval(template, expr)?;
        self.print_val(template, expr, value)
    }

    /// Prints `value`, what `expr` gave, as `{{ expr }}` prints it.
    #[inline]
    fn print_val(&mut self, template: &'a Template, expr: &'a Expr, value: Val<'a>) -> Done {
        match value {
            // What Jinja2 makes undefined itself prints nothing, as there: an inline `if`
            // without `else` whose condition fails, the item before the first and after
            // the last.
            Val::Undefined if quietly_undefined(expr) => {}
            Val::Undefined => return Err(self.undefined(template, expr)),
            Val::Defined(value) => write_str(&mut self.out, &value),
            Val::Key(key) => self.out.push_str(key),
            Val::Namespace(ns) => {
                self.out.push_str("<Namespace ");
                super::value::write_repr(&mut self.out, &Value::Object(ns.borrow().clone()));
                self.out.push('>');
            }
        }
        Ok(())
    }

    /// Prints `inner | filter(args)` straight into the output where that is the common
    /// case (a string, a list of them); `false` when it is left to [`filter`](Self::filter).
    fn print_filtered(
        &mut self,
        template: &'a Template,
        whole: &'a Expr,
        inner: &'a Expr,
        filter: Filter,
        args: &'a [Expr],
    ) -> Result<bool, Error> {
        if matches!(filter, Filter::Default | Filter::Length) || filter.is_new() {
            return Ok(false);
        }
        let value = match self.eval(template, inner)?.into_value() {
            Some(value) => value,
            None => return Err(self.undefined(template, inner)),
        };
        match (filter, &*value, args) {
            (Filter::Upper, Value::String(s), _) => push_case(&mut self.out, s, true),
            (Filter::Lower, Value::String(s), _) => push_case(&mut self.out, s, false),
            (Filter::Trim, Value::String(s), []) => {
                self.out.push_str(s.trim_matches(super::lexer::py_space));
            }
            (Filter::Tojson, value, []) => write_json(&mut self.out, value),
            (Filter::Join, Value::Array(items), _) => {
                let sep = match args.first() {
                    Some(sep) => self.defined(template, sep)?,
                    None => Cow::Owned(Value::String(String::new())),
                };
                let sep = match &*sep {
                    Value::String(s) => Cow::Borrowed(s.as_str()),
                    other => {
                        let mut text = String::new();
                        write_str(&mut text, other);
                        Cow::Owned(text)
                    }
                };
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.room_for(template, whole, 0, sep.len())?;
                        self.out.push_str(&sep);
                    }
                    write_str(&mut self.out, item);
                    self.room_for(template, whole, 0, 0)?;
                }
            }
            _ => {
                let result = self.filter_value(template, whole, inner, filter, args, value)?;
                match result.into_value() {
                    Some(value) => write_str(&mut self.out, &value),
                    None => return Err(self.undefined(template, inner)),
                }
            }
        }
        Ok(true)
    }

    /// Fails unless a filter building `built` bytes may add `more`: what one filter builds
    /// counts against [`MAX_OUTPUT`] with the output so far, as it is built, so that a
    /// long list joined with a long separator stops at the limit rather than at the end
    /// of memory.
    fn room_for(&self, template: &Template, filter: &Expr, built: usize, more: usize) -> Done {
        if self.out.len().saturating_add(built).saturating_add(more) <= MAX_OUTPUT {
            return Ok(());
        }
        let message = format!(
            "this filter's result would make the render larger than {} MiB",
            MAX_OUTPUT >> 20
        );
        Err(Box::new(
            Diagnostic::new(message)
                .at(&template.source, filter.span.clone())
                .with_help("join fewer or shorter items, or use a shorter separator"),
        ))
    }

    /// Counts `n` steps of work on `expr`: an error once the render has taken more than
    /// its limit.
    fn step(&self, template: &Template, expr: &Expr, n: usize) -> Done {
        let steps = self.steps.get().saturating_add(n);
        self.steps.set(steps);
        if steps <= self.max_steps {
            return Ok(());
        }
        let message = format!("the render takes more than {} steps", self.max_steps);
        Err(Box::new(
            Diagnostic::new(message)
                .at(&template.source, expr.span.clone())
                .with_help(
                    "loops nested in loops multiply: loop over shorter lists, or fewer levels deep",
                ),
        ))
    }

    #[cold]
    fn dict_method(&self, template: &Template, expr: &Expr, attr: &str) -> Error {
        let error = self.error(
            template,
            expr,
            format!("`.{attr}` is a dict method in Jinja2, not the key `{attr}`"),
        );
        let help = format!("write `[\"{attr}\"]` to read the key");
        Box::new(error.with_help(help))
    }

    #[cold]
    fn undefined(&self, template: &Template, expr: &Expr) -> Error {
        Box::new(undefined_at(&template.source, expr.span.clone()))
    }

    /// Whether `expr` holds, as `{% if expr %}` asks: boolean operators, tests and
    /// comparisons are decided without making a value of their result.
    fn test(&self, template: &'a Template, expr: &'a Expr) -> Result<bool, Error> {
        match &expr.kind {
            ExprKind::Not(inner) => Ok(!self.test(template, inner)?),
            // `a and b` is `a` when it is false, else `b`: true when both are.
            ExprKind::And(a, b) => Ok(self.test(template, a)? && self.test(template, b)?),
            ExprKind::Or(a, b) => Ok(self.test(template, a)? || self.test(template, b)?),
            ExprKind::Test(inner, test, negated) => self.is(template, inner, *test, *negated),
            ExprKind::Compare(first, chain) => self.chain(template, expr, first, chain),
            _ => Ok(truthy_val(&self.eval(template, expr)?)),
        }
    }

    /// `inner is [not] test`.
    fn is(
        &self,
        template: &'a Template,
        inner: &'a Expr,
        test: Test,
        negated: bool,
    ) -> Result<bool, Error> {
        let value = self.eval(template, inner)?;
        let result = match (test, &value) {
            (Test::Defined, v) => !matches!(v, Val::Undefined),
            (Test::Undefined, v) => matches!(v, Val::Undefined),
            (Test::None, Val::Defined(v)) => v.is_null(),
            (Test::None, Val::Undefined | Val::Key(_) | Val::Namespace(_)) => false,
            (other, v) => {
                let value = as_value(v);
                let mut budget = self.budget();
                ops::test(other, value.as_deref(), None, &mut budget)
                    .map_err(|fail| self.fail(template, inner, &[], fail))?
            }
        };
        Ok(result != negated)
    }

    /// A comparison chain, `a < b <= c`: true when every link holds.
    fn chain(
        &self,
        template: &'a Template,
        expr: &'a Expr,
        first: &'a Expr,
        chain: &'a [(CmpOp, Expr)],
    ) -> Result<bool, Error> {
        let mut left = self.eval(template, first)?;
        for (op, right_expr) in chain {
            let right = self.eval(template, right_expr)?;
            if !self.compare(template, expr, *op, &left, &right)? {
                return Ok(false);
            }
            left = right;
        }
        Ok(true)
    }

    /// The value of `expr`. A literal, a name and `name.attr` (most of what a template
    /// reads) are read here, inline; the rest in [`eval_other`](Self::eval_other).
    #[inline]
    fn eval(&self, template: &'a Template, expr: &'a Expr) -> Result<Val<'a>, Error> {
        match &expr.kind {
            ExprKind::Literal(value) => Ok(Val::borrowed(value)),
            ExprKind::Name(name) => Ok(self.lookup(expr, name)),
            ExprKind::Attr(inner, attr) if let ExprKind::Name(name) = &inner.kind => {
                let value = match self.lookup(inner, name) {
                    Val::Defined(value) => value,
                    Val::Undefined => return Err(self.undefined(template, inner)),
                    // A key, a namespace's attribute: as `eval_other` reads them.
                    _ => return self.eval_other(template, expr),
                };
                if value.is_object() && is_dict_method(attr) {
                    return Err(self.dict_method(template, expr, attr));
                }
                Ok(member(value, Key::Attr(attr)))
            }
            _ => self.eval_other(template, expr),
        }
    }

    #[inline(never)]
    fn eval_other(&self, template: &'a Template, expr: &'a Expr) -> Result<Val<'a>, Error> {
        Ok(match &expr.kind {
            ExprKind::Literal(value) => Val::borrowed(value),
            ExprKind::MacroCall(_) => {
                return Err(self.error(template, expr, "a macro's call was not put in place"));
            }
            ExprKind::List(items) | ExprKind::Tuple(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    let value = self.defined(template, item)?;
                    // A list copies what it holds: `{% set a = [a, a] %}` doubles.
                    self.hold(template, expr, &value, 0)?;
                    values.push(value.into_owned());
                }
                Val::owned(match expr.kind {
                    ExprKind::Tuple(_) => Value::Tuple(values),
                    _ => Value::Array(values),
                })
            }
            ExprKind::Dict(entries) => self.dict(template, expr, entries)?,
            ExprKind::Name(name) => self.lookup(expr, name),
            ExprKind::Attr(inner, attr) => {
                // `name.attr`, the common case, without a call to `eval` for the name.
                let value = match &inner.kind {
                    ExprKind::Name(name) => match self.lookup(inner, name) {
                        // One attribute of a namespace, not a copy of all of it; a copy of a
                        // large one costs steps by its size.
                        Val::Namespace(ns) => {
                            let found = ns.borrow().get(attr).cloned();
                            return Ok(match found {
                                Some(value) => {
                                    let size = ops::size(&value);
                                    self.step(template, expr, size / 64)?;
                                    Val::owned(value)
                                }
                                None => Val::Undefined,
                            });
                        }
                        other => match other.into_value() {
                            Some(value) => value,
                            None => return Err(self.undefined(template, inner)),
                        },
                    },
                    _ => self.defined(template, inner)?,
                };
                if value.is_object() && is_dict_method(attr) {
                    return Err(self.dict_method(template, expr, attr));
                }
                member(value, Key::Attr(attr))
            }
            ExprKind::Item(inner, key) => {
                let value = self.defined(template, inner)?;
                let key = self.defined(template, key)?;
                member(value, Key::Item(&key))
            }
            ExprKind::Loop(attr) => {
                let Some(state) = self.loops.last() else {
                    return Ok(Val::Undefined);
                };
                let value = match attr {
                    LoopAttr::Index => Value::from(state.index0 + 1),
                    LoopAttr::Index0 => Value::from(state.index0),
                    LoopAttr::First => Value::Bool(state.index0 == 0),
                    LoopAttr::Last => Value::Bool(state.index0 + 1 == state.length),
                    LoopAttr::Length => Value::from(state.length),
                    LoopAttr::Revindex => Value::from(state.length - state.index0),
                    LoopAttr::Revindex0 => Value::from(state.length - state.index0 - 1),
                    LoopAttr::Depth => Value::from(1),
                    LoopAttr::Depth0 => Value::from(0),
                    LoopAttr::Previtem | LoopAttr::Nextitem => {
                        let (before, after) = state.neighbours.clone().unwrap_or((None, None));
                        let found = if *attr == LoopAttr::Previtem {
                            before
                        } else {
                            after
                        };
                        return Ok(found.unwrap_or(Val::Undefined));
                    }
                };
                Val::owned(value)
            }
            ExprKind::Filter(inner, filter, args) => {
                self.filter(template, expr, inner, *filter, args)?
            }
            ExprKind::Test(inner, test, negated) => {
                Val::owned(Value::Bool(self.is(template, inner, *test, *negated)?))
            }
            ExprKind::Not(inner) => Val::owned(Value::Bool(!self.test(template, inner)?)),
            // Python's `and`/`or` give one of their operands, not a boolean.
            ExprKind::And(a, b) => {
                let left = self.eval(template, a)?;
                if truthy_val(&left) {
                    self.eval(template, b)?
                } else {
                    left
                }
            }
            ExprKind::Or(a, b) => {
                let left = self.eval(template, a)?;
                if truthy_val(&left) {
                    left
                } else {
                    self.eval(template, b)?
                }
            }
            ExprKind::Compare(first, chain) => {
                Val::owned(Value::Bool(self.chain(template, expr, first, chain)?))
            }
            ExprKind::StartsWith(inner, prefix) => {
                self.starts_with(template, expr, inner, prefix)?
            }
            ExprKind::Split(inner, sep) => self.split(template, expr, inner, sep.as_deref())?,
            ExprKind::Items(inner) => {
                let value = self.defined(template, inner)?;
                let Value::Object(map) = &*value else {
                    return Err(self.error(
                        template,
                        inner,
                        format!("`.items()` needs a dict, and this is {}", a_type(&value)),
                    ));
                };
                self.charge(template, expr, ops::size(&value), map.len())?;
                Val::owned(Value::Array(
                    map.iter()
                        .map(|(k, v)| Value::Tuple(vec![Value::from(k), v.clone()]))
                        .collect(),
                ))
            }
            ExprKind::Op(op, operands) => self.op(template, expr, op, operands)?,
        })
    }

    /// `inner.startswith(prefix)`: kept out of [`eval`](Self::eval), which stays small
    /// for the expressions every template has.
    #[inline(never)]
    fn starts_with(
        &self,
        template: &'a Template,
        expr: &'a Expr,
        inner: &'a Expr,
        prefix: &'a Expr,
    ) -> Result<Val<'a>, Error> {
        Ok({
            let value = self.defined(template, inner)?;
            let prefix = self.defined(template, prefix)?;
            match (&*value, &*prefix) {
                (Value::String(s), Value::String(p)) => {
                    Val::owned(Value::Bool(s.starts_with(p.as_str())))
                }
                (Value::String(_), other) => {
                    return Err(self.error(
                        template,
                        expr,
                        format!("`.startswith` needs a string, not {}", a_type(other)),
                    ));
                }
                (other, _) => {
                    return Err(self.error(
                        template,
                        expr,
                        format!("{} has no `.startswith`", a_type(other)),
                    ));
                }
            }
        })
    }

    /// `inner.split(sep)` or `inner.split()`, out of [`eval`](Self::eval) too.
    #[inline(never)]
    fn split(
        &self,
        template: &'a Template,
        expr: &'a Expr,
        inner: &'a Expr,
        sep: Option<&'a Expr>,
    ) -> Result<Val<'a>, Error> {
        Ok({
            let value = self.defined(template, inner)?;
            let Value::String(s) = &*value else {
                return Err(self.error(
                    template,
                    expr,
                    format!("{} has no `.split`", a_type(&value)),
                ));
            };
            let pieces: Vec<Value> = match sep {
                None => ops::split(s, None).map(Value::from).collect(),
                Some(sep_expr) => {
                    let sep = self.defined(template, sep_expr)?;
                    match &*sep {
                        Value::String(sep) if !sep.is_empty() => {
                            ops::split(s, Some(sep)).map(Value::from).collect()
                        }
                        Value::String(_) => {
                            return Err(self.error(
                                template,
                                sep_expr,
                                "`.split` needs a separator that is not empty",
                            ));
                        }
                        Value::Null => ops::split(s, None).map(Value::from).collect(),
                        other => {
                            return Err(self.error(
                                template,
                                sep_expr,
                                format!("`.split` needs a string, not {}", a_type(other)),
                            ));
                        }
                    }
                }
            };
            Val::owned(Value::Array(pieces))
        })
    }

    /// Counts `value`, copied into a list or dict literal at `expr` with `extra` bytes
    /// of key, against what the render may build; refuses one that would nest deeper
    /// than values may.
    fn hold(&self, template: &Template, expr: &Expr, value: &Value, extra: usize) -> Done {
        let (what, built_what) = if matches!(expr.kind, ExprKind::Dict(_)) {
            ("dict", "lists and dicts")
        } else {
            ("list", "lists")
        };
        let Some(size) = value::footprint(value, value::MAX_DEPTH - 1) else {
            return Err(self.error(
                template,
                expr,
                format!("this {what} would nest more than {} deep", value::MAX_DEPTH),
            ));
        };
        let built = self.built.get().saturating_add(size).saturating_add(extra);
        self.built.set(built);
        if built > MAX_OUTPUT {
            return Err(self.error(
                template,
                expr,
                format!(
                    "the {built_what} this render builds hold more than {} MiB",
                    MAX_OUTPUT >> 20
                ),
            ));
        }
        Ok(())
    }

    /// A dict literal: each key, then its value, evaluated in order, as Python does; a
    /// key written again keeps its first place and takes the last value.
    #[inline(never)]
    fn dict(
        &self,
        template: &'a Template,
        expr: &'a Expr,
        entries: &'a [(Expr, Expr)],
    ) -> Result<Val<'a>, Error> {
        let mut map = Map::with_capacity(entries.len());
        for (key_expr, value_expr) in entries {
            let key = match self.defined(template, key_expr)? {
                Cow::Owned(Value::String(key)) => key,
                Cow::Borrowed(Value::String(key)) => key.clone(),
                other => {
                    return Err(Box::new(
                        Diagnostic::new(format!(
                            "a dict literal's keys must be strings here, and this is {}",
                            a_type(&other)
                        ))
                        .at(&template.source, key_expr.span.clone())
                        .with_note("promptic's dicts are keyed by text: make the key a string"),
                    ));
                }
            };
            let value = self.defined(template, value_expr)?;
            self.hold(template, expr, &value, key.len())?;
            map.insert(key, value.into_owned());
        }
        Ok(Val::owned(Value::Object(map)))
    }

    /// A `{% filter %}` block: its body rendered in a scope of its own (a `set` inside
    /// stays inside, and the filters' arguments see it, as in Jinja2), then its text
    /// through the filters, which must give text.
    #[inline(never)]
    fn filter_block(&mut self, template: &'a Template, block: &'a FilterBlock) -> Done {
        let start = self.out.len();
        let (outer, scope) = (self.frame, self.locals.len());
        self.frame = scope;
        let result = match self.nodes(template, &block.body) {
            // The body's last node may have passed the limit: its text goes no further.
            Ok(()) if self.out.len() > MAX_OUTPUT => {
                Err(self.too_much(template, &Node::Text(block.span.clone())))
            }
            Ok(()) => {
                let text = self.out.split_off(start);
                self.block_filters(template, block, text)
            }
            Err(e) => Err(e),
        };
        self.locals.truncate(scope);
        self.frame = outer;
        let value = result?;
        match &block.into {
            // `{% set name %}…{% endset %}`: bound as `{% set name = value %}` binds.
            Some(name) => {
                let scope = &mut self.locals[self.frame..];
                let value = Val::owned(value);
                match scope.iter_mut().find(|(n, ..)| *n == name.as_str()) {
                    Some(local) => local.2 = value,
                    None => self.bind_one(name, value),
                }
            }
            None => match value {
                Value::String(text) => self.out.push_str(&text),
                other => {
                    return Err(self.error(
                        template,
                        &block.filters,
                        format!(
                            "`{{% filter %}}` must give text, and these filters give {}",
                            a_type(&other)
                        ),
                    ));
                }
            },
        }
        Ok(())
    }

    /// The filters of `block` on the text its body rendered, innermost first.
    /// `default`'s arguments, evaluated: the fallback (empty text when none is given) and
    /// whether a value that is there but false takes it too.
    fn default_args(
        &self,
        template: &'a Template,
        args: &'a [Expr],
    ) -> Result<(Val<'a>, bool), Error> {
        let fallback = match args.first() {
            Some(fallback) => self.eval(template, fallback)?,
            None => Val::owned(Value::String(String::new())),
        };
        let boolean = match args.get(1) {
            Some(flag) => self.test(template, flag)?,
            None => false,
        };
        Ok((fallback, boolean))
    }

    fn block_filters(
        &self,
        template: &'a Template,
        block: &'a FilterBlock,
        text: String,
    ) -> Result<Value, Error> {
        let mut chain = Vec::new();
        let mut at = &block.filters;
        while let ExprKind::Filter(inner, filter, args) = &at.kind {
            chain.push((at, &**inner, *filter, args.as_slice()));
            at = inner;
        }
        let mut value: Cow<'a, Value> = Cow::Owned(Value::String(text));
        for (whole, inner, filter, args) in chain.into_iter().rev() {
            let result = if filter == Filter::Default {
                let (fallback, boolean) = self.default_args(template, args)?;
                if boolean && !truthy(&value) {
                    fallback
                } else {
                    Val::Defined(value)
                }
            } else {
                self.filter_value(template, whole, inner, filter, args, value)?
            };
            value = match result.into_value() {
                Some(value) => value,
                None => {
                    return Err(self.error(
                        template,
                        whole,
                        if block.into.is_some() {
                            "this filter gives nothing here, and `{% set %}` must give a value"
                        } else {
                            "this filter gives nothing here, and `{% filter %}` must give text"
                        },
                    ));
                }
            };
        }
        Ok(value.into_owned())
    }

    fn compare(
        &self,
        template: &Template,
        expr: &Expr,
        op: CmpOp,
        left: &Val<'a>,
        right: &Val<'a>,
    ) -> Result<bool, Error> {
        let (l, r) = match (as_value(left), as_value(right)) {
            (Some(l), Some(r)) => (l, r),
            // Jinja2's undefined equals only another undefined, and is in nothing and
            // holds nothing; ordering it is an error there too.
            _ => {
                let both = matches!((left, right), (Val::Undefined, Val::Undefined));
                return match op {
                    CmpOp::Eq => Ok(both),
                    CmpOp::Ne => Ok(!both),
                    CmpOp::In => Ok(false),
                    CmpOp::NotIn => Ok(true),
                    _ => {
                        Err(self.error(template, expr, "cannot order a value that is not defined"))
                    }
                };
            }
        };
        let (l, r) = (&*l, &*r);
        let ordered = |want: fn(Ordering) -> bool| match order(l, r) {
            Some(o) => Ok(want(o)),
            None => Err(self.error(
                template,
                expr,
                format!("cannot order {} and {}", a_type(l), a_type(r)),
            )),
        };
        let within = |needle: &Value, haystack: &Value| {
            // Each item a list holds is looked at; a text is searched faster.
            let looks = match haystack {
                Value::Array(items) => items.len(),
                Value::String(text) => text.len() / 64,
                _ => 1,
            };
            self.step(template, expr, looks)?;
            contains(haystack, needle).ok_or_else(|| {
                self.error(
                    template,
                    expr,
                    format!("cannot look for {} in {}", a_type(needle), a_type(haystack)),
                )
            })
        };
        match op {
            CmpOp::Eq => Ok(equal(l, r)),
            CmpOp::Ne => Ok(!equal(l, r)),
            CmpOp::Lt => ordered(Ordering::is_lt),
            CmpOp::Le => ordered(Ordering::is_le),
            CmpOp::Gt => ordered(Ordering::is_gt),
            CmpOp::Ge => ordered(Ordering::is_ge),
            CmpOp::In => within(l, r),
            CmpOp::NotIn => within(l, r).map(|found| !found),
        }
    }

    fn filter(
        &self,
        template: &'a Template,
        whole: &Expr,
        inner: &'a Expr,
        filter: Filter,
        args: &'a [Expr],
    ) -> Result<Val<'a>, Error> {
        if filter == Filter::Default {
            let value = self.eval(template, inner)?;
            // Python evaluates a call's arguments first: a fallback that fails fails even
            // when the value is there.
            let (fallback, boolean) = self.default_args(template, args)?;
            let use_default = match &value {
                Val::Undefined => true,
                Val::Defined(v) => boolean && !truthy(v),
                Val::Key(k) => boolean && k.is_empty(),
                Val::Namespace(_) => false,
            };
            return Ok(if use_default { fallback } else { value });
        }
        let value = self.defined(template, inner)?;
        self.filter_value(template, whole, inner, filter, args, value)
    }

    /// What an operation may still build and take: the render's limits less what it has
    /// used.
    fn budget(&self) -> Budget {
        Budget {
            bytes: MAX_OUTPUT.saturating_sub(self.out.len().saturating_add(self.built.get())),
            steps: self.max_steps.saturating_sub(self.steps.get()),
        }
    }

    /// Counts what an operation used of `start`, leaving `end`: its steps, and its bytes
    /// when what it made is kept as a value (a list), as the lists a template builds are.
    fn settle(&self, start: &Budget, end: &Budget, kept: bool) {
        self.steps
            .set(self.steps.get().saturating_add(start.steps - end.steps));
        if kept {
            self.built
                .set(self.built.get().saturating_add(start.bytes - end.bytes));
        }
    }

    /// Takes `bytes` and `steps` for a list made at `expr`, or fails at it.
    fn charge(&self, template: &Template, expr: &Expr, bytes: usize, steps: usize) -> Done {
        let start = self.budget();
        let mut end = self.budget();
        end.bytes(bytes)
            .and_then(|()| end.steps(steps))
            .map_err(|fail| self.fail(template, expr, &[], fail))?;
        self.settle(&start, &end, true);
        Ok(())
    }

    /// An operation's failure as an error at `expr`, or at the argument it names (of
    /// `args`).
    #[cold]
    fn fail(&self, template: &Template, expr: &Expr, args: &[Expr], fail: Fail) -> Error {
        let spans: Vec<Range<usize>> = args.iter().map(|a| a.span.clone()).collect();
        Box::new(failed_at(
            &template.source,
            expr.span.clone(),
            &spans,
            fail,
            self.max_steps,
        ))
    }

    /// Counts a value a namespace keeps against what the render may build, and refuses
    /// one that nests deeper than values may.
    fn keep(&self, template: &Template, expr: &Expr, value: &Value) -> Done {
        let Some(size) = value::footprint(value, value::MAX_DEPTH - 1) else {
            return Err(self.deep(template, expr));
        };
        self.charge(template, expr, size, 0)
    }

    #[cold]
    fn deep(&self, template: &Template, expr: &Expr) -> Error {
        self.error(template, expr, too_deep())
    }

    /// An [`Op`] on its operands.
    #[inline(never)]
    fn op(
        &self,
        template: &'a Template,
        expr: &'a Expr,
        op: &'a Op,
        operands: &'a [Expr],
    ) -> Result<Val<'a>, Error> {
        match op {
            Op::IfElse => {
                return if self.test(template, &operands[0])? {
                    self.eval(template, &operands[1])
                } else {
                    operands
                        .get(2)
                        .map_or(Ok(Val::Undefined), |e| self.eval(template, e))
                };
            }
            Op::Is(test, negated) => {
                let value = self.eval(template, &operands[0])?;
                let arg = match operands.get(1) {
                    Some(e) => Some(self.defined(template, e)?),
                    None => None,
                };
                let subject = as_value(&value);
                let start = self.budget();
                let mut budget = self.budget();
                let holds = ops::test(*test, subject.as_deref(), arg.as_deref(), &mut budget)
                    .map_err(|fail| self.fail(template, expr, &operands[1..], fail))?;
                self.settle(&start, &budget, false);
                return Ok(Val::owned(Value::Bool(holds != *negated)));
            }
            Op::Cycle => {
                let Some(state) = self.loops.last() else {
                    return Ok(Val::Undefined);
                };
                return self.eval(template, &operands[state.index0 % operands.len()]);
            }
            Op::Namespace(names) => {
                let mut map = super::data::Map::new();
                for (name, operand) in names.iter().zip(operands) {
                    let value = self.defined(template, operand)?.into_owned();
                    self.keep(template, operand, &value)?;
                    map.insert(name.clone(), value);
                }
                return Ok(Val::Namespace(Rc::new(RefCell::new(map))));
            }
            _ => {}
        }
        let mut values = Vec::with_capacity(operands.len());
        for operand in operands {
            values.push(self.defined(template, operand)?);
        }
        let start = self.budget();
        let mut budget = self.budget();
        let result = match op {
            Op::Binary(bin) => ops::binary(*bin, &values[0], &values[1], &mut budget),
            Op::Neg => ops::sign(&values[0], true),
            Op::Pos => ops::sign(&values[0], false),
            Op::Slice => ops::slice(&values[0], &values[1], &values[2], &values[3], &mut budget),
            Op::Method(method) => {
                let args: Vec<Value> = values[1..].iter().map(|v| v.as_ref().clone()).collect();
                ops::method(*method, &values[0], &args, &mut budget)
            }
            Op::Range => range(&values, &mut budget),
            Op::IfElse | Op::Is(..) | Op::Cycle | Op::Namespace(_) => Ok(Value::Null),
        };
        let args = match op {
            Op::Method(_) | Op::Slice => &operands[1..],
            _ => operands,
        };
        let value = result.map_err(|fail| self.fail(template, expr, args, fail))?;
        let kept = matches!(value, Value::Array(_) | Value::Tuple(_));
        self.settle(&start, &budget, kept);
        if kept && value::footprint(&value, value::MAX_DEPTH).is_none() {
            return Err(self.deep(template, expr));
        }
        Ok(Val::owned(value))
    }

    /// A filter that is not one of the first seven (or `join` by an attribute), on the
    /// defined `value`: its arguments evaluated, then [`super::filters::apply`].
    #[inline(never)]
    fn new_filter(
        &self,
        template: &'a Template,
        whole: &Expr,
        filter: Filter,
        args: &'a [Expr],
        value: Cow<'a, Value>,
    ) -> Result<Val<'a>, Error> {
        let mut given = Vec::with_capacity(args.len());
        for arg in args {
            given.push(self.defined(template, arg)?.into_owned());
        }
        let start = self.budget();
        let mut budget = self.budget();
        let result = super::filters::apply(filter, &value, &given, &mut budget)
            .map_err(|fail| self.fail(template, whole, args, fail))?;
        let kept = matches!(result, Some(Value::Array(_) | Value::Tuple(_)));
        self.settle(&start, &budget, kept);
        if let Some(made) = &result
            && kept
            && value::footprint(made, value::MAX_DEPTH).is_none()
        {
            return Err(self.deep(template, whole));
        }
        Ok(result.map_or(Val::Undefined, Val::owned))
    }

    /// A filter other than `default` applied to the defined `value` of `inner`.
    fn filter_value(
        &self,
        template: &'a Template,
        whole: &Expr,
        inner: &'a Expr,
        filter: Filter,
        args: &'a [Expr],
        value: Cow<'a, Value>,
    ) -> Result<Val<'a>, Error> {
        let text = |value: &Value| {
            let mut s = String::new();
            write_str(&mut s, value);
            s
        };
        if filter.is_new()
            || (filter == Filter::Join && args.len() > 1)
            || (filter == Filter::Tojson && !args.is_empty())
        {
            return self.new_filter(template, whole, filter, args, value);
        }
        Ok(Val::owned(match filter {
            Filter::Default => unreachable_default(),
            Filter::Upper => Value::String(text(&value).to_uppercase()),
            Filter::Lower => Value::String(text(&value).to_lowercase()),
            Filter::Trim => {
                let s = text(&value);
                match args.first() {
                    None => Value::String(s.trim_matches(super::lexer::py_space).to_owned()),
                    Some(chars_expr) => {
                        let chars = self.defined(template, chars_expr)?;
                        let set: Vec<char> = match &*chars {
                            Value::String(c) => c.chars().collect(),
                            Value::Null => {
                                return Ok(Val::owned(Value::String(
                                    s.trim_matches(super::lexer::py_space).to_owned(),
                                )));
                            }
                            other => {
                                return Err(self.error(
                                    template,
                                    chars_expr,
                                    format!(
                                        "`trim` needs a string of characters, not {}",
                                        a_type(other)
                                    ),
                                ));
                            }
                        };
                        Value::String(s.trim_matches(|c| set.contains(&c)).to_owned())
                    }
                }
            }
            Filter::Length => Value::from(match &*value {
                Value::String(s) => s.chars().count(),
                Value::Array(a) | Value::Tuple(a) => a.len(),
                Value::Object(m) => m.len(),
                other => {
                    return Err(self.error(
                        template,
                        whole,
                        format!("{} has no length", a_type(other)),
                    ));
                }
            }),
            Filter::Join => {
                let sep = match args.first() {
                    Some(sep) => text(&*self.defined(template, sep)?),
                    None => String::new(),
                };
                let items = self.iterate(template, inner, value)?;
                let mut out = String::new();
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.room_for(template, whole, out.len(), sep.len())?;
                        out.push_str(&sep);
                    }
                    if let Val::Defined(v) = item {
                        write_str(&mut out, v);
                    }
                    self.room_for(template, whole, out.len(), 0)?;
                }
                Value::String(out)
            }
            Filter::Tojson => {
                let mut out = String::new();
                write_json(&mut out, &value);
                Value::String(out)
            }
            _ => return self.new_filter(template, whole, filter, args, value),
        }))
    }
}

/// Whether `expr` is undefined by Jinja2's own making when it is, not for a value that
/// was not given.
fn quietly_undefined(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Loop(LoopAttr::Previtem | LoopAttr::Nextitem) => true,
        ExprKind::Op(Op::IfElse, operands) => operands.len() == 2,
        _ => false,
    }
}

/// `range(stop)` or `range(start, stop[, step])`, as a list.
pub(super) fn range(args: &[Cow<'_, Value>], budget: &mut Budget) -> Result<Value, Fail> {
    let mut ints = Vec::with_capacity(args.len());
    for (i, arg) in args.iter().enumerate() {
        match &**arg {
            Value::Bool(b) => ints.push(i128::from(*b)),
            Value::Number(n) if !n.is_f64() => match n.as_i128() {
                Some(v) => ints.push(v),
                None => return Err(Fail::Arg(i, "this integer is too large for a range".into())),
            },
            other => {
                return Err(Fail::Arg(
                    i,
                    format!("`range` takes integers, not {}", a_type(other)),
                ));
            }
        }
    }
    let (start, stop, step) = match ints.as_slice() {
        [stop] => (0, *stop, 1),
        [start, stop] => (*start, *stop, 1),
        [start, stop, step] => (*start, *stop, *step),
        _ => return Err(Fail::Here("`range` takes one to three integers".into())),
    };
    if step == 0 {
        return Err(Fail::Arg(2, "range() arg 3 must not be zero".into()));
    }
    let span = if step > 0 { stop - start } else { start - stop };
    let len = if span <= 0 {
        0
    } else {
        (span - 1) / step.abs() + 1
    };
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    budget.steps(len)?;
    budget.bytes(len.saturating_mul(std::mem::size_of::<Value>()))?;
    Ok(Value::Array(
        (0..len)
            .map(|i| Value::from(start + step * i as i128))
            .collect(),
    ))
}

/// Whether `nodes` (the body of a loop) read `loop.previtem` or `loop.nextitem` of that
/// loop (a loop inside has its own).
pub(super) fn reads_neighbours(nodes: &[Node]) -> bool {
    let reads = |e: &Expr| {
        let mut found = false;
        super::expr::visit(e, &mut |e| {
            found |= matches!(
                e.kind,
                ExprKind::Loop(LoopAttr::Previtem | LoopAttr::Nextitem)
            );
        });
        found
    };
    nodes.iter().any(|node| match node {
        Node::Text(_) | Node::Include { .. } | Node::Super(_) => false,
        Node::Output(e) | Node::Set { value: e, .. } | Node::SetAttr { value: e, .. } => reads(e),
        Node::Scope(scope) => {
            scope.binds.iter().any(|(_, e)| reads(e)) || reads_neighbours(&scope.nodes)
        }
        Node::If(block) => {
            block
                .branches
                .iter()
                .any(|(c, body)| reads(c) || reads_neighbours(body))
                || block
                    .otherwise
                    .as_ref()
                    .is_some_and(|(_, body)| reads_neighbours(body))
        }
        Node::For(each) => reads(&each.iter),
        Node::FilterBlock(block) => reads(&block.filters) || reads_neighbours(&block.body),
    })
}

fn unreachable_default() -> Value {
    // `default` returned above; kept total rather than panicking.
    Value::Null
}

/// A value as a `Value`, borrowed where it is one (a key is copied into a string).
fn as_value<'v>(value: &'v Val<'_>) -> Option<Cow<'v, Value>> {
    match value {
        Val::Undefined => None,
        Val::Defined(v) => Some(Cow::Borrowed(&**v)),
        Val::Key(k) => Some(Cow::Owned(Value::String((*k).to_owned()))),
        Val::Namespace(ns) => Some(Cow::Owned(Value::Object(ns.borrow().clone()))),
    }
}

fn truthy_val(value: &Val<'_>) -> bool {
    match value {
        Val::Undefined => false,
        Val::Defined(v) => truthy(v),
        Val::Key(k) => !k.is_empty(),
        Val::Namespace(_) => true,
    }
}

fn chars<'a>(s: &str) -> Vec<Val<'a>> {
    s.chars()
        .map(|c| Val::owned(Value::String(c.to_string())))
        .collect()
}

/// What `a.b` or `a[b]` asks of `a`.
#[derive(Clone, Copy)]
pub(super) enum Key<'k> {
    Attr(&'k str),
    Item(&'k Value),
}

/// Dict methods: Jinja2 gives these for `d.items` and the like before any key of that
/// name, so promptic refuses to read a key that way.
pub(crate) const DICT_METHODS: [&str; 11] = [
    "clear",
    "copy",
    "fromkeys",
    "get",
    "items",
    "keys",
    "pop",
    "popitem",
    "setdefault",
    "update",
    "values",
];

/// `s.to_uppercase()` or `s.to_lowercase()`, appended without a `String` of its own:
/// runs of ASCII are copied and cased in place, other characters mapped one by one (as
/// `str::to_uppercase` maps them).
pub(super) fn push_case(out: &mut String, s: &str, upper: bool) {
    let start = out.len();
    if s.is_ascii() {
        // The common case: one copy, cased in place (`is_ascii` reads a word at a time).
        push_ascii_cased(out, s, upper);
        return;
    }
    let mut rest = s;
    while !rest.is_empty() {
        let ascii = rest
            .bytes()
            .position(|b| !b.is_ascii())
            .unwrap_or(rest.len());
        let (run, tail) = rest.split_at(ascii);
        if !run.is_empty() {
            push_ascii_cased(out, run, upper);
        }
        let mut chars = tail.chars();
        let Some(c) = chars.next() else { break };
        if upper {
            out.extend(c.to_uppercase());
        } else if c == 'Σ' {
            // A capital sigma lowers by its context (final or not):
            // `str::to_lowercase` knows the rule.
            out.truncate(start);
            out.push_str(&s.to_lowercase());
            return;
        } else {
            out.extend(c.to_lowercase());
        }
        rest = chars.as_str();
    }
}

/// Appends `run`, which is ASCII, cased in place after one copy.
fn push_ascii_cased(out: &mut String, run: &str, upper: bool) {
    let at = out.len();
    out.push_str(run);
    if let Some(added) = out.get_mut(at..) {
        if upper {
            added.make_ascii_uppercase();
        } else {
            added.make_ascii_lowercase();
        }
    }
}

/// Whether `name` is one of [`DICT_METHODS`] (a `match`, not a scan: it is asked at
/// every attribute read from a dict).
#[inline]
fn is_dict_method(name: &str) -> bool {
    // Most keys read are no method: told by their first byte, inline.
    matches!(
        name.as_bytes().first(),
        Some(b'c' | b'f' | b'g' | b'i' | b'k' | b'p' | b's' | b'u' | b'v')
    ) && is_dict_method_name(name)
}

fn is_dict_method_name(name: &str) -> bool {
    matches!(
        name,
        "clear"
            | "copy"
            | "fromkeys"
            | "get"
            | "items"
            | "keys"
            | "pop"
            | "popitem"
            | "setdefault"
            | "update"
            | "values"
    )
}

/// `value.attr` or `value[key]` as Jinja2's `getattr`/`getitem`: a dict's key, a list's
/// index (negative from the end); anything else is not defined.
pub(super) fn child<'v>(value: &'v Value, key: Key<'_>) -> Option<&'v Value> {
    match (value, key) {
        (Value::Object(map), Key::Attr(k)) => map.get(k),
        (Value::Object(map), Key::Item(Value::String(k))) => map.get(k.as_str()),
        (Value::Array(items) | Value::Tuple(items), Key::Item(Value::Number(n))) => {
            let i = n.as_i64()?;
            let len = i64::try_from(items.len()).ok()?;
            let at = if i < 0 { i + len } else { i };
            items.get(usize::try_from(at).ok()?)
        }
        (Value::Array(items) | Value::Tuple(items), Key::Item(Value::Bool(b))) => {
            items.get(usize::from(*b))
        }
        // A pair `groupby` made: its `grouper` and its `list`.
        (Value::Tuple(items), Key::Attr("grouper")) if items.len() == 2 => items.first(),
        (Value::Tuple(items), Key::Attr("list")) if items.len() == 2 => items.get(1),
        _ => None,
    }
}

/// A string's character by index (`s[0]`, `s[-1]`), as Python gives it.
pub(super) fn char_at(s: &str, key: Key<'_>) -> Option<Value> {
    let Key::Item(Value::Number(n)) = key else {
        return None;
    };
    let i = n.as_i64()?;
    let len = i64::try_from(s.chars().count()).ok()?;
    let at = usize::try_from(if i < 0 { i + len } else { i }).ok()?;
    s.chars().nth(at).map(|c| Value::String(c.to_string()))
}

/// A member of a borrowed or owned value, borrowed or owned alike.
fn member<'a>(value: Cow<'a, Value>, key: Key<'_>) -> Val<'a> {
    if let Value::String(s) = &*value {
        return char_at(s, key).map_or(Val::Undefined, Val::owned);
    }
    match value {
        Cow::Borrowed(v) => child(v, key).map_or(Val::Undefined, Val::borrowed),
        Cow::Owned(v) => child(&v, key).map_or(Val::Undefined, |found| Val::owned(found.clone())),
    }
}

/// The error for `span` of `source`, a value that is not defined where it must be
/// (shared with the compiled render, which makes it in place).
#[cold]
pub(super) fn undefined_at(source: &SourceFile, span: Range<usize>) -> Diagnostic {
    let written = source
        .text()
        .get(span.clone())
        .unwrap_or_default()
        .to_owned();
    Diagnostic::new(format!("`{written}` is not defined"))
        .at(source, span)
        .with_help(format!(
            "give it a value, or write `{written} | default(…)` to make it optional"
        ))
}

/// The error for an operation at `span` of `source` that failed (`args`: the spans of
/// its arguments, which [`Fail::Arg`] counts), with the render's step bound `max_steps`
/// (shared with the compiled render).
#[cold]
pub(super) fn failed_at(
    source: &SourceFile,
    span: Range<usize>,
    args: &[Range<usize>],
    fail: Fail,
    max_steps: usize,
) -> Diagnostic {
    let (at, message, help) = match fail {
        Fail::Here(message) => (span, message, None),
        Fail::Arg(i, message) => (args.get(i).cloned().unwrap_or(span), message, None),
        Fail::Large => (
            span,
            format!(
                "this would make what the render builds larger than {} MiB",
                MAX_OUTPUT >> 20
            ),
            Some("work on shorter values, or fewer of them"),
        ),
        Fail::Long => (
            span,
            format!("the render takes more than {max_steps} steps"),
            Some("loops nested in loops multiply: loop over shorter lists, or fewer levels deep"),
        ),
    };
    let error = Diagnostic::new(message).at(source, at);
    match help {
        Some(help) => error.with_help(help),
        None => error,
    }
}

/// The message for a value that would nest deeper than values may.
pub(super) fn too_deep() -> String {
    format!("this value would nest more than {} deep", value::MAX_DEPTH)
}

#[cfg(test)]
mod dict_methods {
    #[test]
    fn the_match_and_the_list_agree() {
        assert!(super::DICT_METHODS.iter().all(|m| super::is_dict_method(m)));
        assert!(
            !["name", "item", "value", "", "keys_"]
                .iter()
                .any(|m| super::is_dict_method(m))
        );
    }
}
