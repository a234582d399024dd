//! The folder rule over real files: a prompts folder reads nothing outside itself (links of
//! files and of folders that lead out are named and not read), reads only regular files
//! (a FIFO does not block, a device is not read), and never more than `MAX_FILE` bytes of
//! one file. Links that stay inside keep working.
#![cfg(unix)]

use prompt_runtime::load::{MAX_FILE, Project};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A fresh folder with `prompts/templates/` and, beside it, `outside/` holding a secret.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("folder-rule-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("prompts/templates")).unwrap();
    std::fs::create_dir_all(dir.join("outside")).unwrap();
    std::fs::write(dir.join("outside/secret.md"), "SECRET-OUTSIDE").unwrap();
    std::fs::write(dir.join("prompts/greet.md"), "Hello. $intro").unwrap();
    dir
}

fn open(dir: &Path) -> Result<Project, prompt_runtime::Diagnostics> {
    Project::open(&dir.join("prompts"), "prompts")
}

/// Runs `f` on a thread and fails the test, rather than hanging it, when `f` blocks.
fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(Duration::from_secs(20))
        .expect("the read blocked")
}

/// Makes a FIFO with the `mkfifo` command; false where there is none.
fn mkfifo(path: &Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_template_linked_out_is_named_and_not_read() {
    let dir = scratch("template-out");
    symlink(
        dir.join("outside/secret.md"),
        dir.join("prompts/templates/intro.md"),
    )
    .unwrap();
    let e = open(&dir).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "`prompts/templates/intro.md` is a link to `{}`, outside `prompts/`, so it is not read",
            dir.join("outside/secret.md").display()
        )),
        "{e}"
    );
    assert!(!e.contains("SECRET-OUTSIDE"), "{e}");
    assert_eq!(e.matches("error:").count(), 1, "{e}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_template_linked_to_the_process_environment_is_not_read() {
    let dir = scratch("environ");
    symlink("/proc/self/environ", dir.join("prompts/templates/intro.md")).unwrap();
    let e = open(&dir).unwrap_err().to_string();
    assert!(
        e.contains("`prompts/templates/intro.md` is a link to `/proc/self/environ`, outside `prompts/`, so it is not read"),
        "{e}"
    );
    // nothing of the environment reaches the message
    assert!(!e.contains("CARGO_MANIFEST_DIR="), "{e}");
}

#[test]
fn a_templates_folder_linked_out_is_one_error() {
    let dir = scratch("templates-out");
    std::fs::remove_dir(dir.join("prompts/templates")).unwrap();
    std::fs::write(dir.join("outside/intro.md"), "SECRET-TEMPLATE").unwrap();
    symlink(dir.join("outside"), dir.join("prompts/templates")).unwrap();
    let e = open(&dir).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "`prompts/templates` is a link to `{}`, outside `prompts/`, so it is not read",
            dir.join("outside").display()
        )),
        "{e}"
    );
    assert!(!e.contains("SECRET"), "{e}");
    assert_eq!(e.matches("error:").count(), 1, "{e}");
}

#[test]
fn promptic_json_linked_to_a_device_is_refused_at_once() {
    let dir = scratch("config-zero");
    symlink("/dev/zero", dir.join("prompts/promptic.json")).unwrap();
    let e = within(move || open(&dir).unwrap_err().to_string());
    assert!(
        e.contains("`prompts/promptic.json` is a link to `/dev/zero`, outside `prompts/`"),
        "{e}"
    );
}

#[test]
fn a_fifo_as_promptic_json_or_a_prompt_does_not_block() {
    let dir = scratch("fifo");
    if !mkfifo(&dir.join("prompts/promptic.json")) {
        eprintln!("no mkfifo; skipped");
        return;
    }
    let again = dir.clone();
    let e = within(move || open(&again).unwrap_err().to_string());
    assert!(
        e.contains(
            "`prompts/promptic.json` is a FIFO (named pipe), not a regular file, so it is not read"
        ),
        "{e}"
    );
    std::fs::remove_file(dir.join("prompts/promptic.json")).unwrap();
    assert!(mkfifo(&dir.join("prompts/pipe.md")));
    assert!(mkfifo(&dir.join("prompts/templates/t.md")));
    let e = within(move || open(&dir).unwrap_err().to_string());
    assert!(
        e.contains("`prompts/templates/t.md` is a FIFO (named pipe)"),
        "{e}"
    );
}

