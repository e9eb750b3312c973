//! The dual projected Gauss-Seidel solver (`mj_solPGS`) and the helpers it shares with noslip:
//! it sweeps over the constraints, minimizing the dual cost `½ f' AR f + f' b` in one
//! constraint's forces at a time and projecting onto that constraint's feasible set
//! ("Computation › Constraint solver › PGS").

use super::{count_changes, save_stats, stat_scale, Efc};
use crate::arena::Stack;
use crate::data::{Data, SolverStat};
use crate::error::StepError;
use crate::math::mat::{mul_mat_vec, mul_vec_mat_vec};
use crate::math::qcqp::{qcqp, qcqp2, qcqp3};
use crate::math::scalar::sqrt;
use crate::math::vec::{dot, norm, sub};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::smooth::solve_ld;
use crate::types::*;

/// Maps the dual solution to joint space (`dualFinish`): `qfrc_constraint = J' efc_force`,
/// `qacc = qacc_smooth + M⁻¹ qfrc_constraint`.
pub(super) fn dual_finish(m: &Model, d: &mut Data, efc: &Efc) {
    efc.jac.mul_t_vec(d.qfrc_constraint, efc.force);
    d.qacc.copy_from_slice(d.qfrc_constraint);
    solve_ld(m, d.qacc, 1, d.qLD, d.qLDiagInv);
    for (a, s) in d.qacc.iter_mut().zip(d.qacc_smooth.iter()) {
        *a += *s;
    }
}

/// `res[i] = 1 / AR[i,i]`, or with `sub_r` `1 / max(MINVAL, AR[i,i] - R[i])` (`ARdiaginv`).
pub(super) fn ar_diag_inv(efc: &Efc, res: &mut [Real], sub_r: bool) {
    let nefc = efc.nefc;
    for i in 0..nefc {
        let diag = if efc.ar.sparse {
            let (values, colind) = efc.ar.row(i, nefc);
            match colind.iter().position(|&c| c as usize == i) {
                Some(k) => values[k],
                // no diagonal element: MuJoCo leaves the entry as it was
                None => continue,
            }
        } else {
            efc.ar.AR[i * (nefc + 1)]
        };
        res[i] = if sub_r {
            1.0 / (diag - efc.R[i]).max(MINVAL)
        } else {
            1.0 / diag
        };
    }
}

/// The diagonal block `AR[start..start+n, start..start+n]` into `ac` (`n x n`), with `sub_r`
/// minus `R` on the diagonal, clamped below at 1e-10 (`extractBlock`).
pub(super) fn extract_block(
    efc: &Efc,
    ac: &mut [Real],
    start: usize,
    n: usize,
    sub_r: bool,
) -> Result<(), StepError> {
    let nefc = efc.nefc;
    if efc.ar.sparse {
        // the block is a full sub-matrix: the same offset of column `start` in every row
        let (_, colind) = efc.ar.row(start, nefc);
        let k = colind
            .iter()
            .position(|&c| c as usize == start)
            .ok_or(StepError::Numerical("efc_AR has no diagonal element"))?;
        for j in 0..n {
            let adr = efc.ar.rowadr[start + j] as usize + k;
            ac[j * n..(j + 1) * n].copy_from_slice(&efc.ar.AR[adr..adr + n]);
        }
    } else {
        for j in 0..n {
            let adr = start + (start + j) * nefc;
            ac[j * n..(j + 1) * n].copy_from_slice(&efc.ar.AR[adr..adr + n]);
        }
    }
    if sub_r {
        for j in 0..n {
            let diag = &mut ac[j * (n + 1)];
            *diag -= efc.R[start + j];
            *diag = diag.max(1e-10);
        }
    }
    Ok(())
}

/// The dual gradient `b + AR f` of rows `i..i + dim` into `res`; with `sub_r`, of
/// `AR - diag(R)` (`residual`).
// always inlined: the scalar rows call it with `dim` 1 and no `sub_r`, which then unrolls
#[inline(always)]
pub(super) fn residual(efc: &Efc, res: &mut [Real], i: usize, dim: usize, sub_r: bool) {
    for j in 0..dim {
        res[j] = efc.b[i + j] + efc.ar.dot_row(i + j, efc.force);
    }
    if sub_r {
        for j in 0..dim {
            res[j] -= efc.R[i + j] * efc.force[i + j];
        }
    }
}

