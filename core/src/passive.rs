//! Passive forces (MuJoCo's `engine_passive.c`, "Computation › Passive forces"): joint and
//! tendon springs and dampers, gravity compensation and fluid forces (the fluid models are in
//! [`crate::fluid`]). Flex objects are refused before this stage; plugins when the model loads.

use crate::arena::ArenaError;
use crate::data::Data;
use crate::error::StepError;
use crate::fluid;
use crate::math::quat::sub_quat;
use crate::math::vec::{add, add_to, add_to_scl, norm3, scl3};
use crate::model::Model;
use crate::plugin::{for_each_instance, PLUGIN_PASSIVE};
use crate::real::Real;
use crate::support::{apply_ft, disabled, is_sparse, jnt_dofnum, v3};
use crate::types::*;

/// Passive forces (`mj_passive`): writes `qfrc_spring`, `qfrc_damper`, `qfrc_gravcomp`,
/// `qfrc_fluid` and their sum `qfrc_passive` (without the gravity compensation of joints with
/// `actgravcomp`, which actuation adds to `qfrc_actuator`), then calls the passive callback.
/// With the passive flag disabled all of them are zero and the callback is not called.
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

    joint_springs(m, d);
    dof_dampers(m, d);
    // the rarer features are out of line (below): inlined, their set-up and stack frame
    // weighed on every call
    if m.nflex > 0 {
        flex_spring_dampers(m, d);
    }
    if m.ntendon > 0 {
        tendon_spring_dampers(m, d);
    }
    let has_gravcomp = m.ngravcomp > 0 && gravcomp(m, d)?;
    let has_fluid = m.opt.viscosity > 0.0 || m.opt.density > 0.0;
    if has_fluid {
        fluid_forces(m, d)?;
    }
    sum_passive(m, d, has_fluid, has_gravcomp);

    if let Some(callback) = d.callbacks.passive {
        callback(m, d);
    }
    for_each_instance(m, PLUGIN_PASSIVE, |i, p| p.compute(m, d, i, PLUGIN_PASSIVE))
}

/// Joint springs pulling `qpos` toward `qpos_spring` into `qfrc_spring` (part of
/// `mj_springdamper`). Ball joints and the rotation of free joints use the quaternion
/// difference as a rotation vector, so the torque is `-stiffness * angle * axis`.
fn joint_springs(m: &Model, d: &mut Data) {
    let stiffnesses = &m.jnt_stiffness[..m.njnt];
    // most models have no joint springs: this scan spares them the set-up of the loop below
    // (without an exit per joint: a few vector compares instead of three branches a joint)
    if !stiffnesses.iter().fold(false, |any, &s| any | (s != 0.0)) {
        return;
    }
    for (j, &stiffness) in stiffnesses.iter().enumerate() {
        if stiffness == 0.0 {
            continue;
        }
        let mut padr = m.jnt_qposadr[j] as usize;
        let mut dadr = m.jnt_dofadr[j] as usize;
        let (qpos, qpos_spring) = (&*d.qpos, &*m.qpos_spring);
        let frc = &mut *d.qfrc_spring;
        let jnt_type = m.jnt_type[j];
        if jnt_type == JNT_FREE {
            for k in 0..3 {
                frc[dadr + k] = -stiffness * (qpos[padr + k] - qpos_spring[padr + k]);
            }
            padr += 3;
            dadr += 3;
        }
        if jnt_type == JNT_FREE || jnt_type == JNT_BALL {
            let quat = |q: &[Real]| [q[padr], q[padr + 1], q[padr + 2], q[padr + 3]];
            let dif = sub_quat(&quat(qpos), &quat(qpos_spring));
            for k in 0..3 {
                frc[dadr + k] = -stiffness * dif[k];
            }
        } else {
            frc[dadr] = -stiffness * (qpos[padr] - qpos_spring[padr]);
        }
    }
}

/// Dof dampers `qfrc_damper = -damping * qvel` (part of `mj_springdamper`).
fn dof_dampers(m: &Model, d: &mut Data) {
    let nv = m.nv;
    let dofs = d.qfrc_damper[..nv].iter_mut().zip(&m.dof_damping[..nv]);
    // a select, not a branch per dof: undamped dofs keep the zero `passive` wrote
    for ((frc, &damping), &qvel) in dofs.zip(&d.qvel[..nv]) {
        *frc = if damping != 0.0 { -damping * qvel } else { 0.0 };
    }
}

