//! One keep document: its rule lines and its `## Prompt` section.

use super::pyspace;
use super::rules::{RuleLine, Rules, is_key};
use std::ops::Range;

/// A keep document's rules and its prompt text; `prompt` is `None` when keep passes the
/// document over (no `## Prompt` section, or an empty one).
pub(crate) struct KeepDoc<'a> {
    pub rules: Rules,
    pub prompt: Option<&'a str>,
}

const HEADING: &str = "## Prompt";

/// The byte offsets where lines start: 0 and after each `\n` (what a multi-line `^`
/// matches in Python; a lone `\r` starts no line).
fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1))
}

/// The section's bytes, unstripped: after the first `## Prompt` line (the heading, then
/// whitespace that holds a line break; the section starts after the last break of that
/// whitespace) up to the next line starting with `## `, or the end.
fn section(text: &str) -> Option<Range<usize>> {
    let start = line_starts(text).find_map(|at| {
        let after = at + text[at..].strip_prefix(HEADING).map(|_| HEADING.len())?;
        let rest = &text[after..];
        let run = rest.len() - rest.trim_start_matches(pyspace::is_space).len();
        rest[..run].rfind('\n').map(|nl| after + nl + 1)
    })?;
    let end = line_starts(text)
        .filter(|&at| at >= start)
        .find(|&at| text[at..].starts_with("## "))
        .unwrap_or(text.len());
    Some(start..end)
}

/// The rule line keep reads from one line of a document, if it is one.
pub(crate) fn rule_line(line: &str) -> Option<RuleLine> {
    let line = pyspace::strip(line);
    // `key=*` (an item must carry the tag) and `key=` (context) are other kinds of line
    // to keep's parser, and never match rules.
    if let Some(key) = line.strip_suffix("=*").or_else(|| line.strip_suffix('='))
        && is_key(key)
    {
        return None;
    }
    RuleLine::keep(line)
}

pub(crate) fn read(text: &str) -> KeepDoc<'_> {
    let lines = text.split('\n').filter_map(rule_line).collect();
    let prompt = section(text)
        .map(|range| pyspace::strip(&text[range]))
        .filter(|p| !p.is_empty());
    KeepDoc {
        rules: Rules { lines },
        prompt,
    }
}