/// Change of the dual cost when `force` replaces `oldforce` (block matrix `a`, gradient `res`
/// at the old forces); a change above 1e-10 (the update made things worse) restores the old
/// forces and counts as 0 (`costChange`).
pub(super) fn cost_change(
    a: &[Real],
    force: &mut [Real],
    oldforce: &[Real],
    res: &[Real],
    dim: usize,
) -> Real {
    let change = if dim == 1 {
        row_change(force[0] - oldforce[0], a[0], res[0])
    } else {
        let mut delta = [0.0; 6];
        sub(&mut delta[..dim], &force[..dim], &oldforce[..dim]);
        0.5 * mul_vec_mat_vec(&delta, a, &delta, dim) + dot(&delta[..dim], &res[..dim])
    };
    if change > 1e-10 {
        force[..dim].copy_from_slice(&oldforce[..dim]);
        0.0
    } else {
        change
    }
}

/// The dual cost's change when one row's force moves by `delta`, the row's diagonal of AR being
/// `a` and its gradient `res` (the one-row case of [`cost_change`]).
#[inline(always)]
fn row_change(delta: Real, a: Real, res: Real) -> Real {
    0.5 * delta * delta * a + delta * res
}

/// Sets `efc_state` from the dual forces and returns the number of active constraints
/// (`dualState`). Friction-loss states are the opposite of the primal ones.
pub(super) fn dual_state(efc: &mut Efc) -> i32 {
    let (ne, nf, nefc) = (efc.ne, efc.nf, efc.nefc);
    let mut nactive = (ne + nf) as i32;
    // the arrays cut to `nefc`, so that the row loops below carry no bounds checks
    let (state, force) = (&mut efc.state[..nefc], &efc.force[..nefc]);
    let (efc_type, frictionloss) = (&efc.efc_type[..nefc], &efc.frictionloss[..nefc]);
    state[..ne].fill(CNSTRSTATE_QUADRATIC);
    for i in ne..ne + nf {
        state[i] = scalar_state(force[i], i, ne, nf, frictionloss[i]);
    }
    let mut i = ne + nf;
    while i < nefc {
        if efc_type[i] != CNSTR_CONTACT_ELLIPTIC {
            state[i] = scalar_state(force[i], i, ne, nf, 0.0);
            nactive += i32::from(state[i] != CNSTRSTATE_SATISFIED);
            i += 1;
            continue;
        }
        // the contact's fields directly: `Efc::cone` would borrow all of `efc`
        let con = &efc.contact[efc.efc_id[i] as usize];
        let (mu, friction, dim) = (con.mu, con.friction, con.dim as usize);

        // map the force to the regular cone
        let mut f = [0.0; 6];
        f[0] = force[i] / mu;
        for j in 1..dim {
            f[j] = force[i + j] / friction[j - 1];
        }
        let n = f[0];
        let t = norm(&f[1..dim]);
        let cone_state = if mu * n >= t {
            CNSTRSTATE_SATISFIED
        } else if n + mu * t <= 0.0 {
            nactive += dim as i32;
            CNSTRSTATE_QUADRATIC
        } else {
            nactive += dim as i32;
            CNSTRSTATE_CONE
        };
        state[i..i + dim].fill(cone_state);
        i += dim;
    }
    nactive
}

