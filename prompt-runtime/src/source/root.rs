//! Reading a file for promptic: only from inside its folder, only a regular file, and
//! never more than [`MAX_FILE`] bytes. Every prompt-related read goes through here: the
//! derive, [`Project`](crate::load::Project), the CLI, families, stores (defaults and user
//! folder) and hot reload.
//!
//! - **The folder rule.** A file is read from a [`Root`] (the crate's `prompts/`, the CLI's
//!   `--dir`, a store folder, a store's user folder) only when its resolved path, every
//!   link followed, stays inside the root's resolved path. A link — of the file itself or
//!   of a folder on the way — that leads out is one error naming the link and its target,
//!   and nothing is read. Links that stay inside are followed. The root itself may be a
//!   link: it is the folder the user named.
//! - **Only regular files.** A FIFO would block a read forever and a device (`/dev/zero`)
//!   never ends, so the kind is checked before the file is opened; on Unix the file is then
//!   opened non-blocking (a FIFO swapped in between cannot block the open) and its kind
//!   checked again on the opened handle.
//! - **One size limit.** A file larger than [`MAX_FILE`] is refused by its size before it
//!   is read, and the read itself stops one byte past the limit, so a file that grows
//!   while it is read cannot pass either.
//!
//! The check is made on the paths, then the file is opened: a folder on the way swapped
//! for a link in between (by someone who can write inside the folder) is not caught; the
//! last name is opened without following a link, and the opened file's kind is checked.
//!
//! Files a user names on purpose outside any folder (the CLI's `--identity` and
//! `--history` JSON files) are read with [`read_file`]: regular files within the limit,
//! wherever they are.
//!
//! ```
//! use promptic::load::Root;
//!
//! let dir = std::env::temp_dir().join(format!("pk-root-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("a.md"), "Hello")?;
//! let root = Root::new(&dir, "prompts");
//! assert_eq!(root.read("a.md")?.as_deref(), Some(&b"Hello"[..]));
//! assert_eq!(root.read("missing.md")?, None);
//! # #[cfg(unix)] {
//! std::os::unix::fs::symlink("/etc/passwd", dir.join("env.md"))?;
//! let refused = root.read("env.md").unwrap_err();
//! assert_eq!(
//!     refused.to_string(),
//!     "`prompts/env.md` is a link to `/etc/passwd`, outside `prompts/`, so it is not read"
//! );
//! # }
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::diagnostic::Diagnostic;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// The largest file promptic reads, in bytes: a prompt, a template, `promptic.json`, a
/// store's manifest, registry or domain file, an identity or history JSON file (4 MiB,
/// [`crate::resolve::MAX_EXPANDED`], the most a prompt may hold with its templates
/// inlined). A larger file is refused by its size before it is read.
///
/// ```
/// assert_eq!(promptic::load::MAX_FILE, 4 * 1024 * 1024);
/// ```
pub const MAX_FILE: u64 = 4 << 20;

/// A folder that reads stay inside (see the [module doc](self)).
#[derive(Clone, Debug)]
pub struct Root {
    dir: PathBuf,
    display: String,
    /// The folder's resolved path, once found: a store reads a file per prompt from one
    /// root, and resolving the root again for each would be most of the cost of a read.
    real: std::sync::OnceLock<PathBuf>,
}

/// Why a file was not read. Its [`Display`](std::fmt::Display) is the whole message; a
/// [`Diagnostic`] made from it also carries the file and a help line.
#[derive(Debug)]
pub struct ReadError {
    shown: String,
    /// Boxed: the error stays small on the `Ok` path of every read.
    why: Box<Why>,
    /// Refused for a write (a store's user folder), not a read.
    write: bool,
}

