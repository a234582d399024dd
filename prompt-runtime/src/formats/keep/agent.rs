//! keep's agent prompts (`.prompt/agent/*`): templates with single-brace placeholders,
//! rendered as keep's `expand_prompt` renders them.
//!
//! The placeholders, each as keep's own patterns find it:
//!
//! - `{get}`: the item's context;
//! - `{find}`, `{find:deep}`, `{find:3000}`, `{find:deep:3000}`: search results, with
//!   `deep` and a token budget as arguments;
//! - `{text}`, `{since}`, `{until}`: the request's values;
//! - `{name}` and `{name|fallback}` for any other name of lowercase letters and `_`: a
//!   state-doc binding; the fallback stands in when the binding renders blank or did not
//!   fire.
//!
//! Any other brace (`{Name}`, `{x1}`, `{"json": 1}`, `{similar:3}`) is text, as in keep.
//! After the placeholders are filled, keep's clean-up runs over the whole text: each run of
//! three or more line breaks becomes two, then the text is stripped (Python's whitespace).
//!
//! Values are inserted as they are and never scanned again; keep replaces placeholder by
//! placeholder in the growing text, so a value that itself holds `{text}` would be filled
//! in later there. This is a deliberate difference: a value is data, not template.

use super::pyspace;
use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use std::ops::Range;

/// What a placeholder stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentKind {
    /// `{get}`.
    Get,
    /// `{find}` with its arguments.
    Find,
    /// `{text}`, `{since}` or `{until}`.
    Value,
    /// Any other name: a state-doc binding, possibly with a fallback.
    Binding,
}

/// One placeholder of an agent prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentPlaceholder {
    /// What it stands for.
    pub kind: AgentKind,
    /// The name (`find`, `edges`).
    pub name: String,
    /// The arguments: for `{find:deep:3000}`, `["deep", "3000"]`; otherwise none.
    pub args: Vec<String>,
    /// `{edges|(none)}`: `(none)`.
    pub fallback: Option<String>,
    /// The placeholder as written, in the template.
    pub span: Range<usize>,
}

/// A piece of an agent prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentPart {
    /// Literal text, a byte range of the template.
    Text(Range<usize>),
    /// A placeholder.
    Placeholder(AgentPlaceholder),
}

/// A keep agent prompt, read: its template and its pieces.
///
/// ```
/// use promptic::formats::keep::AgentPrompt;
///
/// let prompt = AgentPrompt::parse("Question: {text}\n\nContext:\n{find:deep:3000}\n\n\n\nEdges: {edges|(none)}\n");
/// assert_eq!(prompt.names(), ["text", "find", "edges"]);
/// let text = prompt.render(|name, args| match (name, args) {
///     ("text", _) => Some("Why?".to_owned()),
///     ("find", ["deep", budget]) => Some(format!("results within {budget} tokens")),
///     _ => None, // `edges` did not fire
/// });
/// assert_eq!(text, "Question: Why?\n\nContext:\nresults within 3000 tokens\n\nEdges: (none)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentPrompt {
    template: String,
    parts: Vec<AgentPart>,
}

/// `{find}` and its arguments at the start of `text`, as keep's
/// `\{find(?::(deep))?(?::(\d+))?\}` reads it: the length and the arguments.
fn find_at(text: &str) -> Option<(usize, Vec<String>)> {
    let mut rest = text.strip_prefix("{find")?;
    let mut args = Vec::new();
    if let Some(after) = rest.strip_prefix(":deep") {
        // `:deep` is taken only when what follows still lets the pattern end
        if after.starts_with('}') || after.starts_with(':') {
            args.push("deep".to_owned());
            rest = after;
        }
    }
    if let Some(after) = rest.strip_prefix(':') {
        let digits: usize = after
            .chars()
            .take_while(|c| pyspace::decimal_value(*c).is_some())
            .map(char::len_utf8)
            .sum();
        if digits > 0 && after[digits..].starts_with('}') {
            args.push(after[..digits].to_owned());
            rest = &after[digits..];
        }
    }
    let rest = rest.strip_prefix('}')?;
    Some((text.len() - rest.len(), args))
}

