//! Markdown pages that describe a checked prompt: title, metadata, variables and source.
//!
//! One renderer for the two places a prompt is documented: the rustdoc page the
//! `#[derive(Prompt)]` macro puts on the generated `impl`, and the pages `promptic docs`
//! writes. What differs between them is said in [`PageOptions`]; the rest — which rows,
//! in which order, how text is kept literal inside Markdown — is decided here once.

use crate::check::CheckedPrompt;
use crate::meta::Meta;
use serde_json::Value;
use std::fmt::Write as _;

/// What differs between the places a page is shown.
///
/// See [`markdown_page`] for an example.
#[derive(Clone, Debug)]
pub struct PageOptions<'a> {
    /// The level of the section headings: `2` writes `## Metadata` and puts the title
    /// above as `# Title`; `1` suits rustdoc, whose page has its own title, and writes the
    /// prompt's title as a bold line.
    pub heading_level: usize,
    /// The Rust type of each context variable, in the order of the schema's context (the
    /// fields of a derived struct); when given, the variables table has a `type` column.
    pub field_types: Option<&'a [String]>,
    /// Sections of the consumer's own, put between the variables and the source.
    pub sections: Vec<Section>,
}

/// A section of a page: a heading and its Markdown.
///
/// See [`markdown_page`] for an example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The heading's text, without `#`.
    pub heading: String,
    /// The Markdown under it.
    pub body: String,
}

/// The page of a checked prompt: title, description, metadata, variables (with what
/// provides each and where it is used), the consumer's sections, and the source.
///
/// ```
/// use promptic::check::check;
/// use promptic::doc::{PageOptions, Section, markdown_page};
/// use promptic::load::PromptFile;
/// use promptic::resolve::{ContextVar, Schema, Templates, VarKind};
///
/// let file = PromptFile::from_text(
///     "prompts/hello.md",
///     "{\n\"title\": \"Hello\",\n\"owner\": \"growth\"\n}\nHi, today is $day.",
/// )
/// .unwrap();
/// let schema = Schema {
///     context: vec![ContextVar::new("day", VarKind::Text)],
///     ..Schema::default()
/// };
/// let prompt = check("hello", file, schema, &Templates::new()).unwrap();
/// let types = ["&'a str".to_owned()];
/// let page = markdown_page(
///     &prompt,
///     &PageOptions {
///         heading_level: 2,
///         field_types: Some(&types),
///         sections: vec![Section { heading: "Notes".into(), body: "None.\n".into() }],
///     },
/// );
/// assert!(page.starts_with("# Hello\n\n`hello` · `prompts/hello.md`\n"));
/// assert!(page.contains("| `owner` | `growth` |"));
/// assert!(page.contains("| `$day` | context | `&'a str` | `prompts/hello.md:5:14` |"));
/// assert!(page.contains("## Notes\n\nNone.\n\n## Source\n\n```markdown\n{\n"));
/// ```
pub fn markdown_page(prompt: &CheckedPrompt, options: &PageOptions<'_>) -> String {
    let level = options.heading_level;
    let path = prompt.file.source.path();
    let mut blocks = vec![
        title_block(&prompt.name, path, &prompt.meta, level),
        section(level, "Metadata", &metadata_table(&prompt.meta)),
        section(level, "Variables", &variables(prompt, options.field_types)),
    ];
    if let Some(table) = chat_sections(prompt) {
        blocks.push(section(level, "Messages", &table));
    }
    if let Some(table) = either_ors(prompt) {
        blocks.push(section(level, "Guidance either-ors", &table));
    }
    blocks.extend(
        options
            .sections
            .iter()
            .map(|s| section(level, &s.heading, &s.body)),
    );
    blocks.push(section(
        level,
        "Source",
        &fenced(prompt.file.source.text(), "markdown"),
    ));
    blocks.join("\n")
}