/// Solves the friction QCQP of an elliptic cone: tangential forces `v` (`n = dim - 1` of them)
/// minimizing `½ v' ac v + v' bc` within the ellipse of radius `normal` and semi-axes
/// `friction`; an active constraint puts `v` exactly on the ellipse (the QCQP is approximate).
pub(super) fn friction_qcqp(
    v: &mut [Real; 6],
    ac: &[Real],
    bc: &[Real],
    friction: &[Real; 5],
    normal: Real,
    n: usize,
) {
    let active = match n {
        2 => {
            let (x, active) = qcqp2(
                &[ac[0], ac[1], ac[2], ac[3]],
                &[bc[0], bc[1]],
                &[friction[0], friction[1]],
                normal,
            );
            v[..2].copy_from_slice(&x);
            active
        }
        3 => {
            let mut a = [0.0; 9];
            a.copy_from_slice(&ac[..9]);
            let (x, active) = qcqp3(
                &a,
                &[bc[0], bc[1], bc[2]],
                &[friction[0], friction[1], friction[2]],
                normal,
            );
            v[..3].copy_from_slice(&x);
            active
        }
        _ => qcqp(v, ac, bc, friction, normal, n),
    };
    if active {
        let mut s = 0.0;
        for j in 0..n {
            s += v[j] * v[j] / (friction[j] * friction[j]);
        }
        let s = sqrt(normal * normal / s.max(MINVAL));
        for x in &mut v[..n] {
            *x *= s;
        }
    }
}

/// Projected Gauss-Seidel (`mj_solPGS`), at most `maxiter` sweeps, starting from the forces
/// in `efc_force`; then `qfrc_constraint` and `qacc` from the forces.
// never inlined: one call per solve; inlined into `solve`, its scratch widened the stack frame
// every solver's step runs under
#[inline(never)]
pub(super) fn sol_pgs(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    stack: &mut Stack,
    maxiter: usize,
) -> Result<(), StepError> {
    let nefc = efc.nefc;
    let mut frame = stack.frame();
    let ar_inv = frame.alloc::<Real>(nefc)?;
    let oldstate = frame.alloc::<i32>(nefc)?;
    let scale = stat_scale(m);

    ar_diag_inv(efc, ar_inv, false);
    dual_state(efc);
    #[cfg(feature = "fast")]
    let grad = frame.alloc::<Real>(nefc)?;
    #[cfg(feature = "fast")]
    let scalar = efc.efc_type[..nefc]
        .iter()
        .all(|&t| t != CNSTR_CONTACT_ELLIPTIC);

    // f32 only: the rounding floor of the improvement, measured after the first sweep and again
    // whenever the improvement falls below it (the forces it scales with have moved), so that a
    // solve measures it about twice instead of on every sweep (each sweep: 6% more instructions
    // on the Gymnasium humanoid)
    #[cfg(feature = "f32")]
    let mut noise: Real = 0.0;
    let mut iter = 0;
    while iter < maxiter {
        #[cfg(feature = "fast")]
        if iter % GRADIENT_REFRESH == 0 {
            gradient(efc, grad);
        }
        #[cfg(feature = "fast")]
        let (improvement, nactive, nchange) = if scalar {
            sweep_scalar(efc, ar_inv, grad)
        } else {
            let improvement = sweep_rows(efc, ar_inv, grad)?;
            let (nactive, nchange) = new_states(efc, oldstate);
            (improvement, nactive, nchange)
        };
        #[cfg(not(feature = "fast"))]
        let (improvement, nactive, nchange) = {
            let improvement = sweep_rows(efc, ar_inv)?;
            let (nactive, nchange) = new_states(efc, oldstate);
            (improvement, nactive, nchange)
        };

        let improvement = improvement * scale;
        let stat = SolverStat {
            improvement,
            nactive,
            nchange,
            ..SolverStat::default()
        };
        save_stats(d.solver, iter, stat);
        iter += 1;
        #[cfg(not(feature = "f32"))]
        let tolerance = m.opt.tolerance;
        #[cfg(feature = "f32")]
        let tolerance = {
            let stale = iter == 1 || improvement < scale * noise;
            if improvement >= m.opt.tolerance && stale {
                noise = improvement_noise(efc, ar_inv);
            }
            m.opt.tolerance.max(scale * noise)
        };
        if improvement < tolerance {
            break;
        }
    }

    d.solver_niter[0] += iter as i32;
    d.solver_nnz[0] = if efc.ar.sparse {
        efc.ar.rownnz[..nefc].iter().sum()
    } else {
        (nefc * nefc) as i32
    };

    dual_finish(m, d, efc);
    Ok(())
}

