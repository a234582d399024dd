//! promptkit: LLM prompts as part of the type system.

pub use prompt_runtime::*;
