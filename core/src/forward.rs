//! The simulation loop (MuJoCo's `engine_forward.c`): `step`, `forward` and their stages, and
//! the state checks. Read top to bottom it is the table of contents of the pipeline
//! ("Computation › Simulation pipeline"). The errors live in [`crate::error`], the user
//! callbacks in [`crate::data`], the timers in `timer`: every stage imports them without
//! importing this driver.

use crate::arena::ArenaError;
use crate::data::Data;
// also reachable as `forward::StepError`, the path the firmware example names
pub use crate::error::StepError;
use crate::io::reset_data;
use crate::model::Model;
use crate::real::{Real, MAXVAL};
use crate::support::{disabled, enabled, has_xfrc, warning, xfrc_accumulate};
use crate::timer::{tic, toc};
use crate::types::*;
use crate::{
    actuation, collision, constraint, flex, island, passive, sensor, smooth, solver, tendon,
    transmission,
};
// The driver's two circles: RK4 in `integrate` re-enters `forward_stages`, and `inverse` shares
// the position-velocity front of the pipeline (`compare_fwd_inv` is called from `step`).
use crate::{integrate, inverse};

/// Whether `x` is NaN or larger in magnitude than `mjMAXVAL` (`mju_isBad`).
fn is_bad(x: Real) -> bool {
    x.is_nan() || !(-MAXVAL..=MAXVAL).contains(&x)
}

/// Resets the data when a value in `values(d)` is bad, with MuJoCo's warning: counted once
/// before the reset (which clears it) and once after, so the count survives.
fn check(
    m: &Model,
    d: &mut Data,
    values: for<'x, 'y> fn(&'x Data<'y>) -> &'x [Real],
    warn: i32,
) -> bool {
    let Some(i) = values(d).iter().position(|&x| is_bad(x)) else {
        return false;
    };
    reset_warned(m, d, warn, i);
    true
}

/// The reset of [`check`], out of line: it runs only on a bad state, and inlined, `reset_data`
/// grew the frame and code of every step.
#[cold]
#[inline(never)]
fn reset_warned(m: &Model, d: &mut Data, warn: i32, i: usize) {
    warning(d, warn, i as i32);
    reset_data(m, d);
    warning(d, warn, i as i32);
}

/// Resets if `qpos` has a NaN or huge value (`mj_checkPos`).
pub fn check_pos(m: &Model, d: &mut Data) {
    check(m, d, |d| d.qpos, WARN_BADQPOS);
}

/// Resets if `qvel` has a NaN or huge value (`mj_checkVel`).
pub fn check_vel(m: &Model, d: &mut Data) {
    check(m, d, |d| d.qvel, WARN_BADQVEL);
}

/// Resets and recomputes if `qacc` has a NaN or huge value (`mj_checkAcc`).
pub fn check_acc(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if check(m, d, |d| d.qacc, WARN_BADQACC) {
        forward(m, d)?;
    }
    Ok(())
}

/// Rejects a data made for another model before any stage indexes it.
pub(crate) fn check_sizes(m: &Model, d: &Data) -> Result<(), StepError> {
    if d.sizes() != m.sizes() {
        return Err(StepError::ModelMismatch);
    }
    check_options(&m.opt)
}

/// Options that would make a step endless or meaningless are refused before any work: a
/// tolerance that is negative or NaN can never be met, so every solver and collision loop would
/// run to its iteration cap, and a negative cap means nothing. Large caps are MuJoCo's to
/// accept: with a tolerance that can be met the loops stop when they converge, and nothing is
/// sized by a cap (`<option iterations="100000000"/>` runs as in MuJoCo).
pub fn check_options(o: &crate::model::Options) -> Result<(), StepError> {
    let caps = [
        (o.iterations, "opt.iterations must be >= 0"),
        (o.ls_iterations, "opt.ls_iterations must be >= 0"),
        (o.noslip_iterations, "opt.noslip_iterations must be >= 0"),
        (o.mpr_iterations, "opt.mpr_iterations must be >= 0"),
        (o.sdf_iterations, "opt.sdf_iterations must be >= 0"),
        (o.sdf_initpoints, "opt.sdf_initpoints must be >= 0"),
    ];
    for (v, what) in caps {
        if v < 0 {
            return Err(StepError::InvalidOption(what));
        }
    }
    let tolerances = [
        (o.tolerance, "opt.tolerance must be a number >= 0"),
        (o.ls_tolerance, "opt.ls_tolerance must be a number >= 0"),
        (
            o.noslip_tolerance,
            "opt.noslip_tolerance must be a number >= 0",
        ),
        (o.mpr_tolerance, "opt.mpr_tolerance must be a number >= 0"),
    ];
    for (v, what) in tolerances {
        if v.is_nan() || v < 0.0 {
            return Err(StepError::InvalidOption(what));
        }
    }
    Ok(())
}

