//! Inverse dynamics (MuJoCo's `engine_inverse.c`): given the state and the acceleration `qacc`,
//! the generalized force `qfrc_inverse` that produces it, with the constraint forces that the
//! soft-constraint model implies at that acceleration ("Computation › Inverse dynamics").
//!
//! * [`inverse`] and [`inverse_skip`]: the pipeline, a mirror of `forward` whose last stages
//!   go the other way: `qacc` in, `efc_force`, `qfrc_constraint` and `qfrc_inverse` out.
//! * [`inv_position`], [`inv_velocity`], [`inv_constraint`]: its stages.
//! * [`compare_fwd_inv`]: the `fwdinv` check run by `step` after `forward`, which writes
//!   `solver_fwdinv` and leaves the forward results as they were.
//!
//! With the `invdiscrete` enable flag, `qacc` is read as the discrete-time acceleration of the
//! model's integrator and converted to the continuous-time one first (see [`inverse_skip`]).

use crate::arena::{ArenaError, Reservation};
use crate::data::Data;
use crate::derivative::{copy_d2m_sparse, copy_m2d_sparse, smooth_vel};
use crate::error::StepError;
// inverse dynamics shares the driver's size check and velocity stage, and the driver calls
// inverse to compare (`ENBL_FWDINV`): the one allowed circle of `inverse`
use crate::forward::{check_sizes, fwd_velocity, position_velocity};
use crate::math::sparse::mul_mat_vec_sparse;
use crate::math::vec::{add, add_to_scl, norm, sub, sub_from};
use crate::model::Model;
use crate::real::Real;
use crate::smooth::{self, rne};
use crate::solver::{constraint_update, Efc};
use crate::support::{disabled, enabled, mul_m, mul_sym_sparse, xfrc_accumulate};
use crate::timer::{tic, toc};
use crate::types::*;
use crate::{collision, constraint, flex, sensor, tendon, transmission};

/// Position-dependent stage of inverse dynamics (`mj_invPosition`): `fwd_position` without the
/// projection of the constraints onto the dual space (`efc_AR` is not needed going backwards).
pub fn inv_position(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let t = tic(d);
    smooth::kinematics(m, d);
    smooth::com_pos(m, d)?;
    smooth::camlight(m, d);
    flex::flex(m, d)?;
    tendon::tendon(m, d)?;
    smooth::crb(m, d);
    smooth::factor_m(m, d);
    collision::collision(m, d)?;
    constraint::make_constraint(m, d)?;
    transmission::transmission(m, d)?;
    toc(d, TIMER_POSITION, t);
    Ok(())
}

/// Velocity-dependent stage of inverse dynamics (`mj_invVelocity`): the same as forward's.
pub fn inv_velocity(m: &Model, d: &mut Data) -> Result<(), StepError> {
    fwd_velocity(m, d)
}

/// Replaces the discrete-time `qacc` of the model's integrator by the continuous-time
/// acceleration that gives the same forces (`mj_discreteAcc`): `qacc <- M⁻¹ A qacc`, where `A`
/// is the matrix the integrator inverts: `M + h diag(damping)` for Euler with dof damping,
/// `M - h qDeriv` (full, in `qLU`) for implicit, and its lower triangle in `qM`'s layout for
/// implicitfast. RK4 has no such matrix: MuJoCo rejects it, and so does this.
fn discrete_acc(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let (nv, h) = (m.nv, m.opt.timestep);
    match m.opt.integrator {
        INT_RK4 => {
            return Err(StepError::Rejected(
                "discrete inverse dynamics is not supported by RK4 integrator",
            ))
        }
        INT_EULER => {
            let damped =
                !disabled(m, DSBL_EULERDAMP) && m.dof_damping[..nv].iter().any(|&b| b > 0.0);
            if !damped {
                return Ok(());
            }
        }
        // implicit and implicitfast need the velocity derivative of the smooth forces
        INT_IMPLICIT => smooth_vel(m, d, true)?,
        INT_IMPLICITFAST => smooth_vel(m, d, false)?,
        _ => return Err(StepError::Rejected("invalid integrator")),
    }
    d.with_stack(|d, stack| -> Result<(), ArenaError> {
        let mut frame = stack.frame();
        let qfrc = frame.alloc::<Real>(nv)?;
        match m.opt.integrator {
            INT_IMPLICIT => {
                // qLU = qM - h qDeriv, both triangles, then qfrc = qLU qacc
                let remaining = frame.alloc::<i32>(nv)?;
                copy_m2d_sparse(m, d.D_rownnz, d.D_rowadr, d.qLU, d.qM, remaining);
                add_to_scl(d.qLU, d.qDeriv, -h);
                mul_mat_vec_sparse(
                    qfrc, d.qLU, d.qacc, nv, d.D_rownnz, d.D_rowadr, d.D_colind, None,
                );
            }
            INT_IMPLICITFAST => {
                // qM - h qDeriv reduced to qM's nonzeros, without touching qM
                let mh = frame.alloc::<Real>(m.nM)?;
                copy_d2m_sparse(m, d, mh, d.qDeriv);
                for (x, &mij) in mh.iter_mut().zip(d.qM.iter()) {
                    *x = mij + *x * -h;
                }
                mul_sym_sparse(m, mh, qfrc, d.qacc);
            }
            _ => {
                // Euler with dof damping: (M + h diag(damping)) qacc
                mul_m(m, d, qfrc, d.qacc);
                for i in 0..nv {
                    qfrc[i] += h * m.dof_damping[i] * d.qacc[i];
                }
            }
        }
        d.qacc.copy_from_slice(qfrc);
        smooth::solve_ld(m, d.qacc, 1, d.qLD, d.qLDiagInv);
        Ok(())
    })?;
    Ok(())
}

