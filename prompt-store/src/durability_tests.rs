//! Failure injection: every edit, with each step of each of its writes failing (an I/O
//! error, or a crash that skips every clean-up), leaves a user folder that a fresh open
//! reads as the state before the edit or after it, never a mix, an empty or a broken file.

use crate::Store;
use crate::atomic::{Fault, Faults, Step, is_temp_name};
use crate::test_support::{fault_at, files};
use prompt_runtime::store::{Defaults, StoreError};
use std::path::Path;
use std::sync::atomic::Ordering;

fn defaults() -> Defaults {
    let files: &[(&str, &[u8])] = &[
        (
            "_meta/prompt_manifest.json",
            br#"{"prompts": {"a": {"domain": "a", "order": 1}, "b": {"domain_file": "b.json", "order": 2}}}"#,
        ),
        (
            "_meta/placeholder_registry.json",
            br#"{"placeholders": {"char_name": {"type": "static", "default": "Luna"}}}"#,
        ),
        (
            "a.json",
            br#"{"id": "a", "variants": {"default": {"text": "A {{char_name}}"}, "short": {"text": "a"}}}"#,
        ),
        (
            "b.json",
            br#"{"b": {"variants": {"default": {"content": "B"}}}}"#,
        ),
    ];
    match Defaults::from_files("d", files) {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    }
}

fn open(dir: &Path, faults: Option<Faults>) -> Store {
    let mut builder = Store::builder(defaults()).user_dir(dir);
    if let Some(faults) = faults {
        builder = builder.faults(faults);
    }
    builder.open().unwrap_or_else(|e| panic!("{e}"))
}

/// Everything a render can tell about a store.
fn snapshot(store: &Store) -> Vec<String> {
    let state = store.current();
    let mut out = vec![
        format!("{:?}", store.build_system_prompt("default", &[])),
        format!("user placeholders {:?}", store.user_placeholders()),
    ];
    for p in &state.folder.prompts {
        for v in p.variant_names() {
            out.push(format!(
                "{}/{v}: {:?} {:?}",
                p.id,
                store.resolve_prompt(&p.id, v, &[]),
                store.is_enabled(&p.id, v)
            ));
        }
    }
    out
}

/// The state every edit starts from: one text edited, one flag off, one prompt of the
/// user's own.
fn prepare(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let store = open(dir, None);
    store
        .update_prompt("a", "default", "A1 {{char_name}}")
        .unwrap();
    store.set_enabled("b", "default", false).unwrap();
    store.create_prompt("mine", "Mine.").unwrap();
    store.add_placeholder("nick", "Lu").unwrap();
    store.add_placeholder("spare", "unused").unwrap();
    store.update_prompt("a", "short", "a {{nick}}").unwrap();
}

type Edit = fn(&Store) -> Result<(), StoreError>;

const EDITS: &[(&str, Edit)] = &[
    ("update in place", |s| s.update_prompt("a", "short", "a2")),
    ("first update", |s| s.update_prompt("b", "default", "B2")),
    ("set_enabled", |s| s.set_enabled("a", "default", false)),
    ("reset", |s| s.reset_prompt_to_default("a")),
    ("factory reset", |s| s.factory_reset()),
    ("create", |s| s.create_prompt("new", "New {{char_name}}.")),
    ("delete", |s| s.delete_prompt("mine")),
    ("reorder", |s| s.reorder_prompts(&["b", "mine"])),
    ("add placeholder", |s| s.add_placeholder("mood", "calm")),
    ("remove placeholder", |s| s.remove_placeholder("spare")),
];

/// What a store shows, but for the user placeholders: a factory reset removes the user
/// registry after its commit point, so a crash can leave it (unused) behind.
fn but_placeholders(snapshot: &[String]) -> Vec<String> {
    snapshot
        .iter()
        .filter(|l| !l.starts_with("user placeholders"))
        .cloned()
        .collect()
}
fn is_temp(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(is_temp_name)
}

