//! Actuator transmissions (MuJoCo's `mj_transmission` in `engine_core_smooth.c`,
//! "Computation › Actuation model"): the length `actuator_length` of every actuator and its
//! moment arms `actuator_moment` (dense `nu x nv`), which map the scalar actuator force to
//! generalized forces.
//!
//! Types: joints (scalar gear for hinge and slide, 3D/6D gear for ball and free joints, in the
//! child or parent frame), slider-cranks, tendons, sites (wrench in the site frame, or relative
//! to a reference site), and bodies (adhesion: the average contact normal Jacobian).
//!
//! As in MuJoCo 3.1.6, `actuator_moment` is cleared only by `reset_data`: joint and
//! slider-crank transmissions write (or add to) their own entries, the others rewrite their row.

use crate::arena::{ArenaArrays, Stack};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::mat::{mul_mat_mat, mul_mat_t_vec, rot_vec_mat, rot_vec_mat_t};
use crate::math::misc::is_zero;
use crate::math::quat::{mul_quat, neg_quat, quat2vel, rot_vec_quat, sub_quat};
use crate::math::sparse::mul_mat_vec_sparse;
use crate::math::vec::{add_to, add_to3, dot3, scl3, scl_in_place, sub3, sub_from};
use crate::model::Model;
use crate::real::Real;
use crate::support::jac_dif_pair;
use crate::support::{is_sparse, jac_point_axis, jac_site, v3, v4, v9};
use crate::types::*;

/// Scratch arrays: the Jacobians MuJoCo allocates (`jac`, `jacA`, `jacS`: `3 x nv`), those of
/// reference sites (`jacref`, `moment_tmp`) and of adhesion (`efc_force`, `moment_exclude`,
/// `jac1p`, `jac2p`, `jacdifp`, `chain`), the last two groups empty when no actuator needs them.
/// Joints and tendons need none (see [`transmission`]).
struct Scratch<'s> {
    jac: &'s mut [Real],
    jac_a: &'s mut [Real],
    jac_s: &'s mut [Real],
    jacref: &'s mut [Real],
    moment_tmp: &'s mut [Real],
    efc_force: &'s mut [Real],
    moment_exclude: &'s mut [Real],
    jac1p: &'s mut [Real],
    jac2p: &'s mut [Real],
    jacdifp: &'s mut [Real],
    chain: &'s mut [i32],
}

impl<'s> Scratch<'s> {
    fn new(m: &Model, nefc: usize, stack: &mut Stack<'s>) -> Result<Self, StepError> {
        let nv = m.nv;
        let types = &m.actuator_trntype[..m.nu];
        let has = |ty: i32, refsite: bool| {
            (0..m.nu).any(|i| types[i] == ty && (!refsite || m.actuator_trnid[2 * i + 1] >= 0))
        };
        let nref = if has(TRN_SITE, true) { nv } else { 0 };
        let nbody = if has(TRN_BODY, false) { nv } else { 0 };
        let nchain = if is_sparse(m) { nbody } else { 0 };
        Ok(Self {
            jac: stack.alloc(3 * nv)?,
            jac_a: stack.alloc(3 * nv)?,
            jac_s: stack.alloc(3 * nv)?,
            jacref: stack.alloc(3 * nref)?,
            moment_tmp: stack.alloc(nref)?,
            efc_force: stack.alloc(if nbody > 0 { nefc } else { 0 })?,
            moment_exclude: stack.alloc(nbody)?,
            jacdifp: stack.alloc(3 * nbody)?,
            jac1p: stack.alloc(3 * nbody)?,
            jac2p: stack.alloc(3 * nbody)?,
            chain: stack.alloc(nchain)?,
        })
    }
}

/// Actuator lengths and moment arms (`mj_transmission`). Writes `actuator_length` and
/// `actuator_moment`.
pub fn transmission(m: &Model, d: &mut Data) -> Result<(), StepError> {
    // the common case, joints and tendons only, needs no scratch (the dozen allocations would
    // cost more than those transmissions), no constraint rows and none of the general loop's
    // stack frame; one pass without an exit per actuator settles it
    let types = &m.actuator_trntype[..m.nu];
    let simple = |t: i32| matches!(t, TRN_JOINT | TRN_JOINTINPARENT | TRN_TENDON);
    if types.iter().fold(true, |all, &t| all & simple(t)) {
        for (i, &t) in types.iter().enumerate() {
            // the two arms of `transmit_all` for these types
            if t == TRN_TENDON {
                tendon(m, d, i);
            } else {
                joint(m, d, i);
            }
        }
        return Ok(());
    }
    // Adhesion reads this step's contacts and constraint Jacobian, which live at the bottom of
    // the arena, while scratch comes from its top.
    if !m.actuator_trntype.contains(&TRN_BODY) {
        return d.with_stack(|d, stack| transmit_all(m, d, &ConstraintRows::NONE, stack));
    }
    let mut detached = d.arena.detach();
    let result = {
        let (arrays, mut stack) = detached.arrays_and_stack(d.arena.table());
        let rows = ConstraintRows::new(&arrays, d);
        transmit_all(m, d, &rows, &mut stack)
    };
    d.arena.attach(detached);
    result
}

