//! Hot reload in development: a compiled prompt that re-reads its file at run time.
//!
//! Only with the `hot-reload` cargo feature (`promptic = { features = ["hot-reload"] }`);
//! without it nothing of this module is compiled. A [`HotPrompt`] wraps a
//! `#[derive(Prompt)]` struct's compiled prompt. When the application turns it on
//! ([`HotBuilder::enabled`]), [`HotPrompt::reload`] reads the prompt file again, with the
//! project's templates and `promptic.json`, and checks it as the derive checked it at build
//! time — against the compiled struct: exactly its context variables, each with its kind
//! (text, flag, optional, choice, messages), every field used, the identity schema of
//! `promptic.json`, the templates. A text that passes is swapped in whole and renders from
//! then on; one that fails is refused with the same located diagnostics the derive and the
//! CLI print (`--> prompts/greeting.md:3:14`), and the version that rendered before keeps
//! rendering: the compiled one, or the last text that passed. A missing file, a folder in
//! its place, bad UTF-8, a device or a pipe, or a file of more than [`MAX_FILE`] bytes is
//! such an error too; nothing in a file makes it panic.
//!
//! Reloading is off by default, and off in a release build even when enabled unless
//! [`HotBuilder::in_release`] says otherwise: what ships renders what was compiled.
//!
//! Renders never wait for the disk: they take the current version (an `Arc`, under a lock
//! held only to clone it) and render it; a reload reads and checks everything before it
//! swaps. Call [`HotPrompt::reload_if_changed`] per request (it compares the files'
//! modification times and lengths, and reads them only when one changed), or
//! [`HotPrompt::reload`] from a file watcher.
//!
//! [`HotChat`] does the same for chat prompts ([`ChatPrompt`]), and [`HotJinja`] for
//! derived Jinja prompts (`prompts/NAME.md.j2`, [`JinjaPrompt`](prompt_runtime::formats::jinja::JinjaPrompt)):
//! it rereads the prompt file, every template it includes and `promptic.json`'s
//! `"jinja"` options through the one reader ([`prompt_runtime::load::Root`]), checks them against
//! the compiled struct as the derive does (names, `Option`s, unused fields, paths into
//! `PromptValue` fields against their shapes, the subset, include cycles, fences), and
//! watches every include the last load asked for. [`HotDotprompt`] does it for derived
//! dotprompt prompts (`prompts/NAME.prompt`,
//! [`DotpromptPrompt`](prompt_runtime::formats::dotprompt::DotpromptPrompt)): it rereads the prompt
//! file, its partials and the folder's `schemas.json` and `tools.json` through the same
//! reader, checks them as the derive does (the dotprompt reader's checks, the paths the
//! template reads against the input schema, the input schema against the struct's fields,
//! their types and their `PromptValue` shapes, the helpers), and renders the reloaded
//! prompt with its messages, metadata and cache breakpoints. Families
//! (`#[prompt(family = "...")]`) are not supported: a family is many files chosen per
//! render, and its struct implements none of these traits; nor are keep agent prompts,
//! whose derive implements none of the traits a hot prompt needs.
//!
//! ```
//! use promptic::context::{ContextField, ContextValue, ContextValues, FieldKind};
//! use promptic::hot::HotPrompt;
//! use promptic::{Identity, Meta, Prompt, PromptContent, PromptVariable};
//!
//! // What `#[derive(Prompt)]` writes for `prompts/greeting.md` ("Hello $who.") and
//! // `struct Greeting<'a> { who: &'a str }`, by hand.
//! struct Greeting<'a> {
//!     who: &'a str,
//! }
//! impl Prompt for Greeting<'_> {
//!     const NAME: &'static str = "greeting";
//!     const PATH: &'static str = "prompts/greeting.md";
//!     const META: Meta = Meta::DEFAULT;
//!     const SOURCE: &'static str = "Hello $who.";
//!     const VARIABLES: &'static [PromptVariable] = &[];
//!     const IDENTITY_KEYS: &'static [&'static str] = &[];
//!     const VERSION: &'static str = "compiled";
//!     fn render(&self, _: &Identity) -> PromptContent {
//!         PromptContent {
//!             text: format!("Hello {}.", self.who),
//!             path: Self::PATH.into(),
//!             metadata: std::borrow::Cow::Owned(Meta::DEFAULT),
//!             breakpoints: Vec::new(),
//!         }
//!     }
//! }
//! impl ContextValues for Greeting<'_> {
//!     const STRUCT_NAME: &'static str = "Greeting";
//!     const CONTEXT: &'static [ContextField] = &[ContextField { name: "who", kind: FieldKind::Text }];
//!     fn context_values(&self) -> Vec<(&'static str, ContextValue<'_>)> {
//!         vec![("who", ContextValue::Text(self.who.into()))]
//!     }
//! }
//!
//! let root = std::env::temp_dir().join(format!("promptic-doc-hot-{}", std::process::id()));
//! std::fs::create_dir_all(root.join("prompts"))?;
//! std::fs::write(root.join("prompts/greeting.md"), "Good morning, $who!")?;
//!
//! let hot = HotPrompt::<Greeting>::builder().root(&root).enabled(true).build();
//! let identity = Identity::default();
//! assert_eq!(hot.render(&Greeting { who: "Sam" }, &identity).text, "Hello Sam.");
//! assert_eq!(hot.reload(), Ok(cfg!(debug_assertions)));
//! if cfg!(debug_assertions) {
//!     assert_eq!(hot.render(&Greeting { who: "Sam" }, &identity).text, "Good morning, Sam!");
//!
//!     // A typo is refused where it stands; the last good text keeps rendering.
//!     std::fs::write(root.join("prompts/greeting.md"), "Good night, $woh!")?;
//!     let problems = hot.reload().unwrap_err();
//!     assert_eq!(problems.0[0].message(), "unknown placeholder `$woh`");
//!     assert!(problems.to_string().contains("--> prompts/greeting.md:1:13"), "{problems}");
//!     assert_eq!(hot.render(&Greeting { who: "Sam" }, &identity).text, "Good morning, Sam!");
//!     assert_eq!(hot.last_error(), Some(problems));
//! }
//! # std::fs::remove_dir_all(&root)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod builder;
mod dotprompt;
mod jinja;
mod stamp;
mod watched;

