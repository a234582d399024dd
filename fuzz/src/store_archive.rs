//! Arbitrary bytes as an archive for `Store::import_prompts_with` (feature `archive`):
//! imported in every mode into a store held in memory with edits of its own, and in
//! merge mode into a store over a user folder on disk.
//!
//! Input: the archive file's bytes (a zip, or anything).
//!
//! Besides "no panic": a refused import changes nothing — neither what the store renders
//! nor, on disk, a byte of the user folder; an accepted one can be exported and imported
//! again (`replace`, into a fresh store) to the same renders.

use prompt_runtime::store::Defaults;
use prompt_store::{ImportMode, Store};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The defaults every input is imported over; `fuzz/seeds.py` writes archives for them.
const DEFAULTS: &[(&str, &[u8])] = &[
    (
        "_meta/prompt_manifest.json",
        br#"{"prompts": {
            "greeting": {"domain": "greeting", "order": 1},
            "rules": {"domain_file": "rules.json", "order": 2, "requires_any": ["mood"]},
            "example": {"domain": "example", "type": "multi_turn", "target": "message", "order": 3}}}"#,
    ),
    (
        "_meta/placeholder_registry.json",
        br#"{"placeholders": {"char_name": {"type": "static", "default": "Luna"}, "mood": {"resolve_phase": "runtime", "type": "string"}}}"#,
    ),
    (
        "greeting.json",
        br#"{"id": "greeting", "variants": {"default": {"text": "Hi, I am {{char_name}}."}, "short": {"text": "Hi."}}}"#,
    ),
    (
        "rules.json",
        br#"{"rules": {"variants": {"default": {"content": "Feel {{mood}}."}}}}"#,
    ),
    (
        "example.json",
        br#"{"variants": {"default": {"messages": [{"role": "user", "content": "Who?"}, {"role": "assistant", "content": "{{char_name}}."}]}}}"#,
    ),
];

fn defaults() -> Defaults {
    static DEFAULTS_CHECKED: OnceLock<Defaults> = OnceLock::new();
    DEFAULTS_CHECKED
        .get_or_init(|| match Defaults::from_files("fuzz_prompts", DEFAULTS) {
            Ok(d) => d,
            Err(e) => panic!("the fuzz target's defaults do not load: {e}"),
        })
        .clone()
}

/// A store with edits of its own: in memory (`None`) or over `user`.
fn store(user: Option<&Path>) -> Store {
    let mut builder = Store::builder(defaults());
    if let Some(user) = user {
        builder = builder.user_dir(user);
    }
    let store = match builder.open() {
        Ok(store) => store,
        Err(e) => panic!("the fuzz target's store does not open: {e}"),
    };
    if user.is_none() {
        edit(&store);
    }
    store
}

fn edit(store: &Store) {
    let edits = [
        store.update_prompt("greeting", "short", "Hello, {{char_name}}."),
        store.set_enabled("rules", "default", false),
        store.create_prompt("mine", "Mine."),
    ];
    for result in edits {
        if let Err(e) = result {
            panic!("an edit of the fuzz target's store fails: {e}");
        }
    }
}

/// What a render of `ids` can tell.
fn renders(store: &Store, ids: &[String]) -> Vec<String> {
    let runtime = [("mood", "calm")];
    let mut out = vec![
        format!("{:?}", store.build_system_prompt("default", &runtime)),
        format!(
            "{:?}",
            store.render_chat_message_sequence("default", &runtime)
        ),
    ];
    for id in ids {
        for variant in ["default", "short"] {
            out.push(format!(
                "{id}/{variant}: {:?} {:?}",
                store.resolve_prompt(id, variant, &runtime),
                store.is_enabled(id, variant)
            ));
        }
    }
    out
}

fn ids(extra: &[String]) -> Vec<String> {
    let mut ids: Vec<String> = defaults().prompt_ids().map(str::to_owned).collect();
    ids.push("mine".to_owned());
    ids.extend(extra.iter().cloned());
    ids
}

/// A folder of this process under the temp folder (`/dev/shm` where there is one: the
/// store flushes what it writes).
fn scratch() -> PathBuf {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_owned()
    } else {
        std::env::temp_dir()
    };
    base.join(format!(
        "promptic-fuzz-store-archive-{}",
        std::process::id()
    ))
}

