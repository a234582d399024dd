//! Hot reload in development: a derived prompt re-read from its file while the program
//! runs, checked against the struct before it is used.
//!
//! `cargo run --example hot_reload --features hot-reload` edits a scratch copy of
//! `prompts/` once well and once badly, and shows what renders. With `-- --watch` it
//! watches this crate's own `prompts/segment_synthesis.md` instead: edit the file while it
//! runs (a typo, a new `$name`, a changed sentence) and see the new text or the
//! diagnostics; Ctrl-C to stop.

use promptic::Identity;
use promptic::hot::HotPrompt;
use std::path::{Path, PathBuf};

#[derive(promptic::Prompt)]
#[prompt("segment_synthesis")]
struct SegmentSynthesis<'a> {
    day: &'a str,
    segment_start: &'a str,
    segment_end: &'a str,
    note: Option<&'a str>,
}

const SEGMENT: SegmentSynthesis<'static> = SegmentSynthesis {
    day: "Friday, January 24, 2026",
    segment_start: "2:30 PM",
    segment_end: "2:35 PM",
    note: None,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let identity = Identity::from_json(include_str!("journal.json"))?;
    if std::env::args().any(|a| a == "--watch") {
        return watch(&identity);
    }
    let root = scratch_copy()?;
    // On in debug builds; a release build renders the compiled prompt whatever `enabled` says.
    let hot = HotPrompt::<SegmentSynthesis>::builder()
        .root(&root)
        .enabled(true)
        .build();
    let file = root.join("prompts/segment_synthesis.md");
    let original = std::fs::read_to_string(&file)?;
    let heading = |hot: &HotPrompt<SegmentSynthesis>| {
        let text = hot.render(&SEGMENT, &identity).text;
        text.lines()
            .find(|l| l.starts_with("# "))
            .unwrap_or_default()
            .to_owned()
    };
    println!("compiled:  {}", heading(&hot));

    std::fs::write(
        &file,
        original.replace(
            "# Segment Activity Synthesis",
            "# What happened from $segment_start to $segment_end",
        ),
    )?;
    match hot.reload() {
        Ok(swapped) => println!("good edit: {} (swapped: {swapped})", heading(&hot)),
        Err(problems) => println!("{problems}"),
    }

    std::fs::write(
        &file,
        original.replace(
            "# Segment Activity Synthesis",
            "# What happened until $segment_ned",
        ),
    )?;
    if let Err(problems) = hot.reload() {
        println!("bad edit refused:\n{problems}");
    }
    println!("still:     {}", heading(&hot));
    std::fs::remove_dir_all(&root)?;
    Ok(())
}

/// Renders whenever `prompts/segment_synthesis.md`, a template or `promptic.json` changes.
fn watch(identity: &Identity) -> Result<(), Box<dyn std::error::Error>> {
    let hot = HotPrompt::<SegmentSynthesis>::builder()
        .root(env!("CARGO_MANIFEST_DIR"))
        .enabled(true)
        .build();
    println!("watching prompts/segment_synthesis.md; Ctrl-C to stop");
    println!("{}", hot.render(&SEGMENT, identity).text);
    loop {
        match hot.reload_if_changed() {
            Ok(true) => println!("--- reloaded\n{}", hot.render(&SEGMENT, identity).text),
            Ok(false) => {}
            Err(problems) => {
                println!("--- refused, still rendering the last good text\n{problems}")
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
}

/// A copy of this crate's `prompts/` in the temp folder, to edit without touching yours.
fn scratch_copy() -> std::io::Result<PathBuf> {
    fn copy(from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            let target = to.join(entry.file_name());
            if entry.file_type()?.is_dir() {
                copy(&entry.path(), &target)?;
            } else {
                std::fs::copy(entry.path(), target)?;
            }
        }
        Ok(())
    }
    let root = std::env::temp_dir().join(format!("promptic-hot-example-{}", std::process::id()));
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts"),
        &root.join("prompts"),
    )?;
    Ok(root)
}
