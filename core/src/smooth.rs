//! Smooth dynamics (MuJoCo's `engine_core_smooth.c`): forward kinematics, center-of-mass
//! quantities, composite rigid-body inertia, the sparse `L'DL` factorization of the mass matrix
//! and its solves, com-based velocities, and recursive Newton-Euler.
//!
//! The math follows "Computation › Simulation pipeline" and "Computation › Notation" of the
//! MuJoCo documentation: spatial vectors are `[rotation; translation]`, expressed in the world
//! frame at the center of mass of each kinematic tree (`subtree_com` of the tree's root body).

use crate::arena::{ArenaError, ArenaField, ArenaMask, Stack};
use crate::data::Data;
use crate::math::mat::{rot_vec_mat, rot_vec_mat_t, transpose};
use crate::math::quat::{axis_angle2quat, mul_quat, quat2mat, rot_vec_quat};
use crate::math::scalar::over_diag;
use crate::math::spatial::{
    cross_force, cross_motion, dof_com, inert_com, mul_dof_vec, mul_inert_vec,
};
use crate::math::vec::{
    add3, add_to3, add_to_scl, add_to_scl3, cross, dot6, normalize3, normalize4, scl3, sub3,
};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::*;
use crate::types::*;

/// Forward kinematics (`mj_kinematics`): global positions and orientations of bodies
/// (`xpos`, `xquat`, `xmat`), their inertial frames (`xipos`, `ximat`), joint anchors and axes
/// (`xanchor`, `xaxis`), geoms and sites. Normalizes the quaternions in `qpos` and `mocap_quat`.
pub fn kinematics(m: &Model, d: &mut Data) {
    normalize_quat(m, d.qpos);
    for q in v4m(d.mocap_quat) {
        normalize4(q);
    }

    // the views are made once, cut to the bodies: body i's entries then need no bounds checks
    // in the loop, only the parents' frames it reads
    let nb = m.nbody;
    let (xpos, xquat, xmat) = (
        &mut v3m(d.xpos)[..nb],
        &mut v4m(d.xquat)[..nb],
        &mut v9m(d.xmat)[..nb],
    );
    let (xipos, ximat) = (&mut v3m(d.xipos)[..nb], &mut v9m(d.ximat)[..nb]);
    let (xanchor, xaxis) = (v3m(d.xanchor), v3m(d.xaxis));
    let (mocap_pos, mocap_quat) = (v3(d.mocap_pos), v4(d.mocap_quat));
    let (body_pos, body_quat) = (&v3(&m.body_pos)[..nb], &v4(&m.body_quat)[..nb]);
    let (body_ipos, body_iquat) = (&v3(&m.body_ipos)[..nb], &v4(&m.body_iquat)[..nb]);
    let (mocapid, parentid, sameframe) = (
        &m.body_mocapid[..nb],
        &m.body_parentid[..nb],
        &m.body_sameframe[..nb],
    );
    const EYE: [Real; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    xpos[0] = [0.0; 3];
    xquat[0] = [1.0, 0.0, 0.0, 0.0];
    xipos[0] = [0.0; 3];
    xmat[0] = EYE;
    ximat[0] = EYE;

    for i in 1..nb {
        let offset = match usize::try_from(mocapid[i]) {
            Ok(id) => (mocap_pos[id], mocap_quat[id]),
            Err(_) => (body_pos[i], body_quat[i]),
        };
        let pid = parentid[i] as usize;
        let parent = (pid != 0).then(|| ParentFrame {
            pos: &xpos[pid],
            mat: &xmat[pid],
            quat: &xquat[pid],
        });
        let (pos, mut quat) =
            pose_from_parent(m, i, parent, offset, d.qpos, false, |jid, anchor, axis| {
                xanchor[jid] = anchor;
                xaxis[jid] = axis;
            });
        normalize4(&mut quat);
        let mat = quat2mat(&quat);
        // the inertial frame (`mj_local2Global` on body_ipos, body_iquat)
        (xipos[i], ximat[i]) = match sameframe[i] {
            0 => {
                let mut ipos = rot_vec_mat(&body_ipos[i], &mat);
                add_to3(&mut ipos, &pos);
                (ipos, quat2mat(&mul_quat(&quat, &body_iquat[i])))
            }
            1 => (pos, mat),
            _ => (xipos[i], ximat[i]),
        };
        (xpos[i], xquat[i], xmat[i]) = (pos, quat, mat);
    }

    let frames = BodyFrames::new(d.xpos, d.xmat, d.xquat, d.xipos, d.ximat);
    place(
        &frames,
        &m.geom_bodyid,
        &m.geom_sameframe,
        &m.geom_pos,
        &m.geom_quat,
        d.geom_xpos,
        d.geom_xmat,
    );
    place(
        &frames,
        &m.site_bodyid,
        &m.site_sameframe,
        &m.site_pos,
        &m.site_quat,
        d.site_xpos,
        d.site_xmat,
    );
}

/// Global poses of objects (geoms or sites) given in their bodies' frames.
fn place(
    frames: &BodyFrames,
    bodyid: &[i32],
    sameframe: &[u8],
    pos: &[Real],
    quat: &[Real],
    xpos: &mut [Real],
    xmat: &mut [Real],
) {
    // a model without sites (most) skips the set-up of the views
    if bodyid.is_empty() {
        return;
    }
    let objects = v3m(xpos)
        .iter_mut()
        .zip(v9m(xmat))
        .zip(v3(pos).iter().zip(v4(quat)));
    for (((xpos, xmat), (pos, quat)), (&b, &sf)) in objects.zip(bodyid.iter().zip(sameframe)) {
        *xpos = frames.pos(pos, b as usize, sf);
        *xmat = frames.mat(quat, b as usize, sf);
    }
}

/// The global frame of a body's parent, as [`pose_from_parent`] reads it.
#[derive(Clone, Copy)]
pub(crate) struct ParentFrame<'f> {
    pub pos: &'f [Real; 3],
    pub mat: &'f [Real; 9],
    pub quat: &'f [Real; 4],
}

