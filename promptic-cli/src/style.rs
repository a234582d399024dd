//! Color for terminals. Diagnostics are formatted by the language's own `Display`; this
//! module only paints the finished text, line by line, so the CLI and the macro never
//! differ in what they say. Color is used when the stream is a terminal and `NO_COLOR` is
//! unset or empty (<https://no-color.org>).

use prompt_runtime::{Diagnostic, Diagnostics};
use std::io::{IsTerminal, Write};

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const BOLD_RED: &str = "\x1b[1;31m";
const BOLD_YELLOW: &str = "\x1b[1;33m";
const BOLD_BLUE: &str = "\x1b[1;34m";
const BOLD_GREEN: &str = "\x1b[1;32m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";

/// Whether to paint a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    color: bool,
}

impl Style {
    /// Color when stderr is a terminal and `NO_COLOR` allows it.
    pub fn stderr() -> Style {
        Style::when(std::io::stderr().is_terminal())
    }

    /// Color when stdout is a terminal and `NO_COLOR` allows it.
    pub fn stdout() -> Style {
        Style::when(std::io::stdout().is_terminal())
    }

    /// Never color (for tests of what a pipe receives).
    #[cfg(test)]
    pub fn plain() -> Style {
        Style { color: false }
    }

    fn when(terminal: bool) -> Style {
        let refused = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            color: terminal && !refused,
        }
    }

    /// `text` in bold red, for "broken" and the like.
    pub fn alarm(self, text: &str) -> String {
        self.paint(BOLD_RED, text)
    }

    /// A diff's `---`/`+++` header line, bold.
    pub fn diff_header(self, line: &str) -> String {
        self.paint(BOLD, line)
    }

    /// A diff's `@@` hunk line, cyan.
    pub fn hunk(self, line: &str) -> String {
        self.paint(CYAN, line)
    }

    /// A diff's `-` line (the text only the first side has), red.
    pub fn deleted(self, line: &str) -> String {
        self.paint(RED, line)
    }

    /// A diff's `+` line (the text only the second side has), green.
    pub fn inserted(self, line: &str) -> String {
        self.paint(GREEN, line)
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.color && !text.is_empty() {
            format!("{code}{text}{RESET}")
        } else {
            text.to_owned()
        }
    }

    /// Paints a formatted diagnostic: `error` bold red (`warning` yellow), the message bold,
    /// `-->`, the gutter and `=` blue, the carets red, `help` green. The source line is
    /// never touched.
    pub fn diagnostic(self, text: &str) -> String {
        if !self.color {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len() + 64);
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&self.line(line));
        }
        out
    }

    fn line(self, line: &str) -> String {
        for (label, code) in [("error", BOLD_RED), ("warning", BOLD_YELLOW)] {
            if let Some(message) = line
                .strip_prefix(label)
                .and_then(|rest| rest.strip_prefix(':'))
            {
                return format!(
                    "{}{}",
                    self.paint(code, label),
                    self.paint(BOLD, &format!(":{message}"))
                );
            }
        }
        let body = line.trim_start_matches(' ');
        let indent = &line[..line.len() - body.len()];
        if let Some(path) = body.strip_prefix("-->") {
            return format!("{indent}{}{path}", self.paint(BOLD_BLUE, "-->"));
        }
        if let Some(rest) = body.strip_prefix("= ") {
            for (label, code) in [("help:", BOLD_GREEN), ("note:", BOLD)] {
                if let Some(text) = rest.strip_prefix(label) {
                    return format!(
                        "{indent}{} {}{text}",
                        self.paint(BOLD_BLUE, "="),
                        self.paint(code, label)
                    );
                }
            }
        }
        // The gutter: spaces or a line number, then `|`.
        if let Some(bar) = line.find('|') {
            let (gutter, rest) = line.split_at(bar);
            let rest = &rest[1..];
            let number = gutter.trim();
            if gutter.ends_with(' ') && number.bytes().all(|b| b.is_ascii_digit()) {
                let carets = rest.trim_start();
                let rest =
                    if number.is_empty() && !carets.is_empty() && carets.bytes().all(|b| b == b'^')
                    {
                        let lead = &rest[..rest.len() - carets.len()];
                        format!("{lead}{}", self.paint(BOLD_RED, carets))
                    } else {
                        rest.to_owned()
                    };
                return format!("{}{rest}", self.paint(BOLD_BLUE, &format!("{gutter}|")));
            }
        }
        line.to_owned()
    }
}

