//! dotprompt files in a prompts folder: `NAME.prompt` prompts, `_NAME.prompt` partials,
//! `schemas.json` and `tools.json` registries; rendered, checked, listed and documented.

use crate::values::RenderOptions;
use prompt_runtime::formats::dotprompt::folder::Folder;
use prompt_runtime::formats::dotprompt::{DataArgument, Dotprompt, Object, PromptMetadata, Value};
use prompt_runtime::formats::dotprompt::{RenderedPrompt, schema};
use prompt_runtime::load::{MAX_FILE, Root, read_file};
use prompt_runtime::suggest::closest;
use prompt_runtime::{Diagnostic, Diagnostics};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::Outcome;

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

/// A file the user names outside the folder (`--data`): a regular file within the limit.
fn read_named(path: &Path, shown: &str) -> Result<String, Diagnostics> {
    let bytes = read_file(path, shown, MAX_FILE).map_err(Diagnostic::from)?;
    String::from_utf8(bytes).map_err(|_| {
        Diagnostic::new(format!("cannot read `{shown}`: it is not UTF-8 text"))
            .in_file(shown)
            .into()
    })
}

/// The folder as the derive reads it too: its registries read through the guarded reader.
pub fn folder(dir: &Path) -> Result<Folder, Diagnostics> {
    Folder::open(Root::new(dir, crate::display_dir(dir)))
}

/// The prompt's name for its file (`sub/plain` for `DIR/sub/plain.prompt`).
fn name_of(dir: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(dir).unwrap_or(path);
    let relative = relative.to_string_lossy().replace('\\', "/");
    relative
        .strip_suffix(".prompt")
        .unwrap_or(&relative)
        .to_owned()
}

/// `--data DATA.json`: the DataArgument, plus render options under `options`.
#[derive(Default, Deserialize)]
struct DataFile {
    #[serde(flatten)]
    data: DataArgument,
    #[serde(default)]
    options: PromptMetadata,
}

/// The prompt `DIR/NAME.prompt` rendered with its values: `--data`'s whole DataArgument,
/// with `--context` and `--set` (which wins) on top of its `input`. Every value given must
/// be one the prompt reads, and every required input of its schema must be given (or
/// defaulted), else nothing renders.
pub fn rendered(
    dir: &Path,
    path: &Path,
    options: &RenderOptions,
    data: Option<&Path>,
) -> Result<(RenderedPrompt, Option<Value>), Diagnostics> {
    let name = name_of(dir, path);
    // The flags of other formats are refused, not ignored.
    let refused = [
        (
            !options.tag.is_empty(),
            "`--tag` chooses a member of a family; a dotprompt file is not one",
            "drop `--tag`",
        ),
        (
            options.item_id.is_some(),
            "`--item-id` chooses a member of a family; a dotprompt file is not one",
            "drop `--item-id`",
        ),
        (
            options.history.is_some(),
            "`--history` is for chat prompts",
            "give a dotprompt file its conversation in `--data`'s `messages`",
        ),
        (
            options.identity.is_some(),
            "`--identity` does not apply to a dotprompt file",
            "give its input with `--set NAME=VALUE` or `--context FILE.json`",
        ),
    ];
    if let Some((_, message, help)) = refused.iter().find(|(given, _, _)| *given) {
        return Err(Diagnostic::new(*message).with_help(*help).into());
    }
    let prompt = folder(dir)?.load(&name)?.prompt;
    let mut file: DataFile = match data {
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
    let data_name = data.map(|d| d.to_string_lossy().into_owned());
    input(&name, &prompt, options, &mut file, data_name.as_deref())?;
    let rendered = prompt.render_with(&file.data, &file.options)?;
    // What dotprompt's `renderMetadata` gives for the same options: its `input` (schemas
    // compiled, defaults merged) is what `--json` adds to the render.
    let input = prompt
        .render_metadata_with(&file.options)?
        .0
        .get("input")
        .cloned();
    Ok((rendered, input))
}

/// Where a value came from, for messages: `--set NAME=VALUE`, a `--context` file, `--data`.
fn origin(
    key: &str,
    set: &[(String, String)],
    context: Option<&str>,
    data: Option<&str>,
) -> String {
    if let Some((_, value)) = set.iter().rev().find(|(k, _)| k == key) {
        return format!("`--set {key}={value}`");
    }
    match (context, data) {
        (Some(context), _) => format!("the key `{key}` of `{context}`"),
        (None, Some(data)) => format!("the key `input.{key}` of `{data}`"),
        (None, None) => format!("`{key}`"),
    }
}

/// Merges `--context` and `--set` into the input and checks it against what the prompt
/// reads: its input schema's properties (with their types for `--set`, which gives text),
/// or, without a schema, the names its template reads.
fn input(
    name: &str,
    prompt: &Dotprompt,
    options: &RenderOptions,
    file: &mut DataFile,
    data: Option<&str>,
) -> Result<(), Diagnostics> {
    let metadata = prompt.render_metadata();
    let schema = metadata.input_schema();
    let properties = schema.and_then(schema::properties);
    let mut problems = Diagnostics::default();
    let context_name = options
        .context
        .as_ref()
        .map(|p| p.to_string_lossy().into_owned());
    let mut given: Vec<String> = file.data.input.keys().map(str::to_owned).collect();
    if let Some(path) = &options.context {
        for (key, value) in crate::jinja::context_object(path)? {
            given.push(key.clone());
            file.data.input.insert(key, Value::from(value));
        }
    }
    for (key, text) in &options.set {
        let kind = properties
            .and_then(|p| p.get(key))
            .and_then(schema::schema_type);
        let value = match kind.as_deref() {
            Some("integer") => text.parse::<i64>().ok().map(|n| json(n.into())),
            Some("number") => text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number),
            Some("boolean") => match text.as_str() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            _ => Some(Value::String(text.clone())),
        };
        match value {
            Some(value) => {
                given.push(key.clone());
                file.data.input.insert(key.clone(), value);
            }
            None => problems.push(
                Diagnostic::new(format!(
                    "`--set {key}={text}`: the input schema says `{key}` is {}",
                    kind.as_deref().map(a_type).unwrap_or("something else")
                ))
                .with_help(format!("write `--set {key}=...` with a value of that type, or give it in `--context FILE.json`")),
            ),
        }
    }
    // What the prompt reads, as `list` shows it.
    let reads: Vec<String> = inputs(prompt).into_iter().map(|(name, _)| name).collect();
    // A schema without properties (`any`, a named type) takes whatever it is given, and
    // so does a template that reads the whole input (`{{json this}}`).
    let open = (schema.is_some() && properties.is_none()) || prompt.reads_whole_input();
    given.sort();
    given.dedup();
    for key in &given {
        if open || reads.contains(key) {
            continue;
        }
        let from = origin(key, &options.set, context_name.as_deref(), data);
        let d = Diagnostic::new(format!(
            "prompt `{name}` reads no input `{key}` (from {from})"
        ));
        problems.push(match closest(key, reads.iter().map(String::as_str)) {
            Some(close) => d.with_help(format!("did you mean `{close}`?")),
            None if reads.is_empty() => d.with_help("this prompt reads no input"),
            None => {
                let all: Vec<String> = reads.iter().map(|r| format!("`{r}`")).collect();
                d.with_help(format!("it reads {}", all.join(", ")))
            }
        });
    }
    // Every required property given, or defaulted by the prompt or by `--data`'s options.
    let defaulted = |key: &str| {
        [metadata.0.get("input"), file.options.0.get("input")]
            .into_iter()
            .flatten()
            .any(|input| input.get("default").and_then(|d| d.get(key)).is_some())
    };
    if let Some(schema) = schema
        && let Some(properties) = properties
    {
        for key in properties.keys() {
            if schema::required(schema, key)
                && !file.data.input.contains_key(key)
                && !defaulted(key)
            {
                problems.push(
                    Diagnostic::new(format!(
                        "cannot render `{name}`: the input `{key}` is required and has no value"
                    ))
                    .with_help(format!(
                        "give it with `--set {key}=VALUE`, in `--context FILE.json`, or in `--data`'s `input`; `{key}?` in the schema makes it optional"
                    )),
                );
            }
        }
    }
    problems.into_result(())
}

