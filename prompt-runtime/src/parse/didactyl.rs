//! didactyl's template format: a personality, a `---template---` line, then sections.
//!
//! ```text
//! You are a careful assistant.
//! ---template---
//! - section: admin_identity
//!   role: system
//!   content: |
//!     Your administrator is {{admin_name}}.
//! - section: history
//!   role: expand
//!   limit: 10
//! - section: question
//!   role: user
//!   content: {{question}}
//! ```
//!
//! Above the marker is the personality, sent as written as the system message
//! `system_prompt`. Below it, `- section: NAME` starts a section; `role:` is `system`
//! (the default), `user`, `assistant`, or `expand` for the conversation's history;
//! `limit:` an integer (0, the default, for all); `content: |` starts an indented block
//! (dedented, ending at the next `- section:`, surrounding blank lines dropped) and
//! `content: text` gives one line. `{{ name }}` placeholders are read by the one lexer
//! ([`Syntax::Braces`]), so the same file compiles with `#[derive(Prompt)]`, where each
//! name is checked like `$name` and an `expand` section binds to the context field of its
//! name.
//!
//! The chat a template gives, [`ChatTemplate::messages`], is built in `chat/template.rs`,
//! above the core.

use super::lexer::{Syntax, Token};
use super::{Node, Placeholder, Section, SectionKind};
use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use crate::role::Role;
use crate::source::normalize;
use crate::suggest::closest;
use std::ops::Range;

/// The line that splits the personality from the sections.
pub const MARKER: &str = "---template---";

/// A parsed didactyl template.
#[derive(Clone, Debug)]
pub struct ChatTemplate {
    pub(crate) source: SourceFile,
    personality: Range<usize>,
    pub(crate) sections: Vec<TemplateSection>,
}

/// One `- section:` of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateSection {
    /// The section's name, trimmed.
    pub name: String,
    /// Its role, or `None` for `expand` (the history).
    pub role: Option<Role>,
    /// For `expand`: the last this many messages, 0 for all.
    pub limit: u64,
    name_span: Range<usize>,
    pub(crate) content: Vec<Piece>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Text as written: a byte range of the source.
    Text(Range<usize>),
    /// `{{ name }}`.
    Var { name: String, span: Range<usize> },
}

const ROLES: [&str; 4] = ["system", "user", "assistant", "expand"];
const KEYS: [&str; 3] = ["role", "limit", "content"];

impl ChatTemplate {
    /// Reads a template; `Ok(None)` when the text has no `---template---` line (the caller
    /// falls back, as didactyl does). Every problem is reported, at its line and column,
    /// and nothing is half-built.
    ///
    /// ```
    /// use promptic::chat::ChatTemplate;
    ///
    /// assert!(ChatTemplate::parse("just a personality").unwrap().is_none());
    /// let err = ChatTemplate::parse("P\n---template---\n- section: a\n  role: sytem\n").unwrap_err();
    /// assert_eq!(err.0[0].message(), "unknown role `sytem`");
    /// assert_eq!(err.0[0].help(), Some("did you mean `system`? the roles are `system`, `user`, `assistant` and `expand`"));
    /// assert_eq!(err.0[0].location().unwrap().line, 4);
    /// ```
    pub fn parse(text: &str) -> Result<Option<ChatTemplate>, Diagnostics> {
        Self::parse_file("template", text)
    }

    /// [`ChatTemplate::parse`] with the path shown in diagnostics.
    pub fn parse_file(path: &str, text: &str) -> Result<Option<ChatTemplate>, Diagnostics> {
        let source = SourceFile::new(path, normalize(text));
        let body = 0..source.text().len();
        match read(&source, body) {
            None => Ok(None),
            Some((template, diagnostics)) => diagnostics.into_result(template).map(Some),
        }
    }

    /// The personality, stripped.
    pub fn personality(&self) -> &str {
        self.source.text()[self.personality.clone()].trim()
    }

    /// The sections, in order.
    pub fn sections(&self) -> &[TemplateSection] {
        &self.sections
    }

