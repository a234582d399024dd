//! `promptic tokens`: the token count of a rendered prompt with a real BPE encoding.
//!
//! The encodings ship inside the `tiktoken-rs` crate, so counting needs no network. Text is
//! encoded as ordinary text: a `<|endoftext|>` written in a prompt counts as the characters
//! it is made of, which is what a chat API does with user-supplied text.

use crate::values::{self, RenderOptions};
use crate::{Outcome, open_project};
use clap::{Args, ValueEnum};
use prompt_runtime::Diagnostic;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct TokensArgs {
    #[command(flatten)]
    pub options: RenderOptions,

    /// The BPE encoding: `o200k_base` (GPT-4o and later) or `cl100k_base` (GPT-4, GPT-3.5).
    #[arg(long, value_enum, default_value_t = Encoding::O200kBase)]
    pub encoding: Encoding,

    /// Print `{"name", "encoding", "tokens", "bytes", "chars"}` as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Encoding {
    #[value(name = "o200k_base")]
    O200kBase,
    #[value(name = "cl100k_base")]
    Cl100kBase,
}

impl Encoding {
    fn name(self) -> &'static str {
        match self {
            Encoding::O200kBase => "o200k_base",
            Encoding::Cl100kBase => "cl100k_base",
        }
    }

    /// Loads the encoding's BPE tables (a few hundred milliseconds: load once, count often).
    pub fn load(self) -> Result<Tokenizer, Diagnostic> {
        match self {
            Encoding::O200kBase => tiktoken_rs::o200k_base(),
            Encoding::Cl100kBase => tiktoken_rs::cl100k_base(),
        }
        .map(Tokenizer)
        .map_err(|e| Diagnostic::new(format!("cannot load the {} encoding: {e}", self.name())))
    }
}

/// A loaded encoding.
pub struct Tokenizer(tiktoken_rs::CoreBPE);

impl Tokenizer {
    /// The tokens of `texts` (a prompt's text, or a chat prompt's message contents), summed.
    pub fn count(&self, texts: &[&str]) -> usize {
        texts.iter().map(|t| self.0.encode_ordinary(t).len()).sum()
    }
}

#[derive(Serialize)]
struct Count<'a> {
    name: &'a str,
    encoding: &'static str,
    tokens: usize,
    bytes: usize,
    chars: usize,
    /// For a chat prompt: how many messages were counted (their contents, summed).
    #[serde(skip_serializing_if = "Option::is_none")]
    messages: Option<usize>,
}

pub fn run(dir: &Path, args: &TokensArgs) -> Outcome {
    let project = open_project(dir)?;
    let rendered = values::render_any(&project, &args.options)?;
    let texts = rendered.contents();
    let messages = match &rendered.output {
        prompt_runtime::formats::Output::Text(_) => None,
        prompt_runtime::formats::Output::Chat(chat) => Some(chat.messages.len()),
    };
    let tokens = args.encoding.load()?.count(&texts);
    let count = Count {
        name: prompt_runtime::formats::FrontEnd::prompt_name(&args.options.name),
        encoding: args.encoding.name(),
        tokens,
        bytes: texts.iter().map(|t| t.len()).sum(),
        chars: texts.iter().map(|t| t.chars().count()).sum(),
        messages,
    };
    let out = if args.json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&count).unwrap_or_default()
        )
    } else {
        let summed = match count.messages {
            Some(n) => format!(
                ", the contents of {n} message{} summed",
                if n == 1 { "" } else { "s" }
            ),
            None => String::new(),
        };
        format!(
            "{}: {} tokens ({}), {} bytes, {} chars{summed}\n",
            crate::style::shown(count.name),
            count.tokens,
            count.encoding,
            count.bytes,
            count.chars
        )
    };
    crate::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::Encoding;

    #[test]
    fn known_counts() {
        for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
            let bpe = encoding.load().expect("the encoding loads");
            assert_eq!(bpe.count(&["hello world"]), 2);
            assert_eq!(bpe.count(&[""]), 0);
            assert_eq!(bpe.count(&["hello world", "hello world"]), 4);
        }
        // special tokens are ordinary text here
        let bpe = Encoding::O200kBase.load().expect("the encoding loads");
        assert!(bpe.count(&["<|endoftext|>"]) > 1);
    }
}
