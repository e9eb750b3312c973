//! Small quadratically constrained quadratic programs (`mju_QCQP2`, `mju_QCQP3`, `mju_QCQP`),
//! used by the PGS solver for elliptic friction cones:
//! minimize `½ xᵀ A x + xᵀ b` subject to `Σ (x_i / d_i)² ≤ r²`.
//!
//! After scaling `x` by `d` the constraint is a ball; the multiplier `λ` of the constraint is found
//! by Newton's method on `|(A + λ I)⁻¹ b|² = r²`, at most 20 iterations. Each returns whether the
//! constraint is active (`λ ≠ 0`); a matrix `A + λ I` that is not positive definite (determinant
//! or pivot below 1e-10) gives the zero vector and `false`.

use super::chol::{chol_factor, chol_solve, chol_solve_in_place};
use super::vec::{dot, scl_in_place};
use crate::Real;

/// Newton iterations on the multiplier.
const MAX_ITER: usize = 20;

/// Threshold on determinants (positive definiteness), constraint violation and Newton steps.
const TOL: Real = 1e-10;

/// QCQP in 2 dimensions (`mju_QCQP2`); `a` is 2×2 row-major. Returns `(x, active)`.
pub fn qcqp2(a: &[Real; 4], b: &[Real; 2], d: &[Real; 2], r: Real) -> ([Real; 2], bool) {
    let (b1, b2) = (b[0] * d[0], b[1] * d[1]);
    let a11 = a[0] * d[0] * d[0];
    let a22 = a[3] * d[1] * d[1];
    let a12 = a[1] * d[0] * d[1];

    let mut la = 0.0;
    let (mut v1, mut v2) = (0.0, 0.0);
    for _ in 0..MAX_ITER {
        let det = (a11 + la) * (a22 + la) - a12 * a12;
        if det < TOL {
            return ([0.0; 2], false);
        }
        // P = (A + λ)⁻¹, v = -P b.
        let detinv = 1.0 / det;
        let p11 = (a22 + la) * detinv;
        let p22 = (a11 + la) * detinv;
        let p12 = -a12 * detinv;
        v1 = -p11 * b1 - p12 * b2;
        v2 = -p12 * b1 - p22 * b2;

        // Constraint violation and its derivative -2 vᵀ P v.
        let val = v1 * v1 + v2 * v2 - r * r;
        if val < TOL {
            break;
        }
        let deriv = -2.0 * (p11 * v1 * v1 + 2.0 * p12 * v1 * v2 + p22 * v2 * v2);
        let delta = -val / deriv;
        if delta < TOL {
            break;
        }
        la += delta;
    }
    ([v1 * d[0], v2 * d[1]], la != 0.0)
}

