//! The commands that step a model under the control law (`simulate`, `speed`, `traj`, `data`),
//! on a model and data the caller made.
//!
//! Compiled once per precision (`mjrs::stepping` for the f64 core, `mjrs::f32::stepping` for
//! `--f32`); `super::mj` is the core of that precision.

use super::control::sine;
use super::dump::{self, wide};
use super::mj::{self, Data, Model};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::time::Instant;

/// One step, with the error tagged by the simulation time.
pub fn step(m: &Model, d: &mut Data) -> Result<(), String> {
    mj::step(m, d).map_err(|e| format!("at time {:.4}: {e}", d.time))
}

/// `steps` steps of the sine control law (`mjref`'s), as the commands that report a state do.
pub fn run_control(m: &Model, d: &mut Data, steps: usize) -> Result<(), String> {
    for _ in 0..steps {
        sine(m, d);
        step(m, d)?;
    }
    Ok(())
}

/// `mjrs data`: every field after `steps` steps of the control law and a forward pass, as JSON.
pub fn data(m: &Model, d: &mut Data, steps: usize) -> Result<String, String> {
    run_control(m, d, steps)?;
    mj::forward(m, d).map_err(|e| e.to_string())?;
    Ok(dump::data_json(m, d))
}

/// `mjrs traj`: `steps` steps (control law on unless `zero_ctrl`), every `every`-th recorded,
/// as JSON.
pub fn traj(
    m: &Model,
    d: &mut Data,
    steps: usize,
    zero_ctrl: bool,
    every: usize,
) -> Result<String, String> {
    let mut rec = dump::Trajectory::new(every, zero_ctrl);
    for i in 0..steps {
        if !zero_ctrl {
            sine(m, d);
        }
        step(m, d)?;
        if (i + 1) % every.max(1) == 0 {
            rec.record(d);
        }
    }
    Ok(rec.finish())
}

/// `mjrs simulate`: `duration` seconds (control law on if `control`) with a progress bar, then
/// simulated time, steps per second, energy and warnings.
pub fn simulate(
    m: &Model,
    d: &mut Data,
    name: &str,
    duration: f64,
    control: bool,
) -> Result<(), String> {
    let steps = crate::limits::duration_steps(duration, wide(m.opt.timestep))?;
    let bar = ProgressBar::new(steps);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} steps ({per_sec}, eta {eta})")
            .map_err(|e| e.to_string())?
            .progress_chars("=> "),
    );
    bar.set_message(format!("simulating {name}"));
    let start = Instant::now();
    for i in 0..steps {
        if control {
            sine(m, d);
        }
        step(m, d)?;
        if i % 256 == 0 {
            bar.set_position(i);
        }
    }
    bar.finish_and_clear();
    let wall = start.elapsed().as_secs_f64();
    crate::stdout::print(&summary(m, d, name, steps, wall))
}

/// What `simulate` prints after the run: the model, the simulated and wall time, the energy
/// and the warnings.
fn summary(m: &Model, d: &Data, name: &str, steps: u64, wall: f64) -> String {
    let time = wide(d.time);
    let precision = if size_of::<mj::Real>() == 4 {
        "f32"
    } else {
        "f64"
    };
    let (potential, kinetic) = (wide(d.energy[0]), wide(d.energy[1]));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "model            {name} (nq {}, nv {}, nu {}; {precision} core)",
        m.nq, m.nv, m.nu
    );
    let _ = writeln!(
        out,
        "simulated time   {time:.3} s in {steps} steps of {} s",
        m.opt.timestep
    );
    let _ = writeln!(
        out,
        "wall time        {wall:.3} s: {:.0} steps/s, {:.1}x real time",
        steps as f64 / wall,
        time / wall
    );
    let _ = writeln!(
        out,
        "energy           potential {potential:.6}, kinetic {kinetic:.6}, total {:.6}",
        potential + kinetic
    );
    let _ = writeln!(out, "warnings         {}", warnings(d));
    out
}

/// The warnings raised, with their counts, or "none".
fn warnings(d: &Data) -> String {
    let raised: Vec<String> = d
        .warning
        .iter()
        .enumerate()
        .filter(|(_, w)| w.number > 0)
        .map(|(i, w)| {
            format!(
                "{} x{}",
                mjrs_std::handlers::warning_text(i as i32, w.lastinfo),
                w.number
            )
        })
        .collect();
    if raised.is_empty() {
        "none".into()
    } else {
        raised.join("; ")
    }
}

/// `mjrs speed`: the step rate under the control law, timed like `mjref speed` (control and
/// step in the loop, nothing else). `data_bytes` is what the data takes, reported as is.
pub fn speed(
    m: &Model,
    d: &mut Data,
    steps: usize,
    data_bytes: usize,
) -> Result<crate::speed::Speed, String> {
    let build = crate::speed::build_label(core::mem::size_of::<mj::Real>());
    crate::speed::timed(build, steps, [m.nq, m.nv, m.nu], data_bytes, || {
        sine(m, d);
        step(m, d)?;
        let islands = d.solver_nisland.clamp(1, d.solver_niter.len());
        let niter: i32 = d.solver_niter[..islands].iter().sum();
        Ok((d.ncon, niter.max(0) as usize))
    })
}
