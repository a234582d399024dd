//! Hot reload of a derived dotprompt prompt ([`HotDotprompt`]).

use super::HotBuilder;
use super::stamp::Stamp;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::formats::FrontEnd;
use crate::formats::dotprompt::fields::check_fields;
use crate::formats::dotprompt::folder::Folder;
use crate::formats::dotprompt::{Dotprompt, DotpromptPrompt, Message, RenderedPrompt};
use crate::load::Project;
use crate::swap::Swapped;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::Mutex;

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
/// the field type's [`Shape`](crate::value::Shape) (the derive's `PromptValue` shapes, kept
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
    root: Option<PathBuf>,
    enabled: bool,
    current: Swapped<Current>,
    /// Held while a reload reads and checks: one at a time. Renders never take it.
    watch: Mutex<Watch>,
    last_error: Mutex<Option<Diagnostics>>,
    _prompt: PhantomData<fn() -> P>,
}

enum Current {
    /// The derive's render.
    Compiled,
    /// A prompt that passed the check at its last reload.
    Reloaded(Box<Reloaded>),
}

struct Reloaded {
    prompt: Dotprompt,
    /// Each file it was read from, as diagnostics show it, with its text.
    sources: Vec<(String, String)>,
}

#[derive(Default)]
struct Watch {
    /// The files as they were when the last reload started; `None` before the first.
    stamp: Option<Stamp>,
    /// The partials the last load asked for, found or not, relative to `prompts/`.
    asked: Vec<String>,
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
            root,
            enabled,
            current: Swapped::new(Current::Compiled),
            watch: Mutex::new(Watch::default()),
            last_error: Mutex::new(None),
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
        if !self.enabled {
            return context.render_compiled(data, history);
        }
        match &*self.current.current() {
            Current::Compiled => context.render_compiled(data, history),
            Current::Reloaded(r) => r.prompt.render_fields(context.values(), data, history),
        }
    }

    /// Reads the prompt file, its partials and the folder's registries again, checks them
    /// against the compiled struct as the derive does, and swaps them in. `Ok(true)` when
    /// what renders changed, `Ok(false)` when it did not (or reloading is off: nothing is
    /// read). Files identical to the compiled ones render through the compiled prompt
    /// again. On `Err`, the diagnostics (kept for [`last_error`](Self::last_error)); the
    /// previous version keeps rendering.
    ///
    /// ```
    /// use promptic::dotprompt::DotpromptPrompt;
    /// use promptic::hot::HotDotprompt;
    ///
    /// fn on_file_event<P: DotpromptPrompt>(hot: &HotDotprompt<P>) {
    ///     if let Err(problems) = hot.reload() {
    ///         eprintln!("{problems}");
    ///     }
    /// }
    /// ```
    pub fn reload(&self) -> Result<bool, Diagnostics> {
        if !self.enabled {
            return Ok(false);
        }
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        let stamp = self.stamp(&watch);
        self.reload_with(&mut watch, stamp)
    }

    /// [`reload`](Self::reload), only when a file it reads changed since the last reload
    /// (or none happened yet): the modification time, length and kind of the prompt file
    /// (and of the files that would make its name ambiguous), `schemas.json`,
    /// `tools.json`, `promptic.json` and every partial the last load asked for (one that
    /// was missing and now exists too). A failed reload is reported once, not again until
    /// a file changes. `Ok(false)` at once when reloading is off or another thread is
    /// reloading this prompt.
    ///
    /// ```
    /// use promptic::dotprompt::DotpromptPrompt;
    /// use promptic::hot::HotDotprompt;
    ///
    /// fn per_request<P: DotpromptPrompt>(hot: &HotDotprompt<P>) {
    ///     if let Err(problems) = hot.reload_if_changed() {
    ///         eprintln!("{problems}");
    ///     }
    /// }
    /// ```
    pub fn reload_if_changed(&self) -> Result<bool, Diagnostics> {
        if !self.enabled {
            return Ok(false);
        }
        // another caller is already checking: this one renders what is there
        let Some(mut watch) = super::try_watch(&self.watch) else {
            return Ok(false);
        };
        let stamp = self.stamp(&watch);
        if watch.stamp.as_ref() == Some(&stamp) {
            return Ok(false);
        }
        self.reload_with(&mut watch, stamp)
    }

    /// The diagnostics of the last reload when it failed; `None` when it passed, or
    /// before the first.
    ///
    /// ```
    /// use promptic::dotprompt::DotpromptPrompt;
    /// use promptic::hot::HotDotprompt;
    ///
    /// fn status<P: DotpromptPrompt>(hot: &HotDotprompt<P>) -> String {
    ///     hot.last_error().map_or("ok".to_owned(), |problems| format!("refused:\n{problems}"))
    /// }
    /// ```
    pub fn last_error(&self) -> Option<Diagnostics> {
        self.last_error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// True when reloading is on: enabled, and allowed in this build.
    ///
    /// ```
    /// use promptic::dotprompt::DotpromptPrompt;
    /// use promptic::hot::HotDotprompt;
    ///
    /// fn describe<P: DotpromptPrompt>(hot: &HotDotprompt<P>) -> &'static str {
    ///     if hot.is_enabled() { "hot" } else { "compiled" }
    /// }
    /// ```
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// True when a reloaded prompt renders, not the compiled one.
    ///
    /// ```
    /// use promptic::dotprompt::DotpromptPrompt;
    /// use promptic::hot::HotDotprompt;
    ///
    /// fn banner<P: DotpromptPrompt>(hot: &HotDotprompt<P>) -> Option<&'static str> {
    ///     hot.is_reloaded().then_some("rendering an edited prompt: rebuild before you ship")
    /// }
    /// ```
    pub fn is_reloaded(&self) -> bool {
        matches!(*self.current.current(), Current::Reloaded(_))
    }

    /// The files as they are now: the prompt's name with each front end's endings, the
    /// registries, `promptic.json`, and every partial the last load asked for. Empty
    /// without a root.
    fn stamp(&self, watch: &Watch) -> Stamp {
        let Some(root) = &self.root else {
            return Stamp::default();
        };
        let prompts = root.join("prompts");
        let mut files: Vec<PathBuf> = FrontEnd::ALL
            .iter()
            .flat_map(|f| f.endings())
            .map(|ending| prompts.join(format!("{}{ending}", P::NAME)))
            .collect();
        for file in ["schemas.json", "tools.json", "promptic.json"] {
            files.push(prompts.join(file));
        }
        files.extend(watch.asked.iter().map(|rel| prompts.join(rel)));
        Stamp::files(files)
    }

    fn reload_with(&self, watch: &mut Watch, stamp: Stamp) -> Result<bool, Diagnostics> {
        let mut asked = Vec::new();
        let outcome = self.load(&mut asked);
        // Kept when the prompt file could not be read: its partials still matter once it
        // is back, and the prompt file itself is always watched.
        if !asked.is_empty() && asked != watch.asked {
            watch.asked = asked;
            let later = self.stamp(watch);
            watch.stamp = Some(stamp.carried_into(later));
        } else {
            watch.stamp = Some(stamp);
        }
        let mut last_error = self.last_error.lock().unwrap_or_else(|e| e.into_inner());
        match outcome {
            Ok(next) => {
                *last_error = None;
                drop(last_error);
                let current = self.current.current();
                let changed = match (&next, &*current) {
                    (Current::Compiled, Current::Compiled) => return Ok(false),
                    (Current::Reloaded(a), Current::Reloaded(b)) => a.sources != b.sources,
                    _ => true,
                };
                self.current.replace(next);
                Ok(changed)
            }
            Err(problems) => {
                *last_error = Some(problems.clone());
                Err(problems)
            }
        }
    }

    /// The prompt as the files say now, checked against `P`.
    fn load(&self, asked: &mut Vec<String>) -> Result<Current, Diagnostics> {
        let Some(root) = &self.root else {
            return Err(Diagnostic::new(format!(
                "cannot reload `{}`: the hot prompt has no root folder",
                P::PATH
            ))
            .with_help("give the builder the folder that holds `prompts/`: `.root(env!(\"CARGO_MANIFEST_DIR\"))`")
            .into());
        };
        let project = Project::open(&root.join("prompts"), "prompts")?;
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
            return Ok(Current::Compiled);
        }
        Ok(Current::Reloaded(Box::new(Reloaded {
            prompt: loaded.prompt,
            sources,
        })))
    }
}

impl<P> std::fmt::Debug for HotDotprompt<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HotDotprompt")
            .field("root", &self.root)
            .field("enabled", &self.enabled)
            .field(
                "reloaded",
                &matches!(*self.current.current(), Current::Reloaded(_)),
            )
            .finish()
    }
}
