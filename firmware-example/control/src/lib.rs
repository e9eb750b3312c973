//! The firmware example's model-based controller, shared by the device (`src/main.rs`) and the
//! host (`host/`), so that both run the very same loop on the very same f32 blob.
//!
//! The task: Gymnasium's inverted double pendulum (a cart on a rail carrying two hinged poles,
//! one motor on the cart) starts with its poles tilted and must balance them upright. The
//! controller is an LQR computed *on the device from the model*: `mjd_transitionFD` linearizes
//! one step of the physics around the upright state, a Riccati iteration turns `(A, B)` into
//! gains `K`, and each step applies `u = -K dx`, clamped to the control range.
//!
//! A second task ([`pid`]) runs MuJoCo's PID actuator plugin on the device, a third
//! ([`cartpole`]) a nonlinear MPC ([`mpc`]) that plans through the mjrs model on the device.
#![no_std]

pub use mjrs_core_f32 as mj;

pub mod cartpole;
pub mod hopper;
pub mod mpc;
pub mod pid;

use mj::math::scalar;
use mj::mjb::{InPlaceModel, MjbError};
use mj::{ArenaError, Data, FdError, Model, Real};

/// An f32 MJB blob, aligned like the arrays it stores.
#[repr(C, align(8))]
pub struct Aligned<B: ?Sized>(pub B);

/// The blob in flash: `model/inverted_double_pendulum.mjb` (made by `mjrs compile --f32`), or
/// the blob `MJRS_FIRMWARE_BLOB` named at build time.
pub static BLOB: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/model.mjb")));

/// Degrees of freedom of the task's model (cart, pole, pole 2).
pub const NV: usize = 3;
/// Controls of the task's model (the cart motor).
pub const NU: usize = 1;
/// Tangent state `(qpos, qvel)` of `mjd_transitionFD`.
pub const NX: usize = 2 * NV;
/// Steps of each episode (0.01 s each).
pub const STEPS: u32 = 1000;
/// Start: the poles tilted (rad); upright is `qpos = 0`.
pub const START_QPOS: [Real; NV] = [0.0, 0.12, -0.10];
/// State weights of the LQR cost (cart, pole, pole 2, then their velocities) and the control
/// weight: the poles matter most, the cart must stay on its 1 m half-rail.
pub const Q: [Real; NX] = [1.0, 20.0, 20.0, 0.1, 0.1, 0.1];
/// Control weight of the LQR cost.
pub const R: Real = 0.5;
/// Finite-difference step: about the square root of f32's epsilon, where forward-difference
/// error (truncation plus rounding) is smallest.
pub const FD_EPS: Real = 1e-3;
/// Riccati iterations before giving up.
pub const RICCATI_MAX_ITER: u32 = 20_000;
/// Balanced: both poles within this angle of upright (rad) at the end of the episode.
pub const UPRIGHT_TOL: Real = 0.02;
/// Fallen: a pole more than this far from upright (rad) at some point.
pub const FALLEN_TILT: Real = 0.5;

/// Why the firmware stopped; [`Error::code`] is what the device reports.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Error {
    /// The blob is not a valid MJB model.
    Blob(MjbError),
    /// The static arena is too small for the model and its data.
    Memory(ArenaError),
    /// The model is not the one the controller was built for.
    Shape,
    /// A step or the finite differences failed.
    Fd(FdError),
    /// The Riccati iteration did not converge.
    Riccati,
    /// The MPC planner cannot be built with its settings (see [`mpc::MpcError`]).
    Mpc(mpc::MpcError),
}

impl Error {
    /// A small number for the log and for a status register: 1 blob, 2 memory, 3 shape,
    /// 4 physics, 5 Riccati, 6 MPC planner.
    pub fn code(&self) -> u8 {
        match self {
            Error::Blob(_) => 1,
            Error::Memory(_) => 2,
            Error::Shape => 3,
            Error::Fd(_) => 4,
            Error::Riccati => 5,
            Error::Mpc(_) => 6,
        }
    }
}

