//! `mjrs rollout`: a batch of open-loop rollouts on a thread pool, timed.
//!
//! Every rollout starts from the same state (the model's reset state or a keyframe) and follows
//! its own control sequence: rollout `r` applies the sine control law (see [`crate::control`])
//! with its clock shifted by `0.1 r` seconds, so rollout 0 retraces `mjrs traj` and the others
//! differ from it.

use std::time::Instant;

use mjrs_core::rollout::{RolloutBuffers, RolloutShape};
use mjrs_core::types::{STATE_CTRL, STATE_FULLPHYSICS};
use mjrs_core::{get_state, Model};
use mjrs_std::{rollout_threaded, OwnedData, ThreadPool};

use crate::dump::JsonObject;
use crate::limits;
use mjrs_core::layout::Scalar;

/// Seconds by which each rollout's control clock is shifted from the previous one's.
pub const CLOCK_SHIFT: f64 = 0.1;

/// What a batch is asked to do.
#[derive(Clone, Copy, Debug)]
pub struct Batch {
    /// Rollouts.
    pub nroll: usize,
    /// Steps per rollout.
    pub nstep: usize,
    /// Worker threads.
    pub threads: usize,
    /// Start from this keyframe.
    pub key: Option<i32>,
}

/// The outcome of [`run`]: timing, and the outputs when they were asked for.
pub struct BatchResult {
    /// Wall time of the rollouts alone (inputs prepared before, outputs kept after).
    pub seconds: f64,
    /// `nroll x nstep x nstate` states, when kept.
    pub state: Vec<f64>,
    /// `nroll x nstep x nsensordata` sensor values, when kept.
    pub sensordata: Vec<f64>,
    /// `state_size(m, STATE_FULLPHYSICS)`.
    pub nstate: usize,
}

/// Runs the batch; `keep` keeps the states and sensor values of every step (memory grows with
/// `nroll x nstep`, so the timing runs leave them out).
pub fn run(m: &Model, batch: Batch, keep: bool) -> Result<BatchResult, String> {
    let Batch {
        nroll,
        nstep,
        threads,
        key,
    } = batch;
    if nroll == 0 || nstep == 0 {
        return Err("a rollout batch needs --batch and --steps of at least 1".into());
    }
    let shape = RolloutShape::new(m, nstep, STATE_CTRL).map_err(|e| e.to_string())?;
    check_size(m, batch, shape.nstate, keep)?;
    let pool = ThreadPool::create(threads).map_err(|e| e.to_string())?;
    let first = crate::simulate::new_data(m, key)?;
    let mut datas = (0..threads)
        .map(|_| first.try_clone().map_err(|e| e.to_string()))
        .collect::<Result<Vec<OwnedData>, String>>()?;
    let state0 = initial_states(m, &mut datas[0], nroll, shape.nstate)?;
    let control = controls(m, &mut datas[0], nroll, nstep);
    let outputs = |n: usize| {
        if keep {
            vec![0.0; nroll * nstep * n]
        } else {
            Vec::new()
        }
    };
    let (mut state, mut sensordata) = (outputs(shape.nstate), outputs(m.nsensordata));
    let buffers = RolloutBuffers {
        state0: &state0,
        warmstart0: None,
        control: Some(&control),
        state: keep.then_some(&mut state[..]),
        sensordata: keep.then_some(&mut sensordata[..]),
    };
    let start = Instant::now();
    rollout_threaded(&pool, m, &mut datas, nroll, nstep, STATE_CTRL, buffers)
        .map_err(|e| e.to_string())?;
    Ok(BatchResult {
        seconds: start.elapsed().as_secs_f64(),
        state,
        sensordata,
        nstate: shape.nstate,
    })
}

/// The batch fits the bounds of [`crate::limits`]: its controls (and kept outputs) in memory,
/// the kept outputs as JSON.
fn check_size(m: &Model, batch: Batch, nstate: usize, keep: bool) -> Result<(), String> {
    let kept = if keep { nstate + m.nsensordata } else { 0 };
    limits::check_rollout(batch.nroll, batch.nstep, nstate, m.nu + kept)?;
    let outputs = (batch.nroll as u64)
        .saturating_mul(batch.nstep as u64)
        .saturating_mul(kept as u64);
    limits::check_json(outputs, "--batch or --steps")
}

/// `nroll` copies of the data's state.
fn initial_states(
    m: &Model,
    data: &mut OwnedData,
    nroll: usize,
    nstate: usize,
) -> Result<Vec<f64>, String> {
    let mut one = vec![0.0; nstate];
    get_state(m, &data.view(), &mut one, STATE_FULLPHYSICS).map_err(|e| e.to_string())?;
    Ok(one.repeat(nroll))
}

/// The control sequences: the sine law at each step's time (accumulated as `step` accumulates
/// it), shifted by [`CLOCK_SHIFT`] per rollout. `data` is used as scratch and restored.
fn controls(m: &Model, data: &mut OwnedData, nroll: usize, nstep: usize) -> Vec<f64> {
    let mut d = data.view();
    let (time0, ctrl0) = (d.time, d.ctrl.to_vec());
    let mut out = Vec::with_capacity(nroll * nstep * m.nu);
    for r in 0..nroll {
        let mut time = time0;
        for _ in 0..nstep {
            d.time = time + CLOCK_SHIFT * r as f64;
            crate::control::sine(m, &mut d);
            out.extend_from_slice(d.ctrl);
            time += m.opt.timestep;
        }
    }
    d.time = time0;
    d.ctrl.copy_from_slice(&ctrl0);
    out
}

impl BatchResult {
    /// The timing as JSON (`steps_per_second` counts the steps of all rollouts).
    pub fn to_json(&self, model: &str, batch: Batch) -> String {
        let total = batch.nroll * batch.nstep;
        format!(
            "{{\"model\": \"{model}\", \"batch\": {}, \"steps\": {}, \"threads\": {}, \"total_steps\": {total}, \"seconds\": {:.6}, \"steps_per_second\": {:.1}}}",
            batch.nroll,
            batch.nstep,
            batch.threads,
            self.seconds,
            total as f64 / self.seconds
        )
    }

    /// The kept outputs as JSON, `state` and `sensordata` with their shapes.
    pub fn outputs_json(&self, batch: Batch, nsensordata: usize) -> String {
        let mut o = JsonObject::default();
        let (nroll, nstep) = (batch.nroll, batch.nstep);
        let state = self.state.iter().map(|&x| Scalar::Real(x));
        o.list("state", state, &[nroll, nstep, self.nstate]);
        let sensordata = self.sensordata.iter().map(|&x| Scalar::Real(x));
        o.list("sensordata", sensordata, &[nroll, nstep, nsensordata]);
        o.finish()
    }
}
