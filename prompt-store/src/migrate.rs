//! PromptEngine's one-time migration of its older layout, done as PromptEngine's
//! `ManifestMigrator` does it when it opens a folder, so that PromptEngine reads the folder
//! afterwards as its own: a folder with a single `_meta/prompt_manifest.json` and no
//! `_meta/user_manifest.json`, whose manifest names prompts the factory defaults' manifest
//! lacks, gets
//!
//! 1. a backup of the manifest as it was,
//!    `_meta/_backups/pre_migration_YYYYmmdd_HHMMSS.json` (UTC),
//! 2. a user manifest holding the whole entries of those prompts (the user's own), with the
//!    manifest's `version` and a `migrated_at` time,
//! 3. the manifest without them (every other entry, field and key kept as written).
//!
//! Domain files and registries are not touched, and nothing else changes: a folder whose
//! manifest names only default prompts is left as it is (PromptEngine writes an empty user
//! manifest there; it changes nothing it reads). The prompts shown, their texts, orders and
//! flags are the same before and after. A crash between the writes leaves each user
//! prompt's entry in both manifests, which reads the same (a user entry replaces the
//! whole entry of its id), and the next open finishes nothing more: the user manifest
//! exists.

use crate::atomic::{self, Faults};
use crate::folder_lock;
use crate::persist::{remove_paths, set_paths};
use prompt_runtime::__internal::object_entries;
use prompt_runtime::store::StoreError;
use prompt_runtime::store::layout::{MANIFEST, USER_MANIFEST};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The backups' folder, relative to the folder.
pub(crate) const BACKUPS: &str = "_meta/_backups";

/// The ids of a manifest's `prompts`, in order; `None` when the text is not a manifest.
fn ids(text: &str) -> Option<Vec<String>> {
    let top = object_entries(text).ok()?;
    let (_, prompts) = top.into_iter().find(|(k, _)| k == "prompts")?;
    Some(
        object_entries(prompts.get())
            .ok()?
            .into_iter()
            .map(|(k, _)| k)
            .collect(),
    )
}

/// The folder's manifest as it is on disk (read through the folder's one reader).
fn manifest_text(dir: &Path) -> Option<String> {
    let root = prompt_runtime::__internal::Root::new(dir, dir.to_string_lossy());
    let bytes = root.read(MANIFEST).ok()??;
    String::from_utf8(bytes).ok()
}

/// The ids of `manifest` that `ground` (the factory defaults' manifest) lacks.
fn user_ids(manifest: &str, ground: &str) -> Vec<String> {
    let Some(known) = ids(ground) else {
        return Vec::new();
    };
    let known: HashSet<String> = known.into_iter().collect();
    ids(manifest)
        .unwrap_or_default()
        .into_iter()
        .filter(|id| !known.contains(id))
        .collect()
}

/// PromptEngine's `needs_migration`: no user manifest, a manifest, a factory defaults'
/// manifest (`ground`; without one there is nothing to compare with) and a prompt of the
/// manifest that the defaults lack.
pub(crate) fn needed(dir: &Path, ground: Option<&str>) -> bool {
    let Some(ground) = ground else {
        return false;
    };
    if dir.join(USER_MANIFEST).exists() || !dir.join(MANIFEST).is_file() {
        return false;
    }
    manifest_text(dir).is_some_and(|m| !user_ids(&m, ground).is_empty())
}

