//! `check` of a prompts folder's dotprompt files: `NAME.prompt` prompts, `_NAME.prompt`
//! partials (checked on their own too), `schemas.json` and `tools.json` registries. They
//! render, list and document through the dotprompt format like every other prompt.

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

/// What `check` needs: how many prompts and partials were read, and their problems.
pub struct Checked {
    /// `NAME.prompt` files.
    pub count: usize,
    /// `_NAME.prompt` files.
    pub partials: usize,
    pub problems: Diagnostics,
}

/// Checks every `.prompt` file of the folder (partials with the prompts that use them,
/// and on their own).
pub fn check(dir: &Path) -> Checked {
    let all = files(dir);
    let partials = all.iter().filter(|(_, _, partial)| *partial).count();
    let count = all.len() - partials;
    let mut problems = Diagnostics::default();
    let folder = match folder(dir) {
        Ok(folder) => folder,
        Err(e) => {
            problems.extend(e);
            return Checked {
                count,
                partials,
                problems,
            };
        }
    };
    // A partial is checked with each prompt that includes it and on its own: each of its
    // problems is reported once.
    let mut seen = std::collections::HashSet::new();
    for (name, _, partial) in &all {
        let result = if *partial {
            folder.check_partial(name)
        } else {
            folder.load(name).map(|_| ())
        };
        if let Err(e) = result {
            for problem in e {
                if seen.insert(problem.to_string()) {
                    problems.push(problem);
                }
            }
        }
    }
    Checked {
        count,
        partials,
        problems,
    }
}
