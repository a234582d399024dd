//! Splits a Handlebars body into text and tags, and a tag into tokens.
//!
//! A tag is `{{...}}` (with `{{{...}}}`, `{{!...}}`, `{{!--...--}}`, `{{#`, `{{/`, `{{>`,
//! `{{else}}` and `~` on either side); `\{{` writes `{{` literally. Tokens follow
//! Handlebars' lexer: identifiers are runs of anything but whitespace and its punctuation.

use super::ast::Span;
use super::value::Value;

/// What a tag opens with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagKind {
    /// `{{x}}`, `{{{x}}}`, `{{& x}}`.
    Mustache,
    /// `{{#name ...}}`.
    Open,
    /// `{{/name}}`.
    Close,
    /// `{{else}}` or `{{^}}`.
    Else,
    /// `{{> name}}`.
    Partial,
    /// `{{! ... }}`, `{{!-- ... --}}`.
    Comment,
    /// Syntax dotprompt's Handlebars has and promptic does not: `{{^x}}` inverse
    /// sections, `{{#> }}` partial blocks, `{{#* }}` decorators, `{{{{raw}}}}` blocks.
    Unsupported(&'static str),
}

/// One tag: its kind, `~` on each side, the text between the delimiters and where it is.
#[derive(Clone, Debug)]
pub(crate) struct Tag {
    pub kind: TagKind,
    /// `{{~`: strip the whitespace before.
    pub strip_open: bool,
    /// `~}}`: strip the whitespace after.
    pub strip_close: bool,
    /// The text inside, without the sigil; its offset in the source.
    pub inner: Span,
    /// The whole tag.
    pub span: Span,
}

/// Text or a tag.
#[derive(Clone, Debug)]
pub(crate) enum Item {
    Text(String),
    Tag(Tag),
}

/// A problem with a byte span.
pub(crate) type LexError = (String, Span, Option<String>);

/// Splits `source[range]` into text and tags.
pub(crate) fn items(source: &str, base: usize) -> Result<Vec<Item>, LexError> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut text = String::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let Some(found) = source[pos..].find("{{") else {
            text.push_str(&source[pos..]);
            break;
        };
        let open = pos + found;
        // `\{{` is a literal `{{`, its text running to the next `{{` or to the backslashes
        // before it, which are read afresh; `\\{{` is one backslash and then a real tag.
        // Only backslashes not yet read count.
        let slashes = backslashes_before(&bytes[pos..open]);
        if slashes == 1 {
            text.push_str(&source[pos..open - 1]);
            let next = source[open + 2..]
                .find("{{")
                .map_or(bytes.len(), |i| open + 2 + i);
            let next = next - backslashes_before(&bytes[open + 2..next]);
            text.push_str(&source[open..next]);
            pos = next;
            continue;
        }
        let before = if slashes > 1 {
            &source[pos..open - 1]
        } else {
            &source[pos..open]
        };
        text.push_str(before);
        if !text.is_empty() {
            out.push(Item::Text(std::mem::take(&mut text)));
        }
        let tag = tag(source, open, base)?;
        pos = tag.span.end - base;
        out.push(Item::Tag(tag));
    }
    if !text.is_empty() {
        out.push(Item::Text(text));
    }
    Ok(out)
}

/// Where the first `--}}` or `--~}}` in `text` starts, and whether it is the `~` one. Each
/// `}}` is looked at once: searching for the two closings apart would read to the end of
/// the file for the one that is not there, at every comment.
fn long_comment_end(text: &str) -> Option<(usize, bool)> {
    let mut from = 0;
    while let Some(i) = text[from..].find("}}") {
        let close = from + i;
        let before = &text[..close];
        if before.ends_with("--~") {
            return Some((close - 3, true));
        }
        if before.ends_with("--") {
            return Some((close - 2, false));
        }
        from = close + 1;
    }
    None
}

