//! Hostile input: deep nesting, long template chains, exponential expansion, error floods.
//! Each must end quickly with a clear error: no stack overflow, no runaway allocation, no
//! flood of diagnostics. The tests run on the test harness's threads (2 MiB of stack), so
//! a recursion that the limits do not bound fails here first.

use prompt_runtime::check::{check, infer_context, referenced_names};
use prompt_runtime::load::PromptFile;
use prompt_runtime::resolve::{ContextVar, MAX_DEPTH, MAX_EXPANDED, Schema, Templates, VarKind};
use prompt_runtime::{Diagnostics, Identity};
use std::collections::HashMap;
use std::fmt::Write;

fn file(path: &str, text: &str) -> PromptFile {
    PromptFile::from_text(path, text).expect("no frontmatter problems")
}

/// Checks `text` the way the CLI does (context inferred), returning the problems.
fn check_inferred(text: &str, templates: &Templates) -> Diagnostics {
    let prompt = file("prompts/p.md", text);
    let context = infer_context(&prompt, &[], &[], templates);
    let _ = referenced_names(&prompt, templates);
    let schema = Schema {
        context,
        ..Schema::default()
    };
    match check("p", prompt, schema, templates) {
        Ok(_) => Diagnostics::default(),
        Err(e) => e,
    }
}

fn messages(d: &Diagnostics) -> Vec<&str> {
    d.0.iter().map(|d| d.message()).collect()
}

#[test]
fn deeply_nested_blocks_are_refused_once() {
    for depth in [20_000, 100_000] {
        let mut text = String::new();
        for i in 0..depth {
            writeln!(text, "{{% if x{} %}}", i % 7).unwrap();
        }
        text.push_str("deep\n");
        for _ in 0..depth {
            text.push_str("{% endif %}\n");
        }
        let errors = check_inferred(&text, &Templates::new());
        let deep: Vec<_> = messages(&errors)
            .into_iter()
            .filter(|m| m.contains("nested more than"))
            .collect();
        assert_eq!(deep, ["blocks nested more than 64 deep"], "{errors}");
    }
}

#[test]
fn unclosed_blocks_by_the_hundred_thousand_are_counted() {
    let text = "{% if x %}\n".repeat(100_000);
    let errors = check_inferred(&text, &Templates::new());
    let shown = errors.to_string();
    assert!(errors.0.len() < 60, "{} diagnostics", errors.0.len());
    assert!(shown.len() < 20_000, "{} bytes of diagnostics", shown.len());
    assert!(shown.contains("blocks nested more than 64 deep"), "{shown}");
    assert!(shown.contains("more errors like"), "{shown}");
}

#[test]
fn a_flood_of_bad_braces_on_one_long_line_is_capped_and_excerpted() {
    let text = "${ ".repeat(16_000);
    let errors = check_inferred(&text, &Templates::new());
    let shown = errors.to_string();
    assert_eq!(errors.0.len(), 51);
    assert!(shown.len() < 30_000, "{} bytes of diagnostics", shown.len());
    assert!(
        shown.contains("15950 more errors like \"`${` must be followed by a name and `}`\" in prompts/p.md, not shown"),
        "{}",
        &shown[shown.len() - 400..]
    );
}

/// Templates `t0` … `t{n-1}`, each using the next `uses` times on one line; the last one
/// is plain text.
fn chain(n: usize, uses: usize) -> Templates {
    let mut templates = Templates::new();
    for i in 0..n {
        let body = if i + 1 == n {
            "leaf text".to_owned()
        } else {
            vec![format!("$t{}", i + 1); uses].join(" ")
        };
        templates.insert(format!("t{i}"), file(&format!("templates/t{i}.md"), &body));
    }
    templates
}

#[test]
fn a_template_chain_deeper_than_the_limit_names_the_chain() {
    for depth in [1_000, 10_000] {
        let templates = chain(depth, 1);
        let errors = check_inferred("Start $t0", &templates);
        let messages = messages(&errors);
        assert_eq!(messages.len(), 1, "{errors}");
        assert!(
            messages[0].contains(&format!("nested more than {MAX_DEPTH} deep")),
            "{errors}"
        );
        let note = &errors.0[0].notes()[0];
        assert!(
            note.starts_with("the chain of templates: t0 -> t1 -> t2"),
            "{note}"
        );
    }
    // Within the limit, a chain resolves and renders.
    let templates = chain(MAX_DEPTH - 1, 1);
    let prompt = file("prompts/p.md", "Start $t0");
    let checked = check("p", prompt, Schema::default(), &templates).unwrap();
    let out = checked
        .render(&HashMap::new(), &Identity::default())
        .unwrap();
    assert_eq!(out.text, "Start leaf text");
}

#[test]
fn exponential_expansion_is_refused_before_rendering() {
    // Twice per line, 40 levels: 2^40 copies of the leaf.
    let errors = check_inferred("$t0", &chain(40, 2));
    let shown = errors.to_string();
    assert!(shown.contains("the prompt is too large"), "{shown}");
    assert!(shown.contains(&format!("more than {} MiB", MAX_EXPANDED >> 20)));
    // Three templates each using the next 1,300 times: 7.8 KB of input.
    let errors = check_inferred("$t0", &chain(4, 1_300));
    assert!(
        errors.to_string().contains("the prompt is too large"),
        "{errors}"
    );
    // The same shapes, small enough, are fine.
    let prompt = file("prompts/p.md", "$t0");
    let checked = check("p", prompt, Schema::default(), &chain(4, 3)).unwrap();
    let out = checked
        .render(&HashMap::new(), &Identity::default())
        .unwrap();
    assert_eq!(out.text.matches("leaf text").count(), 27);
}

