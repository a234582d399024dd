//! `check`, `list` and `render` on a store folder (one with `_meta/prompt_manifest.json`):
//! the same loader and checks as `#[derive(PromptStore)]`, so the same diagnostics.

use crate::render::RenderArgs;
use crate::style::shown;
use crate::{Outcome, display_dir};
use prompt_runtime::store::{Defaults, Phase, Store};
use prompt_runtime::suggest::closest;
use prompt_runtime::{Diagnostic, Diagnostics};
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

fn load(dir: &Path) -> Result<Defaults, Diagnostics> {
    Defaults::__load_as(dir, &display_dir(dir))
}

pub fn check(dir: &Path) -> Outcome {
    match load(dir) {
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
    let defaults = load(dir)?;
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

pub fn render(dir: &Path, args: &RenderArgs) -> Outcome {
    let defaults = load(dir)?;
    let options = &args.options;
    if options.context.is_some() || options.identity.is_some() {
        return Err(Diagnostic::new(
            "`--context` and `--identity` are not used for a store folder",
        )
        .with_help("give placeholder values with `--set NAME=VALUE`")
        .into());
    }
    let phases: Vec<(String, Phase)> = defaults
        .placeholders()
        .map(|(k, p)| (k.to_owned(), p))
        .collect();
    let mut builder = Store::builder(defaults);
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
    if !problems.is_empty() {
        return Err(problems);
    }
    let variant = args.variant.as_deref().unwrap_or("default");
    let fail =
        |e: prompt_runtime::store::StoreError| Diagnostics::from(Diagnostic::new(e.to_string()));
    let store = builder.open().map_err(fail)?;
    let mut text = if options.name == "system_prompt" {
        store.build_system_prompt(variant, &runtime).map_err(fail)?
    } else {
        store
            .resolve_prompt(&options.name, variant, &runtime)
            .map_err(fail)?
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    crate::print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
