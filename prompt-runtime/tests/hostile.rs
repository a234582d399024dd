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

/// Loads `template` as `prompts/t.j2` and, when it loads, renders it with `values` and
/// reads what it uses as `check` does (`uses`, `paths`, `check_names`, `check_unused`),
/// all on a thread with 2 MiB of stack, the size of tokio's workers: the load's or the
/// render's error, or the text.
fn jinja_on_a_small_stack(template: String, values: serde_json::Value) -> Result<String, String> {
    jinja_files_on_a_small_stack(vec![("t.j2".into(), template)], values)
}

/// [`jinja_on_a_small_stack`] with more files: the first is the one rendered, the others
/// are there for it to include.
fn jinja_files_on_a_small_stack(
    files: Vec<(String, String)>,
    values: serde_json::Value,
) -> Result<String, String> {
    use prompt_runtime::SourceFile;
    use prompt_runtime::formats::jinja::{Options, check_names, check_unused};
    let run = move || {
        let entry = files[0].0.clone();
        let loaded = prompt_runtime::formats::jinja::Templates::load(
            &entry,
            Options::default(),
            &mut |name: &str| match files.iter().find(|(n, _)| n == name) {
                Some((n, text)) => Ok(SourceFile::new(format!("prompts/{n}"), text.as_str())),
                None => Err(None),
            },
        );
        let templates = loaded.map_err(|e| e.to_string())?;
        let uses = templates.uses(&entry);
        let names: Vec<&str> = uses.iter().map(|u| u.name.as_str()).collect();
        let given: Vec<(&str, bool)> = names.iter().map(|n| (*n, false)).collect();
        let _ = check_names(&templates, &entry, &given, "a field of `T`", "field");
        let _ = check_unused(&templates, &entry, &names, "field");
        let _ = templates.paths(&entry);
        templates.render(&entry, &values).map_err(|e| e.to_string())
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .expect("no panic and no stack overflow")
}

#[test]
fn jinja_chains_of_any_length_are_refused_at_the_depth_limit_on_a_small_stack() {
    let x = serde_json::json!({ "x": [[1]] });
    let indexes = format!("{{{{ x{} }}}}", "[0]".repeat(100_000));
    let ands = format!("{{% if x{} %}}y{{% endif %}}", " and x".repeat(100_000));
    let ors = format!("{{% if x{} %}}y{{% endif %}}", " or x".repeat(100_000));
    let filters = format!("{{{{ x{} }}}}", " | trim".repeat(200_000));
    let tests = format!("{{{{ x{} }}}}", " is defined".repeat(100_000));
    let attrs = format!("{{{{ x{} }}}}", ".a".repeat(100_000));
    let splits = format!("{{{{ x{} }}}}", ".split()".repeat(100_000));
    let keys = format!("{{{{ x{} }}}}", "['k']".repeat(100_000));
    let mixed = format!("{{{{ x{} | trim }}}}", "[0].a.split()".repeat(30_000));
    // Operators, signs, slices, inline `if`s, methods and tests with arguments.
    let sums = format!("{{{{ x{} }}}}", " + x".repeat(100_000));
    let powers = format!("{{{{ x{} }}}}", " ** x".repeat(100_000));
    let signs = format!("{{{{ {}x }}}}", "- ".repeat(100_000));
    let slices = format!("{{{{ x{} }}}}", "[1:]".repeat(100_000));
    let ifs = format!("{{{{ x{} }}}}", " if x else x".repeat(100_000));
    let methods = format!("{{{{ x{} }}}}", ".lower()".repeat(100_000));
    let tested = format!("{{{{ x{} }}}}", " is eq x".repeat(100_000));
    let parens = format!("{{{{ {}x{} }}}}", "(".repeat(100_000), ")".repeat(100_000));
    let nested_ifs = format!("{{{{ {}x }}}}", "x if x else ".repeat(100_000));
    for template in [
        indexes, ands, ors, filters, tests, attrs, splits, keys, mixed, sums, powers, signs,
        slices, ifs, methods, tested, parens, nested_ifs,
    ] {
        let head = template[..40].to_owned();
        let error = jinja_on_a_small_stack(template, x.clone()).unwrap_err();
        let shown: String = error.chars().take(300).collect();
        assert!(error.contains("nested too deeply"), "{head}…: {shown}");
    }
    // Within the limit, a chain renders.
    let within = "{{ x[0] | length }}".to_owned();
    assert_eq!(jinja_on_a_small_stack(within, x.clone()), Ok("1".into()));
    let within = format!("{{% if x{} %}}y{{% endif %}}", " and x".repeat(30));
    assert_eq!(jinja_on_a_small_stack(within, x), Ok("y".into()));
}

#[test]
fn jinja_values_a_template_builds_are_bounded_in_depth_on_a_small_stack() {
    let mut template = "{% set a = 1 %}".to_owned();
    for _ in 0..3_300 {
        template.push_str("{% set a = [[[ a ]]] %}");
    }
    template.push_str("{{ a | length }}");
    let error = jinja_on_a_small_stack(template, serde_json::json!({})).unwrap_err();
    let shown: String = error.chars().take(300).collect();
    assert!(
        error.contains("this list would nest more than 128 deep"),
        "{shown}"
    );
    // 42 times three lists around a number: 126 deep, within the limit.
    let mut template = "{% set a = 1 %}".to_owned();
    for _ in 0..42 {
        template.push_str("{% set a = [[[ a ]]] %}");
    }
    template.push_str("{{ a | length }} {{ a | tojson | length }}");
    let rendered = jinja_on_a_small_stack(template, serde_json::json!({}));
    assert_eq!(rendered, Ok("1 253".into()));
}

#[test]
fn jinja_at_every_limit_at_once_renders_on_a_small_stack() {
    // Blocks as deep as a file allows, in files included as deep as blocks may nest with
    // them, around expressions as deep as one may be.
    let deep = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let values: serde_json::Value =
        serde_json::from_str(&format!("{{\"x\": {}}}", deep(64))).unwrap();
    let expr = format!("x{} | length", "[0]".repeat(62));
    let condition = format!("x{}", " and x".repeat(62));
    let ifs = |body: &str| {
        format!(
            "{}{body}{}",
            format!("{{% if {condition} %}}").repeat(99),
            "{% endif %}".repeat(99)
        )
    };
    let files = vec![
        ("t.j2".to_owned(), ifs("{% include 'a.j2' %}")),
        ("a.j2".to_owned(), ifs("{% include 'b.j2' %}")),
        ("b.j2".to_owned(), format!("{{{{ {expr} }}}}")),
    ];
    assert_eq!(jinja_files_on_a_small_stack(files, values), Ok("1".into()));
}

#[test]
fn jinja_filters_count_what_they_build_against_the_output_limit() {
    // 100 items joined with a 1 MB separator: 100 MB, stopped at the 64 MiB limit as it
    // is built, printed or set.
    let values = serde_json::json!({ "xs": vec!["x"; 100], "sep": " ".repeat(1 << 20) });
    for template in [
        "{{ xs | join(sep) }}",
        "{% set s = xs | join(sep) %}",
        "{{ xs | join(sep) | length }}",
    ] {
        let error = jinja_on_a_small_stack(template.into(), values.clone()).unwrap_err();
        let shown: String = error.chars().take(300).collect();
        assert!(
            error.contains("this filter's result would make the render larger than 64 MiB"),
            "{template}: {shown}"
        );
    }
    // Joins nested in a template alone: 1,000 items, each level joined with the one below.
    let list = format!("[{}]", vec!["'ab'"; 1_000].join(", "));
    let nested = format!(
        "{{% set xs = {list} %}}{{{{ xs | join(xs | join(xs | join(xs | join('-')))) | length }}}}"
    );
    let error = jinja_on_a_small_stack(nested, serde_json::json!({})).unwrap_err();
    let shown: String = error.chars().take(300).collect();
    assert!(error.contains("larger than 64 MiB"), "{shown}");
    // A value printed last is held to the limit too.
    let values = serde_json::json!({ "x": "x".repeat(65 << 20) });
    let error = jinja_on_a_small_stack("{{ x }}".into(), values).unwrap_err();
    assert!(
        error.contains("the render is larger than 64 MiB"),
        "{error}"
    );
    // Within the limit, joins write what they did.
    let values = serde_json::json!({ "xs": ["a", 1, [2]], "sep": ", " });
    let joined =
        jinja_on_a_small_stack("{{ xs | join(sep) }}|{{ (xs | join('-')) }}".into(), values);
    assert_eq!(joined, Ok("a, 1, [2]|a-1-[2]".into()));
}

#[test]
fn jinja_lists_that_double_stop_at_the_output_limit() {
    // Each list holds the one before twice: 2^41 copies of a string in 41 lines.
    let mut template = "{% set a0 = 'abcdefgh' %}".to_owned();
    for n in 1..=41 {
        template.push_str(&format!("{{% set a{n} = [a{0}, a{0}] %}}\n", n - 1));
    }
    template.push_str("{{ a41 | length }}");
    let error = jinja_on_a_small_stack(template, serde_json::json!({})).unwrap_err();
    let shown: String = error.chars().take(300).collect();
    assert!(
        error.contains("the lists this render builds hold more than 64 MiB"),
        "{shown}"
    );
    // Ten levels are a few kilobytes.
    let mut template = "{% set a0 = 'abcdefgh' %}".to_owned();
    for n in 1..=10 {
        template.push_str(&format!("{{% set a{n} = [a{0}, a{0}] %}}", n - 1));
    }
    template.push_str("{{ a10 | length }} {{ a10[1][0][1][0][1][0][1][0][1][0] }}");
    let rendered = jinja_on_a_small_stack(template, serde_json::json!({}));
    assert_eq!(rendered, Ok("2 abcdefgh".into()));
}

#[test]
fn jinja_dict_literals_are_bounded_in_depth_and_size_on_a_small_stack() {
    // Written 100,000 deep: refused as any expression that deep.
    let n = 100_000;
    let written = format!("{{{{ {}x{} }}}}", "{'a': ".repeat(n), "}".repeat(n));
    let error = jinja_on_a_small_stack(written, serde_json::json!({ "x": 1 })).unwrap_err();
    let shown: String = error.chars().take(300).collect();
    assert!(error.contains("nested too deeply"), "{shown}");
    // Built deeper by `set` over and over: refused at the depth values may have.
    let mut template = "{% set a = 1 %}".to_owned();
    for _ in 0..3_300 {
        template.push_str("{% set a = {'k': {'k': {'k': a}}} %}");
    }
    template.push_str("{{ a | length }}");
    let error = jinja_on_a_small_stack(template, serde_json::json!({})).unwrap_err();
    let shown: String = error.chars().take(300).collect();
    assert!(
        error.contains("this dict would nest more than 128 deep"),
        "{shown}"
    );
    // Each dict holding the one before twice: stopped at the limit on what a render builds.
    let mut template = "{% set a0 = 'abcdefgh' %}".to_owned();
    for n in 1..=41 {
        template.push_str(&format!(
            "{{% set a{n} = {{'l': a{0}, 'r': a{0}}} %}}\n",
            n - 1
        ));
    }
    template.push_str("{{ a41 | length }}");
    let error = jinja_on_a_small_stack(template, serde_json::json!({})).unwrap_err();
    let shown: String = error.chars().take(300).collect();
    assert!(
        error.contains("the lists and dicts this render builds hold more than 64 MiB"),
        "{shown}"
    );
    // Within the limits, a deep dict renders.
    let mut template = "{% set a = 1 %}".to_owned();
    for _ in 0..42 {
        template.push_str("{% set a = {'k': {'k': {'k': a}}} %}");
    }
    template.push_str("{{ a | length }} {{ a | tojson | length }}");
    let rendered = jinja_on_a_small_stack(template, serde_json::json!({}));
    assert_eq!(rendered, Ok("1 883".into()));
}

#[test]
fn jinja_filter_blocks_hold_the_nesting_and_output_limits_on_a_small_stack() {
    // 100,000 nested: refused at the nesting limit of blocks.
    let n = 100_000;
    let nested = format!(
        "{}x{}",
        "{% filter upper %}".repeat(n),
        "{% endfilter %}".repeat(n)
    );
    let error = jinja_on_a_small_stack(nested, serde_json::json!({})).unwrap_err();
    let shown: String = error.chars().take(300).collect();
    assert!(error.contains("blocks nest more than 100 deep"), "{shown}");
    // 100,000 one after another render.
    let many = "{% filter upper %}a{% endfilter %}".repeat(n);
    assert_eq!(
        jinja_on_a_small_stack(many, serde_json::json!({})),
        Ok("A".repeat(n))
    );
    // As deep as blocks may nest, in files included as deep as they may be, around a dict
    // literal 31 deep (each level is two of an expression's 64).
    let blocks = |body: &str| {
        format!(
            "{}{body}{}",
            "{% filter trim | upper %}".repeat(99),
            "{% endfilter %}".repeat(99)
        )
    };
    let files = vec![
        ("t.j2".to_owned(), blocks("{% include 'a.j2' %}")),
        ("a.j2".to_owned(), blocks("{% include 'b.j2' %}")),
        (
            "b.j2".to_owned(),
            format!(
                "{{{{ {}x{} | length }}}}",
                "{'a': ".repeat(31),
                "}".repeat(31)
            ),
        ),
    ];
    let values = serde_json::json!({ "x": 1 });
    assert_eq!(jinja_files_on_a_small_stack(files, values), Ok("1".into()));
    // The output: a body, or what the filters make of it, past 64 MiB is refused.
    let values = serde_json::json!({ "x": "x".repeat(33 << 20) });
    for template in [
        "{% filter upper %}{{ x }}{{ x }}{% endfilter %}",
        "{% filter indent(4, true) %}{{ x }}{% endfilter %}{{ x }}",
        "{% filter center(100000000) %}x{% endfilter %}",
    ] {
        let error = jinja_on_a_small_stack(template.into(), values.clone()).unwrap_err();
        let shown: String = error.chars().take(300).collect();
        assert!(error.contains("64 MiB"), "{template}: {shown}");
    }
}

#[test]
fn jinja_macros_and_inheritance_hold_the_limits_on_a_small_stack() {
    let values = serde_json::json!({});
    // Macros that each call the one before twice: the copies double per level, and are
    // refused at the limit, not built.
    let mut doubling = "{% macro m0() %}x{% endmacro %}".to_owned();
    for i in 1..40 {
        let p = i - 1;
        doubling.push_str(&format!(
            "{{% macro m{i}() %}}{{{{ m{p}() }}}}{{{{ m{p}() }}}}{{% endmacro %}}"
        ));
    }
    doubling.push_str("{{ m39() }}");
    let error = jinja_on_a_small_stack(doubling, values.clone()).unwrap_err();
    assert!(error.contains("copy more than 200000 nodes"), "{error}");
    // A chain of 100,000 macros, each calling the one before: refused at the nesting
    // limit, without recursing 100,000 deep.
    let mut chain = "{% macro m0() %}x{% endmacro %}".to_owned();
    for i in 1..100_000 {
        chain.push_str(&format!(
            "{{% macro m{i}() %}}{{{{ m{}() }}}}{{% endmacro %}}",
            i - 1
        ));
    }
    chain.push_str("{{ m99999() }}");
    let error = jinja_on_a_small_stack(chain, values.clone()).unwrap_err();
    assert!(error.contains("blocks nest more than 100 deep"), "{error}");
    // Macro calls inside conditions as deep as an expression may be, past `and`s (each
    // runs under a guard of what comes before it), in blocks nested as deep as the
    // nesting limit leaves room for the calls' bodies: read and rendered within the
    // stack; three levels more, refused at the limit.
    let condition = format!("x{} and m(x)", " and x".repeat(60));
    let nested = |levels: usize| {
        format!(
            "{{% macro m(a) %}}{{{{ a }}}}{{% endmacro %}}{}y{}",
            format!("{{% if {condition} %}}").repeat(levels),
            "{% endif %}".repeat(levels)
        )
    };
    let x = serde_json::json!({ "x": 1 });
    assert_eq!(
        jinja_on_a_small_stack(nested(95), x.clone()),
        Ok("y".into())
    );
    let error = jinja_on_a_small_stack(nested(98), x).unwrap_err();
    assert!(error.contains("blocks nest more than 100 deep"), "{error}");
    let right = format!("{}m(x){}", "x and (".repeat(70), ")".repeat(70));
    let template = format!("{{% macro m(a) %}}{{{{ a }}}}{{% endmacro %}}{{{{ {right} }}}}");
    let error = jinja_on_a_small_stack(template, values.clone()).unwrap_err();
    assert!(error.contains("nested too deeply"), "{error}");
    // Blocks nested 100,000 deep, and 100,000 `super()`s in a row.
    let n = 100_000;
    let nested = (0..n)
        .map(|i| format!("{{% block b{i} %}}"))
        .collect::<String>()
        + &"{% endblock %}".repeat(n);
    let error = jinja_on_a_small_stack(nested, values.clone()).unwrap_err();
    assert!(error.contains("blocks nest more than 100 deep"), "{error}");
    let files = vec![
        (
            "child.j2".to_owned(),
            format!(
                "{{% extends 'base.j2' %}}{{% block b %}}{}{{% endblock %}}",
                "{{ super() }}".repeat(n)
            ),
        ),
        (
            "base.j2".to_owned(),
            "{% block b %}ab{% endblock %}".to_owned(),
        ),
    ];
    assert_eq!(
        jinja_files_on_a_small_stack(files, values.clone()),
        Ok("ab".repeat(n))
    );
    // A chain of 40 templates each extending the next: refused at the include depth;
    // a cycle of two, refused as one.
    let files: Vec<(String, String)> = (0..40)
        .map(|i| {
            let next = i + 1;
            (format!("t{i}.j2"), format!("{{% extends 't{next}.j2' %}}"))
        })
        .chain([("t40.j2".to_owned(), "end".to_owned())])
        .collect();
    let error = jinja_files_on_a_small_stack(files, values.clone()).unwrap_err();
    assert!(error.contains("nest more than 32 deep"), "{error}");
    let files = vec![
        ("a.j2".to_owned(), "{% extends 'b.j2' %}".to_owned()),
        ("b.j2".to_owned(), "{% extends 'a.j2' %}".to_owned()),
    ];
    let error = jinja_files_on_a_small_stack(files, values).unwrap_err();
    assert!(error.contains("cycle: a.j2 → b.j2 → a.j2"), "{error}");
}
