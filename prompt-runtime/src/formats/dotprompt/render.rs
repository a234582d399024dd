//! Renders a parsed body against the input, the context's `@` data and the partials.
//!
//! Output is a list of [`Piece`]s: text, and the markers dotprompt's helpers leave (role,
//! history, media, section; and promptic's cache breakpoint). dotprompt writes those markers into the text and finds them
//! again with regular expressions; keeping them apart means a value in the input can never
//! forge a message boundary, while every template renders as dotprompt renders it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use super::ast::{Block, BlockKind, Expr, HelperCall, HelperName, Node, PartialCall, Path, Span};
use super::helpers::{Helper, HelperArgs};
use super::value::{Object, Value, js_number};
use super::{MAX_DEPTH, MAX_STEPS, PartialTemplate};
use crate::diagnostic::{Diagnostic, SourceFile};

/// Rendered output before it is cut into messages.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Piece {
    Text(String),
    Role(String),
    /// `{{role}}` with a name that is not lowercase letters.
    BadRole(String),
    History,
    Media {
        url: String,
        content_type: Option<String>,
    },
    Section(String),
    /// `{{cacheBreakpoint}}`: the cacheable prefix ends here. It writes nothing.
    Breakpoint,
}

/// A body's value while it is only numbers and booleans: one value, or their sum.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub enum Prim {
    Value(Value),
    Sum(f64),
}

impl Prim {
    pub(crate) fn number(&self) -> f64 {
        match self {
            Prim::Value(Value::Bool(b)) => f64::from(u8::from(*b)),
            Prim::Value(v) => v.as_f64().unwrap_or(0.0),
            Prim::Sum(f) => *f,
        }
    }

    pub(crate) fn text(&self) -> String {
        match self {
            Prim::Value(v) => v.to_js_string(),
            Prim::Sum(f) if f.is_nan() => "NaN".to_owned(),
            Prim::Sum(f) if f.is_infinite() => {
                if *f > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
            }
            Prim::Sum(f) => crate::value::js::number(*f).to_js_string(),
        }
    }
}

/// The `@` variables of one loop iteration.
#[derive(Clone)]
struct Loop {
    index: usize,
    key: Option<String>,
    first: bool,
    last: bool,
}

/// The data frame: the context's `@` variables, `@root`, `@metadata`, and the innermost
/// loop's variables.
struct Data<'s> {
    root: This<'s>,
    context: &'s Object,
    metadata: &'s Value,
    looping: Option<Loop>,
}

/// The context stack: `this`, and the enclosing contexts `../` reaches.
#[derive(Clone)]
struct Scope<'s> {
    this: This<'s>,
    /// A partial's `key=value` arguments over `this` (an object): read first, without
    /// copying the context (Handlebars copies it: `extend({}, context, hash)`). `None` is
    /// an argument whose value is undefined: it hides the context's key.
    overlay: Option<&'s Overlay>,
    parent: Option<&'s Scope<'s>>,
    /// A null `this` reads as an empty object here: see [`helper_scope`].
    null_is_empty: bool,
}

/// A partial's arguments, `None` where a value is undefined.
type Overlay = crate::value::ordered::Map<Option<Value>>;

/// What `if`, `unless`, `ifEquals`, `unlessEquals`, and the `{{else}}` of `with` and
/// `each`, render their branch with: the same context (no new `../` level), but a null
/// one is an empty object, as Handlebars passes `this` to a helper
/// (`depth0 != null ? depth0 : nullContext`).
/// `../` still reaches the null context (Handlebars does not push the stand-in).
fn helper_scope<'a, 's>(scope: &'a Scope<'s>) -> Cow<'a, Scope<'s>> {
    if scope.this.is_null() && scope.overlay.is_none() && !scope.null_is_empty {
        Cow::Owned(Scope {
            null_is_empty: true,
            ..scope.clone()
        })
    } else {
        Cow::Borrowed(scope)
    }
}

/// `null`, where a context that is `undefined` must be handed over as a value.
static NULL: Value = Value::Null;

/// Handlebars' `nullContext`.
static EMPTY: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| Value::Object(Object::new()));

impl<'s> Scope<'s> {
    /// `this` as read here (not through `../`).
    fn this(&self) -> This<'s> {
        if self.null_is_empty && self.this.is_null() {
            This::Value(&EMPTY)
        } else {
            self.this
        }
    }
}

