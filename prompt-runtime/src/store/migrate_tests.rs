//! Migration of a single-manifest PromptEngine folder into a user layer: every
//! customization kept, a backup first, nothing written when it fails, and a crash at any
//! write leaves a folder that the next open migrates the same way.

use super::atomic::{Fault, Faults, Step};
use super::test_support::{fault_at, tree};
use super::{Defaults, Store, StoreError};
use std::path::{Path, PathBuf};
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
        ("a.json", br#"{"id": "a", "variants": {"default": {"text": "A {{char_name}}"}}}"#),
        ("b.json", br#"{"b": {"variants": {"default": {"content": "B"}}}}"#),
    ];
    Defaults::from_files("d", files).unwrap_or_else(|e| panic!("{e}"))
}

/// An old PromptEngine folder: one manifest, edited in place.
fn old_folder(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "_meta/prompt_manifest.json",
        r#"{"version": "1", "prompts": {
            "a": {"domain": "a", "order": 3},
            "b": {"domain_file": "b.json", "order": 2, "enabled": false},
            "mine": {"order": 1, "category": "custom"}}}"#,
    );
    write(
        "_meta/placeholder_registry.json",
        r#"{"placeholders": {"char_name": {"type": "static", "default": "Luna"}, "nick": {"type": "static", "default": "Lu"}}}"#,
    );
    write(
        "a.json",
        r#"{"id": "a", "variants": {"default": {"text": "A, edited, {{nick}}"}}}"#,
    );
    // the same content as the default, written differently
    write(
        "b.json",
        "{\n  \"b\": {\"variants\": {\"default\": {\"content\": \"B\"}}}\n}",
    );
    write(
        "mine.json",
        r#"{"variants": {"default": {"text": "Mine, {{char_name}}."}}}"#,
    );
}

fn open(dir: &Path, faults: Option<Faults>) -> Result<Store, StoreError> {
    let mut builder = Store::builder(defaults()).user_dir(dir);
    if let Some(faults) = faults {
        builder = builder.faults(faults);
    }
    builder.open()
}
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("pk-migrate-{name}-{}", std::process::id()))
}

#[test]
fn a_single_manifest_folder_becomes_a_user_layer_keeping_every_customization() {
    let dir = scratch("keep");
    old_folder(&dir);
    let old_manifest = std::fs::read(dir.join("_meta/prompt_manifest.json")).unwrap();
    let store = open(&dir, None).unwrap_or_else(|e| panic!("{e}"));
    // `mine` first (order 1), `b` off, `a` (order 3) edited with the new placeholder
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        "Mine, Luna.\n\nA, edited, Lu"
    );
    assert_eq!(store.is_enabled("b", "default"), Some(false));
    assert_eq!(store.user_placeholders(), ["nick"]);
    let backup = store.migration_backup().expect("a backup").to_owned();
    let name = backup.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("pre_migration_") && name.ends_with(".json"),
        "{name}"
    );
    assert_eq!(
        name.len(),
        "pre_migration_20261201_093000.json".len(),
        "{name}"
    );
    assert_eq!(std::fs::read(&backup).unwrap(), old_manifest);
    // the old files are left as they were
    assert_eq!(
        std::fs::read(dir.join("_meta/prompt_manifest.json")).unwrap(),
        old_manifest
    );

    // once only
    let again = open(&dir, None).unwrap();
    assert!(again.migration_backup().is_none());
    assert_eq!(
        again.build_system_prompt("default", &[]).unwrap(),
        "Mine, Luna.\n\nA, edited, Lu"
    );
    // the defaults are back after a reset, and stay back at the next open
    again.factory_reset().unwrap();
    assert_eq!(
        again.build_system_prompt("default", &[]).unwrap(),
        "A Luna\n\nB"
    );
    let reopened = open(&dir, None).unwrap();
    assert!(reopened.migration_backup().is_none());
    assert_eq!(
        reopened.build_system_prompt("default", &[]).unwrap(),
        "A Luna\n\nB"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_migration_that_fails_its_checks_writes_nothing() {
    let dir = scratch("fail");
    old_folder(&dir);
    std::fs::write(
        dir.join("mine.json"),
        r#"{"variants": {"default": {"text": "Mine, {{char_nmae}}."}}}"#,
    )
    .unwrap();
    let before = tree(&dir).into_iter().collect::<Vec<_>>();
    let e = Store::builder(defaults())
        .user_dir(&dir)
        .strict(true)
        .open()
        .unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("unknown placeholder `{{char_nmae}}`"),
        "{text}"
    );
    assert!(text.contains("did you mean `{{char_name}}`?"), "{text}");
    assert!(text.contains("so nothing was written"), "{text}");
    assert_eq!(tree(&dir).into_iter().collect::<Vec<_>>(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_migration_keeps_a_broken_prompt_refused_and_the_others_serving() {
    let dir = scratch("broken");
    old_folder(&dir);
    std::fs::write(
        dir.join("mine.json"),
        r#"{"variants": {"default": {"text": "Mine, {{char_nmae}}."}}}"#,
    )
    .unwrap();
    let store = open(&dir, None).unwrap();
    assert!(store.migration_backup().is_some());
    let problems = store.problems();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].0, "mine");
    assert!(
        problems[0]
            .1
            .to_string()
            .contains("did you mean `{{char_name}}`?")
    );
    assert!(matches!(
        store.resolve_prompt("mine", "default", &[]),
        Err(StoreError::Refused { .. })
    ));
    // the migrated layer still holds the prompt: fixing its text brings it back
    store
        .update_prompt("mine", "default", "Mine, {{char_name}}.")
        .unwrap();
    assert!(store.problems().is_empty());
    assert_eq!(
        store.resolve_prompt("mine", "default", &[]).unwrap(),
        "Mine, Luna."
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crash_during_a_migration_leaves_a_folder_the_next_open_migrates_the_same() {
    let dir = scratch("crash");
    old_folder(&dir);
    let clean = open(&dir, None)
        .unwrap()
        .build_system_prompt("default", &[])
        .unwrap();
    let mut crashes = 0;
    for step in Step::ALL {
        for fault in [Fault::Fail, Fault::Crash] {
            for nth in 0..3 {
                old_folder(&dir);
                let (faults, seen) = fault_at(step, nth, fault);
                let result = open(&dir, Some(faults));
                if seen.load(Ordering::SeqCst) <= nth {
                    assert!(result.is_ok(), "{step:?} #{nth}");
                    continue;
                }
                crashes += 1;
                assert!(result.is_err(), "{step:?} #{nth} {fault:?}");
                // the next open (and the sweep of a crashed write's temporary file)
                let store = open(&dir, None).unwrap_or_else(|e| panic!("{step:?} #{nth}: {e}"));
                assert_eq!(store.build_system_prompt("default", &[]).unwrap(), clean);
                for (path, _) in tree(&dir).into_iter().collect::<Vec<_>>() {
                    let name = path.file_name().unwrap().to_string_lossy().into_owned();
                    assert!(
                        !name.ends_with(".tmp"),
                        "{step:?} #{nth} {fault:?}: {name} left"
                    );
                }
            }
        }
    }
    assert!(crashes >= 10, "{crashes}");
    let _ = std::fs::remove_dir_all(&dir);
}
