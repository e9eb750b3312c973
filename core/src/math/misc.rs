//! Miscellaneous (API reference › Miscellaneous): muscle model, friction pyramids, analytic
//! spring-damper, scalar helpers, MuJoCo's random normal numbers, sorting, Halton sequence,
//! sigmoid.

use super::mat::rot_vec_mat_t;
use super::scalar::{abs, ceil, cos, exp, floor, log, sin, sqrt};
use super::vec::sub3;
use crate::real::{MAXVAL, MINVAL};
use crate::Real;

/// MuJoCo's `mjMAX(a, b)` macro: `a > b ? a : b` (unlike [`max`], `b` when they are equal or
/// unordered).
#[inline]
pub fn mj_max(a: Real, b: Real) -> Real {
    if a > b {
        a
    } else {
        b
    }
}

/// MuJoCo's `mjMIN(a, b)` macro: `a < b ? a : b` (unlike [`min`], `b` when they are equal or
/// unordered).
#[inline]
pub fn mj_min(a: Real, b: Real) -> Real {
    if a < b {
        a
    } else {
        b
    }
}

// ------------------------------------------------------------------------------------------------
// scalar helpers

/// Minimum, `a` if `a <= b` (`mju_min`).
#[inline]
pub fn min(a: Real, b: Real) -> Real {
    if a <= b {
        a
    } else {
        b
    }
}

/// Maximum, `a` if `a >= b` (`mju_max`).
#[inline]
pub fn max(a: Real, b: Real) -> Real {
    if a >= b {
        a
    } else {
        b
    }
}

/// `x` clipped to `[min, max]` (`mju_clip`).
#[inline]
pub fn clip(x: Real, min: Real, max: Real) -> Real {
    if x < min {
        min
    } else if x > max {
        max
    } else {
        x
    }
}

/// Sign of `x`: -1, 1, or 0 for zero and NaN (`mju_sign`).
#[inline]
pub fn sign(x: Real) -> Real {
    if x < 0.0 {
        -1.0
    } else if x > 0.0 {
        1.0
    } else {
        0.0
    }
}

/// Nearest integer, halves rounded up (`mju_round`).
#[inline]
pub fn round(x: Real) -> i32 {
    let (lower, upper) = (floor(x), ceil(x));
    // Saturating conversion, where C's is undefined out of range.
    if x - lower < upper - x {
        lower as i32
    } else {
        upper as i32
    }
}

/// C's conversion of a double to `int` as x86-64 does it (`cvttsd2si`): truncation, and
/// `INT_MIN` for NaN and values out of range (undefined in C; MuJoCo's build gets this).
pub fn c_int(x: f64) -> i32 {
    if x.is_nan() || x >= 2_147_483_648.0 || x <= -2_147_483_649.0 {
        i32::MIN
    } else {
        x as i32
    }
}

/// `true` if `x` is NaN or larger than `MAXVAL` in magnitude (`mju_isBad`).
#[inline]
pub fn is_bad(x: Real) -> bool {
    !(-MAXVAL..=MAXVAL).contains(&x)
}

/// `true` if all elements are zero (`mju_isZero`).
#[inline]
pub fn is_zero(vec: &[Real]) -> bool {
    vec.iter().all(|v| *v == 0.0)
}

// ------------------------------------------------------------------------------------------------
// muscles

/// Normalized muscle force-length curve, 1 at `length = 1` and 0 outside `[lmin, lmax]`, made of
/// four quadratic pieces (`mju_muscleGainLength`).
pub fn muscle_gain_length(length: Real, lmin: Real, lmax: Real) -> Real {
    if !(lmin <= length && length <= lmax) {
        return 0.0;
    }
    // Mid-points of the two halves (maximum at 1).
    let a = 0.5 * (lmin + 1.0);
    let b = 0.5 * (1.0 + lmax);
    if length <= a {
        let x = (length - lmin) / mj_max(MINVAL, a - lmin);
        0.5 * x * x
    } else if length <= 1.0 {
        let x = (1.0 - length) / mj_max(MINVAL, 1.0 - a);
        1.0 - 0.5 * x * x
    } else if length <= b {
        let x = (length - 1.0) / mj_max(MINVAL, b - 1.0);
        1.0 - 0.5 * x * x
    } else {
        let x = (lmax - length) / mj_max(MINVAL, lmax - b);
        0.5 * x * x
    }
}

