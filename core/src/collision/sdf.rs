//! Collisions with signed-distance-field geoms (MuJoCo 3.1.6's `engine_collision_sdf.c`):
//! [`sdf_sdf`] (`mjc_SDF`, an SDF geom against another SDF or a sphere, capsule, ellipsoid,
//! cylinder or box), [`mesh_sdf`] (`mjc_MeshSDF`) and [`hfield_sdf`] (`mjc_HFieldSDF`, which
//! MuJoCo does not implement either). Planes collide with the SDF's mesh as with any mesh.
//!
//! Against an SDF, a contact is a local minimum of a function of both distance fields, found by
//! gradient descent with backtracking from `opt.sdf_initpoints` Halton points in the
//! intersection of the two bounding boxes, `opt.sdf_iterations` steps each; a mesh triangle
//! gets Frank-Wolfe steps from its centroid instead. The plugin's numeric attributes are
//! converted once per call ([`plugin::sdf_attributes`]).
//!
//! Differences from MuJoCo, none of which changes a contact: the plugins' trace of the descent
//! for `mjVIS_SDFITER` is not kept, mesh-SDF does not mark `bvh_active`, and MuJoCo's text
//! warning when a mesh has more than 1300 candidate triangles is not printed (the candidates
//! are cut there as in MuJoCo).

use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::mat::{rot_vec_mat, rot_vec_mat_t};
use crate::math::misc::{clip, halton, max, min};
use crate::math::pose::{mul_pose, neg_pose};
use crate::math::quat::{mat2quat, quat2mat, rot_vec_quat};
use crate::math::scalar::{abs, sqrt};
use crate::math::spatial::make_frame;
use crate::math::vec::{
    add_scl3, add_to3, add_to_scl3, cross, dist3, dot3, norm3, normalize3, scl3, sub3, sub_from3,
};
use crate::model::Model;
use crate::plugin::{self, Plugin, MAX_SDF_ATTRIBUTES};
use crate::real::{Real, MAXVAL, MINVAL};
use crate::support::{v3, v4, v9};
use crate::types::*;

/// Most mesh triangles whose bounding boxes reach the SDF (`MAXSDFFACE`).
const MAX_SDF_FACE: usize = 1300;
/// Most mesh-SDF candidate points (`MAXMESHPNT`).
const MAX_MESH_POINT: usize = 500;

/// One operand of a distance function: an SDF plugin instance with its numeric attributes and
/// its object, or a primitive geom's type and size.
#[derive(Clone, Copy)]
enum Field<'d> {
    Plugin {
        plugin: &'static dyn Plugin,
        attributes: [Real; MAX_SDF_ATTRIBUTES],
        object: &'d [u8],
    },
    Primitive {
        type_: i32,
        size: [Real; 3],
    },
}

/// How two fields combine (`mjtSDFType`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combine {
    /// The first field alone.
    Single,
    /// `max(A, B)`: inside both.
    Intersection,
    /// `A - B`: zero where the two are equally deep.
    Midsurface,
    /// `A + B + |max(A, B)|`: the objective of the descent, smallest deep inside both.
    Collision,
}

/// A distance function in the frame of the first field (`mjSDF`); the second field, if any, is
/// evaluated at `relmat * x + relpos`.
struct Sdf<'d> {
    fields: [Field<'d>; 2],
    relpos: [Real; 3],
    relmat: [Real; 9],
    combine: Combine,
}

impl<'d> Field<'d> {
    /// The field of geom `g`: its plugin instance's for an SDF geom, else its type and size.
    fn of_geom(m: &Model, d: &'d Data, g: usize) -> Result<Self, StepError> {
        if m.geom_type[g] != GEOM_SDF {
            return Ok(Field::Primitive {
                type_: m.geom_type[g],
                size: v3(&m.geom_size)[g],
            });
        }
        let instance = usize::try_from(m.geom_plugin[g])
            .map_err(|_| StepError::Rejected("invalid plugin slot"))?;
        let plugin = plugin::instance_plugin(m, instance)
            .ok_or(StepError::Rejected("invalid plugin slot"))?;
        if plugin.capabilities() & plugin::PLUGIN_SDF == 0 {
            return Err(StepError::Rejected("Plugin is not a signed distance field"));
        }
        let attributes =
            plugin::sdf_attributes(m, instance).map_err(|e| StepError::Rejected(e.message))?;
        let object = plugin::instance_object_ref(d.plugin_data, d.plugin_objects(), instance);
        Ok(Field::Plugin {
            plugin,
            attributes,
            object,
        })
    }

