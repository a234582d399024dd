//! keep's prompt documents with their own tags: `scope`, a glob over the item's id, and
//! `_when`, a condition.

use super::select::{self, Gate};
use super::{Choice, Family, Member, Tags, common_folder};
use crate::formats::keep;
use std::fmt;

/// A prompt document promptic refuses: it carries keep's `_when` condition, a CEL
/// expression over the item. promptic does not evaluate it, and choosing the document
/// without it would choose unlike keep, so the family is not built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedCondition {
    /// The document's id.
    pub id: String,
    /// Its `_when` condition, as written.
    pub condition: String,
}

impl fmt::Display for UnsupportedCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "prompt doc `{}` has a `_when` condition (`{}`), which promptic does not evaluate: keep would choose it only for items the condition holds for; remove the `_when` tag (use rule lines or `scope`), or leave the document out",
            self.id, self.condition
        )
    }
}

impl std::error::Error for UnsupportedCondition {}

impl Family {
    /// Reads keep's prompt documents with their own tags, `(id, content, tags)`, as
    /// [`from_keep_docs`](Family::from_keep_docs) does, and keeps each document's `scope`
    /// (its first value), which [`select_for`](Family::select_for) applies. A document
    /// with a prompt and a `_when` condition is refused ([`UnsupportedCondition`]).
    ///
    /// ```
    /// use promptic::family::Family;
    /// use promptic::Tags;
    ///
    /// let scoped: Tags = [("scope", "*@*")].into_iter().collect();
    /// let family = Family::from_keep_docs_with_tags([
    ///     (".prompt/supernode/default", "## Prompt\nA factsheet.", Tags::new()),
    ///     (".prompt/supernode/email", "## Prompt\nA contact card.", scoped),
    /// ])
    /// .unwrap();
    /// let none = Tags::new();
    /// assert_eq!(family.select_for(&none, Some("alice@example.com")).unwrap().id, ".prompt/supernode/email");
    /// assert_eq!(family.select_for(&none, Some("notes/today")).unwrap().id, ".prompt/supernode/default");
    /// // without an item id a scoped document is no candidate
    /// assert_eq!(family.select(&none).unwrap().id, ".prompt/supernode/default");
    ///
    /// let when: Tags = [("_when", "item.content_type == 'text/x-rust'")].into_iter().collect();
    /// let refused = Family::from_keep_docs_with_tags([(".prompt/summarize/rust", "## Prompt\nR", when)]);
    /// assert_eq!(refused.unwrap_err().id, ".prompt/summarize/rust");
    /// ```
    pub fn from_keep_docs_with_tags<I, D, C>(docs: I) -> Result<Family, UnsupportedCondition>
    where
        I: IntoIterator<Item = (D, C, Tags)>,
        D: Into<String>,
        C: AsRef<str>,
    {
        let mut members: Vec<(Member, Option<String>)> = Vec::new();
        let mut skipped = Vec::new();
        let mut ids = Vec::new();
        for (id, content, tags) in docs {
            let id = id.into();
            ids.push(id.clone());
            let doc = keep::read(content.as_ref());
            let Some(prompt) = doc.prompt else {
                skipped.push(id);
                continue;
            };
            // keep tests the condition only of a document it would use
            if let Some(condition) = tags.values("_when").iter().find(|v| !v.is_empty()) {
                return Err(UnsupportedCondition {
                    id,
                    condition: condition.clone(),
                });
            }
            let scope = tags
                .values("scope")
                .first()
                .filter(|s| !s.is_empty())
                .cloned();
            let member = Member {
                id,
                prompt: prompt.to_owned(),
                rules: doc.rules,
            };
            members.push((member, scope));
        }
        members.sort_by(|a, b| a.0.id.cmp(&b.0.id));
        skipped.sort();
        let (members, scopes): (Vec<Member>, Vec<Option<String>>) = members.into_iter().unzip();
        let mut family = Family::new(common_folder(&ids), members);
        family.skipped = skipped;
        family.scopes = scopes;
        Ok(family)
    }

    /// The `scope` of each member, in id order (`None` for a member without one); empty
    /// for a family read without documents' tags.
    pub fn scopes(&self) -> &[Option<String>] {
        &self.scopes
    }

    /// The member keep chooses for an item with these tags and this id: as
    /// [`select`](Family::select), except that a member with a `scope` takes part only
    /// when an item id is given and the scope matches it (Python's `fnmatch`: `*` any
    /// run, `?` one character, `[...]` a class), and then by the scope alone: its
    /// specificity is the scope's length without `*` and `?`, and its rules are not read.
    ///
    /// ```
    /// use promptic::family::Family;
    /// use promptic::Tags;
    ///
    /// let scope = |s: &str| -> Tags { [("scope", s)].into_iter().collect() };
    /// let family = Family::from_keep_docs_with_tags([
    ///     ("any-url", "## Prompt\nU", scope("https://*")),
    ///     ("docs-site", "## Prompt\nD", scope("https://docs.rs/*")),
    ///     ("paper", "type=paper\n## Prompt\nP", Tags::new()),
    /// ])
    /// .unwrap();
    /// let paper: Tags = [("type", "paper")].into_iter().collect();
    /// // the longer scope is the more specific; both beat a one-pair rule
    /// assert_eq!(family.select_for(&paper, Some("https://docs.rs/x")).unwrap().id, "docs-site");
    /// assert_eq!(family.select_for(&paper, Some("note")).unwrap().id, "paper");
    /// ```
    pub fn select_for(&self, tags: &Tags, item_id: Option<&str>) -> Option<&Member> {
        self.choose_for(tags, item_id).map(|c| c.member)
    }

