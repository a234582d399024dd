//! How fast is the Jinja front end's run-time render next to minijinja on a LangAlpha-sized
//! template (`jinja/agent/`: about 13 KB rendered, three includes, two loops (one with a
//! loop filter), twelve guidance fences, LangAlpha's environment options)?
//!
//! Both load the templates once, outside the timing, and render from the same values;
//! they are checked to produce the same bytes first. The derive of a `.j2` prompt renders
//! through this run-time renderer (after converting its fields to JSON): there is no
//! generated Jinja render yet to time next to a hand-written builder.

use criterion::{Criterion, criterion_group, criterion_main};
use prompt_runtime::SourceFile;
use prompt_runtime::formats::jinja::{Options, Templates};
use std::hint::black_box;

const FILES: [(&str, &str); 4] = [
    ("system.md.j2", include_str!("jinja/agent/system.md.j2")),
    (
        "parts/method.md.j2",
        include_str!("jinja/agent/parts/method.md.j2"),
    ),
    (
        "parts/tools.md.j2",
        include_str!("jinja/agent/parts/tools.md.j2"),
    ),
    (
        "parts/profile.md.j2",
        include_str!("jinja/agent/parts/profile.md.j2"),
    ),
];

const LANGALPHA: Options = Options {
    trim_blocks: true,
    lstrip_blocks: true,
    keep_trailing_newline: true,
};

fn values() -> serde_json::Value {
    serde_json::json!({
        "date": "2026-03-02",
        "team": "the research desk",
        "guidance": "detailed",
        "tools": [
            {"name": "search", "kind": "web", "slow": true},
            {"name": "read", "kind": "file"},
            {"name": "quote", "kind": "market"},
            {"name": "chart", "kind": "plot", "slow": true},
            {"name": "note", "kind": "memory"},
        ],
        "profile": {"name": "Ada", "prefs": [
            {"key": "format", "value": "html"},
            {"key": "risk", "value": "low"},
            {"key": "style", "value": "value"},
            {"key": "tone", "value": "brief"},
        ]},
    })
}

fn jinja_render(criterion: &mut Criterion) {
    let templates = Templates::load("system.md.j2", LANGALPHA, &mut |name: &str| {
        let (_, text) = FILES.iter().find(|(n, _)| *n == name).ok_or(None)?;
        Ok(SourceFile::new(format!("jinja/agent/{name}"), *text))
    })
    .expect("the bench templates load");
    let values = values();

    let mut env = minijinja::Environment::new();
    env.set_syntax(
        minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .expect("the options are valid"),
    );
    for (name, text) in FILES {
        env.add_template(name, text)
            .expect("minijinja parses the bench templates");
    }
    let jinja = env.get_template("system.md.j2").expect("added");
    let jinja_values = to_minijinja(&values);

    let ours = templates.render("system.md.j2", &values).expect("renders");
    let theirs = jinja.render(&jinja_values).expect("minijinja renders");
    assert_eq!(ours, theirs, "the same bytes");
    assert!(ours.len() > 10_000, "LangAlpha-sized: {} bytes", ours.len());

    let mut group = criterion.benchmark_group(format!("jinja agent prompt ({} bytes)", ours.len()));
    group.bench_function("runtime", |b| {
        b.iter(|| templates.render("system.md.j2", black_box(&values)))
    });
    group.bench_function("minijinja", |b| {
        b.iter(|| jinja.render(black_box(&jinja_values)))
    });
    group.finish();
}

/// The same values as minijinja's own (its `serde` support is a feature the benches do
/// not build).
fn to_minijinja(value: &serde_json::Value) -> minijinja::Value {
    use serde_json::Value as J;
    match value {
        J::Null => minijinja::Value::from(()),
        J::Bool(b) => minijinja::Value::from(*b),
        J::Number(n) => n.as_i64().map_or_else(
            || minijinja::Value::from(n.as_f64().unwrap_or(0.0)),
            minijinja::Value::from,
        ),
        J::String(s) => minijinja::Value::from(s.as_str()),
        J::Array(items) => {
            minijinja::Value::from(items.iter().map(to_minijinja).collect::<Vec<_>>())
        }
        J::Object(map) => minijinja::Value::from(
            map.iter()
                .map(|(k, v)| (k.clone(), to_minijinja(v)))
                .collect::<std::collections::BTreeMap<_, _>>(),
        ),
    }
}

criterion_group!(benches, jinja_render);
criterion_main!(benches);
