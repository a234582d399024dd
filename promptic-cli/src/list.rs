//! `promptic list`: every prompt with its title, schedule and variables by source.

use crate::style::{Style, shown};
use crate::{Outcome, open_project};
use clap::Args;
use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::family::Family;
use prompt_runtime::formats::{Found, Place};
use prompt_runtime::load::Project;
use prompt_runtime::resolve::VarSource;
use prompt_runtime::{Diagnostic, Diagnostics, Meta};
use serde::Serialize;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print a JSON array, one object per prompt.
    #[arg(long)]
    pub json: bool,
}

/// One prompt as listed.
#[derive(Serialize)]
struct Listed {
    name: String,
    path: String,
    ok: bool,
    title: Option<String>,
    schedule: Option<String>,
    /// What the prompt renders from, as a digest (`Prompt::VERSION` of the compiled prompt).
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variables: Option<Variables>,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<Meta>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Broken>,
    /// The family the prompt is a member of.
    #[serde(skip_serializing_if = "Option::is_none")]
    family: Option<String>,
    /// A member's rule lines (empty for the default); absent when the family is broken.
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    rules: Option<Vec<String>>,
    /// A member's `"scope"` (keep's glob over the item's id), which chooses it instead of
    /// its rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    scope: Option<String>,
    /// For a keep agent prompt (`"placeholders": "keep"`), the names its placeholders use.
    #[serde(skip_serializing_if = "Option::is_none")]
    keep: Option<Vec<String>>,
}

/// The families of the folder, each read and checked.
struct Families(Vec<(String, Result<Family, Diagnostics>)>);

impl Families {
    fn of(project: &Project) -> Families {
        Families(
            project
                .families()
                .into_iter()
                .map(|name| {
                    let family = project.family(&name);
                    (name, family)
                })
                .collect(),
        )
    }

    /// Marks each member of a family with it and its rules.
    fn mark(&self, listed: &mut Listed) {
        let Some((folder, _)) = listed.name.rsplit_once('/') else {
            return;
        };
        let Some((name, family)) = self.0.iter().find(|(name, _)| name == folder) else {
            return;
        };
        listed.family = Some(name.clone());
        listed.rules = family.as_ref().ok().and_then(|f| {
            // Members are in id order: found by halving, not a scan per prompt listed.
            let members = f.members();
            let at = members
                .binary_search_by(|m| m.id.as_str().cmp(&listed.name))
                .ok()?;
            let member = &members[at];
            Some(member.rules.lines.iter().map(ToString::to_string).collect())
        });
        listed.scope = family.as_ref().ok().and_then(|f| {
            let at = f.members().iter().position(|m| m.id == listed.name)?;
            f.scopes().get(at).cloned().flatten()
        });
    }

    fn broken(&self) -> usize {
        self.0.iter().filter(|(_, f)| f.is_err()).count()
    }

    /// One block per family: its members with their rules, in id order, or its problem.
    fn text(&self, style: Style) -> String {
        let mut out = String::new();
        for (name, family) in &self.0 {
            match family {
                Ok(family) => {
                    let _ = writeln!(out, "family {}", shown(name));
                    let ids: Vec<_> = family.members().iter().map(|m| shown(&m.id)).collect();
                    let width = ids.iter().map(|id| id.len()).max().unwrap_or(0);
                    for (i, (m, id)) in family.members().iter().zip(&ids).enumerate() {
                        // a scoped member is chosen by its scope, its rules unread
                        match family.scopes().get(i).and_then(Option::as_deref) {
                            Some(scope) => {
                                let _ = writeln!(out, "  {id:<width$}  scope {}", shown(scope));
                            }
                            None => {
                                let rules = m.rules.to_string();
                                let _ = writeln!(out, "  {id:<width$}  {}", shown(&rules));
                            }
                        }
                    }
                }
                Err(problems) => {
                    let _ = writeln!(out, "family {}  {}", shown(name), style.alarm("BROKEN"));
                    let error = broken(problems);
                    let more = match error.count {
                        1 => String::new(),
                        n => format!(" (and {} more)", n - 1),
                    };
                    let _ = writeln!(out, "  {:<9} {}{more}", "error", shown(&error.message));
                    if let Some(location) = &error.location {
                        let _ = writeln!(out, "  {:<9} {}", "at", shown(location));
                    }
                }
            }
        }
        out
    }
}

/// The names a prompt uses, by what provides them: the context variables (inferred) are
/// what a caller passes; identity keys are the base keys, variants mapped back.
#[derive(Serialize)]
pub struct Variables {
    pub context: Vec<ContextName>,
    pub identity: Vec<String>,
    pub template: Vec<String>,
    pub literal: Vec<String>,
    /// A chat prompt's sections, in order, each as `name (role)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<String>,
}

