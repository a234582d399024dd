//! Hot reload of a derived dotprompt prompt ([`HotDotprompt`]).

use super::HotBuilder;
use super::watched::{Reload, Version, Watched};
use prompt_runtime::diagnostic::{Diagnostic, Diagnostics};
use prompt_runtime::formats::FrontEnd;
use prompt_runtime::formats::dotprompt::fields::check_fields;
use prompt_runtime::formats::dotprompt::folder::Folder;
use prompt_runtime::formats::dotprompt::{Dotprompt, DotpromptPrompt, Message, RenderedPrompt};
use prompt_runtime::load::Project;
use std::marker::PhantomData;

/// The values a template reads as `@name`: none.
type Context = serde_json::Map<String, serde_json::Value>;

/// A `#[derive(Prompt)]` dotprompt prompt (`prompts/NAME.prompt`) that can be reloaded
/// from its files at run time, as [`HotJinja`](super::HotJinja) reloads a Jinja prompt.
///
/// A reload reads the prompt file, every partial it includes (`{{> sign}}` reads
/// `_sign.prompt`, at any depth) and the folder's `schemas.json` and `tools.json` through
/// the one reader the derive and the `promptic` command use
/// ([`Folder`]: inside `prompts/` once links are followed, regular files only, at most
/// [`MAX_FILE`](super::MAX_FILE) bytes each), with the struct's helpers
/// (`#[prompt("name", helpers(...))]`) registered. It checks them as the derive does: the
/// YAML, the Picoschema, the template and its partials, every path the template reads
/// against the input schema, the cache breakpoints; then the input schema against the
/// compiled struct ([`DotpromptPrompt`]): every field a property and every property a
/// field (a misspelt one is reported with the closest name), `?` exactly on the `Option`
/// fields, each field's type holding its property's, a nested object's properties against
/// the field type's [`Shape`](prompt_runtime::value::Shape) (the derive's `PromptValue` shapes, kept
/// in the binary for this); without an input schema, every name the template reads is a
/// field. Every helper of the struct must still be called. The same located diagnostics;
/// files that pass are swapped in whole, and ones that fail leave the previous version
/// rendering. [`HotDotprompt::reload_if_changed`] notices a change to the prompt file, the
/// registries, `promptic.json`, and every partial the last load asked for.
///
/// ```no_run
/// use promptic::dotprompt::DotpromptPrompt;
/// use promptic::hot::HotDotprompt;
///
/// fn serve<P: DotpromptPrompt>(hot: &HotDotprompt<P>, context: &P) -> usize {
///     if let Err(problems) = hot.reload_if_changed() {
///         eprintln!("{problems}"); // the previous version keeps rendering
///     }
///     hot.render(context).map(|p| p.messages.len()).unwrap_or_default()
/// }
/// ```
pub struct HotDotprompt<P> {
    core: Watched<Reloaded>,
    _prompt: PhantomData<fn() -> P>,
}

pub(super) struct Reloaded {
    prompt: Dotprompt,
    /// Each file it was read from, as diagnostics show it, with its text.
    sources: Vec<(String, String)>,
}

impl<P: DotpromptPrompt> HotDotprompt<P> {
    /// Starts a hot dotprompt prompt of `P`; reloading stays off unless
    /// [`HotBuilder::enabled`] turns it on (and off in a release build unless
    /// [`HotBuilder::in_release`]).
    ///
    /// ```
    /// use promptic::dotprompt::DotpromptPrompt;
    /// use promptic::hot::HotDotprompt;
    ///
    /// fn hot<P: DotpromptPrompt>() -> HotDotprompt<P> {
    ///     HotDotprompt::<P>::builder().root(env!("CARGO_MANIFEST_DIR")).enabled(true).build()
    /// }
    /// ```
    pub fn builder() -> HotBuilder<HotDotprompt<P>> {
        HotBuilder::new(P::PATH, |root, enabled| HotDotprompt {
            core: Watched::new(root, enabled),
            _prompt: PhantomData,
        })
    }

    /// Renders the current version with `context` as the input, as the derive's
    /// `render()` does: the compiled prompt, or the last reloaded prompt that passed the
    /// check (through the run-time renderer), with its messages, metadata and cache
    /// breakpoints. An error only where the derive's `render()` gives one (a render past
    /// the renderer's bounds, a helper that fails). Never reads the disk.
    ///
    /// ```
    /// use promptic::dotprompt::DotpromptPrompt;
    /// use promptic::hot::HotDotprompt;
    ///
    /// fn messages<P: DotpromptPrompt>(hot: &HotDotprompt<P>, context: &P) -> Result<usize, promptic::Diagnostic> {
    ///     Ok(hot.render(context)?.messages.len())
    /// }
    /// ```
    pub fn render(&self, context: &P) -> Result<RenderedPrompt, Diagnostic> {
        self.render_with_context(context, &Context::new(), &[])
    }

    /// [`render`](Self::render) with the conversation so far, as the derive's
    /// `render_with_history()`: where the template writes `{{history}}`, or where dotprompt
    /// puts it.
    ///
    /// ```
    /// use promptic::dotprompt::{DotpromptPrompt, Message};
    /// use promptic::hot::HotDotprompt;
    ///
    /// fn turn<P: DotpromptPrompt>(hot: &HotDotprompt<P>, context: &P, history: &[Message]) -> usize {
    ///     hot.render_with_history(context, history).map_or(0, |p| p.messages.len())
    /// }
    /// ```
    pub fn render_with_history(
        &self,
        context: &P,
        history: &[Message],
    ) -> Result<RenderedPrompt, Diagnostic> {
        self.render_with_context(context, &Context::new(), history)
    }