/// Position-dependent stage (`mj_fwdPosition`): kinematics, com, cameras and lights, flexes,
/// tendons, inertia and its factorization, transmissions.
pub fn fwd_position(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let t = tic(d);
    #[cfg(not(feature = "fast"))]
    {
        smooth::kinematics(m, d);
        smooth::com_pos(m, d)?;
    }
    #[cfg(feature = "fast")]
    {
        crate::smooth_fast::kinematics(m, d);
        crate::smooth_fast::com_pos(m, d)?;
    }
    smooth::camlight(m, d);
    flex::flex(m, d)?;
    tendon::tendon(m, d)?;
    inertia_and_collision(m, d)?;
    constraint::make_constraint(m, d)?;
    if enabled(m, ENBL_ISLAND) {
        island::island(m, d)?;
    }
    transmission::transmission(m, d)?;
    constraint::project_constraint(m, d)?;
    toc(d, TIMER_POSITION, t);
    Ok(())
}

/// The inertia (`mj_crb`, `mj_factorM`) and the collisions (`mj_collision`): one after the
/// other, or at the same time on a bound [`Data::threadpool`] (MuJoCo does the same). The
/// inertia's arrays are lent out of `d` for the duration; the collision stage reads and writes
/// none of them, and the inertia's only other output, an `mjWARN_INERTIA` count, is merged back.
fn inertia_and_collision(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let Some(pool) = d.threadpool else {
        #[cfg(not(feature = "fast"))]
        smooth::crb(m, d);
        #[cfg(feature = "fast")]
        crate::smooth_fast::crb(m, d);
        smooth::factor_m(m, d);
        return collision::collision(m, d);
    };
    inertia_and_collision_pooled(m, d, pool)
}

/// [`inertia_and_collision`] on the thread pool `pool`, out of line: its borrowed arrays and
/// warnings would otherwise widen the stack frame of `fwd_position`, which every step enters
/// (four times with RK4) pool or not.
#[inline(never)]
fn inertia_and_collision_pooled(
    m: &Model,
    d: &mut Data,
    pool: &dyn crate::thread::Parallel,
) -> Result<(), StepError> {
    let cinert = core::mem::take(&mut d.cinert);
    let cdof = core::mem::take(&mut d.cdof);
    let crb = core::mem::take(&mut d.crb);
    let qm = core::mem::take(&mut d.qM);
    let qld = core::mem::take(&mut d.qLD);
    let diag_inv = core::mem::take(&mut d.qLDiagInv);
    let diag_sqrt_inv = core::mem::take(&mut d.qLDiagSqrtInv);
    let mut warnings = [crate::data::WarningStat::default(); NWARNING as usize];
    let inertia_warning = WARN_INERTIA as usize;
    warnings[inertia_warning] = d.warning[inertia_warning];
    let mut collided = Ok(());
    pool.join(
        &mut || {
            smooth::crb_into(m, cinert, cdof, crb, qm);
            smooth::factor_i(m, &mut warnings, qm, qld, diag_inv, Some(diag_sqrt_inv));
        },
        &mut || collided = collision::collision(m, d),
    );
    d.warning[inertia_warning] = warnings[inertia_warning];
    (d.cinert, d.cdof, d.crb, d.qM) = (cinert, cdof, crb, qm);
    (d.qLD, d.qLDiagInv, d.qLDiagSqrtInv) = (qld, diag_inv, diag_sqrt_inv);
    collided
}

/// Velocity-dependent stage (`mj_fwdVelocity`): flex edge, tendon and actuator velocities,
/// com-based velocities, passive forces, and the bias force `qfrc_bias` by RNE without
/// acceleration.
pub fn fwd_velocity(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let t = tic(d);
    flex::flexedge_velocity(m, d);
    tendon::tendon_velocity(m, d);
    crate::math::mat::mul_mat_vec(d.actuator_velocity, d.actuator_moment, d.qvel, m.nu, m.nv);
    #[cfg(not(feature = "fast"))]
    smooth::com_vel(m, d);
    // the fast build computes the bias forces in com_vel's forward pass
    #[cfg(feature = "fast")]
    crate::smooth_fast::com_vel_bias(m, d)?;
    passive::passive(m, d)?;
    constraint::reference_constraint(m, d)?;
    // rne reads `d` and writes `qfrc_bias` (which it does not read): lent out meanwhile, it
    // needs no scratch copy
    #[cfg(not(feature = "fast"))]
    d.with_stack(|d, stack| -> Result<(), ArenaError> {
        let bias = core::mem::take(&mut d.qfrc_bias);
        let r = smooth::rne(m, d, false, bias, stack);
        d.qfrc_bias = bias;
        r
    })?;
    toc(d, TIMER_VELOCITY, t);
    Ok(())
}

