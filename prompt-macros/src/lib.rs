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
mod generators;
mod jinja;
mod keep_agent;
mod output;
mod prompt_value;
mod store;
mod values;

use proc_macro::TokenStream;

/// Part of [promptic](https://docs.rs/promptic): used as `promptic::Prompt` (<https://docs.rs/promptic/latest/promptic/derive.Prompt.html>).
#[proc_macro_derive(Prompt, attributes(prompt))]
pub fn derive_prompt(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive::expand(&input).into()
}

/// Part of [promptic](https://docs.rs/promptic): used as `promptic::prompt!` (<https://docs.rs/promptic/latest/promptic/macro.prompt.html>).
#[proc_macro]
pub fn prompt(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as call::CallInput);
    call::expand(&input).into()
}

/// Part of [promptic](https://docs.rs/promptic): used as `promptic::PromptStore` (<https://docs.rs/promptic/latest/promptic/derive.PromptStore.html>).
#[proc_macro_derive(PromptStore, attributes(store))]
pub fn derive_prompt_store(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    store::expand(&input).into()
}

/// Part of [promptic](https://docs.rs/promptic): used as `promptic::PromptValue` (<https://docs.rs/promptic/latest/promptic/derive.PromptValue.html>).
#[proc_macro_derive(PromptValue, attributes(prompt))]
pub fn derive_prompt_value(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    prompt_value::expand(&input).into()
}