impl From<mj::forward::StepError> for Error {
    fn from(e: mj::forward::StepError) -> Self {
        Error::Fd(FdError::Step(e))
    }
}

/// Bytes of the arena each part took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Footprint {
    /// RAM of the `Model`: only the arrays it could not view in the blob in place
    /// ([`mj::mjb::in_place_ram_bytes`]; the sizes and options live in the `Model` view).
    pub model_bytes: usize,
    /// The `Data`, its arena included.
    pub data_bytes: usize,
}

/// Where a loaded `Model` and `Data` live: a `static` on the device, so that loading builds
/// the two views (hundreds of slices each, about 6 KB for the f32 build on the Cortex-M) where
/// they stay instead of moving them through the stack.
pub struct Slots<'a> {
    model: Option<InPlaceModel<'a>>,
    data: Option<Data<'a>>,
}

impl Slots<'_> {
    /// Empty slots (nothing loaded).
    pub const fn new() -> Self {
        Slots {
            model: None,
            data: None,
        }
    }
}

impl Default for Slots<'_> {
    fn default() -> Self {
        Self::new()
    }
}

/// Uses `blob` in place as the `Model` (its arrays stay in flash; the few that cannot be
/// viewed go to the front of `arena`) and makes a fresh `Data` behind it, both built in
/// `slots` (`mjb::load_in_place_into`, `Data::new_into`): loading needs a few KiB of stack
/// whatever the model. Never inlined, so that its frame is gone once it returns.
#[inline(never)]
pub fn load_into<'s, 'a>(
    slots: &'s mut Slots<'a>,
    blob: &'a [u8],
    arena: &'a mut [u8],
) -> Result<(&'s Model<'a>, &'s mut Data<'a>, Footprint), Error> {
    slots.data = None;
    let (model_bytes, data_bytes) = ram_needed(blob)?;
    let needed = model_bytes.saturating_add(data_bytes);
    if arena.len() < needed {
        return Err(Error::Memory(ArenaError::BufferTooSmall {
            needed,
            available: arena.len(),
        }));
    }
    let (mbuf, dbuf) = arena.split_at_mut(model_bytes);
    let m = mj::mjb::load_in_place_into(&mut slots.model, blob, mbuf).map_err(Error::Blob)?;
    let d = Data::new_into(&mut slots.data, m, dbuf).map_err(Error::Memory)?;
    let fp = Footprint {
        model_bytes,
        data_bytes,
    };
    Ok((&**m, d, fp))
}

/// Bytes of RAM that `blob` needs in place: its arrays that cannot be viewed, and the `Data`.
/// Never inlined, for the stack as [`load_into`].
#[inline(never)]
fn ram_needed(blob: &[u8]) -> Result<(usize, usize), Error> {
    let header = mj::mjb::read_header(blob).map_err(Error::Blob)?;
    let model_bytes = mj::mjb::in_place_ram_bytes(blob).map_err(Error::Blob)?;
    let data_bytes = Data::bytes_needed(&header.sizes).map_err(Error::Memory)?;
    Ok((model_bytes, data_bytes))
}

/// [`load_into`] returning the views by value, for the host program and boards with stack to
/// spare (the views are moved through the stack: tens of KiB of frames on the device).
pub fn load<'a>(
    blob: &'a [u8],
    arena: &'a mut [u8],
) -> Result<(InPlaceModel<'a>, Data<'a>, Footprint), Error> {
    let mut slots = Slots::new();
    let (_, _, fp) = load_into(&mut slots, blob, arena)?;
    match (slots.model, slots.data) {
        (Some(m), Some(d)) => Ok((m, d, fp)),
        _ => Err(Error::Shape),
    }
}

/// Zero-control steps of the `footprint` program, after which device and host compare
/// [`digest`]s.
pub const FOOTPRINT_STEPS: u32 = 200;