    /// Signed distance at `x` (MuJoCo's `geomDistance`, after
    /// <https://iquilezles.org/articles/distfunctions/>).
    fn distance(&self, x: &[Real; 3]) -> Real {
        let (type_, size) = match self {
            Field::Plugin {
                plugin,
                attributes,
                object,
            } => return plugin.sdf_distance(x, attributes, object),
            Field::Primitive { type_, size } => (*type_, size),
        };
        match type_ {
            GEOM_PLANE => x[2],
            GEOM_SPHERE => norm3(x) - size[0],
            GEOM_BOX => {
                let a: [Real; 3] = core::array::from_fn(|i| abs(x[i]) - size[i]);
                let b = a.map(|v| max(v, 0.0));
                norm3(&b) + min(max(a[0], max(a[1], a[2])), 0.0)
            }
            GEOM_CAPSULE => {
                let a = [x[0], x[1], x[2] - clip(x[2], -size[1], size[1])];
                norm3(&a) - size[0]
            }
            GEOM_ELLIPSOID => {
                let a: [Real; 3] = core::array::from_fn(|i| x[i] / size[i]);
                let b: [Real; 3] = core::array::from_fn(|i| a[i] / size[i]);
                let k0 = norm3(&a);
                let k1 = norm3(&b);
                k0 * (k0 - 1.0) / k1
            }
            GEOM_CYLINDER => {
                let a = [
                    sqrt(x[0] * x[0] + x[1] * x[1]) - size[0],
                    abs(x[2]) - size[1],
                ];
                let b = [max(a[0], 0.0), max(a[1], 0.0)];
                min(max(a[0], a[1]), 0.0) + sqrt(b[0] * b[0] + b[1] * b[1])
            }
            // the collision table sends no other type here
            _ => 0.0,
        }
    }

    /// Gradient of [`Field::distance`] at `x` (MuJoCo's `geomGradient`).
    fn gradient(&self, x: &[Real; 3]) -> [Real; 3] {
        let (type_, size) = match self {
            Field::Plugin {
                plugin,
                attributes,
                object,
            } => return plugin.sdf_gradient(x, attributes, object),
            Field::Primitive { type_, size } => (*type_, size),
        };
        match type_ {
            GEOM_PLANE => [0.0, 0.0, 1.0],
            GEOM_SPHERE => {
                let c = norm3(x);
                x.map(|v| v * (1.0 / c))
            }
            GEOM_BOX => box_gradient(x, size),
            GEOM_CAPSULE => {
                let a = [x[0], x[1], x[2] - clip(x[2], -size[1], size[1])];
                let c = norm3(&a);
                a.map(|v| v / c)
            }
            GEOM_ELLIPSOID => ellipsoid_gradient(x, size),
            GEOM_CYLINDER => cylinder_gradient(x, size),
            _ => [0.0; 3],
        }
    }
}

fn box_gradient(x: &[Real; 3], size: &[Real; 3]) -> [Real; 3] {
    let mut gradient = [0.0; 3];
    let a: [Real; 3] = core::array::from_fn(|i| abs(x[i]) - size[i]);
    let k = if a[0] > a[1] { 0 } else { 1 };
    let l = if a[2] > a[k] { 2 } else { k };
    if a[l] < 0.0 {
        gradient[l] = x[l] / abs(x[l]);
    } else {
        let b = a.map(|v| max(v, 0.0));
        let c = norm3(&b);
        for i in 0..3 {
            gradient[i] = if a[i] > 0.0 {
                b[i] / c * x[i] / abs(x[i])
            } else {
                0.0
            };
        }
    }
    gradient
}

fn ellipsoid_gradient(x: &[Real; 3], size: &[Real; 3]) -> [Real; 3] {
    let a: [Real; 3] = core::array::from_fn(|i| x[i] / size[i]);
    let b: [Real; 3] = core::array::from_fn(|i| a[i] / size[i]);
    let k0 = norm3(&a);
    let k1 = norm3(&b);
    let inv_k0 = 1.0 / k0;
    let inv_k1 = 1.0 / k1;
    let gk0 = b.map(|v| v * inv_k0);
    let gk1: [Real; 3] = core::array::from_fn(|i| b[i] * inv_k1 / (size[i] * size[i]));
    let df_dk0 = (2.0 * k0 - 1.0) * inv_k1;
    let df_dk1 = k0 * (k0 - 1.0) * inv_k1 * inv_k1;
    let mut gradient: [Real; 3] = core::array::from_fn(|i| gk0[i] * df_dk0 - gk1[i] * df_dk1);
    normalize3(&mut gradient);
    gradient
}

