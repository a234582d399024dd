//! A model's answer read into the Rust type a prompt declares for it.
//!
//! Models asked for JSON answer with bare JSON, with JSON in a fenced block (```` ```json
//! ````), or with JSON between sentences. [`parse_output`] finds the JSON in each of these
//! and reads it into `T`; when the text holds none, or the JSON does not fit `T`, the
//! [`OutputError`] says where, in the answer's own lines and columns.
//!
//! ```
//! use promptic::output::parse_output;
//! use serde::Deserialize;
//!
//! #[derive(Debug, Deserialize, PartialEq)]
//! struct Verdict {
//!     label: String,
//!     score: f64,
//! }
//!
//! let answer = "Here is my verdict:\n```json\n{\"label\": \"spam\", \"score\": 0.9}\n```\nHope it helps.";
//! let verdict: Verdict = parse_output(answer)?;
//! assert_eq!(verdict, Verdict { label: "spam".into(), score: 0.9 });
//!
//! let error = parse_output::<Verdict>("{\"label\": \"spam\"}").unwrap_err();
//! assert_eq!(error.to_string(), "the answer does not fit `Verdict`: missing field `score` at line 1, column 17");
//! # Ok::<(), promptic::output::OutputError>(())
//! ```

use serde_core::de::DeserializeOwned;
use std::fmt;

/// Why an answer could not be read into the prompt's output type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputError {
    /// What went wrong.
    pub message: String,
    /// The line of the answer where it went wrong (from 1), when it is known.
    pub line: Option<usize>,
    /// The column on that line (from 1, in characters).
    pub column: Option<usize>,
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, " at line {line}, column {column}")?;
        }
        Ok(())
    }
}

impl std::error::Error for OutputError {}

/// Reads the JSON in `answer` into `T`: the whole answer when it is JSON, else the first
/// fenced block (```` ```json ```` first, then any fence) that holds JSON, else the first
/// balanced `{…}` or `[…]` in the text.
pub fn parse_output<T: DeserializeOwned>(answer: &str) -> Result<T, OutputError> {
    let name = short_type_name::<T>();
    let Some((start, json)) = find_json(answer) else {
        return Err(OutputError {
            message: format!("the answer holds no JSON for `{name}`"),
            line: None,
            column: None,
        });
    };
    serde_json::from_str::<T>(json).map_err(|e| {
        let (line, column) = place(answer, start, json, e.line(), e.column());
        let message = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&suffix).unwrap_or(&message);
        OutputError {
            message: format!("the answer does not fit `{name}`: {message}"),
            line: Some(line),
            column: Some(column),
        }
    })
}

/// `Verdict` for `my_crate::Verdict`, `Vec<Verdict>` for `alloc::vec::Vec<my_crate::Verdict>`.
fn short_type_name<T>() -> String {
    let full = std::any::type_name::<T>();
    let mut out = String::with_capacity(full.len());
    let mut segment = String::new();
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            segment.push(c);
        } else {
            out.push_str(segment.rsplit("::").next().unwrap_or(&segment));
            segment.clear();
            out.push(c);
        }
    }
    out.push_str(segment.rsplit("::").next().unwrap_or(&segment));
    out
}

/// The byte offset and text of the JSON in `answer`.
fn find_json(answer: &str) -> Option<(usize, &str)> {
    let trimmed = answer.trim_start();
    let lead = answer.len() - trimmed.len();
    let trimmed = trimmed.trim_end();
    if starts_json(trimmed) && serde_json::from_str::<serde_core::de::IgnoredAny>(trimmed).is_ok() {
        return Some((lead, trimmed));
    }
    if let Some(found) = fenced(answer) {
        return Some(found);
    }
    balanced(answer).or_else(|| starts_json(trimmed).then_some((lead, trimmed)))
}

fn starts_json(text: &str) -> bool {
    text.starts_with('{') || text.starts_with('[')
}

