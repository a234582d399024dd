//! `check`, `list` and `render` on a store folder (one with `_meta/prompt_manifest.json`):
//! the same loader and checks as `#[derive(PromptStore)]`, so the same diagnostics.

use crate::render::RenderArgs;
use crate::style::shown;
use crate::{Outcome, display_dir};
use prompt_runtime::store::{Defaults, Phase, Store, StoreError};
use prompt_runtime::suggest::closest;
use prompt_runtime::{Diagnostic, Diagnostics};
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

fn load(dir: &Path) -> Result<Defaults, Diagnostics> {
    Defaults::__load_as(dir, &display_dir(dir))
}

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
        let keys: Vec<&str> = p.placeholders().collect();
        if !keys.is_empty() {
            let _ = writeln!(out, "  uses      {}", shown(&keys.join(", ")));
        }
    }
    crate::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// The names `render` takes for PromptEngine's assemblies (a prompt with the same id wins).
const ASSEMBLIES: &[&str] = &[
    "system_prompt",
    "system_prompt_append",
    "prefill",
    "first_assistant",
    "dialog_injections",
    "chat",
];

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

pub fn render(dir: &Path, args: &RenderArgs) -> Outcome {
    let options = &args.options;
    if options.context.is_some() || options.identity.is_some() {
        return Err(Diagnostic::new(
            "`--context` and `--identity` are not used for a store folder",
        )
        .with_help("give placeholder values with `--set NAME=VALUE` and `--source NAME=FILE.json`")
        .into());
    }
    let fail = |e: StoreError| -> Diagnostics {
        match e {
            StoreError::Invalid(problems) => problems,
            StoreError::Refused { problems, .. } => *problems,
            other => Diagnostics::from(Diagnostic::new(other.to_string())),
        }
    };
    // The folder as PromptEngine reads it; with `--user`, its layer over the folder.
    let mut builder = match &args.user {
        None => Store::folder_builder(dir).map_err(fail)?,
        Some(user) => Store::builder(load(dir)?).user_dir(user),
    };
    let phases: Vec<(String, Phase)> = builder
        .defaults()
        .placeholders()
        .map(|(k, p)| (k.to_owned(), p))
        .collect();
    let mut runtime: Vec<(&str, &str)> = Vec::new();
    let mut problems = Diagnostics::default();
    for (key, value) in &options.set {
        match phases.iter().find(|(k, _)| k == key) {
            Some((_, Phase::Runtime)) => runtime.push((key, value)),
            Some(_) => builder = builder.static_value(key, value),
            None => {
                let d = Diagnostic::new(format!(
                    "`--set {key}=…`: the registry has no placeholder `{key}`"
                ));
                problems.push(match closest(key, phases.iter().map(|(k, _)| k.as_str())) {
                    Some(c) => d.with_help(format!("did you mean `{c}`?")),
                    None => d,
                });
            }
        }
    }
    for (name, path) in &args.sources {
        match read_source(name, path) {
            Ok(document) => builder = builder.source(name, document),
            Err(e) => problems.extend(e),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let variant = args.variant.as_deref().unwrap_or("default");
    let category = args.category.as_deref().unwrap_or("");
    let store = builder.open().map_err(|e| match e {
        StoreError::MissingValues { keys } => Diagnostics::from(
            Diagnostic::new(format!(
                "no value for the static or computed placeholder{} {}",
                if keys.len() == 1 { "" } else { "s" },
                keys.iter().map(|k| format!("`{{{{{k}}}}}`")).collect::<Vec<_>>().join(", ")
            ))
            .with_help("give each with `--set NAME=VALUE`, or its source document with `--source NAME=FILE.json`"),
        ),
        other => fail(other),
    })?;
    // A `--source` the registry does not name is not used: said, not refused.
    crate::style::eprint_warnings(&store.unused_names().0);
    let name = options.name.as_str();
    let entry = store.get_all_prompts().into_iter().find(|p| p.id == name);
    enum Out {
        Text(String),
        Messages(Vec<prompt_runtime::Message>),
        Plan(Vec<prompt_runtime::store::SequenceEntry>),
    }
    let preview = store.preview();
    // Every operation strict, or as a preview (`--preview`): the same calls on the view.
    macro_rules! call {
        ($method:ident($($arg:expr),*)) => {
            if args.preview {
                preview.$method($($arg),*)
            } else {
                store.$method($($arg),*)
            }
            .map_err(fail)?
        };
    }
    let out = if args.sequence {
        Out::Plan(store.get_chat_message_sequence(variant))
    } else if entry.as_ref().is_some_and(|e| e.multi_turn) {
        Out::Messages(call!(prompt_messages(name, variant, &runtime)))
    } else if entry.is_some() || !ASSEMBLIES.contains(&name) {
        Out::Text(call!(resolve_prompt(name, variant, &runtime)))
    } else {
        match name {
            "system_prompt" => Out::Text(call!(build_system_prompt_filtered(
                variant, &runtime, category
            ))),
            "system_prompt_append" => Out::Text(call!(get_system_prompt_append(variant, &runtime))),
            "prefill" => Out::Text(call!(build_prefill_filtered(variant, &runtime, category))),
            "first_assistant" => Out::Text(call!(get_first_assistant_content(variant, &runtime))),
            "dialog_injections" => Out::Messages(call!(get_dialog_injections(variant, &runtime))),
            _ => Out::Messages(call!(render_chat_message_sequence(variant, &runtime))),
        }
    };
    let mut text = match (&out, args.json) {
        (Out::Text(t), true) => {
            serde_json::to_string_pretty(&serde_json::json!({ "text": t })).unwrap_or_default()
        }
        (Out::Text(t), false) => t.clone(),
        (Out::Messages(m), true) => {
            serde_json::to_string_pretty(&serde_json::json!({ "messages": m })).unwrap_or_default()
        }
        (Out::Messages(m), false) => {
            // Each message under its `Section: NAME | role=ROLE` header, as chat prompts.
            let mut lines = String::new();
            for (i, message) in m.iter().enumerate() {
                if i > 0 {
                    lines.push_str("\n\n");
                }
                let _ = write!(
                    lines,
                    "Section: {} | role={}\n{}",
                    message.section, message.role, message.content
                );
            }
            lines
        }
        (Out::Plan(plan), true) => serde_json::to_string_pretty(plan).unwrap_or_default(),
        (Out::Plan(plan), false) => {
            let mut lines = String::new();
            for e in plan {
                let _ = writeln!(lines, "{:>5}  {:<16} {}", e.order, e.position, e.id);
            }
            lines
        }
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    crate::print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
