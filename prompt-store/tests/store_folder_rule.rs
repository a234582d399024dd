//! A store over real folders: nothing is read outside the store folder or the user folder
//! (links out are named), only regular files within the size limit are read, nothing is
//! written outside the user folder, and an edit of one prompt never loses another's text,
//! whatever the ids and whatever the user manifest names.
#![cfg(unix)]

use promptic::load::MAX_FILE;
use promptic::store::{Defaults, Store, StoreError};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::Duration;

const REGISTRY: &str = r#"{"placeholders": {}}"#;

/// A fresh folder with `store/` (prompts `a` and `b`), an empty `user/` and `outside/`.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("store-folder-rule-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write(
        &dir.join("store"),
        &[
            (
                "_meta/prompt_manifest.json",
                r#"{"prompts": {"a": {"domain": "a"}, "b": {"domain": "b"}}}"#,
            ),
            ("_meta/placeholder_registry.json", REGISTRY),
            ("a.json", r#"{"variants": {"default": {"text": "A"}}}"#),
            ("b.json", r#"{"variants": {"default": {"text": "B"}}}"#),
        ],
    );
    std::fs::create_dir_all(dir.join("user")).unwrap();
    std::fs::create_dir_all(dir.join("outside")).unwrap();
    std::fs::write(dir.join("outside/secret.json"), r#"{"SECRET": 1}"#).unwrap();
    dir
}

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn defaults(dir: &Path) -> Defaults {
    Defaults::load(dir.join("store")).unwrap_or_else(|e| panic!("{e}"))
}

fn open(dir: &Path) -> Result<Store, StoreError> {
    Store::builder(defaults(dir))
        .user_dir(dir.join("user"))
        .open()
}

/// The names under `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(Duration::from_secs(20))
        .expect("the read blocked")
}

fn mkfifo(path: &Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

// --- reads ---------------------------------------------------------------------------

#[test]
fn a_domain_file_linked_out_of_the_store_is_named_and_not_read() {
    let dir = scratch("domain-out");
    std::fs::remove_file(dir.join("store/a.json")).unwrap();
    symlink(dir.join("outside/secret.json"), dir.join("store/a.json")).unwrap();
    let shown = dir.join("store").to_string_lossy().into_owned();
    let e = Defaults::load(dir.join("store")).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "`{shown}/a.json` is a link to `{}`, outside `{shown}/`, so it is not read",
            dir.join("outside/secret.json").display()
        )),
        "{e}"
    );
    assert!(!e.contains("SECRET"), "{e}");
}

#[test]
fn a_meta_folder_linked_out_is_named() {
    let dir = scratch("meta-out");
    std::fs::rename(dir.join("store/_meta"), dir.join("outside/_meta")).unwrap();
    symlink(dir.join("outside/_meta"), dir.join("store/_meta")).unwrap();
    let shown = dir.join("store").to_string_lossy().into_owned();
    let e = Defaults::load(dir.join("store")).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "`{shown}/_meta` is a link to `{}`, outside `{shown}/`, so `{shown}/_meta/prompt_manifest.json` is not read",
            dir.join("outside/_meta").display()
        )),
        "{e}"
    );
    // the user folder's `_meta` too
    let dir = scratch("user-meta-out");
    std::fs::create_dir_all(dir.join("outside/meta")).unwrap();
    std::fs::write(
        dir.join("outside/meta/user_manifest.json"),
        r#"{"prompts": {}}"#,
    )
    .unwrap();
    symlink(dir.join("outside/meta"), dir.join("user/_meta")).unwrap();
    let e = open(&dir).unwrap_err().to_string();
    assert!(e.contains("/user/_meta` is a link to"), "{e}");
}

#[test]
fn a_registry_linked_to_a_device_is_refused_at_once() {
    let dir = scratch("registry-zero");
    std::fs::remove_file(dir.join("store/_meta/placeholder_registry.json")).unwrap();
    symlink(
        "/dev/zero",
        dir.join("store/_meta/placeholder_registry.json"),
    )
    .unwrap();
    let e = within(move || Defaults::load(dir.join("store")).unwrap_err().to_string());
    assert!(e.contains("is a link to `/dev/zero`"), "{e}");
}

