//! The values a prompt is rendered with, shared by `render`, `tokens` and `diff`: a context
//! file, `--set` pairs and an identity file (and, for `diff`, each side's own pairs).
//!
//! A value is given by name. A context variable of the prompt takes it; so does an identity
//! key the prompt uses, which then overrides the identity's value. `--set` wins over the
//! context file. A `--set` name the prompt does not use is an error (it is almost always a
//! typo); a context file's extra names are ignored, since one file may serve many prompts,
//! unless one looks like a misspelling of a value the prompt reads and nothing gives.
//!
//! Identity values come from `--identity` only. The example identity in `promptic.json`
//! declares which identity keys exist; its values are never rendered, so without
//! `--identity` an identity key the prompt uses is a missing value (unless a `--set` or
//! the context file gives it).

use clap::Args;
use prompt_runtime::formats::{FrontEnd, LoadedPrompt, Output, Values};
use prompt_runtime::load::{MAX_FILE, Project, read_file};
use prompt_runtime::{Diagnostic, Diagnostics, Identity, SourceFile, Tags};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The prompt to render and the values to render it with.
#[derive(Clone, Debug, Args)]
pub struct RenderOptions {
    /// The prompt's name: its path under the prompts folder without its ending
    /// (`agents/helper`), or the file's path (`prompts/agents/helper.md`).
    pub name: String,

    /// A JSON object of context values: strings, numbers and booleans (as the file writes them);
    /// `null` leaves an optional value out.
    #[arg(long, value_name = "FILE")]
    pub context: Option<PathBuf>,

    /// A JSON identity, bare or under an `"identity"` key (solstone's `journal.json`).
    /// Without it, identity keys have no values: the example identity in `promptic.json`
    /// only declares the keys.
    #[arg(long, value_name = "FILE")]
    pub identity: Option<PathBuf>,

    /// A value by name; wins over `--context`. Repeat for more values.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
    pub set: Vec<(String, String)>,

    /// A JSON array of chat messages (`[{"role": "user", "content": "..."}]`) for the
    /// `{% history %}` sections of a chat prompt.
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,

    /// A tag of the document, to choose a member of a family (`--tag type=meeting`): the
    /// most specific member whose rules hold is rendered. Repeat for more tags; a key may
    /// take several values.
    #[arg(long = "tag", value_name = "KEY=VALUE", value_parser = parse_tag)]
    pub tag: Vec<(String, String)>,

    /// The id of the item the prompt is for, which a family member's `"scope"` glob is
    /// matched against (keep's `scope`: `*@*.*` for an email address).
    #[arg(long = "item-id", value_name = "ID")]
    pub item_id: Option<String>,

    /// For a dotprompt file (`DIR/NAME.prompt`): a JSON file with the data to render it
    /// with: `input`, `context` (the `@` values), `messages` (the history) and `options`
    /// (render options, `options.input.default`).
    #[arg(long, value_name = "DATA.json")]
    pub data: Option<PathBuf>,
}

/// Splits `key=value` at the first `=`: a tag name, then a value.
fn parse_tag(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if prompt_runtime::parse::lexer::is_name(key) && !value.is_empty() => {
            Ok((key.to_owned(), value.to_owned()))
        }
        _ => Err(format!(
            "expected KEY=VALUE (a tag name, `=`, a value), found {text:?}"
        )),
    }
}

