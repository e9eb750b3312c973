//! Finite-difference derivatives of one step (MuJoCo's `engine_derivative_fd.c`:
//! `mjd_transitionFD` and its worker `mjd_stepFD`; "Computation › Derivatives").
//!
//! The step is linearized around the current state `x = (qpos, qvel, act)` and control `u`:
//! `dx_next = A dx + B du` and `d sensordata = C dx + D du`, where `dx` lives in the tangent
//! space (`2 nv + na`: quaternions are perturbed by [`integrate_pos`] and differenced by
//! [`differentiate_pos`]). Each input is nudged by `eps` in turn — controls, activations,
//! velocities, then positions — and the step is re-run skipping the stages the nudge cannot
//! change ([`step_skip`]); after each nudge the state is restored exactly (time, physics
//! state, plugin state, controls and the warm start).
//!
//!
//! [`inverse_fd`] (`mjd_inverseFD`) linearizes inverse dynamics the same way: the force
//! `qfrc_inverse`, the sensors and the mass matrix as functions of `(qpos, qvel, qacc)`.

use crate::actuation::fwd_actuation;
use crate::arena::{ArenaError, Reservation};
use crate::data::Data;
use crate::error::StepError;
use crate::forward::step_skip;
use crate::inverse::inverse_skip;
use crate::model::Model;
use crate::real::Real;
use crate::state::{get_state, set_state, state_size};
use crate::support::{differentiate_pos, disabled, integrate_pos};
use crate::types::*;

/// Why finite differencing could not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FdError {
    /// A step failed (or the arena ran out); the data is restored to its state before the call.
    Step(StepError),
    /// The model uses an option finite differencing of inverse dynamics cannot handle (the RK4
    /// integrator, the noslip solver); MuJoCo's message.
    Unsupported(&'static str),
    /// An output matrix has the wrong number of elements.
    OutputSize {
        /// Which matrix: `"A"`, `"B"`, `"C"`, `"D"`, or `"DfDq"`, `"DsDv"`... of [`inverse_fd`].
        matrix: &'static str,
        /// Elements it needs (rows times columns).
        needed: usize,
        /// Elements the caller gave.
        got: usize,
    },
}

impl From<StepError> for FdError {
    fn from(e: StepError) -> Self {
        FdError::Step(e)
    }
}

impl From<ArenaError> for FdError {
    fn from(e: ArenaError) -> Self {
        FdError::Step(StepError::Arena(e))
    }
}

impl core::error::Error for FdError {}

impl core::fmt::Display for FdError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FdError::Step(e) => write!(f, "{e}"),
            FdError::Unsupported(what) => f.write_str(what),
            FdError::OutputSize {
                matrix,
                needed,
                got,
            } => {
                write!(f, "matrix {matrix} has {got} elements, needs {needed}")
            }
        }
    }
}

/// The Jacobians a caller asked for, in the control-theory layout, row-major: `a` is
/// `(2nv+na) x (2nv+na)`, `b` is `(2nv+na) x nu`, `c` is `nsensordata x (2nv+na)`, `d` is
/// `nsensordata x nu`. MuJoCo's worker fills their transposes one row per nudged input; here
/// each difference is written straight into its column, which is the same numbers.
struct Outputs<'o> {
    a: Option<&'o mut [Real]>,
    b: Option<&'o mut [Real]>,
    c: Option<&'o mut [Real]>,
    d: Option<&'o mut [Real]>,
}

/// Writes `v` into column `col` of the row-major matrix `mat` with `ncol` columns.
fn set_column(mat: &mut [Real], ncol: usize, col: usize, v: &[Real]) {
    for (row, &x) in v.iter().enumerate() {
        mat[row * ncol + col] = x;
    }
}

/// Where each scratch vector lies in the reserved block (`nx = nq + nv + na` for states,
/// `ndx = 2 nv + na` for their differences).
#[derive(Clone, Copy)]
struct Scratch {
    nfull: usize,
    nx: usize,
    ndx: usize,
    ns: usize,
    nu: usize,
    nv: usize,
}

