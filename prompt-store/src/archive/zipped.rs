//! The zip file of an archive: written in memory, and read back refusing anything that is
//! not a plain archive of a few small files. Nothing here knows what a store is; the
//! entries it hands on are names that stay inside a folder, with their bytes.
//!
//! What a hostile archive can try, and what stops it:
//! - names that leave the folder (`..`, `/abs`, `C:\x`, `C:x`, backslashes, empty or `.`
//!   segments, control characters): every name is checked before anything is read;
//! - links, devices and other special entries: only files and folders are read;
//! - duplicate names (two entries, one shown and one used): refused;
//! - encrypted entries, compression other than stored or deflate: refused;
//! - zip bombs: the declared sizes are checked against [`MAX_ENTRY_BYTES`] and
//!   [`MAX_ARCHIVE_BYTES`] first, and since a declared size can lie, each entry is read
//!   through a cap and refused when its data goes past the cap or differs from what it
//!   declared; the number of entries is counted (and bounded) before the zip reader
//!   builds its index; overlapping entries and local headers that disagree with the
//!   central directory are refused.

use std::io::{Cursor, Read, Write};
use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

/// The most entries an archive may hold (files and folders). Needs the `archive` feature.
#[cfg_attr(docsrs, doc(cfg(feature = "archive")))]
pub const MAX_ARCHIVE_ENTRIES: usize = 4096;
/// The most bytes one entry of an archive may hold, uncompressed: 16 MiB. Needs the
/// `archive` feature.
#[cfg_attr(docsrs, doc(cfg(feature = "archive")))]
pub const MAX_ENTRY_BYTES: u64 = 16 << 20;
/// The most bytes all entries of an archive may hold together, uncompressed: 64 MiB.
/// Needs the `archive` feature.
#[cfg_attr(docsrs, doc(cfg(feature = "archive")))]
pub const MAX_ARCHIVE_BYTES: u64 = 64 << 20;
/// The most bytes the archive file itself may have: its data and headers.
pub(super) const MAX_FILE_BYTES: u64 = MAX_ARCHIVE_BYTES + (8 << 20);

/// The longest entry name read.
const MAX_NAME_BYTES: usize = 1024;

/// An entry's type in the upper bits of its Unix mode.
const TYPE_BITS: u32 = 0o170000;
const REGULAR: u32 = 0o100000;
const FOLDER: u32 = 0o040000;

/// The files of an archive, in the order written, and its folder entries (names without
/// the trailing `/`).
#[derive(Debug, Default)]
pub(super) struct Unpacked {
    pub files: Vec<(String, Vec<u8>)>,
    pub folders: Vec<String>,
}

/// Why an entry name cannot be read, or `None` for a name inside the folder.
pub(super) fn unsafe_name(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix('/').unwrap_or(name);
    if name.is_empty() {
        return Some("it has no name");
    }
    if name.len() > MAX_NAME_BYTES {
        return Some("its name is too long");
    }
    if name.chars().any(char::is_control) {
        return Some("its name holds a control character");
    }
    if name.contains('\\') {
        return Some("its name holds a backslash (a Windows path)");
    }
    if name.starts_with('/') {
        return Some("it is an absolute path");
    }
    if name.contains(':') {
        return Some("its name holds `:` (a drive letter or a stream)");
    }
    if name.split('/').any(|s| s == "..") {
        return Some("its name has a `..` segment, which leaves the folder");
    }
    if name.split('/').any(|s| s.is_empty() || s == ".") {
        return Some("its name has an empty or `.` segment");
    }
    None
}

/// Writes `files` (name, text) as a zip, deflated, with a fixed date so the same files
/// give the same bytes.
pub(super) fn pack(files: &[(String, String)]) -> Result<Vec<u8>, String> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(DateTime::default())
        .unix_permissions(0o644);
    for (name, text) in files {
        zip.start_file(name.as_str(), options)
            .map_err(|e| e.to_string())?;
        zip.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    let out = zip.finish().map_err(|e| e.to_string())?;
    Ok(out.into_inner())
}

