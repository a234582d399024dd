//! `#[derive(Prompt)]` of a dotprompt file (`prompts/NAME.prompt`, partials
//! `prompts/_NAME.prompt`).
//!
//! The file is parsed by the one dotprompt reader (`Registry::parse_file`: YAML,
//! Picoschema, Handlebars syntax, helpers, partials). Then the struct is checked against the
//! compiled input schema by the runtime's check, the one hot reload runs again
//! (`check_field_kinds`: every property a field of a compatible type, `?` properties as
//! `Option`, no field the schema lacks, or without a schema every path the template reads
//! a field); a nested object's properties are checked against the field type's
//! `PromptValue::SHAPE` in `const` evaluation. Each mismatch is located in the prompt
//! file, a field the schema lacks at the field.
//!
//! The render is the compiled render (`prompt_runtime::formats::dotprompt::compiled`):
//! Rust generated from the template that reads the fields in place. Whatever it leaves to
//! the run-time renderer is rendered from the same texts, parsed once per process.

use crate::compile;
use crate::derive::{Field, HelperRef};
use crate::generators::{Call, Derive, Generator};
use crate::jinja::{static_lifetimes, value_inserts};
use proc_macro2::TokenStream;
use prompt_runtime::Diagnostic;
use prompt_runtime::formats::dotprompt::folder::{Folder, FolderFile, partial_file};
use prompt_runtime::formats::dotprompt::schema::{
    TypeKind, properties, property_span, schema_type,
};
use prompt_runtime::formats::dotprompt::{
    Dotprompt, FieldKind, Value, check_arguments, check_field_kinds,
};
use prompt_runtime::load::Project;
use quote::quote;
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

/// The generator of dotprompt prompts.
pub(crate) struct DotpromptCode;

/// The one [`DotpromptCode`].
pub(crate) static DOTPROMPT: DotpromptCode = DotpromptCode;

impl Generator for DotpromptCode {
    fn format(&self) -> &'static str {
        "dotprompt"
    }

    fn helpers(&self) -> bool {
        true
    }

    fn derive(&self, cx: &Derive<'_>) -> syn::Result<TokenStream> {
        expand(cx.input, cx.name, cx.fields, cx.project, cx.helpers)
    }

    fn derive_fallback(&self, input: &DeriveInput, error: syn::Error) -> TokenStream {
        crate::derive::dotprompt_fallback(input, error)
    }

    fn call(&self, cx: &Call<'_>) -> syn::Result<TokenStream> {
        expand_call(cx.name, cx.args, cx.helpers, cx.project)
    }

    fn call_fallback(&self, _: &Project, _: &LitStr) -> TokenStream {
        quote! {
            ::promptic::__private::InlineDotprompt::new(
                (),
                |_, _, _| ::core::unreachable!(),
                |_| ::core::unreachable!(),
                || ::core::unreachable!(),
                "",
            )
        }
    }
}

