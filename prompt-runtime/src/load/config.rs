//! The project configuration, `prompts/promptic.json`, which is optional.
//!
//! ```json
//! {
//!   "identity": { "name": "Alex Rivera", "pronouns": { "subject": "they" } },
//!   "templates": "templates",
//!   "literals": ["HOME", "PATH"]
//! }
//! ```
//!
//! The `identity` is an example identity: its flattened keys and their uppercase-first
//! variants are the identity schema, the names a prompt may take from the identity. Its
//! values only illustrate the keys: they are never rendered (the CLI renders an identity
//! key without `--identity` as a missing value, not as the example's).

use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use crate::identity::{self, Identity, IdentityError};
use crate::parse::lexer::is_name;
use crate::source::json::span_in as span;
use crate::suggest;
use serde_json::value::RawValue;
use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The configuration file's name inside the prompts folder.
pub const FILE_NAME: &str = "promptic.json";

const KEYS: [&str; 5] = ["identity", "templates", "literals", "placeholders", "jinja"];

/// The project configuration: what `prompts/promptic.json` says, or the defaults.
///
/// ```
/// use promptic::{Config, SourceFile};
///
/// let source = SourceFile::new(
///     "prompts/promptic.json",
///     r#"{ "identity": { "name": "Sam", "pronouns": { "subject": "she" } }, "literals": ["HOME"] }"#,
/// );
/// let config = Config::from_source(&source).unwrap();
/// assert_eq!(config.identity.get("Pronouns_subject"), Some("She"));
/// assert_eq!(config.templates, "templates");
/// assert_eq!(config.literals, ["HOME"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The example identity, flattened; its names are the identity schema. Its values are
    /// examples, not data to render. Solstone's keys
    /// (`name`, `preferred`, `bio`, `timezone`, `pronouns_*`) when the file gives none.
    pub identity: Identity,
    /// The templates folder, relative to the prompts folder; `"templates"` by default.
    pub templates: String,
    /// Names whose `$name` is literal text, never a placeholder (`$HOME` in a shell line).
    pub literals: Vec<String>,
    /// The file read, if there was one.
    pub path: Option<PathBuf>,
    /// How the folder's prompts and templates write placeholders unless their frontmatter
    /// says otherwise: `"placeholders": "braces"` for `{{name}}`; `$name` by default.
    pub placeholders: crate::parse::lexer::Syntax,
    /// Jinja2's environment options for the folder's `.j2` templates (`"jinja": {
    /// "trim_blocks": true, … }`); Jinja2's defaults (all off) when absent.
    pub jinja: super::jinja_settings::Options,
}

impl Default for Config {
    /// No file: solstone's identity keys with example values, `templates`, no literals.
    ///
    /// ```
    /// let config = promptic::Config::default();
    /// assert_eq!(
    ///     config.identity.keys().collect::<Vec<_>>(),
    ///     ["name", "preferred", "bio", "timezone", "pronouns_subject", "pronouns_object",
    ///      "pronouns_possessive", "pronouns_reflexive"]
    /// );
    /// assert_eq!(config.identity.get("Preferred"), Some("Alex"));
    /// assert!(config.path.is_none());
    /// ```
    fn default() -> Self {
        Config {
            identity: default_identity(),
            templates: "templates".to_owned(),
            literals: Vec::new(),
            path: None,
            placeholders: crate::parse::lexer::Syntax::Dollar,
            jinja: super::jinja_settings::Options::default(),
        }
    }
}

/// The example identity, built once: every prompts folder without an identity of its own
/// starts from it (the derive opens the folder once per prompt), and building one
/// works out every key's case variants.
fn default_identity() -> Identity {
    static DEFAULT: std::sync::OnceLock<Identity> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(example_identity).clone()
}

fn example_identity() -> Identity {
    Identity::from_pairs([
        ("name", "Alex Rivera"),
        ("preferred", "Alex"),
        ("bio", "a software engineer who keeps a daily journal"),
        ("timezone", "America/Los_Angeles"),
        ("pronouns_subject", "they"),
        ("pronouns_object", "them"),
        ("pronouns_possessive", "their"),
        ("pronouns_reflexive", "themselves"),
    ])
}

