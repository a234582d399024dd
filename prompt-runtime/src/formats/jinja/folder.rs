//! A prompts folder's Jinja templates: prompt `system` is `prompts/system.md.j2` (or
//! `prompts/system.j2`), its includes are read from the same folder, and
//! `promptic.json`'s `"jinja"` options apply.

use super::{ReadError, Templates};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::load::Project;
use std::path::{Component, Path, PathBuf};

/// The endings a Jinja prompt's file may have, in the order they are looked for.
const ENDINGS: [&str; 2] = [".md.j2", ".j2"];

impl Project {
    /// The file name (relative to the folder) of prompt `name` when it is a Jinja
    /// template: `NAME.md.j2` or `NAME.j2`, the first that exists (that both do is
    /// [`Project::front_end`]'s error, which every consumer asks first). Anything
    /// by that name but a folder counts (a link, a FIFO), so that loading it refuses it
    /// with a message, not "not found".
    pub fn jinja_file(&self, name: &str) -> Option<String> {
        if !plain_relative(name) {
            return None;
        }
        ENDINGS
            .iter()
            .map(|ending| format!("{name}{ending}"))
            .find(|file| crate::source::names_a_file(&self.dir.join(file)))
    }

    /// Loads Jinja prompt `name` and every template it includes, with the folder's
    /// `"jinja"` options. Files are read only from inside the folder (no `..`, no symlink
    /// out), only regular files, at most [`MAX_FILE`](crate::load::MAX_FILE) bytes each (the one
    /// reader of every prompt file, [`Root`](crate::load::Root)).
    pub fn load_jinja(&self, name: &str) -> Result<(String, Templates), Diagnostics> {
        self.load_jinja_traced(name, &mut Vec::new())
    }

    /// [`load_jinja`](Self::load_jinja), writing into `asked` the name of every template
    /// it tried to read (the prompt file first), found or not: the files whose change could
    /// change what loads, which hot reload watches.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("promptic-doc-traced-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// std::fs::write(dir.join("a.j2"), "{% include 'b.j2' %}")?;
    /// let project = promptic::load::Project::open(&dir, "prompts")?;
    /// let mut asked = Vec::new();
    /// assert!(project.load_jinja_traced("a", &mut asked).is_err()); // no `b.j2` yet
    /// assert_eq!(asked, ["a.j2", "b.j2"]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_jinja_traced(
        &self,
        name: &str,
        asked: &mut Vec<String>,
    ) -> Result<(String, Templates), Diagnostics> {
        let Some(file) = self.jinja_file(name) else {
            return Err(Diagnostic::new(format!(
                "no Jinja template `{0}/{name}.md.j2` or `{0}/{name}.j2`",
                self.display
            ))
            .into());
        };
        let root = self.root();
        let display = self.display.clone();
        let templates = Templates::load(&file, self.config.jinja, &mut |included: &str| {
            if !asked.iter().any(|a| a == included) {
                asked.push(included.to_owned());
            }
            read_inside(&root, &display, included)
        })?;
        Ok((file, templates))
    }

    /// The Jinja prompts of the folder: its Jinja files that no other Jinja file of the
    /// folder includes. An included file (`components/tools.md.j2`) is a part of the prompts
    /// that include it, as a partial is, not a prompt to list or document on its own.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("promptic-doc-jinja-prompts-{}", std::process::id()));
    /// # std::fs::create_dir_all(dir.join("parts"))?;
    /// std::fs::write(dir.join("system.md.j2"), "Hi {% include 'parts/tools.md.j2' %}")?;
    /// std::fs::write(dir.join("parts/tools.md.j2"), "{{ tools }}")?;
    /// let project = promptic::load::Project::open(&dir, "prompts")?;
    /// assert_eq!(project.jinja_names(), ["parts/tools", "system"]);
    /// assert_eq!(project.jinja_prompt_names(), ["system"]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn jinja_prompt_names(&self) -> Vec<String> {
        let names = self.jinja_names();
        let mut included = std::collections::HashSet::new();
        for name in &names {
            if let Ok((file, templates)) = self.load_jinja(name) {
                included.extend(templates.names().filter(|n| *n != file).map(str::to_owned));
            }
        }
        names
            .into_iter()
            .filter(|name| {
                self.jinja_file(name)
                    .is_none_or(|file| !included.contains(&file))
            })
            .collect()
    }

    /// Every Jinja prompt in the folder (`*.j2` at any depth), by name: its path without
    /// `.md.j2` or `.j2`, sorted.
    pub fn jinja_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let Ok(root) = self.dir.canonicalize() else {
            return names;
        };
        walk(&root, &root, &mut names, &mut seen, 0);
        names.sort();
        names.dedup();
        names
    }
}

