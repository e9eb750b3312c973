//! Minkowski Portal Refinement (libccd 2.1's `mpr.c`, the `ccdMPRPenetration` MuJoCo 3.1.6
//! calls): penetration depth, direction and position of two intersecting convex shapes given
//! by their support functions.
//!
//! The arithmetic follows libccd in double precision operation for operation (its vector
//! helpers, its `CCD_EPS` comparisons), so that contacts round exactly as MuJoCo's. libccd loops
//! without bound while discovering and refining the portal; here those loops stop after
//! [`MAX_PORTAL_STEPS`] (a geometric bound is never near it; a NaN pose could otherwise spin).

use crate::math::scalar::{abs, sqrt};
use crate::math::vec::{cross, dot3, sub3};
use crate::real::Real;

/// A convex shape as MPR sees it: a point inside and the support function.
pub(crate) trait ConvexShape {
    /// A point inside the shape (libccd's `center` callback).
    fn center(&self) -> [Real; 3];
    /// The point of the shape farthest along the unit direction `dir` (libccd's `support`).
    fn support(&mut self, dir: &[Real; 3]) -> [Real; 3];
}

/// libccd's settings that MPR uses (`ccd_t`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MprSettings {
    /// Stop refining when the portal advances less than this (`mpr_tolerance`).
    pub tolerance: Real,
    /// Most refinement steps when looking for the penetration (`max_iterations`).
    pub max_iterations: u64,
}

/// What MPR reports for intersecting shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Penetration {
    /// Penetration depth.
    pub depth: Real,
    /// Unit direction to move shape 2 out of shape 1 by `depth`; zero for a touching contact.
    pub dir: [Real; 3],
    /// Contact position, midway between the two shapes' witness points.
    pub pos: [Real; 3],
}

/// libccd's `CCD_EPS`: the tolerance of its zero and equality tests, double precision's machine
/// epsilon (MuJoCo builds libccd in double precision). The `f32` build keeps this value: with
/// `f32::EPSILON` the tests would call vectors of length up to ~3e-4 zero (they compare squared
/// lengths), and touching contacts would take the coarse segment shortcut.
const CCD_EPS: Real = f64::EPSILON as Real;

/// Safety bound on portal discovery and refinement steps, which libccd leaves unbounded.
pub(crate) const MAX_PORTAL_STEPS: usize = 10_000;

/// A point of the Minkowski difference with the two support points it came from
/// (`ccd_support_t`).
#[derive(Clone, Copy, Debug, Default)]
struct Support {
    /// `v1 - v2`.
    v: [Real; 3],
    /// Support point of shape 1.
    v1: [Real; 3],
    /// Support point of shape 2 (in the opposite direction).
    v2: [Real; 3],
}

/// The portal: `p[0]` inside the Minkowski difference, `p[1..4]` a triangle on its boundary.
type Portal = [Support; 4];

/// How portal discovery ended.
enum Discovery {
    /// The origin is outside the Minkowski difference: no contact.
    Miss,
    /// The origin is the first support point (touching contact).
    Touch,
    /// The origin lies on the segment from the center to the first support point.
    Segment,
    /// A full portal the origin ray passes through.
    Portal,
}

/// `ccdIsZero`: `|x| < CCD_EPS`.
#[inline]
fn is_zero(x: Real) -> bool {
    abs(x) < CCD_EPS
}

/// `ccdEq`: equal within `CCD_EPS`, absolutely or relative to the larger magnitude.
#[inline]
fn eq(a: Real, b: Real) -> bool {
    let ab = abs(a - b);
    if ab < CCD_EPS {
        return true;
    }
    let (a, b) = (abs(a), abs(b));
    if b > a {
        ab < CCD_EPS * b
    } else {
        ab < CCD_EPS * a
    }
}

/// `ccdVec3Eq(v, ccd_vec3_origin)`: every coordinate zero within `CCD_EPS`.
#[inline]
pub(crate) fn is_origin(v: &[Real; 3]) -> bool {
    v.iter().all(|&x| eq(x, 0.0))
}

/// `ccdVec3Normalize`: multiplies by the reciprocal length, with no guard for zero.
#[inline]
fn normalized(v: &[Real; 3]) -> [Real; 3] {
    let k = 1.0 / sqrt(dot3(v, v));
    [v[0] * k, v[1] * k, v[2] * k]
}

/// `ccdVec3Scale(v, -1)`.
#[inline]
fn neg(v: &[Real; 3]) -> [Real; 3] {
    [-v[0], -v[1], -v[2]]
}

