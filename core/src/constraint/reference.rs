//! Constraint velocities and reference accelerations (`mj_referenceConstraint`).

use super::jacobian::{efc_jacobian, JACOBIAN};
use crate::arena::{ArenaField, ArenaMask};
use crate::data::Data;
use crate::error::StepError;
use crate::model::Model;
use crate::support::is_sparse;

/// Constraint velocities and reference accelerations (`mj_referenceConstraint`):
/// `efc_vel = J qvel`, `efc_aref = -B efc_vel - K I (efc_pos - efc_margin)`.
pub fn reference_constraint(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let nefc = d.nefc;
    if nefc == 0 {
        return Ok(());
    }
    let sparse = is_sparse(m);
    let a = d.arena.arrays_mut_only(REFERENCE);
    let jac = efc_jacobian!(a, nefc, m.nv, sparse);
    jac.mul_vec(a.efc_vel, d.qvel);
    for i in 0..nefc {
        let kbip = &a.efc_KBIP[4 * i..4 * i + 4];
        a.efc_aref[i] =
            -kbip[1] * a.efc_vel[i] - kbip[0] * kbip[2] * (a.efc_pos[i] - a.efc_margin[i]);
    }
    Ok(())
}

/// The arena arrays of [`reference_constraint`]: the Jacobian and the rows' reference terms.
const REFERENCE: ArenaMask = JACOBIAN.union(ArenaMask::of(&[
    ArenaField::efc_pos,
    ArenaField::efc_margin,
    ArenaField::efc_KBIP,
    ArenaField::efc_vel,
    ArenaField::efc_aref,
]));