/// `mj_kinematics` for one body: its pose (not normalized) from its parent's frame (`None` for
/// the world), its fixed `offset` (position and orientation, or its mocap pose) and its joints
/// at `qpos`; calls `joint_frame(jid, xanchor, xaxis)` for each joint. With `normalize`, the
/// quaternions read from `qpos` are normalized first, as `mj_kinematics` normalizes `qpos`
/// before it starts (for a `qpos` that cannot be written, such as the model's `qpos0`).
#[inline]
pub(crate) fn pose_from_parent(
    m: &Model,
    i: usize,
    parent: Option<ParentFrame>,
    offset: ([Real; 3], [Real; 4]),
    qpos: &[Real],
    normalize: bool,
    mut joint_frame: impl FnMut(usize, [Real; 3], [Real; 3]),
) -> ([Real; 3], [Real; 4]) {
    let jntadr = m.body_jntadr[i].max(0) as usize;
    let jntnum = m.body_jntnum[i] as usize;
    let quat_at = |q: usize| {
        let mut quat = [qpos[q], qpos[q + 1], qpos[q + 2], qpos[q + 3]];
        if normalize {
            normalize4(&mut quat);
        }
        quat
    };

    // a free joint sets the pose directly
    if jntnum == 1 && m.jnt_type[jntadr] == JNT_FREE {
        let q = m.jnt_qposadr[jntadr] as usize;
        let pos = [qpos[q], qpos[q + 1], qpos[q + 2]];
        joint_frame(jntadr, pos, v3(&m.jnt_axis)[jntadr]);
        return (pos, quat_at(q + 3));
    }

    let (bodypos, bodyquat) = offset;
    let (mut xpos, mut xquat) = match parent {
        Some(p) => {
            let mut pos = rot_vec_mat(&bodypos, p.mat);
            add_to3(&mut pos, p.pos);
            (pos, mul_quat(p.quat, &bodyquat))
        }
        None => (bodypos, bodyquat),
    };

    for jid in jntadr..jntadr + jntnum {
        let qadr = m.jnt_qposadr[jid] as usize;
        let jnt_axis = &v3(&m.jnt_axis)[jid];
        let jnt_pos = &v3(&m.jnt_pos)[jid];
        let xaxis = rot_vec_quat(jnt_axis, &xquat);
        let mut xanchor = rot_vec_quat(jnt_pos, &xquat);
        add_to3(&mut xanchor, &xpos);

        match m.jnt_type[jid] {
            JNT_SLIDE => add_to_scl3(&mut xpos, &xaxis, qpos[qadr] - m.qpos0[qadr]),
            t => {
                let qloc = if t == JNT_BALL {
                    quat_at(qadr)
                } else {
                    axis_angle2quat(jnt_axis, qpos[qadr] - m.qpos0[qadr])
                };
                xquat = mul_quat(&xquat, &qloc);
                // rotation about the anchor, not the body origin
                xpos = sub3(&xanchor, &rot_vec_quat(jnt_pos, &xquat));
            }
        }
        joint_frame(jid, xanchor, xaxis);
    }
    (xpos, xquat)
}

/// Center-of-mass quantities (`mj_comPos`): `subtree_com`, the inertias `cinert` and the motion
/// dofs `cdof`, both in the com-based frame of their tree.
pub fn com_pos(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    let mut stack = d.arena.stack();
    let nb = m.nbody;
    let mass_subtree = &mut stack.alloc_zeroed::<Real>(nb)?[..nb];
    // the views are cut once to the bodies (and joints): the loops then check only the
    // indices they read from the model (parents, roots, dof addresses)
    let subtree_com = &mut v3m(d.subtree_com)[..nb];
    let (xipos, ximat) = (&v3(d.xipos)[..nb], &v9(d.ximat)[..nb]);
    let (body_mass, parentid, rootid) = (
        &m.body_mass[..nb],
        &m.body_parentid[..nb],
        &m.body_rootid[..nb],
    );
    subtree_com.fill([0.0; 3]);

    // backward pass: mass-weighted sums, then the com of each subtree; the world, its own
    // parent, last and outside the loop (no branch per body)
    let own = |i: usize, subtree_com: &mut [[Real; 3]], mass_subtree: &mut [Real]| {
        add_to_scl3(&mut subtree_com[i], &xipos[i], body_mass[i]);
        mass_subtree[i] += body_mass[i];
    };
    let com = |i: usize, subtree_com: &[[Real; 3]], mass_subtree: &[Real]| {
        if mass_subtree[i] < MINVAL {
            xipos[i]
        } else {
            scl3(&subtree_com[i], 1.0 / mass_subtree[i].max(MINVAL))
        }
    };
    for i in (1..nb).rev() {
        own(i, subtree_com, mass_subtree);
        let j = in_tree(parentid[i] as usize, i - 1);
        let child = subtree_com[i];
        add_to3(&mut subtree_com[j], &child);
        mass_subtree[j] += mass_subtree[i];
        subtree_com[i] = com(i, subtree_com, mass_subtree);
    }
    if nb > 0 {
        own(0, subtree_com, mass_subtree);
        subtree_com[0] = com(0, subtree_com, mass_subtree);
    }

    let cinert = &mut v10m(d.cinert)[..nb];
    let inertia = &v3(&m.body_inertia)[..nb];
    cinert[0] = [0.0; 10];
    let last_body = nb - 1;
    for i in 1..nb {
        let offset = sub3(&xipos[i], &subtree_com[in_tree(rootid[i] as usize, i)]);
        cinert[i] = inert_com(&inertia[i], &ximat[i], &offset, body_mass[i]);
    }

    let nj = m.njnt;
    let (dofadr, jnt_body, jnt_type) =
        (&m.jnt_dofadr[..nj], &m.jnt_bodyid[..nj], &m.jnt_type[..nj]);
    let (xanchor, xaxis, xmat) = (&v3(d.xanchor)[..nj], &v3(d.xaxis)[..nj], v9(d.xmat));
    let cdof = v6m(d.cdof);
    for j in 0..nj {
        let (da, bi) = (dofadr[j] as usize, in_tree(jnt_body[j] as usize, last_body));
        let root = in_tree(rootid[bi] as usize, last_body);
        let offset = sub3(&subtree_com[root], &xanchor[j]);
        match jnt_type[j] {
            JNT_FREE => {
                // translations along the world axes, then rotations as a ball joint
                for i in 0..3 {
                    let mut c = [0.0; 6];
                    c[3 + i] = 1.0;
                    cdof[da + i] = c;
                }
                ball_dofs(&mut cdof[da + 3..da + 6], &xmat[bi], &offset);
            }
            JNT_BALL => ball_dofs(&mut cdof[da..da + 3], &xmat[bi], &offset),
            JNT_SLIDE => cdof[da] = dof_com(&xaxis[j], None),
            _ => cdof[da] = dof_com(&xaxis[j], Some(&offset)),
        }
    }
    Ok(())
}

