//! keep's agent prompts in `render`: a prompt with `"placeholders": "keep"` is read and
//! rendered by promptic's keep front end (`formats::keep`), as keep's `expand_prompt`
//! renders it: `{{include:NAME}}` from the prompts folder, `{name|fallback}`, `{find:...}`,
//! then keep's clean-up. `--set` and `--context` give the values; a binding without a value
//! renders as nothing (or its fallback), as a keep binding that did not fire, and a note on
//! stderr names it.

use crate::values::{Extra, RenderOptions, load_context};
use prompt_runtime::formats::keep::{AgentFile, AgentKind, AgentPrompt};
use prompt_runtime::load::{Project, PromptFile};
use prompt_runtime::parse::lexer::Syntax;
use prompt_runtime::render::PromptContent;
use prompt_runtime::suggest::closest;
use prompt_runtime::{Diagnostic, Diagnostics};
use std::borrow::Cow;
use std::collections::HashMap;

/// What keep's `render_prompt` takes besides the template's bindings.
const REQUEST_VALUES: [&str; 3] = ["text", "since", "until"];

/// The rendered prompt when `name` is a keep agent prompt; `None` for any other prompt.
pub fn render(
    project: &Project,
    name: &str,
    options: &RenderOptions,
    extra: Extra<'_>,
) -> Result<Option<PromptContent>, Diagnostics> {
    if project.prompt_path(name).is_err() {
        return Ok(None);
    }
    let file = project.load_prompt(name)?;
    if file.syntax != Syntax::Keep {
        return Ok(None);
    }
    let checked = project.check_inferred(name)?;
    let path = file.source.path().to_owned();
    let mut agent = AgentFile {
        name: name.to_owned(),
        top: file.clone(),
        included: Default::default(),
    };
    let expansion = agent.expand(project).map_err(Diagnostics::from)?;
    let prompt = AgentPrompt::parse(&expansion.text);
    // keep's request values are taken by every agent prompt (`text` is also the query of
    // its state doc), whether or not the template shows them
    let mut names = prompt.names();
    for request in REQUEST_VALUES {
        if !names.contains(&request) {
            names.push(request);
        }
    }
    let mut values: HashMap<String, String> = HashMap::new();
    let mut problems = Diagnostics::default();
    let from_file = match &options.context {
        Some(file) => load_context(file)?,
        None => Vec::new(),
    };
    let given = from_file
        .iter()
        .map(|pair| ("--context", pair))
        .chain(options.set.iter().map(|pair| ("--set", pair)))
        .chain(extra.values.iter().map(|pair| (extra.flag, pair)));
    for (flag, (key, value)) in given {
        if names.contains(&key.as_str()) {
            values.insert(key.clone(), value.clone());
        } else if flag != "--context" {
            problems.push(unknown(name, &names, flag, key, value));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    // In keep a binding is filled by the state doc's rules, which may not fire: one without
    // a value renders as nothing (or its fallback), as keep renders it. That is said on
    // stderr, so that a forgotten or misspelt value does not pass unseen.
    let mut unfilled: Vec<&str> = Vec::new();
    for p in prompt.placeholders() {
        let bound = matches!(p.kind, AgentKind::Binding | AgentKind::Value);
        if bound
            && p.fallback.is_none()
            && !values.contains_key(&p.name)
            && !unfilled.contains(&p.name.as_str())
        {
            unfilled.push(&p.name);
        }
    }
    if !unfilled.is_empty() {
        let shown: Vec<String> = unfilled.iter().map(|n| format!("`{{{n}}}`")).collect();
        eprintln!(
            "note: {} {} no value and {} as nothing, as a keep binding that did not fire does (give {} with `--set NAME=VALUE`)",
            shown.join(", "),
            if unfilled.len() == 1 { "has" } else { "have" },
            if unfilled.len() == 1 {
                "renders"
            } else {
                "render"
            },
            if unfilled.len() == 1 { "it" } else { "them" },
        );
    }
    let text = prompt.render(|name, _| values.get(name).cloned());
    Ok(Some(PromptContent {
        text,
        path: Cow::Owned(path),
        metadata: Cow::Owned(checked.meta),
    }))
}

/// The agent prompt's template with its includes expanded. keep's ids:
/// `.prompt/agent/reflect` includes `.prompt/agent/system`, which is the prompt
/// `agent/system` here.
/// The template with its includes expanded, by the reader the derive uses: an include
/// that cannot be expanded is an error at its `{{include:NAME}}`.
fn expanded(project: &Project, name: &str, file: &PromptFile) -> Result<String, Diagnostic> {
    let mut agent = AgentFile {
        name: name.to_owned(),
        top: file.clone(),
        included: Default::default(),
    };
    agent.expand(project).map(|expanded| expanded.text)
}

/// For `check`: the problem with a keep agent prompt's includes, if it has one.
pub fn include_problem(project: &Project, file: &PromptFile, name: &str) -> Option<Diagnostic> {
    if file.syntax != Syntax::Keep {
        return None;
    }
    expanded(project, name, file).err()
}

fn unknown(prompt: &str, names: &[&str], flag: &str, key: &str, value: &str) -> Diagnostic {
    let d = Diagnostic::new(format!(
        "keep agent prompt `{prompt}` takes no value `{key}` (from `{flag} {key}={value}`)"
    ));
    match closest(key, names.iter().copied()) {
        Some(s) => d.with_help(format!("did you mean `{s}`?")),
        None => d.with_help(format!(
            "it takes {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}