fn cylinder_gradient(x: &[Real; 3], size: &[Real; 3]) -> [Real; 3] {
    let c = sqrt(x[0] * x[0] + x[1] * x[1]);
    let e = abs(x[2]);
    let a = [c - size[0], e - size[1]];
    let grada = [x[0] / c, x[1] / c, x[2] / e];
    let j = if a[0] > a[1] { 0 } else { 1 };
    if a[j] < 0.0 {
        [
            if j == 0 { grada[0] } else { 0.0 },
            if j == 0 { grada[1] } else { 0.0 },
            if j == 1 { grada[2] } else { 0.0 },
        ]
    } else {
        let b = [max(a[0], 0.0), max(a[1], 0.0)];
        let bnorm = sqrt(b[0] * b[0] + b[1] * b[1]);
        [
            grada[0] * b[0] / bnorm,
            grada[1] * b[0] / bnorm,
            grada[2] * b[1] / bnorm,
        ]
    }
}

impl<'d> Sdf<'d> {
    /// One field alone.
    fn single(field: Field<'d>) -> Self {
        Self {
            fields: [field, field],
            relpos: [0.0; 3],
            relmat: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            combine: Combine::Single,
        }
    }

    /// `x` in the frame of the second field.
    fn second_point(&self, x: &[Real; 3]) -> [Real; 3] {
        let mut y = rot_vec_mat(x, &self.relmat);
        add_to3(&mut y, &self.relpos);
        y
    }

    /// The combined distance at `x` (`mjc_distance`).
    fn distance(&self, x: &[Real; 3]) -> Real {
        if self.combine == Combine::Single {
            return self.fields[0].distance(x);
        }
        let y = self.second_point(x);
        let a = self.fields[0].distance(x);
        let b = self.fields[1].distance(&y);
        match self.combine {
            Combine::Intersection => max(a, b),
            Combine::Midsurface => a - b,
            Combine::Collision => a + b + abs(max(a, b)),
            Combine::Single => a,
        }
    }

    /// The gradient of the combined distance at `x` (`mjc_gradient`).
    fn gradient(&self, x: &[Real; 3]) -> [Real; 3] {
        if self.combine == Combine::Single {
            return self.fields[0].gradient(x);
        }
        let y = self.second_point(x);
        match self.combine {
            Combine::Intersection => {
                if self.fields[0].distance(x) > self.fields[1].distance(&y) {
                    self.fields[0].gradient(x)
                } else {
                    rot_vec_mat_t(&self.fields[1].gradient(&y), &self.relmat)
                }
            }
            Combine::Midsurface => {
                let mut grad1 = self.fields[0].gradient(x);
                normalize3(&mut grad1);
                let mut grad2 = rot_vec_mat_t(&self.fields[1].gradient(&y), &self.relmat);
                normalize3(&mut grad2);
                let mut gradient = sub3(&grad1, &grad2);
                normalize3(&mut gradient);
                gradient
            }
            _ => {
                let a = self.fields[0].distance(x);
                let b = self.fields[1].distance(&y);
                let grad1 = self.fields[0].gradient(x);
                let grad2 = rot_vec_mat_t(&self.fields[1].gradient(&y), &self.relmat);
                let mut gradient: [Real; 3] = core::array::from_fn(|i| grad1[i] + grad2[i]);
                let sign = if max(a, b) > 0.0 { 1.0 } else { -1.0 };
                add_to_scl3(&mut gradient, if a > b { &grad1 } else { &grad2 }, sign);
                gradient
            }
        }
    }
}

/// The pose `(pos12, mat12)` of frame 1 seen from frame 2, `(xpos2, xquat2)⁻¹ ∘ (xpos1,
/// xquat1)` (`mapPose`).
fn map_pose(
    xpos1: &[Real; 3],
    xquat1: &[Real; 4],
    xpos2: &[Real; 3],
    xquat2: &[Real; 4],
) -> ([Real; 3], [Real; 9]) {
    let (negpos, negquat) = neg_pose(xpos2, xquat2);
    let (pos12, quat12) = mul_pose(&negpos, &negquat, xpos1, xquat1);
    (pos12, quat2mat(&quat12))
}