/// One Gauss-Seidel sweep over the constraints, row by row or cone by cone; returns the
/// improvement (minus the summed cost changes). The fast build reads and updates its kept
/// gradient `grad` instead of each row's product with the forces.
fn sweep_rows(
    efc: &mut Efc,
    ar_inv: &[Real],
    #[cfg(feature = "fast")] grad: &mut [Real],
) -> Result<Real, StepError> {
    let nefc = efc.nefc;
    let mut improvement = 0.0;
    let mut i = 0;
    while i < nefc {
        let dim = efc.dim(i);
        let elliptic = efc.efc_type[i] == CNSTR_CONTACT_ELLIPTIC;
        #[cfg(not(feature = "fast"))]
        {
            improvement -= if elliptic {
                let mut res = [0.0; 6];
                residual(efc, &mut res, i, dim, false);
                update_elliptic(efc, ar_inv, i, &res)?
            } else {
                let mut res = [0.0; 1];
                residual(efc, &mut res, i, 1, false);
                update_scalar(efc, ar_inv, i, res[0])
            };
        }
        #[cfg(feature = "fast")]
        {
            improvement -= update_with_gradient(efc, ar_inv, grad, i, dim, elliptic)?;
        }
        i += dim;
    }
    Ok(improvement)
}

/// The constraints' states after a sweep (`dualState`), the previous ones kept in `oldstate`:
/// (active constraints, changed states).
fn new_states(efc: &mut Efc, oldstate: &mut [i32]) -> (i32, i32) {
    oldstate.copy_from_slice(efc.state);
    let nactive = dual_state(efc);
    (nactive, count_changes(oldstate, efc.state))
}

/// f32 only: the improvement a PGS sweep reports from rounding alone. A row's
/// gradient `b + AR f` carries an error `e` of `EPSILON` times the forces it sums
/// (`|b| + AR_ii |f|`), and the update's cost change, computed from that gradient, is
/// `-(res + e)² / 2 AR_ii`: negative even where `res` is zero, so that converged forces keep
/// reporting `e² / 2 AR_ii` of improvement per row and sweep (issue 25: rows_equality's PGS
/// ran into its cap of 100 sweeps in f32 on an improvement of 1e-7 where f64's fell below the
/// tolerance of 1e-8 in 62).
// never inlined: run about twice per solve, it would only change how the sweep loop compiles
#[cfg(feature = "f32")]
#[inline(never)]
fn improvement_noise(efc: &Efc, ar_inv: &[Real]) -> Real {
    let mut noise = 0.0;
    for j in 0..efc.nefc {
        let forces = efc.b[j].abs() + efc.force[j].abs() / ar_inv[j];
        let e = crate::real::EPSILON * forces;
        noise += 0.5 * e * e * ar_inv[j];
    }
    noise
}

/// How often the fast build's PGS makes its dual gradient afresh: at the start of every
/// `GRADIENT_REFRESH`-th sweep; between, the sweeps update it (see [`gradient`]), so its
/// rounding drift spans at most this many sweeps. The product with the whole of AR cost as much
/// as a sweep's updates: made every sweep the humanoid ran at 1.38x MuJoCo's rate, every 4th
/// 1.51x (humanoid_implicitfast 1.30 -> 1.45x), every 8th or once per solve no faster (1.50x).
/// Its distance from MuJoCo stayed within the chaos envelope of bench/fast_accuracy.py about as
/// often whatever the interval (humanoid: 89% of the recorded steps made every sweep, 82% every
/// 2nd, 99% every 4th, 95% every 8th, 81% once per solve; 99% within the wide envelope of
/// `--single` both every sweep and every 4th): chaos decides that share, not this drift.
#[cfg(feature = "fast")]
const GRADIENT_REFRESH: usize = 4;

