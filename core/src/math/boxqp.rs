//! Box-constrained quadratic programs (`mju_boxQP`): minimize `½ xᵀ H x + xᵀ g` subject to
//! `lower ≤ x ≤ upper`, by projected Newton steps with an Armijo line search.
//!
//! MuJoCo allocates its scratch vectors inside `R` (which must hold `n * (n + 7)` numbers); here
//! the factor `r` (`n * n`), the free index set `index` (`n`) and the scratch vectors
//! (`box_qp_scratch_len(n)`) are separate caller-provided slices.

use super::chol::{chol_factor, chol_solve};
use super::mat::mul_mat_vec;
use super::misc::{max, min};
use super::vec::{add_to, dot, scl, scl_in_place, zero};
use crate::real::MINVAL;
use crate::Real;

/// Options of [`box_qp_option`] (`mju_boxQPoption`); the defaults are those of `mju_boxQP`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxQpOptions {
    /// Maximum number of iterations.
    pub maxiter: usize,
    /// Minimum squared norm of the (unclamped) gradient. MuJoCo's 1e-16 is below the rounding
    /// error of f32 gradients: with `Real = f32` a larger value avoids ending in
    /// [`BoxQpStatus::NoDescent`] at the optimum.
    pub mingrad: Real,
    /// Factor by which the line search decreases the step.
    pub backtrack: Real,
    /// Minimum line-search step.
    pub minstep: Real,
    /// Armijo parameter: fraction of the expected linear improvement to accept a step.
    pub armijo: Real,
}

impl Default for BoxQpOptions {
    fn default() -> Self {
        BoxQpOptions {
            maxiter: 100,
            mingrad: 1e-16,
            backtrack: 0.5,
            minstep: 1e-22,
            armijo: 0.1,
        }
    }
}

/// Why [`box_qp_option`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxQpStatus {
    /// The Hessian restricted to the free dimensions is not positive definite (failure).
    NotSpd,
    /// No descent direction found (failure); also returned for invalid inputs (`n = 0`, or a
    /// lower bound not below its upper bound), where MuJoCo raises an error.
    NoDescent,
    /// Maximum number of iterations reached.
    MaxIter,
    /// The line search reached the minimum step.
    MaxLineSearch,
    /// The free gradient is below `mingrad`.
    SmallGradient,
    /// No dimension clamped: the result is the Newton point.
    Unbounded,
    /// All dimensions are clamped.
    AllClamped,
}

/// Outcome of [`box_qp_option`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxQpReport {
    /// Why the solver stopped.
    pub status: BoxQpStatus,
    /// Number of free (unclamped) dimensions; `r[..nfree * nfree]` holds the Cholesky factor of
    /// the Hessian restricted to them and `index[..nfree]` their indices.
    pub nfree: usize,
    /// Number of iterations.
    pub iterations: usize,
    /// Number of factorizations.
    pub factorizations: usize,
}

impl BoxQpReport {
    /// MuJoCo's return value: the number of free dimensions, or `None` (MuJoCo's -1) on failure.
    pub fn rank(&self) -> Option<usize> {
        match self.status {
            BoxQpStatus::NotSpd | BoxQpStatus::NoDescent => None,
            _ => Some(self.nfree),
        }
    }
}

/// Length of the `scratch` slice that [`box_qp`] needs for a problem of size `n`.
pub const fn box_qp_scratch_len(n: usize) -> usize {
    6 * n
}

/// Solves the box-constrained QP with MuJoCo's default options (`mju_boxQP`); returns the
/// number of free dimensions, or `None` on failure. See [`box_qp_option`] for the arguments.
pub fn box_qp(
    res: &mut [Real],
    r: &mut [Real],
    index: &mut [usize],
    h: &[Real],
    g: &[Real],
    n: usize,
    lower: Option<&[Real]>,
    upper: Option<&[Real]>,
    scratch: &mut [Real],
) -> Option<usize> {
    let opt = BoxQpOptions::default();
    box_qp_option(res, r, index, h, g, n, lower, upper, scratch, &opt).rank()
}

