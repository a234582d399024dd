//! Typed metadata: the frontmatter keys the seed systems read, checked once.
//!
//! [`Meta`] holds the keys solstone's generators and agents use (`title`, `color`,
//! `schedule`, `tier`, `tools`, `max_output_tokens`, …) as typed fields; every other key is
//! kept, in file order, as raw JSON in [`Extra`]. A wrong type is a [`Diagnostic`] at the
//! value, and every such mistake in a file is reported at once.
//!
//! Every type here can be built in a `const` context from another crate (text is
//! `Cow<'static, str>`, lists are `Cow<'static, [..]>`, fields are public), because the
//! `#[derive(Prompt)]` macro emits a prompt's metadata as a constant: no JSON is parsed at
//! run time for a compiled prompt.

use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use crate::source::{Frontmatter, FrontmatterEntry};
use serde_core::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use std::borrow::Cow;
mod color;
mod extra;
mod model_call;

pub use color::Color;
pub use extra::Extra;

/// A prompt's metadata, read from its JSON frontmatter.
///
/// Absent keys (and keys set to `null`) are `None`; `color` falls back to
/// [`Color::DEFAULT`]. Keys not listed here are kept in [`extra`](Meta::extra).
///
/// ```
/// use promptic::load::PromptFile;
/// use promptic::{Color, Meta};
///
/// let file = PromptFile::from_text(
///     "prompts/agent.md",
///     "{\n  \"title\": \"My Agent\",\n  \"tier\": 2,\n  \"tools\": \"journal\",\n  \"voice\": \"fast\"\n}\n\nYou are a helpful assistant.",
/// )
/// .unwrap();
/// let meta = Meta::from_frontmatter(file.frontmatter.as_ref(), &file.source).unwrap();
/// assert_eq!(meta.title.as_deref(), Some("My Agent"));
/// assert_eq!(meta.tier, Some(2));
/// assert_eq!(meta.tools.as_deref(), Some("journal"));
/// assert_eq!(meta.color, Color::DEFAULT);
/// assert_eq!(meta.extra.get("voice"), Some("\"fast\""));
/// ```
///
/// Built as a constant, as the `#[derive(Prompt)]` macro emits it (a `..Meta::DEFAULT`
/// base works in a `const` too):
///
/// ```
/// use promptic::{Color, Extra, Meta};
/// use std::borrow::Cow;
///
/// const META: Meta = Meta {
///     title: Some(Cow::Borrowed("Segment Activity Synthesis")),
///     color: Color::rgb(0x00, 0xbc, 0xd4),
///     schedule: Some(Cow::Borrowed("segment")),
///     max_output_tokens: Some(8192),
///     extra: Extra(Cow::Borrowed(&[(Cow::Borrowed("voice"), Cow::Borrowed("\"fast\""))])),
///     ..Meta::DEFAULT
/// };
/// assert_eq!(META.color.to_string(), "#00bcd4");
/// assert_eq!(META.extra.get_str("voice").unwrap().unwrap(), "fast");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Meta {
    /// `title`: the prompt's human-readable name.
    pub title: Option<Cow<'static, str>>,
    /// `description`: what the prompt is for.
    pub description: Option<Cow<'static, str>>,
    /// `color`: the colour a UI shows the prompt in; [`Color::DEFAULT`] when absent.
    pub color: Color,
    /// `schedule`: when a generator runs (solstone: `"segment"`, `"daily"`, …).
    pub schedule: Option<Cow<'static, str>>,
    /// `priority`: ordering among prompts; any integer.
    pub priority: Option<i64>,
    /// `tier`: an agent's model tier; any integer.
    pub tier: Option<i64>,
    /// `type`: the prompt's kind (named `kind` because `type` is a Rust keyword).
    pub kind: Option<Cow<'static, str>>,
    /// `output`: the output format or destination the prompt produces.
    pub output: Option<Cow<'static, str>>,
    /// `tools`: the tool set an agent may use (solstone: `"journal"`).
    pub tools: Option<Cow<'static, str>>,
    /// `max_output_tokens`: response length limit, overriding the provider's default.
    pub max_output_tokens: Option<u64>,
    /// `thinking_budget`: the model's thinking token budget, overriding the provider's
    /// default.
    pub thinking_budget: Option<u64>,
    /// `model`: the model to call (`gpt-4o`; dotprompt writes `googleai/gemini-2.5-flash`).
    pub model: Option<Cow<'static, str>>,
    /// `config`: the generation config (temperature, top-p, stop sequences, …), each key
    /// with its raw JSON in file order; read it with [`temperature`](Meta::temperature),
    /// [`top_p`](Meta::top_p) and [`stop_sequences`](Meta::stop_sequences).
    pub config: Extra,
    /// `input_schema`: the JSON Schema of the values the prompt takes, as JSON text.
    pub input_schema: Option<Cow<'static, str>>,
    /// `output_schema`: the JSON Schema of the answer the prompt asks for, as JSON text.
    pub output_schema: Option<Cow<'static, str>>,
    /// Every other key, in file order, with its raw JSON.
    pub extra: Extra,
}