/// The fast build's dual gradient `b + AR f` of every row (one product with the whole
/// matrix, whose rows are independent); the sweep then reads a row's entry instead of taking
/// the row's product with the forces (a reduction on the chain from one row's update to the
/// next's), and after each change of a force adds the change times that force's row (by
/// symmetry, its column): nothing for the rows whose force stays put (the satisfied ones, most
/// of them).
#[cfg(feature = "fast")]
fn gradient(efc: &Efc, grad: &mut [Real]) {
    efc.ar.mul_vec(grad, &efc.force[..efc.nefc]);
    for (g, b) in grad.iter_mut().zip(efc.b.iter()) {
        *g += b;
    }
}

/// The fast build's update of the constraint at row `i` (`dim` rows) from the kept gradient
/// `grad`, which then takes the forces' changes. Returns the cost change.
#[cfg(feature = "fast")]
fn update_with_gradient(
    efc: &mut Efc,
    ar_inv: &[Real],
    grad: &mut [Real],
    i: usize,
    dim: usize,
    elliptic: bool,
) -> Result<Real, StepError> {
    if !elliptic {
        let old = efc.force[i];
        let change = update_scalar(efc, ar_inv, i, grad[i]);
        add_change(efc, grad, i, old);
        return Ok(change);
    }
    // element by element: a copy of `dim` entries became a call to memcpy whose stores the
    // next vector loads could not forward
    let res: [Real; 6] = core::array::from_fn(|k| if k < dim { grad[i + k] } else { 0.0 });
    let old: [Real; 6] = core::array::from_fn(|k| if k < dim { efc.force[i + k] } else { 0.0 });
    let change = update_elliptic(efc, ar_inv, i, &res)?;
    for (k, &old) in old[..dim].iter().enumerate() {
        add_change(efc, grad, i + k, old);
    }
    Ok(change)
}

/// The fast build's sweep over rows that are all scalar (no elliptic cone), from the kept
/// gradient: [`update_scalar`] and [`add_change`] row after row without the per-row dispatch on
/// the row's kind. A dense matrix's next gradient entry is carried in a register (the same
/// fused multiply-add as the row update's): the chain from one row's force to the next's then
/// runs through arithmetic alone, not through the row update's stores and a load of one of them
/// (the Gymnasium humanoid's dozen rows, some 30 sweeps per solve, are that chain). Each row's
/// state is set from its final force as it goes, instead of in a pass of [`dual_state`] after
/// the sweep. Returns the improvement (minus the summed cost changes), the active constraints
/// and the changed states.
#[cfg(feature = "fast")]
fn sweep_scalar(efc: &mut Efc, ar_inv: &[Real], grad: &mut [Real]) -> (Real, i32, i32) {
    use crate::math::fast::mul_add;
    let (ne, nf, nefc) = (efc.ne, efc.nf, efc.nefc);
    let (force, frictionloss) = (&mut efc.force[..nefc], &efc.frictionloss[..nefc]);
    let (ar_inv, grad, ar) = (&ar_inv[..nefc], &mut grad[..nefc], &efc.ar);
    let state = &mut efc.state[..nefc];
    let dense = !ar.sparse;
    let mut improvement = 0.0;
    let (mut nactive, mut nchange) = ((ne + nf) as i32, 0);
    let mut carry = grad.first().copied().unwrap_or(0.0);
    for i in 0..nefc {
        let old = force[i];
        let res = if dense { carry } else { grad[i] };
        let next = grad.get(i + 1).copied().unwrap_or(0.0);
        carry = next;
        let step = old - res * ar_inv[i];
        let f = scalar_projection(step, i, ne, nf, frictionloss[i]);
        // cost_change of one row: an update that made things worse is undone
        let delta = f - old;
        let change = row_change(delta, 1.0 / ar_inv[i], res);
        let kept = if change > 1e-10 {
            old
        } else {
            improvement -= change;
            force[i] = f;
            if delta != 0.0 {
                if dense && i + 1 < nefc {
                    carry = mul_add(ar.AR[i * nefc + i + 1], delta, next);
                }
                ar.add_row_scaled(grad, i, delta);
            }
            f
        };
        // the row's state from its force, final for this sweep (`dualState`)
        let new = scalar_state(kept, i, ne, nf, frictionloss[i]);
        nchange += i32::from(new != state[i]);
        state[i] = new;
        nactive += i32::from(i >= ne + nf && new != CNSTRSTATE_SATISFIED);
    }
    (improvement, nactive, nchange)
}