/// Prints problems to stderr, a blank line between them.
pub fn eprint_diagnostics(problems: &Diagnostics) {
    let style = Style::stderr();
    let mut stderr = std::io::stderr().lock();
    for (i, d) in problems.0.iter().enumerate() {
        let sep = if i > 0 { "\n" } else { "" };
        // A closed stderr leaves nowhere to report to; the exit code still tells.
        let _ = writeln!(stderr, "{sep}{}", style.diagnostic(&d.to_string()));
    }
}

/// Prints warnings to stderr, each followed by a blank line (as rustc does), so that
/// errors printed after them stand apart.
pub fn eprint_warnings(warnings: &[Diagnostic]) {
    let style = Style::stderr();
    let mut stderr = std::io::stderr().lock();
    for d in warnings {
        let _ = writeln!(stderr, "{}\n", style.diagnostic(&warning_text(d)));
    }
}

/// The diagnostic's text as a warning: the language's text with its first word changed.
/// A name, a path or another piece of a file as the CLI prints it: control characters
/// escaped (`\u{1b}`), so that a file named to drive the terminal, or with a newline to
/// fake a line, prints as what it is. The one helper for every name printed; diagnostics
/// escape theirs the same way when displayed.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    prompt_runtime::diagnostic::escape_controls(text, &[])
}

pub fn warning_text(d: &Diagnostic) -> String {
    let text = d.to_string();
    match text.strip_prefix("error:") {
        Some(rest) => format!("warning:{rest}"),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::Style;

    const TEXT: &str = "error: unknown directive `endfi`\n --> p/typo.md:6:4\n  |\n6 | {% endfi %} | x\n  |    ^^^^^\n  = help: did you mean `endif`?";

    #[test]
    fn diff_lines_are_red_green_and_cyan_only_in_color() {
        let color = Style { color: true };
        assert_eq!(color.deleted("-a"), "\x1b[31m-a\x1b[0m");
        assert_eq!(color.inserted("+a"), "\x1b[32m+a\x1b[0m");
        assert_eq!(color.hunk("@@ -1 +1 @@"), "\x1b[36m@@ -1 +1 @@\x1b[0m");
        assert_eq!(color.diff_header("--- a"), "\x1b[1m--- a\x1b[0m");
        let plain = Style { color: false };
        assert_eq!(plain.deleted("-a"), "-a");
        assert_eq!(plain.hunk("@@ -1 +1 @@"), "@@ -1 +1 @@");
    }

    #[test]
    fn plain_style_changes_nothing() {
        assert_eq!(Style { color: false }.diagnostic(TEXT), TEXT);
    }

    #[test]
    fn color_paints_labels_and_gutter_but_not_the_source() {
        let painted = Style { color: true }.diagnostic(TEXT);
        let lines: Vec<&str> = painted.lines().collect();
        assert_eq!(
            lines[0],
            "\x1b[1;31merror\x1b[0m\x1b[1m: unknown directive `endfi`\x1b[0m"
        );
        assert_eq!(lines[1], " \x1b[1;34m-->\x1b[0m p/typo.md:6:4");
        assert_eq!(lines[2], "\x1b[1;34m  |\x1b[0m");
        assert_eq!(lines[3], "\x1b[1;34m6 |\x1b[0m {% endfi %} | x");
        assert_eq!(lines[4], "\x1b[1;34m  |\x1b[0m    \x1b[1;31m^^^^^\x1b[0m");
        assert_eq!(
            lines[5],
            "  \x1b[1;34m=\x1b[0m \x1b[1;32mhelp:\x1b[0m did you mean `endif`?"
        );
        // stripping the escapes gives the text back
        let stripped = strip(&painted);
        assert_eq!(stripped, TEXT);
    }

    fn strip(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }
}
