//! `promptic` on a Jinja folder shaped like LangAlpha's (`tests/fixtures/jinja`, written
//! for these tests): `.md.j2` prompts with includes in subfolders, a guidance fence,
//! LangAlpha's environment options in `promptic.json`. Each expected text is what Jinja2
//! 3.1.6 renders from the same files and values.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jinja")
}

fn promptic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(args)
        .current_dir(folder())
        .env("NO_COLOR", "1")
        .output()
        .expect("the promptic binary runs")
}

/// The `text` of `render NAME --json` with the fixture's values and `extra` arguments.
fn rendered(name: &str, extra: &[&str]) -> String {
    let mut args = vec!["render", name, "--json"];
    args.extend_from_slice(extra);
    let out = promptic(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        json["path"],
        format!(
            "prompts/{}",
            if name.ends_with(".j2") {
                name.to_owned()
            } else {
                format!("{name}.md.j2")
            }
        )
    );
    json["text"].as_str().expect("text").to_owned()
}

#[test]
fn renders_a_fenced_system_prompt_with_includes_as_jinja2_at_both_levels() {
    let lean = rendered(
        "system",
        &["--context", "values.json", "--set", "guidance=lean"],
    );
    assert_eq!(
        lean,
        "# Research assistant\n\nToday is 2026-03-02.\nYou are Scout, a careful researcher.\n\n\n## Tools (2)\n\n1. `search` (slow)\n2. `read`\n\n## About the user\n\n- **Name**: Ada\n- **risk**: low\n- **style**: value\n- Watching 17 symbols in 2 lists\nBe brief.\n"
    );
    let detailed = rendered(
        "system",
        &["--context", "values.json", "--set", "guidance=detailed"],
    );
    assert_eq!(
        detailed,
        "# Research assistant\n\nToday is 2026-03-02.\nYou are Scout, a careful researcher.\n\n## How to work\n\nThink it through before answering, and name your sources.\n\n## Tools (2)\n\n1. `search` (slow)\n2. `read`\n\n## About the user\n\n- **Name**: Ada\n- **risk**: low\n- **style**: value\n- Watching 17 symbols in 2 lists\nBe brief.\n"
    );
    // Without a level the fence's default, detailed, holds; blocks that are off need no values.
    assert_eq!(
        rendered("system", &["--set", "date=d"]),
        "# Research assistant\n\nToday is d.\nYou are Scout, a careful researcher.\n\n## How to work\n\nThink it through before answering, and name your sources.\nBe thorough.\n"
    );
}

#[test]
fn renders_a_prompt_in_a_subfolder_with_a_registered_either_or_whitespace_control_and_raw() {
    assert_eq!(
        rendered("roles/analyst", &["--set", "guidance=lean"]),
        "You are an analyst.\n\nLimit: 10 steps.\nWrite {{ and }} literally."
    );
    assert_eq!(
        rendered("roles/analyst.md.j2", &[]),
        "You are an analyst: explain each number you give.\n\nLimit: 10 steps.\nWrite {{ and }} literally."
    );
    // The plain output ends in one newline, as every render's does.
    let out = promptic(&["render", "roles/analyst"]);
    assert!(out.stdout.ends_with(b"literally.\n"));
}

#[test]
fn a_value_the_template_prints_but_nobody_gave_is_an_error_at_its_use() {
    let out = promptic(&["render", "system"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "error: `date` has no value\n --> prompts/system.md.j2:3:13\n  |\n3 | Today is {{ date }}.\n  |             ^^^^\n  = help: give it with `--set date=VALUE` or `--context FILE.json`, or write `date | default(…)` to make it optional"
        ),
        "{stderr}"
    );
}

