//! The PID task: MuJoCo's PID actuator plugin (`mujoco.pid`) running on the device. A two-link
//! arm (`model/pid_arm.xml`) follows a schedule of joint setpoints; the controllers are the
//! model's own plugin instances, so the loop only writes `ctrl`. The shoulder's PID has an
//! integral term clamped by `imax` and a slew-rate limit, the elbow's an integral term: their
//! states are activations the plugin integrates through `act_dot`.
//!
//! Only this one plugin is registered ([`register`]), so a device build links no other.

use crate::{mj, Aligned, Error, Sample};
use mj::{Data, Model, Real};

/// The arm's f32 blob (`model/pid_arm.mjb`, made by `mjrs compile --f32`).
pub static PID_BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!("../../model/pid_arm.mjb"));

/// Steps of the episode (0.005 s each).
pub const STEPS: u32 = 1000;
/// Steps each setpoint is held.
pub const SEGMENT: u32 = 250;
/// Joint setpoints (shoulder, elbow; rad), one per segment.
pub const SETPOINTS: [[Real; 2]; 4] = [[0.6, -0.4], [-0.3, 0.8], [0.9, 0.3], [0.2, -0.6]];
/// Tracked: both joints within this distance of their setpoints (rad) at every segment's end.
pub const TRACK_TOL: Real = 0.02;

/// Registers `mujoco.pid`, the one plugin the blob names; call before loading it.
pub fn register() {
    mj::plugin::pid::register();
}

/// How the arm followed the setpoints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tracking {
    /// Largest joint error at a segment's end (rad).
    pub worst_error: Real,
    /// Joint positions at the end.
    pub final_qpos: [Real; 2],
    /// [`Tracking::worst_error`] within [`TRACK_TOL`].
    pub tracked: bool,
}

/// Runs [`STEPS`] steps from the reset state under the setpoint schedule, calling `sample`
/// after every step with time, joint positions and velocities, the shoulder's error integral
/// and both actuator forces.
pub fn episode(
    m: &Model,
    d: &mut Data,
    mut sample: impl FnMut(&Sample),
) -> Result<Tracking, Error> {
    if m.nq != 2 || m.nv != 2 || m.nu != 2 || m.na != 3 || m.nplugin != 2 {
        return Err(Error::Shape);
    }
    mj::io::reset_data(m, d);
    let mut worst: Real = 0.0;
    for step in 1..=STEPS {
        let target = SETPOINTS[((step - 1) / SEGMENT) as usize];
        d.ctrl[..2].copy_from_slice(&target);
        mj::step(m, d)?;
        if step % SEGMENT == 0 {
            for (q, t) in d.qpos.iter().zip(&target) {
                worst = worst.max((q - t).abs());
            }
        }
        let values = [
            d.time,
            d.qpos[0],
            d.qpos[1],
            d.qvel[0],
            d.qvel[1],
            d.act[0],
            d.actuator_force[0],
            d.actuator_force[1],
        ];
        sample(&Sample::of_values(step, &values));
    }
    Ok(Tracking {
        worst_error: worst,
        final_qpos: [d.qpos[0], d.qpos[1]],
        tracked: worst <= TRACK_TOL,
    })
}
