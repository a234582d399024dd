//! The folder rule through the command: `--dir` folders and store folders read nothing
//! outside themselves, no command blocks on a FIFO or reads a device, and files named on
//! the command line (`--identity`, `--history`) are bounded by kind and size.
#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `promptic` in `dir`, killed after a minute so that a command that blocks fails
/// its test instead of stalling the suite.
fn promptic(dir: &Path, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("PROMPTIC_SENTINEL", "sentinel-in-the-environment")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the promptic binary runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("promptic {args:?} did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh folder with a clean `prompts/` (one prompt using one template) and `outside/`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-folder-rule-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("prompts/templates")).unwrap();
    std::fs::create_dir_all(dir.join("outside")).unwrap();
    std::fs::write(dir.join("prompts/plain.md"), "Hello. $intro").unwrap();
    std::fs::write(dir.join("prompts/templates/intro.md"), "Intro.").unwrap();
    std::fs::write(dir.join("outside/secret.md"), "SECRET-OUTSIDE").unwrap();
    dir
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(target_os = "linux")]
#[test]
fn check_and_render_refuse_a_template_linked_to_the_environment() {
    let dir = scratch("environ");
    std::fs::remove_file(dir.join("prompts/templates/intro.md")).unwrap();
    symlink("/proc/self/environ", dir.join("prompts/templates/intro.md")).unwrap();
    for args in [
        &["check", "--dir", "prompts"][..],
        &["render", "plain", "--dir", "prompts"],
    ] {
        let run = promptic(&dir, args);
        assert_eq!(run.code, 1, "{args:?}: {}{}", run.stdout, run.stderr);
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(
            all.contains("`prompts/templates/intro.md` is a link to `/proc/self/environ`, outside `prompts/`, so it is not read"),
            "{args:?}: {all}"
        );
        assert!(!all.contains("sentinel-in-the-environment"), "{all}");
    }
}

#[test]
fn a_prompt_file_linked_out_is_named_and_not_rendered() {
    let dir = scratch("prompt-out");
    symlink(dir.join("outside/secret.md"), dir.join("prompts/leak.md")).unwrap();
    let run = promptic(&dir, &["render", "leak", "--dir", "prompts"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr.contains(&format!(
            "`prompts/leak.md` is a link to `{}`, outside `prompts/`",
            dir.join("outside/secret.md").display()
        )),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("SECRET") && !run.stderr.contains("SECRET"));
}

#[test]
fn a_fifo_or_a_device_as_promptic_json_does_not_hang_check() {
    let dir = scratch("config");
    symlink("/dev/zero", dir.join("prompts/promptic.json")).unwrap();
    let run = promptic(&dir, &["check", "--dir", "prompts"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("`prompts/promptic.json` is a link to `/dev/zero`"),
        "{}",
        run.stderr
    );
    std::fs::remove_file(dir.join("prompts/promptic.json")).unwrap();
    if !mkfifo(&dir.join("prompts/promptic.json")) {
        eprintln!("no mkfifo; skipped");
        return;
    }
    let run = promptic(&dir, &["check", "--dir", "prompts"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("`prompts/promptic.json` is a FIFO (named pipe), not a regular file"),
        "{}",
        run.stderr
    );
}

#[test]
fn identity_and_history_files_are_bounded_by_kind_and_size() {
    let dir = scratch("values");
    let render = |flag: &str, file: &str| {
        promptic(&dir, &["render", "plain", "--dir", "prompts", flag, file])
    };
    let run = render("--identity", "/dev/zero");
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("`/dev/zero` is a character device, not a regular file, so it is not read"),
        "{}",
        run.stderr
    );
    // a file outside the folder is fine when the user names it
    std::fs::write(dir.join("outside/identity.json"), r#"{"name": "Sam"}"#).unwrap();
    let run = render("--identity", "outside/identity.json");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "Hello. Intro.\n");
    // refused by its size, before a byte is read
    std::fs::File::create(dir.join("outside/huge.json"))
        .unwrap()
        .set_len(prompt_runtime::load::MAX_FILE + 1)
        .unwrap();
    let run = render("--identity", "outside/huge.json");
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains(&format!(
            "`outside/huge.json` is {} bytes, more than promptic reads from one file",
            prompt_runtime::load::MAX_FILE + 1
        )),
        "{}",
        run.stderr
    );
    if mkfifo(&dir.join("outside/pipe.json")) {
        let run = render("--identity", "outside/pipe.json");
        assert_eq!(run.code, 1);
        assert!(
            run.stderr.contains("is a FIFO (named pipe)"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn a_store_folder_reads_no_domain_file_linked_out() {
    let dir = scratch("store");
    let store = dir.join("store");
    std::fs::create_dir_all(store.join("_meta")).unwrap();
    std::fs::write(
        store.join("_meta/prompt_manifest.json"),
        r#"{"prompts": {"a": {"domain": "a"}}}"#,
    )
    .unwrap();
    std::fs::write(
        store.join("_meta/placeholder_registry.json"),
        r#"{"placeholders": {}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("outside/a.json"),
        r#"{"variants": {"default": {"text": "SECRET-DOMAIN"}}}"#,
    )
    .unwrap();
    symlink(dir.join("outside/a.json"), store.join("a.json")).unwrap();
    let run = promptic(&dir, &["check", "--dir", "store"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(
        all.contains(&format!(
            "`store/a.json` is a link to `{}`, outside `store/`, so it is not read",
            dir.join("outside/a.json").display()
        )),
        "{all}"
    );
    assert!(!all.contains("SECRET"), "{all}");
    // Every command reaches a store through the store format, which reads it with the
    // same reader: nothing of the linked file is rendered, counted or documented.
    let docs = dir.join("docs");
    for args in [
        vec!["render", "a", "--dir", "store"],
        vec!["tokens", "a", "--dir", "store"],
        vec!["diff", "a", "--a", "x=1", "--b", "x=2", "--dir", "store"],
        vec!["docs", "--out", docs.to_str().unwrap(), "--dir", "store"],
        vec!["list", "--json", "--dir", "store"],
    ] {
        let run = promptic(&dir, &args);
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(!all.contains("SECRET"), "{args:?}: {all}");
    }
    let leaked = std::fs::read_dir(&docs)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains("SECRET")));
    assert!(!leaked, "a page holds the linked file's text");
    // A domain file that is a FIFO does not block, and one past the size limit is not
    // read whole.
    std::fs::remove_file(store.join("a.json")).unwrap();
    if mkfifo(&store.join("a.json")) {
        let run = promptic(&dir, &["tokens", "a", "--dir", "store"]);
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert!(run.stderr.contains("store/a.json"), "{}", run.stderr);
        std::fs::remove_file(store.join("a.json")).unwrap();
    }
    let big = std::fs::File::create(store.join("a.json")).unwrap();
    big.set_len(64 << 20).unwrap();
    let run = promptic(&dir, &["render", "a", "--dir", "store"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stderr.contains("store/a.json"), "{}", run.stderr);
}

/// dotprompt files go through the same guarded reader: a `.prompt` file, a partial and
/// `tools.json` linked out of the folder are refused by `render` and reported by `check`,
/// an oversized `.prompt` is refused by its size, and `--data` naming a FIFO does not block.
#[cfg(target_os = "linux")]
#[test]
fn dotprompt_files_are_read_through_the_guarded_reader() {
    let dir = scratch("dotprompt");
    let prompts = dir.join("prompts");
    std::fs::write(dir.join("outside/secret.prompt"), "SECRET-OUTSIDE {{name}}").unwrap();
    symlink("/proc/self/environ", prompts.join("environ.prompt")).unwrap();
    for args in [
        &["render", "environ", "--dir", "prompts"][..],
        &["check", "--dir", "prompts"],
    ] {
        let run = promptic(&dir, args);
        let all = format!("{}{}", run.stdout, run.stderr);
        assert_eq!(run.code, 1, "{args:?}: {all}");
        assert!(
            all.contains("`prompts/environ.prompt` is a link to `/proc/self/environ`, outside `prompts/`, so it is not read"),
            "{args:?}: {all}"
        );
        assert!(!all.contains("sentinel-in-the-environment"), "{all}");
    }
    std::fs::remove_file(prompts.join("environ.prompt")).unwrap();

    // A partial and a registry file linked out: the prompt that would use them is not
    // rendered, and nothing of the outside file is shown.
    std::fs::write(prompts.join("hello.prompt"), "Hello {{> sig}}").unwrap();
    symlink(
        dir.join("outside/secret.prompt"),
        prompts.join("_sig.prompt"),
    )
    .unwrap();
    let run = promptic(&dir, &["render", "hello", "--dir", "prompts"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("`prompts/_sig.prompt` is a link to"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("SECRET") && !run.stderr.contains("SECRET"));
    std::fs::remove_file(prompts.join("_sig.prompt")).unwrap();
    std::fs::write(dir.join("outside/tools.json"), r#"{"leak": {"SECRET": 1}}"#).unwrap();
    symlink(dir.join("outside/tools.json"), prompts.join("tools.json")).unwrap();
    std::fs::write(prompts.join("hello.prompt"), "Hello").unwrap();
    let run = promptic(&dir, &["render", "hello", "--dir", "prompts", "--json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("`prompts/tools.json` is a link to"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("SECRET"));
    std::fs::remove_file(prompts.join("tools.json")).unwrap();

    // Larger than the limit: refused by its size, not read whole.
    let huge = std::fs::File::create(prompts.join("huge.prompt")).unwrap();
    huge.set_len(prompt_runtime::load::MAX_FILE + 1).unwrap();
    let run = promptic(&dir, &["render", "huge", "--dir", "prompts"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("prompts/huge.prompt"), "{}", run.stderr);
    assert!(run.stderr.contains("MiB"), "{}", run.stderr);
    std::fs::remove_file(prompts.join("huge.prompt")).unwrap();

    // `--data` naming a FIFO: refused at once, no blocking read.
    if mkfifo(&dir.join("data.json")) {
        let run = promptic(
            &dir,
            &["render", "hello", "--dir", "prompts", "--data", "data.json"],
        );
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    }
}

/// One prompt of every format, with each kind of file a format reads: the prompt itself,
/// the files prompts read (a Markdown template, a Jinja include and the template it imports
/// macros from, a dotprompt partial) and
/// the folder's registry files (`promptic.json`, `schemas.json`, `tools.json`, a store's
/// manifest and registry). Each is replaced in turn by a link out of the folder, a FIFO and
/// a file past the size limit; `check` and the `render` that reads it must refuse it, name
/// it, show nothing of what lies behind it, and finish.
#[cfg(target_os = "linux")]
#[test]
fn every_format_reads_every_file_through_the_guarded_reader() {
    // (file, the render that reads it); `None`: only `check` reads it on its own.
    const FILES: &[(&str, &[&str])] = &[
        ("prompts/note.md", &["render", "note", "--set", "who=Ada"]),
        ("prompts/templates/intro.md", &["render", "intro_user"]),
        (
            "prompts/chat.md",
            &["render", "chat", "--set", "who=Ada", "--set", "question=q"],
        ),
        (
            "prompts/trip.md.j2",
            &["render", "trip", "--set", "who=Ada"],
        ),
        (
            "prompts/parts/rule.md.j2",
            &["render", "trip", "--set", "who=Ada"],
        ),
        (
            "prompts/parts/macros.md.j2",
            &["render", "trip", "--set", "who=Ada"],
        ),
        (
            "prompts/ticket.prompt",
            &["render", "ticket", "--set", "who=Ada"],
        ),
        (
            "prompts/_sig.prompt",
            &["render", "ticket", "--set", "who=Ada"],
        ),
        (
            "prompts/schemas.json",
            &["render", "ticket", "--set", "who=Ada"],
        ),
        (
            "prompts/tools.json",
            &["render", "ticket", "--set", "who=Ada"],
        ),
        (
            "prompts/greet/formal.md",
            &[
                "render",
                "greet",
                "--tag",
                "tone=formal",
                "--set",
                "who=Ada",
            ],
        ),
        ("prompts/agent.md", &["render", "agent", "--set", "who=Ada"]),
        (
            "prompts/promptic.json",
            &["render", "note", "--set", "who=Ada"],
        ),
        ("store/a.json", &["render", "a"]),
        ("store/_meta/prompt_manifest.json", &["render", "a"]),
        ("store/_meta/placeholder_registry.json", &["render", "a"]),
    ];
    let dir = scratch("every-format");
    std::fs::write(dir.join("outside/secret.txt"), "SECRET-OUTSIDE").unwrap();
    let write_all = || {
        let files: &[(&str, &str)] = &[
            (
                "prompts/note.md",
                "{\n  \"title\": \"Note\"\n}\n\nHello $who.\n",
            ),
            ("prompts/intro_user.md", "Hello. $intro\n"),
            ("prompts/templates/intro.md", "Intro.\n"),
            (
                "prompts/chat.md",
                "{% system intro %}\nYou help $who.\n\n{% user question %}\n$question\n",
            ),
            (
                "prompts/trip.md.j2",
                "{% from 'parts/macros.md.j2' import sign %}Trip for {{ who }}.\n{% include 'parts/rule.md.j2' %}\n{{ sign() }}\n",
            ),
            ("prompts/parts/rule.md.j2", "Keep it short.\n"),
            (
                "prompts/parts/macros.md.j2",
                "{% macro sign() %}-- A{% endmacro %}\n",
            ),
            (
                "prompts/ticket.prompt",
                "---\ninput:\n  schema:\n    who: string\ntools: [lookup]\n---\nTicket for {{who}}. {{> sig}}\n",
            ),
            ("prompts/_sig.prompt", "Thanks.\n"),
            ("prompts/schemas.json", "{}\n"),
            (
                "prompts/tools.json",
                "{\"lookup\": {\"name\": \"lookup\", \"description\": \"Finds\"}}\n",
            ),
            ("prompts/greet/default.md", "Hello $who.\n"),
            (
                "prompts/greet/formal.md",
                "{\n  \"match\": [\"tone=formal\"]\n}\n\nGood day, $who.\n",
            ),
            (
                "prompts/agent.md",
                "{\n  \"placeholders\": \"keep\"\n}\n\nSummarize for {who}.\n",
            ),
            ("prompts/promptic.json", "{}\n"),
            (
                "store/_meta/prompt_manifest.json",
                r#"{"prompts": {"a": {"domain": "a"}}}"#,
            ),
            (
                "store/_meta/placeholder_registry.json",
                r#"{"placeholders": {}}"#,
            ),
            (
                "store/a.json",
                r#"{"variants": {"default": {"text": "Store text."}}}"#,
            ),
        ];
        for (path, text) in files {
            let path = dir.join(path);
            let _ = std::fs::remove_file(&path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    };
    // Every file as written is read and rendered.
    write_all();
    for folder in ["prompts", "store"] {
        let run = promptic(&dir, &["check", "--dir", folder]);
        assert_eq!(run.code, 0, "{folder}: {}{}", run.stdout, run.stderr);
    }
    for (file, render) in FILES {
        let folder = file.split('/').next().unwrap();
        let mut args = render.to_vec();
        args.extend(["--dir", folder]);
        let run = promptic(&dir, &args);
        assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    }
    // (what it is, how to make one at a path, what the refusal says)
    type Kind<'a> = (&'a str, &'a dyn Fn(&Path) -> bool, &'a str);
    let kinds: &[Kind] = &[
        (
            "a link out",
            &|path| symlink(dir.join("outside/secret.txt"), path).is_ok(),
            "is a link to",
        ),
        ("a FIFO", &|path| mkfifo(path), "FIFO"),
        (
            "an oversized file",
            &|path| {
                std::fs::File::create(path)
                    .and_then(|f| f.set_len(prompt_runtime::load::MAX_FILE + 1))
                    .is_ok()
            },
            "more than promptic reads",
        ),
    ];
    let mut failed = Vec::new();
    for (file, render) in FILES {
        let folder = file.split('/').next().unwrap();
        for (kind, make, says) in kinds {
            write_all();
            let path = dir.join(file);
            std::fs::remove_file(&path).unwrap();
            if !make(&path) {
                eprintln!("{file} as {kind}: could not be made here; skipped");
                continue;
            }
            let mut render = render.to_vec();
            render.extend(["--dir", folder]);
            for args in [vec!["check", "--dir", folder], render] {
                let run = promptic(&dir, &args);
                let all = format!("{}{}", run.stdout, run.stderr);
                let ok = run.code == 1
                    && all.contains(&format!("`{file}`"))
                    && all.contains(says)
                    && !all.contains("SECRET");
                if !ok {
                    failed.push(format!(
                        "{file} as {kind}, {args:?}: exit {}: {all}",
                        run.code
                    ));
                }
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    // Files named on the command line: a FIFO or an oversized file is refused at once.
    write_all();
    for flag in ["--context", "--data"] {
        for (kind, make, says) in &kinds[1..] {
            let path = dir.join("given.json");
            let _ = std::fs::remove_file(&path);
            if !make(&path) {
                continue;
            }
            let run = promptic(
                &dir,
                &["render", "ticket", "--dir", "prompts", flag, "given.json"],
            );
            assert_eq!(run.code, 1, "{flag} {kind}: {}", run.stderr);
            assert!(run.stderr.contains(says), "{flag} {kind}: {}", run.stderr);
        }
    }
}