pub use builder::HotBuilder;
pub use dotprompt::HotDotprompt;
pub use jinja::HotJinja;

use prompt_runtime::__internal::Swapped;
use prompt_runtime::chat::Chat;
use prompt_runtime::check::{self, CheckedPrompt};
use prompt_runtime::context::{ContextField, ContextValue, ContextValues};
use prompt_runtime::diagnostic::{Diagnostic, Diagnostics};
use prompt_runtime::identity::Identity;
use prompt_runtime::load::Project;
use prompt_runtime::render::{Fill, PromptContent, render_chat, render_marked};
use prompt_runtime::{ChatPrompt, Prompt};
use stamp::{Refusal, Stamp};
use std::borrow::Cow;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, TryLockError};
use watched::Version;

/// The largest file a reload reads, in bytes: the prompt file, `promptic.json` or a
/// template. The one limit of every read, [`prompt_runtime::load::MAX_FILE`] (4 MiB,
/// [`prompt_runtime::resolve::MAX_EXPANDED`], the most a prompt may hold with its templates
/// inlined), under the name it had first. A larger one is refused before it is read.
///
/// ```
/// assert_eq!(promptic::hot::MAX_FILE, 4 * 1024 * 1024);
/// ```
pub const MAX_FILE: u64 = prompt_runtime::load::MAX_FILE;

