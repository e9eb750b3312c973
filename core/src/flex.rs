//! Flex kinematics (MuJoCo's `mj_flex` in `engine_core_smooth.c`, "Computation › Flexes"):
//! global vertex positions `flexvert_xpos`, element boxes `flexelem_aabb` and the dynamic
//! bounding-volume hierarchies over them (`bvh_aabb_dyn`), edge lengths `flexedge_length` and
//! Jacobians `flexedge_J`; the edge velocities `flexedge_velocity` of the velocity stage.
//!
//! A flex vertex moves with a body: a centered vertex sits at the body's origin, another at a
//! fixed offset `flex_vert` in the body frame. `flexedge_J` is dense (`nflexedge x nv`) or, when
//! [`is_sparse`], compressed rows described by `flexedge_J_rownnz`, `flexedge_J_rowadr` and
//! `flexedge_J_colind`. As in MuJoCo, rigid flexes get neither lengths nor Jacobians, and a
//! flex without edge equality, stiffness or damping gets lengths only (its rows stay empty,
//! with `rowadr` 0 in the sparse layout).
//!
//! Relies on the flex layout checked by the MJB validator: slices of the flex arrays, local
//! vertex ids and the hierarchies' depth-first order (a parent before its children).

use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::math::mat::{mul_mat_t_vec, mul_mat_vec, rot_vec_mat};
use crate::math::misc::{max, min};
use crate::math::sparse::mul_mat_vec_sparse;
use crate::math::vec::{add3, normalize3, sub3};
use crate::model::Model;
use crate::real::Real;
use crate::support::{disabled, is_sparse, jac_dif_pair, v3, v3m, v6, v6m, v9};
use crate::types::*;

/// Flex vertex positions, element boxes, dynamic hierarchies, edge lengths and Jacobians
/// (`mj_flex`). Needs the body poses of `kinematics` and `subtree_com`/`cdof` of `com_pos`.
pub fn flex(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    flex_with(m, d, false)
}

/// [`flex`] with every flex taken as not rigid (`mj_setConst` measures all edges so).
pub(crate) fn flex_all_edges(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    flex_with(m, d, true)
}

fn flex_with(m: &Model, d: &mut Data, all_edges: bool) -> Result<(), ArenaError> {
    // without the `flex` feature, validation refuses models with flexes
    if !cfg!(feature = "flex") || m.nflex == 0 {
        return Ok(());
    }
    vertex_positions(m, d);
    element_boxes(m, d);
    if !disabled(m, DSBL_MIDPHASE) {
        d.with_stack(|d, stack| dynamic_hierarchies(m, d, &mut stack.frame()))?;
    }
    d.with_stack(|d, stack| edges(m, d, all_edges, &mut stack.frame()))
}

/// `flexvert_xpos`: the body origin for centered flexes, the body-frame offset mapped to the
/// world otherwise.
fn vertex_positions(m: &Model, d: &mut Data) {
    let xpos = v3(d.xpos);
    let xmat = v9(d.xmat);
    let local = v3(&m.flex_vert);
    let out = v3m(d.flexvert_xpos);
    for f in 0..m.nflex {
        let start = m.flex_vertadr[f] as usize;
        let verts = start..start + m.flex_vertnum[f] as usize;
        let centered = m.flex_centered[f] != 0;
        for i in verts {
            let b = m.flex_vertbodyid[i] as usize;
            out[i] = if centered {
                xpos[b]
            } else {
                add3(&rot_vec_mat(&local[i], &xmat[b]), &xpos[b])
            };
        }
    }
}

