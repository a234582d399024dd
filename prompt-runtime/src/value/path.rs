//! Paths into a [`Shape`], checked in `const` evaluation.
//!
//! The derive of a prompt sees the struct it derives for, not the types of its fields: a
//! path `user.name` into a field of type `Profile` can only be checked where `Profile`'s
//! [`PromptValue::SHAPE`](super::PromptValue::SHAPE) is known, in the compiler's `const`
//! evaluation. So the derive emits one `const` per path, which calls [`check`] with the
//! prompt file's location already written out; a wrong path makes that `const` panic with
//! the whole diagnostic (file:line:col, the line, a caret, the closest field).
//!
//! ```
//! use promptic::value::path::{Step, check};
//! use promptic::value::{FieldShape, PromptValue, Shape};
//!
//! const USER: Shape = Shape::Struct {
//!     name: "Profile",
//!     fields: &[FieldShape { name: "name", shape: &<String as PromptValue>::SHAPE }],
//! };
//! assert!(check(&USER, "user", &[Step::Field("name")], 0, "").is_empty());
//! let wrong = check(&USER, "user", &[Step::Field("nmae")], 0, "\n --> x.j2:1:4\n  = help: ");
//! assert_eq!(
//!     wrong.as_str(),
//!     "no field `nmae` in `Profile` (read as `user.nmae`)\n --> x.j2:1:4\n  = help: did you mean `name`?"
//! );
//! ```

use super::{FieldShape, Shape};

/// One step of a path.
/// `'static` in the derive's `const` checks; shorter at run time, where hot reload checks
/// the paths of an edited template ([`crate::formats::jinja::check_paths`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// `.name` or `["name"]`: a struct's field, or a map's value by key.
    Field(&'a str),
    /// An item of a list: a loop's variable, or `xs[1.5]`.
    Element,
    /// An item of a list by a literal index (`xs[0]`, `xs[-1]`), or a text's character.
    Index(i64),
    /// A map's value as `items()` gives it to a loop.
    Value,
}

/// A number's decimal digits, written without `core::fmt` (and in `const` evaluation).
pub(crate) struct Digits {
    bytes: [u8; 20],
    start: usize,
}

