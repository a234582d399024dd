//! Every write of a store, made atomic: a temporary file in the same folder, written,
//! flushed to disk (`fsync`), renamed over the old file, then the folder flushed so the
//! rename itself survives a crash. A reader (or a store opened after a crash at any
//! point) finds the old file or the new one, never a mix or an empty file. Removing a
//! file is one `unlink` followed by the same folder flush.
//!
//! Each step goes through a [`Faults`] hook so tests can fail any one of them and check
//! what a fresh open reads; outside tests the hook never fails.

use prompt_runtime::__internal::Root;
use prompt_runtime::store::StoreError;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One step of an atomic write, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Step {
    CreateTemp,
    Write,
    SyncFile,
    Rename,
    SyncDir,
}

#[cfg(test)]
impl Step {
    pub const ALL: [Step; 5] = [
        Step::CreateTemp,
        Step::Write,
        Step::SyncFile,
        Step::Rename,
        Step::SyncDir,
    ];
}

/// What a test makes a step do.
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The step fails with an I/O error; the write cleans up after itself.
    Fail,
    /// The process "dies" before the step: nothing after it runs, not even the clean-up.
    Crash,
}

/// Decides, before each step of each write, whether it fails. The default never does.
pub(crate) type Faults = Arc<dyn Fn(Step, &Path) -> Option<Fault> + Send + Sync>;

/// The hook of a store that never fails.
pub(crate) fn no_faults() -> Faults {
    Arc::new(|_, _| None)
}

/// An I/O error of a write or removal.
#[derive(Debug)]
pub(crate) struct WriteError {
    pub error: io::Error,
    /// The new file (or the removal) is in place: only the folder flush failed.
    pub in_place: bool,
}

fn check(faults: &Faults, step: Step, path: &Path) -> Result<(), (io::Error, bool)> {
    match faults(step, path) {
        None => Ok(()),
        Some(fault) => Err((
            io::Error::other(format!("injected failure at {step:?}")),
            fault == Fault::Crash,
        )),
    }
}

/// The folder a file is in: `.` for a bare file name (whose parent is the empty path,
/// which cannot be opened to flush it).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Temp names are unique within the process (pid + counter), and start with `.` and end
/// with `.tmp` so nothing reading the layout ever takes one for a store file.
fn temp_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = folder_of(path);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// True for a name [`write`] uses for its temporary files: `.NAME.PID.N.tmp`.
pub(crate) fn is_temp_name(name: &str) -> bool {
    let Some(inner) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
        return false;
    };
    let mut parts = inner.rsplitn(3, '.');
    let digits =
        |s: Option<&str>| s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
    digits(parts.next()) && digits(parts.next()) && parts.next().is_some_and(|n| !n.is_empty())
}