/// The fast build's projection of a scalar row's force `f` onto its feasible set (row `i` of
/// `ne` equality and `nf` friction-loss rows): clamped to the friction loss `floss`, or below at
/// zero for a contact or limit row. [`update_scalar`] clamps in place the same way: written as
/// this function's caller, the exact build's PGS ran 12% slower on the Gymnasium humanoid (same
/// bits; the sweep's code changed shape).
#[cfg(feature = "fast")]
#[inline(always)]
fn scalar_projection(f: Real, i: usize, ne: usize, nf: usize, floss: Real) -> Real {
    if i >= ne + nf {
        // whether a contact row leaves zero changes from sweep to sweep
        core::hint::select_unpredictable(f < 0.0, 0.0, f)
    } else if i >= ne && f < -floss {
        -floss
    } else if i >= ne && f > floss {
        floss
    } else {
        f
    }
}

/// [`dual_state`] of one scalar row `i` whose force is `f` (`floss` its friction loss).
#[inline(always)]
fn scalar_state(f: Real, i: usize, ne: usize, nf: usize, floss: Real) -> i32 {
    if i < ne {
        CNSTRSTATE_QUADRATIC
    } else if i < ne + nf {
        if f <= -floss {
            CNSTRSTATE_LINEARPOS
        } else if f >= floss {
            CNSTRSTATE_LINEARNEG
        } else {
            CNSTRSTATE_QUADRATIC
        }
    } else if f <= 0.0 {
        CNSTRSTATE_SATISFIED
    } else {
        CNSTRSTATE_QUADRATIC
    }
}

/// Adds to `grad` the change of force `row` from `old`, times its row of AR (nothing when the
/// force stayed put).
#[cfg(feature = "fast")]
#[inline(always)]
fn add_change(efc: &Efc, grad: &mut [Real], row: usize, old: Real) {
    let delta = efc.force[row] - old;
    if delta != 0.0 {
        efc.ar.add_row_scaled(grad, row, delta);
    }
}

/// PGS update of a scalar row `i` whose dual gradient is `res`: the unconstrained minimum,
/// clamped to the friction-loss interval or to non-negative forces. Returns the cost change.
fn update_scalar(efc: &mut Efc, ar_inv: &[Real], i: usize, res: Real) -> Real {
    let (ne, nf) = (efc.ne, efc.nf);
    let res = [res];
    let oldforce = [efc.force[i]];

    let f = &mut efc.force[i];
    *f -= res[0] * ar_inv[i];
    if i >= ne && i < ne + nf {
        let floss = efc.frictionloss[i];
        if *f < -floss {
            *f = -floss;
        } else if *f > floss {
            *f = floss;
        }
    } else if i >= ne + nf && *f < 0.0 {
        *f = 0.0;
    }

    let a = [1.0 / ar_inv[i]];
    cost_change(&a, &mut efc.force[i..i + 1], &oldforce, &res, 1)
}

