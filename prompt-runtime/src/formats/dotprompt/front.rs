//! dotprompt files (`NAME.prompt`) behind the one interface: values are the prompt's
//! `input`; dotprompt's whole data argument (`@` context, history, render options) comes
//! as a data file.

use super::folder::Folder;
use super::{DataArgument, Dotprompt, Object, PromptMetadata, RenderedPrompt, Value, schema};
use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use crate::formats::front::{
    Claim, Format, Given, GivenValue, LoadedPrompt, Output, Place, Takes, ValueUse, Values,
};
use crate::load::Project;
use crate::meta::Meta;
use serde_core::Deserialize;

/// The dotprompt format.
pub struct DotpromptFormat;

/// The one [`DotpromptFormat`].
pub static DOTPROMPT: DotpromptFormat = DotpromptFormat;

impl Format for DotpromptFormat {
    fn name(&self) -> &'static str {
        "dotprompt"
    }

    fn title(&self) -> &'static str {
        "dotprompt"
    }

    fn language(&self) -> &'static str {
        "handlebars"
    }

    fn endings(&self) -> &'static [&'static str] {
        &[".prompt"]
    }

    /// `NAME.prompt` is a prompt, `_NAME.prompt` a partial; `schemas.json` and `tools.json`
    /// at the top are the registries.
    fn claim(&self, rel: &str) -> Option<Claim> {
        if rel == "schemas.json" || rel == "tools.json" {
            return Some(Claim::Part);
        }
        let name = rel.strip_suffix(".prompt")?;
        let (folder, file) = match name.rsplit_once('/') {
            Some((folder, file)) => (Some(folder), file),
            None => (None, name),
        };
        if file.is_empty() {
            return None;
        }
        if file.starts_with('_') {
            return Some(Claim::Part);
        }
        Some(Claim::Prompt(match folder {
            Some(folder) => format!("{folder}/{file}"),
            None => file.to_owned(),
        }))
    }

    fn load(&self, project: &Project, name: &str) -> Result<Box<dyn LoadedPrompt>, Diagnostics> {
        let folder = Folder::open(project.root())?;
        let loaded = folder.load(name)?;
        let path = loaded.file.path.clone();
        let version = loaded.version(&folder);
        let strip = |shown: &str| {
            shown
                .strip_prefix(&format!("{}/", project.display))
                .unwrap_or(shown)
                .to_owned()
        };
        let parts = loaded.partials.len();
        let files = loaded
            .partials
            .iter()
            .chain(folder.registry_files())
            .map(|f| strip(&f.path))
            .collect();
        let prompt = loaded.prompt;
        let metadata = prompt.render_metadata();
        let reads = inputs(&prompt, &metadata);
        let meta = metadata.to_meta();
        Ok(Box::new(LoadedDotprompt {
            name: name.to_owned(),
            path,
            prompt,
            metadata,
            reads,
            meta,
            files,
            parts,
            version,
        }))
    }
}

/// A checked dotprompt prompt.
pub struct LoadedDotprompt {
    name: String,
    path: String,
    prompt: Dotprompt,
    metadata: PromptMetadata,
    reads: Vec<ValueUse>,
    meta: Meta,
    /// The partials, then the registries.
    files: Vec<String>,
    /// How many of `files` are partials.
    parts: usize,
    version: String,
}

/// `--data DATA.json`: the DataArgument, plus render options under `options`.
#[derive(Default)]
struct DataFile {
    data: DataArgument,
    options: PromptMetadata,
}

impl<'de> Deserialize<'de> for DataFile {
    fn deserialize<D: serde_core::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (data, options) = deserializer.deserialize_map(super::wire::DataVisitor)?;
        Ok(DataFile { data, options })
    }
}