/// [`Config::from_source`], remembered for the last few files read (by how they are shown
/// and their text): the derive opens the prompts folder once per prompt, and reading the
/// identity works out every key's case variants.
fn parsed(source: &SourceFile) -> Result<Config, Diagnostics> {
    type Seen = Vec<(String, String, Config)>;
    static SEEN: std::sync::OnceLock<std::sync::Mutex<Seen>> = std::sync::OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    let hit = |seen: &Seen| {
        seen.iter()
            .find(|(path, text, _)| path == source.path() && text == source.text())
            .map(|(_, _, config)| config.clone())
    };
    // A panic while the lock was held leaves the list whole: entries are pushed whole.
    if let Some(config) = hit(&seen.lock().unwrap_or_else(|p| p.into_inner())) {
        return Ok(config);
    }
    let config = Config::from_source(source)?;
    let mut seen = seen.lock().unwrap_or_else(|p| p.into_inner());
    if seen.len() >= 8 {
        seen.remove(0);
    }
    seen.push((
        source.path().to_owned(),
        source.text().to_owned(),
        config.clone(),
    ));
    Ok(config)
}

impl Config {
    /// Reads `<prompts_dir>/promptic.json`, or returns [`Config::default`] when there is no
    /// such file. `display_dir` is how diagnostics name the prompts folder (`prompts`).
    ///
    /// ```
    /// let dir = std::env::temp_dir().join("promptic-doc-config-load-none");
    /// let config = promptic::Config::load(&dir, "prompts").unwrap();
    /// assert_eq!(config, promptic::Config::default());
    /// ```
    pub fn load(prompts_dir: &Path, display_dir: &str) -> Result<Config, Diagnostics> {
        let path = prompts_dir.join(FILE_NAME);
        let display = format!("{display_dir}/{FILE_NAME}");
        // Inside the folder, a regular file, within the size limit (see `load::root`).
        let Some(bytes) = super::Root::new(prompts_dir, display_dir).read(FILE_NAME)? else {
            return Ok(Config::default());
        };
        let source = super::decode(&display, &bytes)?;
        let mut config = parsed(&source)?;
        config.path = Some(path);
        Ok(config)
    }

