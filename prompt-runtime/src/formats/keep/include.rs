//! keep's `{{include:NAME}}` in agent prompts: the `## Prompt` section of `.prompt/NAME`
//! (or the whole document when it has none), itself expanded, at most three levels deep,
//! no document twice on one chain, a missing one an error.

use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// Why an agent prompt's includes cannot be expanded (keep raises the same three).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IncludeError {
    /// `.prompt/NAME` does not exist.
    NotFound(String),
    /// The document is already on the chain of includes.
    Cycle(String),
    /// Includes nest deeper than keep allows (3).
    TooDeep,
    /// The expanded text, or the text read to expand it, would pass [`MAX_EXPANDED`]
    /// bytes (a document including another many times, at each of three levels). keep
    /// sets no such limit; promptic does, so that hostile documents cannot exhaust
    /// memory or time.
    TooLarge,
}

impl fmt::Display for IncludeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IncludeError::NotFound(id) => write!(f, "prompt include not found: {id}"),
            IncludeError::Cycle(id) => {
                write!(f, "prompt include cycle: {id} already on the chain")
            }
            IncludeError::TooDeep => write!(f, "prompt include depth exceeded (max {MAX_DEPTH})"),
            IncludeError::TooLarge => write!(
                f,
                "prompt includes expand past {MAX_EXPANDED} bytes: a document is included too many times"
            ),
        }
    }
}

impl std::error::Error for IncludeError {}

const MAX_DEPTH: usize = 3;

/// The most bytes an agent prompt's includes may expand to: 16 MiB, far past any prompt.
pub const MAX_EXPANDED: usize = 16 << 20;

/// `{{include:NAME}}` at the start of `text`: its length and NAME
/// (`[a-zA-Z0-9][a-zA-Z0-9/_-]*`, so no `.`, no space, no way out of `.prompt/`).
fn include_at(text: &str) -> Option<(usize, &str)> {
    let rest = text.strip_prefix("{{include:")?;
    let len = rest
        .bytes()
        .enumerate()
        .take_while(|&(i, b)| {
            b.is_ascii_alphanumeric() || (i > 0 && matches!(b, b'/' | b'_' | b'-'))
        })
        .count();
    if len == 0 || !rest[len..].starts_with("}}") {
        return None;
    }
    Some(("{{include:".len() + len + 2, &rest[..len]))
}

/// Expands the includes of the agent prompt `id` (`.prompt/agent/reflect`), whose prompt
/// text is `body`. `lookup(NAME)` gives the content of `.prompt/NAME` (a keep document, or
/// a prompt's body), `None` when there is none.
///
/// ```
/// use promptic::formats::keep::{expand_includes, IncludeError};
///
/// let docs = |name: &str| match name {
///     "agent/system" => Some("# System\n\n## Prompt\nBe brief.\n".to_owned()),
///     "agent/loop" => Some("## Prompt\n{{include:agent/loop}}".to_owned()),
///     _ => None,
/// };
/// let body = "{{include:agent/system}}\n\nThen answer.";
/// assert_eq!(expand_includes(".prompt/agent/ask", body, docs).unwrap(), "Be brief.\n\nThen answer.");
/// assert_eq!(
///     expand_includes(".prompt/agent/ask", "{{include:agent/loop}}", docs),
///     Err(IncludeError::Cycle(".prompt/agent/loop".to_owned()))
/// );
/// ```
pub fn expand_includes(
    id: &str,
    body: &str,
    lookup: impl FnMut(&str) -> Option<String>,
) -> Result<String, IncludeError> {
    expand_includes_traced(id, body, lookup)
        .map(|expanded| expanded.text)
        .map_err(|e| e.error)
}

/// Where a piece of an expanded agent prompt was written: `doc` is `None` for the body
/// handed to [`expand_includes_traced`], else the included document's NAME
/// (`agent/system`), and `offset` the byte in that text (the body, or the content
/// `lookup` gave for NAME) where the piece starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncludeOrigin {
    /// The document the piece is from: `None` for the body, else the include's NAME.
    pub doc: Option<String>,
    /// The byte in that document's text where the piece starts.
    pub offset: usize,
}

/// An expanded agent prompt with where each piece of it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedExpansion {
    /// The expanded text, as [`expand_includes`] gives it.
    pub text: String,
    /// The pieces of `text` in order, each its start in `text` and its origin; a piece
    /// runs to the next one's start.
    pub pieces: Vec<(usize, IncludeOrigin)>,
}

