//! `prompt!("name", field = expr, ...)`: the same checks as the derive, in expression
//! position. Argument types are those of the expressions; a name that a block tests
//! (`{% if note %}`) takes an `Option<T>` or a `bool`.

use crate::compile::{self, Compiled};
use crate::derive::HelperRef;
use crate::emit::{self, Access};
use crate::generators::{self, Call};
use proc_macro2::TokenStream;
use prompt_runtime::check::infer_context;
use prompt_runtime::load::Project;
use prompt_runtime::resolve::{ContextVar, VarKind};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Expr, Ident, LitStr, Token};

pub struct CallInput {
    name: LitStr,
    args: Vec<Arg>,
    /// `helpers(name = function, ...)` for a dotprompt prompt, with where it was written.
    helpers: Option<(proc_macro2::Span, Vec<HelperRef>)>,
}

struct Arg {
    name: Ident,
    expr: Expr,
}

impl Parse for CallInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name = compile::prompt_name(input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the prompt's name: `prompt!(\"name\", field = value, ...)`",
            )
        })?);
        let mut args = Vec::new();
        let mut helpers = None;
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let name: Ident = input.parse()?;
            // `helpers(list = dash_list)`: a dotprompt prompt's helpers, as the derive's
            // attribute names them (an input named `helpers` is still `helpers = value`).
            if name == "helpers" && input.peek(syn::token::Paren) {
                if helpers.is_some() {
                    return Err(syn::Error::new(
                        name.span(),
                        "`helpers(...)` is given twice\n  = help: name every helper in one `helpers(name = function, ...)`",
                    ));
                }
                helpers = Some((name.span(), crate::derive::helper_list(input)?));
                continue;
            }
            let expr = if input.peek(Token![=]) {
                input.parse::<Token![=]>()?;
                input.parse()?
            } else {
                // `prompt!("x", day)` is `day = day`, as in `format!`.
                syn::parse_quote!(#name)
            };
            args.push(Arg { name, expr });
        }
        Ok(CallInput {
            name,
            args,
            helpers,
        })
    }
}

pub fn expand(input: &CallInput) -> TokenStream {
    match try_expand(input) {
        Ok(tokens) => tokens,
        Err(error) => {
            let error = error.to_compile_error();
            // After the error, a value with the API of the prompt's format, so that the
            // compiler adds no error of its own (a `render()` without an identity).
            let fallback = match generators::after_error(&input.name) {
                (generator, Some(project)) => generator.call_fallback(&project, &input.name),
                (_, None) => inline_fallback(),
            };
            quote! {{
                #error
                #fallback
            }}
        }
    }
}

/// The value `prompt!` gives after an error on a Markdown prompt: a keep agent prompt's,
/// or a text prompt's.
pub(crate) fn markdown_fallback(project: &Project, name: &LitStr) -> TokenStream {
    crate::keep_agent::call_fallback(project, name).unwrap_or_else(inline_fallback)
}

fn inline_fallback() -> TokenStream {
    quote! {
        ::promptic::__private::Inline::new(
            |_: &::promptic::__private::Identity| -> ::promptic::__private::PromptContent { ::core::unreachable!() }
        )
    }
}

/// Each argument's name (without `r#`), the span of its name, and its expression.
fn arg_list(input: &CallInput) -> Vec<(String, proc_macro2::Span, &Expr)> {
    input
        .args
        .iter()
        .map(|a| (a.name.unraw().to_string(), a.name.span(), &a.expr))
        .collect()
}

fn try_expand(input: &CallInput) -> syn::Result<TokenStream> {
    let name = &input.name;
    let mut seen: Vec<String> = Vec::new();
    for arg in &input.args {
        let n = arg.name.unraw().to_string();
        if seen.contains(&n) {
            return Err(syn::Error::new(
                arg.name.span(),
                format!("argument `{n}` is given twice"),
            ));
        }
        seen.push(n);
    }
    let project = compile::open(name)?;
    let generator = generators::of(&project, name)?;
    let helpers = match &input.helpers {
        Some((_, helpers)) if generator.helpers() => helpers.as_slice(),
        Some((span, helpers)) => {
            let at = helpers.first().map_or(*span, |h| h.name.span());
            return Err(crate::derive::helpers_not_dotprompt(at, name));
        }
        None => &[],
    };
    generator.call(&Call {
        input,
        name,
        args: &arg_list(input),
        project: &project,
        helpers,
    })
}