/// The three rotational dofs of a ball joint: rotations about the body frame's axes.
fn ball_dofs(cdof: &mut [[Real; 6]], xmat: &[Real; 9], offset: &[Real; 3]) {
    for (i, c) in cdof.iter_mut().enumerate() {
        let axis = [xmat[i], xmat[i + 3], xmat[i + 6]];
        *c = dof_com(&axis, Some(offset));
    }
}

/// Camera and light poses (`mj_camlight`), following their tracking modes.
pub fn camlight(m: &Model, d: &mut Data) {
    let frames = BodyFrames::new(d.xpos, d.xmat, d.xquat, d.xipos, d.ximat);
    let (xpos, xquat, subtree_com) = (v3(d.xpos), v4(d.xquat), v3(d.subtree_com));
    let (cam_xpos, cam_xmat) = (v3m(d.cam_xpos), v9m(d.cam_xmat));
    for i in 0..m.ncam {
        let id = m.cam_bodyid[i] as usize;
        let mode = m.cam_mode[i];
        // a tracking camera's pose replaces the one from its body frame, which is not computed
        (cam_xpos[i], cam_xmat[i]) = match mode {
            CAMLIGHT_TRACK => (add3(&xpos[id], &v3(&m.cam_pos0)[i]), v9(&m.cam_mat0)[i]),
            CAMLIGHT_TRACKCOM => (
                add3(&subtree_com[id], &v3(&m.cam_poscom0)[i]),
                v9(&m.cam_mat0)[i],
            ),
            _ => {
                let pos = frames.pos(&v3(&m.cam_pos)[i], id, 0);
                let mut xmat = frames.mat(&v4(&m.cam_quat)[i], id, 0);
                if let (CAMLIGHT_TARGETBODY | CAMLIGHT_TARGETBODYCOM, Ok(target)) =
                    (mode, usize::try_from(m.cam_targetbodyid[i]))
                {
                    let look = target_point(mode, xpos, subtree_com, target);
                    xmat = look_at(&pos, &look);
                }
                (pos, xmat)
            }
        };
    }

    let (light_xpos, light_xdir) = (v3m(d.light_xpos), v3m(d.light_xdir));
    for i in 0..m.nlight {
        let id = m.light_bodyid[i] as usize;
        let mode = m.light_mode[i];
        let (pos, mut xdir) = match mode {
            CAMLIGHT_TRACK => (add3(&xpos[id], &v3(&m.light_pos0)[i]), v3(&m.light_dir0)[i]),
            CAMLIGHT_TRACKCOM => (
                add3(&subtree_com[id], &v3(&m.light_poscom0)[i]),
                v3(&m.light_dir0)[i],
            ),
            _ => {
                let pos = frames.pos(&v3(&m.light_pos)[i], id, 0);
                let mut xdir = rot_vec_quat(&v3(&m.light_dir)[i], &xquat[id]);
                if let (CAMLIGHT_TARGETBODY | CAMLIGHT_TARGETBODYCOM, Ok(target)) =
                    (mode, usize::try_from(m.light_targetbodyid[i]))
                {
                    xdir = sub3(&target_point(mode, xpos, subtree_com, target), &pos);
                }
                (pos, xdir)
            }
        };
        normalize3(&mut xdir);
        light_xpos[i] = pos;
        light_xdir[i] = xdir;
    }
}

/// The point a targeting camera or light looks at: the target body's origin or its subtree com.
fn target_point(
    mode: i32,
    xpos: &[[Real; 3]],
    subtree_com: &[[Real; 3]],
    target: usize,
) -> [Real; 3] {
    if mode == CAMLIGHT_TARGETBODY {
        xpos[target]
    } else {
        subtree_com[target]
    }
}

/// Camera frame at `pos` looking at `target`, x axis horizontal (MuJoCo's targetbody mode).
fn look_at(pos: &[Real; 3], target: &[Real; 3]) -> [Real; 9] {
    let mut z = sub3(pos, target);
    normalize3(&mut z);
    let mut x = cross(&[0.0, 0.0, 1.0], &z);
    normalize3(&mut x);
    let mut y = cross(&z, &x);
    normalize3(&mut y);
    let rows = [x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]];
    let mut mat = [0.0; 9];
    transpose(&mut mat, &rows, 3, 3);
    mat
}

/// Composite rigid-body inertias `crb` and the sparse joint-space inertia matrix `qM`
/// (`mj_crb`; "Computation › Simulation pipeline › Inertia").
pub fn crb(m: &Model, d: &mut Data) {
    crb_into(m, d.cinert, d.cdof, d.crb, d.qM);
}

