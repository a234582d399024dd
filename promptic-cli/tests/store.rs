//! `check`, `list` and `render` on store folders.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_promptic"))
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

/// A fresh folder under the target dir.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file under `dir` with its bytes, by path relative to it; the lock file aside.
fn tree(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                stack.push(path);
            } else if rel != "_meta/.promptic.lock" {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// A user folder over `examples/persona_prompts`: an edited text, a flag off, a prompt of
/// the user's own, as PromptEngine's editor would leave them.
fn customized(user: &std::path::Path) {
    std::fs::create_dir_all(user.join("_meta")).unwrap();
    std::fs::create_dir_all(user.join("prompts")).unwrap();
    std::fs::write(
        user.join("_meta/user_manifest.json"),
        r#"{"prompts": {
  "system_rule": {"domain": "prompts/system_rule.json", "order": 700},
  "time_sense": {"variants": {"default": {"enabled": false}}},
  "mine": {"domain": "prompts/mine.json"}
}}
"#,
    )
    .unwrap();
    std::fs::write(
        user.join("prompts/system_rule.json"),
        r#"{"id": "system_rule", "variants": {"default": {"text": "Edited, {{char_name}}."}}}"#,
    )
    .unwrap();
    std::fs::write(
        user.join("prompts/mine.json"),
        r#"{"id": "mine", "variants": {"default": {"text": "Mine."}}}"#,
    )
    .unwrap();
}

#[test]
fn store_export_reset_import_round_trips_the_user_layer() {
    let dir = scratch("round-trip");
    let user = dir.join("user");
    customized(&user);
    let (u, zip) = (
        user.to_string_lossy().into_owned(),
        dir.join("backup.zip").to_string_lossy().into_owned(),
    );
    let store = ["--dir", "examples/persona_prompts", "--user", u.as_str()];
    let customized_files = tree(&user);

    let (code, out, err) = run(&[&["store", "export", &zip][..], &store].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!(
            "exported the user layer of `{u}` to `{zip}`: 3 prompts (system_rule, time_sense, mine), 0 user placeholders (4 files)\n"
        )
    );

    let (code, _, err) = run(&[&["store", "reset"][..], &store].concat());
    assert_eq!(code, 2, "a factory reset needs --all");
    assert!(err.contains("<PROMPT_ID|--all>"), "{err}");
    let (code, out, _) = run(&[&["store", "reset", "system_rule"][..], &store].concat());
    assert_eq!(
        (code, out),
        (0, format!("reset `system_rule` to its default in `{u}`\n"))
    );
    assert!(!user.join("prompts/system_rule.json").exists());
    let (code, _, err) = run(&[&["store", "reset", "mine"][..], &store].concat());
    assert_eq!(code, 1);
    assert!(
        err.contains("has no default: remove it with `delete_prompt`"),
        "{err}"
    );
    let (code, out, _) = run(&[&["store", "reset", "--all"][..], &store].concat());
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!("reset `{u}` to the defaults: every edit, flag and user prompt removed\n")
    );
    // an empty user manifest is left, so that an old single-manifest folder is not
    // migrated again
    let reset = tree(&user);
    assert_eq!(
        reset.keys().collect::<Vec<_>>(),
        ["_meta/user_manifest.json"]
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&reset["_meta/user_manifest.json"]).unwrap();
    assert_eq!(manifest, serde_json::json!({"prompts": {}}));

    let (code, out, err) =
        run(&[&["store", "import", &zip, "--mode", "replace"][..], &store].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!(
            "imported `{zip}` into `{u}` (replace): 3 prompts (system_rule, time_sense, mine)\n"
        )
    );
    let back = tree(&user);
    assert_eq!(
        back.keys().collect::<Vec<_>>(),
        [
            "_meta/user_manifest.json",
            "prompts/mine.json",
            "prompts/system_rule.json"
        ]
    );
    for file in ["prompts/mine.json", "prompts/system_rule.json"] {
        assert_eq!(back[file], customized_files[file], "{file}");
    }
    let manifest: serde_json::Value =
        serde_json::from_slice(&back["_meta/user_manifest.json"]).unwrap();
    assert_eq!(manifest["prompts"]["system_rule"]["order"], 700);
    assert_eq!(
        manifest["prompts"]["time_sense"]["variants"]["default"]["enabled"],
        false
    );

    // merge, again: everything is customized already
    let (code, out, _) = run(&[&["store", "import", &zip][..], &store].concat());
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!(
            "imported `{zip}` into `{u}` (merge): 0 prompts\nskipped 3 prompts (system_rule, time_sense, mine), customized already\n"
        )
    );
    assert_eq!(tree(&user), back);
}

