//! Markdown prompts (`NAME.md`) behind the one interface: `$name` placeholders and
//! templates (solstone's format), chat sections, and keep agent prompts (`"placeholders":
//! "keep"`), which keep's own rules render.

use super::front::{
    Claim, Format, GivenValue, LoadedPrompt, Output, Place, Takes, ValueUse, Values,
};
use super::keep::{AgentFile, AgentKind, AgentPrompt};
use crate::check::{CheckedPrompt, RenderError};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::identity::Identity;
use crate::load::Project;
use crate::meta::Meta;
use crate::parse::lexer::Syntax;
use crate::render::PromptContent;
use crate::resolve::VarKind;
use crate::suggest::closest;
use std::borrow::Cow;
use std::collections::HashMap;

/// The Markdown format.
pub struct Markdown;

/// The one [`Markdown`].
pub static MARKDOWN: Markdown = Markdown;

impl Format for Markdown {
    fn name(&self) -> &'static str {
        "markdown"
    }

    fn title(&self) -> &'static str {
        "Markdown"
    }

    fn language(&self) -> &'static str {
        "markdown"
    }

    fn endings(&self) -> &'static [&'static str] {
        &[".md"]
    }

    fn claim(&self, rel: &str) -> Option<Claim> {
        let name = rel.strip_suffix(".md")?;
        (!name.is_empty() && !name.ends_with('/')).then(|| Claim::Prompt(name.to_owned()))
    }

    fn load(&self, project: &Project, name: &str) -> Result<Box<dyn LoadedPrompt>, Diagnostics> {
        let file = project.load_prompt(name)?;
        let keep = file.syntax == Syntax::Keep;
        let checked = project.check_loaded(name, file)?;
        if keep {
            return LoadedKeepAgent::load(project, checked)
                .map(|p| Box::new(p) as Box<dyn LoadedPrompt>);
        }
        let identity_keys = checked.resolved.identity_keys();
        let first_uses = checked.resolved.first_uses();
        let mut reads: Vec<ValueUse> = checked
            .schema
            .context
            .iter()
            .map(|var| {
                let (kind, required) = match &var.kind {
                    VarKind::Text => ("text", true),
                    VarKind::Optional => ("text", false),
                    VarKind::Flag => ("boolean", false),
                    VarKind::Choice(_) => ("text", true),
                    VarKind::Messages => ("list", false),
                };
                let value = ValueUse::new(var.name.clone(), kind, required);
                // Read as written or as its capitalized variant (`$Preferred`).
                match first_uses.of(&var.name) {
                    Some(u) => value.read_at(Place::from(u)),
                    None => value,
                }
            })
            .collect();
        // Identity keys come from the identity; a value of that name overrides it.
        reads.extend(
            identity_keys
                .iter()
                .map(|key| ValueUse::new(key.clone(), "text", false)),
        );
        Ok(Box::new(LoadedMarkdown {
            path: checked.file.source.path().to_owned(),
            identity_keys,
            reads,
            missing: MissingHelp::of(project),
            warnings: warnings(project, &checked),
            version: crate::check::version(&checked, &project.templates),
            history_names: checked
                .schema
                .context
                .iter()
                .filter(|var| matches!(var.kind, VarKind::Messages))
                .map(|var| var.name.clone())
                .collect(),
            prompt: checked,
        }))
    }
}

/// A checked Markdown prompt.
pub struct LoadedMarkdown {
    prompt: CheckedPrompt,
    path: String,
    identity_keys: Vec<String>,
    reads: Vec<ValueUse>,
    missing: MissingHelp,
    warnings: Vec<Diagnostic>,
    version: String,
    /// The context values that are the messages of a `{% history %}` section.
    history_names: Vec<String>,
}

/// The values a render of a Markdown prompt takes, read from [`Values`].
struct Prepared {
    context: HashMap<String, String>,
    identity: Identity,
    /// The messages of each history section given by name.
    histories: HashMap<String, Vec<crate::chat::Message>>,
}

impl LoadedMarkdown {
    /// The checked prompt.
    pub fn checked(&self) -> &CheckedPrompt {
        &self.prompt
    }

