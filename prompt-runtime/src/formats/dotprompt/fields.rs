//! A derived dotprompt prompt's struct as run time sees it ([`DotpromptPrompt`]), and the
//! check of a prompt's input against the struct's fields that the derive runs at build
//! time and hot reload runs again on an edited prompt ([`check_fields`]).

use super::schema::{TypeKind, compatible, properties, property_span, required, schema_type};
use super::{Dotprompt, HelperPtr, Message, RenderedPrompt, Value};
use crate::diagnostic::{Diagnostic, Diagnostics, Repeats};
use crate::value::Shape;
use crate::value::path::{Step, check};

/// One field of a derived dotprompt prompt's struct, as the prompt's input reads it.
///
/// ```
/// use promptic::dotprompt::DotpromptField;
/// use promptic::dotprompt::schema::TypeKind;
/// use promptic::value::PromptValue;
///
/// let field = DotpromptField {
///     name: "tags",
///     kind: &[TypeKind::List, TypeKind::Text],
///     shape: &<Vec<String>>::SHAPE,
/// };
/// assert_eq!(field.name, "tags");
/// ```
#[derive(Debug)]
pub struct DotpromptField {
    /// The input property it is (`{{name}}`).
    pub name: &'static str,
    /// Its type as written, as the derive reads it (an `Option`, a list, ...).
    pub kind: &'static [TypeKind],
    /// What it holds, for the properties of a nested object.
    pub shape: &'static Shape,
}

/// What `#[derive(Prompt)]` of a dotprompt prompt (`prompts/NAME.prompt`) tells run time
/// about the struct: what hot reload (`promptic::hot::HotDotprompt`, feature `hot-reload`)
/// checks an edited prompt against, the files the derive checked, the helpers the
/// prompt calls, and how the compiled prompt renders. Written by the derive; by hand only
/// for tests.
///
/// ```
/// use promptic::dotprompt::schema::TypeKind;
/// use promptic::dotprompt::{
///     DataArgument, Dotprompt, DotpromptField, DotpromptPrompt, HelperPtr, Message, RenderedPrompt,
/// };
/// use promptic::value::PromptValue;
/// use promptic::Diagnostic;
///
/// struct Hello {
///     who: String,
/// }
/// const SOURCE: &str = "---\ninput:\n  schema:\n    who: string\n---\nHi {{who}}.";
/// impl DotpromptPrompt for Hello {
///     const NAME: &'static str = "hello";
///     const PATH: &'static str = "prompts/hello.prompt";
///     const STRUCT_NAME: &'static str = "Hello";
///     const FIELDS: &'static [DotpromptField] = &[DotpromptField {
///         name: "who",
///         kind: &[TypeKind::Text],
///         shape: &<String as PromptValue>::SHAPE,
///     }];
///     const SOURCES: &'static [(&'static str, &'static str)] = &[(Self::PATH, SOURCE)];
///     const HELPERS: &'static [(&'static str, HelperPtr)] = &[];
///     fn values(&self) -> serde_json::Map<String, serde_json::Value> {
///         let mut values = serde_json::Map::new();
///         values.insert("who".into(), self.who.to_value().unwrap_or_default());
///         values
///     }
///     fn render_compiled(
///         &self,
///         context: &serde_json::Map<String, serde_json::Value>,
///         history: &[Message],
///     ) -> Result<RenderedPrompt, Diagnostic> {
///         let prompt = Dotprompt::parse(SOURCE).map_err(|d| d.0[0].clone())?;
///         let data = serde_json::json!({ "input": self.values(), "context": context });
///         let mut data: DataArgument = serde_json::from_value(data).unwrap_or_default();
///         data.messages = history.to_vec();
///         prompt.render(&data)
///     }
/// }
/// let hello = Hello { who: "Ann".into() };
/// let rendered = hello.render_compiled(&Default::default(), &[]).unwrap();
/// assert_eq!(rendered.messages[0].content[0].text(), Some("Hi Ann."));
/// ```
pub trait DotpromptPrompt {
    /// The prompt's name (`help_desk` for `prompts/help_desk.prompt`).
    const NAME: &'static str;
    /// The prompt file as diagnostics show it (`prompts/help_desk.prompt`).
    const PATH: &'static str;
    /// The struct's name, for messages.
    const STRUCT_NAME: &'static str;
    /// The struct's fields, in order.
    const FIELDS: &'static [DotpromptField];
    /// The files the derive checked, each as diagnostics show it with its text: the
    /// prompt file first, then the partials it includes, then the folder's `schemas.json`
    /// and `tools.json` when there are.
    const SOURCES: &'static [(&'static str, &'static str)];
    /// The helpers of `#[prompt("name", helpers(name = function))]`.
    const HELPERS: &'static [(&'static str, HelperPtr)];

    /// The fields' values as the input of a render; an absent `Option` is left out.
    fn values(&self) -> serde_json::Map<String, serde_json::Value>;

    /// Renders the compiled prompt (the derive's `render_with_context()`): `context` is
    /// what the template reads as `@name`, `history` the conversation so far.
    fn render_compiled(
        &self,
        context: &serde_json::Map<String, serde_json::Value>,
        history: &[Message],
    ) -> Result<RenderedPrompt, Diagnostic>;
}

