//! MuJoCo's virtual file system (`mjVFS`, "Virtual file system" in the API reference): files
//! held in memory under their name without path, looked up by the loaders before the disk.
//!
//! The behaviour is MuJoCo 3.1.6's (`user_vfs.c`):
//! * names are stored without their path (everything up to the last `/` or `\` is dropped) and
//!   in ASCII lower case, and every lookup transforms the name it is given the same way, so
//!   `"assets/Mesh.STL"` finds `"mesh.stl"`;
//! * a name already present is refused (code 2), files are kept in the order they were added,
//!   and deleting one moves the later ones forward;
//! * the VFS holds at most [`MAX_VFS`]` - 1` = 1999 files: MuJoCo refuses a file once
//!   `nfile >= mjMAXVFS - 1` (code 1);
//! * a stripped name must be 1 to [`MAX_VFS_NAME`]` - 1` bytes long. MuJoCo raises an error
//!   for other names and for empty buffers; mjrs returns an error value with code -1.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Capacity constant of the VFS (`mjMAXVFS`); as in MuJoCo, at most `MAX_VFS - 1` files fit.
pub const MAX_VFS: usize = 2000;

/// Size of MuJoCo's file name buffer (`mjMAXVFSNAME`): stripped names are shorter than this.
pub const MAX_VFS_NAME: usize = 1000;

/// Why a VFS operation failed. [`VfsError::code`] gives MuJoCo's integer return code.
#[derive(Debug)]
pub enum VfsError {
    /// The VFS already holds `MAX_VFS - 1` files (MuJoCo's return code 1).
    Full,
    /// A file of this (stripped) name is already present (code 2, "repeated name").
    RepeatedName(String),
    /// The file could not be read from disk (code -1, "failed to load").
    Read {
        /// The path that was read: the directory joined with the file name.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The name is empty once its path is stripped (code -1; MuJoCo: "empty filename").
    EmptyName(String),
    /// The stripped name has `MAX_VFS_NAME` bytes or more (code -1; MuJoCo: "filename too
    /// long").
    NameTooLong(String),
    /// [`Vfs::add_buffer`] was given no bytes (code -1; MuJoCo: "expects positive buffer
    /// size").
    EmptyBuffer(String),
    /// [`Vfs::delete`] found no file of this name (code -1, "not found in VFS").
    NotFound(String),
}

impl VfsError {
    /// MuJoCo's return code for this failure: 1 full, 2 repeated name, -1 otherwise (failed
    /// to load, not found, or what MuJoCo reports through `mju_error`).
    pub fn code(&self) -> i32 {
        match self {
            VfsError::Full => 1,
            VfsError::RepeatedName(_) => 2,
            _ => -1,
        }
    }
}

impl fmt::Display for VfsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VfsError::Full => write!(f, "VFS full: it holds {} files", MAX_VFS - 1),
            VfsError::RepeatedName(n) => write!(f, "VFS already has a file named '{n}'"),
            VfsError::Read { path, source } => {
                write!(f, "cannot read '{}' into the VFS: {source}", path.display())
            }
            VfsError::EmptyName(n) => write!(f, "VFS file name '{n}' is empty without its path"),
            VfsError::NameTooLong(n) => write!(
                f,
                "VFS file name '{n}' is too long (at most {} bytes)",
                MAX_VFS_NAME - 1
            ),
            VfsError::EmptyBuffer(n) => write!(f, "VFS file '{n}' has no bytes"),
            VfsError::NotFound(n) => write!(f, "no file '{n}' in the VFS"),
        }
    }
}

impl core::error::Error for VfsError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            VfsError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// One file: its stripped name and its bytes.
#[derive(Clone, Debug)]
struct VfsFile {
    name: String,
    data: Vec<u8>,
}

/// A virtual file system (`mjVFS`): named files in memory, looked up by the loaders before the
/// disk. `Vfs::new()` is `mj_defaultVFS`; dropping it is `mj_deleteVFS`.
#[derive(Clone, Debug, Default)]
pub struct Vfs {
    files: Vec<VfsFile>,
}

