//! A batch of rollouts on a thread pool (MuJoCo's Python `mujoco.rollout.rollout`):
//! `cargo run --release --example rollout [-- MODEL.xml]`.
//!
//! Each rollout starts from its own initial state and follows its own control sequence; the
//! batch is cut into chunks that the pool's workers take as they become free, each stepping its
//! own `Data`. The outputs are the same bits on any number of threads. By default: Gymnasium's
//! hopper, 32 rollouts of 0.5 s with different constant pushes.

use mjrs_core::get_state;
use mjrs_core::rollout::{RolloutBuffers, RolloutShape};
use mjrs_core::types::{STATE_CTRL, STATE_FULLPHYSICS};
use mjrs_std::{rollout_threaded, OwnedData, ThreadPool};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/hopper.xml").to_string()
    });
    let mut model = mjrs_xml::load_xml(&path, None)?.model;
    let m = model.view();

    let (nroll, nstep, threads) = (32, (0.5 / m.opt.timestep) as usize, 2);
    // the controls are the actuators' `ctrl` (mjSTATE_CTRL); the state is the full physics state
    let shape = RolloutShape::new(&m, nstep, STATE_CTRL)?;
    let pool = ThreadPool::create(threads)?; // mju_threadPoolCreate
    let mut datas = (0..threads) // one data per worker
        .map(|_| OwnedData::new(&m))
        .collect::<Result<Vec<_>, _>>()?;

    // every rollout starts from the reset state ...
    let mut state0 = vec![0.0; shape.nstate];
    get_state(&m, &datas[0].view(), &mut state0, STATE_FULLPHYSICS)?;
    let state0 = state0.repeat(nroll);
    // ... and holds its own constant control, from -1 to 1, for every step
    let mut control = Vec::with_capacity(nroll * nstep * shape.ncontrol);
    for r in 0..nroll {
        let u = -1.0 + 2.0 * r as f64 / (nroll - 1) as f64;
        control.extend(std::iter::repeat_n(u, nstep * shape.ncontrol));
    }
    let mut state = vec![0.0; nroll * nstep * shape.nstate];

    let start = std::time::Instant::now();
    rollout_threaded(
        &pool,
        &m,
        &mut datas,
        nroll,
        nstep,
        STATE_CTRL,
        RolloutBuffers {
            state0: &state0,
            warmstart0: None,
            control: Some(&control),
            state: Some(&mut state),
            sensordata: None,
        },
    )?;
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{nroll} rollouts x {nstep} steps on {threads} threads: {:.0} steps/s",
        (nroll * nstep) as f64 / seconds
    );

    // the last state of each rollout: [time, qpos..., qvel..., ...]; qpos[0] is the hopper's x
    for r in (0..nroll).step_by(8) {
        let last = &state[(r * nstep + nstep - 1) * shape.nstate..][..shape.nstate];
        println!("rollout {r:2}: t = {:.3} s  x = {:+.4} m", last[0], last[1]);
    }
    Ok(())
}
