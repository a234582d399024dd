//! A prompts folder: its configuration, its templates, and the prompts in it.
//!
//! The macro, the CLI and applications open a folder the same way, so they see the same
//! identity schema, templates and literals, and report the same problems.

use super::PromptFile;
use super::config::Config;
use crate::check::{self, CheckedPrompt};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::parse::lexer::is_name;
use crate::resolve::{ContextVar, Schema, Templates};
use std::path::{Component, Path, PathBuf};

/// An opened prompts folder.
#[derive(Clone, Debug)]
pub struct Project {
    /// The folder on disk.
    pub dir: PathBuf,
    /// How the folder is shown in diagnostics (`prompts`).
    pub display: String,
    /// `promptkit.json`, or the defaults.
    pub config: Config,
    /// Every template, by name.
    pub templates: Templates,
    /// Every file read so far (configuration and templates), for rebuild tracking.
    pub files: Vec<PathBuf>,
}

impl Project {
    /// Opens `dir`, shown in diagnostics as `display`: reads its configuration and every
    /// template in the templates folder.
    pub fn open(dir: &Path, display: &str) -> Result<Project, Diagnostics> {
        let mut diagnostics = Diagnostics::default();
        if dir.exists() && !dir.is_dir() {
            return Err(
                Diagnostic::new(format!("the prompts folder `{display}` is not a folder"))
                    .in_file(display)
                    .with_help("name the folder that holds the prompt files")
                    .into(),
            );
        }
        if !dir.is_dir() {
            return Err(
                Diagnostic::new(format!("the prompts folder `{display}` does not exist"))
                    .in_file(display)
                    .with_help(format!(
                        "create `{display}/` beside Cargo.toml and put the prompt files in it"
                    ))
                    .into(),
            );
        }
        // A folder that cannot be listed says so, rather than passing for an empty one.
        if let Err(e) = std::fs::read_dir(dir) {
            return Err(Diagnostic::new(format!(
                "cannot read the prompts folder `{display}`: {e}"
            ))
            .in_file(display)
            .into());
        }
        let config = Config::load(dir, display)?;
        let mut files = Vec::new();
        if let Some(path) = &config.path {
            files.push(path.clone());
        }
        let mut templates = Templates::new();
        let template_dir = dir.join(&config.templates);
        let template_display = format!("{display}/{}", config.templates);
        if template_dir.is_dir() {
            let mut entries: Vec<PathBuf> = match std::fs::read_dir(&template_dir) {
                Ok(read) => read.filter_map(|e| e.ok().map(|e| e.path())).collect(),
                Err(e) => {
                    return Err(
                        Diagnostic::new(format!("cannot read `{template_display}`: {e}"))
                            .in_file(&template_display)
                            .into(),
                    );
                }
            };
            entries.sort();
            for path in entries {
                if path.extension().is_none_or(|e| e != "md") || !path.is_file() {
                    continue;
                }
                let stem = path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default()
                    .to_owned();
                let shown = format!("{template_display}/{stem}.md");
                if !is_name(&stem) {
                    diagnostics.push(
                        Diagnostic::new(format!(
                            "template `{shown}` cannot be used: `{stem}` is not a placeholder name"
                        ))
                        .in_file(&shown)
                        .with_help(
                            "name templates with letters, digits and `_` (`daily_preamble.md`)",
                        ),
                    );
                    continue;
                }
                files.push(path.clone());
                match read(&path, &shown).and_then(|bytes| PromptFile::from_bytes(&shown, &bytes)) {
                    Ok(mut file) => {
                        if !file.declares_syntax() {
                            file.syntax = config.placeholders;
                        }
                        templates.insert(stem, file)
                    }
                    Err(problems) => diagnostics.extend(problems),
                }
            }
        }
        diagnostics.into_result(Project {
            dir: dir.to_owned(),
            display: display.to_owned(),
            config,
            templates,
            files,
        })
    }

