//! `#[derive(Prompt)]` of a Jinja prompt (`prompts/NAME.md.j2` or `prompts/NAME.j2`).
//!
//! The templates are loaded by the one Jinja reader (`Project::load_jinja`: syntax, the
//! supported subset, includes, cycles, guidance fences, `{# cache: static #}`), then every
//! name they read is checked against the struct's fields: a name no field gives, an
//! `Option` field read without a guard or a default, a field nothing reads. A path into a
//! field (`user.name`, `s.city` in a loop over `stops`) is checked where the field's type
//! is known, in `const` evaluation, against its `PromptValue::SHAPE`.
//!
//! The render is compiled Rust (`prompt_runtime::formats::jinja::compiled`). Where it
//! stops with an error, the values are checked against the paths the templates read (the
//! plan written as JSON text, left out where the fields' types give every path), as
//! the run-time renderer checks them; where it cannot render a value in place (one read
//! through a map it cannot follow, an error Jinja2 makes in a comparison), it hands the
//! render to the run-time renderer over the same texts, loaded once per process.
//! `difftest` holds the two to the same bytes and errors.

use crate::compile;
use crate::derive::Field;
use crate::generators::{Call, Derive, Generator};
use proc_macro2::TokenStream;
use prompt_runtime::Diagnostic;
use prompt_runtime::formats::jinja::{PathStep, PathUse, Templates};
use prompt_runtime::load::Project;
use prompt_runtime::resolve::VarKind;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

/// The generator of Jinja prompts.
pub(crate) struct JinjaCode;

/// The one [`JinjaCode`].
pub(crate) static JINJA: JinjaCode = JinjaCode;

impl Generator for JinjaCode {
    fn format(&self) -> &'static str {
        "jinja"
    }

    fn derive(&self, cx: &Derive<'_>) -> syn::Result<TokenStream> {
        expand(cx.input, cx.name, cx.fields, cx.project)
    }

    fn derive_fallback(&self, input: &DeriveInput, error: syn::Error) -> TokenStream {
        crate::derive::jinja_fallback(input, error)
    }

    fn call(&self, cx: &Call<'_>) -> syn::Result<TokenStream> {
        expand_call(cx.name, cx.args, cx.project)
    }

    fn call_fallback(&self, _: &Project, _: &LitStr) -> TokenStream {
        quote! {{
            static LOADED: ::std::sync::OnceLock<
                ::core::result::Result<::promptic::formats::jinja::Templates, ::promptic::Diagnostics>,
            > = ::std::sync::OnceLock::new();
            ::promptic::__private::InlineJinja::new(
                &LOADED,
                &[],
                ::promptic::__private::JinjaOptions::default(),
                ::promptic::__private::JsonMap::new(),
            )
        }}
    }
}