/// Constraint forces at the given acceleration (`mj_invConstraint`): with
/// `jar = J qacc - aref`, each row's force and state follow from the primal cost
/// (`constraint_update`, without cone Hessians); writes `efc_force`, `efc_state` and
/// `qfrc_constraint = J' efc_force`.
pub fn inv_constraint(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let t = tic(d);
    if d.nefc == 0 {
        d.qfrc_constraint.fill(0.0);
        toc(d, TIMER_CONSTRAINT, t);
        return Ok(());
    }
    let mut detached = d.arena.detach();
    let result = {
        let (arrays, mut stack) = detached.arrays_mut_only_and_stack(d.arena.table(), Efc::ARRAYS);
        Efc::new(m, d, arrays).and_then(|mut efc| {
            let jar = stack.alloc::<Real>(efc.nefc)?;
            efc.jac.mul_vec(jar, d.qacc);
            sub_from(jar, efc.aref);
            constraint_update(m, d.qfrc_constraint, &mut efc, jar, false);
            Ok(())
        })
    };
    d.arena.attach(detached);
    result?;
    toc(d, TIMER_CONSTRAINT, t);
    Ok(())
}

/// Inverse dynamics (`mj_inverse`): from `qpos`, `qvel` and `qacc`, every position and velocity
/// result as `forward` computes them, the constraint forces at `qacc`, the sensors, and
/// `qfrc_inverse`, the force that with the passive and constraint forces produces `qacc`.
pub fn inverse(m: &Model, d: &mut Data) -> Result<(), StepError> {
    inverse_skip(m, d, STAGE_NONE, false)
}

/// Inverse dynamics skipping the stages before `skipstage` (`STAGE_POS`: position results are
/// current; `STAGE_VEL`: velocity results too), and the sensors if `skipsensor`
/// (`mj_inverseSkip`). Writes `qfrc_inverse = M qacc + C - qfrc_passive - qfrc_constraint`
/// (RNE plus armature), and `efc_force`, `efc_state`, `qfrc_constraint` from [`inv_constraint`].
///
/// With `invdiscrete`, `qacc` is converted to continuous time for these computations (see
/// `discrete_acc`) and restored afterwards; the sensors see the converted one.
pub fn inverse_skip(
    m: &Model,
    d: &mut Data,
    skipstage: i32,
    skipsensor: bool,
) -> Result<(), StepError> {
    check_sizes(m, d)?;
    let t = tic(d);
    position_velocity(m, d, skipstage, skipsensor, inv_position, inv_velocity)?;

    if !enabled(m, ENBL_INVDISCRETE) {
        inverse_acc(m, d, skipsensor)?;
        toc(d, TIMER_INVERSE, t);
        return Ok(());
    }

    // keep the discrete-time qacc above the stack that the stages below use
    let saved = d.arena.reserve::<Real>(m.nv)?;
    d.arena
        .reserved::<Real>(&saved, m.nv)
        .copy_from_slice(d.qacc);
    let result = discrete_acc(m, d).and_then(|()| inverse_acc(m, d, skipsensor));
    let Data { arena, qacc, .. } = d;
    qacc.copy_from_slice(arena.reserved::<Real>(&saved, m.nv));
    d.arena.release(saved);
    result?;
    toc(d, TIMER_INVERSE, t);
    Ok(())
}