    /// The context values and the identity (with overrides) that `values` give.
    fn prepare(&self, values: &Values) -> Result<Prepared, Diagnostics> {
        let mut context = HashMap::new();
        let mut histories = HashMap::new();
        let mut overrides = Vec::new();
        let mut problems = Diagnostics::default();
        let name = &self.prompt.name;
        let against = values.against(&self.reads);
        let context_names: std::collections::HashSet<&str> = self
            .prompt
            .schema
            .context
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        for given in values.iter() {
            // A value the prompt does not read is not looked into (a context file's list
            // for another prompt is no error here).
            if !against.reads(&given.name) {
                if against.must_read(given) {
                    problems.push(super::front::unread_value(
                        given,
                        &self.reads,
                        format!(
                            "prompt `{name}` uses no value named `{}` (from {})",
                            given.name,
                            given.origin_text()
                        ),
                    ));
                }
                continue;
            }
            if self.history_names.contains(&given.name) {
                if let Some(messages) = messages_of(given, &mut problems) {
                    histories.insert(given.name.clone(), messages);
                }
                continue;
            }
            let Some(text) = text_of(given, &mut problems) else {
                continue;
            };
            if context_names.contains(given.name.as_str()) {
                context.insert(given.name.clone(), text);
            } else {
                // The rest of what it reads are identity keys: a value overrides the
                // identity's.
                overrides.push((given.name.clone(), text));
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut identity = values.identity.clone().unwrap_or_default();
        if !overrides.is_empty() {
            let base = identity
                .keys()
                .map(|k| (k.to_owned(), identity.get(k).unwrap_or_default().to_owned()));
            identity = Identity::from_pairs(base.chain(overrides));
        }
        Ok(Prepared {
            context,
            identity,
            histories,
        })
    }

    fn failed(&self, values: &Values, identity: &Identity, error: &RenderError) -> Diagnostics {
        let d =
            self.missing
                .cannot_render(&self.prompt, error, identity, values.identity.is_some());
        at_first_read(d, &self.prompt, &self.reads, &error.missing_context).into()
    }
}

/// The text of a value for a `$name` placeholder: a string's text, a number or boolean as
/// written; `null` leaves it out. A list or an object is an error at its place.
fn text_of(given: &super::front::Given, problems: &mut Diagnostics) -> Option<String> {
    let json = match &given.value {
        GivenValue::Text(text) => return Some(text.clone()),
        GivenValue::Json(json) => json,
        GivenValue::Unwritable(why) => {
            problems.push(given.unwritable(why));
            return None;
        }
    };
    match json.as_bytes().first() {
        Some(b'"') => match serde_json::from_str::<String>(json) {
            Ok(text) => Some(text),
            Err(e) => {
                problems.push(at_origin(
                    given,
                    Diagnostic::new(format!("value {}: {e}", given.origin_text()))
                        .with_help("write the value as a JSON string"),
                ));
                None
            }
        },
        Some(b'n') => None,
        Some(b'{' | b'[') => {
            let what = match &given.origin {
                super::front::Origin::File(file) => {
                    format!("context value `{}` in `{}`", given.name, file.path())
                }
                _ => format!("the value `{}`", given.name),
            };
            problems.push(at_origin(
                given,
                Diagnostic::new(format!(
                    "{what} must be a string, a number, a boolean or null"
                ))
                .with_help("a placeholder takes one line of text; join lists before rendering"),
            ));
            None
        }
        _ => Some(json.clone()),
    }
}

/// The messages of a value for a `{% history %}` section: a JSON list of `{"role",
/// "content"}` objects; `null` gives none. Text, or anything else, is an error at its
/// place.
fn messages_of(
    given: &super::front::Given,
    problems: &mut Diagnostics,
) -> Option<Vec<crate::chat::Message>> {
    const HELP: &str = r#"give a list of messages, `[{"role": "user", "content": "Hi"}]` (the role `system`, `user`, `assistant` or `tool`), in a context file, or the whole conversation with `--history FILE.json`"#;
    let json = match &given.value {
        GivenValue::Json(json) => json,
        GivenValue::Unwritable(why) => {
            problems.push(given.unwritable(why));
            return None;
        }
        GivenValue::Text(_) => {
            problems.push(at_origin(
                given,
                Diagnostic::new(format!(
                    "`{}` is a history section: it takes a list of messages, not text (from {})",
                    given.name,
                    given.origin_text()
                ))
                .with_help(HELP),
            ));
            return None;
        }
    };
    match serde_json::from_str::<Option<Vec<crate::chat::Message>>>(json) {
        Ok(messages) => messages,
        Err(e) => {
            // The place is the value's, shown under it; serde's is within the value.
            let why = e.to_string();
            let why = why
                .rsplit_once(" at line ")
                .map_or(why.as_str(), |(why, _)| why);
            problems.push(at_origin(
                given,
                Diagnostic::new(format!(
                    "the value `{}` (from {}) is not a list of chat messages: {why}",
                    given.name,
                    given.origin_text()
                ))
                .with_help(HELP),
            ));
            None
        }
    }
}

fn at_origin(given: &super::front::Given, d: Diagnostic) -> Diagnostic {
    match &given.origin {
        super::front::Origin::File(file) => d.at(file, given.span.clone()),
        _ => d,
    }
}

impl LoadedPrompt for LoadedMarkdown {
    fn name(&self) -> &str {
        &self.prompt.name
    }

    fn warnings(&self) -> Vec<Diagnostic> {
        self.warnings.clone()
    }

    fn version(&self) -> String {
        self.version.clone()
    }

    fn output_schema_span(
        &self,
        property: Option<&str>,
    ) -> Option<(crate::SourceFile, std::ops::Range<usize>)> {
        let file = &self.prompt.file;
        let entry = file.frontmatter.as_ref()?.get("output_schema")?;
        let whole = (file.source.clone(), entry.span.clone());
        let Some(property) = property else {
            return Some(whole);
        };
        // The key `"property"` after the schema's `"properties"`, as JSON writes it.
        let text = file.source.text().get(entry.span.clone())?;
        let after = text.find("\"properties\"")?;
        let key = format!("\"{property}\"");
        let mut from = after;
        while let Some(at) = text[from..].find(&key) {
            let start = from + at;
            let end = start + key.len();
            if text[end..].trim_start().starts_with(':') {
                let start = entry.span.start + start;
                return Some((file.source.clone(), start..start + key.len()));
            }
            from = end;
        }
        Some(whole)
    }

    fn path(&self) -> &str {
        &self.path
    }

    fn format(&self) -> &'static dyn Format {
        &MARKDOWN
    }

    fn reads(&self) -> &[ValueUse] {
        &self.reads
    }

    fn meta(&self) -> &Meta {
        &self.prompt.meta
    }

    fn takes(&self) -> Takes {
        Takes {
            identity: true,
            history: self.prompt.resolved.is_chat(),
            data: false,
        }
    }

    fn render(&self, values: &Values) -> Result<Output, Diagnostics> {
        let Prepared {
            context,
            identity,
            histories,
        } = self.prepare(values)?;
        if !self.prompt.resolved.is_chat() {
            return self
                .prompt
                .render(&context, &identity)
                .map(Output::Text)
                .map_err(|e| self.failed(values, &identity, &e));
        }
        // A history section's own value, else the conversation given for every one.
        let shared = values.history.as_deref().unwrap_or_default();
        let history = |name: &str| histories.get(name).map_or(shared, Vec::as_slice);
        self.prompt
            .messages_of(&context, &history, &identity)
            .map(Output::Chat)
            .map_err(|e| self.failed(values, &identity, &e))
    }

    fn without_either_ors(&self) -> Option<(Box<dyn LoadedPrompt>, Vec<String>)> {
        let reasons = self
            .prompt
            .either_ors()
            .into_iter()
            .map(|why| format!("{{% else {why:?} %}}"))
            .collect();
        let muted = LoadedMarkdown {
            prompt: self.prompt.without_either_ors(),
            path: self.path.clone(),
            identity_keys: self.identity_keys.clone(),
            reads: self.reads.clone(),
            missing: MissingHelp {
                display: self.missing.display.clone(),
                has_config: self.missing.has_config,
                known: self.missing.known.clone(),
            },
            warnings: self.warnings.clone(),
            version: self.version.clone(),
            history_names: self.history_names.clone(),
        };
        Some((Box::new(muted), reasons))
    }
}

/// `d`, shown where the prompt first reads the first of `missing`: in the prompt's own
/// file, or named in a note when that is a template.
fn at_first_read(
    d: Diagnostic,
    prompt: &CheckedPrompt,
    reads: &[ValueUse],
    missing: &[String],
) -> Diagnostic {
    let Some((name, at)) = missing.iter().find_map(|name| {
        let read = reads.iter().find(|r| r.name == *name)?;
        Some((name, read.at.as_ref()?))
    }) else {
        return d;
    };
    let source = &prompt.file.source;
    if at.path == source.path() {
        return d.at(source, at.span.clone());
    }
    d.with_note(format!("`${name}` is first read at {at}"))
}

/// What the folder says about values that are missing: its identity declaration and the
/// names a context value may misspell.
struct MissingHelp {
    display: String,
    has_config: bool,
    known: Vec<String>,
}

impl MissingHelp {
    fn of(project: &Project) -> MissingHelp {
        MissingHelp {
            display: project.display.clone(),
            has_config: project.config.path.is_some(),
            known: known_names(project),
        }
    }

