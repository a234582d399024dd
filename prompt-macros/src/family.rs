//! `#[derive(Prompt)] #[prompt(family = "summarize")]`: every member of `prompts/summarize/`
//! checked against the one struct; the selection generated over constants.

use crate::compile::{self, Compiled};
use crate::derive::Field;
use crate::emit::{self, Access};
use proc_macro2::{Literal, TokenStream};
use prompt_runtime::family::Family;
use prompt_runtime::resolve::ContextVar;
use quote::quote;
use std::collections::BTreeSet;
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

const FORM: &str =
    "expected the family's folder: `#[prompt(family = \"summarize\")]` for `prompts/summarize/`";

/// True for an attribute that starts `#[prompt(family ...`.
fn names_family(attr: &syn::Attribute) -> bool {
    let Ok(list) = attr.meta.require_list() else {
        return false;
    };
    matches!(list.tokens.clone().into_iter().next(), Some(proc_macro2::TokenTree::Ident(i)) if i == "family")
}

fn prompt_attrs(input: &DeriveInput) -> impl Iterator<Item = &syn::Attribute> {
    input.attrs.iter().filter(|a| a.path().is_ident("prompt"))
}

/// True when the struct names a family (to choose the right fallback on error).
pub fn is_family(input: &DeriveInput) -> bool {
    prompt_attrs(input).any(names_family)
}

/// The family's name when the struct has `#[prompt(family = "...")]`.
pub fn family_name(input: &DeriveInput) -> syn::Result<Option<LitStr>> {
    let Some(attr) = prompt_attrs(input).find(|a| names_family(a)) else {
        return Ok(None);
    };
    if let Some(other) = prompt_attrs(input).find(|a| !std::ptr::eq(*a, attr)) {
        return Err(syn::Error::new(
            other.meta.span(),
            "only one `#[prompt(...)]` is allowed: a struct is a prompt (`#[prompt(\"name\")]`) or a family (`#[prompt(family = \"name\")]`)",
        ));
    }
    let lit = attr
        .parse_args_with(|input: ParseStream<'_>| {
            let _: syn::Ident = input.parse()?;
            let _: syn::Token![=] = input.parse()?;
            let lit: LitStr = input.parse()?;
            if !input.is_empty() {
                return Err(input.error(FORM));
            }
            Ok(lit)
        })
        .map_err(|e| syn::Error::new(e.span(), FORM))?;
    Ok(Some(lit))
}

/// On error, the items a family's users call, so that they see the error and not a
/// cascade of "`select` not found".
pub fn fallback(input: &DeriveInput, error: syn::Error) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let error = error.to_compile_error();
    let values = crate::values::fallback(input);
    quote! {
        #error
        #values
        #[allow(dead_code)]
        impl #impl_generics #ident #ty_generics #where_clause {
            pub const MEMBERS: &'static [::promptic::family::CompiledMember] = &[];
            pub const IDENTITY_KEYS: &'static [&'static str] = &[];
            pub fn select(_: &::promptic::Tags) -> &'static str {
                ""
            }
            pub fn render(&self, _: &::promptic::Tags, _: &::promptic::__private::Identity) -> ::promptic::__private::PromptContent {
                ::core::unreachable!()
            }
            pub fn render_member(&self, _: &::promptic::family::CompiledMember, _: &::promptic::__private::Identity) -> ::core::option::Option<::promptic::__private::PromptContent> {
                ::core::option::Option::None
            }
            pub fn select_for(_: &::promptic::Tags, _: ::core::option::Option<&str>) -> ::core::option::Option<&'static str> {
                ::core::option::Option::None
            }
            pub fn render_for(&self, _: &::promptic::Tags, _: ::core::option::Option<&str>, _: &::promptic::__private::Identity) -> ::core::option::Option<::promptic::__private::PromptContent> {
                ::core::option::Option::None
            }
        }
    }
}

