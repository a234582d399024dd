//! The read side of a store: the values given to it ([`Given`]), one
//! consistent version of its folders ([`State`]), and the [`Reader`] renders take it from.
//! [`open`] reads and checks the folders into a reader; what an open does besides reading
//! (a crashed write's files swept, PromptEngine's older layout migrated, the user folder
//! locked) is the store's, given as [`OpenHooks`]: a render through the store format
//! ([`READ_ONLY`]) changes no folder.

use super::error::StoreError;
use super::layout::Layer;
use super::parsed::{Folder, Key, Phase, PromptDef};
use super::render::{Computed, Values};
use super::{Defaults, check};
use crate::suggest::closest;
use crate::swap::Swapped;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a store is opened with: the defaults, the folders and the values.
pub struct Opening {
    /// The checked defaults.
    pub defaults: Defaults,
    /// The user's folder, layered over the defaults.
    pub user_dir: Option<PathBuf>,
    /// A PromptEngine folder read (and edited) in place.
    pub in_place: Option<PathBuf>,
    /// Static values by placeholder.
    pub statics: Vec<(String, String)>,
    /// Computed functions by placeholder.
    pub computed: Vec<(String, Computed)>,
    /// Source documents by name.
    pub sources: Vec<(String, Arc<serde_json::Value>)>,
    /// Computed functions by the registry's `compute_function` name.
    pub functions: Vec<(String, Computed)>,
    /// A prompt's problems refuse the whole folder.
    pub strict: bool,
}

impl Opening {
    /// An opening of `defaults` alone, with no values.
    pub fn new(defaults: Defaults) -> Opening {
        Opening {
            defaults,
            user_dir: None,
            in_place: None,
            statics: Vec::new(),
            computed: Vec::new(),
            sources: Vec::new(),
            functions: Vec::new(),
            strict: false,
        }
    }

    /// How problems of one prompt are taken.
    pub fn mode(&self) -> check::Mode {
        if self.strict {
            check::Mode::Strict
        } else {
            check::Mode::PerPrompt
        }
    }
}

/// What opening a store does to its folders besides reading them. Every method does
/// nothing by default: [`READ_ONLY`].
pub trait OpenHooks: Sync {
    /// Before the PromptEngine folder `dir`, read in place, is read; `reset_from` is the
    /// defaults given for it when it was given as a user folder (its factory defaults).
    /// Returns the backup of a migration it made.
    fn before_in_place(
        &self,
        dir: &Path,
        reset_from: Option<&Layer>,
    ) -> Result<Option<PathBuf>, StoreError> {
        let _ = (dir, reset_from);
        Ok(None)
    }

    /// Held while the user folder `dir` is read.
    fn lock_user(&self, dir: &Path) -> Option<Box<dyn std::any::Any>> {
        let _ = dir;
        None
    }
}

/// Opens to read and render: no folder is changed (no migration of PromptEngine's older
/// layout, which changes where the folder keeps its prompts, never what it shows; no
/// sweep of a crashed write's temporary files; no lock file made or taken).
pub struct ReadOnly;

impl OpenHooks for ReadOnly {}

/// The one [`ReadOnly`].
pub static READ_ONLY: ReadOnly = ReadOnly;

/// An opened store's reader, and what its writer keeps of the open.
pub struct Opened {
    /// What renders read.
    pub reader: Reader,
    /// The defaults the store was opened over (read again when the open migrated the
    /// folder, or found a PromptEngine folder given as the user folder).
    pub defaults: Defaults,
    /// The backup written by a migration.
    pub migrated: Option<PathBuf>,
    /// For a PromptEngine folder given as the user folder: the given defaults, its factory
    /// defaults.
    pub reset_from: Option<Layer>,
    /// The PromptEngine folder read in place.
    pub in_place: Option<PathBuf>,
    /// The user folder.
    pub user_dir: Option<PathBuf>,
}

/// A store's current state and values: what every render reads.
pub struct Reader {
    /// The current state; a render clones the `Arc` and lets go of the lock at once.
    pub state: Swapped<State>,
    /// The static values and computed functions, by name.
    pub given: Given,
    /// Whether a prompt's problems refuse the folder or only that prompt.
    pub mode: check::Mode,
    /// The sources and compute functions given that the registry does not name.
    pub unused: crate::Diagnostics,
}

impl Reader {
    /// The state renders read now. The lock is held only to clone the `Arc`.
    pub fn current(&self) -> Arc<State> {
        self.state.current()
    }

    /// Makes `next` the current state.
    pub fn swap(&self, next: State) -> Arc<State> {
        let next = Arc::new(next);
        self.state.replace(Arc::clone(&next));
        next
    }