/// The registered guidance either-ors of a prompt's file (`{% else "why" %}`), with their
/// lines and reasons, or `None` when it has none.
///
/// ```
/// use promptic::check::check;
/// use promptic::doc::either_ors;
/// use promptic::load::PromptFile;
/// use promptic::resolve::{ContextVar, Schema, Templates, VarKind};
///
/// let text = "{% if guidance == \"detailed\" %}\nShow steps.\n{% else \"small models copy examples\" %}\nAnswer only.\n{% endif %}";
/// let file = PromptFile::from_text("p.md", text).unwrap();
/// let schema = Schema {
///     context: vec![ContextVar::new("guidance", VarKind::Choice(vec!["lean".into(), "detailed".into()]))],
///     ..Schema::default()
/// };
/// let prompt = check("p", file, schema, &Templates::new()).unwrap();
/// assert!(either_ors(&prompt).unwrap().contains("| 3 | small models copy examples |"));
/// ```
pub fn either_ors(prompt: &CheckedPrompt) -> Option<String> {
    use crate::parse::Node;
    let (nodes, _) = crate::parse::parse(
        &prompt.file.source,
        prompt.file.body.clone(),
        prompt.file.parse_options(),
    );
    let mut rows = Vec::new();
    // An explicit stack: blocks nest at most `parse::MAX_NESTING` deep, but no recursion
    // is needed at all.
    let mut bodies: Vec<&[Node]> = vec![&nodes];
    while let Some(body) = bodies.pop() {
        for node in body {
            if let Node::If(block) = node {
                if let (Some(reason), Some(span)) = (&block.else_reason, &block.else_span) {
                    let (line, _) = prompt.file.source.line_col(span.start);
                    rows.push((line, table_cell(reason)));
                }
                bodies.push(&block.then);
                if let Some(otherwise) = &block.otherwise {
                    bodies.push(otherwise);
                }
            }
        }
    }
    if rows.is_empty() {
        return None;
    }
    rows.sort();
    let mut out = vec![
        "Text that renders at lean but not at detailed, each registered with its reason:"
            .to_owned(),
        String::new(),
        "| line | reason |".to_owned(),
        "| --- | --- |".to_owned(),
    ];
    out.extend(
        rows.into_iter()
            .map(|(line, reason)| format!("| {line} | {reason} |")),
    );
    Some(out.join("\n"))
}

/// The sections of a chat prompt as a table (section, role, what it holds), or `None` for a
/// prompt without sections.
///
/// ```
/// use promptic::check::check;
/// use promptic::doc::chat_sections;
/// use promptic::load::PromptFile;
/// use promptic::resolve::{ContextVar, Schema, Templates, VarKind};
///
/// let file = PromptFile::from_text("p.md", "Be brief.\n{% history turns limit=4 %}\n{% user question %}\n$q").unwrap();
/// let schema = Schema {
///     context: vec![ContextVar::new("turns", VarKind::Messages), ContextVar::new("q", VarKind::Text)],
///     ..Schema::default()
/// };
/// let prompt = check("p", file, schema, &Templates::new()).unwrap();
/// let table = chat_sections(&prompt).unwrap();
/// assert!(table.contains("| `system_prompt` | system | the text before the first section |"));
/// assert!(table.contains("| `turns` | each message's own | the last 4 messages of `turns` |"));
/// assert!(table.contains("| `question` | user | one message |"));
/// ```
pub fn chat_sections(prompt: &CheckedPrompt) -> Option<String> {
    use crate::resolve::Part;
    if !prompt.resolved.is_chat() {
        return None;
    }
    let parts = &prompt.resolved.parts;
    let mut rows = vec![
        "| section | role | holds |".to_owned(),
        "| --- | --- | --- |".to_owned(),
    ];
    if parts
        .first()
        .is_some_and(|p| !matches!(p, Part::Section { .. } | Part::History { .. }))
    {
        rows.push("| `system_prompt` | system | the text before the first section |".to_owned());
    }
    for part in parts {
        match part {
            Part::Section { role, name } => {
                rows.push(format!("| `{name}` | {role} | one message |"));
            }
            Part::History { limit, name, .. } => {
                let holds = match limit {
                    Some(n) if *n > 0 => format!("the last {n} messages of `{name}`"),
                    _ => format!("every message of `{name}`"),
                };
                rows.push(format!("| `{name}` | each message's own | {holds} |"));
            }
            _ => {}
        }
    }
    Some(rows.join("\n") + "\n\nA section that renders no text is left out.")
}

