//! What the files a reload reads look like on disk now, without reading them: each one's
//! modification time, length and kind. Two equal stamps mean "nothing to reload", as far as
//! the file system can tell cheaply.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The files a prompt's reload reads: the prompt file, `promptic.json`, the templates
/// folder and each template in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Stamp(Vec<(PathBuf, Option<FileStamp>)>);

/// One file's metadata; `None` in a [`Stamp`] when it is missing or cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FileStamp {
    modified: Option<SystemTime>,
    len: u64,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
    /// A device, a pipe, a socket: reading one may never end (`/dev/zero`, a pipe
    /// without a writer).
    Other,
}

/// Why a file is not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// Longer than the limit: its length.
    TooLarge(u64),
    /// Neither a file nor a folder.
    NotAFile,
}

fn file_stamp(path: &Path) -> Option<FileStamp> {
    // Followed through links, as the reload reads them.
    let meta = std::fs::metadata(path).ok()?;
    let kind = if meta.is_file() {
        Kind::File
    } else if meta.is_dir() {
        Kind::Folder
    } else {
        Kind::Other
    };
    Some(FileStamp {
        modified: meta.modified().ok(),
        len: meta.len(),
        kind,
    })
}

impl Stamp {
    /// Looks at `prompt` (the prompt file), `prompts/promptic.json`, the templates folder
    /// `prompts/<templates>` and every `*.md` in it.
    pub(super) fn take(prompts: &Path, prompt: &Path, templates: &str) -> Stamp {
        let mut files = vec![
            (prompt.to_owned(), file_stamp(prompt)),
            (
                prompts.join("promptic.json"),
                file_stamp(&prompts.join("promptic.json")),
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

    /// Looks at each of `paths`, in order: a Jinja prompt's files (the prompt file,
    /// `promptic.json`, every template the last load asked for).
    pub(super) fn files(paths: impl IntoIterator<Item = PathBuf>) -> Stamp {
        Stamp(
            paths
                .into_iter()
                .map(|p| {
                    let stamp = file_stamp(&p);
                    (p, stamp)
                })
                .collect(),
        )
    }

    /// `later` (the files as they are after a reload that found new files to watch), with
    /// the entry of `self` (taken before that reload read anything) for each file both
    /// list: an edit during the reload is still seen by the next one, and a file first
    /// asked for during the reload does not make the next one run again.
    pub(super) fn carried_into(&self, later: Stamp) -> Stamp {
        Stamp(
            later
                .0
                .into_iter()
                .map(|(path, now)| {
                    let before = self.0.iter().find(|(p, _)| *p == path).map(|(_, s)| *s);
                    (path, before.unwrap_or(now))
                })
                .collect(),
        )
    }

    /// The first file that a reload must not read: one longer than `limit` bytes, or one
    /// that is neither a file nor a folder.
    pub(super) fn refusal(&self, limit: u64) -> Option<(&Path, Refusal)> {
        self.0.iter().find_map(|(path, stamp)| match stamp {
            Some(s) if s.kind == Kind::File && s.len > limit => {
                Some((path.as_path(), Refusal::TooLarge(s.len)))
            }
            Some(s) if s.kind == Kind::Other => Some((path.as_path(), Refusal::NotAFile)),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_changes_with_an_edit_a_new_template_and_a_removal() {
        let dir = std::env::temp_dir().join(format!("promptic-stamp-{}", std::process::id()));
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
        assert_eq!(
            with_template.refusal(1),
            Some((prompt.as_path(), Refusal::TooLarge(2)))
        );
        assert_eq!(with_template.refusal(2), None);
        std::fs::remove_file(&prompt).unwrap();
        let removed = take();
        assert_eq!(removed.0[0].1, None);
        std::fs::create_dir(&prompt).unwrap();
        assert_ne!(removed, take());
        assert_eq!(take().refusal(1), None, "a folder is no file to refuse");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused() {
        let dir = std::env::temp_dir().join(format!("promptic-stamp-dev-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.join("promptic.json")).unwrap();
        let stamp = Stamp::take(&dir, &dir.join("p.md"), "templates");
        assert_eq!(
            stamp.refusal(u64::MAX),
            Some((dir.join("promptic.json").as_path(), Refusal::NotAFile))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