impl TracedExpansion {
    /// The origin of the byte range `span` of the text: its document and the range
    /// there, when the whole range was written in one piece (a placeholder split by an
    /// include, `{fi{{include:x}}nd}`, has none).
    ///
    /// ```
    /// use promptic::formats::keep::{expand_includes_traced, IncludeOrigin};
    ///
    /// let docs = |_: &str| Some("## Prompt\nBe {brief}.".to_owned());
    /// let expanded = expand_includes_traced("ask", "{{include:sys}} {text}", docs).unwrap();
    /// assert_eq!(expanded.text, "Be {brief}. {text}");
    /// let (doc, range) = expanded.origin(3..10).unwrap();
    /// assert_eq!((doc.as_deref(), range), (Some("sys"), 13..20));
    /// let (doc, range) = expanded.origin(12..18).unwrap();
    /// assert_eq!((doc, range), (None, 16..22));
    /// ```
    pub fn origin(
        &self,
        span: std::ops::Range<usize>,
    ) -> Option<(Option<String>, std::ops::Range<usize>)> {
        let index = self
            .pieces
            .partition_point(|(start, _)| *start <= span.start)
            .checked_sub(1)?;
        let (start, origin) = &self.pieces[index];
        let end = self
            .pieces
            .get(index + 1)
            .map_or(self.text.len(), |(next, _)| *next);
        if span.end > end {
            return None;
        }
        let at = origin.offset + (span.start - start);
        Some((origin.doc.clone(), at..at + span.len()))
    }
}

/// Why includes cannot be expanded, and where: the include that failed, as an
/// [`IncludeOrigin`] and its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedIncludeError {
    /// What went wrong.
    pub error: IncludeError,
    /// The `{{include:NAME}}` that could not be expanded.
    pub at: IncludeOrigin,
    /// Its length in bytes.
    pub len: usize,
}

/// Like [`expand_includes`], keeping where each piece of the text was written (for
/// errors at a placeholder's own line and column) and where an include failed.
///
/// ```
/// use promptic::formats::keep::{expand_includes_traced, IncludeError};
///
/// let docs = |name: &str| match name {
///     "agent/system" => Some("## Prompt\nBe brief. {{include:agent/gone}}".to_owned()),
///     _ => None,
/// };
/// let err = expand_includes_traced(".prompt/agent/ask", "{{include:agent/system}}", docs).unwrap_err();
/// assert_eq!(err.error, IncludeError::NotFound(".prompt/agent/gone".to_owned()));
/// // the failed include is in `agent/system`, 20 bytes into the text `docs` gave for it
/// assert_eq!((err.at.doc.as_deref(), err.at.offset, err.len), (Some("agent/system"), 20, 22));
/// ```
pub fn expand_includes_traced(
    id: &str,
    body: &str,
    mut lookup: impl FnMut(&str) -> Option<String>,
) -> Result<TracedExpansion, TracedIncludeError> {
    let mut expansion = Expansion {
        chain: vec![id.to_owned()],
        lookup: &mut lookup,
        read: HashMap::new(),
        out: String::with_capacity(body.len()),
        pieces: Vec::new(),
        work: 0,
    };
    expansion.expand(body, None, 0)?;
    Ok(TracedExpansion {
        text: expansion.out,
        pieces: expansion.pieces,
    })
}

/// One expansion under way: the chain of documents, the text so far and its pieces.
struct Expansion<'l, L> {
    chain: Vec<String>,
    lookup: &'l mut L,
    /// Each document looked up so far, by NAME: its prompt text and where that starts in
    /// the document (`None`: there is none). A document included many times is looked up
    /// and read once.
    read: HashMap<String, Option<(Rc<str>, usize)>>,
    out: String,
    pieces: Vec<(usize, IncludeOrigin)>,
    /// The bytes read and written so far: an include of an empty document writes
    /// nothing, so this, not the text's length, bounds the work.
    work: usize,
}

