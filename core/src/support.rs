//! Support functions used across the pipeline and by users (MuJoCo's `engine_support.c`):
//! frames, Jacobians, mass-matrix products, perturbations, position integration, warnings.

use crate::arena::{ArenaError, ArenaField, ArenaMask, Stack};
use crate::data::Data;
use crate::error::StepError;
use crate::math::mat::{mul_mat_mat, mul_mat_mat3, mul_mat_mat_t3, mul_mat_t_vec, rot_vec_mat};
use crate::math::quat::{mul_quat, quat2mat, quat_integrate, sub_quat};
use crate::math::sparse::{combine_rows, mirror_lower};
use crate::math::spatial::transform_spatial;
use crate::math::vec::{add_to, add_to3, cross, normalize4, scl3, scl_in_place, sub, sub3};
use crate::model::Model;
use crate::real::Real;
use crate::types::*;

/// Fixed-size views of a flat array: `v3(&d.xpos)[i]` is body `i`'s position.
pub(crate) fn v3(s: &[Real]) -> &[[Real; 3]] {
    s.as_chunks::<3>().0
}
pub(crate) fn v4(s: &[Real]) -> &[[Real; 4]] {
    s.as_chunks::<4>().0
}
pub(crate) fn v6(s: &[Real]) -> &[[Real; 6]] {
    s.as_chunks::<6>().0
}
pub(crate) fn v9(s: &[Real]) -> &[[Real; 9]] {
    s.as_chunks::<9>().0
}
pub(crate) fn v10(s: &[Real]) -> &[[Real; 10]] {
    s.as_chunks::<10>().0
}
pub(crate) fn v3m(s: &mut [Real]) -> &mut [[Real; 3]] {
    s.as_chunks_mut::<3>().0
}
pub(crate) fn v4m(s: &mut [Real]) -> &mut [[Real; 4]] {
    s.as_chunks_mut::<4>().0
}
pub(crate) fn v6m(s: &mut [Real]) -> &mut [[Real; 6]] {
    s.as_chunks_mut::<6>().0
}
pub(crate) fn v9m(s: &mut [Real]) -> &mut [[Real; 9]] {
    s.as_chunks_mut::<9>().0
}
pub(crate) fn v10m(s: &mut [Real]) -> &mut [[Real; 10]] {
    s.as_chunks_mut::<10>().0
}

/// `mjDISABLED`: whether disable flag `flag` (`DSBL_*`) is set.
pub fn disabled(m: &Model, flag: i32) -> bool {
    m.opt.disableflags & flag != 0
}

/// `mjENABLED`: whether enable flag `flag` (`ENBL_*`) is set.
pub fn enabled(m: &Model, flag: i32) -> bool {
    m.opt.enableflags & flag != 0
}

/// Whether constraint Jacobians are sparse (`mj_isSparse`): `opt.jacobian` is sparse, or auto
/// with 60 or more dofs.
pub fn is_sparse(m: &Model) -> bool {
    m.opt.jacobian == JAC_SPARSE || (m.opt.jacobian == JAC_AUTO && m.nv >= 60)
}

/// Whether friction cones are pyramidal (`mj_isPyramidal`); elliptic otherwise.
pub fn is_pyramidal(m: &Model) -> bool {
    m.opt.cone == CONE_PYRAMIDAL
}

/// Whether the solver needs the dual problem, `efc_AR` (`mj_isDual`): PGS, or noslip
/// iterations.
pub fn is_dual(m: &Model) -> bool {
    m.opt.solver == SOL_PGS || m.opt.noslip_iterations > 0
}

/// Number of position coordinates of a joint type.
pub fn jnt_qposnum(jnt_type: i32) -> usize {
    match jnt_type {
        JNT_FREE => 7,
        JNT_BALL => 4,
        _ => 1,
    }
}

/// Number of dofs of a joint type.
pub fn jnt_dofnum(jnt_type: i32) -> usize {
    match jnt_type {
        JNT_FREE => 6,
        JNT_BALL => 3,
        _ => 1,
    }
}

/// Counts a warning and records its info (`mj_warning`). MuJoCo also prints the message the
/// first time; the core has no output, `mjrs-std`'s `WarningReporter` prints it.
pub fn warning(d: &mut Data, warning: i32, info: i32) {
    if let Some(w) = usize::try_from(warning)
        .ok()
        .and_then(|i| d.warning.get_mut(i))
    {
        w.lastinfo = info;
        w.number += 1;
    }
}

/// Whether actuator `i` is disabled by its group (`mj_actuatorDisabled`).
pub fn actuator_disabled(m: &Model, i: usize) -> bool {
    let group = m.actuator_group[i];
    (0..=30).contains(&group) && m.opt.disableactuator & (1 << group) != 0
}

/// The global frames of the bodies (`xpos`, `xmat`, `xquat`) and of their inertias (`xipos`,
/// `ximat`) as arrays of vectors, for mapping many local poses (`mj_local2Global`): the chunked
/// views are made once rather than per geom or site.
pub struct BodyFrames<'a> {
    xpos: &'a [[Real; 3]],
    xmat: &'a [[Real; 9]],
    xquat: &'a [[Real; 4]],
    xipos: &'a [[Real; 3]],
    ximat: &'a [[Real; 9]],
}

impl<'a> BodyFrames<'a> {
    /// Views of the body frames in `xpos`, `xmat`, `xquat`, `xipos`, `ximat`.
    pub fn new(
        xpos: &'a [Real],
        xmat: &'a [Real],
        xquat: &'a [Real],
        xipos: &'a [Real],
        ximat: &'a [Real],
    ) -> Self {
        Self {
            xpos: v3(xpos),
            xmat: v9(xmat),
            xquat: v4(xquat),
            xipos: v3(xipos),
            ximat: v9(ximat),
        }
    }

    /// Position of a point given in body `body`'s frame (`mj_local2Global`, position part).
    /// `sameframe`: 0 compute, 1 the body frame itself, 2 the body's inertial frame.
    // always inlined: a call costs as much as the copy most objects (sameframe) need
    #[inline(always)]
    pub fn pos(&self, pos: &[Real; 3], body: usize, sameframe: u8) -> [Real; 3] {
        match sameframe {
            0 => {
                let mut p = rot_vec_mat(pos, &self.xmat[body]);
                add_to3(&mut p, &self.xpos[body]);
                p
            }
            1 => self.xpos[body],
            _ => self.xipos[body],
        }
    }

