//! Nonlinear model-predictive control on the device: iLQR in a real-time-iteration scheme. At
//! every control update the planner rolls the nominal control sequence out through the mjrs
//! model from the measured state, linearizes every step of that trajectory with
//! `mjd_transitionFD`, runs one Riccati (backward) pass of the quadratic cost, and one forward
//! pass with a backtracking line search; the first control of the improved sequence is applied,
//! and the next update starts from the sequence shifted by the time that passed (the warm
//! start). One iteration per update: the iterations of a full iLQR solve are spread over time.
//!
//! Why iLQR and not predictive sampling (both were tried on the cart-pole, numbers in the
//! firmware's README text): on the device a `transition_fd` of the cart-pole costs about four
//! Euler planning steps, so one iLQR iteration over `H` knots costs about `6 H` steps (rollout,
//! linearization, one forward pass), the price of six sampled rollouts of the same horizon.
//! Six rollouts do not balance an unstable pole reliably (their open-loop plans diverge
//! within the horizon); one iLQR iteration yields a time-varying LQR along the plan, whose
//! feedback gains do. The cost per update is bounded: one rollout, `H` linearizations and at
//! most `line_search` forward passes.
//!
//! Memory comes from the caller: [`Planner::new`] carves the trajectory, the linearizations
//! and the gains from a slice of reals and refuses settings that do not fit it or the caller's
//! budget of planning steps per update. An update whose cost is NaN or infinite, or whose
//! step fails, returns an error: the caller applies its safe fallback (zero control) and the
//! planner starts over from zero controls. An update that finds no descent keeps the previous
//! plan (the last good one), reports [`MpcError::NoDescent`] and still writes that plan's
//! control.
//!
//! Controls: `nu` of them (at most [`NU_MAX`]). The control's curvature `Quu` of every knot is
//! a small dense matrix, factored by the core's dense Cholesky (`mju_cholFactor`) and solved
//! for the feedforward step and the gains; with one control it is a number and the solve is a
//! division (what the factorization reduces to, without its rounding: the cart-pole's plans
//! keep their bits). Control limits are met by clamping in the rollouts, not by a box-QP in the
//! backward pass (`mju_boxQP`, as MJPC's iLQG does): clamping costs nothing, keeps the cost of
//! an update fixed (a box-QP iterates, up to 100 factorizations per knot), and the next
//! iteration linearizes around the clamped plan, so a saturated control stops pulling.
//!
//! Scope: models whose state is `qpos, qvel` with `nq == nv` (hinges and slides, no free or
//! ball joints, no activations), at most [`NX_MAX`] state dimensions.

use crate::mj::math::{chol, scalar};
use crate::mj::{Data, Model, Real, StepError};

/// Most state dimensions (`2 nv`) the planner handles.
pub const NX_MAX: usize = 12;
/// Most controls the planner handles.
pub const NU_MAX: usize = 4;

/// How the planner iterates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Knots of the plan: planning steps of the planning model's timestep.
    pub horizon: usize,
    /// Forward passes tried per update (step sizes 1, 1/2, 1/4, ...).
    pub line_search: usize,
    /// Added to the control's curvature in the backward pass (Levenberg-Marquardt damping).
    pub regularization: Real,
    /// Finite-difference step of `transition_fd`.
    pub fd_eps: Real,
    /// What one `transition_fd` costs, in planning steps (measured on the device).
    pub fd_steps: usize,
    /// Most planning steps one update may take (see [`Settings::steps_per_update`]): the
    /// device's real-time budget.
    pub step_budget: usize,
}

impl Settings {
    /// Planning steps an update takes at most: the nominal rollout, the linearizations and
    /// every forward pass of the line search.
    pub const fn steps_per_update(&self) -> usize {
        let per_knot = self
            .line_search
            .saturating_add(1)
            .saturating_add(self.fd_steps);
        self.horizon.saturating_mul(per_knot)
    }