/// Every actuator's transmission, in order.
fn transmit_all(
    m: &Model,
    d: &mut Data,
    rows: &ConstraintRows,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let mut s = Scratch::new(m, rows.nefc, stack)?;
    for i in 0..m.nu {
        match m.actuator_trntype[i] {
            TRN_JOINT | TRN_JOINTINPARENT => joint(m, d, i),
            TRN_SLIDERCRANK => slider_crank(m, d, i, &mut s, stack)?,
            TRN_TENDON => tendon(m, d, i),
            TRN_SITE => match usize::try_from(m.actuator_trnid[2 * i + 1]) {
                Err(_) => site(m, d, i, &mut s),
                Ok(refid) => site_ref(m, d, i, refid, &mut s),
            },
            TRN_BODY => body(m, d, i, rows, &mut s),
            _ => return Err(StepError::Unsupported("unknown actuator transmission type")),
        }
    }
    Ok(())
}

/// The gear of actuator `i`: `[translation; rotation]` (only `gear[0]` for scalar
/// transmissions).
fn gear(m: &Model, i: usize) -> [Real; 6] {
    crate::support::v6(&m.actuator_gear)[i]
}

/// Row `i` of `actuator_moment`.
fn moment_row<'a>(m: &Model, d: &'a mut Data, i: usize) -> &'a mut [Real] {
    &mut d.actuator_moment[i * m.nv..(i + 1) * m.nv]
}

/// A 4-vector of a flat array.
fn quat_at(s: &[Real], adr: usize) -> [Real; 4] {
    [s[adr], s[adr + 1], s[adr + 2], s[adr + 3]]
}

/// Joint transmission: the joint's position and dofs scaled by the gear. Hinge and slide: scalar
/// gear. Ball: the gear is a rotation axis (in the parent frame for `jointinparent`), the
/// length the rotation vector's projection on it. Free: 6D gear, no meaningful length (0).
fn joint(m: &Model, d: &mut Data, i: usize) {
    let g = gear(m, i);
    let jnt = m.actuator_trnid[2 * i] as usize;
    let qadr = m.jnt_qposadr[jnt] as usize;
    let dadr = m.jnt_dofadr[jnt] as usize;
    let in_parent = m.actuator_trntype[i] == TRN_JOINTINPARENT;
    // the gear axis of a rotation: rotated to the parent frame by the inverse joint rotation
    let gear_axis = |axis: [Real; 3], quat: &[Real; 4]| {
        if in_parent {
            rot_vec_quat(&axis, &neg_quat(quat))
        } else {
            axis
        }
    };
    match m.jnt_type[jnt] {
        JNT_SLIDE | JNT_HINGE => {
            d.actuator_length[i] = d.qpos[qadr] * g[0];
            moment_row(m, d, i)[dadr] = g[0];
        }
        JNT_BALL => {
            let quat = quat_at(d.qpos, qadr);
            let axis = quat2vel(&quat, 1.0);
            let ga = gear_axis([g[0], g[1], g[2]], &quat);
            d.actuator_length[i] = dot3(&axis, &ga);
            moment_row(m, d, i)[dadr..dadr + 3].copy_from_slice(&ga);
        }
        _ => {
            let quat = quat_at(d.qpos, qadr + 3);
            let ga = gear_axis([g[3], g[4], g[5]], &quat);
            d.actuator_length[i] = 0.0;
            let row = moment_row(m, d, i);
            row[dadr..dadr + 3].copy_from_slice(&g[..3]);
            row[dadr + 3..dadr + 6].copy_from_slice(&ga);
        }
    }
}