/// The pose of the frame in which geom `g`'s distance field is defined: for a mesh or SDF
/// geom, the mesh's frame before the compiler moved it to the centroid (`undoTransformation`).
fn field_pose(m: &Model, d: &Data, g: usize) -> ([Real; 3], [Real; 4]) {
    let (xpos, xmat) = (&v3(d.geom_xpos)[g], &v9(d.geom_xmat)[g]);
    match m.geom_type[g] {
        GEOM_MESH | GEOM_SDF => field_frame(m, xpos, xmat, g),
        _ => (*xpos, mat2quat(xmat)),
    }
}

/// The frame of the distance field of SDF (or mesh) geom `g` at pose `xpos`, `xmat`: the pose
/// composed with the inverse of the mesh's offset (`mesh_pos`, `mesh_quat`).
pub(crate) fn field_frame(
    m: &Model,
    xpos: &[Real; 3],
    xmat: &[Real; 9],
    g: usize,
) -> ([Real; 3], [Real; 4]) {
    let xquat = mat2quat(xmat);
    let Some(mesh) = usize::try_from(m.geom_dataid[g]).ok() else {
        return (*xpos, xquat);
    };
    let (negpos, negquat) = neg_pose(&v3(&m.mesh_pos)[mesh], &v4(&m.mesh_quat)[mesh]);
    mul_pose(xpos, &xquat, &negpos, &negquat)
}

/// Whether `x` is within `MINVAL` of one of the points already taken (`isknown`).
fn is_known(points: &[[Real; 3]], x: &[Real; 3]) -> bool {
    points.iter().any(|p| dist3(x, p) < MINVAL)
}

/// Adds a contact at `x` (field frame, pose `pos2`, `quat2`) of depth `dist` unless it is not
/// penetrating or already known (`addContact`); the normal is minus the gradient of `sdf`.
/// Returns the new count.
#[allow(clippy::too_many_arguments)]
fn add_contact(
    points: &mut [[Real; 3]],
    con: &mut [Contact],
    x: &[Real; 3],
    pos2: &[Real; 3],
    quat2: &[Real; 4],
    dist: Real,
    cnt: usize,
    sdf: &Sdf,
) -> Result<usize, StepError> {
    if dist > 0.0 || is_known(&points[..cnt], x) {
        return Ok(cnt);
    }
    let (Some(point), Some(c)) = (points.get_mut(cnt), con.get_mut(cnt)) else {
        return Err(StepError::Numerical("too many contact points"));
    };
    *point = *x;
    let norm = scl3(&sdf.gradient(x), -1.0);
    c.dist = dist;
    c.frame = [0.0; 9];
    c.frame[..3].copy_from_slice(&rot_vec_quat(&norm, quat2));
    // MuJoCo's test, which a NaN normal passes
    if norm3(&norm) < 0.5 {
        return Err(StepError::Numerical("xaxis of contact frame undefined"));
    }
    make_frame(&mut c.frame);
    let normal = [c.frame[0], c.frame[1], c.frame[2]];
    let vec = scl3(&normal, -c.dist / 2.0);
    c.pos = rot_vec_quat(x, quat2);
    add_to3(&mut c.pos, pos2);
    add_to3(&mut c.pos, &vec);
    Ok(cnt + 1)
}

/// Frank-Wolfe steps over the triangle `corners` from `x`; returns the distance at the end
/// (`stepFrankWolfe`).
fn step_frank_wolfe(x: &mut [Real; 3], corners: &[[Real; 3]; 3], m: &Model, sdf: &Sdf) -> Real {
    for step in 0..m.opt.sdf_iterations.max(0) {
        let grad = sdf.gradient(x);
        let mut best = 1e10;
        let mut s = [0.0; 3];
        for corner in corners {
            let fun = dot3(corner, &grad);
            if fun < best {
                best = fun;
                s = *corner;
            }
        }
        sub_from3(&mut s, x);
        add_to_scl3(x, &s, 2.0 / (f64::from(step) as Real + 2.0));
    }
    sdf.distance(x)
}

/// Gradient descent with backtracking line search from `x`, `niter` steps at most; returns the
/// last distance, or `MAXVAL` when the gradient is not finite (`stepGradient`).
fn step_gradient(x: &mut [Real; 3], sdf: &Sdf, niter: i32) -> Real {
    const C: Real = 0.1; // fraction of the first-order decrease the step must achieve
    const RHO: Real = 0.5; // step reduction
    const AMIN: Real = 1e-4; // smallest step factor
    let mut dist = MAXVAL;
    for _ in 0..niter {
        let mut alpha: Real = 2.0;
        let grad = sdf.gradient(x);
        if grad
            .iter()
            .any(|g| g.is_nan() || *g > MAXVAL || *g < -MAXVAL)
        {
            return MAXVAL;
        }
        let x0 = *x;
        let dist0 = sdf.distance(&x0);
        let mut wolfe = -C * alpha * dot3(&grad, &grad);
        loop {
            alpha *= RHO;
            wolfe *= RHO;
            *x = add_scl3(&x0, &grad, -alpha);
            dist = sdf.distance(x);
            if !(alpha > AMIN && dist - dist0 > wolfe) {
                break;
            }
        }
        if dist0 < dist {
            return dist;
        }
    }
    dist
}