/// [`crb`] on the arrays it reads (`cinert`, `cdof`) and writes (`crb`, `qM`), so that it can
/// run beside the collision stage, which touches none of them.
pub fn crb_into(m: &Model, cinert: &[Real], cdof: &[Real], crb: &mut [Real], qm: &mut [Real]) {
    crb.copy_from_slice(cinert);
    let nb = m.nbody;
    let (crb_bodies, parentid) = (&mut v10m(crb)[..nb], &m.body_parentid[..nb]);
    // children of the world add into its entry too, without a branch per body, and the
    // world's entry is restored afterwards: the other sums are the same, in the same order
    for i in (1..nb).rev() {
        let child = crb_bodies[i];
        for (a, b) in crb_bodies[parentid[i] as usize]
            .iter_mut()
            .zip(child.iter())
        {
            *a += b;
        }
    }
    if let (Some(world), Some(world_cinert)) = (crb_bodies.first_mut(), v10(cinert).first()) {
        *world = *world_cinert;
    }

    qm.fill(0.0);
    let nv = m.nv;
    // every per-dof array cut to nv once: dof i and its ancestors j need no further checks
    let (crb10, cdof6, parent) = (v10(crb), &v6(cdof)[..nv], &m.dof_parentid[..nv]);
    let (madr, simplenum, bodyid) = (
        &m.dof_Madr[..nv],
        &m.dof_simplenum[..nv],
        &m.dof_bodyid[..nv],
    );
    let (armature, m0) = (&m.dof_armature[..nv], &m.dof_M0[..nv]);
    // no matrix, no dofs (a validated model)
    let Some(last) = qm.len().checked_sub(1) else {
        return;
    };
    let mut i = 0;
    while i < nv {
        // simple dofs: the diagonal is the precomputed dof_M0
        let simple = simplenum[i] as usize;
        if simple > 0 {
            for k in i..i + simple {
                qm[madr[k] as usize] = m0[k];
            }
            i += simple;
            continue;
        }
        // row i of qM: dof i, then one entry per ancestor, nearest first, until the parent
        // chain ends (-1, past cdof): the chain is the row's only test (no row slice to cut)
        let mut adr = madr[i] as usize;
        qm[in_tree(adr, last)] = armature[i];
        let buf = mul_inert_vec(&crb10[bodyid[i] as usize], &cdof6[i]);
        let mut j = i;
        while let Some(c) = cdof6.get(j) {
            qm[in_tree(adr, last)] += dot6(c, &buf);
            adr += 1;
            j = parent[j] as usize;
        }
        i += 1;
    }
}

/// Sparse `L'DL` factorization of a matrix `mat` in `qM`'s layout (`mj_factorI`): `qld` gets `L`
/// below the diagonal and `D` on it, `diag_inv` gets `1/D`, `diag_sqrt_inv` (optional)
/// `1/sqrt(D)`. Diagonals below `mjMINVAL` are raised to it with a `WARN_INERTIA` warning.
pub fn factor_i(
    m: &Model,
    warnings: &mut [crate::data::WarningStat],
    mat: &[Real],
    qld: &mut [Real],
    diag_inv: &mut [Real],
    diag_sqrt_inv: Option<&mut [Real]>,
) {
    let nv = m.nv;
    let (madr, parent, simple) = (
        &m.dof_Madr[..nv],
        &m.dof_parentid[..nv],
        &m.dof_simplenum[..nv],
    );
    let qld = &mut qld[..m.nM];
    qld.copy_from_slice(&mat[..m.nM]);
    // rows are contiguous and in dof order: walking backwards, `rows` ends where row k + 1
    // starts, so cutting it at row k's start leaves row k and every row before it
    let mut rows = &mut *qld;
    for k in (0..nv).rev() {
        let (before, row_k) = core::mem::take(&mut rows).split_at_mut(madr[k] as usize);
        rows = before;
        // row k is its diagonal, then one entry per ancestor, nearest first
        let Some((diag, below)) = row_k.split_first_mut() else {
            continue;
        };
        if *diag < MINVAL {
            let w = &mut warnings[WARN_INERTIA as usize];
            w.lastinfo = k as i32;
            w.number += 1;
            *diag = MINVAL;
        }
        if simple[k] == 0 {
            eliminate_row(rows, below, *diag, madr, parent, parent[k]);
        }
    }
    // 1/D and 1/sqrt(D) in one pass over the diagonal, as `mj_factorI`
    match diag_sqrt_inv {
        Some(s) => {
            let invs = diag_inv[..nv].iter_mut().zip(&mut s[..nv]);
            for ((inv, sqrt_inv), &adr) in invs.zip(madr) {
                let d = qld[adr as usize];
                *inv = 1.0 / d;
                *sqrt_inv = 1.0 / crate::math::scalar::sqrt(d);
            }
        }
        None => {
            for (inv, &adr) in diag_inv[..nv].iter_mut().zip(madr) {
                *inv = 1.0 / qld[adr as usize];
            }
        }
    }
}

/// [`factor_i`]'s elimination of one row `k` from the rows of its ancestors (`rows_before`:
/// qLD up to row k): `below` is row k past its diagonal `diag`, entry j for the j-th ancestor,
/// the first being `first`. The ancestor's row i (i and its own ancestors) is exactly as long as
/// the rest of row k from its entry on (the validated tree), so the update needs no row lengths.
#[inline(always)]
fn eliminate_row(
    rows_before: &mut [Real],
    below: &mut [Real],
    diag: Real,
    madr: &[i32],
    parent: &[i32],
    first: i32,
) {
    let mut i = first as usize;
    for j in 0..below.len() {
        let tail = &mut below[j..];
        let tmp = over_diag(tail[0], diag);
        // past the root i is -1 as usize, never read
        let ic = in_tree(i, madr.len() - 1);
        let start = madr[ic] as usize;
        add_to_scl_short(&mut rows_before[start..][..tail.len()], tail, -tmp);
        tail[0] = tmp;
        i = parent[ic] as usize;
    }
}

/// `res += vec * scl` (`mju_addToScl`) with rows of one to three entries unrolled: the rows
/// of [`eliminate_row`] are as long as an ancestor's depth, mostly too short for the general
/// kernel's vector loops, whose set-up and exits cost more than the few updates.
#[inline(always)]
fn add_to_scl_short(res: &mut [Real], vec: &[Real], scl: Real) {
    match (res, vec) {
        ([r0], [v0]) => *r0 += *v0 * scl,
        ([r0, r1], [v0, v1]) => {
            *r0 += *v0 * scl;
            *r1 += *v1 * scl;
        }
        ([r0, r1, r2], [v0, v1, v2]) => {
            *r0 += *v0 * scl;
            *r1 += *v1 * scl;
            *r2 += *v2 * scl;
        }
        (res, vec) => add_to_scl(res, vec, scl),
    }
}

/// Factorizes the mass matrix (`mj_factorM`): `qLD`, `qLDiagInv`, `qLDiagSqrtInv`.
pub fn factor_m(m: &Model, d: &mut Data) {
    factor_i(
        m,
        &mut d.warning,
        d.qM,
        d.qLD,
        d.qLDiagInv,
        Some(d.qLDiagSqrtInv),
    );
}