#[test]
fn store_import_refuses_a_broken_archive_and_changes_nothing() {
    use std::io::Write;
    let dir = scratch("refused");
    let user = dir.join("user");
    customized(&user);
    let u = user.to_string_lossy().into_owned();
    let store = ["--dir", "examples/persona_prompts", "--user", u.as_str()];
    let before = tree(&user);

    let text = dir.join("notes.zip");
    std::fs::write(&text, "not a zip").unwrap();
    let text = text.to_string_lossy().into_owned();
    let (code, out, err) = run(&[&["store", "import", &text][..], &store].concat());
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            "error: archive `{text}`: not a zip archive, or a damaged one: invalid Zip archive: Could not find EOCD; nothing was imported\n"
        )
    );

    // a valid archive but for a misspelt placeholder, and one whose entry leaves the folder
    let build = |name: &str, entries: &[(&str, &str)]| {
        let path = dir.join(name);
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        for (entry, data) in entries {
            zip.start_file(*entry, zip::write::SimpleFileOptions::default())
                .unwrap();
            zip.write_all(data.as_bytes()).unwrap();
        }
        zip.finish().unwrap();
        path.to_string_lossy().into_owned()
    };
    let metadata = r#"{"format": "promptic-store-archive", "format_version": 1}"#;
    let manifest = r#"{"prompts": {"mine": {"domain": "prompts/mine.json"}}}"#;
    let typo = build(
        "typo.zip",
        &[
            ("metadata.json", metadata),
            ("_meta/user_manifest.json", manifest),
            (
                "prompts/mine.json",
                r#"{"variants": {"default": {"text": "Hi {{char_nmae}}"}}}"#,
            ),
        ],
    );
    let (code, _, err) = run(&[
        &["store", "import", &typo, "--mode", "overwrite"][..],
        &store,
    ]
    .concat());
    assert_eq!(code, 1);
    assert!(
        err.starts_with(
            "error: unknown placeholder `{{char_nmae}}` in variant `default` of prompt `mine`\n"
        ),
        "{err}"
    );
    assert!(
        err.contains(&format!(" --> {typo}/prompts/mine.json:1:39\n")),
        "{err}"
    );
    assert!(err.contains("did you mean `{{char_name}}`?"), "{err}");

    let evil = build(
        "evil.zip",
        &[("metadata.json", metadata), ("../../outside.json", "{}")],
    );
    let (code, _, err) =
        run(&[&["store", "import", &evil, "--mode", "replace"][..], &store].concat());
    assert_eq!(code, 1);
    assert!(
        err.contains("entry `../../outside.json` is refused: its name has a `..` segment"),
        "{err}"
    );
    assert!(!dir.join("outside.json").exists());
    assert_eq!(tree(&user), before);
}

#[test]
fn store_export_writes_to_a_bare_file_name_in_the_current_folder() {
    let dir = scratch("bare-name");
    customized(&dir.join("user_prompts"));
    let defaults = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/persona_prompts");
    let out = Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args([
            "store",
            "export",
            "backup.zip",
            "--dir",
            defaults,
            "--user",
            "user_prompts",
        ])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(dir.join("backup.zip").is_file());
}

