//! The smooth stages of the opt-in fast build (feature `fast`, issue 25): forward kinematics,
//! the center-of-mass quantities, the composite inertia and the bias forces, computing what
//! [`crate::smooth`] computes in a cheaper order, so not MuJoCo's bits.
//!
//! * Rotations by matrices: each body's orientation matrix is made once from its quaternion
//!   and rotates its joint axes, anchors and offsets, where the exact kinematics rotates every
//!   vector by the quaternion (`mju_rotVecQuat`, twice the arithmetic and a zero test).
//! * Fused multiply-adds ([`mul_add`]) in the 3D and spatial products.
//! * One forward pass for the body velocities (`mj_comVel`) and the bias forces' accelerations
//!   and forces (`mj_rne` without acceleration), which walk the same tree in the same order.
//!
//! The forward pipeline calls these in place of the exact stages (`forward::fwd_position`,
//! `forward::fwd_velocity`); every other caller (inverse dynamics, derivatives, the public
//! `kinematics`) keeps the exact ones. Accuracy: `tests/tests/fast.rs`,
//! `bench/fast_accuracy.py`.

use crate::arena::ArenaError;
use crate::data::Data;
use crate::math::fast::mul_add;
use crate::math::scalar::{cos, sin, sqrt};
use crate::math::vec::normalize4;
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::*;
use crate::types::*;

type Vec3 = [Real; 3];
type Quat = [Real; 4];
type Mat3 = [Real; 9];
type Motion = [Real; 6];

const EYE: Mat3 = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

/// `mat * v + add` (`add = 0` for a plain rotation), one rounding per row term.
#[inline(always)]
fn rot_add(mat: &Mat3, v: &Vec3, add: &Vec3) -> Vec3 {
    core::array::from_fn(|r| {
        let m = &mat[3 * r..3 * r + 3];
        mul_add(m[0], v[0], mul_add(m[1], v[1], mul_add(m[2], v[2], add[r])))
    })
}

/// Quaternion product `a * b`.
#[inline(always)]
fn mul_quat(a: &Quat, b: &Quat) -> Quat {
    [
        mul_add(
            a[0],
            b[0],
            -mul_add(a[1], b[1], mul_add(a[2], b[2], a[3] * b[3])),
        ),
        mul_add(
            a[0],
            b[1],
            mul_add(a[1], b[0], mul_add(a[2], b[3], -a[3] * b[2])),
        ),
        mul_add(
            a[0],
            b[2],
            mul_add(-a[1], b[3], mul_add(a[2], b[0], a[3] * b[1])),
        ),
        mul_add(
            a[0],
            b[3],
            mul_add(a[1], b[2], mul_add(-a[2], b[1], a[3] * b[0])),
        ),
    ]
}

/// `quat` scaled to unit length; a zero one (a model's zero `body_quat`, which the exact
/// kinematics' `normalize4` turns into the identity) gives the identity.
#[inline(always)]
fn unit(q: Quat) -> Quat {
    let n2 = mul_add(
        q[0],
        q[0],
        mul_add(q[1], q[1], mul_add(q[2], q[2], q[3] * q[3])),
    );
    // a product of unit quaternions is off unit length by rounding only: there one Newton step
    // of 1/sqrt from 1 (error 3/8 dev², under half an ulp below NEAR_UNIT) replaces the square
    // root and the division, which lie on the chain from each body to its children
    let dev = n2 - 1.0;
    let s = if dev.abs() < NEAR_UNIT {
        mul_add(-0.5, dev, 1.0)
    } else if n2 < MINVAL * MINVAL {
        return [1.0, 0.0, 0.0, 0.0];
    } else {
        1.0 / sqrt(n2)
    };
    [q[0] * s, q[1] * s, q[2] * s, q[3] * s]
}

/// Largest `|n² - 1|` at which [`unit`] scales by `1 - (n² - 1) / 2`: about `sqrt(EPSILON)`.
const NEAR_UNIT: Real = if cfg!(feature = "f32") { 1e-4 } else { 1e-8 };

/// Rotation matrix of a unit quaternion (`mju_quat2Mat` without its identity test).
#[inline(always)]
fn quat2mat(q: &Quat) -> Mat3 {
    let [w, x, y, z] = *q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, yy, zz) = (x * x2, y * y2, z * z2);
    let (xy, xz, yz) = (x * y2, x * z2, y * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    [
        1.0 - (yy + zz),
        xy - wz,
        xz + wy,
        xy + wz,
        1.0 - (xx + zz),
        yz - wx,
        xz - wy,
        yz + wx,
        1.0 - (xx + yy),
    ]
}

