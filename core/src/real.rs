//! The floating-point type of the simulation, `Real` (MuJoCo's `mjtNum`), and its constants.
//!
//! `Real` is `f64` by default and `f32` with the cargo feature `f32`. Algorithms are written once
//! against `Real`; tolerances derive from [`EPSILON`].

#[cfg(not(feature = "f32"))]
/// MuJoCo's `mjtNum`: `f64` in this build.
pub type Real = f64;
#[cfg(feature = "f32")]
/// MuJoCo's `mjtNum`: `f32` in this build (feature `f32`).
pub type Real = f32;

/// Bytes of one `Real`, as written in the MJB header (`sizeof(mjtNum)`).
pub const REAL_BYTES: usize = core::mem::size_of::<Real>();

/// Machine epsilon of `Real`.
pub const EPSILON: Real = Real::EPSILON;

/// Smallest value allowed in a denominator (`mjMINVAL`): 1e-15 for f64, 1e-15 for f32 as well.
pub const MINVAL: Real = 1e-15;

/// The convergence tolerance of the Newton solver for a cost change when the cost (in the
/// solver's scaled units) is `scaled_cost`: MuJoCo's `tolerance` in f64 builds, exactly; in f32
/// builds at least ten epsilons of the cost's magnitude (and of 1), because a change below
/// that is rounding noise and the solver would iterate on it (issue 8: the Gymnasium hopper
/// took 1.5 Newton iterations per step in f32 against 0.9 in f64). CG and noslip need no floor
/// here (a floor would stop CG short of f64's accuracy); PGS has its own, from the forces of
/// its rows (`solver::pgs`).
#[inline]
pub fn solver_tolerance(tolerance: Real, scaled_cost: Real) -> Real {
    #[cfg(feature = "f32")]
    {
        let noise = 10.0 * EPSILON * abs_or_one(scaled_cost);
        if tolerance < noise {
            return noise;
        }
    }
    #[cfg(not(feature = "f32"))]
    let _ = scaled_cost;
    tolerance
}

#[cfg(feature = "f32")]
fn abs_or_one(x: Real) -> Real {
    let a = if x < 0.0 { -x } else { x };
    if a > 1.0 {
        a
    } else {
        1.0
    }
}

/// Largest magnitude accepted in qpos, qvel, qacc before the simulation is declared unstable
/// (`mjMAXVAL`).
pub const MAXVAL: Real = 1e10;

/// π in `Real` precision (`mjPI`).
pub const PI: Real = core::f64::consts::PI as Real;
