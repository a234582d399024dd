//! The compiled render of derived Jinja prompts gives the run-time renderer's bytes: over a
//! table of value sets (Unicode, empty lists and maps, absent `Option`s, `None` in a list,
//! both guidance levels, floats Python prints its own way), on templates with nested
//! includes, a guidance fence, loop filters, `items()`, `default`, `join`, `tojson` and
//! mid-line ifs. `__promptic_compiled` is the compiled render alone, so each case also
//! checks that it did render (a fallback to the run-time renderer would pass otherwise).

use promptic::load::Project;
use promptic::{Guidance, PromptValue};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(PromptValue)]
struct User<'a> {
    name: Option<&'a str>,
    locale: Option<&'a str>,
}

#[derive(PromptValue, Clone)]
struct Tool<'a> {
    name: &'a str,
    kind: &'a str,
    slow: bool,
    retired: bool,
    cost: Option<u32>,
}

#[derive(promptic::Prompt)]
#[prompt("agents/analyst")]
struct Analyst<'a> {
    guidance: Guidance,
    desk: &'a str,
    date: &'a str,
    user: User<'a>,
    markets: &'a [&'a str],
    tools: Vec<Tool<'a>>,
    limits: BTreeMap<&'a str, u32>,
    max_steps: Option<u32>,
    notes: Option<&'a str>,
    tone: Option<&'a str>,
    precision: Option<u32>,
}

/// Lists as fields of a struct: a slice and a `Vec` are read in place, a boxed slice is
/// collected first.
#[derive(PromptValue)]
struct Group<'a> {
    members: &'a [&'a str],
    tags: Vec<String>,
    boxed: Box<[u8]>,
}

#[derive(promptic::Prompt)]
#[prompt("checks/compiled_mix")]
struct Mix<'a> {
    tone: Option<&'a str>,
    precision: Option<u32>,
    title: &'a str,
    subtitle: Option<&'a str>,
    count: i64,
    kind: &'a str,
    flag: bool,
    words: Vec<&'a str>,
    scores: BTreeMap<String, Option<f64>>,
    ratio: f64,
    maybe: Vec<Option<i32>>,
    pairs: [&'a str; 2],
    group: Group<'a>,
}

fn runtime(name: &str, values: serde_json::Value) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").expect("the project opens");
    let (file, templates) = project.load_jinja(name).expect("the templates load");
    templates
        .render(&file, &values)
        .expect("the run-time renderer renders")
}

fn object(pairs: Vec<(&str, Option<serde_json::Value>)>) -> serde_json::Value {
    serde_json::Value::Object(
        pairs
            .into_iter()
            .filter_map(|(k, v)| Some((k.to_owned(), v?)))
            .collect(),
    )
}

fn analyst_json(a: &Analyst<'_>) -> serde_json::Value {
    object(vec![
        ("guidance", a.guidance.to_value()),
        ("desk", a.desk.to_value()),
        ("date", a.date.to_value()),
        ("user", a.user.to_value()),
        ("markets", a.markets.to_value()),
        ("tools", a.tools.to_value()),
        ("limits", a.limits.to_value()),
        ("max_steps", a.max_steps.to_value()),
        ("notes", a.notes.to_value()),
        ("tone", a.tone.to_value()),
        ("precision", a.precision.to_value()),
    ])
}

fn mix_json(m: &Mix<'_>) -> serde_json::Value {
    object(vec![
        ("tone", m.tone.to_value()),
        ("precision", m.precision.to_value()),
        ("title", m.title.to_value()),
        ("subtitle", m.subtitle.to_value()),
        ("count", m.count.to_value()),
        ("kind", m.kind.to_value()),
        ("flag", m.flag.to_value()),
        ("words", m.words.to_value()),
        ("scores", m.scores.to_value()),
        ("ratio", m.ratio.to_value()),
        ("maybe", m.maybe.to_value()),
        ("pairs", m.pairs.to_value()),
        ("group", m.group.to_value()),
    ])
}

fn tool(
    name: &'static str,
    kind: &'static str,
    slow: bool,
    retired: bool,
    cost: Option<u32>,
) -> Tool<'static> {
    Tool {
        name,
        kind,
        slow,
        retired,
        cost,
    }
}

