//! Vector math (API reference › Vector math): 3-vectors, 4-vectors and n-vectors.
//!
//! Fixed-size functions take arrays and return the result by value, except those that MuJoCo
//! defines as updates of their first argument (`add_to3`, `normalize3`, ...). Variable-length
//! functions take their length from the first slice; the other slices must have the same length.
//!
//! The reference MuJoCo is built with AVX: [`dot`] accumulates four lanes and combines them the way
//! the AVX reduction does, so that sums round exactly as in MuJoCo. The element-wise functions
//! round the same with or without AVX.

use super::scalar::{madd, sqrt};
// the fast build's versions (feature `fast`): fused multiply-adds, several accumulators
#[cfg(feature = "fast")]
pub use super::fast::{add_scl, add_to_scl, dot};
use crate::real::MINVAL;
use crate::Real;

// ------------------------------------------------------------------------------------------------
// 3-vectors

/// The zero 3-vector (`mju_zero3`).
#[inline]
pub const fn zero3() -> [Real; 3] {
    [0.0; 3]
}

/// A copy of `vec` (`mju_copy3`).
#[inline]
pub const fn copy3(vec: &[Real; 3]) -> [Real; 3] {
    *vec
}

/// `vec * scl` (`mju_scl3`).
#[inline]
pub fn scl3(vec: &[Real; 3], scl: Real) -> [Real; 3] {
    [vec[0] * scl, vec[1] * scl, vec[2] * scl]
}

/// `vec1 + vec2` (`mju_add3`).
#[inline]
pub fn add3(vec1: &[Real; 3], vec2: &[Real; 3]) -> [Real; 3] {
    [vec1[0] + vec2[0], vec1[1] + vec2[1], vec1[2] + vec2[2]]
}

/// `vec1 - vec2` (`mju_sub3`).
#[inline]
pub fn sub3(vec1: &[Real; 3], vec2: &[Real; 3]) -> [Real; 3] {
    [vec1[0] - vec2[0], vec1[1] - vec2[1], vec1[2] - vec2[2]]
}

/// `res += vec` (`mju_addTo3`).
#[inline]
pub fn add_to3(res: &mut [Real; 3], vec: &[Real; 3]) {
    for (r, v) in res.iter_mut().zip(vec) {
        *r += *v;
    }
}

/// `res -= vec` (`mju_subFrom3`).
#[inline]
pub fn sub_from3(res: &mut [Real; 3], vec: &[Real; 3]) {
    for (r, v) in res.iter_mut().zip(vec) {
        *r -= *v;
    }
}

/// `res += vec * scl` (`mju_addToScl3`).
#[inline]
pub fn add_to_scl3(res: &mut [Real; 3], vec: &[Real; 3], scl: Real) {
    for (r, v) in res.iter_mut().zip(vec) {
        *r = madd(*v, scl, *r);
    }
}

/// `vec1 + vec2 * scl` (`mju_addScl3`).
#[inline]
pub fn add_scl3(vec1: &[Real; 3], vec2: &[Real; 3], scl: Real) -> [Real; 3] {
    [
        vec1[0] + scl * vec2[0],
        vec1[1] + scl * vec2[1],
        vec1[2] + scl * vec2[2],
    ]
}

/// Normalizes `vec` in place and returns its length before normalization (`mju_normalize3`).
/// A vector shorter than `MINVAL` becomes `[1, 0, 0]`.
#[inline]
pub fn normalize3(vec: &mut [Real; 3]) -> Real {
    let norm = norm3(vec);
    if norm < MINVAL {
        *vec = [1.0, 0.0, 0.0];
    } else {
        let inv = 1.0 / norm;
        for v in vec.iter_mut() {
            *v *= inv;
        }
    }
    norm
}

/// Euclidean length of `vec` (`mju_norm3`).
#[inline]
pub fn norm3(vec: &[Real; 3]) -> Real {
    sqrt(dot3(vec, vec))
}