pub fn expand(
    input: &DeriveInput,
    name: &LitStr,
    fields: &[Field],
    project: &Project,
    helpers: &[HelperRef],
) -> syn::Result<TokenStream> {
    let prompt_name = name.value();
    let path = project.dir.join(format!("{prompt_name}.prompt"));
    // The one reader of a dotprompt folder, which the `promptic` command uses too: the
    // prompt, the partials it includes and the folder's registries, each through the
    // guarded reader, checked up to what needs the struct.
    let mut folder = Folder::open(project.root()).map_err(|d| compile::to_error(name, d))?;
    define_helpers(&mut folder, helpers)?;
    let loaded = folder
        .load(&prompt_name)
        .map_err(|d| compile::to_error(name, d))?;
    let version = loaded.version(&folder);
    let prompt = loaded.prompt;
    helpers_called(&prompt, helpers, &loaded.file.path)?;
    let shown = loaded.file.path;
    let text = loaded.file.text;
    let partials = loaded.partials;
    let registry_files = folder.registry_files();

    let nested = check_fields(&prompt, fields, input, name)?;

    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let tracked = tracked_files(project, path, &partials, registry_files);
    // The files as the derive checked them, for hot reload to tell an edit.
    let sources = std::iter::once((shown.as_str(), text.as_str()))
        .chain(partials.iter().map(|p| (p.path.as_str(), p.text.as_str())))
        .chain(
            registry_files
                .iter()
                .map(|f| (f.path.as_str(), f.text.as_str())),
        )
        .map(|(p, t)| quote!((#p, #t)))
        .collect::<Vec<_>>();
    let loader = loader(
        &shown,
        &text,
        &partials,
        registry_files,
        &prompt.frontmatter_json(),
        quote!(<Self as ::promptic::dotprompt::DotpromptPrompt>::HELPERS),
    );
    let values = value_inserts(fields);
    let struct_name = ident.to_string();
    let field_entries = fields.iter().map(|f| {
        let (key, ty) = (&f.name, &f.ty);
        let kind = kind_tokens(&kind(ty));
        quote! {
            ::promptic::dotprompt::DotpromptField {
                name: #key,
                kind: #kind,
                shape: &<#ty as ::promptic::__private::PromptValue>::SHAPE,
            }
        }
    });
    let input_schema = prompt.input_schema_json().unwrap_or_default();
    let output_schema = prompt.output_schema_json().unwrap_or_default();
    let nested_checks = if input.generics.type_params().next().is_some()
        || input.generics.const_params().next().is_some()
    {
        Vec::new()
    } else {
        nested
    };
    let compiled = compiled(&prompt, fields, name)?;
    let helper_entries = helper_entries(helpers);
    let doc = format!(
        "Renders `{shown}` with this context as the input: dotprompt's messages (with their parts) and metadata (model, config, schemas).\n\nThe prompt was checked when this crate was compiled; the render is compiled Rust that reads the fields in place, and falls back to the run-time renderer (from the checked text) for what it cannot do with certainty. An error only when a render goes past the run-time renderer's bounds."
    );
    let render = crate::derive::render_impl(
        input,
        "dotprompt",
        [&prompt_name, &shown, &version],
        crate::derive::Output::Dotprompt,
    );
    Ok(quote! {
        const _: () = { #tracked };
        #(#nested_checks)*
        #render
        #[allow(single_use_lifetimes, clippy::same_name_method)]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// The prompt file (`prompts/NAME.prompt`).
            #[allow(dead_code)]
            pub const PATH: &'static str = #shown;
            /// The prompt's input schema compiled to JSON Schema (empty when it has none).
            #[allow(dead_code)]
            pub const INPUT_SCHEMA: &'static str = #input_schema;
            /// The prompt's output schema compiled to JSON Schema (empty when it has none).
            #[allow(dead_code)]
            pub const OUTPUT_SCHEMA: &'static str = #output_schema;

            /// The prompt, parsed once per process from the text the derive checked.
            #[doc(hidden)]
            #[inline]
            pub fn __promptic_dotprompt() -> ::core::result::Result<&'static ::promptic::dotprompt::Dotprompt, ::promptic::Diagnostic> {
                #loader
            }

            /// The compiled render alone: `None` when the prompt is not compiled or this
            /// render is left to the run-time renderer (which `render` then runs), or
            /// stopped (see `__promptic_compiled_into`).
            #[doc(hidden)]
            #[allow(dead_code)]
            #[inline]
            pub fn __promptic_compiled(&self, history: &[::promptic::dotprompt::Message]) -> ::core::option::Option<::promptic::dotprompt::RenderedPrompt> {
                self.__promptic_compiled_into(history, &mut ::core::option::Option::None)
            }

            /// The compiled render: `None` when it stopped the render itself (its error
            /// in `fail`: past the output or step bound) or leaves it to the run-time
            /// renderer (`fail` stays `None`).
            #[doc(hidden)]
            #[allow(dead_code)]
            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            pub fn __promptic_compiled_into(
                &self,
                history: &[::promptic::dotprompt::Message],
                fail: &mut ::core::option::Option<::std::boxed::Box<::promptic::Diagnostic>>,
            ) -> ::core::option::Option<::promptic::dotprompt::RenderedPrompt> {
                #compiled
            }

            #[doc = #doc]
            #[inline]
            pub fn render(&self) -> ::core::result::Result<::promptic::dotprompt::RenderedPrompt, ::promptic::Diagnostic> {
                self.render_with_history(&[])
            }

            /// [`render`](Self::render) with the conversation so far: it goes where the
            /// template writes `{{history}}` (each message marked `purpose: history`), or,
            /// when the template does not place it, where dotprompt puts it.
            #[inline]
            pub fn render_with_history(&self, history: &[::promptic::dotprompt::Message]) -> ::core::result::Result<::promptic::dotprompt::RenderedPrompt, ::promptic::Diagnostic> {
                let mut __fail = ::core::option::Option::None;
                if let ::core::option::Option::Some(__rendered) = self.__promptic_compiled_into(history, &mut __fail) {
                    return ::core::result::Result::Ok(__rendered);
                }
                // The compiled render stopped the render itself: its error. (A render that
                // has no other way to stop links no run-time renderer: the compiler sees
                // the hand-over below cannot be reached.)
                if let ::core::option::Option::Some(__error) = __fail {
                    return ::core::result::Result::Err(*__error);
                }
                let __values = <Self as ::promptic::dotprompt::DotpromptPrompt>::values(self);
                ::promptic::__private::render_dotprompt(Self::__promptic_dotprompt()?, __values, history)
            }

            /// [`render_with_history`](Self::render_with_history) with values the template
            /// reads as `@name` (`@state.step`, `@auth.uid`): dotprompt's render context.
            /// An empty context renders as `render_with_history` does; any other renders
            /// with the run-time renderer, from the checked text.
            #[inline]
            pub fn render_with_context(
                &self,
                context: &::promptic::__private::JsonMap<::promptic::__private::String, ::promptic::__private::JsonValue>,
                history: &[::promptic::dotprompt::Message],
            ) -> ::core::result::Result<::promptic::dotprompt::RenderedPrompt, ::promptic::Diagnostic> {
                if context.is_empty() {
                    return self.render_with_history(history);
                }
                let __values = <Self as ::promptic::dotprompt::DotpromptPrompt>::values(self);
                ::promptic::__private::render_dotprompt_with_context(Self::__promptic_dotprompt()?, __values, context, history)
            }
        }

        /// What hot reload checks an edited prompt against.
        #[allow(single_use_lifetimes)]
        impl #impl_generics ::promptic::dotprompt::DotpromptPrompt for #ident #ty_generics #where_clause {
            const NAME: &'static str = #prompt_name;
            const PATH: &'static str = #shown;
            const STRUCT_NAME: &'static str = #struct_name;
            const FIELDS: &'static [::promptic::dotprompt::DotpromptField] = &[#(#field_entries),*];
            const SOURCES: &'static [(&'static str, &'static str)] = &[#(#sources),*];
            const HELPERS: &'static [(&'static str, ::promptic::dotprompt::HelperPtr)] = &[#(#helper_entries),*];
            #[inline]
            fn values(&self) -> ::promptic::__private::JsonMap<::promptic::__private::String, ::promptic::__private::JsonValue> {
                let mut __values = ::promptic::__private::JsonMap::new();
                #(#values)*
                __values
            }
            #[inline]
            fn render_compiled(
                &self,
                context: &::promptic::__private::JsonMap<::promptic::__private::String, ::promptic::__private::JsonValue>,
                history: &[::promptic::dotprompt::Message],
            ) -> ::core::result::Result<::promptic::dotprompt::RenderedPrompt, ::promptic::Diagnostic> {
                Self::render_with_context(self, context, history)
            }
        }
    })
}

