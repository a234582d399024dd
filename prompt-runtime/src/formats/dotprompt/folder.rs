//! A folder of dotprompt files, read as the derive and the `promptic` command both read it:
//! `NAME.prompt` prompts, `_NAME.prompt` partials (found when a prompt names them), and the
//! `schemas.json` and `tools.json` registries. Every file goes through the folder's guarded
//! reader ([`Root`]): inside the folder, regular files only, at most
//! [`MAX_FILE`](crate::load::MAX_FILE) bytes. A loaded prompt has passed every check that
//! needs no Rust type: the dotprompt reader's, [`check_input_paths`], that its cacheable
//! prefix is static ([`Dotprompt::check_breakpoints`]), and that not every render fails
//! ([`Dotprompt::sure_render_failure`]).
//!
//! ```
//! use promptic::dotprompt::folder::Folder;
//! use promptic::load::Root;
//!
//! let dir = std::env::temp_dir().join(format!("pk-dotprompt-folder-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("_sign.prompt"), "Bye.")?;
//! std::fs::write(dir.join("schemas.json"), r#"{"Ticket": {"type": "object"}}"#)?;
//! std::fs::write(
//!     dir.join("greet.prompt"),
//!     "---\ninput:\n  schema:\n    name: string\n    ticket: Ticket\n---\nHello {{nmae}}. {{> sign}}",
//! )?;
//! let folder = Folder::open(Root::new(&dir, "prompts"))?;
//! let problems = folder.load("greet").unwrap_err().to_string();
//! assert!(problems.contains("--> prompts/greet.prompt:7:9"));
//! assert!(problems.contains("did you mean `name`?"));
//!
//! std::fs::write(
//!     dir.join("greet.prompt"),
//!     "---\ninput:\n  schema:\n    name: string\n    ticket: Ticket\n---\nHello {{name}}. {{> sign}}",
//! )?;
//! let loaded = folder.load("greet")?;
//! assert_eq!(loaded.partials[0].path, "prompts/_sign.prompt");
//! assert_eq!(folder.registry_files()[0].path, "prompts/schemas.json");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::schema::check_input_paths;
use super::{Dotprompt, Registry, Value};
use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use crate::source::Root;
use std::sync::{Arc, Mutex};

/// A file a prompt was read from: its name (a partial's name, `schemas.json`), the path
/// diagnostics show, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderFile {
    pub name: String,
    pub path: String,
    pub text: String,
}

/// A folder of dotprompt files with its registries read.
#[derive(Clone, Debug)]
pub struct Folder {
    root: Root,
    base: Registry,
    registry_files: Vec<FolderFile>,
}

/// A prompt of the folder, checked, with every file it was read from.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub prompt: Dotprompt,
    /// The prompt file itself (`name` is the prompt's name).
    pub file: FolderFile,
    /// The partials it includes, each once, in the order they were first read.
    pub partials: Vec<FolderFile>,
}

impl Loaded {
    /// The digest of what the prompt renders from (see
    /// [`LoadedPrompt::version`](crate::formats::LoadedPrompt::version)): its file, its
    /// partials and the folder's registries, each by name with its text.
    pub fn version(&self, folder: &Folder) -> String {
        let files = std::iter::once(&self.file)
            .chain(&self.partials)
            .chain(folder.registry_files());
        crate::formats::version_of(files.map(|f| (f.path.as_str(), f.text.as_str())))
    }
}

impl Folder {
    /// Reads the folder's `schemas.json` and `tools.json` (each a JSON object from a name
    /// to its definition; a missing file is an empty registry).
    pub fn open(root: Root) -> Result<Folder, Diagnostics> {
        let mut base = Registry::new();
        let mut registry_files = Vec::new();
        let mut problems = Diagnostics::default();
        for file in ["schemas.json", "tools.json"] {
            match registry_file(&root, file) {
                Ok(None) => {}
                Ok(Some((entries, read))) => {
                    for (name, definition) in entries {
                        if file == "schemas.json" {
                            base.define_schema(&name, definition);
                        } else {
                            base.define_tool(&name, definition);
                        }
                    }
                    registry_files.push(read);
                }
                Err(e) => problems.push(e),
            }
        }
        problems.into_result(Folder {
            root,
            base,
            registry_files,
        })
    }

