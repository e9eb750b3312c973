//! Joint and tendon limit rows (`mj_instantiateLimit`), with the distances to the limits that
//! counting and instantiating share.

use super::row_jacobians::tendon_row;
use super::rows::Rows;
use crate::arena::Stack;
use crate::data::Data;
use crate::error::StepError;
use crate::math::misc::max;
use crate::math::quat::quat2vel;
use crate::math::vec::normalize3;
use crate::model::Model;
use crate::real::Real;
use crate::support::{disabled, v4};
use crate::types::*;

/// Distance to the lower (`side` -1) or upper (`side` 1) limit of a value; negative when the
/// limit is violated.
pub(super) fn limit_dist(range: &[Real], side: i32, value: Real) -> Real {
    let bound = if side < 0 { range[0] } else { range[1] };
    Real::from(side as i8) * (bound - value)
}

/// Rotation axis and distance to the limit of ball joint `j`: the limit is the larger of the
/// two range values, the distance negative when the rotation angle exceeds it.
pub(super) fn ball_limit(m: &Model, d: &Data, j: usize) -> ([Real; 3], Real) {
    let adr = m.jnt_qposadr[j] as usize;
    let mut axis = quat2vel(&v4(&d.qpos[adr..adr + 4])[0], 1.0);
    let angle = normalize3(&mut axis);
    (
        axis,
        max(m.jnt_range[2 * j], m.jnt_range[2 * j + 1]) - angle,
    )
}

/// Whether a limit at distance `dist` is active: closer than its margin. A NaN distance (a
/// NaN position or tendon length) is never active, as in MuJoCo, so the row counter and the
/// row builder agree.
pub(super) fn within_margin(dist: Real, margin: Real) -> bool {
    dist < margin
}

/// Joint and tendon limit rows (`mj_instantiateLimit`): one per violated (or within-margin)
/// side, with a Jacobian pointing away from the limit.
pub(super) fn limit_rows(
    m: &Model,
    d: &Data,
    rows: &mut Rows,
    stack: &mut Stack,
) -> Result<(), StepError> {
    if disabled(m, DSBL_LIMIT) {
        return Ok(());
    }
    let jac = stack.alloc::<Real>(m.nv)?;
    for j in (0..m.njnt).filter(|&j| m.jnt_limited[j] != 0) {
        match m.jnt_type[j] {
            JNT_SLIDE | JNT_HINGE => joint_limit_rows(m, d, j, jac, rows)?,
            JNT_BALL => ball_limit_row(m, d, j, jac, rows)?,
            _ => {}
        }
    }
    for i in (0..m.ntendon).filter(|&i| m.tendon_limited[i] != 0) {
        tendon_limit_rows(m, d, i, jac, rows)?;
    }
    Ok(())
}

/// Limit rows of a slide or hinge joint.
fn joint_limit_rows(
    m: &Model,
    d: &Data,
    j: usize,
    jac: &mut [Real],
    rows: &mut Rows,
) -> Result<(), StepError> {
    let margin = m.jnt_margin[j];
    let value = d.qpos[m.jnt_qposadr[j] as usize];
    let dof = m.jnt_dofadr[j];
    for side in [-1, 1] {
        let dist = limit_dist(&m.jnt_range[2 * j..2 * j + 2], side, value);
        if !within_margin(dist, margin) {
            continue;
        }
        let sign = -Real::from(side as i8);
        rows.add_dof_row(jac, dof, sign, (dist, margin, 0.0), CNSTR_LIMIT_JOINT, j)?;
    }
    Ok(())
}

/// Limit row of a ball joint: on the rotation angle, along the rotation axis. Out of line, as
/// are the tendons' rows: most models limit hinges and slides only.
#[inline(never)]
fn ball_limit_row(
    m: &Model,
    d: &Data,
    j: usize,
    jac: &mut [Real],
    rows: &mut Rows,
) -> Result<(), StepError> {
    let margin = m.jnt_margin[j];
    let (axis, dist) = ball_limit(m, d, j);
    if !within_margin(dist, margin) {
        return Ok(());
    }
    let dof = m.jnt_dofadr[j];
    let neg = axis.map(|a| -a);
    if rows.sparse {
        jac[..3].copy_from_slice(&neg);
        let chain = [dof, dof + 1, dof + 2];
        rows.add(
            &jac[..3],
            &chain,
            &[dist],
            &[margin],
            0.0,
            1,
            CNSTR_LIMIT_JOINT,
            j,
        )
    } else {
        jac.fill(0.0);
        let dof = dof as usize;
        jac[dof..dof + 3].copy_from_slice(&neg);
        rows.add(jac, &[], &[dist], &[margin], 0.0, 1, CNSTR_LIMIT_JOINT, j)
    }
}

/// Limit rows of a tendon.
#[inline(never)]
fn tendon_limit_rows(
    m: &Model,
    d: &Data,
    i: usize,
    jac: &mut [Real],
    rows: &mut Rows,
) -> Result<(), StepError> {
    let value = d.ten_length[i];
    let margin = m.tendon_margin[i];
    let (row, cols) = tendon_row(m, d, i, rows.sparse);
    for side in [-1, 1] {
        let dist = limit_dist(&m.tendon_range[2 * i..2 * i + 2], side, value);
        if !within_margin(dist, margin) {
            continue;
        }
        let sign = -Real::from(side as i8);
        let jac = &mut jac[..row.len()];
        for (x, &t) in jac.iter_mut().zip(row) {
            *x = t * sign;
        }
        let adr = rows.nefc;
        rows.add(jac, cols, &[dist], &[margin], 0.0, 1, CNSTR_LIMIT_TENDON, i)?;
        rows.note_tendon(i, adr);
    }
    Ok(())
}
