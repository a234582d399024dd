//! The compiled render of derived dotprompt prompts gives the run-time renderer's
//! `RenderedPrompt` (messages, parts, metadata): over a table of value sets (Unicode,
//! empty lists and maps, absent `Option`s, `None` in a list, zero, negative and large
//! numbers, floats), on a prompt with roles, history, media, sections, `json`, every
//! block, `@index`/`@first`/`@last`/`@key`, `this`, `@root`, partials with arguments and
//! indentation, `~`, and Handlebars' addition of adjacent numbers. `__promptic_compiled`
//! is the compiled render alone, so each case also checks that it did render (a fallback
//! to the run-time renderer would pass otherwise).

use promptic::PromptValue;
use promptic::dotprompt::{DataArgument, Message, Part, Registry, RenderedPrompt};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(PromptValue)]
struct User<'a> {
    name: &'a str,
    nick: Option<&'a str>,
    tags: Vec<&'a str>,
}

#[derive(PromptValue)]
struct Item {
    name: String,
    qty: i64,
}

#[derive(promptic::Prompt)]
#[prompt("checks/dotprompt_mix")]
struct Mix<'a> {
    title: &'a str,
    subtitle: Option<&'a str>,
    count: i64,
    ratio: f64,
    flag: bool,
    kind: &'a str,
    words: Vec<&'a str>,
    scores: BTreeMap<String, f64>,
    maybe: Vec<Option<i32>>,
    user: User<'a>,
    items: Vec<Item>,
    image: Option<&'a str>,
}

#[derive(promptic::Prompt)]
#[prompt("travel_agent")]
struct Travel<'a> {
    traveller: &'a str,
    city: &'a str,
    nights: Option<u32>,
    interests: Option<Vec<&'a str>>,
}

#[derive(PromptValue)]
struct Person<'a> {
    name: &'a str,
    age: Option<u8>,
}

#[derive(promptic::Prompt)]
#[prompt("checks/dotprompt_lean")]
struct Lean<'a> {
    intro: &'a str,
    name: &'a str,
    note: Option<&'a str>,
    count: i64,
    lines: Vec<&'a str>,
    pad: &'a str,
    place: bool,
    /// A typed loop over items that may be absent (`null` in the list).
    people: Vec<Option<Person<'a>>>,
}

fn runtime(
    name: &str,
    input: serde_json::Map<String, serde_json::Value>,
    history: &[Message],
) -> RenderedPrompt {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let mut registry = Registry::new();
    for partial in ["mix_card", "mix_line", "mix_json", "persona", "lean_role"] {
        let text = std::fs::read_to_string(dir.join(format!("_{partial}.prompt"))).unwrap();
        registry.define_partial(partial, &text).unwrap();
    }
    let text = std::fs::read_to_string(dir.join(format!("{name}.prompt"))).unwrap();
    let prompt = registry.parse(&text).unwrap();
    let data = DataArgument {
        input: serde_json::from_value(serde_json::Value::Object(input)).unwrap(),
        messages: history.to_vec(),
        ..DataArgument::default()
    };
    prompt.render(&data).unwrap()
}

fn input(fields: &[(&str, &dyn PromptValueDyn)]) -> serde_json::Map<String, serde_json::Value> {
    fields
        .iter()
        .filter_map(|(k, v)| Some(((*k).to_owned(), v.json()?)))
        .collect()
}

/// The mix's fields as the run-time renderer takes them.
fn mix_input(mix: &Mix<'_>) -> serde_json::Map<String, serde_json::Value> {
    input(&[
        ("title", &mix.title),
        ("subtitle", &mix.subtitle),
        ("count", &mix.count),
        ("ratio", &mix.ratio),
        ("flag", &mix.flag),
        ("kind", &mix.kind),
        ("words", &mix.words),
        ("scores", &mix.scores),
        ("maybe", &mix.maybe),
        ("user", &mix.user),
        ("items", &mix.items),
        ("image", &mix.image),
    ])
}

