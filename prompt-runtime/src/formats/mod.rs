//! Front ends: readers from another system's prompt files into promptkit's forms, one
//! module each (see the project's design notes). Each reads its format exactly as the
//! system it comes from does; where promptkit is stricter, the module says so.

pub mod keep;
