//! A value that readers take whole while a writer replaces it: the check-and-swap path of
//! run-time edits. A writer checks a new version completely first (reading files, parsing,
//! checking: all without a lock), then swaps it in; a reader holds the lock only to clone
//! an `Arc`, so it never waits for the disk and never sees half of an edit.
//!
//! The store's state (`prompt-store`'s `Store`: every edit, import and reload) and hot
//! reload (`promptic::hot`) both swap through it.

use std::sync::{Arc, RwLock};

/// The current version of a `T`, replaced whole. A poisoned lock is read through: the
/// value inside is always a whole version, since it is only ever replaced by an `Arc`
/// assignment, which cannot stop half-way.
#[derive(Debug, Default)]
pub struct Swapped<T> {
    current: RwLock<Arc<T>>,
}

impl<T> Swapped<T> {
    /// Starts at `value`.
    pub fn new(value: T) -> Swapped<T> {
        Swapped {
            current: RwLock::new(Arc::new(value)),
        }
    }

    /// The version to read now. The lock is held only to clone the `Arc`.
    pub fn current(&self) -> Arc<T> {
        Arc::clone(&self.current.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// Makes `next` the current version; returns the one it replaces. Readers holding the
    /// old version keep it until they drop it.
    pub fn replace(&self, next: impl Into<Arc<T>>) -> Arc<T> {
        let next = next.into();
        let mut current = self.current.write().unwrap_or_else(|e| e.into_inner());
        std::mem::replace(&mut *current, next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_keep_the_version_they_took() {
        let swapped = Swapped::new(String::from("a"));
        let before = swapped.current();
        let old = swapped.replace(String::from("b"));
        assert_eq!((before.as_str(), old.as_str()), ("a", "a"));
        assert_eq!(*swapped.current(), "b");
        swapped.replace(Arc::new(String::from("c")));
        assert_eq!(*swapped.current(), "c");
    }

    #[test]
    fn a_poisoned_lock_still_gives_whole_versions() {
        let swapped = Arc::new(Swapped::new(1_u32));
        let writer = Arc::clone(&swapped);
        let _ = std::thread::spawn(move || {
            let _guard = writer.current.write().unwrap();
            panic!("poison the lock");
        })
        .join();
        assert!(swapped.current.is_poisoned());
        assert_eq!(*swapped.current(), 1);
        swapped.replace(2);
        assert_eq!(*swapped.current(), 2);
    }

    #[test]
    fn many_readers_during_replacements_see_whole_values() {
        let swapped = Arc::new(Swapped::new((0_u64, 0_u64)));
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let swapped = Arc::clone(&swapped);
                std::thread::spawn(move || {
                    for _ in 0..10_000 {
                        let pair = swapped.current();
                        assert_eq!(pair.0 * 2, pair.1);
                    }
                })
            })
            .collect();
        for i in 1..2_000 {
            swapped.replace((i, i * 2));
        }
        for reader in readers {
            reader.join().unwrap();
        }
    }
}