/// What a render reads as its input: one value, or the data argument's input object read
/// where it is (when nothing in the template reaches it whole).
pub(crate) enum Input<'a> {
    Value(&'a Value),
    InPlace(&'a Object),
}

/// A context: a value, or the render's input read in place. The input is an object the
/// data argument holds, not a value; a template that may reach it whole (`this`, `@root`,
/// a helper registered from Rust) is given it as one value ([`Input::Value`]), so this one
/// is never made whole in practice: were it, it would be a copy (at most one per render),
/// not the input itself.
#[derive(Clone, Copy)]
enum This<'s> {
    Value(&'s Value),
    Input(&'s Object, &'s std::cell::OnceCell<Value>),
    /// JavaScript's `undefined`: a partial's context that is not there (`{{> p missing}}`).
    Undefined,
}

impl<'s> This<'s> {
    /// The context as one value (`undefined` as `null`, for a helper registered from
    /// Rust, which is handed a value).
    fn value(self) -> &'s Value {
        match self {
            This::Value(value) => value,
            This::Input(input, whole) => whole.get_or_init(|| Value::Object(input.clone())),
            This::Undefined => &NULL,
        }
    }

    /// `null` or `undefined`: what Handlebars hands a helper as an empty object.
    fn is_null(self) -> bool {
        matches!(self, This::Value(Value::Null) | This::Undefined)
    }

    fn as_object(self) -> Option<&'s Object> {
        match self {
            This::Value(value) => value.as_object(),
            This::Input(input, _) => Some(input),
            This::Undefined => None,
        }
    }

    /// Whether `value` is this very context (not a copy of it).
    fn is(self, value: &Value) -> bool {
        match self {
            This::Value(this) => std::ptr::eq(this, value),
            This::Input(_, whole) => whole.get().is_some_and(|this| std::ptr::eq(this, value)),
            This::Undefined => false,
        }
    }

    /// Whether `value` is this context as Handlebars tells a block's context from the one
    /// around it (`context != depths[0]`, JavaScript's `==`): the very same value, or one
    /// equal to it by `==` (two objects only when they are the same one).
    fn equals(self, value: &Value) -> bool {
        self.is(value)
            || match self {
                This::Value(this) => this.loose_equals(value),
                // The input is an object: equal only to a text that reads `[object Object]`.
                This::Input(..) => matches!(value, Value::String(s) if s == "[object Object]"),
                This::Undefined => matches!(value, Value::Null),
            }
    }

    /// The value `parts` reads from here: the first part of the input read in place, the
    /// rest left to the caller; no part, the context whole.
    fn start<'p>(self, parts: &'p [String]) -> Option<(Cow<'s, Value>, &'p [String])> {
        match (self, parts.split_first()) {
            (This::Undefined, _) => None,
            (This::Input(input, _), Some((first, rest))) => {
                Some((Cow::Borrowed(input.get(first)?), rest))
            }
            _ => Some((Cow::Borrowed(self.value()), parts)),
        }
    }
}

pub(crate) struct Renderer<'r> {
    pub partials: &'r HashMap<String, Arc<PartialTemplate>>,
    pub helpers: &'r HashMap<String, Helper>,
    pub limit: usize,
    /// Nodes rendered and bodies entered so far: a render that produces little but loops
    /// long (partials calling partials twice, nested loops over empty bodies) stops at
    /// [`MAX_STEPS`].
    pub steps: usize,
    pub written: usize,
    pub out: Vec<Piece>,
}

type Fail = Box<Diagnostic>;