    /// The file of prompt `name` (`segment` → `prompts/segment.md`). Names with `..`,
    /// absolute names, and names whose file resolves outside the folder (through a symlink,
    /// say) are refused.
    pub fn prompt_path(&self, name: &str) -> Result<PathBuf, Diagnostic> {
        let shown = format!("{}/{name}.md", self.display);
        let relative = Path::new(name);
        let escapes = name.is_empty()
            || relative.is_absolute()
            || name.contains('\\')
            || relative
                .components()
                .any(|c| !matches!(c, Component::Normal(_)));
        if escapes {
            return Err(Diagnostic::new(format!("prompt name `{name}` must stay inside `{}/`", self.display))
                .with_help("name the prompt by its path under the prompts folder, without `.`, `..` or a leading `/` (`agents/helper`)"));
        }
        if relative.starts_with(&self.config.templates) {
            return Err(
                Diagnostic::new(format!("`{shown}` is a template, not a prompt")).with_help(
                    format!(
                        "use it in a prompt as `${}`",
                        relative
                            .file_name()
                            .and_then(|n| n.to_str())
                            .unwrap_or(name)
                    ),
                ),
            );
        }
        let path = self.dir.join(format!("{name}.md"));
        if path.is_symlink() && !path.exists() {
            return Err(
                Diagnostic::new(format!("prompt file `{shown}` is a symlink to nothing"))
                    .with_help(
                        "point the symlink at a prompt file inside the folder, or remove it",
                    ),
            );
        }
        if !path.is_file() {
            let mut d = Diagnostic::new(format!("prompt file `{shown}` not found"));
            let names = self.prompt_names().unwrap_or_default();
            d = match crate::suggest::closest(name, names.iter().map(String::as_str)) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None => d.with_help(format!(
                    "create `{shown}`, or name one of the prompts in `{}/`",
                    self.display
                )),
            };
            return Err(d);
        }
        let inside = match (path.canonicalize(), self.dir.canonicalize()) {
            (Ok(file), Ok(dir)) => file.starts_with(dir),
            _ => false,
        };
        if !inside {
            return Err(Diagnostic::new(format!(
                "prompt file `{shown}` resolves outside `{}/`",
                self.display
            ))
            .with_help(
                "a prompt must live inside the prompts folder; a symlink may not lead out of it",
            ));
        }
        Ok(path)
    }

    /// Loads prompt `name`.
    pub fn load_prompt(&self, name: &str) -> Result<PromptFile, Diagnostics> {
        let path = self.prompt_path(name)?;
        let shown = format!("{}/{name}.md", self.display);
        let bytes = read(&path, &shown)?;
        let mut file = PromptFile::from_bytes(&shown, &bytes)?;
        if !file.declares_syntax() {
            file.syntax = self.config.placeholders;
        }
        Ok(file)
    }

    /// The schema for a prompt with these context variables.
    pub fn schema(&self, context: Vec<ContextVar>) -> Schema {
        Schema {
            context,
            identity: self.config.identity.keys().map(str::to_owned).collect(),
            literals: self.config.literals.clone(),
            missing_hint: None,
        }
    }

    /// Loads and checks prompt `name` against these context variables.
    pub fn check(
        &self,
        name: &str,
        context: Vec<ContextVar>,
    ) -> Result<CheckedPrompt, Diagnostics> {
        let file = self.load_prompt(name)?;
        check::check(name, file, self.schema(context), &self.templates)
    }

    /// Loads and checks prompt `name`, taking its context variables from the names it uses
    /// (see [`check::infer_context`]): for prompts without a typed context.
    pub fn check_inferred(&self, name: &str) -> Result<CheckedPrompt, Diagnostics> {
        let file = self.load_prompt(name)?;
        let schema = self.schema(Vec::new());
        let context =
            check::infer_context(&file, &schema.identity, &schema.literals, &self.templates);
        check::check(name, file, self.schema(context), &self.templates)
    }

    /// Every prompt in the folder (`*.md` at any depth, outside the templates folder), by
    /// name, sorted. A folder that cannot be read, or a name that is not UTF-8, is an
    /// error rather than a prompt silently left out; a folder reached twice (a symlink
    /// loop) is read once.
    pub fn prompt_names(&self) -> Result<Vec<String>, Diagnostics> {
        let mut walk = Walk {
            root: &self.dir,
            display: &self.display,
            skip: self.dir.join(&self.config.templates),
            names: Vec::new(),
            visited: Vec::new(),
            problems: Diagnostics::default(),
        };
        walk.folder(&self.dir);
        let Walk {
            mut names,
            problems,
            ..
        } = walk;
        names.sort();
        problems.into_result(names)
    }
}

struct Walk<'a> {
    root: &'a Path,
    display: &'a str,
    skip: PathBuf,
    names: Vec<String>,
    visited: Vec<PathBuf>,
    problems: Diagnostics,
}

impl Walk<'_> {
    fn shown(&self, path: &Path) -> String {
        let relative = path.strip_prefix(self.root).unwrap_or(path);
        format!("{}/{}", self.display, relative.display())
    }

    fn folder(&mut self, dir: &Path) {
        if let Ok(real) = dir.canonicalize() {
            if self.visited.contains(&real) {
                return;
            }
            self.visited.push(real);
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                let shown = self.shown(dir);
                self.problems.push(
                    Diagnostic::new(format!("cannot read the folder `{shown}`: {e}"))
                        .in_file(shown),
                );
                return;
            }
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            if path == self.skip {
                continue;
            }
            if path.is_dir() {
                self.folder(&path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let relative = path
                    .strip_prefix(self.root)
                    .unwrap_or(&path)
                    .with_extension("");
                match relative.to_str() {
                    Some(name) => self.names.push(name.replace('\\', "/")),
                    None => {
                        let shown = self.shown(&path);
                        self.problems.push(
                            Diagnostic::new(format!("the name of `{shown}` is not UTF-8"))
                                .in_file(shown)
                                .with_help("rename the file with UTF-8 characters"),
                        );
                    }
                }
            }
        }
    }
}