impl Meta {
    /// No keys: every field absent, the default color, no extras.
    ///
    /// ```
    /// use promptic::Meta;
    ///
    /// assert_eq!(Meta::DEFAULT.color.to_string(), "#6c757d");
    /// assert_eq!(Meta::default(), Meta::DEFAULT);
    /// ```
    pub const DEFAULT: Meta = Meta {
        title: None,
        description: None,
        color: Color::DEFAULT,
        schedule: None,
        priority: None,
        tier: None,
        kind: None,
        output: None,
        tools: None,
        max_output_tokens: None,
        thinking_budget: None,
        model: None,
        config: Extra::EMPTY,
        input_schema: None,
        output_schema: None,
        extra: Extra::EMPTY,
    };

    /// The frontmatter keys [`Meta`] reads into typed fields, in the order
    /// [`to_json`](Meta::to_json) writes them.
    pub const KEYS: [&'static str; 15] = [
        "title",
        "description",
        "color",
        "schedule",
        "priority",
        "tier",
        "type",
        "output",
        "tools",
        "max_output_tokens",
        "thinking_budget",
        "model",
        "config",
        "input_schema",
        "output_schema",
    ];

    /// Reads the typed keys of a prompt's frontmatter (`None`: the file has none).
    ///
    /// Each problem is a diagnostic at the value's span; all of them are returned together.
    /// `null` counts as absent. Unknown keys go to [`extra`](Meta::extra) without a warning.
    ///
    /// ```
    /// use promptic::load::PromptFile;
    /// use promptic::Meta;
    ///
    /// let file = PromptFile::from_text(
    ///     "prompts/x.md",
    ///     "{\n  \"tier\": \"high\",\n  \"color\": \"blue\"\n}\nBody",
    /// )
    /// .unwrap();
    /// let errors = Meta::from_frontmatter(file.frontmatter.as_ref(), &file.source).unwrap_err();
    /// assert_eq!(errors.0.len(), 2);
    /// assert_eq!(errors.0[0].message(), "frontmatter key `tier` must be an integer, found a string");
    /// assert_eq!(errors.0[1].location().unwrap().line, 3);
    /// ```
    pub fn from_frontmatter(
        frontmatter: Option<&Frontmatter>,
        source: &SourceFile,
    ) -> Result<Meta, Diagnostics> {
        let mut meta = Meta::DEFAULT;
        let Some(frontmatter) = frontmatter else {
            return Ok(meta);
        };
        let mut reader = Reader {
            source,
            diagnostics: Diagnostics::default(),
        };
        let mut extra = Vec::new();
        for entry in &frontmatter.entries {
            if !Meta::KEYS.contains(&entry.key.as_str()) {
                // An extra keeps its JSON as written, `null` included.
                extra.push((
                    Cow::Owned(entry.key.clone()),
                    Cow::Owned(entry.json.clone()),
                ));
                continue;
            }
            let Some(value) = reader.value(entry) else {
                continue;
            };
            match entry.key.as_str() {
                "title" => meta.title = reader.text(entry, &value),
                "description" => meta.description = reader.text(entry, &value),
                "color" => meta.color = reader.color(entry, &value).unwrap_or(Color::DEFAULT),
                "schedule" => meta.schedule = reader.text(entry, &value),
                "priority" => meta.priority = reader.integer(entry, &value),
                "tier" => meta.tier = reader.integer(entry, &value),
                "type" => meta.kind = reader.text(entry, &value),
                "output" => meta.output = reader.text(entry, &value),
                "tools" => meta.tools = reader.text(entry, &value),
                "max_output_tokens" => meta.max_output_tokens = reader.count(entry, &value),
                "thinking_budget" => meta.thinking_budget = reader.count(entry, &value),
                "model" => meta.model = reader.text(entry, &value),
                "config" => meta.config = reader.config(entry, &value),
                "input_schema" => meta.input_schema = reader.schema(entry, &value),
                "output_schema" => meta.output_schema = reader.schema(entry, &value),
                // Keys outside `Meta::KEYS` were kept as extras above.
                _ => {}
            }
        }
        meta.extra = Extra(Cow::Owned(extra));
        reader.diagnostics.into_result(meta)
    }

