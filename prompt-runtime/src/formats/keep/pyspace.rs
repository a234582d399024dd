//! Python's idea of whitespace, which keep's `str.split()`, `str.strip()` and regex `\s`
//! use: Unicode `White_Space` (what [`char::is_whitespace`] tests) plus the four ASCII
//! information separators U+001C..U+001F, which Python counts as line breaks.

/// True for a character `str.isspace()` is true for.
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
    }
}
