//! Integrators (MuJoCo's `mj_Euler`, `mj_RungeKutta`, `mj_implicit`): advance `time`, `qpos`,
//! `qvel` and `act` by one timestep from the results of `forward`
//! ("Computation › Numerical integration").

use crate::actuation::next_activation;
use crate::arena::{ArenaError, Reservation, Stack};
use crate::data::Data;
use crate::derivative::{copy_d2m_sparse, copy_m2d_sparse, smooth_vel};
use crate::error::StepError;
// RK4 re-enters the driver for its intermediate stages: the one allowed circle of `integrate`
use crate::forward::forward_stages;
use crate::math::sparse::{factor_lu_sparse, solve_lu_sparse};
use crate::math::vec::{add, add_to_scl};
use crate::model::Model;
use crate::plugin::advance_all;
use crate::real::Real;
use crate::smooth::{factor_i, solve_ld};
use crate::support::{actuator_disabled, disabled, integrate_pos};
use crate::types::*;

/// The integrated state of a `Data`.
struct State<'s> {
    qpos: &'s mut [Real],
    qvel: &'s mut [Real],
    act: &'s mut [Real],
    time: &'s mut Real,
}

impl<'s> State<'s> {
    fn of(d: &'s mut Data) -> Self {
        State {
            qpos: &mut *d.qpos,
            qvel: &mut *d.qvel,
            act: &mut *d.act,
            time: &mut d.time,
        }
    }
}

/// Advances activations, velocities, positions and time (MuJoCo's `mj_advance`): `act` with
/// `act_dot`, `qvel` with `qacc`, then `qpos` with `qvel` if given, else with the new velocity
/// (semi-implicit Euler).
fn advance(m: &Model, s: State, act_dot: &[Real], qacc: &[Real], qvel: Option<&[Real]>) {
    if m.na > 0 && !disabled(m, DSBL_ACTUATION) {
        for i in 0..m.nu {
            let Ok(adr) = usize::try_from(m.actuator_actadr[i]) else {
                continue;
            };
            for j in adr..adr + m.actuator_actnum[i] as usize {
                let rate = if actuator_disabled(m, i) {
                    0.0
                } else {
                    act_dot[j]
                };
                s.act[j] = next_activation(m, i, s.act[j], rate);
            }
        }
    }
    add_to_scl(s.qvel, qacc, m.opt.timestep);
    match qvel {
        Some(v) => integrate_pos(m, s.qpos, v, m.opt.timestep),
        None => integrate_pos(m, s.qpos, s.qvel, m.opt.timestep),
    }
    *s.time += m.opt.timestep;
}

/// Semi-implicit Euler (`mj_Euler`). With joint damping (and the eulerdamp flag not disabled)
/// the damping is integrated implicitly: `(M + h diag(B)) qacc = qfrc_smooth + qfrc_constraint`.
pub fn euler(m: &Model, d: &mut Data) -> Result<(), StepError> {
    euler_skip(m, d, false)
}

/// [`euler`] that, if `skipfactor`, reuses the factorization of `M + h diag(B)` already in
/// `qH`, `qHDiagInv` (`mj_EulerSkip`; it depends on positions only).
pub fn euler_skip(m: &Model, d: &mut Data, skipfactor: bool) -> Result<(), StepError> {
    let damped = !disabled(m, DSBL_EULERDAMP) && m.dof_damping.iter().any(|&b| b > 0.0);
    d.with_stack(|d, stack| -> Result<(), ArenaError> {
        let qacc = stack.alloc::<Real>(m.nv)?;
        if damped {
            if !skipfactor {
                let mhb = stack.alloc::<Real>(m.nM)?;
                mhb.copy_from_slice(d.qM);
                for i in 0..m.nv {
                    mhb[m.dof_Madr[i] as usize] += m.opt.timestep * m.dof_damping[i];
                }
                factor_i(m, &mut d.warning, mhb, d.qH, d.qHDiagInv, None);
            }
            add(qacc, d.qfrc_smooth, d.qfrc_constraint);
            solve_ld(m, qacc, 1, d.qH, d.qHDiagInv);
        } else {
            qacc.copy_from_slice(d.qacc);
        }
        let act_dot = stack.alloc::<Real>(m.na)?;
        act_dot.copy_from_slice(d.act_dot);
        advance(m, State::of(d), act_dot, qacc, None);
        Ok(())
    })?;
    advance_all(m, d)
}

