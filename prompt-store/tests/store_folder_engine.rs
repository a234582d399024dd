//! A PromptEngine folder shared with PromptEngine, both ways: what the store writes into a
//! folder it reads in place is PromptEngine's own form — a factory reset from the folder's
//! `_defaults/`, archives PromptEngine imports and exports, a PromptEngine folder handed
//! over as a user folder — and the help for an unknown key names the registry it belongs
//! in. The folder is written here in the shape of PersonaUI's: a garden-club helper.

use promptic::store::{Defaults, Store, StoreError};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const MANIFEST: &str = r#"{"version": "4", "prompts": {
  "persona":  {"domain_file": "persona.json", "order": 100, "category": "system", "target": "system_prompt"},
  "planting": {"domain_file": "garden.json", "order": 200, "category": "context", "target": "system_prompt"},
  "weather":  {"domain_file": "garden.json", "order": 300, "category": "context", "target": "system_prompt", "requires_any": ["forecast"]}}}"#;
const REGISTRY: &str = r#"{"placeholders": {
  "club":     {"resolve_phase": "static", "default": "Rosewood Club"},
  "forecast": {"resolve_phase": "runtime", "default": ""}}}"#;
const PERSONA: &str =
    r#"{"persona": {"variants": {"default": {"content": "You help the {{club}}."}}}}"#;
const GARDEN: &str = r#"{"planting": {"variants": {"default": {"content": "Plant bulbs in autumn."}}},
 "weather": {"variants": {"default": {"content": "Forecast: {{forecast}}."}}}}"#;