/// A chat prompt's sections as `list` shows them: `question (user)`, `turns (history, last 4)`.
fn sections_of(prompt: &CheckedPrompt) -> Vec<String> {
    use prompt_runtime::resolve::Part;
    let parts = &prompt.resolved.parts;
    if !prompt.resolved.is_chat() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if parts
        .first()
        .is_some_and(|p| !matches!(p, Part::Section { .. } | Part::History { .. }))
    {
        out.push("system_prompt (system)".to_owned());
    }
    for part in parts {
        match part {
            Part::Section { role, name } => out.push(format!("{name} ({role})")),
            Part::History {
                limit: Some(n),
                name,
                ..
            } if *n > 0 => out.push(format!("{name} (history, last {n})")),
            Part::History { name, .. } => out.push(format!("{name} (history)")),
            _ => {}
        }
    }
    out
}

#[derive(Serialize)]
pub struct ContextName {
    pub name: String,
    pub kind: &'static str,
    /// The paths the prompt reads into the value (`user.name`); left out of the JSON when
    /// it reads the value only whole.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Where the prompt first reads it (`prompts/x.md:3:5`); left out when no text does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// Why a prompt is broken: its first problem, and how many there are.
#[derive(Serialize)]
struct Broken {
    message: String,
    location: Option<String>,
    count: usize,
}

impl Variables {
    pub fn of(prompt: &CheckedPrompt) -> Variables {
        let named = |source: VarSource| -> Vec<String> {
            prompt
                .resolved
                .variables
                .iter()
                .filter(|v| v.source == source)
                .map(|v| v.name.clone())
                .collect()
        };
        // Where each value is first read, as written or as its capitalized variant.
        let first_uses = prompt.resolved.first_uses();
        Variables {
            context: prompt
                .schema
                .context
                .iter()
                .map(|v| ContextName {
                    name: v.name.clone(),
                    kind: v.kind.as_str(),
                    paths: Vec::new(),
                    at: first_uses.of(&v.name).map(|u| Place::from(u).to_string()),
                })
                .collect(),
            identity: prompt.resolved.identity_keys(),
            template: named(VarSource::Template),
            literal: named(VarSource::Literal),
            sections: sections_of(prompt),
        }
    }

