//! A template with everything it includes: loaded once, cycles refused, rendered by name.

use super::data::{Map, Value};
use super::parser::{Node, Scope};
use super::{Options, Template};
use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

/// How many includes deep a chain may go: far past LangAlpha's two.
const MAX_INCLUDE_DEPTH: usize = 32;

/// How deep blocks may nest across a chain of includes, the blocks around each include
/// counted: rendering recurses once per level.
const MAX_NESTING: usize = 200;

/// What lies below a template already walked: how many includes deep its chain goes, and
/// how many blocks deep, its own and its includes' together.
#[derive(Clone, Copy, Default)]
struct Below {
    includes: usize,
    nesting: usize,
}

/// Jinja templates by name (relative to `prompts/`, `/`-separated), each with the
/// templates it includes.
///
/// ```
/// use promptic::formats::jinja::{Options, Templates};
/// use promptic::SourceFile;
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
    /// The length of the last render, so the next one allocates its text once.
    pub(super) last_len: LastLen,
    /// What each entry reads into its values, walked on its first render.
    pub(super) plans: super::check::Plans,
    /// The names' slots, made on the first render.
    pub(super) slot_cache: super::slots::SlotCache,
}

/// A length remembered between renders, shared by threads rendering the same templates.
#[derive(Debug, Default)]
pub(super) struct LastLen(std::sync::atomic::AtomicUsize);