    /// The metadata as a JSON object: the typed keys in the order of [`Meta::KEYS`]
    /// (absent ones left out, `color` always present), then the extras in file order.
    ///
    /// The order is kept when serde_json's `preserve_order` feature is on; otherwise a
    /// [`serde_json::Map`] sorts its keys. To write ordered JSON text either way, serialize
    /// the [`Meta`] itself (it implements [`Serialize`] with the same keys in the same
    /// order). An extra whose text is not valid JSON (only possible when built by hand)
    /// becomes a JSON string.
    ///
    /// ```
    /// use promptic::Meta;
    /// use std::borrow::Cow;
    ///
    /// let meta = Meta { tier: Some(2), title: Some(Cow::Borrowed("A")), ..Meta::DEFAULT };
    /// assert_eq!(
    ///     meta.to_json(),
    ///     serde_json::json!({ "title": "A", "color": "#6c757d", "tier": 2 })
    /// );
    /// assert_eq!(
    ///     serde_json::to_string(&meta).unwrap(),
    ///     r##"{"title":"A","color":"#6c757d","tier":2}"##
    /// );
    /// ```
    pub fn to_json(&self) -> Value {
        let mut object = serde_json::Map::new();
        for (key, value) in self.typed_entries() {
            object.insert(key.to_owned(), value);
        }
        for (key, raw) in self.extra.iter() {
            let value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned()));
            object.insert(key.to_owned(), value);
        }
        Value::Object(object)
    }

    /// The present typed keys and their values, in the order of [`Meta::KEYS`].
    pub(crate) fn typed_entries(&self) -> Vec<(&'static str, Value)> {
        let text = |v: &Option<Cow<'static, str>>| v.as_deref().map(Value::from);
        let schema = |v: &Option<Cow<'static, str>>| {
            v.as_deref()
                .map(|t| serde_json::from_str(t).unwrap_or_else(|_| Value::from(t)))
        };
        [
            ("title", text(&self.title)),
            ("description", text(&self.description)),
            ("color", Some(Value::from(self.color.to_string()))),
            ("schedule", text(&self.schedule)),
            ("priority", self.priority.map(Value::from)),
            ("tier", self.tier.map(Value::from)),
            ("type", text(&self.kind)),
            ("output", text(&self.output)),
            ("tools", text(&self.tools)),
            ("max_output_tokens", self.max_output_tokens.map(Value::from)),
            ("thinking_budget", self.thinking_budget.map(Value::from)),
            ("model", text(&self.model)),
            (
                "config",
                (!self.config.is_empty()).then(|| self.config.to_json()),
            ),
            ("input_schema", schema(&self.input_schema)),
            ("output_schema", schema(&self.output_schema)),
        ]
        .into_iter()
        .filter_map(|(key, value)| Some((key, value?)))
        .collect()
    }
}

impl Default for Meta {
    fn default() -> Self {
        Meta::DEFAULT
    }
}

