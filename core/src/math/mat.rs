//! Matrix math (API reference › Vector math): 3×3 rotations and products, dense row-major
//! matrix-vector and matrix-matrix products, transpose, symmetrize, identity.
//!
//! Dense matrices are row-major slices with explicit sizes, as in MuJoCo; slices may be longer
//! than the sizes require, only the leading elements are used. Products sum in MuJoCo's order:
//! row-times-vector products go through [`dot`] (AVX lane order), the others
//! accumulate scaled rows with [`add_to_scl`], skipping zero scales.

use core::ops::Range;

use super::scalar::madd;
use super::vec::{add_to_scl, dot, zero};
use crate::Real;

// ------------------------------------------------------------------------------------------------
// 3×3

/// `mat * vec` for a 3×3 matrix (`mju_rotVecMat`).
#[inline]
pub fn rot_vec_mat(vec: &[Real; 3], mat: &[Real; 9]) -> [Real; 3] {
    core::array::from_fn(|i| sum3(mat[3 * i], mat[3 * i + 1], mat[3 * i + 2], vec))
}

/// `matᵀ * vec` for a 3×3 matrix (`mju_rotVecMatT`).
#[inline]
pub fn rot_vec_mat_t(vec: &[Real; 3], mat: &[Real; 9]) -> [Real; 3] {
    core::array::from_fn(|i| sum3(mat[i], mat[3 + i], mat[6 + i], vec))
}

/// `a0 v0 + a1 v1 + a2 v2`, summed left to right ([`madd`]: fused in the fast build).
#[inline(always)]
fn sum3(a0: Real, a1: Real, a2: Real, vec: &[Real; 3]) -> Real {
    madd(a2, vec[2], madd(a1, vec[1], a0 * vec[0]))
}

/// 3×3 product from a function giving element `(i, k)` of the left and `(k, j)` of the right
/// factor; sums over `k` left to right.
#[inline]
fn mul3(a: impl Fn(usize, usize) -> Real, b: impl Fn(usize, usize) -> Real) -> [Real; 9] {
    core::array::from_fn(|ij| {
        let (i, j) = (ij / 3, ij % 3);
        sum3(a(i, 0), a(i, 1), a(i, 2), &[b(0, j), b(1, j), b(2, j)])
    })
}

/// `a * b` for 3×3 matrices (`mju_mulMatMat3`).
#[inline]
pub fn mul_mat_mat3(a: &[Real; 9], b: &[Real; 9]) -> [Real; 9] {
    mul3(|i, k| a[3 * i + k], |k, j| b[3 * k + j])
}

/// `aᵀ * b` for 3×3 matrices (`mju_mulMatTMat3`).
#[inline]
pub fn mul_mat_t_mat3(a: &[Real; 9], b: &[Real; 9]) -> [Real; 9] {
    mul3(|i, k| a[3 * k + i], |k, j| b[3 * k + j])
}

/// `a * bᵀ` for 3×3 matrices (`mju_mulMatMatT3`).
#[inline]
pub fn mul_mat_mat_t3(a: &[Real; 9], b: &[Real; 9]) -> [Real; 9] {
    mul3(|i, k| a[3 * i + k], |k, j| b[3 * j + k])
}

// ------------------------------------------------------------------------------------------------
// matrix-vector

/// `res = mat * vec` with `mat` of size `nr × nc` (`mju_mulMatVec`); each element is a
/// [`dot`] of a row with `vec`.
pub fn mul_mat_vec(res: &mut [Real], mat: &[Real], vec: &[Real], nr: usize, nc: usize) {
    let (res, vec) = (&mut res[..nr], &vec[..nc]);
    if nc == 0 {
        // the dot of empty rows
        res.fill(0.0);
        return;
    }
    // rows as chunks: their bounds are checked once, not per row (the rows are often short:
    // constraint Jacobians of small models)
    for (r, row) in res.iter_mut().zip(mat[..nr * nc].chunks_exact(nc)) {
        *r = dot(row, vec);
    }
}

/// `res = matᵀ * vec` with `mat` of size `nr × nc` (`mju_mulMatTVec`): rows of `mat` scaled by
/// the non-zero elements of `vec` are added into `res` (length `nc`) in row order.
///
/// From 16 columns on, blocks of 16, 8 and 4 columns keep their sums in registers over all rows
/// and store them once. Adding whole rows into `res` stores every element after each row and
/// loads it back for the next, a chain through memory that stalls whenever a store straddles
/// two cache lines, so that the WidowX arm's `Jᵀ f` (56 columns) ran at 0.95-1.05x MuJoCo from
/// Python depending on where the heap put its `Data` (now 1.04-1.06x at every placement tried).
/// Narrower matrices and the last three columns go row by row: one pass over the rows costs
/// less there than a pass per block (the ant's 14 columns). Each element is the same sum in the
/// same order either way.
// always inlined as before the wide path was split off (its call made LLVM keep this one out of
// line: arm26's tendons 1.3% more instructions)
#[inline(always)]
pub fn mul_mat_t_vec(res: &mut [Real], mat: &[Real], vec: &[Real], nr: usize, nc: usize) {
    if nc >= 16 {
        return mul_mat_t_vec_wide(res, mat, vec, nr, nc);
    }
    t_vec_rows(res, mat, vec, nr, nc, 0);
}