impl Renderer<'_> {
    pub(crate) fn run(
        &mut self,
        nodes: &[Node],
        source: &SourceFile,
        input: Input<'_>,
        context: &Object,
        metadata: &Value,
    ) -> Result<(), Fail> {
        let whole = std::cell::OnceCell::new();
        let input = match input {
            Input::Value(value) => This::Value(value),
            Input::InPlace(object) => This::Input(object, &whole),
        };
        let scope = Scope {
            this: input,
            overlay: None,
            parent: None,
            null_is_empty: false,
        };
        let data = Data {
            root: input,
            context,
            metadata,
            looping: None,
        };
        let result = self.nodes(nodes, source, &scope, &data, 0)?;
        self.flush(result, source)
    }

    /// Counts one step: an error past [`MAX_STEPS`].
    fn step(&mut self, source: &SourceFile) -> Result<(), Fail> {
        self.steps += 1;
        if self.steps <= MAX_STEPS {
            return Ok(());
        }
        Err(Box::new(too_long(source.path())))
    }

    fn push_text(&mut self, text: &str, source: &SourceFile, span: &Span) -> Result<(), Fail> {
        if text.is_empty() {
            return Ok(());
        }
        self.written += text.len();
        if self.written > self.limit {
            return Err(Box::new(too_large(self.limit).at(source, span.clone())));
        }
        match self.out.last_mut() {
            Some(Piece::Text(last)) => last.push_str(text),
            _ => self.out.push(Piece::Text(text.to_owned())),
        }
        Ok(())
    }

    /// Renders a body. Handlebars compiles a body to one JavaScript `a + b + c`
    /// expression, so a leading run of numbers and booleans is *added* (`{{a}}{{b}}` with 1
    /// and 2 gives `3`) until a string joins it. A body that is such a run all through
    /// returns its value unwritten (`Some`), for the caller to add or print.
    fn nodes<'s>(
        &mut self,
        nodes: &[Node],
        source: &SourceFile,
        scope: &Scope<'s>,
        data: &Data<'s>,
        depth: usize,
    ) -> Result<Option<Prim>, Fail> {
        let mut pending: Option<Prim> = None;
        let mut string_mode = false;
        // Entering a body is a step of its own: a loop whose body is empty still loops.
        self.step(source)?;
        for node in nodes {
            self.step(source)?;
            let mark = self.mark();
            let result = match node {
                Node::Text(text) => {
                    self.push_text(text, source, &(0..0))?;
                    None
                }
                Node::Value(expr) => {
                    let value = eval(expr, scope, data);
                    self.value(value.as_deref(), source, &expr.span().unwrap_or(0..0))?
                }
                Node::Helper(call) => self.helper(call, source, scope, data)?,
                Node::Block(block) => self.block(block, source, scope, data, depth)?,
                Node::Partial(call) => self.partial(call, source, scope, data, depth)?,
            };
            match result {
                Some(prim) if !string_mode => {
                    pending = Some(match pending {
                        None => prim,
                        Some(before) => Prim::Sum(before.number() + prim.number()),
                    });
                }
                Some(prim) => self.push_text(&prim.text(), source, &(0..0))?,
                None => {
                    string_mode = true;
                    if let Some(before) = pending.take() {
                        self.insert_text(mark, &before.text());
                    }
                }
            }
        }
        Ok(if string_mode { None } else { pending })
    }

    /// Prints a value as Handlebars appends it: a number or a boolean is returned for the
    /// body's sum (`Some`), anything else written as JavaScript's `String()` (nothing for
    /// `null` and `undefined`).
    fn value(
        &mut self,
        value: Option<&Value>,
        source: &SourceFile,
        span: &Span,
    ) -> Result<Option<Prim>, Fail> {
        Ok(match value {
            Some(Value::Number(n)) => Some(Prim::Value(Value::Number(n.clone()))),
            Some(Value::Bool(b)) => Some(Prim::Value(Value::Bool(*b))),
            value => {
                let mut text = String::new();
                if let Some(value) = value {
                    value.write_js_string(&mut text, 0);
                }
                self.push_text(&text, source, span)?;
                None
            }
        })
    }

    /// Where the output ends now: the piece count and the length of a last text piece.
    fn mark(&self) -> (usize, usize) {
        match self.out.last() {
            Some(Piece::Text(t)) => (self.out.len() - 1, t.len()),
            _ => (self.out.len(), 0),
        }
    }

    /// Inserts text at a mark taken earlier.
    fn insert_text(&mut self, (piece, offset): (usize, usize), text: &str) {
        if text.is_empty() {
            return;
        }
        self.written += text.len();
        match self.out.get_mut(piece) {
            Some(Piece::Text(t)) => t.insert_str(offset, text),
            _ => self.out.insert(piece, Piece::Text(text.to_owned())),
        }
    }

    /// Prints a body's unwritten value.
    fn flush(&mut self, result: Option<Prim>, source: &SourceFile) -> Result<(), Fail> {
        match result {
            Some(prim) => self.push_text(&prim.text(), source, &(0..0)),
            None => Ok(()),
        }
    }

    /// Runs an inline helper: its value for the body's sum (`Some`), or `None` once it
    /// wrote (or left) its output.
    fn helper<'s>(
        &mut self,
        call: &HelperCall,
        source: &SourceFile,
        scope: &Scope<'s>,
        data: &Data<'s>,
    ) -> Result<Option<Prim>, Fail> {
        let param = |i: usize| call.params.get(i).and_then(|e| eval(e, scope, data));
        let hash = |key: &str| {
            call.hash
                .iter()
                .find(|(k, _)| k == key)
                .and_then(|(_, e)| eval(e, scope, data))
        };
        match call.name {
            HelperName::Role => {
                let role = js_string(param(0).as_deref());
                if well_formed_role(&role) {
                    self.out.push(Piece::Role(role));
                } else {
                    // Not a role to dotprompt's marker expression, but its text still
                    // starts with the role prefix: see `messages`.
                    self.written += role.len();
                    self.out.push(Piece::BadRole(role));
                }
            }
            HelperName::History => self.out.push(Piece::History),
            HelperName::CacheBreakpoint => self.out.push(Piece::Breakpoint),
            HelperName::Section => {
                let name = js_string(param(0).as_deref());
                self.marker("<<<dotprompt:section ", name, source, call, |mut words| {
                    Piece::Section(words.next().unwrap_or("").to_owned())
                })?;
            }
            HelperName::Media => {
                let mut body = js_string(hash("url").as_deref());
                if let Some(ct) = hash("contentType").filter(|v| js_truthy(Some(v))) {
                    body.push(' ');
                    body.push_str(&js_string(Some(&ct)));
                }
                self.marker(
                    "<<<dotprompt:media:url ",
                    body,
                    source,
                    call,
                    |mut words| {
                        let url = words.next().unwrap_or("").to_owned();
                        let content_type =
                            words.next().filter(|w| !w.is_empty()).map(str::to_owned);
                        Piece::Media { url, content_type }
                    },
                )?;
            }
            HelperName::Json => {
                let value = param(0);
                let indent = json_indent(hash("indent").as_deref());
                let text = match value {
                    None => "undefined".to_owned(),
                    Some(value) => {
                        let mut text = String::new();
                        let room = self.limit.saturating_sub(self.written);
                        stringify(&value, &indent, 0, &mut text, room);
                        text
                    }
                };
                self.push_text(&text, source, &call.span)?;
            }
            HelperName::Lookup => {
                // Handlebars' `lookup`: a falsy value is returned as it is, else its own
                // property named by the key as JavaScript converts it to a property key.
                let object = param(0);
                let found = match object.as_deref() {
                    Some(object) if js_truthy(Some(object)) => {
                        let key = js_string(param(1).as_deref());
                        property(object, &key).map(Cow::into_owned)
                    }
                    _ => object.map(Cow::into_owned),
                };
                return self.value(found.as_ref(), source, &call.span);
            }
            // JavaScript writes the arguments to its console; the render gets nothing.
            HelperName::Log => {}
            HelperName::Custom => {
                let Some(helper) = self.helpers.get(&call.custom) else {
                    return Err(Box::new(
                        Diagnostic::new(format!("the helper `{}` is not registered", call.custom))
                            .at(source, call.span.clone()),
                    ));
                };
                let params: Vec<Option<Value>> = call
                    .params
                    .iter()
                    .map(|e| eval(e, scope, data).map(Cow::into_owned))
                    .collect();
                let mut hash = Object::new();
                for (key, expr) in &call.hash {
                    if let Some(value) = eval(expr, scope, data) {
                        hash.insert(key.clone(), value.into_owned());
                    }
                }
                let args = HelperArgs {
                    name: &call.custom,
                    params: &params,
                    hash: &hash,
                    this: scope.this().value(),
                };
                let value = helper(&args).map_err(|message| {
                    Box::new(
                        Diagnostic::new(format!("the helper `{}` failed: {message}", call.custom))
                            .at(source, call.span.clone()),
                    )
                })?;
                return self.value(Some(&value), source, &call.span);
            }
        }
        Ok(None)
    }

    /// A media or section marker as dotprompt finds it again: its expression ends the
    /// marker at the first `>>>` (what follows is text) and cannot cross a line break
    /// (then it is all text); the marker's words are split at spaces.
    fn marker(
        &mut self,
        prefix: &str,
        body: String,
        source: &SourceFile,
        call: &HelperCall,
        piece: impl FnOnce(std::str::Split<'_, char>) -> Piece,
    ) -> Result<(), Fail> {
        match split_marker(prefix, body) {
            Err(text) => self.push_text(&text, source, &call.span),
            Ok((words, rest)) => {
                self.written += words.len();
                self.out.push(piece(words.split(' ')));
                self.push_text(&rest, source, &call.span)
            }
        }
    }

    fn block<'s>(
        &mut self,
        block: &Block,
        source: &SourceFile,
        scope: &Scope<'s>,
        data: &Data<'s>,
        depth: usize,
    ) -> Result<Option<Prim>, Fail> {
        if depth >= MAX_DEPTH {
            return Err(too_deep(source, &block.span));
        }
        let first = block.params.first().and_then(|e| eval(e, scope, data));
        let branch = |yes: bool| if yes { &block.body } else { &block.inverse };
        match block.kind {
            BlockKind::If | BlockKind::Unless => {
                let include_zero = block
                    .hash
                    .iter()
                    .find(|(k, _)| k == "includeZero")
                    .and_then(|(_, e)| eval(e, scope, data))
                    .is_some_and(|v| js_truthy(Some(&v)));
                let value = first.as_deref();
                let yes = !((!include_zero && !js_truthy(value)) || hb_empty(value));
                let yes = if block.kind == BlockKind::If {
                    yes
                } else {
                    !yes
                };
                self.nodes(branch(yes), source, &helper_scope(scope), data, depth + 1)
            }
            BlockKind::IfEquals | BlockKind::UnlessEquals => {
                let second = block.params.get(1).and_then(|e| eval(e, scope, data));
                let equal = match (&first, &second) {
                    (None, None) => true,
                    // `===` holds for an object or array compared with itself.
                    (Some(Cow::Borrowed(a)), Some(Cow::Borrowed(b))) if std::ptr::eq(*a, *b) => {
                        true
                    }
                    (Some(a), Some(b)) => a.strict_equals(b),
                    _ => false,
                };
                let yes = if block.kind == BlockKind::IfEquals {
                    equal
                } else {
                    !equal
                };
                self.nodes(branch(yes), source, &helper_scope(scope), data, depth + 1)
            }
            BlockKind::With => match first {
                Some(value) if !hb_empty(Some(&value)) => {
                    self.with_context(&value, &block.body, source, scope, data, None, depth)
                }
                _ => self.nodes(
                    &block.inverse,
                    source,
                    &helper_scope(scope),
                    data,
                    depth + 1,
                ),
            },
            BlockKind::Each => {
                let mut any = false;
                match first.as_deref() {
                    Some(Value::Array(items)) => {
                        for (index, item) in items.iter().enumerate() {
                            any = true;
                            let looping = Loop {
                                index,
                                key: None,
                                first: index == 0,
                                last: index + 1 == items.len(),
                            };
                            let result = self.with_context(
                                item,
                                &block.body,
                                source,
                                scope,
                                data,
                                Some(looping),
                                depth,
                            )?;
                            self.flush(result, source)?;
                        }
                    }
                    Some(Value::Object(object)) => {
                        let count = object.len();
                        for (index, (key, item)) in object.iter().enumerate() {
                            any = true;
                            let looping = Loop {
                                index,
                                key: Some(key.to_owned()),
                                first: index == 0,
                                last: index + 1 == count,
                            };
                            let result = self.with_context(
                                item,
                                &block.body,
                                source,
                                scope,
                                data,
                                Some(looping),
                                depth,
                            )?;
                            self.flush(result, source)?;
                        }
                    }
                    _ => {}
                }
                // Handlebars' `each` builds a string from its items; with none it gives
                // what its `{{else}}` gives, a number or a boolean as it is (which a
                // number before or after it then adds).
                if !any {
                    return self.nodes(
                        &block.inverse,
                        source,
                        &helper_scope(scope),
                        data,
                        depth + 1,
                    );
                }
                Ok(None)
            }
        }
    }

    /// Renders `nodes` with `value` as `this` (a new `../` level unless it is the same
    /// value), and the loop variables if given.
    #[allow(clippy::too_many_arguments)]
    fn with_context<'s>(
        &mut self,
        value: &Value,
        nodes: &[Node],
        source: &SourceFile,
        scope: &Scope<'s>,
        data: &Data<'s>,
        looping: Option<Loop>,
        depth: usize,
    ) -> Result<Option<Prim>, Fail> {
        let child;
        let around = scope.this();
        // A partial's context with arguments over it is an object of its own (JavaScript
        // copies it), the same as no value but a text reading `[object Object]`.
        let (same, equal) = match scope.overlay {
            None => (around.is(value), around.equals(value)),
            Some(_) => (
                false,
                matches!(value, Value::String(s) if s == "[object Object]"),
            ),
        };
        let scope: &Scope<'_> = if same {
            scope
        } else {
            child = Scope {
                this: This::Value(value),
                overlay: None,
                // Equal to the context around it by `==`, it is `this` but no `../` level:
                // `../` reads what it reads around it.
                parent: if equal { scope.parent } else { Some(scope) },
                null_is_empty: false,
            };
            &child
        };
        let frame;
        let data: &Data<'_> = match looping {
            Some(looping) => {
                frame = Data {
                    root: data.root,
                    context: data.context,
                    metadata: data.metadata,
                    looping: Some(looping),
                };
                &frame
            }
            None => data,
        };
        self.nodes(nodes, source, scope, data, depth + 1)
    }

    fn partial<'s>(
        &mut self,
        call: &PartialCall,
        source: &SourceFile,
        scope: &Scope<'s>,
        data: &Data<'s>,
        depth: usize,
    ) -> Result<Option<Prim>, Fail> {
        if depth >= MAX_DEPTH {
            return Err(too_deep(source, &call.span));
        }
        let Some(partial) = self.partials.get(&call.name).cloned() else {
            return Err(Box::new(
                Diagnostic::new(format!("the partial `{}` could not be found", call.name))
                    .at(source, call.span.clone()),
            ));
        };
        let evaluated = call.context.as_ref().map(|expr| eval(expr, scope, data));
        // The partial's context: its argument, or this one (read in place).
        let base: Option<This<'_>> = match &evaluated {
            Some(value) => value.as_deref().map(This::Value),
            None => Some(scope.this()),
        };
        let owned;
        let mut overlay = None;
        let this: This<'_> = match base {
            // A context that is not there is `undefined` in the partial.
            _ if call.hash.is_empty() => base.unwrap_or(This::Undefined),
            Some(object) if object.as_object().is_some() => {
                let mut hash = Overlay::new();
                for (key, expr) in hash_arguments(call) {
                    hash.insert(key, eval(expr, scope, data).map(Cow::into_owned));
                }
                overlay = Some(hash);
                object
            }
            other => {
                // `Utils.extend({}, context, hash)`: an array's indices, then the hash.
                // A string's indices are its UTF-16 code units, each a one-unit string (half
                // of a surrogate pair is U+FFFD, as `string_index` reads it).
                let mut object = match other.map(This::value) {
                    Some(Value::Array(items)) => items
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (i.to_string(), v.clone()))
                        .collect(),
                    Some(Value::String(text)) => text
                        .chars()
                        .flat_map(|c| {
                            let unit = if c.len_utf16() == 1 { c } else { '\u{fffd}' };
                            std::iter::repeat_n(unit, c.len_utf16())
                        })
                        .enumerate()
                        .map(|(i, unit)| (i.to_string(), Value::String(unit.to_string())))
                        .collect(),
                    _ => Object::new(),
                };
                for (key, expr) in hash_arguments(call) {
                    match eval(expr, scope, data) {
                        Some(value) => object.insert(key, value.into_owned()),
                        // An undefined value: a key JSON and the lookups cannot see.
                        None => {
                            object.remove(key);
                        }
                    }
                }
                owned = Value::Object(object);
                This::Value(&owned)
            }
        };
        // Where the partial's output starts: in the text piece it extends, if any.
        let (start, text_start) = match self.out.last() {
            Some(Piece::Text(t)) => (self.out.len() - 1, t.len()),
            _ => (self.out.len(), 0),
        };
        // A partial starts its own `../` levels, as Handlebars runs a partial as a template
        // of its own: `../` in it reaches nothing outside it. Without a context or
        // arguments, its context is this one as read here (a partial's arguments over it
        // included).
        let scope = if call.context.is_none() && call.hash.is_empty() {
            Scope {
                parent: None,
                ..scope.clone()
            }
        } else {
            Scope {
                this,
                overlay: overlay.as_ref(),
                parent: None,
                null_is_empty: false,
            }
        };
        let result = self.nodes(&partial.nodes, &partial.source, &scope, data, depth + 1)?;
        if call.indent.is_empty() {
            return Ok(result);
        }
        self.flush(result, source)?;
        self.indent(start, text_start, &call.indent, source, &call.span)?;
        Ok(None)
    }

    /// Handlebars indents every line of a standalone partial's output (not an empty last
    /// one). The partial's output starts at piece `start`, byte `text_start` of it.
    fn indent(
        &mut self,
        start: usize,
        text_start: usize,
        indent: &str,
        source: &SourceFile,
        span: &Span,
    ) -> Result<(), Fail> {
        let room = self.limit.saturating_sub(self.written);
        let added = indent_pieces(&mut self.out, start, text_start, indent, room);
        self.written = added.map_or(usize::MAX, |added| self.written + added);
        if self.written > self.limit {
            return Err(Box::new(
                Diagnostic::new(format!(
                    "the rendered prompt is larger than {} bytes",
                    self.limit
                ))
                .at(source, span.clone()),
            ));
        }
        Ok(())
    }
}