/// `mjc_SDF`: geom `g2` is an SDF, `g1` an SDF or a sphere, capsule, ellipsoid, cylinder or
/// box. Descends from Halton points in the intersection of the two bounding boxes.
pub fn sdf_sdf(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    _margin: Real,
) -> Result<usize, StepError> {
    if m.geom_type[g2] != GEOM_SDF {
        return Err(StepError::Rejected("geom is not an SDF"));
    }
    let (pos1, pos2) = (&v3(d.geom_xpos)[g1], &v3(d.geom_xpos)[g2]);
    let quat1 = mat2quat(&v9(d.geom_xmat)[g1]);
    let quat2 = mat2quat(&v9(d.geom_xmat)[g2]);
    let (pos1true, squat1) = field_pose(m, d, g1);
    let (pos2true, squat2) = field_pose(m, d, g2);
    let (offset1, rotation1) = map_pose(pos2, &quat2, pos1, &quat1);
    let (offset2, rotation2) = map_pose(pos1, &quat1, &pos1true, &squat1);
    let (offset21, rotation21) = map_pose(&pos2true, &squat2, &pos1true, &squat1);
    let (offset12, rotation12) = map_pose(&pos1true, &squat1, &pos2true, &squat2);

    let Some(aabb) = box_intersection(m, g1, g2, &offset1, &rotation1) else {
        return Ok(0);
    };

    let mut sdf = Sdf {
        fields: [Field::of_geom(m, d, g2)?, Field::of_geom(m, d, g1)?],
        relpos: offset21,
        relmat: rotation21,
        combine: Combine::Collision,
    };
    let mut points = [[0.0; 3]; MAXCONPAIR];
    let mut cnt = 0;
    for j in 0..usize::try_from(m.opt.sdf_initpoints).unwrap_or(0) {
        let mut x = [
            aabb[0] + (aabb[3] - aabb[0]) * halton(j, 2),
            aabb[1] + (aabb[4] - aabb[1]) * halton(j, 3),
            aabb[2] + (aabb[5] - aabb[2]) * halton(j, 5),
        ];
        let mut y = rot_vec_mat(&x, &rotation2);
        add_to3(&mut y, &offset2);
        x = rot_vec_mat(&y, &rotation12);
        add_to3(&mut x, &offset12);

        // descend on the collision objective, then project onto the intersection (inexact
        // fields give spurious contacts otherwise); the normal is that of the midsurface
        sdf.combine = Combine::Collision;
        step_gradient(&mut x, &sdf, m.opt.sdf_iterations);
        sdf.combine = Combine::Intersection;
        let dist = step_gradient(&mut x, &sdf, 1);
        sdf.combine = Combine::Midsurface;
        cnt = add_contact(&mut points, con, &x, &pos2true, &squat2, dist, cnt, &sdf)?;
    }
    Ok(cnt)
}

/// The intersection of the two geoms' bounding boxes (`geom_aabb`) in geom 1's frame, as
/// `[min, max]`, or `None` when they do not overlap; `offset1`, `rotation1` map geom 2's frame
/// into geom 1's.
fn box_intersection(
    m: &Model,
    g1: usize,
    g2: usize,
    offset1: &[Real; 3],
    rotation1: &[Real; 9],
) -> Option<[Real; 6]> {
    let size1 = &m.geom_aabb[6 * g1..6 * g1 + 6];
    let size2 = &m.geom_aabb[6 * g2..6 * g2 + 6];
    let mut aabb1 = [MAXVAL, MAXVAL, MAXVAL, -MAXVAL, -MAXVAL, -MAXVAL];
    let mut aabb2 = aabb1;
    for i in 0..8 {
        let corner = |s: &[Real], k: usize| {
            if i & (1 << k) != 0 {
                s[k] + s[k + 3]
            } else {
                s[k] - s[k + 3]
            }
        };
        let vec1: [Real; 3] = core::array::from_fn(|k| corner(size1, k));
        let mut vec2 = rot_vec_mat(&core::array::from_fn(|k| corner(size2, k)), rotation1);
        add_to3(&mut vec2, offset1);
        for k in 0..3 {
            aabb1[k] = min(aabb1[k], vec1[k]);
            aabb1[3 + k] = max(aabb1[3 + k], vec1[k]);
            aabb2[k] = min(aabb2[k], vec2[k]);
            aabb2[3 + k] = max(aabb2[3 + k], vec2[k]);
        }
    }
    let mut aabb = [0.0; 6];
    for k in 0..3 {
        aabb[k] = max(aabb1[k], aabb2[k]);
        aabb[3 + k] = min(aabb1[3 + k], aabb2[3 + k]);
    }
    if aabb[3] < aabb[0] || aabb[4] < aabb[1] || aabb[5] < aabb[2] {
        None
    } else {
        Some(aabb)
    }
}