impl Digits {
    /// The digits of `n`.
    pub(crate) const fn of(mut n: u64) -> Digits {
        let mut bytes = [0u8; 20];
        let mut start = bytes.len();
        loop {
            start -= 1;
            bytes[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        Digits { bytes, start }
    }

    /// The digits as text.
    pub(crate) const fn as_str(&self) -> &str {
        let (_, digits) = self.bytes.split_at(self.start);
        match core::str::from_utf8(digits) {
            Ok(text) => text,
            Err(_) => "",
        }
    }
}

/// How long a message may grow; the rest is cut.
const CAPACITY: usize = 4096;

/// A diagnostic written in `const` evaluation: empty when the path is fine.
#[derive(Clone, Copy, Debug)]
pub struct Message {
    bytes: [u8; CAPACITY],
    len: usize,
}

impl Message {
    const EMPTY: Message = Message {
        bytes: [0; CAPACITY],
        len: 0,
    };

    /// Whether there is nothing to report.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        let (written, _) = self.bytes.split_at(self.len);
        match core::str::from_utf8(written) {
            Ok(text) => text,
            // Cut inside a character: the part before it.
            Err(e) => match core::str::from_utf8(written.split_at(e.valid_up_to()).0) {
                Ok(text) => text,
                Err(_) => "",
            },
        }
    }

    const fn push(mut self, text: &str) -> Message {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.len < CAPACITY {
            self.bytes[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// An integer in decimal.
    const fn push_int(mut self, i: i64) -> Message {
        if i < 0 {
            self = self.push("-");
        }
        let digits = Digits::of(i.unsigned_abs());
        self.push(digits.as_str())
    }

    /// `shown` and the steps from `skip` to `end`, as a template writes them.
    const fn push_path(
        mut self,
        shown: &str,
        steps: &[Step<'_>],
        skip: usize,
        end: usize,
    ) -> Message {
        self = self.push(shown);
        let mut i = skip;
        while i < end && i < steps.len() {
            self = match steps[i] {
                Step::Field(name) => self.push(".").push(name),
                Step::Element => self.push("[…]"),
                Step::Index(i) => self.push("[").push_int(i).push("]"),
                Step::Value => self.push(".items()"),
            };
            i += 1;
        }
        self
    }
}

/// Checks `steps` into a value of `shape`. The value is written `shown` in the template,
/// and its first `skip` steps are how `shown` was reached (a loop variable's list): they
/// are not written. `location` is the diagnostic's location block (`\n --> file:line:col`,
/// the line with its caret) up to its help (`\n  = help: `), which is written after it.
/// Returns the diagnostic, empty when the path exists.
pub const fn check(
    shape: &Shape,
    shown: &str,
    steps: &[Step<'_>],
    skip: usize,
    location: &str,
) -> Message {
    check_rest(shape, shown, steps, skip, 0, location)
}

/// [`check`] of a path whose first `checked` steps another check reads too (a path that
/// shares them, checked before): a mistake in those steps is that check's to report, so
/// one mistake (`user.nmae` in `user.nmae.first` and `user.nmae.last`) is one error.
pub const fn check_rest(
    shape: &Shape,
    shown: &str,
    steps: &[Step<'_>],
    skip: usize,
    checked: usize,
    location: &str,
) -> Message {
    let mut at = shape;
    let mut i = 0;
    while i < steps.len() {
        while let Shape::Optional(inner) = at {
            at = inner;
        }
        let next = match (at, steps[i]) {
            (Shape::Any, _) => return Message::EMPTY,
            (Shape::Struct { fields, .. }, Step::Field(name)) => field(fields, name),
            (Shape::List(item), Step::Element | Step::Index(_)) => Some(*item),
            (Shape::Map(value), Step::Field(_) | Step::Value) => Some(*value),
            (Shape::Text, Step::Element | Step::Index(_)) => Some(&Shape::Text),
            // A loop over a map goes over its keys.
            (Shape::Map(_), Step::Element) => Some(&Shape::Text),
            _ => None,
        };
        match next {
            Some(next) => at = next,
            // A step of the loop's own (`skip`) is reported at the loop, where the
            // iterable is read; a step another check reads, by that check.
            None if i < skip || i < checked => return Message::EMPTY,
            None => return wrong(at, shown, steps, skip, i, location),
        }
        i += 1;
    }
    Message::EMPTY
}

/// Whether a value of `shape` may lack a path into it that [`check`] accepts and that
/// reads no item by index: whether it holds, anywhere, a map, JSON or an `Option` (past
/// the value itself, which a check passes over when it is absent). `false` for text,
/// numbers, booleans, and structs and lists of them all the way down.
pub const fn loose(shape: &Shape) -> bool {
    let mut at = shape;
    while let Shape::Optional(inner) = at {
        at = inner;
    }
    loose_within(at)
}

const fn loose_within(shape: &Shape) -> bool {
    match shape {
        Shape::Text | Shape::Number | Shape::Bool => false,
        Shape::List(item) => loose_within(item),
        Shape::Struct { fields, .. } => {
            let mut i = 0;
            while i < fields.len() {
                if loose_within(fields[i].shape) {
                    return true;
                }
                i += 1;
            }
            false
        }
        Shape::Map(_) | Shape::Optional(_) | Shape::Any => true,
    }
}

const fn field(fields: &'static [FieldShape], name: &str) -> Option<&'static Shape> {
    let mut i = 0;
    while i < fields.len() {
        if same(fields[i].name.as_bytes(), name.as_bytes()) {
            return Some(fields[i].shape);
        }
        i += 1;
    }
    None
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The message for step `i`, which `at` cannot take.
const fn wrong(
    at: &Shape,
    shown: &str,
    steps: &[Step<'_>],
    skip: usize,
    i: usize,
    location: &str,
) -> Message {
    let message = Message::EMPTY;
    if let (Shape::Struct { name, fields }, Step::Field(missing)) = (at, steps[i]) {
        let message = message
            .push("no field `")
            .push(missing)
            .push("` in `")
            .push(name)
            .push("` (read as `")
            .push_path(shown, steps, skip, i + 1)
            .push("`)")
            .push(location);
        return match closest(fields, missing) {
            Some(close) => message.push("did you mean `").push(close).push("`?"),
            None if fields.is_empty() => message.push("`").push(name).push("` has no fields"),
            None => {
                let mut message = message.push("its fields are ");
                let mut f = 0;
                while f < fields.len() {
                    if f > 0 {
                        message = message.push(", ");
                    }
                    message = message.push("`").push(fields[f].name).push("`");
                    f += 1;
                }
                message
            }
        };
    }
    let what = match at {
        Shape::Text => "text",
        Shape::Number => "a number",
        Shape::Bool => "a boolean",
        Shape::Struct { .. } => "a struct",
        Shape::List(_) => "a list",
        Shape::Map(_) => "a map",
        Shape::Optional(_) | Shape::Any => "a value",
    };
    let (reads, help) = match steps[i] {
        Step::Field(_) => (
            "it has no fields",
            "fields are read from a struct that derives `PromptValue`, or from a map",
        ),
        Step::Element => (
            "it has no items",
            "loop over a list (`Vec<T>`, `&[T]`), or index one",
        ),
        Step::Index(_) => (
            "it has no items by index",
            "index a list (`Vec<T>`, `&[T]`) or a text; a map's value is read by its key (`m[\"key\"]`)",
        ),
        Step::Value => (
            "it has no `items()`",
            "`items()` reads a map (`BTreeMap<String, V>`, `HashMap<String, V>`)",
        ),
    };
    let message = message
        .push("`")
        .push_path(shown, steps, skip, i)
        .push("` is ")
        .push(what);
    let message = match at {
        Shape::Struct { name, .. } => message.push(" (`").push(name).push("`)"),
        _ => message,
    };
    let message = match steps[i] {
        Step::Field(name) if i >= skip => message
            .push(": it has no field `")
            .push(name)
            .push("` (read as `")
            .push_path(shown, steps, skip, i + 1)
            .push("`)"),
        _ => message.push(": ").push(reads),
    };
    message.push(location).push(help)
}

/// Checks that the value `steps` lead to in a value of `shape` is one `filter` takes, as
/// Jinja2 takes it: text, a list or a map for `length`, `join`, `first`, `last`, `list`,
/// `reverse`, `sort`, `min` and `max` (a struct is a map to a template); a number (or a
/// boolean) for `abs` and `round`; a map for `dictsort`; text for `indent`; a list for
/// `sum`. A path that does not lead anywhere is left to [`check`], which reports it.
pub const fn check_sized(
    shape: &Shape,
    shown: &str,
    steps: &[Step<'_>],
    skip: usize,
    filter: &str,
    location: &str,
) -> Message {
    let mut at = shape;
    let mut i = 0;
    while i < steps.len() {
        while let Shape::Optional(inner) = at {
            at = inner;
        }
        at = match (at, steps[i]) {
            (Shape::Struct { fields, .. }, Step::Field(name)) => match field(fields, name) {
                Some(next) => next,
                None => return Message::EMPTY,
            },
            (Shape::List(item), Step::Element | Step::Index(_)) => item,
            (Shape::Map(value), Step::Field(_) | Step::Value) => value,
            (Shape::Text, Step::Element | Step::Index(_)) | (Shape::Map(_), Step::Element) => {
                &Shape::Text
            }
            _ => return Message::EMPTY,
        };
        i += 1;
    }
    while let Shape::Optional(inner) = at {
        at = inner;
    }
    let name = filter.as_bytes();
    let (takes, text, number, list, map, help) = if same(name, b"abs") || same(name, b"round") {
        (
            "a number",
            false,
            true,
            false,
            false,
            "give the filter a field that holds a number",
        )
    } else if same(name, b"dictsort") {
        (
            "a map",
            false,
            false,
            false,
            true,
            "give the filter a map (`BTreeMap<String, V>`) or a struct that derives `PromptValue`",
        )
    } else if same(name, b"indent") {
        (
            "text",
            true,
            false,
            false,
            false,
            "give the filter a field that holds text",
        )
    } else if same(name, b"sum") {
        (
            "a list",
            false,
            false,
            true,
            false,
            "give the filter a list of numbers",
        )
    } else {
        (
            "text, a list or a map",
            true,
            false,
            true,
            true,
            "print it as it is, or give the filter a field that holds text or a list",
        )
    };
    let (what, fits) = match at {
        Shape::Number => ("a number", number),
        Shape::Bool => ("a boolean", number),
        Shape::Text => ("text", text),
        Shape::List(_) => ("a list", list),
        Shape::Map(_) => ("a map", map),
        Shape::Struct { .. } => ("a struct", map),
        Shape::Optional(_) | Shape::Any => return Message::EMPTY,
    };
    if fits {
        return Message::EMPTY;
    }
    Message::EMPTY
        .push("`")
        .push(filter)
        .push("` needs ")
        .push(takes)
        .push(", and `")
        .push_path(shown, steps, skip, steps.len())
        .push("` is ")
        .push(what)
        .push(location)
        .push(help)
}

/// The field closest to `name`, if it is close enough to be a likely typo: a few edits
/// away relative to the name's length, case ignored (as `suggest::closest` judges it).
const fn closest(fields: &[FieldShape], name: &str) -> Option<&'static str> {
    let limit = {
        let third = name.len() / 3;
        if third < 1 { 1 } else { third }
    };
    let mut best: Option<(&'static str, usize)> = None;
    let mut i = 0;
    while i < fields.len() {
        let candidate = fields[i].name;
        if let Some(d) = distance(candidate.as_bytes(), name.as_bytes()) {
            let close = d <= limit || (d <= 2 && name.len() >= 4 && candidate.len() >= 4);
            let better = match best {
                Some((_, known)) => d < known,
                None => true,
            };
            if close && better {
                best = Some((candidate, d));
            }
        }
        i += 1;
    }
    match best {
        Some((name, _)) => Some(name),
        None => None,
    }
}

/// How long a name the edit distance is computed for may be.
const LONGEST: usize = 64;

/// The Levenshtein distance between `a` and `b`, ASCII case ignored; `None` for names
/// longer than [`LONGEST`].
const fn distance(a: &[u8], b: &[u8]) -> Option<usize> {
    if a.len() > LONGEST || b.len() > LONGEST {
        return None;
    }
    let mut row = [0usize; LONGEST + 1];
    let mut j = 0;
    while j <= b.len() {
        row[j] = j;
        j += 1;
    }
    let mut i = 1;
    while i <= a.len() {
        let mut diagonal = row[0];
        row[0] = i;
        let mut j = 1;
        while j <= b.len() {
            let above = row[j];
            let cost = if a[i - 1].eq_ignore_ascii_case(&b[j - 1]) {
                0
            } else {
                1
            };
            let mut best = diagonal + cost;
            if above + 1 < best {
                best = above + 1;
            }
            if row[j - 1] + 1 < best {
                best = row[j - 1] + 1;
            }
            row[j] = best;
            diagonal = above;
            j += 1;
        }
        i += 1;
    }
    Some(row[b.len()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::PromptValue;

    const CITY: Shape = Shape::Struct {
        name: "City",
        fields: &[
            FieldShape {
                name: "name",
                shape: &<String as PromptValue>::SHAPE,
            },
            FieldShape {
                name: "nights",
                shape: &<Option<u8> as PromptValue>::SHAPE,
            },
        ],
    };
    const TRIP: Shape = Shape::List(&CITY);

    #[test]
    fn paths_that_exist_pass() {
        assert!(check(&TRIP, "s", &[Step::Element, Step::Field("nights")], 1, "").is_empty());
        assert!(check(&Shape::Any, "x", &[Step::Field("a")], 0, "").is_empty());
        let map = <std::collections::BTreeMap<String, Vec<String>> as PromptValue>::SHAPE;
        assert!(check(&map, "v", &[Step::Value, Step::Element], 1, "").is_empty());
        assert!(check(&map, "m", &[Step::Field("any_key")], 0, "").is_empty());
    }

    #[test]
    fn only_shapes_of_text_numbers_and_structs_and_lists_of_them_are_not_loose() {
        const DONE: Shape = Shape::Struct {
            name: "Step",
            fields: &[FieldShape {
                name: "title",
                shape: &<String as PromptValue>::SHAPE,
            }],
        };
        assert!(!loose(&Shape::List(&DONE)));
        assert!(!loose(&Shape::Optional(&DONE)));
        assert!(loose(&TRIP), "`nights` is an `Option`");
        assert!(loose(&Shape::List(&Shape::Map(&Shape::Text))));
        assert!(loose(&Shape::Any));
    }

    #[test]
    fn a_mistake_in_steps_another_check_reads_is_left_to_it() {
        let steps = [Step::Element, Step::Field("nihgts"), Step::Field("n")];
        assert!(check_rest(&TRIP, "trip", &steps, 0, 2, "").is_empty());
        let m = check_rest(&TRIP, "trip", &steps, 0, 1, "@");
        assert!(
            m.as_str().starts_with("no field `nihgts`"),
            "{}",
            m.as_str()
        );
        let wrong_last = [Step::Element, Step::Field("nights"), Step::Field("n")];
        assert!(!check_rest(&TRIP, "trip", &wrong_last, 0, 2, "").is_empty());
    }

    #[test]
    fn a_loop_over_a_map_goes_over_its_keys() {
        const COUNTS: Shape = Shape::Map(&Shape::Number);
        assert!(check(&COUNTS, "k", &[Step::Element], 1, "").is_empty());
        let m = check(&COUNTS, "k", &[Step::Element, Step::Field("n")], 1, "@");
        assert_eq!(
            m.as_str(),
            "`k` is text: it has no field `n` (read as `k.n`)@fields are read from a struct that derives `PromptValue`, or from a map"
        );
    }

    #[test]
    fn a_missing_field_names_the_closest() {
        let m = check(&TRIP, "s", &[Step::Element, Step::Field("nihgts")], 1, "@");
        assert_eq!(
            m.as_str(),
            "no field `nihgts` in `City` (read as `s.nihgts`)@did you mean `nights`?"
        );
        let m = check(&CITY, "c", &[Step::Field("population")], 0, "@");
        assert_eq!(
            m.as_str(),
            "no field `population` in `City` (read as `c.population`)@its fields are `name`, `nights`"
        );
    }

    #[test]
    fn reading_into_text_or_a_list_says_what_it_is() {
        let m = check(
            &CITY,
            "c",
            &[Step::Field("name"), Step::Field("first")],
            0,
            "@",
        );
        assert_eq!(
            m.as_str(),
            "`c.name` is text: it has no field `first` (read as `c.name.first`)@fields are read from a struct that derives `PromptValue`, or from a map"
        );
        let m = check(&CITY, "c", &[Step::Value], 0, "@");
        assert!(
            m.as_str()
                .starts_with("`c` is a struct (`City`): it has no `items()`@")
        );
        // At the loop's variable, a step of the loop's own is the loop's to report.
        assert!(check(&CITY, "v", &[Step::Value, Step::Field("x")], 1, "").is_empty());
        let m = check(&TRIP, "trip", &[Step::Field("name")], 0, "");
        assert!(
            m.as_str()
                .starts_with("`trip` is a list: it has no field `name`")
        );
    }

    #[test]
    fn distance_ignores_case_and_long_names() {
        assert_eq!(distance(b"Name", b"nmae"), Some(2));
        assert_eq!(distance(b"", b"abc"), Some(3));
        assert_eq!(distance(&[b'a'; 65], b"a"), None);
    }

    #[test]
    fn a_long_message_is_cut_at_a_character() {
        let long = "é".repeat(CAPACITY);
        let m = check(&CITY, "c", &[Step::Field("x")], 0, &long);
        assert!(m.as_str().len() <= CAPACITY);
        assert!(m.as_str().ends_with('é'));
    }
}
