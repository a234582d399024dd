//! The project configuration, `prompts/promptkit.json`.