    /// Orientation of a frame given in body `body`'s frame (`mj_local2Global`, rotation part).
    #[inline(always)]
    pub fn mat(&self, quat: &[Real; 4], body: usize, sameframe: u8) -> [Real; 9] {
        match sameframe {
            0 => quat2mat(&mul_quat(&self.xquat[body], quat)),
            1 => self.xmat[body],
            _ => self.ximat[body],
        }
    }
}

/// Position of a point given in a body's local frame (`mj_local2Global`, position part).
/// `sameframe`: 0 compute, 1 the body frame itself, 2 the body's inertial frame.
pub fn local2global_pos(
    xpos: &[Real],
    xmat: &[Real],
    xipos: &[Real],
    pos: &[Real; 3],
    body: usize,
    sameframe: u8,
) -> [Real; 3] {
    BodyFrames::new(xpos, xmat, &[], xipos, &[]).pos(pos, body, sameframe)
}

/// Orientation of a frame given in a body's local frame (`mj_local2Global`, rotation part).
pub fn local2global_mat(
    xquat: &[Real],
    xmat: &[Real],
    ximat: &[Real],
    quat: &[Real; 4],
    body: usize,
    sameframe: u8,
) -> [Real; 9] {
    BodyFrames::new(&[], xmat, xquat, &[], ximat).mat(quat, body, sameframe)
}

/// Global position and orientation of a pose given in body `body`'s frame (`mj_local2Global`).
pub fn local2global(
    d: &Data,
    pos: &[Real; 3],
    quat: &[Real; 4],
    body: usize,
) -> ([Real; 3], [Real; 9]) {
    (
        local2global_pos(d.xpos, d.xmat, d.xipos, pos, body, 0),
        local2global_mat(d.xquat, d.xmat, d.ximat, quat, body, 0),
    )
}

/// Normalizes the quaternions of ball and free joints in a qpos-like vector (`mj_normalizeQuat`).
pub fn normalize_quat(m: &Model, qpos: &mut [Real]) {
    // quaternions come with ball and free joints only, each one position more than its dofs
    // (validated): a model without them has nothing to normalize
    if m.nq == m.nv {
        return;
    }
    for j in 0..m.njnt {
        let t = m.jnt_type[j];
        if t == JNT_BALL || t == JNT_FREE {
            let adr = m.jnt_qposadr[j] as usize + if t == JNT_FREE { 3 } else { 0 };
            let mut q = [qpos[adr], qpos[adr + 1], qpos[adr + 2], qpos[adr + 3]];
            normalize4(&mut q);
            qpos[adr..adr + 4].copy_from_slice(&q);
        }
    }
}

/// Integrates positions `qpos` with velocities `qvel` over `dt`, quaternions on the unit
/// sphere (`mj_integratePos`).
pub fn integrate_pos(m: &Model, qpos: &mut [Real], qvel: &[Real], dt: Real) {
    for j in 0..m.njnt {
        let mut padr = m.jnt_qposadr[j] as usize;
        let mut vadr = m.jnt_dofadr[j] as usize;
        let t = m.jnt_type[j];
        if t == JNT_FREE {
            for i in 0..3 {
                qpos[padr + i] += dt * qvel[vadr + i];
            }
            padr += 3;
            vadr += 3;
        }
        if t == JNT_FREE || t == JNT_BALL {
            let mut q = [qpos[padr], qpos[padr + 1], qpos[padr + 2], qpos[padr + 3]];
            quat_integrate(&mut q, &[qvel[vadr], qvel[vadr + 1], qvel[vadr + 2]], dt);
            qpos[padr..padr + 4].copy_from_slice(&q);
        } else {
            qpos[padr] += dt * qvel[vadr];
        }
    }
}

/// Velocity that takes `qpos1` to `qpos2` in time `dt` (`mj_differentiatePos`).
pub fn differentiate_pos(m: &Model, qvel: &mut [Real], dt: Real, qpos1: &[Real], qpos2: &[Real]) {
    for j in 0..m.njnt {
        let mut padr = m.jnt_qposadr[j] as usize;
        let mut vadr = m.jnt_dofadr[j] as usize;
        let t = m.jnt_type[j];
        if t == JNT_FREE {
            for i in 0..3 {
                qvel[vadr + i] = (qpos2[padr + i] - qpos1[padr + i]) / dt;
            }
            padr += 3;
            vadr += 3;
        }
        if t == JNT_FREE || t == JNT_BALL {
            let q = |s: &[Real]| [s[padr], s[padr + 1], s[padr + 2], s[padr + 3]];
            let v = scl3(&sub_quat(&q(qpos2), &q(qpos1)), 1.0 / dt);
            qvel[vadr..vadr + 3].copy_from_slice(&v);
        } else {
            qvel[vadr] = (qpos2[padr] - qpos1[padr]) / dt;
        }
    }
}

/// The dofs that move body `body`, in increasing order, written to `chain`; returns their
/// number (`mj_bodyChain`). `chain` needs `nv` entries.
pub fn body_chain(m: &Model, body: usize, chain: &mut [i32]) -> usize {
    if m.body_simple[body] != 0 {
        let n = m.body_dofnum[body] as usize;
        for (i, c) in chain.iter_mut().take(n).enumerate() {
            *c = m.body_dofadr[body] + i as i32;
        }
        return n;
    }
    let Some(b) = movable_ancestor(m, body) else {
        return 0;
    };
    let mut n = 0;
    let mut da = m.body_dofadr[b] + m.body_dofnum[b] - 1;
    while da >= 0 {
        chain[n] = da;
        n += 1;
        da = m.dof_parentid[da as usize];
    }
    chain[..n].reverse();
    n
}

/// The nearest ancestor-or-self of `body` that has dofs; `None` when only the world moves it.
fn movable_ancestor(m: &Model, body: usize) -> Option<usize> {
    Some(movable(m, body)).filter(|&b| b != 0)
}