/// Sums the smooth forces and solves for the unconstrained acceleration
/// (`mj_fwdAcceleration`): `qfrc_smooth = qfrc_passive - qfrc_bias + qfrc_applied +
/// qfrc_actuator + J' xfrc_applied`, `qacc_smooth = M \ qfrc_smooth`.
pub fn fwd_acceleration(m: &Model, d: &mut Data) -> Result<(), StepError> {
    // one pass over the four vectors, each entry summed in MuJoCo's order (its three passes:
    // passive - bias, + applied, + actuator)
    let forces = d.qfrc_passive.iter().zip(&*d.qfrc_bias);
    let inputs = d.qfrc_applied.iter().zip(&*d.qfrc_actuator);
    for (s, ((&p, &b), (&a, &u))) in d.qfrc_smooth.iter_mut().zip(forces.zip(inputs)) {
        *s = p - b + a + u;
    }
    if has_xfrc(m, d) {
        add_xfrc(m, d)?;
    }
    d.qacc_smooth.copy_from_slice(d.qfrc_smooth);
    smooth::solve_ld(m, d.qacc_smooth, 1, d.qLD, d.qLDiagInv);
    Ok(())
}

/// Adds the applied body forces `J' xfrc_applied` to `qfrc_smooth`, through a scratch copy
/// (`xfrc_accumulate` reads `Data`). Out of line: few models apply body forces, and inlined its
/// scratch and Jacobians widened the frame of every `fwd_acceleration`.
#[inline(never)]
fn add_xfrc(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    d.with_stack(|d, stack| -> Result<(), ArenaError> {
        let mut frame = stack.frame();
        let qfrc = frame.alloc::<Real>(m.nv)?;
        qfrc.copy_from_slice(d.qfrc_smooth);
        xfrc_accumulate(m, d, qfrc, &mut frame)?;
        d.qfrc_smooth.copy_from_slice(qfrc);
        Ok(())
    })
}

/// Constraint stage (`mj_fwdConstraint`): without constraint rows the acceleration is the
/// unconstrained one; otherwise the solver of `opt.solver` finds the constraint forces.
pub fn fwd_constraint(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let t = tic(d);
    d.qfrc_constraint.fill(0.0);
    if d.nefc == 0 {
        d.qacc.copy_from_slice(d.qacc_smooth);
        d.qacc_warmstart.copy_from_slice(d.qacc_smooth);
        d.solver_niter = [0; NISLAND];
        toc(d, TIMER_CONSTRAINT, t);
        return Ok(());
    }
    solver::fwd_constraint_solve(m, d)?;
    toc(d, TIMER_CONSTRAINT, t);
    Ok(())
}

/// Actuation stage with the control callback first, as in `mj_forwardSkip`.
fn control_and_actuation(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if let Some(control) = d.callbacks.control {
        if !disabled(m, DSBL_ACTUATION) {
            control(m, d);
        }
    }
    let t = tic(d);
    actuation::fwd_actuation(m, d)?;
    toc(d, TIMER_ACTUATION, t);
    Ok(())
}

/// Forward dynamics skipping the stages before `skipstage` (`STAGE_POS`: position results are
/// current; `STAGE_VEL`: velocity results too), and the sensors if `skipsensor`
/// (`mj_forwardSkip`).
pub fn forward_skip(
    m: &Model,
    d: &mut Data,
    skipstage: i32,
    skipsensor: bool,
) -> Result<(), StepError> {
    check_sizes(m, d)?;
    forward_stages(m, d, skipstage, skipsensor)
}

/// A pipeline stage (`fwd_position`, `inv_velocity`...).
type Stage = fn(&Model, &mut Data) -> Result<(), StepError>;

/// The stages `position` and `velocity`, each followed by its sensors (unless `skipsensor`)
/// and energy (when enabled), skipping those before `skipstage`: the common front of forward
/// and inverse dynamics, which differ in the stage functions.
pub(crate) fn position_velocity(
    m: &Model,
    d: &mut Data,
    skipstage: i32,
    skipsensor: bool,
    position: Stage,
    velocity: Stage,
) -> Result<(), StepError> {
    if skipstage < STAGE_POS {
        position(m, d)?;
        if !skipsensor {
            sensor::sensor_pos(m, d)?;
        }
        if enabled(m, ENBL_ENERGY) {
            sensor::energy_pos(m, d)?;
        }
    }
    if skipstage < STAGE_VEL {
        velocity(m, d)?;
        if !skipsensor {
            sensor::sensor_vel(m, d)?;
        }
        if enabled(m, ENBL_ENERGY) {
            sensor::energy_vel(m, d)?;
        }
    }
    Ok(())
}