/// Dot product (`mju_dot3`).
#[inline]
pub fn dot3(vec1: &[Real; 3], vec2: &[Real; 3]) -> Real {
    madd(vec1[2], vec2[2], madd(vec1[1], vec2[1], vec1[0] * vec2[0]))
}

/// Distance between two points (`mju_dist3`).
#[inline]
pub fn dist3(pos1: &[Real; 3], pos2: &[Real; 3]) -> Real {
    norm3(&sub3(pos1, pos2))
}

/// Cross product `a × b` (`mju_cross`).
#[inline]
pub fn cross(a: &[Real; 3], b: &[Real; 3]) -> [Real; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

// ------------------------------------------------------------------------------------------------
// 4-vectors

/// The zero 4-vector (`mju_zero4`).
#[inline]
pub const fn zero4() -> [Real; 4] {
    [0.0; 4]
}

/// The unit quaternion `[1, 0, 0, 0]` (`mju_unit4`).
#[inline]
pub const fn unit4() -> [Real; 4] {
    [1.0, 0.0, 0.0, 0.0]
}

/// A copy of `vec` (`mju_copy4`).
#[inline]
pub const fn copy4(vec: &[Real; 4]) -> [Real; 4] {
    *vec
}

/// Normalizes `vec` in place and returns its length before normalization (`mju_normalize4`).
/// A vector shorter than `MINVAL` becomes `[1, 0, 0, 0]`; a vector whose length is within
/// `MINVAL` of 1 is left untouched.
#[inline]
pub fn normalize4(vec: &mut [Real; 4]) -> Real {
    let norm = sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2] + vec[3] * vec[3]);
    if norm < MINVAL {
        *vec = unit4();
    } else if super::scalar::abs(norm - 1.0) > MINVAL {
        let inv = 1.0 / norm;
        for v in vec.iter_mut() {
            *v *= inv;
        }
    }
    norm
}

// ------------------------------------------------------------------------------------------------
// n-vectors

/// `res = 0` (`mju_zero`).
#[inline]
pub fn zero(res: &mut [Real]) {
    res.fill(0.0);
}

/// `res = val` in every element (`mju_fill`).
#[inline]
pub fn fill(res: &mut [Real], val: Real) {
    res.fill(val);
}

/// `res = vec` (`mju_copy`).
#[inline]
pub fn copy(res: &mut [Real], vec: &[Real]) {
    res.copy_from_slice(vec);
}

/// Sum of the elements, added left to right (`mju_sum`).
#[inline]
pub fn sum(vec: &[Real]) -> Real {
    vec.iter().fold(0.0, |acc, v| acc + *v)
}

/// Sum of absolute values (`mju_L1`).
#[inline]
pub fn l1(vec: &[Real]) -> Real {
    vec.iter().fold(0.0, |acc, v| acc + super::scalar::abs(*v))
}

/// `res = vec * scl` (`mju_scl`).
#[inline]
pub fn scl(res: &mut [Real], vec: &[Real], scl: Real) {
    debug_assert_eq!(res.len(), vec.len());
    for (r, v) in res.iter_mut().zip(vec) {
        *r = *v * scl;
    }
}

/// `res *= scl`: `mju_scl` with `res` and `vec` the same array.
#[inline]
pub fn scl_in_place(res: &mut [Real], scl: Real) {
    for r in res.iter_mut() {
        *r *= scl;
    }
}

/// `res = vec1 + vec2` (`mju_add`).
#[inline]
pub fn add(res: &mut [Real], vec1: &[Real], vec2: &[Real]) {
    debug_assert!(res.len() == vec1.len() && res.len() == vec2.len());
    for ((r, a), b) in res.iter_mut().zip(vec1).zip(vec2) {
        *r = *a + *b;
    }
}