/// `flexelem_aabb`: (center, half size) of each element's vertices, grown by the flex radius.
fn element_boxes(m: &Model, d: &mut Data) {
    let pos = v3(d.flexvert_xpos);
    let aabb = v6m(d.flexelem_aabb);
    for f in 0..m.nflex {
        let nv = m.flex_dim[f] as usize + 1;
        let verts = &pos[m.flex_vertadr[f] as usize..];
        let data = &m.flex_elem[m.flex_elemdataadr[f] as usize..];
        let radius = m.flex_radius[f];
        for e in 0..m.flex_elemnum[f] as usize {
            let elem = &data[e * nv..(e + 1) * nv];
            let first = verts[elem[0] as usize];
            let (mut lo, mut hi) = (first, first);
            for &v in &elem[1..] {
                let p = &verts[v as usize];
                for j in 0..3 {
                    lo[j] = min(lo[j], p[j]);
                    hi[j] = max(hi[j], p[j]);
                }
            }
            let out = &mut aabb[m.flex_elemadr[f] as usize + e];
            for j in 0..3 {
                out[j] = 0.5 * (hi[j] + lo[j]);
                out[j + 3] = 0.5 * (hi[j] - lo[j]) + radius;
            }
        }
    }
}

/// Copies the element boxes to the leaves of every flex hierarchy, then refits the inner nodes
/// (`mj_updateDynamicBVH`).
fn dynamic_hierarchies(m: &Model, d: &mut Data, stack: &mut Stack<'_>) -> Result<(), ArenaError> {
    let elems = v6(d.flexelem_aabb);
    let dyn_aabb = v6m(d.bvh_aabb_dyn);
    for f in 0..m.nflex {
        if m.flex_bvhadr[f] < 0 {
            continue;
        }
        let adr = m.flex_bvhadr[f] as usize;
        let num = m.flex_bvhnum[f] as usize;
        let base = adr - m.nbvhstatic;
        for i in 0..num {
            let node = m.bvh_nodeid[adr + i];
            if node >= 0 {
                dyn_aabb[base + i] = elems[m.flex_elemadr[f] as usize + node as usize];
            }
        }
        let mut frame = stack.frame();
        let modified = frame.alloc::<u8>(num)?;
        refit(m, &mut dyn_aabb[base..base + num], adr, modified);
    }
    Ok(())
}

/// Refits the inner nodes of the hierarchy at `adr` whose boxes are `aabb`, children before
/// parents (the depth-first order puts parents first, so a backward pass suffices). Only
/// nodes with a modified descendant are refitted; all leaves count as modified.
fn refit(m: &Model, aabb: &mut [[Real; 6]], adr: usize, modified: &mut [u8]) {
    let n = aabb.len();
    for (i, flag) in modified.iter_mut().enumerate() {
        *flag = u8::from(m.bvh_nodeid[adr + i] >= 0);
    }
    for i in (0..n).rev() {
        if m.bvh_nodeid[adr + i] >= 0 {
            continue;
        }
        let c1 = m.bvh_child[2 * (adr + i)] as usize;
        let c2 = m.bvh_child[2 * (adr + i) + 1] as usize;
        if modified[c1] == 0 && modified[c2] == 0 {
            continue;
        }
        let (a1, a2) = (aabb[c1], aabb[c2]);
        let node = &mut aabb[i];
        for k in 0..3 {
            let lo = min(a1[k] - a1[k + 3], a2[k] - a2[k + 3]);
            let hi = max(a1[k] + a1[k + 3], a2[k] + a2[k + 3]);
            node[k] = 0.5 * (hi + lo);
            node[k + 3] = 0.5 * (hi - lo);
        }
        modified[i] = 1;
    }
}

/// Scratch of the edge Jacobians: three `3 x nv` Jacobians and, when sparse, the dof chain.
struct Scratch<'s> {
    jac1: &'s mut [Real],
    jac2: &'s mut [Real],
    jacdif: &'s mut [Real],
    chain: &'s mut [i32],
}

