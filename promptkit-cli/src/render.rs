//! `promptkit render`: a prompt's text, or its text, path and metadata as JSON.

use crate::values::{self, RenderOptions};
use crate::{Outcome, open_project};
use clap::Args;
use prompt_runtime::Meta;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub options: RenderOptions,

    /// Print `{"text", "path", "metadata"}` as JSON instead of the text.
    #[arg(long)]
    pub json: bool,
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
    let content = values::render(&project, &args.options)?;
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