/// `res = vec1 - vec2` (`mju_sub`).
#[inline]
pub fn sub(res: &mut [Real], vec1: &[Real], vec2: &[Real]) {
    debug_assert!(res.len() == vec1.len() && res.len() == vec2.len());
    for ((r, a), b) in res.iter_mut().zip(vec1).zip(vec2) {
        *r = *a - *b;
    }
}

/// `res += vec` (`mju_addTo`).
#[inline]
pub fn add_to(res: &mut [Real], vec: &[Real]) {
    debug_assert_eq!(res.len(), vec.len());
    for (r, v) in res.iter_mut().zip(vec) {
        *r += *v;
    }
}

/// `res -= vec` (`mju_subFrom`).
#[inline]
pub fn sub_from(res: &mut [Real], vec: &[Real]) {
    debug_assert_eq!(res.len(), vec.len());
    for (r, v) in res.iter_mut().zip(vec) {
        *r -= *v;
    }
}

#[cfg(not(feature = "fast"))]
/// `res += vec * scl` (`mju_addToScl`).
///
/// In blocks of four with the last `len % 4` apart, as MuJoCo's AVX build runs it: where a
/// caller bounds the length (`sqr_mat_td`'s rows under 16 long), LLVM turned the plain loop into
/// masked loads and stores (`vmaskmovpd`) for every element, which AMD's cores execute slowly
/// (a third of `sqr_mat_td`'s time on arm_sensors went to them). Each element is its own sum:
/// the blocks change no bit.
#[inline]
pub fn add_to_scl(res: &mut [Real], vec: &[Real], scl: Real) {
    debug_assert_eq!(res.len(), vec.len());
    let mut res_blocks = res.chunks_exact_mut(4);
    let mut vec_blocks = vec.chunks_exact(4);
    for (r, v) in (&mut res_blocks).zip(&mut vec_blocks) {
        for k in 0..4 {
            r[k] += v[k] * scl;
        }
    }
    // the last three at most, written out: as a loop LLVM masks it again
    match (res_blocks.into_remainder(), vec_blocks.remainder()) {
        ([r0, r1, r2], [v0, v1, v2]) => {
            *r0 += *v0 * scl;
            *r1 += *v1 * scl;
            *r2 += *v2 * scl;
        }
        ([r0, r1], [v0, v1]) => {
            *r0 += *v0 * scl;
            *r1 += *v1 * scl;
        }
        ([r0], [v0]) => *r0 += *v0 * scl,
        _ => {}
    }
}

#[cfg(not(feature = "fast"))]
/// `res = vec1 + vec2 * scl` (`mju_addScl`).
#[inline]
pub fn add_scl(res: &mut [Real], vec1: &[Real], vec2: &[Real], scl: Real) {
    debug_assert!(res.len() == vec1.len() && res.len() == vec2.len());
    for ((r, a), b) in res.iter_mut().zip(vec1).zip(vec2) {
        *r = *a + *b * scl;
    }
}

/// Normalizes `res` in place and returns its length before normalization (`mju_normalize`).
/// A vector shorter than `MINVAL` becomes `[1, 0, ..., 0]`.
pub fn normalize(res: &mut [Real]) -> Real {
    let norm = norm(res);
    if norm < MINVAL {
        zero(res);
        if let Some(first) = res.first_mut() {
            *first = 1.0;
        }
    } else {
        scl_in_place(res, 1.0 / norm);
    }
    norm
}

/// Euclidean length (`mju_norm`).
#[inline]
pub fn norm(vec: &[Real]) -> Real {
    sqrt(dot(vec, vec))
}

/// Dot product of two 6-vectors, rounded exactly as [`dot`] (MuJoCo's `mju_dot(a, b, 6)`):
/// one block of four lanes, then the last two products.
#[inline]
pub fn dot6(a: &[Real; 6], b: &[Real; 6]) -> Real {
    ((a[0] * b[0] + a[2] * b[2]) + (a[1] * b[1] + a[3] * b[3])) + (a[4] * b[4] + a[5] * b[5])
}

