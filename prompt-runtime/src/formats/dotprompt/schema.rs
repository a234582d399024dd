//! What a dotprompt file's input schema says about the values its template reads: the
//! checks that the derive and the `promptic` command both run, so that one file gets the
//! same diagnostics from both.

use super::{Dotprompt, Object, Value};
use crate::diagnostic::{Diagnostic, Diagnostics};

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
/// # Ok::<(), promptic::Diagnostics>(())
/// ```
pub fn check_input_paths(prompt: &Dotprompt) -> Diagnostics {
    let mut problems = Diagnostics::default();
    let metadata = prompt.render_metadata();
    let Some(schema) = metadata.input_schema() else {
        return problems;
    };
    let source = prompt.source();
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
            let help = match crate::suggest::closest(segment, props.keys()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("add `{segment}` to the prompt's `input.schema`"),
            };
            problems.push(
                Diagnostic::new(format!(
                    "the template reads `{read}`, which the input schema does not have"
                ))
                .at(source, path.span.clone())
                .with_help(help),
            );
            break;
        }
    }
    problems
}
