//! `check`, `list` and `render` on store folders.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_promptkit"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_recognises_a_store_folder() {
    let (code, out, _) = run(&["check", "--dir", "examples/persona_prompts"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "checked store `examples/persona_prompts`: 5 prompts, 6 variants, 4 placeholders: no errors\n"
    );
    let (code, out, err) = run(&["check", "--dir", "tests/ui/stores/typo"]);
    assert_eq!(code, 1);
    assert_eq!(out, "checked store `tests/ui/stores/typo`: 1 error\n");
    assert!(
        err.contains(" --> tests/ui/stores/typo/system_rule.json:4:37\n"),
        "{err}"
    );
    assert!(err.contains("did you mean `{{char_name}}`?"), "{err}");
}

#[test]
fn list_and_render_a_store() {
    let (code, out, _) = run(&["list", "--dir", "tests/stores/code_style"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("greeting  Greeting\n  system_prompt  order 20, category core\n  variants  default, formal\n"), "{out}");
    let (code, out, err) = run(&[
        "render",
        "greeting",
        "--dir",
        "tests/stores/code_style",
        "--variant",
        "formal",
        "--set",
        "weekday=Friday",
    ]);
    assert_eq!(
        (code, out.as_str()),
        (0, "Good day. My name is Ada \u{2014} call me Bo.\n"),
        "{err}"
    );
    let (code, _, err) = run(&[
        "render",
        "greeting",
        "--dir",
        "tests/stores/code_style",
        "--set",
        "weekday=Friday",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("missing runtime value for placeholder `{{history_summary}}`"),
        "{err}"
    );
    let (code, _, err) = run(&[
        "render",
        "greeting",
        "--dir",
        "tests/stores/code_style",
        "--set",
        "wekday=x",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("did you mean `weekday`?"), "{err}");
}
