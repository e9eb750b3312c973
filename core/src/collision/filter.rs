//! The pair filters of the collision driver: contype/conaffinity, welding and parent-child,
//! bounding spheres, and the margin override (`filterBitmask`, `canCollide`,
//! `filterBodyPair`, `mj_filterSphere`, `mj_assignMargin`).

use super::{body_geoms, collider};
use crate::data::Data;
use crate::math::misc::max;
use crate::math::vec::{dot3, sub3};
use crate::model::Model;
use crate::real::Real;
use crate::support::{enabled, v3, v9};
use crate::types::*;

/// Whether neither geom's contype matches the other's conaffinity (`filterBitmask`).
pub(super) fn filter_bitmask(
    contype1: i32,
    conaffinity1: i32,
    contype2: i32,
    conaffinity2: i32,
) -> bool {
    contype1 & conaffinity2 == 0 && contype2 & conaffinity1 == 0
}

/// The contype and conaffinity of body or flex `bf` (bodies first, then flexes: MuJoCo's
/// "bodyflex" ids).
// always inlined: the driver asks it for every body and every candidate pair, and the call
// cost more than the two loads (callgrind, bench pile)
#[inline(always)]
pub(super) fn bodyflex_mask(m: &Model, bf: usize) -> (i32, i32) {
    if bf < m.nbody {
        (m.body_contype[bf], m.body_conaffinity[bf])
    } else {
        let f = bf - m.nbody;
        (m.flex_contype[f], m.flex_conaffinity[f])
    }
}

/// Whether a body or flex can collide with anything (`canCollide`).
#[inline(always)]
pub(super) fn can_collide(m: &Model, bf: usize) -> bool {
    let (contype, conaffinity) = bodyflex_mask(m, bf);
    contype != 0 || conaffinity != 0
}

/// Whether two bodies' or flexes' contype and conaffinity match (`canCollide2`).
#[inline(always)]
pub(super) fn can_collide2(m: &Model, bf1: usize, bf2: usize) -> bool {
    let ((t1, a1), (t2, a2)) = (bodyflex_mask(m, bf1), bodyflex_mask(m, bf2));
    !filter_bitmask(t1, a1, t2, a2)
}

/// Whether two boxes (center, half sizes) are apart by more than `margin` along an axis
/// (`filterBox`).
pub(super) fn filter_box(a: &[Real; 6], b: &[Real; 6], margin: Real) -> bool {
    (0..3).any(|i| a[i] + a[i + 3] + margin < b[i] - b[i + 3])
        || (0..3).any(|i| b[i] + b[i + 3] + margin < a[i] - a[i + 3])
}

/// Whether the box around a sphere (center `s`, radius `bound`) misses the box `aabb` (center,
/// half sizes) (`filterSphereBox`).
pub(super) fn filter_sphere_box(s: &[Real; 3], bound: Real, aabb: &[Real; 6]) -> bool {
    (0..3).any(|i| s[i] + bound < aabb[i] - aabb[i + 3])
        || (0..3).any(|i| s[i] - bound > aabb[i] + aabb[i + 3])
}

/// Whether a body pair is welded together, or is a parent and child (unless the filter is
/// disabled) (`filterBodyPair`); the arguments are weld bodies and their parents' weld bodies.
pub(super) fn filter_body_pair(
    weld1: i32,
    weld_parent1: i32,
    weld2: i32,
    weld_parent2: i32,
    dsbl_filterparent: bool,
) -> bool {
    // combined without short-circuits: the outcomes vary from pair to pair, and the branches
    // of `||` and `&&` mispredicted in the broad phase (hopper)
    (weld1 == weld2)
        | (!dsbl_filterparent
            & (weld1 != 0)
            & (weld2 != 0)
            & ((weld1 == weld_parent2) | (weld2 == weld_parent1)))
}

/// A body's weld body and that of its parent.
pub(super) fn weld_and_parent(m: &Model, b: usize) -> (i32, i32) {
    let weld = m.body_weldid[b];
    (weld, m.body_weldid[m.body_parentid[weld as usize] as usize])
}

/// The contact margin, or `opt.o_margin` with the override flag (`mj_assignMargin`).
pub(super) fn assign_margin(m: &Model, source: Real) -> Real {
    if enabled(m, ENBL_OVERRIDE) {
        m.opt.o_margin
    } else {
        source
    }
}

/// Signed distance of geom `g`'s center above plane `plane` (`planeGeomDist`).
// inlined: a call cost as much as the arithmetic (a third of `filter_sphere` on the hopper)
#[inline(always)]
fn plane_geom_dist(d: &Data, plane: usize, g: usize) -> Real {
    let mat = &v9(d.geom_xmat)[plane];
    let normal = [mat[2], mat[5], mat[8]];
    dot3(&sub3(&v3(d.geom_xpos)[g], &v3(d.geom_xpos)[plane]), &normal)
}

/// Whether the bounding spheres of two geoms (or a plane and a sphere) are further apart than
/// `margin` (`mj_filterSphere`).
// inlined into its callers, once per candidate geom pair: the call and the reloads of the ids'
// bounds cost as much as the test
#[inline(always)]
pub(super) fn filter_sphere(m: &Model, d: &Data, g1: usize, g2: usize, margin: Real) -> bool {
    let (r1, r2) = (m.geom_rbound[g1], m.geom_rbound[g2]);
    if r1 > 0.0 && r2 > 0.0 {
        let (p1, p2) = (&v3(d.geom_xpos)[g1], &v3(d.geom_xpos)[g2]);
        let dif = [p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2]];
        let distsqr = dif[0] * dif[0] + dif[1] * dif[1] + dif[2] * dif[2];
        let bound = r1 + r2 + margin;
        return distsqr > bound * bound;
    }
    (m.geom_type[g1] == GEOM_PLANE && r2 > 0.0 && plane_geom_dist(d, g1, g2) > margin + r2)
        || (m.geom_type[g2] == GEOM_PLANE && r1 > 0.0 && plane_geom_dist(d, g2, g1) > margin + r1)
}

/// Whether body `b1`'s one geom, a plane, and body `b2`'s one geom will find no contact by the
/// narrow phase's own tests: no collider for their types, contype/conaffinity, or `b2`'s
/// bounding sphere above the plane by more than the larger margin. The broad phase then leaves
/// their pair out of the list (a floor and the Gymnasium models' bodies off it: a tenth of the
/// ant's collision instructions in the fast build went to such pairs). Lone geoms on both sides
/// take the narrow phase's direct path, which marks no bounding volumes, and without a user's
/// contact filter no callback misses the pair; an explicit `<pair>` of the two is collided on
/// its own.
pub(super) fn clear_of_plane(m: &Model, d: &Data, b1: usize, b2: usize) -> bool {
    if d.callbacks.contactfilter.is_some() || m.body_geomnum[b1] != 1 || m.body_geomnum[b2] != 1 {
        return false;
    }
    let (Some(g1), Some(g2)) = (body_geoms(m, b1).next(), body_geoms(m, b2).next()) else {
        return false;
    };
    if m.geom_type[g1] != GEOM_PLANE {
        return false;
    }
    let no_collider = collider(GEOM_PLANE as usize, m.geom_type[g2] as usize).is_none();
    let margin = assign_margin(m, max(m.geom_margin[g1], m.geom_margin[g2]));
    no_collider
        || filter_bitmask(
            m.geom_contype[g1],
            m.geom_conaffinity[g1],
            m.geom_contype[g2],
            m.geom_conaffinity[g2],
        )
        || filter_sphere(m, d, g1, g2, margin)
}