/// QCQP in 3 dimensions (`mju_QCQP3`); `a` is 3×3 row-major. Returns `(x, active)`.
pub fn qcqp3(a: &[Real; 9], b: &[Real; 3], d: &[Real; 3], r: Real) -> ([Real; 3], bool) {
    let (b1, b2, b3) = (b[0] * d[0], b[1] * d[1], b[2] * d[2]);
    let a11 = a[0] * d[0] * d[0];
    let a22 = a[4] * d[1] * d[1];
    let a33 = a[8] * d[2] * d[2];
    let a12 = a[1] * d[0] * d[1];
    let a13 = a[2] * d[0] * d[2];
    let a23 = a[5] * d[1] * d[2];

    let mut la = 0.0;
    let mut v = [0.0; 3];
    for _ in 0..MAX_ITER {
        // Adjugate of A + λ, determinant.
        let mut p11 = (a22 + la) * (a33 + la) - a23 * a23;
        let mut p22 = (a11 + la) * (a33 + la) - a13 * a13;
        let mut p33 = (a11 + la) * (a22 + la) - a12 * a12;
        let mut p12 = a13 * a23 - a12 * (a33 + la);
        let mut p13 = a12 * a23 - a13 * (a22 + la);
        let mut p23 = a12 * a13 - a23 * (a11 + la);
        let det = (a11 + la) * p11 + a12 * p12 + a13 * p13;
        if det < TOL {
            return ([0.0; 3], false);
        }
        let detinv = 1.0 / det;
        for p in [&mut p11, &mut p22, &mut p33, &mut p12, &mut p13, &mut p23] {
            *p *= detinv;
        }
        v = [
            -p11 * b1 - p12 * b2 - p13 * b3,
            -p12 * b1 - p22 * b2 - p23 * b3,
            -p13 * b1 - p23 * b2 - p33 * b3,
        ];
        let [v1, v2, v3] = v;

        let val = v1 * v1 + v2 * v2 + v3 * v3 - r * r;
        if val < TOL {
            break;
        }
        let deriv = -2.0 * (p11 * v1 * v1 + p22 * v2 * v2 + p33 * v3 * v3)
            - 4.0 * (p12 * v1 * v2 + p13 * v1 * v3 + p23 * v2 * v3);
        let delta = -val / deriv;
        if delta < TOL {
            break;
        }
        la += delta;
    }
    ([v[0] * d[0], v[1] * d[1], v[2] * d[2]], la != 0.0)
}

