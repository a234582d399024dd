//! dotprompt's spec suite through the command line: each case becomes a folder (the
//! template as `t.prompt`, its partials as `_NAME.prompt`, `schemas.json`, `tools.json`)
//! and a data file (`input`, `context`, `messages`, `options`), and
//! `promptic render t --json` must print the case's whole expectation: what dotprompt's
//! `render()` returns plus the `input` its `renderMetadata()` gives, with `config`, `ext`
//! and `metadata` defaulting to `{}`, and `raw` when the case names it.
//!
//! The suite runs when `DOTPROMPT_SPEC_DIR` points at a checkout of google/dotprompt (or
//! its `spec/` folder); CI runs the cases of `tests/fixtures/dotprompt_spec.yaml`, written
//! for this test in the suite's layout, which cover each part of the comparison.

use std::path::{Path, PathBuf};
use std::process::Command;

// dotprompt's own value: objects keep the order the YAML writes (`{{json this}}` prints
// it), and compare in any order.
use prompt_runtime::formats::dotprompt::{Object, Value};

fn object(value: Option<&Value>) -> Object {
    value
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

fn to_json(value: Object) -> String {
    serde_json::to_string(&Value::Object(value)).unwrap()
}

/// Writes `text` at `dir/rel`, making the folders on the way.
fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// `a/b` is the partial file `a/_b.prompt`.
fn partial_file(name: &str) -> String {
    match name.rsplit_once('/') {
        Some((dir, base)) => format!("{dir}/_{base}.prompt"),
        None => format!("_{name}.prompt"),
    }
}

fn run_case(dir: &Path, suite: &Object, case: &Object) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let template = suite.get("template").and_then(Value::as_str).unwrap_or("");
    write(dir, "t.prompt", template);
    for key in ["partials", "resolverPartials"] {
        for (name, source) in object(suite.get(key)).iter() {
            write(dir, &partial_file(name), source.as_str().unwrap_or(""));
        }
    }
    for (key, file) in [("schemas", "schemas.json"), ("tools", "tools.json")] {
        let entries = object(suite.get(key));
        if !entries.is_empty() {
            write(dir, file, &to_json(entries));
        }
    }
    // `{...suite.data, ...case.data}`, and the case's render options.
    let mut data = object(suite.get("data"));
    data.extend_from(&object(case.get("data")));
    if let Some(options) = case.get("options") {
        data.insert("options", options.clone());
    }
    write(dir, "data.json", &to_json(data));

    let out = Command::new(env!("CARGO_BIN_EXE_promptic"))
        .args(["render", "t", "--dir", ".", "--data", "data.json", "--json"])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the promptic binary runs");
    if !out.status.success() {
        return Err(format!(
            "exit {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let got: Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("stdout: {e}"))?;
    let mut got = object(Some(&got));
    let raw = got.remove("raw");
    let got = Value::Object(got);
    let expect = object(case.get("expect"));
    let mut want = expect.clone();
    want.remove("raw");
    for key in ["ext", "config", "metadata"] {
        if want.get(key).is_none_or(|v| matches!(v, Value::Null)) {
            want.insert(key, Value::Object(Object::new()));
        }
    }
    let want = Value::Object(want);
    if got != want {
        return Err(format!(
            "\n  got  {}\n  want {}",
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&want).unwrap()
        ));
    }
    if let Some(want_raw) = expect.get("raw").filter(|v| !matches!(v, Value::Null))
        && raw.as_ref() != Some(want_raw)
    {
        return Err(format!("raw: got {raw:?}, want {want_raw:?}"));
    }
    Ok(())
}

/// Runs every case of the YAML files; returns (passed, total, failures).
/// `label` keeps the scratch folders of tests running at once apart.
fn run_files(files: &[PathBuf], base: &Path, label: &str) -> (usize, usize, Vec<String>) {
    let scratch =
        std::env::temp_dir().join(format!("promptic-spec-cli-{label}-{}", std::process::id()));
    let (mut passed, mut total) = (0, 0);
    let mut failures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let suites: Value =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file
            .strip_prefix(base)
            .unwrap_or(file)
            .display()
            .to_string();
        let Value::Array(suites) = suites else {
            continue;
        };
        for suite in suites.iter().filter_map(Value::as_object) {
            let Some(Value::Array(cases)) = suite.get("tests") else {
                continue;
            };
            for case in cases.iter().filter_map(Value::as_object) {
                total += 1;
                match run_case(&scratch.join(total.to_string()), suite, case) {
                    Ok(()) => passed += 1,
                    Err(why) => failures.push(format!(
                        "{name} / {} / {}: {why}",
                        suite.get("name").and_then(Value::as_str).unwrap_or(""),
                        case.get("desc").and_then(Value::as_str).unwrap_or("")
                    )),
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    (passed, total, failures)
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

#[test]
fn the_spec_suite_through_render_json() {
    let Some(dir) = std::env::var_os("DOTPROMPT_SPEC_DIR") else {
        println!(
            "dotprompt spec suite skipped: set DOTPROMPT_SPEC_DIR to a checkout of google/dotprompt"
        );
        return;
    };
    let mut dir = PathBuf::from(dir);
    if dir.join("spec").is_dir() {
        dir = dir.join("spec");
    }
    let mut files = Vec::new();
    yaml_files(&dir, &mut files);
    assert!(!files.is_empty(), "no spec/*.yaml under {}", dir.display());
    let (passed, total, failures) = run_files(&files, &dir, "suite");
    println!("dotprompt spec through `promptic render --json`: {passed}/{total} cases pass");
    for failure in &failures {
        println!("FAIL {failure}");
    }
    assert!(
        failures.is_empty(),
        "{} of {total} spec cases fail",
        failures.len()
    );
}

#[test]
fn the_suites_layout_through_render_json() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dotprompt_spec.yaml");
    let (passed, total, failures) =
        run_files(std::slice::from_ref(&file), file.parent().unwrap(), "own");
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!((passed, total), (8, 8));
}
