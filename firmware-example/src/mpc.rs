//! The `mpc` program: the plant's blob (masses 10% off) and the planner's blob loaded side by
//! side into the static arena, the iLQR MPC of `control/src/mpc.rs` planning
//! through the nominal model at every update, the swing-up and the push task in closed loop,
//! every update logged for the host's bit-for-bit comparison and timed.

use crate::{clock, log_sample};
use mjrs_firmware_control::{self as task, cartpole};
use task::mj::Real;

/// Exit status: whether both tasks succeeded; errors are logged with their code.
pub fn run(arena: &'static mut [u8], slots: &'static mut [task::Slots<'static>; 2]) -> bool {
    match mpc_task(arena, slots) {
        Ok(success) => success,
        Err(e) => {
            defmt::error!("error code {=u8}: {}", e.code(), e);
            false
        }
    }
}

fn mpc_task(
    arena: &'static mut [u8],
    slots: &'static mut [task::Slots<'static>; 2],
) -> Result<bool, task::Error> {
    let (plant_arena, plan_arena) = arena.split_at_mut(arena.len() / 2);
    let [plant_slots, plan_slots] = slots;
    let t0 = clock::now();
    let (pm, pd, plant_fp) = task::load_into(plant_slots, &cartpole::PLANT_BLOB.0, plant_arena)?;
    let (mm, md, plan_fp) = task::load_into(plan_slots, &cartpole::PLAN_BLOB.0, plan_arena)?;
    let loading = clock::since(t0);
    defmt::println!(
        "mpc: plant Model {=usize} B + Data {=usize} B, planner Model {=usize} B + Data {=usize} B, both loaded in {=u64} {=str}; {=str}",
        plant_fp.model_bytes, plant_fp.data_bytes, plan_fp.model_bytes, plan_fp.data_bytes, loading, clock::unit(), clock::core_name()
    );
    let mut scratch: [Real; cartpole::SCRATCH] = [0.0; cartpole::SCRATCH];
    let mut planner = cartpole::planner(&mut scratch)?;
    let s = *planner.settings();
    defmt::println!(
        "mpc: iLQR, one iteration per update: horizon {=usize} steps of {=f32} s, {=usize} forward pass(es), at most {=usize} planning steps per update; scratch {=usize} B",
        s.horizon, mm.opt.timestep, s.line_search, s.steps_per_update(), cartpole::SCRATCH * core::mem::size_of::<Real>()
    );
    let mut success = true;
    let (mut total, mut updates, mut worst) = (0, 0, 0);
    for t in [cartpole::Task::SwingUp, cartpole::Task::Push] {
        let o = cartpole::episode(
            t,
            pm,
            &mut *pd,
            mm,
            &mut *md,
            &mut planner,
            &cartpole::COST,
            clock::now,
            |x| log_sample(t.tag(), x),
        )?;
        defmt::println!(
            "mpc {=str}: upright from {=?} s, final tilt {=f32} rad, largest tilt after the push {=f32} rad, cart within {=f32} m, {=u32} fallbacks (first {=?}), {=u32} updates without descent: {=str}",
            t.tag(), o.upright_from, o.final_tilt, o.max_tilt, o.max_cart, o.updates.fallbacks,
            o.updates.first_error, o.updates.no_descent, if o.success { "success" } else { "FAILED" }
        );
        success &= o.success;
        total += o.updates.update_total;
        updates += u64::from(t.updates());
        worst = worst.max(o.updates.update_max);
    }
    defmt::println!(
        "mpc: {=str} per control update: mean {=u64}, max {=u64} ({=u64} updates)",
        clock::unit(),
        total / updates,
        worst,
        updates
    );
    defmt::println!(
        "task: {=str}",
        if success {
            "success: the MPC swings the pole up and holds it, and recovers from the push"
        } else {
            "FAILED"
        }
    );
    Ok(success)
}
