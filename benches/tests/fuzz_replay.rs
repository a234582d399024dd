//! Replays the fuzz targets' inputs on stable, through the same functions the cargo-fuzz
//! targets call (`fuzz/src/*.rs`, included by path): the targets keep compiling, and a
//! crash once fixed stays fixed.
//!
//! Replayed for each target: the seed corpus (`fuzz/corpus/TARGET/seed-*`, committed) and
//! the regressions (`fuzz/regressions/TARGET/*`, inputs that once crashed). With
//! `PROMPTKIT_FUZZ_REPLAY_ALL=1`, also everything a local fuzzing run left in
//! `fuzz/corpus/TARGET/` and `fuzz/artifacts/TARGET/`.

#[path = "../../fuzz/src/identity_json.rs"]
mod identity_json;
#[path = "../../fuzz/src/pipeline.rs"]
mod pipeline;
#[path = "../../fuzz/src/safe_substitute.rs"]
mod safe_substitute;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Regressions that still crash, until the fix named lands: each is replayed and must
/// still panic, so that the day it passes this test says to move it out of this list
/// (and from then on it must pass).
const PENDING: &[(&str, &str)] = &[(
    "pipeline/referenced_names_directive_close_overlaps_open",
    "`Hello $day` then a line `{%}`: `check::referenced_names` slices `text[i + 2..end]` \
     with `end` before `i + 2` (issue 7, being fixed in the core)",
)];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files of `dir` (none when it does not exist), sorted, those `keep` accepts.
fn files(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a corpus entry").path())
        .filter(|p| p.is_file())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
        .collect();
    files.sort();
    files
}

fn replay(target: &str, run: fn(&[u8])) {
    let fuzz = fuzz_dir();
    let all = std::env::var_os("PROMPTKIT_FUZZ_REPLAY_ALL").is_some_and(|v| v == "1");
    let mut inputs = files(&fuzz.join("corpus").join(target), |name| {
        all || name.starts_with("seed-")
    });
    assert!(
        !inputs.is_empty(),
        "no seeds in fuzz/corpus/{target}/ (seed-*)"
    );
    inputs.extend(files(&fuzz.join("regressions").join(target), |_| true));
    if all {
        inputs.extend(files(&fuzz.join("artifacts").join(target), |_| true));
    }

    let mut failures = Vec::new();
    for path in &inputs {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let pending = PENDING
            .iter()
            .find(|(id, _)| *id == format!("{target}/{name}"));
        let crashed = catch_unwind(AssertUnwindSafe(|| run(&data))).is_err();
        match (pending, crashed) {
            (None, true) => failures.push(format!("{} crashes", path.display())),
            (Some((_, why)), false) => failures.push(format!(
                "{} no longer crashes ({why}): remove it from PENDING in {} so that it stays fixed",
                path.display(),
                file!()
            )),
            (Some(_), true) | (None, false) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} inputs of `{target}`:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
}

#[test]
fn identity_json() {
    replay("identity_json", identity_json::run);
}

#[test]
fn safe_substitute() {
    replay("safe_substitute", safe_substitute::run);
}

#[test]
fn pipeline() {
    replay("pipeline", pipeline::run);
}

#[test]
fn every_pending_regression_is_a_file() {
    for (id, _) in PENDING {
        let path = fuzz_dir().join("regressions").join(id);
        assert!(
            path.is_file(),
            "{} is listed in PENDING but missing",
            path.display()
        );
    }
}