/// The body of the first fenced block that holds JSON: a ```` ```json ```` block first,
/// then any other.
fn fenced<'a>(answer: &'a str) -> Option<(usize, &'a str)> {
    let mut blocks: Vec<(bool, usize, &'a str)> = Vec::new();
    let mut rest = answer;
    let mut offset = 0;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let Some(line_end) = after.find('\n') else {
            break;
        };
        let info = after[..line_end].trim();
        let body_start = open + 3 + line_end + 1;
        let body = &rest[body_start..];
        let Some(close) = body.find("```") else {
            break;
        };
        let text = body[..close].trim_end();
        blocks.push((info.eq_ignore_ascii_case("json"), offset + body_start, text));
        let consumed = body_start + close + 3;
        offset += consumed;
        rest = &rest[consumed..];
    }
    let json = |&(_, start, text): &(bool, usize, &'a str)| -> Option<(usize, &'a str)> {
        let trimmed = text.trim_start();
        starts_json(trimmed).then_some((start + (text.len() - trimmed.len()), trimmed))
    };
    blocks
        .iter()
        .filter(|b| b.0)
        .chain(blocks.iter().filter(|b| !b.0))
        .find_map(json)
}

/// How many opening brackets [`balanced`] tries: each try scans the rest of the text, so
/// a text of brackets alone must not cost the square of its length.
const MAX_TRIES: usize = 64;

/// The first balanced `{…}` or `[…]` (strings skipped) that is JSON, among the first
/// [`MAX_TRIES`] opening brackets.
fn balanced(answer: &str) -> Option<(usize, &str)> {
    let bytes = answer.as_bytes();
    let mut from = 0;
    let mut tries = 0;
    while let Some(at) = bytes[from..].iter().position(|b| *b == b'{' || *b == b'[') {
        tries += 1;
        if tries > MAX_TRIES {
            return None;
        }
        let start = from + at;
        if let Some(end) = matching(bytes, start) {
            let text = &answer[start..=end];
            if serde_json::from_str::<serde_core::de::IgnoredAny>(text).is_ok() {
                return Some((start, text));
            }
        }
        from = start + 1;
    }
    None
}

/// The index of the bracket that closes the one at `start`, skipping JSON strings.
fn matching(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, b) in bytes.iter().enumerate().skip(start) {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// serde_json's line and column within `json` (which starts at byte `start` of
/// `answer`) as a line and a column in characters of `answer`.
fn place(answer: &str, start: usize, json: &str, line: usize, column: usize) -> (usize, usize) {
    // The byte offset in `json` of serde_json's place (its column counts bytes).
    let line_start: usize = json
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let mut at = (start + line_start + column.saturating_sub(1)).min(answer.len());
    while !answer.is_char_boundary(at) {
        at -= 1;
    }
    let before = &answer[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Pick {
        id: u32,
    }

    #[test]
    fn finds_the_json_wherever_a_model_puts_it() {
        let cases = [
            ("{\"id\": 1}", 1),
            ("Sure! {\"id\": 3} is it.", 3),
            ("```\n{\"id\": 4}\n```", 4),
            ("a ```text\nnot json\n``` then ```json\n{\"id\": 5}\n```", 5),
            ("Braces {like this} first, then {\"id\": 6}.", 6),
            ("{\"id\": 7, \"note\": \"a } in a string\"}", 7),
        ];
        for (answer, id) in cases {
            assert_eq!(parse_output::<Pick>(answer), Ok(Pick { id }), "{answer}");
        }
        let list: Vec<Pick> = parse_output("[{\"id\": 1}, {\"id\": 2}]").unwrap();
        assert_eq!(list.len(), 2);
    }

    #[test]
    fn says_where_the_answer_does_not_fit() {
        let error =
            parse_output::<Pick>("Here:\n```json\n{\n  \"id\": \"one\"\n}\n```").unwrap_err();
        assert_eq!(
            error.message,
            "the answer does not fit `Pick`: invalid type: string \"one\", expected u32"
        );
        assert_eq!((error.line, error.column), (Some(4), Some(13)));
        let error = parse_output::<Vec<Pick>>("no json here").unwrap_err();
        assert_eq!(
            error.to_string(),
            "the answer holds no JSON for `Vec<Pick>`"
        );
        // Unbalanced or hostile text ends, and fails cleanly.
        let deep = "[".repeat(100_000);
        assert!(parse_output::<Pick>(&deep).is_err());
        let many = "{ ".repeat(200_000);
        assert!(parse_output::<Pick>(&many).is_err());
        assert!(parse_output::<Pick>("```json\n{").is_err());
    }
}