/// QCQP in `n ≤ 5` dimensions by Cholesky factorizations (`mju_QCQP`); `a` is `n × n`
/// row-major, the solution is written to `res[..n]`. Returns whether the constraint is active.
///
/// # Panics
///
/// If `n > 5` (MuJoCo raises an error).
pub fn qcqp(res: &mut [Real], a: &[Real], b: &[Real], d: &[Real], r: Real, n: usize) -> bool {
    assert!(n <= 5, "qcqp supports n <= 5");
    let res = &mut res[..n];
    let mut sa = [0.0; 25];
    let mut sb = [0.0; 5];
    for i in 0..n {
        sb[i] = b[i] * d[i];
        for j in 0..n {
            sa[j + i * n] = a[j + i * n] * d[i] * d[j];
        }
    }

    let mut la = 0.0;
    let mut ala = [0.0; 25];
    let mut tmp = [0.0; 5];
    for _ in 0..MAX_ITER {
        ala[..n * n].copy_from_slice(&sa[..n * n]);
        for i in 0..n {
            ala[i * (n + 1)] += la;
        }
        if chol_factor(&mut ala, n, TOL) < n {
            res.fill(0.0);
            return false;
        }
        // res = -(A + λ)⁻¹ b
        chol_solve(res, &ala, &sb, n);
        scl_in_place(res, -1.0);

        let val = dot(res, res) - r * r;
        if val < TOL {
            break;
        }
        // Derivative -2 bᵀ (A + λ)⁻³ b.
        tmp[..n].copy_from_slice(res);
        chol_solve_in_place(&mut tmp, &ala, n);
        let deriv = -2.0 * dot(res, &tmp[..n]);
        let delta = -val / deriv;
        if delta < TOL {
            break;
        }
        la += delta;
    }
    for (x, di) in res.iter_mut().zip(d) {
        *x *= *di;
    }
    la != 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    #[test]
    fn inactive_and_degenerate() {
        // Unconstrained minimum -A⁻¹ b = (0.5, 0.25) inside the unit circle.
        let (x, active) = qcqp2(&[2.0, 0.0, 0.0, 4.0], &[-1.0, -1.0], &[1.0, 1.0], 1.0);
        assert_eq!((x, active), ([0.5, 0.25], false));
        // Not positive definite.
        assert_eq!(
            qcqp2(&[1.0, 1.0, 1.0, 1.0], &[1.0, 1.0], &[1.0, 1.0], 1.0),
            ([0.0; 2], false)
        );
        let (x, active) = qcqp3(
            &[2.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 8.0],
            &[-1.0, -1.0, -1.0],
            &[1.0; 3],
            1.0,
        );
        assert_eq!((x, active), ([0.5, 0.25, 0.125], false));
    }

    // Reference values from MuJoCo 3.1.6 (`mju_QCQP2`, `mju_QCQP3`), compared bit for bit.
    #[cfg(not(feature = "f32"))]
    mod reference {
        use super::super::*;

        const A3: [f64; 9] = [2.1, 0.3, -0.4, 0.3, 1.7, 0.25, -0.4, 0.25, 3.3];
        const B3: [f64; 3] = [-3.1, 1.4, 2.2];
        const D3: [f64; 3] = [0.7, 1.3, 0.9];
        const QCQP3_R5: ([f64; 3], bool) = (
            [
                0.25744262879554924,
                -0.310067350761151,
                -0.21647347631330605,
            ],
            true,
        );
        const QCQP3_R100: ([f64; 3], bool) = (
            [1.5481931810448475, -1.0378603997005649, -0.4003810992899758],
            false,
        );
        const QCQP2_R5: ([f64; 2], bool) = ([0.2946993641278485, -0.3506622343761626], true);
        const QCQP2_R100: ([f64; 2], bool) = ([1.6350574712643682, -1.1120689655172413], false);

        #[test]
        fn qcqp_matches_mujoco_bitwise() {
            assert_eq!(qcqp3(&A3, &B3, &D3, 0.5), QCQP3_R5);
            assert_eq!(qcqp3(&A3, &B3, &D3, 10.0), QCQP3_R100);
            let a2 = [A3[0], A3[1], A3[3], A3[4]];
            assert_eq!(qcqp2(&a2, &[B3[0], B3[1]], &[D3[0], D3[1]], 0.5), QCQP2_R5);
            assert_eq!(
                qcqp2(&a2, &[B3[0], B3[1]], &[D3[0], D3[1]], 10.0),
                QCQP2_R100
            );
        }
    }

    proptest! {
        #[test]
        fn general_agrees_with_small_cases(
            m in prop::collection::vec(-1.0f64..1.0, 9),
            b in prop::array::uniform3(-5.0f64..5.0),
            d in prop::array::uniform3(0.2f64..2.0),
            r in 0.1f64..2.0,
        ) {
            let m: Vec<Real> = m.iter().map(|x| *x as Real).collect();
            let (b, d, r) = (b.map(|x| x as Real), d.map(|x| x as Real), r as Real);
            // SPD A = M Mᵀ + I.
            let mut a = [0.0; 9];
            crate::math::mat::mul_mat_mat_t(&mut a, &m, &m, 3, 3, 3);
            for i in 0..3 {
                a[4 * i] += 1.0;
            }
            let (x3, active3) = qcqp3(&a, &b, &d, r);
            let mut xn = [0.0; 3];
            let activen = qcqp(&mut xn, &a, &b, &d, r, 3);
            prop_assert_eq!(active3, activen);
            let tol = if cfg!(feature = "f32") { 1e-2 } else { 1e5 * EPSILON };
            for (p, q) in x3.iter().zip(&xn) {
                prop_assert!((p - q).abs() <= tol * q.abs().max(1.0));
            }
            // Feasible (up to the Newton tolerance).
            let s: Real = (0..3).map(|i| (x3[i] / d[i]) * (x3[i] / d[i])).sum();
            prop_assert!(s <= r * r * (1.0 + 1e-3) + 1e-6);

            let a2 = [a[0], a[1], a[3], a[4]];
            let (x2, active2) = qcqp2(&a2, &[b[0], b[1]], &[d[0], d[1]], r);
            let mut xn2 = [0.0; 2];
            prop_assert_eq!(active2, qcqp(&mut xn2, &a2, &b[..2], &d[..2], r, 2));
            for (p, q) in x2.iter().zip(&xn2) {
                prop_assert!((p - q).abs() <= tol * q.abs().max(1.0));
            }
        }
    }
}