/// [`mul_mat_t_vec`] from 16 columns on, out of line: the callers' 3×3 products stay inlined
/// and folded.
#[inline(never)]
fn mul_mat_t_vec_wide(res: &mut [Real], mat: &[Real], vec: &[Real], nr: usize, nc: usize) {
    let (res, mat, vec) = (&mut res[..nc], &mat[..nr * nc], &vec[..nr]);
    let mut c = t_vec_columns::<16>(res, mat, vec, nc, 0);
    c = t_vec_columns::<8>(res, mat, vec, nc, c);
    c = t_vec_columns::<4>(res, mat, vec, nc, c);
    if c < nc {
        t_vec_rows(res, mat, vec, nr, nc, c);
    }
}

/// Columns `c..nc` of [`mul_mat_t_vec`] row by row: the rows' parts scaled by the non-zero
/// elements of `vec`, added into `res` in row order.
#[inline(always)]
fn t_vec_rows(res: &mut [Real], mat: &[Real], vec: &[Real], nr: usize, nc: usize, c: usize) {
    let res = &mut res[c..nc];
    zero(res);
    for r in 0..nr {
        if vec[r] != 0.0 {
            add_to_scl(res, &mat[r * nc + c..(r + 1) * nc], vec[r]);
        }
    }
}

/// Columns `c..` of [`mul_mat_t_vec`] in blocks of `B` while a whole block fits; returns the
/// first column left.
#[inline(always)]
fn t_vec_columns<const B: usize>(
    res: &mut [Real],
    mat: &[Real],
    vec: &[Real],
    nc: usize,
    mut c: usize,
) -> usize {
    while c + B <= nc {
        let mut sum = [0.0; B];
        for (r, &scl) in vec.iter().enumerate() {
            if scl != 0.0 {
                let row = &mat[r * nc + c..r * nc + c + B];
                for (s, &m) in sum.iter_mut().zip(row) {
                    *s = madd(m, scl, *s);
                }
            }
        }
        res[c..c + B].copy_from_slice(&sum);
        c += B;
    }
    c
}

/// `vec1ᵀ * mat * vec2` with `mat` of size `n × n` (`mju_mulVecMatVec`).
pub fn mul_vec_mat_vec(vec1: &[Real], mat: &[Real], vec2: &[Real], n: usize) -> Real {
    let vec2 = &vec2[..n];
    (0..n).fold(0.0, |acc, i| {
        acc + vec1[i] * dot(&mat[i * n..(i + 1) * n], vec2)
    })
}

// ------------------------------------------------------------------------------------------------
// matrix

/// `res = matᵀ`, where `mat` is `nr × nc` and `res` becomes `nc × nr` (`mju_transpose`).
pub fn transpose(res: &mut [Real], mat: &[Real], nr: usize, nc: usize) {
    for i in 0..nr {
        for j in 0..nc {
            res[j * nr + i] = mat[i * nc + j];
        }
    }
}

/// `res = (mat + matᵀ) / 2` for `n × n` matrices (`mju_symmetrize`).
pub fn symmetrize(res: &mut [Real], mat: &[Real], n: usize) {
    for i in 0..n {
        res[i * (n + 1)] = mat[i * (n + 1)];
        for j in 0..i {
            let s = 0.5 * (mat[i * n + j] + mat[j * n + i]);
            res[i * n + j] = s;
            res[j * n + i] = s;
        }
    }
}

/// `mat = (mat + matᵀ) / 2` in place: `mju_symmetrize` with `res` and `mat` the same array.
pub fn symmetrize_in_place(mat: &mut [Real], n: usize) {
    for i in 0..n {
        for j in 0..i {
            let s = 0.5 * (mat[i * n + j] + mat[j * n + i]);
            mat[i * n + j] = s;
            mat[j * n + i] = s;
        }
    }
}

/// Sets `mat` to the `n × n` identity (`mju_eye`).
pub fn eye(mat: &mut [Real], n: usize) {
    zero(&mut mat[..n * n]);
    for i in 0..n {
        mat[i * (n + 1)] = 1.0;
    }
}

// ------------------------------------------------------------------------------------------------
// matrix-matrix

/// `res = mat1 * mat2` with `mat1` of size `r1 × c1` and `mat2` of size `c1 × c2`
/// (`mju_mulMatMat`); skips zeros of `mat1`.
pub fn mul_mat_mat(
    res: &mut [Real],
    mat1: &[Real],
    mat2: &[Real],
    r1: usize,
    c1: usize,
    c2: usize,
) {
    zero(&mut res[..r1 * c2]);
    for i in 0..r1 {
        let row = &mut res[i * c2..(i + 1) * c2];
        for k in 0..c1 {
            let a = mat1[i * c1 + k];
            if a != 0.0 {
                add_to_scl(row, &mat2[k * c2..(k + 1) * c2], a);
            }
        }
    }
}

