//! Context variables read off a prompt that has no typed context (the CLI, `prompt!`),
//! and the names a prompt refers to at all.

use crate::case::variant_name;
use crate::parse::PromptFile;
use crate::parse::{self, Condition, Node, SectionKind};
use crate::resolve::{ContextVar, Schema, Templates, VarKind};
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
    // Templates are known too, looked up where they are: copying their names here made
    // each prompt cost time in proportion to the whole project.
    let (nodes, _) = parse::parse(&file.source, file.body.clone(), file.parse_options());
    let found = Names::new(templates, &known).summarize(&nodes);
    // `$Note` is the variant of `note` when both are found: one variable.
    let mut variants: BTreeMap<String, &str> = BTreeMap::new();
    for name in &found.order {
        let variant = variant_name(name);
        if variant != *name {
            variants.entry(variant).or_insert(name);
        }
    }
    found
        .order
        .iter()
        .filter(|name| !variants.contains_key(*name))
        .map(|name| {
            let use_ = found.uses[name];
            let unguarded = use_.unguarded
                || found
                    .uses
                    .get(&variant_name(name))
                    .is_some_and(|variant| variant.unguarded);
            let kind = match (use_.tested, unguarded) {
                _ if use_.history => VarKind::Messages,
                // The reserved level: `lean` or `detailed`, `detailed` when not given.
                _ if name == crate::guidance::GUIDANCE => VarKind::Choice(
                    crate::guidance::LEVELS
                        .iter()
                        .map(|l| (*l).to_owned())
                        .collect(),
                ),
                (true, true) => VarKind::Flag,
                (true, false) => VarKind::Optional,
                (false, _) => VarKind::Text,
            };
            ContextVar::new(name.clone(), kind)
        })
        .collect()
}

/// Every name a prompt refers to, in placeholders and conditions, following the templates
/// it names (whatever else that name might bind to). For reporting unused context fields
/// even when the prompt has other problems, so it errs on the side of "used": names in
/// lines that failed to parse (`${note`, `{% if mode = "x" %}`) count too.
pub fn referenced_names(file: &PromptFile, templates: &Templates) -> BTreeSet<String> {
    let (nodes, _) = parse::parse(&file.source, file.body.clone(), file.parse_options());
    names_in(file, &nodes, templates)
}

