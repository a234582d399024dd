//! Stage 2, parse: body text to nodes with byte spans.
//!
//! Two layers: the [`lexer`] finds `$` placeholders by Python `string.Template` rules, and
//! [`directive`] reads `{% ... %}` lines. This module builds the node tree from them: text,
//! placeholders, `$$`, and `{% if %}` blocks, which wrap whole lines. A directive's line,
//! newline included, renders to nothing, so a false branch leaves no blank line behind.
//! In a braces prompt, [`foreign`] finds the Jinja and Handlebars syntax that would
//! otherwise be copied into the text.
//!
//! What the parser reads is a [`PromptFile`]: a file's text with its frontmatter split off
//! and the placeholder syntax it declares. A body in didactyl's format (a `---template---`
//! line, then `- section:` entries) is read by `didactyl` into the same nodes, a section
//! per message; [`ChatTemplate`](crate::chat::ChatTemplate) is that reader's public face.
//! Nothing here uses the modules built on the core: [`Role`] and the
//! cache-breakpoint limit live below it.

pub(crate) mod didactyl;
pub mod directive;
pub(crate) mod file;
pub mod foreign;
pub mod lexer;

pub(crate) use file::{PromptFile, syntax_setting};

use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use crate::role::{MAX_CACHE_BREAKPOINTS, Role};
use crate::suggest::closest;
use directive::{Arg, ArgKind, Directive};
use lexer::Token;
use std::ops::Range;

/// A piece of a parsed prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// Literal text, a byte range of the source.
    Text(Range<usize>),
    /// `$$`: one literal `$`.
    Dollar(Range<usize>),
    /// `$name` or `${name}`.
    Placeholder(Placeholder),
    /// `{% if %}` … `{% else %}` … `{% endif %}`.
    If(IfBlock),
    /// `{% system NAME %}`, `{% user NAME %}`, `{% assistant NAME %}` or
    /// `{% history NAME limit=N %}`: where a chat section starts. Only at the top level of
    /// a prompt.
    Section(Section),
    /// `{% cache_breakpoint %}`: where the prompt's cacheable prefix ends, the directive's
    /// span. Only at the top level of a prompt.
    CacheBreakpoint(Range<usize>),
}

/// The start of a chat section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The section's name: given, or the role's word.
    pub name: String,
    /// What it holds.
    pub kind: SectionKind,
    /// The directive.
    pub span: Range<usize>,
}

/// What a chat section holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SectionKind {
    /// A message with this role; its content is the lines up to the next section.
    Message(Role),
    /// The messages of a context field, the last `limit` of them when a limit is given.
    History {
        /// The directive's `limit=N`.
        limit: Option<u64>,
        /// The span of the field's name.
        name_span: Range<usize>,
    },
}

/// A `$name` or `${name}` placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placeholder {
    /// The name, without `$` and braces.
    pub name: String,
    /// The whole placeholder as written.
    pub span: Range<usize>,
    /// Written as `${name}`.
    pub braced: bool,
}

/// An `{% if %}` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IfBlock {
    /// What is tested.
    pub condition: Condition,
    /// The `{% if ... %}` directive.
    pub span: Range<usize>,
    /// The lines rendered when the condition holds.
    pub then: Vec<Node>,
    /// The lines after `{% else %}`, if there is one.
    pub otherwise: Option<Vec<Node>>,
    /// The `{% else %}` directive, if there is one.
    pub else_span: Option<Range<usize>>,
    /// `{% else "why" %}`: the reason a guidance fence is a registered either-or.
    pub else_reason: Option<String>,
}

/// The condition of an `{% if %}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// `{% if name %}`: the value is present (or the flag is true).
    Set {
        /// The variable.
        name: String,
        /// Its span.
        span: Range<usize>,
    },
    /// `{% if name == "value" %}`.
    Equals {
        /// The variable.
        name: String,
        /// Its span.
        span: Range<usize>,
        /// The value compared with.
        value: String,
        /// The string literal's span.
        value_span: Range<usize>,
    },
}