/// `flexedge_length` and `flexedge_J` of the flexes that are not rigid (of all when `all`).
fn edges(m: &Model, d: &mut Data, all: bool, stack: &mut Stack<'_>) -> Result<(), ArenaError> {
    let (nv, sparse) = (m.nv, is_sparse(m));
    let mut s = Scratch {
        jac1: stack.alloc(3 * nv)?,
        jac2: stack.alloc(3 * nv)?,
        jacdif: stack.alloc(3 * nv)?,
        chain: stack.alloc(if sparse { nv } else { 0 })?,
    };
    if sparse {
        d.flexedge_J_rowadr.fill(0);
        d.flexedge_J_rownnz.fill(0);
    } else {
        d.flexedge_J.fill(0.0);
    }
    for f in 0..m.nflex {
        if m.flex_rigid[f] != 0 && !all {
            continue;
        }
        // without built-in edge forces nothing reads the Jacobian
        let jacobian = m.flex_edgeequality[f] != 0
            || m.flex_edgedamping[f] != 0.0
            || m.flex_edgestiffness[f] != 0.0;
        let vbase = m.flex_vertadr[f] as usize;
        let ebase = m.flex_edgeadr[f] as usize;
        for e in ebase..ebase + m.flex_edgenum[f] as usize {
            let v1 = vbase + m.flex_edge[2 * e] as usize;
            let v2 = vbase + m.flex_edge[2 * e + 1] as usize;
            let pos = v3(d.flexvert_xpos);
            let (pos1, pos2) = (pos[v1], pos[v2]);
            let mut dir = sub3(&pos2, &pos1);
            d.flexedge_length[e] = normalize3(&mut dir);
            if !jacobian {
                continue;
            }
            let bodies = (
                m.flex_vertbodyid[v1] as usize,
                m.flex_vertbodyid[v2] as usize,
            );
            if sparse {
                sparse_row(m, d, &mut s, e, bodies, (&pos1, &pos2), &dir);
            } else {
                jac_dif_pair(
                    m, d, false, s.chain, bodies.0, bodies.1, &pos1, &pos2, s.jac1, s.jac2,
                    s.jacdif,
                );
                mul_mat_t_vec(
                    &mut d.flexedge_J[e * nv..(e + 1) * nv],
                    s.jacdif,
                    &dir,
                    3,
                    nv,
                );
            }
        }
    }
    Ok(())
}

/// Row `e` of the sparse `flexedge_J`: the edge direction times the difference of the endpoint
/// Jacobians, over the dofs that move either endpoint. The row starts where the previous one
/// ends, as MuJoCo lays it out.
fn sparse_row(
    m: &Model,
    d: &mut Data,
    s: &mut Scratch<'_>,
    e: usize,
    (b1, b2): (usize, usize),
    (pos1, pos2): (&[Real; 3], &[Real; 3]),
    dir: &[Real; 3],
) {
    if e > 0 {
        d.flexedge_J_rowadr[e] = d.flexedge_J_rowadr[e - 1] + d.flexedge_J_rownnz[e - 1];
    }
    let n = jac_dif_pair(
        m, d, true, s.chain, b1, b2, pos1, pos2, s.jac1, s.jac2, s.jacdif,
    );
    if n == 0 {
        return;
    }
    let adr = d.flexedge_J_rowadr[e] as usize;
    mul_mat_t_vec(
        &mut d.flexedge_J[adr..adr + n],
        &s.jacdif[..3 * n],
        dir,
        3,
        n,
    );
    d.flexedge_J_rownnz[e] = n as i32;
    d.flexedge_J_colind[adr..adr + n].copy_from_slice(&s.chain[..n]);
}

/// Edge velocities `flexedge_velocity = flexedge_J qvel`, dense or sparse (the first step of
/// `mj_fwdVelocity`).
pub fn flexedge_velocity(m: &Model, d: &mut Data) {
    // most models have none: skip the product's set-up
    if m.nflexedge == 0 {
        return;
    }
    if is_sparse(m) {
        mul_mat_vec_sparse(
            d.flexedge_velocity,
            d.flexedge_J,
            d.qvel,
            m.nflexedge,
            d.flexedge_J_rownnz,
            d.flexedge_J_rowadr,
            d.flexedge_J_colind,
            None,
        );
    } else {
        mul_mat_vec(d.flexedge_velocity, d.flexedge_J, d.qvel, m.nflexedge, m.nv);
    }
}