fn plain_relative(name: &str) -> bool {
    let path = Path::new(name);
    !name.is_empty()
        && !name.contains('\\')
        && path.components().all(|c| matches!(c, Component::Normal(_)))
}

/// Reads `name` through the folder's one reader ([`Root::read`](crate::load::Root::read)): inside
/// the folder once every link is followed, a regular file, at most
/// [`MAX_FILE`](crate::load::MAX_FILE) bytes; shown as `display/name`.
fn read_inside(
    root: &crate::load::Root,
    display: &str,
    name: &str,
) -> Result<crate::SourceFile, ReadError> {
    let shown = format!("{display}/{name}");
    if !plain_relative(name) {
        return Err(Some(
            Diagnostic::new(format!("`{shown}` is not a path inside `{display}/`")).in_file(&shown),
        ));
    }
    match root.read(name) {
        Ok(Some(bytes)) => {
            crate::load::decode(&shown, &bytes).map_err(|mut all| all.0.drain(..).next())
        }
        Ok(None) => Err(None),
        Err(e) => Err(Some(Diagnostic::from(e))),
    }
}

/// Collects `*.j2` prompt names under `dir` (inside the canonical `root`), following
/// folder links once each, only those that stay inside `root` (the folder walk of the
/// Markdown prompts warns about the others), never deeper than 32 folders.
fn walk(
    root: &Path,
    dir: &Path,
    names: &mut Vec<String>,
    seen: &mut std::collections::HashSet<PathBuf>,
    depth: usize,
) {
    let Ok(real) = dir.canonicalize() else { return };
    if depth > 32 || !real.starts_with(root) || !seen.insert(real) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    // Real folders before links to folders: a linked folder inside is listed under its
    // own name, once.
    entries.sort_by_key(|p| (p.is_symlink(), p.clone()));
    for path in entries {
        if path.is_dir() {
            walk(root, &path, names, seen, depth + 1);
            continue;
        }
        // Named by where it is found, not where a link leads, as Markdown prompts are.
        let Some(relative) = path.strip_prefix(root).ok().and_then(|p| p.to_str()) else {
            continue;
        };
        let relative = relative.replace(std::path::MAIN_SEPARATOR, "/");
        // A file that is not read as it is (a link out of the folder, a FIFO, a device)
        // is listed all the same: loading it says why it is refused, where leaving it out
        // would hide the prompt from `check`.
        if let Some(stem) = ENDINGS.iter().find_map(|e| relative.strip_suffix(e)) {
            names.push(stem.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::load::Project;
    use std::path::PathBuf;

    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("promptic-jinja-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(dir.join("prompts")).unwrap();
            Scratch(dir)
        }
        fn write(&self, path: &str, text: &str) {
            let path = self.0.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        fn project(&self) -> Project {
            Project::open(&self.0.join("prompts"), "prompts").unwrap()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn finds_md_j2_prompts_with_their_includes_and_the_folder_options() {
        let s = Scratch::new("find");
        s.write(
            "prompts/promptic.json",
            r#"{"jinja": {"trim_blocks": true, "lstrip_blocks": true, "keep_trailing_newline": true}}"#,
        );
        s.write(
            "prompts/system.md.j2",
            "# Agent\n  {% if tools %}\n{% include 'parts/tools.md.j2' %}\n  {% endif %}\nend\n",
        );
        s.write(
            "prompts/parts/tools.md.j2",
            "Use {{ tools | join(', ') }}.\n",
        );
        s.write("prompts/plain.j2", "plain");
        let project = s.project();
        assert_eq!(
            project.jinja_file("system").as_deref(),
            Some("system.md.j2")
        );
        assert_eq!(project.jinja_file("plain").as_deref(), Some("plain.j2"));
        assert_eq!(project.jinja_file("../system"), None);
        assert_eq!(project.jinja_names(), ["parts/tools", "plain", "system"]);
        let (file, templates) = project.load_jinja("system").unwrap();
        assert_eq!(file, "system.md.j2");
        let values = serde_json::json!({"tools": ["search", "read"]});
        assert_eq!(
            templates.render(&file, &values).unwrap(),
            "# Agent\nUse search, read.\nend\n"
        );
        // Values that do not fit what the templates read are refused at the use, in the
        // included file.
        let error = templates
            .render(&file, &serde_json::json!({"tools": 3}))
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with(
                "error: an int cannot be looped over\n --> prompts/parts/tools.md.j2:1:8"
            ),
            "{error}"
        );
    }

    #[test]
    fn folder_links_out_of_the_folder_are_not_walked_and_file_links_are_refused() {
        let s = Scratch::new("links");
        s.write("outside/x.j2", "outside");
        s.write("prompts/a.j2", "A");
        s.write("prompts/real/b.j2", "B");
        std::os::unix::fs::symlink("/", s.0.join("prompts/root")).unwrap();
        std::os::unix::fs::symlink("..", s.0.join("prompts/up")).unwrap();
        std::os::unix::fs::symlink(s.0.join("outside/x.j2"), s.0.join("prompts/x.j2")).unwrap();
        std::os::unix::fs::symlink("real", s.0.join("prompts/alias")).unwrap();
        // A file linked out is listed by its name, so that `check` reports it; loading
        // it refuses it.
        let project = s.project();
        assert_eq!(project.jinja_names(), ["a", "real/b", "x"]);
        let errors = project.load_jinja("x").unwrap_err();
        assert!(
            errors.0[0]
                .message()
                .starts_with("`prompts/x.j2` is a link to"),
            "{}",
            errors.0[0].message()
        );
    }

    /// A byte order mark is dropped and CRLF read as LF, as for every prompt file (Jinja2
    /// keeps the mark: a documented difference).
    #[test]
    fn a_byte_order_mark_is_dropped() {
        let s = Scratch::new("bom");
        s.write("prompts/a.j2", "\u{feff}Hi {{ who }}\r\nBye\r\n");
        let (file, templates) = s.project().load_jinja("a").unwrap();
        let values = serde_json::json!({"who": "Ada"});
        assert_eq!(templates.render(&file, &values).unwrap(), "Hi Ada\nBye");
    }

    #[test]
    fn an_include_may_not_leave_the_folder() {
        let s = Scratch::new("escape");
        s.write("secret.j2", "secret");
        s.write("prompts/a.j2", "{% include 'link.j2' %}");
        std::os::unix::fs::symlink(s.0.join("secret.j2"), s.0.join("prompts/link.j2")).unwrap();
        let errors = s.project().load_jinja("a").unwrap_err();
        assert_eq!(
            errors.0[0].message(),
            format!(
                "`prompts/link.j2` is a link to `{}`, outside `prompts/`, so it is not read",
                s.0.join("secret.j2").display()
            )
        );
        s.write("prompts/b.j2", "{% include 'fifo.j2' %}");
        let fifo = s.0.join("prompts/fifo.j2");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|m| m.success()) {
            let errors = s.project().load_jinja("b").unwrap_err();
            assert_eq!(
                errors.0[0].message(),
                "`prompts/fifo.j2` is a FIFO (named pipe), not a regular file, so it is not read"
            );
        }
    }
}
