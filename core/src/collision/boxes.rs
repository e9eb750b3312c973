//! Colliders with boxes (MuJoCo's `engine_collision_box.c`): sphere-box, capsule-box and
//! box-box.
//!
//! As in [`super::primitive`], contacts are written to the front of the buffer and the
//! arithmetic follows MuJoCo's operation order. The box-box collider finds the axis of least
//! penetration among the 6 face normals and 9 edge-edge cross products, then clips the other
//! box's face (or edge) against the reference face; it may return duplicates and points just
//! outside the boxes, which the driver removes (`collide_geoms`).
//!
//! Comparisons are written as MuJoCo writes them (`x < 0 || x > 1`, `!(x > eps)`) because
//! they treat NaN differently from their tidier equivalents.
#![allow(clippy::manual_range_contains, clippy::neg_cmp_op_on_partial_ord)]

use super::primitive::{set_normal, z_axis};
use super::{degenerate_bound, ShapeRef};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::mat::{mul_mat_mat_t3, mul_mat_t_mat3, rot_vec_mat, rot_vec_mat_t};
use crate::math::scalar::{abs, sqrt};
use crate::math::vec::{add3, add_to3, add_to_scl3, dot3, normalize3, scl3, sub3};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::types::MAXCONPAIR;

/// Clamps `vec[i]` to `[-limit[i], limit[i]]` where `limit[i] > 0` (`mju_clampVec`).
fn clamp_vec(vec: &mut [Real; 3], limit: &[Real; 3]) {
    for (v, &l) in vec.iter_mut().zip(limit) {
        if l > 0.0 {
            if *v < -l {
                *v = -l;
            } else if *v > l {
                *v = l;
            }
        }
    }
}

/// Transpose of a 3x3 matrix.
fn transpose3(mat: &[Real; 9]) -> [Real; 9] {
    [
        mat[0], mat[3], mat[6], mat[1], mat[4], mat[7], mat[2], mat[5], mat[8],
    ]
}

/// Row `k` of a 3x3 matrix.
fn row(mat: &[Real; 9], k: usize) -> [Real; 3] {
    [mat[3 * k], mat[3 * k + 1], mat[3 * k + 2]]
}

/// The two axes other than `i`, in increasing order (as MuJoCo's loops over `k != i` visit
/// them), as an array that the compiler unrolls.
fn other_axes(i: usize) -> [usize; 2] {
    match i {
        0 => [1, 2],
        1 => [0, 2],
        _ => [0, 1],
    }
}

/// `1.0` if `flag`, else `-1.0`.
fn sign_if(flag: bool) -> Real {
    if flag {
        1.0
    } else {
        -1.0
    }
}

// ------------------------------------------------------------------------------------------------
// sphere and capsule

/// Sphere `s` against box `b` (`mjraw_SphereBox`): from the nearest point of the box, or, when
/// the center is inside, out through the nearest face.
pub(crate) fn raw_sphere_box(con: &mut Contact, margin: Real, s: ShapeRef, b: ShapeRef) -> usize {
    let radius = s.size[0];
    let center = rot_vec_mat_t(&sub3(s.pos, b.pos), b.mat);
    let mut clamped = center;
    clamp_vec(&mut clamped, b.size);
    let mut dir = sub3(&clamped, &center);
    let dist = normalize3(&mut dir);
    if dist - radius > margin {
        return 0;
    }

    // position and normal in the box frame
    let (pos, normal) = if dist <= MINVAL {
        let mut closest = (b.size[0] + b.size[1] + b.size[2]) * 2.0;
        let mut k = 0;
        for i in 0..6 {
            let face = sign_if(i % 2 == 1) * b.size[i / 2];
            let d = abs(face - center[i / 2]);
            if closest > d {
                closest = d;
                k = i;
            }
        }
        let mut nearest = [0.0; 3];
        nearest[k / 2] = -sign_if(k % 2 == 1);
        let mut pos = center;
        add_to_scl3(&mut pos, &nearest, (radius - closest) / 2.0);
        (pos, nearest)
    } else {
        let mut deepest = center;
        add_to_scl3(&mut deepest, &dir, radius);
        let mut pos = [0.0; 3];
        add_to_scl3(&mut pos, &clamped, 0.5);
        add_to_scl3(&mut pos, &deepest, 0.5);
        (pos, dir)
    };
    set_normal(con, &rot_vec_mat(&normal, b.mat));
    con.pos = add3(&rot_vec_mat(&pos, b.mat), b.pos);
    con.dist = dist - radius;
    1
}

/// Sphere : box (`mjc_SphereBox`).
pub fn sphere_box(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (s, b) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    Ok(raw_sphere_box(&mut con[0], margin, s, b))
}

