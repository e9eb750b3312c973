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

use std::io::ErrorKind;
use std::path::Path;

use mjrs_std::Vfs;

pub use compiler::Compilation;
pub use error::XmlError;
use reader::dom::Resources;
pub use reader::print_schema;

/// Files for the reader and compiler: the VFS first (by name without path, any case, as
/// MuJoCo looks files up), then the disk.
pub struct FileResources<'a> {
    vfs: Option<&'a Vfs>,
}

impl<'a> FileResources<'a> {
    /// Files from `vfs` (if any), then from disk.
    pub fn new(vfs: Option<&'a Vfs>) -> Self {
        Self { vfs }
    }
}

impl Resources for FileResources<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        if let Some(bytes) = self.vfs.and_then(|v| v.find(path)) {
            return Ok(bytes.to_vec());
        }
        // a directory, a device or a pipe reads as empty, as MuJoCo sizes it; a file over
        // MuJoCo's 2 GB limit is refused before it is read
        mjrs_std::read_file(path).map_err(|e| match e.kind() {
            ErrorKind::FileTooLarge | ErrorKind::OutOfMemory => format!("{e}. File: '{path}'"),
            _ => format!("resource not found via provider or OS filesystem: '{path}'"),
        })
    }

    fn exists_on_disk(&self, path: &str) -> bool {
        Path::new(path).is_file()
    }
}

/// The directory part of a model file name, with its trailing separator.
fn model_dir(file: &str) -> &str {
    reader::dom::resource_dir(file)
}

/// Reads and compiles an MJCF file (`mj_loadXML`): the VFS first, then the disk.
pub fn load_xml(path: impl AsRef<Path>, vfs: Option<&Vfs>) -> Result<Compilation, XmlError> {
    let file = path.as_ref().to_string_lossy().into_owned();
    let res = FileResources::new(vfs);
    let bytes = res.read(&file).map_err(|message| XmlError::File {
        path: file.clone(),
        message,
    })?;
    if bytes.is_empty() {
        return Err(XmlError::File {
            path: file.clone(),
            message: format!("empty file '{file}'"),
        });
    }
    // MuJoCo reads the bytes as they are, whatever their encoding
    compile_bytes(&bytes, &file, model_dir(&file), vfs)
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