/// `½ vecᵀ mat vec` for symmetric `mat`, reading its lower triangle only.
fn half_quadratic(vec: &[Real], mat: &[Real], n: usize) -> Real {
    let mut res = 0.0;
    for i in 0..n {
        res += vec[i] * mat[n * i + i] * vec[i];
        res += 2.0 * vec[i] * dot(&mat[n * i..n * i + i], &vec[..i]);
    }
    0.5 * res
}

/// Solves the box-constrained QP with explicit options (`mju_boxQPoption`, without its log).
///
/// * `res` (n): warm start on input, solution on output.
/// * `r` (at least `n * n`): Cholesky factor of the Hessian restricted to the free dimensions.
/// * `index` (n): indices of the free dimensions.
/// * `h` (`n × n`, symmetric positive definite) and `g` (n): the objective.
/// * `lower`, `upper` (n each, optional): the bounds.
/// * `scratch`: at least [`box_qp_scratch_len`]`(n)` numbers.
pub fn box_qp_option(
    res: &mut [Real],
    r: &mut [Real],
    index: &mut [usize],
    h: &[Real],
    g: &[Real],
    n: usize,
    lower: Option<&[Real]>,
    upper: Option<&[Real]>,
    scratch: &mut [Real],
    opt: &BoxQpOptions,
) -> BoxQpReport {
    let mut report = BoxQpReport {
        status: BoxQpStatus::NoDescent,
        nfree: n,
        iterations: 0,
        factorizations: 0,
    };
    if n == 0 {
        return report;
    }
    if let (Some(lo), Some(up)) = (lower, upper) {
        if lo[..n].iter().zip(&up[..n]).any(|(l, u)| l >= u) {
            return report;
        }
    }
    let (res, g) = (&mut res[..n], &g[..n]);
    let h = &h[..n * n];
    let (grad, rest) = scratch[..6 * n].split_at_mut(n);
    let (search, rest) = rest.split_at_mut(n);
    let (candidate, rest) = rest.split_at_mut(n);
    let (temp, rest) = rest.split_at_mut(n);
    // Clamping flags as 0.0 / 1.0, current and previous iteration.
    let (clamped, oldclamped) = rest.split_at_mut(n);

    if lower.is_none() && upper.is_none() {
        // No bounds: Newton point.
        r[..n * n].copy_from_slice(h);
        if chol_factor(r, n, MINVAL) == n {
            chol_solve(res, r, g, n);
            scl_in_place(res, -1.0);
            report.factorizations = 1;
            report.status = BoxQpStatus::Unbounded;
        } else {
            report.status = BoxQpStatus::NotSpd;
        }
        for (i, idx) in index[..n].iter_mut().enumerate() {
            *idx = i;
        }
    } else {
        for i in 0..n {
            if let Some(lo) = lower {
                res[i] = max(res[i], lo[i]);
            }
            if let Some(up) = upper {
                res[i] = min(res[i], up[i]);
            }
        }
    }

    let mut iter = 0;
    while iter < opt.maxiter {
        if report.status != BoxQpStatus::NoDescent {
            break;
        }
        let oldvalue = half_quadratic(res, h, n) + dot(res, g);

        // Gradient, clamped dimensions (at a bound, gradient pointing out), free index set.
        mul_mat_vec(grad, h, res, n, n);
        add_to(grad, g);
        let mut nfree = 0;
        for i in 0..n {
            let at_lower = lower.is_some_and(|lo| res[i] == lo[i] && grad[i] > 0.0);
            let at_upper = upper.is_some_and(|up| res[i] == up[i] && grad[i] < 0.0);
            clamped[i] = if at_lower || at_upper { 1.0 } else { 0.0 };
            if clamped[i] == 0.0 {
                index[nfree] = i;
                nfree += 1;
            }
        }
        report.nfree = nfree;
        if nfree == 0 {
            report.status = BoxQpStatus::AllClamped;
            break;
        }
        let factorize = iter == 0 || clamped != oldclamped;
        oldclamped.copy_from_slice(clamped);

        // Search direction on the free dimensions: -H_ff⁻¹ (g + H_fc x_c) - x_f.
        for i in 0..n {
            temp[i] = if clamped[i] != 0.0 { res[i] } else { 0.0 };
        }
        mul_mat_vec(search, h, temp, n, n);
        add_to(search, g);
        for i in 0..nfree {
            search[i] = search[index[i]];
        }
        if factorize {
            for i in 0..nfree {
                for j in 0..=i {
                    r[i * nfree + j] = h[index[i] * n + index[j]];
                }
            }
            report.factorizations += 1;
            if chol_factor(r, nfree, MINVAL) != nfree {
                report.status = BoxQpStatus::NotSpd;
                break;
            }
        }
        chol_solve(temp, r, search, nfree);
        zero(search);
        for i in 0..nfree {
            search[index[i]] = -temp[i] - res[index[i]];
        }

        // Converged if the free gradient is small.
        let mut norm2 = 0.0;
        for &i in &index[..nfree] {
            norm2 += grad[i] * grad[i];
        }
        if norm2 < opt.mingrad {
            report.status = if nfree == n {
                BoxQpStatus::Unbounded
            } else {
                BoxQpStatus::SmallGradient
            };
            break;
        }
        let sdotg = dot(search, grad);
        if sdotg >= 0.0 {
            break;
        }

        // Projected Armijo line search.
        let mut step = 1.0;
        loop {
            scl(candidate, search, step);
            add_to(candidate, res);
            for i in 0..n {
                if let Some(lo) = lower.filter(|lo| candidate[i] < lo[i]) {
                    candidate[i] = lo[i];
                } else if let Some(up) = upper.filter(|up| candidate[i] > up[i]) {
                    candidate[i] = up[i];
                }
            }
            let value = half_quadratic(candidate, h, n) + dot(candidate, g);
            step *= opt.backtrack;
            if step < opt.minstep {
                report.status = BoxQpStatus::MaxLineSearch;
                break;
            }
            // Repeat until the improvement reaches the Armijo fraction (a NaN stops too).
            let improvement = (value - oldvalue) / (step * sdotg);
            if improvement < opt.armijo {
                continue;
            }
            break;
        }
        res.copy_from_slice(candidate);
        iter += 1;
    }
    if iter == opt.maxiter {
        report.status = BoxQpStatus::MaxIter;
    }
    report.iterations = iter;
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::mat::mul_mat_mat_t;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    struct Problem {
        h: Vec<Real>,
        g: Vec<Real>,
        lower: Vec<Real>,
        upper: Vec<Real>,
    }

    fn solve(p: &Problem, bounds: bool) -> (Vec<Real>, BoxQpReport, Vec<usize>) {
        let n = p.g.len();
        let mut res = vec![0.0; n];
        let mut r = vec![0.0; n * n];
        let mut index = vec![0; n];
        let mut scratch = vec![0.0; box_qp_scratch_len(n)];
        let (lo, up) = if bounds {
            (Some(&p.lower[..]), Some(&p.upper[..]))
        } else {
            (None, None)
        };
        let report = box_qp_option(
            &mut res,
            &mut r,
            &mut index,
            &p.h,
            &p.g,
            n,
            lo,
            up,
            &mut scratch,
            &BoxQpOptions::default(),
        );
        (res, report, index)
    }

    #[test]
    fn one_dimensional() {
        // min ½ x² - 3x on [-1, 2]: x = 2, clamped.
        let p = Problem {
            h: vec![1.0],
            g: vec![-3.0],
            lower: vec![-1.0],
            upper: vec![2.0],
        };
        let (x, report, _) = solve(&p, true);
        assert_eq!(x, [2.0]);
        assert_eq!(report.status, BoxQpStatus::AllClamped);
        assert_eq!(report.rank(), Some(0));
        // Without bounds: Newton point 3.
        let (x, report, index) = solve(&p, false);
        assert_eq!(x, [3.0]);
        assert_eq!(report.status, BoxQpStatus::Unbounded);
        assert_eq!(index, [0]);
    }

    #[test]
    fn failures() {
        let p = Problem {
            h: vec![1.0, 2.0, 2.0, 1.0],
            g: vec![1.0, 1.0],
            lower: vec![-1.0, -1.0],
            upper: vec![1.0, 1.0],
        };
        let (_, report, _) = solve(&p, false);
        assert_eq!(report.status, BoxQpStatus::NotSpd);
        assert_eq!(report.rank(), None);
        let bad = Problem {
            lower: vec![1.0, -1.0],
            ..p
        };
        assert_eq!(solve(&bad, true).1.status, BoxQpStatus::NoDescent);
    }

    // Reference values from MuJoCo 3.1.6 (`mju_boxQP`), compared bit for bit.
    // (MuJoCo's bits are the exact build's contract; the fast build is measured against them
    // in tests/tests/fast.rs instead)
    #[cfg(not(any(feature = "f32", feature = "fast")))]
    mod reference {
        use super::super::*;

        const H: [f64; 36] = [
            12.5339563,
            0.874080334,
            -1.25520318,
            -0.336071953,
            3.03189236,
            1.03895547,
            0.874080334,
            2.32442491,
            1.29179385,
            -1.88600325,
            0.90213904,
            0.486273167,
            -1.25520318,
            1.29179385,
            15.6657874,
            -2.02893433,
            -8.48569255,
            4.89207672,
            -0.336071953,
            -1.88600325,
            -2.02893433,
            10.6172394,
            -0.981852853,
            0.980839431,
            3.03189236,
            0.90213904,
            -8.48569255,
            -0.981852853,
            22.7003837,
            -4.70511404,
            1.03895547,
            0.486273167,
            4.89207672,
            0.980839431,
            -4.70511404,
            2.57139021,
        ];
        const G: [f64; 6] = [
            -3.69486,
            4.53732,
            -48.41460000000001,
            5.2920300000000005,
            -0.7181460000000001,
            -0.662118,
        ];
        const LOWER: [f64; 6] = [
            -0.3532065,
            -0.381418,
            -0.665565,
            -0.04715865,
            -0.0925075,
            -0.2065075,
        ];
        const UPPER: [f64; 6] = [0.399882, 0.201878, 4.182325, 0.229791, 0.2874525, 1.64805];
        const RES_BOTH: [f64; 6] = [
            0.399882,
            -0.381418,
            3.39233405109422,
            0.14039556348501436,
            0.2874525,
            -0.2065075,
        ];
        const RANK_BOTH: usize = 2;
        const R_BOTH: [f64; 4] = [
            3.958002956037299,
            0.0,
            -0.5126156681882174,
            3.217835386828846,
        ];
        const INDEX_BOTH: [usize; 2] = [2, 3];
        const RES_LOWER_ONLY: [f64; 6] = [
            0.39620260168333304,
            -0.381418,
            4.075258060406262,
            0.38208376052708204,
            1.4909831714678445,
            -0.2065075,
        ];
        const RANK_LOWER_ONLY: usize = 4;
        const R_LOWER_ONLY: [f64; 16] = [
            3.5403327950914445,
            0.0,
            0.0,
            0.0,
            -0.3545438388561375,
            3.942091585228475,
            1.5044830281714507,
            1.5044830281714507,
            -0.094926655896856,
            -0.5232222403762097,
            3.214726554028498,
            0.9168118952895954,
            0.8563862595639651,
            -2.0755646846587226,
            -0.6179500931695243,
            4.156579747410045,
        ];
        const INDEX_LOWER_ONLY: [usize; 4] = [0, 2, 3, 4];
        const RES_NONE: [f64; 6] = [
            5.200834181780658,
            1.2292966869349853,
            13.497549935758903,
            5.417899448905316,
            -2.59881689040708,
            -34.57738924180982,
        ];
        const RANK_NONE: usize = 6;
        const R_NONE: [f64; 36] = [
            3.5403327950914445,
            0.874080334,
            -1.25520318,
            -0.336071953,
            3.03189236,
            1.03895547,
            0.24689213827917073,
            1.5044830281714507,
            1.29179385,
            -1.88600325,
            0.90213904,
            0.486273167,
            -0.3545438388561375,
            0.9168118952895954,
            3.833998176184315,
            -2.02893433,
            -8.48569255,
            4.89207672,
            -0.094926655896856,
            -1.2380110443716326,
            -0.2419319718964434,
            3.0028363100556112,
            -0.981852853,
            0.980839431,
            0.8563862595639651,
            0.45909723955000914,
            -2.2438643663796647,
            -0.291409173425882,
            4.078770574327812,
            -4.70511404,
            0.29346265736387206,
            0.2750576352604671,
            1.2373365263118028,
            0.549005122315488,
            -0.5262147306162019,
            0.5479990233808542,
        ];
        const INDEX_NONE: [usize; 6] = [0, 1, 2, 3, 4, 5];
        const RES_WARM: [f64; 6] = [
            0.399882,
            -0.381418,
            3.39233405109422,
            0.14039556348501436,
            0.2874525,
            -0.2065075,
        ];

        fn run(
            lower: Option<&[f64]>,
            upper: Option<&[f64]>,
            warm: f64,
        ) -> (Vec<f64>, Option<usize>, Vec<f64>, Vec<usize>) {
            let mut res = vec![warm; 6];
            let mut r = vec![0.0; 36];
            let mut index = vec![0; 6];
            let mut scratch = vec![0.0; box_qp_scratch_len(6)];
            let rank = box_qp(
                &mut res,
                &mut r,
                &mut index,
                &H,
                &G,
                6,
                lower,
                upper,
                &mut scratch,
            );
            (res, rank, r, index)
        }

        #[test]
        fn box_qp_matches_mujoco_bitwise() {
            let (res, rank, r, index) = run(Some(&LOWER), Some(&UPPER), 0.0);
            assert_eq!((res, rank), (RES_BOTH.to_vec(), Some(RANK_BOTH)));
            assert_eq!(
                (&r[..RANK_BOTH * RANK_BOTH], &index[..RANK_BOTH]),
                (&R_BOTH[..], &INDEX_BOTH[..])
            );
            let (res, rank, r, index) = run(Some(&LOWER), None, 0.0);
            assert_eq!(
                (res, rank),
                (RES_LOWER_ONLY.to_vec(), Some(RANK_LOWER_ONLY))
            );
            assert_eq!(
                (&r[..16], &index[..4]),
                (&R_LOWER_ONLY[..], &INDEX_LOWER_ONLY[..])
            );
            let (res, rank, r, index) = run(None, None, 0.0);
            assert_eq!((res, rank), (RES_NONE.to_vec(), Some(RANK_NONE)));
            assert_eq!((r, index), (R_NONE.to_vec(), INDEX_NONE.to_vec()));
            assert_eq!(run(Some(&LOWER), Some(&UPPER), 0.1).0, RES_WARM.to_vec());
        }
    }

    fn arb_problem() -> impl Strategy<Value = Problem> {
        (1usize..8).prop_flat_map(|n| {
            (
                prop::collection::vec(-1.0f64..1.0, n * n),
                prop::collection::vec(-3.0f64..3.0, n),
                prop::collection::vec(0.1f64..2.0, n),
                prop::collection::vec(0.1f64..2.0, n),
            )
                .prop_map(move |(b, g, lo, up)| {
                    let b: Vec<Real> = b.iter().map(|x| *x as Real).collect();
                    let mut h = vec![0.0; n * n];
                    mul_mat_mat_t(&mut h, &b, &b, n, n, n);
                    for i in 0..n {
                        h[i * (n + 1)] += 0.1;
                    }
                    Problem {
                        h,
                        g: g.iter().map(|x| *x as Real).collect(),
                        lower: lo.iter().map(|x| -*x as Real).collect(),
                        upper: up.iter().map(|x| *x as Real).collect(),
                    }
                })
        })
    }

    proptest! {
        #[test]
        fn solution_is_feasible_and_optimal(p in arb_problem()) {
            let n = p.g.len();
            let (x, report, _) = solve(&p, true);
            // In f32 the default `mingrad` (1e-16) is below the rounding of the gradient, so at
            // the optimum the search direction can fail to descend: MuJoCo's "no descent" status
            // (a failure), with the optimum in `res` nonetheless.
            prop_assert!(report.rank().is_some() || cfg!(feature = "f32"));
            let mut grad = vec![0.0; n];
            mul_mat_vec(&mut grad, &p.h, &x, n, n);
            add_to(&mut grad, &p.g);
            let tol = if cfg!(feature = "f32") { 1e-2 } else { 1e-6 };
            for i in 0..n {
                prop_assert!(x[i] >= p.lower[i] && x[i] <= p.upper[i]);
                // KKT: zero gradient inside, gradient pointing outwards at a bound.
                if x[i] == p.lower[i] {
                    prop_assert!(grad[i] >= -tol);
                } else if x[i] == p.upper[i] {
                    prop_assert!(grad[i] <= tol);
                } else {
                    prop_assert!(grad[i].abs() <= tol);
                }
            }
        }
    }
}