/// What of the box is nearest the capsule's segment (MuJoCo's `cltype` and companions).
#[derive(Clone, Copy)]
enum Closest {
    /// Nothing found (degenerate input).
    None,
    /// An end of the segment (`end` = ±1) is nearest a face, or inside the box
    /// (`face` = the clamped axis, or `None` when inside).
    Face { end: Real, face: Option<usize> },
    /// The nearest box point is on an edge: `clamp` = 3 s1 + s2 records whether the edge
    /// parameter (s1) and the segment parameter (s2) were clamped low (0), high (2) or not (1);
    /// `corner` is the edge's corner (bits of the positive axes), `edge` its axis, `boxpos` the
    /// edge parameter in [-1, 1].
    Edge {
        clamp: i32,
        corner: i32,
        edge: usize,
        boxpos: Real,
    },
}

/// The segment parameter of the box face nearest to the capsule's segment, as MuJoCo's first
/// search in `mjraw_CapsuleBox`: the segment ends clamped to the box, where at most one
/// coordinate had to move.
fn capsule_box_faces(
    pos: &[Real; 3],
    halfaxis: &[Real; 3],
    size: &[Real; 3],
    best: &mut (Real, Real, Closest),
) {
    for end in [-1.0, 1.0] {
        let mut p = *pos;
        add_to_scl3(&mut p, halfaxis, end);
        let unclamped = p;
        let mut clamped = 0;
        let mut face = None;
        for j in 0..3 {
            if p[j] < -size[j] {
                clamped += 1;
                face = Some(j);
                p[j] = -size[j];
            } else if p[j] > size[j] {
                clamped += 1;
                face = Some(j);
                p[j] = size[j];
            }
        }
        if clamped > 1 {
            continue;
        }
        let dif = sub3(&p, &unclamped);
        let dist = dot3(&dif, &dif);
        if dist < best.0 {
            *best = (dist, end, Closest::Face { end, face });
        }
    }
}

/// MuJoCo's second search in `mjraw_CapsuleBox`: the nearest points between the segment and
/// each of the box's 12 edges.
fn capsule_box_edges(
    pos: &[Real; 3],
    halfaxis: &[Real; 3],
    size: &[Real; 3],
    halflength: Real,
    best: &mut (Real, Real, Closest),
) {
    for j in 0..3 {
        for i in 0..8i32 {
            if i & (1 << j) != 0 {
                continue;
            }
            // the edge from this corner along axis j, centered at tmp3
            // (component j zeroed by a select: a store at index j sent the vector through the
            // stack, and reading it back waited on a failed store forward)
            let tmp3: [Real; 3] = core::array::from_fn(|k| {
                if k == j {
                    0.0
                } else {
                    sign_if(i & (1 << k) != 0) * size[k]
                }
            });
            let dif = sub3(&tmp3, pos);
            let ma = size[j] * size[j];
            let mb = -size[j] * halfaxis[j];
            let mc = halflength * halflength;
            let u = -size[j] * dif[j];
            let v = dot3(halfaxis, &dif);
            let det = ma * mc - mb * mb;
            if abs(det) < degenerate_bound(ma * mc) {
                continue;
            }
            let idet = 1.0 / det;
            let mut x1 = (mc * u - mb * v) * idet;
            let mut x2 = (ma * v - mb * u) * idet;
            let (mut s1, mut s2) = (1, 1);
            if x1 > 1.0 {
                x1 = 1.0;
                s1 = 2;
                x2 = (v - mb) * (1.0 / mc);
            } else if x1 < -1.0 {
                x1 = -1.0;
                s1 = 0;
                x2 = (v + mb) * (1.0 / mc);
            }
            let clamp_x1 = |x1: &mut Real, s1: &mut i32| {
                if *x1 > 1.0 {
                    *x1 = 1.0;
                    *s1 = 2;
                } else if *x1 < -1.0 {
                    *x1 = -1.0;
                    *s1 = 0;
                }
            };
            if x2 > 1.0 {
                x2 = 1.0;
                s2 = 2;
                x1 = (u - mb) * (1.0 / ma);
                clamp_x1(&mut x1, &mut s1);
            } else if x2 < -1.0 {
                x2 = -1.0;
                s2 = 0;
                x1 = (u + mb) * (1.0 / ma);
                clamp_x1(&mut x1, &mut s1);
            }

            let mut dif = sub3(&tmp3, pos);
            add_to_scl3(&mut dif, halfaxis, -x2);
            // component j moved by a select, not a store at index j, for the same reason
            let shift = size[j] * x1;
            let dif: [Real; 3] =
                core::array::from_fn(|k| if k == j { dif[k] + shift } else { dif[k] });
            let dist = dot3(&dif, &dif);
            // the MINVAL guards against an axis numerically parallel to the box
            if dist < best.0 - MINVAL {
                let clamp = s1 * 3 + s2;
                *best = (
                    dist,
                    x2,
                    Closest::Edge {
                        clamp,
                        // the upper corner of the edge when the edge point was clamped high
                        corner: i + (1 << j) * (clamp / 6),
                        edge: j,
                        boxpos: x1,
                    },
                );
            }
        }
    }
}