/// Flex edge springs and dampers (part of `mj_springdamper`): each edge that is not rigid
/// pulls toward its rest length `flexedge_length0` and resists its velocity, mapped to joint
/// space through `flexedge_J` (dense or sparse as the Jacobians are).
#[inline(never)]
fn flex_spring_dampers(m: &Model, d: &mut Data) {
    let (nv, sparse) = (m.nv, is_sparse(m));
    for f in 0..m.nflex {
        let (stiffness, damping) = (m.flex_edgestiffness[f], m.flex_edgedamping[f]);
        if m.flex_rigid[f] != 0 || (stiffness == 0.0 && damping == 0.0) {
            continue;
        }
        let start = m.flex_edgeadr[f] as usize;
        for e in start..start + m.flex_edgenum[f] as usize {
            if m.flexedge_rigid[e] != 0 {
                continue;
            }
            let frc_spring = stiffness * (m.flexedge_length0[e] - d.flexedge_length[e]);
            let frc_damper = -damping * d.flexedge_velocity[e];
            if sparse {
                let adr = d.flexedge_J_rowadr[e] as usize;
                for j in adr..adr + d.flexedge_J_rownnz[e] as usize {
                    let k = d.flexedge_J_colind[j] as usize;
                    d.qfrc_spring[k] += d.flexedge_J[j] * frc_spring;
                    d.qfrc_damper[k] += d.flexedge_J[j] * frc_damper;
                }
            } else {
                let row = &d.flexedge_J[e * nv..(e + 1) * nv];
                if frc_spring != 0.0 {
                    add_to_scl(d.qfrc_spring, row, frc_spring);
                }
                if frc_damper != 0.0 {
                    add_to_scl(d.qfrc_damper, row, frc_damper);
                }
            }
        }
    }
}

/// Tendon springs and dampers (part of `mj_springdamper`), mapped to joint space through
/// `ten_J` (dense or sparse as the Jacobians are). The spring acts only outside the deadband
/// `tendon_lengthspring = [lower, upper]`, pulling the length back to the nearer bound.
#[inline(never)]
fn tendon_spring_dampers(m: &Model, d: &mut Data) {
    let (nv, sparse) = (m.nv, is_sparse(m));
    for i in 0..m.ntendon {
        let (stiffness, damping) = (m.tendon_stiffness[i], m.tendon_damping[i]);
        if stiffness == 0.0 && damping == 0.0 {
            continue;
        }
        let length = d.ten_length[i];
        let (lower, upper) = (
            m.tendon_lengthspring[2 * i],
            m.tendon_lengthspring[2 * i + 1],
        );
        let frc_spring = if length > upper {
            stiffness * (upper - length)
        } else if length < lower {
            stiffness * (lower - length)
        } else {
            0.0
        };
        let frc_damper = -damping * d.ten_velocity[i];

        if sparse {
            if frc_spring != 0.0 || frc_damper != 0.0 {
                let adr = d.ten_J_rowadr[i] as usize;
                let nnz = d.ten_J_rownnz[i] as usize;
                for j in adr..adr + nnz {
                    let k = d.ten_J_colind[j] as usize;
                    d.qfrc_spring[k] += d.ten_J[j] * frc_spring;
                    d.qfrc_damper[k] += d.ten_J[j] * frc_damper;
                }
            }
        } else {
            let row = &d.ten_J[i * nv..(i + 1) * nv];
            if frc_spring != 0.0 {
                add_to_scl(d.qfrc_spring, row, frc_spring);
            }
            if frc_damper != 0.0 {
                add_to_scl(d.qfrc_damper, row, frc_damper);
            }
        }
    }
}

/// Gravity compensation (`mj_gravcomp`): the force `-gravity * mass * body_gravcomp` at each
/// compensated body's center of mass, into `qfrc_gravcomp`. Returns whether any body is
/// compensated; nothing is computed without gravity or with the gravity flag disabled. Called
/// only for a model with compensated bodies (`ngravcomp > 0`).
#[inline(never)]
fn gravcomp(m: &Model, d: &mut Data) -> Result<bool, ArenaError> {
    if disabled(m, DSBL_GRAVITY) || norm3(&m.opt.gravity) == 0.0 {
        return Ok(false);
    }
    let mut any = false;
    d.with_stack(|d, stack| -> Result<(), ArenaError> {
        let qfrc = stack.alloc_zeroed::<Real>(m.nv)?;
        for i in 1..m.nbody {
            if m.body_gravcomp[i] == 0.0 {
                continue;
            }
            any = true;
            let force = scl3(&m.opt.gravity, -(m.body_mass[i] * m.body_gravcomp[i]));
            // MuJoCo passes a zero torque rather than none; both add nothing
            apply_ft(m, d, Some(&force), None, &v3(d.xipos)[i], i, qfrc, stack)?;
        }
        d.qfrc_gravcomp.copy_from_slice(qfrc);
        Ok(())
    })?;
    Ok(any)
}

