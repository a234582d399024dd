//! A prompts folder: its configuration, its templates, and the prompts in it.
//!
//! The macro, the CLI and applications open a folder the same way, so they see the same
//! identity schema, templates and literals, and report the same problems.

use super::PromptFile;
use super::config::Config;
use super::root::Root;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::parse::lexer::is_name;
use crate::resolve::{ContextVar, Schema, Templates};
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// An opened prompts folder.
#[derive(Clone, Debug)]
pub struct Project {
    /// The folder on disk.
    pub dir: PathBuf,
    /// How the folder is shown in diagnostics (`prompts`).
    pub display: String,
    /// `promptic.json`, or the defaults.
    pub config: Config,
    /// Every template, by name.
    pub templates: Templates,
    /// Every file read so far (configuration and templates), for rebuild tracking.
    pub files: Vec<PathBuf>,
    /// Files left out, each with why: a template whose file name is not a placeholder
    /// name (`é.md`, `daily-preamble.md`), which no prompt could use. The rest of the
    /// folder works without them; `promptic check` reports them as errors.
    pub skipped: Vec<Diagnostic>,
    /// The folder read as a PromptEngine store, once, when a prompt of it is first loaded:
    /// loading each of a store's N prompts reads the store's N files once in all, not N
    /// times.
    pub(crate) store: std::sync::OnceLock<Result<crate::store::Defaults, Diagnostics>>,
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
        let mut skipped = Vec::new();
        let root = Root::new(dir, display);
        let template_display = format!("{display}/{}", config.templates);
        // A templates folder linked out of the prompts folder is refused, not listed.
        let template_dir = root.folder(&config.templates)?;
        if let Some(template_dir) = template_dir {
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
                // A folder named `x.md` holds no template; anything else named `*.md` is
                // read, so that a link out, a FIFO or a device is reported, not passed over.
                if path.extension().is_none_or(|e| e != "md") || path.is_dir() {
                    continue;
                }
                let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                    let shown = format!(
                        "{template_display}/{}",
                        path.file_name().unwrap_or_default().to_string_lossy()
                    );
                    skipped.push(
                        Diagnostic::new(format!(
                            "template `{shown}` cannot be used: its name is not UTF-8"
                        ))
                        .in_file(&shown)
                        .with_help("rename it with letters, digits and `_` (`daily_preamble.md`)"),
                    );
                    continue;
                };
                let stem = stem.to_owned();
                let shown = format!("{template_display}/{stem}.md");
                if !is_name(&stem) {
                    // Reported, not fatal: no prompt can name it, so the rest of the
                    // folder works without it.
                    skipped.push(unusable_template(&shown, &stem));
                    continue;
                }
                let rel = Path::new(&config.templates).join(format!("{stem}.md"));
                let bytes = match root.read(&rel) {
                    Ok(Some(bytes)) => bytes,
                    // Removed since the folder was listed.
                    Ok(None) => continue,
                    Err(refused) => {
                        diagnostics.push(refused.into());
                        continue;
                    }
                };
                files.push(path.clone());
                match PromptFile::from_bytes(&shown, &bytes) {
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
            skipped,
            store: std::sync::OnceLock::new(),
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
        let rel = format!("{name}.md");
        let path = self.dir.join(&rel);
        // A link that leads out of the folder (or to nothing) is refused by name.
        let resolved = self.root().resolve(&rel).map_err(Diagnostic::from)?;
        if resolved.is_none_or(|real| real.is_dir()) {
            let mut d = Diagnostic::new(format!("prompt file `{shown}` not found"));
            // The name may be a misspelling of a prompt of any format.
            let names: Vec<String> = self
                .all_prompts()
                .prompts
                .into_iter()
                .map(|found| found.name)
                .collect();
            d = match crate::suggest::closest(name, names.iter().map(String::as_str)) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None => d.with_help(format!(
                    "create `{shown}`, or name one of the prompts in `{}/`",
                    self.display
                )),
            };
            return Err(d);
        }
        Ok(path)
    }

    /// The prompts folder as a [`Root`]: every file of the project is read through it.
    pub fn root(&self) -> Root {
        Root::new(&self.dir, &self.display)
    }

    /// Loads prompt `name`.
    pub fn load_prompt(&self, name: &str) -> Result<PromptFile, Diagnostics> {
        self.prompt_path(name)?;
        let shown = format!("{}/{name}.md", self.display);
        let Some(bytes) = self.root().read(format!("{name}.md"))? else {
            return Err(Diagnostic::new(format!("prompt file `{shown}` not found"))
                .in_file(shown)
                .into());
        };
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

    /// Every prompt in the folder (`*.md` at any depth, outside the templates folder), by
    /// name, sorted. A folder that cannot be read, or a name that is not UTF-8, is an
    /// error rather than a prompt silently left out. Folder links are not followed (see
    /// [`Project::prompts`]).
    pub fn prompt_names(&self) -> Result<Vec<String>, Diagnostics> {
        let PromptList { names, errors, .. } = self.prompts();
        errors.into_result(names)
    }

    /// Walks the folder for its prompts: the names found, the errors that may hide some
    /// (a folder that cannot be read, a name that is not UTF-8) and warnings.
    ///
    /// A link to a folder is never followed. One that stays inside the prompts folder
    /// leads to a folder the walk reaches under its own name, so its prompts are listed
    /// once, by their real path (a prompt can still be named through the link). One that
    /// leads out of the folder is named in one warning: following it could walk the whole
    /// disk (`ln -s / prompts/root`) or the folder again and again (`ln -s .. loop`).
    /// Each kind of problem is reported for at most [`WALK_REPORT_LIMIT`] paths, then
    /// counted in one last line.
    pub fn prompts(&self) -> PromptList {
        let mut walk = Walk {
            root: &self.dir,
            real_root: self.dir.canonicalize().ok(),
            display: &self.display,
            skip: self.dir.join(&self.config.templates),
            names: Vec::new(),
            files: Vec::new(),
            visited: HashSet::new(),
            unreadable: Capped::default(),
            not_utf8: Capped::default(),
            links_out: Capped::default(),
        };
        walk.folder(&self.dir);
        let mut names = std::mem::take(&mut walk.names);
        names.sort();
        let mut files = std::mem::take(&mut walk.files);
        files.sort();
        let display = self.display.as_str();
        let mut errors = Diagnostics::default();
        errors.extend(walk.unreadable.finish(|n| {
            Diagnostic::new(format!("{n} more folders in `{display}/` cannot be read"))
                .in_file(display)
        }));
        errors.extend(walk.not_utf8.finish(|n| {
            Diagnostic::new(format!("{n} more file names in `{display}/` are not UTF-8"))
                .in_file(display)
                .with_help("rename the files with UTF-8 characters")
        }));
        let warnings = walk.links_out.finish(|n| {
            Diagnostic::new(format!(
                "{n} more folder links lead outside `{display}/`; they are not followed either"
            ))
            .in_file(display)
            .with_help(LINK_OUT_HELP)
        });
        PromptList {
            names,
            files,
            errors,
            warnings,
        }
    }
}

