//! `mjrs simulate` and `mjrs speed` on the f64 core: a data for the model (on the heap, at a
//! keyframe), then the loops of [`crate::stepping`].

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
pub fn check_key(k: i32, nkey: usize) -> Result<(), String> {
    if usize::try_from(k).map_or(true, |k| k >= nkey) {
        return Err(format!(
            "keyframe {k} does not exist (the model has {nkey})"
        ));
    }
    Ok(())
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
    with_data(m, key, |d| {
        crate::stepping::simulate(m, d, name, duration, control)
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
    /// Mean constraint solver iterations per step (summed over islands): with `mean_ncon`, the
    /// work counters that compare the f64 and f32 cores.
    pub mean_solver_niter: f64,
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
            "{{\"model\": \"{model}\", \"steps\": {}, \"seconds\": {:.6}, \"steps_per_second\": {:.1}, \"mean_ncon\": {:.2}, \"mean_solver_niter\": {:.2}, \"nq\": {}, \"nv\": {}, \"nu\": {}, \"data_bytes\": {}, \"build\": \"{}\"}}",
            self.steps,
            self.seconds,
            self.steps as f64 / self.seconds,
            self.mean_ncon,
            self.mean_solver_niter,
            self.nq,
            self.nv,
            self.nu,
            self.data_bytes,
            // the fast build (feature `fast`, issue 25) or the exact one
            if cfg!(feature = "fast") { "fast" } else { "exact" }
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
    crate::stepping::speed(m, &mut d, steps, data_bytes)
}

/// Times `steps` calls of `step_once` (control law and one step, returning the step's contact
/// count and solver iterations) for a model of sizes `[nq, nv, nu]` whose data takes `data_bytes`.
pub fn timed(
    steps: usize,
    [nq, nv, nu]: [usize; 3],
    data_bytes: usize,
    mut step_once: impl FnMut() -> Result<(usize, usize), String>,
) -> Result<Speed, String> {
    let (mut ncon, mut niter) = (0, 0);
    let start = Instant::now();
    for _ in 0..steps {
        let (c, i) = step_once()?;
        ncon += c;
        niter += i;
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(Speed {
        steps,
        seconds,
        mean_ncon: ncon as f64 / steps.max(1) as f64,
        mean_solver_niter: niter as f64 / steps.max(1) as f64,
        nq,
        nv,
        nu,
        data_bytes,
    })
}
