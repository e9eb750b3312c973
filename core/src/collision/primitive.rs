//! Colliders of primitive geom pairs (MuJoCo's `engine_collision_primitive.c`): planes against
//! spheres, capsules, cylinders and boxes; spheres against spheres, capsules and cylinders;
//! capsules against capsules.
//!
//! Each `mjc_*` collider reads the geoms' poses and sizes and writes its contacts (distance,
//! position, normal in `frame[0..3]`, and a tangent or zeros in `frame[3..6]`) to the front of the
//! contact buffer; the driver fills in the rest. The `raw_*` variants take the geometry
//! directly, as MuJoCo's `mjraw_*` do, so that other colliders can reuse them with modified
//! poses; they borrow it (`ShapeRef`), so that a modified pose is one new position, not a copy
//! of the whole shape. Arithmetic follows MuJoCo's operation order, for bit-identical contacts.

use super::{degenerate_bound, ShapeRef};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::misc::{clip, max, sign};
use crate::math::scalar::{abs, sqrt};
use crate::math::vec::{add3, add_scl3, add_to3, add_to_scl3, cross, dot3, normalize3, scl3, sub3};
use crate::model::Model;
use crate::real::{Real, MINVAL};

/// The z axis (third column) of a rotation matrix: a plane's normal, a capsule's axis.
pub(crate) fn z_axis(mat: &[Real; 9]) -> [Real; 3] {
    [mat[2], mat[5], mat[8]]
}

/// Sets the contact normal and clears the second axis of the frame (no preferred tangent).
pub(crate) fn set_normal(con: &mut Contact, normal: &[Real; 3]) {
    con.frame[..3].copy_from_slice(normal);
    con.frame[3..6].fill(0.0);
}

// ------------------------------------------------------------------------------------------------
// planes

/// Plane `p` against a sphere of radius `s.size[0]` (`mjraw_PlaneSphere`).
pub(crate) fn raw_plane_sphere(con: &mut Contact, margin: Real, p: ShapeRef, s: ShapeRef) -> usize {
    // read before the contact is written, which the compiler cannot tell apart from the shapes
    let normal = z_axis(p.mat);
    let (center, radius) = (*s.pos, s.size[0]);
    let cdist = dot3(&sub3(&center, p.pos), &normal);
    con.frame[..3].copy_from_slice(&normal);
    if cdist > margin + radius {
        return 0;
    }
    con.dist = cdist - radius;
    // the midpoint between the sphere's deepest point and the plane
    con.pos = add3(&center, &scl3(&normal, -con.dist / 2.0 - radius));
    con.frame[3..6].fill(0.0);
    1
}

/// Plane : sphere (`mjc_PlaneSphere`).
pub fn plane_sphere(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (p, s) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    Ok(raw_plane_sphere(&mut con[0], margin, p, s))
}

/// Plane : capsule (`mjc_PlaneCapsule`): the two end spheres, with the capsule axis as the
/// contacts' first tangent.
pub fn plane_capsule(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (p, c) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    let axis = z_axis(c.mat);
    let segment = [
        c.size[1] * axis[0],
        c.size[1] * axis[1],
        c.size[1] * axis[2],
    ];
    let (end1, end2) = (add3(c.pos, &segment), sub3(c.pos, &segment));
    let n1 = raw_plane_sphere(&mut con[0], margin, p, ShapeRef { pos: &end1, ..c });
    let n2 = raw_plane_sphere(&mut con[n1], margin, p, ShapeRef { pos: &end2, ..c });
    if n1 > 0 {
        con[0].frame[3..6].copy_from_slice(&axis);
    }
    if n2 > 0 {
        con[n1].frame[3..6].copy_from_slice(&axis);
    }
    Ok(n1 + n2)
}