    /// Reals of scratch for a state of `nx` dimensions and `nu` controls: per knot the
    /// controls twice, the state twice, `A`, `B`, the feedforward step and the gains; the final
    /// state twice.
    pub const fn scratch_needed(&self, nx: usize, nu: usize) -> usize {
        let square = nx.saturating_mul(nx);
        let cross = nx.saturating_mul(nu);
        let per_knot = nu
            .saturating_mul(3)
            .saturating_add(nx.saturating_mul(2))
            .saturating_add(square)
            .saturating_add(cross.saturating_mul(2));
        self.horizon
            .saturating_mul(per_knot)
            .saturating_add(nx.saturating_mul(2))
    }
}

/// Why the planner gave no control, or no better one.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MpcError {
    /// Settings that cannot plan: no horizon, no forward pass, a negative or non-finite
    /// regularization or finite-difference step.
    Settings,
    /// The plan does not fit the caller's scratch.
    Scratch {
        /// Reals needed.
        needed: usize,
        /// Reals given.
        available: usize,
    },
    /// An update would take more planning steps than the budget allows.
    Budget {
        /// Planning steps per update.
        needed: usize,
        /// The budget.
        budget: usize,
    },
    /// A model or measured state the planner does not handle (see the module's scope).
    Shape,
    /// A step or a linearization failed.
    Step(StepError),
    /// The plan's cost or its curvature was NaN or infinite, or the curvature of the controls
    /// not positive definite.
    NotFinite,
    /// No step size of the line search lowered the cost: the previous plan was kept.
    NoDescent,
}

impl MpcError {
    /// One digit for the log: 1 settings, 2 scratch, 3 budget, 4 shape, 5 step, 6 NaN or
    /// infinite cost, 7 no descent.
    pub fn code(&self) -> u8 {
        match self {
            MpcError::Settings => 1,
            MpcError::Scratch { .. } => 2,
            MpcError::Budget { .. } => 3,
            MpcError::Shape => 4,
            MpcError::Step(_) => 5,
            MpcError::NotFinite => 6,
            MpcError::NoDescent => 7,
        }
    }
}

/// A quadratic cost on the state's distance from a target and on the controls:
/// `sum_i q_i (x_i - target_i(t))^2 + sum_j r_j u_j^2` per knot,
/// `sum_i qf_i (x_i - target_i(t))^2` at the end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// The target state (`qpos` then `qvel`).
    pub target: [Real; NX_MAX],
    /// Running weights of the state.
    pub q: [Real; NX_MAX],
    /// Weights of the controls.
    pub r: [Real; NU_MAX],
    /// Terminal weights of the state.
    pub qf: [Real; NX_MAX],
    /// A periodic reference added to one coordinate of the target (none: amplitude 0).
    pub wave: Wave,
}

/// `amplitude sin(2 pi t / period)` added to the target of state coordinate `index`: a
/// periodic reference, such as a torso height that rises and falls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wave {
    /// The state coordinate it moves.
    pub index: usize,
    /// Its amplitude; 0 leaves the target constant.
    pub amplitude: Real,
    /// Its period (s).
    pub period: Real,
}

impl Wave {
    /// No periodic reference.
    pub const NONE: Wave = Wave {
        index: 0,
        amplitude: 0.0,
        period: 1.0,
    };
}

impl Cost {
    /// The target state at time `t`.
    pub fn target_at(&self, t: Real) -> [Real; NX_MAX] {
        let mut target = self.target;
        let w = &self.wave;
        if w.amplitude != 0.0 && w.index < NX_MAX {
            let phase = 2.0 * core::f32::consts::PI * t / w.period;
            target[w.index] += w.amplitude * scalar::sin(phase);
        }
        target
    }

    fn running(&self, x: &[Real], u: &[Real], target: &[Real; NX_MAX]) -> Real {
        let mut c = self.state(x, &self.q, target);
        for (j, uj) in u.iter().enumerate() {
            c += self.r[j] * uj * uj;
        }
        c
    }

    fn state(&self, x: &[Real], w: &[Real; NX_MAX], target: &[Real; NX_MAX]) -> Real {
        let mut c = 0.0;
        for (i, xi) in x.iter().enumerate() {
            let e = xi - target[i];
            c += w[i] * e * e;
        }
        c
    }
}

