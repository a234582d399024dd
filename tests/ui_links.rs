//! Compile errors for links that lead out of the folder the derive reads, under trybuild.
//!
//! The links point at `/proc/self/environ`, which holds the build's environment: compiled
//! into a binary it would leak every variable of the build. They are made here, at run
//! time (Linux only: other systems have no such file), rather than kept in git, so that
//! nothing walking the repository follows them. The cases read `tests/ui_links/`, a
//! folder of their own: a refused template stops every prompt of its folder.

#[cfg(target_os = "linux")]
#[test]
fn ui_links() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui_links");
    for link in [
        "prompts/templates/environ.md",
        "stores/environ/system_rule.json",
    ] {
        let path = base.join(link);
        if path.symlink_metadata().is_err() {
            // The folder holds only the link, which git does not keep: a fresh checkout
            // lacks it.
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder).unwrap();
            }
            std::os::unix::fs::symlink("/proc/self/environ", &path).unwrap();
        }
    }
    // SAFETY: this test binary runs this one test; nothing else reads the environment.
    unsafe {
        std::env::set_var("PROMPTIC_MANIFEST_DIR", &base);
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui_links/fail/*.rs");
}
