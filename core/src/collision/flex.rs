//! Collisions of flexes (`mj_collidePlaneFlex`, `mj_collideGeomElem`, `mj_collideElems`,
//! `mj_collideElemVert`, `mj_collideFlexInternal`, `mj_collideFlexSAP`): a flex is a set of
//! elements (capsules, triangles or tetrahedra between its vertices) thickened by its radius.
//! Planes meet the vertices, other geoms and elements meet elements through the primitive
//! colliders (capsules, sphere-triangle), height field prisms or MPR; contacts name the flex,
//! element and vertex on each side instead of geoms.

use super::boxes::raw_capsule_box;
use super::contact::{set_contact, ContactParams, Side};
use super::convex::{convex_elem, elem_vertices, flex_vertices, hfield_elem, FlexShape, GeomShape};
use super::filter::{assign_margin, filter_box, filter_sphere_box};
use super::narrow::{push_contact, with_pair_buffer};
use super::primitive::{raw_capsule_capsule, raw_sphere_capsule, raw_sphere_triangle};
use super::{Shape, ShapeRef};
use crate::arena::Arena;
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::misc::max;
use crate::math::quat::{quat2mat, quat_z2vec};
use crate::math::vec::{add3, add_scl3, cross, dot3, normalize3, scl3, sub3};
use crate::model::Model;
use crate::real::Real;
use crate::support::{disabled, v3, v9};
use crate::types::*;

/// Element `e` of flex `f`'s bounding box (center, half sizes) in `flexelem_aabb`.
pub(super) fn elem_aabb<'d>(m: &Model, d: &'d Data, f: usize, e: usize) -> &'d [Real; 6] {
    &d.flexelem_aabb.as_chunks::<6>().0[m.flex_elemadr[f] as usize + e]
}

/// Whether element `e` of flex `f` takes part in self-collisions (`mj_isElemActive`): every
/// element of a 1D or 2D flex, the elements of a 3D flex in layers below `activelayers`.
pub(super) fn is_elem_active(m: &Model, f: usize, e: usize) -> bool {
    m.flex_dim[f] < 3 || m.flex_elemlayer[m.flex_elemadr[f] as usize + e] < m.flex_activelayers[f]
}

/// The capsule between two vertices of flex `f` with the flex's radius (`mj_makeCapsule`).
fn make_capsule(m: &Model, d: &Data, f: usize, ids: &[i32]) -> Shape {
    let vert = flex_vertices(m, d, f);
    let (v1, v2) = (&vert[ids[0] as usize], &vert[ids[1] as usize]);
    let mut dif = sub3(v1, v2);
    let half = 0.5 * normalize3(&mut dif);
    Shape {
        pos: scl3(&add3(v1, v2), 0.5),
        mat: quat2mat(&quat_z2vec(&dif)),
        size: [m.flex_radius[f], half, 0.0],
    }
}

/// Sets the ids of contacts on flexes: geoms, flexes, elements and vertices of both sides.
fn set_ids(con: &mut Contact, geom: [i32; 2], flex: [i32; 2], elem: [i32; 2], vert: [i32; 2]) {
    con.geom = geom;
    con.flex = flex;
    con.elem = elem;
    con.vert = vert;
}

/// A plane against the vertices of flex `f` (`mj_collidePlaneFlex`): one contact per vertex
/// within the margin of the plane, added one at a time until the contact array is full.
pub(super) fn plane_flex(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    g: usize,
    f: usize,
) -> Result<(), StepError> {
    let radius = m.flex_radius[f];
    let pos = v3(d.geom_xpos)[g];
    let mat = &v9(d.geom_xmat)[g];
    let normal = [mat[2], mat[5], mat[8]];
    let margin = assign_margin(m, max(m.geom_margin[g], m.flex_margin[f]));
    let params = ContactParams::mix_sides(m, Side::Geom(g), Side::Flex(f))?;
    for i in 0..m.flex_vertnum[f] as usize {
        let v = flex_vertices(m, d, f)[i];
        let dist = dot3(&sub3(&v, &pos), &normal);
        if dist > margin + radius {
            continue;
        }
        let mut con = Contact {
            dist: dist - radius,
            ..Contact::default()
        };
        con.pos = add_scl3(&v, &normal, -con.dist * 0.5 - radius);
        con.frame[..3].copy_from_slice(&normal);
        set_ids(
            &mut con,
            [g as i32, -1],
            [-1, f as i32],
            [-1, -1],
            [-1, i as i32],
        );
        set_contact(m, &mut con, &params, margin)?;
        if !push_contact(m, d, arena, &con) {
            return Ok(());
        }
    }
    Ok(())
}

/// Whether any vertex of element `e` of flex `f` sits on body `b`.
fn elem_on_body(m: &Model, f: usize, e: usize, b: i32) -> bool {
    let bodies = &m.flex_vertbodyid[m.flex_vertadr[f] as usize..];
    elem_vertices(m, f, e)
        .iter()
        .any(|&v| bodies[v as usize] == b)
}

