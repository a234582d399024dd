//! Stage 5, emit: a checked prompt to Rust tokens.
//!
//! The render code is plain: look each value up once, add up the exact length, allocate
//! once, push the pieces. No formatting machinery, no wrappers.

use proc_macro2::{Literal, TokenStream};
use prompt_runtime::Meta;
use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::resolve::{Part, Test, VarKind};
use quote::{format_ident, quote, quote_spanned};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// How generated code reaches context variable `i`: `self.field` or a `prompt!` argument.
pub struct Access {
    pub expr: TokenStream,
    pub kind: VarKind,
    /// The span of the field's type when it is plainly text (`&str`, `String`, `Cow<str>`,
    /// or an `Option` of one): it is borrowed through `PlainText`, without the `Tag`
    /// dispatch, which keeps the expansion smaller and quicker to compile.
    pub plain_text: Option<proc_macro2::Span>,
}

/// The body of `fn render(&self, identity: &Identity) -> PromptContent`.
pub fn render_body(prompt: &CheckedPrompt, access: &[Access], meta: &TokenStream) -> TokenStream {
    let parts = &prompt.resolved.parts;
    let mut usage = Usage::default();
    usage.scan(parts);
    let mut setup = TokenStream::new();
    for (i, a) in access.iter().enumerate() {
        let expr = &a.expr;
        let (v, c, o, f) = (
            format_ident!("__v{}", i),
            format_ident!("__c{}", i),
            format_ident!("__o{}", i),
            format_ident!("__f{}", i),
        );
        match a.kind {
            VarKind::Optional if a.plain_text.is_some() => {
                if usage.tested.contains(&i) || usage.values.contains(&i) {
                    let span = a.plain_text.unwrap_or_else(proc_macro2::Span::call_site);
                    setup.extend(quote_spanned! {span=>
                        let #o: ::core::option::Option<&str> = ::promptkit::__private::plain_option(&#expr);
                    });
                }
            }
            VarKind::Optional => {
                if usage.tested.contains(&i) || usage.values.contains(&i) {
                    setup.extend(quote! {
                        let #o = ::promptkit::__private::Guard::guard(&#expr)
                            .map(|__x| (&::promptkit::__private::Tag(__x)).prompt_text());
                    });
                }
            }
            VarKind::Flag => {
                if usage.tested.contains(&i) {
                    setup.extend(quote! {
                        let #f: bool = ::promptkit::__private::Guard::guard(&#expr).is_some();
                    });
                }
                if usage.values.contains(&i) {
                    setup.extend(quote! {
                        let #v = (&::promptkit::__private::Tag(&#expr)).prompt_text();
                        let #c: &str = &#v;
                    });
                }
            }
            VarKind::Text | VarKind::Choice(_) if a.plain_text.is_some() => {
                if usage.tested.contains(&i) || usage.values.contains(&i) {
                    let span = a.plain_text.unwrap_or_else(proc_macro2::Span::call_site);
                    setup.extend(quote_spanned! {span=>
                        let #c: &str = ::promptkit::__private::plain_text(&#expr);
                    });
                }
            }
            VarKind::Text | VarKind::Choice(_) => {
                if usage.tested.contains(&i) || usage.values.contains(&i) {
                    setup.extend(quote! {
                        let #v = (&::promptkit::__private::Tag(&#expr)).prompt_text();
                        let #c: &str = &#v;
                    });
                }
            }
        }
    }
    if !usage.identity.is_empty() {
        // Each name's slot is found once per process; from then on a value is one load.
        let mut names: Vec<(&String, &usize)> = usage.identity.iter().collect();
        names.sort_by_key(|(_, k)| **k);
        let lookups = names.iter().map(|(lookup, _)| lookup);
        let ids = names.iter().map(|(_, k)| format_ident!("__id{}", k));
        let n = names.len();
        setup.extend(quote! {
            static __PROMPTKIT_IDENTITY: ::promptkit::__private::KeySlots<#n> =
                ::promptkit::__private::KeySlots::new([#(#lookups),*]);
            let [#(#ids),*]: [&str; #n] = __PROMPTKIT_IDENTITY.values(identity);
        });
    }
    let mut emitter = Gen {
        access,
        identity: &usage.identity,
    };
    let measure = emitter.block(parts, Mode::Measure);
    let write = emitter.block(parts, Mode::Write);
    // Line flags start unset in each pass.
    let flags: Vec<_> = (0..prompt.resolved.line_flags)
        .map(|i| format_ident!("__l{}", i))
        .collect();
    let flags = quote! { #(let mut #flags = false;)* };
    let path = prompt.file.source.path();
    quote! {
        #[allow(unused_imports)]
        use ::promptkit::__private::{DisplayLike as _, StrLike as _};
        #setup
        let mut __len: usize = 0;
        #flags
        #measure
        let mut __out = ::promptkit::__private::String::with_capacity(__len);
        #flags
        #write
        ::promptkit::__private::PromptContent {
            text: __out,
            path: ::promptkit::__private::Cow::Borrowed(#path),
            metadata: ::promptkit::__private::Cow::Borrowed({
                static __PROMPTKIT_META: ::promptkit::__private::Meta = #meta;
                &__PROMPTKIT_META
            }),
        }
    }
}

#[derive(Default)]
struct Usage {
    values: Vec<usize>,
    tested: Vec<usize>,
    identity: BTreeMap<String, usize>,
}

impl Usage {
    fn scan(&mut self, parts: &[Part]) {
        for part in parts {
            match part {
                Part::Text(_) | Part::Line { .. } => {}
                Part::Context { index, .. } => self.values.push(*index),
                Part::Identity { lookup, .. } => {
                    let next = self.identity.len();
                    self.identity.entry(lookup.clone()).or_insert(next);
                }
                Part::If {
                    test,
                    then,
                    otherwise,
                } => {
                    let (Test::Set(i) | Test::Equals(i, _)) = test;
                    self.tested.push(*i);
                    self.scan(then);
                    self.scan(otherwise);
                }
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Measure,
    Write,
}

struct Gen<'a> {
    access: &'a [Access],
    identity: &'a BTreeMap<String, usize>,
}

impl Gen<'_> {
    fn block(&mut self, parts: &[Part], mode: Mode) -> TokenStream {
        let mut out = TokenStream::new();
        let mut constant = 0usize;
        let mut text = String::new();
        let flush = |text: &mut String, out: &mut TokenStream| {
            if !text.is_empty() {
                let lit = Literal::string(text);
                out.extend(quote! { __out.push_str(#lit); });
                text.clear();
            }
        };
        for part in parts {
            match part {
                Part::Text(t) => match mode {
                    Mode::Measure => constant += t.len(),
                    Mode::Write => text.push_str(t),
                },
                Part::Context { index, upper } => {
                    flush(&mut text, &mut out);
                    let c = format_ident!("__c{}", index);
                    out.extend(match (mode, upper) {
                        (Mode::Measure, false) => quote! { __len += #c.len(); },
                        (Mode::Measure, true) => {
                            quote! { __len += ::promptkit::__private::upper_first_len(#c); }
                        }
                        (Mode::Write, false) => quote! { __out.push_str(#c); },
                        (Mode::Write, true) => {
                            quote! { ::promptkit::__private::push_upper_first(&mut __out, #c); }
                        }
                    });
                }
                Part::Identity { lookup, .. } => {
                    flush(&mut text, &mut out);
                    let id = format_ident!("__id{}", self.identity[lookup]);
                    out.extend(match mode {
                        Mode::Measure => quote! { __len += #id.len(); },
                        Mode::Write => quote! { __out.push_str(#id); },
                    });
                }
                Part::Line { flag } => {
                    flush(&mut text, &mut out);
                    let seen = format_ident!("__l{}", flag);
                    out.extend(match mode {
                        Mode::Measure => {
                            quote! { __len += ::promptkit::__private::line_len(&mut #seen); }
                        }
                        Mode::Write => {
                            quote! { ::promptkit::__private::push_line(&mut __out, &mut #seen); }
                        }
                    });
                }
                Part::If {
                    test,
                    then,
                    otherwise,
                } => {
                    flush(&mut text, &mut out);
                    let then = self.block(then, mode);
                    let otherwise = self.block(otherwise, mode);
                    let otherwise = if otherwise.is_empty() {
                        quote!()
                    } else {
                        quote!(else { #otherwise })
                    };
                    let condition = self.condition(test);
                    out.extend(quote! { if #condition { #then } #otherwise });
                }
            }
        }
        flush(&mut text, &mut out);
        if constant > 0 {
            out.extend(quote! { __len += #constant; });
        }
        out
    }

    fn condition(&self, test: &Test) -> TokenStream {
        let (i, expected) = match test {
            Test::Set(i) => (*i, None),
            Test::Equals(i, v) => (*i, Some(v)),
        };
        let (c, o, f) = (
            format_ident!("__c{}", i),
            format_ident!("__o{}", i),
            format_ident!("__f{}", i),
        );
        match (&self.access[i].kind, expected) {
            (VarKind::Optional, None) => {
                quote! { let ::core::option::Option::Some(#c) = #o.as_deref() }
            }
            (VarKind::Optional, Some(v)) => {
                quote! { let ::core::option::Option::Some(#c) = #o.as_deref().filter(|__x| *__x == #v) }
            }
            (VarKind::Flag, _) => quote! { #f },
            (_, Some(v)) => quote! { #c == #v },
            (_, None) => quote! { true },
        }
    }
}

/// The prompt's `Meta` as a constant expression.
pub fn meta(meta: &Meta) -> TokenStream {
    let text = |v: &Option<std::borrow::Cow<'static, str>>| match v {
        Some(s) => {
            let s = s.as_ref();
            quote!(::core::option::Option::Some(::promptkit::__private::Cow::Borrowed(#s)))
        }
        None => quote!(::core::option::Option::None),
    };
    let int = |v: Option<i64>| match v {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let uint = |v: Option<u64>| match v {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let (title, description, schedule, kind, output, tools) = (
        text(&meta.title),
        text(&meta.description),
        text(&meta.schedule),
        text(&meta.kind),
        text(&meta.output),
        text(&meta.tools),
    );
    let (priority, tier) = (int(meta.priority), int(meta.tier));
    let (max_output_tokens, thinking_budget) =
        (uint(meta.max_output_tokens), uint(meta.thinking_budget));
    let (r, g, b) = (meta.color.r, meta.color.g, meta.color.b);
    let extra = meta.extra.iter().map(|(k, v)| {
        quote!((::promptkit::__private::Cow::Borrowed(#k), ::promptkit::__private::Cow::Borrowed(#v)))
    });
    quote! {
        ::promptkit::__private::Meta {
            title: #title,
            description: #description,
            color: ::promptkit::__private::Color::rgb(#r, #g, #b),
            schedule: #schedule,
            priority: #priority,
            tier: #tier,
            kind: #kind,
            output: #output,
            tools: #tools,
            max_output_tokens: #max_output_tokens,
            thinking_budget: #thinking_budget,
            extra: ::promptkit::__private::Extra(::promptkit::__private::Cow::Borrowed(&[#(#extra),*])),
        }
    }
}

/// `include_bytes!` of every file read, so that cargo rebuilds when one changes.
pub fn tracked(files: &[PathBuf]) -> TokenStream {
    let files = files.iter().filter_map(|p| p.to_str());
    quote! {
        #(const _: &[u8] = ::core::include_bytes!(#files);)*
    }
}

/// The `Prompt` trait's constants.
pub fn constants(prompt: &CheckedPrompt, types: &[String]) -> TokenStream {
    let name = &prompt.name;
    let path = prompt.file.source.path();
    let source = prompt.file.source.text();
    let meta = meta(&prompt.meta);
    let keys = prompt.resolved.identity_keys();
    let variables = prompt.resolved.variables.iter().map(|v| {
        let var_name = &v.name;
        let source_kind = format_ident!("{}", format!("{:?}", v.source));
        let ty = match v.source {
            prompt_runtime::VarSource::Context => prompt
                .schema
                .context_index(&v.name)
                .and_then(|i| types.get(i))
                .cloned()
                .unwrap_or_default(),
            _ => String::new(),
        };
        let uses = v.uses.iter().map(|u| {
            let (p, l, c) = (&u.path, u.line as u32, u.col as u32);
            quote!((#p, #l, #c))
        });
        quote! {
            ::promptkit::__private::PromptVariable {
                name: #var_name,
                source: ::promptkit::__private::VarSource::#source_kind,
                ty: #ty,
                uses: &[#(#uses),*],
            }
        }
    });
    quote! {
        const NAME: &'static str = #name;
        const PATH: &'static str = #path;
        const META: ::promptkit::__private::Meta = #meta;
        const SOURCE: &'static str = #source;
        const VARIABLES: &'static [::promptkit::__private::PromptVariable] = &[#(#variables),*];
        const IDENTITY_KEYS: &'static [&'static str] = &[#(#keys),*];
    }
}
