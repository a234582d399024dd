//! The derive of dotprompt prompts (`prompts/NAME.prompt`): every compile error a dotprompt
//! user can meet, and a passing case that renders through the derive and through the
//! run-time `Dotprompt::render` and compares the results. The cases read
//! `tests/ui_dotprompt/prompts/`.

#[test]
fn ui_dotprompt() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui_dotprompt");
    // SAFETY: this test binary runs this one test; nothing else reads the environment.
    unsafe {
        std::env::set_var("PROMPTKIT_MANIFEST_DIR", &base);
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui_dotprompt/fail/*.rs");
    cases.pass("tests/ui_dotprompt/pass/*.rs");
}