/// The scratch vectors, cut from the reserved block.
struct Vectors<'b> {
    /// The state restored after every nudge.
    full: &'b mut [Real],
    /// Nominal next state and its sensors.
    next: &'b mut [Real],
    sensor: &'b mut [Real],
    /// Next state and sensors after the forward and the backward nudge.
    plus: &'b mut [Real],
    sensor_plus: &'b mut [Real],
    minus: &'b mut [Real],
    sensor_minus: &'b mut [Real],
    /// Nominal controls.
    ctrl: &'b mut [Real],
    /// Position perturbation (a unit vector in the tangent space).
    dpos: &'b mut [Real],
    /// One column of the state and of the sensor Jacobians.
    ds: &'b mut [Real],
    dsens: &'b mut [Real],
}

impl Scratch {
    fn len(&self) -> usize {
        self.nfull + 3 * self.nx + 4 * self.ns + self.nu + self.nv + self.ndx
    }

    fn split<'b>(&self, buf: &'b mut [Real]) -> Vectors<'b> {
        let (full, rest) = buf.split_at_mut(self.nfull);
        let (next, rest) = rest.split_at_mut(self.nx);
        let (plus, rest) = rest.split_at_mut(self.nx);
        let (minus, rest) = rest.split_at_mut(self.nx);
        let (sensor, rest) = rest.split_at_mut(self.ns);
        let (sensor_plus, rest) = rest.split_at_mut(self.ns);
        let (sensor_minus, rest) = rest.split_at_mut(self.ns);
        let (dsens, rest) = rest.split_at_mut(self.ns);
        let (ctrl, rest) = rest.split_at_mut(self.nu);
        let (dpos, ds) = rest.split_at_mut(self.nv);
        Vectors {
            full,
            next,
            sensor,
            plus,
            sensor_plus,
            minus,
            sensor_minus,
            ctrl,
            dpos,
            ds,
            dsens,
        }
    }
}

/// Runs `f` with the data and the scratch vectors of reservation `r` (the arena is detached
/// meanwhile, so `f` must not run pipeline stages).
fn with_scratch<R>(
    d: &mut Data,
    r: &Reservation,
    s: &Scratch,
    f: impl FnOnce(&mut Data, Vectors) -> R,
) -> R {
    with_block(d, r, s.len(), |d, block| f(d, s.split(block)))
}

/// Runs `f` with the data and the first `len` numbers of reservation `r`, the arena detached.
fn with_block<R>(
    d: &mut Data,
    r: &Reservation,
    len: usize,
    f: impl FnOnce(&mut Data, &mut [Real]) -> R,
) -> R {
    let mut detached = d.arena.detach();
    let out = f(d, detached.reserved::<Real>(r, len));
    d.arena.attach(detached);
    out
}

/// Checks that an output the caller gave has `needed` elements.
fn check_len(matrix: &'static str, out: Option<&[Real]>, needed: usize) -> Result<(), FdError> {
    match out {
        Some(out) if out.len() != needed => Err(FdError::OutputSize {
            matrix,
            needed,
            got: out.len(),
        }),
        _ => Ok(()),
    }
}

/// `dx = (x2 - x1) / h`, as `(1/h) (x2 - x1)`.
fn diff(dx: &mut [Real], x1: &[Real], x2: &[Real], h: Real) {
    let inv_h = 1.0 / h;
    for ((d, &a), &b) in dx.iter_mut().zip(x1).zip(x2) {
        *d = inv_h * (b - a);
    }
}

