//! Stage 4, check: one entry point that takes a loaded prompt through every stage and
//! collects every problem — parse, resolve and metadata — in one list.

use crate::diagnostic::Diagnostics;
use crate::identity::Identity;
use crate::identity::Slot;
use crate::meta::Meta;
use crate::parse;
use crate::parse::PromptFile;
use crate::render::{
    FLAG_WORDS, Fill, Measured, PromptContent, parse_flag, render_measured, render_messages,
};
use crate::resolve::{self, Part, Resolved, Schema, Templates, VarKind};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

mod declared;
mod frontmatter;
mod infer;
mod project;
mod typed;

pub use declared::declared_context;
pub use frontmatter::{FRONTMATTER_KEYS, frontmatter_warnings};

pub use infer::{infer_context, referenced_names, run_on_names, unused_context};
pub use typed::{check_typed, missing_field_hint};

/// A prompt that passed every check: ready to render.
#[derive(Clone, Debug)]
pub struct CheckedPrompt {
    /// The prompt's name (`segment_synthesis`, `agents/helper`).
    pub name: String,
    /// The loaded file.
    pub file: PromptFile,
    /// Its typed frontmatter.
    pub meta: Meta,
    /// The schema it was checked against.
    pub schema: Schema,
    /// What to render and what it uses.
    pub resolved: Resolved,
    /// What rendering needs besides: made once, when checked.
    ready: Ready,
}

/// What [`CheckedPrompt::render`] needs besides the parts, made once when the prompt is
/// checked so that a render allocates nothing but its text.
#[derive(Clone, Debug)]
struct Ready {
    /// The path and metadata, kept for the life of the process (see [`shared`]) so that
    /// every render borrows them.
    path: &'static str,
    meta: &'static Meta,
    /// The identity names the prompt reads, with their slots, and the base key of each.
    identity: Vec<(Slot, String, String)>,
    /// The measuring pass, prepared.
    measured: Measured,
    /// The context variables' names, sorted, each with its index.
    names: Vec<(String, usize)>,
}

impl Ready {
    fn new(file: &PromptFile, meta: &Meta, schema: &Schema, resolved: &Resolved) -> Ready {
        let mut names: Vec<(String, usize)> = schema
            .context
            .iter()
            .enumerate()
            .map(|(i, var)| (var.name.clone(), i))
            .collect();
        names.sort_by(|a, b| by_length(&a.0, &b.0));
        let (path, meta) = shared(file.source.path(), meta);
        let mut identity = Vec::new();
        collect_identity(&resolved.parts, &mut identity);
        identity.sort_by(|a, b| a.1.cmp(&b.1));
        identity.dedup_by(|a, b| a.1 == b.1);
        Ready {
            path,
            meta,
            identity,
            measured: Measured::new(&resolved.parts),
            names,
        }
    }
}

/// Names ordered by length, then bytes: most comparisons are settled by the length alone.
fn by_length(a: &str, b: &str) -> std::cmp::Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.as_bytes().cmp(b.as_bytes()))
}

