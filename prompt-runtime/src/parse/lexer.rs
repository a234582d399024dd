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
/// use prompt_runtime::parse::lexer::{tokenize, Token};
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

    #[test]
    fn names() {
        assert!(is_name("day_YYYYMMDD"));
        assert!(is_name("_"));
        assert!(!is_name("1a"));
        assert!(!is_name(""));
        assert!(!is_name("é"));
    }
}
