//! `mujoco.pid`, MuJoCo 3.1.6's PID actuator plugin: the force of each actuator naming an
//! instance is `kp * error + kd * error_dot + ki * integral`, where `error` is the setpoint
//! minus `actuator_length`.
//!
//! The setpoint is the actuator's control, clamped to `ctrlrange` when limited, or, for an
//! actuator with a `dyntype`, its last activation (a filtered or integrated control). With
//! `slewmax`, the setpoint moves at most `slewmax * timestep` per step from the last one.
//!
//! State lives in `act`, not `plugin_state` (`nstate` is 0): per actuator, the error integral
//! (when `ki` is non-zero) then the last setpoint (when `slewmax` is set), ahead of the
//! activation of the `dyntype`. The plugin writes `act_dot` so that MuJoCo's own integration
//! of `act` lands exactly on the new values.
//!
//! Configuration, as MuJoCo reads it with `strtod`: unset or empty attributes are absent (gains
//! 0), malformed text reads as its numeric prefix or 0. `imax` is a force limit on the integral
//! term, so the integral itself is clamped to `imax / ki`.

use super::{
    config_number, for_each_actuator, register_plugin, Plugin, PluginError, PLUGIN_ACTUATOR,
};
use crate::actuation::next_activation;
use crate::data::Data;
use crate::error::StepError;
use crate::math::misc::clip;
use crate::model::Model;
use crate::real::Real;
use crate::types::DYN_NONE;

/// The plugin object registered by [`register`].
pub static PID: Pid = Pid;

/// Registers `mujoco.pid` at its fixed slot (a plugin of the user's registered under that name
/// before keeps the slot).
pub fn register() {
    // the only refusal is a different plugin already holding the slot, which then stays
    let _ = register_plugin(&PID);
}

/// `mujoco.pid` (stateless: everything is read from the Model and `act`).
pub struct Pid;

/// An instance's configuration.
#[derive(Clone, Copy, Debug)]
struct Config {
    kp: Real,
    ki: Real,
    kd: Real,
    /// Whether `ki` is non-zero (NaN counts), decided in f64 as the compiler sized `act`.
    integral: bool,
    /// Bound on the magnitude of the error integral: `imax / ki`, when both are set.
    imax: Option<f64>,
    slewmax: Option<f64>,
}

impl Config {
    fn from_model(m: &Model, instance: usize) -> Self {
        let number = |key| config_number(m, instance, key);
        let ki = number("ki").unwrap_or(0.0);
        let integral = ki != 0.0;
        Config {
            kp: number("kp").unwrap_or(0.0) as Real,
            ki: ki as Real,
            kd: number("kd").unwrap_or(0.0) as Real,
            integral,
            imax: number("imax").filter(|_| integral).map(|f| f / ki),
            slewmax: number("slewmax"),
        }
    }

    /// Activation variables per actuator (MuJoCo's `ActDim`).
    fn actdim(&self) -> usize {
        usize::from(self.integral) + usize::from(self.slewmax.is_some())
    }

    /// MuJoCo's checks in `Pid::Create`, with its messages.
    fn check(&self) -> Result<(), PluginError> {
        if self.imax.is_some_and(|i| i < 0.0) {
            return Err(PluginError::failed("negative imax"));
        }
        if self.slewmax.unwrap_or(0.0) < 0.0 {
            return Err(PluginError::failed("maxslew must be non-negative"));
        }
        Ok(())
    }
}

/// An actuator's PID state read from `act`.
#[derive(Clone, Copy, Debug, Default)]
struct State {
    integral: Real,
    /// The last setpoint, once there is one (after time 0).
    previous_ctrl: Option<Real>,
}

/// Index of the actuator's first activation variable (0 when it has none; then nothing reads it).
fn actadr(m: &Model, actuator: usize) -> usize {
    usize::try_from(m.actuator_actadr[actuator]).unwrap_or(0)
}

/// Index of the actuator's last activation variable, the one its `dyntype` drives.
fn last_act(m: &Model, actuator: usize) -> usize {
    let num = usize::try_from(m.actuator_actnum[actuator]).unwrap_or(0);
    (actadr(m, actuator) + num).saturating_sub(1)
}

impl Config {
    fn state(&self, m: &Model, d: &Data, actuator: usize) -> State {
        let mut adr = actadr(m, actuator);
        let mut state = State::default();
        if self.integral {
            state.integral = d.act[adr];
            adr += 1;
        }
        if self.slewmax.is_some() && d.time > 0.0 {
            state.previous_ctrl = Some(d.act[adr]);
        }
        state
    }