/// Indents every line of `out` from piece `start`, byte `text_start` of it (a standalone
/// partial's output, as Handlebars indents it: not an empty last line); the bytes added,
/// or `None` (and `out` left part done) once they would pass `room`: a long indent
/// before a partial of many lines multiplies, so it is counted before it is written.
pub(crate) fn indent_pieces(
    out: &mut Vec<Piece>,
    start: usize,
    text_start: usize,
    indent: &str,
    room: usize,
) -> Option<usize> {
    let tail: Vec<Piece> = out.drain(start..).collect();
    let mut at_line_start = true;
    let mut added = 0;
    let mut rebuilt = Vec::with_capacity(tail.len());
    for (n, piece) in tail.into_iter().enumerate() {
        match piece {
            Piece::Text(text) => {
                let (kept, fresh) = if n == 0 && text_start > 0 {
                    // The first piece was text the partial appended to.
                    let (a, b) = text.split_at(text_start.min(text.len()));
                    (a.to_owned(), b.to_owned())
                } else {
                    (String::new(), text)
                };
                let mut out = kept;
                for line in fresh.split_inclusive('\n') {
                    if at_line_start {
                        added += indent.len();
                        if added > room {
                            return None;
                        }
                        out.push_str(indent);
                    }
                    out.push_str(line);
                    at_line_start = line.ends_with('\n');
                }
                rebuilt.push(Piece::Text(out));
            }
            // It writes nothing: no line starts at it.
            Piece::Breakpoint => rebuilt.push(Piece::Breakpoint),
            marker => {
                if at_line_start {
                    added += indent.len();
                    if added > room {
                        return None;
                    }
                    rebuilt.push(Piece::Text(indent.to_owned()));
                    at_line_start = false;
                }
                rebuilt.push(marker);
            }
        }
    }
    out.extend(rebuilt);
    Some(added)
}

