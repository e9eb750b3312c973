//! The `hopper` program: the hopper plant's blob (masses 10% off) and the planner's blob loaded
//! side by side into the static arena, the iLQR MPC of `control/src/mpc.rs` with three controls
//! planning through the nominal model at every update, the standing and the hopping task in
//! closed loop (feature `long`: longer episodes), every update logged for the host's
//! bit-for-bit comparison and timed.

use crate::{clock, log_sample};
use mjrs_firmware_control::{self as task, hopper};
use task::mj::Real;

/// Exit status: whether both tasks succeeded; errors are logged with their code.
pub fn run(arena: &'static mut [u8], slots: &'static mut [task::Slots<'static>; 2]) -> bool {
    match hopper_task(arena, slots) {
        Ok(success) => success,
        Err(e) => {
            defmt::error!("error code {=u8}: {}", e.code(), e);
            false
        }
    }
}

fn hopper_task(
    arena: &'static mut [u8],
    slots: &'static mut [task::Slots<'static>; 2],
) -> Result<bool, task::Error> {
    let long = cfg!(feature = "long");
    let (plant_arena, plan_arena) = arena.split_at_mut(arena.len() / 2);
    let [plant_slots, plan_slots] = slots;
    let t0 = clock::now();
    let (pm, pd, plant_fp) = task::load_into(plant_slots, &hopper::PLANT_BLOB.0, plant_arena)?;
    let (mm, md, plan_fp) = task::load_into(plan_slots, &hopper::PLAN_BLOB.0, plan_arena)?;
    let loading = clock::since(t0);
    defmt::println!(
        "hopper: plant Model {=usize} B + Data {=usize} B, planner Model {=usize} B + Data {=usize} B, both loaded in {=u64} {=str}; {=str}",
        plant_fp.model_bytes, plant_fp.data_bytes, plan_fp.model_bytes, plan_fp.data_bytes, loading, clock::unit(), clock::core_name()
    );
    let mut scratch: [Real; hopper::SCRATCH] = [0.0; hopper::SCRATCH];
    let mut planner = hopper::planner(&mut scratch)?;
    let s = *planner.settings();
    defmt::println!(
        "hopper: iLQR, one iteration per update: {=usize} states, {=usize} controls, horizon {=usize} steps of {=f32} s, up to {=usize} forward passes, at most {=usize} planning steps per update; scratch {=usize} B",
        hopper::NX, hopper::NU, s.horizon, mm.opt.timestep, s.line_search, s.steps_per_update(), hopper::SCRATCH * core::mem::size_of::<Real>()
    );
    let mut success = true;
    let (mut total, mut updates, mut worst) = (0, 0, 0);
    for t in [hopper::Task::Stand, hopper::Task::Hop] {
        let o = hopper::episode(
            t,
            long,
            pm,
            &mut *pd,
            mm,
            &mut *md,
            &mut planner,
            t.cost(),
            clock::now,
            |x| log_sample(t.tag(), x),
        )?;
        defmt::println!(
            "hopper {=str}: healthy {=bool}, torso height {=f32}..{=f32} m after {=f32} s, largest pitch {=f32} rad, final pitch {=f32} rad, drift {=f32} m, {=u32} updates in flight, {=u32} fallbacks (first {=?}), {=u32} updates without descent: {=str}",
            t.tag(), o.healthy, o.height[0], o.height[1], hopper::HOP_PERIOD, o.max_pitch, o.final_pitch,
            o.max_drift, o.flight, o.updates.fallbacks, o.updates.first_error, o.updates.no_descent,
            if o.success { "success" } else { "FAILED" }
        );
        success &= o.success;
        total += o.updates.update_total;
        updates += u64::from(t.updates(long));
        worst = worst.max(o.updates.update_max);
    }
    defmt::println!(
        "hopper: {=str} per control update: mean {=u64}, max {=u64} ({=u64} updates)",
        clock::unit(),
        total / updates,
        worst,
        updates
    );
    defmt::println!(
        "task: {=str}",
        if success {
            "success: the MPC lands and stands the hopper, and hops it in place"
        } else {
            "FAILED"
        }
    );
    Ok(success)
}