/// The measured state a plan starts from.
#[derive(Debug, Clone, Copy)]
pub struct State<'s> {
    /// Simulation time (s).
    pub time: Real,
    /// Generalized positions (`nq` of the planning model).
    pub qpos: &'s [Real],
    /// Generalized velocities (`nv`).
    pub qvel: &'s [Real],
}

/// What a closed loop's planner updates came to: fallbacks, updates without descent and the
/// time they took.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Updates {
    /// Updates that fell back to zero control.
    pub fallbacks: u32,
    /// The first planner error (the fallback's cause).
    pub first_error: Option<MpcError>,
    /// Updates whose line search found no descent (the previous plan kept).
    pub no_descent: u32,
    /// Counter units (cycles or instructions) of the slowest update.
    pub update_max: u64,
    /// Counter units of all updates together.
    pub update_total: u64,
}

impl Updates {
    /// One closed-loop update of `planner` (planning with `mm`, rollouts in `md`) from `x`,
    /// timed by `now`, into `u`. Without descent `u` keeps the previous plan's controls; on any
    /// other error the safe fallback: zero control, and a fresh plan next time. Returns the
    /// error code to log (0: none).
    #[allow(clippy::too_many_arguments)]
    pub fn plan(
        &mut self,
        planner: &mut Planner,
        mm: &Model,
        md: &mut Data,
        x: &State,
        cost: &Cost,
        u: &mut [Real],
        mut now: impl FnMut() -> u64,
    ) -> u8 {
        let t0 = now();
        let code = match planner.update(mm, md, x, cost, u) {
            Ok(()) => 0,
            Err(MpcError::NoDescent) => {
                self.no_descent += 1;
                MpcError::NoDescent.code()
            }
            Err(e) => {
                u.fill(0.0);
                planner.reset();
                self.fallbacks += 1;
                self.first_error.get_or_insert(e);
                e.code()
            }
        };
        let spent = now().wrapping_sub(t0);
        self.update_max = self.update_max.max(spent);
        self.update_total += spent;
        code
    }
}

/// The planner's state between updates: the nominal plan, its trajectory, its linearization
/// and gains, all in the caller's scratch.
pub struct Planner<'a> {
    settings: Settings,
    nx: usize,
    nu: usize,
    /// Controls of the nominal plan, `nu` per knot.
    u: &'a mut [Real],
    /// Controls of the forward pass.
    u_new: &'a mut [Real],
    /// States of the nominal trajectory (`horizon + 1` of `nx`).
    x: &'a mut [Real],
    /// States of the forward pass.
    x_new: &'a mut [Real],
    /// `A` of every knot (`nx * nx`, row-major).
    a: &'a mut [Real],
    /// `B` of every knot (`nx * nu`, row-major).
    b: &'a mut [Real],
    /// Feedforward step of every knot (`nu`).
    k: &'a mut [Real],
    /// Feedback gains of every knot (`nu * nx`, row-major).
    gain: &'a mut [Real],
    /// Time of the nominal plan's first knot; `None` before the first update.
    plan_time: Option<Real>,
    /// Cost of the plan after the last update.
    pub cost: Real,
    /// Step size the last update's line search accepted (0: none).
    pub alpha: Real,
}

impl<'a> Planner<'a> {
    /// A planner for states of `nx` dimensions and `nu` controls whose plan lives in `scratch`;
    /// fails when the settings cannot plan, do not fit `scratch`, or exceed their own step
    /// budget.
    pub fn new(
        settings: Settings,
        nx: usize,
        nu: usize,
        scratch: &'a mut [Real],
    ) -> Result<Self, MpcError> {
        let valid = settings.horizon >= 1
            && settings.line_search >= 1
            && settings.regularization.is_finite()
            && settings.regularization >= 0.0
            && settings.fd_eps.is_finite()
            && settings.fd_eps > 0.0;
        if !valid {
            return Err(MpcError::Settings);
        }
        if nx == 0 || nx > NX_MAX || !nx.is_multiple_of(2) || nu == 0 || nu > NU_MAX {
            return Err(MpcError::Shape);
        }
        let needed = settings.steps_per_update();
        if needed > settings.step_budget {
            return Err(MpcError::Budget {
                needed,
                budget: settings.step_budget,
            });
        }
        let needed = settings.scratch_needed(nx, nu);
        if scratch.len() < needed {
            return Err(MpcError::Scratch {
                needed,
                available: scratch.len(),
            });
        }
        let h = settings.horizon;
        let (u, rest) = scratch.split_at_mut(h * nu);
        let (u_new, rest) = rest.split_at_mut(h * nu);
        let (x, rest) = rest.split_at_mut((h + 1) * nx);
        let (x_new, rest) = rest.split_at_mut((h + 1) * nx);
        let (a, rest) = rest.split_at_mut(h * nx * nx);
        let (b, rest) = rest.split_at_mut(h * nx * nu);
        let (k, rest) = rest.split_at_mut(h * nu);
        let gain = &mut rest[..h * nu * nx];
        u.fill(0.0);
        Ok(Planner {
            settings,
            nx,
            nu,
            u,
            u_new,
            x,
            x_new,
            a,
            b,
            k,
            gain,
            plan_time: None,
            cost: Real::NAN,
            alpha: 0.0,
        })
    }

