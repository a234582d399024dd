//! The rustdoc page of a derived prompt: title, description, metadata, variables, source.

use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::{Meta, VarSource};
use quote::ToTokens;
use std::fmt::Write;
use syn::Type;

/// A field type as a reader would write it (`&'a str`, `Option<u32>`).
pub fn type_name(ty: &Type) -> String {
    let raw = ty.to_token_stream().to_string();
    raw.replace("& '", "&'")
        .replace("& ", "&")
        .replace(" < ", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace(" :: ", "::")
}

/// The Markdown page.
pub fn page(prompt: &CheckedPrompt, types: &[String]) -> String {
    let meta = &prompt.meta;
    let path = prompt.file.source.path();
    let mut doc = String::new();
    let title = meta.title.as_deref().unwrap_or(&prompt.name);
    let _ = writeln!(doc, "Prompt **{title}**, from `{path}`.\n");
    if let Some(description) = &meta.description {
        let _ = writeln!(doc, "{description}\n");
    }
    let _ = writeln!(doc, "# Metadata\n\n| Key | Value |\n|---|---|");
    // The rows follow `Meta::KEYS` (title, description, color, …), then the extras in file
    // order, as `Meta` serializes; `to_json`'s map alone would sort them by name.
    let json = meta.to_json();
    let keys = Meta::KEYS
        .iter()
        .copied()
        .chain(meta.extra.iter().map(|(key, _)| key));
    for key in keys {
        let Some(value) = json.get(key) else {
            continue;
        };
        let value = match value {
            serde_json::Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let _ = writeln!(doc, "| `{key}` | {} |", code(&value).replace('|', "\\|"));
    }
    let _ = writeln!(
        doc,
        "\n# Variables\n\n| Name | Source | Type | Used at |\n|---|---|---|---|"
    );
    for v in &prompt.resolved.variables {
        let ty = match v.source {
            VarSource::Context => prompt
                .schema
                .context
                .iter()
                .position(|c| c.name == v.name || prompt_runtime::variant_name(&c.name) == v.name)
                .and_then(|i| types.get(i))
                .map(|t| format!("`{t}`"))
                .unwrap_or_default(),
            _ => String::new(),
        };
        let uses: Vec<String> = v
            .uses
            .iter()
            .map(|u| format!("{}:{}:{}", u.path, u.line, u.col))
            .collect();
        let _ = writeln!(
            doc,
            "| `${}` | {} | {ty} | {} |",
            v.name,
            v.source.as_str(),
            uses.join(", ")
        );
    }
    let source = prompt.file.source.text();
    let fence = "`".repeat(longest_backtick_run(source).max(2) + 1);
    let _ = write!(doc, "\n# Source\n\n{fence}text\n{source}\n{fence}\n");
    doc
}

/// `text` as a Markdown code span, whatever backticks it holds.
fn code(text: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}
