//! `MjOption`: `model.opt`, a live view of the model's physics options.

use mjrs_core::layout::{Kind, Scalar};
use mjrs_core::Options;
use pyo3::exceptions::{PyAttributeError, PyValueError};
use pyo3::prelude::*;

use crate::arrays::{assign, raw_view};
use crate::mjmodel::MjModel;

/// MuJoCo's `mjOption` of a model (`model.opt`).
#[pyclass(module = "mjrs", name = "MjOption")]
pub struct MjOption {
    model: Py<MjModel>,
}

impl MjOption {
    /// The options of `model`.
    pub fn of_model(model: Py<MjModel>) -> Self {
        Self { model }
    }
}

/// The option `name`'s kind and values.
fn read(opt: &Options, name: &str) -> Option<(Kind, Vec<Scalar>)> {
    let mut found = None;
    opt.for_each(|n, kind, values| {
        if n == name {
            found = Some((kind, values.to_vec()));
        }
    });
    found
}

/// Where the vector option `name` lives (its values are `mjtNum`s).
fn vector(opt: &Options, name: &str) -> Option<(usize, usize)> {
    let v: &[f64] = match name {
        "gravity" => &opt.gravity,
        "wind" => &opt.wind,
        "magnetic" => &opt.magnetic,
        "o_solref" => &opt.o_solref,
        "o_solimp" => &opt.o_solimp,
        "o_friction" => &opt.o_friction,
        _ => return None,
    };
    Some((v.as_ptr() as usize, v.len()))
}

/// Sets scalar option `name` to `value`.
fn write(opt: &mut Options, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let Some((kind, _)) = read(opt, name) else {
        return Err(no_attribute(name));
    };
    let scalar = match kind {
        Kind::Int => Scalar::Int(value.extract::<i64>()?),
        _ => Scalar::Real(value.extract::<f64>()?),
    };
    // `try_fill` asks for every field: the others keep their values
    let current = *opt;
    opt.try_fill(|n, _, dst| {
        if n == name {
            dst[0] = scalar;
        } else if let Some((_, values)) = read(&current, n) {
            dst.copy_from_slice(&values);
        }
        Ok::<(), PyErr>(())
    })
}

fn no_attribute(name: &str) -> PyErr {
    PyAttributeError::new_err(format!("'MjOption' object has no attribute '{name}'"))
}

#[pymethods]
impl MjOption {
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let model = self.model.bind(py);
        let m = model.borrow();
        if let Some((address, len)) = vector(&m.model().opt, name) {
            return raw_view::<f64>(model.as_any(), address, &[len], true);
        }
        match read(&m.model().opt, name) {
            Some((_, values)) if values.len() == 1 => Ok(match values[0] {
                Scalar::Int(i) => i.into_pyobject(py)?.into_any(),
                Scalar::Real(r) => r.into_pyobject(py)?.into_any(),
            }),
            Some(_) => Err(PyValueError::new_err(format!(
                "option '{name}' is an array without a view"
            ))),
            None => Err(no_attribute(name)),
        }
    }

    fn __setattr__(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if vector(&self.model.bind(py).borrow().model().opt, name).is_some() {
            let view = self.__getattr__(py, name)?;
            return assign(&view, value);
        }
        let mut m = self.model.bind(py).try_borrow_mut()?;
        write(&mut m.cell.opt, name, value)
    }

    fn __dir__(&self, py: Python<'_>) -> Vec<String> {
        let mut names = Vec::new();
        self.model
            .bind(py)
            .borrow()
            .model()
            .opt
            .for_each(|n, _, _| names.push(n.to_owned()));
        names
    }
}
