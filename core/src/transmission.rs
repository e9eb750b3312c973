//! Actuator transmissions (MuJoCo's `mj_transmission`): `actuator_length` and the moment arms
//! `actuator_moment` of every actuator.
//!
//! Joint transmissions are implemented; the others are refused with a clear error until they
//! land.

use crate::data::Data;
use crate::forward::StepError;
use crate::model::Model;
use crate::types::*;

/// Actuator lengths and moment arms (`mj_transmission`).
pub fn transmission(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let nv = m.nv;
    for i in 0..m.nu {
        let gear = m.actuator_gear[6 * i];
        let id = m.actuator_trnid[2 * i] as usize;
        let moment = &mut d.actuator_moment[i * nv..(i + 1) * nv];
        match m.actuator_trntype[i] {
            TRN_JOINT | TRN_JOINTINPARENT if matches!(m.jnt_type[id], JNT_SLIDE | JNT_HINGE) => {
                let qadr = m.jnt_qposadr[id] as usize;
                let dadr = m.jnt_dofadr[id] as usize;
                d.actuator_length[i] = d.qpos[qadr] * gear;
                moment.fill(0.0);
                moment[dadr] = gear;
            }
            _ => return Err(StepError::Unsupported("actuator transmission of this type")),
        }
    }
    Ok(())
}
