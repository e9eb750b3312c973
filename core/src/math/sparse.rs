//! Sparse vectors and matrices (MuJoCo's `engine_util_sparse.c`), and the sparse solvers of
//! `engine_util_solve.c` (reverse-order Cholesky with its rank-one update, LU without fill-in):
//! every sparse helper of the pipeline is here.
//!
//! A sparse row is a value array and an index array (`colind`, increasing) of the same length;
//! a sparse matrix is its rows stored one after the other, located by `rownnz`/`rowadr`. A row
//! is *uncompressed* when its values are stored at their column indices in a full-length array.
//! Sums are evaluated in the order of MuJoCo's AVX build (`engine_util_sparse_avx.h`), so that
//! results round exactly as in the reference.

use super::scalar::sqrt;
use super::vec::scl_in_place;
use crate::arena::{ArenaError, Stack};
use crate::error::StepError;
use crate::real::MINVAL;
use crate::Real;

/// Address range of a sparse row at `adr` with `nnz` entries. Both are zero-extended: the end
/// cannot overflow, so slicing with the range checks one bound (a negative value, never
/// stored, becomes an address past any array and fails that check).
#[inline(always)]
fn span(adr: i32, nnz: i32) -> core::ops::Range<usize> {
    let adr = adr as u32 as usize;
    adr..adr + nnz as u32 as usize
}

/// Sum of `prod(0) + ... + prod(n-1)` in the order of MuJoCo's AVX dot products: each block of
/// four goes into four lanes, the lanes are reduced as `(l0 + l2) + (l1 + l3)`, and the last
/// `n % 4` products are then added one by one.
#[inline]
fn lane_sum(n: usize, prod: impl Fn(usize) -> Real) -> Real {
    let mut res = 0.0;
    let mut i = 0;
    if n >= 4 {
        let mut lanes = [prod(0), prod(1), prod(2), prod(3)];
        i = 4;
        while i + 4 <= n {
            for (k, lane) in lanes.iter_mut().enumerate() {
                *lane += prod(i + k);
            }
            i += 4;
        }
        res = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
    }
    for j in i..n {
        res += prod(j);
    }
    res
}

/// Dot product of the sparse `vec1` (non-zeros at `ind1`) and the dense `vec2`
/// (`mju_dotSparse`). With `unc1`, `vec1` is uncompressed (read at `ind1`); otherwise it holds
/// `ind1.len()` values.
pub fn dot_sparse(vec1: &[Real], vec2: &[Real], ind1: &[i32], unc1: bool) -> Real {
    if unc1 {
        lane_sum(ind1.len(), |i| {
            let c = ind1[i] as usize;
            vec1[c] * vec2[c]
        })
    } else {
        dot_row(vec1, ind1, vec2)
    }
}

/// The four entries of `vec` at the columns `cols` (one block of a sparse row).
#[inline(always)]
fn gather(vec: &[Real], cols: &[i32; 4]) -> [Real; 4] {
    cols.map(|c| vec[c as usize])
}

/// The four lanes of one of MuJoCo's AVX sums reduced as `(l0 + l2) + (l1 + l3)`.
#[inline(always)]
fn reduce_lanes(lanes: [Real; 4]) -> Real {
    (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])
}

/// Dot product of the compressed row `values` (pattern `cols`) with the dense `vec`, summed as
/// [`lane_sum`] sums it (MuJoCo's AVX order): blocks of four into four lanes, then the tail.
/// Values and columns are walked side by side as blocks of four, so only the gathered `vec`
/// needs bounds checks.
// inlined into the row loops of the sparse products: rows are short (6 entries on a cloth), so
// the per-row set-up is what costs, and one call per row would double it
#[inline(always)]
fn dot_row(values: &[Real], cols: &[i32], vec: &[Real]) -> Real {
    let values = &values[..cols.len()];
    let (col_blocks, col_tail) = cols.as_chunks::<4>();
    let (blocks, _) = values.as_chunks::<4>();
    let mut res = 0.0;
    if !col_blocks.is_empty() {
        // -0.0 is the exact additive identity: the lanes start as the first block's products
        let mut lanes = [-0.0; 4];
        for (c, v) in col_blocks.iter().zip(blocks) {
            let g = gather(vec, c);
            for k in 0..4 {
                lanes[k] += v[k] * g[k];
            }
        }
        res = reduce_lanes(lanes);
    }
    // the last n % 4 entries by index: cheaper to set up than walking the two tails
    for i in cols.len() - col_tail.len()..cols.len() {
        res += values[i] * vec[cols[i] as usize];
    }
    res
}

/// [`dot_row`] for the three compressed rows `v0`, `v1`, `v2` that share the pattern `cols`
/// (`mju_dotSparseX3`, a supernode's rows): every block of `vec` is gathered once for the three
/// rows; each row is summed exactly as [`dot_row`] sums it.
// A second kernel rather than `dot_row` generic over the row count: with an array of rows,
// LLVM kept a bounds check per block and more set-up per row (bench/models/cloth.xml: with the
// row loop of `mul_mat_vec_sparse`, 8.0 M -> 5.8 M instructions per step in that function).
#[inline(always)]
fn dot_row3(v0: &[Real], v1: &[Real], v2: &[Real], cols: &[i32], vec: &[Real]) -> [Real; 3] {
    let n = cols.len();
    let (col_blocks, col_tail) = cols.as_chunks::<4>();
    let (v0, v1, v2) = (&v0[..n], &v1[..n], &v2[..n]);
    let (b0, b1, b2) = (
        v0.as_chunks::<4>().0,
        v1.as_chunks::<4>().0,
        v2.as_chunks::<4>().0,
    );
    let mut res = [0.0; 3];
    if !col_blocks.is_empty() {
        let (mut l0, mut l1, mut l2) = ([-0.0; 4], [-0.0; 4], [-0.0; 4]);
        for (((c, x0), x1), x2) in col_blocks.iter().zip(b0).zip(b1).zip(b2) {
            let g = gather(vec, c);
            for k in 0..4 {
                l0[k] += x0[k] * g[k];
                l1[k] += x1[k] * g[k];
                l2[k] += x2[k] * g[k];
            }
        }
        res = [reduce_lanes(l0), reduce_lanes(l1), reduce_lanes(l2)];
    }
    for i in n - col_tail.len()..n {
        let g = vec[cols[i] as usize];
        res[0] += v0[i] * g;
        res[1] += v1[i] * g;
        res[2] += v2[i] * g;
    }
    res
}

/// Three dot products of the compressed rows `vec10`, `vec11`, `vec12`, which share the sparsity
/// pattern `ind1`, with the dense `vec2` (`mju_dotSparseX3`, for supernodes): each row summed as
/// [`dot_sparse`] sums it, but every block of four entries of `vec2` is gathered once for
/// the three rows.
pub fn dot_sparse_x3(
    vec10: &[Real],
    vec11: &[Real],
    vec12: &[Real],
    vec2: &[Real],
    ind1: &[i32],
) -> [Real; 3] {
    dot_row3(vec10, vec11, vec12, ind1, vec2)
}

/// Dot product of two sparse vectors (`mju_dotSparse2`): the compressed `vec1` with pattern
/// `ind1`, and `vec2` with pattern `ind2`, uncompressed if `unc2`. Summed left to right over
/// the common indices.
pub fn dot_sparse2(vec1: &[Real], ind1: &[i32], vec2: &[Real], ind2: &[i32], unc2: bool) -> Real {
    let (mut i1, mut i2) = (0, 0);
    let mut res = 0.0;
    while i1 < ind1.len() && i2 < ind2.len() {
        let (a1, a2) = (ind1[i1], ind2[i2]);
        if a1 == a2 {
            let v2 = if unc2 { vec2[a2 as usize] } else { vec2[i2] };
            res += vec1[i1] * v2;
            i1 += 1;
            i2 += 1;
        } else if a1 < a2 {
            i1 += 1;
        } else {
            i2 += 1;
        }
    }
    res
}

