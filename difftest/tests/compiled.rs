//! The derive's compiled Jinja render against the run-time renderer and minijinja, on
//! random templates (written by `build.rs`, seeded) with random values (proptest).
//!
//! For every template and value set:
//! - `render()` (the derive) gives the run-time renderer's result: the same text, or the
//!   same error where it errs;
//! - the compiled render alone (`__promptic_compiled`) renders whenever the run-time
//!   renderer does, and the same bytes: a fallback would hide a wrong compiled render;
//! - where the template keeps to what minijinja renders as Jinja2 does (see `build.rs`),
//!   minijinja gives the same bytes.

#[path = "../../benches/oracle.rs"]
mod oracle;

use oracle::to_minijinja;
use prompt_runtime::SourceFile;
use prompt_runtime::formats::jinja::{Options, Templates};
use promptic::PromptValue;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

#[derive(PromptValue, Debug, Clone)]
pub struct User {
    name: String,
    nick: Option<String>,
}

#[derive(PromptValue, Debug, Clone)]
pub struct Tool {
    name: String,
    slow: bool,
    cost: Option<i64>,
}

/// The values every template takes its fields from.
#[derive(Debug, Clone)]
pub struct Pool {
    s: String,
    t: String,
    n: i64,
    flag: bool,
    f: f64,
    o: Option<String>,
    xs: Vec<String>,
    user: User,
    tools: Vec<Tool>,
    m: BTreeMap<String, i64>,
    j: serde_json::Value,
    js: Vec<serde_json::Value>,
}

mod generated {
    #![allow(clippy::all, dead_code)]
    use super::{Pool, Tool, User};
    include!(concat!(env!("OUT_DIR"), "/generated.rs"));
}

const OPTIONS: Options = Options {
    trim_blocks: true,
    lstrip_blocks: true,
    keep_trailing_newline: true,
};

fn prompts() -> &'static Path {
    Path::new(concat!(env!("OUT_DIR"), "/prompts"))
}

/// Every template, loaded once by the run-time renderer.
fn loaded() -> &'static [Templates] {
    static LOADED: OnceLock<Vec<Templates>> = OnceLock::new();
    LOADED.get_or_init(|| {
        generated::TEMPLATES
            .iter()
            .map(|(name, _)| {
                Templates::load(name, OPTIONS, &mut |file: &str| {
                    let text = std::fs::read_to_string(prompts().join(file)).map_err(|_| None)?;
                    // Shown as the derive shows it, so that errors compare whole.
                    Ok(SourceFile::new(format!("prompts/{file}"), text))
                })
                .unwrap_or_else(|e| panic!("{name} loads: {}", e.0[0]))
            })
            .collect()
    })
}

fn minijinja_env() -> &'static minijinja::Environment<'static> {
    static ENV: OnceLock<minijinja::Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = oracle::environment();
        let mut names: Vec<String> = generated::TEMPLATES
            .iter()
            .map(|(n, _)| (*n).to_owned())
            .collect();
        names.extend(["gen/part_a.md.j2".to_owned(), "gen/part_b.md.j2".to_owned()]);
        for name in names {
            let text = std::fs::read_to_string(prompts().join(&name)).expect("generated");
            env.add_template_owned(name, text)
                .expect("minijinja parses the generated templates");
        }
        env
    })
}

impl Pool {
    fn json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("s".into(), self.s.clone().into());
        map.insert("t".into(), self.t.clone().into());
        map.insert("n".into(), self.n.into());
        map.insert("flag".into(), self.flag.into());
        map.insert("f".into(), self.f.into());
        if let Some(o) = &self.o {
            map.insert("o".into(), o.clone().into());
        }
        map.insert("xs".into(), self.xs.to_value().expect("a list"));
        map.insert("user".into(), self.user.to_value().expect("a struct"));
        map.insert("tools".into(), self.tools.to_value().expect("a list"));
        map.insert("m".into(), self.m.to_value().expect("a map"));
        map.insert("j".into(), self.j.clone());
        map.insert("js".into(), serde_json::Value::Array(self.js.clone()));
        serde_json::Value::Object(map)
    }
}

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "", "a", "b", " b ", "Ab", "a,b", "x y", "é", "ß", "k1",
    ])
    .prop_map(str::to_owned)
}