/// Plane : cylinder (`mjc_PlaneCylinder`): the deepest point of the rim nearest the plane and
/// the opposite end's, then, when that rim dips below the margin, two more points of it at
/// ±120 degrees, so that a cylinder standing on its disk rests on a triangle.
pub fn plane_cylinder(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (p, c) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    let normal = z_axis(p.mat);
    let mut axis = z_axis(c.mat);

    // make the axis point towards the plane
    let mut prjaxis = dot3(&normal, &axis);
    if prjaxis > 0.0 {
        axis = scl3(&axis, -1.0);
        prjaxis = -prjaxis;
    }
    let dist0 = dot3(&sub3(c.pos, p.pos), &normal);

    // radial direction of the rim point nearest the plane: -normal without its axial part
    let mut vec = scl3(&axis, prjaxis);
    vec = sub3(&vec, &normal);
    let len_sqr = dot3(&vec, &vec);
    let bound = degenerate_bound(1.0);
    if len_sqr >= bound * bound {
        let scl = c.size[0] / sqrt(len_sqr);
        vec = [vec[0] * scl, vec[1] * scl, vec[2] * scl];
    } else {
        // disk parallel to the plane: any radius will do, take the x axis
        vec = [
            c.mat[0] * c.size[0],
            c.mat[3] * c.size[0],
            c.mat[6] * c.size[0],
        ];
    }
    let prjvec = dot3(&vec, &normal);
    axis = scl3(&axis, c.size[1]);
    prjaxis *= c.size[1];

    let rim_point = |con: &mut Contact, dist: Real, center: [Real; 3]| {
        con.dist = dist;
        con.pos = center;
        add_to_scl3(&mut con.pos, &normal, -dist * 0.5);
        set_normal(con, &normal);
    };

    // the nearest rim point; none below the margin means no contact at all
    let dist = dist0 + prjaxis + prjvec;
    let within = dist <= margin; // false for NaN as well, as in MuJoCo
    if !within {
        return Ok(0);
    }
    let mut center = add3(c.pos, &vec);
    add_to3(&mut center, &axis);
    rim_point(&mut con[0], dist, center);
    let mut cnt = 1;

    let dist = dist0 - prjaxis + prjvec;
    if dist <= margin {
        let mut center = add3(c.pos, &vec);
        center = sub3(&center, &axis);
        rim_point(&mut con[cnt], dist, center);
        cnt += 1;
    }

    let prjvec1 = -prjvec * 0.5;
    let dist = dist0 + prjaxis + prjvec1;
    if dist <= margin {
        let mut side = cross(&vec, &axis);
        normalize3(&mut side);
        side = scl3(&side, c.size[0] * sqrt(3.0) / 2.0);
        for sign in [1.0, -1.0] {
            let mut center = if sign > 0.0 {
                add3(c.pos, &side)
            } else {
                sub3(c.pos, &side)
            };
            add_to3(&mut center, &axis);
            add_to_scl3(&mut center, &vec, -0.5);
            rim_point(&mut con[cnt], dist, center);
            cnt += 1;
        }
    }
    Ok(cnt)
}

/// Plane : box (`mjc_PlaneBox`): the corners below the margin that face the plane, at most 4.
pub fn plane_box(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (p, b) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    let normal = z_axis(p.mat);
    let dist = dot3(&sub3(b.pos, p.pos), &normal);
    let mut cnt = 0;
    for i in 0..8 {
        let half = |k: usize| {
            if i & (1 << k) != 0 {
                b.size[k]
            } else {
                -b.size[k]
            }
        };
        let corner = crate::math::mat::rot_vec_mat(&[half(0), half(1), half(2)], b.mat);
        let ldist = dot3(&normal, &corner);
        if dist + ldist > margin || ldist > 0.0 {
            continue;
        }
        let c = &mut con[cnt];
        c.dist = dist + ldist;
        set_normal(c, &normal);
        c.pos = add3(&add3(&corner, b.pos), &scl3(&normal, -c.dist / 2.0));
        cnt += 1;
        if cnt >= 4 {
            break;
        }
    }
    Ok(cnt)
}

// ------------------------------------------------------------------------------------------------
// spheres and capsules

