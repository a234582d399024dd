//! Prompt stores, the read side: PromptEngine's folders of prompts as data, checked when
//! loaded and rendered as PromptEngine renders them, only strictly. The `Store` that
//! renders them and changes its user layer is `promptic::store::Store`, built on this
//! (its editing is a crate of its own, so that the derive, which reads store folders to
//! check them, builds no writing code).
//!
//! The stages, one file each: [`layout`] reads the files once, `check` turns them into
//! the parsed form (every problem at once, located in the JSON, the caret on the
//! placeholder inside its string), `render` fills a parsed text, `reader` holds the values
//! and the current state and opens a store, `assemble` renders prompts and PromptEngine's
//! assemblies. A placeholder is `{{key}}` with nothing else inside (the one lexer's
//! [`Syntax::TightBraces`](crate::parse::lexer::Syntax::TightBraces)); anything else is
//! text.
//!
//! `promptic::store` documents the whole, with examples.

mod assemble;
#[doc(hidden)]
pub mod check;
mod error;
#[doc(hidden)]
pub mod json;
pub mod layout;
#[doc(hidden)]
pub mod parsed;
mod preview;
#[doc(hidden)]
pub mod reader;
#[doc(hidden)]
pub mod render;

pub use assemble::{PromptEntry, SequenceEntry, TargetName};
pub use error::StoreError;
pub use layout::is_store_dir;
pub use parsed::{Phase, Target};
pub use preview::Preview;

use crate::Diagnostics;
use layout::Layer;
use parsed::{Body, Folder, Part, PromptDef};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A checked store folder: the defaults a `Store` starts from. Cheap to clone.
///
/// From [`Defaults::load`] at run time, or from `defaults()` of a
/// `#[derive(PromptStore)]`, which embeds the folder checked at build time.
#[derive(Clone, Debug)]
pub struct Defaults {
    inner: Arc<DefaultsInner>,
}

#[derive(Debug)]
struct DefaultsInner {
    /// The files read, in memory: a store with a user folder checks them again with it.
    layer: Layer,
    folder: Arc<Folder>,
    /// The files read from disk, by path relative to the folder and full path.
    read: Vec<(String, PathBuf)>,
}

impl Defaults {
    /// Reads and checks the store folder `dir`; every problem is reported at once, with
    /// paths shown as `dir` is written.
    ///
    /// ```
    /// let problems = promptic::store::Defaults::load("no/such/folder").unwrap_err();
    /// assert!(problems.to_string().contains("`no/such/folder/_meta/prompt_manifest.json` does not exist"));
    /// ```
    pub fn load(dir: impl AsRef<Path>) -> Result<Defaults, Diagnostics> {
        let dir = dir.as_ref();
        let shown = dir.to_string_lossy().replace('\\', "/");
        Defaults::__load_as(dir, shown.trim_end_matches('/'))
    }

    /// A PromptEngine folder as PromptEngine itself reads it (`Store::open_folder`): its
    /// own manifests (a user manifest entry replacing the whole entry of its id) and
    /// registries, prompt by prompt: a prompt with problems is kept and listed by
    /// [`Defaults::problems`] (see `StoreBuilder::strict`).
    pub fn load_folder(dir: impl AsRef<Path>) -> Result<Defaults, Diagnostics> {
        let dir = dir.as_ref();
        let shown = dir.to_string_lossy().replace('\\', "/");
        Defaults::__load_folder_as(dir, shown.trim_end_matches('/'))
    }

    /// [`Defaults::load_folder`], with paths shown under `display`.
    #[doc(hidden)]
    pub fn __load_folder_as(dir: &Path, display: &str) -> Result<Defaults, Diagnostics> {
        let mut layer = Layer::disk(dir, display);
        let folder = check::build_with(&mut layer, None, check::Mode::PerPrompt, true)?;
        Ok(Defaults {
            inner: Arc::new(DefaultsInner {
                layer: layer.frozen(),
                folder: Arc::new(folder),
                read: Vec::new(),
            }),
        })
    }

    /// [`Defaults::load`], with paths shown under `display` (the derive shows the folder as
    /// its attribute writes it).
    #[doc(hidden)]
    pub fn __load_as(dir: &Path, display: &str) -> Result<Defaults, Diagnostics> {
        let mut layer = Layer::disk(dir, display);
        let folder = check::build(&mut layer, None, check::Mode::Strict)?;
        let read = layer
            .paths_read()
            .into_iter()
            .zip(
                layer
                    .files()
                    .iter()
                    .filter(|(_, s)| s.is_some())
                    .map(|(r, _)| r.clone()),
            )
            .map(|(path, rel)| (rel, path))
            .collect();
        Ok(Defaults {
            inner: Arc::new(DefaultsInner {
                layer: layer.frozen(),
                folder: Arc::new(folder),
                read,
            }),
        })
    }

