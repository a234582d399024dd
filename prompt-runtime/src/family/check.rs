//! The checks of a family read from a prompts folder: a default (a member without rules;
//! of several, the first by id is the fallback, the others are chosen by id), no two
//! members with the same rules. With them, selection always finds a member, so a derived
//! family's `render` cannot fail.

use super::Member;
use crate::diagnostic::{Diagnostic, SourceFile};
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
    for (i, later) in members.iter().enumerate() {
        if later.member.rules.is_default() {
            continue;
        }
        let earlier = members[..i]
            .iter()
            .find(|e| e.member.rules.same_as(&later.member.rules));
        if let Some(earlier) = earlier {
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
    }
    found
}
