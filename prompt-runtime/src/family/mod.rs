//! Prompt families: several prompts for one job, one chosen by a document's tags.
//!
//! A family (keep's `.prompt/summarize/`) is a set of members, each with match rules over
//! tags. The most specific member whose rules hold is chosen (see [`Family::select`] for
//! the rules, which are keep's exactly). Families come from two places:
//!
//! - a folder of a prompts folder, `prompts/summarize/*.md`, whose members write their
//!   rules in the frontmatter (`"match": ["type=meeting project=myapp"]`). The derive
//!   (`#[prompt(family = "summarize")]`) checks every member at compile time and generates
//!   the selection; [`Project::family`](crate::load::Project::family) reads the same folder
//!   at run time with the same selection. Such a family must have a default member (no
//!   rules) and no two members with the same rules, so selection never fails. Several
//!   members may be without rules, as in keep (`analyze/default` and
//!   `analyze/incremental`): the first by id is the fallback, the others are taken by id
//!   ([`Family::member`]);
//! - keep's documents, read at run time with [`Family::from_keep_docs`]; as in keep, a
//!   family without a default may match nothing ([`Family::require`] gives keep's error).
//!
//! ```
//! use promptic::family::Family;
//! use promptic::Tags;
//!
//! let family = Family::from_keep_docs([
//!     (".prompt/summarize/default", "## Prompt\nSummarize in under 100 words."),
//!     (".prompt/summarize/meetings", "type=meeting\n\n## Prompt\nList the decisions."),
//!     (".prompt/summarize/myapp-meetings", "type=meeting project=myapp\n\n## Prompt\nList the action items."),
//! ]);
//! let tags: Tags = [("type", "meeting"), ("project", "myapp")].into_iter().collect();
//! let member = family.select(&tags).unwrap();
//! assert_eq!(member.id, ".prompt/summarize/myapp-meetings");
//! assert_eq!(member.prompt, "List the action items.");
//! let other: Tags = [("type", "paper")].into_iter().collect();
//! assert_eq!(family.select(&other).unwrap().id, ".prompt/summarize/default");
//! ```

mod check;
mod compiled;
mod doc_tags;
mod error;
mod match_key;
mod project;
mod scope_key;
mod select;

use crate::formats::keep::{rules, tags};
pub use compiled::CompiledMember;
pub use doc_tags::UnsupportedCondition;
pub use error::NoMatchingPrompt;
pub use match_key::{MATCH_KEY, read_match};
pub use rules::{Pair, RuleError, RuleLine, Rules};
pub use scope_key::{SCOPE_KEY, read_scope};
pub use tags::Tags;

pub(crate) use match_key::declares_rules;

/// One member of a family: its id, its prompt text and its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The member's id: keep's document id (`.prompt/summarize/conversation`), or the
    /// prompt's name in a prompts folder (`summarize/conversation`). Ties go to the id
    /// that sorts first.
    pub id: String,
    /// The prompt text: keep's `## Prompt` section, or the prompt file's body (not yet
    /// rendered: render it with [`Project::check`](crate::load::Project::check)).
    pub prompt: String,
    /// The match rules; none for the default member.
    pub rules: Rules,
}

/// What [`Family::choose`] chose, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice<'a> {
    /// The member chosen.
    pub member: &'a Member,
    /// Its rule line that held first; `None` when it is the default.
    pub line: Option<&'a RuleLine>,
    /// The line's pair count; 0 for the default.
    pub specificity: usize,
}

/// A family of prompts: members in id order, chosen by tags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Family {
    /// The family's name (`summarize`); for keep's documents, the ids' common folder
    /// (`.prompt/summarize`) or empty.
    pub name: String,
    members: Vec<Member>,
    skipped: Vec<String>,
    // keep's prompt-doc `scope` of each member (by index), when read with tags.
    scopes: Vec<Option<String>>,
}

impl Family {
    /// A family of these members, put in id order.
    ///
    /// ```
    /// use promptic::family::{Family, Member, Rules};
    ///
    /// let member = |id: &str, rules: &[&str]| Member {
    ///     id: id.into(),
    ///     prompt: format!("prompt {id}"),
    ///     rules: Rules::parse_lines(rules.iter().copied()).unwrap(),
    /// };
    /// let family = Family::new("review", vec![member("strict", &["mode=strict"]), member("default", &[])]);
    /// let ids: Vec<&str> = family.members().iter().map(|m| m.id.as_str()).collect();
    /// assert_eq!(ids, ["default", "strict"]);
    /// ```
    pub fn new(name: impl Into<String>, mut members: Vec<Member>) -> Family {
        members.sort_by(|a, b| a.id.cmp(&b.id));
        Family {
            name: name.into(),
            members,
            skipped: Vec::new(),
            scopes: Vec::new(),
        }
    }

