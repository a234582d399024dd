//! Front ends: readers from another system's prompt files into promptic.
//!
//! Each foreign format is one module here (see DESIGN.md, "Front ends"). A front end
//! renders whitespace exactly as the system it comes from does: a migrated prompt must stay
//! byte-identical, since providers cache prompt prefixes by bytes.

pub mod dotprompt;
pub mod jinja;
pub mod keep;
