//! How the lines of a body are joined: the rendered lines of a prompt, or of a template
//! inlined mid-line, joined with `\n`, so that a false block leaves no blank line behind.

use super::{Part, Resolver, push_text};

/// Whether a line of a body has been rendered before the current point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Started {
    /// Surely not: the next line is the body's first.
    No,
    /// Depends on the blocks before: decided at run time with a line flag.
    Maybe,
    /// Surely.
    Yes,
}

/// How the lines of one body (a prompt's or an inlined template's) are joined.
///
/// The output is the body's rendered lines joined by `\n`: a separator comes before each
/// rendered line but the first. Where that depends on blocks (a block at the start of a
/// body, or lines after one), the separator is a [`Part::Line`] decided at run time, so a
/// false block leaves no blank line behind wherever it stands, at the end of a body too.
pub(super) struct Lines {
    pub(super) started: Started,
    pub(super) at_line_start: bool,
    flag: Option<usize>,
    /// A template alone on the current line has just lent its lines: the `\n` that ends
    /// the line ends the template's last line, not an empty line.
    pub(super) spliced: bool,
}

impl Lines {
    pub(super) fn new() -> Self {
        Lines {
            started: Started::No,
            at_line_start: true,
            flag: None,
            spliced: false,
        }
    }
}

impl Resolver<'_> {
    /// Literal text: each `\n` in it ends a line; the separator goes before the next one.
    pub(super) fn text(&mut self, text: &str, out: &mut Vec<Part>) {
        let mut pieces = text.split('\n');
        let first = pieces.next().unwrap_or_default();
        if !first.is_empty() {
            self.content(out);
            push_text(out, first);
        }
        for piece in pieces {
            // The line before this `\n` ends; an empty line is a line too, but not the line
            // of a spliced template, whose lines were its own.
            if !std::mem::take(&mut self.lines().spliced) {
                self.content(out);
            }
            self.lines().at_line_start = true;
            if !piece.is_empty() {
                self.content(out);
                push_text(out, piece);
            }
        }
    }

    pub(super) fn lines(&mut self) -> &mut Lines {
        // The stack holds the prompt's body from the start and is never emptied.
        let last = self.bodies.len() - 1;
        &mut self.bodies[last]
    }

    /// Something of the current line is about to be written: at the start of a line, write
    /// its separator first.
    pub(super) fn content(&mut self, out: &mut Vec<Part>) {
        let mut flags = self.line_flags;
        let lines = self.lines();
        lines.spliced = false;
        if !lines.at_line_start {
            return;
        }
        lines.at_line_start = false;
        match lines.started {
            Started::No => {}
            Started::Yes => push_text(out, "\n"),
            Started::Maybe => {
                let flag = *lines.flag.get_or_insert_with(|| {
                    flags += 1;
                    flags - 1
                });
                out.push(Part::Line { flag });
            }
        }
        lines.started = Started::Yes;
        self.line_flags = flags;
    }
}
