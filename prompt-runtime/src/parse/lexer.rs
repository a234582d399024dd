//! The placeholder lexer: where `$` starts something, by Python `string.Template` rules.
//!
//! At each `$`, in this order: `$$` is an escaped dollar; `$name` a named placeholder
//! (name = ASCII `[_A-Za-z][_A-Za-z0-9]*`, longest run); `${name}` a braced placeholder;
//! `${` followed by anything else is invalid; any other `$` is literal text. This is the
//! one lexer for `$` syntax: the strict parser and [`crate::safe_substitute`] both use it
//! and only differ in what they do with [`Token::InvalidBrace`].

use std::ops::Range;

/// One piece of text as the lexer sees it. Spans are byte offsets into the lexed text
/// (plus the offset the lexer was started with) and always lie on character boundaries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// Literal text, lone `$` signs included.
    Text(Range<usize>),
    /// `$$`, which stands for one `$`.
    Escape(Range<usize>),
    /// `$name` or `${name}`.
    Placeholder {
        /// The whole placeholder, `$` and braces included.
        span: Range<usize>,
        /// The name alone.
        name: Range<usize>,
        /// Written as `${name}`.
        braced: bool,
    },
    /// A `$` followed by `{` that does not open `${name}`. `span` covers the `$` only:
    /// Python treats it as a literal `$` and goes on with the `{`.
    InvalidBrace(Range<usize>),
}

/// Splits `text` into tokens; spans are shifted by `base`.
///
/// ```
/// use promptic::parse::lexer::{tokenize, Token};
///
/// let tokens = tokenize("$5 and ${day}", 0);
/// assert_eq!(tokens[0], Token::Text(0..7));
/// assert_eq!(tokens[1], Token::Placeholder { span: 7..13, name: 9..12, braced: true });
/// ```
pub fn tokenize(text: &str, base: usize) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut text_start = 0;
    let mut i = 0;
    let flush = |tokens: &mut Vec<Token>, from: usize, to: usize| {
        if from < to {
            match tokens.last_mut() {
                Some(Token::Text(prev)) if prev.end == base + from => prev.end = base + to,
                _ => tokens.push(Token::Text(base + from..base + to)),
            }
        }
    };
    while let Some(found) = text[i..].find('$') {
        let at = i + found;
        let next = bytes.get(at + 1).copied();
        match next {
            Some(b'$') => {
                flush(&mut tokens, text_start, at);
                tokens.push(Token::Escape(base + at..base + at + 2));
                i = at + 2;
                text_start = i;
            }
            Some(c) if is_name_start(c) => {
                let end = name_end(bytes, at + 1);
                flush(&mut tokens, text_start, at);
                tokens.push(Token::Placeholder {
                    span: base + at..base + end,
                    name: base + at + 1..base + end,
                    braced: false,
                });
                i = end;
                text_start = i;
            }
            Some(b'{') => {
                let name_start = at + 2;
                let braced_end = match bytes.get(name_start) {
                    Some(&c) if is_name_start(c) => {
                        let end = name_end(bytes, name_start);
                        (bytes.get(end) == Some(&b'}')).then_some(end)
                    }
                    _ => None,
                };
                flush(&mut tokens, text_start, at);
                match braced_end {
                    Some(end) => {
                        tokens.push(Token::Placeholder {
                            span: base + at..base + end + 1,
                            name: base + name_start..base + end,
                            braced: true,
                        });
                        i = end + 1;
                    }
                    None => {
                        tokens.push(Token::InvalidBrace(base + at..base + at + 1));
                        i = at + 1;
                    }
                }
                text_start = i;
            }
            // Any other `$` is literal text and stays in the current run.
            _ => i = at + 1,
        }
    }
    flush(&mut tokens, text_start, text.len());
    tokens
}