/// The top of a page: the title (or the name, without one), the name and the file, and
/// the description. For a page whose sections are at `heading_level`.
///
/// ```
/// use promptic::Meta;
/// use promptic::doc::title_block;
///
/// let meta = Meta { description: Some("Says hello.".into()), ..Meta::DEFAULT };
/// assert_eq!(
///     title_block("hello", "prompts/hello.md", &meta, 2),
///     "# hello\n\n`hello` · `prompts/hello.md`\n\nSays hello.\n"
/// );
/// assert!(title_block("hello", "prompts/hello.md", &meta, 1).starts_with("Prompt **hello**\n\n"));
/// ```
pub fn title_block(name: &str, path: &str, meta: &Meta, heading_level: usize) -> String {
    let title = meta.title.as_deref().unwrap_or(name);
    let mut out = if heading_level > 1 {
        format!("{} {title}\n\n", "#".repeat(heading_level - 1))
    } else {
        format!("Prompt **{title}**\n\n")
    };
    let _ = writeln!(out, "{} · {}", code_span(name), code_span(path));
    if let Some(description) = &meta.description {
        let _ = writeln!(out, "\n{}", prose(description));
    }
    out
}

/// Free text from the frontmatter, made safe for rustdoc: a code block in it (fenced or
/// indented) would be compiled as a doctest of the user's crate, so text that holds one is
/// shown as preformatted text instead.
fn prose(text: &str) -> String {
    // Erring on the side of text: preformatted text is only less pretty.
    let has_code = text.contains("```") || text.contains("~~~") || text.lines().any(indented_code);
    if has_code {
        fenced(text, "text").trim_end().to_owned()
    } else {
        text.to_owned()
    }
}

/// An indented code line, inside blockquotes too: four spaces or a tab of indentation.
fn indented_code(line: &str) -> bool {
    let mut rest = line;
    loop {
        let trimmed = rest.trim_start_matches(' ');
        if rest.len() - trimmed.len() >= 4 || trimmed.starts_with('\t') {
            return true;
        }
        match trimmed.strip_prefix('>') {
            Some(quoted) => rest = quoted.strip_prefix(' ').unwrap_or(quoted),
            None => return false,
        }
    }
}

/// A heading at `level` and its body, ending in one newline.
///
/// ```
/// use promptic::doc::section;
///
/// assert_eq!(section(2, "Source", "text\n"), "## Source\n\ntext\n");
/// ```
pub fn section(level: usize, heading: &str, body: &str) -> String {
    let newline = if body.ends_with('\n') { "" } else { "\n" };
    format!("{} {heading}\n\n{body}{newline}", "#".repeat(level.max(1)))
}

/// The metadata as key and value: the typed keys in the order of [`Meta::KEYS`], then the
/// extras in file order. Text is unquoted; every other value is its JSON.
///
/// ```
/// use promptic::doc::metadata_rows;
/// use promptic::{Extra, Meta};
/// use std::borrow::Cow;
///
/// let meta = Meta {
///     title: Some("Hello".into()),
///     tier: Some(2),
///     extra: Extra(Cow::Owned(vec![
///         ("owner".into(), "\"growth\"".into()),
///         ("tags".into(), "[\"a\", \"b\"]".into()),
///     ])),
///     ..Meta::DEFAULT
/// };
/// let rows: Vec<String> = metadata_rows(&meta)
///     .into_iter()
///     .map(|(key, value)| format!("{key}={value}"))
///     .collect();
/// assert_eq!(rows, ["title=Hello", "color=#6c757d", "tier=2", "owner=growth", "tags=[\"a\", \"b\"]"]);
/// ```
pub fn metadata_rows(meta: &Meta) -> Vec<(String, String)> {
    let typed = meta
        .typed_entries()
        .into_iter()
        .map(|(key, value)| match value {
            Value::String(text) => (key.to_owned(), text),
            other => (key.to_owned(), other.to_string()),
        });
    // An extra keeps its JSON as written, but a string reads better without its quotes.
    let extras = meta.extra.iter().map(|(key, raw)| {
        let value = match serde_json::from_str(raw) {
            Ok(Value::String(text)) => text,
            _ => raw.to_owned(),
        };
        (key.to_owned(), value)
    });
    typed.chain(extras).collect()
}

