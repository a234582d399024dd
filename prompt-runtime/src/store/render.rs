//! Rendering a parsed text: placeholders filled from the layered values (static →
//! computed → runtime, the later winning; the registry's `default` when a static or
//! computed key has no value, never for a runtime key), then PromptEngine's
//! post-processing. Nothing is parsed here.

use super::parsed::{Key, Part, Text};
use crate::python::space::is_space;

/// A computed placeholder's function: called on every render that uses it.
pub type Computed = std::sync::Arc<dyn Fn() -> String + Send + Sync>;

/// The values of one render call.
pub struct Values<'a> {
    pub keys: &'a [Key],
    /// Per key: the static value given to the builder.
    pub statics: &'a [Option<String>],
    /// Per key: the computed function given to the builder.
    pub computed: &'a [Option<Computed>],
    pub runtime: &'a [(&'a str, &'a str)],
    /// Per key: a computed value already called for in this render (each function runs
    /// once per call however often its key is used).
    cache: Vec<Option<String>>,
    /// A preview (`Store::preview`): a key without a value is
    /// written back as `{{key}}`, as PromptEngine leaves it, instead of being missing.
    preview: bool,
}

impl<'a> Values<'a> {
    pub fn new(
        keys: &'a [Key],
        statics: &'a [Option<String>],
        computed: &'a [Option<Computed>],
        runtime: &'a [(&'a str, &'a str)],
    ) -> Self {
        Values {
            keys,
            statics,
            computed,
            runtime,
            cache: Vec::new(),
            preview: false,
        }
    }

    /// These values for a preview (`true`) or a strict render.
    pub fn previewing(mut self, preview: bool) -> Self {
        self.preview = preview;
        self
    }

    /// The runtime value of `name` (the last one given wins).
    pub fn runtime(&self, name: &str) -> Option<&'a str> {
        self.runtime
            .iter()
            .rev()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| *v)
    }

    /// The value of key `index`, `None` when nothing gives one.
    pub fn get(&mut self, index: usize) -> Option<&str> {
        let key = &self.keys[index];
        if let Some(value) = self.runtime(&key.name) {
            return Some(value);
        }
        if let Some(f) = &self.computed[index] {
            if self.cache.is_empty() {
                self.cache.resize(self.keys.len(), None);
            }
            return Some(self.cache[index].get_or_insert_with(|| f()).as_str());
        }
        if let Some(value) = &self.statics[index] {
            return Some(value);
        }
        // The registry's default, for a static or computed key that nothing else gave. A
        // runtime key has only the caller's value, as in PromptEngine (which leaves
        // `{{key}}` in the text where promptic refuses the render).
        match key.phase {
            super::Phase::Runtime => None,
            _ => key.default.as_deref(),
        }
    }
}

/// Appends `text` rendered with `values` to `out`; keys without a value are added to
/// `missing` (and render as nothing: the caller refuses the result), or, in a preview,
/// written as `{{key}}`.
///
/// Returns whether what it appended may hold a run of three or more newlines (for
/// [`tidy_tail`]): found as the pieces are appended, from the newlines at their ends, so
/// that the common text with no such run is never searched.
pub fn render(
    text: &Text,
    values: &mut Values<'_>,
    out: &mut String,
    missing: &mut Vec<usize>,
) -> bool {
    let mut newlines = Newlines {
        run: text.literal_run,
        trailing: 0,
    };
    let preview = values.preview;
    let keys = values.keys;
    for part in &text.parts {
        match part {
            Part::Literal(s) => {
                newlines.push(s, false);
                out.push_str(s);
            }
            Part::Key(i) => match values.get(*i) {
                Some(value) => {
                    newlines.push(value, true);
                    out.push_str(value);
                }
                None if preview => {
                    let name = &keys[*i].name;
                    newlines.push("}}", false);
                    out.reserve(name.len() + 4);
                    out.push_str("{{");
                    out.push_str(name);
                    out.push_str("}}");
                }
                None => {
                    if !missing.contains(i) {
                        missing.push(*i);
                    }
                }
            },
        }
    }
    newlines.run
}

/// The newlines at the end of what was appended so far, and whether a run of three was
/// seen.
struct Newlines {
    trailing: usize,
    run: bool,
}

impl Newlines {
    /// `piece` appended; `inside` says whether to look for a run within it (literals were
    /// looked at once, when parsed).
    fn push(&mut self, piece: &str, inside: bool) {
        if self.run {
            return;
        }
        let bytes = piece.as_bytes();
        let lead = bytes.iter().take_while(|&&b| b == b'\n').count();
        if lead == bytes.len() {
            self.trailing += lead;
            self.run = self.trailing >= 3;
            return;
        }
        if self.trailing + lead >= 3 {
            self.run = true;
            return;
        }
        // `contains` on bytes is a word-at-a-time search: a value without a newline (the
        // usual one) is not walked byte by byte.
        if inside && bytes[lead..].contains(&b'\n') {
            let mut row = 0;
            for &b in &bytes[lead..] {
                row = if b == b'\n' { row + 1 } else { 0 };
                if row == 3 {
                    self.run = true;
                    return;
                }
            }
        }
        self.trailing = bytes.iter().rev().take_while(|&&b| b == b'\n').count();
    }
}

/// PromptEngine's post-processing, appended to `out`: runs of three or more newlines
/// become two, and the text is stripped (`re.sub(r"\n{3,}", "\n\n", t).strip()`).
///
/// Returns whether anything was appended.
pub fn tidy_into(text: &str, out: &mut String) -> bool {
    let rest = text.trim_matches(is_space);
    if rest.is_empty() {
        return false;
    }
    collapse_into(rest, out);
    true
}

