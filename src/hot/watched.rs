//! The reloading [`HotJinja`](super::HotJinja) and [`HotDotprompt`](super::HotDotprompt)
//! share: the version that renders, the files the last reload read or looked for, one
//! reload at a time, and the last reload's diagnostics. Each front end gives the files it
//! always reads and its own load and check. How a reload's outcome is recorded
//! ([`settle`]) is [`HotPrompt`](super::HotPrompt)'s and [`HotChat`](super::HotChat)'s too.

use super::stamp::Stamp;
use prompt_runtime::__internal::Swapped;
use prompt_runtime::diagnostic::{Diagnostic, Diagnostics};
use prompt_runtime::load::Project;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// What renders: the derive's compiled prompt, or what a reload read and checked.
pub(super) enum Version<R> {
    /// The derive's render.
    Compiled,
    /// What passed the check at its last reload.
    Reloaded(Box<R>),
}

/// A front end's part of a reload.
pub(super) trait Reload {
    /// What a reload that passed holds.
    type Reloaded;
    /// The files every reload reads or looks for, whatever the prompt asks for (the prompt
    /// file under each of its names, `promptic.json`, the registries), relative to
    /// `prompts/`.
    fn always(&self) -> Vec<String>;
    /// The prompt file the derive read (`prompts/trip.md.j2`).
    fn path(&self) -> &'static str;
    /// Reads and checks the prompt in `project` (the root's `prompts/`), pushing onto
    /// `asked` every other file it read or looked for.
    fn load(
        &self,
        project: &Project,
        asked: &mut Vec<String>,
    ) -> Result<Version<Self::Reloaded>, Diagnostics>;
    /// Whether two reloads read the same files, so that what renders did not change.
    fn same(a: &Self::Reloaded, b: &Self::Reloaded) -> bool;
}

#[derive(Default)]
struct Watch {
    /// The files as they were when the last reload started; `None` before the first.
    stamp: Option<Stamp>,
    /// The files the last load asked for, found or not, relative to `prompts/`.
    asked: Vec<String>,
}

/// The reloading state of one hot prompt.
pub(super) struct Watched<R> {
    pub(super) root: Option<PathBuf>,
    pub(super) enabled: bool,
    current: Swapped<Version<R>>,
    /// Held while a reload reads and checks: one at a time. Renders never take it.
    watch: Mutex<Watch>,
    last_error: Mutex<Option<Diagnostics>>,
}

impl<R> Watched<R> {
    pub(super) fn new(root: Option<PathBuf>, enabled: bool) -> Watched<R> {
        Watched {
            root,
            enabled,
            current: Swapped::new(Version::Compiled),
            watch: Mutex::new(Watch::default()),
            last_error: Mutex::new(None),
        }
    }

    /// The version that renders now.
    pub(super) fn current(&self) -> Arc<Version<R>> {
        self.current.current()
    }

    /// Whether what a reload read renders, not the compiled prompt.
    pub(super) fn is_reloaded(&self) -> bool {
        matches!(*self.current(), Version::Reloaded(_))
    }