/// Sphere `s1` against sphere `s2`, radii `size[0]` (`mjraw_SphereSphere`). Concentric spheres
/// take the cross product of their z axes as normal (x when those are parallel).
pub(crate) fn raw_sphere_sphere(
    con: &mut Contact,
    margin: Real,
    s1: ShapeRef,
    s2: ShapeRef,
) -> usize {
    // read before the contact is written, which the compiler cannot tell apart from the shapes
    let (pos1, pos2) = (*s1.pos, *s2.pos);
    let (r1, r2) = (s1.size[0], s2.size[0]);
    let dif = sub3(&pos1, &pos2);
    let cdist_sqr = dot3(&dif, &dif);
    let min_dist = margin + r1 + r2;
    if cdist_sqr > min_dist * min_dist {
        return 0;
    }
    con.dist = sqrt(cdist_sqr) - r1 - r2;
    let mut normal = sub3(&pos2, &pos1);
    if normalize3(&mut normal) < MINVAL {
        normal = cross(&z_axis(s1.mat), &z_axis(s2.mat));
        normalize3(&mut normal);
    }
    con.pos = scl3(&normal, r1 + con.dist / 2.0);
    add_to3(&mut con.pos, &pos1);
    set_normal(con, &normal);
    1
}

/// Sphere : sphere (`mjc_SphereSphere`).
pub fn sphere_sphere(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (s1, s2) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    Ok(raw_sphere_sphere(&mut con[0], margin, s1, s2))
}

/// Sphere `s` against capsule `c` (`mjraw_SphereCapsule`): the sphere against the capsule's
/// sphere at the nearest point of its segment.
pub(crate) fn raw_sphere_capsule(
    con: &mut Contact,
    margin: Real,
    s: ShapeRef,
    c: ShapeRef,
) -> usize {
    let axis = z_axis(c.mat);
    let x = clip(dot3(&axis, &sub3(s.pos, c.pos)), -c.size[1], c.size[1]);
    let mut nearest = scl3(&axis, x);
    add_to3(&mut nearest, c.pos);
    raw_sphere_sphere(con, margin, s, ShapeRef { pos: &nearest, ..c })
}

/// A sphere (center `s`, radius `rs`) against a triangle `t` thickened by `rt`
/// (`mjraw_SphereTriangle`): one contact at the triangle point nearest the center.
pub(crate) fn raw_sphere_triangle(
    con: &mut Contact,
    margin: Real,
    s: &[Real; 3],
    rs: Real,
    t: [&[Real; 3]; 3],
    rt: Real,
) -> usize {
    let rbound = margin + rs + rt;
    // the triangle's first vertex is the origin
    let (sc, a, b) = (sub3(s, t[0]), sub3(t[1], t[0]), sub3(t[2], t[0]));
    let mut normal = cross(&a, &b);
    normalize3(&mut normal);
    let dst_s = dot3(&normal, &sc);
    if abs(dst_s) > rbound {
        return 0;
    }
    let p3 = add_scl3(&sc, &normal, -dst_s);

    // planar coordinates along a and the in-plane normal to it
    let mut v1 = a;
    let len_a = normalize3(&mut v1);
    let mut v2 = cross(&normal, &a);
    normalize3(&mut v2);
    let o = [0.0; 2];
    let a2 = [len_a, 0.0];
    let b2 = [dot3(&v1, &b), dot3(&v2, &b)];
    let p = [dot3(&v1, &p3), dot3(&v2, &p3)];
    let (s1, s2, s3) = (
        area_sign(&p, &o, &a2),
        area_sign(&p, &a2, &b2),
        area_sign(&p, &b2, &o),
    );
    let nearest = if s1 == s2 && s2 == s3 {
        p3
    } else {
        let edges = [(&o, &a2), (&a2, &b2), (&b2, &o)];
        let found = edges.map(|(u, v)| point_segment(&p, u, v));
        let best = if found[0].1 < found[1].1 && found[0].1 < found[2].1 {
            0
        } else if found[1].1 < found[2].1 {
            1
        } else {
            2
        };
        let x = found[best].0;
        let mut nearest = scl3(&v1, x[0]);
        add_to_scl3(&mut nearest, &v2, x[1]);
        nearest
    };

    let mut normal = sub3(&nearest, &sc);
    let dst = normalize3(&mut normal);
    if dst > rbound {
        return 0;
    }
    con.dist = dst - rs - rt;
    con.pos = add_scl3(s, &normal, rs + con.dist / 2.0);
    set_normal(con, &normal);
    1
}