    /// Every `{{name}}` the sections use, in order, each once.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for section in &self.sections {
            for piece in &section.content {
                if let Piece::Var { name, .. } = piece
                    && seen.insert(name.as_str())
                {
                    names.push(name);
                }
            }
        }
        names
    }

    /// Checks every `{{name}}` against the names the application resolves; each unknown
    /// one is reported where it is written, with the closest known name.
    ///
    /// ```
    /// use promptic::chat::ChatTemplate;
    ///
    /// let t = ChatTemplate::parse("P\n---template---\n- section: q\n  role: user\n  content: {{ questoin }}\n")
    ///     .unwrap()
    ///     .unwrap();
    /// let err = t.check(&["question"]).unwrap_err();
    /// assert_eq!(err.0[0].message(), "unknown placeholder `{{questoin}}`");
    /// assert_eq!(err.0[0].help(), Some("did you mean `{{question}}`?"));
    /// assert!(t.check(&["questoin"]).is_ok());
    /// ```
    pub fn check(&self, known: &[&str]) -> Result<(), Diagnostics> {
        let mut diagnostics = Diagnostics::default();
        let lookup: std::collections::HashSet<&str> = known.iter().copied().collect();
        for section in &self.sections {
            for piece in &section.content {
                let Piece::Var { name, span } = piece else {
                    continue;
                };
                if lookup.contains(name.as_str()) {
                    continue;
                }
                let d = Diagnostic::new(format!("unknown placeholder `{{{{{name}}}}}`"))
                    .at(&self.source, span.clone());
                diagnostics.push(match closest(name, known.iter().copied()) {
                    Some(near) => d.with_help(format!("did you mean `{{{{{near}}}}}`?")),
                    None => d.with_help(format!(
                        "the names this template may use are {}",
                        list(known)
                    )),
                });
            }
        }
        diagnostics.into_result(())
    }
}

