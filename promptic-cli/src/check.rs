//! `promptic check`: every prompt and every template through the language's checks, every
//! problem printed as the macro prints it, then one summary line.
//!
//! The folder is opened once: configuration and templates are read and parsed once, and
//! each prompt file is read once. A template's problems are reported once, however many
//! prompts include it. A template that no prompt or other template uses is also checked
//! on its own, so one that no prompt uses yet is checked too (a template in a cycle that
//! nothing else uses, too: the first of it by name).
//!
//! Each family (a folder with `"match"` rules) is checked too: rules well formed, no two
//! members with the same rules; a line of a member's prompt that keep would read as a
//! match rule (`format=markdown`) is a warning.
//!
//! A template file whose name is not a placeholder name is an error here (the folder has a
//! problem), though the other commands only warn about it; a folder link that leads out
//! of the folder is a warning (it is not followed).
//!
//! With `--strict` every warning is an error: it is printed as one and fails the check, for
//! CI on folders whose prompts declare no context, where a misspelt name is only a warning.

use crate::style::{Style, warning_text};
use crate::{Outcome, open_project};
use clap::Args;
use prompt_runtime::check::{self, infer_context};
use prompt_runtime::{Diagnostic, Diagnostics};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Treat every warning as an error (exit 1), for CI.
    #[arg(long)]
    pub strict: bool,
}

/// Said once, under the first warning that `--strict` makes an error.
const STRICT_NOTE: &str = "`--strict` makes every warning an error";

