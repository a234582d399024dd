//! `promptic docs`: a Markdown page per prompt and an `index.md` linking them.
//!
//! `agents/helper` is written to `OUT/agents/helper.md`, so the pages mirror the prompts
//! folder and links stay relative. A broken prompt still gets a page, with its problems
//! and its source, and the exit code is 1. Pages of prompts that no longer exist are not
//! removed.

use crate::list::{Variables, location_text, meta_of_broken};
use crate::{Outcome, open_project};
use clap::Args;
use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::doc::{
    PageOptions, Section, code_span, fenced, markdown_page, section, table_cell, title_block,
};
use prompt_runtime::formats::Found;
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
    check_out(&project, &args.out)?;
    let walked = project.prompts();
    crate::eprint_folder_warnings(&project, &walked.warnings);
    let all = project.all_prompts();
    let names = walked.names;
    if all.prompts.iter().any(|p| p.name == "index") {
        // Its page and the index would both be `index.md`: refuse before writing anything.
        return Err(Diagnostic::new(format!(
            "prompt `index` ({}/index.md) would have the same page as the index, `index.md`",
            project.display
        ))
        .with_help("rename the prompt (say `home.md`), or keep it in a subfolder")
        .into());
    }
    let mut entries = Vec::new();
    // template name -> prompts that include it
    let mut used_by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in names {
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
    // Prompts of the other formats (not the files they include): a page each, from what
    // their format reports: the values they read, the files they read, their schemas and
    // their source.
    for found in all.prompts.iter().filter(|f| f.format.name() != "markdown") {
        let (page, entry) = loaded_page(&project, found);
        write(&args.out.join(format!("{}.md", found.name)), &page)?;
        entries.push(entry);
    }
    // The index lists every prompt by name, whatever its format.
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    write(
        &args.out.join("index.md"),
        &index(&project, &entries, &used_by),
    )?;
    let broken = entries.iter().filter(|e| e.broken).count();
    crate::print_stdout(&format!(
        "wrote {} pages and index.md to {}\n",
        entries.len(),
        crate::style::shown(&args.out.display().to_string())
    ))?;
    let mut problems = walked.errors;
    if broken == 0 {
        return problems.into_result(ExitCode::SUCCESS);
    }
    problems.push(
        Diagnostic::new(format!(
            "{broken} of {} prompts {} broken; {} page shows the problems",
            entries.len(),
            if broken == 1 { "is" } else { "are" },
            if broken == 1 { "its" } else { "each" },
        ))
        .with_help(format!(
            "run `promptic check --dir {}` to see every problem",
            project.display
        )),
    );
    Err(problems)
}

/// The output folder must be a folder (or not exist yet) and lie outside the prompts
/// folder: pages written there would overwrite prompts or be read as prompts next time.
fn check_out(project: &prompt_runtime::load::Project, out: &Path) -> Result<(), Diagnostic> {
    if out.exists() && !out.is_dir() {
        return Err(
            Diagnostic::new(format!("`--out {}` is a file, not a folder", out.display()))
                .with_help("name a folder for the pages; it is created if needed"),
        );
    }
    // The nearest part of `out` that exists, resolved, then the parts still to create.
    let mut existing = out.to_path_buf();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.file_name(), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_owned());
                existing = if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent.to_path_buf()
                };
            }
            _ => break,
        }
    }
    let resolved = existing
        .canonicalize()
        .map(|base| rest.iter().rev().fold(base, |path, part| path.join(part)));
    if let (Ok(out_real), Ok(dir_real)) = (resolved, project.dir.canonicalize())
        && out_real.starts_with(&dir_real)
    {
        return Err(Diagnostic::new(format!(
            "`--out {}` is inside the prompts folder `{}`",
            out.display(),
            project.display
        ))
        .with_help("write the pages outside it (`--out target/prompt-docs`): there they would overwrite prompts or be read as prompts"));
    }
    Ok(())
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

/// Sections are at level 2, under the page's `# Title`.
const LEVEL: usize = 2;

/// The link back to the index, above the title.
fn back_link(name: &str) -> String {
    format!("[← all prompts]({}index.md)\n\n", to_root(name))
}

fn page(project: &Project, prompt: &CheckedPrompt) -> String {
    let mut sections = vec![Section {
        heading: "Templates".to_owned(),
        body: templates(project, prompt),
    }];
    let warnings = prompt_runtime::formats::markdown::warnings(project, prompt);
    if !warnings.is_empty() {
        sections.push(Section {
            heading: "Warnings".to_owned(),
            body: warnings_text(&warnings),
        });
    }
    let options = PageOptions {
        heading_level: LEVEL,
        field_types: None,
        sections,
    };
    back_link(&prompt.name) + &markdown_page(prompt, &options)
}

/// The templates a prompt includes, each with its file.
fn templates(project: &Project, prompt: &CheckedPrompt) -> String {
    let included = Variables::of(prompt).template;
    if included.is_empty() {
        return "The prompt includes no templates.\n".to_owned();
    }
    let mut out = String::new();
    for name in &included {
        let file = project.templates.get(name).map_or_else(String::new, |t| {
            format!(" ({})", code_span(t.file.source.path()))
        });
        let _ = writeln!(out, "- {}{file}", code_span(name));
    }
    out
}