impl Condition {
    /// The tested variable's name and span.
    pub fn name(&self) -> (&str, &Range<usize>) {
        match self {
            Condition::Set { name, span } | Condition::Equals { name, span, .. } => (name, span),
        }
    }
}

/// How placeholders are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    /// `${` not followed by `name}` (or `{{name` not closed on its line) is an error;
    /// otherwise it is literal text, as in Python.
    pub strict: bool,
    /// `$name` or `{{name}}`.
    pub syntax: lexer::Syntax,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            strict: true,
            syntax: lexer::Syntax::Dollar,
        }
    }
}

const KEYWORDS: [&str; 8] = [
    "if",
    "else",
    "endif",
    "system",
    "user",
    "assistant",
    "history",
    "cache_breakpoint",
];

/// Jinja's tags that are no directive here: named in a note, so that a template copied
/// from Jinja says what it is. (`else` and `endif` are directives; `elif` is not.)
const JINJA_TAGS: [&str; 22] = [
    "for",
    "endfor",
    "elif",
    "set",
    "endset",
    "macro",
    "endmacro",
    "call",
    "endcall",
    "include",
    "import",
    "from",
    "extends",
    "block",
    "endblock",
    "raw",
    "endraw",
    "with",
    "endwith",
    "filter",
    "endfilter",
    "break",
];

struct OpenBlock {
    block: IfBlock,
    else_span: Option<Range<usize>>,
}

impl OpenBlock {
    /// A block whose `if` could not be read: it balances its `endif` and renders nothing
    /// (resolve skips a condition with an empty name).
    fn unreadable(span: Range<usize>) -> OpenBlock {
        OpenBlock {
            block: IfBlock {
                condition: Condition::Set {
                    name: String::new(),
                    span: span.clone(),
                },
                span,
                then: Vec::new(),
                otherwise: None,
                else_span: None,
                else_reason: None,
            },
            else_span: None,
        }
    }

    fn nodes(&mut self) -> &mut Vec<Node> {
        match &mut self.block.otherwise {
            Some(nodes) => nodes,
            None => &mut self.block.then,
        }
    }
}