/// Forward kinematics (`mj_kinematics`, as [`crate::smooth::kinematics`]).
pub fn kinematics(m: &Model, d: &mut Data) {
    normalize_quat(m, d.qpos);
    for q in v4m(d.mocap_quat) {
        normalize4(q);
    }
    let nb = m.nbody;
    let (xpos, xquat, xmat) = (
        &mut v3m(d.xpos)[..nb],
        &mut v4m(d.xquat)[..nb],
        &mut v9m(d.xmat)[..nb],
    );
    let (xipos, ximat) = (&mut v3m(d.xipos)[..nb], &mut v9m(d.ximat)[..nb]);
    let mut joints = JointFrames {
        xanchor: v3m(d.xanchor),
        xaxis: v3m(d.xaxis),
    };
    let (mocap_pos, mocap_quat) = (v3(d.mocap_pos), v4(d.mocap_quat));
    let (body_pos, body_quat) = (&v3(&m.body_pos)[..nb], &v4(&m.body_quat)[..nb]);
    let (body_ipos, body_iquat) = (&v3(&m.body_ipos)[..nb], &v4(&m.body_iquat)[..nb]);
    let (mocapid, parentid, sameframe) = (
        &m.body_mocapid[..nb],
        &m.body_parentid[..nb],
        &m.body_sameframe[..nb],
    );
    let qpos = &*d.qpos;
    xpos[0] = [0.0; 3];
    xquat[0] = [1.0, 0.0, 0.0, 0.0];
    xipos[0] = [0.0; 3];
    xmat[0] = EYE;
    ximat[0] = EYE;

    for i in 1..nb {
        let offset = match usize::try_from(mocapid[i]) {
            Ok(id) => (&mocap_pos[id], &mocap_quat[id]),
            Err(_) => (&body_pos[i], &body_quat[i]),
        };
        let p = parentid[i] as usize;
        let parent = (&xpos[p], &xmat[p], &xquat[p]);
        let (pos, quat, mat) = body_pose(m, i, parent, offset, qpos, &mut joints);
        (xipos[i], ximat[i]) = match sameframe[i] {
            0 => (
                rot_add(&mat, &body_ipos[i], &pos),
                quat2mat(&mul_quat(&quat, &body_iquat[i])),
            ),
            1 => (pos, mat),
            _ => (xipos[i], ximat[i]),
        };
        (xpos[i], xquat[i], xmat[i]) = (pos, quat, mat);
    }

    let frames = (&*xpos, &*xmat, &*xquat, &*xipos, &*ximat);
    let (geom_xpos, geom_xmat) = (v3m(d.geom_xpos), v9m(d.geom_xmat));
    place(
        frames,
        &m.geom_bodyid,
        &m.geom_sameframe,
        &m.geom_pos,
        &m.geom_quat,
        geom_xpos,
        geom_xmat,
    );
    let (site_xpos, site_xmat) = (v3m(d.site_xpos), v9m(d.site_xmat));
    place(
        frames,
        &m.site_bodyid,
        &m.site_sameframe,
        &m.site_pos,
        &m.site_quat,
        site_xpos,
        site_xmat,
    );
}

/// The joint frames [`body_pose`] writes: `xanchor`, `xaxis`.
struct JointFrames<'a> {
    xanchor: &'a mut [Vec3],
    xaxis: &'a mut [Vec3],
}