/// FNV-1a hash of the bits of `time, qpos, qvel, act` (NaN as the one quiet NaN): what the
/// `footprint` program and the host compare after [`FOOTPRINT_STEPS`] steps of a model too
/// large to log state by state.
pub fn digest(d: &Data) -> u32 {
    let values = core::iter::once(&d.time)
        .chain(d.qpos.iter())
        .chain(d.qvel.iter())
        .chain(d.act.iter());
    let mut h = mj::hash::Fnv1a32::new();
    for v in values {
        let bits = if v.is_nan() { 0x7fc0_0000 } else { v.to_bits() };
        h.write(&bits.to_le_bytes());
    }
    h.finish()
}

/// Puts `d` in the start state: reset, poles tilted, at rest.
pub fn start(m: &Model, d: &mut Data) {
    mj::io::reset_data(m, d);
    d.qpos[..NV].copy_from_slice(&START_QPOS);
}

/// LQR gains `K` (`u = -K dx`) for the upright state: the model linearized there by
/// `mjd_transitionFD` (forward differences), then the discrete Riccati equation
/// `P = Q + A'PA - A'PB (R + B'PB)^-1 B'PA` iterated to its fixed point. Returns the gains and
/// the number of iterations. `d` is left in the upright state.
pub fn lqr_gains(m: &Model, d: &mut Data) -> Result<([Real; NX], u32), Error> {
    if m.nv != NV || m.nq != NV || m.nu != NU || m.na != 0 {
        return Err(Error::Shape);
    }
    mj::io::reset_data(m, d);
    let mut a = [0.0; NX * NX];
    let mut b = [0.0; NX * NU];
    mj::transition_fd(m, d, FD_EPS, false, Some(&mut a), Some(&mut b), None, None)
        .map_err(Error::Fd)?;
    riccati(&a, &b)
}

/// Iterates the discrete Riccati equation for one control from `P = Q` until `P` stops
/// changing (relative to its size, at f32's resolution), then returns `K = (R + B'PB)^-1 B'PA`.
fn riccati(a: &[Real; NX * NX], b: &[Real; NX]) -> Result<([Real; NX], u32), Error> {
    let mut p = [[0.0; NX]; NX];
    for (i, q) in Q.iter().enumerate() {
        p[i][i] = *q;
    }
    for iter in 1..=RICCATI_MAX_ITER {
        let (k, pa) = gains(a, b, &p);
        // P' = Q + A'PA - (A'PB) K, where A'PB = (B'PA)' since P is symmetric
        let pb = mat_vec(&p, b);
        let mut next = [[0.0; NX]; NX];
        let mut change: Real = 0.0;
        let mut size: Real = 0.0;
        for i in 0..NX {
            for j in 0..NX {
                let mut apa = 0.0;
                for r in 0..NX {
                    apa += a[r * NX + i] * pa[r][j];
                }
                let apb: Real = (0..NX).map(|r| a[r * NX + i] * pb[r]).sum();
                let q = if i == j { Q[i] } else { 0.0 };
                next[i][j] = q + apa - apb * k[j];
                change = change.max((next[i][j] - p[i][j]).abs());
                size = size.max(next[i][j].abs());
            }
        }
        p = next;
        if !size.is_finite() {
            return Err(Error::Riccati);
        }
        if change <= 4.0 * Real::EPSILON * size {
            return Ok((gains(a, b, &p).0, iter));
        }
    }
    Err(Error::Riccati)
}

/// `K = (R + B'PB)^-1 B'PA` and `PA`.
fn gains(
    a: &[Real; NX * NX],
    b: &[Real; NX],
    p: &[[Real; NX]; NX],
) -> ([Real; NX], [[Real; NX]; NX]) {
    let mut pa = [[0.0; NX]; NX];
    for i in 0..NX {
        for j in 0..NX {
            pa[i][j] = (0..NX).map(|r| p[i][r] * a[r * NX + j]).sum();
        }
    }
    let pb = mat_vec(p, b);
    let s = R + (0..NX).map(|i| b[i] * pb[i]).sum::<Real>();
    let mut k = [0.0; NX];
    for j in 0..NX {
        k[j] = (0..NX).map(|i| b[i] * pa[i][j]).sum::<Real>() / s;
    }
    (k, pa)
}

