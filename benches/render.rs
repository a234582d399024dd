//! How fast is `#[derive(Prompt)]`'s `render` next to the fastest code one could write by
//! hand for the same prompt, and next to two template engines?
//!
//! The prompt is `prompts/weekly_review.md`: about 3 KB of text, 15 substitutions (7
//! context fields, identity keys including an uppercase-first variant, and the
//! `daily_preamble` template, itself with 7 substitutions). Ways to render it:
//!
//! - `limit`: the true limit. Every value arrives as a plain `&str` field (no lookups at
//!   all), the text pieces are written out below, the exact length is summed, then one
//!   allocation and one `push_str` per piece;
//! - `derive`: the generated `WeeklyReview::render`, which takes the identity values from
//!   an `Identity`;
//! - `hand_written_slots`: the identity values taken from the `Identity` by slot, as the
//!   derive takes them (`KeySlots`), then `limit`: the fastest hand-written code with the
//!   derive's signature;
//! - `hand_written`: the same with each identity value looked up by name
//!   (`Identity::get`, a `HashMap` lookup), as code written without slots would;
//! - `askama`: an askama template of the same text (`jinja/weekly_review.txt`) over the
//!   same `&str` fields, compiled to Rust at build time: an external anchor;
//! - `format`: `format!` over the same pieces and values, for reference;
//! - `runtime`: the prompt loaded and checked at run time (once, outside the timing),
//!   rendered from a `HashMap` of values;
//! - `minijinja`: the same Jinja template loaded once by minijinja and rendered from a
//!   context built once: the external anchor for `runtime`.
//!
//! All of them are checked to produce the same bytes before anything is timed.
//!
//! The prompt and the hand-written renderers are in `weekly_review.rs`.

mod layouts;
mod weekly_review;

use askama::Template;
use criterion::{Criterion, criterion_group, criterion_main};
use layouts::Layouts;
use promptic::Identity;
use std::hint::black_box;
use weekly_review::{
    CONTEXT, IDENTITY_KEYS, Values, hand_written, hand_written_slots, limit, run_time, with_format,
};

fn render(criterion: &mut Criterion) {
    let identity = Identity::from_json(include_str!("../prompts/promptic.json"))
        .expect("prompts/promptic.json is a valid identity");
    let context = CONTEXT;
    let fields = Values::handed(&context, &identity);

    // The run-time path: open and check once, render many times.
    let (checked, values) = run_time(&context);

    // minijinja: the template loaded and its context built once, outside the timing.
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env.add_template("weekly_review", include_str!("jinja/weekly_review.txt"))
        .expect("the Jinja template parses");
    let jinja = env
        .get_template("weekly_review")
        .expect("the template was added");
    let jinja_context = minijinja::context! {
        day => fields.day,
        week_start => fields.week_start,
        week_end => fields.week_end,
        highlights => fields.highlights,
        open_loops => fields.open_loops,
        mood_trend => fields.mood_trend,
        focus_hours => fields.focus_hours,
        preferred => fields.preferred,
        preferred_upper => fields.preferred_upper,
        pronouns_reflexive => fields.pronouns_reflexive,
        pronouns_possessive => fields.pronouns_possessive,
        pronouns_possessive_upper => fields.pronouns_possessive_upper,
        timezone => fields.timezone,
    };

    // Same bytes from every one, or the comparison means nothing.
    let derived = context.render(&identity).text;
    assert_eq!(derived, limit(&fields), "limit");
    assert_eq!(derived, hand_written(&context, &identity), "hand-written");
    assert_eq!(
        derived,
        hand_written_slots(&context, &identity),
        "hand-written, slots"
    );
    assert_eq!(derived, fields.render().expect("askama renders"), "askama");
    assert_eq!(derived, with_format(&fields), "format!");
    let runtime = checked.render(&values, &identity).expect("renders").text;
    assert_eq!(derived, runtime, "runtime");
    let jinja_text = jinja.render(&jinja_context).expect("minijinja renders");
    assert_eq!(derived, jinja_text, "minijinja");
    assert_eq!(
        derived.len(),
        derived.capacity(),
        "derive allocates exactly"
    );

    let mut group = criterion.benchmark_group("weekly_review (3 KB, 15 substitutions)");
    group.bench_function("limit", |b| b.iter(|| limit(black_box(&fields))));
    group.bench_function("derive", |b| {
        b.iter(|| black_box(&context).render(black_box(&identity)))
    });
    group.bench_function("hand_written", |b| {
        b.iter(|| hand_written(black_box(&context), black_box(&identity)))
    });
    group.bench_function("hand_written_slots", |b| {
        b.iter(|| hand_written_slots(black_box(&context), black_box(&identity)))
    });
    // What the derive adds to the limit, alone: its six identity values by slot.
    group.bench_function("identity_lookups", |b| {
        b.iter(|| {
            let values = IDENTITY_KEYS.values(black_box(&identity));
            values.iter().map(|v| v.len()).sum::<usize>()
        })
    });
    group.bench_function("askama", |b| b.iter(|| black_box(&fields).render()));
    group.bench_function("format", |b| b.iter(|| with_format(black_box(&fields))));
    group.bench_function("runtime", |b| {
        b.iter(|| checked.render(black_box(&values), black_box(&identity)))
    });
    group.bench_function("minijinja", |b| {
        b.iter(|| jinja.render(black_box(&jinja_context)))
    });
    group.finish();
}

/// The main ways again, each over the same [`layouts::COUNT`] memory layouts (see
/// `layouts.rs`): the mean over placements, where `render` times one placement per way.
fn render_over_layouts(criterion: &mut Criterion) {
    let layouts = Layouts::new(&CONTEXT, include_str!("../prompts/promptic.json"));
    let contexts = layouts.contexts();
    let fields = layouts.fields(&contexts);
    let (checked, _) = run_time(&CONTEXT);
    let identity = |k: usize| &layouts.owned[k].identity;

    // Every way, every layout: the same bytes.
    layouts.assert_every_way_agrees(&contexts, &fields, &checked);

    let mut group =
        criterion.benchmark_group(format!("weekly_review over {} layouts", layouts::COUNT));
    group.bench_function("limit", |b| {
        b.iter_custom(|n| layouts.time(n, |k| limit(black_box(&fields[k]))))
    });
    group.bench_function("derive", |b| {
        b.iter_custom(|n| {
            layouts.time(n, |k| {
                black_box(&contexts[k]).render(black_box(identity(k)))
            })
        })
    });
    group.bench_function("hand_written_slots", |b| {
        b.iter_custom(|n| {
            layouts.time(n, |k| {
                hand_written_slots(black_box(&contexts[k]), black_box(identity(k)))
            })
        })
    });
    group.bench_function("askama", |b| {
        b.iter_custom(|n| layouts.time(n, |k| black_box(&fields[k]).render()))
    });
    group.bench_function("runtime", |b| {
        b.iter_custom(|n| {
            layouts.time(n, |k| {
                checked.render(black_box(&layouts.owned[k].values), black_box(identity(k)))
            })
        })
    });
    group.finish();
}

criterion_group!(benches, render, render_over_layouts);
criterion_main!(benches);
