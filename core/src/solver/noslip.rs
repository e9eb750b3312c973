//! The noslip solver (`mj_solNoSlip`): after the main solver, a few PGS sweeps over the
//! friction forces alone (dry friction and contact friction, normal forces fixed) without the
//! regularizer `R`, which removes the slip that soft contacts allow ("Computation › Constraint
//! solver › Noslip").

use super::pgs::{
    ar_diag_inv, cost_change, dual_finish, dual_state, extract_block, friction_qcqp, residual,
};
use super::{count_changes, save_stats, stat_scale, Efc};
use crate::arena::Stack;
use crate::data::{Data, SolverStat};
use crate::error::StepError;
use crate::math::vec::dot;
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::types::*;

/// Noslip iterations (`mj_solNoSlip`), at most `maxiter` sweeps; statistics continue after the
/// main solver's, and `solver_niter` counts both. Then `qfrc_constraint` and `qacc` from the
/// forces.
// never inlined: one call per solve, in few models; inlined into `solve`, its scratch widened
// the stack frame every solver's step runs under
#[inline(never)]
pub(super) fn sol_noslip(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    stack: &mut Stack,
    maxiter: usize,
) -> Result<(), StepError> {
    let (ne, nf, nefc) = (efc.ne, efc.nf, efc.nefc);
    let mut frame = stack.frame();
    let ar_inv = frame.alloc::<Real>(nefc)?;
    let oldstate = frame.alloc::<i32>(nefc)?;
    let scale = stat_scale(m);

    ar_diag_inv(efc, ar_inv, true);
    dual_state(efc);

    let mut iter = 0;
    while iter < maxiter {
        let mut improvement = 0.0;

        // the regularizer's cost, dropped by this formulation, counts at the first sweep
        if iter == 0 {
            for i in 0..nefc {
                improvement += 0.5 * efc.force[i] * efc.force[i] * efc.R[i];
            }
        }

        for i in ne..ne + nf {
            dry_friction(efc, ar_inv, i, &mut improvement);
        }

        let mut i = ne + nf;
        while i < nefc {
            match efc.efc_type[i] {
                CNSTR_CONTACT_PYRAMIDAL => {
                    let dim = efc.cone(i).dim as usize;
                    for j in (i..i + 2 * (dim - 1)).step_by(2) {
                        improvement -= pyramid_pair(efc, j)?;
                    }
                    i += 2 * (dim - 1);
                }
                CNSTR_CONTACT_ELLIPTIC => {
                    let dim = efc.cone(i).dim as usize;
                    improvement -= elliptic_friction(efc, i)?;
                    i += dim;
                }
                _ => i += 1,
            }
        }

        oldstate.copy_from_slice(efc.state);
        let nactive = dual_state(efc);
        let nchange = count_changes(oldstate, efc.state);

        improvement *= scale;
        let stat = SolverStat {
            improvement,
            nactive,
            nchange,
            ..SolverStat::default()
        };
        save_stats(d.solver, iter + d.solver_niter[0].max(0) as usize, stat);
        iter += 1;
        if improvement < m.opt.noslip_tolerance {
            break;
        }
    }

    d.solver_niter[0] += iter as i32;
    dual_finish(m, d, efc);
    Ok(())
}

/// Dry-friction row `i`: unconstrained minimum clamped to `±frictionloss`.
fn dry_friction(efc: &mut Efc, ar_inv: &[Real], i: usize, improvement: &mut Real) {
    let mut res = [0.0; 1];
    residual(efc, &mut res, i, 1, true);
    let old = efc.force[i];
    let floss = efc.frictionloss[i];
    let f = &mut efc.force[i];
    *f -= res[0] * ar_inv[i];
    if *f < -floss {
        *f = -floss;
    } else if *f > floss {
        *f = floss;
    }
    let delta = *f - old;
    *improvement -= 0.5 * delta * delta / ar_inv[i] + delta * res[0];
}

/// A pair of opposing pyramid edges at rows `j, j + 1`: their sum (the normal force) stays,
/// their difference (the friction force) minimizes the cost within `[-sum, sum]`. Returns the
/// cost change.
fn pyramid_pair(efc: &mut Efc, j: usize) -> Result<Real, StepError> {
    let mut res = [0.0; 2];
    let mut ac = [0.0; 4];
    residual(efc, &mut res, j, 2, true);
    let oldforce = [efc.force[j], efc.force[j + 1]];
    extract_block(efc, &mut ac, j, 2, true)?;

    // bc = residual without the block's own contribution
    let mut bc = res;
    for k in 0..2 {
        bc[k] -= dot(&ac[2 * k..2 * k + 2], &oldforce);
    }

    // f0 = mid + y, f1 = mid - y; cost in y: ½ K1 y² + K0 y
    let f = &mut efc.force[j..j + 2];
    let mid = 0.5 * (f[0] + f[1]);
    let k1 = ac[0] + ac[3] - ac[1] - ac[2];
    let k0 = mid * (ac[0] - ac[3]) + bc[0] - bc[1];
    if k1 < MINVAL {
        f[0] = mid;
        f[1] = mid;
    } else {
        let y = -k0 / k1;
        if y < -mid {
            f[0] = 0.0;
            f[1] = 2.0 * mid;
        } else if y > mid {
            f[0] = 2.0 * mid;
            f[1] = 0.0;
        } else {
            f[0] = mid + y;
            f[1] = mid - y;
        }
    }
    Ok(cost_change(&ac, f, &oldforce, &res, 2))
}

/// The friction rows of the elliptic cone at `i` (`i + 1..i + dim`), by a QCQP with the
/// normal force fixed. Returns the cost change.
fn elliptic_friction(efc: &mut Efc, i: usize) -> Result<Real, StepError> {
    let con = efc.cone(i);
    let (friction, dim) = (con.friction, con.dim as usize);
    let n = dim - 1;
    let mut res = [0.0; 5];
    let mut oldforce = [0.0; 5];
    let mut ac = [0.0; 25];
    residual(efc, &mut res, i + 1, n, true);
    oldforce[..n].copy_from_slice(&efc.force[i + 1..i + dim]);
    extract_block(efc, &mut ac, i + 1, n, true)?;

    let mut bc = res;
    for j in 0..n {
        bc[j] -= dot(&ac[j * n..(j + 1) * n], &oldforce[..n]);
    }

    let normal = efc.force[i];
    let force = &mut efc.force[i + 1..i + dim];
    if normal < MINVAL {
        force.fill(0.0);
    } else {
        let mut v = [0.0; 6];
        friction_qcqp(&mut v, &ac, &bc, &friction, normal, n);
        force.copy_from_slice(&v[..n]);
    }
    Ok(cost_change(&ac, force, &oldforce, &res, n))
}