    /// Checks a store folder held in memory: `(path relative to the folder, bytes)` per
    /// file; `display` is the folder as diagnostics show it.
    ///
    /// ```
    /// use promptic::store::Defaults;
    /// let files: &[(&str, &[u8])] = &[
    ///     ("_meta/prompt_manifest.json", br#"{"prompts": {}}"#),
    ///     ("_meta/placeholder_registry.json", br#"{"placeholders": {}}"#),
    /// ];
    /// assert_eq!(Defaults::from_files("empty", files)?.prompt_ids().count(), 0);
    /// # Ok::<(), promptic::Diagnostics>(())
    /// ```
    pub fn from_files(display: &str, files: &[(&str, &[u8])]) -> Result<Defaults, Diagnostics> {
        let mut layer = Layer::memory(display, files)?;
        let folder = check::build(&mut layer, None, check::Mode::Strict)?;
        Ok(Defaults {
            inner: Arc::new(DefaultsInner {
                layer,
                folder: Arc::new(folder),
                read: Vec::new(),
            }),
        })
    }

    /// For `#[derive(PromptStore)]`: the files the macro checked, embedded in the binary.
    #[doc(hidden)]
    pub fn __embedded(display: &str, files: &[(&str, &[u8])]) -> Defaults {
        match Defaults::from_files(display, files) {
            Ok(defaults) => defaults,
            // The same bytes passed the same checks when the crate was built.
            Err(problems) => panic!(
                "promptic: the store `{display}` checked at build time does not load: {problems}"
            ),
        }
    }

    /// The files read, in memory, for the store's writer.
    #[doc(hidden)]
    pub fn __layer(&self) -> &Layer {
        &self.inner.layer
    }

    /// The checked folder, for the store's writer.
    #[doc(hidden)]
    pub fn __folder(&self) -> &Arc<Folder> {
        &self.inner.folder
    }

    /// For `#[derive(PromptStore)]`: every file read from disk, by path relative to the
    /// folder and full path.
    #[doc(hidden)]
    pub fn __files_read(&self) -> &[(String, PathBuf)] {
        &self.inner.read
    }

    /// The prompts refused by [`Defaults::load_folder`], each with its problems (always
    /// empty for [`Defaults::load`], which refuses the whole folder instead).
    pub fn problems(&self) -> Vec<(String, Diagnostics)> {
        let folder = &self.inner.folder;
        folder
            .broken
            .iter()
            .map(|(i, d)| (folder.prompts[*i].id.clone(), d.clone()))
            .collect()
    }

    /// The prompt ids, in manifest order.
    pub fn prompt_ids(&self) -> impl Iterator<Item = &str> {
        self.inner.folder.prompts.iter().map(|p| p.id.as_str())
    }