/// A media or section marker as dotprompt finds it again: its expression ends the marker
/// at the first `>>>` (what follows is text: `Ok((words, rest))`) and cannot cross a line
/// break (then it is all text, `Err`).
pub(crate) fn split_marker(prefix: &str, body: String) -> Result<(String, String), String> {
    let full = format!("{body}>>>");
    let end = full.find(">>>").unwrap_or(body.len());
    if full[..end].contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
        return Err(format!("{prefix}{full}"));
    }
    Ok((full[..end].to_owned(), full[end + 3..].to_owned()))
}

fn too_deep(source: &SourceFile, span: &Span) -> Fail {
    Box::new(
        Diagnostic::new(format!(
            "blocks and partials nested more than {MAX_DEPTH} deep while rendering"
        ))
        .at(source, span.clone())
        .with_help("a partial that includes itself never ends; check the partials this one uses"),
    )
}

/// The value of an argument, `None` for JavaScript's `undefined`.
fn eval<'s>(expr: &Expr, scope: &Scope<'s>, data: &Data<'s>) -> Option<Cow<'s, Value>> {
    match expr {
        Expr::Literal(value) => value.clone().map(Cow::Owned),
        Expr::Path(path) => lookup(path, scope, data),
    }
}

fn lookup<'s>(path: &Path, scope: &Scope<'s>, data: &Data<'s>) -> Option<Cow<'s, Value>> {
    let (mut value, rest): (Cow<'s, Value>, &[String]) = if path.data {
        let name = path.parts[0].as_str();
        let looped = data.looping.as_ref().and_then(|l| match name {
            "index" => Some(Value::Number(l.index.into())),
            "first" => Some(Value::Bool(l.first)),
            "last" => Some(Value::Bool(l.last)),
            // An array's item has its index as its key, as Handlebars' `each` gives it.
            "key" => Some(
                l.key
                    .clone()
                    .map_or_else(|| Value::Number(l.index.into()), Value::String),
            ),
            _ => None,
        });
        match looped {
            Some(v) => (Cow::Owned(v), &path.parts[1..]),
            None => match data.context.get(name) {
                Some(v) => (Cow::Borrowed(v), &path.parts[1..]),
                None if name == "root" => data.root.start(&path.parts[1..])?,
                None if name == "metadata" => (Cow::Borrowed(data.metadata), &path.parts[1..]),
                None => return None,
            },
        }
    } else {
        let mut scope = scope;
        for _ in 0..path.depth {
            scope = scope.parent?;
        }
        let this = if path.depth == 0 {
            scope.this()
        } else {
            scope.this
        };
        match (scope.overlay, path.parts.first()) {
            (None, _) => this.start(&path.parts)?,
            (Some(overlay), Some(first)) => match overlay.get(first) {
                Some(Some(value)) => (Cow::Borrowed(value), &path.parts[1..]),
                Some(None) => return None,
                None => scope.this.start(&path.parts)?,
            },
            (Some(overlay), None) => {
                // `this` itself: the context with the arguments over it.
                let mut merged = scope.this.as_object().cloned().unwrap_or_default();
                for (key, value) in overlay.iter() {
                    match value {
                        Some(value) => merged.insert(key, value.clone()),
                        None => {
                            merged.remove(key);
                        }
                    }
                }
                (Cow::Owned(Value::Object(merged)), &path.parts[..])
            }
        }
    };
    for part in rest {
        value = match value {
            Cow::Borrowed(v) => property(v, part)?,
            Cow::Owned(v) => Cow::Owned(property(&v, part)?.into_owned()),
        };
    }
    Some(value)
}