/// One body's global pose `(xpos, xquat, xmat)` from its parent's `(xpos, xmat, xquat)`, its
/// fixed `offset` (or mocap pose) and its joints at `qpos`, writing the joints' frames.
#[inline(always)]
fn body_pose(
    m: &Model,
    i: usize,
    parent: (&Vec3, &Mat3, &Quat),
    offset: (&Vec3, &Quat),
    qpos: &[Real],
    joints: &mut JointFrames,
) -> (Vec3, Quat, Mat3) {
    let jntadr = m.body_jntadr[i].max(0) as usize;
    let jntnum = m.body_jntnum[i] as usize;
    let axes = v3(&m.jnt_axis);
    // a free joint sets the pose directly (its quaternion normalized with qpos)
    if jntnum == 1 && m.jnt_type[jntadr] == JNT_FREE {
        let q = &qpos[m.jnt_qposadr[jntadr] as usize..][..7];
        let pos = [q[0], q[1], q[2]];
        let quat = [q[3], q[4], q[5], q[6]];
        joints.xanchor[jntadr] = pos;
        joints.xaxis[jntadr] = axes[jntadr];
        return (pos, quat, quat2mat(&quat));
    }
    let (ppos, pmat, pquat) = parent;
    let mut pos = rot_add(pmat, offset.0, ppos);
    let mut quat = unit(mul_quat(pquat, offset.1));
    let mut mat = quat2mat(&quat);
    let jpos_all = v3(&m.jnt_pos);
    for jid in jntadr..jntadr + jntnum {
        let (axis, jpos) = (&axes[jid], &jpos_all[jid]);
        let xaxis = rot_add(&mat, axis, &[0.0; 3]);
        let xanchor = rot_add(&mat, jpos, &pos);
        joints.xaxis[jid] = xaxis;
        joints.xanchor[jid] = xanchor;
        let qadr = m.jnt_qposadr[jid] as usize;
        let t = m.jnt_type[jid];
        if t == JNT_SLIDE {
            let s = qpos[qadr] - m.qpos0[qadr];
            pos = core::array::from_fn(|k| mul_add(xaxis[k], s, pos[k]));
            continue;
        }
        let qloc = if t == JNT_BALL {
            [qpos[qadr], qpos[qadr + 1], qpos[qadr + 2], qpos[qadr + 3]]
        } else {
            let half = 0.5 * (qpos[qadr] - m.qpos0[qadr]);
            let s = sin(half);
            [cos(half), axis[0] * s, axis[1] * s, axis[2] * s]
        };
        quat = unit(mul_quat(&quat, &qloc));
        mat = quat2mat(&quat);
        // rotation about the anchor, not the body origin
        let r = rot_add(&mat, jpos, &[0.0; 3]);
        pos = core::array::from_fn(|k| xanchor[k] - r[k]);
    }
    (pos, quat, mat)
}

/// The body frames `(xpos, xmat, xquat, xipos, ximat)` [`place`] reads.
type Frames<'a> = (&'a [Vec3], &'a [Mat3], &'a [Quat], &'a [Vec3], &'a [Mat3]);

/// Global poses of objects (geoms or sites) given in their bodies' frames
/// (`mj_local2Global`; `sameframe` 0 computes, 1 copies the body frame, else the inertial one).
fn place(
    frames: Frames,
    bodyid: &[i32],
    sameframe: &[u8],
    pos: &[Real],
    quat: &[Real],
    xpos: &mut [Vec3],
    xmat: &mut [Mat3],
) {
    let (bpos, bmat, bquat, bipos, bimat) = frames;
    let objects = xpos.iter_mut().zip(xmat.iter_mut());
    let local = v3(pos).iter().zip(v4(quat));
    for (((xpos, xmat), (pos, quat)), (&b, &sf)) in
        objects.zip(local).zip(bodyid.iter().zip(sameframe))
    {
        let b = b as usize;
        (*xpos, *xmat) = match sf {
            0 => (
                rot_add(&bmat[b], pos, &bpos[b]),
                quat2mat(&mul_quat(&bquat[b], quat)),
            ),
            1 => (bpos[b], bmat[b]),
            _ => (bipos[b], bimat[b]),
        };
    }
}

/// Center-of-mass quantities (`mj_comPos`, as [`crate::smooth::com_pos`]): `subtree_com`,
/// `cinert`, `cdof`.
pub fn com_pos(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    let nb = m.nbody;
    let mut stack = d.arena.stack();
    let mass_subtree = &mut stack.alloc::<Real>(nb)?[..nb];
    let (mass, parent) = (&m.body_mass[..nb], &m.body_parentid[..nb]);
    let xipos = &v3(d.xipos)[..nb];
    let subtree_com = &mut v3m(d.subtree_com)[..nb];
    for i in 0..nb {
        subtree_com[i] = xipos[i].map(|x| x * mass[i]);
        mass_subtree[i] = mass[i];
    }
    // children come after their parents: walking backwards, body i's sums are complete
    for i in (0..nb).rev() {
        if i > 0 {
            let (p, child) = (parent[i] as usize, subtree_com[i]);
            for k in 0..3 {
                subtree_com[p][k] += child[k];
            }
            mass_subtree[p] += mass_subtree[i];
        }
        subtree_com[i] = if mass_subtree[i] < MINVAL {
            xipos[i]
        } else {
            let s = 1.0 / mass_subtree[i];
            subtree_com[i].map(|x| x * s)
        };
    }
    drop(stack);

    let (rootid, ximat) = (&m.body_rootid[..nb], &v9(d.ximat)[..nb]);
    let (inertia, cinert) = (&v3(&m.body_inertia)[..nb], &mut v10m(d.cinert)[..nb]);
    cinert[0] = [0.0; 10];
    for i in 1..nb {
        let c = &subtree_com[rootid[i] as usize];
        let dif = core::array::from_fn(|k| xipos[i][k] - c[k]);
        cinert[i] = inert_com(&inertia[i], &ximat[i], &dif, mass[i]);
    }
    com_dofs(m, d);
    Ok(())
}