/// [`forward_skip`] for callers that have checked the data's sizes already (`step`, RK4).
pub(crate) fn forward_stages(
    m: &Model,
    d: &mut Data,
    skipstage: i32,
    skipsensor: bool,
) -> Result<(), StepError> {
    let t = tic(d);
    position_velocity(m, d, skipstage, skipsensor, fwd_position, fwd_velocity)?;
    control_and_actuation(m, d)?;
    fwd_acceleration(m, d)?;
    fwd_constraint(m, d)?;
    if !skipsensor {
        sensor::sensor_acc(m, d)?;
    }
    toc(d, TIMER_FORWARD, t);
    Ok(())
}

/// Forward dynamics (`mj_forward`): everything `step` computes, without integrating.
pub fn forward(m: &Model, d: &mut Data) -> Result<(), StepError> {
    forward_skip(m, d, STAGE_NONE, false)
}

/// Advances the simulation by one timestep (`mj_step`): checks the state, runs `forward`, then
/// the integrator of `opt.integrator`.
#[inline(never)] // one call per step; keeps the step a single symbol for profilers
pub fn step(m: &Model, d: &mut Data) -> Result<(), StepError> {
    step_skip(m, d, STAGE_NONE, false)
}

/// [`step`] whose forward pass skips the stages before `skipstage` and the sensors if
/// `skipsensor` ([`forward_skip`]), as finite differencing uses it (`mj_stepSkip`). The
/// integrator then reuses the factorizations the skipped stages left: Euler's damped mass
/// matrix when positions are current, the implicit matrix when velocities are too; RK4
/// ignores the skip.
pub fn step_skip(
    m: &Model,
    d: &mut Data,
    skipstage: i32,
    skipsensor: bool,
) -> Result<(), StepError> {
    check_sizes(m, d)?;
    let t = tic(d);
    check_pos(m, d);
    check_vel(m, d);
    forward_stages(m, d, skipstage, skipsensor)?;
    check_acc(m, d)?;
    if enabled(m, ENBL_FWDINV) {
        inverse::compare_fwd_inv(m, d)?;
    }
    match m.opt.integrator {
        INT_RK4 => integrate::runge_kutta(m, d, 4)?,
        INT_IMPLICIT | INT_IMPLICITFAST => integrate::implicit_skip(m, d, skipstage >= STAGE_VEL)?,
        _ => integrate::euler_skip(m, d, skipstage >= STAGE_POS)?,
    }
    toc(d, TIMER_STEP, t);
    Ok(())
}

/// First half of a split step (`mj_step1`): position and velocity stages and the control
/// callback; the caller may then set controls and applied forces before [`step2`].
pub fn step1(m: &Model, d: &mut Data) -> Result<(), StepError> {
    check_sizes(m, d)?;
    let t = tic(d);
    check_pos(m, d);
    check_vel(m, d);
    fwd_position(m, d)?;
    sensor::sensor_pos(m, d)?;
    sensor::energy_pos(m, d)?;
    fwd_velocity(m, d)?;
    sensor::sensor_vel(m, d)?;
    sensor::energy_vel(m, d)?;
    if let Some(control) = d.callbacks.control {
        control(m, d);
    }
    toc(d, TIMER_STEP, t);
    Ok(())
}

/// Second half of a split step (`mj_step2`): actuation, acceleration, constraints,
/// acceleration sensors, then Euler or implicit integration (RK4 falls back to Euler).
pub fn step2(m: &Model, d: &mut Data) -> Result<(), StepError> {
    check_sizes(m, d)?;
    let t = tic(d);
    let ta = tic(d);
    actuation::fwd_actuation(m, d)?;
    toc(d, TIMER_ACTUATION, ta);
    fwd_acceleration(m, d)?;
    fwd_constraint(m, d)?;
    sensor::sensor_acc(m, d)?;
    check_acc(m, d)?;
    if enabled(m, ENBL_FWDINV) {
        inverse::compare_fwd_inv(m, d)?;
    }
    match m.opt.integrator {
        INT_IMPLICIT | INT_IMPLICITFAST => integrate::implicit(m, d)?,
        _ => integrate::euler(m, d)?,
    }
    // step1 already counted this step
    if d.callbacks.time.is_some() {
        d.timer[TIMER_STEP as usize].number -= 1;
    }
    toc(d, TIMER_STEP, t);
    Ok(())
}
