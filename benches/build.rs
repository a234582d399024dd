//! Points `#[derive(Prompt)]` in the benches at the project's own `prompts/` folder, one
//! level up, rather than at a `prompts/` folder beside this crate's `Cargo.toml`: the
//! benches measure the project's prompts, so they read the same files, not copies.

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = std::path::Path::new(&manifest_dir)
        .parent()
        .expect("the bench crate lives inside the workspace");
    println!("cargo::rustc-env=PROMPTIC_MANIFEST_DIR={}", root.display());
    println!("cargo::rerun-if-changed=build.rs");
}