impl LastLen {
    pub(super) fn get(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub(super) fn set(&self, len: usize) {
        self.0.store(len, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Clone for LastLen {
    fn clone(&self) -> Self {
        LastLen(std::sync::atomic::AtomicUsize::new(self.get()))
    }
}

/// The values a template renders with: a [`Value`] as it is, dicts in their order and
/// integers exact; or a `serde_json::Value`, converted, its dicts in the order its maps
/// keep (sorted by key, unless a crate of the build turns on serde_json's
/// `preserve_order`).
///
/// ```
/// use promptic::formats::jinja::{Options, Templates, Value};
/// use promptic::SourceFile;
///
/// let source = SourceFile::new("prompts/t.j2", "{{ d }}");
/// let templates = Templates::load("t.j2", Options::default(), &mut |_| Ok(source.clone())).unwrap();
/// let ordered = Value::from_json(r#"{"d": {"b": 1, "a": 2}}"#).unwrap();
/// assert_eq!(templates.render("t.j2", &ordered).unwrap(), "{'b': 1, 'a': 2}");
/// let json = serde_json::json!({"d": {"b": 1, "a": 2}});
/// let first = json["d"].as_object().unwrap().keys().next().unwrap();
/// let rendered = templates.render("t.j2", &json).unwrap();
/// assert!(rendered.starts_with(&format!("{{'{first}': ")), "{rendered}");
/// ```
pub trait RenderValues {
    /// The values as the renderer reads them.
    fn to_values(&self) -> Cow<'_, Value>;
}

impl RenderValues for Value {
    fn to_values(&self) -> Cow<'_, Value> {
        Cow::Borrowed(self)
    }
}

impl RenderValues for serde_json::Value {
    fn to_values(&self) -> Cow<'_, Value> {
        Cow::Owned(Value::from(self))
    }
}

/// What a reader gives back for a name it cannot read: `None` when there is no such file
/// (the include is then reported at its tag), or a diagnostic of its own.
pub type ReadError = Option<Diagnostic>;

impl Templates {
    /// Loads `entry` and, transitively, every template it includes or imports macros from,
    /// through `read` (which maps a name to its source). A missing file, a syntax error, an
    /// include or import cycle or a chain deeper than 32 is reported at its tag.
    pub fn load(
        entry: &str,
        options: Options,
        read: &mut dyn FnMut(&str) -> Result<SourceFile, ReadError>,
    ) -> Result<Templates, Diagnostics> {
        let mut set = Templates {
            options,
            templates: BTreeMap::new(),
            last_len: LastLen::default(),
            plans: Default::default(),
            slot_cache: Default::default(),
        };
        let mut errors = Diagnostics::default();
        let mut walk = Walk {
            read,
            importing: Vec::new(),
            chain: Vec::new(),
            done: std::collections::HashMap::new(),
            errors: &mut errors,
            reported: (false, false),
        };
        set.visit(entry, None, 0, &mut walk);
        if errors.0.is_empty() {
            set.inherit(&mut errors);
        }
        if errors.0.is_empty() && set.get(entry).is_some_and(Template::is_static) {
            super::cache::check(&set, entry, &mut errors);
        }
        if errors.0.is_empty() {
            super::cache::check_breakpoints(&set, entry, &mut errors);
        }
        if errors.0.is_empty()
            && let Some(overrun) = set.sure_overrun(entry)
        {
            errors.push(overrun);
        }
        if errors.0.is_empty() {
            Ok(set)
        } else {
            Err(errors)
        }
    }

    /// These templates with every registered either-or (`{% else %}{# either-or: why #}`
    /// on a guidance fence) muted: its `else` branch left out, so at lean the block renders
    /// nothing where it rendered the inversion. With the reasons, in template order. What
    /// lean still adds over detailed then is what nothing registers (`promptic diff
    /// --guidance`).
    pub fn without_either_ors(&self) -> (Templates, Vec<String>) {
        let mut reasons = Vec::new();
        let mut templates = self.templates.clone();
        let sources = |name: &str| self.templates.get(name).map(|t| t.source.clone());
        for template in templates.values_mut() {
            super::fence::mute_either_ors(
                &template.source,
                &mut template.nodes,
                &mut reasons,
                &sources,
            );
        }
        let muted = Templates {
            options: self.options,
            templates,
            last_len: LastLen::default(),
            plans: Default::default(),
            slot_cache: Default::default(),
        };
        (muted, reasons)
    }

    /// The environment options the templates were read with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Every template loaded, by name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.templates.keys().map(String::as_str)
    }

    /// The digest of what template `entry` renders from (see
    /// [`LoadedPrompt::version`](crate::formats::LoadedPrompt::version)): its text, every
    /// other template loaded with it, by name, and the environment options.
    pub fn version(&self, entry: &str) -> String {
        let o = self.options;
        let options = format!(
            "trim_blocks={} lstrip_blocks={} keep_trailing_newline={}",
            o.trim_blocks, o.lstrip_blocks, o.keep_trailing_newline
        );
        let own = self.get(entry).map(|t| (entry, t.source().text()));
        let others = self
            .templates
            .iter()
            .filter(|(name, _)| *name != entry)
            .map(|(name, t)| (name.as_str(), t.source().text()));
        crate::formats::version_of(
            own.into_iter()
                .chain(others)
                .chain([("\0options", options.as_str())]),
        )
    }

    /// The template of that name, if it was loaded.
    pub fn get(&self, name: &str) -> Option<&Template> {
        self.templates.get(name)
    }

    /// Renders the template `name` with `values` (a JSON object of the context's names),
    /// byte for byte as Jinja2 renders it with the same options. The values are checked
    /// first against every path the templates read ([`check_values`](Self::check_values)):
    /// the error is then the first mismatch, with a note for each other one.
    pub fn render(&self, name: &str, values: &impl RenderValues) -> Result<String, Diagnostic> {
        self.render_with_breakpoints(name, values)
            .map(|(text, _)| text)
    }

    /// [`render`](Self::render), with the byte offsets in the text where the template's
    /// `{# cache_breakpoint #}` comments fall, in order.
    ///
    /// ```
    /// use promptic::formats::jinja::{Options, Templates};
    /// use promptic::SourceFile;
    ///
    /// let text = "You review pull requests.\n{# cache_breakpoint #}\nReview: {{ diff }}";
    /// let set = Templates::load("p", Options::default(), &mut |_: &str| Ok(SourceFile::new("p.j2", text)))
    ///     .unwrap();
    /// let (text, breakpoints) =
    ///     set.render_with_breakpoints("p", &serde_json::json!({"diff": "+1"})).unwrap();
    /// assert_eq!(text, "You review pull requests.\n\nReview: +1");
    /// assert_eq!(breakpoints, [26]);
    /// ```
    pub fn render_with_breakpoints(
        &self,
        name: &str,
        values: &impl RenderValues,
    ) -> Result<(String, Vec<usize>), Diagnostic> {
        let Some(template) = self.templates.get(name) else {
            return Err(Diagnostic::new(format!("no template `{name}` was loaded")));
        };
        let empty = Map::new();
        let values = values.to_values();
        let context = match &*values {
            Value::Object(map) => map,
            Value::Null => &empty,
            other => {
                return Err(Diagnostic::new(format!(
                    "a template's values must be a JSON object of names, not {}",
                    super::value::a_type(other)
                )));
            }
        };
        self.render_checked(name, template, context)
    }

    /// Loads `name` and what it includes, reached through `site` with `nesting` blocks
    /// around it; returns what lies below it. A template is walked once: the next time it
    /// is reached, what lies below it is known, so a diamond of includes costs no more than
    /// its files.
    fn visit(
        &mut self,
        name: &str,
        site: Option<(&SourceFile, Range<usize>)>,
        nesting: usize,
        walk: &mut Walk<'_>,
    ) -> Below {
        let at_site = |error: Diagnostic| match &site {
            Some((source, span)) => error.at(source, span.clone()),
            None => error,
        };
        if let Some(at) = walk.chain.iter().position(|n| n == name) {
            let mut cycle: Vec<&str> = walk.chain[at..].iter().map(String::as_str).collect();
            cycle.push(name);
            let error = Diagnostic::new(format!("include cycle: {}", cycle.join(" → ")));
            walk.errors.push(
                at_site(error).with_note("Jinja2 would recurse until Python's stack runs out"),
            );
            return Below::default();
        }
        let below = match walk.done.get(name) {
            Some(below) => *below,
            None => {
                let Some(below) = self.load_below(name, &site, walk) else {
                    return Below::default();
                };
                walk.done.insert(name.to_owned(), below);
                below
            }
        };
        // Each kind once, at the deepest include that crosses it (children report first).
        if walk.chain.len() + 1 + below.includes > MAX_INCLUDE_DEPTH && !walk.reported.0 {
            walk.reported.0 = true;
            walk.errors.push(at_site(Diagnostic::new(format!(
                "includes nest more than {MAX_INCLUDE_DEPTH} deep"
            ))));
        } else if nesting + below.nesting > MAX_NESTING && !walk.reported.1 {
            walk.reported.1 = true;
            walk.errors.push(at_site(Diagnostic::new(format!(
                "blocks nest more than {MAX_NESTING} deep with the templates this includes"
            ))));
        }
        below
    }

    /// Reads and parses `name`, then walks its includes: what lies below it.
    fn load_below(
        &mut self,
        name: &str,
        site: &Option<(&SourceFile, Range<usize>)>,
        walk: &mut Walk<'_>,
    ) -> Option<Below> {
        if walk.chain.len() >= MAX_INCLUDE_DEPTH {
            // Deeper than allowed already: the caller reports it; reading on could go far.
            return Some(Below {
                includes: 1,
                nesting: 0,
            });
        }
        if !self.templates.contains_key(name) {
            let source = match (walk.read)(name) {
                Ok(source) => source,
                Err(why) => {
                    let error = why.unwrap_or_else(|| {
                        let error = Diagnostic::new(format!("no template `{name}` in `prompts/`"));
                        match site {
                            Some((source, span)) => error.at(source, span.clone()),
                            None => error,
                        }
                    });
                    walk.errors.push(error);
                    return None;
                }
            };
            walk.importing.push(name.to_owned());
            let options = self.options;
            let parsed =
                Template::parse_importing(&source, options, &mut |n: &str| self.import_of(n, walk));
            walk.importing.pop();
            match parsed {
                Ok(template) => {
                    self.templates.insert(name.to_owned(), template);
                }
                Err(found) => {
                    found.0.into_iter().for_each(|d| walk.errors.push(d));
                    return None;
                }
            }
        }
        let template = self.templates.get(name)?;
        let source = template.source.clone();
        let mut includes = Vec::new();
        // The parent is walked as an include is: a cycle of `extends` is one too.
        if let Some((parent, span)) = &template.extends {
            includes.push((parent.clone(), span.clone(), 0, None));
        }
        includes_at(&template.nodes, 0, None, &mut includes);
        for (_, body) in &template.blocks {
            includes_at(body, 1, None, &mut includes);
        }
        let own = template
            .blocks
            .iter()
            .map(|(_, body)| 1 + super::parser::nesting(body))
            .fold(super::parser::nesting(&template.nodes), usize::max);
        walk.chain.push(name.to_owned());
        let mut below = Below {
            includes: 0,
            nesting: own,
        };
        for (included, span, depth, file) in includes {
            // An include in an imported macro's body: its tag is in the other template.
            let site = file
                .and_then(|f| self.templates.get(&f))
                .map_or_else(|| source.clone(), |t| t.source.clone());
            let child = self.visit(&included, Some((&site, span)), depth, walk);
            below.includes = below.includes.max(child.includes + 1);
            below.nesting = below.nesting.max(depth + child.nesting);
        }
        walk.chain.pop();
        Some(below)
    }

    /// The top-level macros of template `name`, for a template that imports them: read and
    /// parsed the first time (itself importing through here), kept in the set.
    fn import_of(
        &mut self,
        name: &str,
        walk: &mut Walk<'_>,
    ) -> Result<Vec<super::parser::Macro>, ReadError> {
        let exported = |template: &Template| {
            template
                .macros
                .iter()
                .map(|m| m.exported(name, m.name()))
                .collect::<Vec<_>>()
        };
        if let Some(at) = walk.importing.iter().position(|n| n == name) {
            let mut cycle: Vec<&str> = walk.importing[at..].iter().map(String::as_str).collect();
            cycle.push(name);
            return Err(Some(Diagnostic::new(format!(
                "import cycle: {}",
                cycle.join(" → ")
            ))));
        }
        if let Some(template) = self.templates.get(name) {
            return Ok(exported(template));
        }
        if walk.importing.len() >= MAX_INCLUDE_DEPTH {
            return Err(Some(Diagnostic::new(format!(
                "imports nest more than {MAX_INCLUDE_DEPTH} deep"
            ))));
        }
        let source = (walk.read)(name)?;
        walk.importing.push(name.to_owned());
        let options = self.options;
        let parsed =
            Template::parse_importing(&source, options, &mut |n: &str| self.import_of(n, walk));
        walk.importing.pop();
        let template = parsed.map_err(|found| found.0.into_iter().next())?;
        let macros = exported(&template);
        self.templates.insert(name.to_owned(), template);
        Ok(macros)
    }
}

impl Templates {
    /// Whether every render of `entry` goes past [`MAX_STEPS`](super::MAX_STEPS) whatever
    /// the values, because the nodes it visits unconditionally (includes that include
    /// others twice, level after level) are more: then the error, at its first include.
    /// Each node a render visits is a step, so such a render would always stop at the
    /// bound; Jinja2 would run until memory or patience ends.
    fn sure_overrun(&self, entry: &str) -> Option<Diagnostic> {
        let template = self.get(entry)?;
        let mut counted = std::collections::HashMap::new();
        let visited = self.sure_nodes(entry, &mut counted);
        if visited <= super::MAX_STEPS as u128 {
            return None;
        }
        let diagnostic = Diagnostic::new(format!(
            "the templates this prompt includes expand to {visited} nodes, more than a render may visit ({})",
            super::MAX_STEPS
        ))
        .with_help("a template that includes another twice doubles at each level: include less, or loop over data");
        let first = template.nodes.iter().find_map(|node| match node {
            Node::Include { span, .. } => Some(span.clone()),
            _ => None,
        });
        Some(match first {
            Some(span) => diagnostic.at(&template.source, span),
            None => diagnostic.in_file(template.source.path()),
        })
    }

