//! Does checking a prompt cost time in proportion to its size?
//!
//! `check` (parse, resolve, metadata) on generated in-memory prompts, each at a size N and
//! at 10 × N. Linear work takes about 10 times as long at 10 × N; quadratic work about 100
//! times. The shapes:
//!
//! - `placeholders/N`: one prompt with N placeholders, ten to a line, over ten context
//!   fields and two identity keys;
//! - `template_chain/N`: a prompt that uses template `t0`, which uses `t1`, … down to
//!   `t{N-1}`, each template one line long; N is at most `resolve::MAX_DEPTH` (100);
//! - `template_chain_refused/N`: the same chain 1,000 and 10,000 deep, which `check`
//!   refuses (too deep): the error must come in bounded time, without overflowing the
//!   stack.
//!
//! `infer_context` (the context read off a prompt without a typed one, as the CLI and
//! `prompt!` do before checking) is timed on the same prompts. Each prompt is checked
//! once before it is timed, and must pass (or, too deep, be refused).

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use prompt_runtime::check::{check, infer_context};
use prompt_runtime::load::PromptFile;
use prompt_runtime::resolve::{ContextVar, MAX_DEPTH, Schema, Templates, VarKind};
use std::fmt::Write;
use std::hint::black_box;

/// The placeholder counts: N and 10 × N.
const PLACEHOLDERS: [usize; 2] = [1_000, 10_000];
/// The chain depths: N and 10 × N, the deepest that `resolve::MAX_DEPTH` allows.
const CHAIN: [usize; 2] = [MAX_DEPTH / 10, MAX_DEPTH];
/// Chains too deep to check: refused with an error, in bounded time and stack.
const TOO_DEEP: [usize; 2] = [1_000, 10_000];

const FIELDS: usize = 10;

fn schema() -> Schema {
    Schema {
        context: (0..FIELDS)
            .map(|i| ContextVar::new(format!("field_{i}"), VarKind::Text))
            .collect(),
        identity: vec!["preferred".into(), "timezone".into()],
        ..Schema::default()
    }
}

/// A prompt with `n` placeholders, ten to a line: context fields (some uppercase-first),
/// identity keys and a `$$` now and then, between words.
fn placeholders(n: usize) -> PromptFile {
    let mut text = String::from("{\n\"title\": \"Many placeholders\"\n}\n");
    for i in 0..n {
        let name = match i % 12 {
            10 => "preferred".to_owned(),
            11 => "Preferred".to_owned(),
            k if i % 7 == 0 => format!("Field_{k}"),
            k => format!("field_{k}"),
        };
        let sep = if i % 10 == 9 { "\n" } else { " " };
        write!(text, "word {i} ${name}, costs $$5{sep}").expect("writing to a String");
    }
    PromptFile::from_text("prompts/many.md", &text).expect("the prompt loads")
}

/// Templates `t0` … `t{depth-1}`, each using the next, the last a context field; and a
/// prompt that uses `t0`.
fn chain(depth: usize) -> (PromptFile, Templates) {
    let mut templates = Templates::new();
    for i in 0..depth {
        let next = if i + 1 == depth {
            "$field_0".to_owned()
        } else {
            format!("$t{}", i + 1)
        };
        let text = format!("Level {i} with $preferred, then {next}.");
        let file = PromptFile::from_text(&format!("prompts/templates/t{i}.md"), &text)
            .expect("the template loads");
        templates.insert(format!("t{i}"), file);
    }
    let prompt = PromptFile::from_text("prompts/chain.md", "Start: $t0").expect("the prompt loads");
    (prompt, templates)
}

fn scaling(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("check");
    // Ten samples: a quadratic checker would take seconds per check at the largest sizes.
    group.sample_size(10);

    for n in PLACEHOLDERS {
        let file = placeholders(n);
        let templates = Templates::new();
        if let Err(e) = check("many", file.clone(), schema(), &templates) {
            panic!("the generated prompt checks: {e}");
        }
        group.bench_with_input(BenchmarkId::new("placeholders", n), &file, |b, file| {
            b.iter_batched(
                || (file.clone(), schema()),
                |(file, schema)| check("many", file, schema, black_box(&templates)),
                BatchSize::LargeInput,
            )
        });
    }

    for depth in CHAIN {
        let (file, templates) = chain(depth);
        if let Err(e) = check("chain", file.clone(), schema(), &templates) {
            panic!("the generated chain checks: {e}");
        }
        group.bench_with_input(
            BenchmarkId::new("template_chain", depth),
            &file,
            |b, file| {
                b.iter_batched(
                    || (file.clone(), schema()),
                    |(file, schema)| check("chain", file, schema, black_box(&templates)),
                    BatchSize::LargeInput,
                )
            },
        );
    }
    for depth in TOO_DEEP {
        let (file, templates) = chain(depth);
        assert!(
            check("chain", file.clone(), schema(), &templates).is_err(),
            "a chain {depth} deep is refused"
        );
        group.bench_with_input(
            BenchmarkId::new("template_chain_refused", depth),
            &file,
            |b, file| {
                b.iter_batched(
                    || (file.clone(), schema()),
                    |(file, schema)| check("chain", file, schema, black_box(&templates)),
                    BatchSize::LargeInput,
                )
            },
        );
    }
    group.finish();

    // What the CLI and `prompt!` run before `check`: names read off the prompt, templates
    // followed.
    let mut group = criterion.benchmark_group("infer_context");
    group.sample_size(10);
    let identity = schema().identity;
    for n in PLACEHOLDERS {
        let file = placeholders(n);
        let templates = Templates::new();
        group.bench_with_input(BenchmarkId::new("placeholders", n), &file, |b, file| {
            b.iter(|| infer_context(black_box(file), &identity, &[], &templates))
        });
    }
    for depth in CHAIN {
        let (file, templates) = chain(depth);
        group.bench_with_input(
            BenchmarkId::new("template_chain", depth),
            &file,
            |b, file| b.iter(|| infer_context(black_box(file), &identity, &[], &templates)),
        );
    }
    group.finish();
}

criterion_group!(benches, scaling);
criterion_main!(benches);
