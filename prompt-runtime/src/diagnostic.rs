//! One diagnostic type for every problem the language finds.
//!
//! A [`Diagnostic`] knows its file, its byte span, the line and column that span starts
//! at, and the source line itself, so its `Display` needs nothing else. The macro turns it
//! into a `compile_error!` and the CLI prints it: both show the same text.

use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::Arc;

/// A prompt file's text after loading (UTF-8, LF line ends, no BOM) and the path shown in
/// diagnostics. Cheap to clone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    inner: Arc<SourceInner>,
}

#[derive(Debug)]
struct SourceInner {
    path: String,
    text: String,
    /// Where each line starts, found once: every lookup is a binary search.
    line_starts: Vec<usize>,
    /// Per line, whether it is ASCII, so a column is a subtraction there.
    ascii: Vec<bool>,
}

impl PartialEq for SourceInner {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.text == other.text
    }
}

impl Eq for SourceInner {}

impl SourceFile {
    /// A source with the given display path (`prompts/segment.md`) and text.
    ///
    /// ```
    /// let source = promptic::SourceFile::new("prompts/a.md", "one\ntwo");
    /// assert_eq!(source.line_col(4), (2, 1));
    /// ```
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        let mut ascii = Vec::new();
        let mut start = 0;
        for (i, _) in text.match_indices('\n') {
            ascii.push(text.as_bytes()[start..i].is_ascii());
            start = i + 1;
            line_starts.push(start);
        }
        ascii.push(text.as_bytes()[start..].is_ascii());
        SourceFile {
            inner: Arc::new(SourceInner {
                path: path.into(),
                text,
                line_starts,
                ascii,
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

    /// Tells loaded files apart cheaply: the same for clones of one source.
    pub(crate) fn id(&self) -> usize {
        Arc::as_ptr(&self.inner) as usize
    }

    /// 1-based line and column (in characters) of a byte offset. Offsets past the end or
    /// inside a character are clamped to the nearest character boundary before them.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let text = self.text();
        let offset = floor_char_boundary(text, offset);
        let line = self.line_index(offset);
        let start = self.inner.line_starts[line];
        let col = if self.inner.ascii[line] {
            offset - start
        } else {
            text[start..offset].chars().count()
        };
        (line + 1, col + 1)
    }

    /// 0-based index of the line holding the byte `offset` (a character boundary).
    fn line_index(&self, offset: usize) -> usize {
        // `line_starts[0]` is 0, so at least one start is `<= offset`.
        self.inner
            .line_starts
            .partition_point(|&start| start <= offset)
            - 1
    }

    /// The byte offset of a 1-based line and column (in characters): the inverse of
    /// [`SourceFile::line_col`]. A line or column past the end gives the end of that line
    /// or of the text.
    ///
    /// ```
    /// let source = promptic::SourceFile::new("p.md", "one\ntwé x");
    /// assert_eq!(source.offset(2, 5), 9);
    /// assert_eq!(source.offset(2, 99), 10);
    /// assert_eq!(source.offset(9, 1), 10);
    /// ```
    pub fn offset(&self, line: usize, col: usize) -> usize {
        let text = self.text();
        let Some(&start) = self.inner.line_starts.get(line.saturating_sub(1)) else {
            return text.len();
        };
        let index = line.saturating_sub(1);
        let end = self
            .inner
            .line_starts
            .get(index + 1)
            .map_or(text.len(), |next| next - 1);
        let skip = col.saturating_sub(1);
        if self.inner.ascii[index] {
            return (start + skip).min(end);
        }
        text[start..end]
            .char_indices()
            .nth(skip)
            .map_or(end, |(i, _)| start + i)
    }

    /// The span of what is written at a 1-based line and column: a placeholder (`$name`,
    /// `${name}`, `{{ name }}`) or a name (in a condition), at least one byte, clamped to
    /// the text. For pointing a diagnostic at a recorded use.
    ///
    /// ```
    /// let source = promptic::SourceFile::new("p.md", "a $day b\n{{ x }}");
    /// assert_eq!(&source.text()[source.span_at(1, 3)], "$day");
    /// assert_eq!(&source.text()[source.span_at(2, 1)], "{{ x }}");
    /// ```
    pub fn span_at(&self, line: usize, col: usize) -> Range<usize> {
        let text = self.text();
        let start = self.offset(line, col);
        let rest = &text[start..];
        let name_len = |s: &str| {
            s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(s.len())
        };
        let len = if rest.starts_with("{{") {
            rest.find("}}").map_or(2, |i| i + 2)
        } else if let Some(braced) = rest.strip_prefix("${") {
            braced.find('}').map_or(2, |i| i + 3)
        } else if let Some(plain) = rest.strip_prefix('$') {
            1 + name_len(plain)
        } else {
            name_len(rest).max(1)
        };
        start..floor_char_boundary(text, start + len)
    }

    /// The byte range of the line holding `offset`, without its line end.
    fn line_range(&self, offset: usize) -> Range<usize> {
        let text = self.text();
        let offset = floor_char_boundary(text, offset);
        let line = self.line_index(offset);
        let start = self.inner.line_starts[line];
        let end = self
            .inner
            .line_starts
            .get(line + 1)
            .map_or(text.len(), |next| next - 1);
        start..end
    }
}

/// How much of a long line a diagnostic shows, in characters, before and after the start
/// of its span: a 30 KB line is shown as an excerpt, not copied whole into every error.
const EXCERPT_BEFORE: usize = 40;
const EXCERPT_AFTER: usize = 80;

/// The part of `line` (a line's text) that a diagnostic shows around the byte range
/// `caret`, with `…` where it was cut, and the caret's byte range inside the excerpt.
fn excerpt(line: &str, caret: Range<usize>) -> (String, Range<usize>) {
    if line.len() <= EXCERPT_BEFORE + EXCERPT_AFTER {
        return (line.to_owned(), caret);
    }
    let before = &line[..caret.start];
    let from = before
        .char_indices()
        .rev()
        .nth(EXCERPT_BEFORE - 1)
        .map_or(0, |(i, _)| i);
    let after = &line[caret.start..];
    let to = after
        .char_indices()
        .nth(EXCERPT_AFTER)
        .map_or(line.len(), |(i, _)| caret.start + i);
    let mut shown = String::new();
    if from > 0 {
        shown.push('…');
    }
    let shift = shown.len();
    shown.push_str(&line[from..to]);
    if to < line.len() {
        shown.push('…');
    }
    let start = caret.start - from + shift;
    let end = caret.end.min(to).max(caret.start) - from + shift;
    (shown, start..end)
}

/// `text` with its control characters written as Rust escapes (`\u{1b}`, `\n`, `\t`), and
/// the invisible ones that reorder or hide text (bidirectional controls, zero-width
/// characters) too; `keep` names the ones left as they are. A file named `\x1b[2J.md`
/// cannot clear the screen it is reported on, nor a name with a newline fake a line.
///
/// ```
/// use promptic::diagnostic::escape_controls;
/// assert_eq!(escape_controls("\u{1b}[2J.md", &[]), "\\u{1b}[2J.md");
/// assert_eq!(escape_controls("a\nb\tc", &['\t']), "a\\nb\tc");
/// assert_eq!(escape_controls("naïve \\ \"x\"", &[]), "naïve \\ \"x\"");
/// assert_eq!(escape_controls("abc\u{202e}", &[]), "abc\\u{202e}");
/// ```
pub fn escape_controls<'a>(text: &'a str, keep: &[char]) -> std::borrow::Cow<'a, str> {
    let hidden = |c: char| {
        !keep.contains(&c)
            && (c.is_control()
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'))
    };
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            // `escape_debug` writes `\n`, `\t`, `\r`, `\0` and `\u{..}` for the others.
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
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
/// use promptic::{Diagnostic, SourceFile};
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
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    message: String,
    // Boxed: diagnostics travel in `Result`s, and the error side should stay small.
    location: Option<Box<Location>>,
    help: Option<String>,
    notes: Vec<String>,
}

/// Where a diagnostic points: a file, a byte span in it, and what the span is on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file's display path.
    pub path: String,
    /// Byte span in the file's loaded text.
    pub span: Range<usize>,
    /// 1-based line of the span's start.
    pub line: usize,
    /// 1-based column (in characters) of the span's start.
    pub col: usize,
    /// The text of that line, without its line end; for a long line, the part around the
    /// span, with `…` where it was cut.
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
        let (source_line, caret) = excerpt(&text[line_range], caret_start..caret_end);
        self.location = Some(Box::new(Location {
            path: source.path().to_owned(),
            span: start..end,
            line,
            col,
            source_line,
            caret,
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

// Names, paths and source lines come from files and folders anyone may have written:
// their control characters are shown escaped (see `escape_controls`), so that printing a
// diagnostic cannot drive the terminal or fake a line. Tabs in a source line stay, for the
// caret's alignment; helps and notes keep the line breaks they are written with.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", escape_controls(&self.message, &[]))?;
        let mut gutter = 2;
        if let Some(loc) = &self.location {
            let path = escape_controls(&loc.path, &[]);
            if loc.line == 0 {
                write!(f, "\n --> {path}")?;
            } else {
                let number = loc.line.to_string();
                gutter = number.len() + 1;
                let pad = " ".repeat(gutter);
                write!(
                    f,
                    "\n{}--> {path}:{}:{}",
                    " ".repeat(gutter - 1),
                    loc.line,
                    loc.col
                )?;
                let line = &loc.source_line;
                let before = escape_controls(&line[..loc.caret.start], &['\t']);
                let under = escape_controls(&line[loc.caret.clone()], &['\t']);
                let after = escape_controls(&line[loc.caret.end..], &['\t']);
                write!(f, "\n{pad}|\n{number} | {before}{under}{after}")?;
                let lead: String = before
                    .chars()
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                let width = under.chars().count().max(1);
                write!(f, "\n{pad}| {lead}{}", "^".repeat(width))?;
            }
        }
        let pad = " ".repeat(gutter);
        if let Some(help) = &self.help {
            write!(f, "\n{pad}= help: {}", escape_controls(help, &['\n']))?;
        }
        for note in &self.notes {
            write!(f, "\n{pad}= note: {}", escape_controls(note, &['\n']))?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// Every problem found in one go, shown one after the other.
///
/// A diagnostic identical to one already here is kept once (a template used twice reports
/// its problem once), found by hashing, in constant time. At most [`Diagnostics::PER_KIND`]
/// diagnostics of one kind (the same message, names aside) are kept per file; past that
/// they are counted, and one closing diagnostic says how many more there were.
#[derive(Clone, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>, Seen);

/// What [`Diagnostics`] has seen: hashes of the diagnostics kept, and per file and kind
/// how many there were and where the closing "more" diagnostic stands.
#[derive(Clone, Debug, Default)]
struct Seen {
    kept: HashMap<u64, Vec<usize>>,
    kinds: HashMap<(String, String), Kind>,
}

#[derive(Clone, Debug)]
struct Kind {
    count: usize,
    /// Index of the closing diagnostic, once there is one.
    more: Option<usize>,
}

impl PartialEq for Diagnostics {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for Diagnostics {}

impl Diagnostics {
    /// How many diagnostics of one kind one file reports before the rest are counted.
    pub const PER_KIND: usize = 50;

    /// Adds a diagnostic unless an identical one is already there, or its file already
    /// reported [`Diagnostics::PER_KIND`] of its kind (then it is counted).
    ///
    /// ```
    /// use promptic::{Diagnostic, Diagnostics, SourceFile};
    ///
    /// let source = SourceFile::new("p.md", "${ ".repeat(60));
    /// let mut all = Diagnostics::default();
    /// for i in 0..60 {
    ///     all.push(Diagnostic::new("`${` must be followed by a name and `}`").at(&source, 3 * i..3 * i + 2));
    /// }
    /// assert_eq!(all.0.len(), 51);
    /// assert_eq!(
    ///     all.0[50].message(),
    ///     "10 more errors like \"`${` must be followed by a name and `}`\" in p.md, not shown"
    /// );
    /// ```
    pub fn push(&mut self, diagnostic: Diagnostic) {
        let hash = {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            diagnostic.hash(&mut hasher);
            hasher.finish()
        };
        let same = self.1.kept.get(&hash);
        if same.is_some_and(|at| at.iter().any(|&i| self.0[i] == diagnostic)) {
            return;
        }
        let path = diagnostic
            .location
            .as_ref()
            .map_or_else(String::new, |l| l.path.clone());
        let key = (path, kind_of(&diagnostic.message));
        let kind = self.1.kinds.entry(key).or_insert(Kind {
            count: 0,
            more: None,
        });
        kind.count += 1;
        if kind.count > Self::PER_KIND {
            let hidden = kind.count - Self::PER_KIND;
            let path = diagnostic.location.as_ref().map(|l| l.path.as_str());
            let message = match path {
                Some(path) if !path.is_empty() => format!(
                    "{hidden} more {} like \"{}\" in {path}, not shown",
                    if hidden == 1 { "error" } else { "errors" },
                    diagnostic.message
                ),
                _ => format!(
                    "{hidden} more {} like \"{}\", not shown",
                    if hidden == 1 { "error" } else { "errors" },
                    diagnostic.message
                ),
            };
            match kind.more {
                Some(at) => self.0[at].message = message,
                None => {
                    kind.more = Some(self.0.len());
                    self.0.push(Diagnostic::new(message).with_help(
                        "fix the ones shown and check again; the rest are probably the same mistake",
                    ));
                }
            }
            return;
        }
        self.1.kept.entry(hash).or_default().push(self.0.len());
        self.0.push(diagnostic);
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

/// A diagnostic's kind: its message with the names in backticks and quotes left out, so
/// that "unknown placeholder `$a`" and "unknown placeholder `$b`" are one kind.
fn kind_of(message: &str) -> String {
    let mut kind = String::with_capacity(message.len());
    let mut inside: Option<char> = None;
    for c in message.chars() {
        match inside {
            Some(close) if c == close => inside = None,
            Some(_) => {}
            None if c == '`' || c == '"' => {
                inside = Some(c);
                kind.push(c);
            }
            None => kind.push(c),
        }
    }
    kind
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
        let mut all = Diagnostics::default();
        all.push(d);
        all
    }
}

impl From<Vec<Diagnostic>> for Diagnostics {
    fn from(list: Vec<Diagnostic>) -> Self {
        let mut all = Diagnostics::default();
        all.extend(list);
        all
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

/// As [`Display`](fmt::Display): the diagnostic as the compiler would print it, so that
/// `fn main() -> Result<(), Diagnostic>`, `unwrap` and a failed `assert_eq!` show the
/// file, the line and the caret rather than the fields.
///
/// ```
/// let d = promptic::Diagnostic::new("no value for `day`").with_help("give it with `--set`");
/// assert_eq!(format!("{d:?}"), d.to_string());
/// ```
impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// As [`Display`](fmt::Display): every diagnostic as the compiler would print it.
impl fmt::Debug for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A mistake made in more than one place (a name nothing gives, an optional value used
/// outside its guard): one error, at the first, noting the others: five by file, line and
/// column, and how many more.
///
/// ```
/// use promptic::diagnostic::{Diagnostic, Diagnostics, Repeated};
/// use promptic::SourceFile;
///
/// let source = SourceFile::new("prompts/x.md", "$nme and $nme and $nme");
/// let mut problems = Diagnostics::default();
/// let error = Diagnostic::new("no value `nme`").at(&source, 0..4);
/// let mut found = Repeated::report(&mut problems, error, &source, &(0..4));
/// found.again(&source, &(9..13));
/// found.again(&source, &(18..22));
/// found.note(&mut problems, "also written");
/// assert_eq!(problems.0.len(), 1);
/// assert_eq!(problems.0[0].notes(), ["also written at prompts/x.md:1:10, prompts/x.md:1:19"]);
/// ```
pub struct Repeated {
    /// The error's index in its diagnostics; `None` when they did not keep it (past
    /// [`Diagnostics::PER_KIND`] of its kind, it is only counted).
    error: Option<usize>,
    /// The first few other places (`prompts/x.md:4:20`), which the error notes.
    shown: Vec<String>,
    /// How many other places there are past those.
    more: usize,
    /// Every place seen, by file and offset (a template inlined twice is one place).
    seen: std::collections::HashSet<(String, usize)>,
}

/// How many other places of a repeated mistake its error names.
const REPEATS_SHOWN: usize = 5;

impl Repeated {
    /// Reports `error`, the mistake first made at `span` of `source`, in `diagnostics`.
    pub fn report(
        diagnostics: &mut Diagnostics,
        error: Diagnostic,
        source: &SourceFile,
        span: &Range<usize>,
    ) -> Repeated {
        let mut found = Repeated::report_located(diagnostics, error);
        found.seen.insert((source.path().to_owned(), span.start));
        found
    }

    /// Reports `error` in `diagnostics`, the mistake first made where `error` is located.
    pub fn report_located(diagnostics: &mut Diagnostics, error: Diagnostic) -> Repeated {
        let at = diagnostics.0.len();
        let message = error.message.clone();
        let seen = error
            .location
            .iter()
            .map(|l| (l.path.clone(), l.span.start))
            .collect();
        diagnostics.push(error);
        let kept = diagnostics.0.len() == at + 1 && diagnostics.0[at].message == message;
        Repeated {
            error: kept.then_some(at),
            shown: Vec::new(),
            more: 0,
            seen,
        }
    }

    /// The same mistake, made again at `span` of `source`.
    pub fn again(&mut self, source: &SourceFile, span: &Range<usize>) {
        let (line, col) = source.line_col(span.start);
        self.again_in(source.path(), span.start, line, col);
    }

    /// The same mistake, made again where `location` is.
    pub fn again_at(&mut self, location: &Location) {
        self.again_in(
            &location.path,
            location.span.start,
            location.line,
            location.col,
        );
    }

    fn again_in(&mut self, path: &str, offset: usize, line: usize, col: usize) {
        if !self.seen.insert((path.to_owned(), offset)) {
            return;
        }
        if self.shown.len() < REPEATS_SHOWN {
            self.shown.push(format!("{path}:{line}:{col}"));
        } else {
            self.more += 1;
        }
    }

    /// Adds `note`, followed by the other places, to the error, when there are any.
    pub fn note(&self, diagnostics: &mut Diagnostics, note: &str) {
        if self.shown.is_empty() {
            return;
        }
        let mut places = self.shown.join(", ");
        if self.more > 0 {
            places.push_str(&format!(" and {} more", self.more));
        }
        if let Some(d) = self.error.and_then(|at| diagnostics.0.get_mut(at)) {
            *d = d.clone().with_note(format!("{note} at {places}"));
        }
    }
}

/// Mistakes by what they are about (a name, a path), each reported once, at its first
/// place, noting its others: a [`Repeated`] per key.
///
/// ```
/// use promptic::diagnostic::{Diagnostic, Diagnostics, Repeats};
/// use promptic::SourceFile;
///
/// let source = SourceFile::new("prompts/x.md", "$nme and $nme");
/// let (mut problems, mut repeats) = (Diagnostics::default(), Repeats::default());
/// for span in [0..4, 9..13] {
///     if !repeats.again("nme", &source, &span) {
///         let error = Diagnostic::new("no value `nme`").at(&source, span.clone());
///         repeats.report("nme", &mut problems, error, &source, &span);
///     }
/// }
/// repeats.note(&mut problems, "also written");
/// assert_eq!(problems.0.len(), 1);
/// assert_eq!(problems.0[0].notes(), ["also written at prompts/x.md:1:10"]);
/// ```
#[derive(Default)]
pub struct Repeats(std::collections::HashMap<String, Repeated>);

impl Repeats {
    /// Whether the mistake about `key` was reported; if so, `span` of `source` is noted as
    /// another of its places.
    pub fn again(&mut self, key: &str, source: &SourceFile, span: &Range<usize>) -> bool {
        match self.0.get_mut(key) {
            Some(found) => {
                found.again(source, span);
                true
            }
            None => false,
        }
    }

    /// Whether the mistake about `key` was reported; if so, where `located` is located is
    /// noted as another of its places.
    pub fn again_at(&mut self, key: &str, located: &Diagnostic) -> bool {
        match self.0.get_mut(key) {
            Some(found) => {
                if let Some(location) = located.location() {
                    found.again_at(location);
                }
                true
            }
            None => false,
        }
    }

    /// Reports `error`, the mistake about `key` first made at `span` of `source`.
    pub fn report(
        &mut self,
        key: &str,
        diagnostics: &mut Diagnostics,
        error: Diagnostic,
        source: &SourceFile,
        span: &Range<usize>,
    ) {
        let found = Repeated::report(diagnostics, error, source, span);
        self.0.insert(key.to_owned(), found);
    }

    /// Reports `error`, the mistake about `key` first made where `error` is located.
    pub fn report_located(&mut self, key: &str, diagnostics: &mut Diagnostics, error: Diagnostic) {
        let found = Repeated::report_located(diagnostics, error);
        self.0.insert(key.to_owned(), found);
    }

    /// Adds `note` and the other places to each error that has any.
    pub fn note(&self, diagnostics: &mut Diagnostics, note: &str) {
        for found in self.0.values() {
            found.note(diagnostics, note);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_at_a_line_and_column_covers_the_name_and_never_passes_the_end() {
        let source = SourceFile::new("p.md", "first\nsé $headr and ${x_y}\n{% if mood %}");
        assert_eq!(&source.text()[source.span_at(2, 4)], "$headr");
        assert_eq!(&source.text()[source.span_at(2, 15)], "${x_y}");
        assert_eq!(&source.text()[source.span_at(3, 7)], "mood");
        let end = source.text().len();
        assert_eq!(source.span_at(9, 9), end..end);
    }

    #[test]
    fn control_characters_in_paths_messages_and_lines_are_shown_escaped() {
        let source = SourceFile::new("p/\u{1b}[2J\n.md", "a\u{7}\tb $x\u{1b} c");
        // The caret stands under `x` and the escaped ESC after it.
        let d = Diagnostic::new("`\u{1b}[2J` is bad")
            .at(&source, 6..8)
            .with_help("one\ntwo\u{1b}")
            .with_note("n\u{9b}");
        assert_eq!(
            d.to_string(),
            "error: `\\u{1b}[2J` is bad\n --> p/\\u{1b}[2J\\n.md:1:7\n  |\n1 | a\\u{7}\tb $x\\u{1b} c\n  |       \t   ^^^^^^^\n  = help: one\ntwo\\u{1b}\n  = note: n\\u{9b}"
        );
    }

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
    fn a_long_line_is_shown_as_an_excerpt_around_the_span() {
        let line = format!("{}$bad{}", "a".repeat(5000), "é".repeat(5000));
        let s = SourceFile::new("p.md", format!("first\n{line}\nlast"));
        let d = Diagnostic::new("unknown").at(&s, 6 + 5000..6 + 5004);
        let loc = d.location().unwrap();
        assert_eq!((loc.line, loc.col), (2, 5001));
        assert_eq!(
            loc.source_line,
            format!("…{}$bad{}…", "a".repeat(40), "é".repeat(76))
        );
        assert!(
            d.to_string()
                .contains(&format!("\n  | {}^^^^", " ".repeat(41)))
        );
        // a span at the very start or end of a long line
        let d = Diagnostic::new("x").at(&s, 6..7);
        assert!(d.location().unwrap().source_line.starts_with("aaa"));
        let end = 6 + line.len();
        let d = Diagnostic::new("x").at(&s, end - 2..end);
        let shown = &d.location().unwrap().source_line;
        assert!(shown.starts_with('…') && shown.ends_with('é'), "{shown}");
    }

    #[test]
    fn line_col_uses_the_index_on_every_line() {
        let s = SourceFile::new("p.md", "a\n\néx\n");
        assert_eq!(s.line_col(1), (1, 2));
        assert_eq!(s.line_col(2), (2, 1));
        assert_eq!(s.line_col(3), (3, 1));
        assert_eq!(s.line_col(5), (3, 2));
        assert_eq!(s.line_col(7), (4, 1));
    }

    #[test]
    fn many_of_one_kind_are_counted_per_file() {
        let a = SourceFile::new("a.md", "x".repeat(200));
        let b = SourceFile::new("b.md", "x".repeat(200));
        let mut all = Diagnostics::default();
        for i in 0..120 {
            all.push(Diagnostic::new(format!("unknown placeholder `$n{i}`")).at(&a, i..i + 1));
        }
        all.push(Diagnostic::new("unknown placeholder `$z`").at(&b, 0..1));
        all.push(Diagnostic::new("another kind").at(&a, 0..1));
        let messages: Vec<&str> = all.0.iter().map(Diagnostic::message).collect();
        assert_eq!(messages.len(), 53);
        assert_eq!(
            messages[50],
            "70 more errors like \"unknown placeholder `$n119`\" in a.md, not shown"
        );
        assert_eq!(messages[51], "unknown placeholder `$z`");
        assert_eq!(messages[52], "another kind");
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
