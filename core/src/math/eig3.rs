//! Eigen decomposition of symmetric 3×3 matrices by quaternion Jacobi rotations (`mju_eig3`).

use super::mat::{mul_mat_mat3, mul_mat_t_mat3};
use super::quat::{mul_quat, quat2mat};
use super::scalar::{abs, sqrt};
use super::vec::{normalize4, unit4};
use crate::Real;

/// Off-diagonal magnitude, and distance of the rotation cosine from 1, at which Jacobi
/// iteration stops (MuJoCo's 1e-12, in f64); also the tolerance for reordering eigenvalues.
const EIG_EPS: Real = if cfg!(feature = "f32") {
    16.0 * crate::real::EPSILON
} else {
    1e-12
};

/// Is the off-diagonal element `off` (between diagonal elements `a` and `b`) small enough to
/// stop? MuJoCo's absolute test in f64. In f32 the rounding noise of the rotated matrix, about
/// `EPSILON` times its diagonal, stays far above 1e-12, so every call used to run into
/// `MAX_ITER`; the test there is relative to the diagonal.
fn off_diagonal_converged(off: Real, a: Real, b: Real) -> bool {
    if cfg!(feature = "f32") {
        abs(off) < EIG_EPS * (abs(a) + abs(b)) + crate::real::MINVAL
    } else {
        abs(off) < EIG_EPS
    }
}

/// Is the rotation of cosine `c` too small to continue? MuJoCo's `c > 1 - 1e-12` in f64; in
/// f32, where `1 - 1e-12` rounds to 1, when the cosine rounds to 1 (the rotation would not
/// change the matrix).
fn rotation_converged(c: Real) -> bool {
    if cfg!(feature = "f32") {
        c >= 1.0
    } else {
        c > 1.0 - EIG_EPS
    }
}

/// Largest number of Jacobi rotations.
const MAX_ITER: usize = 500;

/// Result of [`eig3`]: `mat = eigvec * diag(eigval) * eigvecᵀ`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eig3 {
    /// Eigenvalues in decreasing order (values within `1e-12` may stay unsorted).
    pub eigval: [Real; 3],
    /// Eigenvectors as the columns of a row-major rotation matrix.
    pub eigvec: [Real; 9],
    /// The rotation `eigvec` as a unit quaternion.
    pub quat: [Real; 4],
    /// Number of Jacobi rotations performed (MuJoCo's return value).
    pub iterations: usize,
}

