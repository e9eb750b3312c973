//! Standard math (`mju_sqrt`, `mju_sin`, ...): the C library functions in the precision of
//! [`Real`].
//!
//! MuJoCo defines these as macros for the C standard library (`#define mju_sqrt sqrt`). Without
//! the cargo feature `std` they come from the `libm` crate (the core is `no_std`): `sqrt`,
//! `fabs`, `floor` and `ceil` are exact, the transcendental functions agree with glibc to within
//! one unit in the last place (measured: 3% of `sin` values differ by 1 ulp, 18% of `atan2`).
//! With `std` they are the platform's own C functions, the ones MuJoCo calls, so results agree
//! bit for bit with MuJoCo on the same platform; desktop builds enable it, firmware does not.
//! With `f32`, no `std` and the feature `micromath`, the transcendental functions are
//! micromath's approximations instead (cheaper, far less accurate; numbers in the README).

use crate::Real;

/// Defines `pub fn $name(x: Real) -> Real` calling the platform's C function through std
/// (feature `std`), else `libm::$f64`, or with feature `f32` `libm::$f32`.
macro_rules! unary {
    ($($(#[$doc:meta])* $name:ident => $f64:ident / $f32:ident / $std:ident;)*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(x: Real) -> Real {
            #[cfg(feature = "std")]
            {
                x.$std()
            }
            #[cfg(all(not(feature = "std"), not(feature = "f32")))]
            {
                libm::$f64(x)
            }
            #[cfg(all(not(feature = "std"), feature = "f32", not(feature = "micromath")))]
            {
                libm::$f32(x)
            }
            #[cfg(all(not(feature = "std"), feature = "f32", feature = "micromath"))]
            {
                fast::$name(x)
            }
        }
    )*};
}

/// Square root (`mju_sqrt`), correctly rounded in every build. With the feature
/// `core-float-math` (no `std`) it is `core`'s own (a compiler intrinsic: one `VSQRT.F32` on a
/// Cortex-M4F, `sqrtss` on x86-64) instead of libm's software loop; same bits.
#[inline]
pub fn sqrt(x: Real) -> Real {
    #[cfg(feature = "std")]
    {
        x.sqrt()
    }
    #[cfg(all(
        not(feature = "std"),
        feature = "core-float-math",
        not(feature = "f32")
    ))]
    {
        core::f64::math::sqrt(x)
    }
    #[cfg(all(not(feature = "std"), feature = "core-float-math", feature = "f32"))]
    {
        core::f32::math::sqrt(x)
    }
    #[cfg(all(
        not(feature = "std"),
        not(feature = "core-float-math"),
        not(feature = "f32")
    ))]
    {
        libm::sqrt(x)
    }
    #[cfg(all(
        not(feature = "std"),
        not(feature = "core-float-math"),
        feature = "f32"
    ))]
    {
        libm::sqrtf(x)
    }
}

unary! {
    /// Exponential (`mju_exp`).
    exp => exp / expf / exp;
    /// Sine (`mju_sin`).
    sin => sin / sinf / sin;
    /// Cosine (`mju_cos`).
    cos => cos / cosf / cos;
    /// Tangent (`mju_tan`).
    tan => tan / tanf / tan;
    /// Arc sine (`mju_asin`).
    asin => asin / asinf / asin;
    /// Arc cosine (`mju_acos`).
    acos => acos / acosf / acos;
    /// Hyperbolic tangent (`mju_tanh`).
    tanh => tanh / tanhf / tanh;
    /// Absolute value (`mju_abs`).
    abs => fabs / fabsf / abs;
    /// Natural logarithm (`mju_log`).
    log => log / logf / ln;
    /// Base-10 logarithm (`mju_log10`).
    log10 => log10 / log10f / log10;
    /// Largest integer not above `x` (`mju_floor`).
    floor => floor / floorf / floor;
    /// Smallest integer not below `x` (`mju_ceil`).
    ceil => ceil / ceilf / ceil;
}

/// `a * b + c`: a product and a sum, rounded twice as MuJoCo's C, in the exact build; with the
/// feature `fast`, rounded once where the build has a hardware fused multiply-add
/// (`math::fast::mul_add`). Kernels write their sums of products with it so
/// that one source serves both builds: `a * b + c` and `c + a * b` round alike (IEEE addition
/// commutes), so the exact build keeps MuJoCo's bits.
#[inline(always)]
pub fn madd(a: Real, b: Real, c: Real) -> Real {
    #[cfg(feature = "fast")]
    {
        super::fast::mul_add(a, b, c)
    }
    #[cfg(not(feature = "fast"))]
    {
        a * b + c
    }
}