fn json(value: serde_json::Value) -> Value {
    Value::from(value)
}

fn a_type(t: &str) -> &'static str {
    match t {
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "a boolean (`true` or `false`)",
        _ => "something else",
    }
}

/// `promptic render NAME [--data DATA.json] [--set K=V] [--context FILE] [--json]` for
/// `DIR/NAME.prompt`: dotprompt's messages, or with `--json` its whole result.
pub fn render(
    dir: &Path,
    path: &Path,
    options: &RenderOptions,
    data: Option<&Path>,
    json: bool,
) -> Outcome {
    let (rendered, input) = rendered(dir, path, options, data)?;
    let mut out = if json {
        serde_json::to_string_pretty(&with_input(&rendered, input)).unwrap_or_default()
    } else {
        log(&rendered)
    };
    if !out.ends_with('\n') {
        out.push('\n');
    }
    crate::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
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

/// What a reader sees of a render: each message under a `--- ROLE ---` line, its text parts
/// as written and any other part as its JSON.
pub fn log(rendered: &RenderedPrompt) -> String {
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
}

/// The render of the dotprompt file `file` (relative to `dir`), with `extra` values
/// (`diff`'s `--a`, `--b`) on top of `--set`.
pub fn rendered_with(
    dir: &Path,
    file: &str,
    options: &RenderOptions,
    extra: crate::values::Extra<'_>,
) -> Result<RenderedPrompt, Diagnostics> {
    let mut options = options.clone();
    options.set.extend(extra.values.iter().cloned());
    rendered(dir, &dir.join(file), &options, None).map(|(rendered, _)| rendered)
}

/// The JSON `render --json` prints: dotprompt's render result with the `input` its
/// `renderMetadata` reports (the input schema compiled, `input.default` merged), placed
/// before `output` as dotprompt orders its metadata, so that both halves of a render are
/// visible from the command line.
fn with_input(rendered: &RenderedPrompt, input: Option<Value>) -> Object {
    let mut out = Object::new();
    let mut placed = input.is_none();
    for (key, value) in rendered.metadata.0.iter() {
        if !placed && matches!(key, "output" | "raw") {
            if let Some(input) = &input {
                out.insert("input", input.clone());
            }
            placed = true;
        }
        out.insert(key, value.clone());
    }
    if !placed && let Some(input) = input {
        out.insert("input", input);
    }
    if let Ok(messages) = serde_json::to_value(&rendered.messages) {
        out.insert("messages", Value::from(messages));
    }
    out
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
