//! `ContextValues`: the struct's fields as data, for the renderers that work at run time
//! (hot reload). Emitted for every prompt struct when the `hot-reload` feature is on, and
//! only then: the impl is a sixth of what the compiler spends on a Markdown prompt.

use crate::derive::Field;
use proc_macro2::TokenStream;
use prompt_runtime::resolve::VarKind;
use quote::quote;
use syn::DeriveInput;

/// `impl ContextValues for Struct`: each field's name and kind, and its value read the way
/// the generated `render` reads it (string-like values borrowed, others through `Display`).
pub fn expand(input: &DeriveInput, fields: &[Field]) -> TokenStream {
    if !cfg!(feature = "hot-reload") {
        return TokenStream::new();
    }
    let ident = &input.ident;
    let struct_name = ident.to_string();
    let struct_name = struct_name.trim_start_matches("r#");
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let context = fields.iter().map(|f| {
        let name = &f.name;
        let kind = match &f.kind {
            VarKind::Text => quote!(Text),
            VarKind::Optional => quote!(Optional),
            VarKind::Flag => quote!(Flag),
            VarKind::Messages => quote!(Messages),
            VarKind::Choice(values) => quote!(Choice(&[#(#values),*])),
        };
        quote! {
            ::promptic::__private::ContextField {
                name: #name,
                kind: ::promptic::__private::FieldKind::#kind,
            }
        }
    });
    let values = fields.iter().map(|f| {
        let name = &f.name;
        let field = &f.ident;
        // The `Tag` dispatch for every type, even plain text: a type the derive mistook
        // for std's (`struct String`), or one that cannot render at all, is reported once,
        // by `render`, not here again.
        let value = match &f.kind {
            VarKind::Text | VarKind::Choice(_) => quote! {
                ::promptic::__private::ContextValue::Text(
                    (&::promptic::__private::Tag(&self.#field)).prompt_text(),
                )
            },
            VarKind::Optional => quote! {
                match ::promptic::__private::Guard::guard(&self.#field) {
                    ::core::option::Option::Some(__x) => ::promptic::__private::ContextValue::Text(
                        (&::promptic::__private::Tag(__x)).prompt_text(),
                    ),
                    ::core::option::Option::None => ::promptic::__private::ContextValue::Absent,
                }
            },
            VarKind::Flag => quote! {
                ::promptic::__private::ContextValue::Flag(
                    ::promptic::__private::Guard::guard(&self.#field).is_some(),
                )
            },
            VarKind::Messages => quote! {
                ::promptic::__private::ContextValue::Messages(
                    ::core::convert::AsRef::<[::promptic::__private::Message]>::as_ref(&self.#field),
                )
            },
        };
        quote!((#name, #value))
    });
    quote! {
        #[allow(single_use_lifetimes)]
        impl #impl_generics ::promptic::__private::ContextValues for #ident #ty_generics #where_clause {
            const STRUCT_NAME: &'static str = #struct_name;
            const CONTEXT: &'static [::promptic::__private::ContextField] = &[#(#context),*];
            #[inline]
            fn context_values(&self) -> ::promptic::__private::Vec<(&'static str, ::promptic::__private::ContextValue<'_>)> {
                #[allow(unused_imports)]
                use ::promptic::__private::{DisplayLike as _, StrLike as _, Unreported as _};
                ::promptic::__private::Vec::from([#(#values),*])
            }
        }
    }
}

/// On error, an impl without fields, so that a use of the struct as `ContextValues` adds
/// no error of its own.
pub fn fallback(input: &DeriveInput) -> TokenStream {
    if !cfg!(feature = "hot-reload") {
        return TokenStream::new();
    }
    let ident = &input.ident;
    let struct_name = ident.to_string();
    let struct_name = struct_name.trim_start_matches("r#");
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        impl #impl_generics ::promptic::__private::ContextValues for #ident #ty_generics #where_clause {
            const STRUCT_NAME: &'static str = #struct_name;
            const CONTEXT: &'static [::promptic::__private::ContextField] = &[];
            fn context_values(&self) -> ::promptic::__private::Vec<(&'static str, ::promptic::__private::ContextValue<'_>)> {
                ::promptic::__private::Vec::new()
            }
        }
    }
}