/// Peak force, optimal length and normalized length of a muscle, `[force, l0, l]`; shared by
/// gain, bias and the gain's velocity derivative.
/// `prm = (range[2], force, scale, lmin, lmax, vmax, fpmax, fvmax)`.
pub fn muscle_normalize(
    len: Real,
    lengthrange: &[Real; 2],
    acc0: Real,
    prm: &[Real; 9],
) -> [Real; 3] {
    let force = if prm[2] < 0.0 {
        prm[3] / mj_max(MINVAL, acc0)
    } else {
        prm[2]
    };
    let l0 = (lengthrange[1] - lengthrange[0]) / mj_max(MINVAL, prm[1] - prm[0]);
    let l = prm[0] + (len - lengthrange[0]) / mj_max(MINVAL, l0);
    [force, l0, l]
}

/// Muscle active force (negative) at length `len` and velocity `vel` (`mju_muscleGain`);
/// `prm = (range[2], force, scale, lmin, lmax, vmax, fpmax, fvmax)`. A negative `force` is
/// replaced by `scale / acc0`.
pub fn muscle_gain(
    len: Real,
    vel: Real,
    lengthrange: &[Real; 2],
    acc0: Real,
    prm: &[Real; 9],
) -> Real {
    let [force, l0, l] = muscle_normalize(len, lengthrange, acc0, prm);
    let (lmin, lmax, vmax, fvmax) = (prm[4], prm[5], prm[6], prm[8]);
    let v = vel / mj_max(MINVAL, l0 * vmax);
    let fl = muscle_gain_length(l, lmin, lmax);

    // Force-velocity curve: 0 below -1, quadratic up to 0 and on to fvmax - 1, then fvmax.
    let y = fvmax - 1.0;
    let fv = if v <= -1.0 {
        0.0
    } else if v <= 0.0 {
        (v + 1.0) * (v + 1.0)
    } else if v <= y {
        fvmax - (y - v) * (y - v) / mj_max(MINVAL, y)
    } else {
        fvmax
    };
    -force * fl * fv
}

/// Muscle passive force (negative) at length `len` (`mju_muscleBias`): zero up to the optimal
/// length, quadratic up to `(1 + lmax) / 2`, linear beyond.
pub fn muscle_bias(len: Real, lengthrange: &[Real; 2], acc0: Real, prm: &[Real; 9]) -> Real {
    let [force, _, l] = muscle_normalize(len, lengthrange, acc0, prm);
    let (lmax, fpmax) = (prm[5], prm[7]);
    let b = 0.5 * (1.0 + lmax);
    if l <= 1.0 {
        0.0
    } else if l <= b {
        let x = (l - 1.0) / mj_max(MINVAL, b - 1.0);
        -force * fpmax * 0.5 * x * x
    } else {
        let x = (l - b) / mj_max(MINVAL, b - 1.0);
        -force * fpmax * (0.5 + x)
    }
}

/// Muscle activation time constant for the control-activation difference `dctrl`
/// (`mju_muscleDynamicsTimescale`): `tau_act` when activating, `tau_deact` when deactivating,
/// blended by a sigmoid of width `smoothing_width` if that is at least `MINVAL`.
pub fn muscle_dynamics_timescale(
    dctrl: Real,
    tau_act: Real,
    tau_deact: Real,
    smoothing_width: Real,
) -> Real {
    if smoothing_width < MINVAL {
        if dctrl > 0.0 {
            tau_act
        } else {
            tau_deact
        }
    } else {
        tau_deact + (tau_act - tau_deact) * sigmoid(dctrl / smoothing_width + 0.5)
    }
}