/// How many paths a walk names for each kind of problem before it only counts them.
pub const WALK_REPORT_LIMIT: usize = 10;

const LINK_OUT_HELP: &str =
    "keep the prompts inside the prompts folder, or remove the link to silence this warning";

/// The prompts a walk of the folder found: see [`Project::prompts`].
#[derive(Clone, Debug, Default)]
pub struct PromptList {
    /// The Markdown prompts' names, sorted (`agents/helper`).
    pub names: Vec<String>,
    /// Every file found (not a folder), by its path relative to the folder with `/`
    /// between names, sorted: what the formats claim (see [`Project::all_prompts`]).
    pub files: Vec<String>,
    /// Problems that may hide prompts: a folder that cannot be read, a name that is not
    /// UTF-8.
    pub errors: Diagnostics,
    /// What was left out on purpose: folder links that lead outside the folder.
    pub warnings: Vec<Diagnostic>,
}

/// At most [`WALK_REPORT_LIMIT`] diagnostics, and a count of the rest.
#[derive(Default)]
struct Capped {
    shown: Vec<Diagnostic>,
    more: usize,
}

impl Capped {
    fn push(&mut self, make: impl FnOnce() -> Diagnostic) {
        if self.shown.len() < WALK_REPORT_LIMIT {
            self.shown.push(make());
        } else {
            self.more += 1;
        }
    }

    /// The diagnostics, and `summary(count)` for those left out.
    fn finish(self, summary: impl FnOnce(usize) -> Diagnostic) -> Vec<Diagnostic> {
        let mut all = self.shown;
        if self.more > 0 {
            all.push(summary(self.more));
        }
        all
    }
}

