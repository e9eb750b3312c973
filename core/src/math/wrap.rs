//! Tendon wrapping around spheres and cylinders (`mju_wrap` in MuJoCo's `engine_util_misc.c`).
//!
//! The straight segment between two sites is replaced, if it passes through the wrapping object,
//! by the shortest path around it: two tangent segments and an arc. The problem is solved in 2D,
//! in the plane through the object's center and the two sites (sphere) or in the cross-section
//! (cylinder, whose height is then interpolated). A side site selects the side to wrap on; a side
//! site inside the circle asks for the "inside" wrap through the object instead.

use super::mat::{mul_mat_t_vec, mul_mat_vec};
use super::scalar::{abs, acos, asin, cos, sin, sqrt};
use super::vec::{add_to3, cross, dot, dot3, norm, norm3, normalize, normalize3, scl3, sub3};
use crate::real::{MINVAL, PI};
use crate::types::{WRAP_CYLINDER, WRAP_SPHERE};
use crate::Real;

/// `matᵀ * (point - origin)`: a global point in the local frame of an object (MuJoCo's
/// `mju_mulMatTVec` on the difference, which skips zero components).
fn to_local(point: &[Real; 3], origin: &[Real; 3], mat: &[Real; 9]) -> [Real; 3] {
    let mut res = [0.0; 3];
    mul_mat_t_vec(&mut res, mat, &sub3(point, origin), 3, 3);
    res
}

/// `mat * local + origin`: back to global coordinates.
fn to_global(local: &[Real], origin: &[Real; 3], mat: &[Real; 9]) -> [Real; 3] {
    let mut res = [0.0; 3];
    mul_mat_vec(&mut res, mat, local, 3, 3);
    add_to3(&mut res, origin);
    res
}

/// Whether the 2D segments `p1-p2` and `p3-p4` intersect (not if nearly parallel).
fn is_intersect(p1: &[Real], p2: &[Real], p3: &[Real], p4: &[Real]) -> bool {
    let det = (p4[1] - p3[1]) * (p2[0] - p1[0]) - (p4[0] - p3[0]) * (p2[1] - p1[1]);
    if abs(det) < MINVAL {
        return false;
    }
    let a = ((p4[0] - p3[0]) * (p1[1] - p3[1]) - (p4[1] - p3[1]) * (p1[0] - p3[0])) / det;
    let b = ((p2[0] - p1[0]) * (p1[1] - p3[1]) - (p2[1] - p1[1]) * (p1[0] - p3[0])) / det;
    (0.0..=1.0).contains(&a) && (0.0..=1.0).contains(&b)
}

/// Length of the arc of radius `rad` from `p0` to `p1`, going the long way round when the turn
/// direction disagrees with the chosen solution `second`.
fn length_circle(p0: &[Real; 2], p1: &[Real; 2], second: bool, rad: Real) -> Real {
    let (mut p0n, mut p1n) = (*p0, *p1);
    normalize(&mut p0n);
    normalize(&mut p1n);
    let mut angle = acos(dot(&p0n, &p1n));
    let turn = p0[1] * p1[0] - p0[0] * p1[1];
    if (turn > 0.0 && second) || (turn < 0.0 && !second) {
        angle = 2.0 * PI - angle;
    }
    rad * angle
}