/// Sorts a sparse row by column, its values along, with MuJoCo's insertion sort (a tendon's
/// Jacobian row; the fast build's rows mapped to a new order, whose runs stay sorted).
#[inline]
pub fn sort_row(colind: &mut [i32], values: &mut [Real]) {
    for k in 1..colind.len() {
        let (x, y) = (colind[k], values[k]);
        let mut j = k;
        while j > 0 && colind[j - 1] > x {
            colind[j] = colind[j - 1];
            values[j] = values[j - 1];
            j -= 1;
        }
        colind[j] = x;
        values[j] = y;
    }
}

/// `res = mat * vec` for the sparse `nr`-row matrix `mat` (`mju_mulMatVecSparse`). With
/// `rowsuper` (rows that share the pattern of the next `rowsuper[r]` rows), supernodes are
/// processed three rows at a time, as MuJoCo does; the sums are the same either way.
pub fn mul_mat_vec_sparse(
    res: &mut [Real],
    mat: &[Real],
    vec: &[Real],
    nr: usize,
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
    rowsuper: Option<&[i32]>,
) {
    let (rownnz, rowadr, res) = (&rownnz[..nr], &rowadr[..nr], &mut res[..nr]);
    // values and columns cut to one length: slicing a row checks one bound for both
    let len = mat.len().min(colind.len());
    let (mat, colind) = (&mat[..len], &colind[..len]);
    let row = |adr: i32, nnz: i32| (&mat[span(adr, nnz)], &colind[span(adr, nnz)]);
    let Some(rowsuper) = rowsuper else {
        for ((out, &nnz), &adr) in res.iter_mut().zip(rownnz).zip(rowadr) {
            let (values, cols) = row(adr, nnz);
            *out = dot_row(values, cols, vec);
        }
        return;
    };
    let rowsuper = &rowsuper[..nr];
    let mut r = 0;
    while r < nr {
        // rowsuper[r] counts the rows after r with r's pattern: three rows at a time while a
        // supernode has three left, then one (the grouping of MuJoCo's loop)
        if rowsuper[r] >= 2 && r + 3 <= nr {
            let nnz = rownnz[r];
            if nnz == 0 {
                // empty rows (dofs that no constraint reaches, in `J'`) sum to 0 either way:
                // no set-up for them
                res[r..r + 3].fill(0.0);
                r += 3;
                continue;
            }
            let (_, cols) = row(rowadr[r], nnz);
            let values = |r: usize| &mat[span(rowadr[r], nnz)];
            let out = dot_row3(values(r), values(r + 1), values(r + 2), cols, vec);
            res[r..r + 3].copy_from_slice(&out);
            r += 3;
        } else {
            let (values, cols) = row(rowadr[r], rownnz[r]);
            res[r] = dot_row(values, cols, vec);
            r += 1;
        }
    }
}

/// `res = res * scl1 + vec * scl2` (MuJoCo's `mju_addToSclScl`).
pub fn add_to_scl_scl(res: &mut [Real], vec: &[Real], scl1: Real, scl2: Real) {
    for (r, v) in res.iter_mut().zip(vec) {
        *r = *r * scl1 + *v * scl2;
    }
}

/// Number of non-zeros of the sum of two sparse vectors with patterns `a_ind` and `b_ind`
/// (`mju_combineSparseCount`).
pub fn combine_sparse_count(a_ind: &[i32], b_ind: &[i32]) -> usize {
    let (mut a, mut b, mut common) = (0, 0, 0);
    while a < a_ind.len() && b < b_ind.len() {
        if a_ind[a] == b_ind[b] {
            common += 1;
            a += 1;
            b += 1;
        } else if a_ind[a] < b_ind[b] {
            a += 1;
        } else {
            b += 1;
        }
    }
    a_ind.len() + b_ind.len() - common
}

/// `dst = a * dst + b * src` for sparse vectors (`mju_combineSparse`); returns the number of
/// non-zeros of the result.
///
/// `dst` holds `dst_nnz` values with pattern `dst_ind`; both must have room for the merged
/// pattern. `src` is compressed with pattern `src_ind`. `buf` and `buf_ind` are scratch of at
/// least `dst_nnz` elements.
///
/// Never inlined: the sparse factorization calls it once per non-zero of long rows (a soft
/// body's), where the merge inlined into its loop compiled 1.13x slower than this call
/// (softbox 26.2 -> 28.4 M instructions per step).
#[inline(never)]
pub fn combine_sparse(
    dst: &mut [Real],
    src: &[Real],
    a: Real,
    b: Real,
    dst_nnz: usize,
    dst_ind: &mut [i32],
    src_ind: &[i32],
    buf: &mut [Real],
    buf_ind: &mut [i32],
) -> usize {
    combine_rows(dst, src, a, b, dst_nnz, dst_ind, src_ind, buf, buf_ind)
}

/// [`combine_sparse`], inlined into the loops that combine a row per non-zero (the sparse
/// Cholesky rank-one update) or per dof (adding the mass matrix to the Hessian): the call's
/// set-up of nine arguments cost more than a third of the merge there
/// (humanoid, Newton with the sparse Hessian).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn combine_rows(
    dst: &mut [Real],
    src: &[Real],
    a: Real,
    b: Real,
    dst_nnz: usize,
    dst_ind: &mut [i32],
    src_ind: &[i32],
    buf: &mut [Real],
    buf_ind: &mut [i32],
) -> usize {
    let src = &src[..src_ind.len()];

    // same pattern: combine in place
    if same_pattern(&dst_ind[..dst_nnz], src_ind) {
        add_to_scl_scl(&mut dst[..dst_nnz], src, a, b);
        return dst_nnz;
    }

    // in place up to the first index of src that dst lacks (in a sparse factorization's
    // elimination most rows lack none: softbox 73%, the stack 57%), then a merge of the rest
    let (bi, si) = combine_in_place(&mut dst[..dst_nnz], &dst_ind[..dst_nnz], src, src_ind, a, b);
    if si == src.len() {
        return dst_nnz;
    }
    let rest = merge_rows(
        &mut dst[bi..],
        &mut dst_ind[bi..],
        dst_nnz - bi,
        (&src[si..], &src_ind[si..]),
        (a, b),
        (buf, buf_ind),
    );
    bi + rest
}

/// `dst = a * dst + b * src` in place over `dst`'s pattern while `src`'s indices are in it:
/// returns where the first index of `src` missing from `dst` would go, `(position in dst,
/// position in src)`, with the entries of `dst` before it final; or `(_, src.len())` when
/// `dst` had every index of `src`, all of `dst` then final. Each entry is the value the merge
/// would write there (`a * d + b * s`, or `a * d` where `src` has no entry), so the result is
/// the merge's, bit for bit, without its copy of `dst` (a fifth of the soft box's step).
#[inline(always)]
fn combine_in_place(
    dst: &mut [Real],
    dst_ind: &[i32],
    src: &[Real],
    src_ind: &[i32],
    a: Real,
    b: Real,
) -> (usize, usize) {
    let (mut bi, mut si) = (0, 0);
    while bi < dst.len() && si < src.len() {
        let (d, s) = (dst_ind[bi], src_ind[si]);
        if d == s {
            dst[bi] = a * dst[bi] + b * src[si];
            si += 1;
        } else if d < s {
            dst[bi] *= a;
        } else {
            return (bi, si);
        }
        bi += 1;
    }
    if si == src.len() {
        for x in &mut dst[bi..] {
            *x *= a;
        }
    }
    (bi, si)
}