    /// How many nodes a render of template `name` visits whatever the values: its own,
    /// and those of what it includes and of its blocks, macro calls and filter blocks (not
    /// what a condition or a loop holds). Each template is counted once (`counted`; a
    /// template being counted, in a cycle the load refused already, counts nothing).
    fn sure_nodes(
        &self,
        name: &str,
        counted: &mut std::collections::HashMap<String, u128>,
    ) -> u128 {
        if let Some(&n) = counted.get(name) {
            return n;
        }
        let Some(template) = self.get(name) else {
            return 0;
        };
        counted.insert(name.to_owned(), 0);
        let n = self.sure_nodes_of(&template.nodes, counted);
        counted.insert(name.to_owned(), n);
        n
    }

    fn sure_nodes_of(
        &self,
        nodes: &[Node],
        counted: &mut std::collections::HashMap<String, u128>,
    ) -> u128 {
        nodes.iter().fold(0u128, |n, node| {
            let inner = match node {
                Node::Include { name, .. } => self.sure_nodes(name, counted),
                Node::Scope(scope) => self.sure_nodes_of(&scope.nodes, counted),
                Node::FilterBlock(block) => self.sure_nodes_of(&block.body, counted),
                _ => 0,
            };
            n.saturating_add(1).saturating_add(inner)
        })
    }

