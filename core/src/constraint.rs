//! Constraints (MuJoCo's `engine_core_constraint.c`): the constraint rows `efc_*` of equality
//! constraints, friction loss, joint and tendon limits and contacts, their soft-constraint
//! parameters, and the reference accelerations.
//!
//! Not implemented yet: a model that makes constraint rows is refused with a clear error.

use crate::data::Data;
use crate::forward::StepError;
use crate::model::Model;
use crate::support::disabled;
use crate::types::*;

/// Constraint rows (`mj_makeConstraint`).
pub fn make_constraint(m: &Model, d: &mut Data) -> Result<(), StepError> {
    d.ne = 0;
    d.nf = 0;
    d.nl = 0;
    d.nefc = 0;
    d.nnzJ = 0;
    if disabled(m, DSBL_CONSTRAINT) {
        return Ok(());
    }
    if d.ncon > 0 {
        return Err(StepError::Unsupported("contact constraints"));
    }
    if !disabled(m, DSBL_EQUALITY) && d.eq_active.iter().any(|&a| a != 0) {
        return Err(StepError::Unsupported(
            "equality constraints (disable them or the constraint flag)",
        ));
    }
    let friction = m
        .dof_frictionloss
        .iter()
        .chain(m.tendon_frictionloss.iter())
        .any(|&f| f > 0.0);
    if !disabled(m, DSBL_FRICTIONLOSS) && friction {
        return Err(StepError::Unsupported(
            "friction loss (disable it or the constraint flag)",
        ));
    }
    let limited = m
        .jnt_limited
        .iter()
        .chain(m.tendon_limited.iter())
        .any(|&l| l != 0);
    if !disabled(m, DSBL_LIMIT) && limited {
        return Err(StepError::Unsupported(
            "joint and tendon limits (disable them or the constraint flag)",
        ));
    }
    Ok(())
}

/// Projections of the constraint rows (`mj_projectConstraint`): `efc_diagApprox`, `efc_R`,
/// `efc_D`, and for dual solvers `efc_AR`. Nothing to do without rows.
pub fn project_constraint(_m: &Model, d: &mut Data) -> Result<(), StepError> {
    if d.nefc > 0 {
        return Err(StepError::Unsupported("constraint projection"));
    }
    Ok(())
}

/// Constraint velocities and reference accelerations (`mj_referenceConstraint`): `efc_vel`,
/// `efc_aref`. Nothing to do without rows.
pub fn reference_constraint(_m: &Model, d: &mut Data) -> Result<(), StepError> {
    if d.nefc > 0 {
        return Err(StepError::Unsupported("constraint reference"));
    }
    Ok(())
}
