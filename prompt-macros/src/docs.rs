//! The rustdoc page of a derived prompt. The page itself is `prompt_runtime::doc`'s, the
//! same as `promptic docs` writes; this adds the one thing only the macro knows, the
//! Rust types of the fields.

use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::doc::{PageOptions, markdown_page};
use quote::ToTokens;
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

/// The Markdown page; rustdoc gives it its title, so the sections are at level 1.
pub fn page(prompt: &CheckedPrompt, types: &[String]) -> String {
    markdown_page(
        prompt,
        &PageOptions {
            heading_level: 1,
            field_types: Some(types),
            sections: Vec::new(),
        },
    )
}