/// Merges the `old_nnz` entries of `dst` (pattern `dst_ind`) with `src` (values and pattern)
/// into `dst` as `a * dst + b * src`, through a copy of `dst` in `buf` and `buf_ind`; returns
/// the merged count. `dst` and `dst_ind` have room for it.
#[inline(always)]
fn merge_rows(
    dst: &mut [Real],
    dst_ind: &mut [i32],
    old_nnz: usize,
    (src, src_ind): (&[Real], &[i32]),
    (a, b): (Real, Real),
    (buf, buf_ind): (&mut [Real], &mut [i32]),
) -> usize {
    // the slices of known length let the merge run without bounds checks on its reads, and
    // the output is one cursor
    buf[..old_nnz].copy_from_slice(&dst[..old_nnz]);
    buf_ind[..old_nnz].copy_from_slice(&dst_ind[..old_nnz]);
    let (old, old_ind) = (&buf[..old_nnz], &buf_ind[..old_nnz]);
    let mut out = dst.iter_mut().zip(dst_ind.iter_mut());
    let mut nnz = 0;
    let mut put = |v: Real, c: i32| {
        let (dv, dc) = out
            .next()
            .expect("combine_sparse: dst has room for the merged pattern");
        *dv = v;
        *dc = c;
        nnz += 1;
    };
    let (mut bi, mut si) = (0, 0);
    while bi < old.len() && si < src.len() {
        let (badr, sadr) = (old_ind[bi], src_ind[si]);
        if badr == sadr {
            put(a * old[bi] + b * src[si], badr);
            bi += 1;
            si += 1;
        } else if badr < sadr {
            put(a * old[bi], badr);
            bi += 1;
        } else {
            put(b * src[si], sadr);
            si += 1;
        }
    }
    for (&v, &c) in src[si..].iter().zip(&src_ind[si..]) {
        put(b * v, c);
    }
    for (&v, &c) in old[bi..].iter().zip(&old_ind[bi..]) {
        put(a * v, c);
    }
    nnz
}

/// Whether two sparsity patterns are equal (`mju_compare`): four indices at a time, inline.
/// Patterns are short and compared on every sparse combine, where a library `memcmp` call
/// costs more than the comparison.
#[inline]
fn same_pattern(a: &[i32], b: &[i32]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let ((a4, a_tail), (b4, b_tail)) = (a.as_chunks::<4>(), b.as_chunks::<4>());
    a4.iter().zip(b4).all(|(x, y)| x == y) && a_tail.iter().zip(b_tail).all(|(x, y)| x == y)
}

/// `dst = a * dst + b * src` only at the indices of `dst`'s pattern (`mju_combineSparseInc`);
/// `n` is the full length of the vectors.
pub fn combine_sparse_inc(
    dst: &mut [Real],
    src: &[Real],
    n: usize,
    a: Real,
    b: Real,
    dst_ind: &[i32],
    src_ind: &[i32],
) {
    let (dst_nnz, src_nnz) = (dst_ind.len(), src_ind.len());
    if same_pattern(dst_ind, src_ind) {
        add_to_scl_scl(&mut dst[..dst_nnz], &src[..src_nnz], a, b);
        return;
    }
    if a != 1.0 {
        scl_in_place(&mut dst[..dst_nnz], a);
    }
    // past-the-end index: larger than any column
    let end = n as i64 + 1;
    let at = |ind: &[i32], k: usize| ind.get(k).map_or(end, |&c| i64::from(c));
    let (mut di, mut si) = (0, 0);
    while di < dst_nnz {
        let (dadr, sadr) = (at(dst_ind, di), at(src_ind, si));
        if dadr == sadr {
            dst[di] += b * src[si];
            di += 1;
            si += 1;
        } else if dadr < sadr {
            di += 1;
        } else {
            si += 1;
        }
    }
}

/// Dense `nr x nc` matrix `mat` to sparse (`mju_dense2sparse`): the non-zeros of each row, in
/// column order, written to `res`/`colind` with `rownnz`/`rowadr`.
pub fn dense2sparse(
    res: &mut [Real],
    mat: &[Real],
    nr: usize,
    nc: usize,
    rownnz: &mut [i32],
    rowadr: &mut [i32],
    colind: &mut [i32],
) {
    let mut adr = 0;
    for r in 0..nr {
        rowadr[r] = adr as i32;
        rownnz[r] = 0;
        for (c, &x) in mat[r * nc..(r + 1) * nc].iter().enumerate() {
            if x != 0.0 {
                res[adr] = x;
                colind[adr] = c as i32;
                rownnz[r] += 1;
                adr += 1;
            }
        }
    }
}

/// Sparse matrix to dense `nr x nc` (`mju_sparse2dense`).
pub fn sparse2dense(
    res: &mut [Real],
    mat: &[Real],
    nr: usize,
    nc: usize,
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
) {
    res[..nr * nc].fill(0.0);
    for r in 0..nr {
        let (adr, nnz) = (rowadr[r] as usize, rownnz[r] as usize);
        let (values, ind) = (&mat[adr..][..nnz], &colind[adr..][..nnz]);
        for (&x, &c) in values.iter().zip(ind) {
            res[r * nc + c as usize] = x;
        }
    }
}

// ------------------------------------------------------------------------------------------------
// transpose, supernodes, `M' diag M` and compression (MuJoCo's `engine_util_sparse.c`)
//
// The *uncompressed* layout gives every row of an `n x n` matrix room for `n` elements
// (`rowadr[r] = r n`), so that rows can grow during factorization.

/// A sparse matrix: values and row structure.
pub(crate) struct SparseMut<'s> {
    pub(crate) val: &'s mut [Real],
    pub(crate) rownnz: &'s mut [i32],
    pub(crate) rowadr: &'s mut [i32],
    pub(crate) colind: &'s mut [i32],
}

impl<'s> SparseMut<'s> {
    pub(crate) fn new(stack: &mut Stack<'s>, nr: usize, nnz: usize) -> Result<Self, ArenaError> {
        Ok(SparseMut {
            val: stack.alloc::<Real>(nnz)?,
            rownnz: stack.alloc::<i32>(nr)?,
            rowadr: stack.alloc::<i32>(nr)?,
            colind: stack.alloc::<i32>(nnz)?,
        })
    }
}

/// `res = mat'` for the sparse `nr x nc` matrix `mat` (`mju_transposeSparse`); `res` gets `nc`
/// rows.
pub fn transpose_sparse(
    res: &mut [Real],
    mat: &[Real],
    nr: usize,
    nc: usize,
    res_rownnz: &mut [i32],
    res_rowadr: &mut [i32],
    res_colind: &mut [i32],
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
) {
    res_rownnz[..nc].fill(0);
    if nr == 0 || nc == 0 {
        return;
    }
    let nnz = (rowadr[nr - 1] + rownnz[nr - 1]) as usize;
    for &c in &colind[..nnz] {
        res_rownnz[c as usize] += 1;
    }
    res_rowadr[0] = 0;
    for i in 1..nc {
        res_rowadr[i] = res_rowadr[i - 1] + res_rownnz[i - 1];
    }
    // the rows are stored one after the other: row by row visits the entries in storage order
    for r in 0..nr {
        let (adr, len) = (rowadr[r] as usize, rownnz[r] as usize);
        for (&v, &c) in mat[adr..adr + len].iter().zip(&colind[adr..adr + len]) {
            let dst = res_rowadr[c as usize] as usize;
            res_rowadr[c as usize] += 1;
            res[dst] = v;
            res_colind[dst] = r as i32;
        }
    }
    // the row addresses moved to the ends of the rows: shift them back
    for i in (1..nc).rev() {
        res_rowadr[i] = res_rowadr[i - 1];
    }
    res_rowadr[0] = 0;
}

/// Row supernodes of a sparse matrix (`mju_superSparse`): `rowsuper[r]` is the number of rows
/// after `r` with the same pattern as `r`.
pub fn super_sparse(
    nr: usize,
    rowsuper: &mut [i32],
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
) {
    if nr == 0 {
        return;
    }
    let (rowsuper, rownnz, rowadr) = (&mut rowsuper[..nr], &rownnz[..nr], &rowadr[..nr]);
    for r in 0..nr - 1 {
        // rows of different lengths differ without a look at their columns
        let (nnz, next_nnz) = (rownnz[r] as usize, rownnz[r + 1] as usize);
        rowsuper[r] = i32::from(
            nnz == next_nnz
                && same_pattern(
                    &colind[rowadr[r] as usize..][..nnz],
                    &colind[rowadr[r + 1] as usize..][..nnz],
                ),
        );
    }
    rowsuper[nr - 1] = 0;
    for r in (0..nr - 1).rev() {
        if rowsuper[r] != 0 {
            rowsuper[r] += rowsuper[r + 1];
        }
    }
}

