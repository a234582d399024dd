//! PromptEngine store folders (PersonaUI's layout) behind the one interface.
//!
//! A folder with `_meta/prompt_manifest.json` is a store: its manifest names the prompts
//! (each id and its domain file), its placeholder registry the values they read. The
//! format reads such a folder whole and alone ([`Format::whole_folder`]), so `list`,
//! `render`, `check`, `diff`, `docs` and `tokens` reach a store's prompts as they reach
//! any other. Besides the prompts by id, PromptEngine's assemblies are prompts too:
//! `system_prompt`, `system_prompt_append`, `prefill`, `first_assistant`,
//! `dialog_injections` and `chat` (a prompt with the same id wins).
//!
//! A store opens with every static and computed value it needs ([`Defaults::required`]),
//! whichever prompt is rendered: those are required values of each of its prompts. A
//! value given that the registry does not name is an error with a did-you-mean; one the
//! registry names that the prompt does not read is the store's and is taken.

use crate::chat::{Chat, Message};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::formats::front::{
    Claim, Format, Given, GivenValue, LoadedPrompt, Output, ValueUse, Values, unread_value,
};
use crate::load::Project;
use crate::meta::Meta;
use crate::render::PromptContent;
use crate::store::reader::{self, OpenHooks, Opening, READ_ONLY, Reader};
use crate::store::{Defaults, Phase, SequenceEntry, StoreError, layout};
use std::borrow::Cow;
use std::path::PathBuf;

/// The PromptEngine store format.
pub struct PromptEngine;

/// The one [`PromptEngine`].
pub static PROMPTENGINE: PromptEngine = PromptEngine;

/// The names PromptEngine's assemblies are rendered by (a prompt with the same id wins).
pub const ASSEMBLIES: &[&str] = &[
    "system_prompt",
    "system_prompt_append",
    "prefill",
    "first_assistant",
    "dialog_injections",
    "chat",
];

impl Format for PromptEngine {
    fn name(&self) -> &'static str {
        "promptengine"
    }

    fn title(&self) -> &'static str {
        "PromptEngine"
    }

    fn language(&self) -> &'static str {
        "json"
    }

    /// A store's prompts are named by id, not by file.
    fn endings(&self) -> &'static [&'static str] {
        &[]
    }

    /// Nothing of a folder read file by file: a store is read whole.
    fn claim(&self, rel: &str) -> Option<Claim> {
        let _ = rel;
        None
    }

    fn whole_folder(&self, project: &Project) -> bool {
        layout::is_store_dir(&project.dir)
    }

    fn list(&self, project: &Project) -> Result<Vec<(String, String)>, Diagnostics> {
        let defaults = defaults(project)?;
        Ok(defaults
            .prompts()
            .map(|p| (p.id().to_owned(), p.file().to_owned()))
            .collect())
    }

    fn load(&self, project: &Project, name: &str) -> Result<Box<dyn LoadedPrompt>, Diagnostics> {
        Ok(Box::new(self.load_store(project, name)?))
    }
}

impl PromptEngine {
    /// Loads prompt (or assembly) `name` of the store folder `project` reads, as
    /// PromptEngine reads the folder.
    pub fn load_store(&self, project: &Project, name: &str) -> Result<StorePrompt, Diagnostics> {
        self.load_named(project, name, true)
    }

    /// [`PromptEngine::load_store`] for a render over a user's folder
    /// ([`StoreOptions::user`]), whose prompts the store's folder does not name: an id the
    /// folder lacks is looked for when the render reads the user's folder.
    pub fn load_layered(&self, project: &Project, name: &str) -> Result<StorePrompt, Diagnostics> {
        self.load_named(project, name, false)
    }