    /// The render error as one diagnostic listing every missing or unusable value.
    fn cannot_render(
        &self,
        prompt: &CheckedPrompt,
        error: &RenderError,
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
            (true, true) => d.with_help(
                "give a value that fits, with `--set NAME=VALUE` or in the context file",
            ),
        };
        if !error.missing_identity.is_empty() && !identity_given {
            let example = if self.has_config {
                format!(
                    "the example identity in `{}/promptic.json` only declares which identity keys exist; its values are never rendered",
                    self.display
                )
            } else {
                "with no `promptic.json`, the identity keys are solstone's (`name`, `preferred`, `pronouns_subject`, ...); they have no values until an identity gives them".to_owned()
            };
            d = d.with_note(example);
        }
        for name in &error.missing_context {
            if identity.get(name).is_some() {
                d = d.with_note(format!(
                    "`{name}` is in the identity given, but `{}/promptic.json`'s identity does not declare it, so prompts read `${name}` as a context value: add it there",
                    self.display
                ));
            } else if let Some(known) = closest(name, self.known.iter().map(String::as_str)) {
                d = d.with_note(format!(
                    "`${name}` is read as a context value; did you mean `${known}`?"
                ));
            }
        }
        // A key the identity has under another spelling (`nmae` for `name`).
        for name in &error.missing_identity {
            if let Some(close) = closest(name, identity.keys()) {
                d = d.with_note(format!(
                    "the identity has `{close}`, not `{name}`: did you mean to write `{name}`?"
                ));
            }
        }
        d
    }
}