/// How placeholders are written in a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// `$name`, `${name}`, `$$`: Python `string.Template`, the default.
    #[default]
    Dollar,
    /// `{{name}}` or `{{ name }}` (frontmatter `"placeholders": "braces"`); `$` is text.
    Braces,
    /// `{{name}}` with nothing inside but the name, PromptEngine's rule: anything else,
    /// `{{ name }}` or an unclosed `{{name` included, is text.
    TightBraces,
    /// keep's agent prompts (frontmatter `"placeholders": "keep"`): `{name}`,
    /// `{name|fallback}`, `{find:deep:3000}`, read and rendered by
    /// [`AgentPrompt`](crate::formats::keep::AgentPrompt). To this lexer the whole body
    /// is text.
    Keep,
}

impl Syntax {
    /// Splits `text` into tokens in this syntax; spans are shifted by `base`.
    pub fn tokenize(self, text: &str, base: usize) -> Vec<Token> {
        match self {
            Syntax::Dollar => tokenize(text, base),
            Syntax::Braces => tokenize_braces(text, base, true),
            Syntax::TightBraces => tokenize_braces(text, base, false),
            Syntax::Keep if text.is_empty() => Vec::new(),
            Syntax::Keep => vec![Token::Text(base..base + text.len())],
        }
    }

    /// How a placeholder named `name` is written in this syntax.
    ///
    /// ```
    /// use promptic::parse::lexer::Syntax;
    /// assert_eq!(Syntax::Dollar.write("day"), "$day");
    /// assert_eq!(Syntax::Braces.write("day"), "{{day}}");
    /// ```
    pub fn write(self, name: &str) -> String {
        match self {
            Syntax::Dollar => format!("${name}"),
            Syntax::Braces | Syntax::TightBraces => format!("{{{{{name}}}}}"),
            Syntax::Keep => format!("{{{name}}}"),
        }
    }
}

/// Splits `text` written with `{{name}}` placeholders into tokens. With `spaces`, spaces
/// and tabs may stand around the name (`{{ name }}`), and a `{{` followed by a name that is
/// not closed by `}}` on its line is [`Token::InvalidBrace`]; without, only `{{name}}` is
/// a placeholder and everything else is text. A `{{` not followed by a name is text, and
/// `$` is text.
///
/// ```
/// use promptic::parse::lexer::{tokenize_braces, Token};
///
/// let tokens = tokenize_braces("Hi {{ name }}, {{#x}}", 0, true);
/// assert_eq!(tokens[1], Token::Placeholder { span: 3..13, name: 6..10, braced: true });
/// assert_eq!(tokens[2], Token::Text(13..21));
/// ```
pub fn tokenize_braces(text: &str, base: usize, spaces: bool) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    // Where the line ends and where the next `}}` is, each searched for once: a line of
    // many `{{name` without a close is read once, not once per `{{`.
    let mut newline = Forward::default();
    let mut closing = Forward::default();
    let mut text_start = 0;
    let mut i = 0;
    let blank = |c: u8| spaces && (c == b' ' || c == b'\t');
    while let Some(found) = text[i..].find("{{") {
        let at = i + found;
        let mut name_start = at + 2;
        while name_start < bytes.len() && blank(bytes[name_start]) {
            name_start += 1;
        }
        if !bytes.get(name_start).is_some_and(|&c| is_name_start(c)) {
            // Not a placeholder: the first `{` is text, the next may open one (`{{{x}}`).
            i = at + 1;
            continue;
        }
        let name_end = name_end(bytes, name_start);
        let mut close = name_end;
        while close < bytes.len() && blank(bytes[close]) {
            close += 1;
        }
        if text[close..].starts_with("}}") {
            if text_start < at {
                tokens.push(Token::Text(base + text_start..base + at));
            }
            tokens.push(Token::Placeholder {
                span: base + at..base + close + 2,
                name: base + name_start..base + name_end,
                braced: true,
            });
            i = close + 2;
            text_start = i;
            continue;
        }
        // Only with spaces is an unclosed `{{name` an error: PromptEngine reads it as text.
        let unclosed = spaces && {
            let line_end = newline.find(text, "\n", at).unwrap_or(text.len());
            closing
                .find(text, "}}", name_end)
                .is_none_or(|p| p + 2 > line_end)
        };
        if unclosed {
            if text_start < at {
                tokens.push(Token::Text(base + text_start..base + at));
            }
            // `{{name` and what follows stay text, as after an unclosed `${`.
            tokens.push(Token::InvalidBrace(base + at..base + name_end));
            i = name_end;
            text_start = name_end;
            continue;
        }
        i = at + 1;
    }
    if text_start < text.len() {
        match tokens.last_mut() {
            Some(Token::Text(prev)) if prev.end == base + text_start => {
                prev.end = base + text.len()
            }
            _ => tokens.push(Token::Text(base + text_start..base + text.len())),
        }
    }
    tokens
}

