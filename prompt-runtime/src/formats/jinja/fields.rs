//! A derived Jinja prompt's struct as run time sees it ([`JinjaPrompt`]), and the checks of
//! a set of templates against a struct's fields that the derive runs at build time and hot
//! reload runs again on an edited template: every name read is a field, an `Option` is
//! read only under a guard or a default, every field is read, every path into a field
//! exists in its [`Shape`].

use super::{Options, Templates};
use crate::diagnostic::{Diagnostic, Diagnostics, Repeated};
use crate::render::PromptContent;
use crate::value::Shape;
use crate::value::path::{Step, check};
use std::ops::Range;

/// One field of a derived Jinja prompt's struct, as the template reads it.
///
/// ```
/// use promptic::formats::jinja::JinjaField;
/// use promptic::value::PromptValue;
///
/// let field = JinjaField { name: "stops", optional: false, shape: &<Vec<String>>::SHAPE };
/// assert_eq!(field.name, "stops");
/// ```
#[derive(Debug)]
pub struct JinjaField {
    /// The name the template reads it by.
    pub name: &'static str,
    /// An `Option`: read only under a guard or a default.
    pub optional: bool,
    /// What it holds, for the paths read into it.
    pub shape: &'static Shape,
}

/// What `#[derive(Prompt)]` of a Jinja prompt (`prompts/NAME.md.j2`) tells run time about
/// the struct: what hot reload (`promptic::hot::HotJinja`, feature `hot-reload`) checks an
/// edited template against, and how the compiled prompt renders. Written by the derive;
/// by hand only for tests.
///
/// ```
/// use promptic::formats::jinja::{JinjaField, JinjaPrompt, Options};
/// use promptic::value::PromptValue;
/// use promptic::{Diagnostic, PromptContent};
///
/// struct Hello {
///     who: String,
/// }
/// impl JinjaPrompt for Hello {
///     const NAME: &'static str = "hello";
///     const PATH: &'static str = "prompts/hello.j2";
///     const STRUCT_NAME: &'static str = "Hello";
///     const FIELDS: &'static [JinjaField] =
///         &[JinjaField { name: "who", optional: false, shape: &<String as PromptValue>::SHAPE }];
///     const SOURCES: &'static [(&'static str, &'static str)] = &[("hello.j2", "Hi {{ who }}.")];
///     const OPTIONS: Options = Options {
///         trim_blocks: false,
///         lstrip_blocks: false,
///         keep_trailing_newline: false,
///     };
///     fn values(&self) -> serde_json::Map<String, serde_json::Value> {
///         let mut values = serde_json::Map::new();
///         values.insert("who".into(), self.who.to_value().unwrap_or_default());
///         values
///     }
///     fn render_compiled(&self) -> Result<PromptContent, Diagnostic> {
///         Ok(PromptContent {
///             text: format!("Hi {}.", self.who),
///             path: Self::PATH.into(),
///             metadata: Default::default(),
///             breakpoints: Vec::new(),
///         })
///     }
/// }
/// let hello = Hello { who: "Ann".into() };
/// assert_eq!(hello.render_compiled().unwrap().text, "Hi Ann.");
/// ```
pub trait JinjaPrompt {
    /// The prompt's name (`system` for `prompts/system.md.j2`).
    const NAME: &'static str;
    /// The prompt file as diagnostics show it (`prompts/system.md.j2`).
    const PATH: &'static str;
    /// The struct's name, for messages.
    const STRUCT_NAME: &'static str;
    /// The struct's fields, in order.
    const FIELDS: &'static [JinjaField];
    /// The texts the derive checked: each template's name as includes write it and its
    /// text, the prompt file first.
    const SOURCES: &'static [(&'static str, &'static str)];
    /// The `"jinja"` options of `promptic.json` at build time.
    const OPTIONS: Options;

    /// The fields' values as the renderers read them; an absent `Option` is left out.
    fn values(&self) -> serde_json::Map<String, serde_json::Value>;

    /// Renders the compiled prompt (the derive's `render()`).
    fn render_compiled(&self) -> Result<PromptContent, Diagnostic>;
}