#[test]
fn fifos_as_domain_file_or_user_manifest_do_not_block() {
    let dir = scratch("fifo");
    std::fs::remove_file(dir.join("store/b.json")).unwrap();
    if !mkfifo(&dir.join("store/b.json")) {
        eprintln!("no mkfifo; skipped");
        return;
    }
    let again = dir.clone();
    let e = within(move || Defaults::load(again.join("store")).unwrap_err().to_string());
    assert!(
        e.contains("/store/b.json` is a FIFO (named pipe), not a regular file"),
        "{e}"
    );
    std::fs::remove_file(dir.join("store/b.json")).unwrap();
    std::fs::write(
        dir.join("store/b.json"),
        r#"{"variants": {"default": {"text": "B"}}}"#,
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("user/_meta")).unwrap();
    assert!(mkfifo(&dir.join("user/_meta/user_manifest.json")));
    let e = within(move || open(&dir).unwrap_err().to_string());
    assert!(
        e.contains("/user/_meta/user_manifest.json` is a FIFO"),
        "{e}"
    );
}

#[test]
fn a_user_manifest_over_the_limit_is_refused_by_its_size() {
    let dir = scratch("large");
    std::fs::create_dir_all(dir.join("user/_meta")).unwrap();
    std::fs::File::create(dir.join("user/_meta/user_manifest.json"))
        .unwrap()
        .set_len(MAX_FILE + 1)
        .unwrap();
    let e = open(&dir).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "user_manifest.json` is {} bytes, more than promptic reads from one file",
            MAX_FILE + 1
        )),
        "{e}"
    );
}

#[test]
fn links_inside_the_store_keep_working() {
    let dir = scratch("inside");
    std::fs::rename(dir.join("store/a.json"), dir.join("store/real_a.json")).unwrap();
    symlink("real_a.json", dir.join("store/a.json")).unwrap();
    let store = open(&dir).unwrap();
    assert_eq!(store.build_system_prompt("default", &[]).unwrap(), "A\n\nB");
}

// --- writes --------------------------------------------------------------------------

#[test]
fn an_edit_through_a_prompts_folder_linked_out_is_refused_and_writes_nothing() {
    let dir = scratch("write-prompts-out");
    std::fs::create_dir_all(dir.join("outside/prompts")).unwrap();
    symlink(dir.join("outside/prompts"), dir.join("user/prompts")).unwrap();
    let store = open(&dir).unwrap();
    let e = store.update_prompt("a", "default", "Changed.").unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, StoreError::Write { .. }), "{text}");
    assert!(
        text.contains(&format!(
            "`{}` is a link to `{}`, outside `{}/`",
            dir.join("user/prompts").display(),
            dir.join("outside/prompts").display(),
            dir.join("user").display()
        )),
        "{text}"
    );
    assert!(text.contains("nothing was written"), "{text}");
    assert!(listing(&dir.join("outside/prompts")).is_empty());
    // not even the manifest, which would have named the file
    assert!(!dir.join("user/_meta/user_manifest.json").exists());
    assert_eq!(store.resolve_prompt("a", "default", &[]).unwrap(), "A");
    // an edit that needs no file under `prompts/` still works
    store.set_enabled("b", "default", false).unwrap();
    assert_eq!(
        open(&dir)
            .unwrap()
            .build_system_prompt("default", &[])
            .unwrap(),
        "A"
    );
}