/// A `#[derive(Prompt)]` prompt that can be reloaded from its file at run time.
///
/// Built with [`HotPrompt::builder`]; renders with [`HotPrompt::render`] what the last
/// successful reload checked, or the compiled prompt before any (and always when reloading
/// is off). `HotPrompt` is `Send + Sync`: keep one per prompt, for instance in a `static`
/// with `LazyLock`, and render from any thread while another reloads. The type parameter
/// is the struct; a struct with lifetimes is named with `'static` there
/// (`HotPrompt<Greeting<'static>>`) and still renders values that borrow for less.
///
/// See the [module](self) for what a reload checks, and a complete example.
pub struct HotPrompt<P> {
    core: Core,
    _prompt: PhantomData<fn() -> P>,
}

/// A chat prompt ([`ChatPrompt`]) that can be reloaded from its file at run time: as
/// [`HotPrompt`], rendering messages with [`HotChat::messages`]. A reloaded text must stay a
/// chat prompt.
pub struct HotChat<P> {
    core: Core,
    _prompt: PhantomData<fn() -> P>,
}

impl<P: Prompt + ContextValues> HotPrompt<P> {
    /// Starts a hot prompt of `P`; reloading stays off unless [`HotBuilder::enabled`] turns
    /// it on.
    ///
    /// ```
    /// use promptic::hot::HotPrompt;
    /// use promptic::{ContextValues, Prompt};
    ///
    /// fn hot<P: Prompt + ContextValues>() -> HotPrompt<P> {
    ///     HotPrompt::<P>::builder().root(env!("CARGO_MANIFEST_DIR")).enabled(true).build()
    /// }
    /// ```
    pub fn builder() -> HotBuilder<HotPrompt<P>> {
        HotBuilder::new(P::PATH, |root, enabled| HotPrompt {
            core: Core::new(
                Target {
                    name: P::NAME,
                    path: P::PATH,
                    version: P::VERSION,
                    identity_keys: P::IDENTITY_KEYS,
                    struct_name: P::STRUCT_NAME,
                    context: P::CONTEXT,
                    chat: false,
                },
                root,
                enabled,
            ),
            _prompt: PhantomData,
        })
    }

    /// Renders the current version with `context` and `identity`: the compiled prompt
    /// (its generated code), or the last reloaded text that passed the check. Cannot fail;
    /// an identity key the identity lacks renders as empty text, as in compiled prompts.
    /// Never reads the disk.
    ///
    /// ```
    /// use promptic::hot::HotPrompt;
    /// use promptic::{ContextValues, Identity, Prompt};
    ///
    /// fn answer<P: Prompt + ContextValues>(hot: &HotPrompt<P>, context: &P, identity: &Identity) -> String {
    ///     hot.render(context, identity).text
    /// }
    /// ```
    pub fn render(&self, context: &P, identity: &Identity) -> PromptContent {
        if !self.core.enabled {
            return context.render(identity);
        }
        match &*self.core.current.current() {
            Current::Compiled => context.render(identity),
            Current::Reloaded(reloaded) => {
                let values = context.context_values();
                let marked = render_marked(
                    &reloaded.prompt.resolved,
                    &|i| reloaded.value(&values, i),
                    identity,
                );
                PromptContent {
                    text: marked.text,
                    path: Cow::Borrowed(P::PATH),
                    metadata: Cow::Owned(reloaded.prompt.meta.clone()),
                    breakpoints: marked.breakpoints,
                }
            }
        }
    }
}