    pub fn find<'f>(folder: &'f Folder, id: &str) -> Result<&'f PromptDef, StoreError> {
        match folder.prompt(id) {
            Some(i) => Ok(&folder.prompts[i]),
            None => Err(Reader::unknown_prompt(folder, id)),
        }
    }

    pub fn unknown_prompt(folder: &Folder, id: &str) -> StoreError {
        StoreError::UnknownPrompt {
            id: id.to_owned(),
            suggestion: closest(id, folder.prompts.iter().map(|p| p.id.as_str()))
                .map(str::to_owned),
        }
    }

    pub fn unknown_variant(prompt: &PromptDef, variant: &str) -> StoreError {
        StoreError::UnknownVariant {
            id: prompt.id.clone(),
            variant: variant.to_owned(),
            suggestion: closest(variant, prompt.variant_names()).map(str::to_owned),
        }
    }
}

/// Reads the user folder, checks it, and checks that every static and computed
/// placeholder has a value or a registry `default` (listing all that do not); `hooks` do
/// what the open does besides reading.
pub fn open(mut opening: Opening, hooks: &dyn OpenHooks) -> Result<Opened, StoreError> {
    let mode = opening.mode();
    // A user folder that holds PromptEngine's own manifest is a PromptEngine folder:
    // it is read and written as PromptEngine keeps it (as `Store::open_folder`), with
    // the given defaults in the role of its `_defaults/`.
    let mut reset_from = None;
    if opening.in_place.is_none()
        && let Some(dir) = &opening.user_dir
        && super::layout::is_store_dir(dir)
    {
        reset_from = Some(opening.defaults.inner.layer.clone());
        opening.in_place = opening.user_dir.take();
    }
    let mut migrated = None;
    if let Some(dir) = opening.in_place.clone() {
        if opening.user_dir.is_some() {
            return Err(StoreError::InPlace {
                path: dir.to_string_lossy().into_owned(),
                what: "a user folder (`user_dir`)",
            });
        }
        migrated = hooks.before_in_place(&dir, reset_from.as_ref())?;
        if migrated.is_some() || reset_from.is_some() {
            opening.defaults = Defaults::load_folder(&dir).map_err(StoreError::Invalid)?;
        }
        let folder = &opening.defaults.inner.folder;
        if opening.strict && !folder.broken.is_empty() {
            let mut all = crate::Diagnostics::default();
            for (_, d) in &folder.broken {
                all.extend(d.clone());
            }
            return Err(StoreError::Invalid(all));
        }
    }
    let (folder, user) = match &opening.user_dir {
        // A folder opened in place is its own layer: its edits are written into it.
        None if opening.in_place.is_some() => (
            Arc::clone(&opening.defaults.inner.folder),
            opening.defaults.inner.layer.clone(),
        ),
        None => (
            Arc::clone(&opening.defaults.inner.folder),
            Layer::in_memory("(user layer)"),
        ),
        Some(dir) => {
            // Not while another store writes the folder: its files belong together.
            let _lock = hooks.lock_user(dir);
            let mut defaults = opening.defaults.inner.layer.clone();
            let mut user = Layer::disk(dir, &dir.to_string_lossy());
            let folder =
                check::build(&mut defaults, Some(&mut user), mode).map_err(StoreError::Invalid)?;
            (Arc::new(folder), user.frozen())
        }
    };
    let mut unknown = Vec::new();
    for key in opening
        .statics
        .iter()
        .map(|(k, _)| k)
        .chain(opening.computed.iter().map(|(k, _)| k))
    {
        if folder.key(key).is_none() {
            let suggestion =
                closest(key, folder.keys.iter().map(|k| k.name.as_str())).map(str::to_owned);
            unknown.push((key.clone(), suggestion));
        }
    }
    if !unknown.is_empty() {
        return Err(StoreError::UnknownPlaceholders(unknown));
    }
    // A source or compute function the registry does not name: an application that
    // gives its whole set can open an older folder that uses fewer. Listed (with the
    // closest name the registry uses), or refused when opening all or nothing.
    let mut unused = crate::Diagnostics::default();
    for (what, names, known) in [
        (
            "source",
            opening
                .sources
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>(),
            registry_names(&folder, |k| k.source.as_deref()),
        ),
        (
            "compute function",
            opening.functions.iter().map(|(n, _)| n.as_str()).collect(),
            registry_names(&folder, |k| k.compute_function.as_deref()),
        ),
    ] {
        for name in names.iter().filter(|n| !known.contains(n)) {
            let suggestion = closest(name, known.iter().copied()).map(str::to_owned);
            if mode == check::Mode::Strict {
                return Err(StoreError::UnknownSource {
                    what,
                    name: (*name).to_owned(),
                    suggestion,
                });
            }
            let diagnostic = crate::Diagnostic::new(format!(
                "no placeholder of the registry names the {what} `{name}`: it is not used"
            ));
            unused.push(match suggestion {
                Some(close) => diagnostic.with_help(format!("did you mean `{close}`?")),
                None if known.is_empty() => {
                    diagnostic.with_help(format!("the registry names no {what}"))
                }
                None => diagnostic.with_help(format!(
                    "the registry names the {what}{} {}",
                    if known.len() == 1 { "" } else { "s" },
                    known
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            });
        }
    }
    let given = Given {
        statics: opening.statics,
        computed: opening.computed,
        sources: opening.sources,
        functions: opening.functions,
    };
    let state = State::new(folder, user, &given)?;
    Ok(Opened {
        reader: Reader {
            state: Swapped::new(state),
            given,
            mode,
            unused,
        },
        defaults: opening.defaults,
        migrated,
        reset_from,
        in_place: opening.in_place,
        user_dir: opening.user_dir,
    })
}

/// The values given to the builder, by placeholder name: indexed again for every state,
/// since an edit may add or remove a user placeholder.
pub struct Given {
    pub statics: Vec<(String, String)>,
    pub computed: Vec<(String, Computed)>,
    /// Source documents by name, for static values.
    pub sources: Vec<(String, Arc<serde_json::Value>)>,
    /// Computed functions by the registry's `compute_function` name.
    pub functions: Vec<(String, Computed)>,
}

impl Given {
    /// A static key's value from its source document, as PromptEngine reads it; `None`
    /// when the builder was given no document of that name.
    fn source_value(&self, key: &Key) -> Option<String> {
        let source = key.source.as_deref()?;
        let (_, document) = self.sources.iter().rev().find(|(n, _)| n == source)?;
        let path = key.source_path.as_deref().unwrap_or("");
        let raw = if source == "user_profile" {
            document.get(path)
        } else {
            path.split('.')
                .try_fold(&**document, |value, part| value.as_object()?.get(part))
        };
        Some(match raw {
            None | Some(serde_json::Value::Null) => key.default.clone().unwrap_or_default(),
            Some(serde_json::Value::Array(items)) if key.list => {
                let separator = key.join_separator.as_deref().unwrap_or(", ");
                items
                    .iter()
                    .map(crate::value::python::str_of)
                    .collect::<Vec<_>>()
                    .join(separator)
            }
            Some(value) => crate::value::python::str_of(value),
        })
    }
}

/// What a render reads: one consistent version of the store, swapped whole by an edit.
pub struct State {
    pub folder: Arc<Folder>,
    /// Prompt indexes by `order`, stable: ties keep manifest order.
    pub by_order: Vec<usize>,
    /// The user layer as written (on disk, or in memory only): every file the checks read.
    pub user: Layer,
    /// Per key of `folder`: the static value given to the builder.
    statics: Vec<Option<String>>,
    /// Per key of `folder`: the computed function given to the builder.
    computed: Vec<Option<Computed>>,
    /// The length of the last text an assembly built: the next one's first capacity.
    length_hint: std::sync::atomic::AtomicUsize,
    /// Per key: its value when it is the same in every render (a static value or a
    /// registry `default` with no computed function), unless a runtime value overrides it.
    fixed: Vec<Option<String>>,
    /// Per prompt, per variant: its text with the fixed values merged into the literals
    /// (`None` for messages), rendered when no runtime value names a fixed key.
    baked: Vec<Vec<Option<super::parsed::Text>>>,
    /// Per variant name any prompt has: each prompt's variant rendered for it
    /// ([`PromptDef::variant_index`]); the last entry, named `""`, is for every other name.
    plans: Vec<(String, Vec<Option<usize>>)>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("folder", &self.folder)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

impl State {
    /// The state of `folder`: its values indexed by key. Every static and computed key
    /// needs a value or a registry `default` (all that lack one are listed); a value for
    /// a key the folder no longer has (a removed user placeholder) is unused.
    pub fn new(folder: Arc<Folder>, user: Layer, given: &Given) -> Result<State, StoreError> {
        let n = folder.keys.len();
        let mut statics: Vec<Option<String>> = vec![None; n];
        let mut computed: Vec<Option<Computed>> = vec![None; n];
        for (key, value) in &given.statics {
            if let Some(i) = folder.key(key) {
                statics[i] = Some(value.clone());
            }
        }
        for (i, key) in folder.keys.iter().enumerate() {
            match key.phase {
                Phase::Static if statics[i].is_none() => statics[i] = given.source_value(key),
                Phase::Computed => {
                    computed[i] = key.compute_function.as_deref().and_then(|name| {
                        let (_, f) = given.functions.iter().rev().find(|(n, _)| n == name)?;
                        Some(Arc::clone(f))
                    })
                }
                _ => {}
            }
        }
        for (key, f) in &given.computed {
            if let Some(i) = folder.key(key) {
                computed[i] = Some(Arc::clone(f));
            }
        }
        let missing: Vec<String> = folder
            .keys
            .iter()
            .enumerate()
            .filter(|(i, k)| {
                k.phase != Phase::Runtime
                    && k.default.is_none()
                    && statics[*i].is_none()
                    && computed[*i].is_none()
            })
            .map(|(_, k)| k.name.clone())
            .collect();
        if !missing.is_empty() {
            return Err(StoreError::MissingValues { keys: missing });
        }
        let mut by_order: Vec<usize> = (0..folder.prompts.len()).collect();
        by_order.sort_by_key(|&i| folder.prompts[i].order);
        let fixed: Vec<Option<String>> = folder
            .keys
            .iter()
            .enumerate()
            .map(|(i, k)| match k.phase {
                Phase::Runtime => None,
                _ if computed[i].is_some() => None,
                _ => statics[i].clone().or_else(|| k.default.clone()),
            })
            .collect();
        let baked = folder
            .prompts
            .iter()
            .map(|p| {
                p.variants
                    .iter()
                    .map(|v| match &v.body {
                        super::parsed::Body::Text(t) => Some(t.baked(&fixed)),
                        super::parsed::Body::Messages(_) => None,
                    })
                    .collect()
            })
            .collect();
        let mut names: Vec<&str> = folder
            .prompts
            .iter()
            .flat_map(|p| p.variants.iter().map(|v| v.name.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        let plan = |name: &str| -> Vec<Option<usize>> {
            folder
                .prompts
                .iter()
                .map(|p| p.variant_index(name))
                .collect()
        };
        let mut plans: Vec<(String, Vec<Option<usize>>)> =
            names.iter().map(|n| ((*n).to_owned(), plan(n))).collect();
        // A name no prompt has: `default` everywhere (the empty name is no variant name).
        plans.push((String::new(), plan("")));
        Ok(State {
            folder,
            by_order,
            user,
            statics,
            computed,
            length_hint: std::sync::atomic::AtomicUsize::new(0),
            fixed,
            baked,
            plans,
        })
    }

    /// Each prompt's variant rendered for `variant`, by prompt index.
    pub fn plan(&self, variant: &str) -> &[Option<usize>] {
        let found = self.plans[..self.plans.len() - 1]
            .binary_search_by(|(n, _)| n.as_str().cmp(variant))
            .unwrap_or(self.plans.len() - 1);
        &self.plans[found].1
    }

    /// Whether a render with these runtime values may use the baked texts: none of them
    /// overrides a fixed value.
    pub fn bakeable(&self, runtime: &[(&str, &str)]) -> bool {
        runtime.iter().all(|(name, _)| {
            self.folder
                .key(name)
                .is_none_or(|i| self.fixed[i].is_none())
        })
    }

    /// Prompt `prompt`'s text of variant `variant` with the fixed values merged in.
    pub fn baked(&self, prompt: usize, variant: usize) -> Option<&super::parsed::Text> {
        self.baked.get(prompt)?.get(variant)?.as_ref()
    }

    pub fn length_hint(&self) -> usize {
        // Bounded, so that one huge render does not make every later one allocate as much.
        self.length_hint
            .load(std::sync::atomic::Ordering::Relaxed)
            .min(1 << 20)
    }

    pub fn note_length(&self, len: usize) {
        self.length_hint
            .store(len, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn values<'a>(&'a self, runtime: &'a [(&'a str, &'a str)]) -> Values<'a> {
        Values::new(&self.folder.keys, &self.statics, &self.computed, runtime)
    }
}

/// The names the registry's placeholders give in one field (`source`,
/// `compute_function`), sorted, each once.
pub fn registry_names<'f>(
    folder: &'f Folder,
    field: impl Fn(&'f Key) -> Option<&'f str>,
) -> Vec<&'f str> {
    let mut names: Vec<&str> = folder.keys.iter().filter_map(field).collect();
    names.sort_unstable();
    names.dedup();
    names
}