/// Difference of two states `(s2 - s1) / h` in the tangent space.
fn state_diff(m: &Model, ds: &mut [Real], s1: &[Real], s2: &[Real], h: Real) {
    let (nq, nv) = (m.nq, m.nv);
    if nq == nv {
        diff(ds, s1, s2, h);
    } else {
        differentiate_pos(m, &mut ds[..nv], h, &s1[..nq], &s2[..nq]);
        diff(&mut ds[nv..], &s1[nq..], &s2[nq..], h);
    }
}

/// Which nudges of an input were made.
#[derive(Clone, Copy)]
struct Nudges {
    forward: bool,
    backward: bool,
    /// A control: centered sensor differences take MuJoCo 3.1.6's reversed sign (see
    /// [`clamped_diff`]).
    control: bool,
}

impl Nudges {
    /// Forward differences, plus backward ones when centered.
    fn both_if(centered: bool) -> Self {
        Nudges {
            forward: true,
            backward: centered,
            control: false,
        }
    }
}

/// Forward, backward or centered difference of the outputs of the nudges made (zeros when
/// none could be made); `n` is the nominal output, `state` the model when the outputs are
/// states (differenced in the tangent space).
///
/// MuJoCo 3.1.6 quirk, kept for identical numbers: the centered difference of the sensors
/// for a control (the matrix `D`) is `(minus - plus) / 2h`, the negative of the derivative;
/// states (`B`) and the sensor columns of the other inputs (`C`) have the right sign.
fn clamped_diff(
    dx: &mut [Real],
    n: &[Real],
    plus: &[Real],
    minus: &[Real],
    h: Real,
    nudges: Nudges,
    state: Option<&Model>,
) {
    let (x1, x2, h) = match (nudges.forward, nudges.backward) {
        (true, false) => (n, plus, h),
        (false, true) => (minus, n, h),
        (true, true) if nudges.control && state.is_none() => (plus, minus, 2.0 * h),
        (true, true) => (minus, plus, 2.0 * h),
        (false, false) => {
            dx.fill(0.0);
            return;
        }
    };
    match state {
        Some(m) => state_diff(m, dx, x1, x2, h),
        None => diff(dx, x1, x2, h),
    }
}

/// Does the interval `[x1, x2]` lie inside `range`?
fn in_range(x1: Real, x2: Real, range: &[Real]) -> bool {
    x1 >= range[0] && x1 <= range[1] && x2 >= range[0] && x2 <= range[1]
}

/// The finite-difference run: the data, the scratch block and what it shares between nudges.
struct Run<'r> {
    m: &'r Model<'r>,
    r: &'r Reservation,
    s: Scratch,
    spec: i32,
    skipsensor: bool,
}

impl Run<'_> {
    /// Puts back the saved state.
    fn restore(&self, d: &mut Data) {
        let (m, spec) = (self.m, self.spec);
        with_scratch(d, self.r, &self.s, |d, v| {
            let restored = set_state(m, d, v.full, spec);
            debug_assert!(restored.is_ok());
        });
    }

    /// Applies `nudge`, steps skipping the stages before `skipstage`, records the next state
    /// and sensors as the forward (`plus`) or backward output, and restores the state.
    fn nudged_step(
        &self,
        d: &mut Data,
        skipstage: i32,
        plus: bool,
        nudge: impl FnOnce(&mut Data, &mut [Real]),
    ) -> Result<(), StepError> {
        with_scratch(d, self.r, &self.s, |d, v| nudge(d, v.dpos));
        let stepped = step_skip(self.m, d, skipstage, self.skipsensor);
        if stepped.is_ok() {
            let skipsensor = self.skipsensor;
            with_scratch(d, self.r, &self.s, |d, v| {
                let (x, s) = if plus {
                    (v.plus, v.sensor_plus)
                } else {
                    (v.minus, v.sensor_minus)
                };
                physics_state(d, x);
                if !skipsensor {
                    s.copy_from_slice(d.sensordata);
                }
            });
        }
        self.restore(d);
        stepped
    }

    /// Differences the nudges of input `col` (of `ncol`) and writes the state column into
    /// `dy` and the sensor column into `ds` (the matrices that were asked for).
    #[allow(clippy::too_many_arguments)]
    fn write_columns(
        &self,
        d: &mut Data,
        nudges: Nudges,
        eps: Real,
        col: usize,
        ncol: usize,
        dy: Option<&mut [Real]>,
        ds: Option<&mut [Real]>,
    ) {
        let m = self.m;
        with_scratch(d, self.r, &self.s, |_, v| {
            if let Some(dy) = dy {
                clamped_diff(v.ds, v.next, v.plus, v.minus, eps, nudges, Some(m));
                set_column(dy, ncol, col, v.ds);
            }
            if let Some(ds) = ds {
                clamped_diff(
                    v.dsens,
                    v.sensor,
                    v.sensor_plus,
                    v.sensor_minus,
                    eps,
                    nudges,
                    None,
                );
                set_column(ds, ncol, col, v.dsens);
            }
        });
    }
}