/// PGS update of the elliptic cone at rows `i..i + dim` whose dual gradient is `res`: a
/// normal (or ray) update, then the friction forces by a QCQP with the normal force fixed.
/// Returns the cost change.
fn update_elliptic(
    efc: &mut Efc,
    ar_inv: &[Real],
    i: usize,
    res: &[Real; 6],
) -> Result<Real, StepError> {
    let con = efc.cone(i);
    let (friction, dim) = (con.friction, con.dim as usize);
    let mut oldforce = [0.0; 6];
    let mut athis = [0.0; 36];
    oldforce[..dim].copy_from_slice(&efc.force[i..i + dim]);
    extract_block(efc, &mut athis, i, dim, false)?;

    let force = &mut efc.force[i..i + dim];
    if force[0] < MINVAL {
        // normal force too small: normal update only
        force[0] -= res[0] * ar_inv[i];
        if force[0] < 0.0 {
            force[0] = 0.0;
        }
        force[1..].fill(0.0);
    } else {
        // ray update: along the current force
        let mut v = [0.0; 6];
        let mut v1 = [0.0; 6];
        v[..dim].copy_from_slice(force);
        mul_mat_vec(&mut v1, &athis, &v, dim, dim);
        let denom = dot(&v[..dim], &v1[..dim]);
        if denom >= MINVAL {
            let mut x = -dot(&v[..dim], &res[..dim]) / denom;
            // keep the normal force non-negative
            if force[0] + x * v[0] < 0.0 {
                x = -v[0] / force[0];
            }
            for j in 0..dim {
                force[j] += x * v[j];
            }
        }
    }

    // friction update with the normal force fixed: Ac = AR block of the friction rows,
    // bc = their residual corrected for the forces just changed
    let nf = dim - 1;
    let mut ac = [0.0; 25];
    let mut bc = [0.0; 5];
    bc[..nf].copy_from_slice(&res[1..dim]);
    for j in 0..nf {
        let row = (j + 1) * dim;
        ac[j * nf..(j + 1) * nf].copy_from_slice(&athis[row + 1..row + dim]);
        bc[j] -= dot(&ac[j * nf..(j + 1) * nf], &oldforce[1..dim]);
        bc[j] += athis[row] * (force[0] - oldforce[0]);
    }
    if force[0] < MINVAL {
        force[1..].fill(0.0);
    } else {
        let mut v = [0.0; 6];
        friction_qcqp(&mut v, &ac, &bc, &friction, force[0], nf);
        force[1..].copy_from_slice(&v[..nf]);
    }

    Ok(cost_change(&athis, force, &oldforce, res, dim))
}

#[cfg(all(test, feature = "fast"))]
mod tests {
    use super::*;
    use crate::constraint::Jacobian;
    use crate::solver::{DualMatrix, Islands};
    use proptest::prelude::*;