    /// The settings the planner was made with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Forgets the plan: the next update starts from zero controls (after an error).
    pub fn reset(&mut self) {
        self.u.fill(0.0);
        self.plan_time = None;
    }

    /// One control update: one iLQR iteration from `x0` with the planning model `m` (its `d`
    /// is scratch for the rollouts) and the first controls of the resulting plan in `ctrl`
    /// (also on [`MpcError::NoDescent`], where the plan is the previous one).
    pub fn update(
        &mut self,
        m: &Model,
        d: &mut Data,
        x0: &State,
        cost: &Cost,
        ctrl: &mut [Real],
    ) -> Result<(), MpcError> {
        let (nv, nu) = (m.nv, self.nu);
        let fits = m.nq == nv
            && 2 * nv == self.nx
            && m.nu == nu
            && m.na == 0
            && x0.qpos.len() == nv
            && x0.qvel.len() == nv
            && ctrl.len() == nu
            && d.qpos.len() == nv
            && d.qvel.len() == nv
            && d.ctrl.len() == nu;
        if !fits {
            return Err(MpcError::Shape);
        }
        self.shift(m, x0.time);
        let nx = self.nx;
        self.x[..nv].copy_from_slice(x0.qpos);
        self.x[nv..nx].copy_from_slice(x0.qvel);
        let j0 = rollout(m, d, x0.time, cost, self.u, self.x, None)?;
        if !j0.is_finite() {
            self.cost = j0;
            return Err(MpcError::NotFinite);
        }
        self.linearize(m, d, x0.time)?;
        self.backward(cost, x0.time, m.opt.timestep)?;
        let result = self.line_search(m, d, x0.time, cost, j0);
        ctrl.copy_from_slice(&self.u[..nu]);
        result
    }

    /// Resamples the nominal controls at the knots of a plan starting at `time` (the warm
    /// start): knots past the old plan's end hold its last controls.
    fn shift(&mut self, m: &Model, time: Real) {
        let (h, nu) = (self.settings.horizon, self.nu);
        if let Some(t0) = self.plan_time {
            let offset = (time - t0) / m.opt.timestep;
            for i in 0..h {
                let t = offset + i as Real;
                let lo = if t > 0.0 { (t as usize).min(h - 1) } else { 0 };
                let hi = (lo + 1).min(h - 1);
                let w = if t > 0.0 && lo < h - 1 {
                    t - lo as Real
                } else {
                    0.0
                };
                for j in 0..nu {
                    let (ulo, uhi) = (self.u[lo * nu + j], self.u[hi * nu + j]);
                    self.u_new[i * nu + j] = ulo + w * (uhi - ulo);
                }
            }
            self.u.copy_from_slice(self.u_new);
        }
        self.plan_time = Some(time);
    }