/// The nearest ancestor-or-self of `body` with dofs (the world, 0, if none).
fn movable(m: &Model, mut body: usize) -> usize {
    while body != 0 && m.body_dofnum[body] == 0 {
        body = m.body_parentid[body] as usize;
    }
    body
}

/// Translational (`jacp`) and rotational (`jacr`) 3-by-nv Jacobians of a global `point`
/// attached to `body` (`mj_jac`). Either output may be omitted.
pub fn jac(
    m: &Model,
    d: &Data,
    mut jacp: Option<&mut [Real]>,
    mut jacr: Option<&mut [Real]>,
    point: &[Real; 3],
    body: usize,
) {
    let nv = m.nv;
    if let Some(j) = jacp.as_deref_mut() {
        j[..3 * nv].fill(0.0);
    }
    if let Some(j) = jacr.as_deref_mut() {
        j[..3 * nv].fill(0.0);
    }
    let offset = jac_offset(m, d, point, body);
    let Some(b) = movable_ancestor(m, body) else {
        return;
    };
    let cdof = v6(d.cdof);
    let mut da = m.body_dofadr[b] + m.body_dofnum[b] - 1;
    while da >= 0 {
        let i = da as usize;
        let c = &cdof[i];
        if let Some(j) = jacr.as_deref_mut() {
            j[i] = c[0];
            j[i + nv] = c[1];
            j[i + 2 * nv] = c[2];
        }
        if let Some(j) = jacp.as_deref_mut() {
            let t = jacp_column(c, &offset);
            j[i] = t[0];
            j[i + nv] = t[1];
            j[i + 2 * nv] = t[2];
        }
        da = m.dof_parentid[i];
    }
}

/// A global `point` on `body` relative to the center of mass of the subtree of the body's root,
/// where [`jac`] measures the dofs' motions.
pub fn jac_offset(m: &Model, d: &Data, point: &[Real; 3], body: usize) -> [Real; 3] {
    sub3(point, &v3(d.subtree_com)[m.body_rootid[body] as usize])
}

/// The translational Jacobian column of a dof with motion `cdof` at a point `offset` from its
/// root's subtree com (see [`jac_offset`]): the linear part plus the angular part × `offset`.
/// The rotational column is the angular part, `cdof[..3]`.
#[inline]
pub fn jacp_column(cdof: &[Real; 6], offset: &[Real; 3]) -> [Real; 3] {
    let t = cross(&[cdof[0], cdof[1], cdof[2]], offset);
    [cdof[3] + t[0], cdof[4] + t[1], cdof[5] + t[2]]
}

/// Jacobians of body `body`'s frame origin (`mj_jacBody`).
pub fn jac_body(
    m: &Model,
    d: &Data,
    jacp: Option<&mut [Real]>,
    jacr: Option<&mut [Real]>,
    body: usize,
) {
    jac(m, d, jacp, jacr, &v3(d.xpos)[body], body);
}

/// Jacobians of body `body`'s center of mass (`mj_jacBodyCom`).
pub fn jac_body_com(
    m: &Model,
    d: &Data,
    jacp: Option<&mut [Real]>,
    jacr: Option<&mut [Real]>,
    body: usize,
) {
    jac(m, d, jacp, jacr, &v3(d.xipos)[body], body);
}

/// Jacobians of geom `geom`'s center (`mj_jacGeom`).
pub fn jac_geom(
    m: &Model,
    d: &Data,
    jacp: Option<&mut [Real]>,
    jacr: Option<&mut [Real]>,
    geom: usize,
) {
    jac(
        m,
        d,
        jacp,
        jacr,
        &v3(d.geom_xpos)[geom],
        m.geom_bodyid[geom] as usize,
    );
}

/// Jacobians of site `site` (`mj_jacSite`).
pub fn jac_site(
    m: &Model,
    d: &Data,
    jacp: Option<&mut [Real]>,
    jacr: Option<&mut [Real]>,
    site: usize,
) {
    jac(
        m,
        d,
        jacp,
        jacr,
        &v3(d.site_xpos)[site],
        m.site_bodyid[site] as usize,
    );
}

/// Translational Jacobian of the center of mass of `body`'s subtree (`mj_jacSubtreeCom`).
pub fn jac_subtree_com(
    m: &Model,
    d: &Data,
    jacp: &mut [Real],
    body: usize,
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let nv = m.nv;
    let mut frame = stack.frame();
    let jacp_b = frame.alloc::<Real>(3 * nv)?;
    jacp[..3 * nv].fill(0.0);
    for b in body..m.nbody {
        if b > body && (m.body_parentid[b] as usize) < body {
            break;
        }
        jac(m, d, Some(jacp_b), None, &v3(d.xipos)[b], b);
        crate::math::vec::add_to_scl(&mut jacp[..3 * nv], jacp_b, m.body_mass[b]);
    }
    crate::math::vec::scl_in_place(&mut jacp[..3 * nv], 1.0 / m.body_subtreemass[body]);
    Ok(())
}

/// Translational Jacobian of `point` and rotational Jacobian of `axis`, both attached to
/// `body` (`mj_jacPointAxis`).
pub fn jac_point_axis(
    m: &Model,
    d: &Data,
    jac_point: &mut [Real],
    jac_axis: &mut [Real],
    point: &[Real; 3],
    axis: &[Real; 3],
    body: usize,
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let nv = m.nv;
    let mut frame = stack.frame();
    let jacr = frame.alloc::<Real>(3 * nv)?;
    jac(m, d, Some(jac_point), Some(jacr), point, body);
    for i in 0..nv {
        jac_axis[i] = jacr[nv + i] * axis[2] - jacr[2 * nv + i] * axis[1];
        jac_axis[nv + i] = jacr[2 * nv + i] * axis[0] - jacr[i] * axis[2];
        jac_axis[2 * nv + i] = jacr[i] * axis[1] - jacr[nv + i] * axis[0];
    }
    Ok(())
}