/// Butcher tableau of the classic 4th-order Runge-Kutta method.
const RK4_A: [Real; 9] = [0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 1.0];
const RK4_B: [Real; 4] = [1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0];
/// Row sums of `RK4_A`: the times of the intermediate evaluations, in timesteps.
const RK4_C: [Real; 3] = [0.5, 0.5, 1.0];

/// Explicit Runge-Kutta of order `n` (only 4 exists, `mj_RungeKutta`). `forward` has already
/// run at the current state; three more evaluations at intermediate states follow, without
/// sensors. The stages (states `X` and derivatives `F`) and `dX` are reserved at the top of the
/// arena while those evaluations use the stack below them.
pub fn runge_kutta(m: &Model, d: &mut Data, n: usize) -> Result<(), StepError> {
    if n != 4 {
        return Err(StepError::Unsupported("Runge-Kutta orders other than 4"));
    }
    let layout = RkLayout {
        nq: m.nq,
        nv: m.nv,
        na: m.na,
    };
    let reservation = d.arena.reserve::<Real>(layout.len())?;
    let result = rk4_stages(m, d, &layout, &reservation);
    d.arena.release(reservation);
    result
}

/// Where `dX` and the four stages lie in the reserved block. A stage holds `qpos, act, qvel`
/// (its state `X`) then `qacc, act_dot` (its derivative `F`): the rates weighted into
/// `dX = (qvel, qacc, act_dot)` are then one piece of each stage, summed in one pass.
struct RkLayout {
    nq: usize,
    nv: usize,
    na: usize,
}

impl RkLayout {
    /// Length of `dX`, and of the rates of a stage.
    fn nd(&self) -> usize {
        2 * self.nv + self.na
    }
    /// Where a stage's rates start: after `qpos` and `act`.
    fn rates(&self) -> usize {
        self.nq + self.na
    }
    fn stage(&self) -> usize {
        self.rates() + self.nd()
    }
    fn len(&self) -> usize {
        self.nd() + 4 * self.stage()
    }
    /// Splits the block into `dX` and the four stages.
    fn split<'b>(&self, buf: &'b mut [Real]) -> (&'b mut [Real], [&'b mut [Real]; 4]) {
        let (dx, rest) = buf.split_at_mut(self.nd());
        (dx, quarters(rest, self.stage()))
    }
    /// Copies a state into `stage`.
    fn save_state(&self, stage: &mut [Real], qpos: &[Real], act: &[Real], qvel: &[Real]) {
        let (q, rest) = stage.split_at_mut(self.nq);
        let (a, rest) = rest.split_at_mut(self.na);
        q.copy_from_slice(qpos);
        a.copy_from_slice(act);
        rest[..self.nv].copy_from_slice(qvel);
    }
    /// Copies the derivatives at a stage's state into `stage`.
    fn save_derivative(&self, stage: &mut [Real], qacc: &[Real], act_dot: &[Real]) {
        let (acc, adot) = stage[self.rates() + self.nv..].split_at_mut(self.nv);
        acc.copy_from_slice(qacc);
        adot.copy_from_slice(act_dot);
    }
}

/// Copies the state of `stage` into `qpos`, `act` and `qvel`.
fn load_state(
    l: &RkLayout,
    stage: &[Real],
    qpos: &mut [Real],
    act: &mut [Real],
    qvel: &mut [Real],
) {
    let (q, rest) = stage.split_at(l.nq);
    let (a, rest) = rest.split_at(l.na);
    qpos.copy_from_slice(q);
    act.copy_from_slice(a);
    qvel.copy_from_slice(&rest[..l.nv]);
}