    /// The prompts, in manifest order.
    ///
    /// ```
    /// use promptic::store::{Defaults, Target};
    /// let files: &[(&str, &[u8])] = &[
    ///     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a", "category": "core", "order": 5}}}"#),
    ///     ("_meta/placeholder_registry.json", br#"{"placeholders": {"k": {"type": "runtime"}}}"#),
    ///     ("a.json", br#"{"variants": {"default": {"text": "{{k}} and {{k}}"}}}"#),
    /// ];
    /// let defaults = Defaults::from_files("p", files)?;
    /// let a = defaults.prompts().next().unwrap();
    /// assert_eq!((a.id(), a.category(), a.order(), a.target()), ("a", Some("core"), 5, Target::SystemPrompt));
    /// assert_eq!(a.placeholders().collect::<Vec<_>>(), ["k"]);
    /// # Ok::<(), promptic::Diagnostics>(())
    /// ```
    pub fn prompts(&self) -> impl Iterator<Item = PromptInfo<'_>> {
        self.inner.folder.prompts.iter().map(|def| PromptInfo {
            def,
            folder: &self.inner.folder,
        })
    }

    /// The registry's placeholders and their phases, by name.
    pub fn placeholders(&self) -> impl Iterator<Item = (&str, Phase)> {
        self.inner
            .folder
            .keys
            .iter()
            .map(|k| (k.name.as_str(), k.phase))
    }

    /// The placeholders a store needs a value for before it opens: static and computed
    /// ones without a registry `default` (a source document or a compute function given
    /// to the builder may supply them), in registry order.
    pub fn required(&self) -> impl Iterator<Item = &str> {
        self.inner
            .folder
            .keys
            .iter()
            .filter(|k| k.phase != Phase::Runtime && k.default.is_none())
            .map(|k| k.name.as_str())
    }

    /// The source documents the registry's static placeholders name (`source`), sorted:
    /// what to give `StoreBuilder::source`.
    ///
    /// ```
    /// use promptic::store::{Defaults, Store};
    /// let files: &[(&str, &[u8])] = &[
    ///     ("_meta/prompt_manifest.json", br#"{"prompts": {"a": {"domain": "a"}}}"#),
    ///     ("_meta/placeholder_registry.json", br#"{"placeholders": {
    ///         "char_name": {"resolve_phase": "static", "source": "persona_config", "source_path": "name", "default": "Mia"},
    ///         "today": {"resolve_phase": "computed", "compute_function": "get_time_context.current_date", "default": ""}}}"#),
    ///     ("a.json", br#"{"variants": {"default": {"text": "{{char_name}}, {{today}}"}}}"#),
    /// ];
    /// let defaults = Defaults::from_files("p", files)?;
    /// assert_eq!(defaults.sources(), ["persona_config"]);
    /// assert_eq!(defaults.compute_functions(), ["get_time_context.current_date"]);
    ///
    /// // A name the registry does not use is listed, not refused.
    /// let store = Store::builder(defaults)
    ///     .compute_function("get_time_context.current_dat", || "today".to_owned())
    ///     .compute_function("get_time_context.current_date", || "Monday".to_owned())
    ///     .open()?;
    /// assert_eq!(store.resolve_prompt("a", "default", &[])?, "Mia, Monday");
    /// let unused = store.unused_names().to_string();
    /// assert!(unused.contains("the compute function `get_time_context.current_dat`"));
    /// assert!(unused.contains("did you mean `get_time_context.current_date`?"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sources(&self) -> Vec<&str> {
        reader::registry_names(&self.inner.folder, |k| k.source.as_deref())
    }

    /// The compute functions the registry's computed placeholders name
    /// (`compute_function`), sorted: what to give `StoreBuilder::compute_function`. See
    /// [`Defaults::sources`].
    pub fn compute_functions(&self) -> Vec<&str> {
        reader::registry_names(&self.inner.folder, |k| k.compute_function.as_deref())
    }
}

/// One prompt of a store as its manifest and domain file describe it.
#[derive(Clone, Copy, Debug)]
pub struct PromptInfo<'a> {
    def: &'a PromptDef,
    folder: &'a Folder,
}

impl<'a> PromptInfo<'a> {
    /// The id.
    pub fn id(&self) -> &'a str {
        &self.def.id
    }
    /// The manifest's `label` (or `name`).
    pub fn label(&self) -> Option<&'a str> {
        self.def.label.as_deref()
    }
    /// The manifest's `description`.
    pub fn description(&self) -> Option<&'a str> {
        self.def.description.as_deref()
    }
    /// The manifest's `category`.
    pub fn category(&self) -> Option<&'a str> {
        self.def.category.as_deref()
    }
    /// Where it goes.
    pub fn target(&self) -> Target {
        self.def.target
    }
    /// True for a `multi_turn` prompt (messages, not a text).
    pub fn is_multi_turn(&self) -> bool {
        self.def.multi_turn
    }
    /// The `order` (9999 when not given).
    pub fn order(&self) -> i64 {
        self.def.order
    }
    /// The manifests' `enabled` (system and user layers merged).
    pub fn enabled(&self) -> bool {
        self.def.enabled
    }
    /// Its domain file, relative to the folder it was read from.
    pub fn file(&self) -> &'a str {
        &self.def.domain.0
    }
    /// The variants its domain file holds.
    pub fn variants(&self) -> impl Iterator<Item = &'a str> {
        self.def.variants.iter().map(|v| v.name.as_str())
    }
    /// Every placeholder its variants use, each once, in order of first use.
    pub fn placeholders(&self) -> impl Iterator<Item = &'a str> {
        let mut seen: Vec<usize> = Vec::new();
        for v in &self.def.variants {
            let texts: Vec<_> = match &v.body {
                Body::Text(t) => vec![t],
                Body::Messages(m) => m.iter().map(|(_, t)| t).collect(),
            };
            for t in texts {
                for part in &t.parts {
                    if let Part::Key(i) = part
                        && !seen.contains(i)
                    {
                        seen.push(*i);
                    }
                }
            }
        }
        let keys = &self.folder.keys;
        seen.into_iter().map(move |i| keys[i].name.as_str())
    }
}

#[cfg(test)]
mod tests;
