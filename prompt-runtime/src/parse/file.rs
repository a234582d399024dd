//! A prompt file: its text, its frontmatter if any, where its body lies, and how its
//! placeholders are written — what the parser reads.

use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use crate::parse::lexer::Syntax;
use crate::source::{Frontmatter, decode, normalize, split_frontmatter};
use crate::suggest::closest;
use std::ops::Range;

/// Reads a `"placeholders"` setting (a prompt's frontmatter or `promptic.json`): the JSON
/// string `"dollar"` (`$name`), `"braces"` (`{{name}}`) or `"keep"` (keep's agent prompts:
/// `{name}`, `{name|fallback}`).
pub(crate) fn syntax_setting(
    source: &SourceFile,
    json: &str,
    span: Range<usize>,
) -> Result<Syntax, Diagnostic> {
    let value: Option<String> = serde_json::from_str(json).ok();
    match value.as_deref() {
        Some("dollar") => Ok(Syntax::Dollar),
        Some("braces") => Ok(Syntax::Braces),
        Some("keep") => Ok(Syntax::Keep),
        Some(other) => {
            let d = Diagnostic::new(format!(
                "`placeholders` must be \"dollar\", \"braces\" or \"keep\", found {json}"
            ))
            .at(source, span);
            Err(match closest(other, ["dollar", "braces", "keep"]) {
                Some(s) => d.with_help(format!("did you mean \"{s}\"?")),
                None => d.with_help("write `\"placeholders\": \"braces\"` for `{{name}}`, or leave it out for `$name`"),
            })
        }
        None => Err(Diagnostic::new(format!(
            "`placeholders` must be the string \"dollar\", \"braces\" or \"keep\", found {json}"
        ))
        .at(source, span)
        .with_help(
            "write `\"placeholders\": \"braces\"` for `{{name}}`, or leave it out for `$name`",
        )),
    }
}

/// A loaded prompt file: its text, its frontmatter if any, and where its body lies.
#[derive(Clone, Debug)]
pub struct PromptFile {
    /// The normalised text of the whole file.
    pub source: SourceFile,
    /// The JSON frontmatter, when the file opens with a line holding exactly `{`.
    pub frontmatter: Option<Frontmatter>,
    /// The body's byte range in `source`, surrounding whitespace stripped.
    pub body: Range<usize>,
    /// How its placeholders are written: frontmatter `"placeholders"`, else the folder's
    /// default (`promptic.json`), else `$name`.
    pub syntax: Syntax,
}

impl PromptFile {
    /// Loads a prompt from its bytes. `path` is the path shown in diagnostics.
    ///
    /// ```
    /// use promptic::load::PromptFile;
    ///
    /// let file = PromptFile::from_bytes("prompts/a.md", b"{\n  \"title\": \"A\"\n}\n\nHello $name\n").unwrap();
    /// assert_eq!(file.body_text(), "Hello $name");
    /// assert_eq!(file.frontmatter.unwrap().entries[0].key, "title");
    /// ```
    pub fn from_bytes(path: &str, bytes: &[u8]) -> Result<PromptFile, Diagnostics> {
        let source = decode(path, bytes)?;
        Self::from_source(source)
    }

    /// Loads a prompt from text already in memory (normalised the same way).
    pub fn from_text(path: &str, text: &str) -> Result<PromptFile, Diagnostics> {
        Self::from_source(SourceFile::new(path, normalize(text)))
    }

    fn from_source(source: SourceFile) -> Result<PromptFile, Diagnostics> {
        let (frontmatter, body_start) = split_frontmatter(&source)?;
        let body = trimmed(source.text(), body_start);
        let syntax = match frontmatter.as_ref().and_then(|f| f.get("placeholders")) {
            Some(entry) => syntax_setting(&source, &entry.json, entry.span.clone())?,
            None => Syntax::Dollar,
        };
        Ok(PromptFile {
            source,
            frontmatter,
            body,
            syntax,
        })
    }

    /// True when the file's frontmatter says how placeholders are written; otherwise the
    /// folder's default applies.
    pub fn declares_syntax(&self) -> bool {
        self.frontmatter
            .as_ref()
            .is_some_and(|f| f.get("placeholders").is_some())
    }

    /// How the parser reads this file.
    pub fn parse_options(&self) -> super::ParseOptions {
        super::ParseOptions {
            strict: true,
            syntax: self.syntax,
        }
    }

    /// The body text.
    pub fn body_text(&self) -> &str {
        &self.source.text()[self.body.clone()]
    }
}

/// The range of `text[from..]` without leading and trailing whitespace.
fn trimmed(text: &str, from: usize) -> Range<usize> {
    let rest = &text[from..];
    let start = from + (rest.len() - rest.trim_start().len());
    let end = start + text[start..].trim_end().len();
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_bom_are_normalised() {
        let file = PromptFile::from_bytes(
            "p.md",
            b"\xEF\xBB\xBF{\r\n\"a\": 1\r\n}\r\n\r\nHi\r\nthere\r\n",
        )
        .unwrap();
        assert_eq!(file.body_text(), "Hi\nthere");
        assert_eq!(file.source.text(), "{\n\"a\": 1\n}\n\nHi\nthere\n");
    }

    #[test]
    fn non_utf8_names_the_byte_offset() {
        let err = PromptFile::from_bytes("prompts/bad.md", b"ok \xff no").unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("invalid byte 0xff at byte offset 3"),
            "{text}"
        );
        assert!(text.contains("--> prompts/bad.md"), "{text}");
        // the offset counts the BOM too: it is a byte of the file
        let err = PromptFile::from_bytes("b.md", b"\xEF\xBB\xBFab\xc3").unwrap_err();
        assert!(err.to_string().contains("byte offset 5"), "{err}");
    }

    #[test]
    fn body_is_stripped() {
        let file = PromptFile::from_text("p.md", "\n\n  hello\n\n").unwrap();
        assert_eq!(file.body_text(), "hello");
        assert!(file.frontmatter.is_none());
        let empty = PromptFile::from_text("p.md", "").unwrap();
        assert_eq!(empty.body_text(), "");
    }
}
