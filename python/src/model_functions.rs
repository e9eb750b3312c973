//! MuJoCo's functions on a whole model: `mj_setConst`, `mj_printModel`, `mj_printData`.

use std::ffi::CString;

use mjrs_core::print::{print_data, print_model};
use mjrs_core::set_const;
use pyo3::exceptions::PyRuntimeWarning;
use pyo3::prelude::*;

use crate::data::{check_pair, MjData};
use crate::errors::FatalError;
use crate::model::MjModel;

/// Recomputes the model's constants that the compiler derives by running it (`mj_setConst`):
/// subtree masses, `dof_M0`, the `*0` fields, `stat`, spring lengths. `d` is scratch.
#[pyfunction]
#[pyo3(name = "mj_setConst")]
pub fn mj_set_const(
    py: Python<'_>,
    mut m: PyRefMut<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let model = &mut *m.cell;
    let data = &mut *d.cell;
    py.detach(|| set_const(model, data))
        .map_err(|e| FatalError::new_err(e.to_string()))
}

/// Writes `text` to `filename`; MuJoCo warns and writes nothing when the file cannot be
/// opened (`what` names the struct in its message).
fn write_text(py: Python<'_>, filename: &str, text: &str, what: &str) -> PyResult<()> {
    if std::fs::write(filename, text).is_err() {
        let message = format!("Could not open file '{filename}' for writing {what}");
        // a file name cannot hold a NUL (the write fails first), so the message has none
        let message = CString::new(message).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &message, 1)?;
    }
    Ok(())
}

/// Prints the model to `filename` in MuJoCo's text format (`mj_printModel`).
#[pyfunction]
#[pyo3(name = "mj_printModel")]
pub fn mj_print_model(py: Python<'_>, m: PyRef<'_, MjModel>, filename: &str) -> PyResult<()> {
    let mut text = String::new();
    print_model(m.model(), &mut text).map_err(|e| FatalError::new_err(e.to_string()))?;
    write_text(py, filename, &text, "mjModel")
}

/// Prints the data to `filename` in MuJoCo's text format (`mj_printData`).
#[pyfunction]
#[pyo3(name = "mj_printData")]
pub fn mj_print_data(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    filename: &str,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let mut text = String::new();
    print_data(m.model(), &d.cell, &mut text).map_err(|e| FatalError::new_err(e.to_string()))?;
    write_text(py, filename, &text, "mjModel")
}
