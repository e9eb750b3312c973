//! Sensors and energy (MuJoCo's `engine_sensor.c`).
//!
//! Not implemented yet: models with sensors, or with the energy flag, are refused with a clear
//! error.

use crate::data::Data;
use crate::forward::StepError;
use crate::math::quat::sub_quat;
use crate::math::vec::{dot, dot3};
use crate::model::Model;
use crate::real::Real;
use crate::support::{disabled, enabled, mul_m, v3};
use crate::types::*;

fn refuse_sensors(m: &Model) -> Result<(), StepError> {
    if m.nsensor > 0 {
        return Err(StepError::Unsupported("sensors"));
    }
    Ok(())
}

/// Position-dependent sensors (`mj_sensorPos`).
pub fn sensor_pos(m: &Model, _d: &mut Data) -> Result<(), StepError> {
    refuse_sensors(m)
}

/// Velocity-dependent sensors (`mj_sensorVel`).
pub fn sensor_vel(m: &Model, _d: &mut Data) -> Result<(), StepError> {
    refuse_sensors(m)
}

/// Acceleration-dependent sensors (`mj_sensorAcc`).
pub fn sensor_acc(m: &Model, _d: &mut Data) -> Result<(), StepError> {
    refuse_sensors(m)
}

/// Potential energy `energy[0]` (`mj_energyPos`): gravity, joint and tendon springs. Cleared
/// when the energy flag is off.
pub fn energy_pos(m: &Model, d: &mut Data) -> Result<(), StepError> {
    d.energy = [0.0; 2];
    if !enabled(m, ENBL_ENERGY) {
        return Ok(());
    }
    let mut e = 0.0;
    if !disabled(m, DSBL_GRAVITY) {
        for i in 1..m.nbody {
            e -= m.body_mass[i] * dot3(&m.opt.gravity, &v3(d.xipos)[i]);
        }
    }
    if !disabled(m, DSBL_PASSIVE) {
        for j in 0..m.njnt {
            add_joint_spring_energy(m, d, j, &mut e);
        }
        for i in 0..m.ntendon {
            let (lower, upper) = (
                m.tendon_lengthspring[2 * i],
                m.tendon_lengthspring[2 * i + 1],
            );
            let length = d.ten_length[i];
            let displacement = if length > upper {
                upper - length
            } else if length < lower {
                lower - length
            } else {
                0.0
            };
            e += 0.5 * m.tendon_stiffness[i] * displacement * displacement;
        }
    }
    d.energy[0] = e;
    Ok(())
}

/// Adds the spring energy of joint `j` (translation and rotation of a free joint as two terms,
/// in MuJoCo's order, for the same rounding).
fn add_joint_spring_energy(m: &Model, d: &Data, j: usize, e: &mut Real) {
    let k = m.jnt_stiffness[j];
    let mut padr = m.jnt_qposadr[j] as usize;
    let quat = |s: &[Real], a: usize| [s[a], s[a + 1], s[a + 2], s[a + 3]];
    let t = m.jnt_type[j];
    if t == JNT_FREE {
        let dif = sub3s(&d.qpos[padr..], &m.qpos_spring[padr..]);
        *e += 0.5 * k * dot3(&dif, &dif);
        padr += 3;
    }
    if t == JNT_FREE || t == JNT_BALL {
        let rot = sub_quat(&quat(d.qpos, padr), &quat(m.qpos_spring, padr));
        *e += 0.5 * k * dot3(&rot, &rot);
    } else {
        let dif = d.qpos[padr] - m.qpos_spring[padr];
        *e += 0.5 * k * dif * dif;
    }
}

fn sub3s(a: &[Real], b: &[Real]) -> [Real; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Kinetic energy `energy[1] = qvel' M qvel / 2` (`mj_energyVel`).
pub fn energy_vel(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if !enabled(m, ENBL_ENERGY) {
        return Ok(());
    }
    d.with_stack(|d, stack| -> Result<(), StepError> {
        let vec = stack.alloc::<Real>(m.nv)?;
        mul_m(m, d, vec, d.qvel);
        d.energy[1] = 0.5 * dot(vec, d.qvel);
        Ok(())
    })
}