/// `{name}` or `{name|fallback}` at the start of `text`, as keep's
/// `\{([a-z_]+)(?:\|([^}]*))?\}` reads it: the length, the name and the fallback. `close`
/// is where the first `}` of `text` is, if it has one.
fn binding_at(text: &str, close: Option<usize>) -> Option<(usize, &str, Option<&str>)> {
    let rest = text.strip_prefix('{')?;
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_lowercase() || *b == b'_')
        .count();
    if name_len == 0 {
        return None;
    }
    let (name, after) = rest.split_at(name_len);
    if after.starts_with('}') {
        return Some((1 + name_len + 1, name, None));
    }
    let fallback = after.strip_prefix('|')?;
    // the `{`, the name and the `|` hold no `}`: the first one ends the fallback
    let end = close? - (1 + name_len + 1);
    Some((1 + name_len + 1 + end + 1, name, Some(&fallback[..end])))
}

/// Splits the text segments of `parts` where `found` finds a placeholder. `found` is given
/// the text from a `{` to the segment's end, and where its first `}` is: found once for
/// many `{`, so that a long text of `{a|` without `}` is read in linear time.
fn pass(
    template: &str,
    parts: Vec<AgentPart>,
    mut found: impl FnMut(&str, Option<usize>) -> Option<(usize, AgentPlaceholder)>,
) -> Vec<AgentPart> {
    let mut out = Vec::new();
    for part in parts {
        let AgentPart::Text(range) = part else {
            out.push(part);
            continue;
        };
        let mut start = range.start;
        let mut at = range.start;
        // the next `}` at or after `at`: unknown, at an index, or none left
        let mut close: Option<Option<usize>> = None;
        while let Some(offset) = template[at..range.end].find('{') {
            let brace = at + offset;
            let next = match close {
                Some(Some(c)) if c >= brace => Some(c),
                Some(None) => None,
                _ => {
                    let c = template[brace..range.end].find('}').map(|o| brace + o);
                    close = Some(c);
                    c
                }
            };
            match found(&template[brace..range.end], next.map(|c| c - brace)) {
                Some((len, mut placeholder)) => {
                    if start < brace {
                        out.push(AgentPart::Text(start..brace));
                    }
                    placeholder.span = brace..brace + len;
                    out.push(AgentPart::Placeholder(placeholder));
                    start = brace + len;
                    at = start;
                }
                None => at = brace + 1,
            }
        }
        if start < range.end {
            out.push(AgentPart::Text(start..range.end));
        }
    }
    out
}

impl AgentPrompt {
    /// Reads a template (its includes already expanded: see
    /// [`expand_includes`](super::expand_includes)). Reading cannot fail: what is no
    /// placeholder is text.
    pub fn parse(template: &str) -> AgentPrompt {
        let placeholder = |kind, name: &str, args, fallback: Option<&str>| AgentPlaceholder {
            kind,
            name: name.to_owned(),
            args,
            fallback: fallback.map(str::to_owned),
            span: 0..0,
        };
        // keep's passes, in its order: `{get}`, then `{find…}`, then the other names
        let parts = vec![AgentPart::Text(0..template.len())];
        let parts = pass(template, parts, |t, _| {
            t.starts_with("{get}")
                .then(|| (5, placeholder(AgentKind::Get, "get", Vec::new(), None)))
        });
        let parts = pass(template, parts, |t, _| {
            find_at(t).map(|(len, args)| (len, placeholder(AgentKind::Find, "find", args, None)))
        });
        let parts = pass(template, parts, |t, close| {
            binding_at(t, close).map(|(len, name, fallback)| {
                let kind = if fallback.is_none() && matches!(name, "text" | "since" | "until") {
                    AgentKind::Value
                } else {
                    AgentKind::Binding
                };
                (len, placeholder(kind, name, Vec::new(), fallback))
            })
        });
        AgentPrompt {
            template: template.to_owned(),
            parts,
        }
    }

    /// The template, as read.
    pub fn template(&self) -> &str {
        &self.template
    }

    /// The pieces, in order.
    pub fn parts(&self) -> &[AgentPart] {
        &self.parts
    }

    /// The placeholders, in order.
    pub fn placeholders(&self) -> impl Iterator<Item = &AgentPlaceholder> {
        self.parts.iter().filter_map(|p| match p {
            AgentPart::Placeholder(p) => Some(p),
            AgentPart::Text(_) => None,
        })
    }

    /// The names the placeholders use, each once, in the order they first appear.
    pub fn names(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.placeholders()
            .map(|p| p.name.as_str())
            .filter(|name| seen.insert(*name))
            .collect()
    }

