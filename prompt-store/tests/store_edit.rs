//! Editing a store while it is in use, over real user folders: edits are checked before
//! anything is written, land in the user layer only, survive a fresh open, and survive
//! each other when threads edit at once.

use promptic::store::{Defaults, Store, StoreError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn seed_style() -> Defaults {
    Defaults::load(root().join("examples/persona_prompts")).unwrap_or_else(|e| panic!("{e}"))
}

/// A fresh folder under the target dir for a test that writes.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("store-edit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file under `dir` with its bytes, by path; the folder's lock file aside.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if !path.ends_with("_meta/.promptic.lock") {
                out.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn persona(user: &Path) -> Store {
    Store::builder(seed_style())
        .user_dir(user)
        .static_value("char_name", "Luna")
        .computed("current_date", || "today".into())
        .open()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn an_edit_is_checked_then_written_to_the_user_layer_only() {
    let user = scratch("update");
    let defaults_before = tree(&root().join("examples/persona_prompts"));
    let store = persona(&user);
    let original = store.resolve_prompt("system_rule", "default", &[]).unwrap();

    let e = store
        .update_prompt(
            "system_rule",
            "default",
            "Rules.\nYou are {{char_nmae}}.\n{{char_nmae}} speaks.",
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "error: unknown placeholder `{{char_nmae}}` in the new text of variant `default` of prompt `system_rule`
 --> system_rule/default (edit):2:9
  |
2 | You are {{char_nmae}}.
  |         ^^^^^^^^^^^^^
  = help: did you mean `{{char_name}}`?
  = note: also written at system_rule/default (edit):3:1"
    );
    assert!(
        tree(&user).is_empty(),
        "a refused edit wrote {:?}",
        tree(&user)
    );
    assert_eq!(
        store.resolve_prompt("system_rule", "default", &[]).unwrap(),
        original
    );

    store
        .update_prompt("system_rule", "default", "You are {{char_name}}, always.")
        .unwrap();
    assert_eq!(
        store.resolve_prompt("system_rule", "default", &[]).unwrap(),
        "You are Luna, always."
    );
    // the other variant is kept as it was
    assert!(
        store
            .resolve_prompt("system_rule", "experimental", &[])
            .unwrap()
            .contains("You may try new kinds of answers.")
    );
    let written = tree(&user);
    let names: Vec<_> = written
        .keys()
        .map(|p| {
            p.strip_prefix(&user)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    assert_eq!(
        names,
        ["_meta/user_manifest.json", "prompts/system_rule.json"]
    );
    assert_eq!(
        tree(&root().join("examples/persona_prompts")),
        defaults_before
    );

    // a fresh open reads it; a second edit of the same prompt rewrites its file only
    let again = persona(&user);
    assert_eq!(
        again.resolve_prompt("system_rule", "default", &[]).unwrap(),
        "You are Luna, always."
    );
    let manifest = std::fs::read(user.join("_meta/user_manifest.json")).unwrap();
    again
        .update_prompt("system_rule", "experimental", "Try things, {{char_name}}.")
        .unwrap();
    assert_eq!(
        std::fs::read(user.join("_meta/user_manifest.json")).unwrap(),
        manifest
    );
    assert_eq!(
        persona(&user)
            .resolve_prompt("system_rule", "experimental", &[])
            .unwrap(),
        "Try things, Luna."
    );

    // reset: the defaults again, the user domain file gone
    again.reset_prompt_to_default("system_rule").unwrap();
    assert_eq!(
        again.resolve_prompt("system_rule", "default", &[]).unwrap(),
        original
    );
    assert!(!user.join("prompts/system_rule.json").exists());
    assert_eq!(
        persona(&user)
            .resolve_prompt("system_rule", "default", &[])
            .unwrap(),
        original
    );
    // a multi_turn prompt holds messages, not a text
    assert!(matches!(
        again.update_prompt("example_dialog", "experimental", "x"),
        Err(StoreError::NotText { .. })
    ));
}

#[test]
fn a_code_style_domain_keeps_its_form_and_content_field() {
    let user = scratch("code-style");
    let defaults = Defaults::load(root().join("tests/stores/code_style")).unwrap();
    let open = || {
        Store::builder(defaults.clone())
            .user_dir(&user)
            .computed("weekday", || "Monday".into())
            .open()
            .unwrap()
    };
    open()
        .update_prompt("ground_rules", "default", "Be brief, {{char_name}}.")
        .unwrap();
    let file = std::fs::read_to_string(user.join("prompts/ground_rules.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&file).unwrap();
    assert_eq!(
        json["ground_rules"]["variants"]["default"]["content"],
        "Be brief, {{char_name}}."
    );
    assert!(
        json["ground_rules"]["variants"]["default"]
            .get("text")
            .is_none()
    );
    let text = open()
        .build_system_prompt("default", &[("history_summary", "x")])
        .unwrap();
    assert!(text.starts_with("Be brief, Ada."), "{text}");
}

#[test]
fn factory_reset_undoes_every_edit_flag_and_user_prompt() {
    let user = scratch("factory");
    let store = persona(&user);
    let fresh = store
        .build_system_prompt("default", &[("mood", "calm")])
        .unwrap();
    store
        .update_prompt("time_sense", "default", "Time: {{current_date}}.")
        .unwrap();
    store
        .set_enabled("persona_description", "default", false)
        .unwrap();
    store
        .create_prompt("my_note", "Note for {{char_name}}.")
        .unwrap();
    let edited = persona(&user)
        .build_system_prompt("default", &[("mood", "calm")])
        .unwrap();
    assert_ne!(edited, fresh);
    assert!(edited.ends_with("Note for Luna."), "{edited}");
    store.factory_reset().unwrap();
    assert_eq!(
        store
            .build_system_prompt("default", &[("mood", "calm")])
            .unwrap(),
        fresh
    );
    // Nothing is left but an empty user manifest (so an old single-manifest folder is not
    // migrated again).
    let left = tree(&user);
    assert_eq!(
        left.into_iter().collect::<Vec<_>>(),
        [(
            user.join("_meta/user_manifest.json"),
            b"{\"prompts\": {}}\n".to_vec()
        )]
    );
    assert_eq!(
        persona(&user)
            .build_system_prompt("default", &[("mood", "calm")])
            .unwrap(),
        fresh
    );
}

const THREADS: usize = 4;
const EDITS: usize = 40;

/// `p0` … `p3`, one per thread, and `shared`, which every thread edits.
fn many() -> Defaults {
    let mut manifest = String::from(r#"{"prompts": {"#);
    let mut files: Vec<(String, String)> = Vec::new();
    for (i, id) in (0..THREADS)
        .map(|t| format!("p{t}"))
        .chain(["shared".to_owned()])
        .enumerate()
    {
        if i > 0 {
            manifest.push_str(", ");
        }
        manifest.push_str(&format!(r#""{id}": {{"domain": "{id}", "order": {i}}}"#));
        files.push((
            format!("{id}.json"),
            format!(r#"{{"variants": {{"default": {{"text": "{id} v0 {{{{who}}}}"}}}}}}"#),
        ));
    }
    manifest.push_str("}}");
    files.push(("_meta/prompt_manifest.json".into(), manifest));
    files.push((
        "_meta/placeholder_registry.json".into(),
        r#"{"placeholders": {"who": {"type": "static", "default": "x"}}}"#.into(),
    ));
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_bytes()))
        .collect();
    Defaults::from_files("many", &refs).unwrap_or_else(|e| panic!("{e}"))
}

/// Each prompt's text and flag, as a store shows them.
fn state(store: &Store) -> Vec<(String, bool)> {
    (0..THREADS)
        .map(|t| format!("p{t}"))
        .chain(["shared".to_owned()])
        .map(|id| {
            (
                store.resolve_prompt(&id, "default", &[]).unwrap(),
                store.is_enabled(&id, "default").unwrap(),
            )
        })
        .collect()
}

#[test]
fn renders_see_whole_states_while_threads_edit() {
    let user = scratch("readers");
    let store = Arc::new(Store::builder(many()).user_dir(&user).open().unwrap());
    let writers: Vec<_> = (0..2)
        .map(|t| {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                for n in 1..=EDITS / 2 {
                    store
                        .update_prompt(
                            &format!("p{t}"),
                            "default",
                            &format!("p{t} v{n} {{{{who}}}}"),
                        )
                        .unwrap();
                }
            })
        })
        .collect();
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                let mut last = [0usize; 2];
                for _ in 0..200 {
                    let text = store.build_system_prompt("default", &[]).unwrap();
                    let blocks: Vec<&str> = text.split("\n\n").collect();
                    assert_eq!(blocks.len(), THREADS + 1, "{text}");
                    for (t, seen) in last.iter_mut().enumerate() {
                        let version: usize = blocks[t]
                            .strip_prefix(&format!("p{t} v"))
                            .and_then(|r| r.strip_suffix(" x"))
                            .and_then(|n| n.parse().ok())
                            .unwrap_or_else(|| panic!("torn block {:?}", blocks[t]));
                        // states are swapped whole and in order: never an older one again
                        assert!(version >= *seen, "p{t}: v{version} after v{seen}");
                        *seen = version;
                    }
                }
            })
        })
        .collect();
    for h in writers.into_iter().chain(readers) {
        h.join().unwrap();
    }
}

#[test]
fn stress_concurrent_edits_all_survive_and_match_a_fresh_open() {
    let user = scratch("stress");
    let store = Arc::new(Store::builder(many()).user_dir(&user).open().unwrap());
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                // a small xorshift per thread: the same edits every run
                let mut seed = 0x9e37_79b9_u32 ^ (t as u32 + 1);
                let mut next = move || {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    seed
                };
                let own = format!("p{t}");
                let mut model = (format!("{own} v0 x"), true);
                let mut last_shared = None;
                for n in 1..=EDITS {
                    match next() % 3 {
                        0 => {
                            let text = format!("{own} v{n} {{{{who}}}}");
                            store.update_prompt(&own, "default", &text).unwrap();
                            model.0 = format!("{own} v{n} x");
                        }
                        1 => {
                            let on = next() % 2 == 0;
                            store.set_enabled(&own, "default", on).unwrap();
                            model.1 = on;
                        }
                        _ => {
                            let text = format!("shared by {t} at {n}");
                            store.update_prompt("shared", "default", &text).unwrap();
                            last_shared = Some(text);
                        }
                    }
                }
                (model, last_shared)
            })
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let shown = state(&store);
    let on_disk = state(&Store::builder(many()).user_dir(&user).open().unwrap());
    assert_eq!(on_disk, shown, "the store and a fresh open differ");
    for (t, (model, _)) in results.iter().enumerate() {
        assert_eq!(on_disk[t], *model, "p{t}: an edit was lost");
    }
    // the same prompt edited by every thread: one thread's last edit, whole
    let lasts: Vec<&String> = results.iter().filter_map(|(_, s)| s.as_ref()).collect();
    assert!(!lasts.is_empty());
    assert!(
        lasts.contains(&&on_disk[THREADS].0),
        "shared is {:?}, not one of {lasts:?}",
        on_disk[THREADS].0
    );
    // nothing left behind
    for path in tree(&user).keys() {
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(!name.ends_with(".tmp"), "{path:?}");
    }
}

