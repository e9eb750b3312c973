//! The Jacobians the rows are made of: a tendon's row, rotational Jacobians restricted to a
//! sparse chain, and the difference of two bodies' Jacobians (`mj_jacDifPair`).

use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::math::vec::sub;
use crate::model::Model;
use crate::real::Real;
use crate::support::{
    body_chain, jac, jac_dif_pair, jac_sparse, jac_sparse_rot, jac_sparse_simple, merge_chain,
    merge_chain_simple, v6,
};

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

/// Scratch of [`jac_sum`]: a body's Jacobian (6 x nv), the merge buffer and its indices, and a
/// body's dof chain.
pub(super) struct SumScratch<'s> {
    jtmp: &'s mut [Real],
    buf: &'s mut [Real],
    buf_ind: &'s mut [i32],
    bodychain: &'s mut [i32],
    rot_ind: &'s mut [i32],
}

impl<'s> SumScratch<'s> {
    pub(super) fn new(stack: &mut Stack<'s>, nv: usize) -> Result<Self, ArenaError> {
        Ok(SumScratch {
            jtmp: stack.alloc::<Real>(6 * nv)?,
            buf: stack.alloc::<Real>(6 * nv)?,
            buf_ind: stack.alloc::<i32>(nv)?,
            bodychain: stack.alloc::<i32>(nv)?,
            rot_ind: stack.alloc::<i32>(nv)?,
        })
    }
}

/// The weighted sum of the Jacobians of `point` on several bodies (`mj_jacSum`): into `jac`
/// (6 x nv: translation in the first 3 nv values, rotation from 3 nv when `rot`), dense or over
/// the union of the bodies' dof chains written to `chain`. Returns the number of columns.
///
/// The translational part is MuJoCo's bit for bit. MuJoCo 3.1.6's sparse sum merges the
/// rotational rows as if they followed the translational ones, where they do not: its
/// rotational part (used by contacts of condim 4 and 6 on flex elements) is uninitialized
/// memory. Here the rotational rows are merged where they are, which gives the dense sum's
/// values.
#[allow(clippy::too_many_arguments)]
pub(super) fn jac_sum(
    m: &Model,
    d: &Data,
    sparse: bool,
    chain: &mut [i32],
    (body, weight): (&[usize], &[Real]),
    point: &[Real; 3],
    jac: &mut [Real],
    rot: bool,
    s: &mut SumScratch,
) -> usize {
    let nv = m.nv;
    let rows = if rot { 6 } else { 3 };
    if !sparse {
        body_jac_dense(m, d, jac, point, body[0], rot);
        jac[..rows * nv].iter_mut().for_each(|x| *x *= weight[0]);
        for (&b, &w) in body.iter().zip(weight).skip(1) {
            body_jac_dense(m, d, s.jtmp, point, b, rot);
            for (x, y) in jac[..rows * nv].iter_mut().zip(&s.jtmp[..rows * nv]) {
                *x += y * w;
            }
        }
        return nv;
    }
    let mut n = body_chain(m, body[0], chain);
    if n > 0 {
        body_jac_sparse(m, d, jac, point, body[0], &chain[..n], rot);
        let (jp, jr) = jac.split_at_mut(3 * nv);
        jp[..3 * n].iter_mut().for_each(|x| *x *= weight[0]);
        if rot {
            jr[..3 * n].iter_mut().for_each(|x| *x *= weight[0]);
        }
    }
    for (&b, &w) in body.iter().zip(weight).skip(1) {
        let bn = body_chain(m, b, s.bodychain);
        if bn == 0 {
            continue;
        }
        body_jac_sparse(m, d, s.jtmp, point, b, &s.bodychain[..bn], rot);
        let (tp, tr) = s.jtmp.split_at(3 * nv);
        let (jp, jr) = jac.split_at_mut(3 * nv);
        let ind = &s.bodychain[..bn];
        if rot {
            s.rot_ind[..n].copy_from_slice(&chain[..n]);
            let src = SparseRows { val: tr, ind };
            add_to_sparse_mat(jr, s.rot_ind, n, &src, 3, w, (s.buf, s.buf_ind));
        }
        let src = SparseRows { val: tp, ind };
        n = add_to_sparse_mat(jp, chain, n, &src, 3, w, (s.buf, s.buf_ind));
    }
    n
}

/// A body's Jacobian at `point`, dense: translation in `out[..3 nv]`, rotation in
/// `out[3 nv..6 nv]` when `rot`.
fn body_jac_dense(m: &Model, d: &Data, out: &mut [Real], point: &[Real; 3], b: usize, rot: bool) {
    let (jp, jr) = out.split_at_mut(3 * m.nv);
    jac(m, d, Some(jp), rot.then_some(jr), point, b);
}