/// Checks `prompt`'s input against the fields of the struct `struct_name`, as the derive
/// does. With an input schema: every field is a property, every property a field, a
/// property is optional (`name?`) exactly when its field is an `Option`, each field's type
/// holds its property's type, and each property of a nested object is a field of the
/// field's type (its [`Shape`]). Without one: the first name of every path the template
/// reads is a field. Each problem is located in the prompt file, with the closest name
/// when there is one.
///
/// ```
/// use promptic::dotprompt::schema::TypeKind;
/// use promptic::dotprompt::{Dotprompt, DotpromptField, fields::check_fields};
/// use promptic::value::PromptValue;
///
/// let prompt = Dotprompt::parse("---\ninput:\n  schema:\n    name: string\n---\nHi {{name}}.")?;
/// let fields = [DotpromptField { name: "nmae", kind: &[TypeKind::Text], shape: &<String>::SHAPE }];
/// let problems = check_fields(&prompt, "Hello", &fields);
/// assert_eq!(problems.0[0].message(), "field `nmae` is not a property of the input schema of <prompt>");
/// assert_eq!(problems.0[0].help(), Some("did you mean `name`?"));
/// # Ok::<(), promptic::Diagnostics>(())
/// ```
pub fn check_fields(
    prompt: &Dotprompt,
    struct_name: &str,
    fields: &[DotpromptField],
) -> Diagnostics {
    let metadata = prompt.render_metadata();
    let kinds: Vec<FieldKind<'_>> = fields
        .iter()
        .map(|f| FieldKind {
            name: f.name,
            kind: f.kind,
        })
        .collect();
    let found = check_field_kinds(prompt, metadata.input_schema(), struct_name, &kinds);
    // A field the schema lacks: reported alone, as the derive reports it at the field.
    if !found.unknown.is_empty() {
        let mut problems = Diagnostics::default();
        for (_, d) in found.unknown {
            problems.push(d);
        }
        return problems;
    }
    let mut problems = found.problems;
    for (at, property, schema) in found.nested {
        if let Some(field) = fields.get(at) {
            let mut path = vec![property];
            check_nested(
                prompt,
                &mut path,
                schema,
                field.shape,
                &mut Vec::new(),
                &mut problems,
            );
        }
    }
    problems
}

/// A field as the build sees it before the compiler has its type: the name, and the type
/// as written.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct FieldKind<'a> {
    /// The input property it is.
    pub name: &'a str,
    /// Its type as written (an `Option`, a list, ...).
    pub kind: &'a [TypeKind],
}

/// What [`check_field_kinds`] found.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct FieldCheck<'s> {
    /// Each field the input schema lacks, by its index: the derive reports it at the
    /// field. When there is one, nothing else is checked.
    pub unknown: Vec<(usize, Diagnostic)>,
    /// What is wrong in the prompt: a property no field gives, a required property given
    /// by an `Option` (and the reverse), a type that does not fit, a path the template
    /// reads that no field gives.
    pub problems: Diagnostics,
    /// When all is well so far: each field whose property is a schema to look into (a
    /// nested object, a list of them), by index, with the property and its schema. The
    /// fields' types are checked against them at run time by their shapes, and by the
    /// derive in `const` evaluation.
    pub nested: Vec<(usize, &'s str, &'s Value)>,
}

/// The check of a prompt's input (`schema`, its `input.schema` compiled) against a
/// struct's fields by name and written type: what the derive and
/// [`check_fields`] share.
#[doc(hidden)]
pub fn check_field_kinds<'s>(
    prompt: &Dotprompt,
    schema: Option<&'s Value>,
    struct_name: &str,
    fields: &[FieldKind<'_>],
) -> FieldCheck<'s> {
    match schema {
        Some(schema) => check_schema(prompt, schema, struct_name, fields),
        None => FieldCheck {
            problems: check_paths_without_schema(prompt, fields),
            ..FieldCheck::default()
        },
    }
}