/// `text` as a Markdown code span, whatever backticks it holds. A line break inside a span
/// reads as a space anyway, and would end a table row, so it becomes one.
///
/// ```
/// use promptic::doc::code_span;
///
/// assert_eq!(code_span("$day"), "`$day`");
/// assert_eq!(code_span("a `b` c"), "``a `b` c``");
/// assert_eq!(code_span("`b`"), "`` `b` ``");
/// assert_eq!(code_span("two\nlines"), "`two lines`");
/// ```
pub fn code_span(text: &str) -> String {
    let text = text.lines().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return text;
    }
    let fence = "`".repeat(longest_backtick_run(&text) + 1);
    // A reader strips one space from each end when both ends have one, so a span that
    // starts or ends with a backtick or a space is padded to keep its text whole.
    let padded = text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ') && text.ends_with(' ') && !text.trim().is_empty());
    let pad = if padded { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A fenced block whose fence is longer than any run of backticks in `text`, ending in a
/// newline.
///
/// ```
/// use promptic::doc::fenced;
///
/// assert_eq!(fenced("a", "text"), "```text\na\n```\n");
/// assert_eq!(fenced("```rust\nx\n```\n", "markdown"), "````markdown\n```rust\nx\n```\n````\n");
/// ```
pub fn fenced(text: &str, language: &str) -> String {
    let fence = "`".repeat((longest_backtick_run(text) + 1).max(3));
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    format!("{fence}{language}\n{text}{newline}{fence}\n")
}

/// Text safe inside a Markdown table cell: `|` escaped, line breaks as `<br>`.
///
/// ```
/// use promptic::doc::table_cell;
///
/// assert_eq!(table_cell("a | b\nc"), "a \\| b<br>c");
/// ```
pub fn table_cell(text: &str) -> String {
    text.replace('|', "\\|")
        .replace("\r\n", "<br>")
        .replace('\n', "<br>")
}

#[cfg(test)]
mod prose_tests {
    #[test]
    fn code_in_a_description_becomes_preformatted_text() {
        assert_eq!(super::prose("Says hello."), "Says hello.");
        assert_eq!(
            super::prose("Like:\n\n```\n{ x }\n```"),
            "````text\nLike:\n\n```\n{ x }\n```\n````"
        );
        assert_eq!(
            super::prose("Like:\n\n    code"),
            "```text\nLike:\n\n    code\n```"
        );
    }
}

/// The longest run of backticks in `text`. It jumps from one backtick to the next (the
/// derive documents every prompt with it, in an unoptimised macro build, so it does not
/// look at each character on its own).
fn longest_backtick_run(text: &str) -> usize {
    let mut longest = 0;
    let mut rest = text;
    while let Some(at) = rest.find('`') {
        let after = &rest[at..];
        let run = after.len() - after.trim_start_matches('`').len();
        longest = longest.max(run);
        rest = &after[run..];
    }
    longest
}

fn metadata_table(meta: &Meta) -> String {
    let mut out = String::from("| key | value |\n| --- | --- |\n");
    for (key, value) in metadata_rows(meta) {
        let _ = writeln!(
            out,
            "| {} | {} |",
            table_cell(&code_span(&key)),
            table_cell(&code_span(&value))
        );
    }
    out
}

/// What a caller passes, then every variable with what provides it and where it is used.
fn variables(prompt: &CheckedPrompt, field_types: Option<&[String]>) -> String {
    let mut out = String::new();
    let context = &prompt.schema.context;
    if context.is_empty() {
        out.push_str("A caller passes no context values.\n");
    } else {
        let names: Vec<String> = context
            .iter()
            .map(|c| match c.kind.as_str() {
                "text" => code_span(&c.name),
                kind => format!("{} ({kind})", code_span(&c.name)),
            })
            .collect();
        let _ = writeln!(out, "A caller passes: {}.", names.join(", "));
    }
    out.push('\n');
    if prompt.resolved.variables.is_empty() {
        out.push_str("The prompt uses no variables.\n");
        return out;
    }
    match field_types {
        Some(_) => out.push_str("| name | source | type | used at |\n| --- | --- | --- | --- |\n"),
        None => out.push_str("| name | source | used at |\n| --- | --- | --- |\n"),
    }
    for v in &prompt.resolved.variables {
        let _ = write!(
            out,
            "| {} | {} |",
            table_cell(&code_span(&format!("${}", v.name))),
            v.source.as_str()
        );
        if let Some(types) = field_types {
            // `$Day` is the uppercase-first variant of the field `day`.
            let ty = prompt
                .schema
                .context_index(&v.name)
                .and_then(|i| types.get(i))
                .map(|t| code_span(t))
                .unwrap_or_default();
            let _ = write!(out, " {} |", table_cell(&ty));
        }
        let uses: Vec<String> = v
            .uses
            .iter()
            .map(|u| code_span(&format!("{}:{}:{}", u.path, u.line, u.col)))
            .collect();
        let _ = writeln!(out, " {} |", table_cell(&uses.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{PageOptions, code_span, fenced, markdown_page, table_cell};
    use crate::check::{CheckedPrompt, check};
    use crate::parse::PromptFile;
    use crate::resolve::{ContextVar, Schema, Templates, VarKind};

    #[test]
    fn the_longest_backtick_run_is_found_wherever_it_is() {
        use super::longest_backtick_run as run;
        assert_eq!(run(""), 0);
        assert_eq!(run("no ticks, ünïcode"), 0);
        assert_eq!(run("`"), 1);
        assert_eq!(run("a `b` ``c`` d"), 2);
        assert_eq!(run("```rust\nx\n```"), 3);
        assert_eq!(run("é````"), 4);
        assert_eq!(run("``a`````b``"), 5);
    }

    fn checked(text: &str, context: Vec<ContextVar>) -> CheckedPrompt {
        let file = PromptFile::from_text("prompts/p.md", text).expect("loads");
        let schema = Schema {
            context,
            identity: vec!["preferred".into()],
            ..Schema::default()
        };
        check("p", file, schema, &Templates::new()).expect("checks")
    }

    fn options(heading_level: usize, field_types: Option<&[String]>) -> PageOptions<'_> {
        PageOptions {
            heading_level,
            field_types,
            sections: Vec::new(),
        }
    }

    #[test]
    fn code_spans_keep_their_text_whole() {
        assert_eq!(code_span(""), "");
        assert_eq!(code_span("``x"), "``` ``x ```");
        assert_eq!(code_span(" x "), "`  x  `");
        assert_eq!(code_span("  "), "`  `");
        assert_eq!(code_span("a\r\nb"), "`a b`");
    }

    #[test]
    fn fences_and_cells() {
        assert_eq!(fenced("x\n", ""), "```\nx\n```\n");
        assert_eq!(fenced("``````", "text"), "```````text\n``````\n```````\n");
        assert_eq!(table_cell("a\r\nb|"), "a<br>b\\|");
    }

    #[test]
    fn metadata_follows_the_keys_then_the_extras_in_file_order() {
        let prompt = checked(
            "{\n\"zeta\": 1,\n\"tier\": 2,\n\"title\": \"T | U\",\n\"alpha\": \"a`b\"\n}\nBody",
            Vec::new(),
        );
        let page = markdown_page(&prompt, &options(2, None));
        assert!(
            page.contains(
                "| `title` | `T \\| U` |\n| `color` | `#6c757d` |\n| `tier` | `2` |\n\
                 | `zeta` | `1` |\n| `alpha` | ``a`b`` |\n"
            ),
            "{page}"
        );
    }

    #[test]
    fn variables_with_and_without_types() {
        let prompt = checked(
            "Hi $Preferred, $Day and $day.",
            vec![
                ContextVar::new("day", VarKind::Text),
                ContextVar::new("note", VarKind::Optional),
            ],
        );
        let types = ["u32".to_owned(), "Option<&'a str>".to_owned()];
        let typed = markdown_page(&prompt, &options(1, Some(&types)));
        assert!(typed.starts_with("Prompt **p**\n\n`p` · `prompts/p.md`\n\n# Metadata\n"));
        assert!(typed.contains("A caller passes: `day`, `note` (optional).\n"));
        assert!(typed.contains("| `$Preferred` | identity |  | `prompts/p.md:1:4` |"));
        assert!(
            typed.contains("| `$Day` | context | `u32` | `prompts/p.md:1:16` |"),
            "{typed}"
        );
        let plain = markdown_page(&prompt, &options(2, None));
        assert!(plain.contains("| name | source | used at |\n"));
        assert!(plain.contains("| `$day` | context | `prompts/p.md:1:25` |"));
    }

    #[test]
    fn a_prompt_without_variables_says_so() {
        let page = markdown_page(&checked("Plain text.", Vec::new()), &options(2, None));
        assert!(page.contains(
            "## Variables\n\nA caller passes no context values.\n\nThe prompt uses no variables.\n\n## Source\n"
        ));
        assert!(page.ends_with("```markdown\nPlain text.\n```\n"), "{page}");
    }
}
