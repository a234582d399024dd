//! `#[derive(PromptStore)]`: read `#[store("folder")]`, check the folder with the runtime's
//! loader, embed every file it read and offer the prompt ids as constants.

use crate::compile::{manifest_dir, to_error};
use proc_macro2::TokenStream;
use prompt_runtime::store::Defaults;
use quote::{format_ident, quote};
use syn::{DeriveInput, LitStr};

pub fn expand(input: &DeriveInput) -> TokenStream {
    match try_expand(input) {
        Ok(tokens) => tokens,
        Err(error) => fallback(input, error),
    }
}

/// On error, `defaults()` still exists, so that its callers do not add errors of their own.
fn fallback(input: &DeriveInput, error: syn::Error) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let error = error.to_compile_error();
    quote! {
        #error
        impl #impl_generics #ident #ty_generics #where_clause {
            #[allow(dead_code)]
            pub fn defaults() -> ::promptic::store::Defaults {
                ::core::unreachable!()
            }
        }
    }
}

/// The folder named by `#[store("folder")]`.
fn folder(input: &DeriveInput) -> syn::Result<LitStr> {
    let mut found = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("store")) {
        if found.is_some() {
            return Err(syn::Error::new_spanned(
                attr,
                "`#[store(...)]` is given twice",
            ));
        }
        let lit: LitStr = attr.parse_args().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected `#[store(\"folder\")]`: the store folder, relative to the crate",
            )
        })?;
        found = Some(lit);
    }
    found.ok_or_else(|| {
        syn::Error::new_spanned(
            &input.ident,
            "`#[derive(PromptStore)]` needs `#[store(\"folder\")]`: the store folder, relative to the crate",
        )
    })
}

/// The constant name of a prompt id: `system_rule` → `SYSTEM_RULE`.
fn constant(id: &str) -> Option<syn::Ident> {
    let name = crate::family::constant_name(id);
    syn::parse_str::<syn::Ident>(&name)
        .ok()
        .map(|_| format_ident!("{}", name))
}

fn try_expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let lit = folder(input)?;
    let Some(root) = manifest_dir() else {
        return Err(syn::Error::new(
            lit.span(),
            "CARGO_MANIFEST_DIR is not set: build with cargo",
        ));
    };
    let name = lit.value();
    let display = name.trim_end_matches('/');
    let dir = root.join(display);
    if !dir.is_dir() {
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "store folder `{display}` does not exist (looked in {})",
                dir.display()
            ),
        ));
    }
    // Diagnostics show the folder as the attribute writes it, not as an absolute path.
    let defaults = Defaults::__load_as(&dir, display).map_err(|d| to_error(&lit, d))?;

    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut constants = Vec::new();
    let mut seen: Vec<(String, String)> = Vec::new();
    for id in defaults.prompt_ids() {
        let Some(c) = constant(id) else { continue };
        let key = c.to_string();
        if let Some((_, other)) = seen.iter().find(|(k, _)| *k == key) {
            return Err(syn::Error::new(
                lit.span(),
                format!(
                    "prompt ids `{other}` and `{id}` would both be the constant `{key}`: rename one"
                ),
            ));
        }
        seen.push((key, id.to_owned()));
        let doc = format!("The id of prompt `{id}`.");
        constants.push(quote! { #[doc = #doc] pub const #c: &'static str = #id; });
    }
    let ids: Vec<&str> = defaults.prompt_ids().collect();
    let files = defaults.__files_read().iter().filter_map(|(rel, path)| {
        let path = path.to_str()?;
        Some(quote! { (#rel, ::core::include_bytes!(#path) as &[u8]) })
    });
    let doc = format!(
        "The store folder `{display}`, checked when this crate was built and embedded in it."
    );
    Ok(quote! {
        #[allow(dead_code)]
        impl #impl_generics #ident #ty_generics #where_clause {
            #(#constants)*
            /// Every prompt id, in manifest order.
            pub const PROMPT_IDS: &'static [&'static str] = &[#(#ids),*];
            #[doc = #doc]
            /// Reads nothing from disk; parsed once, on first use.
            pub fn defaults() -> ::promptic::store::Defaults {
                static FILES: &[(&str, &[u8])] = &[#(#files),*];
                static DEFAULTS: ::std::sync::OnceLock<::promptic::store::Defaults> = ::std::sync::OnceLock::new();
                DEFAULTS.get_or_init(|| ::promptic::store::Defaults::__embedded(#display, FILES)).clone()
            }
        }
    })
}
