//! Python's idea of whitespace, which `str.isspace()`, `str.split()`, `str.strip()` and
//! regex `\s` use (keep's documents, Jinja's `trim`, PromptEngine's `.strip()`): Unicode `White_Space` (what [`char::is_whitespace`] tests) plus the four ASCII
//! information separators U+001C..U+001F, which Python counts as line breaks.

/// True for a character `str.isspace()` is true for.
#[inline]
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `text.strip()`.
pub(crate) fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// `text.split()`: the runs of non-whitespace.
pub(crate) fn split(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_space).filter(|t| !t.is_empty())
}

/// The first code points of Unicode's runs of decimal digits (Nd), as of Unicode 14 (what
/// CPython 3.11's `int()` reads as digits).
const DIGIT_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
    0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
    0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
    0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650,
    0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50,
    0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

/// The digit a Unicode decimal digit (category Nd) stands for: what Python's `\d`, `int()`
/// and `str.isdecimal()` take as a digit.
pub(crate) fn decimal_value(c: char) -> Option<u32> {
    let cp = u32::from(c);
    DIGIT_ZEROS
        .iter()
        .find(|&&z| (z..z + 10).contains(&cp))
        .map(|z| cp - z)
}

/// Python's `str.splitlines(keepends)`: the lines at every line boundary Python knows
/// (`\r\n`, `\r`, `\n`, `\v`, `\f`, the information separators `\x1c`–`\x1e`, `\x85`,
/// `\u2028`, `\u2029`), each with its end when `keep_ends`.
pub(crate) fn split_lines(text: &str, keep_ends: bool) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let end = match c {
            '\r' => match chars.peek() {
                Some(&(j, '\n')) => {
                    chars.next();
                    j + 1
                }
                _ => i + 1,
            },
            '\n' | '\u{b}' | '\u{c}' | '\u{1c}' | '\u{1d}' | '\u{1e}' | '\u{85}' | '\u{2028}'
            | '\u{2029}' => i + c.len_utf8(),
            _ => continue,
        };
        lines.push(&text[start..if keep_ends { end } else { i }]);
        start = end;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_information_separators_count_as_space_as_in_python() {
        for c in [
            '\u{1c}', '\u{1d}', '\u{1e}', '\u{1f}', '\u{85}', '\u{a0}', '\u{3000}',
        ] {
            assert!(is_space(c), "{c:?}");
        }
        // not whitespace to Python either: zero-width space, the BOM, other controls
        for c in ['\u{200b}', '\u{feff}', '\u{1b}', '\u{0}', 'x'] {
            assert!(!is_space(c), "{c:?}");
        }
        assert_eq!(strip("\u{1f} a b\u{2028}"), "a b");
        let parts: Vec<&str> = split("a=1\u{1e}b=2\u{a0}\u{a0}c=3").collect();
        assert_eq!(parts, ["a=1", "b=2", "c=3"]);
        assert_eq!(split(" \u{1c} ").count(), 0);
        assert_eq!(decimal_value('7'), Some(7));
        assert_eq!(decimal_value('\u{664}'), Some(4));
        assert_eq!(decimal_value('\u{b2}'), None); // superscript two is no decimal digit
        assert_eq!(decimal_value('a'), None);
    }
}
