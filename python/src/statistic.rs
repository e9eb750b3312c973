//! `MjStatistic`: `model.stat`, a live view of the model's statistics (the extent and center
//! the free camera and the renderer's clipping planes are made from).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrays::raw_view;
use crate::mjmodel::MjModel;

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

/// Getters and setters of the scalar statistics.
macro_rules! scalars {
    ($($field:ident / $set:ident),* $(,)?; $($methods:tt)*) => {
        #[pymethods]
        impl MjStatistic {
            $(
                #[getter]
                fn $field(&self, py: Python<'_>) -> f64 {
                    self.model.bind(py).borrow().cell.stat.$field
                }

                #[setter]
                fn $set(&self, py: Python<'_>, value: f64) -> PyResult<()> {
                    self.model.bind(py).try_borrow_mut()?.cell.stat.$field = value;
                    Ok(())
                }
            )*
            $($methods)*
        }
    };
}

scalars!(
    meaninertia / set_meaninertia,
    meanmass / set_meanmass,
    meansize / set_meansize,
    extent / set_extent;
    /// Center of the model, a writable view of the model's memory.
    #[getter]
    fn center<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let model = self.model.bind(py);
        let address = model.borrow().cell.stat.center.as_ptr() as usize;
        raw_view::<f64>(model.as_any(), address, &[3], true)
    }

    #[setter]
    fn set_center(&self, py: Python<'_>, value: [f64; 3]) -> PyResult<()> {
        let mut model = self
            .model
            .bind(py)
            .try_borrow_mut()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        model.cell.stat.center = value;
        Ok(())
    }
);
