//! `promptic` on dotprompt folders (`tests/fixtures/dotprompt`, written for these tests):
//! a `.prompt` file with a partial, `@` context, history, tools and a named output schema;
//! `schemas.json` and `tools.json` as the registries.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn promptic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(args)
        .current_dir(fixture(""))
        .env("NO_COLOR", "1")
        .output()
        .expect("the promptic binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn render_json_has_dotprompts_shape() {
    let out = promptic(&[
        "render",
        "support",
        "--dir",
        "dotprompt",
        "--data",
        "dotprompt/data.json",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["model"], "acme/helpdesk-1");
    // Present even when empty, as the JS result has them.
    assert_eq!(json["config"], serde_json::json!({}));
    assert_eq!(json["ext"], serde_json::json!({}));
    assert_eq!(json["metadata"], serde_json::json!({}));
    // Rendering drops `input`; the command adds what `renderMetadata` gives for the same
    // options (here the data file's `input.default`, which replaces the frontmatter's).
    assert_eq!(
        json["input"],
        serde_json::json!({"default": {"question": "(no question)"}})
    );
    assert_eq!(
        json["output"]["schema"]["required"],
        serde_json::json!(["reply"])
    );
    assert_eq!(json["tools"], serde_json::json!(["escalate"]));
    assert_eq!(json["toolDefs"][0]["name"], "lookup_order");
    assert_eq!(
        json["raw"]["tools"],
        serde_json::json!(["lookup_order", "escalate"])
    );
    let messages = json["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "user"]);
    assert_eq!(
        messages[0]["content"][0]["text"],
        "\nYou answer tickets for Kite Supplies.\nSign as the team of Rosa.\n"
    );
    assert_eq!(messages[1]["metadata"]["purpose"], "history");
    assert_eq!(
        messages[2]["content"][0]["text"],
        "\nOrder A-17: Where is my parcel?"
    );
}

#[test]
fn render_options_fill_defaults_and_text_output_lists_messages() {
    let data = std::env::temp_dir().join(format!("promptic-dotprompt-{}.json", std::process::id()));
    std::fs::write(&data, r#"{"input": {"name": "Ada"}, "options": {"input": {"default": {"greeting": "welcome", "name": "nobody"}}}}"#).unwrap();
    let out = promptic(&[
        "render",
        "sub/plain",
        "--dir",
        "dotprompt",
        "--data",
        data.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&data);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "--- user ---\nHello Ada, welcome!\n");
}

#[test]
fn render_without_data_and_with_broken_data() {
    let out = promptic(&["render", "sub/plain.prompt", "--dir", "dotprompt", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"text\": \"Hello , !\\n\""),
        "{}",
        stdout(&out)
    );
    let out = promptic(&[
        "render",
        "sub/plain",
        "--dir",
        "dotprompt",
        "--data",
        "dotprompt/schemas.json",
    ]);
    assert!(
        out.status.success(),
        "extra keys are ignored: {}",
        stderr(&out)
    );
    let out = promptic(&[
        "render",
        "sub/plain",
        "--dir",
        "dotprompt",
        "--data",
        "dotprompt/_signature.prompt",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is not a dotprompt data file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn data_is_refused_for_other_prompts() {
    let out = promptic(&[
        "render",
        "nothing_here",
        "--dir",
        "dotprompt",
        "--data",
        "dotprompt/data.json",
    ]);
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn check_passes_a_good_folder_and_locates_problems() {
    let out = promptic(&["check", "--dir", "dotprompt"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    // Partials are counted apart from the prompts.
    assert_eq!(
        stdout(&out),
        "checked 2 prompts, 1 partial and 0 templates: no errors\n"
    );
    let out = promptic(&["check", "--dir", "dotprompt_broken"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("`{{#each}}` is never closed"), "{err}");
    assert!(
        err.contains("dotprompt_broken/open_block.prompt:4:4"),
        "{err}"
    );
    assert!(err.contains("unknown type or schema `Timestamp`"), "{err}");
    assert!(
        err.contains("dotprompt_broken/bad_schema.prompt:4:11"),
        "{err}"
    );
    assert!(err.contains("^"), "{err}");
}

#[test]
fn list_and_docs_cover_prompt_files() {
    let out = promptic(&["list", "--dir", "dotprompt", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let support = json
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "support")
        .expect("listed");
    assert_eq!(support["title"], "Answers a support ticket");
    let reads: Vec<&str> = support["variables"]["context"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(reads, ["customer", "order", "question"]);
    // the partial it takes in is its template; the registries it reads are not
    assert_eq!(
        support["variables"]["template"],
        serde_json::json!(["_signature.prompt"])
    );
    assert!(
        json.as_array()
            .unwrap()
            .iter()
            .all(|p| p["name"] != "signature"),
        "partials are not prompts"
    );

    let out_dir =
        std::env::temp_dir().join(format!("promptic-dotprompt-docs-{}", std::process::id()));
    let out = promptic(&[
        "docs",
        "--dir",
        "dotprompt",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(out_dir.join("support.md")).unwrap();
    let index = std::fs::read_to_string(out_dir.join("index.md")).unwrap();
    let _ = std::fs::remove_dir_all(&out_dir);
    assert!(page.contains("## Output schema"), "{page}");
    assert!(page.contains("\"reply\""), "{page}");
    assert!(index.contains("support"), "{index}");
}

/// `--set` and `--context` are a dotprompt file's `input`, as for every other prompt; a
/// value the prompt does not read, a required input that is missing and a `--set` value of
/// the wrong type are errors before anything renders, for `--data` too.
#[test]
fn set_and_context_are_the_input_and_are_checked() {
    let out = promptic(&[
        "render",
        "support",
        "--dir",
        "dotprompt",
        "--set",
        "customer=Rosa",
        "--set",
        "question=Where is it?",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Sign as the team of Rosa."),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).ends_with("Where is it?\n"), "{}", stdout(&out));

    let context = std::env::temp_dir().join(format!("promptic-dp-ctx-{}.json", std::process::id()));
    std::fs::write(&context, r#"{"customer": "Rosa", "ordr": "A-1"}"#).unwrap();
    let context_arg = context.to_string_lossy().into_owned();
    let out = promptic(&[
        "render",
        "support",
        "--dir",
        "dotprompt",
        "--context",
        &context_arg,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with(&format!(
            "error: prompt `support` reads no input `ordr` (from the key `ordr` of `{context_arg}`)\n --> {context_arg}:1:22\n"
        )),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("= help: did you mean `order`?"));
    assert!(stderr(&out).contains("write `\"order\": null` in it"));
    // One error: `order` is not reported missing as well.
    assert_eq!(
        stderr(&out).matches("error:").count(),
        1,
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
    // A key no input is close to is another prompt's: one file serves many prompts.
    std::fs::write(
        &context,
        r#"{"customer": "Rosa", "question": "Hi", "tenant_region": "eu"}"#,
    )
    .unwrap();
    let out = promptic(&[
        "render",
        "support",
        "--dir",
        "dotprompt",
        "--context",
        &context_arg,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_file(&context).unwrap();

    let out = promptic(&[
        "render",
        "support",
        "--dir",
        "dotprompt",
        "--set",
        "question=Hi",
    ]);
    assert_eq!(out.status.code(), Some(1));
    // Shown where the template first reads it.
    assert!(
        stderr(&out).starts_with(
            "error: cannot render `support`: the input `customer` is required and has no value\n  --> dotprompt/support.prompt:15:19\n"
        ),
        "{}",
        stderr(&out)
    );

    let data = std::env::temp_dir().join(format!("promptic-dp-data-{}.json", std::process::id()));
    std::fs::write(&data, r#"{"input": {"customer_name": "Rosa"}}"#).unwrap();
    let data_arg = data.to_string_lossy().into_owned();
    let out = promptic(&[
        "render",
        "support",
        "--dir",
        "dotprompt",
        "--data",
        &data_arg,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "reads no input `customer_name` (from the key `input.customer_name` of `{data_arg}`)"
        )) && err.contains("the input `customer` is required"),
        "{err}"
    );
    std::fs::remove_file(&data).unwrap();
}

/// A `--set` value is read as the input schema types it: a list or an object as JSON of
/// that shape, and text that is not one is an error, never rendered as a string; a dotted
/// name sets one property of an object input.
#[test]
fn set_reads_a_list_or_an_object_as_json_and_a_dotted_name_as_a_property() {
    let dir = std::env::temp_dir().join(format!("promptic-dp-set-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("ticket.prompt"),
        "---\ninput:\n  schema:\n    tags(array): string\n    owner(object):\n      name: string\n    urgent?: boolean\n---\n{{owner.name}}:{{#each tags}} {{this}}{{/each}}{{#if urgent}}!{{/if}}\n",
    )
    .unwrap();
    let dir_arg = dir.to_string_lossy().into_owned();
    let render = |tags: &str| {
        promptic(&[
            "render",
            "ticket",
            "--dir",
            &dir_arg,
            "--set",
            tags,
            "--set",
            r#"owner={"name": "Rosa"}"#,
        ])
    };
    let out = render(r#"tags=["urgent", "billing"]"#);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with("Rosa: urgent billing\n"),
        "{}",
        stdout(&out)
    );

    // One error each: the input a flag could not set is not reported missing too.
    for wrong in ["tags=urgent", r#"tags={"a": 1}"#] {
        let out = render(wrong);
        assert_eq!(out.status.code(), Some(1), "{wrong}");
        assert_eq!(
            stderr(&out),
            format!(
                "error: `--set {wrong}`: the input schema says `tags` is a list, written as JSON (`[\"a\", \"b\"]`)\n  = help: write `--set tags=...` with a value of that type, or give it in `--context FILE.json`\n"
            )
        );
        assert!(stdout(&out).is_empty());
    }

    // `list` shows each input's kind as the schema gives it.
    let out = promptic(&["list", "--dir", &dir_arg]);
    assert_eq!(
        stdout(&out),
        "ticket\n  context   tags (list), owner (object), urgent (optional)\n",
        "{}",
        stderr(&out)
    );

    // `docs` shows the input schema with its properties in the file's order.
    let pages = std::env::temp_dir().join(format!("promptic-dp-set-pages-{}", std::process::id()));
    let out = promptic(&["docs", "--dir", &dir_arg, "--out", pages.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(pages.join("ticket.md")).unwrap();
    let (tags, owner) = (page.find("\"tags\": {"), page.find("\"owner\": {"));
    assert!(tags.is_some() && tags < owner, "{page}");
    std::fs::remove_dir_all(&pages).unwrap();

    // `--set owner.name=Rosa`: one property of an object input, as its schema declares it.
    let with_owner = |owner: &str| {
        promptic(&[
            "render",
            "ticket",
            "--dir",
            &dir_arg,
            "--set",
            r#"tags=["vip"]"#,
            "--set",
            owner,
        ])
    };
    let out = with_owner("owner.name=Rosa");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).ends_with("Rosa: vip\n"), "{}", stdout(&out));

    // A boolean takes the words a flag takes for every format.
    for (word, shown) in [("yes", "Rosa: vip!\n"), ("OFF", "Rosa: vip\n")] {
        let out = promptic(&[
            "render",
            "ticket",
            "--dir",
            &dir_arg,
            "--set",
            r#"tags=["vip"]"#,
            "--set",
            "owner.name=Rosa",
            "--set",
            &format!("urgent={word}"),
        ]);
        assert!(
            stdout(&out).ends_with(shown),
            "{}{}",
            stdout(&out),
            stderr(&out)
        );
    }
    for (flag, help) in [
        ("owner.nmae=Rosa", "did you mean `owner.name`?"),
        ("ownr.name=Rosa", "did you mean `owner.name`?"),
        (
            "owner.name.first=Rosa",
            "the input schema declares no such property of `owner.name`",
        ),
    ] {
        let out = with_owner(flag);
        assert_eq!(out.status.code(), Some(1), "{flag}");
        let name = flag.split('=').next().unwrap();
        assert_eq!(
            stderr(&out),
            format!(
                "error: prompt `ticket` reads no input `{name}` (from `--set {flag}`)\n  = help: {help}\n"
            )
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tokens`, `diff` and `list` reach a dotprompt file as `render` does: its input by name
/// (not the paths its template reads), with `--set` as the input.
#[test]
fn every_command_reaches_a_dotprompt_file() {
    let out = promptic(&[
        "tokens",
        "support",
        "--dir",
        "dotprompt",
        "--set",
        "customer=Rosa",
        "--set",
        "question=Hi",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("support: "), "{}", stdout(&out));
    assert!(
        stdout(&out).ends_with("the contents of 2 messages summed\n"),
        "{}",
        stdout(&out)
    );

    let out = promptic(&[
        "diff",
        "support",
        "--dir",
        "dotprompt",
        "--set",
        "customer=Rosa",
        "--a",
        "question=Hi",
        "--b",
        "question=Bye",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("\n-Hi\n+Bye\n"), "{}", stdout(&out));

    // `--data` as `render` takes it: its history is counted, and both sides get it.
    let out = promptic(&[
        "tokens",
        "support",
        "--dir",
        "dotprompt",
        "--data",
        "dotprompt/data.json",
    ]);
    assert!(
        stdout(&out).ends_with("the contents of 3 messages summed\n"),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let out = promptic(&[
        "diff",
        "support",
        "--dir",
        "dotprompt",
        "--data",
        "dotprompt/data.json",
        "--a",
        "order=B-1",
        "--b",
        "order=B-2",
    ]);
    assert!(
        stdout(&out).contains("-Order B-1: Where is my parcel?\n+Order B-2: Where is my parcel?\n"),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );

    let out = promptic(&["list", "--dir", "dotprompt"]);
    assert!(
        stdout(&out).contains("support  Answers a support ticket\n  context   customer, order (optional), question (optional)\n"),
        "{}",
        stdout(&out)
    );
}

/// The flags of other formats are refused for a dotprompt file, not ignored.
#[test]
fn flags_of_other_formats_are_refused() {
    for (flag, value) in [
        ("--tag", "tone=formal"),
        ("--history", "dotprompt/data.json"),
        ("--identity", "dotprompt/data.json"),
    ] {
        let out = promptic(&[
            "render",
            "support",
            "--dir",
            "dotprompt",
            "--set",
            "customer=Rosa",
            flag,
            value,
        ]);
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert!(
            stderr(&out).starts_with(&format!("error: `{flag}`")),
            "{flag}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty());
    }
}

/// `render --json` shows both halves of a dotprompt render: the result and the `input`
/// dotprompt's `renderMetadata` reports (the schema compiled), before `output`.
#[test]
fn render_json_shows_the_input_render_metadata_reports() {
    let out = promptic(&[
        "render",
        "support",
        "--dir",
        "dotprompt",
        "--set",
        "customer=Rosa",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        json["input"]["schema"]["properties"]["customer"]["type"],
        "string"
    );
    assert_eq!(
        json["input"]["schema"]["required"],
        serde_json::json!(["customer"])
    );
    assert!(text.find("\"input\"") < text.find("\"output\""), "{text}");
}