/// Eigenvalue decomposition of the symmetric 3×3 matrix `mat` (`mju_eig3`).
pub fn eig3(mat: &[Real; 9]) -> Eig3 {
    let mut quat = unit4();
    let mut eigval = [0.0; 3];
    let mut iterations = MAX_ITER;
    for iter in 0..MAX_ITER {
        // D = eigvecᵀ mat eigvec
        let eigvec = quat2mat(&quat);
        let d = mul_mat_mat3(&mul_mat_t_mat3(&eigvec, mat), &eigvec);
        eigval = [d[0], d[4], d[8]];

        // Largest off-diagonal element (row, column) and the axis rotating in its plane.
        let (rk, ck, rotk) = if abs(d[1]) > abs(d[2]) && abs(d[1]) > abs(d[5]) {
            (0, 1, 2)
        } else if abs(d[2]) > abs(d[5]) {
            (0, 2, 1)
        } else {
            (1, 2, 0)
        };
        if off_diagonal_converged(d[3 * rk + ck], d[4 * rk], d[4 * ck]) {
            iterations = iter;
            break;
        }

        // 2×2 symmetric Schur decomposition: tangent t and cosine c of the rotation.
        let tau = (d[4 * ck] - d[4 * rk]) / (2.0 * d[3 * rk + ck]);
        let t = if tau >= 0.0 {
            1.0 / (tau + sqrt(1.0 + tau * tau))
        } else {
            -1.0 / (-tau + sqrt(1.0 + tau * tau))
        };
        let c = 1.0 / sqrt(1.0 + t * t);
        if rotation_converged(c) {
            iterations = iter;
            break;
        }

        // The rotation as a quaternion (half angle), accumulated.
        let s = sqrt(0.5 - 0.5 * c);
        let v = if (tau >= 0.0) != (rotk == 1) { -s } else { s };
        // the axis picked by selects: a store at a run-time index, read back by the vector
        // loads of `normalize4`, could not be forwarded (a stall in every rotation)
        let on = |axis: usize| if rotk == axis { v } else { 0.0 };
        let mut rot = [sqrt(1.0 - v * v), on(0), on(1), on(2)];
        normalize4(&mut rot);
        quat = mul_quat(&quat, &rot);
        normalize4(&mut quat);
    }

    // Sort in decreasing order (bubble sort over pairs 0-1, 1-2, 0-1), rotating the frame by a
    // quarter turn around the third axis for each swap.
    for j in 0..3 {
        let j1 = j % 2;
        if eigval[j1] + EIG_EPS < eigval[j1 + 1] {
            eigval.swap(j1, j1 + 1);
            // cos(π/4) = sin(π/4) as MuJoCo writes it: 15 digits, not the nearest double.
            #[allow(clippy::approx_constant)]
            let h = 0.707_106_781_186_548_f64 as Real;
            let mut rot = [h, 0.0, 0.0, 0.0];
            rot[(j1 + 2) % 3 + 1] = h;
            quat = mul_quat(&quat, &rot);
            normalize4(&mut quat);
        }
    }

    Eig3 {
        eigval,
        eigvec: quat2mat(&quat),
        quat,
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::mat::mul_mat_mat_t3;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    fn close(a: &[Real], b: &[Real], tol: Real) -> bool {
        a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= tol * y.abs().max(1.0))
    }

    fn reconstruct(e: &Eig3) -> [Real; 9] {
        let mut scaled = e.eigvec;
        for i in 0..3 {
            for j in 0..3 {
                scaled[3 * i + j] *= e.eigval[j];
            }
        }
        mul_mat_mat_t3(&scaled, &e.eigvec)
    }

    #[test]
    fn diagonal_matrices() {
        let e = eig3(&[1.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 2.0]);
        assert_eq!(e.iterations, 0);
        assert_eq!(e.eigval, [3.0, 2.0, 1.0]);
        assert!(close(
            &reconstruct(&e),
            &[1.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 2.0],
            1e2 * EPSILON
        ));
        let e = eig3(&[2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0]);
        assert_eq!(e.eigval, [2.0; 3]);
        assert_eq!(e.quat, unit4());
    }

    // Reference values from MuJoCo 3.1.6 (`mju_eig3`), compared bit for bit.
    // (MuJoCo's bits are the exact build's contract; the fast build is measured against them
    // in tests/tests/fast.rs instead)
    #[cfg(not(any(feature = "f32", feature = "fast")))]
    mod reference {
        use super::super::*;

        const MATS: [[f64; 9]; 4] = [
            [
                -0.830058,
                0.341802,
                1.0553149999999998,
                0.341802,
                -2.7349,
                0.01035824,
                1.0553149999999998,
                0.01035824,
                -4.83998,
            ],
            [
                -0.135199,
                -1.1948729999999999,
                1.94598605,
                -1.1948729999999999,
                0.469112,
                -1.1062834,
                1.94598605,
                -1.1062834,
                -0.00843255,
            ],
            [2.0, 0.5, 0.0, 0.5, 2.0, 0.0, 0.0, 0.0, 1.0],
            [
                0.0,
                0.0,
                -2.954528713020856,
                0.0,
                0.0,
                -0.9579017109194637,
                -2.954528713020856,
                -0.9579017109194637,
                0.0,
            ],
        ];
        type Decomposition = ([f64; 3], [f64; 9], [f64; 4], usize);
        const EIG: [Decomposition; 4] = [
            (
                [-0.5188257492824624, -2.783149099059789, -5.102963151657749],
                [
                    0.9604871738225845,
                    -0.1375252602773141,
                    -0.24197353513961256,
                    0.14924133653631177,
                    0.9883245904409069,
                    0.030684318448824677,
                    0.2349285261332894,
                    -0.0655843480982358,
                    0.9697975463432406,
                ],
                [
                    0.9897738770303462,
                    -0.02431582323527743,
                    -0.12045732675420981,
                    0.07243235133514078,
                ],
                5,
            ),
            (
                [2.944055720502618, -0.5953632887499831, -2.023211981752636],
                [
                    0.5882306891637769,
                    -0.3443014410574472,
                    0.7317384601151393,
                    -0.5492899066939071,
                    -0.8341906931498851,
                    0.0490559462890596,
                    0.5935193802481171,
                    -0.4307927635741825,
                    -0.6798178727585878,
                ],
                [
                    -0.13621868746183918,
                    0.8806587385406806,
                    -0.25367128850390563,
                    0.37621208487617774,
                ],
                6,
            ),
            (
                [2.5000000000000004, 1.5, 1.0],
                [
                    0.7071067811865486,
                    -0.7071067811865485,
                    0.0,
                    0.7071067811865485,
                    0.7071067811865486,
                    0.0,
                    0.0,
                    0.0,
                    1.0000000000000013,
                ],
                [0.9238795325112874, 0.0, 0.0, 0.38268343236509],
                1,
            ),
            (
                [
                    3.1059323244066412,
                    9.10263165298686e-19,
                    -3.1059323244066404,
                ],
                [
                    0.6726369476753863,
                    -0.30841036112038966,
                    0.6726385253429445,
                    0.21807880170021468,
                    0.9512534095358564,
                    0.21807931377232365,
                    -0.7071076105310554,
                    -3.827697742098124e-10,
                    0.7071059518410673,
                ],
                [
                    0.9125508628361915,
                    -0.059744427142753145,
                    0.377991570679626,
                    0.144235566548117,
                ],
                6,
            ),
        ];

        #[test]
        fn eig3_matches_mujoco_bitwise() {
            for (m, (eigval, eigvec, quat, iterations)) in MATS.iter().zip(EIG) {
                let e = eig3(m);
                assert_eq!(
                    e,
                    Eig3 {
                        eigval,
                        eigvec,
                        quat,
                        iterations
                    }
                );
            }
        }
    }

    proptest! {
        #[test]
        fn eig3_reconstructs(v in prop::array::uniform6(-3.0f64..3.0)) {
            let v = v.map(|x| x as Real);
            let m = [v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2]];
            let e = eig3(&m);
            // Iteration stops once the rotation cosine is within 1e-12 of 1, i.e. at rotations of
            // about 1e-6: MuJoCo's own decomposition can be off by 1e-5 (the last reference case).
            // In f32 the cosine of rotations below about 3e-4 rounds to 1, which stalls the
            // iteration at errors up to about 1e-3.
            let tol = if cfg!(feature = "f32") { 5e-3 } else { 1e-4 };
            prop_assert!(close(&reconstruct(&e), &m, tol));
            prop_assert!(e.eigval[0] + EIG_EPS >= e.eigval[1] && e.eigval[1] + EIG_EPS >= e.eigval[2]);
            let vtv = mul_mat_t_mat3(&e.eigvec, &e.eigvec);
            prop_assert!(close(&vtv, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], 64.0 * EPSILON));
        }
    }

    /// Jacobi rotations converge quadratically: a handful of rotations, in both precisions
    /// (the f32 build once took all `MAX_ITER` on every call, its tolerance below f32
    /// resolution). Inertia-like matrices over six orders of magnitude, and rotated diagonals.
    #[test]
    fn eig3_converges_in_few_iterations() {
        let mut worst = 0;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut uniform = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for k in 0..2000 {
            let scale = 10f64.powi(k % 7 - 4);
            let v: [f64; 6] = core::array::from_fn(|i| {
                let x = uniform() * 2.0 - 1.0;
                if i < 3 {
                    3.0 + x
                } else {
                    x
                }
            });
            let m =
                [v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2]].map(|x| (x * scale) as Real);
            let e = eig3(&m);
            worst = worst.max(e.iterations);
        }
        assert!(worst <= 12, "eig3 took {worst} rotations");
    }
}
