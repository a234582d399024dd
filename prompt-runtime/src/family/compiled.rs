//! A member of a derived family, as a constant: what the generated `MEMBERS` lists.

use super::rules::{Pair, RuleLine, Rules};

/// One member of a family derived with `#[prompt(family = "...")]`: its name, its file and
/// its rules, all constants (the generated `MEMBERS` lists them in id order).
///
/// ```
/// use promptic::family::CompiledMember;
///
/// const MEETINGS: CompiledMember = CompiledMember {
///     name: "summarize/meetings",
///     path: "prompts/summarize/meetings.md",
///     rules: &[&[("type", "meeting"), ("project", "myapp")], &[("type", "standup")]],
/// };
/// assert!(!MEETINGS.is_default());
/// assert_eq!(MEETINGS.to_rules().to_string(), "type=meeting project=myapp | type=standup");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompiledMember {
    /// The prompt's name (`summarize/meetings`): what the generated `select` returns.
    pub name: &'static str,
    /// The prompt file (`prompts/summarize/meetings.md`).
    pub path: &'static str,
    /// The rule lines, each a list of `(key, value)` pairs; empty for the default.
    pub rules: &'static [&'static [(&'static str, &'static str)]],
}

impl CompiledMember {
    /// True for the member without rules.
    pub fn is_default(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rules as [`Rules`], to show or to compare with a family read at run time.
    pub fn to_rules(&self) -> Rules {
        Rules {
            lines: self
                .rules
                .iter()
                .map(|line| RuleLine {
                    pairs: line
                        .iter()
                        .map(|(key, value)| Pair {
                            key: (*key).to_owned(),
                            value: (*value).to_owned(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}
