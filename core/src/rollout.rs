//! Open-loop rollouts (`mujoco.rollout.rollout` of MuJoCo 3.1.6's Python bindings, `rollout.cc`):
//! from each of `nroll` initial states, `nstep` steps under a given control sequence, recording
//! the state and sensor values after every step.
//!
//! Buffers are flat and row-major, as the Python arrays are:
//!
//! | buffer | shape | |
//! | --- | --- | --- |
//! | `state0` | `nroll x nstate` | initial states, `nstate = state_size(m, STATE_FULLPHYSICS)` |
//! | `warmstart0` | `nroll x nv` | optional initial `qacc_warmstart` (zero when absent) |
//! | `control` | `nroll x nstep x ncontrol` | optional inputs, `ncontrol = state_size(m, control_spec)` |
//! | `state` | `nroll x nstep x nstate` | optional output: the state after each step |
//! | `sensordata` | `nroll x nstep x nsensordata` | optional output: `sensordata` after each step |
//!
//! Inputs that `control_spec` does not name are reset first (controls and applied forces to
//! zero, mocap poses and `eq_active` to the model's), so a rollout does not depend on what the
//! data held before. Once a step raises a warning, the rest of that rollout repeats the state
//! it stopped in, as MuJoCo's does. Nothing is allocated: the data's arena is the only scratch.
//! `mjrs_std::rollout_threaded` runs the rollouts of one batch on a thread pool, with the same
//! results.

use crate::data::Data;
use crate::error::StepError;
use crate::forward::step;
use crate::model::Model;
use crate::real::Real;
use crate::state::{get_state, set_state, state_size, StateError};
use crate::types::*;

/// The buffers of a batch of rollouts (see the module documentation for their shapes).
#[derive(Debug, Default)]
pub struct RolloutBuffers<'b> {
    /// Initial states, `nroll x nstate`.
    pub state0: &'b [Real],
    /// Initial `qacc_warmstart`, `nroll x nv`; zeros when `None`.
    pub warmstart0: Option<&'b [Real]>,
    /// Inputs before each step, `nroll x nstep x ncontrol`; none set when `None`.
    pub control: Option<&'b [Real]>,
    /// Output: the state after each step, `nroll x nstep x nstate`.
    pub state: Option<&'b mut [Real]>,
    /// Output: `sensordata` after each step, `nroll x nstep x nsensordata`.
    pub sensordata: Option<&'b mut [Real]>,
}

/// Why a batch of rollouts could not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RolloutError {
    /// `nroll` is zero.
    EmptyBatch,
    /// `control_spec` names something other than user inputs (`mjSTATE_USER`).
    BadControlSpec(i32),
    /// A buffer does not have the length its shape asks for.
    BufferSize {
        /// Which buffer.
        name: &'static str,
        /// The length its shape needs.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// The data belongs to a model of other sizes.
    ModelMismatch,
    /// A threaded batch needs one data per worker thread.
    DataCount {
        /// Worker threads.
        needed: usize,
        /// Datas given.
        got: usize,
    },
    /// A step failed; the batch stopped there.
    Step {
        /// Rollout index.
        roll: usize,
        /// Step index within the rollout.
        step: usize,
        /// What went wrong.
        error: StepError,
    },
}

impl core::error::Error for RolloutError {}

impl core::fmt::Display for RolloutError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RolloutError::EmptyBatch => f.write_str("a rollout batch needs at least one rollout"),
            RolloutError::BadControlSpec(spec) => write!(
                f,
                "control_spec {spec} can only contain bits in mjSTATE_USER ({STATE_USER})"
            ),
            RolloutError::BufferSize {
                name,
                expected,
                got,
            } => write!(f, "{name} should have {expected} numbers, got {got}"),
            RolloutError::ModelMismatch => f.write_str("the data belongs to another model"),
            RolloutError::DataCount { needed, got } => {
                write!(f, "{needed} worker threads need {needed} datas, got {got}")
            }
            RolloutError::Step { roll, step, error } => {
                write!(f, "rollout {roll}, step {step}: {error}")
            }
        }
    }
}