/// Solves `L'DL x = x` in place for `n` vectors stored one after another (`mj_solveLD`).
pub fn solve_ld(m: &Model, x: &mut [Real], n: usize, qld: &[Real], diag_inv: &[Real]) {
    let nv = m.nv;
    // most calls solve one vector: without the per-vector cut of the loop below
    if n == 1 {
        solve_ld_vec(m, &mut x[..nv], qld, diag_inv);
        return;
    }
    // one vector after another, cut by index (no division for the count, as chunks would)
    for v in 0..n {
        solve_ld_vec(m, &mut x[v * nv..(v + 1) * nv], qld, diag_inv);
    }
}

/// [`solve_ld`] for one vector `x` of length `nv`.
// always inlined: [`solve_ld`] runs it on its own and in its loop over vectors
#[inline(always)]
fn solve_ld_vec(m: &Model, x: &mut [Real], qld: &[Real], diag_inv: &[Real]) {
    let nv = m.nv;
    let (parent, simple, madr, diag_inv) = (
        &m.dof_parentid[..nv],
        &m.dof_simplenum[..nv],
        &m.dof_Madr[..nv],
        &diag_inv[..nv],
    );
    let qld = &qld[..m.nM];
    // no matrix, no dofs (a validated model)
    let Some(last) = qld.len().checked_sub(1) else {
        return;
    };
    // as long as `parent`: an ancestor index checked against one is in bounds for the other
    let x = &mut x[..nv];
    solve_lt(m, qld, x);
    // x <- inv(D) x, then x <- inv(L) x, row by row: x[i] is scaled before its ancestors
    // (scaled already, j < i) are subtracted, the order of the two separate passes; x[i] in a
    // register (its ancestors are other entries); runs of simple dofs are only scaled
    let mut i = 0;
    while i < nv {
        let run = simple[i] as usize;
        if run > 0 {
            let end = (i + run).min(nv);
            for (xk, &dk) in x[i..end].iter_mut().zip(&diag_inv[i..end]) {
                *xk *= dk;
            }
            i = end;
            continue;
        }
        let mut xi = x[i] * diag_inv[i];
        let mut adr = madr[i] as usize;
        let mut j = parent[i] as usize;
        // row i of L below the diagonal: one entry per ancestor, nearest first, until the
        // parent chain ends (-1, no entry of x)
        while let Some(&xj) = x.get(j) {
            adr += 1;
            xi -= qld[in_tree(adr, last)] * xj;
            j = parent[j] as usize;
        }
        x[i] = xi;
        i += 1;
    }
}

/// An index that the validated kinematic tree keeps at or below `last` (an ancestor's dof, an
/// address in a row of `qM`/`qLD`, a body's parent or root, a joint's body), clamped to it:
/// the clamp never moves it, and spares a bounds check per entry; in the inner loops over a
/// dof's ancestors that check would double the branches (the end of the parent chain, or of
/// the row, is then their only test).
#[inline(always)]
fn in_tree(index: usize, last: usize) -> usize {
    index.min(last)
}

/// `x <- inv(L') x` for one vector (`x` of length `nv`), skipping simple dofs and zeros of `x`:
/// the first half of [`solve_ld`] and of [`solve_m2`].
// always inlined: both callers run it once per vector, in their own loops
#[inline(always)]
fn solve_lt(m: &Model, qld: &[Real], x: &mut [Real]) {
    let nv = m.nv;
    let (parent, simple, madr) = (
        &m.dof_parentid[..nv],
        &m.dof_simplenum[..nv],
        &m.dof_Madr[..nv],
    );
    let qld = &qld[..m.nM];
    // no matrix, no dofs (a validated model)
    let Some(last) = qld.len().checked_sub(1) else {
        return;
    };
    // as long as `parent`: an ancestor index checked against one is in bounds for the other
    let x = &mut x[..nv];
    for i in (0..nv).rev() {
        if simple[i] != 0 || x[i] == 0.0 {
            continue;
        }
        // row i of L below the diagonal: one entry per ancestor, nearest first, until the parent
        // chain ends (-1, no entry of x: the validated tree makes the row exactly that long)
        let xi = x[i];
        let mut adr = madr[i] as usize;
        let mut j = parent[i] as usize;
        while let Some(xj) = x.get_mut(j) {
            adr += 1;
            *xj -= qld[in_tree(adr, last)] * xi;
            j = parent[j] as usize;
        }
    }
}

/// `x = inv(M) x` on the dofs `dofind` of one island, `x` compressed to them
/// (`mj_solveM_island`); `islandind` maps a dof to its place in the island.
pub fn solve_m_island(m: &Model, d: &Data, x: &mut [Real], dofind: &[i32], islandind: &[i32]) {
    let (qld, diag_inv) = (&*d.qLD, &*d.qLDiagInv);
    let n = dofind.len();
    // x <- inv(L') x, skipping zeros of x
    for k in (0..n).rev() {
        let i = dofind[k] as usize;
        if m.dof_simplenum[i] != 0 || x[k] == 0.0 {
            continue;
        }
        let xk = x[k];
        let mut adr = m.dof_Madr[i] as usize + 1;
        let mut j = m.dof_parentid[i];
        while j >= 0 {
            x[islandind[j as usize] as usize] -= qld[adr] * xk;
            adr += 1;
            j = m.dof_parentid[j as usize];
        }
    }
    for k in 0..n {
        x[k] *= diag_inv[dofind[k] as usize];
    }
    // x <- inv(L) x (x[k] in a register: its ancestors are other entries)
    for k in 0..n {
        let i = dofind[k] as usize;
        if m.dof_simplenum[i] != 0 {
            continue;
        }
        let mut xk = x[k];
        let mut adr = m.dof_Madr[i] as usize + 1;
        let mut j = m.dof_parentid[i];
        while j >= 0 {
            xk -= qld[adr] * x[islandind[j as usize] as usize];
            adr += 1;
            j = m.dof_parentid[j as usize];
        }
        x[k] = xk;
    }
}

