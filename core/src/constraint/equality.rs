//! Equality constraint rows (`mj_instantiateEquality`): connect, weld, joint and tendon
//! couplings, flex edge lengths.

use super::row_jacobians::{jac_dif_pair_rot, tendon_row, PairScratch};
use super::rows::Rows;
use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::error::StepError;
use crate::math::mat::rot_vec_mat;
use crate::math::quat::{mul_quat, mul_quat_axis, neg_quat};
use crate::math::sparse::combine_sparse;
use crate::math::vec::{add3, add_to_scl, scl_in_place, sub3};
use crate::model::Model;
use crate::real::Real;
use crate::support::{disabled, v3, v4, v9};
use crate::types::*;

/// Scratch of the equality rows: Jacobians of the two objects and of their difference (6 x nv
/// each), two dof chains, and buffers for sparse sums.
struct EqScratch<'s> {
    jac0: &'s mut [Real],
    jac1: &'s mut [Real],
    jacdif: &'s mut [Real],
    chain: &'s mut [i32],
    chain2: &'s mut [i32],
    buf_ind: &'s mut [i32],
    buf: &'s mut [Real],
    pair: PairScratch<'s>,
}

impl<'s> EqScratch<'s> {
    fn new(stack: &mut Stack<'s>, nv: usize) -> Result<Self, ArenaError> {
        Ok(EqScratch {
            jac0: stack.alloc::<Real>(6 * nv)?,
            jac1: stack.alloc::<Real>(6 * nv)?,
            jacdif: stack.alloc::<Real>(6 * nv)?,
            chain: stack.alloc::<i32>(nv)?,
            chain2: stack.alloc::<i32>(nv)?,
            buf_ind: stack.alloc::<i32>(nv)?,
            buf: stack.alloc::<Real>(nv)?,
            pair: PairScratch::new(stack, nv)?,
        })
    }
}

/// Rows of the active equality constraints (`mj_instantiateEquality`), their scratch in a
/// child frame of `stack`. Each type's rows are made out of line: a model has few of them.
pub(super) fn equality_rows(
    m: &Model,
    d: &Data,
    rows: &mut Rows,
    stack: &mut Stack,
) -> Result<(), StepError> {
    if disabled(m, DSBL_EQUALITY) || m.nemax == 0 {
        return Ok(());
    }
    let mut frame = stack.frame();
    let mut s = EqScratch::new(&mut frame, m.nv)?;
    for i in (0..m.neq).filter(|&i| d.eq_active[i] != 0) {
        match m.eq_type[i] {
            EQ_CONNECT => connect_rows(m, d, i, &mut s, rows)?,
            EQ_WELD => weld_rows(m, d, i, &mut s, rows)?,
            EQ_JOINT | EQ_TENDON => coupling_row(m, d, i, &mut s, rows)?,
            // the validator admits no other type
            _ => flex_rows(m, d, i, rows)?,
        }
    }
    Ok(())
}

/// Flex: every edge that is not rigid keeps its rest length; one row per edge, position error
/// `flexedge_length - flexedge_length0`, Jacobian the edge's row of `flexedge_J`.
#[inline(never)]
fn flex_rows(m: &Model, d: &Data, i: usize, rows: &mut Rows) -> Result<(), StepError> {
    let f = m.eq_obj1id[i] as usize;
    let start = m.flex_edgeadr[f] as usize;
    for e in start..start + m.flex_edgenum[f] as usize {
        if m.flexedge_rigid[e] != 0 {
            continue;
        }
        let cpos = d.flexedge_length[e] - m.flexedge_length0[e];
        let (jac, chain) = if rows.sparse {
            let adr = d.flexedge_J_rowadr[e] as usize;
            let range = adr..adr + d.flexedge_J_rownnz[e] as usize;
            (&d.flexedge_J[range.clone()], &d.flexedge_J_colind[range])
        } else {
            (&d.flexedge_J[e * m.nv..(e + 1) * m.nv], &[][..])
        };
        rows.add(jac, chain, &[cpos], &[], 0.0, 1, CNSTR_EQUALITY, i)?;
    }
    Ok(())
}

/// The global position of the point `local` of body `body`.
fn global_point(d: &Data, local: &[Real], body: usize) -> [Real; 3] {
    let local = [local[0], local[1], local[2]];
    add3(&rot_vec_mat(&local, &v9(d.xmat)[body]), &v3(d.xpos)[body])
}

/// Connect: the anchor of body 1 (`eq_data[0..3]`) and the point of body 2 (`eq_data[3..6]`)
/// coincide; three rows, position error `p1 - p2`.
#[inline(never)]
fn connect_rows(
    m: &Model,
    d: &Data,
    i: usize,
    s: &mut EqScratch,
    rows: &mut Rows,
) -> Result<(), StepError> {
    let data = &m.eq_data[NEQDATA * i..NEQDATA * (i + 1)];
    let (b1, b2) = (m.eq_obj1id[i] as usize, m.eq_obj2id[i] as usize);
    let p1 = global_point(d, &data[0..3], b1);
    let p2 = global_point(d, &data[3..6], b2);
    let cpos = sub3(&p1, &p2);
    // Jacobian of the error: body 1 minus body 2
    let n = jac_dif_pair_rot(
        m,
        d,
        rows.sparse,
        s.chain,
        (b2, b1),
        (&p2, &p1),
        &mut s.pair,
        s.jacdif,
        None,
    );
    rows.add(
        &s.jacdif[..3 * n],
        &s.chain[..n],
        &cpos,
        &[],
        0.0,
        3,
        CNSTR_EQUALITY,
        i,
    )
}

