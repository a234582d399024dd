//! A template with everything it includes: loaded once, cycles refused, rendered by name.

use super::parser::Node;
use super::{Options, Template};
use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::ops::Range;

/// How many includes deep a chain may go: far past LangAlpha's two.
const MAX_INCLUDE_DEPTH: usize = 32;

/// Jinja templates by name (relative to `prompts/`, `/`-separated), each with the
/// templates it includes.
///
/// ```
/// use prompt_runtime::formats::jinja::{Options, Templates};
/// use prompt_runtime::SourceFile;
///
/// let files = [
///     ("system.md.j2", "You are {{ name }}.\n{% include 'parts/rules.md.j2' %}"),
///     ("parts/rules.md.j2", "- Be brief.\n"),
/// ];
/// let templates = Templates::load("system.md.j2", Options::default(), &mut |name: &str| {
///     let (_, text) = files.iter().find(|(n, _)| *n == name).ok_or(None)?;
///     Ok(SourceFile::new(format!("prompts/{name}"), *text))
/// })
/// .unwrap();
/// let values = serde_json::json!({ "name": "a helper" });
/// assert_eq!(
///     templates.render("system.md.j2", &values).unwrap(),
///     "You are a helper.\n- Be brief."
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Templates {
    options: Options,
    templates: BTreeMap<String, Template>,
}

/// What a reader gives back for a name it cannot read: `None` when there is no such file
/// (the include is then reported at its tag), or a diagnostic of its own.
pub type ReadError = Option<Diagnostic>;

impl Templates {
    /// Loads `entry` and, transitively, every template it includes, through `read` (which
    /// maps a name to its source). A missing file, a syntax error, an include cycle or a
    /// chain deeper than 32 is reported at its tag.
    pub fn load(
        entry: &str,
        options: Options,
        read: &mut dyn FnMut(&str) -> Result<SourceFile, ReadError>,
    ) -> Result<Templates, Diagnostics> {
        let mut set = Templates {
            options,
            templates: BTreeMap::new(),
        };
        let mut errors = Diagnostics::default();
        let mut chain = Vec::new();
        set.visit(entry, None, read, &mut chain, &mut errors);
        if errors.0.is_empty() {
            Ok(set)
        } else {
            Err(errors)
        }
    }

    /// The environment options the templates were read with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Every template loaded, by name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.templates.keys().map(String::as_str)
    }

    /// The template of that name, if it was loaded.
    pub fn get(&self, name: &str) -> Option<&Template> {
        self.templates.get(name)
    }

    /// Renders the template `name` with `values` (a JSON object of the context's names),
    /// byte for byte as Jinja2 renders it with the same options.
    pub fn render(&self, name: &str, values: &Value) -> Result<String, Diagnostic> {
        let Some(template) = self.templates.get(name) else {
            return Err(Diagnostic::new(format!("no template `{name}` was loaded")));
        };
        let empty = Map::new();
        let context = match values {
            Value::Object(map) => map,
            Value::Null => &empty,
            other => {
                return Err(Diagnostic::new(format!(
                    "a template's values must be a JSON object of names, not {}",
                    super::value::a_type(other)
                )));
            }
        };
        super::render::render(self, template, context)
    }

    fn visit(
        &mut self,
        name: &str,
        site: Option<(&SourceFile, Range<usize>)>,
        read: &mut dyn FnMut(&str) -> Result<SourceFile, ReadError>,
        chain: &mut Vec<String>,
        errors: &mut Diagnostics,
    ) {
        if let Some(at) = chain.iter().position(|n| n == name) {
            let mut cycle: Vec<&str> = chain[at..].iter().map(String::as_str).collect();
            cycle.push(name);
            let mut error = Diagnostic::new(format!("include cycle: {}", cycle.join(" → ")));
            if let Some((source, span)) = site {
                error = error.at(source, span);
            }
            errors.push(error.with_note("Jinja2 would recurse until Python's stack runs out"));
            return;
        }
        if chain.len() >= MAX_INCLUDE_DEPTH {
            let mut error =
                Diagnostic::new(format!("includes nest more than {MAX_INCLUDE_DEPTH} deep"));
            if let Some((source, span)) = site {
                error = error.at(source, span);
            }
            errors.push(error);
            return;
        }
        if !self.templates.contains_key(name) {
            let source = match read(name) {
                Ok(source) => source,
                Err(why) => {
                    let error = why.unwrap_or_else(|| {
                        let error = Diagnostic::new(format!("no template `{name}` in `prompts/`"));
                        match &site {
                            Some((source, span)) => error.at(source, span.clone()),
                            None => error,
                        }
                    });
                    errors.push(error);
                    return;
                }
            };
            match Template::parse(&source, self.options) {
                Ok(template) => {
                    self.templates.insert(name.to_owned(), template);
                }
                Err(found) => {
                    found.0.into_iter().for_each(|d| errors.push(d));
                    return;
                }
            }
        }
        let Some(template) = self.templates.get(name) else {
            return;
        };
        let source = template.source.clone();
        let mut includes = Vec::new();
        includes_of(&template.nodes, &mut includes);
        chain.push(name.to_owned());
        for (included, span) in includes {
            self.visit(&included, Some((&source, span)), read, chain, errors);
        }
        chain.pop();
    }
}

/// Every `{% include %}` in `nodes`, in order, with its tag's span.
pub(super) fn includes_of(nodes: &[Node], out: &mut Vec<(String, Range<usize>)>) {
    for node in nodes {
        match node {
            Node::Include { name, span } => out.push((name.clone(), span.clone())),
            Node::If(block) => {
                for (_, body) in &block.branches {
                    includes_of(body, out);
                }
                if let Some((_, body)) = &block.otherwise {
                    includes_of(body, out);
                }
            }
            Node::For(each) => {
                includes_of(&each.body, out);
                if let Some(body) = &each.otherwise {
                    includes_of(body, out);
                }
            }
            Node::Text(_) | Node::Output(_) | Node::Set { .. } => {}
        }
    }
}