/// Every file under `dir` with its bytes; the lock file aside.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if !path.ends_with("_meta/.promptic.lock") {
                out.insert(path.clone(), std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    out
}

/// The user folder on disk, with the edits; made again after an import changed it.
fn user_folder(dir: &Path) -> PathBuf {
    let user = dir.join("user");
    if !user.join("_meta/user_manifest.json").is_file() {
        let _ = std::fs::remove_dir_all(&user);
        edit(&store(Some(&user)));
    }
    user
}

/// An edited store and its renders before any import.
type Kept = Option<(Store, Vec<String>)>;

thread_local! {
    /// Per import mode, an edited in-memory store with its renders, kept from one input to
    /// the next while imports into it are refused. A refused import does not touch the
    /// store's state (each input asserts that its renders did not move), so this is the
    /// store a fresh open and the edits would give; opening and editing three stores per
    /// input would cost most of the target's time. An accepted import uses the store up: the
    /// next input opens and edits a new one.
    static EDITED: RefCell<[Kept; 3]> = const { RefCell::new([None, None, None]) };
}

/// The edited store for import mode `slot`: the kept one, or a new one.
fn edited(slot: usize) -> (Store, Vec<String>) {
    EDITED
        .with_borrow_mut(|kept| kept[slot].take())
        .unwrap_or_else(|| {
            let store = store(None);
            let before = renders(&store, &ids(&[]));
            (store, before)
        })
}

fn give_back(slot: usize, store: Store, before: Vec<String>) {
    EDITED.with_borrow_mut(|kept| kept[slot] = Some((store, before)));
}

pub fn run(data: &[u8]) {
    let dir = scratch();
    if let Err(e) = std::fs::create_dir_all(&dir) {
        panic!("cannot make {}: {e}", dir.display());
    }
    let archive = dir.join("input.zip");
    if let Err(e) = std::fs::write(&archive, data) {
        panic!("cannot write {}: {e}", archive.display());
    }

    for (slot, mode) in [
        ImportMode::Replace,
        ImportMode::Merge,
        ImportMode::Overwrite,
    ]
    .into_iter()
    .enumerate()
    {
        let (store, before) = edited(slot);
        match store.import_prompts_with(&archive, mode) {
            Err(e) => {
                let _ = e.to_string();
                assert_eq!(
                    renders(&store, &ids(&[])),
                    before,
                    "a refused import ({mode:?}) changed the store: {e}"
                );
                // Unchanged, as just asserted: the next input imports into it again.
                give_back(slot, store, before);
            }
            Ok(summary) => round_trip(&store, &dir, &summary.imported),
        }
    }

    let user = user_folder(&dir);
    let store = store(Some(&user));
    let (files, before) = (tree(&user), renders(&store, &ids(&[])));
    match store.import_prompts(&archive) {
        Err(e) => {
            let _ = e.to_string();
            assert_eq!(
                tree(&user),
                files,
                "a refused import changed the user folder: {e}"
            );
            assert_eq!(
                renders(&store, &ids(&[])),
                before,
                "a refused import changed the store: {e}"
            );
        }
        Ok(summary) => {
            round_trip(&store, &dir, &summary.imported);
            // The next input starts from the edited folder again.
            let _ = std::fs::remove_dir_all(&user);
        }
    }
}

/// An accepted import exports, and imports again into a fresh store, to the same renders.
fn round_trip(store: &Store, dir: &Path, imported: &[String]) {
    let out = dir.join("again.zip");
    let written = match store.export_prompts(&out) {
        Ok(written) => written,
        Err(e) => panic!("an imported user layer does not export: {e}"),
    };
    let fresh = match Store::builder(defaults()).open() {
        Ok(store) => store,
        Err(e) => panic!("{e}"),
    };
    if let Err(e) = fresh.import_prompts_with(&out, ImportMode::Replace) {
        panic!("an exported user layer does not import: {e}");
    }
    let ids = ids(&[imported, &written.prompt_ids].concat());
    assert_eq!(
        renders(&fresh, &ids),
        renders(store, &ids),
        "export and import again changed the renders"
    );
}