fn read(path: &Path, shown: &str) -> Result<Vec<u8>, Diagnostics> {
    std::fs::read(path).map_err(|e| {
        Diagnostic::new(format!("cannot read `{shown}`: {e}"))
            .in_file(shown)
            .into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::VarKind;

    /// A fresh folder under the system's temp dir, removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir()
                .join(format!("promptkit-project-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(dir.join("prompts/templates")).unwrap();
            std::fs::create_dir_all(dir.join("prompts/agents")).unwrap();
            Scratch(dir)
        }
        fn write(&self, path: &str, text: &str) {
            std::fs::write(self.0.join(path), text).unwrap();
        }
        fn open(&self) -> Result<Project, Diagnostics> {
            Project::open(&self.0.join("prompts"), "prompts")
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn names_templates_and_checks() {
        let s = Scratch::new("names");
        s.write("prompts/greet.md", "$intro Hi $preferred, $day.");
        s.write("prompts/agents/helper.md", "Help.");
        s.write("prompts/templates/intro.md", "Intro.");
        s.write("prompts/notes.txt", "not a prompt");
        let project = s.open().unwrap();
        assert_eq!(project.prompt_names().unwrap(), ["agents/helper", "greet"]);
        let e = project.prompt_path("templates/intro").unwrap_err();
        assert_eq!(
            e.message(),
            "`prompts/templates/intro.md` is a template, not a prompt"
        );
        assert_eq!(project.templates.names().collect::<Vec<_>>(), ["intro"]);
        let checked = project
            .check(
                "greet",
                vec![crate::resolve::ContextVar::new("day", VarKind::Text)],
            )
            .unwrap();
        assert_eq!(checked.file.source.path(), "prompts/greet.md");
        assert!(project.check_inferred("agents/helper").is_ok());
    }

    #[test]
    fn paths_leaving_the_folder_are_refused() {
        let s = Scratch::new("escape");
        s.write("secret.md", "outside");
        s.write("prompts/ok.md", "inside");
        let project = s.open().unwrap();
        for name in [
            "../secret",
            "/etc/passwd",
            "agents/../../secret",
            "",
            "a\\b",
            "./ok",
        ] {
            let e = project.prompt_path(name).unwrap_err();
            assert!(
                e.message().contains("must stay inside `prompts/`"),
                "{name}: {e}"
            );
        }
        assert!(project.prompt_path("ok").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_out_of_the_folder_is_refused() {
        let s = Scratch::new("symlink");
        s.write("secret.md", "outside");
        std::os::unix::fs::symlink(s.0.join("secret.md"), s.0.join("prompts/link.md")).unwrap();
        let project = s.open().unwrap();
        let e = project.prompt_path("link").unwrap_err();
        assert_eq!(
            e.message(),
            "prompt file `prompts/link.md` resolves outside `prompts/`"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_is_walked_once_and_a_dangling_link_is_named() {
        let s = Scratch::new("loop");
        s.write("prompts/a.md", "A");
        std::os::unix::fs::symlink(".", s.0.join("prompts/agents/loop")).unwrap();
        std::os::unix::fs::symlink("nowhere.md", s.0.join("prompts/dangling.md")).unwrap();
        let project = s.open().unwrap();
        assert_eq!(project.prompt_names().unwrap(), ["a", "dangling"]);
        let e = project.prompt_path("dangling").unwrap_err();
        assert_eq!(
            e.message(),
            "prompt file `prompts/dangling.md` is a symlink to nothing"
        );
    }

    #[test]
    fn a_file_is_not_a_prompts_folder() {
        let s = Scratch::new("file");
        s.write("prompts/a.md", "A");
        let e = Project::open(&s.0.join("prompts/a.md"), "prompts/a.md").unwrap_err();
        assert!(e.0[0].message().ends_with("is not a folder"), "{e}");
    }

    #[test]
    fn a_missing_prompt_suggests_the_closest() {
        let s = Scratch::new("missing");
        s.write("prompts/segment.md", "x");
        let project = s.open().unwrap();
        let e = project.prompt_path("segmnt").unwrap_err();
        assert_eq!(e.message(), "prompt file `prompts/segmnt.md` not found");
        assert_eq!(e.help(), Some("did you mean `segment`?"));
    }

    #[test]
    fn template_files_must_be_placeholder_names() {
        let s = Scratch::new("badtemplate");
        s.write("prompts/templates/daily-preamble.md", "x");
        let e = s.open().unwrap_err();
        assert!(
            e.0[0]
                .message()
                .contains("`daily-preamble` is not a placeholder name"),
            "{e}"
        );
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let e = Project::open(Path::new("/nonexistent/promptkit/prompts"), "prompts").unwrap_err();
        assert!(e.0[0].message().contains("does not exist"));
    }
}