/// The rule-shaped lines inside a keep document's `## Prompt` section, with their line
/// numbers (from 1). keep reads them as match rules, wherever they are; a document that
/// means them as prompt text chooses its prompt differently than its author expects.
///
/// ```
/// use promptic::formats::keep::prompt_rule_lines;
///
/// let doc = "type=paper\n\n## Prompt\nSummarize the paper.\nformat=markdown\n";
/// let found = prompt_rule_lines(doc);
/// assert_eq!(found.len(), 1);
/// assert_eq!((found[0].0, found[0].1.to_string()), (5, "format=markdown".to_owned()));
/// ```
pub fn prompt_rule_lines(text: &str) -> Vec<(usize, RuleLine)> {
    let Some(range) = section(text) else {
        return Vec::new();
    };
    let first = text[..range.start].matches('\n').count() + 1;
    text[range]
        .split('\n')
        .enumerate()
        .filter_map(|(i, line)| rule_line(line).map(|rule| (first + i, rule)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> Vec<String> {
        read(text)
            .rules
            .lines
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn the_section_runs_to_the_next_level_two_heading_and_keeps_level_three() {
        let doc = read(
            "type=meeting project=myapp\n\n## Prompt\n\nSummarize.\n### Format\nBullets.\n\n## Notes\nmore text\n",
        );
        assert_eq!(doc.prompt, Some("Summarize.\n### Format\nBullets."));
    }

    #[test]
    fn an_empty_section_is_no_prompt_even_when_a_later_one_has_text() {
        assert_eq!(read("type=a\n## Prompt\n\n   \n## Notes\nx").prompt, None);
        // the heading as the last line, with or without its line break
        assert_eq!(read("type=a\n## Prompt").prompt, None);
        assert_eq!(read("type=a\n## Prompt\n").prompt, None);
        // only the first section counts
        assert_eq!(read("## Prompt\n## Prompt\nlater\n").prompt, None);
    }

    #[test]
    fn the_heading_is_exactly_two_hashes_one_space_and_prompt() {
        for odd in [
            "##  Prompt\nx",
            "## \tPrompt\nx",
            "##Prompt\nx",
            "## Prompts\nx",
            "## Prompt x\ny",
            " ## Prompt\nx",
        ] {
            assert_eq!(read(odd).prompt, None, "{odd:?}");
        }
        // trailing whitespace on the heading line is allowed, Python's included
        assert_eq!(read("## Prompt \t\u{1f}\r\nbody\r\n").prompt, Some("body"));
        // an odd spelling earlier does not hide the real heading later
        assert_eq!(
            read("##  Prompt\nodd\n## Prompt\nreal").prompt,
            Some("real")
        );
        // a `\r` alone does not start a line
        assert_eq!(read("x\r## Prompt\nbody").prompt, None);
    }

    #[test]
    fn the_prompt_is_stripped_of_python_whitespace() {
        assert_eq!(
            read("## Prompt\n\u{1c}\u{a0} Go. \u{3000}\u{1f}").prompt,
            Some("Go.")
        );
        assert_eq!(read("## Prompt\n\u{1c}\u{2028}\n").prompt, None);
    }

    #[test]
    fn rule_lines_come_from_the_whole_document() {
        let text = "# Title\ntopic=code\nSee topic=code docs\n## Prompt\nformat=markdown\nWrite.\n## Notes\nlang=en\n";
        assert_eq!(rules(text), ["topic=code", "format=markdown", "lang=en"]);
        // the section keeps the line as text too
        assert_eq!(read(text).prompt, Some("format=markdown\nWrite."));
    }

    #[test]
    fn prerequisite_and_context_lines_are_no_rules() {
        assert!(rules("type=*\n## Prompt\nP").is_empty());
        assert!(rules("  type=  \n## Prompt\nP").is_empty());
        // a `*` among other pairs is a literal value
        assert_eq!(rules("type=* lang=en\n## Prompt\nP"), ["type=* lang=en"]);
        // a bad key makes `=*` an ordinary (failing) token
        assert!(rules("1x=*\n## Prompt\nP").is_empty());
    }

    #[test]
    fn a_repeated_key_keeps_its_last_value_and_counts_once() {
        let doc = read("type=a lang=en type=b\n## Prompt\nP");
        let line = &doc.rules.lines[0];
        assert_eq!(line.to_string(), "type=b lang=en");
        assert_eq!(line.pairs.len(), 2);
    }

    #[test]
    fn tokens_split_on_python_whitespace() {
        assert_eq!(rules("a=1\u{1d}b=2\n## Prompt\nP"), ["a=1 b=2"]);
        assert_eq!(rules("\u{1e}a=1\u{85}\n## Prompt\nP"), ["a=1"]);
        // a value may hold `=`; a key is ASCII
        assert_eq!(rules("q=a=b\n## Prompt\nP"), ["q=a=b"]);
        assert!(rules("ключ=x\n## Prompt\nP").is_empty());
    }

    #[test]
    fn rule_lines_in_the_section_are_found_with_their_line_numbers() {
        let text = "type=a\n## Prompt\n\nWrite.\nx=1 y=2\n## Notes\nz=3\n";
        let found: Vec<(usize, String)> = prompt_rule_lines(text)
            .into_iter()
            .map(|(n, l)| (n, l.to_string()))
            .collect();
        assert_eq!(found, [(5, "x=1 y=2".to_owned())]);
        assert!(prompt_rule_lines("type=a\nno section").is_empty());
    }
}