/// Parses `body` (a byte range of `source`) into nodes. Every problem is reported; the
/// returned nodes are still usable after errors (unclosed blocks are closed at the end), so
/// later stages can report their own problems too.
///
/// ```
/// use promptic::parse::{parse, Node, ParseOptions};
/// use promptic::SourceFile;
///
/// let source = SourceFile::new("p.md", "Hi $name\n{% if note %}\nNote: $note\n{% endif %}\nBye");
/// let (nodes, diagnostics) = parse(&source, 0..source.text().len(), ParseOptions::default());
/// assert!(diagnostics.is_empty());
/// assert!(matches!(nodes[1], Node::Placeholder(ref p) if p.name == "name"));
/// assert!(matches!(nodes[3], Node::If(_)));
/// ```
pub fn parse(
    source: &SourceFile,
    body: Range<usize>,
    options: ParseOptions,
) -> (Vec<Node>, Diagnostics) {
    // A file in didactyl's template format is read by its own front end into the same
    // nodes: sections, `{{name}}` placeholders.
    if let Some(read) = didactyl::nodes(source, body.clone()) {
        return read;
    }
    let text = source.text();
    let mut diagnostics = Diagnostics::default();
    let mut root: Vec<Node> = Vec::new();
    let mut stack: Vec<OpenBlock> = Vec::new();
    // `{% if %}`s past the nesting limit: reported once, balanced by their `endif`s.
    let mut excess = 0usize;
    // Chat sections: their names so far, and whether the text after the last one is to
    // be stripped at its start (each section's content is stripped like a body).
    let mut sections = Sections::default();
    let mut run_start = body.start;
    let mut line_start = body.start;
    loop {
        let line_end = text[line_start..body.end]
            .find('\n')
            .map_or(body.end, |i| line_start + i);
        let next = if line_end < body.end {
            line_end + 1
        } else {
            body.end
        };
        let line = &text[line_start..line_end];
        let trimmed = line.trim();
        let lead = line.len() - line.trim_start().len();
        let whole = trimmed.starts_with("{%")
            && trimmed.ends_with("%}")
            && trimmed.len() >= 4
            && !trimmed[2..trimmed.len() - 2].contains("{%")
            && !trimmed[2..trimmed.len() - 2].contains("%}");
        if whole {
            let span = line_start + lead..line_start + lead + trimmed.len();
            let lexed = directive::lex(source, span.clone());
            let starts_section = matches!(&lexed, Ok(d) if is_section(&d.keyword.text))
                && stack.is_empty()
                && excess == 0;
            let mut run = run_start..line_start;
            if sections.strip_next {
                run.start = text[run.clone()]
                    .find(|c: char| !c.is_whitespace())
                    .map_or(run.end, |i| run.start + i);
                sections.strip_next = run.is_empty();
            }
            if starts_section {
                run.end = run.start + text[run.clone()].trim_end().len();
            }
            let nodes = stack.last_mut().map_or(&mut root, OpenBlock::nodes);
            push_text(source, run, options, nodes, &mut diagnostics);
            match lexed {
                Ok(d) if is_section(&d.keyword.text) => section(
                    source,
                    d,
                    &mut root,
                    &stack,
                    excess,
                    &mut sections,
                    &mut diagnostics,
                ),
                Ok(d) => apply(
                    source,
                    d,
                    &mut root,
                    &mut stack,
                    &mut excess,
                    &mut diagnostics,
                ),
                Err(e) => {
                    diagnostics.push(e);
                    // Still open or close the block the directive names, so that one typo
                    // inside it is one error, not also an unbalanced block.
                    recover(source, span, &mut root, &mut stack, &mut excess);
                }
            }
            run_start = next;
        } else if let Some(at) = line.find("{%") {
            let start = line_start + at;
            // The `%}` is looked for after the `{%`: in `{%}` the two overlap.
            match line[at + 2..].find("%}") {
                Some(i) => diagnostics.push(
                    Diagnostic::new("a directive must stand on a line of its own")
                        .at(source, start..start + 2 + i + 2)
                        .with_help("put the directive on its own line: a block wraps whole lines, never part of one"),
                ),
                None => diagnostics.push(
                    Diagnostic::new("`{%` is never closed on its line")
                        .at(source, start..line_end)
                        .with_help("a directive is `{% keyword ... %}` on a line of its own, such as `{% if note %}`"),
                ),
            }
            // The rest of the line is not read: what it holds was meant inside the block
            // (`{% if note %}$note{% endif %}`), and reading it outside would be a second
            // error for this one.
            let nodes = stack.last_mut().map_or(&mut root, OpenBlock::nodes);
            push_text(
                source,
                run_start..line_start,
                options,
                nodes,
                &mut diagnostics,
            );
            run_start = next;
        }
        if line_end >= body.end {
            break;
        }
        line_start = next;
    }
    let at_top = stack.is_empty();
    let nodes = stack.last_mut().map_or(&mut root, OpenBlock::nodes);
    let mut run = run_start..body.end;
    if sections.strip_next {
        run.start = text[run.clone()]
            .find(|c: char| !c.is_whitespace())
            .map_or(run.end, |i| run.start + i);
    }
    if !sections.names.is_empty() && at_top {
        run.end = run.start + text[run.clone()].trim_end().len();
    }
    push_text(source, run, options, nodes, &mut diagnostics);
    while let Some(open) = stack.pop() {
        let (name, _) = open.block.condition.name();
        diagnostics.push(
            Diagnostic::new(format!("`{{% if {name} %}}` is never closed"))
                .at(source, open.block.span.clone())
                .with_help("add `{% endif %}` on a line of its own where the block ends"),
        );
        let parent = stack.last_mut().map_or(&mut root, OpenBlock::nodes);
        parent.push(Node::If(open.block));
    }
    (root, diagnostics)
}

/// The chat sections a parse has seen.
#[derive(Default)]
struct Sections {
    /// Each section's name and the span of its directive.
    names: Vec<(String, Range<usize>)>,
    /// The text after the last section directive is to be stripped at its start.
    strip_next: bool,
}

