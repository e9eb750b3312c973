//! The fast build's dense Cholesky factorization for mostly-zero matrices (feature `fast`,
//! issue 25): the Newton solver's Hessian of a model of several free bodies (the arm, the hand)
//! is mostly zero blocks, which `chol::chol_factor`'s dot products walk element by element.
//! A module of its own because it needs `scalar::sqrt`, which itself calls into `math::fast`.

use super::fast::{add_to_scl, next_nonzero};
use super::scalar::sqrt;
use crate::Real;

/// Cholesky factor of the symmetric `n × n` matrix `mat` (both triangles set) into its lower
/// triangle, with `chol::chol_factor`'s `mindiag` clamp and returned rank, for the Newton
/// solver's dense Hessian. Right-looking on the rows of `Lᵀ` in the upper triangle: each pivot
/// scales its row, copies it into its column of the lower triangle, and subtracts its multiples
/// from the rows below as contiguous vector updates, found four multipliers per test and
/// zero ones skipped (the exact kernel takes one dot product with a horizontal sum per
/// element, zeros included: the arm's Hessian of eight free bodies is mostly zero blocks). Each element's subtractions keep the
/// pivots' order. The upper triangle is left holding `Lᵀ` (the factor's readers use the lower
/// one only).
pub fn chol_factor_rows(mat: &mut [Real], n: usize, mindiag: Real) -> usize {
    let mat = &mut mat[..n * n];
    let mut rank = n;
    for j in 0..n {
        let (upper, lower) = mat.split_at_mut((j + 1) * n);
        let row = &mut upper[j * n + j..];
        if row[0] < mindiag {
            row[0] = mindiag;
            rank -= 1;
        }
        row[0] = sqrt(row[0]);
        let inv = 1.0 / row[0];
        let row = &mut row[1..];
        for v in row.iter_mut() {
            *v *= inv;
        }
        let row = &*row;
        for (below, &a) in lower.chunks_exact_mut(n).zip(row) {
            below[j] = a;
        }
        let mut from = 0;
        while let Some(k) = next_nonzero(row, from) {
            let below = &mut lower[k * n + j + 1 + k..(k + 1) * n];
            add_to_scl(below, &row[k..], -row[k]);
            from = k + 1;
        }
    }
    rank
}

/// Whether fewer than a quarter of the entries below the diagonal of the `n × n` matrix `mat`
/// are non-zero: where [`chol_factor_rows`], whose work is one vector update per non-zero
/// multiplier (fill-in included), beats `chol::chol_factor`'s dot product per element. Counted
/// per step, instructions: the hand (34 dofs: four fingers and free objects) 31 K -> 17 K and the
/// arm (56: eight free bodies) 79 K -> 37 K by rows; the dense ant (14) 3.2 K -> 13 K and
/// MuJoCo's humanoid (27) 14 K -> 51 K, which keep the dot products (as does every matrix
/// under 32 rows, uncounted).
pub fn mostly_zero(mat: &[Real], n: usize) -> bool {
    // below this size the count costs more than the zeros can save (ant, 14 dofs: +0.4% per
    // step for the count alone)
    if n < 32 {
        return false;
    }
    let limit = n * (n - 1) / 2;
    let mut nonzero = 0;
    for (i, row) in mat[..n * n].chunks_exact(n).enumerate() {
        // a sum of flags, not a filtered count: one vector compare per four entries
        nonzero += row[..i]
            .iter()
            .map(|&v| usize::from(v != 0.0))
            .sum::<usize>();
        if 4 * nonzero >= limit {
            return false; // a dense matrix stops early
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::chol::chol_factor;
    use crate::real::{EPSILON, MINVAL};
    use proptest::prelude::*;

    /// A symmetric matrix from `b` with a diagonal of `shift` added and whole 4 × 4 blocks
    /// off the diagonal zeroed where `sparse` (the free bodies of a Hessian), full in both
    /// triangles.
    fn symmetric(b: &[Real], n: usize, shift: Real, sparse: bool) -> Vec<Real> {
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let zero = sparse && i / 4 != j / 4 && (i + j) % 3 != 0;
                let v = if zero { 0.0 } else { b[i * n + j] };
                a[i * n + j] = v;
                a[j * n + i] = v;
            }
            a[i * (n + 1)] += shift;
        }
        a
    }

    #[test]
    fn mostly_zero_counts_below_the_diagonal() {
        let identity = |n: usize| symmetric(&vec![0.0; n * n], n, 1.0, false);
        assert!(mostly_zero(&identity(32), 32));
        // too small to count
        assert!(!mostly_zero(&identity(31), 31));
        let full = symmetric(&vec![1.0; 32 * 32], 32, 1.0, false);
        assert!(!mostly_zero(&full, 32));
        // the upper triangle is not counted
        let mut upper = identity(32);
        upper[1..32].fill(1.0);
        assert!(mostly_zero(&upper, 32));
    }

    proptest! {
        /// The right-looking factor is the exact one up to rounding, dense and with zero blocks; an indefinite matrix is clamped at the same pivots (same rank).
        #[test]
        fn factor_rows_close_to_exact(n in 1usize..19, sparse: bool, indefinite: bool,
                                      b in proptest::collection::vec(-2.0f64..2.0, 18 * 18)) {
            let b: Vec<Real> = b.iter().map(|x| *x as Real).collect();
            let shift = if indefinite { 0.0 } else { 2.0 * n as Real };
            let a = symmetric(&b[..n * n], n, shift, sparse);
            let (mut exact, mut fast) = (a.clone(), a);
            let rank = chol_factor(&mut exact, n, MINVAL);
            prop_assert_eq!(chol_factor_rows(&mut fast, n, MINVAL), rank);
            if rank == n {
                for i in 0..n {
                    for j in 0..=i {
                        let (p, q) = (fast[i * n + j], exact[i * n + j]);
                        prop_assert!((p - q).abs() <= 1e3 * EPSILON * q.abs().max(1.0));
                    }
                }
            }
        }
    }
}