/// Slider-crank transmission: the slider's position along its axis (z of the slider site)
/// where the crank rod of length `cranklength` from the crank site meets it,
/// `length = a'v - sqrt((a'v)^2 + r^2 - v'v)` with `v` the crank site relative to the slider
/// site. When no such point exists (`det <= 0`, the "broken crank"), `length = a'v`.
///
/// MuJoCo 3.1.6 adds the new moment arms to the row without clearing it first; they are
/// reproduced as is.
// out of line: inlined, its set-up would be hoisted into the loop over every actuator
#[inline(never)]
fn slider_crank(
    m: &Model,
    d: &mut Data,
    i: usize,
    s: &mut Scratch,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let nv = m.nv;
    let g0 = gear(m, i)[0];
    let (crank, slider) = (
        m.actuator_trnid[2 * i] as usize,
        m.actuator_trnid[2 * i + 1] as usize,
    );
    let rod = m.actuator_cranklength[i];
    let xmat = &v9(d.site_xmat)[slider];
    let axis = [xmat[2], xmat[5], xmat[8]];
    let slider_pos = v3(d.site_xpos)[slider];
    let vec = sub3(&v3(d.site_xpos)[crank], &slider_pos);

    let av = dot3(&vec, &axis);
    let det = av * av + rod * rod - dot3(&vec, &vec);
    // derivatives of the length with respect to the axis and to vec
    let (length, dlda, dldv) = if det <= 0.0 {
        (av, vec, axis)
    } else {
        let sdet = crate::math::scalar::sqrt(det);
        let mut dldv = scl3(&axis, 1.0 - av / sdet);
        add_to3(&mut dldv, &scl3(&vec, 1.0 / sdet));
        (av - sdet, scl3(&vec, 1.0 - av / sdet), dldv)
    };

    // Jacobians of the axis (jac_a) and of vec (jac)
    let body = m.site_bodyid[slider] as usize;
    jac_point_axis(m, d, s.jac_s, s.jac_a, &slider_pos, &axis, body, stack)?;
    jac_site(m, d, Some(&mut *s.jac), None, crank);
    sub_from(&mut s.jac[..3 * nv], &s.jac_s[..3 * nv]);

    let (jac_a, jac) = (&*s.jac_a, &*s.jac);
    let row = moment_row(m, d, i);
    for (j, x) in row.iter_mut().enumerate() {
        for k in 0..3 {
            *x += dlda[k] * jac_a[k * nv + j] + dldv[k] * jac[k * nv + j];
        }
    }
    scl_in_place(row, g0);
    d.actuator_length[i] = length * g0;
    Ok(())
}

/// Tendon transmission: the tendon's length and Jacobian scaled by the gear.
fn tendon(m: &Model, d: &mut Data, i: usize) {
    let nv = m.nv;
    let g0 = gear(m, i)[0];
    let id = m.actuator_trnid[2 * i] as usize;
    d.actuator_length[i] = d.ten_length[id] * g0;
    let row = &mut d.actuator_moment[i * nv..(i + 1) * nv];
    if is_sparse(m) {
        row.fill(0.0);
        let start = d.ten_J_rowadr[id] as usize;
        let end = start + d.ten_J_rownnz[id] as usize;
        for (&c, &x) in d.ten_J_colind[start..end].iter().zip(&d.ten_J[start..end]) {
            row[c as usize] = x * g0;
        }
    } else {
        for (r, &x) in row.iter_mut().zip(&d.ten_J[id * nv..(id + 1) * nv]) {
            *r = x * g0;
        }
    }
}

/// Site transmission without reference site: a wrench (force and torque of the gear, in the
/// site frame) applied at the site; no meaningful length (0).
// out of line: inlined, its set-up would be hoisted into the loop over every actuator
#[inline(never)]
fn site(m: &Model, d: &mut Data, i: usize, s: &mut Scratch) {
    let nv = m.nv;
    let g = gear(m, i);
    let id = m.actuator_trnid[2 * i] as usize;
    jac_site(m, d, Some(&mut *s.jac), Some(&mut *s.jac_s), id);
    d.actuator_length[i] = 0.0;
    let xmat = &v9(d.site_xmat)[id];
    let force = rot_vec_mat(&[g[0], g[1], g[2]], xmat);
    let torque = rot_vec_mat(&[g[3], g[4], g[5]], xmat);
    let row = &mut d.actuator_moment[i * nv..(i + 1) * nv];
    mul_mat_t_vec(row, s.jac, &force, 3, nv);
    mul_mat_t_vec(s.jac, s.jac_s, &torque, 3, nv);
    add_to(row, &s.jac[..nv]);
}

