//! `build_system_prompt` of a 30-prompt store, against the same text assembled by hand
//! and against a minimal Python-style `str.replace` loop over `{{key}}` (what PromptEngine
//! does for each prompt: replace every registry key's `{{key}}`, then tidy).

use criterion::{Criterion, criterion_group, criterion_main};
use promptic::store::{Defaults, Store};
use std::hint::black_box;

const KEYS: [&str; 6] = [
    "char_name",
    "user_name",
    "persona_type",
    "language",
    "current_date",
    "mood",
];
const VALUES: [&str; 6] = [
    "Luna",
    "Alex",
    "companion",
    "English",
    "Friday, 24 January 2026",
    "warm",
];

/// Prompt `i`'s text: about 300 bytes, three placeholders.
fn text(i: usize) -> String {
    let (a, b, c) = (KEYS[i % 6], KEYS[(i + 2) % 6], KEYS[(i + 4) % 6]);
    format!(
        "Rule {i}. You are {{{{{a}}}}} and you speak with care. Keep the conversation going and \
         answer what was asked, no more. When {{{{{b}}}}} comes up, say so plainly; never pretend. \
         Stay consistent with what you said before, and when in doubt about {{{{{c}}}}}, ask \
         one short question instead of guessing what the person meant."
    )
}

/// A store of `n` prompts in memory, defaults only.
fn store(n: usize) -> Store {
    let mut manifest = String::from("{\"prompts\": {");
    let mut domains = Vec::new();
    for i in 0..n {
        if i > 0 {
            manifest.push(',');
        }
        manifest.push_str(&format!(
            "\"p{i}\": {{\"domain\": \"p{i}\", \"order\": {}}}",
            n - i
        ));
        let body = serde_json::to_string(&text(i)).unwrap();
        domains.push((
            format!("p{i}.json"),
            format!("{{\"variants\": {{\"default\": {{\"text\": {body}}}}}}}"),
        ));
    }
    manifest.push_str("}}");
    let mut registry = String::from("{\"placeholders\": {");
    for (i, k) in KEYS.iter().enumerate() {
        let phase = if i < 4 {
            "static"
        } else if i == 4 {
            "computed"
        } else {
            "runtime"
        };
        registry.push_str(&format!(
            "{}\"{k}\": {{\"type\": \"{phase}\"}}",
            if i > 0 { "," } else { "" }
        ));
    }
    registry.push_str("}}");
    let mut files: Vec<(&str, &[u8])> = vec![
        ("_meta/prompt_manifest.json", manifest.as_bytes()),
        ("_meta/placeholder_registry.json", registry.as_bytes()),
    ];
    files.extend(domains.iter().map(|(p, t)| (p.as_str(), t.as_bytes())));
    let defaults = Defaults::from_files("bench", &files).unwrap();
    let mut builder = Store::builder(defaults);
    for i in 0..4 {
        builder = builder.static_value(KEYS[i], VALUES[i]);
    }
    builder
        .computed("current_date", || VALUES[4].to_owned())
        .open()
        .unwrap()
}

/// The limit: the same parts pushed in order into one string of the right capacity.
fn by_hand(
    parts: &[Vec<(&'static str, Option<usize>)>],
    capacity: usize,
    date: &str,
    mood: &str,
) -> String {
    let mut out = String::with_capacity(capacity);
    for (n, prompt) in parts.iter().enumerate() {
        if n > 0 {
            out.push_str("\n\n");
        }
        for (literal, key) in prompt {
            out.push_str(literal);
            match key {
                Some(4) => out.push_str(date),
                Some(5) => out.push_str(mood),
                Some(k) => out.push_str(VALUES[*k]),
                None => {}
            }
        }
    }
    out
}

/// PromptEngine's way: per prompt, `text.replace("{{key}}", value)` for every key, then
/// `re.sub(r"\n{3,}", "\n\n", t).strip()`, then join.
fn python_style(texts: &[String], values: &[(&str, String)]) -> String {
    let mut parts = Vec::new();
    for text in texts {
        let mut t = text.clone();
        for (k, v) in values {
            t = t.replace(&format!("{{{{{k}}}}}"), v);
        }
        while t.contains("\n\n\n") {
            t = t.replace("\n\n\n", "\n\n");
        }
        let t = t.trim().to_owned();
        if !t.is_empty() {
            parts.push(t);
        }
    }
    parts.join("\n\n")
}

fn bench(c: &mut Criterion) {
    let store = store(30);
    let runtime = [("mood", "warm")];
    let expected = store.build_system_prompt("default", &runtime).unwrap();

    // by order: p29 first
    let texts: Vec<String> = (0..30).rev().map(text).collect();
    let leaked: Vec<&'static str> = texts
        .iter()
        .map(|t| &*Box::leak(t.clone().into_boxed_str()))
        .collect();
    let parts: Vec<Vec<(&'static str, Option<usize>)>> = leaked
        .iter()
        .map(|t| {
            let mut out = Vec::new();
            let mut rest: &'static str = t;
            while let Some(at) = rest.find("{{") {
                let end = rest[at..].find("}}").unwrap() + at;
                let key = KEYS.iter().position(|k| *k == &rest[at + 2..end]).unwrap();
                out.push((&rest[..at], Some(key)));
                rest = &rest[end + 2..];
            }
            out.push((rest, None));
            out
        })
        .collect();
    assert_eq!(by_hand(&parts, expected.len(), VALUES[4], "warm"), expected);
    let values: Vec<(&str, String)> = KEYS
        .iter()
        .zip(VALUES)
        .map(|(k, v)| (*k, v.to_owned()))
        .collect();
    assert_eq!(python_style(&texts, &values), expected);

    let mut group = c.benchmark_group("store_system_prompt_30");
    group.bench_function("by_hand", |b| {
        b.iter(|| {
            by_hand(
                black_box(&parts),
                expected.len(),
                VALUES[4],
                black_box("warm"),
            )
        })
    });
    group.bench_function("store", |b| {
        b.iter(|| {
            store
                .build_system_prompt(black_box("default"), black_box(&runtime))
                .unwrap()
        })
    });
    group.bench_function("python_replace", |b| {
        b.iter(|| {
            let mut values = vec![];
            for (k, v) in KEYS.iter().zip(VALUES).take(4) {
                values.push((*k, v.to_owned()));
            }
            values.push(("current_date", VALUES[4].to_owned()));
            values.push(("mood", "warm".to_owned()));
            python_style(black_box(&texts), &values)
        })
    });
    group.finish();
}

/// `reorder_prompts` at N and 10 N prompts: each edit checks the whole store again and
/// writes every prompt's `order` into the user manifest, in one pass (linear: about 10
/// times the time at 10 N; written one order at a time, it would be quadratic).
fn reorder(c: &mut Criterion) {
    let mut group = c.benchmark_group("store_reorder");
    group.sample_size(10);
    for n in [200, 2000] {
        let store = store(n);
        let first = format!("p{}", n - 1);
        let last = "p0".to_owned();
        store.reorder_prompts(&[&last]).unwrap();
        let text = store
            .build_system_prompt("default", &[("mood", "warm")])
            .unwrap();
        assert!(text.starts_with("Rule 0."), "p0 comes first once reordered");
        group.bench_function(n.to_string(), |b| {
            let mut flip = false;
            b.iter(|| {
                flip = !flip;
                let id = if flip { &first } else { &last };
                store.reorder_prompts(&[id.as_str()]).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench, reorder);
criterion_main!(benches);
