//! The derive of Jinja prompts (`prompts/NAME.md.j2`): every compile error a Jinja user can
//! meet, and a passing case that renders LangAlpha-shaped templates through the derive and
//! through the run-time renderer and compares the bytes. The cases read `tests/ui_jinja/`,
//! a folder of their own with LangAlpha's Jinja options in its `promptic.json`.

#[test]
fn ui_jinja() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui_jinja");
    // SAFETY: this test binary runs this one test; nothing else reads the environment.
    unsafe {
        std::env::set_var("PROMPTIC_MANIFEST_DIR", &base);
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui_jinja/fail/*.rs");
    cases.pass("tests/ui_jinja/pass/*.rs");
}