/// The names a context variable may be a misspelling of: identity keys and their
/// variants, templates, literals.
pub fn known_names(project: &Project) -> Vec<String> {
    let identity = project
        .config
        .identity
        .keys()
        .flat_map(|k| [k.to_owned(), crate::variant_name(k)]);
    identity
        .chain(project.templates.names().map(str::to_owned))
        .chain(project.config.literals.iter().cloned())
        .collect()
}

/// What `promptic check` warns about in a checked Markdown prompt, each once: frontmatter
/// that is sent to the model as text or a key that looks misspelt
/// ([`frontmatter_warnings`](crate::check::frontmatter_warnings)), a `$name` that runs
/// into the letters after it ([`run_on_names`](crate::check::run_on_names)), and a
/// context value whose name is close to a template, an identity key or a literal.
///
/// Without a typed context, every name that is not an identity key, a template or a
/// literal is taken as a context value, so `$preambel` for the template `preamble` passes
/// the checks and fails only when rendered; a context value whose name is close to one
/// of those known names is probably such a typo. It is a warning, not an error:
/// `$timezone_offset` beside the identity key `timezone` is fine.
pub fn warnings(project: &Project, prompt: &CheckedPrompt) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = Vec::new();
    let names = known_names(project);
    for variable in &prompt.resolved.variables {
        if variable.source != crate::resolve::VarSource::Context {
            continue;
        }
        let Some(known) = closest(&variable.name, names.iter().map(String::as_str)) else {
            continue;
        };
        let mut d = Diagnostic::new(format!(
            "`${}` is not a template, an identity key or a literal, so it is read as a context value",
            variable.name
        ));
        if let Some(first) = variable.uses.first()
            && let Some(source) = source_of(project, prompt, &first.path)
        {
            let span = source.span_at(first.line, first.col);
            d = d.at(&source, span);
        }
        found.push(d.with_help(format!("did you mean `${known}`?")));
    }
    let more = crate::check::run_on_names(&prompt.file, &project.templates)
        .into_iter()
        .chain(crate::check::frontmatter_warnings(&prompt.file));
    for w in more {
        if !found.contains(&w) {
            found.push(w);
        }
    }
    found
}

/// The loaded file with this display path: the prompt itself or one of the templates.
fn source_of(project: &Project, prompt: &CheckedPrompt, path: &str) -> Option<crate::SourceFile> {
    if prompt.file.source.path() == path {
        return Some(prompt.file.source.clone());
    }
    project
        .templates
        .iter()
        .map(|(_, t)| &t.file.source)
        .find(|s| s.path() == path)
        .cloned()
}

/// What keep's `render_prompt` takes besides the template's bindings.
const REQUEST_VALUES: [&str; 3] = ["text", "since", "until"];

