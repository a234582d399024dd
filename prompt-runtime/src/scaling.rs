//! Scaling tests' one measure: how much longer the work takes on ten times the input.
//!
//! Linear work takes about 10 times as long on 10 × N, quadratic work about 100 times.
//! A wall-clock threshold would flake on a loaded machine; a ratio of two runs made side
//! by side, each the fastest of a few, does not: a busy moment slows one run of several,
//! and both sizes meet the same machine. Tests assert a generous bound ([`LINEAR`]).

use std::time::{Duration, Instant};

/// The bound a linear (or n log n) ratio stays under: far above 10, far below the 100
/// of quadratic work.
pub(crate) const LINEAR: f64 = 30.0;

fn timed(work: &mut impl FnMut()) -> Duration {
    let start = Instant::now();
    work();
    start.elapsed()
}

/// How many times longer `large` (the work on 10 × N) takes than `small` (on N): each
/// run once to warm up, then the fastest of three of each, taken in turns.
pub(crate) fn ratio(mut small: impl FnMut(), mut large: impl FnMut()) -> f64 {
    small();
    large();
    let mut best_small = Duration::MAX;
    let mut best_large = Duration::MAX;
    for _ in 0..3 {
        best_small = best_small.min(timed(&mut small));
        best_large = best_large.min(timed(&mut large));
    }
    best_large.as_secs_f64() / best_small.as_secs_f64().max(1e-9)
}