/// Spatial inertia about `-dif` from the com of a body with principal inertia `inert`, axes
/// `mat` and `mass` (`mju_inertCom`), with fused multiply-adds.
#[inline(always)]
fn inert_com(inert: &Vec3, mat: &Mat3, dif: &Vec3, mass: Real) -> [Real; 10] {
    // (mat diag(inert) matᵀ)_ij
    let rot = |i: usize, j: usize| {
        let (a, b) = (&mat[3 * i..3 * i + 3], &mat[3 * j..3 * j + 3]);
        mul_add(
            a[0] * inert[0],
            b[0],
            mul_add(a[1] * inert[1], b[1], a[2] * inert[2] * b[2]),
        )
    };
    let md = [mass * dif[0], mass * dif[1], mass * dif[2]];
    [
        mul_add(md[1], dif[1], mul_add(md[2], dif[2], rot(0, 0))),
        mul_add(md[0], dif[0], mul_add(md[2], dif[2], rot(1, 1))),
        mul_add(md[0], dif[0], mul_add(md[1], dif[1], rot(2, 2))),
        mul_add(-md[0], dif[1], rot(0, 1)),
        mul_add(-md[0], dif[2], rot(0, 2)),
        mul_add(-md[1], dif[2], rot(1, 2)),
        md[0],
        md[1],
        md[2],
        mass,
    ]
}

/// The motion dofs `cdof` in the com frames: `[axis; axis × (subtree_com - anchor)]` for a
/// rotation about `axis`, `[0; axis]` for a translation.
fn com_dofs(m: &Model, d: &mut Data) {
    let (subtree_com, xanchor, xaxis) = (v3(d.subtree_com), v3(d.xanchor), v3(d.xaxis));
    let (xmat, cdof) = (v9(d.xmat), v6m(d.cdof));
    for j in 0..m.njnt {
        let da = m.jnt_dofadr[j] as usize;
        let bi = m.jnt_bodyid[j] as usize;
        let c = &subtree_com[m.body_rootid[bi] as usize];
        let a = &xanchor[j];
        let offset = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let rotation = |axis: &Vec3| -> Motion {
            let [x, y, z] = *axis;
            let [ox, oy, oz] = offset;
            [
                x,
                y,
                z,
                mul_add(y, oz, -z * oy),
                mul_add(z, ox, -x * oz),
                mul_add(x, oy, -y * ox),
            ]
        };
        let ball = |cdof: &mut [Motion], mat: &Mat3| {
            for (k, c) in cdof.iter_mut().enumerate() {
                *c = rotation(&[mat[k], mat[k + 3], mat[k + 6]]);
            }
        };
        match m.jnt_type[j] {
            JNT_FREE => {
                for k in 0..3 {
                    let mut c = [0.0; 6];
                    c[3 + k] = 1.0;
                    cdof[da + k] = c;
                }
                ball(&mut cdof[da + 3..da + 6], &xmat[bi]);
            }
            JNT_BALL => ball(&mut cdof[da..da + 3], &xmat[bi]),
            JNT_SLIDE => {
                let x = &xaxis[j];
                cdof[da] = [0.0, 0.0, 0.0, x[0], x[1], x[2]];
            }
            _ => cdof[da] = rotation(&xaxis[j]),
        }
    }
}