/// The member of family `name` that `tags` choose, reported on stderr with the rule that
/// chose it; `None` when `name` is a prompt (and no tags are given).
fn family_member(
    project: &Project,
    name: &str,
    tags: &[(String, String)],
    item_id: Option<&str>,
) -> Result<Option<String>, Diagnostics> {
    if project.prompt_path(name).is_ok() {
        if tags.is_empty() && item_id.is_none() {
            return Ok(None);
        }
        // A family of the same name: the name reaches the prompt file first.
        if project.families().iter().any(|f| f == name) {
            return Err(Diagnostic::new(format!(
                "`{name}` names both a prompt file and the family `{}/{name}/`, and reaches the prompt, which `--tag` cannot choose in",
                project.display
            ))
            .with_help("rename the prompt file or the family's folder: one name, one prompt")
            .into());
        }
        return Err(Diagnostic::new(format!(
            "`{name}` is a prompt, not a family: `--tag` chooses among the members of a family"
        ))
        .with_help(format!(
            "leave out `--tag`, or name a family (a folder of prompts with `\"match\"` rules): {}",
            families_text(project)
        ))
        .into());
    }
    // A folder of prompts is a family even when none of them has rules (keep's `tag`
    // family is one default): rendering it chooses, as keep does.
    let holds_prompts = project
        .prompts()
        .names
        .iter()
        .any(|n| n.rsplit_once('/').is_some_and(|(folder, _)| folder == name));
    if tags.is_empty()
        && item_id.is_none()
        && !holds_prompts
        && !project.families().iter().any(|f| f == name)
    {
        return Ok(None);
    }
    let family = project.family(name)?;
    let tags: Tags = tags.iter().cloned().collect();
    let Some(choice) = family.choose_for(&tags, item_id) else {
        // Only a family with scoped members can choose nothing: keep's error.
        let d = Diagnostic::new(family.require(&tags).err().map_or_else(
            || format!("no member of family `{name}` matches"),
            |e| e.to_string(),
        ));
        let d = match item_id {
            None => {
                d.with_help("its members are scoped to items: give the item's id with `--item-id`")
            }
            Some(id) => d.with_help(format!(
                "no member's scope matches `{id}`, and no unscoped member's rules hold"
            )),
        };
        return Err(d.into());
    };
    let id = &choice.member.id;
    let scope = family
        .scopes()
        .get(
            family
                .members()
                .iter()
                .position(|m| m.id == *id)
                .unwrap_or(usize::MAX),
        )
        .and_then(Option::as_deref);
    let why = match (choice.line, tags.is_empty()) {
        (None, _) if scope.is_some() => format!(
            "`{id}` by its scope `{}` ({} characters besides `*` and `?`)",
            scope.unwrap_or_default(),
            choice.specificity
        ),
        (Some(line), _) => {
            let pairs = if choice.specificity == 1 {
                "pair"
            } else {
                "pairs"
            };
            format!(
                "`{id}` by its rule `{line}` ({} {pairs})",
                choice.specificity
            )
        }
        (None, true) => {
            let others: Vec<String> = family
                .members()
                .iter()
                .map(|m| format!("`{}`", m.id))
                .collect();
            format!(
                "its default `{id}`: no tags given; choose a member with `--tag KEY=VALUE`, or render one by name: {}",
                others.join(", ")
            )
        }
        (None, false) => {
            let mut why = format!("its default `{id}`: no member's rules hold for tags {tags}");
            if let Some(hint) = misspelt_tag(&family, &tags) {
                why.push_str(&format!(" ({hint})"));
            }
            why
        }
    };
    eprintln!(
        "note: family `{}` chose {}",
        crate::style::shown(name),
        crate::style::shown(&why)
    );
    Ok(Some(choice.member.id.clone()))
}

/// A tag given that no rule names but that is close to a pair a member's rules name
/// (`type=meting` for `type=meeting`): the typo that made the default win, said.
fn misspelt_tag(family: &prompt_runtime::family::Family, tags: &Tags) -> Option<String> {
    let mut pairs: Vec<(String, &str)> = Vec::new();
    for member in family.members() {
        for line in &member.rules.lines {
            for pair in &line.pairs {
                pairs.push((format!("{}={}", pair.key, pair.value), &member.id));
            }
        }
    }
    tags.iter().find_map(|(key, value)| {
        let given = format!("{key}={value}");
        if pairs.iter().any(|(pair, _)| *pair == given) {
            return None;
        }
        let close =
            prompt_runtime::suggest::closest(&given, pairs.iter().map(|(p, _)| p.as_str()))?;
        let member = pairs.iter().find(|(p, _)| p == close).map(|(_, m)| *m)?;
        Some(format!("did you mean `{close}`, a rule of `{member}`?"))
    })
}

/// The folder's families, for a help line.
fn families_text(project: &Project) -> String {
    let families = project.families();
    if families.is_empty() {
        return "this folder has none".to_owned();
    }
    families
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Splits `name=value` at the first `=`.
pub fn parse_set(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!("expected NAME=VALUE, found {text:?}")),
    }
}

/// A rendered prompt: what a model is sent, and what a reader sees.
pub struct Rendered {
    /// The render in the common output model.
    pub output: Output,
    /// The render as a reader sees it (dotprompt's messages under `--- ROLE ---` lines, a
    /// chat's under `Section: NAME | role=ROLE` headers).
    pub text: String,
}

impl Rendered {
    /// What a reader sees.
    pub fn log(&self) -> String {
        self.text.clone()
    }

    /// What a model is sent: the text, or each message's content.
    pub fn contents(&self) -> Vec<&str> {
        self.output.contents()
    }
}

/// Values given on top of the render options by one flag (`diff`'s `--a` and `--b`): they
/// win over `--set` and the context file.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extra<'a> {
    /// The flag that gave them, for messages (`--a`).
    pub flag: &'a str,
    pub values: &'a [(String, String)],
}

