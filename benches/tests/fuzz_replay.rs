//! Replays the fuzz targets' inputs on stable, through the same functions the cargo-fuzz
//! targets call (`fuzz/src/*.rs`, included by path): the targets keep compiling, and a
//! crash once fixed stays fixed.
//!
//! For each target, these must run without a panic: the seed corpus
//! (`fuzz/corpus/TARGET/seed-*`, committed) and the regressions (`fuzz/regressions/TARGET/`,
//! inputs that once crashed). With `PROMPTIC_FUZZ_REPLAY_ALL=1`, also everything a local
//! fuzzing run left in `fuzz/corpus/TARGET/` and `fuzz/artifacts/TARGET/`.
//!
//! `fuzz/pending/TARGET/` holds crashes not fixed yet: each must still panic,
//! so that the day one passes this test says to move it to `fuzz/regressions/TARGET/`.

#[path = "../../fuzz/src/chat_template.rs"]
mod chat_template;
#[path = "../../fuzz/src/dotprompt.rs"]
mod dotprompt;
#[path = "../../fuzz/src/identity_json.rs"]
mod identity_json;
#[path = "../../fuzz/src/jinja.rs"]
mod jinja;
#[path = "../../fuzz/src/keep_docs.rs"]
mod keep_docs;
#[path = "../../fuzz/src/pipeline.rs"]
mod pipeline;
#[path = "../../fuzz/src/safe_substitute.rs"]
mod safe_substitute;
#[path = "../../fuzz/src/store_archive.rs"]
mod store_archive;
#[path = "../../fuzz/src/store_folder.rs"]
mod store_folder;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

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
    let all = std::env::var_os("PROMPTIC_FUZZ_REPLAY_ALL").is_some_and(|v| v == "1");
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

    let pending = files(&fuzz.join("pending").join(target), |_| true);

    let crashes = |path: &Path| {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        catch_unwind(AssertUnwindSafe(|| run(&data))).is_err()
    };
    let mut failures: Vec<String> = inputs
        .iter()
        .filter(|path| crashes(path))
        .map(|path| format!("{} crashes", path.display()))
        .collect();
    failures.extend(pending.iter().filter(|path| !crashes(path)).map(|path| {
        format!(
            "{} no longer crashes: move it to fuzz/regressions/{target}/ so that it stays fixed",
            path.display()
        )
    }));
    assert!(
        failures.is_empty(),
        "{} of {} inputs of `{target}`:\n{}",
        failures.len(),
        inputs.len() + pending.len(),
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
fn chat_template() {
    replay("chat_template", chat_template::run);
}

#[test]
fn keep_docs() {
    replay("keep_docs", keep_docs::run);
}

#[test]
fn store_folder() {
    replay("store_folder", store_folder::run);
}

#[test]
fn store_archive() {
    replay("store_archive", store_archive::run);
}

#[test]
fn jinja() {
    replay("jinja", jinja::run);
}

#[test]
fn dotprompt() {
    replay("dotprompt", dotprompt::run);
}
