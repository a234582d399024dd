//! Compile errors a user can meet, and passing cases, under trybuild.
//!
//! The cases read their prompts from `tests/ui/prompts/`: trybuild builds them in a scratch
//! crate, so `PROMPTIC_MANIFEST_DIR` points the macro at `tests/ui`.

#[test]
fn ui() {
    // SAFETY: this test binary runs this one test; nothing else reads the environment.
    unsafe {
        std::env::set_var(
            "PROMPTIC_MANIFEST_DIR",
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ui"),
        );
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/fail/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
