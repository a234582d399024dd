//! `promptic render`: a prompt's text, or its text, path and metadata as JSON.

use crate::values::{self, RenderOptions};
use crate::{Outcome, open_project};
use clap::Args;
use prompt_runtime::Meta;
use prompt_runtime::formats::FrontEnd;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub options: RenderOptions,

    /// For a dotprompt file (`DIR/NAME.prompt`): a JSON file with the data to render it
    /// with: `input`, `context` (the `@` values), `messages` (the history) and `options`
    /// (render options, `options.input.default`).
    #[arg(long, value_name = "DATA.json")]
    pub data: Option<std::path::PathBuf>,

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
}

/// The JSON form of a rendered chat prompt: the messages as a chat API takes them.
#[derive(Serialize)]
struct ChatJson<'a> {
    messages: &'a [prompt_runtime::Message],
    path: &'a str,
    metadata: &'a Meta,
}

/// The JSON form of a rendered prompt; metadata keys stay in their documented order.
#[derive(Serialize)]
struct RenderedJson<'a> {
    text: &'a str,
    path: &'a str,
    metadata: &'a Meta,
}

pub fn run(dir: &Path, args: &RenderArgs) -> Outcome {
    let project = open_project(dir)?;
    // The front end whose file the name reaches, as the derive finds it.
    match project.front_end(&args.options.name)? {
        // A dotprompt file renders to dotprompt's messages and metadata.
        Some((FrontEnd::Dotprompt, file)) => {
            return crate::dotprompt::render(
                dir,
                &dir.join(file),
                &args.options,
                args.data.as_deref(),
                args.json,
            );
        }
        Some((FrontEnd::Jinja, _)) if args.data.is_none() => return jinja(&project, args),
        _ => {}
    }
    if args.data.is_some() {
        return Err(prompt_runtime::Diagnostic::new(format!(
            "`--data` is for dotprompt files, and `{}.prompt` is not one here",
            FrontEnd::prompt_name(&args.options.name)
        ))
        .with_help("give Markdown and Jinja prompts their values with `--context` or `--set`")
        .into());
    }
    let content = match values::render_any(&project, &args.options)? {
        values::Rendered::Text(content) => content,
        // Rendered above with its own flags and output; reached only through `render_any`.
        values::Rendered::Dotprompt(rendered) => {
            let out = if args.json {
                serde_json::to_string_pretty(&rendered).unwrap_or_default() + "\n"
            } else {
                crate::dotprompt::log(&rendered)
            };
            crate::print_stdout(&out)?;
            return Ok(ExitCode::SUCCESS);
        }
        values::Rendered::Chat(chat) => {
            let mut out = if args.json {
                let json = ChatJson {
                    messages: &chat.messages,
                    path: &chat.path,
                    metadata: &chat.metadata,
                };
                serde_json::to_string_pretty(&json).unwrap_or_default()
            } else {
                // Each message under its `Section: NAME | role=ROLE` header.
                chat.to_string()
            };
            if !out.ends_with('\n') {
                out.push('\n');
            }
            crate::print_stdout(&out)?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    let mut out = if args.json {
        let json = RenderedJson {
            text: &content.text,
            path: &content.path,
            metadata: &content.metadata,
        };
        serde_json::to_string_pretty(&json).unwrap_or_default()
    } else {
        content.text
    };
    // One newline at the end, for the shell prompt's sake, unless the text has one already.
    if !out.ends_with('\n') {
        out.push('\n');
    }
    crate::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// `render` of a Jinja prompt: its text exactly as Jinja2 renders it (in `--json`; the
/// plain output gets the one closing newline every render gets).
fn jinja(project: &prompt_runtime::load::Project, args: &RenderArgs) -> Outcome {
    if args.variant.is_some() {
        return Err(prompt_runtime::Diagnostic::new(
            "`--variant` is for store folders, not Jinja prompts",
        )
        .into());
    }
    let (path, text) = crate::jinja::render(project, &args.options)?;
    let mut out = if args.json {
        let json = RenderedJson {
            text: &text,
            path: &path,
            metadata: &Meta::default(),
        };
        serde_json::to_string_pretty(&json).unwrap_or_default()
    } else {
        text
    };
    if !out.ends_with('\n') {
        out.push('\n');
    }
    crate::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}
