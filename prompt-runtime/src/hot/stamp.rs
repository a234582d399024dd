//! What the files a reload reads look like on disk now, without reading them: each one's
//! modification time, length and kind. Two equal stamps mean "nothing to reload", as far as
//! the file system can tell cheaply.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The files a prompt's reload reads: the prompt file, `promptkit.json`, the templates
/// folder and each template in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Stamp(Vec<(PathBuf, Option<FileStamp>)>);

/// One file's metadata; `None` in a [`Stamp`] when it is missing or cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FileStamp {
    modified: Option<SystemTime>,
    len: u64,
    is_dir: bool,
}

fn file_stamp(path: &Path) -> Option<FileStamp> {
    // Followed through links, as the reload reads them.
    let meta = std::fs::metadata(path).ok()?;
    Some(FileStamp {
        modified: meta.modified().ok(),
        len: meta.len(),
        is_dir: meta.is_dir(),
    })
}

impl Stamp {
    /// Looks at `prompt` (the prompt file), `prompts/promptkit.json`, the templates folder
    /// `prompts/<templates>` and every `*.md` in it.
    pub(super) fn take(prompts: &Path, prompt: &Path, templates: &str) -> Stamp {
        let mut files = vec![
            (prompt.to_owned(), file_stamp(prompt)),
            (
                prompts.join("promptkit.json"),
                file_stamp(&prompts.join("promptkit.json")),
            ),
        ];
        let folder = prompts.join(templates);
        // The folder's own time changes when a template appears, goes or is renamed.
        files.push((folder.clone(), file_stamp(&folder)));
        if let Ok(entries) = std::fs::read_dir(&folder) {
            let mut templates: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "md"))
                .collect();
            templates.sort();
            files.extend(templates.into_iter().map(|p| {
                let stamp = file_stamp(&p);
                (p, stamp)
            }));
        }
        Stamp(files)
    }

    /// The first file (not folder) longer than `limit` bytes, with its length.
    pub(super) fn larger_than(&self, limit: u64) -> Option<(&Path, u64)> {
        self.0.iter().find_map(|(path, stamp)| match stamp {
            Some(s) if !s.is_dir && s.len > limit => Some((path.as_path(), s.len)),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_changes_with_an_edit_a_new_template_and_a_removal() {
        let dir = std::env::temp_dir().join(format!("promptkit-stamp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("templates")).unwrap();
        let prompt = dir.join("p.md");
        std::fs::write(&prompt, "a").unwrap();
        let take = || Stamp::take(&dir, &prompt, "templates");
        let first = take();
        assert_eq!(first, take());
        std::fs::write(&prompt, "ab").unwrap();
        let edited = take();
        assert_ne!(first, edited);
        std::fs::write(dir.join("templates/t.md"), "t").unwrap();
        std::fs::write(dir.join("templates/notes.txt"), "not a template").unwrap();
        let with_template = take();
        assert_ne!(edited, with_template);
        assert_eq!(with_template.0.len(), 4);
        assert_eq!(with_template.larger_than(1), Some((prompt.as_path(), 2)));
        assert_eq!(with_template.larger_than(2), None);
        std::fs::remove_file(&prompt).unwrap();
        let removed = take();
        assert_eq!(removed.0[0].1, None);
        std::fs::create_dir(&prompt).unwrap();
        assert_ne!(removed, take());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
