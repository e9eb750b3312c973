//! The `pid` program: registers MuJoCo's PID actuator plugin (the only plugin this firmware
//! links), loads the arm's blob, runs the setpoint schedule and logs every state for the host's
//! bit-for-bit comparison.

use crate::{clock, log_sample};
use mjrs_firmware_control::{self as task, pid};

/// Exit status: whether the arm tracked its setpoints; errors are logged with their code.
pub fn run(arena: &'static mut [u8], slots: &'static mut task::Slots<'static>) -> bool {
    match pid_task(arena, slots) {
        Ok(tracked) => tracked,
        Err(e) => {
            defmt::error!("error code {=u8}: {}", e.code(), e);
            false
        }
    }
}

fn pid_task(
    arena: &'static mut [u8],
    slots: &'static mut task::Slots<'static>,
) -> Result<bool, task::Error> {
    pid::register();
    let blob = &pid::PID_BLOB.0;
    let (m, d, fp) = task::load_into(slots, blob, arena)?;
    defmt::println!(
        "model: nq {=usize} nu {=usize} na {=usize}, {=usize} mujoco.pid instances; blob {=usize} B, Model {=usize} B, Data {=usize} B",
        m.nq, m.nu, m.na, m.nplugin, blob.len(), fp.model_bytes, fp.data_bytes
    );
    let t0 = clock::now();
    let tracking = pid::episode(m, d, |s| log_sample("pid", s))?;
    let per_step = clock::since(t0) / u64::from(pid::STEPS);
    defmt::println!(
        "PID: after {=u32} steps joints at {=f32} and {=f32} rad, largest error at a segment's end {=f32} rad; {=str}: {=u64} per step (logging included)",
        pid::STEPS,
        tracking.final_qpos[0],
        tracking.final_qpos[1],
        tracking.worst_error,
        clock::unit(),
        per_step
    );
    defmt::println!(
        "task: {=str}",
        if tracking.tracked {
            "success: the PID plugin tracks every setpoint"
        } else {
            "FAILED"
        }
    );
    Ok(tracking.tracked)
}
