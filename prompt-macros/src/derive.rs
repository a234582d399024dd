//! `#[derive(Prompt)]`: read the struct, check its prompt, emit the impl.

use crate::compile::{self, Compiled};
use crate::docs;
use crate::emit::{self, Access};
use crate::generators::{self, Call, Derive, Generator};
use proc_macro2::{Span, TokenStream};
use prompt_runtime::load::Project;
use prompt_runtime::resolve::{ContextVar, VarKind};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr, Type};

pub(crate) struct Field {
    pub ident: syn::Ident,
    pub name: String,
    pub ty: Type,
    pub kind: VarKind,
    pub span: Span,
}

pub fn expand(input: &DeriveInput) -> TokenStream {
    match try_expand(input).and_then(|tokens| {
        if crate::family::is_family(input) {
            return Ok(tokens);
        }
        let output = typed_output(input)?;
        Ok(quote! { #tokens #output })
    }) {
        Ok(tokens) => tokens,
        Err(error) if crate::family::is_family(input) => crate::family::fallback(input, error),
        Err(error) => {
            // The impls the prompt's format gives, so that its uses add no error.
            let generator = match prompt_name(input) {
                Ok(name) => generators::after_error(&name).0,
                Err(_) => &MARKDOWN,
            };
            generator.derive_fallback(input, error)
        }
    }
}

/// The fallback of a Jinja prompt: its `PATH`, `render()` and `JinjaPrompt` impl.
pub(crate) fn jinja_fallback(input: &DeriveInput, error: syn::Error) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let error = error.to_compile_error();
    let render = render_impl(input, "jinja", ["", "", ""], Output::Fallback);
    quote! {
        #error
        #render
        #[allow(single_use_lifetimes)]
        impl #impl_generics ::promptic::formats::jinja::JinjaPrompt for #ident #ty_generics #where_clause {
            const NAME: &'static str = "";
            const PATH: &'static str = "";
            const STRUCT_NAME: &'static str = "";
            const FIELDS: &'static [::promptic::formats::jinja::JinjaField] = &[];
            const SOURCES: &'static [(&'static str, &'static str)] = &[];
            const OPTIONS: ::promptic::__private::JinjaOptions = ::promptic::__private::JinjaOptions {
                trim_blocks: false,
                lstrip_blocks: false,
                keep_trailing_newline: false,
            };
            fn values(&self) -> ::promptic::__private::JsonMap<::promptic::__private::String, ::promptic::__private::JsonValue> {
                ::core::unreachable!()
            }
            fn render_compiled(&self) -> ::core::result::Result<::promptic::__private::PromptContent, ::promptic::Diagnostic> {
                ::core::unreachable!()
            }
        }
        #[allow(single_use_lifetimes, clippy::same_name_method)]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[allow(dead_code)]
            pub const PATH: &'static str = "";
            #[allow(dead_code)]
            pub fn render(&self) -> ::core::result::Result<::promptic::__private::PromptContent, ::promptic::Diagnostic> {
                ::core::unreachable!()
            }
        }
    }
}

