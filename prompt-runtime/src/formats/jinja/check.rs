//! Run-time values checked against what a template reads, before it renders: every path
//! the templates read into a value ([`Templates::paths`]) is followed through the JSON
//! given, and each one that is not there (`user.nmae` of `{"name": …}`), reads a key of a
//! string or a number, calls `items()` of a list, loops over a number, or reads a key an
//! item of a list lacks, is reported at its use, all of them at once.
//!
//! Only what rendering would fail on or silently skip is asked for: a path under
//! `| default(…)` or `is defined`, tested bare (`{% if user.nick %}`), or inside a block
//! that is off for these values, need not be there, as in Jinja2. A block whose condition
//! reads loop variables or `set` names is taken as possibly off (the values alone do not
//! say), so what it reads is left to rendering, which reports it at its use too. A name
//! that is not given at all is the name check's ([`Templates::uses`]), not this one's.

use super::data::{Map, Value};
use super::paths::{CondKind, Gate, PathStep, PathUse};
use super::render::{DICT_METHODS, has_items, holds};
use super::set::RenderValues;
use super::set::Templates;
use super::value::{a_type, write_repr};
use crate::SourceFile;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::value::path::Step;
use std::ops::Range;
use std::sync::{Arc, Mutex};

/// The paths template `entry` must find in its values, with the conditions of the blocks
/// they are in: walked once per entry, then followed on every render.
#[derive(Debug, Default)]
pub(super) struct Plan {
    pub(super) paths: Vec<PathUse>,
    /// The paths rendering could pass over without failing (`{% set x = a.b %}`,
    /// `a.b is none`, `default(a.b)`'s fallback): checked before every render. The others
    /// make rendering fail where they are reached and not there, so they are checked when
    /// a render fails, which reports them all then, as if checked first.
    quiet: Vec<usize>,
    pub(super) conds: Vec<super::paths::Cond>,
}

impl Plan {
    fn of(set: &Templates, entry: &str) -> Plan {
        match set.gated_paths(entry) {
            Ok((paths, conds)) => {
                // A guarded use tolerates any value; an indexed one (`xs[0].y`) reads one
                // item where a loop reads all, which `PathStep` does not tell apart; a
                // name alone is the name check's.
                let paths: Vec<PathUse> = paths
                    .into_iter()
                    .filter(|p| !p.guarded && !p.indexed && !p.steps.is_empty())
                    .collect();
                let quiet = (0..paths.len()).filter(|&i| !paths[i].loud).collect();
                Plan {
                    paths,
                    quiet,
                    conds,
                }
            }
            // Templates too large to walk: rendering still reports what it cannot read.
            Err(_) => Plan::default(),
        }
    }

    /// Whether a path rendering could pass over does not fit `values`.
    fn quiet_mismatch(&self, set: &Templates, values: &Map) -> bool {
        self.quiet.iter().any(|&i| {
            let path = &self.paths[i];
            values
                .get(&path.name)
                .and_then(|root| follow(root, &path.steps, 0))
                .is_some_and(|m| m.at >= path.skip && self.reached(set, &path.gates, values))
        })
    }

    /// Every mismatch between `values` and the paths, located at its use.
    fn check(&self, set: &Templates, values: &Map) -> Diagnostics {
        let mut problems = Diagnostics::default();
        for path in &self.paths {
            let Some(root) = values.get(&path.name) else {
                continue;
            };
            let Some(mismatch) = follow(root, &path.steps, 0) else {
                continue;
            };
            // A step of the loop's own (`stops[…]` under `s.city`) is reported once, at
            // the loop's iterable.
            if mismatch.at < path.skip {
                continue;
            }
            if self.reached(set, &path.gates, values) {
                let source = set.get(&path.file).map(super::Template::source);
                problems.push(describe(source, &Described::of(path), mismatch));
            }
        }
        problems
    }

    /// Whether every block around a use is on (or off, where the use is in its `else`)
    /// for these values. A condition the values alone cannot decide, or one that fails
    /// to evaluate, counts as not reached: rendering decides it.
    fn reached(&self, set: &Templates, gates: &[Gate], values: &Map) -> bool {
        gates.iter().all(|gate| {
            let Some(cond) = self.conds.get(gate.cond) else {
                return false;
            };
            let Some(template) = set.get(&cond.file) else {
                return false;
            };
            let outcome = match &cond.kind {
                CondKind::Unknown => None,
                CondKind::Test(expr) => holds(set, template, expr, values),
                CondKind::NonEmpty(expr) => has_items(set, template, expr, values),
            };
            outcome == Some(gate.holds)
        })
    }
}