impl<P: ChatPrompt + ContextValues> HotChat<P> {
    /// Starts a hot chat prompt of `P`; reloading stays off unless
    /// [`HotBuilder::enabled`] turns it on.
    ///
    /// ```
    /// use promptic::hot::HotChat;
    /// use promptic::{ChatPrompt, ContextValues};
    ///
    /// fn hot<P: ChatPrompt + ContextValues>() -> HotChat<P> {
    ///     HotChat::<P>::builder().root(env!("CARGO_MANIFEST_DIR")).enabled(true).build()
    /// }
    /// ```
    pub fn builder() -> HotBuilder<HotChat<P>> {
        HotBuilder::new(P::PATH, |root, enabled| HotChat {
            core: Core::new(
                Target {
                    name: P::NAME,
                    path: P::PATH,
                    version: P::VERSION,
                    identity_keys: P::IDENTITY_KEYS,
                    struct_name: P::STRUCT_NAME,
                    context: P::CONTEXT,
                    chat: true,
                },
                root,
                enabled,
            ),
            _prompt: PhantomData,
        })
    }

    /// Renders the current version's messages with `context` and `identity`, as
    /// [`HotPrompt::render`] renders text: the compiled prompt, or the last reloaded text
    /// that passed the check, with each history field's messages. Cannot fail; never reads
    /// the disk.
    ///
    /// ```
    /// use promptic::hot::HotChat;
    /// use promptic::{ChatPrompt, ContextValues, Identity};
    ///
    /// fn turn<P: ChatPrompt + ContextValues>(hot: &HotChat<P>, context: &P, identity: &Identity) -> usize {
    ///     hot.messages(context, identity).messages.len()
    /// }
    /// ```
    pub fn messages(&self, context: &P, identity: &Identity) -> Chat {
        if !self.core.enabled {
            return context.messages(identity);
        }
        match &*self.core.current.current() {
            Current::Compiled => context.messages(identity),
            Current::Reloaded(reloaded) => {
                let values = context.context_values();
                let history = |i: usize| match values.get(i) {
                    Some((_, ContextValue::Messages(messages))) => *messages,
                    _ => &[],
                };
                let (messages, breakpoints) = render_chat(
                    &reloaded.prompt.resolved,
                    &|i| reloaded.value(&values, i),
                    &history,
                    identity,
                );
                Chat {
                    messages,
                    path: Cow::Borrowed(P::PATH),
                    metadata: Cow::Owned(reloaded.prompt.meta.clone()),
                    breakpoints,
                }
            }
        }
    }
}

