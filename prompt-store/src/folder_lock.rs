//! The advisory lock on a user folder, `_meta/.promptic.lock`, so two processes (or two
//! [`Store`](crate::Store)s) on one folder take turns: an edit holds it exclusively from
//! reading the folder to its last write, an open holds it shared while it reads. The lock
//! is std's `File::lock` (`flock` on Unix, `LockFileEx` on Windows); it is released when
//! the file is closed, so a crashed process never leaves it held.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// The lock file, relative to the user folder.
pub(crate) const LOCK: &str = "_meta/.promptic.lock";

/// A held lock; dropping it lets go.
#[derive(Debug)]
pub(crate) struct FolderLock {
    _file: File,
}

/// Waits for the exclusive lock on `dir` (creating the lock file and its folder).
pub(crate) fn exclusive(dir: &Path) -> io::Result<FolderLock> {
    let file = open(dir, true)?;
    file.lock()?;
    Ok(FolderLock { _file: file })
}

/// Waits for a shared lock on `dir`; `None` when the folder has no lock file and none
/// can be made (a folder not there yet, or read-only: no store writes to it then).
pub(crate) fn shared(dir: &Path) -> Option<FolderLock> {
    let file = open(dir, dir.is_dir()).ok()?;
    file.lock_shared().ok()?;
    Some(FolderLock { _file: file })
}

/// [`shared`] of a folder whose lock file is there already; `None`, making nothing, when it
/// is not (a folder promptic never wrote): for a read that changes nothing.
pub(crate) fn shared_if_there(dir: &Path) -> Option<FolderLock> {
    let file = open(dir, false).ok()?;
    file.lock_shared().ok()?;
    Some(FolderLock { _file: file })
}

fn open(dir: &Path, create: bool) -> io::Result<File> {
    // A lock file (or `_meta`) linked out of the folder would be created out there.
    if let Err(refused) = crate::atomic::confine(dir, LOCK) {
        return Err(io::Error::other(match refused {
            prompt_runtime::store::StoreError::Write { message, .. } => message,
            other => other.to_string(),
        }));
    }
    let path = dir.join(LOCK);
    if create && let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(create)
        .truncate(false)
        .open(path)
}
