//! Instructions per render, counted by callgrind: deterministic where `render.rs`'s times
//! are not (the same count on a busy machine as on an idle one). Runs one way of rendering
//! `weekly_review` N times:
//!
//! ```sh
//! cargo build --release -p promptic-benches --example render_instructions
//! for way in none limit derive slots by_name askama format runtime; do
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$way \
//!     target/release/examples/render_instructions $way 20000 2>&1 | grep Collected
//! done
//! ```
//!
//! `none` does the set-up alone; a way's instructions per render are its total less
//! `none`'s, over N. See `README.md` for the figures.

mod weekly_review;

use askama::Template;
use promptic::Identity;
use std::hint::black_box;
use weekly_review::{
    CONTEXT, Values, hand_written, hand_written_slots, limit, run_time, with_format,
};

fn main() {
    let identity = Identity::from_json(include_str!("../prompts/promptic.json"))
        .expect("prompts/promptic.json is a valid identity");
    let context = CONTEXT;
    let fields = Values::handed(&context, &identity);
    let mut args = std::env::args().skip(1);
    let way = args.next().unwrap_or_default();
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let (checked, values) = run_time(&context);
    const WAYS: [&str; 8] = [
        "none", "limit", "derive", "slots", "by_name", "askama", "format", "runtime",
    ];
    let Some(chosen) = WAYS.iter().position(|w| *w == way) else {
        eprintln!("unknown way `{way}`: one of {}", WAYS.join(", "));
        std::process::exit(2);
    };
    let mut total = 0usize;
    for _ in 0..n {
        total += match chosen {
            0 => 0,
            1 => limit(black_box(&fields)).len(),
            2 => black_box(&context).render(black_box(&identity)).text.len(),
            3 => hand_written_slots(black_box(&context), black_box(&identity)).len(),
            4 => hand_written(black_box(&context), black_box(&identity)).len(),
            5 => black_box(&fields).render().map_or(0, |t| t.len()),
            6 => with_format(black_box(&fields)).len(),
            _ => checked
                .render(black_box(&values), black_box(&identity))
                .map_or(0, |c| c.text.len()),
        };
    }
    println!("{total} bytes rendered");
}
