//! Passive forces (MuJoCo's `engine_passive.c`): joint and tendon springs and dampers, gravity
//! compensation, fluid forces.
//!
//! Not implemented yet: models with any passive force are refused with a clear error.

use crate::data::Data;
use crate::forward::StepError;
use crate::model::Model;
use crate::support::disabled;
use crate::types::DSBL_PASSIVE;

/// Passive forces (`mj_passive`): `qfrc_spring`, `qfrc_damper`, `qfrc_gravcomp`, `qfrc_fluid`
/// and their sum `qfrc_passive`.
pub fn passive(m: &Model, d: &mut Data) -> Result<(), StepError> {
    for f in [
        &mut *d.qfrc_spring,
        &mut *d.qfrc_damper,
        &mut *d.qfrc_gravcomp,
        &mut *d.qfrc_fluid,
        &mut *d.qfrc_passive,
    ] {
        f.fill(0.0);
    }
    if disabled(m, DSBL_PASSIVE) {
        return Ok(());
    }
    let springs = m
        .jnt_stiffness
        .iter()
        .chain(m.tendon_stiffness.iter())
        .any(|&k| k != 0.0);
    let dampers = m
        .dof_damping
        .iter()
        .chain(m.tendon_damping.iter())
        .any(|&b| b != 0.0);
    let fluid = m.opt.density > 0.0 || m.opt.viscosity > 0.0;
    if springs || dampers || m.ngravcomp > 0 || fluid {
        return Err(StepError::Unsupported(
            "passive forces (springs, dampers, gravity compensation, fluid)",
        ));
    }
    Ok(())
}
