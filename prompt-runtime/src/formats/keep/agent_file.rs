//! A keep agent prompt of a prompts folder (a prompt whose frontmatter says
//! `"placeholders": "keep"`), read with the prompts it includes: the one reader that the
//! derive and the `promptic` command share, so that an include that cannot be expanded is
//! the same error, at the same `{{include:NAME}}`, from both.

use super::{TracedExpansion, expand_includes_traced};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::load::{Project, PromptFile};
use crate::parse::lexer::Syntax;
use std::collections::BTreeMap;
use std::ops::Range;

/// What an include is, for the help of an include that cannot be expanded.
const INCLUDE_HELP: &str = "an include names another prompt of this folder (`{{include:agent/system}}` is `prompts/agent/system.md`), at most three deep, never one on its own chain";

/// A keep agent prompt and the prompts it includes, each read once.
#[derive(Clone, Debug)]
pub struct AgentFile {
    /// The prompt's name (`agent/reflect`).
    pub name: String,
    /// The prompt's own file.
    pub top: PromptFile,
    /// Each included prompt by its name, as read (`None`: it cannot be read).
    pub included: BTreeMap<String, Option<PromptFile>>,
}

impl AgentFile {
    /// Reads the prompt `name` of `project` when it is a keep agent prompt; `Ok(None)` for
    /// any other prompt.
    pub fn read(project: &Project, name: &str) -> Result<Option<AgentFile>, Diagnostics> {
        let top = project.load_prompt(name)?;
        if top.syntax != Syntax::Keep {
            return Ok(None);
        }
        Ok(Some(AgentFile {
            name: name.to_owned(),
            top,
            included: BTreeMap::new(),
        }))
    }

    /// The template with its includes expanded, each included file read once from
    /// `project`. An include that cannot be expanded (missing, a cycle, too deep, too
    /// large) is an error at its `{{include:NAME}}`, in the file that writes it.
    pub fn expand(&mut self, project: &Project) -> Result<TracedExpansion, Diagnostic> {
        let included = &mut self.included;
        let id = format!(".prompt/{}", self.name);
        let result = expand_includes_traced(&id, self.top.body_text(), |name| {
            let file = included
                .entry(name.to_owned())
                .or_insert_with(|| project.load_prompt(name).ok());
            file.as_ref().map(|f| f.body_text().to_owned())
        });
        result.map_err(|e| {
            let span = e.at.offset..e.at.offset + e.len;
            let written = self
                .file(e.at.doc.as_deref())
                .and_then(|f| f.body_text().get(span.clone()))
                .unwrap_or("{{include:…}}")
                .to_owned();
            let d = Diagnostic::new(format!("cannot expand `{written}`: {}", e.error))
                .with_help(INCLUDE_HELP);
            self.at(d, e.at.doc.as_deref(), span)
        })
    }

    /// The file a piece of the expanded template was written in: the prompt (`None`), or an
    /// include by its name.
    pub fn file(&self, doc: Option<&str>) -> Option<&PromptFile> {
        match doc {
            None => Some(&self.top),
            Some(name) => self.included.get(name)?.as_ref(),
        }
    }

    /// Places `d` at `span` of `doc`'s body (a byte range of its body text).
    pub fn at(&self, d: Diagnostic, doc: Option<&str>, span: Range<usize>) -> Diagnostic {
        match self.file(doc) {
            Some(file) => {
                let base = file.body.start;
                d.at(&file.source, base + span.start..base + span.end)
            }
            None => d.in_file(self.top.source.path()),
        }
    }

    /// Places `d` at `span` of the expanded template.
    pub fn at_template(
        &self,
        d: Diagnostic,
        expanded: &TracedExpansion,
        span: Range<usize>,
    ) -> Diagnostic {
        match expanded.origin(span) {
            Some((doc, range)) => self.at(d, doc.as_deref(), range),
            None => d.in_file(self.top.source.path()),
        }
    }
}