    /// Puts each template's parent (its blocks replaced by the child's) at the end of its
    /// nodes, as Jinja2 renders a template that extends another.
    fn inherit(&mut self, errors: &mut Diagnostics) {
        let mut resolved = Vec::new();
        for (name, template) in &self.templates {
            if template.extends.is_none() {
                continue;
            }
            let mut copied = 0;
            let mut chain = Vec::new();
            match self.parent_of(name, &mut chain, &mut copied) {
                Ok(parent) => resolved.push((name.clone(), parent)),
                Err(error) => errors.push(error),
            }
        }
        for (name, parent) in resolved {
            if let Some(template) = self.templates.get_mut(&name) {
                template.nodes.push(parent);
            }
        }
    }

    /// The parent of `name` with the blocks of `name`, and of the templates in `chain`
    /// that extend it, in place: a scope of the parent's template.
    fn parent_of<'s>(
        &'s self,
        name: &'s str,
        chain: &mut Vec<Extending<'s>>,
        copied: &mut usize,
    ) -> Result<Node, Diagnostic> {
        let template = self
            .get(name)
            .ok_or_else(|| Diagnostic::new(format!("`{name}` was not loaded")))?;
        let Some((parent_name, span)) = &template.extends else {
            return Err(Diagnostic::new(format!("`{name}` extends no template")));
        };
        let parent = self
            .get(parent_name)
            .ok_or_else(|| Diagnostic::new(format!("`{parent_name}` was not loaded")))?;
        if !parent.breakpoints.is_empty() {
            return Err(Diagnostic::new("cache breakpoints in a template that another extends")
                .at(&template.source, span.clone())
                .with_note(format!("`{parent_name}` marks them; a breakpoint is kept only in the template rendered")));
        }
        chain.push((name, &template.blocks));
        let mut nodes = parent.nodes.clone();
        let found = match &parent.extends {
            Some(_) => self
                .parent_of(parent_name, chain, copied)
                .map(|grand| nodes.push(grand)),
            None => {
                let mut replace = Replace {
                    chain,
                    copied,
                    depth: 0,
                    base: parent_name,
                    source: &parent.source,
                };
                replace.nodes(&mut nodes)
            }
        };
        chain.pop();
        found?;
        Ok(Node::Scope(Box::new(Scope {
            template: Some(parent_name.clone()),
            block: None,
            binds: Vec::new(),
            nodes,
            span: span.clone(),
        })))
    }
}

