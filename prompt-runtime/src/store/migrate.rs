//! Upgrading an old user folder when a store opens it: a PromptEngine folder with a single
//! manifest (the user edited `_meta/prompt_manifest.json`, its registry and its domain
//! files in place, and has no `_meta/user_manifest.json`) becomes a user layer over the
//! defaults, keeping every customization:
//!
//! - a prompt the defaults lack becomes a user prompt (its entry as written, its domain
//!   file where it is);
//! - a prompt the defaults have keeps each manifest field the user changed (`order`,
//!   `enabled`, `variants`, …) as an override, and its domain file when its content
//!   differs from the default one;
//! - a placeholder the defaults' registry lacks, or has with other fields, goes to the
//!   user registry (entries already there are kept).
//!
//! Nothing is written until the new layer passes the same checks as any open. Then a
//! backup of the old manifest is written first,
//! `_meta/_backups/pre_migration_YYYYmmdd_HHMMSS.json` (UTC), as PromptEngine names it
//! (and the old user registry beside it when the migration changes one), then the user
//! registry, then the user manifest, the commit point: a crash before it leaves a folder
//! that is migrated again at the next open. The old files are left as they were; the
//! store no longer reads the old manifest once the user manifest exists.

use super::atomic::{self, Faults};
use super::error::StoreError;
use super::layout::{Layer, MANIFEST, REGISTRY, USER_MANIFEST, USER_REGISTRY};
use super::persist::set_paths;
use super::{check, folder_lock};
use crate::load::json::object_entries;
use crate::{Diagnostic, SourceFile};
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The backups' folder, relative to the user folder.
pub(crate) const BACKUPS: &str = "_meta/_backups";

/// True when `dir` holds a single-manifest PromptEngine folder to upgrade.
pub(crate) fn needed(dir: &Path) -> bool {
    !dir.join(USER_MANIFEST).exists() && dir.join(MANIFEST).is_file()
}

/// Upgrades `dir` over the defaults' files (see the module doc), under the folder's
/// exclusive lock. Returns the backup written, `None` when there was nothing to do.
pub(crate) fn run(
    dir: &Path,
    defaults: &Layer,
    faults: &Faults,
    mode: check::Mode,
) -> Result<Option<PathBuf>, StoreError> {
    let _lock = folder_lock::exclusive(dir).map_err(|e| StoreError::Write {
        path: dir.join(folder_lock::LOCK).to_string_lossy().into_owned(),
        message: e.to_string(),
    })?;
    // Another process may have migrated it while this one waited.
    if !needed(dir) {
        return Ok(None);
    }
    let display = dir.to_string_lossy().into_owned();
    let failed = |d: Diagnostic| {
        StoreError::Invalid(
            d.with_note(format!(
                "`{display}` has a single `_meta/prompt_manifest.json` (an older PromptEngine layout) and could not be upgraded to a user layer; nothing was written"
            ))
            .into(),
        )
    };
    let mut old = Layer::disk(dir, &display);
    let manifest = read(&mut old, MANIFEST).map_err(&failed)?;
    let Some(manifest) = manifest else {
        return Ok(None);
    };
    let plan = Plan::new(&mut old, defaults, &manifest).map_err(&failed)?;

    // The upgraded layer must pass the checks of any open before anything is written.
    let mut user = Layer::disk(dir, &display);
    user.set(USER_MANIFEST, Some(&plan.manifest));
    if let Some(registry) = &plan.registry {
        user.set(USER_REGISTRY, Some(registry));
    }
    let mut defaults = defaults.clone();
    check::build(&mut defaults, Some(&mut user), mode).map_err(|problems| {
        let mut problems = problems;
        problems.0.push(
            Diagnostic::new(format!(
                "`{display}` has a single `_meta/prompt_manifest.json` (an older PromptEngine layout); upgrading it to a user layer gives the problems above, so nothing was written"
            ))
            .with_help("fix them in the old files, or move the folder away and start from the defaults"),
        );
        StoreError::Invalid(problems)
    })?;

    let write = |rel: &Path, text: &str| {
        atomic::write(rel, text.as_bytes(), faults).map_err(|e| StoreError::Write {
            path: rel.to_string_lossy().into_owned(),
            message: e.error.to_string(),
        })
    };
    let stamp = timestamp(std::time::SystemTime::now());
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
    let beside = backup.with_extension("user_placeholder_registry.json");
    // Nothing is written when one write would reach outside the user folder.
    for path in [
        &backup,
        &beside,
        &dir.join(USER_REGISTRY),
        &dir.join(USER_MANIFEST),
    ] {
        atomic::confine(dir, path.strip_prefix(dir).unwrap_or(path))?;
    }
    write(&backup, manifest.text())?;
    if let (Some(_), Some(old_registry)) = (&plan.registry, &plan.old_user_registry) {
        write(&beside, old_registry)?;
    }
    if let Some(registry) = &plan.registry {
        write(&dir.join(USER_REGISTRY), registry)?;
    }
    write(&dir.join(USER_MANIFEST), &plan.manifest)?;
    Ok(Some(backup))
}