/// A property as Handlebars reads it: own keys of objects, indices and `length` of arrays,
/// `length` of strings.
fn property<'v>(value: &'v Value, name: &str) -> Option<Cow<'v, Value>> {
    match value {
        // Handlebars guards each step with `value != null ? lookup : value`: a step past
        // `null` stays `null` (a step past a missing value stays missing).
        Value::Null => Some(Cow::Borrowed(value)),
        Value::Object(object) => object.get(name).map(Cow::Borrowed),
        Value::Array(items) => {
            if name == "length" {
                return Some(Cow::Owned(Value::Number(items.len().into())));
            }
            let index: usize = name
                .parse()
                .ok()
                .filter(|i: &usize| i.to_string() == name)?;
            items.get(index).map(Cow::Borrowed)
        }
        Value::String(s) if name == "length" => {
            Some(Cow::Owned(Value::Number(s.encode_utf16().count().into())))
        }
        Value::String(s) => string_index(s, name).map(|c| Cow::Owned(Value::String(c))),
        _ => None,
    }
}

/// A string's own indexed property as JavaScript reads it (`"<a>"[1]` is `"a"`): the
/// UTF-16 code unit at a canonical index (`1`, not `01`), as a one-unit string. Half of a
/// surrogate pair cannot be held in Rust's text: it is U+FFFD, the bytes JavaScript
/// writes for it.
pub(crate) fn string_index(text: &str, name: &str) -> Option<String> {
    let index: usize = name
        .parse()
        .ok()
        .filter(|i: &usize| i.to_string() == name)?;
    let mut at = 0;
    for c in text.chars() {
        let units = c.len_utf16();
        if index < at + units {
            return Some(if units == 1 { c } else { '\u{fffd}' }.to_string());
        }
        at += units;
    }
    None
}

