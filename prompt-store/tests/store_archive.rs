//! Hostile and broken archives: each one is refused with a clear error, and nothing
//! changes, neither the user folder's bytes nor what the store renders. The archives are
//! built here with the zip crate's writer, or patched byte by byte where a writer would
//! not write them (duplicate names, lying sizes, encryption flags).
#![cfg(feature = "archive")]

use promptic::store::{Defaults, ImportMode, MAX_ARCHIVE_ENTRIES, Store, StoreError};
use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("store-archive-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn persona(user: &Path) -> Store {
    let defaults =
        Defaults::load(root().join("examples/persona_prompts")).unwrap_or_else(|e| panic!("{e}"));
    Store::builder(defaults)
        .user_dir(user)
        .static_value("char_name", "Luna")
        .computed("current_date", || "today".into())
        .open()
        .unwrap_or_else(|e| panic!("{e}"))
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
                out.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn renders(store: &Store) -> Vec<String> {
    let runtime = [("mood", "calm")];
    let mut out = vec![format!(
        "{:?}",
        store.build_system_prompt("default", &runtime)
    )];
    for id in [
        "system_rule",
        "persona_description",
        "time_sense",
        "recent_mood",
        "mine",
    ] {
        for variant in ["default", "experimental"] {
            out.push(format!(
                "{id}/{variant}: {:?} {:?}",
                store.resolve_prompt(id, variant, &runtime),
                store.is_enabled(id, variant)
            ));
        }
    }
    out.push(format!(
        "{:?}",
        store.get_dialog_injections("experimental", &runtime)
    ));
    out
}

/// A user folder with edits, and the entries of an honest archive of another one.
struct Setup {
    dir: PathBuf,
    user: PathBuf,
    entries: Vec<(String, Vec<u8>)>,
}

fn setup(name: &str) -> Setup {
    let dir = scratch(name);
    let user = dir.join("user");
    let store = persona(&user);
    store
        .update_prompt("system_rule", "default", "Mine: {{char_name}}.")
        .unwrap();
    store.create_prompt("mine", "Mine.").unwrap();
    store.set_enabled("time_sense", "default", false).unwrap();

    let other = dir.join("other");
    let store = persona(&other);
    store
        .update_prompt("persona_description", "default", "Theirs, {{user_name}}.")
        .unwrap();
    store.create_prompt("theirs", "Theirs.").unwrap();
    store.export_prompts(dir.join("honest.zip")).unwrap();
    let entries = unzip(&std::fs::read(dir.join("honest.zip")).unwrap());
    Setup { dir, user, entries }
}

fn unzip(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut zip = ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut entry = zip.by_index(i).unwrap();
            let mut data = Vec::new();
            entry.read_to_end(&mut data).unwrap();
            (entry.name().unwrap().into_owned(), data)
        })
        .collect()
}

fn options() -> SimpleFileOptions {
    SimpleFileOptions::default().compression_method(CompressionMethod::Deflated)
}

