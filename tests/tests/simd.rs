//! The AVX kernels (`mjrs_core::math::simd`, chosen at run time on x86-64) and the portable ones
//! give the same bits: trajectories of models that run every dispatched kernel (dense and sparse
//! Cholesky, Newton/CG/PGS solvers, implicit damping) are compared with AVX on and off. Both
//! are also checked against MuJoCo by the conformance tests, which run with whatever this CPU has.

use mjrs_core::math::simd::use_avx;
use mjrs_tests::{fixtures, CONTACT_SOLVER_MJBS};

#[test]
fn avx_and_portable_kernels_agree_bit_for_bit() {
    let mut compared = 0;
    for mjb in CONTACT_SOLVER_MJBS {
        let blob = std::fs::read(fixtures().join(mjb)).unwrap();
        let avx = use_avx(true);
        let (with, _) = mjrs_tests::simulate!(mjrs_core, blob.clone(), None, 200, |m, d| ());
        use_avx(false);
        let (without, _) = mjrs_tests::simulate!(mjrs_core, blob, None, 200, |m, d| ());
        use_avx(true);
        for (step, (a, b)) in with.iter().zip(&without).enumerate() {
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert!(
                a.0 == b.0
                    && bits(&a.1) == bits(&b.1)
                    && bits(&a.2) == bits(&b.2)
                    && bits(&a.3) == bits(&b.3)
                    && bits(&a.4) == bits(&b.4),
                "{mjb}: step {step} differs between AVX ({avx}) and portable kernels"
            );
        }
        compared += with.len();
    }
    assert_eq!(compared, CONTACT_SOLVER_MJBS.len() * 200);
}