pub fn run(dir: &Path, args: &CheckArgs) -> Outcome {
    let project = match open_project(dir) {
        Ok(project) => project,
        Err(problems) => {
            crate::style::eprint_diagnostics(&problems);
            let count = plural(problems.0.len(), "error");
            crate::print_stdout(&format!(
                "could not open `{}`: {count}\n",
                crate::display_dir(dir)
            ))?;
            return Ok(ExitCode::FAILURE);
        }
    };
    // Problems with the folder first: files left out, folders that cannot be read, links
    // that are not followed. The prompts that were found are checked all the same.
    let walked = project.prompts();
    let mut errors = Diagnostics::default();
    errors.extend(project.skipped.iter().cloned());
    errors.extend(walked.errors);
    let mut warnings: Vec<Diagnostic> = walked.warnings;
    let mut seen: std::collections::HashSet<Diagnostic> = warnings.iter().cloned().collect();
    let names = walked.names;
    // The templates the prompts (and then the templates checked on their own) use: each
    // is checked within them, so one checked again on its own would only repeat their
    // problems, and a chain too deep would be reported once for each of its templates.
    let mut reached = std::collections::BTreeSet::new();
    let identity_key = |name: &str| project.config.identity.get(name).is_some();
    for name in &names {
        let file = match project.load_prompt(name) {
            Ok(file) => file,
            Err(problems) => {
                errors.extend(problems);
                continue;
            }
        };
        let (nodes, _) =
            prompt_runtime::parse::parse(&file.source, file.body.clone(), file.parse_options());
        project.templates.reach(&nodes, identity_key, &mut reached);
        match project.check_loaded(name, file) {
            Ok(prompt) => {
                if let Some(problem) = crate::keep::include_problem(&project, &prompt.file, name) {
                    errors.push(problem);
                }
                for w in prompt_runtime::formats::markdown::warnings(&project, &prompt) {
                    if seen.insert(w.clone()) {
                        warnings.push(w);
                    }
                }
            }
            Err(problems) => errors.extend(problems),
        }
    }
    // The prompts of the other formats, reached and loaded through the one interface the
    // derive and `render` use: a Jinja template with its includes, a dotprompt file with
    // its partials and registries. A name two files claim is an error here too.
    let all = project.all_prompts();
    for problem in all.errors {
        if !errors.0.contains(&problem) {
            errors.push(problem);
        }
    }
    let others: Vec<_> = all
        .prompts
        .iter()
        .filter(|found| found.format.name() != "markdown" && !names.contains(&found.name))
        .collect();
    // A part several prompts read (a partial, an included template) is reported once.
    let mut reported: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut report = |problems: Diagnostics, errors: &mut Diagnostics| {
        for problem in problems {
            if reported.insert(problem.to_string()) {
                errors.push(problem);
            }
        }
    };
    for found in &others {
        match project.load(&found.name) {
            // A construct `#[derive(Prompt)]` would refuse is a warning: the command and
            // the run-time renderer render it, a derive of it does not build.
            Ok(loaded) => {
                for w in loaded.warnings().into_iter().chain(loaded.derive_refusal()) {
                    if seen.insert(w.clone()) {
                        warnings.push(w);
                    }
                }
            }
            Err(problems) => report(problems, &mut errors),
        }
    }
    // Jinja files that are no prompt (parts others include) are checked on their own too,
    // for those no prompt includes, as are dotprompt partials.
    for name in project.jinja_names() {
        if others.iter().all(|found| found.name != name)
            && let Err(problems) = project.load_jinja(&name)
        {
            report(problems, &mut errors);
        }
    }
    let partials = crate::dotprompt::check_partials(dir);
    report(partials.problems, &mut errors);
    let prompts = names.len() + others.len();
    // Families: rules well formed, no two members with the same rules; a line of a
    // member's prompt that keep would read as a rule is a warning.
    let families = project.families();
    for name in &families {
        match project.family(name) {
            Ok(family) => {
                for w in project.family_warnings(&family) {
                    if seen.insert(w.clone()) {
                        warnings.push(w);
                    }
                }
            }
            Err(problems) => errors.extend(problems),
        }
    }
    let mut templates = 0;
    for (name, template) in project.templates.iter() {
        templates += 1;
        for w in prompt_runtime::check::frontmatter_warnings(&template.file) {
            if seen.insert(w.clone()) {
                warnings.push(w);
            }
        }
        if reached.contains(name) {
            continue;
        }
        project
            .templates
            .reach(template.nodes(), identity_key, &mut reached);
        let schema = project.schema(Vec::new());
        let context = infer_context(
            &template.file,
            &schema.identity,
            &schema.literals,
            &project.templates,
        );
        if let Err(problems) = check::check(
            name,
            template.file.clone(),
            project.schema(context),
            &project.templates,
        ) {
            errors.extend(problems);
        }
    }
    // With `--strict`, each warning is an error, printed after the other errors; the note
    // under the first says why.
    let mut strict_errors = 0;
    if args.strict {
        strict_errors = warnings.len();
        for (i, warning) in std::mem::take(&mut warnings).into_iter().enumerate() {
            errors.push(if i == 0 {
                warning.with_note(STRICT_NOTE)
            } else {
                warning
            });
        }
    }
    print(&errors, &warnings);
    // What was checked: prompts, dotprompt partials and families where there are any,
    // and templates.
    let mut counted = vec![plural(prompts, "prompt")];
    if partials.count > 0 {
        counted.push(plural(partials.count, "partial"));
    }
    match families.len() {
        0 => {}
        1 => counted.push("1 family".to_owned()),
        n => counted.push(format!("{n} families")),
    }
    let last = plural(templates, "template");
    let mut summary = format!("checked {} and {last}: ", counted.join(", "));
    if errors.is_empty() {
        summary.push_str("no errors");
    } else {
        summary.push_str(&plural(errors.0.len(), "error"));
    }
    if !warnings.is_empty() {
        summary.push_str(&format!(", {}", plural(warnings.len(), "warning")));
    }
    if args.strict {
        summary.push_str(&match strict_errors {
            0 => " (--strict: no warnings)".to_owned(),
            1 => " (--strict: 1 warning counted as an error)".to_owned(),
            n => format!(" (--strict: {n} warnings counted as errors)"),
        });
    }
    summary.push('\n');
    crate::print_stdout(&summary)?;
    Ok(if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Errors, then warnings, to stderr, a blank line between any two.
fn print(errors: &Diagnostics, warnings: &[Diagnostic]) {
    let style = Style::stderr();
    let texts = errors
        .0
        .iter()
        .map(Diagnostic::to_string)
        .chain(warnings.iter().map(warning_text));
    let mut stderr = std::io::stderr().lock();
    for (i, text) in texts.enumerate() {
        let sep = if i > 0 { "\n" } else { "" };
        let _ = writeln!(stderr, "{sep}{}", style.diagnostic(&text));
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