#[derive(Debug)]
enum Why {
    /// A link on the way (`link`, as shown) whose target is outside the root.
    LeavesRoot {
        link: String,
        /// The link's target as written.
        target: PathBuf,
        /// Where it resolves, when the written target does not say so itself (it leads
        /// to another link that leaves).
        resolved: Option<PathBuf>,
        root: String,
    },
    /// A link on the way whose target does not exist.
    Dangling {
        link: String,
        target: PathBuf,
    },
    /// Not a regular file: what it is, and where a link led.
    NotAFile {
        what: &'static str,
        target: Option<PathBuf>,
    },
    /// Larger than `limit`: its length, `None` when it grew past the limit while read.
    TooLarge {
        len: Option<u64>,
        limit: u64,
    },
    Io(io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = &self.shown;
        match &*self.why {
            Why::LeavesRoot {
                link,
                target,
                resolved,
                root,
            } => {
                write!(f, "`{link}` is a link to `{}`", target.display())?;
                if let Some(resolved) = resolved {
                    write!(f, ", which leads to `{}`", resolved.display())?;
                }
                write!(f, ", outside `{root}/`, so ")?;
                match (link == shown, self.write) {
                    (true, false) => write!(f, "it is not read"),
                    (false, false) => write!(f, "`{shown}` is not read"),
                    (true, true) => write!(f, "nothing is written through it"),
                    (false, true) => write!(f, "`{shown}` is not written"),
                }
            }
            Why::Dangling { link, target } if *link == *shown => write!(
                f,
                "`{shown}` is a link to `{}`, which does not exist",
                target.display()
            ),
            Why::Dangling { link, target } => write!(
                f,
                "`{link}` is a link to `{}`, which does not exist, so `{shown}` is not {}",
                target.display(),
                if self.write { "written" } else { "read" }
            ),
            Why::NotAFile { what, target: None } => {
                write!(
                    f,
                    "`{shown}` is {what}, not a regular file, so it is not read"
                )
            }
            Why::NotAFile {
                what,
                target: Some(target),
            } => write!(
                f,
                "`{shown}` leads to `{}`, {what}, not a regular file, so it is not read",
                target.display()
            ),
            Why::TooLarge {
                len: Some(len),
                limit,
            } => write!(
                f,
                "`{shown}` is {len} bytes, more than promptic reads from one file ({limit} bytes)"
            ),
            Why::TooLarge { len: None, limit } => write!(
                f,
                "`{shown}` grew past {limit} bytes while it was read, more than promptic reads from one file"
            ),
            Why::Io(e) => write!(f, "cannot read `{shown}`: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl ReadError {
    /// The file, as it is shown.
    pub fn path(&self) -> &str {
        &self.shown
    }

    /// True when the file is larger than the limit.
    pub fn is_too_large(&self) -> bool {
        matches!(*self.why, Why::TooLarge { .. })
    }

    /// True when the file does not exist (only [`read_file`] reports that as an error).
    pub fn is_not_found(&self) -> bool {
        matches!(&*self.why, Why::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }

    /// The I/O error, when the file could not be read at all (rather than being refused).
    pub fn io_error(&self) -> Option<&io::Error> {
        match &*self.why {
            Why::Io(e) => Some(e),
            _ => None,
        }
    }

    /// What to do about it.
    pub fn help(&self) -> Option<&'static str> {
        Some(match &*self.why {
            Why::LeavesRoot { .. } | Why::Dangling { .. } if self.write => {
                "a user folder's files and folders stay inside it: replace the link with a folder or file of its own"
            }
            Why::LeavesRoot { .. } => {
                "keep the file inside the folder: copy it in, or point the link at a file inside"
            }
            Why::Dangling { .. } => "point the link at a file that exists, or remove it",
            Why::NotAFile { .. } => "make it a regular file",
            Why::TooLarge { .. } => {
                "a file holds at most 4 MiB (`promptic::load::MAX_FILE`); split it"
            }
            Why::Io(_) => return None,
        })
    }
}

impl From<ReadError> for Diagnostic {
    fn from(e: ReadError) -> Diagnostic {
        let d = Diagnostic::new(e.to_string()).in_file(e.shown.clone());
        match e.help() {
            Some(help) => d.with_help(help),
            None => d,
        }
    }
}

impl From<ReadError> for crate::Diagnostics {
    fn from(e: ReadError) -> crate::Diagnostics {
        Diagnostic::from(e).into()
    }
}

impl Root {
    /// The folder `dir`, shown in messages as `display` (`prompts`).
    pub fn new(dir: impl Into<PathBuf>, display: impl Into<String>) -> Root {
        Root {
            dir: dir.into(),
            display: display.into(),
            real: std::sync::OnceLock::new(),
        }
    }

    /// The folder as given.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `rel` as messages show it: `prompts/templates/intro.md`.
    pub fn shown(&self, rel: impl AsRef<Path>) -> String {
        let rel = rel.as_ref().to_string_lossy().replace('\\', "/");
        let display = self.display.trim_end_matches('/');
        match (display.is_empty(), rel.is_empty()) {
            (true, _) => rel,
            (false, true) => display.to_owned(),
            (false, false) => format!("{display}/{rel}"),
        }
    }

    /// Reads the file at `rel` (relative to the root, without `..`): `Ok(None)` when it
    /// does not exist. Refused: a link on the way that leads out of the root or to
    /// nothing, anything but a regular file, a file over [`MAX_FILE`] bytes.
    pub fn read(&self, rel: impl AsRef<Path>) -> Result<Option<Vec<u8>>, ReadError> {
        let rel = rel.as_ref();
        let Some(real) = self.resolve(rel)? else {
            return Ok(None);
        };
        let shown = self.shown(rel);
        let through_link = self.through_link(rel, &real);
        read_regular(&real, &shown, MAX_FILE, through_link, true).map(Some)
    }

    /// Where `rel` is once every link is followed, when it exists and stays inside the
    /// root (`Ok(None)`: it does not exist). Refused as by [`Root::read`] for a link that
    /// leads out or to nothing; the kind of file is not looked at.
    pub fn resolve(&self, rel: impl AsRef<Path>) -> Result<Option<PathBuf>, ReadError> {
        let rel = rel.as_ref();
        let shown = self.shown(rel);
        let io = |e: io::Error| ReadError {
            shown: shown.clone(),
            why: Box::new(Why::Io(e)),
            write: false,
        };
        if rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err(io(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the path must stay inside the folder (no `..`, not absolute)",
            )));
        }
        let real_root = match self.real.get() {
            Some(real) => real.clone(),
            None => match self.dir.canonicalize() {
                // Not kept while the folder is missing: it may be made later.
                Ok(real) => self.real.get_or_init(|| real).clone(),
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(io(e)),
            },
        };
        let path = self.dir.join(rel);
        // A regular file is named by the kernel once opened (linear in its path; the C
        // library's `realpath` walks the path again for each component, which made
        // `list` on a deep tree cubic); anything else is resolved by `canonicalize`.
        let real = match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => super::real_path::real_file_path(&path),
            _ => path.canonicalize(),
        };
        match real {
            Ok(real) if real.starts_with(&real_root) => Ok(Some(real)),
            Ok(real) => Err(self.culprit(rel, &real_root).unwrap_or(ReadError {
                why: Box::new(Why::LeavesRoot {
                    link: shown.clone(),
                    target: real,
                    resolved: None,
                    root: self.display.clone(),
                }),
                shown,
                write: false,
            })),
            Err(e) if e.kind() == io::ErrorKind::NotFound => match self.culprit(rel, &real_root) {
                Some(refused) => Err(refused),
                None => Ok(None),
            },
            Err(e) => Err(io(e)),
        }
    }

