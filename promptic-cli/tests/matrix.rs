//! Every command over every format: `tests/fixtures/matrix/prompts/` holds one prompt of
//! each kind (Markdown, chat, Jinja with an include, dotprompt, a keep agent prompt and a
//! family), each reading one value, `who`. Each command must reach each of them the same
//! way: the same flags, a misspelt value refused with the same kind of message, a missing
//! value refused (or, for a keep binding, which may not fire, named on stderr), nothing
//! rendered empty unseen.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/matrix")
}

fn promptic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(args)
        .current_dir(folder())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("the promptic binary runs")
}

/// Each prompt, with what it needs besides `who` to render.
const PROMPTS: [(&str, &[&str]); 6] = [
    ("note", &[]),
    ("chat", &["--set", "question=Why"]),
    ("trip", &[]),
    ("ticket", &[]),
    ("agent", &[]),
    ("greet", &["--tag", "tone=formal"]),
];

/// The prompts `list` and `docs` show: every prompt above, a family's members by name.
const LISTED: [&str; 7] = [
    "note",
    "chat",
    "trip",
    "ticket",
    "agent",
    "greet/default",
    "greet/formal",
];

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(command: &str, prompt: &str, extra: &[&str], args: &[&str]) -> Run {
    let mut all = vec![command, prompt];
    all.extend_from_slice(extra);
    all.extend_from_slice(args);
    let out = promptic(&all);
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Collects what went wrong, so that one run shows every gap of the matrix.
fn expect(failures: &mut Vec<String>, what: String, run: &Run, ok: bool) {
    if !ok {
        failures.push(format!(
            "{what}: {:?} {}{}",
            run.code, run.stdout, run.stderr
        ));
    }
}

#[test]
fn render_tokens_and_diff_take_the_same_values_for_every_format() {
    let context = std::env::temp_dir().join(format!("promptic-matrix-{}.json", std::process::id()));
    std::fs::write(&context, r#"{"who": "Ada", "tenant_region": "eu"}"#).unwrap();
    let context = context.to_string_lossy().into_owned();
    // A context file's key that looks like a misspelling of a value the prompt reads.
    let misspelt =
        std::env::temp_dir().join(format!("promptic-matrix-wh-{}.json", std::process::id()));
    std::fs::write(&misspelt, r#"{"wh": "Ada"}"#).unwrap();
    let misspelt = misspelt.to_string_lossy().into_owned();
    let mut failures = Vec::new();
    for (prompt, extra) in PROMPTS {
        let r = run("render", prompt, extra, &["--set", "who=Ada"]);
        expect(
            &mut failures,
            format!("render {prompt} --set who=Ada"),
            &r,
            r.code == Some(0) && r.stdout.contains("Ada"),
        );
        let r = run("render", prompt, extra, &["--context", &context]);
        expect(
            &mut failures,
            format!("render {prompt} --context"),
            &r,
            r.code == Some(0) && r.stdout.contains("Ada"),
        );
        let r = run("render", prompt, extra, &["--set", "who=Ada", "--json"]);
        let json = serde_json::from_str::<serde_json::Value>(&r.stdout);
        expect(
            &mut failures,
            format!("render {prompt} --json"),
            &r,
            r.code == Some(0) && json.is_ok() && r.stdout.contains("Ada"),
        );
        let r = run("render", prompt, extra, &["--set", "wh=Ada"]);
        expect(
            &mut failures,
            format!("render {prompt} --set wh=Ada"),
            &r,
            r.code == Some(1) && r.stdout.is_empty() && r.stderr.contains("did you mean `who`?"),
        );
        let r = run("render", prompt, extra, &["--context", &misspelt]);
        expect(
            &mut failures,
            format!("render {prompt} --context with `wh`"),
            &r,
            r.code == Some(1)
                && r.stdout.is_empty()
                && r.stderr.matches("error:").count() == 1
                && r.stderr.contains(&format!(" --> {misspelt}:1:2\n"))
                && r.stderr.contains("did you mean `who`?"),
        );
        let r = run("render", prompt, extra, &[]);
        // A keep binding may not fire, and then renders as nothing, as keep renders it: the
        // command says so on stderr. Every other format refuses to render.
        let refused = if prompt == "agent" {
            r.code == Some(0) && r.stderr.contains("`{who}` has no value")
        } else {
            r.code == Some(1) && r.stdout.is_empty() && r.stderr.contains("who")
        };
        expect(
            &mut failures,
            format!("render {prompt} without who"),
            &r,
            refused,
        );
        let r = run("tokens", prompt, extra, &["--set", "who=Ada"]);
        expect(
            &mut failures,
            format!("tokens {prompt}"),
            &r,
            r.code == Some(0) && r.stdout.contains(" tokens (o200k_base)"),
        );
        let r = run("diff", prompt, extra, &["--a", "who=Ada", "--b", "who=Bob"]);
        expect(
            &mut failures,
            format!("diff {prompt}"),
            &r,
            r.code == Some(0) && r.stdout.contains("Ada") && r.stdout.contains("Bob"),
        );
    }
    std::fs::remove_file(&context).unwrap();
    std::fs::remove_file(&misspelt).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn list_docs_and_check_show_every_prompt_and_no_part() {
    let out = promptic(&["check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let out = promptic(&["list"]);
    let listed = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = listed
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for name in LISTED {
        assert!(names.contains(&name), "`{name}` not listed:\n{listed}");
    }
    assert!(!names.iter().any(|n| n.starts_with("parts/")), "{listed}");

    let pages = std::env::temp_dir().join(format!("promptic-matrix-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&pages);
    let out = promptic(&["docs", "--out", &pages.to_string_lossy()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for page in LISTED {
        let text = std::fs::read_to_string(pages.join(format!("{page}.md")))
            .unwrap_or_else(|e| panic!("no page for `{page}`: {e}"));
        assert!(
            text.contains("who"),
            "the page of `{page}` does not show `who`:\n{text}"
        );
        // Every format's page leads back to the index, from a subfolder too.
        let up = "../".repeat(page.matches('/').count());
        assert!(
            text.starts_with(&format!("[← all prompts]({up}index.md)\n")),
            "the page of `{page}` has no way back to the index:\n{text}"
        );
    }
    assert!(!pages.join("parts").exists());
    // The index lists every prompt by name, whatever its format.
    let index = std::fs::read_to_string(pages.join("index.md")).unwrap();
    let rows: Vec<&str> = index
        .lines()
        .filter_map(|l| l.strip_prefix("| ["))
        .filter_map(|l| l.split(']').next())
        .collect();
    let mut sorted = rows.clone();
    sorted.sort_unstable();
    assert_eq!(rows, sorted, "{index}");
    std::fs::remove_dir_all(&pages).unwrap();
}

/// A name reaches one file: two files for one name are an error, as in the derive, of
/// two formats or of one (`y.md.j2` and `y.j2`: neither is left out unseen).
#[test]
fn a_name_with_two_files_is_refused() {
    let dir = std::env::temp_dir().join(format!("promptic-matrix-two-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("x.md"), "Hello $who.").unwrap();
    std::fs::write(dir.join("x.prompt"), "Hello {{who}}.").unwrap();
    std::fs::write(dir.join("y.md.j2"), "Hello {{ who }}.").unwrap();
    std::fs::write(dir.join("y.j2"), "Bye {{ whom }}.").unwrap();
    let dir_arg = dir.to_string_lossy();
    for args in [
        vec!["render", "x", "--set", "who=Ada"],
        vec!["render", "y", "--set", "who=Ada"],
        vec!["check"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_promptic"))
            .args(&args)
            .args(["--dir", &dir_arg])
            .env("NO_COLOR", "1")
            .output()
            .expect("the promptic binary runs");
        let all = String::from_utf8_lossy(&out.stderr) + String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {all}");
        let name = if args[0] == "check" { "" } else { args[1] };
        for name in ["x", "y"]
            .into_iter()
            .filter(|n| name.is_empty() || *n == name)
        {
            assert!(
                all.contains(&format!("the prompt `{name}` has two files: `")),
                "{args:?}: {all}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A prompt's page names the keys it reads of each value, for Jinja and dotprompt alike.
#[test]
fn docs_show_the_paths_a_prompt_reads() {
    let root = std::env::temp_dir().join(format!("promptic-matrix-paths-{}", std::process::id()));
    let (dir, pages) = (root.join("prompts"), root.join("pages"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("trip.md.j2"), "{{ user.name }} in {{ user.city }}").unwrap();
    std::fs::write(
        dir.join("ticket.prompt"),
        "---\ndescription: Opens a ticket\nconfig:\n  temperature: 0.5\ninput:\n  schema:\n    user(object):\n      name: string\n---\nFor {{user.name}}.",
    )
    .unwrap();
    std::fs::write(dir.join("near.md"), "{\"title\": \"Near\"}\nHello.").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(["docs", "--dir", &dir.to_string_lossy(), "--out"])
        .arg(&pages)
        .env("NO_COLOR", "1")
        .output()
        .expect("the promptic binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = |name: &str| std::fs::read_to_string(pages.join(format!("{name}.md"))).unwrap();
    let trip = page("trip");
    assert!(
        trip.contains("- `user`, object: reads `user.name`, `user.city`"),
        "{trip}"
    );
    let ticket = page("ticket");
    assert!(
        ticket.contains("- `user`, object: reads `user.name`"),
        "{ticket}"
    );
    assert!(
        ticket.contains(
            "## Model config\n\n| key | value |\n| --- | --- |\n| `temperature` | `0.5` |\n"
        ),
        "{ticket}"
    );
    // What `check` warns about is on the page: here, a frontmatter the model would read.
    // A dotprompt description is the index's description, as a Markdown prompt's is.
    let index = page("index");
    assert!(
        index.contains("| [ticket](ticket.md) |  |  | Opens a ticket |"),
        "{index}"
    );
    let near = page("near");
    assert!(
        near.contains("## Warnings\n\n```text\nwarning: this looks like frontmatter but is sent to the model as text"),
        "{near}"
    );

    // `list --json` carries them too; a value read whole has none.
    let out = Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(["list", "--json", "--dir", &dir.to_string_lossy()])
        .output()
        .expect("the promptic binary runs");
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let trip = listed
        .as_array()
        .and_then(|all| all.iter().find(|p| p["name"] == "trip"))
        .expect("trip is listed");
    let mut context = trip["variables"]["context"].clone();
    // Where the template first reads it, for an editor.
    let at = context[0]
        .as_object_mut()
        .and_then(|value| value.remove("at"))
        .expect("a place");
    assert!(
        at.as_str()
            .is_some_and(|at| at.ends_with("/prompts/trip.md.j2:1:4")),
        "{at}"
    );
    assert_eq!(
        context,
        serde_json::json!([{"name": "user", "kind": "object", "paths": ["user.name", "user.city"]}])
    );
    // Every format's entry has the same keys: a version and the metadata among them.
    for entry in listed.as_array().unwrap() {
        let keys: Vec<&String> = entry.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            // (sorted, as `serde_json::Map` keeps them here)
            [
                "metadata",
                "name",
                "ok",
                "path",
                "schedule",
                "title",
                "variables",
                "version"
            ],
            "{entry}"
        );
        assert_eq!(entry["version"].as_str().map(str::len), Some(16), "{entry}");
    }
    let ticket = listed
        .as_array()
        .and_then(|all| all.iter().find(|p| p["name"] == "ticket"))
        .expect("ticket is listed");
    assert_eq!(ticket["metadata"]["config"]["temperature"], 0.5, "{ticket}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// A prompt may be named by its file's path from where the command runs, as a shell
/// completes it (`prompts/trip.md.j2`): the same render as by its name, for every command
/// that takes one.
#[test]
fn a_prompt_named_by_its_files_path_is_that_prompt() {
    let by = |command: &str, name: &str, extra: &[&str]| {
        let mut args = vec![command, name, "--dir", "prompts", "--set", "who=Ada"];
        args.extend_from_slice(extra);
        let out = promptic(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{command} {name}: {stderr}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for (file, name) in [
        ("prompts/trip.md.j2", "trip"),
        ("./prompts/ticket.prompt", "ticket"),
        ("prompts/greet/formal.md", "greet/formal"),
    ] {
        assert_eq!(by("render", file, &[]), by("render", name, &[]), "{file}");
    }
    let diff = ["--b", "who=Bo"];
    assert_eq!(
        by("diff", "prompts/note.md", &diff),
        by("diff", "note", &diff)
    );
    assert_eq!(
        by("tokens", "prompts/note.md", &[]),
        by("tokens", "note", &[])
    );
    // A path that is no file yet is named as written, not under the folder twice; a
    // misspelt name is pointed at the prompt it is closest to, of whichever format.
    let stderr = |name: &str| {
        let out = promptic(&["render", name, "--dir", "prompts"]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert_eq!(
        stderr("prompts/nothere.md"),
        "error: prompt file `prompts/nothere.md` not found\n  = help: create `prompts/nothere.md`, or name one of the prompts in `prompts/`\n"
    );
    for (misspelt, meant) in [("trp", "trip"), ("tickt", "ticket")] {
        assert!(
            stderr(misspelt).contains(&format!("= help: did you mean `{meant}`?")),
            "{misspelt}: {}",
            stderr(misspelt)
        );
    }
}
