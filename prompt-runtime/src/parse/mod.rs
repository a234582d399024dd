//! Stage 2, parse: body text to nodes with byte spans.

pub mod lexer;