/// The fallback of a dotprompt prompt: its constants, its three renders and its
/// `DotpromptPrompt` impl.
pub(crate) fn dotprompt_fallback(input: &DeriveInput, error: syn::Error) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let error = error.to_compile_error();
    let render = render_impl(input, "dotprompt", ["", "", ""], Output::Fallback);
    quote! {
        #error
        #render
        #[allow(single_use_lifetimes)]
        impl #impl_generics ::promptic::dotprompt::DotpromptPrompt for #ident #ty_generics #where_clause {
            const NAME: &'static str = "";
            const PATH: &'static str = "";
            const STRUCT_NAME: &'static str = "";
            const FIELDS: &'static [::promptic::dotprompt::DotpromptField] = &[];
            const SOURCES: &'static [(&'static str, &'static str)] = &[];
            const HELPERS: &'static [(&'static str, ::promptic::dotprompt::HelperPtr)] = &[];
            fn values(&self) -> ::promptic::__private::JsonMap<::promptic::__private::String, ::promptic::__private::JsonValue> {
                ::core::unreachable!()
            }
            fn render_compiled(
                &self,
                _: &::promptic::__private::JsonMap<::promptic::__private::String, ::promptic::__private::JsonValue>,
                _: &[::promptic::dotprompt::Message],
            ) -> ::core::result::Result<::promptic::dotprompt::RenderedPrompt, ::promptic::Diagnostic> {
                ::core::unreachable!()
            }
        }
        #[allow(single_use_lifetimes, clippy::same_name_method)]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[allow(dead_code)]
            pub const PATH: &'static str = "";
            #[allow(dead_code)]
            pub const INPUT_SCHEMA: &'static str = "";
            #[allow(dead_code)]
            pub const OUTPUT_SCHEMA: &'static str = "";
            #[allow(dead_code)]
            pub fn render(&self) -> ::core::result::Result<::promptic::dotprompt::RenderedPrompt, ::promptic::Diagnostic> {
                ::core::unreachable!()
            }
            #[allow(dead_code)]
            pub fn render_with_history(&self, _: &[::promptic::dotprompt::Message]) -> ::core::result::Result<::promptic::dotprompt::RenderedPrompt, ::promptic::Diagnostic> {
                ::core::unreachable!()
            }
            #[allow(dead_code)]
            pub fn render_with_context(
                &self,
                _: &::promptic::__private::JsonMap<::promptic::__private::String, ::promptic::__private::JsonValue>,
                _: &[::promptic::dotprompt::Message],
            ) -> ::core::result::Result<::promptic::dotprompt::RenderedPrompt, ::promptic::Diagnostic> {
                ::core::unreachable!()
            }
        }
    }
}

/// On error, a minimal impl so that the user sees the error and not a cascade of
/// "`render` not found" errors at every use.
fn fallback(input: &DeriveInput, error: syn::Error) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let error = error.to_compile_error();
    let values = crate::values::fallback(input);
    let render = render_impl(input, "markdown", ["", "", ""], Output::Fallback);
    quote! {
        #error
        #values
        #render
        impl #impl_generics ::promptic::__private::Prompt for #ident #ty_generics #where_clause {
            const NAME: &'static str = "";
            const PATH: &'static str = "";
            const META: ::promptic::__private::Meta = ::promptic::__private::Meta::DEFAULT;
            const SOURCE: &'static str = "";
            const VARIABLES: &'static [::promptic::__private::PromptVariable] = &[];
            const IDENTITY_KEYS: &'static [&'static str] = &[];
            const VERSION: &'static str = "";
            fn render(&self, _: &::promptic::__private::Identity) -> ::promptic::__private::PromptContent {
                ::core::unreachable!()
            }
        }
        impl #impl_generics #ident #ty_generics #where_clause {
            #[allow(dead_code)]
            pub fn render(&self, _: &::promptic::__private::Identity) -> ::promptic::__private::PromptContent {
                ::core::unreachable!()
            }
            #[allow(dead_code)]
            pub fn messages(&self, _: &::promptic::__private::Identity) -> ::promptic::__private::Chat {
                ::core::unreachable!()
            }
        }
    }
}

fn try_expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    if let Some(family) = crate::family::family_name(input)? {
        return crate::family::expand(input, &family, &fields(input)?);
    }
    let PromptAttr { name, helpers, .. } = prompt_attr(input)?;
    let fields = fields(input)?;
    let project = compile::open(&name)?;
    // The generator is the one of the format whose file the name reaches, as for the
    // `promptic` command.
    let generator = generators::of(&project, &name)?;
    if let (Some(first), false) = (helpers.first(), generator.helpers()) {
        return Err(helpers_not_dotprompt(first.name.span(), &name));
    }
    generator.derive(&Derive {
        input,
        name: &name,
        fields: &fields,
        project: &project,
        helpers: &helpers,
    })
}

/// The generator of Markdown prompts: `$name` placeholders, chat prompts, keep agent
/// prompts.
pub(crate) struct MarkdownCode;

/// The one [`MarkdownCode`].
pub(crate) static MARKDOWN: MarkdownCode = MarkdownCode;