/// `PromptValue::to_value` behind a reference (the trait has an associated const).
trait PromptValueDyn {
    fn json(&self) -> Option<serde_json::Value>;
}

impl<T: PromptValue> PromptValueDyn for T {
    fn json(&self) -> Option<serde_json::Value> {
        self.to_value()
    }
}

fn histories() -> Vec<Vec<Message>> {
    let message = |role: &str, text: &str| Message {
        role: role.to_owned(),
        content: vec![Part::from_text(text)],
        metadata: None,
    };
    vec![
        Vec::new(),
        vec![
            message("user", "Hi"),
            message("model", "Hello, how can I help?"),
        ],
    ]
}

#[test]
fn the_compiled_mix_renders_what_the_runtime_renders() {
    let titles = ["Plan", "Ünïcödé ✈ 東京", ""];
    let counts = [0i64, 3, -7, 9_007_199_254_740_993];
    let ratios = [0.5, 2.0, -0.0, 1e21, 1.5e-7, 0.1 + 0.2];
    let words: [&[&str]; 3] = [&[], &["one"], &["a", "b,c", "ü"]];
    let mut cases = 0;
    for (i, title) in titles.iter().enumerate() {
        for (j, count) in counts.iter().enumerate() {
            let ratio = ratios[(i + j) % ratios.len()];
            let flag = (i + j) % 2 == 0;
            let words = words[(i * 2 + j) % words.len()];
            let mut scores = BTreeMap::new();
            if j % 2 == 1 {
                scores.insert("zeta".to_owned(), ratio);
                scores.insert("alpha".to_owned(), *count as f64);
                scores.insert("Ä".to_owned(), 0.25);
            }
            let maybe: Vec<Option<i32>> = match j {
                0 => vec![],
                1 => vec![Some(1)],
                _ => vec![Some(0), None, Some(-3)],
            };
            let user = User {
                name: if i == 1 { "Zoë" } else { "Sam" },
                nick: (j % 2 == 0).then_some("S"),
                tags: words.to_vec(),
            };
            let items: Vec<Item> = (0..j)
                .map(|k| Item {
                    name: format!("item {k}"),
                    qty: k as i64,
                })
                .collect();
            let mix = Mix {
                title,
                subtitle: (i != 0).then_some("sub"),
                count: *count,
                ratio,
                flag,
                kind: if j == 2 { "a" } else { "b" },
                words: words.to_vec(),
                scores,
                maybe,
                user,
                items,
                image: (j == 3).then_some("https://x.test/a.png"),
            };
            let values = mix_input(&mix);
            for history in histories() {
                let compiled = mix
                    .__promptic_compiled(&history)
                    .unwrap_or_else(|| panic!("case {i}/{j}: the compiled render fell back"));
                let expected = runtime("checks/dotprompt_mix", values.clone(), &history);
                assert_eq!(compiled, expected, "case {i}/{j}");
                // What a user compares: the JSON dotprompt's JS reference gives.
                assert_eq!(
                    serde_json::to_string(&compiled).unwrap(),
                    serde_json::to_string(&expected).unwrap(),
                    "case {i}/{j}"
                );
                assert_eq!(mix.render_with_history(&history).unwrap(), expected);
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 24);
}

#[test]
fn the_example_prompt_renders_compiled() {
    for nights in [None, Some(0), Some(3)] {
        for interests in [None, Some(vec![]), Some(vec!["food", "tiles"])] {
            let travel = Travel {
                traveller: "Sam",
                city: "Lisbon",
                nights,
                interests,
            };
            let values = input(&[
                ("traveller", &travel.traveller),
                ("city", &travel.city),
                ("nights", &travel.nights),
                ("interests", &travel.interests),
            ]);
            for history in histories() {
                let compiled = travel.__promptic_compiled(&history).expect("compiled");
                assert_eq!(compiled, runtime("travel_agent", values.clone(), &history));
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Random values (blank and marker-like text, whitespace, big and negative numbers,
    /// floats, empty and longer lists): the compiled render gives the run-time renderer's
    /// result, and does render.
    #[test]
    fn random_values_render_the_same_both_ways(
        title in "[ a\n\t<>:,ü✈]{0,12}|<<<dotprompt:role:system>>>",
        subtitle in proptest::option::of("[ x\n]{0,4}"),
        count in proptest::prelude::any::<i64>(),
        ratio in -1e22f64..1e22,
        small in -3i64..3,
        flag in proptest::prelude::any::<bool>(),
        kind in "[ab]",
        words in proptest::collection::vec("[ a,b\n]{0,3}", 0..4),
        scores in proptest::collection::btree_map("[a-cÄ]{0,2}", -2.5f64..2.5, 0..4),
        maybe in proptest::collection::vec(proptest::option::of(-2i32..3), 0..4),
        nick in proptest::option::of("[ S]{0,2}"),
        qtys in proptest::collection::vec(-1i64..3, 0..4),
        image in proptest::option::of("[a-z:/. ]{0,8}"),
        with_history in proptest::prelude::any::<bool>(),
    ) {
        let count = if flag { small } else { count };
        let user = User { name: "Sam", nick: nick.as_deref(), tags: words.iter().map(String::as_str).collect() };
        let mix = Mix {
            title: &title,
            subtitle: subtitle.as_deref(),
            count,
            ratio,
            flag,
            kind: &kind,
            words: words.iter().map(String::as_str).collect(),
            scores: scores.clone(),
            maybe: maybe.clone(),
            user,
            items: qtys.iter().enumerate().map(|(k, q)| Item { name: format!("item {k}"), qty: *q }).collect(),
            image: image.as_deref(),
        };
        let values = mix_input(&mix);
        let history = if with_history { histories().pop().unwrap() } else { Vec::new() };
        let compiled = mix.__promptic_compiled(&history);
        proptest::prop_assert!(compiled.is_some(), "the compiled render fell back");
        let expected = runtime("checks/dotprompt_mix", values, &history);
        proptest::prop_assert_eq!(compiled.unwrap(), expected);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    /// A prompt whose only markers are roles named by literals and `{{history}}`: the
    /// compiled render cuts the messages as the markers come (blank text between two
    /// markers, `\u{feff}` too, is dropped; a role over a blank message renames it; the
    /// history placed or not; a number run before a block; an indented partial) and gives
    /// the run-time renderer's result. An indented partial that writes a role is left to
    /// the run-time renderer, which shows that this prompt is cut as it goes.
    #[test]
    fn roles_and_history_cut_as_they_come(
        intro in "[ \n\u{feff}x]{0,3}",
        name in "[ \nab]{0,3}",
        note in proptest::option::of("[ \nn]{0,2}"),
        count in proptest::prop_oneof![-3i64..120, proptest::prelude::any::<i64>()],
        lines in proptest::collection::vec("[ \nl]{0,2}", 0..3),
        pad in "[ \n\t\u{feff}p]{0,3}",
        place in proptest::prelude::any::<bool>(),
        with_history in proptest::prelude::any::<bool>(),
        people in proptest::collection::vec(proptest::option::of(("[ab ]{0,2}", proptest::option::of(0u8..3))), 0..4),
    ) {
        let people = people.iter().map(|p| p.as_ref().map(|(name, age)| Person { name, age: *age })).collect();
        let lean = Lean { intro: &intro, name: &name, note: note.as_deref(), count, lines: lines.iter().map(String::as_str).collect(), pad: &pad, place, people };
        let values = input(&[
            ("intro", &lean.intro),
            ("name", &lean.name),
            ("note", &lean.note),
            ("count", &lean.count),
            ("lines", &lean.lines),
            ("pad", &lean.pad),
            ("place", &lean.place),
            ("people", &lean.people),
        ]);
        let history = if with_history { histories().pop().unwrap() } else { Vec::new() };
        let expected = runtime("checks/dotprompt_lean", values, &history);
        let compiled = lean.__promptic_compiled(&history);
        let role_in_partial = note.as_deref().is_some_and(|n| !n.is_empty());
        proptest::prop_assert_eq!(compiled.is_none(), role_in_partial);
        if let Some(compiled) = compiled {
            proptest::prop_assert_eq!(&compiled, &expected);
        }
        proptest::prop_assert_eq!(lean.render_with_history(&history).unwrap(), expected);
    }
}

#[test]
fn a_render_past_the_output_bound_is_stopped_by_the_compiled_render_itself() {
    // `{{pad}}` three times, 12 MiB each: past the 32 MiB a rendered prompt may hold. The
    // compiled render stops at the text that passes it, with the run-time renderer's
    // message (naming the file: the compiled render checks as the text grows); nothing
    // is handed over to the run-time renderer, which would render it all again to say so.
    let pad = "x".repeat(12 << 20);
    let lean = Lean {
        intro: "i",
        name: "n",
        note: None,
        count: 1,
        lines: Vec::new(),
        pad: &pad,
        place: false,
        people: Vec::new(),
    };
    let mut fail = None;
    assert!(lean.__promptic_compiled_into(&[], &mut fail).is_none());
    let error = fail.expect("stopped with its error").to_string();
    assert!(
        error.starts_with("error: the rendered prompt is larger than 33554432 bytes\n --> prompts/checks/dotprompt_lean.prompt"),
        "{error}"
    );
    let rendered = lean.render_with_history(&[]).expect_err("past the bound");
    assert_eq!(rendered.to_string(), error);
}

/// `prompt!` on a dotprompt file renders what the derived struct renders, through the
/// compiled render; an optional input may be left out, and then renders as `None`.
#[test]
fn prompt_call_renders_as_the_derived_struct() {
    let interests = vec!["food", "tiles"];
    let call = promptic::prompt!(
        "travel_agent",
        traveller = "Sam",
        city = "Lisbon",
        nights = Some(3u32),
        interests = Some(interests.clone())
    );
    let travel = Travel {
        traveller: "Sam",
        city: "Lisbon",
        nights: Some(3),
        interests: Some(interests),
    };
    assert_eq!(call.render().unwrap(), travel.render().unwrap());
    assert_eq!(call.__promptic_compiled(), Some(travel.render().unwrap()));
    for history in histories() {
        assert_eq!(
            call.render_with_history(&history).unwrap(),
            travel.render_with_history(&history).unwrap()
        );
    }
    let short = promptic::prompt!("travel_agent", traveller = "Sam", city = "Lisbon");
    let travel = Travel {
        traveller: "Sam",
        city: "Lisbon",
        nights: None,
        interests: None,
    };
    assert_eq!(short.render().unwrap(), travel.render().unwrap());

    // Arguments of derived `PromptValue` types, nested properties checked against them.
    let people = vec![
        Some(Person {
            name: "Ada",
            age: Some(36),
        }),
        None,
    ];
    let lean = promptic::prompt!(
        "checks/dotprompt_lean",
        intro = "Hi",
        name = "Ada",
        note = None::<&str>,
        count = 3i64,
        lines = vec!["a", "b"],
        pad = "  ",
        place = true,
        people = people
    );
    let derived = Lean {
        intro: "Hi",
        name: "Ada",
        note: None,
        count: 3,
        lines: vec!["a", "b"],
        pad: "  ",
        place: true,
        people: vec![
            Some(Person {
                name: "Ada",
                age: Some(36),
            }),
            None,
        ],
    };
    assert_eq!(lean.render().unwrap(), derived.render().unwrap());
    assert!(lean.__promptic_compiled().is_some());
}
