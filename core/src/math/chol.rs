//! Dense Cholesky decomposition, solve and rank-one update (API reference › Decompositions /
//! Solvers).
//!
//! Matrices are `n × n`, row-major; the factor `L` is stored in the lower triangle (the upper
//! triangle is left as it was).

#[cfg(feature = "fast")]
use super::fast::chol_back_sub as back_sub;
#[cfg(feature = "fast")]
use super::fast::{next_nonzero, update_column};
#[cfg(not(feature = "fast"))]
use super::scalar::madd;
use super::scalar::{over_diag, sqrt};
use super::vec::dot;
use crate::real::MINVAL;
use crate::Real;
use core::slice::ChunksExact;

/// Cholesky decomposition `mat = L Lᵀ` in place (`mju_cholFactor`). Diagonal values (before
/// the square root) below `mindiag` are replaced by `mindiag`; returns `n` minus the number of
/// such replacements (the "rank").
pub fn chol_factor(mat: &mut [Real], n: usize, mindiag: Real) -> usize {
    let mat = &mut mat[..n * n];
    let mut rank = n;
    for j in 0..n {
        let (upper, lower) = mat.split_at_mut((j + 1) * n);
        let (lj, rest) = upper[j * n..].split_at_mut(j);
        let mut diag = rest[0] - dot(lj, lj);
        if diag < mindiag {
            diag = mindiag;
            rank -= 1;
        }
        rest[0] = sqrt(diag);
        let inv = 1.0 / rest[0];
        let lj = &*lj;
        for row_i in lower.chunks_exact_mut(n) {
            let (li, lij) = row_i.split_at_mut(j);
            lij[0] = (lij[0] - dot(li, lj)) * inv;
        }
    }
    rank
}

/// Solves `(L Lᵀ) res = vec` given the Cholesky factor `L` in `mat` (`mju_cholSolve`).
pub fn chol_solve(res: &mut [Real], mat: &[Real], vec: &[Real], n: usize) {
    res[..n].copy_from_slice(&vec[..n]);
    chol_solve_in_place(res, mat, n);
}

/// Solves `(L Lᵀ) x = res` in place: `mju_cholSolve` with `res` and `vec` the same array.
pub fn chol_solve_in_place(res: &mut [Real], mat: &[Real], n: usize) {
    if n == 0 {
        return; // (rows of length 0 are no chunks)
    }
    let res = &mut res[..n];
    forward_sub(res, mat, n);
    back_sub(res, mat, n);
}

/// The rows of the `n × n` matrix `mat` (`n > 0`). Both passes walk rows of this iterator: its one
/// division (the row count) is shared, and no element needs a bounds check.
fn rows(mat: &[Real], n: usize) -> ChunksExact<'_, Real> {
    mat[..n * n].chunks_exact(n)
}

/// `L y = b` in place, row by row (row `i`'s first `i` entries against the solved part).
/// Row 0 subtracts an empty dot product, `0`, which leaves every value as it was (MuJoCo
/// skips it).
fn forward_sub(res: &mut [Real], mat: &[Real], n: usize) {
    for (i, row) in rows(mat, n).enumerate() {
        let (done, rest) = res.split_at_mut(i);
        let (li, diag) = row.split_at(i);
        rest[0] = over_diag(rest[0] - dot(li, done), diag[0]);
    }
}

/// `Lᵀ x = y` in place: column i of L below the diagonal against the solved part, MuJoCo's
/// order. Each column walks a clone of the row iterator that skips to the rows below `i`.
#[cfg(not(feature = "fast"))]
fn back_sub(res: &mut [Real], mat: &[Real], n: usize) {
    let rows = rows(mat, n);
    for i in (0..n).rev() {
        let (head, tail) = res.split_at_mut(i + 1);
        let mut r = head[i];
        for (&x, row) in tail.iter().zip(rows.clone().skip(i + 1)) {
            r = madd(-row[i], x, r);
        }
        head[i] = r / mat[i * (n + 1)];
    }
}

/// The lower triangle (diagonal included) of the `n × n` matrix `src` into `dst`, row by row:
/// what a dense Cholesky factor holds (its upper triangle is never read), half of a full copy
/// (the Newton solver's cone Hessian starts from a copy of the factor at every update; the arm's
/// 56 × 56 copy was a ninth of its step).
pub fn copy_lower(dst: &mut [Real], src: &[Real], n: usize) {
    let (dst, src) = (&mut dst[..n * n], &src[..n * n]);
    for (i, (d, s)) in dst.chunks_exact_mut(n).zip(src.chunks_exact(n)).enumerate() {
        d[..=i].copy_from_slice(&s[..=i]);
    }
}

