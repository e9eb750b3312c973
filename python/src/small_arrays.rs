//! Small NumPy arrays owned by the visualization structs (`MjvCamera.lookat`,
//! `MjvOption.flags`, `MjvScene.flags`, ...): Python changes them in place, as it changes
//! MuJoCo's, and the Rust value is read from them when a function runs.

use numpy::{Element, PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A new array holding `values`.
pub fn new_array<T: Element + Copy>(py: Python<'_>, values: &[T]) -> Py<PyArray1<T>> {
    PyArray1::from_slice(py, values).unbind()
}

/// The `N` values of `array`.
pub fn read<T: Element + Copy + Default, const N: usize>(
    py: Python<'_>,
    array: &Py<PyArray1<T>>,
) -> [T; N] {
    let mut out = [T::default(); N];
    // the arrays are made here with N elements and only ever written in place
    if let Ok(view) = array.bind(py).try_readonly() {
        if let Ok(values) = view.as_slice() {
            out.iter_mut().zip(values).for_each(|(o, v)| *o = *v);
        }
    }
    out
}

/// Writes `values` into `array`.
pub fn write<T: Element + Copy>(py: Python<'_>, array: &Py<PyArray1<T>>, values: &[T]) {
    if let Ok(mut view) = array.bind(py).try_readwrite() {
        if let Ok(slice) = view.as_slice_mut() {
            slice.iter_mut().zip(values).for_each(|(s, v)| *s = *v);
        }
    }
}

/// Assigns a Python value (a sequence of numbers) to `array`, as MuJoCo's bindings assign
/// `camera.lookat = [...]`: the number of values must match.
pub fn assign<T: Element + Copy>(
    array: &Py<PyArray1<T>>,
    value: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<()> {
    let py = value.py();
    let dtype = array.bind(py).dtype();
    let values = py
        .import("numpy")?
        .getattr("ascontiguousarray")?
        .call1((value, dtype))?
        .call_method0("ravel")?;
    let values = values.cast::<PyArray1<T>>()?;
    let len = array.bind(py).len();
    if values.len() != len {
        return Err(PyValueError::new_err(format!(
            "{name} takes {len} values, got {}",
            values.len()
        )));
    }
    let values = values.try_readonly()?;
    write(py, array, values.as_slice()?);
    Ok(())
}