/// The sign of the area of the planar triangle `p1`, `p2`, `p3` (`areaSign`).
fn area_sign(p1: &[Real; 2], p2: &[Real; 2], p3: &[Real; 2]) -> Real {
    sign((p1[0] - p3[0]) * (p2[1] - p3[1]) - (p2[0] - p3[0]) * (p1[1] - p3[1]))
}

/// The point of segment `u`, `v` nearest `p`, and its distance to `p` (`pointSegment`).
fn point_segment(p: &[Real; 2], u: &[Real; 2], v: &[Real; 2]) -> ([Real; 2], Real) {
    let uv = [v[0] - u[0], v[1] - u[1]];
    let up = [p[0] - u[0], p[1] - u[1]];
    let t = (uv[0] * up[0] + uv[1] * up[1]) / max(MINVAL, uv[0] * uv[0] + uv[1] * uv[1]);
    let res = if t <= 0.0 {
        *u
    } else if t >= 1.0 {
        *v
    } else {
        [u[0] + t * uv[0], u[1] + t * uv[1]]
    };
    let dist = sqrt((res[0] - p[0]) * (res[0] - p[0]) + (res[1] - p[1]) * (res[1] - p[1]));
    (res, dist)
}

/// Sphere : capsule (`mjc_SphereCapsule`).
pub fn sphere_capsule(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (s, c) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    Ok(raw_sphere_capsule(&mut con[0], margin, s, c))
}

/// Sphere : cylinder (`mjc_SphereCylinder`): against the side (as a sphere on the axis), a
/// cap (as a plane) or the rim (as a point), whichever the sphere's center is nearest.
pub fn sphere_cylinder(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (s, c) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    let (radius, height) = (c.size[0], c.size[1]);
    let axis = z_axis(c.mat);

    // the sphere's center relative to the cylinder, split along and across the axis
    let vec = sub3(s.pos, c.pos);
    let x = dot3(&axis, &vec);
    let mut a_proj = scl3(&axis, x);
    let mut p_proj = sub3(&vec, &a_proj);
    let p_proj_sqr = dot3(&p_proj, &p_proj);

    let mut collide_side = abs(x) < height;
    let mut collide_cap = p_proj_sqr < radius * radius;
    if collide_side && collide_cap {
        // center inside: push out through the nearer of the side and the cap
        let dist_cap = height - abs(x);
        let dist_radius = radius - sqrt(p_proj_sqr);
        if dist_cap < dist_radius {
            collide_side = false;
        } else {
            collide_cap = false;
        }
    }

    if collide_side {
        add_to3(&mut a_proj, c.pos);
        let on_axis = ShapeRef { pos: &a_proj, ..c };
        return Ok(raw_sphere_sphere(&mut con[0], margin, s, on_axis));
    }

    if collide_cap {
        let (pos, mat) = if x > 0.0 {
            (add_scl3(c.pos, &axis, height), *c.mat)
        } else {
            // the bottom cap: a frame whose z axis points down
            let r = c.mat;
            let flipped = [-r[0], r[1], -r[2], -r[3], r[4], -r[5], -r[6], r[7], -r[8]];
            (add_scl3(c.pos, &axis, -height), flipped)
        };
        let cap = ShapeRef {
            pos: &pos,
            mat: &mat,
            ..c
        };
        let n = raw_plane_sphere(&mut con[0], margin, cap, s);
        if n > 0 {
            // the plane collider's normal points from the cap to the sphere; flip it to
            // point from the sphere (geom 1) to the cylinder
            let flipped = scl3(&[con[0].frame[0], con[0].frame[1], con[0].frame[2]], -1.0);
            con[0].frame[..3].copy_from_slice(&flipped);
        }
        return Ok(n);
    }

    // rim: the sphere against the nearest point of the rim circle
    p_proj = scl3(&p_proj, c.size[0] / sqrt(p_proj_sqr));
    let mut corner = scl3(&axis, if x > 0.0 { height } else { -height });
    add_to3(&mut corner, &p_proj);
    add_to3(&mut corner, c.pos);
    let point = ShapeRef {
        pos: &corner,
        mat: c.mat,
        size: &[0.0; 3],
    };
    Ok(raw_sphere_sphere(&mut con[0], margin, s, point))
}

