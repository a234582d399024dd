//! What a prompt is resolved against: the schema (context variables, identity keys,
//! literals) and the project's templates.

use crate::case::variant_name;
use crate::diagnostic::Diagnostics;
use crate::parse::PromptFile;
use crate::parse::{self, Node};
use std::collections::{BTreeMap, BTreeSet};

/// What a prompt may refer to besides templates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schema {
    /// Context variables, in declaration order.
    pub context: Vec<ContextVar>,
    /// Identity keys, flattened (`pronouns_subject`), without their variants.
    pub identity: Vec<String>,
    /// Names that stay literal text (`$HOME` in a shell snippet).
    pub literals: Vec<String>,
    /// Help for an unknown name without a near match; `{}` stands for the name. The macro
    /// says "add a field `{}`", the CLI something else.
    pub missing_hint: Option<String>,
}

impl Schema {
    /// The context variable a name in the prompt stands for: the variable of that name, or
    /// the first whose uppercase-first variant it is (`Day` for `day`).
    pub fn context_index(&self, name: &str) -> Option<usize> {
        self.context
            .iter()
            .position(|c| c.name == name)
            .or_else(|| {
                self.context
                    .iter()
                    .position(|c| variant_name(&c.name) == name)
            })
    }
}

/// A context variable: a field of the typed context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextVar {
    /// Its name in the prompt.
    pub name: String,
    /// What values it takes.
    pub kind: VarKind,
}

impl ContextVar {
    /// A variable of the given kind.
    pub fn new(name: impl Into<String>, kind: VarKind) -> Self {
        ContextVar {
            name: name.into(),
            kind,
        }
    }
}

/// The kinds of context variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// Always present text.
    Text,
    /// May be absent: usable only inside `{% if name %}`.
    Optional,
    /// A yes/no flag for `{% if name %}`.
    Flag,
    /// One of the named values, for `{% if name == "value" %}`.
    Choice(Vec<String>),
    /// A list of chat messages, for `{% history name %}`.
    Messages,
}

impl VarKind {
    /// `text`, `optional`, `flag`, `choice` or `messages`.
    ///
    /// ```
    /// use promptic::resolve::VarKind;
    ///
    /// assert_eq!(VarKind::Optional.as_str(), "optional");
    /// assert_eq!(VarKind::Choice(vec!["a".into()]).as_str(), "choice");
    /// ```
    pub fn as_str(&self) -> &'static str {
        match self {
            VarKind::Text => "text",
            VarKind::Optional => "optional",
            VarKind::Flag => "flag",
            VarKind::Choice(_) => "choice",
            VarKind::Messages => "messages",
        }
    }
}

/// A template: a prompt file under `templates/`, named by its stem.
#[derive(Clone, Debug)]
pub struct Template {
    /// The loaded file.
    pub file: PromptFile,
    pub(super) nodes: Vec<Node>,
    pub(super) diagnostics: Diagnostics,
}

impl Template {
    /// The template's parsed body.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }
}

/// Every template of a project, by name.
#[derive(Clone, Debug, Default)]
pub struct Templates {
    map: BTreeMap<String, Template>,
}

impl Templates {
    /// No templates.
    pub fn new() -> Self {
        Templates::default()
    }

    /// Adds a template; its problems are reported when a prompt uses it.
    pub fn insert(&mut self, name: impl Into<String>, file: PromptFile) {
        let (nodes, diagnostics) =
            parse::parse(&file.source, file.body.clone(), file.parse_options());
        self.map.insert(
            name.into(),
            Template {
                file,
                nodes,
                diagnostics,
            },
        );
    }

    /// The template called `name`.
    pub fn get(&self, name: &str) -> Option<&Template> {
        self.map.get(name)
    }

    /// The templates' names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }

    /// All templates, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Template)> {
        self.map.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Adds to `reached` every template that `nodes` use, directly or through other
    /// templates, at any depth (nothing is resolved, so no depth limit applies): the
    /// templates a check of `nodes` answers for. A `$name` for which `bound_elsewhere`
    /// holds (an identity key, which wins over a template) is no use of a template.
    ///
    /// A template in `reached` already is not walked again, so a set shared by many calls
    /// costs time in proportion to the templates, once: `promptic check` learns which
    /// templates no prompt or template uses, to check those on their own.
    ///
    /// ```
    /// use promptic::load::PromptFile;
    /// use promptic::parse::{parse, ParseOptions};
    /// use promptic::resolve::Templates;
    /// use std::collections::BTreeSet;
    ///
    /// let mut templates = Templates::new();
    /// for (name, text) in [("a", "A $b"), ("b", "B\n{% if x %}\n$c\n{% endif %}"), ("c", "C"), ("d", "D")] {
    ///     templates.insert(name, PromptFile::from_text(&format!("t/{name}.md"), text).unwrap());
    /// }
    /// let prompt = PromptFile::from_text("p.md", "$a and $name").unwrap();
    /// let (nodes, _) = parse(&prompt.source, prompt.body.clone(), ParseOptions::default());
    /// let mut reached = BTreeSet::new();
    /// templates.reach(&nodes, |_| false, &mut reached);
    /// assert_eq!(reached.into_iter().collect::<Vec<_>>(), ["a", "b", "c"]);
    /// ```
    pub fn reach(
        &self,
        nodes: &[Node],
        bound_elsewhere: impl Fn(&str) -> bool,
        reached: &mut BTreeSet<String>,
    ) {
        // A work list, not recursion: a chain of templates may be any length.
        let mut todo: Vec<&[Node]> = vec![nodes];
        while let Some(nodes) = todo.pop() {
            for node in nodes {
                match node {
                    Node::Placeholder(p) => {
                        if let Some(template) = self.map.get(&p.name)
                            && !bound_elsewhere(&p.name)
                            && !reached.contains(&p.name)
                        {
                            reached.insert(p.name.clone());
                            todo.push(template.nodes());
                        }
                    }
                    Node::If(block) => {
                        todo.push(&block.then);
                        if let Some(otherwise) = &block.otherwise {
                            todo.push(otherwise);
                        }
                    }
                    Node::Text(_)
                    | Node::Dollar(_)
                    | Node::Section(_)
                    | Node::CacheBreakpoint(_) => {}
                }
            }
        }
    }
}
