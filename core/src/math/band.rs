//! Symmetric band-dense ("arrowhead") matrices and their Cholesky factorization (API reference ›
//! Decompositions / Solvers › Symmetric band-dense matrices).
//!
//! A matrix of size `ntotal` has `nband` bands at and below the diagonal for its first
//! `nsparse = ntotal - ndense` rows and `ndense` dense rows at the bottom. Only the lower
//! triangle is stored, as two row-major blocks: `nsparse` rows of `nband` elements (ending at the
//! diagonal), then `ndense` full rows of `ntotal` elements; `nsparse * nband + ndense * ntotal`
//! elements in all. The factorization produces no fill-in and works in place.

use super::scalar::sqrt;
use super::vec::{add_to_scl, dot};
use crate::real::MINVAL;
use crate::Real;

/// Address of the first element of dense row `i` (`i >= nsparse`).
#[inline]
fn dense_row(i: usize, nsparse: usize, ntotal: usize, nband: usize) -> usize {
    nsparse * nband + (i - nsparse) * ntotal
}

/// Address of diagonal element `i` in the band-dense storage (`mju_bandDiag`).
pub fn band_diag(i: usize, ntotal: usize, nband: usize, ndense: usize) -> usize {
    let nsparse = ntotal - ndense;
    if i < nsparse {
        i * nband + nband - 1
    } else {
        dense_row(i, nsparse, ntotal, nband) + i
    }
}

/// Band-dense Cholesky decomposition in place (`mju_cholFactorBand`), after adding
/// `diagadd + diagmul * mat_ii` to each diagonal element. Returns the smallest diagonal value
/// before the square root, or 0 if one is below `MINVAL` (rank deficient; the factorization
/// stops there).
pub fn chol_factor_band(
    mat: &mut [Real],
    ntotal: usize,
    nband: usize,
    ndense: usize,
    diagadd: Real,
    diagmul: Real,
) -> Real {
    let nsparse = ntotal - ndense;
    let mut mindiag: Real = -1.0;
    let mut pivot = |ljj: Real| -> Option<Real> {
        if ljj < mindiag || mindiag < 0.0 {
            mindiag = ljj;
        }
        if ljj < MINVAL {
            None
        } else {
            Some(sqrt(ljj))
        }
    };

    for j in 0..nsparse {
        // Non-zeros left of (j, j), and below it in the band.
        let width_jj = j.min(nband - 1);
        let height = (nsparse - j - 1).min(nband - 1);
        let adr_jj = (j + 1) * nband - 1;
        let left_jj = &mat[adr_jj - width_jj..adr_jj];
        let Some(ljj) =
            pivot(diagadd + diagmul * mat[adr_jj] + mat[adr_jj] - dot(left_jj, left_jj))
        else {
            return 0.0;
        };
        let scale = 1.0 / ljj;

        for i in j + 1..=j + height {
            let width_ij = j.min(nband - 1 - (i - j));
            let adr_ij = (i + 1) * nband - 1 - (i - j);
            let left = dot(
                &mat[adr_jj - width_ij..adr_jj],
                &mat[adr_ij - width_ij..adr_ij],
            );
            mat[adr_ij] = scale * (mat[adr_ij] - left);
        }
        for i in nsparse..ntotal {
            let adr_ij = dense_row(i, nsparse, ntotal, nband) + j;
            let left = dot(
                &mat[adr_jj - width_jj..adr_jj],
                &mat[adr_ij - width_jj..adr_ij],
            );
            mat[adr_ij] = scale * (mat[adr_ij] - left);
        }
        mat[adr_jj] = ljj;
    }

    for j in nsparse..ntotal {
        let adr_jj = dense_row(j, nsparse, ntotal, nband) + j;
        let left_jj = &mat[adr_jj - j..adr_jj];
        let Some(ljj) =
            pivot(diagadd + diagmul * mat[adr_jj] + mat[adr_jj] - dot(left_jj, left_jj))
        else {
            return 0.0;
        };
        let scale = 1.0 / ljj;
        for i in j + 1..ntotal {
            let adr_ij = adr_jj + ntotal * (i - j);
            let left = dot(&mat[adr_jj - j..adr_jj], &mat[adr_ij - j..adr_ij]);
            mat[adr_ij] = scale * (mat[adr_ij] - left);
        }
        mat[adr_jj] = ljj;
    }
    mindiag
}