impl Generator for MarkdownCode {
    fn format(&self) -> &'static str {
        "markdown"
    }

    fn derive(&self, cx: &Derive<'_>) -> syn::Result<TokenStream> {
        markdown(cx.input, cx.name, cx.fields, cx.project)
    }

    fn derive_fallback(&self, input: &DeriveInput, error: syn::Error) -> TokenStream {
        fallback(input, error)
    }

    fn call(&self, cx: &Call<'_>) -> syn::Result<TokenStream> {
        crate::call::markdown(cx)
    }

    fn call_fallback(&self, project: &Project, name: &LitStr) -> TokenStream {
        crate::call::markdown_fallback(project, name)
    }
}

/// The generator of PromptEngine store folders, whose prompts are derived together
/// (`#[derive(PromptStore)]`): it refuses a prompt of its own.
pub(crate) struct PromptEngineCode;

/// The one [`PromptEngineCode`].
pub(crate) static PROMPTENGINE: PromptEngineCode = PromptEngineCode;

impl Generator for PromptEngineCode {
    fn format(&self) -> &'static str {
        "promptengine"
    }

    fn derive(&self, cx: &Derive<'_>) -> syn::Result<TokenStream> {
        Err(syn::Error::new(
            cx.name.span(),
            format!(
                "`{0}` is a PromptEngine store folder: its prompts are derived together\n  = help: derive `PromptStore` on a struct with `#[store(\"{0}\")]`",
                cx.project.display
            ),
        ))
    }

    fn derive_fallback(&self, input: &DeriveInput, error: syn::Error) -> TokenStream {
        fallback(input, error)
    }

    fn call(&self, cx: &Call<'_>) -> syn::Result<TokenStream> {
        Err(syn::Error::new(
            cx.name.span(),
            format!(
                "`prompt!` does not read PromptEngine stores, and `{0}` is one\n  = help: derive `PromptStore` on a struct with `#[store(\"{0}\")]`",
                cx.project.display
            ),
        ))
    }

    fn call_fallback(&self, project: &Project, name: &LitStr) -> TokenStream {
        crate::call::markdown_fallback(project, name)
    }
}

