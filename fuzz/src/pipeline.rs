//! A whole prompts folder from memory: a prompt, its `promptic.json` and templates,
//! loaded, checked and rendered as the CLI and `Project` do.
//!
//! Input: files, each ended by a `0xFF` byte (never part of UTF-8 text, so any text fits
//! in a file):
//!
//! ```text
//! PROMPT 0xFF PROMPTIC_JSON 0xFF NAME \n TEMPLATE 0xFF NAME \n TEMPLATE ...
//! ```
//!
//! The first file is the prompt (`prompts/fuzz.md`), the second the configuration (empty:
//! no file, the defaults), every further one a template named by its first line
//! (`prompts/templates/NAME.md`); a name that is not a placeholder name is skipped, as
//! `Project::open` skips it.

use prompt_runtime::check::{self, CheckedPrompt};
use prompt_runtime::doc::{PageOptions, markdown_page};
use prompt_runtime::load::{self, PromptFile};
use prompt_runtime::resolve::{Schema, Templates, VarKind};
use prompt_runtime::{Config, Identity};
use std::collections::HashMap;

/// One input: every stage must either succeed or report diagnostics that render; a prompt
/// that checks must render, given every value, into exactly one allocation.
pub fn run(data: &[u8]) {
    let mut files = data.split(|&b| b == 0xFF);
    let prompt = files.next().unwrap_or_default();
    let config = files.next().unwrap_or_default();

    let config = if config.is_empty() {
        Config::default()
    } else {
        match load::decode("prompts/promptic.json", config)
            .and_then(|source| Config::from_source(&source))
        {
            Ok(config) => config,
            Err(diagnostics) => {
                let _ = diagnostics.to_string();
                // Go on with the defaults, to reach the later stages.
                Config::default()
            }
        }
    };

    let mut templates = Templates::new();
    for file in files {
        let (name, body) = match file.iter().position(|&b| b == b'\n') {
            Some(at) => (&file[..at], &file[at + 1..]),
            None => (file, &[][..]),
        };
        let Ok(name) = std::str::from_utf8(name) else {
            continue;
        };
        if !prompt_runtime::parse::lexer::is_name(name) {
            continue;
        }
        let path = format!("prompts/templates/{name}.md");
        match PromptFile::from_bytes(&path, body) {
            Ok(mut file) => {
                follow_folder_syntax(&mut file, &config);
                templates.insert(name, file)
            }
            Err(diagnostics) => {
                let _ = diagnostics.to_string();
            }
        }
    }

    let file = match PromptFile::from_bytes("prompts/fuzz.md", prompt) {
        Ok(mut file) => {
            follow_folder_syntax(&mut file, &config);
            file
        }
        Err(diagnostics) => {
            let _ = diagnostics.to_string();
            return;
        }
    };

    let _ = check::referenced_names(&file, &templates);
    let identity_keys: Vec<String> = config.identity.keys().map(str::to_owned).collect();
    let context = check::infer_context(&file, &identity_keys, &config.literals, &templates);
    let schema = Schema {
        context,
        identity: identity_keys,
        literals: config.literals.clone(),
        missing_hint: None,
    };
    // Half the names given, each left-out one misspelt by a letter: names nothing gives,
    // repeated, taken for the values they are close to.
    let partial = Schema {
        context: schema
            .context
            .iter()
            .enumerate()
            .map(|(i, var)| {
                let mut var = var.clone();
                if i % 2 == 1 {
                    var.name.push('x');
                }
                var
            })
            .collect(),
        ..schema.clone()
    };
    let unused = check::unused_context(&file, &partial, &templates);
    assert!(unused.iter().all(|&i| i < partial.context.len()));
    if let Err(diagnostics) = check::check("fuzz", file.clone(), partial, &templates) {
        let _ = diagnostics.to_string();
    }
    match check::check("fuzz", file, schema, &templates) {
        Ok(prompt) => render_every_way(&prompt, &config.identity),
        Err(diagnostics) => {
            let _ = diagnostics.to_string();
        }
    }
}

/// A file that does not say how its placeholders are written takes the folder's way, as
/// `Project` loads it.
fn follow_folder_syntax(file: &mut PromptFile, config: &Config) {
    if !file.declares_syntax() {
        file.syntax = config.placeholders;
    }
}

/// Renders a checked prompt with every value given (blocks on, then off), as text and as
/// messages, and writes its documentation page. The example identity has every key the schema names, so a render
/// cannot fail.
fn render_every_way(prompt: &CheckedPrompt, identity: &Identity) {
    for on in [true, false] {
        let values: HashMap<String, String> = prompt
            .schema
            .context
            .iter()
            .filter_map(|var| {
                let value = match &var.kind {
                    // A value that looks like a placeholder stays as it is.
                    VarKind::Text => format!("<{} ${{x}} $$>", var.name),
                    VarKind::Optional if on => format!("<{}>", var.name),
                    VarKind::Optional => return None,
                    // Messages come with the history.
                    VarKind::Messages => return None,
                    VarKind::Flag => on.to_string(),
                    VarKind::Choice(choices) => {
                        let pick = if on { choices.first() } else { choices.last() };
                        pick.cloned().unwrap_or_default()
                    }
                };
                Some((var.name.clone(), value))
            })
            .collect();
        // As messages too (a prompt without sections gives one system message), with a
        // history and then without one.
        let history = [
            prompt_runtime::Message::user("<earlier $x {% if x %}>"),
            prompt_runtime::Message::assistant(""),
        ];
        let history = if on { &history[..] } else { &[] };
        if let Err(error) = prompt.messages(&values, history, identity) {
            panic!("a checked prompt with every value fails to render as messages: {error}");
        }
        match prompt.render(&values, identity) {
            Ok(out) => assert_eq!(
                out.text.len(),
                out.text.capacity(),
                "the text is allocated once, at its exact size"
            ),
            Err(error) => panic!("a checked prompt with every value fails to render: {error}"),
        }
    }
    let _ = markdown_page(
        prompt,
        &PageOptions {
            heading_level: 2,
            field_types: None,
            sections: Vec::new(),
        },
    );
}