/// The inputs a prompt reads: its input schema's properties (with their types), or,
/// without a schema, the first names of the paths its template reads (each optional:
/// Handlebars renders a missing one as nothing).
fn inputs(prompt: &Dotprompt, metadata: &PromptMetadata) -> Vec<ValueUse> {
    let read = prompt.input_paths();
    // The paths the template reads into each input (`user.name`), as written, gathered in
    // one pass.
    let mut into: std::collections::HashMap<&str, Vec<String>> = Default::default();
    for p in read.iter().filter(|p| p.segments.len() > 1) {
        into.entry(p.segments[0].as_str())
            .or_default()
            .push(p.segments.join("."));
    }
    let paths_of = |key: &str| into.get(key).cloned().unwrap_or_default();
    // Where the template first reads each input.
    let mut first_read: std::collections::HashMap<&str, Place> = Default::default();
    for p in &read {
        if let Some(name) = p.segments.first() {
            first_read
                .entry(name.as_str())
                .or_insert_with(|| Place::new(prompt.source(), p.span.clone()));
        }
    }
    let value = |key: &str, kind, required| {
        let value = ValueUse::new(key, kind, required).with_paths(paths_of(key));
        match first_read.get(key) {
            Some(at) => value.read_at(at.clone()),
            None => value,
        }
    };
    if let Some(schema) = metadata.input_schema() {
        let Some(properties) = schema::properties(schema) else {
            return Vec::new();
        };
        return properties
            .iter()
            .map(|(key, property)| {
                let kind = match schema::schema_type(property).as_deref() {
                    Some("string") => "text",
                    Some("integer") => "integer",
                    Some("number") => "number",
                    Some("boolean") => "boolean",
                    Some("array") => "list",
                    Some("object") => "object",
                    _ => "any",
                };
                value(key, kind, schema::required(schema, key))
            })
            .collect();
    }
    let mut names: Vec<ValueUse> = Vec::new();
    for path in &read {
        if let Some(first) = path.segments.first()
            && !names.iter().any(|n| n.name == *first)
        {
            names.push(value(first, "any", false));
        }
    }
    names
}

/// A flag's text as the input schema types it (`kind`: `"integer"`, `"array"`, ...; text
/// for a string or an untyped property); `None` when the text is not of that type.
fn typed(text: &str, kind: Option<&str>) -> Option<Value> {
    match kind {
        Some("integer") => text.parse::<i64>().ok().map(|n| Value::Number(n.into())),
        Some("number") => text
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(Value::from),
        // The words a flag takes for every format: `true`/`false`, `yes`/`no`, ...
        Some("boolean") => crate::render::parse_flag(text).map(Value::Bool),
        // A list or an object is written as JSON: `--set tags='["a","b"]'`.
        Some(kind @ ("array" | "object")) => {
            crate::value::js::from_str(text).ok().filter(|v| match v {
                Value::Array(_) => kind == "array",
                Value::Object(_) => kind == "object",
                _ => false,
            })
        }
        _ => Some(Value::String(text.to_owned())),
    }
}

/// A flag whose text is not of the type the input schema gives its property.
fn wrong_type(given: &Given, kind: Option<&str>) -> Diagnostic {
    let key = &given.name;
    Diagnostic::new(format!(
        "{}: the input schema says `{key}` is {}",
        given.origin_text(),
        kind.map(a_type).unwrap_or("something else")
    ))
    .with_help(format!(
        "write `--set {key}=...` with a value of that type, or give it in `--context FILE.json`"
    ))
}

fn a_type(t: &str) -> &'static str {
    match t {
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "a boolean (`true`/`false`, `yes`/`no`, `on`/`off` or `1`/`0`)",
        "array" => "a list, written as JSON (`[\"a\", \"b\"]`)",
        "object" => "an object, written as JSON (`{\"key\": \"value\"}`)",
        _ => "something else",
    }
}

impl LoadedDotprompt {
    /// The parsed prompt.
    pub fn prompt(&self) -> &Dotprompt {
        &self.prompt
    }

    /// What dotprompt's `renderMetadata()` gives without options.
    pub fn metadata(&self) -> &PromptMetadata {
        &self.metadata
    }

