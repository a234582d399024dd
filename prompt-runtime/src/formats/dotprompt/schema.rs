//! What a dotprompt file's input schema says about the values its template reads: the
//! checks that the derive and the `promptic` command both run, so that one file gets the
//! same diagnostics from both.

use super::{Dotprompt, Object, Value};
use crate::diagnostic::{Diagnostic, Diagnostics, Repeats};

/// A schema's type, without `null`: `None` for a schema that takes anything.
///
/// ```
/// use promptic::dotprompt::{Value, schema::schema_type};
///
/// let schema: Value = serde_json::from_str(r#"{"type": ["string", "null"]}"#)?;
/// assert_eq!(schema_type(&schema).as_deref(), Some("string"));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn schema_type(schema: &Value) -> Option<String> {
    match schema.get("type")? {
        Value::String(t) => Some(t.clone()),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .map(str::to_owned),
        _ => None,
    }
}

/// An object schema's properties.
pub fn properties(schema: &Value) -> Option<&Object> {
    schema.get("properties").and_then(Value::as_object)
}

/// Whether an object schema lists `property` as required.
pub fn required(schema: &Value, property: &str) -> bool {
    schema.get("required").is_some_and(|r| match r {
        Value::Array(r) => r.iter().any(|v| v.as_str() == Some(property)),
        _ => false,
    })
}

/// Every path the template reads exists in the prompt's input schema: a path that does not
/// is reported where the template reads it, with the closest property. A prompt without
/// an input schema passes (what it reads is then checked against the values given).
///
/// ```
/// use promptic::dotprompt::{Dotprompt, schema::check_input_paths};
///
/// let source = "---\ninput:\n  schema:\n    summary: string\n---\nTicket: {{summray}}\n";
/// let prompt = Dotprompt::parse(source)?;
/// let problems = check_input_paths(&prompt).to_string();
/// assert!(problems.contains("the template reads `summray`, which the input schema does not have"));
/// assert!(problems.contains("did you mean `summary`?"));
///
/// // One error for one missing property, however many paths read through it.
/// let source = "---\ninput:\n  schema:\n    user(object):\n      name: string\n---\n{{user.emial.a}} {{user.emial.b}}\n";
/// let problems = check_input_paths(&Dotprompt::parse(source)?);
/// assert_eq!(problems.0.len(), 1);
/// assert_eq!(problems.0[0].notes(), ["also read through other paths at <prompt>:7:20"]);
/// # Ok::<(), promptic::Diagnostics>(())
/// ```
pub fn check_input_paths(prompt: &Dotprompt) -> Diagnostics {
    let mut problems = Diagnostics::default();
    let metadata = prompt.render_metadata();
    let Some(schema) = metadata.input_schema() else {
        return problems;
    };
    let source = prompt.source();
    // A missing property is one error, however many paths read through it
    // (`user.emial.a`, `user.emial.b`), noting the other places.
    let mut missing = Repeats::default();
    for path in prompt.input_paths() {
        let mut at = schema;
        for (i, segment) in path.segments.iter().enumerate() {
            match schema_type(at).as_deref() {
                Some("object") => {}
                Some("array") => {
                    if (segment == "length" || segment.parse::<usize>().is_ok())
                        && let Some(items) = at.get("items")
                    {
                        at = items;
                        continue;
                    }
                    break;
                }
                // Anything goes under `any`, and a scalar has nothing to read:
                // Handlebars reads a missing key as empty.
                _ => break,
            }
            let Some(props) = properties(at) else { break };
            if let Some(next) = props.get(segment) {
                at = next;
                continue;
            }
            let read = path.segments[..=i].join(".");
            if missing.again(&read, source, &path.span) {
                break;
            }
            let help = match crate::suggest::closest(segment, props.keys()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("add `{segment}` to the prompt's `input.schema`"),
            };
            let error = Diagnostic::new(format!(
                "the template reads `{read}`, which the input schema does not have"
            ))
            .at(source, path.span.clone())
            .with_help(help);
            missing.report(&read, &mut problems, error, source, &path.span);
            break;
        }
    }
    missing.note(&mut problems, "also read through other paths");
    problems
}