/// The plans made so far, by entry, shared by the threads rendering the same templates.
#[derive(Debug, Default)]
pub(super) struct Plans(Mutex<Vec<(String, Arc<Plan>)>>);

impl Clone for Plans {
    fn clone(&self) -> Self {
        Plans::default()
    }
}

impl Templates {
    /// The plan of `entry`, made on first use.
    pub(super) fn plan(&self, entry: &str) -> Arc<Plan> {
        let Ok(mut plans) = self.plans.0.lock() else {
            // Another thread panicked while holding it: make a plan without caching it.
            return Arc::new(Plan::of(self, entry));
        };
        if let Some((_, plan)) = plans.iter().find(|(name, _)| name == entry) {
            return Arc::clone(plan);
        }
        let plan = Arc::new(Plan::of(self, entry));
        plans.push((entry.to_owned(), Arc::clone(&plan)));
        plan
    }

    /// Checks run-time `values` (a JSON object of the context's names) against every path
    /// template `name` and those it includes read into them: a key a value does not have
    /// (with the closest one it has), a key read from text, a number or a list, `items()`
    /// of anything but a dict, a loop over what cannot be looped over, a key an item of a
    /// list lacks. Each is reported at its use, with what the value is. Paths under
    /// `default`, `is defined` or a bare test, or in a block that is off for these values,
    /// are not required. [`render`](Self::render) runs this check first.
    ///
    /// ```
    /// use promptic::formats::jinja::{Options, Templates};
    /// use promptic::SourceFile;
    ///
    /// let text = "Hi {{ user.nmae }}.{% if user.nick %} ({{ user.nick }}){% endif %}";
    /// let templates = Templates::load("t.j2", Options::default(), &mut |_: &str| {
    ///     Ok(SourceFile::new("prompts/t.j2", text))
    /// })
    /// .unwrap();
    /// let values = serde_json::json!({ "user": { "name": "Ada" } });
    /// let problems = templates.check_values("t.j2", &values);
    /// assert_eq!(problems.0.len(), 1); // `user.nick` is tested: it may be absent
    /// assert_eq!(problems.0[0].message(), "no key `nmae` in `user`");
    /// assert_eq!(problems.0[0].help(), Some("did you mean `name`?"));
    /// assert!(templates.render("t.j2", &values).is_err());
    /// ```
    pub fn check_values(&self, name: &str, values: &impl RenderValues) -> Diagnostics {
        match &*values.to_values() {
            Value::Object(map) => self.check_map(name, map),
            _ => Diagnostics::default(),
        }
    }

    fn check_map(&self, name: &str, values: &Map) -> Diagnostics {
        let plan = self.plan(name);
        if plan.paths.is_empty() {
            return Diagnostics::default();
        }
        plan.check(self, values)
    }

    /// Renders `template` (named `name`) over `values` once they are checked: the result
    /// is every mismatch (as one diagnostic, the first with a note for each other), or
    /// the render, as if the values were checked first; only what rendering could pass
    /// over is checked before it, the rest when it fails.
    pub(super) fn render_checked(
        &self,
        name: &str,
        template: &super::Template,
        values: &Map,
    ) -> Result<(String, Vec<usize>), Diagnostic> {
        let plan = self.plan(name);
        if plan.quiet_mismatch(self, values)
            && let Some(problem) = into_one(plan.check(self, values))
        {
            return Err(problem);
        }
        super::render::render_marked(self, template, values, super::render::MAX_STEPS)
            .map_err(|failed| into_one(plan.check(self, values)).unwrap_or(failed))
    }
}

/// A step as [`follow`] reads it.
trait AsStep {
    fn step(&self) -> Step<'_>;
}

impl AsStep for PathStep {
    #[inline]
    fn step(&self) -> Step<'_> {
        match self {
            PathStep::Field(key) => Step::Field(key),
            PathStep::Element => Step::Element,
            PathStep::Index(i) => Step::Index(*i),
            PathStep::Value => Step::Value,
        }
    }
}

impl AsStep for Step<'_> {
    #[inline]
    fn step(&self) -> Step<'_> {
        *self
    }
}