    /// The data file's DataArgument and options, with the values on top of its `input`,
    /// checked against what the prompt reads: every value given is read (unless the input
    /// schema is open), every required input is given or defaulted, and text from a flag
    /// reads as the type the schema gives.
    fn data(&self, values: &Values) -> Result<DataFile, Diagnostics> {
        let mut file = match &values.data {
            None => DataFile::default(),
            Some(source) => serde_json::from_str(source.text()).map_err(|e| {
                let display = source.path();
                let at = source.offset(e.line(), e.column().max(1));
                Diagnostics::from(
                    Diagnostic::new(format!("`{display}` is not a dotprompt data file: {e}"))
                        .at(source, at..at + 1)
                        .with_help("write {\"input\": {...}, \"context\": {...}, \"messages\": [...], \"options\": {...}}"),
                )
            })?,
        };
        let schema = self.metadata.input_schema();
        let properties = schema.and_then(schema::properties);
        let mut problems = Diagnostics::default();
        // A schema without properties (`any`, a named type) takes whatever it is given,
        // and so does a template that reads the whole input (`{{json this}}`).
        let open = (schema.is_some() && properties.is_none()) || self.prompt.reads_whole_input();
        let data_path = values.data.as_ref().map(SourceFile::path);
        if !open {
            for key in file.data.input.keys() {
                if self.reads.iter().any(|r| r.name == key) {
                    continue;
                }
                let from = match data_path {
                    Some(data) => format!("the key `input.{key}` of `{data}`"),
                    None => format!("`{key}`"),
                };
                problems.push(self.unread(key, &from));
            }
        }
        let mut dotted = Vec::new();
        // The inputs a flag gave but could not set: not reported missing as well.
        let mut refused: Vec<&str> = Vec::new();
        let against = values.against(&self.reads);
        for given in values.latest() {
            // `--set owner.name=Rosa`: one property of an object input, typed by its schema.
            if let Some(text) = given.dotted_flag() {
                match self.dotted_input(properties, open, given, text) {
                    Ok(set) => dotted.push(set),
                    Err(problem) => {
                        problems.push(problem);
                        refused.push(given.meant(&self.reads));
                    }
                }
                continue;
            }
            if !open && !against.reads(&given.name) {
                if against.must_read(given) {
                    problems.push(
                        given.at_key(self.unread(&given.name, &given.origin_text()), &self.reads),
                    );
                    // The input it was meant for is not reported missing as well.
                    refused.push(given.meant(&self.reads));
                }
                continue;
            }
            let value = match &given.value {
                GivenValue::Json(json) => match crate::value::js::from_str(json) {
                    Ok(value) => Some(value),
                    Err(e) => {
                        problems.push(given.unreadable(&e.to_string()));
                        refused.push(&given.name);
                        None
                    }
                },
                GivenValue::Unwritable(why) => {
                    problems.push(given.unwritable(why));
                    refused.push(&given.name);
                    None
                }
                GivenValue::Text(text) => {
                    let kind = properties
                        .and_then(|p| p.get(&given.name))
                        .and_then(schema::schema_type);
                    let value = typed(text, kind.as_deref());
                    if value.is_none() {
                        problems.push(wrong_type(given, kind.as_deref()));
                        refused.push(&given.name);
                    }
                    value
                }
            };
            if let Some(value) = value {
                file.data.input.insert(given.name.clone(), value);
            }
        }
        for (path, value) in dotted {
            crate::value::set_path(&mut file.data.input, &path, value);
        }
        // Every required property given, or defaulted by the prompt or by the options.
        let defaulted = |key: &str| {
            [self.metadata.0.get("input"), file.options.0.get("input")]
                .into_iter()
                .flatten()
                .any(|input| input.get("default").and_then(|d| d.get(key)).is_some())
        };
        let name = &self.name;
        for read in &self.reads {
            let key = &read.name;
            // `null` is no value (a context file writes it to leave a value out), unless
            // the property's schema takes `null`.
            let null_taken = properties.and_then(|p| p.get(key)).is_some_and(allows_null);
            if read.required
                && file
                    .data
                    .input
                    .get(key)
                    .is_none_or(|v| matches!(v, Value::Null) && !null_taken)
                && !defaulted(key)
                && !refused.contains(&key.as_str())
            {
                let mut missing = Diagnostic::new(format!(
                    "cannot render `{name}`: the input `{key}` is required and has no value"
                ));
                // Shown where the template first reads it, if it does.
                if let Some(at) = &read.at {
                    missing = missing.at(self.prompt.source(), at.span.clone());
                }
                problems.push(missing.with_help(format!(
                    "give it with `--set {key}=VALUE`, in `--context FILE.json`, or in `--data`'s `input`; `{key}?` in the schema makes it optional"
                )));
            }
        }
        // Inside the values given: every required property of an object the schema
        // describes, in lists of them too (`user.email`, `orders[1].id`).
        if let Some(properties) = properties {
            for (key, value) in file.data.input.iter() {
                let Some(schema) = properties.get(key) else {
                    continue;
                };
                let mut inside = Inside::default();
                inside.walk(schema, value, key, 0);
                let read = self.reads.iter().find(|r| r.name == *key);
                for (path, close) in inside.unknown {
                    let d = Diagnostic::new(format!(
                        "cannot render `{name}`: the input `{key}` has `{path}`, which its schema does not allow"
                    ));
                    let d = match values.get(key) {
                        Some(given) => given.at_its_key(d),
                        None => d,
                    };
                    problems.push(match close {
                        Some(close) => d.with_help(format!("did you mean `{close}`?")),
                        None => d.with_help(format!(
                            "the schema of `{key}` allows only the properties it declares"
                        )),
                    });
                }
                for path in inside.missing {
                    let mut d = Diagnostic::new(format!(
                        "cannot render `{name}`: the input `{path}` is required and has no value"
                    ));
                    if let Some(at) = read.and_then(|r| r.at.as_ref()) {
                        d = d.at(self.prompt.source(), at.span.clone());
                    }
                    let property = path.rsplit('.').next().unwrap_or(&path);
                    problems.push(d.with_help(format!(
                        "give `{key}` with it; `{property}?` in the schema makes it optional"
                    )));
                }
            }
        }
        problems.into_result(file)
    }

