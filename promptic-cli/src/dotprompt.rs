//! `check` of a prompts folder's dotprompt partials (`_NAME.prompt`) on their own; the
//! prompts, with their partials and registries, are checked through the one interface like
//! every other prompt.

use prompt_runtime::Diagnostics;
use prompt_runtime::formats::dotprompt::folder::Folder;
use prompt_runtime::load::Root;
use std::path::{Path, PathBuf};

/// How deep the folder walk goes: a folder nested deeper is not read.
const MAX_FOLDER_DEPTH: usize = 32;

/// Every `.prompt` file under `dir` as (name, path, is a partial), names sorted.
fn files(dir: &Path) -> Vec<(String, PathBuf, bool)> {
    let mut out = Vec::new();
    walk(dir, "", 0, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, prefix: &str, depth: usize, out: &mut Vec<(String, PathBuf, bool)>) {
    if depth > MAX_FOLDER_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(file) = path.file_name().and_then(|f| f.to_str()).map(str::to_owned) else {
            continue;
        };
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        // Whatever is named `*.prompt` and is not a folder is listed: reading it goes
        // through the folder's guarded reader, which refuses a link that leads out, a FIFO
        // or a device, so `check` reports what `render` would refuse.
        let is_file = !(kind.is_dir() || (kind.is_symlink() && path.is_dir()));
        if kind.is_dir() && !file.starts_with('.') {
            walk(&path, &format!("{prefix}{file}/"), depth + 1, out);
        } else if is_file && let Some(stem) = file.strip_suffix(".prompt") {
            match stem.strip_prefix('_') {
                Some(partial) => out.push((format!("{prefix}{partial}"), path, true)),
                None => out.push((format!("{prefix}{stem}"), path, false)),
            }
        }
    }
}

/// The folder as the derive reads it too: its registries read through the guarded reader.
pub fn folder(dir: &Path) -> Result<Folder, Diagnostics> {
    Folder::open(Root::new(dir, crate::display_dir(dir)))
}

/// The partials of a folder (`_NAME.prompt`), each checked on its own: how many, and
/// their problems (a partial's problems within a prompt that includes it are that
/// prompt's).
pub struct Partials {
    pub count: usize,
    pub problems: Diagnostics,
}

/// Checks every `_NAME.prompt` partial of the folder on its own.
pub fn check_partials(dir: &Path) -> Partials {
    let partials: Vec<String> = files(dir)
        .into_iter()
        .filter(|(_, _, partial)| *partial)
        .map(|(name, ..)| name)
        .collect();
    let mut problems = Diagnostics::default();
    if partials.is_empty() {
        return Partials { count: 0, problems };
    }
    let folder = match folder(dir) {
        Ok(folder) => folder,
        Err(e) => {
            problems.extend(e);
            return Partials {
                count: partials.len(),
                problems,
            };
        }
    };
    for name in &partials {
        if let Err(e) = folder.check_partial(name) {
            problems.extend(e);
        }
    }
    Partials {
        count: partials.len(),
        problems,
    }
}
