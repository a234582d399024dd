//! What the derive builds: the proc macro links the runtime alone, with no feature, and
//! nothing that writes a store, locks a folder, reads a zip archive or reloads a prompt.
//! Asked of cargo itself (`cargo tree`), so a dependency or feature added to the macro's
//! side later fails here, not only in a build-time measurement.

use std::process::Command;

/// The packages the macro's build links (normal and build dependencies), each as
/// `name|features`, every one once.
fn macro_dependencies() -> Vec<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "tree",
            "-p",
            "prompt-macros",
            "-e",
            "normal,build",
            "--prefix",
            "none",
            "--format",
            "{p}|{f}",
        ])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.replace(" (*)", ""))
        .collect();
    lines.sort();
    lines.dedup();
    lines
}

#[test]
fn the_derive_links_the_runtime_alone_without_features() {
    let deps = macro_dependencies();
    let runtime: Vec<&String> = deps
        .iter()
        .filter(|l| l.starts_with("prompt-runtime "))
        .collect();
    assert_eq!(runtime.len(), 1, "{deps:#?}");
    assert!(
        runtime[0].ends_with('|'),
        "the derive's runtime has features: {}",
        runtime[0]
    );
    for name in ["prompt-store ", "zip ", "flate2 ", "promptic "] {
        assert!(
            !deps.iter().any(|l| l.starts_with(name)),
            "the derive links {name}: {deps:#?}"
        );
    }
}