/// How many backslashes (none, one or two: more count as two) end `text`.
fn backslashes_before(text: &[u8]) -> usize {
    text.iter()
        .rev()
        .take(2)
        .take_while(|&&b| b == b'\\')
        .count()
}

/// Reads the tag that opens at `open` (at `{{`).
fn tag(source: &str, open: usize, base: usize) -> Result<Tag, LexError> {
    let rest = &source[open..];
    let unclosed = |what: &str| {
        (
            format!("unclosed `{what}`"),
            base + open..base + open + 2,
            Some("close it with `}}`".to_owned()),
        )
    };
    if rest.starts_with("{{{{") {
        let end = rest.find("}}}}").map_or(rest.len(), |i| i + 4);
        return Ok(Tag {
            kind: TagKind::Unsupported("raw blocks (`{{{{raw}}}}`)"),
            strip_open: false,
            strip_close: false,
            inner: base + open..base + open + end,
            span: base + open..base + open + end,
        });
    }
    // `{{~{` opens a `{{{` tag that strips the whitespace before it (`{{{~` opens none).
    let strip_open = rest[2..].starts_with('~');
    let mut at = 2 + usize::from(strip_open);
    let triple = rest[at..].starts_with('{');
    if triple {
        at += 1;
        if rest[at..].starts_with('~') {
            return Err((
                "`{{{~` opens no tag".to_owned(),
                base + open..base + open + at + 1,
                Some("to strip the whitespace before a `{{{...}}}` tag, write `{{~{`".to_owned()),
            ));
        }
    }
    let after = &rest[at..];
    // Comments end at the first `}}` (or `--}}` for the long form); nothing inside counts.
    // `{{{!` is no comment.
    if let Some(comment) = after.strip_prefix('!').filter(|_| !triple) {
        let body_start = at + 1;
        // `{{!-- ... --}}` ends at `--}}` (or `--~}}`); `{{! ... }}` at the first `}}`.
        let (inner_len, strip_close, close_len) = if let Some(long) = comment.strip_prefix("--") {
            match long_comment_end(long) {
                Some((at, true)) => (2 + at, true, 5),
                Some((at, false)) => (2 + at, false, 4),
                None => return Err(unclosed("{{!--")),
            }
        } else {
            let end = comment.find("}}").ok_or_else(|| unclosed("{{!"))?;
            if comment[..end].ends_with('~') {
                (end - 1, true, 3)
            } else {
                (end, false, 2)
            }
        };
        let inner_end = body_start + inner_len;
        return Ok(Tag {
            kind: TagKind::Comment,
            strip_open,
            strip_close,
            inner: base + open + body_start..base + open + inner_end,
            span: base + open..base + open + inner_end + close_len,
        });
    }
    let (kind, sigil) = if triple {
        (TagKind::Mustache, 0)
    } else {
        match after.as_bytes().first() {
            Some(b'#') if after[1..].starts_with('>') => {
                (TagKind::Unsupported("partial blocks (`{{#> name}}`)"), 2)
            }
            Some(b'#') if after[1..].starts_with('*') => {
                (TagKind::Unsupported("decorators (`{{#* inline}}`)"), 2)
            }
            Some(b'#') => (TagKind::Open, 1),
            Some(b'/') => (TagKind::Close, 1),
            Some(b'>') => (TagKind::Partial, 1),
            Some(b'&') => (TagKind::Mustache, 1),
            Some(b'^') => (TagKind::Else, 1),
            Some(b'*') => (TagKind::Unsupported("decorators (`{{* name}}`)"), 1),
            _ => (TagKind::Mustache, 0),
        }
    };
    // Find the closing delimiter outside string literals. As in Handlebars' lexer, the
    // first `}}` ends the tag, and `}}}` (or `}~}}`) there is always the close of a
    // `{{{...}}}`: a `{{{` tag must end with it, any other tag must not.
    let close = if triple { "}}}" } else { "}}" };
    let mismatched = |at: usize| {
        let (message, help) = if triple {
            (
                "a `{{{` tag closes with `}}}`, and only that",
                "close it with `}}}` (`}~}}` to strip the whitespace after it); Handlebars reads `}}}}` as the end of a raw block",
            )
        } else {
            (
                "`}}}` closes a `{{{` tag, not this one",
                "Handlebars reads `}}}` as the end of a `{{{...}}}` tag: put something between this tag's `}}` and the `}` after it",
            )
        };
        Err((
            message.to_owned(),
            base + open..base + open + at,
            Some(help.to_owned()),
        ))
    };
    let inner_start = at + sigil;
    let bytes = rest.as_bytes();
    let mut i = inner_start;
    let mut quote: Option<u8> = None;
    let inner_end;
    let strip_close;
    loop {
        if i >= bytes.len() {
            return Err(unclosed(if triple { "{{{" } else { "{{" }));
        }
        let b = bytes[i];
        match quote {
            Some(q) => {
                if b == b'\\' && bytes.get(i + 1) == Some(&q) {
                    i += 2;
                    continue;
                }
                if b == q {
                    quote = None;
                }
            }
            None => {
                if b == b'"' || b == b'\'' {
                    quote = Some(b);
                } else if triple && bytes[i..].starts_with(b"}~}}") {
                    inner_end = i;
                    strip_close = true;
                    break;
                } else if bytes[i..].starts_with(close.as_bytes()) {
                    inner_end = i;
                    strip_close = false;
                    break;
                } else if !triple && b == b'~' && bytes[i + 1..].starts_with(b"}}") {
                    inner_end = i;
                    strip_close = true;
                    break;
                } else if triple
                    && (bytes[i..].starts_with(b"}}") || bytes[i..].starts_with(b"~}}"))
                {
                    return mismatched(i + 2 + usize::from(b == b'~'));
                }
            }
        }
        i += 1;
    }
    let span_end = inner_end + usize::from(strip_close) + close.len();
    let mut kind = kind;
    let inner_text = rest[inner_start..inner_end].trim();
    if kind == TagKind::Mustache
        && !triple
        && (inner_text == "else" || inner_text.starts_with("else "))
    {
        kind = TagKind::Else;
    }
    // `{{else}}` and `{{^}}` are whole tokens in Handlebars: a `}` after them is text.
    let bare_else = kind == TagKind::Else && (inner_text.is_empty() || inner_text == "else");
    // And `}}}}` closes a raw block, which no tag here is.
    if (triple || !bare_else) && bytes.get(span_end) == Some(&b'}') && !strip_close {
        return mismatched(span_end + 1);
    }
    Ok(Tag {
        kind,
        strip_open,
        strip_close,
        inner: base + open + inner_start..base + open + inner_end,
        span: base + open..base + open + span_end,
    })
}

