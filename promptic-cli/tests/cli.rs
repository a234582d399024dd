//! The `promptic` binary run on the fixture folders: stdout, stderr and exit codes of
//! every command.
//!
//! `tests/fixtures/good` is a clean project (config, templates, frontmatter, an optional
//! block, a subfolder prompt); `tests/fixtures/broken` has several errors across files;
//! `tests/fixtures/values` holds context and identity files; `tests/fixtures/guidance` has
//! a prompt with guidance fences and a flag, and one without fences.

use prompt_runtime::load::Project;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Runs `promptic` in the fixtures folder, so paths print as `good/greeting.md`.
fn promptic(args: &[&str]) -> Run {
    promptic_with(args, &[])
}

fn promptic_with(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_promptic"));
    command
        .args(args)
        .current_dir(fixtures())
        .env_remove("NO_COLOR");
    for (key, value) in env {
        command.env(key, value);
    }
    finish(command, args)
}

/// Runs the command to its end, or kills it after a minute: a command that hangs (walking
/// the whole disk, say) fails its test instead of stalling the suite.
fn finish(mut command: Command, args: &[&str]) -> Run {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the promptic binary runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("promptic {args:?} did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("output is UTF-8");
    Run {
        code: status.code().unwrap_or(-1),
        stdout: text(stdout.join().expect("stdout read")),
        stderr: text(stderr.join().expect("stderr read")),
    }
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// A fresh folder for written files, inside cargo's target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

// ---------------------------------------------------------------------------------- list

#[test]
fn list_shows_titles_schedules_and_variables_by_source() {
    let run = promptic(&["list", "--dir", "good"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_eq!(
        run.stdout,
        "\
agents/helper  Helper Agent
  context   task
  identity  preferred
greeting  Daily Greeting
  schedule  daily
  context   day, note (optional)
  identity  name, preferred, pronouns_object, pronouns_subject
  template  preamble, signoff
  literal   HOME
plain
unicode
"
    );
}

#[test]
fn dir_may_come_before_the_command() {
    let run = promptic(&["--dir", "good", "list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("agents/helper  Helper Agent\n"));
}

#[test]
fn list_json_has_one_object_per_prompt() {
    let run = promptic(&["list", "--dir", "good", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let all = json(&run.stdout);
    let names: Vec<&str> = all
        .as_array()
        .expect("an array")
        .iter()
        .map(|p| p["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["agents/helper", "greeting", "plain", "unicode"]);
    let greeting = &all[1];
    assert_eq!(greeting["path"], "good/greeting.md");
    assert_eq!(greeting["ok"], true);
    assert_eq!(greeting["title"], "Daily Greeting");
    assert_eq!(greeting["schedule"], "daily");
    assert_eq!(
        greeting["variables"],
        serde_json::json!({
            "context": [
                {"name": "day", "kind": "text", "at": "good/greeting.md:12:42"},
                {"name": "note", "kind": "optional", "at": "good/greeting.md:13:7"}
            ],
            "identity": ["name", "preferred", "pronouns_object", "pronouns_subject"],
            "template": ["preamble", "signoff"],
            "literal": ["HOME"]
        })
    );
    assert_eq!(greeting["metadata"]["owner"], "journal-team");
    assert!(greeting.get("error").is_none());
    // metadata keys keep the order of `Meta::KEYS`, extras last
    let start = run.stdout.find("\"name\": \"greeting\"").expect("greeting");
    let block = &run.stdout[start..];
    let block = &block[..block.find("\"name\": \"plain\"").expect("plain")];
    let order: Vec<usize> = [
        "\"title\"",
        "\"description\"",
        "\"color\"",
        "\"priority\"",
        "\"owner\"",
    ]
    .iter()
    .map(|k| block.find(k).expect("key present"))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{}", run.stdout);
    // a prompt without frontmatter: nulls, and the default color
    assert_eq!(all[2]["title"], Value::Null);
    assert_eq!(all[2]["metadata"], serde_json::json!({"color": "#6c757d"}));
}

#[test]
fn list_marks_broken_prompts_and_exits_1() {
    let run = promptic(&["list", "--dir", "broken"]);
    assert_eq!(run.code, 1);
    for expected in [
        "bad_color  Bad Color  BROKEN\n  error     frontmatter key `color` must be a hex color `#rrggbb`, found `\"teal\"`\n  at        broken/bad_color.md:3:12\n",
        "bad_json  BROKEN\n  error     malformed frontmatter JSON: trailing comma\n  at        broken/bad_json.md:4:1\n",
        "ok  Still Fine\n  identity  preferred\n  template  header\n",
        "typo  BROKEN\n  error     unknown directive `endfi` (and 1 more)\n  at        broken/typo.md:6:4\n",
        "unclosed  Unclosed  BROKEN\n",
    ] {
        assert!(
            run.stdout.contains(expected),
            "{expected}\nnot in\n{}",
            run.stdout
        );
    }
    assert!(
        run.stderr.starts_with(
            "error: 4 of 6 prompts are broken\n  = help: run `promptic check --dir broken`"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn list_json_of_a_broken_prompt_has_its_first_error() {
    let run = promptic(&["list", "--dir", "broken", "--json"]);
    assert_eq!(run.code, 1);
    let all = json(&run.stdout);
    let typo = all
        .as_array()
        .and_then(|a| a.iter().find(|p| p["name"] == "typo"))
        .expect("typo listed");
    assert_eq!(typo["ok"], false);
    assert_eq!(
        typo["error"],
        serde_json::json!({
            "message": "unknown directive `endfi`",
            "location": "broken/typo.md:6:4",
            "count": 2
        })
    );
    assert!(typo.get("variables").is_none());
}

// -------------------------------------------------------------------------------- render

const GREETING_SATURDAY: &str = "\
You are the journal assistant of Sam Lee (pronouns: she).

Say good morning to Sam. Today is Saturday.
Mention this note: the gym opens at nine
Files live under $HOME; the plan costs $5 a month.

Thank her by name: Sam.
";

#[test]
fn render_prints_the_text_and_one_newline() {
    let run = promptic(&[
        "render",
        "greeting",
        "--dir",
        "good",
        "--set",
        "day=Friday",
        "--identity",
        "values/journal.json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "\
You are the journal assistant of Sam Lee (pronouns: she).

Say good morning to Sam. Today is Friday.
Files live under $HOME; the plan costs $5 a month.

Thank her by name: Sam.
"
    );
    let plain = promptic(&["render", "plain", "--dir", "good"]);
    assert_eq!(plain.stdout, "hello world\n");
}

#[test]
fn render_takes_context_and_identity_files() {
    let run = promptic(&[
        "render",
        "greeting",
        "--dir",
        "good",
        "--context",
        "values/ctx.json",
        "--identity",
        "values/journal.json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, GREETING_SATURDAY);
    // a number in the context file is written as the file writes it
    let helper = promptic(&[
        "render",
        "agents/helper.md",
        "--dir",
        "good",
        "--context",
        "values/ctx.json",
        "--identity",
        "values/journal.json",
    ]);
    assert_eq!(helper.stdout, "Help Sam with this task: 42\n");
}

#[test]
fn set_wins_over_the_context_file_and_overrides_identity_keys() {
    let run = promptic(&[
        "render",
        "greeting",
        "--dir",
        "good",
        "--context",
        "values/ctx.json",
        "--set",
        "day=Sunday",
        "--set",
        "note=a=b",
        "--set",
        "preferred=sammy",
        "--identity",
        "values/journal.json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("Say good morning to Sammy. Today is Sunday.\nMention this note: a=b\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("Thank her by name: Sammy.\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn render_json_has_text_path_and_metadata_in_order() {
    let run = promptic(&[
        "render",
        "greeting",
        "--dir",
        "good",
        "--context",
        "values/ctx.json",
        "--identity",
        "values/journal.json",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = json(&run.stdout);
    // the exact text: no newline added inside the JSON
    assert_eq!(out["text"], GREETING_SATURDAY.trim_end_matches('\n'));
    assert_eq!(out["path"], "good/greeting.md");
    assert_eq!(out["metadata"]["color"], "#00bcd4");
    assert_eq!(out["metadata"]["priority"], 10);
    assert!(
        run.stdout.contains(
            "\"metadata\": {\n    \"title\": \"Daily Greeting\",\n    \"description\": \"Greets the user at the start of a day.\",\n    \"color\": \"#00bcd4\",\n    \"schedule\": \"daily\",\n    \"priority\": 10,\n    \"owner\": \"journal-team\"\n  }"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn render_json_shows_each_cache_breakpoint_with_a_stable_prefix_hash() {
    let dir = &scratch("breakpoints");
    let p = dir.join("p");
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(
        p.join("agent.md"),
        "You answer from the manual.\n{% cache_breakpoint %}\nThe customer is on the $plan plan.",
    )
    .unwrap();
    std::fs::write(
        p.join("review.md.j2"),
        "Report bugs first.\n{# cache_breakpoint #}\nReview {{ diff }}",
    )
    .unwrap();
    let render = |name: &str, set: &str| {
        let run = promptic_in(&p, &["render", name, "--set", set, "--json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        json(&run.stdout)["breakpoints"].clone()
    };
    let pro = render("agent", "plan=Pro");
    assert_eq!(pro[0]["offset"], "You answer from the manual.".len());
    assert_eq!(pro[0]["prefix_hash"].as_str().map(str::len), Some(16));
    assert!(
        pro[0].get("message").is_none(),
        "a text has no messages: {pro}"
    );
    // Another value after the breakpoint: the same prefix, the same hash.
    assert_eq!(render("agent", "plan=Basic"), pro);
    let review = render("review", "diff=+1");
    assert_eq!(review[0]["offset"], "Report bugs first.\n".len());

    // A value before the breakpoint is an error for `check` and `render` alike.
    std::fs::write(
        p.join("agent.md"),
        "Today is $day.\n{% cache_breakpoint %}\nThe customer is on the $plan plan.",
    )
    .unwrap();
    let check = promptic_in(&p, &["check"]);
    assert_eq!(check.code, 1, "{}", check.stdout);
    assert!(
        check
            .stderr
            .contains("`day` is a free-text context value, used before a cache breakpoint"),
        "{}",
        check.stderr
    );
}

#[test]
fn check_reports_a_name_two_formats_claim_once() {
    let dir = &scratch("two-formats");
    let p = dir.join("p");
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(p.join("note.md"), "Hello.").unwrap();
    std::fs::write(p.join("note.prompt"), "Hello {{who}}.").unwrap();
    let run = promptic_in(&p, &["check"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(run.stdout, "checked 1 prompt and 0 templates: 1 error\n");
    assert_eq!(
        run.stderr
            .matches("the prompt `note` has two files")
            .count(),
        1,
        "{}",
        run.stderr
    );
}

#[test]
fn missing_values_are_all_listed_in_one_error() {
    let run = promptic(&[
        "render",
        "greeting",
        "--dir",
        "good",
        "--identity",
        "values/thin.json",
    ]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: cannot render `greeting`: missing context values: `day`; missing identity keys: `preferred`, `pronouns_object`, `pronouns_subject`
  --> good/greeting.md:12:42
   |
12 | Say good morning to $Preferred. Today is $day.
   |                                          ^^^^
   = help: give values with `--set NAME=VALUE` or `--context FILE.json`, and add the identity keys to the identity file\n"
    );
}

#[test]
fn unknown_set_names_are_errors_with_a_suggestion() {
    let run = promptic(&[
        "render",
        "greeting",
        "--dir",
        "good",
        "--set",
        "day=Friday",
        "--set",
        "nto=x",
        "--set",
        "weather=rain",
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains(
            "error: prompt `greeting` uses no value named `nto` (from `--set nto=x`)\n  = help: did you mean `note`?\n"
        ),
        "{}",
        run.stderr
    );
    // every unknown name is reported, not only the first
    assert!(
        run.stderr.contains(
            "error: prompt `greeting` uses no value named `weather` (from `--set weather=rain`)\n  = help: its values are `day`, `note`, `name`, `preferred`, `pronouns_object`, `pronouns_subject`\n"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_misspelt_template_is_pointed_out_when_its_value_is_missing() {
    let run = promptic(&["render", "misspelt", "--dir", "broken"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("= note: `$headr` is read as a context value; did you mean `$header`?"),
        "{}",
        run.stderr
    );
}

#[test]
fn render_errors_for_bad_input() {
    let unknown = promptic(&["render", "greting", "--dir", "good"]);
    assert_eq!(unknown.code, 1);
    assert_eq!(
        unknown.stderr,
        "error: prompt file `good/greting.md` not found\n  = help: did you mean `greeting`?\n"
    );
    let broken = promptic(&["render", "typo", "--dir", "broken"]);
    assert_eq!(broken.code, 1);
    assert!(
        broken.stderr.contains(" --> broken/typo.md:6:4\n"),
        "{}",
        broken.stderr
    );
    let escape = promptic(&["render", "../good/plain", "--dir", "broken"]);
    assert_eq!(escape.code, 1);
    assert!(
        escape.stderr.contains("must stay inside `broken/`"),
        "{}",
        escape.stderr
    );
    let no_dir = promptic(&["render", "greeting", "--dir", "nowhere"]);
    assert_eq!(no_dir.code, 1);
    assert!(
        no_dir
            .stderr
            .starts_with("error: the prompts folder `nowhere` does not exist")
    );
    let no_file = promptic(&[
        "render",
        "greeting",
        "--dir",
        "good",
        "--context",
        "values/none.json",
    ]);
    assert_eq!(no_file.code, 1);
    assert!(
        no_file
            .stderr
            .starts_with("error: cannot read the context `values/none.json`")
    );
    let not_json = promptic(&[
        "render",
        "greeting",
        "--dir",
        "good",
        "--identity",
        "good/plain.md",
    ]);
    assert_eq!(not_json.code, 1);
    assert!(
        not_json
            .stderr
            .starts_with("error: cannot use identity `good/plain.md`: malformed identity JSON"),
        "{}",
        not_json.stderr
    );
}

#[test]
fn usage_errors_exit_2() {
    let bad_set = promptic(&["render", "greeting", "--dir", "good", "--set", "day"]);
    assert_eq!(bad_set.code, 2);
    assert!(
        bad_set.stderr.contains("expected NAME=VALUE"),
        "{}",
        bad_set.stderr
    );
    assert_eq!(promptic(&["render"]).code, 2);
    assert_eq!(promptic(&["frobnicate"]).code, 2);
    assert_eq!(
        promptic(&["tokens", "plain", "--encoding", "p50k_base"]).code,
        2
    );
    assert_eq!(
        promptic(&["docs", "--dir", "good"]).code,
        2,
        "--out is required"
    );
}

// --------------------------------------------------------------------------------- check

#[test]
fn check_of_a_clean_folder_exits_0() {
    let run = promptic(&["check", "--dir", "good"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout, "checked 4 prompts and 2 templates: no errors\n");
}

#[test]
fn check_prints_every_diagnostic_as_the_language_formats_it() {
    let run = promptic(&["check", "--dir", "broken"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "checked 6 prompts and 2 templates: 6 errors, 1 warning\n"
    );
    for at in [
        " --> broken/bad_color.md:3:12\n",
        " --> broken/bad_json.md:4:1\n",
        " --> broken/typo.md:6:4\n",
        " --> broken/typo.md:4:1\n",
        " --> broken/unclosed.md:6:1\n",
        // a template no prompt includes is checked too
        " --> broken/templates/footer.md:1:14\n",
        // the warning for a context name that looks like a misspelt template
        " --> broken/misspelt.md:1:1\n",
    ] {
        assert!(run.stderr.contains(at), "{at} not in\n{}", run.stderr);
    }
    // exactly the text of the runtime's Diagnostic, which the macro prints too
    let project = Project::open(&fixtures().join("broken"), "broken").expect("opens");
    for name in ["bad_color", "bad_json", "typo", "unclosed"] {
        let problems = project.check_inferred(name).expect_err("broken");
        for d in problems.0 {
            assert!(
                run.stderr.contains(&format!("{d}\n")),
                "{d}\nnot in\n{}",
                run.stderr
            );
        }
    }
    assert!(run.stderr.contains(
        "error: frontmatter key `color` must be a hex color `#rrggbb`, found `\"teal\"`\n --> broken/bad_color.md:3:12\n  |\n3 |   \"color\": \"teal\"\n  |            ^^^^^^\n  = help: write `#` and six hex digits, e.g. `\"color\": \"#00bcd4\"`\n"
    ), "{}", run.stderr);
    assert!(run.stderr.contains(
        "warning: `$headr` is not a template, an identity key or a literal, so it is read as a context value\n --> broken/misspelt.md:1:1\n  |\n1 | $headr\n  | ^^^^^^\n  = help: did you mean `$header`?\n"
    ), "{}", run.stderr);
    // diagnostics are separated by one blank line
    assert_eq!(
        run.stderr.matches("\n\nerror: ").count(),
        5,
        "{}",
        run.stderr
    );
}

#[test]
fn a_broken_configuration_stops_the_check() {
    let dir = scratch("bad-config");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    std::fs::write(dir.join("promptic.json"), "{\n  \"template\": \"t\"\n}\n").expect("write");
    let shown = dir.to_string_lossy().into_owned();
    let run = promptic(&["check", "--dir", &shown]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("unknown key `template`"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.starts_with("could not open"), "{}", run.stdout);
}

#[test]
fn output_has_no_escape_codes_off_a_terminal_or_with_no_color() {
    for env in [&[][..], &[("NO_COLOR", "1")][..]] {
        for args in [
            &["check", "--dir", "broken"][..],
            &["list", "--dir", "broken"][..],
            &["render", "greeting", "--dir", "good"][..],
            &[
                "diff",
                "analyst",
                "--dir",
                "guidance",
                "--set",
                "day=Monday",
                "--guidance",
            ][..],
        ] {
            let run = promptic_with(args, env);
            assert!(!run.stderr.contains('\x1b'), "{args:?}: {}", run.stderr);
            assert!(!run.stdout.contains('\x1b'), "{args:?}: {}", run.stdout);
        }
    }
}

// ---------------------------------------------------------------------------------- docs

#[test]
fn docs_writes_an_index_and_a_page_per_prompt() {
    let out = scratch("docs-good");
    let shown = out.to_string_lossy().into_owned();
    let run = promptic(&["docs", "--dir", "good", "--out", &shown]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!("wrote 4 pages and index.md to {shown}\n")
    );
    let read = |page: &str| std::fs::read_to_string(out.join(page)).expect(page);

    let index = read("index.md");
    for line in [
        "| [agents/helper](agents/helper.md) | Helper Agent |  |  |",
        "| [greeting](greeting.md) | Daily Greeting | daily | Greets the user at the start of a day. |",
        "| `preamble` | `good/templates/preamble.md` | [greeting](greeting.md) |",
    ] {
        assert!(index.contains(line), "{line}\nnot in\n{index}");
    }

    let greeting = read("greeting.md");
    for part in [
        "[← all prompts](index.md)\n\n# Daily Greeting\n\n`greeting` · `good/greeting.md`\n\nGreets the user at the start of a day.\n",
        // Keys and values are code spans, so no value is read as Markdown; text extras unquoted.
        "| `color` | `#00bcd4` |\n| `schedule` | `daily` |\n| `priority` | `10` |\n| `owner` | `journal-team` |\n",
        "A caller passes: `day`, `note` (optional).",
        "| `$Preferred` | identity | `good/greeting.md:12:21`, `good/templates/signoff.md:1:33` |",
        "| `$HOME` | literal | `good/greeting.md:16:18` |",
        "- `preamble` (`good/templates/preamble.md`)\n- `signoff` (`good/templates/signoff.md`)\n",
        "## Source\n\n```markdown\n{\n  \"title\": \"Daily Greeting\",",
        "$signoff\n```\n",
    ] {
        assert!(greeting.contains(part), "{part}\nnot in\n{greeting}");
    }

    let helper = read("agents/helper.md");
    assert!(
        helper.starts_with("[← all prompts](../index.md)\n\n# Helper Agent\n"),
        "{helper}"
    );
    assert!(helper.contains("| `type` | `agent` |"), "{helper}");
}

#[test]
fn docs_of_broken_prompts_show_their_problems_and_exit_1() {
    let out = scratch("docs-broken");
    let shown = out.to_string_lossy().into_owned();
    let run = promptic(&["docs", "--dir", "broken", "--out", &shown]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.starts_with("error: 4 of 6 prompts are broken"),
        "{}",
        run.stderr
    );
    let page = std::fs::read_to_string(out.join("typo.md")).expect("page written");
    assert!(
        page.contains("**This prompt does not pass its checks** (first at `broken/typo.md:6:4`)"),
        "{page}"
    );
    assert!(
        page.contains("```text\nerror: unknown directive `endfi`\n"),
        "{page}"
    );
    assert!(
        page.contains("## Source\n\n```markdown\n$headr\n"),
        "{page}"
    );
    let index = std::fs::read_to_string(out.join("index.md")).expect("index written");
    assert!(
        index.contains("| [bad_color](bad_color.md) | Bad Color **(broken)** |"),
        "{index}"
    );
}

// -------------------------------------------------------------------------------- tokens

#[test]
fn tokens_counts_with_both_encodings() {
    for encoding in ["o200k_base", "cl100k_base"] {
        let run = promptic(&["tokens", "plain", "--dir", "good", "--encoding", encoding]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.stdout,
            format!("plain: 2 tokens ({encoding}), 11 bytes, 11 chars\n")
        );
    }
    let default = promptic(&["tokens", "plain", "--dir", "good"]);
    assert!(
        default.stdout.contains("(o200k_base)"),
        "{}",
        default.stdout
    );
}

#[test]
fn tokens_of_non_ascii_text_differ_between_encodings() {
    let count = |encoding: &str| {
        let run = promptic(&[
            "tokens",
            "unicode",
            "--dir",
            "good",
            "--encoding",
            encoding,
            "--json",
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let out = json(&run.stdout);
        assert_eq!(out["name"], "unicode");
        assert_eq!(out["encoding"], encoding);
        assert_eq!(out["bytes"], 72);
        assert_eq!(out["chars"], 49);
        out["tokens"].as_u64().expect("a count")
    };
    let (o200k, cl100k) = (count("o200k_base"), count("cl100k_base"));
    assert!(o200k > 0 && cl100k > 0);
    assert_ne!(o200k, cl100k);
    assert!(
        o200k < cl100k,
        "the larger vocabulary needs fewer tokens here"
    );
}

#[test]
fn tokens_takes_the_render_options() {
    let run = promptic(&[
        "tokens",
        "greeting",
        "--dir",
        "good",
        "--context",
        "values/ctx.json",
        "--set",
        "day=Monday",
        "--identity",
        "values/journal.json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("greeting: "), "{}", run.stdout);
    let missing = promptic(&["tokens", "greeting", "--dir", "good"]);
    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.contains("missing context values: `day`"),
        "{}",
        missing.stderr
    );
}

// ---------------------------------------------------------------------------------- help

#[test]
fn every_command_has_help_with_an_example() {
    for command in ["list", "render", "check", "diff", "docs", "tokens", "store"] {
        let run = promptic(&[command, "--help"]);
        assert_eq!(run.code, 0, "{command}");
        assert!(
            run.stdout.contains("Example:\n  promptic "),
            "{command}: {}",
            run.stdout
        );
    }
    let top = promptic(&["--help"]);
    assert_eq!(top.code, 0);
    assert!(top.stdout.contains("Example:"), "{}", top.stdout);
}

/// The subcommands as `promptic --help` lists them, `help` left out.
fn subcommands() -> Vec<String> {
    let top = promptic(&["--help"]);
    let listed = top
        .stdout
        .split_once("Commands:\n")
        .expect("a Commands section")
        .1;
    let names: Vec<String> = listed
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect();
    assert!(names.len() >= 7, "{}", top.stdout);
    names
}

#[test]
fn the_blurb_and_the_readmes_name_every_subcommand() {
    let top = promptic(&["--help"]);
    let blurb = top.stdout.lines().next().unwrap_or_default();
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_ascii_alphanumeric())
            .map(str::to_owned)
            .collect()
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    // The README's command-line section, up to the next section.
    let layout = readme
        .split("\n## ")
        .find(|section| section.starts_with("The command line"))
        .expect("the README has a section `## The command line`");
    let cli_readme =
        std::fs::read_to_string(root.join("promptic-cli/README.md")).expect("CLI README");
    for name in subcommands() {
        assert!(
            words(blurb).contains(&name),
            "`--help` blurb lacks `{name}`: {blurb}"
        );
        assert!(
            words(layout).contains(&name),
            "the README's command-line section lacks `{name}`: {layout}"
        );
        assert!(
            cli_readme.contains(&format!("## `promptic {name}")),
            "promptic-cli/README.md has no section for `{name}`"
        );
    }
}

#[test]
fn a_tested_value_given_a_false_word_is_off_as_a_bool_field_would_be() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../prompts");
    let journal = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/journal.json");
    let render = |extra: &[&str]| {
        let mut args = vec![
            "render",
            "agents/journal_assistant",
            "--dir",
            dir,
            "--identity",
            journal,
            "--set",
            "now=noon",
        ];
        args.extend(extra);
        let run = promptic(&args);
        assert_eq!(run.code, 0, "{extra:?}: {}", run.stderr);
        run.stdout
    };
    let absent = render(&[]);
    assert!(!absent.contains("## Verbose mode"));
    for off in ["false", "False", "FALSE", "0", "no", "No", "off", "OFF", ""] {
        let set = format!("verbose={off}");
        assert_eq!(render(&["--set", &set]), absent, "{set}");
    }
    for on in ["true", "True", "1", "yes", "ON"] {
        let set = format!("verbose={on}");
        assert!(
            render(&["--set", &set]).contains("## Verbose mode"),
            "{set}"
        );
    }
    // the same words in a context file, as JSON booleans, numbers or strings
    let files = &scratch("flag-context");
    std::fs::create_dir_all(files).unwrap();
    for (json, shown) in [
        ("false", false),
        ("\"No\"", false),
        ("0", false),
        ("\"\"", false),
        ("true", true),
        ("\"on\"", true),
    ] {
        let path = files.join("ctx.json");
        std::fs::write(&path, format!("{{\"verbose\": {json}}}")).unwrap();
        let out = render(&["--context", path.to_str().unwrap()]);
        assert_eq!(out.contains("## Verbose mode"), shown, "{json}");
    }
}

#[test]
fn a_flag_given_anything_but_a_flag_word_is_an_error_that_lists_them() {
    let dir = &scratch("flag-words");
    std::fs::create_dir_all(dir.join("p")).unwrap();
    // tested and written: a flag
    std::fs::write(
        dir.join("p/f.md"),
        "Verbose: $verbose\n{% if verbose %}\nMore.\n{% endif %}",
    )
    .unwrap();
    let p = dir.join("p");
    let run = promptic_in(&p, &["render", "f", "--set", "verbose=No"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "Verbose: false\n");
    let run = promptic_in(&p, &["render", "f", "--set", "verbose=YES"]);
    assert_eq!(run.stdout, "Verbose: true\nMore.\n");
    for bad in ["maybe", ""] {
        let set = format!("verbose={bad}");
        let run = promptic_in(&p, &["render", "f", "--set", &set]);
        assert_eq!(run.code, 1, "{set}: {}", run.stdout);
        assert_eq!(
            run.stderr,
            format!(
                "error: cannot render `f`: `verbose` is a flag: give `true`/`false`, `yes`/`no`, `on`/`off` or `1`/`0` (in any case), not {bad:?}\n  = help: give a value that fits, with `--set NAME=VALUE` or in the context file\n"
            )
        );
    }
    std::fs::write(dir.join("ctx.json"), r#"{"verbose": "sometimes"}"#).unwrap();
    let ctx = dir.join("ctx.json");
    let run = promptic_in(&p, &["render", "f", "--context", ctx.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("`verbose` is a flag: give `true`/`false`"),
        "{}",
        run.stderr
    );
}

#[test]
fn docs_refuse_a_prompt_named_index_before_writing() {
    let dir = &scratch("index");
    std::fs::create_dir_all(dir.join("p")).unwrap();
    std::fs::write(dir.join("p/index.md"), "Home.").unwrap();
    std::fs::write(dir.join("p/other.md"), "Other.").unwrap();
    let out = dir.join("out");
    let run = promptic(&[
        "docs",
        "--dir",
        dir.join("p").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("would have the same page as the index"),
        "{}",
        run.stderr
    );
    assert!(!out.exists());
}

#[test]
fn context_numbers_keep_the_text_the_file_gives_them() {
    let dir = &scratch("numbers");
    std::fs::create_dir_all(dir.join("p")).unwrap();
    std::fs::write(dir.join("p/n.md"), "$a $b $c").unwrap();
    std::fs::write(
        dir.join("ctx.json"),
        r#"{"a": 1e3, "b": 1e400, "c": 123456789012345678901234}"#,
    )
    .unwrap();
    let run = promptic(&[
        "render",
        "n",
        "--dir",
        dir.join("p").to_str().unwrap(),
        "--context",
        dir.join("ctx.json").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "1e3 1e400 123456789012345678901234\n");
}

#[test]
fn docs_refuse_an_output_folder_inside_the_prompts_or_a_file() {
    let dir = &scratch("out");
    std::fs::create_dir_all(dir.join("p")).unwrap();
    std::fs::write(dir.join("p/a.md"), "A.").unwrap();
    std::fs::write(dir.join("file"), "").unwrap();
    let p = dir.join("p");
    for out in [p.clone(), p.join("docs")] {
        let run = promptic(&[
            "docs",
            "--dir",
            p.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.stderr.contains("is inside the prompts folder"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(std::fs::read_to_string(p.join("a.md")).unwrap(), "A.");
    assert!(!p.join("docs").exists() && !p.join("index.md").exists());
    let run = promptic(&[
        "docs",
        "--dir",
        p.to_str().unwrap(),
        "--out",
        dir.join("file").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("is a file, not a folder"),
        "{}",
        run.stderr
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_to_stdout_is_an_error() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(["list", "--dir", "good"])
        .current_dir(fixtures())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot write to stdout"));
}

#[test]
fn identity_and_context_files_are_read_like_prompts_and_explained() {
    let dir = &scratch("files");
    std::fs::create_dir_all(dir.join("p")).unwrap();
    std::fs::write(dir.join("p/a.md"), "Hi $preferred in $timezone").unwrap();
    std::fs::write(
        dir.join("p/promptic.json"),
        r#"{"identity": {"preferred": "P"}}"#,
    )
    .unwrap();
    // a BOM and CRLF, as an editor on Windows saves them
    std::fs::write(
        dir.join("id.json"),
        b"\xef\xbb\xbf{\"preferred\": \"Q\",\r\n\"timezone\": \"UTC\"}",
    )
    .unwrap();
    std::fs::write(dir.join("ctx.json"), b"\xef\xbb\xbf{\"timezone\": \"CET\"}").unwrap();
    std::fs::write(dir.join("bad.json"), b"{\"timezone\": \"\xff\"}").unwrap();
    let p = dir.join("p");
    let p = p.to_str().unwrap();
    let file = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    // `timezone` is in the identity file but not declared in promptic.json: say so
    let run = promptic(&["render", "a", "--dir", p, "--identity", &file("id.json")]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("`timezone` is in the identity given, but"),
        "{}",
        run.stderr
    );
    let run = promptic(&[
        "render",
        "a",
        "--dir",
        p,
        "--identity",
        &file("id.json"),
        "--context",
        &file("ctx.json"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "Hi Q in CET\n");
    let run = promptic(&["render", "a", "--dir", p, "--context", &file("bad.json")]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("invalid byte 0xff at byte offset 14"),
        "{}",
        run.stderr
    );
}

// --------------------------------------------------------------------- folder problems

/// `promptic ARGS --dir DIR` with DIR a scratch folder.
fn promptic_in(dir: &Path, args: &[&str]) -> Run {
    let mut all = args.to_vec();
    let dir = dir.to_str().expect("a UTF-8 path");
    all.extend(["--dir", dir]);
    promptic(&all)
}

#[cfg(unix)]
#[test]
fn folder_links_out_of_the_folder_are_one_warning_each_and_not_walked() {
    let dir = &scratch("links-out");
    let p = dir.join("p");
    std::fs::create_dir_all(p.join("agents")).unwrap();
    std::fs::write(p.join("a.md"), "A").unwrap();
    std::fs::write(p.join("agents/helper.md"), "Help.").unwrap();
    // what the links below would bring in if followed
    std::fs::write(dir.join("outside.md"), "Outside $x").unwrap();
    std::os::unix::fs::symlink("/", p.join("root")).unwrap();
    std::os::unix::fs::symlink("..", p.join("loop")).unwrap();
    // a link that stays inside: its prompt is listed once, under its own name
    std::os::unix::fs::symlink("agents", p.join("a_alias")).unwrap();

    let check = promptic_in(&p, &["check"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert_eq!(
        check.stdout,
        "checked 2 prompts and 0 templates: no errors, 2 warnings\n"
    );
    let shown = p.display();
    for link in ["loop", "root"] {
        let message = format!("warning: the folder link `{shown}/{link}` leads outside `{shown}/`");
        assert_eq!(
            check.stderr.matches(&message).count(),
            1,
            "{}",
            check.stderr
        );
        assert!(
            check.stderr.contains(&format!(" --> {shown}/{link}\n")),
            "{}",
            check.stderr
        );
    }
    assert!(check.stderr.contains("(to `/`), so it is not followed"));
    assert_eq!(
        check.stderr.matches("warning:").count(),
        2,
        "{}",
        check.stderr
    );
    assert!(!check.stderr.contains("error"), "{}", check.stderr);

    let list = promptic_in(&p, &["list"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert_eq!(list.stdout, "a\nagents/helper\n");
    assert_eq!(
        list.stderr.matches("warning:").count(),
        2,
        "{}",
        list.stderr
    );

    // the link inside still names its prompt
    let render = promptic_in(&p, &["render", "a_alias/helper"]);
    assert_eq!(render.code, 0, "{}", render.stderr);
    assert_eq!(render.stdout, "Help.\n");
}

#[test]
fn a_template_whose_name_is_no_placeholder_is_reported_once_and_the_rest_works() {
    let dir = &scratch("bad-template-name");
    let p = dir.join("p");
    std::fs::create_dir_all(p.join("templates")).unwrap();
    std::fs::write(p.join("templates/é.md"), "accent").unwrap();
    std::fs::write(p.join("templates/sign.md"), "-- $preferred").unwrap();
    std::fs::write(p.join("a.md"), "Hello $day.\n$sign").unwrap();
    std::fs::write(p.join("b.md"), "Plain.").unwrap();
    let message = "template `{}/templates/é.md` cannot be used: `é` is not a placeholder name"
        .replace("{}", &p.display().to_string());

    // check: the folder has a problem, so exit 1, but every prompt is checked
    let check = promptic_in(&p, &["check"]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    assert_eq!(check.stdout, "checked 2 prompts and 1 template: 1 error\n");
    assert_eq!(
        check.stderr.matches(&message).count(),
        1,
        "{}",
        check.stderr
    );
    assert!(
        check
            .stderr
            .starts_with(&format!("error: {message}\n --> ")),
        "{}",
        check.stderr
    );
    assert!(
        check
            .stderr
            .contains("= help: rename it `e.md` and use it as `$e`"),
        "{}",
        check.stderr
    );

    // list, render and docs work and warn once
    let list = promptic_in(&p, &["list"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert!(
        list.stdout.starts_with("a\n  context   day\n"),
        "{}",
        list.stdout
    );
    assert!(list.stdout.contains("\nb\n"), "{}", list.stdout);
    assert_eq!(list.stderr.matches(&message).count(), 1, "{}", list.stderr);
    assert!(list.stderr.starts_with("warning: "), "{}", list.stderr);

    let render = promptic_in(
        &p,
        &[
            "render",
            "a",
            "--set",
            "day=Monday",
            "--set",
            "preferred=Sam",
        ],
    );
    assert_eq!(render.code, 0, "{}", render.stderr);
    assert_eq!(render.stdout, "Hello Monday.\n-- Sam\n");
    assert_eq!(
        render.stderr.matches(&message).count(),
        1,
        "{}",
        render.stderr
    );

    let out = dir.join("docs");
    let docs = promptic_in(&p, &["docs", "--out", out.to_str().unwrap()]);
    assert_eq!(docs.code, 0, "{}", docs.stderr);
    assert!(out.join("b.md").is_file());
}

// ---------------------------------------------------------------------- identity values

#[test]
fn without_identity_the_example_identity_gives_keys_but_never_values() {
    let run = promptic(&["render", "greeting", "--dir", "good", "--set", "day=Friday"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: cannot render `greeting`: missing identity keys: `name`, `preferred`, `pronouns_object`, `pronouns_subject`\n  = help: give an identity with `--identity FILE.json` (solstone's `journal.json` will do), or single keys with `--set NAME=VALUE`\n  = note: the example identity in `good/promptic.json` only declares which identity keys exist; its values are never rendered\n"
    );
    let tokens = promptic(&["tokens", "greeting", "--dir", "good", "--set", "day=Friday"]);
    assert_eq!(tokens.code, 1);
    assert!(
        tokens.stderr.contains("missing identity keys: `name`"),
        "{}",
        tokens.stderr
    );
    // a prompt that uses no identity key renders as before
    let plain = promptic(&["render", "plain", "--dir", "good"]);
    assert_eq!((plain.code, plain.stdout.as_str()), (0, "hello world\n"));
}

#[test]
fn without_promptic_json_the_default_identity_keys_have_no_values_either() {
    let dir = &scratch("no-config");
    std::fs::create_dir_all(dir.join("p")).unwrap();
    std::fs::write(dir.join("p/hi.md"), "Hi $name ($Pronouns_subject).").unwrap();
    let p = dir.join("p");
    let run = promptic_in(&p, &["render", "hi"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr.starts_with(
            "error: cannot render `hi`: missing identity keys: `name`, `pronouns_subject`\n"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("= note: with no `promptic.json`, the identity keys are solstone's"),
        "{}",
        run.stderr
    );
    // values given one by one are used
    let run = promptic_in(
        &p,
        &[
            "render",
            "hi",
            "--set",
            "name=Ana",
            "--set",
            "pronouns_subject=she",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "Hi Ana (She).\n");
    // An identity that spells a key otherwise is pointed out.
    let id = dir.join("id.json");
    std::fs::write(&id, r#"{"nmae": "Ana", "pronouns": {"subject": "she"}}"#).unwrap();
    let run = promptic_in(&p, &["render", "hi", "--identity", id.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr.ends_with(
            "  = note: the identity has `nmae`, not `name`: did you mean to write `name`?\n"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_yaml_frontmatter_is_an_error_showing_its_json_form() {
    let dir = &scratch("yaml");
    let p = dir.join("p");
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(
        p.join("daily.md"),
        "---\ntitle: Daily Summary\npriority: 10\n---\n\nSummarize $day.\n",
    )
    .unwrap();
    std::fs::write(p.join("ok.md"), "Fine.").unwrap();
    let shown = p.display();
    let check = promptic_in(&p, &["check"]);
    assert_eq!(check.code, 1);
    assert_eq!(check.stdout, "checked 2 prompts and 0 templates: 1 error\n");
    assert_eq!(
        check.stderr,
        format!(
            "error: YAML frontmatter is not supported: promptic reads JSON frontmatter\n --> {shown}/daily.md:1:1\n  |\n1 | ---\n  | ^^^\n  = help: write it as JSON, the first line exactly `{{` and the last exactly `}}`:\n{{\n  \"title\": \"Daily Summary\",\n  \"priority\": 10\n}}\n  = note: as written, lines 1 to 4 would be sent to the model as prompt text; if the `---` lines are meant as text, start the file with a blank line\n"
        )
    );
    // the YAML never reaches the text
    let render = promptic_in(&p, &["render", "daily", "--set", "day=Monday"]);
    assert_eq!((render.code, render.stdout.as_str()), (1, ""));
    assert!(render.stderr.contains(&format!("--> {shown}/daily.md:1:1")));
    let ok = promptic_in(&p, &["render", "ok"]);
    assert_eq!((ok.code, ok.stdout.as_str()), (0, "Fine.\n"));
    let list = promptic_in(&p, &["list"]);
    assert_eq!(list.code, 1);
    assert!(
        list.stdout
            .starts_with("daily  BROKEN\n  error     YAML frontmatter is not supported"),
        "{}",
        list.stdout
    );
    assert!(
        list.stderr.starts_with("error: 1 of 2 prompts is broken\n"),
        "{}",
        list.stderr
    );
}

// ------------------------------------------------------------------------------- READMEs

/// Splits a command line as a shell would here: at spaces, with `"…"` grouping.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, started) = (!quoted, true),
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            c => (word.push(c), started = true).1,
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// Every `$ promptic …` line of the fenced blocks of `text` that `keep` accepts (by the
/// heading above them and the block's number under it, from 0), with the output printed
/// under it.
fn readme_commands(text: &str, keep: impl Fn(&str, usize) -> bool) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    let (mut heading, mut block, mut fenced, mut current) = ("", 0, false, None::<usize>);
    for line in text.lines() {
        if line.starts_with("```") {
            if fenced {
                block += 1;
            }
            fenced = !fenced;
            current = None;
            continue;
        }
        if !fenced {
            if line.starts_with('#') {
                (heading, block) = (line, 0);
            }
            continue;
        }
        if let Some(command) = line.strip_prefix("$ promptic ") {
            current = keep(heading, block).then(|| {
                found.push((command.to_owned(), String::new()));
                found.len() - 1
            });
        } else if line.starts_with("$ ") {
            current = None;
        } else if let Some(i) = current {
            found[i].1.push_str(line);
            found[i].1.push('\n');
        }
    }
    // a blank line between two commands is not output
    for (_, output) in &mut found {
        let kept = output.trim_end_matches('\n').len();
        output.truncate(kept);
        if kept > 0 {
            output.push('\n');
        }
    }
    found
}

/// Runs `promptic ARGS` in `dir` with stdout and stderr in one pipe, as a terminal shows
/// them; killed after a minute.
fn promptic_merged(dir: &Path, args: &[&str]) -> String {
    use std::io::Read;
    use std::time::{Duration, Instant};
    let (mut reader, writer) = std::io::pipe().expect("a pipe");
    let mut command = Command::new(env!("CARGO_BIN_EXE_promptic"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdout(writer.try_clone().expect("a pipe"))
        .stderr(writer);
    let mut child = command.spawn().expect("the promptic binary runs");
    // the parent's ends of the pipe must close, or the read below never ends
    drop(command);
    let read = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = reader.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("promptic {args:?} did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    read.join().expect("output read")
}

/// Runs each command in `dir` and compares what it prints with the README: exactly, or,
/// where the README abridges with a `...` line, part by part in order.
fn check_readme(readme: &Path, dir: &Path, keep: impl Fn(&str, usize) -> bool) -> usize {
    let text = std::fs::read_to_string(readme).expect("README");
    // `docs` writes files: its test is above
    let commands: Vec<_> = readme_commands(&text, keep)
        .into_iter()
        .filter(|(command, _)| !command.starts_with("docs "))
        .collect();
    let readme = readme.display();
    for (command, expected) in &commands {
        let words = shell_words(command);
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let printed = promptic_merged(dir, &args);
        let parts: Vec<&str> = expected.split("...\n").collect();
        if parts.len() == 1 {
            assert_eq!(printed, *expected, "`promptic {command}` in {readme}");
            continue;
        }
        let mut rest = printed.as_str();
        for part in parts.iter().filter(|p| !p.is_empty()) {
            let at = rest.find(part).unwrap_or_else(|| {
                panic!("`promptic {command}` in {readme}: {part:?}\nnot in\n{printed}")
            });
            rest = &rest[at + part.len()..];
        }
    }
    commands.len()
}

#[test]
fn the_book_commands_print_what_the_book_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let ran = check_readme(&root.join("docs/src/cli.md"), &root, |_, _| true);
    assert!(
        ran >= 7,
        "the command-line chapter's transcripts were not found"
    );
}

#[test]
fn the_cli_readme_commands_print_what_it_shows() {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    // `store export|import|reset` write to a user folder: `tests/store.rs` runs them in
    // temporary folders
    let ran = check_readme(&readme, &fixtures(), |heading, _| {
        !heading.starts_with("## `promptic store ")
    });
    assert!(ran >= 10, "the README's commands were not found");
}

#[test]
fn problems_in_value_files_point_at_their_line_and_column() {
    let dir = &scratch("value-files");
    std::fs::create_dir_all(dir.join("p")).unwrap();
    std::fs::write(dir.join("p/a.md"), "$a $b").unwrap();
    std::fs::write(dir.join("list.json"), "{\"a\": [1],\n \"b\": \"x\"}").unwrap();
    std::fs::write(dir.join("broken.json"), "{\"a\": 1,\n \"b\": x}").unwrap();
    let p = dir.join("p");
    let file = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let shown = |name: &str| dir.join(name).display().to_string();
    let run = promptic_in(&p, &["render", "a", "--context", &file("list.json")]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!(
            "error: context value `a` in `{0}` must be a string, a number, a boolean or null\n --> {0}:1:7\n  |\n1 | {{\"a\": [1],\n  |       ^^^\n  = help: a placeholder takes one line of text; join lists before rendering\n",
            shown("list.json")
        )
    );
    let run = promptic_in(&p, &["render", "a", "--context", &file("broken.json")]);
    assert!(
        run.stderr.starts_with(&format!(
            "error: `{0}` is not valid JSON: expected value\n --> {0}:2:7\n",
            shown("broken.json")
        )),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("= help: "), "{}", run.stderr);
    let run = promptic_in(&p, &["render", "a", "--identity", &file("broken.json")]);
    assert!(
        run.stderr.starts_with(&format!(
            "error: cannot use identity `{0}`: malformed identity JSON: expected value\n --> {0}:2:7\n",
            shown("broken.json")
        )),
        "{}",
        run.stderr
    );
    let run = promptic_in(&p, &["render", "a", "--identity", &file("none.json")]);
    assert!(
        run.stderr
            .contains("= help: the path is read from the folder the command runs in"),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------------- chat

/// A folder with one chat prompt: a preamble, a system section, a history, a question.
fn chat_folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("agent.md"),
        "You help.\n\n{% system context %}\nToday is $day.\n\n{% history turns limit=2 %}\n\n{% user question %}\n$question\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("turns.json"),
        r#"[{"role": "user", "content": "one"}, {"role": "assistant", "content": "two"}, {"role": "user", "content": "three"}]"#,
    )
    .unwrap();
    dir
}

#[test]
fn render_prints_a_chat_prompts_messages_under_their_sections() {
    let dir = chat_folder("chat_render");
    let turns = dir.join("turns.json");
    let turns = turns.to_str().unwrap();
    let args = [
        "render",
        "agent",
        "--set",
        "day=Friday",
        "--set",
        "question=Why?",
        "--history",
        turns,
    ];
    let run = promptic_in(&dir, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Section: system_prompt | role=system\nYou help.\n\n\
         Section: context | role=system\nToday is Friday.\n\n\
         Section: turns | role=assistant\ntwo\n\n\
         Section: turns | role=user\nthree\n\n\
         Section: question | role=user\nWhy?\n"
    );
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let run = promptic_in(&dir, &json_args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["messages"].as_array().unwrap().len(), 5);
    assert_eq!(
        json["messages"][4],
        serde_json::json!({"role": "user", "content": "Why?"})
    );
    assert!(json["path"].as_str().unwrap().ends_with("agent.md"));
    // Without a history the history section is simply empty.
    let run = promptic_in(
        &dir,
        &["render", "agent", "--set", "day=F", "--set", "question=Q"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("Section: turns"));
    // The history section's messages by its name in a context file, as any value.
    std::fs::write(
        dir.join("context.json"),
        format!(
            r#"{{"day": "Friday", "question": "Why?", "turns": {}}}"#,
            std::fs::read_to_string(dir.join("turns.json")).unwrap()
        ),
    )
    .unwrap();
    let context = dir.join("context.json");
    let run = promptic_in(
        &dir,
        &["render", "agent", "--context", context.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, promptic_in(&dir, &args).stdout);
    std::fs::write(
        dir.join("bad.json"),
        r#"{"day": "F", "question": "Q", "turns": [{"role": "usr", "content": "x"}]}"#,
    )
    .unwrap();
    let bad = dir.join("bad.json");
    let bad = bad.to_str().unwrap();
    let run = promptic_in(&dir, &["render", "agent", "--context", bad]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.starts_with(&format!("error: the value `turns` (from the key `turns` of `{bad}`) is not a list of chat messages: unknown variant `usr`, expected one of `system`, `user`, `assistant`, `tool`\n --> {bad}:1:40\n")),
        "{}",
        run.stderr
    );
}

#[test]
fn tokens_of_a_chat_prompt_sum_its_messages_and_say_so() {
    let dir = chat_folder("chat_tokens");
    let turns = dir.join("turns.json");
    let turns = turns.to_str().unwrap();
    let run = promptic_in(
        &dir,
        &[
            "tokens",
            "agent",
            "--set",
            "day=Friday",
            "--set",
            "question=Why?",
            "--history",
            turns,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with("the contents of 5 messages summed\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_bad_history_file_is_an_error_in_the_file() {
    let dir = chat_folder("chat_bad_history");
    std::fs::write(
        dir.join("bad.json"),
        r#"[{"role": "robot", "content": "x"}]"#,
    )
    .unwrap();
    let bad = dir.join("bad.json");
    let bad = bad.to_str().unwrap();
    let run = promptic_in(
        &dir,
        &[
            "render",
            "agent",
            "--set",
            "day=F",
            "--set",
            "question=Q",
            "--history",
            bad,
        ],
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("is not a list of chat messages"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("bad.json:1:"), "{}", run.stderr);
    assert!(
        run.stderr.contains("help: write an array of messages"),
        "{}",
        run.stderr
    );
}

// ------------------------------------------------------------------------------ families

/// A prompts folder with a family `summarize` and a plain prompt.
fn family_folder(name: &str, extra: &[(&str, &str)]) -> PathBuf {
    let dir = scratch(name);
    let files = [
        ("summarize/default.md", "Summarize: $text"),
        (
            "summarize/meeting.md",
            "{\n  \"match\": [\"type=meeting\"]\n}\n\nMeeting: $text",
        ),
        (
            "summarize/myapp.md",
            "{\n  \"title\": \"Myapp\",\n  \"match\": [\"type=meeting project=myapp\", \"type=standup\"]\n}\n\nMyapp: $text",
        ),
        ("plain.md", "Plain."),
    ];
    for (path, text) in files.iter().chain(extra) {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn render_with_tags_renders_the_most_specific_member_and_says_why() {
    let dir = &family_folder("family-render", &[]);
    let run = promptic_in(
        dir,
        &[
            "render",
            "summarize",
            "--tag",
            "type=meeting",
            "--tag",
            "project=myapp",
            "--set",
            "text=notes",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "Myapp: notes\n");
    assert_eq!(
        run.stderr,
        "note: family `summarize` chose `summarize/myapp` by its rule `type=meeting project=myapp` (2 pairs)\n"
    );
    // the second line of a member's rules, and a tag with two values
    let run = promptic_in(
        dir,
        &[
            "render",
            "summarize",
            "--tag",
            "type=x",
            "--tag",
            "type=standup",
            "--set",
            "text=n",
            "--json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = json(&run.stdout);
    assert!(
        out["path"]
            .as_str()
            .unwrap()
            .ends_with("/summarize/myapp.md"),
        "{out}"
    );
    assert_eq!(out["metadata"]["title"], "Myapp");
    assert!(
        run.stderr.contains("by its rule `type=standup` (1 pair)"),
        "{}",
        run.stderr
    );
    // no rule holds: the default, and no tags at all: the default too
    let run = promptic_in(
        dir,
        &[
            "render",
            "summarize",
            "--tag",
            "type=paper",
            "--set",
            "text=n",
        ],
    );
    assert_eq!(run.stdout, "Summarize: n\n");
    assert_eq!(
        run.stderr,
        "note: family `summarize` chose its default `summarize/default`: no member's rules hold for tags type=paper\n"
    );
    // A tag one typo from a rule's pair is the likely reason the default won.
    for typo in ["type=meting", "tpye=meeting"] {
        let run = promptic_in(
            dir,
            &["render", "summarize", "--tag", typo, "--set", "text=n"],
        );
        assert_eq!(
            run.stderr,
            format!(
                "note: family `summarize` chose its default `summarize/default`: no member's rules hold for tags {typo} (did you mean `type=meeting`, a rule of `summarize/meeting`?)\n"
            )
        );
    }
    let run = promptic_in(dir, &["render", "summarize", "--set", "text=n"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "Summarize: n\n"));
    assert!(
        run.stderr.ends_with(
            "no tags given; choose a member with `--tag KEY=VALUE`, or render one by name: `summarize/default`, `summarize/meeting`, `summarize/myapp`\n"
        ),
        "{}",
        run.stderr
    );
    // a member can still be rendered by its own name, without a note
    let run = promptic_in(dir, &["render", "summarize/meeting", "--set", "text=n"]);
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str()),
        ("Meeting: n\n", "")
    );
    // tokens takes the same options
    let run = promptic_in(
        dir,
        &[
            "tokens",
            "summarize",
            "--tag",
            "type=meeting",
            "--set",
            "text=n",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("chose `summarize/meeting`"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_tag_without_equals_is_a_usage_error_and_tags_on_a_prompt_are_refused() {
    let dir = &family_folder("family-usage", &[]);
    for bad in ["type", "=meeting", "type=", "1x=y"] {
        let run = promptic_in(
            dir,
            &["render", "summarize", "--tag", bad, "--set", "text=n"],
        );
        assert_eq!(run.code, 2, "--tag {bad}: {}", run.stderr);
        assert!(run.stderr.contains("expected KEY=VALUE"), "{}", run.stderr);
        assert_eq!(run.stdout, "");
    }
    let run = promptic_in(dir, &["render", "plain", "--tag", "type=meeting"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "error: `plain` is a prompt, not a family: `--tag` chooses among the members of a family\n  = help: leave out `--tag`, or name a family (a folder of prompts with `\"match\"` rules): `summarize`\n"
    );
    // A prompt file and a family of one name: the name reaches the prompt, and says so.
    let both = &family_folder("family-and-prompt", &[("summarize.md", "Plain: $text")]);
    let run = promptic_in(both, &["render", "summarize", "--tag", "type=meeting"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .starts_with("error: `summarize` names both a prompt file and the family `")
            && run.stderr.contains("/summarize/`, and reaches the prompt"),
        "{}",
        run.stderr
    );
    let run = promptic_in(dir, &["render", "sumarize", "--tag", "type=meeting"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("/sumarize/` not found\n  = help: did you mean `summarize`?"),
        "{}",
        run.stderr
    );
}

#[test]
fn list_shows_each_family_with_its_members_rules() {
    let dir = &family_folder("family-list", &[]);
    let run = promptic_in(dir, &["list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("summarize/myapp  Myapp\n  match     type=meeting project=myapp | type=standup\n  context   text\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with(
            "family summarize\n  summarize/default  (default)\n  summarize/meeting  type=meeting\n  summarize/myapp    type=meeting project=myapp | type=standup\n"
        ),
        "{}",
        run.stdout
    );
    let run = promptic_in(dir, &["list", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let all = json(&run.stdout);
    let by_name = |name: &str| {
        all.as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(by_name("summarize/myapp")["family"], "summarize");
    assert_eq!(
        by_name("summarize/myapp")["match"],
        serde_json::json!(["type=meeting project=myapp", "type=standup"])
    );
    assert_eq!(by_name("summarize/default")["match"], serde_json::json!([]));
    assert!(by_name("plain").get("family").is_none());
}

/// keep's `analyze` (two members without rules, one looked up by id) and `tag` (one
/// member, no rules at all) laid out as a prompts folder.
#[test]
fn members_without_rules_are_rendered_by_name_and_a_folder_without_rules_is_a_family() {
    let dir = &scratch("family-keep-layout");
    for (path, text) in [
        ("analyze/default.md", "Analyze: $text"),
        ("analyze/incremental.md", "Analyze the new parts: $text"),
        (
            "analyze/paper.md",
            "{\n  \"match\": [\"type=paper\"]\n}\n\nPaper: $text",
        ),
        ("tag/default.md", "Tag it."),
    ] {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let run = promptic_in(dir, &["check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = promptic_in(dir, &["list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = promptic_in(dir, &["render", "analyze/incremental", "--set", "text=t"]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "Analyze the new parts: t\n", "")
    );
    // the fallback is the first member without rules, by name
    let run = promptic_in(
        dir,
        &["render", "analyze", "--tag", "type=note", "--set", "text=t"],
    );
    assert_eq!((run.code, run.stdout.as_str()), (0, "Analyze: t\n"));
    let run = promptic_in(
        dir,
        &[
            "render",
            "analyze",
            "--tag",
            "type=paper ",
            "--set",
            "text=t",
        ],
    );
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "Paper: t\n"),
        "{}",
        run.stderr
    );
    // a folder whose prompts have no rules is still a family: it says so, and how to choose
    let run = promptic_in(dir, &["render", "tag"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "Tag it.\n"),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr,
        "note: family `tag` chose its default `tag/default`: no tags given; choose a member with `--tag KEY=VALUE`, or render one by name: `tag/default`\n"
    );
}

#[test]
fn check_warns_about_a_rule_shaped_line_in_a_members_prompt() {
    let dir = &family_folder(
        "family-rule-in-prompt",
        &[(
            "summarize/terse.md",
            "{\n  \"match\": [\"style=terse\"]\n}\n\nBe terse.\nformat=markdown\n$text",
        )],
    );
    let run = promptic_in(dir, &["check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "warning: line `format=markdown` of `summarize/terse`'s prompt reads as a match rule to keep\n --> {}/summarize/terse.md:6:1",
            dir.display()
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.ends_with("no errors, 1 warning\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn check_checks_every_family_and_list_marks_a_broken_one() {
    let dir = &family_folder(
        "family-check",
        &[
            ("summarize/other_default.md", "Other: $text"),
            (
                "summarize/same.md",
                "{\n  \"match\": [\"project=myapp type=meeting\", \"type=standup\"]\n}\n\nSame: $text",
            ),
            (
                "analyze/paper.md",
                "{\n  \"match\": [\"type = paper\"]\n}\n\nPaper: $text",
            ),
            (
                "reports/weekly.md",
                "{\n  \"match\": [\"type=weekly\"]\n}\n\nWeekly: $text",
            ),
        ],
    );
    let shown = dir.display().to_string();
    let run = promptic_in(dir, &["check"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "checked 8 prompts, 3 families and 0 templates: 3 errors\n"
    );
    let expected = format!(
        "\
error: malformed match rule `type = paper`
 --> {shown}/analyze/paper.md:2:14
  |
2 |   \"match\": [\"type = paper\"]
  |              ^^^^^^^^^^^^
  = help: write `type=paper`, without spaces around `=`
  = note: a rule is `key=value` pairs separated by spaces, all of which must hold; each string of the list is an alternative

error: family `reports` has no default member
 --> {shown}/reports/
  = help: add a prompt without `\"match\"` to `{shown}/reports/` (`{shown}/reports/default.md`): it is chosen when no member's rules hold, so a prompt is always chosen

error: `summarize/same` has the same match rules as `summarize/myapp`, so it is never chosen
 --> {shown}/summarize/same.md:2:12
"
    );
    assert!(run.stderr.starts_with(&expected), "{}", run.stderr);
    let run = promptic_in(dir, &["list"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains(&format!(
            "family analyze  BROKEN\n  error     malformed match rule `type = paper`\n  at        {shown}/analyze/paper.md:2:14\n"
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("error: 3 families are broken"),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------------- diff

const ANALYST_GUIDANCE_DIFF: &str = "\
--- analyst (guidance=detailed)
+++ analyst (guidance=lean)
@@ -1,8 +1,3 @@
 You are a market analyst. Today is Monday.
 
-## How to work
-Read the filings before the news, and the news before the forums.
-Check every figure against its source, and name the source.
 Answer in three short paragraphs.
-
-When a figure cannot be checked, say so instead of guessing.
detailed: 60 tokens | lean: 16 tokens | lean drops 44 tokens (73.3%)
";

#[test]
fn diff_guidance_shows_what_lean_drops_and_both_token_counts() {
    let run = promptic(&[
        "diff",
        "analyst",
        "--dir",
        "guidance",
        "--set",
        "day=Monday",
        "--guidance",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout, ANALYST_GUIDANCE_DIFF);
    // The counts are those of `tokens` at each level.
    for (level, count) in [("detailed", "60"), ("lean", "16")] {
        let set = format!("guidance={level}");
        let tokens = promptic(&[
            "tokens",
            "analyst",
            "--dir",
            "guidance",
            "--set",
            "day=Monday",
            "--set",
            &set,
        ]);
        assert!(
            tokens
                .stdout
                .starts_with(&format!("analyst: {count} tokens (o200k_base)")),
            "{}",
            tokens.stdout
        );
    }
    let run = promptic(&[
        "diff",
        "analyst",
        "--dir",
        "guidance",
        "--set",
        "day=Monday",
        "--guidance",
        "--encoding",
        "cl100k_base",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // this English text has the same counts in both encodings
    assert_eq!(run.stdout, ANALYST_GUIDANCE_DIFF);
}

#[test]
fn diff_guidance_of_a_prompt_without_fences_says_the_levels_are_the_same() {
    let run = promptic(&[
        "diff",
        "summary",
        "--dir",
        "guidance",
        "--set",
        "day=Monday",
        "--guidance",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "no guidance fences: lean and detailed are the same\n\
         detailed: 13 tokens | lean: 13 tokens | lean drops 0 tokens (0.0%)\n"
    );
}

#[test]
fn diff_a_b_compares_two_sets_of_values_on_top_of_the_shared_ones() {
    let run = promptic(&[
        "diff",
        "analyst",
        "--dir",
        "guidance",
        "--set",
        "day=Monday",
        "--set",
        "guidance=lean",
        "--a",
        "verbose=yes",
        "--b",
        "verbose=no",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "\
--- analyst (A: verbose=yes)
+++ analyst (B: verbose=no)
@@ -1,4 +1,3 @@
 You are a market analyst. Today is Monday.
 
 Answer in three short paragraphs.
-List every source at the end.
A: 23 tokens | B: 16 tokens | B drops 7 tokens (30.4%)
"
    );
    // A side without values of its own renders with the shared ones; B may add lines.
    let run = promptic(&[
        "diff",
        "analyst",
        "--dir",
        "guidance",
        "--set",
        "day=Monday",
        "--a",
        "guidance=lean",
        "--b",
        "guidance=lean",
        "--b",
        "verbose=on",
        "--b",
        "day=Tuesday",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "\
--- analyst (A: guidance=lean)
+++ analyst (B: guidance=lean verbose=on day=Tuesday)
@@ -1,3 +1,4 @@
-You are a market analyst. Today is Monday.
+You are a market analyst. Today is Tuesday.
 
 Answer in three short paragraphs.
+List every source at the end.
A: 16 tokens | B: 23 tokens | B adds 7 tokens (43.8%)
"
    );
    let run = promptic(&[
        "diff",
        "analyst",
        "--dir",
        "guidance",
        "--set",
        "day=Monday",
        "--set",
        "guidance=lean",
        "--b",
        "verbose=off",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "A and B render the same\nA: 16 tokens | B: 16 tokens | B drops 0 tokens (0.0%)\n"
    );
}

#[test]
fn diff_lists_a_registered_either_or_and_exits_0() {
    let dir = &scratch("diff-lean-registered");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("flip.md"),
        "{% if guidance == \"detailed\" %}\nThink it through.\n{% else \"small models need the short form\" %}\nBe brief.\n{% endif %}\nAnswer.\n",
    )
    .unwrap();
    let run = promptic_in(dir, &["diff", "flip", "--guidance"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert_eq!(
        run.stdout,
        "\
--- flip (guidance=detailed)
+++ flip (guidance=lean)
@@ -1,2 +1,2 @@
-Think it through.
+Be brief.
 Answer.
detailed: 6 tokens | lean: 5 tokens | lean drops 1 token (16.7%)
lean adds 1 line, registered as an either-or:
  {% else \"small models need the short form\" %}
"
    );
    // The general form compares any values: a `+` line there is no error, and nothing is
    // said of registrations.
    let run = promptic_in(
        dir,
        &[
            "diff",
            "flip",
            "--a",
            "guidance=detailed",
            "--b",
            "guidance=lean",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\n+Be brief.\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("registered"), "{}", run.stdout);
}

#[test]
fn diff_of_the_projects_research_answer_passes_with_its_registered_inversion() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../prompts");
    let run = promptic_in(&dir, &["diff", "research_answer", "--guidance"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with(
            "\n+Give the answer, then the sources you used as a list.\ndetailed: 85 tokens | lean: 28 tokens | lean drops 57 tokens (67.1%)\nlean adds 1 line, registered as an either-or:\n  {% else \"frontier models over-explain when shown the steps; at lean they get the bare format rule instead\" %}\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn diff_exits_1_when_lean_adds_a_line_that_nothing_registers() {
    let dir = &scratch("diff-lean-adds");
    std::fs::create_dir_all(dir).unwrap();
    // `$guidance` in the text renders a line at lean that detailed lacks, next to a
    // registered either-or: only the first counts against lean.
    std::fs::write(
        dir.join("flip.md"),
        "Level: $guidance\n{% if guidance == \"detailed\" %}\nThink it through.\n{% else \"small models need the short form\" %}\nBe brief.\n{% endif %}\nAnswer.\n",
    )
    .unwrap();
    let run = promptic_in(dir, &["diff", "flip", "--guidance"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "\
--- flip (guidance=detailed)
+++ flip (guidance=lean)
@@ -1,3 +1,3 @@
-Level: detailed
-Think it through.
+Level: lean
+Be brief.
 Answer.
detailed: 10 tokens | lean: 9 tokens | lean drops 1 token (10.0%)
lean adds 1 line, registered as an either-or:
  {% else \"small models need the short form\" %}
"
    );
    assert_eq!(
        run.stderr,
        "\
error: lean adds 1 line that detailed does not render and no either-or registers: lean must be a subset of detailed
  = help: only an inversion registered with `{% else \"why\" %}` on a `{% if guidance == \"detailed\" %}` fence may render a line at lean alone; a line from `$guidance` in the text, say, is not: move it inside the fence, or out of the fences for both levels
  = note: the `+` lines of the diff are what lean adds
"
    );
}

#[test]
fn diff_of_a_chat_prompt_compares_its_log_form() {
    let dir = &scratch("diff-chat");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("agent.md"),
        "You help.\n\n{% system rules %}\n{% if guidance == \"detailed\" %}\nExplain each step.\n{% endif %}\nBe kind.\n\n{% user question %}\n$question\n",
    )
    .unwrap();
    let run = promptic_in(
        dir,
        &["diff", "agent", "--guidance", "--set", "question=Why?"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "\
--- agent (guidance=detailed)
+++ agent (guidance=lean)
@@ -2,7 +2,6 @@
 You help.
 
 Section: rules | role=system
-Explain each step.
 Be kind.
 
 Section: question | role=user
detailed: 12 tokens | lean: 8 tokens | lean drops 4 tokens (33.3%)
"
    );
}

#[test]
fn diff_errors_name_the_flag_and_usage_errors_exit_2() {
    let base = [
        "diff",
        "analyst",
        "--dir",
        "guidance",
        "--set",
        "day=Monday",
    ];
    let with = |more: &[&str]| {
        let mut args = base.to_vec();
        args.extend(more);
        promptic(&args)
    };
    let run = with(&["--guidance", "--set", "guidance=lean"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "error: `--guidance` gives `guidance` to each side, so `--set guidance=lean` would be overridden\n  = help: drop `--set guidance=...`; to compare other values, use `--a NAME=VALUE --b NAME=VALUE`\n"
    );
    let run = with(&["--set", "guidance=lean", "--a", "verbos=yes"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "error: prompt `analyst` uses no value named `verbos` (from `--a verbos=yes`)\n  = help: did you mean `verbose`?\n"
    );
    // The same missing value on both sides is reported once.
    let run = promptic(&["diff", "analyst", "--dir", "guidance", "--guidance"]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stderr.matches("error:").count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("missing context values: `day`"),
        "{}",
        run.stderr
    );
    for usage in [
        &[][..],
        &["--guidance", "--a", "verbose=yes"][..],
        &["--a", "verbose"][..],
    ] {
        let run = with(usage);
        assert_eq!(run.code, 2, "{usage:?}: {}", run.stderr);
        assert_eq!(run.stdout, "");
    }
}

#[test]
fn diff_of_a_family_renders_the_member_the_tags_choose_on_both_sides() {
    let dir = &scratch("diff-family");
    std::fs::create_dir_all(dir.join("summarize")).unwrap();
    std::fs::write(dir.join("summarize/default.md"), "Summarize: $text\n").unwrap();
    std::fs::write(
        dir.join("summarize/meeting.md"),
        "{\n  \"match\": [\"type=meeting\"]\n}\n\n{% if guidance == \"detailed\" %}\nLead with the decisions.\n{% endif %}\nSummarize the meeting: $text\n",
    )
    .unwrap();
    let run = promptic_in(
        dir,
        &[
            "diff",
            "summarize",
            "--tag",
            "type=meeting",
            "--set",
            "text=notes",
            "--guidance",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // chosen once, for both sides
    assert_eq!(
        run.stderr,
        "note: family `summarize` chose `summarize/meeting` by its rule `type=meeting` (1 pair)\n"
    );
    assert!(
        run.stdout.starts_with(
            "--- summarize/meeting (guidance=detailed)\n+++ summarize/meeting (guidance=lean)\n@@ -1,2 +1 @@\n-Lead with the decisions.\n Summarize the meeting: notes\n"
        ),
        "{}",
        run.stdout
    );
}

/// Runs `promptic ARGS` under `script`, so that its stdout is a terminal.
#[cfg(target_os = "linux")]
fn promptic_on_a_terminal(args: &[&str], no_color: Option<&str>) -> Option<String> {
    let script = Path::new("/usr/bin/script");
    if !script.exists() {
        eprintln!("no `script` here: the terminal test is skipped");
        return None;
    }
    let line: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_promptic"))
        .chain(args.iter().copied())
        .map(|w| format!("'{w}'"))
        .collect();
    let mut command = Command::new(script);
    command
        .args(["-qec", &line.join(" "), "/dev/null"])
        .current_dir(fixtures())
        .env_remove("NO_COLOR");
    if let Some(value) = no_color {
        command.env("NO_COLOR", value);
    }
    let run = finish(command, args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    Some(run.stdout.replace("\r\n", "\n"))
}

#[cfg(target_os = "linux")]
#[test]
fn diff_is_in_color_on_a_terminal_unless_no_color_is_set() {
    let args = [
        "diff",
        "analyst",
        "--dir",
        "guidance",
        "--set",
        "day=Monday",
        "--guidance",
    ];
    let Some(painted) = promptic_on_a_terminal(&args, None) else {
        return;
    };
    let lines: Vec<&str> = painted.lines().collect();
    assert_eq!(lines[0], "\x1b[1m--- analyst (guidance=detailed)\x1b[0m");
    assert_eq!(lines[2], "\x1b[36m@@ -1,8 +1,3 @@\x1b[0m");
    assert_eq!(lines[3], " You are a market analyst. Today is Monday.");
    assert_eq!(lines[5], "\x1b[31m-## How to work\x1b[0m");
    for no_color in ["1", ""] {
        let text = promptic_on_a_terminal(&args, Some(no_color)).unwrap_or_default();
        if no_color.is_empty() {
            // an empty NO_COLOR does not refuse color
            assert_eq!(text, painted);
        } else {
            assert_eq!(text, ANALYST_GUIDANCE_DIFF);
        }
    }
}

// ------------------------------------------------------------------------ check --strict

#[test]
fn check_reports_jinja_and_handlebars_syntax_in_a_braces_prompt() {
    let dir = &scratch("check-braces-jinja");
    std::fs::create_dir_all(dir).unwrap();
    // PromptEngine's literal forms (`{{"json": …}}`, `{{{who}}}`) stay text.
    std::fs::write(
        dir.join("a.md"),
        "{\n  \"placeholders\": \"braces\"\n}\n\nHi {{ user.name }}, {{\"json\": {{who}}}} {{{who}}}.\n{% for t in tools %}\n{# note #}\n{% endfor %}\n",
    )
    .unwrap();
    let run = promptic_in(dir, &["check"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout, "checked 1 prompt and 0 templates: 4 errors\n");
    let keep = "  = note: to send this text to the model as written, give the file `$name` placeholders (`\"placeholders\": \"dollar\"` in its frontmatter), where `{{` is plain text\n";
    assert_eq!(
        run.stderr,
        format!(
            "\
error: `{{{{ user.name }}}}` is a path into `user`, which braces placeholders do not read
 --> {dir}/a.md:5:4
  |
5 | Hi {{{{ user.name }}}}, {{{{\"json\": {{{{who}}}}}}}} {{{{{{who}}}}}}.
  |    ^^^^^^^^^^^^^^^
  = help: write `{{{{user_name}}}}`: an identity's nested keys are flattened with `_`, and a context value is one field; promptic's braces placeholders are `{{{{name}}}}`, one name, and a Jinja template is read as Jinja when its file is named `NAME.md.j2`
{keep}
error: unknown directive `for`
 --> {dir}/a.md:6:4
  |
6 | {{% for t in tools %}}
  |    ^^^
  = help: the directives are `if`, `else`, `endif`, `system`, `user`, `assistant`, `history` and `cache_breakpoint`
  = note: `for` is a Jinja tag; a Jinja template is read as Jinja when its file is named `NAME.md.j2`

error: `{{# note #}}` is a Jinja comment, which a braces prompt does not read: it would reach the model
 --> {dir}/a.md:7:1
  |
7 | {{# note #}}
  | ^^^^^^^^^^
  = help: a prompt has no comments: remove it, or keep the note in the frontmatter's `\"description\"`
{keep}
error: unknown directive `endfor`
 --> {dir}/a.md:8:4
  |
8 | {{% endfor %}}
  |    ^^^^^^
  = help: the directives are `if`, `else`, `endif`, `system`, `user`, `assistant`, `history` and `cache_breakpoint`
  = note: `endfor` is a Jinja tag; a Jinja template is read as Jinja when its file is named `NAME.md.j2`
",
            dir = dir.display()
        )
    );
}

#[test]
fn check_warns_about_frontmatter_near_misses_and_misspelt_keys() {
    let dir = &scratch("check-frontmatter");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("a.md"),
        "{ \n  \"title\": \"Daily\"\n}\n\nSummarize the day.\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("b.md"),
        "{\"title\": \"Weekly\"}\nSummarize the week.\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("c.md"),
        "{\n  \"titel\": \"Monthly\",\n  \"owner\": \"me\"\n}\n\nSummarize the month.\n",
    )
    .unwrap();
    // A prompt that opens with a JSON example whose keys promptic does not read is fine.
    std::fs::write(
        dir.join("d.md"),
        "{\"name\": \"Ada\", \"age\": 36}\nExtract these fields from the text.\n",
    )
    .unwrap();
    let expected = |kind: &str, note: &str| {
        format!(
            "\
{kind}: this looks like frontmatter but is sent to the model as text: its first line has white space after the `{{`
 --> {dir}/a.md:1:1
  |
1 | {{ 
  | ^^
  = help: frontmatter is a JSON object whose first line, the file's first, is exactly `{{` and whose closing line is exactly `}}`:
{{
  \"title\": \"Daily\"
}}
{note}
{kind}: this looks like frontmatter but is sent to the model as text: it opens on a line that holds more than `{{`
 --> {dir}/b.md:1:1
  |
1 | {{\"title\": \"Weekly\"}}
  | ^^^^^^^^^^^^^^^^^^^
  = help: frontmatter is a JSON object whose first line, the file's first, is exactly `{{` and whose closing line is exactly `}}`:
{{
  \"title\": \"Weekly\"
}}

{kind}: frontmatter key `titel` is not one promptic reads, so it is kept in `extra`
 --> {dir}/c.md:2:3
  |
2 |   \"titel\": \"Monthly\",
  |   ^^^^^^^
  = help: did you mean `title`?
",
            dir = dir.display()
        )
    };
    let run = promptic_in(dir, &["check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "checked 4 prompts and 0 templates: no errors, 3 warnings\n"
    );
    assert_eq!(run.stderr, expected("warning", ""));
    let run = promptic_in(dir, &["check", "--strict"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "checked 4 prompts and 0 templates: 3 errors (--strict: 3 warnings counted as errors)\n"
    );
    assert_eq!(
        run.stderr,
        expected(
            "error",
            "  = note: `--strict` makes every warning an error\n"
        )
    );
    // Each command that renders a prompt says what `check` says of it, once, and renders.
    let warning_of = |file: &str| {
        let all = expected("warning", "");
        let start = all.find(&format!("{}/{file}", dir.display())).unwrap();
        let start = all[..start].rfind("warning:").unwrap();
        // Each warning is followed by an empty line, the last one too.
        match all[start + 1..].find("\nwarning:") {
            Some(e) => all[start..start + 2 + e].to_owned(),
            None => format!("{}\n", &all[start..]),
        }
    };
    for args in [
        &["render", "b"][..],
        &["tokens", "b"],
        &["diff", "b", "--guidance"],
        &["render", "c", "--json"],
    ] {
        let run = promptic_in(dir, args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let file = format!("{}.md", args[1]);
        assert_eq!(run.stderr, warning_of(&file), "{args:?}");
    }
    // A prompt with nothing to warn about renders without a word on stderr.
    let run = promptic_in(dir, &["render", "d"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
}

/// Names come from whoever wrote the folder: a template named to clear the screen, or a
/// prompt whose name holds a newline, prints escaped in `list`, `check` and diagnostics.
#[cfg(unix)]
#[test]
fn names_with_control_characters_print_escaped() {
    let dir = &scratch("control-names");
    std::fs::create_dir_all(dir.join("templates")).unwrap();
    std::fs::write(dir.join("templates/\u{1b}[2J.md"), "Hi.\n").unwrap();
    std::fs::write(
        dir.join("a\nb.md"),
        "{\n  \"title\": \"T\\u001b[31mred\"\n}\n\nHello.\n",
    )
    .unwrap();
    std::fs::write(dir.join("ok.md"), "x\n").unwrap();
    let warning = format!(
        "\
warning: template `{dir}/templates/\\u{{1b}}[2J.md` cannot be used: `\\u{{1b}}[2J` is not a placeholder name
 --> {dir}/templates/\\u{{1b}}[2J.md
  = help: rename it `_2J.md` and use it as `$_2J`: a template's name is letters, digits and `_`, not starting with a digit
  = note: it is left out; prompts that do not use it are not affected
",
        dir = dir.display()
    );
    let run = promptic_in(dir, &["list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "a\\nb  T\\u{1b}[31mred\nok\n");
    assert_eq!(run.stderr, format!("{warning}\n"));
    let run = promptic_in(dir, &["check"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout, "checked 2 prompts and 0 templates: 1 error\n");
    assert_eq!(run.stderr, warning.replacen("warning:", "error:", 1));
    // No control character reaches the terminal from either command.
    for args in [&["list"][..], &["check"], &["list", "--json"]] {
        let run = promptic_in(dir, args);
        let raw = |text: &str| text.chars().any(|c| c.is_control() && c != '\n');
        assert!(
            !raw(&run.stdout) && !raw(&run.stderr),
            "{args:?}: {:?} {:?}",
            run.stdout,
            run.stderr
        );
    }
}

#[test]
fn check_strict_makes_every_warning_an_error() {
    let dir = &scratch("check-strict");
    std::fs::create_dir_all(dir.join("templates")).unwrap();
    std::fs::write(dir.join("a.md"), "$headr\n").unwrap();
    std::fs::write(dir.join("templates/header.md"), "Hi.\n").unwrap();
    let run = promptic_in(dir, &["check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "checked 1 prompt and 1 template: no errors, 1 warning\n"
    );
    assert!(
        run.stderr.starts_with("warning: `$headr`"),
        "{}",
        run.stderr
    );
    let run = promptic_in(dir, &["check", "--strict"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "checked 1 prompt and 1 template: 1 error (--strict: 1 warning counted as an error)\n"
    );
    assert_eq!(
        run.stderr,
        format!(
            "\
error: `$headr` is not a template, an identity key or a literal, so it is read as a context value
 --> {}/a.md:1:1
  |
1 | $headr
  | ^^^^^^
  = help: did you mean `$header`?
  = note: `--strict` makes every warning an error
",
            dir.display()
        )
    );
    let run = promptic(&["check", "--dir", "good", "--strict"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "checked 4 prompts and 2 templates: no errors (--strict: no warnings)\n"
    );
    let run = promptic(&["check", "--dir", "broken", "--strict"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .ends_with(": 7 errors (--strict: 1 warning counted as an error)\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stderr.contains("warning:"), "{}", run.stderr);
}

#[test]
fn a_declared_context_makes_a_misspelt_name_an_error_in_check() {
    let dir = scratch("declared_context");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("p.md"),
        "{\n  \"context\": [\"day\"]\n}\nToday is $day and $dya.\n",
    )
    .unwrap();
    let run = promptic_in(&dir, &["check"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("unknown placeholder `$dya`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("did you mean `$day`?"),
        "{}",
        run.stderr
    );
    std::fs::write(
        dir.join("p.md"),
        "{\n  \"context\": [\"day\"]\n}\nToday is $day.\n",
    )
    .unwrap();
    let run = promptic_in(&dir, &["check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

// ------------------------------------------------------------------ one root cause, once

/// A chain of templates past the depth limit is one problem, not one per template past
/// the limit, each with its own 100-name chain (10,000 deep: 9,901 errors).
#[test]
fn check_reports_a_chain_of_templates_too_deep_once() {
    let dir = scratch("deep-template-chain");
    std::fs::create_dir_all(dir.join("templates")).unwrap();
    let n = 1_000;
    for i in 0..n {
        let text = if i + 1 < n {
            format!("line {i} $t{}\n", i + 1)
        } else {
            "end\n".to_owned()
        };
        std::fs::write(dir.join(format!("templates/t{i}.md")), text).unwrap();
    }
    let shown = dir.to_str().unwrap();
    // From a prompt, and from the chain's first template when no prompt uses it.
    for with_prompt in [true, false] {
        if with_prompt {
            std::fs::write(dir.join("p.md"), "Start $t0\n").unwrap();
        } else {
            std::fs::remove_file(dir.join("p.md")).unwrap();
        }
        let run = promptic(&["check", "--dir", shown]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert_eq!(
            run.stderr.matches("error: ").count(),
            1,
            "{}",
            &run.stderr[..run.stderr.len().min(2_000)]
        );
        assert!(
            run.stderr
                .contains("error: blocks and templates nested more than 100 deep"),
            "{}",
            run.stderr
        );
        assert!(run.stdout.ends_with(": 1 error\n"), "{}", run.stdout);
    }
}

/// A template that nothing uses is still checked on its own, and so is a cycle that
/// nothing else uses: skipping the templates the prompts answer for skips no problem.
#[test]
fn check_still_checks_templates_nothing_uses() {
    let dir = scratch("unused-templates");
    std::fs::create_dir_all(dir.join("templates")).unwrap();
    for (name, text) in [
        ("used", "Used.\n"),
        ("lonely", "Lonely $nope{% if %}\n"),
        ("ping", "Ping $pong\n"),
        ("pong", "Pong $ping\n"),
    ] {
        std::fs::write(dir.join(format!("templates/{name}.md")), text).unwrap();
    }
    std::fs::write(dir.join("p.md"), "Hi $used\n").unwrap();
    let run = promptic(&["check", "--dir", dir.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("templates/lonely.md:1:13"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("error: template cycle: ping -> pong -> ping"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.ends_with(": 2 errors\n"), "{}", run.stdout);
}

/// An identity nested 20,000 objects deep (`render --identity`) or a `promptic.json`
/// identity 50,000 deep (`check`) is one error naming the key, not a stack overflow.
#[test]
fn an_identity_nested_deep_is_an_error_not_an_abort() {
    let nested =
        |levels: usize| format!("{}\"x\"{}", "{\"a\": ".repeat(levels), "}".repeat(levels));
    let dir = scratch("deep-identity");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p.md"), "Hi $name\n").unwrap();
    std::fs::write(dir.join("identity.json"), nested(20_000)).unwrap();
    let shown = dir.to_str().unwrap();
    let identity = dir.join("identity.json");
    let run = promptic(&[
        "render",
        "p",
        "--dir",
        shown,
        "--identity",
        identity.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("holds an object nested more than 64 levels deep"),
        "{}",
        &run.stderr[..run.stderr.len().min(2_000)]
    );
    std::fs::write(
        dir.join("promptic.json"),
        format!(
            "{{\"identity\": {{\"name\": \"Sam\", \"deep\": {}}}}}",
            nested(50_000)
        ),
    )
    .unwrap();
    let run = promptic(&["check", "--dir", shown]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("error: ").count(),
        1,
        "{}",
        &run.stderr[..run.stderr.len().min(2_000)]
    );
    assert!(
        run.stderr
            .contains("holds an object nested more than 64 levels deep"),
        "{}",
        &run.stderr[..run.stderr.len().min(2_000)]
    );
    assert!(
        run.stderr.contains("promptic.json:1:"),
        "{}",
        &run.stderr[..run.stderr.len().min(2_000)]
    );
}

// ------------------------------------------------------------------------- keep agent prompts

/// keep's agent prompts laid out as a prompts folder, `"placeholders": "keep"`.
fn keep_agent_folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    for (path, text) in [
        (
            "agent/system.md",
            "{\n  \"placeholders\": \"keep\"\n}\n\nYou keep notes.",
        ),
        (
            "agent/reflect.md",
            "{\n  \"title\": \".prompt/agent/reflect\",\n  \"placeholders\": \"keep\"\n}\n\n{{include:agent/system}}\n\nQuestion: {text}\n\n{get}\n{find:deep:3000}\n\n\n\nLinks: {edges|(none)}\n{similar}\n",
        ),
        (
            "agent/broken.md",
            "{\n  \"placeholders\": \"keep\"\n}\n\n{{include:agent/missing}}",
        ),
    ] {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn render_fills_a_keep_agent_prompt_as_keep_does() {
    let dir = &keep_agent_folder("keep-agent");
    let run = promptic_in(dir, &["render", "agent/reflect", "--set", "text=hello"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // the include, the value, empty context and search, the blank-line run collapsed, the
    // fallback of a binding that did not fire, the stripped end
    assert_eq!(
        run.stdout,
        "You keep notes.\n\nQuestion: hello\n\nLinks: (none)\n"
    );
    let run = promptic_in(
        dir,
        &[
            "render",
            "agent/reflect",
            "--set",
            "text=t",
            "--set",
            "edges=a -> b",
            "--set",
            "find=found",
        ],
    );
    assert_eq!(
        run.stdout,
        "You keep notes.\n\nQuestion: t\n\nfound\n\nLinks: a -> b\n"
    );
    let run = promptic_in(dir, &["render", "agent/reflect", "--set", "txt=x"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "error: keep agent prompt `agent/reflect` takes no value `txt` (from `--set txt=x`)\n  = help: did you mean `text`?\n"
    );
    // keep's request values are taken whether or not the template shows them
    let run = promptic_in(
        dir,
        &[
            "render",
            "agent/system",
            "--set",
            "text=q",
            "--set",
            "since=P1D",
        ],
    );
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "You keep notes.\n"),
        "{}",
        run.stderr
    );
    let run = promptic_in(dir, &["render", "agent/system", "--set", "edges=x"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .ends_with("= help: its values are `text`, `since`, `until`\n"),
        "{}",
        run.stderr
    );
    let run = promptic_in(dir, &["render", "agent/broken"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.starts_with(
            "error: cannot expand `{{include:agent/missing}}`: prompt include not found: .prompt/agent/missing"
        ) && run.stderr.contains("agent/broken.md:5:1"),
        "{}",
        run.stderr
    );
    let run = promptic_in(dir, &["list"]);
    assert!(
        run.stdout.contains(
            "agent/reflect  .prompt/agent/reflect\n  keep      text, get, find, edges, similar\n"
        ),
        "{}",
        run.stdout
    );
    // check reports the missing include, and only it
    let run = promptic_in(dir, &["check"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.ends_with(": 1 error\n"), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("prompt include not found: .prompt/agent/missing"),
        "{}",
        run.stderr
    );
}

/// keep's `supernode` family: every member scoped, chosen by the item's id.
#[test]
fn render_chooses_a_scoped_member_by_the_item_id() {
    let dir = &scratch("family-scoped");
    for (path, text) in [
        ("supernode/default.md", "{\n  \"scope\": \"*\"\n}\n\nFacts."),
        (
            "supernode/email.md",
            "{\n  \"scope\": \"*@*.*\"\n}\n\nContact.",
        ),
        (
            "supernode/url.md",
            "{\n  \"scope\": \"http*://*\"\n}\n\nPage.",
        ),
    ] {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let run = promptic_in(dir, &["check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = promptic_in(dir, &["list"]);
    assert!(
        run.stdout.contains(
            "family supernode\n  supernode/default  scope *\n  supernode/email    scope *@*.*\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("supernode/email\n  scope     *@*.*\n"),
        "{}",
        run.stdout
    );
    let run = promptic_in(
        dir,
        &["render", "supernode", "--item-id", "ann@example.org"],
    );
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "Contact.\n"),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr,
        "note: family `supernode` chose `supernode/email` by its scope `*@*.*` (2 characters besides `*` and `?`)\n"
    );
    let run = promptic_in(dir, &["render", "supernode", "--item-id", "notes/today"]);
    assert_eq!(run.stdout, "Facts.\n");
    // without an item no member is a candidate: keep's error
    let run = promptic_in(dir, &["render", "supernode"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .starts_with("error: no matching prompt doc in `supernode` for tags (no tags)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("give the item's id with `--item-id`"),
        "{}",
        run.stderr
    );
}

// ------------------------------------------------------------------ cache breakpoints

#[test]
fn render_json_of_a_dotprompt_prompt_lists_its_cache_breakpoints() {
    let dir = &scratch("dotprompt-breakpoints");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("desk.prompt"),
        "---\nmodel: anthropic/claude-sonnet-4-5\ninput:\n  schema:\n    plan: string\n    question: string\n---\n{{role \"system\"}}Answer from the manual.\n{{cacheBreakpoint}}\nPlan: {{plan}}.\n{{role \"user\"}}{{question}}\n",
    )
    .unwrap();
    let render = |plan: &str, question: &str| {
        let plan = format!("plan={plan}");
        let question = format!("question={question}");
        let run = promptic_in(
            dir,
            &[
                "render", "desk", "--set", &plan, "--set", &question, "--json",
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        json(&run.stdout)
    };
    let pro = render("Pro", "Why?");
    let breakpoints = pro["breakpoints"].as_array().unwrap();
    assert_eq!(breakpoints.len(), 1);
    assert_eq!(breakpoints[0]["message"], 0);
    assert_eq!(breakpoints[0]["offset"], "Answer from the manual.\n".len());
    let hash = breakpoints[0]["prefix_hash"].as_str().unwrap();
    assert_eq!(hash.len(), 16);
    assert_eq!(
        pro["messages"][0]["content"][0]["text"],
        "Answer from the manual.\nPlan: Pro.\n"
    );
    // What follows the breakpoint changes; the prefix's hash does not.
    let basic = render("Basic", "How?");
    assert_ne!(basic["messages"], pro["messages"]);
    assert_eq!(basic["breakpoints"], pro["breakpoints"]);

    // A value before the breakpoint: `check` refuses the prompt, at the value.
    std::fs::write(
        dir.join("desk.prompt"),
        "---\ninput:\n  schema:\n    plan: string\n---\nPlan: {{plan}}.\n{{cacheBreakpoint}}\nAnswer.\n",
    )
    .unwrap();
    let check = promptic_in(dir, &["check"]);
    assert_eq!(check.code, 1, "{}", check.stdout);
    assert!(
        check
            .stderr
            .contains("`plan` is written before a cache breakpoint: it would break the cache"),
        "{}",
        check.stderr
    );
    assert!(check.stderr.contains("desk.prompt:6:9"), "{}", check.stderr);
    assert!(
        check
            .stderr
            .contains("everything before the cache breakpoint on line 7"),
        "{}",
        check.stderr
    );
}