fn collect_identity(parts: &[Part], out: &mut Vec<(Slot, String, String)>) {
    for part in parts {
        match part {
            Part::Identity { key, lookup, slot } => out.push((*slot, lookup.clone(), key.clone())),
            Part::If {
                then, otherwise, ..
            } => {
                collect_identity(then, out);
                collect_identity(otherwise, out);
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

/// A `'static` copy of a checked prompt's path and metadata. Each distinct pair is made
/// once per process and kept (prompts checked again with the same file and frontmatter
/// share it), so that renders hand out borrowed `Cow`s instead of copies.
fn shared(path: &str, meta: &Meta) -> (&'static str, &'static Meta) {
    type Kept = HashMap<String, Vec<(&'static str, &'static Meta)>>;
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    let mut kept = KEPT
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let same = kept.entry(path.to_owned()).or_default();
    if let Some(&found) = same.iter().find(|(_, m)| *m == meta) {
        return found;
    }
    let made: (&'static str, &'static Meta) = (
        Box::leak(path.to_owned().into_boxed_str()),
        Box::leak(Box::new(meta.clone())),
    );
    same.push(made);
    made
}

/// Checks a loaded prompt against a schema and the project's templates.
///
/// ```
/// use promptic::check::check;
/// use promptic::load::PromptFile;
/// use promptic::resolve::{ContextVar, Schema, Templates, VarKind};
/// use promptic::Identity;
/// use std::collections::HashMap;
///
/// let file = PromptFile::from_text("prompts/hello.md", "{\n\"title\": \"Hello\"\n}\nHi $Preferred, today is $day.").unwrap();
/// let schema = Schema {
///     context: vec![ContextVar::new("day", VarKind::Text)],
///     identity: vec!["preferred".into()],
///     ..Schema::default()
/// };
/// let prompt = check("hello", file, schema, &Templates::new()).unwrap();
/// let identity = Identity::from_json(r#"{"preferred": "sam"}"#).unwrap();
/// let context = HashMap::from([("day".to_owned(), "Friday".to_owned())]);
/// let out = prompt.render(&context, &identity).unwrap();
/// assert_eq!(out.text, "Hi Sam, today is Friday.");
/// assert_eq!(out.metadata.title.as_deref(), Some("Hello"));
/// ```
pub fn check(
    name: &str,
    file: PromptFile,
    schema: Schema,
    templates: &Templates,
) -> Result<CheckedPrompt, Diagnostics> {
    let mut diagnostics = Diagnostics::default();
    let (nodes, parse_problems) =
        parse::parse(&file.source, file.body.clone(), file.parse_options());
    diagnostics.extend(parse_problems);
    let resolved = resolve::resolve(&file.source, &nodes, &schema, templates);
    let resolved = match resolved {
        Ok(r) => Some(r),
        Err(problems) => {
            diagnostics.extend(problems);
            None
        }
    };
    let meta = match Meta::from_frontmatter(file.frontmatter.as_ref(), &file.source) {
        Ok(m) => Some(m),
        Err(problems) => {
            diagnostics.extend(problems);
            None
        }
    };
    if let Some(resolved) = &resolved {
        match declared::is_static(&file) {
            Ok(true) => diagnostics.extend(declared::static_violations(
                &file, &schema, resolved, templates,
            )),
            Ok(false) => {}
            Err(problem) => diagnostics.push(problem),
        }
        diagnostics.extend(declared::breakpoint_violations(
            &file, &nodes, &schema, resolved, templates,
        ));
    }
    match (resolved, meta) {
        (Some(resolved), Some(meta)) if diagnostics.is_empty() => Ok(CheckedPrompt {
            ready: Ready::new(&file, &meta, &schema, &resolved),
            name: name.to_owned(),
            file,
            meta,
            schema,
            resolved,
        }),
        _ => Err(diagnostics),
    }
}

/// A hex digest of what a checked prompt renders from: its file (frontmatter included)
/// and every template it uses, at any depth. The same on every OS and build (the text is
/// normalised when loaded), and different when the prompt or any template it uses changes:
/// for tracing, evaluations and cache keys. Compiled prompts have it as `Prompt::VERSION`.
///
/// ```
/// use promptic::check::{check, version};
/// use promptic::load::PromptFile;
/// use promptic::resolve::{Schema, Templates};
///
/// let mut templates = Templates::new();
/// templates.insert("sig", PromptFile::from_text("t/sig.md", "-- A").unwrap());
/// let prompt = |text: &str, templates: &Templates| {
///     check("p", PromptFile::from_text("p.md", text).unwrap(), Schema::default(), templates).unwrap()
/// };
/// let a = version(&prompt("Hi\n$sig", &templates), &templates);
/// assert_eq!(a.len(), 16);
/// assert_eq!(a, version(&prompt("Hi\r\n$sig", &templates), &templates));
/// let mut edited = Templates::new();
/// edited.insert("sig", PromptFile::from_text("t/sig.md", "-- B").unwrap());
/// assert_ne!(a, version(&prompt("Hi\n$sig", &edited), &edited));
/// ```
pub fn version(prompt: &CheckedPrompt, templates: &Templates) -> String {
    // Small, stable across platforms and releases, and enough to tell versions of one
    // prompt apart.
    let mut hash = crate::digest::Fnv::new();
    hash.feed(b"promptic version 1\0");
    hash.feed(prompt.file.source.text().as_bytes());
    let mut used: Vec<&str> = prompt
        .resolved
        .variables
        .iter()
        .filter(|v| v.source == crate::resolve::VarSource::Template)
        .map(|v| v.name.as_str())
        .collect();
    used.sort_unstable();
    used.dedup();
    for name in used {
        if let Some(template) = templates.get(name) {
            hash.feed(b"\0")
                .feed(name.as_bytes())
                .feed(b"\0")
                .feed(template.file.source.text().as_bytes());
        }
    }
    hash.hex()
}

/// Values that a render at run time lacked or could not use; every one is listed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderError {
    /// Context variables that need a value and have none.
    pub missing_context: Vec<String>,
    /// Identity keys the prompt uses that the identity lacks.
    pub missing_identity: Vec<String>,
    /// Values given that do not fit their variable (a flag that is not a word
    /// [`parse_flag`] reads, a choice that is not one of its values).
    pub invalid: Vec<String>,
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = Vec::new();
        let list = |names: &[String]| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.missing_context.is_empty() {
            lines.push(format!(
                "missing context values: {}",
                list(&self.missing_context)
            ));
        }
        if !self.missing_identity.is_empty() {
            lines.push(format!(
                "missing identity keys: {}",
                list(&self.missing_identity)
            ));
        }
        lines.extend(self.invalid.iter().cloned());
        f.write_str(&lines.join("\n"))
    }
}

impl std::error::Error for RenderError {}

impl CheckedPrompt {
    /// The reasons of the registered guidance either-ors (`{% else "why" %}` on a
    /// `guidance == "detailed"` fence), templates included, in the order they render.
    ///
    /// ```
    /// use promptic::check::check;
    /// use promptic::load::PromptFile;
    /// use promptic::resolve::{ContextVar, Schema, Templates, VarKind};
    ///
    /// let text = "{% if guidance == \"detailed\" %}\nShow steps.\n{% else \"small models copy examples\" %}\nAnswer only.\n{% endif %}";
    /// let schema = Schema {
    ///     context: vec![ContextVar::new("guidance", VarKind::Choice(vec!["lean".into(), "detailed".into()]))],
    ///     ..Schema::default()
    /// };
    /// let prompt = check("p", PromptFile::from_text("p.md", text).unwrap(), schema, &Templates::new()).unwrap();
    /// assert_eq!(prompt.either_ors(), ["small models copy examples"]);
    /// let muted = prompt.without_either_ors();
    /// let lean = std::collections::HashMap::from([("guidance".to_owned(), "lean".to_owned())]);
    /// assert_eq!(prompt.render(&lean, &Default::default()).unwrap().text, "Answer only.");
    /// assert_eq!(muted.render(&lean, &Default::default()).unwrap().text, "Show steps.");
    /// ```
    pub fn either_ors(&self) -> Vec<&str> {
        let mut reasons = Vec::new();
        // An explicit stack, as blocks and templates nest up to `resolve::MAX_DEPTH`.
        let mut bodies: Vec<std::slice::Iter<'_, Part>> = vec![self.resolved.parts.iter()];
        while let Some(body) = bodies.last_mut() {
            let Some(part) = body.next() else {
                bodies.pop();
                continue;
            };
            if let Part::If {
                then,
                otherwise,
                either_or,
                ..
            } = part
            {
                if let Some(reason) = either_or {
                    reasons.push(reason.as_str());
                }
                bodies.push(otherwise.iter());
                bodies.push(then.iter());
            }
        }
        reasons
    }

    /// The prompt without its inversions: each registered either-or renders its detailed
    /// branch at every level, in place of its `{% else "why" %}` branch. A line it renders
    /// at lean that detailed lacks is one no either-or registers; `promptic diff
    /// --guidance` tells a registered inversion from a mistake with it. See
    /// [`CheckedPrompt::either_ors`].
    pub fn without_either_ors(&self) -> CheckedPrompt {
        // The detailed branch, not nothing: both branches start in the same line state, so
        // the parts of one render exactly as well in the other's place, separators included.
        fn mute(parts: &mut [Part]) {
            for part in parts {
                if let Part::If {
                    then,
                    otherwise,
                    either_or,
                    ..
                } = part
                {
                    mute(then);
                    mute(otherwise);
                    if either_or.is_some() {
                        *otherwise = then.clone();
                    }
                }
            }
        }
        let mut resolved = self.resolved.clone();
        mute(&mut resolved.parts);
        CheckedPrompt {
            ready: Ready::new(&self.file, &self.meta, &self.schema, &resolved),
            name: self.name.clone(),
            file: self.file.clone(),
            meta: self.meta.clone(),
            schema: self.schema.clone(),
            resolved,
        }
    }

    /// Renders with context values by name. Optional variables and flags may be absent (a
    /// missing flag is `false`); a flag's value is a word [`parse_flag`] reads (`true`,
    /// `no`, `0`, ...), and an optional given as a false word or as empty text counts as
    /// absent. Every missing or unusable value is reported.
    pub fn render(
        &self,
        context: &HashMap<String, String>,
        identity: &Identity,
    ) -> Result<PromptContent, RenderError> {
        // Values live on the stack for the usual handful of variables: a render allocates
        // its text and nothing else.
        const ON_STACK: usize = 32;
        let count = self.schema.context.len();
        let mut inline = [Fill::Absent; ON_STACK];
        let mut heap = Vec::new();
        let values: &mut [Fill] = if count <= ON_STACK {
            &mut inline[..count]
        } else {
            heap.resize(count, Fill::Absent);
            &mut heap
        };
        self.prepare(context, identity, values)?;
        let values = &*values;
        let (text, breakpoints) = if self.resolved.is_chat() {
            // A chat prompt as one text: its messages in the log form of `Chat`.
            let messages = render_messages(&self.resolved, &|i| values[i], &|_| &[], identity);
            let log = crate::chat::Chat {
                messages,
                path: Cow::Borrowed(""),
                metadata: Cow::Owned(Meta::DEFAULT),
                breakpoints: Vec::new(),
            }
            .to_string();
            // At its exact size, as every rendered text is.
            (String::from(log.into_boxed_str()), Vec::new())
        } else {
            let marked = render_measured(
                &self.resolved,
                &self.ready.measured,
                &|i| values[i],
                identity,
            );
            (marked.text, marked.breakpoints)
        };
        let (path, metadata) =
            if self.ready.path == self.file.source.path() && *self.ready.meta == self.meta {
                (
                    Cow::Borrowed(self.ready.path),
                    Cow::Borrowed(self.ready.meta),
                )
            } else {
                // The fields were changed after the check: render what they say now.
                (
                    Cow::Owned(self.file.source.path().to_owned()),
                    Cow::Owned(self.meta.clone()),
                )
            };
        Ok(PromptContent {
            text,
            path,
            metadata,
            breakpoints,
        })
    }

    /// Renders a chat prompt as messages (see [`crate::render::render_messages`]), with
    /// `history` as the messages of every `{% history %}` section. The values are read as
    /// [`CheckedPrompt::render`] reads them, and every missing or unusable one is reported.
    /// A prompt without sections gives one system message.
    pub fn messages(
        &self,
        context: &HashMap<String, String>,
        history: &[crate::chat::Message],
        identity: &Identity,
    ) -> Result<crate::chat::Chat, RenderError> {
        self.messages_of(context, &|_| history, identity)
    }

    /// [`messages`](Self::messages), with the messages of each `{% history NAME %}`
    /// section by its name.
    pub(crate) fn messages_of<'h>(
        &self,
        context: &HashMap<String, String>,
        history: &dyn Fn(&str) -> &'h [crate::chat::Message],
        identity: &Identity,
    ) -> Result<crate::chat::Chat, RenderError> {
        let mut values = vec![Fill::Absent; self.schema.context.len()];
        self.prepare(context, identity, &mut values)?;
        let of_slot = |i: usize| match self.schema.context.get(i) {
            Some(var) => history(&var.name),
            None => &[],
        };
        let (messages, breakpoints) =
            crate::render::render_chat(&self.resolved, &|i| values[i], &of_slot, identity);
        Ok(crate::chat::Chat {
            messages,
            path: Cow::Owned(self.file.source.path().to_owned()),
            metadata: Cow::Owned(self.meta.clone()),
            breakpoints,
        })
    }

    /// Reads the given values into `values` (one per context variable, all
    /// [`Fill::Absent`] on entry) and checks them and the identity.
    fn prepare<'c>(
        &self,
        context: &'c HashMap<String, String>,
        identity: &Identity,
        values: &mut [Fill<'c>],
    ) -> Result<(), RenderError> {
        let count = values.len();
        // The given values, found without hashing when the map holds about as many values
        // as the prompt reads: its entries are walked and their names found by binary
        // search. `Fill::Text` marks a value given, for the loop below.
        if context.len() <= 2 * count && self.ready.names.len() == count {
            let names = &self.ready.names;
            for (name, value) in context {
                // Sorted by length first: the names of this length, then one equality test
                // each (usually one name).
                let from = names.partition_point(|(known, _)| known.len() < name.len());
                let found = names[from..]
                    .iter()
                    .take_while(|(known, _)| known.len() == name.len())
                    .find(|(known, _)| known == name);
                if let Some(slot) = found.and_then(|&(_, i)| values.get_mut(i)) {
                    *slot = Fill::Text(value);
                }
            }
        } else {
            for (slot, var) in values.iter_mut().zip(&self.schema.context) {
                if let Some(value) = context.get(&var.name) {
                    *slot = Fill::Text(value);
                }
            }
        }
        let mut error = RenderError::default();
        for (slot, var) in values.iter_mut().zip(&self.schema.context) {
            let given = match *slot {
                Fill::Text(text) => Some(text),
                _ => None,
            };
            *slot = match (&var.kind, given) {
                // A render that forgot the level gets more scaffolding, never less.
                (VarKind::Choice(_), None) if var.name == crate::guidance::GUIDANCE => {
                    Fill::Text(crate::guidance::Guidance::Detailed.as_str())
                }
                (VarKind::Text | VarKind::Choice(_), None) => {
                    error.missing_context.push(var.name.clone());
                    Fill::Absent
                }
                (VarKind::Optional, None) => Fill::Absent,
                // Messages come with the history, not the text values.
                (VarKind::Messages, _) => Fill::Absent,
                // Read as the program reads them: a missing flag is `false`, and an optional
                // given as a false word (or nothing) is off, as a `bool` field set to `false`
                // renders (a string map cannot tell an `Option` from a `bool`).
                (VarKind::Flag, None) => Fill::Flag(false),
                (VarKind::Optional, Some(v)) if v.is_empty() || parse_flag(v) == Some(false) => {
                    Fill::Absent
                }
                (VarKind::Flag, Some(v)) => match parse_flag(v) {
                    Some(on) => Fill::Flag(on),
                    None => {
                        error.invalid.push(format!(
                            "`{}` is a flag: give {FLAG_WORDS}, not {v:?}",
                            var.name
                        ));
                        Fill::Absent
                    }
                },
                (VarKind::Choice(choices), Some(v)) if !choices.iter().any(|c| c == v) => {
                    error.invalid.push(format!(
                        "`{}` must be one of {}, not {v:?}",
                        var.name,
                        choices
                            .iter()
                            .map(|c| format!("{c:?}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    Fill::Absent
                }
                (_, Some(v)) => Fill::Text(v),
            };
        }
        for (slot, lookup, key) in &self.ready.identity {
            if identity.at(*slot, lookup).is_none() && !error.missing_identity.contains(key) {
                error.missing_identity.push(key.clone());
            }
        }
        if !(error.missing_context.is_empty()
            && error.missing_identity.is_empty()
            && error.invalid.is_empty())
        {
            error.missing_identity.sort();
            return Err(error);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::ContextVar;

    fn prompt(text: &str, context: Vec<ContextVar>) -> CheckedPrompt {
        let file = PromptFile::from_text("prompts/t.md", text).unwrap();
        let schema = Schema {
            context,
            identity: vec!["preferred".into(), "timezone".into()],
            ..Schema::default()
        };
        check("t", file, schema, &Templates::new()).unwrap()
    }

    fn values(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn values_are_inserted_verbatim_and_the_text_is_allocated_once() {
        let p = prompt("A $day B $Day", vec![ContextVar::new("day", VarKind::Text)]);
        let identity = Identity::default();
        let out = p
            .render(&values(&[("day", "$day and ${x} and $$")]), &identity)
            .unwrap();
        assert_eq!(out.text, "A $day and ${x} and $$ B $day and ${x} and $$");
        assert_eq!(out.text.capacity(), out.text.len());
        assert_eq!(out.path, "prompts/t.md");
    }

    #[test]
    fn a_map_with_many_other_values_renders_the_same() {
        // Few entries: walked and found by name; many: each variable looked up.
        let p = prompt(
            "$day, $mood_of_the_day, $a\n{% if note %}\n$note\n{% endif %}",
            vec![
                ContextVar::new("day", VarKind::Text),
                ContextVar::new("mood_of_the_day", VarKind::Text),
                ContextVar::new("a", VarKind::Text),
                ContextVar::new("note", VarKind::Optional),
            ],
        );
        let few = values(&[
            ("day", "Mon"),
            ("mood_of_the_day", "calm"),
            ("a", "x"),
            ("zz", "?"),
        ]);
        let mut many = few.clone();
        many.extend((0..50).map(|i| (format!("other{i}"), "?".to_owned())));
        many.insert("note".into(), "n".into());
        let identity = Identity::default();
        assert_eq!(p.render(&few, &identity).unwrap().text, "Mon, calm, x");
        assert_eq!(p.render(&many, &identity).unwrap().text, "Mon, calm, x\nn");
        let mut missing = few.clone();
        missing.remove("a");
        assert_eq!(
            p.render(&missing, &identity).unwrap_err().missing_context,
            ["a"]
        );
    }

    #[test]
    fn every_missing_or_unusable_value_is_reported() {
        let p = prompt(
            "$day $preferred $timezone\n{% if verbose %}\nv\n{% endif %}\n{% if level == \"lean\" %}\nl\n{% endif %}",
            vec![
                ContextVar::new("day", VarKind::Text),
                ContextVar::new("verbose", VarKind::Flag),
                ContextVar::new(
                    "level",
                    VarKind::Choice(vec!["lean".into(), "detailed".into()]),
                ),
            ],
        );
        let err = p
            .render(
                &values(&[("verbose", "maybe"), ("level", "loud")]),
                &Identity::default(),
            )
            .unwrap_err();
        assert_eq!(err.missing_context, ["day"]);
        assert_eq!(err.missing_identity, ["preferred", "timezone"]);
        assert_eq!(err.invalid.len(), 2);
        assert_eq!(
            err.to_string(),
            "missing context values: `day`\nmissing identity keys: `preferred`, `timezone`\n\
             `verbose` is a flag: give `true`/`false`, `yes`/`no`, `on`/`off` or `1`/`0` (in any case), not \"maybe\"\n\
             `level` must be one of \"lean\", \"detailed\", not \"loud\""
        );
        let identity = Identity::from_pairs([("preferred", "sam"), ("timezone", "UTC")]);
        let out = p
            .render(
                &values(&[("day", "Mon"), ("verbose", "false"), ("level", "lean")]),
                &identity,
            )
            .unwrap();
        assert_eq!(out.text, "Mon sam UTC\nl");
    }

    /// Renders `text` (with a template `tail` and `head`) for every combination of the
    /// flags `x` and `y`, in the order (x, y) = (t, t), (t, f), (f, t), (f, f).
    fn lines(text: &str) -> [String; 4] {
        let mut templates = Templates::new();
        let tail = "A\n{% if x %}\nX in tail\n{% endif %}";
        templates.insert("tail", PromptFile::from_text("t/tail.md", tail).unwrap());
        let head = "{% if y %}\nY in head\n{% endif %}\nB";
        templates.insert("head", PromptFile::from_text("t/head.md", head).unwrap());
        let file = PromptFile::from_text("p.md", text).unwrap();
        let schema = Schema {
            context: vec![
                ContextVar::new("x", VarKind::Flag),
                ContextVar::new("y", VarKind::Flag),
            ],
            ..Schema::default()
        };
        let prompt = check("p", file, schema, &templates).unwrap();
        [
            ("true", "true"),
            ("true", "false"),
            ("false", "true"),
            ("false", "false"),
        ]
        .map(|(x, y)| {
            let out = prompt
                .render(&values(&[("x", x), ("y", y)]), &Identity::default())
                .unwrap();
            assert_eq!(out.text.capacity(), out.text.len());
            out.text
        })
    }

    #[test]
    fn false_blocks_leave_no_blank_line_wherever_they_stand() {
        // at the end
        assert_eq!(
            lines("A\n{% if x %}\nX\n{% endif %}"),
            ["A\nX", "A\nX", "A", "A"]
        );
        // at the start
        assert_eq!(
            lines("{% if x %}\nX\n{% endif %}\nB"),
            ["X\nB", "X\nB", "B", "B"]
        );
        // in the middle, and blank lines of the text kept
        assert_eq!(
            lines("A\n\n{% if x %}\nX\n{% endif %}\nB"),
            ["A\n\nX\nB", "A\n\nX\nB", "A\n\nB", "A\n\nB"]
        );
        // the whole body, with an else
        assert_eq!(
            lines("{% if x %}\nX\n{% else %}\nnot X\n{% endif %}"),
            ["X", "X", "not X", "not X"]
        );
        // two blocks in a row at the end, and nested blocks
        assert_eq!(
            lines("A\n{% if y %}\nY\n{% endif %}\n{% if x %}\nX\n{% endif %}"),
            ["A\nY\nX", "A\nX", "A\nY", "A"]
        );
        assert_eq!(
            lines(
                "{% if x %}\n{% if y %}\nXY\n{% endif %}\nX\n{% endif %}\n{% if y %}\nY\n{% endif %}"
            ),
            ["XY\nX\nY", "X", "Y", ""]
        );
        // templates that end or start with a block, inlined mid-text
        assert_eq!(
            lines("$tail\n\nNext"),
            [
                "A\nX in tail\n\nNext",
                "A\nX in tail\n\nNext",
                "A\n\nNext",
                "A\n\nNext"
            ]
        );
        assert_eq!(
            lines("Start: $head."),
            [
                "Start: Y in head\nB.",
                "Start: B.",
                "Start: Y in head\nB.",
                "Start: B."
            ]
        );
    }

    #[test]
    fn flags_read_every_flag_word_and_optionals_are_off_for_a_false_word() {
        let p = prompt(
            "{% if verbose %}\nV\n{% endif %}\n{% if note %}\nN: $note\n{% endif %}\nend",
            vec![
                ContextVar::new("verbose", VarKind::Flag),
                ContextVar::new("note", VarKind::Optional),
            ],
        );
        let render = |verbose: &str, note: &str| {
            p.render(
                &values(&[("verbose", verbose), ("note", note)]),
                &Identity::default(),
            )
            .map(|out| out.text)
        };
        for on in ["true", "TRUE", "True", "yes", "Yes", "on", "ON", "1"] {
            assert_eq!(render(on, "x").as_deref(), Ok("V\nN: x\nend"), "{on}");
        }
        for off in ["false", "False", "FALSE", "no", "NO", "off", "Off", "0"] {
            assert_eq!(render(off, "x").as_deref(), Ok("N: x\nend"), "{off}");
            // an optional given a false word is absent, as `false` is
            assert_eq!(render("1", off).as_deref(), Ok("V\nend"), "{off}");
        }
        // an optional given nothing is absent too; any other text is its value
        assert_eq!(render("0", "").as_deref(), Ok("end"));
        assert_eq!(render("0", "yes").as_deref(), Ok("N: yes\nend"));
        for bad in ["", "maybe", "2", "t", " true", "nope"] {
            let err = render(bad, "x").unwrap_err();
            assert_eq!(
                err.invalid,
                [format!(
                    "`verbose` is a flag: give {FLAG_WORDS}, not {bad:?}"
                )],
                "{bad}"
            );
        }
    }

    #[test]
    fn a_tested_name_also_written_outside_its_blocks_is_a_flag() {
        let file = PromptFile::from_text(
            "p.md",
            "Verbose: $verbose\n{% if verbose %}\nMore.\n{% endif %}\n{% if note %}\n$Note\n{% endif %}",
        )
        .unwrap();
        let vars = infer_context(&file, &[], &[], &Templates::new());
        let kinds: Vec<(&str, &VarKind)> =
            vars.iter().map(|v| (v.name.as_str(), &v.kind)).collect();
        assert_eq!(
            kinds,
            [("verbose", &VarKind::Flag), ("note", &VarKind::Optional)]
        );
        let prompt = check(
            "p",
            file,
            Schema {
                context: vars,
                ..Schema::default()
            },
            &Templates::new(),
        )
        .unwrap();
        let out = prompt
            .render(
                &values(&[("verbose", "false"), ("note", "n")]),
                &Identity::default(),
            )
            .unwrap();
        assert_eq!(out.text, "Verbose: false\nN");
    }

    #[test]
    fn problems_of_every_stage_are_collected() {
        let file =
            PromptFile::from_text("p.md", "{\n\"tier\": \"high\"\n}\n$dya\n{% endif %}").unwrap();
        let schema = Schema {
            context: vec![ContextVar::new("day", VarKind::Text)],
            ..Schema::default()
        };
        let err = check("p", file, schema, &Templates::new()).unwrap_err();
        let messages: Vec<&str> = err.0.iter().map(|d| d.message()).collect();
        assert_eq!(messages.len(), 3, "{err}");
        assert!(messages.iter().any(|m| m.contains("`{% endif %}` without")));
        assert!(
            messages
                .iter()
                .any(|m| m.contains("unknown placeholder `$dya`"))
        );
        assert!(
            messages
                .iter()
                .any(|m| m.contains("`tier` must be an integer"))
        );
    }

    #[test]
    fn inferred_context() {
        let mut templates = Templates::new();
        templates.insert(
            "pre",
            PromptFile::from_text("t/pre.md", "$segment_start $preferred").unwrap(),
        );
        let file = PromptFile::from_text(
            "p.md",
            "$pre $day $Day $HOME\n{% if note %}\n$note\n{% endif %}",
        )
        .unwrap();
        let vars = infer_context(&file, &["preferred".into()], &["HOME".into()], &templates);
        let names: Vec<(&str, &VarKind)> =
            vars.iter().map(|v| (v.name.as_str(), &v.kind)).collect();
        assert_eq!(
            names,
            [
                ("segment_start", &VarKind::Text),
                ("day", &VarKind::Text),
                ("note", &VarKind::Optional)
            ]
        );
    }
}
