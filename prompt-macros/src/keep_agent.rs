//! `#[derive(Prompt)]` on a keep agent prompt (`"placeholders": "keep"`): the template read
//! by the run-time front end (`formats::keep`: includes expanded, then `AgentPrompt`), each
//! placeholder checked against the struct's fields, and a render generated that gives the
//! bytes `AgentPrompt::render` gives for the same values.
//!
//! - `{text}`, `{since}`, `{until}`, `{name}`: the field of that name. An `Option` field that
//!   is `None` is a binding that did not fire (it renders nothing, or its fallback).
//! - `{name|fallback}`: the field must be an `Option`; `None` or a blank value renders the
//!   fallback.
//! - `{get}`, `{find}`, `{find:deep:3000}`: retrievals, filled by the closure handed to
//!   `render` with the name and the arguments (`"find"`, `["deep", "3000"]`); `None` renders
//!   nothing. A prompt without retrievals has `render(&self)`.

use crate::compile;
use crate::derive::Field;
use crate::emit::{self, Access};
use proc_macro2::TokenStream;
use prompt_runtime::diagnostic::Repeats;
use prompt_runtime::formats::keep::{
    AgentFile, AgentKind, AgentPart, AgentPlaceholder, AgentPrompt, TracedExpansion,
};
use prompt_runtime::load::Project;
use prompt_runtime::meta::Meta;
use prompt_runtime::resolve::VarKind;
use prompt_runtime::suggest::closest;
use prompt_runtime::{Diagnostic, Diagnostics};
use quote::{quote, quote_spanned};
use std::ops::Range;
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

/// The derive for `name` when it is a keep agent prompt; `None` for any other prompt.
pub fn derive(
    input: &DeriveInput,
    name: &LitStr,
    fields: &[Field],
    project: &Project,
) -> Option<TokenStream> {
    let agent = AgentFile::read(project, &name.value()).ok()??;
    let mut read = Read {
        project,
        name,
        agent,
    };
    Some(match read.expand(input, fields) {
        Ok(tokens) => tokens,
        Err((error, retrieves)) => fallback(input, error, retrieves),
    })
}

/// A keep agent prompt being read: the prompt's file and the files it includes, read by
/// the run-time reader the `promptic` command uses too.
struct Read<'p> {
    project: &'p Project,
    name: &'p LitStr,
    agent: AgentFile,
}

/// What fills a placeholder.
enum Fill {
    /// The retrieval closure, with the name and arguments.
    Retrieval,
    /// A field of the struct, or an argument of `prompt!`.
    Value(Value),
}

/// How a [`Value`] is read.
#[derive(Clone, Copy, PartialEq)]
enum Reading {
    Optional,
    Given,
    Argument,
}

/// A field or an argument that fills placeholders.
struct Value {
    /// Its name, for the generated docs.
    name: String,
    /// The expression that reads it (`self.text`, `__a0`).
    expr: TokenStream,
    /// How it is read: an `Option` field, a field of any other type, or a `prompt!`
    /// argument (either, told apart by its type where the macro expands).
    read: Reading,
    /// Where a type that cannot render is reported.
    span: proc_macro2::Span,
}

/// Whether `prompt` retrieves (a `get` or `find` placeholder): `render` then takes the
/// closure that does it.
fn retrieves(prompt: &AgentPrompt) -> bool {
    prompt
        .placeholders()
        .any(|p| matches!(p.kind, AgentKind::Get | AgentKind::Find))
}