/// `x = inv(M) y` for `n` vectors with the factorization in `d` (`mj_solveM`).
pub fn solve_m(m: &Model, d: &Data, x: &mut [Real], y: &[Real], n: usize) {
    let len = n * m.nv;
    x[..len].copy_from_slice(&y[..len]);
    solve_ld(m, x, n, d.qLD, d.qLDiagInv);
}

/// `x = inv(M) x` in place, for `n` vectors.
pub fn solve_m_in_place(m: &Model, d: &Data, x: &mut [Real], n: usize) {
    solve_ld(m, x, n, d.qLD, d.qLDiagInv);
}

/// Half of the solve: `x = sqrt(inv(D)) inv(L') y` for `n` vectors (`mj_solveM2`).
pub fn solve_m2(m: &Model, d: &Data, x: &mut [Real], y: &[Real], n: usize) {
    let nv = m.nv;
    let x = &mut x[..n * nv];
    x.copy_from_slice(&y[..n * nv]);
    let sqrt_inv = &d.qLDiagSqrtInv[..nv];
    for x in x.chunks_exact_mut(nv.max(1)) {
        solve_lt(m, d.qLD, x);
        for (xi, &s) in x.iter_mut().zip(sqrt_inv) {
            *xi *= s;
        }
    }
}

/// Com-based body velocities `cvel` and dof derivatives `cdof_dot` (`mj_comVel`).
pub fn com_vel(m: &Model, d: &mut Data) {
    let (nb, nv) = (m.nbody, m.nv);
    // the views are cut once to the bodies and dofs: the loop then checks only the parent's
    // velocity and the dof ranges of each body
    let cvel_all = &mut v6m(d.cvel)[..nb];
    let cdof_dot = &mut v6m(d.cdof_dot)[..nv];
    let (cdof, qvel) = (&v6(d.cdof)[..nv], &d.qvel[..nv]);
    let (dofadr, dofnum, parentid) = (
        &m.body_dofadr[..nb],
        &m.body_dofnum[..nb],
        &m.body_parentid[..nb],
    );
    let dof_jntid = &m.dof_jntid[..nv];
    cvel_all[0] = [0.0; 6];
    for i in 1..nb {
        let bda = dofadr[i].max(0) as usize;
        let end = bda + dofnum[i] as usize;
        let mut cvel = cvel_all[parentid[i] as usize];
        let mut dof = bda;
        while dof < end {
            match m.jnt_type[dof_jntid[dof] as usize] {
                JNT_FREE => {
                    // translations have cdof_dot = 0; the rotations follow as a ball joint
                    let (t, r) = (dof..dof + 3, dof + 3..dof + 6);
                    cdof_dot[t.clone()].fill([0.0; 6]);
                    add_dof_velocity(&mut cvel, &cdof[t.clone()], &qvel[t]);
                    joint_velocity(
                        &mut cvel,
                        &mut cdof_dot[r.clone()],
                        &cdof[r.clone()],
                        &qvel[r],
                    );
                    dof += 6;
                }
                JNT_BALL => {
                    let r = dof..dof + 3;
                    joint_velocity(
                        &mut cvel,
                        &mut cdof_dot[r.clone()],
                        &cdof[r.clone()],
                        &qvel[r],
                    );
                    dof += 3;
                }
                // one dof, indexed once (the slices of a joint's dofs check their ranges twice)
                _ => {
                    joint_velocity(
                        &mut cvel,
                        core::slice::from_mut(&mut cdof_dot[dof]),
                        core::slice::from_ref(&cdof[dof]),
                        core::slice::from_ref(&qvel[dof]),
                    );
                    dof += 1;
                }
            }
        }
        cvel_all[i] = cvel;
    }
}

/// The dofs of one joint (or a free joint's rotations): `cdof_dot` from the velocity before
/// them (for one dof that is exact because cdof x cdof = 0), then their velocity added.
#[inline(always)]
fn joint_velocity(
    cvel: &mut [Real; 6],
    cdof_dot: &mut [[Real; 6]],
    cdof: &[[Real; 6]],
    qvel: &[Real],
) {
    for (dot, c) in cdof_dot.iter_mut().zip(cdof) {
        *dot = cross_motion(cvel, c);
    }
    add_dof_velocity(cvel, cdof, qvel);
}

/// `cvel += cdof * qvel` over the few dofs of one joint.
fn add_dof_velocity(cvel: &mut [Real; 6], cdof: &[[Real; 6]], qvel: &[Real]) {
    let tmp = mul_dof_vec(cdof, qvel);
    for k in 0..6 {
        cvel[k] += tmp[k];
    }
}

/// Subtree linear velocities and angular momenta (`mj_subtreeVel`).
pub fn subtree_vel(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    d.with_stack(|d, stack| {
        let body_vel = v6m(stack.alloc::<Real>(6 * m.nbody)?);
        subtree_vel_with(m, d, body_vel);
        Ok(())
    })
}

fn subtree_vel_with(m: &Model, d: &mut Data, body_vel: &mut [[Real; 6]]) {
    for i in 0..m.nbody {
        let vel = object_velocity(m, d, OBJ_BODY, i, false).unwrap_or([0.0; 6]);
        body_vel[i] = vel;
        v3m(d.subtree_linvel)[i] = scl3(&[vel[3], vel[4], vel[5]], m.body_mass[i]);
        let ximat = &v9(d.ximat)[i];
        let mut dv = rot_vec_mat_t(&[vel[0], vel[1], vel[2]], ximat);
        for k in 0..3 {
            dv[k] *= m.body_inertia[3 * i + k];
        }
        v3m(d.subtree_angmom)[i] = rot_vec_mat(&dv, ximat);
    }

    for i in (0..m.nbody).rev() {
        if i > 0 {
            let child = v3(d.subtree_linvel)[i];
            add_to3(
                &mut v3m(d.subtree_linvel)[m.body_parentid[i] as usize],
                &child,
            );
        }
        let lin = v3(d.subtree_linvel)[i];
        v3m(d.subtree_linvel)[i] = scl3(&lin, 1.0 / m.body_subtreemass[i].max(MINVAL));
    }

    for i in (1..m.nbody).rev() {
        let parent = m.body_parentid[i] as usize;
        let bv = &body_vel[i];
        // momentum of body i about its subtree com
        let dx = sub3(&v3(d.xipos)[i], &v3(d.subtree_com)[i]);
        let dv = sub3(&[bv[3], bv[4], bv[5]], &v3(d.subtree_linvel)[i]);
        let dl = cross(&dx, &scl3(&dv, m.body_mass[i]));
        add_to3(&mut v3m(d.subtree_angmom)[i], &dl);
        let own = v3(d.subtree_angmom)[i];
        add_to3(&mut v3m(d.subtree_angmom)[parent], &own);
        // momentum of subtree i about the parent's subtree com
        let dx = sub3(&v3(d.subtree_com)[i], &v3(d.subtree_com)[parent]);
        let dv = sub3(&v3(d.subtree_linvel)[i], &v3(d.subtree_linvel)[parent]);
        let dl = cross(&dx, &scl3(&dv, m.body_subtreemass[i]));
        add_to3(&mut v3m(d.subtree_angmom)[parent], &dl);
    }
}

