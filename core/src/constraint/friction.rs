//! Friction-loss rows of dofs and tendons (`mj_instantiateFriction`).

use super::row_jacobians::tendon_row;
use super::rows::Rows;
use crate::arena::Stack;
use crate::data::Data;
use crate::error::StepError;
use crate::model::Model;
use crate::real::Real;
use crate::support::disabled;
use crate::types::*;

/// Friction-loss rows of dofs and tendons (`mj_instantiateFriction`).
pub(super) fn friction_rows(
    m: &Model,
    d: &Data,
    rows: &mut Rows,
    stack: &mut Stack,
) -> Result<(), StepError> {
    if disabled(m, DSBL_FRICTIONLOSS) {
        return Ok(());
    }
    let jac = stack.alloc::<Real>(m.nv)?;
    for i in (0..m.nv).filter(|&i| m.dof_frictionloss[i] > 0.0) {
        let floss = m.dof_frictionloss[i];
        rows.add_dof_row(jac, i as i32, 1.0, (0.0, 0.0, floss), CNSTR_FRICTION_DOF, i)?;
    }
    for i in (0..m.ntendon).filter(|&i| m.tendon_frictionloss[i] > 0.0) {
        tendon_friction_row(m, d, i, rows)?;
    }
    Ok(())
}

/// The friction-loss row of tendon `i`; out of line, as few models have one.
#[inline(never)]
fn tendon_friction_row(m: &Model, d: &Data, i: usize, rows: &mut Rows) -> Result<(), StepError> {
    let adr = rows.nefc;
    let (row, cols) = tendon_row(m, d, i, rows.sparse);
    let floss = m.tendon_frictionloss[i];
    rows.add(row, cols, &[], &[], floss, 1, CNSTR_FRICTION_TENDON, i)?;
    rows.note_tendon(i, adr);
    Ok(())
}