/// Checks the names template `file` (and what it includes) reads against `fields` (name,
/// optional): a name that is none of them (and not `guidance`, which the fence defaults)
/// is reported at its first use with the closest field; an optional one read without a
/// guard or a default is reported at that use. `what` says what a value is ("a field of
/// `Agent`"), `kind` names one ("field"). An error too when the templates are too large
/// to walk.
///
/// ```
/// use promptic::formats::jinja::{Options, Templates, check_names};
/// use promptic::SourceFile;
///
/// let templates = Templates::load("t.j2", Options::default(), &mut |_: &str| {
///     Ok(SourceFile::new("prompts/t.j2", "{{ nmae }}"))
/// })
/// .unwrap();
/// let problems = check_names(&templates, "t.j2", &[("name", false)], "a field of `T`", "field");
/// assert_eq!(problems.0[0].message(), "`nmae` is not a field of `T`");
/// assert_eq!(problems.0[0].help(), Some("did you mean `name`?"));
/// ```
pub fn check_names(
    templates: &Templates,
    file: &str,
    fields: &[(&str, bool)],
    what: &str,
    kind: &str,
) -> Diagnostics {
    let mut problems = Diagnostics::default();
    let at = |u_file: &str, span: Range<usize>, d: Diagnostic| match templates.get(u_file) {
        Some(t) => d.at(t.source(), span),
        None => d,
    };
    let paths = match templates.paths(file) {
        Ok(paths) => paths,
        Err(d) => return d.into(),
    };
    // A name no field has is one error, at its first read, noting the others.
    let mut reported = std::collections::HashSet::new();
    let mut unknown: std::collections::HashMap<String, Repeated> = std::collections::HashMap::new();
    for path in paths {
        let known = fields.iter().any(|(name, _)| *name == path.name)
            || path.name == crate::guidance::GUIDANCE;
        if known {
            continue;
        }
        let source = templates.get(&path.file).map(|t| t.source());
        if !reported.insert(path.name.clone()) {
            if let (Some(found), Some(source)) = (unknown.get_mut(&path.name), source) {
                found.again(source, &path.span);
            }
            continue;
        }
        let help = match crate::suggest::closest(&path.name, fields.iter().map(|(name, _)| *name)) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!(
                "give a {kind} `{}` (an `Option` if the prompt may go without it)",
                path.name
            ),
        };
        let error = Diagnostic::new(format!("`{}` is not {what}", path.name)).with_help(help);
        match source {
            Some(source) => {
                let error = error.at(source, path.span.clone());
                let first = Repeated::report(&mut problems, error, source, &path.span);
                unknown.insert(path.name.clone(), first);
            }
            None => problems.push(error),
        }
    }
    for found in unknown.values() {
        found.note(&mut problems, "also read");
    }
    dict_methods(templates, &mut problems);
    for u in templates.uses(file) {
        let optional = fields
            .iter()
            .any(|(name, optional)| *name == u.name && *optional);
        if u.required && optional {
            problems.push(at(
                &u.file,
                u.span.clone(),
                Diagnostic::new(format!(
                    "`{}` is an `Option` but is read here without a guard or a default",
                    u.name
                ))
                .with_help(format!(
                    "put it inside `{{% if {0} %}}`, write `{0} | default(…)`, or make the field not an `Option`",
                    u.name
                )),
            ));
        }
    }
    problems
}