impl From<StateError> for RolloutError {
    fn from(e: StateError) -> Self {
        match e {
            StateError::InvalidSpec(spec) => RolloutError::BadControlSpec(spec),
            StateError::TooShort { needed, got } => RolloutError::BufferSize {
                name: "state",
                expected: needed,
                got,
            },
        }
    }
}

/// Lengths of one rollout's slice of each buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutShape {
    /// Steps per rollout.
    pub nstep: usize,
    /// `state_size(m, STATE_FULLPHYSICS)`.
    pub nstate: usize,
    /// `state_size(m, control_spec)`.
    pub ncontrol: usize,
    /// `m.nv`.
    pub nv: usize,
    /// `m.nsensordata`.
    pub nsensordata: usize,
}

impl RolloutShape {
    /// The shape of rollouts of `nstep` steps with inputs `control_spec`, checked against
    /// MuJoCo's rule that only user inputs may be set.
    pub fn new(m: &Model, nstep: usize, control_spec: i32) -> Result<Self, RolloutError> {
        if control_spec & !STATE_USER != 0 {
            return Err(RolloutError::BadControlSpec(control_spec));
        }
        Ok(Self {
            nstep,
            nstate: state_size(m, STATE_FULLPHYSICS)?,
            ncontrol: state_size(m, control_spec)?,
            nv: m.nv,
            nsensordata: m.nsensordata,
        })
    }

    /// Checks every buffer against `nroll` rollouts of this shape.
    pub fn check(&self, nroll: usize, b: &RolloutBuffers) -> Result<(), RolloutError> {
        if nroll == 0 {
            return Err(RolloutError::EmptyBatch);
        }
        let steps = nroll.saturating_mul(self.nstep);
        check_len("state0", Some(b.state0.len()), nroll, self.nstate)?;
        check_len(
            "warmstart0",
            b.warmstart0.map(<[Real]>::len),
            nroll,
            self.nv,
        )?;
        check_len(
            "control",
            b.control.map(<[Real]>::len),
            steps,
            self.ncontrol,
        )?;
        check_len(
            "state",
            b.state.as_deref().map(<[Real]>::len),
            steps,
            self.nstate,
        )?;
        let sensordata = b.sensordata.as_deref().map(<[Real]>::len);
        check_len("sensordata", sensordata, steps, self.nsensordata)
    }
}

impl<'b> RolloutBuffers<'b> {
    /// Splits the buffers after rollout `nroll` (which must not be past the end): the first
    /// `nroll` rollouts and the rest, for running parts of a batch on different datas.
    pub fn split_at(self, nroll: usize, shape: &RolloutShape) -> (Self, Self) {
        let steps = nroll * shape.nstep;
        let (state0, state0_rest) = self.state0.split_at(nroll * shape.nstate);
        let (warmstart0, warmstart0_rest) = split(self.warmstart0, nroll * shape.nv);
        let (control, control_rest) = split(self.control, steps * shape.ncontrol);
        let (state, state_rest) = split_mut(self.state, steps * shape.nstate);
        let (sensordata, sensordata_rest) = split_mut(self.sensordata, steps * shape.nsensordata);
        let head = Self {
            state0,
            warmstart0,
            control,
            state,
            sensordata,
        };
        let tail = Self {
            state0: state0_rest,
            warmstart0: warmstart0_rest,
            control: control_rest,
            state: state_rest,
            sensordata: sensordata_rest,
        };
        (head, tail)
    }
}

fn split(v: Option<&[Real]>, at: usize) -> (Option<&[Real]>, Option<&[Real]>) {
    match v.map(|v| v.split_at(at)) {
        Some((a, b)) => (Some(a), Some(b)),
        None => (None, None),
    }
}

fn split_mut(v: Option<&mut [Real]>, at: usize) -> (Option<&mut [Real]>, Option<&mut [Real]>) {
    match v.map(|v| v.split_at_mut(at)) {
        Some((a, b)) => (Some(a), Some(b)),
        None => (None, None),
    }
}

fn check_len(
    name: &'static str,
    len: Option<usize>,
    rows: usize,
    cols: usize,
) -> Result<(), RolloutError> {
    let expected = rows.saturating_mul(cols);
    match len {
        Some(got) if got != expected => Err(RolloutError::BufferSize {
            name,
            expected,
            got,
        }),
        _ => Ok(()),
    }
}

