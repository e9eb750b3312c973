//! Tendons (MuJoCo's `mj_tendon` in `engine_core_smooth.c` and the wrapping geometry of
//! `engine_util_misc.c`): lengths `ten_length`, Jacobians `ten_J`, wrap points.
//!
//! Not implemented yet: models with tendons are refused with a clear error.

use crate::data::Data;
use crate::forward::StepError;
use crate::model::Model;

/// Tendon lengths and Jacobians (`mj_tendon`).
pub fn tendon(m: &Model, _d: &mut Data) -> Result<(), StepError> {
    if m.ntendon > 0 {
        return Err(StepError::Unsupported("tendons"));
    }
    Ok(())
}

/// Tendon velocities `ten_velocity = ten_J qvel` (part of `mj_fwdVelocity`).
pub fn tendon_velocity(_m: &Model, _d: &mut Data) {}