/// Writes the same object as [`Meta::to_json`], keys always in order; with serde_json,
/// extras are written as their exact JSON text.
impl Serialize for Meta {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let typed = self.typed_entries();
        let mut map = serializer.serialize_map(Some(typed.len() + self.extra.len()))?;
        for (key, value) in &typed {
            map.serialize_entry(key, value)?;
        }
        for (key, raw) in self.extra.iter() {
            match serde_json::value::RawValue::from_string(raw.to_owned()) {
                Ok(raw) => map.serialize_entry(key, &raw)?,
                Err(_) => map.serialize_entry(key, raw)?,
            }
        }
        map.end()
    }
}

/// Reads typed values out of frontmatter entries, collecting a diagnostic per mistake.
struct Reader<'a> {
    source: &'a SourceFile,
    diagnostics: Diagnostics,
}

impl Reader<'_> {
    /// The entry's JSON value; `None` for `null` (absent) and for JSON that does not parse.
    fn value(&mut self, entry: &FrontmatterEntry) -> Option<Value> {
        match serde_json::from_str(&entry.json) {
            Ok(Value::Null) => None,
            Ok(value) => Some(value),
            // The loader already parsed this JSON, so only hand-built entries get here.
            Err(e) => {
                self.error(
                    entry,
                    format!("frontmatter key `{}` holds malformed JSON: {e}", entry.key),
                    None,
                );
                None
            }
        }
    }

    fn text(&mut self, entry: &FrontmatterEntry, value: &Value) -> Option<Cow<'static, str>> {
        if let Value::String(text) = value {
            return Some(Cow::Owned(text.clone()));
        }
        let key = &entry.key;
        let help = match value {
            Value::Array(_) | Value::Object(_) => {
                format!("write one string, e.g. `\"{key}\": \"{}\"`", example(key))
            }
            _ => format!(
                "put the value in double quotes: `\"{key}\": \"{}\"`",
                entry.json
            ),
        };
        self.wrong_type(entry, "a string", value, help);
        None
    }

    fn integer(&mut self, entry: &FrontmatterEntry, value: &Value) -> Option<i64> {
        if let Some(number) = value.as_i64() {
            return Some(number);
        }
        let key = &entry.key;
        if value.is_u64() {
            let message = format!(
                "frontmatter key `{key}` is too large, the largest allowed is {}",
                i64::MAX
            );
            self.error(entry, message, None);
            return None;
        }
        let help = integer_help(key, value, example(key));
        self.wrong_type(entry, "an integer", value, help);
        None
    }

    /// `config`: an object, each key kept with its JSON.
    fn config(&mut self, entry: &FrontmatterEntry, value: &Value) -> Extra {
        let Value::Object(object) = value else {
            let help = "write the settings as an object, e.g. `\"config\": {\"temperature\": 0.2}`";
            self.wrong_type(entry, "an object", value, help.to_owned());
            return Extra::EMPTY;
        };
        let entries = object
            .iter()
            .map(|(k, v)| (Cow::Owned(k.clone()), Cow::Owned(v.to_string())))
            .collect::<Vec<_>>();
        Extra(Cow::Owned(entries))
    }

    /// A JSON Schema: an object (or `true`/`false`), kept as compact JSON text.
    fn schema(&mut self, entry: &FrontmatterEntry, value: &Value) -> Option<Cow<'static, str>> {
        if value.is_object() || value.is_boolean() {
            return Some(Cow::Owned(value.to_string()));
        }
        let help = format!(
            "write a JSON Schema object, e.g. `\"{}\": {{\"type\": \"object\"}}`",
            entry.key
        );
        self.wrong_type(entry, "a JSON Schema object", value, help);
        None
    }

    fn count(&mut self, entry: &FrontmatterEntry, value: &Value) -> Option<u64> {
        if let Some(number) = value.as_u64() {
            return Some(number);
        }
        let key = &entry.key;
        if value.is_i64() {
            let message = format!(
                "frontmatter key `{key}` must not be negative, found {}",
                entry.json
            );
            let help = format!(
                "write a token count of 0 or more, e.g. `\"{key}\": {}`",
                example(key)
            );
            self.error(entry, message, Some(help));
            return None;
        }
        let help = integer_help(key, value, example(key));
        self.wrong_type(entry, "a non-negative integer", value, help);
        None
    }

    fn color(&mut self, entry: &FrontmatterEntry, value: &Value) -> Option<Color> {
        if let Some(color) = value.as_str().and_then(Color::parse) {
            return Some(color);
        }
        let short = value.as_str().filter(|s| {
            s.len() == 4 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit())
        });
        let help = match short {
            Some(s) => {
                let full: String = s[1..].chars().flat_map(|c| [c, c]).collect();
                format!("the short form is not accepted; write `\"#{full}\"`")
            }
            None => "write `#` and six hex digits, e.g. `\"color\": \"#00bcd4\"`".to_owned(),
        };
        let message = format!(
            "frontmatter key `color` must be a hex color `#rrggbb`, found `{}`",
            abbreviate(&entry.json)
        );
        self.error(entry, message, Some(help));
        None
    }

    fn wrong_type(
        &mut self,
        entry: &FrontmatterEntry,
        expected: &str,
        value: &Value,
        help: String,
    ) {
        let message = format!(
            "frontmatter key `{}` must be {expected}, found {}",
            entry.key,
            describe(value)
        );
        self.error(entry, message, Some(help));
    }

    fn error(&mut self, entry: &FrontmatterEntry, message: String, help: Option<String>) {
        let mut diagnostic = Diagnostic::new(message).at(self.source, entry.span.clone());
        if let Some(help) = help {
            diagnostic = diagnostic.with_help(help);
        }
        self.diagnostics.push(diagnostic);
    }
}

