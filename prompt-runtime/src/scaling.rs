//! Scaling tests' one measure: how much longer the work takes on ten times the input.
//!
//! Linear work takes about 10 times as long on 10 × N, quadratic work about 100 times.
//! A wall-clock threshold would flake on a loaded machine; a ratio of two runs made side
//! by side, each the fastest of a few and timed on the CPU where Linux tells it, does not:
//! a busy moment slows one run of several, and both sizes meet the same machine. A ratio
//! over the bound is measured again (up to three times): load passes, quadratic work
//! fails every time.

use std::time::{Duration, Instant};

/// The bound a linear (or n log n) ratio stays under: far above 10, far below the 100
/// of quadratic work.
pub(crate) const LINEAR: f64 = 30.0;

/// The time this thread has run on a CPU, where Linux tells it (`schedstat`'s first
/// field, in nanoseconds): on a loaded machine a run waits for a CPU for longer than it
/// runs, and the longer run of the two waits more often.
fn cpu_time() -> Option<Duration> {
    // The kernel brings a running thread's count up to date when it yields.
    std::thread::yield_now();
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    (nanos > 0).then(|| Duration::from_nanos(nanos))
}

/// How long `work` runs: on a CPU where that can be known, else by the clock.
fn timed(work: &mut impl FnMut()) -> Duration {
    let (start, clock) = (cpu_time(), Instant::now());
    work();
    match (start, cpu_time()) {
        (Some(start), Some(end)) => end.saturating_sub(start),
        _ => clock.elapsed(),
    }
}

/// How many times longer `large` (the work on 10 × N) takes than `small` (on N): the
/// fastest of five runs of each, taken in turns.
fn ratio(small: &mut impl FnMut(), large: &mut impl FnMut()) -> f64 {
    let mut best_small = Duration::MAX;
    let mut best_large = Duration::MAX;
    for _ in 0..5 {
        best_small = best_small.min(timed(small));
        best_large = best_large.min(timed(large));
    }
    best_large.as_secs_f64() / best_small.as_secs_f64().max(1e-9)
}

/// Asserts that `large`, the work of `small` on 10 × the input, takes less than
/// [`LINEAR`] × its time; `what` names the input in the message.
pub(crate) fn assert_linear(what: &str, mut small: impl FnMut(), mut large: impl FnMut()) {
    small();
    large();
    let mut seen = Vec::new();
    for _ in 0..3 {
        let r = ratio(&mut small, &mut large);
        if r < LINEAR {
            return;
        }
        seen.push(format!("{r:.1}"));
    }
    panic!(
        "10 × {what} took {} × the time (linear work stays under {LINEAR})",
        seen.join(", ")
    );
}
