//! Uppercase-first variants: `$Preferred` for `preferred`.

use std::borrow::Cow;

/// The name of a key's uppercase-first variant, as Python's `str.capitalize()` writes it:
/// first character uppercased, the rest lowercased (`day_YYYYMMDD` → `Day_yyyymmdd`).
///
/// ```
/// assert_eq!(promptic::variant_name("day_YYYYMMDD"), "Day_yyyymmdd");
/// assert_eq!(promptic::variant_name("pronouns_subject"), "Pronouns_subject");
/// ```
pub fn variant_name(key: &str) -> String {
    // The usual key is ASCII: byte by byte, without the Unicode case tables (the derive
    // runs this for every placeholder, in a build that does not optimize it).
    if key.is_ascii() {
        let mut out = key.to_ascii_lowercase();
        if let Some(first) = out.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        return out;
    }
    variant_by_chars(key)
}

/// [`variant_name`] by Unicode's case mappings, character by character.
fn variant_by_chars(key: &str) -> String {
    let mut chars = key.chars();
    match chars.next() {
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// A variant's value: only the first character uppercased, the rest unchanged (unlike
/// Python's `capitalize()`, which would turn "Alice Smith" into "Alice smith").
///
/// ```
/// assert_eq!(promptic::upper_first("alice Smith"), "Alice Smith");
/// assert_eq!(promptic::upper_first("Already"), "Already");
/// ```
pub fn upper_first(value: &str) -> Cow<'_, str> {
    let mut chars = value.chars();
    match chars.next() {
        Some(first) if !first.is_uppercase() && first.to_uppercase().next() != Some(first) => {
            let mut out = String::with_capacity(value.len() + 2);
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
            Cow::Owned(out)
        }
        _ => Cow::Borrowed(value),
    }
}

/// The length in bytes of [`upper_first`]`(value)`, without building it.
pub fn upper_first_len(value: &str) -> usize {
    let mut chars = value.chars();
    match chars.next() {
        Some(first) => {
            first.to_uppercase().map(char::len_utf8).sum::<usize>() + chars.as_str().len()
        }
        None => 0,
    }
}

/// Appends [`upper_first`]`(value)` to `out` without an intermediate allocation.
pub fn push_upper_first(out: &mut String, value: &str) {
    let mut chars = value.chars();
    if let Some(first) = chars.next() {
        out.extend(first.to_uppercase());
        out.push_str(chars.as_str());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_follow_python_capitalize() {
        assert_eq!(variant_name("name"), "Name");
        assert_eq!(variant_name("_x"), "_x");
        assert_eq!(variant_name("ABC"), "Abc");
        assert_eq!(variant_name(""), "");
    }

    #[test]
    fn ascii_keys_take_the_short_way_to_the_same_variant() {
        for key in [
            "a",
            "A",
            "day_YYYYMMDD",
            "x1_Y2",
            "_lead",
            "9lives",
            "ALL_CAPS",
            "mixedCase",
        ] {
            assert_eq!(variant_name(key), variant_by_chars(key), "{key:?}");
        }
        // Not ASCII: Unicode's mappings (the sharp s uppercases to two letters).
        assert_eq!(variant_name("ßtraße_É"), "SStraße_é");
    }

    #[test]
    fn upper_first_touches_only_the_first_character() {
        assert_eq!(upper_first("they"), "They");
        assert_eq!(upper_first("éclair au CHOCOLAT"), "Éclair au CHOCOLAT");
        assert_eq!(upper_first("ß"), "SS");
        assert_eq!(upper_first("1st"), "1st");
        assert_eq!(upper_first(""), "");
        assert!(matches!(upper_first("Bob"), Cow::Borrowed(_)));
        for v in ["they", "ß", "", "Émile", "1st", "ǆ"] {
            let mut out = String::new();
            push_upper_first(&mut out, v);
            assert_eq!(out, upper_first(v));
            assert_eq!(upper_first_len(v), out.len());
        }
    }
}
