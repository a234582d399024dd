//! What the store's failure-injection tests share: the files of a user folder, and a
//! fault at the n-th time a write reaches a step.

use crate::atomic::{Fault, Faults, Step};
use crate::folder_lock::LOCK;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Every file under `dir` with its bytes, by path; the folder's lock file aside.
pub(crate) fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if !path.ends_with(LOCK) {
                let bytes = std::fs::read(&path).unwrap_or_default();
                out.insert(path, bytes);
            }
        }
    }
    out
}

/// Every file under `dir`, sorted; the lock file aside.
pub(crate) fn files(dir: &Path) -> Vec<PathBuf> {
    tree(dir).into_keys().collect()
}

/// A hook that makes the `nth` write to reach `step` (counting from 0) meet `fault`, and
/// the count of writes that reached it, to tell whether an edit had an `nth` at all.
pub(crate) fn fault_at(step: Step, nth: usize, fault: Fault) -> (Faults, Arc<AtomicUsize>) {
    let seen = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&seen);
    let faults: Faults = Arc::new(move |s, _| {
        (s == step && count.fetch_add(1, Ordering::SeqCst) == nth).then_some(fault)
    });
    (faults, seen)
}