    /// `A` and `B` of every knot of the nominal trajectory (`mjd_transitionFD`, forward
    /// differences).
    fn linearize(&mut self, m: &Model, d: &mut Data, time: Real) -> Result<(), MpcError> {
        let (nx, nu, nv) = (self.nx, self.nu, m.nv);
        for t in 0..self.settings.horizon {
            set_state(
                d,
                time + t as Real * m.opt.timestep,
                &self.x[t * nx..(t + 1) * nx],
                nv,
            );
            for j in 0..nu {
                d.ctrl[j] = clamp_ctrl(m, j, self.u[t * nu + j]);
            }
            let a = &mut self.a[t * nx * nx..(t + 1) * nx * nx];
            let b = &mut self.b[t * nx * nu..(t + 1) * nx * nu];
            crate::mj::transition_fd(
                m,
                d,
                self.settings.fd_eps,
                false,
                Some(a),
                Some(b),
                None,
                None,
            )
            .map_err(|e| match e {
                crate::mj::FdError::Step(s) => MpcError::Step(s),
                _ => MpcError::Shape,
            })?;
        }
        Ok(())
    }

    /// The Riccati pass of the quadratic cost along the linearized trajectory (the plan starts
    /// at `time`, knots `dt` apart): feedforward steps `k` and feedback gains `K` of every knot.
    fn backward(&mut self, cost: &Cost, time: Real, dt: Real) -> Result<(), MpcError> {
        let (nx, nu) = (self.nx, self.nu);
        let h = self.settings.horizon;
        let mut vx = [0.0; NX_MAX];
        let mut vxx = [[0.0; NX_MAX]; NX_MAX];
        let xh = &self.x[h * nx..(h + 1) * nx];
        let target = cost.target_at(time + h as Real * dt);
        for i in 0..nx {
            vx[i] = 2.0 * cost.qf[i] * (xh[i] - target[i]);
            vxx[i][i] = 2.0 * cost.qf[i];
        }
        for t in (0..h).rev() {
            let a = &self.a[t * nx * nx..(t + 1) * nx * nx];
            let b = &self.b[t * nx * nu..(t + 1) * nx * nu];
            let xt = &self.x[t * nx..(t + 1) * nx];
            let ut = &self.u[t * nu..(t + 1) * nu];
            let target = cost.target_at(time + t as Real * dt);
            // V'' B and V'' A
            let mut vb = [[0.0; NU_MAX]; NX_MAX];
            let mut va = [[0.0; NX_MAX]; NX_MAX];
            for i in 0..nx {
                for r in 0..nx {
                    for c in 0..nu {
                        vb[i][c] += vxx[i][r] * b[r * nu + c];
                    }
                    for j in 0..nx {
                        va[i][j] += vxx[i][r] * a[r * nx + j];
                    }
                }
            }
            let mut q = Expansion {
                qx: [0.0; NX_MAX],
                qxx: [[0.0; NX_MAX]; NX_MAX],
                qu: [0.0; NU_MAX],
                quu: [[0.0; NU_MAX]; NU_MAX],
                qux: [[0.0; NX_MAX]; NU_MAX],
            };
            for (c, uc) in ut.iter().enumerate() {
                q.qu[c] = 2.0 * cost.r[c] * uc;
                q.quu[c][c] = 2.0 * cost.r[c] + self.settings.regularization;
            }
            for i in 0..nx {
                for c in 0..nu {
                    q.qu[c] += b[i * nu + c] * vx[i];
                    for (quu, vb) in q.quu[c][..nu].iter_mut().zip(&vb[i]) {
                        *quu += b[i * nu + c] * vb;
                    }
                }
                q.qx[i] = 2.0 * cost.q[i] * (xt[i] - target[i]);
                q.qxx[i][i] = 2.0 * cost.q[i];
                for r in 0..nx {
                    q.qx[i] += a[r * nx + i] * vx[r];
                    for c in 0..nu {
                        q.qux[c][i] += b[r * nu + c] * va[r][i];
                    }
                    for (qxx, va) in q.qxx[i][..nx].iter_mut().zip(&va[r]) {
                        *qxx += a[r * nx + i] * va;
                    }
                }
            }
            let k = &mut self.k[t * nu..(t + 1) * nu];
            let gain = &mut self.gain[t * nu * nx..(t + 1) * nu * nx];
            if nu == 1 {
                q.solve_one(nx, k, gain, &mut vx, &mut vxx)?;
            } else {
                q.solve(nx, nu, k, gain, &mut vx, &mut vxx)?;
            }
        }
        Ok(())
    }