/// `prompt!`'s arguments (`args`, by name) against the prompt's input, `schema` (its
/// compiled input schema). With properties: an argument the schema does not declare is
/// in `unknown` (the macro reports it at the argument), a required input no argument
/// gives is a problem at the input (not when a misspelt argument meant it), and `nested`
/// holds each argument's property. A schema without properties takes any argument.
/// Without a schema: a name the template reads that no argument gives is a problem at
/// the read, and an argument nothing reads is in `unknown` (not when a misspelt read
/// meant it).
#[doc(hidden)]
pub fn check_arguments<'s>(
    prompt: &Dotprompt,
    schema: Option<&'s Value>,
    args: &[&str],
) -> FieldCheck<'s> {
    let source = prompt.source();
    let mut found = FieldCheck::default();
    match schema.map(|s| (s, properties(s))) {
        Some((schema, Some(props))) => {
            let mut meant: Vec<&str> = Vec::new();
            for (at, arg) in args.iter().enumerate() {
                if let Some((property, inner)) = props.iter().find(|(k, _)| k == arg) {
                    found.nested.push((at, property, inner));
                    continue;
                }
                let help = match crate::suggest::closest(arg, props.keys()) {
                    Some(close) => {
                        meant.push(close);
                        format!("did you mean `{close}`?")
                    }
                    None => format!(
                        "add `{arg}` to the prompt's `input.schema`, or remove the argument"
                    ),
                };
                let message = format!("`{arg}` is not an input of `{}`", source.path());
                found
                    .unknown
                    .push((at, Diagnostic::new(message).with_help(help)));
            }
            for (property, _) in props.iter() {
                if required(schema, property)
                    && !args.contains(&property)
                    && !meant.contains(&property)
                {
                    found.problems.push(
                        Diagnostic::new(format!(
                            "input `{property}` is required, and no argument of `prompt!` gives it"
                        ))
                        .at(source, property_span(prompt, &[property]))
                        .with_help(format!("add `{property} = …` to the `prompt!` call")),
                    );
                }
            }
        }
        Some((_, None)) => {}
        None => {
            let paths = prompt.input_paths();
            let mut read: std::collections::HashSet<&str> = Default::default();
            let mut suggested: Vec<&str> = Vec::new();
            let mut reported = Repeats::default();
            for path in &paths {
                let Some(first) = path.segments.first() else {
                    continue;
                };
                // Each name once, at its first read, noting the other paths.
                if !read.insert(first.as_str()) {
                    reported.again(first, source, &path.span);
                    continue;
                }
                if args.contains(&first.as_str()) {
                    continue;
                }
                let help = match crate::suggest::closest(first, args.iter().copied()) {
                    Some(close) => {
                        suggested.push(close);
                        format!("did you mean `{close}`?")
                    }
                    None => format!("add `{first} = …` to the `prompt!` call"),
                };
                let error = Diagnostic::new(format!("`{first}` is not an argument"))
                    .at(source, path.span.clone())
                    .with_help(help);
                reported.report(first, &mut found.problems, error, source, &path.span);
            }
            reported.note(&mut found.problems, "also read through other paths");
            for (at, arg) in args.iter().enumerate() {
                if !read.contains(arg) && !suggested.contains(arg) {
                    let message = format!("argument `{arg}` is not read by `{}`", source.path());
                    found.unknown.push((
                        at,
                        Diagnostic::new(message).with_help("remove it, or read it in the template"),
                    ));
                }
            }
        }
    }
    found
}

fn check_schema<'s>(
    prompt: &Dotprompt,
    schema: &'s Value,
    struct_name: &str,
    fields: &[FieldKind<'_>],
) -> FieldCheck<'s> {
    let source = prompt.source();
    let mut found = FieldCheck::default();
    let Some(props) = properties(schema) else {
        // No properties: every field is one the schema lacks.
        return unknown_fields(prompt, &super::Object::new(), fields);
    };
    let unknown = unknown_fields(prompt, props, fields);
    if !unknown.unknown.is_empty() {
        return unknown;
    }
    for (property, property_schema) in props.iter() {
        let span = property_span(prompt, &[property]);
        let Some((at, field)) = fields.iter().enumerate().find(|(_, f)| f.name == property) else {
            let help = match crate::suggest::closest(property, fields.iter().map(|f| f.name)) {
                Some(close) => format!("did you mean `{close}`? (rename the field)"),
                None if required(schema, property) => {
                    format!("add a field `{property}` to `{struct_name}`")
                }
                None => format!("add a field `{property}: Option<…>` to `{struct_name}`"),
            };
            found.problems.push(
                Diagnostic::new(format!(
                    "property `{property}` is not a field of `{struct_name}`"
                ))
                .at(source, span)
                .with_help(help),
            );
            continue;
        };
        let optional = field.kind.first() == Some(&TypeKind::Optional);
        let is_required = required(schema, property);
        if is_required && optional {
            found.problems.push(
                Diagnostic::new(format!(
                    "property `{property}` is required, but field `{property}` of `{struct_name}` is an `Option`"
                ))
                .at(source, span)
                .with_help(format!(
                    "make the field not an `Option`, or the property optional (`{property}?`)"
                )),
            );
            continue;
        }
        if !is_required && !optional {
            found.problems.push(
                Diagnostic::new(format!(
                    "property `{property}` is optional (`{property}?`), but field `{property}` of `{struct_name}` is not an `Option`"
                ))
                .at(source, span)
                .with_help(format!(
                    "make the field an `Option`, or the property required (`{property}` without `?`)"
                )),
            );
            continue;
        }
        if let Some(why) = compatible(property_schema, field.kind) {
            found.problems.push(
                Diagnostic::new(format!(
                    "field `{property}` of `{struct_name}` does not fit the schema's type"
                ))
                .at(source, span)
                .with_help(why),
            );
            continue;
        }
        found.nested.push((at, property, property_schema));
    }
    // A nested object's properties are checked once the fields fit.
    if !found.problems.is_empty() {
        found.nested.clear();
    }
    found
}