/// Counts the non-zeros of each row of `mat' mat` and sets the row addresses
/// (`mju_sqrMatTDSparseInit`): `mat` has `nc` columns, `mat_t` is its transpose (with
/// supernodes).
pub(crate) fn sqr_mat_td_sparse_init(
    res_rownnz: &mut [i32],
    res_rowadr: &mut [i32],
    nc: usize,
    mat: &SparseMut,
    mat_t: &SparseMut,
    rowsuper_t: &[i32],
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let chain = stack.frame().alloc::<i32>(2 * nc)?;
    let mut nchain = 0usize;
    // row pattern of the previous row: an offset into chain
    let mut res_colind = 0usize;
    for r in 0..nc {
        let super_prev = r > 0 && rowsuper_t[r - 1] > 0;
        if super_prev {
            res_rownnz[r] = res_rownnz[r - 1];
            for j in 0..nchain {
                res_rownnz[chain[res_colind + j] as usize] += 1;
            }
            if mat_t.rownnz[r] != 0 {
                chain[res_colind + nchain] = r as i32;
                nchain += 1;
                res_rownnz[r] += 1;
            }
            continue;
        }
        let (mut inew, mut iold) = (0usize, nc);
        nchain = 0;
        let adr_t = mat_t.rowadr[r] as usize;
        for i in 0..mat_t.rownnz[r] as usize {
            let c = mat_t.colind[adr_t + i] as usize;
            core::mem::swap(&mut inew, &mut iold);
            let mut nnew = 0;
            let mut adr = 0;
            let start = mat.rowadr[c] as usize;
            for adr1 in start..start + mat.rownnz[c] as usize {
                let col = mat.colind[adr1];
                while adr < nchain && chain[iold + adr] < col && chain[iold + adr] <= r as i32 {
                    chain[inew + nnew] = chain[iold + adr];
                    nnew += 1;
                    adr += 1;
                }
                // lower triangle only
                if col > r as i32 {
                    break;
                }
                if adr < nchain && chain[iold + adr] == col {
                    adr += 1;
                }
                chain[inew + nnew] = col;
                nnew += 1;
            }
            while adr < nchain && chain[iold + adr] <= r as i32 {
                chain[inew + nnew] = chain[iold + adr];
                nnew += 1;
                adr += 1;
            }
            nchain = nnew;
        }
        res_rownnz[r] = nchain as i32;
        res_colind = inew;
        // the upper triangle mirrors the lower one; the diagonal counts once
        let mut end = nchain;
        if nchain > 0 && chain[res_colind + nchain - 1] == r as i32 {
            end -= 1;
        }
        for j in 0..end {
            res_rownnz[chain[res_colind + j] as usize] += 1;
        }
    }
    if nc > 0 {
        res_rowadr[0] = 0;
    }
    for r in 1..nc {
        res_rowadr[r] = res_rowadr[r - 1] + res_rownnz[r - 1];
    }
    Ok(())
}

/// `res = mat' diag(diag) mat` (or `mat' mat`) for the sparse `nr x nc` matrix `mat` with
/// transpose `matT` (`mju_sqrMatTDSparse`): `res` (`nc x nc`, room for `nc` per row at the
/// precomputed `res_rowadr`) gets its lower triangle row by row, then the upper triangle is
/// filled. With `rowsuper_t`, rows of `matT` that share their pattern reuse the previous row's
/// result pattern.
#[allow(clippy::too_many_arguments)]
pub fn sqr_mat_td_sparse(
    res: &mut [Real],
    mat: &[Real],
    mat_t: &[Real],
    diag: Option<&[Real]>,
    nc: usize,
    res_rownnz: &mut [i32],
    res_rowadr: &[i32],
    res_colind: &mut [i32],
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
    rownnz_t: &[i32],
    rowadr_t: &[i32],
    colind_t: &[i32],
    rowsuper_t: Option<&[i32]>,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let mut frame = stack.frame();
    // a dense row of the result and which of its columns are set
    let buffer = frame.alloc::<Real>(nc)?;
    let markers = frame.alloc::<i32>(nc)?;
    // values and columns cut to one length, and the row arrays too: a row of `mat` then costs
    // one bound check for both arrays of each pair
    let len = mat.len().min(colind.len());
    let (mat, colind) = (&mat[..len], &colind[..len]);
    let nr = rownnz.len().min(rowadr.len());
    let (rownnz, rowadr) = (&rownnz[..nr], &rowadr[..nr]);

    for i in 0..nc {
        let radr = res_rowadr[i] as usize;
        buffer[i] = 0.0;
        markers[i] = 0;

        // a supernode row starts from the previous row's pattern
        let mut nnz = 0;
        if rowsuper_t.is_some_and(|s| i > 0 && s[i - 1] != 0) {
            nnz = res_rownnz[i - 1] as usize;
            // no call to move nothing: rows of matT without entries (dofs no row reaches)
            // form one long supernode of empty patterns
            if nnz > 0 {
                let prev = res_rowadr[i - 1] as usize;
                res_colind.copy_within(prev..prev + nnz, radr);
            }
        }
        let (adr_t, len_t) = (rowadr_t[i] as usize, rownnz_t[i] as usize);
        if len_t == 0 && nnz == 0 {
            // an empty row of matT (a dof that no row reaches): an empty row of the result
            res_rownnz[i] = 0;
            continue;
        }
        let cols = &mut res_colind[radr..];

        // the columns of a lower-triangle row are at most i: one bounds check here covers
        // the lookups in the loops below
        let (row_buf, row_mark) = (&mut buffer[..=i], &mut markers[..=i]);
        let row_t = adr_t..adr_t + len_t;
        for (&t, &vt) in colind_t[row_t.clone()].iter().zip(&mat_t[row_t]) {
            let t = t as usize;
            let v = match diag {
                Some(diag) => vt * diag[t],
                None => vt,
            };
            let row = span(rowadr[t], rownnz[t]);
            for (&cc, &m) in colind[row.clone()].iter().zip(&mat[row]) {
                let cc = cc as usize;
                if cc > i {
                    break;
                }
                row_buf[cc] += v * m;
                if row_mark[cc] == 0 {
                    row_mark[cc] = 1;
                    insert_sorted(cols, nnz, cc as i32);
                    nnz += 1;
                }
            }
        }
        res_rownnz[i] = nnz as i32;

        let keep_pattern = rowsuper_t.is_some_and(|s| s[i] != 0);
        for (r, &cc) in res[radr..radr + nnz].iter_mut().zip(&cols[..nnz]) {
            let cc = cc as usize;
            *r = row_buf[cc];
            row_buf[cc] = 0.0;
            if !keep_pattern {
                row_mark[cc] = 0;
            }
        }
    }
    mirror_lower(res, res_colind, res_rownnz, res_rowadr, nc);
    Ok(())
}

/// Inserts column `cc` into the sorted pattern `cols[..nnz]`, which does not hold it.
// from the back, an entry at a time: columns mostly arrive in increasing order (the diagonal,
// the rightmost column of a lower-triangle row, always does), so few entries move, and a
// binary search with a `memmove` call cost more (humanoid_elliptic: 30 K calls per 200 steps)
#[inline]
fn insert_sorted(cols: &mut [i32], nnz: usize, cc: i32) {
    let row = &mut cols[..=nnz];
    let mut k = nnz;
    while k > 0 && row[k - 1] > cc {
        row[k] = row[k - 1];
        k -= 1;
    }
    row[k] = cc;
}

/// Fills the upper triangle of the symmetric `n x n` sparse matrix whose rows hold their lower
/// triangle (diagonal last) and have room for the full row: row `i`'s entries before its
/// diagonal are appended, in row order, to the rows of their columns (the last step of
/// `mju_sqrMatTDSparse` and `mj_makeMSparse`).
pub(crate) fn mirror_lower(
    val: &mut [Real],
    colind: &mut [i32],
    rownnz: &mut [i32],
    rowadr: &[i32],
    n: usize,
) {
    let (rownnz, rowadr) = (&mut rownnz[..n], &rowadr[..n]);
    for i in 0..n {
        let len = (rownnz[i] as usize).saturating_sub(1);
        if len == 0 {
            // a diagonal alone (most rows of a Hessian over many independent bodies)
            continue;
        }
        let start = rowadr[i] as usize;
        // the entries go to rows before i, which end before row i starts: reads from the
        // upper part, writes to the lower, one bound check per entry for both arrays
        let (val_lo, val_hi) = val.split_at_mut(start);
        let (ind_lo, ind_hi) = colind.split_at_mut(start);
        for (&v, &c) in val_hi[..len].iter().zip(&ind_hi[..len]) {
            let c = c as usize;
            let adr = (rowadr[c] + rownnz[c]) as usize;
            rownnz[c] += 1;
            val_lo[adr] = v;
            ind_lo[adr] = i as i32;
        }
    }
}

