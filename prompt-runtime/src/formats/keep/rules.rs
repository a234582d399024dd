//! Match rules: lines of `key=value` pairs. The pairs of a line must all hold (AND); the
//! lines are alternatives (OR). No negation, no wildcards: keep's rules, exactly.

use super::tags::Tags;
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

/// One `key=value` pair: holds when the tag `key` has `value` among its values.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pair {
    /// The tag (`[A-Za-z_][A-Za-z0-9_]*`).
    pub key: String,
    /// The value it must have (non-empty, no whitespace).
    pub value: String,
}

/// One rule line: pairs that must all hold.
///
/// ```
/// use promptic::family::RuleLine;
/// use promptic::Tags;
///
/// let line = RuleLine::parse("type=meeting project=myapp").unwrap();
/// let tags: Tags = [("type", "meeting"), ("project", "myapp")].into_iter().collect();
/// assert!(line.holds(&tags));
/// assert_eq!(line.pairs.len(), 2);
/// assert_eq!(line.to_string(), "type=meeting project=myapp");
///
/// let err = RuleLine::parse("type = paper").unwrap_err();
/// assert_eq!(err.help, "write `type=paper`, without spaces around `=`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleLine {
    /// The pairs, as written.
    pub pairs: Vec<Pair>,
}

/// A member's rules: lines that are alternatives. No lines: the family's default.
///
/// ```
/// use promptic::family::Rules;
/// use promptic::Tags;
///
/// let rules = Rules::parse_lines(["type=meeting project=myapp", "type=standup"]).unwrap();
/// let standup: Tags = [("type", "standup")].into_iter().collect();
/// assert_eq!(rules.specificity(&standup), Some(1));
/// assert_eq!(rules.specificity(&Tags::new()), None);
/// assert_eq!(Rules::default().specificity(&Tags::new()), Some(0));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The lines, in order: the first that holds decides the specificity.
    pub lines: Vec<RuleLine>,
}

/// Why a rule is not `key=value` pairs: a message, the byte span in the rule's text it is
/// about, and how to write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// What is wrong.
    pub message: String,
    /// The bytes of the rule text it points at.
    pub span: Range<usize>,
    /// How to write it.
    pub help: String,
}

