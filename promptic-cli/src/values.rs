//! The values a prompt is rendered with, shared by `render`, `tokens` and `diff`: a context
//! file, `--set` pairs and an identity file (and, for `diff`, each side's own pairs).
//!
//! A value is given by name. A context variable of the prompt takes it; so does an identity
//! key the prompt uses, which then overrides the identity's value. `--set` wins over the
//! context file. A `--set` name the prompt does not use is an error (it is almost always a
//! typo); a context file's extra names are ignored, since one file may serve many prompts.
//!
//! Identity values come from `--identity` only. The example identity in `promptic.json`
//! declares which identity keys exist; its values are never rendered, so without
//! `--identity` an identity key the prompt uses is a missing value (unless a `--set` or
//! the context file gives it).

use crate::lint;
use clap::Args;
use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::formats::FrontEnd;
use prompt_runtime::load::{MAX_FILE, Project, read_file};
use prompt_runtime::render::PromptContent;
use prompt_runtime::suggest::closest;
use prompt_runtime::{Diagnostic, Diagnostics, Identity, SourceFile, Tags};
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The prompt to render and the values to render it with.
#[derive(Clone, Debug, Args)]
pub struct RenderOptions {
    /// The prompt's name: its path under the prompts folder without `.md` (`agents/helper`).
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
        (None, false) => format!("its default `{id}`: no member's rules hold for tags {tags}"),
    };
    eprintln!(
        "note: family `{}` chose {}",
        crate::style::shown(name),
        crate::style::shown(&why)
    );
    Ok(Some(choice.member.id.clone()))
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

/// A rendered prompt: a text, or a chat prompt's messages.
pub enum Rendered {
    /// A prompt without sections.
    Text(PromptContent),
    /// A chat prompt.
    Chat(prompt_runtime::Chat),
    /// A dotprompt file: dotprompt's messages of parts.
    Dotprompt(prompt_runtime::formats::dotprompt::RenderedPrompt),
}

impl Rendered {
    /// What a reader sees: the text, or a chat prompt's messages under their
    /// `Section: NAME | role=ROLE` headers (the `Chat` log form).
    pub fn log(&self) -> String {
        match self {
            Rendered::Text(content) => content.text.clone(),
            Rendered::Chat(chat) => chat.to_string(),
            Rendered::Dotprompt(rendered) => crate::dotprompt::log(rendered),
        }
    }