/// A token inside a tag.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Token {
    /// An identifier (or a `[literal segment]`, `bracketed` true).
    Id { name: String, bracketed: bool },
    /// A literal value; `None` is `undefined`.
    Literal(Option<Value>),
    /// `@`.
    At,
    /// `.` or `/` between path segments.
    Sep,
    /// `=`.
    Equals,
    /// `(`.
    OpenParen,
    /// `)`.
    CloseParen,
    /// `|`.
    Pipe,
}

/// Whether Handlebars allows the character in an identifier.
fn is_id_char(c: char) -> bool {
    !(c.is_whitespace()
        || matches!(
            c,
            '!' | '"'
                | '#'
                | '%'..=','
                | '.'
                | '/'
                | ';'..='>'
                | '@'
                | '['..='^'
                | '`'
                | '{'..='~'
        ))
}

/// Tokens of a tag's inner text, each with its span.
pub(crate) fn tokens(source: &str, inner: &Span) -> Result<Vec<(Token, Span)>, LexError> {
    let text = &source[inner.clone()];
    let base = inner.start;
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        let start = base + i;
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let single = |token| Ok::<_, LexError>((token, start..start + c.len_utf8()));
        let token = match c {
            '"' | '\'' => {
                chars.next();
                let mut value = String::new();
                let mut closed = None;
                while let Some((j, d)) = chars.next() {
                    if d == '\\' && chars.peek().map(|&(_, e)| e) == Some(c) {
                        value.push(c);
                        chars.next();
                    } else if d == c {
                        closed = Some(j);
                        break;
                    } else {
                        value.push(d);
                    }
                }
                let Some(j) = closed else {
                    return Err((
                        "unterminated string".to_owned(),
                        start..base + text.len(),
                        Some(format!("close it with `{c}`")),
                    ));
                };
                out.push((
                    Token::Literal(Some(Value::String(value))),
                    start..base + j + 1,
                ));
                continue;
            }
            '@' => single(Token::At),
            '=' => single(Token::Equals),
            '(' => single(Token::OpenParen),
            ')' => single(Token::CloseParen),
            '|' => single(Token::Pipe),
            '/' => single(Token::Sep),
            '[' => {
                chars.next();
                let mut name = String::new();
                let mut closed = None;
                for (j, d) in chars.by_ref() {
                    if d == ']' {
                        closed = Some(j);
                        break;
                    }
                    name.push(d);
                }
                let Some(j) = closed else {
                    return Err((
                        "unclosed `[` in a path".to_owned(),
                        start..base + text.len(),
                        Some("close the segment with `]`".to_owned()),
                    ));
                };
                out.push((
                    Token::Id {
                        name,
                        bracketed: true,
                    },
                    start..base + j + 1,
                ));
                continue;
            }
            '.' => {
                chars.next();
                if chars.peek().map(|&(_, d)| d) == Some('.') {
                    chars.next();
                    out.push((
                        Token::Id {
                            name: "..".to_owned(),
                            bracketed: false,
                        },
                        start..start + 2,
                    ));
                    continue;
                }
                // `.` alone is `this`; between segments it separates them.
                let after_segment =
                    matches!(out.last(), Some((Token::Id { .. }, span)) if span.end == start);
                let token = if after_segment {
                    Token::Sep
                } else {
                    Token::Id {
                        name: ".".to_owned(),
                        bracketed: false,
                    }
                };
                out.push((token, start..start + 1));
                continue;
            }
            c if is_id_char(c) => {
                let mut end = i;
                while let Some(&(j, d)) = chars.peek() {
                    if !is_id_char(d) {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                // A decimal number: `1.5` is one literal, not a path.
                if is_number(&text[i..end]) && text[end..].starts_with('.') {
                    let fraction = text[end + 1..]
                        .bytes()
                        .take_while(u8::is_ascii_digit)
                        .count();
                    if fraction > 0 {
                        for _ in 0..=fraction {
                            chars.next();
                        }
                        end += 1 + fraction;
                    }
                }
                let word = &text[i..end];
                out.push((word_token(word), start..base + end));
                continue;
            }
            other => {
                return Err((
                    format!("unexpected `{other}` in a tag"),
                    start..start + other.len_utf8(),
                    None,
                ));
            }
        };
        chars.next();
        out.push(token?);
    }
    Ok(out)
}

/// A run of identifier characters: a keyword literal, a number, or a name.
fn word_token(word: &str) -> Token {
    match word {
        "true" => return Token::Literal(Some(Value::Bool(true))),
        "false" => return Token::Literal(Some(Value::Bool(false))),
        "null" => return Token::Literal(Some(Value::Null)),
        "undefined" => return Token::Literal(None),
        _ => {}
    }
    if is_number(word)
        && let Ok(n) = serde_json::from_str::<serde_json::Value>(word)
    {
        return Token::Literal(Some(crate::value::js::from_json(n)));
    }
    Token::Id {
        name: word.to_owned(),
        bracketed: false,
    }
}

/// `-?[0-9]+(\.[0-9]+)?`, Handlebars' number literal.
fn is_number(word: &str) -> bool {
    let digits = word.strip_prefix('-').unwrap_or(word);
    let (whole, fraction) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}