/// Adds the generalized force of a Cartesian `force` and `torque` applied at `point` on `body`
/// to `qfrc_target` (`mj_applyFT`).
pub fn apply_ft(
    m: &Model,
    d: &Data,
    force: Option<&[Real; 3]>,
    torque: Option<&[Real; 3]>,
    point: &[Real; 3],
    body: usize,
    qfrc_target: &mut [Real],
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let nv = m.nv;
    let mut frame = stack.frame();
    let jacp = frame.alloc::<Real>(3 * nv)?;
    let jacr = frame.alloc::<Real>(3 * nv)?;
    let qforce = frame.alloc::<Real>(nv)?;
    if is_sparse(m) {
        // over the body's dof chain only, as MuJoCo (a dense Jacobian is nv wide)
        let chain = frame.alloc::<i32>(nv)?;
        let n = body_chain(m, body, chain);
        let chain = &chain[..n];
        if force.is_some() {
            jac_sparse(m, d, jacp, point, body, chain);
        }
        if torque.is_some() {
            jac_sparse_rot(m, d, jacr, body, chain);
        }
        for (jacobian, f) in [(&*jacp, force), (&*jacr, torque)] {
            if let Some(f) = f {
                mul_mat_t_vec(&mut qforce[..n], &jacobian[..3 * n], f, 3, n);
                for (&c, q) in chain.iter().zip(&qforce[..n]) {
                    qfrc_target[c as usize] += q;
                }
            }
        }
        return Ok(());
    }
    jac(
        m,
        d,
        force.is_some().then_some(&mut *jacp),
        torque.is_some().then_some(&mut *jacr),
        point,
        body,
    );
    for (jacobian, f) in [(&*jacp, force), (&*jacr, torque)] {
        if let Some(f) = f {
            mul_mat_t_vec(qforce, jacobian, f, 3, nv);
            crate::math::vec::add_to(&mut qfrc_target[..nv], qforce);
        }
    }
    Ok(())
}

/// [`apply_ft`] of a `torque` alone, with no scratch memory: adds `jacrᵀ * torque` of `body`
/// to `qfrc_target`, over the body's dof chain in a model with sparse Jacobians, over all dofs
/// (zeros off the chain) with dense ones, as `mj_applyFT` does (the two differ in the sign of
/// zero entries and where the torque is not finite).
pub fn apply_torque(
    m: &Model,
    d: &Data,
    torque: &[Real; 3],
    body: usize,
    qfrc_target: &mut [Real],
) {
    let sparse = is_sparse(m);
    let cdof = v6(d.cdof);
    // chain dofs in decreasing order, as `jac` walks them
    let mut chain =
        movable_ancestor(m, body).map_or(-1, |b| m.body_dofadr[b] + m.body_dofnum[b] - 1);
    for i in (0..m.nv).rev() {
        let column = if chain == i as i32 {
            chain = m.dof_parentid[i];
            let c = &cdof[i];
            [c[0], c[1], c[2]]
        } else if sparse {
            continue;
        } else {
            [0.0; 3]
        };
        // mju_mulMatTVec: rows with a zero torque are skipped
        let mut f: Real = 0.0;
        for (j, t) in column.iter().zip(torque) {
            if *t != 0.0 {
                f += j * t;
            }
        }
        qfrc_target[i] += f;
    }
}

/// Whether a body other than the world has a nonzero entry in `xfrc_applied`: without one,
/// [`xfrc_accumulate`] adds nothing. One pass without early exit, so that it vectorizes.
pub fn has_xfrc(m: &Model, d: &Data) -> bool {
    let bodies = d.xfrc_applied.get(6..6 * m.nbody).unwrap_or_default();
    bodies.iter().fold(false, |any, &x| any | (x != 0.0))
}

/// Adds the generalized forces of all `xfrc_applied` to `qfrc` (`mj_xfrcAccumulate`).
pub fn xfrc_accumulate(
    m: &Model,
    d: &Data,
    qfrc: &mut [Real],
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let xfrc = v6(d.xfrc_applied);
    for i in 1..m.nbody {
        let f = &xfrc[i];
        if f.iter().any(|&x| x != 0.0) {
            let force = [f[0], f[1], f[2]];
            let torque = [f[3], f[4], f[5]];
            apply_ft(
                m,
                d,
                Some(&force),
                Some(&torque),
                &v3(d.xipos)[i],
                i,
                qfrc,
                stack,
            )?;
        }
    }
    Ok(())
}

/// The body, position and orientation of an object with a spatial frame; `None` for other
/// object types.
fn object_frame<'d>(
    m: &Model,
    d: &'d Data,
    objtype: i32,
    id: usize,
) -> Option<(usize, &'d [Real; 3], &'d [Real; 9])> {
    Some(match objtype {
        OBJ_BODY => (id, &v3(d.xipos)[id], &v9(d.ximat)[id]),
        OBJ_XBODY => (id, &v3(d.xpos)[id], &v9(d.xmat)[id]),
        OBJ_GEOM => (
            m.geom_bodyid[id] as usize,
            &v3(d.geom_xpos)[id],
            &v9(d.geom_xmat)[id],
        ),
        OBJ_SITE => (
            m.site_bodyid[id] as usize,
            &v3(d.site_xpos)[id],
            &v9(d.site_xmat)[id],
        ),
        OBJ_CAMERA => (
            m.cam_bodyid[id] as usize,
            &v3(d.cam_xpos)[id],
            &v9(d.cam_xmat)[id],
        ),
        _ => return None,
    })
}

/// 6D velocity `[rot; lin]` of an object at its own origin, in world orientation or in the
/// object's frame when `local` (`mj_objectVelocity`). `None` for objects without a frame.
pub fn object_velocity(
    m: &Model,
    d: &Data,
    objtype: i32,
    id: usize,
    local: bool,
) -> Option<[Real; 6]> {
    let (body, pos, rot) = object_frame(m, d, objtype, id)?;
    let com = &v3(d.subtree_com)[m.body_rootid[body] as usize];
    Some(transform_spatial(
        &v6(d.cvel)[body],
        false,
        pos,
        com,
        local.then_some(rot),
    ))
}

