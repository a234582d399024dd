//! `store export|import|reset`: the user layer of a store folder, written to a zip
//! archive, read back from one, or reset to the defaults — through the library's `Store`,
//! so with its checks, atomic writes and folder lock.

use crate::style::shown;
use crate::{Outcome, display_dir};
use clap::{Args, Subcommand, ValueEnum};
use prompt_runtime::store::{Defaults, Phase, StoreError};
use prompt_runtime::{Diagnostic, Diagnostics};
use prompt_store::{ImportMode, Store};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct StoreArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Write the user layer (user manifest, user placeholder registry, edited domain files)
    /// to a zip archive, atomically.
    #[command(
        after_help = "Example:\n  promptic store export backup.zip --dir examples/persona_prompts --user ~/.config/app/prompts"
    )]
    Export {
        /// The archive to write.
        #[arg(value_name = "OUT.zip")]
        out: PathBuf,
        #[command(flatten)]
        user: UserDir,
    },

    /// Read a zip archive into the user layer; the whole archive is checked first.
    ///
    /// A broken or hostile archive (not a zip, bad JSON, unknown placeholders, names that
    /// leave the folder, links, oversized entries, …) is refused with its problems and
    /// nothing is changed (exit 1).
    #[command(
        after_help = "Example:\n  promptic store import backup.zip --dir examples/persona_prompts --user ~/.config/app/prompts\n  promptic store import backup.zip --mode replace --dir examples/persona_prompts --user ~/.config/app/prompts"
    )]
    Import {
        /// The archive to read.
        #[arg(value_name = "IN.zip")]
        archive: PathBuf,
        /// `merge` adds what the user layer does not customize yet, `overwrite` lets the
        /// archive win for the prompts it has, `replace` makes the user layer the archive's.
        #[arg(long, value_enum, default_value_t = Mode::Merge)]
        mode: Mode,
        #[command(flatten)]
        user: UserDir,
    },

    /// Reset one prompt to its default, or (with `--all`) the whole user layer.
    ///
    /// `--all` is required for a factory reset, so that a missing id never resets
    /// everything.
    #[command(
        after_help = "Example:\n  promptic store reset system_rule --dir examples/persona_prompts --user ~/.config/app/prompts\n  promptic store reset --all --dir examples/persona_prompts --user ~/.config/app/prompts"
    )]
    Reset(ResetArgs),
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["prompt", "all"])))]
struct ResetArgs {
    /// The prompt to reset (its edited texts and flags go; the defaults stay).
    #[arg(value_name = "PROMPT_ID")]
    prompt: Option<String>,
    /// Reset every customization: edits, flags and the user's own prompts.
    #[arg(long, conflicts_with = "prompt")]
    all: bool,
    #[command(flatten)]
    user: UserDir,
}