    fn load_named(
        &self,
        project: &Project,
        name: &str,
        known: bool,
    ) -> Result<StorePrompt, Diagnostics> {
        let defaults = defaults(project)?;
        let info = defaults.prompts().find(|p| p.id() == name);
        if known && info.is_none() && !ASSEMBLIES.contains(&name) {
            let ids: Vec<&str> = defaults
                .prompt_ids()
                .chain(ASSEMBLIES.iter().copied())
                .collect();
            let d = Diagnostic::new(format!(
                "the store `{}` has no prompt `{name}`",
                project.display
            ));
            let d = match crate::suggest::closest(name, ids.iter().copied()) {
                Some(close) => d.with_help(format!("did you mean `{close}`?")),
                None => d.with_help(format!(
                    "its prompts are {}, and the assemblies {}",
                    quoted(defaults.prompt_ids()),
                    quoted(ASSEMBLIES.iter().copied())
                )),
            };
            return Err(d.into());
        }
        let file = match &info {
            Some(p) => p.file().to_owned(),
            None => layout::MANIFEST.to_owned(),
        };
        let mut meta = Meta::default();
        if let Some(p) = &info {
            meta.title = p.label().map(|l| Cow::Owned(l.to_owned()));
            meta.description = p.description().map(|d| Cow::Owned(d.to_owned()));
        }
        // Its own placeholders first, then what the store needs to open; an assembly
        // reads every placeholder of the registry.
        let phases: Vec<(String, Phase)> = defaults
            .placeholders()
            .map(|(k, p)| (k.to_owned(), p))
            .collect();
        let required: Vec<&str> = defaults.required().collect();
        let own: Vec<String> = match &info {
            Some(p) => p.placeholders().map(str::to_owned).collect(),
            None => phases.iter().map(|(k, _)| k.clone()).collect(),
        };
        let mut reads: Vec<ValueUse> = Vec::new();
        for key in own
            .iter()
            .map(String::as_str)
            .chain(required.iter().copied())
        {
            if reads.iter().any(|r| r.name == key) {
                continue;
            }
            // A runtime value a prompt's own text reads is needed by its render (an
            // assembly leaves out a prompt whose `requires_any` values are missing).
            let runtime =
                info.is_some() && phases.iter().any(|(k, p)| k == key && *p == Phase::Runtime);
            reads.push(ValueUse::new(
                key,
                "text",
                runtime || required.contains(&key),
            ));
        }
        Ok(StorePrompt {
            name: name.to_owned(),
            path: format!("{}/{file}", project.display),
            file,
            dir: project.dir.clone(),
            display: project.display.clone(),
            defaults: defaults.clone(),
            phases,
            reads,
            meta,
            hooks: &READ_ONLY,
        })
    }
}

/// The store `project`'s folder holds, as PromptEngine reads it: read once per project.
fn defaults(project: &Project) -> Result<Defaults, Diagnostics> {
    project
        .store
        .get_or_init(|| Defaults::__load_folder_as(&project.dir, &project.display))
        .clone()
}

/// Names as a message lists them: the first twelve, and how many more.
fn quoted<'a>(names: impl Iterator<Item = &'a str>) -> String {
    const SHOWN: usize = 12;
    let names: Vec<&str> = names.collect();
    let mut out: Vec<String> = names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
    if names.len() > SHOWN {
        out.push(format!("{} more", names.len() - SHOWN));
    }
    out.join(", ")
}

/// How a store prompt is rendered beyond its values: PromptEngine's own choices.
#[derive(Clone, Debug, Default)]
pub struct StoreOptions {
    /// The variant (`default` when not given).
    pub variant: Option<String>,
    /// Only the prompts of this category, for the `system_prompt` and `prefill`
    /// assemblies.
    pub category: Option<String>,
    /// The user's folder, layered over the store's (PromptEngine's user prompts).
    pub user: Option<PathBuf>,
    /// Source documents for static placeholders (`persona_config`), by name.
    pub sources: Vec<(String, serde_json::Value)>,
    /// Render as PromptEngine's preview does: a missing value shows as its placeholder.
    pub preview: bool,
}

/// A prompt (or an assembly) of a PromptEngine store, checked.
pub struct StorePrompt {
    name: String,
    path: String,
    file: String,
    dir: PathBuf,
    display: String,
    /// The folder as PromptEngine reads it, read once per project.
    defaults: Defaults,
    phases: Vec<(String, Phase)>,
    reads: Vec<ValueUse>,
    meta: Meta,
    /// What opening the store does besides reading it: nothing unless the store's writer
    /// gives its own ([`StorePrompt::with_hooks`]).
    hooks: &'static dyn OpenHooks,
}

/// A value as a store takes it: text (a JSON string's text, any other JSON as written);
/// `None` for a JSON `null`, which leaves the value out. JSON no reader takes (nested too
/// deep) is an error.
fn given_text(given: &Given) -> Result<Option<String>, Diagnostic> {
    match &given.value {
        GivenValue::Text(text) => Ok(Some(text.clone())),
        GivenValue::Json(json) => match serde_json::from_str(json) {
            Ok(serde_json::Value::String(text)) => Ok(Some(text)),
            Ok(serde_json::Value::Null) => Ok(None),
            Ok(other) => Ok(Some(other.to_string())),
            Err(e) => Err(given.unreadable(&e.to_string())),
        },
        GivenValue::Unwritable(why) => Err(given.unwritable(why)),
    }
}