#[test]
fn a_failure_at_any_step_of_any_edit_leaves_the_old_state_or_the_new_one() {
    let dir = std::env::temp_dir().join(format!("pk-durability-{}", std::process::id()));
    let mut failures_seen = 0;
    for (name, edit) in EDITS {
        prepare(&dir);
        let before = snapshot(&open(&dir, None));
        let clean = open(&dir, None);
        edit(&clean).unwrap_or_else(|e| panic!("{name}: {e}"));
        let after = snapshot(&open(&dir, None));
        assert_ne!(before, after, "{name} changes nothing");
        assert_eq!(snapshot(&clean), after, "{name}: memory and disk differ");
        for step in Step::ALL {
            for fault in [Fault::Fail, Fault::Crash] {
                // the first and the second write of an edit
                for nth in 0..2 {
                    prepare(&dir);
                    let (faults, seen) = fault_at(step, nth, fault);
                    let store = open(&dir, Some(faults));
                    let result = edit(&store);
                    let case = format!("{name}, {step:?} #{nth}, {fault:?}");
                    if seen.load(Ordering::SeqCst) <= nth {
                        // the edit has no such write
                        assert!(result.is_ok(), "{case}: {result:?}");
                        continue;
                    }
                    failures_seen += 1;
                    let mut now = snapshot(&open(&dir, None));
                    if *name == "factory reset"
                        && but_placeholders(&now) == but_placeholders(&after)
                    {
                        now = after.clone();
                    }
                    assert!(
                        now == before || now == after,
                        "{case}: a fresh open reads\n{now:#?}\nnot\n{before:#?}\nor\n{after:#?}"
                    );
                    if result.is_ok() {
                        // only a clean-up after the commit failed
                        assert_eq!(now, after, "{case}");
                    }
                    for file in files(&dir) {
                        // a crashed write's temporary file is swept by the next open
                        assert!(!is_temp(&file), "{case}: {file:?} left behind");
                        let text = std::fs::read_to_string(&file).unwrap();
                        assert!(
                            serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                            "{case}: {file:?} holds {text:?}"
                        );
                    }
                    if fault == Fault::Fail && *name != "factory reset" {
                        // what the store shows is what a fresh open reads
                        assert_eq!(snapshot(&store), now, "{case}");
                    }
                }
            }
        }
    }
    // every edit writes at least once at every step
    assert!(failures_seen >= EDITS.len() * 4, "{failures_seen}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_edit_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("pk-refused-{}", std::process::id()));
    prepare(&dir);
    let read = |dir: &Path| {
        let mut all: Vec<_> = files(dir)
            .into_iter()
            .map(|f| (f.clone(), std::fs::read(&f).unwrap()))
            .collect();
        all.sort();
        all
    };
    let before = read(&dir);
    let store = open(&dir, None);
    let shown = snapshot(&store);
    let e = store
        .update_prompt("a", "default", "Hi {{char_nmae}}")
        .unwrap_err();
    assert!(e.to_string().contains("a/default (edit):1:4"), "{e}");
    assert!(
        e.to_string().contains("did you mean `{{char_name}}`?"),
        "{e}"
    );
    assert!(store.update_prompt("a", "defualt", "x").is_err());
    assert!(store.create_prompt("../x", "x").is_err());
    assert!(store.create_prompt("new", "{{nope}}").is_err());
    assert!(store.delete_prompt("a").is_err());
    assert!(store.reset_prompt_to_default("mine").is_err());
    assert!(store.reorder_prompts(&["a", "a"]).is_err());
    assert!(store.reorder_prompts(&["zz"]).is_err());
    assert!(matches!(
        store.add_placeholder("char_name", "x"),
        Err(StoreError::PlaceholderExists { user: false, .. })
    ));
    assert!(matches!(
        store.add_placeholder("nick", "x"),
        Err(StoreError::PlaceholderExists { user: true, .. })
    ));
    assert!(store.add_placeholder("9lives", "x").is_err());
    let e = store.remove_placeholder("nick").unwrap_err();
    assert_eq!(
        e.to_string(),
        "placeholder `{{nick}}` is used by `a`: change those texts first"
    );
    let e = store.remove_placeholder("char_name").unwrap_err();
    assert!(matches!(e, StoreError::NotUserPlaceholder { .. }), "{e}");
    assert_eq!(
        store.remove_placeholder("nik").unwrap_err().to_string(),
        "placeholder `{{nik}}` is not one the user added; did you mean `nick`?"
    );
    assert_eq!(read(&dir), before);
    assert_eq!(snapshot(&store), shown);
    let _ = std::fs::remove_dir_all(&dir);
}
