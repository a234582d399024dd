//! PromptEngine's one-time migration of its single-manifest layout, done by the store on
//! open as PromptEngine does it: the user's own prompts move whole into a user manifest,
//! the manifest keeps the rest, a backup first, nothing else touched, what the folder
//! shows unchanged; and a crash at any write leaves a folder that reads the same.

use crate::Store;
use crate::atomic::{Fault, Faults, Step};
use crate::test_support::{fault_at, tree};
use prompt_runtime::store::{Defaults, StoreError};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// The factory defaults: two prompts, `greet` and `tone`.
const FACTORY_MANIFEST: &str = r#"{"version": "3", "prompts": {
  "greet": {"domain_file": "greet.json", "order": 10, "category": "system"},
  "tone":  {"domain_file": "tone.json", "order": 20, "category": "system"}}}"#;
const REGISTRY: &str =
    r#"{"placeholders": {"pet": {"resolve_phase": "static", "default": "Biscuit"}}}"#;
const GREET: &str = r#"{"greet": {"variants": {"default": {"content": "Hello from {{pet}}."}}}}"#;
const TONE: &str = r#"{"tone": {"variants": {"default": {"content": "Be brief."}}}}"#;

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// A folder an older PromptEngine left: one manifest holding the factory prompts (`tone`
/// turned off, `greet` moved) and one of the user's own (`walks`), a domain file edited in
/// place, and the factory defaults under `_defaults/`.
fn old_folder(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    write(
        dir,
        &[
            ("_defaults/_meta/prompt_manifest.json", FACTORY_MANIFEST),
            ("_defaults/_meta/placeholder_registry.json", REGISTRY),
            ("_defaults/greet.json", GREET),
            ("_defaults/tone.json", TONE),
            (
                "_meta/prompt_manifest.json",
                r#"{"version": "3", "prompts": {
  "walks": {"domain_file": "walks.json", "order": 5, "category": "custom", "tags": ["mine"]},
  "greet": {"domain_file": "greet.json", "order": 30, "category": "system"},
  "tone":  {"domain_file": "tone.json", "order": 20, "category": "system", "enabled": false}},
  "notes": "kept"}"#,
            ),
            ("_meta/placeholder_registry.json", REGISTRY),
            (
                "greet.json",
                r#"{"greet": {"variants": {"default": {"content": "Hi, {{pet}} here."}}}}"#,
            ),
            ("tone.json", TONE),
            (
                "walks.json",
                r#"{"walks": {"variants": {"default": {"content": "{{pet}} walks at noon."}}}}"#,
            ),
        ],
    );
}

const SHOWN: &str = "Biscuit walks at noon.\n\nHi, Biscuit here.";

fn open(dir: &Path, faults: Option<Faults>) -> Result<Store, StoreError> {
    let mut builder = Store::folder_builder(dir)?;
    if let Some(faults) = faults {
        builder = builder.faults(faults);
    }
    builder.open()
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("pk-migrate-{name}-{}", std::process::id()))
}