/// The new user layer's files.
struct Plan {
    manifest: String,
    /// The new user registry, when the migration adds to it.
    registry: Option<String>,
    /// The user registry as it was, if there was one.
    old_user_registry: Option<String>,
}

impl Plan {
    fn new(old: &mut Layer, defaults: &Layer, manifest: &SourceFile) -> Result<Plan, Diagnostic> {
        let default_entries = prompts_of(defaults.get(MANIFEST).map(SourceFile::text));
        // The first entry of each id, as a lookup of the list would find it.
        let mut default_by_id: HashMap<&str, &RawValue> = HashMap::new();
        for (id, raw) in &default_entries {
            default_by_id.entry(id.as_str()).or_insert(raw);
        }
        // Every value the new manifest sets, `(prompt id, field or none, JSON)`, set in one
        // pass at the end: one at a time, each would rewrite the whole manifest.
        let mut sets: Vec<(String, Option<String>, String)> = Vec::new();
        for (id, raw) in prompts_of(Some(manifest.text())) {
            let fields = object_entries(raw.get()).map_err(|e| {
                Diagnostic::new(format!("prompt `{id}` of the old manifest: {e}"))
                    .in_file(manifest.path().to_owned())
            })?;
            let Some(default_raw) = default_by_id.get(id.as_str()) else {
                // The user's own prompt: as written, its domain file named (a user entry
                // without one would be looked for in the defaults).
                let named = fields
                    .iter()
                    .any(|(k, _)| k == "domain" || k == "domain_file");
                let rel = (!named).then(|| json(&domain_file(&id, &fields)));
                sets.push((id.clone(), None, raw.get().to_owned()));
                if let Some(rel) = rel {
                    sets.push((id, Some("domain_file".to_owned()), rel));
                }
                continue;
            };
            let default_fields = object_entries(default_raw.get()).unwrap_or_default();
            let mut overrides: Vec<(String, String)> = Vec::new();
            for (name, value) in &fields {
                if name == "domain" || name == "domain_file" {
                    continue;
                }
                let same = default_fields
                    .iter()
                    .find(|(n, _)| n == name)
                    .is_some_and(|(_, d)| same_json(d.get(), value.get()));
                if !same {
                    overrides.push((name.clone(), value.get().to_owned()));
                }
            }
            // The domain file: the user's copy when its content is not the default's.
            let rel = domain_file(&id, &fields);
            let default_rel = domain_file(&id, &default_fields);
            let mine = read(old, &rel)?;
            let theirs = defaults.get(&default_rel).map(SourceFile::text);
            if let Some(mine) = mine
                && !theirs.is_some_and(|t| same_json(t, mine.text()))
            {
                overrides.push(("domain_file".to_owned(), json(&rel)));
            }
            for (name, value) in overrides {
                sets.push((id.clone(), Some(name), value));
            }
        }
        let paths: Vec<Vec<&str>> = sets
            .iter()
            .map(|(id, field, _)| {
                let mut path = vec!["prompts", id.as_str()];
                path.extend(field.as_deref());
                path
            })
            .collect();
        let edits: Vec<(&[&str], &str)> = paths
            .iter()
            .zip(&sets)
            .map(|(path, (_, _, value))| (&path[..], value.as_str()))
            .collect();
        let mut out = set_paths("", &edits, 0).map_err(Diagnostic::new)?;
        if out.is_empty() {
            out = "{\"prompts\": {}}".to_owned();
        }
        let manifest = format!("{out}\n");

        // Placeholders the user added or changed.
        let old_user_registry = read(old, USER_REGISTRY)?.map(|s| s.text().to_owned());
        let mut added: Vec<(String, String)> = Vec::new();
        if let Some(active) = read(old, REGISTRY)? {
            let defaults_keys = placeholders_of(defaults.get(REGISTRY).map(SourceFile::text));
            let mut defaults_by_key: HashMap<&str, Vec<&RawValue>> = HashMap::new();
            for (key, raw) in &defaults_keys {
                defaults_by_key.entry(key.as_str()).or_default().push(raw);
            }
            let user_keys = placeholders_of(old_user_registry.as_deref());
            let user_keys: HashSet<&str> = user_keys.iter().map(|(k, _)| k.as_str()).collect();
            for (key, raw) in placeholders_of(Some(active.text())) {
                let known = defaults_by_key
                    .get(key.as_str())
                    .is_some_and(|ds| ds.iter().any(|d| same_json(d.get(), raw.get())));
                if known || user_keys.contains(key.as_str()) {
                    continue;
                }
                added.push((key, raw.get().to_owned()));
            }
        }
        let changed = !added.is_empty();
        let registry = if changed {
            let paths: Vec<[&str; 2]> = added
                .iter()
                .map(|(key, _)| ["placeholders", key.as_str()])
                .collect();
            let edits: Vec<(&[&str], &str)> = paths
                .iter()
                .zip(&added)
                .map(|(path, (_, value))| (&path[..], value.as_str()))
                .collect();
            set_paths(old_user_registry.as_deref().unwrap_or_default(), &edits, 0)
                .map_err(Diagnostic::new)?
        } else {
            String::new()
        };
        Ok(Plan {
            manifest,
            registry: changed.then(|| format!("{registry}\n")),
            old_user_registry,
        })
    }
}