/// A path of a template's plan (see [`Plan`]) as a derived prompt reads it back from the
/// JSON text the derive wrote: the derived render checks its values against these where
/// its compiled render stops, as [`Templates::render`] does, without the templates.
#[doc(hidden)]
pub struct PlanPath<'a> {
    pub name: &'a str,
    pub shown: &'a str,
    pub steps: &'a [Step<'a>],
    pub skip: usize,
    /// The template the use is in, by its name in the set.
    pub file: &'a str,
    pub span: (usize, usize),
    pub by_filter: Option<&'a str>,
    /// The blocks around the use: the index of each one's condition (see
    /// [`check_plan`]) and the outcome the use needs.
    pub gates: &'a [(usize, bool)],
}

/// What [`check_plan`] found.
#[doc(hidden)]
pub enum Checked {
    /// Values that do not fit the plan: the error the run-time renderer gives too.
    Problem(Box<Diagnostic>),
    /// Nothing: the render's own error stands.
    Clean,
    /// A block's condition the derived code could not decide: the run-time renderer
    /// decides.
    Undecided,
}

/// [`Plan::check`] over a derived prompt's `paths`: every mismatch between `values` and
/// them, as one error, where the blocks around the use are reached. `cond(i)` decides the
/// condition numbered `i`: `Some(None)` when it fails (a condition that fails reaches
/// nothing, as [`Plan::reached`] has it), `None` when the derived code cannot decide it.
/// `source` gives a template's file by its name.
#[doc(hidden)]
pub fn check_plan(
    paths: &[PlanPath<'_>],
    source: &dyn Fn(&str) -> Option<SourceFile>,
    values: &Map,
    cond: &mut dyn FnMut(usize) -> Option<Option<bool>>,
) -> Checked {
    let mut problems = Diagnostics::default();
    for path in paths {
        let Some(root) = values.get(path.name) else {
            continue;
        };
        let Some(mismatch) = follow(root, path.steps, 0) else {
            continue;
        };
        if mismatch.at < path.skip {
            continue;
        }
        // As `Plan::reached`: the first block that is off for the values ends it.
        let mut reached = true;
        for &(i, holds) in path.gates {
            match cond(i) {
                Some(Some(outcome)) if outcome == holds => {}
                Some(_) => {
                    reached = false;
                    break;
                }
                None => return Checked::Undecided,
            }
        }
        if reached {
            let described = Described {
                name: path.name,
                shown: path.shown,
                steps: path.steps,
                span: path.span.0..path.span.1,
                by_filter: path.by_filter,
            };
            problems.push(describe(source(path.file).as_ref(), &described, mismatch));
        }
    }
    match into_one(problems) {
        Some(problem) => Checked::Problem(Box::new(problem)),
        None => Checked::Clean,
    }
}

/// What a step of a path met instead of what it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Problem {
    /// A dict without the key.
    NoKey,
    /// A key read from something that is not a dict.
    NotDict,
    /// A loop over something that cannot be looped over.
    NotIterable,
    /// `items()` of something that is not a dict.
    NotMap,
    /// A key read from the items of a loop over a dict (its keys) or a string (its
    /// characters): strings.
    TextItems,
    /// A literal index past the end of a list or a string.
    NoItem,
    /// A literal index into something that is neither a list nor a string.
    NotList,
}

/// An item a path went through on its way to a mismatch: a list's index or a dict's key.
#[derive(Debug)]
enum Pick<'v> {
    Index(usize),
    Key(&'v str),
}

/// Where following a path failed.
#[derive(Debug)]
struct Mismatch<'v> {
    /// The step that failed.
    at: usize,
    /// The value it was taken from.
    value: &'v Value,
    problem: Problem,
    /// The items chosen on the way, innermost first.
    trail: Vec<Pick<'v>>,
    /// How many other items of the outermost list failed too.
    others: usize,
}

impl<'v> Mismatch<'v> {
    fn new(at: usize, value: &'v Value, problem: Problem) -> Option<Self> {
        Some(Mismatch {
            at,
            value,
            problem,
            trail: Vec::new(),
            others: 0,
        })
    }
}

