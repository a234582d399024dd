//! keep's prompt documents: rule lines and a `## Prompt` section.
//!
//! A document is read as keep reads it: the section runs from a `## Prompt` heading to the
//! next `## ` heading (a `###` heading stays inside) or the end, stripped. A line outside
//! that section is a rule line when every token on it is `key=value`; any other line
//! (a title, a note) is text and ignored. A document without the section is not a
//! candidate.

use super::rules::{RuleLine, Rules};

/// A keep document's rules and its prompt text, if it has a `## Prompt` section.
pub(crate) struct KeepDoc<'a> {
    pub rules: Rules,
    pub prompt: Option<&'a str>,
}

/// True for a `## ` heading (level two exactly), whose title is `title` when given.
fn level_two(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("## ")?;
    Some(rest.trim())
}

pub(crate) fn read(text: &str) -> KeepDoc<'_> {
    let mut lines = Vec::new();
    // (start, end) byte offsets of the section's text.
    let mut section: Option<(usize, usize)> = None;
    let mut inside = false;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let start = offset;
        offset += raw.len();
        if let Some(title) = level_two(line) {
            if inside {
                inside = false;
                if let Some((_, end)) = &mut section {
                    *end = start;
                }
            }
            if title == "Prompt" && section.is_none() {
                inside = true;
                section = Some((offset, text.len()));
            }
            continue;
        }
        if inside {
            continue;
        }
        if let Some(rule) = RuleLine::keep(line) {
            lines.push(rule);
        }
    }
    KeepDoc {
        rules: Rules { lines },
        prompt: section.map(|(start, end)| text[start..end].trim()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_runs_to_the_next_level_two_heading_and_keeps_level_three() {
        let doc = read(
            "type=meeting project=myapp\n\n## Prompt\n\nSummarize.\n### Format\nBullets.\n\n## Notes\ntype=ignored\n",
        );
        assert_eq!(doc.prompt, Some("Summarize.\n### Format\nBullets."));
        // rule lines outside the section count, wherever they are
        let shown: Vec<String> = doc.rules.lines.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["type=meeting project=myapp", "type=ignored"]);
    }

    #[test]
    fn text_lines_are_not_rules_and_a_doc_without_the_section_has_no_prompt() {
        let doc = read("# Custom summarization\ntopic=code\nSee topic=code docs\n");
        assert_eq!(doc.rules.lines.len(), 1);
        assert_eq!(doc.prompt, None);
        let doc = read("## Prompt\r\n\r\n  Only this.  \r\n");
        assert_eq!(doc.prompt, Some("Only this."));
        assert!(doc.rules.is_default());
        // `##Prompt` and `## Prompts` are other headings
        assert_eq!(read("##Prompt\nx").prompt, None);
        assert_eq!(read("## Prompts\nx").prompt, None);
    }

    #[test]
    fn rule_lines_inside_the_section_are_prompt_text() {
        let doc = read("## Prompt\nformat=markdown\n");
        assert!(doc.rules.is_default());
        assert_eq!(doc.prompt, Some("format=markdown"));
    }
}