/// One file of the old folder; a file that cannot be read or decoded is a problem.
fn read(layer: &mut Layer, rel: &str) -> Result<Option<SourceFile>, Diagnostic> {
    layer.read(rel).map_err(|problems| {
        problems
            .0
            .into_iter()
            .next()
            .unwrap_or_else(|| Diagnostic::new(format!("cannot read `{}`", layer.shown(rel))))
    })
}

/// The `prompts` entries of a manifest's text, in order; none when it cannot be read.
fn prompts_of(text: Option<&str>) -> Vec<(String, Box<RawValue>)> {
    entries_at(text, "prompts")
}

/// The `placeholders` entries of a registry's text, in order.
fn placeholders_of(text: Option<&str>) -> Vec<(String, Box<RawValue>)> {
    entries_at(text, "placeholders")
}

fn entries_at(text: Option<&str>, key: &str) -> Vec<(String, Box<RawValue>)> {
    let Some(top) = text.and_then(|t| object_entries(t).ok()) else {
        return Vec::new();
    };
    let Some((_, inner)) = top.into_iter().find(|(k, _)| k == key) else {
        return Vec::new();
    };
    object_entries(inner.get())
        .map(|entries| {
            entries
                .into_iter()
                .map(|(k, v)| (k, v.to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// The domain file an entry names, as the loader resolves it: `domain` or `domain_file`,
/// `.json` added when missing, else `<id>.json`.
fn domain_file(id: &str, fields: &[(String, &RawValue)]) -> String {
    let named = fields
        .iter()
        .filter(|(k, _)| k == "domain_file" || k == "domain")
        .rev()
        .find_map(|(_, v)| serde_json::from_str::<String>(v.get()).ok());
    match named {
        Some(name) if name.ends_with(".json") => name,
        Some(name) => format!("{name}.json"),
        None => format!("{id}.json"),
    }
}

/// Whether two JSON texts hold the same value (layout and key order aside).
fn same_json(a: &str, b: &str) -> bool {
    match (
        serde_json::from_str::<Value>(a),
        serde_json::from_str::<Value>(b),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

fn json(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
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
    fn domain_files_resolve_as_the_loader_does() {
        let raw = |s: &str| RawValue::from_string(s.to_owned()).unwrap();
        let a = raw("\"rules\"");
        assert_eq!(domain_file("x", &[("domain".into(), &a)]), "rules.json");
        let b = raw("\"r/b.json\"");
        assert_eq!(domain_file("x", &[("domain_file".into(), &b)]), "r/b.json");
        assert_eq!(domain_file("x", &[]), "x.json");
    }
}
