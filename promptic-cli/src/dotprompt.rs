//! dotprompt files in a prompts folder: `NAME.prompt` prompts, `_NAME.prompt` partials,
//! `schemas.json` and `tools.json` registries; rendered, checked, listed and documented.

use prompt_runtime::formats::dotprompt::{
    DataArgument, Dotprompt, PromptMetadata, Registry, Value,
};
use prompt_runtime::load::{MAX_FILE, Root, read_file};
use prompt_runtime::{Diagnostic, Diagnostics};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::Outcome;

/// How deep the folder walk goes: a folder nested deeper is not read.
const MAX_FOLDER_DEPTH: usize = 32;

/// The prompt file `DIR/NAME.prompt`, if there is one (`NAME` may end in `.prompt`).
pub fn file_of(dir: &Path, name: &str) -> Option<PathBuf> {
    let name = name.strip_suffix(".prompt").unwrap_or(name);
    let base = name.rsplit('/').next().unwrap_or(name);
    if name.is_empty()
        || base.starts_with('_')
        || name.split('/').any(|p| p == ".." || p.is_empty())
    {
        return None;
    }
    // Anything by that name but a folder is the prompt: the guarded reader then refuses a
    // link out of the folder, a FIFO or a device with a message, instead of "not found".
    let path = dir.join(format!("{name}.prompt"));
    (std::fs::symlink_metadata(&path).is_ok() && !path.is_dir()).then_some(path)
}

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

/// Reads a file of the folder through its guarded reader (`load::Root`): inside the
/// folder only, a regular file, at most `load::MAX_FILE` bytes.
fn read(dir: &Path, path: &Path) -> Result<String, Diagnostics> {
    let root = Root::new(dir, crate::display_dir(dir));
    let rel = path.strip_prefix(dir).unwrap_or(path);
    let shown = root.shown(rel);
    match root.read(rel) {
        Ok(Some(bytes)) => text(bytes, &shown),
        Ok(None) => Err(Diagnostic::new(format!("cannot read `{shown}`: not found"))
            .in_file(&shown)
            .into()),
        Err(e) => Err(Diagnostic::from(e).into()),
    }
}

/// A file the user names outside the folder (`--data`): a regular file within the limit.
fn read_named(path: &Path, shown: &str) -> Result<String, Diagnostics> {
    let bytes = read_file(path, shown, MAX_FILE).map_err(Diagnostic::from)?;
    text(bytes, shown)
}

fn text(bytes: Vec<u8>, shown: &str) -> Result<String, Diagnostics> {
    String::from_utf8(bytes).map_err(|_| {
        Diagnostic::new(format!("cannot read `{shown}`: it is not UTF-8 text"))
            .in_file(shown)
            .into()
    })
}

/// A JSON object file of the folder (`schemas.json`, `tools.json`), if present.
fn registry_file(dir: &Path, file: &str) -> Result<Vec<(String, Value)>, Diagnostics> {
    let path = dir.join(file);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(Vec::new());
    }
    let name = shown(dir, &path);
    let text = read(dir, &path)?;
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(object)) => Ok(object
            .iter()
            .map(|(k, v)| (k.to_owned(), v.clone()))
            .collect()),
        Ok(_) => Err(Diagnostic::new(format!("`{name}` is not a JSON object"))
            .in_file(&name)
            .with_help("write an object from each name to its definition")
            .into()),
        Err(e) => Err(Diagnostic::new(format!("`{name}` is not valid JSON: {e}"))
            .in_file(&name)
            .into()),
    }
}

/// The folder's registries: its partials, named schemas and tools.
pub fn registry(dir: &Path) -> Result<Registry, Diagnostics> {
    let mut registry = Registry::new();
    let mut problems = Diagnostics::default();
    for (name, path, partial) in files(dir) {
        if !partial {
            continue;
        }
        let display = shown(dir, &path);
        match read(dir, &path) {
            Ok(text) => {
                if let Err(e) = registry.define_partial_file(&name, &display, &text) {
                    problems.extend(e);
                }
            }
            Err(e) => problems.extend(e),
        }
    }
    match registry_file(dir, "schemas.json") {
        Ok(schemas) => {
            for (name, schema) in schemas {
                registry.define_schema(&name, schema);
            }
        }
        Err(e) => problems.extend(e),
    }
    match registry_file(dir, "tools.json") {
        Ok(tools) => {
            for (name, tool) in tools {
                registry.define_tool(&name, tool);
            }
        }
        Err(e) => problems.extend(e),
    }
    problems.into_result(registry)
}

/// Parses one prompt of the folder against its registries.
pub fn load(dir: &Path, registry: &Registry, path: &Path) -> Result<Dotprompt, Diagnostics> {
    let display = shown(dir, path);
    let text = read(dir, path)?;
    registry.parse_file(&display, &text)
}

/// `--data DATA.json`: the DataArgument, plus render options under `options`.
#[derive(Default, Deserialize)]
struct DataFile {
    #[serde(flatten)]
    data: DataArgument,
    #[serde(default)]
    options: PromptMetadata,
}

/// `promptic render NAME --data DATA.json [--json]` for `DIR/NAME.prompt`.
pub fn render(dir: &Path, path: &Path, data: Option<&Path>, json: bool) -> Outcome {
    let registry = registry(dir)?;
    let prompt = load(dir, &registry, path)?;
    let file: DataFile = match data {
        None => DataFile::default(),
        Some(data) => {
            let display = data.to_string_lossy().into_owned();
            let text = read_named(data, &display)?;
            serde_json::from_str(&text).map_err(|e| {
                Diagnostics::from(
                    Diagnostic::new(format!("`{display}` is not a dotprompt data file: {e}"))
                        .in_file(&display)
                        .with_help("write {\"input\": {...}, \"context\": {...}, \"messages\": [...], \"options\": {...}}"),
                )
            })?
        }
    };
    let rendered = prompt.render_with(&file.data, &file.options)?;
    let mut out = if json {
        serde_json::to_string_pretty(&rendered).unwrap_or_default()
    } else {
        let mut text = String::new();
        for message in &rendered.messages {
            text.push_str(&format!("--- {} ---\n", message.role));
            for part in &message.content {
                match part.text() {
                    Some(t) => text.push_str(t),
                    None => text.push_str(&serde_json::to_string(&part.0).unwrap_or_default()),
                }
            }
            if !text.ends_with('\n') {
                text.push('\n');
            }
        }
        text
    };
    if !out.ends_with('\n') {
        out.push('\n');
    }
    crate::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
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
    let registry = match registry(dir) {
        Ok(registry) => registry,
        Err(e) => {
            problems.extend(e);
            return Checked {
                count,
                partials,
                problems,
            };
        }
    };
    for (_, path, partial) in &all {
        if !partial && let Err(e) = load(dir, &registry, path) {
            problems.extend(e);
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
    pub reads: Vec<String>,
    pub error: Option<Diagnostics>,
    pub prompt: Option<Dotprompt>,
}

/// Every prompt of the folder, parsed.
pub fn listed(dir: &Path) -> Vec<Listed> {
    let registry = registry(dir);
    files(dir)
        .into_iter()
        .filter(|f| !f.2)
        .map(|(name, path, _)| {
            let display = shown(dir, &path);
            let parsed = match &registry {
                Ok(registry) => load(dir, registry, &path),
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
                    reads: prompt
                        .input_paths()
                        .iter()
                        .map(|p| p.segments.join("."))
                        .collect(),
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
                for path in &listed.reads {
                    page.push_str(&format!("- `{path}`\n"));
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