    /// Forward passes with step sizes 1, 1/2, ... until one lowers the cost below `j0`; the
    /// first that does becomes the nominal plan.
    fn line_search(
        &mut self,
        m: &Model,
        d: &mut Data,
        time: Real,
        cost: &Cost,
        j0: Real,
    ) -> Result<(), MpcError> {
        let mut alpha: Real = 1.0;
        for _ in 0..self.settings.line_search {
            let policy = Policy {
                u: self.u,
                x: self.x,
                k: self.k,
                gain: self.gain,
                alpha,
            };
            self.x_new[..self.nx].copy_from_slice(&self.x[..self.nx]);
            let j = rollout(m, d, time, cost, self.u_new, self.x_new, Some(&policy))?;
            if j < j0 {
                core::mem::swap(&mut self.u, &mut self.u_new);
                core::mem::swap(&mut self.x, &mut self.x_new);
                self.cost = j;
                self.alpha = alpha;
                return Ok(());
            }
            alpha *= 0.5;
        }
        self.cost = j0;
        self.alpha = 0.0;
        Err(MpcError::NoDescent)
    }
}

/// The quadratic expansion of one knot's cost-to-go: `Q_x`, `Q_xx`, `Q_u`, `Q_uu`, `Q_ux`.
struct Expansion {
    qx: [Real; NX_MAX],
    qxx: [[Real; NX_MAX]; NX_MAX],
    qu: [Real; NU_MAX],
    quu: [[Real; NU_MAX]; NU_MAX],
    qux: [[Real; NX_MAX]; NU_MAX],
}

impl Expansion {
    /// One control: `k = -Q_u / Q_uu`, `K = -Q_ux / Q_uu`, then the value's expansion
    /// `V' = Q_x + K' Q_u`, `V'' = Q_xx - Q_ux' Q_ux / Q_uu` (symmetric by construction).
    fn solve_one(
        &self,
        nx: usize,
        k: &mut [Real],
        gain: &mut [Real],
        vx: &mut [Real; NX_MAX],
        vxx: &mut [[Real; NX_MAX]; NX_MAX],
    ) -> Result<(), MpcError> {
        let (qu, quu, qux) = (self.qu[0], self.quu[0][0], &self.qux[0]);
        if !(quu > 0.0 && quu.is_finite() && qu.is_finite()) {
            return Err(MpcError::NotFinite);
        }
        k[0] = -qu / quu;
        for i in 0..nx {
            gain[i] = -qux[i] / quu;
            vx[i] = self.qx[i] + gain[i] * qu;
        }
        for i in 0..nx {
            for j in 0..nx {
                vxx[i][j] = 0.5 * (self.qxx[i][j] + self.qxx[j][i]) - qux[i] * qux[j] / quu;
            }
        }
        Ok(())
    }

    /// `nu` controls: `Q_uu` factored by the core's dense Cholesky, `k = -Q_uu^-1 Q_u`,
    /// `K = -Q_uu^-1 Q_ux`, then `V' = Q_x + K' Q_u`, `V'' = Q_xx + Q_ux' K` (symmetrized).
    fn solve(
        &self,
        nx: usize,
        nu: usize,
        k: &mut [Real],
        gain: &mut [Real],
        vx: &mut [Real; NX_MAX],
        vxx: &mut [[Real; NX_MAX]; NX_MAX],
    ) -> Result<(), MpcError> {
        let mut factor = [0.0; NU_MAX * NU_MAX];
        let mut finite = true;
        for c in 0..nu {
            finite &= self.qu[c].is_finite();
            for e in 0..nu {
                factor[c * nu + e] = self.quu[c][e];
                finite &= self.quu[c][e].is_finite();
            }
        }
        // a diagonal at or below MINVAL before its square root: not positive definite
        if !finite || chol::chol_factor(&mut factor, nu, crate::mj::real::MINVAL) < nu {
            return Err(MpcError::NotFinite);
        }
        let mut col = [0.0; NU_MAX];
        for (col, qu) in col[..nu].iter_mut().zip(&self.qu) {
            *col = -qu;
        }
        chol::chol_solve_in_place(&mut col, &factor, nu);
        k.copy_from_slice(&col[..nu]);
        for i in 0..nx {
            for (col, qux) in col[..nu].iter_mut().zip(&self.qux) {
                *col = -qux[i];
            }
            chol::chol_solve_in_place(&mut col, &factor, nu);
            for c in 0..nu {
                gain[c * nx + i] = col[c];
            }
        }
        let mut qk = [[0.0; NX_MAX]; NX_MAX];
        for i in 0..nx {
            vx[i] = self.qx[i];
            for c in 0..nu {
                vx[i] += gain[c * nx + i] * self.qu[c];
                for j in 0..nx {
                    qk[i][j] += self.qux[c][i] * gain[c * nx + j];
                }
            }
        }
        for i in 0..nx {
            for j in 0..nx {
                vxx[i][j] = 0.5 * (self.qxx[i][j] + self.qxx[j][i]) + 0.5 * (qk[i][j] + qk[j][i]);
            }
        }
        if vx[..nx].iter().all(|v| v.is_finite()) {
            Ok(())
        } else {
            Err(MpcError::NotFinite)
        }
    }
}