/// Copies `(qpos, qvel, act)` of `d` into `x` (`mj_getState` with `STATE_PHYSICS`).
fn physics_state(d: &Data, x: &mut [Real]) {
    let (nq, nv) = (d.qpos.len(), d.qvel.len());
    x[..nq].copy_from_slice(d.qpos);
    x[nq..nq + nv].copy_from_slice(d.qvel);
    x[nq + nv..].copy_from_slice(d.act);
}

/// One input vector of the data, nudged element by element.
type InputField = for<'d, 'a> fn(&'d mut Data<'a>) -> &'d mut [Real];

/// The activations of `d`, an input of [`transition_fd`].
fn act_of<'d>(d: &'d mut Data<'_>) -> &'d mut [Real] {
    d.act
}

/// The velocities of `d`, an input of both finite differences.
fn qvel_of<'d>(d: &'d mut Data<'_>) -> &'d mut [Real] {
    d.qvel
}

/// The accelerations of `d`, an input of [`inverse_fd`].
fn qacc_of<'d>(d: &'d mut Data<'_>) -> &'d mut [Real] {
    d.qacc
}

/// Finite-difference transition and observation matrices of one step (`mjd_transitionFD`):
/// `dx_next = A dx + B du`, `d sensordata = C dx + D du` around the current state and
/// controls, with `x = (qpos, qvel, act)` differenced in the tangent space (`2 nv + na`).
///
/// Every output is optional and row-major: `a` is `(2nv+na) x (2nv+na)`, `b` is
/// `(2nv+na) x nu`, `c` is `nsensordata x (2nv+na)`, `d` is `nsensordata x nu`. `eps` is
/// the perturbation; `centered` takes centered instead of forward differences (controls at a
/// limit of their `ctrlrange` fall back to one-sided differences, or zeros when neither side
/// fits). Sensors are computed only when `c` or `d` is asked for.
///
/// Scratch memory comes from the data's arena. The data's state (time, qpos, qvel, act,
/// plugin state, ctrl and, unless warm starts are disabled, `qacc_warmstart`) is the same
/// afterwards; the other fields hold the results of the last nudged step, as in MuJoCo.
#[allow(clippy::too_many_arguments)]
pub fn transition_fd(
    m: &Model,
    d: &mut Data,
    eps: Real,
    centered: bool,
    a: Option<&mut [Real]>,
    b: Option<&mut [Real]>,
    c: Option<&mut [Real]>,
    dd: Option<&mut [Real]>,
) -> Result<(), FdError> {
    if d.sizes() != m.sizes() {
        return Err(StepError::ModelMismatch.into());
    }
    let (nv, na, nu, ns) = (m.nv, m.na, m.nu, m.nsensordata);
    let ndx = 2 * nv + na;
    check_len("A", a.as_deref(), ndx * ndx)?;
    check_len("B", b.as_deref(), ndx * nu)?;
    check_len("C", c.as_deref(), ns * ndx)?;
    check_len("D", dd.as_deref(), ns * nu)?;
    step_fd(m, d, eps, centered, Outputs { a, b, c, d: dd })
}

