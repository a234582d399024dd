//! dotprompt's language-neutral spec suite (`spec/**/*.yaml` of google/dotprompt), run
//! when `DOTPROMPT_SPEC_DIR` points at a checkout (or its `spec/` folder). Each case is
//! compared as the JS reference runner compares it: the whole rendered result (without
//! `raw`, and `input`, which rendering drops) deep-equal to the expectation with `config`,
//! `ext` and `metadata` defaulting to `{}`; `raw` when the case names it; and
//! `renderMetadata` (without `messages`) the same way. Nothing of the suite is copied here.

use std::path::{Path, PathBuf};

use prompt_runtime::formats::dotprompt::{DataArgument, Object, PromptMetadata, Registry, Value};

fn spec_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            spec_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

fn object(value: Option<&Value>) -> Object {
    value
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// The expectation with `config`, `ext` and `metadata` defaulting to `{}`, less `drop`.
fn expected(expect: &Object, drop: &[&str]) -> Value {
    let mut out = expect.clone();
    for key in drop {
        out.remove(key);
    }
    for key in ["ext", "config", "metadata"] {
        if !out.get(key).is_some_and(|v| !matches!(v, Value::Null)) {
            out.insert(key, Value::Object(Object::new()));
        }
    }
    Value::Object(out)
}

fn run_case(suite: &Object, case: &Object) -> Result<(), String> {
    let template = suite.get("template").and_then(Value::as_str).unwrap_or("");
    let mut registry = Registry::new();
    for (name, schema) in object(suite.get("schemas")).iter() {
        registry.define_schema(name, schema.clone());
    }
    for (name, tool) in object(suite.get("tools")).iter() {
        registry.define_tool(name, tool.clone());
    }
    for (name, partial) in object(suite.get("partials")).iter() {
        registry
            .define_partial(name, partial.as_str().unwrap_or(""))
            .map_err(|e| format!("partial {name}: {e}"))?;
    }
    let resolvable = object(suite.get("resolverPartials"));
    registry.set_partial_resolver(move |name| {
        resolvable
            .get(name)
            .and_then(Value::as_str)
            .map(str::to_owned)
    });

    // `{...suite.data, ...case.data}`
    let mut data = object(suite.get("data"));
    data.extend_from(&object(case.get("data")));
    let data: DataArgument = serde_json::from_value(serde_json::Value::from(Value::Object(data)))
        .map_err(|e| format!("data: {e}"))?;
    let options = PromptMetadata(object(case.get("options")));
    let expect = object(case.get("expect"));

    let prompt = registry
        .parse(template)
        .map_err(|e| format!("parse: {e}"))?;
    let rendered = prompt
        .render_with(&data, &options)
        .map_err(|e| format!("render: {e}"))?;
    let mut result: Value =
        serde_json::from_value(serde_json::to_value(&rendered).unwrap()).unwrap();
    let raw = match &mut result {
        Value::Object(o) => o.remove("raw"),
        _ => None,
    };
    let want = expected(&expect, &["raw", "input"]);
    if result != want {
        return Err(format!(
            "render:\n  got  {}\n  want {}",
            serde_json::to_string(&result).unwrap(),
            serde_json::to_string(&want).unwrap()
        ));
    }
    if let Some(want_raw) = expect.get("raw").filter(|v| !matches!(v, Value::Null))
        && raw.as_ref() != Some(want_raw)
    {
        return Err(format!("raw: got {raw:?}, want {want_raw:?}"));
    }
    let metadata = prompt
        .render_metadata_with(&options)
        .map_err(|e| format!("renderMetadata: {e}"))?;
    let mut metadata = metadata.0;
    metadata.remove("raw");
    let want = expected(&expect, &["messages", "raw"]);
    let got = Value::Object(metadata);
    if got != want {
        return Err(format!(
            "renderMetadata:\n  got  {}\n  want {}",
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&want).unwrap()
        ));
    }
    Ok(())
}

#[test]
fn dotprompt_spec_suite() {
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
    spec_files(&dir, &mut files);
    assert!(!files.is_empty(), "no spec/*.yaml under {}", dir.display());
    let (mut passed, mut total, mut groups) = (0, 0, 0);
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let suites: Value =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let Value::Array(suites) = suites else {
            continue;
        };
        let name = file
            .strip_prefix(&dir)
            .unwrap_or(file)
            .display()
            .to_string();
        for suite in suites.iter().filter_map(Value::as_object) {
            groups += 1;
            let Some(Value::Array(cases)) = suite.get("tests") else {
                continue;
            };
            for case in cases.iter().filter_map(Value::as_object) {
                total += 1;
                match run_case(suite, case) {
                    Ok(()) => passed += 1,
                    Err(why) => failures.push(format!(
                        "{name} / {} / {}: {why}",
                        suite
                            .get("name")
                            .map(Value::to_js_string)
                            .unwrap_or_default(),
                        case.get("desc")
                            .map(Value::to_js_string)
                            .unwrap_or_default()
                    )),
                }
            }
        }
    }
    println!(
        "dotprompt spec: {passed}/{total} cases pass ({} files, {groups} groups)",
        files.len()
    );
    for failure in &failures {
        println!("FAIL {failure}");
    }
    assert!(
        failures.is_empty(),
        "{} of {total} spec cases fail",
        failures.len()
    );
}