/// Runs `nroll` rollouts of `nstep` steps one after another on `d` (the Python bindings'
/// `rollout` with one data). `d` ends in the last step of the last rollout.
pub fn rollout(
    m: &Model,
    d: &mut Data,
    nroll: usize,
    nstep: usize,
    control_spec: i32,
    mut b: RolloutBuffers,
) -> Result<(), RolloutError> {
    let shape = RolloutShape::new(m, nstep, control_spec)?;
    shape.check(nroll, &b)?;
    if d.sizes() != m.sizes() {
        return Err(RolloutError::ModelMismatch);
    }
    if nstep == 0 {
        return Ok(());
    }
    reset_unset_inputs(m, d, control_spec);
    for roll in 0..nroll {
        roll_one(m, d, &shape, control_spec, roll, &mut b)?;
    }
    Ok(())
}

/// Resets the inputs `control_spec` leaves out, so that they are the same for every rollout.
fn reset_unset_inputs(m: &Model, d: &mut Data, control_spec: i32) {
    if control_spec & STATE_CTRL == 0 {
        d.ctrl.fill(0.0);
    }
    if control_spec & STATE_QFRC_APPLIED == 0 {
        d.qfrc_applied.fill(0.0);
    }
    if control_spec & STATE_XFRC_APPLIED == 0 {
        d.xfrc_applied.fill(0.0);
    }
    for i in 0..m.nbody {
        let Ok(id) = usize::try_from(m.body_mocapid[i]) else {
            continue;
        };
        if control_spec & STATE_MOCAP_POS == 0 {
            d.mocap_pos[3 * id..3 * id + 3].copy_from_slice(&m.body_pos[3 * i..3 * i + 3]);
        }
        if control_spec & STATE_MOCAP_QUAT == 0 {
            d.mocap_quat[4 * id..4 * id + 4].copy_from_slice(&m.body_quat[4 * i..4 * i + 4]);
        }
    }
    if control_spec & STATE_EQ_ACTIVE == 0 {
        d.eq_active.copy_from_slice(&m.eq_active0);
    }
}

/// Rollout `roll` of the batch: initial state, then `nstep` steps with their outputs.
fn roll_one(
    m: &Model,
    d: &mut Data,
    shape: &RolloutShape,
    control_spec: i32,
    roll: usize,
    b: &mut RolloutBuffers,
) -> Result<(), RolloutError> {
    let RolloutShape { nstep, nstate, .. } = *shape;
    set_state(m, d, row(b.state0, roll, nstate), STATE_FULLPHYSICS)?;
    match b.warmstart0 {
        Some(w) => d.qacc_warmstart.copy_from_slice(row(w, roll, shape.nv)),
        None => d.qacc_warmstart.fill(0.0),
    }
    for w in d.warning.iter_mut() {
        w.number = 0;
    }
    for t in 0..nstep {
        let k = roll * nstep + t;
        // after a warning MuJoCo stops stepping and repeats the state it stopped in
        if !d.warning.iter().any(|w| w.number != 0) {
            if let Some(control) = b.control {
                set_state(m, d, row(control, k, shape.ncontrol), control_spec)?;
            }
            step(m, d).map_err(|error| RolloutError::Step {
                roll,
                step: t,
                error,
            })?;
        }
        record(m, d, shape, k, b)?;
    }
    Ok(())
}

/// Writes the outputs of overall step `k`.
fn record(
    m: &Model,
    d: &Data,
    shape: &RolloutShape,
    k: usize,
    b: &mut RolloutBuffers,
) -> Result<(), RolloutError> {
    if let Some(state) = b.state.as_deref_mut() {
        get_state(m, d, row_mut(state, k, shape.nstate), STATE_FULLPHYSICS)?;
    }
    if let Some(sensordata) = b.sensordata.as_deref_mut() {
        row_mut(sensordata, k, shape.nsensordata).copy_from_slice(d.sensordata);
    }
    Ok(())
}

fn row(v: &[Real], i: usize, n: usize) -> &[Real] {
    &v[i * n..(i + 1) * n]
}

fn row_mut(v: &mut [Real], i: usize, n: usize) -> &mut [Real] {
    &mut v[i * n..(i + 1) * n]
}
