//! Stage 4, check: one entry point that takes a loaded prompt through every stage and
//! collects every problem — parse, resolve and metadata — in one list.

use crate::diagnostic::Diagnostics;
use crate::identity::Identity;
use crate::load::PromptFile;
use crate::meta::Meta;
use crate::parse::{self, ParseOptions};
use crate::render::{PromptContent, Value, render_to_string};
use crate::resolve::{self, Resolved, Schema, Templates, VarKind};
use std::collections::HashMap;
use std::fmt;

mod infer;

pub use infer::{infer_context, referenced_names};

/// A prompt that passed every check: ready to render.
#[derive(Clone, Debug)]
pub struct CheckedPrompt {
    /// The prompt's name (`segment_synthesis`, `agents/helper`).
    pub name: String,
    /// The loaded file.
    pub file: PromptFile,
    /// Its typed frontmatter.
    pub meta: Meta,
    /// The schema it was checked against.
    pub schema: Schema,
    /// What to render and what it uses.
    pub resolved: Resolved,
}

/// Checks a loaded prompt against a schema and the project's templates.
///
/// ```
/// use prompt_runtime::check::check;
/// use prompt_runtime::load::PromptFile;
/// use prompt_runtime::resolve::{ContextVar, Schema, Templates, VarKind};
/// use prompt_runtime::Identity;
/// use std::collections::HashMap;
///
/// let file = PromptFile::from_text("prompts/hello.md", "{\n\"title\": \"Hello\"\n}\nHi $Preferred, today is $day.").unwrap();
/// let schema = Schema {
///     context: vec![ContextVar::new("day", VarKind::Text)],
///     identity: vec!["preferred".into()],
///     ..Schema::default()
/// };
/// let prompt = check("hello", file, schema, &Templates::new()).unwrap();
/// let identity = Identity::from_json(r#"{"preferred": "sam"}"#).unwrap();
/// let context = HashMap::from([("day".to_owned(), "Friday".to_owned())]);
/// let out = prompt.render(&context, &identity).unwrap();
/// assert_eq!(out.text, "Hi Sam, today is Friday.");
/// assert_eq!(out.metadata.title.as_deref(), Some("Hello"));
/// ```
pub fn check(
    name: &str,
    file: PromptFile,
    schema: Schema,
    templates: &Templates,
) -> Result<CheckedPrompt, Diagnostics> {
    let mut diagnostics = Diagnostics::default();
    let (nodes, parse_problems) =
        parse::parse(&file.source, file.body.clone(), ParseOptions::default());
    diagnostics.extend(parse_problems);
    let resolved = resolve::resolve(&file.source, &nodes, &schema, templates);
    let resolved = match resolved {
        Ok(r) => Some(r),
        Err(problems) => {
            diagnostics.extend(problems);
            None
        }
    };
    let meta = match Meta::from_frontmatter(file.frontmatter.as_ref(), &file.source) {
        Ok(m) => Some(m),
        Err(problems) => {
            diagnostics.extend(problems);
            None
        }
    };
    match (resolved, meta) {
        (Some(resolved), Some(meta)) if diagnostics.is_empty() => Ok(CheckedPrompt {
            name: name.to_owned(),
            file,
            meta,
            schema,
            resolved,
        }),
        _ => Err(diagnostics),
    }
}

/// Values that a render at run time lacked or could not use; every one is listed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderError {
    /// Context variables that need a value and have none.
    pub missing_context: Vec<String>,
    /// Identity keys the prompt uses that the identity lacks.
    pub missing_identity: Vec<String>,
    /// Values given that do not fit their variable (a flag that is not `true`/`false`, a
    /// choice that is not one of its values).
    pub invalid: Vec<String>,
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = Vec::new();
        let list = |names: &[String]| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.missing_context.is_empty() {
            lines.push(format!(
                "missing context values: {}",
                list(&self.missing_context)
            ));
        }
        if !self.missing_identity.is_empty() {
            lines.push(format!(
                "missing identity keys: {}",
                list(&self.missing_identity)
            ));
        }
        lines.extend(self.invalid.iter().cloned());
        f.write_str(&lines.join("\n"))
    }
}

impl std::error::Error for RenderError {}