    /// [`render_with_history`](Self::render_with_history) with the values the template
    /// reads as `@name` (`@state.step`), as the derive's `render_with_context()`.
    ///
    /// ```
    /// use promptic::dotprompt::DotpromptPrompt;
    /// use promptic::hot::HotDotprompt;
    ///
    /// fn step<P: DotpromptPrompt>(hot: &HotDotprompt<P>, context: &P) -> bool {
    ///     let state = serde_json::json!({ "state": { "step": 2 } });
    ///     let serde_json::Value::Object(data) = state else { return false };
    ///     hot.render_with_context(context, &data, &[]).is_ok()
    /// }
    /// ```
    pub fn render_with_context(
        &self,
        context: &P,
        data: &serde_json::Map<String, serde_json::Value>,
        history: &[Message],
    ) -> Result<RenderedPrompt, Diagnostic> {
        if !self.core.enabled {
            return context.render_compiled(data, history);
        }
        match &*self.core.current() {
            Version::Compiled => context.render_compiled(data, history),
            Version::Reloaded(r) => r.prompt.render_fields(context.values(), data, history),
        }
    }
}

super::watched::watched_methods!(
    HotDotprompt,
    DotpromptPrompt,
    "promptic::dotprompt::DotpromptPrompt",
    reload: "Reads the prompt file, its partials and the folder's registries again, checks them \
        against the compiled struct as the derive does, and swaps them in. `Ok(true)` when \
        what renders changed, `Ok(false)` when it did not (or reloading is off: nothing is \
        read). Files identical to the compiled ones render through the compiled prompt \
        again. On `Err`, the diagnostics (kept for [`last_error`](Self::last_error)); the \
        previous version keeps rendering.",
    changed: "[`reload`](Self::reload), only when a file it reads changed since the last reload \
        (or none happened yet): the modification time, length and kind of the prompt file \
        (and of the files that would make its name ambiguous), `schemas.json`, \
        `tools.json`, `promptic.json` and every partial the last load asked for (one that \
        was missing and now exists too). A failed reload is reported once, not again until \
        a file changes. `Ok(false)` at once when reloading is off or another thread is \
        reloading this prompt."
);

impl<P: DotpromptPrompt> Reload for HotDotprompt<P> {
    type Reloaded = Reloaded;

    fn path(&self) -> &'static str {
        P::PATH
    }

    /// The prompt's name with each front end's endings, the registries and
    /// `promptic.json`.
    fn always(&self) -> Vec<String> {
        let mut files: Vec<String> = FrontEnd::ALL
            .iter()
            .flat_map(|f| f.endings())
            .map(|ending| format!("{}{ending}", P::NAME))
            .collect();
        files.extend(["schemas.json", "tools.json", "promptic.json"].map(String::from));
        files
    }

    fn same(a: &Reloaded, b: &Reloaded) -> bool {
        a.sources == b.sources
    }

    /// The prompt as the files say now, checked against `P`.
    fn load(
        &self,
        project: &Project,
        asked: &mut Vec<String>,
    ) -> Result<Version<Reloaded>, Diagnostics> {
        // The name must still reach the `.prompt` file alone, as for the derive.
        if let Some((front_end, file)) = project.front_end(P::NAME)?
            && front_end != FrontEnd::Dotprompt
        {
            return Err(Diagnostic::new(format!(
                "`{}/{file}` is not a dotprompt file, but `{}` was compiled from `{}`",
                project.display,
                P::STRUCT_NAME,
                P::PATH
            ))
            .in_file(format!("{}/{file}", project.display))
            .with_help("rebuild to change the prompt's format; a reload keeps the compiled one")
            .into());
        }
        let mut folder = Folder::open(project.root())?;
        for &(name, helper) in P::HELPERS {
            folder.define_helper(name, helper)?;
        }
        let loaded = folder.load_traced(P::NAME, asked)?;
        let called = loaded.prompt.helpers_called();
        let mut problems = Diagnostics::default();
        for &(name, _) in P::HELPERS {
            if !called.contains(&name) {
                problems.push(
                    Diagnostic::new(format!(
                        "the helper `{name}` is not called by {}",
                        loaded.file.path
                    ))
                    .in_file(&loaded.file.path)
                    .with_help(format!(
                        "call it in the template (`{{{{{name} ...}}}}`), or rebuild without it in `helpers(...)`"
                    )),
                );
            }
        }
        for d in check_fields(&loaded.prompt, P::STRUCT_NAME, P::FIELDS).0 {
            problems.push(d);
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let sources: Vec<(String, String)> = std::iter::once(&loaded.file)
            .chain(&loaded.partials)
            .chain(folder.registry_files())
            .map(|f| (f.path.clone(), f.text.clone()))
            .collect();
        let compiled = sources.len() == P::SOURCES.len()
            && sources
                .iter()
                .zip(P::SOURCES)
                .all(|((path, text), (p, t))| path == p && text == t);
        if compiled {
            return Ok(Version::Compiled);
        }
        Ok(Version::Reloaded(Box::new(Reloaded {
            prompt: loaded.prompt,
            sources,
        })))
    }
}