/// 6D acceleration `[rot; lin]` of an object at its own origin, with the Coriolis correction
/// of the linear part (`mj_objectAcceleration`); requires `cacc` (computed by
/// `rne_post_constraint`).
pub fn object_acceleration(
    m: &Model,
    d: &Data,
    objtype: i32,
    id: usize,
    local: bool,
) -> Option<[Real; 6]> {
    let (body, pos, rot) = object_frame(m, d, objtype, id)?;
    let com = &v3(d.subtree_com)[m.body_rootid[body] as usize];
    let rot = local.then_some(rot);
    let vel = transform_spatial(&v6(d.cvel)[body], false, pos, com, rot);
    let mut res = transform_spatial(&v6(d.cacc)[body], false, pos, com, rot);
    // linear acceleration of the moving point: add omega x v
    let correction = cross(&[vel[0], vel[1], vel[2]], &[vel[3], vel[4], vel[5]]);
    for k in 0..3 {
        res[3 + k] += correction[k];
    }
    Some(res)
}

/// `res = M * vec` with the sparse mass matrix `qM` (`mj_mulM`).
pub fn mul_m(m: &Model, d: &Data, res: &mut [Real], vec: &[Real]) {
    mul_sym_sparse(m, d.qM, res, vec);
}

/// `res = M * vec` for a matrix in `qM`'s sparse layout.
pub(crate) fn mul_sym_sparse(m: &Model, mat: &[Real], res: &mut [Real], vec: &[Real]) {
    let nv = m.nv;
    let (res, vec) = (&mut res[..nv], &vec[..nv]);
    let (madr, parent, simplenum) = (
        &m.dof_Madr[..nv],
        &m.dof_parentid[..nv],
        &m.dof_simplenum[..nv],
    );
    let mat = &mat[..m.nM];
    // one pass in dof order: each row's diagonal first, then its entries below it, added to
    // the row and (transposed) to its ancestors' rows, which come earlier and are set by then
    let mut i = 0;
    while i < nv {
        // a run of simple dofs has only diagonals (a cloth's vertices are all simple, and a
        // test per dof cost a third of this product there)
        let simple = simplenum[i] as usize;
        if simple > 0 {
            let run = i..(i + simple).min(nv);
            let diagonals = res[run.clone()].iter_mut().zip(&vec[run.clone()]);
            for ((r, &v), &adr) in diagonals.zip(&madr[run]) {
                *r = mat[adr as usize] * v;
            }
            i += simple;
            continue;
        }
        // row i: the diagonal, then one entry per ancestor, nearest first (the validated tree
        // makes the chain exactly as long as the row); it ends where row i + 1 starts
        let end = madr.get(i + 1).map_or(m.nM, |&a| a as usize);
        let Some((&mii, row)) = mat[madr[i] as usize..end].split_first() else {
            // no row at all (the validator refuses such a layout)
            res[i] = 0.0;
            i += 1;
            continue;
        };
        // res[i] accumulates in a register: the ancestors j written meanwhile are not i
        let vi = vec[i];
        let mut ri = mii * vi;
        let mut j = parent[i] as usize;
        for &mij in row {
            ri += mij * vec[j];
            res[j] += mij * vi;
            j = parent[j] as usize;
        }
        res[i] = ri;
        i += 1;
    }
}

/// `res = sqrt(D) * L * vec` with the factorization `qLD` (`mj_mulM2`), so that
/// `res'*res = vec'*M*vec`.
pub fn mul_m2(m: &Model, d: &Data, res: &mut [Real], vec: &[Real]) {
    let (qld, sqrt_inv) = (&*d.qLD, &*d.qLDiagSqrtInv);
    for i in 0..m.nv {
        res[i] = vec[i] / sqrt_inv[i];
        if m.dof_simplenum[i] != 0 {
            continue;
        }
        let mut adr = m.dof_Madr[i] as usize + 1;
        let mut j = m.dof_parentid[i];
        while j >= 0 {
            res[i] += qld[adr] * vec[j as usize];
            adr += 1;
            j = m.dof_parentid[j as usize];
        }
    }
}

/// Dense `nv x nv` matrix from a matrix in `qM`'s sparse layout (`mj_fullM`).
pub fn full_m(m: &Model, dst: &mut [Real], mat: &[Real]) {
    let nv = m.nv;
    dst[..nv * nv].fill(0.0);
    for i in 0..nv {
        let mut adr = m.dof_Madr[i] as usize;
        let mut j = i as i32;
        while j >= 0 {
            let ju = j as usize;
            dst[i * nv + ju] = mat[adr];
            dst[ju * nv + i] = mat[adr];
            adr += 1;
            j = m.dof_parentid[ju];
        }
    }
}

// Jacobians over dof chains, for sparse constraint and tendon Jacobians

/// Last dof of a movable body (negative for the world).
fn last_dof(m: &Model, body: usize) -> i32 {
    m.body_dofadr[body] + m.body_dofnum[body] - 1
}

/// The union of the dofs that move `b1` or `b2`, in increasing order, written to `chain`;
/// returns their number (`mj_mergeChain`).
pub(crate) fn merge_chain(m: &Model, chain: &mut [i32], b1: usize, b2: usize) -> usize {
    let (b1, b2) = (movable(m, b1), movable(m, b2));
    if b1 == 0 && b2 == 0 {
        return 0;
    }
    let (mut da1, mut da2) = (last_dof(m, b1), last_dof(m, b2));
    let mut n = 0;
    while da1 >= 0 || da2 >= 0 {
        let da = da1.max(da2);
        chain[n] = da;
        if da1 == da {
            da1 = m.dof_parentid[da1 as usize];
        }
        if da2 == da {
            da2 = m.dof_parentid[da2 as usize];
        }
        n += 1;
    }
    chain[..n].reverse();
    n
}

/// [`merge_chain`] for two simple bodies (whose dofs are their own): the dofs of the lower
/// body id, then the other's (`mj_mergeChainSimple`).
pub(crate) fn merge_chain_simple(m: &Model, chain: &mut [i32], b1: usize, b2: usize) -> usize {
    let (lo, hi) = if b1 > b2 { (b2, b1) } else { (b1, b2) };
    let mut n = 0;
    for b in [lo, hi] {
        for k in 0..m.body_dofnum[b] {
            chain[n] = m.body_dofadr[b] + k;
            n += 1;
        }
    }
    n
}

