//! Export and import over real user folders: a round trip restores every customization,
//! each mode does what it says, and a failure at any step of an import's writes leaves
//! the old state or the new one.

use crate::Store;
use crate::archive::ImportMode;
use crate::atomic::{Fault, Faults, Step, is_temp_name};
use crate::test_support::{fault_at, files, tree};
use prompt_runtime::store::{Defaults, StoreError};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

fn defaults() -> Defaults {
    let files: &[(&str, &[u8])] = &[
        (
            "_meta/prompt_manifest.json",
            br#"{"prompts": {"a": {"domain": "a", "order": 1}, "b": {"domain_file": "b.json", "order": 2}, "c": {"domain": "c", "order": 3}}}"#,
        ),
        (
            "_meta/placeholder_registry.json",
            br#"{"placeholders": {"char_name": {"type": "static", "default": "Luna"}, "mood": {"type": "runtime"}}}"#,
        ),
        (
            "a.json",
            br#"{"id": "a", "variants": {"default": {"text": "A {{char_name}}"}, "short": {"text": "a"}}}"#,
        ),
        (
            "b.json",
            br#"{"b": {"variants": {"default": {"content": "B"}}}}"#,
        ),
        ("c.json", br#"{"variants": {"default": {"text": "C"}}}"#),
    ];
    Defaults::from_files("d", files).unwrap_or_else(|e| panic!("{e}"))
}

fn open(dir: &Path, faults: Option<Faults>) -> Store {
    let mut builder = Store::builder(defaults()).user_dir(dir);
    if let Some(faults) = faults {
        builder = builder.faults(faults);
    }
    builder.open().unwrap_or_else(|e| panic!("{e}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pk-archive-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Everything a render can tell about a store: the system prompt, each variant's text
/// and flag, each prompt's order.
fn snapshot(store: &Store) -> Vec<String> {
    let state = store.current();
    let mut out = vec![format!(
        "{:?}",
        store.build_system_prompt("default", &[("mood", "calm")])
    )];
    for p in &state.folder.prompts {
        out.push(format!("{} order {}", p.id, p.order));
        for v in p.variant_names() {
            out.push(format!(
                "{}/{v}: {:?} {:?}",
                p.id,
                store.resolve_prompt(&p.id, v, &[("mood", "calm")]),
                store.is_enabled(&p.id, v)
            ));
        }
    }
    out
}

/// A user folder with one text edited, one flag off, an order changed by hand and a
/// prompt of the user's own.
fn prepare(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let store = open(dir, None);
    store
        .update_prompt("a", "default", "Mine {{char_name}}")
        .unwrap();
    store.set_enabled("b", "default", false).unwrap();
    store.create_prompt("mine", "Mine.").unwrap();
    store.add_placeholder("old_key", "x").unwrap();
    // an order as PromptEngine's editor writes it (the store has no reorder here)
    let manifest = dir.join("_meta/user_manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let text = crate::persist::set_path(&text, &["prompts", "c", "order"], "0", 0).unwrap();
    std::fs::write(&manifest, text).unwrap();
}

/// An archive of another user layer: other texts for `a` and `b`, a variant off, a
/// prompt of its own.
fn archive_of_another(root: &Path) -> PathBuf {
    let source = root.join("source");
    let _ = std::fs::remove_dir_all(&source);
    let store = open(&source, None);
    store
        .update_prompt("a", "default", "Theirs {{char_name}}")
        .unwrap();
    store.update_prompt("b", "default", "Their B").unwrap();
    store.set_enabled("a", "short", false).unwrap();
    store.create_prompt("theirs", "Theirs.").unwrap();
    let path = root.join("theirs.zip");
    store.export_prompts(&path).unwrap();
    path
}

/// An archive whose user registry adds a placeholder its own prompt uses.
fn archive_with_a_placeholder(root: &Path) -> PathBuf {
    let source = root.join("source-registry");
    let _ = std::fs::remove_dir_all(&source);
    let store = open(&source, None);
    store.add_placeholder("nickname", "Lu").unwrap();
    store
        .create_prompt("theirs", "Theirs, {{nickname}}.")
        .unwrap();
    store.set_enabled("c", "default", false).unwrap();
    let path = root.join("registry.zip");
    store.export_prompts(&path).unwrap();
    path
}

#[test]
fn export_factory_reset_import_restores_every_customization() {
    let root = scratch("round-trip");
    let user = root.join("user");
    prepare(&user);
    let store = open(&user, None);
    let customized = snapshot(&store);
    let written = store.export_prompts(root.join("backup.zip")).unwrap();
    assert_eq!(written.prompt_ids, ["a", "b", "mine", "c"]);
    assert_eq!(
        written.files,
        [
            "metadata.json",
            "_meta/user_manifest.json",
            "_meta/user_placeholder_registry.json",
            "prompts/a.json",
            "prompts/mine.json"
        ]
    );
    assert_eq!(written.placeholders, ["old_key"]);

    store.factory_reset().unwrap();
    let fresh = snapshot(&store);
    assert_ne!(fresh, customized);
    for mode in [
        ImportMode::Replace,
        ImportMode::Merge,
        ImportMode::Overwrite,
    ] {
        store.factory_reset().unwrap();
        let summary = store
            .import_prompts_with(root.join("backup.zip"), mode)
            .unwrap();
        assert_eq!(summary.imported, ["a", "b", "mine", "c"], "{mode:?}");
        assert!(!summary.defaults_differ);
        assert_eq!(
            summary.exported_by.as_deref(),
            Some(env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(snapshot(&store), customized, "{mode:?}");
        assert_eq!(store.user_placeholders(), ["old_key"], "{mode:?}");
        assert_eq!(
            snapshot(&open(&user, None)),
            customized,
            "{mode:?}: on disk"
        );
    }
    // importing what is there already writes nothing
    let before = tree(&user);
    let summary = store
        .import_prompts_with(root.join("backup.zip"), ImportMode::Overwrite)
        .unwrap();
    assert_eq!(summary.imported.len(), 4);
    assert_eq!(tree(&user), before);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn each_mode_combines_the_archive_with_the_user_layer_as_it_says() {
    let root = scratch("modes");
    let theirs = archive_of_another(&root);
    let user = root.join("user");
    let text = |store: &Store, id: &str| store.resolve_prompt(id, "default", &[]).unwrap();

    // merge: only what the user layer does not customize yet
    prepare(&user);
    let store = open(&user, None);
    let summary = store.import_prompts(&theirs).unwrap();
    assert_eq!(summary.mode, ImportMode::Merge);
    assert_eq!(summary.imported, ["theirs"]);
    assert_eq!(summary.skipped, ["a", "b"]);
    assert_eq!(text(&store, "a"), "Mine Luna");
    assert_eq!(store.is_enabled("b", "default"), Some(false));
    assert_eq!(text(&store, "theirs"), "Theirs.");
    assert_eq!(text(&store, "mine"), "Mine.");
    assert_eq!(store.is_enabled("a", "short"), Some(true));
    assert_eq!(snapshot(&open(&user, None)), snapshot(&store));

    // overwrite: the archive's entries win, the others are kept
    prepare(&user);
    let store = open(&user, None);
    let summary = store
        .import_prompts_with(&theirs, ImportMode::Overwrite)
        .unwrap();
    assert_eq!(summary.imported, ["a", "b", "theirs"]);
    assert!(summary.skipped.is_empty() && summary.removed.is_empty());
    assert_eq!(text(&store, "a"), "Theirs Luna");
    assert_eq!(store.is_enabled("a", "short"), Some(false));
    assert_eq!(text(&store, "b"), "Their B");
    // the whole entry of `b` is the archive's: its flag is not
    assert_eq!(store.is_enabled("b", "default"), Some(true));
    assert_eq!(text(&store, "mine"), "Mine.");
    assert_eq!(store.current().folder.prompts[2].order, 0, "c's order kept");
    assert_eq!(snapshot(&open(&user, None)), snapshot(&store));

    // replace: the archive's user layer, nothing else
    prepare(&user);
    let store = open(&user, None);
    let summary = store
        .import_prompts_with(&theirs, ImportMode::Replace)
        .unwrap();
    assert_eq!(summary.imported, ["a", "b", "theirs"]);
    assert_eq!(summary.removed, ["mine", "c"]);
    assert!(matches!(
        store.resolve_prompt("mine", "default", &[]),
        Err(StoreError::UnknownPrompt { .. })
    ));
    assert_eq!(
        store.current().folder.prompts[2].order,
        3,
        "c's order is the default's"
    );
    assert_eq!(text(&store, "a"), "Theirs Luna");
    let names: Vec<String> = tree(&user)
        .keys()
        .map(|p| {
            p.strip_prefix(&user)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    // `prompts/a.json` was in use when the import wrote `a`'s new file: it is gone now
    assert_eq!(
        names,
        [
            "_meta/user_manifest.json",
            "prompts/a.1.json",
            "prompts/b.json",
            "prompts/theirs.json"
        ]
    );
    assert_eq!(snapshot(&open(&user, None)), snapshot(&store));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_import_into_memory_changes_memory_only() {
    let root = scratch("memory");
    let theirs = archive_of_another(&root);
    let store = Store::builder(defaults()).open().unwrap();
    store.update_prompt("c", "default", "My C").unwrap();
    store
        .import_prompts_with(&theirs, ImportMode::Overwrite)
        .unwrap();
    assert_eq!(store.resolve_prompt("c", "default", &[]).unwrap(), "My C");
    assert_eq!(
        store.resolve_prompt("theirs", "default", &[]).unwrap(),
        "Theirs."
    );
    // and an export of it holds both
    store.export_prompts(root.join("mem.zip")).unwrap();
    let other = Store::builder(defaults()).open().unwrap();
    other
        .import_prompts_with(root.join("mem.zip"), ImportMode::Replace)
        .unwrap();
    assert_eq!(snapshot(&other), snapshot(&store));
    let _ = std::fs::remove_dir_all(&root);
}
fn is_temp(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(is_temp_name)
}

#[test]
fn a_failure_at_any_step_of_an_import_leaves_the_old_state_or_the_new_one() {
    let root = scratch("durability");
    let archives = [archive_of_another(&root), archive_with_a_placeholder(&root)];
    let dir = root.join("user");
    let mut failures_seen = 0;
    let modes = [
        ImportMode::Replace,
        ImportMode::Merge,
        ImportMode::Overwrite,
    ];
    for (theirs, mode) in archives.iter().flat_map(|a| modes.map(|m| (a, m))) {
        prepare(&dir);
        let before = snapshot(&open(&dir, None));
        let clean = open(&dir, None);
        clean.import_prompts_with(theirs, mode).unwrap();
        let after = snapshot(&open(&dir, None));
        assert_ne!(before, after, "{mode:?} changes nothing");
        assert_eq!(snapshot(&clean), after, "{mode:?}: memory and disk differ");
        for step in Step::ALL {
            for fault in [Fault::Fail, Fault::Crash] {
                // an import writes up to three domain files and the manifest, then removes
                for nth in 0..5 {
                    prepare(&dir);
                    let (faults, seen) = fault_at(step, nth, fault);
                    let store = open(&dir, Some(faults));
                    let result = store.import_prompts_with(theirs, mode);
                    let case = format!("{theirs:?} {mode:?}, {step:?} #{nth}, {fault:?}");
                    if seen.load(Ordering::SeqCst) <= nth {
                        assert!(result.is_ok(), "{case}: {result:?}");
                        continue;
                    }
                    failures_seen += 1;
                    let now = snapshot(&open(&dir, None));
                    assert!(
                        now == before || now == after,
                        "{case}: a fresh open reads\n{now:#?}\nnot\n{before:#?}\nor\n{after:#?}"
                    );
                    if result.is_ok() {
                        assert_eq!(now, after, "{case}");
                    }
                    for file in files(&dir) {
                        if is_temp(&file) {
                            assert_eq!(fault, Fault::Crash, "{case}: {file:?} left behind");
                            continue;
                        }
                        let text = std::fs::read_to_string(&file).unwrap();
                        assert!(
                            serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                            "{case}: {file:?} holds {text:?}"
                        );
                    }
                    if fault == Fault::Fail {
                        assert_eq!(snapshot(&store), now, "{case}");
                    }
                }
            }
        }
    }
    assert!(failures_seen >= 6 * 4 * 2, "{failures_seen}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_export_is_written_atomically() {
    let root = scratch("export-atomic");
    let user = root.join("user");
    prepare(&user);
    let out = root.join("backup.zip");
    open(&user, None).export_prompts(&out).unwrap();
    let good = std::fs::read(&out).unwrap();
    for step in Step::ALL {
        for fault in [Fault::Fail, Fault::Crash] {
            std::fs::write(&out, &good).unwrap();
            let faults: Faults = Arc::new(move |s, p| {
                (s == step && !p.to_string_lossy().contains("user")).then_some(fault)
            });
            let store = open(&user, Some(faults));
            store.update_prompt("c", "default", "Other C").unwrap();
            assert!(store.export_prompts(&out).is_err(), "{step:?} {fault:?}");
            let now = std::fs::read(&out).unwrap();
            // the old archive whole, or (once renamed) the new one whole
            if step == Step::SyncDir {
                assert_ne!(now, good);
                assert!(crate::archive::zipped::unpack(&now).is_ok());
            } else {
                assert_eq!(now, good, "{step:?} {fault:?}");
            }
            store.reset_prompt_to_default("c").unwrap();
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_archive_that_adds_a_placeholder_its_user_layer_uses_is_checked_whole() {
    let root = scratch("registry");
    let source = root.join("source");
    std::fs::create_dir_all(source.join("_meta")).unwrap();
    std::fs::write(
        source.join("_meta/user_placeholder_registry.json"),
        r#"{"placeholders": {"char_name": {"type": "static", "default": "Luna"}}}"#,
    )
    .unwrap();
    let store = open(&source, None);
    store.create_prompt("mine", "Hi {{char_name}}.").unwrap();
    let summary = store.export_prompts(root.join("reg.zip")).unwrap();
    assert_eq!(summary.placeholders, ["char_name"]);
    // the same registry, in effect: imported
    let user = root.join("user");
    let target = open(&user, None);
    let done = target
        .import_prompts_with(root.join("reg.zip"), ImportMode::Replace)
        .unwrap();
    assert_eq!(done.placeholders_imported, ["char_name"]);
    assert_eq!(
        target.resolve_prompt("mine", "default", &[]).unwrap(),
        "Hi Luna."
    );
    assert!(user.join("_meta/user_placeholder_registry.json").is_file());
    let _ = std::fs::remove_dir_all(&root);
}

/// An archive whose user registry adds a placeholder its prompts use.
#[test]
fn an_archive_can_add_a_user_placeholder() {
    let root = scratch("registry-add");
    let source = root.join("source");
    std::fs::create_dir_all(source.join("_meta")).unwrap();
    std::fs::write(
        source.join("_meta/user_placeholder_registry.json"),
        r#"{"placeholders": {"nickname": {"type": "static", "default": "Lu"}}}"#,
    )
    .unwrap();
    let store = open(&source, None);
    store.create_prompt("mine", "Hi {{nickname}}.").unwrap();
    store.export_prompts(root.join("reg.zip")).unwrap();
    let user = root.join("user");
    prepare(&user);
    let target = open(&user, None);
    let done = target.import_prompts(root.join("reg.zip")).unwrap();
    // `mine` is customized already: merge skips it, and takes the placeholder
    assert_eq!(done.skipped, ["mine"]);
    assert_eq!(done.placeholders_imported, ["nickname"]);
    let done = target
        .import_prompts_with(root.join("reg.zip"), ImportMode::Overwrite)
        .unwrap();
    assert_eq!(done.imported, ["mine"]);
    assert_eq!(
        target.resolve_prompt("mine", "default", &[]).unwrap(),
        "Hi Lu."
    );
    assert_eq!(snapshot(&open(&user, None)), snapshot(&target));

    // replace with an archive without a registry: the placeholder goes, once nothing
    // uses it
    open(&root.join("plain"), None)
        .export_prompts(root.join("plain.zip"))
        .unwrap();
    target
        .import_prompts_with(root.join("plain.zip"), ImportMode::Replace)
        .unwrap();
    assert!(!user.join("_meta/user_placeholder_registry.json").exists());
    assert_eq!(snapshot(&open(&user, None)), snapshot(&target));
    let _ = std::fs::remove_dir_all(&root);
}

/// An import of N user placeholders costs time in proportion to N. A scan of the ones
/// before it and a rewrite of the whole registry for each would make it quadratic
/// (10,000: 38 s; 20,000: 170 s; 150,000: over 15 minutes). Merged into an empty user
/// folder, and replacing a folder with N other placeholders (each removed).
#[test]
fn importing_many_placeholders_costs_time_in_proportion_to_them() {
    fn registry(prefix: &str, n: usize) -> String {
        let entries: Vec<String> = (0..n)
            .map(|i| format!(r#""{prefix}{i}": {{"resolve_phase": "static", "default": "v{i}"}}"#))
            .collect();
        format!("{{\"placeholders\": {{{}}}}}", entries.join(",\n"))
    }
    let root = scratch("many-placeholders");
    let setup = |name: &str, prefix: &str, n: usize| {
        let dir = root.join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("_meta")).unwrap();
        std::fs::write(
            dir.join("_meta/user_placeholder_registry.json"),
            registry(prefix, n),
        )
        .unwrap();
        dir
    };
    for n in [100, 1_000] {
        let from = setup(&format!("from{n}"), "p", n);
        open(&from, None)
            .export_prompts(root.join(format!("{n}.zip")))
            .unwrap();
    }
    let import = |n: usize, mode: ImportMode| {
        let user = match mode {
            ImportMode::Replace => setup("into", "old", n),
            _ => {
                let dir = root.join("into");
                let _ = std::fs::remove_dir_all(&dir);
                dir
            }
        };
        let done = open(&user, None)
            .import_prompts_with(root.join(format!("{n}.zip")), mode)
            .unwrap();
        assert_eq!(done.placeholders_imported.len(), n);
        if mode == ImportMode::Replace {
            let kept =
                std::fs::read_to_string(user.join("_meta/user_placeholder_registry.json")).unwrap();
            assert!(!kept.contains("\"old0\""), "{kept}");
            assert!(kept.contains("\"p0\""), "{kept}");
        }
    };
    for mode in [ImportMode::Merge, ImportMode::Replace] {
        crate::scaling::assert_linear(
            "the placeholders",
            || import(100, mode),
            || import(1_000, mode),
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}
