//! `promptkit docs`: a Markdown page per prompt and an `index.md` linking them.
//!
//! `agents/helper` is written to `OUT/agents/helper.md`, so the pages mirror the prompts
//! folder and links stay relative. A broken prompt still gets a page, with its problems
//! and its source, and the exit code is 1. Pages of prompts that no longer exist are not
//! removed.

use crate::list::{Variables, location_text, meta_of_broken};
use crate::{Outcome, open_project};
use clap::Args;
use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::load::Project;
use prompt_runtime::resolve::VarSource;
use prompt_runtime::{Diagnostic, Diagnostics, Meta};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct DocsArgs {
    /// The folder to write the pages to; created if missing.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// What the index says about one prompt.
struct Entry {
    name: String,
    title: Option<String>,
    schedule: Option<String>,
    description: Option<String>,
    broken: bool,
}

pub fn run(dir: &Path, args: &DocsArgs) -> Outcome {
    let project = open_project(dir)?;
    let mut entries = Vec::new();
    // template name -> prompts that include it
    let mut used_by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in project.prompt_names() {
        let (page, entry) = match project.check_inferred(&name) {
            Ok(prompt) => {
                for v in &prompt.resolved.variables {
                    if v.source == VarSource::Template {
                        used_by
                            .entry(v.name.clone())
                            .or_default()
                            .push(name.clone());
                    }
                }
                (page(&project, &prompt), entry(&name, &prompt.meta, false))
            }
            Err(problems) => {
                let meta = meta_of_broken(&project, &name);
                (
                    broken_page(&project, &name, &meta, &problems),
                    entry(&name, &meta, true),
                )
            }
        };
        write(&args.out.join(format!("{name}.md")), &page)?;
        entries.push(entry);
    }
    write(
        &args.out.join("index.md"),
        &index(&project, &entries, &used_by),
    )?;
    let broken = entries.iter().filter(|e| e.broken).count();
    crate::print_stdout(&format!(
        "wrote {} pages and index.md to {}\n",
        entries.len(),
        args.out.display()
    ));
    if broken == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    Err(Diagnostic::new(format!(
        "{broken} of {} prompts {} broken; {} page shows the problems",
        entries.len(),
        if broken == 1 { "is" } else { "are" },
        if broken == 1 { "its" } else { "each" },
    ))
    .with_help(format!(
        "run `promptkit check --dir {}` to see every problem",
        project.display
    ))
    .into())
}

fn entry(name: &str, meta: &Meta, broken: bool) -> Entry {
    Entry {
        name: name.to_owned(),
        title: meta.title.as_deref().map(str::to_owned),
        schedule: meta.schedule.as_deref().map(str::to_owned),
        description: meta.description.as_deref().map(str::to_owned),
        broken,
    }
}

fn write(path: &Path, text: &str) -> Result<(), Diagnostic> {
    let done = match path.parent() {
        Some(parent) => std::fs::create_dir_all(parent).and_then(|()| std::fs::write(path, text)),
        None => std::fs::write(path, text),
    };
    done.map_err(|e| Diagnostic::new(format!("cannot write `{}`: {e}", path.display())))
}

/// `../` once per folder level of the page, to reach the index.
fn to_root(name: &str) -> String {
    "../".repeat(name.matches('/').count())
}

fn header(out: &mut String, name: &str, meta: &Meta, path: &str) {
    let _ = writeln!(out, "[← all prompts]({}index.md)\n", to_root(name));
    let _ = writeln!(out, "# {}\n", meta.title.as_deref().unwrap_or(name));
    let _ = writeln!(out, "`{name}` · `{path}`\n");
    if let Some(description) = &meta.description {
        let _ = writeln!(out, "{description}\n");
    }
}

fn page(project: &Project, prompt: &CheckedPrompt) -> String {
    let mut out = String::new();
    let path = prompt.file.source.path();
    header(&mut out, &prompt.name, &prompt.meta, path);

    out.push_str("## Metadata\n\n| key | value |\n| --- | --- |\n");
    for (key, value) in metadata_rows(&prompt.meta) {
        let _ = writeln!(out, "| {key} | {} |", cell(&value));
    }

    out.push_str("\n## Variables\n\n");
    let variables = Variables::of(prompt);
    if variables.context.is_empty() {
        out.push_str("A caller passes no context values.\n\n");
    } else {
        let names: Vec<String> = variables
            .context
            .iter()
            .map(|c| match c.kind {
                "text" => format!("`{}`", c.name),
                kind => format!("`{}` ({kind})", c.name),
            })
            .collect();
        let _ = writeln!(out, "A caller passes: {}.\n", names.join(", "));
    }
    if prompt.resolved.variables.is_empty() {
        out.push_str("The prompt uses no variables.\n");
    } else {
        out.push_str("| name | source | used at |\n| --- | --- | --- |\n");
        for v in &prompt.resolved.variables {
            let uses: Vec<String> = v
                .uses
                .iter()
                .map(|u| format!("`{}:{}:{}`", u.path, u.line, u.col))
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                cell(&format!("`${}`", v.name)),
                v.source.as_str(),
                cell(&uses.join(", "))
            );
        }
    }

    out.push_str("\n## Templates\n\n");
    if variables.template.is_empty() {
        out.push_str("The prompt includes no templates.\n");
    }
    for name in &variables.template {
        let file = project
            .templates
            .get(name)
            .map_or_else(String::new, |t| format!(" (`{}`)", t.file.source.path()));
        let _ = writeln!(out, "- `{name}`{file}");
    }

    source(&mut out, prompt.file.source.text());
    out
}

