//! Jinja prompts (`NAME.md.j2`, `NAME.j2`) behind the one interface.

use super::Templates;
use super::paths::PathStep;
use super::{Map, Value};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::formats::front::{
    Claim, Format, Given, GivenValue, LoadedPrompt, Origin, Output, Place, ValueUse, Values,
    unread_value,
};
use crate::load::Project;
use crate::meta::Meta;
use crate::render::PromptContent;
use std::borrow::Cow;

/// The Jinja format.
pub struct Jinja;

/// The one [`Jinja`].
pub static JINJA: Jinja = Jinja;

impl Format for Jinja {
    fn name(&self) -> &'static str {
        "jinja"
    }

    fn title(&self) -> &'static str {
        "Jinja"
    }

    fn language(&self) -> &'static str {
        "jinja"
    }

    fn endings(&self) -> &'static [&'static str] {
        &[".md.j2", ".j2"]
    }

    /// Every template is a prompt's file until one includes it; which ones are included
    /// is known only when they are read (see [`Project::jinja_prompt_names`]).
    fn claim(&self, rel: &str) -> Option<Claim> {
        let name = self.endings().iter().find_map(|e| rel.strip_suffix(e))?;
        (!name.is_empty() && !name.ends_with('/')).then(|| Claim::Prompt(name.to_owned()))
    }

    fn load(&self, project: &Project, name: &str) -> Result<Box<dyn LoadedPrompt>, Diagnostics> {
        let (file, templates) = project.load_jinja(name)?;
        Ok(Box::new(LoadedJinja::new(project, name, file, templates)))
    }

    /// The templates another template includes: read, not listed.
    fn included(&self, project: &Project, prompts: &[String]) -> Vec<String> {
        let names = project.jinja_prompt_names();
        prompts
            .iter()
            .filter(|p| !names.contains(p))
            .cloned()
            .collect()
    }
}

/// A path as it reads from the value named `name`: `user.name`, `steps[…].title` (a key of
/// every item), `xs[0]`, `hosts.items()`.
fn path_text(name: &str, steps: &[PathStep]) -> String {
    let mut text = name.to_owned();
    for step in steps {
        match step {
            PathStep::Field(key) => {
                text.push('.');
                text.push_str(key);
            }
            PathStep::Element => text.push_str("[…]"),
            PathStep::Index(i) => text.push_str(&format!("[{i}]")),
            PathStep::Value => text.push_str(".items()"),
        }
    }
    text
}

/// A checked Jinja prompt: its templates, loaded with the folder's options.
pub struct LoadedJinja {
    name: String,
    file: String,
    path: String,
    templates: Templates,
    reads: Vec<ValueUse>,
    /// Every run of keys the templates read into a value (`user.name`, and `user.address`
    /// for `user.address.city`): what a dotted flag may set.
    keys_read: Vec<String>,
    meta: Meta,
}

impl LoadedJinja {
    fn new(project: &Project, name: &str, file: String, templates: Templates) -> LoadedJinja {
        let paths = templates.paths(&file).unwrap_or_default();
        // The paths into each value, in the order read: one pass over them all.
        let mut read: std::collections::HashMap<&str, Vec<String>> = Default::default();
        for p in paths.iter().filter(|p| !p.steps.is_empty()) {
            read.entry(p.name.as_str())
                .or_default()
                .push(path_text(&p.name, &p.steps));
        }
        let reads = templates
            .uses(&file)
            .into_iter()
            .map(|u| {
                let kind = kind_read(&paths, &u.name);
                let into = read.get(u.name.as_str()).cloned().unwrap_or_default();
                let at = templates
                    .get(&u.file)
                    .map(|t| Place::new(t.source(), u.span.clone()));
                let value = ValueUse::new(u.name, kind, u.required).with_paths(into);
                match at {
                    Some(at) => value.read_at(at),
                    None => value,
                }
            })
            .collect();
        let mut keys_read: Vec<String> = Vec::new();
        for path in &paths {
            let mut shown = path.name.clone();
            for step in &path.steps {
                let PathStep::Field(key) = step else { break };
                shown.push('.');
                shown.push_str(key);
                if !keys_read.contains(&shown) {
                    keys_read.push(shown.clone());
                }
            }
        }
        LoadedJinja {
            name: name.to_owned(),
            path: format!("{}/{file}", project.display),
            file,
            templates,
            reads,
            keys_read,
            meta: Meta::default(),
        }
    }

    /// The templates, entry first.
    pub fn templates(&self) -> &Templates {
        &self.templates
    }

