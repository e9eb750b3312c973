//! Actuation (MuJoCo's `mj_fwdActuation`): activation dynamics `act_dot`, actuator forces
//! `actuator_force = gain * (ctrl or act) + bias` and their generalized forces `qfrc_actuator`
//! ("Computation › Actuation model").

use crate::data::Data;
use crate::error::StepError;
use crate::math::mat::mul_mat_t_vec;
use crate::math::misc::{muscle_bias, muscle_dynamics, muscle_gain};
use crate::math::vec::norm3;
use crate::model::Model;
use crate::plugin::{for_each_instance, PLUGIN_ACTUATOR};
use crate::real::{Real, MINVAL};
use crate::support::{actuator_disabled, disabled, jnt_dofnum, warning};
use crate::types::*;

/// `x` clamped to `[lo, hi]`; NaN stays NaN (`mju_clip`).
fn clip(x: Real, lo: Real, hi: Real) -> Real {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// Clamps `vec[index(i)]` to `range[2i..2i+2]` where `limited[i]`.
fn clamp_vec(vec: &mut [Real], range: &[Real], limited: &[u8], index: impl Fn(usize) -> usize) {
    for ((i, &lim), &[lo, hi]) in limited.iter().enumerate().zip(range.as_chunks::<2>().0) {
        if lim != 0 {
            let j = index(i);
            vec[j] = clip(vec[j], lo, hi);
        }
    }
}

/// Activation `act` of `actuator` after one timestep with derivative `act_dot`, clamped to
/// `actrange` when limited (MuJoCo's `nextActivation`): exact integration for `filterexact`,
/// Euler otherwise.
pub fn next_activation(m: &Model, actuator: usize, mut act: Real, act_dot: Real) -> Real {
    let h = m.opt.timestep;
    if m.actuator_dyntype[actuator] == DYN_FILTEREXACT {
        let tau = m.actuator_dynprm[actuator * NDYN].max(MINVAL);
        act += act_dot * tau * (1.0 - crate::math::scalar::exp(-h / tau));
    } else {
        act += act_dot * h;
    }
    if m.actuator_actlimited[actuator] != 0 {
        act = clip(
            act,
            m.actuator_actrange[2 * actuator],
            m.actuator_actrange[2 * actuator + 1],
        );
    }
    act
}

/// `(qpos, qvel, ctrl, act) -> (act_dot, actuator_force, qfrc_actuator)` (`mj_fwdActuation`).
pub fn fwd_actuation(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let (nv, nu) = (m.nv, m.nu);
    d.actuator_force.fill(0.0);
    if nu == 0 || disabled(m, DSBL_ACTUATION) {
        d.qfrc_actuator.fill(0.0);
        return Ok(());
    }
    d.with_stack(|d, stack| -> Result<(), StepError> {
        let ctrl = stack.alloc::<Real>(nu)?;
        clamped_controls(m, d, ctrl);
        activation_dynamics(m, d, ctrl);
        for_each_instance(m, PLUGIN_ACTUATOR, |i, p| {
            p.actuator_act_dot(m, d, i);
            Ok(())
        })?;
        actuator_forces(m, d, ctrl);
        // plugin actuators write their forces after the built-in ones
        for_each_instance(m, PLUGIN_ACTUATOR, |i, p| {
            p.compute(m, d, i, PLUGIN_ACTUATOR)
        })?;
        Ok(())
    })?;
    clamp_vec(
        d.actuator_force,
        &m.actuator_forcerange,
        &m.actuator_forcelimited,
        |i| i,
    );
    mul_mat_t_vec(d.qfrc_actuator, d.actuator_moment, d.actuator_force, nu, nv);
    actuator_gravcomp(m, d);
    clamp_vec(
        d.qfrc_actuator,
        &m.jnt_actfrcrange,
        &m.jnt_actfrclimited,
        |j| m.jnt_dofadr[j] as usize,
    );
    Ok(())
}

/// A copy of `ctrl` clamped to `ctrlrange` (unless disabled); all zero, with a `WARN_BADCTRL`
/// warning, if any control is NaN or huge.
fn clamped_controls(m: &Model, d: &mut Data, ctrl: &mut [Real]) {
    ctrl.copy_from_slice(d.ctrl);
    if !disabled(m, DSBL_CLAMPCTRL) {
        clamp_vec(ctrl, &m.actuator_ctrlrange, &m.actuator_ctrllimited, |i| i);
    }
    if let Some(i) = ctrl
        .iter()
        .position(|&c| c.is_nan() || c.abs() > crate::real::MAXVAL)
    {
        warning(d, WARN_BADCTRL, i as i32);
        ctrl.fill(0.0);
    }
}

/// `act_dot` of every stateful actuator, by dynamics type.
fn activation_dynamics(m: &Model, d: &mut Data, ctrl: &[Real]) {
    for i in 0..m.nu {
        let Ok(first) = usize::try_from(m.actuator_actadr[i]) else {
            continue;
        };
        let num = m.actuator_actnum[i] as usize;
        d.act_dot[first..first + num].fill(0.0);
        let Some(last) = (first + num).checked_sub(1) else {
            continue;
        };
        let prm = &m.actuator_dynprm[i * NDYN..(i + 1) * NDYN];
        let act = d.act[last];
        d.act_dot[last] = match m.actuator_dyntype[i] {
            DYN_INTEGRATOR => ctrl[i],
            DYN_FILTER | DYN_FILTEREXACT => (ctrl[i] - act) / prm[0].max(MINVAL),
            DYN_MUSCLE => muscle_dynamics(ctrl[i], act, &[prm[0], prm[1], prm[2]]),
            _ => match d.callbacks.act_dyn {
                // scalar dynamics return act_dot; higher-order ones write act_dot themselves
                Some(f) if num == 1 => f(m, d, i),
                Some(f) => {
                    f(m, d, i);
                    d.act_dot[last]
                }
                None => d.act_dot[last],
            },
        };
    }
}

/// `actuator_force = gain * (ctrl or act) + bias` for every enabled actuator that is not a
/// plugin's.
fn actuator_forces(m: &Model, d: &mut Data, ctrl: &[Real]) {
    let nu = m.nu;
    // every per-actuator array cut to nu once: actuator i's entries need no further checks
    let gainprm = &m.actuator_gainprm.as_chunks::<NGAIN>().0[..nu];
    let biasprm = &m.actuator_biasprm.as_chunks::<NBIAS>().0[..nu];
    let lengthranges = &m.actuator_lengthrange.as_chunks::<2>().0[..nu];
    let (gaintype, biastype) = (&m.actuator_gaintype[..nu], &m.actuator_biastype[..nu]);
    let (plugin, actadr, acc0) = (
        &m.actuator_plugin[..nu],
        &m.actuator_actadr[..nu],
        &m.actuator_acc0[..nu],
    );
    let ctrl = &ctrl[..nu];
    let (lengths, velocities) = (&d.actuator_length[..nu], &d.actuator_velocity[..nu]);
    for i in 0..nu {
        if actuator_disabled(m, i) || plugin[i] >= 0 {
            continue;
        }
        let (length, velocity) = (lengths[i], velocities[i]);
        let lengthrange = &lengthranges[i];
        let prm = &gainprm[i];
        let gain = match gaintype[i] {
            GAIN_FIXED => prm[0],
            GAIN_AFFINE => prm[0] + prm[1] * length + prm[2] * velocity,
            GAIN_MUSCLE => muscle_gain(length, velocity, lengthrange, acc0[i], &first9(prm)),
            _ => d.callbacks.act_gain.map_or(1.0, |f| f(m, d, i)),
        };
        let input = match usize::try_from(actadr[i]) {
            Err(_) => ctrl[i],
            Ok(adr) => {
                // the last activation variable drives the force
                let last = adr + m.actuator_actnum[i] as usize - 1;
                if m.actuator_actearly[i] != 0 {
                    next_activation(m, i, d.act[last], d.act_dot[last])
                } else {
                    d.act[last]
                }
            }
        };
        let prm = &biasprm[i];
        let bias = match biastype[i] {
            BIAS_NONE => 0.0,
            BIAS_AFFINE => prm[0] + prm[1] * length + prm[2] * velocity,
            BIAS_MUSCLE => muscle_bias(length, lengthrange, acc0[i], &first9(prm)),
            _ => d.callbacks.act_bias.map_or(0.0, |f| f(m, d, i)),
        };
        // gain * input, then the bias added (MuJoCo's order)
        d.actuator_force[i] = gain * input + bias;
    }
}

/// The first 9 of an actuator's 10 gain or bias parameters (those MuJoCo's muscles read).
fn first9(prm: &[Real; NGAIN]) -> [Real; 9] {
    let [p0, p1, p2, p3, p4, p5, p6, p7, p8, _] = *prm;
    [p0, p1, p2, p3, p4, p5, p6, p7, p8]
}

/// Gravity compensation routed through actuators (`jnt_actgravcomp`): adds `qfrc_gravcomp` of
/// those joints to `qfrc_actuator`.
fn actuator_gravcomp(m: &Model, d: &mut Data) {
    if m.ngravcomp == 0 || disabled(m, DSBL_GRAVITY) || norm3(&m.opt.gravity) == 0.0 {
        return;
    }
    for j in 0..m.njnt {
        if m.jnt_actgravcomp[j] == 0 {
            continue;
        }
        let adr = m.jnt_dofadr[j] as usize;
        for k in adr..adr + jnt_dofnum(m.jnt_type[j]) {
            d.qfrc_actuator[k] += d.qfrc_gravcomp[k];
        }
    }
}
