//! Making, resetting and copying `Model` and `Data` (MuJoCo's `engine_io.c`: `mj_makeData`,
//! `mj_resetData`, `mj_resetDataKeyframe`, `mj_copyData`, `mj_copyModel`).

use crate::arena::ArenaError;
use crate::data::Data;
use crate::model::{Model, SizeMismatch};
use crate::real::Real;

impl<'a> Data<'a> {
    /// A `Data` for model `m` over `buf` (`mj_makeData`): carved, its plugin instances' objects
    /// made at the top of the arena (`plugin::make_objects`), and reset. `buf` needs
    /// [`Data::bytes_needed`]`(m.sizes())` bytes; an arena too small for the plugin objects is
    /// [`ArenaError::OutOfArena`]. The data is returned by value: a microcontroller short of
    /// stack uses [`Data::new_into`].
    pub fn new(m: &Model, buf: &'a mut [u8]) -> Result<Self, ArenaError> {
        let mut slot = None;
        Self::new_into(&mut slot, m, buf)?;
        slot.ok_or(ArenaError::BadHeader)
    }

    /// [`Data::new`] into `slot` (a `static` on a microcontroller), where the data is built
    /// array by array and stays: no data-sized value passes through the stack. Returns the
    /// data; on an error `slot` is empty. Never inlined, so that its frame is gone once it
    /// returns.
    #[inline(never)]
    pub fn new_into<'s>(
        slot: &'s mut Option<Self>,
        m: &Model,
        buf: &'a mut [u8],
    ) -> Result<&'s mut Self, ArenaError> {
        let plugin_bytes = crate::plugin::objects_bytes(m)?;
        let made = Data::carve_into(slot, *m.sizes(), plugin_bytes, buf).and_then(|d| {
            // a reset keeps plugin state, which starts at zero
            d.plugin_state.fill(0.0);
            crate::plugin::make_objects(m, d)?;
            reset_data(m, d);
            Ok(())
        });
        if let Err(e) = made {
            *slot = None;
            return Err(e);
        }
        slot.as_mut().ok_or(ArenaError::BadHeader)
    }
}

/// Clears `d` and sets the defaults (`mj_resetData`): `qpos = qpos0`, mocap bodies at their
/// model pose, equality constraints at `eq_active0`, everything else zero, diagnostics and
/// arena cleared, and the sparsity structures `D_*` and `B_*` rebuilt.
pub fn reset_data(m: &Model, d: &mut Data) {
    reset(m, d, None);
}

/// [`reset_data`], except that the arrays the forward pass computes are filled with bytes of
/// `debug_value` instead of zeros (`mj_resetDataDebug`): with 0xFF every real is NaN, so a
/// value read before it is computed shows. The state, controls, applied forces, warm start,
/// user data, sensor data, mocap poses and `actuator_moment` are set as [`reset_data`] sets them.
pub fn reset_data_debug(m: &Model, d: &mut Data, debug_value: u8) {
    reset(m, d, Some(debug_value));
}

/// `_resetData`: the common part of [`reset_data`] and [`reset_data_debug`].
fn reset(m: &Model, d: &mut Data, debug_value: Option<u8>) {
    // MuJoCo keeps plugin state and objects across the clear and lets each plugin's reset set
    // the state
    let kept = core::mem::take(&mut d.plugin_state);
    let objects = core::mem::take(&mut d.plugin_data);
    clear(d, debug_value);
    d.plugin_state = kept;
    d.plugin_data = objects;
    for (slot, &id) in d.plugin.iter_mut().zip(m.plugin.iter()) {
        *slot = id;
    }
    crate::plugin::reset_all(m, d.plugin_state);

    d.qpos.copy_from_slice(&m.qpos0);

    for (active, &active0) in d.eq_active.iter_mut().zip(m.eq_active0.iter()) {
        *active = active0;
    }
    for i in 0..m.nbody {
        if let Ok(id) = usize::try_from(m.body_mocapid[i]) {
            d.mocap_pos[3 * id..3 * id + 3].copy_from_slice(&m.body_pos[3 * i..3 * i + 3]);
            d.mocap_quat[4 * id..4 * id + 4].copy_from_slice(&m.body_quat[4 * i..4 * i + 4]);
        }
    }
    make_d_sparse(m, d);
    make_b_sparse(m, d);
}

/// Everything of `d` to zero (or to `debug_value` bytes), scalars and arena included.
fn clear(d: &mut Data, debug_value: Option<u8>) {
    d.reset_scalars();
    d.solver.fill(Default::default());
    d.arena.reset();
    d.zero_arrays();
    if let Some(value) = debug_value.filter(|&v| v != 0) {
        d.fill_array_bytes(value);
        zero_inputs(d);
    }
}

/// The arrays that a debug reset zeros, as MuJoCo does: those the forward pass reads but does
/// not compute, and `actuator_moment`, which transmission writes only in part.
fn zero_inputs(d: &mut Data) {
    let zero: Real = 0.0;
    for a in [
        &mut *d.qpos,
        &mut *d.qvel,
        &mut *d.act,
        &mut *d.ctrl,
        &mut *d.qfrc_applied,
        &mut *d.xfrc_applied,
        &mut *d.qacc,
        &mut *d.qacc_warmstart,
        &mut *d.act_dot,
        &mut *d.userdata,
        &mut *d.sensordata,
        &mut *d.mocap_pos,
        &mut *d.mocap_quat,
        &mut *d.actuator_moment,
    ] {
        a.fill(zero);
    }
}