/// `String(value)`, with `undefined` for `None`.
pub(crate) fn js_string(value: Option<&Value>) -> String {
    match value {
        None => "undefined".to_owned(),
        Some(Value::Null) => "null".to_owned(),
        Some(v) => v.to_js_string(),
    }
}

/// JavaScript truthiness (an empty array is true).
pub(crate) fn js_truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Array(_)) | Some(Value::Object(_)) => true,
        Some(v) => v.is_truthy(),
    }
}

/// Handlebars' `isEmpty`: falsy but not 0, or an empty array.
pub(crate) fn hb_empty(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Array(items)) => items.is_empty(),
        Some(Value::Number(n)) if n.as_f64() == Some(0.0) => false,
        v => !js_truthy(v),
    }
}

/// The `indent` of `{{json}}` as `JSON.stringify` takes it: a number of spaces (at most
/// 10) or a string's first 10 characters.
pub(crate) fn json_indent(indent: Option<&Value>) -> String {
    match indent {
        Some(Value::Number(n)) => {
            let n = n.as_f64().unwrap_or(0.0);
            " ".repeat(if n >= 1.0 { n.min(10.0) as usize } else { 0 })
        }
        Some(Value::String(s)) => s.chars().take(10).collect(),
        _ => String::new(),
    }
}