/// What a field's Rust type gives a template, as the derive reads it from the type as
/// written: one step per layer, outermost first (`Option<Vec<&str>>` is
/// `[Optional, List, Text]`). References, `Box`, `Rc`, `Arc` and `Cow` are looked through;
/// a type the derive cannot read from its name (a `PromptValue` struct, a map, an alias) is
/// [`TypeKind::Other`], which fits any schema but a scalar one.
///
/// ```
/// use promptic::dotprompt::schema::{TypeKind, compatible};
/// use promptic::dotprompt::Value;
///
/// let schema: Value = serde_json::from_str(r#"{"type": "array", "items": {"type": "string"}}"#)?;
/// assert_eq!(compatible(&schema, &[TypeKind::List, TypeKind::Text]), None);
/// assert_eq!(
///     compatible(&schema, &[TypeKind::List, TypeKind::Number]).as_deref(),
///     Some("its items: the schema says string: use `String` or `&str`")
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeKind {
    /// `String`, `str`.
    Text,
    /// An integer or a float type.
    Number,
    /// `bool`.
    Bool,
    /// `Vec<T>`, `[T]`, `[T; N]`: the next step is the items'.
    List,
    /// `Option<T>`: the next step is the value's.
    Optional,
    /// Any other type.
    Other,
}

/// Whether a field whose type is `kind` ([`TypeKind`], outermost first) can hold a value of
/// `schema`: `None` when it can (or the schema has no type), else what is wrong, as help
/// for the user. An `Option` is looked through: whether the property may be absent is
/// checked apart.
pub fn compatible(schema: &Value, kind: &[TypeKind]) -> Option<String> {
    let kind = match kind.split_first() {
        Some((TypeKind::Optional, inner)) => inner,
        _ => kind,
    };
    let t = schema_type(schema)?;
    let fits = match (t.as_str(), kind.first().copied().unwrap_or(TypeKind::Other)) {
        (_, TypeKind::Other) => t != "string" && t != "number" && t != "integer" && t != "boolean",
        ("string", TypeKind::Text)
        | ("number" | "integer", TypeKind::Number)
        | ("boolean", TypeKind::Bool) => true,
        ("array", TypeKind::List) => {
            return schema.get("items").and_then(|items_schema| {
                compatible(items_schema, &kind[1..]).map(|why| format!("its items: {why}"))
            });
        }
        _ => false,
    };
    if fits {
        None
    } else {
        let (shown, types) = wanted(&t);
        Some(format!("the schema says {shown}: use {types}"))
    }
}

/// How a schema type is written for the user, and the Rust types it takes.
fn wanted(t: &str) -> (&'static str, &'static str) {
    match t {
        "string" => ("string", "`String` or `&str`"),
        "number" => ("number", "a number type (`f64`, `i64`, ...)"),
        "integer" => ("integer", "an integer type (`i64`, `u32`, ...)"),
        "boolean" => ("boolean", "`bool`"),
        "array" => ("array", "`Vec<T>` or `&[T]`"),
        "object" => ("object", "a `#[derive(PromptValue)]` struct"),
        _ => ("value", "a type that implements `PromptValue`"),
    }
}

/// The span of the input schema's property at `path` in the frontmatter (exact: found by
/// the layout of the YAML block mappings); else the `schema:` key under `input:`, the
/// `input:` key, or the prompt's first byte.
pub fn property_span(prompt: &Dotprompt, path: &[&str]) -> std::ops::Range<usize> {
    let mut full = vec!["input", "schema"];
    full.extend_from_slice(path);
    (2..=full.len())
        .rev()
        .find_map(|n| prompt.frontmatter_key_span(&full[..n]))
        .or_else(|| prompt.frontmatter_key_span(&["input"]))
        .unwrap_or(0..0)
}
