//! The derive and `promptic check` report a broken prompt file the same way, because both
//! call the same loader and checks. Every compile error that the trybuild suites pin
//! (`tests/ui*/fail/*.stderr`) and that is about the prompt file alone — not about the Rust
//! struct, which the command does not have — must appear in `promptic check` of the same
//! folder with the same message at the same file:line:col.

use std::path::Path;
use std::process::{Command, Stdio};

/// One reported problem: its message and where it points (`prompts/x.prompt:3:7`).
type Problem = (String, String);

/// The problems of a diagnostic listing, the derive's or the command's: an `error:` line
/// and the `-->` line after it that points into the prompts folder. The command runs with
/// `--strict`, so what it warns of by default counts as an error, as in the derive.
fn problems(text: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut message: Option<String> = None;
    for line in text.lines() {
        if let Some(m) = line
            .strip_prefix("error: ")
            .or_else(|| line.strip_prefix("warning: "))
        {
            message = Some(m.to_owned());
        } else if let Some(at) = line.trim_start().strip_prefix("--> ")
            && at.starts_with("prompts/")
            && let Some(m) = message.take()
        {
            out.push((m, at.to_owned()));
        }
    }
    out
}

/// Whether a derive error is about the Rust side, which the command cannot report: it has
/// no struct, no macro arguments and no value types.
fn about_the_struct(message: &str) -> bool {
    [
        "field",
        "struct",
        "an `Option`",
        "argument",
        // `.items` without `()` reads the key `items` of a map, and a map's method of the
        // same name: wrong only when the value is a map, which the struct's type says.
        "is a dict method in Jinja2",
        // Markdown prompts: the command infers the context from the prompt, so a name
        // nothing provides, an optional value and a choice are the struct's to say.
        "unknown placeholder",
        "is optional and may be absent",
        "which is always present",
        "is not one of the choices",
        "needs a list of messages",
        // keep agent prompts: `{find|…}` is a binding unless the struct has no such field.
        "is a binding named",
    ]
    .iter()
    .any(|word| message.contains(word))
}

fn check(suite: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(["check", "--strict", "--dir", "prompts"])
        .current_dir(suite)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("the promptic binary runs");
    String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout)
}

/// Compares one trybuild suite with `promptic check` of its prompts folder; returns how
/// many problems were compared.
fn compare(suite: &str) -> usize {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(suite);
    let cli = problems(&check(&suite));
    let mut compared = 0;
    let mut missing = Vec::new();
    let mut cases: Vec<_> = std::fs::read_dir(suite.join("fail"))
        .expect("the suite's fail cases")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "stderr"))
        .collect();
    cases.sort();
    for case in cases {
        let stderr = std::fs::read_to_string(&case).expect("a .stderr file");
        for (message, at) in problems(&stderr) {
            let file = at.split(':').next().unwrap_or(&at);
            // Files a suite makes while it runs (a FIFO, a huge file, links) may be absent.
            let present = std::fs::symlink_metadata(suite.join(file)).is_ok();
            if about_the_struct(&message) || !present {
                continue;
            }
            compared += 1;
            if !cli.contains(&(message.clone(), at.clone())) {
                missing.push(format!("{}: {message} at {at}", case.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "`promptic check` does not report what the derive reports:\n{}\n\n`promptic check` said:\n{}",
        missing.join("\n"),
        cli.iter()
            .map(|(m, at)| format!("{m} at {at}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    compared
}

#[test]
fn dotprompt_files_get_the_same_diagnostics_from_the_derive_and_check() {
    assert!(compare("tests/ui_dotprompt") >= 10);
}

#[test]
fn jinja_files_get_the_same_diagnostics_from_the_derive_and_check() {
    assert!(compare("tests/ui_jinja") >= 10);
}

#[test]
fn markdown_files_get_the_same_diagnostics_from_the_derive_and_check() {
    assert!(compare("tests/ui") >= 10);
}