/// Rank-one update of a Cholesky factor in place, `L Lᵀ ± x xᵀ` (`+` if `flg_plus`)
/// (`mju_cholUpdate`). `x` (length `n`) is used as scratch and overwritten. New diagonal values
/// (before the square root) below `MINVAL` are replaced by `MINVAL`; returns `n` minus the
/// number of such replacements. The fast build walks `x` and the columns with its own kernels
/// (`fast::next_nonzero`, `fast::update_column`), the same arithmetic per element.
pub fn chol_update(mat: &mut [Real], x: &mut [Real], n: usize, flg_plus: bool) -> usize {
    let mat = &mut mat[..n * n];
    let x = &mut x[..n];
    let mut rank = n;
    let mut k = 0;
    while let Some(next) = next_nonzero(x, k) {
        k = next;
        let lkk = mat[k * (n + 1)];
        let xk = x[k];
        let xx = if flg_plus { xk * xk } else { -xk * xk };
        let mut tmp = lkk * lkk + xx;
        if tmp < MINVAL {
            tmp = MINVAL;
            rank -= 1;
        }
        let r = sqrt(tmp);
        let (c, cinv, s) = rotation(r, lkk, xk);
        mat[k * (n + 1)] = r;
        // the sign of `s x[i]` is chosen once, outside the column loop
        let s_signed = if flg_plus { s } else { -s };
        update_column(mat, x, n, k, [s_signed, s, c, cinv]);
        k += 1;
    }
    rank
}

/// The rotation's `c = r / lkk`, `1 / c` and `s = xk / lkk`, as MuJoCo computes them. The fast
/// build takes `1 / c` as `lkk / r`, beside `c` instead of after it: the update's chain from one
/// pivot to the next waits for one division fewer (one more rounding of `1 / c`).
#[inline(always)]
fn rotation(r: Real, lkk: Real, xk: Real) -> (Real, Real, Real) {
    let c = r / lkk;
    let cinv = if cfg!(feature = "fast") {
        lkk / r
    } else {
        1.0 / c
    };
    (c, cinv, xk / lkk)
}

/// The first `i >= from` with `x[i] != 0`, by a bare scan (`x` is often sparse: a constraint
/// row).
#[cfg(not(feature = "fast"))]
#[inline(always)]
fn next_nonzero(x: &[Real], from: usize) -> Option<usize> {
    Some(from + x.get(from..)?.iter().position(|&v| v != 0.0)?)
}

/// [`chol_update`]'s step below pivot `k`: column `k` below the diagonal, then `x` from the
/// updated column (one pass: `x[i]` reads only `L[i][k]`, which is final once written), with
/// `coef` = `[s', s, c, 1/c]`. Each row's arithmetic reads and writes only that row's entries,
/// so the rows may go in any order: an odd last row first, then pairs, chunks of two rows,
/// whose two columns `k` are one check and whose arithmetic (the same per row) fills the two
/// lanes of one register: 17 instructions per pair where one row at a time took 14 per row.
#[cfg(not(feature = "fast"))]
#[inline(always)]
fn update_column(mat: &mut [Real], x: &mut [Real], n: usize, k: usize, coef: [Real; 4]) {
    let (_, tail) = x.split_at_mut(k + 1);
    let below = &mut mat[(k + 1) * n..];
    // row n - 1, the last of `below`, where it has no partner
    let odd = tail.len() % 2 == 1;
    if let (true, Some(i), Some(xi)) = (odd, below.len().checked_sub(n - k), tail.last_mut()) {
        let lik = &mut below[i];
        *lik = update_entry(*lik, *xi, coef);
        *xi = update_x(*xi, *lik, coef);
    }
    for (pair, xi) in below.chunks_exact_mut(2 * n).zip(tail.chunks_exact_mut(2)) {
        let (row0, row1) = pair.split_at_mut(n);
        let (l0, l1) = (&mut row0[k], &mut row1[k]);
        let l = [
            update_entry(*l0, xi[0], coef),
            update_entry(*l1, xi[1], coef),
        ];
        (*l0, *l1) = (l[0], l[1]);
        xi[0] = update_x(xi[0], l[0], coef);
        xi[1] = update_x(xi[1], l[1], coef);
    }
}

