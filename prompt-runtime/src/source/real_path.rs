//! Where a file really is, found in time in proportion to its path.
//!
//! `std::fs::canonicalize` is the C library's `realpath`, which asks the kernel about each
//! component of the path in turn, each time by the whole path so far: a file N folders
//! deep costs N² steps, and checking each prompt of a folder tree N deep costs N³
//! (`promptic list` at depth 800 would take 12–14 s). On Linux the file is opened once
//! instead and the kernel names what it opened (`/proc/self/fd/N`); elsewhere, or when
//! that fails, `canonicalize` answers.

use std::path::{Path, PathBuf};

/// The absolute path of the regular file `path`, with every link on the way resolved.
/// Only a regular file may be given: it is opened (not read) to be named.
pub(crate) fn real_file_path(path: &Path) -> std::io::Result<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::OpenOptionsExt;
        // Non-blocking: a FIFO put in the file's place after its kind was looked at does
        // not hold the open.
        let open = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(path);
        if let Ok(file) = open
            && let Ok(real) = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
            && real.is_absolute()
        {
            return Ok(real);
        }
    }
    path.canonicalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_real_path_is_what_canonicalize_gives() {
        let dir = std::env::temp_dir().join(format!("promptic-real-path-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        std::fs::write(dir.join("a/b/f.md"), "x").unwrap();
        let through = [dir.join("a/b/f.md"), dir.join("a/./b/../b/f.md")];
        #[cfg(unix)]
        let through = {
            std::os::unix::fs::symlink("a/b", dir.join("link")).unwrap();
            std::os::unix::fs::symlink("b/f.md", dir.join("a/file-link.md")).unwrap();
            let mut all = through.to_vec();
            all.extend([dir.join("link/f.md"), dir.join("a/file-link.md")]);
            all
        };
        for path in &through {
            assert_eq!(
                real_file_path(path).unwrap(),
                path.canonicalize().unwrap(),
                "{}",
                path.display()
            );
        }
        assert!(real_file_path(&dir.join("missing.md")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
