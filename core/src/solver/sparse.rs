//! Sparse kernels of the Newton solver's Hessian, in MuJoCo's operation order: the
//! reverse-order sparse Cholesky factorization, solve and rank-one update
//! (`engine_util_solve.c`), and `M' diag M` of a sparse matrix and layout compression
//! (`engine_util_sparse.c`).
//!
//! Matrices are sparse row by row as in [`crate::math::sparse`]. The *uncompressed* layout gives
//! every row of an `n x n` matrix room for `n` elements (`rowadr[r] = r n`), so that rows can
//! grow during factorization.

use crate::arena::Stack;
use crate::error::StepError;
use crate::math::scalar::sqrt;
use crate::math::sparse::{combine_sparse, dot_sparse};
use crate::real::{Real, MINVAL};

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

    // keep the lower triangle
    for r in 0..n {
        let adr = rowadr[r] as usize;
        while rownnz[r] > 0 && colind[adr + rownnz[r] as usize - 1] as usize > r {
            rownnz[r] -= 1;
        }
        if rownnz[r] == 0 || colind[adr + rownnz[r] as usize - 1] as usize != r {
            return Err(structure_error("matrix must have non-zero diagonal"));
        }
    }

    let mut rank = n;
    for r in (0..n).rev() {
        let (nnz, adr) = (rownnz[r] as usize, rowadr[r] as usize);

        // diagonal, then the row before it
        let mut tmp = mat[adr + nnz - 1];
        if tmp < mindiag {
            tmp = mindiag;
            rank -= 1;
        }
        mat[adr + nnz - 1] = sqrt(tmp);
        let inv = 1.0 / mat[adr + nnz - 1];
        for x in &mut mat[adr..adr + nnz - 1] {
            *x *= inv;
        }

        // rows c < r with L(r,c) != 0: row(c)[0..=c] -= L(r,c) * row(r)[0..=c]
        for i in 0..nnz - 1 {
            let c = colind[adr + i] as usize;
            let cadr = rowadr[c] as usize;
            let (mat_lo, mat_hi) = mat.split_at_mut(adr);
            let (ind_lo, ind_hi) = colind.split_at_mut(adr);
            let scl = -mat_hi[i];
            rownnz[c] = combine_sparse(
                &mut mat_lo[cadr..],
                &mat_hi[..=i],
                1.0,
                scl,
                rownnz[c] as usize,
                &mut ind_lo[cadr..],
                &ind_hi[..=i],
                buf,
                buf_ind,
            ) as i32;
        }
    }
    Ok(rank)
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
    res[..n].copy_from_slice(&vec[..n]);

    // res <- L^-T res
    for i in (0..n).rev() {
        if res[i] == 0.0 {
            continue;
        }
        let (adr, nnz) = (rowadr[i] as usize, rownnz[i] as usize);
        res[i] /= mat[adr + nnz - 1];
        let x = res[i];
        for j in 0..nnz - 1 {
            res[colind[adr + j] as usize] -= mat[adr + j] * x;
        }
    }

    // res <- L^-1 res
    for i in 0..n {
        let (adr, nnz) = (rowadr[i] as usize, rownnz[i] as usize);
        if nnz > 1 {
            res[i] -= dot_sparse(
                &mat[adr..adr + nnz - 1],
                res,
                &colind[adr..adr + nnz - 1],
                false,
            );
        }
        res[i] /= mat[adr + nnz - 1];
    }
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
        let new_nnz = combine_sparse(
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
        let new_x_nnz = combine_sparse(
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

    for i in 0..nc {
        let radr = res_rowadr[i] as usize;
        res_rownnz[i] = 0;
        buffer[i] = 0.0;
        markers[i] = 0;

        // a supernode row starts from the previous row's pattern
        if rowsuper_t.is_some_and(|s| i > 0 && s[i - 1] != 0) {
            res_rownnz[i] = res_rownnz[i - 1];
            let prev = res_rowadr[i - 1] as usize;
            res_colind.copy_within(prev..prev + res_rownnz[i] as usize, radr);
        }

        for r in rowadr_t[i] as usize..(rowadr_t[i] + rownnz_t[i]) as usize {
            let t = colind_t[r] as usize;
            let v = match diag {
                Some(diag) => mat_t[r] * diag[t],
                None => mat_t[r],
            };
            for c in rowadr[t] as usize..(rowadr[t] + rownnz[t]) as usize {
                let cc = colind[c] as usize;
                if cc > i {
                    break;
                }
                buffer[cc] += v * mat[c];
                if markers[cc] == 0 {
                    markers[cc] = 1;
                    insert_sorted(
                        &mut res_colind[radr..],
                        &mut res_rownnz[i],
                        cc as i32,
                        cc == i,
                    );
                }
            }
        }

        let end = res_rownnz[i] as usize;
        let keep_pattern = rowsuper_t.is_some_and(|s| s[i] != 0);
        for k in 0..end {
            let cc = res_colind[radr + k] as usize;
            res[radr + k] = buffer[cc];
            buffer[cc] = 0.0;
            if !keep_pattern {
                markers[cc] = 0;
            }
        }
    }

    // upper triangle from the lower
    for i in 0..nc {
        let start = res_rowadr[i] as usize;
        let end = start + (res_rownnz[i] as usize).saturating_sub(1);
        for j in start..end {
            let col = res_colind[j] as usize;
            let adr = (res_rowadr[col] + res_rownnz[col]) as usize;
            res_rownnz[col] += 1;
            res[adr] = res[j];
            res_colind[adr] = i as i32;
        }
    }
    Ok(())
}

/// Inserts column `cc` into the sorted pattern `cols[..*nnz]` (at the end if `last`, the
/// diagonal, which is the rightmost column of a lower-triangle row).
fn insert_sorted(cols: &mut [i32], nnz: &mut i32, cc: i32, last: bool) {
    let n = *nnz as usize;
    let at = if last {
        n
    } else {
        cols[..n].partition_point(|&c| c < cc)
    };
    cols.copy_within(at..n, at + 1);
    cols[at] = cc;
    *nnz += 1;
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
    rowadr[0] = 0;
    let mut adr = rownnz[0] as usize;
    for r in 1..nr {
        let old = rowadr[r] as usize;
        rowadr[r] = adr as i32;
        let nnz = rownnz[r] as usize;
        mat.copy_within(old..old + nnz, adr);
        colind.copy_within(old..old + nnz, adr);
        adr += nnz;
    }
}