fn is_section(keyword: &str) -> bool {
    matches!(keyword, "system" | "user" | "assistant" | "history")
}

/// A section directive: checked and added at the top level.
fn section(
    source: &SourceFile,
    d: Directive,
    root: &mut Vec<Node>,
    stack: &[OpenBlock],
    excess: usize,
    sections: &mut Sections,
    diagnostics: &mut Diagnostics,
) {
    let keyword = d.keyword.text.as_str();
    if !stack.is_empty() || excess > 0 {
        diagnostics.push(
            Diagnostic::new(format!("`{keyword}` section inside an `{{% if %}}` block"))
                .at(source, d.span.clone())
                .with_help("a section holds blocks, not the other way round: start the section above the `{% if %}` and put the block inside it"),
        );
        return;
    }
    let (name, kind) = if keyword == "history" {
        let usage = "write `{% history NAME %}` or `{% history NAME limit=N %}`, NAME the context field holding the messages";
        let (field, rest) = match d.args.split_first() {
            Some((
                Arg {
                    kind: ArgKind::Name(n),
                    span,
                },
                rest,
            )) => ((n.clone(), span.clone()), rest),
            Some((other, _)) => {
                diagnostics.push(
                    Diagnostic::new(format!(
                        "`history` names a context field, found {}",
                        other.kind.describe()
                    ))
                    .at(source, other.span.clone())
                    .with_help(usage),
                );
                return;
            }
            None => {
                diagnostics.push(
                    Diagnostic::new(
                        "`history` needs the name of the context field that holds the messages",
                    )
                    .at(source, d.span.clone())
                    .with_help(usage),
                );
                return;
            }
        };
        let limit = match rest {
            [] => None,
            [
                Arg {
                    kind: ArgKind::Name(l),
                    ..
                },
                Arg {
                    kind: ArgKind::Assign,
                    ..
                },
                Arg {
                    kind: ArgKind::Int(n),
                    ..
                },
            ] if l == "limit" => Some(*n),
            [first, more @ ..] => {
                let end = more.last().unwrap_or(first).span.end;
                diagnostics.push(
                    Diagnostic::new("bad `limit` in `history`")
                        .at(source, first.span.start..end)
                        .with_help("write `limit=N` with N a whole number of messages: `{% history turns limit=10 %}`"),
                );
                return;
            }
        };
        (
            field.0,
            SectionKind::History {
                limit,
                name_span: field.1,
            },
        )
    } else {
        let role = Role::from_word(keyword).unwrap_or(Role::System);
        let name = match d.args.as_slice() {
            [] => keyword.to_owned(),
            [
                Arg {
                    kind: ArgKind::Name(n),
                    ..
                },
            ] => n.clone(),
            [first, more @ ..] => {
                let end = more.last().unwrap_or(first).span.end;
                diagnostics.push(
                    Diagnostic::new(format!("`{keyword}` takes one name, the section's"))
                        .at(source, first.span.start..end)
                        .with_help(format!(
                            "write `{{% {keyword} %}}` or `{{% {keyword} NAME %}}`"
                        )),
                );
                return;
            }
        };
        (name, SectionKind::Message(role))
    };
    // Text before the first section is the system message `system_prompt`.
    if sections.names.is_empty()
        && root
            .iter()
            .any(|n| !matches!(n, Node::Text(r) if r.is_empty()))
    {
        sections.names.push(("system_prompt".to_owned(), 0..0));
    }
    if let Some((_, first)) = sections.names.iter().find(|(n, _)| *n == name) {
        let help = if first.is_empty() {
            "the text before the first section is the section `system_prompt`; give this one another name".to_owned()
        } else {
            let (line, _) = source.line_col(first.start);
            format!("section `{name}` starts on line {line}; give this one another name")
        };
        diagnostics.push(
            Diagnostic::new(format!("a second section named `{name}`"))
                .at(source, d.span.clone())
                .with_help(help),
        );
    } else {
        sections.names.push((name.clone(), d.span.clone()));
    }
    sections.strip_next = true;
    root.push(Node::Section(Section {
        name,
        kind,
        span: d.span,
    }));
}