struct Walk<'a> {
    root: &'a Path,
    real_root: Option<PathBuf>,
    display: &'a str,
    skip: PathBuf,
    names: Vec<String>,
    files: Vec<String>,
    visited: HashSet<FolderId>,
    unreadable: Capped,
    not_utf8: Capped,
    links_out: Capped,
}

impl Walk<'_> {
    fn shown(&self, path: &Path) -> String {
        let relative = path.strip_prefix(self.root).unwrap_or(path);
        format!("{}/{}", self.display, relative.display())
    }

    fn folder(&mut self, dir: &Path) {
        // Links are not followed, so only a bind mount could bring the walk back here;
        // reading a folder once is cheap insurance all the same. A folder is known by its
        // device and inode (one question to the kernel), not by its canonical path (one
        // per component: N² for a folder N deep, N³ for a tree N deep).
        if let Some(id) = folder_id(dir)
            && !self.visited.insert(id)
        {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                let shown = self.shown(dir);
                self.unreadable.push(|| {
                    Diagnostic::new(format!("cannot read the folder `{shown}`: {e}")).in_file(shown)
                });
                return;
            }
        };
        let mut paths: Vec<(PathBuf, Option<std::fs::FileType>)> = entries
            .filter_map(|e| e.ok().map(|e| (e.path(), e.file_type().ok())))
            .collect();
        paths.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, kind) in paths {
            if path == self.skip {
                continue;
            }
            let is_link = kind.is_some_and(|k| k.is_symlink());
            if is_link {
                // `metadata` follows the link; a dangling link has none.
                if std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                    self.folder_link(&path);
                    continue;
                }
            } else if kind.is_some_and(|k| k.is_dir()) {
                self.folder(&path);
                continue;
            }
            if let Some(relative) = path.strip_prefix(self.root).ok().and_then(Path::to_str) {
                self.files.push(relative.replace('\\', "/"));
            }
            if path.extension().is_some_and(|e| e == "md") {
                let relative = path
                    .strip_prefix(self.root)
                    .unwrap_or(&path)
                    .with_extension("");
                match relative.to_str() {
                    Some(name) => self.names.push(name.replace('\\', "/")),
                    None => {
                        let shown = self.shown(&path);
                        self.not_utf8.push(|| {
                            Diagnostic::new(format!("the name of `{shown}` is not UTF-8"))
                                .in_file(shown)
                                .with_help("rename the file with UTF-8 characters")
                        });
                    }
                }
            }
        }
    }

    /// A link to a folder: left alone when it stays inside (the walk reaches its target
    /// by its own name), named in a warning when it leads out.
    fn folder_link(&mut self, path: &Path) {
        let target = path.canonicalize().ok();
        let inside = match (&target, &self.real_root) {
            (Some(target), Some(root)) => target.starts_with(root),
            _ => false,
        };
        if inside {
            return;
        }
        let shown = self.shown(path);
        let to = target.map_or_else(String::new, |t| format!(" (to `{}`)", t.display()));
        let display = self.display;
        self.links_out.push(|| {
            Diagnostic::new(format!(
                "the folder link `{shown}` leads outside `{display}/`{to}, so it is not followed"
            ))
            .in_file(shown)
            .with_help(LINK_OUT_HELP)
        });
    }
}

/// What tells two folders apart: the device and inode where there are such, else the
/// canonical path.
#[derive(PartialEq, Eq, Hash)]
enum FolderId {
    #[cfg(unix)]
    Inode(u64, u64),
    Path(PathBuf),
}

fn folder_id(dir: &Path) -> Option<FolderId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(meta) = std::fs::metadata(dir) {
            return Some(FolderId::Inode(meta.dev(), meta.ino()));
        }
    }
    dir.canonicalize().ok().map(FolderId::Path)
}

/// Why a template file cannot be used, with a name it could have.
fn unusable_template(shown: &str, stem: &str) -> Diagnostic {
    let why = format!("`{stem}` is not a placeholder name");
    let help = match placeholder_name_for(stem) {
        Some(name) => format!(
            "rename it `{name}.md` and use it as `${name}`: a template's name is letters, digits and `_`, not starting with a digit"
        ),
        None => "name templates with letters, digits and `_`, not starting with a digit (`daily_preamble.md`)".to_owned(),
    };
    Diagnostic::new(format!("template `{shown}` cannot be used: {why}"))
        .in_file(shown)
        .with_help(help)
        .with_note("it is left out; prompts that do not use it are not affected")
}

