//! Convex collisions (MuJoCo's `engine_collision_convex.c` with libccd's MPR): pairs of convex
//! geoms including meshes (`mjc_Convex`), planes against meshes and ellipsoids
//! (`mjc_PlaneConvex`), height fields against convex geoms and flex elements
//! (`mjc_ConvexHField`, `mjc_HFieldElem`, in the `hfield` submodule). `mpr` is libccd's MPR, `shape` the geoms' support functions, `normal`
//! MuJoCo's analytic normal fix.
//!
//! Each function writes contacts at the front of `con` (the pair's slice of `mjMAXCONPAIR`
//! contacts) and returns how many: `dist`, `pos` and the normal `frame[0..3]`, the other frame
//! rows zero. The collision driver fills in the rest and completes the frame.

mod hfield;
mod mpr;
mod normal;
mod shape;

pub use hfield::convex_hfield;
pub(crate) use hfield::hfield_elem;

pub(crate) use self::mpr::ConvexShape;
use self::mpr::{is_origin, penetration, MprSettings};
use self::normal::{fix_normal, PosedGeom};
use self::shape::MeshHull;
pub(crate) use self::shape::{elem_vertices, flex_vertices, FlexShape, GeomShape};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::mat::{mul_mat_mat3, rot_vec_mat, rot_vec_mat_t, transpose};
use crate::math::misc::min;
use crate::math::quat::{axis_angle2quat, quat2mat};
use crate::math::spatial::make_frame;
use crate::math::vec::{add_to3, add_to_scl3, dist3, dot3, sub3, sub_from3};
use crate::model::Model;
use crate::real::Real;
use crate::support::{enabled, v3, v9};
use crate::types::*;

/// MPR's settings from the model options (`mjc_initCCD`); the validator keeps
/// `mpr_iterations` non-negative.
pub(crate) fn mpr_settings(m: &Model) -> MprSettings {
    MprSettings {
        tolerance: m.opt.mpr_tolerance,
        max_iterations: u64::try_from(m.opt.mpr_iterations).unwrap_or(0),
    }
}

/// General convex-convex collision (`mjc_Convex`): one MPR contact, and with
/// `ENBL_MULTICCD` (unless a geom is a sphere or ellipsoid) up to four more found by tilting
/// the geoms slightly about the first contact.
pub fn convex(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let settings = mpr_settings(m);
    let mut obj1 = GeomShape::new(m, d, g1, margin);
    let mut obj2 = GeomShape::new(m, d, g2, margin);
    let Some(first) = con.first_mut() else {
        return Ok(0);
    };
    if !mpr_contact(m, &mut obj1, &mut obj2, &settings, margin, first) {
        return Ok(0);
    }
    let round = |g: usize| matches!(m.geom_type[g], GEOM_SPHERE | GEOM_ELLIPSOID);
    if !enabled(m, ENBL_MULTICCD) || round(g1) || round(g2) {
        return Ok(1);
    }
    Ok(multi_contact(
        m, &mut obj1, &mut obj2, &settings, margin, con,
    ))
}

/// One MPR contact between two geoms with its normal fixed for smooth geoms
/// (`mjc_MPRIteration`); `false` when they do not touch or the normal is undefined.
fn mpr_contact(
    m: &Model,
    obj1: &mut GeomShape,
    obj2: &mut GeomShape,
    settings: &MprSettings,
    margin: Real,
    con: &mut Contact,
) -> bool {
    let Some(p) = penetration(obj1, obj2, settings) else {
        return false;
    };
    if is_origin(&p.dir) {
        return false;
    }
    con.dist = margin - p.depth;
    con.pos = p.pos;
    set_normal(con, &p.dir);
    fix_normal(
        m,
        con,
        [
            PosedGeom {
                geom: obj1.geom,
                pos: &obj1.pos,
                mat: &obj1.mat,
            },
            PosedGeom {
                geom: obj2.geom,
                pos: &obj2.pos,
                mat: &obj2.mat,
            },
        ],
    );
    true
}

