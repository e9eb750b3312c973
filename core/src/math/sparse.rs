//! Sparse vectors and matrices (MuJoCo's `engine_util_sparse.c`).

use crate::Real;

// ------------------------------------------------------------------------------------------------
// sparse LU without fill-in (MuJoCo's `engine_util_solve.c`)

/// Address range of row `i` of a compressed-row matrix.
#[inline]
fn row_range(rownnz: &[i32], rowadr: &[i32], i: usize) -> core::ops::Range<usize> {
    let adr = rowadr[i] as usize;
    adr..adr + rownnz[i] as usize
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