fn list(names: &[&str]) -> String {
    if names.is_empty() {
        return "none".to_owned();
    }
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The nodes of a prompt file in didactyl's format, for the parser: the personality as
/// literal text, then each section. `None` when `body` has no marker line.
pub(crate) fn nodes(source: &SourceFile, body: Range<usize>) -> Option<(Vec<Node>, Diagnostics)> {
    let (template, diagnostics) = read(source, body)?;
    let mut nodes = Vec::new();
    let personality = template.personality;
    let text = source.text();
    let trimmed_start = personality.start
        + (text[personality.clone()].len() - text[personality.clone()].trim_start().len());
    let trimmed_end = personality.start + text[personality.clone()].trim_end().len();
    if trimmed_start < trimmed_end {
        nodes.push(Node::Text(trimmed_start..trimmed_end));
    }
    for section in template.sections {
        let kind = match section.role {
            Some(role) => SectionKind::Message(role),
            None => SectionKind::History {
                limit: Some(section.limit),
                name_span: section.name_span.clone(),
            },
        };
        nodes.push(Node::Section(Section {
            name: section.name,
            kind,
            span: section.name_span,
        }));
        for piece in section.content {
            nodes.push(match piece {
                Piece::Text(range) => Node::Text(range),
                Piece::Var { name, span } => Node::Placeholder(Placeholder {
                    name,
                    span,
                    braced: true,
                }),
            });
        }
    }
    Some((nodes, diagnostics))
}

/// The byte ranges of `body`'s lines, without their line ends.
fn lines(text: &str, body: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = body.start;
    for (i, _) in text[body.clone()].match_indices('\n') {
        out.push(start..body.start + i);
        start = body.start + i + 1;
    }
    out.push(start..body.end);
    out
}

/// Reads the template in `body`; the diagnostics say what was wrong.
fn read(source: &SourceFile, body: Range<usize>) -> Option<(ChatTemplate, Diagnostics)> {
    let text = source.text();
    if !text[body.clone()].contains(MARKER) {
        return None;
    }
    let all = lines(text, body.clone());
    let marker = all
        .iter()
        .position(|l| text[l.clone()].trim_end() == MARKER)?;
    let personality = body.start..all[marker].start.saturating_sub(1).max(body.start);
    let mut diagnostics = Diagnostics::default();
    let mut sections: Vec<TemplateSection> = Vec::new();
    // Lines of the content block being read, and whether one is open.
    let mut block: Option<Vec<Range<usize>>> = None;
    for line in &all[marker + 1..] {
        let raw = &text[line.clone()];
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix("- section:") {
            close_block(source, &mut block, &mut sections, &mut diagnostics);
            let name = rest.trim();
            let at = line.start + (raw.len() - raw.trim_start().len());
            let name_start = at + "- section:".len() + (rest.len() - rest.trim_start().len());
            if name.is_empty() {
                diagnostics.push(
                    Diagnostic::new("a section needs a name")
                        .at(source, at..line.end)
                        .with_help("write `- section: NAME`"),
                );
            }
            sections.push(TemplateSection {
                name: name.to_owned(),
                role: Some(Role::System),
                limit: 0,
                name_span: name_start..name_start + name.len(),
                content: Vec::new(),
            });
            continue;
        }
        if let Some(lines) = &mut block {
            lines.push(line.clone());
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let at = line.start + (raw.len() - raw.trim_start().len());
        let Some((key, value)) = trimmed.split_once(':') else {
            diagnostics.push(
                Diagnostic::new("a template line is `- section: NAME` or `key: value`")
                    .at(source, at..line.end)
                    .with_help("the keys are `role`, `limit` and `content`"),
            );
            continue;
        };
        let key = key.trim();
        let value_start = at + trimmed.find(':').unwrap_or(0) + 1;
        let value_start = value_start
            + (text[value_start..line.end].len() - text[value_start..line.end].trim_start().len());
        let value_span = value_start..value_start + value.trim().len();
        let value = value.trim();
        let Some(section) = sections.last_mut() else {
            diagnostics.push(
                Diagnostic::new(format!("`{key}:` outside a section"))
                    .at(source, at..line.end)
                    .with_help("start a section with `- section: NAME` above it"),
            );
            continue;
        };
        match key {
            "role" => match value {
                "system" | "user" | "assistant" => section.role = Role::from_word(value),
                "expand" => section.role = None,
                _ => {
                    let d =
                        Diagnostic::new(format!("unknown role `{value}`")).at(source, value_span);
                    let roles = "the roles are `system`, `user`, `assistant` and `expand`";
                    diagnostics.push(match closest(value, ROLES) {
                        Some(near) => d.with_help(format!("did you mean `{near}`? {roles}")),
                        None => d.with_help(roles),
                    });
                }
            },
            "limit" => match value.parse::<u64>() {
                Ok(n) => section.limit = n,
                Err(_) => diagnostics.push(
                    Diagnostic::new(format!("`limit` must be a whole number, found `{value}`"))
                        .at(source, value_span)
                        .with_help(
                            "write `limit: 10` for the last ten messages, `limit: 0` for all",
                        ),
                ),
            },
            "content" => {
                if value == "|" {
                    block = Some(Vec::new());
                } else {
                    section.content = pieces(source, &[value_span], &mut diagnostics);
                }
            }
            _ => {
                let d =
                    Diagnostic::new(format!("unknown key `{key}`")).at(source, at..at + key.len());
                diagnostics.push(match closest(key, KEYS) {
                    Some(near) => d.with_help(format!("did you mean `{near}`?")),
                    None => d.with_help("the keys are `role`, `limit` and `content`"),
                });
            }
        }
    }
    close_block(source, &mut block, &mut sections, &mut diagnostics);
    Some((
        ChatTemplate {
            source: source.clone(),
            personality,
            sections,
        },
        diagnostics,
    ))
}

/// Ends a `content: |` block: dedented, surrounding blank lines dropped.
fn close_block(
    source: &SourceFile,
    block: &mut Option<Vec<Range<usize>>>,
    sections: &mut [TemplateSection],
    diagnostics: &mut Diagnostics,
) {
    let Some(lines) = block.take() else {
        return;
    };
    let text = source.text();
    let blank = |l: &Range<usize>| text[l.clone()].trim().is_empty();
    let first = lines.iter().position(|l| !blank(l));
    let last = lines.iter().rposition(|l| !blank(l));
    let (Some(first), Some(last)) = (first, last) else {
        return;
    };
    let kept = &lines[first..=last];
    // Indentation is ASCII spaces and tabs (as Python's `textwrap.dedent` counts it), so
    // the cut is always at a character boundary; other white space (U+1680, U+3000, …)
    // is content. A line shorter in indentation than the block (a blank one) loses only
    // what it has.
    let leading = |l: &Range<usize>| {
        text[l.clone()]
            .bytes()
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count()
    };
    let indent = kept
        .iter()
        .filter(|l| !blank(l))
        .map(leading)
        .min()
        .unwrap_or(0);
    let dedented: Vec<Range<usize>> = kept
        .iter()
        .map(|l| l.start + indent.min(leading(l))..l.end)
        .collect();
    if let Some(section) = sections.last_mut() {
        section.content = pieces(source, &dedented, diagnostics);
    }
}

/// The pieces of content lines (each a source range), joined with their `\n`s.
fn pieces(
    source: &SourceFile,
    lines: &[Range<usize>],
    diagnostics: &mut Diagnostics,
) -> Vec<Piece> {
    let text = source.text();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            // The line end before this line, as it stands in the source.
            let newline = lines[i - 1].end;
            out.push(Piece::Text(newline..newline + 1));
        }
        for token in Syntax::Braces.tokenize(&text[line.clone()], line.start) {
            match token {
                Token::Text(range) | Token::Escape(range) => out.push(Piece::Text(range)),
                Token::Placeholder { span, name, .. } => out.push(Piece::Var {
                    name: text[name].to_owned(),
                    span,
                }),
                Token::InvalidBrace(range) => {
                    let name = text[range.start + 2..range.end].trim_start();
                    diagnostics.push(
                        Diagnostic::new(format!("`{{{{{name}` is never closed on its line"))
                            .at(source, range.clone())
                            .with_help(format!("write `{{{{{name}}}}}`")),
                    );
                    out.push(Piece::Text(range));
                }
            }
        }
    }
    out
}
