//! The AVX kernels (`mjrs_core::math::simd`, chosen at run time on x86-64) and the portable ones
//! give the same bits: trajectories of models that run every dispatched kernel (dense and sparse
//! Cholesky, Newton/CG/PGS solvers, implicit damping) are compared with AVX on and off, in the
//! f64 build (MuJoCo's lanes) and the f32 build (element-wise kernels only). The f64 build is
//! also checked against MuJoCo by the conformance tests, which run with whatever this CPU has.

use mjrs_tests::{fixtures, CONTACT_SOLVER_MJBS};

/// Runs every contact/solver fixture for 200 steps with AVX on and off in core `$core`.
macro_rules! compare_avx {
    ($core:ident) => {{
        use $core::math::simd::use_avx;
        let mut compared = 0;
        for mjb in CONTACT_SOLVER_MJBS {
            let blob = std::fs::read(fixtures().join(mjb)).unwrap();
            let avx = use_avx(true);
            let (with, _) = mjrs_tests::simulate!($core, blob.clone(), None, 200, |m, d| ());
            use_avx(false);
            let (without, _) = mjrs_tests::simulate!($core, blob, None, 200, |m, d| ());
            use_avx(true);
            for (step, (a, b)) in with.iter().zip(&without).enumerate() {
                let bits = |v: &[$core::Real]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
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
    }};
}

#[test]
fn avx_and_portable_kernels_agree_bit_for_bit() {
    compare_avx!(mjrs_core);
}

#[test]
fn avx_and_portable_kernels_agree_bit_for_bit_in_f32() {
    compare_avx!(mjrs_core_f32);
}
