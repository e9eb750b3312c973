//! The fast build's dense Cholesky factorizations of the Newton solver's Hessian (feature
//! `fast`, issue 25): for a dense Hessian that is mostly zero blocks (the arm, the hand: several
//! free bodies), which `chol::chol_factor`'s dot products walk element by element; and for a
//! sparse one whose bodies are coupled (a stack of boxes), whose sparse factorization merges
//! index lists for every update. A module of its own because it needs `scalar::sqrt`, which
//! itself calls into `math::fast`.

use super::fast::{add_to_scl, next_nonzero};
use super::scalar::sqrt;
use super::sparse::keep_lower;
use crate::arena::Stack;
use crate::error::StepError;
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

/// The largest matrix [`chol_factor_sparse_dense`] copies: 256 x 256 values (512 KiB) and
/// flags. Above it (humanoid100, the pile, the soft bodies) the rows are mostly independent
/// bodies whose sparse merges are cheap and the dense copy would cost more than it saves.
const SPARSE_AS_DENSE_MAX: usize = 256;

/// The smallest matrix [`chol_factor_sparse_dense`] copies. A small Hessian's merges are
/// short, while the copy's row updates run over each pivot row's whole span of columns, the
/// gaps of a kinematic tree's pattern included: humanoid_elliptic's 27 (sparse Jacobian, rows
/// of 6 or more) took 470 samples in the copy's elimination against 393 in the merges, 1.20 ->
/// 1.16x MuJoCo.
const SPARSE_AS_DENSE_MIN: usize = 64;

/// The mean entries per row (to the diagonal) from which [`chol_factor_sparse_dense`] copies:
/// the stack's rows have 14.2 on average (2.3 before its boxes touch), the terrain's 1.9-3.2
/// (copied, it ran at 1.05x MuJoCo instead of 1.11x).
const COUPLED_ROW: usize = 6;

/// `sparse::chol_factor_sparse` (the reverse-order `L' L` of the Newton solver's sparse
/// Hessian, uncompressed layout, same `mindiag` clamp and rank) worked on a dense copy: each
/// elimination step subtracts its multiples of the pivot's row from the rows before it as
/// contiguous vector updates over the row's span of columns, where the sparse kernel merges
/// two index lists per row (a stack of 20 boxes, 180 dofs coupled by 276 contacts: 0.4 ms of
/// merges per step, MuJoCo 0.7 ms). A flag per entry carries the pattern, fill-in included,
/// which is written back with the values, so the factor keeps the sparse one's structure (the
/// rank-one updates that follow need it) and exact zeros inside it. `None` when the matrix is
/// larger than [`SPARSE_AS_DENSE_MAX`], not in the uncompressed layout or the copy does not
/// fit in the arena: the caller then factors it sparse.
pub fn chol_factor_sparse_dense(
    mat: &mut [Real],
    n: usize,
    mindiag: Real,
    rownnz: &mut [i32],
    rowadr: &[i32],
    colind: &mut [i32],
    stack: &mut Stack,
) -> Result<Option<usize>, StepError> {
    let uncompressed = rowadr[..n]
        .iter()
        .enumerate()
        .all(|(r, &a)| a as usize == r * n);
    let size = SPARSE_AS_DENSE_MIN..=SPARSE_AS_DENSE_MAX;
    if !size.contains(&n) || !uncompressed || mat.len() < n * n || colind.len() < n * n {
        return Ok(None);
    }
    let rownnz = &mut rownnz[..n];
    // rows of independent bodies (a free body's six dofs: at most 6 entries to the diagonal)
    // merge cheaply: the copy only pays where bodies are coupled. The rows still hold both
    // triangles of the Hessian's symmetric pattern, so the count needs no cut to the lower one
    // (which the sparse kernel would then make a second time)
    let all: usize = rownnz.iter().map(|&k| k as usize).sum();
    if (all + n) / 2 < COUPLED_ROW * n {
        return Ok(None);
    }
    let mut frame = stack.frame();
    let Ok(val) = frame.alloc::<Real>(n * n) else {
        return Ok(None);
    };
    let Ok(pat) = frame.alloc::<u8>(n * n) else {
        return Ok(None);
    };
    keep_lower(rownnz, &rowadr[..n], colind)?;
    scatter_lower(mat, colind, rownnz, n, val, pat);
    let rank = eliminate_reverse(val, pat, n, mindiag);
    gather_lower(mat, colind, rownnz, n, val, pat);
    Ok(Some(rank))
}

/// The lower triangle of the uncompressed sparse matrix into the dense `val` and its pattern
/// into `pat` (rows `n` long; the upper triangles are not read).
fn scatter_lower(
    mat: &[Real],
    colind: &[i32],
    rownnz: &[i32],
    n: usize,
    val: &mut [Real],
    pat: &mut [u8],
) {
    for (r, &nnz) in rownnz.iter().enumerate() {
        let (row, flags) = (&mut val[r * n..=r * n + r], &mut pat[r * n..=r * n + r]);
        row.fill(0.0);
        flags.fill(0);
        let adr = r * n;
        for (&c, &v) in colind[adr..adr + nnz as usize].iter().zip(&mat[adr..]) {
            row[c as usize] = v;
            flags[c as usize] = 1;
        }
    }
}