/// Site transmission with reference site `refid`: the gear is expressed in the reference
/// site's frame, the length is the site's position and rotation relative to the reference,
/// and the moment arms are those of the relative motion (without the dofs that move both sites
/// alike).
// out of line: inlined, its set-up would be hoisted into the loop over every actuator
#[inline(never)]
fn site_ref(m: &Model, d: &mut Data, i: usize, refid: usize, s: &mut Scratch) {
    let nv = m.nv;
    let g = gear(m, i);
    let id = m.actuator_trnid[2 * i] as usize;
    jac_site(m, d, Some(&mut *s.jac), Some(&mut *s.jac_s), id);
    d.actuator_length[i] = 0.0;
    let common = common_dof(m, id, refid);
    let ref_xmat = v9(d.site_xmat)[refid];
    moment_row(m, d, i).fill(0.0);

    let translation = [g[0], g[1], g[2]];
    if !is_zero(&translation) {
        let site_xpos = v3(d.site_xpos);
        let vec = rot_vec_mat_t(&sub3(&site_xpos[id], &site_xpos[refid]), &ref_xmat);
        d.actuator_length[i] += dot3(&vec, &translation);
        jac_site(m, d, Some(&mut *s.jacref), None, refid);
        relative_jacobian(m, s.jac, s.jacref, common);
        let wrench = rot_vec_mat(&translation, &ref_xmat);
        mul_mat_t_vec(moment_row(m, d, i), s.jac, &wrench, 3, nv);
    }

    let rotation = [g[3], g[4], g[5]];
    if !is_zero(&rotation) {
        // site orientations from their bodies (as MuJoCo, avoiding mat2quat)
        let site_quat = |site: usize| {
            let body = m.site_bodyid[site] as usize;
            mul_quat(&v4(&m.site_quat)[site], &v4(d.xquat)[body])
        };
        let vec = sub_quat(&site_quat(id), &site_quat(refid));
        d.actuator_length[i] += dot3(&vec, &rotation);
        jac_site(m, d, None, Some(&mut *s.jacref), refid);
        relative_jacobian(m, s.jac_s, s.jacref, common);
        let wrench = rot_vec_mat(&rotation, &ref_xmat);
        mul_mat_t_vec(s.moment_tmp, s.jac_s, &wrench, 3, nv);
        add_to(moment_row(m, d, i), s.moment_tmp);
    }
}

/// The last dof that moves both sites' (welded) bodies, if any: the deepest common ancestor
/// in the dof tree.
fn common_dof(m: &Model, site: usize, refsite: usize) -> Option<usize> {
    let last = |s: usize| {
        let b = m.body_weldid[m.site_bodyid[s] as usize] as usize;
        m.body_dofadr[b] + m.body_dofnum[b] - 1
    };
    let (mut da0, mut da1) = (last(site), last(refsite));
    if da0 < 0 || da1 < 0 {
        return None;
    }
    while da0 != da1 {
        if da0 < da1 {
            da1 = m.dof_parentid[da1 as usize];
        } else {
            da0 = m.dof_parentid[da0 as usize];
        }
        if da0 < 0 || da1 < 0 {
            return None;
        }
    }
    Some(da0 as usize)
}

/// `jac -= jacref` (both `3 x nv`), then zero in the columns of `common` and its ancestors,
/// which move both sites alike.
fn relative_jacobian(m: &Model, jac: &mut [Real], jacref: &[Real], common: Option<usize>) {
    let nv = m.nv;
    sub_from(&mut jac[..3 * nv], &jacref[..3 * nv]);
    let mut da = common.map_or(-1, |c| c as i32);
    while da >= 0 {
        let c = da as usize;
        jac[c] = 0.0;
        jac[nv + c] = 0.0;
        jac[2 * nv + c] = 0.0;
        da = m.dof_parentid[c];
    }
}