/// 2D wrap around the circle of radius `rad` of the segment `d[0..2]`-`d[2..4]`, on the side
/// of `sd` if given: the tangent points and the arc length, or `None` if the segment misses the
/// circle (or an end is inside it).
fn wrap_circle(d: &[Real; 4], sd: Option<&[Real; 2]>, rad: Real) -> Option<(Real, [Real; 4])> {
    let sqlen0 = d[0] * d[0] + d[1] * d[1];
    let sqlen1 = d[2] * d[2] + d[3] * d[3];
    let sqrad = rad * rad;
    let dif = [d[2] - d[0], d[3] - d[1]];
    if sqlen0 < sqrad || sqlen1 < sqrad || rad < MINVAL {
        return None;
    }
    let dd = dif[0] * dif[0] + dif[1] * dif[1];
    if dd < MINVAL {
        return None;
    }

    // Point of the segment nearest to the center: no wrap if outside the circle (and, with a
    // side point, on its side).
    let a = (-(dif[0] * d[0] + dif[1] * d[1]) / dd).clamp(0.0, 1.0);
    let near = [a * dif[0] + d[0], a * dif[1] + d[1]];
    if near[0] * near[0] + near[1] * near[1] > sqrad && sd.is_none_or(|sd| dot(sd, &near) >= 0.0) {
        return None;
    }

    // The two pairs of tangent points, scored by closeness to the side point or shortness.
    let sqrt0 = sqrt(sqlen0 - sqrad);
    let sqrt1 = sqrt(sqlen1 - sqrad);
    let mut sol = [[[0.0; 2]; 2]; 2];
    let mut good = [0.0; 2];
    for i in 0..2 {
        let sgn: Real = if i == 0 { 1.0 } else { -1.0 };
        sol[i][0] = [
            (d[0] * sqrad + sgn * rad * d[1] * sqrt0) / sqlen0,
            (d[1] * sqrad - sgn * rad * d[0] * sqrt0) / sqlen0,
        ];
        sol[i][1] = [
            (d[2] * sqrad - sgn * rad * d[3] * sqrt1) / sqlen1,
            (d[3] * sqrad + sgn * rad * d[2] * sqrt1) / sqlen1,
        ];
        let [s0, s1] = sol[i];
        good[i] = match sd {
            Some(sd) => {
                let mut mid = [s0[0] + s1[0], s0[1] + s1[1]];
                normalize(&mut mid);
                dot(&mid, sd)
            }
            None => {
                let chord = [s0[0] - s1[0], s0[1] - s1[1]];
                -dot(&chord, &chord)
            }
        };
        if is_intersect(&d[..2], &s0, &d[2..], &s1) {
            good[i] = -10000.0;
        }
    }

    let i = if good[0] > good[1] { 0 } else { 1 };
    let [s0, s1] = sol[i];
    if is_intersect(&d[..2], &s0, &d[2..], &s1) {
        return None;
    }
    Some((
        length_circle(&s0, &s1, i == 1, rad),
        [s0[0], s0[1], s1[0], s1[1]],
    ))
}

/// 2D "inside" wrap: the point on the circle of radius `rad` where the path from `d[0..2]` to
/// `d[2..4]` through the circle is shortest (found by Newton's method), returned twice; `None`
/// if an end is inside the circle or the straight segment crosses it.
fn wrap_inside(d: &[Real; 4], rad: Real) -> Option<[Real; 4]> {
    const MAXITER: usize = 20;
    const ZINIT: Real = 1.0 - 1e-7;
    const TOLERANCE: Real = 1e-6;

    let len0 = norm(&d[..2]);
    let len1 = norm(&d[2..]);
    let dif = [d[2] - d[0], d[3] - d[1]];
    let dd = dif[0] * dif[0] + dif[1] * dif[1];
    if len0 <= rad || len1 <= rad || rad < MINVAL || len0 < MINVAL || len1 < MINVAL {
        return None;
    }
    if dd > MINVAL {
        let a = -(dif[0] * d[0] + dif[1] * d[1]) / dd;
        if a > 0.0 && a < 1.0 {
            let near = [d[0] + dif[0] * a, d[1] + dif[1] * a];
            if norm(&near) <= rad {
                return None;
            }
        }
    }

    // Default in case of numerical failure: direction of the midpoint.
    let mut mid = [0.5 * (d[0] + d[2]), 0.5 * (d[1] + d[3])];
    normalize(&mut mid);
    let fallback = [mid[0] * rad, mid[1] * rad, mid[0] * rad, mid[1] * rad];

    // Solve asin(A z) + asin(B z) - 2 asin(z) + G = 0 for z.
    let (ca, cb) = (rad / len0, rad / len1);
    let cos_g = (len0 * len0 + len1 * len1 - dd) / (2.0 * len0 * len1);
    if cos_g < -1.0 + MINVAL {
        return None;
    } else if cos_g > 1.0 - MINVAL {
        return Some(fallback);
    }
    let g = acos(cos_g);
    let f_of = |z: Real| asin(ca * z) + asin(cb * z) - 2.0 * asin(z) + g;
    let mut z = ZINIT;
    let mut f = f_of(z);
    if f > 0.0 {
        return Some(fallback);
    }
    let mut iter = 0;
    while iter < MAXITER && abs(f) > TOLERANCE {
        let slope = |c: Real| c / super::misc::max(MINVAL, sqrt(1.0 - z * z * c * c));
        let df = slope(ca) + slope(cb) - 2.0 / super::misc::max(MINVAL, sqrt(1.0 - z * z));
        // The remaining failure cases should not occur.
        if df > -MINVAL {
            return Some(fallback);
        }
        let z1 = z - f / df;
        if z1 > z {
            return Some(fallback);
        }
        z = z1;
        f = f_of(z);
        if f > TOLERANCE {
            return Some(fallback);
        }
        iter += 1;
    }
    if iter >= MAXITER {
        return Some(fallback);
    }

    // Rotate the direction of the end on the positive side by the angle found.
    let (mut vec, ang) = if d[0] * d[3] - d[1] * d[2] > 0.0 {
        ([d[0], d[1]], asin(z) - asin(ca * z))
    } else {
        ([d[2], d[3]], asin(z) - asin(cb * z))
    };
    normalize(&mut vec);
    let p = [
        rad * (cos(ang) * vec[0] - sin(ang) * vec[1]),
        rad * (sin(ang) * vec[0] + cos(ang) * vec[1]),
    ];
    Some([p[0], p[1], p[0], p[1]])
}