/// Dot product (`mju_dot`), rounded as MuJoCo's AVX version: products of each block of four
/// are summed into four lanes, the lanes are combined as `(l0 + l2) + (l1 + l3)`, and the last
/// `len % 4` products are summed left to right and then added. Built with AVX (the workspace's
/// `.cargo/config.toml`), the four lanes of f64 live in one 256-bit register, as in MuJoCo's
/// build (summed by `sum_lanes`).
#[cfg(not(feature = "fast"))]
// always inlined: most calls are short rows (Cholesky solves, PGS rows), where the call and
// its set-up cost as much as the products (MuJoCo's build inlines `mju_dot` as well)
#[inline(always)]
pub fn dot(vec1: &[Real], vec2: &[Real]) -> Real {
    debug_assert_eq!(vec1.len(), vec2.len());
    let (blocks1, blocks2) = (vec1.chunks_exact(4), vec2.chunks_exact(4));
    let (tail1, tail2) = (blocks1.remainder(), blocks2.remainder());
    let mut blocks = blocks1.zip(blocks2);
    let res = match blocks.next() {
        Some((a, b)) => {
            let mut lanes = [a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]];
            for (a, b) in blocks {
                for k in 0..4 {
                    lanes[k] += a[k] * b[k];
                }
            }
            sum_lanes(lanes)
        }
        None => 0.0,
    };
    add_dot_tail(res, tail1, tail2)
}

/// `(l0 + l2) + (l1 + l3)`: [`dot`]'s lanes combined as MuJoCo's AVX build combines them, the
/// upper half of the register added to the lower, then the two sums of that.
///
/// Written with the vector unit's own operations where the build has them: with the pairwise sum
/// in plain code, LLVM's vectorizer keeps the lanes of the loop before it as two pairs (two
/// 128-bit halves of f64, 64-bit pairs of f32: f32's `dot` took 1.26x f64's instructions), and an
/// opaque copy (`black_box`) that kept them in one register stored the register and loaded its
/// halves back, a store-forwarding stall on every `dot` (a quarter of `chol_factor`'s time on the
/// arm, by `perf`). Same sums, same bits.
// (the fast build's `dot` has its own lane sums)
#[cfg(not(feature = "fast"))]
#[inline(always)]
fn sum_lanes(lanes: [Real; 4]) -> Real {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx", not(feature = "f32")))]
    {
        lanes::sum_f64x4(lanes)
    }
    #[cfg(all(target_arch = "x86_64", feature = "f32"))]
    {
        lanes::sum_f32x4(lanes)
    }
    #[cfg(not(any(
        all(target_arch = "x86_64", target_feature = "avx", not(feature = "f32")),
        all(target_arch = "x86_64", feature = "f32")
    )))]
    {
        // elsewhere (no AVX, other targets) the same sums in plain code, whatever registers
        // LLVM picks for them
        (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])
    }
}

/// The lane sums of [`sum_lanes`] with x86-64's vector operations. They compute on values only
/// (no memory access); `unsafe` because Rust asks it of every call to a function marked with a
/// target feature, even when the whole build has that feature (the `cfg` of each function).
#[cfg(all(
    target_arch = "x86_64",
    not(feature = "fast"),
    any(feature = "f32", target_feature = "avx")
))]
#[allow(unsafe_code)]
mod lanes {
    use core::arch::x86_64::*;