/// Whether `x` is zero or negative in libccd's sense (`ccdIsZero(x) || x < 0`).
#[inline]
fn not_positive(x: Real) -> bool {
    is_zero(x) || x < 0.0
}

/// Support point of the Minkowski difference along `dir` (`__ccdSupport`).
fn support<A: ConvexShape, B: ConvexShape>(a: &mut A, b: &mut B, dir: &[Real; 3]) -> Support {
    let v1 = a.support(dir);
    let v2 = b.support(&neg(dir));
    Support {
        v: sub3(&v1, &v2),
        v1,
        v2,
    }
}

/// Penetration of two convex shapes (`ccdMPRPenetration`); `None` when they do not intersect.
pub(crate) fn penetration<A: ConvexShape, B: ConvexShape>(
    a: &mut A,
    b: &mut B,
    settings: &MprSettings,
) -> Option<Penetration> {
    let mut portal = Portal::default();
    match discover_portal(a, b, &mut portal) {
        Discovery::Miss => None,
        Discovery::Touch => Some(penetration_touch(&portal)),
        Discovery::Segment => Some(penetration_segment(&portal)),
        Discovery::Portal => {
            refine_portal(a, b, settings, &mut portal)?;
            Some(find_penetration(a, b, settings, &mut portal))
        }
    }
}

/// Finds a portal (triangle) the ray from the interior point `p[0]` to the origin passes
/// through (`discoverPortal`).
fn discover_portal<A: ConvexShape, B: ConvexShape>(
    a: &mut A,
    b: &mut B,
    portal: &mut Portal,
) -> Discovery {
    let (c1, c2) = (a.center(), b.center());
    portal[0] = Support {
        v: sub3(&c1, &c2),
        v1: c1,
        v2: c2,
    };
    // the center on the origin gives no direction: nudge it (the shapes do intersect)
    if is_origin(&portal[0].v) {
        let v = &mut portal[0].v;
        *v = [v[0] + CCD_EPS * 10.0, v[1] + 0.0, v[2] + 0.0];
    }

    let mut dir = normalized(&neg(&portal[0].v));
    portal[1] = support(a, b, &dir);
    if not_positive(dot3(&portal[1].v, &dir)) {
        return Discovery::Miss;
    }

    dir = cross(&portal[0].v, &portal[1].v);
    if is_zero(dot3(&dir, &dir)) {
        return if is_origin(&portal[1].v) {
            Discovery::Touch
        } else {
            Discovery::Segment
        };
    }

    dir = normalized(&dir);
    portal[2] = support(a, b, &dir);
    if not_positive(dot3(&portal[2].v, &dir)) {
        return Discovery::Miss;
    }

    // orient the triangle's normal away from the interior point
    dir = triangle_normal(portal);
    if dot3(&dir, &portal[0].v) > 0.0 {
        portal.swap(1, 2);
        dir = neg(&dir);
    }

    for _ in 0..MAX_PORTAL_STEPS {
        portal[3] = support(a, b, &dir);
        if not_positive(dot3(&portal[3].v, &dir)) {
            return Discovery::Miss;
        }
        // the origin outside face (v1, v0, v3) or (v3, v0, v2): replace a vertex and retry
        let outside = |p: &[Real; 3], q: &[Real; 3]| {
            let d = dot3(&cross(p, q), &portal[0].v);
            d < 0.0 && !is_zero(d)
        };
        if outside(&portal[1].v, &portal[3].v) {
            portal[2] = portal[3];
        } else if outside(&portal[3].v, &portal[2].v) {
            portal[1] = portal[3];
        } else {
            return Discovery::Portal;
        }
        dir = triangle_normal(portal);
    }
    Discovery::Miss
}

/// Unit normal of `(p1 - p0) × (p2 - p0)`, the direction that finds the fourth portal point.
fn triangle_normal(portal: &Portal) -> [Real; 3] {
    let va = sub3(&portal[1].v, &portal[0].v);
    let vb = sub3(&portal[2].v, &portal[0].v);
    normalized(&cross(&va, &vb))
}

/// Pushes the portal toward the origin until it contains it (`Some`) or cannot (`None`)
/// (`refinePortal`).
fn refine_portal<A: ConvexShape, B: ConvexShape>(
    a: &mut A,
    b: &mut B,
    settings: &MprSettings,
    portal: &mut Portal,
) -> Option<()> {
    for _ in 0..MAX_PORTAL_STEPS {
        let dir = portal_dir(portal);
        if encloses_origin(portal, &dir) {
            return Some(());
        }
        let v4 = support(a, b, &dir);
        if !can_enclose_origin(&v4, &dir) || reaches_tolerance(portal, &v4, &dir, settings) {
            return None;
        }
        expand_portal(portal, &v4);
    }
    None
}