    /// The diagnostics of the last reload when it failed.
    pub(super) fn last_error(&self) -> Option<Diagnostics> {
        self.last_error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Reads and checks through `front`, and swaps in what passed; waits for a reload under
    /// way in another thread. `Ok(false)` at once when reloading is off.
    pub(super) fn reload<F: Reload<Reloaded = R>>(&self, front: &F) -> Result<bool, Diagnostics> {
        if !self.enabled {
            return Ok(false);
        }
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        let stamp = self.stamp(front, &watch);
        self.reload_with(front, &mut watch, stamp)
    }

    /// [`reload`](Self::reload) only when a file it reads changed since the last one (or
    /// none happened yet); `Ok(false)` at once when reloading is off or another thread is
    /// reloading.
    pub(super) fn reload_if_changed<F: Reload<Reloaded = R>>(
        &self,
        front: &F,
    ) -> Result<bool, Diagnostics> {
        if !self.enabled {
            return Ok(false);
        }
        // another caller is already checking: this one renders what is there
        let Some(mut watch) = super::try_watch(&self.watch) else {
            return Ok(false);
        };
        let stamp = self.stamp(front, &watch);
        if watch.stamp.as_ref() == Some(&stamp) {
            return Ok(false);
        }
        self.reload_with(front, &mut watch, stamp)
    }

    /// The files as they are now: what `front` always reads and what the last load asked
    /// for. Empty without a root.
    fn stamp<F: Reload<Reloaded = R>>(&self, front: &F, watch: &Watch) -> Stamp {
        let Some(root) = &self.root else {
            return Stamp::default();
        };
        let prompts = root.join("prompts");
        let always = front.always();
        Stamp::files(
            always
                .iter()
                .chain(&watch.asked)
                .map(|rel| prompts.join(rel)),
        )
    }

    /// Loads, keeps what was asked for, and swaps; `stamp` was taken before anything was
    /// read, so that an edit during the reload is seen by the next one.
    fn reload_with<F: Reload<Reloaded = R>>(
        &self,
        front: &F,
        watch: &mut Watch,
        stamp: Stamp,
    ) -> Result<bool, Diagnostics> {
        let mut asked = Vec::new();
        let outcome = match &self.root {
            Some(root) => Project::open(&root.join("prompts"), "prompts")
                .and_then(|project| front.load(&project, &mut asked)),
            None => Err(Diagnostic::new(format!(
                "cannot reload `{}`: the hot prompt has no root folder",
                front.path()
            ))
            .with_help(
                "give the builder the folder that holds `prompts/`: `.root(env!(\"CARGO_MANIFEST_DIR\"))`",
            )
            .into()),
        };
        // Kept when the prompt file could not be read: what it asked for still matters once
        // it is back, and the prompt file itself is always watched. Files asked for anew
        // are stamped now, so that the next check does not see them as changed.
        if !asked.is_empty() && asked != watch.asked {
            watch.asked = asked;
            let later = self.stamp(front, watch);
            watch.stamp = Some(stamp.carried_into(later));
        } else {
            watch.stamp = Some(stamp);
        }
        settle(&self.current, &self.last_error, outcome, F::same)
    }
}

/// Records what a reload gave: on `Ok`, swaps it in (unless both it and what renders are
/// the compiled prompt) and clears the last error, `Ok(true)` when what renders changed
/// (`same` tells two reloads apart); on `Err`, keeps the diagnostics as the last error and
/// leaves what renders.
pub(super) fn settle<R>(
    current: &Swapped<Version<R>>,
    last_error: &Mutex<Option<Diagnostics>>,
    outcome: Result<Version<R>, Diagnostics>,
    same: impl Fn(&R, &R) -> bool,
) -> Result<bool, Diagnostics> {
    let mut last_error = last_error.lock().unwrap_or_else(|e| e.into_inner());
    match outcome {
        Ok(next) => {
            *last_error = None;
            drop(last_error);
            let now = current.current();
            let changed = match (&next, &*now) {
                (Version::Compiled, Version::Compiled) => return Ok(false),
                (Version::Reloaded(a), Version::Reloaded(b)) => !same(a, b),
                _ => true,
            };
            current.replace(next);
            Ok(changed)
        }
        Err(problems) => {
            *last_error = Some(problems.clone());
            Err(problems)
        }
    }
}

impl<R> Watched<R> {
    /// The `Debug` form of the hot prompt named `name` that holds this.
    pub(super) fn fmt_as(&self, name: &str, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(name)
            .field("root", &self.root)
            .field("enabled", &self.enabled)
            .field("reloaded", &self.is_reloaded())
            .finish()
    }
}

/// The reloading methods of a hot prompt, written once for [`HotJinja`](super::HotJinja)
/// and [`HotDotprompt`](super::HotDotprompt): `$hot` is the type, `$bound` the trait its
/// prompts implement, `$path` that trait's path for the examples, `$reload` and `$changed`
/// what `reload` and `reload_if_changed` read in that format.
macro_rules! watched_methods {
    ($hot:ident, $bound:ident, $path:literal, reload: $reload:literal, changed: $changed:literal) => {
        impl<P: $bound> $hot<P> {
            #[doc = $reload]
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            ///
            #[doc = concat!("fn on_file_event<P: ", stringify!($bound), ">(hot: &", stringify!($hot), "<P>) {")]
            ///     if let Err(problems) = hot.reload() {
            ///         eprintln!("{problems}");
            ///     }
            /// }
            /// ```
            pub fn reload(&self) -> Result<bool, Diagnostics> {
                self.core.reload(self)
            }

            #[doc = $changed]
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            ///
            #[doc = concat!("fn per_request<P: ", stringify!($bound), ">(hot: &", stringify!($hot), "<P>) {")]
            ///     if let Err(problems) = hot.reload_if_changed() {
            ///         eprintln!("{problems}");
            ///     }
            /// }
            /// ```
            pub fn reload_if_changed(&self) -> Result<bool, Diagnostics> {
                self.core.reload_if_changed(self)
            }

            /// The diagnostics of the last reload when it failed; `None` when it passed, or
            /// before the first.
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            ///
            #[doc = concat!("fn status<P: ", stringify!($bound), ">(hot: &", stringify!($hot), "<P>) -> String {")]
            ///     hot.last_error().map_or("ok".to_owned(), |problems| format!("refused:\n{problems}"))
            /// }
            /// ```
            pub fn last_error(&self) -> Option<Diagnostics> {
                self.core.last_error()
            }

            /// True when reloading is on: enabled, and allowed in this build.
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            ///
            #[doc = concat!("fn describe<P: ", stringify!($bound), ">(hot: &", stringify!($hot), "<P>) -> &'static str {")]
            ///     if hot.is_enabled() { "hot" } else { "compiled" }
            /// }
            /// ```
            pub fn is_enabled(&self) -> bool {
                self.core.enabled
            }

            /// True when what a reload read renders, not the compiled prompt.
            ///
            /// ```
            #[doc = concat!("use ", $path, ";")]
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            ///
            #[doc = concat!("fn banner<P: ", stringify!($bound), ">(hot: &", stringify!($hot), "<P>) -> Option<&'static str> {")]
            ///     hot.is_reloaded().then_some("rendering an edited prompt: rebuild before you ship")
            /// }
            /// ```
            pub fn is_reloaded(&self) -> bool {
                self.core.is_reloaded()
            }
        }

        impl<P> std::fmt::Debug for $hot<P> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.core.fmt_as(stringify!($hot), f)
            }
        }
    };
}
pub(super) use watched_methods;