    /// `(l0 + l2) + (l1 + l3)` of four f64 lanes in one 256-bit register.
    #[cfg(all(target_feature = "avx", not(feature = "f32")))]
    #[inline(always)]
    pub(super) fn sum_f64x4(l: [f64; 4]) -> f64 {
        // SAFETY: AVX is enabled for the whole build (the function's cfg); the operations
        // read and write registers only
        unsafe {
            let v = _mm256_setr_pd(l[0], l[1], l[2], l[3]);
            let pair = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd::<1>(v));
            _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)))
        }
    }

    /// `(l0 + l2) + (l1 + l3)` of four f32 lanes in one 128-bit register.
    #[cfg(feature = "f32")]
    #[inline(always)]
    pub(super) fn sum_f32x4(l: [f32; 4]) -> f32 {
        // SAFETY: SSE is part of every x86-64 target; the operations read and write registers
        // only
        unsafe {
            let v = _mm_setr_ps(l[0], l[1], l[2], l[3]);
            let pair = _mm_add_ps(v, _mm_movehl_ps(v, v));
            _mm_cvtss_f32(_mm_add_ss(pair, _mm_shuffle_ps::<0b01>(pair, pair)))
        }
    }
}

/// [`dot`] of two vectors of length `len` that are zero off the ascending indices `index`,
/// given there only (`val1[k]` and `val2[k]` sit at `index[k]`), in time proportional to the
/// number of indices. The products are added in [`dot`]'s lanes and order, and adding a zero
/// leaves a non-zero sum as it is, so the result is [`dot`]'s bit for bit unless it is zero; a
/// zero comes back as `+0`, where [`dot`] gives `-0` when `len >= 4` and every product is `-0`.
pub fn dot_on_support(len: usize, index: &[i32], val1: &[Real], val2: &[Real]) -> Real {
    let blocks_end = len - len % 4;
    let mut lanes = [0.0; 4];
    let mut tail = [0.0; 3];
    for ((&i, &a), &b) in index.iter().zip(val1).zip(val2) {
        let i = i as usize;
        if i < blocks_end {
            lanes[i % 4] += a * b;
        } else {
            tail[i - blocks_end] = a * b;
        }
    }
    let res = if blocks_end > 0 {
        (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])
    } else {
        0.0
    };
    // the tail's products times one are themselves: `dot`'s own left-to-right tail sum
    let tail = &tail[..len % 4];
    add_dot_tail(res, tail, &[1.0; 3][..tail.len()])
}