/// Row addresses of the uncompressed layout of an `nc x nc` matrix
/// (`mju_sqrMatTDUncompressedInit`).
pub fn sqr_mat_td_uncompressed_init(res_rowadr: &mut [i32], nc: usize) {
    for (r, adr) in res_rowadr[..nc].iter_mut().enumerate() {
        *adr = (r * nc) as i32;
    }
}

/// Moves the rows of a sparse matrix to be contiguous (`mju_compressSparse`).
pub fn compress_sparse(
    mat: &mut [Real],
    nr: usize,
    rownnz: &[i32],
    rowadr: &mut [i32],
    colind: &mut [i32],
) {
    if nr == 0 {
        return;
    }
    let (rownnz, rowadr) = (&rownnz[..nr], &mut rowadr[..nr]);
    rowadr[0] = 0;
    let mut adr = rownnz[0] as usize;
    for r in 1..nr {
        let old = rowadr[r] as usize;
        rowadr[r] = adr as i32;
        let nnz = rownnz[r] as usize;
        if nnz == 1 {
            // a diagonal alone (most rows of a Hessian over many independent bodies): no loop
            // set-up
            mat[adr] = mat[old];
            colind[adr] = colind[old];
            adr += 1;
            continue;
        }
        // rows only move towards the front (adr <= old): an element at a time front to back
        // is right where the rows overlap, and for rows this short cheaper than a `memmove`
        let (vals, cols) = (&mut mat[adr..old + nnz], &mut colind[adr..old + nnz]);
        let shift = old - adr;
        for k in 0..nnz {
            vals[k] = vals[k + shift];
            cols[k] = cols[k + shift];
        }
        adr += nnz;
    }
}

// ------------------------------------------------------------------------------------------------
// sparse reverse-order Cholesky (MuJoCo's `engine_util_solve.c`)

/// The error MuJoCo raises when a factorization meets a structural problem.
fn structure_error(what: &'static str) -> StepError {
    StepError::Numerical(what)
}

/// Sparse reverse-order Cholesky factorization `mat = L' L` in place (`mju_cholFactorSparse`),
/// of an `n x n` symmetric matrix in the uncompressed layout. Rows are first cut to end at the
/// diagonal (the lower triangle is kept). Diagonal values below `mindiag` are replaced by it;
/// returns `n` minus their number. A row without its diagonal is MuJoCo's fatal error.
pub fn chol_factor_sparse(
    mat: &mut [Real],
    n: usize,
    mindiag: Real,
    rownnz: &mut [i32],
    rowadr: &[i32],
    colind: &mut [i32],
    stack: &mut Stack,
) -> Result<usize, StepError> {
    let mut frame = stack.frame();
    let buf_ind = frame.alloc::<i32>(n)?;
    let buf = frame.alloc::<Real>(n)?;
    let (rownnz, rowadr) = (&mut rownnz[..n], &rowadr[..n]);
    keep_lower(rownnz, rowadr, colind)?;

    let mut rank = n;
    for r in (0..n).rev() {
        // the diagonal (keep_lower checked that it ends the row), then the row before it
        let (nnz, adr) = (rownnz[r] as usize, rowadr[r] as usize);
        let diag = &mut mat[adr + nnz - 1];
        let mut tmp = *diag;
        if tmp < mindiag {
            tmp = mindiag;
            rank -= 1;
        }
        *diag = sqrt(tmp);
        // a diagonal alone (most rows of a Hessian over many independent bodies): no row to
        // scale, no row to update
        if nnz > 1 {
            let inv = 1.0 / *diag;
            subtract_row(mat, colind, rownnz, rowadr, adr, nnz - 1, inv, buf, buf_ind);
        }
    }
    Ok(rank)
}

/// Cuts every row of the matrix of [`chol_factor_sparse`] to end at its diagonal (`rownnz`
/// and `rowadr` of length `n`); a row without its diagonal is MuJoCo's fatal error.
// never inlined, like `subtract_row`: apart from the factorization's row loop, each loop has
// the registers to itself (humanoid100, most rows a diagonal alone: 44.8 -> 35.9 K
// instructions per step in the factorization, the merges aside)
#[inline(never)]
pub(crate) fn keep_lower(
    rownnz: &mut [i32],
    rowadr: &[i32],
    colind: &[i32],
) -> Result<(), StepError> {
    for (r, (nnz, &adr)) in rownnz.iter_mut().zip(rowadr).enumerate() {
        let row = &colind[span(adr, *nnz)];
        let lower = row
            .iter()
            .rposition(|&c| c <= r as i32)
            .map_or(0, |k| k + 1);
        if lower == 0 || row[lower - 1] != r as i32 {
            return Err(structure_error("matrix must have non-zero diagonal"));
        }
        *nnz = lower as i32;
    }
    Ok(())
}

/// One elimination step of [`chol_factor_sparse`]: the `len` entries of row `r` (at `adr`)
/// before its diagonal are scaled by `inv`, then `L(r,c) row(r)[0..=c]` is subtracted from
/// each row `c < r` with `L(r,c) != 0`.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn subtract_row(
    mat: &mut [Real],
    colind: &mut [i32],
    rownnz: &mut [i32],
    rowadr: &[i32],
    adr: usize,
    len: usize,
    inv: Real,
    buf: &mut [Real],
    buf_ind: &mut [i32],
) {
    // row r is after the rows c < r that it updates
    let (mat_lo, mat_hi) = mat.split_at_mut(adr);
    let (ind_lo, ind_hi) = colind.split_at_mut(adr);
    let row = &mut mat_hi[..len];
    let row_ind = &ind_hi[..len];
    for x in row.iter_mut() {
        *x *= inv;
    }

    // rows c < r with L(r,c) != 0: row(c)[0..=c] -= L(r,c) * row(r)[0..=c]
    for (i, &c) in row_ind.iter().enumerate() {
        let c = c as usize;
        let cadr = rowadr[c] as usize;
        rownnz[c] = combine_sparse(
            &mut mat_lo[cadr..],
            &row[..=i],
            1.0,
            -row[i],
            rownnz[c] as usize,
            &mut ind_lo[cadr..],
            &row_ind[..=i],
            buf,
            buf_ind,
        ) as i32;
    }
}

/// Solves `L' L res = vec` with the factor of [`chol_factor_sparse`] (`mju_cholSolveSparse`).
pub fn chol_solve_sparse(
    res: &mut [Real],
    mat: &[Real],
    vec: &[Real],
    n: usize,
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
) {
    let res = &mut res[..n];
    res.copy_from_slice(&vec[..n]);
    let (rownnz, rowadr) = (&rownnz[..n], &rowadr[..n]);
    // values and columns cut to one length: slicing a row checks one bound for both
    let len = mat.len().min(colind.len());
    let (mat, colind) = (&mat[..len], &colind[..len]);

    // res <- L^-T res
    for i in (0..n).rev() {
        if res[i] == 0.0 {
            continue;
        }
        let (vals, cols, diag) = factor_row(mat, colind, rowadr[i], rownnz[i]);
        res[i] /= diag;
        let x = res[i];
        for (&l, &c) in vals.iter().zip(cols) {
            res[c as usize] -= l * x;
        }
    }

    // res <- L^-1 res
    for i in 0..n {
        let (vals, cols, diag) = factor_row(mat, colind, rowadr[i], rownnz[i]);
        if !cols.is_empty() {
            res[i] -= dot_row(vals, cols, res);
        }
        res[i] /= diag;
    }
}