#[test]
fn two_stores_on_one_folder_lose_no_edit() {
    // Two stores stand for two processes: each opens the lock file itself, and `flock`
    // locks between open files, in one process as between two.
    let user = scratch("two-stores");
    let open = || Arc::new(Store::builder(many()).user_dir(&user).open().unwrap());
    let stores = [open(), open()];
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let store = Arc::clone(&stores[t % 2]);
            std::thread::spawn(move || {
                for n in 1..=EDITS / 4 {
                    let text = format!("p{t} v{n} {{{{who}}}}");
                    store
                        .update_prompt(&format!("p{t}"), "default", &text)
                        .unwrap();
                    store
                        .set_enabled(&format!("p{t}"), "default", n % 2 == 0)
                        .unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let expected: Vec<(String, bool)> = (0..THREADS)
        .map(|t| {
            (
                format!("p{t} v{} x", EDITS / 4),
                (EDITS / 4).is_multiple_of(2),
            )
        })
        .chain([("shared v0 x".to_owned(), true)])
        .collect();
    assert_eq!(
        state(&open()),
        expected,
        "an edit made through the other store was lost"
    );
    // each store sees the other's edits once it reloads
    for store in &stores {
        store.reload().unwrap();
        assert_eq!(state(store), expected);
    }
}

/// The child of [`two_processes_on_one_folder_lose_no_edit`]: edits its prompt in the
/// folder it is given, then exits. Does nothing when run by hand.
#[test]
#[ignore = "run by two_processes_on_one_folder_lose_no_edit"]
fn child_process_edits() {
    let (Ok(dir), Ok(t)) = (
        std::env::var("PK_STORE_CHILD_DIR"),
        std::env::var("PK_STORE_CHILD_PROMPT"),
    ) else {
        return;
    };
    let store = Store::builder(many()).user_dir(&dir).open().unwrap();
    // start together: the parent makes `go` once both children are up
    let go = Path::new(&dir).join("go");
    while !go.exists() {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    for n in 1..=EDITS {
        let text = format!("p{t} v{n} {{{{who}}}}");
        store
            .update_prompt(&format!("p{t}"), "default", &text)
            .unwrap();
    }
}

#[test]
fn two_processes_on_one_folder_lose_no_edit() {
    let user = scratch("two-processes");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..2)
        .map(|t| {
            std::process::Command::new(&exe)
                .args(["--exact", "child_process_edits", "--ignored", "--quiet"])
                .env("PK_STORE_CHILD_DIR", &user)
                .env("PK_STORE_CHILD_PROMPT", t.to_string())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::write(user.join("go"), "").unwrap();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let store = Store::builder(many()).user_dir(&user).open().unwrap();
    for t in 0..2 {
        assert_eq!(
            store
                .resolve_prompt(&format!("p{t}"), "default", &[])
                .unwrap(),
            format!("p{t} v{EDITS} x"),
            "an edit of the other process was lost"
        );
    }
}

#[test]
fn user_placeholders_and_orders_reach_another_store_on_the_folder() {
    let user = scratch("placeholders");
    let editor = persona(&user);
    let chat = persona(&user);
    editor.add_placeholder("nickname", "Lu").unwrap();
    editor
        .update_prompt("system_rule", "default", "Call me {{nickname}}.")
        .unwrap();
    editor
        .reorder_prompts(&["system_rule", "time_sense"])
        .unwrap();
    // The other store reads the new registry with the new text (its values are indexed
    // again by name), and the new order.
    chat.reload().unwrap();
    let system = chat
        .build_system_prompt("default", &[("mood", "calm")])
        .unwrap();
    assert!(
        system.starts_with("Call me Lu.\n\nToday is today."),
        "{system}"
    );
    assert_eq!(chat.user_placeholders(), ["nickname"]);
    // In use, so it cannot go; once no text uses it, it can.
    assert!(matches!(
        chat.remove_placeholder("nickname"),
        Err(StoreError::PlaceholderInUse { .. })
    ));
    chat.reset_prompt_to_default("system_rule").unwrap();
    chat.remove_placeholder("nickname").unwrap();
    let fresh = persona(&user);
    assert!(fresh.user_placeholders().is_empty());
    assert!(
        fresh
            .update_prompt("system_rule", "default", "{{nickname}}")
            .is_err()
    );
}

/// An edit that would make a file larger than promptic reads is refused whole: the store
/// would not open again. A long text and a long placeholder value write nothing.
#[test]
fn an_edit_past_the_file_limit_is_refused_and_writes_nothing() {
    let user = scratch("too-large");
    let store = persona(&user);
    store
        .update_prompt("system_rule", "default", "You are {{char_name}}, always.")
        .unwrap();
    let before = tree(&user);
    let long = "{{char_name}}".repeat(600_000); // 7.8 MB
    let e = store
        .update_prompt("system_rule", "default", &long)
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than promptic reads from one file"), "{e}");
    assert!(e.contains("nothing was written"), "{e}");
    let value = "x".repeat(5 << 20);
    let e = store
        .add_placeholder("nickname", &value)
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than promptic reads from one file"), "{e}");
    assert_eq!(tree(&user), before);
    // The folder still opens, with the last good edit.
    let again = persona(&user);
    assert_eq!(
        again.resolve_prompt("system_rule", "default", &[]).unwrap(),
        "You are Luna, always."
    );
}