fn pool() -> impl Strategy<Value = Pool> {
    let user = (word(), prop::option::of(word())).prop_map(|(name, nick)| User { name, nick });
    let tool = (word(), any::<bool>(), prop::option::of(-1i64..4))
        .prop_map(|(name, slow, cost)| Tool { name, slow, cost });
    (
        (word(), word(), -2i64..4, any::<bool>()),
        (
            prop::sample::select(vec![0.0, 0.5, 2.0, -1.5, 1e20, 1e-7, 123_456_789.125, 0.1]),
            prop::option::of(word()),
            prop::collection::vec(word(), 0..4),
        ),
        (
            user,
            prop::collection::vec(tool, 0..4),
            prop::collection::btree_map(
                prop::sample::select(vec!["k1", "k2", "b", "Z", "ä"]).prop_map(str::to_owned),
                -1i64..5,
                0..3,
            ),
            json(),
            prop::collection::vec(json_item(), 0..4),
        ),
    )
        .prop_map(
            |((s, t, n, flag), (f, o, xs), (user, tools, m, j, js))| Pool {
                s,
                t,
                n,
                flag,
                f,
                o,
                xs,
                user,
                tools,
                m,
                j,
                js,
            },
        )
}

/// An item of a list of JSON: an object with `name` and `k`, and `on` or not (a key an
/// item lacks is read only under a test or a default: a `set` of one hands the render
/// over, which this test does not allow).
fn json_item() -> impl Strategy<Value = serde_json::Value> {
    let leaf = || {
        prop::sample::select(vec![
            serde_json::json!(null),
            serde_json::json!(""),
            serde_json::json!(0),
            serde_json::json!(true),
            serde_json::json!(-1.5),
            serde_json::json!("v"),
            serde_json::json!([]),
            serde_json::json!({"z": [1, "it's"]}),
        ])
    };
    (word(), prop::option::of(leaf()), leaf()).prop_map(|(name, on, k)| {
        let mut item = serde_json::Map::new();
        item.insert("name".to_owned(), name.into());
        if let Some(on) = on {
            item.insert("on".to_owned(), on);
        }
        item.insert("k".to_owned(), k);
        serde_json::Value::Object(item)
    })
}

/// A `serde_json::Value` field: an object of a fixed shape, its leaves drawn.
fn json() -> impl Strategy<Value = serde_json::Value> {
    (
        word(),
        -2i64..3,
        any::<bool>(),
        prop::sample::select(vec![2.5, 1e20, -0.0]),
    )
        .prop_map(|(a, n, flag, f)| {
            let k = if flag {
                serde_json::json!(f)
            } else {
                serde_json::json!(n)
            };
            serde_json::json!({"a": a, "list": [n, "x", null], "nested": {"k": k, "w": flag}})
        })
}