/// `mjc_HFieldSDF`: not implemented in MuJoCo 3.1.6 either (it warns and finds nothing).
pub fn hfield_sdf(
    _m: &Model,
    _d: &Data,
    _con: &mut [Contact],
    _g1: usize,
    _g2: usize,
    _margin: Real,
) -> Result<usize, StepError> {
    Ok(0)
}

/// `mjc_MeshSDF`: mesh `g1` against SDF `g2`. The mesh's bounding-volume tree is culled by the
/// field, each remaining triangle starts a Frank-Wolfe descent at its centroid, and the deepest
/// [`MAXCONPAIR`] penetrating points become contacts.
///
/// Scratch on the call stack, as MuJoCo: about 20 KB.
pub fn mesh_sdf(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    _margin: Real,
) -> Result<usize, StepError> {
    let sdf = Sdf::single(Field::of_geom(m, d, g2)?);
    let pos1 = &v3(d.geom_xpos)[g1];
    let quat1 = mat2quat(&v9(d.geom_xmat)[g1]);
    let (pos2true, sdf_quat) = field_pose(m, d, g2);
    let (offset, rotation) = map_pose(pos1, &quat1, &pos2true, &sdf_quat);
    let pose = MeshPose { offset, rotation };

    let mut faces = [0u32; MAX_SDF_FACE];
    let nfaces = collide_bvh(m, g1, &pose, &sdf, &mut faces)?;

    let mesh = m.geom_dataid[g1] as usize;
    let vertadr = m.mesh_vertadr[mesh] as usize;
    let faceadr = m.mesh_faceadr[mesh] as usize;
    let mut candidate = [[0.0; 3]; MAX_MESH_POINT];
    let mut depth = [0.0; MAX_MESH_POINT];
    let mut ncandidate = 0;
    for &f in &faces[..nfaces] {
        let face = faceadr + f as usize;
        let corners: [[Real; 3]; 3] = core::array::from_fn(|v| {
            let vert = vertadr + m.mesh_face[3 * face + v] as usize;
            let p: [Real; 3] = core::array::from_fn(|k| Real::from(m.mesh_vert[3 * vert + k]));
            pose.to_field(&p)
        });
        if !triangle_intersect(&corners, &sdf) {
            continue;
        }
        let mut x: [Real; 3] =
            core::array::from_fn(|k| (corners[0][k] + corners[1][k] + corners[2][k]) / 3.0);
        if ncandidate == MAX_MESH_POINT {
            return Err(StepError::Numerical("too many contact points"));
        }
        let dist = step_frank_wolfe(&mut x, &corners, m, &sdf);
        if dist < 0.0 {
            candidate[ncandidate] = x;
            depth[ncandidate] = dist;
            ncandidate += 1;
        }
    }

    // deepest first; a stable order for equal depths, as glibc's merge sort in MuJoCo's qsort_r
    let mut index: [u16; MAX_MESH_POINT] = core::array::from_fn(|i| i as u16);
    let index = &mut index[..ncandidate];
    insertion_sort_by_depth(index, &depth);
    let mut points = [[0.0; 3]; MAXCONPAIR];
    let mut cnt = 0;
    for &i in index.iter().take(MAXCONPAIR) {
        let i = usize::from(i);
        cnt = add_contact(
            &mut points,
            con,
            &candidate[i],
            &pos2true,
            &sdf_quat,
            depth[i],
            cnt,
            &sdf,
        )?;
    }
    Ok(cnt)
}