    /// Reads keep's prompt documents, `(id, content)` pairs, as keep reads them (see
    /// [`formats::keep`](crate::formats::keep)): rule lines from the whole document (a
    /// line counts only when every token on it is `key=value`), and the `## Prompt`
    /// section (from that exact heading to the next `## ` heading or the end, stripped;
    /// `###` headings stay in). A document whose section is missing or empty is no
    /// candidate, as in keep: it is left out (see [`Family::skipped`]).
    ///
    /// ```
    /// use promptic::family::Family;
    /// use promptic::Tags;
    ///
    /// let family = Family::from_keep_docs([
    ///     ("code", "# Code docs\ntopic=code\n\n## Prompt\n\nSummarize this code documentation.\n### Focus\nThe API."),
    ///     ("draft", "topic=code\nno prompt section yet"),
    ///     ("empty", "topic=code\n## Prompt\n"),
    /// ]);
    /// assert_eq!(family.skipped(), ["draft", "empty"]);
    /// let code: Tags = [("topic", "code")].into_iter().collect();
    /// assert_eq!(family.select(&code).unwrap().prompt, "Summarize this code documentation.\n### Focus\nThe API.");
    /// // no default here, so a document about something else matches nothing
    /// assert!(family.select(&Tags::new()).is_none());
    /// ```
    pub fn from_keep_docs<I, D, C>(docs: I) -> Family
    where
        I: IntoIterator<Item = (D, C)>,
        D: Into<String>,
        C: AsRef<str>,
    {
        let mut members = Vec::new();
        let mut skipped = Vec::new();
        let mut ids = Vec::new();
        for (id, content) in docs {
            let id = id.into();
            ids.push(id.clone());
            let doc = crate::formats::keep::read(content.as_ref());
            match doc.prompt {
                Some(prompt) => members.push(Member {
                    id,
                    prompt: prompt.to_owned(),
                    rules: doc.rules,
                }),
                None => skipped.push(id),
            }
        }
        skipped.sort();
        let mut family = Family::new(common_folder(&ids), members);
        family.skipped = skipped;
        family
    }

    /// The members, in id order.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// The ids of keep documents left out for want of a `## Prompt` section with text,
    /// sorted.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }

    /// The member with this id (`.prompt/analyze/incremental`, or `analyze/incremental`
    /// in a prompts folder), as keep looks some prompts up by id rather than by tags. The
    /// id may also be given without the family's folder (`incremental`).
    ///
    /// ```
    /// use promptic::family::Family;
    ///
    /// let family = Family::from_keep_docs([
    ///     (".prompt/analyze/default", "## Prompt\nAnalyze."),
    ///     (".prompt/analyze/incremental", "## Prompt\nAnalyze the new parts."),
    /// ]);
    /// assert_eq!(family.member(".prompt/analyze/incremental").unwrap().prompt, "Analyze the new parts.");
    /// assert_eq!(family.member("incremental").unwrap().id, ".prompt/analyze/incremental");
    /// assert!(family.member("paper").is_none());
    /// // selection falls back to the first by id
    /// assert_eq!(family.select(&Default::default()).unwrap().id, ".prompt/analyze/default");
    /// ```
    pub fn member(&self, id: &str) -> Option<&Member> {
        let exact = self
            .members
            .binary_search_by(|m| m.id.as_str().cmp(id))
            .ok()
            .and_then(|i| self.members.get(i));
        exact.or_else(|| {
            if self.name.is_empty() {
                return None;
            }
            let full = format!("{}/{id}", self.name);
            self.members.iter().find(|m| m.id == full)
        })
    }

    /// The member without rules that selection falls back to (the first by id), if there
    /// is one.
    ///
    /// ```
    /// let family = promptic::family::Family::from_keep_docs([("default", "## Prompt\nHi.")]);
    /// assert_eq!(family.default_member().unwrap().id, "default");
    /// ```
    pub fn default_member(&self) -> Option<&Member> {
        self.members.iter().find(|m| m.rules.is_default())
    }