/// Four-quadrant arc tangent of `y/x` (`mju_atan2`).
#[inline]
pub fn atan2(y: Real, x: Real) -> Real {
    #[cfg(feature = "std")]
    {
        y.atan2(x)
    }
    #[cfg(all(not(feature = "std"), not(feature = "f32")))]
    {
        libm::atan2(y, x)
    }
    #[cfg(all(not(feature = "std"), feature = "f32", not(feature = "micromath")))]
    {
        libm::atan2f(y, x)
    }
    #[cfg(all(not(feature = "std"), feature = "f32", feature = "micromath"))]
    {
        micromath::F32Ext::atan2(y, x)
    }
}

/// `x` raised to the power `y` (`mju_pow`).
#[inline]
pub fn pow(x: Real, y: Real) -> Real {
    #[cfg(feature = "std")]
    {
        x.powf(y)
    }
    #[cfg(all(not(feature = "std"), not(feature = "f32")))]
    {
        libm::pow(x, y)
    }
    #[cfg(all(not(feature = "std"), feature = "f32", not(feature = "micromath")))]
    {
        libm::powf(x, y)
    }
    #[cfg(all(not(feature = "std"), feature = "f32", feature = "micromath"))]
    {
        micromath::F32Ext::powf(x, y)
    }
}

/// The f32 functions with feature `micromath` (no `std`): micromath's approximations where it
/// has them, libm's exact `fabs`, `floor`, `ceil` and `tanh` (micromath has none); [`sqrt`]
/// stays the correctly rounded one (the factorizations need it).
#[cfg(all(not(feature = "std"), feature = "f32", feature = "micromath"))]
mod fast {
    use micromath::F32Ext;

    pub fn exp(x: f32) -> f32 {
        F32Ext::exp(x)
    }
    pub fn sin(x: f32) -> f32 {
        F32Ext::sin(x)
    }
    pub fn cos(x: f32) -> f32 {
        F32Ext::cos(x)
    }
    pub fn tan(x: f32) -> f32 {
        F32Ext::tan(x)
    }
    pub fn asin(x: f32) -> f32 {
        F32Ext::asin(x)
    }
    pub fn acos(x: f32) -> f32 {
        F32Ext::acos(x)
    }
    pub fn tanh(x: f32) -> f32 {
        libm::tanhf(x)
    }
    pub fn abs(x: f32) -> f32 {
        libm::fabsf(x)
    }
    pub fn log(x: f32) -> f32 {
        F32Ext::ln(x)
    }
    pub fn log10(x: f32) -> f32 {
        F32Ext::log10(x)
    }
    pub fn floor(x: f32) -> f32 {
        libm::floorf(x)
    }
    pub fn ceil(x: f32) -> f32 {
        libm::ceilf(x)
    }
}

/// `x / diag` in the exact build; with the feature `fast`, `math::fast::over_diag` (the
/// reciprocal's product), dispatched here as [`madd`] is.
#[inline(always)]
pub fn over_diag(x: Real, diag: Real) -> Real {
    #[cfg(feature = "fast")]
    {
        super::fast::over_diag(x, diag)
    }
    #[cfg(not(feature = "fast"))]
    {
        x / diag
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::{EPSILON, PI};

    #[test]
    fn exact_functions() {
        assert_eq!(sqrt(2.25), 1.5);
        assert_eq!(abs(-3.5), 3.5);
        assert_eq!(floor(-1.5), -2.0);
        assert_eq!(ceil(-1.5), -1.0);
    }

    #[test]
    fn transcendental_functions() {
        let close = |a: Real, b: Real| (a - b).abs() <= 4.0 * EPSILON * b.abs().max(1.0);
        assert!(close(exp(1.0), core::f64::consts::E as Real));
        assert!(close(sin(PI / 6.0), 0.5));
        assert!(close(cos(PI / 3.0), 0.5));
        assert!(close(tan(PI / 4.0), 1.0));
        assert!(close(asin(0.5), PI / 6.0));
        assert!(close(acos(0.5), PI / 3.0));
        assert!(close(atan2(1.0, -1.0), 0.75 * PI));
        assert!(close(tanh(0.5), (exp(1.0) - 1.0) / (exp(1.0) + 1.0)));
        assert!(close(pow(2.0, 10.0), 1024.0));
        assert!(close(log(core::f64::consts::E as Real), 1.0));
        assert!(close(log10(1000.0), 3.0));
    }
}