/// `JSON.stringify(value, null, indent)`, or its start once `out` holds more than `max`
/// bytes: the caller refuses a text past its output limit, and a deep value written with a
/// wide indent grows far past the value's own size, so it is not written out first.
pub(crate) fn stringify(value: &Value, indent: &str, level: usize, out: &mut String, max: usize) {
    if out.len() > max {
        return;
    }
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // `JSON.stringify` writes a number JSON cannot hold as `null`.
        Value::Number(n) if !n.as_f64().is_some_and(f64::is_finite) => out.push_str("null"),
        Value::Number(n) => out.push_str(&js_number(n)),
        Value::String(s) => quote(s, out),
        Value::Array(items) | Value::Tuple(items) if level > MAX_DEPTH => {
            out.push_str(if items.is_empty() { "[]" } else { "[null]" })
        }
        Value::Object(_) if level > MAX_DEPTH => out.push_str("{}"),
        Value::Array(items) | Value::Tuple(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if out.len() > max {
                    return;
                }
                newline(indent, level + 1, out);
                stringify(item, indent, level + 1, out, max);
            }
            newline(indent, level, out);
            out.push(']');
        }
        Value::Object(object) => {
            if object.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (key, item)) in object.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if out.len() > max {
                    return;
                }
                newline(indent, level + 1, out);
                quote(key, out);
                out.push(':');
                if !indent.is_empty() {
                    out.push(' ');
                }
                stringify(item, indent, level + 1, out, max);
            }
            newline(indent, level, out);
            out.push('}');
        }
    }
}

fn newline(indent: &str, level: usize, out: &mut String) {
    if !indent.is_empty() {
        out.push('\n');
        for _ in 0..level {
            out.push_str(indent);
        }
    }
}

fn quote(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A partial call's `key=value` arguments as Handlebars compiles them: one whose value is
/// the literal `undefined` is left out (the context's key shows through).
fn hash_arguments(call: &PartialCall) -> impl Iterator<Item = (&str, &Expr)> {
    call.hash
        .iter()
        .filter(|(_, expr)| !matches!(expr, Expr::Literal(None)))
        .map(|(key, expr)| (key.as_str(), expr))
}

/// Whether a role marker names a role the messages take (lowercase ASCII letters; any
/// other is kept as text).
pub(super) fn well_formed_role(role: &str) -> bool {
    !role.is_empty() && role.bytes().all(|b| b.is_ascii_lowercase())
}
/// The error for a render past the step bound, in `path` (shared with the compiled
/// render).
#[cold]
pub(super) fn too_long(path: &str) -> Diagnostic {
    Diagnostic::new(format!("the render took more than {MAX_STEPS} steps"))
        .in_file(path)
        .with_help("check for partials that call each other many times, or loops over huge lists")
}

/// The error for a render past `limit` bytes, to be located (shared with the compiled
/// render).
#[cold]
pub(super) fn too_large(limit: usize) -> Diagnostic {
    Diagnostic::new(format!("the rendered prompt is larger than {limit} bytes"))
        .with_help("raise the limit with `Dotprompt::with_output_limit`, or render less")
}
