//! The derive and `hand_written_slots` against the limit, layout by layout (see
//! `layouts.rs`): in each of the [`layouts::COUNT`] layouts the three ways run in turn, a
//! round of N renders each, and each way's best round of R counts, so that a burst of
//! other work on the machine lands on one round and not on one way.
//!
//! ```sh
//! cargo run --release -p promptkit-benches --example render_layouts -- 20000 15
//! ```
//!
//! Prints each layout's times and ratios, then the median ratio over the layouts.

// Shared with `render.rs`, which uses all of them; this example needs a few.
#[allow(dead_code)]
mod layouts;
#[allow(dead_code)]
mod weekly_review;

use std::hint::black_box;
use std::time::Instant;
use weekly_review::{CONTEXT, hand_written_slots, limit};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let rounds: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(15);
    let layouts = layouts::Layouts::new(&CONTEXT, include_str!("../prompts/promptkit.json"));
    let contexts = layouts.contexts();
    let fields = layouts.fields(&contexts);
    let identity = |k: usize| &layouts.owned[k].identity;
    for k in 0..layouts::COUNT {
        assert_eq!(
            contexts[k].render(identity(k)).text,
            limit(&fields[k]),
            "layout {k}"
        );
    }

    // ns per render of one round.
    let round = |render: &dyn Fn()| {
        let start = Instant::now();
        for _ in 0..n {
            render();
        }
        start.elapsed().as_nanos() as f64 / f64::from(n)
    };
    let mut ratios = (Vec::new(), Vec::new());
    println!("layout   limit  derive   slots  derive/limit  slots/limit");
    for k in 0..layouts::COUNT {
        let mut best = [f64::MAX; 3];
        for _ in 0..rounds {
            let times = [
                round(&|| drop(black_box(limit(black_box(&fields[k]))))),
                round(&|| {
                    drop(black_box(
                        black_box(&contexts[k]).render(black_box(identity(k))),
                    ))
                }),
                round(&|| {
                    drop(black_box(hand_written_slots(
                        black_box(&contexts[k]),
                        black_box(identity(k)),
                    )))
                }),
            ];
            for (b, t) in best.iter_mut().zip(times) {
                *b = b.min(t);
            }
        }
        let [l, d, s] = best;
        println!(
            "{k:6} {l:7.1} {d:7.1} {s:7.1}  {:12.3}  {:11.3}",
            d / l,
            s / l
        );
        ratios.0.push(d / l);
        ratios.1.push(s / l);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "median over {} layouts: derive/limit {:.3}, slots/limit {:.3}",
        layouts::COUNT,
        median(&mut ratios.0),
        median(&mut ratios.1)
    );
}