    /// The member for a document with these tags: keep's rules. Members are taken in id
    /// order; a member without rules has specificity 0; a member with rules has the pair
    /// count of its **first** line whose pairs all hold, and is no candidate when none
    /// holds. The most specific candidate wins; of equally specific ones, the first id.
    /// `None` when there is no candidate (only possible without a default).
    ///
    /// ```
    /// use promptic::family::Family;
    /// use promptic::Tags;
    ///
    /// let family = Family::from_keep_docs([
    ///     ("a", "topic=code\n## Prompt\nA"),
    ///     ("b", "type=paper\n## Prompt\nB"),
    /// ]);
    /// // both hold with one pair: the tie goes to `a`
    /// let tags: Tags = [("topic", "code"), ("type", "paper")].into_iter().collect();
    /// assert_eq!(family.select(&tags).unwrap().id, "a");
    /// ```
    pub fn select(&self, tags: &Tags) -> Option<&Member> {
        self.choose(tags).map(|c| c.member)
    }

    /// Like [`select`](Family::select), with the rule line that decided and its
    /// specificity.
    ///
    /// ```
    /// use promptic::family::Family;
    /// use promptic::Tags;
    ///
    /// let family = Family::from_keep_docs([("m", "type=paper\ntype=meeting project=x\n## Prompt\nM")]);
    /// let tags: Tags = [("type", "meeting"), ("project", "x")].into_iter().collect();
    /// let choice = family.choose(&tags).unwrap();
    /// assert_eq!(choice.line.unwrap().to_string(), "type=meeting project=x");
    /// assert_eq!(choice.specificity, 2);
    /// ```
    pub fn choose(&self, tags: &Tags) -> Option<Choice<'_>> {
        self.choose_for(tags, None)
    }

    /// Like [`select`](Family::select), with keep's error when nothing matches, for callers
    /// that need a prompt (keep fails rather than fall back silently).
    ///
    /// ```
    /// use promptic::family::Family;
    /// use promptic::Tags;
    ///
    /// let family = Family::from_keep_docs([(".prompt/analyze/paper", "type=paper\n## Prompt\nP")]);
    /// let tags: Tags = [("type", "meeting")].into_iter().collect();
    /// let err = family.require(&tags).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "no matching prompt doc in `.prompt/analyze` for tags type=meeting; candidates: `.prompt/analyze/paper` (type=paper)"
    /// );
    /// ```
    pub fn require(&self, tags: &Tags) -> Result<&Member, NoMatchingPrompt> {
        self.require_for(tags, None)
    }

    /// Like [`select_for`](Family::select_for) (tags, and the item's id for the members'
    /// `scope`), with keep's error when nothing matches: what keep's prompt-doc lookup does
    /// where a prompt is required. The error lists every candidate with its rules, or its
    /// scope.
    ///
    /// ```
    /// use promptic::family::Family;
    /// use promptic::Tags;
    ///
    /// let scope: Tags = [("scope", "*@*")].into_iter().collect();
    /// let family = Family::from_keep_docs_with_tags([
    ///     (".prompt/supernode/email", "## Prompt\nA contact card.", scope),
    ///     (".prompt/supernode/paper", "type=paper\n## Prompt\nA paper's card.", Tags::new()),
    /// ])
    /// .unwrap();
    /// let none = Tags::new();
    /// assert_eq!(family.require_for(&none, Some("ada@example.com"))?.id, ".prompt/supernode/email");
    /// let err = family.require_for(&none, Some("notes/today")).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "no matching prompt doc in `.prompt/supernode` for tags (no tags) and item `notes/today`; \
    ///      candidates: `.prompt/supernode/email` (scope *@*), `.prompt/supernode/paper` (type=paper)"
    /// );
    /// # Ok::<(), promptic::family::NoMatchingPrompt>(())
    /// ```
    pub fn require_for(
        &self,
        tags: &Tags,
        item_id: Option<&str>,
    ) -> Result<&Member, NoMatchingPrompt> {
        self.select_for(tags, item_id)
            .ok_or_else(|| NoMatchingPrompt {
                family: self.name.clone(),
                tags: tags.clone(),
                // Python: an empty id is no id.
                item_id: item_id.filter(|id| !id.is_empty()).map(str::to_owned),
                candidates: self
                    .members
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        let scope = self.scopes.get(i).and_then(Option::as_deref);
                        let how = match scope {
                            Some(scope) => format!("scope {scope}"),
                            None => m.rules.to_string(),
                        };
                        (m.id.clone(), how)
                    })
                    .collect(),
            })
    }
}

/// The folder all ids share (`.prompt/summarize` for `.prompt/summarize/default`, …), or
/// empty.
fn common_folder(ids: &[String]) -> String {
    let mut folders = ids.iter().map(|id| id.rsplit_once('/').map(|(f, _)| f));
    match folders.next() {
        Some(Some(first)) if folders.all(|f| f == Some(first)) => first.to_owned(),
        _ => String::new(),
    }
}
