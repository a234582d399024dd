//! The fields of a typed output (`#[prompt("name", output = T)]`) against the output schema
//! the prompt declares.
//!
//! The macro sees the prompt's struct, not `T`. When `T` is a struct that derives
//! `PromptValue` in the same source file as the prompt, the macro reads its fields from
//! that file and checks them as it checks input fields: each property of the schema is a
//! field, of a type that holds the schema's type; a property the answer may leave out is
//! an `Option`; a field that is not an `Option` is a property. Each mismatch is an error at
//! the schema's line and column. A `T` defined elsewhere is not checked here; its answer
//! is still checked when `parse_output` reads it.

use crate::dotprompt::kind;
use prompt_runtime::formats::LoadedPrompt;
use prompt_runtime::formats::dotprompt::schema::{TypeKind, compatible, properties, required};
use prompt_runtime::{Diagnostic, Diagnostics};

/// A field of the output type: the name the answer's JSON has it by, and its type.
struct OutputField {
    name: String,
    ty: syn::Type,
}

/// The mismatches between `ty` (the `output = T` type) and the output schema `schema`
/// (JSON) that `prompt` declares; empty when `T` is not found or has no named fields.
pub(crate) fn check(ty: &syn::Type, schema: &str, prompt: &dyn LoadedPrompt) -> Diagnostics {
    let mut problems = Diagnostics::default();
    let Some((type_name, fields)) = output_fields(ty) else {
        return problems;
    };
    let Ok(schema) = prompt_runtime::value::js::from_str(schema) else {
        return problems;
    };
    let Some(props) = properties(&schema) else {
        return problems;
    };
    let at = |d: Diagnostic, property: Option<&str>| match prompt.output_schema_span(property) {
        Some((source, span)) => d.at(&source, span),
        None => d,
    };
    for field in &fields {
        let optional = kind(&field.ty).first() == Some(&TypeKind::Optional);
        if props.get(&field.name).is_none() && !optional {
            let help = match prompt_runtime::suggest::closest(&field.name, props.keys()) {
                Some(close) => format!("did you mean `{close}`? (rename the field)"),
                None => format!(
                    "add `{}` to the output schema's properties, or make the field an `Option`",
                    field.name
                ),
            };
            problems.push(at(
                Diagnostic::new(format!(
                    "field `{}` of `{type_name}` is not in the prompt's output schema, so no answer has it",
                    field.name
                ))
                .with_help(help),
                None,
            ));
        }
    }
    for (property, property_schema) in props.iter() {
        let Some(field) = fields.iter().find(|f| f.name == property) else {
            let help = match prompt_runtime::suggest::closest(
                property,
                fields.iter().map(|f| f.name.as_str()),
            ) {
                Some(close) => format!("did you mean `{close}`? (rename the field)"),
                None => format!("add a field `{property}` to `{type_name}`"),
            };
            problems.push(at(
                Diagnostic::new(format!(
                    "property `{property}` of the output schema is not a field of `{type_name}`"
                ))
                .with_help(help),
                Some(property),
            ));
            continue;
        };
        let field_kind = kind(&field.ty);
        let optional = field_kind.first() == Some(&TypeKind::Optional);
        if !required(&schema, property) && !optional {
            problems.push(at(
                Diagnostic::new(format!(
                    "property `{property}` is optional in the output schema, but field `{property}` of `{type_name}` is not an `Option`"
                ))
                .with_help("an answer may leave it out: make the field an `Option`, or the property required"),
                Some(property),
            ));
            continue;
        }
        if let Some(why) = compatible(property_schema, &field_kind) {
            problems.push(at(
                Diagnostic::new(format!(
                    "field `{property}` of `{type_name}` does not fit the output schema's type"
                ))
                .with_help(why),
                Some(property),
            ));
        }
    }
    problems
}

/// `T`'s name and named fields, read from the source file the derive is in, when `T` is a
/// struct there that derives `PromptValue`.
fn output_fields(ty: &syn::Type) -> Option<(String, Vec<OutputField>)> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let name = path.path.segments.last()?.ident.to_string();
    let file = proc_macro::Span::call_site().local_file()?;
    let text = std::fs::read_to_string(file).ok()?;
    let parsed = syn::parse_file(&text).ok()?;
    let top: Vec<&syn::Item> = parsed.items.iter().collect();
    let found = find_struct(&top, &name, 0)?;
    let syn::Fields::Named(named) = &found.fields else {
        return None;
    };
    let fields = named
        .named
        .iter()
        .filter_map(|f| {
            let ident = f.ident.as_ref()?;
            let name = renamed(&f.attrs).unwrap_or_else(|| {
                let written = ident.to_string();
                written
                    .strip_prefix("r#")
                    .map(str::to_owned)
                    .unwrap_or(written)
            });
            Some(OutputField {
                name,
                ty: f.ty.clone(),
            })
        })
        .collect();
    Some((name, fields))
}

/// The struct `name` among `items` (in modules and function bodies too) that derives
/// `PromptValue`.
fn find_struct<'a>(
    items: &[&'a syn::Item],
    name: &str,
    depth: usize,
) -> Option<&'a syn::ItemStruct> {
    if depth > 16 {
        return None;
    }
    for item in items {
        let inner: Vec<&syn::Item> = match item {
            syn::Item::Struct(s) if s.ident == name && derives_prompt_value(&s.attrs) => {
                return Some(s);
            }
            syn::Item::Mod(m) => match &m.content {
                Some((_, items)) => items.iter().collect(),
                None => continue,
            },
            syn::Item::Fn(f) => f
                .block
                .stmts
                .iter()
                .filter_map(|s| match s {
                    syn::Stmt::Item(i) => Some(i),
                    _ => None,
                })
                .collect(),
            _ => continue,
        };
        if let Some(found) = find_struct(&inner, name, depth + 1) {
            return Some(found);
        }
    }
    None
}

fn derives_prompt_value(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.meta
                .require_list()
                .is_ok_and(|list| list.tokens.to_string().contains("PromptValue"))
    })
}

/// A field's `#[prompt(rename = "...")]`.
fn renamed(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| {
        if !a.path().is_ident("prompt") {
            return None;
        }
        let mut name = None;
        let _ = a.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let value: syn::LitStr = meta.value()?.parse()?;
                name = Some(value.value());
            }
            Ok(())
        });
        name
    })
}