    /// The folder at `rel` when it exists, is a folder and stays inside the root (its path
    /// under the root, to list); `Ok(None)` when it does not exist.
    pub fn folder(&self, rel: impl AsRef<Path>) -> Result<Option<PathBuf>, ReadError> {
        let rel = rel.as_ref();
        let Some(real) = self.resolve(rel)? else {
            return Ok(None);
        };
        match std::fs::metadata(&real) {
            Ok(meta) if meta.is_dir() => Ok(Some(self.dir.join(rel))),
            Ok(meta) => Err(ReadError {
                shown: self.shown(rel),
                why: Box::new(Why::NotAFile {
                    what: kind_of(&meta),
                    target: None,
                }),
                write: false,
            }),
            Err(e) => Err(ReadError {
                shown: self.shown(rel),
                why: Box::new(Why::Io(e)),
                write: false,
            }),
        }
    }

    /// Refuses a write of `rel` that would reach outside the root: through a folder on
    /// the way, or the file itself, that is a link leading out of the root or to nothing
    /// (opening it would create its target). A file or folder that does not exist yet is
    /// no problem: it is created inside. For the writes of a store's user folder.
    #[doc(hidden)]
    pub fn check_write(&self, rel: impl AsRef<Path>) -> Result<(), ReadError> {
        self.resolve(rel).map(drop).map_err(|mut e| {
            e.write = true;
            e
        })
    }