/// The worker (`mjd_stepFD`): the nominal step, then the nudges of controls, activations,
/// velocities and positions, each differenced into the columns of the outputs asked for.
fn step_fd(
    m: &Model,
    d: &mut Data,
    eps: Real,
    centered: bool,
    mut out: Outputs,
) -> Result<(), FdError> {
    let mut spec = STATE_FULLPHYSICS | STATE_CTRL;
    if !disabled(m, DSBL_WARMSTART) {
        spec |= STATE_WARMSTART;
    }
    let skipsensor = out.c.is_none() && out.d.is_none();
    let s = Scratch {
        nfull: state_size(m, spec).unwrap_or(0),
        nx: m.nq + m.nv + m.na,
        ndx: 2 * m.nv + m.na,
        ns: if skipsensor { 0 } else { m.nsensordata },
        nu: m.nu,
        nv: m.nv,
    };
    let r = d.arena.reserve::<Real>(s.len())?;
    let run = Run {
        m,
        r: &r,
        s,
        spec,
        skipsensor,
    };
    let result = nudge_all(&run, d, eps, centered, &mut out);
    d.arena.release(r);
    result.map_err(FdError::Step)
}

fn nudge_all(
    run: &Run,
    d: &mut Data,
    eps: Real,
    centered: bool,
    out: &mut Outputs,
) -> Result<(), StepError> {
    let m = run.m;
    let (nv, na, nu) = (m.nv, m.na, m.nu);
    let ndx = 2 * nv + na;
    let skipsensor = run.skipsensor;

    // save the inputs, step, record the nominal outputs, restore
    let spec = run.spec;
    with_scratch(d, run.r, &run.s, |d, v| {
        let saved = get_state(m, d, v.full, spec);
        debug_assert!(saved.is_ok());
        v.ctrl.copy_from_slice(d.ctrl);
    });
    let stepped = step_skip(m, d, STAGE_NONE, skipsensor);
    if stepped.is_ok() {
        with_scratch(d, run.r, &run.s, |d, v| {
            physics_state(d, v.next);
            if !skipsensor {
                v.sensor.copy_from_slice(d.sensordata);
            }
        });
    }
    run.restore(d);
    stepped?;

    // controls: velocities are current; a nudge must stay inside the control range
    if out.b.is_some() || out.d.is_some() {
        for i in 0..nu {
            let limited = m.actuator_ctrllimited[i] != 0;
            let range = &m.actuator_ctrlrange[2 * i..2 * i + 2];
            let ctrl = with_scratch(d, run.r, &run.s, |_, v| v.ctrl[i]);
            let forward = !limited || in_range(ctrl, ctrl + eps, range);
            if forward {
                run.nudged_step(d, STAGE_VEL, true, |d, _| d.ctrl[i] += eps)?;
            }
            let backward =
                (centered || !forward) && (!limited || in_range(ctrl - eps, ctrl, range));
            if backward {
                run.nudged_step(d, STAGE_VEL, false, |d, _| d.ctrl[i] -= eps)?;
            }
            let nudges = Nudges {
                forward,
                backward,
                control: true,
            };
            run.write_columns(
                d,
                nudges,
                eps,
                i,
                nu,
                out.b.as_deref_mut(),
                out.d.as_deref_mut(),
            );
        }
    }

    // activations (velocities are current), then velocities (positions are current)
    if out.a.is_some() || out.c.is_some() {
        let inputs: [(InputField, i32, usize); 2] =
            [(act_of, STAGE_VEL, 2 * nv), (qvel_of, STAGE_POS, nv)];
        for (field, skipstage, col0) in inputs {
            for i in 0..field(d).len() {
                run.nudged_step(d, skipstage, true, |d, _| field(d)[i] += eps)?;
                if centered {
                    run.nudged_step(d, skipstage, false, |d, _| field(d)[i] -= eps)?;
                }
                run.write_columns(
                    d,
                    Nudges::both_if(centered),
                    eps,
                    col0 + i,
                    ndx,
                    out.a.as_deref_mut(),
                    out.c.as_deref_mut(),
                );
            }
        }
    }

    // positions: everything is recomputed; quaternions move on the unit sphere
    if out.a.is_some() || out.c.is_some() {
        for i in 0..nv {
            for (plus, h) in [(true, eps), (false, -eps)] {
                if !plus && !centered {
                    break;
                }
                run.nudged_step(d, STAGE_NONE, plus, |d, dpos| {
                    dpos.fill(0.0);
                    dpos[i] = 1.0;
                    integrate_pos(m, d.qpos, dpos, h);
                })?;
            }
            let nudges = Nudges::both_if(centered);
            run.write_columns(
                d,
                nudges,
                eps,
                i,
                ndx,
                out.a.as_deref_mut(),
                out.c.as_deref_mut(),
            );
        }
    }
    Ok(())
}

