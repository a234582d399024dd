//! keep's error when no member of a family matches a document's tags.

use super::Tags;
use std::fmt;

/// No member's rules hold for the tags and the family has no default: keep's
/// `no matching prompt doc`, with the tags and every candidate's rules.
///
/// ```
/// use promptic::family::Family;
/// use promptic::Tags;
///
/// let family = Family::from_keep_docs([("paper", "type=paper\n## Prompt\nP")]);
/// let err = family.require(&Tags::new()).unwrap_err();
/// assert_eq!(err.candidates, [("paper".to_owned(), "type=paper".to_owned())]);
/// assert!(err.to_string().starts_with("no matching prompt doc for tags (no tags)"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoMatchingPrompt {
    /// The family's name (may be empty).
    pub family: String,
    /// The tags that matched nothing.
    pub tags: Tags,
    /// The item's id the members' scopes were matched against, when one was given.
    pub item_id: Option<String>,
    /// Each candidate's id and rules (`scope GLOB` for a member chosen by its scope), in
    /// id order.
    pub candidates: Vec<(String, String)>,
}

impl fmt::Display for NoMatchingPrompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no matching prompt doc")?;
        if !self.family.is_empty() {
            write!(f, " in `{}`", self.family)?;
        }
        write!(f, " for tags {}", self.tags)?;
        if let Some(id) = &self.item_id {
            write!(f, " and item `{id}`")?;
        }
        f.write_str("; candidates: ")?;
        if self.candidates.is_empty() {
            return f.write_str("none");
        }
        for (i, (id, rules)) in self.candidates.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{id}` ({rules})")?;
        }
        Ok(())
    }
}

impl std::error::Error for NoMatchingPrompt {}