/// Checks the prompt and renders it with the values the options give: a chat prompt as
/// its messages, with `--history` for its history sections.
pub fn render_any(project: &Project, options: &RenderOptions) -> Result<Rendered, Diagnostics> {
    crate::eprint_folder_warnings(project, &[]);
    render_with(project, options, Extra::default())
}

/// [`render_any`] with `extra` values on top, and without the folder's warnings (the
/// caller prints them once, however many times it renders).
pub fn render_with(
    project: &Project,
    options: &RenderOptions,
    extra: Extra<'_>,
) -> Result<Rendered, Diagnostics> {
    let (prompt, values) = prepare(project, options, extra)?;
    rendered(prompt.as_ref(), &values)
}

/// The render of a loaded prompt, and its notes on stderr.
pub fn rendered(prompt: &dyn LoadedPrompt, values: &Values) -> Result<Rendered, Diagnostics> {
    let output = prompt.render(values)?;
    let text = prompt.render_log(values)?;
    for note in prompt.notes(values) {
        eprintln!("note: {note}");
    }
    Ok(Rendered { output, text })
}

/// Prints what `promptic check` warns about in `prompt` (a frontmatter the model would
/// receive as text, a name that looks misspelt) to stderr, once per prompt in a run
/// (`diff` loads its prompt for each side): the render goes on, as the check's warnings
/// do not fail it.
fn warn(prompt: &dyn LoadedPrompt) {
    static WARNED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let Ok(mut warned) = WARNED.lock() else {
        return;
    };
    if warned.iter().any(|path| path == prompt.path()) {
        return;
    }
    warned.push(prompt.path().to_owned());
    crate::style::eprint_warnings(&prompt.warnings());
}

/// The prompt the options name (a family's member as the tags choose it), loaded through
/// its format, and the values the options give it. A flag the prompt's format takes no
/// input from is refused, not ignored.
pub fn prepare(
    project: &Project,
    options: &RenderOptions,
    extra: Extra<'_>,
) -> Result<(Box<dyn LoadedPrompt>, Values), Diagnostics> {
    let title = match project.front_end(&options.name)? {
        Some((front_end, _)) if front_end != FrontEnd::Markdown => Some(front_end.format().title()),
        _ => None,
    };
    if let Some(title) = title {
        for (given, flag) in [
            (!options.tag.is_empty(), "--tag"),
            (options.item_id.is_some(), "--item-id"),
        ] {
            if given {
                return Err(Diagnostic::new(format!(
                    "`{flag}` chooses a member of a family; a {title} prompt is not one"
                ))
                .with_help(format!("drop `{flag}`, or name the member to render"))
                .into());
            }
        }
    }
    let name = chosen(project, options)?;
    let prompt = project.load(&name)?;
    warn(prompt.as_ref());
    let takes = prompt.takes();
    let title = prompt.format().title();
    if options.identity.is_some() && !takes.identity {
        return Err(
            Diagnostic::new(format!("`--identity` does not apply to a {title} prompt"))
                .with_help("give its values with `--set NAME=VALUE` or `--context FILE.json`")
                .into(),
        );
    }
    if options.history.is_some() && !takes.history {
        let help = if takes.data {
            "give a dotprompt file its conversation in `--data`'s `messages`"
        } else {
            "only a chat prompt with a `{% history %}` section takes a conversation"
        };
        return Err(Diagnostic::new(format!(
            "`--history` is for chat prompts; a {title} prompt is not one"
        ))
        .with_help(help)
        .into());
    }
    if options.data.is_some() && !takes.data {
        return Err(Diagnostic::new(format!(
            "`--data` is for dotprompt files, and `{}` is not one",
            prompt.path()
        ))
        .with_help("give Markdown and Jinja prompts their values with `--context` or `--set`")
        .into());
    }
    let mut values = given(options, extra)?;
    if let Some(path) = &options.data {
        values.data = Some(read_text(path, "the data")?);
    }
    if let Some(path) = &options.identity {
        values.identity = Some(load_identity(path)?);
    }
    if let Some(path) = &options.history {
        values.history = Some(load_history(path)?);
    }
    Ok((prompt, values))
}

/// The values `--context`, `--set` and `extra` give, in that order (a later one wins).
pub fn given(options: &RenderOptions, extra: Extra<'_>) -> Result<Values, Diagnostics> {
    let mut values = Values::new();
    if let Some(path) = &options.context {
        values.read_file(read_text(path, "the context")?)?;
    }
    for (key, value) in &options.set {
        values.flag("--set", key.clone(), value.clone());
    }
    for (key, value) in extra.values {
        values.flag(extra.flag, key.clone(), value.clone());
    }
    Ok(values)
}

