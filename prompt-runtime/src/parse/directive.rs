//! Block directives: `{% keyword args %}` on a line of its own.
//!
//! A directive is read as a keyword plus arguments (names, string literals, integers,
//! `==`), each with its span, so that new directives (sections, history, includes) add a
//! keyword, not a new syntax.

use crate::diagnostic::{Diagnostic, SourceFile};
use std::ops::Range;

/// One `{% ... %}` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// The keyword (`if`, `else`, `endif`) and its span.
    pub keyword: Word,
    /// The arguments after the keyword.
    pub args: Vec<Arg>,
    /// From `{%` to `%}` inclusive.
    pub span: Range<usize>,
}

/// A name with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The text.
    pub text: String,
    /// Its byte span in the file.
    pub span: Range<usize>,
}

/// One argument of a directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// What it is.
    pub kind: ArgKind,
    /// Its byte span in the file.
    pub span: Range<usize>,
}

/// The kinds of directive arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A name: `note`.
    Name(String),
    /// A string literal, unescaped: `"lean"`.
    Str(String),
    /// A non-negative integer: `10`.
    Int(u64),
    /// `==`.
    Eq,
    /// `=`, as in `limit=10`.
    Assign,
}

impl ArgKind {
    /// How the argument is described in messages.
    pub fn describe(&self) -> String {
        match self {
            ArgKind::Name(n) => format!("name `{n}`"),
            ArgKind::Str(s) => format!("string {s:?}"),
            ArgKind::Int(i) => format!("integer `{i}`"),
            ArgKind::Eq => "`==`".to_owned(),
            ArgKind::Assign => "`=`".to_owned(),
        }
    }
}

/// Lexes the directive whose `{%` starts at `start` and whose `%}` ends at `end` (exclusive).
pub fn lex(source: &SourceFile, span: Range<usize>) -> Result<Directive, Diagnostic> {
    let text = source.text();
    let inner_start = span.start + 2;
    let inner_end = span.end - 2;
    let bytes = text.as_bytes();
    let mut words: Vec<Arg> = Vec::new();
    let mut i = inner_start;
    while i < inner_end {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if super::lexer::is_name_start(c) {
            let start = i;
            while i < inner_end && super::lexer::is_name_continue(bytes[i]) {
                i += 1;
            }
            words.push(Arg {
                kind: ArgKind::Name(text[start..i].to_owned()),
                span: start..i,
            });
        } else if c.is_ascii_digit() {
            let start = i;
            while i < inner_end && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let value = text[start..i].parse::<u64>().map_err(|_| {
                Diagnostic::new("integer too large in directive").at(source, start..i)
            })?;
            words.push(Arg {
                kind: ArgKind::Int(value),
                span: start..i,
            });
        } else if c == b'"' {
            let start = i;
            let mut value = String::new();
            i += 1;
            loop {
                let Some(ch) = text[i..inner_end].chars().next() else {
                    return Err(Diagnostic::new("unterminated string in directive")
                        .at(source, start..inner_end)
                        .with_help("close the string with `\"`"));
                };
                i += ch.len_utf8();
                match ch {
                    '"' => break,
                    '\\' => match text[i..inner_end].chars().next() {
                        Some(esc @ ('"' | '\\')) => {
                            value.push(esc);
                            i += 1;
                        }
                        _ => {
                            return Err(Diagnostic::new("unknown escape in directive string")
                                .at(source, i - 1..i + 1)
                                .with_help("only `\\\"` and `\\\\` are escapes"));
                        }
                    },
                    ch => value.push(ch),
                }
            }
            words.push(Arg {
                kind: ArgKind::Str(value),
                span: start..i,
            });
        } else if text[i..inner_end].starts_with("==") {
            words.push(Arg {
                kind: ArgKind::Eq,
                span: i..i + 2,
            });
            i += 2;
        } else if c == b'=' {
            words.push(Arg {
                kind: ArgKind::Assign,
                span: i..i + 1,
            });
            i += 1;
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            let help = if ch == '=' {
                "did you mean `==`? a comparison is `{% if name == \"value\" %}`"
            } else {
                "a directive is a keyword and arguments: `{% if name %}`, `{% if name == \"value\" %}`, `{% else %}`, `{% endif %}`"
            };
            return Err(Diagnostic::new(format!("unexpected `{ch}` in directive"))
                .at(source, i..i + ch.len_utf8())
                .with_help(help));
        }
    }
    let mut words = words.into_iter();
    match words.next() {
        Some(Arg {
            kind: ArgKind::Name(keyword),
            span: keyword_span,
        }) => Ok(Directive {
            keyword: Word {
                text: keyword,
                span: keyword_span,
            },
            args: words.collect(),
            span,
        }),
        Some(other) => Err(Diagnostic::new(format!(
            "a directive starts with a keyword, found {}",
            other.kind.describe()
        ))
        .at(source, other.span)),
        None => Err(Diagnostic::new("empty directive")
            .at(source, span)
            .with_help("write `{% if name %}`, `{% else %}` or `{% endif %}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex_str(text: &str) -> Result<Directive, Diagnostic> {
        let source = SourceFile::new("p.md", text);
        lex(&source, 0..text.len())
    }

    #[test]
    fn keyword_and_args_with_spans() {
        let d = lex_str("{% if level == \"le\\\"an\" %}").unwrap();
        assert_eq!(d.keyword.text, "if");
        assert_eq!(d.keyword.span, 3..5);
        let kinds: Vec<_> = d.args.iter().map(|a| a.kind.clone()).collect();
        assert_eq!(
            kinds,
            [
                ArgKind::Name("level".into()),
                ArgKind::Eq,
                ArgKind::Str("le\"an".into())
            ]
        );
        assert_eq!(d.args[0].span, 6..11);
        let d = lex_str("{% history 10 %}").unwrap();
        assert_eq!(d.args[0].kind, ArgKind::Int(10));
    }

    #[test]
    fn errors() {
        assert!(
            lex_str("{% %}")
                .unwrap_err()
                .message()
                .contains("empty directive")
        );
        assert!(
            lex_str("{% if \"x %}")
                .unwrap_err()
                .message()
                .contains("unterminated")
        );
        // `=` lexes (for `limit=10`); `if` refuses it with a suggestion.
        assert_eq!(
            lex_str("{% history t limit=3 %}").unwrap().args[2].kind,
            ArgKind::Assign
        );
        assert!(
            lex_str("{% \"x\" %}")
                .unwrap_err()
                .message()
                .contains("starts with a keyword")
        );
        assert!(
            lex_str("{% if 99999999999999999999999 %}")
                .unwrap_err()
                .message()
                .contains("too large")
        );
    }
}