pub fn expand(
    input: &DeriveInput,
    name: &LitStr,
    fields: &[Field],
    project: &Project,
) -> syn::Result<TokenStream> {
    let prompt_name = name.value();
    let (file, templates) = project
        .load_jinja(&prompt_name)
        .map_err(|d| compile::to_error(name, d))?;
    let ident = &input.ident;
    let given: Vec<Given> = fields
        .iter()
        .map(|f| Given {
            name: f.name.clone(),
            span: f.span,
            optional: f.kind == VarKind::Optional,
        })
        .collect();
    check_names(
        &templates,
        &file,
        &given,
        &format!("a field of `{ident}`"),
        name,
        "field",
    )?;

    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let path_checks = path_checks(&templates, &file, fields, input);
    let Loaded {
        tracked,
        files,
        options,
    } = loaded(project, &file, &templates);
    let generic = input.generics.type_params().next().is_some()
        || input.generics.const_params().next().is_some();
    let (compiled, compiled_fn) = compiled(&templates, &file, fields, name, generic)?;
    let path = format!("{}/{file}", project.display);
    let doc = format!(
        "Renders `{path}` with this context, byte for byte as Jinja2 renders it with the folder's options.\n\nAn error only when a value makes Jinja2 fail too (a comparison of a number with text, a render past `MAX_OUTPUT`)."
    );
    let jinja_prompt = jinja_prompt(input, &prompt_name, &path, fields, &file, &templates);
    let render = crate::derive::render_impl(
        input,
        "jinja",
        [&prompt_name, &path, &templates.version(&file)],
        crate::derive::Output::Jinja,
    );
    Ok(quote! {
        const _: () = { #tracked };
        #(#path_checks)*
        #jinja_prompt
        #render
        #[allow(single_use_lifetimes, clippy::same_name_method)]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// The prompt file (`prompts/NAME.md.j2`).
            #[allow(dead_code)]
            pub const PATH: &'static str = #path;

            /// The compiled render alone: `None` when the template set is not compiled or
            /// this render is left to the run-time renderer (which `render` then runs).
            #[doc(hidden)]
            #[allow(dead_code)]
            #[inline]
            pub fn __promptic_compiled(&self) -> ::core::option::Option<::promptic::__private::String> {
                let mut __text = ::promptic::__private::String::new();
                self.__promptic_compiled_into(&mut __text, &mut ::std::vec::Vec::new(), &mut ::core::option::Option::None)
                    .map(|()| __text)
            }

            /// The compiled render into `into`, pushing where each cache breakpoint falls
            /// onto `marks`; `None` with the error in `fail` where it stops the render
            /// itself (a bound passed), `None` alone where it leaves the render to the
            /// run-time renderer.
            #[doc(hidden)]
            #[allow(dead_code, clippy::ptr_arg)]
            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            pub fn __promptic_compiled_into(
                &self,
                into: &mut ::promptic::__private::String,
                marks: &mut ::std::vec::Vec<usize>,
                fail: &mut ::core::option::Option<::std::boxed::Box<::promptic::Diagnostic>>,
            ) -> ::core::option::Option<()> {
                #compiled_fn
            }

            #[doc = #doc]
            #[inline]
            pub fn render(&self) -> ::core::result::Result<::promptic::__private::PromptContent, ::promptic::Diagnostic> {
                static LOADED: ::std::sync::OnceLock<
                    ::core::result::Result<::promptic::formats::jinja::Templates, ::promptic::Diagnostics>,
                > = ::std::sync::OnceLock::new();
                const FILES: &[::promptic::__private::JinjaFile] = &[#(#files),*];
                #compiled
                let __values = <Self as ::promptic::formats::jinja::JinjaPrompt>::values(self);
                ::promptic::__private::render_jinja(&LOADED, FILES, #options, __values)
            }
        }
    })
}

/// `impl JinjaPrompt`: what hot reload checks an edited template against (the fields'
/// names, which are optional, their `PromptValue` shapes), the texts and options the
/// derive checked, the values, and the derive's `render()`.
fn jinja_prompt(
    input: &DeriveInput,
    prompt_name: &str,
    path: &str,
    fields: &[Field],
    file: &str,
    templates: &Templates,
) -> TokenStream {
    let ident = &input.ident;
    let struct_name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let shapes = fields.iter().map(|f| {
        let (key, ty) = (&f.name, &f.ty);
        let optional = f.kind == VarKind::Optional;
        quote! {
            ::promptic::formats::jinja::JinjaField {
                name: #key,
                optional: #optional,
                shape: &<#ty as ::promptic::__private::PromptValue>::SHAPE,
            }
        }
    });
    let values = value_inserts(fields);
    let mut names: Vec<&str> = vec![file];
    names.extend(templates.names().filter(|n| *n != file));
    let sources = names.iter().filter_map(|n| {
        let text = templates.get(n)?.source().text();
        Some(quote!((#n, #text)))
    });
    let o = templates.options();
    let (trim, lstrip, keep) = (o.trim_blocks, o.lstrip_blocks, o.keep_trailing_newline);
    quote! {
        #[allow(single_use_lifetimes)]
        impl #impl_generics ::promptic::formats::jinja::JinjaPrompt for #ident #ty_generics #where_clause {
            const NAME: &'static str = #prompt_name;
            const PATH: &'static str = #path;
            const STRUCT_NAME: &'static str = #struct_name;
            const FIELDS: &'static [::promptic::formats::jinja::JinjaField] = &[#(#shapes),*];
            const SOURCES: &'static [(&'static str, &'static str)] = &[#(#sources),*];
            const OPTIONS: ::promptic::__private::JinjaOptions = ::promptic::__private::JinjaOptions {
                trim_blocks: #trim,
                lstrip_blocks: #lstrip,
                keep_trailing_newline: #keep,
            };
            #[inline]
            fn values(&self) -> ::promptic::__private::JsonMap<::promptic::__private::String, ::promptic::__private::JsonValue> {
                let mut __values = ::promptic::__private::JsonMap::new();
                #(#values)*
                __values
            }
            #[inline]
            fn render_compiled(&self) -> ::core::result::Result<::promptic::__private::PromptContent, ::promptic::Diagnostic> {
                Self::render(self)
            }
        }
    }
}

/// The compiled render (`prompt_runtime::formats::jinja::compiled`): a statement that
/// returns the content when the compiled code renders, and nothing when the compiled code
/// leaves this render to the run-time renderer (an error Jinja2 makes, a value it does not
/// read in place); a template it cannot compile is a build error at the construct.
fn compiled(
    templates: &Templates,
    file: &str,
    fields: &[Field],
    name: &LitStr,
    generic: bool,
) -> syn::Result<(TokenStream, TokenStream)> {
    let field = |name: &str| Some(field_place(fields.iter().find(|f| f.name == name)?, "jc"));
    // A template the derive cannot compile is an error at the construct, never a quiet
    // switch to the run-time renderer.
    let code = prompt_runtime::formats::jinja::compiled::compile(templates, file, &field)
        .map_err(|d| crate::compile::to_error(name, d.into()))?;
    let path = templates
        .get(file)
        .map(|t| t.source().path().to_owned())
        .unwrap_or_default();
    // Generated code that is not Rust is a bug of the generator: a build error, never a
    // quiet switch to the run-time renderer.
    let code = crate::compile::generated(name, &path, &code)?;
    let plan = prompt_runtime::formats::jinja::compiled::compile_plan(
        templates,
        file,
        &field,
        "<Self as ::promptic::formats::jinja::JinjaPrompt>::values(self)",
    );
    let may_miss = may_miss(&plan.paths, fields, generic);
    let json = crate::compile::generated(name, &path, &plan.json)?;
    // Values whose types give every path the plan reads cannot fit it otherwise: the
    // check is left out (and not linked).
    let stopped = match &plan.check {
        _ if plan.paths.is_empty() => quote! {
            if let ::core::option::Option::Some(__error) = __fail {
                return ::core::result::Result::Err(*__error);
            }
        },
        // No block to decide: one call of a generic function, less for the compiler to
        // check per prompt than the check written out.
        None => quote! {
            if let ::core::option::Option::Some(__error) = __fail {
                const __MAY_MISS: bool = #may_miss;
                return ::core::result::Result::Err(if __MAY_MISS {
                    ::promptic::__private::jinja_stopped(self, *__error, #json, FILES)
                } else {
                    *__error
                });
            }
        },
        // A condition the compiled code leaves to the run-time renderer leaves the render
        // to it (undecided).
        Some(check) => {
            let check = crate::compile::generated(name, &path, check)?;
            quote! {
                if let ::core::option::Option::Some(__error) = __fail {
                    const __MAY_MISS: bool = #may_miss;
                    #[allow(unused, clippy::all, clippy::pedantic)]
                    let __checked = if __MAY_MISS {
                        #check
                    } else {
                        ::promptic::__private::jc::Checked::Clean
                    };
                    match __checked {
                        ::promptic::__private::jc::Checked::Problem(__problem) => {
                            return ::core::result::Result::Err(*__problem);
                        }
                        ::promptic::__private::jc::Checked::Clean => {
                            return ::core::result::Result::Err(*__error);
                        }
                        ::promptic::__private::jc::Checked::Undecided => {}
                    }
                }
            }
        }
    };
    Ok((
        quote! {
            let mut __text = ::promptic::__private::String::new();
            let mut __marks = ::std::vec::Vec::new();
            let mut __fail = ::core::option::Option::None;
            if self.__promptic_compiled_into(&mut __text, &mut __marks, &mut __fail).is_some() {
                return ::core::result::Result::Ok(::promptic::__private::jinja_content(__text, __marks, #path));
            }
            // The compiled render stopped the render itself: its error, unless the values
            // do not fit what the templates read, which the run-time renderer reports
            // instead (all of it at once, as if checked first). (A render that has no
            // other way to stop links no run-time renderer: the compiler sees the
            // hand-over below cannot be reached.)
            #stopped
        },
        quote! {
            #[allow(unused, clippy::all, clippy::pedantic)]
            (|| -> ::core::option::Option<()> { #code })()
        },
    ))
}

/// Whether the values may not fit a path of `paths` (each a field's name and the steps
/// into it), as a `const` expression over the fields' shapes: a path that reads an item
/// by index may always miss; otherwise a field may where its type is loose
/// ([`loose`](prompt_runtime::value::path::loose): one term per field, which is less for
/// the compiler than one per path). `true` for a generic struct, whose field types a
/// `const` cannot name.
fn may_miss(paths: &[(String, Vec<PathStep>)], fields: &[Field], generic: bool) -> TokenStream {
    if generic {
        return quote!(true);
    }
    let mut roots: Vec<&str> = Vec::new();
    for (name, steps) in paths {
        if steps.iter().any(|s| matches!(s, PathStep::Index(_))) {
            return quote!(true);
        }
        if !roots.contains(&name.as_str()) {
            roots.push(name);
        }
    }
    let each = roots.iter().map(|name| {
        let Some(field) = fields.iter().find(|f| f.name == *name) else {
            return quote!(true);
        };
        let ty = static_lifetimes(&field.ty);
        quote! {
            ::promptic::__private::loose(&<#ty as ::promptic::__private::PromptValue>::SHAPE)
        }
    });
    quote!(false #(|| #each)*)
}

/// What the templates need to render at run time: the files to track, the texts the check
/// read (entry first) and the options.
pub struct Loaded {
    pub tracked: TokenStream,
    pub files: Vec<TokenStream>,
    pub options: TokenStream,
}

pub fn loaded(project: &Project, file: &str, templates: &Templates) -> Loaded {
    let mut tracked = vec![project.dir.join(file)];
    tracked.extend(templates.names().map(|n| project.dir.join(n)));
    tracked.extend(project.config.path.iter().cloned());
    tracked.dedup();
    let tracked = crate::emit::tracked(&tracked);
    // The entry first: `render_jinja` loads from it.
    let mut names: Vec<&str> = vec![file];
    names.extend(templates.names().filter(|n| *n != file));
    let files = names
        .iter()
        .filter_map(|n| {
            let source = templates.get(n)?.source();
            let (path, text) = (source.path(), source.text());
            Some(quote! {
                ::promptic::__private::JinjaFile { name: #n, path: #path, text: #text }
            })
        })
        .collect();
    let o = templates.options();
    let (trim, lstrip, keep) = (o.trim_blocks, o.lstrip_blocks, o.keep_trailing_newline);
    let options = quote! {
        ::promptic::__private::JinjaOptions {
            trim_blocks: #trim,
            lstrip_blocks: #lstrip,
            keep_trailing_newline: #keep,
        }
    };
    Loaded {
        tracked,
        files,
        options,
    }
}

/// A value the derive's struct or `prompt!`'s arguments give.
pub struct Given {
    pub name: String,
    pub span: proc_macro2::Span,
    /// An `Option`, which may be read only under a guard or a default.
    pub optional: bool,
}

/// Every name the templates read is given (or is `guidance`, which the fence defaults);
/// an `Option` is read only under a guard or a default; every value given is read.
/// `what` says what a given value is ("a field of `Agent`"), `kind` names one ("field").
pub fn check_names(
    templates: &Templates,
    file: &str,
    fields: &[Given],
    what: &str,
    name: &LitStr,
    kind: &str,
) -> syn::Result<()> {
    // The run-time check, which hot reload runs again on an edited template: the same
    // messages at the same places.
    let given: Vec<(&str, bool)> = fields
        .iter()
        .map(|f| (f.name.as_str(), f.optional))
        .collect();
    let problems = prompt_runtime::formats::jinja::check_names(templates, file, &given, what, kind);
    // A walk too large to check is the one problem reported.
    if templates.paths(file).is_err() {
        return Err(compile::to_error(name, problems));
    }
    let mut errors = if problems.is_empty() {
        None
    } else {
        Some(compile::to_error(name, problems))
    };
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let unused = prompt_runtime::formats::jinja::unused(templates, file, &names, kind);
    for (at, problem) in unused {
        let Some(field) = fields.get(at) else {
            continue;
        };
        let e = syn::Error::new(
            field.span,
            format!(
                "{}\n  = help: {}",
                problem.message(),
                problem.help().unwrap_or_default()
            ),
        );
        compile::combine(&mut errors, e);
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One `const` per path into a field: it panics, at compile time, with the whole
/// diagnostic when the field's type has no such path. A struct with type parameters is
/// not checked here (its fields' types are not known until it is used): its paths are
/// checked when it renders.
fn path_checks(
    templates: &Templates,
    file: &str,
    fields: &[Field],
    input: &DeriveInput,
) -> Vec<TokenStream> {
    if input.generics.type_params().next().is_some()
        || input.generics.const_params().next().is_some()
    {
        return Vec::new();
    }
    let paths = templates
        .paths(file)
        // `check_names` reported a walk too large to check.
        .unwrap_or_default();
    let mut checked = Checked::default();
    let mut checks: Vec<TokenStream> = paths
        .iter()
        .filter(|p| !p.steps.is_empty() && fields.iter().any(|f| f.name == p.name))
        .filter_map(|p| {
            let (ty, shown, steps, skip, location) = check_args(p, fields, templates)?;
            let known = checked.add(p)?;
            Some(const_check(quote! {
                ::promptic::__private::check_path_rest(
                    &<#ty as ::promptic::__private::PromptValue>::SHAPE,
                    #shown,
                    &[#(#steps),*],
                    #skip,
                    #known,
                    #location,
                )
            }))
        })
        .collect();
    // A filter that takes values of some types only (`length` text, a list or a map;
    // `abs` a number; ...), on a field or a path into one of another type.
    let mut seen = std::collections::HashSet::new();
    checks.extend(
        paths
            .iter()
            .filter_map(|p| Some((p, p.sized()?)))
            .filter(|(p, filter)| seen.insert((p.name.clone(), p.steps.clone(), *filter)))
            .filter_map(|(p, filter)| {
                let (ty, shown, steps, skip, location) = check_args(p, fields, templates)?;
                Some(const_check(quote! {
                    ::promptic::__private::check_path_sized(
                        &<#ty as ::promptic::__private::PromptValue>::SHAPE,
                        #shown,
                        &[#(#steps),*],
                        #skip,
                        #filter,
                        #location,
                    )
                }))
            }),
    );
    checks
}

/// The paths into values checks so far report on, each with its steps taken one by one
/// (`user.nmae.first` holds `user.nmae` too): a mistake in steps one check reports on is
/// left out of the others, so that one mistake is one error however many paths go through
/// it. The prefixes are a tree (each a number, its steps from its parent's), so that a
/// path costs one lookup per step.
#[derive(Default)]
struct Checked {
    /// Each value's prefix of no steps.
    roots: std::collections::HashMap<String, usize>,
    /// Each prefix's longer prefixes, by the step that makes them.
    children: Vec<std::collections::HashMap<PathStep, usize>>,
    /// The prefixes a check reports on.
    reported: std::collections::HashSet<usize>,
}

impl Checked {
    fn node(&mut self) -> usize {
        self.children.push(std::collections::HashMap::new());
        self.children.len() - 1
    }

    /// How many of `p`'s first steps a check before it reports on, or `None` when one
    /// reports on them all (the same path, read again).
    fn add(&mut self, p: &PathUse) -> Option<usize> {
        let mut at = match self.roots.get(&p.name) {
            Some(&root) => root,
            None => {
                let root = self.node();
                self.roots.insert(p.name.clone(), root);
                root
            }
        };
        let mut prefixes = Vec::with_capacity(p.steps.len());
        for step in &p.steps {
            at = match self.children[at].get(step) {
                Some(&next) => next,
                None => {
                    let next = self.node();
                    self.children[at].insert(step.clone(), next);
                    next
                }
            };
            prefixes.push(at);
        }
        if self.reported.contains(prefixes.last()?) {
            return None;
        }
        let known = (1..prefixes.len())
            .rev()
            .find(|&n| self.reported.contains(&prefixes[n - 1]))
            .unwrap_or(0);
        // A step of the loop's own is reported at the loop, not by this check.
        self.reported
            .extend(prefixes.iter().skip(known.max(p.skip)).copied());
        Some(known)
    }
}

/// What a compile-time check of path `p` is given: the field's type (its lifetimes made
/// `'static`), the path as written, its steps, how many of them the loop took, and the
/// diagnostic's location block. `None` when the path's first name is no field.
fn check_args<'p>(
    p: &'p PathUse,
    fields: &[Field],
    templates: &Templates,
) -> Option<(syn::Type, &'p str, Vec<TokenStream>, usize, String)> {
    let field = fields.iter().find(|f| f.name == p.name)?;
    let location = location(templates, p)?;
    Some((
        static_lifetimes(&field.ty),
        &p.shown,
        steps(&p.steps),
        p.skip,
        location,
    ))
}

/// A check evaluated when the crate compiles: `check` gives the message of the mistake
/// (empty when there is none), and a message fails the build with it.
fn const_check(check: TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            const MESSAGE: ::promptic::__private::PathMessage = #check;
            if !MESSAGE.is_empty() {
                ::core::panic!("{}", MESSAGE.as_str());
            }
        };
    }
}

/// The Rust place the compiled render reads field `f` at (`jc` is the path of the compiled
/// render's helpers there). A `&str`, a `bool` or a number is read as it is; any other type
/// through `jc::Field`, so that a field whose type is no value is reported once, at its
/// type, not again at every read of it (and the compiler probes the dispatch only where
/// it must: it is a tenth of what a crate of Jinja prompts costs to check).
pub(crate) fn field_place(f: &Field, jc: &str) -> String {
    if surely_a_value(&f.ty) {
        format!("self.{}", f.ident)
    } else {
        format!("(*(&&{jc}::Field(&self.{})).value())", f.ident)
    }
}

/// Whether `ty` is written as a type that is always a `PromptValue`: `&str`, `bool`, or a
/// primitive number, each by its bare name.
fn surely_a_value(ty: &syn::Type) -> bool {
    let bare = |ty: &syn::Type, names: &[&str]| {
        matches!(ty, syn::Type::Path(p)
            if p.qself.is_none()
                && p.path.leading_colon.is_none()
                && p.path.segments.len() == 1
                && p.path.segments[0].arguments.is_empty()
                && names.iter().any(|n| p.path.segments[0].ident == n))
    };
    match ty {
        syn::Type::Reference(r) => r.mutability.is_none() && bare(&r.elem, &["str"]),
        _ => bare(
            ty,
            &[
                "bool", "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
                "f32", "f64",
            ],
        ),
    }
}

/// The location block of a diagnostic at the use, up to its help's text.
fn location(templates: &Templates, path: &PathUse) -> Option<String> {
    let source = templates.get(&path.file)?.source();
    let body = Diagnostic::new("\u{E000}")
        .at(source, path.span.clone())
        .with_help("\u{E001}")
        .body();
    let (_, rest) = body.split_once('\u{E000}')?;
    let (location, _) = rest.split_once('\u{E001}')?;
    Some(location.to_owned())
}

/// The statements that put each field's value, as JSON, into `__values` (a field whose
/// value is absent, `None`, is left out): what the run-time renderer reads.
pub(crate) fn value_inserts(fields: &[Field]) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let (field, key, ty) = (&f.ident, &f.name, &f.ty);
            // Spanned at the field's type: a type that is no `PromptValue` is one error
            // there, the same one the field list gives, which the compiler shows once.
            let to_value =
                quote_spanned!(ty.span()=> <#ty as ::promptic::__private::PromptValue>::to_value);
            quote! {
                ::promptic::__private::insert_value(
                    &mut __values,
                    #key,
                    #to_value(&self.#field),
                );
            }
        })
        .collect()
}

/// `ty` with every lifetime `'static`: a `const` outside the struct's impl cannot name
/// the struct's lifetimes, and a shape does not depend on them.
pub(crate) fn static_lifetimes(ty: &syn::Type) -> syn::Type {
    struct Static;
    impl syn::visit_mut::VisitMut for Static {
        fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
            *lifetime = syn::Lifetime::new("'static", lifetime.span());
        }
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            if r.lifetime.is_none() {
                r.lifetime = Some(syn::Lifetime::new(
                    "'static",
                    proc_macro2::Span::call_site(),
                ));
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
    }
    let mut ty = ty.clone();
    syn::visit_mut::VisitMut::visit_type_mut(&mut Static, &mut ty);
    ty
}

/// `prompt!("name", a = x, …)` of a Jinja prompt: the names checked against the
/// arguments, each path into an argument checked against its type's shape, and a value
/// whose `render()` renders. The arguments' types are not known to the macro, so a path is
/// checked in a `const` block of a function generic over the argument's type: the error
/// shows once that function is compiled (`cargo build`, not `cargo check`).
pub fn expand_call(
    name: &LitStr,
    args: &[(String, proc_macro2::Span, &syn::Expr)],
    project: &Project,
) -> syn::Result<TokenStream> {
    let prompt_name = name.value();
    if project.jinja_file(&prompt_name).is_none() {
        return Err(syn::Error::new(name.span(), "not a Jinja prompt"));
    }
    let (file, templates) = project
        .load_jinja(&prompt_name)
        .map_err(|d| compile::to_error(name, d))?;
    let given: Vec<Given> = args
        .iter()
        .map(|(n, span, _)| Given {
            name: n.clone(),
            span: *span,
            optional: false,
        })
        .collect();
    check_names(&templates, &file, &given, "an argument", name, "argument")?;
    let Loaded {
        tracked,
        files,
        options,
    } = loaded(project, &file, &templates);
    // `check_names` reported a walk too large to check.
    let paths = templates.paths(&file).unwrap_or_default();
    let mut checked = Checked::default();
    let mut bindings = Vec::new();
    let mut values = Vec::new();
    for (i, (arg, _, expr)) in args.iter().enumerate() {
        let binding = quote::format_ident!("__arg_{}", i);
        let checks: Vec<TokenStream> = paths
            .iter()
            .filter(|p| p.name == *arg && !p.steps.is_empty())
            .filter_map(|p| {
                let location = location(&templates, p)?;
                let known = checked.add(p)?;
                let (shown, skip, steps) = (&p.shown, p.skip, steps(&p.steps));
                Some(quote! {
                    const {
                        let message = ::promptic::__private::check_path_rest(
                            &<T as ::promptic::__private::PromptValue>::SHAPE,
                            #shown,
                            &[#(#steps),*],
                            #skip,
                            #known,
                            #location,
                        );
                        if !message.is_empty() {
                            ::core::panic!("{}", message.as_str());
                        }
                    }
                })
            })
            .collect();
        bindings.push(quote! {
            let #binding = &(#expr);
            {
                #[allow(non_snake_case)]
                fn __paths<T: ::promptic::__private::PromptValue + ?Sized>(_: &T) {
                    #(#checks)*
                }
                __paths(#binding);
            }
        });
        values.push(quote! {
            if let ::core::option::Option::Some(__value) =
                ::promptic::__private::PromptValue::to_value(#binding)
            {
                __values.insert(::promptic::__private::String::from(#arg), __value);
            }
        });
    }
    // The compiled render, run here, where the arguments are (`render()` then gives its
    // text); the arguments become JSON only when it leaves the render to the run-time
    // renderer.
    let place = |arg: &str| {
        let i = args.iter().position(|(n, _, _)| n == arg)?;
        Some(format!("(*__arg_{i})"))
    };
    let path = templates
        .get(&file)
        .map(|t| t.source().path().to_owned())
        .unwrap_or_default();
    let code = prompt_runtime::formats::jinja::compiled::compile(&templates, &file, &place)
        .map_err(|d| crate::compile::to_error(name, d.into()))?;
    let code = crate::compile::generated(name, &path, &code)?;
    let text = quote! {
        #[allow(unused, clippy::all, clippy::pedantic)]
        let (__text, __marks): (::core::option::Option<::promptic::__private::String>, ::std::vec::Vec<usize>) = {
            let mut marks = ::std::vec::Vec::new();
            // A bound passed is left to the run-time renderer here, which reports it.
            let fail: &mut ::core::option::Option<::std::boxed::Box<::promptic::Diagnostic>> = &mut ::core::option::Option::None;
            let mut text = ::promptic::__private::String::new();
            let into = &mut text;
            let done = (|| { #code })();
            (done.map(|()| text), marks)
        };
    };
    Ok(quote! {{
        const _: () = { #tracked };
        static LOADED: ::std::sync::OnceLock<
            ::core::result::Result<::promptic::formats::jinja::Templates, ::promptic::Diagnostics>,
        > = ::std::sync::OnceLock::new();
        const FILES: &[::promptic::__private::JinjaFile] = &[#(#files),*];
        let mut __values = ::promptic::__private::JsonMap::new();
        #(#bindings)*
        #text
        if __text.is_none() {
            #(#values)*
        }
        ::promptic::__private::InlineJinja::new(&LOADED, FILES, #options, __values)
            .with_text(__text, __marks, #path)
    }})
}

fn steps(steps: &[PathStep]) -> Vec<TokenStream> {
    steps
        .iter()
        .map(|s| match s {
            PathStep::Field(name) => quote!(::promptic::__private::Step::Field(#name)),
            PathStep::Element => quote!(::promptic::__private::Step::Element),
            PathStep::Index(i) => quote!(::promptic::__private::Step::Index(#i)),
            PathStep::Value => quote!(::promptic::__private::Step::Value),
        })
        .collect()
}