#[test]
fn a_context_whose_values_lack_what_the_template_reads_is_refused_before_rendering() {
    let context = std::env::temp_dir().join(format!(
        "promptic-jinja-wrong-paths-{}.json",
        std::process::id()
    ));
    std::fs::write(
        &context,
        r#"{"date": "d", "tools_enabled": true,
            "tools": [{"name": "search"}, {"nmae": "read"}],
            "profile": {"name": "Ada", "prefs": ["risk"], "counts": "2:17"}}"#,
    )
    .expect("the context is written");
    let out = promptic(&["render", "system", "--context", &context.to_string_lossy()]);
    std::fs::remove_file(&context).ok();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing is rendered");
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Both at once, each at its use in the file that reads it, with what the value is.
    assert!(
        stderr.contains(
            "error: no key `name` in `tools[1]` (read as `tool.name`)\n --> prompts/components/tools.md.j2:4:23\n  |\n4 | {{ loop.index }}. `{{ tool.name }}`{% if tool.slow | default(false) %} (slow){% endif %}\n  |                       ^^^^^^^^^\n  = help: did you mean `nmae`?\n  = note: `tools[1]` is a dict with the keys `nmae`"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "error: `.items()` needs a dict, and `profile.prefs` is a list\n --> prompts/components/profile.md.j2:4:22"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("= note: `profile.prefs` is ['risk']"),
        "{stderr}"
    );
}

#[test]
fn an_unknown_set_name_is_an_error_with_a_suggestion() {
    let out = promptic(&[
        "render",
        "system",
        "--set",
        "date=d",
        "--set",
        "tools_enabeld=true",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "error: prompt `system` uses no value named `tools_enabeld` (from `--set tools_enabeld=true`)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: did you mean `tools_enabled`?"),
        "{stderr}"
    );
}

/// `--set a.b=VALUE` sets one key of a value the templates read as a mapping, over the
/// context file's; a path they do not read is an error with the paths they do.
#[test]
fn a_dotted_set_name_sets_a_key_the_templates_read() {
    let text = rendered(
        "system",
        &["--context", "values.json", "--set", "profile.name=Bo"],
    );
    assert!(text.contains("- **Name**: Bo\n- **risk**: low\n"), "{text}");

    // One error each: a value a flag could not set is not reported missing too.
    for (flag, help) in [
        ("profile.nmae=Bo", "did you mean `profile.name`?"),
        ("profle.name=Bo", "did you mean `profile.name`?"),
        (
            "tools.first=x",
            "the templates read no key of `tools` by name: give it whole, in `--context FILE.json`",
        ),
    ] {
        let out = promptic(&[
            "render",
            "system",
            "--set",
            "date=d",
            "--set",
            "tools_enabled=yes",
            "--set",
            flag,
        ]);
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert!(out.stdout.is_empty());
        let name = flag.split('=').next().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "error: prompt `system` reads no `{name}` (from `--set {flag}`)\n  = help: {help}\n"
            )
        );
    }
}

/// `list` shows what the templates read each value as: a mapping, a list, or whole; a
/// `--set` value for a list or a mapping is JSON of that shape, never text looped over.
#[test]
fn list_shows_what_each_value_is_read_as_and_set_reads_it_so() {
    let dir = std::env::temp_dir().join(format!("promptic-jinja-kinds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("brief.md.j2"),
        "{{ user.name }}: {% for t in tools %}{{ t }} {% endfor %}{{ n }}\n",
    )
    .unwrap();
    let dir_arg = dir.to_string_lossy().into_owned();
    let list = promptic(&["list", "--dir", &dir_arg]);
    let render = |tools: &str| {
        promptic(&[
            "render",
            "brief",
            "--dir",
            &dir_arg,
            "--set",
            "user.name=Ada",
            "--set",
            tools,
            "--set",
            "n=3",
        ])
    };
    let good = render(r#"tools=["search", "read"]"#);
    let text = render("tools=sr");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        String::from_utf8_lossy(&list.stdout),
        "brief\n  context   user (object), tools (list), n\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&good.stdout),
        "Ada: search read 3\n"
    );
    assert_eq!(text.status.code(), Some(1));
    assert!(text.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&text.stderr),
        "error: `--set tools=sr`: the templates read `tools` as a list (looped over), and this is not one written as JSON\n  = help: write it as JSON, `--set 'tools=[\"a\", \"b\"]'`, or give it in `--context FILE.json`\n"
    );
}

