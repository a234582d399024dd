//! The `"jinja"` key of `promptic.json`: Jinja2's environment options for the folder's
//! `.j2` templates, under Jinja2's own names.
//!
//! ```json
//! { "jinja": { "trim_blocks": true, "lstrip_blocks": true, "keep_trailing_newline": true } }
//! ```

use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};
use crate::source::json::{key_span, object_entries, span_in};
use serde_json::value::RawValue;

/// Jinja2's environment options that change what a template renders. The defaults are
/// Jinja2's (`false`, `false`, `false`); LangAlpha's loader sets all three to `true`.
///
/// ```
/// let langalpha = promptic::formats::jinja::Options {
///     trim_blocks: true,
///     lstrip_blocks: true,
///     keep_trailing_newline: true,
/// };
/// assert_ne!(langalpha, Default::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Remove the first newline after a block tag (`{% … %}`) or comment.
    pub trim_blocks: bool,
    /// Strip spaces and tabs from the start of a line up to a block tag or comment.
    pub lstrip_blocks: bool,
    /// Keep a template's final newline (Jinja2 drops one by default).
    pub keep_trailing_newline: bool,
}

const NAMES: [&str; 3] = ["trim_blocks", "lstrip_blocks", "keep_trailing_newline"];

/// Reads the value of `"jinja"` in `source`.
pub(crate) fn read(source: &SourceFile, value: &RawValue) -> Result<Options, Diagnostics> {
    let text = source.text();
    let at = span_in(text, value);
    let help = r#"write `"jinja": { "trim_blocks": true, "lstrip_blocks": true, "keep_trailing_newline": true }`"#;
    if !value.get().starts_with('{') {
        return Err(
            Diagnostic::new("`jinja` must be an object of Jinja2 environment options")
                .at(source, at)
                .with_help(help)
                .into(),
        );
    }
    let entries = object_entries(value.get()).map_err(|e| {
        Diagnostics::from(
            Diagnostic::new(format!("`jinja` is not valid JSON: {e}")).at(source, at.clone()),
        )
    })?;
    let mut options = Options::default();
    let mut errors = Diagnostics::default();
    for (key, raw) in entries {
        let span = span_in(text, raw);
        let Ok(on) = serde_json::from_str::<bool>(raw.get()) else {
            errors.push(
                Diagnostic::new(format!("`jinja.{key}` must be `true` or `false`"))
                    .at(source, span),
            );
            continue;
        };
        match key.as_str() {
            "trim_blocks" => options.trim_blocks = on,
            "lstrip_blocks" => options.lstrip_blocks = on,
            "keep_trailing_newline" => options.keep_trailing_newline = on,
            _ => {
                let mut d = Diagnostic::new(format!("unknown Jinja option `{key}`"))
                    .at(source, key_span(text, span.start));
                d = match crate::suggest::closest(&key, NAMES) {
                    Some(known) => d.with_help(format!("did you mean `{known}`?")),
                    None => d.with_help("the options are `trim_blocks`, `lstrip_blocks` and `keep_trailing_newline`"),
                };
                errors.push(d);
            }
        }
    }
    errors.into_result(options)
}

#[cfg(test)]
mod tests {
    use super::Options;
    use crate::{Config, SourceFile};

    fn config(text: &str) -> Result<Config, String> {
        Config::from_source(&SourceFile::new("prompts/promptic.json", text)).map_err(|e| {
            e.0.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })
    }

    #[test]
    fn reads_the_options_and_defaults_to_jinja2s() {
        assert_eq!(config("{}").unwrap().jinja, Options::default());
        let all = config(
            r#"{"jinja": {"trim_blocks": true, "lstrip_blocks": true, "keep_trailing_newline": true}}"#,
        );
        assert_eq!(
            all.unwrap().jinja,
            Options {
                trim_blocks: true,
                lstrip_blocks: true,
                keep_trailing_newline: true
            }
        );
        let one = config(r#"{"jinja": {"lstrip_blocks": true}}"#)
            .unwrap()
            .jinja;
        assert!(one.lstrip_blocks && !one.trim_blocks && !one.keep_trailing_newline);
    }

    #[test]
    fn misspelt_or_mistyped_options_point_into_the_file() {
        assert_eq!(
            config(r#"{"jinja": {"trim_block": true}}"#).unwrap_err(),
            "error: unknown Jinja option `trim_block`
 --> prompts/promptic.json:1:12
  |
1 | {\"jinja\": {\"trim_block\": true}}
  |            ^^^^^^^^^^^^
  = help: did you mean `trim_blocks`?"
                .replace("\\\"", "\"")
        );
        assert!(
            config(r#"{"jinja": {"trim_blocks": "yes"}}"#)
                .unwrap_err()
                .contains("`jinja.trim_blocks` must be `true` or `false`")
        );
        assert!(
            config(r#"{"jinja": true}"#)
                .unwrap_err()
                .contains("`jinja` must be an object")
        );
    }
}