    /// `(source, names)` for each source that provides something.
    pub fn groups(&self) -> Vec<(&'static str, Vec<String>)> {
        let context = self
            .context
            .iter()
            .map(|c| match c.kind {
                "text" => c.name.clone(),
                kind => format!("{} ({kind})", c.name),
            })
            .collect();
        [
            ("context", context),
            ("identity", self.identity.clone()),
            ("template", self.template.clone()),
            ("literal", self.literal.clone()),
            ("sections", self.sections.clone()),
        ]
        .into_iter()
        .filter(|(_, names)| !names.is_empty())
        .collect()
    }
}

/// `path:line:col`, or the path alone for a problem with a whole file.
pub fn location_text(d: &Diagnostic) -> Option<String> {
    d.location().map(|l| {
        if l.line == 0 {
            l.path.clone()
        } else {
            format!("{}:{}:{}", l.path, l.line, l.col)
        }
    })
}

/// The metadata of a broken prompt, so that it is still listed with its title: the typed
/// metadata when the frontmatter passes its checks, else whichever of `title`,
/// `description` and `schedule` are readable strings.
pub fn meta_of_broken(project: &Project, name: &str) -> Meta {
    let Ok(file) = project.load_prompt(name) else {
        return Meta::DEFAULT;
    };
    if let Ok(meta) = Meta::from_frontmatter(file.frontmatter.as_ref(), &file.source) {
        return meta;
    }
    let text = |key: &str| {
        let entry = file.frontmatter.as_ref()?.get(key)?;
        serde_json::from_str::<String>(&entry.json)
            .ok()
            .map(Cow::Owned)
    };
    Meta {
        title: text("title"),
        description: text("description"),
        schedule: text("schedule"),
        ..Meta::DEFAULT
    }
}

fn listed(project: &Project, name: &str) -> Listed {
    let path = format!("{}/{name}.md", project.display);
    match project.check_inferred(name) {
        Ok(prompt) => Listed {
            name: name.to_owned(),
            path,
            ok: true,
            title: prompt.meta.title.as_deref().map(str::to_owned),
            schedule: prompt.meta.schedule.as_deref().map(str::to_owned),
            version: Some(prompt_runtime::check::version(&prompt, &project.templates)),
            variables: Some(Variables::of(&prompt)),
            keep: (prompt.file.syntax == prompt_runtime::parse::lexer::Syntax::Keep).then(|| {
                prompt_runtime::formats::keep::AgentPrompt::parse(prompt.file.body_text())
                    .names()
                    .into_iter()
                    .map(str::to_owned)
                    .collect()
            }),
            metadata: Some(prompt.meta),
            error: None,
            family: None,
            rules: None,
            scope: None,
        },
        Err(problems) => {
            let meta = meta_of_broken(project, name);
            Listed {
                name: name.to_owned(),
                path,
                ok: false,
                title: meta.title.as_deref().map(str::to_owned),
                schedule: meta.schedule.as_deref().map(str::to_owned),
                version: None,
                variables: None,
                metadata: None,
                error: Some(broken(&problems)),
                family: None,
                rules: None,
                scope: None,
                keep: None,
            }
        }
    }
}

/// A prompt of a format without Markdown's sources of values (Jinja, dotprompt): the
/// values it reads, as its format reports them, required or optional; the files whose
/// text it takes in (its format's `parts`: includes, partials) as templates; its
/// description as the title; its version and metadata, as a Markdown prompt's.
fn listed_loaded(project: &Project, found: &Found) -> Listed {
    let path = format!("{}/{}", project.display, found.file);
    let (variables, title, version, metadata, error) = match project.load(&found.name) {
        Ok(prompt) => {
            let context = prompt
                .reads()
                .iter()
                .map(|r| ContextName {
                    name: r.name.clone(),
                    // As a Markdown prompt's are shown: a required value by its kind (a
                    // value of any kind as `text`), an optional one as `optional`.
                    kind: match (r.required, r.kind) {
                        (false, _) => "optional",
                        (true, "any") => "text",
                        (true, kind) => kind,
                    },
                    paths: r.paths.clone(),
                    at: r.at.as_ref().map(Place::to_string),
                })
                .collect();
            let variables = Variables {
                context,
                identity: Vec::new(),
                template: prompt.parts(),
                literal: Vec::new(),
                sections: Vec::new(),
            };
            let meta = prompt.meta();
            let title = meta
                .description
                .as_deref()
                .or(meta.title.as_deref())
                .map(str::to_owned);
            let version = Some(prompt.version());
            (Some(variables), title, version, Some(meta.clone()), None)
        }
        Err(problems) => (None, None, None, None, Some(broken(&problems))),
    };
    Listed {
        name: found.name.clone(),
        path,
        ok: error.is_none(),
        title,
        schedule: None,
        version,
        variables,
        metadata,
        error,
        family: None,
        rules: None,
        scope: None,
        keep: None,
    }
}

fn broken(problems: &Diagnostics) -> Broken {
    let first = problems.0.first();
    Broken {
        message: first.map_or_else(|| "broken".to_owned(), |d| d.message().to_owned()),
        location: first.and_then(location_text),
        count: problems.0.len(),
    }
}

pub fn run(dir: &Path, args: &ListArgs) -> Outcome {
    let project = open_project(dir)?;
    let walked = project.all_prompts();
    let families = Families::of(&project);
    let all: Vec<Listed> = walked
        .prompts
        .iter()
        .map(|found| {
            if found.format.name() != "markdown" {
                return listed_loaded(&project, found);
            }
            let mut listed = listed(&project, &found.name);
            families.mark(&mut listed);
            listed
        })
        .collect();
    let broken = all.iter().filter(|p| !p.ok).count();
    let out = if args.json {
        let mut json = serde_json::to_string_pretty(&all).unwrap_or_default();
        json.push('\n');
        json
    } else {
        text(&all, Style::stdout()) + &families.text(Style::stdout())
    };
    crate::print_stdout(&out)?;
    crate::eprint_folder_warnings(&project, &walked.warnings);
    let mut problems = walked.errors;
    if families.broken() > 0 {
        let n = families.broken();
        let (noun, verb) = if n == 1 {
            ("family", "is")
        } else {
            ("families", "are")
        };
        problems.push(
            Diagnostic::new(format!("{n} {noun} {verb} broken")).with_help(format!(
                "run `promptic check --dir {}` to see every problem",
                project.display
            )),
        );
    }
    if broken == 0 {
        return problems.into_result(ExitCode::SUCCESS);
    }
    let (noun, verb) = match (all.len(), broken) {
        (1, _) => ("prompt", "is"),
        (_, 1) => ("prompts", "is"),
        _ => ("prompts", "are"),
    };
    let d = Diagnostic::new(format!("{broken} of {} {noun} {verb} broken", all.len())).with_help(
        format!(
            "run `promptic check --dir {}` to see every problem",
            project.display
        ),
    );
    problems.push(d);
    Err(problems)
}

fn text(all: &[Listed], style: Style) -> String {
    let mut out = String::new();
    for p in all {
        out.push_str(&shown(&p.name));
        if let Some(title) = &p.title {
            let _ = write!(out, "  {}", shown(title));
        }
        if !p.ok {
            let _ = write!(out, "  {}", style.alarm("BROKEN"));
        }
        out.push('\n');
        let mut field = |label: &str, value: &str| {
            let _ = writeln!(out, "  {label:<9} {}", shown(value));
        };
        if let Some(schedule) = &p.schedule {
            field("schedule", schedule);
        }
        if let Some(scope) = &p.scope {
            field("scope", scope);
        } else if let Some(rules) = &p.rules {
            field(
                "match",
                &if rules.is_empty() {
                    "(default)".to_owned()
                } else {
                    rules.join(" | ")
                },
            );
        }
        if let Some(names) = &p.keep {
            field(
                "keep",
                &if names.is_empty() {
                    "(no placeholders)".to_owned()
                } else {
                    names.join(", ")
                },
            );
        }
        if let Some(variables) = &p.variables {
            for (source, names) in variables.groups() {
                field(source, &names.join(", "));
            }
        }
        if let Some(error) = &p.error {
            let more = match error.count {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            field("error", &format!("{}{more}", error.message));
            if let Some(location) = &error.location {
                field("at", location);
            }
        }
    }
    out
}
