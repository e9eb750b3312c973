//! `mjrs.rollout`'s engine: open-loop rollouts on the core's `rollout` (one data) or
//! `mjrs_std::rollout_threaded` (a thread pool, one data per thread), without the GIL.
//! The Python module `mjrs/rollout.py` infers the shapes and allocates the outputs.

use mjrs_core::rollout::{rollout, RolloutBuffers};
use mjrs_core::Real;
use mjrs_std::rollout_threaded;
use numpy::{PyReadonlyArrayDyn, PyReadwriteArrayDyn};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::data::{check_pair, MjData, RolloutWorkers};
use crate::model::MjModel;

fn contiguous<'a>(a: &'a PyReadonlyArrayDyn<'_, Real>, name: &str) -> PyResult<&'a [Real]> {
    a.as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name} must be C-contiguous")))
}

fn contiguous_mut<'a>(
    a: &'a mut PyReadwriteArrayDyn<'_, Real>,
    name: &str,
) -> PyResult<&'a mut [Real]> {
    a.as_slice_mut()
        .map_err(|_| PyValueError::new_err(format!("{name} must be C-contiguous")))
}

/// Runs `nroll` rollouts of `nstep` steps; `nthread` > 1 spreads them over that many threads.
/// Buffers are flat row-major float64 arrays of the shapes of `mjrs_core::rollout`.
#[pyfunction]
#[pyo3(signature = (m, d, nroll, nstep, control_spec, initial_state, initial_warmstart = None,
                    control = None, state = None, sensordata = None, nthread = 1))]
pub fn _rollout(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    nroll: usize,
    nstep: usize,
    control_spec: i32,
    initial_state: PyReadonlyArrayDyn<'_, Real>,
    initial_warmstart: Option<PyReadonlyArrayDyn<'_, Real>>,
    control: Option<PyReadonlyArrayDyn<'_, Real>>,
    mut state: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut sensordata: Option<PyReadwriteArrayDyn<'_, Real>>,
    nthread: usize,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let buffers = RolloutBuffers {
        state0: contiguous(&initial_state, "initial_state")?,
        warmstart0: initial_warmstart
            .as_ref()
            .map(|a| contiguous(a, "initial_warmstart"))
            .transpose()?,
        control: control
            .as_ref()
            .map(|a| contiguous(a, "control"))
            .transpose()?,
        state: state
            .as_mut()
            .map(|a| contiguous_mut(a, "state"))
            .transpose()?,
        sensordata: sensordata
            .as_mut()
            .map(|a| contiguous_mut(a, "sensordata"))
            .transpose()?,
    };
    let model = m.model();
    let result = if nthread <= 1 {
        let data = &mut *d.cell;
        py.detach(|| rollout(model, data, nroll, nstep, control_spec, buffers))
    } else {
        let own_model = d.is_own_model(&m);
        let mut fresh = None;
        let workers = if own_model {
            let cached = d
                .rollout_workers
                .take()
                .filter(|w| w.pool.nworker() == nthread);
            d.rollout_workers.insert(match cached {
                Some(w) => w,
                None => RolloutWorkers::new(model, nthread)?,
            })
        } else {
            fresh.insert(RolloutWorkers::new(model, nthread)?)
        };
        let RolloutWorkers { pool, datas } = workers;
        py.detach(|| rollout_threaded(pool, model, datas, nroll, nstep, control_spec, buffers))
    };
    result.map_err(|e| PyValueError::new_err(e.to_string()))
}