    /// Reads the configuration from loaded text. Every problem is reported, each pointing
    /// at its line and column.
    ///
    /// ```
    /// use promptic::{Config, SourceFile};
    ///
    /// let source = SourceFile::new("prompts/promptic.json", "{\n  \"template\": \"t\"\n}");
    /// let err = Config::from_source(&source).unwrap_err();
    /// assert!(err.to_string().contains("unknown key `template`"), "{err}");
    /// assert!(err.to_string().contains("did you mean `templates`?"), "{err}");
    /// ```
    pub fn from_source(source: &SourceFile) -> Result<Config, Diagnostics> {
        let text = source.text();
        let root: &RawValue =
            serde_json::from_str(text).map_err(|e| json_diagnostic(source, &e))?;
        let span_of = |raw: &RawValue| span(text, raw);
        if !root.get().starts_with('{') {
            return Err(Diagnostic::new(format!(
                "`{}` must hold a JSON object, found {}",
                source.path(),
                identity::kind(root.get())
            ))
            .at(source, span_of(root))
            .with_help(r#"write an object such as `{ "identity": { "name": "Alex" } }`"#)
            .into());
        }
        let entries = crate::source::json::object_entries(root.get())
            .map_err(|e| json_diagnostic(source, &e))?;

        let mut config = Config::default();
        let mut diagnostics = Diagnostics::default();
        let mut seen = HashSet::new();
        let mut literal_spans = Vec::new();
        for (key, value) in entries {
            let value_span = span_of(value);
            if !seen.insert(key.clone()) {
                diagnostics.push(
                    Diagnostic::new(format!("key `{key}` is given twice"))
                        .at(source, key_span(text, value_span.start))
                        .with_help("remove one of them"),
                );
                continue;
            }
            match key.as_str() {
                "identity" => match read_identity(source, value) {
                    Ok(identity) => config.identity = identity,
                    Err(found) => diagnostics.extend(found),
                },
                "templates" => match read_templates(source, value) {
                    Ok(templates) => config.templates = templates,
                    Err(found) => diagnostics.extend(found),
                },
                "placeholders" => {
                    match crate::parse::syntax_setting(source, value.get(), value_span.clone()) {
                        Ok(syntax) => config.placeholders = syntax,
                        Err(found) => diagnostics.push(found),
                    }
                }
                "jinja" => match super::jinja_settings::read(source, value) {
                    Ok(options) => config.jinja = options,
                    Err(found) => diagnostics.extend(found),
                },
                "literals" => match read_literals(source, value) {
                    Ok(literals) => {
                        config.literals = literals.iter().map(|(name, _)| name.clone()).collect();
                        literal_spans = literals;
                    }
                    Err(found) => diagnostics.extend(found),
                },
                _ => {
                    let mut d =
                        Diagnostic::new(format!("unknown key `{key}` in `{}`", source.path()))
                            .at(source, key_span(text, value_span.start));
                    d = match suggest::closest(&key, KEYS) {
                        Some(known) => d.with_help(format!("did you mean `{known}`?")),
                        None => d.with_help(
                            "the keys are `identity`, `templates`, `literals`, `placeholders` and `jinja`",
                        ),
                    };
                    diagnostics.push(d);
                }
            }
        }
        for (literal, at) in literal_spans {
            if config.identity.get(&literal).is_some() {
                diagnostics.push(
                    Diagnostic::new(format!(
                        "`{literal}` is both a literal and an identity name"
                    ))
                    .at(source, at)
                    .with_help(format!(
                        "remove `{literal}` from `literals` or from the identity"
                    )),
                );
            }
        }
        diagnostics.into_result(config)
    }
}

fn read_identity(source: &SourceFile, value: &RawValue) -> Result<Identity, Vec<Diagnostic>> {
    let text = source.text();
    let pairs = identity::flatten(text, value).map_err(|errors| {
        errors
            .into_iter()
            .map(|(error, span)| {
                let help = match &error {
                    IdentityError::NotAnObject { .. } => {
                        r#"the identity is an object such as `{ "name": "Alex" }`"#
                    }
                    IdentityError::NestedArray { .. } => {
                        "use an array of strings, or an object of keys"
                    }
                    IdentityError::TooDeep { .. } => {
                        "an identity is flattened to names: nest its objects a few levels deep"
                    }
                    _ => "give each flattened key once",
                };
                Diagnostic::new(error.to_string())
                    .at(source, span)
                    .with_help(help)
            })
            .collect::<Vec<_>>()
    })?;
    let bad_names: Vec<Diagnostic> = pairs
        .iter()
        .filter(|pair| !is_name(&pair.key))
        .map(|pair| {
            Diagnostic::new(format!(
                "identity key `{}` cannot be a placeholder name",
                pair.key
            ))
            .at(source, key_span(text, pair.span.start))
            .with_help("a name is ASCII letters, digits and `_`, not starting with a digit")
        })
        .collect();
    if !bad_names.is_empty() {
        return Err(bad_names);
    }
    Ok(Identity::from_pairs(
        pairs.into_iter().map(|p| (p.key, p.value)),
    ))
}

fn read_templates(source: &SourceFile, value: &RawValue) -> Result<String, Diagnostics> {
    let at = span(source.text(), value);
    let Ok(folder) = serde_json::from_str::<String>(value.get()) else {
        return Err(Diagnostic::new(format!(
            "`templates` must be a string, found {}",
            identity::kind(value.get())
        ))
        .at(source, at)
        .with_help(r#"name a folder under the prompts folder, such as `"templates"`"#)
        .into());
    };
    let absolute = folder.starts_with(['/', '\\']) || folder.as_bytes().get(1) == Some(&b':');
    let escapes = folder.split(['/', '\\']).any(|part| part == "..");
    let empty = folder
        .split(['/', '\\'])
        .all(|part| part.is_empty() || part == ".");
    if absolute || escapes || empty {
        return Err(Diagnostic::new(format!(
            "`templates` must name a folder inside the prompts folder, not `{folder}`"
        ))
        .at(source, at)
        .with_help("use a relative path without `..`, such as `\"templates\"`")
        .into());
    }
    Ok(folder)
}

/// The literal names, each once, with the span where it is first written.
fn read_literals(
    source: &SourceFile,
    value: &RawValue,
) -> Result<Vec<(String, Range<usize>)>, Vec<Diagnostic>> {
    let text = source.text();
    let not_array = || {
        vec![
            Diagnostic::new(format!(
                "`literals` must be an array of placeholder names, found {}",
                identity::kind(value.get())
            ))
            .at(source, span(text, value))
            .with_help(r#"write `"literals": ["HOME", "PATH"]`"#),
        ]
    };
    if !value.get().starts_with('[') {
        return Err(not_array());
    }
    let items: Vec<&RawValue> = serde_json::from_str(value.get()).map_err(|_| not_array())?;
    let mut literals = Vec::new();
    let mut errors = Vec::new();
    for item in items {
        let at = span(text, item);
        match serde_json::from_str::<String>(item.get()) {
            Ok(name) if is_name(&name) => {
                if !literals.iter().any(|(known, _)| *known == name) {
                    literals.push((name, at));
                }
            }
            Ok(name) => errors.push(
                Diagnostic::new(format!("literal `{name}` is not a placeholder name"))
                    .at(source, at)
                    .with_help("a name is ASCII letters, digits and `_`, not starting with a digit; write it without `$`"),
            ),
            Err(_) => errors.push(
                Diagnostic::new(format!("a literal must be a string, found {}", identity::kind(item.get())))
                    .at(source, at)
                    .with_help(r#"write the name in double quotes, such as `"HOME"`"#),
            ),
        }
    }
    if errors.is_empty() {
        Ok(literals)
    } else {
        Err(errors)
    }
}

/// The span of the quoted key before the value starting at `value_start`.
fn key_span(text: &str, value_start: usize) -> Range<usize> {
    let before = text[..value_start].trim_end();
    let Some(before) = before.strip_suffix(':') else {
        return value_start..value_start;
    };
    let close = before.trim_end().len();
    let bytes = text.as_bytes();
    let mut i = close.saturating_sub(1);
    // Walk back to the opening quote: a quote preceded by an even run of backslashes.
    while i > 0 {
        i -= 1;
        if bytes[i] == b'"' {
            let slashes = bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count();
            if slashes % 2 == 0 {
                return i..close;
            }
        }
    }
    value_start..value_start
}

fn json_diagnostic(source: &SourceFile, e: &serde_json::Error) -> Diagnostic {
    let (offset, message) = crate::source::json::error_position(source.text(), e);
    Diagnostic::new(format!("malformed JSON in `{}`: {message}", source.path()))
        .at(source, offset..offset + 1)
        .with_help(
            "promptic.json is a JSON object: keys and strings in double quotes, no trailing commas",
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Result<Config, Diagnostics> {
        Config::from_source(&SourceFile::new("prompts/promptic.json", text))
    }

    fn errors(text: &str) -> Vec<(String, usize, usize)> {
        config(text)
            .unwrap_err()
            .into_iter()
            .map(|d| {
                let loc = d.location().unwrap();
                (d.message().to_owned(), loc.line, loc.col)
            })
            .collect()
    }

    #[test]
    fn full_file() {
        let c = config(
            "{\n  \"identity\": {\"name\": \"sam lee\", \"pronouns\": {\"subject\": \"she\"}},\n  \"templates\": \"shared/templates\",\n  \"literals\": [\"HOME\", \"PATH\", \"HOME\"]\n}\n",
        )
        .unwrap();
        assert_eq!(
            c.identity.keys().collect::<Vec<_>>(),
            ["name", "pronouns_subject"]
        );
        assert_eq!(c.identity.get("Name"), Some("Sam lee"));
        assert_eq!(c.templates, "shared/templates");
        assert_eq!(c.literals, ["HOME", "PATH"]);
        assert_eq!(c.path, None);
    }

    #[test]
    fn absent_keys_keep_the_defaults() {
        let c = config("{}").unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.identity.get("Pronouns_subject"), Some("They"));
        assert_eq!(c.identity.len(), 16);
    }

    #[test]
    fn malformed_json_points_at_line_and_column() {
        let e = errors("{\n  \"templates\": \"t\",\n  \"literals\": [HOME]\n}");
        assert_eq!(e.len(), 1);
        assert!(
            e[0].0
                .starts_with("malformed JSON in `prompts/promptic.json`: expected value"),
            "{e:?}"
        );
        assert_eq!((e[0].1, e[0].2), (3, 16));
    }

    #[test]
    fn top_level_must_be_an_object() {
        let e = errors("\n[1]");
        assert_eq!(
            e[0].0,
            "`prompts/promptic.json` must hold a JSON object, found an array"
        );
        assert_eq!((e[0].1, e[0].2), (2, 1));
    }

    #[test]
    fn unknown_keys_suggest_the_closest_and_all_errors_are_collected() {
        let text = "{\n  \"identiy\": {},\n  \"colour\": 1,\n  \"templates\": 3,\n  \"literals\": \"HOME\"\n}";
        let err = config(text).unwrap_err();
        let all: Vec<_> = err.0.iter().map(|d| d.message().to_owned()).collect();
        assert_eq!(
            all,
            [
                "unknown key `identiy` in `prompts/promptic.json`",
                "unknown key `colour` in `prompts/promptic.json`",
                "`templates` must be a string, found a number",
                "`literals` must be an array of placeholder names, found a string",
            ]
        );
        assert_eq!(err.0[0].help(), Some("did you mean `identity`?"));
        assert_eq!(
            err.0[1].help(),
            Some("the keys are `identity`, `templates`, `literals`, `placeholders` and `jinja`")
        );
        let loc = err.0[0].location().unwrap();
        assert_eq!((loc.line, loc.col, loc.span.len()), (2, 3, 9));
        assert_eq!(err.0[2].location().unwrap().line, 4);
    }

    #[test]
    fn templates_must_stay_inside_the_prompts_folder() {
        for bad in [
            "../shared",
            "a/../../b",
            "/abs",
            "C:\\x",
            "\\\\server",
            "",
            ".",
            "./",
        ] {
            let json = format!(
                r#"{{"templates": {}}}"#,
                serde_json::to_string(bad).unwrap()
            );
            let e = errors(&json);
            assert!(
                e[0].0.starts_with("`templates` must name a folder inside"),
                "{bad}: {e:?}"
            );
        }
        assert_eq!(
            config(r#"{"templates": "a/b..c"}"#).unwrap().templates,
            "a/b..c"
        );
    }

    #[test]
    fn literals_must_be_names() {
        let e = errors("{\n\"literals\": [\"HOME\", \"$PATH\", 3, \"1x\"]\n}");
        let messages: Vec<_> = e.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(
            messages,
            [
                "literal `$PATH` is not a placeholder name",
                "a literal must be a string, found a number",
                "literal `1x` is not a placeholder name",
            ]
        );
        assert_eq!((e[0].1, e[0].2), (2, 22));
    }

    #[test]
    fn identity_errors_point_into_the_file() {
        let e = errors("{\n\"identity\": [1]\n}");
        assert_eq!(e[0].0, "an identity is a JSON object, found an array");
        assert_eq!((e[0].1, e[0].2), (2, 13));
        let e = errors(
            "{\"identity\": {\n\"a\": {\"b\": [{}]},\n\"first name\": \"x\",\n\"c\": [[1]]\n}}",
        );
        let messages: Vec<_> = e.iter().map(|e| (e.0.as_str(), e.1)).collect();
        assert_eq!(
            messages,
            [
                (
                    "identity key `a_b` holds an array with an object or array in it; only arrays of strings, numbers, booleans and nulls are allowed",
                    2
                ),
                (
                    "identity key `c` holds an array with an object or array in it; only arrays of strings, numbers, booleans and nulls are allowed",
                    4
                ),
            ]
        );
        let e = errors("{\"identity\": {\n\"first name\": \"x\"}}");
        assert_eq!(
            e,
            [(
                "identity key `first name` cannot be a placeholder name".to_owned(),
                2,
                1
            )]
        );
    }

    #[test]
    fn duplicate_keys_and_literal_clashes() {
        let e = errors("{\"templates\": \"a\",\n \"templates\": \"b\"}");
        assert_eq!(e, [("key `templates` is given twice".to_owned(), 2, 2)]);
        let e = errors("{\"identity\": {\"home\": \"x\"},\n\"literals\": [\"Home\"]}");
        assert_eq!(
            e,
            [(
                "`Home` is both a literal and an identity name".to_owned(),
                2,
                14
            )]
        );
    }

    #[test]
    fn load_reads_the_file_or_falls_back_to_defaults() {
        let dir = std::env::temp_dir().join(format!("promptic-config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(FILE_NAME);
        let _ = std::fs::remove_file(&file);
        assert_eq!(Config::load(&dir, "prompts").unwrap(), Config::default());

        std::fs::write(
            &file,
            b"\xEF\xBB\xBF{\r\n  \"literals\": [\"HOME\"]\r\n}\r\n",
        )
        .unwrap();
        let c = Config::load(&dir, "prompts").unwrap();
        assert_eq!(c.literals, ["HOME"]);
        assert_eq!(c.path.as_deref(), Some(file.as_path()));

        std::fs::write(&file, b"{\r\n  \"literals\": [1]\r\n}").unwrap();
        let err = Config::load(&dir, "prompts").unwrap_err();
        assert!(
            err.to_string().contains("--> prompts/promptic.json:2:16"),
            "{err}"
        );

        std::fs::write(&file, b"{\"a\xff\": 1}").unwrap();
        let err = Config::load(&dir, "prompts").unwrap_err();
        assert!(err.to_string().contains("not valid UTF-8"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