    /// Where `rel` leads when it is itself a link, so that a message can say so.
    fn through_link(&self, rel: &Path, real: &Path) -> Option<PathBuf> {
        let path = self.dir.join(rel);
        path.symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
            .then(|| real.to_owned())
    }

    /// The first link on the way to `rel` that leads out of the root or to nothing.
    fn culprit(&self, rel: &Path, real_root: &Path) -> Option<ReadError> {
        let mut prefix = self.dir.clone();
        let mut shown_rel = PathBuf::new();
        for component in rel.components() {
            prefix.push(component);
            shown_rel.push(component);
            let Ok(meta) = prefix.symlink_metadata() else {
                return None;
            };
            if !meta.file_type().is_symlink() {
                continue;
            }
            let written = std::fs::read_link(&prefix).unwrap_or_default();
            let why = match prefix.canonicalize() {
                Ok(real) if real.starts_with(real_root) => continue,
                Ok(real) => Why::LeavesRoot {
                    link: self.shown(&shown_rel),
                    // The target as written says where it goes, unless it names a place
                    // inside (a link to a link that leaves): then where it resolves, too.
                    resolved: (!leaves_lexically(&shown_rel, &written)).then_some(real),
                    target: written,
                    root: self.display.clone(),
                },
                Err(_) => Why::Dangling {
                    link: self.shown(&shown_rel),
                    target: written,
                },
            };
            return Some(ReadError {
                shown: self.shown(rel),
                why: Box::new(why),
                write: false,
            });
        }
        None
    }
}

/// True when the target `written` of the link at `link` (relative to the root) names a
/// place outside the root as written: absolute, or with more `..` than the link is deep.
fn leaves_lexically(link: &Path, written: &Path) -> bool {
    let mut depth = link.components().count().saturating_sub(1);
    for component in written.components() {
        match component {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir if depth == 0 => return true,
            Component::ParentDir => depth -= 1,
            Component::RootDir | Component::Prefix(_) => return true,
        }
    }
    false
}

/// Reads the file at `path`, wherever it is (links followed): a file the user names on
/// purpose, such as the CLI's `--identity`. Only a regular file of at most `limit` bytes
/// is read (see the [module doc](self)); `shown` is how messages name it. A missing file
/// is an error here ([`ReadError::is_not_found`]).
///
/// ```
/// use promptic::load::{read_file, MAX_FILE};
/// let e = read_file("/no/such/identity.json".as_ref(), "identity.json", MAX_FILE).unwrap_err();
/// assert!(e.is_not_found());
/// # #[cfg(unix)]
/// assert_eq!(
///     read_file("/dev/zero".as_ref(), "/dev/zero", MAX_FILE).unwrap_err().to_string(),
///     "`/dev/zero` is a character device, not a regular file, so it is not read"
/// );
/// ```
pub fn read_file(path: &Path, shown: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_regular(path, shown, limit, None, false)
}