/// The Jacobians of inverse dynamics to compute with [`inverse_fd`]; each is optional
/// (`None` skips it). MuJoCo's layout, transposed with respect to the control-theory
/// convention: row `i` holds the derivatives with respect to input `i`, row-major.
/// `dfd*` are `nv x nv` (of `qfrc_inverse`), `dsd*` are `nv x nsensordata`, `dmdq` is
/// `nv x nM` (of the sparse `qM`); `q`, `v` and `a` stand for `qpos` (in the tangent space),
/// `qvel` and `qacc`.
#[derive(Default)]
pub struct InverseJacobians<'o> {
    /// d qfrc_inverse / d qpos.
    pub dfdq: Option<&'o mut [Real]>,
    /// d qfrc_inverse / d qvel.
    pub dfdv: Option<&'o mut [Real]>,
    /// d qfrc_inverse / d qacc.
    pub dfda: Option<&'o mut [Real]>,
    /// d sensordata / d qpos.
    pub dsdq: Option<&'o mut [Real]>,
    /// d sensordata / d qvel.
    pub dsdv: Option<&'o mut [Real]>,
    /// d sensordata / d qacc.
    pub dsda: Option<&'o mut [Real]>,
    /// d qM / d qpos.
    pub dmdq: Option<&'o mut [Real]>,
}

impl InverseJacobians<'_> {
    fn check(&self, m: &Model) -> Result<(), FdError> {
        let (nv, ns) = (m.nv, m.nsensordata);
        check_len("DfDq", self.dfdq.as_deref(), nv * nv)?;
        check_len("DfDv", self.dfdv.as_deref(), nv * nv)?;
        check_len("DfDa", self.dfda.as_deref(), nv * nv)?;
        check_len("DsDq", self.dsdq.as_deref(), nv * ns)?;
        check_len("DsDv", self.dsdv.as_deref(), nv * ns)?;
        check_len("DsDa", self.dsda.as_deref(), nv * ns)?;
        check_len("DmDq", self.dmdq.as_deref(), nv * m.nM)
    }

    fn sensors(&self) -> bool {
        self.dsdq.is_some() || self.dsdv.is_some() || self.dsda.is_some()
    }

    /// Is a Jacobian with respect to `input` asked for?
    fn wants(&self, input: Input) -> bool {
        match input {
            Input::Pos => self.dfdq.is_some() || self.dsdq.is_some() || self.dmdq.is_some(),
            Input::Vel => self.dfdv.is_some() || self.dsdv.is_some(),
            Input::Acc => self.dfda.is_some() || self.dsda.is_some(),
        }
    }
}

