//! Instructions per render of the analyst prompt (`jinja_render.rs`'s second group),
//! counted by callgrind: deterministic where criterion's times are not. Runs one way N
//! times:
//!
//! ```sh
//! cargo build --release -p promptic-benches --example jinja_instructions
//! for way in none derive hand_written hand_written_tuned runtime; do
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$way \
//!     target/release/examples/jinja_instructions $way 20000 2>&1 | grep Collected
//! done
//! ```
//!
//! `none` does the set-up alone; a way's instructions per render are its total less
//! `none`'s, over N.

mod analyst;

use analyst::{analyst, analyst_values, hand_written, hand_written_tuned};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let way = args.next().unwrap_or_default();
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    const WAYS: [&str; 5] = [
        "none",
        "derive",
        "hand_written",
        "runtime",
        "hand_written_tuned",
    ];
    let Some(chosen) = WAYS.iter().position(|w| *w == way) else {
        eprintln!("unknown way `{way}`: one of {}", WAYS.join(", "));
        std::process::exit(2);
    };
    let prompt = analyst();
    let values = prompt_runtime::formats::jinja::Value::from(&analyst_values(&prompt));
    let derived = prompt.render().map(|c| c.text);
    let by_hand = hand_written(&prompt);
    assert_eq!(
        derived.as_deref().ok(),
        Some(by_hand.as_str()),
        "the same bytes"
    );
    assert_eq!(hand_written_tuned(&prompt), by_hand, "the same bytes");
    let templates = prompt_runtime::formats::jinja::Templates::load(
        analyst::ANALYST_FILES[0].0,
        prompt_runtime::formats::jinja::Options {
            trim_blocks: true,
            lstrip_blocks: true,
            keep_trailing_newline: true,
        },
        &mut |name: &str| {
            let (_, text) = analyst::ANALYST_FILES
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or(None)?;
            Ok(prompt_runtime::SourceFile::new(
                format!("prompts/{name}"),
                *text,
            ))
        },
    )
    .expect("the analyst templates load");
    let mut total = 0usize;
    for _ in 0..n {
        total += match chosen {
            0 => 0,
            1 => black_box(&prompt).render().map_or(0, |c| c.text.len()),
            2 => hand_written(black_box(&prompt)).len(),
            4 => hand_written_tuned(black_box(&prompt)).len(),
            _ => templates
                .render(analyst::ANALYST_FILES[0].0, black_box(&values))
                .map_or(0, |t| t.len()),
        };
    }
    println!("{total} bytes rendered");
}
