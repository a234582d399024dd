//! The bodies of the fuzz targets, as plain functions: `fuzz_targets/*.rs` hand them
//! libFuzzer's inputs, and `benches/tests/fuzz_replay.rs` replays the corpus through the
//! same functions on stable. Each takes raw bytes and panics only on a bug.

pub mod chat_template;
pub mod dotprompt;
pub mod identity_json;
pub mod jinja;
pub mod keep_docs;
pub mod pipeline;
pub mod safe_substitute;
pub mod store_archive;
pub mod store_folder;
