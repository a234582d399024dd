//! `promptic render`: a prompt's text, or its text, path and metadata as JSON.

use crate::values::{self, RenderOptions};
use crate::{Outcome, open_project};
use clap::Args;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub options: RenderOptions,

    /// Print `{"text", "path", "metadata"}` as JSON instead of the text; for a chat prompt,
    /// `{"messages", "path", "metadata"}`.
    #[arg(long)]
    pub json: bool,

    /// For a store folder: the variant to render (else `default`). Besides a prompt's id,
    /// the name may be an assembly: `system_prompt`, `system_prompt_append`, `prefill`,
    /// `first_assistant`, `dialog_injections`, `chat` (the whole message sequence).
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,

    /// For a store folder: the category filter of `system_prompt` or `prefill`
    /// (PromptEngine's `category_filter`, e.g. `summary`).
    #[arg(long, value_name = "CATEGORY")]
    pub category: Option<String>,

    /// For a store folder: print the chat's assembly plan (`[{"id", "position",
    /// "order"}]`, PromptEngine's `get_chat_message_sequence`) instead of a render; the
    /// name is then `chat`.
    #[arg(long)]
    pub sequence: bool,

    /// For a store folder: a source document of static values, `NAME=FILE.json` (the
    /// registry's `source`, e.g. `persona_config=persona.json`). Repeat for more.
    #[arg(long = "source", value_name = "NAME=FILE.json", value_parser = crate::values::parse_set)]
    pub sources: Vec<(String, String)>,

    /// For a store folder: a user folder to preview over it (its user manifest, user
    /// registry and domain files), as `Store::builder(..).user_dir(..)` reads it.
    #[arg(long, value_name = "DIR")]
    pub user: Option<std::path::PathBuf>,

    /// For a store folder: render a preview, as PromptEngine's Prompt Editor shows it: a
    /// placeholder without a value stays `{{key}}` in the text instead of being an error.
    #[arg(long)]
    pub preview: bool,
}

pub fn run(dir: &Path, args: &RenderArgs) -> Outcome {
    let project = open_project(dir)?;
    crate::eprint_folder_warnings(&project, &[]);
    if args.variant.is_some() {
        return Err(prompt_runtime::Diagnostic::new(
            "`--variant` is for store folders, not prompts folders",
        )
        .into());
    }
    if args.preview {
        return Err(prompt_runtime::Diagnostic::new(
            "`--preview` is for store folders, not prompts folders",
        )
        .with_help("a prompt of a prompts folder renders with every value, or not at all: drop `--preview`")
        .into());
    }
    let (prompt, values) = values::prepare(&project, &args.options, values::Extra::default())?;
    let mut out = if args.json {
        prompt.render_json(&values)?
    } else {
        let text = prompt.render_log(&values)?;
        for note in prompt.notes(&values) {
            eprintln!("note: {note}");
        }
        text
    };
    // One newline at the end, for the shell prompt's sake, unless the text has one already.
    if !out.ends_with('\n') {
        out.push('\n');
    }
    crate::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}
