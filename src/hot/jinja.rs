//! Hot reload of a derived Jinja prompt ([`HotJinja`]).

use super::HotBuilder;
use super::watched::{Reload, Version, Watched};
use prompt_runtime::diagnostic::{Diagnostic, Diagnostics};
use prompt_runtime::formats::jinja::{
    JinjaPrompt, Templates, check_names, check_paths, check_unused,
};
use prompt_runtime::load::Project;
use prompt_runtime::meta::Meta;
use prompt_runtime::render::PromptContent;
use std::borrow::Cow;
use std::marker::PhantomData;

/// A `#[derive(Prompt)]` Jinja prompt (`prompts/NAME.md.j2`) that can be reloaded from its
/// templates at run time, as [`HotPrompt`](super::HotPrompt) reloads a Markdown prompt.
///
/// A reload reads the prompt file, every template it includes (at any depth, in
/// subfolders) and `promptic.json`'s `"jinja"` options through the project's one reader
/// (inside `prompts/` once links are followed, regular files only, at most
/// [`MAX_FILE`](super::MAX_FILE) bytes each), and checks them against the compiled struct
/// exactly as the derive does: the supported subset, include cycles, guidance fences;
/// every name read is a field (a misspelt one is reported with the closest field), an
/// `Option` field is read only under a guard or a default, every field is read, every
/// path into a field exists in its type's [`Shape`](prompt_runtime::value::Shape) (the derive's
/// `PromptValue` shapes, kept in the binary for this). The same located diagnostics;
/// templates that pass are swapped in whole, and ones that fail leave the previous version
/// rendering. [`HotJinja::reload_if_changed`] notices a change to any template the last
/// load read or looked for.
///
/// ```no_run
/// use promptic::formats::jinja::JinjaPrompt;
/// use promptic::hot::HotJinja;
///
/// fn serve<P: JinjaPrompt>(hot: &HotJinja<P>, context: &P) -> String {
///     if let Err(problems) = hot.reload_if_changed() {
///         eprintln!("{problems}"); // the previous version keeps rendering
///     }
///     hot.render(context).map(|p| p.text).unwrap_or_default()
/// }
/// ```
pub struct HotJinja<P> {
    core: Watched<Reloaded>,
    _prompt: PhantomData<fn() -> P>,
}

pub(super) struct Reloaded {
    templates: Templates,
    /// The prompt file's name in `templates`.
    file: String,
}

impl<P: JinjaPrompt> HotJinja<P> {
    /// Starts a hot Jinja prompt of `P`; reloading stays off unless
    /// [`HotBuilder::enabled`] turns it on (and off in a release build unless
    /// [`HotBuilder::in_release`]).
    ///
    /// ```
    /// use promptic::formats::jinja::JinjaPrompt;
    /// use promptic::hot::HotJinja;
    ///
    /// fn hot<P: JinjaPrompt>() -> HotJinja<P> {
    ///     HotJinja::<P>::builder().root(env!("CARGO_MANIFEST_DIR")).enabled(true).build()
    /// }
    /// ```
    pub fn builder() -> HotBuilder<HotJinja<P>> {
        HotBuilder::new(P::PATH, |root, enabled| HotJinja {
            core: Watched::new(root, enabled),
            _prompt: PhantomData,
        })
    }

    /// Renders the current version with `context`: the compiled prompt (the derive's
    /// `render()`), or the last reloaded templates that passed the check. An error only
    /// where the derive's `render()` gives one (a value that makes Jinja2 fail too). Never
    /// reads the disk.
    ///
    /// ```
    /// use promptic::formats::jinja::JinjaPrompt;
    /// use promptic::hot::HotJinja;
    ///
    /// fn answer<P: JinjaPrompt>(hot: &HotJinja<P>, context: &P) -> Result<String, promptic::Diagnostic> {
    ///     Ok(hot.render(context)?.text)
    /// }
    /// ```
    pub fn render(&self, context: &P) -> Result<PromptContent, Diagnostic> {
        if !self.core.enabled {
            return context.render_compiled();
        }
        match &*self.core.current() {
            Version::Compiled => context.render_compiled(),
            Version::Reloaded(r) => {
                let (text, breakpoints) = r.templates.render_with_breakpoints(
                    &r.file,
                    &serde_json::Value::Object(context.values()),
                )?;
                let path = r
                    .templates
                    .get(&r.file)
                    .map_or(P::PATH, |t| t.source().path());
                Ok(PromptContent {
                    text,
                    path: Cow::Owned(path.to_owned()),
                    metadata: Cow::Owned(Meta::default()),
                    breakpoints,
                })
            }
        }
    }
}

