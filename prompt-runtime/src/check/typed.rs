//! Checking a prompt against a compiled struct at run time: the context is exactly the
//! struct's fields, with their kinds, and every rule the derive applies holds.

use super::{CheckedPrompt, declared_context, referenced_names, run_on_names};
use crate::case::variant_name;
use crate::context::ContextField;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::load::Project;
use crate::resolve::{ContextVar, VarKind};

/// The help for a name that nothing provides, when the context is a struct: the derive and
/// [`check_typed`] say the same.
///
/// ```
/// use promptic::check::missing_field_hint;
///
/// assert_eq!(
///     missing_field_hint("Daily", "templates"),
///     "add a field `{}` to `Daily`, a key to the identity in prompts/promptic.json, or a template `prompts/templates/{}.md`"
/// );
/// ```
pub fn missing_field_hint(struct_name: &str, templates: &str) -> String {
    format!(
        "add a field `{{}}` to `{struct_name}`, a key to the identity in prompts/promptic.json, or a template `prompts/{templates}/{{}}.md`"
    )
}

/// Loads prompt `name` from `project` and checks it against a compiled struct's fields, as
/// `#[derive(Prompt)]` checks it at build time: the context is exactly `fields` (so a
/// misspelt or new name is an unknown placeholder, with a suggestion), each with its kind;
/// every field must be used; a `"context"` declaration must name exactly the fields; a
/// name that runs into a non-ASCII letter is an error. Problems in the prompt file are
/// located (file, line, column); a field's problem names the field.
///
/// ```
/// use promptic::check::check_typed;
/// use promptic::context::{ContextField, FieldKind};
/// use promptic::load::Project;
///
/// let dir = std::env::temp_dir().join(format!("promptic-doc-typed-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("hello.md"), "Hi, it is $dya.")?;
/// let project = Project::open(&dir, "prompts").map_err(|d| d.to_string())?;
/// const FIELDS: &[ContextField] = &[ContextField { name: "day", kind: FieldKind::Text }];
/// let err = check_typed(&project, "hello", "Hello", FIELDS).unwrap_err();
/// assert_eq!(err.0[0].message(), "unknown placeholder `$dya`");
/// assert_eq!(err.0[0].help(), Some("did you mean `$day`?"));
/// let location = err.0[0].location().unwrap();
/// assert_eq!((location.path.as_str(), location.line, location.col), ("prompts/hello.md", 1, 11));
/// std::fs::write(dir.join("hello.md"), "Hi, it is $day.")?;
/// assert!(check_typed(&project, "hello", "Hello", FIELDS).is_ok());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_typed(
    project: &Project,
    name: &str,
    struct_name: &str,
    fields: &[ContextField],
) -> Result<CheckedPrompt, Diagnostics> {
    let file = project.load_prompt(name)?;
    let path = file.source.path().to_owned();
    let mut diagnostics = Diagnostics::default();
    diagnostics.extend(run_on_names(&file, &project.templates));
    match declared_context(&file) {
        Ok(Some(declared)) => {
            let at = file
                .frontmatter
                .as_ref()
                .and_then(|f| f.get("context"))
                .map(|entry| entry.span.clone());
            for field in fields {
                if !declared.iter().any(|(n, _)| n == field.name) {
                    let mut d = Diagnostic::new(format!(
                        "field `{}` of `{struct_name}` is not in the `context` that {path} declares",
                        field.name
                    ));
                    d = match &at {
                        Some(span) => d.at(&file.source, span.clone()),
                        None => d.in_file(&path),
                    };
                    diagnostics.push(d.with_help(format!(
                        "add \"{}\" to its `\"context\"` list, or remove the field",
                        field.name
                    )));
                }
            }
            for (declared_name, span) in &declared {
                if !fields.iter().any(|f| f.name == declared_name) {
                    diagnostics.push(
                        Diagnostic::new(format!(
                            "`{declared_name}` is declared in `context` but `{struct_name}` has no field `{declared_name}`"
                        ))
                        .at(&file.source, span.clone())
                        .with_help(format!(
                            "add a field `{declared_name}` to `{struct_name}`, or remove it from the declaration"
                        )),
                    );
                }
            }
        }
        Ok(None) => {}
        Err(problems) => diagnostics.extend(problems),
    }
    let context: Vec<ContextVar> = fields.iter().map(ContextField::to_var).collect();
    let mut schema = project.schema(context);
    schema.missing_hint = Some(missing_field_hint(struct_name, &project.config.templates));
    let context = schema.context.clone();
    match super::check(name, file.clone(), schema, &project.templates) {
        Ok(prompt) => {
            for &i in &prompt.resolved.unused {
                if let Some(var) = context.get(i) {
                    diagnostics.push(unused_field(var, struct_name, &path));
                }
            }
            diagnostics.into_result(prompt)
        }
        Err(problems) => {
            diagnostics.extend(problems);
            // Unused fields too, not only once the other problems are fixed; a name in a
            // line that failed to parse counts as used.
            let used = referenced_names(&file, &project.templates);
            for var in &context {
                if !used.contains(&var.name) && !used.contains(&variant_name(&var.name)) {
                    diagnostics.push(unused_field(var, struct_name, &path));
                }
            }
            Err(diagnostics)
        }
    }
}