/// Follows `steps[at..]` from `value`: the first mismatch, if any. Allocates only for one.
fn follow<'v, S: AsStep>(value: &'v Value, steps: &[S], at: usize) -> Option<Mismatch<'v>> {
    let step = steps.get(at)?.step();
    match (step, value) {
        (Step::Field(key), Value::Object(map)) => match map.get(key) {
            Some(next) => follow(next, steps, at + 1),
            // Rendering refuses `d.items` and its kin with its own message.
            None if DICT_METHODS.contains(&key) => None,
            None => Mismatch::new(at, value, Problem::NoKey),
        },
        (Step::Field(_), _) => Mismatch::new(at, value, Problem::NotDict),
        (Step::Element, Value::Array(items)) => {
            let mut failing = items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| Some((i, follow(item, steps, at + 1)?)));
            let (i, mut found) = failing.next()?;
            found.trail.push(Pick::Index(i));
            found.others = failing.count();
            Some(found)
        }
        // A loop over a dict gives its keys, over a string its characters: strings, which
        // have no keys and no `items()`.
        (Step::Element, Value::Object(_) | Value::String(_)) => match steps
            .get(at + 1)
            .map(AsStep::step)
        {
            Some(Step::Field(_) | Step::Value) => Mismatch::new(at + 1, value, Problem::TextItems),
            _ => None,
        },
        (Step::Element, _) => Mismatch::new(at, value, Problem::NotIterable),
        (Step::Value, Value::Object(map)) => {
            let mut failing = map
                .iter()
                .filter_map(|(k, item)| Some((k, follow(item, steps, at + 1)?)));
            let (k, mut found) = failing.next()?;
            found.trail.push(Pick::Key(k));
            found.others = failing.count();
            Some(found)
        }
        (Step::Value, _) => Mismatch::new(at, value, Problem::NotMap),
        // One item, as Python indexes (negative from the end); rendering gives nothing
        // past the end.
        (Step::Index(i), Value::Array(items)) => match index(i, items.len()) {
            Some(n) => follow(&items[n], steps, at + 1),
            None => Mismatch::new(at, value, Problem::NoItem),
        },
        // A character, which rendering reads on from (and reports there).
        (Step::Index(i), Value::String(s)) => match index(i, s.chars().count()) {
            Some(_) => None,
            None => Mismatch::new(at, value, Problem::NoItem),
        },
        (Step::Index(_), _) => Mismatch::new(at, value, Problem::NotList),
    }
}

/// Where index `i` (negative from the end) falls in `len` items, if it does.
fn index(i: i64, len: usize) -> Option<usize> {
    let len_i = i64::try_from(len).ok()?;
    let at = usize::try_from(if i < 0 { i.checked_add(len_i)? } else { i }).ok()?;
    (at < len).then_some(at)
}