    /// Checks the placeholders against the names the caller declares: each name not
    /// declared is an error at its placeholder in `path`, with the closest declared name
    /// when there is one.
    ///
    /// ```
    /// use promptic::formats::keep::AgentPrompt;
    ///
    /// let prompt = AgentPrompt::parse("{text}\n{simlar|(none)}");
    /// let err = prompt.check(".prompt/agent/ask", &["text", "similar"]).unwrap_err();
    /// assert_eq!(err.0[0].message(), "`{simlar|(none)}` names `simlar`, which is not a declared value");
    /// assert_eq!(err.0[0].help(), Some("did you mean `similar`?"));
    /// ```
    pub fn check(&self, path: &str, declared: &[&str]) -> Result<(), Diagnostics> {
        let source = SourceFile::new(path, self.template.clone());
        let mut problems = Diagnostics::default();
        for p in self.placeholders() {
            if declared.contains(&p.name.as_str()) {
                continue;
            }
            let d = Diagnostic::new(format!(
                "`{}` names `{}`, which is not a declared value",
                &self.template[p.span.clone()],
                p.name
            ))
            .at(&source, p.span.clone());
            let help = match crate::suggest::closest(&p.name, declared.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None if declared.is_empty() => {
                    "declare the value, or remove the placeholder".to_owned()
                }
                None => format!(
                    "the declared values are {}: declare `{}` too, or remove the placeholder",
                    declared
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    p.name
                ),
            };
            problems.push(d.with_help(help));
        }
        problems.into_result(())
    }

    /// Renders the prompt as keep's `expand_prompt` does. `values(name, args)` gives each
    /// placeholder's value (the arguments: `["deep", "3000"]` for `{find:deep:3000}`), or
    /// `None` when there is none: `{get}`, `{find}`, `{text}`, `{since}` and `{until}`
    /// then render empty; a binding renders its fallback (or nothing). A binding whose
    /// value is blank renders its fallback when it has one. Then runs of three or more
    /// line breaks become two, and the text is stripped.
    pub fn render(&self, mut values: impl FnMut(&str, &[&str]) -> Option<String>) -> String {
        self.render_each(|p| {
            let args: Vec<&str> = p.args.iter().map(String::as_str).collect();
            values(&p.name, &args)
        })
    }

    /// Like [`render`](AgentPrompt::render), with each placeholder itself handed to
    /// `value`: for a caller whose values depend on more than the name (keep takes
    /// `{text|…}` from a binding named `text`, never from the request's text).
    pub fn render_each(
        &self,
        mut value: impl FnMut(&AgentPlaceholder) -> Option<String>,
    ) -> String {
        let mut out = String::with_capacity(self.template.len());
        for part in &self.parts {
            match part {
                AgentPart::Text(range) => out.push_str(&self.template[range.clone()]),
                AgentPart::Placeholder(p) => {
                    let text = match (p.kind, value(p), &p.fallback) {
                        (AgentKind::Binding, Some(v), Some(fallback)) if is_blank(&v) => {
                            fallback.clone()
                        }
                        (AgentKind::Binding, None, Some(fallback)) => fallback.clone(),
                        (_, value, _) => value.unwrap_or_default(),
                    };
                    out.push_str(&text);
                }
            }
        }
        clean_up(&out)
    }
}

/// True when a binding's value counts as not given: blank to Python's `strip`.
pub(crate) fn is_blank(value: &str) -> bool {
    pyspace::strip(value).is_empty()
}