    /// The setpoint: the clamped control, or the last activation (its value after this step
    /// when `actearly`), limited by the slew rate.
    fn setpoint(&self, m: &Model, d: &Data, actuator: usize, state: &State, early: bool) -> Real {
        let i = actuator;
        let ctrl = if m.actuator_dyntype[i] == DYN_NONE {
            let ctrl = d.ctrl[i];
            if m.actuator_ctrllimited[i] != 0 {
                clip(
                    ctrl,
                    m.actuator_ctrlrange[2 * i],
                    m.actuator_ctrlrange[2 * i + 1],
                )
            } else {
                ctrl
            }
        } else {
            let last = last_act(m, i);
            if early {
                next_activation(m, i, d.act[last], d.act_dot[last])
            } else {
                d.act[last]
            }
        };
        match (self.slewmax, state.previous_ctrl) {
            (Some(slewmax), Some(previous)) => {
                let step = slewmax as Real * m.opt.timestep;
                clip(ctrl, previous - step, previous + step)
            }
            _ => ctrl,
        }
    }

    /// The error integral after this step, clamped to `imax`.
    fn next_integral(&self, m: &Model, state: &State, error: Real) -> Real {
        let integral = state.integral + error * m.opt.timestep;
        match self.imax {
            Some(imax) => clip(integral, -imax as Real, imax as Real),
            None => integral,
        }
    }

    /// `act_dot` that makes Euler integration of `act` land on the new integral and setpoint.
    fn act_dot(&self, m: &Model, d: &mut Data, actuator: usize) {
        let h = m.opt.timestep;
        let state = self.state(m, d, actuator);
        let ctrl = self.setpoint(m, d, actuator, &state, false);
        let error = ctrl - d.actuator_length[actuator];
        let mut adr = actadr(m, actuator);
        if self.integral {
            let integral = self.next_integral(m, &state, error);
            d.act_dot[adr] = (integral - d.act[adr]) / h;
            adr += 1;
        }
        if self.slewmax.is_some() {
            d.act_dot[adr] = (ctrl - d.act[adr]) / h;
        }
    }

    fn force(&self, m: &Model, d: &mut Data, actuator: usize) {
        let i = actuator;
        let state = self.state(m, d, i);
        let early = m.actuator_actearly[i] != 0;
        let ctrl = self.setpoint(m, d, i, &state, early);
        let error = ctrl - d.actuator_length[i];
        let ctrl_dot = if m.actuator_dyntype[i] == DYN_NONE {
            0.0
        } else {
            d.act_dot[last_act(m, i)]
        };
        let error_dot = ctrl_dot - d.actuator_velocity[i];
        let integral = if self.integral {
            self.next_integral(m, &state, error)
        } else {
            0.0
        };
        d.actuator_force[i] = self.kp * error + self.kd * error_dot + self.ki * integral;
    }
}

impl Plugin for Pid {
    fn name(&self) -> &'static str {
        "mujoco.pid"
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["kp", "ki", "kd", "imax", "slewmax"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_ACTUATOR
    }

    fn actuator_actdim(&self, m: &Model, instance: usize, _actuator_id: usize) -> usize {
        Config::from_model(m, instance).actdim()
    }

    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        let config = Config::from_model(m, instance);
        config.check()?;
        let mut found = false;
        let mut fits = true;
        for_each_actuator(m, instance, |i| {
            found = true;
            fits &= activation_fits(m, i, config.actdim());
        });
        if !found {
            return Err(PluginError::failed(
                "actuator not found for plugin instance",
            ));
        }
        if !fits {
            return Err(PluginError::failed(
                "actuator_actnum too small for the PID state and the actuator's dynamics",
            ));
        }
        Ok(())
    }

    fn actuator_act_dot(&self, m: &Model, d: &mut Data, instance: usize) {
        let config = Config::from_model(m, instance);
        for_each_actuator(m, instance, |i| config.act_dot(m, d, i));
    }

    fn compute(
        &self,
        m: &Model,
        d: &mut Data,
        instance: usize,
        _capability: u32,
    ) -> Result<(), StepError> {
        let config = Config::from_model(m, instance);
        for_each_actuator(m, instance, |i| config.force(m, d, i));
        Ok(())
    }
}

/// Whether actuator `i` has room in `act` for `actdim` PID variables and, with a `dyntype`,
/// its own activation after them (a compiled model always has; an edited or foreign one may
/// not, and MuJoCo would read past the actuator's activations).
fn activation_fits(m: &Model, i: usize, actdim: usize) -> bool {
    let dynamics = usize::from(m.actuator_dyntype[i] != DYN_NONE);
    let need = actdim + dynamics;
    let num = usize::try_from(m.actuator_actnum[i]).unwrap_or(0);
    need == 0 || (m.actuator_actadr[i] >= 0 && num >= need)
}
