//! `promptic`: list, render, check, diff, document (`docs`) and count the tokens of the
//! prompts in a prompts folder, with the same language and the same diagnostics as the
//! compile-time macro; and export, import or reset a store's user layer (`store`).
//!
//! Exit codes: 0 when all went well, 1 for problems in the prompts (diagnostics, missing
//! values, unreadable files), 2 for usage errors (clap's own).

mod check;
mod diff;
mod docs;
mod dotprompt;
mod keep;
mod list;
mod render;
mod store;
mod store_edit;
mod style;
mod tokens;
mod values;

use clap::{Parser, Subcommand};
use prompt_runtime::Diagnostics;
use prompt_runtime::load::Project;
use std::path::PathBuf;
use std::process::ExitCode;

/// Work with the prompt files of a promptic project.
#[derive(Debug, Parser)]
#[command(name = "promptic", version, about)]
#[command(
    after_help = "Example:\n  promptic check --dir prompts\n  promptic render greeting --set day=Friday"
)]
struct Cli {
    /// The prompts folder (with `promptic.json` and `templates/`).
    #[arg(long, global = true, default_value = "prompts", value_name = "DIR")]
    dir: PathBuf,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List every prompt with its title, schedule and variables.
    ///
    /// A prompt that fails its checks is listed as broken, with its first problem; the exit
    /// code is then 1.
    #[command(
        after_help = "Example:\n  promptic list --dir prompts\n  promptic list --json | jq '.[].name'"
    )]
    List(list::ListArgs),

    /// Render a prompt and print its text.
    ///
    /// Prints the rendered text followed by one newline, unless the text already ends with
    /// one; `--json` gives the exact text. Context values come from `--context` and
    /// `--set` (which wins); identity values come from `--identity` (the example identity
    /// of `promptic.json` declares the keys, never their values).
    #[command(
        after_help = "Example:\n  promptic render greeting --set day=Friday --set note=\"bring an umbrella\"\n  promptic render agents/helper --context ctx.json --identity journal.json --json"
    )]
    Render(render::RenderArgs),

    /// Check every prompt and template; print every problem.
    ///
    /// A folder with `_meta/prompt_manifest.json` is checked as a PromptEngine store.
    ///
    /// Prints the same diagnostics as the compile-time macro, and warns about context
    /// variables that look like a misspelt template, identity key or literal.
    #[command(
        after_help = "Example:\n  promptic check --dir prompts\n  promptic check --dir prompts --strict"
    )]
    Check(check::CheckArgs),

    /// Render a prompt twice and print a line diff of the two renders and their tokens.
    ///
    /// `--guidance` compares the prompt at `guidance=detailed` with `guidance=lean`: the
    /// `-` lines are what lean drops; a `+` line (lean adding a line that detailed lacks) is
    /// listed when an either-or registers it (`{% else "why" %}`), and an error otherwise
    /// (exit 1). `--a NAME=VALUE` and `--b NAME=VALUE` compare any other
    /// values: each side gets its own on top of the shared `--set` and `--context` values.
    #[command(
        after_help = "Example:\n  promptic diff analyst --set day=Monday --guidance\n  promptic diff analyst --set day=Monday --guidance --encoding cl100k_base\n  promptic diff analyst --set day=Monday --set guidance=lean --a verbose=yes --b verbose=no\n  promptic diff greeting --identity journal.json --a day=Monday --b day=Saturday"
    )]
    Diff(diff::DiffArgs),

    /// Write a Markdown page per prompt and an index.
    #[command(after_help = "Example:\n  promptic docs --dir prompts --out target/prompt-docs")]
    Docs(docs::DocsArgs),

    /// Count the tokens of a rendered prompt with a real BPE encoding.
    #[command(
        after_help = "Example:\n  promptic tokens greeting --set day=Friday --encoding cl100k_base"
    )]
    Tokens(tokens::TokensArgs),

    /// Export, import or reset the user layer of a store folder (`--dir`: the defaults,
    /// `--user`: the user folder).
    ///
    /// `export` writes the user layer to a zip archive; `import` checks a whole archive
    /// before it changes anything, then merges it (`--mode merge`, the default), lets it
    /// win (`overwrite`) or makes the user layer the archive's (`replace`); `reset` undoes
    /// one prompt's customizations, or all of them with `--all`. The defaults are never
    /// written.
    #[command(
        after_help = "Example:\n  promptic store export backup.zip --dir examples/persona_prompts --user user_prompts\n  promptic store reset --all --dir examples/persona_prompts --user user_prompts\n  promptic store import backup.zip --mode replace --dir examples/persona_prompts --user user_prompts"
    )]
    Store(store_edit::StoreArgs),
}

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    // A store folder (PromptEngine's layout) is checked, listed and rendered as a store.
    let is_store = prompt_runtime::store::is_store_dir(&cli.dir);
    if !is_store {
        let dir = cli.dir.clone();
        if let Command::Render(render::RenderArgs { options, .. })
        | Command::Tokens(tokens::TokensArgs { options, .. })
        | Command::Diff(diff::DiffArgs { options, .. }) = &mut cli.command
            && let Some(name) = name_in_folder(&dir, &options.name)
        {
            options.name = name;
        }
    }
    let outcome = match &cli.command {
        Command::List(args) if is_store && !args.json => store::list(&cli.dir),
        Command::Render(args) if is_store => store::render(&cli.dir, args),
        Command::Check(_) if is_store => store::check(&cli.dir),
        Command::List(args) => list::run(&cli.dir, args),
        Command::Render(args) => render::run(&cli.dir, args),
        Command::Check(args) => check::run(&cli.dir, args),
        Command::Diff(args) => diff::run(&cli.dir, args),
        Command::Docs(args) => docs::run(&cli.dir, args),
        Command::Tokens(args) => tokens::run(&cli.dir, args),
        Command::Store(args) => store_edit::run(&cli.dir, args),
    };
    match outcome {
        Ok(code) => code,
        Err(problems) => {
            style::eprint_diagnostics(&problems);
            ExitCode::FAILURE
        }
    }
}

