//! Another engine's syntax in a braces prompt: text that Jinja or Handlebars would read as
//! an expression, a tag or a comment.
//!
//! With `"placeholders": "braces"`, `{{name}}` is a placeholder and any other `{{` is text,
//! so a file copied from a Jinja or Handlebars project would send `{{ user.name }}`,
//! `{{ n | default(15) }}` or `{# note #}` to the model as written, and no check would say
//! so. Each such piece is an error instead, saying what the other engine reads there and how
//! to write it here. (A file meant for Jinja is read as Jinja when it is named `NAME.md.j2`
//! or `NAME.j2`, and one meant for dotprompt's Handlebars when it is named `NAME.prompt`.)
//!
//! What neither engine reads as an expression stays text, so PromptEngine's literal texts
//! keep rendering as they are: a `{{` before a quote (`{{"description": …}}`), a brace
//! (`{{{user_name}}}` is `{`, the placeholder, `}`), a digit, punctuation or nothing is left
//! alone, and so is a name followed by anything but what an expression continues with.
//! Markdown's `{#id}` heading attributes have no `#}`, so they are no comment.

use super::lexer::{Forward, is_name_continue, is_name_start};
use std::ops::Range;

/// A piece of Jinja or Handlebars syntax found in the text of a braces prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Foreign {
    /// From its `{{` or `{#` to the end of its `}}` or `#}`, shifted by the scan's base.
    pub span: Range<usize>,
    /// What the other engine reads there.
    pub message: String,
    /// How to write it in a promptic prompt.
    pub help: String,
}

/// The note every such error carries: how to keep the text as written.
pub const KEEP_AS_TEXT: &str = "to send this text to the model as written, give the file `$name` placeholders (`\"placeholders\": \"dollar\"` in its frontmatter), where `{{` is plain text";

const NOT_READ: &str = "promptic's braces placeholders are `{{name}}`, one name, and a Jinja template is read as Jinja when its file is named `NAME.md.j2`";
const NOT_READ_HANDLEBARS: &str = "promptic's braces placeholders are `{{name}}`, one name, and a dotprompt file (Handlebars) is read as dotprompt when its file is named `NAME.prompt`";

/// Words that continue a Jinja expression after a name (`{{ a if b else c }}`).
const KEYWORDS: [&str; 7] = ["and", "or", "not", "in", "is", "if", "else"];

/// Operators that continue a Jinja expression after a name, longest first.
const OPERATORS: [&str; 13] = [
    "==", "!=", "<=", ">=", "//", "**", "<", ">", "+", "-", "*", "/", "%",
];

/// Finds every piece of Jinja or Handlebars syntax in `text`, a run of literal text; spans
/// are shifted by `base`.
///
/// ```
/// use promptic::parse::foreign::find;
///
/// let found = find("Hi {{ user.name }}, {{\"json\": 1}} {# note #}", 0);
/// assert_eq!(found[0].span, 3..18);
/// assert!(found[0].message.contains("a path into `user`"));
/// assert!(found[1].message.contains("a Jinja comment"));
/// assert_eq!(found.len(), 2);
/// ```
pub fn find(text: &str, base: usize) -> Vec<Foreign> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut next = Next::new(text);
    let mut i = 0;
    while let Some(n) = text[i..].find('{') {
        let at = i + n;
        let piece = match bytes.get(at + 1) {
            Some(b'#') => comment(text, at, &mut next),
            Some(b'{') => expression(text, at, &mut next),
            _ => None,
        };
        match piece {
            Some((end, message, help)) => {
                found.push(Foreign {
                    span: base + at..base + end,
                    message,
                    help,
                });
                i = end;
            }
            None => i = at + 1,
        }
    }
    found
}

/// Where the next line end and closing marks are, each found once: the scan moves forward
/// only, so a line of ten thousand `{{` without a `}}` is read once, not once per `{{`.
struct Next<'a> {
    text: &'a str,
    newline: Forward,
    close: Forward,
    comment_close: Forward,
    handlebars_comment_close: Forward,
}