/// The methods [`HotPrompt`] and [`HotChat`] share, written once.
macro_rules! shared {
    ($hot:ident, $bound:ident) => {
        impl<P: $bound + ContextValues> $hot<P> {
            /// Reads the prompt file, the templates and `promptic.json` again, checks the
            /// prompt against the compiled struct and the identity schema, and swaps it in.
            /// `Ok(true)` when a different version renders from now on, `Ok(false)` when
            /// what renders is unchanged (the same text, or reloading is off: then nothing
            /// is read). On `Err`, the diagnostics (also kept for
            /// [`last_error`](Self::last_error)); the version that rendered before keeps
            /// rendering. A text identical to the compiled one (the same
            /// [`Prompt::VERSION`]: the prompt file and the templates it uses) renders
            /// through the compiled code again, even if `promptic.json` changed how it
            /// would read since the build (its literals or default placeholder syntax). One reload of a
            /// prompt runs at a time: this waits for one under way in another thread
            /// (renders never wait).
            ///
            /// ```
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            #[doc = concat!("use promptic::{ContextValues, ", stringify!($bound), "};")]
            ///
            #[doc = concat!("fn on_file_event<P: ", stringify!($bound), " + ContextValues>(hot: &", stringify!($hot), "<P>) {")]
            ///     match hot.reload() {
            ///         Ok(true) => eprintln!("prompt reloaded"),
            ///         Ok(false) => {}
            ///         Err(problems) => eprintln!("{problems}"),
            ///     }
            /// }
            /// ```
            pub fn reload(&self) -> Result<bool, Diagnostics> {
                self.core.reload()
            }

            /// [`reload`](Self::reload), only when a file it reads changed since the last
            /// reload (or none happened yet): cheap enough to call on every request. It
            /// compares the modification time, length and kind of the prompt file,
            /// `promptic.json`, the templates folder and each template; an edit that keeps
            /// all of them (within the file system's time resolution) is not seen. A
            /// failed reload is reported once, not again until a file changes. Returns at
            /// once with `Ok(false)` when reloading is off, or when another thread is
            /// reloading this prompt right now.
            ///
            /// ```
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            #[doc = concat!("use promptic::{ContextValues, ", stringify!($bound), "};")]
            ///
            #[doc = concat!("fn per_request<P: ", stringify!($bound), " + ContextValues>(hot: &", stringify!($hot), "<P>) {")]
            ///     if let Err(problems) = hot.reload_if_changed() {
            ///         eprintln!("{problems}");
            ///     }
            /// }
            /// ```
            pub fn reload_if_changed(&self) -> Result<bool, Diagnostics> {
                self.core.reload_if_changed()
            }

            /// The diagnostics of the last reload when it failed; `None` when it passed,
            /// or before the first.
            ///
            /// ```
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            #[doc = concat!("use promptic::{ContextValues, ", stringify!($bound), "};")]
            ///
            #[doc = concat!("fn status<P: ", stringify!($bound), " + ContextValues>(hot: &", stringify!($hot), "<P>) -> String {")]
            ///     match hot.last_error() {
            ///         Some(problems) => format!("refused:\n{problems}"),
            ///         None => "ok".to_owned(),
            ///     }
            /// }
            /// ```
            pub fn last_error(&self) -> Option<Diagnostics> {
                self.core.last_error()
            }

            /// True when reloading is on: enabled, and allowed in this build (see
            /// [`HotBuilder::in_release`]).
            ///
            /// ```
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            #[doc = concat!("use promptic::{ContextValues, ", stringify!($bound), "};")]
            ///
            #[doc = concat!("fn describe<P: ", stringify!($bound), " + ContextValues>(hot: &", stringify!($hot), "<P>) -> &'static str {")]
            ///     if hot.is_enabled() { "hot" } else { "compiled" }
            /// }
            /// ```
            pub fn is_enabled(&self) -> bool {
                self.core.enabled
            }

            /// True when a reloaded text renders, not the compiled prompt.
            ///
            /// ```
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            #[doc = concat!("use promptic::{ContextValues, ", stringify!($bound), "};")]
            ///
            #[doc = concat!("fn banner<P: ", stringify!($bound), " + ContextValues>(hot: &", stringify!($hot), "<P>) -> Option<&'static str> {")]
            ///     hot.is_reloaded().then_some("rendering an edited prompt: rebuild before you ship")
            /// }
            /// ```
            pub fn is_reloaded(&self) -> bool {
                matches!(*self.core.current.current(), Current::Reloaded(_))
            }

            /// The version that renders now, as [`Prompt::VERSION`] computes it: the
            /// compiled prompt's, or the reloaded text's. For tracing which text a model saw.
            ///
            /// ```
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            #[doc = concat!("use promptic::{ContextValues, ", stringify!($bound), "};")]
            ///
            #[doc = concat!("fn trace<P: ", stringify!($bound), " + ContextValues>(hot: &", stringify!($hot), "<P>) {")]
            ///     eprintln!("prompt version {}", hot.version());
            /// }
            /// ```
            pub fn version(&self) -> String {
                self.core.version()
            }

            /// The identity keys the version that renders now uses, sorted: check an
            /// identity against them after a reload, as `check_identity` checks the
            /// compiled prompts' keys (a reloaded text may use a key of `promptic.json`
            /// that the compiled one did not).
            ///
            /// ```
            #[doc = concat!("use promptic::hot::", stringify!($hot), ";")]
            #[doc = concat!("use promptic::{ContextValues, Identity, IdentityError, ", stringify!($bound), "};")]
            ///
            #[doc = concat!("fn check<P: ", stringify!($bound), " + ContextValues>(hot: &", stringify!($hot), "<P>, identity: &Identity) -> Result<(), IdentityError> {")]
            ///     let keys = hot.identity_keys();
            ///     identity.check_keys(&keys.iter().map(String::as_str).collect::<Vec<_>>())
            /// }
            /// ```
            pub fn identity_keys(&self) -> Vec<String> {
                self.core.identity_keys()
            }
        }

        impl<P> std::fmt::Debug for $hot<P> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($hot))
                    .field("prompt", &self.core.target.path)
                    .field("enabled", &self.core.enabled)
                    .field("version", &self.core.version())
                    .finish()
            }
        }
    };
}