/// Refines the portal toward the boundary nearest the origin, then reads the depth, direction
/// and position off it (`findPenetr`).
fn find_penetration<A: ConvexShape, B: ConvexShape>(
    a: &mut A,
    b: &mut B,
    settings: &MprSettings,
    portal: &mut Portal,
) -> Penetration {
    let mut iterations = 0u64;
    loop {
        let dir = portal_dir(portal);
        let v4 = support(a, b, &dir);
        if reaches_tolerance(portal, &v4, &dir, settings) || iterations > settings.max_iterations {
            let (dist2, witness, interior) =
                point_triangle_dist2(&[0.0; 3], &portal[1].v, &portal[2].v, &portal[3].v);
            let depth = sqrt(dist2);
            // zero depth is a touching contact: no direction, as in the touch case
            let dir = if is_zero(depth) {
                [0.0; 3]
            } else {
                penetration_dir(&witness, interior, &dir)
            };
            return Penetration {
                depth,
                dir,
                pos: portal_position(portal),
            };
        }
        expand_portal(portal, &v4);
        iterations += 1;
    }
}

/// The penetration direction: the nearest point of the portal triangle to the origin,
/// normalized (libccd). f32 only: where that point lies inside the triangle it is the origin's
/// projection on the triangle's plane, whose direction is the portal's normal `normal`, taken
/// instead. The nearest point is a sum of Minkowski points of the shapes' size that cancels
/// down to the depth: in f32 it carries an error of `EPSILON` times that size, so that the
/// normal of a contact 5e-6 deep between two resting boxes was off by up to 6e-3 rad (issue 25:
/// the multi-CCD contacts of one face disagreed by that much, f32's noslip ran 1.15x f64's
/// sweeps on multiple_objects); the portal's normal is a cross product of edges of the shapes'
/// size, accurate to `EPSILON`.
#[inline]
fn penetration_dir(witness: &[Real; 3], interior: bool, normal: &[Real; 3]) -> [Real; 3] {
    if cfg!(feature = "f32") && interior {
        *normal
    } else {
        normalized(witness)
    }
}

/// Touching contact at the first support point (`findPenetrTouch`).
fn penetration_touch(portal: &Portal) -> Penetration {
    Penetration {
        depth: 0.0,
        dir: [0.0; 3],
        pos: midpoint(&portal[1]),
    }
}

/// The origin on the segment from the center to the first support point
/// (`findPenetrSegment`).
fn penetration_segment(portal: &Portal) -> Penetration {
    let v = portal[1].v;
    Penetration {
        depth: sqrt(dot3(&v, &v)),
        dir: normalized(&v),
        pos: midpoint(&portal[1]),
    }
}

/// Midpoint of a support point's two shape points.
fn midpoint(s: &Support) -> [Real; 3] {
    core::array::from_fn(|i| (s.v1[i] + s.v2[i]) * 0.5)
}

/// Unit normal of the portal triangle, pointing away from the interior (`portalDir`).
fn portal_dir(portal: &Portal) -> [Real; 3] {
    let v2v1 = sub3(&portal[2].v, &portal[1].v);
    let v3v1 = sub3(&portal[3].v, &portal[1].v);
    normalized(&cross(&v2v1, &v3v1))
}

/// Whether the origin is on the interior side of the portal (`portalEncapsulesOrigin`).
fn encloses_origin(portal: &Portal, dir: &[Real; 3]) -> bool {
    let d = dot3(dir, &portal[1].v);
    is_zero(d) || d > 0.0
}

/// Whether the portal expanded by `v4` could contain the origin (`portalCanEncapsuleOrigin`).
fn can_enclose_origin(v4: &Support, dir: &[Real; 3]) -> bool {
    let d = dot3(&v4.v, dir);
    is_zero(d) || d > 0.0
}

/// Whether the new point `v4` would move the portal less than the tolerance
/// (`portalReachTolerance`).
fn reaches_tolerance(portal: &Portal, v4: &Support, dir: &[Real; 3], s: &MprSettings) -> bool {
    let dv4 = dot3(&v4.v, dir);
    let gap = |p: &Support| dv4 - dot3(&p.v, dir);
    let (d1, d2, d3) = (gap(&portal[1]), gap(&portal[2]), gap(&portal[3]));
    let least = d1.min(d2).min(d3);
    eq(least, s.tolerance) || least < s.tolerance
}

