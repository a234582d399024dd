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
    /// Where a type that cannot render is reported: the field's type, or the `prompt!`
    /// argument.
    pub span: proc_macro2::Span,
}

/// The body of `fn render(&self, identity: &Identity) -> PromptContent`.
pub fn render_body(prompt: &CheckedPrompt, access: &[Access], meta: &TokenStream) -> TokenStream {
    let parts = &prompt.resolved.parts;
    let (setup, identity) = setup(prompt, parts, access);
    let text = text_code(parts, access, &identity, prompt.resolved.line_flags);
    let path = prompt.file.source.path();
    quote! {
        #[allow(unused_imports)]
        use ::promptic::__private::{DisplayLike as _, StrLike as _};
        #setup
        #[allow(unused_mut)]
        let mut __marks: ::std::vec::Vec<usize> = ::std::vec::Vec::new();
        let __out = { #text };
        ::promptic::__private::PromptContent {
            text: __out,
            breakpoints: __marks,
            path: ::promptic::__private::Cow::Borrowed(#path),
            metadata: ::promptic::__private::Cow::Borrowed({
                static __PROMPTIC_META: ::promptic::__private::Meta = #meta;
                &__PROMPTIC_META
            }),
        }
    }
}

/// The body of `fn messages(&self, identity: &Identity) -> Chat` for a chat prompt: each
/// section's text made as `render` makes a prompt's, left out when empty, and each history
/// section's messages, the last `limit` when one is given.
pub fn messages_body(prompt: &CheckedPrompt, access: &[Access], meta: &TokenStream) -> TokenStream {
    let parts = &prompt.resolved.parts;
    let (setup, identity) = setup(prompt, parts, access);
    let flags = prompt.resolved.line_flags;
    let mut steps = TokenStream::new();
    let mut current = (quote!(System), "system_prompt".to_owned());
    let mut start = 0;
    let message = |role: &TokenStream, name: &str, segment: &[Part]| {
        if segment.is_empty() {
            return quote!();
        }
        let text = text_code(segment, access, &identity, flags);
        if segment.contains(&Part::CacheBreakpoint) {
            return quote! {
                let mut __marks: ::std::vec::Vec<usize> = ::std::vec::Vec::new();
                let __text = { #text };
                ::promptic::__private::CacheBreakpoint::push(
                    &mut __messages,
                    &mut __breakpoints,
                    ::promptic::__private::Message {
                        role: ::promptic::__private::Role::#role,
                        content: ::promptic::__private::Content::Text(__text),
                        section: ::promptic::__private::Cow::Borrowed(#name),
                    },
                    &__marks,
                );
            };
        }
        quote! {
            let __text = { #text };
            if !__text.is_empty() {
                __messages.push(::promptic::__private::Message {
                    role: ::promptic::__private::Role::#role,
                    content: ::promptic::__private::Content::Text(__text),
                    section: ::promptic::__private::Cow::Borrowed(#name),
                });
            }
        }
    };
    for (i, part) in parts.iter().enumerate() {
        match part {
            Part::Section { role, name } => {
                steps.extend(message(&current.0, &current.1, &parts[start..i]));
                let role = format_ident!("{}", format!("{role:?}"));
                current = (quote!(#role), name.clone());
                start = i + 1;
            }
            Part::History { index, limit, name } => {
                steps.extend(message(&current.0, &current.1, &parts[start..i]));
                let expr = &access[*index].expr;
                let keep = match limit {
                    Some(n) if *n > 0 => {
                        let n = usize::try_from(*n).unwrap_or(usize::MAX);
                        quote!(#n)
                    }
                    _ => quote!(__all.len()),
                };
                steps.extend(quote! {
                    {
                        let __all: &[::promptic::__private::Message] = ::core::convert::AsRef::as_ref(&#expr);
                        let __keep: usize = #keep;
                        for __m in &__all[__all.len().saturating_sub(__keep)..] {
                            __messages.push(::promptic::__private::Message {
                                role: __m.role,
                                content: ::core::clone::Clone::clone(&__m.content),
                                section: ::promptic::__private::Cow::Borrowed(#name),
                            });
                        }
                    }
                });
                current = (quote!(System), name.clone());
                start = i + 1;
            }
            _ => {}
        }
    }
    steps.extend(message(&current.0, &current.1, &parts[start..]));
    let path = prompt.file.source.path();
    quote! {
        #[allow(unused_imports)]
        use ::promptic::__private::{DisplayLike as _, StrLike as _};
        #setup
        let mut __messages: ::std::vec::Vec<::promptic::__private::Message> = ::std::vec::Vec::new();
        #[allow(unused_mut)]
        let mut __breakpoints: ::std::vec::Vec<::promptic::__private::CacheBreakpoint> = ::std::vec::Vec::new();
        #steps
        ::promptic::__private::Chat {
            messages: __messages,
            breakpoints: __breakpoints,
            path: ::promptic::__private::Cow::Borrowed(#path),
            metadata: ::promptic::__private::Cow::Borrowed({
                static __PROMPTIC_META: ::promptic::__private::Meta = #meta;
                &__PROMPTIC_META
            }),
        }
    }
}

/// The text of context variable `i`'s `value` (a reference to it): borrowed when it is
/// string-like, formatted when it is `Display`. A type that is neither is reported at the
/// field, naming the placeholder and the types accepted, by a last-resort method that
/// method resolution picks only then and whose bound nothing meets.
fn text_of(prompt: &CheckedPrompt, i: usize, a: &Access, value: TokenStream) -> TokenStream {
    let name = &prompt.schema.context[i].name;
    let written = prompt.file.syntax.write(name);
    let upper = prompt_runtime::variant_name(name);
    let used = prompt
        .resolved
        .variables
        .iter()
        .find(|v| {
            v.source == prompt_runtime::VarSource::Context && (v.name == *name || v.name == upper)
        })
        .and_then(|v| v.uses.first())
        .map(|u| format!(" ({}:{}:{})", u.path, u.line, u.col))
        .unwrap_or_default();
    let message = format!("`{{Self}}` cannot be rendered as the placeholder `{written}`{used}");
    let label = format!("the type of `{name}`, which `{written}` renders");
    text_guarded(&message, &label, a, value)
}

/// The text of `value` (a reference), with `message` and `label` for a type that cannot
/// render, reported at `a.span` (see [`text_of`]).
pub(crate) fn text_guarded(
    message: &str,
    label: &str,
    a: &Access,
    value: TokenStream,
) -> TokenStream {
    let note = "a placeholder takes text: `&str`, `String`, `Cow<str>`, a number, `bool`, `char`, or any type that implements `Display` or `AsRef<str>` (an `Option` of one, inside `{% if %}`); join a list into a `String` first, or implement `Display` for your type";
    quote_spanned! {a.span=>
        {
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            trait __PrompticRenders {}
            // Never used: rustc lists them as the types that do render, where it would
            // otherwise suggest implementing the trait.
            impl __PrompticRenders for str {}
            impl __PrompticRenders for ::promptic::__private::String {}
            impl __PrompticRenders for ::promptic::__private::Cow<'_, str> {}
            impl __PrompticRenders for i64 {}
            impl __PrompticRenders for u64 {}
            impl __PrompticRenders for f64 {}
            impl __PrompticRenders for bool {}
            impl __PrompticRenders for char {}
            trait __PrompticUnrenderable<'a> {
                type Inner: ?::core::marker::Sized;
                fn prompt_text(self) -> ::promptic::__private::Cow<'a, str>
                where
                    Self::Inner: __PrompticRenders;
            }
            impl<'a, T: ?::core::marker::Sized> __PrompticUnrenderable<'a> for ::promptic::__private::Tag<'a, T> {
                type Inner = T;
                fn prompt_text(self) -> ::promptic::__private::Cow<'a, str>
                where
                    T: __PrompticRenders,
                {
                    ::core::unreachable!()
                }
            }
            (&::promptic::__private::Tag(#value)).prompt_text()
        }
    }
}

/// The values a prompt's parts read, each bound once: context fields and identity names.
fn setup(
    prompt: &CheckedPrompt,
    parts: &[Part],
    access: &[Access],
) -> (TokenStream, BTreeMap<String, usize>) {
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
            // Read by the history sections themselves.
            VarKind::Messages => {}
            VarKind::Optional if a.plain_text.is_some() => {
                if usage.tested.contains(&i) || usage.values.contains(&i) {
                    let span = a.plain_text.unwrap_or_else(proc_macro2::Span::call_site);
                    setup.extend(quote_spanned! {span=>
                        let #o: ::core::option::Option<&str> = ::promptic::__private::plain_option(&#expr);
                    });
                }
            }
            VarKind::Optional => {
                if usage.tested.contains(&i) || usage.values.contains(&i) {
                    let text = text_of(prompt, i, a, quote!(__x));
                    setup.extend(quote! {
                        let #o = ::promptic::__private::Guard::guard(&#expr)
                            .map(|__x| #text);
                    });
                }
            }
            VarKind::Flag => {
                if usage.tested.contains(&i) {
                    setup.extend(quote! {
                        let #f: bool = ::promptic::__private::Guard::guard(&#expr).is_some();
                    });
                }
                if usage.values.contains(&i) {
                    setup.extend(quote! {
                        let #v = (&::promptic::__private::Tag(&#expr)).prompt_text();
                        let #c: &str = &#v;
                    });
                }
            }
            VarKind::Text | VarKind::Choice(_) if a.plain_text.is_some() => {
                if usage.tested.contains(&i) || usage.values.contains(&i) {
                    let span = a.plain_text.unwrap_or_else(proc_macro2::Span::call_site);
                    setup.extend(quote_spanned! {span=>
                        let #c: &str = ::promptic::__private::plain_text(&#expr);
                    });
                }
            }
            VarKind::Text | VarKind::Choice(_) => {
                if usage.tested.contains(&i) || usage.values.contains(&i) {
                    let text = text_of(prompt, i, a, quote!(&#expr));
                    setup.extend(quote! {
                        let #v = #text;
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
            static __PROMPTIC_IDENTITY: ::promptic::__private::KeySlots<#n> =
                ::promptic::__private::KeySlots::new([#(#lookups),*]);
            let [#(#ids),*]: [&str; #n] = __PROMPTIC_IDENTITY.values(identity);
        });
    }
    (setup, usage.identity)
}

/// An expression making the text of `parts`: measured, allocated once, written.
fn text_code(
    parts: &[Part],
    access: &[Access],
    identity: &BTreeMap<String, usize>,
    line_flags: usize,
) -> TokenStream {
    let mut emitter = Gen { access, identity };
    let measure = emitter.block(parts, Mode::Measure);
    let write = emitter.block(parts, Mode::Write);
    // Line flags start unset in each pass.
    let flags: Vec<_> = (0..line_flags).map(|i| format_ident!("__l{}", i)).collect();
    // A chat section uses the flags of its own lines only.
    let flags = quote! { #(#[allow(unused_mut, unused_variables)] let mut #flags = false;)* };
    quote! {
        let mut __len: usize = 0;
        #flags
        #measure
        let mut __out = ::promptic::__private::String::with_capacity(__len);
        #flags
        #write
        __out
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
                Part::Text(_)
                | Part::Line { .. }
                | Part::Section { .. }
                | Part::History { .. }
                | Part::CacheBreakpoint => {}
                Part::Context { index, .. } => self.values.push(*index),
                Part::Identity { lookup, .. } => {
                    let next = self.identity.len();
                    self.identity.entry(lookup.clone()).or_insert(next);
                }
                Part::If {
                    test,
                    then,
                    otherwise,
                    ..
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
                            quote! { __len += ::promptic::__private::upper_first_len(#c); }
                        }
                        (Mode::Write, false) => quote! { __out.push_str(#c); },
                        (Mode::Write, true) => {
                            quote! { ::promptic::__private::push_upper_first(&mut __out, #c); }
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
                            quote! { __len += ::promptic::__private::line_len(&mut #seen); }
                        }
                        Mode::Write => {
                            quote! { ::promptic::__private::push_line(&mut __out, &mut #seen); }
                        }
                    });
                }
                // Chat sections are split off before code is made for a message.
                Part::Section { .. } | Part::History { .. } => {}
                Part::CacheBreakpoint => {
                    if mode == Mode::Write {
                        flush(&mut text, &mut out);
                        out.extend(quote! { __marks.push(__out.len()); });
                    }
                }
                Part::If {
                    test,
                    then,
                    otherwise,
                    ..
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
            quote!(::core::option::Option::Some(::promptic::__private::Cow::Borrowed(#s)))
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
    let pairs = |extra: &prompt_runtime::Extra| {
        let pairs = extra.iter().map(|(k, v)| {
            quote!((::promptic::__private::Cow::Borrowed(#k), ::promptic::__private::Cow::Borrowed(#v)))
        });
        quote!(::promptic::__private::Extra(::promptic::__private::Cow::Borrowed(&[#(#pairs),*])))
    };
    let (extra, config) = (pairs(&meta.extra), pairs(&meta.config));
    let (model, input_schema, output_schema) = (
        text(&meta.model),
        text(&meta.input_schema),
        text(&meta.output_schema),
    );
    quote! {
        ::promptic::__private::Meta {
            title: #title,
            description: #description,
            color: ::promptic::__private::Color::rgb(#r, #g, #b),
            schedule: #schedule,
            priority: #priority,
            tier: #tier,
            kind: #kind,
            output: #output,
            tools: #tools,
            max_output_tokens: #max_output_tokens,
            thinking_budget: #thinking_budget,
            model: #model,
            config: #config,
            input_schema: #input_schema,
            output_schema: #output_schema,
            extra: #extra,
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

/// The `Prompt` trait's constants; `version` is [`prompt_runtime::check::version`].
pub fn constants(prompt: &CheckedPrompt, types: &[String], version: &str) -> TokenStream {
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
            ::promptic::__private::PromptVariable {
                name: #var_name,
                source: ::promptic::__private::VarSource::#source_kind,
                ty: #ty,
                uses: &[#(#uses),*],
            }
        }
    });
    quote! {
        const NAME: &'static str = #name;
        const PATH: &'static str = #path;
        const META: ::promptic::__private::Meta = #meta;
        const SOURCE: &'static str = #source;
        const VARIABLES: &'static [::promptic::__private::PromptVariable] = &[#(#variables),*];
        const IDENTITY_KEYS: &'static [&'static str] = &[#(#keys),*];
        const VERSION: &'static str = #version;
    }
}

/// `ChatPrompt::SECTIONS`: each section's name, role (none for history) and limit.
pub fn sections(prompt: &CheckedPrompt) -> TokenStream {
    let mut items = Vec::new();
    let has_preamble = prompt
        .resolved
        .parts
        .iter()
        .take_while(|p| !matches!(p, Part::Section { .. } | Part::History { .. }))
        .any(|p| *p != Part::CacheBreakpoint);
    if has_preamble {
        items.push(quote! {
            ::promptic::__private::ChatSection {
                name: "system_prompt",
                role: ::core::option::Option::Some(::promptic::__private::Role::System),
                limit: ::core::option::Option::None,
            }
        });
    }
    for part in &prompt.resolved.parts {
        match part {
            Part::Section { role, name } => {
                let role = format_ident!("{}", format!("{role:?}"));
                items.push(quote! {
                    ::promptic::__private::ChatSection {
                        name: #name,
                        role: ::core::option::Option::Some(::promptic::__private::Role::#role),
                        limit: ::core::option::Option::None,
                    }
                });
            }
            Part::History { limit, name, .. } => {
                let limit = match limit {
                    Some(n) => quote!(::core::option::Option::Some(#n)),
                    None => quote!(::core::option::Option::None),
                };
                items.push(quote! {
                    ::promptic::__private::ChatSection {
                        name: #name,
                        role: ::core::option::Option::None,
                        limit: #limit,
                    }
                });
            }
            _ => {}
        }
    }
    quote! {
        const SECTIONS: &'static [::promptic::__private::ChatSection] = &[#(#items),*];
    }
}