/// [`referenced_names`] of `file` parsed into `nodes`.
fn names_in(file: &PromptFile, nodes: &[Node], templates: &Templates) -> BTreeSet<String> {
    let mut names = Names::new(templates, &[]);
    let found = names.summarize(nodes);
    let mut all: BTreeSet<String> = found.order.into_iter().collect();
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

/// The context values of `schema` a prompt does not use, found even when it has errors
/// (for reporting them with the errors): a value a misspelt name is taken for (`$dya`,
/// "did you mean `$day`?") counts as used, and so does every name written in a line that
/// failed to parse ([`referenced_names`]), so that one mistake is one error.
pub fn unused_context(file: &PromptFile, schema: &Schema, templates: &Templates) -> Vec<usize> {
    let (nodes, _) = parse::parse(&file.source, file.body.clone(), file.parse_options());
    let written = names_in(file, &nodes, templates);
    crate::resolve::unused(&file.source, &nodes, schema, templates)
        .into_iter()
        .filter(|&i| {
            let name = &schema.context[i].name;
            !written.contains(name) && !written.contains(&variant_name(name))
        })
        .collect()
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
            b'{' if bytes.get(i + 1) == Some(&b'{') => {
                let mut start = i + 2;
                while bytes.get(start).is_some_and(|c| *c == b' ' || *c == b'\t') {
                    start += 1;
                }
                let (end, name) = word(start);
                if !name.is_empty() {
                    names.push(name);
                }
                i = end.max(i + 2);
            }
            b'{' if bytes.get(i + 1) == Some(&b'%') => {
                // The `%}` is looked for after the `{%`: in `{%}` the two overlap.
                let close = text[i + 2..].find("%}").map_or(text.len(), |at| i + 2 + at);
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
#[derive(Clone, Copy)]
struct NameUse {
    /// A block tests it: `{% if name %}`.
    tested: bool,
    /// It is written outside every block that tests it.
    unguarded: bool,
    /// A `{% history %}` names it.
    history: bool,
}

/// The names a body uses, in order of first use: a prompt's, or a template's with the
/// templates it uses. Each template's is made once and then merged wherever the template
/// is used, so a template used many times (or through templates used many times) is not
/// walked again: the work stays linear however the templates multiply.
#[derive(Default)]
struct Summary {
    order: Vec<String>,
    uses: BTreeMap<String, NameUse>,
}

impl Summary {
    fn entry(&mut self, name: &str) -> &mut NameUse {
        if !self.uses.contains_key(name) {
            self.order.push(name.to_owned());
        }
        self.uses.entry(name.to_owned()).or_insert(NameUse {
            tested: false,
            unguarded: false,
            history: false,
        })
    }
}

struct Names<'a> {
    templates: &'a Templates,
    known: &'a [String],
    /// Each template's summary, once made.
    done: BTreeMap<String, Summary>,
    /// Templates being summarised, against cycles (which resolve reports).
    stack: Vec<String>,
    /// Every template followed, in order.
    followed: Vec<String>,
}

impl Names<'_> {
    fn new<'a>(templates: &'a Templates, known: &'a [String]) -> Names<'a> {
        Names {
            templates,
            known,
            done: BTreeMap::new(),
            stack: Vec::new(),
            followed: Vec::new(),
        }
    }

    /// The names of a body, its templates followed.
    fn summarize(&mut self, nodes: &[Node]) -> Summary {
        let mut summary = Summary::default();
        let mut guards = Vec::new();
        let mut merged = BTreeSet::new();
        self.collect(nodes, &mut guards, &mut summary, &mut merged);
        summary
    }

    fn collect(
        &mut self,
        nodes: &[Node],
        guards: &mut Vec<String>,
        summary: &mut Summary,
        merged: &mut BTreeSet<(String, Vec<String>)>,
    ) {
        let guarded = |guards: &[String], name: &str| {
            guards.iter().any(|g| *g == name || variant_name(g) == name)
        };
        for node in nodes {
            match node {
                Node::Placeholder(p) => {
                    if self.templates.get(&p.name).is_some() {
                        // A template merged before under the same guards adds nothing.
                        if !merged.insert((p.name.clone(), guards.clone())) {
                            continue;
                        }
                        self.template(&p.name);
                        let Some(inner) = self.done.get(&p.name) else {
                            continue;
                        };
                        for name in &inner.order {
                            let inner_use = inner.uses[name];
                            let entry = summary.entry(name);
                            entry.tested |= inner_use.tested;
                            entry.history |= inner_use.history;
                            entry.unguarded |= inner_use.unguarded && !guarded(guards, name);
                        }
                    } else if !self.known.contains(&p.name) {
                        let unguarded = !guarded(guards, &p.name);
                        summary.entry(&p.name).unguarded |= unguarded;
                    }
                }
                Node::If(block) => {
                    let (name, _) = block.condition.name();
                    let testable = !name.is_empty()
                        && !self.known.iter().any(|k| k == name)
                        && self.templates.get(name).is_none();
                    if testable {
                        let entry = summary.entry(name);
                        if matches!(block.condition, Condition::Set { .. }) {
                            entry.tested = true;
                        }
                        guards.push(name.to_owned());
                    }
                    self.collect(&block.then, guards, summary, merged);
                    if testable {
                        guards.pop();
                    }
                    if let Some(otherwise) = &block.otherwise {
                        self.collect(otherwise, guards, summary, merged);
                    }
                }
                Node::Section(section) => {
                    if let SectionKind::History { .. } = section.kind {
                        summary.entry(&section.name).history = true;
                    }
                }
                Node::Text(_) | Node::Dollar(_) | Node::CacheBreakpoint(_) => {}
            }
        }
    }

    /// Makes the summary of template `name`, unless it is made, being made (a cycle) or
    /// too deep (both reported by resolve).
    fn template(&mut self, name: &str) {
        if self.done.contains_key(name)
            || self.stack.iter().any(|t| t == name)
            || self.stack.len() >= crate::resolve::MAX_DEPTH
        {
            return;
        }
        let Some(template) = self.templates.get(name) else {
            return;
        };
        self.followed.push(name.to_owned());
        self.stack.push(name.to_owned());
        let summary = self.summarize(template.nodes());
        self.stack.pop();
        self.done.insert(name.to_owned(), summary);
    }
}

/// A `$name` written straight into a non-ASCII letter (`$naïve`), in the prompt or a
/// template it uses: Python reads `$na` followed by `ïve`, and so does promptic, but it
/// is almost always a mistake. The derive makes each an error, the CLI a warning.
///
/// ```
/// use promptic::check::run_on_names;
/// use promptic::load::PromptFile;
/// use promptic::resolve::Templates;
///
/// let file = PromptFile::from_text("p.md", "A $naïve idea, ${na}ïve is fine").unwrap();
/// let found = run_on_names(&file, &Templates::new());
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].message(), "`$na` runs into `ï`: the name stops at the last ASCII letter");
/// assert_eq!(found[0].help(), Some("write `${na}ïve` if `$na` is meant, or give the placeholder an ASCII name"));
/// ```
pub fn run_on_names(file: &PromptFile, templates: &Templates) -> Vec<crate::Diagnostic> {
    let (nodes, _) = parse::parse(&file.source, file.body.clone(), file.parse_options());
    let mut found = Vec::new();
    let mut visited = BTreeSet::new();
    // An explicit stack of bodies to scan: no recursion, each template once.
    let mut bodies: Vec<(&crate::SourceFile, &[Node])> = vec![(&file.source, &nodes)];
    while let Some((source, nodes)) = bodies.pop() {
        for node in nodes {
            match node {
                Node::Placeholder(p) => {
                    if let Some(template) = templates.get(&p.name) {
                        if visited.insert(p.name.clone()) {
                            bodies.push((&template.file.source, template.nodes()));
                        }
                        continue;
                    }
                    if p.braced {
                        continue;
                    }
                    let text = source.text();
                    let Some(next) = text[p.span.end..].chars().next() else {
                        continue;
                    };
                    if next.is_alphabetic() && !next.is_ascii() {
                        let word_end = text[p.span.end..]
                            .find(|c: char| !c.is_alphanumeric() && c != '_')
                            .map_or(text.len(), |i| p.span.end + i);
                        let rest = &text[p.span.end..word_end];
                        found.push(
                            crate::Diagnostic::new(format!(
                                "`${}` runs into `{next}`: the name stops at the last ASCII letter",
                                p.name
                            ))
                            .at(source, p.span.start..word_end)
                            .with_help(format!(
                                "write `${{{}}}{rest}` if `${}` is meant, or give the placeholder an ASCII name",
                                p.name, p.name
                            )),
                        );
                    }
                }
                Node::If(block) => {
                    bodies.push((source, &block.then));
                    if let Some(otherwise) = &block.otherwise {
                        bodies.push((source, otherwise));
                    }
                }
                Node::Text(_) | Node::Dollar(_) | Node::Section(_) | Node::CacheBreakpoint(_) => {}
            }
        }
    }
    found.sort_by_key(|d| d.location().map(|l| (l.path.clone(), l.span.start)));
    found
}
