//! Pickling of `MjModel` (MuJoCo pickles it as its MJB bytes, `mj_saveModel`): what Ray and
//! `multiprocessing` use to send a model to another process.

use mjrs_alloc::OwnedModel;
use mjrs_core::mjb::{save, save_size};
use mjrs_core::Model;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::model::MjModel;

/// MuJoCo's `mjtNum` size in an MJB file.
const REAL_BYTES: usize = 8;

/// The model as MJB bytes (`mj_saveModel` to a buffer).
pub fn mjb_of(m: &Model) -> PyResult<Vec<u8>> {
    let mut out = vec![0u8; save_size(m, REAL_BYTES)];
    let n = save(m, &mut out, REAL_BYTES).map_err(|e| PyValueError::new_err(e.to_string()))?;
    out.truncate(n);
    Ok(out)
}

/// The model stored in MJB bytes: what unpickling an `MjModel` calls.
#[pyfunction]
pub fn _model_from_mjb(blob: &[u8]) -> PyResult<MjModel> {
    let model = OwnedModel::from_mjb(blob).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(MjModel::new(model))
}