/// Muscle activation derivative (`mju_muscleDynamics`), with time constants scaled by the
/// activation as in Millard et al. (2013); `prm = (tau_act, tau_deact, smoothing_width)`.
pub fn muscle_dynamics(ctrl: Real, act: Real, prm: &[Real; 3]) -> Real {
    let ctrlclamp = clip(ctrl, 0.0, 1.0);
    let actclamp = clip(act, 0.0, 1.0);
    let tau_act = prm[0] * (0.5 + 1.5 * actclamp);
    let tau_deact = prm[1] / (0.5 + 1.5 * actclamp);
    let dctrl = ctrlclamp - act;
    let tau = muscle_dynamics_timescale(dctrl, tau_act, tau_deact, prm[2]);
    dctrl / mj_max(MINVAL, tau)
}

// ------------------------------------------------------------------------------------------------
// contacts and springs

/// Converts a contact force (normal, then `dim - 1` tangential components) to its pyramid
/// representation of `2 (dim - 1)` edge forces (`mju_encodePyramid`); `mu` has `dim - 1`
/// friction coefficients.
///
/// A contact of dimension 0 or 1 has no friction pyramid: nothing is written (MuJoCo's loop
/// runs zero times then).
pub fn encode_pyramid(pyramid: &mut [Real], force: &[Real], mu: &[Real], dim: usize) {
    if dim < 2 {
        return;
    }
    let a = force[0] / (dim - 1) as Real;
    for i in 0..dim - 1 {
        let b = min(a, force[i + 1] / mu[i]);
        pyramid[2 * i] = 0.5 * (a + b);
        pyramid[2 * i + 1] = 0.5 * (a - b);
    }
}

/// Converts a pyramid representation back to the contact force (`mju_decodePyramid`).
///
/// Dimension 0 writes nothing.
pub fn decode_pyramid(force: &mut [Real], pyramid: &[Real], mu: &[Real], dim: usize) {
    if dim == 0 {
        return;
    }
    if dim == 1 {
        force[0] = pyramid[0];
        return;
    }
    // the dim - 1 pairs of edges, cut once: one loop sums the normal force in the edges' order
    // and sets the tangential ones, without bounds checks
    let pairs = &pyramid.as_chunks::<2>().0[..dim - 1];
    let Some((normal, tangents)) = force[..dim].split_first_mut() else {
        return;
    };
    let mut sum = 0.0;
    for ((t, &[p0, p1]), &mu_i) in tangents.iter_mut().zip(pairs).zip(&mu[..dim - 1]) {
        sum += p0;
        sum += p1;
        *t = (p0 - p1) * mu_i;
    }
    *normal = sum;
}

/// Position at time `t` of the spring-damper `x'' = -k x - b x'` started at `pos0` with
/// velocity `vel0`, integrated analytically (`mju_springDamper`).
pub fn spring_damper(pos0: Real, vel0: Real, k: Real, b: Real, t: Real) -> Real {
    let det = b * b - 4.0 * k;
    if det > MINVAL {
        // Overdamped: c1 exp(r1 t) + c2 exp(r2 t).
        let w = sqrt(det) / 2.0;
        let r1 = -b / 2.0 + w;
        let r2 = -b / 2.0 - w;
        let c1 = (pos0 * r2 - vel0) / (r2 - r1);
        let c2 = (pos0 * r1 - vel0) / (r1 - r2);
        c1 * exp(r1 * t) + c2 * exp(r2 * t)
    } else if det >= -MINVAL {
        // Critically damped: exp(-b t / 2) (c1 + c2 t).
        let c1 = pos0;
        let c2 = vel0 + b * c1 / 2.0;
        exp(-b * t / 2.0) * (c1 + c2 * t)
    } else {
        // Underdamped: exp(-b t / 2) (c1 cos(w t) + c2 sin(w t)).
        let w = sqrt(abs(det)) / 2.0;
        let c1 = pos0;
        let c2 = (vel0 + b * c1 / 2.0) / w;
        exp(-b * t / 2.0) * (c1 * cos(w * t) + c2 * sin(w * t))
    }
}

