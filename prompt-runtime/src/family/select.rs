//! keep's selection: the most specific member wins; a tie goes to the first id.
//!
//! Members are taken in id order. A member without rules has specificity 0; one with
//! rules, the pair count of its first line that holds, and it is no candidate when none
//! holds. A member replaces the best so far only when it is strictly more specific, so of
//! equally specific members the first id wins. The generated `select` of a derived family
//! makes the same comparisons over constants.

use super::Tags;
use super::rules::Rules;

/// The member chosen: its index, the index of its line that held (`None` for the
/// default), and its specificity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chosen {
    pub index: usize,
    pub line: Option<usize>,
    pub specificity: usize,
}

/// How a member takes part, besides its rules (keep's prompt-doc `scope` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gate {
    /// By its rules.
    Rules,
    /// Not at all (its scope does not match the item, or there is no item).
    Out,
    /// By its scope, which matched the item: this specificity, its rules unread.
    Scope(usize),
}

/// Chooses among members' rules given in id order.
#[cfg(test)]
pub(crate) fn choose<'a>(
    members: impl IntoIterator<Item = &'a Rules>,
    tags: &Tags,
) -> Option<Chosen> {
    choose_gated(members.into_iter().map(|r| (r, Gate::Rules)), tags)
}

/// Chooses among members given in id order, each with its gate.
pub(crate) fn choose_gated<'a>(
    members: impl IntoIterator<Item = (&'a Rules, Gate)>,
    tags: &Tags,
) -> Option<Chosen> {
    let mut best: Option<Chosen> = None;
    for (index, (rules, gate)) in members.into_iter().enumerate() {
        let candidate = match gate {
            Gate::Out => continue,
            Gate::Scope(specificity) => Chosen {
                index,
                line: None,
                specificity,
            },
            Gate::Rules if rules.is_default() => Chosen {
                index,
                line: None,
                specificity: 0,
            },
            Gate::Rules => {
                let Some((line, held)) = rules.first_holding(tags) else {
                    continue;
                };
                Chosen {
                    index,
                    line: Some(line),
                    specificity: held.pairs.len(),
                }
            }
        };
        if best.is_none_or(|b| candidate.specificity > b.specificity) {
            best = Some(candidate);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(lines: &[&str]) -> Rules {
        Rules::parse_lines(lines.iter().copied()).unwrap()
    }

    fn tags(pairs: &[(&str, &str)]) -> Tags {
        pairs.iter().copied().collect()
    }

    /// keep's documented family: `type=meeting project=myapp` (2) beats `type=meeting`
    /// (1), which beats the default (0).
    #[test]
    fn keeps_documented_examples() {
        // in id order: conversation, default, meetings, myapp-meetings
        let family = [
            rules(&["type=conversation"]),
            rules(&[]),
            rules(&["type=meeting"]),
            rules(&["type=meeting project=myapp"]),
        ];
        let pick = |t: &[(&str, &str)]| choose(&family, &tags(t)).map(|c| c.index);
        assert_eq!(pick(&[("type", "meeting"), ("project", "myapp")]), Some(3));
        assert_eq!(pick(&[("type", "meeting"), ("project", "other")]), Some(2));
        assert_eq!(pick(&[("type", "conversation")]), Some(0));
        assert_eq!(pick(&[("topic", "code")]), Some(1));
        assert_eq!(pick(&[]), Some(1));
        let chosen = choose(&family, &tags(&[("type", "meeting"), ("project", "myapp")])).unwrap();
        assert_eq!((chosen.line, chosen.specificity), (Some(0), 2));
    }

    #[test]
    fn a_tie_goes_to_the_first_id_and_a_tag_may_hold_several_values() {
        let family = [rules(&["type=paper"]), rules(&["topic=code"]), rules(&[])];
        let t = tags(&[("type", "paper"), ("topic", "code")]);
        assert_eq!(choose(&family, &t).map(|c| c.index), Some(0));
        let t = tags(&[("type", "note"), ("type", "paper")]);
        assert_eq!(choose(&family, &t).map(|c| c.index), Some(0));
    }

    #[test]
    fn nothing_matches_without_a_default() {
        let family = [rules(&["type=paper"]), rules(&["type=conversation"])];
        assert_eq!(choose(&family, &tags(&[("type", "meeting")])), None);
        // the second line of a member counts when the first does not hold
        let family = [rules(&["type=paper", "topic=code"])];
        let chosen = choose(&family, &tags(&[("topic", "code")])).unwrap();
        assert_eq!(
            (chosen.index, chosen.line, chosen.specificity),
            (0, Some(1), 1)
        );
    }

    #[test]
    fn a_default_after_a_matching_member_does_not_win() {
        let family = [rules(&["a=1"]), rules(&[])];
        assert_eq!(
            choose(&family, &tags(&[("a", "1")])).map(|c| c.index),
            Some(0)
        );
    }
}
