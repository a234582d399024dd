//! MarkupSafe's text operations, as Jinja2's filters run them: `escape`, `striptags`
//! (tags and comments removed, whitespace collapsed, entities read back) and Python's
//! `html.unescape`, byte for byte.

use super::html_entities::ENTITIES;
use super::space::is_space;

/// `markupsafe.escape(text)`: `&`, `<`, `>`, `"` and `'` as entities.
pub(crate) fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// `markupsafe.escape(text)` as a new string.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

/// `Markup(text).striptags()`: every `<!--` … `-->` removed, then every `<` … `>`, the
/// whitespace runs made one space (and none at the ends), then the entities read back.
/// Linear where MarkupSafe's loop is not: the same text comes out.
pub(crate) fn striptags(text: &str) -> String {
    let uncommented = remove_spans(text.as_bytes(), b"<!--", b"-->");
    let untagged = remove_spans(&uncommented, b"<", b">");
    // Only spans between ASCII marks went out: the rest is whole UTF-8.
    let untagged = String::from_utf8_lossy(&untagged);
    let mut collapsed = String::with_capacity(untagged.len());
    for word in untagged.split(is_space).filter(|w| !w.is_empty()) {
        if !collapsed.is_empty() {
            collapsed.push(' ');
        }
        collapsed.push_str(word);
    }
    unescape(&collapsed)
}