/// The derive of a Markdown prompt (a keep agent prompt has a derive of its own).
fn markdown(
    input: &DeriveInput,
    name: &LitStr,
    fields: &[Field],
    project: &Project,
) -> syn::Result<TokenStream> {
    // keep's agent prompts (`"placeholders": "keep"`) have a derive of their own
    if let Some(tokens) = crate::keep_agent::derive(input, name, fields, project) {
        return Ok(tokens);
    }
    let context: Vec<ContextVar> = fields
        .iter()
        .map(|f| ContextVar::new(f.name.clone(), f.kind.clone()))
        .collect();
    let hint = prompt_runtime::check::missing_field_hint(
        &input.ident.to_string(),
        &project.config.templates,
    );
    let path = format!("prompts/{}.md", name.value());
    declared_agrees(project, name, fields, &input.ident)?;
    let Compiled { prompt, files } = match compile::check(project, name, context.clone(), hint) {
        Ok(compiled) => compiled,
        Err(mut errors) => {
            // Report unused fields now too, not only once the prompt's errors are fixed.
            for i in compile::unused_context(project, name, &context).unwrap_or_default() {
                errors.combine(unused_field(&fields[i], &path));
            }
            return Err(errors);
        }
    };
    let mut unused: Option<syn::Error> = None;
    for &i in &prompt.resolved.unused {
        compile::combine(
            &mut unused,
            unused_field(&fields[i], prompt.file.source.path()),
        );
    }
    if let Some(e) = unused {
        return Err(e);
    }

    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let access: Vec<Access> = fields
        .iter()
        .map(|f| {
            let field = &f.ident;
            Access {
                expr: quote!(self.#field),
                kind: f.kind.clone(),
                plain_text: plain_text(&f.ty).then(|| f.ty.span()),
                span: f.ty.span(),
            }
        })
        .collect();
    let types: Vec<String> = fields.iter().map(|f| docs::type_name(&f.ty)).collect();
    let version = prompt_runtime::check::version(&prompt, &project.templates);
    let constants = emit::constants(&prompt, &types, &version);
    let tracked = emit::tracked(&files);
    let doc = docs::page(&prompt, &types);
    let values = crate::values::expand(input, fields);
    if prompt.resolved.is_chat() {
        let body = emit::messages_body(&prompt, &access, &emit::meta(&prompt.meta));
        let sections = emit::sections(&prompt);
        let render = render_impl(
            input,
            "chat",
            [&name.value(), prompt.file.source.path(), &version],
            Output::Chat,
        );
        return Ok(quote! {
            const _: () = { #tracked };
            #values
            #render
            #[allow(single_use_lifetimes, clippy::same_name_method)]
            impl #impl_generics ::promptic::__private::ChatPrompt for #ident #ty_generics #where_clause {
                #constants
                #sections
                #[inline]
                fn messages(&self, identity: &::promptic::__private::Identity) -> ::promptic::__private::Chat {
                    #ident::messages(self, identity)
                }
            }
            #[doc = #doc]
            #[allow(single_use_lifetimes, clippy::same_name_method)]
            impl #impl_generics #ident #ty_generics #where_clause {
                /// Renders the chat prompt with this context and `identity`: one message per
                /// section that renders text, and the messages of each history section.
                /// Cannot fail.
                #[inline]
                pub fn messages(&self, identity: &::promptic::__private::Identity) -> ::promptic::__private::Chat {
                    #body
                }
            }
        });
    }
    let body = emit::render_body(&prompt, &access, &emit::meta(&prompt.meta));
    let render = render_impl(
        input,
        "markdown",
        [&name.value(), prompt.file.source.path(), &version],
        Output::Text,
    );
    Ok(quote! {
        const _: () = { #tracked };
        #values
        #render
        #[allow(single_use_lifetimes, clippy::same_name_method)]
        impl #impl_generics ::promptic::__private::Prompt for #ident #ty_generics #where_clause {
            #constants
            #[inline]
            fn render(&self, identity: &::promptic::__private::Identity) -> ::promptic::__private::PromptContent {
                #ident::render(self, identity)
            }
        }
        #[doc = #doc]
        #[allow(single_use_lifetimes, clippy::same_name_method)]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// Renders the prompt with this context and `identity`. Cannot fail; the text is
            /// allocated once, at its exact size.
            #[inline]
            pub fn render(&self, identity: &::promptic::__private::Identity) -> ::promptic::__private::PromptContent {
                #body
            }
        }
    })
}

