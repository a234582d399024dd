//! Stage 3, resolve: bind every placeholder, inline templates, check guards and choices.
//!
//! Names are looked up with solstone's precedence, highest first: context variables,
//! identity keys, templates, then the configured literals. Each layer also answers to
//! uppercase-first variants (`$Preferred`), and within a layer an exact name wins over a
//! variant. The result is a flat tree of [`Part`]s that the renderer and the macro's code
//! generator both walk.

use crate::case::variant_name;
use crate::diagnostic::{Diagnostic, Diagnostics, Repeated, SourceFile};
use crate::identity::Slot;
use crate::parse::{self, Condition, Node};
use crate::suggest::closest;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// How deep blocks and templates may nest together, counting each `{% if %}` and each
/// template being inlined: a chain of templates deeper than this is refused with an error
/// that names the chain, so that nothing can run out of stack on it.
pub const MAX_DEPTH: usize = 100;

/// The most a prompt may hold once its templates are inlined: bytes of text, plus
/// [`NODE_COST`] for each substitution and block and [`INLINE_COST`] for each template
/// inlined. A template used twice in one used twice
/// in one … grows exponentially; such a prompt is refused when it crosses this limit,
/// before anything is rendered.
pub const MAX_EXPANDED: usize = 4 << 20;

// The largest file promptic reads is the most a prompt may hold once expanded.
const _: () = assert!(crate::source::MAX_FILE == MAX_EXPANDED as u64);

/// What each substitution and block counts towards [`MAX_EXPANDED`]: resolving, checking
/// and rendering cost more per substitution than per byte of text, so at most 256 Ki of
/// them fit (a real prompt has hundreds).
pub const NODE_COST: usize = 16;

/// What inlining a template counts towards [`MAX_EXPANDED`] besides its text and its
/// [`NODE_COST`]: each inlining is checked (cycles, depth, size) and recorded, so at most
/// 64 Ki of them fit (a real prompt inlines a handful).
pub const INLINE_COST: usize = 64;

mod lines;
mod resolved;
mod schema;

use lines::{Lines, Started};
pub use resolved::{FirstUses, Part, Resolved, Test, Use, VarSource, Variable};
pub use schema::{ContextVar, Schema, Template, Templates, VarKind};

#[derive(Clone, Debug)]
enum Target {
    Context { index: usize, upper: bool },
    Identity { key: String },
    Template,
    Literal,
}

struct Resolver<'a> {
    schema: &'a Schema,
    templates: &'a Templates,
    names: HashMap<String, Target>,
    diagnostics: Diagnostics,
    variables: Vec<Variable>,
    used: Vec<bool>,
    /// Context indices guarded by the enclosing `{% if %}` blocks.
    guards: Vec<usize>,
    /// Templates being inlined, outermost first.
    stack: Vec<String>,
    /// The names in `stack`, for a membership test in one lookup.
    on_stack: HashSet<String>,
    /// Where each template of `stack` is used: the file and span of its placeholder.
    used_at: Vec<(SourceFile, Range<usize>)>,
    /// How lines are joined in the bodies being resolved: the prompt's, then one per
    /// template being inlined.
    bodies: Vec<Lines>,
    /// Line flags handed out so far.
    line_flags: usize,
    /// Each variable's index in `variables`, and the places already recorded, so that
    /// recording a use takes constant time.
    variable_index: HashMap<String, usize>,
    recorded: HashSet<(usize, usize, usize)>,
    /// Templates whose own problems were reported already.
    reported: HashSet<String>,
    /// Names nothing gives: a misspelt name is one error, however often it is written.
    unknown_names: HashMap<String, Repeated>,
    /// Context values a misspelt name was taken for (`did you mean`): not reported unused.
    misspelt_for: HashSet<usize>,
    /// Optional values used outside their guard: one error per value.
    unguarded: HashMap<usize, Repeated>,
    /// Blocks and templates open around the current point.
    depth: usize,
    /// How much the prompt holds so far, templates inlined (see [`MAX_EXPANDED`]).
    expanded: usize,
    /// The depth or size limit was crossed (and reported): resolve no further.
    stopped: bool,
    /// Each template's size once inlined (as [`MAX_EXPANDED`] counts), found once.
    sizes: HashMap<String, usize>,
}