#[test]
fn analyst_compiled_matches_runtime() {
    let all = vec![
        tool("search", "web", true, false, Some(2)),
        tool("filings", "documents", false, false, None),
        tool("fax", "legacy", true, true, None),
        tool("ノート", "mémoire ß", false, false, Some(0)),
    ];
    let tool_sets: Vec<Vec<Tool<'static>>> = vec![
        all.clone(),
        Vec::new(),
        vec![tool("fax", "legacy", true, true, Some(9))],
        all[..2].to_vec(),
    ];
    let users = [
        (Some("Ada"), Some("de-CH")),
        (None, None),
        (Some(""), Some("")),
        (Some("Zoë Ñúñez 🦀"), None),
    ];
    let limit_sets = [
        BTreeMap::from([("calls", 40), ("minutes", 15)]),
        BTreeMap::new(),
        BTreeMap::from([("é", 0), ("a", u32::MAX)]),
    ];
    let markets: [&[&str]; 3] = [&["Bund", "SARON"], &[], &["日本株"]];
    let mut cases = 0;
    for (i, tools) in tool_sets.iter().enumerate() {
        for (j, (name, locale)) in users.iter().enumerate() {
            for (k, limits) in limit_sets.iter().enumerate() {
                let prompt = Analyst {
                    guidance: if (i + j + k) % 2 == 0 {
                        Guidance::Detailed
                    } else {
                        Guidance::Lean
                    },
                    desk: ["the Rates Desk", "", "ÉQUITÉS"][k],
                    date: "2026-03-02",
                    user: User {
                        name: *name,
                        locale: *locale,
                    },
                    markets: markets[(i + k) % 3],
                    tools: tools.clone(),
                    limits: limits.clone(),
                    max_steps: [None, Some(0), Some(7)][j % 3],
                    notes: [
                        Some("  trim me\n"),
                        None,
                        Some(""),
                        Some("\u{3000}wide\u{3000}"),
                    ][j],
                    tone: [None, Some("dry")][k % 2],
                    precision: [Some(3), None][i % 2],
                };
                let expected = runtime("agents/analyst", analyst_json(&prompt));
                assert_eq!(
                    prompt.__promptic_compiled().as_deref(),
                    Some(expected.as_str()),
                    "case {i} {j} {k}"
                );
                assert_eq!(prompt.render().expect("renders").text, expected);
                // `prompt!` compiles the same template over the arguments' own types.
                let inline = promptic::prompt!(
                    "agents/analyst",
                    guidance = prompt.guidance,
                    desk = prompt.desk,
                    date = prompt.date,
                    user = &prompt.user,
                    markets = prompt.markets,
                    tools = &prompt.tools[..],
                    limits = &prompt.limits,
                    max_steps = prompt.max_steps,
                    notes = prompt.notes,
                    tone = prompt.tone,
                    precision = prompt.precision,
                );
                assert_eq!(inline.__promptic_compiled(), Some(expected.as_str()));
                assert_eq!(inline.render().expect("renders").text, expected);
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 48);
}

#[test]
fn mix_compiled_matches_runtime() {
    let word_sets: [Vec<&str>; 3] = [vec!["α", "b", "ç", "ǅ"], vec![], vec!["only"]];
    let score_sets = [
        BTreeMap::from([
            ("z".to_owned(), Some(3.0)),
            ("a".to_owned(), Some(0.0)),
            ("m".to_owned(), None),
        ]),
        BTreeMap::new(),
        BTreeMap::from([
            ("big".to_owned(), Some(1e20)),
            ("small".to_owned(), Some(-2.5e-7)),
            ("k".to_owned(), Some(2.5)),
        ]),
    ];
    let mut cases = 0;
    for (i, words) in word_sets.iter().enumerate() {
        for (j, scores) in score_sets.iter().enumerate() {
            for (k, subtitle) in [Some(" sub "), Some(""), None].into_iter().enumerate() {
                let m = Mix {
                    tone: [None, Some("wry")][k % 2],
                    precision: [None, Some(1)][i % 2],
                    title: [
                        "Ünïcode Title",
                        "",
                        "ß straße",
                        "ΟΔΥΣΣΕΥΣ ΣΑΣ",
                        "İstanbul ǅ",
                    ][(i + j + k) % 5],
                    subtitle,
                    count: [0, 5, -12, i64::MIN, i64::MAX, 1_000_000_007][(i + 2 * j + k) % 6],
                    kind: ["memo", "nöte", ""][(j + k) % 3],
                    flag: (i + j) % 2 == 0,
                    words: words.clone(),
                    scores: scores.clone(),
                    ratio: [0.1, 2.0, 1e16][k],
                    maybe: [vec![Some(1), None, Some(-40)], vec![], vec![None]][j].clone(),
                    pairs: [[" x ", "y"], ["", "\u{3000}z"], ["p", "q"]][k],
                    group: Group {
                        members: [&["Ann", "BÖB"][..], &[]][i % 2],
                        tags: [vec!["t1".to_owned(), "t2".to_owned()], vec![]][j % 2].clone(),
                        boxed: [vec![7u8, 0], vec![]][k % 2].clone().into_boxed_slice(),
                    },
                };
                let expected = runtime("checks/compiled_mix", mix_json(&m));
                assert_eq!(
                    m.__promptic_compiled().as_deref(),
                    Some(expected.as_str()),
                    "case {i} {j} {k}"
                );
                assert_eq!(m.render().expect("renders").text, expected);
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 27);
}

/// The mix prompt over a struct with type parameters: a list and a map field of generic
/// types loop through their views (the typed loops need the concrete type), and the
/// compiled render still renders the run-time renderer's bytes.
#[derive(promptic::Prompt)]
#[prompt("checks/compiled_mix")]
struct GenericMix<'a, W: PromptValue, S: PromptValue> {
    tone: Option<&'a str>,
    precision: Option<u32>,
    title: &'a str,
    subtitle: Option<&'a str>,
    count: i64,
    kind: &'a str,
    flag: bool,
    words: Vec<W>,
    scores: S,
    ratio: f64,
    maybe: Vec<Option<i32>>,
    pairs: [&'a str; 2],
    group: Group<'a>,
}

#[test]
fn a_generic_struct_compiles_and_matches_runtime() {
    let m = GenericMix {
        tone: Some("wry"),
        precision: None,
        title: "Ünïcode",
        subtitle: Some(" sub "),
        count: 12,
        kind: "nöte",
        flag: false,
        words: vec!["α", "b"],
        scores: BTreeMap::from([("z".to_owned(), Some(3.0)), ("m".to_owned(), None)]),
        ratio: 0.1,
        maybe: vec![Some(1), None],
        pairs: [" x ", "y"],
        group: Group {
            members: &["Ann"],
            tags: vec!["t1".to_owned()],
            boxed: vec![7u8].into_boxed_slice(),
        },
    };
    // The fields as the derive gives them to the run-time renderer (each field's JSON).
    let values = promptic::formats::jinja::JinjaPrompt::values(&m);
    let expected = runtime("checks/compiled_mix", serde_json::Value::Object(values));
    assert_eq!(m.__promptic_compiled().as_deref(), Some(expected.as_str()));
    assert_eq!(m.render().expect("renders").text, expected);
}

/// A namespace that doubles its text on every item.
#[derive(promptic::Prompt)]
#[prompt("checks/compiled_namespace")]
struct Doubling<'a> {
    seed: &'a str,
    times: u32,
}

#[test]
fn a_namespace_that_grows_without_end_stops_at_the_limit() {
    let small = Doubling {
        seed: "ab",
        times: 5,
    };
    let text = "5 doublings: 64 characters\n";
    assert_eq!(small.__promptic_compiled().as_deref(), Some(text));
    assert_eq!(small.render().expect("renders").text, text);
    // 2^60 bytes: the compiled render stops at half the limit of what a render may build
    // and leaves the render to the run-time renderer, which refuses it at the set.
    let huge = Doubling {
        seed: "ab",
        times: 60,
    };
    assert_eq!(huge.__promptic_compiled(), None);
    let error = huge.render().expect_err("past the limit");
    assert!(error.to_string().contains("MiB"), "{error}");
}

#[derive(promptic::Prompt)]
#[prompt("checks/compiled_bound")]
struct Lines {
    lines: Vec<String>,
}

#[test]
fn a_render_past_the_output_limit_is_stopped_by_the_compiled_render_itself() {
    let small = Lines {
        lines: vec!["a".to_owned(), "b".to_owned()],
    };
    assert_eq!(small.render().expect("renders").text, "a\nb\n");
    // 65 lines of 1 MiB: past the 64 MiB a render may make. The compiled render stops at
    // the line that passes it, with the run-time renderer's message; nothing is handed
    // over to the run-time renderer, which would build it all again to say so.
    let line = "x".repeat(1 << 20);
    let huge = Lines {
        lines: vec![line; 65],
    };
    assert_eq!(huge.__promptic_compiled(), None);
    let error = huge.render().expect_err("past the limit").to_string();
    assert!(
        error.starts_with("error: the render is larger than 64 MiB"),
        "{error}"
    );
}

/// Filters and operations run through the run-time renderer's implementations.
#[derive(promptic::Prompt, Clone)]
#[prompt("checks/compiled_fails")]
struct Fails<'a> {
    who: &'a str,
    n: i64,
    d: i64,
    mode: &'a str,
    sep: &'a str,
    words: Vec<&'a str>,
}

/// The run-time renderer's render of prompt `P`'s values.
fn runtime_render<P: promptic::formats::jinja::JinjaPrompt>(
    prompt: &P,
) -> Result<String, promptic::Diagnostic> {
    let values = prompt.values();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").expect("the project opens");
    let (file, templates) = project.load_jinja(P::NAME).expect("loads");
    templates.render(&file, &serde_json::Value::Object(values))
}

/// The run-time renderer's text for prompt `P`'s values.
fn runtime_text<P: promptic::formats::jinja::JinjaPrompt>(prompt: &P) -> String {
    runtime_render(prompt).expect("the run-time renderer renders it")
}

/// The run-time renderer's error for prompt `P`'s values.
fn runtime_error<P: promptic::formats::jinja::JinjaPrompt>(prompt: &P) -> String {
    runtime_render(prompt)
        .expect_err("the run-time renderer refuses it")
        .to_string()
}

impl Fails<'_> {
    /// The run-time renderer's error for the same values.
    fn runtime_error(&self) -> String {
        runtime_error(self)
    }

    fn compiled(&self) -> Result<String, Option<String>> {
        compiled_alone(|text, marks, fail| self.__promptic_compiled_into(text, marks, fail))
    }
}

