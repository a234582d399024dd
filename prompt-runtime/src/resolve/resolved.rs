//! What resolving gives: the parts to render and the names a prompt uses.

/// A resolved prompt: what to render, and what it uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The parts to render, templates inlined.
    pub parts: Vec<Part>,
    /// Every name the prompt uses, in order of first use.
    pub variables: Vec<Variable>,
    /// Indices of context variables that the prompt never uses.
    pub unused: Vec<usize>,
    /// How many flags the [`Part::Line`]s use; a renderer starts them all unset.
    pub line_flags: usize,
}

impl Resolved {
    /// True for a chat prompt: one with section directives, rendered as messages.
    pub fn is_chat(&self) -> bool {
        self.parts
            .iter()
            .any(|p| matches!(p, Part::Section { .. } | Part::History { .. }))
    }

    /// Where the prompt first uses each name, gathered in one pass: look one up with
    /// [`FirstUses::of`].
    pub fn first_uses(&self) -> FirstUses<'_> {
        let mut first = std::collections::HashMap::new();
        for (i, variable) in self.variables.iter().enumerate() {
            if let Some(u) = variable.uses.first() {
                first.entry(variable.name.as_str()).or_insert((i, u));
            }
        }
        FirstUses(first)
    }

    /// The identity keys the prompt needs (base keys, variants mapped back), sorted.
    pub fn identity_keys(&self) -> Vec<String> {
        let mut keys = Vec::new();
        collect_identity(&self.parts, &mut keys);
        keys.sort();
        keys.dedup();
        keys
    }
}

/// Where a prompt first uses each name ([`Resolved::first_uses`]).
#[derive(Clone, Debug)]
pub struct FirstUses<'a>(std::collections::HashMap<&'a str, (usize, &'a Use)>);

impl<'a> FirstUses<'a> {
    /// Where value `name` is first used, as written or as its capitalized variant
    /// (`$Preferred` for `preferred`), whichever comes first.
    pub fn of(&self, name: &str) -> Option<&'a Use> {
        let variant = crate::variant_name(name);
        [self.0.get(name), self.0.get(variant.as_str())]
            .into_iter()
            .flatten()
            .min_by_key(|(i, _)| *i)
            .map(|(_, u)| *u)
    }
}

fn collect_identity(parts: &[Part], keys: &mut Vec<String>) {
    for part in parts {
        match part {
            Part::Identity { key, .. } => keys.push(key.clone()),
            Part::If {
                then, otherwise, ..
            } => {
                collect_identity(then, keys);
                collect_identity(otherwise, keys);
            }
            Part::Text(_)
            | Part::Context { .. }
            | Part::Line { .. }
            | Part::Section { .. }
            | Part::History { .. }
            | Part::CacheBreakpoint => {}
        }
    }
}

/// One piece of a resolved prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Literal text.
    Text(String),
    /// A context variable's value.
    Context {
        /// Index into [`Schema::context`](super::Schema::context).
        index: usize,
        /// Written as the uppercase-first variant.
        upper: bool,
    },
    /// An identity value.
    Identity {
        /// The base key (`pronouns_subject`).
        key: String,
        /// The name to look up: the key or its variant (`Pronouns_subject`).
        lookup: String,
        /// `lookup`'s slot, so that rendering reaches the value without hashing.
        slot: crate::identity::Slot,
    },
    /// A block.
    If {
        /// What is tested.
        test: Test,
        /// Rendered when the test holds.
        then: Vec<Part>,
        /// Rendered otherwise.
        otherwise: Vec<Part>,
        /// On a guidance fence with `{% else "why" %}`: the reason, for the registered
        /// either-or whose `otherwise` renders at lean what detailed lacks.
        either_or: Option<String>,
    },
    /// Where a chat section starts: the parts up to the next section are its content.
    Section {
        /// Who speaks it.
        role: crate::chat::Role,
        /// The section's name.
        name: String,
    },
    /// A chat section that inserts a context variable's messages.
    History {
        /// Index into [`Schema::context`](super::Schema::context).
        index: usize,
        /// Only the last this many, when given.
        limit: Option<u64>,
        /// The section's name (the variable's).
        name: String,
    },
    /// `{% cache_breakpoint %}`: the cacheable prefix ends here. Renders nothing; the
    /// renderer records where it falls.
    CacheBreakpoint,
    /// The start of a line whose separator depends on blocks before it: renders `\n` when
    /// flag `flag` is set (a line of the same body was rendered before), then sets it.
    Line {
        /// Index of the flag, below [`Resolved::line_flags`].
        flag: usize,
    },
}

/// The test of a resolved block; indices point into [`Schema::context`](super::Schema::context).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Test {
    /// The optional value is present, or the flag is set.
    Set(usize),
    /// The value equals this text.
    Equals(usize, String),
}

/// A name a prompt uses and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// The name as written (`Preferred`, `segment_preamble`).
    pub name: String,
    /// What provides it.
    pub source: VarSource,
    /// Every place it is used, templates included.
    pub uses: Vec<Use>,
}

/// What provides a variable's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VarSource {
    /// The typed context.
    Context,
    /// The identity.
    Identity,
    /// A template file.
    Template,
    /// Left as literal text.
    Literal,
}

impl VarSource {
    /// `context`, `identity`, `template` or `literal`.
    pub fn as_str(self) -> &'static str {
        match self {
            VarSource::Context => "context",
            VarSource::Identity => "identity",
            VarSource::Template => "template",
            VarSource::Literal => "literal",
        }
    }
}

/// A place where a name is used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Use {
    /// The file's display path.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// The bytes of the use in its file (`$day`, `${day}`).
    pub span: std::ops::Range<usize>,
}