/// `a.items`, `a.keys` and the other dict method names read as attributes, in every
/// template of the set: a field's value reaches Jinja as a dict (a struct, a map), where
/// Jinja2 gives the method rather than the key, and the run-time renderer refuses it when
/// it renders. Reading the key is `a["items"]`.
fn dict_methods(templates: &Templates, problems: &mut Diagnostics) {
    use super::expr::{Expr, ExprKind};
    use super::parser::Node;

    fn expr(e: &Expr, out: &mut Vec<(Range<usize>, String)>, depth: usize) {
        if depth > 256 {
            return;
        }
        let mut sub = |e: &Expr| expr(e, out, depth + 1);
        match &e.kind {
            ExprKind::Attr(inner, name) => {
                sub(inner);
                if super::render::DICT_METHODS.contains(&name.as_str()) {
                    out.push((e.span.clone(), name.clone()));
                }
            }
            // A macro's call is put in place when the template is read.
            ExprKind::Literal(_)
            | ExprKind::Name(_)
            | ExprKind::Loop(_)
            | ExprKind::MacroCall(_) => {}
            ExprKind::List(items) | ExprKind::Tuple(items) => items.iter().for_each(sub),
            ExprKind::Dict(entries) => entries.iter().for_each(|(k, v)| {
                sub(k);
                sub(v);
            }),
            ExprKind::Item(a, b) | ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                sub(a);
                sub(b);
            }
            ExprKind::StartsWith(a, b) => {
                sub(a);
                sub(b);
            }
            ExprKind::Filter(inner, _, args) => {
                sub(inner);
                args.iter().for_each(sub);
            }
            ExprKind::Test(inner, ..) | ExprKind::Not(inner) | ExprKind::Items(inner) => sub(inner),
            ExprKind::Compare(first, chain) => {
                sub(first);
                chain.iter().for_each(|(_, e)| sub(e));
            }
            ExprKind::Op(_, operands) => operands.iter().for_each(sub),
            ExprKind::Split(a, b) => {
                sub(a);
                if let Some(b) = b {
                    sub(b);
                }
            }
        }
    }
    fn nodes(list: &[Node], out: &mut Vec<(Range<usize>, String)>, depth: usize) {
        if depth > 256 {
            return;
        }
        for node in list {
            match node {
                Node::Text(_) | Node::Include { .. } | Node::Super(_) => {}
                Node::Output(e) | Node::Set { value: e, .. } | Node::SetAttr { value: e, .. } => {
                    expr(e, out, 0)
                }
                // Another template's nodes are checked with it.
                Node::Scope(scope) if scope.template.is_some() => {}
                Node::Scope(scope) => {
                    scope.binds.iter().for_each(|(_, e)| expr(e, out, 0));
                    nodes(&scope.nodes, out, depth + 1);
                }
                Node::If(block) => {
                    for (condition, body) in &block.branches {
                        expr(condition, out, 0);
                        nodes(body, out, depth + 1);
                    }
                    if let Some((_, body)) = &block.otherwise {
                        nodes(body, out, depth + 1);
                    }
                }
                Node::FilterBlock(block) => {
                    nodes(&block.body, out, depth + 1);
                    expr(&block.filters, out, 0);
                }
                Node::For(each) => {
                    expr(&each.iter, out, 0);
                    if let Some(filter) = &each.filter {
                        expr(filter, out, 0);
                    }
                    nodes(&each.body, out, depth + 1);
                    if let Some(otherwise) = &each.otherwise {
                        nodes(otherwise, out, depth + 1);
                    }
                }
            }
        }
    }
    for name in templates.names() {
        let Some(template) = templates.get(name) else {
            continue;
        };
        let mut found = Vec::new();
        nodes(&template.nodes, &mut found, 0);
        for (_, body) in &template.blocks {
            nodes(body, &mut found, 1);
        }
        for (span, method) in found {
            problems.push(
                Diagnostic::new(format!(
                    "`.{method}` is a dict method in Jinja2, not the key `{method}`"
                ))
                .at(template.source(), span)
                .with_help(format!("write `[\"{method}\"]` to read the key")),
            );
        }
    }
}

/// The fields template `file` does not read, each reported in the prompt file (the derive
/// reports them at the field instead): the same message and help.
///
/// ```
/// use promptic::formats::jinja::{Options, Templates, check_unused};
/// use promptic::SourceFile;
///
/// let templates = Templates::load("t.j2", Options::default(), &mut |_: &str| {
///     Ok(SourceFile::new("prompts/t.j2", "{{ a }}"))
/// })
/// .unwrap();
/// let problems = check_unused(&templates, "t.j2", &["a", "b"], "field");
/// assert_eq!(problems.0[0].message(), "field `b` is not used by prompts/t.j2");
/// ```
pub fn check_unused(templates: &Templates, file: &str, fields: &[&str], kind: &str) -> Diagnostics {
    let mut problems = Diagnostics::default();
    for (_, d) in unused(templates, file, fields, kind) {
        problems.push(d);
    }
    problems
}

