//! MuJoCo's functions on a whole model: `mj_setConst`, `mj_printModel`, `mj_printData` and
//! their `mj_printFormatted*` variants.

use std::ffi::CString;

use mjrs_core::print::{
    print_data, print_formatted_data, print_formatted_model, print_model, FloatFormat,
};
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

/// A Python `RuntimeWarning` with MuJoCo's warning text.
fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    // a message from a file name cannot hold a NUL (the write fails first), so this has none
    let message = CString::new(message).unwrap_or_default();
    PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &message, 1)
}

/// Writes `text` to `filename`; MuJoCo warns and writes nothing when the file cannot be
/// opened (`what` names the struct in its message).
fn write_text(py: Python<'_>, filename: &str, text: &str, what: &str) -> PyResult<()> {
    if std::fs::write(filename, text).is_err() {
        warn(
            py,
            &format!("Could not open file '{filename}' for writing {what}"),
        )?;
    }
    Ok(())
}

/// The float format `float_format`; MuJoCo warns and uses its default for one it refuses.
fn float_format(py: Python<'_>, float_format: &str) -> PyResult<FloatFormat> {
    match FloatFormat::parse(float_format) {
        Ok(f) => Ok(f),
        Err(_) => {
            warn(
                py,
                "WARNING: Received invalid float_format. Using default instead.",
            )?;
            Ok(FloatFormat::DEFAULT)
        }
    }
}

fn print_error(e: core::fmt::Error) -> PyErr {
    FatalError::new_err(e.to_string())
}

/// Prints the model to `filename` in MuJoCo's text format (`mj_printModel`).
#[pyfunction]
#[pyo3(name = "mj_printModel")]
pub fn mj_print_model(py: Python<'_>, m: PyRef<'_, MjModel>, filename: &str) -> PyResult<()> {
    let mut text = String::new();
    print_model(m.model(), &mut text).map_err(print_error)?;
    write_text(py, filename, &text, "mjModel")
}

/// [`mj_print_model`] with numbers in the printf format `float_format`
/// (`mj_printFormattedModel`).
#[pyfunction]
#[pyo3(name = "mj_printFormattedModel")]
pub fn mj_print_formatted_model(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    filename: &str,
    float_format: &str,
) -> PyResult<()> {
    let format = self::float_format(py, float_format)?;
    let mut text = String::new();
    print_formatted_model(m.model(), &mut text, &format).map_err(print_error)?;
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
    print_data(m.model(), &d.cell, &mut text).map_err(print_error)?;
    write_text(py, filename, &text, "mjModel")
}

/// [`mj_print_data`] with numbers in the printf format `float_format`
/// (`mj_printFormattedData`).
#[pyfunction]
#[pyo3(name = "mj_printFormattedData")]
pub fn mj_print_formatted_data(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    filename: &str,
    float_format: &str,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let format = self::float_format(py, float_format)?;
    let mut text = String::new();
    print_formatted_data(m.model(), &d.cell, &mut text, &format).map_err(print_error)?;
    write_text(py, filename, &text, "mjModel")
}