/// A placeholder name close to `stem`: accents dropped from Latin letters, other
/// characters `_`, a leading digit prefixed with `_`. `None` when nothing of `stem` is
/// left.
fn placeholder_name_for(stem: &str) -> Option<String> {
    let mut name = String::with_capacity(stem.len());
    for c in stem.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' => name.push(c),
            _ => match unaccented(c) {
                Some(plain) => name.push_str(plain),
                None if !name.ends_with('_') => name.push('_'),
                None => {}
            },
        }
    }
    let name = name.trim_matches('_');
    if name.is_empty() {
        return None;
    }
    let name = if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{name}")
    } else {
        name.to_owned()
    };
    is_name(&name).then_some(name)
}

/// The ASCII letters of a Latin letter with an accent (`é` → `e`, `ß` → `ss`).
fn unaccented(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' => "a",
        'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' | 'Ā' => "A",
        'æ' => "ae",
        'Æ' => "AE",
        'ç' | 'č' | 'ć' => "c",
        'Ç' | 'Č' | 'Ć' => "C",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ě' => "e",
        'È' | 'É' | 'Ê' | 'Ë' | 'Ē' | 'Ě' => "E",
        'ì' | 'í' | 'î' | 'ï' | 'ī' => "i",
        'Ì' | 'Í' | 'Î' | 'Ï' | 'Ī' => "I",
        'ñ' | 'ń' => "n",
        'Ñ' | 'Ń' => "N",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' => "o",
        'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' | 'Ō' => "O",
        'œ' => "oe",
        'Œ' => "OE",
        'š' | 'ś' => "s",
        'Š' | 'Ś' => "S",
        'ß' => "ss",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' => "u",
        'Ù' | 'Ú' | 'Û' | 'Ü' | 'Ū' | 'Ů' => "U",
        'ý' | 'ÿ' => "y",
        'Ý' => "Y",
        'ž' | 'ź' | 'ż' => "z",
        'Ž' | 'Ź' | 'Ż' => "Z",
        _ => return None,
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
                .join(format!("promptic-project-{name}-{}", std::process::id()));
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
        let real = s.0.join("secret.md");
        assert_eq!(
            e.message(),
            format!(
                "`prompts/link.md` is a link to `{}`, outside `prompts/`, so it is not read",
                real.display()
            )
        );
        assert!(project.load_prompt("link").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_is_walked_once_and_a_dangling_link_is_named() {
        let s = Scratch::new("loop");
        s.write("prompts/a.md", "A");
        std::os::unix::fs::symlink(".", s.0.join("prompts/agents/loop")).unwrap();
        std::os::unix::fs::symlink("..", s.0.join("prompts/agents/up")).unwrap();
        std::os::unix::fs::symlink("nowhere.md", s.0.join("prompts/dangling.md")).unwrap();
        let project = s.open().unwrap();
        let list = project.prompts();
        assert_eq!(list.names, ["a", "dangling"]);
        // links that stay inside are no news
        assert!(list.warnings.is_empty(), "{:?}", list.warnings);
        assert!(list.errors.is_empty(), "{}", list.errors);
        let e = project.prompt_path("dangling").unwrap_err();
        assert_eq!(
            e.message(),
            "`prompts/dangling.md` is a link to `nowhere.md`, which does not exist"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_link_inside_lists_its_prompts_once_by_their_own_name() {
        let s = Scratch::new("inside-link");
        s.write("prompts/agents/helper.md", "Help.");
        s.write("prompts/templates/intro.md", "Intro.");
        // sorted before its target, so a walk that followed it would name `a_alias/helper`
        std::os::unix::fs::symlink("agents", s.0.join("prompts/a_alias")).unwrap();
        // a link into the templates folder does not make templates prompts
        std::os::unix::fs::symlink("templates", s.0.join("prompts/more")).unwrap();
        let project = s.open().unwrap();
        let list = project.prompts();
        assert_eq!(list.names, ["agents/helper"]);
        assert!(list.warnings.is_empty(), "{:?}", list.warnings);
        // and the prompt can still be named through the link
        assert!(project.check_inferred("a_alias/helper").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_link_out_of_the_folder_is_one_warning_and_not_walked() {
        let s = Scratch::new("link-out");
        s.write("prompts/a.md", "A");
        s.write("outside.md", "outside");
        std::os::unix::fs::symlink("/", s.0.join("prompts/root")).unwrap();
        std::os::unix::fs::symlink("..", s.0.join("prompts/up")).unwrap();
        let project = s.open().unwrap();
        let list = project.prompts();
        assert_eq!(list.names, ["a"]);
        assert!(list.errors.is_empty(), "{}", list.errors);
        let messages: Vec<&str> = list.warnings.iter().map(Diagnostic::message).collect();
        let real = s.0.canonicalize().unwrap();
        assert_eq!(
            messages,
            [
                "the folder link `prompts/root` leads outside `prompts/` (to `/`), so it is not followed".to_owned(),
                format!(
                    "the folder link `prompts/up` leads outside `prompts/` (to `{}`), so it is not followed",
                    real.display()
                ),
            ]
        );
        assert_eq!(list.warnings[0].location().unwrap().path, "prompts/root");
        assert!(list.warnings[0].help().is_some());
        assert_eq!(project.prompt_names().unwrap(), ["a"]);
    }

    #[cfg(unix)]
    #[test]
    fn many_links_out_are_capped_with_a_count() {
        let s = Scratch::new("many-links");
        s.write("prompts/a.md", "A");
        for i in 0..WALK_REPORT_LIMIT + 5 {
            std::os::unix::fs::symlink("..", s.0.join(format!("prompts/up{i:02}"))).unwrap();
        }
        let list = s.open().unwrap().prompts();
        assert_eq!(list.warnings.len(), WALK_REPORT_LIMIT + 1);
        assert_eq!(
            list.warnings[WALK_REPORT_LIMIT].message(),
            "5 more folder links lead outside `prompts/`; they are not followed either"
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
    fn a_template_file_that_is_no_placeholder_name_is_left_out_and_named_once() {
        let s = Scratch::new("badtemplate");
        s.write("prompts/templates/daily-preamble.md", "x");
        s.write("prompts/templates/é.md", "x");
        s.write("prompts/templates/ok.md", "fine");
        s.write("prompts/greet.md", "Hi. $ok");
        let project = s.open().unwrap();
        assert_eq!(project.templates.names().collect::<Vec<_>>(), ["ok"]);
        let found: Vec<(&str, Option<&str>)> = project
            .skipped
            .iter()
            .map(|d| (d.message(), d.help()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "template `prompts/templates/daily-preamble.md` cannot be used: `daily-preamble` is not a placeholder name",
                    Some(
                        "rename it `daily_preamble.md` and use it as `$daily_preamble`: a template's name is letters, digits and `_`, not starting with a digit"
                    )
                ),
                (
                    "template `prompts/templates/é.md` cannot be used: `é` is not a placeholder name",
                    Some(
                        "rename it `e.md` and use it as `$e`: a template's name is letters, digits and `_`, not starting with a digit"
                    )
                ),
            ]
        );
        assert_eq!(
            project.skipped[1].location().unwrap().path,
            "prompts/templates/é.md"
        );
        assert!(project.check_inferred("greet").is_ok());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_template_name_that_is_not_utf8_is_left_out_and_named() {
        use std::os::unix::ffi::OsStrExt;
        let s = Scratch::new("template-not-utf8");
        let name = std::ffi::OsStr::from_bytes(b"t\xff.md");
        std::fs::write(s.0.join("prompts/templates").join(name), "x").unwrap();
        let project = s.open().unwrap();
        assert_eq!(project.skipped.len(), 1);
        assert_eq!(
            project.skipped[0].message(),
            "template `prompts/templates/t\u{fffd}.md` cannot be used: its name is not UTF-8"
        );
    }

    #[test]
    fn placeholder_names_for_file_names() {
        for (stem, name) in [
            ("daily-preamble", Some("daily_preamble")),
            ("Café au lait", Some("Cafe_au_lait")),
            ("2nd", Some("_2nd")),
            ("Straße", Some("Strasse")),
            ("日本", None),
            ("", None),
            ("--x--", Some("x")),
        ] {
            assert_eq!(placeholder_name_for(stem).as_deref(), name, "{stem}");
        }
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let e = Project::open(Path::new("/nonexistent/promptic/prompts"), "prompts").unwrap_err();
        assert!(e.0[0].message().contains("does not exist"));
    }
}