/// Reads every entry of the zip in `bytes`, each checked (see the module doc); the first
/// problem found is the error.
pub(super) fn unpack(bytes: &[u8]) -> Result<Unpacked, String> {
    // Every central directory header starts with this signature: their count bounds the
    // entries the zip reader can index, before it allocates for them.
    let headers = bytes.windows(4).filter(|w| *w == b"PK\x01\x02").count();
    if headers > MAX_ARCHIVE_ENTRIES {
        return Err(too_many());
    }
    let mut zip = ZipArchive::new(Cursor::new(bytes)).map_err(not_a_zip)?;
    if zip.len() > MAX_ARCHIVE_ENTRIES {
        return Err(too_many());
    }
    if zip.has_duplicate_names() {
        return Err("two entries have the same name".to_owned());
    }
    zip.validate_header_consistency().map_err(not_a_zip)?;

    // Every entry's header first: nothing is decompressed from an archive that declares
    // something it cannot hold.
    let mut entries = Vec::with_capacity(zip.len());
    let mut declared_total: u64 = 0;
    for i in 0..zip.len() {
        let entry = zip.by_index_raw(i).map_err(not_a_zip)?;
        let Ok(name) = std::str::from_utf8(entry.name_raw()) else {
            return Err(format!("entry {} has a name that is not UTF-8", i + 1));
        };
        let name = name.to_owned();
        if let Some(why) = unsafe_name(&name) {
            return Err(format!("entry `{}` is refused: {why}", shown(&name)));
        }
        let kind = entry.unix_mode().map_or(0, |m| m & TYPE_BITS);
        if entry.is_symlink() || (kind != 0 && kind != REGULAR && kind != FOLDER) {
            return Err(format!(
                "entry `{name}` is a link or a special file, not a file"
            ));
        }
        let folder = name.ends_with('/') || entry.is_dir() || kind == FOLDER;
        if entry.encrypted() {
            return Err(format!("entry `{name}` is encrypted"));
        }
        let method = entry.compression();
        if method != CompressionMethod::Stored && method != CompressionMethod::Deflated {
            return Err(format!(
                "entry `{name}` is compressed with {method:?}: only stored and deflate entries are read"
            ));
        }
        let size = entry.size();
        if folder && size != 0 {
            return Err(format!("entry `{name}` is a folder with data"));
        }
        if size > MAX_ENTRY_BYTES {
            return Err(entry_too_large(&name));
        }
        declared_total = declared_total.saturating_add(size);
        if declared_total > MAX_ARCHIVE_BYTES {
            return Err(archive_too_large());
        }
        entries.push((name, folder, size));
    }

    let mut out = Unpacked::default();
    let mut total: u64 = 0;
    for (i, (name, folder, size)) in entries.into_iter().enumerate() {
        if folder {
            out.folders.push(name.trim_end_matches('/').to_owned());
            continue;
        }
        let entry = zip
            .by_index(i)
            .map_err(|e| format!("entry `{name}`: {e}"))?;
        // One byte past the cap tells a lying size from an entry that ends at it.
        let mut data = Vec::new();
        entry
            .take(MAX_ENTRY_BYTES + 1)
            .read_to_end(&mut data)
            .map_err(|e| format!("entry `{name}` cannot be read: {e}"))?;
        let read = data.len() as u64;
        if read > MAX_ENTRY_BYTES {
            return Err(entry_too_large(&name));
        }
        if read != size {
            return Err(format!(
                "entry `{name}` declares {size} bytes but holds {read}"
            ));
        }
        total += read;
        if total > MAX_ARCHIVE_BYTES {
            return Err(archive_too_large());
        }
        out.files.push((name, data));
    }
    Ok(out)
}

/// A name as shown in a message: control characters escaped.
fn shown(name: &str) -> String {
    name.escape_debug().to_string()
}

fn not_a_zip(e: ZipError) -> String {
    format!("not a zip archive, or a damaged one: {e}")
}

fn too_many() -> String {
    format!("it holds more than {MAX_ARCHIVE_ENTRIES} entries")
}

fn entry_too_large(name: &str) -> String {
    format!(
        "entry `{name}` is larger than {} MiB uncompressed",
        MAX_ENTRY_BYTES >> 20
    )
}

fn archive_too_large() -> String {
    format!(
        "its entries hold more than {} MiB uncompressed",
        MAX_ARCHIVE_BYTES >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_leave_the_folder_are_refused() {
        for name in [
            "prompts/a.json",
            "_meta/user_manifest.json",
            "a",
            "prompts/",
        ] {
            assert_eq!(unsafe_name(name), None, "{name}");
        }
        for name in [
            "",
            "/",
            "../x",
            "a/../../x",
            "/etc/passwd",
            "C:\\x",
            "C:x",
            "prompts\\a.json",
            "a//b",
            "./a",
            "a\0b",
            "a\nb",
        ] {
            assert!(unsafe_name(name).is_some(), "{name:?}");
        }
    }

    #[test]
    fn what_is_packed_unpacks() {
        let files = vec![
            ("metadata.json".to_owned(), "{}".to_owned()),
            ("prompts/a.json".to_owned(), "é".repeat(1000)),
        ];
        let bytes = pack(&files).unwrap();
        assert_eq!(
            pack(&files).unwrap(),
            bytes,
            "the same files, the same bytes"
        );
        let back = unpack(&bytes).unwrap();
        let back: Vec<(String, String)> = back
            .files
            .into_iter()
            .map(|(n, b)| (n, String::from_utf8(b).unwrap()))
            .collect();
        assert_eq!(back, files);
    }

    #[test]
    fn bytes_that_are_not_a_zip_are_refused() {
        for bytes in [&b""[..], b"PK", b"{\"prompts\": {}}", &[0xFF; 100]] {
            let e = unpack(bytes).unwrap_err();
            assert!(e.starts_with("not a zip archive"), "{e}");
        }
    }
}
