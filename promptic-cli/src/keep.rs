//! keep's agent prompts in `check`: a prompt with `"placeholders": "keep"` has its
//! `{{include:NAME}}`s expanded by the reader the derive uses (`formats::keep`); rendering
//! goes through the Markdown format like every other prompt.

use prompt_runtime::Diagnostic;
use prompt_runtime::formats::keep::AgentFile;
use prompt_runtime::load::{Project, PromptFile};
use prompt_runtime::parse::lexer::Syntax;

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
