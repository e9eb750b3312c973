//! `MjVisual`: `model.vis`, the visualization options, as MuJoCo's `MjVisual` with its groups
//! `global_`, `quality`, `headlight`, `map`, `scale` and `rgba`.
//!
//! Scalars read and write the model. Array options (colors) read as read-only copies, so that
//! an in-place write fails loudly instead of changing a copy; assigning the whole attribute
//! (`m.vis.rgba.haze = [...]`) writes the model.

use mjrs_core::layout::{Kind, Scalar};
use mjrs_core::Visual;
use pyo3::exceptions::{PyAttributeError, PyValueError};
use pyo3::prelude::*;

use crate::mjmodel::MjModel;

/// The groups of `mjVisual`, by their Python names (`global` is a keyword: `global_`).
const GROUPS: [&str; 6] = ["global_", "quality", "headlight", "map", "scale", "rgba"];

/// Runs `$body` with `$g` bound to group `$name` of `$vis` (`None` for no such group).
macro_rules! with_group {
    ($vis:expr, $name:expr, |$g:ident| $body:expr) => {
        match $name {
            "global_" => {
                let $g = &mut $vis.global;
                Some($body)
            }
            "quality" => {
                let $g = &mut $vis.quality;
                Some($body)
            }
            "headlight" => {
                let $g = &mut $vis.headlight;
                Some($body)
            }
            "map" => {
                let $g = &mut $vis.map;
                Some($body)
            }
            "scale" => {
                let $g = &mut $vis.scale;
                Some($body)
            }
            "rgba" => {
                let $g = &mut $vis.rgba;
                Some($body)
            }
            _ => None,
        }
    };
}

/// `(kind, values)` of field `field` of group `group`.
fn read(vis: &Visual, group: &str, field: &str) -> Option<(Kind, Vec<Scalar>)> {
    let mut vis = *vis;
    let mut found = None;
    with_group!(vis, group, |g| g.for_each(|n, kind, values| {
        if n == field {
            found = Some((kind, values.to_vec()));
        }
    }))?;
    found
}

/// Sets field `field` of group `group` to `values`.
fn write(vis: &mut Visual, group: &str, field: &str, values: &[Scalar]) -> PyResult<()> {
    let current = *vis;
    let result = with_group!(vis, group, |g| g.try_fill(|n, _, dst| {
        let src = if n == field {
            values.to_vec()
        } else {
            read(&current, group, n).map(|(_, v)| v).unwrap_or_default()
        };
        if src.len() != dst.len() {
            return Err(PyValueError::new_err(format!(
                "{field} takes {} values, got {}",
                dst.len(),
                src.len()
            )));
        }
        dst.copy_from_slice(&src);
        Ok(())
    }));
    result.unwrap_or_else(|| Err(PyAttributeError::new_err(format!("no group '{group}'"))))
}

/// `model.vis`.
#[pyclass(module = "mjrs", name = "MjVisual")]
pub struct MjVisual {
    model: Py<MjModel>,
}

impl MjVisual {
    /// The visualization options of `model`.
    pub fn of_model(model: Py<MjModel>) -> Self {
        Self { model }
    }
}

#[pymethods]
impl MjVisual {
    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<VisualGroup> {
        let group = GROUPS.iter().find(|g| **g == name).ok_or_else(|| {
            PyAttributeError::new_err(format!("'MjVisual' has no attribute '{name}'"))
        })?;
        Ok(VisualGroup {
            model: self.model.clone_ref(py),
            group,
        })
    }

    fn __dir__(&self) -> Vec<&'static str> {
        GROUPS.to_vec()
    }
}

/// One group of `model.vis` (`model.vis.global_`, ...).
#[pyclass(module = "mjrs")]
pub struct VisualGroup {
    model: Py<MjModel>,
    group: &'static str,
}

#[pymethods]
impl VisualGroup {
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let vis = self.model.bind(py).borrow().cell.vis;
        let (kind, values) = read(&vis, self.group, name).ok_or_else(|| {
            PyAttributeError::new_err(format!("'{}' has no attribute '{name}'", self.group))
        })?;
        let numbers: Vec<f64> = values
            .iter()
            .map(|v| match *v {
                Scalar::Int(i) => i as f64,
                Scalar::Real(r) => r,
            })
            .collect();
        if numbers.len() == 1 {
            return Ok(match (kind, values[0]) {
                (Kind::Int, Scalar::Int(i)) => i.into_pyobject(py)?.into_any(),
                _ => numbers[0].into_pyobject(py)?.into_any(),
            });
        }
        // a read-only copy: an in-place write raises instead of changing nothing
        let array = py
            .import("numpy")?
            .getattr("array")?
            .call1((numbers, "float32"))?;
        array.getattr("flags")?.setattr("writeable", false)?;
        Ok(array)
    }

    fn __setattr__(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut model = self.model.bind(py).try_borrow_mut()?;
        let (kind, current) = read(&model.cell.vis, self.group, name).ok_or_else(|| {
            PyAttributeError::new_err(format!("'{}' has no attribute '{name}'", self.group))
        })?;
        let values: Vec<Scalar> = if current.len() == 1 {
            vec![match kind {
                Kind::Int => Scalar::Int(value.extract::<i64>()?),
                _ => Scalar::Real(value.extract::<f64>()?),
            }]
        } else {
            let numbers: Vec<f64> = value.extract()?;
            numbers.into_iter().map(Scalar::Real).collect()
        };
        write(&mut model.cell.vis, self.group, name, &values)
    }
}