/// `cross_motion(vel, v)` (`mju_crossMotion`) with fused multiply-adds.
#[inline(always)]
fn cross_motion(vel: &Motion, v: &Motion) -> Motion {
    let [w0, w1, w2, l0, l1, l2] = *vel;
    [
        mul_add(w1, v[2], -w2 * v[1]),
        mul_add(w2, v[0], -w0 * v[2]),
        mul_add(w0, v[1], -w1 * v[0]),
        mul_add(w1, v[5], mul_add(-w2, v[4], mul_add(l1, v[2], -l2 * v[1]))),
        mul_add(w2, v[3], mul_add(-w0, v[5], mul_add(l2, v[0], -l0 * v[2]))),
        mul_add(w0, v[4], mul_add(-w1, v[3], mul_add(l0, v[1], -l1 * v[0]))),
    ]
}

/// `cross_force(vel, f)` (`mju_crossForce`) with fused multiply-adds.
#[inline(always)]
fn cross_force(vel: &Motion, f: &Motion) -> Motion {
    let [w0, w1, w2, l0, l1, l2] = *vel;
    [
        mul_add(w1, f[2], mul_add(-w2, f[1], mul_add(l1, f[5], -l2 * f[4]))),
        mul_add(w2, f[0], mul_add(-w0, f[2], mul_add(l2, f[3], -l0 * f[5]))),
        mul_add(w0, f[1], mul_add(-w1, f[0], mul_add(l0, f[4], -l1 * f[3]))),
        mul_add(w1, f[5], -w2 * f[4]),
        mul_add(w2, f[3], -w0 * f[5]),
        mul_add(w0, f[4], -w1 * f[3]),
    ]
}

/// `cinert * v` (`mju_mulInertVec`) with fused multiply-adds.
#[inline(always)]
fn mul_inert_vec(i: &[Real; 10], v: &Motion) -> Motion {
    [
        mul_add(
            i[0],
            v[0],
            mul_add(
                i[3],
                v[1],
                mul_add(i[4], v[2], mul_add(-i[8], v[4], i[7] * v[5])),
            ),
        ),
        mul_add(
            i[3],
            v[0],
            mul_add(
                i[1],
                v[1],
                mul_add(i[5], v[2], mul_add(i[8], v[3], -i[6] * v[5])),
            ),
        ),
        mul_add(
            i[4],
            v[0],
            mul_add(
                i[5],
                v[1],
                mul_add(i[2], v[2], mul_add(-i[7], v[3], i[6] * v[4])),
            ),
        ),
        mul_add(i[8], v[1], mul_add(-i[7], v[2], i[9] * v[3])),
        mul_add(i[6], v[2], mul_add(-i[8], v[0], i[9] * v[4])),
        mul_add(i[7], v[0], mul_add(-i[6], v[1], i[9] * v[5])),
    ]
}

/// `acc += dof * s` over a spatial vector.
#[inline(always)]
fn add_scl6(acc: &mut Motion, dof: &Motion, s: Real) {
    for k in 0..6 {
        acc[k] = mul_add(dof[k], s, acc[k]);
    }
}

/// Dot product of two spatial vectors.
#[inline(always)]
fn dot6(a: &Motion, b: &Motion) -> Real {
    let lo = mul_add(a[0], b[0], mul_add(a[1], b[1], a[2] * b[2]));
    let hi = mul_add(a[3], b[3], mul_add(a[4], b[4], a[5] * b[5]));
    lo + hi
}

