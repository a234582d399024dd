//! Checking a prompt of an opened folder: [`Project::check`] and the checks that take the
//! context from the prompt itself.

use super::CheckedPrompt;
use crate::diagnostic::Diagnostics;
use crate::load::{Project, PromptFile};
use crate::resolve::ContextVar;

impl Project {
    /// Loads and checks prompt `name` against these context variables.
    pub fn check(
        &self,
        name: &str,
        context: Vec<ContextVar>,
    ) -> Result<CheckedPrompt, Diagnostics> {
        let file = self.load_prompt(name)?;
        super::check(name, file, self.schema(context), &self.templates)
    }

    /// Loads and checks prompt `name`, taking its context variables from the names it uses
    /// (see [`infer_context`](super::infer_context)): for prompts without a typed context.
    pub fn check_inferred(&self, name: &str) -> Result<CheckedPrompt, Diagnostics> {
        self.check_loaded(name, self.load_prompt(name)?)
    }

    /// [`Project::check_inferred`] for prompt `name` loaded already (by
    /// [`Project::load_prompt`]), for a caller that reads the file for more than the check.
    pub fn check_loaded(&self, name: &str, file: PromptFile) -> Result<CheckedPrompt, Diagnostics> {
        let schema = self.schema(Vec::new());
        let mut context =
            super::infer_context(&file, &schema.identity, &schema.literals, &self.templates);
        // A declared context is the whole context: any other name that is no identity key,
        // template or literal is then an unknown placeholder, with a suggestion.
        if let Some(declared) = super::declared_context(&file)? {
            context.retain(|var| declared.iter().any(|(name, _)| *name == var.name));
            for (name, _) in &declared {
                if !context.iter().any(|var| var.name == *name) {
                    context.push(crate::resolve::ContextVar::new(
                        name.clone(),
                        crate::resolve::VarKind::Text,
                    ));
                }
            }
        }
        super::check(name, file, self.schema(context), &self.templates)
    }
}