/// Recursive Newton-Euler (`mj_rne`): `result = M(qpos) qacc + C(qpos, qvel)`, or only the bias
/// `C` (Coriolis, centrifugal, gravitational) when `flg_acc` is false.
pub fn rne(
    m: &Model,
    d: &Data,
    flg_acc: bool,
    result: &mut [Real],
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let mut frame = stack.frame();
    let (nb, nv) = (m.nbody, m.nv);
    // the views are cut once to the bodies and dofs: the loops then check only the indices
    // they read from the model (parents, dof ranges, dof bodies)
    // one allocation for both (the set-up of an allocation costs more than the split)
    let (cacc, cfrc) = frame.alloc::<Real>(12 * nb)?.split_at_mut(6 * nb);
    let (cacc, cfrc) = (&mut v6m(cacc)[..nb], &mut v6m(cfrc)[..nb]);
    let (cinert, cvel) = (&v10(d.cinert)[..nb], &v6(d.cvel)[..nb]);
    let (dofadr, dofnum, parentid) = (
        &m.body_dofadr[..nb],
        &m.body_dofnum[..nb],
        &m.body_parentid[..nb],
    );
    let (cdof, cdof_dot) = (&v6(d.cdof)[..nv], &v6(d.cdof_dot)[..nv]);
    let (qvel, qacc) = (&d.qvel[..nv], &d.qacc[..nv]);

    cacc[0] = [0.0; 6];
    if !disabled(m, DSBL_GRAVITY) {
        let g = scl3(&m.opt.gravity, -1.0);
        cacc[0][3..].copy_from_slice(&g);
    }

    for i in 1..nb {
        let bda = dofadr[i].max(0) as usize;
        let dofs = bda..bda + dofnum[i] as usize;
        let tmp = mul_dof_vec(&cdof_dot[dofs.clone()], &qvel[dofs.clone()]);
        let mut acc = add6(&cacc[parentid[i] as usize], &tmp);
        if flg_acc {
            let tmp = mul_dof_vec(&cdof[dofs.clone()], &qacc[dofs]);
            acc = add6(&acc, &tmp);
        }
        cacc[i] = acc;
        cfrc[i] = body_force(&cinert[i], &cvel[i], &acc);
    }

    // children of the world add into its entry too, without a branch per body; no dof reads
    // the world's entry, which is zeroed afterwards: the other sums are the same, in order
    for i in (1..nb).rev() {
        let child = cfrc[i];
        let p = &mut cfrc[parentid[i] as usize];
        *p = add6(p, &child);
    }
    if let Some(world) = cfrc.first_mut() {
        *world = [0.0; 6];
    }

    let dofs = result[..nv].iter_mut().zip(cdof).zip(&m.dof_bodyid[..nv]);
    for ((r, cdof), &b) in dofs {
        *r = dot6(cdof, &cfrc[b as usize]);
    }
    Ok(())
}

/// Net force on a body: `cinert * cacc + cvel x (cinert * cvel)`. Always inlined: called, its
/// 6-vector came back through memory written in pieces and was read in 32-byte loads that
/// waited on failed store forwards (a fifth of `rne`'s time on hopper, by perf).
#[inline(always)]
fn body_force(cinert: &[Real; 10], cvel: &[Real; 6], cacc: &[Real; 6]) -> [Real; 6] {
    let f = mul_inert_vec(cinert, cacc);
    let momentum = mul_inert_vec(cinert, cvel);
    add6(&f, &cross_force(cvel, &momentum))
}

fn add6(a: &[Real; 6], b: &[Real; 6]) -> [Real; 6] {
    core::array::from_fn(|k| a[k] + b[k])
}

/// RNE with the constraint forces known (`mj_rnePostConstraint`): body accelerations `cacc`,
/// external forces `cfrc_ext` (from `xfrc_applied`, contacts, and connect and weld
/// constraints) and internal forces `cfrc_int`.
pub fn rne_post_constraint(m: &Model, d: &mut Data) {
    let nbody = m.nbody;
    v6m(d.cacc)[0] = [0.0; 6];
    if !disabled(m, DSBL_GRAVITY) {
        let g = scl3(&m.opt.gravity, -1.0);
        d.cacc[3..6].copy_from_slice(&g);
    }

    d.cfrc_ext[..6 * nbody].fill(0.0);
    for i in 1..nbody {
        let x = v6(d.xfrc_applied)[i];
        if x.iter().any(|&v| v != 0.0) {
            // xfrc_applied is force:torque, spatial vectors are torque:force
            let f = [x[3], x[4], x[5], x[0], x[1], x[2]];
            let com = &v3(d.subtree_com)[m.body_rootid[i] as usize];
            let at_com =
                crate::math::spatial::transform_spatial(&f, true, com, &v3(d.xipos)[i], None);
            v6m(d.cfrc_ext)[i] = add6(&v6(d.cfrc_ext)[i], &at_com);
        }
    }
    contact_cfrc_ext(m, d);
    equality_cfrc_ext(m, d);

    // the views cut to the bodies once: body j's entries need no checks, only its parent's
    let (cacc_all, cfrc_int) = (&mut v6m(d.cacc)[..nbody], &mut v6m(d.cfrc_int)[..nbody]);
    let (cinert, cvel) = (&v10(d.cinert)[..nbody], &v6(d.cvel)[..nbody]);
    let cfrc_ext = &v6(d.cfrc_ext)[..nbody];
    let (dofadr, dofnum, parentid) = (
        &m.body_dofadr[..nbody],
        &m.body_dofnum[..nbody],
        &m.body_parentid[..nbody],
    );
    cfrc_int[0] = [0.0; 6];
    for j in 1..nbody {
        let dofs = dofadr[j].max(0) as usize..(dofadr[j].max(0) + dofnum[j]) as usize;
        let tmp = mul_dof_vec(&v6(d.cdof_dot)[dofs.clone()], &d.qvel[dofs.clone()]);
        let mut cacc = add6(&cacc_all[parentid[j] as usize], &tmp);
        let tmp = mul_dof_vec(&v6(d.cdof)[dofs.clone()], &d.qacc[dofs]);
        cacc = add6(&cacc, &tmp);
        cacc_all[j] = cacc;
        let f = body_force(&cinert[j], &cvel[j], &cacc);
        let ext = &cfrc_ext[j];
        cfrc_int[j] = core::array::from_fn(|k| f[k] - ext[k]);
    }
    for j in (1..nbody).rev() {
        let child = cfrc_int[j];
        let p = parentid[j] as usize;
        cfrc_int[p] = add6(&cfrc_int[p], &child);
    }
}