shared!(HotPrompt, Prompt);
shared!(HotChat, ChatPrompt);

/// The compiled prompt's constants: what a reload checks against.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Target {
    name: &'static str,
    path: &'static str,
    version: &'static str,
    identity_keys: &'static [&'static str],
    struct_name: &'static str,
    context: &'static [ContextField],
    /// A chat prompt: a reloaded text must have sections; otherwise it must not.
    chat: bool,
}

/// What renders now: the compiled prompt's generated code, or a text that passed the check
/// at its last reload.
type Current = Version<Reloaded>;

struct Reloaded {
    prompt: CheckedPrompt,
    version: String,
}

impl Reloaded {
    /// Context variable `i`'s value. The values come in the order of the struct's fields,
    /// which is the schema's; the name is compared all the same.
    fn value<'v>(&self, values: &'v [(&'static str, ContextValue<'_>)], i: usize) -> Fill<'v> {
        match (values.get(i), self.prompt.schema.context.get(i)) {
            (Some((name, value)), Some(var)) if *name == var.name => value.fill(),
            _ => Fill::Absent,
        }
    }
}

/// What [`HotPrompt`] and [`HotChat`] share: the versions and the reloading.
pub(crate) struct Core {
    target: Target,
    root: Option<PathBuf>,
    enabled: bool,
    current: Swapped<Current>,
    /// Held while a reload reads and checks: one reload of a prompt at a time. Renders
    /// never take it.
    watch: Mutex<Watch>,
    last_error: Mutex<Option<Diagnostics>>,
}

/// What the last reload saw.
/// The watch lock without waiting: `None` while another caller holds it (that caller is
/// checking the files already); a poisoned lock is taken as it is, since a watch holds only
/// stamps.
fn try_watch<W>(watch: &Mutex<W>) -> Option<MutexGuard<'_, W>> {
    match watch.try_lock() {
        Ok(watch) => Some(watch),
        Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    }
}

struct Watch {
    /// The files as they were when it started; `None` before the first.
    stamp: Option<Stamp>,
    /// The templates folder that `promptic.json` named then.
    templates: String,
}

impl Core {
    fn new(target: Target, root: Option<PathBuf>, enabled: bool) -> Core {
        Core {
            target,
            root,
            enabled,
            current: Swapped::new(Current::Compiled),
            watch: Mutex::new(Watch {
                stamp: None,
                templates: prompt_runtime::load::config::Config::default().templates,
            }),
            last_error: Mutex::new(None),
        }
    }

    fn reload(&self) -> Result<bool, Diagnostics> {
        if !self.enabled {
            return Ok(false);
        }
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        let stamp = self.stamp(&watch);
        self.reload_with(&mut watch, stamp)
    }

    fn reload_if_changed(&self) -> Result<bool, Diagnostics> {
        if !self.enabled {
            return Ok(false);
        }
        // another caller is already checking: this one renders what is there
        let Some(mut watch) = try_watch(&self.watch) else {
            return Ok(false);
        };
        let stamp = self.stamp(&watch);
        if watch.stamp.as_ref() == Some(&stamp) {
            return Ok(false);
        }
        self.reload_with(&mut watch, stamp)
    }

