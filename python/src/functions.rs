//! MuJoCo's functions under their names (`mj_step`, `mj_forward`, ...), releasing the GIL
//! while the core computes.

use mjrs_core::io::{reset_data, reset_data_keyframe};
use mjrs_core::name::{id2name, name2id};
use mjrs_core::smooth::rne_post_constraint;
use mjrs_core::{Data, Model, StepError};
use pyo3::prelude::*;

use crate::data::{check_pair, MjData};
use crate::errors::FatalError;
use crate::model::MjModel;

/// A failed step as MuJoCo's `FatalError` (MuJoCo's `mju_error`), with mjrs's message.
fn fatal(e: StepError) -> PyErr {
    FatalError::new_err(e.to_string())
}

/// Runs `f` on the model and data without the GIL, after checking they belong together.
fn with_pair<R: Send>(
    py: Python<'_>,
    m: &MjModel,
    d: &mut MjData,
    f: impl FnOnce(&Model<'static>, &mut Data<'static>) -> R + Send,
) -> PyResult<R> {
    check_pair(m, d)?;
    let model = m.model();
    let data = &mut *d.cell;
    Ok(py.detach(|| f(model, data)))
}

/// Advances the simulation `nstep` times (`mj_step`).
#[pyfunction]
#[pyo3(signature = (m, d, nstep = 1))]
pub fn mj_step(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    nstep: i32,
) -> PyResult<()> {
    with_pair(py, &m, &mut d, |m, d| {
        for _ in 0..nstep.max(0) {
            mjrs_core::step(m, d)?;
        }
        Ok(())
    })?
    .map_err(fatal)
}

/// Forward dynamics (`mj_forward`).
#[pyfunction]
pub fn mj_forward(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
) -> PyResult<()> {
    with_pair(py, &m, &mut d, |m, d| mjrs_core::forward(m, d))?.map_err(fatal)
}

/// Inverse dynamics (`mj_inverse`).
#[pyfunction]
pub fn mj_inverse(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
) -> PyResult<()> {
    with_pair(py, &m, &mut d, |m, d| mjrs_core::inverse(m, d))?.map_err(fatal)
}

/// RNE with the constraint forces known: `cacc`, `cfrc_int`, `cfrc_ext`
/// (`mj_rnePostConstraint`).
#[pyfunction]
#[pyo3(name = "mj_rnePostConstraint")]
pub fn mj_rne_post_constraint(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
) -> PyResult<()> {
    with_pair(py, &m, &mut d, rne_post_constraint)
}

/// Resets the data to the model's defaults (`mj_resetData`).
#[pyfunction]
#[pyo3(name = "mj_resetData")]
pub fn mj_reset_data(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
) -> PyResult<()> {
    with_pair(py, &m, &mut d, reset_data)
}

/// Resets the data, then loads keyframe `key` (`mj_resetDataKeyframe`).
#[pyfunction]
#[pyo3(name = "mj_resetDataKeyframe")]
pub fn mj_reset_data_keyframe(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    key: i32,
) -> PyResult<()> {
    with_pair(py, &m, &mut d, |m, d| reset_data_keyframe(m, d, key))
}

/// The id of the object of type `type` called `name`, -1 if there is none (`mj_name2id`).
#[pyfunction]
#[pyo3(signature = (m, r#type, name))]
pub fn mj_name2id(m: PyRef<'_, MjModel>, r#type: i32, name: &str) -> i64 {
    name2id(m.model(), r#type, name).map_or(-1, |id| id as i64)
}

/// The name of object `id` of type `type`, `None` if it has none (`mj_id2name`).
#[pyfunction]
#[pyo3(signature = (m, r#type, id))]
pub fn mj_id2name(m: PyRef<'_, MjModel>, r#type: i32, id: i64) -> Option<String> {
    let id = usize::try_from(id).ok()?;
    id2name(m.model(), r#type, id).map(str::to_owned)
}
