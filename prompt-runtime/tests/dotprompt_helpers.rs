//! Helpers in dotprompt templates: Handlebars' `lookup` and `log`, helpers registered
//! from Rust, property segments on strings, and the tags JavaScript's dotprompt cannot
//! render (a block helper called without `#`, an unregistered helper). Each expected text
//! is what dotprompt's JavaScript implementation renders for the same template and
//! input; the cases are written here for this test.

use prompt_runtime::formats::dotprompt::{DataArgument, Registry, Value};

/// The input every case renders with.
fn input() -> DataArgument {
    serde_json::from_value(serde_json::json!({
        "input": {
            "tag": "<b>",
            "empty": "",
            "zero": 0,
            "nums": [3, 4],
            "obj": {"k": 5, "inner": {"word": "deep"}},
            "one": 1,
            "two": 2,
            "emoji": "a😀b",
            "pairs": [[1, 2], 3],
            "fruit": ["apple", "pear"],
            "keys": ["k", "inner"],
        }
    }))
    .unwrap()
}

/// The first message's text, or `""` when the render gives no message.
fn text(registry: &Registry, template: &str) -> String {
    let prompt = registry
        .parse(template)
        .unwrap_or_else(|e| panic!("{template}: {e}"));
    let rendered = prompt
        .render(&input())
        .unwrap_or_else(|e| panic!("{template}: {e}"));
    rendered
        .messages
        .first()
        .and_then(|m| m.content.first())
        .and_then(|p| p.text())
        .unwrap_or("")
        .to_owned()
}

/// A registry with the helpers a Genkit application registers in code: `list` (an array
/// as dash lines, else nothing) and `add` (JavaScript's `a + b` on numbers and strings).
fn genkit_like() -> Registry {
    let mut registry = Registry::new();
    registry
        .define_helper("list", |args| {
            Ok(match args.param(0) {
                Some(Value::Array(items)) => Value::from(
                    items
                        .iter()
                        .map(|item| format!("- {}", item.to_js_string()))
                        .collect::<Vec<_>>()
                        .join("\n"),
                ),
                _ => Value::from(""),
            })
        })
        .unwrap();
    registry
        .define_helper("add", |args| match (args.param(0), args.param(1)) {
            (Some(a), Some(b)) if a.as_f64().is_some() && b.as_f64().is_some() => {
                let sum = a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0);
                Ok(Value::from(serde_json::json!(sum)))
            }
            (a, b) => Ok(Value::from(format!(
                "{}{}",
                a.map(Value::to_js_string).unwrap_or_default(),
                b.map(Value::to_js_string).unwrap_or_default()
            ))),
        })
        .unwrap();
    registry
}

#[test]
fn lookup_and_log_render_as_handlebars_renders_them() {
    let registry = Registry::new();
    let cases = [
        // An index into a string, an array, an object's own key.
        ("{{lookup tag 1}}", "b"),
        ("{{lookup nums 1}}", "4"),
        ("{{lookup nums \"1\"}}", "4"),
        ("{{lookup nums 1.0}}", "4"),
        ("{{lookup obj \"k\"}}", "5"),
        ("{{lookup obj.inner \"word\"}}", "deep"),
        ("{{lookup obj.inner.word 0}}", "d"),
        ("{{lookup tag \"length\"}}", "3"),
        ("{{lookup nums \"length\"}}", "2"),
        // Inherited properties are not own: nothing.
        ("{{lookup tag \"toString\"}}", ""),
        ("{{lookup obj \"__proto__\"}}", ""),
        ("{{lookup nums -1}}", ""),
        // A falsy value is returned as it is.
        ("{{lookup zero \"k\"}}", "0"),
        ("{{lookup empty 1}}", ""),
        ("{{lookup missing \"k\"}}", ""),
        // The key as JavaScript makes a property key of it.
        ("{{lookup obj null}}", ""),
        ("{{lookup pairs nums}}", ""),
        // Values from a loop.
        ("{{#each nums}}{{lookup ../nums @index}};{{/each}}", "3;4;"),
        ("{{#each fruit}}{{lookup this 0}}{{/each}}", "ap"),
        (
            "{{#each keys}}{{lookup ../obj this}},{{/each}}",
            "5,[object Object],",
        ),
        ("{{#with obj}}{{lookup this \"k\"}}{{/with}}", "5"),
        // Handlebars adds numbers that meet in a body, helpers' too.
        ("{{lookup obj \"k\"}}{{lookup obj \"k\"}}", "10"),
        ("{{one}}{{lookup obj \"k\"}}{{two}}", "8"),
        // `log` writes to JavaScript's console: nothing renders, and the run of numbers
        // becomes text.
        ("{{log \"seen\" tag}}after", "after"),
        ("{{log tag level=\"warn\"}}x", "x"),
        ("{{one}}{{log one}}{{two}}", "12"),
        ("{{log}}", ""),
    ];
    for (template, expected) in cases {
        assert_eq!(text(&registry, template), expected, "{template}");
    }
}

