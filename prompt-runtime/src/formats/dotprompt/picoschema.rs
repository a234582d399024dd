//! Picoschema, dotprompt's compact schema notation, compiled to JSON Schema.
//!
//! The rules are dotprompt's: a scalar type name (`string`, `number`, `integer`,
//! `boolean`, `null`, `any`) with an optional description after a comma; `name?` for an
//! optional property (its type becomes nullable); `name(array)`, `name(object)`,
//! `name(enum)` with an optional description inside the parentheses; `(*)` for the other
//! properties; any other type name is a named schema from the registry. A schema that
//! already looks like JSON Schema (a `type` it knows, or `properties`) passes through.

use super::value::{Object, Value};

const SCALARS: [&str; 6] = ["any", "boolean", "integer", "null", "number", "string"];

/// A Picoschema problem: the message and the text to point at (a key or a type name).
#[derive(Debug, PartialEq)]
pub(crate) struct PicoError {
    pub message: String,
    pub culprit: String,
    pub help: Option<String>,
}

/// Compiles a schema; `Ok(None)` for an absent (falsy) one. `resolve` finds named schemas.
pub(crate) fn compile(
    schema: &Value,
    resolve: &dyn Fn(&str) -> Option<Value>,
) -> Result<Option<Value>, PicoError> {
    if !schema.is_truthy() && !matches!(schema, Value::Array(_)) {
        return Ok(None);
    }
    if let Value::String(text) = schema {
        let (kind, description) = description(text);
        if SCALARS.contains(&kind) {
            let mut out = Object::new();
            out.insert("type", Value::from(kind));
            if let Some(d) = description {
                out.insert("description", Value::from(d));
            }
            return Ok(Some(Value::Object(out)));
        }
        return named(kind, description, resolve).map(Some);
    }
    if let Value::Object(object) = schema {
        let json_type = object.get("type").and_then(Value::as_str);
        if json_type.is_some_and(|t| SCALARS.contains(&t) || t == "object" || t == "array") {
            return Ok(Some(schema.clone()));
        }
        if matches!(
            object.get("properties"),
            Some(Value::Object(_) | Value::Array(_) | Value::Null)
        ) {
            let mut out = object.clone();
            out.insert("type", Value::from("object"));
            return Ok(Some(Value::Object(out)));
        }
    }
    pico(schema, resolve, 0).map(Some)
}

/// `type, description`: the type and the text after the first comma (blanks after the
/// comma dropped).
fn description(text: &str) -> (&str, Option<&str>) {
    match text.split_once(',') {
        Some((kind, rest)) => (kind, Some(rest.trim_start_matches(' '))),
        None => (text, None),
    }
}

fn named(
    name: &str,
    description: Option<&str>,
    resolve: &dyn Fn(&str) -> Option<Value>,
) -> Result<Value, PicoError> {
    let Some(mut schema) = resolve(name) else {
        return Err(PicoError {
            message: format!("unknown type or schema `{name}`"),
            culprit: name.to_owned(),
            help: Some(format!(
                "types are {}; other names must be registered schemas",
                SCALARS.join(", ")
            )),
        });
    };
    if let (Some(d), Value::Object(object)) = (description, &mut schema) {
        object.insert("description", Value::from(d));
    }
    Ok(schema)
}

fn pico(
    value: &Value,
    resolve: &dyn Fn(&str) -> Option<Value>,
    depth: usize,
) -> Result<Value, PicoError> {
    if depth > super::MAX_DEPTH {
        return Err(PicoError {
            message: format!("a schema nested more than {} deep", super::MAX_DEPTH),
            culprit: String::new(),
            help: None,
        });
    }
    if let Value::String(text) = value {
        let (kind, description) = description(text);
        if !SCALARS.contains(&kind) {
            return named(kind, description, resolve);
        }
        let mut out = Object::new();
        if kind != "any" {
            out.insert("type", Value::from(kind));
        }
        if let Some(d) = description {
            out.insert("description", Value::from(d));
        }
        return Ok(Value::Object(out));
    }
    let Value::Object(object) = value else {
        return Err(PicoError {
            message: format!(
                "Picoschema is made of objects and strings, found {}",
                serde_json::to_string(value).unwrap_or_default()
            ),
            culprit: value.to_js_string(),
            help: Some(
                "write a type name such as `string`, or nested `key: type` lines".to_owned(),
            ),
        });
    };
    let mut properties = Object::new();
    let mut required = Vec::new();
    let mut additional = Value::Bool(false);
    for (key, item) in object.iter() {
        if key == "(*)" {
            additional = pico(item, resolve, depth + 1)?;
            continue;
        }
        let (name, type_info) = match key.split_once('(') {
            Some((name, info)) => (name, Some(info)),
            None => (key, None),
        };
        let optional = name.ends_with('?');
        let property = name.strip_suffix('?').unwrap_or(name);
        if !optional {
            required.push(Value::from(property));
        }
        let Some(info) = type_info.filter(|i| !i.is_empty()) else {
            let mut prop = pico(item, resolve, depth + 1)?;
            if optional {
                nullable(&mut prop);
            }
            properties.insert(property, prop);
            continue;
        };
        // dotprompt drops the last character (the closing parenthesis) unchecked.
        let inner = &info[..info.len() - info.chars().next_back().map_or(0, char::len_utf8)];
        let (kind, description) = description(inner);
        let mut prop = match kind {
            "array" => {
                let mut out = Object::new();
                out.insert(
                    "type",
                    if optional {
                        Value::Array(vec![Value::from("array"), Value::from("null")])
                    } else {
                        Value::from("array")
                    },
                );
                out.insert("items", pico(item, resolve, depth + 1)?);
                Value::Object(out)
            }
            "object" => {
                let mut prop = pico(item, resolve, depth + 1)?;
                if optional && let Value::Object(o) = &mut prop {
                    let current = o.get("type").cloned().unwrap_or(Value::Null);
                    o.insert("type", Value::Array(vec![current, Value::from("null")]));
                }
                prop
            }
            "enum" => {
                let Value::Array(items) = item else {
                    return Err(PicoError {
                        message: format!("`{key}` lists no values"),
                        culprit: key.to_owned(),
                        help: Some("write the values as a list: `[RED, GREEN]`".to_owned()),
                    });
                };
                let mut items = items.clone();
                if optional && !items.contains(&Value::Null) {
                    items.push(Value::Null);
                }
                let mut out = Object::new();
                out.insert("enum", Value::Array(items));
                Value::Object(out)
            }
            other => {
                return Err(PicoError {
                    message: format!(
                        "parenthetical types must be `object`, `array` or `enum`, found `{other}`"
                    ),
                    culprit: key.to_owned(),
                    help: Some(format!(
                        "write `{property}(object)`, `{property}(array)` or `{property}(enum)`"
                    )),
                });
            }
        };
        if let (Some(d), Value::Object(o)) = (description, &mut prop) {
            o.insert("description", Value::from(d));
        }
        properties.insert(property, prop);
    }
    let mut schema = Object::new();
    schema.insert("type", Value::from("object"));
    schema.insert("properties", Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required", Value::Array(required));
    }
    schema.insert("additionalProperties", additional);
    Ok(Value::Object(schema))
}

/// An optional property whose `type` is one name becomes `[name, "null"]`.
fn nullable(prop: &mut Value) {
    if let Value::Object(o) = prop
        && let Some(Value::String(kind)) = o.get("type")
    {
        let kind = kind.clone();
        o.insert(
            "type",
            Value::Array(vec![Value::from(kind), Value::from("null")]),
        );
    }
}