/// A store's error as diagnostics.
fn diagnostics(e: StoreError) -> Diagnostics {
    match e {
        StoreError::Invalid(problems) => problems,
        StoreError::Refused { problems, .. } => *problems,
        StoreError::MissingValues { keys } => Diagnostics::from(
            Diagnostic::new(format!(
                "no value for the static or computed placeholder{} {}",
                if keys.len() == 1 { "" } else { "s" },
                keys.iter()
                    .map(|k| format!("`{{{{{k}}}}}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .with_help("give each with `--set NAME=VALUE`, or its source document with `--source NAME=FILE.json`"),
        ),
        other => Diagnostics::from(Diagnostic::new(other.to_string())),
    }
}

impl StorePrompt {
    /// The same prompt, its store opened with `hooks` (the store's writer gives hooks that
    /// hold the user folder's lock while it is read, so that a render never reads half of
    /// another process's edit).
    pub fn with_hooks(mut self, hooks: &'static dyn OpenHooks) -> StorePrompt {
        self.hooks = hooks;
        self
    }

    /// Renders with `values` and PromptEngine's `options`. A value the registry does not
    /// name is an error (with a did-you-mean, unless a context file gave it); a static or
    /// computed value sets it for the store, a runtime one is given to the render. With
    /// the render come the store's warnings: a source document no placeholder names.
    pub fn render_with(
        &self,
        values: &Values,
        options: &StoreOptions,
    ) -> Result<(Output, Diagnostics), Diagnostics> {
        let store = self.open(values, options)?;
        self.render_opened(&store, values, options)
    }

    /// The chat's assembly plan (PromptEngine's `get_chat_message_sequence`) of the store
    /// `values` and `options` open.
    pub fn sequence(
        &self,
        values: &Values,
        options: &StoreOptions,
    ) -> Result<Vec<SequenceEntry>, Diagnostics> {
        let store = self.open(values, options)?;
        Ok(store.get_chat_message_sequence(options.variant.as_deref().unwrap_or("default")))
    }

    /// The store with `values` set: static and computed ones on the builder, runtime
    /// ones checked against the registry here and given to each render.
    fn open(&self, values: &Values, options: &StoreOptions) -> Result<Reader, Diagnostics> {
        let mut opening = match &options.user {
            // The folder as the project read it, not read again.
            None => {
                let mut opening = Opening::new(self.defaults.clone());
                opening.in_place = Some(self.dir.clone());
                opening
            }
            Some(user) => {
                let mut opening = Opening::new(Defaults::__load_as(&self.dir, &self.display)?);
                opening.user_dir = Some(user.clone());
                opening
            }
        };
        let mut problems = Diagnostics::default();
        let registry: Vec<ValueUse> = self
            .phases
            .iter()
            .map(|(k, _)| ValueUse::new(k.clone(), "text", false))
            .collect();
        let against = values.against(&registry);
        for given in values.latest() {
            let text = match given_text(given) {
                Ok(Some(text)) => text,
                Ok(None) => continue,
                Err(problem) => {
                    problems.push(problem);
                    continue;
                }
            };
            match self.phases.iter().find(|(k, _)| *k == given.name) {
                Some((_, Phase::Runtime)) => {}
                Some((key, _)) => opening.statics.push((key.clone(), text)),
                None if against.must_read(given) => problems.push(unread_value(
                    given,
                    &registry,
                    format!(
                        "{}: the registry of `{}` has no placeholder `{}`",
                        given.origin_text(),
                        self.display,
                        given.name
                    ),
                )),
                None => {}
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        for (name, document) in &options.sources {
            opening
                .sources
                .push((name.clone(), std::sync::Arc::new(document.clone())));
        }
        // A render reads: it changes no folder (PromptEngine's migration of an older
        // layout moves prompts between its manifests, never changing what they show).
        reader::open(opening, self.hooks)
            .map(|opened| opened.reader)
            .map_err(diagnostics)
    }

    /// The render of an opened store.
    fn render_opened(
        &self,
        store: &Reader,
        values: &Values,
        options: &StoreOptions,
    ) -> Result<(Output, Diagnostics), Diagnostics> {
        let mut runtime: Vec<(String, String)> = Vec::new();
        for given in values.latest() {
            // A value no reader takes was refused when the store was opened.
            if let (Ok(Some(text)), Some((_, Phase::Runtime))) = (
                given_text(given),
                self.phases.iter().find(|(k, _)| *k == given.name),
            ) {
                runtime.push((given.name.clone(), text));
            }
        }
        let runtime: Vec<(&str, &str)> = runtime
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let variant = options.variant.as_deref().unwrap_or("default");
        let category = options.category.as_deref().unwrap_or("");
        let preview = store.preview();
        let name = self.name.as_str();
        // Every operation strict, or as a preview: the same calls on the view.
        macro_rules! call {
            ($method:ident($($arg:expr),*)) => {
                if options.preview {
                    preview.$method($($arg),*)
                } else {
                    store.$method($($arg),*)
                }
                .map_err(diagnostics)?
            };
        }
        enum Out {
            Text(String),
            Messages(Vec<Message>),
        }
        // A prompt of the user's folder is known once it is read.
        let entry = store.get_all_prompts().into_iter().find(|p| p.id == name);
        let out = if entry.as_ref().is_some_and(|e| e.multi_turn) {
            Out::Messages(call!(prompt_messages(name, variant, &runtime)))
        } else if entry.is_some() || !ASSEMBLIES.contains(&name) {
            Out::Text(call!(resolve_prompt(name, variant, &runtime)))
        } else {
            match name {
                "system_prompt" => Out::Text(call!(build_system_prompt_filtered(
                    variant, &runtime, category
                ))),
                "system_prompt_append" => {
                    Out::Text(call!(get_system_prompt_append(variant, &runtime)))
                }
                "prefill" => Out::Text(call!(build_prefill_filtered(variant, &runtime, category))),
                "first_assistant" => {
                    Out::Text(call!(get_first_assistant_content(variant, &runtime)))
                }
                "dialog_injections" => {
                    Out::Messages(call!(get_dialog_injections(variant, &runtime)))
                }
                _ => Out::Messages(call!(render_chat_message_sequence(variant, &runtime))),
            }
        };
        let (path, metadata) = (Cow::Owned(self.path.clone()), Cow::Owned(self.meta.clone()));
        let output = match out {
            Out::Text(text) => Output::Text(PromptContent {
                text,
                path,
                metadata,
                breakpoints: Vec::new(),
            }),
            Out::Messages(messages) => Output::Chat(Chat {
                messages,
                path,
                metadata,
                breakpoints: Vec::new(),
            }),
        };
        Ok((output, store.unused.clone()))
    }
}

impl LoadedPrompt for StorePrompt {
    fn name(&self) -> &str {
        &self.name
    }

    fn path(&self) -> &str {
        &self.path
    }

    fn format(&self) -> &'static dyn Format {
        &PROMPTENGINE
    }

    fn files(&self) -> Vec<String> {
        let mut files = vec![layout::MANIFEST.to_owned(), layout::REGISTRY.to_owned()];
        if self.file != layout::MANIFEST {
            files.push(self.file.clone());
        }
        files
    }

    fn reads(&self) -> &[ValueUse] {
        &self.reads
    }

    /// The manifest, the registry and its own file (every prompt's, for an assembly), as
    /// the folder holds them: read when asked, not on every load.
    fn version(&self) -> String {
        let mut files: Vec<&str> = vec![layout::MANIFEST, layout::REGISTRY];
        if self.file == layout::MANIFEST {
            files.extend(self.defaults.prompts().map(|p| p.file()));
        } else {
            files.push(&self.file);
        }
        files.sort_unstable();
        files.dedup();
        let root = crate::load::Root::new(&self.dir, &self.display);
        let texts: Vec<(&str, String)> = files
            .into_iter()
            .map(|f| {
                let text = root.read(f).ok().flatten().unwrap_or_default();
                (f, String::from_utf8_lossy(&text).into_owned())
            })
            .collect();
        super::version_of(texts.iter().map(|(f, t)| (*f, t.as_str())))
    }

    fn meta(&self) -> &Meta {
        &self.meta
    }

    fn render(&self, values: &Values) -> Result<Output, Diagnostics> {
        Ok(self.render_with(values, &StoreOptions::default())?.0)
    }
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn a_long_list_of_names_is_cut_short() {
        let few = ["a", "b"];
        assert_eq!(quoted(few.iter().copied()), "`a`, `b`");
        let many: Vec<String> = (0..2000).map(|i| format!("p{i}")).collect();
        let text = quoted(many.iter().map(String::as_str));
        assert!(text.ends_with("`p11`, 1988 more"), "{text}");
    }
}
