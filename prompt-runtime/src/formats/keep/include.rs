//! keep's `{{include:NAME}}` in agent prompts: the `## Prompt` section of `.prompt/NAME`
//! (or the whole document when it has none), itself expanded, at most three levels deep,
//! no document twice on one chain, a missing one an error.

use std::fmt;

/// Why an agent prompt's includes cannot be expanded (keep raises the same three).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IncludeError {
    /// `.prompt/NAME` does not exist.
    NotFound(String),
    /// The document is already on the chain of includes.
    Cycle(String),
    /// Includes nest deeper than keep allows (3).
    TooDeep,
    /// The expanded text would pass [`MAX_EXPANDED`] bytes (a document including another
    /// many times, at each of three levels). keep sets no such limit; promptkit does, so
    /// that hostile documents cannot exhaust memory.
    TooLarge,
}

impl fmt::Display for IncludeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IncludeError::NotFound(id) => write!(f, "prompt include not found: {id}"),
            IncludeError::Cycle(id) => {
                write!(f, "prompt include cycle: {id} already on the chain")
            }
            IncludeError::TooDeep => write!(f, "prompt include depth exceeded (max {MAX_DEPTH})"),
            IncludeError::TooLarge => write!(
                f,
                "prompt includes expand past {MAX_EXPANDED} bytes: a document is included too many times"
            ),
        }
    }
}

impl std::error::Error for IncludeError {}

const MAX_DEPTH: usize = 3;

/// The most bytes an agent prompt's includes may expand to: 16 MiB, far past any prompt.
pub const MAX_EXPANDED: usize = 16 << 20;

/// `{{include:NAME}}` at the start of `text`: its length and NAME
/// (`[a-zA-Z0-9][a-zA-Z0-9/_-]*`, so no `.`, no space, no way out of `.prompt/`).
fn include_at(text: &str) -> Option<(usize, &str)> {
    let rest = text.strip_prefix("{{include:")?;
    let len = rest
        .bytes()
        .enumerate()
        .take_while(|&(i, b)| {
            b.is_ascii_alphanumeric() || (i > 0 && matches!(b, b'/' | b'_' | b'-'))
        })
        .count();
    if len == 0 || !rest[len..].starts_with("}}") {
        return None;
    }
    Some(("{{include:".len() + len + 2, &rest[..len]))
}

/// Expands the includes of the agent prompt `id` (`.prompt/agent/reflect`), whose prompt
/// text is `body`. `lookup(NAME)` gives the content of `.prompt/NAME` (a keep document, or
/// a prompt's body), `None` when there is none.
///
/// ```
/// use prompt_runtime::formats::keep::{expand_includes, IncludeError};
///
/// let docs = |name: &str| match name {
///     "agent/system" => Some("# System\n\n## Prompt\nBe brief.\n".to_owned()),
///     "agent/loop" => Some("## Prompt\n{{include:agent/loop}}".to_owned()),
///     _ => None,
/// };
/// let body = "{{include:agent/system}}\n\nThen answer.";
/// assert_eq!(expand_includes(".prompt/agent/ask", body, docs).unwrap(), "Be brief.\n\nThen answer.");
/// assert_eq!(
///     expand_includes(".prompt/agent/ask", "{{include:agent/loop}}", docs),
///     Err(IncludeError::Cycle(".prompt/agent/loop".to_owned()))
/// );
/// ```
pub fn expand_includes(
    id: &str,
    body: &str,
    mut lookup: impl FnMut(&str) -> Option<String>,
) -> Result<String, IncludeError> {
    let mut chain = vec![id.to_owned()];
    expand(body, &mut chain, 0, &mut lookup)
}

fn expand(
    body: &str,
    chain: &mut Vec<String>,
    depth: usize,
    lookup: &mut impl FnMut(&str) -> Option<String>,
) -> Result<String, IncludeError> {
    if !body.contains("{{include:") {
        return Ok(body.to_owned());
    }
    if depth >= MAX_DEPTH {
        return Err(IncludeError::TooDeep);
    }
    let mut out = String::with_capacity(body.len());
    let mut at = 0;
    let mut copied = 0;
    while let Some(offset) = body[at..].find("{{include:") {
        let start = at + offset;
        let Some((len, name)) = include_at(&body[start..]) else {
            at = start + 1;
            continue;
        };
        let target = format!(".prompt/{name}");
        if chain.contains(&target) {
            return Err(IncludeError::Cycle(target));
        }
        let content = lookup(name).ok_or_else(|| IncludeError::NotFound(target.clone()))?;
        let doc = super::read(&content);
        let inner = doc.prompt.map_or(content.as_str(), |p| p);
        chain.push(target);
        let expanded = expand(inner, chain, depth + 1, lookup)?;
        chain.pop();
        out.push_str(&body[copied..start]);
        out.push_str(&expanded);
        if out.len() > MAX_EXPANDED {
            return Err(IncludeError::TooLarge);
        }
        copied = start + len;
        at = copied;
    }
    out.push_str(&body[copied..]);
    if out.len() > MAX_EXPANDED {
        return Err(IncludeError::TooLarge);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_nest_three_levels_and_no_deeper() {
        let docs = |name: &str| -> Option<String> {
            let n: usize = name.strip_prefix("d")?.parse().ok()?;
            Some(format!("## Prompt\n<{n}>{{{{include:d{}}}}}", n + 1))
        };
        // the top body is level 0: d1, d2 and d3 expand, d3's own include is too deep
        assert_eq!(
            expand_includes("top", "{{include:d1}}", docs),
            Err(IncludeError::TooDeep)
        );
        let shallow = |name: &str| match name {
            "a" => Some("## Prompt\nA {{include:b}}".to_owned()),
            "b" => Some("## Prompt\nB {{include:c}}".to_owned()),
            "c" => Some("no section: the whole text".to_owned()),
            _ => None,
        };
        assert_eq!(
            expand_includes("top", "[{{include:a}}]", shallow).unwrap(),
            "[A B no section: the whole text]"
        );
    }

    #[test]
    fn includes_that_multiply_stop_at_the_size_limit() {
        // each level includes the next 100 times: 10^4 copies of 10 KB, refused early
        let docs = |name: &str| -> Option<String> {
            let n: usize = name.strip_prefix("m")?.parse().ok()?;
            if n == 3 {
                return Some("x".repeat(10_000));
            }
            Some(format!(
                "## Prompt\n{}",
                format!("{{{{include:m{}}}}}", n + 1).repeat(100)
            ))
        };
        assert_eq!(
            expand_includes("top", "{{include:m1}}", docs),
            Err(IncludeError::TooLarge)
        );
    }

    #[test]
    fn only_well_formed_names_include_and_a_missing_one_is_an_error() {
        let none = |_: &str| None;
        for text in [
            "{{include:../x}}",
            "{{include:}}",
            "{{include:a b}}",
            "{{include:-a}}",
            "{{include:a}",
        ] {
            assert_eq!(expand_includes("top", text, none).unwrap(), text);
        }
        assert_eq!(
            expand_includes("top", "{{include:agent/x}}", none),
            Err(IncludeError::NotFound(".prompt/agent/x".to_owned()))
        );
        // the including document itself is on the chain
        let me = |_: &str| Some("## Prompt\nme".to_owned());
        assert_eq!(
            expand_includes(".prompt/agent/me", "{{include:agent/me}}", me),
            Err(IncludeError::Cycle(".prompt/agent/me".to_owned()))
        );
    }
}