/// [`reset_data`], then, when `0 <= key < nkey`, time, qpos, qvel, act, mocap and ctrl from
/// keyframe `key` (`mj_resetDataKeyframe`). Other keys reset only.
pub fn reset_data_keyframe(m: &Model, d: &mut Data, key: i32) {
    reset_data(m, d);
    let Ok(k) = usize::try_from(key) else { return };
    if k >= m.nkey {
        return;
    }
    let row = |n: usize| k * n..(k + 1) * n;
    d.time = m.key_time[k];
    d.qpos.copy_from_slice(&m.key_qpos[row(m.nq)]);
    d.qvel.copy_from_slice(&m.key_qvel[row(m.nv)]);
    d.act.copy_from_slice(&m.key_act[row(m.na)]);
    d.mocap_pos.copy_from_slice(&m.key_mpos[row(3 * m.nmocap)]);
    d.mocap_quat
        .copy_from_slice(&m.key_mquat[row(4 * m.nmocap)]);
    d.ctrl.copy_from_slice(&m.key_ctrl[row(m.nu)]);
}

/// Copies model `src` onto `dst` of the same sizes (`mj_copyModel` into an existing model).
pub fn copy_model(dst: &mut Model, src: &Model) -> Result<(), SizeMismatch> {
    dst.copy_from(src)
}

/// Copies data `src` onto `dst` made for a model of the same sizes (`mj_copyData`).
pub fn copy_data(dst: &mut Data, src: &Data) -> Result<(), SizeMismatch> {
    dst.copy_from(src)
}

/// Sparsity of dof-dof matrices such as `qDeriv` (`D_rownnz`, `D_rowadr`, `D_colind`): row `i`
/// holds dof `i`, its ancestors and its descendants, in increasing order.
///
/// The fill walks rows from the end and uses `D_rowadr` as a per-row cursor that counts down
/// from the row's end to its start, so no scratch memory is needed.
fn make_d_sparse(m: &Model, d: &mut Data) {
    let nv = m.nv;
    let (rownnz, rowadr, colind) = (&mut *d.D_rownnz, &mut *d.D_rowadr, &mut *d.D_colind);
    rownnz.fill(0);
    for i in (0..nv).rev() {
        rownnz[i] += 1;
        let mut j = m.dof_parentid[i];
        while let Ok(p) = usize::try_from(j) {
            rownnz[i] += 1;
            rownnz[p] += 1;
            j = m.dof_parentid[p];
        }
    }
    // cursor at the end of each row
    let mut end = 0;
    for i in 0..nv {
        end += rownnz[i];
        rowadr[i] = end;
    }
    let mut put = |row: usize, col: usize, rowadr: &mut [i32]| {
        rowadr[row] -= 1;
        colind[rowadr[row] as usize] = col as i32;
    };
    for i in (0..nv).rev() {
        put(i, i, rowadr);
        let mut j = m.dof_parentid[i];
        while let Ok(p) = usize::try_from(j) {
            put(i, p, rowadr);
            put(p, i, rowadr);
            j = m.dof_parentid[p];
        }
    }
}

/// Sparsity of body-dof matrices (`B_rownnz`, `B_rowadr`, `B_colind`): row `b` holds the dofs of
/// body `b`, of its ancestors and of its whole subtree, in increasing order.
///
/// `B_rowadr` serves as a fill cursor counting up from each row's start, then is restored.
fn make_b_sparse(m: &Model, d: &mut Data) {
    let nbody = m.nbody;
    let (rownnz, rowadr, colind) = (&mut *d.B_rownnz, &mut *d.B_rowadr, &mut *d.B_colind);
    let dofs = |b: usize| {
        let adr = m.body_dofadr[b].max(0) as usize;
        adr..adr + m.body_dofnum[b] as usize
    };
    let parent = |b: usize| m.body_parentid[b] as usize;

    // subtree dofs, then ancestor dofs
    rownnz.fill(0);
    for b in (1..nbody).rev() {
        rownnz[b] += m.body_dofnum[b];
        rownnz[parent(b)] += rownnz[b];
    }
    for b in 0..nbody {
        let mut a = parent(b);
        while a > 0 {
            rownnz[b] += m.body_dofnum[a];
            a = parent(a);
        }
    }
    let mut start = 0;
    for b in 0..nbody {
        rowadr[b] = start;
        start += rownnz[b];
    }

    let mut put = |row: usize, dof: usize, rowadr: &mut [i32]| {
        colind[rowadr[row] as usize] = dof as i32;
        rowadr[row] += 1;
    };
    for b in 1..nbody {
        for k in dofs(b) {
            put(b, k, rowadr);
        }
        // b's dofs belong to every ancestor's row; every ancestor's dofs to b's row
        let mut a = parent(b);
        loop {
            for k in dofs(b) {
                put(a, k, rowadr);
            }
            if a == 0 {
                break;
            }
            for k in dofs(a) {
                put(b, k, rowadr);
            }
            a = parent(a);
        }
    }
    for b in 0..nbody {
        rowadr[b] -= rownnz[b];
        let row = &mut colind[rowadr[b] as usize..(rowadr[b] + rownnz[b]) as usize];
        row.sort_unstable();
    }
}
