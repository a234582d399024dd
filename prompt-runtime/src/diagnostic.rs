//! One diagnostic type for every problem the language finds.
//!
//! A [`Diagnostic`] knows its file, its byte span, the line and column that span starts
//! at, and the source line itself, so its `Display` needs nothing else. The macro turns it
//! into a `compile_error!` and the CLI prints it: both show the same text.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// A prompt file's text after loading (UTF-8, LF line ends, no BOM) and the path shown in
/// diagnostics. Cheap to clone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    inner: Arc<SourceInner>,
}

#[derive(Debug, PartialEq, Eq)]
struct SourceInner {
    path: String,
    text: String,
}

impl SourceFile {
    /// A source with the given display path (`prompts/segment.md`) and text.
    ///
    /// ```
    /// let source = prompt_runtime::SourceFile::new("prompts/a.md", "one\ntwo");
    /// assert_eq!(source.line_col(4), (2, 1));
    /// ```
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            inner: Arc::new(SourceInner {
                path: path.into(),
                text: text.into(),
            }),
        }
    }

    /// The path shown in diagnostics.
    pub fn path(&self) -> &str {
        &self.inner.path
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.inner.text
    }

    /// 1-based line and column (in characters) of a byte offset. Offsets past the end or
    /// inside a character are clamped to the nearest character boundary before them.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let text = self.text();
        let offset = floor_char_boundary(text, offset);
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line = text[..line_start].matches('\n').count() + 1;
        let col = text[line_start..offset].chars().count() + 1;
        (line, col)
    }

    /// The byte range of the line holding `offset`, without its line end.
    fn line_range(&self, offset: usize) -> Range<usize> {
        let text = self.text();
        let offset = floor_char_boundary(text, offset);
        let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
        start..end
    }
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A problem found in a prompt, a template, the configuration or an identity.
///
/// ```
/// use prompt_runtime::{Diagnostic, SourceFile};
///
/// let source = SourceFile::new("prompts/greet.md", "Hello $preferd!");
/// let diagnostic = Diagnostic::new("unknown placeholder `$preferd`")
///     .at(&source, 6..14)
///     .with_help("did you mean `$preferred`?");
/// assert_eq!(
///     diagnostic.to_string(),
///     "error: unknown placeholder `$preferd`
///  --> prompts/greet.md:1:7
///   |
/// 1 | Hello $preferd!
///   |       ^^^^^^^^
///   = help: did you mean `$preferred`?"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    message: String,
    // Boxed: diagnostics travel in `Result`s, and the error side should stay small.
    location: Option<Box<Location>>,
    help: Option<String>,
    notes: Vec<String>,
}

/// Where a diagnostic points: a file, a byte span in it, and what the span is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file's display path.
    pub path: String,
    /// Byte span in the file's loaded text.
    pub span: Range<usize>,
    /// 1-based line of the span's start.
    pub line: usize,
    /// 1-based column (in characters) of the span's start.
    pub col: usize,
    /// The text of that line, without its line end.
    pub source_line: String,
    /// Byte offsets of the caret run inside `source_line`.
    caret: Range<usize>,
}

impl Diagnostic {
    /// A diagnostic with a message and no location yet.
    pub fn new(message: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            location: None,
            help: None,
            notes: Vec::new(),
        }
    }

    /// Points the diagnostic at a byte span of a source file.
    pub fn at(mut self, source: &SourceFile, span: Range<usize>) -> Self {
        let text = source.text();
        let start = floor_char_boundary(text, span.start);
        let end = floor_char_boundary(text, span.end.max(start));
        let (line, col) = source.line_col(start);
        let line_range = source.line_range(start);
        let caret_start = start - line_range.start;
        // A span that runs past its line is underlined to the end of the line.
        let caret_end = end.min(line_range.end).max(start) - line_range.start;
        self.location = Some(Box::new(Location {
            path: source.path().to_owned(),
            span: start..end,
            line,
            col,
            source_line: text[line_range].to_owned(),
            caret: caret_start..caret_end,
        }));
        self
    }

    /// Points the diagnostic at a whole file without a span (a missing file, say).
    pub fn in_file(mut self, path: impl Into<String>) -> Self {
        self.location = Some(Box::new(Location {
            path: path.into(),
            span: 0..0,
            line: 0,
            col: 0,
            source_line: String::new(),
            caret: 0..0,
        }));
        self
    }

    /// Adds a `help:` line, such as a "did you mean".
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a `note:` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// The one-line message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where it points, if anywhere.
    pub fn location(&self) -> Option<&Location> {
        self.location.as_deref()
    }

    /// The help text, if any.
    pub fn help(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// The notes, in order.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }
}

