//! Procedural macros of promptic: `#[derive(Prompt)]` and `prompt!`.
//!
//! This crate stays thin: it reads the macro input, hands the prompt file to
//! `prompt-runtime` (the one implementation of the language) and turns the result into
//! code, or its diagnostics into compile errors. Use it through the `promptic` crate.

mod call;
mod compile;
mod derive;
mod docs;
mod dotprompt;
mod emit;
mod family;
mod jinja;
mod keep_agent;
mod prompt_value;
mod store;
mod values;

use proc_macro::TokenStream;

/// Derives `promptic::Prompt` for a context struct, checked against its prompt file.
/// See the `promptic` crate for the full description.
#[proc_macro_derive(Prompt, attributes(prompt))]
pub fn derive_prompt(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive::expand(&input).into()
}

/// Renders a prompt file with the given values, checked at compile time.
/// See the `promptic` crate for the full description.
#[proc_macro]
pub fn prompt(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as call::CallInput);
    call::expand(&input).into()
}

/// Derives a store's embedded defaults and prompt-id constants from a PromptEngine folder,
/// checked at compile time. See the `promptic` crate for the full description.
#[proc_macro_derive(PromptStore, attributes(store))]
pub fn derive_prompt_store(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    store::expand(&input).into()
}

/// Derives `promptic::PromptValue` for a struct a template reads by field
/// (`user.name`). See the `promptic` crate for the full description.
#[proc_macro_derive(PromptValue, attributes(prompt))]
pub fn derive_prompt_value(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    prompt_value::expand(&input).into()
}