/// A keep agent prompt (`"placeholders": "keep"`), with its includes expanded, rendered
/// as keep's `expand_prompt` renders it.
pub struct LoadedKeepAgent {
    name: String,
    path: String,
    meta: Meta,
    prompt: AgentPrompt,
    reads: Vec<ValueUse>,
    warnings: Vec<Diagnostic>,
    version: String,
}

impl LoadedKeepAgent {
    fn load(project: &Project, checked: CheckedPrompt) -> Result<LoadedKeepAgent, Diagnostics> {
        let mut agent = AgentFile {
            name: checked.name.clone(),
            top: checked.file.clone(),
            included: Default::default(),
        };
        let expansion = agent.expand(project).map_err(Diagnostics::from)?;
        let prompt = AgentPrompt::parse(&expansion.text);
        // keep's request values are taken by every agent prompt (`text` is also the
        // query of its state doc), whether or not the template shows them.
        let mut names: Vec<String> = prompt.names().into_iter().map(str::to_owned).collect();
        for request in REQUEST_VALUES {
            if !names.iter().any(|n| n == request) {
                names.push(request.to_owned());
            }
        }
        // A binding without a value renders as nothing, as in keep: none is required.
        let reads = names
            .into_iter()
            .map(|n| ValueUse::new(n, "text", false))
            .collect();
        Ok(LoadedKeepAgent {
            name: checked.name.clone(),
            path: checked.file.source.path().to_owned(),
            warnings: crate::check::frontmatter_warnings(&checked.file),
            // What it renders from is its text with the includes in place.
            version: super::version_of([(checked.file.source.path(), expansion.text.as_str())]),
            meta: checked.meta,
            prompt,
            reads,
        })
    }

    /// The bindings that render as nothing with `values`: no value and no fallback.
    pub fn unfilled(&self, values: &Values) -> Vec<String> {
        let mut unfilled: Vec<String> = Vec::new();
        for p in self.prompt.placeholders() {
            let bound = matches!(p.kind, AgentKind::Binding | AgentKind::Value);
            if bound
                && p.fallback.is_none()
                && values
                    .get(&p.name)
                    .is_none_or(|g| matches!(&g.value, GivenValue::Json(j) if j == "null"))
                && !unfilled.contains(&p.name)
            {
                unfilled.push(p.name.clone());
            }
        }
        unfilled
    }
}

impl LoadedPrompt for LoadedKeepAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn warnings(&self) -> Vec<Diagnostic> {
        self.warnings.clone()
    }

    fn version(&self) -> String {
        self.version.clone()
    }

    fn path(&self) -> &str {
        &self.path
    }

    fn format(&self) -> &'static dyn Format {
        &MARKDOWN
    }

    fn reads(&self) -> &[ValueUse] {
        &self.reads
    }

    fn meta(&self) -> &Meta {
        &self.meta
    }

    fn notes(&self, values: &Values) -> Vec<String> {
        let unfilled = self.unfilled(values);
        if unfilled.is_empty() {
            return Vec::new();
        }
        let one = unfilled.len() == 1;
        let shown: Vec<String> = unfilled.iter().map(|n| format!("`{{{n}}}`")).collect();
        vec![format!(
            "{} {} no value and {} as nothing, as a keep binding that did not fire does (give {} with `--set NAME=VALUE`)",
            shown.join(", "),
            if one { "has" } else { "have" },
            if one { "renders" } else { "render" },
            if one { "it" } else { "them" },
        )]
    }

    fn render(&self, values: &Values) -> Result<Output, Diagnostics> {
        let mut problems = Diagnostics::default();
        let mut texts: HashMap<String, String> = HashMap::new();
        let against = values.against(&self.reads);
        for given in values.iter() {
            if against.reads(&given.name) {
                if let Some(text) = text_of(given, &mut problems) {
                    texts.insert(given.name.clone(), text);
                }
            } else if against.must_read(given) {
                problems.push(super::front::unread_value(
                    given,
                    &self.reads,
                    format!(
                        "keep agent prompt `{}` takes no value `{}` (from {})",
                        self.name,
                        given.name,
                        given.origin_text()
                    ),
                ));
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let text = self.prompt.render(|name, _| texts.get(name).cloned());
        Ok(Output::Text(PromptContent {
            text,
            path: Cow::Owned(self.path.clone()),
            metadata: Cow::Owned(self.meta.clone()),
            breakpoints: Vec::new(),
        }))
    }
}