/// Adds `force` (torque:force, world-oriented, acting at `point`) to the `cfrc_ext` of `body`
/// (subtracts it when `!add`), moved to the body's subtree center of mass (`subtree_com`);
/// nothing for the world.
fn apply_cfrc_ext(
    m: &Model,
    subtree_com: &[Real],
    cfrc_ext: &mut [Real],
    body: usize,
    force: &[Real; 6],
    point: &[Real; 3],
    add: bool,
) {
    if body == 0 {
        return;
    }
    let com = v3(subtree_com)[m.body_rootid[body] as usize];
    let at_com = crate::math::spatial::transform_spatial(force, true, &com, point, None);
    let ext = &mut v6m(cfrc_ext)[body];
    for (e, f) in ext.iter_mut().zip(at_com) {
        if add {
            *e += f;
        } else {
            *e -= f;
        }
    }
}

/// The contact forces in `cfrc_ext`: each on the body of its second geom, and opposite on the
/// first's. Contacts without rows or with flexes are skipped. The arena views are made once.
fn contact_cfrc_ext(m: &Model, d: &mut Data) {
    let a = d
        .arena
        .arrays_only(ArenaMask::of(&[ArenaField::contact, ArenaField::efc_force]));
    let (subtree_com, cfrc_ext) = (&*d.subtree_com, &mut *d.cfrc_ext);
    for con in a.contact.iter().take(d.ncon) {
        if con.efc_address < 0 || con.geom[0] < 0 || con.geom[1] < 0 {
            continue;
        }
        // contact frame force:torque to world torque:force
        let local = contact_force_of(m, con, a.efc_force);
        let torque = rot_vec_mat_t(&[local[3], local[4], local[5]], &con.frame);
        let force = rot_vec_mat_t(&[local[0], local[1], local[2]], &con.frame);
        let world = [
            torque[0], torque[1], torque[2], force[0], force[1], force[2],
        ];
        let body = |g: i32| m.geom_bodyid[g as usize] as usize;
        let b = body(con.geom[0]);
        apply_cfrc_ext(m, subtree_com, cfrc_ext, b, &world, &con.pos, false);
        let b = body(con.geom[1]);
        apply_cfrc_ext(m, subtree_com, cfrc_ext, b, &world, &con.pos, true);
    }
}

/// The forces of connect and weld constraints in `cfrc_ext`: on body 1 at its anchor, and
/// opposite on body 2 at its point; connects transmit no torque.
fn equality_cfrc_ext(m: &Model, d: &mut Data) {
    let mut i = 0;
    let only = ArenaMask::of(&[
        ArenaField::efc_type,
        ArenaField::efc_id,
        ArenaField::efc_force,
    ]);
    while i < d.ne {
        let a = d.arena.arrays_only(only);
        let (Some(&ty), Some(&id)) = (a.efc_type.get(i), a.efc_id.get(i)) else {
            return;
        };
        // the first ne rows are equality rows
        if ty != CNSTR_EQUALITY {
            return;
        }
        let id = id as usize;
        let weld = m.eq_type[id] == EQ_WELD;
        if m.eq_type[id] == EQ_FLEX {
            // MuJoCo skips one row per edge that is not rigid, even when an edge without dofs
            // got no row
            i += flex_equality_rows(m, m.eq_obj1id[id] as usize).max(1);
            continue;
        }
        if !weld && m.eq_type[id] != EQ_CONNECT {
            i += 1;
            continue;
        }
        let rows = if weld { 6 } else { 3 };
        let Some(f) = a.efc_force.get(i..i + rows) else {
            return;
        };
        let mut world = [0.0, 0.0, 0.0, f[0], f[1], f[2]];
        if weld {
            world[..3].copy_from_slice(&f[3..6]);
        }
        let data = &m.eq_data[NEQDATA * id..NEQDATA * (id + 1)];
        let local = |k: usize| [data[3 * k], data[3 * k + 1], data[3 * k + 2]];
        // body 1's point is the weld's second vector and the connect's first
        let (p1, p2) = if weld {
            (local(1), local(0))
        } else {
            (local(0), local(1))
        };
        for (obj, point, add) in [(m.eq_obj1id[id], p1, true), (m.eq_obj2id[id], p2, false)] {
            let body = obj as usize;
            let pos = local2global_pos(d.xpos, d.xmat, d.xipos, &point, body, 0);
            apply_cfrc_ext(m, d.subtree_com, d.cfrc_ext, body, &world, &pos, add);
        }
        i += rows;
    }
}

/// Number of edges of flex `f` that are not rigid: the rows MuJoCo expects of its equality.
fn flex_equality_rows(m: &Model, f: usize) -> usize {
    let start = m.flex_edgeadr[f] as usize;
    let edges = &m.flexedge_rigid[start..start + m.flex_edgenum[f] as usize];
    edges.iter().filter(|&&r| r == 0).count()
}