    /// Like [`select_for`](Family::select_for), with the rule line that decided (`None`
    /// for a default or a scope) and the specificity.
    pub fn choose_for(&self, tags: &Tags, item_id: Option<&str>) -> Option<Choice<'_>> {
        // Python: an empty id is no id
        let item_id = item_id.filter(|id| !id.is_empty());
        let gates = self.members.iter().enumerate().map(|(i, m)| {
            let gate = match (self.scopes.get(i).and_then(Option::as_deref), item_id) {
                (None, _) => Gate::Rules,
                (Some(_), None) => Gate::Out,
                (Some(scope), Some(id)) if keep::fnmatch(id, scope) => {
                    Gate::Scope(scope.chars().filter(|c| !matches!(c, '*' | '?')).count())
                }
                (Some(_), Some(_)) => Gate::Out,
            };
            (&m.rules, gate)
        });
        let chosen = select::choose_gated(gates, tags)?;
        let member = self.members.get(chosen.index)?;
        Some(Choice {
            member,
            line: chosen.line.and_then(|l| member.rules.lines.get(l)),
            specificity: chosen.specificity,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(pairs: &[(&str, &str)]) -> Tags {
        pairs.iter().copied().collect()
    }

    /// keep raises where it needs a prompt and none resolves; an empty item id is no id
    /// (a scoped document is then no candidate), and a document without rules always
    /// resolves.
    #[test]
    fn require_for_fails_as_keep_does_when_nothing_resolves() {
        let scoped = || {
            Family::from_keep_docs_with_tags([
                (
                    ".prompt/analyze/mail",
                    "## Prompt\nM",
                    tags(&[("scope", "*@*")]),
                ),
                (
                    ".prompt/analyze/paper",
                    "type=paper\n## Prompt\nP",
                    Tags::new(),
                ),
            ])
            .unwrap()
        };
        let family = scoped();
        let paper = tags(&[("type", "paper")]);
        assert_eq!(
            family.require_for(&paper, Some("a@b")).unwrap().id,
            ".prompt/analyze/mail"
        );
        assert_eq!(
            family.require_for(&paper, None).unwrap().id,
            ".prompt/analyze/paper"
        );
        for id in [None, Some("")] {
            let err = family.require_for(&Tags::new(), id).unwrap_err();
            assert_eq!(err.item_id, None);
            assert_eq!(
                err.to_string(),
                "no matching prompt doc in `.prompt/analyze` for tags (no tags); candidates: `.prompt/analyze/mail` (scope *@*), `.prompt/analyze/paper` (type=paper)"
            );
        }
        let err = family.require_for(&Tags::new(), Some("memo")).unwrap_err();
        assert_eq!(err.item_id.as_deref(), Some("memo"));
        // `require` is `require_for` without an item
        assert_eq!(
            family.require(&Tags::new()).unwrap_err(),
            family.require_for(&Tags::new(), None).unwrap_err()
        );
        let with_default = Family::from_keep_docs_with_tags([(
            ".prompt/analyze/default",
            "## Prompt\nD",
            Tags::new(),
        )])
        .unwrap();
        assert_eq!(
            with_default
                .require_for(&Tags::new(), Some("memo"))
                .unwrap()
                .id,
            ".prompt/analyze/default"
        );
    }

    #[test]
    fn a_scope_ignores_the_documents_rules_and_competes_by_its_length() {
        let family = Family::from_keep_docs_with_tags([
            (
                "a",
                "type=x\n## Prompt\nA",
                tags(&[("scope", "*@example.com")]),
            ),
            ("b", "type=x project=p\n## Prompt\nB", Tags::new()),
            ("c", "## Prompt\nC", Tags::new()),
        ])
        .unwrap();
        // `@example.com` is 12 characters: more specific than two pairs, rules unread
        let choice = family
            .choose_for(&tags(&[("type", "y")]), Some("bo@example.com"))
            .unwrap();
        assert_eq!((choice.member.id.as_str(), choice.specificity), ("a", 12));
        assert!(choice.line.is_none());
        // no item, or one the scope does not match: the scoped document is out
        assert_eq!(
            family.select_for(&tags(&[("type", "x")]), None).unwrap().id,
            "c"
        );
        assert_eq!(family.select_for(&Tags::new(), Some("")).unwrap().id, "c");
        assert_eq!(
            family
                .select_for(
                    &tags(&[("type", "x"), ("project", "p")]),
                    Some("x@other.org")
                )
                .unwrap()
                .id,
            "b"
        );
    }

    #[test]
    fn a_scope_of_only_wildcards_ties_with_a_default_and_the_first_id_wins() {
        let family = Family::from_keep_docs_with_tags([
            ("a-default", "## Prompt\nD", Tags::new()),
            ("b-any", "## Prompt\nAny", tags(&[("scope", "*")])),
        ])
        .unwrap();
        assert_eq!(
            family.select_for(&Tags::new(), Some("id")).unwrap().id,
            "a-default"
        );
    }

    #[test]
    fn the_first_scope_value_counts_and_an_empty_condition_is_none() {
        let mut t = tags(&[("scope", "x*"), ("scope", "*")]);
        t.insert("_when", "");
        let family = Family::from_keep_docs_with_tags([("s", "## Prompt\nS", t)]).unwrap();
        assert_eq!(family.scopes(), [Some("x*".to_owned())]);
        assert!(family.select_for(&Tags::new(), Some("yz")).is_none());
        // a condition on a document keep would skip anyway is not looked at
        let when = tags(&[("_when", "true")]);
        assert!(Family::from_keep_docs_with_tags([("e", "## Prompt\n", when.clone())]).is_ok());
        let err = Family::from_keep_docs_with_tags([("w", "## Prompt\nW", when)]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("prompt doc `w` has a `_when` condition (`true`)"),
            "{err}"
        );
    }
}