/// A PersonaUI-shaped folder in a fresh temporary directory, with a persona source file
/// beside it; returns (folder, source file).
fn persona_folder(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let root = std::env::temp_dir().join(format!("pk-cli-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("prompts");
    let files: &[(&str, &str)] = &[
        (
            "_meta/prompt_manifest.json",
            r#"{"prompts": {
  "rules": {"domain_file": "rules.json", "order": 100, "category": "system"},
  "recap": {"domain_file": "recap.json", "order": 50, "category": "summary"},
  "note": {"domain_file": "note.json", "order": 800, "position": "system_prompt_append", "category": "afterthought"},
  "opening": {"domain_file": "opening.json", "target": "message", "position": "first_assistant", "category": "context", "order": 150},
  "in_character": {"domain_file": "in_character.json", "target": "prefill", "category": "prefill", "order": 300},
  "consent": {"domain_file": "consent.json", "type": "multi_turn", "target": "message", "category": "dialog_injection", "order": 10}
}}"#,
        ),
        (
            "_meta/placeholder_registry.json",
            r#"{"placeholders": {
  "char_name": {"resolve_phase": "static", "source": "persona_config", "source_path": "persona_settings.name", "default": "Assistant"},
  "elapsed": {"resolve_phase": "runtime", "type": "string"}
}}"#,
        ),
        (
            "_meta/user_manifest.json",
            r#"{"version": "2.0", "prompts": {}}"#,
        ),
        (
            "rules.json",
            r#"{"rules": {"variants": {"default": {"content": "You are {{char_name}}."}}}}"#,
        ),
        (
            "recap.json",
            r#"{"recap": {"variants": {"default": {"content": "Summarize."}}}}"#,
        ),
        (
            "note.json",
            r#"{"note": {"variants": {"default": {"content": "After {{elapsed}}, add a thought."}}}}"#,
        ),
        (
            "opening.json",
            r#"{"opening": {"variants": {"default": {"content": "Hello!"}}}}"#,
        ),
        (
            "in_character.json",
            r#"{"in_character": {"variants": {"default": {"content": "(as {{char_name}})"}}}}"#,
        ),
        (
            "consent.json",
            r#"{"consent": {"variants": {"default": {"messages": [{"role": "user", "content": "Ready?"}, {"role": "assistant", "content": "Yes."}]}}}}"#,
        ),
    ];
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let source = root.join("persona_config.json");
    std::fs::write(&source, r#"{"persona_settings": {"name": "Luna"}}"#).unwrap();
    (dir, source)
}