/// Translational Jacobian of `point` on `body` restricted to the `n = chain.len()` dofs of
/// `chain` (3 x n, `mj_jacSparse`).
pub(crate) fn jac_sparse(
    m: &Model,
    d: &Data,
    jacp: &mut [Real],
    point: &[Real; 3],
    body: usize,
    chain: &[i32],
) {
    let n = chain.len();
    jacp[..3 * n].fill(0.0);
    let offset = sub3(point, &v3(d.subtree_com)[m.body_rootid[body] as usize]);
    let body = movable(m, body);
    if body == 0 {
        return;
    }
    let cdof = v6(d.cdof);
    let mut da = last_dof(m, body);
    let mut ci = n;
    while da >= 0 {
        // the chain is increasing: search down from the previous position
        while ci > 0 && chain[ci - 1] > da {
            ci -= 1;
        }
        // the dof is in the chain when the chain was merged from this body
        if ci == 0 || chain[ci - 1] != da {
            debug_assert!(false, "dof {da} not in the chain");
            return;
        }
        let c = &cdof[da as usize];
        let t = cross(&[c[0], c[1], c[2]], &offset);
        jacp[ci - 1] = c[3] + t[0];
        jacp[ci - 1 + n] = c[4] + t[1];
        jacp[ci - 1 + 2 * n] = c[5] + t[2];
        da = m.dof_parentid[da as usize];
    }
}

/// Rotational Jacobian of `body` restricted to the dofs of `chain` (3 x n, the rotational part
/// of `mj_jacSparse`).
pub(crate) fn jac_sparse_rot(m: &Model, d: &Data, jacr: &mut [Real], body: usize, chain: &[i32]) {
    let n = chain.len();
    jacr[..3 * n].fill(0.0);
    let body = movable(m, body);
    if body == 0 {
        return;
    }
    let cdof = v6(d.cdof);
    let mut da = m.body_dofadr[body] + m.body_dofnum[body] - 1;
    let mut ci = n;
    while da >= 0 {
        while ci > 0 && chain[ci - 1] > da {
            ci -= 1;
        }
        // every dof of the body's chain is in the merged chain
        if ci == 0 || chain[ci - 1] != da {
            return;
        }
        let c = &cdof[da as usize];
        for r in 0..3 {
            jacr[ci - 1 + r * n] = c[r];
        }
        da = m.dof_parentid[da as usize];
    }
}

/// Writes `±` the translational Jacobian of `point` on the simple `body` into columns
/// `start..` of the 3 x `n` difference `jacdif` (`mj_jacSparseSimple`): minus for the first
/// body of a pair, plus for the second.
pub(crate) fn jac_sparse_simple(
    m: &Model,
    d: &Data,
    jacdif: &mut [Real],
    point: &[Real; 3],
    body: usize,
    second: bool,
    n: usize,
    start: usize,
) {
    let offset = sub3(point, &v3(d.subtree_com)[m.body_rootid[body] as usize]);
    let (adr, num) = (
        m.body_dofadr[body].max(0) as usize,
        m.body_dofnum[body].max(0) as usize,
    );
    if num == 0 {
        return;
    }
    let cdofs = &v6(d.cdof)[adr..adr + num];
    // the three rows' columns of this body, sliced once: the loop then writes without checks
    // (a cloth calls this twice per contact and per edge row, for three dofs each time)
    let (row0, rest) = jacdif.split_at_mut(n);
    let (row1, row2) = rest.split_at_mut(n);
    let cols = start..start + num;
    let rows = row0[cols.clone()]
        .iter_mut()
        .zip(&mut row1[cols.clone()])
        .zip(&mut row2[cols]);
    for (c, ((j0, j1), j2)) in cdofs.iter().zip(rows) {
        let t = cross(&[c[0], c[1], c[2]], &offset);
        let col = [c[3] + t[0], c[4] + t[1], c[5] + t[2]];
        let col = if second { col } else { col.map(|x| -x) };
        (*j0, *j1, *j2) = (col[0], col[1], col[2]);
    }
}

/// Translational Jacobian difference `J(pos2 on b2) - J(pos1 on b1)` (`mj_jacDifPair`, without
/// the rotational part). Dense (`3 x nv`) unless `sparse`, then restricted to the merged dof
/// chain written to `chain` (`3 x n`). `jac1`, `jac2` are scratch of `3 x nv`. Returns the
/// number of columns (0 when no dof moves either body).
pub(crate) fn jac_dif_pair(
    m: &Model,
    d: &Data,
    sparse: bool,
    chain: &mut [i32],
    b1: usize,
    b2: usize,
    pos1: &[Real; 3],
    pos2: &[Real; 3],
    jac1: &mut [Real],
    jac2: &mut [Real],
    jacdif: &mut [Real],
) -> usize {
    if m.nv == 0 {
        return 0;
    }
    if !sparse {
        let nv = m.nv;
        jac(m, d, Some(jac1), None, pos1, b1);
        jac(m, d, Some(jac2), None, pos2, b2);
        sub(&mut jacdif[..3 * nv], &jac2[..3 * nv], &jac1[..3 * nv]);
        return nv;
    }
    let simple = m.body_simple[b1] != 0 && m.body_simple[b2] != 0;
    let n = if simple {
        merge_chain_simple(m, chain, b1, b2)
    } else {
        merge_chain(m, chain, b1, b2)
    };
    if n == 0 {
        return 0;
    }
    if simple {
        // the dofs of the lower body id come first in the chain
        let dofnum = |b: usize| m.body_dofnum[b] as usize;
        let start1 = if b1 < b2 { 0 } else { dofnum(b2) };
        let start2 = if b2 < b1 { 0 } else { dofnum(b1) };
        jac_sparse_simple(m, d, jacdif, pos1, b1, false, n, start1);
        jac_sparse_simple(m, d, jacdif, pos2, b2, true, n, start2);
    } else {
        jac_sparse(m, d, jac1, pos1, b1, &chain[..n]);
        jac_sparse(m, d, jac2, pos2, b2, &chain[..n]);
        sub(&mut jacdif[..3 * n], &jac2[..3 * n], &jac1[..3 * n]);
    }
    n
}

/// Total mass of all bodies (`mj_getTotalmass`).
pub fn get_totalmass(m: &Model) -> Real {
    m.body_mass[1..].iter().sum()
}

