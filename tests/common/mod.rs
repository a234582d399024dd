//! Scratch crates that depend on this promptic by path, built with the real cargo.
//!
//! Every scratch crate shares one target directory under `CARGO_TARGET_TMPDIR`, so
//! promptic's dependencies (syn, serde, …) are compiled once, not once per test or per run.
//! Each crate is its own workspace and starts from this repository's `Cargo.lock`, so it
//! resolves to the same, already downloaded versions.

#![allow(dead_code)] // each test binary uses part of this module

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A crate written to `CARGO_TARGET_TMPDIR/scratch/<name>`.
pub struct Scratch {
    pub name: String,
    pub dir: PathBuf,
}

/// The result of one cargo command.
pub struct Run {
    pub success: bool,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Panics with both streams unless cargo succeeded.
    #[track_caller]
    pub fn ok(self) -> Run {
        assert!(self.success, "cargo failed:\n{self}");
        self
    }

    /// Panics with both streams unless cargo failed.
    #[track_caller]
    pub fn failed(self) -> Run {
        assert!(!self.success, "cargo should have failed:\n{self}");
        self
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--- stdout ---\n{}\n--- stderr ---\n{}",
            self.stdout, self.stderr
        )
    }
}

/// The target directory shared by every scratch crate and every run of these tests.
pub fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("scratch-target")
}

impl Scratch {
    /// A fresh crate named `name` (the folder is emptied first) with `files`, given as
    /// paths relative to the crate root. `Cargo.toml` and `Cargo.lock` are written here.
    pub fn new(name: &str, files: &[(&str, &str)]) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("scratch")
            .join(name);
        if dir.exists() {
            fs::remove_dir_all(&dir).expect("remove the old scratch crate");
        }
        fs::create_dir_all(&dir).expect("create the scratch crate");
        let repo = env!("CARGO_MANIFEST_DIR");
        let manifest = format!(
            "[package]\n\
             name = \"{name}\"\n\
             version = \"0.0.0\"\n\
             edition = \"2024\"\n\
             publish = false\n\
             \n\
             [dependencies]\n\
             promptic = {{ path = {repo:?} }}\n\
             \n\
             [workspace]\n"
        );
        let scratch = Scratch {
            name: name.to_owned(),
            dir,
        };
        scratch.write("Cargo.toml", &manifest);
        fs::copy(
            Path::new(repo).join("Cargo.lock"),
            scratch.dir.join("Cargo.lock"),
        )
        .expect("copy Cargo.lock");
        for (path, text) in files {
            scratch.write(path, text);
        }
        scratch
    }

    /// Writes (or overwrites) `path`, relative to the crate root.
    pub fn write(&self, path: &str, text: &str) {
        let path = self.dir.join(path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create a folder in the scratch crate");
        }
        fs::write(&path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }

    /// Runs `cargo <args>` in the crate, with the shared target directory.
    pub fn cargo(&self, args: &[&str]) -> Run {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output: Output = Command::new(cargo)
            .args(args)
            .arg("--target-dir")
            .arg(target_dir())
            .arg("--quiet")
            .current_dir(&self.dir)
            // Only promptic's own UI tests point the macro elsewhere.
            .env_remove("PROMPTIC_MANIFEST_DIR")
            // Plain diagnostics, whatever the terminal.
            .env("CARGO_TERM_COLOR", "never")
            .output()
            .expect("run cargo");
        Run {
            success: output.status.success(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}