#[test]
fn segment_literals_read_strings_as_javascript_does() {
    let registry = Registry::new();
    let cases = [
        ("{{tag.[1]}}", "b"),
        ("{{tag.[0]}}{{tag.[2]}}", "<>"),
        ("{{tag.[01]}}", ""),
        ("{{tag.[3]}}", ""),
        ("{{tag.length}}", "3"),
        ("{{fruit.[1].[0]}}", "p"),
        ("{{emoji.[3]}}", "b"),
        // Half of a surrogate pair: U+FFFD, as JavaScript writes a lone half.
        ("{{emoji.[1]}}", "\u{fffd}"),
    ];
    for (template, expected) in cases {
        assert_eq!(text(&registry, template), expected, "{template}");
    }
}

#[test]
fn helpers_registered_from_rust_render_genkit_samples() {
    let registry = genkit_like();
    assert_eq!(
        text(&registry, "Ingredients:\n{{list fruit}}\n"),
        "Ingredients:\n- apple\n- pear\n"
    );
    assert_eq!(text(&registry, "{{list tag}}"), "");
    assert_eq!(text(&registry, "{{add one two}}"), "3");
    // Two numbers in one body are added, as in JavaScript: 3 + 7.
    assert_eq!(text(&registry, "{{add 1 2}}{{add 3 4}}"), "10");
    assert_eq!(text(&registry, "{{add \"a\" 1}}"), "a1");
    // Called by its name alone, a helper is still called (with no arguments).
    assert_eq!(text(&registry, "[{{list}}]"), "[]");
    // In a partial, and with the loop's `this`.
    let mut with_partial = genkit_like();
    with_partial
        .define_partial("shopping", "{{list fruit}}")
        .unwrap();
    assert_eq!(text(&with_partial, "{{> shopping}}"), "- apple\n- pear");
    let mut this_reader = Registry::new();
    this_reader
        .define_helper("here", |args| Ok(args.this().clone()))
        .unwrap();
    assert_eq!(
        text(&this_reader, "{{#each fruit}}{{here}} {{/each}}"),
        "apple pear "
    );
}

#[test]
fn a_helper_sees_undefined_hash_values_and_this() {
    let mut registry = Registry::new();
    registry
        .define_helper("show", |args| {
            let params: Vec<String> = args
                .params()
                .map(|p| p.map_or("undefined".to_owned(), Value::to_js_string))
                .collect();
            let hash: Vec<String> = args
                .hash_entries()
                .iter()
                .map(|(k, v)| format!("{k}={}", v.to_js_string()))
                .collect();
            Ok(Value::from(format!(
                "{}({}|{})",
                args.name(),
                params.join(","),
                hash.join(",")
            )))
        })
        .unwrap();
    assert_eq!(
        text(&registry, "{{show tag missing 2 a=one b=missing}}"),
        "show(<b>,undefined,2|a=1)"
    );
}

#[test]
fn a_failing_helper_fails_the_render_at_its_tag() {
    let mut registry = Registry::new();
    registry
        .define_helper("strict", |_| Err("no value for it".to_owned()))
        .unwrap();
    let prompt = registry
        .parse_file("p.prompt", "Hi\n{{strict tag}}")
        .unwrap();
    let error = prompt.render(&input()).unwrap_err().to_string();
    assert!(
        error.contains("the helper `strict` failed: no value for it"),
        "{error}"
    );
    assert!(error.contains("p.prompt:2:1"), "{error}");
}

#[test]
fn names_that_cannot_be_registered() {
    let mut registry = Registry::new();
    for name in [
        "json",
        "role",
        "if",
        "each",
        "lookup",
        "log",
        "helperMissing",
    ] {
        let error = registry
            .define_helper(name, |_| Ok(Value::Null))
            .unwrap_err();
        assert!(error.to_string().contains("defines"), "{name}: {error}");
    }
    for name in ["", "a.b", "two words", "9lives", "this"] {
        assert!(
            registry.define_helper(name, |_| Ok(Value::Null)).is_err(),
            "{name}"
        );
    }
    assert!(registry.helper_names().is_empty());
}