    /// Registers a helper the folder's prompts call (see [`Registry::define_helper`]):
    /// prompts loaded after it know its name.
    pub fn define_helper(
        &mut self,
        name: &str,
        helper: impl Fn(&super::HelperArgs<'_>) -> Result<Value, String> + Send + Sync + 'static,
    ) -> Result<&mut Self, Diagnostic> {
        self.base.define_helper(name, helper)?;
        Ok(self)
    }

    /// The folder's reader.
    pub fn root(&self) -> &Root {
        &self.root
    }

    /// The registry files that were read (`schemas.json`, `tools.json`), to embed or watch.
    pub fn registry_files(&self) -> &[FolderFile] {
        &self.registry_files
    }

    /// Reads and checks the prompt `name` (`NAME.prompt`, `/` for subfolders), with the
    /// partials it includes (`{{> sign}}` reads `_sign.prompt`; `{{> sub/sign}}` reads
    /// `sub/_sign.prompt`). A partial that cannot be read (a link out of the folder, a FIFO,
    /// invalid UTF-8) is reported as itself.
    pub fn load(&self, name: &str) -> Result<Loaded, Diagnostics> {
        self.load_traced(name, &mut Vec::new())
    }

    /// [`load`](Self::load), recording in `asked` the file of every partial the prompt
    /// names (`_sign.prompt`, `sub/_sign.prompt`, relative to the folder), found or not,
    /// refused or read: what to watch for a change.
    pub fn load_traced(&self, name: &str, asked: &mut Vec<String>) -> Result<Loaded, Diagnostics> {
        let rel = format!("{name}.prompt");
        let shown = self.root.shown(&rel);
        let valid = !name.is_empty() && name.split('/').all(|s| !s.is_empty() && s != "..");
        let text = match valid.then(|| read_text(&self.root, &rel)) {
            Some(Ok(Some(text))) => text,
            Some(Ok(None)) | None => {
                return Err(Diagnostic::new(format!("cannot read `{shown}`: not found")).into());
            }
            Some(Err(e)) => return Err(e.into()),
        };
        let read: Arc<Mutex<Vec<FolderFile>>> = Arc::default();
        let named: Arc<Mutex<Vec<String>>> = Arc::default();
        let refused: Arc<Mutex<Diagnostics>> = Arc::default();
        let refused_names: Arc<Mutex<Vec<String>>> = Arc::default();
        let mut registry = self.base.clone();
        registry.set_partial_display_dir(&self.root.shown(""));
        {
            let (read, refused, root) = (read.clone(), refused.clone(), self.root.clone());
            let (named, refused_names) = (named.clone(), refused_names.clone());
            registry.set_partial_resolver(move |partial| {
                let rel = partial_file(partial)?;
                if let Ok(mut named) = named.lock()
                    && !named.contains(&rel)
                {
                    named.push(rel.clone());
                }
                let text = match read_text(&root, &rel) {
                    Ok(text) => text?,
                    Err(d) => {
                        if let Ok(mut refused) = refused.lock() {
                            refused.push(d);
                        }
                        if let Ok(mut names) = refused_names.lock() {
                            names.push(partial.to_owned());
                        }
                        return None;
                    }
                };
                if let Ok(mut read) = read.lock() {
                    read.push(FolderFile {
                        name: partial.to_owned(),
                        path: root.shown(&rel),
                        text: text.clone(),
                    });
                }
                Some(text)
            });
        }
        let parsed = registry.parse_file(&shown, &text);
        asked.extend(named.lock().map(|n| n.clone()).unwrap_or_default());
        let mut problems = refused.lock().map(|r| r.clone()).unwrap_or_default();
        let prompt = match parsed {
            Ok(prompt) if problems.is_empty() => prompt,
            Ok(_) => return Err(problems),
            Err(more) => {
                // A partial refused is reported as itself, not again as unknown.
                let unknown: Vec<String> = refused_names
                    .lock()
                    .map(|n| n.iter().map(|n| format!("unknown partial `{n}`")).collect())
                    .unwrap_or_default();
                problems.extend(
                    more.into_iter()
                        .filter(|d| !unknown.iter().any(|u| d.message() == u)),
                );
                return Err(problems);
            }
        };
        check_input_paths(&prompt).into_result(())?;
        prompt.check_breakpoints()?;
        // A prompt whose every render fails (a partial that includes itself, partials that
        // expand past the render's bound) is broken, whatever its values.
        if let Some(failure) = prompt.sure_render_failure() {
            return Err(failure.into());
        }
        let partials = read.lock().map(|r| r.clone()).unwrap_or_default();
        Ok(Loaded {
            prompt,
            file: FolderFile {
                name: name.to_owned(),
                path: shown,
                text,
            },
            partials,
        })
    }

    /// Checks a partial on its own (`_NAME.prompt`, named `NAME`), for a partial no prompt
    /// includes.
    pub fn check_partial(&self, name: &str) -> Result<(), Diagnostics> {
        let Some(rel) = partial_file(name) else {
            return Err(Diagnostic::new(format!("`{name}` is not a partial's name")).into());
        };
        let Some(text) = read_text(&self.root, &rel)? else {
            return Err(Diagnostic::new(format!(
                "cannot read `{}`: not found",
                self.root.shown(&rel)
            ))
            .into());
        };
        Registry::new()
            .define_partial_file(name, &self.root.shown(&rel), &text)
            .map(|_| ())
    }
}

/// The file of the partial `sub/name`, relative to the folder (`sub/_name.prompt`); `None`
/// for a name that is not letters, digits, `_` and `-` in each part.
///
/// ```
/// use promptic::dotprompt::folder::partial_file;
///
/// assert_eq!(partial_file("sub/sign").as_deref(), Some("sub/_sign.prompt"));
/// assert_eq!(partial_file("../x"), None);
/// ```
pub fn partial_file(partial: &str) -> Option<String> {
    let plain = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    let (dir, base) = match partial.rsplit_once('/') {
        Some((dir, base)) => (Some(dir), base),
        None => (None, partial),
    };
    if !plain(base) || dir.is_some_and(|d| !d.split('/').all(plain)) {
        return None;
    }
    Some(match dir {
        Some(dir) => format!("{dir}/_{base}.prompt"),
        None => format!("_{base}.prompt"),
    })
}

/// A registry file of the folder: `Ok(None)` when there is none.
#[allow(clippy::type_complexity)]
fn registry_file(
    root: &Root,
    file: &str,
) -> Result<Option<(Vec<(String, Value)>, FolderFile)>, Diagnostic> {
    let Some(text) = read_text(root, file)? else {
        return Ok(None);
    };
    let shown = root.shown(file);
    match crate::value::js::from_str(&text) {
        Ok(Value::Object(object)) => {
            let entries = object
                .iter()
                .map(|(k, v)| (k.to_owned(), v.clone()))
                .collect();
            let read = FolderFile {
                name: file.to_owned(),
                path: shown,
                text,
            };
            Ok(Some((entries, read)))
        }
        Ok(_) => Err(Diagnostic::new(format!("`{shown}` is not a JSON object"))
            .in_file(&shown)
            .with_help("write an object from each name to its definition")),
        Err(e) => Err(Diagnostic::new(format!("`{shown}` is not valid JSON: {e}")).in_file(&shown)),
    }
}

/// Reads `rel` through the folder's guarded reader, as UTF-8 (an invalid byte is an error
/// at its line and column). The text is kept as written: a BOM and CRLF line ends reach
/// the dotprompt reader as dotprompt's JavaScript reader sees them. `Ok(None)`: no such
/// file.
pub fn read_text(root: &Root, rel: &str) -> Result<Option<String>, Diagnostic> {
    let shown = root.shown(rel);
    let Some(bytes) = root.read(rel)? else {
        return Ok(None);
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Some(text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let byte = e.as_bytes()[at];
            let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let source = SourceFile::new(&shown, lossy);
            // The lossy text is the same bytes up to `at`, then U+FFFD (3 bytes).
            Err(Diagnostic::new(format!(
                "`{shown}` is not valid UTF-8: invalid byte 0x{byte:02x}"
            ))
            .at(&source, at..at + 3)
            .with_help("save the file as UTF-8"))
        }
    }
}
