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

/// Largest magnitude accepted in qpos, qvel, qacc before the simulation is declared unstable
/// (`mjMAXVAL`).
pub const MAXVAL: Real = 1e10;

/// π in `Real` precision (`mjPI`).
pub const PI: Real = core::f64::consts::PI as Real;