/// Com-based velocities (`mj_comVel`: `cvel`, `cdof_dot`) and the bias force `qfrc_bias`
/// (`mj_rne` without acceleration) in one forward pass over the bodies, then the backward sum
/// of the body forces.
pub fn com_vel_bias(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    d.with_stack(|d, stack| -> Result<(), ArenaError> {
        let (nb, nv) = (m.nbody, m.nv);
        let mut frame = stack.frame();
        let cfrc = &mut v6m(frame.alloc::<Real>(6 * nb)?)[..nb];
        let cacc = &mut v6m(frame.alloc::<Real>(6 * nb)?)[..nb];
        let cvel_all = &mut v6m(d.cvel)[..nb];
        let cdof_dot = &mut v6m(d.cdof_dot)[..nv];
        let (cdof, qvel) = (&v6(d.cdof)[..nv], &d.qvel[..nv]);
        let cinert = &v10(d.cinert)[..nb];
        let (dofadr, dofnum, parentid) = (
            &m.body_dofadr[..nb],
            &m.body_dofnum[..nb],
            &m.body_parentid[..nb],
        );
        let dof_jntid = &m.dof_jntid[..nv];
        cvel_all[0] = [0.0; 6];
        cacc[0] = [0.0; 6];
        if !disabled(m, DSBL_GRAVITY) {
            let g = &m.opt.gravity;
            cacc[0][3..].copy_from_slice(&[-g[0], -g[1], -g[2]]);
        }
        cfrc[0] = [0.0; 6];
        for i in 1..nb {
            let bda = dofadr[i].max(0) as usize;
            let n = dofnum[i] as usize;
            let p = parentid[i] as usize;
            let (mut vel, mut acc) = (cvel_all[p], cacc[p]);
            let mut j = bda;
            while j < bda + n {
                let (skip, k) = match m.jnt_type[dof_jntid[j] as usize] {
                    JNT_FREE => {
                        // translations have cdof_dot = 0; the rotations follow as a ball joint
                        cdof_dot[j..j + 3].fill([0.0; 6]);
                        for t in j..j + 3 {
                            add_scl6(&mut vel, &cdof[t], qvel[t]);
                        }
                        (3, 3)
                    }
                    JNT_BALL => (0, 3),
                    _ => (0, 1),
                };
                // every dof of a joint sees the velocity from before the joint
                let dofs = j + skip..j + skip + k;
                for t in dofs.clone() {
                    let dot = cross_motion(&vel, &cdof[t]);
                    add_scl6(&mut acc, &dot, qvel[t]);
                    cdof_dot[t] = dot;
                }
                for t in dofs {
                    add_scl6(&mut vel, &cdof[t], qvel[t]);
                }
                j += skip + k;
            }
            cvel_all[i] = vel;
            cacc[i] = acc;
            let momentum = mul_inert_vec(&cinert[i], &vel);
            let f = mul_inert_vec(&cinert[i], &acc);
            let c = cross_force(&vel, &momentum);
            cfrc[i] = core::array::from_fn(|k| f[k] + c[k]);
        }
        for i in (1..nb).rev() {
            let p = parentid[i] as usize;
            if p > 0 {
                let child = cfrc[i];
                for k in 0..6 {
                    cfrc[p][k] += child[k];
                }
            }
        }
        let bodyid = &m.dof_bodyid[..nv];
        for (b, (c, &body)) in d.qfrc_bias[..nv].iter_mut().zip(cdof.iter().zip(bodyid)) {
            *b = dot6(c, &cfrc[body as usize]);
        }
        Ok(())
    })
}

/// Composite rigid-body inertias `crb` and the joint-space inertia `qM` (`mj_crb`, as
/// [`crate::smooth::crb`]), with fused multiply-adds.
pub fn crb(m: &Model, d: &mut Data) {
    let (nb, nv) = (m.nbody, m.nv);
    let crb = &mut v10m(d.crb)[..nb];
    crb.copy_from_slice(&v10(d.cinert)[..nb]);
    let parent = &m.body_parentid[..nb];
    for i in (1..nb).rev() {
        let p = parent[i] as usize;
        if p > 0 {
            let child = crb[i];
            for (a, b) in crb[p].iter_mut().zip(child) {
                *a += b;
            }
        }
    }

    let qm = &mut d.qM[..m.nM];
    let cdof = &v6(d.cdof)[..nv];
    let (madr, simplenum, bodyid) = (
        &m.dof_Madr[..nv],
        &m.dof_simplenum[..nv],
        &m.dof_bodyid[..nv],
    );
    let (dof_parent, armature, m0) = (
        &m.dof_parentid[..nv],
        &m.dof_armature[..nv],
        &m.dof_M0[..nv],
    );
    let mut i = 0;
    while i < nv {
        // row i: dof i, then one entry per ancestor, nearest first, up to row i + 1's start
        let end = madr.get(i + 1).map_or(m.nM, |&a| a as usize);
        let row = &mut qm[madr[i] as usize..end];
        // a simple dof: the diagonal is the precomputed dof_M0, zero off it
        if simplenum[i] > 0 {
            row.fill(0.0);
            row[0] = m0[i];
            i += 1;
            continue;
        }
        let buf = mul_inert_vec(&crb[bodyid[i] as usize], &cdof[i]);
        let mut j = i;
        for q in row.iter_mut() {
            *q = dot6(&cdof[j], &buf);
            // past the root this is -1 as usize, never read
            j = dof_parent[j] as usize;
        }
        row[0] += armature[i];
        i += 1;
    }
}