/// Where along the segment (relative to the nearest point, in segment parameters) a second
/// contact goes, or `None` (MuJoCo's `secondpos`). `axisdir` has a bit per positive component
/// of the capsule axis in the box frame.
fn capsule_box_second(
    closest: Closest,
    bestpos: Real,
    pos: &[Real; 3],
    axis: &[Real; 3],
    halfaxis: &[Real; 3],
    size: &[Real; 3],
) -> Option<Real> {
    let axisdir = i32::from(halfaxis[0] > 0.0)
        + 2 * i32::from(halfaxis[1] > 0.0)
        + 4 * i32::from(halfaxis[2] > 0.0);
    let reach = |k: usize| 2.0 * size[k] / abs(halfaxis[k]);
    match closest {
        Closest::None => None,
        // nearest a corner of the box
        Closest::Edge { clamp, corner, .. } if clamp / 3 != 1 => {
            let mut c1 = axisdir ^ corner;
            // pointing at or away from the corner: no second contact
            if c1 == 0 || c1 == 7 {
                return None;
            }
            let (mul, de, dp);
            if c1 == 1 || c1 == 2 || c1 == 4 {
                mul = 1.0;
                de = 1.0 - bestpos;
                dp = 1.0 + bestpos;
            } else {
                mul = -1.0;
                c1 = 7 - c1;
                dp = 1.0 - bestpos;
                de = 1.0 + bestpos;
            }
            let (ax, ax1, ax2) = match c1 {
                1 => (0, 1, 2),
                2 => (1, 2, 0),
                _ => (2, 0, 1),
            };
            let mut second;
            if axis[ax] * axis[ax] > 0.5 {
                // along the edge of the box, up to its other corner
                second = de;
                let e1 = reach(ax);
                if e1 < second {
                    second = e1;
                }
                second *= mul;
            } else {
                // along a face of the box, up to its border
                second = dp;
                for k in [ax1, ax2] {
                    let e1 = reach(k);
                    if e1 < second {
                        second = e1;
                    }
                }
                second *= -mul;
            }
            Some(second)
        }
        // nearest the middle of an edge
        Closest::Edge {
            corner,
            edge,
            boxpos,
            ..
        } => {
            let mut c1 = axisdir ^ corner;
            c1 &= 7 - (1 << edge);
            // only crossing the edge (not a T configuration) gives a second contact
            if c1 != 1 && c1 != 2 && c1 != 4 {
                return None;
            }
            let ax = edge;
            let (mut ax1, ax2) = match edge {
                0 => (1, 2),
                1 => (2, 0),
                _ => (0, 1),
            };
            // the face at the lower angle with the capsule
            if abs(axis[ax1]) > abs(axis[ax2]) {
                ax1 = ax2;
            }
            let ax2 = 3 - ax - ax1;
            let (mul, mut second) = if c1 & (1 << ax2) != 0 {
                (1.0, 1.0 - bestpos)
            } else {
                (-1.0, 1.0 + bestpos)
            };
            let e1 = reach(ax2);
            if e1 < second {
                second = e1;
            }
            let e2 = if ((axisdir & (1 << ax)) != 0) == ((c1 & (1 << ax2)) != 0) {
                1.0 - boxpos
            } else {
                1.0 + boxpos
            };
            let e1 = size[ax] * e2 / abs(halfaxis[ax]);
            if e1 < second {
                second = e1;
            }
            Some(second * mul)
        }
        // an end of the segment nearest a face: the other end, clipped to the box
        Closest::Face { end, face } => {
            let face = face?;
            let mul = if end < 0.0 { 1.0 } else { -1.0 };
            let mut second = 2.0;
            let mut other = *pos;
            add_to_scl3(&mut other, halfaxis, -mul);
            for i in (0..3).filter(|&i| i != face) {
                for bound in [size[i], -size[i]] {
                    let e1 = (bound - other[i]) / halfaxis[i] * mul;
                    if e1 > 0.0 && e1 < second {
                        second = e1;
                    }
                }
            }
            Some(second * mul)
        }
    }
}