/// The feedback policy of a forward pass: `u = u_t + alpha k_t + K_t (x - x_t)`.
struct Policy<'p> {
    u: &'p [Real],
    x: &'p [Real],
    k: &'p [Real],
    gain: &'p [Real],
    alpha: Real,
}

/// Rolls the planning model out from the state in `x[..nx]` (the plan starting at `time`),
/// writing the trajectory to `x` and the controls to `u` (under `policy`, or `u` as given),
/// clamped to the control ranges; returns the cost.
fn rollout(
    m: &Model,
    d: &mut Data,
    time: Real,
    cost: &Cost,
    u: &mut [Real],
    x: &mut [Real],
    policy: Option<&Policy>,
) -> Result<Real, MpcError> {
    let (nv, nu) = (m.nv, m.nu);
    let nx = 2 * nv;
    let h = u.len() / nu;
    set_state(d, time, &x[..nx], nv);
    let mut total: Real = 0.0;
    for t in 0..h {
        let ut = &mut u[t * nu..(t + 1) * nu];
        for (j, uj) in ut.iter_mut().enumerate() {
            if let Some(p) = policy {
                let c = t * nu + j;
                let mut v = p.u[c] + p.alpha * p.k[c];
                let g = &p.gain[c * nx..(c + 1) * nx];
                for i in 0..nx {
                    v += g[i] * (x[t * nx + i] - p.x[t * nx + i]);
                }
                *uj = v;
            }
            *uj = clamp_ctrl(m, j, *uj);
        }
        let target = cost.target_at(time + t as Real * m.opt.timestep);
        total += cost.running(&x[t * nx..(t + 1) * nx], ut, &target);
        d.ctrl.copy_from_slice(ut);
        crate::mj::step(m, d).map_err(MpcError::Step)?;
        let next = &mut x[(t + 1) * nx..(t + 2) * nx];
        next[..nv].copy_from_slice(&d.qpos[..nv]);
        next[nv..].copy_from_slice(&d.qvel[..nv]);
    }
    let target = cost.target_at(time + h as Real * m.opt.timestep);
    Ok(total + cost.state(&x[h * nx..(h + 1) * nx], &cost.qf, &target))
}

/// Puts `d` in the state `x` (`qpos`, `qvel`) at `time`, with no applied forces and a cold
/// solver start, so that every rollout from the same state is the same.
fn set_state(d: &mut Data, time: Real, x: &[Real], nv: usize) {
    d.time = time;
    d.qpos.copy_from_slice(&x[..nv]);
    d.qvel.copy_from_slice(&x[nv..2 * nv]);
    d.qacc_warmstart.fill(0.0);
    d.qfrc_applied.fill(0.0);
    d.xfrc_applied.fill(0.0);
}

/// `u` clamped to actuator `j`'s control range when it is limited.
fn clamp_ctrl(m: &Model, j: usize, u: Real) -> Real {
    if m.actuator_ctrllimited[j] != 0 {
        // max/min rather than clamp: a damaged range must not panic
        u.max(m.actuator_ctrlrange[2 * j])
            .min(m.actuator_ctrlrange[2 * j + 1])
    } else {
        u
    }
}