#[test]
fn render_gives_every_assembly_of_a_store_folder() {
    let (dir, source) = persona_folder("assemblies");
    let d = dir.to_str().unwrap();
    let render = |extra: &[&str]| {
        let mut args = vec!["render"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--dir", d]);
        run(&args)
    };
    assert_eq!(
        render(&["system_prompt"]),
        (0, "You are Assistant.\n".into(), String::new())
    );
    let source_arg = format!("persona_config={}", source.display());
    assert_eq!(
        render(&["system_prompt", "--source", &source_arg]).1,
        "You are Luna.\n"
    );
    assert_eq!(
        render(&["system_prompt", "--category", "summary"]).1,
        "Summarize.\n"
    );
    assert_eq!(
        render(&["system_prompt_append", "--set", "elapsed=an hour"]).1,
        "After an hour, add a thought.\n"
    );
    assert_eq!(render(&["prefill"]).1, "(as Assistant)\n");
    assert_eq!(render(&["first_assistant"]).1, "Hello!\n");
    // the plan, as PromptEngine's get_chat_message_sequence
    assert_eq!(
        render(&["chat", "--sequence"]).1,
        "  150  first_assistant  opening\n  300  prefill          in_character\n"
    );
    let (code, out, _) = render(&["chat", "--sequence", "--json"]);
    assert_eq!(code, 0);
    let plan: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        plan[0],
        serde_json::json!({"id": "opening", "position": "first_assistant", "order": 150})
    );
    // --json: the common output, a text or a multi_turn prompt's messages, with the
    // prompt's domain file as its path
    let (_, out, _) = render(&["rules", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["text"], "You are Assistant.");
    assert!(
        json["path"].as_str().unwrap().ends_with("/rules.json"),
        "{json}"
    );
    let (code, out, err) = render(&["consent", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["messages"],
        serde_json::json!([{"role": "user", "content": "Ready?"}, {"role": "assistant", "content": "Yes."}])
    );
    assert_eq!(
        render(&["consent"]).1,
        "Section: consent | role=user\nReady?\n\nSection: consent | role=assistant\nYes.\n"
    );
    // a missing runtime value names the key; a bad source file is located
    let (code, _, err) = render(&["system_prompt_append"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("missing runtime value for placeholder `{{elapsed}}`"),
        "{err}"
    );
    // `--preview`: the text as PromptEngine shows it, a value it lacks as `{{key}}`
    assert_eq!(
        render(&["system_prompt_append", "--preview"]),
        (
            0,
            "After {{elapsed}}, add a thought.\n".into(),
            String::new()
        )
    );
    let json: serde_json::Value =
        serde_json::from_str(&render(&["note", "--preview", "--json"]).1).unwrap();
    assert_eq!(json["text"], "After {{elapsed}}, add a thought.");
    assert_eq!(
        render(&[
            "system_prompt_append",
            "--preview",
            "--set",
            "elapsed=an hour"
        ])
        .1,
        "After an hour, add a thought.\n"
    );
    let (code, _, err) = run(&["render", "daily_summary", "--preview"]);
    assert_eq!(code, 1);
    assert!(err.contains("`--preview` is for store folders"), "{err}");
    let (code, _, err) = render(&[
        "system_prompt",
        "--source",
        "persona_config=/dev/null/none.json",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("cannot read the `persona_config` source `/dev/null/none.json`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

#[test]
fn a_store_folder_is_read_as_promptengine_reads_it_and_checked_prompt_by_prompt() {
    let (dir, _) = persona_folder("in-place");
    let d = dir.to_str().unwrap();
    // a user entry replaces the system entry whole: `rules` loses its order and category
    std::fs::write(
        dir.join("_meta/user_manifest.json"),
        r#"{"prompts": {"rules": {"domain_file": "rules.json"}}}"#,
    )
    .unwrap();
    let (code, out, _) = run(&["list", "--dir", d]);
    assert_eq!(code, 0);
    assert!(
        out.contains("rules  \n  system_prompt  order 9999\n"),
        "{out}"
    );
    // one broken prompt: check names it, the others still render
    std::fs::write(
        dir.join("recap.json"),
        r#"{"recap": {"variants": {"default": {"content": "{{char_nam}}"}}}}"#,
    )
    .unwrap();
    let (code, out, err) = run(&["check", "--dir", d]);
    assert_eq!(code, 1);
    assert!(out.ends_with(": 1 error\n"), "{out}");
    assert!(err.contains("did you mean `{{char_name}}`?"), "{err}");
    assert_eq!(
        run(&["render", "rules", "--dir", d]).1,
        "You are Assistant.\n"
    );
    let (code, _, err) = run(&["render", "recap", "--dir", d]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown placeholder `{{char_nam}}`"), "{err}");
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

/// A store's prompts and assemblies reach every command through the store format, with
/// the flags every format takes: `--set`, `--context`, `--json`; a misspelt value is
/// refused with a did-you-mean, a missing one named.
#[test]
fn every_command_reaches_a_store_folder() {
    let (dir, _) = persona_folder("commands");
    let d = dir.to_str().unwrap();
    let context = dir.parent().unwrap().join("context.json");
    std::fs::write(&context, r#"{"elapsed": "a day", "unrelated": 1}"#).unwrap();
    let c = context.to_str().unwrap();
    let with = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--dir", d]);
        run(&all)
    };
    let (code, out, err) = with(&["tokens", "note", "--set", "elapsed=an hour", "--json"]);
    assert_eq!(code, 0, "{err}");
    let count: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(count["name"], "note");
    assert!(count["tokens"].as_u64().unwrap() > 3, "{out}");
    let (code, out, err) = with(&["tokens", "system_prompt", "--context", c]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("system_prompt: "), "{out}");
    let (code, out, err) = with(&[
        "diff",
        "note",
        "--a",
        "elapsed=an hour",
        "--b",
        "elapsed=a day",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("-After an hour, add a thought."), "{out}");
    assert!(out.contains("+After a day, add a thought."), "{out}");
    let (code, out, err) = with(&["render", "note", "--context", c]);
    assert_eq!(
        (code, out.as_str()),
        (0, "After a day, add a thought.\n"),
        "{err}"
    );
    // a misspelt value: refused, pointing at the flag's name
    let (code, _, err) = with(&["tokens", "note", "--set", "elapsd=an hour"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("`--set elapsd=an hour`: the registry of"),
        "{err}"
    );
    assert!(err.contains("did you mean `elapsed`?"), "{err}");
    // a missing runtime value: named, nothing rendered
    let (code, out, err) = with(&["tokens", "note"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("`{{elapsed}}`"), "{err}");
    // an unknown prompt: a did-you-mean over the ids and the assemblies
    let (code, _, err) = with(&["render", "recaps"]);
    assert_eq!(code, 1);
    assert!(err.contains("has no prompt `recaps`"), "{err}");
    assert!(err.contains("did you mean `recap`?"), "{err}");
    // list: each prompt's values as the store format reports them
    let (code, out, err) = with(&["list"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rules  \n  system_prompt  order 100, category system\n  variants  default\n  uses      char_name (optional)\n"), "{out}");
    assert!(out.contains("\n  uses      elapsed\n"), "{out}");
    // docs: a page per prompt, with the values it reads
    let out_dir = dir.parent().unwrap().join("docs");
    let (code, out, err) = with(&["docs", "--out", out_dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("wrote 6 pages"), "{out}");
    let page = std::fs::read_to_string(out_dir.join("note.md")).unwrap();
    assert!(page.contains("(PromptEngine)"), "{page}");
    assert!(page.contains("- `elapsed`, text"), "{page}");
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

/// Reading commands change no store folder: one in PromptEngine's older layout (one
/// manifest holding the user's own prompt, the factory defaults under `_defaults/`), which
/// PromptEngine migrates when it opens it, renders what it shows and is left as it was.
#[test]
fn reading_commands_leave_a_store_folder_in_the_older_layout_as_it_was() {
    let dir = scratch("older-layout");
    let registry =
        r#"{"placeholders": {"pet": {"resolve_phase": "static", "default": "Biscuit"}}}"#;
    let factory = r#"{"version": "3", "prompts": {
  "greet": {"domain_file": "greet.json", "order": 10, "category": "system"}}}"#;
    let greet = r#"{"greet": {"variants": {"default": {"content": "Hello from {{pet}}."}}}}"#;
    let files = [
        ("_defaults/_meta/prompt_manifest.json", factory),
        ("_defaults/_meta/placeholder_registry.json", registry),
        ("_defaults/greet.json", greet),
        (
            "_meta/prompt_manifest.json",
            r#"{"version": "3", "prompts": {
  "walks": {"domain_file": "walks.json", "order": 5, "category": "custom"},
  "greet": {"domain_file": "greet.json", "order": 30, "category": "system"}}}"#,
        ),
        ("_meta/placeholder_registry.json", registry),
        ("greet.json", greet),
        (
            "walks.json",
            r#"{"walks": {"variants": {"default": {"content": "{{pet}} walks at noon."}}}}"#,
        ),
    ];
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let before = tree(&dir);
    let d = dir.to_str().unwrap();
    let out_dir = dir.parent().unwrap().join("older-layout-docs");
    let (code, out, err) = run(&["render", "system_prompt", "--dir", d]);
    assert_eq!(
        (code, out.as_str()),
        (0, "Biscuit walks at noon.\n\nHello from Biscuit.\n"),
        "{err}"
    );
    let o = out_dir.to_str().unwrap();
    for args in [
        &["render", "walks", "--json", "--dir", d][..],
        &["render", "chat", "--sequence", "--dir", d],
        &["tokens", "walks", "--dir", d],
        &[
            "diff", "walks", "--a", "pet=Rex", "--b", "pet=Ada", "--dir", d,
        ],
        &["docs", "--out", o, "--dir", d],
        &["list", "--json", "--dir", d],
        &["list", "--dir", d],
        &["check", "--dir", d],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(tree(&dir), before, "{args:?} changed the folder");
    }
    assert!(!dir.join("_meta/.promptic.lock").exists());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&out_dir);
}