#[derive(Debug, Args)]
struct UserDir {
    /// The user folder (its `_meta/user_manifest.json` and `prompts/`); `--dir` is the
    /// store folder of the defaults.
    #[arg(long, value_name = "DIR")]
    user: PathBuf,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Mode {
    Merge,
    Overwrite,
    Replace,
}

impl From<Mode> for ImportMode {
    fn from(mode: Mode) -> ImportMode {
        match mode {
            Mode::Merge => ImportMode::Merge,
            Mode::Overwrite => ImportMode::Overwrite,
            Mode::Replace => ImportMode::Replace,
        }
    }
}

pub fn run(dir: &Path, args: &StoreArgs) -> Outcome {
    match &args.action {
        Action::Export { out, user } => export(dir, &user.user, out),
        Action::Import {
            archive,
            mode,
            user,
        } => import(dir, &user.user, archive, (*mode).into()),
        Action::Reset(reset) => match &reset.prompt {
            Some(id) => reset_one(dir, &reset.user.user, id),
            None => reset_all(dir, &reset.user.user),
        },
    }
}

fn export(dir: &Path, user: &Path, out: &Path) -> Outcome {
    let store = open(dir, user)?;
    let written = store.export_prompts(out).map_err(problems)?;
    crate::print_stdout(&format!(
        "exported the user layer of `{}` to `{}`: {}, {} ({} file{})\n",
        display_dir(user),
        shown(&out.display().to_string()),
        counted(&written.prompt_ids, "prompt"),
        counted(&written.placeholders, "user placeholder"),
        written.files.len(),
        if written.files.len() == 1 { "" } else { "s" }
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn import(dir: &Path, user: &Path, archive: &Path, mode: ImportMode) -> Outcome {
    let store = open(dir, user)?;
    let done = store.import_prompts_with(archive, mode).map_err(problems)?;
    if done.defaults_differ {
        crate::style::eprint_warnings(&[Diagnostic::new(format!(
            "`{}` was exported over other defaults (their manifest or registry differ from `{}`'s); it was checked against these",
            shown(&archive.display().to_string()),
            display_dir(dir)
        ))]);
    }
    let mut out = format!(
        "imported `{}` into `{}` ({}): {}\n",
        shown(&archive.display().to_string()),
        display_dir(user),
        mode.as_str(),
        counted(&done.imported, "prompt")
    );
    if !done.skipped.is_empty() {
        let _ = writeln!(
            out,
            "skipped {}, customized already",
            counted(&done.skipped, "prompt")
        );
    }
    if !done.removed.is_empty() {
        let _ = writeln!(
            out,
            "removed the customizations of {}",
            counted(&done.removed, "prompt")
        );
    }
    if !done.placeholders_imported.is_empty() {
        let _ = writeln!(
            out,
            "imported {}",
            counted(&done.placeholders_imported, "user placeholder")
        );
    }
    if !done.placeholders_skipped.is_empty() {
        let _ = writeln!(
            out,
            "skipped {}, in the user registry already",
            counted(&done.placeholders_skipped, "user placeholder")
        );
    }
    crate::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn reset_one(dir: &Path, user: &Path, id: &str) -> Outcome {
    open(dir, user)?
        .reset_prompt_to_default(id)
        .map_err(problems)?;
    crate::print_stdout(&format!(
        "reset `{}` to its default in `{}`\n",
        shown(id),
        display_dir(user)
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn reset_all(dir: &Path, user: &Path) -> Outcome {
    open(dir, user)?.factory_reset().map_err(problems)?;
    crate::print_stdout(&format!(
        "reset `{}` to the defaults: every edit, flag and user prompt removed\n",
        display_dir(user)
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The store over `dir` (the defaults) and `user`. Nothing is rendered, so every static
/// and computed placeholder gets an empty value: the store's own check for values is for
/// renders.
fn open(dir: &Path, user: &Path) -> Result<Store, Diagnostics> {
    if !prompt_runtime::store::is_store_dir(dir) {
        return Err(Diagnostic::new(format!(
            "`{}` is not a store folder: it has no `_meta/prompt_manifest.json`",
            display_dir(dir)
        ))
        .with_help("give the store folder of the defaults with `--dir DIR`")
        .into());
    }
    let defaults = Defaults::__load_as(dir, &display_dir(dir))?;
    let mut keys: Vec<String> = defaults
        .placeholders()
        .filter(|(_, phase)| *phase != Phase::Runtime)
        .map(|(name, _)| name.to_owned())
        .collect();
    // The user registry may add placeholders of its own: a second try gives them values.
    loop {
        let mut builder = Store::builder(defaults.clone()).user_dir(user);
        for key in &keys {
            builder = builder.static_value(key.clone(), "");
        }
        match builder.open() {
            Ok(store) => return Ok(store),
            Err(StoreError::MissingValues { keys: more })
                if more.iter().any(|k| !keys.contains(k)) =>
            {
                keys.extend(more);
            }
            Err(e) => return Err(problems(e)),
        }
    }
}

fn problems(e: StoreError) -> Diagnostics {
    match e {
        StoreError::Invalid(problems) => problems,
        other => Diagnostic::new(other.to_string()).into(),
    }
}

/// `2 prompts (a, b)`, `1 prompt (a)`, `0 prompts`.
fn counted(names: &[String], what: &str) -> String {
    let plural = if names.len() == 1 { "" } else { "s" };
    if names.is_empty() {
        format!("0 {what}s")
    } else {
        format!(
            "{} {what}{plural} ({})",
            names.len(),
            shown(&names.join(", "))
        )
    }
}