/// The reverse-order factorization on the dense lower triangle: from the last row, each pivot
/// row is scaled and `L(k,i) row(k)[first..=i]` subtracted from each row `i < k` in its
/// pattern (`first`: the row's first entry), the pattern of row `k` joining row `i`'s.
fn eliminate_reverse(val: &mut [Real], pat: &mut [u8], n: usize, mindiag: Real) -> usize {
    let mut rank = n;
    for k in (0..n).rev() {
        let (val_lo, val_hi) = val.split_at_mut(k * n);
        let (pat_lo, pat_hi) = pat.split_at_mut(k * n);
        let (row, flags) = (&mut val_hi[..=k], &pat_hi[..=k]);
        if row[k] < mindiag {
            row[k] = mindiag;
            rank -= 1;
        }
        row[k] = sqrt(row[k]);
        let Some(first) = flags[..k].iter().position(|&f| f != 0) else {
            continue;
        };
        let inv = 1.0 / row[k];
        for v in &mut row[first..k] {
            *v *= inv;
        }
        let row = &*row;
        for i in (first..k).filter(|&i| flags[i] != 0) {
            let span = i * n + first..=i * n + i;
            add_to_scl(&mut val_lo[span.clone()], &row[first..=i], -row[i]);
            for (f, &g) in pat_lo[span].iter_mut().zip(&flags[first..=i]) {
                *f |= g;
            }
        }
    }
    rank
}

/// The factor's lower triangle back into the uncompressed sparse layout, by its pattern.
fn gather_lower(
    mat: &mut [Real],
    colind: &mut [i32],
    rownnz: &mut [i32],
    n: usize,
    val: &[Real],
    pat: &[u8],
) {
    for (r, nnz) in rownnz.iter_mut().enumerate() {
        let adr = r * n;
        let mut k = 0;
        for (c, (&v, &f)) in val[adr..=adr + r]
            .iter()
            .zip(&pat[adr..=adr + r])
            .enumerate()
        {
            if f != 0 {
                mat[adr + k] = v;
                colind[adr + k] = c as i32;
                k += 1;
            }
        }
        *nnz = k as i32;
    }
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

    #[repr(align(64))]
    struct Scratch([u8; 1 << 17]);

    /// `a` (`n × n`, both triangles) in the uncompressed sparse layout of the Newton solver's
    /// Hessian: its non-zeros, row by row, at `rowadr = r n`.
    fn uncompressed(a: &[Real], n: usize) -> (Vec<Real>, Vec<i32>, Vec<i32>, Vec<i32>) {
        let (mut val, mut ind) = (vec![0.0; n * n], vec![0; n * n]);
        let (mut rownnz, rowadr) = (vec![0; n], (0..n as i32).map(|r| r * n as i32).collect());
        for r in 0..n {
            for c in (0..n).filter(|&c| a[r * n + c] != 0.0) {
                let k = r * n + rownnz[r] as usize;
                (val[k], ind[k]) = (a[r * n + c], c as i32);
                rownnz[r] += 1;
            }
        }
        (val, ind, rownnz, rowadr)
    }

    proptest! {
        /// The dense copy's reverse-order factor has the sparse kernel's rank and pattern (fill
        /// and exact zeros included) and its values up to rounding; matrices too small or with
        /// rows too short to copy are left to the sparse kernel.
        #[test]
        fn sparse_as_dense_matches_sparse(n in 56usize..80, sparse: bool, indefinite: bool,
                                          b in proptest::collection::vec(-2.0f64..2.0, 80 * 80)) {
            let b: Vec<Real> = b.iter().map(|x| *x as Real).collect();
            let shift = if indefinite { 0.0 } else { 2.0 * n as Real };
            let a = symmetric(&b[..n * n], n, shift, sparse);
            let (mut v1, mut i1, mut nnz1, adr) = uncompressed(&a, n);
            let (mut v2, mut i2, mut nnz2) = (v1.clone(), i1.clone(), nnz1.clone());
            let mut mem = Box::new(Scratch([0; 1 << 17]));
            let mut arena = crate::arena::Arena::new(&mut mem.0);
            let dense = chol_factor_sparse_dense(
                &mut v2, n, MINVAL, &mut nnz2, &adr, &mut i2, &mut arena.stack()).unwrap();
            let lower: usize = (0..n).map(|r| (0..=r).filter(|&c| a[r * n + c] != 0.0).count()).sum();
            prop_assert_eq!(dense.is_some(), n >= SPARSE_AS_DENSE_MIN && lower >= COUPLED_ROW * n);
            let Some(rank) = dense else { return Ok(()); };
            let exact = crate::math::sparse::chol_factor_sparse(
                &mut v1, n, MINVAL, &mut nnz1, &adr, &mut i1, &mut arena.stack()).unwrap();
            prop_assert_eq!(rank, exact);
            prop_assert_eq!(&nnz2, &nnz1);
            for r in 0..n {
                let row = r * n..r * n + nnz1[r] as usize;
                prop_assert_eq!(&i2[row.clone()], &i1[row.clone()]);
                if rank == n {
                    for (p, q) in v2[row.clone()].iter().zip(&v1[row]) {
                        prop_assert!((p - q).abs() <= 1e3 * EPSILON * q.abs().max(1.0));
                    }
                }
            }
        }

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