/// How deep `{% if %}` blocks may nest in one file. Deeper nesting is refused, with one
/// error, so that no later stage can run out of stack on it; resolve applies
/// [`crate::resolve::MAX_DEPTH`] to blocks and templates together.
pub const MAX_NESTING: usize = 64;

/// Opens a block, unless that would nest deeper than [`MAX_NESTING`]: then the first such
/// block is reported and every one is counted in `excess`, so their `endif`s balance.
fn open(
    source: &SourceFile,
    block: OpenBlock,
    stack: &mut Vec<OpenBlock>,
    excess: &mut usize,
    diagnostics: &mut Diagnostics,
) {
    if stack.len() < MAX_NESTING {
        stack.push(block);
        return;
    }
    if *excess == 0 {
        diagnostics.push(
            Diagnostic::new(format!(
                "blocks nested more than {MAX_NESTING} deep"
            ))
            .at(source, block.block.span.clone())
            .with_help("a prompt this deeply nested cannot be read; close some blocks before opening others"),
        );
    }
    *excess += 1;
}

fn apply(
    source: &SourceFile,
    d: Directive,
    root: &mut Vec<Node>,
    stack: &mut Vec<OpenBlock>,
    excess: &mut usize,
    diagnostics: &mut Diagnostics,
) {
    if *excess > 0 {
        // Inside blocks nested too deeply, which were reported: only balance them.
        match d.keyword.text.as_str() {
            "if" => *excess += 1,
            "endif" => *excess -= 1,
            _ => {}
        }
        return;
    }
    match d.keyword.text.as_str() {
        "if" => match condition(source, &d) {
            Ok(condition) => open(
                source,
                OpenBlock {
                    block: IfBlock {
                        condition,
                        span: d.span,
                        then: Vec::new(),
                        otherwise: None,
                        else_span: None,
                        else_reason: None,
                    },
                    else_span: None,
                },
                stack,
                excess,
                diagnostics,
            ),
            Err(e) => {
                diagnostics.push(e);
                // Keep the block so that its `endif` still balances.
                open(
                    source,
                    OpenBlock::unreadable(d.span),
                    stack,
                    excess,
                    diagnostics,
                );
            }
        },
        "else" => {
            // `{% else "why" %}` registers a guidance either-or; nothing else takes arguments.
            let reason = match d.args.as_slice() {
                [] => None,
                [
                    Arg {
                        kind: ArgKind::Str(why),
                        span,
                    },
                ] => {
                    if why.trim().is_empty() {
                        diagnostics.push(
                            Diagnostic::new("an empty reason in `{% else \"...\" %}`")
                                .at(source, span.clone())
                                .with_help("say why the steering inverts at lean: `{% else \"small models need the worked example\" %}`"),
                        );
                    }
                    Some(why.clone())
                }
                _ => {
                    no_args(source, &d, diagnostics);
                    None
                }
            };
            match stack.last_mut() {
                None => diagnostics.push(
                    Diagnostic::new("`{% else %}` without an open `{% if %}`")
                        .at(source, d.span)
                        .with_help("remove it, or open the block with `{% if name %}` above"),
                ),
                Some(open) => match &open.else_span {
                    Some(first) => {
                        let (line, _) = source.line_col(first.start);
                        diagnostics.push(
                            Diagnostic::new("a second `{% else %}` in the same block")
                                .at(source, d.span)
                                .with_help(format!(
                                    "this block already has its `{{% else %}}` on line {line}"
                                )),
                        );
                    }
                    None => {
                        open.else_span = Some(d.span.clone());
                        open.block.else_span = Some(d.span);
                        open.block.else_reason = reason;
                        open.block.otherwise = Some(Vec::new());
                    }
                },
            }
        }
        "endif" => {
            no_args(source, &d, diagnostics);
            match stack.pop() {
                None => diagnostics.push(
                    Diagnostic::new("`{% endif %}` without an open `{% if %}`")
                        .at(source, d.span)
                        .with_help("remove it, or open the block with `{% if name %}` above"),
                ),
                Some(open) => {
                    let parent = stack.last_mut().map_or(root, OpenBlock::nodes);
                    parent.push(Node::If(open.block));
                }
            }
        }
        "cache_breakpoint" => {
            no_args(source, &d, diagnostics);
            if !stack.is_empty() {
                diagnostics.push(
                    Diagnostic::new("`cache_breakpoint` inside an `{% if %}` block")
                        .at(source, d.span)
                        .with_help("a cached prefix ends at one place whatever the values: put the breakpoint outside the block"),
                );
                return;
            }
            let count = root
                .iter()
                .filter(|n| matches!(n, Node::CacheBreakpoint(_)))
                .count();
            if count == MAX_CACHE_BREAKPOINTS {
                diagnostics.push(
                    Diagnostic::new(format!(
                        "more than {} cache breakpoints",
                        MAX_CACHE_BREAKPOINTS
                    ))
                    .at(source, d.span)
                    .with_help("Anthropic's Messages API takes at most 4 `cache_control` marks in a request: keep the breakpoints that end the longest stable prefixes"),
                );
                return;
            }
            root.push(Node::CacheBreakpoint(d.span));
        }
        other => {
            let mut e =
                Diagnostic::new(format!("unknown directive `{other}`")).at(source, d.keyword.span);
            e = match closest(other, KEYWORDS) {
                Some(k) => e.with_help(format!("did you mean `{k}`?")),
                None => e.with_help("the directives are `if`, `else`, `endif`, `system`, `user`, `assistant`, `history` and `cache_breakpoint`"),
            };
            if JINJA_TAGS.contains(&other) {
                e = e.with_note(format!(
                    "`{other}` is a Jinja tag; a Jinja template is read as Jinja when its file is named `NAME.md.j2`"
                ));
            }
            diagnostics.push(e);
        }
    }
}