/// Where `point` is relative to the box at `pos` with orientation `mat` and half-sizes `size`
/// (`mju_outsideBox`): 1 if outside the box inflated by `inflate`, -1 if inside the box deflated
/// by `inflate`, 0 in between. `inflate` must be at least 1 (MuJoCo raises an error otherwise;
/// here smaller values behave as 1).
pub fn outside_box(
    point: &[Real; 3],
    pos: &[Real; 3],
    mat: &[Real; 9],
    size: &[Real; 3],
    inflate: Real,
) -> i32 {
    let vec = rot_vec_mat_t(&sub3(point, pos), mat);
    let big = if inflate > 1.0 {
        size.map(|s| s * inflate)
    } else {
        *size
    };
    if (0..3).any(|i| vec[i] > big[i] || vec[i] < -big[i]) {
        return 1;
    }
    if inflate <= 1.0 {
        return -1;
    }
    let small = size.map(|s| s / inflate);
    if (0..3).all(|i| vec[i] < small[i] && vec[i] > -small[i]) {
        -1
    } else {
        0
    }
}

// ------------------------------------------------------------------------------------------------
// random numbers, sequences, sorting, sigmoid

/// The C library's `rand()` as glibc implements it (additive feedback generator of degree 31),
/// which `mju_standardNormal` calls. [`Rand::default`] is the state of a program that never
/// called `srand` (`srand(1)`), so a fresh generator reproduces MuJoCo's numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rand {
    state: [u32; 31],
    front: usize,
    rear: usize,
}

impl Rand {
    /// Largest value of [`Rand::next_int`] (`RAND_MAX`).
    pub const MAX: i32 = i32::MAX;

    /// Generator seeded like `srand(seed)`.
    pub fn new(seed: u32) -> Rand {
        let mut state = [0u32; 31];
        state[0] = if seed == 0 { 1 } else { seed };
        for i in 1..31 {
            // 16807 * state[i - 1] mod (2^31 - 1), by Schrage's method on signed words.
            let word = state[i - 1] as i32;
            let (hi, lo) = (word / 127_773, word % 127_773);
            let mut next = 16_807 * lo - 2_836 * hi;
            if next < 0 {
                next += i32::MAX;
            }
            state[i] = next as u32;
        }
        let mut rand = Rand {
            state,
            front: 3,
            rear: 0,
        };
        for _ in 0..310 {
            rand.next_int();
        }
        rand
    }

    /// Next number in `[0, Rand::MAX]` (`rand()`).
    pub fn next_int(&mut self) -> i32 {
        let sum = self.state[self.front].wrapping_add(self.state[self.rear]);
        self.state[self.front] = sum;
        self.front = (self.front + 1) % 31;
        self.rear = (self.rear + 1) % 31;
        (sum >> 1) as i32
    }
}

impl Default for Rand {
    fn default() -> Rand {
        Rand::new(1)
    }
}

/// Two independent standard normal numbers by the polar Box-Muller method
/// (`mju_standardNormal`, which returns the first and optionally stores the second), drawing
/// uniform numbers from `rng` as MuJoCo draws them from `rand()`.
pub fn standard_normal(rng: &mut Rand) -> (Real, Real) {
    // C's (mjtNum) conversion: exact for f64, rounded for f32.
    #[allow(clippy::cast_lossless)]
    let real = |i: i32| i as Real;
    let scale = 2.0 / real(Rand::MAX);
    let (x1, x2, w) = loop {
        let x1 = scale * real(rng.next_int()) - 1.0;
        let x2 = scale * real(rng.next_int()) - 1.0;
        let w = x1 * x1 + x2 * x2;
        // Rejection: keep points strictly inside the unit disk, except the center.
        if w >= 1.0 || w == 0.0 {
            continue;
        }
        break (x1, x2, w);
    };
    let w = sqrt((-2.0 * log(w)) / w);
    (x1 * w, x2 * w)
}