/// Fluid forces of all bodies into `qfrc_fluid` (`mj_fluid`; see [`crate::fluid`]).
#[inline(never)]
fn fluid_forces(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    d.with_stack(|d, stack| -> Result<(), ArenaError> {
        let qfrc = stack.alloc_zeroed::<Real>(m.nv)?;
        fluid::fluid(m, d, qfrc, stack)?;
        d.qfrc_fluid.copy_from_slice(qfrc);
        Ok(())
    })
}

/// `qfrc_passive = qfrc_spring + qfrc_damper (+ qfrc_fluid) (+ qfrc_gravcomp)`, where gravity
/// compensation is added only for the dofs of joints without `jnt_actgravcomp` (the others get
/// it through `qfrc_actuator`, see [`crate::actuation`]).
fn sum_passive(m: &Model, d: &mut Data, has_fluid: bool, has_gravcomp: bool) {
    add(d.qfrc_passive, d.qfrc_spring, d.qfrc_damper);
    if has_fluid {
        add_to(d.qfrc_passive, d.qfrc_fluid);
    }
    if has_gravcomp {
        for j in 0..m.njnt {
            if m.jnt_actgravcomp[j] != 0 {
                continue;
            }
            let adr = m.jnt_dofadr[j] as usize;
            for k in adr..adr + jnt_dofnum(m.jnt_type[j]) {
                d.qfrc_passive[k] += d.qfrc_gravcomp[k];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{forward::forward, io::reset_data_keyframe, mjb};

    /// Runs `f` on the conformance fixture `name` (an MJB written by MuJoCo 3.1.6), reset to its
    /// first keyframe, with `disable` added to its disable flags.
    fn with_fixture(name: &str, disable: i32, f: impl FnOnce(&Model, &mut Data)) {
        let path = format!(
            "{}/../tests/fixtures/smooth/{name}.mjb",
            env!("CARGO_MANIFEST_DIR")
        );
        let blob = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let header = mjb::read_header(&blob).unwrap();
        let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
        let mut m = mjb::load(&blob, &mut mbuf).unwrap();
        m.opt.disableflags |= disable;
        let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data::new(&m, &mut dbuf).unwrap();
        reset_data_keyframe(&m, &mut d, 0);
        f(&m, &mut d);
    }

    fn add_one(_: &Model, d: &mut Data) {
        for f in d.qfrc_passive.iter_mut() {
            *f += 1.0;
        }
    }

    #[test]
    fn callback_adds_after_builtin_forces() {
        with_fixture("passive_springs", 0, |m, d| {
            forward(m, d).unwrap();
            let builtin = d.qfrc_passive.to_vec();
            assert!(builtin.iter().any(|&f| f != 0.0));
            d.callbacks.passive = Some(add_one);
            passive(m, d).unwrap();
            for (with, without) in d.qfrc_passive.iter().zip(&builtin) {
                assert_eq!(*with, without + 1.0);
            }
        });
    }

    #[test]
    fn disabled_passive_zeroes_everything_and_skips_callback() {
        with_fixture("passive_springs", DSBL_PASSIVE, |m, d| {
            d.callbacks.passive = Some(add_one);
            forward(m, d).unwrap();
            for f in [
                &*d.qfrc_spring,
                &*d.qfrc_damper,
                &*d.qfrc_gravcomp,
                &*d.qfrc_fluid,
                &*d.qfrc_passive,
            ] {
                assert!(f.iter().all(|&x| x == 0.0));
            }
        });
    }

    #[test]
    fn actuator_gravcomp_stays_out_of_qfrc_passive() {
        with_fixture("passive_gravcomp", 0, |m, d| {
            forward(m, d).unwrap();
            let mut routed = 0;
            for j in 0..m.njnt {
                let adr = m.jnt_dofadr[j] as usize;
                for k in adr..adr + jnt_dofnum(m.jnt_type[j]) {
                    let own = d.qfrc_spring[k] + d.qfrc_damper[k];
                    if m.jnt_actgravcomp[j] != 0 {
                        assert_ne!(d.qfrc_gravcomp[k], 0.0);
                        assert_eq!(d.qfrc_passive[k], own);
                        routed += 1;
                    } else {
                        assert_eq!(d.qfrc_passive[k], own + d.qfrc_gravcomp[k]);
                    }
                }
            }
            assert_eq!(routed, 2);
        });
    }

    #[test]
    fn no_gravity_no_gravcomp() {
        with_fixture("passive_gravcomp", DSBL_GRAVITY, |m, d| {
            forward(m, d).unwrap();
            assert!(d.qfrc_gravcomp.iter().all(|&x| x == 0.0));
        });
    }
}
