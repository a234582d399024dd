//! Passing cases that need the `hot-reload` feature: with it, the derive also implements
//! `ContextValues` (the fields as data, which hot reload renders with).
//!
//! As in `ui.rs`, the cases read their prompts from `tests/ui/prompts/`.

#[test]
fn ui_hot() {
    // SAFETY: this test binary runs this one test; nothing else reads the environment.
    unsafe {
        std::env::set_var(
            "PROMPTIC_MANIFEST_DIR",
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ui"),
        );
    }
    trybuild::TestCases::new().pass("tests/ui/pass_hot/*.rs");
}