/// The name MuJoCo stores for `name` (`vfs_strippath`): without the path up to the last `/` or
/// `\`, in ASCII lower case.
pub fn vfs_name(name: &str) -> Result<String, VfsError> {
    let stripped = name.rsplit(['/', '\\']).next().unwrap_or(name);
    if stripped.is_empty() {
        return Err(VfsError::EmptyName(name.to_owned()));
    }
    if stripped.len() >= MAX_VFS_NAME {
        return Err(VfsError::NameTooLong(name.to_owned()));
    }
    Ok(stripped.to_ascii_lowercase())
}

/// `dir` and `name` joined as MuJoCo joins them (`mju_makefullname`): a `/` between them
/// unless `dir` is empty or already ends with a separator.
fn full_path(dir: Option<&Path>, name: &str) -> PathBuf {
    let Some(dir) = dir.filter(|d| !d.as_os_str().is_empty()) else {
        return PathBuf::from(name);
    };
    let mut full = dir.as_os_str().to_owned();
    let bytes = full.as_encoded_bytes();
    if !matches!(bytes.last(), Some(b'/' | b'\\')) {
        full.push("/");
    }
    full.push(name);
    PathBuf::from(full)
}

impl Vfs {
    /// An empty VFS (`mj_defaultVFS`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of files (`mjVFS.nfile`).
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the VFS holds no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Reads file `name` from directory `dir` (or from `name` itself when `dir` is `None` or
    /// empty) and adds it under `name` without its path (`mj_addFileVFS`). Checks, in MuJoCo's
    /// order: full (1), bad name (-1), repeated name (2), unreadable file (-1).
    pub fn add_file(&mut self, dir: Option<&Path>, name: &str) -> Result<(), VfsError> {
        self.check_room()?;
        let stored = self.new_name(name)?;
        let path = full_path(dir, name);
        let data = crate::read_file(&path).map_err(|source| VfsError::Read { path, source })?;
        self.files.push(VfsFile { name: stored, data });
        Ok(())
    }

    /// Adds `bytes` as file `name` without its path (`mj_addBufferVFS`). Checks, in MuJoCo's
    /// order: full (1), empty buffer (-1), bad name (-1), repeated name (2).
    pub fn add_buffer(&mut self, name: &str, bytes: impl Into<Vec<u8>>) -> Result<(), VfsError> {
        self.check_room()?;
        let data = bytes.into();
        if data.is_empty() {
            return Err(VfsError::EmptyBuffer(name.to_owned()));
        }
        let stored = self.new_name(name)?;
        self.files.push(VfsFile { name: stored, data });
        Ok(())
    }

    /// Index of file `name` (path stripped, any case), as `mj_findFileVFS` returns it; `None`
    /// where MuJoCo returns -1 (and for names MuJoCo would reject with an error).
    pub fn find_index(&self, name: &str) -> Option<usize> {
        let key = vfs_name(name).ok()?;
        self.files.iter().position(|f| f.name == key)
    }

    /// The bytes of file `name` (path stripped, any case), as MuJoCo's loaders read them from
    /// the VFS (`mj_findFileVFS`, then `filedata`).
    pub fn find(&self, name: &str) -> Option<&[u8]> {
        self.find_index(name).map(|i| self.files[i].data.as_slice())
    }

    /// Removes file `name` (`mj_deleteFileVFS`); later files move forward one index. A name
    /// that is not present is [`VfsError::NotFound`] (MuJoCo's -1).
    pub fn delete(&mut self, name: &str) -> Result<(), VfsError> {
        let i = self
            .find_index(name)
            .ok_or_else(|| VfsError::NotFound(name.to_owned()))?;
        self.files.remove(i);
        Ok(())
    }

    /// Removes every file (`mj_deleteVFS`).
    pub fn clear(&mut self) {
        self.files.clear();
    }

    /// The stored names (without path, lower case), in index order (`mjVFS.filename`).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|f| f.name.as_str())
    }

    /// MuJoCo's capacity check, made before anything else.
    fn check_room(&self) -> Result<(), VfsError> {
        if self.files.len() >= MAX_VFS - 1 {
            Err(VfsError::Full)
        } else {
            Ok(())
        }
    }

    /// The stored form of `name`, refused when a file of that name is present.
    fn new_name(&self, name: &str) -> Result<String, VfsError> {
        let stored = vfs_name(name)?;
        if self.files.iter().any(|f| f.name == stored) {
            return Err(VfsError::RepeatedName(stored));
        }
        Ok(stored)
    }
}