fn read_regular(
    path: &Path,
    shown: &str,
    limit: u64,
    through_link: Option<PathBuf>,
    no_follow: bool,
) -> Result<Vec<u8>, ReadError> {
    let refuse = |why: Why| ReadError {
        shown: shown.to_owned(),
        why: Box::new(why),
        write: false,
    };
    let check = |meta: &Metadata| -> Result<(), ReadError> {
        if !meta.is_file() {
            return Err(refuse(Why::NotAFile {
                what: kind_of(meta),
                target: through_link.clone(),
            }));
        }
        if meta.len() > limit {
            return Err(refuse(Why::TooLarge {
                len: Some(meta.len()),
                limit,
            }));
        }
        Ok(())
    };
    // By its kind and size first: never open what is no regular file.
    check(&std::fs::metadata(path).map_err(|e| refuse(Why::Io(e)))?)?;
    let file = open(path, no_follow).map_err(|e| refuse(Why::Io(e)))?;
    // What was opened may not be what was looked at (the path changed in between).
    let meta = file.metadata().map_err(|e| refuse(Why::Io(e)))?;
    check(&meta)?;
    // The length is at most `limit` (4 MiB), so this fits in memory and in `usize`.
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| refuse(Why::Io(e)))?;
    if bytes.len() as u64 > limit {
        return Err(refuse(Why::TooLarge { len: None, limit }));
    }
    Ok(bytes)
}

/// Opens for reading without blocking on a FIFO (Unix: `O_NONBLOCK`; the open of a FIFO
/// without a writer would wait for one), without making a terminal the controlling one,
/// and, for a path already resolved inside a root, without following a link that took
/// the last name's place since.
fn open(path: &Path, no_follow: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
        if no_follow {
            flags |= libc::O_NOFOLLOW;
        }
        options.custom_flags(flags);
    }
    #[cfg(not(unix))]
    let _ = no_follow;
    options.open(path)
}