/// Force:torque of contact `id` in its contact frame (`mj_contactForce`): the normal force, the
/// two tangential forces, then the torsional and rolling torques, as far as the contact's
/// dimension goes; decoded from the pyramid edges for pyramidal cones. Zero for a contact that
/// does not exist or has no rows.
pub fn contact_force(m: &Model, d: &Data, id: usize) -> [Real; 6] {
    let a = d
        .arena
        .arrays_only(ArenaMask::of(&[ArenaField::contact, ArenaField::efc_force]));
    match a.contact.get(id).filter(|_| id < d.ncon) {
        Some(con) => contact_force_of(m, con, a.efc_force),
        None => [0.0; 6],
    }
}

/// [`contact_force`] of one contact with the solver's forces `efc_force` at hand, for the
/// loops over contacts (they make the arena views once, not once per contact).
pub(crate) fn contact_force_of(
    m: &Model,
    con: &crate::records::Contact,
    efc_force: &[Real],
) -> [Real; 6] {
    let mut result = [0.0; 6];
    let Ok(adr) = usize::try_from(con.efc_address) else {
        return result;
    };
    let dim = con.dim.clamp(1, 6) as usize;
    if is_pyramidal(m) {
        let edges = if dim == 1 { 1 } else { 2 * (dim - 1) };
        if let Some(pyramid) = efc_force.get(adr..adr + edges) {
            crate::math::misc::decode_pyramid(&mut result, pyramid, &con.friction, dim);
        }
    } else if let Some(force) = efc_force.get(adr..adr + dim) {
        result[..dim].copy_from_slice(force);
    }
    result
}

/// `mj_version`: the MuJoCo release whose models and numbers mjrs reproduces, as
/// `100 * major + 10 * minor + patch`.
pub const fn version() -> i32 {
    316
}

/// `mj_versionString`: the MuJoCo release mjrs reproduces, as text.
pub const fn version_string() -> &'static str {
    "3.1.6"
}

/// `mj_angmomMat`: the 3 × nv matrix (row-major, into `mat`) that maps `qvel` to the angular
/// momentum of `body`'s subtree about its center of mass (`subtree_com`), in world axes. Needs
/// the positions computed (`kinematics` and `com_pos`); scratch of `12 nv` reals from the arena.
///
/// Per body `b` of the subtree: `R I Rᵀ jacr` (its spin) plus `m [c]ₓ jacp` (the moment of its
/// linear momentum, `c` its center relative to the subtree's), Jacobians at its center of mass.
pub fn angmom_mat(
    m: &Model,
    d: &mut Data,
    mat: &mut [Real],
    body: usize,
) -> Result<(), ArenaError> {
    let nv = m.nv;
    d.with_stack(|d, stack| {
        let jacp = stack.alloc::<Real>(3 * nv)?;
        let jacr = stack.alloc::<Real>(3 * nv)?;
        let term1 = stack.alloc::<Real>(3 * nv)?;
        let term2 = stack.alloc::<Real>(3 * nv)?;
        let mat = &mut mat[..3 * nv];
        mat.fill(0.0);
        let subtree_com = v3(d.subtree_com)[body];
        for b in body..m.nbody {
            if b > body && (m.body_parentid[b] as usize) < body {
                break;
            }
            jac_body_com(m, d, Some(&mut *jacp), Some(&mut *jacr), b);

            let ximat = v9(d.ximat)[b];
            let i = &m.body_inertia[3 * b..3 * b + 3];
            let inertia = [i[0], 0.0, 0.0, 0.0, i[1], 0.0, 0.0, 0.0, i[2]];
            let world_inertia = mul_mat_mat_t3(&mul_mat_mat3(&ximat, &inertia), &ximat);
            mul_mat_mat(term1, &world_inertia, jacr, 3, 3, nv);

            let c = sub3(&v3(d.xipos)[b], &subtree_com);
            let skew = [0.0, -c[2], c[1], c[2], 0.0, -c[0], -c[1], c[0], 0.0];
            mul_mat_mat(term2, &skew, jacp, 3, 3, nv);
            scl_in_place(term2, m.body_mass[b]);

            add_to(mat, term1);
            add_to(mat, term2);
        }
        Ok(())
    })
}

/// A sparse matrix in MuJoCo's row format for [`add_m`]: row `i` holds `rownnz[i]` entries
/// from `rowadr[i]` (room for `nv` per row), with their columns in `colind`.
pub struct SparseRows<'s> {
    /// Entries per row (updated).
    pub rownnz: &'s mut [i32],
    /// First entry of each row.
    pub rowadr: &'s [i32],
    /// Column of each entry (updated).
    pub colind: &'s mut [i32],
}

/// `mj_addM`: adds the mass matrix to `dst`, either the sparse matrix described by `sparse`
/// (merging its pattern with the mass matrix's; scratch from the arena) or, without it, a dense
/// `nv × nv` matrix. Needs `qM` (`crb` and `factor_m`, or a forward pass).
pub fn add_m(
    m: &Model,
    d: &mut Data,
    dst: &mut [Real],
    sparse: Option<SparseRows>,
) -> Result<(), StepError> {
    let Some(rows) = sparse else {
        add_m_dense(m, d, dst);
        return Ok(());
    };
    d.with_stack(|d, stack| {
        let mut frame = stack.frame();
        let m_rownnz = frame.alloc::<i32>(m.nv)?;
        let m_colind = frame.alloc::<i32>(m.nD)?;
        let mat = frame.alloc::<Real>(m.nD)?;
        make_m_sparse(m, d, mat, m_rownnz, m_colind);
        let SparseRows {
            rownnz,
            rowadr,
            colind,
        } = rows;
        add_m_sparse(
            m, d, dst, rownnz, rowadr, colind, mat, m_rownnz, m_colind, &mut frame,
        )
    })
}