impl<'a> Next<'a> {
    fn new(text: &'a str) -> Self {
        Next {
            text,
            newline: Forward::default(),
            close: Forward::default(),
            comment_close: Forward::default(),
            handlebars_comment_close: Forward::default(),
        }
    }

    fn line_end(&mut self, from: usize) -> usize {
        self.newline
            .find(self.text, "\n", from)
            .unwrap_or(self.text.len())
    }

    /// The first `pattern` from `from` on, if it comes before `limit`.
    fn before(
        memo: &mut Forward,
        text: &str,
        pattern: &str,
        from: usize,
        limit: usize,
    ) -> Option<usize> {
        memo.find(text, pattern, from)
            .filter(|&p| p + pattern.len() <= limit)
    }
}

/// `{# … #}`, a Jinja comment, which may span lines. Without its `#}` it is no comment
/// (Markdown's `{#id}`).
fn comment(text: &str, at: usize, next: &mut Next<'_>) -> Option<(usize, String, String)> {
    let close = next.comment_close.find(text, "#}", at + 2)?;
    let end = close + 2;
    Some((
        end,
        format!(
            "{} is a Jinja comment, which a braces prompt does not read: it would reach the model",
            shown(&text[at..end])
        ),
        "a prompt has no comments: remove it, or keep the note in the frontmatter's `\"description\"`".to_owned(),
    ))
}

/// `{{ … }}` with the other engine's syntax inside, up to its `}}` on the same line.
fn expression(text: &str, at: usize, next: &mut Next<'_>) -> Option<(usize, String, String)> {
    let bytes = text.as_bytes();
    let line_end = next.line_end(at);
    let mut start = at + 2;
    // `{{-` and `{{~`: whitespace control, Jinja's and Handlebars'.
    let mut trim = match bytes.get(start) {
        Some(&c @ (b'-' | b'~')) => Some(c),
        _ => None,
    };
    if trim.is_some() {
        start += 1;
    }
    // A Handlebars comment may hold `}}`: `{{!-- a }} b --}}`.
    if text[start..line_end].starts_with("!--") {
        let close = Next::before(
            &mut next.handlebars_comment_close,
            text,
            "--}}",
            start + 3,
            line_end,
        )?;
        return Some(handlebars_comment(text, at, close + 4));
    }
    let close = Next::before(&mut next.close, text, "}}", start, line_end)?;
    let end = close + 2;
    let whole = shown(&text[at..end]);
    let inner = &text[start..close];
    if inner.starts_with('!') {
        return Some(handlebars_comment(text, at, end));
    }
    if let Some(sigil @ ('#' | '/' | '^' | '>' | '&')) = inner.chars().next() {
        let after = inner[1..].trim_start();
        let name = leading_name(after)?;
        // A block's argument: `x` in `{{#if x}}`.
        let arg = leading_name(after[name.len()..].trim_start()).unwrap_or("name");
        let (message, help) = match sigil {
            '#' | '^' => (
                format!("{whole} is a Handlebars block"),
                match name {
                    "each" => format!(
                        "promptic has no loops: join the items in the code and give them as a context field, `{{{{{arg}}}}}`; {NOT_READ_HANDLEBARS}"
                    ),
                    _ => format!(
                        "a promptic block is `{{% if {arg} %}}` … `{{% else %}}` … `{{% endif %}}`, each on a line of its own; {NOT_READ_HANDLEBARS}"
                    ),
                },
            ),
            '/' => (
                format!("{whole} is the end of a Handlebars block"),
                format!(
                    "a promptic block ends with `{{% endif %}}` on a line of its own; {NOT_READ_HANDLEBARS}"
                ),
            ),
            '>' => (
                format!("{whole} is a Handlebars partial"),
                format!("a template is a file in `templates/`, used as `{{{{{name}}}}}`"),
            ),
            _ => (
                format!("{whole} is a Handlebars unescaped placeholder"),
                format!("write `{{{{{name}}}}}`: promptic never escapes a value"),
            ),
        };
        return Some((end, message, help));
    }
    let body = inner.trim_start();
    let path_len = path_end(body.as_bytes());
    if path_len == 0 {
        return None;
    }
    let path = &body[..path_len];
    let name = path.split('.').next().unwrap_or(path);
    let mut rest = body[path_len..].trim_start();
    if let Some(c @ (b'-' | b'~')) = rest.bytes().next()
        && rest[1..].trim().is_empty()
    {
        trim = trim.or(Some(c));
        rest = "";
    }
    let flat = path.replace('.', "_");
    let compute =
        format!("compute the value in the code and give it as a context field, `{{{{{name}}}}}`");
    let (message, help) = if rest.starts_with('|') && !rest.starts_with("||") {
        (
            format!("{whole} is a Jinja filter expression, which braces placeholders do not read"),
            format!(
                "write `{{{{{flat}}}}}` and give the value, filtered or defaulted in the code, as a context field: {NOT_READ}"
            ),
        )
    } else if rest.starts_with('(') {
        (
            format!("{whole} is a Jinja call of `{path}`, which braces placeholders do not read"),
            format!("{compute}: {NOT_READ}"),
        )
    } else if rest.starts_with('[') {
        (
            format!(
                "{whole} is a Jinja subscript of `{path}`, which braces placeholders do not read"
            ),
            format!("{compute}: {NOT_READ}"),
        )
    } else if OPERATORS.iter().any(|op| rest.starts_with(op))
        || starts_with_keyword(rest)
        || (path == "not" && !rest.is_empty())
    {
        (
            format!("{whole} is a Jinja expression, which braces placeholders do not read"),
            format!("{compute}: {NOT_READ}"),
        )
    } else if path.contains('.') {
        (
            format!("{whole} is a path into `{name}`, which braces placeholders do not read"),
            format!(
                "write `{{{{{flat}}}}}`: an identity's nested keys are flattened with `_`, and a context value is one field; {NOT_READ}"
            ),
        )
    } else if rest.is_empty() {
        // A lone name is a placeholder, unless whitespace control stands beside it.
        let engine = match trim {
            Some(b'-') => "Jinja",
            Some(_) => "Handlebars",
            None => return None,
        };
        (
            format!(
                "{whole} is {engine} whitespace control, which braces placeholders do not read"
            ),
            format!(
                "write `{{{{{name}}}}}`: promptic strips a prompt's body itself, and a directive's line renders to nothing"
            ),
        )
    } else if rest.starts_with(|c: char| {
        c == '"'
            || c == '\''
            || c == '@'
            || c.is_ascii_digit()
            || c.is_ascii_alphabetic()
            || c == '_'
    }) {
        (
            format!(
                "{whole} is a Handlebars helper call of `{name}`, which braces placeholders do not read"
            ),
            format!("{compute}: {NOT_READ_HANDLEBARS}"),
        )
    } else {
        return None;
    };
    Some((end, message, help))
}

