//! PromptEngine stores that change: the [`Store`] of promptic, re-exported as
//! `promptic::store::Store`.
//!
//! Reading, checking and rendering a store folder is `prompt_runtime::store`'s; a `Store`
//! renders through it and adds the writes: its user layer edited (`edit`: every change
//! checked like a fresh open before `atomic` writes it), PromptEngine's folders edited in
//! place as PromptEngine writes them (`in_place`), their older layout migrated
//! (`migrate`), the user folder locked between processes (`folder_lock`), and, with the
//! `archive` feature, its prompts exported and imported as zip archives. The derive macros
//! read store folders through `prompt-runtime` alone, so a build that checks them compiles
//! none of this.

// docs.rs builds with `--cfg docsrs` on nightly: each feature-gated item gets its badge.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "archive")]
mod archive;
mod atomic;
mod builder;
mod edit;
mod file_name;
mod folder_lock;
mod in_place;
mod migrate;
mod persist;

#[cfg(feature = "archive")]
pub use archive::{
    ExportSummary, ImportMode, ImportSummary, MAX_ARCHIVE_BYTES, MAX_ARCHIVE_ENTRIES,
    MAX_ENTRY_BYTES,
};
#[doc(hidden)]
pub use builder::{LOCKED, Locked};
pub use builder::{Store, StoreBuilder};

#[cfg(test)]
mod durability_tests;

#[cfg(test)]
mod migrate_tests;

// The runtime's measure of scaling tests, shared rather than written twice.
#[cfg(test)]
#[path = "../../prompt-runtime/src/scaling.rs"]
mod scaling;

#[cfg(test)]
mod test_support;