/// The first place of a pattern at or after an offset, for scans that move forward: a
/// search is made again only when the offset has passed what the last one found, so the
/// scan reads its text a bounded number of times however often it asks.
#[derive(Debug, Default)]
pub(crate) struct Forward {
    /// The offset last searched from and what was found.
    cached: Option<(usize, Option<usize>)>,
}

impl Forward {
    /// The first `pattern` in `text` at or after `from`.
    pub(crate) fn find(&mut self, text: &str, pattern: &str, from: usize) -> Option<usize> {
        match self.cached {
            // Nothing from an earlier offset: nothing from this one either. A match at or
            // after this offset is the first one from here too.
            Some((searched, None)) if searched <= from => None,
            Some((searched, Some(p))) if searched <= from && p >= from => Some(p),
            _ => {
                let found = text.get(from..)?.find(pattern).map(|i| from + i);
                #[cfg(test)]
                SCANNED.with(|s| {
                    s.set(s.get() + found.map_or(text.len(), |p| p + pattern.len()) - from)
                });
                self.cached = Some((from, found));
                found
            }
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Bytes the [`Forward`] searches have read in this thread, for the scaling tests.
    pub(crate) static SCANNED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// True for the bytes that may start a placeholder name.
pub fn is_name_start(c: u8) -> bool {
    c == b'_' || c.is_ascii_alphabetic()
}

/// True for the bytes that may continue a placeholder name.
pub fn is_name_continue(c: u8) -> bool {
    c == b'_' || c.is_ascii_alphanumeric()
}

/// True when `name` is a whole placeholder name.
pub fn is_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first().is_some_and(|&c| is_name_start(c)) && bytes.iter().all(|&c| is_name_continue(c))
}

fn name_end(bytes: &[u8], start: usize) -> usize {
    let mut end = start;
    while end < bytes.len() && is_name_continue(bytes[end]) {
        end += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str) -> Vec<String> {
        tokenize(text, 0)
            .into_iter()
            .map(|t| match t {
                Token::Text(r) => format!("T({})", &text[r]),
                Token::Escape(_) => "$$".to_owned(),
                Token::Placeholder { name, braced, .. } => {
                    format!("{}({})", if braced { "B" } else { "N" }, &text[name])
                }
                Token::InvalidBrace(_) => "INV".to_owned(),
            })
            .collect()
    }

    #[test]
    fn python_cases() {
        assert_eq!(show("$"), ["T($)"]);
        assert_eq!(show("a$"), ["T(a$)"]);
        assert_eq!(show("$$"), ["$$"]);
        assert_eq!(show("$$$a"), ["$$", "N(a)"]);
        assert_eq!(show("${}"), ["INV", "T({})"]);
        assert_eq!(show("${ a }"), ["INV", "T({ a })"]);
        assert_eq!(show("${a"), ["INV", "T({a)"]);
        assert_eq!(show("$1"), ["T($1)"]);
        assert_eq!(show("$_"), ["N(_)"]);
        assert_eq!(show("$é"), ["T($é)"]);
        assert_eq!(show("$\u{212A}"), ["T($\u{212A})"]);
        assert_eq!(show("$a$b"), ["N(a)", "N(b)"]);
        assert_eq!(show("${a}b"), ["B(a)", "T(b)"]);
        assert_eq!(show("$a.b,"), ["N(a)", "T(.b,)"]);
        assert_eq!(show("$5 and $$5"), ["T($5 and )", "$$", "T(5)"]);
    }

    #[test]
    fn spans_are_shifted_by_base() {
        assert_eq!(
            tokenize("x$ab", 10),
            [
                Token::Text(10..11),
                Token::Placeholder {
                    span: 11..14,
                    name: 12..14,
                    braced: false
                }
            ]
        );
    }

    fn show_braces(text: &str, spaces: bool) -> Vec<String> {
        tokenize_braces(text, 0, spaces)
            .into_iter()
            .map(|t| match t {
                Token::Text(r) => format!("T({})", &text[r]),
                Token::Escape(_) => "$$".to_owned(),
                Token::Placeholder { name, .. } => format!("P({})", &text[name]),
                Token::InvalidBrace(r) => format!("INV({})", &text[r]),
            })
            .collect()
    }

    #[test]
    fn braces() {
        assert_eq!(show_braces("{{a}}", true), ["P(a)"]);
        assert_eq!(
            show_braces("x {{ a\t}} y", true),
            ["T(x )", "P(a)", "T( y)"]
        );
        assert_eq!(
            show_braces("$a {{b}}{{c}}", true),
            ["T($a )", "P(b)", "P(c)"]
        );
        assert_eq!(show_braces("{{{a}}}", true), ["T({)", "P(a)", "T(})"]);
        assert_eq!(
            show_braces("{{}} {{ }} {{#if}} {{1}}", true),
            ["T({{}} {{ }} {{#if}} {{1}})"]
        );
        assert_eq!(show_braces("{{a b}}", true), ["T({{a b}})"]);
        assert_eq!(show_braces("{{name\n}}", true), ["INV({{name)", "T(\n}})"]);
        assert_eq!(show_braces("{{ é }}", true), ["T({{ é }})"]);
        assert_eq!(show_braces("{", true), ["T({)"]);
        assert_eq!(show_braces("{{", true), ["T({{)"]);
        // PromptEngine's rule: only `{{name}}`.
        assert_eq!(show_braces("{{ a }} {{b}}", false), ["T({{ a }} )", "P(b)"]);
        assert_eq!(show_braces("{{name", false), ["T({{name)"]);
    }

    #[test]
    fn unclosed_braces_are_read_in_linear_time() {
        // Each `{{name` looks for its `}}` and its line's end: found once, not once per
        // `{{` (50,000 of them in 200 KB took 70 s before).
        for text in [
            "{{a ".repeat(20_000),
            "{{a ".repeat(20_000) + "\n}}",
            "{{a\n".repeat(20_000),
            "{{ a b ".repeat(20_000) + "}}",
        ] {
            SCANNED.with(|s| s.set(0));
            let _ = tokenize_braces(&text, 0, true);
            let scanned = SCANNED.with(|s| s.get());
            assert!(
                // Every search goes through `Forward`, which reads the text about once.
                (text.len() / 2..=4 * text.len()).contains(&scanned),
                "{scanned} bytes read for {}",
                text.len()
            );
        }
        assert_eq!(
            show_braces("{{a {{b\n{{c}} {{d e}}", true),
            [
                "INV({{a)",
                "T( )",
                "INV({{b)",
                "T(\n)",
                "P(c)",
                "T( {{d e}})"
            ]
        );
    }

    #[test]
    fn names() {
        assert!(is_name("day_YYYYMMDD"));
        assert!(is_name("_"));
        assert!(!is_name("1a"));
        assert!(!is_name(""));
        assert!(!is_name("é"));
    }
}