/// With `"context": [...]` in the frontmatter, the struct and the declaration must agree:
/// every field declared, every declared name a field.
fn declared_agrees(
    project: &prompt_runtime::load::Project,
    name: &LitStr,
    fields: &[Field],
    ident: &syn::Ident,
) -> syn::Result<()> {
    let Ok(file) = project.load_prompt(&name.value()) else {
        // The prompt's own check reports why it cannot be read.
        return Ok(());
    };
    let declared = match prompt_runtime::check::declared_context(&file) {
        Ok(Some(declared)) => declared,
        Ok(None) => return Ok(()),
        Err(problems) => return Err(compile::to_error(name, problems)),
    };
    let path = file.source.path().to_owned();
    let mut errors: Option<syn::Error> = None;
    let mut add = |e: syn::Error| compile::combine(&mut errors, e);
    for field in fields {
        if !declared.iter().any(|(n, _)| *n == field.name) {
            add(syn::Error::new(
                field.span,
                format!(
                    "field `{}` is not in the `context` that {path} declares\n  = help: add \"{}\" to its `\"context\"` list, or remove the field",
                    field.name, field.name
                ),
            ));
        }
    }
    let mut missing = prompt_runtime::Diagnostics::default();
    for (declared_name, span) in &declared {
        if !fields.iter().any(|f| f.name == *declared_name) {
            missing.push(
                prompt_runtime::Diagnostic::new(format!(
                    "`{declared_name}` is declared in `context` but `{ident}` has no field `{declared_name}`"
                ))
                .at(&file.source, span.clone())
                .with_help(format!(
                    "add a field `{declared_name}` to `{ident}`, or remove it from the declaration"
                )),
            );
        }
    }
    if !missing.is_empty() {
        add(compile::to_error(name, missing));
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn unused_field(field: &Field, path: &str) -> syn::Error {
    let use_it = if field.kind == VarKind::Messages {
        format!("insert its messages with `{{% history {} %}}`", field.name)
    } else {
        format!("use `${}` in the prompt", field.name)
    };
    syn::Error::new(
        field.span,
        format!(
            "field `{}` is not used by {path}\n  = help: {use_it}, or remove the field",
            field.name
        ),
    )
}

fn prompt_name(input: &DeriveInput) -> syn::Result<LitStr> {
    prompt_attr(input).map(|attr| attr.name)
}

/// A helper a derived dotprompt prompt calls, as `#[prompt("name", helpers(list = my_list))]`
/// names it: the name templates call and the Rust function that implements it.
pub(crate) struct HelperRef {
    pub name: syn::Ident,
    pub function: syn::Path,
}

/// `#[prompt("name")]`, with `output = Type` for a prompt whose answer is read into
/// `Type`, and `helpers(name = function, ...)` for a dotprompt prompt's helpers.
pub(crate) struct PromptAttr {
    pub name: LitStr,
    pub output: Option<Type>,
    pub helpers: Vec<HelperRef>,
}

impl syn::parse::Parse for PromptAttr {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let name = crate::compile::prompt_name(input.parse()?);
        let mut output = None;
        let mut helpers: Option<Vec<HelperRef>> = None;
        while input.peek(syn::Token![,]) {
            input.parse::<syn::Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            if key == "output" && output.is_none() {
                input.parse::<syn::Token![=]>()?;
                output = Some(input.parse()?);
            } else if key == "helpers" && helpers.is_none() {
                helpers = Some(helper_list(input)?);
            } else {
                let helpers_meant =
                    prompt_runtime::suggest::closest(&key.to_string(), ["output", "helpers"])
                        == Some("helpers");
                return Err(syn::Error::new(
                    key.span(),
                    if helpers_meant {
                        "expected `helpers(name = function, ...)` after the prompt's name: `#[prompt(\"name\", helpers(list = my_list))]`"
                    } else {
                        "expected `output = Type` after the prompt's name: `#[prompt(\"name\", output = Answer)]`"
                    },
                ));
            }
        }
        Ok(PromptAttr {
            name,
            output,
            helpers: helpers.unwrap_or_default(),
        })
    }
}

/// `helpers(...)` on a prompt that is no dotprompt file.
pub(crate) fn helpers_not_dotprompt(span: proc_macro2::Span, name: &LitStr) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "`helpers(...)` is for dotprompt prompts: `{}` is not a `.prompt` file\n  = help: remove `helpers(...)`; Markdown and Jinja prompts call no helpers from Rust",
            name.value()
        ),
    )
}

/// `(name = function, ...)`, each name once.
pub(crate) fn helper_list(input: syn::parse::ParseStream) -> syn::Result<Vec<HelperRef>> {
    let content;
    syn::parenthesized!(content in input);
    let entries = content
        .parse_terminated(
            |entry: syn::parse::ParseStream<'_>| {
                let name: syn::Ident = entry.parse()?;
                let _: syn::Token![=] = entry.parse()?;
                let function: syn::Path = entry.parse()?;
                Ok(HelperRef { name, function })
            },
            syn::Token![,],
        )
        .map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected `helpers(name = function, ...)`: the name templates call, and the path of a `fn(&HelperArgs) -> Result<Value, String>`",
            )
        })?;
    let mut helpers: Vec<HelperRef> = Vec::new();
    for entry in entries {
        if helpers.iter().any(|h| h.name == entry.name) {
            return Err(syn::Error::new(
                entry.name.span(),
                format!("the helper `{}` is named twice", entry.name),
            ));
        }
        helpers.push(entry);
    }
    Ok(helpers)
}