impl CheckedPrompt {
    /// Renders with context values by name. Optional variables and flags may be absent (a
    /// missing flag is `false`); a flag's value is `true` or `false`, and an optional given
    /// as `false` counts as absent. Every missing or unusable value is reported.
    pub fn render(
        &self,
        context: &HashMap<String, String>,
        identity: &Identity,
    ) -> Result<PromptContent, RenderError> {
        let mut error = RenderError::default();
        let mut values = Vec::with_capacity(self.schema.context.len());
        for var in &self.schema.context {
            let given = context.get(&var.name).map(String::as_str);
            let value = match (&var.kind, given) {
                (VarKind::Text | VarKind::Choice(_), None) => {
                    error.missing_context.push(var.name.clone());
                    Value::Absent
                }
                (VarKind::Optional, None) => Value::Absent,
                // Read as the program reads them: a missing flag is `false`, and an optional
                // given as `false` is off, as a `bool` field set to `false` renders (a string
                // map cannot tell an `Option` from a `bool`).
                (VarKind::Flag, None) => Value::Flag(false),
                (VarKind::Optional, Some("false")) => Value::Absent,
                (VarKind::Flag, Some("true")) => Value::Flag(true),
                (VarKind::Flag, Some("false")) => Value::Flag(false),
                (VarKind::Flag, Some(other)) => {
                    error.invalid.push(format!(
                        "`{}` is a flag: give `true` or `false`, not {other:?}",
                        var.name
                    ));
                    Value::Absent
                }
                (VarKind::Choice(choices), Some(v)) if !choices.iter().any(|c| c == v) => {
                    error.invalid.push(format!(
                        "`{}` must be one of {}, not {v:?}",
                        var.name,
                        choices
                            .iter()
                            .map(|c| format!("{c:?}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    Value::Absent
                }
                (_, Some(v)) => Value::Text(v),
            };
            values.push(value);
        }
        error.missing_identity = self
            .resolved
            .identity_keys()
            .into_iter()
            .filter(|k| identity.get(k).is_none())
            .collect();
        if error != RenderError::default() {
            return Err(error);
        }
        let text = render_to_string(&self.resolved, &|i| values[i], identity);
        Ok(PromptContent {
            text,
            path: self.file.source.path().to_owned().into(),
            metadata: std::borrow::Cow::Owned(self.meta.clone()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::ContextVar;

    fn prompt(text: &str, context: Vec<ContextVar>) -> CheckedPrompt {
        let file = PromptFile::from_text("prompts/t.md", text).unwrap();
        let schema = Schema {
            context,
            identity: vec!["preferred".into(), "timezone".into()],
            ..Schema::default()
        };
        check("t", file, schema, &Templates::new()).unwrap()
    }

    fn values(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn values_are_inserted_verbatim_and_the_text_is_allocated_once() {
        let p = prompt("A $day B $Day", vec![ContextVar::new("day", VarKind::Text)]);
        let identity = Identity::default();
        let out = p
            .render(&values(&[("day", "$day and ${x} and $$")]), &identity)
            .unwrap();
        assert_eq!(out.text, "A $day and ${x} and $$ B $day and ${x} and $$");
        assert_eq!(out.text.capacity(), out.text.len());
        assert_eq!(out.path, "prompts/t.md");
    }

    #[test]
    fn every_missing_or_unusable_value_is_reported() {
        let p = prompt(
            "$day $preferred $timezone\n{% if verbose %}\nv\n{% endif %}\n{% if level == \"lean\" %}\nl\n{% endif %}",
            vec![
                ContextVar::new("day", VarKind::Text),
                ContextVar::new("verbose", VarKind::Flag),
                ContextVar::new(
                    "level",
                    VarKind::Choice(vec!["lean".into(), "detailed".into()]),
                ),
            ],
        );
        let err = p
            .render(
                &values(&[("verbose", "yes"), ("level", "loud")]),
                &Identity::default(),
            )
            .unwrap_err();
        assert_eq!(err.missing_context, ["day"]);
        assert_eq!(err.missing_identity, ["preferred", "timezone"]);
        assert_eq!(err.invalid.len(), 2);
        assert_eq!(
            err.to_string(),
            "missing context values: `day`\nmissing identity keys: `preferred`, `timezone`\n\
             `verbose` is a flag: give `true` or `false`, not \"yes\"\n\
             `level` must be one of \"lean\", \"detailed\", not \"loud\""
        );
        let identity = Identity::from_pairs([("preferred", "sam"), ("timezone", "UTC")]);
        let out = p
            .render(
                &values(&[("day", "Mon"), ("verbose", "false"), ("level", "lean")]),
                &identity,
            )
            .unwrap();
        assert_eq!(out.text, "Mon sam UTC\nl");
    }

    /// Renders `text` (with a template `tail` and `head`) for every combination of the
    /// flags `x` and `y`, in the order (x, y) = (t, t), (t, f), (f, t), (f, f).
    fn lines(text: &str) -> [String; 4] {
        let mut templates = Templates::new();
        let tail = "A\n{% if x %}\nX in tail\n{% endif %}";
        templates.insert("tail", PromptFile::from_text("t/tail.md", tail).unwrap());
        let head = "{% if y %}\nY in head\n{% endif %}\nB";
        templates.insert("head", PromptFile::from_text("t/head.md", head).unwrap());
        let file = PromptFile::from_text("p.md", text).unwrap();
        let schema = Schema {
            context: vec![
                ContextVar::new("x", VarKind::Flag),
                ContextVar::new("y", VarKind::Flag),
            ],
            ..Schema::default()
        };
        let prompt = check("p", file, schema, &templates).unwrap();
        [
            ("true", "true"),
            ("true", "false"),
            ("false", "true"),
            ("false", "false"),
        ]
        .map(|(x, y)| {
            let out = prompt
                .render(&values(&[("x", x), ("y", y)]), &Identity::default())
                .unwrap();
            assert_eq!(out.text.capacity(), out.text.len());
            out.text
        })
    }

    #[test]
    fn false_blocks_leave_no_blank_line_wherever_they_stand() {
        // at the end
        assert_eq!(
            lines("A\n{% if x %}\nX\n{% endif %}"),
            ["A\nX", "A\nX", "A", "A"]
        );
        // at the start
        assert_eq!(
            lines("{% if x %}\nX\n{% endif %}\nB"),
            ["X\nB", "X\nB", "B", "B"]
        );
        // in the middle, and blank lines of the text kept
        assert_eq!(
            lines("A\n\n{% if x %}\nX\n{% endif %}\nB"),
            ["A\n\nX\nB", "A\n\nX\nB", "A\n\nB", "A\n\nB"]
        );
        // the whole body, with an else
        assert_eq!(
            lines("{% if x %}\nX\n{% else %}\nnot X\n{% endif %}"),
            ["X", "X", "not X", "not X"]
        );
        // two blocks in a row at the end, and nested blocks
        assert_eq!(
            lines("A\n{% if y %}\nY\n{% endif %}\n{% if x %}\nX\n{% endif %}"),
            ["A\nY\nX", "A\nX", "A\nY", "A"]
        );
        assert_eq!(
            lines(
                "{% if x %}\n{% if y %}\nXY\n{% endif %}\nX\n{% endif %}\n{% if y %}\nY\n{% endif %}"
            ),
            ["XY\nX\nY", "X", "Y", ""]
        );
        // templates that end or start with a block, inlined mid-text
        assert_eq!(
            lines("$tail\n\nNext"),
            [
                "A\nX in tail\n\nNext",
                "A\nX in tail\n\nNext",
                "A\n\nNext",
                "A\n\nNext"
            ]
        );
        assert_eq!(
            lines("Start: $head."),
            [
                "Start: Y in head\nB.",
                "Start: B.",
                "Start: Y in head\nB.",
                "Start: B."
            ]
        );
    }

    #[test]
    fn a_tested_name_also_written_outside_its_blocks_is_a_flag() {
        let file = PromptFile::from_text(
            "p.md",
            "Verbose: $verbose\n{% if verbose %}\nMore.\n{% endif %}\n{% if note %}\n$Note\n{% endif %}",
        )
        .unwrap();
        let vars = infer_context(&file, &[], &[], &Templates::new());
        let kinds: Vec<(&str, &VarKind)> =
            vars.iter().map(|v| (v.name.as_str(), &v.kind)).collect();
        assert_eq!(
            kinds,
            [("verbose", &VarKind::Flag), ("note", &VarKind::Optional)]
        );
        let prompt = check(
            "p",
            file,
            Schema {
                context: vars,
                ..Schema::default()
            },
            &Templates::new(),
        )
        .unwrap();
        let out = prompt
            .render(
                &values(&[("verbose", "false"), ("note", "n")]),
                &Identity::default(),
            )
            .unwrap();
        assert_eq!(out.text, "Verbose: false\nN");
    }

    #[test]
    fn problems_of_every_stage_are_collected() {
        let file =
            PromptFile::from_text("p.md", "{\n\"tier\": \"high\"\n}\n$dya\n{% endif %}").unwrap();
        let schema = Schema {
            context: vec![ContextVar::new("day", VarKind::Text)],
            ..Schema::default()
        };
        let err = check("p", file, schema, &Templates::new()).unwrap_err();
        let messages: Vec<&str> = err.0.iter().map(|d| d.message()).collect();
        assert_eq!(messages.len(), 3, "{err}");
        assert!(messages.iter().any(|m| m.contains("`{% endif %}` without")));
        assert!(
            messages
                .iter()
                .any(|m| m.contains("unknown placeholder `$dya`"))
        );
        assert!(
            messages
                .iter()
                .any(|m| m.contains("`tier` must be an integer"))
        );
    }

    #[test]
    fn inferred_context() {
        let mut templates = Templates::new();
        templates.insert(
            "pre",
            PromptFile::from_text("t/pre.md", "$segment_start $preferred").unwrap(),
        );
        let file = PromptFile::from_text(
            "p.md",
            "$pre $day $Day $HOME\n{% if note %}\n$note\n{% endif %}",
        )
        .unwrap();
        let vars = infer_context(&file, &["preferred".into()], &["HOME".into()], &templates);
        let names: Vec<(&str, &VarKind)> =
            vars.iter().map(|v| (v.name.as_str(), &v.kind)).collect();
        assert_eq!(
            names,
            [
                ("segment_start", &VarKind::Text),
                ("day", &VarKind::Text),
                ("note", &VarKind::Optional)
            ]
        );
    }
}