#[test]
fn inferring_names_does_not_expand_templates() {
    // 2^60 expansions if inference walked every use; it summarises each template once.
    let mut templates = chain(60, 2);
    templates.insert(
        "t59",
        file(
            "templates/t59.md",
            "$leaf_value\n{% if maybe %}\n$maybe\n{% endif %}",
        ),
    );
    let prompt = file("prompts/p.md", "$t0");
    let context = infer_context(&prompt, &[], &[], &templates);
    assert_eq!(
        context,
        [
            ContextVar::new("leaf_value", VarKind::Text),
            ContextVar::new("maybe", VarKind::Optional)
        ]
    );
    let names = referenced_names(&prompt, &templates);
    assert!(names.contains("leaf_value") && names.contains("t59"));
}

#[test]
fn a_directive_that_is_only_braces_is_an_error_not_a_panic() {
    // Found by fuzzing: `%}` overlapping `{%` once sliced backwards.
    for text in ["Hello $day\n{%}", "{%}", "{%}}", "x {%} y", "{%%}", "{% %}"] {
        let errors = check_inferred(text, &Templates::new());
        assert!(!errors.is_empty(), "{text:?}");
    }
}

#[test]
fn many_placeholders_record_each_use() {
    let mut text = String::new();
    for i in 0..32_000 {
        write!(text, "$v{} ", i % 500).unwrap();
    }
    let templates = Templates::new();
    let prompt = file("prompts/p.md", &text);
    let context = infer_context(&prompt, &[], &[], &templates);
    assert_eq!(context.len(), 500);
    let checked = check(
        "p",
        prompt,
        Schema {
            context,
            ..Schema::default()
        },
        &templates,
    )
    .unwrap();
    let uses: usize = checked
        .resolved
        .variables
        .iter()
        .map(|v| v.uses.len())
        .sum();
    assert_eq!(uses, 32_000);
}

#[test]
fn a_template_cycle_is_one_error_wherever_it_is_entered() {
    let mut templates = Templates::new();
    for (name, next) in [("a", "b"), ("b", "c"), ("c", "a")] {
        templates.insert(
            name,
            file(&format!("templates/{name}.md"), &format!("{name} ${next}")),
        );
    }
    let mut all = Diagnostics::default();
    for start in ["$a", "$b", "$c", "$c $a"] {
        let errors = check_inferred(start, &templates);
        assert_eq!(errors.0.len(), 1, "{errors}");
        all.extend(errors);
    }
    assert_eq!(all.0.len(), 1, "{all}");
    let shown = all.to_string();
    assert!(
        shown.starts_with("error: template cycle: a -> b -> c -> a\n --> templates/c.md:1:3"),
        "{shown}"
    );
}

/// `levels` objects, one in another, around one string: `{"a": {"a": … "x" … }}`.
fn nested_object(levels: usize) -> String {
    format!("{}\"x\"{}", "{\"a\": ".repeat(levels), "}".repeat(levels))
}

/// An identity 20,000 objects deep (140 KB) is one error naming the key, at any depth,
/// not a stack overflow in `Identity::from_json`.
#[test]
fn an_identity_nested_deep_is_one_error() {
    use prompt_runtime::IdentityError;
    use prompt_runtime::identity::MAX_DEPTH;
    for levels in [20_000, 50_000] {
        let err = Identity::from_json(&nested_object(levels)).unwrap_err();
        let IdentityError::TooDeep { key } = &err else {
            panic!("{err}");
        };
        assert_eq!(key.split('_').count(), MAX_DEPTH);
    }
}

/// A `promptic.json` whose identity nests 50,000 objects is one located error, not a
/// stack overflow in `check` or in rustc (the derive): both open the folder with
/// `Project::open`, as here, on a test thread's 2 MiB of stack (rustc's main thread has
/// 8 MiB).
#[test]
fn a_configuration_with_an_identity_nested_deep_is_one_located_error() {
    let dir = std::env::temp_dir().join(format!("promptic-deep-identity-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = format!(
        "{{\n  \"identity\": {{\"name\": \"Sam\", \"deep\": {}}}\n}}\n",
        nested_object(50_000)
    );
    std::fs::write(dir.join("promptic.json"), &config).unwrap();
    std::fs::write(dir.join("p.md"), "Hi $name\n").unwrap();
    let result = prompt_runtime::load::Project::open(&dir, "prompts");
    let _ = std::fs::remove_dir_all(&dir);
    let errors = result.unwrap_err();
    assert_eq!(errors.0.len(), 1, "{errors}");
    let error = &errors.0[0];
    // The identity is level 1, `deep` level 2: the 64th object of the chain is too deep.
    let key = format!("deep_{}", vec!["a"; 63].join("_"));
    assert_eq!(
        error.message(),
        format!("identity key `{key}` holds an object nested more than 64 levels deep")
    );
    let at = error.location().expect("located");
    assert_eq!(at.path, "prompts/promptic.json");
    let before = "  \"identity\": {\"name\": \"Sam\", \"deep\": ";
    assert_eq!((at.line, at.col), (2, before.len() + 6 * 63 + 1));
    assert_eq!(&config[at.span.clone()], "{");
    assert!(error.help().is_some());
}
