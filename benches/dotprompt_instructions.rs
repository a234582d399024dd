//! Instructions per render of `prompts/checks/support_desk.prompt`, counted by callgrind:
//! deterministic where `dotprompt_render.rs`'s times are not. Runs one way N times:
//!
//! ```sh
//! cargo build --release -p promptic-benches --example dotprompt_instructions
//! for way in none derive hand_written runtime; do
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$way \
//!     target/release/examples/dotprompt_instructions $way 20000 2>&1 | grep Collected
//! done
//! ```
//!
//! `none` does the set-up alone; a way's instructions per render are its total less
//! `none`'s, over N. See `README.md` for the figures.

mod support_desk;

use std::hint::black_box;
use support_desk::{Setup, hand_written};

fn main() {
    let mut args = std::env::args().skip(1);
    let way = args.next().unwrap_or_else(|| "derive".to_owned());
    let n: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    let setup = Setup::new();
    let desk = setup.desk();
    let data = setup.data(&desk);
    // The three ways build the same value (checked once, outside the count's loop).
    let derived = desk.render_with_history(&setup.history).unwrap();
    assert!(desk.__promptic_compiled(&setup.history).is_some());
    assert_eq!(derived, setup.prompt.render(&data).unwrap());
    assert_eq!(
        derived,
        hand_written(&desk, &setup.history, &setup.metadata)
    );
    for _ in 0..n {
        match way.as_str() {
            "none" => {}
            "derive" => {
                black_box(
                    black_box(&desk)
                        .render_with_history(black_box(&setup.history))
                        .ok(),
                );
            }
            "hand_written" => {
                black_box(hand_written(
                    black_box(&desk),
                    &setup.history,
                    &setup.metadata,
                ));
            }
            "runtime" => {
                black_box(setup.prompt.render(black_box(&data)).ok());
            }
            other => panic!("unknown way `{other}`: none, derive, hand_written or runtime"),
        }
    }
}
