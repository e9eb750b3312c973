//! Reading a whole file as MuJoCo's resource reader does (`mju_fileToMemory`), with its limit.
//!
//! MuJoCo sizes a file before reading it (`fseek` to the end, `ftell`) and reads that many
//! bytes: a device such as `/dev/zero` has size 0 and reads as empty, a pipe cannot be sized
//! and reads as nothing, and a file larger than `INT_MAX` bytes is refused ("File size over
//! 2GB is not supported"). mjrs does the same before reading a byte, so no input can make it
//! read without end, block on a pipe, or take more than [`MAX_FILE_BYTES`] for one file.

use std::io::{self, Read};
use std::path::Path;

/// The most bytes read from one file (a model, an include, an asset, an MJB): MuJoCo's
/// `INT_MAX`.
pub const MAX_FILE_BYTES: u64 = i32::MAX as u64;

/// Reads `path` whole. Anything but a regular file (a device, a pipe, a socket, a directory)
/// reads as empty, as MuJoCo sizes it; a regular file larger than [`MAX_FILE_BYTES`] is an
/// error of kind [`io::ErrorKind::FileTooLarge`].
pub fn read_file(path: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    let path = path.as_ref();
    // opened without blocking (opening a pipe would wait for a writer), then typed on the open
    // handle, so a path swapped for a pipe after a check cannot block either
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(Vec::new());
    }
    let len = meta.len();
    check_size(len)?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(usize::try_from(len).unwrap_or(usize::MAX))
        .map_err(|_| io::Error::new(io::ErrorKind::OutOfMemory, out_of_memory(len)))?;
    // a file that grows while it is read is cut at the size it had, as MuJoCo's fread is
    file.take(len).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens `path` for reading with `O_NONBLOCK` where there is one; a regular file reads the same.
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Refuses a file of `len` bytes if it is larger than [`MAX_FILE_BYTES`].
fn check_size(len: u64) -> io::Result<()> {
    if len <= MAX_FILE_BYTES {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "File size over 2GB is not supported: {len} bytes, at most {MAX_FILE_BYTES} are read"
        ),
    ))
}

/// The message when the heap cannot hold a file of `len` bytes.
fn out_of_memory(len: u64) -> String {
    format!("Could not allocate memory: {len} bytes for the file")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_read_as_empty_without_reading() {
        // /dev/zero never ends: reading it would fill memory
        assert_eq!(read_file("/dev/zero").unwrap(), Vec::<u8>::new());
        assert_eq!(read_file("/").unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn files_over_the_limit_are_refused_before_reading() {
        let dir = std::env::temp_dir().join(format!("mjrs-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big");
        // sparse: takes no disk space and is never read
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(MAX_FILE_BYTES + 1).unwrap();
        let err = read_file(&path).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        assert!(err.to_string().contains("2147483648 bytes"), "{err}");
    }

    #[test]
    fn regular_files_are_read_whole() {
        let path = std::env::temp_dir().join(format!("mjrs-small-{}", std::process::id()));
        std::fs::write(&path, b"abc").unwrap();
        let bytes = read_file(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(bytes, b"abc");
    }
}