/// A row of the factor of [`chol_factor_sparse`] at `adr` with `nnz` entries (`mat` and `colind`
/// of one length): the entries before the diagonal, their columns, and the diagonal.
#[inline(always)]
fn factor_row<'a>(
    mat: &'a [Real],
    colind: &'a [i32],
    adr: i32,
    nnz: i32,
) -> (&'a [Real], &'a [i32], Real) {
    let (vals, cols) = (&mat[span(adr, nnz)], &colind[span(adr, nnz)]);
    let (&diag, vals) = vals
        .split_last()
        .expect("a factor row ends at its diagonal");
    (vals, &cols[..vals.len()], diag)
}

/// Rank-one update `L' L ± x x'` of the factor of [`chol_factor_sparse`] in place
/// (`mju_cholUpdateSparse`), for the sparse `x` with non-zeros `x[..x_nnz]` at `x_ind`; `x`
/// and `x_ind` (room for `n`) are used as scratch. The sparsity of `mat` must not change
/// (MuJoCo's fatal error otherwise). Returns `n` minus the number of diagonal values below
/// `MINVAL` (replaced by it).
#[allow(clippy::too_many_arguments)]
pub fn chol_update_sparse(
    mat: &mut [Real],
    x: &mut [Real],
    n: usize,
    flg_plus: bool,
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &mut [i32],
    x_nnz: usize,
    x_ind: &mut [i32],
    stack: &mut Stack,
) -> Result<usize, StepError> {
    let mut frame = stack.frame();
    let buf_ind = frame.alloc::<i32>(n)?;
    let buf = frame.alloc::<Real>(n)?;

    // back pass over the rows of the non-zeros of x, last first; x changes as it goes
    let mut rank = n;
    let mut i = x_nnz as isize - 1;
    while i >= 0 {
        let iu = i as usize;
        let row = x_ind[iu] as usize;
        let (nnz, adr) = (rownnz[row] as usize, rowadr[row] as usize);

        let diag = mat[adr + nnz - 1];
        let xx = if flg_plus {
            x[iu] * x[iu]
        } else {
            -x[iu] * x[iu]
        };
        let mut tmp = diag * diag + xx;
        if tmp < MINVAL {
            tmp = MINVAL;
            rank -= 1;
        }
        let r = sqrt(tmp);
        let c = r / diag;
        let s = x[iu] / diag;
        mat[adr + nnz - 1] = r;

        // row: (row + s x) / c, before the diagonal (a pattern that grows spills into the
        // next row, as in MuJoCo, and is an error)
        let b = if flg_plus { s / c } else { -s / c };
        let new_nnz = combine_rows(
            &mut mat[adr..],
            &x[..iu],
            1.0 / c,
            b,
            nnz - 1,
            &mut colind[adr..],
            &x_ind[..iu],
            buf,
            buf_ind,
        );
        if new_nnz != nnz - 1 {
            return Err(structure_error("varying sparsity pattern"));
        }

        // x: c x - s row, before the diagonal
        let new_x_nnz = combine_rows(
            x,
            &mat[adr..adr + nnz - 1],
            c,
            -s,
            iu,
            x_ind,
            &colind[adr..adr + nnz - 1],
            buf,
            buf_ind,
        );
        i = i - 1 + (new_x_nnz as isize - i);
    }
    Ok(rank)
}

// ------------------------------------------------------------------------------------------------
// sparse LU without fill-in (MuJoCo's `engine_util_solve.c`)

/// Address range of row `i` of a compressed-row matrix.
#[inline]
fn row_range(rownnz: &[i32], rowadr: &[i32], i: usize) -> core::ops::Range<usize> {
    span(rowadr[i], rownnz[i])
}

/// Why [`factor_lu_sparse`] could not factor a matrix (MuJoCo stops with `mjERROR` in each
/// case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LuError {
    /// The diagonal element of row `i` is missing or smaller than `mjMINVAL` in magnitude.
    Diagonal(usize),
    /// The elimination would need non-zeros outside the given sparsity pattern.
    FillIn,
}

/// Sparse LU factorization in reverse order without fill-in (`mju_factorLUSparse`), for
/// matrices whose pattern is that of a tree of dofs, such as `qLU`: afterwards `lu` holds `L`
/// on and below the diagonal and `U` above it, with `original = (U + I) L`. `remaining` is
/// scratch of `n` elements.
///
/// Rows are eliminated from the last to the first, so that each step only touches the rows of
/// ancestors, whose patterns contain the pattern of the row eliminated.
pub fn factor_lu_sparse(
    lu: &mut [Real],
    n: usize,
    remaining: &mut [i32],
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
) -> Result<(), LuError> {
    remaining[..n].copy_from_slice(&rownnz[..n]);
    for i in (0..n).rev() {
        // the last remaining element of row i is its diagonal
        let ii = last_remaining(rowadr, remaining, i).ok_or(LuError::Diagonal(i))?;
        if colind[ii] != i as i32 || lu[ii].abs() < crate::real::MINVAL {
            return Err(LuError::Diagonal(i));
        }
        remaining[i] -= 1;
        for j in (0..i).rev() {
            let Some(ji) = last_remaining(rowadr, remaining, j) else {
                continue;
            };
            if colind[ji] != i as i32 {
                continue;
            }
            remaining[j] -= 1;
            lu[ji] /= lu[ii];
            eliminate_row(lu, colind, rowadr, remaining, (i, j), lu[ji])?;
        }
    }
    // every row must end on its diagonal
    for i in 0..n {
        let diag = rowadr[i] + remaining[i];
        if remaining[i] < 0 || colind.get(diag as usize) != Some(&(i as i32)) {
            return Err(LuError::Diagonal(i));
        }
    }
    Ok(())
}

/// Address of the last element of row `i` not yet eliminated.
#[inline]
fn last_remaining(rowadr: &[i32], remaining: &[i32], i: usize) -> Option<usize> {
    usize::try_from(rowadr[i] + remaining[i] - 1).ok()
}

/// `(j, k) -= (i, k) * lji` over the remaining columns `k < i` of row `j`; row `i`'s remaining
/// columns must be among row `j`'s.
fn eliminate_row(
    lu: &mut [Real],
    colind: &[i32],
    rowadr: &[i32],
    remaining: &[i32],
    (i, j): (usize, usize),
    lji: Real,
) -> Result<(), LuError> {
    let iend = (rowadr[i] + remaining[i]) as usize;
    let jend = (rowadr[j] + remaining[j]) as usize;
    let (mut icnt, mut jcnt) = (rowadr[i] as usize, rowadr[j] as usize);
    while jcnt < jend {
        if icnt < iend && colind[icnt] == colind[jcnt] {
            lu[jcnt] -= lu[icnt] * lji;
            icnt += 1;
            jcnt += 1;
        } else if icnt >= iend || colind[icnt] > colind[jcnt] {
            jcnt += 1;
        } else {
            return Err(LuError::FillIn);
        }
    }
    if icnt != iend {
        return Err(LuError::FillIn);
    }
    Ok(())
}