impl Read<'_> {
    /// Places `d` at `span` of the expanded template.
    fn at_template(
        &self,
        d: Diagnostic,
        expanded: &TracedExpansion,
        span: Range<usize>,
    ) -> Diagnostic {
        self.agent.at_template(d, expanded, span)
    }

    fn error(&self, d: Diagnostic) -> syn::Error {
        compile::to_error(self.name, Diagnostics::from(d))
    }

    /// The frontmatter as every prompt's: typed metadata (`None` after an error), its
    /// near-misses errors too, combined into `errors`.
    fn meta(&self, errors: &mut Option<syn::Error>) -> Option<Meta> {
        let meta = match self
            .project
            .check_loaded(&self.name.value(), self.agent.top.clone())
        {
            Ok(checked) => Some(checked.meta),
            Err(problems) => {
                compile::combine(errors, compile::to_error(self.name, problems));
                None
            }
        };
        let lints = prompt_runtime::check::frontmatter_warnings(&self.agent.top);
        if !lints.is_empty() {
            compile::combine(errors, compile::to_error(self.name, lints.into()));
        }
        meta
    }

    fn expand(
        &mut self,
        input: &DeriveInput,
        fields: &[Field],
    ) -> Result<TokenStream, (syn::Error, bool)> {
        let path = self.agent.top.source.path().to_owned();
        let expanded = match self.agent.expand(self.project) {
            Ok(expanded) => expanded,
            Err(d) => {
                // the retrievals the prompt's own text shows decide `render`'s form
                let retrieves = retrieves(&AgentPrompt::parse(self.agent.top.body_text()));
                return Err((self.error(d), retrieves));
            }
        };
        let prompt = AgentPrompt::parse(&expanded.text);
        let retrieves = retrieves(&prompt);
        let mut errors: Option<syn::Error> = None;
        let meta = self.meta(&mut errors);

        // Every placeholder filled: retrievals by the closure, the others by a field.
        let mut problems = Diagnostics::default();
        let mut fills: Vec<Option<Fill>> = Vec::new();
        let mut used = vec![false; fields.len()];
        // A name no field has is one error, however often it is written, noting the
        // other places; the field its did-you-mean names is not reported unused as well.
        let mut unknown = Repeats::default();
        for p in prompt.placeholders() {
            if matches!(p.kind, AgentKind::Get | AgentKind::Find) {
                fills.push(Some(Fill::Retrieval));
                continue;
            }
            let Some(i) = fields.iter().position(|f| f.name == p.name) else {
                let written = &expanded.text[p.span.clone()];
                let again = Diagnostic::new(String::new());
                if unknown.again_at(&p.name, &self.at_template(again, &expanded, p.span.clone())) {
                    fills.push(None);
                    continue;
                }
                if !matches!(p.name.as_str(), "get" | "find") {
                    let near = closest(&p.name, fields.iter().map(|f| f.name.as_str()));
                    if let Some(at) = near.and_then(|s| fields.iter().position(|f| f.name == s)) {
                        used[at] = true;
                    }
                    let help = match near {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!(
                            "add a field `{}` to `{}` (an `Option` when the value may be missing), or remove the placeholder",
                            p.name, input.ident
                        ),
                    };
                    unknown.report_located(
                        &p.name,
                        &mut problems,
                        self.at_template(
                            Diagnostic::new(format!(
                                "`{written}` names `{}`, which is no field of `{}`",
                                p.name, input.ident
                            )),
                            &expanded,
                            p.span.clone(),
                        )
                        .with_help(help),
                    );
                } else {
                    // `{find|none}` is a binding named `find`, as in keep, not a retrieval
                    let d = Diagnostic::new(format!(
                        "`{written}` is a binding named `{}`, not a retrieval: keep reads a retrieval only as `{{get}}` or `{{find…}}`, without a fallback",
                        p.name
                    ))
                    .with_help(format!(
                        "write `{{{}}}` for the retrieval, or give the binding another name",
                        p.name
                    ));
                    let d = self.at_template(d, &expanded, p.span.clone());
                    unknown.report_located(&p.name, &mut problems, d);
                }
                fills.push(None);
                continue;
            };
            used[i] = true;
            let field = &fields[i];
            if p.fallback.is_some() && field.kind != VarKind::Optional {
                let written = &expanded.text[p.span.clone()];
                problems.push(
                    self.at_template(
                        Diagnostic::new(format!(
                            "`{written}` has a fallback, so its field `{}` must be an `Option`",
                            p.name
                        )),
                        &expanded,
                        p.span.clone(),
                    )
                    .with_help(format!(
                        "declare `{}: Option<…>` in `{}`: `None` or a blank value renders `{}`",
                        p.name,
                        input.ident,
                        p.fallback.as_deref().unwrap_or_default()
                    )),
                );
            }
            let f = &field.ident;
            fills.push(Some(Fill::Value(Value {
                name: field.ident.to_string(),
                expr: quote!(self.#f),
                read: if field.kind == VarKind::Optional {
                    Reading::Optional
                } else {
                    Reading::Given
                },
                span: field.ty.span(),
            })));
        }
        unknown.note(&mut problems, "also written");
        if !problems.is_empty() {
            compile::combine(&mut errors, compile::to_error(self.name, problems));
        }
        for (field, used) in fields.iter().zip(&used) {
            if matches!(field.kind, VarKind::Flag | VarKind::Messages) {
                compile::combine(
                    &mut errors,
                    syn::Error::new(
                        field.ty.span(),
                        format!(
                            "field `{}`: a keep agent prompt's placeholders take text, not a `bool` or messages ({path})\n  = help: give it a text type (`&str`, `String`, a `Display` type, or an `Option` of one)",
                            field.name
                        ),
                    ),
                );
            } else if !used {
                let help = if matches!(field.name.as_str(), "get" | "find") {
                    format!(
                        "`{{{}}}` is a retrieval, filled by the closure handed to `render`: remove the field",
                        field.name
                    )
                } else {
                    format!(
                        "use `{{{}}}` in the prompt, or remove the field",
                        field.name
                    )
                };
                compile::combine(
                    &mut errors,
                    syn::Error::new(
                        field.span,
                        format!(
                            "field `{}` is not used by {path}\n  = help: {help}",
                            field.name
                        ),
                    ),
                );
            }
        }
        if let Some(errors) = errors {
            return Err((errors, retrieves));
        }
        let meta = meta.unwrap_or_default();

        // The files read: the prompt, the configuration, every include.
        let mut files: Vec<std::path::PathBuf> = Vec::new();
        files.extend(self.project.prompt_path(&self.name.value()).ok());
        files.extend(self.project.config.path.iter().cloned());
        for name in self.agent.included.keys() {
            files.extend(self.project.prompt_path(name).ok());
        }
        Ok(generate(
            input,
            self.name,
            &path,
            &prompt,
            &fills,
            &emit::meta(&meta),
            &emit::tracked(&files),
            retrieves,
            fields,
        ))
    }
}