/// Finite-difference Jacobians of inverse dynamics (`mjd_inverseFD`): of `qfrc_inverse`, of
/// the sensors and of the mass matrix with respect to `qpos`, `qvel` and `qacc`, by forward
/// differences with step `eps` around the current state (call [`forward`](crate::forward())
/// first for the `qacc` of the forward dynamics, or set `qacc` to any acceleration). With
/// `flg_actuation`, the force is `qfrc_inverse - qfrc_actuator` (what the actuators do not
/// supply). Sensors are computed only when a sensor Jacobian is asked for.
///
/// The RK4 integrator and the noslip solver are refused ([`FdError::Unsupported`]), as in
/// MuJoCo. Scratch memory comes from the data's arena. `qpos`, `qvel` and `qacc` are the same
/// afterwards (also after an error); the other fields hold the results of the last nudge, as
/// in MuJoCo.
pub fn inverse_fd(
    m: &Model,
    d: &mut Data,
    eps: Real,
    flg_actuation: bool,
    mut out: InverseJacobians,
) -> Result<(), FdError> {
    if d.sizes() != m.sizes() {
        return Err(StepError::ModelMismatch.into());
    }
    if m.opt.integrator == INT_RK4 {
        return Err(FdError::Unsupported("RK4 integrator is not supported"));
    }
    if m.opt.noslip_iterations > 0 {
        return Err(FdError::Unsupported("noslip solver is not supported"));
    }
    out.check(m)?;
    let skipsensor = !out.sensors();
    let s = InverseScratch {
        nq: m.nq,
        nv: m.nv,
        ns: if skipsensor { 0 } else { m.nsensordata },
        nm: if out.dmdq.is_some() { m.nM } else { 0 },
    };
    let r = d.arena.reserve::<Real>(s.len())?;
    let run = InverseRun {
        m,
        r: &r,
        s,
        skipsensor,
        actuation: flg_actuation,
    };
    let result = run.all(d, eps, &mut out);
    d.arena.release(r);
    result.map_err(FdError::Step)
}

/// Where the scratch vectors of [`inverse_fd`] lie in its reserved block.
#[derive(Clone, Copy)]
struct InverseScratch {
    nq: usize,
    nv: usize,
    ns: usize,
    nm: usize,
}

/// The scratch vectors of [`inverse_fd`].
struct InverseVectors<'b> {
    /// The positions restored after every position nudge.
    pos: &'b mut [Real],
    /// Nominal force, sensors and mass matrix.
    force: &'b mut [Real],
    sensor: &'b mut [Real],
    mass: &'b mut [Real],
    /// Force after a nudge.
    force_plus: &'b mut [Real],
    /// Position perturbation (a unit vector in the tangent space).
    dpos: &'b mut [Real],
}

impl InverseScratch {
    fn len(&self) -> usize {
        self.nq + 3 * self.nv + self.ns + self.nm
    }

    fn split<'b>(&self, buf: &'b mut [Real]) -> InverseVectors<'b> {
        let (pos, rest) = buf.split_at_mut(self.nq);
        let (force, rest) = rest.split_at_mut(self.nv);
        let (force_plus, rest) = rest.split_at_mut(self.nv);
        let (dpos, rest) = rest.split_at_mut(self.nv);
        let (sensor, mass) = rest.split_at_mut(self.ns);
        InverseVectors {
            pos,
            force,
            sensor,
            mass,
            force_plus,
            dpos,
        }
    }
}

/// One run of [`inverse_fd`].
struct InverseRun<'r> {
    m: &'r Model<'r>,
    r: &'r Reservation,
    s: InverseScratch,
    skipsensor: bool,
    actuation: bool,
}

/// Which input a row of the Jacobians differentiates.
#[derive(Clone, Copy, PartialEq)]
enum Input {
    Pos,
    Vel,
    Acc,
}