/// The acceleration-dependent part of [`inverse_skip`]: constraint forces, RNE, acceleration
/// sensors, and `qfrc_inverse`.
fn inverse_acc(m: &Model, d: &mut Data, skipsensor: bool) -> Result<(), StepError> {
    inv_constraint(m, d)?;
    d.with_stack(|d, stack| -> Result<(), ArenaError> {
        let mut frame = stack.frame();
        let qfrc = frame.alloc::<Real>(m.nv)?;
        rne(m, d, true, qfrc, &mut frame)?;
        d.qfrc_inverse.copy_from_slice(qfrc);
        Ok(())
    })?;
    if !skipsensor {
        sensor::sensor_acc(m, d)?;
    }
    for i in 0..m.nv {
        d.qfrc_inverse[i] +=
            m.dof_armature[i] * d.qacc[i] - d.qfrc_passive[i] - d.qfrc_constraint[i];
    }
    Ok(())
}

/// Compares forward and inverse dynamics at the current state without changing the results
/// of forward (`mj_compareFwdInv`, run by `step` with the `fwdinv` enable flag):
/// `solver_fwdinv[0] = |qfrc_constraint(forward) - qfrc_constraint(inverse)|` and
/// `solver_fwdinv[1] = |qfrc_applied + J' xfrc_applied + qfrc_actuator - qfrc_inverse|`, both
/// 0 without constraint rows. As in MuJoCo, `qfrc_inverse` and `efc_state` keep the values of
/// the inverse pass; `qfrc_constraint` and `efc_force` are restored.
pub fn compare_fwd_inv(m: &Model, d: &mut Data) -> Result<(), StepError> {
    check_sizes(m, d)?;
    let (nv, nefc) = (m.nv, d.nefc);
    d.solver_fwdinv = [0.0; 2];
    if nefc == 0 {
        return Ok(());
    }

    // the forward qfrc_constraint and efc_force, kept above the stack of the inverse pass
    let len = nv + nefc;
    let saved = d.arena.reserve::<Real>(len)?;
    let result = save_forward(d, &saved, nv, nefc)
        .and_then(|()| inverse_skip(m, d, STAGE_VEL, true))
        .and_then(|()| fwdinv_statistics(m, d, &saved, nv, nefc));
    d.arena.release(saved);
    result
}

/// Copies `qfrc_constraint` and `efc_force` into the reservation `saved`.
fn save_forward(
    d: &mut Data,
    saved: &Reservation,
    nv: usize,
    nefc: usize,
) -> Result<(), StepError> {
    let Data {
        arena,
        qfrc_constraint,
        ..
    } = d;
    let (block, arrays) = arena.reserved_and_arrays::<Real>(saved, nv + nefc);
    if block.len() < nv + nefc || arrays.efc_force.len() < nefc {
        return Err(StepError::Unsupported(
            "constraint rows without the arrays the solver reads",
        ));
    }
    let (save_constraint, save_force) = block.split_at_mut(nv);
    save_constraint.copy_from_slice(qfrc_constraint);
    save_force[..nefc].copy_from_slice(&arrays.efc_force[..nefc]);
    Ok(())
}

/// `solver_fwdinv` after the inverse pass, then the forward `qfrc_constraint` and `efc_force`
/// back from `saved`. The applied forces are summed here rather than before the inverse pass:
/// nothing they depend on changes in between.
fn fwdinv_statistics(
    m: &Model,
    d: &mut Data,
    saved: &Reservation,
    nv: usize,
    nefc: usize,
) -> Result<(), StepError> {
    // qfrc_applied + J' xfrc_applied + qfrc_actuator should equal qfrc_inverse
    d.with_stack(|d, stack| -> Result<(), ArenaError> {
        let mut frame = stack.frame();
        let qforce = frame.alloc::<Real>(nv)?;
        add(qforce, d.qfrc_applied, d.qfrc_actuator);
        xfrc_accumulate(m, d, qforce, &mut frame)?;
        let dif = frame.alloc::<Real>(nv)?;
        sub(dif, qforce, d.qfrc_inverse);
        d.solver_fwdinv[1] = norm(dif);
        Ok(())
    })?;

    let Data {
        arena,
        qfrc_constraint,
        solver_fwdinv,
        ..
    } = d;
    let (block, arrays) = arena.reserved_and_arrays::<Real>(saved, nv + nefc);
    let (save_constraint, save_force) = block.split_at_mut(nv);
    // qfrc_constraint, about to be restored, holds the difference meanwhile
    for (x, &s) in qfrc_constraint.iter_mut().zip(save_constraint.iter()) {
        *x = s - *x;
    }
    solver_fwdinv[0] = norm(qfrc_constraint);
    qfrc_constraint.copy_from_slice(save_constraint);
    arrays.efc_force[..nefc].copy_from_slice(&save_force[..nefc]);
    Ok(())
}