fn broken_page(project: &Project, name: &str, meta: &Meta, problems: &Diagnostics) -> String {
    let mut out = String::new();
    let path = format!("{}/{name}.md", project.display);
    header(&mut out, name, meta, &path);
    let at = problems
        .0
        .first()
        .and_then(location_text)
        .map_or_else(String::new, |l| format!(" (first at `{l}`)"));
    let _ = write!(
        out,
        "**This prompt does not pass its checks**{at}:\n\n{}",
        fenced(&problems.to_string(), "text")
    );
    if let Ok(file) = project.load_prompt(name) {
        source(&mut out, file.source.text());
    }
    out
}

fn source(out: &mut String, text: &str) {
    let _ = write!(out, "\n## Source\n\n{}", fenced(text, "markdown"));
}

/// A fenced block whose fence is longer than any run of backticks in `text`.
fn fenced(text: &str, language: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    format!("{fence}{language}\n{text}{newline}{fence}\n")
}

/// The metadata as key and Markdown value, in the order of `Meta::KEYS`, extras last as
/// their JSON.
fn metadata_rows(meta: &Meta) -> Vec<(String, String)> {
    let text = |v: &Option<std::borrow::Cow<'static, str>>| v.as_deref().map(str::to_owned);
    let number = |v: Option<i64>| v.map(|n| n.to_string());
    let count = |v: Option<u64>| v.map(|n| n.to_string());
    let typed = [
        ("title", text(&meta.title)),
        ("description", text(&meta.description)),
        ("color", Some(format!("`{}`", meta.color))),
        ("schedule", text(&meta.schedule)),
        ("priority", number(meta.priority)),
        ("tier", number(meta.tier)),
        ("type", text(&meta.kind)),
        ("output", text(&meta.output)),
        ("tools", text(&meta.tools)),
        ("max_output_tokens", count(meta.max_output_tokens)),
        ("thinking_budget", count(meta.thinking_budget)),
    ];
    let mut rows: Vec<(String, String)> = typed
        .into_iter()
        .filter_map(|(key, value)| Some((key.to_owned(), value?)))
        .collect();
    rows.extend(
        meta.extra
            .iter()
            .map(|(key, json)| (key.to_owned(), format!("`{json}`"))),
    );
    rows
}

/// The relative link to a prompt's page; a space or a parenthesis would end a Markdown
/// link, so they are percent-encoded.
fn link(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 3);
    for c in name.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            c => out.push(c),
        }
    }
    out + ".md"
}

/// Text safe inside a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', "<br>")
}

fn index(project: &Project, entries: &[Entry], used_by: &BTreeMap<String, Vec<String>>) -> String {
    let mut out = String::from("# Prompts\n\n");
    let _ = writeln!(
        out,
        "{} prompts in `{}/`.\n",
        entries.len(),
        project.display
    );
    out.push_str("| prompt | title | schedule | description |\n| --- | --- | --- | --- |\n");
    for e in entries {
        let mut title = cell(e.title.as_deref().unwrap_or(""));
        if e.broken {
            title.push_str(if title.is_empty() {
                "**broken**"
            } else {
                " **(broken)**"
            });
        }
        let _ = writeln!(
            out,
            "| [{}]({}) | {title} | {} | {} |",
            cell(&e.name),
            link(&e.name),
            cell(e.schedule.as_deref().unwrap_or("")),
            cell(e.description.as_deref().unwrap_or("")),
        );
    }
    if project.templates.names().next().is_some() {
        out.push_str("\n## Templates\n\n| template | file | included by |\n| --- | --- | --- |\n");
        for (name, template) in project.templates.iter() {
            let users: Vec<String> = used_by
                .get(name)
                .map(|users| {
                    users
                        .iter()
                        .map(|u| format!("[{}]({})", cell(u), link(u)))
                        .collect()
                })
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "| `{name}` | `{}` | {} |",
                template.file.source.path(),
                users.join(", ")
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{cell, fenced, link, to_root};

    #[test]
    fn fences_outgrow_the_backticks_inside() {
        assert_eq!(fenced("a", "text"), "```text\na\n```\n");
        assert_eq!(
            fenced("```rust\nx\n```\n", "markdown"),
            "````markdown\n```rust\nx\n```\n````\n"
        );
    }

    #[test]
    fn cells_and_links() {
        assert_eq!(cell("a | b\nc"), "a \\| b<br>c");
        assert_eq!(to_root("greeting"), "");
        assert_eq!(to_root("agents/deep/helper"), "../../");
        assert_eq!(link("my notes (old)"), "my%20notes%20%28old%29.md");
    }
}
