//! Splits a template into text, `{{ … }}` and `{% … %}` segments, applying Jinja2's
//! whitespace rules as its lexer does: `-`/`+` modifiers, `lstrip_blocks`, `trim_blocks`
//! and `keep_trailing_newline`. Comments vanish here; `{% raw %}` bodies become text.
//!
//! Jinja2 strips whitespace while it lexes, so this does too: every text segment is a
//! sub-span of the source with some leading or trailing whitespace cut off.

use super::Options;
use crate::diagnostic::{Diagnostic, SourceFile};
use std::ops::Range;

/// One piece of a template, by byte spans into its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Segment {
    /// Literal text, output as written.
    Text(Range<usize>),
    /// `{{ … }}`: `inner` is the expression between the delimiters and their modifiers.
    Var {
        tag: Range<usize>,
        inner: Range<usize>,
    },
    /// `{% … %}`: `inner` is the statement.
    Block {
        tag: Range<usize>,
        inner: Range<usize>,
    },
    /// `{# … #}`: renders nothing, but a guidance fence's `{% else %}` is registered by
    /// the comment right after it. `inner` is the comment's text.
    Comment { inner: Range<usize> },
}

/// Whitespace as Python's `str.isspace` (and `\s` in its `re`) sees it.
pub(crate) use crate::python::space::is_space as py_space;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Var,
    Block,
    Comment,
}

/// Splits `source` into segments, or says where a tag is left open.
pub(crate) fn lex(source: &SourceFile, options: &Options) -> Result<Vec<Segment>, Diagnostic> {
    let full = source.text();
    // Jinja2 drops one final newline before lexing, unless told to keep it: nothing may
    // then match it, not even `trim_blocks`.
    let end = if !options.keep_trailing_newline && full.ends_with('\n') {
        full.len() - 1
    } else {
        full.len()
    };
    let text = &full[..end];
    let mut lexer = Lexer {
        source,
        text,
        options,
        segments: Vec::new(),
        line_starting: true,
    };
    lexer.run()?;
    Ok(lexer.segments)
}

struct Lexer<'a> {
    source: &'a SourceFile,
    text: &'a str,
    options: &'a Options,
    segments: Vec<Segment>,
    /// Whether the last thing matched ended with a newline: Jinja2's `line_starting`,
    /// which lets `lstrip_blocks` strip a line's indentation when the text before a tag
    /// holds no newline of its own.
    line_starting: bool,
}