/// The fields the schema's properties (`props`) lack, each at the properties.
fn unknown_fields<'s>(
    prompt: &Dotprompt,
    props: &super::Object,
    fields: &[FieldKind<'_>],
) -> FieldCheck<'s> {
    let source = prompt.source();
    let mut found = FieldCheck::default();
    for (at, field) in fields.iter().enumerate() {
        if props.get(field.name).is_some() {
            continue;
        }
        let help = match crate::suggest::closest(field.name, props.keys()) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!(
                "add `{}` to the prompt's `input.schema`, or remove the field",
                field.name
            ),
        };
        let d = Diagnostic::new(format!(
            "field `{}` is not a property of the input schema of {}",
            field.name,
            source.path()
        ))
        .at(source, property_span(prompt, &[]))
        .with_help(help);
        found.unknown.push((at, d));
    }
    found
}

/// Each property of a nested object (in lists too) is a field of the field's type.
fn check_nested<'a>(
    prompt: &Dotprompt,
    path: &mut Vec<&'a str>,
    schema: &'a Value,
    shape: &Shape,
    steps: &mut Vec<Step<'a>>,
    problems: &mut Diagnostics,
) {
    if steps.len() > 16 {
        return;
    }
    match schema_type(schema).as_deref() {
        Some("array") => {
            if let Some(items) = schema.get("items") {
                steps.push(Step::Element);
                check_nested(prompt, path, items, shape, steps, problems);
                steps.pop();
            }
        }
        Some("object") => {
            let Some(props) = properties(schema) else {
                return;
            };
            for (property, inner) in props.iter() {
                path.push(property);
                steps.push(Step::Field(property));
                let shown = path.first().copied().unwrap_or_default();
                // The location is written by the diagnostic itself: a mark stands in its
                // place, splitting the message from the help.
                let message = check(shape, shown, steps, 0, "\u{E000}");
                if message.is_empty() {
                    check_nested(prompt, path, inner, shape, steps, problems);
                } else {
                    let (text, help) = message
                        .as_str()
                        .split_once('\u{E000}')
                        .unwrap_or((message.as_str(), ""));
                    let mut d =
                        Diagnostic::new(text).at(prompt.source(), property_span(prompt, path));
                    if !help.is_empty() {
                        d = d.with_help(help);
                    }
                    problems.push(d);
                }
                steps.pop();
                path.pop();
            }
        }
        _ => {}
    }
}

/// Without an input schema, the first name of every path the template reads is a field.
fn check_paths_without_schema(prompt: &Dotprompt, fields: &[FieldKind<'_>]) -> Diagnostics {
    let source = prompt.source();
    let mut problems = Diagnostics::default();
    // Each name once, at its first read (`{{usr.name}} {{usr.city}}` is one mistake),
    // noting the others.
    let paths = prompt.input_paths();
    let mut reported = Repeats::default();
    for path in &paths {
        let Some(first) = path.segments.first() else {
            continue;
        };
        if fields.iter().any(|f| f.name == first) || reported.again(first, source, &path.span) {
            continue;
        }
        let help = match crate::suggest::closest(first, fields.iter().map(|f| f.name)) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!("give a field `{first}`, or declare the prompt's `input.schema`"),
        };
        let error = Diagnostic::new(format!("`{first}` is not a field"))
            .at(source, path.span.clone())
            .with_help(help);
        reported.report(first, &mut problems, error, source, &path.span);
    }
    reported.note(&mut problems, "also read through other paths");
    problems
}