/// After a directive failed to lex: open or close the block its first word names.
fn recover(
    source: &SourceFile,
    span: Range<usize>,
    root: &mut Vec<Node>,
    stack: &mut Vec<OpenBlock>,
    excess: &mut usize,
) {
    let inner = source.text()[span.start + 2..span.end - 2].trim_start();
    let keyword: String = inner
        .bytes()
        .take_while(|&c| lexer::is_name_continue(c))
        .map(char::from)
        .collect();
    if *excess > 0 {
        match keyword.as_str() {
            "if" => *excess += 1,
            "endif" => *excess -= 1,
            _ => {}
        }
        return;
    }
    match keyword.as_str() {
        "if" => {
            // Past the nesting limit the block is counted; the error was reported.
            if stack.len() < MAX_NESTING {
                stack.push(OpenBlock::unreadable(span));
            } else {
                *excess += 1;
            }
        }
        "else" => {
            if let Some(open) = stack.last_mut()
                && open.else_span.is_none()
            {
                open.else_span = Some(span);
                open.block.otherwise = Some(Vec::new());
            }
        }
        "endif" => {
            if let Some(open) = stack.pop() {
                let parent = stack.last_mut().map_or(root, OpenBlock::nodes);
                parent.push(Node::If(open.block));
            }
        }
        _ => {}
    }
}

fn no_args(source: &SourceFile, d: &Directive, diagnostics: &mut Diagnostics) {
    if let (Some(first), Some(last)) = (d.args.first(), d.args.last()) {
        diagnostics.push(
            Diagnostic::new(format!("`{}` takes no arguments", d.keyword.text))
                .at(source, first.span.start..last.span.end)
                .with_help(format!("write `{{% {} %}}`", d.keyword.text)),
        );
    }
}