pub fn expand(input: &DeriveInput, name: &LitStr, fields: &[Field]) -> syn::Result<TokenStream> {
    let project = compile::open(name)?;
    let family: Family = project
        .family(&name.value())
        .map_err(|d| compile::to_error(name, d))?;
    let context: Vec<ContextVar> = fields
        .iter()
        .map(|f| ContextVar::new(f.name.clone(), f.kind.clone()))
        .collect();
    let hint = format!(
        "add a field `{{}}` to `{}`, a key to the identity in prompts/promptic.json, or a template `prompts/{}/{{}}.md`",
        input.ident, project.config.templates
    );
    let mut errors: Option<syn::Error> = None;
    let mut used = vec![false; fields.len()];
    let mut compiled: Vec<Compiled> = Vec::new();
    for member in family.members() {
        let lit = LitStr::new(&member.id, name.span());
        match compile::check(&project, &lit, context.clone(), hint.clone()) {
            Ok(c) if c.prompt.resolved.is_chat() => {
                // Every member renders through the one `render`: text, not messages.
                used.iter_mut().for_each(|u| *u = true);
                compile::combine(
                    &mut errors,
                    syn::Error::new(
                        name.span(),
                        format!(
                            "`{}` is a chat prompt (it has sections): the members of a family are text prompts\n  = help: write {} without `{{% system %}}`/`{{% user %}}`/`{{% history %}}` sections, or move it out of `prompts/{}/` and derive it on its own",
                            member.id,
                            c.prompt.file.source.path(),
                            name.value(),
                        ),
                    ),
                );
            }
            Ok(c) => {
                for (i, u) in used.iter_mut().enumerate() {
                    *u |= !c.prompt.resolved.unused.contains(&i);
                }
                compiled.push(c);
            }
            Err(e) => {
                compile::combine(&mut errors, e);
                // A member that fails may still use fields (or mean to, misspelt): do not
                // call them unused.
                let unused = compile::unused_context(&project, &lit, &context);
                for (i, u) in used.iter_mut().enumerate() {
                    *u |= unused.as_ref().is_none_or(|n| !n.contains(&i));
                }
            }
        }
    }
    let folder = format!("prompts/{}/", name.value());
    for (f, u) in fields.iter().zip(&used) {
        if !u {
            compile::combine(
                &mut errors,
                syn::Error::new(
                    f.span,
                    format!(
                        "field `{}` is not used by any member of family `{}` ({folder})\n  = help: use `${}` in one of its prompts, or remove the field",
                        f.name,
                        name.value(),
                        f.name
                    ),
                ),
            );
        }
    }
    let constants = match member_constants(name, &family) {
        Ok(c) => c,
        Err(e) => {
            compile::combine(&mut errors, e);
            Vec::new()
        }
    };
    if let Some(e) = errors {
        return Err(e);
    }
    Ok(generate(
        input, name, fields, &family, &compiled, &constants,
    ))
}

/// Items the generated impl has already, which no member's constant may take.
const TAKEN: [&str; 2] = ["MEMBERS", "IDENTITY_KEYS"];