/// Migrates `dir` (see the module doc) under the folder's exclusive lock, against the
/// factory defaults' manifest `ground`. Returns the backup written, `None` when there was
/// nothing to do.
pub(crate) fn run(
    dir: &Path,
    ground: &str,
    faults: &Faults,
) -> Result<Option<PathBuf>, StoreError> {
    let _lock = folder_lock::exclusive(dir).map_err(|e| StoreError::Write {
        path: dir.join(folder_lock::LOCK).to_string_lossy().into_owned(),
        message: e.to_string(),
    })?;
    // Another process may have migrated it while this one waited.
    if !needed(dir, Some(ground)) {
        return Ok(None);
    }
    let Some(manifest) = manifest_text(dir) else {
        return Ok(None);
    };
    let moved = user_ids(&manifest, ground);
    let fail = |rel: &str| {
        let path = dir.join(rel).to_string_lossy().into_owned();
        move |message: String| StoreError::Write { path, message }
    };
    // The user manifest: the moved entries whole, as written.
    let top = object_entries(&manifest).map_err(|e| fail(MANIFEST)(e.to_string()))?;
    let version = top
        .iter()
        .find(|(k, _)| k == "version")
        .map_or_else(|| "\"1\"".to_owned(), |(_, v)| v.get().to_owned());
    let prompts = top
        .iter()
        .find(|(k, _)| k == "prompts")
        .map(|(_, v)| object_entries(v.get()))
        .transpose()
        .map_err(|e| fail(MANIFEST)(e.to_string()))?
        .unwrap_or_default();
    let now = std::time::SystemTime::now();
    let migrated_at = format!("\"{}\"", iso_time(now));
    let mut sets: Vec<(Vec<&str>, &str)> = vec![
        (vec!["version"], &version),
        (vec!["migrated_at"], &migrated_at),
    ];
    // The first entry of each id, as a lookup of the manifest finds it.
    let mut seen = HashSet::new();
    for (id, raw) in &prompts {
        if moved.contains(id) && seen.insert(id.as_str()) {
            sets.push((vec!["prompts", id.as_str()], raw.get()));
        }
    }
    let edits: Vec<(&[&str], &str)> = sets.iter().map(|(p, v)| (p.as_slice(), *v)).collect();
    let user = set_paths("", &edits, 0).map_err(fail(USER_MANIFEST))?;
    let paths: Vec<Vec<&str>> = moved
        .iter()
        .map(|id| vec!["prompts", id.as_str()])
        .collect();
    let paths: Vec<&[&str]> = paths.iter().map(Vec::as_slice).collect();
    let system = remove_paths(&manifest, &paths, 0).map_err(fail(MANIFEST))?;

    let stamp = timestamp(now);
    let mut backup = dir
        .join(BACKUPS)
        .join(format!("pre_migration_{stamp}.json"));
    let mut n = 1;
    while backup.exists() {
        n += 1;
        backup = dir
            .join(BACKUPS)
            .join(format!("pre_migration_{stamp}_{n}.json"));
    }
    // Nothing is written when one write would reach outside the folder.
    for path in [&backup, &dir.join(USER_MANIFEST), &dir.join(MANIFEST)] {
        atomic::confine(dir, path.strip_prefix(dir).unwrap_or(path))?;
    }
    let write = |path: &Path, text: &str| {
        atomic::write(path, text.as_bytes(), faults).map_err(|e| StoreError::Write {
            path: path.to_string_lossy().into_owned(),
            message: e.error.to_string(),
        })
    };
    write(&backup, &manifest)?;
    write(&dir.join(USER_MANIFEST), &format!("{user}\n"))?;
    write(&dir.join(MANIFEST), &format!("{system}\n"))?;
    Ok(Some(backup))
}

/// `time` as an ISO 8601 date and time, UTC, to the second (PromptEngine's `migrated_at`).
pub(crate) fn iso_time(time: std::time::SystemTime) -> String {
    let t = timestamp(time);
    format!(
        "{}-{}-{}T{}:{}:{}",
        &t[0..4],
        &t[4..6],
        &t[6..8],
        &t[9..11],
        &t[11..13],
        &t[13..15]
    )
}

/// `YYYYmmdd_HHMMSS` of `time`, in UTC.
fn timestamp(time: std::time::SystemTime) -> String {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}{m:02}{d:02}_{:02}{:02}{:02}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn timestamps_are_utc_calendar_times() {
        assert_eq!(timestamp(UNIX_EPOCH), "19700101_000000");
        // 2000-02-29 12:34:56 UTC, a leap day
        let t = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(timestamp(t), "20000229_123456");
        let t = UNIX_EPOCH + Duration::from_secs(1_796_083_200);
        assert_eq!(timestamp(t), "20261201_000000");
    }

    #[test]
    fn migrated_at_is_an_iso_time() {
        let t = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(iso_time(t), "2000-02-29T12:34:56");
    }
}