/// `text` appended to `out` with every run of three or more newlines made two.
fn collapse_into(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(at) = rest.find("\n\n\n") {
        out.push_str(&rest[..at + 2]);
        rest = rest[at..].trim_start_matches('\n');
    }
    out.push_str(rest);
}

/// [`tidy_into`] in place: the text `out[start..]` tidied where it stands. Returns whether
/// anything is left of it. The common case (nothing to strip at the start, no run of three
/// newlines) moves no byte.
pub fn tidy_tail(out: &mut String, start: usize, may_run: bool) -> bool {
    // An ASCII letter, digit or mark at an end needs no character decoded there.
    let plain = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_graphic());
    if !plain(out.as_bytes().last()) {
        let kept = out[start..].trim_end_matches(is_space).len();
        out.truncate(start + kept);
    }
    if !plain(out.as_bytes().get(start)) {
        let lead = out.len() - start - out[start..].trim_start_matches(is_space).len();
        if lead > 0 {
            out.drain(start..start + lead);
        }
    }
    if out.len() == start {
        return false;
    }
    if may_run && let Some(first) = out[start..].find("\n\n\n") {
        let tail = out.split_off(start + first);
        collapse_into(&tail, out);
    }
    true
}

/// [`tidy_into`] into a new string.
#[cfg(test)]
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    tidy_into(text, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Phase;

    #[test]
    fn tidying_in_place_is_tidying_into_a_new_string() {
        for text in [
            "\n\n a\n\n\n\nb\n\nc\n\n\n",
            " \t\n",
            "",
            "a\n \n\n\nb",
            "\u{1f}x\u{a0}",
            "plain",
            "x\n\n\n",
            "\n\n\n\ny",
        ] {
            let mut out = String::from("head");
            let kept = {
                out.push_str(text);
                tidy_tail(&mut out, 4, true)
            };
            assert_eq!(out, format!("head{}", tidy(text)), "{text:?}");
            assert_eq!(kept, !tidy(text).is_empty(), "{text:?}");
        }
    }

    /// Every sequence of three pieces, literal or value, renders and tidies in place to what
    /// tidying the whole raw text gives: a run found at the pieces' ends is never missed.
    #[test]
    fn runs_across_pieces_are_found_while_rendering() {
        let pieces = [
            "", "\n", "\n\n", "a", "a\n", "\na", "\n\n\n", "a\n\nb", " \n", "\n ",
        ];
        let key = |name: &str| Key {
            name: name.into(),
            phase: Phase::Static,
            default: None,
            source: None,
            source_path: None,
            list: false,
            join_separator: None,
            compute_function: None,
        };
        let keys = vec![key("k0"), key("k1"), key("k2")];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for mask in 0..8u8 {
                        let chosen = [a, b, c];
                        let mut parts = Vec::new();
                        let mut statics = vec![None, None, None];
                        for (i, piece) in chosen.iter().enumerate() {
                            if mask & (1 << i) != 0 {
                                statics[i] = Some(piece.to_string());
                                parts.push(Part::Key(i));
                            } else if !piece.is_empty() {
                                parts.push(Part::Literal(piece.to_string()));
                            }
                        }
                        let literal_run = parts
                            .iter()
                            .any(|p| matches!(p, Part::Literal(s) if s.contains("\n\n\n")));
                        let text = Text { parts, literal_run };
                        let computed = vec![None, None, None];
                        let mut values = Values::new(&keys, &statics, &computed, &[]);
                        let mut out = String::from("x\n\n");
                        let may_run = render(&text, &mut values, &mut out, &mut Vec::new());
                        let raw = out[3..].to_owned();
                        let kept = tidy_tail(&mut out, 3, may_run);
                        assert_eq!(&out[3..], tidy(&raw), "{chosen:?} {mask}");
                        assert_eq!(kept, !tidy(&raw).is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn three_newlines_or_more_become_two_then_stripped() {
        assert_eq!(tidy("\n\n a\n\n\n\nb\n\nc\n\n\n"), "a\n\nb\n\nc");
        assert_eq!(tidy(" \t\n"), "");
        assert_eq!(tidy("a\n \n\n\nb"), "a\n \n\nb");
        assert_eq!(tidy("\u{1f}x\u{a0}"), "x");
    }

    #[test]
    fn values_layer_static_computed_runtime() {
        let key = |name: &str, phase, default: Option<&str>| Key {
            name: name.into(),
            phase,
            default: default.map(str::to_owned),
            source: None,
            source_path: None,
            list: false,
            join_separator: None,
            compute_function: None,
        };
        let keys = vec![
            key("a", Phase::Static, Some("da")),
            key("b", Phase::Computed, None),
            key("c", Phase::Runtime, Some("dc")),
        ];
        let statics = vec![Some("sa".to_owned()), Some("sb".to_owned()), None];
        let computed: Vec<Option<Computed>> =
            vec![None, Some(std::sync::Arc::new(|| "cb".to_owned())), None];
        let mut v = Values::new(&keys, &statics, &computed, &[("a", "ra")]);
        assert_eq!(v.get(0), Some("ra"));
        assert_eq!(v.get(1), Some("cb"));
        // a runtime key never takes the registry's default
        assert_eq!(v.get(2), None);
        let none = vec![None, None, None];
        let mut v = Values::new(&keys, &none, &computed, &[]);
        assert_eq!(v.get(0), Some("da"));
    }
}