fn broken_page(project: &Project, name: &str, meta: &Meta, problems: &Diagnostics) -> String {
    let path = format!("{}/{name}.md", project.display);
    let at = problems
        .0
        .first()
        .and_then(location_text)
        .map_or_else(String::new, |l| format!(" (first at {})", code_span(&l)));
    let mut blocks = vec![
        title_block(name, &path, meta, LEVEL),
        format!(
            "**This prompt does not pass its checks**{at}:\n\n{}",
            fenced(&problems.to_string(), "text")
        ),
    ];
    if let Ok(file) = project.load_prompt(name) {
        blocks.push(section(
            LEVEL,
            "Source",
            &fenced(file.source.text(), "markdown"),
        ));
    }
    back_link(name) + &blocks.join("\n")
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
            '#' => out.push_str("%23"),
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3F"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            c => out.push(c),
        }
    }
    out + ".md"
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
        let mut title = table_cell(e.title.as_deref().unwrap_or(""));
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
            table_cell(&e.name),
            link(&e.name),
            table_cell(e.schedule.as_deref().unwrap_or("")),
            table_cell(e.description.as_deref().unwrap_or("")),
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
                        .map(|u| format!("[{}]({})", table_cell(u), link(u)))
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

/// What `check` warns about in a prompt, as its page shows it: the warnings as the
/// command prints them, in one fenced block.
fn warnings_text(warnings: &[Diagnostic]) -> String {
    let text: Vec<String> = warnings.iter().map(crate::style::warning_text).collect();
    fenced(&text.join("\n\n"), "text")
}

/// The page of a prompt of any format, from what its format reports, and its entry in the
/// index.
fn loaded_page(project: &Project, found: &Found) -> (String, Entry) {
    let path = format!("{}/{}", project.display, found.file);
    let mut page = back_link(&found.name) + &format!("# {}\n\n", found.name);
    let format = found.format;
    let prompt = match project.load(&found.name) {
        Ok(prompt) => prompt,
        Err(problems) => {
            page.push_str(&format!("File: `{path}` ({})\n\n", format.title()));
            page.push_str(&format!("## Problems\n\n```text\n{problems}\n```\n"));
            return (page, entry(&found.name, &Meta::DEFAULT, true));
        }
    };
    let meta = prompt.meta();
    let title = meta
        .description
        .as_deref()
        .or(meta.title.as_deref())
        .map(str::to_owned);
    if let Some(title) = &title {
        page.push_str(&format!("{title}\n\n"));
    }
    page.push_str(&format!("File: `{path}` ({})\n\n", format.title()));
    if let Some(model) = &meta.model {
        page.push_str(&format!("Model: `{model}`\n\n"));
    }
    if !meta.config.is_empty() {
        page.push_str("## Model config\n\n| key | value |\n| --- | --- |\n");
        for (key, value) in meta.config.iter() {
            page.push_str(&format!(
                "| {} | {} |\n",
                code_span(key),
                table_cell(&code_span(value))
            ));
        }
        page.push('\n');
    }
    let warnings = prompt.warnings();
    if !warnings.is_empty() {
        page.push_str(&format!("## Warnings\n\n{}\n", warnings_text(&warnings)));
    }
    if !prompt.reads().is_empty() {
        page.push_str("## Values it reads\n\n");
        for read in prompt.reads() {
            let optional = if read.required { "" } else { " (optional)" };
            let kind = if read.kind == "any" {
                String::new()
            } else {
                format!(", {}", read.kind)
            };
            page.push_str(&format!("- `{}`{optional}{kind}", read.name));
            if !read.paths.is_empty() {
                let paths: Vec<String> = read.paths.iter().map(|p| format!("`{p}`")).collect();
                page.push_str(&format!(": reads {}", paths.join(", ")));
            }
            page.push('\n');
        }
        page.push('\n');
    }
    let files = prompt.files();
    if !files.is_empty() {
        page.push_str("## Files it reads\n\n");
        for file in files {
            page.push_str(&format!("- `{file}`\n"));
        }
        page.push('\n');
    }
    for (heading, schema) in [
        ("Input schema", &meta.input_schema),
        ("Output schema", &meta.output_schema),
    ] {
        if let Some(schema) = schema {
            // Read into the ordered value: the properties in the order the file wrote them.
            let pretty = serde_json::from_str::<prompt_runtime::value::Value>(schema)
                .ok()
                .and_then(|v| serde_json::to_string_pretty(&v).ok())
                .unwrap_or_else(|| schema.to_string());
            page.push_str(&format!("## {heading}\n\n```json\n{pretty}\n```\n\n"));
        }
    }
    if let Ok(Some(bytes)) = project.root().read(&found.file) {
        page.push_str(&format!(
            "## Source\n\n````{}\n{}\n````\n",
            format.language(),
            String::from_utf8_lossy(&bytes)
        ));
    }
    (page, entry(&found.name, meta, false))
}

#[cfg(test)]
mod tests {
    use super::{link, to_root};

    #[test]
    fn roots_and_links() {
        assert_eq!(to_root("greeting"), "");
        assert_eq!(to_root("agents/deep/helper"), "../../");
        assert_eq!(link("my notes (old)"), "my%20notes%20%28old%29.md");
    }
}
