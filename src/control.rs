//! The deterministic control law shared with `mjref` (`../shared/mjref/mjref.py`, `control`),
//! so that trajectories of the two simulators are comparable.

use mjrs_core::{Data, Model};

/// Before each step, for actuator `i`: `s = sin(2 time (1 + 0.1 i) + i)`; the control is
/// `lo + (hi - lo)(0.5 + 0.5 s)` when ctrl-limited to `[lo, hi]`, else `s`.
pub fn sine(m: &Model, d: &mut Data) {
    for i in 0..m.nu {
        let s = (2.0 * d.time * (1.0 + 0.1 * i as f64) + i as f64).sin();
        d.ctrl[i] = if m.actuator_ctrllimited[i] != 0 {
            let (lo, hi) = (m.actuator_ctrlrange[2 * i], m.actuator_ctrlrange[2 * i + 1]);
            lo + (hi - lo) * (0.5 + 0.5 * s)
        } else {
            s
        };
    }
}

/// [`sine`] for the f32 core: the law evaluated in f64, each control rounded to f32.
pub fn sine_f32(m: &mjrs_core_f32::Model, d: &mut mjrs_core_f32::Data) {
    for i in 0..m.nu {
        let s = (2.0 * f64::from(d.time) * (1.0 + 0.1 * i as f64) + i as f64).sin();
        d.ctrl[i] = if m.actuator_ctrllimited[i] != 0 {
            let lo = f64::from(m.actuator_ctrlrange[2 * i]);
            let hi = f64::from(m.actuator_ctrlrange[2 * i + 1]);
            (lo + (hi - lo) * (0.5 + 0.5 * s)) as f32
        } else {
            s as f32
        };
    }
}