/// Each tag renders in JavaScript only to an error, whatever the data; here it is refused
/// when parsed, at the tag, with what to write instead.
#[test]
fn tags_javascript_cannot_render_are_refused_where_they_are() {
    let registry = genkit_like();
    let cases = [
        (
            "{{if}}",
            "`if` is a block helper",
            "write `{{#if value}}…{{/if}}`",
        ),
        (
            "x {{if tag}}",
            "`if` is a block helper",
            "write `{{#if tag}}…{{/if}}`",
        ),
        (
            "{{unless tag}}",
            "`unless` is a block helper",
            "{{#unless tag}}",
        ),
        (
            "{{each nums}}",
            "`each` is a block helper",
            "{{#each nums}}",
        ),
        ("{{with obj}}", "`with` is a block helper", "{{#with obj}}"),
        (
            "{{ifEquals one two}}",
            "`ifEquals` is a block helper",
            "{{#ifEquals one two}}",
        ),
        (
            "{{unlessEquals one two}}",
            "`unlessEquals` is a block helper",
            "",
        ),
        (
            "{{helperMissing}}",
            "internal to Handlebars",
            "remove the tag",
        ),
        ("{{blockHelperMissing x}}", "internal to Handlebars", ""),
        (
            "{{lsit fruit}}",
            "unknown helper `lsit`",
            "did you mean `{{list ...}}`?",
        ),
        (
            "{{lokup obj \"k\"}}",
            "unknown helper `lokup`",
            "did you mean `{{lookup ...}}`?",
        ),
        (
            "{{frobnicate tag}}",
            "unknown helper `frobnicate`",
            "the helpers are",
        ),
        (
            "{{lookup obj}}",
            "`lookup` takes 2 positional arguments, found 1",
            "{{lookup value key}}",
        ),
        (
            "{{lookup}}",
            "`lookup` takes 2 positional arguments, found 0",
            "",
        ),
        (
            "{{lookup obj \"k\" deep=true}}",
            "`lookup` has no argument `deep`",
            "",
        ),
    ];
    for (template, message, help) in cases {
        let error = registry
            .parse_file("p.prompt", template)
            .unwrap_err()
            .to_string();
        assert!(error.contains(message), "{template}: {error}");
        assert!(error.contains(help), "{template}: {error}");
        assert!(error.contains("--> p.prompt:1:"), "{template}: {error}");
    }
    // Without registered helpers the help says where helpers come from.
    let error = Registry::new()
        .parse("{{frobnicate tag}}")
        .unwrap_err()
        .to_string();
    assert!(error.contains("Registry::define_helper"), "{error}");
}

/// JavaScript renders an inline helper given a body and drops the body: a body that can
/// never render is refused instead (a deliberate strictness).
#[test]
fn inline_helpers_as_blocks_are_refused() {
    let registry = genkit_like();
    for (template, name) in [
        ("{{#json tag}}body{{/json}}", "json"),
        ("{{#role \"user\"}}body{{/role}}", "role"),
        ("{{#lookup tag 1}}body{{/lookup}}", "lookup"),
        ("{{#log tag}}body{{/log}}", "log"),
        ("{{#list fruit}}body{{/list}}", "list"),
    ] {
        let error = registry.parse(template).unwrap_err().to_string();
        assert!(
            error.contains(&format!("`{name}` is an inline helper")),
            "{template}: {error}"
        );
    }
    // A name that is neither: did-you-mean among the blocks.
    let error = registry
        .parse("{{#eahc nums}}{{/eahc}}")
        .unwrap_err()
        .to_string();
    assert!(error.contains("did you mean `{{#each}}`?"), "{error}");
}

/// A helper is known to what is parsed after it is registered, as a prompt compiled in
/// JavaScript knows the helpers defined before.
#[test]
fn a_partial_parsed_before_its_helper_is_refused() {
    let mut registry = Registry::new();
    let error = registry
        .define_partial("shopping", "{{list fruit}}")
        .unwrap_err()
        .to_string();
    assert!(error.contains("unknown helper `list`"), "{error}");
    assert!(error.contains("_shopping.prompt:1:3"), "{error}");
}

/// A helper's output counts against the render's size limit like any text (a helper call
/// is a node, counted against the step bound as every node is).
#[test]
fn a_helpers_output_and_calls_are_bounded() {
    let mut registry = Registry::new();
    registry
        .define_helper("big", |_| Ok(Value::from("x".repeat(1 << 20))))
        .unwrap();
    let prompt = registry
        .parse_file("p.prompt", "{{big}}{{big}}")
        .unwrap()
        .with_output_limit(1_500_000);
    let error = prompt.render(&input()).unwrap_err().to_string();
    assert!(error.contains("larger than 1500000 bytes"), "{error}");
    assert!(error.contains("p.prompt:1:8"), "{error}");
}