/// Resolves a parsed prompt against a schema and the project's templates.
///
/// ```
/// use promptic::load::PromptFile;
/// use promptic::parse::{parse, ParseOptions};
/// use promptic::resolve::{resolve, ContextVar, Schema, Templates, VarKind};
///
/// let file = PromptFile::from_text("prompts/greet.md", "Hello $Preferred, it is $day.").unwrap();
/// let (nodes, _) = parse(&file.source, file.body.clone(), ParseOptions::default());
/// let schema = Schema {
///     context: vec![ContextVar::new("day", VarKind::Text)],
///     identity: vec!["preferred".into()],
///     ..Schema::default()
/// };
/// let resolved = resolve(&file.source, &nodes, &schema, &Templates::new()).unwrap();
/// assert_eq!(resolved.identity_keys(), ["preferred"]);
///
/// let typo = PromptFile::from_text("prompts/greet.md", "Hello $preferd").unwrap();
/// let (nodes, _) = parse(&typo.source, typo.body.clone(), ParseOptions::default());
/// let errors = resolve(&typo.source, &nodes, &schema, &Templates::new()).unwrap_err();
/// assert_eq!(errors.0[0].help(), Some("did you mean `$preferred`?"));
/// ```
pub fn resolve(
    source: &SourceFile,
    nodes: &[Node],
    schema: &Schema,
    templates: &Templates,
) -> Result<Resolved, Diagnostics> {
    let (resolved, diagnostics) = run(source, nodes, schema, templates);
    diagnostics.into_result(resolved)
}

/// The context values a prompt does not use ([`Resolved::unused`]), found even when it has
/// errors: a value a misspelt name is taken for (`$dya` for `day`, with its "did you mean")
/// counts as used, so that one mistake is not reported twice.
pub fn unused(
    source: &SourceFile,
    nodes: &[Node],
    schema: &Schema,
    templates: &Templates,
) -> Vec<usize> {
    run(source, nodes, schema, templates).0.unused
}

fn run(
    source: &SourceFile,
    nodes: &[Node],
    schema: &Schema,
    templates: &Templates,
) -> (Resolved, Diagnostics) {
    let mut names = HashMap::new();
    for literal in &schema.literals {
        names.insert(literal.clone(), Target::Literal);
    }
    // Templates are not copied in: a project's templates are looked up where they are
    // (see `Resolver::target`), so that resolving one prompt costs nothing per template
    // it does not use, and checking each of N templates on its own is not N² work.
    // Within a layer an exact name wins over a variant, and when two names give the same
    // variant (`day_ABC`, `day_abc`) the first does, as `Identity` builds it at run time.
    let mut variants = HashMap::new();
    for key in &schema.identity {
        variants
            .entry(variant_name(key))
            .or_insert_with(|| Target::Identity { key: key.clone() });
    }
    names.extend(variants);
    for key in &schema.identity {
        names.insert(key.clone(), Target::Identity { key: key.clone() });
    }
    let mut variants = HashMap::new();
    for (index, var) in schema.context.iter().enumerate() {
        variants
            .entry(variant_name(&var.name))
            .or_insert(Target::Context { index, upper: true });
    }
    names.extend(variants);
    for (index, var) in schema.context.iter().enumerate() {
        names.insert(
            var.name.clone(),
            Target::Context {
                index,
                upper: false,
            },
        );
    }
    let mut resolver = Resolver {
        schema,
        templates,
        names,
        diagnostics: Diagnostics::default(),
        variables: Vec::new(),
        used: vec![false; schema.context.len()],
        guards: Vec::new(),
        stack: Vec::new(),
        on_stack: HashSet::new(),
        used_at: Vec::new(),
        bodies: vec![Lines::new()],
        line_flags: 0,
        variable_index: HashMap::new(),
        recorded: HashSet::new(),
        reported: HashSet::new(),
        unknown_names: HashMap::new(),
        misspelt_for: HashSet::new(),
        unguarded: HashMap::new(),
        depth: 0,
        expanded: 0,
        stopped: false,
        sizes: HashMap::new(),
    };
    let mut parts = Vec::new();
    resolver.nodes(source, nodes, &mut parts);
    resolver.note_repeats();
    let unused = (0..schema.context.len())
        .filter(|&i| !resolver.used[i] && !resolver.misspelt_for.contains(&i))
        .collect();
    let resolved = Resolved {
        parts,
        variables: resolver.variables,
        unused,
        line_flags: resolver.line_flags,
    };
    (resolved, resolver.diagnostics)
}

