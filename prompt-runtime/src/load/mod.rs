//! The project: a prompts folder with its configuration (`promptic.json`), every prompt
//! in it loaded and checked.
//!
//! [`Project`] is where a prompts folder is read at run time; the derive, the CLI and
//! hot reload all go through it. Reading one file — bytes to normalised
//! text, the folder it may come from, its frontmatter — is done below, in `source`; a
//! [`PromptFile`] is what the parser reads. Both are reached from here.

pub mod config;
pub(crate) mod jinja_settings;
mod project;

pub use crate::parse::file::PromptFile;
pub use crate::source::root;
pub use crate::source::{
    Frontmatter, FrontmatterEntry, MAX_FILE, ReadError, Root, decode, normalize, read_file,
};
pub use project::{Project, PromptList, WALK_REPORT_LIMIT};
