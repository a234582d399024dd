//! A compile error the fixed `tests/ui` folder cannot hold: an identity in
//! `promptic.json` nested deeper than `identity::MAX_DEPTH` (64 levels) is one error at
//! the object that is too deep, in the derive as everywhere (never a stack overflow in
//! rustc, even at 50,000 levels). The cases read `tests/ui_deep/`, a folder of their own.
//!
//! And a prompts folder that is a PromptEngine store (`tests/ui_store/`): `#[derive(Prompt)]`
//! and `prompt!` say to derive `PromptStore` instead, one error each.

#[test]
fn ui_deep() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui_deep");
    // SAFETY: this test binary runs this one test; nothing else reads the environment.
    unsafe {
        std::env::set_var("PROMPTIC_MANIFEST_DIR", &base);
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui_deep/fail/*.rs");
    // Each set runs when it is dropped, with the folder set then.
    drop(cases);
    let store = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui_store");
    // SAFETY: as above.
    unsafe {
        std::env::set_var("PROMPTIC_MANIFEST_DIR", &store);
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui_store/fail/*.rs");
}