    /// The entry template's file (relative to the folder).
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The values as one JSON object, after checking them against what the templates read:
    /// every value given by the program or a flag is read, every required one is given,
    /// and every path read into a value is there.
    fn values(&self, values: &Values) -> Result<Value, Diagnostics> {
        let mut problems = Diagnostics::default();
        let mut map = Map::new();
        let mut dotted = Vec::new();
        // The values a flag meant to set but could not: not reported missing as well.
        let mut refused: Vec<&str> = Vec::new();
        let against = values.against(&self.reads);
        for given in values.latest() {
            // `--set user.name=Ada`: one key of a value the template reads as a mapping,
            // set once the whole values are in (a flag wins over a file's `user`).
            if let Some(text) = given.dotted_flag() {
                match self.dotted_path(given) {
                    Ok(path) => dotted.push((path, text)),
                    Err(problem) => {
                        problems.push(problem);
                        refused.push(given.meant(&self.reads));
                    }
                }
                continue;
            }
            if given.name != crate::guidance::GUIDANCE
                && !against.reads(&given.name)
                && against.must_read(given)
            {
                problems.push(unread_value(
                    given,
                    &self.reads,
                    format!(
                        "prompt `{}` uses no value named `{}` (from {})",
                        self.name,
                        given.name,
                        given.origin_text()
                    ),
                ));
                // The value it was meant for is not reported missing as well.
                refused.push(given.meant(&self.reads));
                continue;
            }
            // A flag's text for a value the templates read as a list or a mapping is JSON
            // of that shape (`--set 'tools=["search"]'`): looped over as text, it would
            // render its characters.
            if let (Origin::Flag(_), GivenValue::Text(text)) = (&given.origin, &given.value) {
                let kind = self
                    .reads
                    .iter()
                    .find(|r| r.name == given.name)
                    .map(|r| r.kind);
                if let Some(kind @ ("list" | "object")) = kind {
                    match Value::from_json(text) {
                        Ok(value @ Value::Array(_)) if kind == "list" => {
                            map.insert(given.name.clone(), value);
                        }
                        Ok(value @ Value::Object(_)) if kind == "object" => {
                            map.insert(given.name.clone(), value);
                        }
                        _ => {
                            problems.push(self.not_json(given, kind));
                            refused.push(&given.name);
                        }
                    }
                    continue;
                }
            }
            // Read as Python's `json.loads` reads it: dicts in the order written, integers
            // exact (a value the program gave went through serde, already JSON).
            let value = match &given.value {
                GivenValue::Text(text) => Value::String(text.clone()),
                GivenValue::Json(json) => match Value::from_json(json) {
                    Ok(value) => value,
                    Err(e) => {
                        problems.push(given.unreadable(&e.message));
                        refused.push(&given.name);
                        continue;
                    }
                },
                GivenValue::Unwritable(why) => {
                    problems.push(given.unwritable(why));
                    refused.push(&given.name);
                    continue;
                }
            };
            map.insert(given.name.clone(), value);
        }
        for (path, text) in dotted {
            crate::value::set_path(&mut map, &path, Value::String(text.to_owned()));
        }
        for missing in self.templates.uses(&self.file).iter().filter(|u| {
            u.required && !map.contains_key(&u.name) && !refused.contains(&u.name.as_str())
        }) {
            let Some(template) = self.templates.get(&missing.file) else {
                continue;
            };
            problems.push(
                Diagnostic::new(format!("`{}` has no value", missing.name))
                    .at(template.source(), missing.span.clone())
                    .with_help(format!(
                        "give it with `--set {0}=VALUE` or `--context FILE.json`, or write `{0} | default(…)` to make it optional",
                        missing.name
                    )),
            );
        }
        let values = Value::Object(map);
        problems.extend(self.templates.check_values(&self.file, &values));
        problems.into_result(values)
    }
}

/// What the templates read `name` as, by the first step of every path they read into it:
/// `object` for a key (`user.name`, `prefs.items()`), `list` for a loop's item (`{% for t
/// in tools %}`), `any` when they read it whole or both ways. An index (`xs[0]`) tells
/// nothing: a text has items too.
fn kind_read(paths: &[super::PathUse], name: &str) -> &'static str {
    let mut kind = None;
    for path in paths.iter().filter(|p| p.name == name) {
        let this = match path.steps.first() {
            Some(PathStep::Field(_) | PathStep::Value) => "object",
            Some(PathStep::Element) => "list",
            Some(PathStep::Index(_)) | None => continue,
        };
        match kind {
            None => kind = Some(this),
            Some(k) if k == this => {}
            Some(_) => return "any",
        }
    }
    kind.unwrap_or("any")
}

impl LoadedJinja {
    /// A flag's text that is no JSON list (`kind` `list`) or mapping (`object`), for a
    /// value the templates read as one.
    fn not_json(&self, given: &Given, kind: &str) -> Diagnostic {
        let name = &given.name;
        let (what, example) = match kind {
            "list" => (
                "a list (looped over)",
                format!("--set '{name}=[\"a\", \"b\"]'"),
            ),
            _ => (
                "a mapping (its keys read)",
                format!("--set '{name}={{\"key\": \"value\"}}'"),
            ),
        };
        let mut help = format!("write it as JSON, `{example}`");
        if kind == "object" {
            help.push_str(&format!(", set one key with `--set {name}.KEY=VALUE`"));
        }
        help.push_str(", or give it in `--context FILE.json`");
        Diagnostic::new(format!(
            "{}: the templates read `{name}` as {what}, and this is not one written as JSON",
            given.origin_text()
        ))
        .with_help(help)
    }