/// The first four consecutive pieces of length `n` of `buf` (empty pieces when `n` is 0).
fn quarters(buf: &mut [Real], n: usize) -> [&mut [Real]; 4] {
    let (a, rest) = buf.split_at_mut(n);
    let (b, rest) = rest.split_at_mut(n);
    let (c, rest) = rest.split_at_mut(n);
    let (d, _) = rest.split_at_mut(n);
    [a, b, c, d]
}

fn rk4_stages(m: &Model, d: &mut Data, l: &RkLayout, block: &Reservation) -> Result<(), StepError> {
    let (nq, nv, na, h, time) = (l.nq, l.nv, l.na, m.opt.timestep, d.time);
    for i in 1..4 {
        let Data {
            arena,
            qpos,
            qvel,
            act,
            qacc,
            act_dot,
            ..
        } = &mut *d;
        let (dx, mut s) = l.split(arena.reserved::<Real>(block, l.len()));
        if i == 1 {
            l.save_state(s[0], qpos, act, qvel);
        }
        // the derivatives at the previous stage's state, which `d` holds
        l.save_derivative(s[i - 1], qacc, act_dot);
        // X[i] = X[0] (+) h * sum_j A[i-1][j] (qvel_j, qacc_j, act_dot_j)
        weighted_sum(dx, &s[..i], &RK4_A[(i - 1) * 3..(i - 1) * 3 + i], l.rates());
        let (done, rest) = s.split_at_mut(i);
        let si = &mut *rest[0];
        si[..l.rates() + nv].copy_from_slice(&done[0][..l.rates() + nv]);
        let (sq, rest) = si.split_at_mut(nq);
        let (sa, rest) = rest.split_at_mut(na);
        integrate_pos(m, sq, &dx[..nv], h);
        add_to_scl(sa, &dx[2 * nv..], h);
        add_to_scl(&mut rest[..nv], &dx[nv..2 * nv], h);
        load_state(l, si, qpos, act, qvel);
        d.time = time + RK4_C[i - 1] * h;

        forward_stages(m, d, STAGE_NONE, true)?;
    }

    let Data {
        arena,
        qpos,
        qvel,
        act,
        qacc,
        act_dot,
        time: t,
        ..
    } = d;
    let (dx, s) = l.split(arena.reserved::<Real>(block, l.len()));
    l.save_derivative(s[3], qacc, act_dot);
    weighted_sum(dx, &s, &RK4_B, l.rates());
    *t = time;
    load_state(l, s[0], qpos, act, qvel);
    let (vel, rest) = dx.split_at(nv);
    let (acc, act_dot) = rest.split_at(nv);
    advance(
        m,
        State {
            qpos,
            qvel,
            act,
            time: t,
        },
        act_dot,
        acc,
        Some(vel),
    );
    advance_all(m, d)
}

/// `dx = sum_j w[j] * (qvel_j, qacc_j, act_dot_j)` over the stages `j` given, whose rates start
/// at `rates`.
fn weighted_sum(dx: &mut [Real], s: &[&mut [Real]], w: &[Real], rates: usize) {
    dx.fill(0.0);
    for (sj, &wj) in s.iter().zip(w) {
        add_to_scl(dx, &sj[rates..], wj);
    }
}

/// Implicit-in-velocity integration (`mj_implicit`, which is `mj_implicitSkip` without
/// skipping the factorization), for both `implicit` and `implicitfast`: solves
/// `(M - h qDeriv) qacc = qfrc_smooth + qfrc_constraint`, then advances as Euler does.
///
/// `implicit` uses the full derivative (including the bias forces) in the non-symmetric `qLU`,
/// factored by sparse LU; `implicitfast` drops the bias term and keeps the lower triangle, which
/// is factored like the mass matrix into `qH`, `qHDiagInv`.
pub fn implicit(m: &Model, d: &mut Data) -> Result<(), StepError> {
    implicit_skip(m, d, false)
}