pub(crate) fn prompt_attr(input: &DeriveInput) -> syn::Result<PromptAttr> {
    let mut found = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("prompt")) {
        if found.is_some() {
            return Err(syn::Error::new(
                attr.meta.span(),
                "only one `#[prompt(\"name\")]` is allowed",
            ));
        }
        let parsed: PromptAttr = attr.parse_args().map_err(|e| {
            let message = e.to_string();
            let message = if message.starts_with("expected `output")
                || message.starts_with("expected `helpers")
                || message.starts_with("the helper")
            {
                message
            } else {
                "expected the prompt's name: `#[prompt(\"name\")]` for `prompts/name.md`".to_owned()
            };
            syn::Error::new(e.span(), message)
        })?;
        found = Some(parsed);
    }
    found.ok_or_else(|| {
        syn::Error::new(
            input.ident.span(),
            "missing `#[prompt(\"name\")]`: name the prompt file under `prompts/` (`#[prompt(\"segment_synthesis\")]` reads `prompts/segment_synthesis.md`)",
        )
    })
}

/// `output_schema()` and `parse_output()` for a prompt with `output = Type`: the schema
/// its file declares (Markdown's `output_schema`, dotprompt's `output.schema`), checked
/// to be JSON when the crate compiles, else `Type`'s from schemars.
fn typed_output(input: &DeriveInput) -> syn::Result<TokenStream> {
    let attr = prompt_attr(input)?;
    let Some(ty) = attr.output else {
        return Ok(TokenStream::new());
    };
    let project = compile::open(&attr.name)?;
    let loaded = project.load(&attr.name.value()).ok();
    let declared = loaded
        .as_ref()
        .and_then(|prompt| prompt.meta().output_schema.as_deref().map(str::to_owned));
    let schema = match declared {
        Some(json) => {
            if serde_json::from_str::<serde_json::Value>(&json).is_err() {
                return Err(syn::Error::new(
                    attr.name.span(),
                    "the prompt's output schema is not JSON",
                ));
            }
            if let Some(prompt) = &loaded {
                let problems = crate::output::check(&ty, &json, prompt.as_ref());
                if !problems.is_empty() {
                    return Err(compile::to_error(&attr.name, problems));
                }
            }
            quote! {
                ::promptic::__private::json_from_str(#json)
            }
        }
        None => quote! {
            ::promptic::__private::json_of(&::schemars::schema_for!(#ty))
        },
    };
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        #[allow(single_use_lifetimes, clippy::same_name_method)]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// The JSON Schema of the answer this prompt asks for: the one its file
            /// declares, else the output type's.
            #[allow(dead_code)]
            pub fn output_schema() -> ::promptic::__private::JsonValue {
                #schema
            }

            /// Reads a model's answer into the prompt's output type: bare JSON, a fenced
            /// JSON block, or JSON with prose around it.
            #[allow(dead_code)]
            pub fn parse_output(answer: &str) -> ::core::result::Result<#ty, ::promptic::output::OutputError> {
                ::promptic::output::parse_output::<#ty>(answer)
            }
        }
    })
}