/// keep's clean-up: every run of two or more line breaks is two (its loop replaces
/// `\n\n\n` by `\n\n` until none is left), then Python's strip.
pub(crate) fn clean_up(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut breaks = 0;
    for c in text.chars() {
        if c == '\n' {
            breaks += 1;
            if breaks > 2 {
                continue;
            }
        } else {
            breaks = 0;
        }
        out.push(c);
    }
    pyspace::strip(&out).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(template: &str) -> Vec<(AgentKind, String, Vec<String>, Option<String>)> {
        AgentPrompt::parse(template)
            .placeholders()
            .map(|p| (p.kind, p.name.clone(), p.args.clone(), p.fallback.clone()))
            .collect()
    }

    #[test]
    fn each_placeholder_as_keeps_patterns_find_it() {
        let found = kinds(
            "{get} {find} {find:deep} {find:3000} {find:deep:3000} {text} {since} {until} {edges|(none)} {meta}",
        );
        let names: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
        assert_eq!(
            names,
            [
                "get", "find", "find", "find", "find", "text", "since", "until", "edges", "meta"
            ]
        );
        assert_eq!(found[4].2, ["deep", "3000"]);
        assert_eq!(found[3].2, ["3000"]);
        assert_eq!(found[8].3.as_deref(), Some("(none)"));
        assert_eq!(found[5].0, AgentKind::Value);
        assert_eq!(found[9].0, AgentKind::Binding);
        // a value name with a fallback is a binding, as keep's patterns have it
        assert_eq!(kinds("{text|none}")[0].0, AgentKind::Binding);
    }

    #[test]
    fn other_braces_are_text() {
        for text in [
            "{Name}",
            "{x1}",
            "{\"a\": 1}",
            "{similar:3}",
            "{find:deep3}",
            "{find:}",
            "{}",
            "{a|b",
            "{ get }",
        ] {
            assert!(kinds(text).is_empty(), "{text}");
        }
        // a fallback runs to the first `}`, line breaks included
        assert_eq!(kinds("{a|x\ny}")[0].3.as_deref(), Some("x\ny"));
        // Unicode digits are digits to Python's `\d`
        assert_eq!(kinds("{find:\u{664}\u{660}}")[0].2, ["\u{664}\u{660}"]);
    }

    #[test]
    fn fallbacks_stand_in_for_blank_or_missing_bindings() {
        let p = AgentPrompt::parse("[{a|A}] [{b|B}] [{c|C}] [{d}] [{e}]");
        let text = p.render(|name, _| match name {
            "a" => Some("value".to_owned()),
            "b" => Some(" \u{1f}".to_owned()),
            "d" => Some("  ".to_owned()),
            _ => None,
        });
        // a blank binding without a fallback stays blank; a missing one is empty
        assert_eq!(text, "[value] [B] [C] [  ] []");
    }

    #[test]
    fn clean_up_collapses_blank_line_runs_and_strips() {
        let p = AgentPrompt::parse("\n\n{get}\n\n\n\n{similar}\n\n\nEnd.\n \n\n\n");
        assert_eq!(p.render(|_, _| None), "End.");
        let p = AgentPrompt::parse("A\n\n\n\n\nB\n \n\n\nC");
        assert_eq!(p.render(|_, _| None), "A\n\nB\n \n\nC");
        // the clean-up runs over values too, as in keep
        let p = AgentPrompt::parse("{get}");
        assert_eq!(
            p.render(|_, _| Some("x\n\n\n\ny\u{1c}".to_owned())),
            "x\n\ny"
        );
    }

    #[test]
    fn a_long_text_of_unclosed_fallbacks_reads_in_linear_time() {
        let (small, large) = ("{a|".repeat(20_000), "{a|".repeat(200_000));
        // Linear is about 10x, looking for `}` from each `{` (quadratic) about 100x.
        let reads_none =
            |text: &str| assert!(AgentPrompt::parse(text).placeholders().next().is_none());
        crate::scaling::assert_linear(
            "200,000 unclosed fallbacks over 20,000",
            || reads_none(&small),
            || reads_none(&large),
        );
    }

    #[test]
    fn many_distinct_names_are_listed_in_linear_time() {
        // Bindings `{aaaa}`, `{aaab}`, …: each name is new, so each is looked up among
        // the names before it.
        let name = |mut i: usize| {
            let mut name = String::new();
            for _ in 0..4 {
                name.push(char::from(b'a' + (i % 26) as u8));
                i /= 26;
            }
            name
        };
        let template = |n: usize| {
            (0..n)
                .map(|i| format!("{{{}}} ", name(i)))
                .collect::<String>()
        };
        let (small, large) = (
            AgentPrompt::parse(&template(20_000)),
            AgentPrompt::parse(&template(200_000)),
        );
        assert_eq!(large.names().len(), 200_000);
        assert_eq!(large.names()[..2], ["aaaa", "baaa"]);
        crate::scaling::assert_linear(
            "200,000 distinct names over 20,000",
            || assert_eq!(small.names().len(), 20_000),
            || assert_eq!(large.names().len(), 200_000),
        );
        // Each name once, in the order it first appears.
        assert_eq!(AgentPrompt::parse("{b} {a} {b} {a|x}").names(), ["b", "a"]);
    }

    #[test]
    fn values_are_not_scanned_again() {
        let p = AgentPrompt::parse("{get} {text}");
        let text = p.render(|name, _| {
            Some(if name == "get" {
                "{text}".to_owned()
            } else {
                "T".to_owned()
            })
        });
        assert_eq!(text, "{text} T");
    }
}