/// `prompt!` on a Markdown prompt (a keep agent prompt has a call of its own).
pub(crate) fn markdown(cx: &Call<'_>) -> syn::Result<TokenStream> {
    let (input, name, project) = (cx.input, cx.name, cx.project);
    if let Some(tokens) = crate::keep_agent::expand_call(name, cx.args, project) {
        return tokens;
    }
    let seen: Vec<String> = cx.args.iter().map(|(n, _, _)| n.clone()).collect();
    // Which names a block tests: those arguments are optional (`Option<T>` or `bool`).
    let file = project
        .load_prompt(&name.value())
        .map_err(|d| compile::to_error(name, d))?;
    // The arguments are context: they shadow identity keys and literals of the same name.
    let schema = project.schema(Vec::new());
    let shadowed = |name: &String| !seen.contains(name);
    let identity: Vec<String> = schema
        .identity
        .iter()
        .filter(|k| shadowed(k))
        .cloned()
        .collect();
    let literals: Vec<String> = schema
        .literals
        .iter()
        .filter(|k| shadowed(k))
        .cloned()
        .collect();
    let inferred = infer_context(&file, &identity, &literals, &project.templates);
    // A name a block tests takes an `Option` (used only inside its blocks) or a `bool`
    // (used outside them too), as the run-time renderer infers.
    let context: Vec<ContextVar> = input
        .args
        .iter()
        .map(|a| {
            let n = a.name.unraw().to_string();
            let kind = inferred
                .iter()
                .find(|v| v.name == n)
                .map_or(VarKind::Text, |v| v.kind.clone());
            ContextVar::new(n, kind)
        })
        .collect();
    let hint = format!(
        "pass it to the macro: `prompt!(\"{}\", {{}} = ...)`",
        name.value()
    );
    let Compiled { prompt, files } = match compile::check(project, name, context.clone(), hint) {
        Ok(compiled) => compiled,
        Err(mut errors) => {
            // Report unused arguments with the prompt's other problems, as the derive does.
            for i in compile::unused_context(project, name, &context).unwrap_or_default() {
                let arg = &input.args[i];
                let n = arg.name.unraw().to_string();
                errors.combine(syn::Error::new(
                    arg.name.span(),
                    format!(
                        "argument `{n}` is not used by {}\n  = help: remove it, or use it in the prompt",
                        file.source.path()
                    ),
                ));
            }
            return Err(errors);
        }
    };
    let mut unused: Option<syn::Error> = None;
    for &i in &prompt.resolved.unused {
        let arg = &input.args[i];
        let arg_name = arg.name.unraw().to_string();
        let near = prompt_runtime::suggest::closest(
            &arg_name,
            inferred
                .iter()
                .map(|v| v.name.as_str())
                .filter(|n| !seen.iter().any(|s| s == n)),
        );
        let mut message = format!(
            "argument `{arg_name}` is not used by {}",
            prompt.file.source.path()
        );
        match near {
            Some(n) => message.push_str(&format!("\n  = help: did you mean `{n}`?")),
            None => message.push_str("\n  = help: remove it, or use it in the prompt"),
        }
        compile::combine(&mut unused, syn::Error::new(arg.name.span(), message));
    }
    if let Some(e) = unused {
        return Err(e);
    }
    let bindings = input.args.iter().enumerate().map(|(i, a)| {
        let id = format_ident!("__a{}", i);
        let expr = &a.expr;
        if prompt.schema.context[i].kind == VarKind::Flag {
            // Tested by a block and written outside it: a `bool`. An `Option` there is the
            // derive's unguarded optional; the local trait makes rustc say so, at the
            // argument, with the derive's message.
            let (message, note) = flag_messages(project, name, &context, i);
            quote_spanned! {expr.span()=>
                let #id: bool = {
                    #[diagnostic::on_unimplemented(message = #message, label = "given here", note = #note)]
                    trait __PrompticFlag {
                        fn __promptic_flag(self) -> bool;
                    }
                    impl __PrompticFlag for bool {
                        #[inline]
                        fn __promptic_flag(self) -> bool {
                            self
                        }
                    }
                    impl __PrompticFlag for &bool {
                        #[inline]
                        fn __promptic_flag(self) -> bool {
                            *self
                        }
                    }
                    __PrompticFlag::__promptic_flag(#expr)
                };
            }
        } else {
            quote! { let #id = #expr; }
        }
    });
    let access: Vec<Access> = input
        .args
        .iter()
        .enumerate()
        .map(|(i, arg)| {
            let id = format_ident!("__a{}", i);
            Access {
                expr: quote!(#id),
                kind: prompt.schema.context[i].kind.clone(),
                plain_text: None,
                span: arg.expr.span(),
            }
        })
        .collect();
    let meta = emit::meta(&prompt.meta);
    let tracked = emit::tracked(&files);
    if prompt.resolved.is_chat() {
        let body = emit::messages_body(&prompt, &access, &meta);
        return Ok(quote! {{
            const _: () = { #tracked };
            #(#bindings)*
            ::promptic::__private::InlineChat::new(
                move |identity: &::promptic::__private::Identity| -> ::promptic::__private::Chat {
                    #body
                }
            )
        }});
    }
    let body = emit::render_body(&prompt, &access, &meta);
    Ok(quote! {{
        const _: () = { #tracked };
        #(#bindings)*
        ::promptic::__private::Inline::new(
            move |identity: &::promptic::__private::Identity| -> ::promptic::__private::PromptContent {
                #body
            }
        )
    }})
}

/// What rustc says when argument `i`, which the prompt uses as a flag, is not a `bool`:
/// the derive's unguarded-optional error for an `Option` (found by checking the prompt
/// with the argument optional), and a note on what a flag takes.
fn flag_messages(
    project: &prompt_runtime::load::Project,
    name: &LitStr,
    context: &[ContextVar],
    i: usize,
) -> (String, String) {
    let arg = &context[i].name;
    let mut optional = context.to_vec();
    optional[i].kind = VarKind::Optional;
    let unguarded = project.load_prompt(&name.value()).ok().and_then(|file| {
        let schema = project.schema(optional);
        let errors =
            prompt_runtime::check::check(&name.value(), file, schema, &project.templates).err()?;
        errors
            .0
            .into_iter()
            .find(|d| d.message().contains("is optional and may be absent"))
    });
    // `{` and `}` are format syntax in these attributes.
    let escape = |s: &str| s.replace('{', "{{").replace('}', "}}");
    let note = format!(
        "the prompt tests `{arg}` with `{{% if {arg} %}}` and also writes it outside that block, so it takes a `bool`; an `Option` may only be written inside `{{% if {arg} %}}` … `{{% endif %}}`"
    );
    match unguarded {
        Some(d) => (
            format!("`{{Self}}` given for `{arg}`: {}", escape(&d.body())),
            escape(&note),
        ),
        None => (
            format!("`{arg}` is a flag: the prompt takes a `bool`, not `{{Self}}`"),
            escape(&note),
        ),
    }
}