pub(crate) fn fields(input: &DeriveInput) -> syn::Result<Vec<Field>> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new(
            input.ident.span(),
            "`#[derive(Prompt)]` needs a struct with named fields (or a unit struct): each field is a context variable",
        ));
    };
    let named = match &data.fields {
        Fields::Named(named) => &named.named,
        Fields::Unit => return Ok(Vec::new()),
        Fields::Unnamed(_) => {
            return Err(syn::Error::new(
                data.fields.span(),
                "`#[derive(Prompt)]` needs named fields: each field is the context variable of the same name",
            ));
        }
    };
    let mut out: Vec<Field> = Vec::new();
    let mut errors: Option<syn::Error> = None;
    let mut fail = |e: syn::Error| compile::combine(&mut errors, e);
    for field in named {
        let Some(ident) = field.ident.clone() else {
            continue;
        };
        let mut name = ident.to_string().trim_start_matches("r#").to_owned();
        let mut name_span = ident.span();
        let mut choices: Option<Vec<String>> = None;
        for attr in field.attrs.iter().filter(|a| a.path().is_ident("prompt")) {
            let parsed = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    let lit: LitStr = meta.value()?.parse()?;
                    if !prompt_runtime::parse::lexer::is_name(&lit.value()) {
                        return Err(syn::Error::new(
                            lit.span(),
                            "a placeholder name is ASCII letters, digits and `_`, not starting with a digit",
                        ));
                    }
                    name = lit.value();
                    name_span = lit.span();
                    Ok(())
                } else if meta.path.is_ident("one_of") {
                    let content;
                    syn::parenthesized!(content in meta.input);
                    let list = content.parse_terminated(|p| p.parse::<LitStr>(), syn::Token![,])?;
                    let values: Vec<String> = list.iter().map(LitStr::value).collect();
                    if values.is_empty() {
                        return Err(meta.error("`one_of` needs at least one value: `#[prompt(one_of(\"lean\", \"detailed\"))]`"));
                    }
                    choices = Some(values);
                    Ok(())
                } else {
                    Err(meta.error(
                        "unknown attribute: a field takes `#[prompt(rename = \"name\")]` or `#[prompt(one_of(\"a\", \"b\"))]`",
                    ))
                }
            });
            if let Err(e) = parsed {
                fail(e);
            }
        }
        if out.iter().any(|f| f.name == name) {
            fail(syn::Error::new(
                name_span,
                format!("two fields are the context variable `{name}`"),
            ));
            continue;
        }
        let kind = match (choices, kind_of(&field.ty)) {
            (Some(values), VarKind::Text) => VarKind::Choice(values),
            (Some(_), _) => {
                fail(syn::Error::new(
                    field.ty.span(),
                    "`one_of` takes a field that always has a value (`&str`, `String`, an enum that displays as its values), not an `Option` or a `bool`",
                ));
                continue;
            }
            (None, kind) => kind,
        };
        // `guidance` is reserved for the level: `lean` or `detailed`.
        let kind = if name == prompt_runtime::guidance::GUIDANCE {
            if !is_guidance(&field.ty) {
                fail(syn::Error::new(
                    field.ty.span(),
                    "a field named `guidance` holds the guidance level: give it the type `promptic::Guidance`\n  = help: `guidance` is reserved for `{% if guidance == \"detailed\" %}` fences; name another field otherwise (or rename it with `#[prompt(rename = \"...\")]`)",
                ));
                continue;
            }
            VarKind::Choice(
                prompt_runtime::guidance::LEVELS
                    .iter()
                    .map(|l| (*l).to_owned())
                    .collect(),
            )
        } else {
            kind
        };
        out.push(Field {
            span: ident.span(),
            ident,
            name,
            ty: field.ty.clone(),
            kind,
        });
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// True for types written as plain text: `&str`, `String`, `Cow<str>`, `Box<str>`,
/// `Rc<str>`, `Arc<str>`, or an `Option` of one, named bare or through `std`/`alloc`/`core`
/// (`my::String` is someone else's type). A type alias is not seen through; it takes the
/// general path, which is correct, only larger. The generated code still asks the type
/// system (`PlainText`), so a bare name that is not std's type is an error on the field,
/// not wrong code.
pub(crate) fn plain_text(ty: &Type) -> bool {
    /// The last segment of a path that is bare or starts at `std`, `alloc` or `core`.
    fn std_segment(ty: &Type) -> Option<&syn::PathSegment> {
        let Type::Path(p) = ty else { return None };
        if p.qself.is_some() {
            return None;
        }
        let segments = &p.path.segments;
        let first = segments.first()?;
        let bare = segments.len() == 1 && p.path.leading_colon.is_none();
        let from_std = ["std", "alloc", "core"]
            .iter()
            .any(|root| first.ident == root);
        if bare || from_std {
            segments.last()
        } else {
            None
        }
    }
    fn is_str(ty: &Type) -> bool {
        matches!(std_segment(ty), Some(s) if s.ident == "str" && s.arguments.is_empty())
    }
    fn single_argument(segment: &syn::PathSegment) -> Option<&Type> {
        let syn::PathArguments::AngleBracketed(args) = &segment.arguments else {
            return None;
        };
        let mut types = args.args.iter().filter_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        });
        let first = types.next();
        if types.next().is_some() { None } else { first }
    }
    fn text(ty: &Type) -> bool {
        if let Type::Reference(r) = ty {
            return r.mutability.is_none() && is_str(&r.elem);
        }
        let Some(segment) = std_segment(ty) else {
            return false;
        };
        match segment.ident.to_string().as_str() {
            "String" => segment.arguments.is_empty(),
            "Cow" | "Box" | "Rc" | "Arc" => single_argument(segment).is_some_and(is_str),
            _ => false,
        }
    }
    match std_segment(ty) {
        Some(segment) if segment.ident == "Option" => single_argument(segment).is_some_and(text),
        _ => text(ty),
    }
}

