//! The constraint update of the primal formulation (`mj_constraintUpdate`, MuJoCo's
//! `engine_core_constraint.c`): at an acceleration `qacc` with `jar = J qacc - aref`, each row's
//! state, force and cost ("Computation › Constraint solver › Primal problem").

use super::{Efc, Subset};
use crate::math::vec::norm;
use crate::model::Model;
use crate::real::Real;
use crate::support::is_pyramidal;
use crate::types::*;

/// Sets `efc_state`, `efc_force` and `qfrc_constraint = J' efc_force` for the residual
/// `jar = J qacc - aref`, and returns the constraint cost `s(jar)` (`mj_constraintUpdate`).
/// With `cone_hessian`, the contacts of elliptic cones in the middle zone get their cone
/// Hessian `H` (Newton).
pub fn constraint_update(
    m: &Model,
    qfrc_constraint: &mut [Real],
    efc: &mut Efc,
    jar: &[Real],
    cone_hessian: bool,
) -> Real {
    constraint_update_subset(m, qfrc_constraint, efc, jar, cone_hessian, &Subset::ALL)
}

/// [`constraint_update`] on the rows of `sub` (`mj_constraintUpdate_island`): `jar` is
/// compressed to them, and only the subset's dofs of `qfrc_constraint` are written.
pub fn constraint_update_subset(
    m: &Model,
    qfrc_constraint: &mut [Real],
    efc: &mut Efc,
    jar: &[Real],
    cone_hessian: bool,
    sub: &Subset,
) -> Real {
    let cost = update_rows(m, efc, jar, cone_hessian, sub);
    qfrc_from_forces(m, qfrc_constraint, efc, sub);
    cost
}

/// `qfrc_constraint = J' efc_force` on the dofs of `sub` (zero on every dof without rows).
pub fn qfrc_from_forces(m: &Model, qfrc_constraint: &mut [Real], efc: &Efc, sub: &Subset) {
    if sub.nefc(efc.nefc) == 0 {
        qfrc_constraint[..m.nv].fill(0.0);
    } else {
        efc.jac.mul_t_vec_subset(qfrc_constraint, efc.force, sub);
    }
}

/// [`constraint_update`] without `qfrc_constraint`: the rows' states and forces, and the cost.
/// For the warmstart's costs, whose `qfrc_constraint` the solver that follows writes afresh.
pub fn constraint_cost(m: &Model, efc: &mut Efc, jar: &[Real]) -> Real {
    update_rows(m, efc, jar, false, &Subset::ALL)
}

/// The rows of [`constraint_update_subset`]: states, forces, cost.
#[inline(always)]
fn update_rows(m: &Model, efc: &mut Efc, jar: &[Real], cone_hessian: bool, sub: &Subset) -> Real {
    let nefc = sub.nefc(efc.nefc);
    if nefc == 0 {
        return 0.0;
    }

    // the cost is accumulated row by row, in row order; a cone's rows are consecutive.
    // Without islands row `c` is constraint `c`, which the compiler can use.
    let mut cost = 0.0;
    let mut c = 0;
    if sub.island.is_none() {
        let (force, d) = (&mut efc.force[..nefc], &efc.D[..nefc]);
        for ((f, &d), &x) in force.iter_mut().zip(d).zip(jar) {
            *f = -d * x;
        }
        if is_pyramidal(m) {
            // no elliptic cones: after the equality and friction rows, plain inequalities
            let rest = efc.ne + efc.nf;
            while c < rest {
                c += update_row(efc, &jar[c..], c, cone_hessian, &mut cost);
            }
            inequalities(efc, &jar[..nefc], rest, &mut cost);
        } else {
            update_rows_elliptic(efc, &jar[..nefc], cone_hessian, &mut cost);
        }
    } else {
        for (c, &x) in jar.iter().enumerate().take(nefc) {
            let i = sub.efc(c);
            efc.force[i] = -efc.D[i] * x;
        }
        while c < nefc {
            c += update_row(efc, &jar[c..], sub.efc(c), cone_hessian, &mut cost);
        }
    }
    cost
}