/// The statement that makes cargo rebuild when the prompt file (`path`), a partial it
/// includes, a registry file or `promptic.json` changes.
fn tracked_files(
    project: &Project,
    path: std::path::PathBuf,
    partials: &[FolderFile],
    registry_files: &[FolderFile],
) -> TokenStream {
    let mut tracked = vec![path];
    tracked.extend(
        partials
            .iter()
            .filter_map(|p| partial_file(&p.name))
            .map(|rel| project.dir.join(rel)),
    );
    tracked.extend(registry_files.iter().map(|f| project.dir.join(&f.name)));
    tracked.extend(project.config.path.iter().cloned());
    crate::emit::tracked(&tracked)
}

/// Registers `helpers` in `folder` by name, for the check: their functions run only at
/// render time. A name dotprompt has already is an error at the name.
fn define_helpers(folder: &mut Folder, helpers: &[HelperRef]) -> syn::Result<()> {
    for helper in helpers {
        folder
            .define_helper(&helper.name.to_string(), |_| {
                Err("a helper declared for the build is not called at build time".to_owned())
            })
            .map_err(|d| {
                syn::Error::new(
                    helper.name.span(),
                    format!(
                        "{}\n  = help: {}",
                        d.message(),
                        d.help().unwrap_or("name it otherwise")
                    ),
                )
            })?;
    }
    Ok(())
}