fn zip(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in entries {
        w.start_file(name.as_str(), options()).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn with(entries: &[(String, Vec<u8>)], name: &str, data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = entries.to_vec();
    out.push((name.to_owned(), data.to_vec()));
    out
}

fn replaced(entries: &[(String, Vec<u8>)], name: &str, data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = entries.to_vec();
    let entry = out.iter_mut().find(|(n, _)| n == name).unwrap();
    entry.1 = data.to_vec();
    out
}

/// Writes `value` at `local` in the local header and at `central` in the central header
/// of entry `name`.
fn patch(bytes: &mut [u8], name: &str, local: usize, central: usize, value: &[u8]) {
    let u16_at = |b: &[u8], at: usize| usize::from(u16::from_le_bytes([b[at], b[at + 1]]));
    let mut hits = 0;
    for p in 0..bytes.len().saturating_sub(46) {
        let (sig, name_len_at, name_at, field) = match &bytes[p..p + 4] {
            b"PK\x03\x04" => (true, 26, 30, local),
            b"PK\x01\x02" => (true, 28, 46, central),
            _ => (false, 0, 0, 0),
        };
        if !sig {
            continue;
        }
        let len = u16_at(bytes, p + name_len_at);
        if bytes.get(p + name_at..p + name_at + len) == Some(name.as_bytes()) {
            bytes[p + field..p + field + value.len()].copy_from_slice(value);
            hits += 1;
        }
    }
    assert_eq!(hits, 2, "entry {name} has a local and a central header");
}

/// Imports `bytes` as an archive in every mode: each is refused, and nothing changes.
fn refused(setup: &Setup, case: &str, bytes: &[u8]) -> String {
    let path = setup.dir.join(format!("{case}.zip"));
    std::fs::write(&path, bytes).unwrap();
    let store = persona(&setup.user);
    let (files, shown) = (tree(&setup.user), renders(&store));
    let mut errors = Vec::new();
    for mode in [
        ImportMode::Replace,
        ImportMode::Merge,
        ImportMode::Overwrite,
    ] {
        let e = match store.import_prompts_with(&path, mode) {
            Ok(summary) => panic!("{case}: {mode:?} imported {summary:?}"),
            Err(e) => e,
        };
        assert!(
            matches!(e, StoreError::Archive { .. } | StoreError::Invalid(_)),
            "{case}: {e:?}"
        );
        assert_eq!(
            tree(&setup.user),
            files,
            "{case}: {mode:?} changed the user folder"
        );
        assert_eq!(renders(&store), shown, "{case}: {mode:?} changed the store");
        errors.push(e.to_string());
    }
    assert_eq!(
        renders(&persona(&setup.user)),
        shown,
        "{case}: a fresh open"
    );
    assert!(errors.iter().all(|e| *e == errors[0]), "{case}: {errors:?}");
    errors.swap_remove(0)
}

fn refused_with(setup: &Setup, case: &str, bytes: &[u8], says: &str) {
    let e = refused(setup, case, bytes);
    assert!(e.contains(says), "{case}: {e}");
}

#[test]
fn the_honest_archive_imports() {
    let s = setup("honest");
    let store = persona(&s.user);
    let summary = store.import_prompts(s.dir.join("honest.zip")).unwrap();
    assert_eq!(summary.imported, ["persona_description", "theirs"]);
    assert_eq!(
        store
            .resolve_prompt("persona_description", "default", &[])
            .unwrap(),
        "Theirs, friend."
    );
    // the other edits are kept
    assert_eq!(
        store.resolve_prompt("system_rule", "default", &[]).unwrap(),
        "Mine: Luna."
    );
    assert_eq!(store.is_enabled("time_sense", "default"), Some(false));
    // an archive rebuilt from the same entries (another writer) imports too, folders and all
    let mut entries = s.entries.clone();
    entries.insert(1, ("_meta/".to_owned(), Vec::new()));
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in &entries {
        if name.ends_with('/') {
            w.add_directory(name.as_str(), options()).unwrap();
        } else {
            w.start_file(
                name.as_str(),
                options().compression_method(CompressionMethod::Stored),
            )
            .unwrap();
            w.write_all(data).unwrap();
        }
    }
    std::fs::write(s.dir.join("rezipped.zip"), w.finish().unwrap().into_inner()).unwrap();
    persona(&s.user)
        .import_prompts_with(s.dir.join("rezipped.zip"), ImportMode::Overwrite)
        .unwrap();
}

#[test]
fn what_is_not_a_whole_zip_is_refused() {
    let s = setup("not-zip");
    refused_with(&s, "text", b"{\"prompts\": {}}", "not a zip archive");
    refused_with(&s, "empty", b"", "not a zip archive");
    let honest = std::fs::read(s.dir.join("honest.zip")).unwrap();
    refused_with(&s, "cut", &honest[..honest.len() / 2], "not a zip archive");
    refused_with(
        &s,
        "cut-end",
        &honest[..honest.len() - 10],
        "not a zip archive",
    );
    // a byte of the data changed: the checksum says so
    let mut flipped = honest.clone();
    let at = flipped.windows(4).position(|w| w == b"PK\x03\x04").unwrap() + 60;
    flipped[at] ^= 0x55;
    let e = refused(&s, "flipped", &flipped);
    assert!(e.contains("archive `"), "{e}");
    let e = s.user.join("no-such.zip");
    let err = persona(&s.user).import_prompts(&e).unwrap_err();
    assert!(err.to_string().contains("cannot read it"), "{err}");
}

#[test]
fn bad_json_and_unknown_placeholders_are_located_in_the_archive() {
    let s = setup("json");
    let case = "bad-json";
    let bytes = zip(&replaced(
        &s.entries,
        "prompts/theirs.json",
        b"{\"variants\": {\"default\": {\"text\": \"x\",}}}",
    ));
    let e = refused(&s, case, &bytes);
    assert!(
        e.contains(&format!(
            "--> {}/bad-json.zip/prompts/theirs.json:1:",
            s.dir.to_string_lossy()
        )),
        "{e}"
    );
    assert!(e.contains("is not valid JSON"), "{e}");

    let bytes = zip(&replaced(
        &s.entries,
        "prompts/theirs.json",
        b"{\"id\": \"theirs\", \"variants\": {\"default\": {\"text\": \"Hi {{char_nmae}}.\"}}}",
    ));
    let e = refused(&s, "typo", &bytes);
    assert!(
        e.starts_with(
            "error: unknown placeholder `{{char_nmae}}` in variant `default` of prompt `theirs`"
        ),
        "{e}"
    );
    assert!(e.contains("/typo.zip/prompts/theirs.json:1:55"), "{e}");
    assert!(e.contains("did you mean `{{char_name}}`?"), "{e}");

    let bytes = zip(&replaced(&s.entries, "_meta/user_manifest.json", b"[1, 2]"));
    refused_with(&s, "manifest-array", &bytes, "must be a JSON object");
    let bytes = zip(&replaced(&s.entries, "prompts/theirs.json", b"\xFF\xFE"));
    refused_with(&s, "not-utf8", &bytes, "is not valid UTF-8");
    // a manifest that names a file the archive lacks
    let without: Vec<_> = s
        .entries
        .iter()
        .filter(|(n, _)| n != "prompts/theirs.json")
        .cloned()
        .collect();
    refused_with(&s, "missing-domain", &zip(&without), "does not exist");
}

#[test]
fn metadata_is_optional_but_read_when_there() {
    let s = setup("metadata");
    // A user layer zipped by hand, without `metadata.json`, imports as the export does.
    let without: Vec<_> = s
        .entries
        .iter()
        .filter(|(n, _)| n != "metadata.json")
        .cloned()
        .collect();
    let bare = s.dir.join("bare.zip");
    std::fs::write(&bare, zip(&without)).unwrap();
    let by_hand = persona(&s.dir.join("by-hand"));
    let done = by_hand.import_prompts(&bare).unwrap();
    assert!(
        done.exported_by.is_none() && !done.defaults_differ,
        "{done:?}"
    );
    let exported = persona(&s.dir.join("exported"));
    exported.import_prompts(s.dir.join("honest.zip")).unwrap();
    assert_eq!(
        by_hand
            .build_system_prompt("default", &[("mood", "calm")])
            .unwrap(),
        exported
            .build_system_prompt("default", &[("mood", "calm")])
            .unwrap()
    );
    let newer = br#"{"format": "promptic-store-archive", "format_version": 2}"#;
    let e = refused(
        &s,
        "newer",
        &zip(&replaced(&s.entries, "metadata.json", newer)),
    );
    assert!(e.contains("`format_version` is 2"), "{e}");
    assert!(e.contains("newer.zip/metadata.json:1:"), "{e}");
    let other = br#"{"format": "something-else", "format_version": 1}"#;
    refused_with(
        &s,
        "other",
        &zip(&replaced(&s.entries, "metadata.json", other)),
        "not `promptic-store-archive`",
    );
}

#[test]
fn names_that_leave_the_folder_are_refused() {
    let s = setup("names");
    let data = br#"{"variants": {"default": {"text": "x"}}}"#;
    for (case, name, says) in [
        ("dotdot", "../x.json", "`..`"),
        ("dotdot-inside", "prompts/../../x.json", "`..`"),
        ("absolute", "/abs/x.json", "absolute"),
        ("backslash", "prompts\\x.json", "backslash"),
        ("drive", "C:\\x.json", "backslash"),
        ("drive-relative", "C:x.json", "drive letter"),
        ("dot", "./prompts/x.json", "`.` segment"),
        ("control", "prompts/x\n.json", "control character"),
    ] {
        refused_with(&s, case, &zip(&with(&s.entries, name, data)), says);
    }
    // a domain file the manifest names through `..` is refused by the manifest's check
    let manifest = String::from_utf8(
        s.entries
            .iter()
            .find(|(n, _)| n == "_meta/user_manifest.json")
            .unwrap()
            .1
            .clone(),
    )
    .unwrap()
    .replace("prompts/theirs.json", "../theirs.json");
    let bytes = zip(&replaced(
        &s.entries,
        "_meta/user_manifest.json",
        manifest.as_bytes(),
    ));
    refused_with(&s, "manifest-dotdot", &bytes, "is outside the folder");
}

#[test]
fn entries_that_are_no_part_of_a_user_layer_are_refused() {
    let s = setup("unexpected");
    refused_with(
        &s,
        "notes",
        &zip(&with(&s.entries, "notes.txt", b"hi")),
        "entry `notes.txt` is refused",
    );
    refused_with(
        &s,
        "defaults",
        &zip(&with(
            &s.entries,
            "_meta/prompt_manifest.json",
            b"{\"prompts\": {}}",
        )),
        "belongs to the defaults",
    );
    refused_with(
        &s,
        "unnamed-domain",
        &zip(&with(
            &s.entries,
            "prompts/other.json",
            b"{\"variants\": {}}",
        )),
        "the user manifest does not name it",
    );
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in &s.entries {
        w.start_file(name.as_str(), options()).unwrap();
        w.write_all(data).unwrap();
    }
    w.add_directory("elsewhere/", options()).unwrap();
    refused_with(
        &s,
        "folder",
        &w.finish().unwrap().into_inner(),
        "a folder with no file",
    );
}

#[test]
fn links_duplicates_and_encryption_are_refused() {
    let s = setup("special");
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in &s.entries {
        w.start_file(name.as_str(), options()).unwrap();
        w.write_all(data).unwrap();
    }
    w.add_symlink("prompts/link.json", "/etc/passwd", options())
        .unwrap();
    refused_with(&s, "symlink", &w.finish().unwrap().into_inner(), "a link");

    // a link in place of a domain file the manifest names
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in &s.entries {
        if name == "prompts/theirs.json" {
            w.add_symlink(name.as_str(), "../../user/prompts/mine.json", options())
                .unwrap();
        } else {
            w.start_file(name.as_str(), options()).unwrap();
            w.write_all(data).unwrap();
        }
    }
    refused_with(
        &s,
        "symlink-domain",
        &w.finish().unwrap().into_inner(),
        "a link",
    );

    // two entries named alike: written as `prompts/theirs.json` and `prompts/theirz.json`,
    // then renamed in place
    let mut bytes = zip(&with(
        &s.entries,
        "prompts/theirz.json",
        b"{\"variants\": {\"default\": {\"text\": \"evil\"}}}",
    ));
    patch(
        &mut bytes,
        "prompts/theirz.json",
        30,
        46,
        b"prompts/theirs.json",
    );
    refused_with(&s, "duplicate", &bytes, "same name");

    // the encryption flag
    let mut bytes = zip(&s.entries);
    patch(&mut bytes, "prompts/theirs.json", 6, 8, &[0x01, 0x00]);
    refused_with(&s, "encrypted", &bytes, "encrypted");

    // a compression method other than stored and deflate (12: bzip2)
    let mut bytes = zip(&s.entries);
    patch(&mut bytes, "prompts/theirs.json", 8, 10, &[12, 0]);
    refused_with(&s, "bzip2", &bytes, "only stored and deflate");
}

#[test]
fn zip_bombs_and_lying_sizes_are_refused() {
    let s = setup("bombs");
    // small compressed, 17 MiB uncompressed, declared honestly
    let zeros = vec![b' '; 17 << 20];
    let bomb = zip(&replaced(&s.entries, "prompts/theirs.json", &zeros));
    assert!(bomb.len() < 100_000, "{}", bomb.len());
    refused_with(&s, "bomb", &bomb, "larger than 16 MiB");

    // a small entry that declares 4 GiB - 1
    let mut bytes = zip(&s.entries);
    patch(
        &mut bytes,
        "prompts/theirs.json",
        22,
        24,
        &u32::MAX.to_le_bytes(),
    );
    refused(&s, "declares-huge", &bytes);

    // a 17 MiB entry that declares 50 bytes: read through the cap, refused
    let mut bytes = bomb.clone();
    patch(
        &mut bytes,
        "prompts/theirs.json",
        22,
        24,
        &50u32.to_le_bytes(),
    );
    refused(&s, "lies-small", &bytes);

    // a small entry that declares more than it holds
    let mut bytes = zip(&s.entries);
    let size = s
        .entries
        .iter()
        .find(|(n, _)| n == "prompts/theirs.json")
        .unwrap()
        .1
        .len() as u32;
    patch(
        &mut bytes,
        "prompts/theirs.json",
        22,
        24,
        &(size + 1000).to_le_bytes(),
    );
    refused(&s, "lies-large", &bytes);

    // entries under the cap each, over it together (declared: 5 × 15 MiB)
    let mut entries = s.entries.clone();
    for i in 0..5 {
        entries.push((format!("prompts/x{i}.json"), b"{}".to_vec()));
    }
    let mut bytes = zip(&entries);
    for i in 0..5 {
        patch(
            &mut bytes,
            &format!("prompts/x{i}.json"),
            22,
            24,
            &(15u32 << 20).to_le_bytes(),
        );
    }
    refused_with(&s, "total", &bytes, "more than 64 MiB");
}

#[test]
fn too_many_entries_are_refused() {
    let s = setup("many");
    let mut entries = s.entries.clone();
    for i in 0..MAX_ARCHIVE_ENTRIES {
        entries.push((format!("prompts/{i}.json"), b"{}".to_vec()));
    }
    refused_with(&s, "many", &zip(&entries), "more than 4096 entries");
}