/// What a derived prompt's compiled render alone (`render_into`, its
/// `__promptic_compiled_into`) gives: its text, or the error it stopped with (`None`: it
/// handed the render over).
fn compiled_alone(
    render_into: impl FnOnce(
        &mut String,
        &mut Vec<usize>,
        &mut Option<Box<promptic::Diagnostic>>,
    ) -> Option<()>,
) -> Result<String, Option<String>> {
    let (mut text, mut fail) = (String::new(), None);
    match render_into(&mut text, &mut Vec::new(), &mut fail) {
        Some(()) => Ok(text),
        None => Err(fail.map(|e| e.to_string())),
    }
}

#[test]
fn a_filter_or_operation_that_fails_is_stopped_by_the_compiled_render_with_the_runtime_error() {
    let fine = Fails {
        who: "ada lovelace",
        n: 6,
        d: 4,
        mode: "div",
        sep: " ",
        words: vec!["x"],
    };
    assert_eq!(
        fine.compiled(),
        Ok("Ada Lovelace is number 7 (early).\nShare: 1\n".to_owned())
    );
    // Division by zero, an empty separator (an argument's mistake, shown at the
    // argument), the first item of no items (not defined), a test by zero, a number's
    // `.startswith`, `.split` by nothing: each the run-time renderer's error at its place,
    // made by the compiled render itself, never handed over.
    let cases = [
        Fails {
            d: 0,
            ..fine.clone()
        },
        Fails {
            mode: "split",
            sep: "",
            ..fine.clone()
        },
        Fails {
            mode: "first",
            words: Vec::new(),
            ..fine.clone()
        },
        Fails {
            mode: "test",
            d: 0,
            ..fine.clone()
        },
        Fails {
            mode: "starts",
            ..fine.clone()
        },
        Fails {
            mode: "cut",
            sep: "",
            ..fine.clone()
        },
    ];
    let expected = [
        "integer division or modulo by zero",
        "the separator must not be empty",
        "`words | first` is not defined",
        "integer division or modulo by zero",
        "has no `.startswith`",
        "`.split` needs a separator that is not empty",
    ];
    for (case, message) in cases.iter().zip(expected) {
        let runtime = case.runtime_error();
        assert!(runtime.contains(message), "{runtime}");
        assert_eq!(case.compiled(), Err(Some(runtime.clone())));
        assert_eq!(case.render().expect_err("refused").to_string(), runtime);
    }
    // A value that is not defined (an item past the list's end) is left to the run-time
    // renderer, which names the path the values lack.
    let order = Fails {
        mode: "order",
        ..fine.clone()
    };
    let runtime = order.runtime_error();
    assert!(runtime.contains("no item [5] in `words`"), "{runtime}");
    assert_eq!(order.compiled(), Err(None));
    assert_eq!(order.render().expect_err("refused").to_string(), runtime);
}