/// A geom, flex element or flex vertex against a flex element (`mjc_ConvexElem`): one MPR
/// contact, with no normal correction (that is for pairs of geoms).
pub(crate) fn convex_elem<A: ConvexShape>(
    m: &Model,
    obj1: &mut A,
    obj2: &mut FlexShape,
    margin: Real,
    con: &mut Contact,
) -> usize {
    let Some(p) = penetration(obj1, obj2, &mpr_settings(m)) else {
        return 0;
    };
    if is_origin(&p.dir) {
        return 0;
    }
    con.dist = margin - p.depth;
    con.pos = p.pos;
    set_normal(con, &p.dir);
    1
}

/// Sets the contact normal and clears the rest of the frame.
pub(crate) fn set_normal(con: &mut Contact, normal: &[Real; 3]) {
    con.frame = [0.0; 9];
    con.frame[..3].copy_from_slice(normal);
}

/// Extra contacts after the first (`mjc_Convex`'s multi-CCD part): the geoms are rotated by
/// ±1e-3 rad in opposite senses about the two tangent axes of the first contact, through its
/// position; each distinct contact found is kept with the first contact's depth. Returns the
/// total number of contacts.
fn multi_contact(
    m: &Model,
    obj1: &mut GeomShape,
    obj2: &mut GeomShape,
    settings: &MprSettings,
    margin: Real,
    con: &mut [Contact],
) -> usize {
    const RELATIVE_TOLERANCE: Real = 1e-3;
    const PERTURBATION_ANGLE: Real = 1e-3;

    let (pose1, pose2) = ((obj1.pos, obj1.mat), (obj2.pos, obj2.mat));
    let mut frame = con[0].frame;
    make_frame(&mut frame);
    let origin = con[0].pos;
    let tolerance = RELATIVE_TOLERANCE * min(m.geom_rbound[obj1.geom], m.geom_rbound[obj2.geom]);

    let mut ncon = 1;
    for axis in [&frame[3..6], &frame[6..9]] {
        let axis = [axis[0], axis[1], axis[2]];
        for angle in [-PERTURBATION_ANGLE, PERTURBATION_ANGLE] {
            let Some(slot) = con.get_mut(ncon) else {
                return ncon;
            };
            let rot = quat2mat(&axis_angle2quat(&axis, angle));
            let mut invrot = [0.0; 9];
            transpose(&mut invrot, &rot, 3, 3);
            (obj1.pos, obj1.mat) = rotate_frame(&origin, &rot, &pose1.0, &pose1.1);
            (obj2.pos, obj2.mat) = rotate_frame(&origin, &invrot, &pose2.0, &pose2.1);

            if mpr_contact(m, obj1, obj2, settings, margin, slot) {
                let new = con[ncon].pos;
                // written as MuJoCo compares, so that a NaN distance counts as distinct
                if !con[..ncon].iter().any(|c| dist3(&c.pos, &new) <= tolerance) {
                    con[ncon].dist = con[0].dist;
                    ncon += 1;
                }
            }
            (obj1.pos, obj1.mat) = pose1;
            (obj2.pos, obj2.mat) = pose2;
        }
    }
    ncon
}

/// A frame `(xpos, xmat)` rotated by `rot` about the point `origin` (`mju_rotateFrame`).
fn rotate_frame(
    origin: &[Real; 3],
    rot: &[Real; 9],
    xpos: &[Real; 3],
    xmat: &[Real; 9],
) -> ([Real; 3], [Real; 9]) {
    let mat = mul_mat_mat3(rot, xmat);
    let rel = sub3(origin, xpos);
    let mut shift = rot_vec_mat(&rel, rot);
    sub_from3(&mut shift, &rel);
    let mut pos = *xpos;
    sub_from3(&mut pos, &shift);
    (pos, mat)
}

/// Most contacts `plane_convex` reports for one mesh.
const MAX_PLANE_MESH: usize = 3;
/// Extra plane-mesh contacts closer than this fraction of the mesh's bounding radius to the
/// first one are dropped.
const TOL_PLANE_MESH: Real = 0.3;

