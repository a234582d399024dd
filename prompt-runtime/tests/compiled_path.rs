//! Every Jinja and dotprompt prompt the repository derives takes the compiled path: the
//! code generator compiles its whole template set, so the derive's render is generated
//! Rust, not the run-time renderer behind it.

use promptic::formats::FrontEnd;
use promptic::formats::dotprompt::folder::Folder;
use promptic::load::{Project, Root};
use std::path::Path;

/// The folders whose prompts are derived in the repository's crates, examples and tests.
const FOLDERS: [&str; 3] = [
    "prompts",
    "tests/ui_jinja/prompts",
    "tests/ui_dotprompt/prompts",
];

/// A field for every name: what the derive gives when the struct has the field.
fn field(name: &str) -> Option<String> {
    Some(format!("self.{name}"))
}

#[test]
fn every_prompt_the_derive_reads_compiles() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut compiled = 0;
    let mut not = Vec::new();
    for folder in FOLDERS {
        let dir = repo.join(folder);
        let project = Project::open(&dir, folder).expect("the folder opens");
        for found in project.all_prompts().prompts {
            // The mistakes the UI tests make, which the derive refuses.
            if found.name.starts_with("errors/") {
                continue;
            }
            let code = match project.front_end(&found.name).ok().flatten() {
                Some((FrontEnd::Jinja, _)) => match project.load_jinja(&found.name) {
                    Ok((file, templates)) => {
                        promptic::formats::jinja::compiled::compile(&templates, &file, &field).ok()
                    }
                    // A broken prompt is a UI test's mistake, not a derived prompt.
                    Err(_) => continue,
                },
                Some((FrontEnd::Dotprompt, _)) => {
                    let Ok(folder) = Folder::open(Root::new(&dir, folder)) else {
                        continue;
                    };
                    match folder.load(&found.name) {
                        Ok(loaded) => {
                            promptic::formats::dotprompt::compiled::compile(&loaded.prompt, &field)
                                .ok()
                        }
                        Err(_) => continue,
                    }
                }
                _ => continue,
            };
            match code {
                Some(_) => compiled += 1,
                None => not.push(format!("{folder}/{}", found.file)),
            }
        }
    }
    assert!(compiled >= 20, "only {compiled} prompts were compiled");
    assert!(not.is_empty(), "not compiled: {not:?}");
}
