//! The deterministic control law shared with `mjref` (`../shared/mjref/mjref.py`, `control`),
//! so that trajectories of the two simulators are comparable.
//!
//! Compiled once per precision (`mjrs::control`, `mjrs::f32::control`; `super::mj` is the core
//! of that precision): the law is evaluated in f64 and each control rounded to the core's `Real`.

use super::dump::wide;
use super::mj::{Data, Model, Real};

/// Before each step, for actuator `i`: `s = sin(2 time (1 + 0.1 i) + i)`; the control is
/// `lo + (hi - lo)(0.5 + 0.5 s)` when ctrl-limited to `[lo, hi]`, else `s`.
pub fn sine(m: &Model, d: &mut Data) {
    let time = wide(d.time);
    for i in 0..m.nu {
        let s = (2.0 * time * (1.0 + 0.1 * i as f64) + i as f64).sin();
        let u = if m.actuator_ctrllimited[i] != 0 {
            let lo = wide(m.actuator_ctrlrange[2 * i]);
            let hi = wide(m.actuator_ctrlrange[2 * i + 1]);
            lo + (hi - lo) * (0.5 + 0.5 * s)
        } else {
            s
        };
        d.ctrl[i] = u as Real;
    }
}
