//! The PromptEngine layout, and reading it: which files a store folder has, read once each,
//! from the disk or from memory (the files the derive embedded).
//!
//! A file on disk is read through [`Root`]: only from inside the layer's folder (a domain
//! file or a `_meta` folder linked out of it is refused, naming the link), only a regular
//! file, at most [`MAX_FILE`](crate::load::MAX_FILE) bytes.

use crate::source::{Root, decode};
use crate::{Diagnostics, SourceFile};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The system manifest: every prompt, its metadata and its domain file.
pub const MANIFEST: &str = "_meta/prompt_manifest.json";
/// The user manifest: overrides of the system manifest's entries, and the user's prompts.
pub const USER_MANIFEST: &str = "_meta/user_manifest.json";
/// The placeholder registry.
pub const REGISTRY: &str = "_meta/placeholder_registry.json";
/// The user's placeholder registry: added (or overridden) placeholders.
pub const USER_REGISTRY: &str = "_meta/user_placeholder_registry.json";

/// True when `dir` is a store folder: it has `_meta/prompt_manifest.json`. Anything by that
/// name but a folder counts (a link, a FIFO), so that reading the store refuses it with a
/// message instead of taking the folder for another kind.
///
/// ```
/// assert!(!promptic::store::is_store_dir(std::path::Path::new("prompts")));
/// ```
pub fn is_store_dir(dir: &Path) -> bool {
    crate::source::names_a_file(&dir.join(MANIFEST))
}

/// One folder of a store (the defaults, or the user's folder) and the files read from it.
#[derive(Clone, Debug)]
pub struct Layer {
    /// How the folder is shown in diagnostics.
    pub display: String,
    /// Where files not yet read are read from; `None` for files held in memory only.
    dir: Option<PathBuf>,
    /// `dir` as the root every read stays inside.
    root: Option<Root>,
    /// Every file asked for, by path relative to the folder, in the order asked; `None`
    /// for a file that does not exist.
    files: Vec<(String, Option<SourceFile>)>,
    /// Where each path is in `files` (its first entry): a store of N prompts reads N
    /// domain files, and a scan of the list for each would make opening it quadratic.
    index: HashMap<String, usize>,
}

impl Layer {
    /// A folder on disk.
    pub fn disk(dir: &Path, display: &str) -> Layer {
        Layer {
            display: display.to_owned(),
            dir: Some(dir.to_owned()),
            root: Some(Root::new(dir, display)),
            files: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// A folder held in memory only, with no files yet.
    pub fn in_memory(display: &str) -> Layer {
        Layer {
            display: display.to_owned(),
            dir: None,
            root: None,
            files: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Files held in memory, by relative path; anything else is absent.
    pub fn memory(display: &str, files: &[(&str, &[u8])]) -> Result<Layer, Diagnostics> {
        let mut problems = Diagnostics::default();
        let mut layer = Layer::in_memory(display);
        for (rel, bytes) in files {
            match decode(&layer.shown(rel), bytes) {
                Ok(source) => layer.push(rel, Some(source)),
                Err(e) => problems.extend(e),
            }
        }
        problems.into_result(layer)
    }

    /// The same files, held in memory: nothing more is read from disk.
    pub fn frozen(&self) -> Layer {
        Layer {
            display: self.display.clone(),
            dir: None,
            root: None,
            files: self.files.clone(),
            index: self.index.clone(),
        }
    }

    /// The path of `rel` as diagnostics show it.
    pub fn shown(&self, rel: &str) -> String {
        if self.display.is_empty() {
            rel.to_owned()
        } else {
            format!("{}/{rel}", self.display.trim_end_matches('/'))
        }
    }

    /// The files on disk that were read (for the derive's rebuild tracking).
    pub fn paths_read(&self) -> Vec<PathBuf> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        self.files
            .iter()
            .filter(|(_, source)| source.is_some())
            .map(|(rel, _)| dir.join(rel))
            .collect()
    }

    /// The file at `rel` if it was read (or set) and exists.
    pub fn get(&self, rel: &str) -> Option<&SourceFile> {
        let &i = self.index.get(rel)?;
        self.files[i].1.as_ref()
    }

    /// Every file asked for (or set), in the order first asked; `None` for one that does
    /// not exist.
    pub fn files(&self) -> &[(String, Option<SourceFile>)] {
        &self.files
    }

    /// Records `rel` as read, unless it already is (its first entry stays).
    fn push(&mut self, rel: &str, source: Option<SourceFile>) {
        if !self.index.contains_key(rel) {
            self.index.insert(rel.to_owned(), self.files.len());
        }
        self.files.push((rel.to_owned(), source));
    }

    /// Replaces the file at `rel` in memory (`None`: it does not exist); the disk is not
    /// touched.
    pub fn set(&mut self, rel: &str, text: Option<&str>) {
        let source = text.map(|t| SourceFile::new(self.shown(rel), t));
        match self.index.get(rel) {
            Some(&i) => self.files[i].1 = source,
            None => self.push(rel, source),
        }
    }

    /// The file at `rel` (read once, then kept), `Ok(None)` when it does not exist.
    pub fn read(&mut self, rel: &str) -> Result<Option<SourceFile>, Diagnostics> {
        if let Some(&i) = self.index.get(rel) {
            return Ok(self.files[i].1.clone());
        }
        let Some(root) = &self.root else {
            return Ok(None);
        };
        // Inside the folder, a regular file, within the size limit (see `load::root`).
        let source = match root.read(rel)? {
            Some(bytes) => Some(decode(&self.shown(rel), &bytes)?),
            None => None,
        };
        self.push(rel, source.clone());
        Ok(source)
    }
}

/// True when a domain file name from a manifest stays inside the folder: relative, no
/// `..`, no backslashes, no empty segments.
pub fn is_inside(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.starts_with('/')
        && !rel.contains('\\')
        && !rel.contains(':')
        && rel
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domain_files_stay_inside() {
        assert!(is_inside("system_rule.json"));
        assert!(is_inside("prompts/system_rule.json"));
        assert!(!is_inside("../x.json"));
        assert!(!is_inside("/etc/passwd"));
        assert!(!is_inside("a//b.json"));
        assert!(!is_inside("C:\\x.json"));
    }

    #[test]
    fn memory_layers_read_what_they_hold() {
        let mut layer = Layer::memory("p", &[("_meta/a.json", b"{}")]).unwrap();
        assert_eq!(
            layer.read("_meta/a.json").unwrap().unwrap().path(),
            "p/_meta/a.json"
        );
        assert!(layer.read("b.json").unwrap().is_none());
    }
}
