//! Analytic contact normals for smooth geoms (MuJoCo's `mjc_fixNormal`): MPR's normal is only
//! as good as its tolerance, so where a geom is a sphere, capsule, ellipsoid or the round wall
//! of a cylinder, the normal is recomputed from the geom's shape at the contact point.

use crate::data::Contact;
use crate::math::mat::{rot_vec_mat, rot_vec_mat_t};
use crate::math::scalar::{abs, sqrt};
use crate::math::vec::{add_scl3, dist3, norm, normalize3, sub3};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::v3;
use crate::types::*;

/// A geom and the pose it had when the contact was found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PosedGeom<'a> {
    /// Geom id.
    pub geom: usize,
    /// Geom position.
    pub pos: &'a [Real; 3],
    /// Geom orientation.
    pub mat: &'a [Real; 9],
}

/// Replaces the contact normal by the surface normal(s) of the smooth geom(s) of the pair
/// (`mjc_fixNormal`): the average when both are smooth; the second frame axis is cleared then.
pub(crate) fn fix_normal(m: &Model, con: &mut Contact, geoms: [PosedGeom; 2]) {
    let smooth = |g: &PosedGeom| {
        matches!(
            m.geom_type[g.geom],
            GEOM_SPHERE | GEOM_CAPSULE | GEOM_ELLIPSOID | GEOM_CYLINDER
        )
    };
    if !smooth(&geoms[0]) && !smooth(&geoms[1]) {
        return;
    }

    let n = [con.frame[0], con.frame[1], con.frame[2]];
    let mut normal = [n, [-n[0], -n[1], -n[2]]];
    let mut processed = [false; 2];
    for (i, g) in geoms.iter().enumerate() {
        if !smooth(g) {
            continue;
        }
        let pos = rot_vec_mat_t(&sub3(&con.pos, g.pos), g.mat);
        let nrm = rot_vec_mat_t(&normal[i], g.mat);
        if let Some(mut nrm) = local_normal(m, g.geom, &pos, nrm) {
            normalize3(&mut nrm);
            normal[i] = rot_vec_mat(&nrm, g.mat);
            processed[i] = true;
        }
    }

    let first = match processed {
        [true, true] => {
            let mut f = sub3(&normal[0], &normal[1]);
            normalize3(&mut f);
            f
        }
        [true, false] => normal[0],
        [false, true] => normal[1].map(|x| -x),
        [false, false] => return,
    };
    con.frame[..3].copy_from_slice(&first);
    con.frame[3..6].fill(0.0);
}

/// Outward surface normal (not normalized) of geom `g` near the local point `pos`, starting
/// from the local normal guess `nrm`; `None` where the shape gives no better normal.
fn local_normal(m: &Model, g: usize, pos: &[Real; 3], mut nrm: [Real; 3]) -> Option<[Real; 3]> {
    let size = &v3(&m.geom_size)[g];
    match m.geom_type[g] {
        GEOM_SPHERE => Some(*pos),
        GEOM_CAPSULE => {
            // nearest point of the axis segment
            let z = if pos[2] < -size[1] {
                pos[2] + size[1]
            } else if pos[2] > size[1] {
                pos[2] - size[1]
            } else {
                0.0
            };
            Some([pos[0], pos[1], z])
        }
        GEOM_ELLIPSOID => {
            if size.iter().any(|&s| s < MINVAL) {
                return None;
            }
            let dist = pos[0] * pos[0] / (size[0] * size[0])
                + pos[1] * pos[1] / (size[1] * size[1])
                + pos[2] * pos[2] / (size[2] * size[2]);
            let ok = if dist <= 1.0 {
                ellipsoid_normal_inside(&mut nrm, pos, size)
            } else {
                ellipsoid_normal_outside(&mut nrm, pos, size);
                true
            };
            ok.then_some(nrm)
        }
        GEOM_CYLINDER => {
            // near a flat cap, or nearer the caps than the round wall: MPR's normal stands
            if abs(pos[2]) > 0.95 * size[1] {
                return None;
            }
            let to_flat = abs(size[1] - abs(pos[2]));
            let to_round = abs(size[0] - norm(&pos[..2]));
            if to_flat < 0.25 * to_round {
                return None;
            }
            Some([pos[0], pos[1], 0.0])
        }
        _ => None,
    }
}

/// Normal for a point inside an ellipsoid: cast a ray from `pos` along the normal, take the
/// normal where it leaves the surface, repeat (`mjc_ellipsoidInside`). Returns whether `nrm`
/// was updated.
fn ellipsoid_normal_inside(nrm: &mut [Real; 3], pos: &[Real; 3], size: &[Real; 3]) -> bool {
    const MAXITER: usize = 30;
    const TOLERANCE: Real = 1e-6;

    let s2inv = size.map(|s| 1.0 / (s * s));
    let c =
        pos[0] * pos[0] * s2inv[0] + pos[1] * pos[1] * s2inv[1] + pos[2] * pos[2] * s2inv[2] - 1.0;
    if c > 0.0 {
        return false;
    }
    normalize3(nrm);

    for iter in 0..MAXITER {
        // ray pos + x*nrm meets the surface where a x^2 + 2 b x + c = 0
        let a =
            nrm[0] * nrm[0] * s2inv[0] + nrm[1] * nrm[1] * s2inv[1] + nrm[2] * nrm[2] * s2inv[2];
        let b =
            pos[0] * nrm[0] * s2inv[0] + pos[1] * nrm[1] * s2inv[1] + pos[2] * nrm[2] * s2inv[2];
        let det = b * b - a * c;
        if det < MINVAL || a < MINVAL {
            return iter > 0;
        }
        let x = (-b + sqrt(det)) / a;
        if x < 0.0 {
            return iter > 0;
        }

        let pnt = add_scl3(pos, nrm, x);
        let mut next = [pnt[0] * s2inv[0], pnt[1] * s2inv[1], pnt[2] * s2inv[2]];
        normalize3(&mut next);
        let change = dist3(nrm, &next);
        *nrm = next;
        if change < TOLERANCE {
            break;
        }
    }
    true
}

/// Normal for a point outside an ellipsoid: Newton on the Lagrange multiplier of the nearest
/// surface point (a diagonal QCQP), then the gradient there (`mjc_ellipsoidOutside`).
fn ellipsoid_normal_outside(nrm: &mut [Real; 3], pos: &[Real; 3], size: &[Real; 3]) {
    const MAXITER: usize = 30;
    const TOLERANCE: Real = 1e-6;

    let s2 = size.map(|s| s * s);
    let ps2: [Real; 3] = core::array::from_fn(|i| pos[i] * pos[i] * s2[i]);

    let mut la = 0.0;
    for _ in 0..MAXITER {
        let r = s2.map(|s| 1.0 / (s + la));
        let val = ps2[0] * r[0] * r[0] + ps2[1] * r[1] * r[1] + ps2[2] * r[2] * r[2] - 1.0;
        if val < TOLERANCE {
            break;
        }
        let deriv = -2.0
            * (ps2[0] * r[0] * r[0] * r[0]
                + ps2[1] * r[1] * r[1] * r[1]
                + ps2[2] * r[2] * r[2] * r[2]);
        if deriv > -MINVAL {
            break;
        }
        let delta = -val / deriv;
        if delta < TOLERANCE {
            break;
        }
        la += delta;
    }

    *nrm = core::array::from_fn(|i| pos[i] / (s2[i] + la));
    normalize3(nrm);
}