#[test]
fn a_lock_file_linked_out_is_not_created() {
    let dir = scratch("lock-out");
    std::fs::create_dir_all(dir.join("user/_meta")).unwrap();
    symlink(
        dir.join("outside/lock"),
        dir.join("user/_meta/.promptic.lock"),
    )
    .unwrap();
    let store = open(&dir).unwrap();
    let e = store
        .update_prompt("a", "default", "Changed.")
        .unwrap_err()
        .to_string();
    assert!(e.contains(".promptic.lock` is a link to"), "{e}");
    assert!(
        !dir.join("outside/lock").exists(),
        "a file was created outside"
    );
    assert_eq!(listing(&dir.join("user/_meta")), [".promptic.lock"]);
}

#[test]
fn a_migration_with_its_backups_folder_linked_out_writes_nothing() {
    let dir = scratch("migrate-out");
    // an old single-manifest PromptEngine folder: `a` turned off in place, and a prompt of
    // the user's (`mine`), which the migration would move to a user manifest
    write(
        &dir.join("user"),
        &[
            (
                "_meta/prompt_manifest.json",
                r#"{"prompts": {"a": {"domain": "a", "enabled": false}, "b": {"domain": "b"}, "mine": {"domain": "a"}}}"#,
            ),
            ("_meta/placeholder_registry.json", REGISTRY),
            ("a.json", r#"{"variants": {"default": {"text": "A"}}}"#),
            ("b.json", r#"{"variants": {"default": {"text": "B"}}}"#),
        ],
    );
    std::fs::create_dir_all(dir.join("outside/backups")).unwrap();
    symlink(dir.join("outside/backups"), dir.join("user/_meta/_backups")).unwrap();
    let e = open(&dir).unwrap_err().to_string();
    assert!(e.contains("/user/_meta/_backups` is a link to"), "{e}");
    assert!(listing(&dir.join("outside/backups")).is_empty());
    assert!(!dir.join("user/_meta/user_manifest.json").exists());
}

#[test]
fn the_open_sweeps_no_folder_linked_out() {
    let dir = scratch("sweep-out");
    std::fs::create_dir_all(dir.join("outside/prompts")).unwrap();
    // a name a crashed write's temporary file would have
    std::fs::write(dir.join("outside/prompts/.x.json.1.1.tmp"), "keep").unwrap();
    symlink(dir.join("outside/prompts"), dir.join("user/prompts")).unwrap();
    std::fs::create_dir_all(dir.join("user/_meta")).unwrap();
    open(&dir).unwrap();
    assert_eq!(listing(&dir.join("outside/prompts")), [".x.json.1.1.tmp"]);
}

// --- no edit loses another prompt ----------------------------------------------------

fn store_with(dir: &Path, ids: &[&str]) -> Defaults {
    let entries: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            format!(
                "{}: {{\"domain\": \"d{i}\"}}",
                serde_json::to_string(id).unwrap()
            )
        })
        .collect();
    let manifest = format!("{{\"prompts\": {{{}}}}}", entries.join(", "));
    let mut files = vec![
        ("_meta/prompt_manifest.json".to_owned(), manifest),
        (
            "_meta/placeholder_registry.json".to_owned(),
            REGISTRY.to_owned(),
        ),
    ];
    for i in 0..ids.len() {
        files.push((
            format!("d{i}.json"),
            format!("{{\"variants\": {{\"default\": {{\"text\": \"default {i}\"}}}}}}"),
        ));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    write(&dir.join("ids"), &files);
    Defaults::load(dir.join("ids")).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn ids_whose_old_names_collided_keep_their_own_files_across_a_reopen() {
    let dir = scratch("collision");
    let long = "x".repeat(300);
    let ids = ["a.b", "_612e62", "A.B", "a%2Eb", long.as_str()];
    let defaults = store_with(&dir, &ids);
    let user = dir.join("user");
    let store = Store::builder(defaults.clone())
        .user_dir(&user)
        .open()
        .unwrap();
    for id in ids {
        store
            .update_prompt(
                id,
                "default",
                &format!("edited {}", &id[..id.len().min(10)]),
            )
            .unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    let reopened = Store::builder(defaults).user_dir(&user).open().unwrap();
    for id in ids {
        assert_eq!(
            reopened.resolve_prompt(id, "default", &[]).unwrap(),
            format!("edited {}", &id[..id.len().min(10)]),
            "{id}"
        );
    }
    let files = listing(&user.join("prompts"));
    assert_eq!(files.len(), ids.len(), "{files:?}");
    assert!(files.iter().all(|f| f.len() <= 255), "{files:?}");
    assert!(files.contains(&"_612e62.json".to_owned()), "{files:?}");
    assert!(files.contains(&"a%2Eb.json".to_owned()), "{files:?}");
}

#[test]
fn a_prompt_of_the_users_own_with_a_long_id_is_saved_and_reopened() {
    let dir = scratch("long-id");
    let id = "p".repeat(240);
    let store = open(&dir).unwrap();
    store.create_prompt(&id, "Mine.").unwrap();
    assert_eq!(
        open(&dir)
            .unwrap()
            .resolve_prompt(&id, "default", &[])
            .unwrap(),
        "Mine."
    );
}

#[test]
fn an_edit_never_writes_into_the_file_another_prompt_names() {
    let dir = scratch("alias");
    // by hand: prompt `a`'s customization lives in `prompts/b.json`
    write(
        &dir.join("user"),
        &[
            (
                "_meta/user_manifest.json",
                r#"{"prompts": {"a": {"domain": "prompts/b.json"}}}"#,
            ),
            (
                "prompts/b.json",
                r#"{"variants": {"default": {"text": "A customized"}}}"#,
            ),
        ],
    );
    let store = open(&dir).unwrap();
    store.update_prompt("b", "default", "B edited").unwrap();
    // and a prompt of the user's own named like a taken file
    store.create_prompt("mine", "Mine.").unwrap();
    for store in [store, open(&dir).unwrap()] {
        assert_eq!(
            store.resolve_prompt("a", "default", &[]).unwrap(),
            "A customized"
        );
        assert_eq!(
            store.resolve_prompt("b", "default", &[]).unwrap(),
            "B edited"
        );
        assert_eq!(
            store.resolve_prompt("mine", "default", &[]).unwrap(),
            "Mine."
        );
    }
    assert_eq!(
        listing(&dir.join("user/prompts")),
        ["b.1.json", "b.json", "mine.json"]
    );
}

#[test]
fn two_prompts_reading_one_single_prompt_file_are_refused_with_its_location() {
    let dir = scratch("shared");
    write(
        &dir.join("user"),
        &[
            (
                "_meta/user_manifest.json",
                "{\"prompts\": {\n  \"a\": {\"domain\": \"prompts/x.json\"},\n  \"b\": {\"domain\": \"prompts/x.json\"}\n}}",
            ),
            (
                "prompts/x.json",
                r#"{"variants": {"default": {"text": "shared"}}}"#,
            ),
        ],
    );
    let e = open(&dir).unwrap_err().to_string();
    let user = dir.join("user").to_string_lossy().into_owned();
    assert!(
        e.contains(&format!(
            "error: prompts `a` and `b` share the domain file `{user}/prompts/x.json`: an edit of one would change the other\n --> {user}/_meta/user_manifest.json:3:19"
        )),
        "{e}"
    );
    assert!(
        e.contains(&format!(
            "note: prompt `a` names it at {user}/_meta/user_manifest.json:2:19"
        )),
        "{e}"
    );
}

#[test]
fn prompts_kept_apart_by_id_in_one_file_share_it_and_keep_their_texts() {
    let dir = scratch("shared-by-id");
    // PromptEngine's duplicate of a prompt: one file, each prompt under its id
    write(
        &dir.join("user"),
        &[
            (
                "_meta/user_manifest.json",
                r#"{"prompts": {"a": {"domain": "prompts/x.json"}, "copy": {"domain": "prompts/x.json"}}}"#,
            ),
            (
                "prompts/x.json",
                r#"{"a": {"variants": {"default": {"content": "A here"}}}, "copy": {"variants": {"default": {"content": "Copy"}}}}"#,
            ),
        ],
    );
    let store = open(&dir).unwrap();
    store.update_prompt("a", "default", "A edited").unwrap();
    assert_eq!(
        store.resolve_prompt("copy", "default", &[]).unwrap(),
        "Copy"
    );
    // removing the copy keeps the file `a` still reads
    store.delete_prompt("copy").unwrap();
    let store = open(&dir).unwrap();
    assert_eq!(
        store.resolve_prompt("a", "default", &[]).unwrap(),
        "A edited"
    );
    assert!(dir.join("user/prompts/x.json").exists());
}

#[cfg(feature = "archive")]
#[test]
fn an_import_through_a_prompts_folder_linked_out_writes_nothing() {
    let dir = scratch("import-out");
    let clean = dir.join("clean");
    let store = Store::builder(defaults(&dir))
        .user_dir(&clean)
        .open()
        .unwrap();
    store.update_prompt("a", "default", "Edited").unwrap();
    store.export_prompts(dir.join("backup.zip")).unwrap();
    std::fs::create_dir_all(dir.join("outside/prompts")).unwrap();
    symlink(dir.join("outside/prompts"), dir.join("user/prompts")).unwrap();
    let store = open(&dir).unwrap();
    let e = store
        .import_prompts(dir.join("backup.zip"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!(
            "`{}` is a link to `{}`",
            dir.join("user/prompts").display(),
            dir.join("outside/prompts").display()
        )),
        "{e}"
    );
    assert!(listing(&dir.join("outside/prompts")).is_empty());
    assert!(!dir.join("user/_meta/user_manifest.json").exists());
    assert_eq!(store.resolve_prompt("a", "default", &[]).unwrap(), "A");
    // an archive that is a FIFO is refused without blocking
    if mkfifo(&dir.join("pipe.zip")) {
        let pipe = dir.join("pipe.zip");
        let e = within(move || store.import_prompts(pipe).unwrap_err().to_string());
        assert!(e.contains("is a FIFO (named pipe)"), "{e}");
    }
}

#[test]
fn a_user_folder_written_with_the_old_file_names_still_opens_and_edits_in_place() {
    let dir = scratch("old-names");
    let defaults = store_with(&dir, &["a.b"]);
    // the name an earlier promptic gave prompt `a.b`: `_` and its id in hex
    write(
        &dir.join("user"),
        &[
            (
                "_meta/user_manifest.json",
                r#"{"prompts": {"a.b": {"domain": "prompts/_612e62.json"}}}"#,
            ),
            (
                "prompts/_612e62.json",
                r#"{"variants": {"default": {"text": "old edit"}}}"#,
            ),
        ],
    );
    let user = dir.join("user");
    let store = Store::builder(defaults.clone())
        .user_dir(&user)
        .open()
        .unwrap();
    assert_eq!(
        store.resolve_prompt("a.b", "default", &[]).unwrap(),
        "old edit"
    );
    store.update_prompt("a.b", "default", "new edit").unwrap();
    let store = Store::builder(defaults).user_dir(&user).open().unwrap();
    assert_eq!(
        store.resolve_prompt("a.b", "default", &[]).unwrap(),
        "new edit"
    );
    assert_eq!(listing(&user.join("prompts")), ["_612e62.json"]);
}

#[test]
fn the_defaults_may_not_share_a_single_prompt_file_either() {
    let files: &[(&str, &[u8])] = &[
        (
            "_meta/prompt_manifest.json",
            br#"{"prompts": {"a": {"domain": "x"}, "b": {"domain": "x.json"}}}"#,
        ),
        ("_meta/placeholder_registry.json", REGISTRY.as_bytes()),
        ("x.json", br#"{"variants": {"default": {"text": "X"}}}"#),
    ];
    let e = Defaults::from_files("p", files).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "error: prompts `a` and `b` share the domain file `p/x.json`: an edit of one would change the other\n --> p/_meta/prompt_manifest.json:1:52"
        ),
        "{e}"
    );
}
