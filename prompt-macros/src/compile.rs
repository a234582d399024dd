//! Finding and checking the prompt file: the bridge to `prompt-runtime`.

use proc_macro2::TokenStream;
use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::load::Project;
use prompt_runtime::resolve::ContextVar;
use prompt_runtime::{Diagnostic, Diagnostics};
use std::path::PathBuf;
use syn::LitStr;

/// A prompt that passed every check, and every file read to check it.
pub struct Compiled {
    pub prompt: CheckedPrompt,
    pub files: Vec<PathBuf>,
}

/// The crate whose `prompts/` folder is read. `PROMPTIC_MANIFEST_DIR` overrides it for
/// promptic's own UI tests, which trybuild builds in a scratch crate, and for its benches,
/// whose crate reads the project's `prompts/` one level up.
pub fn manifest_dir() -> Option<PathBuf> {
    std::env::var_os("PROMPTIC_MANIFEST_DIR")
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from)
}

/// The prompt's name as `#[prompt(...)]` or `prompt!` wrote it, without the ending of its
/// file if it was written with one (`"trip.md.j2"` is the prompt `trip`), as the
/// `promptic` command reads names: the same span, so errors still point at the literal.
pub fn prompt_name(written: LitStr) -> LitStr {
    let value = written.value();
    let name = prompt_runtime::formats::FrontEnd::prompt_name(&value);
    if name.len() == value.len() {
        return written;
    }
    LitStr::new(name, written.span())
}

/// Opens the project that holds `name`'s prompt file; a problem is a compile error spanned
/// on the literal.
pub fn open(name: &LitStr) -> Result<Project, syn::Error> {
    let Some(root) = manifest_dir() else {
        return Err(syn::Error::new(
            name.span(),
            "CARGO_MANIFEST_DIR is not set: build with cargo",
        ));
    };
    Project::open(&root.join("prompts"), "prompts").map_err(|d| to_error(name, d))
}

/// Checks prompt `name` against `context`. `hint` is the help for a name nothing provides.
pub fn check(
    project: &Project,
    name: &LitStr,
    context: Vec<ContextVar>,
    hint: String,
) -> Result<Compiled, syn::Error> {
    let prompt_name = name.value();
    let path = project
        .prompt_path(&prompt_name)
        .map_err(|d| to_error(name, d.into()))?;
    let mut schema = project.schema(context);
    schema.missing_hint = Some(hint);
    let file = project
        .load_prompt(&prompt_name)
        .map_err(|d| to_error(name, d))?;
    if file.syntax == prompt_runtime::parse::lexer::Syntax::Keep {
        return Err(syn::Error::new(
            name.span(),
            format!(
                "`{}` is a keep agent prompt (`\"placeholders\": \"keep\"`): `prompt!` and families do not take keep's `{{name}}` placeholders\n  = help: derive a struct for it (`#[derive(promptic::Prompt)] #[prompt(\"{prompt_name}\")]`, a field per placeholder), or render it at run time with `promptic::formats::keep::AgentPrompt`",
                file.source.path()
            ),
        ));
    }
    // What the CLI only warns about is an error in compiled code: `$naïve` renders as
    // `$na` then `ïve`, as in Python; a frontmatter near-miss is sent as text; a misspelt
    // frontmatter key is kept in `extra`.
    let mut lints = prompt_runtime::check::run_on_names(&file, &project.templates);
    lints.extend(prompt_runtime::check::frontmatter_warnings(&file));
    let prompt = match prompt_runtime::check::check(&prompt_name, file, schema, &project.templates)
    {
        Ok(prompt) => {
            for variable in &prompt.resolved.variables {
                if variable.source == prompt_runtime::VarSource::Template
                    && let Some(template) = project.templates.get(&variable.name)
                {
                    lints.extend(prompt_runtime::check::frontmatter_warnings(&template.file));
                }
            }
            if !lints.is_empty() {
                return Err(to_error(name, lints.into()));
            }
            prompt
        }
        Err(mut problems) => {
            problems.extend(lints);
            return Err(to_error(name, problems));
        }
    };
    // Track the prompt, the configuration and the templates this prompt inlines (at any
    // depth): editing another template cannot change this prompt, and tracking fewer
    // files keeps the expansion small.
    let mut files = vec![path];
    files.extend(project.config.path.iter().cloned());
    let template_dir = project.dir.join(&project.config.templates);
    for variable in &prompt.resolved.variables {
        if variable.source == prompt_runtime::VarSource::Template {
            files.push(template_dir.join(format!("{}.md", variable.name)));
        }
    }
    Ok(Compiled { prompt, files })
}

/// The values of `context` prompt `name` does not use, found while it has errors too (a
/// value a misspelt name is taken for counts as used), or `None` when it cannot be read.
pub fn unused_context(
    project: &Project,
    name: &LitStr,
    context: &[ContextVar],
) -> Option<Vec<usize>> {
    let file = project.load_prompt(&name.value()).ok()?;
    // keep's `{name}` placeholders are not read here: which fields it uses is unknown
    if file.syntax == prompt_runtime::parse::lexer::Syntax::Keep {
        return None;
    }
    let schema = project.schema(context.to_vec());
    Some(prompt_runtime::check::unused_context(
        &file,
        &schema,
        &project.templates,
    ))
}

/// One compile error per diagnostic, all on the literal, each showing file:line:col.
pub fn to_error(name: &LitStr, diagnostics: Diagnostics) -> syn::Error {
    let mut errors = diagnostics
        .into_iter()
        .map(|d: Diagnostic| syn::Error::new(name.span(), d.body()));
    let mut first = errors
        .next()
        .unwrap_or_else(|| syn::Error::new(name.span(), "prompt check failed"));
    for e in errors {
        first.combine(e);
    }
    first
}

/// The Rust a code generator wrote for the prompt at `path`, as tokens. Text that does not
/// parse is a bug of the generator, reported as a build error at the prompt's name.
pub fn generated(name: &LitStr, path: &str, code: &str) -> syn::Result<TokenStream> {
    code.parse::<TokenStream>().map_err(|e| {
        syn::Error::new(
            name.span(),
            format!(
                "promptic generated code for `{path}` that is not Rust ({e}): this is a bug in promptic, please report it with the prompt file"
            ),
        )
    })
}

/// Adds `e` to the errors found so far: each is reported, at its own place.
pub fn combine(all: &mut Option<syn::Error>, e: syn::Error) {
    match all {
        Some(all) => all.combine(e),
        None => *all = Some(e),
    }
}

#[cfg(test)]
mod tests {
    use super::generated;
    use proc_macro2::Span;
    use syn::LitStr;

    #[test]
    fn generated_code_that_is_not_rust_is_a_build_error() {
        let name = LitStr::new("trip", Span::call_site());
        assert!(generated(&name, "prompts/trip.md.j2", "{ let a = 1; a }").is_ok());
        let error = generated(&name, "prompts/trip.md.j2", "{ let a = (1; }")
            .expect_err("unbalanced delimiters do not parse")
            .to_string();
        assert!(
            error.starts_with("promptic generated code for `prompts/trip.md.j2` that is not Rust"),
            "{error}"
        );
        assert!(
            error.ends_with("this is a bug in promptic, please report it with the prompt file")
        );
    }
}