/// A template that extends another, by name, with its blocks.
type Extending<'s> = (&'s str, &'s [(String, Vec<Node>)]);

/// Puts in a base template's tree the blocks of the templates that extend it.
struct Replace<'c, 's> {
    /// The templates extending the base, the nearest to the one rendered first, each with
    /// its blocks.
    chain: &'c [Extending<'s>],
    copied: &'c mut usize,
    depth: usize,
    /// The base template's name, and its source, for errors.
    base: &'c str,
    source: &'c SourceFile,
}

impl Replace<'_, '_> {
    fn nodes(&mut self, nodes: &mut [Node]) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Diagnostic::new(format!(
                "blocks nest more than {MAX_NESTING} deep with the templates this extends"
            ))
            .in_file(self.source.path()));
        }
        for node in nodes.iter_mut() {
            match node {
                Node::If(block) => {
                    for (_, body) in &mut block.branches {
                        self.nodes(body)?;
                    }
                    if let Some((_, body)) = &mut block.otherwise {
                        self.nodes(body)?;
                    }
                }
                Node::For(each) => {
                    self.nodes(&mut each.body)?;
                    if let Some(body) = &mut each.otherwise {
                        self.nodes(body)?;
                    }
                }
                Node::FilterBlock(block) => self.nodes(&mut block.body)?,
                Node::Scope(scope) if scope.template.is_none() => {
                    if let Some(name) = &scope.block {
                        // The definitions of the block, the nearest first: the one written
                        // is the first, and `super()` in each writes the next.
                        let found: Vec<(usize, &Vec<Node>)> = self
                            .chain
                            .iter()
                            .enumerate()
                            .filter_map(|(i, (_, blocks))| {
                                blocks
                                    .iter()
                                    .find(|(n, _)| n == name)
                                    .map(|(_, body)| (i, body))
                            })
                            .collect();
                        if !found.is_empty() {
                            let own = std::mem::take(&mut scope.nodes);
                            scope.nodes = vec![self.definition(&found, own, name)?];
                            continue;
                        }
                    }
                    self.nodes(&mut scope.nodes)?;
                }
                _ => {}
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// The first of `found` with its `super()`s the next ones (the last, the base's own
    /// block `own`), as a scope of the template that defines it.
    fn definition(
        &mut self,
        found: &[(usize, &Vec<Node>)],
        own: Vec<Node>,
        name: &str,
    ) -> Result<Node, Diagnostic> {
        let Some(((at, body), rest)) = found.split_first() else {
            // The base's own block.
            let mut own = own;
            self.nodes(&mut own)?;
            return Ok(Node::Scope(Box::new(Scope {
                template: Some(self.base.to_owned()),
                block: None,
                binds: Vec::new(),
                nodes: own,
                span: 0..0,
            })));
        };
        *self.copied = self.copied.saturating_add(super::parser::count_nodes(body));
        if *self.copied > super::parser::MAX_COPIED {
            return Err(Diagnostic::new(format!(
                "the blocks of the templates this extends copy more than {} nodes",
                super::parser::MAX_COPIED
            ))
            .in_file(self.source.path()));
        }
        let mut nodes = (*body).clone();
        let mut own = Some(own);
        self.supers(&mut nodes, rest, &mut own, name)?;
        self.nodes(&mut nodes)?;
        Ok(Node::Scope(Box::new(Scope {
            template: Some(self.chain[*at].0.to_owned()),
            block: None,
            binds: Vec::new(),
            nodes,
            span: 0..0,
        })))
    }

    /// Puts the next definition of the block in place of each `super()` in `nodes`.
    fn supers(
        &mut self,
        nodes: &mut [Node],
        rest: &[(usize, &Vec<Node>)],
        own: &mut Option<Vec<Node>>,
        name: &str,
    ) -> Result<(), Diagnostic> {
        for node in nodes.iter_mut() {
            match node {
                Node::Super(span) => {
                    let span = span.clone();
                    let next = own.clone().unwrap_or_default();
                    let mut scope = self.definition(rest, next, name)?;
                    if let Node::Scope(scope) = &mut scope {
                        scope.span = span;
                    }
                    *node = scope;
                }
                Node::If(block) => {
                    for (_, body) in &mut block.branches {
                        self.supers(body, rest, own, name)?;
                    }
                    if let Some((_, body)) = &mut block.otherwise {
                        self.supers(body, rest, own, name)?;
                    }
                }
                Node::For(each) => {
                    self.supers(&mut each.body, rest, own, name)?;
                    if let Some(body) = &mut each.otherwise {
                        self.supers(body, rest, own, name)?;
                    }
                }
                Node::FilterBlock(block) => self.supers(&mut block.body, rest, own, name)?,
                // A block inside this one has `super()`s of its own.
                Node::Scope(scope) if scope.block.is_none() => {
                    self.supers(&mut scope.nodes, rest, own, name)?
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The state of one [`Templates::load`].
struct Walk<'r> {
    read: &'r mut dyn FnMut(&str) -> Result<SourceFile, ReadError>,
    /// The templates being parsed, outermost first, each waiting for the macros of the
    /// next: a name met again here is an import cycle.
    importing: Vec<String>,
    /// The includes being walked, outermost first: a name met again here is a cycle.
    chain: Vec<String>,
    /// Templates walked to the end, with what lies below each.
    done: std::collections::HashMap<String, Below>,
    errors: &'r mut Diagnostics,
    /// Whether the include depth and the nesting limits were reported.
    reported: (bool, bool),
}

/// An include found by [`includes_at`]: the name, the tag's span, the blocks around it, and
/// the template the span is in when it is not the one walked (an imported macro's body).
type Found = (String, Range<usize>, usize, Option<String>);

/// Every `{% include %}` in `nodes`, with its tag's span and the blocks around it.
fn includes_at(nodes: &[Node], depth: usize, file: Option<&str>, out: &mut Vec<Found>) {
    let file_of = || file.map(str::to_owned);
    for node in nodes {
        match node {
            Node::Include { name, span } => {
                out.push((name.clone(), span.clone(), depth, file_of()));
            }
            Node::If(block) => {
                for (_, body) in &block.branches {
                    includes_at(body, depth + 1, file, out);
                }
                if let Some((_, body)) = &block.otherwise {
                    includes_at(body, depth + 1, file, out);
                }
            }
            Node::For(each) => {
                includes_at(&each.body, depth + 1, file, out);
                if let Some(body) = &each.otherwise {
                    includes_at(body, depth + 1, file, out);
                }
            }
            Node::FilterBlock(block) => includes_at(&block.body, depth + 1, file, out),
            Node::Scope(scope) => {
                let inner = scope.template.as_deref().or(file);
                includes_at(&scope.nodes, depth + 1, inner, out);
            }
            Node::Text(_)
            | Node::Output(_)
            | Node::Set { .. }
            | Node::SetAttr { .. }
            | Node::Super(_) => {}
        }
    }
}

/// Every `{% include %}` in `nodes`, in order, with its tag's span.
pub(super) fn includes_of(nodes: &[Node], out: &mut Vec<(String, Range<usize>)>) {
    for node in nodes {
        match node {
            Node::Include { name, span } => out.push((name.clone(), span.clone())),
            // A parent template put in place is not an include of this one.
            Node::Scope(scope) if scope.template.is_some() => {}
            other => {
                for body in other.bodies() {
                    includes_of(body, out);
                }
            }
        }
    }
}