/// A geom (not a plane) against element `e` of flex `f` (`mj_collideGeomElem`); elements with a
/// vertex on the geom's body are skipped.
pub(super) fn geom_elem(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    g: usize,
    f: usize,
    e: usize,
) -> Result<(), StepError> {
    let margin = assign_margin(m, max(m.geom_margin[g], m.flex_margin[f]));
    // without the midphase's boxes, a box test first
    if disabled(m, DSBL_MIDPHASE) {
        let pos = &v3(d.geom_xpos)[g];
        if filter_sphere_box(pos, m.geom_rbound[g] + margin, elem_aabb(m, d, f, e)) {
            return Ok(());
        }
    }
    if elem_on_body(m, f, e, m.geom_bodyid[g]) {
        return Ok(());
    }
    with_pair_buffer(d, arena, |d, con| {
        let num = geom_elem_contacts(m, d, con, g, f, e, margin);
        if num == 0 {
            return Ok(0);
        }
        let params = ContactParams::mix_sides(m, Side::Geom(g), Side::Flex(f))?;
        let (g, f, e) = (g as i32, f as i32, e as i32);
        for c in &mut con[..num] {
            set_ids(c, [g, -1], [-1, f], [-1, e], [-1, -1]);
            set_contact(m, c, &params, margin)?;
        }
        Ok(num)
    })
}

/// The contacts between geom `g` and element `e` of flex `f`: capsule elements against spheres,
/// capsules and boxes and triangles against spheres by the primitive colliders, height fields
/// by their prisms, the rest by MPR.
fn geom_elem_contacts(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g: usize,
    f: usize,
    e: usize,
    margin: Real,
) -> usize {
    let (dim, ty) = (m.flex_dim[f], m.geom_type[g]);
    let geom = ShapeRef::of(m, d, g);
    match (dim, ty) {
        (1, GEOM_SPHERE | GEOM_CAPSULE | GEOM_BOX) => {
            let capsule = make_capsule(m, d, f, elem_vertices(m, f, e));
            let capsule = capsule.view();
            match ty {
                GEOM_SPHERE => raw_sphere_capsule(&mut con[0], margin, geom, capsule),
                GEOM_CAPSULE => raw_capsule_capsule(con, margin, geom, capsule),
                _ => {
                    // the box is the collider's second shape: the normals point to the capsule
                    let num = raw_capsule_box(con, margin, capsule, geom);
                    for c in &mut con[..num] {
                        for x in &mut c.frame[..3] {
                            *x = -*x;
                        }
                    }
                    num
                }
            }
        }
        (_, GEOM_HFIELD) => hfield_elem(m, d, con, g, (f, e), margin),
        (2, GEOM_SPHERE) => {
            let vert = flex_vertices(m, d, f);
            let ids = elem_vertices(m, f, e);
            let tri = [0, 1, 2].map(|k| &vert[ids[k] as usize]);
            raw_sphere_triangle(
                &mut con[0],
                margin,
                geom.pos,
                geom.size[0],
                tri,
                m.flex_radius[f],
            )
        }
        _ => {
            let mut obj1 = GeomShape::new(m, d, g, margin);
            let mut obj2 = FlexShape::elem(m, d, f, e, margin);
            convex_elem(m, &mut obj1, &mut obj2, margin, &mut con[0])
        }
    }
}

/// Element `e1` of flex `f1` against element `e2` of flex `f2` (`mj_collideElems`); within one
/// flex without margin and gap. Elements that share a body are skipped.
pub(super) fn elems(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    (f1, e1): (usize, usize),
    (f2, e2): (usize, usize),
) -> Result<(), StepError> {
    let same = f1 == f2;
    let margin = if same {
        0.0
    } else {
        assign_margin(m, max(m.flex_margin[f1], m.flex_margin[f2]))
    };
    if filter_box(elem_aabb(m, d, f1, e1), elem_aabb(m, d, f2, e2), margin) {
        return Ok(());
    }
    let bodies2 = &m.flex_vertbodyid[m.flex_vertadr[f2] as usize..];
    let shared = elem_vertices(m, f2, e2)
        .iter()
        .any(|&v| elem_on_body(m, f1, e1, bodies2[v as usize]));
    if shared {
        return Ok(());
    }
    with_pair_buffer(d, arena, |d, con| {
        let num = if m.flex_dim[f1] == 1 && m.flex_dim[f2] == 1 {
            let c1 = make_capsule(m, d, f1, elem_vertices(m, f1, e1));
            let c2 = make_capsule(m, d, f2, elem_vertices(m, f2, e2));
            raw_capsule_capsule(con, margin, c1.view(), c2.view())
        } else {
            let mut obj1 = FlexShape::elem(m, d, f1, e1, margin);
            let mut obj2 = FlexShape::elem(m, d, f2, e2, margin);
            convex_elem(m, &mut obj1, &mut obj2, margin, &mut con[0])
        };
        if num == 0 {
            return Ok(0);
        }
        let mut params = ContactParams::mix_sides(m, Side::Flex(f1), Side::Flex(f2))?;
        if same {
            params = params.without_gap();
        }
        let (f1, e1, f2, e2) = (f1 as i32, e1 as i32, f2 as i32, e2 as i32);
        for c in &mut con[..num] {
            set_ids(c, [-1, -1], [f1, f2], [e1, e2], [-1, -1]);
            set_contact(m, c, &params, margin)?;
        }
        Ok(num)
    })
}