/// What a file that is not a regular file is, for messages.
fn kind_of(meta: &Metadata) -> &'static str {
    if meta.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pk-root-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("root/sub")).unwrap();
        dir
    }

    #[test]
    fn a_file_inside_is_read_and_a_missing_one_is_none() {
        let dir = scratch("inside");
        std::fs::write(dir.join("root/sub/a.md"), "A").unwrap();
        let root = Root::new(dir.join("root"), "prompts");
        assert_eq!(root.read("sub/a.md").unwrap().unwrap(), b"A");
        assert!(root.read("sub/b.md").unwrap().is_none());
        assert!(root.read("nosuch/b.md").unwrap().is_none());
        let missing_root = Root::new(dir.join("none"), "none");
        assert!(missing_root.read("a.md").unwrap().is_none());
        assert!(root.read("../root/sub/a.md").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_are_followed_and_links_out_are_named() {
        use std::os::unix::fs::symlink;
        let dir = scratch("links");
        std::fs::write(dir.join("root/sub/a.md"), "A").unwrap();
        std::fs::write(dir.join("secret.md"), "secret").unwrap();
        symlink("sub/a.md", dir.join("root/alias.md")).unwrap();
        symlink("sub", dir.join("root/folder")).unwrap();
        symlink(dir.join("secret.md"), dir.join("root/out.md")).unwrap();
        symlink(&dir, dir.join("root/up")).unwrap();
        symlink("nowhere", dir.join("root/dangling.md")).unwrap();
        // a link to a link that leaves is named as the first one
        symlink("out.md", dir.join("root/chain.md")).unwrap();
        let root = Root::new(dir.join("root"), "prompts");
        assert_eq!(root.read("alias.md").unwrap().unwrap(), b"A");
        assert_eq!(root.read("folder/a.md").unwrap().unwrap(), b"A");
        let real = dir.canonicalize().unwrap();
        assert_eq!(
            root.read("out.md").unwrap_err().to_string(),
            format!(
                "`prompts/out.md` is a link to `{}`, outside `prompts/`, so it is not read",
                dir.join("secret.md").display()
            )
        );
        std::fs::write(dir.join("root/inner.md"), "inner").unwrap();
        symlink("../inner.md", dir.join("root/sub/relative.md")).unwrap();
        symlink("../../secret.md", dir.join("root/sub/up.md")).unwrap();
        assert_eq!(root.read("sub/relative.md").unwrap().unwrap(), b"inner");
        assert_eq!(
            root.read("sub/up.md").unwrap_err().to_string(),
            "`prompts/sub/up.md` is a link to `../../secret.md`, outside `prompts/`, so it is not read"
        );
        assert_eq!(
            root.read("up/secret.md").unwrap_err().to_string(),
            format!(
                "`prompts/up` is a link to `{}`, outside `prompts/`, so `prompts/up/secret.md` is not read",
                dir.display()
            )
        );
        // a missing file behind a link out is refused too, not "missing"
        assert!(root.read("up/none.md").is_err());
        assert_eq!(
            root.read("chain.md").unwrap_err().to_string(),
            format!(
                "`prompts/chain.md` is a link to `out.md`, which leads to `{}`, outside `prompts/`, so it is not read",
                real.join("secret.md").display()
            )
        );
        assert_eq!(
            root.read("dangling.md").unwrap_err().to_string(),
            "`prompts/dangling.md` is a link to `nowhere`, which does not exist"
        );
        let d = Diagnostic::from(root.read("out.md").unwrap_err());
        assert_eq!(d.location().unwrap().path, "prompts/out.md");
        assert!(d.help().is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn the_root_may_itself_be_a_link() {
        let dir = scratch("root-link");
        std::fs::write(dir.join("root/a.md"), "A").unwrap();
        std::os::unix::fs::symlink("root", dir.join("named")).unwrap();
        let root = Root::new(dir.join("named"), "prompts");
        assert_eq!(root.read("a.md").unwrap().unwrap(), b"A");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = scratch("fifo");
        let fifo = dir.join("root/p.md");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("mkfifo is not available; skipped");
            return;
        }
        let root = Root::new(dir.join("root"), "prompts");
        assert_eq!(
            root.read("p.md").unwrap_err().to_string(),
            "`prompts/p.md` is a FIFO (named pipe), not a regular file, so it is not read"
        );
        // the open itself does not block either, should the kind check be passed
        assert!(open(&fifo, true).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_over_the_limit_is_refused_by_its_size() {
        let dir = scratch("large");
        let path = dir.join("root/big.md");
        // sparse: costs no disk and no time
        File::create(&path).unwrap().set_len(MAX_FILE + 1).unwrap();
        let root = Root::new(dir.join("root"), "prompts");
        let e = root.read("big.md").unwrap_err();
        assert!(e.is_too_large());
        assert_eq!(
            e.to_string(),
            format!(
                "`prompts/big.md` is {} bytes, more than promptic reads from one file ({MAX_FILE} bytes)",
                MAX_FILE + 1
            )
        );
        File::create(&path).unwrap().set_len(MAX_FILE).unwrap();
        assert_eq!(root.read("big.md").unwrap().unwrap().len() as u64, MAX_FILE);
        // a folder where a file should be
        assert_eq!(
            root.read("sub").unwrap_err().to_string(),
            "`prompts/sub` is a folder, not a regular file, so it is not read"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file whose size says nothing about what a read gives (Linux's `/proc` files are
    /// 0 bytes long) passes the size check; the read itself stops past the limit.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_read_stops_one_byte_past_the_limit() {
        let status = Path::new("/proc/self/status");
        assert_eq!(std::fs::metadata(status).unwrap().len(), 0);
        let e = read_file(status, "status", 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`status` grew past 10 bytes while it was read, more than promptic reads from one file"
        );
        assert!(read_file(status, "status", MAX_FILE).unwrap().len() > 10);
    }
}