#[test]
fn a_fifo_prompt_is_refused_without_blocking() {
    let dir = scratch("fifo-prompt");
    if !mkfifo(&dir.join("prompts/pipe.md")) {
        eprintln!("no mkfifo; skipped");
        return;
    }
    std::fs::write(dir.join("prompts/templates/intro.md"), "Intro.").unwrap();
    let e = within(move || {
        let project = open(&dir).unwrap();
        project.check_inferred("pipe").unwrap_err().to_string()
    });
    assert!(
        e.contains("`prompts/pipe.md` is a FIFO (named pipe), not a regular file"),
        "{e}"
    );
}

#[test]
fn files_over_the_limit_are_refused_by_their_size() {
    let dir = scratch("large");
    // sparse: no disk, no time; refused before a byte is read
    let big = std::fs::File::create(dir.join("prompts/templates/intro.md")).unwrap();
    big.set_len(MAX_FILE + 1).unwrap();
    let e = open(&dir).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "`prompts/templates/intro.md` is {} bytes, more than promptic reads from one file ({MAX_FILE} bytes)",
            MAX_FILE + 1
        )),
        "{e}"
    );
    std::fs::write(dir.join("prompts/templates/intro.md"), "Intro.").unwrap();
    std::fs::File::create(dir.join("prompts/huge.md"))
        .unwrap()
        .set_len(200 << 20)
        .unwrap();
    let project = open(&dir).unwrap();
    let e = project.check_inferred("huge").unwrap_err().to_string();
    assert!(
        e.contains("is 209715200 bytes, more than promptic reads"),
        "{e}"
    );
}

#[test]
fn links_that_stay_inside_keep_working() {
    let dir = scratch("inside");
    std::fs::create_dir_all(dir.join("prompts/shared")).unwrap();
    std::fs::write(dir.join("prompts/shared/intro.md"), "Shared intro.").unwrap();
    std::fs::write(
        dir.join("prompts/shared/config.json"),
        r#"{"literals": ["HOME"]}"#,
    )
    .unwrap();
    symlink("../shared/intro.md", dir.join("prompts/templates/intro.md")).unwrap();
    symlink("shared/config.json", dir.join("prompts/promptic.json")).unwrap();
    symlink("greet.md", dir.join("prompts/alias.md")).unwrap();
    // the prompts folder itself may be a link: it is the folder named
    symlink("prompts", dir.join("named")).unwrap();
    for folder in ["prompts", "named"] {
        let project = Project::open(&dir.join(folder), "prompts").unwrap();
        assert_eq!(project.config.literals, ["HOME"]);
        let checked = project.check_inferred("alias").unwrap();
        let out = checked
            .render(&Default::default(), &project.config.identity)
            .unwrap();
        assert_eq!(out.text, "Hello. Shared intro.");
    }
}

#[test]
fn a_family_folder_linked_out_is_named() {
    let dir = scratch("family-out");
    std::fs::create_dir_all(dir.join("outside/fam")).unwrap();
    std::fs::write(dir.join("outside/fam/default.md"), "SECRET-FAMILY").unwrap();
    std::fs::write(dir.join("prompts/templates/intro.md"), "Intro.").unwrap();
    symlink(dir.join("outside/fam"), dir.join("prompts/fam")).unwrap();
    let project = open(&dir).unwrap();
    let e = project.family("fam").unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "`prompts/fam` is a link to `{}`, outside `prompts/`, so it is not read",
            dir.join("outside/fam").display()
        )),
        "{e}"
    );
    assert!(!e.contains("SECRET"), "{e}");
}