/// Solves `(L Lᵀ) res = vec` given the band-dense Cholesky factor `L` in `mat`
/// (`mju_cholSolveBand`).
pub fn chol_solve_band(
    res: &mut [Real],
    mat: &[Real],
    vec: &[Real],
    ntotal: usize,
    nband: usize,
    ndense: usize,
) {
    res[..ntotal].copy_from_slice(&vec[..ntotal]);
    chol_solve_band_in_place(res, mat, ntotal, nband, ndense);
}

/// Solves `(L Lᵀ) x = res` in place: `mju_cholSolveBand` with `res` and `vec` the same array.
pub fn chol_solve_band_in_place(
    res: &mut [Real],
    mat: &[Real],
    ntotal: usize,
    nband: usize,
    ndense: usize,
) {
    let nsparse = ntotal - ndense;
    let diag = |i| mat[band_diag(i, ntotal, nband, ndense)];

    // L y = b: band rows, then dense rows.
    for i in 0..nsparse {
        let width = i.min(nband - 1);
        if width > 0 {
            let adr = (i + 1) * nband - 1 - width;
            res[i] -= dot(&mat[adr..adr + width], &res[i - width..i]);
        }
        res[i] /= diag(i);
    }
    for i in nsparse..ntotal {
        let adr = dense_row(i, nsparse, ntotal, nband);
        res[i] -= dot(&mat[adr..adr + i], &res[..i]);
        res[i] /= diag(i);
    }

    // Lᵀ x = y: dense rows, then band rows.
    for i in (nsparse..ntotal).rev() {
        for j in i + 1..ntotal {
            res[i] -= mat[dense_row(j, nsparse, ntotal, nband) + i] * res[j];
        }
        res[i] /= diag(i);
    }
    for i in (0..nsparse).rev() {
        let height = (nsparse - 1 - i).min(nband - 1);
        for j in i + 1..=i + height {
            res[i] -= mat[(j + 1) * nband - 1 - (j - i)] * res[j];
        }
        for j in nsparse..ntotal {
            res[i] -= mat[dense_row(j, nsparse, ntotal, nband) + i] * res[j];
        }
        res[i] /= diag(i);
    }
}

/// Expands a band-dense matrix into a dense `ntotal × ntotal` one (`mju_band2Dense`): the lower
/// triangle, and the upper one too if `flg_sym`.
pub fn band2dense(
    res: &mut [Real],
    mat: &[Real],
    ntotal: usize,
    nband: usize,
    ndense: usize,
    flg_sym: bool,
) {
    let nsparse = ntotal - ndense;
    res[..ntotal * ntotal].fill(0.0);
    for i in 0..nsparse {
        let width = i.min(nband - 1);
        let src = (i + 1) * nband - (width + 1);
        let dst = i * ntotal + i - width;
        res[dst..=dst + width].copy_from_slice(&mat[src..=src + width]);
    }
    for i in nsparse..ntotal {
        let src = dense_row(i, nsparse, ntotal, nband);
        res[i * ntotal..=i * ntotal + i].copy_from_slice(&mat[src..=src + i]);
    }
    if flg_sym {
        for i in 0..ntotal {
            for j in i + 1..ntotal {
                res[i * ntotal + j] = res[j * ntotal + i];
            }
        }
    }
}