impl Diagnostic {
    /// The diagnostic without its leading `error: `, for a host that prints that itself
    /// (rustc does, for a `compile_error!`).
    pub fn body(&self) -> String {
        let full = self.to_string();
        full.strip_prefix("error: ").unwrap_or(&full).to_owned()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.message)?;
        let mut gutter = 2;
        if let Some(loc) = &self.location {
            if loc.line == 0 {
                write!(f, "\n --> {}", loc.path)?;
            } else {
                let number = loc.line.to_string();
                gutter = number.len() + 1;
                let pad = " ".repeat(gutter);
                write!(
                    f,
                    "\n{}--> {}:{}:{}",
                    " ".repeat(gutter - 1),
                    loc.path,
                    loc.line,
                    loc.col
                )?;
                write!(f, "\n{pad}|\n{number} | {}", loc.source_line)?;
                let lead: String = loc.source_line[..loc.caret.start]
                    .chars()
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                let width = loc.source_line[loc.caret.clone()].chars().count().max(1);
                write!(f, "\n{pad}| {lead}{}", "^".repeat(width))?;
            }
        }
        let pad = " ".repeat(gutter);
        if let Some(help) = &self.help {
            write!(f, "\n{pad}= help: {help}")?;
        }
        for note in &self.notes {
            write!(f, "\n{pad}= note: {note}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// Every problem found in one go, shown one after the other.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Adds a diagnostic unless an identical one is already there (a template used twice
    /// reports its problem once).
    pub fn push(&mut self, diagnostic: Diagnostic) {
        if !self.0.contains(&diagnostic) {
            self.0.push(diagnostic);
        }
    }

    /// True when nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok(value)` when nothing was reported, else `Err(self)`.
    pub fn into_result<T>(self, value: T) -> Result<T, Diagnostics> {
        if self.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }
}

impl Extend<Diagnostic> for Diagnostics {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, iter: I) {
        for d in iter {
            self.push(d);
        }
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n\n")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let s = SourceFile::new("p.md", "ab\néé $x\n");
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(3), (2, 1));
        // `$` comes after two two-byte characters and a space
        assert_eq!(s.line_col(8), (2, 4));
        // inside a character: clamped back
        assert_eq!(s.line_col(4), (2, 1));
        assert_eq!(s.line_col(999), (3, 1));
    }

    #[test]
    fn display_has_location_line_caret_and_help() {
        let s = SourceFile::new("prompts/x.md", "first\nsay $preferd now\n");
        let d = Diagnostic::new("unknown placeholder `$preferd`")
            .at(&s, 10..18)
            .with_help("did you mean `$preferred`?");
        assert_eq!(
            d.to_string(),
            "error: unknown placeholder `$preferd`\n --> prompts/x.md:2:5\n  |\n2 | say $preferd now\n  |     ^^^^^^^^\n  = help: did you mean `$preferred`?"
        );
        let loc = d.location().unwrap();
        assert_eq!((loc.line, loc.col), (2, 5));
    }

    #[test]
    fn span_past_line_end_is_clamped_to_the_line() {
        let s = SourceFile::new("p.md", "{% if a %}\nx\n");
        let d = Diagnostic::new("unclosed").at(&s, 0..14);
        assert!(d.to_string().ends_with("1 | {% if a %}\n  | ^^^^^^^^^^"));
    }

    #[test]
    fn identical_diagnostics_are_kept_once() {
        let s = SourceFile::new("p.md", "x");
        let mut all = Diagnostics::default();
        all.push(Diagnostic::new("a").at(&s, 0..1));
        all.push(Diagnostic::new("a").at(&s, 0..1));
        all.push(Diagnostic::new("b"));
        assert_eq!(all.0.len(), 2);
    }
}