const STOCK: &str = "You help the Rosewood Club.\n\nPlant bulbs in autumn.";

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("store-engine-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// A folder as PersonaUI ships it: the active files and their copy in `_defaults/`.
fn stock(dir: &Path) {
    for base in ["", "_defaults/"] {
        write(
            dir,
            &[
                (&format!("{base}_meta/prompt_manifest.json"), MANIFEST),
                (&format!("{base}_meta/placeholder_registry.json"), REGISTRY),
                (&format!("{base}persona.json"), PERSONA),
                (&format!("{base}garden.json"), GARDEN),
            ],
        );
    }
}

fn json_at(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Every file under `dir` with its bytes, by path relative to it; the lock file aside.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if !path.ends_with(".promptic.lock") {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// The user's customizations of every kind, made through the store.
fn customize(store: &Store) {
    store
        .update_prompt("persona", "default", "You garden with the {{club}}.")
        .unwrap();
    store.set_enabled("planting", "default", false).unwrap();
    store.add_placeholder("pet", "Moss").unwrap();
    store
        .create_prompt("dog", "{{pet}} digs in the beds.")
        .unwrap();
}

const CUSTOM: &str = "You garden with the Rosewood Club.\n\nMoss digs in the beds.";

#[test]
fn a_factory_reset_in_place_copies_the_folders_defaults_back_as_promptengine_does() {
    let dir = scratch("reset");
    stock(&dir);
    let store = Store::open_folder(&dir).unwrap();
    customize(&store);
    assert_eq!(store.build_system_prompt("default", &[]).unwrap(), CUSTOM);

    store.factory_reset().unwrap();
    assert_eq!(store.build_system_prompt("default", &[]).unwrap(), STOCK);
    // the active files are `_defaults/`'s again, byte for byte
    let files = tree(&dir);
    for rel in [
        "_meta/prompt_manifest.json",
        "_meta/placeholder_registry.json",
        "persona.json",
        "garden.json",
    ] {
        assert_eq!(files[rel], files[&format!("_defaults/{rel}")], "{rel}");
    }
    // the user's prompts are gone; their files and the user's placeholders stay, unread,
    // as PromptEngine leaves them
    assert_eq!(
        json_at(&dir.join("_meta/user_manifest.json")),
        json!({"version": "1", "prompts": {}})
    );
    assert!(files.contains_key("dog.json"));
    assert_eq!(store.user_placeholders(), ["pet"]);
    // a fresh open reads the same
    let again = Store::open_folder(&dir).unwrap();
    assert_eq!(again.build_system_prompt("default", &[]).unwrap(), STOCK);
    assert!(again.get_all_prompts().iter().all(|p| p.id != "dog"));

    // without `_defaults/` there is nothing to reset from: refused, nothing written
    again
        .update_prompt("persona", "default", "Weeding day.")
        .unwrap();
    std::fs::remove_dir_all(dir.join("_defaults")).unwrap();
    let store = Store::open_folder(&dir).unwrap();
    let before = tree(&dir);
    let e = store.factory_reset().unwrap_err().to_string();
    assert!(e.contains("_defaults"), "{e}");
    assert_eq!(tree(&dir), before);
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        "Weeding day.\n\nPlant bulbs in autumn."
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_promptengine_folder_given_as_a_user_folder_is_read_and_written_as_promptengine_keeps_it() {
    // PromptEngine's own edits: a text changed in its domain file, a prompt turned off in
    // the manifest, and a prompt of the user's as a whole entry of the user manifest.
    let dir = scratch("user-dir");
    stock(&dir);
    write(
        &dir,
        &[
            (
                "persona.json",
                r#"{"persona": {"variants": {"default": {"content": "Edited: {{club}}."}}}}"#,
            ),
            (
                "_meta/prompt_manifest.json",
                &MANIFEST.replace(r#""order": 200,"#, r#""order": 200, "enabled": false,"#),
            ),
            (
                "_meta/user_manifest.json",
                r#"{"prompts": {"tools": {"domain_file": "tools.json", "order": 50}}}"#,
            ),
            (
                "tools.json",
                r#"{"tools": {"variants": {"default": {"content": "Sharpen the shears."}}}}"#,
            ),
        ],
    );
    let shown = "Sharpen the shears.\n\nEdited: Rosewood Club.";
    assert_eq!(
        Store::open_folder(&dir)
            .unwrap()
            .build_system_prompt("default", &[])
            .unwrap(),
        shown
    );
    let defaults = Defaults::load(dir.join("_defaults")).unwrap();
    let store = Store::builder(defaults).user_dir(&dir).open().unwrap();
    assert_eq!(store.build_system_prompt("default", &[]).unwrap(), shown);
    // an edit goes where PromptEngine keeps it: the flag into the manifest's whole entry
    store.set_enabled("planting", "default", true).unwrap();
    assert_eq!(
        json_at(&dir.join("_meta/prompt_manifest.json"))["prompts"]["planting"],
        json!({"domain_file": "garden.json", "order": 200, "enabled": true, "category": "context", "target": "system_prompt"})
    );
    assert!(!dir.join("prompts").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_key_of_the_users_prompt_belongs_in_the_user_registry() {
    let dir = scratch("help");
    stock(&dir);
    write(
        &dir,
        &[
            (
                "_meta/user_manifest.json",
                r#"{"prompts": {"frost": {"domain_file": "frost.json", "order": 400, "requires_any": ["frost_date"]}}}"#,
            ),
            (
                "frost.json",
                r#"{"frost": {"variants": {"default": {"content": "Cover the roses before {{frost_day}}."}}}}"#,
            ),
        ],
    );
    let store = Store::open_folder(&dir).unwrap();
    let problems = store.problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    let text = problems[0].1.to_string();
    assert!(text.contains("`requires_any` names `frost_date`"), "{text}");
    assert!(
        text.contains("add `frost_date` to `_meta/user_placeholder_registry.json`"),
        "{text}"
    );
    assert!(
        text.contains("add `frost_day` to `_meta/user_placeholder_registry.json`"),
        "{text}"
    );
    assert!(
        !text.contains("to `_meta/placeholder_registry.json`"),
        "{text}"
    );
    // the others serve; an assembly that takes `frost` is refused with its diagnostics
    assert_eq!(
        store.resolve_prompt("persona", "default", &[]).unwrap(),
        "You help the Rosewood Club."
    );
    assert!(matches!(
        store.build_system_prompt("default", &[]),
        Err(StoreError::Refused { .. })
    ));

    // In a folder PromptEngine keeps, its system registry is the application's (PersonaUI
    // tracks it): a key the system manifest names goes in the user registry too.
    write(
        &dir,
        &[
            ("_meta/user_manifest.json", r#"{"prompts": {}}"#),
            (
                "_meta/prompt_manifest.json",
                &MANIFEST.replace(r#"["forecast"]"#, r#"["frost_date"]"#),
            ),
        ],
    );
    let store = Store::open_folder(&dir).unwrap();
    let text = store.problems()[0].1.to_string();
    assert!(
        text.contains(
            "add `frost_date` to `_meta/user_placeholder_registry.json` (`Store::add_placeholder`)"
        ),
        "{text}"
    );
    assert!(
        !text.contains("to `_meta/placeholder_registry.json`"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "archive")]
mod archives {
    use super::*;
    use promptic::store::ImportMode;
    use std::io::{Read, Write};

    fn entries(zip: &Path) -> BTreeMap<String, String> {
        let mut archive = zip::ZipArchive::new(std::fs::File::open(zip).unwrap()).unwrap();
        let mut out: BTreeMap<String, String> = BTreeMap::new();
        for i in 0..archive.len() {
            let mut entry = archive.by_index(i).unwrap();
            let name: String = entry.name().unwrap().into_owned();
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            out.insert(name, text);
        }
        out
    }

    #[test]
    fn an_export_is_promptengines_archive_and_an_import_writes_it_as_promptengine_does() {
        let dir = scratch("archive");
        let (from, to) = (dir.join("from"), dir.join("to"));
        stock(&from);
        stock(&to);
        let source = Store::open_folder(&from).unwrap();
        customize(&source);
        let zip = dir.join("garden.zip");
        let summary = source.export_prompts(&zip).unwrap();
        assert_eq!(summary.placeholders, ["pet"]);
        // PromptEngine's layout: its `_meta/` files, the domain files under `prompts/`
        let files = entries(&zip);
        assert_eq!(
            files.keys().collect::<Vec<_>>(),
            [
                "_meta/placeholder_registry.json",
                "_meta/prompt_manifest.json",
                "_meta/user_manifest.json",
                "_meta/user_placeholder_registry.json",
                "metadata.json",
                "prompts/dog.json",
                "prompts/garden.json",
                "prompts/persona.json",
            ]
        );
        assert_eq!(
            files["prompts/persona.json"],
            std::fs::read_to_string(from.join("persona.json")).unwrap()
        );
        let metadata: Value = serde_json::from_str(&files["metadata.json"]).unwrap();
        assert_eq!(metadata["version"], "4");
        assert_eq!(metadata["prompt_count"], 4);
        assert!(
            metadata["export_date"]
                .as_str()
                .is_some_and(|d| d.contains('T'))
        );

        // merge: only the files the folder lacks
        let target = Store::open_folder(&to).unwrap();
        let merged = target.import_prompts_with(&zip, ImportMode::Merge).unwrap();
        assert_eq!(
            merged.imported,
            [
                "dog.json",
                "_meta/user_placeholder_registry.json",
                "_meta/user_manifest.json"
            ]
        );
        assert_eq!(merged.skipped.len(), 4);
        assert_eq!(
            target.build_system_prompt("default", &[]).unwrap(),
            "You help the Rosewood Club.\n\nPlant bulbs in autumn.\n\nMoss digs in the beds."
        );
        // replace: every file of the archive
        target
            .import_prompts_with(&zip, ImportMode::Replace)
            .unwrap();
        assert_eq!(target.build_system_prompt("default", &[]).unwrap(), CUSTOM);
        for rel in ["persona.json", "_meta/prompt_manifest.json", "dog.json"] {
            assert_eq!(
                std::fs::read(to.join(rel)).unwrap(),
                std::fs::read(from.join(rel)).unwrap(),
                "{rel}"
            );
        }
        assert_eq!(
            Store::open_folder(&to)
                .unwrap()
                .build_system_prompt("default", &[])
                .unwrap(),
            CUSTOM
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn zip_of(path: &Path, files: &[(&str, &str)]) {
        let mut writer = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
        for (name, text) in files {
            writer
                .start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            writer.write_all(text.as_bytes()).unwrap();
        }
        writer.finish().unwrap();
    }

    #[test]
    fn a_replace_without_a_user_manifest_removes_it_and_a_bad_archive_changes_nothing() {
        let dir = scratch("archive-bad");
        let folder = dir.join("folder");
        stock(&folder);
        let store = Store::open_folder(&folder).unwrap();
        customize(&store);
        let before = tree(&folder);

        // no manifest: not PromptEngine's archive
        let zip = dir.join("a.zip");
        zip_of(&zip, &[("prompts/persona.json", PERSONA)]);
        let e = store.import_prompts(&zip).unwrap_err().to_string();
        assert!(e.contains("has no `_meta/prompt_manifest.json`"), "{e}");
        // an entry that is not JSON (PromptEngine writes the others; promptic nothing)
        zip_of(
            &zip,
            &[
                ("_meta/prompt_manifest.json", MANIFEST),
                ("prompts/persona.json", PERSONA),
                ("prompts/garden.json", "{\"planting\": "),
            ],
        );
        let e = store
            .import_prompts_with(&zip, ImportMode::Replace)
            .unwrap_err();
        assert!(matches!(e, StoreError::Archive { .. }));
        assert!(
            e.to_string().contains("`prompts/garden.json` is not JSON"),
            "{e}"
        );
        // a text with an unknown key would refuse a prompt: the import is refused
        zip_of(
            &zip,
            &[
                ("_meta/prompt_manifest.json", MANIFEST),
                (
                    "prompts/persona.json",
                    r#"{"persona": {"variants": {"default": {"content": "{{clubb}}"}}}}"#,
                ),
            ],
        );
        let e = store
            .import_prompts_with(&zip, ImportMode::Overwrite)
            .unwrap_err()
            .to_string();
        assert!(e.contains("did you mean `{{club}}`?"), "{e}");
        assert_eq!(tree(&folder), before);
        assert_eq!(store.build_system_prompt("default", &[]).unwrap(), CUSTOM);

        // replace with the stock files only: the user manifest goes, as in PromptEngine
        zip_of(
            &zip,
            &[
                ("_meta/prompt_manifest.json", MANIFEST),
                ("prompts/persona.json", PERSONA),
                ("prompts/garden.json", GARDEN),
                ("prompts/_skipped.json", "{}"),
            ],
        );
        let summary = store
            .import_prompts_with(&zip, ImportMode::Replace)
            .unwrap();
        assert_eq!(summary.removed, ["_meta/user_manifest.json"]);
        assert!(!folder.join("_meta/user_manifest.json").exists());
        assert!(!folder.join("_skipped.json").exists());
        assert_eq!(store.build_system_prompt("default", &[]).unwrap(), STOCK);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Every regular file under `dir` with its bytes (a FIFO is never opened: reading it
/// would block).
fn regular_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && !path.ends_with(".promptic.lock") {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// A reset that cannot copy one of the factory files (here a FIFO where
/// `_defaults/persona.json` should be) is an error before anything is written: the
/// customized prompt stays as it was, and so does every file.
#[test]
fn a_factory_reset_that_cannot_copy_a_default_changes_nothing() {
    let dir = scratch("fifo-reset");
    stock(&dir);
    let store = Store::open_folder(&dir).unwrap();
    store
        .update_prompt("persona", "default", "You help the {{club}}, kindly.")
        .unwrap();
    let fifo = dir.join("_defaults/persona.json");
    std::fs::remove_file(&fifo).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo failed");
    let before = regular_files(&dir);
    let error = store.factory_reset().unwrap_err().to_string();
    assert!(
        error.contains("`_defaults/persona.json` is not a regular file"),
        "{error}"
    );
    assert!(error.contains("nothing was changed"), "{error}");
    assert_eq!(regular_files(&dir), before);
    assert_eq!(
        store.resolve_prompt("persona", "default", &[]).unwrap(),
        "You help the Rosewood Club, kindly."
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A user manifest that points a prompt at the factory defaults (or at `_meta/`) is
/// refused where the manifest is read, as a domain file outside the folder is: an edit of
/// that prompt would otherwise be written into what a reset restores.
#[test]
fn a_domain_file_inside_defaults_or_meta_is_refused_where_the_manifest_is_read() {
    for (file, inside) in [
        ("_defaults/persona.json", "_defaults/"),
        ("_meta/placeholder_registry.json", "_meta/"),
    ] {
        let dir = scratch("reserved-domain");
        stock(&dir);
        write(
            &dir,
            &[(
                "_meta/user_manifest.json",
                &format!(
                    r#"{{"prompts": {{"persona": {{"domain_file": "{file}", "order": 100}}}}}}"#
                ),
            )],
        );
        let Err(StoreError::Invalid(problems)) = Store::open_folder(&dir) else {
            panic!("a domain file inside `{inside}` was accepted");
        };
        let text = problems.to_string();
        assert!(
            text.contains(&format!(
                "domain file `{file}` of prompt `persona` is inside `{inside}`"
            )),
            "{text}"
        );
        assert!(text.contains("_meta/user_manifest.json:1:41"), "{text}");
        assert!(text.contains("such as `"), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A registry that does not read leaves the texts unchecked, but every other problem of
/// the folder is still reported, at once: a domain file that is not JSON, one that is not
/// UTF-8, one that is missing. No follow-on error about the keys the texts use.
#[test]
fn a_broken_registry_is_reported_with_every_other_problem_and_no_follow_on() {
    let dir = scratch("broken-registry");
    write(
        &dir,
        &[
            (
                "_meta/placeholder_registry.json",
                r#"{"placeholders": {"club": {"resolve_phase": "static", "default": "R"},}"#,
            ),
            (
                "_meta/prompt_manifest.json",
                r#"{"prompts": {
  "persona": {"domain_file": "persona.json", "order": 1},
  "broken": {"domain_file": "broken.json", "order": 2},
  "latin1": {"domain_file": "latin1.json", "order": 3},
  "missing": {"domain_file": "missing.json", "order": 4}}}"#,
            ),
            ("persona.json", PERSONA),
            (
                "broken.json",
                r#"{"broken": {"variants": {"default": {"content": "x"}}"#,
            ),
        ],
    );
    std::fs::write(
        dir.join("latin1.json"),
        b"{\"latin1\": {\"variants\": {\"default\": {\"content\": \"caf\xe9\"}}}}",
    )
    .unwrap();
    let problems = Defaults::load_folder(&dir).unwrap_err();
    let text = problems.to_string();
    assert_eq!(problems.0.len(), 4, "{text}");
    assert!(
        text.contains("placeholder_registry.json` is not valid JSON"),
        "{text}"
    );
    assert!(text.contains("broken.json` is not valid JSON"), "{text}");
    assert!(text.contains("latin1.json` is not valid UTF-8"), "{text}");
    assert!(text.contains("domain file `"), "{text}");
    assert!(
        text.contains("missing.json` of prompt `missing` does not exist"),
        "{text}"
    );
    assert!(!text.contains("unknown placeholder"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// One domain file holding many prompts (PromptEngine's code form) is read in time in
/// proportion to the prompts: ten times the prompts take about ten times as long, not a
/// hundred (each prompt once parsed the whole file). Measured as a ratio in one run, the
/// best of three of each size.
#[test]
fn one_domain_file_of_many_prompts_reads_in_linear_time() {
    let folder = |n: usize| {
        let dir = scratch(&format!("one-file-{n}"));
        let manifest: serde_json::Map<String, Value> = (0..n)
            .map(|i| {
                (
                    format!("p{i}"),
                    json!({"domain_file": "all.json", "order": i}),
                )
            })
            .collect();
        let domain: serde_json::Map<String, Value> = (0..n)
            .map(|i| {
                (
                    format!("p{i}"),
                    json!({"variants": {"default": {"content": format!("Rule {i} of the {{{{club}}}}.")}}}),
                )
            })
            .collect();
        write(
            &dir,
            &[
                ("_meta/placeholder_registry.json", REGISTRY),
                (
                    "_meta/prompt_manifest.json",
                    &json!({"prompts": manifest}).to_string(),
                ),
                ("all.json", &Value::Object(domain).to_string()),
            ],
        );
        dir
    };
    let time = |dir: &Path, n: usize| {
        (0..3)
            .map(|_| {
                let start = std::time::Instant::now();
                let store = Store::open_folder(dir).unwrap();
                let system = store.build_system_prompt("default", &[]).unwrap();
                assert_eq!(system.matches("Rosewood").count(), n);
                start.elapsed()
            })
            .min()
            .unwrap()
    };
    let (small, large) = (600, 6_000);
    let (a, b) = (folder(small), folder(large));
    let ratio = time(&b, large).as_secs_f64() / time(&a, small).as_secs_f64().max(1e-6);
    // Linear is about 10; the quadratic reading was about 100.
    assert!(ratio < 35.0, "10× the prompts took {ratio:.1}× as long");
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}