/// MarkupSafe's loop: while the text holds `open` and a `close` at or after it, the first
/// `open` up to the end of the first `close` from there goes, and the search begins again
/// at the start (text joined at a removal may make a new `open`). Here in one pass: `out`
/// never holds a whole `open`, so the next one starts at most `open.len() - 1` bytes back.
fn remove_spans(text: &[u8], open: &[u8], close: &[u8]) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(text.len());
    let mut at = 0;
    loop {
        let rest = &text[at..];
        // An `open` begun by the end of `out`, the earliest first.
        let behind = (1..open.len())
            .rev()
            .find(|&k| out.ends_with(&open[..k]) && rest.starts_with(&open[k..]));
        let (start, from, held) = match behind {
            Some(k) => (out.len() - k, 0, k),
            None => match find(rest, open) {
                Some(i) => (out.len() + i, i, 0),
                None => break,
            },
        };
        // The text from the `open`: the `held` bytes of it `out` ends with, then
        // `rest[from..]`. A `close` can begin among those bytes only when the marks overlap
        // (`<!-->`), so they and the next few bytes are searched together.
        let mut end = None;
        if held > 0 {
            let mut probe = out[start..].to_vec();
            probe.extend_from_slice(&rest[..(close.len() - 1).min(rest.len())]);
            end = find(&probe, close)
                .filter(|&i| i < held)
                .map(|i| i + close.len() - held);
        }
        let end = end.or_else(|| find(&rest[from..], close).map(|i| from + i + close.len()));
        let Some(end) = end else { break };
        out.extend_from_slice(&rest[..from]);
        out.truncate(start);
        at += end;
    }
    out.extend_from_slice(&text[at..]);
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Python's `html.unescape`: every `&…` reference HTML5 knows read as its text.
pub(crate) fn unescape(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        match reference(after) {
            Some((len, replaced)) => {
                out.push_str(&replaced);
                rest = &after[len..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The reference after a `&`, as Python's pattern
/// `#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?` takes it: its length and its
/// text; `None` where the pattern takes nothing.
fn reference(after: &str) -> Option<(usize, String)> {
    if let Some(digits) = after.strip_prefix('#') {
        let (hex, digits) = match digits.strip_prefix(['x', 'X']) {
            Some(hex) => (true, hex),
            None => (false, digits),
        };
        let len = digits
            .bytes()
            .take_while(|b| {
                if hex {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        if len == 0 {
            return None;
        }
        let semicolon = usize::from(digits[len..].starts_with(';'));
        let taken = after.len() - digits.len() + len + semicolon;
        return Some((taken, char_ref(&digits[..len], if hex { 16 } else { 10 })));
    }
    let name_len: usize = after
        .chars()
        .take_while(|c| !matches!(c, '\t' | '\n' | '\u{c}' | ' ' | '<' | '&' | '#' | ';'))
        .take(32)
        .map(char::len_utf8)
        .sum();
    if name_len == 0 {
        return None;
    }
    let taken = name_len + usize::from(after[name_len..].starts_with(';'));
    let name = &after[..taken];
    if let Some(text) = entity(name) {
        return Some((taken, text.to_owned()));
    }
    // The longest name HTML5 knows that the text begins with, two characters at least;
    // the rest stays as it is.
    let ends: Vec<usize> = name.char_indices().map(|(i, _)| i).skip(2).collect();
    for &end in ends.iter().rev() {
        if let Some(text) = entity(&name[..end]) {
            return Some((taken, format!("{text}{}", &name[end..])));
        }
    }
    Some((taken, format!("&{name}")))
}

fn entity(name: &str) -> Option<&'static str> {
    ENTITIES
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .and_then(|i| ENTITIES.get(i))
        .map(|(_, text)| *text)
}

/// A numeric reference's text, as `html.unescape` reads it: the Windows-1252 meaning of
/// the C1 controls, U+FFFD for a surrogate or a number past Unicode, nothing for the
/// code points HTML forbids.
fn char_ref(digits: &str, radix: u32) -> String {
    // Past Unicode's last code point the number's size does not matter.
    let significant = digits.trim_start_matches('0');
    let number = if significant.len() > 8 {
        u32::MAX
    } else {
        u32::from_str_radix(significant, radix).unwrap_or(0)
    };
    if let Some(text) = windows_1252(number) {
        return text.to_owned();
    }
    if (0xD800..=0xDFFF).contains(&number) || number > 0x10FFFF {
        return '\u{FFFD}'.to_string();
    }
    let forbidden = matches!(number, 0x1..=0x8 | 0xB | 0xE..=0x1F | 0x7F..=0x9F | 0xFDD0..=0xFDEF)
        || number & 0xFFFE == 0xFFFE;
    if forbidden {
        return String::new();
    }
    char::from_u32(number).map(String::from).unwrap_or_default()
}

/// `html._invalid_charrefs`: what a reference to NUL, CR or a C1 control stands for.
fn windows_1252(number: u32) -> Option<&'static str> {
    const C1: [&str; 32] = [
        "\u{20ac}", "\u{81}", "\u{201a}", "\u{192}", "\u{201e}", "\u{2026}", "\u{2020}",
        "\u{2021}", "\u{2c6}", "\u{2030}", "\u{160}", "\u{2039}", "\u{152}", "\u{8d}", "\u{17d}",
        "\u{8f}", "\u{90}", "\u{2018}", "\u{2019}", "\u{201c}", "\u{201d}", "\u{2022}", "\u{2013}",
        "\u{2014}", "\u{2dc}", "\u{2122}", "\u{161}", "\u{203a}", "\u{153}", "\u{9d}", "\u{17e}",
        "\u{178}",
    ];
    match number {
        0 => Some("\u{FFFD}"),
        0x0D => Some("\r"),
        0x80..=0x9F => C1.get((number - 0x80) as usize).copied(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn striptags_is_markupsafes() {
        // Each pair as MarkupSafe 3.0.3 gives it.
        for (text, stripped) in [
            ("Main &raquo;\t<em>About</em>", "Main \u{bb} About"),
            ("<p>a <b>b</b>\n\n c</p>", "a b c"),
            ("a <!-- <b>x</b> --> b", "a b"),
            ("x <!<!-- c -->-- y --> z", "x z"),
            // A removal that joins `<!` and `--` makes a comment, whose `>` is no tag's end.
            ("x <!<!-- c -->-- a > b --> z", "x z"),
            ("<!-->a", "a"),
            ("a < b", "a < b"),
            ("a <!-- open", "a <!-- open"),
            (
                "1 &lt; 2 &amp;&amp; &ampx &#60;&#x3e; &#0; &#128; &#xD800; &#1; &#99999999999; &foo; &notit;",
                "1 < 2 && &x <> \u{fffd} \u{20ac} \u{fffd}  \u{fffd} &foo; \u{ac}it;",
            ),
        ] {
            assert_eq!(striptags(text), stripped, "{text:?}");
        }
    }

    /// MarkupSafe's loop as it is written: the first `open`, the first `close` at or after
    /// it, the span out, and again from the start.
    fn remove_spans_as_written(text: &str, open: &str, close: &str) -> String {
        let mut value = text.to_owned();
        while let Some(start) = value.find(open) {
            let Some(end) = value[start..].find(close).map(|i| start + i) else {
                break;
            };
            value.replace_range(start..end + close.len(), "");
        }
        value
    }

    proptest::proptest! {
        #[test]
        fn one_pass_removes_what_the_loop_removes(pieces in proptest::collection::vec(
            proptest::sample::select(&["<!--", "-->", "<!", "<!-", "--", "-", "->", "<", ">", "!", "é"][..]),
            0..14,
        )) {
            let text = pieces.concat();
            for (open, close) in [("<!--", "-->"), ("<", ">")] {
                let fast = remove_spans(text.as_bytes(), open.as_bytes(), close.as_bytes());
                proptest::prop_assert_eq!(
                    String::from_utf8(fast).unwrap(),
                    remove_spans_as_written(&text, open, close)
                );
            }
        }
    }

    #[test]
    fn unescape_reads_names_as_html5_does() {
        assert_eq!(
            unescape("&AMP &amp; &notin; &notinx &Aacute;s"),
            "& & \u{2209} \u{ac}inx \u{c1}s"
        );
        assert_eq!(unescape("&#; &#x; & ;&"), "&#; &#x; & ;&");
        assert_eq!(entity("zwnj;"), Some("\u{200c}"));
    }
}