/// The prompt a name written as a file's path means (`prompts/agents/analyst.md.j2`, as a
/// shell completes it): its path under the folder `dir`, when it is a file there, or when
/// it ends as a prompt file does and the folder holds no such path either (so that the
/// error names `prompts/nothere.md`, not `prompts/prompts/nothere.md`). A name that is no
/// such path is the prompt's name as it is.
fn name_in_folder(dir: &std::path::Path, name: &str) -> Option<String> {
    let path = std::path::Path::new(name);
    let here = |p: &'_ std::path::Path| p.strip_prefix(".").unwrap_or(p).to_owned();
    let (plain, folder) = (here(path), here(dir));
    let under = plain.strip_prefix(&folder).ok()?;
    if under.as_os_str().is_empty() {
        return None;
    }
    let a_prompt_file = || {
        prompt_runtime::formats::FORMATS
            .iter()
            .flat_map(|format| format.endings())
            .any(|ending| name.ends_with(ending))
    };
    if !path.is_file() && (dir.join(name).exists() || !a_prompt_file()) {
        return None;
    }
    Some(under.to_str()?.replace('\\', "/"))
}

/// What a command returns: its exit code, or the problems that stopped it (printed to
/// stderr as diagnostics; exit code 1).
type Outcome = Result<ExitCode, Diagnostics>;

/// Opens the prompts folder once, shown in diagnostics as the user wrote it.
fn open_project(dir: &std::path::Path) -> Result<Project, Diagnostics> {
    Project::open(dir, &display_dir(dir))
}

/// Warns on stderr about what was left out of the folder: template files that no prompt
/// can use, and `walked` (the walk's warnings: folder links that are not followed).
fn eprint_folder_warnings(project: &Project, walked: &[prompt_runtime::Diagnostic]) {
    let all: Vec<_> = project.skipped.iter().chain(walked).cloned().collect();
    style::eprint_warnings(&all);
}

/// How the folder appears in paths printed to the user: as given, without a trailing `/`.
fn display_dir(dir: &std::path::Path) -> String {
    let shown = dir.to_string_lossy().replace('\\', "/");
    let trimmed = shown.trim_end_matches('/');
    let trimmed = if trimmed.is_empty() { &shown } else { trimmed };
    style::shown(trimmed).into_owned()
}

/// Writes a command's result to stdout. A closed pipe (`promptic list | head`) is not an
/// error worth a message, nor a panic; any other failure (a full disk) is, so that a
/// truncated output never passes for a whole one.
fn print_stdout(text: &str) -> Result<(), prompt_runtime::Diagnostic> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(
            prompt_runtime::Diagnostic::new(format!("cannot write to stdout: {e}")),
        ),
        _ => Ok(()),
    }
}