fn handlebars_comment(text: &str, at: usize, end: usize) -> (usize, String, String) {
    (
        end,
        format!(
            "{} is a Handlebars comment, which a braces prompt does not read: it would reach the model",
            shown(&text[at..end])
        ),
        "a prompt has no comments: remove it, or keep the note in the frontmatter's `\"description\"`".to_owned(),
    )
}

/// The name at the start of `text`, if it starts with one.
fn leading_name(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    if !bytes.first().is_some_and(|&c| is_name_start(c)) {
        return None;
    }
    let len = bytes.iter().take_while(|&&c| is_name_continue(c)).count();
    Some(&text[..len])
}

/// The length of the dotted path `a.b.c` at the start of `bytes` (0 for none).
fn path_end(bytes: &[u8]) -> usize {
    let mut end = 0;
    loop {
        if !bytes.get(end).is_some_and(|&c| is_name_start(c)) {
            // A `.` not followed by a name is not part of the path.
            return end.saturating_sub(usize::from(end > 0));
        }
        while bytes.get(end).is_some_and(|&c| is_name_continue(c)) {
            end += 1;
        }
        if bytes.get(end) != Some(&b'.') {
            return end;
        }
        end += 1;
    }
}

/// True when `rest` starts with a Jinja keyword as a whole word.
fn starts_with_keyword(rest: &str) -> bool {
    KEYWORDS.iter().any(|k| {
        rest.strip_prefix(k)
            .is_some_and(|after| !after.bytes().next().is_some_and(is_name_continue))
    })
}