    /// The keys of a dotted flag (`--set user.name=Ada`), when the templates read that
    /// path as attributes or keys (`user.name`, `user['name']`, or a longer path through
    /// it); otherwise the error, with the paths they do read.
    fn dotted_path(&self, given: &Given) -> Result<Vec<String>, Diagnostic> {
        let keys: Vec<String> = given.name.split('.').map(str::to_owned).collect();
        let root = format!("{}.", keys[0]);
        let read: Vec<&str> = self
            .keys_read
            .iter()
            .map(String::as_str)
            .filter(|k| k.starts_with(&root))
            .collect();
        if read.contains(&given.name.as_str()) {
            return Ok(keys);
        }
        let message = format!(
            "prompt `{}` reads no `{}` (from {})",
            self.name,
            given.name,
            given.origin_text()
        );
        if !self.reads.iter().any(|r| r.name == keys[0]) {
            let names = self.reads.iter().map(|r| r.name.as_str());
            return Err(match crate::suggest::closest(&keys[0], names) {
                Some(close) => Diagnostic::new(message)
                    .with_help(format!("did you mean `{close}.{}`?", keys[1..].join("."))),
                None => unread_value(given, &self.reads, message),
            });
        }
        let d = Diagnostic::new(message);
        Err(
            match crate::suggest::closest(&given.name, read.iter().copied()) {
                Some(close) => d.with_help(format!("did you mean `{close}`?")),
                None if read.is_empty() => d.with_help(format!(
                    "the templates read no key of `{}` by name: give it whole, in `--context FILE.json`",
                    keys[0]
                )),
                None => {
                    let all: Vec<String> = read.iter().map(|r| format!("`{r}`")).collect();
                    d.with_help(format!("the templates read {}", all.join(", ")))
                }
            },
        )
    }
}

impl LoadedPrompt for LoadedJinja {
    fn name(&self) -> &str {
        &self.name
    }

    fn path(&self) -> &str {
        &self.path
    }

    fn format(&self) -> &'static dyn Format {
        &JINJA
    }

    fn reads(&self) -> &[ValueUse] {
        &self.reads
    }

    fn version(&self) -> String {
        self.templates.version(&self.file)
    }

    fn warnings(&self) -> Vec<Diagnostic> {
        self.templates
            .get(&self.file)
            .and_then(|t| frontmatter_as_text(t.source()))
            .into_iter()
            .collect()
    }

    fn files(&self) -> Vec<String> {
        self.templates
            .names()
            .filter(|n| *n != self.file)
            .map(str::to_owned)
            .collect()
    }

    fn parts(&self) -> Vec<String> {
        self.files()
    }

    fn meta(&self) -> &Meta {
        &self.meta
    }

    fn render(&self, values: &Values) -> Result<Output, Diagnostics> {
        let values = self.values(values)?;
        let (text, breakpoints) = self
            .templates
            .render_with_breakpoints(&self.file, &values)?;
        Ok(Output::Text(PromptContent {
            text,
            path: Cow::Owned(self.path.clone()),
            metadata: Cow::Owned(self.meta.clone()),
            breakpoints,
        }))
    }

    fn derive_refusal(&self) -> Option<Diagnostic> {
        // Every name read as a field: what the derive refuses is a construct, whatever
        // the fields' types.
        let field = |name: &str| Some(format!("self.{name}"));
        super::compiled::compile(&self.templates, &self.file, &field).err()
    }

    fn without_either_ors(&self) -> Option<(Box<dyn LoadedPrompt>, Vec<String>)> {
        let (templates, why) = self.templates.without_either_ors();
        let muted = LoadedJinja {
            name: self.name.clone(),
            file: self.file.clone(),
            path: self.path.clone(),
            templates,
            reads: self.reads.clone(),
            keys_read: self.keys_read.clone(),
            meta: self.meta.clone(),
        };
        // As a Jinja template registers them.
        let reasons = why
            .into_iter()
            .map(|why| format!("{{% else %}}{{# either-or: {why} #}}"))
            .collect();
        Some((Box::new(muted), reasons))
    }
}

/// A warning for a template that opens with what looks like YAML frontmatter (a `---` line,
/// `key: value` lines, a closing `---`), as other prompt tools write it: Jinja2 has no
/// frontmatter, so it and promptic send those lines to the model as text.
fn frontmatter_as_text(source: &crate::SourceFile) -> Option<Diagnostic> {
    let text = source.text();
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let mut keys = 0;
    for line in lines.take(200) {
        if line.trim_end() == "---" {
            let first = text.find('\n').unwrap_or(text.len());
            return (keys > 0).then(|| {
                Diagnostic::new(
                    "this looks like frontmatter, but a Jinja template has none: Jinja2 and promptic send these lines to the model as text",
                )
                .at(source, 0..first)
                .with_help("for a prompt with frontmatter, write a dotprompt file (`NAME.prompt`) or a Markdown prompt (`NAME.md`, JSON frontmatter); to send the lines on purpose, open the file with `{#- sent as text -#}`, which renders nothing")
            });
        }
        let key = line.split(':').next().unwrap_or_default();
        if line.contains(':')
            && !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            keys += 1;
        }
    }
    None
}