/// Vertex `v` of flex `f` (a sphere of the flex radius) against element `e` of the same flex
/// (`mj_collideElemVert`), without margin.
fn elem_vert(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    f: usize,
    e: usize,
    v: usize,
) -> Result<(), StepError> {
    let margin = assign_margin(m, m.flex_margin[f]);
    let radius = m.flex_radius[f];
    let vert = flex_vertices(m, d, f)[v];
    let aabb = elem_aabb(m, d, f, e);
    let rbound = margin + radius;
    let apart = (0..3).any(|i| aabb[i] - aabb[i + 3] > vert[i] + rbound)
        || (0..3).any(|i| aabb[i] + aabb[i + 3] < vert[i] - rbound);
    if apart {
        return Ok(());
    }
    with_pair_buffer(d, arena, |d, con| {
        let ids = elem_vertices(m, f, e);
        let num = match m.flex_dim[f] {
            1 => {
                let sphere = Shape {
                    pos: vert,
                    mat: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                    size: [radius, 0.0, 0.0],
                };
                let capsule = make_capsule(m, d, f, ids);
                raw_sphere_capsule(&mut con[0], 0.0, sphere.view(), capsule.view())
            }
            2 => {
                let all = flex_vertices(m, d, f);
                let tri = [0, 1, 2].map(|k| &all[ids[k] as usize]);
                raw_sphere_triangle(&mut con[0], 0.0, &vert, radius, tri, radius)
            }
            _ => {
                let mut obj1 = FlexShape::vertex(m, d, f, v, 0.0);
                let mut obj2 = FlexShape::elem(m, d, f, e, 0.0);
                convex_elem(m, &mut obj1, &mut obj2, 0.0, &mut con[0])
            }
        };
        if num == 0 {
            return Ok(0);
        }
        // inside one flex the contact is included at any negative distance
        let params = ContactParams::mix_sides(m, Side::Flex(f), Side::Flex(f))?.without_gap();
        let (f, e, v) = (f as i32, e as i32, v as i32);
        for c in &mut con[..num] {
            set_ids(c, [-1, -1], [f, f], [-1, e], [v, -1]);
            set_contact(m, c, &params, 0.0)?;
        }
        Ok(num)
    })
}

/// Internal collisions of flex `f` (`mj_collideFlexInternal`): its element-vertex pairs, and in
/// a 3D flex each tetrahedron's vertices against the opposite faces (frictionless, without
/// margin, so that a resting flex is not in permanent contact with itself).
pub(super) fn internal(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    f: usize,
) -> Result<(), StepError> {
    let adr = m.flex_evpairadr[f].max(0) as usize;
    for i in 0..m.flex_evpairnum[f].max(0) as usize {
        let ev = &m.flex_evpair[2 * (adr + i)..2 * (adr + i) + 2];
        elem_vert(m, d, arena, f, ev[0] as usize, ev[1] as usize)?;
    }
    if m.flex_dim[f] != 3 {
        return Ok(());
    }
    let params = ContactParams::mix_sides(m, Side::Flex(f), Side::Flex(f))?
        .with_condim(1)
        .without_gap();
    let radius = m.flex_radius[f];
    // each face (three vertices) with the opposite vertex
    const FACES: [[usize; 4]; 4] = [[0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2], [1, 3, 2, 0]];
    for e in 0..m.flex_elemnum[f] as usize {
        for face in FACES {
            let ids = elem_vertices(m, f, e);
            let [t0, t1, t2, v] = face.map(|k| ids[k]);
            let vert = flex_vertices(m, d, f);
            let Some(mut con) = plane_vertex(vert, radius, [t0, t1, t2], v) else {
                continue;
            };
            set_ids(
                &mut con,
                [-1, -1],
                [f as i32, f as i32],
                [e as i32, -1],
                [-1, v],
            );
            set_contact(m, &mut con, &params, 0.0)?;
            if !push_contact(m, d, arena, &con) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// The plane of triangle `t` against vertex `v`, both of radius `radius` (`planeVertex`): a
/// contact unless the vertex is more than `2 radius` behind the plane.
fn plane_vertex(vert: &[[Real; 3]], radius: Real, t: [i32; 3], v: i32) -> Option<Contact> {
    let p = |i: i32| &vert[i as usize];
    let e1 = sub3(p(t[1]), p(t[0]));
    let e2 = sub3(p(t[2]), p(t[0]));
    let ev = sub3(p(v), p(t[0]));
    let mut normal = cross(&e1, &e2);
    normalize3(&mut normal);
    let dst = dot3(&ev, &normal);
    if dst <= -2.0 * radius {
        return None;
    }
    let mut con = Contact {
        dist: -dst - 2.0 * radius,
        pos: add_scl3(p(v), &normal, -0.5 * dst),
        ..Contact::default()
    };
    con.frame[..3].copy_from_slice(&scl3(&normal, -1.0));
    Some(con)
}