/// Sorts in increasing order by insertion (`mju_insertionSort`).
pub fn insertion_sort(list: &mut [Real]) {
    for i in 1..list.len() {
        let x = list[i];
        let mut j = i;
        while j > 0 && list[j - 1] > x {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = x;
    }
}

/// Sorts integers in increasing order by insertion (`mju_insertionSortInt`).
pub fn insertion_sort_int(list: &mut [i32]) {
    for i in 1..list.len() {
        let x = list[i];
        let mut j = i;
        while j > 0 && list[j - 1] > x {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = x;
    }
}

/// Element `index` of the Halton (van der Corput) sequence in `base` (`mju_Halton`).
///
/// Bases 0 and 1 have no digits (MuJoCo divides by zero or loops forever there): 0.
pub fn halton(index: usize, base: usize) -> Real {
    if base < 2 {
        return 0.0;
    }
    let b = base as Real;
    let mut f = 1.0 / b;
    let mut hn = 0.0;
    let mut n = index;
    while n > 0 {
        let digit = n % base;
        hn += f * digit as Real;
        f /= b;
        n /= base;
    }
    hn
}

/// Quintic sigmoid `6x⁵ - 15x⁴ + 10x³` on `[0, 1]`, 0 below and 1 above (`mju_sigmoid`).
#[inline]
pub fn sigmoid(x: Real) -> Real {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    x * x * x * (3.0 * x * (2.0 * x - 5.0) + 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    /// x86-64's truncating conversion, `INT_MIN` where C leaves it undefined.
    #[test]
    fn c_int_truncates_like_cvttsd2si() {
        assert_eq!(c_int(2.9), 2);
        assert_eq!(c_int(-2.9), -2);
        assert_eq!(c_int(f64::NAN), i32::MIN);
        assert_eq!(c_int(3e9), i32::MIN);
        assert_eq!(c_int(-2_147_483_648.5), i32::MIN);
    }

    #[test]
    fn degenerate_halton_bases_and_pyramids_are_harmless() {
        assert_eq!(halton(5, 0), 0.0);
        assert_eq!(halton(5, 1), 0.0);
        assert_eq!(halton(1, 2), 0.5);
        let mut pyramid = [7.0; 2];
        encode_pyramid(&mut pyramid, &[1.0], &[1.0], 0);
        encode_pyramid(&mut pyramid, &[1.0], &[1.0], 1);
        assert_eq!(pyramid, [7.0; 2]);
        let mut force = [7.0; 2];
        decode_pyramid(&mut force, &[1.0, 2.0], &[1.0], 0);
        assert_eq!(force, [7.0; 2]);
    }

    #[test]
    fn scalar_helpers() {
        assert_eq!(min(1.0, 2.0), 1.0);
        assert_eq!(max(1.0, 2.0), 2.0);
        assert!(min(Real::NAN, 1.0) == 1.0 && max(Real::NAN, 1.0) == 1.0);
        assert_eq!(clip(3.0, -1.0, 2.0), 2.0);
        assert_eq!(clip(-3.0, -1.0, 2.0), -1.0);
        assert_eq!(clip(0.5, -1.0, 2.0), 0.5);
        assert_eq!(
            (sign(-2.0), sign(3.0), sign(0.0), sign(Real::NAN)),
            (-1.0, 1.0, 0.0, 0.0)
        );
        assert_eq!(
            (round(2.5), round(-2.5), round(2.4), round(-2.6)),
            (3, -2, 2, -3)
        );
        assert!(is_bad(Real::NAN) && is_bad(2e10) && is_bad(-2e10) && !is_bad(1e10));
        assert!(is_zero(&[0.0, -0.0]) && !is_zero(&[0.0, 1e-30]) && is_zero(&[]));
    }

    #[test]
    fn muscle_curves() {
        // Force-length: 0 at and outside the range ends, 1/2 at the quarter points, 1 at 1.
        let fl = |l| muscle_gain_length(l, 0.5, 1.5);
        assert_eq!(
            [fl(0.4), fl(0.5), fl(0.75), fl(1.0), fl(1.25), fl(1.5)],
            [0.0, 0.0, 0.5, 1.0, 0.5, 0.0]
        );
        assert_eq!(fl(Real::NAN), 0.0);
        // Time scale: hard switch, or the sigmoid midpoint at dctrl = 0.
        assert_eq!(muscle_dynamics_timescale(0.1, 1.0, 3.0, 0.0), 1.0);
        assert_eq!(muscle_dynamics_timescale(-0.1, 1.0, 3.0, 0.0), 3.0);
        assert_eq!(muscle_dynamics_timescale(0.0, 1.0, 3.0, 0.5), 2.0);
    }

    #[test]
    fn sorting_and_sequences() {
        let mut v = [3.0, -1.0, 2.0, 2.0, -5.0];
        insertion_sort(&mut v);
        assert_eq!(v, [-5.0, -1.0, 2.0, 2.0, 3.0]);
        let mut w = [3, -1, 2, 2, -5];
        insertion_sort_int(&mut w);
        assert_eq!(w, [-5, -1, 2, 2, 3]);
        let h: Vec<Real> = (0..6).map(|i| halton(i, 2)).collect();
        assert_eq!(h, [0.0, 0.5, 0.25, 0.75, 0.125, 0.625]);
        assert_eq!(sigmoid(-1.0), 0.0);
        assert_eq!(sigmoid(0.5), 0.5);
        assert_eq!(sigmoid(2.0), 1.0);
    }

    #[test]
    fn glibc_rand_sequence() {
        // First outputs of glibc's rand() without srand.
        let mut r = Rand::default();
        let first: Vec<i32> = (0..5).map(|_| r.next_int()).collect();
        assert_eq!(
            first,
            [1804289383, 846930886, 1681692777, 1714636915, 1957747793]
        );
        assert_eq!(Rand::new(0), Rand::new(1));
    }

    #[test]
    fn pyramid_single_dimension() {
        let mut f = [0.0];
        decode_pyramid(&mut f, &[2.5], &[], 1);
        assert_eq!(f, [2.5]);
    }

    #[test]
    fn boxes() {
        let eye = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        let size = [1.0, 2.0, 3.0];
        let at = |p: [Real; 3], inflate| outside_box(&p, &[0.0; 3], &eye, &size, inflate);
        assert_eq!(at([0.5, 0.5, 0.5], 1.0), -1);
        assert_eq!(at([1.5, 0.5, 0.5], 1.0), 1);
        assert_eq!(at([0.95, 0.5, 0.5], 1.1), 0);
        assert_eq!(at([0.5, 0.5, 0.5], 1.1), -1);
        assert_eq!(at([1.05, 0.5, 0.5], 1.1), 0);
        assert_eq!(at([1.2, 0.5, 0.5], 1.1), 1);
    }

    // Reference values from MuJoCo 3.1.6 (`mju_muscle*`, `mju_springDamper`, `mju_*Pyramid`,
    // `mju_standardNormal`, `mju_Halton`, `mju_sigmoid`, `mju_round`).
    #[cfg(not(feature = "f32"))]
    mod reference {
        use super::super::*;

        const LR: [f64; 2] = [0.2, 0.6];
        const PRM: [f64; 9] = [0.75, 1.05, -1.0, 200.0, 0.5, 1.6, 1.5, 1.3, 1.2];
        const PRM2: [f64; 9] = [0.75, 1.05, 35.5, 200.0, 0.5, 1.6, 1.5, 1.3, 1.2];
        const GAIN_CASES: [(f64, f64); 5] = [
            (0.3, -0.7),
            (0.45, 0.1),
            (0.52, 1.3),
            (0.58, -0.05),
            (0.41, 0.9),
        ];
        const GAIN: [f64; 5] = [
            -3.6877167630057786,
            -12.179371387283235,
            -13.86173410404624,
            -10.915092124277454,
            -12.923236994219652,
        ];
        const GAIN2: [f64; 5] = [
            -11.324056249999995,
            -37.399804687499994,
            -42.56592,
            -33.517519140625,
            -39.68403,
        ];
        const BIAS: [f64; 5] = [0.0, 0.0, 0.0, -0.10228002569043111, 0.0];
        const DYN_CASES: [(f64, f64); 4] = [(0.7, 0.2), (0.1, 0.6), (1.4, -0.2), (0.5, 0.45)];
        const DYN: [f64; 4] = [62.49999999999999, -17.5, 240.0, 4.255319148936169];
        const DYN_SMOOTH: [f64; 4] = [
            62.49999999999999,
            -17.5,
            239.99999999999977,
            3.043457405986184,
        ];
        const FORCE: [f64; 6] = [3.7, 0.4, -1.1, 0.2, 0.05, -0.3];
        const MU: [f64; 5] = [0.9, 0.9, 0.005, 0.0001, 0.0001];
        const PYRAMID: [f64; 10] = [
            0.5922222222222222,
            0.14777777777777776,
            -0.24111111111111116,
            0.9811111111111112,
            0.74,
            0.0,
            0.74,
            0.0,
            -1499.6299999999999,
            1500.3699999999997,
        ];
        const DECODED: [f64; 6] = [
            3.699999999999818,
            0.39999999999999997,
            -1.1,
            0.0037,
            7.4e-05,
            -0.3,
        ];
        const SD_CASES: [(f64, f64, f64, f64, f64); 4] = [
            (0.3, -1.2, 4.0, 5.0, 0.37),
            (0.3, -1.2, 4.0, 4.0, 0.37),
            (0.3, -1.2, 40.0, 1.5, 0.37),
            (-2.0, 0.5, 0.0, 0.0, 1.5),
        ];
        const SD: [f64; 4] = [
            0.06829130651514381,
            0.03721488541064068,
            -0.24124813576970053,
            -1.25,
        ];
        const HALTON3: [f64; 8] = [
            0.0,
            0.3333333333333333,
            0.6666666666666666,
            0.1111111111111111,
            0.4444444444444444,
            0.7777777777777777,
            0.2222222222222222,
            0.5555555555555556,
        ];
        const HALTON7_1234: f64 = 0.31903373594335693;
        const SIGMOID_X: [f64; 5] = [0.1, 0.33, 0.5, 0.77, 0.999];
        const SIGMOID: [f64; 5] = [
            0.008560000000000003,
            0.20496308580000003,
            0.5,
            0.9164443441999999,
            0.999999990014995,
        ];
        const NORMALS: [(f64, f64); 6] = [
            (1.1122716058967226, -0.3453236718232663),
            (0.6080563785748072, 0.6410062294340324),
            (-0.7120823192489251, 1.159150056147156),
            (-1.718945215304998, 0.4174655261787744),
            (-0.4000535619803496, 2.2809092058394125),
            (-2.271720315488609, 0.2251451483863442),
        ];
        const NORMALS_12345: [(f64, f64); 3] = [
            (-1.1997318195326299, -0.3742486930429911),
            (-0.5388789936675249, -0.46529967630478525),
            (-0.9153375334896748, -1.1623685403014787),
        ];

        /// Within 16 ulp: these call `exp`, `sin`, `cos` or `log`, whose last bit can differ
        /// between glibc and `libm`; bit for bit with glibc's functions.
        fn ulp_close(a: f64, b: f64) -> bool {
            (a - b).abs() <= 16.0 * f64::EPSILON * b.abs()
        }

        #[test]
        fn muscles_match_mujoco_bitwise() {
            for (i, (len, vel)) in GAIN_CASES.iter().enumerate() {
                assert_eq!(muscle_gain(*len, *vel, &LR, 17.3, &PRM), GAIN[i]);
                assert_eq!(muscle_gain(*len, *vel, &LR, 17.3, &PRM2), GAIN2[i]);
                assert_eq!(muscle_bias(*len, &LR, 17.3, &PRM), BIAS[i]);
            }
            for (i, (ctrl, act)) in DYN_CASES.iter().enumerate() {
                assert_eq!(muscle_dynamics(*ctrl, *act, &[0.01, 0.04, 0.0]), DYN[i]);
                assert_eq!(
                    muscle_dynamics(*ctrl, *act, &[0.01, 0.04, 0.3]),
                    DYN_SMOOTH[i]
                );
            }
        }

        #[test]
        fn pyramid_matches_mujoco_bitwise() {
            let mut pyramid = [0.0; 10];
            encode_pyramid(&mut pyramid, &FORCE, &MU, 6);
            assert_eq!(pyramid, PYRAMID);
            let mut force = [0.0; 6];
            decode_pyramid(&mut force, &pyramid, &MU, 6);
            assert_eq!(force, DECODED);
        }

        #[test]
        fn sequences_match_mujoco_bitwise() {
            for (i, h) in HALTON3.iter().enumerate() {
                assert_eq!(halton(i, 3), *h);
            }
            assert_eq!(halton(1234, 7), HALTON7_1234);
            for (x, s) in SIGMOID_X.iter().zip(SIGMOID) {
                assert_eq!(sigmoid(*x), s);
            }
        }

        #[test]
        fn transcendental_functions_match_mujoco() {
            for (c, expected) in SD_CASES.iter().zip(SD) {
                assert!(ulp_close(spring_damper(c.0, c.1, c.2, c.3, c.4), expected));
            }
            let mut rng = Rand::default();
            for (a, b) in NORMALS {
                let (x, y) = standard_normal(&mut rng);
                assert!(ulp_close(x, a) && ulp_close(y, b));
            }
            let mut rng = Rand::new(12345);
            for (a, b) in NORMALS_12345 {
                let (x, y) = standard_normal(&mut rng);
                assert!(ulp_close(x, a) && ulp_close(y, b));
            }
        }
    }

    proptest! {
        #[test]
        fn pyramid_round_trip(
            dim in 2usize..7,
            t in prop::collection::vec(-1.0f64..1.0, 6),
            mu in prop::collection::vec(0.1f64..2.0, 6),
            normal in 0.1f64..10.0,
        ) {
            // A force inside the friction cone: |t_i| <= normal / (dim - 1) * mu_i.
            let mu: Vec<Real> = mu[..dim - 1].iter().map(|x| *x as Real).collect();
            let mut force = vec![normal as Real];
            for i in 0..dim - 1 {
                force.push(t[i] as Real * mu[i] * normal as Real / (dim - 1) as Real);
            }
            let mut pyramid = vec![0.0; 2 * (dim - 1)];
            encode_pyramid(&mut pyramid, &force, &mu, dim);
            prop_assert!(pyramid.iter().all(|p| *p >= -16.0 * EPSILON * normal as Real));
            let mut back = vec![0.0; dim];
            decode_pyramid(&mut back, &pyramid, &mu, dim);
            for (a, b) in back.iter().zip(&force) {
                prop_assert!((a - b).abs() <= 64.0 * EPSILON * b.abs().max(1.0));
            }
        }

        #[test]
        fn spring_damper_starts_at_pos0(
            pos0 in -2.0f64..2.0, vel0 in -2.0f64..2.0, k in 0.0f64..10.0, b in 0.0f64..10.0,
        ) {
            let (pos0, vel0, k, b) = (pos0 as Real, vel0 as Real, k as Real, b as Real);
            let x0 = spring_damper(pos0, vel0, k, b, 0.0);
            prop_assert!((x0 - pos0).abs() <= 1e3 * EPSILON * (1.0 + vel0.abs() + pos0.abs()));
            // Velocity at 0 by a central difference.
            let h = 1e-3;
            let v = (spring_damper(pos0, vel0, k, b, h) - spring_damper(pos0, vel0, k, b, -h)) / (2.0 * h);
            let tol = if cfg!(feature = "f32") { 0.2 } else { 1e-3 };
            prop_assert!((v - vel0).abs() <= tol * (1.0 + k + b));
        }
    }
}
