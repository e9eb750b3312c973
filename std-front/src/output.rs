//! Writing the files mjrs is asked to write (`-o` of the command-line tool, MJB saves, PNG
//! images and frames, viewer screenshots), safe on hostile paths.
//!
//! * A regular file, or a path where nothing exists yet, is replaced atomically: the bytes go to
//!   a new temporary file in the target's directory, created with `O_EXCL | O_NOFOLLOW` under an
//!   unpredictable name, flushed with `fsync`, then renamed over the target. Readers see the old
//!   file or the whole new one; on failure the target is untouched and the temporary file is
//!   removed. The new file keeps the permissions of the one it replaces.
//! * A character device or a FIFO (`/dev/null`, `/dev/full`, a named pipe) is written in place:
//!   replacing it would destroy the device node, and a failed write (`ENOSPC` on `/dev/full`)
//!   is an error.
//! * A read-only file (no write permission bit, or one this process may not open for writing) is
//!   refused, even for root; so are a symbolic link (writing through it would let a planted link
//!   redirect the output, replacing it would break the link), a directory, a block device and a
//!   socket.

use std::ffi::OsString;
use std::fs::{File, FileType, Metadata, OpenOptions, Permissions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// Temporary names tried before giving up; a clash needs a 64-bit random name to exist already.
const TEMP_ATTEMPTS: u32 = 16;

/// Writes `bytes` to `path` as the module documentation describes: regular files atomically,
/// devices and FIFOs in place, anything else refused with an error saying why.
pub fn write_file(path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    let (path, bytes) = (path.as_ref(), bytes.as_ref());
    match target(path)? {
        Target::Absent => replace(path, bytes, None),
        Target::Regular(meta) => replace(path, bytes, Some(meta.permissions())),
        Target::Stream => write_in_place(path, bytes),
    }
}

/// What is at the output path now.
enum Target {
    /// Nothing: the file is created.
    Absent,
    /// A writable regular file: replaced.
    Regular(Metadata),
    /// A character device or a FIFO: written in place.
    Stream,
}

/// Classifies the output path without following a link at its last component.
fn target(path: &Path) -> io::Result<Target> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Target::Absent),
        Err(e) => return Err(e),
    };
    let kind = meta.file_type();
    if kind.is_file() {
        check_writable(path, &meta)?;
        return Ok(Target::Regular(meta));
    }
    if is_stream(&kind) {
        return Ok(Target::Stream);
    }
    Err(refused(describe(&kind)))
}

/// A read-only regular file is refused: root could replace it, but the user marked it so.
fn check_writable(path: &Path, meta: &Metadata) -> io::Result<()> {
    if meta.permissions().readonly() {
        return Err(refused("the file is read-only"));
    }
    // opening for writing, without truncating, asks the system whether this user may write it
    let mut probe = OpenOptions::new();
    probe.write(true);
    no_follow(&mut probe, true);
    match probe.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            Err(refused("the file is read-only for this user"))
        }
        Err(e) => Err(e),
    }
}

