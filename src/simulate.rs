//! `mjrs simulate` and `mjrs speed`: run a model under the control law, with a progress bar
//! and a summary, or timed without output.

use crate::control::sine;
use indicatif::{ProgressBar, ProgressStyle};
use mjrs_core::{Data, Model};
use std::mem::size_of;
use std::time::Instant;

/// A fresh data for `m` on a heap buffer, reset to keyframe `key` if given.
fn with_data<R>(
    m: &Model,
    key: Option<i32>,
    f: impl FnOnce(&mut Data) -> Result<R, String>,
) -> Result<R, String> {
    let mut owned = new_data(m, key)?;
    let result = f(&mut owned.view());
    result
}

/// A fresh data for `m`, reset to keyframe `key` if given. MuJoCo resets without a word for a
/// key the model does not have; on the command line a typo deserves an error.
pub fn new_data(m: &Model, key: Option<i32>) -> Result<mjrs_alloc::OwnedData, String> {
    let mut owned = mjrs_alloc::OwnedData::new(m).map_err(|e| e.to_string())?;
    if let Some(k) = key {
        check_key(k, m.nkey)?;
        owned.reset_keyframe(m, k).map_err(|e| e.to_string())?;
    }
    Ok(owned)
}

/// Keyframe `k` must exist among the model's `nkey`.
fn check_key(k: i32, nkey: usize) -> Result<(), String> {
    if usize::try_from(k).map_or(true, |k| k >= nkey) {
        return Err(format!(
            "keyframe {k} does not exist (the model has {nkey})"
        ));
    }
    Ok(())
}

/// One step, with the error tagged by the simulation time.
fn step(m: &Model, d: &mut Data) -> Result<(), String> {
    mjrs_core::step(m, d).map_err(|e| format!("at time {:.4}: {e}", d.time))
}

/// Simulates `duration` seconds of `m` (control law on if `control`), showing progress, then
/// prints simulated time, steps per second, energy and warnings.
pub fn run(
    m: &Model,
    name: &str,
    duration: f64,
    key: Option<i32>,
    control: bool,
) -> Result<(), String> {
    let steps = (duration / m.opt.timestep).ceil().max(0.0) as u64;
    with_data(m, key, |d| {
        let bar = ProgressBar::new(steps);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:40}] {pos}/{len} steps ({per_sec}, eta {eta})",
            )
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
        println!(
            "model            {name} (nq {}, nv {}, nu {})",
            m.nq, m.nv, m.nu
        );
        println!(
            "simulated time   {:.3} s in {steps} steps of {} s",
            d.time, m.opt.timestep
        );
        println!(
            "wall time        {wall:.3} s: {:.0} steps/s, {:.1}x real time",
            steps as f64 / wall,
            d.time / wall
        );
        println!(
            "energy           potential {:.6}, kinetic {:.6}, total {:.6}",
            d.energy[0],
            d.energy[1],
            d.energy[0] + d.energy[1]
        );
        let warnings: Vec<String> = d
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
        println!(
            "warnings         {}",
            if warnings.is_empty() {
                "none".into()
            } else {
                warnings.join("; ")
            }
        );
        Ok(())
    })
}

/// Result of [`speed`].
pub struct Speed {
    /// Steps run.
    pub steps: usize,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Mean number of contacts per step.
    pub mean_ncon: f64,
    /// Sizes of the model.
    pub nq: usize,
    /// Degrees of freedom.
    pub nv: usize,
    /// Actuators.
    pub nu: usize,
    /// Bytes of one `Data` for the model: its arrays and arena plus the `Data` struct itself
    /// (the counterpart of MuJoCo's `sizeof(mjData) + nbuffer + narena`).
    pub data_bytes: usize,
}

impl Speed {
    /// JSON in the shape of `mjref speed`.
    pub fn to_json(&self, model: &str) -> String {
        format!(
            "{{\"model\": \"{model}\", \"steps\": {}, \"seconds\": {:.6}, \"steps_per_second\": {:.1}, \"mean_ncon\": {:.2}, \"nq\": {}, \"nv\": {}, \"nu\": {}, \"data_bytes\": {}}}",
            self.steps,
            self.seconds,
            self.steps as f64 / self.seconds,
            self.mean_ncon,
            self.nq,
            self.nv,
            self.nu,
            self.data_bytes
        )
    }
}

/// Step rate under the control law, timed like `mjref speed` (control + step in the loop,
/// nothing else): on one thread, or with a pool of `threads` workers bound to the data.
pub fn speed(
    m: &Model,
    steps: usize,
    key: Option<i32>,
    threads: Option<usize>,
) -> Result<Speed, String> {
    let data_bytes = Data::bytes_needed(m.sizes()).map_err(|e| e.to_string())? + size_of::<Data>();
    let pool = match threads {
        Some(n) => Some(mjrs_std::ThreadPool::create(n).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut owned = new_data(m, key)?;
    let mut d = owned.view();
    if let Some(pool) = &pool {
        mjrs_std::bind_thread_pool(&mut d, pool);
    }
    timed(steps, [m.nq, m.nv, m.nu], data_bytes, || {
        sine(m, &mut d);
        step(m, &mut d)?;
        Ok(d.ncon)
    })
}

/// Times `steps` calls of `step_once` (control law and one step, returning the step's contact
/// count) for a model of sizes `[nq, nv, nu]` whose data takes `data_bytes`.
fn timed(
    steps: usize,
    [nq, nv, nu]: [usize; 3],
    data_bytes: usize,
    mut step_once: impl FnMut() -> Result<usize, String>,
) -> Result<Speed, String> {
    let mut ncon = 0;
    let start = Instant::now();
    for _ in 0..steps {
        ncon += step_once()?;
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(Speed {
        steps,
        seconds,
        mean_ncon: ncon as f64 / steps.max(1) as f64,
        nq,
        nv,
        nu,
        data_bytes,
    })
}

/// [`speed`] for the f32 core: `m` is written as an f32 MJB blob (what `mjrs compile --f32`
/// writes for a device), loaded by `mjrs-core-f32` and stepped under the same control law.
pub fn speed_f32(m: &Model, steps: usize, key: Option<i32>) -> Result<Speed, String> {
    use mjrs_core_f32 as c32;
    let mut blob = vec![0u8; mjrs_core::mjb::save_size(m, 4)];
    mjrs_core::mjb::save(m, &mut blob, 4).map_err(|e| e.to_string())?;
    let header = c32::mjb::read_header(&blob).map_err(|e| e.to_string())?;
    let mut mbuf = vec![0u8; header.model_bytes().map_err(|e| e.to_string())?];
    let m = c32::mjb::load(&blob, &mut mbuf).map_err(|e| e.to_string())?;
    let mut dbuf = vec![0u8; c32::Data::bytes_needed(m.sizes()).map_err(|e| e.to_string())?];
    let data_bytes = dbuf.len() + size_of::<c32::Data>();
    let mut d = c32::Data::new(&m, &mut dbuf).map_err(|e| e.to_string())?;
    if let Some(k) = key {
        check_key(k, m.nkey)?;
        c32::io::reset_data_keyframe(&m, &mut d, k);
    }
    timed(steps, [m.nq, m.nv, m.nu], data_bytes, || {
        crate::control::sine_f32(&m, &mut d);
        c32::step(&m, &mut d).map_err(|e| format!("at time {:.4}: {e}", d.time))?;
        Ok(d.ncon)
    })
}