/// Replaces one portal vertex by `v4`, keeping the origin ray inside (`expandPortal`).
fn expand_portal(portal: &mut Portal, v4: &Support) {
    let v4v0 = cross(&v4.v, &portal[0].v);
    let slot = if dot3(&portal[1].v, &v4v0) > 0.0 {
        if dot3(&portal[2].v, &v4v0) > 0.0 {
            1
        } else {
            3
        }
    } else if dot3(&portal[3].v, &v4v0) > 0.0 {
        2
    } else {
        1
    };
    portal[slot] = *v4;
}

/// Contact position from the barycentric coordinates of the origin in the portal tetrahedron
/// (or its triangle when the tetrahedron is degenerate), averaged over the two shapes
/// (`findPos`).
fn portal_position(portal: &Portal) -> [Real; 3] {
    let p = |i: usize| &portal[i].v;
    let mut b = [
        dot3(&cross(p(1), p(2)), p(3)),
        dot3(&cross(p(3), p(2)), p(0)),
        dot3(&cross(p(0), p(1)), p(3)),
        dot3(&cross(p(2), p(1)), p(0)),
    ];
    let mut sum = b[0] + b[1] + b[2] + b[3];
    if not_positive(sum) {
        let dir = portal_dir(portal);
        b = [
            0.0,
            dot3(&cross(p(2), p(3)), &dir),
            dot3(&cross(p(3), p(1)), &dir),
            dot3(&cross(p(1), p(2)), &dir),
        ];
        sum = b[1] + b[2] + b[3];
    }
    let inv = 1.0 / sum;
    let (mut p1, mut p2) = ([0.0; 3], [0.0; 3]);
    for (s, &w) in portal.iter().zip(&b) {
        for k in 0..3 {
            p1[k] += s.v1[k] * w;
            p2[k] += s.v2[k] * w;
        }
    }
    core::array::from_fn(|k| (p1[k] * inv + p2[k] * inv) * 0.5)
}

/// Squared distance from `p` to the segment `x0`–`b` and the nearest point
/// (`__ccdVec3PointSegmentDist2` with a witness).
fn point_segment_dist2(p: &[Real; 3], x0: &[Real; 3], b: &[Real; 3]) -> (Real, [Real; 3]) {
    let d = sub3(b, x0);
    let a = sub3(x0, p);
    let t = -dot3(&a, &d) / dot3(&d, &d);
    let witness = if t < 0.0 || is_zero(t) {
        *x0
    } else if t > 1.0 || eq(t, 1.0) {
        *b
    } else {
        [d[0] * t + x0[0], d[1] * t + x0[1], d[2] * t + x0[2]]
    };
    let w = sub3(&witness, p);
    (dot3(&w, &w), witness)
}

