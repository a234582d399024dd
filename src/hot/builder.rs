//! Building a hot prompt: where its files are, and whether it reloads at all.

use std::path::PathBuf;

/// Settings of a [`super::HotPrompt`], [`super::HotChat`], [`super::HotJinja`] or
/// [`super::HotDotprompt`], made by their `builder()`.
///
/// Reloading is off unless [`HotBuilder::enabled`] turns it on, and off in a release build
/// (one without `debug_assertions`) even then, unless [`HotBuilder::in_release`] allows it.
///
/// ```
/// use promptic::hot::HotPrompt;
/// use promptic::{ContextValues, Prompt};
///
/// fn hot<P: Prompt + ContextValues>() -> HotPrompt<P> {
///     HotPrompt::<P>::builder()
///         .root(env!("CARGO_MANIFEST_DIR")) // the folder that holds `prompts/`
///         .enabled(std::env::var_os("PROMPTS_HOT").is_some())
///         .build()
/// }
/// ```
#[must_use = "a builder does nothing until `build` is called"]
pub struct HotBuilder<H> {
    /// The prompt file, for `Debug`.
    path: &'static str,
    /// Makes the hot prompt from the root and whether reloading is on.
    make: fn(Option<PathBuf>, bool) -> H,
    root: Option<PathBuf>,
    enabled: bool,
    in_release: bool,
}

impl<H> std::fmt::Debug for HotBuilder<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HotBuilder")
            .field("prompt", &self.path)
            .field("root", &self.root)
            .field("enabled", &self.enabled)
            .field("in_release", &self.in_release)
            .finish()
    }
}

impl<H> HotBuilder<H> {
    pub(super) fn new(path: &'static str, make: fn(Option<PathBuf>, bool) -> H) -> HotBuilder<H> {
        HotBuilder {
            path,
            make,
            root: None,
            enabled: false,
            in_release: false,
        }
    }

    /// The folder that holds the `prompts/` folder the prompt was compiled from: the
    /// crate's folder, `env!("CARGO_MANIFEST_DIR")`, to edit the files the build read.
    /// Without a root, every reload reports that it has none.
    ///
    /// ```
    /// use promptic::hot::HotPrompt;
    /// use promptic::{ContextValues, Prompt};
    ///
    /// fn from_checkout<P: Prompt + ContextValues>(checkout: &std::path::Path) -> HotPrompt<P> {
    ///     HotPrompt::<P>::builder().root(checkout).enabled(true).build()
    /// }
    /// ```
    pub fn root(mut self, root: impl Into<PathBuf>) -> Self {
        self.root = Some(root.into());
        self
    }

    /// Turns reloading on (`true`) or leaves it off (`false`, the default). Off, the hot
    /// prompt renders the compiled prompt and never touches the disk.
    ///
    /// ```
    /// use promptic::hot::HotPrompt;
    /// use promptic::{ContextValues, Prompt};
    ///
    /// fn compiled_only<P: Prompt + ContextValues>() -> HotPrompt<P> {
    ///     let hot = HotPrompt::<P>::builder().enabled(false).build();
    ///     assert!(!hot.is_enabled());
    ///     hot
    /// }
    /// ```
    pub fn enabled(mut self, on: bool) -> Self {
        self.enabled = on;
        self
    }

    /// Allows reloading in a release build too (`cfg!(debug_assertions)` false, as with
    /// `cargo build --release`), where it is otherwise off whatever
    /// [`HotBuilder::enabled`] says: a production binary should render what was compiled
    /// and checked, not what a file next to it says now. Say `true` only on purpose.
    ///
    /// ```
    /// use promptic::hot::HotPrompt;
    /// use promptic::{ContextValues, Prompt};
    ///
    /// fn staging<P: Prompt + ContextValues>() -> HotPrompt<P> {
    ///     HotPrompt::<P>::builder().root("/srv/app").enabled(true).in_release(true).build()
    /// }
    /// ```
    pub fn in_release(mut self, allowed: bool) -> Self {
        self.in_release = allowed;
        self
    }

    /// Makes the hot prompt. Nothing is read yet: the first
    /// [`reload`](super::HotPrompt::reload) or
    /// [`reload_if_changed`](super::HotPrompt::reload_if_changed) reads the files; until
    /// then the compiled prompt renders.
    ///
    /// ```
    /// use promptic::hot::HotPrompt;
    /// use promptic::{ContextValues, Prompt};
    ///
    /// fn make<P: Prompt + ContextValues>() -> HotPrompt<P> {
    ///     let hot = HotPrompt::<P>::builder().root(".").enabled(true).build();
    ///     assert_eq!(hot.is_enabled(), cfg!(debug_assertions));
    ///     assert!(!hot.is_reloaded());
    ///     hot
    /// }
    /// ```
    pub fn build(self) -> H {
        let enabled = self.enabled && (cfg!(debug_assertions) || self.in_release);
        (self.make)(self.root, enabled)
    }
}
