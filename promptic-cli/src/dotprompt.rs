//! dotprompt files in a prompts folder: `NAME.prompt` prompts, `_NAME.prompt` partials,
//! `schemas.json` and `tools.json` registries; rendered, checked, listed and documented.

use prompt_runtime::Diagnostics;
use prompt_runtime::formats::dotprompt::folder::Folder;
use prompt_runtime::formats::dotprompt::{Dotprompt, Value, schema};
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

fn shown(dir: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(dir).unwrap_or(path);
    format!(
        "{}/{}",
        crate::display_dir(dir),
        relative.to_string_lossy().replace('\\', "/")
    )
}

/// The folder as the derive reads it too: its registries read through the guarded reader.
pub fn folder(dir: &Path) -> Result<Folder, Diagnostics> {
    Folder::open(Root::new(dir, crate::display_dir(dir)))
}

/// The inputs a prompt reads, each with whether it must be given: its input schema's
/// properties, or, without a schema, the first names of the paths its template reads (each
/// optional: Handlebars renders a missing one as nothing).
fn inputs(prompt: &Dotprompt) -> Vec<(String, bool)> {
    let metadata = prompt.render_metadata();
    if let Some(schema) = metadata.input_schema() {
        let Some(properties) = schema::properties(schema) else {
            return Vec::new();
        };
        return properties
            .keys()
            .map(|key| (key.to_owned(), schema::required(schema, key)))
            .collect();
    }
    let mut names: Vec<(String, bool)> = Vec::new();
    for path in prompt.input_paths() {
        if let Some(first) = path.segments.into_iter().next()
            && !names.iter().any(|(n, _)| *n == first)
        {
            names.push((first, false));
        }
    }
    names
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

/// One prompt for `list`: its path, model, description, the input it reads, or its
/// first problem.
pub struct Listed {
    pub name: String,
    pub path: String,
    pub description: Option<String>,
    /// The inputs it reads, each with whether it is required.
    pub reads: Vec<(String, bool)>,
    pub error: Option<Diagnostics>,
    pub prompt: Option<Dotprompt>,
}

/// Every prompt of the folder, parsed.
pub fn listed(dir: &Path) -> Vec<Listed> {
    let folder = folder(dir);
    files(dir)
        .into_iter()
        .filter(|f| !f.2)
        .map(|(name, path, _)| {
            let display = shown(dir, &path);
            let parsed = match &folder {
                Ok(folder) => folder.load(&name).map(|loaded| loaded.prompt),
                Err(e) => Err(e.clone()),
            };
            match parsed {
                Ok(prompt) => Listed {
                    name,
                    path: display,
                    description: prompt
                        .render_metadata()
                        .0
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    reads: inputs(&prompt),
                    error: None,
                    prompt: Some(prompt),
                },
                Err(e) => Listed {
                    name,
                    path: display,
                    description: None,
                    reads: Vec::new(),
                    error: Some(e),
                    prompt: None,
                },
            }
        })
        .collect()
}

/// The Markdown page of a dotprompt prompt for `docs`.
pub fn page(listed: &Listed) -> String {
    let mut page = format!("# {}\n\n", listed.name);
    if let Some(description) = &listed.description {
        page.push_str(&format!("{description}\n\n"));
    }
    page.push_str(&format!("File: `{}` (dotprompt)\n\n", listed.path));
    match &listed.prompt {
        Some(prompt) => {
            let metadata = prompt.render_metadata();
            if let Some(model) = metadata.model() {
                page.push_str(&format!("Model: `{model}`\n\n"));
            }
            if !listed.reads.is_empty() {
                page.push_str("## Input it reads\n\n");
                for (name, required) in &listed.reads {
                    let optional = if *required { "" } else { " (optional)" };
                    page.push_str(&format!("- `{name}`{optional}\n"));
                }
                page.push('\n');
            }
            for (title, schema) in [
                ("Input schema", prompt.input_schema_json()),
                ("Output schema", prompt.output_schema_json()),
            ] {
                if let Some(schema) = schema {
                    let pretty = serde_json::from_str::<serde_json::Value>(&schema)
                        .ok()
                        .and_then(|v| serde_json::to_string_pretty(&v).ok())
                        .unwrap_or(schema);
                    page.push_str(&format!("## {title}\n\n```json\n{pretty}\n```\n\n"));
                }
            }
            page.push_str(&format!(
                "## Source\n\n````handlebars\n{}\n````\n",
                prompt.source().text()
            ));
        }
        None => {
            page.push_str("## Problems\n\n```text\n");
            if let Some(error) = &listed.error {
                page.push_str(&error.to_string());
            }
            page.push_str("\n```\n");
        }
    }
    page
}