    /// The keys and the value of a dotted flag (`--set owner.name=Rosa`), when the input
    /// schema declares that property: its text read as the property's type (as text where
    /// the prompt takes any input, `open`). Otherwise the error, with the properties
    /// declared where the path leaves the schema.
    fn dotted_input(
        &self,
        properties: Option<&Object>,
        open: bool,
        given: &Given,
        text: &str,
    ) -> Result<(Vec<String>, Value), Diagnostic> {
        let keys: Vec<String> = given.name.split('.').map(str::to_owned).collect();
        let unknown = |level: Option<&Object>, at: usize| {
            let d = Diagnostic::new(format!(
                "prompt `{}` reads no input `{}` (from {})",
                self.name,
                given.name,
                given.origin_text()
            ));
            let names: Vec<&str> = level.map(|o| o.keys().collect()).unwrap_or_default();
            let shown = |close: &str| {
                let mut path = keys[..at].to_vec();
                path.push(close.to_owned());
                path.extend_from_slice(&keys[at + 1..]);
                path.join(".")
            };
            match crate::suggest::closest(&keys[at], names.iter().copied()) {
                Some(close) => d.with_help(format!("did you mean `{}`?", shown(close))),
                None if at == 0 => d.with_help(
                    "the input schema declares no such property; give the whole value with `--set NAME=VALUE` or in `--context FILE.json`",
                ),
                None => d.with_help(format!(
                    "the input schema declares no such property of `{}`",
                    keys[..at].join(".")
                )),
            }
        };
        let mut level = properties;
        let mut schema = None;
        for (at, key) in keys.iter().enumerate() {
            match level.and_then(|o| o.get(key)) {
                Some(found) => {
                    schema = Some(found);
                    level = schema::properties(found);
                }
                None if open => return Ok((keys, Value::String(text.to_owned()))),
                None => return Err(unknown(level, at)),
            }
        }
        let kind = schema.and_then(schema::schema_type);
        match typed(text, kind.as_deref()) {
            Some(value) => Ok((keys, value)),
            None => Err(wrong_type(given, kind.as_deref())),
        }
    }