/// Removes the temporary files a write left in `dir` (not in its subfolders) when its
/// process died before the rename: the new file never took the old one's place, so
/// nothing reads them. Call only while no write can be under way in `dir` (with the
/// folder's lock held). Returns how many were removed.
pub(crate) fn sweep(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        let stale = is_file && entry.file_name().to_str().is_some_and(is_temp_name);
        if stale && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Refuses a write of `rel` in the user folder `dir` that would reach outside it: a
/// folder on the way, or the file itself, that is a link leading out of the folder (or
/// to nothing). Every write and removal of a user folder is checked with it first (see
/// `load::root`); the defaults are never written.
pub(crate) fn confine(dir: &Path, rel: impl AsRef<Path>) -> Result<(), StoreError> {
    let root = Root::new(dir, dir.to_string_lossy());
    root.check_write(&rel).map_err(|e| StoreError::Write {
        path: root.shown(&rel),
        message: match e.help() {
            Some(help) => format!("{e}; nothing was written ({help})"),
            None => format!("{e}; nothing was written"),
        },
    })
}

/// Writes `bytes` to `path` atomically (see the module doc); the folders on the way are
/// created.
pub(crate) fn write(path: &Path, bytes: &[u8], faults: &Faults) -> Result<(), WriteError> {
    let dir = folder_of(path);
    std::fs::create_dir_all(dir).map_err(|error| WriteError {
        error,
        in_place: false,
    })?;
    let temp = temp_path(path);
    let mut in_place = false;
    match write_steps(&temp, path, dir, bytes, faults, &mut in_place) {
        Ok(()) => Ok(()),
        Err((error, crashed)) => {
            if !crashed && !in_place {
                let _ = std::fs::remove_file(&temp);
            }
            Err(WriteError { error, in_place })
        }
    }
}

fn write_steps(
    temp: &Path,
    path: &Path,
    dir: &Path,
    bytes: &[u8],
    faults: &Faults,
    renamed: &mut bool,
) -> Result<(), (io::Error, bool)> {
    let io = |e: io::Error| (e, false);
    check(faults, Step::CreateTemp, temp)?;
    let mut file: File = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(temp)
        .map_err(io)?;
    check(faults, Step::Write, temp)?;
    file.write_all(bytes).map_err(io)?;
    check(faults, Step::SyncFile, temp)?;
    file.sync_all().map_err(io)?;
    drop(file);
    check(faults, Step::Rename, path)?;
    std::fs::rename(temp, path).map_err(io)?;
    *renamed = true;
    check(faults, Step::SyncDir, dir)?;
    sync_dir(dir).map_err(io)
}

/// Removes `path` (a missing file is fine) and flushes its folder.
pub(crate) fn remove(path: &Path, faults: &Faults) -> Result<(), WriteError> {
    let dir = folder_of(path);
    let before = |error: io::Error| WriteError {
        error,
        in_place: false,
    };
    check(faults, Step::Rename, path).map_err(|(e, _)| before(e))?;
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(before(e)),
    }
    let after = |error: io::Error| WriteError {
        error,
        in_place: true,
    };
    check(faults, Step::SyncDir, dir).map_err(|(e, _)| after(e))?;
    sync_dir(dir).map_err(after)
}

/// Flushes a folder's entries (the rename) to disk. Windows cannot open a folder as a
/// file; NTFS journals the rename itself, so there is nothing to do.
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_are_recognised_exactly() {
        let temp = temp_path(Path::new("/x/_meta/user_manifest.json"));
        let name = temp
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        assert!(is_temp_name(name), "{name}");
        assert!(is_temp_name(".a.json.12.0.tmp"));
        for other in [
            ".a.json.tmp",
            "a.json.1.2.tmp",
            ".a.json.x.2.tmp",
            "..1.2.tmp",
            ".tmp",
            ".a.1.2.tmpx",
        ] {
            assert!(!is_temp_name(other), "{other}");
        }
    }

    #[test]
    fn a_sweep_removes_only_left_over_temp_files() {
        let dir = scratch("sweep");
        std::fs::create_dir_all(dir.join(".b.json.1.1.tmp")).unwrap();
        std::fs::write(dir.join("a.json"), "{}").unwrap();
        std::fs::write(dir.join(".a.json.4242.7.tmp"), "{\"half").unwrap();
        std::fs::write(dir.join(".hidden"), "keep").unwrap();
        assert_eq!(sweep(&dir), 1);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [".b.json.1.1.tmp", ".hidden", "a.json"]);
        assert_eq!(sweep(&dir.join("missing")), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pk-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn temps(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| is_temp_name(n))
            .collect()
    }

    #[test]
    fn each_failing_step_leaves_the_old_file_or_the_new_one_and_no_temp() {
        let dir = scratch("fail");
        let path = dir.join("a.json");
        write(&path, b"old", &no_faults()).unwrap();
        for step in Step::ALL {
            for fault in [Fault::Fail, Fault::Crash] {
                write(&path, b"old", &no_faults()).unwrap();
                let faults: Faults = Arc::new(move |s, _| (s == step).then_some(fault));
                let result = write(&path, b"new", &faults);
                assert!(result.is_err(), "{step:?} {fault:?}");
                let now = std::fs::read(&path).unwrap();
                // Only a failure after the rename may show the new text.
                let expected: &[u8] = if step == Step::SyncDir {
                    b"new"
                } else {
                    b"old"
                };
                assert_eq!(now, expected, "{step:?} {fault:?}");
                let left = temps(&dir);
                if fault == Fault::Fail || step <= Step::CreateTemp || step == Step::SyncDir {
                    assert!(left.is_empty(), "{step:?} {fault:?}: {left:?}");
                }
                for t in left {
                    std::fs::remove_file(dir.join(t)).unwrap();
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