/// A tag key: `[A-Za-z_][A-Za-z0-9_]*`.
pub(crate) fn is_key(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Each whitespace-separated token (Python's whitespace) of `text` with its byte range in `text`.
fn tokens(text: &str) -> impl Iterator<Item = (Range<usize>, &str)> {
    // Python's whitespace, as keep splits; the slices are of `text`, so a slice's offset
    // is its range.
    crate::python::space::split(text).map(move |token| {
        let start = token.as_ptr() as usize - text.as_ptr() as usize;
        (start..start + token.len(), token)
    })
}

/// A line's pairs as keep gathers a line into a map: a repeated key keeps its first place
/// and its last value, and counts once.
#[derive(Default)]
struct Gathered {
    pairs: Vec<Pair>,
    // key -> index in `pairs`, so that a line of many pairs is read in linear time
    at: HashMap<String, usize>,
}

impl Gathered {
    fn add(&mut self, found: Pair) {
        match self.at.get(&found.key) {
            Some(&i) => self.pairs[i].value = found.value,
            None => {
                self.at.insert(found.key.clone(), self.pairs.len());
                self.pairs.push(found);
            }
        }
    }
}

fn pair(token: &str) -> Option<Pair> {
    let (key, value) = token.split_once('=')?;
    (is_key(key) && !value.is_empty()).then(|| Pair {
        key: key.to_owned(),
        value: value.to_owned(),
    })
}

impl RuleLine {
    /// A rule line as keep reads a document's lines: `Some` only when every token is a
    /// `key=value` pair (and there is at least one).
    ///
    /// ```
    /// use promptic::family::RuleLine;
    ///
    /// assert!(RuleLine::keep("topic=code").is_some());
    /// assert!(RuleLine::keep("Summarize this code documentation.").is_none());
    /// assert!(RuleLine::keep("topic=code and more").is_none());
    /// assert!(RuleLine::keep("   ").is_none());
    /// // a key written twice keeps its last value and counts once
    /// assert_eq!(RuleLine::keep("type=a type=b").unwrap().to_string(), "type=b");
    /// ```
    pub fn keep(text: &str) -> Option<RuleLine> {
        let mut gathered = Gathered::default();
        for (_, token) in tokens(text) {
            gathered.add(pair(token)?);
        }
        let pairs = gathered.pairs;
        (!pairs.is_empty()).then_some(RuleLine { pairs })
    }

    /// A rule as a prompt's frontmatter `"match"` writes it; a malformed one is an error
    /// that says where and shows the `key=value` form. A key written twice keeps its last
    /// value, as in keep.
    pub fn parse(text: &str) -> Result<RuleLine, RuleError> {
        let all = 0..text.len();
        if text.trim().is_empty() {
            return Err(RuleError {
                message: "a match rule is empty".to_owned(),
                span: all,
                help: "write `key=value` pairs separated by spaces (`\"type=meeting\"`), or remove the rule".to_owned(),
            });
        }
        let found: Vec<(Range<usize>, &str)> = tokens(text).collect();
        // `type = paper`, `type= paper`, `type =paper`: spaces around `=`.
        let joined = join_spaced_equals(&found);
        let mut pairs = Gathered::default();
        for (range, token) in &found {
            if let Some(p) = pair(token) {
                pairs.add(p);
                continue;
            }
            if let Some(joined) = &joined {
                return Err(RuleError {
                    message: format!("malformed match rule `{}`", text.trim()),
                    span: all,
                    help: format!("write `{joined}`, without spaces around `=`"),
                });
            }
            let (message, help) = match token.split_once('=') {
                None => (
                    format!(
                        "`{token}` in match rule `{}` is not a `key=value` pair",
                        text.trim()
                    ),
                    format!("write each pair as `key=value`, e.g. `type={token}`"),
                ),
                Some((key, "")) => (
                    format!("tag `{key}` in match rule `{}` has no value", text.trim()),
                    format!("write the value after `=`: `{key}=meeting`"),
                ),
                Some((key, value)) => (
                    format!("`{key}` in match rule `{}` is not a tag name", text.trim()),
                    format!(
                        "a tag name is ASCII letters, digits and `_`, not starting with a digit: `{}={value}`",
                        suggested_key(key)
                    ),
                ),
            };
            return Err(RuleError {
                message,
                span: range.clone(),
                help,
            });
        }
        Ok(RuleLine { pairs: pairs.pairs })
    }

    /// True when every pair holds for `tags`.
    pub fn holds(&self, tags: &Tags) -> bool {
        self.pairs.iter().all(|p| tags.has(&p.key, &p.value))
    }

    /// The pairs sorted and without repeats: two lines with the same form hold for the
    /// same tags.
    pub(crate) fn canonical(&self) -> Vec<&Pair> {
        let mut pairs: Vec<&Pair> = self.pairs.iter().collect();
        pairs.sort();
        pairs.dedup();
        pairs
    }
}

/// The rule with spaces around its `=` signs removed, when that is what is wrong with it.
fn join_spaced_equals(found: &[(Range<usize>, &str)]) -> Option<String> {
    let words: Vec<&str> = found.iter().map(|(_, t)| *t).collect();
    let spaced = words
        .windows(2)
        .any(|w| w[0].ends_with('=') || w[1].starts_with('='));
    if !spaced {
        return None;
    }
    let mut joined = String::new();
    for (i, word) in words.iter().enumerate() {
        let glue = i > 0 && (word.starts_with('=') || words[i - 1].ends_with('='));
        if i > 0 && !glue {
            joined.push(' ');
        }
        joined.push_str(word);
    }
    let line = RuleLine::keep(&joined)?;
    Some(line.to_string())
}

/// `key` with every character a tag name may not hold replaced by `_`.
fn suggested_key(key: &str) -> String {
    let mut out: String = key
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

impl fmt::Display for RuleLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.pairs.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}={}", p.key, p.value)?;
        }
        Ok(())
    }
}

impl Rules {
    /// Parses rule lines as the frontmatter writes them (see [`RuleLine::parse`]); the
    /// error names the line it is on (from 0).
    pub fn parse_lines<'a>(
        lines: impl IntoIterator<Item = &'a str>,
    ) -> Result<Rules, (usize, RuleError)> {
        let lines = lines
            .into_iter()
            .enumerate()
            .map(|(i, line)| RuleLine::parse(line).map_err(|e| (i, e)))
            .collect::<Result<_, _>>()?;
        Ok(Rules { lines })
    }

    /// True when there are no lines: the family's default member.
    pub fn is_default(&self) -> bool {
        self.lines.is_empty()
    }

    /// The first line that holds for `tags`, with its index.
    pub fn first_holding(&self, tags: &Tags) -> Option<(usize, &RuleLine)> {
        self.lines.iter().enumerate().find(|(_, l)| l.holds(tags))
    }

    /// keep's specificity: 0 without rules, else the pair count of the first line that
    /// holds; `None` when no line holds (the member is not a candidate).
    pub fn specificity(&self, tags: &Tags) -> Option<usize> {
        if self.is_default() {
            return Some(0);
        }
        self.first_holding(tags).map(|(_, line)| line.pairs.len())
    }

    /// True when the two hold for exactly the same tags in the same way: the same lines in
    /// the same order, each with the same pairs in any order.
    pub fn same_as(&self, other: &Rules) -> bool {
        self.canonical() == other.canonical()
    }

    /// Each line's pairs sorted and without repeats, the lines in order: two members'
    /// rules hold alike exactly when these are equal (see [`Rules::same_as`]), so they
    /// can be a map's key.
    pub(crate) fn canonical(&self) -> Vec<Vec<&Pair>> {
        self.lines.iter().map(RuleLine::canonical).collect()
    }
}