/// The piece in backticks, cut short when long so that the message stays one line.
fn shown(piece: &str) -> String {
    const MAX_CHARS: usize = 60;
    match piece.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("`{}…`", &piece[..cut]),
        None => format!("`{piece}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::find;
    use crate::parse::lexer::SCANNED;

    /// What each piece found is, by the words after the piece in its message.
    fn kinds(text: &str) -> Vec<String> {
        find(text, 0)
            .into_iter()
            .map(|f| {
                let piece = &text[f.span.clone()];
                let what = f
                    .message
                    .split_once("` is ")
                    .map_or("?", |(_, what)| what)
                    .split(',')
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                format!("{piece} => {what}")
            })
            .collect()
    }

    #[test]
    fn jinja_expressions_are_found() {
        assert_eq!(
            kinds("{{ max_iterations | default(15) }}"),
            ["{{ max_iterations | default(15) }} => a Jinja filter expression"]
        );
        assert_eq!(
            kinds("a {{ user.name }} b"),
            ["{{ user.name }} => a path into `user`"]
        );
        assert_eq!(
            kinds("{{user.name|upper}}"),
            ["{{user.name|upper}} => a Jinja filter expression"]
        );
        assert_eq!(
            kinds("{{ now() }}"),
            ["{{ now() }} => a Jinja call of `now`"]
        );
        assert_eq!(
            kinds("{{ items[0] }}"),
            ["{{ items[0] }} => a Jinja subscript of `items`"]
        );
        assert_eq!(kinds("{{ a + b }}"), ["{{ a + b }} => a Jinja expression"]);
        assert_eq!(kinds("{{ n*2 }}"), ["{{ n*2 }} => a Jinja expression"]);
        assert_eq!(
            kinds("{{ a == b }}"),
            ["{{ a == b }} => a Jinja expression"]
        );
        assert_eq!(
            kinds("{{ a if b else c }}"),
            ["{{ a if b else c }} => a Jinja expression"]
        );
        assert_eq!(
            kinds("{{ x is defined }}"),
            ["{{ x is defined }} => a Jinja expression"]
        );
        assert_eq!(
            kinds("{{- name }}"),
            ["{{- name }} => Jinja whitespace control"]
        );
        assert_eq!(
            kinds("{{ name -}}"),
            ["{{ name -}} => Jinja whitespace control"]
        );
        assert_eq!(kinds("{{- a.b -}}"), ["{{- a.b -}} => a path into `a`"]);
        assert_eq!(
            kinds("{{ not done }}"),
            ["{{ not done }} => a Jinja expression"]
        );
        assert_eq!(
            kinds("x {# a note #} y"),
            ["{# a note #} => a Jinja comment"]
        );
        assert_eq!(
            kinds("{# spans\nlines #}"),
            ["{# spans\nlines #} => a Jinja comment"]
        );
    }

    #[test]
    fn handlebars_tags_are_found() {
        assert_eq!(
            kinds("{{#each items}}"),
            ["{{#each items}} => a Handlebars block"]
        );
        assert_eq!(
            kinds("{{/each}}"),
            ["{{/each}} => the end of a Handlebars block"]
        );
        assert_eq!(kinds("{{^if x}}"), ["{{^if x}} => a Handlebars block"]);
        assert_eq!(
            kinds("{{> footer}}"),
            ["{{> footer}} => a Handlebars partial"]
        );
        assert_eq!(
            kinds("{{&raw}}"),
            ["{{&raw}} => a Handlebars unescaped placeholder"]
        );
        assert_eq!(
            kinds("{{! note }}"),
            ["{{! note }} => a Handlebars comment"]
        );
        assert_eq!(
            kinds("{{~name~}}"),
            ["{{~name~}} => Handlebars whitespace control"]
        );
        assert_eq!(
            kinds("{{!-- a }} b --}}"),
            ["{{!-- a }} b --}} => a Handlebars comment"]
        );
        assert_eq!(
            kinds("{{upper name}}"),
            ["{{upper name}} => a Handlebars helper call of `upper`"]
        );
        assert_eq!(
            kinds("{{ t \"key\" }}"),
            ["{{ t \"key\" }} => a Handlebars helper call of `t`"]
        );
        assert_eq!(
            kinds("{{{ user.name }}}"),
            ["{{ user.name }} => a path into `user`"]
        );
    }

    #[test]
    fn what_neither_engine_reads_as_an_expression_stays_text() {
        for text in [
            // PromptEngine's stock texts
            "{{\"description\": \"a JSON object\"}}",
            "{{{user_name}}}",
            "{ {{",
            "{{}} {{ }} {{1}} {{ 15 }} {{ \"x\" }} {{ 'x' }} {{ (a) }}",
            "{{ a: 1 }} {{a, b}} {{ é }} {{ TODO: later }}",
            // no closing `}}` on the line (the lexer reports `{{name` never closed)
            "{{ a.b\n}}",
            // Markdown heading attributes are no comments
            "# Title {#intro}",
            "{#",
            "{{!",
            "{{#}}",
            "{{ a. }}",
            // a placeholder, when the lexer is not asked first
            "{{ name }}",
        ] {
            assert_eq!(kinds(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn spans_are_shifted_and_long_pieces_are_cut_in_the_message() {
        let long = format!("{{{{ a | {} }}}}", "f".repeat(100));
        let found = find(&long, 10);
        assert_eq!(found[0].span, 10..10 + long.len());
        assert!(
            found[0].message.starts_with("`{{ a | fff"),
            "{}",
            found[0].message
        );
        assert!(
            found[0].message.contains("…` is a Jinja filter"),
            "{}",
            found[0].message
        );
        // One piece after another, and a piece's `}}` ends it.
        assert_eq!(
            kinds("{{ a.b }}{{ c | d }}"),
            [
                "{{ a.b }} => a path into `a`",
                "{{ c | d }} => a Jinja filter expression"
            ]
        );
    }

    #[test]
    fn unclosed_openings_are_read_in_linear_time() {
        // Each `{{` and `{#` looks for its close, which is found once and not once per
        // opening: the searches read each byte a bounded number of times, however many
        // openings wait for a close that never comes.
        for text in [
            "{{ a {# ".repeat(20_000),
            "{{ a\n".repeat(20_000),
            "{{ ".repeat(20_000) + "}}",
            "{{!-- ".repeat(20_000),
            "{# ".repeat(20_000) + "#}",
        ] {
            SCANNED.with(|s| s.set(0));
            let _ = find(&text, 0);
            let scanned = SCANNED.with(|s| s.get());
            assert!(
                // Every search goes through `Forward`, which reads the text about once.
                (text.len() / 2..=4 * text.len()).contains(&scanned),
                "{scanned} bytes read for {} ({:?}…)",
                text.len(),
                &text[..12]
            );
        }
        // Later closes are still found after a memo moved past earlier ones.
        assert_eq!(
            kinds("{{ a\n{{ b.c }} {{ d }} {{ e | f }}"),
            [
                "{{ b.c }} => a path into `b`",
                "{{ e | f }} => a Jinja filter expression"
            ]
        );
    }

    #[test]
    fn the_help_says_how_to_write_it() {
        let help = |text: &str| find(text, 0).remove(0).help;
        assert!(help("{{ user.name }}").starts_with(
            "write `{{user_name}}`: an identity's nested keys are flattened with `_`"
        ));
        assert!(help("{{ n | default(15) }}").starts_with("write `{{n}}` and give the value"));
        assert!(
            help("{{ n | default(15) }}")
                .ends_with("a Jinja template is read as Jinja when its file is named `NAME.md.j2`")
        );
        assert!(help("{{#if note}}").starts_with("a promptic block is `{% if note %}`"));
        assert!(help("{{#each items}}").starts_with("promptic has no loops"));
        assert!(help("{{#each items}}").contains("`{{items}}`"));
        assert!(help("{{> footer}}").contains("used as `{{footer}}`"));
    }
}
