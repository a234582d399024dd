//! The front end against Jinja2: every case in `jinja2_cases.rs` was rendered by Jinja2
//! itself (templates and values written for these tests), and must render the same bytes
//! here. Then the errors: each construct outside the subset is refused at its place.

use super::{Options, Templates};
use crate::diagnostic::{Diagnostic, SourceFile};

#[path = "jinja2_cases.rs"]
mod jinja2_cases;

fn options(flags: &str) -> Options {
    Options {
        trim_blocks: flags.contains('t'),
        lstrip_blocks: flags.contains('l'),
        keep_trailing_newline: flags.contains('k'),
    }
}

/// Loads `main.j2` = `template` beside `files`.
fn load(flags: &str, template: &str, files: &[(&str, &str)]) -> Result<Templates, Vec<Diagnostic>> {
    Templates::load("main.j2", options(flags), &mut |name: &str| {
        let text = if name == "main.j2" {
            template
        } else {
            files
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| *t)
                .ok_or(None)?
        };
        Ok(SourceFile::new(format!("prompts/{name}"), text))
    })
    .map_err(|all| all.0)
}

fn render(flags: &str, template: &str, values: serde_json::Value) -> Result<String, String> {
    let set = load(flags, template, &[]).map_err(|e| e[0].to_string())?;
    set.render("main.j2", &values).map_err(|e| e.to_string())
}

fn error(template: &str) -> String {
    match load("", template, &[]) {
        Ok(set) => match set.render("main.j2", &serde_json::json!({})) {
            Ok(out) => panic!("expected an error for {template:?}, rendered {out:?}"),
            Err(e) => e.to_string(),
        },
        Err(e) => e[0].to_string(),
    }
}