/// Plane against an ellipsoid or mesh (`mjc_PlaneConvex`): the deepest point below the
/// plane, then for meshes up to two more vertices near it (the hull neighbours of the deepest
/// vertex, or any vertex for meshes without a hull graph) that are within the margin.
pub fn plane_convex(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let pos1 = &v3(d.geom_xpos)[g1];
    let mat1 = &v9(d.geom_xmat)[g1];
    let normal = [mat1[2], mat1[5], mat1[8]];
    let dir = [-mat1[2], -mat1[5], -mat1[8]];

    let mut obj = GeomShape::new(m, d, g2, 0.0);
    let deepest = obj.support(&dir);
    let dist = dot3(&normal, &sub3(&deepest, pos1));
    let Some(first) = con.first_mut() else {
        return Ok(0);
    };
    if dist > margin {
        return Ok(0);
    }
    first.dist = dist;
    first.pos = deepest;
    add_to_scl3(&mut first.pos, &normal, -0.5 * dist);
    set_normal(first, &normal);

    // an ellipsoid touches a plane at one point
    if m.geom_dataid[g2] == -1 {
        return Ok(1);
    }
    let plane = Plane {
        pos: *pos1,
        normal,
        first: first.pos,
    };
    Ok(plane_mesh_extra(m, d, &plane, &dir, &obj, margin, con))
}

/// The plane of `plane_convex` and its first contact.
struct Plane {
    pos: [Real; 3],
    normal: [Real; 3],
    /// Position of the first contact.
    first: [Real; 3],
}

/// Additional plane-mesh contacts from vertices that reach within `margin` of the plane
/// (the part of `mjc_PlaneConvex` after the first contact). Returns the total count.
fn plane_mesh_extra(
    m: &Model,
    d: &Data,
    plane: &Plane,
    dir: &[Real; 3],
    obj: &GeomShape,
    margin: Real,
    con: &mut [Contact],
) -> usize {
    let g = obj.geom;
    let (pos2, mat2) = (&v3(d.geom_xpos)[g], &v9(d.geom_xmat)[g]);
    let mesh = MeshHull::of_geom(m, g);
    let locdir = rot_vec_mat_t(dir, mat2);
    // a vertex is a candidate when it reaches deeper along -normal than this
    let threshold = dot3(&plane.normal, &sub3(pos2, &plane.pos)) - margin;
    let limit = MAX_PLANE_MESH.min(con.len());
    let rbound = m.geom_rbound[g];

    let mut count = 1;
    let mut consider = |i: usize, count: &mut usize| {
        if *count < limit && mesh.project(i, &locdir) > threshold {
            let vertex = mesh.vertex(i);
            if add_plane_mesh(&mut con[*count], &vertex, plane, pos2, mat2, rbound) {
                *count += 1;
            }
        }
    };
    match (&mesh.graph, usize::try_from(obj.meshindex)) {
        (None, _) => {
            let best = obj.meshindex;
            for i in 0..mesh.vert.len() {
                if count >= limit {
                    break;
                }
                if i as i32 != best {
                    consider(i, &mut count);
                }
            }
        }
        (Some(graph), Ok(best)) => {
            for local in graph.neighbours(best) {
                if count >= limit {
                    break;
                }
                consider(graph.globalid[local] as usize, &mut count);
            }
        }
        (Some(_), Err(_)) => {}
    }
    count
}

/// One extra plane-mesh contact at mesh vertex `vertex` (mesh frame) unless it is too close
/// to the first contact (`addplanemesh`).
fn add_plane_mesh(
    con: &mut Contact,
    vertex: &[Real; 3],
    plane: &Plane,
    pos2: &[Real; 3],
    mat2: &[Real; 9],
    rbound: Real,
) -> bool {
    let mut pnt = rot_vec_mat(vertex, mat2);
    add_to3(&mut pnt, pos2);
    if dist3(&pnt, &plane.first) < TOL_PLANE_MESH * rbound {
        return false;
    }
    con.dist = dot3(&plane.normal, &sub3(&pnt, &plane.pos));
    con.pos = pnt;
    add_to_scl3(&mut con.pos, &plane.normal, -0.5 * con.dist);
    set_normal(con, &plane.normal);
    true
}