/// The rows of all of `jar` (no islands) when contacts have elliptic cones: equality and
/// friction rows, then the cones, and the runs of plain inequalities (limits, frictionless
/// contacts) between them in one loop each.
// never inlined: the pyramidal path of the caller keeps its short set-up (hopper)
#[inline(never)]
fn update_rows_elliptic(efc: &mut Efc, jar: &[Real], cone_hessian: bool, cost: &mut Real) {
    let (nefc, rest) = (jar.len(), efc.ne + efc.nf);
    let mut c = 0;
    while c < nefc {
        if c >= rest && efc.efc_type[c] != CNSTR_CONTACT_ELLIPTIC {
            let end = inequality_run_end(&efc.efc_type[..nefc], c);
            inequalities(efc, &jar[..end], c, cost);
            c = end;
        } else {
            c += update_row(efc, &jar[c..], c, cone_hessian, cost);
        }
    }
}

/// Row `i` with residual `jar[0]` (and a cone's next rows): its state, force (where not the
/// unconstrained `-D jar` set before) and cost; returns the rows it covers.
#[inline(always)]
fn update_row(efc: &mut Efc, jar: &[Real], i: usize, cone_hessian: bool, cost: &mut Real) -> usize {
    if i < efc.ne {
        quadratic(efc, jar, i, cost);
        1
    } else if i < efc.ne + efc.nf {
        friction(efc, jar, i, cost);
        1
    } else if efc.efc_type[i] != CNSTR_CONTACT_ELLIPTIC {
        inequality(efc, jar, i, cost);
        1
    } else {
        let dim = efc.cone(i).dim as usize;
        elliptic(efc, jar, i, cone_hessian, cost);
        dim
    }
}

// The row helpers below read the residual of row `i` (and a cone's next rows) from `jar[0..]`.

/// Equality row: always quadratic.
fn quadratic(efc: &mut Efc, jar: &[Real], i: usize, cost: &mut Real) {
    efc.state[i] = CNSTRSTATE_QUADRATIC;
    *cost += 0.5 * efc.D[i] * jar[0] * jar[0];
}

/// Friction-loss row: linear beyond `±R floss` (force saturated at `∓floss`), quadratic within.
fn friction(efc: &mut Efc, jar: &[Real], i: usize, cost: &mut Real) {
    let (r, floss, x) = (efc.R[i], efc.frictionloss[i], jar[0]);
    if x <= -r * floss {
        efc.force[i] = floss;
        efc.state[i] = CNSTRSTATE_LINEARNEG;
        *cost += -0.5 * r * floss * floss - floss * x;
    } else if x >= r * floss {
        efc.force[i] = -floss;
        efc.state[i] = CNSTRSTATE_LINEARPOS;
        *cost += -0.5 * r * floss * floss + floss * x;
    } else {
        quadratic(efc, jar, i, cost);
    }
}

/// Limit, frictionless or pyramidal contact row: satisfied (no force) when `jar >= 0`.
fn inequality(efc: &mut Efc, jar: &[Real], i: usize, cost: &mut Real) {
    if jar[0] >= 0.0 {
        efc.force[i] = 0.0;
        efc.state[i] = CNSTRSTATE_SATISFIED;
    } else {
        quadratic(efc, jar, i, cost);
    }
}

/// The end of the run of rows from `start` that are not elliptic cones (the end of `efc_type`
/// if none is).
fn inequality_run_end(efc_type: &[i32], start: usize) -> usize {
    efc_type[start..]
        .iter()
        .position(|&t| t == CNSTR_CONTACT_ELLIPTIC)
        .map_or(efc_type.len(), |k| start + k)
}

/// [`inequality`] on the rows from `start` to the end of `jar`.
// inlined into both callers: a call costs the pyramidal path (hopper) 1% of its update
#[inline(always)]
fn inequalities(efc: &mut Efc, jar: &[Real], start: usize, cost: &mut Real) {
    let end = jar.len();
    let rows = (efc.force[start..end].iter_mut())
        .zip(&mut efc.state[start..end])
        .zip(&efc.D[start..end])
        .zip(&jar[start..]);
    for (((force, state), &d), &x) in rows {
        if x >= 0.0 {
            *force = 0.0;
            *state = CNSTRSTATE_SATISFIED;
        } else {
            *state = CNSTRSTATE_QUADRATIC;
            *cost += 0.5 * d * x * x;
        }
    }
}

