//! Context variables read off a prompt that has no typed context (the CLI, `prompt!`),
//! and the names a prompt refers to at all.

use crate::case::variant_name;
use crate::load::PromptFile;
use crate::parse::{self, Condition, Node, ParseOptions};
use crate::resolve::{ContextVar, Templates, VarKind};
use std::collections::{BTreeMap, BTreeSet};

/// Context variables for a prompt that has no typed context (the CLI, `prompt!`): every
/// name that is not an identity key, a template or a literal is a context variable. A name
/// that a block tests (`{% if verbose %}`) is optional when it is used only inside such
/// blocks, and a flag when it is also used outside them (`$verbose`); every other name is
/// text. Templates are followed.
pub fn infer_context(
    file: &PromptFile,
    identity: &[String],
    literals: &[String],
    templates: &Templates,
) -> Vec<ContextVar> {
    let mut known: Vec<String> = identity
        .iter()
        .flat_map(|k| [k.clone(), variant_name(k)])
        .collect();
    known.extend(literals.iter().cloned());
    known.extend(templates.names().map(str::to_owned));
    let (nodes, _) = parse::parse(&file.source, file.body.clone(), ParseOptions::default());
    let mut names = Names {
        templates,
        known: &known,
        found: BTreeMap::new(),
        guards: Vec::new(),
        stack: Vec::new(),
        followed: Vec::new(),
    };
    names.collect(&nodes);
    let found = names.found;
    // `$Note` is the variant of `note` when both are found: one variable.
    let base_of = |name: &str| {
        found
            .keys()
            .find(|other| *other != name && variant_name(other) == name)
            .cloned()
    };
    let mut vars: Vec<(usize, ContextVar)> = found
        .iter()
        .filter(|(name, _)| base_of(name).is_none())
        .map(|(name, use_)| {
            let unguarded = use_.unguarded
                || found
                    .get(&variant_name(name))
                    .is_some_and(|variant| variant.unguarded);
            let kind = match (use_.tested, unguarded) {
                (true, true) => VarKind::Flag,
                (true, false) => VarKind::Optional,
                (false, _) => VarKind::Text,
            };
            (use_.order, ContextVar::new(name.clone(), kind))
        })
        .collect();
    vars.sort_by_key(|(order, _)| *order);
    vars.into_iter().map(|(_, v)| v).collect()
}

/// Every name a prompt refers to, in placeholders and conditions, following the templates
/// it names (whatever else that name might bind to). For reporting unused context fields
/// even when the prompt has other problems, so it errs on the side of "used": names in
/// lines that failed to parse (`${note`, `{% if mode = "x" %}`) count too.
pub fn referenced_names(file: &PromptFile, templates: &Templates) -> BTreeSet<String> {
    let (nodes, _) = parse::parse(&file.source, file.body.clone(), ParseOptions::default());
    let mut names = Names {
        templates,
        known: &[],
        found: BTreeMap::new(),
        guards: Vec::new(),
        stack: Vec::new(),
        followed: Vec::new(),
    };
    names.collect(&nodes);
    let mut all: BTreeSet<String> = names.found.into_keys().collect();
    let mut texts = vec![file.source.text()];
    for name in &names.followed {
        if let Some(template) = templates.get(name) {
            texts.push(template.file.source.text());
        }
    }
    all.extend(names.followed);
    for text in texts {
        all.extend(written_names(text));
    }
    all
}

/// Names written after `$` or `${`, and the words of `{% ... %}` directives, read from
/// the raw text without the parser.
fn written_names(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let word = |from: usize| {
        let end = (from..bytes.len())
            .find(|&i| !crate::parse::lexer::is_name_continue(bytes[i]))
            .unwrap_or(bytes.len());
        (end, text[from..end].to_owned())
    };
    let mut names = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'$' => {
                let start = if bytes.get(i + 1) == Some(&b'{') {
                    i + 2
                } else {
                    i + 1
                };
                let (end, name) = word(start);
                if !name.is_empty() {
                    names.push(name);
                }
                i = end.max(i + 1);
            }
            b'{' if bytes.get(i + 1) == Some(&b'%') => {
                let close = text[i..].find("%}").map_or(text.len(), |at| i + at);
                let line_end = text[i..].find('\n').map_or(text.len(), |at| i + at);
                let end = close.min(line_end);
                names.extend(
                    text[i + 2..end]
                        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .filter(|w| crate::parse::lexer::is_name(w))
                        .map(str::to_owned),
                );
                i = end.max(i + 2);
            }
            _ => i += 1,
        }
    }
    names
}

/// How a name is used in a prompt, for [`infer_context`].
struct NameUse {
    order: usize,
    /// A block tests it: `{% if name %}`.
    tested: bool,
    /// It is written outside every block that tests it.
    unguarded: bool,
}

struct Names<'a> {
    templates: &'a Templates,
    known: &'a [String],
    found: BTreeMap<String, NameUse>,
    /// Names tested by the enclosing blocks.
    guards: Vec<String>,
    /// Templates being followed, against cycles.
    stack: Vec<String>,
    /// Every template followed.
    followed: Vec<String>,
}

impl Names<'_> {
    fn entry(&mut self, name: &str) -> &mut NameUse {
        let order = self.found.len();
        self.found.entry(name.to_owned()).or_insert(NameUse {
            order,
            tested: false,
            unguarded: false,
        })
    }

    fn collect(&mut self, nodes: &[Node]) {
        for node in nodes {
            match node {
                Node::Placeholder(p) => {
                    if let Some(template) = self.templates.get(&p.name) {
                        if !self.stack.contains(&p.name) {
                            self.followed.push(p.name.clone());
                            self.stack.push(p.name.clone());
                            self.collect(template.nodes());
                            self.stack.pop();
                        }
                    } else if !self.known.contains(&p.name) {
                        let guarded = self
                            .guards
                            .iter()
                            .any(|g| *g == p.name || variant_name(g) == p.name);
                        let entry = self.entry(&p.name);
                        entry.unguarded |= !guarded;
                    }
                }
                Node::If(block) => {
                    let (name, _) = block.condition.name();
                    let testable = !name.is_empty() && !self.known.iter().any(|k| k == name);
                    if testable {
                        let entry = self.entry(name);
                        if matches!(block.condition, Condition::Set { .. }) {
                            entry.tested = true;
                        }
                        self.guards.push(name.to_owned());
                    }
                    self.collect(&block.then);
                    if testable {
                        self.guards.pop();
                    }
                    if let Some(otherwise) = &block.otherwise {
                        self.collect(otherwise);
                    }
                }
                Node::Text(_) | Node::Dollar(_) => {}
            }
        }
    }
}