/// The updated `L[i][k]` from the old one and `x[i]` (`coef` as in [`update_column`]).
#[cfg(not(feature = "fast"))]
#[inline(always)]
fn update_entry(lik: Real, xi: Real, [s_signed, _, _, cinv]: [Real; 4]) -> Real {
    madd(s_signed, xi, lik) * cinv
}

/// The updated `x[i]` from the old one and the updated `L[i][k]`.
#[cfg(not(feature = "fast"))]
#[inline(always)]
fn update_x(xi: Real, lik: Real, [_, s, c, _]: [Real; 4]) -> Real {
    madd(c, xi, -(s * lik))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::mat::{mul_mat_mat_t, mul_mat_vec};
    use crate::real::EPSILON;
    use proptest::prelude::*;

    /// Lower triangle of a factored matrix, upper part zeroed.
    fn lower(mat: &[Real], n: usize) -> Vec<Real> {
        (0..n * n)
            .map(|ij| if ij % n <= ij / n { mat[ij] } else { 0.0 })
            .collect()
    }

    #[test]
    fn factor_and_solve_small() {
        // [[4, 2], [2, 5]] = L Lᵀ with L = [[2, 0], [1, 2]].
        let mut m = [4.0, 2.0, 2.0, 5.0];
        assert_eq!(chol_factor(&mut m, 2, MINVAL), 2);
        assert_eq!(m, [2.0, 2.0, 1.0, 2.0]);
        let mut x = [0.0; 2];
        chol_solve(&mut x, &m, &[8.0, 13.0], 2);
        assert_eq!(x, [0.875, 2.25]);
        let mut y = [8.0, 13.0];
        chol_solve_in_place(&mut y, &m, 2);
        assert_eq!(y, x);
        // Rank deficiency is counted and the diagonal clamped.
        let mut s = [1.0, 1.0, 1.0, 1.0];
        assert_eq!(chol_factor(&mut s, 2, 1e-8), 1);
        assert_eq!(s[3], sqrt(1e-8));
        assert_eq!(chol_factor(&mut [], 0, 0.0), 0);
        chol_solve_in_place(&mut [], &[], 0);
        chol_solve(&mut [], &[], &[], 0);
    }

    #[test]
    fn update_small() {
        let mut m = [2.0, 9.0, 1.0, 2.0];
        let mut x = [0.0, 0.0];
        assert_eq!(chol_update(&mut m, &mut x, 2, true), 2);
        assert_eq!(m, [2.0, 9.0, 1.0, 2.0]);
        // Adding then removing the same vector gets back the factor.
        let mut x = [1.0, 2.0];
        chol_update(&mut m, &mut x, 2, true);
        let mut x = [1.0, 2.0];
        assert_eq!(chol_update(&mut m, &mut x, 2, false), 2);
        assert!((m[0] - 2.0).abs() < 8.0 * EPSILON && (m[2] - 1.0).abs() < 8.0 * EPSILON);
        assert!((m[3] - 2.0).abs() < 8.0 * EPSILON);
        // Removing too much clamps.
        let mut m1 = [2.0];
        assert_eq!(chol_update(&mut m1, &mut [3.0], 1, false), 0);
        assert_eq!(m1, [sqrt(MINVAL)]);
    }

    // Reference values from MuJoCo 3.1.6 (`mju_cholFactor`, `mju_cholSolve`, `mju_cholUpdate`),
    // compared bit for bit.
    // (MuJoCo's bits are the exact build's contract; the fast build is measured against them
    // in tests/tests/fast.rs instead)
    #[cfg(not(any(feature = "f32", feature = "fast")))]
    mod reference {
        use super::super::*;

        const A: [f64; 49] = [
            11.2499744,
            2.78468924,
            -1.56512427,
            -2.68313252,
            -5.78323941,
            -0.546223392,
            3.36698661,
            2.78468924,
            6.94720864,
            4.30625685,
            -0.992851364,
            -0.0491830516,
            -0.566322703,
            -4.98514926,
            -1.56512427,
            4.30625685,
            85.190568,
            3.263248,
            -0.640837116,
            2.87680398,
            1.82022886,
            -2.68313252,
            -0.992851364,
            3.263248,
            9.77902626,
            5.10422976,
            -1.37638469,
            22.2155483,
            -5.78323941,
            -0.0491830516,
            -0.640837116,
            5.10422976,
            15.2435449,
            -1.60498035,
            23.3175384,
            -0.546223392,
            -0.566322703,
            2.87680398,
            -1.37638469,
            -1.60498035,
            1.78304366,
            -10.1041638,
            3.36698661,
            -4.98514926,
            1.82022886,
            22.2155483,
            23.3175384,
            -10.1041638,
            128.937678,
        ];
        const B: [f64; 7] = [
            -6.04842, 3.80648, -0.151358, 0.131086, -0.223936, 0.95501, -3.3969,
        ];
        const X: [f64; 7] = [
            2.10926, -1.54797, 0.509977, -8.14578, 0.259954, -0.437908, 0.00306392,
        ];
        const FACTOR: [f64; 49] = [
            3.3540981500248317,
            2.78468924,
            -1.56512427,
            -2.68313252,
            -5.78323941,
            -0.546223392,
            3.36698661,
            0.8302348695369525,
            2.501583238951876,
            4.30625685,
            -0.992851364,
            -0.0491830516,
            -0.566322703,
            -4.98514926,
            -0.46663043238266977,
            1.876279642854407,
            9.02509826768576,
            3.263248,
            -0.640837116,
            2.87680398,
            1.82022886,
            -0.7999564711545891,
            -0.13139663010911792,
            0.3475309293220026,
            3.000175508702524,
            5.10422976,
            -1.37638469,
            22.2155483,
            -1.7242308219147326,
            0.5525834512958866,
            -0.2750348746328716,
            1.297627713406747,
            3.1946428027633433,
            -1.60498035,
            23.3175384,
            -0.16285253667843802,
            -0.17233759874312493,
            0.3461641597633673,
            -0.5498368204231271,
            -0.3073439368250291,
            1.1000963654407971,
            -10.1041638,
            1.003842600722663,
            -2.3259567381353685,
            0.7371440672909947,
            7.485153911632365,
            5.266152795290074,
            -4.420135303902013,
            4.3219245088718345,
        ];
        const SOLVE: [f64; 7] = [
            -2.156517745665331,
            2.3736124137063737,
            -0.28849260805803856,
            -0.844300803341045,
            -1.4185794376789231,
            3.8795903788780324,
            0.8318468676444583,
        ];
        const UPDATE_PLUS: [f64; 49] = [
            3.962190321981012,
            2.78468924,
            -1.56512427,
            -2.68313252,
            -5.78323941,
            -0.546223392,
            3.36698661,
            -0.12124151622272894,
            3.0542953779299102,
            4.30625685,
            -0.992851364,
            -0.0491830516,
            -0.566322703,
            -4.98514926,
            -0.1235302050647797,
            1.1465331052303356,
            9.171741746668216,
            3.263248,
            -0.640837116,
            2.87680398,
            1.82022886,
            -5.013565434400452,
            3.6043401392018373,
            -0.6152304176502154,
            6.134096787426933,
            5.10422976,
            -1.37638469,
            22.2155483,
            -1.3212209436074351,
            -0.2002985303480457,
            -0.04817278607187033,
            -0.4801064314424201,
            3.6458954861870616,
            -1.60498035,
            23.3175384,
            -0.37097794417535407,
            0.021794819127188128,
            0.2815894276190098,
            0.06936339527977053,
            -0.5918238452501078,
            1.1842077845971448,
            -10.1041638,
            0.8514101897590185,
            -1.5999323081910104,
            0.4101011264190862,
            5.294699290022534,
            7.3190651677222,
            -4.987234609310658,
            4.360018027744973,
        ];
        const UPDATE_PLUS_X: [f64; 7] = [
            2.10926,
            -1.7523702674489354,
            1.633538467925392,
            -5.350335532889781,
            1.756932343305103,
            -0.4383332794169593,
            0.5750875949576,
        ];
        const X_MINUS: [f64; 7] = [
            0.632778,
            -0.464391,
            0.1529931,
            -2.443734,
            0.0779862,
            -0.1313724,
            0.000919176,
        ];
        const UPDATE_MINUS: [f64; 49] = [
            3.2938680001961216,
            2.78468924,
            -1.56512427,
            -2.68313252,
            -5.78323941,
            -0.546223392,
            3.36698661,
            0.9346293318416824,
            2.420334202373749,
            4.30625685,
            -0.992851364,
            -0.0491830516,
            -0.566322703,
            -4.98514926,
            -0.5045542012408651,
            2.003391358073697,
            8.994387652072719,
            3.263248,
            -0.640837116,
            2.87680398,
            1.82022886,
            -0.34512354680889273,
            -0.7458213201576792,
            0.5511393419956142,
            1.6816884725730115,
            5.10422976,
            -1.37638469,
            22.2155483,
            -1.770741074419594,
            0.6784267988458753,
            -0.3230189550621927,
            3.1918494780813482,
            1.1616504820827116,
            -1.60498035,
            23.3175384,
            -0.14059270967908452,
            -0.20490095641041728,
            0.35983141253488854,
            -1.247010090815671,
            2.0589865968338636,
            3.162277660168379e-08,
            -10.1041638,
            1.0220218222007171,
            -2.4541792492638637,
            0.8063289482562225,
            12.068667791496988,
            -9.872786974796316,
            778689565.9182934,
            3.162277660168379e-08,
        ];
        const UPDATE_MINUS_RANK: usize = 5;

        #[test]
        fn cholesky_matches_mujoco_bitwise() {
            let mut l = A;
            assert_eq!(chol_factor(&mut l, 7, 0.0), 7);
            assert_eq!(l, FACTOR);
            let mut x = [0.0; 7];
            chol_solve(&mut x, &l, &B, 7);
            assert_eq!(x, SOLVE);
            let mut up = l;
            let mut v = X;
            assert_eq!(chol_update(&mut up, &mut v, 7, true), 7);
            assert_eq!(up, UPDATE_PLUS);
            assert_eq!(v, UPDATE_PLUS_X);
            let mut down = l;
            let mut v = X_MINUS;
            assert_eq!(chol_update(&mut down, &mut v, 7, false), UPDATE_MINUS_RANK);
            assert_eq!(down, UPDATE_MINUS);
        }
    }

    /// A random SPD matrix `B Bᵀ + n I` from the entries of `B`.
    fn spd(b: &[Real], n: usize) -> Vec<Real> {
        let mut a = vec![0.0; n * n];
        mul_mat_mat_t(&mut a, b, b, n, n, n);
        for i in 0..n {
            a[i * (n + 1)] += n as Real;
        }
        a
    }

    proptest! {
        #[test]
        fn solve_solves(n in 1usize..9, b in prop::collection::vec(-2.0f64..2.0, 81),
                        rhs in prop::collection::vec(-5.0f64..5.0, 9)) {
            let b: Vec<Real> = b.iter().map(|x| *x as Real).collect();
            let rhs: Vec<Real> = rhs[..n].iter().map(|x| *x as Real).collect();
            let a = spd(&b[..n * n], n);
            let mut l = a.clone();
            prop_assert_eq!(chol_factor(&mut l, n, MINVAL), n);
            let mut x = vec![0.0; n];
            chol_solve(&mut x, &l, &rhs, n);
            let mut ax = vec![0.0; n];
            mul_mat_vec(&mut ax, &a, &x, n, n);
            for (p, q) in ax.iter().zip(&rhs) {
                prop_assert!((p - q).abs() <= 1e4 * EPSILON * q.abs().max(1.0));
            }
        }

        #[test]
        fn update_matches_refactorization(n in 1usize..8, b in prop::collection::vec(-2.0f64..2.0, 64),
                                          v in prop::collection::vec(-2.0f64..2.0, 8)) {
            let b: Vec<Real> = b.iter().map(|x| *x as Real).collect();
            let v: Vec<Real> = v[..n].iter().map(|x| *x as Real).collect();
            let a = spd(&b[..n * n], n);
            let mut l = a.clone();
            chol_factor(&mut l, n, MINVAL);
            let mut x = v.clone();
            prop_assert_eq!(chol_update(&mut l, &mut x, n, true), n);
            let mut a2 = a.clone();
            for i in 0..n {
                for j in 0..n {
                    a2[i * n + j] += v[i] * v[j];
                }
            }
            chol_factor(&mut a2, n, MINVAL);
            for (p, q) in lower(&l, n).iter().zip(&lower(&a2, n)) {
                prop_assert!((p - q).abs() <= 1e3 * EPSILON * q.abs().max(1.0));
            }
        }
    }
}