/// Body transmission (adhesion): minus the average of the normal Jacobians of the body's
/// contacts, active ones through the constraint Jacobian and excluded ones in the margin gap
/// computed here; no meaningful length (0).
// out of line: inlined, its set-up would be hoisted into the loop over every actuator
#[inline(never)]
fn body(m: &Model, d: &mut Data, i: usize, rows: &ConstraintRows, s: &mut Scratch) {
    let nv = m.nv;
    let sparse = is_sparse(m);
    let id = m.actuator_trnid[2 * i] as usize;
    d.actuator_length[i] = 0.0;
    moment_row(m, d, i).fill(0.0);
    s.efc_force.fill(0.0);
    s.moment_exclude.fill(0.0);

    let mut counter = 0usize;
    for con in rows.contact {
        let (Ok(g1), Ok(g2)) = (usize::try_from(con.geom[0]), usize::try_from(con.geom[1])) else {
            continue; // flex contact
        };
        let (b1, b2) = (m.geom_bodyid[g1] as usize, m.geom_bodyid[g2] as usize);
        if b1 != id && b2 != id {
            continue;
        }
        if con.exclude == 0 {
            counter += 1;
            mark_normal(m, con, s.efc_force);
        } else if con.exclude == 1 {
            // in the margin gap: no constraint rows, so compute the normal Jacobian here
            counter += 1;
            let n = jac_dif_pair(
                m, d, sparse, s.chain, b1, b2, &con.pos, &con.pos, s.jac1p, s.jac2p, s.jacdifp,
            );
            mul_mat_mat(s.jac, &con.frame[..3], s.jacdifp, 1, 3, n);
            if sparse {
                for (&c, &x) in s.chain[..n].iter().zip(&s.jac[..n]) {
                    s.moment_exclude[c as usize] += x;
                }
            } else {
                add_to(s.moment_exclude, &s.jac[..nv]);
            }
        }
    }

    if counter > 0 {
        let row = &mut d.actuator_moment[i * nv..(i + 1) * nv];
        rows.mul_jac_t_vec(m, row, s.efc_force);
        add_to(row, s.moment_exclude);
        scl_in_place(row, -1.0 / counter as Real);
    }
}

/// Marks the rows of contact `con`'s normal in `efc_force`: its first row (frictionless or
/// elliptic cones), or the average of the pyramid's edges.
fn mark_normal(m: &Model, con: &Contact, efc_force: &mut [Real]) {
    let Ok(adr) = usize::try_from(con.efc_address) else {
        return;
    };
    // rows outside efc_force (an inconsistent arena) are skipped rather than indexed
    if con.dim == 1 || m.opt.cone == CONE_ELLIPTIC {
        if let Some(f) = efc_force.get_mut(adr) {
            *f = 1.0;
        }
    } else {
        let npyramid = usize::try_from(con.dim - 1).unwrap_or(0);
        let weight = 0.5 / npyramid as Real;
        if let Some(rows) = efc_force.get_mut(adr..adr + 2 * npyramid) {
            rows.fill(weight);
        }
    }
}

// ------------------------------------------------------------------------------------------------
// contacts and constraint rows of the arena

/// The contacts and the constraint Jacobian of the current step (empty before the constraint
/// stage has made them), read from the arena's arrays.
struct ConstraintRows<'a> {
    contact: &'a [Contact],
    nefc: usize,
    efc_J: &'a [Real],
    efc_JT: &'a [Real],
    efc_JT_rownnz: &'a [i32],
    efc_JT_rowadr: &'a [i32],
    efc_JT_rowsuper: &'a [i32],
    efc_JT_colind: &'a [i32],
}

impl<'a> ConstraintRows<'a> {
    /// No contacts and no rows (models without adhesion do not read them).
    const NONE: ConstraintRows<'static> = ConstraintRows {
        contact: &[],
        nefc: 0,
        efc_J: &[],
        efc_JT: &[],
        efc_JT_rownnz: &[],
        efc_JT_rowadr: &[],
        efc_JT_rowsuper: &[],
        efc_JT_colind: &[],
    };

    fn new(a: &ArenaArrays<'a>, d: &Data) -> Self {
        Self {
            contact: &a.contact[..d.ncon.min(a.contact.len())],
            nefc: d.nefc,
            efc_J: a.efc_J,
            efc_JT: a.efc_JT,
            efc_JT_rownnz: a.efc_JT_rownnz,
            efc_JT_rowadr: a.efc_JT_rowadr,
            efc_JT_rowsuper: a.efc_JT_rowsuper,
            efc_JT_colind: a.efc_JT_colind,
        }
    }

    /// `res = efc_J' * vec` (`mj_mulJacTVec`); leaves `res` alone without constraint rows.
    fn mul_jac_t_vec(&self, m: &Model, res: &mut [Real], vec: &[Real]) {
        let nv = m.nv;
        if self.nefc == 0 {
            return;
        }
        if is_sparse(m) {
            if self.efc_JT_rownnz.len() < nv {
                return;
            }
            mul_mat_vec_sparse(
                res,
                self.efc_JT,
                vec,
                nv,
                self.efc_JT_rownnz,
                self.efc_JT_rowadr,
                self.efc_JT_colind,
                Some(self.efc_JT_rowsuper),
            );
        } else if self.efc_J.len() >= self.nefc * nv {
            mul_mat_t_vec(res, self.efc_J, vec, self.nefc, nv);
        }
    }
}
