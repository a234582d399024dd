//! The code generators: one per prompt format, as `prompt_runtime::formats::FORMATS`
//! lists the formats, and the one lookup `#[derive(Prompt)]` and `prompt!` reach them by.
//!
//! The runtime's [`Format`](prompt_runtime::formats::Format) says which files are a
//! format's, loads and checks a prompt and says what it reads; the generator of the same
//! name turns a checked prompt into code, and gives the value or impls that stand in after
//! an error, with the API the format's code has, so that the compiler adds no error of its
//! own. Neither consumer names a format: both ask [`of`] for the prompt's generator. A new
//! format is a module with its [`Generator`] and one line in [`GENERATORS`].

use crate::call::CallInput;
use crate::compile;
use crate::derive::{Field, HelperRef};
use proc_macro2::TokenStream;
use prompt_runtime::load::Project;
use syn::{DeriveInput, LitStr};

/// What `#[derive(Prompt)]` gives a generator: the struct, its prompt, its fields.
pub(crate) struct Derive<'a> {
    pub input: &'a DeriveInput,
    pub name: &'a LitStr,
    pub fields: &'a [Field],
    pub project: &'a Project,
    /// `helpers(...)`, given only to a generator that [takes them](Generator::helpers).
    pub helpers: &'a [HelperRef],
}

/// What `prompt!` gives a generator: the call, its prompt and its arguments.
pub(crate) struct Call<'a> {
    pub input: &'a CallInput,
    pub name: &'a LitStr,
    /// Each argument's name (without `r#`), the span of its name, and its expression.
    pub args: &'a [(String, proc_macro2::Span, &'a syn::Expr)],
    pub project: &'a Project,
    pub helpers: &'a [HelperRef],
}

/// The code of one prompt format.
pub(crate) trait Generator: Sync {
    /// The [`Format::name`](prompt_runtime::formats::Format::name) it writes code for.
    fn format(&self) -> &'static str;
    /// Whether its prompts take `helpers(...)` (dotprompt's).
    fn helpers(&self) -> bool {
        false
    }
    /// The impls of a derived struct.
    fn derive(&self, cx: &Derive<'_>) -> syn::Result<TokenStream>;
    /// `error`, and impls with the API [`derive`](Self::derive) gives.
    fn derive_fallback(&self, input: &DeriveInput, error: syn::Error) -> TokenStream;
    /// The value `prompt!` gives.
    fn call(&self, cx: &Call<'_>) -> syn::Result<TokenStream>;
    /// A value with the API [`call`](Self::call) gives, to stand after an error.
    fn call_fallback(&self, project: &Project, name: &LitStr) -> TokenStream;
}

/// Every generator, one per format of `prompt_runtime::formats::FORMATS`.
pub(crate) static GENERATORS: [&dyn Generator; 4] = [
    &crate::derive::PROMPTENGINE,
    &crate::dotprompt::DOTPROMPT,
    &crate::jinja::JINJA,
    &crate::derive::MARKDOWN,
];

/// The generator of prompt `name`: the one of the format whose file the name reaches, as
/// for the `promptic` command (two files for the name are an error); Markdown's when no
/// file does (its check says the prompt is not found).
pub(crate) fn of(project: &Project, name: &LitStr) -> syn::Result<&'static dyn Generator> {
    let found = project
        .format_of(&name.value())
        .map_err(|d| compile::to_error(name, d.into()))?;
    let Some((format, file)) = found else {
        return Ok(&crate::derive::MARKDOWN);
    };
    match GENERATORS.iter().find(|g| g.format() == format.name()) {
        Some(generator) => Ok(*generator),
        None => Err(syn::Error::new(
            name.span(),
            format!(
                "promptic has no code for {} (`{file}`): this is a bug of promptic",
                format.title()
            ),
        )),
    }
}

/// The generator for the fallback after an error: the prompt's, when its folder and file
/// can still be read; Markdown's otherwise (that is then the error).
pub(crate) fn after_error(name: &LitStr) -> (&'static dyn Generator, Option<Project>) {
    let Ok(project) = compile::open(name) else {
        return (&crate::derive::MARKDOWN, None);
    };
    let generator = of(&project, name).unwrap_or(&crate::derive::MARKDOWN);
    (generator, Some(project))
}

#[cfg(test)]
mod tests {
    use super::GENERATORS;
    use prompt_runtime::formats::FORMATS;

    #[test]
    fn every_format_has_one_generator() {
        let formats: Vec<&str> = FORMATS.iter().map(|f| f.name()).collect();
        let generators: Vec<&str> = GENERATORS.iter().map(|g| g.format()).collect();
        assert_eq!(generators, formats);
    }
}