/// Writes a new file beside `path` and renames it over `path`, giving it `permissions` (those
/// of the file it replaces) if any; the temporary file never outlives a failure.
fn replace(path: &Path, bytes: &[u8], permissions: Option<Permissions>) -> io::Result<()> {
    let (mut file, tmp) = create_temp(path)?;
    let result = fill(&mut file, bytes, permissions)
        .and_then(|()| recheck(path))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The bytes, the permissions, then `fsync`: a rename after this never exposes a partial file.
fn fill(file: &mut File, bytes: &[u8], permissions: Option<Permissions>) -> io::Result<()> {
    if let Some(p) = permissions {
        file.set_permissions(p)?;
    }
    file.write_all(bytes)?;
    file.sync_all()
}

/// Just before the rename: the target must still be absent or a writable regular file (it may
/// have been swapped for a device or a link while the bytes were written).
fn recheck(path: &Path) -> io::Result<()> {
    match target(path)? {
        Target::Absent | Target::Regular(_) => Ok(()),
        Target::Stream => Err(refused("the target became a device or FIFO while writing")),
    }
}

/// A new, empty temporary file in the directory of `path`, created exclusively (`O_EXCL`: an
/// existing file or link of that name is an error, never opened) under a random name.
fn create_temp(path: &Path) -> io::Result<(File, PathBuf)> {
    if path.file_name().is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "no file name to write",
        ));
    }
    for _ in 0..TEMP_ATTEMPTS {
        let tmp = path.with_file_name(temp_name());
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        no_follow(&mut options, false);
        match options.open(&tmp) {
            Ok(file) => return Ok((file, tmp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary file name in the target's directory",
    ))
}

/// `.mjrs-<16 hex digits>.tmp`: a hash of the process id, the time in nanoseconds, a counter
/// and an address, keyed by std's randomly seeded `RandomState` (keys from the operating
/// system's random source), so that another user cannot guess the name and plant a file there.
fn temp_name() -> OsString {
    use std::hash::{BuildHasher as _, Hasher as _};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(nanos);
    // where the stack is: address-space layout randomization adds its bits
    h.write_usize(std::ptr::addr_of!(nanos) as usize);
    format!(".mjrs-{:016x}.tmp", h.finish()).into()
}

/// Writes a device or FIFO where it is; the opened file is checked to still be one (the path
/// may have been swapped since it was classified).
fn write_in_place(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true);
    no_follow(&mut options, false);
    let mut file = options.open(path)?;
    if !is_stream(&file.metadata()?.file_type()) {
        return Err(refused("the target changed while it was opened"));
    }
    // no fsync: a device or pipe has nothing to persist, and many refuse it (EINVAL)
    file.write_all(bytes)?;
    file.flush()
}

/// An error for a target mjrs will not write.
fn refused(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("refused: {why}"))
}

/// Why a target that is neither a regular file nor a stream is refused.
fn describe(kind: &FileType) -> &'static str {
    if kind.is_symlink() {
        "it is a symbolic link (mjrs does not write through links; give the path it points to)"
    } else if kind.is_dir() {
        "it is a directory"
    } else {
        "it is neither a regular file, a character device nor a FIFO"
    }
}

/// A character device or a FIFO: what mjrs writes in place.
#[cfg(unix)]
fn is_stream(kind: &FileType) -> bool {
    use std::os::unix::fs::FileTypeExt as _;
    kind.is_char_device() || kind.is_fifo()
}

#[cfg(not(unix))]
fn is_stream(_: &FileType) -> bool {
    false
}

/// `O_NOFOLLOW` (a link at the last component fails the open), and `O_NONBLOCK` when
/// `nonblock` (a probe must not wait for a FIFO's reader).
#[cfg(unix)]
fn no_follow(options: &mut OpenOptions, nonblock: bool) {
    use std::os::unix::fs::OpenOptionsExt as _;
    let extra = if nonblock { libc::O_NONBLOCK } else { 0 };
    options.custom_flags(libc::O_NOFOLLOW | extra);
}

/// Elsewhere the link and FIFO checks of [`target`] stand alone.
#[cfg(not(unix))]
fn no_follow(_: &mut OpenOptions, _: bool) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_hidden_and_never_repeat() {
        let names: std::collections::HashSet<OsString> = (0..1000).map(|_| temp_name()).collect();
        assert_eq!(names.len(), 1000);
        let name = names.iter().next().unwrap().to_str().unwrap().to_owned();
        assert!(
            name.starts_with(".mjrs-") && name.ends_with(".tmp"),
            "{name}"
        );
        assert_eq!(name.len(), ".mjrs-".len() + 16 + ".tmp".len());
    }

    #[test]
    fn a_file_is_created_then_replaced_and_nothing_else_is_left() {
        let dir = std::env::temp_dir().join(format!("mjrs-output-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        let file = dir.join("out");
        write_file(&file, b"first").unwrap();
        write_file(&file, b"second").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"second");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
