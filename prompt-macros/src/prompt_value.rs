//! `#[derive(PromptValue)]`: a struct a template reads by field (`user.name`), for every
//! front end that reads structured values.
//!
//! It emits the struct's `Shape` (its name and each field's name with the field type's
//! own shape), which the derive of a prompt checks paths against in `const` evaluation,
//! and `to_value`, a JSON object of the fields (an absent `Option` left out).

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr};

pub fn expand(input: &DeriveInput) -> TokenStream {
    match try_expand(input) {
        Ok(tokens) => tokens,
        Err(e) => e.to_compile_error(),
    }
}

fn try_expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new(
            input.ident.span(),
            "`#[derive(PromptValue)]` needs a struct with named fields: a template reads each field by name",
        ));
    };
    let named: Vec<&syn::Field> = match &data.fields {
        Fields::Named(named) => named.named.iter().collect(),
        Fields::Unit => Vec::new(),
        Fields::Unnamed(_) => {
            return Err(syn::Error::new(
                data.fields.span(),
                "`#[derive(PromptValue)]` needs named fields: a template reads `value.field`",
            ));
        }
    };
    let mut names = Vec::new();
    for field in &named {
        names.push(field_name(field)?);
    }
    let ident = &input.ident;
    let type_name = ident.to_string().trim_start_matches("r#").to_owned();
    let mut generics = input.generics.clone();
    for param in generics.type_params_mut() {
        param
            .bounds
            .push(syn::parse_quote!(::promptic::__private::PromptValue));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let shapes = named.iter().zip(&names).map(|(f, name)| {
        let ty = &f.ty;
        quote! {
            ::promptic::__private::FieldShape {
                name: #name,
                shape: &<#ty as ::promptic::__private::PromptValue>::SHAPE,
            }
        }
    });
    let values = named.iter().zip(&names).map(|(f, name)| {
        let field = f.ident.as_ref();
        let value = call(f, quote!(to_value(&self.#field)));
        quote! {
            if let ::core::option::Option::Some(__value) = #value
            {
                __object.insert(::promptic::__private::String::from(#name), __value);
            }
        }
    });
    let gets: Vec<TokenStream> = named
        .iter()
        .zip(&names)
        .map(|(f, name)| {
            let field = f.ident.as_ref();
            let view = call(f, quote!(view(&self.#field)));
            quote! { #name => #view, }
        })
        .collect();
    let paths: Vec<TokenStream> = named
        .iter()
        .zip(&names)
        .map(|(f, name)| {
            let field = f.ident.as_ref();
            let write = call(f, quote!(write_path(&self.#field, __rest, __out)));
            quote! { #name => #write, }
        })
        .collect();
    let mut sorted: Vec<(&syn::Field, &String)> = named.iter().copied().zip(&names).collect();
    sorted.sort_by(|a, b| a.1.cmp(b.1));
    let entries = sorted.iter().map(|(f, name)| {
        let field = f.ident.as_ref();
        let view = call(f, quote!(view(&self.#field)));
        quote! {
            match #view {
                ::promptic::__private::jc::View::Undefined => {}
                __view => __entries.push((::std::borrow::Cow::Borrowed(#name), __view)),
            }
        }
    });
    Ok(quote! {
        #[allow(single_use_lifetimes)]
        impl #impl_generics ::promptic::__private::jc::MapView for #ident #ty_generics #where_clause {
            #[inline]
            fn get(&self, __key: &str) -> ::promptic::__private::jc::View<'_> {
                match __key {
                    #(#gets)*
                    _ => ::promptic::__private::jc::View::Undefined,
                }
            }
            fn entries(&self) -> ::std::vec::Vec<(::std::borrow::Cow<'_, str>, ::promptic::__private::jc::View<'_>)> {
                let mut __entries = ::std::vec::Vec::new();
                #(#entries)*
                __entries
            }
            fn json(&self) -> ::core::option::Option<::promptic::__private::JsonValue> {
                ::promptic::__private::PromptValue::to_value(self)
            }
        }
        #[allow(single_use_lifetimes)]
        impl #impl_generics ::promptic::__private::PromptValue for #ident #ty_generics #where_clause {
            const SHAPE: ::promptic::__private::Shape = ::promptic::__private::Shape::Struct {
                name: #type_name,
                fields: &[#(#shapes),*],
            };
            fn to_value(&self) -> ::core::option::Option<::promptic::__private::JsonValue> {
                let mut __object = ::promptic::__private::JsonMap::new();
                #(#values)*
                ::core::option::Option::Some(::promptic::__private::JsonValue::Object(__object))
            }
            fn view(&self) -> ::promptic::__private::jc::View<'_> {
                ::promptic::__private::jc::View::Map(self)
            }
            const IN_PLACE: bool = true;
            #[inline(always)]
            fn attr(&self, __key: &str) -> ::core::option::Option<::promptic::__private::jc::View<'_>> {
                ::core::option::Option::Some(match __key {
                    #(#gets)*
                    _ => ::promptic::__private::jc::View::Undefined,
                })
            }
            #[inline(always)]
            fn write_path(&self, __keys: &[&str], __out: &mut ::promptic::__private::String) -> ::promptic::__private::Written {
                match __keys.split_first() {
                    ::core::option::Option::Some((__first, __rest)) => match *__first {
                        #(#paths)*
                        _ => ::promptic::__private::Written::Undefined,
                    },
                    ::core::option::Option::None => ::promptic::__private::Written::ByView,
                }
            }
        }
    })
}

/// A call of `PromptValue`'s `method` on field `f`, named through the field's type
/// (`<T as PromptValue>::method(…)`): a type that is no value is one error, at the type,
/// however many calls name it.
fn call(f: &syn::Field, method: TokenStream) -> TokenStream {
    let ty = &f.ty;
    quote! { <#ty as ::promptic::__private::PromptValue>::#method }
}

/// The name a template reads the field by: its own, or `#[prompt(rename = "name")]`.
fn field_name(field: &syn::Field) -> syn::Result<String> {
    let mut name = field
        .ident
        .as_ref()
        .map(|i| i.to_string().trim_start_matches("r#").to_owned())
        .unwrap_or_default();
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("prompt")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let lit: LitStr = meta.value()?.parse()?;
                name = lit.value();
                Ok(())
            } else {
                Err(meta.error("unknown attribute: a field takes `#[prompt(rename = \"name\")]`"))
            }
        })?;
    }
    Ok(name)
}
