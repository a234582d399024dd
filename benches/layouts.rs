//! The same renders over many memory layouts, so that no way is timed at one lucky or
//! unlucky placement of its data.
//!
//! On this machine the time of one and the same function moves by up to a third with where
//! its values and its output land: `limit` over the identity values at three different
//! heap addresses timed 183, 210 and 230 ns in one process, and the same `limit` bench run
//! twice in one process 230 and 255 ns. Timed at a single placement, a ratio between two
//! ways is as much the placements' as the code's. Here every way is timed over the same
//! [`COUNT`] layouts in turn, each with its own copies of the values at addresses spread by
//! allocations of pseudo-random size (the same sizes for every way), and with its output
//! allocated behind a pad of pseudo-random size: criterion's time is the mean over the
//! layouts, and a ratio compares code with code.

use crate::weekly_review::{Values, WeeklyReview, context_values, hand_written_slots, limit};
use askama::Template;
use prompt_runtime::check::CheckedPrompt;
use promptic::Identity;
use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// How many layouts each way is timed over.
pub(crate) const COUNT: usize = 32;

/// A fixed-seed linear congruential generator (Knuth's MMIX constants): every run, and
/// every way, sees the same layouts.
struct Sizes(u64);

impl Sizes {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize % bound
    }
}

/// One layout's own copies of every value, each behind allocations of its own size.
pub(crate) struct Owned {
    /// Allocations kept only to move what follows them; never read.
    _spacers: Vec<Vec<u8>>,
    pub(crate) identity: Identity,
    context: [String; 7],
    /// The context's values by name, for the run-time renderer.
    pub(crate) values: HashMap<String, String>,
}

/// Every layout's data, and the pad each layout's output is allocated behind.
pub(crate) struct Layouts {
    pub(crate) owned: Vec<Owned>,
    pads: Vec<usize>,
}

impl Layouts {
    /// [`COUNT`] layouts of `context` and the identity in `identity_json`.
    pub(crate) fn new(context: &WeeklyReview<'_>, identity_json: &str) -> Self {
        let mut sizes = Sizes(0x5eed_1a40);
        let owned = (0..COUNT)
            .map(|_| {
                let mut spacers = vec![vec![1u8; 1 + sizes.below(4096)]];
                let identity =
                    Identity::from_json(identity_json).expect("the bench's identity is valid");
                let c = context;
                let context = [
                    c.day,
                    c.week_start,
                    c.week_end,
                    c.highlights,
                    c.open_loops,
                    c.mood_trend,
                    c.focus_hours,
                ]
                .map(|value| {
                    spacers.push(vec![1u8; 1 + sizes.below(256)]);
                    value.to_owned()
                });
                let values = context_values(c);
                Owned {
                    _spacers: spacers,
                    identity,
                    context,
                    values,
                }
            })
            .collect();
        let pads = (0..COUNT).map(|_| sizes.below(8192)).collect();
        Layouts { owned, pads }
    }

    /// Each layout's context, borrowing its own copies.
    pub(crate) fn contexts(&self) -> Vec<WeeklyReview<'_>> {
        self.owned
            .iter()
            .map(|o| {
                let [
                    day,
                    week_start,
                    week_end,
                    highlights,
                    open_loops,
                    mood_trend,
                    focus_hours,
                ] = &o.context;
                WeeklyReview {
                    day,
                    week_start,
                    week_end,
                    highlights,
                    open_loops,
                    mood_trend,
                    focus_hours,
                }
            })
            .collect()
    }

    /// Each layout's values as plain fields for `limit` and askama (`Values::handed`: the
    /// very bytes the derive copies).
    pub(crate) fn fields<'a>(&'a self, contexts: &[WeeklyReview<'a>]) -> Vec<Values<'a>> {
        self.owned
            .iter()
            .zip(contexts)
            .map(|(o, c)| Values::handed(c, &o.identity))
            .collect()
    }

    /// Asserts that every way gives the same bytes in every layout: the derive, `limit`
    /// and askama over `fields`, `hand_written_slots`, and `checked` (the run-time
    /// renderer) over each layout's values.
    pub(crate) fn assert_every_way_agrees(
        &self,
        contexts: &[WeeklyReview<'_>],
        fields: &[Values<'_>],
        checked: &CheckedPrompt,
    ) {
        for (k, owned) in self.owned.iter().enumerate() {
            let derived = contexts[k].render(&owned.identity).text;
            assert_eq!(derived, limit(&fields[k]), "limit, layout {k}");
            assert_eq!(
                derived,
                hand_written_slots(&contexts[k], &owned.identity),
                "hand-written, slots, layout {k}"
            );
            assert_eq!(
                derived,
                fields[k].render().expect("askama renders"),
                "askama, layout {k}"
            );
            let runtime = checked
                .render(&owned.values, &owned.identity)
                .expect("renders")
                .text;
            assert_eq!(derived, runtime, "runtime, layout {k}");
        }
    }

    /// Times `iters` renders spread evenly over the layouts: `render(k)` renders layout `k`,
    /// and what it returns is dropped inside the timing, as a caller's would be.
    pub(crate) fn time<T>(&self, iters: u64, mut render: impl FnMut(usize) -> T) -> Duration {
        let count = self.pads.len() as u64;
        let mut total = Duration::ZERO;
        for (k, &pad) in self.pads.iter().enumerate() {
            let n = iters / count + u64::from((k as u64) < iters % count);
            let pad = black_box(vec![0u8; pad]);
            let start = Instant::now();
            for _ in 0..n {
                black_box(render(k));
            }
            total += start.elapsed();
            drop(pad);
        }
        total
    }
}