/// Extracts the band-dense storage of the lower triangle of a dense `ntotal × ntotal` matrix
/// (`mju_dense2Band`). Storage slots outside the matrix are left untouched.
pub fn dense2band(res: &mut [Real], mat: &[Real], ntotal: usize, nband: usize, ndense: usize) {
    let nsparse = ntotal - ndense;
    for i in 0..nsparse {
        let width = i.min(nband - 1);
        let dst = (i + 1) * nband - (width + 1);
        let src = i * ntotal + i - width;
        res[dst..=dst + width].copy_from_slice(&mat[src..=src + width]);
    }
    for i in nsparse..ntotal {
        let dst = dense_row(i, nsparse, ntotal, nband);
        res[dst..=dst + i].copy_from_slice(&mat[i * ntotal..=i * ntotal + i]);
    }
}

/// Multiplies a band-dense matrix with `nvec` vectors stored one after the other in `vec`
/// (`mju_bandMulMatVec`); uses the lower triangle only, or the whole symmetric matrix if
/// `flg_sym`.
pub fn band_mul_mat_vec(
    res: &mut [Real],
    mat: &[Real],
    vec: &[Real],
    ntotal: usize,
    nband: usize,
    ndense: usize,
    nvec: usize,
    flg_sym: bool,
) {
    let nsparse = ntotal - ndense;
    for j in 0..nvec {
        let vec = &vec[ntotal * j..ntotal * (j + 1)];
        let res = &mut res[ntotal * j..ntotal * (j + 1)];
        for i in 0..nsparse {
            let width = (i + 1).min(nband);
            let adr = i * nband + nband - width;
            let offset = i + 1 - width;
            let row = &mat[adr..adr + width];
            res[i] = dot(row, &vec[offset..offset + width]);
            if flg_sym {
                add_to_scl(&mut res[offset..i], &row[..width - 1], vec[i]);
            }
        }
        for i in nsparse..ntotal {
            let adr = dense_row(i, nsparse, ntotal, nband);
            let row = &mat[adr..=adr + i];
            res[i] = dot(row, &vec[..=i]);
            if flg_sym {
                add_to_scl(&mut res[..i], &row[..i], vec[i]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::chol::{chol_factor, chol_solve};
    use crate::math::mat::mul_mat_vec;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    /// The example of the API reference: ntotal = 8, nband = 3, ndense = 2.
    #[test]
    fn diagonal_addresses() {
        let d: Vec<usize> = (0..8).map(|i| band_diag(i, 8, 3, 2)).collect();
        assert_eq!(d, [2, 5, 8, 11, 14, 17, 24, 33]);
    }

    /// A random SPD band-dense matrix in dense form: lower band and dense rows filled, diagonal
    /// dominant.
    fn band_spd(vals: &[Real], ntotal: usize, nband: usize, ndense: usize) -> Vec<Real> {
        let nsparse = ntotal - ndense;
        let mut a = vec![0.0; ntotal * ntotal];
        let mut k = 0;
        for i in 0..ntotal {
            for j in 0..i {
                if i >= nsparse || i - j < nband {
                    a[i * ntotal + j] = vals[k % vals.len()];
                    a[j * ntotal + i] = a[i * ntotal + j];
                    k += 1;
                }
            }
            a[i * (ntotal + 1)] = 2.0 * ntotal as Real;
        }
        a
    }

    fn close(a: &[Real], b: &[Real], tol: Real) -> bool {
        a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= tol * y.abs().max(1.0))
    }

    #[test]
    fn conversions_round_trip() {
        let vals: Vec<Real> = (1..60u8).map(|x| Real::from(x) * 0.1).collect();
        let dense = band_spd(&vals, 8, 3, 2);
        let mut band = vec![0.0; 34];
        dense2band(&mut band, &dense, 8, 3, 2);
        let mut back = vec![0.0; 64];
        band2dense(&mut back, &band, 8, 3, 2, true);
        assert_eq!(back, dense);
        band2dense(&mut back, &band, 8, 3, 2, false);
        assert_eq!(back[1], 0.0);
        assert_eq!(back[8], dense[8]);
        // Products: symmetric band product equals the dense product.
        let v: Vec<Real> = (0..16u8).map(|x| (Real::from(x) - 7.5) * 0.3).collect();
        let mut r = vec![0.0; 16];
        band_mul_mat_vec(&mut r, &band, &v, 8, 3, 2, 2, true);
        let mut expect = vec![0.0; 8];
        for j in 0..2 {
            mul_mat_vec(&mut expect, &dense, &v[8 * j..8 * j + 8], 8, 8);
            assert!(close(&r[8 * j..8 * j + 8], &expect, 64.0 * EPSILON));
        }
    }

    #[test]
    fn rank_deficient() {
        // [[1, 1], [1, 1]] as a band matrix with nband = 2.
        let mut m = [0.0, 1.0, 1.0, 1.0];
        assert_eq!(chol_factor_band(&mut m, 2, 2, 0, 0.0, 0.0), 0.0);
        // Diagonal regularization fixes it: diag 2 (= 1 + 0.5 + 0.5 * 1).
        let mut m = [0.0, 1.0, 1.0, 1.0];
        let mindiag = chol_factor_band(&mut m, 2, 2, 0, 0.5, 0.5);
        assert!((mindiag - 1.5).abs() < 4.0 * EPSILON);
    }

    // Reference values from MuJoCo 3.1.6 (`mju_cholFactorBand`, `mju_cholSolveBand`,
    // `mju_bandMulMatVec`) for ntotal = 9, nband = 3, ndense = 2, compared bit for bit.
    // (MuJoCo's bits are the exact build's contract; the fast build is measured against them
    // in tests/tests/fast.rs instead)
    #[cfg(not(any(feature = "f32", feature = "fast")))]
    mod reference {
        use super::super::*;

        const BAND: [f64; 39] = [
            0.0, 0.0, 4.35877, 0.0, 1.51068, 5.78633, 1.68661, -0.0473172, 4.79998, -0.802957,
            -1.08282, 4.22365, 0.833884, 0.584064, 4.63829, -1.69481, -1.57096, 5.5538, 0.968885,
            2.18321, 5.20982, -1.02439, 1.28527, 0.628394, 0.214825, -0.819873, 0.00278022,
            -0.146999, 4.89254, 0.0, 0.124497, 1.58475, -0.774486, 0.471103, 0.498842, -0.864339,
            -1.18127, 1.01358, 4.51744,
        ];
        const V: [f64; 18] = [
            -0.0481865, 1.27589, -0.120561, 0.114349, -0.508768, 0.210964, 0.345963, -0.164908,
            0.917474, -0.516957, -0.151936, -2.65708, -0.255375, 0.0740695, -0.200885, -0.262481,
            0.850719, 0.853791,
        ];
        const MUL_SYM: [f64; 18] = [
            1.7972411130829997,
            8.4658290971762,
            -2.082604609061,
            -0.6688673681300003,
            -1.796899743701,
            1.73894905281424,
            0.7105027865319999,
            2.1279998922850796,
            5.2958818898605,
            -7.729454656453,
            1.1171211903909997,
            -13.407018450772801,
            2.8892252675479995,
            -2.231602354315,
            -2.10787404815082,
            -2.8679006136135,
            3.6145933095057994,
            6.8722871880900005,
        ];
        const MUL_LOWER: [f64; 18] = [
            -0.21003387060499998,
            7.309926201880001,
            -0.720333763853,
            -0.4109687908600001,
            -2.393560281308,
            1.77710621179,
            1.77004598742,
            1.1980665953650798,
            5.2958818898605,
            -2.25329666289,
            -1.6601084356400002,
            -13.6186465180708,
            1.9205228216019998,
            -2.021296021565,
            -0.79922323097,
            -1.7342880767625002,
            2.7492078277257996,
            6.8722871880900005,
        ];
        const FACTOR: [f64; 39] = [
            0.0,
            0.0,
            2.191950501265939,
            0.0,
            0.689194395187082,
            2.4289862259063373,
            0.7694562441195253,
            -0.23780379016902392,
            2.154382613596461,
            -0.3305728914540837,
            -0.539101772909342,
            2.0630331654827296,
            0.3870640223037909,
            0.3842550444252812,
            2.1942307315940446,
            -0.8215136956382526,
            -0.5720862443096927,
            2.2620814700073053,
            0.44156021791570355,
            1.0768049511037716,
            2.094353759810563,
            -0.46734175767581154,
            0.6617408130535151,
            0.5316407121960011,
            0.3490913459413094,
            -0.5285643330150791,
            -0.005667719134375872,
            0.04416494093258382,
            2.012365584085787,
            0.0,
            0.05679735921413281,
            0.636317144116976,
            -0.30954132746319135,
            0.24942784653102254,
            0.23826591957704968,
            -0.2312569020432715,
            -0.4953605232227113,
            0.4189319103411057,
            1.9702517786852176,
        ];
        const MINDIAG: f64 = 3.8818920714122633;
        const SOLVE: [f64; 9] = [
            -0.20131453702825003,
            0.2540387494447235,
            0.16358917969358835,
            0.11903553448431638,
            -0.22818789047145302,
            -0.010462203322607807,
            0.14297621390427484,
            -0.22602610124524922,
            0.2235997988738009,
        ];

        #[test]
        fn band_functions_match_mujoco_bitwise() {
            let mut r = [0.0; 18];
            band_mul_mat_vec(&mut r, &BAND, &V, 9, 3, 2, 2, true);
            assert_eq!(r, MUL_SYM);
            band_mul_mat_vec(&mut r, &BAND, &V, 9, 3, 2, 2, false);
            assert_eq!(r, MUL_LOWER);
            let mut l = BAND;
            assert_eq!(chol_factor_band(&mut l, 9, 3, 2, 0.01, 0.1), MINDIAG);
            assert_eq!(l, FACTOR);
            let mut x = [0.0; 9];
            chol_solve_band(&mut x, &l, &V[..9], 9, 3, 2);
            assert_eq!(x, SOLVE);
            let mut y = [0.0; 9];
            y.copy_from_slice(&V[..9]);
            chol_solve_band_in_place(&mut y, &l, 9, 3, 2);
            assert_eq!(y, SOLVE);
        }
    }

    proptest! {
        #[test]
        fn band_cholesky_agrees_with_dense(
            ntotal in 1usize..10, nband_seed in 1usize..10, ndense_seed in 0usize..10,
            vals in prop::collection::vec(-1.0f64..1.0, 1..20),
            rhs in prop::collection::vec(-5.0f64..5.0, 10),
        ) {
            let nband = 1 + nband_seed % ntotal;
            let ndense = ndense_seed % (ntotal + 1);
            let vals: Vec<Real> = vals.iter().map(|x| *x as Real).collect();
            let rhs: Vec<Real> = rhs[..ntotal].iter().map(|x| *x as Real).collect();
            let dense = band_spd(&vals, ntotal, nband, ndense);
            let nsparse = ntotal - ndense;
            let mut band = vec![0.0; nsparse * nband + ndense * ntotal];
            dense2band(&mut band, &dense, ntotal, nband, ndense);
            prop_assert!(chol_factor_band(&mut band, ntotal, nband, ndense, 0.0, 0.0) > 0.0);
            let mut l = dense.clone();
            prop_assert_eq!(chol_factor(&mut l, ntotal, MINVAL), ntotal);
            // Same factor.
            let mut lb = vec![0.0; ntotal * ntotal];
            band2dense(&mut lb, &band, ntotal, nband, ndense, false);
            for i in 0..ntotal {
                for j in 0..=i {
                    let (p, q) = (lb[i * ntotal + j], l[i * ntotal + j]);
                    prop_assert!((p - q).abs() <= 256.0 * EPSILON * q.abs().max(1.0));
                }
            }
            // Same solution.
            let mut xb = vec![0.0; ntotal];
            chol_solve_band(&mut xb, &band, &rhs, ntotal, nband, ndense);
            let mut x = vec![0.0; ntotal];
            chol_solve(&mut x, &l, &rhs, ntotal);
            prop_assert!(close(&xb, &x, 1024.0 * EPSILON));
        }
    }
}