/// The constant a member is named by: its file name in upper case, each character that
/// is not an ASCII letter or digit a `_` (`myapp-meetings` is `MYAPP_MEETINGS`), with a
/// `_` in front of a leading digit. A store's prompt constants are named the same way.
pub(crate) fn constant_name(member: &str) -> String {
    let mut out: String = member
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// Each member's constant, in id order; an error when two members (or a member and an
/// item of the impl) would take the same name, or a name holds no letter or digit.
fn member_constants(name: &LitStr, family: &Family) -> syn::Result<Vec<syn::Ident>> {
    let folder = name.value();
    let mut taken: Vec<(String, String)> = TAKEN
        .iter()
        .map(|t| ((*t).to_owned(), String::new()))
        .collect();
    let mut out = Vec::new();
    for member in family.members() {
        let file = member
            .id
            .strip_prefix(&format!("{folder}/"))
            .unwrap_or(&member.id);
        let constant = constant_name(file);
        if !constant.chars().any(|c| c.is_ascii_alphanumeric()) {
            return Err(syn::Error::new(
                name.span(),
                format!(
                    "member `{}` of family `{folder}` cannot be named by a constant: its name `{file}` has no ASCII letter or digit\n  = help: rename `prompts/{folder}/{file}.md` (say `prompts/{folder}/default.md`): each member is a constant named after its file",
                    member.id
                ),
            ));
        }
        if let Some((_, other)) = taken.iter().find(|(c, _)| *c == constant) {
            let message = if other.is_empty() {
                format!(
                    "member `{}` of family `{folder}` would be the constant `{constant}`, which the derive generates already",
                    member.id
                )
            } else {
                format!(
                    "members `{other}` and `{}` of family `{folder}` would both be the constant `{constant}`",
                    member.id
                )
            };
            return Err(syn::Error::new(
                name.span(),
                format!(
                    "{message}\n  = help: rename `prompts/{folder}/{file}.md`: each member is a constant named after its file (upper case, `_` for each character that is not an ASCII letter or digit)"
                ),
            ));
        }
        taken.push((constant.clone(), member.id.clone()));
        out.push(syn::Ident::new(&constant, name.span()));
    }
    Ok(out)
}

fn generate(
    input: &DeriveInput,
    name: &LitStr,
    fields: &[Field],
    family: &Family,
    compiled: &[Compiled],
    constants: &[syn::Ident],
) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let access: Vec<Access> = fields
        .iter()
        .map(|f| {
            let field = &f.ident;
            Access {
                expr: quote!(self.#field),
                kind: f.kind.clone(),
                plain_text: crate::derive::plain_text(&f.ty).then(|| f.ty.span()),
                span: f.ty.span(),
            }
        })
        .collect();
    let members = family.members();
    let scope_of = |i: usize| family.scopes().get(i).and_then(Option::as_deref);
    // The fallback: the first member without rules or scope. A family of scoped members
    // only has none (`select` and `render` are not generated then).
    let default_of = members
        .iter()
        .enumerate()
        .position(|(i, m)| scope_of(i).is_none() && m.rules.is_default());
    let default = default_of.unwrap_or(0);

    // MEMBERS: names, paths and rules as constants.
    let member_consts = members.iter().zip(compiled).map(|(m, c)| {
        let (id, path) = (&m.id, c.prompt.file.source.path());
        let lines = m.rules.lines.iter().map(|line| {
            let pairs = line.pairs.iter().map(|p| {
                let (k, v) = (&p.key, &p.value);
                quote!((#k, #v))
            });
            quote!(&[#(#pairs),*])
        });
        quote! {
            ::promptic::family::CompiledMember { name: #id, path: #path, rules: &[#(#lines),*] }
        }
    });

    // One constant per member, so that a member is also taken by name (keep looks some up
    // by id, `analyze/incremental`).
    let member_items: Vec<TokenStream> = members
        .iter()
        .zip(compiled)
        .zip(constants)
        .map(|((m, c), constant)| {
            let (id, path) = (&m.id, c.prompt.file.source.path());
            let lines = m.rules.lines.iter().map(|line| {
                let pairs = line.pairs.iter().map(|p| {
                    let (k, v) = (&p.key, &p.value);
                    quote!((#k, #v))
                });
                quote!(&[#(#pairs),*])
            });
            let doc = format!("The member `{id}` (`{path}`): `render_member(&{constant}, …)` renders it.");
            quote! {
                #[doc = #doc]
                pub const #constant: ::promptic::family::CompiledMember =
                    ::promptic::family::CompiledMember { name: #id, path: #path, rules: &[#(#lines),*] };
            }
        })
        .collect();
    let by_name = members.iter().enumerate().map(|(i, m)| {
        let id = &m.id;
        quote!(#id => ::core::option::Option::Some(#i),)
    });

    // The selection: keep's comparisons, in id order, over constants, as
    // `Family::choose_for` makes them: a member takes part with a specificity or not at
    // all, and replaces the best so far only when it is the first or strictly more
    // specific.
    let candidates = members.iter().enumerate().map(|(i, m)| {
        let gate = match scope_of(i) {
            Some(scope) => {
                let specificity = scope.chars().filter(|c| !matches!(c, '*' | '?')).count();
                quote! {
                    match __item {
                        ::core::option::Option::Some(__id)
                            if ::promptic::__private::keep_scope_matches(__id, #scope) =>
                        {
                            ::core::option::Option::Some(#specificity)
                        }
                        _ => ::core::option::Option::None,
                    }
                }
            }
            None if m.rules.is_default() => quote!(::core::option::Option::Some(0usize)),
            None => {
                let lines = m.rules.lines.iter().map(|line| {
                    let tests = line.pairs.iter().map(|p| {
                        let (k, v) = (&p.key, &p.value);
                        quote!(::promptic::Tags::has(tags, #k, #v))
                    });
                    let count = line.pairs.len();
                    quote!(if #(#tests)&&* { ::core::option::Option::Some(#count) })
                });
                quote!(#(#lines else)* { ::core::option::Option::None })
            }
        };
        quote! {
            let __s: ::core::option::Option<usize> = #gate;
            if let ::core::option::Option::Some(__s) = __s {
                if __best.is_none() || __s > __most {
                    __most = __s;
                    __best = ::core::option::Option::Some(#i);
                }
            }
        }
    });
    let names: Vec<TokenStream> = members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let id = &m.id;
            quote!(#i => #id,)
        })
        .collect();
    let default_name = members.get(default).map_or("", |m| m.id.as_str());
    let arms = compiled
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != default)
        .map(|(i, c)| {
            let body = emit::render_body(&c.prompt, &access, &emit::meta(&c.prompt.meta));
            quote!(#i => { #body })
        });
    let default_body = compiled
        .get(default)
        .map(|c| emit::render_body(&c.prompt, &access, &emit::meta(&c.prompt.meta)))
        .unwrap_or_default();

    let mut files: Vec<std::path::PathBuf> = Vec::new();
    let mut keys: BTreeSet<String> = BTreeSet::new();
    for c in compiled {
        for f in &c.files {
            if !files.contains(f) {
                files.push(f.clone());
            }
        }
        keys.extend(c.prompt.resolved.identity_keys());
    }
    let tracked = emit::tracked(&files);
    let doc = page(name, family, constants);
    let default_index = Literal::usize_unsuffixed(default);
    let values = crate::values::expand(input, fields);
    // `select` and `render` need a member to fall back on: a family of scoped members
    // only has none, and chooses through `select_for` alone.
    let without_item = if default_of.is_some() {
        quote! {
            /// The member chosen for `tags` (`summarize/conversation`): the most specific
            /// member whose rules hold, a tie to the name that sorts first, else the
            /// default. Scoped members need an item: see `select_for`.
            pub fn select(tags: &::promptic::Tags) -> &'static str {
                match Self::__promptic_member(tags, ::core::option::Option::None).unwrap_or(#default_index) {
                    #(#names)*
                    _ => #default_name,
                }
            }

            /// Renders the member chosen for `tags` with this context and `identity`; the
            /// result's `path` and `metadata` are the member's. Cannot fail.
            pub fn render(&self, tags: &::promptic::Tags, identity: &::promptic::__private::Identity) -> ::promptic::__private::PromptContent {
                self.__promptic_render(Self::__promptic_member(tags, ::core::option::Option::None).unwrap_or(#default_index), identity)
            }
        }
    } else {
        TokenStream::new()
    };
    quote! {
        const _: () = { #tracked };
        #values
        #[doc = #doc]
        #[allow(dead_code, single_use_lifetimes, clippy::same_name_method)]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// The family's members in id order: name, file and rules (each rule line a
            /// list of `(key, value)` pairs; none for the default).
            pub const MEMBERS: &'static [::promptic::family::CompiledMember] = &[#(#member_consts),*];

            /// Every identity key a member uses, for `promptic::check_identity`.
            pub const IDENTITY_KEYS: &'static [&'static str] = &[#(#keys),*];

            #without_item

            /// The member keep chooses for an item with these `tags` and this id, as
            /// `Family::select_for` chooses at run time: a member with a `"scope"` takes
            /// part only when the item's id is given and the scope (a glob) matches it,
            /// then by the scope's length without `*` and `?`. `None` only for a family of
            /// scoped members of which none matches.
            pub fn select_for(tags: &::promptic::Tags, item_id: ::core::option::Option<&str>) -> ::core::option::Option<&'static str> {
                Self::__promptic_member(tags, item_id).map(|__i| match __i {
                    #(#names)*
                    _ => #default_name,
                })
            }

            #[doc(hidden)]
            fn __promptic_member(tags: &::promptic::Tags, item_id: ::core::option::Option<&str>) -> ::core::option::Option<usize> {
                // an empty id is no id, as in Python
                let __item = item_id.filter(|__id| !__id.is_empty());
                let mut __best: ::core::option::Option<usize> = ::core::option::Option::None;
                let mut __most: usize = 0;
                #(#candidates)*
                __best
            }

            /// Renders the member [`select_for`](Self::select_for) chooses, with this
            /// context and `identity`; `None` only when it chooses none.
            pub fn render_for(&self, tags: &::promptic::Tags, item_id: ::core::option::Option<&str>, identity: &::promptic::__private::Identity) -> ::core::option::Option<::promptic::__private::PromptContent> {
                Self::__promptic_member(tags, item_id).map(|__i| self.__promptic_render(__i, identity))
            }

            /// Renders one member by name, whatever the tags (`render_member(&Self::INCREMENTAL,
            /// &identity)`); `None` for a member of another family.
            pub fn render_member(&self, member: &::promptic::family::CompiledMember, identity: &::promptic::__private::Identity) -> ::core::option::Option<::promptic::__private::PromptContent> {
                let index: ::core::option::Option<usize> = match member.name {
                    #(#by_name)*
                    _ => ::core::option::Option::None,
                };
                index.map(|i| self.__promptic_render(i, identity))
            }

            #[doc(hidden)]
            #[inline]
            fn __promptic_render(&self, member: usize, identity: &::promptic::__private::Identity) -> ::promptic::__private::PromptContent {
                match member {
                    #(#arms)*
                    _ => { #default_body }
                }
            }

            #(#member_items)*
        }
    }
}

/// The rustdoc of the generated items: the family's members and their rules.
fn page(name: &LitStr, family: &Family, constants: &[syn::Ident]) -> String {
    let mut doc = format!(
        "Prompt family `prompts/{}/`: `select(&tags)` chooses a member, `render(&tags, &identity)` renders it; `select_for(&tags, Some(item_id))` and `render_for` also apply the members' `scope` (a glob over the item's id); `render_member(&Self::NAME, &identity)` renders one by name. Of members without rules or scope, the first is the default.\n\n| member | constant | match rules |\n|---|---|---|\n",
        name.value()
    );
    for (i, (m, constant)) in family.members().iter().zip(constants).enumerate() {
        let rules = if let Some(Some(scope)) = family.scopes().get(i) {
            format!("scope `{}`", scope.replace('`', "'"))
        } else if m.rules.is_default() {
            "*(default)*".to_owned()
        } else {
            m.rules
                .lines
                .iter()
                .map(|l| format!("`{l}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        doc.push_str(&format!("| `{}` | `{constant}` | {rules} |\n", m.id));
    }
    doc
}