/// `res` plus the last `len % 4` products of a [`dot`] (up to three), summed left to right
/// first, as `mju_dot` adds its remainder.
#[inline(always)]
///
/// Tested as a chain of comparisons on the length, as MuJoCo tests its remainder: a `match` on
/// the three lengths compiled to a jump table, an indirect jump inside every `dot`. Same sums,
/// same bits.
fn add_dot_tail(res: Real, tail1: &[Real], tail2: &[Real]) -> Real {
    let (a, b) = (tail1, tail2);
    let len = a.len().min(b.len());
    if len == 0 {
        return res;
    }
    let mut sum = a[0] * b[0];
    if len > 1 {
        sum += a[1] * b[1];
        if len > 2 {
            sum += a[2] * b[2];
        }
    }
    res + sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    fn close(a: Real, b: Real) -> bool {
        (a - b).abs() <= 16.0 * EPSILON * b.abs().max(1.0)
    }

    // the fast build's dot has its own order (feature `fast`)
    #[cfg(not(feature = "fast"))]
    #[test]
    fn dot6_rounds_as_dot() {
        let a = [0.1, -2.3, 4.5e3, 7.0e-5, 1.0 / 3.0, -8.25];
        let b = [9.9, 1.0 / 7.0, -3.3e-2, 6.0e4, 2.5, 0.01];
        assert_eq!(dot6(&a, &b).to_bits(), dot(&a, &b).to_bits());
    }

    #[test]
    fn small_vectors() {
        let a = [1.0, 2.0, 3.0];
        let b = [-4.0, 0.5, 2.0];
        assert_eq!(zero3(), [0.0; 3]);
        assert_eq!(copy3(&a), a);
        assert_eq!(scl3(&a, 2.0), [2.0, 4.0, 6.0]);
        assert_eq!(add3(&a, &b), [-3.0, 2.5, 5.0]);
        assert_eq!(sub3(&a, &b), [5.0, 1.5, 1.0]);
        let mut r = a;
        add_to3(&mut r, &b);
        assert_eq!(r, [-3.0, 2.5, 5.0]);
        sub_from3(&mut r, &b);
        assert_eq!(r, a);
        add_to_scl3(&mut r, &b, 2.0);
        assert_eq!(r, [-7.0, 3.0, 7.0]);
        assert_eq!(add_scl3(&a, &b, -1.0), [5.0, 1.5, 1.0]);
        assert_eq!(dot3(&a, &b), 3.0);
        assert_eq!(norm3(&[3.0, 4.0, 12.0]), 13.0);
        assert_eq!(dist3(&[1.0, 1.0, 1.0], &[4.0, 5.0, 13.0]), 13.0);
        assert_eq!(cross(&a, &b), [2.5, -14.0, 8.5]);
        assert_eq!(zero4(), [0.0; 4]);
        assert_eq!(unit4(), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(copy4(&[1.0, 2.0, 3.0, 4.0]), [1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn normalize_special_cases() {
        let mut v = [3.0, 0.0, 4.0];
        assert_eq!(normalize3(&mut v), 5.0);
        assert_eq!(v, [3.0 * 0.2, 0.0, 4.0 * 0.2]);
        let mut tiny = [1e-16, 0.0, 0.0];
        assert_eq!(normalize3(&mut tiny), 1e-16);
        assert_eq!(tiny, [1.0, 0.0, 0.0]);

        let mut q = [0.0, 0.0, 0.0, 2.0];
        assert_eq!(normalize4(&mut q), 2.0);
        assert_eq!(q, [0.0, 0.0, 0.0, 1.0]);
        let mut tiny4 = [0.0, 1e-16, 0.0, 0.0];
        normalize4(&mut tiny4);
        assert_eq!(tiny4, [1.0, 0.0, 0.0, 0.0]);
        // Within MINVAL of unit length: untouched (f64 only: f32 has no such numbers but 1).
        #[cfg(not(feature = "f32"))]
        {
            let mut almost = [1.0 + 4.0 * EPSILON, 0.0, 0.0, 0.0];
            normalize4(&mut almost);
            assert_eq!(almost, [1.0 + 4.0 * EPSILON, 0.0, 0.0, 0.0]);
        }

        let mut n = [0.0, 3.0, 0.0, 0.0, 4.0];
        assert_eq!(normalize(&mut n), 5.0);
        assert_eq!(n, [0.0, 3.0 * 0.2, 0.0, 0.0, 4.0 * 0.2]);
        let mut z = [0.0; 5];
        assert_eq!(normalize(&mut z), 0.0);
        assert_eq!(z, [1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(normalize(&mut []), 0.0);
    }

    #[test]
    fn long_vectors() {
        let a = [1.0, -2.0, 3.0, 0.5, 7.0];
        let b = [0.5, 1.0, -1.0, 2.0, 1.0];
        let mut r = [9.0; 5];
        zero(&mut r);
        assert_eq!(r, [0.0; 5]);
        fill(&mut r, 2.5);
        assert_eq!(r, [2.5; 5]);
        copy(&mut r, &a);
        assert_eq!(r, a);
        assert_eq!(sum(&a), 9.5);
        assert_eq!(l1(&a), 13.5);
        scl(&mut r, &a, 2.0);
        assert_eq!(r, [2.0, -4.0, 6.0, 1.0, 14.0]);
        scl_in_place(&mut r, 0.5);
        assert_eq!(r, a);
        add(&mut r, &a, &b);
        assert_eq!(r, [1.5, -1.0, 2.0, 2.5, 8.0]);
        sub(&mut r, &a, &b);
        assert_eq!(r, [0.5, -3.0, 4.0, -1.5, 6.0]);
        add_to(&mut r, &b);
        assert_eq!(r, a);
        sub_from(&mut r, &a);
        assert_eq!(r, [0.0; 5]);
        add_to_scl(&mut r, &b, -2.0);
        assert_eq!(r, [-1.0, -2.0, 2.0, -4.0, -2.0]);
        add_scl(&mut r, &a, &b, 2.0);
        assert_eq!(r, [2.0, 0.0, 1.0, 4.5, 9.0]);
        assert_eq!(norm(&[1.0, 2.0, 2.0, 4.0]), 5.0);
        assert_eq!(dot(&a, &b), 3.5);
        assert_eq!(dot(&[], &[]), 0.0);
    }

    // Values from MuJoCo 3.1.6 (`mujoco.mju_dot`, `mju_sum`, `mju_L1`, `mju_norm`); for 7, 10
    // and 13 elements they differ from the left-to-right sum.
    #[cfg(not(any(feature = "f32", feature = "fast")))]
    #[test]
    fn dot_matches_mujoco_bitwise() {
        let a: [f64; 13] = [
            7.54515e-05,
            0.273646,
            -2.20733,
            -0.0157879,
            -0.115207,
            -0.00330587,
            0.00125624,
            0.00534083,
            -0.243137,
            -0.0138481,
            1.1053,
            0.571162,
            0.0601659,
        ];
        let b: [f64; 13] = [
            -1.80014, -0.750349, -0.0587287, 0.00287183, -1.92279, -28.1574, -0.0094367, -10.6546,
            1.51767, -0.117869, -13.1366, 8.70521, -0.0159802,
        ];
        assert_eq!(dot(&a[..3], &b[..3]), -0.07583220434621002);
        assert_eq!(dot(&a[..7], &b[..7]), 0.238714172196925);
        assert_eq!(dot(&a[..10], &b[..10]), -0.185559704212175);
        assert_eq!(dot(&a, &b), -9.734319993307356);
        assert_eq!(sum(&a), -0.5816694484999999);
        assert_eq!(l1(&a), 4.615562291500001);
        assert_eq!(norm(&a), 2.5635117000579966);
    }

    proptest! {
        #[test]
        fn dot_close_to_naive_sum(v in proptest::collection::vec(-10.0f64..10.0, 0..40)) {
            let a: Vec<Real> = v.iter().map(|x| *x as Real).collect();
            let b: Vec<Real> = a.iter().rev().copied().collect();
            let naive: Real = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            let scale: Real = a.iter().zip(&b).map(|(x, y)| (x * y).abs()).sum();
            prop_assert!((dot(&a, &b) - naive).abs() <= 64.0 * EPSILON * scale.max(1.0));
        }

        /// On a support, `dot_on_support` is `dot` of the dense vectors (zeros elsewhere in
        /// the first, anything in the second) bit for bit, a zero up to its sign.
        #[cfg(not(feature = "fast"))]
        #[test]
        fn dot_on_support_is_dot(
            v in proptest::collection::vec((-10.0f64..10.0, -10.0f64..10.0, 0..3u8), 0..40)
        ) {
            let len = v.len();
            let a: Vec<Real> = v.iter().map(|&(x, _, k)| if k == 0 { 0.0 } else { x as Real }).collect();
            let b: Vec<Real> = v.iter().map(|&(_, y, _)| y as Real).collect();
            let index: Vec<i32> = (0..len as i32).filter(|&i| v[i as usize].2 != 0).collect();
            let pick = |x: &[Real]| index.iter().map(|&i| x[i as usize]).collect::<Vec<_>>();
            let sparse = dot_on_support(len, &index, &pick(&a), &pick(&b));
            let dense = dot(&a, &b);
            prop_assert!(sparse == dense && (dense != 0.0 || sparse.to_bits() == 0));
        }

        #[test]
        fn normalize_gives_unit_length(v in proptest::collection::vec(-10.0f64..10.0, 1..12)) {
            let mut a: Vec<Real> = v.iter().map(|x| *x as Real).collect();
            normalize(&mut a);
            prop_assert!(close(norm(&a), 1.0));
        }
    }
}