/// Capsule `c` against box `b` (`mjraw_CapsuleBox`): the sphere at the segment point nearest
/// the box, and when the capsule lies along a face or an edge, a second sphere further along.
pub(crate) fn raw_capsule_box(
    con: &mut [Contact],
    margin: Real,
    c: ShapeRef,
    b: ShapeRef,
) -> usize {
    let size = b.size;
    let halflength = c.size[1];
    // the capsule in the box frame
    let pos = rot_vec_mat_t(&sub3(c.pos, b.pos), b.mat);
    let axis = rot_vec_mat_t(&z_axis(c.mat), b.mat);
    let halfaxis = scl3(&axis, halflength);

    let bestdistmax = margin + 2.0 * (c.size[0] + halflength + size[0] + size[1] + size[2]);
    let mut best = (bestdistmax, 0.0, Closest::None);
    capsule_box_faces(&pos, &halfaxis, size, &mut best);
    capsule_box_edges(&pos, &halfaxis, size, halflength, &mut best);
    let (_, bestpos, closest) = best;
    if let Closest::None = closest {
        return 0;
    }
    let second = capsule_box_second(closest, bestpos, &pos, &axis, &halfaxis, size);

    // spheres of the capsule's radius at segment parameter t, back in the world frame
    let sphere_at = |con: &mut Contact, t: Real| {
        let mut p = pos;
        add_to_scl3(&mut p, &halfaxis, t);
        let mut center = rot_vec_mat(&p, b.mat);
        add_to3(&mut center, b.pos);
        raw_sphere_box(con, margin, ShapeRef { pos: &center, ..c }, b)
    };
    let mut n = sphere_at(&mut con[0], bestpos);
    if let Some(second) = second {
        n += sphere_at(&mut con[n], second + bestpos);
    }
    n
}

/// Capsule : box (`mjc_CapsuleBox`).
pub fn capsule_box(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (c, b) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    Ok(raw_capsule_box(con, margin, c, b))
}

// ------------------------------------------------------------------------------------------------
// box : box

/// The frame of box face `q` (0-2: the +x, +y, +z faces, 3-5: the -x, -y, -z faces, as MuJoCo
/// numbers them): a signed permutation taking the face's outward normal to +z (MuJoCo's
/// `rotmore`, and its `rotaxis`/`rotmatx` macros that apply it).
struct FaceFrame {
    idx: [usize; 3],
    sign: [Real; 3],
}

impl FaceFrame {
    fn new(q: usize) -> Self {
        let (idx, sign) = match q {
            0 => ([2, 1, 0], [-1.0, 1.0, 1.0]),
            1 => ([0, 2, 1], [1.0, -1.0, 1.0]),
            2 => ([0, 1, 2], [1.0, 1.0, 1.0]),
            3 => ([2, 1, 0], [1.0, 1.0, -1.0]),
            4 => ([0, 2, 1], [1.0, 1.0, -1.0]),
            _ => ([0, 1, 2], [-1.0, 1.0, -1.0]),
        };
        Self { idx, sign }
    }

    /// The permutation as a matrix (`rotmore`).
    fn matrix(&self) -> [Real; 9] {
        let mut r = [0.0; 9];
        for k in 0..3 {
            r[3 * k + self.idx[k]] = self.sign[k];
        }
        r
    }

    /// `rotmore * v` by picking components (`rotaxis`).
    fn axis(&self, v: &[Real; 3]) -> [Real; 3] {
        core::array::from_fn(|k| v[self.idx[k]] * self.sign[k])
    }

    /// `rotmore * mat` by picking rows (`rotmatx`).
    fn rows(&self, mat: &[Real; 9]) -> [Real; 9] {
        core::array::from_fn(|i| mat[3 * self.idx[i / 3] + i % 3] * self.sign[i / 3])
    }
}

/// The separating axis of least penetration found by [`box_box_axes`].
enum BoxAxis {
    /// Face `q` (0-5) of box 1 (`second` false) or box 2.
    Face { q: usize, second: bool },
    /// The cross product of edge axis `i` of box 1 and `j` of box 2, normalized in `normal`
    /// (box 1 frame); `cle1`/`cle2` are the nearest edges' corner bits, `inside` whether box 2's
    /// center is on the negative side.
    Edge {
        i: usize,
        j: usize,
        normal: [Real; 3],
        cle1: i32,
        cle2: i32,
        inside: bool,
    },
}

/// Relative pose of two boxes: centers in each other's frame, rotation from box 2 to box 1.
struct BoxPair<'a> {
    b1: ShapeRef<'a>,
    b2: ShapeRef<'a>,
    pos21: [Real; 3],
    pos12: [Real; 3],
    rot: [Real; 9],
    rotabs: [Real; 9],
}

impl<'a> BoxPair<'a> {
    fn new(b1: ShapeRef<'a>, b2: ShapeRef<'a>) -> Self {
        let rot = mul_mat_t_mat3(b1.mat, b2.mat);
        Self {
            b1,
            b2,
            pos21: rot_vec_mat_t(&sub3(b2.pos, b1.pos), b1.mat),
            pos12: rot_vec_mat_t(&sub3(b1.pos, b2.pos), b2.mat),
            rot,
            rotabs: rot.map(abs),
        }
    }
}