impl Lexer<'_> {
    fn run(&mut self) -> Result<(), Diagnostic> {
        let mut pos = 0;
        while let Some((at, open)) = self.next_open(pos) {
            let sign = self.sign(at + 2);
            let raw = if open == Open::Block {
                self.raw_begin(at + 2 + sign.map_or(0, |_| 1))
            } else {
                None
            };
            self.push_text(pos..at, sign, open != Open::Var);
            let body = at + 2 + sign.map_or(0, |_| 1);
            pos = match (open, raw) {
                (Open::Block, Some(after)) => self.raw_body(at, after)?,
                (Open::Comment, _) => self.comment(at, body)?,
                (Open::Var, _) => self.tag(at, body, Open::Var)?,
                (Open::Block, None) => self.tag(at, body, Open::Block)?,
            };
        }
        if pos < self.text.len() {
            self.segments.push(Segment::Text(pos..self.text.len()));
        }
        Ok(())
    }

    /// The next `{{`, `{%` or `{#` at or after `from`.
    fn next_open(&self, from: usize) -> Option<(usize, Open)> {
        let bytes = self.text.as_bytes();
        let mut i = from;
        while let Some(offset) = self.text[i..].find('{') {
            let at = i + offset;
            match bytes.get(at + 1) {
                Some(b'{') => return Some((at, Open::Var)),
                Some(b'%') => return Some((at, Open::Block)),
                Some(b'#') => return Some((at, Open::Comment)),
                _ => i = at + 1,
            }
        }
        None
    }

    fn sign(&self, at: usize) -> Option<u8> {
        match self.text.as_bytes().get(at) {
            Some(&c @ (b'-' | b'+')) => Some(c),
            _ => None,
        }
    }

    /// Pushes the text before a tag, stripped as the tag's modifier and `lstrip_blocks`
    /// say (`lstrip_blocks` never applies before `{{`).
    fn push_text(&mut self, span: Range<usize>, sign: Option<u8>, lstrip: bool) {
        let mut span = span;
        let text = &self.text[span.clone()];
        if sign == Some(b'-') {
            span.end = span.start + text.trim_end_matches(py_space).len();
        } else if sign != Some(b'+') && lstrip && self.options.lstrip_blocks {
            let line = text.rfind('\n').map_or(0, |i| i + 1);
            let indent = &text[line..];
            if (line > 0 || self.line_starting)
                && !indent.is_empty()
                && indent.chars().all(py_space)
            {
                span.end = span.start + line;
            }
        }
        if !span.is_empty() {
            self.segments.push(Segment::Text(span));
        }
    }

    /// The end of a block, variable or comment closing at `at` (`%}`, `}}`, `#}` with
    /// their modifiers), and whether one closes there. `close` is the closing pair.
    fn close_at(&self, at: usize, close: &str, open: Open) -> Option<usize> {
        let rest = &self.text[at..];
        if open != Open::Var
            && let Some(after) = rest.strip_prefix('+')
            && after.starts_with(close)
        {
            return Some(at + 1 + close.len());
        }
        if let Some(after) = rest.strip_prefix('-')
            && let Some(tail) = after.strip_prefix(close)
        {
            let kept = tail.trim_start_matches(py_space).len();
            return Some(self.text.len() - kept);
        }
        if let Some(tail) = rest.strip_prefix(close) {
            let newline = open != Open::Var && self.options.trim_blocks && tail.starts_with('\n');
            return Some(at + close.len() + usize::from(newline));
        }
        None
    }

    fn finish(&mut self, end: usize) -> usize {
        self.line_starting = self.text[..end].ends_with('\n');
        end
    }

    fn comment(&mut self, at: usize, body: usize) -> Result<usize, Diagnostic> {
        let mut i = body;
        while i < self.text.len() {
            if let Some(end) = self.close_at(i, "#}", Open::Comment) {
                self.segments.push(Segment::Comment { inner: body..i });
                return Ok(self.finish(end));
            }
            i += self.text[i..].chars().next().map_or(1, char::len_utf8);
        }
        Err(Diagnostic::new("this comment is never closed with `#}`").at(self.source, at..at + 2))
    }

    /// A `{{ … }}` or `{% … %}`: its end is the first closing delimiter outside string
    /// literals and brackets, as Jinja2's lexer finds it.
    fn tag(&mut self, at: usize, body: usize, open: Open) -> Result<usize, Diagnostic> {
        let close = if open == Open::Var { "}}" } else { "%}" };
        let bytes = self.text.as_bytes();
        let mut depth = 0usize;
        let mut i = body;
        while i < bytes.len() {
            if depth == 0
                && let Some(end) = self.close_at(i, close, open)
            {
                let segment_inner = body..i;
                let tag = at..end;
                self.segments.push(match open {
                    Open::Var => Segment::Var {
                        tag,
                        inner: segment_inner,
                    },
                    _ => Segment::Block {
                        tag,
                        inner: segment_inner,
                    },
                });
                return Ok(self.finish(end));
            }
            match bytes[i] {
                quote @ (b'\'' | b'"') => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != quote {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                    continue;
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            // A whole character: `close_at` slices the text at `i`.
            i += self.text[i..].chars().next().map_or(1, char::len_utf8);
        }
        let what = if open == Open::Var {
            "this `{{` is never closed with `}}`"
        } else {
            "this `{%` is never closed with `%}`"
        };
        Err(Diagnostic::new(what).at(self.source, at..at + 2))
    }

    /// Where a `{% raw %}` tag starting its name at `name` ends, if it is one. Jinja2
    /// never applies `trim_blocks` to it (its pattern has no `\n?`).
    fn raw_begin(&self, name: usize) -> Option<usize> {
        let rest = &self.text[name..];
        let after_ws = rest.trim_start_matches(py_space);
        let after_name = after_ws.strip_prefix("raw")?;
        let tail = after_name.trim_start_matches(py_space);
        let at = self.text.len() - tail.len();
        if let Some(t) = tail.strip_prefix("-%}") {
            return Some(self.text.len() - t.trim_start_matches(py_space).len());
        }
        tail.starts_with("%}").then_some(at + 2)
    }

    /// The body of a raw block after its opening tag ends at `after`: text up to the
    /// first `{% endraw %}`, stripped before that tag as any text is.
    fn raw_body(&mut self, at: usize, after: usize) -> Result<usize, Diagnostic> {
        self.finish(after);
        let mut from = after;
        while let Some(offset) = self.text[from..].find("{%") {
            let open = from + offset;
            let sign = self.sign(open + 2);
            let name = open + 2 + sign.map_or(0, |_| 1);
            let rest = self.text[name..].trim_start_matches(py_space);
            if let Some(tail) = rest.strip_prefix("endraw") {
                let tail = tail.trim_start_matches(py_space);
                let close = self.text.len() - tail.len();
                if let Some(end) = self.close_at(close, "%}", Open::Block) {
                    self.push_text(after..open, sign, true);
                    return Ok(self.finish(end));
                }
            }
            from = open + 2;
        }
        Err(
            Diagnostic::new("this `{% raw %}` is never closed with `{% endraw %}`")
                .at(self.source, at..after),
        )
    }
}
