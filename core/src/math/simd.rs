//! Run-time dispatch of the hot vector kernels to 256-bit AVX code on x86-64 CPUs that have it.
//!
//! MuJoCo's library is built with AVX and its `mju_dot` and friends sum four lanes at a time;
//! the portable kernels of mjrs already evaluate in that lane order, so compiling the *same*
//! Rust code with AVX enabled changes the instruction count, not a single rounding. No FMA is
//! enabled: fused multiply-adds round differently from MuJoCo's separate multiply and add.
//!
//! Audit notes (the second and last `unsafe` of mjrs besides `pod`): calling a
//! `#[target_feature(enable = "avx")]` function is sound once the CPU and the OS are known to
//! support AVX, which [`avx`] checks with `cpuid` (AVX and OSXSAVE bits) and `xgetbv` (the OS
//! saves the YMM registers) before any such call. Other targets (the Cortex-M firmware) and
//! builds without `std`-level detection needs use the portable kernels only.
#![allow(unsafe_code)]

use crate::Real;

/// Whether the AVX kernels may run on this CPU (detected once, then cached).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn avx() -> bool {
    use core::sync::atomic::Ordering;
    match AVX_STATE.load(Ordering::Relaxed) {
        0 => use_avx(true),
        s => s == 2,
    }
}

/// Turns the AVX kernels on (where the CPU has AVX) or off for the whole process; returns
/// whether they are now on. Results are the same bits either way, which tests check with it.
#[cfg(target_arch = "x86_64")]
pub fn use_avx(on: bool) -> bool {
    use core::sync::atomic::Ordering;
    let yes = on && detect_avx();
    AVX_STATE.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
    yes
}

/// Turns the AVX kernels on or off: off x86-64 there are none, so always off.
#[cfg(not(target_arch = "x86_64"))]
pub fn use_avx(_on: bool) -> bool {
    false
}

/// 0: not yet detected, 1: portable kernels, 2: AVX kernels.
#[cfg(target_arch = "x86_64")]
static AVX_STATE: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Whether the AVX kernels may run on this CPU: never off x86-64.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub fn avx() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
#[cold]
fn detect_avx() -> bool {
    use core::arch::x86_64::__cpuid;
    const OSXSAVE: u32 = 1 << 27;
    const AVX: u32 = 1 << 28;
    let leaf1 = __cpuid(1);
    if leaf1.ecx & (OSXSAVE | AVX) != (OSXSAVE | AVX) {
        return false;
    }
    // SAFETY: OSXSAVE is set, so `xgetbv` is available and XCR0 readable.
    let xcr0 = unsafe { xgetbv0() };
    // the OS saves and restores both the SSE (bit 1) and the upper YMM (bit 2) state
    xcr0 & 0b110 == 0b110
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "xsave")]
unsafe fn xgetbv0() -> u64 {
    core::arch::x86_64::_xgetbv(0)
}

/// [`super::vec::dot`] on AVX: MuJoCo's `mju_dot` lanes (four products per 256-bit register,
/// `(l0 + l2) + (l1 + l3)`, then the tail), in f64 builds; f32 builds keep the portable kernel,
/// whose four lanes already fit one SSE register.
#[inline(always)]
pub fn dot(vec1: &[Real], vec2: &[Real]) -> Real {
    #[cfg(all(target_arch = "x86_64", not(feature = "f32")))]
    if avx() {
        // SAFETY: `avx()` checked the CPU and OS support for AVX.
        return unsafe { dot_avx(vec1, vec2) };
    }
    super::vec::dot_lanes(vec1, vec2)
}

#[cfg(all(target_arch = "x86_64", not(feature = "f32")))]
#[target_feature(enable = "avx")]
fn dot_avx(vec1: &[f64], vec2: &[f64]) -> f64 {
    use core::arch::x86_64::*;
    // Index arithmetic on raw pointers: most dot products in a step are short (a Cholesky row,
    // a sparse row), so loop set-up and bounds checks would cost as much as the products.
    let n = vec1.len().min(vec2.len());
    let blocks = n & !3;
    let (p1, p2) = (vec1.as_ptr(), vec2.as_ptr());
    // SAFETY (loads): `i + 4 <= blocks <= n`, within both slices.
    let load = |p: *const f64, i: usize| unsafe { _mm256_loadu_pd(p.add(i)) };
    let mut res = 0.0;
    if blocks > 0 {
        let mut sum = _mm256_mul_pd(load(p1, 0), load(p2, 0));
        let mut i = 4;
        while i < blocks {
            sum = _mm256_add_pd(sum, _mm256_mul_pd(load(p1, i), load(p2, i)));
            i += 4;
        }
        let half = _mm_add_pd(_mm256_castpd256_pd128(sum), _mm256_extractf128_pd(sum, 1));
        res = _mm_cvtsd_f64(_mm_add_sd(half, _mm_unpackhi_pd(half, half)));
    }
    super::vec::add_dot_tail(res, &vec1[blocks..n], &vec2[blocks..n])
}

/// Defines `pub fn $name` that runs `$portable` compiled for AVX when [`avx`] says so (x86-64,
/// both precisions), and as it is otherwise. `$portable` must be `#[inline(always)]` so that it
/// is compiled anew inside the AVX function; it must be element-wise or keep MuJoCo's lane order,
/// so that the wider registers change no rounding (in f32 too: element-wise kernels give the same
/// bits however many lanes a register holds).
macro_rules! dispatch {
    ($(#[$meta:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $portable:path;) => {
        $(#[$meta])*
        #[inline]
        pub fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx")]
                fn with_avx($($arg: $ty),*) -> $ret {
                    $portable($($arg),*)
                }
                if avx() {
                    // SAFETY: `avx()` checked the CPU and OS support for AVX.
                    return unsafe { with_avx($($arg),*) };
                }
            }
            $portable($($arg),*)
        }
    };
}

dispatch! {
    /// [`super::mat::mul_mat_t_vec`]'s kernel: rows scaled and added element by element.
    fn mul_mat_t_vec(res: &mut [Real], mat: &[Real], vec: &[Real], nr: usize, nc: usize) -> ()
        = super::mat::mul_mat_t_vec_body;
}

dispatch! {
    /// [`super::mat::sqr_mat_td`]'s kernel: rows scaled and added element by element.
    fn sqr_mat_td(res: &mut [Real], mat: &[Real], diag: Option<&[Real]>, nr: usize, nc: usize) -> ()
        = super::mat::sqr_mat_td_body;
}

dispatch! {
    /// [`crate::smooth::factor_i`]'s kernel: ancestor rows updated element by element.
    fn factor_i(
        m: &crate::Model,
        warnings: &mut [crate::data::WarningStat],
        mat: &[Real],
        qld: &mut [Real],
        diag_inv: &mut [Real],
        diag_sqrt_inv: Option<&mut [Real]>
    ) -> () = crate::smooth::factor_i_body;
}
