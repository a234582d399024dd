//! The Jinja front end at run time: `Templates::load` of a template and one file it may
//! include, then `render` with JSON values (twice: the same result), `paths`, `uses`,
//! `check_names` against the names it reads, and the derive's code generator
//! (`compiled::compile`).
//!
//! Input: `OPTIONS VALUES 0xFF TEMPLATE 0xFF INCLUDED`: the first byte's low three bits are
//! `trim_blocks`, `lstrip_blocks`, `keep_trailing_newline`; `VALUES` a JSON object (anything
//! else renders with no values); the template is `t.j2`, the included file `p.j2` (and
//! `parts/p.j2`). Bytes that are not UTF-8 are read lossily.

use prompt_runtime::SourceFile;
use prompt_runtime::formats::jinja::{
    MAX_OUTPUT, Options, Templates, check_names, check_unused, compiled,
};

pub fn run(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut parts = rest.split(|&b| b == 0xFF);
    let values = parts.next().unwrap_or_default();
    let template = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let included = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let options = Options {
        trim_blocks: flags & 1 != 0,
        lstrip_blocks: flags & 2 != 0,
        keep_trailing_newline: flags & 4 != 0,
    };
    let values: serde_json::Value = match serde_json::from_slice(values) {
        Ok(v @ serde_json::Value::Object(_)) => v,
        _ => serde_json::json!({}),
    };
    let loaded = Templates::load("t.j2", options, &mut |name: &str| match name {
        "t.j2" => Ok(SourceFile::new("prompts/t.j2", template.as_str())),
        "p.j2" | "parts/p.j2" => Ok(SourceFile::new(
            format!("prompts/{name}"),
            included.as_str(),
        )),
        _ => Err(None),
    });
    let templates = match loaded {
        Ok(templates) => templates,
        Err(diagnostics) => {
            let _ = diagnostics.to_string();
            return;
        }
    };
    let first = templates.render("t.j2", &values);
    if let Ok(text) = &first {
        assert!(text.len() <= MAX_OUTPUT, "a render past MAX_OUTPUT");
    }
    let again = templates.render("t.j2", &values);
    assert_eq!(
        first.as_ref().map_err(|e| e.to_string()),
        again.as_ref().map_err(|e| e.to_string()),
        "the same values render the same way"
    );
    if let Err(e) = &first {
        let _ = e.to_string();
    }
    let _ = templates.render("t.j2", &serde_json::json!({}));

    let uses = templates.uses("t.j2");
    let names: Vec<String> = uses.iter().map(|u| u.name.clone()).collect();
    let given: Vec<(&str, bool)> = names.iter().map(|n| (n.as_str(), false)).collect();
    let problems = check_names(&templates, "t.j2", &given, "a field of `T`", "field");
    for problem in &problems.0 {
        assert!(
            !problem.message().ends_with("is not a field of `T`"),
            "a name the template reads is reported unknown: {problem}"
        );
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    assert!(
        check_unused(&templates, "t.j2", &refs, "field")
            .0
            .is_empty(),
        "a name the template reads is reported unused"
    );
    let _ = templates.paths("t.j2");
    let _ = compiled::compile(&templates, "t.j2", &|name| {
        names
            .iter()
            .any(|n| n == name)
            .then(|| format!("self.{name}"))
    });
}