/// True for `Guidance` (or a reference to it) named by any path.
fn is_guidance(ty: &Type) -> bool {
    let ty = match ty {
        Type::Reference(r) => &*r.elem,
        other => other,
    };
    matches!(ty, Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == "Guidance" && s.arguments.is_empty()))
}

/// True for `Message` named by any path (`promptic::Message`, `Message`).
fn is_message(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == "Message" && s.arguments.is_empty()))
}

/// `bool` is a flag, `Option<T>` optional, `&[Message]` and `Vec<Message>` messages for
/// `{% history %}`, anything else text (through `Display`).
fn kind_of(ty: &Type) -> VarKind {
    let ty = match ty {
        Type::Reference(r) => &*r.elem,
        other => other,
    };
    if let Type::Slice(slice) = ty
        && is_message(&slice.elem)
    {
        return VarKind::Messages;
    }
    if let Type::Path(p) = ty
        && p.qself.is_none()
        && let Some(last) = p.path.segments.last()
        && last.ident == "Vec"
        && let syn::PathArguments::AngleBracketed(args) = &last.arguments
        && let Some(syn::GenericArgument::Type(inner)) = args.args.first()
        && is_message(inner)
    {
        return VarKind::Messages;
    }
    if let Type::Path(p) = ty
        && p.qself.is_none()
        && let Some(last) = p.path.segments.last()
    {
        if last.ident == "bool" && last.arguments.is_empty() {
            return VarKind::Flag;
        }
        if last.ident == "Option" {
            return VarKind::Optional;
        }
    }
    VarKind::Text
}

/// What a derived prompt's `output` does, by its format.
pub(crate) enum Output {
    Text,
    Chat,
    Jinja,
    Dotprompt,
    /// After an error: the impl exists, so a use of it adds no error of its own.
    Fallback,
}

/// `impl Render`: the one shape every derived prompt has, whatever its format.
/// `[name, path, version]` are the constants of [`Render`](::promptic::Render): the
/// prompt's name, its file as messages show it, and the digest of what it renders from.
pub(crate) fn render_impl(
    input: &DeriveInput,
    format: &str,
    [name, path, version]: [&str; 3],
    output: Output,
) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let body = match output {
        Output::Text => quote! {
            ::core::result::Result::Ok(::promptic::Output::Text(#ident::render(self, identity)))
        },
        Output::Chat => quote! {
            ::core::result::Result::Ok(::promptic::Output::Chat(#ident::messages(self, identity)))
        },
        Output::Jinja => quote! {
            let _ = identity;
            #ident::render(self)
                .map(::promptic::Output::Text)
                .map_err(::core::convert::Into::into)
        },
        Output::Dotprompt => quote! {
            let _ = identity;
            #ident::render(self)?
                .to_chat(#path)
                .map(::promptic::Output::Chat)
                .map_err(::core::convert::Into::into)
        },
        Output::Fallback => quote! {
            let _ = identity;
            ::core::unreachable!()
        },
    };
    quote! {
        #[allow(single_use_lifetimes)]
        impl #impl_generics ::promptic::Render for #ident #ty_generics #where_clause {
            const NAME: &'static str = #name;
            const PATH: &'static str = #path;
            const FORMAT: &'static str = #format;
            const VERSION: &'static str = #version;
            #[inline]
            fn output(&self, identity: &::promptic::Identity) -> ::core::result::Result<::promptic::Output, ::promptic::Diagnostics> {
                #body
            }
        }
    }
}