fn condition(source: &SourceFile, d: &Directive) -> Result<Condition, Diagnostic> {
    let usage = "write `{% if name %}` or `{% if name == \"value\" %}`";
    if let Some(assign) = d.args.iter().find(|a| a.kind == ArgKind::Assign) {
        return Err(Diagnostic::new("unexpected `=` in directive")
            .at(source, assign.span.clone())
            .with_help("did you mean `==`? a comparison is `{% if name == \"value\" %}`"));
    }
    match d.args.as_slice() {
        [name] => match &name.kind {
            ArgKind::Name(n) => Ok(Condition::Set {
                name: n.clone(),
                span: name.span.clone(),
            }),
            other => Err(
                Diagnostic::new(format!("`if` tests a name, found {}", other.describe()))
                    .at(source, name.span.clone())
                    .with_help(usage),
            ),
        },
        [name, eq, value] => match (&name.kind, &eq.kind, &value.kind) {
            (ArgKind::Name(n), ArgKind::Eq, ArgKind::Str(v)) => Ok(Condition::Equals {
                name: n.clone(),
                span: name.span.clone(),
                value: v.clone(),
                value_span: value.span.clone(),
            }),
            _ => Err(Diagnostic::new("malformed `if` condition")
                .at(source, name.span.start..value.span.end)
                .with_help(usage)),
        },
        [] => Err(Diagnostic::new("`if` needs a condition")
            .at(source, d.span.clone())
            .with_help(usage)),
        [first, .., last] => Err(Diagnostic::new("malformed `if` condition")
            .at(source, first.span.start..last.span.end)
            .with_help(usage)),
    }
}

fn push_text(
    source: &SourceFile,
    range: Range<usize>,
    options: ParseOptions,
    nodes: &mut Vec<Node>,
    diagnostics: &mut Diagnostics,
) {
    if range.is_empty() {
        return;
    }
    let text = source.text();
    let braces = options.strict && options.syntax == lexer::Syntax::Braces;
    // Each `${` underlines up to its line's `}`: searched for once per run, not per `${`.
    let mut newline = lexer::Forward::default();
    let mut closing = lexer::Forward::default();
    for token in options.syntax.tokenize(&text[range.clone()], range.start) {
        match token {
            Token::Text(span) => {
                if braces {
                    for found in foreign::find(&text[span.clone()], span.start) {
                        diagnostics.push(
                            Diagnostic::new(found.message)
                                .at(source, found.span)
                                .with_help(found.help)
                                .with_note(foreign::KEEP_AS_TEXT),
                        );
                    }
                }
                push_literal(nodes, span)
            }
            Token::Escape(span) => nodes.push(Node::Dollar(span)),
            Token::Placeholder { span, name, braced } => {
                nodes.push(Node::Placeholder(Placeholder {
                    name: text[name].to_owned(),
                    span,
                    braced,
                }))
            }
            Token::InvalidBrace(span) if options.syntax != lexer::Syntax::Dollar => {
                if options.strict {
                    let name = &text[span.start + 2..span.end].trim_start();
                    diagnostics.push(
                        Diagnostic::new(format!("`{{{{{name}` is never closed on its line"))
                            .at(source, span.clone())
                            .with_help(format!("write `{{{{{name}}}}}`")),
                    );
                }
                push_literal(nodes, span);
            }
            Token::InvalidBrace(span) => {
                if options.strict {
                    // Underline up to the closing brace if the line has one, else the `${`.
                    let line_end = newline.find(text, "\n", span.start).unwrap_or(text.len());
                    let end = closing
                        .find(text, "}", span.start)
                        .filter(|&i| i < line_end)
                        .map_or(span.start + 2, |i| i + 1);
                    diagnostics.push(
                        Diagnostic::new("`${` must be followed by a name and `}`")
                            .at(source, span.start..end.min(range.end.max(span.start + 2)))
                            .with_help("write `${name}` with a name of letters, digits and `_`, or `$${` for a literal `${`"),
                    );
                }
                push_literal(nodes, span);
            }
        }
    }
}

fn push_literal(nodes: &mut Vec<Node>, span: Range<usize>) {
    match nodes.last_mut() {
        Some(Node::Text(prev)) if prev.end == span.start => prev.end = span.end,
        _ => nodes.push(Node::Text(span)),
    }
}

#[cfg(test)]
mod tests;