    /// What a model is sent: the text, or each message's content.
    pub fn contents(&self) -> Vec<&str> {
        match self {
            Rendered::Text(content) => vec![content.text.as_str()],
            Rendered::Chat(chat) => chat
                .messages
                .iter()
                .flat_map(|m| m.content.parts())
                .filter_map(|part| match part {
                    prompt_runtime::chat::PartRef::Text(text) => Some(text),
                    prompt_runtime::chat::PartRef::Media(_) => None,
                })
                .collect(),
            Rendered::Dotprompt(rendered) => rendered
                .messages
                .iter()
                .flat_map(|m| m.content.iter().filter_map(|part| part.text()))
                .collect(),
        }
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
    // The front end whose file the name reaches: dotprompt and Jinja files by their own.
    match project.front_end(&options.name)? {
        Some((FrontEnd::Dotprompt, file)) => {
            return crate::dotprompt::rendered_with(&project.dir, &file, options, extra)
                .map(Rendered::Dotprompt);
        }
        Some((FrontEnd::Jinja, _)) => return crate::jinja::rendered(project, options, extra),
        _ => {}
    }
    render_adjusted(project, options, extra, |prompt| prompt)
}

/// [`render_with`] of the checked prompt as `adjust` makes it (`diff --guidance` mutes the
/// registered either-ors).
pub fn render_adjusted(
    project: &Project,
    options: &RenderOptions,
    extra: Extra<'_>,
    adjust: impl FnOnce(CheckedPrompt) -> CheckedPrompt,
) -> Result<Rendered, Diagnostics> {
    let name = crate::prompt_name(&options.name);
    let member = family_member(project, name, &options.tag, options.item_id.as_deref())?;
    let name = member.as_deref().unwrap_or(name);
    if let Some(content) = crate::keep::render(project, name, options, extra)? {
        return Ok(Rendered::Text(content));
    }
    let (prompt, context, identity) = prepare(project, name, options, extra)?;
    let prompt = adjust(prompt);
    if !prompt.resolved.is_chat() {
        return finish(
            project,
            options,
            &prompt,
            &identity,
            prompt.render(&context, &identity),
        )
        .map(Rendered::Text);
    }
    let history = match &options.history {
        Some(path) => load_history(path)?,
        None => Vec::new(),
    };
    let chat = prompt.messages(&context, &history, &identity);
    finish(project, options, &prompt, &identity, chat).map(Rendered::Chat)
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

fn finish<T>(
    project: &Project,
    options: &RenderOptions,
    prompt: &CheckedPrompt,
    identity: &Identity,
    result: Result<T, prompt_runtime::check::RenderError>,
) -> Result<T, Diagnostics> {
    result.map_err(|error| {
        let given = options.identity.is_some();
        cannot_render(project, prompt, &error, identity, given).into()
    })
}

/// The checked prompt, its context values and the identity the options give.
fn prepare(
    project: &Project,
    name: &str,
    options: &RenderOptions,
    extra: Extra<'_>,
) -> Result<(CheckedPrompt, HashMap<String, String>, Identity), Diagnostics> {
    let prompt = project.check_inferred(name)?;
    let mut identity = match &options.identity {
        Some(path) => load_identity(path)?,
        None => Identity::default(),
    };
    let mut values = Values::new(&prompt);
    if let Some(path) = &options.context {
        for (key, value) in load_context(path)? {
            values.give(&key, value);
        }
    }
    let mut problems = Diagnostics::default();
    let given = options.set.iter().map(|pair| ("--set", pair));
    let extra_given = extra.values.iter().map(|pair| (extra.flag, pair));
    for (flag, (key, value)) in given.chain(extra_given) {
        if !values.give(key, value.clone()) {
            problems.push(values.unknown(flag, key, value));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if !values.identity.is_empty() {
        identity = with_overrides(&identity, values.identity);
    }
    let context = values.context;
    Ok((prompt, context, identity))
}

/// The prompt the options name: itself, or the member of the family it names that the
/// `--tag`s choose (reported on stderr, once).
pub fn chosen(project: &Project, options: &RenderOptions) -> Result<String, Diagnostics> {
    let name = crate::prompt_name(&options.name);
    let member = family_member(project, name, &options.tag, options.item_id.as_deref())?;
    Ok(member.unwrap_or_else(|| name.to_owned()))
}

/// Whether the prompt the options name uses a value called `name` (as a context variable
/// or an identity key), so that a command can give it only where it means something.
pub fn uses(project: &Project, options: &RenderOptions, name: &str) -> Result<bool, Diagnostics> {
    let prompt = project.check_inferred(crate::prompt_name(&options.name))?;
    let used = Values::new(&prompt).names().any(|n| n == name);
    Ok(used)
}

/// Values sorted by what takes them.
struct Values<'a> {
    prompt: &'a CheckedPrompt,
    identity_keys: Vec<String>,
    context: HashMap<String, String>,
    identity: Vec<(String, String)>,
}

impl<'a> Values<'a> {
    fn new(prompt: &'a CheckedPrompt) -> Self {
        Values {
            prompt,
            identity_keys: prompt.resolved.identity_keys(),
            context: HashMap::new(),
            identity: Vec::new(),
        }
    }

    /// Gives a value by name; false when the prompt does not use the name. (A tested
    /// value given a false word, `no` or `0` say, is off: `CheckedPrompt::render` reads
    /// it so.)
    fn give(&mut self, key: &str, value: String) -> bool {
        if self.prompt.schema.context.iter().any(|v| v.name == key) {
            self.context.insert(key.to_owned(), value);
            true
        } else if self.identity_keys.iter().any(|k| k == key) {
            self.identity.push((key.to_owned(), value));
            true
        } else {
            false
        }
    }

    fn names(&self) -> impl Iterator<Item = &str> {
        let context = self.prompt.schema.context.iter().map(|v| v.name.as_str());
        context.chain(self.identity_keys.iter().map(String::as_str))
    }

    fn unknown(&self, flag: &str, key: &str, value: &str) -> Diagnostic {
        let d = Diagnostic::new(format!(
            "prompt `{}` uses no value named `{key}` (from `{flag} {key}={value}`)",
            self.prompt.name
        ));
        match closest(key, self.names()) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None => {
                let names: Vec<String> = self.names().map(|n| format!("`{n}`")).collect();
                if names.is_empty() {
                    d.with_help("this prompt takes no values")
                } else {
                    d.with_help(format!("its values are {}", names.join(", ")))
                }
            }
        }
    }
}

/// The identity with some keys' values replaced; variants follow their keys.
fn with_overrides(identity: &Identity, overrides: Vec<(String, String)>) -> Identity {
    let base = identity
        .keys()
        .map(|k| (k.to_owned(), identity.get(k).unwrap_or_default().to_owned()));
    Identity::from_pairs(base.chain(overrides))
}

/// The render error as one diagnostic listing every missing or unusable value.
fn cannot_render(
    project: &Project,
    prompt: &CheckedPrompt,
    error: &prompt_runtime::check::RenderError,
    identity: &Identity,
    identity_given: bool,
) -> Diagnostic {
    let text = error.to_string();
    let reasons: Vec<&str> = text.lines().map(str::trim).collect();
    let mut d = Diagnostic::new(format!(
        "cannot render `{}`: {}",
        prompt.name,
        reasons.join("; ")
    ));
    let identity_help = if identity_given {
        "add the keys to the identity file, or give them with `--set NAME=VALUE`"
    } else {
        "give an identity with `--identity FILE.json` (solstone's `journal.json` will do), or single keys with `--set NAME=VALUE`"
    };
    d = match (
        error.missing_context.is_empty(),
        error.missing_identity.is_empty(),
    ) {
        (false, true) => {
            d.with_help("give values with `--set NAME=VALUE` or `--context FILE.json`")
        }
        (true, false) => d.with_help(identity_help),
        (false, false) => d.with_help(if identity_given {
            "give values with `--set NAME=VALUE` or `--context FILE.json`, and add the identity keys to the identity file"
        } else {
            "give values with `--set NAME=VALUE` or `--context FILE.json`, and an identity with `--identity FILE.json`"
        }),
        (true, true) => d.with_help("give a value that fits, with `--set NAME=VALUE` or in the context file"),
    };
    if !error.missing_identity.is_empty() && !identity_given {
        let example = match &project.config.path {
            Some(_) => format!(
                "the example identity in `{}/promptic.json` only declares which identity keys exist; its values are never rendered",
                project.display
            ),
            None => "with no `promptic.json`, the identity keys are solstone's (`name`, `preferred`, `pronouns_subject`, ...); they have no values until an identity gives them".to_owned(),
        };
        d = d.with_note(example);
    }
    for name in &error.missing_context {
        if identity.get(name).is_some() {
            d = d.with_note(format!(
                "`{name}` is in the identity given, but `{}/promptic.json`'s identity does not declare it, so prompts read `${name}` as a context value: add it there",
                project.display
            ));
        } else if let Some(known) = lint::misspelt(project, name) {
            d = d.with_note(format!(
                "`${name}` is read as a context value; did you mean `${known}`?"
            ));
        }
    }
    d
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

/// The context file's values, by name (in serde_json's map order, which is sorted; the
/// order does not matter: each value goes to its own variable).
pub fn load_context(path: &Path) -> Result<Vec<(String, String)>, Diagnostics> {
    let source = read_text(path, "the context")?;
    let text = source.text();
    let shown = source.path();
    // Values stay raw JSON so that numbers keep the text the file gives them (`1e3`, not
    // `1000.0`), as identity values do.
    let object: BTreeMap<String, &RawValue> = serde_json::from_str(text).map_err(|e| {
        let what = if e.is_data() {
            "must hold a JSON object"
        } else {
            "is not valid JSON"
        };
        // serde_json ends its message with the position, which the location shows
        let message = e.to_string();
        let position = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&position).unwrap_or(&message);
        Diagnostic::new(format!("`{shown}` {what}: {message}"))
            .at(&source, span_at(&source, e.line(), e.column(), false))
            .with_help(r#"write the context as {"name": "value", ...}"#)
    })?;
    let mut values = Vec::new();
    let mut problems = Diagnostics::default();
    for (key, raw) in object {
        let json = raw.get();
        // The raw value borrows from `text`: its place there is its span.
        let start = (json.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
        let span = start..start + json.len();
        match json.as_bytes().first() {
            Some(b'"') => match serde_json::from_str::<String>(json) {
                Ok(text) => values.push((key, text)),
                Err(e) => problems.push(
                    Diagnostic::new(format!("context value `{key}` in `{shown}`: {e}"))
                        .at(&source, span)
                        .with_help("write the value as a JSON string"),
                ),
            },
            Some(b'n') => {}
            Some(b'{' | b'[') => problems.push(
                Diagnostic::new(format!(
                    "context value `{key}` in `{shown}` must be a string, a number, a boolean or null"
                ))
                .at(&source, span)
                .with_help("a placeholder takes one line of text; join lists before rendering"),
            ),
            // Numbers and booleans, as written.
            _ => values.push((key, json.to_owned())),
        }
    }
    problems.into_result(values)
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