    /// The files as they are now; empty without a root.
    fn stamp(&self, watch: &Watch) -> Stamp {
        match &self.root {
            Some(root) => Stamp::take(
                &root.join("prompts"),
                &root.join(self.target.path),
                &watch.templates,
            ),
            None => Stamp::default(),
        }
    }

    /// Reads, checks and swaps; `stamp` was taken before anything was read, so that an
    /// edit during the reload is seen by the next one.
    fn reload_with(&self, watch: &mut Watch, stamp: Stamp) -> Result<bool, Diagnostics> {
        let outcome = self.load(watch, &stamp);
        watch.stamp = Some(stamp);
        // Swapped even when the version is the same: `promptic.json` may have changed how
        // the same text reads (its literals, its placeholder syntax).
        watched::settle(&self.current, &self.last_error, outcome, |a, b| {
            a.version == b.version
        })
    }

    /// The prompt as the files say now, checked.
    fn load(&self, watch: &mut Watch, stamp: &Stamp) -> Result<Current, Diagnostics> {
        let target = &self.target;
        let Some(root) = &self.root else {
            return Err(Diagnostic::new(format!(
                "cannot reload `{}`: the hot prompt has no root folder",
                target.path
            ))
            .with_help("give the builder the folder that holds `prompts/`: `.root(env!(\"CARGO_MANIFEST_DIR\"))`")
            .into());
        };
        if let Some((path, refusal)) = stamp.refusal(MAX_FILE) {
            let shown = path
                .strip_prefix(root)
                .unwrap_or(path)
                .to_string_lossy()
                .replace('\\', "/");
            let d = match refusal {
                Refusal::TooLarge(len) => Diagnostic::new(format!(
                    "`{shown}` is {len} bytes, more than a reload reads ({MAX_FILE})"
                ))
                .with_help("a prompt with its templates inlined holds at most 4 MiB"),
                Refusal::NotAFile => Diagnostic::new(format!(
                    "`{shown}` is not a file (a device, a pipe or a socket), so it is not read"
                ))
                .with_help("make it a plain file"),
            };
            return Err(d.in_file(shown).into());
        }
        let project = Project::open(&root.join("prompts"), "prompts")?;
        watch.templates.clone_from(&project.config.templates);
        // A name must say which file it is, as the derive holds it: a second file for it
        // (`NAME.md.j2`, `NAME.prompt`) is an error.
        project
            .front_end(target.name)
            .map_err(|d| Diagnostics::from(d.in_file(target.path.to_string())))?;
        let prompt = check::check_typed(&project, target.name, target.struct_name, target.context)?;
        if prompt.resolved.is_chat() != target.chat {
            let (now, was) = if target.chat {
                ("has no chat sections", "a chat prompt")
            } else {
                ("has chat sections", "a text prompt")
            };
            return Err(Diagnostic::new(format!(
                "{} {now}, but `{}` was compiled as {was}",
                target.path, target.struct_name
            ))
            .in_file(target.path)
            .with_help("rebuild to change the kind of prompt; a reload keeps the compiled kind")
            .into());
        }
        let version = check::version(&prompt, &project.templates);
        if version == target.version {
            return Ok(Current::Compiled);
        }
        Ok(Current::Reloaded(Box::new(Reloaded { prompt, version })))
    }

    fn last_error(&self) -> Option<Diagnostics> {
        self.last_error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn version(&self) -> String {
        match &*self.current.current() {
            Current::Compiled => self.target.version.to_owned(),
            Current::Reloaded(reloaded) => reloaded.version.clone(),
        }
    }

    fn identity_keys(&self) -> Vec<String> {
        match &*self.current.current() {
            Current::Compiled => {
                let mut keys: Vec<String> = self
                    .target
                    .identity_keys
                    .iter()
                    .map(|k| (*k).to_owned())
                    .collect();
                keys.sort();
                keys
            }
            Current::Reloaded(reloaded) => reloaded.prompt.resolved.identity_keys(),
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod dotprompt_tests;
