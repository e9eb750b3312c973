//! The fast build's Cholesky factorizations of the Newton solver's Hessian by contiguous row
//! updates (feature `fast`, issue 25): for a dense Hessian that is mostly zero blocks (the arm,
//! the hand: several free bodies), which `chol::chol_factor`'s dot products walk element by
//! element; and for a sparse one whose bodies are coupled (a stack of boxes, a soft body), whose
//! sparse factorization merges index lists for every update, on a copy of its envelope. A module
//! of its own because it needs `scalar::sqrt`, which itself calls into `math::fast`.

use super::fast::{add_to_scl, next_nonzero};
use super::scalar::sqrt;
use super::sparse::keep_lower;
use crate::arena::{Stack, DATA_ALIGN};
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

/// The smallest matrix [`chol_factor_sparse_envelope`] copies. A small Hessian's merges are
/// short, while the copy's row updates run over each pivot row's whole span of columns, the
/// gaps of a kinematic tree's pattern included: humanoid_elliptic's 27 (sparse Jacobian, rows
/// of 6 or more) took 470 samples in the copy's elimination against 393 in the merges, 1.20 ->
/// 1.16x MuJoCo.
const ENVELOPE_MIN_ROWS: usize = 64;

/// The mean entries per row (to the diagonal) from which [`chol_factor_sparse_envelope`]
/// copies (and the Newton solver's trees are reordered): the stack's rows have 14.2 on average
/// (2.3 before its boxes touch), the terrain's 1.9-3.2 (copied, it ran at 1.05x MuJoCo instead
/// of 1.11x).
pub(crate) const COUPLED_ROW: usize = 6;

/// The envelope [`chol_factor_sparse_envelope`] copies is at most this many times the lower
/// triangle's non-zeros. Coupled bodies in a chain or a lattice keep their couplings near the
/// diagonal (the stack and the 5x5x5 soft box: a quarter of the envelope is non-zero), while a
/// contact between distant bodies of a pile stretches every row between them to the first of
/// the two (a twenty-fifth non-zero: copying it cost the pile 16% of its step).
const ENVELOPE_PER_NONZERO: usize = 8;

/// `sparse::chol_factor_sparse` (the reverse-order `L' L` of the Newton solver's sparse
/// Hessian, uncompressed layout, same `mindiag` clamp and rank) worked on a contiguous copy of
/// the lower triangle's envelope: each elimination step subtracts its multiples of the pivot's
/// row from the rows before it as contiguous vector updates over the row's span of columns,
/// where the sparse kernel merges two index lists per row (a stack of 20 boxes, 180 dofs coupled
/// by 276 contacts: 0.4 ms of merges per step, MuJoCo 0.7 ms; the soft box's 375: two thirds of
/// its step). A flag per entry carries the pattern, fill-in included, which is written back with
/// the values, so the factor keeps the sparse one's structure (the rank-one updates that follow
/// need it) and exact zeros inside it. `None` when the matrix is small, its rows are short,
/// its envelope is mostly zeros ([`ENVELOPE_PER_NONZERO`]), it is not in the uncompressed layout
/// or the copy does not fit in the arena: the caller then factors it sparse.
pub fn chol_factor_sparse_envelope(
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
    // the copy's positions are 32-bit: an envelope of at most n (n + 1) / 2 entries and each
    // row's padding
    let positions = n
        .checked_mul(n + 1 + 2 * ROW_ALIGN)
        .is_some_and(|e| u32::try_from(e / 2).is_ok());
    let small = n < ENVELOPE_MIN_ROWS;
    if small || !positions || !uncompressed || mat.len() < n * n || colind.len() < n * n {
        return Ok(None);
    }
    let rownnz = &mut rownnz[..n];
    // rows of independent bodies (a free body's six dofs: at most 6 entries to the diagonal)
    // merge cheaply: the copy only pays where bodies are coupled. The rows still hold both
    // triangles of the Hessian's symmetric pattern, so the count needs no cut to the lower one
    // (which the sparse kernel would then make a second time)
    let all: usize = rownnz.iter().map(|&k| k as usize).sum();
    let lower = (all + n) / 2;
    if lower < COUPLED_ROW * n {
        return Ok(None);
    }
    let mut frame = stack.frame();
    let (Ok(first), Ok(adr)) = (frame.alloc::<u32>(n), frame.alloc::<u32>(n)) else {
        return Ok(None);
    };
    let env = Envelope::of(colind, rownnz, n, first, adr);
    if env.size > ENVELOPE_PER_NONZERO * lower {
        return Ok(None);
    }
    let Ok(val) = frame.alloc::<Real>(env.size) else {
        return Ok(None);
    };
    let Ok(pat) = frame.alloc::<u8>(env.size) else {
        return Ok(None);
    };
    keep_lower(rownnz, &rowadr[..n], colind)?;
    env.scatter(mat, colind, rownnz, val, pat);
    let rank = env.eliminate_reverse(val, pat, mindiag);
    env.gather(mat, colind, rownnz, val, pat);
    Ok(Some(rank))
}

