//! Reading source files: bytes to normalised text, the folder a file may be read from,
//! and a prompt's JSON frontmatter.
//!
//! Text is normalised so that a prompt renders to the same bytes on every OS: a UTF-8
//! byte-order mark is dropped and CRLF becomes LF. All spans in later stages are byte
//! offsets into this normalised text.
//!
//! Every file is read through [`Root`] (or [`read_file`] for a file the user names on
//! purpose): only from inside its folder, only a regular file, at most [`MAX_FILE`] bytes.
//! Everything public here is reached through [`crate::load`].

mod frontmatter;
pub(crate) mod json;
mod real_path;
pub mod root;
mod yaml;

pub(crate) use frontmatter::split as split_frontmatter;
pub use frontmatter::{Frontmatter, FrontmatterEntry};
pub use root::{MAX_FILE, ReadError, Root, read_file};

use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};

/// Whether something other than a folder is at `path` (a file, a link, a FIFO, a
/// device): what decides which file a name is, so that the reader, not a quiet
/// "not found", refuses one it does not read.
pub(crate) fn names_a_file(path: &std::path::Path) -> bool {
    std::fs::symlink_metadata(path).is_ok() && !path.is_dir()
}

/// Decodes a file's bytes into a [`SourceFile`]: BOM dropped, UTF-8 checked, CRLF to LF.
pub fn decode(path: &str, bytes: &[u8]) -> Result<SourceFile, Diagnostics> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let (skipped, rest) = match bytes.strip_prefix(BOM) {
        Some(rest) => (BOM.len(), rest),
        None => (0, bytes),
    };
    match std::str::from_utf8(rest) {
        Ok(text) => Ok(SourceFile::new(path, normalize(text))),
        Err(e) => {
            let offset = skipped + e.valid_up_to();
            Err(Diagnostic::new(format!(
                "`{path}` is not valid UTF-8: invalid byte 0x{:02x} at byte offset {offset}",
                bytes[offset]
            ))
            .in_file(path)
            .with_help("save the file as UTF-8")
            .into())
        }
    }
}

/// CRLF to LF and no leading BOM; a CR alone stays.
///
/// ```
/// use promptic::load::normalize;
///
/// assert_eq!(normalize("\u{feff}a\r\nb\rc\r\n"), "a\nb\rc\n");
/// assert_eq!(normalize("plain\n"), "plain\n");
/// ```
pub fn normalize(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Most files have no CR: one scan for it, not a search for CRLF.
    if !text.as_bytes().contains(&b'\r') {
        return text.to_owned();
    }
    text.replace("\r\n", "\n")
}
