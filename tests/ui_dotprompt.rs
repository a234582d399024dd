//! The derive of dotprompt prompts (`prompts/NAME.prompt`): every compile error a dotprompt
//! user can meet, hostile files, and passing cases that render through the derive and
//! through the run-time `Dotprompt::render` and compare the results. The cases read
//! `tests/ui_dotprompt/prompts/`.

/// The hostile files git cannot hold (or should not): made here, before the cases build.
fn make_hostile_files(prompts: &std::path::Path) {
    let fresh = |name: &str| {
        let path = prompts.join(name);
        let _ = std::fs::remove_file(&path);
        path
    };
    // A FIFO: reading it would block forever.
    let fifo = fresh("fifo.prompt");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo failed");
    // Links to a file outside `prompts/`: the prompt itself, and a partial.
    std::os::unix::fs::symlink("../outside/secret.prompt", fresh("outside.prompt")).unwrap();
    std::os::unix::fs::symlink("../outside/secret.prompt", fresh("_sneaky.prompt")).unwrap();
    // Larger than the project's bound on a file (4 MiB).
    let mut huge = String::from("---\nmodel: m\n---\n");
    while huge.len() <= 5 << 20 {
        huge.push_str("{{a}} and again, a line of a prompt that never ends.\n");
    }
    std::fs::write(fresh("huge.prompt"), huge).unwrap();
    // Invalid UTF-8 on line 3.
    std::fs::write(
        fresh("bad_utf8.prompt"),
        b"---\nmodel: m\n---\nHello \xff{{a}}\n",
    )
    .unwrap();
}

#[test]
fn ui_dotprompt() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui_dotprompt");
    make_hostile_files(&base.join("prompts"));
    // SAFETY: this test binary runs this one test; nothing else reads the environment.
    unsafe {
        std::env::set_var("PROMPTIC_MANIFEST_DIR", &base);
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui_dotprompt/fail/*.rs");
    cases.pass("tests/ui_dotprompt/pass/*.rs");
    // The cases run when `cases` is dropped; then the hostile files go (a FIFO left in the
    // tree would block whatever reads it next).
    drop(cases);
    for name in ["fifo", "outside", "_sneaky", "huge", "bad_utf8"] {
        let _ = std::fs::remove_file(base.join(format!("prompts/{name}.prompt")));
    }
}