fn mat_vec(p: &[[Real; NX]; NX], v: &[Real; NX]) -> [Real; NX] {
    let mut out = [0.0; NX];
    for (o, row) in out.iter_mut().zip(p) {
        *o = row.iter().zip(v).map(|(x, y)| x * y).sum();
    }
    out
}

/// The control `u = -K dx` for the state of `d`, clamped to the motor's range.
pub fn control(m: &Model, d: &Data, k: &[Real; NX]) -> Real {
    let dx = d.qpos[..NV].iter().chain(&d.qvel[..NV]);
    let u: Real = -k.iter().zip(dx).map(|(k, x)| k * x).sum::<Real>();
    let (lo, hi) = (m.actuator_ctrlrange[0], m.actuator_ctrlrange[1]);
    u.clamp(lo, hi)
}

/// One logged state: the step and the bits of time, qpos, qvel and ctrl, NaN written as the
/// one quiet NaN (payload bits are not part of the comparison).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// Steps taken.
    pub step: u32,
    /// `time, qpos[3], qvel[3], ctrl[1]` as f32 bits (the PID task: see [`pid::episode`]).
    pub bits: [u32; 2 + 2 * NV],
}

impl Sample {
    fn of(step: u32, d: &Data) -> Sample {
        let mut values = [0.0; 2 + 2 * NV];
        let state = core::iter::once(&d.time)
            .chain(&d.qpos[..NV])
            .chain(&d.qvel[..NV])
            .chain(&d.ctrl[..NU]);
        for (v, s) in values.iter_mut().zip(state) {
            *v = *s;
        }
        Sample::of_values(step, &values)
    }

    /// The bits of eight values (another task's choice of state).
    pub fn of_values(step: u32, values: &[Real; 2 + 2 * NV]) -> Sample {
        let bits = values.map(|v| if v.is_nan() { 0x7fc0_0000 } else { v.to_bits() });
        Sample { step, bits }
    }
}

/// How an episode went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// Largest tilt of either pole from upright during the episode (rad).
    pub max_tilt: Real,
    /// Tilt of the lower and of the upper pole from upright at the end (rad).
    pub final_tilt: [Real; 2],
    /// Cart position at the end (m).
    pub final_cart: Real,
    /// Both poles within [`UPRIGHT_TOL`] of upright at the end and never fallen.
    pub balanced: bool,
    /// Some pole tilted past [`FALLEN_TILT`].
    pub fallen: bool,
}

/// Tilt of each pole from upright: the lower pole's hinge angle, and the upper pole's absolute
/// angle (both hinges), each wrapped to `[-pi, pi]`.
fn tilts(d: &Data) -> [Real; 2] {
    let wrap = |x: Real| scalar::atan2(scalar::sin(x), scalar::cos(x));
    [wrap(d.qpos[1]).abs(), wrap(d.qpos[1] + d.qpos[2]).abs()]
}

/// Runs [`STEPS`] steps from [`start`], with the LQR `gains` or with zero control, calling
/// `sample` after every step.
pub fn episode(
    m: &Model,
    d: &mut Data,
    gains: Option<&[Real; NX]>,
    mut sample: impl FnMut(&Sample),
) -> Result<Outcome, Error> {
    start(m, d);
    let mut max_tilt: Real = 0.0;
    for step in 1..=STEPS {
        d.ctrl[0] = gains.map_or(0.0, |k| control(m, d, k));
        mj::step(m, d)?;
        let [t1, t2] = tilts(d);
        max_tilt = max_tilt.max(t1).max(t2);
        sample(&Sample::of(step, d));
    }
    let final_tilt = tilts(d);
    let fallen = max_tilt > FALLEN_TILT;
    Ok(Outcome {
        max_tilt,
        final_tilt,
        final_cart: d.qpos[0],
        balanced: !fallen && final_tilt[0] < UPRIGHT_TOL && final_tilt[1] < UPRIGHT_TOL,
        fallen,
    })
}