    /// A dense SPD matrix `B B' + I` of `n` rows from `entries` (at least `n * n` of them).
    fn spd(n: usize, entries: &[Real]) -> std::vec::Vec<Real> {
        let mut a = std::vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let dot: Real = (0..n)
                    .map(|k| entries[i * n + k] * entries[j * n + k])
                    .sum();
                a[i * n + j] = dot + if i == j { 1.0 } else { 0.0 };
            }
        }
        a
    }

    /// Rows `ne` equality, `nf` friction loss, the rest contacts, over the matrix `ar`.
    fn efc<'a>(
        (ne, nf): (usize, usize),
        ar: DualMatrix<'a>,
        efc_type: &'a [i32],
        frictionloss: &'a [Real],
        b: &'a mut [Real],
        force: &'a mut [Real],
        state: &'a mut [i32],
    ) -> Efc<'a> {
        let nefc = efc_type.len();
        Efc {
            ne,
            nf,
            nefc,
            jac: Jacobian {
                nv: 0,
                nefc,
                sparse: false,
                J: &[],
                rownnz: &[],
                rowadr: &[],
                rowsuper: &[],
                colind: &[],
                JT: &[],
                JT_rownnz: &[],
                JT_rowadr: &[],
                JT_rowsuper: &[],
                JT_colind: &[],
            },
            ar,
            efc_type,
            efc_id: &[],
            frictionloss,
            D: &[],
            R: &[],
            aref: &[],
            b,
            force,
            state,
            contact: &mut [],
            islands: Islands {
                nisland: 0,
                dofnum: &[],
                dofadr: &[],
                dofind: &[],
                dof_islandind: &[],
                efcnum: &[],
                efcadr: &[],
                efcind: &[],
            },
        }
    }

    /// Forces, gradient, states and (improvement, active constraints, changed states) after a
    /// sweep.
    type Sweep = (
        std::vec::Vec<Real>,
        std::vec::Vec<Real>,
        std::vec::Vec<i32>,
        (Real, i32, i32),
    );

    /// One sweep both ways from the same forces and kept gradient: the scalar sweep, and the
    /// row-by-row sweep of the other rows with `dual_state` after it.
    fn both_sweeps(
        counts: (usize, usize),
        n: usize,
        ar: &[Real],
        sparse: bool,
        b: &[Real],
        force0: &[Real],
    ) -> [Sweep; 2] {
        let rownnz = std::vec![n as i32; n];
        let rowadr: std::vec::Vec<i32> = (0..n as i32).map(|i| i * n as i32).collect();
        let colind: std::vec::Vec<i32> = (0..n).flat_map(|_| 0..n as i32).collect();
        let mut efc_type = std::vec![CNSTR_CONTACT_PYRAMIDAL; n];
        efc_type[..counts.0].fill(CNSTR_EQUALITY);
        efc_type[counts.0..counts.0 + counts.1].fill(CNSTR_FRICTION_DOF);
        let frictionloss = std::vec![0.3; n];
        let mut ar_inv = std::vec![0.0; n];
        for (i, x) in ar_inv.iter_mut().enumerate() {
            *x = 1.0 / ar[i * n + i];
        }
        core::array::from_fn(|way| {
            let (mut bb, mut force, mut state) = (b.to_vec(), force0.to_vec(), std::vec![0; n]);
            let matrix = DualMatrix {
                sparse,
                AR: ar,
                rownnz: &rownnz,
                rowadr: &rowadr,
                colind: &colind,
            };
            let mut e = efc(
                counts,
                matrix,
                &efc_type,
                &frictionloss,
                &mut bb,
                &mut force,
                &mut state,
            );
            let mut grad = std::vec![0.0; n];
            gradient(&e, &mut grad);
            dual_state(&mut e);
            let (improvement, nactive, nchange) = if way == 0 {
                sweep_scalar(&mut e, &ar_inv, &mut grad)
            } else {
                let improvement = sweep_rows(&mut e, &ar_inv, &mut grad).unwrap();
                let (nactive, nchange) = new_states(&mut e, &mut std::vec![0; n]);
                (improvement, nactive, nchange)
            };
            (force, grad, state, (improvement, nactive, nchange))
        })
    }

    proptest! {
        /// The scalar sweep, with its carried gradient entry and its states set as it goes,
        /// changes forces, gradient, states and statistics bit for bit as the row-by-row
        /// sweep and `dual_state` after it do, dense and sparse.
        #[test]
        fn scalar_sweep_matches_row_updates(
            n in 1usize..12,
            split in (0usize..4, 0usize..4),
            entries in proptest::collection::vec(-1.0..1.0f64, 144),
            b in proptest::collection::vec(-2.0..2.0f64, 12),
            force in proptest::collection::vec(-0.5..1.0f64, 12),
            sparse in any::<bool>(),
        ) {
            let ne = split.0.min(n);
            let counts = (ne, split.1.min(n - ne));
            let entries: std::vec::Vec<Real> = entries.iter().map(|&x| x as Real).collect();
            let ar = spd(n, &entries);
            let b: std::vec::Vec<Real> = b[..n].iter().map(|&x| x as Real).collect();
            // contact forces start feasible, some of them at zero
            let force: std::vec::Vec<Real> = force[..n]
                .iter()
                .enumerate()
                .map(|(i, &x)| if i >= counts.0 + counts.1 { (x as Real).max(0.0) } else { x as Real })
                .collect();
            let [(f0, g0, s0, t0), (f1, g1, s1, t1)] =
                both_sweeps(counts, n, &ar, sparse, &b, &force);
            let bits = |v: &[Real]| v.iter().map(|x| x.to_bits()).collect::<std::vec::Vec<_>>();
            prop_assert_eq!(bits(&f0), bits(&f1));
            prop_assert_eq!(bits(&g0), bits(&g1));
            prop_assert_eq!(s0, s1);
            prop_assert_eq!(t0.0.to_bits(), t1.0.to_bits());
            prop_assert_eq!((t0.1, t0.2), (t1.1, t1.2));
            // the sweep moved something: a test of a no-op would pass any sweep
            prop_assert!(f0 != force || t0.0 == 0.0);
        }
    }
}