/// How much less (relative) an axis must penetrate than the best one so far to replace it:
/// MuJoCo's factors in double precision, 0 for the faces of box 2 against those of box 1 and
/// 1e-12 for edge-edge axes against faces. Symmetric configurations (aligned or stacked boxes)
/// tie exactly there, and MuJoCo keeps the earlier axis; in single precision rounding would
/// break those ties at random, so both factors are raised above its rounding.
const FACE_PREFERENCE: Real = if cfg!(feature = "f32") { 1e-5 } else { 0.0 };
const EDGE_PREFERENCE: Real = if cfg!(feature = "f32") { 1e-5 } else { 1e-12 };

/// Separating-axis test over the 6 face normals and 9 edge-edge axes; `None` when some axis
/// separates the boxes by more than the margin.
fn box_box_axes(p: &BoxPair, margin: Real) -> Option<BoxAxis> {
    let (size1, size2) = (p.b1.size, p.b2.size);
    let plen2 = rot_vec_mat(size2, &p.rotabs);
    let plen1 = rot_vec_mat_t(size1, &p.rotabs);
    let mut penetration = margin;
    for i in 0..3 {
        penetration += size1[i] * 3.0 + size2[i] * 3.0;
    }
    let mut found = None;
    for i in 0..3 {
        let c1 = -abs(p.pos21[i]) + size1[i] + plen2[i];
        let c2 = -abs(p.pos12[i]) + size2[i] + plen1[i];
        if c1 < -margin || c2 < -margin {
            return None;
        }
        if c1 < penetration {
            penetration = c1;
            let q = i + 3 * usize::from(p.pos21[i] < 0.0);
            found = Some(BoxAxis::Face { q, second: false });
        }
        if c2 < penetration * (1.0 - FACE_PREFERENCE) {
            penetration = c2;
            let q = i + 3 * usize::from(p.pos12[i] < 0.0);
            found = Some(BoxAxis::Face { q, second: true });
        }
    }

    let rott = transpose3(&p.rot);
    for i in 0..3 {
        for j in 0..3 {
            // edge axis i of box 1 crossed with edge axis j of box 2, in box 1's frame
            let mut axis = [0.0; 3];
            match i {
                0 => {
                    axis[1] = -rott[3 * j + 2];
                    axis[2] = rott[3 * j + 1];
                }
                1 => {
                    axis[0] = rott[3 * j + 2];
                    axis[2] = -rott[3 * j];
                }
                _ => {
                    axis[0] = -rott[3 * j + 1];
                    axis[1] = rott[3 * j];
                }
            }
            // parallel edges have no cross product
            let len = normalize3(&mut axis);
            if len < degenerate_bound(1.0) {
                continue;
            }
            let c2 = dot3(&p.pos21, &axis);
            let mut c3 = 0.0;
            for k in other_axes(i) {
                c3 += size1[k] * abs(axis[k]);
            }
            for k in other_axes(j) {
                c3 += size2[k] * p.rotabs[3 * i + 3 - k - j] / len;
            }
            c3 -= abs(c2);
            if c3 < -margin {
                return None;
            }
            if c3 < penetration * (1.0 - EDGE_PREFERENCE) {
                penetration = c3;
                let mut cle1 = 0;
                for k in other_axes(i) {
                    if (axis[k] > 0.0) ^ (c2 < 0.0) {
                        cle1 += 1 << k;
                    }
                }
                let mut cle2 = 0;
                for k in other_axes(j) {
                    let r = p.rot[3 * i + 3 - k - j];
                    if (r > 0.0) ^ (c2 < 0.0) ^ ((k + 3 - j) % 3 == 1) {
                        cle2 += 1 << k;
                    }
                }
                found = Some(BoxAxis::Edge {
                    i,
                    j,
                    normal: axis,
                    cle1,
                    cle2,
                    inside: c2 < 0.0,
                });
            }
        }
    }
    found
}

