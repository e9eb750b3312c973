//! `MjStatistic`: `model.stat`, a live view of the model's statistics (`mjStatistic`), which
//! `mj_setConst` recomputes and the visualizer reads.

use mjrs_core::Statistic;
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;

use crate::arrays::{assign, raw_view};
use crate::mjmodel::MjModel;

/// The scalar fields of `mjStatistic`.
const SCALARS: [&str; 4] = ["meaninertia", "meanmass", "meansize", "extent"];

/// MuJoCo's `mjStatistic` of a model (`model.stat`).
#[pyclass(module = "mjrs", name = "MjStatistic")]
pub struct MjStatistic {
    model: Py<MjModel>,
}

impl MjStatistic {
    /// The statistics of `model`.
    pub fn of_model(model: Py<MjModel>) -> Self {
        Self { model }
    }
}

fn no_attribute(name: &str) -> PyErr {
    PyAttributeError::new_err(format!("'MjStatistic' object has no attribute '{name}'"))
}

/// The scalar field `name` of statistics `stat`.
fn scalar<'s>(stat: &'s mut Statistic, name: &str) -> Option<&'s mut f64> {
    Some(match name {
        "meaninertia" => &mut stat.meaninertia,
        "meanmass" => &mut stat.meanmass,
        "meansize" => &mut stat.meansize,
        "extent" => &mut stat.extent,
        _ => return None,
    })
}

#[pymethods]
impl MjStatistic {
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let model = self.model.bind(py);
        if name == "center" {
            let address = model.borrow().model().stat.center.as_ptr() as usize;
            return raw_view::<f64>(model.as_any(), address, &[3], true);
        }
        let mut stat = model.borrow().model().stat;
        match scalar(&mut stat, name) {
            Some(value) => Ok((*value).into_pyobject(py)?.into_any()),
            None => Err(no_attribute(name)),
        }
    }

    fn __setattr__(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if name == "center" {
            return assign(&self.__getattr__(py, name)?, value);
        }
        let value = value.extract::<f64>()?;
        let mut m = self.model.bind(py).try_borrow_mut()?;
        let field = scalar(&mut m.cell.stat, name).ok_or_else(|| no_attribute(name))?;
        *field = value;
        Ok(())
    }

    fn __dir__(&self) -> Vec<&'static str> {
        let mut names = SCALARS.to_vec();
        names.push("center");
        names
    }
}