#[test]
fn a_value_given_but_wrong_in_shape_is_an_error_at_its_use() {
    let scratch = std::env::temp_dir().join(format!("promptic-jinja-cli-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let values = scratch.join("values.json");
    std::fs::write(
        &values,
        r#"{"date": "d", "tools_enabled": true, "tools": 3}"#,
    )
    .unwrap();
    let out = promptic(&["render", "system", "--context", values.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&scratch);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "error: `tools` is an int, which cannot be looped over\n --> prompts/components/tools.md.j2:3:16"
        ),
        "{stderr}"
    );
}

#[test]
fn check_and_list_read_the_jinja_prompts() {
    let out = promptic(&["check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The included parts are checked, but they are no prompts.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "checked 2 prompts and 0 templates: no errors\n"
    );
    let out = promptic(&["list", "--json"]);
    assert!(out.status.success());
    let all: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let system = all
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "system")
        .expect("system is listed");
    assert_eq!(system["path"], "prompts/system.md.j2");
    let context: Vec<String> = system["variables"]["context"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["name"].as_str().unwrap(),
                c["kind"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        context,
        [
            "date text",
            "agent_name optional",
            "guidance optional",
            "tools_enabled optional",
            "tools optional",
            "profile optional"
        ]
    );
}

#[test]
fn check_reports_a_bad_fence_and_an_unsupported_tag_in_a_folder() {
    let dir = std::env::temp_dir().join(format!("promptic-jinja-check-{}", std::process::id()));
    let prompts = dir.join("prompts");
    std::fs::create_dir_all(prompts.join("parts")).unwrap();
    std::fs::write(
        prompts.join("a.md.j2"),
        "Facts.\n{% if guidance == \"detailed\" %}\nCoach.\n{% endif %}\n",
    )
    .unwrap();
    std::fs::write(
        prompts.join("parts/b.j2"),
        "{% autoescape false %}{% endautoescape %}",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(["check", "--dir", prompts.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error: a guidance fence needs `| default(\"detailed\")`"),
        "{stderr}"
    );
    assert!(stderr.contains("a.md.j2:2:7"), "{stderr}");
    assert!(
        stderr.contains("error: `{% autoescape %}` is not supported by promptic's Jinja front end"),
        "{stderr}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .ends_with("checked 2 prompts and 0 templates: 2 errors\n")
    );
}

#[test]
fn diff_guidance_shows_what_lean_drops_from_a_jinja_prompt() {
    let out = promptic(&["diff", "system", "--guidance", "--context", "values.json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("--- system (guidance=detailed)\n+++ system (guidance=lean)\n"),
        "{stdout}"
    );
    let removed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with('-') && !l.starts_with("---"))
        .collect();
    assert_eq!(
        removed,
        [
            "-## How to work",
            "-",
            "-Think it through before answering, and name your sources."
        ]
    );
    assert!(
        !stdout
            .lines()
            .any(|l| l.starts_with('+') && !l.starts_with("+++")),
        "{stdout}"
    );
    // A registered either-or is no failure: lean's line is shown and listed as registered.
    let out = promptic(&["diff", "roles/analyst", "--guidance"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("+You are an analyst.\n"), "{stdout}");
    assert!(
        stdout.ends_with(
            "lean adds 1 line, registered as an either-or:\n  {% else %}{# either-or: a small model does better with the bare role #}\n"
        ),
        "{stdout}"
    );
}

#[test]
fn diff_guidance_fails_on_a_jinja_line_lean_adds_that_nothing_registers() {
    let dir = std::env::temp_dir().join(format!("pk-jinja-unregistered-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("prompts")).unwrap();
    std::fs::write(
        dir.join("prompts/level.md.j2"),
        "{% if guidance | default(\"detailed\") == \"detailed\" %}\nShow your steps.\n{% endif %}\nLevel: {{ guidance | default(\"detailed\") }}\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(["diff", "level", "--guidance", "--dir"])
        .arg(dir.join("prompts"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("+Level: lean\n"), "{stdout}");
    assert!(
        stderr
            .contains("lean adds 1 line that detailed does not render and no either-or registers"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_that_mean_nothing_for_a_jinja_prompt_are_refused() {
    for (args, message) in [
        (
            &["render", "system", "--identity", "values.json"][..],
            "`--identity` does not apply to a Jinja prompt",
        ),
        (
            &["render", "system", "--tag", "type=x"][..],
            "`--tag` chooses a member of a family; a Jinja prompt is not one",
        ),
    ] {
        let out = promptic(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `tokens`, `diff`, `list` and `docs` reach a Jinja prompt as `render` does; the files it
/// includes are parts of it, not prompts of their own.
#[test]
fn every_command_reaches_a_jinja_prompt_and_not_its_includes() {
    let text = |out: &Output| String::from_utf8_lossy(&out.stdout).into_owned();
    let out = promptic(&["tokens", "system", "--context", "values.json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text(&out).starts_with("system: "), "{}", text(&out));
    assert!(
        text(&out).contains(" tokens (o200k_base), "),
        "{}",
        text(&out)
    );

    let out = promptic(&[
        "diff",
        "system",
        "--context",
        "values.json",
        "--a",
        "date=Monday",
        "--b",
        "date=Tuesday",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text(&out).contains("\n-Today is Monday.\n+Today is Tuesday.\n"),
        "{}",
        text(&out)
    );

    let out = promptic(&["list"]);
    assert!(text(&out).contains("\nsystem\n"), "{}", text(&out));
    // The includes show under the prompt that includes them, never as prompts.
    assert!(
        !text(&out).lines().any(|l| l.starts_with("components/")),
        "{}",
        text(&out)
    );

    let pages = std::env::temp_dir().join(format!("promptic-jinja-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&pages);
    let out = promptic(&["docs", "--out", &pages.to_string_lossy()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let system = std::fs::read_to_string(pages.join("system.md")).expect("a page for system");
    assert!(system.contains("- `date`\n"), "{system}");
    assert!(system.contains("- `components/tools.md.j2`\n"), "{system}");
    assert!(pages.join("roles/analyst.md").is_file());
    assert!(!pages.join("components").exists());
    std::fs::remove_dir_all(&pages).unwrap();
}

#[test]
fn a_context_file_keeps_its_dicts_in_order_and_its_integers_exact() {
    let dir = std::env::temp_dir().join(format!("promptic-jinja-order-{}", std::process::id()));
    let prompts = dir.join("prompts");
    std::fs::create_dir_all(&prompts).unwrap();
    std::fs::write(
        prompts.join("holdings.md.j2"),
        "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}{{ d }} {{ n }} {{ n - 1 }} {{ d | tojson }}",
    )
    .unwrap();
    let context = dir.join("ctx.json");
    std::fs::write(
        &context,
        r#"{"d": {"b": 1, "a": {"z": 2, "y": 3}}, "n": 100000000000000000000}"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(["render", "holdings", "--dir"])
        .arg(&prompts)
        .arg("--context")
        .arg(&context)
        .env("NO_COLOR", "1")
        .output()
        .expect("the promptic binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // What Jinja2 renders: the data's order, and `tojson` sorting keys as Jinja2's does.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "b=1;a={'z': 2, 'y': 3};{'b': 1, 'a': {'z': 2, 'y': 3}} 100000000000000000000 99999999999999999999 {\"a\": {\"y\": 3, \"z\": 2}, \"b\": 1}\n"
    );
}

/// A Jinja template that opens with YAML frontmatter sends it to the model, as Jinja2
/// does: `check` and the commands that render say so, unless a comment opens the file.
#[test]
fn frontmatter_in_a_jinja_template_is_pointed_out() {
    let dir = std::env::temp_dir().join(format!("promptic-jinja-fm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let yaml = "---\nname: summarizer\nmodel: gpt-4o\n---\nSummarize {{ text }}.\n";
    std::fs::write(dir.join("yaml.md.j2"), yaml).unwrap();
    std::fs::write(
        dir.join("kept.md.j2"),
        format!("{{#- sent as text -#}}\n{yaml}"),
    )
    .unwrap();
    std::fs::write(
        dir.join("rule.md.j2"),
        "---\nA rule above, prose below.\n---\n{{ text }}",
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_promptic"))
            .args(args)
            .arg("--dir")
            .arg(&dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("the promptic binary runs")
    };
    let warning = "warning: this looks like frontmatter, but a Jinja template has none: Jinja2 and promptic send these lines to the model as text\n";
    let check = run(&["check"]);
    assert!(check.status.success());
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert_eq!(stderr.matches(warning).count(), 1, "{stderr}");
    assert!(stderr.contains("yaml.md.j2:1:1"), "{stderr}");
    let render = run(&["render", "yaml", "--set", "text=x"]);
    assert!(render.status.success());
    assert!(String::from_utf8_lossy(&render.stderr).starts_with(warning));
    assert!(String::from_utf8_lossy(&render.stdout).starts_with("---\nname: summarizer\n"));
    for quiet in ["kept", "rule"] {
        let render = run(&["render", quiet, "--set", "text=x"]);
        assert!(render.status.success());
        assert_eq!(String::from_utf8_lossy(&render.stderr), "", "{quiet}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
