//! Getting and setting parts of the simulation state as one flat vector (MuJoCo's
//! `mj_stateSize`, `mj_getState`, `mj_setState` in `engine_support.c`; "Simulation › State").
//!
//! A state specification is a bit set of [`STATE_TIME`] ...
//! [`STATE_PLUGIN`] (or a composite such as
//! [`STATE_PHYSICS`]); the vector holds the selected elements
//! one after another in bit order. `eq_active` (bytes in `Data`) is stored as numbers.

use crate::data::Data;
use crate::model::Model;
use crate::real::Real;
use crate::types::*;

/// Why a state could not be read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum StateError {
    /// The specification has bits outside the `NSTATE` state elements (MuJoCo: "invalid state
    /// spec").
    InvalidSpec(i32),
    /// The state vector is shorter than [`state_size`] of the specification.
    TooShort {
        /// Numbers the specification needs.
        needed: usize,
        /// Numbers the caller gave.
        got: usize,
    },
}

impl core::error::Error for StateError {}

impl core::fmt::Display for StateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StateError::InvalidSpec(spec) => {
                write!(f, "invalid state spec {spec}: not in [0, 2^{NSTATE})")
            }
            StateError::TooShort { needed, got } => {
                write!(f, "state vector of {got} numbers, the spec needs {needed}")
            }
        }
    }
}

/// The state elements selected by `spec`, one bit each, in the order they are stored.
fn elements(spec: i32) -> impl Iterator<Item = i32> {
    (0..NSTATE).map(|i| 1 << i).filter(move |e| spec & e != 0)
}

/// Checks that `spec` names only state elements.
fn check_spec(spec: i32) -> Result<(), StateError> {
    if (0..1 << NSTATE).contains(&spec) {
        Ok(())
    } else {
        Err(StateError::InvalidSpec(spec))
    }
}

/// Number of values of one state element (`mj_stateElemSize`).
fn element_size(m: &Model, element: i32) -> usize {
    match element {
        STATE_TIME => 1,
        STATE_QPOS => m.nq,
        STATE_QVEL | STATE_WARMSTART | STATE_QFRC_APPLIED => m.nv,
        STATE_ACT => m.na,
        STATE_CTRL => m.nu,
        STATE_XFRC_APPLIED => 6 * m.nbody,
        STATE_EQ_ACTIVE => m.neq,
        STATE_MOCAP_POS => 3 * m.nmocap,
        STATE_MOCAP_QUAT => 4 * m.nmocap,
        STATE_USERDATA => m.nuserdata,
        STATE_PLUGIN => m.npluginstate,
        _ => 0,
    }
}

/// Size of the state vector of specification `spec` (`mj_stateSize`).
pub fn state_size(m: &Model, spec: i32) -> Result<usize, StateError> {
    check_spec(spec)?;
    Ok(elements(spec).map(|e| element_size(m, e)).sum())
}

/// The numeric state element `element` of a `Data` (every element but `eq_active`).
fn element_of<'d>(d: &'d Data, element: i32) -> &'d [Real] {
    match element {
        STATE_TIME => core::slice::from_ref(&d.time),
        STATE_QPOS => d.qpos,
        STATE_QVEL => d.qvel,
        STATE_ACT => d.act,
        STATE_WARMSTART => d.qacc_warmstart,
        STATE_CTRL => d.ctrl,
        STATE_QFRC_APPLIED => d.qfrc_applied,
        STATE_XFRC_APPLIED => d.xfrc_applied,
        STATE_MOCAP_POS => d.mocap_pos,
        STATE_MOCAP_QUAT => d.mocap_quat,
        STATE_USERDATA => d.userdata,
        STATE_PLUGIN => d.plugin_state,
        _ => &[],
    }
}

/// Writable [`element_of`].
fn element_of_mut<'d>(d: &'d mut Data, element: i32) -> &'d mut [Real] {
    match element {
        STATE_TIME => core::slice::from_mut(&mut d.time),
        STATE_QPOS => d.qpos,
        STATE_QVEL => d.qvel,
        STATE_ACT => d.act,
        STATE_WARMSTART => d.qacc_warmstart,
        STATE_CTRL => d.ctrl,
        STATE_QFRC_APPLIED => d.qfrc_applied,
        STATE_XFRC_APPLIED => d.xfrc_applied,
        STATE_MOCAP_POS => d.mocap_pos,
        STATE_MOCAP_QUAT => d.mocap_quat,
        STATE_USERDATA => d.userdata,
        STATE_PLUGIN => d.plugin_state,
        _ => &mut [],
    }
}

/// Checks `spec` and that `len` numbers hold its state; returns the state's size.
fn checked_size(m: &Model, spec: i32, len: usize) -> Result<usize, StateError> {
    let needed = state_size(m, spec)?;
    if len < needed {
        return Err(StateError::TooShort { needed, got: len });
    }
    Ok(needed)
}

/// Copies the elements of `spec` from `d` to the front of `state` (`mj_getState`).
pub fn get_state(m: &Model, d: &Data, state: &mut [Real], spec: i32) -> Result<(), StateError> {
    checked_size(m, spec, state.len())?;
    let mut adr = 0;
    for e in elements(spec) {
        let n = element_size(m, e);
        let dst = &mut state[adr..adr + n];
        if e == STATE_EQ_ACTIVE {
            for (x, &active) in dst.iter_mut().zip(d.eq_active.iter()) {
                *x = Real::from(active);
            }
        } else {
            dst.copy_from_slice(element_of(d, e));
        }
        adr += n;
    }
    Ok(())
}

/// Copies the elements of `spec` from the front of `state` to `d` (`mj_setState`);
/// `eq_active` takes each number converted to a byte.
pub fn set_state(m: &Model, d: &mut Data, state: &[Real], spec: i32) -> Result<(), StateError> {
    checked_size(m, spec, state.len())?;
    let mut adr = 0;
    for e in elements(spec) {
        let n = element_size(m, e);
        let src = &state[adr..adr + n];
        if e == STATE_EQ_ACTIVE {
            for (active, &x) in d.eq_active.iter_mut().zip(src) {
                *active = x as u8;
            }
        } else {
            element_of_mut(d, e).copy_from_slice(src);
        }
        adr += n;
    }
    Ok(())
}