/// A value with a `PromptValue` written by hand, without a view of its own.
#[derive(Clone)]
struct Money(i64);

impl PromptValue for Money {
    const SHAPE: promptic::value::Shape = promptic::value::Shape::Any;
    fn to_value(&self) -> Option<serde_json::Value> {
        Some(serde_json::json!({"amount": self.0 / 100, "currency": "EUR"}))
    }
}

/// A derived struct holding JSON.
#[derive(PromptValue, Clone, Default)]
struct Wrap {
    json: serde_json::Value,
}

/// Values a template reads that are not there, read as JSON.
#[derive(promptic::Prompt, Clone)]
#[prompt("checks/compiled_undefined")]
struct Undefined<'a> {
    data: serde_json::Value,
    names: BTreeMap<&'a str, String>,
    extra: std::collections::HashMap<String, serde_json::Value>,
    wrap: Wrap,
    items: Vec<serde_json::Value>,
    price: Money,
    n: i64,
    mode: &'a str,
}

impl Undefined<'_> {
    fn compiled(&self) -> Result<String, Option<String>> {
        compiled_alone(|text, marks, fail| self.__promptic_compiled_into(text, marks, fail))
    }
}

#[test]
fn a_value_not_there_stops_the_compiled_render_with_the_runtime_error() {
    use serde_json::json;
    let fine = Undefined {
        data: json!({"user": {"name": "Ada"}, "on": false, "xs": [], "x": {}}),
        names: BTreeMap::from([("first", "Ada".to_owned())]),
        extra: std::collections::HashMap::new(),
        wrap: Wrap::default(),
        items: Vec::new(),
        price: Money(1250),
        n: 1,
        mode: "",
    };
    assert_eq!(fine.compiled(), Ok("Hello Ada.\n".to_owned()));
    let with = |data: serde_json::Value, mode| Undefined {
        data,
        mode,
        ..fine.clone()
    };
    let cases = [
        // A name a `set` made, which the values' check does not follow: the value that
        // is not defined, at the first part of the path that is not (a key of a name in
        // scope, which the run-time renderer reports for the compiled render).
        (
            with(json!({"user": {}}), ""),
            "`u.name` is not defined",
            false,
        ),
        // What a `set` reads may be missing where the set is not reached: the compiled
        // render leaves it to the run-time renderer, which checks it first.
        (with(json!({}), ""), "no key `user` in `data`", false),
        // A key the values lack, and a key of a str (through `upper`, printed by the JSON
        // itself): the values' check names them.
        (
            with(json!({"user": {"name": "Ada"}}), "key"),
            "no key `nmae` in `data`",
            true,
        ),
        (
            with(json!({"user": {"name": "Ada"}}), "deep"),
            "`data.user.name` is a str, not a dict",
            true,
        ),
        // A block that is off: what it reads is not asked for, and the division fails.
        (
            with(
                json!({"user": {"name": "A"}, "on": false, "x": {}}),
                "gated",
            ),
            "integer division or modulo by zero",
            true,
        ),
        // On: the key its body reads is reported, not the division that fails after it
        // (as if the values were checked first).
        (
            with(json!({"user": {"name": "A"}, "on": true, "x": {}}), "gated"),
            "no key `y` in `data.x`",
            true,
        ),
        // A key a map lacks.
        (
            with(json!({"user": {"name": "A"}}), "map"),
            "no key `nick` in `names`",
            true,
        ),
        (
            with(json!({"user": {"name": "A"}, "xs": [], "x": {}}), "loop"),
            "integer division or modulo by zero",
            true,
        ),
        (
            with(json!({"user": {"name": "A"}, "xs": [1], "x": {}}), "loop"),
            "no key `z` in `data.x`",
            true,
        ),
        // Keys of JSON printed, one of them missing, or a key of a str: the compiled
        // render stops, and the values' check names the first key that is not there.
        (
            with(json!({"user": {"name": "A"}, "x": {"y": {}}}), "path"),
            "no key `z` in `data.x.y`",
            true,
        ),
        (
            with(json!({"user": {"name": "A"}, "x": {}}), "path"),
            "no key `y` in `data.x`",
            true,
        ),
        (
            with(json!({"user": {"name": "A"}, "x": "y"}), "path"),
            "`data.x` is a str, not a dict",
            true,
        ),
        // A key an item of a list of JSON lacks, or a key of an item that is a str: the
        // loop's item prints its key itself, and stops where it is not there.
        (
            Undefined {
                items: vec![json!({"name": "a"}), json!({"on": true})],
                ..with(json!({"user": {"name": "A"}}), "items")
            },
            "no key `name` in `items[1]`",
            true,
        ),
        (
            Undefined {
                items: vec![json!("a")],
                ..with(json!({"user": {"name": "A"}}), "items")
            },
            "`items[0]` is a str, not a dict",
            true,
        ),
    ];
    // A value whose `PromptValue` is written by hand (no view of its own) is left to the
    // run-time renderer, which gives its text.
    let money = with(json!({"user": {"name": "A"}}), "money");
    let runtime = runtime_text(&money);
    assert_eq!(
        runtime,
        "Hello A.\n12 EUR: {'amount': 12, 'currency': 'EUR'}\n"
    );
    assert_eq!(money.compiled(), Err(None));
    assert_eq!(money.render().expect("renders").text, runtime);
    for (case, message, stopped) in &cases {
        let runtime = runtime_error(case);
        assert!(runtime.contains(message), "{message}: {runtime}");
        assert_eq!(case.render().expect_err("refused").to_string(), runtime);
        // Stopped by the compiled render itself, not handed over.
        assert_eq!(
            matches!(case.compiled(), Err(Some(_))),
            *stopped,
            "{message}"
        );
    }
}

