//! The Jacobians the rows are made of: a tendon's row, rotational Jacobians restricted to a
//! sparse chain, and the difference of two bodies' Jacobians (`mj_jacDifPair`).

use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::math::vec::sub;
use crate::model::Model;
use crate::real::Real;
use crate::support::{jac, jac_dif_pair, merge_chain, merge_chain_simple, v6};

/// The Jacobian of tendon `i` as a row: its `nv` values when dense, else its non-zeros and
/// their columns.
pub(super) fn tendon_row<'d>(
    m: &Model,
    d: &'d Data,
    i: usize,
    sparse: bool,
) -> (&'d [Real], &'d [i32]) {
    if sparse {
        let adr = d.ten_J_rowadr[i] as usize;
        let n = d.ten_J_rownnz[i] as usize;
        (&d.ten_J[adr..adr + n], &d.ten_J_colind[adr..adr + n])
    } else {
        (&d.ten_J[i * m.nv..(i + 1) * m.nv], &[])
    }
}

/// The nearest ancestor-or-self of `body` with dofs (the world, 0, if none).
fn movable(m: &Model, mut body: usize) -> usize {
    while body != 0 && m.body_dofnum[body] == 0 {
        body = m.body_parentid[body] as usize;
    }
    body
}

/// Rotational Jacobian of `body` restricted to the dofs of `chain` (3 x n, the rotational part
/// of `mj_jacSparse`).
fn jac_sparse_rot(m: &Model, d: &Data, jacr: &mut [Real], body: usize, chain: &[i32]) {
    let n = chain.len();
    jacr[..3 * n].fill(0.0);
    let body = movable(m, body);
    if body == 0 {
        return;
    }
    let cdof = v6(d.cdof);
    let mut da = m.body_dofadr[body] + m.body_dofnum[body] - 1;
    let mut ci = n;
    while da >= 0 {
        while ci > 0 && chain[ci - 1] > da {
            ci -= 1;
        }
        // every dof of the body's chain is in the merged chain
        if ci == 0 || chain[ci - 1] != da {
            return;
        }
        let c = &cdof[da as usize];
        for r in 0..3 {
            jacr[ci - 1 + r * n] = c[r];
        }
        da = m.dof_parentid[da as usize];
    }
}

/// Writes `±` the rotational Jacobian of the simple `body` into columns `start..` of the
/// 3 x n `jacdifr` (the rotational part of `mj_jacSparseSimple`).
fn jac_sparse_simple_rot(
    m: &Model,
    d: &Data,
    jacdifr: &mut [Real],
    body: usize,
    second: bool,
    n: usize,
    start: usize,
) {
    let cdof = v6(d.cdof);
    let adr = m.body_dofadr[body].max(0) as usize;
    for k in 0..m.body_dofnum[body] as usize {
        let c = &cdof[adr + k];
        for r in 0..3 {
            jacdifr[start + k + r * n] = if second { c[r] } else { -c[r] };
        }
    }
}

/// Scratch for Jacobians of body pairs: per body, translation and rotation (3 x nv each).
pub(super) struct PairScratch<'s> {
    pub(super) jac1p: &'s mut [Real],
    pub(super) jac2p: &'s mut [Real],
    pub(super) jac1r: &'s mut [Real],
    pub(super) jac2r: &'s mut [Real],
}

impl<'s> PairScratch<'s> {
    pub(super) fn new(stack: &mut Stack<'s>, nv: usize) -> Result<Self, ArenaError> {
        Ok(PairScratch {
            jac1p: stack.alloc::<Real>(3 * nv)?,
            jac2p: stack.alloc::<Real>(3 * nv)?,
            jac1r: stack.alloc::<Real>(3 * nv)?,
            jac2r: stack.alloc::<Real>(3 * nv)?,
        })
    }
}

/// Jacobian difference `J(pos2 on b2) - J(pos1 on b1)` (`mj_jacDifPair`): translational into
/// `difp`, and rotational into `difr` if given; dense (3 x nv each), or over the merged dof
/// chain written to `chain` (3 x n each). Returns the number of columns.
pub(super) fn jac_dif_pair_rot(
    m: &Model,
    d: &Data,
    sparse: bool,
    chain: &mut [i32],
    (b1, b2): (usize, usize),
    (pos1, pos2): (&[Real; 3], &[Real; 3]),
    s: &mut PairScratch,
    difp: &mut [Real],
    difr: Option<&mut [Real]>,
) -> usize {
    let n = jac_dif_pair(
        m, d, sparse, chain, b1, b2, pos1, pos2, s.jac1p, s.jac2p, difp,
    );
    let Some(difr) = difr else {
        return n;
    };
    if n == 0 {
        return 0;
    }
    if !sparse {
        jac(m, d, None, Some(&mut *s.jac1r), pos1, b1);
        jac(m, d, None, Some(&mut *s.jac2r), pos2, b2);
        sub(&mut difr[..3 * n], &s.jac2r[..3 * n], &s.jac1r[..3 * n]);
    } else if m.body_simple[b1] != 0 && m.body_simple[b2] != 0 {
        // the dofs of the lower body id come first in the chain
        let dofnum = |b: usize| m.body_dofnum[b] as usize;
        let start1 = if b1 < b2 { 0 } else { dofnum(b2) };
        let start2 = if b2 < b1 { 0 } else { dofnum(b1) };
        jac_sparse_simple_rot(m, d, difr, b1, false, n, start1);
        jac_sparse_simple_rot(m, d, difr, b2, true, n, start2);
    } else {
        jac_sparse_rot(m, d, s.jac1r, b1, &chain[..n]);
        jac_sparse_rot(m, d, s.jac2r, b2, &chain[..n]);
        sub(&mut difr[..3 * n], &s.jac2r[..3 * n], &s.jac1r[..3 * n]);
    }
    n
}

/// Number of columns of the Jacobian difference of two bodies (`mj_jacDifPairCount`).
pub(super) fn jac_dif_pair_count(
    m: &Model,
    chain: &mut [i32],
    b1: usize,
    b2: usize,
    sparse: bool,
) -> usize {
    if m.nv == 0 {
        0
    } else if !sparse {
        m.nv
    } else if m.body_simple[b1] != 0 && m.body_simple[b2] != 0 {
        merge_chain_simple(m, chain, b1, b2)
    } else {
        merge_chain(m, chain, b1, b2)
    }
}
