//! Constraint velocities and reference accelerations (`mj_referenceConstraint`).

use super::jacobian::{efc_jacobian, JACOBIAN_DENSE, JACOBIAN_ROWS};
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
    // `J qvel` reads the Jacobian's rows only: the dense matrix, or the sparse rows
    let a = if sparse {
        d.arena.arrays_mut_only(JACOBIAN_ROWS.union(REFERENCE))
    } else {
        d.arena.arrays_mut_only(JACOBIAN_DENSE.union(REFERENCE))
    };
    let jac = efc_jacobian!(a, nefc, m.nv, sparse);
    jac.mul_vec(a.efc_vel, d.qvel);
    // sliced to the rows once, so that the loop carries no bounds checks
    let rows = a.efc_aref[..nefc]
        .iter_mut()
        .zip(a.efc_KBIP[..4 * nefc].chunks_exact(4))
        .zip(&a.efc_vel[..nefc])
        .zip(a.efc_pos[..nefc].iter().zip(&a.efc_margin[..nefc]));
    for (((aref, kbip), &vel), (&pos, &margin)) in rows {
        *aref = -kbip[1] * vel - kbip[0] * kbip[2] * (pos - margin);
    }
    Ok(())
}

/// The arena arrays of [`reference_constraint`] besides the Jacobian: the rows' reference terms.
const REFERENCE: ArenaMask = ArenaMask::of(&[
    ArenaField::efc_pos,
    ArenaField::efc_margin,
    ArenaField::efc_KBIP,
    ArenaField::efc_vel,
    ArenaField::efc_aref,
]);