/// Stable sort of `index` by increasing `depth[index]`.
fn insertion_sort_by_depth(index: &mut [u16], depth: &[Real]) {
    for i in 1..index.len() {
        let mut j = i;
        while j > 0 && depth[usize::from(index[j - 1])] > depth[usize::from(index[j])] {
            index.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The mesh frame seen from the field's frame.
struct MeshPose {
    offset: [Real; 3],
    rotation: [Real; 9],
}

impl MeshPose {
    /// Mesh coordinates to field coordinates.
    fn to_field(&self, p: &[Real; 3]) -> [Real; 3] {
        let mut q = rot_vec_mat(p, &self.rotation);
        add_to3(&mut q, &self.offset);
        q
    }
}

/// Whether the circumsphere of a bounding box (centre and half sizes in mesh coordinates)
/// reaches into the field (`boxIntersect`).
fn box_intersect(bvh: &[Real], pose: &MeshPose, sdf: &Sdf) -> bool {
    let r = norm3(&[bvh[3], bvh[4], bvh[5]]);
    let candidate = pose.to_field(&[bvh[0], bvh[1], bvh[2]]);
    sdf.distance(&candidate) < r
}

/// A stricter test of a triangle (field coordinates) against the field: the circumsphere of
/// the triangle and a fourth point below its centroid by a tenth of the distance there
/// (`triangleIntersect`).
fn triangle_intersect(triangle: &[[Real; 3]; 3], sdf: &Sdf) -> bool {
    const DISTANCE_SCL: Real = 10.0;
    let e0 = sub3(&triangle[1], &triangle[0]);
    let e1 = sub3(&triangle[2], &triangle[0]);
    let mut normal = cross(&e0, &e1);
    normalize3(&mut normal);

    let mut p = scl3(&triangle[0], 1.0 / 3.0);
    add_to_scl3(&mut p, &triangle[1], 1.0 / 3.0);
    add_to_scl3(&mut p, &triangle[2], 1.0 / 3.0);
    let h = -sdf.distance(&p) / DISTANCE_SCL;
    add_to_scl3(&mut p, &normal, -h);

    // the circumsphere of the tetrahedron, centred relative to p
    let v: [[Real; 3]; 3] = core::array::from_fn(|i| sub3(&triangle[i], &p));
    let c = [
        cross(&v[1], &v[2]),
        cross(&v[2], &v[0]),
        cross(&v[0], &v[1]),
    ];
    let mut center = scl3(&c[0], dot3(&v[0], &v[0]));
    add_to_scl3(&mut center, &c[1], dot3(&v[1], &v[1]));
    add_to_scl3(&mut center, &c[2], dot3(&v[2], &v[2]));
    center = scl3(&center, 1.0 / (2.0 * dot3(&v[0], &c[0])));
    let r = sqrt(dot3(&center, &center));
    add_to3(&mut center, &p);
    sdf.distance(&center) < r
}

/// Depth-first walk of mesh `g`'s bounding-volume tree (`collideBVH`): the leaves whose boxes
/// reach into the field go to `faces` (at most [`MAX_SDF_FACE`]); returns how many.
fn collide_bvh(
    m: &Model,
    g: usize,
    pose: &MeshPose,
    sdf: &Sdf,
    faces: &mut [u32; MAX_SDF_FACE],
) -> Result<usize, StepError> {
    let mesh = m.geom_dataid[g] as usize;
    let bvhadr = m.mesh_bvhadr[mesh] as usize;
    let bvhnum = m.mesh_bvhnum[mesh].max(0) as usize;
    let nodeid = &m.bvh_nodeid[bvhadr..bvhadr + bvhnum];
    let child = &m.bvh_child[2 * bvhadr..2 * (bvhadr + bvhnum)];
    let aabb = &m.bvh_aabb[6 * bvhadr..6 * (bvhadr + bvhnum)];

    // a depth-first stack holds at most one node per level and its sibling
    let mut stack = [0u32; 2 * MAXTREEDEPTH];
    let mut nstack = 1;
    let mut npoints = 0;
    while nstack > 0 {
        nstack -= 1;
        let node = stack[nstack] as usize;
        let bvh = &aabb[6 * node..6 * node + 6];
        if nodeid[node] != -1 {
            if box_intersect(bvh, pose, sdf) {
                faces[npoints] = nodeid[node] as u32;
                npoints += 1;
                if npoints == MAX_SDF_FACE {
                    return Ok(npoints);
                }
            }
            continue;
        }
        if !box_intersect(bvh, pose, sdf) {
            continue;
        }
        for i in 0..2 {
            let c = child[2 * node + i];
            if c != -1 {
                if nstack >= stack.len() || c as usize >= bvhnum {
                    return Err(StepError::Numerical("BVH stack depth exceeded"));
                }
                stack[nstack] = c as u32;
                nstack += 1;
            }
        }
    }
    Ok(npoints)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPHERE: Field = Field::Primitive {
        type_: GEOM_SPHERE,
        size: [0.5, 0.0, 0.0],
    };

    /// A field whose gradient is too large: MuJoCo's sanity check stops the descent.
    struct Steep;
    impl Plugin for Steep {
        fn name(&self) -> &'static str {
            "test.sdf.steep"
        }
        fn sdf_distance(&self, p: &[Real; 3], _: &[Real], _: &[u8]) -> Real {
            2e10 * p[0]
        }
        fn sdf_gradient(&self, _: &[Real; 3], _: &[Real], _: &[u8]) -> [Real; 3] {
            [2e10, 0.0, 0.0]
        }
    }
    static STEEP: Steep = Steep;

    /// A field with the trait's defaults: distance and gradient zero.
    struct Flat;
    impl Plugin for Flat {
        fn name(&self) -> &'static str {
            "test.sdf.flat"
        }
    }
    static FLAT: Flat = Flat;

    #[test]
    fn descent_reaches_the_surface_of_a_sphere() {
        let sdf = Sdf::single(SPHERE);
        let mut x = [1.0, 0.5, 0.25];
        let d = step_gradient(&mut x, &sdf, 10);
        assert!(d < 0.0 && d > -0.5, "{d}");
    }

    #[test]
    fn nan_or_huge_gradients_stop_the_descent_with_maxval() {
        // the sphere's gradient at its centre is 0/0
        let sdf = Sdf::single(SPHERE);
        let mut x = [0.0; 3];
        assert_eq!(step_gradient(&mut x, &sdf, 10), MAXVAL);
        assert_eq!(x, [0.0; 3]);
        let steep = Sdf::single(Field::Plugin {
            plugin: &STEEP,
            attributes: [0.0; MAX_SDF_ATTRIBUTES],
            object: &[],
        });
        let mut x = [1.0, 0.0, 0.0];
        assert_eq!(step_gradient(&mut x, &steep, 10), MAXVAL);
        // no contact comes of it
        let mut points = [[0.0; 3]; MAXCONPAIR];
        let mut con = [Contact::default(); 1];
        let cnt = add_contact(
            &mut points,
            &mut con,
            &x,
            &[0.0; 3],
            &[1.0, 0.0, 0.0, 0.0],
            MAXVAL,
            0,
            &steep,
        );
        assert_eq!(cnt, Ok(0));
    }

    #[test]
    fn repeated_points_and_a_full_buffer() {
        let sdf = Sdf::single(SPHERE);
        let mut points = [[0.0; 3]; 2];
        let mut con = [Contact::default(); 2];
        let q = [1.0, 0.0, 0.0, 0.0];
        let x = [0.4, 0.0, 0.0];
        assert_eq!(
            add_contact(&mut points, &mut con, &x, &[0.0; 3], &q, -0.1, 0, &sdf),
            Ok(1)
        );
        assert_eq!(con[0].frame[..3], [-1.0, 0.0, 0.0]);
        // half the depth back along the normal
        assert!((con[0].pos[0] - 0.35).abs() < 1e-15 && con[0].pos[1..] == [0.0, 0.0]);
        assert_eq!(
            add_contact(&mut points, &mut con, &x, &[0.0; 3], &q, -0.1, 1, &sdf),
            Ok(1)
        );
        let y = [0.0, 0.4, 0.0];
        assert_eq!(
            add_contact(&mut points, &mut con, &y, &[0.0; 3], &q, -0.1, 1, &sdf),
            Ok(2)
        );
        let z = [0.0, 0.0, 0.4];
        assert_eq!(
            add_contact(&mut points, &mut con, &z, &[0.0; 3], &q, -0.1, 2, &sdf),
            Err(StepError::Numerical("too many contact points"))
        );
        // a zero gradient has no normal: MuJoCo's fatal error
        let flat = Sdf::single(Field::Plugin {
            plugin: &FLAT,
            attributes: [0.0; MAX_SDF_ATTRIBUTES],
            object: &[],
        });
        assert_eq!(
            add_contact(&mut points, &mut con, &z, &[0.0; 3], &q, -0.1, 0, &flat),
            Err(StepError::Numerical("xaxis of contact frame undefined"))
        );
    }
}