fn check(pool: &Pool) -> Result<(), TestCaseError> {
    let json = pool.json();
    let jinja_values = to_minijinja(&json);
    for (i, (name, safe)) in generated::TEMPLATES.iter().enumerate() {
        let runtime = loaded()[i].render(name, &json).map_err(|e| e.to_string());
        let (compiled, derived) = generated::render(i, pool);
        prop_assert_eq!(
            derived.is_ok(),
            runtime.is_ok(),
            "{}: the derive {:?}, the run-time renderer {:?}",
            name,
            derived,
            runtime
        );
        // An error is the run-time renderer's, whichever render made it (the compiled
        // render makes a failing filter's or operation's error itself).
        if let Err(error) = &runtime {
            prop_assert_eq!(derived.as_ref().err(), Some(error), "{}: derive", name);
        }
        if let Ok(text) = &runtime {
            prop_assert_eq!(derived.as_ref().ok(), Some(text), "{}: derive", name);
            prop_assert_eq!(
                compiled.as_ref(),
                Some(text),
                "{}: the compiled render",
                name
            );
        }
        if *safe {
            let theirs = minijinja_env()
                .get_template(name)
                .and_then(|t| t.render(&jinja_values));
            if let Ok(theirs) = theirs {
                prop_assert_eq!(runtime.as_ref().ok(), Some(&theirs), "{}: minijinja", name);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn compiled_renders_as_the_runtime_renderer_and_minijinja(pool in pool()) {
        check(&pool)?;
    }
}

/// The generated set is not trivial: it reads every kind of value, loops, and has
/// templates minijinja checks too.
#[test]
fn the_generated_templates_cover_the_subset() {
    let texts: Vec<String> = generated::TEMPLATES
        .iter()
        .map(|(name, _)| std::fs::read_to_string(prompts().join(name)).expect("generated"))
        .collect();
    let all = texts.concat();
    for construct in [
        "{% for x in xs",
        "for tool in tools",
        "for e in js",
        "m.items()",
        "{% elif",
        "include",
        "loop.",
        "| default(",
        "user.",
        " if flag else ",
        "['name']",
        "xs[",
        "{% set v",
        " filter ",
        "endfilter",
        "endset",
        "endwith",
        "namespace(",
        "{% set ns.",
        "{{ m(",
        "{% set d = {",
    ] {
        assert!(all.contains(construct), "no template uses {construct}");
    }
    // Rarer draws: most of them in the default set (another seed's set, drawn to look
    // for differences, may draw fewer; the list says which it has).
    let rarer = [
        "selectattr(",
        "for pair in",
        "for a, b in",
        "| dictsort",
        "loop.previtem",
        "loop.nextitem",
        "j.",
    ];
    let drawn: Vec<&str> = rarer.into_iter().filter(|c| all.contains(*c)).collect();
    if generated::DEFAULT_SET {
        assert!(
            drawn.len() >= 4,
            "too few templates use {rarer:?}: {drawn:?}"
        );
    } else {
        eprintln!("the rarer constructs this set draws: {drawn:?}");
    }
    // The filters and operations the compiled render leaves to the run-time renderer's
    // implementation.
    let applied = [
        "| title",
        "| capitalize",
        "| replace(",
        "| first",
        "| last",
        "| sort",
        " + ",
        " ~ ",
        ".upper()",
        "range(",
        "loop.cycle(",
        " is odd",
        "[s, n]",
        ".split(",
        "{'a': s",
        "| format(",
        "' % (",
        "| groupby(",
    ];
    assert!(
        applied.iter().filter(|f| all.contains(*f)).count() >= 4,
        "too few templates use {applied:?}"
    );
    let safe = generated::TEMPLATES.iter().filter(|(_, s)| *s).count();
    assert!(
        safe * 4 >= generated::TEMPLATES.len(),
        "{safe} minijinja-safe"
    );
    // Most renders succeed, so the comparisons above compare text, not two errors.
    let pool = Pool {
        s: "a".into(),
        t: "b".into(),
        n: 2,
        flag: true,
        f: 0.5,
        o: Some("o".into()),
        xs: vec!["a".into(), "b".into()],
        user: User {
            name: "Ada".into(),
            nick: None,
        },
        tools: vec![Tool {
            name: "search".into(),
            slow: true,
            cost: Some(2),
        }],
        m: BTreeMap::from([("k1".into(), 3)]),
        j: serde_json::json!({"a": "A", "list": [1, "x", null], "nested": {"k": 2.5, "w": true}}),
        js: vec![serde_json::json!({"name": "a", "on": true, "k": {"z": 1}})],
    };
    let json = pool.json();
    let rendered = (0..generated::TEMPLATES.len())
        .filter(|&i| {
            let (compiled, derived) = generated::render(i, &pool);
            let runtime = loaded()[i].render(generated::TEMPLATES[i].0, &json);
            compiled.is_some() && derived.is_ok() && runtime.is_ok()
        })
        .count();
    assert!(
        rendered * 10 >= generated::TEMPLATES.len() * 9,
        "only {rendered} of {} rendered",
        generated::TEMPLATES.len()
    );
}