/// Orthonormal axes of the 2D wrapping plane of a sphere: `p0` and the perpendicular in the
/// plane of `p0` and `p1` (any plane through `p0` if they are parallel).
fn sphere_plane(p0: &[Real; 3], p1: &[Real; 3]) -> [[Real; 3]; 2] {
    let mut axis0 = *p0;
    normalize3(&mut axis0);
    let mut normal = cross(p0, p1);
    if normalize3(&mut normal) < MINVAL {
        // Parallel: second axis (1, 1, 1) without the largest component of axis0.
        let a = axis0.map(abs);
        let mut i = 0;
        if a[1] > a[0] && a[1] > a[2] {
            i = 1;
        }
        if a[2] > a[0] && a[2] > a[1] {
            i = 2;
        }
        let mut other = [1.0; 3];
        other[i] = 0.0;
        normal = cross(&axis0, &other);
        normalize3(&mut normal);
    }
    let mut axis1 = cross(&normal, &axis0);
    normalize3(&mut axis1);
    [axis0, axis1]
}

/// Wraps the tendon segment from `x0` to `x1` around a sphere or cylinder (`wrap_type`
/// `WRAP_SPHERE` or `WRAP_CYLINDER`) of radius `radius` at `xpos` with orientation `xmat`,
/// optionally on the side of the point `side` (`mju_wrap`).
///
/// Returns the length of the wrapped part and the two tangent points (global coordinates,
/// `[p0; p1]`), or `None` if the segment does not wrap (or `wrap_type` is another type, where
/// MuJoCo raises an error).
pub fn wrap(
    x0: &[Real; 3],
    x1: &[Real; 3],
    xpos: &[Real; 3],
    xmat: &[Real; 9],
    radius: Real,
    wrap_type: i32,
    side: Option<&[Real; 3]>,
) -> Option<(Real, [Real; 6])> {
    if wrap_type != WRAP_SPHERE && wrap_type != WRAP_CYLINDER {
        return None;
    }
    let p = [to_local(x0, xpos, xmat), to_local(x1, xpos, xmat)];
    if norm3(&p[0]) < MINVAL || norm3(&p[1]) < MINVAL {
        return None;
    }
    let cylinder = wrap_type == WRAP_CYLINDER;
    let axis = if cylinder {
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    } else {
        sphere_plane(&p[0], &p[1])
    };

    // Project into the plane; the side point onto the circle, or to the center if inside.
    let d = [
        dot3(&p[0], &axis[0]),
        dot3(&p[0], &axis[1]),
        dot3(&p[1], &axis[0]),
        dot3(&p[1], &axis[1]),
    ];
    let sd = side.map(|side| {
        let s = to_local(side, xpos, xmat);
        let mut sd = [dot3(&s, &axis[0]), dot3(&s, &axis[1])];
        if norm(&sd) >= radius {
            normalize(&mut sd);
            sd = [sd[0] * radius, sd[1] * radius];
        } else {
            sd = [0.0; 2];
        }
        sd
    });
    let (mut wlen, pnt) = match sd {
        Some(sd) if sd[0] == 0.0 && sd[1] == 0.0 => (0.0, wrap_inside(&d, radius)?),
        _ => wrap_circle(&d, sd.as_ref(), radius)?,
    };

    // Tangent points in the local frame.
    let mut res = [0.0; 6];
    for i in 0..2 {
        let mut r = scl3(&axis[0], pnt[2 * i]);
        add_to3(&mut r, &scl3(&axis[1], pnt[2 * i + 1]));
        res[3 * i..3 * i + 3].copy_from_slice(&r);
    }

    // Cylinder: heights interpolated along the unrolled path, length including the rise.
    if cylinder {
        let planar = |q: &[Real; 3], r: &[Real]| {
            sqrt((q[0] - r[0]) * (q[0] - r[0]) + (q[1] - r[1]) * (q[1] - r[1]))
        };
        let l0 = planar(&p[0], &res[..3]);
        let l1 = planar(&p[1], &res[3..]);
        res[2] = p[0][2] + (p[1][2] - p[0][2]) * l0 / (l0 + wlen + l1);
        res[5] = p[0][2] + (p[1][2] - p[0][2]) * (l0 + wlen) / (l0 + wlen + l1);
        let height = abs(res[5] - res[2]);
        wlen = sqrt(wlen * wlen + height * height);
    }

    let w0 = to_global(&res[..3], xpos, xmat);
    let w1 = to_global(&res[3..], xpos, xmat);
    Some((wlen, [w0[0], w0[1], w0[2], w1[0], w1[1], w1[2]]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::EPSILON;

    const EYE: [Real; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

    #[test]
    fn cylinder_half_turn() {
        // From (-2, 0, 0) to (2, 0, 0) around the unit cylinder, on the +y side: tangent points
        // at 60° from the x axis, arc of 60°.
        let (wlen, pts) = wrap(
            &[-2.0, 0.0, 0.0],
            &[2.0, 0.0, 0.0],
            &[0.0; 3],
            &EYE,
            1.0,
            WRAP_CYLINDER,
            Some(&[0.0, 3.0, 0.0]),
        )
        .unwrap();
        assert!((wlen - PI / 3.0).abs() < 16.0 * EPSILON);
        let h = sqrt(3.0) / 2.0;
        let expect = [-0.5, h, 0.0, 0.5, h, 0.0];
        assert!(pts
            .iter()
            .zip(expect)
            .all(|(a, b)| (a - b).abs() < 16.0 * EPSILON));
        // A side point inside the circle asks for the inside wrap: one point, zero length.
        let (wlen, pts) = wrap(
            &[-2.0, 1.5, 0.0],
            &[2.0, 1.5, 0.0],
            &[0.0; 3],
            &EYE,
            1.0,
            WRAP_CYLINDER,
            Some(&[0.0, -0.5, 0.0]),
        )
        .unwrap();
        assert_eq!(wlen, 0.0);
        assert_eq!(pts[..3], pts[3..]);
        assert!((norm3(&[pts[0], pts[1], 0.0]) - 1.0).abs() < 16.0 * EPSILON);
        // By symmetry the path touches the circle at (0, 1).
        assert!(pts[0].abs() < 1e-6 && (pts[1] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn no_wrap_cases() {
        let w = |x0: [Real; 3], x1: [Real; 3], t| wrap(&x0, &x1, &[0.0; 3], &EYE, 1.0, t, None);
        // Segment missing the sphere, end inside the sphere, unknown type.
        assert_eq!(w([-2.0, 2.0, 0.0], [2.0, 2.0, 0.0], WRAP_SPHERE), None);
        assert_eq!(w([-0.5, 0.0, 0.0], [2.0, 0.0, 0.0], WRAP_SPHERE), None);
        assert_eq!(w([-2.0, 0.0, 0.0], [2.0, 0.1, 0.0], 3), None);
        // A cylinder wraps whatever the height.
        let (wlen, _) = w([-2.0, 0.1, -1.0], [2.0, 0.1, 3.0], WRAP_CYLINDER).unwrap();
        assert!(wlen > 1.0);
    }

    // Reference: a MuJoCo 3.1.6 model with six spatial tendons wrapping a sphere and a cylinder
    // (without side site, with side sites outside and inside, and a non-wrapping one). Per case:
    // x0, x1, xpos, xmat, radius, type, side, whether it wraps, ten_length, wrap_xpos of the
    // two tangent points. Tangent points of the circle wraps are compared bit for bit, those of
    // the inside wrap and ten_length (which MuJoCo computes as |x0 - p0| + wlen + |p1 - x1|) to
    // within a few ulp, since they involve `acos`, `asin`, `sin` or `cos`, whose last bit can
    // differ between glibc and libm (with glibc's functions all match bit for bit).
    // (MuJoCo's bits are the exact build's contract; the fast build is measured against them
    // in tests/tests/fast.rs instead)
    #[cfg(not(any(feature = "f32", feature = "fast")))]
    mod reference {
        use super::super::*;
        use crate::math::vec::dist3;

        type Case = (
            [f64; 3],
            [f64; 3],
            [f64; 3],
            [f64; 9],
            f64,
            i32,
            Option<[f64; 3]>,
            bool,
            f64,
            [f64; 6],
        );

        const CASES: [Case; 6] = [
            (
                [
                    -0.1466952225704703,
                    -0.36842587867334364,
                    0.18478632653188115,
                ],
                [
                    0.3380683712628648,
                    -0.008352050864510019,
                    0.48219361733169325,
                ],
                [
                    0.09744137390596373,
                    -0.16269434280591213,
                    0.2986803887587182,
                ],
                [
                    0.5265407845183634,
                    -0.6275068715971333,
                    -0.5735764363510463,
                    0.5937476471328378,
                    0.7543013085166252,
                    -0.2801664995932355,
                    0.6084558601599677,
                    -0.1930405710426856,
                    0.7697511313200573,
                ],
                0.15,
                WRAP_SPHERE,
                None,
                true,
                0.707744806338301,
                [
                    0.055777488250171356,
                    -0.27357031313759,
                    0.3907164677444614,
                    0.12576890005516794,
                    -0.22160357157420102,
                    0.4336887367531721,
                ],
            ),
            (
                [
                    -0.1466952225704703,
                    -0.36842587867334364,
                    0.18478632653188115,
                ],
                [
                    0.3380683712628648,
                    -0.008352050864510019,
                    0.48219361733169325,
                ],
                [
                    0.09744137390596373,
                    -0.16269434280591213,
                    0.2986803887587182,
                ],
                [
                    0.5265407845183634,
                    -0.6275068715971333,
                    -0.5735764363510463,
                    0.5937476471328378,
                    0.7543013085166252,
                    -0.2801664995932355,
                    0.6084558601599677,
                    -0.1930405710426856,
                    0.7697511313200573,
                ],
                0.15,
                WRAP_SPHERE,
                Some([
                    0.32232392682130095,
                    -0.5157288483863118,
                    0.41570378498307714,
                ]),
                true,
                0.707744806338301,
                [
                    0.055777488250171356,
                    -0.27357031313759,
                    0.3907164677444614,
                    0.12576890005516794,
                    -0.22160357157420102,
                    0.4336887367531721,
                ],
            ),
            (
                [
                    -0.20365682709068963,
                    0.04234575869336632,
                    0.16193818556692896,
                ],
                [
                    -0.0885414640420582,
                    0.25258178826718425,
                    0.35021793768918613,
                ],
                [
                    0.09744137390596373,
                    -0.16269434280591213,
                    0.2986803887587182,
                ],
                [
                    0.5265407845183634,
                    -0.6275068715971333,
                    -0.5735764363510463,
                    0.5937476471328378,
                    0.7543013085166252,
                    -0.2801664995932355,
                    0.6084558601599677,
                    -0.1930405710426856,
                    0.7697511313200573,
                ],
                0.15,
                WRAP_SPHERE,
                Some([
                    0.10324608610360825,
                    -0.16710154441568237,
                    0.3143928643839453,
                ]),
                true,
                0.5760423340522969,
                [
                    0.001715647080001964,
                    -0.049071497860113875,
                    0.27803010231846675,
                    0.001715647080001964,
                    -0.049071497860113875,
                    0.27803010231846675,
                ],
            ),
            (
                [-0.1290345354255332, 0.1267216874887393, 0.508077198431065],
                [0.7901281110218789, 0.1941794809012541, 0.6329350195064969],
                [0.30051970509946835, 0.17230395441808138, 0.5849238729757152],
                [
                    0.7734787271288397,
                    -0.5356344094944095,
                    0.3388604993868797,
                    0.3858102518437058,
                    0.8220573402207161,
                    0.4187746159469774,
                    -0.5028728549558492,
                    -0.1931774022882008,
                    0.8424971115640316,
                ],
                0.1,
                WRAP_CYLINDER,
                None,
                true,
                0.9500223017179886,
                [
                    0.2639675469339601,
                    0.07331202577545816,
                    0.6032833429062294,
                    0.3169593224352054,
                    0.07615483751221092,
                    0.610551448958484,
                ],
            ),
            (
                [-0.1290345354255332, 0.1267216874887393, 0.508077198431065],
                [0.7901281110218789, 0.1941794809012541, 0.6329350195064969],
                [0.30051970509946835, 0.17230395441808138, 0.5849238729757152],
                [
                    0.7734787271288397,
                    -0.5356344094944095,
                    0.3388604993868797,
                    0.3858102518437058,
                    0.8220573402207161,
                    0.4187746159469774,
                    -0.5028728549558492,
                    -0.1931774022882008,
                    0.8424971115640316,
                ],
                0.1,
                WRAP_CYLINDER,
                Some([0.5491706711466875, -0.11373751161158853, 0.7310504509667908]),
                true,
                0.9500223017179886,
                [
                    0.2639675469339601,
                    0.07331202577545816,
                    0.6032833429062294,
                    0.3169593224352054,
                    0.07615483751221092,
                    0.610551448958484,
                ],
            ),
            (
                [
                    -0.1466952225704703,
                    -0.36842587867334364,
                    0.18478632653188115,
                ],
                [
                    0.3380683712628648,
                    -0.008352050864510019,
                    0.48219361733169325,
                ],
                [
                    0.09744137390596373,
                    -0.16269434280591213,
                    0.2986803887587182,
                ],
                [
                    0.5265407845183634,
                    -0.6275068715971333,
                    -0.5735764363510463,
                    0.5937476471328378,
                    0.7543013085166252,
                    -0.2801664995932355,
                    0.6084558601599677,
                    -0.1930405710426856,
                    0.7697511313200573,
                ],
                0.15,
                WRAP_SPHERE,
                Some([
                    0.10324608610360825,
                    -0.16710154441568237,
                    0.3143928643839453,
                ]),
                false,
                -1.0,
                [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            ),
        ];

        #[test]
        fn wrap_matches_mujoco() {
            for (x0, x1, xpos, xmat, radius, kind, side, wraps, ten_length, points) in CASES {
                let result = wrap(&x0, &x1, &xpos, &xmat, radius, kind, side.as_ref());
                assert_eq!(result.is_some(), wraps);
                if let Some((wlen, pts)) = result {
                    // The inside wrap (side point inside the circle) rotates by asin/sin/cos.
                    let inside = pts[..3] == pts[3..];
                    if inside {
                        assert!(pts.iter().zip(points).all(|(a, b)| (a - b).abs() <= 1e-15));
                    } else {
                        assert_eq!(pts, points);
                    }
                    let p0 = [pts[0], pts[1], pts[2]];
                    let p1 = [pts[3], pts[4], pts[5]];
                    let length = dist3(&x0, &p0) + wlen + dist3(&p1, &x1);
                    assert!((length - ten_length).abs() <= 4.0 * f64::EPSILON * ten_length);
                }
            }
        }
    }
}