/// Weld: body 2's frame at `eq_data[0..3]` and body 1's at `eq_data[3..6]` coincide, with
/// relative orientation `eq_data[6..10]`; six rows, the rotational ones scaled by
/// `torquescale` (`eq_data[10]`).
#[inline(never)]
fn weld_rows(
    m: &Model,
    d: &Data,
    i: usize,
    s: &mut EqScratch,
    rows: &mut Rows,
) -> Result<(), StepError> {
    let nv = m.nv;
    let data = &m.eq_data[NEQDATA * i..NEQDATA * (i + 1)];
    let (b1, b2) = (m.eq_obj1id[i] as usize, m.eq_obj2id[i] as usize);
    let p1 = global_point(d, &data[3..6], b1);
    let p2 = global_point(d, &data[0..3], b2);
    let torquescale = data[10];
    let (difp, difr) = s.jacdif.split_at_mut(3 * nv);
    let n = jac_dif_pair_rot(
        m,
        d,
        rows.sparse,
        s.chain,
        (b2, b1),
        (&p2, &p1),
        &mut s.pair,
        difp,
        Some(difr),
    );
    // rows 0-2 translation, 3-5 rotation, each n wide
    let jac = &mut s.jac0[..6 * n];
    jac[..3 * n].copy_from_slice(&difp[..3 * n]);
    jac[3 * n..].copy_from_slice(&difr[..3 * n]);

    // orientation error: the axis part of neg(q2) * q1 * relpose
    let relpose = [data[6], data[7], data[8], data[9]];
    let quat = mul_quat(&v4(d.xquat)[b1], &relpose);
    let quat1 = neg_quat(&v4(d.xquat)[b2]);
    let err = mul_quat(&quat1, &quat);
    let mut cpos = [0.0; 6];
    cpos[..3].copy_from_slice(&sub3(&p1, &p2));
    for k in 0..3 {
        cpos[3 + k] = err[1 + k] * torquescale;
    }

    // rotational Jacobian of that error: 0.5 * neg(q2) * (jac1 - jac2) * q1 * relpose
    for j in 0..n {
        let axis = [jac[3 * n + j], jac[4 * n + j], jac[5 * n + j]];
        let q = mul_quat(&mul_quat_axis(&quat1, &axis), &quat);
        for k in 0..3 {
            jac[(3 + k) * n + j] = 0.5 * q[1 + k];
        }
    }
    scl_in_place(&mut jac[3 * n..], torquescale);
    rows.add(jac, &s.chain[..n], &cpos, &[], 0.0, 6, CNSTR_EQUALITY, i)
}

/// Position, reference position and Jacobian of the joint or tendon `id` of a coupling: the
/// Jacobian in `jac` (nv values when dense, else with its columns in `chain`); returns
/// `(pos, ref, width)`.
fn coupling_object(
    m: &Model,
    d: &Data,
    tendon: bool,
    id: usize,
    sparse: bool,
    jac: &mut [Real],
    chain: &mut [i32],
) -> (Real, Real, usize) {
    if tendon {
        let (row, cols) = tendon_row(m, d, id, sparse);
        jac[..row.len()].copy_from_slice(row);
        chain[..cols.len()].copy_from_slice(cols);
        return (d.ten_length[id], m.tendon_length0[id], row.len());
    }
    let adr = m.jnt_qposadr[id] as usize;
    let dof = m.jnt_dofadr[id];
    let width = if sparse {
        chain[0] = dof;
        jac[0] = 1.0;
        1
    } else {
        jac[..m.nv].fill(0.0);
        jac[dof as usize] = 1.0;
        m.nv
    };
    (d.qpos[adr], m.qpos0[adr], width)
}

/// Joint or tendon coupling: `x1 - x1ref = poly(x2 - x2ref)` with the quartic polynomial of
/// `eq_data[0..5]`, or `x1 = x1ref + eq_data[0]` without a second object; one row.
#[inline(never)]
fn coupling_row(
    m: &Model,
    d: &Data,
    i: usize,
    s: &mut EqScratch,
    rows: &mut Rows,
) -> Result<(), StepError> {
    let data = &m.eq_data[NEQDATA * i..NEQDATA * (i + 1)];
    let tendon = m.eq_type[i] == EQ_TENDON;
    let sparse = rows.sparse;
    let id1 = m.eq_obj1id[i] as usize;
    let (pos1, ref1, mut n) = coupling_object(m, d, tendon, id1, sparse, s.jac0, s.chain);
    // MuJoCo 3.1.6 records the equality's index here, not its row
    if tendon {
        rows.note_tendon(id1, i);
    }
    let cpos = match usize::try_from(m.eq_obj2id[i]) {
        Ok(id2) => {
            let (pos2, ref2, n2) = coupling_object(m, d, tendon, id2, sparse, s.jac1, s.chain2);
            if tendon {
                rows.note_tendon(id2, i);
            }
            let dif = pos2 - ref2;
            let poly = data[1] * dif
                + data[2] * dif * dif
                + data[3] * dif * dif * dif
                + data[4] * dif * dif * dif * dif;
            let deriv = data[1]
                + 2.0 * data[2] * dif
                + 3.0 * data[3] * dif * dif
                + 4.0 * data[4] * dif * dif * dif;
            if sparse {
                n = combine_sparse(
                    s.jac0,
                    &s.jac1[..n2],
                    1.0,
                    -deriv,
                    n,
                    s.chain,
                    &s.chain2[..n2],
                    s.buf,
                    s.buf_ind,
                );
            } else {
                add_to_scl(&mut s.jac0[..m.nv], &s.jac1[..m.nv], -deriv);
            }
            pos1 - ref1 - data[0] - poly
        }
        Err(_) => pos1 - ref1 - data[0],
    };
    rows.add(
        &s.jac0[..n],
        &s.chain[..n],
        &[cpos],
        &[],
        0.0,
        1,
        CNSTR_EQUALITY,
        i,
    )
}