    fn unread(&self, key: &str, from: &str) -> Diagnostic {
        let d = Diagnostic::new(format!(
            "prompt `{}` reads no input `{key}` (from {from})",
            self.name
        ));
        match crate::suggest::closest(key, self.reads.iter().map(|r| r.name.as_str())) {
            Some(close) => d.with_help(format!("did you mean `{close}`?")),
            None if self.reads.is_empty() => d.with_help("this prompt reads no input"),
            None => {
                let all: Vec<String> = self.reads.iter().map(|r| format!("`{}`", r.name)).collect();
                d.with_help(format!("it reads {}", all.join(", ")))
            }
        }
    }

    /// dotprompt's render result with the values, and the `input` its `renderMetadata`
    /// reports for the same options (the input schema compiled, `input.default` merged).
    pub fn render_dotprompt(
        &self,
        values: &Values,
    ) -> Result<(RenderedPrompt, Option<Value>), Diagnostics> {
        let file = self.data(values)?;
        let rendered = self.prompt.render_with(&file.data, &file.options)?;
        let input = self
            .prompt
            .render_metadata_with(&file.options)?
            .0
            .get("input")
            .cloned();
        Ok((rendered, input))
    }
}

impl LoadedPrompt for LoadedDotprompt {
    fn name(&self) -> &str {
        &self.name
    }

    fn derive_refusal(&self) -> Option<Diagnostic> {
        // Every name read as a field: what the derive refuses is a construct, whatever
        // the fields' types.
        let field = |name: &str| Some(format!("self.{name}"));
        super::compiled::compile(&self.prompt, &field).err()
    }

    fn output_schema_span(
        &self,
        property: Option<&str>,
    ) -> Option<(crate::SourceFile, std::ops::Range<usize>)> {
        let mut path = vec!["output", "schema"];
        path.extend(property);
        let span = (1..=path.len())
            .rev()
            .find_map(|n| self.prompt.frontmatter_key_span(&path[..n]))?;
        Some((self.prompt.source().clone(), span))
    }

    fn path(&self) -> &str {
        &self.path
    }

    fn format(&self) -> &'static dyn Format {
        &DOTPROMPT
    }

    fn reads(&self) -> &[ValueUse] {
        &self.reads
    }

    fn version(&self) -> String {
        self.version.clone()
    }

    fn files(&self) -> Vec<String> {
        self.files.clone()
    }

    fn parts(&self) -> Vec<String> {
        self.files[..self.parts.min(self.files.len())].to_vec()
    }

    fn meta(&self) -> &Meta {
        &self.meta
    }

    fn takes(&self) -> Takes {
        Takes {
            data: true,
            ..Takes::default()
        }
    }

    fn render(&self, values: &Values) -> Result<Output, Diagnostics> {
        let (rendered, _) = self.render_dotprompt(values)?;
        Ok(Output::Chat(rendered.to_chat(&self.path)?))
    }

    /// dotprompt's render result, with the `input` of `renderMetadata` placed before
    /// `output` as dotprompt orders its metadata; and, when the prompt marks cache
    /// breakpoints, `"breakpoints"`: where each falls (`"message"`, `"offset"` in bytes of
    /// that message's text) and the `"prefix_hash"` of everything before it (see
    /// [`Chat::prefix_hash`](crate::Chat::prefix_hash); left out when the render has no
    /// chat form).
    fn render_json(&self, values: &Values) -> Result<String, Diagnostics> {
        let (rendered, input) = self.render_dotprompt(values)?;
        let mut out = with_input(&rendered, input);
        if !rendered.breakpoints.is_empty() {
            let chat = rendered.to_chat(&self.path).ok();
            let breakpoints = rendered
                .breakpoints
                .iter()
                .map(|&b| {
                    let mut breakpoint = Object::new();
                    breakpoint.insert("message", Value::Number(b.message.into()));
                    breakpoint.insert("offset", Value::Number(b.offset.into()));
                    if let Some(chat) = &chat {
                        breakpoint.insert("prefix_hash", Value::from(chat.prefix_hash(b)));
                    }
                    Value::Object(breakpoint)
                })
                .collect();
            out.insert("breakpoints", Value::Array(breakpoints));
        }
        Ok(serde_json::to_string_pretty(&out).unwrap_or_default())
    }

    /// Each message under a `--- ROLE ---` line, its text parts as written and any other
    /// part as its JSON.
    fn render_log(&self, values: &Values) -> Result<String, Diagnostics> {
        let (rendered, _) = self.render_dotprompt(values)?;
        Ok(log(&rendered))
    }
}