/// Squared distance from `p` to the triangle `(x0, b, c)`, the nearest point
/// (`ccdVec3PointTriDist2` with a witness), and whether that point lies inside the triangle
/// (not on an edge's segment test).
fn point_triangle_dist2(
    p: &[Real; 3],
    x0: &[Real; 3],
    b: &[Real; 3],
    c: &[Real; 3],
) -> (Real, [Real; 3], bool) {
    let d1 = sub3(b, x0);
    let d2 = sub3(c, x0);
    let a = sub3(x0, p);
    let v = dot3(&d1, &d1);
    let w = dot3(&d2, &d2);
    let pp = dot3(&a, &d1);
    let q = dot3(&a, &d2);
    let r = dot3(&d1, &d2);

    let det = w * v - r * r;
    // a degenerate triangle falls through to its edges
    let (s, t) = if is_zero(det) {
        (-1.0, -1.0)
    } else {
        let s = (q * r - w * pp) / det;
        (s, (-s * r - q) / w)
    };

    let in_unit = |x: Real| (is_zero(x) || x > 0.0) && (eq(x, 1.0) || x < 1.0);
    if in_unit(s) && in_unit(t) && (eq(t + s, 1.0) || t + s < 1.0) {
        let witness: [Real; 3] = core::array::from_fn(|k| x0[k] + d1[k] * s + d2[k] * t);
        let dw = sub3(&witness, p);
        return (dot3(&dw, &dw), witness, true);
    }
    let mut best = point_segment_dist2(p, x0, b);
    for (e0, e1) in [(x0, c), (b, c)] {
        let cand = point_segment_dist2(p, e0, e1);
        if cand.0 < best.0 {
            best = cand;
        }
    }
    (best.0, best.1, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An axis-aligned box given by its center and half sizes.
    struct Cuboid {
        center: [Real; 3],
        half: [Real; 3],
    }

    impl ConvexShape for Cuboid {
        fn center(&self) -> [Real; 3] {
            self.center
        }
        fn support(&mut self, dir: &[Real; 3]) -> [Real; 3] {
            core::array::from_fn(|i| self.center[i] + self.half[i] * dir[i].signum())
        }
    }

    const SETTINGS: MprSettings = MprSettings {
        tolerance: 1e-6,
        max_iterations: 50,
    };

    #[test]
    fn overlapping_boxes_report_the_overlap_along_the_shallow_axis() {
        let mut a = Cuboid {
            center: [0.0; 3],
            half: [1.0; 3],
        };
        let mut b = Cuboid {
            center: [0.3, 0.2, 1.9],
            half: [1.0; 3],
        };
        let p = penetration(&mut a, &mut b, &SETTINGS).unwrap();
        let tol = 1e4 * crate::real::EPSILON;
        assert!((p.depth - 0.1).abs() < tol, "{p:?}");
        assert!((p.dir[2] - 1.0).abs() < tol, "{p:?}");
    }

    /// A box given by its center, half sizes and axes (rows, unit vectors in the world).
    struct TiltedBox {
        center: [Real; 3],
        half: [Real; 3],
        axes: [[Real; 3]; 3],
    }

    impl ConvexShape for TiltedBox {
        fn center(&self) -> [Real; 3] {
            self.center
        }
        fn support(&mut self, dir: &[Real; 3]) -> [Real; 3] {
            let mut p = self.center;
            for (axis, &half) in self.axes.iter().zip(&self.half) {
                let s = half * dot3(axis, dir).signum();
                for k in 0..3 {
                    p[k] += s * axis[k];
                }
            }
            p
        }
    }

    /// The world axes turned by `angle` about the unit `axis`.
    fn turned_axes(axis: &[Real; 3], angle: Real) -> [[Real; 3]; 3] {
        let q = crate::math::quat::axis_angle2quat(axis, angle);
        let unit = |i: usize| core::array::from_fn(|k| if k == i { 1.0 } else { 0.0 });
        core::array::from_fn(|i| crate::math::quat::rot_vec_quat(&unit(i), &q))
    }

    /// A box resting on a tilted face, 5e-6 deep, away from the origin (issue 25): the
    /// direction is the face's normal within 1e-5 rad (4.5e-11 in f64, 4.8e-8 in f32). In f32
    /// the portal's nearest point to the origin, normalized as libccd does, was 8.1e-3 rad off
    /// (its error is `EPSILON` times the shapes' size, divided by the depth).
    #[test]
    fn shallow_face_contact_has_the_face_normal() {
        let tilt = turned_axes(&[0.6, 0.8, 0.0], 0.12);
        let mut floor = TiltedBox {
            center: [0.4, -0.3, 0.2],
            half: [0.5, 0.5, 0.05],
            axes: tilt,
        };
        let normal = tilt[2];
        let q = crate::math::quat::axis_angle2quat(&normal, 0.35);
        let (half, depth) = (0.05, 5e-6);
        let offset = [0.1, 0.05, 0.05 + half - depth];
        let mut center = floor.center;
        for (axis, &o) in tilt.iter().zip(&offset) {
            for k in 0..3 {
                center[k] += o * axis[k];
            }
        }
        // the upper box: the floor's axes turned about the normal
        let axes = tilt.map(|a| crate::math::quat::rot_vec_quat(&a, &q));
        let mut upper = TiltedBox {
            center,
            half: [0.2, 0.15, half],
            axes,
        };
        let p = penetration(&mut floor, &mut upper, &SETTINGS).unwrap();
        let off = cross(&p.dir, &normal);
        let sine = sqrt(dot3(&off, &off));
        assert!(sine < 1e-5, "{p:?}: {sine:e} off the normal");
        assert!(dot3(&p.dir, &normal) > 0.0, "{p:?}");
        assert!((p.depth - depth).abs() < 1e-6, "{p:?}");
    }

    #[test]
    fn separated_boxes_do_not_intersect() {
        let mut a = Cuboid {
            center: [0.0; 3],
            half: [1.0; 3],
        };
        let mut b = Cuboid {
            center: [0.0, 2.5, 0.0],
            half: [1.0; 3],
        };
        assert!(penetration(&mut a, &mut b, &SETTINGS).is_none());
    }

    #[test]
    fn nan_shapes_end() {
        let mut a = Cuboid {
            center: [Real::NAN; 3],
            half: [1.0; 3],
        };
        let mut b = Cuboid {
            center: [0.0; 3],
            half: [1.0; 3],
        };
        let _ = penetration(&mut a, &mut b, &SETTINGS);
    }
}
