//! The checks of a family read from a prompts folder: a default (a member without rules;
//! of several, the first by id is the fallback, the others are chosen by id), no two
//! members with the same rules. With them, selection always finds a member, so a derived
//! family's `render` cannot fail.

use super::Member;
use super::rules::Pair;
use crate::diagnostic::{Diagnostic, SourceFile};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::ops::Range;

/// A member and where it is written: its file, and the span of its `"match"` value.
pub(crate) struct Written<'a> {
    pub member: &'a Member,
    pub source: &'a SourceFile,
    pub rules_at: Option<Range<usize>>,
}

/// Every problem of family `name` (folder shown as `folder`), members in id order.
pub(crate) fn problems(name: &str, folder: &str, members: &[Written<'_>]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let defaults: Vec<&Written<'_>> = members
        .iter()
        .filter(|w| w.member.rules.is_default())
        .collect();
    // Several members may lack rules (keep looks some up by id, `analyze/incremental`):
    // the first by id is the one selection falls back to.
    if defaults.is_empty() {
        found.push(
            Diagnostic::new(format!("family `{name}` has no default member"))
                .in_file(format!("{folder}/"))
                .with_help(format!(
                    "add a prompt without `\"match\"` to `{folder}/` (`{folder}/default.md`): it is chosen when no member's rules hold, so a prompt is always chosen"
                )),
        );
    }
    // Each member's rules in canonical form, the first member with each form kept: a
    // later member finds the first earlier one with the same rules in one look-up, where
    // comparing it with every earlier member cost n² comparisons of every pair.
    let mut first_with: HashMap<Vec<Vec<&Pair>>, &Written<'_>> = HashMap::new();
    for later in members {
        if later.member.rules.is_default() {
            continue;
        }
        let earlier = match first_with.entry(later.member.rules.canonical()) {
            Entry::Occupied(first) => *first.get(),
            Entry::Vacant(slot) => {
                slot.insert(later);
                continue;
            }
        };
        let d = Diagnostic::new(format!(
            "`{}` has the same match rules as `{}`, so it is never chosen",
            later.member.id, earlier.member.id
        ));
        let d = match &later.rules_at {
            Some(span) => d.at(later.source, span.clone()),
            None => d.in_file(later.source.path()),
        };
        found.push(d.with_help(format!(
            "change its rules, or remove one of the two: of members whose rules hold alike, the name that sorts first (`{}`) wins",
            earlier.member.id
        )));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;

    fn member(id: String, lines: &[String]) -> Member {
        Member {
            id,
            prompt: String::new(),
            rules: Rules::parse_lines(lines.iter().map(String::as_str)).expect("rules parse"),
        }
    }

    fn check(members: &[Member], source: &SourceFile) -> Vec<Diagnostic> {
        let written: Vec<Written<'_>> = members
            .iter()
            .map(|member| Written {
                member,
                source,
                rules_at: None,
            })
            .collect();
        problems("f", "prompts/f", &written)
    }

    #[test]
    fn each_repeat_of_a_rule_set_names_the_first_member_with_it() {
        let source = SourceFile::new("prompts/f/x.md", "");
        let line = |s: &str| s.to_owned();
        let members = [
            member("a".into(), &[]),
            member("b".into(), &[line("x=1 y=2"), line("z=3")]),
            member("c".into(), &[line("z=3"), line("x=1 y=2")]),
            member("d".into(), &[line("y=2 x=1 x=1"), line("z=3")]),
            member("e".into(), &[line("x=1 y=2"), line("z=3")]),
        ];
        let messages: Vec<String> = check(&members, &source)
            .iter()
            .map(|d| d.message().to_owned())
            .collect();
        assert_eq!(
            messages,
            [
                "`d` has the same match rules as `b`, so it is never chosen",
                "`e` has the same match rules as `b`, so it is never chosen",
            ]
        );
    }

    /// Duplicates are found by one look-up per member, not by comparing every member with
    /// every earlier one, which would take 3 s for 1,000 members of 50 rule pairs and
    /// 11.8 s for 2,000.
    #[test]
    fn duplicate_rules_are_found_in_n_log_n_time() {
        let source = SourceFile::new("prompts/f/x.md", "");
        let family = |n: usize| -> Vec<Member> {
            let mut members = vec![member("default".into(), &[])];
            for i in 0..n {
                // 8 pairs over 2 lines, the last pair telling the members apart; every
                // tenth member repeats the one before it. (Small members keep the work in
                // cache at both sizes, so the ratio measures the algorithm.)
                let own = if i % 10 == 9 { i - 1 } else { i };
                let lines: Vec<String> = (0..2)
                    .map(|l| {
                        (0..4)
                            .map(|p| {
                                format!("k{l}_{p}=v{}", if l == 1 && p == 3 { own } else { p })
                            })
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect();
                members.push(member(format!("m{i:05}"), &lines));
            }
            members
        };
        let (small, large) = (family(300), family(3_000));
        assert_eq!(check(&small, &source).len(), 30);
        assert_eq!(check(&large, &source).len(), 300);
        crate::scaling::assert_linear(
            "the members",
            || assert_eq!(check(&small, &source).len(), 30),
            || assert_eq!(check(&large, &source).len(), 300),
        );
    }
}