/// Box : box (`mjc_BoxBox`). `con` must hold [`MAXCONPAIR`] contacts.
pub fn box_box(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let pair = BoxPair::new(ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    Ok(match box_box_axes(&pair, margin) {
        None => 0,
        Some(BoxAxis::Face { q, second }) => box_box_face(con, margin, &pair, q, second),
        Some(BoxAxis::Edge {
            i,
            j,
            normal,
            cle1,
            cle2,
            inside,
        }) => box_box_edge(con, margin, &pair, i, j, &normal, cle1, cle2, inside),
    })
}

/// Box-box contacts when face `q` of one box separates best: the other box's nearest face (or
/// edge, or corner) clipped to the reference face. Points are collected in `con[..].pos` in the
/// face frame (face at z = 0) before going to the world frame.
fn box_box_face(con: &mut [Contact], margin: Real, p: &BoxPair, q: usize, second: bool) -> usize {
    let ff = FaceFrame::new(q);
    let rotmore = ff.matrix();
    // the incident box (`s`) in the frame of the reference face, whose half sizes are `ss`
    let (r, mut pc, tmp, s) = if second {
        (
            mul_mat_mat_t3(&rotmore, &p.rot),
            ff.axis(&p.pos12),
            ff.axis(p.b2.size),
            *p.b1.size,
        )
    } else {
        (
            ff.rows(&p.rot),
            ff.axis(&p.pos21),
            ff.axis(p.b1.size),
            *p.b2.size,
        )
    };
    let rt = transpose3(&r);
    let ss = tmp.map(abs);
    let (lx, ly, hz) = (ss[0], ss[1], ss[2]);
    pc[2] -= hz;

    // the incident box's corner deepest along -z, and its edges that are not steep
    let mut clcorner = 0;
    for i in 0..3 {
        if r[6 + i] < 0.0 {
            clcorner += 1 << i;
        }
    }
    let mut lp = pc;
    for k in 0..3 {
        add_to_scl3(
            &mut lp,
            &row(&rt, k),
            s[k] * sign_if(clcorner & (1 << k) != 0),
        );
    }
    let mut pts = [[0.0; 3]; 6];
    pts[0] = lp;
    let mut m = 1;
    for i in 0..3 {
        if abs(r[6 + i]) < 0.5 {
            let scale = s[i] * if clcorner & (1 << i) != 0 { -2.0 } else { 2.0 };
            if let Some(slot) = pts.get_mut(m) {
                *slot = scl3(&row(&rt, i), scale);
            }
            m += 1;
        }
    }
    pts[3] = add3(&pts[0], &pts[1]);
    pts[4] = add3(&pts[0], &pts[2]);
    pts[5] = add3(&pts[3], &pts[2]);

    // edges of the incident face as (start, direction)
    let mut lines = [[0.0; 6]; 4];
    let mut k = 0;
    let mut line = |a: &[Real; 3], b: &[Real; 3]| {
        lines[k][..3].copy_from_slice(a);
        lines[k][3..].copy_from_slice(b);
        k += 1;
    };
    if m > 1 {
        line(&pts[0], &pts[1]);
    }
    if m > 2 {
        line(&pts[0], &pts[2]);
        line(&pts[3], &pts[2]);
        line(&pts[4], &pts[1]);
    }

    // where those edges cross the borders of the reference face
    let mut n = 0;
    for ln in &lines[..k] {
        for q in 0..2 {
            let (a, b, c, dd) = (ln[q], ln[3 + q], ln[1 - q], ln[4 - q]);
            if abs(b) > MINVAL {
                for j in [-1.0, 1.0] {
                    let l = ss[q] * j;
                    let c1 = (l - a) * (1.0 / b);
                    if c1 < 0.0 || c1 > 1.0 {
                        continue;
                    }
                    let c2 = c + dd * c1;
                    if abs(c2) > ss[1 - q] {
                        continue;
                    }
                    let mut pt = [ln[0], ln[1], ln[2]];
                    add_to_scl3(&mut pt, &[ln[3], ln[4], ln[5]], c1);
                    con[n].pos = pt;
                    n += 1;
                }
            }
        }
    }

    // corners of the reference face inside the incident face
    let (a, b, c, dd) = (pts[1][0], pts[2][0], pts[1][1], pts[2][1]);
    let det = a * dd - b * c;
    if m > 2 {
        for i in 0..4 {
            let llx = if i / 2 != 0 { lx } else { -lx };
            let lly = if i % 2 != 0 { ly } else { -ly };
            let x = llx - pts[0][0];
            let y = lly - pts[0][1];
            let u = (x * dd - y * b) * (1.0 / det);
            let v = (y * a - x * c) * (1.0 / det);
            if u <= 0.0 || v <= 0.0 || u >= 1.0 || v >= 1.0 {
                continue;
            }
            con[n].pos = [llx, lly, pts[0][2] + u * pts[1][2] + v * pts[2][2]];
            n += 1;
        }
    }

    // corners of the incident face inside the reference face
    for i in 0..(1usize << (m - 1)) {
        let Some(t) = pts.get(if i == 0 { 0 } else { i + 2 }) else {
            break;
        };
        if i > 0 && (t[0] <= -lx || t[0] >= lx || t[1] <= -ly || t[1] >= ly) {
            continue;
        }
        con[n].pos = *t;
        n += 1;
    }

    // keep the points within the margin, halfway between the incident point and the face
    let found = n;
    n = 0;
    for i in 0..found {
        let pt = con[i].pos;
        if pt[2] > margin {
            continue;
        }
        con[n].pos = [pt[0], pt[1], pt[2] * 0.5];
        n += 1;
    }

    let (mat, pos) = if second {
        (p.b2.mat, p.b2.pos)
    } else {
        (p.b1.mat, p.b1.pos)
    };
    let r = mul_mat_mat_t3(mat, &rotmore);
    let flip = if second { -1.0 } else { 1.0 };
    set_normal(&mut con[0], &[flip * r[2], flip * r[5], flip * r[8]]);
    let frame0 = con[0].frame;
    for (i, ci) in con[..n].iter_mut().enumerate() {
        ci.dist = ci.pos[2];
        let mut pt = ci.pos;
        pt[2] += hz;
        ci.pos = add3(&rot_vec_mat(&pt, &r), pos);
        if i > 0 {
            ci.frame[..6].copy_from_slice(&frame0[..6]);
        }
    }
    n
}

/// Box-box contacts when the cross product of edge `i` of box 1 and edge `j` of box 2 separates
/// best: box 2's face adjacent to the nearest edge, projected along the axis onto box 1's
/// nearest face and clipped to it. Points and depths are collected in `con[..].pos` and
/// `con[..].dist` in the frame of that face.
#[allow(clippy::too_many_arguments)]
fn box_box_edge(
    con: &mut [Contact],
    margin: Real,
    p: &BoxPair,
    q1: usize,
    q2: usize,
    clnorm: &[Real; 3],
    cle1: i32,
    cle2: i32,
    inside: bool,
) -> usize {
    let size2 = p.b2.size;
    let others = |q: usize| match q {
        0 => (1, 2),
        1 => (0, 2),
        _ => (1, 0),
    };
    let (mut ax1, mut ax2) = others(q2);
    let (pax1, mut pax2) = others(q1);
    if p.rotabs[3 * q1 + ax1] < p.rotabs[3 * q1 + ax2] {
        ax1 = ax2;
        ax2 = 3 - q2 - ax1;
    }
    // the transpose's absolute values, read where they are (only this rare path needs them)
    if p.rotabs[3 * pax1 + q2] < p.rotabs[3 * pax2 + q2] {
        pax2 = 3 - q1 - pax2;
    }
    let clface = if cle1 & (1 << pax2) != 0 {
        pax2
    } else {
        pax2 + 3
    };

    // box 2 in the frame of box 1's face `clface`
    let ff = FaceFrame::new(clface);
    let rotmore = ff.matrix();
    let mut pc = ff.axis(&p.pos21);
    let rnorm = ff.axis(clnorm);
    let r = ff.rows(&p.rot);
    let s = rot_vec_mat_t(p.b1.size, &rotmore).map(abs);
    let rt = transpose3(&r);
    let (lx, ly, hz) = (s[0], s[1], s[2]);
    pc[2] -= hz;

    // the two edges of box 2's face through its nearest edge (along axis q2)
    let bit = |k: usize| cle2 & (1 << k) != 0;
    let mut points = [[0.0; 3]; 4];
    for (e, first) in [(0, true), (2, false)] {
        let mut pt = pc;
        let s1 = sign_if(bit(ax1) == first);
        add_to_scl3(&mut pt, &row(&rt, ax1), size2[ax1] * s1);
        add_to_scl3(&mut pt, &row(&rt, ax2), size2[ax2] * sign_if(bit(ax2)));
        points[e] = pt;
        points[e + 1] = pt;
        add_to_scl3(&mut points[e], &row(&rt, q2), size2[q2]);
        add_to_scl3(&mut points[e + 1], &row(&rt, q2), -size2[q2]);
    }
    let axi = [
        points[0],
        sub3(&points[1], &points[0]),
        sub3(&points[2], &points[0]),
    ];

    if abs(rnorm[2]) < MINVAL {
        return 0;
    }
    let innorm = (1.0 / rnorm[2]) * if inside { -1.0 } else { 1.0 };

    // project the face's corners along the axis onto the plane z = 0
    let mut pu = [[0.0; 3]; 4];
    let mut ppts2 = [[0.0; 2]; 4];
    for i in 0..4 {
        let c1 = -points[i][2] * (1.0 / rnorm[2]);
        pu[i] = points[i];
        add_to_scl3(&mut points[i], &rnorm, c1);
        ppts2[i] = [points[i][0], points[i][1]];
    }
    let pts = [
        points[0],
        sub3(&points[1], &points[0]),
        sub3(&points[2], &points[0]),
    ];

    // edges of the projected face (lines) and of the face itself (linesu)
    let cat = |a: [Real; 3], b: [Real; 3]| [a[0], a[1], a[2], b[0], b[1], b[2]];
    let lines = [
        cat(pts[0], pts[1]),
        cat(pts[0], pts[2]),
        cat(add3(&pts[0], &pts[1]), pts[2]),
        cat(add3(&pts[0], &pts[2]), pts[1]),
    ];
    let linesu = [
        cat(axi[0], axi[1]),
        cat(axi[0], axi[2]),
        cat(add3(&axi[0], &axi[1]), axi[2]),
        cat(add3(&axi[0], &axi[2]), axi[1]),
    ];

    // where the projected edges cross the borders of box 1's face
    let mut n = 0;
    for (ln, lu) in lines.iter().zip(&linesu) {
        for q in 0..2 {
            let (a, b, c, dd) = (ln[q], ln[3 + q], ln[1 - q], ln[4 - q]);
            if !(abs(b) > MINVAL) {
                continue;
            }
            for j in [-1.0, 1.0] {
                if n >= MAXCONPAIR {
                    continue;
                }
                let l = s[q] * j;
                let c1 = (l - a) * (1.0 / b);
                if c1 < 0.0 || c1 > 1.0 {
                    continue;
                }
                let c2 = c + dd * c1;
                if abs(c2) > s[1 - q] {
                    continue;
                }
                if (lu[2] + lu[5] * c1) * innorm > margin {
                    continue;
                }
                let mut pt = scl3(&[lu[0], lu[1], lu[2]], 0.5);
                add_to_scl3(&mut pt, &[lu[3], lu[4], lu[5]], 0.5 * c1);
                pt[q] += 0.5 * l;
                pt[1 - q] += 0.5 * c2;
                con[n].pos = pt;
                con[n].dist = pt[2] * innorm * 2.0;
                n += 1;
            }
        }
    }
    let nl = n;

    // corners of box 1's face inside the projected face. MuJoCo reuses the determinant's
    // variable for the squared distance below, so later corners divide by that distance.
    let (a, b, c, dd) = (pts[1][0], pts[2][0], pts[1][1], pts[2][1]);
    let mut c1 = a * dd - b * c;
    for i in 0..4 {
        if n >= MAXCONPAIR {
            continue;
        }
        let llx = if i / 2 != 0 { lx } else { -lx };
        let lly = if i % 2 != 0 { ly } else { -ly };
        let x = llx - pts[0][0];
        let y = lly - pts[0][1];
        let mut u = (x * dd - y * b) * (1.0 / c1);
        let mut v = (y * a - x * c) * (1.0 / c1);
        let out = |t: Real| t < 0.0 || t > 1.0;
        if nl == 0 {
            if out(u) && out(v) {
                continue;
            }
        } else if out(u) || out(v) {
            continue;
        }
        u = u.clamp(0.0, 1.0);
        v = v.clamp(0.0, 1.0);
        let mut tmp1 = scl3(&pu[0], 1.0 - u - v);
        add_to_scl3(&mut tmp1, &pu[1], u);
        add_to_scl3(&mut tmp1, &pu[2], v);
        let corner = [llx, lly, 0.0];
        let tmp2 = sub3(&corner, &tmp1);
        c1 = dot3(&tmp2, &tmp2);
        if tmp1[2] > 0.0 && c1 > margin * margin {
            continue;
        }
        con[n].pos = scl3(&add3(&corner, &tmp1), 0.5);
        con[n].dist = sqrt(c1) * if tmp1[2] < 0.0 { -1.0 } else { 1.0 };
        n += 1;
    }
    let nf = n;

    // corners of the projected face inside box 1's face
    for i in 0..4 {
        if n >= MAXCONPAIR {
            continue;
        }
        let [x, y] = ppts2[i];
        let outx = x < -lx || x > lx;
        let outy = y < -ly || y > ly;
        if nl == 0 {
            if nf != 0 && outx && outy {
                continue;
            }
        } else if outx || outy {
            continue;
        }
        let mut c1 = 0.0;
        let mut tmp1 = [ppts2[i][0] * 0.5, ppts2[i][1] * 0.5, 0.0];
        for j in 0..2 {
            let t = ppts2[i][j];
            if t < -s[j] {
                c1 += (t + s[j]) * (t + s[j]);
                tmp1[j] = -s[j] * 0.5;
            } else if t > s[j] {
                c1 += (t - s[j]) * (t - s[j]);
                tmp1[j] = s[j] * 0.5;
            }
        }
        c1 += pu[i][2] * innorm * pu[i][2] * innorm;
        if pu[i][2] > 0.0 && c1 > margin * margin {
            continue;
        }
        add_to_scl3(&mut tmp1, &pu[i], 0.5);
        con[n].pos = tmp1;
        con[n].dist = sqrt(c1) * if pu[i][2] < 0.0 { -1.0 } else { 1.0 };
        n += 1;
    }

    // back to the world frame
    let r = mul_mat_mat_t3(p.b1.mat, &rotmore);
    let normal = scl3(&rot_vec_mat(&rnorm, &r), if inside { -1.0 } else { 1.0 });
    set_normal(&mut con[0], &normal);
    let frame0 = con[0].frame;
    for ci in &mut con[..n] {
        let mut pt = ci.pos;
        pt[2] += hz;
        ci.pos = add3(&rot_vec_mat(&pt, &r), p.b1.pos);
        ci.frame[..6].copy_from_slice(&frame0[..6]);
    }
    n
}
