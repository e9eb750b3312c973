//! MJB files: MuJoCo's binary models on disk or in a [`Vfs`] (`mj_loadModel`, `mj_saveModel`).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use mjrs_alloc::OwnedModel;
use mjrs_core::mjb::{self, MjbError};
use mjrs_core::Model;

use crate::resource::{get_resource_provider, open_resource, ResourceError};
use crate::vfs::Vfs;

/// Why [`load_mjb`] failed. Its `Display` is one line naming the file.
#[derive(Debug)]
pub enum LoadError {
    /// The file is neither in the VFS nor readable on disk.
    Io {
        /// The path asked for.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The resource provider matching the name's prefix did not open or read it.
    Resource {
        /// The path asked for.
        path: PathBuf,
        /// Why, in MuJoCo's words.
        source: ResourceError,
    },
    /// The bytes are not a valid MuJoCo 3.1.6 MJB model.
    Mjb {
        /// The path asked for.
        path: PathBuf,
        /// What is wrong with the blob.
        source: MjbError,
    },
}

impl LoadError {
    /// The path that failed to load.
    pub fn path(&self) -> &Path {
        match self {
            LoadError::Io { path, .. }
            | LoadError::Resource { path, .. }
            | LoadError::Mjb { path, .. } => path,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, source } => {
                write!(f, "cannot read '{}': {source}", path.display())
            }
            LoadError::Resource { path, source } => {
                write!(f, "cannot read '{}': {source}", path.display())
            }
            LoadError::Mjb { path, source } => {
                write!(f, "cannot load '{}': {source}", path.display())
            }
        }
    }
}

impl core::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            LoadError::Io { source, .. } => Some(source),
            LoadError::Resource { source, .. } => Some(source),
            // `MjbError` does not implement `Error` (yet); its text is in ours
            LoadError::Mjb { .. } => None,
        }
    }
}

/// Why [`save_mjb`] failed. Its `Display` is one line naming the file.
#[derive(Debug)]
pub enum SaveError {
    /// The file could not be written.
    Io {
        /// The path written to.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The model could not be encoded (an `mjtNum` width other than 4 or 8).
    Mjb {
        /// The path written to.
        path: PathBuf,
        /// Why encoding failed.
        source: MjbError,
    },
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Io { path, source } => {
                write!(f, "cannot write '{}': {source}", path.display())
            }
            SaveError::Mjb { path, source } => {
                write!(f, "cannot save '{}': {source}", path.display())
            }
        }
    }
}

impl core::error::Error for SaveError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            SaveError::Io { source, .. } => Some(source),
            SaveError::Mjb { .. } => None,
        }
    }
}

/// Loads an MJB model (`mj_loadModel`): from `vfs` when it holds a file of `path`'s name
/// (path stripped, any case, as the VFS stores names), otherwise from the resource provider
/// matching its prefix (`mem:model.mjb`), otherwise from disk. A path that is not UTF-8 cannot
/// name a VFS file or a provider's resource and is read from disk.
pub fn load_mjb(path: impl AsRef<Path>, vfs: Option<&Vfs>) -> Result<OwnedModel, LoadError> {
    let path = path.as_ref();
    let name = path.to_str();
    let in_vfs = vfs.zip(name).and_then(|(v, name)| v.find(name));
    let provided = match name.filter(|n| in_vfs.is_none() && get_resource_provider(n).is_some()) {
        Some(n) => Some(read_provided(n).map_err(|source| LoadError::Resource {
            path: path.to_owned(),
            source,
        })?),
        None => None,
    };
    let from_disk;
    let blob = match (in_vfs, &provided) {
        (Some(bytes), _) => bytes,
        (None, Some(bytes)) => bytes,
        (None, None) => {
            from_disk = crate::read_file(path).map_err(|source| LoadError::Io {
                path: path.to_owned(),
                source,
            })?;
            &from_disk
        }
    };
    OwnedModel::from_mjb(blob).map_err(|source| LoadError::Mjb {
        path: path.to_owned(),
        source,
    })
}

/// The bytes of `name` from the provider serving it.
fn read_provided(name: &str) -> Result<Vec<u8>, ResourceError> {
    open_resource(name, None)?.read_to_vec()
}

/// Writes `m` to `path` as an MJB file (`mj_saveModel`) with an `mjtNum` of `real_bytes`: 8
/// for MuJoCo's format ([`mjb::NATIVE_REAL_BYTES`] in a default build), 4 for compact `f32`
/// blobs that mjrs reads too.
pub fn save_mjb(m: &Model, path: impl AsRef<Path>, real_bytes: usize) -> Result<(), SaveError> {
    let path = path.as_ref();
    let mjb_error = |source| SaveError::Mjb {
        path: path.to_owned(),
        source,
    };
    if real_bytes != 4 && real_bytes != 8 {
        let n = i32::try_from(real_bytes).unwrap_or(i32::MAX);
        return Err(mjb_error(MjbError::BadRealSize(n)));
    }
    let mut blob = vec![0; mjb::save_size(m, real_bytes)];
    let n = mjb::save(m, &mut blob, real_bytes).map_err(mjb_error)?;
    crate::write_file(path, &blob[..n]).map_err(|source| SaveError::Io {
        path: path.to_owned(),
        source,
    })
}