/// Help for a value that should be an integer: drop the quotes from `"2"`, else an example.
fn integer_help(key: &str, value: &Value, example: &str) -> String {
    match value.as_str().map(str::trim) {
        Some(text) if !text.is_empty() && text.parse::<i64>().is_ok() => {
            format!("remove the quotes: `\"{key}\": {text}`")
        }
        _ => format!("write a whole number without quotes, e.g. `\"{key}\": {example}`"),
    }
}

/// A plausible value for a key, used in help lines.
fn example(key: &str) -> &'static str {
    match key {
        "title" => "Segment Activity Synthesis",
        "description" => "Summarizes a segment of the day",
        "schedule" => "segment",
        "type" => "generator",
        "output" => "markdown",
        "tools" => "journal",
        "priority" => "10",
        "tier" => "2",
        "max_output_tokens" => "8192",
        "thinking_budget" => "4096",
        "model" => "gpt-4o",
        _ => "…",
    }
}

/// "a string", "an object", …: what a JSON value is, for "found …".
fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a floating-point number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A raw JSON value short enough to quote in a one-line message.
fn abbreviate(json: &str) -> String {
    const LIMIT: usize = 40;
    let one_line = json.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= LIMIT {
        one_line
    } else {
        let cut: String = one_line.chars().take(LIMIT).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::PromptFile;

    /// Loads a prompt whose frontmatter holds `lines` (one key per line, from line 2).
    fn meta(lines: &[&str]) -> Result<Meta, Diagnostics> {
        let text = format!("{{\n{}\n}}\n\nBody", lines.join(",\n"));
        let file = PromptFile::from_text("prompts/p.md", &text).expect("frontmatter loads");
        Meta::from_frontmatter(file.frontmatter.as_ref(), &file.source)
    }

    /// The single error for `lines`: its message, help and line:col.
    fn one_error(lines: &[&str]) -> (String, String, (usize, usize)) {
        let errors = meta(lines).unwrap_err();
        assert_eq!(errors.0.len(), 1, "{errors}");
        let d = &errors.0[0];
        let loc = d.location().unwrap();
        (
            d.message().to_owned(),
            d.help().unwrap_or("").to_owned(),
            (loc.line, loc.col),
        )
    }

    const CONST_META: Meta = Meta {
        title: Some(Cow::Borrowed("Segment Activity Synthesis")),
        description: Some(Cow::Borrowed("what happened")),
        color: Color::rgb(0x00, 0xbc, 0xd4),
        schedule: Some(Cow::Borrowed("segment")),
        priority: Some(-3),
        tier: Some(2),
        kind: Some(Cow::Borrowed("generator")),
        output: Some(Cow::Borrowed("md")),
        tools: Some(Cow::Borrowed("journal")),
        max_output_tokens: Some(8192),
        thinking_budget: Some(0),
        model: Some(Cow::Borrowed("gpt-4o")),
        config: Extra(Cow::Borrowed(&[(
            Cow::Borrowed("temperature"),
            Cow::Borrowed("0.2"),
        )])),
        input_schema: Some(Cow::Borrowed("{\"type\":\"object\"}")),
        output_schema: Some(Cow::Borrowed("{\"type\":\"object\"}")),
        extra: Extra(Cow::Borrowed(&[
            (Cow::Borrowed("voice"), Cow::Borrowed("\"fast\"")),
            (
                Cow::Borrowed("nested"),
                Cow::Borrowed("{\"z\": 1, \"a\": [true]}"),
            ),
        ])),
    };

    #[test]
    fn meta_is_const_constructible() {
        const DEFAULT_COPY: Meta = Meta::DEFAULT;
        const PARSED: Option<Color> = Color::parse("#00BCD4");
        const UPDATED: Meta = Meta {
            tier: Some(1),
            ..Meta::DEFAULT
        };
        assert_eq!(UPDATED.tier, Some(1));
        assert_eq!(DEFAULT_COPY, Meta::default());
        assert_eq!(PARSED, Some(CONST_META.color));
        assert_eq!(CONST_META.extra.get_str("voice").unwrap().unwrap(), "fast");
        assert_eq!(CONST_META.temperature(), Some(0.2));
        static BY_REF: &Meta = &CONST_META;
        assert_eq!(BY_REF.tier, Some(2));
    }

    #[test]
    fn every_known_key_happy_path() {
        let m = meta(&[
            r#""title": "Segment Activity Synthesis""#,
            r#""description": "what happened""#,
            r##""color": "#00BCD4""##,
            r#""schedule": "segment""#,
            r#""priority": -3"#,
            r#""tier": 2"#,
            r#""type": "generator""#,
            r#""output": "md""#,
            r#""tools": "journal""#,
            r#""max_output_tokens": 8192"#,
            r#""thinking_budget": 0"#,
            r#""model": "gpt-4o""#,
            r#""config": {"temperature": 0.2}"#,
            r#""input_schema": {"type": "object"}"#,
            r#""output_schema": {"type": "object"}"#,
            r#""voice": "fast""#,
            r#""nested": {"z": 1, "a": [true]}"#,
        ])
        .unwrap();
        assert_eq!(m, CONST_META);
        assert_eq!(m.color.to_string(), "#00bcd4");
    }

    #[test]
    fn no_frontmatter_and_empty_frontmatter_are_default() {
        let file = PromptFile::from_text("p.md", "Just a body").unwrap();
        assert_eq!(
            Meta::from_frontmatter(file.frontmatter.as_ref(), &file.source).unwrap(),
            Meta::DEFAULT
        );
        let file = PromptFile::from_text("p.md", "{\n}\nBody").unwrap();
        assert_eq!(
            Meta::from_frontmatter(file.frontmatter.as_ref(), &file.source).unwrap(),
            Meta::DEFAULT
        );
    }

    #[test]
    fn null_is_absent() {
        let m = meta(&[
            r#""title": null"#,
            r#""color": null"#,
            r#""tier": null"#,
            r#""max_output_tokens": null"#,
        ])
        .unwrap();
        assert_eq!(m, Meta::DEFAULT);
        let m = meta(&[r#""fallback": null"#]).unwrap();
        assert_eq!(m.extra.get("fallback"), Some("null"));
    }

    #[test]
    fn text_keys_reject_other_types() {
        for key in [
            "title",
            "description",
            "schedule",
            "type",
            "output",
            "tools",
        ] {
            let line = format!("\"{key}\": 5");
            let (message, help, at) = one_error(&["\"tier\": 1", &line]);
            assert_eq!(
                message,
                format!("frontmatter key `{key}` must be a string, found an integer")
            );
            assert_eq!(
                help,
                format!("put the value in double quotes: `\"{key}\": \"5\"`")
            );
            assert_eq!(at, (3, key.len() + 5));
        }
        let (message, help, _) = one_error(&[r#""tools": ["journal", "web"]"#]);
        assert_eq!(
            message,
            "frontmatter key `tools` must be a string, found an array"
        );
        assert_eq!(help, "write one string, e.g. `\"tools\": \"journal\"`");
    }

    #[test]
    fn integer_keys_reject_other_types() {
        let (message, help, at) = one_error(&[r#""title": "A""#, r#""tier": "high""#]);
        assert_eq!(
            message,
            "frontmatter key `tier` must be an integer, found a string"
        );
        assert_eq!(
            help,
            "write a whole number without quotes, e.g. `\"tier\": 2`"
        );
        assert_eq!(at, (3, 9));

        let (message, help, at) = one_error(&[r#""priority": "2""#]);
        assert_eq!(
            message,
            "frontmatter key `priority` must be an integer, found a string"
        );
        assert_eq!(help, "remove the quotes: `\"priority\": 2`");
        assert_eq!(at, (2, 13));

        let (message, _, _) = one_error(&[r#""tier": 2.5"#]);
        assert_eq!(
            message,
            "frontmatter key `tier` must be an integer, found a floating-point number"
        );
        let (message, _, _) = one_error(&[r#""priority": true"#]);
        assert_eq!(
            message,
            "frontmatter key `priority` must be an integer, found a boolean"
        );
        let (message, _, _) = one_error(&[r#""tier": 18446744073709551615"#]);
        assert_eq!(
            message,
            "frontmatter key `tier` is too large, the largest allowed is 9223372036854775807"
        );
    }

    #[test]
    fn token_counts_must_be_non_negative_integers() {
        let (message, help, at) = one_error(&[r#""max_output_tokens": -1"#]);
        assert_eq!(
            message,
            "frontmatter key `max_output_tokens` must not be negative, found -1"
        );
        assert_eq!(
            help,
            "write a token count of 0 or more, e.g. `\"max_output_tokens\": 8192`"
        );
        assert_eq!(at, (2, 22));

        let (message, help, at) = one_error(&[r#""thinking_budget": {"tokens": 5}"#]);
        assert_eq!(
            message,
            "frontmatter key `thinking_budget` must be a non-negative integer, found an object"
        );
        assert_eq!(
            help,
            "write a whole number without quotes, e.g. `\"thinking_budget\": 4096`"
        );
        assert_eq!(at, (2, 20));

        let m = meta(&[r#""max_output_tokens": 18446744073709551615"#]).unwrap();
        assert_eq!(m.max_output_tokens, Some(u64::MAX));
    }

    #[test]
    fn color_default_and_bad_colors() {
        assert_eq!(
            meta(&[r#""title": "A""#]).unwrap().color.to_string(),
            "#6c757d"
        );

        let (message, help, at) = one_error(&[r#""color": "blue""#]);
        assert_eq!(
            message,
            "frontmatter key `color` must be a hex color `#rrggbb`, found `\"blue\"`"
        );
        assert_eq!(
            help,
            "write `#` and six hex digits, e.g. `\"color\": \"#00bcd4\"`"
        );
        assert_eq!(at, (2, 10));

        let (_, help, _) = one_error(&[r##""color": "#0bd""##]);
        assert_eq!(help, "the short form is not accepted; write `\"#00bbdd\"`");

        let (message, _, _) = one_error(&[r#""color": 123456"#]);
        assert_eq!(
            message,
            "frontmatter key `color` must be a hex color `#rrggbb`, found `123456`"
        );
        for bad in [
            "#00bcd", "#00bcd4f", "00bcd4", "#00bcdg", " #00bcd4", "#ééé",
        ] {
            assert_eq!(Color::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_error_is_collected_in_file_order() {
        let errors = meta(&[
            r#""title": 1"#,
            r#""ok": 1"#,
            r#""color": "red""#,
            r#""tier": "high""#,
            r#""thinking_budget": -5"#,
        ])
        .unwrap_err();
        let lines: Vec<usize> = errors
            .0
            .iter()
            .map(|d| d.location().unwrap().line)
            .collect();
        assert_eq!(lines, [2, 4, 5, 6]);
        let text = errors.to_string();
        assert!(text.contains(" --> prompts/p.md:5:9\n"), "{text}");
        assert!(
            text.contains("5 | \"tier\": \"high\",\n  |         ^^^^^^"),
            "{text}"
        );
    }

    #[test]
    fn extras_keep_file_order_and_raw_json() {
        let m = meta(&[
            r#""zeta": "z""#,
            r#""title": "T""#,
            r#""alpha": [1, 2]"#,
            r#""mid": {"b": 1}"#,
        ])
        .unwrap();
        let pairs: Vec<_> = m.extra.iter().collect();
        assert_eq!(
            pairs,
            [
                ("zeta", "\"z\""),
                ("alpha", "[1, 2]"),
                ("mid", "{\"b\": 1}")
            ]
        );
        assert_eq!(m.extra.len(), 3);
        assert!(m.extra.contains_key("mid") && !m.extra.contains_key("title"));
    }

    #[test]
    fn extra_getters() {
        let m = meta(&[
            r#""name": "caf\u00e9""#,
            r#""retries": 3"#,
            r#""temperature": 0.5"#,
            r#""stream": true"#,
            r#""stops": ["\n\n", "END"]"#,
        ])
        .unwrap();
        let extra = &m.extra;
        assert_eq!(extra.get("name"), Some(r#""caf\u00e9""#));
        assert_eq!(extra.get_str("name").unwrap().unwrap(), "café");
        assert_eq!(extra.get_i64("retries").unwrap().unwrap(), 3);
        assert_eq!(extra.get_f64("temperature").unwrap().unwrap(), 0.5);
        assert!(extra.get_bool("stream").unwrap().unwrap());
        assert_eq!(
            extra.get_as::<Vec<String>>("stops").unwrap().unwrap(),
            ["\n\n", "END"]
        );
        assert!(extra.get_i64("temperature").unwrap().is_err());
        assert!(extra.get_str("retries").unwrap().is_err());
        assert!(extra.get_bool("missing").is_none());
        assert!(Extra::EMPTY.is_empty());
    }

    #[test]
    fn config_and_schemas_must_be_objects() {
        for (entry, message) in [
            (
                r#""config": 0.2"#,
                "frontmatter key `config` must be an object, found a floating-point number",
            ),
            (
                r#""output_schema": "object""#,
                "frontmatter key `output_schema` must be a JSON Schema object, found a string",
            ),
        ] {
            let errors = meta(&[entry]).unwrap_err();
            assert_eq!(errors.0[0].message(), message);
        }
    }

    #[test]
    fn to_json_and_serialize_keep_key_order() {
        let m = meta(&[
            r#""zeta": {"y": 1, "x": 2}"#,
            r#""tools": "journal""#,
            r#""tier": 2"#,
            r#""title": "A""#,
        ])
        .unwrap();
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r##"{"title":"A","color":"#6c757d","tier":2,"tools":"journal","zeta":{"y": 1, "x": 2}}"##
        );
        assert_eq!(
            m.to_json(),
            serde_json::json!({"title": "A", "color": "#6c757d", "tier": 2, "tools": "journal", "zeta": {"y": 1, "x": 2}})
        );
        let everything = CONST_META.to_json();
        let keys: Vec<&String> = everything.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), Meta::KEYS.len() + 2);
        assert_eq!(everything["type"], "generator");
        assert_eq!(everything["priority"], -3);
    }

    #[test]
    fn hand_built_extra_with_invalid_json_serializes_as_a_string() {
        let m = Meta {
            extra: [("note", "not json")].into_iter().collect(),
            ..Meta::DEFAULT
        };
        assert_eq!(m.to_json()["note"], "not json");
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r##"{"color":"#6c757d","note":"not json"}"##
        );
    }
}