/// Solves `mat res = vec` from the factorization of [`factor_lu_sparse`]
/// (`mju_solveLUSparse`): first `(U + I) res = vec` from the last row up, then `L res = res`
/// from the first row down.
pub fn solve_lu_sparse(
    res: &mut [Real],
    lu: &[Real],
    vec: &[Real],
    n: usize,
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
) {
    for i in (0..n).rev() {
        res[i] = vec[i];
        // columns right of the diagonal, from the last one
        for adr in row_range(rownnz, rowadr, i).rev() {
            let k = colind[adr] as usize;
            if k <= i {
                break;
            }
            res[i] -= res[k] * lu[adr];
        }
    }
    for i in 0..n {
        for adr in row_range(rownnz, rowadr, i) {
            let k = colind[adr] as usize;
            if k >= i {
                res[i] /= lu[adr];
                break;
            }
            res[i] -= res[k] * lu[adr];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_sparse_follows_avx_lane_order() {
        // values chosen so that the summation order shows in the result
        let big: Real = if cfg!(feature = "f32") { 1e8 } else { 1e16 };
        let vec1 = [big, 1.0, -big, 1.0, 1.0];
        let vec2 = [1.0; 8];
        let ind = [0, 2, 3, 5, 7];
        // lanes: big, 1, -big, 1 -> (big - big) + (1 + 1) = 2, then + 1
        assert_eq!(dot_sparse(&vec1, &vec2, &ind, false), 3.0);
        // left to right would lose the ones next to big
        let naive = vec1.iter().fold(0.0, |acc: Real, v| acc + v);
        assert_ne!(naive, 3.0);
        // fewer than four: plain left-to-right sum
        assert_eq!(
            dot_sparse(&[2.0, 3.0], &[1.0, 0.0, 5.0], &[0, 2], false),
            17.0
        );
        assert_eq!(dot_sparse(&[], &[1.0], &[], false), 0.0);
    }

    #[test]
    fn dot_sparse_uncompressed_reads_at_indices() {
        let vec1 = [1.0, 9.0, 2.0, 9.0, 3.0];
        let vec2 = [4.0, 9.0, 5.0, 9.0, 6.0];
        assert_eq!(dot_sparse(&vec1, &vec2, &[0, 2, 4], true), 32.0);
    }

    #[test]
    fn dot_sparse2_matches_common_indices() {
        let v1 = [1.0, 2.0, 3.0];
        let v2 = [10.0, 20.0, 30.0];
        assert_eq!(dot_sparse2(&v1, &[0, 3, 5], &v2, &[1, 3, 5], false), 130.0);
        let full = [0.0, 0.0, 0.0, 7.0, 0.0, 1.0];
        assert_eq!(dot_sparse2(&v1, &[0, 3, 5], &full, &[3, 5], true), 17.0);
    }

    #[test]
    fn mul_mat_vec_sparse_with_and_without_supernodes() {
        // 4 x 6 dense matrix; rows 0-2 share a pattern (a supernode of three)
        let dense: [Real; 24] = [
            1.0, 0.0, 2.0, 0.0, 3.0, 0.0, //
            4.0, 0.0, 5.0, 0.0, 6.0, 0.0, //
            7.0, 0.0, 8.0, 0.0, 9.0, 0.0, //
            0.0, 1.0, 0.0, 0.0, 0.0, 2.0,
        ];
        let (mut mat, mut colind) = ([0.0; 24], [0; 24]);
        let (mut rownnz, mut rowadr) = ([0; 4], [0; 4]);
        dense2sparse(
            &mut mat,
            &dense,
            4,
            6,
            &mut rownnz,
            &mut rowadr,
            &mut colind,
        );
        assert_eq!(rownnz, [3, 3, 3, 2]);
        assert_eq!(rowadr, [0, 3, 6, 9]);
        let vec = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let expect = [22.0, 49.0, 76.0, 14.0];
        let mut res = [0.0; 4];
        mul_mat_vec_sparse(&mut res, &mat, &vec, 4, &rownnz, &rowadr, &colind, None);
        assert_eq!(res, expect);
        let rowsuper = [2, 1, 0, 0];
        let mut res = [0.0; 4];
        let rs = Some(&rowsuper[..]);
        mul_mat_vec_sparse(&mut res, &mat, &vec, 4, &rownnz, &rowadr, &colind, rs);
        assert_eq!(res, expect);

        let mut back = [0.0; 24];
        sparse2dense(&mut back, &mat, 4, 6, &rownnz, &rowadr, &colind);
        assert_eq!(back, dense);
    }

    #[test]
    fn mul_mat_vec_sparse_sums_in_lane_order() {
        // supernodes of 1 to 7 rows with 0 to 11 entries (blocks of four and every tail), values
        // of mixed magnitudes so that another summation order would round differently
        let mut seed = 0x2545_f491_u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as u32
        };
        let (mut mat, mut colind) = ([0.0; 512], [0i32; 512]);
        let (mut rownnz, mut rowadr, mut rowsuper) = ([0; 40], [0; 40], [0; 40]);
        let (mut nr, mut adr) = (0, 0);
        for size in 1..=7 {
            let nnz = (size * 5 + 3) % 12;
            let mut cols: [i32; 11] = core::array::from_fn(|i| i as i32);
            for _ in 0..8 {
                let (a, b) = (next() as usize % 11, next() as usize % 11);
                cols.swap(a, b);
            }
            cols[..nnz].sort_unstable();
            for k in 0..size {
                rownnz[nr] = nnz as i32;
                rowadr[nr] = adr as i32;
                rowsuper[nr] = (size - 1 - k) as i32;
                for &c in &cols[..nnz] {
                    let v = Real::from((next() % 2001) as u16) - 1000.0;
                    mat[adr] = v * Real::from(10u16.pow(next() % 4)) / 7.0;
                    colind[adr] = c;
                    adr += 1;
                }
                nr += 1;
            }
        }
        let vec: [Real; 16] = core::array::from_fn(|i| (i as Real * 1.37 - 9.1) / 3.0);
        let expect: [Real; 40] = core::array::from_fn(|r| {
            let (a, n) = (rowadr[r] as usize, rownnz[r] as usize);
            lane_sum(n, |i| mat[a + i] * vec[colind[a + i] as usize])
        });
        for rs in [None, Some(&rowsuper[..nr])] {
            let mut res = [0.0; 40];
            mul_mat_vec_sparse(&mut res, &mat, &vec, nr, &rownnz, &rowadr, &colind, rs);
            for r in 0..nr {
                assert_eq!(res[r].to_bits(), expect[r].to_bits(), "row {r}, {rs:?}");
            }
        }
    }

    #[test]
    fn combine_sparse_merges_patterns() {
        let mut dst = [1.0, 2.0, 0.0, 0.0, 0.0];
        let mut dst_ind = [1, 4, 0, 0, 0];
        let (mut buf, mut buf_ind) = ([0.0; 5], [0; 5]);
        let src = [10.0, 20.0, 30.0];
        let src_ind = [0, 4, 6];
        assert_eq!(combine_sparse_count(&dst_ind[..2], &src_ind), 4);
        let nnz = combine_sparse(
            &mut dst,
            &src,
            2.0,
            0.5,
            2,
            &mut dst_ind,
            &src_ind,
            &mut buf,
            &mut buf_ind,
        );
        assert_eq!(nnz, 4);
        assert_eq!(&dst_ind[..4], &[0, 1, 4, 6]);
        assert_eq!(&dst[..4], &[5.0, 2.0, 14.0, 15.0]);

        // identical pattern: in place
        let src_ind = [0, 1, 4, 6];
        let nnz = combine_sparse(
            &mut dst,
            &[1.0; 4],
            1.0,
            -1.0,
            4,
            &mut dst_ind,
            &src_ind,
            &mut buf,
            &mut buf_ind,
        );
        assert_eq!(nnz, 4);
        assert_eq!(&dst[..4], &[4.0, 1.0, 13.0, 14.0]);

        // empty destination
        let mut dst = [0.0; 2];
        let mut dst_ind = [0; 2];
        let nnz = combine_sparse(
            &mut dst,
            &[3.0, 4.0],
            1.0,
            2.0,
            0,
            &mut dst_ind,
            &[2, 5],
            &mut buf,
            &mut buf_ind,
        );
        assert_eq!((nnz, dst, dst_ind), (2, [6.0, 8.0], [2, 5]));
    }

    #[test]
    fn combine_sparse_inc_keeps_pattern() {
        let mut dst = [1.0, 2.0, 3.0];
        combine_sparse_inc(&mut dst, &[10.0, 20.0], 8, 2.0, 1.0, &[0, 3, 7], &[3, 5]);
        assert_eq!(dst, [2.0, 14.0, 6.0]);
    }

    proptest::proptest! {
        /// `combine_sparse` is the merge of the two patterns, entry by entry `a * d + b * s`,
        /// `a * d` or `b * s` bit for bit, whether `src`'s pattern lies within `dst`'s (combined
        /// in place), reaches beyond it at some point (in place up to there, then merged), or
        /// equals it; values include zeros, negative zeros and an infinity.
        #[test]
        fn combine_sparse_is_the_merge(
            in_dst in proptest::collection::vec(proptest::bool::ANY, 40),
            in_src in proptest::collection::vec(proptest::bool::ANY, 40),
            subset: bool,
            values in proptest::collection::vec(
                proptest::prop_oneof![-3.0f64..3.0, proptest::strategy::Just(0.0),
                    proptest::strategy::Just(-0.0), proptest::strategy::Just(f64::INFINITY)],
                80,
            ),
            a in -2.0f64..2.0,
            b in -2.0f64..2.0,
        ) {
            let dst_ind: Vec<i32> = (0..40).filter(|&i| in_dst[i as usize]).collect();
            let src_ind: Vec<i32> = (0..40)
                .filter(|&i| in_src[i as usize] && (!subset || in_dst[i as usize]))
                .collect();
            let (a, b) = (a as Real, b as Real);
            let value = |k: usize| values[k] as Real;
            let src: Vec<Real> = src_ind.iter().map(|&i| value(40 + i as usize)).collect();
            let mut dst = vec![0.0; 40];
            let mut ind = vec![0; 40];
            for (k, &i) in dst_ind.iter().enumerate() {
                dst[k] = value(i as usize);
                ind[k] = i;
            }
            let (mut buf, mut buf_ind) = (vec![0.0; 40], vec![0; 40]);
            let nnz = combine_sparse(
                &mut dst, &src, a, b, dst_ind.len(), &mut ind, &src_ind, &mut buf, &mut buf_ind,
            );
            let expect: Vec<(i32, Real)> = (0..40)
                .filter(|&i| in_dst[i as usize] || src_ind.contains(&i))
                .map(|i| {
                    let (d, s) = (value(i as usize), value(40 + i as usize));
                    let v = match (in_dst[i as usize], src_ind.contains(&i)) {
                        (true, true) => a * d + b * s,
                        (true, false) => a * d,
                        _ => b * s,
                    };
                    (i, v)
                })
                .collect();
            proptest::prop_assert_eq!(nnz, expect.len());
            for (k, &(i, v)) in expect.iter().enumerate() {
                proptest::prop_assert_eq!(ind[k], i);
                proptest::prop_assert_eq!(dst[k].to_bits(), v.to_bits(), "index {}", i);
            }
        }
    }
}

#[cfg(test)]
mod lu_tests {
    use super::*;
    use crate::math::chol::{chol_factor, chol_solve};
    use crate::real::{EPSILON, MINVAL};

    type Pattern = (Vec<i32>, Vec<i32>, Vec<i32>);

    /// Compressed-row pattern "dof, its ancestors and its descendants" of the tree `parent`.
    fn tree_pattern(parent: &[i32]) -> Pattern {
        let n = parent.len();
        let is_ancestor = |a: usize, mut b: usize| loop {
            if a == b {
                return true;
            }
            match usize::try_from(parent[b]) {
                Ok(p) => b = p,
                Err(_) => return false,
            }
        };
        let (mut rownnz, mut rowadr, mut colind) = (vec![], vec![], vec![]);
        for i in 0..n {
            rowadr.push(colind.len() as i32);
            for j in 0..n {
                if is_ancestor(i, j) || is_ancestor(j, i) {
                    colind.push(j as i32);
                }
            }
            rownnz.push(colind.len() as i32 - rowadr[i]);
        }
        (rownnz, rowadr, colind)
    }

    fn compress(a: &[Real], n: usize, (rownnz, rowadr, colind): &Pattern) -> Vec<Real> {
        let mut v = vec![0.0; colind.len()];
        for i in 0..n {
            for adr in row_range(rownnz, rowadr, i) {
                v[adr] = a[i * n + colind[adr] as usize];
            }
        }
        v
    }

    /// A non-symmetric, diagonally dominant matrix on the tree pattern.
    fn tree_matrix(parent: &[i32]) -> (Vec<Real>, Pattern) {
        let n = parent.len();
        let pat = tree_pattern(parent);
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for adr in row_range(&pat.0, &pat.1, i) {
                let j = pat.2[adr] as usize;
                a[i * n + j] = if i == j {
                    10.0 + i as Real
                } else {
                    0.3 * (i as Real + 1.0) - 0.7 * (j as Real) / (n as Real)
                };
            }
        }
        (a, pat)
    }

    /// Dense reference solve: Gaussian elimination with partial pivoting.
    fn dense_solve(a: &[Real], b: &[Real], n: usize) -> Vec<Real> {
        let (mut m, mut x) = (a.to_vec(), b.to_vec());
        for c in 0..n {
            let p = (c..n)
                .max_by(|&r, &s| m[r * n + c].abs().total_cmp(&m[s * n + c].abs()))
                .unwrap();
            for k in 0..n {
                m.swap(c * n + k, p * n + k);
            }
            x.swap(c, p);
            for r in c + 1..n {
                let f = m[r * n + c] / m[c * n + c];
                for k in c..n {
                    m[r * n + k] -= f * m[c * n + k];
                }
                x[r] -= f * x[c];
            }
        }
        for r in (0..n).rev() {
            for k in r + 1..n {
                x[r] -= m[r * n + k] * x[k];
            }
            x[r] /= m[r * n + r];
        }
        x
    }

    fn factor_and_solve(a: &[Real], pat: &Pattern, b: &[Real]) -> Vec<Real> {
        let n = b.len();
        let mut lu = compress(a, n, pat);
        let mut scratch = vec![0; n];
        factor_lu_sparse(&mut lu, n, &mut scratch, &pat.0, &pat.1, &pat.2).unwrap();
        let mut x = vec![0.0; n];
        solve_lu_sparse(&mut x, &lu, b, n, &pat.0, &pat.1, &pat.2);
        x
    }

    fn check_against_dense(parent: &[i32]) {
        let n = parent.len();
        let (a, pat) = tree_matrix(parent);
        let b: Vec<Real> = (0..n).map(|i| 1.0 - 0.25 * i as Real).collect();
        let x = factor_and_solve(&a, &pat, &b);
        let expected = dense_solve(&a, &b, n);
        for (u, v) in x.iter().zip(&expected) {
            assert!((u - v).abs() <= 1e3 * EPSILON, "{x:?} vs {expected:?}");
        }
    }

    #[test]
    fn lu_chain_agrees_with_dense_solve() {
        check_against_dense(&[-1, 0, 1, 2, 3]);
    }

    #[test]
    fn lu_forest_agrees_with_dense_solve() {
        // 0-1-{2, 3-4}, 5-6, and 7 alone
        check_against_dense(&[-1, 0, 1, 1, 3, -1, 5, -1]);
    }

    #[test]
    fn lu_of_symmetric_matrix_agrees_with_cholesky() {
        let parent = [-1, 0, 0, 2];
        let n = parent.len();
        let (a, pat) = tree_matrix(&parent);
        let mut sym = vec![0.0; n * n];
        crate::math::mat::symmetrize(&mut sym, &a, n);
        let b = [1.0, -2.0, 0.5, 3.0];
        let x = factor_and_solve(&sym, &pat, &b);
        chol_factor(&mut sym, n, MINVAL);
        let mut y = [0.0; 4];
        chol_solve(&mut y, &sym, &b, n);
        for (u, v) in x.iter().zip(&y) {
            assert!((u - v).abs() <= 1e3 * EPSILON);
        }
    }

    #[test]
    fn lu_refuses_bad_matrices() {
        let (rownnz, rowadr, colind) = tree_pattern(&[-1, 0]);
        let mut lu = vec![1.0, 2.0, 3.0, 0.0];
        let mut scratch = vec![0; 2];
        let err = factor_lu_sparse(&mut lu, 2, &mut scratch, &rownnz, &rowadr, &colind);
        assert_eq!(err, Err(LuError::Diagonal(1)));
        // row 2 couples to dof 1, which row 0 (coupled to 2) lacks: not a tree pattern
        let (rownnz, rowadr, colind) = ([2, 2, 2], [0, 2, 4], [0, 2, 1, 2, 1, 2]);
        let mut lu = vec![4.0, 1.0, 4.0, 1.0, 1.0, 4.0];
        let mut scratch = vec![0; 3];
        let err = factor_lu_sparse(&mut lu, 3, &mut scratch, &rownnz, &rowadr, &colind);
        assert_eq!(err, Err(LuError::FillIn));
    }
}