#[test]
fn renders_every_case_as_jinja2_does() {
    let mut failures = Vec::new();
    for (flags, template, values, files, expected) in jinja2_cases::CASES {
        let values: serde_json::Value = serde_json::from_str(values).unwrap();
        let got = load(flags, template, files)
            .map_err(|e| e[0].to_string())
            .and_then(|set| set.render("main.j2", &values).map_err(|e| e.to_string()));
        if got.as_deref() != Ok(*expected) {
            failures.push(format!(
                "options {flags:?}, template {template:?}\n  Jinja2: {expected:?}\n  here:   {got:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        jinja2_cases::CASES.len(),
        failures.join("\n")
    );
}

/// The first line of a diagnostic and where it points.
fn first_and_place(template: &str) -> (String, String) {
    let full = error(template);
    let mut lines = full.lines();
    let message = lines.next().unwrap_or_default().to_owned();
    let place = lines.next().unwrap_or_default().trim().to_owned();
    (message, place)
}

#[test]
fn refuses_what_is_not_supported_at_its_place() {
    let cases = [
        (
            "{% macro m() %}x{% endmacro %}",
            "error: `{% macro %}` is not supported by promptic's Jinja front end",
            "--> prompts/main.j2:1:4",
        ),
        (
            "a\n{% extends 'base.j2' %}",
            "error: `{% extends %}` is not supported by promptic's Jinja front end",
            "--> prompts/main.j2:2:4",
        ),
        (
            "{{ x | title }}",
            "error: the filter `title` is not supported",
            "--> prompts/main.j2:1:8",
        ),
        (
            "{{ x.upper() }}",
            "error: the method `.upper(…)` is not supported",
            "--> prompts/main.j2:1:6",
        ),
        (
            "{{ range(3) }}",
            "error: calling `range(…)` is not supported: promptic's Jinja has no functions",
            "--> prompts/main.j2:1:4",
        ),
        (
            "{{ a + b }}",
            "error: the operator `+` is not supported",
            "--> prompts/main.j2:1:6",
        ),
        (
            "{{ a ~ b }}",
            "error: the operator `~` is not supported",
            "--> prompts/main.j2:1:6",
        ),
        (
            "{{ a if b else c }}",
            "error: inline `if … else …` expressions are not supported; use `{% if %}` blocks",
            "--> prompts/main.j2:1:6",
        ),
        (
            "{{ x is odd }}",
            "error: the test `is odd` is not supported",
            "--> prompts/main.j2:1:9",
        ),
        (
            "{{ {'a': 1} }}",
            "error: dict literals are not supported",
            "--> prompts/main.j2:1:4",
        ),
        (
            "{{ xs[1:2] }}",
            "error: slices are not supported",
            "--> prompts/main.j2:1:8",
        ),
        (
            "{{ x | default(v, boolean=true) }}",
            "error: keyword arguments are not supported; pass it by position",
            "--> prompts/main.j2:1:19",
        ),
        (
            "{% for x in xs %}{{ loop.cycle }}{% endfor %}",
            "error: `loop.cycle` is not supported",
            "--> prompts/main.j2:1:21",
        ),
        (
            "{{ loop.index }}",
            "error: `loop` is only defined inside `{% for %}`",
            "--> prompts/main.j2:1:4",
        ),
        (
            "{% for a, b, c in xs %}{% endfor %}",
            "error: at most two loop variables (`k, v`)",
            "--> prompts/main.j2:1:14",
        ),
        (
            "{{ m.items() }}",
            "error: `.items()` is supported only as what a `for` loops over",
            "--> prompts/main.j2:1:4",
        ),
        (
            "{% include name %}",
            "error: `{% include %}` takes a quoted file name; computed names are not supported",
            "--> prompts/main.j2:1:12",
        ),
        (
            "{% include 'a.j2' ignore missing %}",
            "error: only `{% include \"name\" %}` is supported",
            "--> prompts/main.j2:1:19",
        ),
        (
            "{% include '../secret.j2' %}",
            "error: `../secret.j2` leaves `prompts/`: include names are relative to it, without `..`",
            "--> prompts/main.j2:1:12",
        ),
        (
            "{% set x %}a{% endset %}",
            "error: block `{% set name %}…{% endset %}` is not supported; write `{% set name = value %}`",
            "--> prompts/main.j2:1:4",
        ),
        (
            "{% if a %}x",
            "error: this `{% if %}` is never closed with `{% endif %}`",
            "--> prompts/main.j2:1:1",
        ),
        (
            "x{% endif %}",
            "error: `{% endif %}` without an opening tag",
            "--> prompts/main.j2:1:2",
        ),
        (
            "{% if a %}{% else %}{% elif b %}{% endif %}",
            "error: `{% elif %}` after `{% else %}`",
            "--> prompts/main.j2:1:21",
        ),
        (
            "{% for x in xs %}",
            "error: this `{% for %}` is never closed with `{% endfor %}`",
            "--> prompts/main.j2:1:1",
        ),
        (
            "ok {{ x",
            "error: this `{{` is never closed with `}}`",
            "--> prompts/main.j2:1:4",
        ),
        (
            "ok {# x",
            "error: this comment is never closed with `#}`",
            "--> prompts/main.j2:1:4",
        ),
        (
            "{% raw %} x",
            "error: this `{% raw %}` is never closed with `{% endraw %}`",
            "--> prompts/main.j2:1:1",
        ),
        (
            "{% frobnicate %}",
            "error: unknown tag `{% frobnicate %}`",
            "--> prompts/main.j2:1:4",
        ),
        (
            "{{ }}",
            "error: empty `{{ }}`: write an expression in it",
            "--> prompts/main.j2:1:1",
        ),
        (
            "{{ 'open }}",
            "error: this `{{` is never closed with `}}`",
            "--> prompts/main.j2:1:1",
        ),
        (
            "{{ a b }}",
            "error: unexpected `b` in `{{ }}`",
            "--> prompts/main.j2:1:6",
        ),
        (
            "{{ x $ }}",
            "error: `$` is not part of a Jinja expression",
            "--> prompts/main.j2:1:6",
        ),
        (
            "{% if %}{% endif %}",
            "error: `{% if %}` needs a condition",
            "--> prompts/main.j2:1:1",
        ),
        (
            "{{ 'é' }} {{ d.keys }}",
            "error: `d` is not defined",
            "--> prompts/main.j2:1:14",
        ),
    ];
    let mut wrong = Vec::new();
    for (template, message, place) in cases {
        let got = first_and_place(template);
        if got != (message.to_owned(), place.to_owned()) {
            wrong.push(format!(
                "{template:?}\n  want {message} {place}\n  got  {} {}",
                got.0, got.1
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_misspelt_filter_gets_a_suggestion_and_a_caret() {
    assert_eq!(
        error("Hi {{ name | uper }}!"),
        "error: the filter `uper` is not supported
 --> prompts/main.j2:1:14
  |
1 | Hi {{ name | uper }}!
  |              ^^^^
  = help: did you mean `upper`?"
    );
}

#[test]
fn printing_an_undefined_value_is_an_error_but_testing_it_is_not() {
    // Jinja2 prints nothing for `missing`: promptic refuses, with the way out.
    assert_eq!(
        error("a {{ missing }} b"),
        "error: `missing` is not defined
 --> prompts/main.j2:1:6
  |
1 | a {{ missing }} b
  |      ^^^^^^^
  = help: give it a value, or write `missing | default(…)` to make it optional"
    );
    let values = serde_json::json!({ "user": {} });
    assert_eq!(
        render(
            "",
            "{% if summary %}{{ summary }}{% endif %}ok",
            values.clone()
        ),
        Ok("ok".into())
    );
    assert_eq!(
        render(
            "",
            "{% if user.pref == 'x' %}x{% endif %}ok",
            values.clone()
        ),
        Ok("ok".into())
    );
    assert!(
        render("", "{{ user.name }}", values.clone())
            .unwrap_err()
            .contains("no key `name` in `user`")
    );
    // Reading into a value that is not there is an error in Jinja2 too.
    assert!(
        render("", "{% if nobody.name %}{% endif %}", values.clone())
            .unwrap_err()
            .contains("`nobody` is not defined")
    );
    assert!(
        render("", "{% for x in nothing %}{% endfor %}", values.clone())
            .unwrap_err()
            .contains("`nothing` is not defined")
    );
    assert!(
        render("", "{{ nothing | upper }}", values)
            .unwrap_err()
            .contains("`nothing` is not defined")
    );
}

#[test]
fn run_time_type_errors_are_located() {
    let values = serde_json::json!({ "n": 3, "s": "x", "m": {"values": 1} });
    let message = |t: &str| {
        render("", t, values.clone())
            .unwrap_err()
            .lines()
            .next()
            .unwrap()
            .to_owned()
    };
    assert_eq!(
        message("{% if s < n %}{% endif %}"),
        "error: cannot order a str and an int"
    );
    assert_eq!(
        message("{% if s in n %}{% endif %}"),
        "error: cannot look for a str in an int"
    );
    assert_eq!(message("{{ n | length }}"), "error: an int has no length");
    assert_eq!(
        message("{% for x in n %}{% endfor %}"),
        "error: `n` is an int, which cannot be looped over"
    );
    assert_eq!(
        message("{% for k, v in s.items() %}{% endfor %}"),
        "error: `.items()` needs a dict, and `s` is a str"
    );
    assert_eq!(
        message("{{ m.values }}"),
        "error: `.values` is a dict method in Jinja2, not the key `values`"
    );
    assert_eq!(
        render("", "{{ m['values'] }}", values.clone()),
        Ok("1".into())
    );
    assert_eq!(
        message("{{ s.split('') }}"),
        "error: `.split` needs a separator that is not empty"
    );
    assert_eq!(
        message("{% for a, b in [1] %}{% endfor %}"),
        "error: each item must be a pair to unpack into 2 loop variables"
    );
}

#[test]
fn includes_are_found_relative_to_prompts_and_cycles_are_refused() {
    let files = [
        ("a.j2", "A{% include 'b.j2' %}"),
        ("b.j2", "B{% if deep %}{% include 'a.j2' %}{% endif %}"),
    ];
    let errors = load("", "{% include 'a.j2' %}", &files).unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "error: include cycle: a.j2 → b.j2 → a.j2
 --> prompts/b.j2:1:15
  |
1 | B{% if deep %}{% include 'a.j2' %}{% endif %}
  |               ^^^^^^^^^^^^^^^^^^^^
  = note: Jinja2 would recurse until Python's stack runs out"
    );
    let missing = load("", "x\n{% include 'parts/gone.j2' %}", &[]).unwrap_err();
    assert_eq!(
        missing[0].message(),
        "no template `parts/gone.j2` in `prompts/`"
    );
    assert_eq!(missing[0].location().map(|l| (l.line, l.col)), Some((2, 1)));
    let itself = load("", "{% include 'main.j2' %}", &[]).unwrap_err();
    assert_eq!(itself[0].message(), "include cycle: main.j2 → main.j2");
    // An include's names are file names, apart from variables: `memo` is both here.
    let files = [("components/memo.md.j2", "memo says {{ memo }}")];
    let set = load(
        "",
        "{% if memo %}{% include 'components/memo.md.j2' %}{% endif %}",
        &files,
    )
    .unwrap();
    assert_eq!(
        set.render("main.j2", &serde_json::json!({"memo": "hi"})),
        Ok("memo says hi".into())
    );
    assert_eq!(
        set.names().collect::<Vec<_>>(),
        ["components/memo.md.j2", "main.j2"]
    );
}

#[test]
fn hostile_templates_end_in_errors_not_crashes() {
    let deep_blocks = "{% if a %}".repeat(5000) + &"{% endif %}".repeat(5000);
    assert!(error(&deep_blocks).contains("blocks nest more than 100 deep"));
    let deep_parens = format!("{{{{ {}x{} }}}}", "(".repeat(5000), ")".repeat(5000));
    assert!(error(&deep_parens).contains("nested too deeply"));
    let deep_nots = format!("{{{{ {}x }}}}", "not ".repeat(5000));
    assert!(error(&deep_nots).contains("nested too deeply"));
    let deep_lists = format!("{{{{ {}{} }}}}", "[".repeat(5000), "]".repeat(5000));
    assert!(error(&deep_lists).contains("nested too deeply"));
    let chain: Vec<(String, String)> = (0..40)
        .map(|i| {
            (
                format!("c{i}.j2"),
                format!("{{% include 'c{}.j2' %}}", i + 1),
            )
        })
        .collect();
    let files: Vec<(&str, &str)> = chain
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let errors = load("", "{% include 'c0.j2' %}", &files).unwrap_err();
    assert!(
        errors[0]
            .message()
            .contains("includes nest more than 32 deep"),
        "{}",
        errors[0]
    );
    // Blocks nested in each file, across a chain of includes: bounded together.
    let deep: Vec<(String, String)> = (0..6)
        .map(|i| {
            let body = format!(
                "{}{{% include 'd{}.j2' %}}{}",
                "{% if a %}".repeat(60),
                i + 1,
                "{% endif %}".repeat(60)
            );
            (format!("d{i}.j2"), body)
        })
        .chain(std::iter::once(("d6.j2".to_owned(), "end".to_owned())))
        .collect();
    let files: Vec<(&str, &str)> = deep.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let errors = load("", "{% include 'd0.j2' %}", &files).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors[0].message(),
        "blocks nest more than 200 deep with the templates this includes"
    );
    // A diamond of includes 30 levels deep: each file walked once, not 2^30 times.
    let diamond: Vec<(String, String)> = (0..30)
        .map(|i| {
            (
                format!("m{i}.j2"),
                format!("{{% include 'm{0}.j2' %}}{{% include 'm{0}.j2' %}}", i + 1),
            )
        })
        .chain(std::iter::once(("m30.j2".to_owned(), "x".to_owned())))
        .collect();
    let files: Vec<(&str, &str)> = diamond
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let set = load("", "{% include 'm0.j2' %}", &files).unwrap();
    assert_eq!(set.names().count(), 32);
    assert!(set.uses("main.j2").is_empty());
    let empty = serde_json::Map::new();
    let main = set.get("main.j2").unwrap();
    let refused = super::render::render_limited(&set, main, &empty, 100_000).unwrap_err();
    assert_eq!(refused.message(), "the render takes more than 100000 steps");
    // Loops in loops: refused when they would run too long or produce too much.
    let many = serde_json::json!({ "xs": (0..40).collect::<Vec<_>>() });
    let wide = "{% for a in xs %}".repeat(4) + &"x".repeat(40_000) + &"{% endfor %}".repeat(4);
    let output = render("", &wide, many.clone()).unwrap_err();
    assert!(
        output.contains("the render is larger than 64 MiB"),
        "{output}"
    );
    let silent = "{% for a in xs %}".repeat(9) + &"{% endfor %}".repeat(9);
    let set = load("", &silent, &[]).unwrap();
    let template = set.get("main.j2").unwrap();
    let values = many.as_object().unwrap();
    let steps = super::render::render_limited(&set, template, values, 100_000).unwrap_err();
    assert_eq!(steps.message(), "the render takes more than 100000 steps");
    for bad in [
        "{{",
        "{%",
        "{#",
        "{{ '",
        "{% raw %}{% endraw",
        "{{ x |",
        "{{ x.",
        "{{ x[",
        "{% for %}",
        "{% for x %}",
        "{% for x in %}",
        "{% set %}",
        "{% set x = %}",
        "{% include %}",
        "\u{0}{{ \u{0} }}",
        "{{ '\\x4' }}",
        "{{ '\\ud800' }}",
        "{{ 99999999999999999999999 }}",
    ] {
        let _ = error(bad);
    }
}

/// The first error of parsing `template` as the only file, if any.
fn fence_error(template: &str) -> Option<String> {
    load("tlk", template, &[]).err().map(|e| e[0].to_string())
}

#[test]
fn guidance_fences_are_checked_as_lean_within_detailed() {
    let fence = "{% if guidance | default(\"detailed\") == \"detailed\" %}";
    let ok = format!("Rules.\n{fence}\nCoach here.\n{{% endif %}}\n");
    assert_eq!(fence_error(&ok), None);
    let set = load("tlk", &ok, &[]).unwrap();
    assert_eq!(
        set.render("main.j2", &serde_json::json!({"guidance": "lean"})),
        Ok("Rules.\n".into())
    );
    assert_eq!(
        set.render("main.j2", &serde_json::json!({})),
        Ok("Rules.\nCoach here.\n".into())
    );
    let registered = format!(
        "A.\n{fence}\nDelegate rarely.\n{{% else %}}{{# either-or: small models need the push #}}\nDelegate often.\n{{% endif %}}\n"
    );
    assert_eq!(fence_error(&registered), None);
    let indented = format!("A.\n  {fence}\n  Coach.\n  {{% endif %}}\n");
    assert_eq!(fence_error(&indented), None);
    // Not a guidance test at all: a plain flag.
    assert_eq!(fence_error("{% if detailed %}\nx\n{% endif %}\n"), None);

    let cases = [
        (format!("{fence}\nA\n{{% else %}}\nB\n{{% endif %}}\n"), "error: an `{% else %}` on a guidance fence renders lines at lean that detailed lacks", "3:1"),
        (format!("{fence}\nA\n{{% else %}}{{# just a note #}}\nB\n{{% endif %}}\n"), "error: an `{% else %}` on a guidance fence renders lines at lean that detailed lacks", "3:1"),
        (format!("{fence}\nA\n{{% elif x %}}\nB\n{{% endif %}}\n"), "error: an `{% elif %}` after a guidance fence renders lines at lean that detailed lacks", "3:1"),
        ("{% if guidance | default(\"detailed\") == \"detialed\" %}\nA\n{% endif %}\n".to_owned(), "error: `detialed` is not a guidance level", "1:41"),
        ("{% if guidance == \"detailed\" %}\nA\n{% endif %}\n".to_owned(), "error: a guidance fence needs `| default(\"detailed\")`", "1:7"),
        ("{% if guidance | default(\"lean\") == \"detailed\" %}\nA\n{% endif %}\n".to_owned(), "error: a guidance fence defaults to \"detailed\"", "1:7"),
        ("{% if guidance | default(\"detailed\") == \"lean\" %}\nA\n{% endif %}\n".to_owned(), "error: a guidance fence on \"lean\" renders lines at lean that detailed lacks", "1:1"),
        (format!("Use the tools{fence}, one at a time{{% endif %}}.\n"), "error: a guidance fence in the middle of a line", "1:14"),
        (format!("Tools.\n{}\nA\n{{% endif %}}\n", fence.replace("{%", "{%-")), "error: a guidance fence in the middle of a line", "2:1"),
        ("{% if guidance != \"lean\" %}\nA\n{% endif %}\n".to_owned(), "error: a guidance fence compares with `==`, once", "1:7"),
        ("{% if guidance %}\nA\n{% endif %}\n".to_owned(), "error: `guidance` is tested here, but not as a guidance fence", "1:7"),
        ("{% for x in xs %}\n{% if x and guidance | default(\"detailed\") == \"detailed\" %}\nA\n{% endif %}\n{% endfor %}\n".to_owned(), "error: `guidance` is tested here, but not as a guidance fence", "2:7"),
    ];
    let mut wrong = Vec::new();
    for (template, message, place) in &cases {
        let got = fence_error(template).unwrap_or_default();
        let first = got.lines().next().unwrap_or_default();
        if first != *message || !got.contains(&format!("prompts/main.j2:{place}\n")) {
            wrong.push(format!(
                "{template:?}\n  want {message} at {place}\n  got  {got}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `(name, required)` for each name `template` reads, beside `files`.
fn uses(template: &str, files: &[(&str, &str)]) -> Vec<(String, bool)> {
    let set = load("", template, files).unwrap();
    set.uses("main.j2")
        .into_iter()
        .map(|u| (u.name, u.required))
        .collect()
}

#[test]
fn names_are_required_only_where_rendering_needs_them() {
    let t = "{{ date }} {{ tz | default('UTC') }}\n{% if memo %}{{ memo_text }}{% endif %}\n{% if user.locale and not user.locale.startswith('en') %}{{ user.locale }}{% endif %}\n{% for item in items %}{{ item.name }} {{ loop.index }}{% endfor %}\n{% set shown = 'x' %}{{ shown }}{% if flag is defined %}{{ flag }}{% endif %}";
    assert_eq!(
        uses(t, &[]),
        [
            ("date".to_owned(), true),
            ("tz".to_owned(), false),
            ("memo".to_owned(), false),
            ("memo_text".to_owned(), false),
            ("user".to_owned(), true),
            ("items".to_owned(), true),
            ("flag".to_owned(), false),
        ]
    );
    // Through an include, whose own `set` and loop names are its own.
    let files = [(
        "part.j2",
        "{% for k, v in prefs.items() %}{{ k }}{{ v }}{% endfor %}{{ title }}",
    )];
    assert_eq!(
        uses(
            "{% include 'part.j2' %}{% if extra %}{% include 'part.j2' %}{% endif %}",
            &files
        ),
        [
            ("prefs".to_owned(), true),
            ("title".to_owned(), true),
            ("extra".to_owned(), false)
        ]
    );
    let set = load(
        "",
        "{% if a %}{{ user.name }}{% endif %}{{ user.name }}",
        &[],
    )
    .unwrap();
    let user = &set.uses("main.j2")[1];
    assert_eq!(
        (
            user.name.as_str(),
            user.path.clone(),
            user.required,
            user.span.clone()
        ),
        ("user", vec!["name".to_owned()], true, 39..48)
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

    /// Whatever a file says, loading and rendering it ends in text or an error, never a
    /// panic: the pieces below are what the lexer and parser branch on.
    #[test]
    fn any_text_loads_and_renders_without_panicking(
        pieces in proptest::collection::vec(proptest::sample::select(vec![
            "{{", "}}", "{%", "%}", "{#", "#}", "-", "+", " ", "\n", "'", "\"", "\\", "é", "😀",
            "if", "elif", "else", "endif", "for", "endfor", "in", "raw", "endraw", "set", "=",
            "include", "x", "xs", "loop", ".", "index", "[", "]", "(", ")", ",", "|", "default",
            "upper", "is", "defined", "not", "and", "or", "==", "<", "1", "2.5", "items", "\r",
        ]), 0..40),
        flags in proptest::sample::select(vec!["", "t", "l", "k", "tlk", "tl"]),
    ) {
        let template = pieces.concat();
        if let Ok(set) = load(flags, &template, &[]) {
            let values = serde_json::json!({"x": "é", "xs": [1, "a", null, {"k": [true]}]});
            let _ = set.render("main.j2", &values);
            let _ = set.uses("main.j2");
        }
    }
}

#[test]
fn a_static_prompt_tests_values_but_writes_none() {
    let files = [("part.j2", "{% for x in xs %}{{ x }}{% endfor %}")];
    let ok = "{# cache: static #}\nRules.\n{% if flag %}Flagged.{% endif %}\n{% if guidance | default(\"detailed\") == \"detailed\" %}\nCoach.\n{% endif %}\nLevel: {{ guidance | default('detailed') }}.\n";
    assert!(load("", ok, &files).is_ok());
    let writes =
        "{# cache: static #}\nHi {{ name }}.\n{% if flag %}{% include 'part.j2' %}{% endif %}";
    let errors = load("", writes, &files).unwrap_err();
    let found: Vec<String> = errors
        .iter()
        .map(|d| {
            let at = d
                .location()
                .map(|l| format!("{}:{}:{}", l.path, l.line, l.col));
            format!("{} at {}", d.message(), at.unwrap_or_default())
        })
        .collect();
    assert_eq!(
        found,
        [
            "`name` is written into a static prompt at prompts/main.j2:2:7",
            "`xs` is written into a static prompt at prompts/part.j2:1:13",
        ]
    );
    // Not the first comment, or after text: not a mark.
    assert!(load("", "Hi {{ name }}{# cache: static #}", &[]).is_ok());
}

#[test]
fn names_find_their_loop_variables_set_names_and_values_through_slots() {
    let files = [("part.j2", "[{{ user }}{% set user = 'inner' %}{{ user }}]")];
    let set = load(
        "",
        "{{ user }}{% for user in users %}<{{ user }}{% include 'part.j2' %}{{ user }}>{% endfor %}{{ user }}{% set user = 'top' %}{{ user }}{% for k, v in m.items() %}{{ k }}={{ v }}{% endfor %}",
        &files,
    )
    .unwrap();
    let values = serde_json::json!({"user": "ctx", "users": ["a", "b"], "m": {"x": 1, "y": [2]}});
    let expected = "ctx<a[ainner]a><b[binner]b>ctxtopx=1y=[2]";
    assert_eq!(set.render("main.j2", &values).unwrap(), expected);
    // A copy's templates live elsewhere: its slots are its own, and it renders the same.
    let copy = set.clone();
    drop(set);
    assert_eq!(copy.render("main.j2", &values).unwrap(), expected);
    let (muted, _) = copy.without_either_ors();
    assert_eq!(muted.render("main.j2", &values).unwrap(), expected);
}

#[test]
fn numbers_print_as_python_prints_them() {
    for n in [0i64, 7, -1, 10, 1_234_567_890, i64::MAX, i64::MIN] {
        assert_eq!(
            render("", "{{ n }}", serde_json::json!({ "n": n })),
            Ok(n.to_string())
        );
    }
    assert_eq!(
        render("", "{{ n }}", serde_json::json!({ "n": u64::MAX })),
        Ok(u64::MAX.to_string())
    );
}

#[test]
fn upper_and_lower_write_what_python_writes() {
    let values = serde_json::json!({"a": "Mixed ASCII text, 42!", "u": "straße ΣΑΣ ǅ", "long": "x".repeat(150)});
    assert_eq!(
        render("", "{{ a | upper }}|{{ a | lower }}", values.clone()),
        Ok("MIXED ASCII TEXT, 42!|mixed ascii text, 42!".into())
    );
    // Python: 'straße σας ǆ'.upper() is 'STRASSE ΣΑΣ Ǆ'; the final sigma lowers to ς.
    assert_eq!(
        render("", "{{ u | upper }}|{{ u | lower }}", values.clone()),
        Ok("STRASSE ΣΑΣ Ǆ|straße σας ǆ".into())
    );
    assert_eq!(
        render("", "{{ long | upper }}", values),
        Ok("X".repeat(150))
    );
}
