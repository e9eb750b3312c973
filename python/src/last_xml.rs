//! The last MJCF model loaded (MuJoCo's global model of `mj_loadXML`) and `mj_saveLastXML`.
//!
//! `MjModel.from_xml_path` and `from_xml_string` keep the spec they compiled, with the MJB bytes
//! of the model it gave. As MuJoCo, the passed model's values are copied back into (a copy of)
//! the spec before writing (`mjs_copyBack`, `mjrs_xml::writer::copy_back`).

use std::io::Write;
use std::sync::Mutex;

use mjrs_alloc::OwnedModel;
use mjrs_core::ModelSizes;
use mjrs_std::Vfs;
use mjrs_xml::reader::dom::Resources;
use mjrs_xml::reader::{read_mjcf, tinyxml};
use mjrs_xml::spec::Spec;
use mjrs_xml::writer::copy_back::copy_back;
use mjrs_xml::{compiler, FileResources, XmlError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::FatalError;
use crate::mjmodel::MjModel;
use crate::pickling::mjb_of;

/// What `mj_saveLastXML` writes from.
struct LastXml {
    spec: Spec,
    sizes: ModelSizes,
    /// The compiled model, to tell which values the saved one changed since.
    mjb: Vec<u8>,
}

static LAST: Mutex<Option<LastXml>> = Mutex::new(None);

fn xml_error(e: XmlError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Compiles MJCF `text` (named `file`, assets relative to `dir`) and remembers it as the last
/// XML model (`mj_loadXML`).
pub fn compile(text: &[u8], file: &str, dir: &str, vfs: Option<&Vfs>) -> PyResult<OwnedModel> {
    let res = FileResources::new(vfs);
    let (spec, _) = read_mjcf(text, file, dir, &res).map_err(xml_error)?;
    let mut compiled = compiler::compile(spec.clone(), &res).map_err(xml_error)?;
    let sizes = *compiled.model.sizes();
    let mjb = mjb_of(&compiled.model.view())?;
    *LAST.lock().unwrap_or_else(|e| e.into_inner()) = Some(LastXml { spec, sizes, mjb });
    Ok(compiled.model)
}

/// Reads the MJCF file `path` (from `vfs`, a resource provider or the disk) and compiles it as
/// [`compile`] does.
pub fn load(path: &str, vfs: Option<&Vfs>) -> PyResult<OwnedModel> {
    let file = FileResources::new(vfs).read(path).map_err(|e| {
        xml_error(XmlError::File {
            path: path.to_owned(),
            message: e.to_string(),
        })
    })?;
    if file.bytes.is_empty() {
        return Err(xml_error(XmlError::File {
            path: path.to_owned(),
            message: format!("empty file '{path}'"),
        }));
    }
    compile(&file.bytes, path, &file.dir, vfs)
}

/// The last XML model as MJCF text, with `m`'s values copied back.
fn last_xml_text(m: &MjModel) -> PyResult<Vec<u8>> {
    let last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    let Some(last) = last.as_ref() else {
        return Err(FatalError::new_err("No XML model loaded"));
    };
    if *m.model().sizes() != last.sizes {
        return Err(FatalError::new_err("incompatible models in CopyBack"));
    }
    let mut compiled =
        OwnedModel::from_mjb(&last.mjb).map_err(|e| FatalError::new_err(e.to_string()))?;
    let mut spec = last.spec.clone();
    copy_back(&mut spec, &compiled.view(), m.model())
        .map_err(|e| FatalError::new_err(e.to_string()))?;
    let text =
        mjrs_xml::writer::write_xml(&spec).map_err(|e| FatalError::new_err(e.to_string()))?;
    // names read from a file that is not UTF-8 go back as the bytes they were
    Ok(tinyxml::raw_bytes(&text).into_owned())
}

/// Saves the last model loaded from XML as MJCF to `filename`, or to standard output when it
/// is empty (`mj_saveLastXML`).
#[pyfunction]
#[pyo3(name = "mj_saveLastXML")]
pub fn mj_save_last_xml(py: Python<'_>, filename: &str, m: PyRef<'_, MjModel>) -> PyResult<()> {
    let text = last_xml_text(&m)?;
    if filename.is_empty() {
        let stdout = py.import("sys")?.getattr("stdout")?;
        stdout.call_method1("write", (String::from_utf8_lossy(&text),))?;
        return Ok(());
    }
    std::fs::File::create(filename)
        .and_then(|mut f| f.write_all(&text))
        .map_err(|_| FatalError::new_err("File not found"))
}