impl<L: FnMut(&str) -> Option<String>> Expansion<'_, L> {
    /// The prompt text of document `name` and where it starts in the document: its
    /// `## Prompt` section, or the whole document when it has none.
    fn document(&mut self, name: &str) -> Option<(Rc<str>, usize)> {
        if let Some(known) = self.read.get(name) {
            return known.clone();
        }
        let found = (self.lookup)(name).map(|content| {
            let read = super::read(&content);
            let inner = read.prompt.unwrap_or(content.as_str());
            // the prompt section is a slice of the content: where it starts there
            let inner_base = inner.as_ptr() as usize - content.as_ptr() as usize;
            (Rc::from(inner), inner_base)
        });
        self.read.insert(name.to_owned(), found.clone());
        found
    }

    /// Appends `body[from..to]`, a piece of document `doc` (`None`: the top body).
    fn copy(&mut self, body: &str, from: usize, to: usize, doc: &Option<String>, base: usize) {
        if from == to {
            return;
        }
        self.pieces.push((
            self.out.len(),
            IncludeOrigin {
                doc: doc.clone(),
                offset: base + from,
            },
        ));
        self.out.push_str(&body[from..to]);
    }

    /// Expands `body`, the text of document `doc` from byte `base` of it.
    fn expand(
        &mut self,
        body: &str,
        doc: Option<(&str, usize)>,
        depth: usize,
    ) -> Result<(), TracedIncludeError> {
        let (name, base) = match doc {
            Some((name, base)) => (Some(name.to_owned()), base),
            None => (None, 0),
        };
        let fail = |error, start: usize, len: usize| TracedIncludeError {
            error,
            at: IncludeOrigin {
                doc: name.clone(),
                offset: base + start,
            },
            len,
        };
        // as keep: past the depth, any `{{include:` is too deep, well formed or not
        if let Some(first) = body.find("{{include:")
            && depth >= MAX_DEPTH
        {
            let len = include_at(&body[first..]).map_or("{{include:".len(), |(len, _)| len);
            return Err(fail(IncludeError::TooDeep, first, len));
        }
        let mut at = 0;
        let mut copied = 0;
        while let Some(offset) = body[at..].find("{{include:") {
            let start = at + offset;
            let Some((len, included)) = include_at(&body[start..]) else {
                at = start + 1;
                continue;
            };
            let target = format!(".prompt/{included}");
            if self.chain.contains(&target) {
                return Err(fail(IncludeError::Cycle(target), start, len));
            }
            self.work += len;
            let Some((inner, inner_base)) = (self.work <= MAX_EXPANDED)
                .then(|| self.document(included))
                .flatten()
            else {
                let error = if self.work > MAX_EXPANDED {
                    IncludeError::TooLarge
                } else {
                    IncludeError::NotFound(target)
                };
                return Err(fail(error, start, len));
            };
            self.copy(body, copied, start, &name, base);
            self.chain.push(target);
            self.work += inner.len();
            let expanded = if self.work > MAX_EXPANDED {
                Err(fail(IncludeError::TooLarge, start, len))
            } else {
                self.expand(&inner, Some((included, inner_base)), depth + 1)
            };
            self.chain.pop();
            expanded?;
            if self.out.len() > MAX_EXPANDED {
                return Err(fail(IncludeError::TooLarge, start, len));
            }
            copied = start + len;
            at = copied;
        }
        self.copy(body, copied, body.len(), &name, base);
        if self.out.len() > MAX_EXPANDED {
            return Err(fail(IncludeError::TooLarge, copied, 0));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_nest_three_levels_and_no_deeper() {
        let docs = |name: &str| -> Option<String> {
            let n: usize = name.strip_prefix("d")?.parse().ok()?;
            Some(format!("## Prompt\n<{n}>{{{{include:d{}}}}}", n + 1))
        };
        // the top body is level 0: d1, d2 and d3 expand, d3's own include is too deep
        assert_eq!(
            expand_includes("top", "{{include:d1}}", docs),
            Err(IncludeError::TooDeep)
        );
        let shallow = |name: &str| match name {
            "a" => Some("## Prompt\nA {{include:b}}".to_owned()),
            "b" => Some("## Prompt\nB {{include:c}}".to_owned()),
            "c" => Some("no section: the whole text".to_owned()),
            _ => None,
        };
        assert_eq!(
            expand_includes("top", "[{{include:a}}]", shallow).unwrap(),
            "[A B no section: the whole text]"
        );
    }

    #[test]
    fn includes_that_multiply_stop_at_the_size_limit() {
        // each level includes the next 100 times: 10^4 copies of 10 KB, refused early
        let docs = |name: &str| -> Option<String> {
            let n: usize = name.strip_prefix("m")?.parse().ok()?;
            if n == 3 {
                return Some("x".repeat(10_000));
            }
            Some(format!(
                "## Prompt\n{}",
                format!("{{{{include:m{}}}}}", n + 1).repeat(100)
            ))
        };
        assert_eq!(
            expand_includes("top", "{{include:m1}}", docs),
            Err(IncludeError::TooLarge)
        );
    }

    #[test]
    fn includes_of_empty_documents_many_times_over_stop_at_the_size_limit() {
        // nothing is written, but 300,000 includes of 300,000 includes is work: refused
        let many = |name: &str| "{{include:".to_owned() + name + "}}";
        let top = many("a").repeat(300_000);
        let docs = |name: &str| match name {
            "a" => Some(many("b").repeat(300_000)),
            "b" => Some(String::new()),
            _ => None,
        };
        let err = expand_includes_traced("top", &top, docs).unwrap_err();
        assert_eq!(err.error, IncludeError::TooLarge);
        assert_eq!(err.at.doc, None);
    }

    #[test]
    fn each_document_is_looked_up_and_read_once() {
        // 200 includes of a document of 200 includes of one that includes an empty one:
        // 80,200 includes of three documents.
        let many = |name: &str| format!("{{{{include:{name}}}}}").repeat(200);
        let mut asked: Vec<String> = Vec::new();
        let docs = |name: &str| {
            asked.push(name.to_owned());
            match name {
                "a" => Some(format!("## Prompt\n{}", many("b"))),
                "b" => Some("# B\n\n## Prompt\n[{{include:c}}]".to_owned()),
                "c" => Some(String::new()),
                _ => None,
            }
        };
        let expanded = expand_includes("top", &many("a"), docs).unwrap();
        assert_eq!(expanded, "[]".repeat(40_000));
        assert_eq!(asked, ["a", "b", "c"]);
        // A missing document is looked up once too, and reported where it is first met.
        let mut asked = 0;
        let none = |_: &str| {
            asked += 1;
            None
        };
        let err = expand_includes_traced("top", &many("gone"), none).unwrap_err();
        assert_eq!(err.error, IncludeError::NotFound(".prompt/gone".to_owned()));
        assert_eq!((err.at.offset, asked), (0, 1));
    }

    #[test]
    fn each_piece_knows_its_document_and_a_failed_include_its_place() {
        let docs = |name: &str| match name {
            "sys" => Some("# System\n\n## Prompt\nBe {brief}.\n{{include:tail}}".to_owned()),
            "tail" => Some("{end}".to_owned()),
            "bad" => Some("## Prompt\nx {{include:nowhere}}".to_owned()),
            _ => None,
        };
        let expanded = expand_includes_traced("ask", "Q: {text}\n{{include:sys}}!", docs).unwrap();
        assert_eq!(expanded.text, "Q: {text}\nBe {brief}.\n{end}!");
        let find = |s: &str| {
            let at = expanded.text.find(s).unwrap();
            expanded.origin(at..at + s.len()).unwrap()
        };
        assert_eq!(find("{text}"), (None, 3..9));
        assert_eq!(find("{brief}"), (Some("sys".to_owned()), 23..30));
        assert_eq!(find("{end}"), (Some("tail".to_owned()), 0..5));
        assert_eq!(find("!"), (None, 25..26));
        // a range across two pieces has no one origin
        let at = expanded.text.find(".\n{end}").unwrap();
        assert_eq!(expanded.origin(at..at + 4), None);
        let err = expand_includes_traced("ask", "{{include:bad}}", docs).unwrap_err();
        assert_eq!(
            err.error,
            IncludeError::NotFound(".prompt/nowhere".to_owned())
        );
        assert_eq!(
            (err.at.doc.as_deref(), err.at.offset, err.len),
            (Some("bad"), 12, 19)
        );
        // past the depth, the first `{{include:` is the culprit, well formed or not
        let deep = |name: &str| match name {
            "a" => Some("{{include:b}}".to_owned()),
            "b" => Some("{{include:c}}".to_owned()),
            "c" => Some("c {{include: x".to_owned()),
            _ => None,
        };
        let err = expand_includes_traced("top", "{{include:a}}", deep).unwrap_err();
        assert_eq!(
            (err.error, err.at.doc.as_deref(), err.at.offset),
            (IncludeError::TooDeep, Some("c"), 2)
        );
    }

    #[test]
    fn only_well_formed_names_include_and_a_missing_one_is_an_error() {
        let none = |_: &str| None;
        for text in [
            "{{include:../x}}",
            "{{include:}}",
            "{{include:a b}}",
            "{{include:-a}}",
            "{{include:a}",
        ] {
            assert_eq!(expand_includes("top", text, none).unwrap(), text);
        }
        assert_eq!(
            expand_includes("top", "{{include:agent/x}}", none),
            Err(IncludeError::NotFound(".prompt/agent/x".to_owned()))
        );
        // the including document itself is on the chain
        let me = |_: &str| Some("## Prompt\nme".to_owned());
        assert_eq!(
            expand_includes(".prompt/agent/me", "{{include:agent/me}}", me),
            Err(IncludeError::Cycle(".prompt/agent/me".to_owned()))
        );
    }
}