/// `res = mat1 * mat2ᵀ` with `mat1` of size `r1 × c1` and `mat2` of size `r2 × c1`
/// (`mju_mulMatMatT`); each element is a [`dot`] of two rows.
pub fn mul_mat_mat_t(
    res: &mut [Real],
    mat1: &[Real],
    mat2: &[Real],
    r1: usize,
    c1: usize,
    r2: usize,
) {
    for i in 0..r1 {
        let row1 = &mat1[i * c1..(i + 1) * c1];
        for j in 0..r2 {
            res[i * r2 + j] = dot(row1, &mat2[j * c1..(j + 1) * c1]);
        }
    }
}

/// `res = mat1ᵀ * mat2` with `mat1` of size `r1 × c1` and `mat2` of size `r1 × c2`
/// (`mju_mulMatTMat`); skips zeros of `mat1`.
pub fn mul_mat_t_mat(
    res: &mut [Real],
    mat1: &[Real],
    mat2: &[Real],
    r1: usize,
    c1: usize,
    c2: usize,
) {
    zero(&mut res[..c1 * c2]);
    for i in 0..r1 {
        let row2 = &mat2[i * c2..(i + 1) * c2];
        for j in 0..c1 {
            let a = mat1[i * c1 + j];
            if a != 0.0 {
                add_to_scl(&mut res[j * c2..(j + 1) * c2], row2, a);
            }
        }
    }
}

/// `res = matᵀ * diag(diag) * mat`, or `matᵀ * mat` when `diag` is `None`, with `mat` of size
/// `nr × nc` and `res` of size `nc × nc` (`mju_sqrMatTD`). The lower triangle is accumulated
/// (skipping zeros), then copied to the upper one.
#[inline]
pub fn sqr_mat_td(res: &mut [Real], mat: &[Real], diag: Option<&[Real]>, nr: usize, nc: usize) {
    let res = &mut res[..nc * nc];
    #[cfg(not(feature = "fast"))]
    zero(res);
    #[cfg(feature = "fast")]
    super::fast::zero_lower(res, nc);
    if nc == 0 {
        return;
    }
    // rows of `mat` and of `res` as slices: their bounds are checked once, not per product
    let rows = mat[..nr * nc].chunks_exact(nc);
    match diag {
        Some(diag) => {
            for (row, &dj) in rows.zip(&diag[..nr]) {
                if dj == 0.0 {
                    continue;
                }
                // long constraint rows are mostly zero (a contact moves a few bodies of many)
                if nc >= SPARSE_ROWS {
                    add_outer_sparse(res, row, dj, nc);
                } else {
                    add_outer_rows(res, row, 0..nc, dj, nc);
                }
            }
        }
        None => {
            for (i, res_i) in res.chunks_exact_mut(nc).enumerate() {
                for row in rows.clone() {
                    let m = row[i];
                    if m != 0.0 {
                        add_to_scl(&mut res_i[..i + 1], &row[..i + 1], m);
                    }
                }
            }
        }
    }
    copy_lower_to_upper(res, nc);
}

/// The row length from which [`sqr_mat_td`] skips zeros four at a time. Measured per step: the
/// arm's 56 columns (contacts of one free body) gain a quarter of the function, the hand's 34
/// lose 1.5%, shorter rows lose to the calls. Below 16 the plain loop also knows that no row
/// of `res` fills [`add_to_scl`]'s 16-wide loop (the hopper, the ant, arm_sensors gain 5-9%).
const SPARSE_ROWS: usize = 16;

/// Adds the lower triangle of `row' * row * scl` to the `nc × nc` matrix `res`: row
/// `res[i][..=i] += row[..=i] * (row[i] * scl)` for each nonzero `row[i]` in `rows`, in
/// increasing `i` (`mju_sqrMatTD`'s inner loops).
#[inline]
fn add_outer_rows(res: &mut [Real], row: &[Real], rows: Range<usize>, scl: Real, nc: usize) {
    for i in rows {
        let m = row[i];
        if m != 0.0 {
            let start = i * nc;
            add_to_scl(&mut res[start..start + i + 1], &row[..i + 1], m * scl);
        }
    }
}

/// [`add_outer_rows`] over all of a mostly zero `row`: runs of zeros are skipped four entries
/// at a time (one comparison of four lanes), the rest is added by [`add_outer_run`].
#[inline]
fn add_outer_sparse(res: &mut [Real], row: &[Real], scl: Real, nc: usize) {
    let mut i = 0;
    loop {
        while zero_quad(row, i) {
            i += 4;
        }
        if i == row.len() {
            return;
        }
        i = add_outer_run(res, row, i, scl, nc);
    }
}

/// Whether `row[i..i + 4]` exists and is all zero.
#[inline(always)]
fn zero_quad(row: &[Real], i: usize) -> bool {
    matches!(row.get(i..i + 4), Some(&[a, b, c, d]) if (a == 0.0) & (b == 0.0) & (c == 0.0) & (d == 0.0))
}