/// The messages of a `--history` file: a JSON array of `{"role", "content"}` objects.
fn load_history(path: &Path) -> Result<Vec<prompt_runtime::Message>, Diagnostics> {
    let shown = path.display().to_string();
    // A file the user names, read wherever it is: only a regular file within the limit.
    let bytes = read_file(path, &shown, MAX_FILE).map_err(|e| match e.io_error() {
        Some(e) => Diagnostics::from(
            Diagnostic::new(format!("cannot read {shown}: {e}"))
                .in_file(&shown)
                .with_help("give `--history` a JSON file holding an array of messages"),
        ),
        None => Diagnostics::from(e),
    })?;
    let source = prompt_runtime::load::decode(&shown, &bytes)?;
    serde_json::from_str(source.text()).map_err(|e| {
        let offset = source.offset(e.line(), e.column().max(1));
        Diagnostics::from(
            Diagnostic::new(format!("`{shown}` is not a list of chat messages: {e}"))
                .at(&source, offset..offset + 1)
                .with_help(r#"write an array of messages: `[{"role": "user", "content": "Hi"}]`, the role `system`, `user` or `assistant`"#),
        )
    })
}

/// The prompt the options name: itself, or the member of the family it names that the
/// `--tag`s choose (reported on stderr, once).
pub fn chosen(project: &Project, options: &RenderOptions) -> Result<String, Diagnostics> {
    let name = FrontEnd::prompt_name(&options.name);
    if !matches!(
        project.front_end(name)?,
        None | Some((FrontEnd::Markdown, _))
    ) {
        return Ok(name.to_owned());
    }
    let member = family_member(project, name, &options.tag, options.item_id.as_deref())?;
    Ok(member.unwrap_or_else(|| name.to_owned()))
}

/// Whether the prompt the options name reads a value called `name`, so that a command can
/// give it only where it means something.
pub fn uses(project: &Project, options: &RenderOptions, name: &str) -> Result<bool, Diagnostics> {
    let prompt = project.load(&chosen(project, options)?)?;
    Ok(prompt.reads().iter().any(|r| r.name == name))
}

/// A file's text, decoded as prompts are: BOM dropped, CRLF read as LF, and invalid UTF-8
/// reported with its byte offset.
pub fn read_text(path: &Path, what: &str) -> Result<SourceFile, Diagnostics> {
    let shown = path.display().to_string();
    // A file the user names, read wherever it is: only a regular file within the limit.
    let bytes = read_file(path, &shown, MAX_FILE).map_err(|e| match e.io_error() {
        Some(e) => Diagnostics::from(
            Diagnostic::new(format!("cannot read {what} `{shown}`: {e}"))
                .in_file(&shown)
                .with_help("the path is read from the folder the command runs in"),
        ),
        None => Diagnostics::from(e),
    })?;
    prompt_runtime::load::decode(&shown, &bytes)
}

/// The byte span of the character at a 1-based line and column (`column_in_chars` tells
/// how the column counts), for pointing at a JSON error.
fn span_at(source: &SourceFile, line: usize, column: usize, column_in_chars: bool) -> Range<usize> {
    let text = source.text();
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[line_start.min(text.len())..];
    let skip = column.saturating_sub(1);
    let start = if column_in_chars {
        line_start + rest.char_indices().nth(skip).map_or(rest.len(), |(i, _)| i)
    } else {
        line_start + skip.min(rest.len())
    };
    start..start + 1
}

const IDENTITY_HELP: &str = "an identity is a JSON object (nested objects are flattened with `_`), bare or under an `\"identity\"` key as in solstone's `journal.json`";

fn load_identity(path: &Path) -> Result<Identity, Diagnostics> {
    let source = read_text(path, "the identity")?;
    Identity::from_json(source.text()).map_err(|e| {
        let shown = source.path();
        let d = match &e {
            prompt_runtime::IdentityError::Json {
                line,
                column,
                message,
            } => Diagnostic::new(format!(
                "cannot use identity `{shown}`: malformed identity JSON: {message}"
            ))
            .at(&source, span_at(&source, *line, *column, true)),
            _ => Diagnostic::new(format!("cannot use identity `{shown}`: {e}")).in_file(shown),
        };
        d.with_help(IDENTITY_HELP).into()
    })
}

#[cfg(test)]
mod tests {
    use super::parse_set;

    #[test]
    fn set_splits_at_the_first_equals() {
        assert_eq!(
            parse_set("note=a=b"),
            Ok(("note".to_owned(), "a=b".to_owned()))
        );
        assert_eq!(parse_set("note="), Ok(("note".to_owned(), String::new())));
        assert!(parse_set("note").is_err());
        assert!(parse_set("=x").is_err());
    }
}