fn unused_field(var: &ContextVar, struct_name: &str, path: &str) -> Diagnostic {
    let use_it = if var.kind == VarKind::Messages {
        format!("insert its messages with `{{% history {} %}}`", var.name)
    } else {
        format!("use `${}` in the prompt", var.name)
    };
    Diagnostic::new(format!(
        "field `{}` of `{struct_name}` is not used by {path}",
        var.name
    ))
    .in_file(path)
    .with_help(format!("{use_it}, or remove the field"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::FieldKind;
    use std::path::PathBuf;

    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str, prompt: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("promptic-typed-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(dir.join("templates")).unwrap();
            std::fs::write(dir.join("templates/sig.md"), "-- $preferred").unwrap();
            std::fs::write(dir.join("p.md"), prompt).unwrap();
            Scratch(dir)
        }

        fn check(&self, fields: &[ContextField]) -> Result<CheckedPrompt, Diagnostics> {
            let project = Project::open(&self.0, "prompts").unwrap();
            check_typed(&project, "p", "Greeting", fields)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    const FIELDS: &[ContextField] = &[
        ContextField {
            name: "day",
            kind: FieldKind::Text,
        },
        ContextField {
            name: "note",
            kind: FieldKind::Optional,
        },
    ];

    fn messages(err: &Diagnostics) -> Vec<&str> {
        err.0.iter().map(Diagnostic::message).collect()
    }

    #[test]
    fn a_prompt_that_fits_the_struct_passes() {
        let s = Scratch::new("ok", "$day\n{% if note %}\n$note\n{% endif %}\n$sig");
        let prompt = s.check(FIELDS).unwrap();
        assert_eq!(prompt.schema.context.len(), 2);
        assert_eq!(prompt.resolved.identity_keys(), ["preferred"]);
    }

    #[test]
    fn unknown_names_unguarded_optionals_and_unused_fields_are_refused() {
        let s = Scratch::new("bad", "$dya and $note");
        let err = s.check(FIELDS).unwrap_err();
        let found = messages(&err);
        assert!(found.contains(&"unknown placeholder `$dya`"), "{err}");
        assert!(
            found.iter().any(|m| m.contains("`$note` is optional")),
            "{err}"
        );
        let unknown = &err.0[found.iter().position(|m| m.contains("$dya")).unwrap()];
        assert_eq!(unknown.help(), Some("did you mean `$day`?"));

        let s = Scratch::new("unused-too", "Only $dya.");
        let err = s.check(FIELDS).unwrap_err();
        assert_eq!(
            messages(&err),
            [
                "unknown placeholder `$dya`",
                "field `day` of `Greeting` is not used by prompts/p.md",
                "field `note` of `Greeting` is not used by prompts/p.md",
            ]
        );

        let s = Scratch::new("unused", "Only $day.");
        let err = s.check(FIELDS).unwrap_err();
        assert_eq!(
            messages(&err),
            ["field `note` of `Greeting` is not used by prompts/p.md"]
        );
        assert_eq!(
            err.0[0].help(),
            Some("use `$note` in the prompt, or remove the field")
        );
    }

    #[test]
    fn a_new_name_gets_the_struct_hint() {
        let s = Scratch::new("new", "$day $weather\n{% if note %}\n$note\n{% endif %}");
        let err = s.check(FIELDS).unwrap_err();
        assert_eq!(messages(&err), ["unknown placeholder `$weather`"]);
        assert_eq!(
            err.0[0].help(),
            Some(
                "add a field `weather` to `Greeting`, a key to the identity in prompts/promptic.json, or a template `prompts/templates/weather.md`"
            )
        );
    }

    #[test]
    fn a_declared_context_must_name_exactly_the_fields() {
        let s = Scratch::new(
            "declared",
            "{\n\"context\": [\"day\", \"mood\"]\n}\n$day\n{% if note %}\n$note\n{% endif %}",
        );
        let err = s.check(FIELDS).unwrap_err();
        assert_eq!(
            messages(&err),
            [
                "field `note` of `Greeting` is not in the `context` that prompts/p.md declares",
                "`mood` is declared in `context` but `Greeting` has no field `mood`",
            ]
        );
        assert_eq!(err.0[1].location().map(|l| l.line), Some(2));
    }

    #[test]
    fn flags_and_choices_keep_their_kinds() {
        const KINDS: &[ContextField] = &[
            ContextField {
                name: "verbose",
                kind: FieldKind::Flag,
            },
            ContextField {
                name: "level",
                kind: FieldKind::Choice(&["lean", "detailed"]),
            },
        ];
        let s = Scratch::new(
            "kinds",
            "{% if verbose %}\nV\n{% endif %}\n{% if level == \"loud\" %}\nL\n{% endif %}",
        );
        let err = s.check(KINDS).unwrap_err();
        assert_eq!(err.0.len(), 1, "{err}");
        assert!(err.0[0].message().contains("loud"), "{err}");
        let s = Scratch::new(
            "kinds-ok",
            "{% if verbose %}\nV\n{% endif %}\n{% if level == \"lean\" %}\nL\n{% endif %}",
        );
        assert!(s.check(KINDS).is_ok());
    }

    #[test]
    fn a_name_running_into_a_letter_is_an_error() {
        let s = Scratch::new("run-on", "$dayé\n{% if note %}\n$note\n{% endif %}");
        let err = s.check(FIELDS).unwrap_err();
        assert_eq!(
            messages(&err),
            ["`$day` runs into `é`: the name stops at the last ASCII letter"]
        );
    }
}