/// The value the first `upto` steps reach, written as Python would (`trip.stops[1]`).
fn written_path<S: AsStep>(name: &str, steps: &[S], trail: &[Pick<'_>], upto: usize) -> String {
    let mut out = name.to_owned();
    let mut picks = trail.iter().rev();
    for step in steps.iter().take(upto) {
        match step.step() {
            Step::Field(key) if is_identifier(key) => {
                out.push('.');
                out.push_str(key);
            }
            Step::Field(key) => {
                out.push('[');
                write_repr(&mut out, &Value::String(key.to_owned()));
                out.push(']');
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
            Step::Element | Step::Value => match picks.next() {
                Some(Pick::Index(i)) => out.push_str(&format!("[{i}]")),
                Some(Pick::Key(k)) => {
                    out.push('[');
                    write_repr(&mut out, &Value::String((*k).to_owned()));
                    out.push(']');
                }
                None => out.push_str("[…]"),
            },
        }
    }
    out
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The value as Python prints it, cut to a line's worth.
fn shown_value(value: &Value) -> String {
    const MOST: usize = 60;
    let mut out = String::new();
    write_repr(&mut out, value);
    if out.chars().count() > MOST {
        out = out.chars().take(MOST).collect::<String>() + "…";
    }
    out
}

/// A path use as [`describe`] reads it: a [`PathUse`] of a loaded set, or a
/// [`PlanPath`] a derived prompt holds.
struct Described<'a, S> {
    name: &'a str,
    shown: &'a str,
    steps: &'a [S],
    span: Range<usize>,
    by_filter: Option<&'a str>,
}

impl<'a> Described<'a, PathStep> {
    fn of(path: &'a PathUse) -> Self {
        Described {
            name: &path.name,
            shown: &path.shown,
            steps: &path.steps,
            span: path.span.clone(),
            by_filter: path.by_filter,
        }
    }
}

/// The error for mismatch `m` of `path`, written at its place in `source` (the file of
/// the use).
fn describe<S: AsStep>(
    source: Option<&SourceFile>,
    path: &Described<'_, S>,
    m: Mismatch<'_>,
) -> Diagnostic {
    let written = source
        .and_then(|s| s.text().get(path.span.clone()))
        .unwrap_or(path.shown);
    let at = written_path(path.name, path.steps, &m.trail, m.at);
    // `(read as …)` only where the use is written otherwise than the value it reaches.
    let read_as = |at: &str| match path.by_filter {
        Some(filter) => format!(" (the attribute `{filter}` reads)"),
        None if at == written => String::new(),
        None => format!(" (read as `{written}`)"),
    };
    let key = match path.steps.get(m.at).map(AsStep::step) {
        Some(Step::Field(key)) => key,
        _ => "",
    };
    let mut d = match m.problem {
        Problem::NoKey => {
            let mut keys = match m.value {
                Value::Object(map) => map.keys().collect::<Vec<_>>(),
                _ => Vec::new(),
            };
            // Sorted: the note and the suggestion do not depend on the order the data has.
            keys.sort_unstable();
            let d = Diagnostic::new(format!(
                "no key `{key}` in `{at}`{}",
                read_as(&written_path(path.name, path.steps, &m.trail, m.at + 1))
            ));
            let d = match (crate::suggest::closest(key, keys.iter().copied()), path.by_filter) {
                (Some(close), _) => d.with_help(format!("did you mean `{close}`?")),
                (None, Some("groupby")) => d.with_help(format!(
                    "give `{at}` a key `{key}`, or pass `default=` to `groupby` for the items without it"
                )),
                (None, Some(_)) => d.with_help(format!("give `{at}` a key `{key}`")),
                (None, None) => d.with_help(format!(
                    "give `{at}` a key `{key}`, or write `{written} | default(…)` to make it optional"
                )),
            };
            d.with_note(if keys.is_empty() {
                format!("`{at}` is an empty dict")
            } else {
                let mut listed: Vec<String> =
                    keys.iter().take(12).map(|k| format!("`{k}`")).collect();
                if keys.len() > 12 {
                    listed.push(format!("and {} more", keys.len() - 12));
                }
                format!("`{at}` is a dict with the keys {}", listed.join(", "))
            })
        }
        Problem::NotDict => Diagnostic::new(format!(
            "`{at}` is {}, not a dict: it has no key `{key}`{}",
            a_type(m.value),
            read_as(&written_path(path.name, path.steps, &m.trail, m.at + 1))
        ))
        .with_note(format!("`{at}` is {}", shown_value(m.value))),
        Problem::NotIterable => Diagnostic::new(format!(
            "`{at}` is {}, which cannot be looped over{}",
            a_type(m.value),
            read_as(&at)
        ))
        .with_note(format!("`{at}` is {}", shown_value(m.value))),
        Problem::NotMap => {
            let d = Diagnostic::new(format!(
                "`.items()` needs a dict, and `{at}` is {}{}",
                a_type(m.value),
                read_as(&format!("{at}.items()"))
            ));
            let d = if matches!(m.value, Value::Array(_)) {
                d.with_help("loop over the list itself, without `.items()`")
            } else {
                d
            };
            d.with_note(format!("`{at}` is {}", shown_value(m.value)))
        }
        Problem::NoItem => {
            let index = match path.steps.get(m.at).map(AsStep::step) {
                Some(Step::Index(i)) => i,
                _ => 0,
            };
            let (count, what) = match m.value {
                Value::String(s) => (s.chars().count(), "characters"),
                Value::Array(items) => (items.len(), "items"),
                _ => (0, "items"),
            };
            Diagnostic::new(format!(
                "no item [{index}] in `{at}`{}",
                read_as(&written_path(path.name, path.steps, &m.trail, m.at + 1))
            ))
            .with_help(format!(
                "give `{at}` more {what}, or write `{written} | default(…)` to make it optional"
            ))
            .with_note(format!(
                "`{at}` is {} of {count} {what}: {}",
                a_type(m.value),
                shown_value(m.value)
            ))
        }
        Problem::NotList => {
            let index = match path.steps.get(m.at).map(AsStep::step) {
                Some(Step::Index(i)) => i,
                _ => 0,
            };
            Diagnostic::new(format!(
                "`{at}` is {}, not a list: it has no item [{index}]{}",
                a_type(m.value),
                read_as(&written_path(path.name, path.steps, &m.trail, m.at + 1))
            ))
            .with_note(format!("`{at}` is {}", shown_value(m.value)))
        }
        Problem::TextItems => {
            let at = written_path(path.name, path.steps, &m.trail, m.at.saturating_sub(1));
            Diagnostic::new(format!(
                "a loop over `{at}` gives strs, which have no key `{key}` (read as `{written}`)"
            ))
            .with_note(format!(
                "`{at}` is {}: looping over it gives its {}",
                a_type(m.value),
                if m.value.is_object() {
                    "keys"
                } else {
                    "characters"
                }
            ))
        }
    };
    if m.others > 0 {
        let items = if m.others == 1 { "item" } else { "items" };
        d = d.with_note(format!("and {} more {items} of the same list", m.others));
    }
    match source {
        Some(source) => d.at(source, path.span.clone()),
        None => d,
    }
}

/// `problems` as the one diagnostic [`Templates::render`] returns: the first, with a note
/// for each other one (its message and where it is).
pub(super) fn into_one(problems: Diagnostics) -> Option<Diagnostic> {
    let mut all = problems.0.into_iter();
    let first = all.next()?;
    Some(all.fold(first, |d, other| {
        let at = other
            .location()
            .map(|l| format!(" at {}:{}:{}", l.path, l.line, l.col))
            .unwrap_or_default();
        d.with_note(format!("also: {}{at}", other.message()))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;
    use crate::formats::jinja::Options;
    use serde_json::json;

    fn load(files: &[(&str, &str)]) -> Templates {
        Templates::load(files[0].0, Options::default(), &mut |name: &str| {
            let (_, text) = files.iter().find(|(n, _)| *n == name).ok_or(None)?;
            Ok(SourceFile::new(format!("prompts/{name}"), *text))
        })
        .unwrap()
    }

    /// Each problem as `message @line:col`, with its help and notes.
    fn problems(files: &[(&str, &str)], values: serde_json::Value) -> Vec<String> {
        let templates = load(files);
        let found = templates.check_values(files[0].0, &values);
        // Whatever the check refuses, rendering refuses too, and the other way round for
        // what it reports (rendering may still fail on its own for what it leaves out).
        if !found.is_empty() {
            assert!(templates.render(files[0].0, &values).is_err());
        }
        found
            .0
            .iter()
            .map(|d| {
                let at = d.location().map_or(String::new(), |l| {
                    format!(" @{}:{}:{}", l.path, l.line, l.col)
                });
                let mut line = format!("{}{at}", d.message());
                if let Some(help) = d.help() {
                    line.push_str(&format!(" | help: {help}"));
                }
                for note in d.notes() {
                    line.push_str(&format!(" | note: {note}"));
                }
                line
            })
            .collect()
    }

    fn renders(files: &[(&str, &str)], values: serde_json::Value) -> String {
        let templates = load(files);
        assert!(templates.check_values(files[0].0, &values).is_empty());
        templates.render(files[0].0, &values).unwrap()
    }

    #[test]
    fn a_misspelt_key_is_reported_at_its_use_with_the_closest_key() {
        assert_eq!(
            problems(
                &[("t.j2", "Hi\n  {{ user.nmae }}!")],
                json!({"user": {"name": "Ada", "age": 36}})
            ),
            [
                "no key `nmae` in `user` @prompts/t.j2:2:6 | help: did you mean `name`? | note: `user` is a dict with the keys `age`, `name`"
            ]
        );
    }

    #[test]
    fn every_mismatch_is_reported_at_once_and_rendering_names_them_all() {
        let files = [(
            "t.j2",
            "{{ user.name.first }}{% for k, v in tools.items() %}{% endfor %}{% for x in count %}{% endfor %}{{ plan.steps }}",
        )];
        let values = json!({"user": {"name": "Ada"}, "tools": ["a"], "count": 3, "plan": {}});
        assert_eq!(
            problems(&files, values.clone()),
            [
                "`user.name` is a str, not a dict: it has no key `first` @prompts/t.j2:1:4 | note: `user.name` is 'Ada'",
                "`.items()` needs a dict, and `tools` is a list @prompts/t.j2:1:37 | help: loop over the list itself, without `.items()` | note: `tools` is ['a']",
                "`count` is an int, which cannot be looped over @prompts/t.j2:1:77 | note: `count` is 3",
                "no key `steps` in `plan` @prompts/t.j2:1:100 | help: give `plan` a key `steps`, or write `plan.steps | default(…)` to make it optional | note: `plan` is an empty dict",
            ]
        );
        let error = load(&files)
            .render("t.j2", &values)
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("error: `user.name` is a str"), "{error}");
        assert!(
            error.contains("also: no key `steps` in `plan` at prompts/t.j2:1:100"),
            "{error}"
        );
    }

    #[test]
    fn an_item_of_a_list_without_a_key_the_loop_reads_is_named_by_its_index() {
        let files = [
            (
                "t.j2",
                "{% for s in trip.stops %}{% include 'stop.j2' %}{% endfor %}",
            ),
            (
                "stop.j2",
                "- {{ s.city }}\n{% for t in s.tags %}{{ t.label }}{% endfor %}",
            ),
        ];
        let values = json!({"trip": {"stops": [
            {"city": "Oslo", "tags": [{"label": "cold"}]},
            {"town": "Bergen", "tags": []},
            {"cty": "Tromsø", "tags": [{"label": "far"}, {"lable": "north"}]},
        ]}});
        assert_eq!(
            problems(&files, values),
            [
                "no key `city` in `trip.stops[1]` (read as `s.city`) @prompts/stop.j2:1:6 | help: give `trip.stops[1]` a key `city`, or write `s.city | default(…)` to make it optional | note: `trip.stops[1]` is a dict with the keys `tags`, `town` | note: and 1 more item of the same list",
                "no key `label` in `trip.stops[2].tags[1]` (read as `t.label`) @prompts/stop.j2:2:25 | help: did you mean `lable`? | note: `trip.stops[2].tags[1]` is a dict with the keys `lable`",
            ]
        );
    }

    #[test]
    fn a_literal_index_is_followed_to_its_one_item() {
        let files = [(
            "t.j2",
            "{{ xs[1].name }} {{ xs[-1].name }} {{ xs[5] }} {{ word[9] }} {{ n[0] }} {{ xs[7] | default('-') }}{% for t in trips[0].stops %}{{ t.city }}{% endfor %}",
        )];
        let values = json!({
            "xs": [{"name": "a"}, {"nmae": "b"}],
            "word": "café",
            "n": 4,
            "trips": [{"stops": [{"city": "Oslo"}, {"town": "Bergen"}]}, {"stops": 1}],
        });
        assert_eq!(
            problems(&files, values.clone()),
            [
                "no key `name` in `xs[1]` @prompts/t.j2:1:4 | help: did you mean `nmae`? | note: `xs[1]` is a dict with the keys `nmae`",
                "no key `name` in `xs[-1]` @prompts/t.j2:1:21 | help: did you mean `nmae`? | note: `xs[-1]` is a dict with the keys `nmae`",
                "no item [5] in `xs` @prompts/t.j2:1:39 | help: give `xs` more items, or write `xs[5] | default(…)` to make it optional | note: `xs` is a list of 2 items: [{'name': 'a'}, {'nmae': 'b'}]",
                "no item [9] in `word` @prompts/t.j2:1:51 | help: give `word` more characters, or write `word[9] | default(…)` to make it optional | note: `word` is a str of 4 characters: 'café'",
                "`n` is an int, not a list: it has no item [0] @prompts/t.j2:1:65 | note: `n` is 4",
                "no key `city` in `trips[0].stops[1]` (read as `t.city`) @prompts/t.j2:1:131 | help: give `trips[0].stops[1]` a key `city`, or write `t.city | default(…)` to make it optional | note: `trips[0].stops[1]` is a dict with the keys `town`",
            ]
        );
        // What the check passes, rendering renders: the first item, the last, a character.
        let fine = [(
            "t.j2",
            "{{ xs[0].name }}{{ xs[-2].name }}{{ word[3] }}{{ word[-4] }}",
        )];
        assert_eq!(
            load(&fine).render("t.j2", &values).expect("renders"),
            "aaéc"
        );
    }

    #[test]
    fn a_loop_over_what_cannot_be_looped_over_is_reported_once_at_the_loop() {
        let files = [(
            "t.j2",
            "{% for s in n %}{{ s.x }}{% for t in s.y %}{{ t.z }}{% endfor %}{% endfor %}",
        )];
        assert_eq!(
            problems(&files, json!({"n": 3})),
            ["`n` is an int, which cannot be looped over @prompts/t.j2:1:13 | note: `n` is 3"]
        );
    }

    #[test]
    fn paths_rendering_would_pass_over_are_refused_before_it() {
        let files = [(
            "t.j2",
            "{% set n = user.nmae %}{{ x | default(user.nick) }}{% if user.age is none %}?{% endif %}",
        )];
        let found = problems(&files, json!({"user": {"name": "A", "nick": "a"}, "x": 1}));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("no key `nmae` in `user` @prompts/t.j2:1:12"),
            "{found:?}"
        );
        assert!(
            found[1].starts_with("no key `age` in `user` @prompts/t.j2:1:58"),
            "{found:?}"
        );
        assert_eq!(
            renders(
                &files,
                json!({"user": {"nmae": "A", "nick": "a", "age": 1}, "x": 1})
            ),
            "1"
        );
    }

    #[test]
    fn a_map_loop_reads_every_value_and_a_loop_over_a_dict_gives_strs() {
        let files = [(
            "t.j2",
            "{% for name, tool in tools.items() %}{{ tool.about }}{% endfor %}{% for k in tools %}{{ k.about }}{% endfor %}",
        )];
        assert_eq!(
            problems(
                &files,
                json!({"tools": {"a": {"about": "x"}, "b": {"abut": "y"}}})
            ),
            [
                "no key `about` in `tools['b']` (read as `tool.about`) @prompts/t.j2:1:41 | help: did you mean `abut`? | note: `tools['b']` is a dict with the keys `abut`",
                "a loop over `tools` gives strs, which have no key `about` (read as `k.about`) @prompts/t.j2:1:89 | note: `tools` is a dict: looping over it gives its keys",
            ]
        );
    }

    #[test]
    fn guarded_paths_and_blocks_that_are_off_need_nothing() {
        let files = [(
            "t.j2",
            "{{ user.nick | default('-') }}\
             {% if user.nick is defined %}{{ user.nick }}{% endif %}\
             {% if user.nick %}{{ user.nick.upper }}{% endif %}\
             {% if not user.title %}none{% endif %}\
             {% if user.role == 'admin' or user.rank != 3 %}!{% endif %}\
             {% if flag %}{{ user.missing }}{% elif other %}{{ user.gone }}{% else %}[{{ user.name }}]{% endif %}\
             {% for s in stops if s.open %}{{ s.hours }}{% endfor %}\
             {% for s in stops %}{% if s.open %}{{ s.hours }}{% endif %}{% endfor %}\
             {% for s in nothing_here %}{{ user.absent }}{% else %}{{ user.name }}{% endfor %}",
        )];
        let values = json!({
            "user": {"name": "Ada"},
            "flag": false,
            "other": 0,
            "stops": [{"open": true, "hours": "9-5"}, {"open": false}],
            "nothing_here": [],
        });
        assert_eq!(renders(&files, values), "-none![Ada]9-59-5Ada");
    }

    #[test]
    fn a_block_that_is_on_for_the_values_requires_what_it_reads() {
        let files = [(
            "t.j2",
            "{% if flag %}{{ user.nmae }}{% endif %}{% for s in stops %}{{ user.rank }}{% endfor %}",
        )];
        assert_eq!(
            renders(
                &files,
                json!({"user": {"name": "A"}, "flag": false, "stops": []})
            ),
            ""
        );
        let found = problems(
            &files,
            json!({"user": {"name": "A"}, "flag": true, "stops": [1]}),
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("no key `nmae` in `user`"), "{found:?}");
        assert!(found[1].starts_with("no key `rank` in `user`"), "{found:?}");
    }

    #[test]
    fn names_not_given_and_values_that_fit_are_left_to_rendering() {
        // A name not given at all is the name check's; literal indexes read one item.
        let files = [(
            "t.j2",
            "{% if absent %}{{ absent.x }}{% endif %}{{ xs[0].y }}",
        )];
        let templates = load(&files);
        let values = json!({"xs": [{"y": 1}, {"z": 2}]});
        assert!(templates.check_values("t.j2", &values).is_empty());
        assert_eq!(templates.render("t.j2", &values).unwrap(), "1");
    }
}