/// [`implicit`] that, if `skipfactor`, reuses `qDeriv` and the factorization already in `qLU`
/// (`implicit`) or `qH`, `qHDiagInv` (`implicitfast`) instead of recomputing them
/// (`mj_implicitSkip`; they depend on positions and velocities).
pub fn implicit_skip(m: &Model, d: &mut Data, skipfactor: bool) -> Result<(), StepError> {
    let fast = match m.opt.integrator {
        INT_IMPLICIT => false,
        INT_IMPLICITFAST => true,
        _ => {
            return Err(StepError::Unsupported(
                "implicit step of a non-implicit model",
            ))
        }
    };
    if !skipfactor {
        smooth_vel(m, d, !fast)?;
    }
    d.with_stack(|d, stack| -> Result<(), StepError> {
        let qacc = stack.alloc::<Real>(m.nv)?;
        add(qacc, d.qfrc_smooth, d.qfrc_constraint);
        match (fast, skipfactor) {
            (true, false) => implicitfast_solve(m, d, qacc, stack)?,
            (false, false) => implicit_solve(m, d, qacc, stack)?,
            (true, true) => solve_ld(m, qacc, 1, d.qH, d.qHDiagInv),
            (false, true) => solve_lu(m, d, qacc, stack)?,
        }
        let act_dot = stack.alloc::<Real>(m.na)?;
        act_dot.copy_from_slice(d.act_dot);
        advance(m, State::of(d), act_dot, qacc, None);
        Ok(())
    })?;
    advance_all(m, d)
}

/// `qLU = qM - h qDeriv`, factored by sparse LU; then `qacc = qLU \ qfrc` in place.
fn implicit_solve(
    m: &Model,
    d: &mut Data,
    qacc: &mut [Real],
    stack: &mut Stack,
) -> Result<(), StepError> {
    let mut frame = stack.frame();
    let scratch = frame.alloc::<i32>(m.nv)?;
    copy_m2d_sparse(m, d.D_rownnz, d.D_rowadr, d.qLU, d.qM, scratch);
    add_to_scl(d.qLU, d.qDeriv, -m.opt.timestep);
    factor_lu_sparse(d.qLU, m.nv, scratch, d.D_rownnz, d.D_rowadr, d.D_colind)
        .map_err(|_| StepError::Numerical("singular implicit matrix qM - h qDeriv"))?;
    solve_lu(m, d, qacc, &mut frame)
}

/// `qacc = qLU \ qacc` with the factorization in `qLU`.
fn solve_lu(m: &Model, d: &Data, qacc: &mut [Real], stack: &mut Stack) -> Result<(), StepError> {
    let mut frame = stack.frame();
    let qfrc = frame.alloc::<Real>(m.nv)?;
    qfrc.copy_from_slice(qacc);
    solve_lu_sparse(qacc, d.qLU, qfrc, m.nv, d.D_rownnz, d.D_rowadr, d.D_colind);
    Ok(())
}

/// `qH = L'DL` factorization of `qM - h qDeriv` restricted to `qM`'s (lower-triangle) layout;
/// then `qacc = qH \ qfrc` in place.
fn implicitfast_solve(
    m: &Model,
    d: &mut Data,
    qacc: &mut [Real],
    stack: &mut Stack,
) -> Result<(), StepError> {
    let mut frame = stack.frame();
    let mhb = frame.alloc::<Real>(m.nM)?;
    copy_d2m_sparse(m, d, mhb, d.qDeriv);
    for (x, &mij) in mhb.iter_mut().zip(d.qM.iter()) {
        *x = mij + *x * -m.opt.timestep;
    }
    factor_i(m, &mut d.warning, mhb, d.qH, d.qHDiagInv, None);
    solve_ld(m, qacc, 1, d.qH, d.qHDiagInv);
    Ok(())
}
