//! Kernels of the opt-in fast build (cargo feature `fast`, issue 25): the same quantities as the
//! exact kernels they replace, in a cheaper order, so that results are not MuJoCo's bit for bit.
//!
//! * Fused multiply-adds ([`mul_add`]) where the platform has a hardware instruction for them in
//!   this build: the feature `std` (Rust's `mul_add`, which `core` lacks) and the target feature
//!   `fma` (`RUSTFLAGS="-C target-cpu=native"` or `-C target-feature=+fma,+avx2` on x86-64), or
//!   without `std` the feature `core-float-math` (`VFMA.F32` on a Cortex-M4F).
//!   Elsewhere a multiply and an add, never the software `fma` of `libm`, which costs a function
//!   call per product; [`FUSED`] says which.
//! * Reductions in [`LANES`] independent accumulators ([`dot`]): the additions no longer wait
//!   for each other, and LLVM keeps the lanes in the widest vector registers the target has.
//!
//! The exact build never compiles this module; the functions that have a fast variant call it
//! first under `#[cfg(feature = "fast")]`, so the exact code is unchanged when the feature is
//! off. Accuracy is measured rather than assumed: `tests/tests/fast.rs` bounds one `forward`
//! against MuJoCo's, `bench/fast_accuracy.py` compares 1000 steps with MuJoCo's own chaos.

use crate::Real;

/// Whether [`mul_add`] rounds once in this build: a hardware fused multiply-add, or `core`'s
/// (feature `core-float-math`: the compiler's intrinsic, one `VFMA.F32` on a Cortex-M4F in f32,
/// the C library's correctly rounded `fma` where the target has no instruction, so that a host
/// reproduces a device's fused bits).
pub const FUSED: bool = cfg!(any(
    all(feature = "std", target_feature = "fma"),
    all(not(feature = "std"), feature = "core-float-math")
));

/// Accumulators of a [`dot`]: two 256-bit registers of f64 (one of AVX-512), enough to hide the
/// latency of the additions on current x86-64 cores.
pub const LANES: usize = 8;

/// `a * b + c`, rounded once where the build has a hardware fused multiply-add ([`FUSED`]).
#[inline(always)]
pub fn mul_add(a: Real, b: Real, c: Real) -> Real {
    #[cfg(all(feature = "std", target_feature = "fma"))]
    {
        a.mul_add(b, c)
    }
    #[cfg(all(not(feature = "std"), feature = "core-float-math", feature = "f32"))]
    {
        core::f32::math::mul_add(a, b, c)
    }
    #[cfg(all(
        not(feature = "std"),
        feature = "core-float-math",
        not(feature = "f32")
    ))]
    {
        core::f64::math::mul_add(a, b, c)
    }
    #[cfg(not(any(
        all(feature = "std", target_feature = "fma"),
        all(not(feature = "std"), feature = "core-float-math")
    )))]
    {
        a * b + c
    }
}

/// Dot product in [`LANES`] accumulators: blocks of eight, then one of four, then up to three
/// products, as fixed-size arrays (no bounds checks, no per-element loop bookkeeping: the
/// vectors of the solvers are short, a few dozen elements).
#[inline]
pub fn dot(vec1: &[Real], vec2: &[Real]) -> Real {
    debug_assert_eq!(vec1.len(), vec2.len());
    let (blocks1, rest1) = vec1.as_chunks::<LANES>();
    let (blocks2, rest2) = vec2.as_chunks::<LANES>();
    let mut lanes = [0.0; LANES];
    for (a, b) in blocks1.iter().zip(blocks2) {
        for k in 0..LANES {
            lanes[k] = mul_add(a[k], b[k], lanes[k]);
        }
    }
    let (quad1, tail1) = rest1.as_chunks::<4>();
    let (quad2, tail2) = rest2.as_chunks::<4>();
    if let (Some(a), Some(b)) = (quad1.first(), quad2.first()) {
        for k in 0..4 {
            lanes[k] = mul_add(a[k], b[k], lanes[k]);
        }
    }
    let tail = match (tail1, tail2) {
        ([a0, a1, a2], [b0, b1, b2]) => mul_add(*a2, *b2, mul_add(*a1, *b1, *a0 * *b0)),
        ([a0, a1], [b0, b1]) => mul_add(*a1, *b1, *a0 * *b0),
        ([a0], [b0]) => *a0 * *b0,
        _ => 0.0,
    };
    sum_lanes(&lanes) + tail
}

/// Sum of the accumulators of [`dot`], pairwise.
#[inline(always)]
fn sum_lanes(lanes: &[Real; LANES]) -> Real {
    let half: [Real; 4] = core::array::from_fn(|k| lanes[k] + lanes[k + 4]);
    (half[0] + half[2]) + (half[1] + half[3])
}

/// `res += vec * scl` with fused multiply-adds.
#[inline]
pub fn add_to_scl(res: &mut [Real], vec: &[Real], scl: Real) {
    debug_assert_eq!(res.len(), vec.len());
    for (r, v) in res.iter_mut().zip(vec) {
        *r = mul_add(*v, scl, *r);
    }
}

/// `res = vec1 + vec2 * scl` with fused multiply-adds.
#[inline]
pub fn add_scl(res: &mut [Real], vec1: &[Real], vec2: &[Real], scl: Real) {
    debug_assert!(res.len() == vec1.len() && res.len() == vec2.len());
    for ((r, a), b) in res.iter_mut().zip(vec1).zip(vec2) {
        *r = mul_add(*b, scl, *a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    #[test]
    fn mul_add_is_fused_when_it_says_so() {
        // (1 + e)(1 - e) = 1 - e²: a separate multiply rounds it to 1, one rounding keeps it
        let e = EPSILON;
        let r = mul_add(1.0 + e, 1.0 - e, -1.0);
        assert_eq!(r == -(e * e), FUSED);
        assert_eq!(r == 0.0, !FUSED);
    }

    proptest! {
        /// The fast dot is the exact one up to rounding, at every length around the blocks.
        #[test]
        fn dot_close_to_exact(v in proptest::collection::vec((-10.0f64..10.0, -10.0f64..10.0), 0..40)) {
            let a: Vec<Real> = v.iter().map(|x| x.0 as Real).collect();
            let b: Vec<Real> = v.iter().map(|x| x.1 as Real).collect();
            let scale: Real = a.iter().zip(&b).map(|(x, y)| (x * y).abs()).sum();
            let naive: Real = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            prop_assert!((dot(&a, &b) - naive).abs() <= 2.0 * a.len() as Real * EPSILON * scale);
            let mut r = a.clone();
            add_to_scl(&mut r, &b, 0.5);
            for k in 0..a.len() {
                prop_assert!((r[k] - (a[k] + 0.5 * b[k])).abs() <= 2.0 * EPSILON * (a[k].abs() + b[k].abs()));
            }
        }
    }
}