super::watched::watched_methods!(
    HotJinja,
    JinjaPrompt,
    "promptic::formats::jinja::JinjaPrompt",
    reload: "Reads the prompt file, its includes and `promptic.json` again, checks them against \
        the compiled struct as the derive does, and swaps them in. `Ok(true)` when what \
        renders changed, `Ok(false)` when it did not (or reloading is off: nothing is read). \
        Templates identical to the compiled ones, with the same options, render through the \
        compiled prompt again. On `Err`, the diagnostics (kept for \
        [`last_error`](Self::last_error)); the previous version keeps rendering.",
    changed: "[`reload`](Self::reload), only when a file it reads changed since the last reload \
        (or none happened yet): the modification time, length and kind of the prompt file, \
        `promptic.json` and every template the last load read or looked for (an include \
        that was missing and now exists too). A failed reload is reported once, not again \
        until a file changes. `Ok(false)` at once when reloading is off or another thread is \
        reloading this prompt."
);

impl<P: JinjaPrompt> Reload for HotJinja<P> {
    type Reloaded = Reloaded;

    fn path(&self) -> &'static str {
        P::PATH
    }

    /// The prompt file as any of its names, and `promptic.json`.
    fn always(&self) -> Vec<String> {
        let mut files: Vec<String> = [".md.j2", ".j2", ".md"]
            .iter()
            .map(|ending| format!("{}{ending}", P::NAME))
            .collect();
        files.push("promptic.json".to_owned());
        files
    }

    fn same(a: &Reloaded, b: &Reloaded) -> bool {
        a.file == b.file && same_texts(&a.templates, &b.templates)
    }

    /// The templates as the files say now, checked against `P`.
    fn load(
        &self,
        project: &Project,
        asked: &mut Vec<String>,
    ) -> Result<Version<Reloaded>, Diagnostics> {
        let (file, templates) = project.load_jinja_traced(P::NAME, asked)?;
        // A name must say which file it is, as the derive holds it: a second file for it
        // (`NAME.md`, `NAME.j2`, `NAME.prompt`) is an error.
        project
            .front_end(P::NAME)
            .map_err(|d| Diagnostics::from(d.in_file(format!("{}/{file}", project.display))))?;
        let fields: Vec<(&str, bool)> = P::FIELDS.iter().map(|f| (f.name, f.optional)).collect();
        let what = format!("a field of `{}`", P::STRUCT_NAME);
        let mut problems = check_names(&templates, &file, &fields, &what, "field");
        let names: Vec<&str> = P::FIELDS.iter().map(|f| f.name).collect();
        for d in check_unused(&templates, &file, &names, "field").0 {
            problems.push(d);
        }
        // As in the derive: paths are checked once every name is known.
        if problems.is_empty() {
            problems = check_paths(&templates, &file, P::FIELDS);
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        if compiled::<P>(&file, &templates) {
            return Ok(Version::Compiled);
        }
        Ok(Version::Reloaded(Box::new(Reloaded { templates, file })))
    }
}

/// Whether `templates` are the ones `P` was compiled from: the same prompt file, the same
/// set of templates with the same texts, the same options.
fn compiled<P: JinjaPrompt>(file: &str, templates: &Templates) -> bool {
    P::SOURCES.first().is_some_and(|(entry, _)| *entry == file)
        && templates.options() == P::OPTIONS
        && templates.names().count() == P::SOURCES.len()
        && P::SOURCES.iter().all(|(name, text)| {
            templates
                .get(name)
                .is_some_and(|t| t.source().text() == *text)
        })
}

/// Whether two sets of templates hold the same texts under the same names and options.
fn same_texts(a: &Templates, b: &Templates) -> bool {
    a.options() == b.options()
        && a.names().eq(b.names())
        && a.names().all(|name| {
            a.get(name).map(|t| t.source().text()) == b.get(name).map(|t| t.source().text())
        })
}