impl Resolver<'_> {
    /// What `name` binds to: the context over the identity over a template over a
    /// literal, an exact name over a variant within a layer.
    fn target(&self, name: &str) -> Option<Target> {
        match self.names.get(name) {
            Some(Target::Literal) | None if self.templates.get(name).is_some() => {
                Some(Target::Template)
            }
            found => found.cloned(),
        }
    }

    fn nodes(&mut self, source: &SourceFile, nodes: &[Node], out: &mut Vec<Part>) {
        for (i, node) in nodes.iter().enumerate() {
            if self.stopped {
                return;
            }
            self.expanded += match node {
                Node::Text(span) => span.len(),
                _ => NODE_COST,
            };
            if self.expanded > MAX_EXPANDED {
                self.too_large(source, node);
                return;
            }
            match node {
                Node::Text(span) => self.text(&source.text()[span.clone()], out),
                Node::Dollar(_) => {
                    self.content(out);
                    push_text(out, "$");
                }
                Node::Placeholder(p) => {
                    let alone = self.lines().at_line_start
                        && match nodes.get(i + 1) {
                            None => true,
                            Some(Node::Text(next)) => source.text()[next.clone()].starts_with('\n'),
                            Some(_) => false,
                        };
                    if alone && matches!(self.target(&p.name), Some(Target::Template)) {
                        // A template alone on its line lends its lines to this body: one
                        // that renders no line leaves no blank line either.
                        self.record(&p.name, VarSource::Template, source, &p.span);
                        self.template(source, p, out, true);
                        self.lines().spliced = true;
                    } else {
                        self.content(out);
                        self.placeholder(source, p, out);
                    }
                }
                Node::If(block) => self.block(source, block, out),
                Node::Section(section) => self.section(source, section, out),
                Node::CacheBreakpoint(span) => match self.stack.last() {
                    Some(template) => self.diagnostics.push(
                        Diagnostic::new(format!(
                            "a cache breakpoint in the template `{template}`"
                        ))
                        .at(source, span.clone())
                        .with_help("where a cached prefix ends is the prompt's choice: move the directive into the prompt file, after the template's placeholder"),
                    ),
                    None => out.push(Part::CacheBreakpoint),
                },
            }
        }
    }

    fn record(
        &mut self,
        name: &str,
        source_kind: VarSource,
        file: &SourceFile,
        span: &Range<usize>,
    ) {
        let index = match self.variable_index.get(name) {
            Some(&index) => index,
            None => {
                let index = self.variables.len();
                self.variable_index.insert(name.to_owned(), index);
                self.variables.push(Variable {
                    name: name.to_owned(),
                    source: source_kind,
                    uses: Vec::new(),
                });
                index
            }
        };
        if !self.recorded.insert((index, file.id(), span.start)) {
            return;
        }
        let (line, col) = file.line_col(span.start);
        self.variables[index].uses.push(Use {
            path: file.path().to_owned(),
            line,
            col,
            span: span.clone(),
        });
    }

    /// How much template `name` holds once inlined, counted as [`MAX_EXPANDED`] counts;
    /// each template is sized once. A cycle or a chain past [`MAX_DEPTH`] counts as
    /// nothing here: resolving reports it.
    fn template_size(&mut self, name: &str, depth: usize) -> usize {
        if let Some(&size) = self.sizes.get(name) {
            return size;
        }
        let Some(template) = self.templates.get(name) else {
            return 0;
        };
        if depth > MAX_DEPTH {
            return 0;
        }
        // Marks the template while it is sized, so that a cycle ends.
        self.sizes.insert(name.to_owned(), 0);
        let size = self.nodes_size(&template.nodes, depth);
        self.sizes.insert(name.to_owned(), size);
        size
    }

    fn nodes_size(&mut self, nodes: &[Node], depth: usize) -> usize {
        // Blocks and templates nest together here too, as `enter` counts them.
        if depth > MAX_DEPTH {
            return 0;
        }
        let mut size = 0usize;
        for node in nodes {
            let more = match node {
                Node::Text(span) => span.len(),
                Node::Placeholder(p) if matches!(self.target(&p.name), Some(Target::Template)) => {
                    (NODE_COST + INLINE_COST).saturating_add(self.template_size(&p.name, depth + 1))
                }
                Node::If(block) => {
                    let then = self.nodes_size(&block.then, depth + 1);
                    let otherwise = block
                        .otherwise
                        .as_ref()
                        .map_or(0, |nodes| self.nodes_size(nodes, depth + 1));
                    NODE_COST.saturating_add(then).saturating_add(otherwise)
                }
                _ => NODE_COST,
            };
            size = size.saturating_add(more);
        }
        size
    }

    /// The prompt crossed [`MAX_EXPANDED`] while `node` was being inlined.
    fn too_large(&mut self, source: &SourceFile, node: &Node) {
        self.stopped = true;
        let span = match node {
            Node::Text(span) | Node::Dollar(span) => span.clone(),
            Node::Placeholder(p) => p.span.clone(),
            Node::If(block) => block.span.clone(),
            Node::Section(section) => section.span.clone(),
            Node::CacheBreakpoint(span) => span.clone(),
        };
        let span = span.start..span.start.max(span.end.min(span.start + 1));
        let mut d = Diagnostic::new(format!(
            "the prompt is too large with its templates inlined: more than {} MiB",
            MAX_EXPANDED >> 20
        ))
        .at(source, span)
        .with_help("a template that uses another many times, which uses another many times, multiplies its text: use each template fewer times");
        if !self.stack.is_empty() {
            d = d.with_note(format!(
                "the limit was crossed inside the templates {}",
                self.stack.join(" -> ")
            ));
        }
        self.diagnostics.push(d);
    }

    /// lean ⊆ detailed: no line may render at lean that cannot render at detailed. A block
    /// on `guidance == "lean"`, or an `{% else %}` on `guidance == "detailed"`, renders
    /// lines only at lean, which is refused unless the block registers the either-or with
    /// `{% else "why the steering inverts" %}`.
    fn guidance_fence(&mut self, source: &SourceFile, block: &parse::IfBlock, value: &str) {
        if block.else_reason.is_some() {
            return;
        }
        let register = "if the steering must invert at lean, register the either-or with `{% else \"why\" %}`, the reason kept next to the text it excuses";
        match (value, &block.else_span) {
            ("lean", _) => self.diagnostics.push(
                Diagnostic::new("`{% if guidance == \"lean\" %}` renders lines at lean that detailed lacks")
                    .at(source, block.span.clone())
                    .with_help(format!("lean is what remains when the detailed fences are left out: fence the other text with `{{% if guidance == \"detailed\" %}}`; {register}")),
            ),
            ("detailed", Some(else_span)) => self.diagnostics.push(
                Diagnostic::new("an `{% else %}` on a guidance fence renders lines at lean that detailed lacks")
                    .at(source, else_span.clone())
                    .with_help(format!("move the lean text out of the block, where both levels render it; {register}")),
            ),
            _ => {}
        }
    }

    /// A chat section starts: its lines are a body of their own.
    fn section(&mut self, source: &SourceFile, section: &parse::Section, out: &mut Vec<Part>) {
        if let Some(template) = self.stack.last() {
            self.diagnostics.push(
                Diagnostic::new(format!(
                    "a chat section in the template `{template}`"
                ))
                .at(source, section.span.clone())
                .with_help("sections belong to the prompt: move the directive into the prompt file and keep the template's text"),
            );
            return;
        }
        self.bodies = vec![Lines::new()];
        match &section.kind {
            parse::SectionKind::Message(role) => out.push(Part::Section {
                role: *role,
                name: section.name.clone(),
            }),
            parse::SectionKind::History { limit, name_span } => {
                let name = &section.name;
                let index = match self.target(name) {
                    Some(Target::Context {
                        index,
                        upper: false,
                    }) => index,
                    Some(_) | None if self.schema.context_index(name).is_none() => {
                        self.unknown(source, name, name_span, "history field");
                        return;
                    }
                    _ => {
                        self.diagnostics.push(
                            Diagnostic::new(format!("`{name}` is not a context field"))
                                .at(source, name_span.clone())
                                .with_help("`{% history NAME %}` names a field that holds the messages (`&[Message]` or `Vec<Message>`)"),
                        );
                        return;
                    }
                };
                self.used[index] = true;
                self.record(name, VarSource::Context, source, name_span);
                if self.schema.context[index].kind != VarKind::Messages {
                    self.diagnostics.push(
                        Diagnostic::new(format!(
                            "`{{% history {name} %}}` needs a list of messages, but `{name}` is {}",
                            self.schema.context[index].kind.as_str()
                        ))
                        .at(source, name_span.clone())
                        .with_help(format!(
                            "make `{name}` a `&[promptic::Message]` or a `Vec<promptic::Message>`"
                        )),
                    );
                    return;
                }
                out.push(Part::History {
                    index,
                    limit: *limit,
                    name: name.clone(),
                });
            }
        }
    }

    /// Enters a block or a template, unless that nests deeper than [`MAX_DEPTH`].
    fn enter(&mut self, source: &SourceFile, span: &Range<usize>, what: &str) -> bool {
        if self.depth < MAX_DEPTH {
            self.depth += 1;
            return true;
        }
        self.stopped = true;
        let mut d = Diagnostic::new(format!(
            "blocks and templates nested more than {MAX_DEPTH} deep at this {what}"
        ))
        .at(source, span.clone())
        .with_help("a template that uses a template that uses … this deeply cannot be checked; flatten the chain");
        if !self.stack.is_empty() {
            d = d.with_note(format!(
                "the chain of templates: {}",
                self.stack.join(" -> ")
            ));
        }
        self.diagnostics.push(d);
        false
    }

    fn placeholder(&mut self, source: &SourceFile, p: &parse::Placeholder, out: &mut Vec<Part>) {
        let Some(target) = self.target(&p.name) else {
            self.unknown(source, &p.name, &p.span, "placeholder");
            return;
        };
        match target {
            Target::Context { index, upper } => {
                self.used[index] = true;
                self.record(&p.name, VarSource::Context, source, &p.span);
                let var = &self.schema.context[index];
                if var.kind == VarKind::Messages {
                    self.diagnostics.push(
                        Diagnostic::new(format!(
                            "`{}` is a list of messages, not text",
                            spelled(source, &p.span, &p.name)
                        ))
                        .at(source, p.span.clone())
                        .with_help(format!(
                            "insert the messages as a section of their own: `{{% history {} %}}` on a line of its own",
                            var.name
                        )),
                    );
                    return;
                }
                let unguarded = var.kind == VarKind::Optional && !self.guards.contains(&index);
                if let Some(found) = self.unguarded.get_mut(&index).filter(|_| unguarded) {
                    found.again(source, &p.span);
                } else if unguarded {
                    let error = Diagnostic::new(format!(
                        "`{}` is optional and may be absent, but it is used outside `{{% if {} %}}`",
                        spelled(source, &p.span, &p.name),
                        var.name
                    ))
                    .at(source, p.span.clone())
                    .with_help(format!(
                        "wrap the lines that use it in `{{% if {} %}}` … `{{% endif %}}`",
                        var.name
                    ));
                    let first = Repeated::report(&mut self.diagnostics, error, source, &p.span);
                    self.unguarded.insert(index, first);
                }
                out.push(Part::Context { index, upper });
            }
            Target::Identity { key } => {
                self.record(&p.name, VarSource::Identity, source, &p.span);
                out.push(Part::Identity {
                    key,
                    slot: Slot::of(&p.name),
                    lookup: p.name.clone(),
                });
            }
            Target::Literal => {
                self.record(&p.name, VarSource::Literal, source, &p.span);
                push_text(out, &source.text()[p.span.clone()]);
            }
            Target::Template => {
                self.record(&p.name, VarSource::Template, source, &p.span);
                self.template(source, p, out, false);
            }
        }
    }

    /// Inlines a template: mid-line, as one piece of text whose lines are joined among
    /// themselves; `spliced` (alone on its line), as lines of the current body.
    fn template(
        &mut self,
        source: &SourceFile,
        p: &parse::Placeholder,
        out: &mut Vec<Part>,
        spliced: bool,
    ) {
        // The set answers "is it on the stack?" in one lookup, however deep the chain.
        if let Some(start) = self
            .on_stack
            .contains(&p.name)
            .then(|| self.stack.iter().position(|t| *t == p.name))
            .flatten()
        {
            // One cycle is one error wherever the walk entered it: it is told from its
            // first name in sorted order, at the use of that name that closes it.
            let members = &self.stack[start..];
            let first = (0..members.len()).min_by_key(|&i| &members[i]).unwrap_or(0);
            let mut cycle: Vec<&str> = members[first..]
                .iter()
                .chain(&members[..first])
                .map(String::as_str)
                .collect();
            cycle.push(&members[first]);
            let (file, span) = if first == 0 {
                (source.clone(), p.span.clone())
            } else {
                self.used_at[start + first].clone()
            };
            self.diagnostics.push(
                Diagnostic::new(format!("template cycle: {}", cycle.join(" -> ")))
                    .at(&file, span)
                    .with_help(
                        "a template may not include itself, directly or through other templates",
                    ),
            );
            return;
        }
        let Some(template) = self.templates.get(&p.name) else {
            return;
        };
        if !self.reported.contains(&p.name) {
            self.reported.insert(p.name.clone());
            self.diagnostics
                .extend(template.diagnostics.0.iter().cloned());
        }
        // Refused before anything is inlined when it cannot fit: a template used twice in
        // one used twice in one … is sized without being expanded.
        self.expanded = self.expanded.saturating_add(INLINE_COST);
        if self.expanded.saturating_add(self.template_size(&p.name, 0)) > MAX_EXPANDED {
            self.too_large(source, &Node::Placeholder(p.clone()));
            return;
        }
        if !self.enter(source, &p.span, "template") {
            return;
        }
        self.stack.push(p.name.clone());
        self.on_stack.insert(p.name.clone());
        self.used_at.push((source.clone(), p.span.clone()));
        if spliced {
            self.nodes(&template.file.source, &template.nodes, out);
        } else {
            self.bodies.push(Lines::new());
            self.nodes(&template.file.source, &template.nodes, out);
            self.bodies.pop();
        }
        if let Some(name) = self.stack.pop() {
            self.on_stack.remove(&name);
        }
        self.used_at.pop();
        self.depth -= 1;
    }

    /// Adds to each error made in more than one place a note of the other places.
    fn note_repeats(&mut self) {
        for (index, found) in &self.unguarded {
            let name = &self.schema.context[*index].name;
            found.note(
                &mut self.diagnostics,
                &format!("also used outside `{{% if {name} %}}`"),
            );
        }
        for found in self.unknown_names.values() {
            found.note(&mut self.diagnostics, "also written");
        }
    }

    fn unknown(&mut self, source: &SourceFile, name: &str, span: &Range<usize>, what: &str) {
        let placeholder = what == "placeholder";
        let write = |n: &str| {
            if placeholder {
                spelled(source, span, n)
            } else {
                n.to_owned()
            }
        };
        if let Some(found) = self.unknown_names.get_mut(name) {
            found.again(source, span);
            return;
        }
        let shown = write(name);
        let mut d = Diagnostic::new(format!("unknown {what} `{shown}`")).at(source, span.clone());
        let known = self.names.keys().map(String::as_str);
        let suggestion = closest(name, known.chain(self.templates.names()));
        if let Some(Target::Context { index, .. }) = suggestion.and_then(|s| self.names.get(s)) {
            self.misspelt_for.insert(*index);
        }
        let hint = self
            .schema
            .missing_hint
            .as_ref()
            .map(|h| h.replace("{}", name));
        d = match (suggestion, hint) {
            (Some(s), hint) => {
                let d = d.with_help(format!("did you mean `{}`?", write(s)));
                match hint {
                    Some(hint) if placeholder => {
                        d.with_note(format!("if `{shown}` is new, {hint}"))
                    }
                    _ => d,
                }
            }
            (None, Some(hint)) => d.with_help(hint),
            (None, None) => d.with_help(
                "a placeholder names a context variable, an identity key, a template (templates/NAME.md) or a configured literal; write `$$` for a literal `$`",
            ),
        };
        let first = Repeated::report(&mut self.diagnostics, d, source, span);
        self.unknown_names.insert(name.to_owned(), first);
    }

    fn block(&mut self, source: &SourceFile, block: &parse::IfBlock, out: &mut Vec<Part>) {
        if !self.enter(source, &block.span, "block") {
            return;
        }
        self.block_inner(source, block, out);
        self.depth -= 1;
    }

    fn block_inner(&mut self, source: &SourceFile, block: &parse::IfBlock, out: &mut Vec<Part>) {
        let (name, span) = block.condition.name();
        // A condition that failed to parse was already reported.
        let test = if name.is_empty() {
            None
        } else {
            self.test(source, &block.condition, name, span)
        };
        let guard = match &test {
            Some(Test::Set(i) | Test::Equals(i, _)) => Some(*i),
            None => None,
        };
        if let Some(Test::Equals(i, value)) = &test
            && self.schema.context[*i].name == crate::guidance::GUIDANCE
        {
            self.guidance_fence(source, block, value);
        }
        // Each branch starts on a new line; whether a line came before is known for sure
        // only if it was so before the block, and after it only if both branches render one.
        let entry = match self.lines().started {
            Started::No => Started::Maybe,
            known => known,
        };
        let mut then = Vec::new();
        self.guards.extend(guard);
        self.lines().started = entry;
        self.lines().at_line_start = true;
        self.lines().spliced = false;
        self.nodes(source, &block.then, &mut then);
        let then_end = self.lines().started;
        if guard.is_some() {
            self.guards.pop();
        }
        let mut otherwise = Vec::new();
        self.lines().started = entry;
        self.lines().at_line_start = true;
        self.lines().spliced = false;
        if let Some(nodes) = &block.otherwise {
            self.nodes(source, nodes, &mut otherwise);
        }
        let else_end = self.lines().started;
        let lines = self.lines();
        lines.started = if then_end == Started::Yes && else_end == Started::Yes {
            Started::Yes
        } else {
            Started::Maybe
        };
        lines.at_line_start = true;
        lines.spliced = false;
        if let Some(test) = test {
            // Only a guidance fence registers an either-or: elsewhere a reason is not read.
            let either_or = match &test {
                Test::Equals(i, _) if self.schema.context[*i].name == crate::guidance::GUIDANCE => {
                    block.else_reason.clone()
                }
                _ => None,
            };
            out.push(Part::If {
                test,
                then,
                otherwise,
                either_or,
            });
        }
    }

    fn test(
        &mut self,
        source: &SourceFile,
        condition: &Condition,
        name: &str,
        span: &Range<usize>,
    ) -> Option<Test> {
        let target = match self.target(name) {
            Some(t) => t,
            None => {
                self.unknown(source, name, span, "name in condition");
                return None;
            }
        };
        let Target::Context {
            index,
            upper: false,
        } = target
        else {
            let what = match target {
                Target::Context { .. } => "an uppercase-first variant",
                Target::Identity { .. } => "an identity key",
                Target::Template => "a template",
                Target::Literal => "a literal",
            };
            self.diagnostics.push(
                Diagnostic::new(format!(
                    "`{name}` is {what}; a condition tests a context variable"
                ))
                .at(source, span.clone())
                .with_help("test an optional, a flag or a choice of the context"),
            );
            return None;
        };
        self.used[index] = true;
        self.record(name, VarSource::Context, source, span);
        let var = &self.schema.context[index];
        match (condition, &var.kind) {
            (Condition::Set { .. }, VarKind::Optional | VarKind::Flag) => Some(Test::Set(index)),
            (Condition::Set { .. }, kind) => {
                let (what, help) = match kind {
                    VarKind::Choice(choices) => (
                        "a choice, which always has a value",
                        format!(
                            "compare it: `{{% if {name} == \"{}\" %}}`",
                            choices.first().map_or("value", String::as_str)
                        ),
                    ),
                    _ => (
                        "always present",
                        "make it optional (`Option<T>`) or a flag (`bool`) to test it".to_owned(),
                    ),
                };
                self.diagnostics.push(
                    Diagnostic::new(format!(
                        "`{{% if {name} %}}` tests `{name}`, which is {what}"
                    ))
                    .at(source, span.clone())
                    .with_help(help),
                );
                None
            }
            (
                Condition::Equals {
                    value, value_span, ..
                },
                VarKind::Choice(choices),
            ) => {
                if choices.contains(value) {
                    Some(Test::Equals(index, value.clone()))
                } else {
                    let listed: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
                    let mut d = Diagnostic::new(format!(
                        "\"{value}\" is not one of the choices of `{name}`"
                    ))
                    .at(source, value_span.clone());
                    d = match closest(value, choices.iter().map(String::as_str)) {
                        Some(s) => d.with_help(format!(
                            "did you mean \"{s}\"? the choices are {}",
                            listed.join(", ")
                        )),
                        None => d.with_help(format!("the choices are {}", listed.join(", "))),
                    };
                    self.diagnostics.push(d);
                    None
                }
            }
            (Condition::Equals { .. }, VarKind::Flag) => {
                self.diagnostics.push(
                    Diagnostic::new(format!("`{name}` is a flag; compare only text and choices"))
                        .at(source, span.clone())
                        .with_help(format!("test the flag itself: `{{% if {name} %}}`")),
                );
                None
            }
            (Condition::Equals { value, .. }, VarKind::Text | VarKind::Optional) => {
                Some(Test::Equals(index, value.clone()))
            }
            (_, VarKind::Messages) => {
                self.diagnostics.push(
                    Diagnostic::new(format!("`{name}` is a list of messages; a condition tests optionals, flags and choices"))
                        .at(source, span.clone())
                        .with_help(format!("insert the messages with `{{% history {name} %}}`")),
                );
                None
            }
        }
    }
}

/// How the placeholder at `span` writes `name`: `$name`, or `{{name}}` in a file that
/// uses braces, so that messages quote the prompt as it is written.
fn spelled(source: &SourceFile, span: &Range<usize>, name: &str) -> String {
    if source.text()[span.clone()].starts_with("{{") {
        format!("{{{{{name}}}}}")
    } else {
        format!("${name}")
    }
}

fn push_text(out: &mut Vec<Part>, text: &str) {
    if text.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(Part::Text(prev)) => prev.push_str(text),
        _ => out.push(Part::Text(text.to_owned())),
    }
}

#[cfg(test)]
mod tests;