/// Capsule `c1` against capsule `c2` (`mjraw_CapsuleCapsule`): spheres at the nearest points of
/// the segments; parallel segments get up to two contacts from their end points.
// always inlined (three callers): passing the two borrowed shapes through memory and the call
// cost a third of `mjc_CapsuleCapsule`'s work (callgrind, hopper)
#[inline(always)]
pub(crate) fn raw_capsule_capsule(
    con: &mut [Contact],
    margin: Real,
    c1: ShapeRef,
    c2: ShapeRef,
) -> usize {
    let scaled_axis = |c: ShapeRef| {
        let a = z_axis(c.mat);
        [a[0] * c.size[1], a[1] * c.size[1], a[2] * c.size[1]]
    };
    let (axis1, axis2) = (scaled_axis(c1), scaled_axis(c2));
    let dif = sub3(c1.pos, c2.pos);

    // normal equations of the nearest points pos1 + x1 axis1, pos2 + x2 axis2
    let ma = dot3(&axis1, &axis1);
    let mb = -dot3(&axis1, &axis2);
    let mc = dot3(&axis2, &axis2);
    let u = -dot3(&axis1, &dif);
    let v = dot3(&axis2, &dif);
    let det = ma * mc - mb * mb;

    // spheres at segment parameters x1, x2
    let spheres = |con: &mut Contact, x1: Real, x2: Real| {
        let mut p1 = scl3(&axis1, x1);
        add_to3(&mut p1, c1.pos);
        let mut p2 = scl3(&axis2, x2);
        add_to3(&mut p2, c2.pos);
        raw_sphere_sphere(
            con,
            margin,
            ShapeRef { pos: &p1, ..c1 },
            ShapeRef { pos: &p2, ..c2 },
        )
    };

    if abs(det) >= degenerate_bound(ma * mc) {
        let mut x1 = (mc * u - mb * v) / det;
        let mut x2 = (ma * v - mb * u) / det;
        if x1 > 1.0 {
            x1 = 1.0;
            x2 = (v - mb) / mc;
        } else if x1 < -1.0 {
            x1 = -1.0;
            x2 = (v + mb) / mc;
        }
        if x2 > 1.0 {
            x2 = 1.0;
            x1 = clip((u - mb) / ma, -1.0, 1.0);
        } else if x2 < -1.0 {
            x2 = -1.0;
            x1 = clip((u + mb) / ma, -1.0, 1.0);
        }
        return spheres(&mut con[0], x1, x2);
    }

    // parallel axes: the ends of segment 1 against segment 2, then, if fewer than two
    // contacts, the ends of segment 2 against segment 1
    let end1 = |con: &mut Contact, sign: Real| {
        let p1 = if sign > 0.0 {
            add3(c1.pos, &axis1)
        } else {
            sub3(c1.pos, &axis1)
        };
        let x2 = clip((v - sign * mb) / mc, -1.0, 1.0);
        let mut p2 = scl3(&axis2, x2);
        add_to3(&mut p2, c2.pos);
        raw_sphere_sphere(
            con,
            margin,
            ShapeRef { pos: &p1, ..c1 },
            ShapeRef { pos: &p2, ..c2 },
        )
    };
    let end2 = |con: &mut Contact, sign: Real| {
        let p2 = if sign > 0.0 {
            add3(c2.pos, &axis2)
        } else {
            sub3(c2.pos, &axis2)
        };
        let x1 = clip((u - sign * mb) / ma, -1.0, 1.0);
        let mut p1 = scl3(&axis1, x1);
        add_to3(&mut p1, c1.pos);
        raw_sphere_sphere(
            con,
            margin,
            ShapeRef { pos: &p1, ..c1 },
            ShapeRef { pos: &p2, ..c2 },
        )
    };
    let mut n = end1(&mut con[0], 1.0);
    n += end1(&mut con[n], -1.0);
    if n >= 2 {
        return n;
    }
    n += end2(&mut con[n], 1.0);
    if n >= 2 {
        return n;
    }
    n + end2(&mut con[n], -1.0)
}

/// Capsule : capsule (`mjc_CapsuleCapsule`).
pub fn capsule_capsule(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (c1, c2) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    Ok(raw_capsule_capsule(con, margin, c1, c2))
}
