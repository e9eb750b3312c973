//! `mjrs-xml`: the MJCF (and URDF) parser (on its own reader of TinyXML2's XML), the model compiler that turns the
//! parsed [`spec::Spec`] into a `Model`, the mesh/texture/height-field decoders, and the XML
//! writer.
//!
//! The pipeline is MuJoCo 3.1.6's (`mj_loadXML`): the reader checks the document against the
//! MJCF schema and fills a [`spec::Spec`] (defaults applied element by element), the compiler
//! resolves names, frames, inertias and assets and fills every `mjModel` field, then runs the
//! engine-side constant computations (`set_const`, length ranges).
//!
//! ```no_run
//! let c = mjrs_xml::load_xml("humanoid.xml", None)?;
//! let mut model = c.model; // an mjrs_alloc::OwnedModel
//! # Ok::<(), mjrs_xml::XmlError>(())
//! ```

pub mod asset;
pub mod bvh;
pub mod cache;
pub mod compiler;
pub mod composite;
pub mod cxx;
pub mod error;
pub mod hfield;
mod keywords;
pub mod limits;
pub mod mesh;
pub mod reader;
pub mod spec;
pub mod texture;
pub mod util;
pub mod writer;

use std::path::Path;

use mjrs_std::{ResourceError, Vfs};

pub use compiler::Compilation;
pub use error::XmlError;
use reader::dom::{ResourceFile, Resources};
pub use reader::print_schema;

/// Files for the reader and compiler: the VFS first (by name without path, any case, as
/// MuJoCo looks files up), then the resource provider matching the name's prefix
/// ([`mjrs_std::resource`]), then the disk.
pub struct FileResources<'a> {
    vfs: Option<&'a Vfs>,
}

impl<'a> FileResources<'a> {
    /// Files from `vfs` (if any), then from providers and the disk.
    pub fn new(vfs: Option<&'a Vfs>) -> Self {
        Self { vfs }
    }
}

impl Resources for FileResources<'_> {
    fn read(&self, path: &str) -> Result<ResourceFile, ResourceError> {
        // a directory, a device or a pipe reads as empty, as MuJoCo sizes it; a file over
        // MuJoCo's 2 GB limit is refused before it is read
        let mut r = mjrs_std::open_resource(path, self.vfs)?;
        let dir = r.dir();
        let bytes = r.read_to_vec()?;
        Ok(ResourceFile { bytes, dir })
    }

    fn exists(&self, path: &str) -> bool {
        mjrs_std::resource::resource_exists(path)
    }
}

/// Reads and compiles an MJCF file (`mj_loadXML`): from the VFS, a resource provider (a name
/// such as `mem:model.xml`) or the disk. The model's directory, against which includes and
/// assets are found, is the resource's (`mju_getResourceDir`): a provider's `getdir`.
pub fn load_xml(path: impl AsRef<Path>, vfs: Option<&Vfs>) -> Result<Compilation, XmlError> {
    let file = path.as_ref().to_string_lossy().into_owned();
    let res = FileResources::new(vfs);
    let main = res.read(&file).map_err(|e| XmlError::File {
        path: file.clone(),
        message: e.to_string(),
    })?;
    if main.bytes.is_empty() {
        return Err(XmlError::File {
            path: file.clone(),
            message: format!("empty file '{file}'"),
        });
    }
    // MuJoCo reads the bytes as they are, whatever their encoding
    compile_bytes(&main.bytes, &file, &main.dir, vfs)
}

/// Compiles MJCF text. `file` names it in messages; assets and includes are looked up
/// relative to `modeldir` (with a trailing separator, or "").
pub fn compile_str(
    text: &str,
    file: &str,
    modeldir: &str,
    vfs: Option<&Vfs>,
) -> Result<Compilation, XmlError> {
    compile_bytes(text.as_bytes(), file, modeldir, vfs)
}

/// [`compile_str`] for text in any encoding (MuJoCo's reader does not decode it).
pub fn compile_bytes(
    text: &[u8],
    file: &str,
    modeldir: &str,
    vfs: Option<&Vfs>,
) -> Result<Compilation, XmlError> {
    let res = FileResources::new(vfs);
    let (spec, mut warnings) = reader::read_mjcf(text, file, modeldir, &res)?;
    let mut c = compiler::compile(spec, &res)?;
    warnings.append(&mut c.warnings);
    c.warnings = warnings;
    Ok(c)
}

/// Reads MJCF text into a spec without compiling it (`mj_parseXML`).
pub fn parse_str(
    text: &str,
    file: &str,
    modeldir: &str,
    vfs: Option<&Vfs>,
) -> Result<(spec::Spec, Vec<String>), XmlError> {
    reader::read_mjcf(text.as_bytes(), file, modeldir, &FileResources::new(vfs))
}