#[test]
fn a_json_value_printed_by_key_or_whole_is_compiled_whatever_it_holds() {
    use serde_json::json;
    let mut deep = json!("bottom");
    for _ in 0..300 {
        deep = json!([deep, {"k": null}]);
    }
    let values = [
        json!("it's \"quoted\""),
        json!(null),
        json!(true),
        json!(-7),
        json!(u64::MAX),
        json!(0.1),
        json!(1e22),
        json!(["a", 1, 2.5, null, [], {}]),
        json!({"b": [1, {"c": "d'e"}], "a": false}),
        json!("  Straße ΣΑΣ ǅ\u{a0}"),
        json!("\tx y\n"),
        json!({"Ä": " é "}),
        json!(0),
        json!(-0.0),
        json!(""),
        json!([]),
        json!({}),
        json!(false),
        deep,
    ];
    for v in values {
        let prompt = Undefined {
            data: json!({"user": {"name": "A"}, "v": v, "w": {"v": v}}),
            names: BTreeMap::new(),
            extra: std::collections::HashMap::from([("w".to_owned(), json!({"v": v}))]),
            wrap: Wrap {
                json: json!({"v": v}),
            },
            items: vec![json!({"name": v, "on": v}), json!({"name": "x"}), v.clone()],
            price: Money(0),
            n: 0,
            mode: "json",
        };
        let runtime = runtime_text(&prompt);
        // Printed by the compiled render itself: no value of JSON is handed over.
        assert_eq!(prompt.compiled(), Ok(runtime.clone()), "{v}");
        assert_eq!(prompt.render().expect("renders").text, runtime);
        // Items of a list of JSON: a key printed, tested (a key not there is false), the
        // item tested and printed whole.
        let items = Undefined {
            items: vec![json!({"name": v, "on": v}), json!({"name": "x", "w": v})],
            mode: "items",
            ..prompt
        };
        let runtime = runtime_text(&items);
        assert_eq!(items.compiled(), Ok(runtime.clone()), "{v}");
        assert_eq!(items.render().expect("renders").text, runtime);
    }
}

/// `groupby` in a loop, its pairs read as `.grouper` and `.list` or unpacked: compiled
/// whole, and the same text as the run-time renderer's.
#[derive(promptic::Prompt)]
#[prompt("checks/compiled_group")]
struct Grouped<'a> {
    tools: Vec<Tool<'a>>,
}

#[test]
fn groupby_compiled_matches_runtime() {
    let tools = vec![
        tool("search", "Web", false, false, Some(2)),
        tool("fetch", "web", true, false, None),
        tool("calc", "Math", false, false, Some(2)),
        tool("plot", "math", false, true, Some(5)),
    ];
    for tools in [tools.clone(), Vec::new(), tools[..1].to_vec()] {
        let grouped = Grouped { tools };
        let values = promptic::formats::jinja::JinjaPrompt::values(&grouped);
        let expected = runtime("checks/compiled_group", serde_json::Value::Object(values));
        assert_eq!(
            grouped.__promptic_compiled().as_deref(),
            Some(expected.as_str())
        );
    }
}