/// Elliptic-cone contact at rows `i..i + dim`: top zone (inside the dual cone: no force),
/// bottom zone (quadratic in every row), or middle zone (the cone's surface, with the cone
/// Hessian if asked for).
fn elliptic(efc: &mut Efc, jar: &[Real], i: usize, cone_hessian: bool, cost: &mut Real) {
    let con = efc.cone(i);
    let (mu, friction, dim) = (con.mu, con.friction, con.dim as usize);

    // map to the regular dual cone, split into normal and tangent parts
    // with the length a constant (a contact's condim: 3, 4 or 6) the values stay in registers;
    // written at a run-time index and read back as vectors they went through the stack, and
    // the read waited on a failed store forward (a third of this function's time on the arm,
    // by perf)
    let (u, t) = match dim {
        3 => dual_cone(jar, mu, &friction, 3),
        4 => dual_cone(jar, mu, &friction, 4),
        6 => dual_cone(jar, mu, &friction, 6),
        _ => dual_cone(jar, mu, &friction, dim),
    };
    let n = u[0];

    let state = if n >= mu * t || (t <= 0.0 && n >= 0.0) {
        efc.force[i..i + dim].fill(0.0);
        CNSTRSTATE_SATISFIED
    } else if mu * n + t <= 0.0 || (t <= 0.0 && n < 0.0) {
        CNSTRSTATE_QUADRATIC
    } else {
        CNSTRSTATE_CONE
    };
    efc.state[i..i + dim].fill(state);

    match state {
        CNSTRSTATE_QUADRATIC => {
            for j in 0..dim {
                *cost += 0.5 * efc.D[i + j] * jar[j] * jar[j];
            }
        }
        CNSTRSTATE_CONE => {
            let dm = efc.D[i] / (mu * mu * (1.0 + mu * mu));
            let nmt = n - mu * t;
            // force = -ds/djar, with dU/djar = diag(mu, friction)
            efc.force[i] = -dm * nmt * mu;
            for j in 1..dim {
                efc.force[i + j] = -efc.force[i] / t * u[j] * friction[j - 1];
            }
            if cone_hessian {
                let id = efc.efc_id[i] as usize;
                cone_hessian_of(&mut efc.contact[id].H, &u, n, t, mu, dm, &friction, dim);
            }
            *cost += 0.5 * dm * nmt * nmt;
        }
        _ => {}
    }
}

/// `jar` mapped to the regular dual cone, `U = (jar[0] mu, jar[j] friction[j-1])`, and the
/// length of its tangent part, for a cone of `dim` rows (up to 6).
#[inline(always)]
fn dual_cone(jar: &[Real], mu: Real, friction: &[Real; 5], dim: usize) -> ([Real; 6], Real) {
    let mut u = [0.0; 6];
    u[0] = jar[0] * mu;
    for j in 1..dim {
        u[j] = jar[j] * friction[j - 1];
    }
    (u, norm(&u[1..dim]))
}

/// The Hessian of the middle-zone cone cost with respect to `jar` (`dim x dim`, row-major), for
/// `U` (the scaled residual), `N = U[0]`, `T = |U[1..]|`, scaled by `Dm`.
#[allow(clippy::too_many_arguments)]
fn cone_hessian_of(
    h: &mut [Real; 36],
    u: &[Real; 6],
    n: Real,
    t: Real,
    mu: Real,
    dm: Real,
    friction: &[Real; 5],
    dim: usize,
) {
    // first row: (1, -mu/T U)
    let scl = -mu / t;
    h[0] = 1.0;
    for j in 1..dim {
        h[j] = scl * u[j];
    }

    // upper block: mu N / T^3 U U', plus (mu^2 - mu N / T) on the diagonal
    let scl = mu * n / (t * t * t);
    for k in 1..dim {
        for j in k..dim {
            h[k * dim + j] = scl * u[j] * u[k];
        }
    }
    let scl = mu * mu - mu * n / t;
    for j in 1..dim {
        h[j * (dim + 1)] += scl;
    }

    // pre- and post-multiply by diag(mu, friction), scale by Dm
    let weight = |k: usize| if k == 0 { mu } else { friction[k - 1] };
    for k in 0..dim {
        let scl = dm * weight(k);
        for j in k..dim {
            h[k * dim + j] *= scl * weight(j);
        }
    }

    // symmetric: lower triangle from the upper
    for k in 0..dim {
        for j in k + 1..dim {
            h[j * dim + k] = h[k * dim + j];
        }
    }
}
