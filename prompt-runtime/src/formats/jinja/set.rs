//! A template with everything it includes: loaded once, cycles refused, rendered by name.

use super::data::{Map, Value};
use super::parser::Node;
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
/// integers exact; or a `serde_json::Value`, converted (its maps are sorted by key
/// already, so dicts come in key order).
///
/// ```
/// use promptic::formats::jinja::{Options, Templates, Value};
/// use promptic::SourceFile;
///
/// let source = SourceFile::new("prompts/t.j2", "{{ d }}");
/// let templates = Templates::load("t.j2", Options::default(), &mut |_| Ok(source.clone())).unwrap();
/// let ordered = Value::from_json(r#"{"d": {"b": 1, "a": 2}}"#).unwrap();
/// assert_eq!(templates.render("t.j2", &ordered).unwrap(), "{'b': 1, 'a': 2}");
/// let sorted = serde_json::json!({"d": {"b": 1, "a": 2}});
/// assert_eq!(templates.render("t.j2", &sorted).unwrap(), "{'a': 2, 'b': 1}");
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
            last_len: LastLen::default(),
            plans: Default::default(),
            slot_cache: Default::default(),
        };
        let mut errors = Diagnostics::default();
        let mut walk = Walk {
            read,
            chain: Vec::new(),
            done: std::collections::HashMap::new(),
            errors: &mut errors,
            reported: (false, false),
        };
        set.visit(entry, None, 0, &mut walk);
        if errors.0.is_empty() && set.get(entry).is_some_and(Template::is_static) {
            super::cache::check(&set, entry, &mut errors);
        }
        if errors.0.is_empty() {
            super::cache::check_breakpoints(&set, entry, &mut errors);
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
        for template in templates.values_mut() {
            super::fence::mute_either_ors(&template.source, &mut template.nodes, &mut reasons);
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
            match Template::parse(&source, self.options) {
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
        includes_at(&template.nodes, 0, &mut includes);
        let own = nesting_of(&template.nodes);
        walk.chain.push(name.to_owned());
        let mut below = Below {
            includes: 0,
            nesting: own,
        };
        for (included, span, depth) in includes {
            let child = self.visit(&included, Some((&source, span)), depth, walk);
            below.includes = below.includes.max(child.includes + 1);
            below.nesting = below.nesting.max(depth + child.nesting);
        }
        walk.chain.pop();
        Some(below)
    }
}

/// The state of one [`Templates::load`].
struct Walk<'r> {
    read: &'r mut dyn FnMut(&str) -> Result<SourceFile, ReadError>,
    /// The includes being walked, outermost first: a name met again here is a cycle.
    chain: Vec<String>,
    /// Templates walked to the end, with what lies below each.
    done: std::collections::HashMap<String, Below>,
    errors: &'r mut Diagnostics,
    /// Whether the include depth and the nesting limits were reported.
    reported: (bool, bool),
}

/// Every `{% include %}` in `nodes`, with its tag's span and the blocks around it.
fn includes_at(nodes: &[Node], depth: usize, out: &mut Vec<(String, Range<usize>, usize)>) {
    for node in nodes {
        match node {
            Node::Include { name, span } => out.push((name.clone(), span.clone(), depth)),
            Node::If(block) => {
                for (_, body) in &block.branches {
                    includes_at(body, depth + 1, out);
                }
                if let Some((_, body)) = &block.otherwise {
                    includes_at(body, depth + 1, out);
                }
            }
            Node::For(each) => {
                includes_at(&each.body, depth + 1, out);
                if let Some(body) = &each.otherwise {
                    includes_at(body, depth + 1, out);
                }
            }
            Node::FilterBlock(block) => includes_at(&block.body, depth + 1, out),
            Node::Text(_) | Node::Output(_) | Node::Set { .. } | Node::SetAttr { .. } => {}
        }
    }
}

/// How deep blocks nest in `nodes`.
fn nesting_of(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|node| match node {
            Node::If(block) => {
                let branches = block.branches.iter().map(|(_, body)| nesting_of(body));
                let otherwise = block.otherwise.iter().map(|(_, body)| nesting_of(body));
                1 + branches.chain(otherwise).max().unwrap_or(0)
            }
            Node::For(each) => {
                1 + nesting_of(&each.body).max(each.otherwise.as_deref().map_or(0, nesting_of))
            }
            Node::FilterBlock(block) => 1 + nesting_of(&block.body),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
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
            Node::FilterBlock(block) => includes_of(&block.body, out),
            Node::Text(_) | Node::Output(_) | Node::Set { .. } | Node::SetAttr { .. } => {}
        }
    }
}