/// The text of a value (`value`: a reference to it), its type reported at the value's
/// type or argument when it cannot render.
fn value_text(v: &Value, written: &str, value: TokenStream) -> TokenStream {
    let access = Access {
        expr: TokenStream::new(),
        kind: if v.read == Reading::Given {
            VarKind::Text
        } else {
            VarKind::Optional
        },
        plain_text: None,
        span: v.span,
    };
    emit::text_guarded(
        &format!("`{{Self}}` cannot be rendered as the keep placeholder `{written}`"),
        &format!("the type of `{}`, which `{written}` renders", v.name),
        &access,
        value,
    )
}

/// The code that writes the template into `__out` (each retrieval through `__retrieve`),
/// the length of its literal text, and the retrievals it asks for.
fn steps(
    prompt: &AgentPrompt,
    fills: &[Option<Fill>],
) -> (Vec<TokenStream>, usize, Vec<TokenStream>) {
    let template = prompt.template();
    let mut steps = Vec::new();
    let mut literal_len = 0;
    let mut fill = fills.iter();
    let mut retrievals = Vec::new();
    for part in prompt.parts() {
        let p: &AgentPlaceholder = match part {
            AgentPart::Text(range) => {
                let text = &template[range.clone()];
                literal_len += text.len();
                steps.push(quote!(__out.push_str(#text);));
                continue;
            }
            AgentPart::Placeholder(p) => p,
        };
        let written = &template[p.span.clone()];
        match fill.next() {
            Some(Some(Fill::Retrieval)) => {
                let (n, args) = (&p.name, &p.args);
                retrievals.push(quote!((#n, &[#(#args),*])));
                steps.push(quote! {
                    if let ::core::option::Option::Some(__r) = __retrieve(#n, &[#(#args),*]) {
                        __out.push_str(&__r);
                    }
                });
            }
            Some(Some(Fill::Value(v))) => {
                let expr = &v.expr;
                let step = if v.read != Reading::Given {
                    let text = value_text(v, written, quote!(__x));
                    let fallback = p.fallback.as_deref().unwrap_or_default();
                    let blank = if p.fallback.is_some() {
                        quote!(if ::promptic::__private::keep_is_blank(&__t) {
                            __out.push_str(#fallback);
                        } else {
                            __out.push_str(&__t);
                        })
                    } else {
                        quote!(__out.push_str(&__t);)
                    };
                    let none = if p.fallback.is_some() {
                        quote!(__out.push_str(#fallback);)
                    } else {
                        TokenStream::new()
                    };
                    let option = if v.read == Reading::Optional {
                        quote_spanned! {v.span=>
                            ::promptic::__private::KeepOption::keep_option(&#expr)
                        }
                    } else {
                        quote_spanned! {v.span=> {
                            #[allow(unused_imports)]
                            use ::promptic::__private::{KeepGiven as _, KeepGivenOption as _};
                            (&&::promptic::__private::Tag(&#expr)).keep_given()
                        }}
                    };
                    quote! {
                        match #option {
                            ::core::option::Option::Some(__x) => {
                                let __t = #text;
                                #blank
                            }
                            ::core::option::Option::None => { #none }
                        }
                    }
                } else {
                    let text = value_text(v, written, quote!(&#expr));
                    quote!(__out.push_str(&#text);)
                };
                steps.push(step);
            }
            // reported already
            _ => {}
        }
    }
    (steps, literal_len, retrievals)
}

#[allow(clippy::too_many_arguments)]
fn generate(
    input: &DeriveInput,
    name: &LitStr,
    path: &str,
    prompt: &AgentPrompt,
    fills: &[Option<Fill>],
    meta: &TokenStream,
    tracked: &TokenStream,
    retrieves: bool,
    fields: &[Field],
) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let template = prompt.template();
    let (steps, literal_len, retrievals) = steps(prompt, fills);
    let body = render_body(&steps, literal_len, path, meta);
    let prompt_name = name.value();
    let values = crate::values::expand(input, fields);
    let retrieve_param = if retrieves {
        quote!(mut __retrieve: impl ::core::ops::FnMut(&str, &[&str]) -> ::core::option::Option<::promptic::__private::String>)
    } else {
        TokenStream::new()
    };
    let render_doc = if retrieves {
        "Renders the agent prompt with this struct's values, as keep's `expand_prompt` does; `retrieve(name, args)` fills each retrieval (`{get}`, `{find:deep:3000}` asks `(\"find\", [\"deep\", \"3000\"])`), `None` when it found nothing. Then runs of blank lines collapse and the text is stripped. Cannot fail."
    } else {
        "Renders the agent prompt with this struct's values, as keep's `expand_prompt` does: placeholders filled, runs of blank lines collapsed, the text stripped. Cannot fail."
    };
    let doc = page(&prompt_name, path, prompt, fills);
    quote! {
        const _: () = { #tracked };
        #values
        #[doc = #doc]
        #[allow(dead_code, single_use_lifetimes, clippy::same_name_method)]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// The prompt's name (`agent/reflect`).
            pub const NAME: &'static str = #prompt_name;
            /// The prompt file.
            pub const PATH: &'static str = #path;
            /// The template, its includes expanded: what the run-time
            /// `AgentPrompt::parse` reads.
            pub const TEMPLATE: &'static str = #template;
            /// The retrievals `render` asks for, in order: each name and its arguments.
            pub const RETRIEVALS: &'static [(&'static str, &'static [&'static str])] = &[#(#retrievals),*];

            #[doc = #render_doc]
            pub fn render(&self, #retrieve_param) -> ::promptic::__private::PromptContent {
                #body
            }
        }
    }
}

/// The body of a render: the literal text's capacity, each step, keep's clean-up, the
/// path and the metadata (a `static`).
fn render_body(
    steps: &[TokenStream],
    literal_len: usize,
    path: &str,
    meta: &TokenStream,
) -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        use ::promptic::__private::{DisplayLike as _, StrLike as _};
        let mut __out = ::promptic::__private::String::with_capacity(#literal_len);
        #(#steps)*
        ::promptic::__private::PromptContent {
            text: ::promptic::__private::keep_clean_up(&__out),
            path: ::promptic::__private::Cow::Borrowed(#path),
            metadata: ::promptic::__private::Cow::Borrowed({
                static __PROMPTIC_META: ::promptic::__private::Meta = #meta;
                &__PROMPTIC_META
            }),
            breakpoints: ::std::vec::Vec::new(),
        }
    }
}

/// The rustdoc of the generated items: each placeholder and what fills it.
fn page(name: &str, path: &str, prompt: &AgentPrompt, fills: &[Option<Fill>]) -> String {
    let mut doc = format!(
        "keep agent prompt `{name}` (`{path}`), rendered as keep's `expand_prompt` renders it.\n\n| placeholder | filled by |\n|---|---|\n"
    );
    let mut seen: Vec<&str> = Vec::new();
    for (p, fill) in prompt.placeholders().zip(fills) {
        let written = &prompt.template()[p.span.clone()];
        if seen.contains(&written) {
            continue;
        }
        seen.push(written);
        let by = match fill {
            Some(Fill::Retrieval) if p.args.is_empty() => {
                format!("`retrieve(\"{}\", &[])`", p.name)
            }
            Some(Fill::Retrieval) => format!(
                "`retrieve(\"{}\", &[{}])`",
                p.name,
                p.args
                    .iter()
                    .map(|a| format!("\"{a}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Some(Fill::Value(v)) => match &p.fallback {
                Some(fallback) => format!(
                    "field `{}`; `{}` when it is `None` or blank",
                    v.name,
                    fallback.replace('`', "'")
                ),
                None => format!("field `{}`", v.name),
            },
            None => String::new(),
        };
        doc.push_str(&format!(
            "| `{}` | {by} |\n",
            written.replace(['`', '|', '\n'], " ")
        ));
    }
    doc
}

/// On error, `render` (taking a closure when the prompt retrieves), so that the user sees
/// the error and not a cascade of "`render` not found".
fn fallback(input: &DeriveInput, error: syn::Error, retrieves: bool) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let error = error.to_compile_error();
    let values = crate::values::fallback(input);
    let param = if retrieves {
        quote!(_: impl ::core::ops::FnMut(&str, &[&str]) -> ::core::option::Option<::promptic::__private::String>)
    } else {
        TokenStream::new()
    };
    quote! {
        #error
        #values
        #[allow(dead_code)]
        impl #impl_generics #ident #ty_generics #where_clause {
            pub const NAME: &'static str = "";
            pub const PATH: &'static str = "";
            pub const TEMPLATE: &'static str = "";
            pub const RETRIEVALS: &'static [(&'static str, &'static [&'static str])] = &[];
            pub fn render(&self, #param) -> ::promptic::__private::PromptContent {
                ::core::unreachable!()
            }
        }
    }
}

/// `prompt!` on a keep agent prompt: `None` for any other prompt. Each placeholder takes
/// the argument of its name (an `Option` where some use of it has a fallback), each
/// argument must fill one, and the value renders what the derive's `render` renders.
pub fn expand_call(
    name: &LitStr,
    args: &[(String, proc_macro2::Span, &syn::Expr)],
    project: &Project,
) -> Option<syn::Result<TokenStream>> {
    let agent = AgentFile::read(project, &name.value()).ok()??;
    let mut read = Read {
        project,
        name,
        agent,
    };
    Some(read.call(args))
}

/// The value `prompt!` gives after an error on a keep agent prompt, with the API of the
/// value it would have given (`render()`, or `render(retrieve)`); `None` for any other
/// prompt.
pub fn call_fallback(project: &Project, name: &LitStr) -> Option<TokenStream> {
    let agent = AgentFile::read(project, &name.value()).ok()??;
    let retrieves = retrieves(&AgentPrompt::parse(agent.top.body_text()));
    Some(if retrieves {
        quote! {
            ::promptic::__private::InlineAgentRetrieving::new(
                |_: ::promptic::__private::Retrieve<'_>| -> ::promptic::__private::PromptContent {
                    ::core::unreachable!()
                }
            )
        }
    } else {
        quote! {
            ::promptic::__private::InlineAgent::new(
                || -> ::promptic::__private::PromptContent { ::core::unreachable!() }
            )
        }
    })
}

impl Read<'_> {
    fn call(
        &mut self,
        args: &[(String, proc_macro2::Span, &syn::Expr)],
    ) -> syn::Result<TokenStream> {
        let path = self.agent.top.source.path().to_owned();
        let expanded = match self.agent.expand(self.project) {
            Ok(expanded) => expanded,
            Err(d) => return Err(self.error(d)),
        };
        let prompt = AgentPrompt::parse(&expanded.text);
        let retrieves = retrieves(&prompt);
        let mut errors: Option<syn::Error> = None;
        let meta = self.meta(&mut errors);

        // A misspelt argument: the placeholder no argument fills that it is closest to. It
        // is reported once, at the argument, not again at the placeholder.
        let given = |n: &str| args.iter().any(|(a, _, _)| a == n);
        let unfilled: Vec<&str> = prompt
            .placeholders()
            .filter(|p| !matches!(p.kind, AgentKind::Get | AgentKind::Find) && !given(&p.name))
            .map(|p| p.name.as_str())
            .collect();
        let filled = |n: &str| prompt.placeholders().any(|p| p.name == n);
        let meant: Vec<Option<&str>> = args
            .iter()
            .map(|(n, _, _)| {
                if filled(n) || matches!(n.as_str(), "get" | "find") {
                    None
                } else {
                    closest(n, unfilled.iter().copied())
                }
            })
            .collect();
        let mut problems = Diagnostics::default();
        let mut fills: Vec<Option<Fill>> = Vec::new();
        let mut used = vec![false; args.len()];
        let mut unknown = Repeats::default();
        for p in prompt.placeholders() {
            if matches!(p.kind, AgentKind::Get | AgentKind::Find) {
                fills.push(Some(Fill::Retrieval));
                continue;
            }
            let written = &expanded.text[p.span.clone()];
            let given = args.iter().any(|(n, _, _)| *n == p.name);
            // Reported once, at the argument meant for it or at its first place (noting
            // the others).
            let again =
                || self.at_template(Diagnostic::new(String::new()), &expanded, p.span.clone());
            if meant.contains(&Some(p.name.as_str()))
                || (!given && unknown.again_at(&p.name, &again()))
            {
                fills.push(None);
                continue;
            }
            let Some(i) = args.iter().position(|(n, _, _)| *n == p.name) else {
                let d = if matches!(p.name.as_str(), "get" | "find") {
                    Diagnostic::new(format!(
                        "`{written}` is a binding named `{}`, not a retrieval: keep reads a retrieval only as `{{get}}` or `{{find…}}`, without a fallback",
                        p.name
                    ))
                    .with_help(format!(
                        "write `{{{}}}` for the retrieval, or give the binding another name",
                        p.name
                    ))
                } else {
                    let help = match closest(&p.name, args.iter().map(|(n, _, _)| n.as_str())) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!(
                            "pass it to the macro: `prompt!(\"{}\", {} = ...)` (an `Option` when the value may be missing)",
                            self.name.value(),
                            p.name
                        ),
                    };
                    Diagnostic::new(format!(
                        "`{written}` names `{}`, which is no argument of `prompt!`",
                        p.name
                    ))
                    .with_help(help)
                };
                let d = self.at_template(d, &expanded, p.span.clone());
                unknown.report_located(&p.name, &mut problems, d);
                fills.push(None);
                continue;
            };
            used[i] = true;
            let id = quote::format_ident!("__a{}", i);
            fills.push(Some(Fill::Value(Value {
                name: args[i].0.clone(),
                expr: quote!(#id),
                read: Reading::Argument,
                span: args[i].2.span(),
            })));
        }
        unknown.note(&mut problems, "also written");
        if !problems.is_empty() {
            compile::combine(&mut errors, compile::to_error(self.name, problems));
        }
        for (((arg, span, _), used), meant) in args.iter().zip(&used).zip(&meant) {
            if *used {
                continue;
            }
            let help = if matches!(arg.as_str(), "get" | "find") {
                format!(
                    "`{{{arg}}}` is a retrieval, filled by the closure handed to `render`: remove the argument"
                )
            } else {
                match meant {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "remove it, or use it in the prompt".to_owned(),
                }
            };
            compile::combine(
                &mut errors,
                syn::Error::new(
                    *span,
                    format!("argument `{arg}` is not used by {path}\n  = help: {help}"),
                ),
            );
        }
        if let Some(errors) = errors {
            return Err(errors);
        }
        let meta = emit::meta(&meta.unwrap_or_default());
        let mut files: Vec<std::path::PathBuf> = Vec::new();
        files.extend(self.project.prompt_path(&self.name.value()).ok());
        files.extend(self.project.config.path.iter().cloned());
        for name in self.agent.included.keys() {
            files.extend(self.project.prompt_path(name).ok());
        }
        let tracked = emit::tracked(&files);
        let (steps, literal_len, _) = steps(&prompt, &fills);
        let bindings = args.iter().enumerate().map(|(i, (_, _, expr))| {
            let id = quote::format_ident!("__a{}", i);
            quote!(let #id = #expr;)
        });
        let body = render_body(&steps, literal_len, &path, &meta);
        let value = if retrieves {
            quote! {
                ::promptic::__private::InlineAgentRetrieving::new(
                    move |__retrieve: ::promptic::__private::Retrieve<'_>| -> ::promptic::__private::PromptContent {
                        #body
                    }
                )
            }
        } else {
            quote! {
                ::promptic::__private::InlineAgent::new(
                    move || -> ::promptic::__private::PromptContent { #body }
                )
            }
        };
        Ok(quote! {{
            const _: () = { #tracked };
            #(#bindings)*
            #value
        }})
    }
}
