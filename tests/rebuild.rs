//! Editing a prompt's files rebuilds the crate that uses it.
//!
//! The derive reads `prompts/` at compile time and emits `include_bytes!` of every file it
//! read, so cargo must rebuild when the prompt, a template or `prompts/promptic.json`
//! changes. A scratch crate is built with the real cargo, edited, and built again.

mod common;

use common::Scratch;

const MAIN: &str = r##"use promptic::Identity;

#[derive(promptic::Prompt)]
#[prompt("greeting")]
struct Greeting<'a> {
    who: &'a str,
}

fn main() {
    let identity = Identity::from_json(r#"{"name": "Ada"}"#).unwrap();
    print!("{}", Greeting { who: "world" }.render(&identity).text);
}
"##;

const CONFIG: &str = r#"{
  "identity": { "name": "Example Name" }
}
"#;

const CONFIG_WITHOUT_NAME: &str = r#"{
  "identity": {}
}
"#;

#[test]
fn edits_to_prompt_files_rebuild() {
    let krate = Scratch::new(
        "promptic_rebuild",
        &[
            ("src/main.rs", MAIN),
            ("prompts/promptic.json", CONFIG),
            ("prompts/greeting.md", "$intro\nHello $who."),
            ("prompts/templates/intro.md", "Version one."),
        ],
    );
    let run = || krate.cargo(&["run"]);

    let first = run().ok();
    assert_eq!(first.stdout, "Version one.\nHello world.");

    // A template.
    krate.write("prompts/templates/intro.md", "Version two.");
    let second = run().ok();
    assert_eq!(
        second.stdout, "Version two.\nHello world.",
        "editing a template did not rebuild"
    );

    // The prompt itself; it now uses the identity key `name` too.
    krate.write("prompts/greeting.md", "$intro\nHello $who, from $name.");
    let third = run().ok();
    assert_eq!(
        third.stdout, "Version two.\nHello world, from Ada.",
        "editing the prompt did not rebuild"
    );

    // The configuration: without the identity key, `$name` is unknown and the build fails.
    krate.write("prompts/promptic.json", CONFIG_WITHOUT_NAME);
    let fourth = run().failed();
    assert!(
        fourth.stderr.contains("unknown placeholder `$name`")
            && fourth.stderr.contains("--> prompts/greeting.md:2:18"),
        "editing prompts/promptic.json did not rebuild, or the error is not the expected one:\n{fourth}"
    );

    // A typo in the prompt: `cargo check` points at the prompt file and suggests the fix.
    krate.write("prompts/promptic.json", CONFIG);
    krate.write("prompts/greeting.md", "$intro\nHello $whoo.");
    let check = krate.cargo(&["check"]).failed();
    for expected in [
        "error: unknown placeholder `$whoo`",
        "--> prompts/greeting.md:2:7",
        "Hello $whoo.",
        "help: did you mean `$who`?",
    ] {
        assert!(
            check.stderr.contains(expected),
            "`cargo check` output lacks {expected:?}:\n{check}"
        );
    }

    // A broken configuration is a compile error pointing into promptic.json.
    krate.write("prompts/greeting.md", "$intro\nHello $who.");
    krate.write(
        "prompts/promptic.json",
        "{\n  \"identity\": {\"name\": \"Ada\"},\n  \"literal\": [\"HOME\"]\n}\n",
    );
    let config = krate.cargo(&["check"]).failed();
    for expected in [
        "unknown key `literal`",
        "--> prompts/promptic.json:3:3",
        "did you mean `literals`?",
    ] {
        assert!(
            config.stderr.contains(expected),
            "a broken promptic.json gave no such error {expected:?}:\n{config}"
        );
    }
}