/// The lines joined with ` | `; `(default)` without lines.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_default() {
            return f.write_str("(default)");
        }
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> RuleError {
        RuleLine::parse(text).unwrap_err()
    }

    #[test]
    fn spaces_around_equals_are_shown_joined() {
        let e = err("type = paper");
        assert_eq!(e.message, "malformed match rule `type = paper`");
        assert_eq!(e.span, 0..12);
        assert_eq!(e.help, "write `type=paper`, without spaces around `=`");
        assert_eq!(
            err("type= paper project =x").help,
            "write `type=paper project=x`, without spaces around `=`"
        );
    }

    #[test]
    fn each_kind_of_bad_token_points_at_it() {
        let e = err("type=meeting paper");
        assert_eq!(e.span, 13..18);
        assert!(
            e.message.starts_with("`paper` in match rule"),
            "{}",
            e.message
        );
        let e = err("type=");
        assert_eq!(e.message, "tag `type` in match rule `type=` has no value");
        let e = err("1st=x");
        assert_eq!(
            e.help,
            "a tag name is ASCII letters, digits and `_`, not starting with a digit: `_1st=x`"
        );
        let e = err("my-tag=x");
        assert!(e.help.ends_with("`my_tag=x`"), "{}", e.help);
        assert_eq!(err("  ").message, "a match rule is empty");
        assert_eq!(err("=x").span, 0..2);
    }

    #[test]
    fn values_may_hold_equals_signs_and_any_non_space() {
        let line = RuleLine::parse("q=a=b  lang=日本").unwrap();
        assert_eq!(line.pairs[0].value, "a=b");
        assert_eq!(line.pairs[1].value, "日本");
        // a non-ASCII space separates tokens too, and spans stay on its boundaries
        let e = err("type=x\u{3000}bad");
        assert_eq!(&"type=x\u{3000}bad"[e.span], "bad");
    }

    #[test]
    fn a_repeated_key_keeps_its_last_value_in_both_readings() {
        let line = RuleLine::parse("type=a project=x type=b").unwrap();
        assert_eq!(line.to_string(), "type=b project=x");
        assert_eq!(RuleLine::keep("type=a project=x type=b"), Some(line));
    }

    #[test]
    fn a_line_of_many_pairs_reads_in_linear_time() {
        let line = |n: usize| {
            (0..n)
                .map(|i| format!("k{i}=v"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (small, large) = (line(5_000), line(50_000));
        // Linear is about 10x, a scan per pair (quadratic) about 100x.
        crate::scaling::assert_linear(
            "a rule line of 50,000 pairs over 5,000",
            || assert!(RuleLine::keep(&small).is_some()),
            || assert!(RuleLine::keep(&large).is_some()),
        );
        assert_eq!(RuleLine::keep(&large).map(|l| l.pairs.len()), Some(50_000));
    }

    #[test]
    fn the_first_line_that_holds_decides_even_when_a_later_one_is_longer() {
        let rules = Rules::parse_lines(["a=1", "a=1 b=2"]).unwrap();
        let tags: Tags = [("a", "1"), ("b", "2")].into_iter().collect();
        assert_eq!(rules.specificity(&tags), Some(1));
    }

    #[test]
    fn same_rules_ignore_pair_order_but_not_line_order() {
        let a = Rules::parse_lines(["x=1 y=2", "z=3"]).unwrap();
        let b = Rules::parse_lines(["y=2 x=1 x=1", "z=3"]).unwrap();
        let c = Rules::parse_lines(["z=3", "x=1 y=2"]).unwrap();
        assert!(a.same_as(&b));
        assert!(!a.same_as(&c));
        assert!(Rules::default().same_as(&Rules::default()));
    }
}