impl InverseRun<'_> {
    fn with<R>(&self, d: &mut Data, f: impl FnOnce(&mut Data, InverseVectors) -> R) -> R {
        let s = self.s;
        with_block(d, self.r, s.len(), |d, block| f(d, s.split(block)))
    }

    /// Inverse dynamics skipping the stages before `skipstage`, then the force (minus the
    /// actuator force with `flg_actuation`) into `force_plus`, or, for the nominal point,
    /// into `force` with the sensors and the mass matrix.
    fn evaluate(&self, d: &mut Data, skipstage: i32, nominal: bool) -> Result<(), StepError> {
        inverse_skip(self.m, d, skipstage, self.skipsensor)?;
        if self.actuation {
            fwd_actuation(self.m, d)?;
        }
        let actuation = self.actuation;
        self.with(d, |d, v| {
            let force = if nominal { v.force } else { v.force_plus };
            force.copy_from_slice(d.qfrc_inverse);
            if actuation {
                for (f, &a) in force.iter_mut().zip(d.qfrc_actuator.iter()) {
                    *f -= a;
                }
            }
            if nominal {
                v.sensor.copy_from_slice(&d.sensordata[..v.sensor.len()]);
                v.mass.copy_from_slice(&d.qM[..v.mass.len()]);
            }
        });
        Ok(())
    }

    /// Row `i` of the Jacobians of `input` that were asked for, from the last evaluation.
    fn write_rows(
        &self,
        d: &mut Data,
        input: Input,
        i: usize,
        eps: Real,
        out: &mut InverseJacobians,
    ) {
        let (df, ds) = match input {
            Input::Pos => (out.dfdq.as_deref_mut(), out.dsdq.as_deref_mut()),
            Input::Vel => (out.dfdv.as_deref_mut(), out.dsdv.as_deref_mut()),
            Input::Acc => (out.dfda.as_deref_mut(), out.dsda.as_deref_mut()),
        };
        let dm = if input == Input::Pos {
            out.dmdq.as_deref_mut()
        } else {
            None
        };
        self.with(d, |d, v| {
            let rows = [
                (df, &*v.force, &*v.force_plus),
                (ds, &*v.sensor, &*d.sensordata),
                (dm, &*v.mass, &*d.qM),
            ];
            for (mat, nominal, nudged) in rows {
                if let Some(mat) = mat {
                    let n = nominal.len();
                    diff(&mut mat[i * n..(i + 1) * n], nominal, &nudged[..n], eps);
                }
            }
        });
    }

    /// The nominal point, then the nudges of accelerations, velocities and positions, each
    /// only when a Jacobian of that input was asked for.
    fn all(&self, d: &mut Data, eps: Real, out: &mut InverseJacobians) -> Result<(), StepError> {
        let (m, nv) = (self.m, self.m.nv);
        self.with(d, |d, v| v.pos.copy_from_slice(d.qpos));
        self.evaluate(d, STAGE_NONE, true)?;

        // accelerations (velocity results are current), then velocities (positions are)
        let inputs: [(Input, InputField, i32); 2] = [
            (Input::Acc, qacc_of, STAGE_VEL),
            (Input::Vel, qvel_of, STAGE_POS),
        ];
        for (input, field, skipstage) in inputs {
            if !out.wants(input) {
                continue;
            }
            for i in 0..nv {
                let saved = field(d)[i];
                field(d)[i] += eps;
                let result = self.evaluate(d, skipstage, false);
                field(d)[i] = saved;
                result?;
                self.write_rows(d, input, i, eps, out);
            }
        }

        if out.wants(Input::Pos) {
            for i in 0..nv {
                self.with(d, |d, v| {
                    v.dpos.fill(0.0);
                    v.dpos[i] = 1.0;
                    integrate_pos(m, d.qpos, v.dpos, eps);
                });
                let result = self.evaluate(d, STAGE_NONE, false);
                self.with(d, |d, v| d.qpos.copy_from_slice(v.pos));
                result?;
                self.write_rows(d, Input::Pos, i, eps, out);
            }
        }
        Ok(())
    }
}