/// A body's Jacobian at `point` over its own dof chain (`mj_jacSparse`, or
/// `mj_jacSparseSimple` for a simple body): translation as 3 x n in `out[..3 n]`, rotation as
/// 3 x n from `out[3 nv..]` when `rot`.
fn body_jac_sparse(
    m: &Model,
    d: &Data,
    out: &mut [Real],
    point: &[Real; 3],
    b: usize,
    chain: &[i32],
    rot: bool,
) {
    let n = chain.len();
    let (jp, jr) = out.split_at_mut(3 * m.nv);
    if m.body_simple[b] != 0 {
        jac_sparse_simple(m, d, jp, point, b, true, n, 0);
        if rot {
            jac_sparse_simple_rot(m, d, jr, b, true, n, 0);
        }
    } else {
        jac_sparse(m, d, jp, point, b, chain);
        if rot {
            jac_sparse_rot(m, d, jr, b, chain);
        }
    }
}

/// A sparse matrix of `rows` rows over the columns `ind`, row-major (`rows x ind.len()`).
struct SparseRows<'a> {
    val: &'a [Real],
    ind: &'a [i32],
}

/// `dst += scl src` for sparse matrices of `rows` rows (`mju_addToSparseMat`): `dst` has the
/// first `dst_nnz` columns of `dst_ind`; the union of the columns is written back to `dst` and
/// `dst_ind`. Returns its size.
fn add_to_sparse_mat(
    dst: &mut [Real],
    dst_ind: &mut [i32],
    dst_nnz: usize,
    src: &SparseRows,
    rows: usize,
    scl: Real,
    (buf, buf_ind): (&mut [Real], &mut [i32]),
) -> usize {
    let src_nnz = src.ind.len();
    if dst_nnz == src_nnz {
        if dst_nnz == 0 {
            return 0;
        }
        if dst_ind[..dst_nnz] == *src.ind {
            for (x, y) in dst[..rows * dst_nnz]
                .iter_mut()
                .zip(&src.val[..rows * dst_nnz])
            {
                *x += y * scl;
            }
            return dst_nnz;
        }
    }
    // merge into buf, transposed (one column's rows together)
    let (mut si, mut di, mut nnz) = (0, 0, 0);
    let end = i32::MAX;
    let column = |ind: &[i32], i: usize, n: usize| if i < n { ind[i] } else { end };
    while si < src_nnz || di < dst_nnz {
        let (sadr, dadr) = (column(src.ind, si, src_nnz), column(dst_ind, di, dst_nnz));
        for k in 0..rows {
            buf[rows * nnz + k] = if sadr == dadr {
                dst[di + k * dst_nnz] + scl * src.val[si + k * src_nnz]
            } else if dadr < sadr {
                dst[di + k * dst_nnz]
            } else {
                scl * src.val[si + k * src_nnz]
            };
        }
        if sadr == dadr {
            buf_ind[nnz] = sadr;
            si += 1;
            di += 1;
        } else if dadr < sadr {
            buf_ind[nnz] = dadr;
            di += 1;
        } else {
            buf_ind[nnz] = sadr;
            si += 1;
        }
        nnz += 1;
    }
    for c in 0..nnz {
        for k in 0..rows {
            dst[k * nnz + c] = buf[rows * c + k];
        }
    }
    dst_ind[..nnz].copy_from_slice(&buf_ind[..nnz]);
    nnz
}

/// The number of dofs in the union of the bodies' dof chains (`mj_jacSumCount`), with the union
/// written to `chain`; `scratch` holds two chains of nv.
pub(super) fn jac_sum_count(
    m: &Model,
    chain: &mut [i32],
    (bodychain, merged): (&mut [i32], &mut [i32]),
    body: &[usize],
) -> usize {
    let Some((&first, rest)) = body.split_first() else {
        return 0;
    };
    let mut n = body_chain(m, first, chain);
    for &b in rest {
        let bn = body_chain(m, b, bodychain);
        if bn == 0 {
            continue;
        }
        let (a, c) = (&chain[..n], &bodychain[..bn]);
        let (mut i, mut j, mut k) = (0, 0, 0);
        while i < a.len() || j < c.len() {
            let x = match (a.get(i), c.get(j)) {
                (Some(&x), Some(&y)) if x == y => {
                    i += 1;
                    j += 1;
                    x
                }
                (Some(&x), Some(&y)) if x < y => {
                    i += 1;
                    x
                }
                (Some(&x), None) => {
                    i += 1;
                    x
                }
                (_, Some(&y)) => {
                    j += 1;
                    y
                }
                (None, None) => break,
            };
            merged[k] = x;
            k += 1;
        }
        chain[..k].copy_from_slice(&merged[..k]);
        n = k;
    }
    n
}