/// Row starts in the envelope copy are aligned to columns modulo this many values: one vector
/// of [`DATA_ALIGN`] bytes (the arena's scratch arrays start at such a boundary).
const ROW_ALIGN: usize = if DATA_ALIGN > size_of::<Real>() {
    DATA_ALIGN / size_of::<Real>()
} else {
    1
};

/// Where the rows of the lower triangle's envelope lie in a contiguous copy: row `r` holds
/// columns `first[r]..=r` from `adr[r]` on.
struct Envelope<'a> {
    first: &'a [u32],
    adr: &'a [u32],
    /// Entries of the whole envelope.
    size: usize,
}

impl<'a> Envelope<'a> {
    /// The envelope of the reverse-order factor of the uncompressed sparse matrix (rows sorted,
    /// both triangles): row `r` starts at the first column of any row `k >= r`, since
    /// eliminating row `k` subtracts its span from `first[k]` on from rows inside it, so fill
    /// never reaches left of that suffix minimum.
    fn of(
        colind: &[i32],
        rownnz: &[i32],
        n: usize,
        first: &'a mut [u32],
        adr: &'a mut [u32],
    ) -> Self {
        let mut low = n;
        for r in (0..n).rev() {
            // a row without entries is the sparse kernel's error to report; here its diagonal
            let start = if rownnz[r] > 0 {
                colind[r * n] as usize
            } else {
                r
            };
            low = low.min(start.min(r));
            first[r] = low as u32;
        }
        let mut size = 0;
        for (r, (a, &f)) in adr.iter_mut().zip(&*first).enumerate() {
            // pad so that a column sits at the same place in a vector in every row: a pivot
            // row and the rows it updates then share their alignment (the stack: 1.95 -> 1.79x
            // MuJoCo without it)
            size += (f as usize).wrapping_sub(size) % ROW_ALIGN;
            *a = size as u32;
            size += r + 1 - f as usize;
        }
        Envelope { first, adr, size }
    }

    /// Row `r`'s entries in the copy (columns `first[r]..=r`).
    fn row(&self, r: usize) -> core::ops::Range<usize> {
        let a = self.adr[r] as usize;
        a..a + r + 1 - self.first[r] as usize
    }

    /// The lower triangle of the uncompressed sparse matrix into the copy `val` and its pattern
    /// into `pat`.
    fn scatter(
        &self,
        mat: &[Real],
        colind: &[i32],
        rownnz: &[i32],
        val: &mut [Real],
        pat: &mut [u8],
    ) {
        let n = rownnz.len();
        for (r, &nnz) in rownnz.iter().enumerate() {
            let (row, flags) = (&mut val[self.row(r)], &mut pat[self.row(r)]);
            row.fill(0.0);
            flags.fill(0);
            let (adr, first) = (r * n, self.first[r] as usize);
            for (&c, &v) in colind[adr..adr + nnz as usize].iter().zip(&mat[adr..]) {
                row[c as usize - first] = v;
                flags[c as usize - first] = 1;
            }
        }
    }