/// [`add_outer_sparse`]'s rows from `start` on, four at a time, up to the next quad of zeros or
/// the end of `row`; returns where it stopped. Not inlined: the skipping loop then carries no
/// pointers into `res` for the rows it skips.
#[inline(never)]
fn add_outer_run(res: &mut [Real], row: &[Real], start: usize, scl: Real, nc: usize) -> usize {
    let mut i = start;
    loop {
        let end = row.len().min(i + 4);
        add_outer_rows(res, row, i..end, scl, nc);
        i = end;
        if i == row.len() || zero_quad(row, i) {
            return i;
        }
    }
}

/// Copies the lower triangle of the dense `n × n` matrix `res` to its upper one. Row `i` right
/// of the diagonal is column `i` below it, walked by a stride over the rows below: no index is
/// multiplied or divided per element (one bound check each).
fn copy_lower_to_upper(res: &mut [Real], n: usize) {
    let mut rest = res;
    // the last row has nothing right of the diagonal (and no rows below)
    for i in 0..n.saturating_sub(1) {
        let (row, below) = core::mem::take(&mut rest).split_at_mut(n);
        // a running index down column `i` of the rows below (chunks of them would cost a
        // division per row)
        let column = &below[i..];
        let mut k = 0;
        for upper in &mut row[i + 1..] {
            *upper = column[k];
            k += n;
        }
        rest = below;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows long enough for the zero-skipping path (runs of zeros, a nonzero quad, a tail of
    /// two, a zero weight) add the same products in the same order as the plain loop.
    #[test]
    fn sqr_mat_td_skips_zero_runs_exactly() {
        const NR: usize = 3;
        const NC: usize = 42;
        let mut mat = [0.0; NR * NC];
        for (k, &(r, c)) in [(0, 5), (0, 6), (0, 20), (0, 41), (1, 0), (1, 13), (2, 8)]
            .iter()
            .enumerate()
        {
            mat[r * NC + c] = 0.3 + k as Real * 1.7;
        }
        mat[2 * NC + 9..2 * NC + 12].copy_from_slice(&[0.7, -1.1, 2.3]);
        let diag = [0.9, 1.3, 0.0];
        let mut want = [0.0; NC * NC];
        for (row, &dj) in mat.chunks_exact(NC).zip(&diag) {
            for i in 0..NC {
                if dj != 0.0 && row[i] != 0.0 {
                    for k in 0..=i {
                        want[i * NC + k] += row[k] * (row[i] * dj);
                    }
                }
            }
        }
        for i in 0..NC {
            for k in i + 1..NC {
                want[i * NC + k] = want[k * NC + i];
            }
        }
        let mut got = [1.0; NC * NC];
        sqr_mat_td(&mut got, &mat, Some(&diag), NR, NC);
        assert_eq!(got, want);
    }
    use crate::real::EPSILON;
    use proptest::prelude::*;

    const A9: [Real; 9] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0];
    const B9: [Real; 9] = [0.5, -1.0, 2.0, 0.0, 3.0, 1.0, -2.0, 1.0, 0.25];

    #[test]
    fn three_by_three() {
        let v = [1.0, -1.0, 2.0];
        assert_eq!(rot_vec_mat(&v, &A9), [5.0, 11.0, 19.0]);
        assert_eq!(rot_vec_mat_t(&v, &A9), [11.0, 13.0, 17.0]);
        assert_eq!(
            mul_mat_mat3(&A9, &B9),
            [-5.5, 8.0, 4.75, -10.0, 17.0, 14.5, -16.5, 27.0, 24.5]
        );
        let mut at = [0.0; 9];
        transpose(&mut at, &A9, 3, 3);
        let mut bt = [0.0; 9];
        transpose(&mut bt, &B9, 3, 3);
        assert_eq!(mul_mat_t_mat3(&A9, &B9), mul_mat_mat3(&at, &B9));
        assert_eq!(mul_mat_mat_t3(&A9, &B9), mul_mat_mat3(&A9, &bt));
    }

    #[test]
    fn small_matrices() {
        // 2×3 matrix.
        let m = [1.0, 2.0, 3.0, -1.0, 0.0, 4.0];
        let mut r2 = [0.0; 2];
        mul_mat_vec(&mut r2, &m, &[1.0, 1.0, 2.0], 2, 3);
        assert_eq!(r2, [9.0, 7.0]);
        let mut r3 = [9.0; 3];
        mul_mat_t_vec(&mut r3, &m, &[2.0, 1.0], 2, 3);
        assert_eq!(r3, [1.0, 4.0, 10.0]);
        assert_eq!(
            mul_vec_mat_vec(&[1.0, 2.0], &[1.0, 2.0, 3.0, 4.0], &[-1.0, 1.0], 2),
            3.0
        );

        let mut t = [0.0; 6];
        transpose(&mut t, &m, 2, 3);
        assert_eq!(t, [1.0, -1.0, 2.0, 0.0, 3.0, 4.0]);

        let mut s = [0.0; 4];
        symmetrize(&mut s, &[1.0, 2.0, 4.0, 3.0], 2);
        assert_eq!(s, [1.0, 3.0, 3.0, 3.0]);
        let mut s2 = [1.0, 2.0, 4.0, 3.0];
        symmetrize_in_place(&mut s2, 2);
        assert_eq!(s2, s);

        let mut e = [5.0; 9];
        eye(&mut e, 3);
        assert_eq!(e, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);

        // m * mᵀ (2×2), mᵀ * m (3×3).
        let mut mmt = [0.0; 4];
        mul_mat_mat_t(&mut mmt, &m, &m, 2, 3, 2);
        assert_eq!(mmt, [14.0, 11.0, 11.0, 17.0]);
        let mut mtm = [0.0; 9];
        mul_mat_t_mat(&mut mtm, &m, &m, 2, 3, 3);
        assert_eq!(mtm, [2.0, 2.0, -1.0, 2.0, 4.0, 6.0, -1.0, 6.0, 25.0]);
        let mut sq = [0.0; 9];
        sqr_mat_td(&mut sq, &m, None, 2, 3);
        assert_eq!(sq, mtm);
        sqr_mat_td(&mut sq, &m, Some(&[2.0, 0.5]), 2, 3);
        assert_eq!(sq, [2.5, 4.0, 4.0, 4.0, 8.0, 12.0, 4.0, 12.0, 26.0]);
        let mut mm = [0.0; 4];
        mul_mat_mat(&mut mm, &m, &t, 2, 3, 2);
        assert_eq!(mm, mmt);
    }

    // Reference values from MuJoCo 3.1.6 (`mju_mulMatVec`, `mju_mulMatTVec`, `mju_mulMatMat`,
    // `mju_mulMatMatT`, `mju_mulMatTMat`, `mju_sqrMatTD`, `mju_mulVecMatVec`, `mju_symmetrize`,
    // `mju_rotVecMat(T)`, `mju_mulMat(T)Mat(T)3`), compared bit for bit.
    // (MuJoCo's bits are the exact build's contract; the fast build is measured against them
    // in tests/tests/fast.rs instead)
    #[cfg(not(any(feature = "f32", feature = "fast")))]
    mod reference {
        use super::super::*;

        const A57: [f64; 35] = [
            0.0253304, 2.34425, 3.47498, -0.414908, -0.132089, -0.746638, 0.72975, -0.168227,
            0.206713, -0.953254, 0.0, -0.0170274, 0.772077, -0.231508, -0.181092, 1.85124, 1.87566,
            -0.379276, -0.22832, 1.7831, -0.22973, 0.0, 0.721705, -0.11448, -2.71701, -0.633719,
            -1.02161, -0.769187, -1.46549, 0.0516212, 0.373558, -0.424199, -0.669502, 0.629994,
            0.425629,
        ];
        const X7: [f64; 7] = [
            2.62694, 0.963556, -0.162076, 0.23094, 4.4287, 0.507192, -2.77402,
        ];
        const Y5: [f64; 5] = [5.91905, -12.1018, -0.0511123, -0.73674, 0.49321];
        const B74: [f64; 28] = [
            1.20499, 0.29687, -0.904053, 0.888019, -0.01699, -0.510688, -0.482636, 0.537481,
            0.0362879, -0.0218124, -0.491363, -0.712158, -0.868255, 2.07513, -0.714967, -3.24233,
            3.68955, 0.474237, 1.04864, 0.0300783, -0.28321, -0.467717, 0.765743, 2.34233, -1.0558,
            -0.461089, 0.0870841, -0.772443,
        ];
        const C67: [f64; 42] = [
            0.836829, 1.13355, 0.179793, -0.648975, -0.152709, 12.0372, 0.164746, 2.95605, 3.66741,
            -0.191897, 0.520203, 1.24191, 0.893208, 0.703524, 0.521983, 0.204527, -2.1034,
            -0.145716, -1.40628, 0.0491851, -1.03201, 0.373168, 0.275207, 0.444786, 1.71854,
            0.243156, -0.267386, -0.330623, -0.31471, 0.342733, 0.0154353, 0.0572847, -1.60926,
            0.317067, -0.37973, -0.168091, -0.043332, -0.219356, 0.66471, -3.03801, -1.04286,
            -2.52016,
        ];
        const D54: [f64; 20] = [
            -0.553179, -14.4778, 0.334871, 0.239759, -0.787037, 1.06801, 0.82807, -0.491512,
            -6.91008, -0.0634051, -0.349174, -0.347005, 0.299243, 5.84168, -0.590003, 0.217607,
            1.71745, 0.463173, 0.156235, -0.195449,
        ];
        const DIAG5: [f64; 5] = [0.213422, 2.06252, 0.0, 0.0605969, 0.807151];
        const M77: [f64; 49] = [
            -2.57538,
            -0.854697,
            1.46821,
            0.471176,
            -1.03212,
            0.58271,
            -0.339009,
            0.99699,
            -0.806905,
            0.255406,
            -0.715047,
            0.755692,
            -0.27155,
            -0.0968931,
            -0.618802,
            -0.653714,
            0.123005,
            -3.25961,
            0.615907,
            5.25419,
            -0.107642,
            0.267518,
            -0.529047,
            0.963281,
            -11.4115,
            -4.78975,
            0.143865,
            -0.00426676,
            2.8929,
            -0.724532,
            0.456905,
            2.56855,
            -0.953715,
            -0.201675,
            -0.0549854,
            -0.0285597,
            1.19791,
            0.205136,
            -0.673035,
            0.290225,
            2.60294,
            2.71723,
            -4.59502,
            -0.082165,
            -0.486105,
            3.55852,
            -0.156525,
            5.21075,
            1.38008,
        ];
        const MUL_MAT_VEC: [f64; 5] = [
            -1.3216845878199996,
            0.8701467649160002,
            1.4469550071599997,
            -1.1044722786199999,
            -7.7847226362128,
        ];
        const MUL_MAT_T_VEC: [f64; 7] = [
            1.4722431184515998,
            10.773263595200003,
            32.277384865962,
            -0.6439647700951999,
            -0.427428191154,
            -12.790667142490003,
            7.909447590049,
        ];
        const MUL_MAT_MAT: [f64; 20] = [
            -0.5693239284920001,
            -2.1763521033410003,
            -3.2118475458341997,
            -2.1635183188311,
            -0.2778727168666,
            -0.39715740957520007,
            1.0739090134172,
            2.6273566979805802,
            -0.9571354437860002,
            -2.663464485794,
            -0.2742533752450001,
            5.0753593444259995,
            1.105941377058,
            -5.472262929178001,
            0.13668515451330027,
            7.461017778588302,
            -4.4828701042348,
            -2.1582529847278002,
            1.2371145250266997,
            0.9624654977596003,
        ];
        const MUL_MAT_MAT_T: [f64; 30] = [
            -5.274472561757401,
            7.471980152342001,
            -7.360208383212601,
            1.4134431455512002,
            0.5240728894464001,
            -1.8030502152564,
            9.1802593772036,
            0.9493479033080001,
            2.2603797668147,
            -0.5639231279014,
            0.4691885090558,
            0.05842053389900009,
            23.990851985512002,
            6.844210766831999,
            -2.9600275856300007,
            0.16802346621400022,
            1.7187209489608,
            -1.3002526872279996,
            -9.766492213870999,
            -0.985313953578,
            2.4190642608740003,
            -4.148208650948,
            1.0779251834540002,
            3.1169304104299993,
            6.930331772521,
            -4.404405192803001,
            -0.9450920470541999,
            -1.5674847784666,
            1.5758915099297,
            0.18449237135360036,
        ];
        const MUL_MAT_T_MAT: [f64; 28] = [
            -1.1471569650826,
            -1.2136898267907998,
            -0.2965495276536,
            0.43802716506760003,
            -13.947075150076001,
            -29.596309945726404,
            -0.10795377703299991,
            -0.034977672489799994,
            -13.525690597362,
            -51.942810205272,
            -0.15471633947000016,
            0.552906924666,
            1.3087590986319997,
            -10.0373774251194,
            1.5302619814210001,
            -0.476198383511,
            0.32470733572779986,
            -2.103429514608,
            0.29068721923,
            0.04887963244280001,
            -11.739718797576998,
            5.845081465522,
            0.46787430571200006,
            -1.5226840907419998,
            1.8667983655549998,
            -15.0940658088,
            0.6532038100859999,
            0.11790131106600003,
        ];
        const SQR_MAT_T: [f64; 49] = [
            2.2093972052571598,
            -0.38628902411899996,
            -0.6387268400900001,
            0.6798334562988,
            1.0220140126342,
            -1.3949518889342,
            -0.524722022334,
            -0.38628902411899996,
            9.488850719783443,
            11.358131413127603,
            -3.6575563447087998,
            -1.2277632075236,
            1.0054582666238,
            0.7044207349958,
            -0.6387268400900001,
            11.358131413127603,
            16.65493087428,
            -2.000609449242,
            -1.0485755642563999,
            0.36624495165399973,
            2.572710855974,
            0.6798334562988,
            -3.6575563447087998,
            -2.000609449242,
            7.878087064341001,
            2.14722401822,
            2.141980804998,
            1.693689337179,
            1.0220140126342,
            -1.2277632075236,
            -1.0485755642563999,
            2.14722401822,
            0.91970015763676,
            -0.09600976452580001,
            0.16249093486420002,
            -1.3949518889342,
            1.0054582666238,
            0.36624495165399973,
            2.141980804998,
            -0.09600976452580001,
            5.773596239108999,
            -0.07927979832000015,
            -0.524722022334,
            0.7044207349958,
            2.572710855974,
            1.693689337179,
            0.16249093486420002,
            -0.07927979832000015,
            1.4117155760740001,
        ];
        const SQR_MAT_TD: [f64; 49] = [
            1.7919935965271614,
            -0.1201116210111067,
            -0.09233320727034072,
            0.49952998086083283,
            0.7971289233416953,
            -1.017127214000091,
            -0.4191927411494515,
            -0.1201116210111067,
            1.2947075874533782,
            1.342721551563811,
            -0.3440824488453375,
            -0.12895569869251977,
            -0.06280780304827599,
            0.2504965387645554,
            -0.09233320727034072,
            1.342721551563811,
            4.564800765283283,
            -0.41676645213639163,
            -0.26195496890771464,
            -1.8746778970214308,
            1.1300495068487597,
            0.49952998086083283,
            -0.3440824488453375,
            -0.41676645213639163,
            0.6293179291037283,
            0.34526611482474967,
            0.018610156503673675,
            -0.0837111829659725,
            0.7971289233416953,
            -0.12895569869251977,
            -0.26195496890771464,
            0.34526611482474967,
            0.3904490296862205,
            -0.3072772958897154,
            -0.21290920669348976,
            -1.017127214000091,
            -0.06280780304827599,
            -1.8746778970214308,
            0.018610156503673675,
            -0.3072772958897154,
            1.7320464671177798,
            -0.22089380285269558,
            -0.4191927411494515,
            0.2504965387645554,
            1.1300495068487597,
            -0.0837111829659725,
            -0.21290920669348976,
            -0.22089380285269558,
            0.4062730108160694,
        ];
        const MUL_VEC_MAT_VEC: f64 = -45.17373919209785;
        const SYMMETRIZE: [f64; 49] = [
            -2.57538,
            0.0711465,
            0.424704,
            0.369347,
            0.93039,
            0.27707515,
            -2.4670145,
            0.0711465,
            -0.806905,
            -0.199154,
            -0.622047,
            0.015580000000000038,
            0.46318000000000004,
            -0.08952905,
            0.424704,
            -0.199154,
            0.123005,
            -1.1481645,
            0.5364059999999999,
            2.7296630000000004,
            -0.2968735,
            0.369347,
            -0.622047,
            -1.1481645,
            -11.4115,
            -1.1105999999999998,
            -0.264585,
            1.77712662,
            0.93039,
            0.015580000000000038,
            0.5364059999999999,
            -1.1105999999999998,
            -0.953715,
            0.04427500000000001,
            -0.1057552,
            0.27707515,
            0.46318000000000004,
            2.7296630000000004,
            -0.264585,
            0.04427500000000001,
            2.60294,
            3.96399,
            -2.4670145,
            -0.08952905,
            -0.2968735,
            1.77712662,
            -0.1057552,
            3.96399,
            1.38008,
        ];
        const M9: [f64; 9] = [
            -0.0532541, -1.1619, 0.0699998, 0.395088, 0.375631, -1.82422, -2.84315, -0.135188,
            2.46914,
        ];
        const N9: [f64; 9] = [
            -0.149475, 0.569844, -0.110514, -0.59213, 0.330493, 0.950504, 0.308109, 0.717299,
            -0.0329147,
        ];
        const V3: [f64; 3] = [0.302733, -0.333212, 0.522484];
        const ROT_VEC_MAT: [f64; 3] =
            [0.40761102484789996, -0.9586843437479999, 0.4744170786659998];
        const ROT_VEC_MAT_T: [f64; 3] = [-1.6332702207113, -0.547543796464, 1.9191293878533997];
        const MUL_MAT_MAT3: [f64; 9] = [
            0.7175235719757,
            -0.36413555952019994,
            -1.10080929640966,
            -0.8435367628100001,
            -0.9592292394249999,
            0.373419666826,
            1.26579297295,
            0.10628099657599988,
            0.10444014199000005,
        ];
        const MUL_MAT_T_MAT3: [f64; 9] = [
            -1.1019834041925,
            -1.9391613628264,
            0.47499947726440006,
            -0.09040002102200002,
            -0.6349285447290001,
            0.4898946570876,
            1.830476424755,
            1.2081086784311998,
            -1.8229353671352,
        ];
        const MUL_MAT_MAT_T3: [f64; 9] = [
            -0.6618775448997,
            -0.28593137656779993,
            -0.85214179801396,
            0.356597141844,
            -1.843728448237,
            0.451213563295,
            0.075069237618,
            3.985763168376,
            -1.05424132292,
        ];

        #[test]
        fn products_match_mujoco_bitwise() {
            let mut r5 = [0.0; 5];
            mul_mat_vec(&mut r5, &A57, &X7, 5, 7);
            assert_eq!(r5, MUL_MAT_VEC);
            let mut r7 = [0.0; 7];
            mul_mat_t_vec(&mut r7, &A57, &Y5, 5, 7);
            assert_eq!(r7, MUL_MAT_T_VEC);
            let mut r20 = [0.0; 20];
            mul_mat_mat(&mut r20, &A57, &B74, 5, 7, 4);
            assert_eq!(r20, MUL_MAT_MAT);
            let mut r30 = [0.0; 30];
            mul_mat_mat_t(&mut r30, &A57, &C67, 5, 7, 6);
            assert_eq!(r30, MUL_MAT_MAT_T);
            let mut r28 = [0.0; 28];
            mul_mat_t_mat(&mut r28, &A57, &D54, 5, 7, 4);
            assert_eq!(r28, MUL_MAT_T_MAT);
            let mut r49 = [0.0; 49];
            sqr_mat_td(&mut r49, &A57, None, 5, 7);
            assert_eq!(r49, SQR_MAT_T);
            sqr_mat_td(&mut r49, &A57, Some(&DIAG5), 5, 7);
            assert_eq!(r49, SQR_MAT_TD);
            let mut x_rev = X7;
            x_rev.reverse();
            assert_eq!(mul_vec_mat_vec(&X7, &M77, &x_rev, 7), MUL_VEC_MAT_VEC);
            symmetrize(&mut r49, &M77, 7);
            assert_eq!(r49, SYMMETRIZE);
            let mut m = M77;
            symmetrize_in_place(&mut m, 7);
            assert_eq!(m, SYMMETRIZE);
        }

        #[test]
        fn three_by_three_match_mujoco_bitwise() {
            assert_eq!(rot_vec_mat(&V3, &M9), ROT_VEC_MAT);
            assert_eq!(rot_vec_mat_t(&V3, &M9), ROT_VEC_MAT_T);
            assert_eq!(mul_mat_mat3(&M9, &N9), MUL_MAT_MAT3);
            assert_eq!(mul_mat_t_mat3(&M9, &N9), MUL_MAT_T_MAT3);
            assert_eq!(mul_mat_mat_t3(&M9, &N9), MUL_MAT_MAT_T3);
        }
    }

    fn close(a: &[Real], b: &[Real]) -> bool {
        a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 64.0 * EPSILON * y.abs().max(1.0))
    }

    proptest! {
        #[test]
        fn products_agree(v in proptest::collection::vec(-3.0f64..3.0, 35)) {
            // mat1: 5×7 (first 35 values), mat2 = mat1 rotated.
            let m1: Vec<Real> = v.iter().map(|x| *x as Real).collect();
            let m2: Vec<Real> = m1.iter().cycle().skip(11).take(35).copied().collect();
            let mut t1 = vec![0.0; 35];
            transpose(&mut t1, &m1, 5, 7);
            let mut t2 = vec![0.0; 35];
            transpose(&mut t2, &m2, 5, 7);
            // mat1ᵀ * mat2 three ways.
            let mut a = vec![0.0; 49];
            mul_mat_t_mat(&mut a, &m1, &m2, 5, 7, 7);
            let mut b = vec![0.0; 49];
            mul_mat_mat(&mut b, &t1, &m2, 7, 5, 7);
            let mut c = vec![0.0; 49];
            mul_mat_mat_t(&mut c, &t1, &t2, 7, 5, 7);
            prop_assert!(close(&a, &b));
            prop_assert!(close(&a, &c));
            // mat1ᵀ * mat1 two ways.
            mul_mat_t_mat(&mut a, &m1, &m1, 5, 7, 7);
            sqr_mat_td(&mut b, &m1, None, 5, 7);
            prop_assert!(close(&a, &b));
            // mat1 * x and mat1ᵀ * y.
            let x: Vec<Real> = m2[..7].to_vec();
            let mut r = vec![0.0; 5];
            mul_mat_vec(&mut r, &m1, &x, 5, 7);
            let mut r2 = vec![0.0; 5];
            mul_mat_t_vec(&mut r2, &t1, &x, 7, 5);
            prop_assert!(close(&r, &r2));
        }

        /// The column blocks of `mul_mat_t_vec` (16, 8, 4, then the rest row by row) give every
        /// element the bits of MuJoCo's row-by-row accumulation, zero scales skipped (so a zero
        /// scale times an infinity adds no NaN).
        #[test]
        fn mat_t_vec_is_the_row_accumulation(
            nr in 0usize..9,
            nc in 0usize..81,
            values in proptest::collection::vec(-3.0f64..3.0, 9 * 81),
            zeros in proptest::collection::vec(proptest::bool::ANY, 9),
        ) {
            let mut mat: Vec<Real> = values[..nr * nc].iter().map(|&x| x as Real).collect();
            if let Some(first) = mat.first_mut() {
                *first = Real::INFINITY;
            }
            let vec: Vec<Real> = (0..nr)
                .map(|r| if zeros[r] { 0.0 } else { values[r] as Real + 0.5 })
                .collect();
            let mut want = vec![0.0; nc];
            for r in 0..nr {
                if vec[r] != 0.0 {
                    add_to_scl(&mut want, &mat[r * nc..(r + 1) * nc], vec[r]);
                }
            }
            let mut got = vec![7.0; nc + 1];
            mul_mat_t_vec(&mut got, &mat, &vec, nr, nc);
            let bits = |v: &[Real]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&got[..nc]), bits(&want));
            prop_assert_eq!(got[nc], 7.0);
        }
    }
}