fn json_at(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn the_users_prompts_move_whole_into_a_user_manifest_and_nothing_else_changes() {
    let dir = scratch("split");
    old_folder(&dir);
    let old_manifest = std::fs::read(dir.join("_meta/prompt_manifest.json")).unwrap();
    let before = tree(&dir);
    let store = open(&dir, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(store.build_system_prompt("default", &[]).unwrap(), SHOWN);

    // the backup, named as PromptEngine names it, holds the old manifest
    let backup = store.migration_backup().expect("a backup").to_owned();
    let name = backup.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("pre_migration_") && name.ends_with(".json"));
    assert_eq!(
        name.len(),
        "pre_migration_20261202_040000.json".len(),
        "{name}"
    );
    assert_eq!(std::fs::read(&backup).unwrap(), old_manifest);

    // the user manifest: `walks` whole, with the manifest's version and the time
    let user = json_at(&dir.join("_meta/user_manifest.json"));
    assert_eq!(user["version"], "3");
    assert!(
        user["migrated_at"]
            .as_str()
            .is_some_and(|t| t.len() == 19 && t.contains('T'))
    );
    assert_eq!(
        user["prompts"],
        json!({"walks": {"domain_file": "walks.json", "order": 5, "category": "custom", "tags": ["mine"]}})
    );
    // the manifest: every other entry and key as written, `walks` gone
    let system = json_at(&dir.join("_meta/prompt_manifest.json"));
    assert_eq!(system["notes"], "kept");
    assert_eq!(
        system["prompts"],
        json!({
            "greet": {"domain_file": "greet.json", "order": 30, "category": "system"},
            "tone": {"domain_file": "tone.json", "order": 20, "category": "system", "enabled": false}})
    );
    // no other file changed; three are new (the backup, the user manifest, the lock)
    let after = tree(&dir);
    for (path, bytes) in &before {
        if !path.ends_with("_meta/prompt_manifest.json") {
            assert_eq!(after.get(path), Some(bytes), "{}", path.display());
        }
    }
    assert_eq!(after.len(), before.len() + 2);

    // once only; the folder reads the same, and `walks` is now the user's to delete
    let again = open(&dir, None).unwrap();
    assert!(again.migration_backup().is_none());
    assert_eq!(again.build_system_prompt("default", &[]).unwrap(), SHOWN);
    again.delete_prompt("walks").unwrap();
    assert_eq!(
        again.build_system_prompt("default", &[]).unwrap(),
        "Hi, Biscuit here."
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_with_only_factory_prompts_or_no_factory_manifest_is_not_written() {
    // only factory prompts: PromptEngine has nothing to move
    let dir = scratch("nothing");
    old_folder(&dir);
    write(
        &dir,
        &[(
            "_meta/prompt_manifest.json",
            r#"{"prompts": {"greet": {"domain_file": "greet.json", "order": 30}, "tone": {"domain_file": "tone.json", "enabled": false}}}"#,
        )],
    );
    let before = tree(&dir);
    let store = open(&dir, None).unwrap();
    assert!(store.migration_backup().is_none());
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        "Hi, Biscuit here."
    );
    assert_eq!(tree(&dir), before);

    // no `_defaults/` manifest: nothing to compare with, as PromptEngine
    old_folder(&dir);
    std::fs::remove_file(dir.join("_defaults/_meta/prompt_manifest.json")).unwrap();
    let before = tree(&dir);
    let store = open(&dir, None).unwrap();
    assert!(store.migration_backup().is_none());
    assert_eq!(store.build_system_prompt("default", &[]).unwrap(), SHOWN);
    assert_eq!(tree(&dir), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_promptengine_folder_given_as_a_user_folder_migrates_against_the_given_defaults() {
    let dir = scratch("user-dir");
    old_folder(&dir);
    std::fs::remove_dir_all(dir.join("_defaults")).unwrap();
    let files: &[(&str, &[u8])] = &[
        ("_meta/prompt_manifest.json", FACTORY_MANIFEST.as_bytes()),
        ("_meta/placeholder_registry.json", REGISTRY.as_bytes()),
        ("greet.json", GREET.as_bytes()),
        ("tone.json", TONE.as_bytes()),
    ];
    let defaults = Defaults::from_files("factory", files).unwrap();
    let store = Store::builder(defaults.clone())
        .user_dir(&dir)
        .open()
        .unwrap();
    assert!(store.migration_backup().is_some());
    assert_eq!(store.build_system_prompt("default", &[]).unwrap(), SHOWN);
    assert_eq!(
        json_at(&dir.join("_meta/user_manifest.json"))["prompts"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["walks"]
    );
    // its edits are PromptEngine's: the flag of a factory prompt in the manifest
    store.set_enabled("tone", "default", true).unwrap();
    assert_eq!(
        json_at(&dir.join("_meta/prompt_manifest.json"))["prompts"]["tone"]["enabled"],
        true
    );
    // and the given defaults are its factory defaults
    store.reset_prompt_to_default("greet").unwrap();
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        "Biscuit walks at noon.\n\nHello from Biscuit.\n\nBe brief."
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crash_during_a_migration_leaves_a_folder_that_reads_the_same() {
    let dir = scratch("crash");
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
                // the next open shows the same prompts, and leaves no temporary file
                let store = open(&dir, None).unwrap_or_else(|e| panic!("{step:?} #{nth}: {e}"));
                assert_eq!(
                    store.build_system_prompt("default", &[]).unwrap(),
                    SHOWN,
                    "{step:?} #{nth} {fault:?}"
                );
                for path in tree(&dir).into_keys() {
                    let name = path.file_name().unwrap().to_string_lossy().into_owned();
                    assert!(
                        !name.ends_with(".tmp"),
                        "{step:?} #{nth} {fault:?}: {name} left"
                    );
                }
            }
        }
    }
    assert!(crashes >= 6, "{crashes}");
    let _ = std::fs::remove_dir_all(&dir);
}