/// What a reader sees of a render: each message under a `--- ROLE ---` line, its text parts
/// as written and any other part as its JSON.
pub fn log(rendered: &RenderedPrompt) -> String {
    let mut text = String::new();
    for message in &rendered.messages {
        text.push_str(&format!("--- {} ---\n", message.role));
        for part in &message.content {
            match part.text() {
                Some(t) => text.push_str(t),
                None => text.push_str(&serde_json::to_string(&part.0).unwrap_or_default()),
            }
        }
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

fn with_input(rendered: &RenderedPrompt, input: Option<Value>) -> Object {
    let mut out = Object::new();
    let mut placed = input.is_none();
    for (key, value) in rendered.metadata.0.iter() {
        if !placed && matches!(key, "output" | "raw") {
            if let Some(input) = &input {
                out.insert("input", input.clone());
            }
            placed = true;
        }
        out.insert(key, value.clone());
    }
    if !placed && let Some(input) = input {
        out.insert("input", input);
    }
    if let Ok(messages) = serde_json::to_value(&rendered.messages) {
        out.insert("messages", crate::value::js::from_json(messages));
    }
    out
}

/// What a value given breaks of its schema inside: a required property an object lacks
/// (or holds as `null`), and a key of an object whose schema allows no other
/// (`additionalProperties: false`, as Picoschema writes every object), each by its path
/// from `path` (`user.email`, `orders[1].id`), in the items of lists too. A value of
/// another shape than the schema's is left to the render.
#[derive(Default)]
struct Inside {
    missing: Vec<String>,
    /// The path of a key no property is, and the property it is closest to.
    unknown: Vec<(String, Option<String>)>,
}

impl Inside {
    fn walk(&mut self, schema: &Value, value: &Value, path: &str, depth: usize) {
        if depth > super::MAX_DEPTH {
            return;
        }
        match value {
            Value::Object(map) => {
                let Some(properties) = schema::properties(schema) else {
                    return;
                };
                for (key, inner) in properties.iter() {
                    match map.get(key) {
                        None if schema::required(schema, key) => {
                            self.missing.push(format!("{path}.{key}"));
                        }
                        Some(Value::Null)
                            if schema::required(schema, key) && !allows_null(inner) =>
                        {
                            self.missing.push(format!("{path}.{key}"));
                        }
                        Some(given) => self.walk(inner, given, &format!("{path}.{key}"), depth + 1),
                        None => {}
                    }
                }
                if matches!(schema.get("additionalProperties"), Some(Value::Bool(false))) {
                    for key in map.keys().filter(|k| properties.get(k).is_none()) {
                        let close = crate::suggest::closest(key, properties.keys());
                        let close = close.map(|c| format!("{path}.{c}"));
                        self.unknown.push((format!("{path}.{key}"), close));
                    }
                }
            }
            Value::Array(items) => {
                let Some(item) = schema.get("items") else {
                    return;
                };
                for (i, given) in items.iter().enumerate() {
                    self.walk(item, given, &format!("{path}[{i}]"), depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// Whether a schema takes `null`: its type is `null` or a list of types with `null`.
fn allows_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t.as_str() == Some("null")),
        _ => false,
    }
}