/// [`check_unused`], each problem with the index of its field in `fields` (where the
/// derive reports it). A field that a name the templates read but `fields` lacks is
/// closest to is not reported: the misspelling, reported by [`check_names`], is why it
/// looks unused.
#[doc(hidden)]
pub fn unused(
    templates: &Templates,
    file: &str,
    fields: &[&str],
    kind: &str,
) -> Vec<(usize, Diagnostic)> {
    let uses = templates.uses(file);
    let path = templates
        .get(file)
        .map_or(file.to_owned(), |t| t.source().path().to_owned());
    let suggested: Vec<&str> = uses
        .iter()
        .filter(|u| !fields.contains(&u.name.as_str()))
        .filter_map(|u| crate::suggest::closest(&u.name, fields.iter().copied()))
        .collect();
    let mut problems = Vec::new();
    for (at, field) in fields.iter().enumerate() {
        if uses.iter().any(|u| u.name == *field) || suggested.contains(field) {
            continue;
        }
        problems.push((
            at,
            Diagnostic::new(format!("{kind} `{field}` is not used by {path}"))
                .in_file(&path)
                .with_help(format!(
                    "read it in the template (`{{{{ {field} }}}}`), or remove the {kind}"
                )),
        ));
    }
    problems
}

/// Checks every path template `file` reads into a field against the field's [`Shape`],
/// as the derive's `const` checks do at build time, with the same message, located at the
/// use. Each path is reported once.
///
/// ```
/// use promptic::formats::jinja::{JinjaField, Options, Templates, check_paths};
/// use promptic::value::{FieldShape, PromptValue, Shape};
/// use promptic::SourceFile;
///
/// const CITY: Shape = Shape::Struct {
///     name: "City",
///     fields: &[FieldShape { name: "name", shape: &<String as PromptValue>::SHAPE }],
/// };
/// let templates = Templates::load("t.j2", Options::default(), &mut |_: &str| {
///     Ok(SourceFile::new("prompts/t.j2", "{{ city.nmae }}"))
/// })
/// .unwrap();
/// let fields = [JinjaField { name: "city", optional: false, shape: &CITY }];
/// let problems = check_paths(&templates, "t.j2", &fields);
/// assert_eq!(problems.0[0].message(), "no field `nmae` in `City` (read as `city.nmae`)");
/// assert_eq!(problems.0[0].help(), Some("did you mean `name`?"));
/// ```
pub fn check_paths(templates: &Templates, file: &str, fields: &[JinjaField]) -> Diagnostics {
    let mut problems = Diagnostics::default();
    let paths = match templates.paths(file) {
        Ok(paths) => paths,
        Err(d) => return d.into(),
    };
    let mut seen = std::collections::HashSet::new();
    for path in paths.iter().filter(|p| !p.steps.is_empty()) {
        let Some(field) = fields.iter().find(|f| f.name == path.name) else {
            continue;
        };
        if !seen.insert((&path.name, &path.steps)) {
            continue;
        }
        let steps: Vec<Step<'_>> = path
            .steps
            .iter()
            .map(|s| match s {
                super::PathStep::Field(name) => Step::Field(name),
                super::PathStep::Element => Step::Element,
                super::PathStep::Index(i) => Step::Index(*i),
                super::PathStep::Value => Step::Value,
            })
            .collect();
        // The location is written by the diagnostic itself: a mark stands in its place,
        // splitting the message from the help.
        let message = check(field.shape, &path.shown, &steps, path.skip, "\u{E000}");
        if message.is_empty() {
            continue;
        }
        let (text, help) = message
            .as_str()
            .split_once('\u{E000}')
            .unwrap_or((message.as_str(), ""));
        let mut d = Diagnostic::new(text);
        if !help.is_empty() {
            d = d.with_help(help);
        }
        problems.push(match templates.get(&path.file) {
            Some(t) => d.at(t.source(), path.span.clone()),
            None => d,
        });
    }
    problems
}