/// Every helper of `helpers` is called by `prompt` (read from `shown`): one that is not
/// is an error at its name.
fn helpers_called(prompt: &Dotprompt, helpers: &[HelperRef], shown: &str) -> syn::Result<()> {
    let called = prompt.helpers_called();
    for helper in helpers {
        let written = helper.name.to_string();
        if !called.contains(&written.as_str()) {
            return Err(syn::Error::new(
                helper.name.span(),
                format!(
                    "the helper `{written}` is not called by {shown}\n  = help: call it in the template (`{{{{{written} ...}}}}`), or remove it from `helpers(...)`"
                ),
            ));
        }
    }
    Ok(())
}

/// `(name, function)` for each helper, each function where it is named: a signature that
/// does not fit is reported there.
fn helper_entries(helpers: &[HelperRef]) -> Vec<TokenStream> {
    helpers
        .iter()
        .map(|h| {
            let written = h.name.to_string();
            let function = &h.function;
            quote::quote_spanned!(function.span()=> (#written, #function))
        })
        .collect()
}

/// The body of the function that gives the prompt parsed once per process from the texts
/// the macro checked (the file `shown`, `text`; its partials and registries) with the
/// frontmatter as it read it and the `helpers`.
fn loader(
    shown: &str,
    text: &str,
    partials: &[FolderFile],
    registry_files: &[FolderFile],
    frontmatter: &str,
    helpers: TokenStream,
) -> TokenStream {
    let file = |f: &FolderFile| {
        let (n, p, t) = (&f.name, &f.path, &f.text);
        quote!(::promptic::__private::DotpromptFile { name: #n, path: #p, text: #t })
    };
    let (partials, registries) = (partials.iter().map(file), registry_files.iter().map(file));
    quote! {
        static LOADED: ::std::sync::OnceLock<
            ::core::result::Result<::promptic::dotprompt::Dotprompt, ::promptic::Diagnostics>,
        > = ::std::sync::OnceLock::new();
        static ENTRY: ::promptic::__private::DotpromptFile =
            ::promptic::__private::DotpromptFile { name: "", path: #shown, text: #text };
        static PARTIALS: &[::promptic::__private::DotpromptFile] = &[#(#partials),*];
        static REGISTRIES: &[::promptic::__private::DotpromptFile] = &[#(#registries),*];
        ::promptic::__private::dotprompt_loaded(&LOADED, &ENTRY, #frontmatter, PARTIALS, REGISTRIES, #helpers)
    }
}

/// The compiled render (`prompt_runtime::formats::dotprompt::compiled`): an expression of
/// type `Option<RenderedPrompt>`, `None` when the compiled code leaves this render to the
/// run-time renderer (a value it does not read in place, a bound passed); a prompt it
/// cannot compile is a build error at the construct.
fn compiled(prompt: &Dotprompt, fields: &[Field], name: &LitStr) -> syn::Result<TokenStream> {
    let field = |name: &str| {
        let f = fields.iter().find(|f| f.name == name)?;
        Some(crate::jinja::field_place(f, "::promptic::__private::jc"))
    };
    compiled_with(prompt, &field, None, name)
}

/// [`compiled`] with `field` giving the Rust place of each top-level name (a field of
/// `self`, an argument of `prompt!`); the code reads `history` and sets `fail`.
fn compiled_with(
    prompt: &Dotprompt,
    field: &dyn Fn(&str) -> Option<String>,
    root: Option<&str>,
    name: &LitStr,
) -> syn::Result<TokenStream> {
    use prompt_runtime::formats::dotprompt::compiled::{compile, compile_with_root};
    // A prompt the derive cannot compile is an error at the construct, never a quiet
    // switch to the run-time renderer.
    let code = match root {
        Some(root) => compile_with_root(prompt, field, root),
        None => compile(prompt, field),
    }
    .map_err(|d| crate::compile::to_error(name, d.into()))?;
    // Generated code that is not Rust is a bug of the generator: a build error, never a
    // quiet switch to the run-time renderer.
    let code = crate::compile::generated(name, prompt.source().path(), &code)?;
    // The metadata as the derive read it, written as JSON and read back once: no parser
    // at run time for it.
    let path = prompt.source().path();
    let metadata = prompt_runtime::formats::dotprompt::compiled::metadata(prompt);
    let metadata = serde_json::to_string(&*metadata).map_err(|e| {
        syn::Error::new(
            name.span(),
            format!("the prompt's metadata is not JSON: {e}"),
        )
    })?;
    Ok(quote! {
        #[allow(unused, clippy::all, clippy::pedantic)]
        (|| -> ::core::option::Option<::promptic::dotprompt::RenderedPrompt> {
            let __out: ::promptic::__private::dc::Out<'_> = #code?;
            static META: ::std::sync::OnceLock<::std::sync::Arc<::promptic::dotprompt::PromptMetadata>> =
                ::std::sync::OnceLock::new();
            let __meta = META.get_or_init(|| ::promptic::__private::dc::metadata_of(#metadata));
            ::promptic::__private::dc::past_output(__out.finish(__meta), fail, #path)
        })()
    })
}

/// What a Rust type gives a template, as far as the macro can tell from its tokens: one
/// [`TypeKind`] per layer, outermost first.
pub(crate) fn kind(ty: &syn::Type) -> Vec<TypeKind> {
    let mut out = Vec::new();
    push_kind(ty, &mut out);
    out
}

fn push_kind(ty: &syn::Type, out: &mut Vec<TypeKind>) {
    match ty {
        syn::Type::Reference(r) => push_kind(&r.elem, out),
        syn::Type::Paren(p) => push_kind(&p.elem, out),
        syn::Type::Group(g) => push_kind(&g.elem, out),
        syn::Type::Slice(s) => {
            out.push(TypeKind::List);
            push_kind(&s.elem, out);
        }
        syn::Type::Array(a) => {
            out.push(TypeKind::List);
            push_kind(&a.elem, out);
        }
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return out.push(TypeKind::Other);
            };
            let arg = match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|a| match a {
                    syn::GenericArgument::Type(t) => Some(t),
                    _ => None,
                }),
                _ => None,
            };
            match (last.ident.to_string().as_str(), arg) {
                ("String" | "str", _) => out.push(TypeKind::Text),
                ("Cow" | "Box" | "Rc" | "Arc", Some(inner)) => push_kind(inner, out),
                ("Option", Some(inner)) => {
                    out.push(TypeKind::Optional);
                    push_kind(inner, out);
                }
                ("Vec", Some(inner)) => {
                    out.push(TypeKind::List);
                    push_kind(inner, out);
                }
                ("bool", _) => out.push(TypeKind::Bool),
                (
                    "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64"
                    | "u128" | "usize" | "f32" | "f64",
                    _,
                ) => out.push(TypeKind::Number),
                _ => out.push(TypeKind::Other),
            }
        }
        _ => out.push(TypeKind::Other),
    }
}

/// `kind` as the tokens of a `&'static [TypeKind]`, for the `DotpromptPrompt` impl.
fn kind_tokens(kind: &[TypeKind]) -> TokenStream {
    let steps = kind.iter().map(|k| match k {
        TypeKind::Text => quote!(::promptic::dotprompt::schema::TypeKind::Text),
        TypeKind::Number => quote!(::promptic::dotprompt::schema::TypeKind::Number),
        TypeKind::Bool => quote!(::promptic::dotprompt::schema::TypeKind::Bool),
        TypeKind::List => quote!(::promptic::dotprompt::schema::TypeKind::List),
        TypeKind::Optional => quote!(::promptic::dotprompt::schema::TypeKind::Optional),
        TypeKind::Other => quote!(::promptic::dotprompt::schema::TypeKind::Other),
    });
    quote!(&[#(#steps),*])
}

/// The struct against the prompt's input, by the runtime's check (which hot reload runs
/// again): a field the input schema lacks is an error at the field, anything else at the
/// prompt file. Gives the `const` checks of the nested objects' properties.
fn check_fields(
    prompt: &Dotprompt,
    fields: &[Field],
    input: &DeriveInput,
    name: &LitStr,
) -> syn::Result<Vec<TokenStream>> {
    let metadata = prompt.render_metadata();
    let kinds: Vec<Vec<TypeKind>> = fields.iter().map(|f| kind(&f.ty)).collect();
    let named: Vec<FieldKind<'_>> = fields
        .iter()
        .zip(&kinds)
        .map(|(f, kind)| FieldKind {
            name: &f.name,
            kind,
        })
        .collect();
    let found = check_field_kinds(
        prompt,
        metadata.input_schema(),
        &input.ident.to_string(),
        &named,
    );
    let mut errors: Option<syn::Error> = None;
    for (at, problem) in found.unknown {
        let Some(field) = fields.get(at) else {
            continue;
        };
        compile::combine(&mut errors, syn::Error::new(field.span, problem.body()));
    }
    if let Some(e) = errors {
        return Err(e);
    }
    if !found.problems.is_empty() {
        return Err(compile::to_error(name, found.problems));
    }
    let mut nested = Vec::new();
    for (at, property, schema) in found.nested {
        if let Some(field) = fields.get(at) {
            let mut path = vec![property.to_owned()];
            nested_checks(
                prompt,
                &mut path,
                schema,
                &field.ty,
                &mut Steps::default(),
                &mut nested,
                false,
            );
        }
    }
    Ok(nested)
}

/// The steps from a field to a nested property, and how many of them the check of the
/// object holding it reads (a mistake there is that check's error, not again its
/// properties').
#[derive(Default)]
struct Steps {
    tokens: Vec<TokenStream>,
    checked: usize,
}

/// One `const` per property of a nested object (in lists too): it panics, at compile
/// time, with the whole diagnostic when the field's type has no such field.
fn nested_checks(
    prompt: &Dotprompt,
    path: &mut Vec<String>,
    schema: &Value,
    ty: &syn::Type,
    steps: &mut Steps,
    out: &mut Vec<TokenStream>,
    inline: bool,
) {
    if steps.tokens.len() > 16 {
        return;
    }
    let source = prompt.source();
    match schema_type(schema).as_deref() {
        Some("array") => {
            if let Some(items) = schema.get("items") {
                steps
                    .tokens
                    .push(quote!(::promptic::__private::Step::Element));
                nested_checks(prompt, path, items, ty, steps, out, inline);
                steps.tokens.pop();
            }
        }
        Some("object") => {
            let Some(props) = properties(schema) else {
                return;
            };
            for (property, inner) in props.iter() {
                path.push(property.to_owned());
                let names: Vec<&str> = path.iter().map(String::as_str).collect();
                let span = property_span(prompt, &names);
                let body = Diagnostic::new("\u{E000}")
                    .at(source, span)
                    .with_help("\u{E001}")
                    .body();
                let Some(location) = body
                    .split_once('\u{E000}')
                    .and_then(|(_, rest)| rest.split_once('\u{E001}'))
                    .map(|(l, _)| l.to_owned())
                else {
                    path.pop();
                    continue;
                };
                let shown = path.first().cloned().unwrap_or_default();
                steps
                    .tokens
                    .push(quote!(::promptic::__private::Step::Field(#property)));
                let ty = static_lifetimes(ty);
                let (tokens, known) = (&steps.tokens, steps.checked);
                let check = quote! {
                    ::promptic::__private::check_path_rest(
                        &<#ty as ::promptic::__private::PromptValue>::SHAPE,
                        #shown,
                        &[#(#tokens),*],
                        0,
                        #known,
                        #location,
                    )
                };
                // In a function generic over the type (`prompt!`'s arguments), a `const`
                // block; otherwise an item.
                out.push(if inline {
                    quote! {
                        const {
                            let message = #check;
                            if !message.is_empty() {
                                ::core::panic!("{}", message.as_str());
                            }
                        }
                    }
                } else {
                    quote! {
                        const _: () = {
                            const MESSAGE: ::promptic::__private::PathMessage = #check;
                            if !MESSAGE.is_empty() {
                                ::core::panic!("{}", MESSAGE.as_str());
                            }
                        };
                    }
                });
                let outer = std::mem::replace(&mut steps.checked, steps.tokens.len());
                nested_checks(prompt, path, inner, &ty, steps, out, inline);
                steps.checked = outer;
                steps.tokens.pop();
                path.pop();
            }
        }
        _ => {}
    }
}

/// `prompt!("name", a = x, …)` of a dotprompt file: the arguments checked against the
/// prompt's input (each an input the schema declares, every required one given; without a
/// schema, every name the template reads given and every argument read), each nested
/// property checked against its argument's type in a `const` block of a function generic
/// over that type, and a value whose `render()` renders as a derived struct's does. The
/// arguments are moved into that value; an optional input may be left out (it is then
/// absent, as a `None` field is).
pub fn expand_call(
    name: &LitStr,
    args: &[(String, proc_macro2::Span, &syn::Expr)],
    helpers: &[HelperRef],
    project: &Project,
) -> syn::Result<TokenStream> {
    let prompt_name = name.value();
    let mut folder = Folder::open(project.root()).map_err(|d| compile::to_error(name, d))?;
    define_helpers(&mut folder, helpers)?;
    let loaded = folder
        .load(&prompt_name)
        .map_err(|d| compile::to_error(name, d))?;
    let prompt = loaded.prompt;
    helpers_called(&prompt, helpers, &loaded.file.path)?;
    let (shown, text, partials) = (loaded.file.path, loaded.file.text, loaded.partials);
    let registry_files = folder.registry_files();
    let schemas = check_call_names(&prompt, args, name)?;

    let path = project.dir.join(format!("{prompt_name}.prompt"));
    let tracked = tracked_files(project, path, &partials, registry_files);
    let loader = loader(
        &shown,
        &text,
        &partials,
        registry_files,
        &prompt.frontmatter_json(),
        {
            let entries = helper_entries(helpers);
            quote! {{
                static HELPERS: &[(&str, ::promptic::dotprompt::HelperPtr)] = &[#(#entries),*];
                HELPERS
            }}
        },
    );

    let exprs = args.iter().map(|(_, _, e)| e);
    let bindings: Vec<syn::Ident> = (0..args.len())
        .map(|i| quote::format_ident!("__arg_{}", i))
        .collect();
    // The nested properties of each argument, checked against its type's shape.
    let mut checks = Vec::new();
    for (at, schema) in schemas {
        let Some(((arg, _, _), binding)) = args.get(at).zip(bindings.get(at)) else {
            continue;
        };
        let mut consts = Vec::new();
        let t: syn::Type = syn::parse_quote!(T);
        let mut path = vec![arg.clone()];
        nested_checks(
            &prompt,
            &mut path,
            &schema,
            &t,
            &mut Steps::default(),
            &mut consts,
            true,
        );
        if !consts.is_empty() {
            checks.push(quote! {{
                #[allow(non_snake_case)]
                fn __paths<T: ::promptic::__private::PromptValue + ?Sized>(_: &T) {
                    #(#consts)*
                }
                __paths(#binding);
            }});
        }
    }
    let inserts = args.iter().zip(&bindings).map(|((arg, _, _), binding)| {
        quote! {
            ::promptic::__private::insert_value(
                &mut __values,
                #arg,
                ::promptic::__private::PromptValue::to_value(#binding),
            );
        }
    });
    let values = quote! {{
        let mut __values = ::promptic::__private::JsonMap::new();
        #(#inserts)*
        __values
    }};
    let place = |arg: &str| {
        let i = args.iter().position(|(n, _, _)| n == arg)?;
        Some(format!(
            "(*(&&::promptic::__private::jc::Field(__arg_{i})).value())"
        ))
    };
    let compiled = compiled_with(&prompt, &place, Some(&values.to_string()), name)?;
    Ok(quote! {{
        const _: () = { #tracked };
        fn __loaded() -> ::core::result::Result<&'static ::promptic::dotprompt::Dotprompt, ::promptic::Diagnostic> {
            #loader
        }
        let __args = (#(#exprs,)*);
        {
            #[allow(unused_variables)]
            let (#(ref #bindings,)*) = __args;
            #(#checks)*
        }
        ::promptic::__private::InlineDotprompt::new(
            __args,
            |__args, history, fail| {
                #[allow(unused_variables)]
                let (#(ref #bindings,)*) = *__args;
                #compiled
            },
            |__args| {
                #[allow(unused_variables)]
                let (#(ref #bindings,)*) = *__args;
                #values
            },
            __loaded,
            #shown,
        )
    }})
}

/// The arguments of `prompt!` against the prompt's input, by the runtime's check: an
/// argument the input lacks is an error at the argument, anything else at the prompt
/// file. Gives each argument's schema by its index, for the checks of its properties.
fn check_call_names(
    prompt: &Dotprompt,
    args: &[(String, proc_macro2::Span, &syn::Expr)],
    name: &LitStr,
) -> syn::Result<Vec<(usize, Value)>> {
    let metadata = prompt.render_metadata();
    let names: Vec<&str> = args.iter().map(|(n, _, _)| n.as_str()).collect();
    let found = check_arguments(prompt, metadata.input_schema(), &names);
    let mut errors = (!found.problems.is_empty()).then(|| compile::to_error(name, found.problems));
    for (at, problem) in found.unknown {
        let Some((_, span, _)) = args.get(at) else {
            continue;
        };
        compile::combine(&mut errors, syn::Error::new(*span, problem.body()));
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(found
            .nested
            .into_iter()
            .map(|(at, _, schema)| (at, schema.clone()))
            .collect()),
    }
}