    /// The reverse-order factorization in the copy: from the last row, each pivot row is scaled
    /// and `L(k,i) row(k)[p..=i]` subtracted from each row `i < k` in its pattern (`p`: the row's
    /// first entry), the pattern of row `k` joining row `i`'s.
    fn eliminate_reverse(&self, val: &mut [Real], pat: &mut [u8], mindiag: Real) -> usize {
        let n = self.first.len();
        let mut rank = n;
        for k in (0..n).rev() {
            let span = self.row(k);
            let (val_lo, val_hi) = val.split_at_mut(span.start);
            let (pat_lo, pat_hi) = pat.split_at_mut(span.start);
            let width = span.len() - 1;
            let (row, flags) = (&mut val_hi[..=width], &pat_hi[..=width]);
            if row[width] < mindiag {
                row[width] = mindiag;
                rank -= 1;
            }
            row[width] = sqrt(row[width]);
            let Some(p) = flags[..width].iter().position(|&f| f != 0) else {
                continue;
            };
            let inv = 1.0 / row[width];
            for v in &mut row[p..width] {
                *v *= inv;
            }
            let row = &*row;
            let from = self.first[k] as usize + p;
            for j in (p..width).filter(|&j| flags[j] != 0) {
                let i = from + j - p;
                // row i's columns from..=i (its envelope starts at or before row k's)
                let end = self.row(i).end;
                let dst = end - (i + 1 - from)..end;
                add_to_scl(&mut val_lo[dst.clone()], &row[p..=j], -row[j]);
                for (f, &g) in pat_lo[dst].iter_mut().zip(&flags[p..=j]) {
                    *f |= g;
                }
            }
        }
        rank
    }

