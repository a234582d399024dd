//! `check`, `list` and `render` on a store folder (one with `_meta/prompt_manifest.json`):
//! the same loader and checks as `#[derive(PromptStore)]`, so the same diagnostics.

use crate::render::RenderArgs;
use crate::style::shown;
use crate::{Outcome, display_dir};
use prompt_runtime::formats::promptengine::{PROMPTENGINE, StoreOptions};
use prompt_runtime::formats::{LoadedPrompt, Values};
use prompt_runtime::load::Project;
use prompt_runtime::store::Defaults;
use prompt_runtime::{Diagnostic, Diagnostics};
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

/// The folder as PromptEngine reads it (`Store::open_folder`).
fn load_folder(dir: &Path) -> Result<Defaults, Diagnostics> {
    Defaults::__load_folder_as(dir, &display_dir(dir))
}

pub fn check(dir: &Path) -> Outcome {
    // Every prompt's problems at once: a check refuses what a store would refuse.
    let loaded = load_folder(dir).and_then(|defaults| {
        let mut all = Diagnostics::default();
        for (_, problems) in defaults.problems() {
            all.extend(problems);
        }
        all.into_result(defaults)
    });
    match loaded {
        Ok(defaults) => {
            let variants: usize = defaults.prompts().map(|p| p.variants().count()).sum();
            let keys = defaults.placeholders().count();
            let prompts = defaults.prompts().count();
            crate::print_stdout(&format!(
                "checked store `{}`: {prompts} prompts, {variants} variants, {keys} placeholders: no errors\n",
                display_dir(dir)
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(problems) => {
            crate::style::eprint_diagnostics(&problems);
            let n = problems.0.len();
            crate::print_stdout(&format!(
                "checked store `{}`: {n} error{}\n",
                display_dir(dir),
                if n == 1 { "" } else { "s" }
            ))?;
            Ok(ExitCode::FAILURE)
        }
    }
}

pub fn list(dir: &Path) -> Outcome {
    let defaults = load_folder(dir)?;
    let project = crate::open_project(dir)?;
    let mut out = String::new();
    for p in defaults.prompts() {
        let _ = writeln!(
            out,
            "{}  {}",
            shown(p.id()),
            shown(p.label().unwrap_or_default())
        );
        let _ = writeln!(
            out,
            "  {}  order {}{}{}",
            p.target().as_str(),
            p.order(),
            p.category()
                .map(|c| format!(", category {}", shown(c)))
                .unwrap_or_default(),
            if p.enabled() { "" } else { ", disabled" }
        );
        let variants: Vec<&str> = p.variants().collect();
        let _ = writeln!(out, "  variants  {}", shown(&variants.join(", ")));
        // The values a render takes, as the store format reports them: the prompt's own
        // placeholders, then what the store needs to open.
        let reads = PROMPTENGINE.load_store(&project, p.id())?;
        let keys: Vec<String> = reads
            .reads()
            .iter()
            .map(|r| match r.required {
                true => r.name.clone(),
                false => format!("{} (optional)", r.name),
            })
            .collect();
        if !keys.is_empty() {
            let _ = writeln!(out, "  uses      {}", shown(&keys.join(", ")));
        }
    }
    crate::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// A `--source NAME=FILE.json` document: a file the user names, read wherever it is (a
/// regular file within the size limit).
fn read_source(name: &str, path: &str) -> Result<serde_json::Value, Diagnostics> {
    let source = crate::values::read_text(Path::new(path), &format!("the `{name}` source"))?;
    serde_json::from_str(source.text()).map_err(|e| {
        let offset = source.offset(e.line(), e.column().max(1));
        Diagnostics::from(
            Diagnostic::new(format!("`{path}` (`--source {name}=…`) is not JSON: {e}"))
                .at(&source, offset..offset + 1)
                .with_help(
                    "a source document is a JSON object, such as PersonaUI's persona_config.json",
                ),
        )
    })
}

/// `render` of a store's prompt or assembly, through the store format (the same render
/// `tokens`, `diff` and `docs` get), with PromptEngine's own choices; `--sequence` prints
/// the chat's assembly plan instead.
pub fn render(dir: &Path, args: &RenderArgs) -> Outcome {
    let options = &args.options;
    if options.identity.is_some() || options.history.is_some() || !options.tag.is_empty() {
        return Err(Diagnostic::new(
            "`--identity`, `--history` and `--tag` are not used for a store folder",
        )
        .with_help("give placeholder values with `--set NAME=VALUE`, `--context FILE.json` and `--source NAME=FILE.json`")
        .into());
    }
    if options.data.is_some() {
        return Err(
            Diagnostic::new("`--data` is for dotprompt files, not store folders")
                .with_help(
                    "give placeholder values with `--set NAME=VALUE` or `--context FILE.json`",
                )
                .into(),
        );
    }
    let mut sources = Vec::new();
    let mut problems = Diagnostics::default();
    for (name, path) in &args.sources {
        match read_source(name, path) {
            Ok(document) => sources.push((name.clone(), document)),
            Err(e) => problems.extend(e),
        }
    }
    let values = match crate::values::given(options, crate::values::Extra::default()) {
        Ok(values) => values,
        Err(e) => {
            problems.extend(e);
            Values::new()
        }
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    let store_options = StoreOptions {
        variant: args.variant.clone(),
        category: args.category.clone(),
        user: args.user.clone(),
        sources,
        preview: args.preview,
    };
    let project = crate::open_project(dir)?;
    let name = options.name.as_str();
    if args.sequence {
        return sequence(&project, &values, &store_options, args.json);
    }
    // Read under the user folder's lock, so that a render never reads half of an edit
    // another process is writing.
    let prompt = if args.user.is_some() {
        PROMPTENGINE.load_layered(&project, name)?
    } else {
        PROMPTENGINE.load_store(&project, name)?
    }
    .with_hooks(&prompt_store::LOCKED);
    let (output, warnings) = prompt.render_with(&values, &store_options)?;
    // A `--source` the registry does not name is not used: said, not refused.
    crate::style::eprint_warnings(&warnings.0);
    let mut text = if args.json {
        output.to_json()
    } else {
        output.log()
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    crate::print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `render --sequence`: the chat's assembly plan (PromptEngine's
/// `get_chat_message_sequence`), from the store the values and options open.
fn sequence(project: &Project, values: &Values, options: &StoreOptions, json: bool) -> Outcome {
    let prompt = PROMPTENGINE
        .load_layered(project, "chat")?
        .with_hooks(&prompt_store::LOCKED);
    let plan = prompt.sequence(values, options)?;
    let text = if json {
        let mut text = serde_json::to_string_pretty(&plan).unwrap_or_default();
        text.push('\n');
        text
    } else {
        let mut lines = String::new();
        for e in &plan {
            let _ = writeln!(lines, "{:>5}  {:<16} {}", e.order, e.position, e.id);
        }
        lines
    };
    crate::print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