/// The mass matrix as a sparse symmetric matrix `M` with the row addresses `D_rowadr`
/// (`mj_makeMSparse` with no row addresses given): each row's non-zeros in column order.
pub fn make_m_sparse(
    m: &Model,
    d: &Data,
    mat: &mut [Real],
    rownnz: &mut [i32],
    colind: &mut [i32],
) {
    let nv = m.nv;
    let rowadr = &d.D_rowadr[..nv];
    let (parent, simple) = (&m.dof_parentid[..nv], &m.dof_simplenum[..nv]);
    let (madr_all, qm) = (&m.dof_Madr[..nv], &d.qM[..m.nM]);
    // values and columns cut to one length: a row's slices check one bound for both
    let len = mat.len().min(colind.len());
    let (mat_lo, colind_lo) = (&mut mat[..len], &mut colind[..len]);

    // lower triangle: row i of qM is the diagonal, then one entry per ancestor, nearest first
    // (the validated tree makes the chain exactly as long as the row); it is stored reversed,
    // in column order
    for i in 0..nv {
        let start = rowadr[i] as usize;
        let madr = madr_all[i] as usize;
        if simple[i] != 0 {
            rownnz[i] = 1;
            mat_lo[start] = qm[madr];
            colind_lo[start] = i as i32;
            continue;
        }
        // row i ends where row i + 1 starts
        let end = madr_all.get(i + 1).map_or(m.nM, |&a| a as usize);
        let row = &qm[madr..end];
        let n = row.len();
        let (vals, cols) = (
            &mut mat_lo[start..start + n],
            &mut colind_lo[start..start + n],
        );
        // by index from the back: no emptiness test per entry for each reversed iterator
        let mut j = i;
        for (k, &q) in row.iter().enumerate() {
            let at = n - 1 - k;
            vals[at] = q;
            cols[at] = j as i32;
            // -1 after the root, never read
            j = parent[j] as usize;
        }
        rownnz[i] = n as i32;
    }

    mirror_lower(mat, colind, rownnz, rowadr, nv);
}

/// Adds the sparse mass matrix of [`make_m_sparse`] to the sparse `dst` (room for `nv` per
/// row) (`mj_addMSparse`).
#[allow(clippy::too_many_arguments)]
pub fn add_m_sparse(
    m: &Model,
    d: &Data,
    dst: &mut [Real],
    rownnz: &mut [i32],
    rowadr: &[i32],
    colind: &mut [i32],
    mat: &[Real],
    m_rownnz: &[i32],
    m_colind: &[i32],
    stack: &mut Stack,
) -> Result<(), StepError> {
    let nv = m.nv;
    let mut frame = stack.frame();
    let buf_ind = frame.alloc::<i32>(nv)?;
    let buf = frame.alloc::<Real>(nv)?;
    let (rownnz, rowadr) = (&mut rownnz[..nv], &rowadr[..nv]);
    let (m_rowadr, m_rownnz) = (&d.D_rowadr[..nv], &m_rownnz[..nv]);
    for i in 0..nv {
        let (adr, madr) = (rowadr[i] as usize, m_rowadr[i] as usize);
        let mnnz = m_rownnz[i] as usize;
        if rownnz[i] == 0 {
            // no J' D J entries (no row in the quadratic state reaches the dof: most dofs
            // of many independent bodies): the sum is M's row (the merge would scale it by 1,
            // which is exact), without the merge's set-up
            let (src, src_ind) = (&mat[madr..madr + mnnz], &m_colind[madr..madr + mnnz]);
            let dst_row = dst[adr..adr + mnnz].iter_mut();
            for ((dv, dc), (&v, &c)) in dst_row
                .zip(&mut colind[adr..adr + mnnz])
                .zip(src.iter().zip(src_ind))
            {
                *dv = v;
                *dc = c;
            }
            rownnz[i] = mnnz as i32;
            continue;
        }
        rownnz[i] = combine_rows(
            &mut dst[adr..],
            &mat[madr..madr + mnnz],
            1.0,
            1.0,
            rownnz[i] as usize,
            &mut colind[adr..],
            &m_colind[madr..madr + mnnz],
            buf,
            buf_ind,
        ) as i32;
    }
    Ok(())
}

/// Adds the mass matrix to the dense `nv x nv` matrix `dst` (`mj_addMDense`).
pub fn add_m_dense(m: &Model, d: &Data, dst: &mut [Real]) {
    let nv = m.nv;
    let (madr, parent, simple) = (
        &m.dof_Madr[..nv],
        &m.dof_parentid[..nv],
        &m.dof_simplenum[..nv],
    );
    let (qm, dst) = (&d.qM[..m.nM], &mut dst[..nv * nv]);
    for i in 0..nv {
        // row i of qM: the diagonal, then one entry per ancestor, nearest first (the validated
        // tree makes the parent chain exactly as long as the row); a simple dof adds only its
        // diagonal. Each entry of `dst` gets one addition, so the order is free.
        let start = madr[i] as usize;
        let end = if simple[i] != 0 {
            start + 1
        } else if i + 1 < nv {
            madr[i + 1] as usize
        } else {
            m.nM
        };
        let row = &qm[start..end];
        dst[i * nv + i] += row[0];
        let mut j = parent[i] as usize;
        for &mij in &row[1..] {
            dst[i * nv + j] += mij;
            dst[j * nv + i] += mij;
            j = parent[j] as usize;
        }
    }
}

/// `res = M vec` on the dofs `dofind` of one island (`mj_mulM_island`): `res` compressed to
/// them, `vec` compressed too unless `vec_unc`; `islandind` maps a dof to its place in the
/// island. An island holds whole trees, so every ancestor of its dofs is in it.
pub fn mul_m_island(
    m: &Model,
    d: &Data,
    res: &mut [Real],
    vec: &[Real],
    vec_unc: bool,
    dofind: &[i32],
    islandind: &[i32],
) {
    let qm = &*d.qM;
    let n = dofind.len();
    res[..n].fill(0.0);
    for k in 0..n {
        let i = dofind[k] as usize;
        let mut adr = m.dof_Madr[i] as usize;
        let vi = if vec_unc { vec[i] } else { vec[k] };
        res[k] = qm[adr] * vi;
        if m.dof_simplenum[i] != 0 {
            continue;
        }
        let mut j = m.dof_parentid[i];
        while j >= 0 {
            adr += 1;
            let ju = j as usize;
            let l = islandind[ju] as usize;
            let vj = if vec_unc { vec[ju] } else { vec[l] };
            res[k] += qm[adr] * vj;
            res[l] += qm[adr] * vi;
            j = m.dof_parentid[ju];
        }
    }
}