    /// The factor back into the uncompressed sparse layout, by its pattern.
    fn gather(
        &self,
        mat: &mut [Real],
        colind: &mut [i32],
        rownnz: &mut [i32],
        val: &[Real],
        pat: &[u8],
    ) {
        let n = rownnz.len();
        for (r, nnz) in rownnz.iter_mut().enumerate() {
            let (adr, first) = (r * n, self.first[r] as usize);
            let mut k = 0;
            for (c, (&v, &f)) in val[self.row(r)].iter().zip(&pat[self.row(r)]).enumerate() {
                if f != 0 {
                    mat[adr + k] = v;
                    colind[adr + k] = (first + c) as i32;
                    k += 1;
                }
            }
            *nnz = k as i32;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
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
    pub(crate) fn uncompressed(a: &[Real], n: usize) -> (Vec<Real>, Vec<i32>, Vec<i32>, Vec<i32>) {
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

    /// A chain of coupled bodies (a band of 7 entries to the diagonal) is copied; one coupling
    /// between its ends stretches every row's envelope to the first column, and the mostly zero
    /// copy is left to the sparse kernel.
    #[test]
    fn envelope_copied_only_where_mostly_nonzero() {
        let n = 128;
        let band = |far: bool| {
            let mut a = vec![0.0; n * n];
            for i in 0..n {
                for j in i.saturating_sub(6)..=i {
                    let v = if i == j { 2.0 * n as Real } else { 1.0 };
                    (a[i * n + j], a[j * n + i]) = (v, v);
                }
            }
            if far {
                (a[n - 1], a[(n - 1) * n]) = (1.0, 1.0);
            }
            a
        };
        let mut mem = Box::new(Scratch([0; 1 << 17]));
        let mut arena = crate::arena::Arena::new(&mut mem.0);
        for (far, copied) in [(false, true), (true, false)] {
            let (mut v, mut i, mut nnz, adr) = uncompressed(&band(far), n);
            let rank = chol_factor_sparse_envelope(
                &mut v,
                n,
                MINVAL,
                &mut nnz,
                &adr,
                &mut i,
                &mut arena.stack(),
            );
            assert_eq!(rank.unwrap().is_some(), copied, "far {far}");
        }
    }

    proptest! {
        /// The envelope copy's reverse-order factor has the sparse kernel's rank and pattern
        /// (fill and exact zeros included) and its values up to rounding; matrices too small,
        /// with rows too short to copy or with envelopes mostly zero are left to the sparse
        /// kernel. `band` zeroes the entries further than it from the diagonal (a chain or a
        /// lattice of bodies); `far` then couples the last row to the first (a contact across a
        /// pile), stretching the envelope to the whole triangle.
        #[test]
        fn sparse_envelope_matches_sparse(n in 56usize..160, band in 2usize..80, far: bool,
                                          sparse: bool, indefinite: bool,
                                          b in proptest::collection::vec(-2.0f64..2.0, 160 * 160)) {
            let b: Vec<Real> = b.iter().map(|x| *x as Real).collect();
            let shift = if indefinite { 0.0 } else { 2.0 * n as Real };
            let mut a = symmetric(&b[..n * n], n, shift, sparse);
            for i in 0..n {
                for j in 0..n {
                    let coupled = far && ((i, j) == (n - 1, 0) || (i, j) == (0, n - 1));
                    if i.abs_diff(j) > band && !coupled {
                        a[i * n + j] = 0.0;
                    } else if coupled {
                        a[i * n + j] = 0.5;
                    }
                }
            }
            let (mut v1, mut i1, mut nnz1, adr) = uncompressed(&a, n);
            let (mut v2, mut i2, mut nnz2) = (v1.clone(), i1.clone(), nnz1.clone());
            let mut mem = Box::new(Scratch([0; 1 << 17]));
            let mut arena = crate::arena::Arena::new(&mut mem.0);
            let copied = chol_factor_sparse_envelope(
                &mut v2, n, MINVAL, &mut nnz2, &adr, &mut i2, &mut arena.stack());
            let exact = crate::math::sparse::chol_factor_sparse(
                &mut v1, n, MINVAL, &mut nnz1, &adr, &mut i1, &mut arena.stack());
            // a zero on the diagonal is the same error in both
            let (Ok(copied), Ok(exact)) = (copied, exact) else {
                prop_assert!(exact.is_err());
                return Ok(());
            };
            let am = &a;
            let nonzero = |r: usize| (0..=r).filter(move |&c| am[r * n + c] != 0.0);
            let lower: usize = (0..n).map(|r| nonzero(r).count()).sum();
            // each row's envelope from the first column of any row at or below it
            let envelope: usize = (0..n)
                .map(|r| r + 1 - (r..n).map(|k| nonzero(k).next().unwrap_or(k)).min().unwrap())
                .sum();
            prop_assert_eq!(copied.is_some(), n >= ENVELOPE_MIN_ROWS && lower >= COUPLED_ROW * n
                && envelope <= ENVELOPE_PER_NONZERO * lower);
            let Some(rank) = copied else { return Ok(()); };
            // an indefinite matrix's clamped pivots blow the later ones up, so that rounding
            // decides which of them are clamped: there only the pattern is compared
            if !indefinite {
                prop_assert_eq!(rank, exact);
            }
            prop_assert_eq!(&nnz2, &nnz1);
            for r in 0..n {
                let row = r * n..r * n + nnz1[r] as usize;
                prop_assert_eq!(&i2[row.clone()], &i1[row.clone()]);
                if !indefinite && rank == n {
                    for (p, q) in v2[row.clone()].iter().zip(&v1[row]) {
                        prop_assert!((p - q).abs() <= 1e3 * EPSILON * q.abs().max(1.0));
                    }
                }
            }
        }

        /// Below the smallest size the sparse kernel factors every matrix, dense or not.
        #[test]
        fn small_matrices_stay_sparse(n in 1usize..ENVELOPE_MIN_ROWS,
                                      b in proptest::collection::vec(-2.0f64..2.0, 64 * 64)) {
            let b: Vec<Real> = b.iter().map(|x| *x as Real).collect();
            let a = symmetric(&b[..n * n], n, 2.0 * n as Real, false);
            let (mut v, mut i, mut nnz, adr) = uncompressed(&a, n);
            let mut mem = Box::new(Scratch([0; 1 << 17]));
            let mut arena = crate::arena::Arena::new(&mut mem.0);
            let copied = chol_factor_sparse_envelope(
                &mut v, n, MINVAL, &mut nnz, &adr, &mut i, &mut arena.stack()).unwrap();
            prop_assert!(copied.is_none());
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
