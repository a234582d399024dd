//! `render` of a Jinja prompt (`prompts/NAME.md.j2`): values as JSON, rendered as Jinja2
//! renders them with the folder's `"jinja"` options.

use crate::values::{RenderOptions, read_text};
use prompt_runtime::formats::jinja::{self, Templates};
use prompt_runtime::load::Project;
use prompt_runtime::{Diagnostic, Diagnostics};
use serde_json::{Map, Value};

/// The prompt name without a Jinja file ending (`system.md.j2` → `system`).
pub fn prompt_name(name: &str) -> &str {
    name.strip_suffix(".md.j2")
        .or_else(|| name.strip_suffix(".j2"))
        .unwrap_or(name)
}

/// Whether the options name a Jinja prompt of the folder, and its file if so.
pub fn file_of(project: &Project, options: &RenderOptions) -> Option<String> {
    project.jinja_file(prompt_name(&options.name))
}

/// Renders the Jinja prompt the options name: `--context` is a JSON object whose values
/// may be anything JSON holds (`null` is Python's `None`, not an absent value); `--set`
/// gives strings. Returns the file's display path and the text.
pub fn render(project: &Project, options: &RenderOptions) -> Result<(String, String), Diagnostics> {
    render_adjusted(project, options, |templates| templates)
}

/// [`render`] of the templates as `adjust` makes them (`diff --guidance` mutes the
/// registered either-ors).
fn render_adjusted(
    project: &Project,
    options: &RenderOptions,
    adjust: impl FnOnce(Templates) -> Templates,
) -> Result<(String, String), Diagnostics> {
    let name = prompt_name(&options.name);
    if project.dir.join(format!("{name}.md")).is_file() {
        return Err(Diagnostic::new(format!(
            "both `{0}/{name}.md` and a Jinja template `{0}/{name}.md.j2` exist",
            project.display
        ))
        .with_help("keep one of them: a prompt's name must say which file it is")
        .into());
    }
    if !options.tag.is_empty() {
        return Err(Diagnostic::new(
            "`--tag` chooses a member of a family; a Jinja prompt is not one",
        )
        .with_help("drop `--tag`, or name the member to render")
        .into());
    }
    if options.history.is_some() {
        return Err(
            Diagnostic::new("`--history` is for chat prompts; a Jinja prompt is one text").into(),
        );
    }
    if options.identity.is_some() {
        return Err(
            Diagnostic::new("`--identity` does not apply to a Jinja prompt")
                .with_help("give its values with `--context FILE.json` or `--set NAME=VALUE`")
                .into(),
        );
    }
    let mut values = match &options.context {
        Some(path) => context_values(path)?,
        None => jinja::Map::new(),
    };
    for (key, value) in &options.set {
        values.insert(key.clone(), jinja::Value::String(value.clone()));
    }
    let values = jinja::Value::Object(values);
    let (file, templates) = project.load_jinja(name)?;
    check_values(&templates, &file, &values, &options.set)?;
    let templates = adjust(templates);
    let text = templates.render(&file, &values)?;
    Ok((format!("{}/{file}", project.display), text))
}

/// The `--context` file of a Jinja prompt, read as Python's `json.load` reads it: keys
/// in the order written, integers exact.
fn context_values(path: &std::path::Path) -> Result<jinja::Map, Diagnostics> {
    let source = read_text(path, "the context")?;
    match jinja::Value::from_json(source.text()) {
        Ok(jinja::Value::Object(map)) => Ok(map),
        Ok(_) => Err(not_an_object(&source)),
        Err(e) => Err(Diagnostic::new(format!(
            "`{}` is not valid JSON: {}",
            source.path(),
            e.message
        ))
        .at(&source, e.offset..e.offset + 1)
        .into()),
    }
}

fn not_an_object(source: &prompt_runtime::SourceFile) -> Diagnostics {
    Diagnostic::new(format!("`{}` must hold a JSON object", source.path()))
        .at(source, 0..source.text().len().min(1))
        .with_help(r#"write the values as {"name": "value", "user": {"name": "Ada"}, ...}"#)
        .into()
}

pub fn context_object(path: &std::path::Path) -> Result<Map<String, Value>, Diagnostics> {
    let source = read_text(path, "the context")?;
    match serde_json::from_str::<Value>(source.text()) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(not_an_object(&source)),
        Err(e) => {
            let offset = source.offset(e.line(), e.column().max(1));
            Err(
                Diagnostic::new(format!("`{}` is not valid JSON: {e}", source.path()))
                    .at(&source, offset..offset + 1)
                    .into(),
            )
        }
    }
}

/// Before rendering: every `--set` name is one the prompt reads (or `guidance`), every
/// value it cannot render without is given, and every path it reads into a given value is
/// there, each problem reported at its use.
fn check_values(
    templates: &Templates,
    file: &str,
    values: &jinja::Value,
    set: &[(String, String)],
) -> Result<(), Diagnostics> {
    let uses = templates.uses(file);
    let mut problems = Diagnostics::default();
    for (key, _) in set {
        if key == prompt_runtime::guidance::GUIDANCE || uses.iter().any(|u| &u.name == key) {
            continue;
        }
        let mut d = Diagnostic::new(format!("`--set {key}`: `{file}` reads no value `{key}`"));
        d = match prompt_runtime::suggest::closest(key, uses.iter().map(|u| u.name.as_str())) {
            Some(close) => d.with_help(format!("did you mean `{close}`?")),
            None => d.with_help("`promptic list` shows the values each prompt reads"),
        };
        problems.push(d);
    }
    for missing in uses
        .iter()
        .filter(|u| u.required && values.get(&u.name).is_none())
    {
        let Some(template) = templates.get(&missing.file) else {
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
    // What each given value holds, against every path the template reads into it.
    problems.extend(templates.check_values(file, values));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Whether the Jinja prompt the options name reads a value called `name`, through its
/// includes.
pub fn uses(project: &Project, options: &RenderOptions, name: &str) -> Result<bool, Diagnostics> {
    let (file, templates) = project.load_jinja(prompt_name(&options.name))?;
    Ok(templates.uses(&file).iter().any(|u| u.name == name))
}

/// [`rendered`] with every registered either-or muted (its lean branch left out), and the
/// reasons they were registered with: what lean adds then is what nothing registers.
pub fn rendered_muted(
    project: &Project,
    options: &RenderOptions,
    extra: crate::values::Extra<'_>,
) -> Result<(crate::values::Rendered, Vec<String>), Diagnostics> {
    let mut options = options.clone();
    options.set.extend(extra.values.iter().cloned());
    let mut reasons = Vec::new();
    let (path, text) = render_adjusted(project, &options, |templates| {
        let (muted, why) = templates.without_either_ors();
        reasons = why;
        muted
    })?;
    let content = prompt_runtime::PromptContent {
        text,
        path: path.into(),
        metadata: std::borrow::Cow::Owned(prompt_runtime::Meta::default()),
    };
    Ok((crate::values::Rendered::Text(content), reasons))
}

/// [`render`] with `extra` values on top of `--set`, as the other commands take it.
pub fn rendered(
    project: &Project,
    options: &RenderOptions,
    extra: crate::values::Extra<'_>,
) -> Result<crate::values::Rendered, Diagnostics> {
    let mut options = options.clone();
    options.set.extend(extra.values.iter().cloned());
    let (path, text) = render(project, &options)?;
    Ok(crate::values::Rendered::Text(
        prompt_runtime::PromptContent {
            text,
            path: path.into(),
            metadata: std::borrow::Cow::Owned(prompt_runtime::Meta::default()),
        },
    ))
}
