//! The step rate `mjrs speed` reports, for either precision: the timed loop and its result.

use std::time::Instant;

/// Result of `mjrs speed`, on the f64 core or the f32 one.
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
    /// Which build stepped: `exact` (f64, bit for bit with MuJoCo), `fast` (feature `fast`),
    /// `f32` or `f32-fast` (the f32 core, without or with the feature).
    pub build: &'static str,
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
            self.build
        )
    }
}

/// The label of a build of the core whose `Real` takes `real_bytes` (4: the f32 core), with or
/// without the feature `fast` (issue 25).
pub fn build_label(real_bytes: usize) -> &'static str {
    match (real_bytes == 4, cfg!(feature = "fast")) {
        (false, false) => "exact",
        (false, true) => "fast",
        (true, false) => "f32",
        (true, true) => "f32-fast",
    }
}

/// Times `steps` calls of `step_once` (control law and one step, returning the step's contact
/// count and solver iterations) for a model of sizes `[nq, nv, nu]` whose data takes `data_bytes`,
/// on the build `build` ([`build_label`]).
pub fn timed(
    build: &'static str,
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
        build,
    })
}
