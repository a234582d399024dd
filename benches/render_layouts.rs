//! The main ways of rendering against the limit, layout by layout (see `layouts.rs`): in
//! each of the [`layouts::COUNT`] layouts the ways run in turn, a round of N renders each,
//! and each way's best of R rounds counts, so that a burst of other work on the machine
//! lands on one round of every way rather than on one way, as it can when criterion times
//! each way for seconds, one after the other.
//!
//! ```sh
//! cargo run --release -p promptic-benches --example render_layouts -- 20000 15
//! ```
//!
//! Prints each layout's times (ns per render) and ratios to the limit, then each way's
//! median ratio over the layouts.

// Shared with `render.rs`, which uses all of them; this example needs a few.
#[allow(dead_code)]
mod layouts;
#[allow(dead_code)]
mod weekly_review;

use askama::Template;
use std::hint::black_box;
use std::time::Instant;
use weekly_review::{CONTEXT, hand_written_slots, limit, run_time};

const WAYS: [&str; 5] = ["limit", "derive", "slots", "askama", "runtime"];

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let rounds: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(15);
    let layouts = layouts::Layouts::new(&CONTEXT, include_str!("../prompts/promptic.json"));
    let contexts = layouts.contexts();
    let fields = layouts.fields(&contexts);
    let (checked, _) = run_time(&CONTEXT);
    let identity = |k: usize| &layouts.owned[k].identity;
    let values = |k: usize| &layouts.owned[k].values;
    layouts.assert_every_way_agrees(&contexts, &fields, &checked);

    // ns per render over one round of `n`.
    let round = |render: &dyn Fn()| {
        let start = Instant::now();
        for _ in 0..n {
            render();
        }
        start.elapsed().as_nanos() as f64 / f64::from(n)
    };
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); WAYS.len()];
    println!("layout {}", WAYS.map(|w| format!("{w:>8}")).join(""));
    for k in 0..layouts::COUNT {
        let ways: [&dyn Fn(); 5] = [
            &|| drop(black_box(limit(black_box(&fields[k])))),
            &|| {
                drop(black_box(
                    black_box(&contexts[k]).render(black_box(identity(k))),
                ))
            },
            &|| {
                drop(black_box(hand_written_slots(
                    black_box(&contexts[k]),
                    black_box(identity(k)),
                )))
            },
            &|| drop(black_box(black_box(&fields[k]).render())),
            &|| {
                drop(black_box(
                    checked.render(black_box(values(k)), black_box(identity(k))),
                ))
            },
        ];
        let mut best = [f64::MAX; WAYS.len()];
        for _ in 0..rounds {
            for (b, way) in best.iter_mut().zip(ways) {
                *b = b.min(round(way));
            }
        }
        let line: String = best.iter().map(|t| format!("{t:8.1}")).collect();
        let shown: String = best[1..]
            .iter()
            .zip(&WAYS[1..])
            .map(|(t, w)| format!("  {w}/limit {:.3}", t / best[0]))
            .collect();
        println!("{k:6} {line} {shown}");
        for (r, t) in ratios.iter_mut().zip(best) {
            r.push(t / best[0]);
        }
    }
    print!("median over {} layouts:", layouts::COUNT);
    for (way, r) in WAYS.iter().zip(&mut ratios).skip(1) {
        r.sort_by(f64::total_cmp);
        print!("  {way}/limit {:.3}", r[r.len() / 2]);
    }
    println!();
}
