//! The primal solvers, conjugate gradient and Newton (`mj_solCG`, `mj_solNewton`): both minimize
//! the primal cost `½ (a - a0)' M (a - a0) + s(J a - aref)` over the acceleration `a = qacc`
//! with MuJoCo's exact line search along a search direction, preconditioned by `M⁻¹` (CG,
//! Polak-Ribière directions) or by the Hessian of the cost (Newton) ("Computation › Constraint
//! solver › CG, Newton, Line search").

use super::context::{Context, Hessian};
use super::hessian::{hessian_direct, hessian_incremental};
use super::update::{constraint_update_subset, qfrc_from_forces};
use super::{count_changes, save_stats, stat_scale, Efc, Start, Subset};
use crate::arena::{ArenaError, Stack};
use crate::data::{Data, SolverStat};
use crate::error::StepError;
use crate::math::chol::chol_solve;
use crate::math::scalar::sqrt;
use crate::math::sparse::chol_solve_sparse;
use crate::math::vec::{add_to_scl, dot, norm, sub as sub_vec, sub_from};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::smooth::{solve_ld, solve_m_island};
use crate::support::{is_pyramidal, is_sparse, mul_m, mul_m_island};
use crate::types::*;

/// A point of the line search: step, cost, first and second derivatives (`mjCGPnt`).
#[derive(Clone, Copy, Debug, Default)]
struct Point {
    alpha: Real,
    cost: Real,
    deriv: [Real; 2],
}

/// Conjugate-gradient solver (`mj_solCG`), at most `maxiter` iterations from `qacc`.
pub(super) fn sol_cg(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    stack: &mut Stack,
    maxiter: usize,
    start: Option<Start>,
) -> Result<(), StepError> {
    sol_cg_newton(m, d, efc, stack, maxiter, false, Subset::ALL, start)
}

/// CG on the rows and dofs of one island (`mj_solCG_island`).
pub(super) fn sol_cg_island(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    stack: &mut Stack,
    maxiter: usize,
    island: usize,
) -> Result<(), StepError> {
    let sub = efc.islands.subset(island);
    sol_cg_newton(m, d, efc, stack, maxiter, false, sub, None)
}

/// Newton solver (`mj_solNewton`), at most `maxiter` iterations from `qacc`.
pub(super) fn sol_newton(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    stack: &mut Stack,
    maxiter: usize,
    start: Option<Start>,
) -> Result<(), StepError> {
    sol_cg_newton(m, d, efc, stack, maxiter, true, Subset::ALL, start)
}

/// The scratch of a solve (`CGallocate`), with `oldstate` (the row states before a step) and
/// CG's `gradold`, `mgradold`, `mgraddif` (Newton: empty); `jaref` and `ma` are the
/// warmstart's when `given`. One block per element type, split here: every `Stack::alloc`
/// carries its own checks and error path, which inlined fourteen times made the solver's set-up
/// its largest stretch of code run once per step.
#[allow(clippy::type_complexity)]
fn allocate<'s, 'i>(
    m: &Model,
    nv: usize,
    nefc: usize,
    stack: &mut Stack<'s>,
    newton: bool,
    sub: Subset<'i>,
    given: Option<(&'s mut [Real], &'s mut [Real])>,
) -> Result<(Context<'s, 'i>, [&'s mut [Real]; 3], &'s mut [i32]), StepError> {
    let (reals, ints) = scratch_sizes(nv, nefc, newton).ok_or(ArenaError::SizeOverflow)?;
    let reals = if given.is_some() {
        reals - nefc - nv
    } else {
        reals
    };
    let mut reals = stack.alloc::<Real>(reals)?;
    let mut ints = stack.alloc::<i32>(ints)?;
    let mut real = |n| split_front(&mut reals, n);
    let (jaref, ma) = match given {
        Some((jaref, ma)) => (&mut jaref[..nefc], &mut ma[..nv]),
        None => (real(nefc), real(nv)),
    };
    let jv = real(nefc);
    let (mv, grad, mgrad, search) = (real(nv), real(nv), real(nv), real(nv));
    let quad = real(3 * nefc);
    let cg = if newton { 0 } else { nv };
    let cg_scratch = [real(cg), real(cg), real(cg)];
    let hessian = if newton {
        let square = nv * nv;
        Some(Hessian {
            nnz: 0,
            h: real(square),
            hcone: real(square),
            rownnz: split_front(&mut ints, nv),
            rowadr: split_front(&mut ints, nv),
            colind: split_front(&mut ints, square),
            #[cfg(feature = "fast")]
            order: fast_order(nv, is_sparse(m), stack),
        })
    } else {
        None
    };
    let oldstate = split_front(&mut ints, nefc);
    let ctx = Context {
        sub,
        jaref,
        jv,
        ma,
        mv,
        grad,
        mgrad,
        search,
        quad,
        hessian,
        cost: 0.0,
        quad_gauss: [0.0; 3],
        scale: 0.0,
        nactive: 0,
        ncone: 0,
        nupdate: 0,
        ls_iter: 0,
        ls_slope: 1.0,
        smooth_norm: 0.0,
        forces: 0.0,
        elliptic: !is_pyramidal(m),
    };
    Ok((ctx, cg_scratch, oldstate))
}

/// Fast build: room for the sparse factor's row order (`super::order`), or `None` (dense, or
/// no room: MuJoCo's order then).
#[cfg(feature = "fast")]
fn fast_order<'s>(
    nv: usize,
    sparse: bool,
    stack: &mut Stack<'s>,
) -> Option<super::order::Order<'s>> {
    if !sparse {
        return None;
    }
    Some(super::order::Order {
        perm: stack.alloc::<i32>(nv).ok()?,
        iperm: stack.alloc::<i32>(nv).ok()?,
        work: stack.alloc::<Real>(nv).ok()?,
        active: false,
    })
}

/// Elements of `Real` and of `i32` that [`allocate`] splits (`None`: a count overflows).
fn scratch_sizes(nv: usize, nefc: usize, newton: bool) -> Option<(usize, usize)> {
    let vectors = nefc.checked_mul(5)?.checked_add(nv.checked_mul(5)?)?;
    if newton {
        let square = nv.checked_mul(nv)?;
        let reals = vectors.checked_add(square.checked_mul(2)?)?;
        let ints = square.checked_add(nefc)?.checked_add(nv.checked_mul(2)?)?;
        Some((reals, ints))
    } else {
        Some((vectors.checked_add(nv.checked_mul(3)?)?, nefc))
    }
}

/// The first `n` elements of `block`, which keeps the rest.
fn split_front<'s, T>(block: &mut &'s mut [T], n: usize) -> &'s mut [T] {
    let (head, tail) = core::mem::take(block).split_at_mut(n);
    *block = tail;
    head
}

/// The CG and Newton driver (`mj_solCGNewton`) on the dofs and rows of `sub` (Newton: all).
#[allow(clippy::too_many_arguments)]
fn sol_cg_newton(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    stack: &mut Stack,
    maxiter: usize,
    newton: bool,
    sub: Subset,
    start: Option<Start>,
) -> Result<(), StepError> {
    let (nv, nefc) = (sub.nv(m.nv), sub.nefc(efc.nefc));
    let mut frame = stack.frame();
    let (given, constraints) = match start {
        Some(s) if sub.island.is_none() => (Some((s.jaref, s.ma)), s.constraints),
        _ => (None, None),
    };
    let started = given.is_some();
    let (mut ctx, [gradold, mgradold, mgraddif], oldstate) =
        allocate(m, nv, nefc, &mut frame, newton, sub, given)?;

    // M qacc and J qacc - aref, unless the warmstart took them at this qacc
    if !started {
        mul_m_subset(m, d, ctx.ma, d.qacc, true, &sub);
        efc.jac.mul_vec_subset(ctx.jaref, d.qacc, true, &sub);
        match sub.island {
            None => sub_from(ctx.jaref, efc.aref),
            Some(_) => {
                for (c, x) in ctx.jaref.iter_mut().enumerate() {
                    *x -= efc.aref[sub.efc(c)];
                }
            }
        }
    }

    // the rows as the warmstart left them, unless cone Hessians are wanted
    let known = constraints.filter(|_| !(newton && ctx.elliptic));
    update_constraint(m, d, efc, &mut ctx, known);
    if newton {
        hessian_direct(m, d, efc, &mut ctx, &mut frame)?;
    }
    if cfg!(feature = "f32") {
        ctx.smooth_norm = smooth_norm(d, &ctx);
    }
    update_gradient(m, d, &mut ctx);

    // both start along the preconditioned gradient
    for (s, g) in ctx.search.iter_mut().zip(ctx.mgrad.iter()) {
        *s = *g * -1.0;
    }
    let scale = match sub.island {
        None => stat_scale(m),
        Some(_) => {
            let inertia: Real = (0..nv).map(|c| d.qM[m.dof_Madr[sub.dof(c)] as usize]).sum();
            1.0 / inertia
        }
    };
    ctx.scale = scale;

    let mut iter = 0;
    while iter < maxiter {
        let alpha = line_search(m, d, efc, &mut ctx);
        if alpha == 0.0 {
            break;
        }

        // move to the new point
        if sub.island.is_none() {
            add_to_scl(d.qacc, ctx.search, alpha);
        } else {
            for (c, s) in ctx.search.iter().enumerate() {
                d.qacc[sub.dof(c)] += alpha * *s;
            }
        }
        add_to_scl(ctx.ma, ctx.mv, alpha);
        add_to_scl(ctx.jaref, ctx.jv, alpha);

        if !newton {
            gradold.copy_from_slice(ctx.grad);
            mgradold.copy_from_slice(ctx.mgrad);
        }
        match sub.island {
            None => oldstate.copy_from_slice(&efc.state[..nefc]),
            Some(_) => {
                for (old, &i) in oldstate.iter_mut().zip(sub.efcind) {
                    *old = efc.state[i as usize];
                }
            }
        }
        let oldcost = ctx.cost;

        update_constraint(m, d, efc, &mut ctx, None);
        #[cfg(not(feature = "fast"))]
        {
            if newton {
                hessian_incremental(m, d, efc, &mut ctx, oldstate, &mut frame)?;
            }
            update_gradient(m, d, &mut ctx);
        }
        #[cfg(feature = "fast")]
        set_grad(m, d, &mut ctx);

        let nchange = match sub.island {
            None => count_changes(oldstate, efc.state),
            Some(_) => (0..nefc)
                .filter(|&c| efc.state[sub.efc(c)] != oldstate[c])
                .count() as i32,
        };
        let improvement = scale * (oldcost - ctx.cost);
        let gradient = scale * norm(ctx.grad);
        // fast build: the next direction (Newton's Hessian and both solvers' preconditioned
        // gradient) only when there is a next iteration; MuJoCo computes it at the last point
        // too, where nothing reads it (the last iteration's `nupdate` is then 0)
        #[cfg(feature = "fast")]
        let converged = {
            let converged = converged(m, newton, &ctx, scale, [improvement, gradient]);
            if !converged && iter + 1 < maxiter {
                if newton {
                    hessian_incremental(m, d, efc, &mut ctx, oldstate, &mut frame)?;
                }
                precondition(m, d, &mut ctx);
            } else {
                ctx.nupdate = 0;
            }
            converged || (iter + 1 < maxiter && newton_done(newton, d, &ctx))
        };
        let stat = SolverStat {
            improvement,
            gradient,
            lineslope: ctx.ls_slope,
            nactive: ctx.nactive,
            nchange,
            neval: ctx.ls_iter,
            nupdate: ctx.nupdate,
        };
        let island = sub.island.unwrap_or(0);
        if island < NISLAND {
            save_stats(&mut d.solver[island * NSOLVER_STATS..], iter, stat);
        }
        iter += 1;

        #[cfg(not(feature = "fast"))]
        let converged = converged(m, newton, &ctx, scale, [improvement, gradient])
            || newton_done(newton, d, &ctx);
        if converged {
            break;
        }

        if newton {
            for (s, g) in ctx.search.iter_mut().zip(ctx.mgrad.iter()) {
                *s = *g * -1.0;
            }
        } else {
            // Polak-Ribière, reset when negative
            sub_vec(mgraddif, ctx.mgrad, mgradold);
            let beta = dot(ctx.grad, mgraddif) / dot(gradold, mgradold).max(MINVAL);
            let beta = if beta < 0.0 { 0.0 } else { beta };
            for (s, g) in ctx.search.iter_mut().zip(ctx.mgrad.iter()) {
                *s = -*g + beta * *s;
            }
        }
    }

    let island = sub.island.unwrap_or(0);
    if island < NISLAND {
        d.solver_niter[island] += iter as i32;
        d.solver_nnz[island] = match &ctx.hessian {
            Some(h) if efc.jac.sparse => (2 * h.nnz - nv) as i32,
            Some(_) => (nv * nv) as i32,
            None => 0,
        };
    }
    Ok(())
}

/// Whether the solve has converged: the (scaled) cost improved or the gradient's norm fell below
/// the tolerance.
#[inline(always)]
fn converged(
    m: &Model,
    newton: bool,
    ctx: &Context,
    scale: Real,
    [improvement, gradient]: [Real; 2],
) -> bool {
    // Newton's quadratic convergence meets the rounding floor of f32 in one more step; CG's
    // many small improvements would stop short of the accuracy the f64 build reaches
    let (tolerance, gtolerance) = if newton {
        let t = |cost| crate::real::solver_tolerance(m.opt.tolerance, cost);
        let forces = if cfg!(feature = "f32") {
            scale * ctx.forces
        } else {
            1.0
        };
        (t(scale * ctx.cost), t(forces))
    } else {
        (m.opt.tolerance, m.opt.tolerance)
    };
    improvement < tolerance || gradient < gtolerance
}

/// Constraint forces, states and cost at the current point, plus the Gauss cost
/// (`CGupdateConstraint`); Newton asks for the cone Hessians. With a `known` constraint cost
/// the rows already hold their states and forces at this point (the warmstart's), and only
/// `qfrc_constraint` is made from them.
fn update_constraint(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    ctx: &mut Context,
    known: Option<Real>,
) {
    let sub = ctx.sub;
    let cone_hessian = ctx.hessian.is_some();
    ctx.cost = match known {
        Some(cost) => {
            qfrc_from_forces(m, d.qfrc_constraint, efc, &sub);
            cost
        }
        None => constraint_update_subset(m, d.qfrc_constraint, efc, ctx.jaref, cone_hessian, &sub),
    };
    let nefc = sub.nefc(efc.nefc);
    let (mut nactive, mut ncone) = (0, 0);
    let mut count = |state: i32| {
        nactive += i32::from(state != CNSTRSTATE_SATISFIED);
        ncone += i32::from(state == CNSTRSTATE_CONE);
    };
    match sub.island {
        None => efc.state[..nefc].iter().for_each(|&s| count(s)),
        Some(_) => sub
            .efcind
            .iter()
            .for_each(|&i| count(efc.state[i as usize])),
    }
    (ctx.nactive, ctx.ncone) = (nactive, ncone);

    let mut gauss = 0.0;
    match sub.island {
        None => {
            // the same sum with slices cut to nv, so that the loop carries no bounds checks
            let nv = m.nv;
            let (ma, smooth) = (&ctx.ma[..nv], &d.qfrc_smooth[..nv]);
            let (qacc, qacc_smooth) = (&d.qacc[..nv], &d.qacc_smooth[..nv]);
            for (((&ma, &f), &a), &a0) in ma.iter().zip(smooth).zip(qacc).zip(qacc_smooth) {
                gauss += 0.5 * (ma - f) * (a - a0);
            }
        }
        Some(_) => {
            for (c, &i) in sub.dofind.iter().enumerate() {
                let i = i as usize;
                gauss += 0.5 * (ctx.ma[c] - d.qfrc_smooth[i]) * (d.qacc[i] - d.qacc_smooth[i]);
            }
        }
    }
    ctx.quad_gauss[0] = gauss;
    ctx.cost += gauss;
}

/// The size of the forces whose difference is the gradient, `|M qacc| + |qfrc_smooth|` (which
/// bound `|qfrc_constraint|` too), in the f32 build: the gradient's rounding noise is
/// `EPSILON` times it, so that a gradient tolerance below that is never met (issue 25: the
/// Gymnasium ant, with only joint limits active, took two Newton iterations per step in f32
/// where f64 stops after one on the gradient), and of the line search's slope. Only the f32
/// build calls it, once per gradient (`ctx.forces`), with `|qfrc_smooth|` from the solve's
/// start ([`smooth_norm`]).
fn gradient_terms(ctx: &Context) -> Real {
    norm(ctx.ma) + ctx.smooth_norm
}

/// `|qfrc_smooth|` over the dofs solved for, which the solve does not change.
fn smooth_norm(d: &Data, ctx: &Context) -> Real {
    let smooth: Real = (0..ctx.ma.len())
        .map(|c| {
            let f = d.qfrc_smooth[ctx.sub.dof(c)];
            f * f
        })
        .sum();
    sqrt(smooth)
}

/// `grad = M qacc - qfrc_smooth - qfrc_constraint` and its preconditioned version
/// (`CGupdateGradient`): `H⁻¹ grad` with the Hessian factor (with cones if any) for Newton,
/// `M⁻¹ grad` for CG; in f32 also the size of the forces it is the difference of.
fn update_gradient(m: &Model, d: &Data, ctx: &mut Context) {
    set_grad(m, d, ctx);
    precondition(m, d, ctx);
}

/// `grad = M qacc - qfrc_smooth - qfrc_constraint`; in f32 also the size of the forces it is
/// the difference of.
#[inline(always)]
fn set_grad(m: &Model, d: &Data, ctx: &mut Context) {
    if cfg!(feature = "f32") {
        ctx.forces = gradient_terms(ctx);
    }
    let sub = ctx.sub;
    let nv = sub.nv(m.nv);
    let grad = &mut ctx.grad[..nv];
    match sub.island {
        // every dof: one pass over sliced vectors, without an index lookup and bounds checks
        None => {
            let forces = d.qfrc_smooth[..nv].iter().zip(&d.qfrc_constraint[..nv]);
            for ((g, &ma), (&smooth, &constraint)) in grad.iter_mut().zip(&ctx.ma[..nv]).zip(forces)
            {
                *g = ma - smooth - constraint;
            }
        }
        Some(_) => {
            for (c, g) in grad.iter_mut().enumerate() {
                let i = sub.dof(c);
                *g = ctx.ma[c] - d.qfrc_smooth[i] - d.qfrc_constraint[i];
            }
        }
    }
}

/// `mgrad`, the preconditioned gradient: `H⁻¹ grad` with the Hessian factor (with cones if any)
/// for Newton, `M⁻¹ grad` for CG.
#[inline(always)]
fn precondition(m: &Model, d: &Data, ctx: &mut Context) {
    let sub = ctx.sub;
    let nv = sub.nv(m.nv);
    match &mut ctx.hessian {
        Some(h) => {
            let factor: &[Real] = if ctx.ncone > 0 { h.hcone } else { h.h };
            if is_sparse(m) {
                let (rownnz, rowadr, colind) = (&*h.rownnz, &*h.rowadr, &*h.colind);
                let solve = |res: &mut [Real], vec: &[Real]| {
                    chol_solve_sparse(res, factor, vec, nv, rownnz, rowadr, colind);
                };
                #[cfg(feature = "fast")]
                if let Some(order) = h.order.as_mut() {
                    order.solve(ctx.mgrad, ctx.grad, solve);
                    return;
                }
                solve(ctx.mgrad, ctx.grad);
            } else {
                chol_solve(ctx.mgrad, factor, ctx.grad, nv);
            }
        }
        None => {
            ctx.mgrad.copy_from_slice(ctx.grad);
            match sub.island {
                None => solve_ld(m, ctx.mgrad, 1, d.qLD, d.qLDiagInv),
                Some(_) => solve_m_island(m, d, ctx.mgrad, sub.dofind, sub.dof_islandind),
            }
        }
    }
}

/// The cost along the search line as quadratic polynomials in the step, per row and for the
/// Gauss term, plus the cone quantities of elliptic contacts (`CGprepare`).
fn prepare(d: &Data, efc: &Efc, ctx: &mut Context) {
    let sub = ctx.sub;
    let v = &*ctx.search;
    let v_dot_smooth = match sub.island {
        None => dot(d.qfrc_smooth, v),
        Some(_) => {
            // a plain left-to-right sum, as MuJoCo gathers the island's entries
            let mut sum = 0.0;
            for (c, x) in v.iter().enumerate() {
                sum += d.qfrc_smooth[sub.dof(c)] * *x;
            }
            sum
        }
    };
    ctx.quad_gauss[1] = dot(v, ctx.ma) - v_dot_smooth;
    ctx.quad_gauss[2] = 0.5 * dot(v, ctx.mv);

    let nefc = sub.nefc(efc.nefc);
    if sub.island.is_none() && !ctx.elliptic {
        prepare_rows(&efc.D[..nefc], ctx.jaref, ctx.jv, ctx.quad);
        return;
    }
    let mut c = 0;
    while c < nefc {
        let i = sub.efc(c);
        let (jv, jaref, dd) = (&ctx.jv[c..], &ctx.jaref[c..], &efc.D[i..]);
        let quad = &mut ctx.quad[3 * c..];

        let dj0 = dd[0] * jaref[0];
        quad[0] = jaref[0] * dj0;
        quad[1] = jv[0] * dj0;
        quad[2] = jv[0] * dd[0] * jv[0];

        let mut dim = 1;
        if efc.efc_type[i] == CNSTR_CONTACT_ELLIPTIC {
            let con = efc.cone(i);
            let (mu, friction) = (con.mu, &con.friction);
            dim = con.dim as usize;

            // the whole vector's quadratic (bottom zone)
            for j in 1..dim {
                let djj = dd[j] * jaref[j];
                quad[0] += jaref[j] * djj;
                quad[1] += jv[j] * djj;
                quad[2] += jv[j] * dd[j] * jv[j];
            }

            // U = scaled residual, V = scaled direction: the primal cone becomes circular
            let (mut u, mut w) = ([0.0; 6], [0.0; 6]);
            u[0] = jaref[0] * mu;
            w[0] = jv[0] * mu;
            for j in 1..dim {
                u[j] = jaref[j] * friction[j - 1];
                w[j] = jv[j] * friction[j - 1];
            }
            let (mut uu, mut uv, mut vv) = (0.0, 0.0, 0.0);
            for j in 1..dim {
                uu += u[j] * u[j];
                uv += u[j] * w[j];
                vv += w[j] * w[j];
            }

            // kept in the slots of the cone's other rows (dim >= 3)
            quad[3] = u[0];
            quad[4] = w[0];
            quad[5] = uu;
            quad[6] = uv;
            quad[7] = vv;
            quad[8] = dd[0] / ((mu * mu) * (1.0 + (mu * mu)));
        }

        quad[0] *= 0.5;
        quad[2] *= 0.5;
        c += dim;
    }
}

/// The line's quadratic of each row without elliptic cones, as [`prepare`] computes it: one row
/// of `quad` per entry of `dd`.
fn prepare_rows(dd: &[Real], jaref: &[Real], jv: &[Real], quad: &mut [Real]) {
    let quad = quad[..3 * dd.len()].as_chunks_mut::<3>().0;
    for (((q, &d), &jaref), &jv) in quad.iter_mut().zip(dd).zip(jaref).zip(jv) {
        let dj0 = d * jaref;
        q[0] = 0.5 * (jaref * dj0);
        q[1] = jv * dj0;
        q[2] = 0.5 * (jv * d * jv);
    }
}

/// Adds the quadratic `q` to `total`.
fn add_quad(total: &mut [Real; 3], q: &[Real]) {
    total[0] += q[0];
    total[1] += q[1];
    total[2] += q[2];
}

/// Cost and its first two derivatives at step `p.alpha` along the search line (`CGeval`).
fn eval(efc: &Efc, ctx: &mut Context, p: &mut Point) {
    let sub = ctx.sub;
    let nefc = sub.nefc(efc.nefc);
    let mut acc = Accumulated {
        cost: 0.0,
        deriv: [0.0; 2],
        total: ctx.quad_gauss,
    };
    let rows = LineRows {
        jaref: &ctx.jaref[..nefc],
        jv: &ctx.jv[..nefc],
        quad: &ctx.quad[..],
    };
    // rows in order; without islands row `c` is constraint `c`, which the compiler can use
    let mut c = 0;
    if sub.island.is_none() && !ctx.elliptic {
        eval_pyramidal(efc, &rows, p.alpha, &mut acc);
    } else if sub.island.is_none() {
        let arrays = RowArrays::of(efc).cut(efc.nefc);
        while c < nefc {
            c += eval_row(efc, &arrays, &rows, p.alpha, c, c, &mut acc);
        }
    } else {
        let arrays = RowArrays::of(efc);
        while c < nefc {
            c += eval_row(efc, &arrays, &rows, p.alpha, c, sub.efc(c), &mut acc);
        }
    }

    let (alpha, total) = (p.alpha, acc.total);
    let mut cost = acc.cost;
    let mut deriv = acc.deriv;
    cost += alpha * alpha * total[2] + alpha * total[1] + total[0];
    deriv[0] += 2.0 * alpha * total[2] + total[1];
    deriv[1] += 2.0 * total[2];

    // a non-convex line (should not occur; MuJoCo prints a warning) gets a tiny curvature
    if deriv[1] <= 0.0 {
        deriv[1] = MINVAL;
    }

    p.cost = cost;
    p.deriv = deriv;
    ctx.ls_iter += 1;
}

/// [`eval_row`] over all rows when none is an elliptic cone: the equality rows, the
/// friction-loss rows and the inequality rows each in one loop, in row order.
fn eval_pyramidal(efc: &Efc, rows: &LineRows, alpha: Real, acc: &mut Accumulated) {
    let (ne, nf, nefc) = (efc.ne, efc.nf, rows.jaref.len());
    let quad = rows.quad[..3 * nefc].as_chunks::<3>().0;
    for q in &quad[..ne] {
        add_quad(&mut acc.total, q);
    }
    let arrays = RowArrays::of(efc);
    for c in ne..ne + nf {
        eval_row(efc, &arrays, rows, alpha, c, c, acc);
    }
    let rest = ne + nf;
    let inequality = quad[rest..]
        .iter()
        .zip(&rows.jaref[rest..])
        .zip(&rows.jv[rest..]);
    for ((q, &jaref), &jv) in inequality {
        if jaref + alpha * jv < 0.0 {
            add_quad(&mut acc.total, q);
        }
    }
}

/// The per-row line-search terms [`eval`] reads.
struct LineRows<'a> {
    jaref: &'a [Real],
    jv: &'a [Real],
    quad: &'a [Real],
}

/// The constraint arrays [`eval_row`] reads (a local of its loops, kept in registers).
struct RowArrays<'a> {
    efc_type: &'a [i32],
    efc_id: &'a [i32],
    frictionloss: &'a [Real],
    r: &'a [Real],
}

impl<'a> RowArrays<'a> {
    /// The arrays of `efc` as they are.
    fn of(efc: &Efc<'a>) -> Self {
        RowArrays {
            efc_type: efc.efc_type,
            efc_id: efc.efc_id,
            frictionloss: efc.frictionloss,
            r: efc.R,
        }
    }

    /// The arrays cut again to `nefc` rows (their length already): the cut shows the compiler
    /// that a row below the row count needs no bounds check per row (the cone rows' loop).
    fn cut(self, nefc: usize) -> Self {
        RowArrays {
            efc_type: &self.efc_type[..nefc],
            efc_id: &self.efc_id[..nefc],
            frictionloss: &self.frictionloss[..nefc],
            r: &self.r[..nefc],
        }
    }
}

/// What [`eval`] sums over the rows: the cost and derivatives of elliptic cones' middle zones,
/// and the total quadratic of the rows in their quadratic zones.
struct Accumulated {
    cost: Real,
    deriv: [Real; 2],
    total: [Real; 3],
}

/// Adds row `c` (constraint `i`) at step `alpha` to `acc`; returns the rows it covers (a cone's
/// dimension for an elliptic contact, else 1).
#[inline(always)]
fn eval_row(
    efc: &Efc,
    arrays: &RowArrays,
    rows: &LineRows,
    alpha: Real,
    c: usize,
    i: usize,
    acc: &mut Accumulated,
) -> usize {
    let (ne, nf) = (efc.ne, efc.nf);
    let quad = &rows.quad[3 * c..];
    let total = &mut acc.total;
    if i < ne {
        add_quad(total, quad);
        return 1;
    }
    if i < ne + nf {
        // quadratic within ±R floss, linear beyond
        let (start, dir) = (rows.jaref[c], rows.jv[c]);
        let x = start + alpha * dir;
        let f = arrays.frictionloss[i];
        let rf = arrays.r[i] * f;
        if -rf < x && x < rf {
            add_quad(total, quad);
        } else if x <= -rf {
            add_quad(total, &[f * (-0.5 * rf - start), -f * dir, 0.0]);
        } else {
            add_quad(total, &[f * (-0.5 * rf + start), f * dir, 0.0]);
        }
        return 1;
    }
    if arrays.efc_type[i] != CNSTR_CONTACT_ELLIPTIC {
        if rows.jaref[c] + alpha * rows.jv[c] < 0.0 {
            add_quad(total, quad);
        }
        return 1;
    }

    let con = &efc.contact[arrays.efc_id[i] as usize];
    let (mu, dim) = (con.mu, con.dim as usize);
    // a cone's nine terms sliced once: one bounds check instead of six
    let quad = &quad[..9];
    let (u0, v0, uu, uv, vv, dm) = (quad[3], quad[4], quad[5], quad[6], quad[7], quad[8]);
    let n = u0 + alpha * v0;
    let tsqr = uu + alpha * (2.0 * uv + alpha * vv);
    if tsqr <= 0.0 {
        // no tangential part: bottom zone if the normal part is negative, else top
        if n < 0.0 {
            add_quad(total, quad);
        }
    } else {
        let t = sqrt(tsqr);
        if n >= mu * t {
            // top zone: no cost
        } else if mu * n + t <= 0.0 {
            add_quad(total, quad);
        } else {
            // middle zone
            let n1 = v0;
            let t1 = (uv + alpha * vv) / t;
            let t2 = vv / t - (uv + alpha * vv) * t1 / (t * t);
            acc.cost += 0.5 * dm * (n - mu * t) * (n - mu * t);
            acc.deriv[0] += dm * (n - mu * t) * (n1 - mu * t1);
            acc.deriv[1] += dm * ((n1 - mu * t1) * (n1 - mu * t1) + (n - mu * t) * (-mu * t2));
        }
    }
    dim
}

/// `res = M vec` on the dofs of `sub`, `res` compressed, `vec` compressed unless `vec_unc`.
fn mul_m_subset(m: &Model, d: &Data, res: &mut [Real], vec: &[Real], vec_unc: bool, sub: &Subset) {
    match sub.island {
        None => mul_m(m, d, res, vec),
        Some(_) => mul_m_island(m, d, res, vec, vec_unc, sub.dofind, sub.dof_islandind),
    }
}

/// Evaluates at `alpha`.
fn eval_at(efc: &Efc, ctx: &mut Context, alpha: Real) -> Point {
    let mut p = Point {
        alpha,
        ..Point::default()
    };
    eval(efc, ctx, &mut p);
    p
}

/// Moves the bracket end `p` to the best candidate on its side (a smaller derivative of the
/// same sign), and if it moved, evaluates its Newton point into `pnext` (`updateBracket`).
fn update_bracket(
    efc: &Efc,
    ctx: &mut Context,
    p: &mut Point,
    candidates: &[Point; 3],
    pnext: &mut Point,
) -> bool {
    let mut moved = false;
    for c in candidates {
        let negative = p.deriv[0] < 0.0 && c.deriv[0] < 0.0 && p.deriv[0] < c.deriv[0];
        let positive = p.deriv[0] > 0.0 && c.deriv[0] > 0.0 && p.deriv[0] > c.deriv[0];
        if negative || positive {
            *p = *c;
            moved = true;
        }
    }
    if moved {
        *pnext = eval_at(efc, ctx, p.alpha - p.deriv[0] / p.deriv[1]);
    }
    moved
}

/// Whether, in f32, Newton's next step would move `qacc` by less than the rounding its solve
/// carries: the step `H⁻¹ grad` (`mgrad`) shorter than a hundred epsilons of `qacc`. After a
/// step that changed no constraint state the quadratic model is exact and the gradient left is
/// the rounding of the forces it is the difference of (`D (J qacc - aref)` through `Jᵀ`, above
/// the floor `gradient_terms` gives the gradient test), which `H⁻¹` turns into a step of 10-100
/// epsilons of `qacc`: f32 took one more iteration without improvement where f64's gradient
/// falls to 1e-13 (MuJoCo's humanoid from the f64 core's states: 3706 iterations in 1000 steps
/// against 3671, now 3668, with the same distance to f64's `qacc`). Always false in f64, which
/// stops as MuJoCo does.
fn newton_done(newton: bool, d: &Data, ctx: &Context) -> bool {
    #[cfg(feature = "f32")]
    if newton {
        let n = ctx.mgrad.len();
        let qacc: Real = match ctx.sub.island {
            // every dof: one pass over the sliced vector
            None => dot(&d.qacc[..n], &d.qacc[..n]),
            Some(_) => (0..n)
                .map(|c| {
                    let a = d.qacc[ctx.sub.dof(c)];
                    a * a
                })
                .sum(),
        };
        return norm(ctx.mgrad) < 100.0 * crate::real::EPSILON * sqrt(qacc);
    }
    let _ = (newton, d, ctx);
    false
}

/// The exact line search along `search` (`CGsearch`): Newton steps on the piecewise-quadratic
/// cost until the derivative is small, bracketing when one-sided steps stop. Returns the step
/// (0: no improvement).
fn line_search(m: &Model, d: &Data, efc: &Efc, ctx: &mut Context) -> Real {
    ctx.ls_iter = 0;
    ctx.ls_slope = 1.0;

    let snorm = norm(ctx.search);
    if snorm < MINVAL {
        return 0.0;
    }
    // in f32 the gradient carries rounding noise of `EPSILON` times the forces whose difference
    // it is, and the slope `search · grad` that times `|search|`: a gradient or a slope within
    // that noise is zero, where `MINVAL` and the slope tolerance lie far below it (issue 25: the
    // bench cloth's line search evaluated 2.96 points per CG iteration in f32, 2.52 in f64)
    #[cfg(feature = "f32")]
    let noise = 10.0 * crate::real::EPSILON * ctx.forces;
    #[cfg(feature = "f32")]
    if norm(ctx.grad) < noise {
        return 0.0;
    }
    let gtol = m.opt.tolerance * m.opt.ls_tolerance * snorm / ctx.scale;
    #[cfg(feature = "f32")]
    let gtol = gtol.max(noise * snorm);
    let slopescl = ctx.scale / snorm;
    let ls_iterations = m.opt.ls_iterations;

    let sub = ctx.sub;
    mul_m_subset(m, d, ctx.mv, ctx.search, false, &sub);
    efc.jac.mul_vec_subset(ctx.jv, ctx.search, false, &sub);
    prepare(d, efc, ctx);

    let p0 = eval_at(efc, ctx, 0.0);

    // always try one Newton step
    let mut p1 = eval_at(efc, ctx, p0.alpha - p0.deriv[0] / p0.deriv[1]);
    if p0.cost < p1.cost {
        p1 = p0;
    }
    if p1.deriv[0].abs() < gtol {
        ctx.ls_slope = p1.deriv[0].abs() * slopescl;
        return p1.alpha;
    }

    // one-sided search in the descent direction
    let dir: Real = if p1.deriv[0] < 0.0 { 1.0 } else { -1.0 };
    let mut p2 = Point::default();
    let mut p2update = false;
    while p1.deriv[0] * dir <= -gtol && ctx.ls_iter < ls_iterations {
        p2 = p1;
        p2update = true;
        let alpha = p1.alpha - p1.deriv[0] / p1.deriv[1];
        p1 = eval_at(efc, ctx, alpha);
        if p1.deriv[0].abs() < gtol {
            ctx.ls_slope = p1.deriv[0].abs() * slopescl;
            return p1.alpha;
        }
    }
    if ctx.ls_iter >= ls_iterations || !p2update {
        // could not bracket (or no second point, which should not occur)
        ctx.ls_slope = p1.deriv[0].abs() * slopescl;
        return p1.alpha;
    }

    // bracketed search between p1 and p2
    let mut p2next = p1;
    let mut p1next = eval_at(efc, ctx, p1.alpha - p1.deriv[0] / p1.deriv[1]);
    while ctx.ls_iter < ls_iterations {
        let pmid = eval_at(efc, ctx, 0.5 * (p1.alpha + p2.alpha));
        let candidates = [p1next, p2next, pmid];

        // a converged candidate: the one of least cost
        let mut best: Option<&Point> = None;
        for c in &candidates {
            if c.deriv[0].abs() < gtol && best.is_none_or(|b| c.cost < b.cost) {
                best = Some(c);
            }
        }
        if let Some(b) = best {
            ctx.ls_slope = b.deriv[0].abs() * slopescl;
            return b.alpha;
        }

        let b1 = update_bracket(efc, ctx, &mut p1, &candidates, &mut p1next);
        let b2 = update_bracket(efc, ctx, &mut p2, &candidates, &mut p2next);
        if !b1 && !b2 {
            // numerical accuracy reached: the midpoint
            ctx.ls_slope = pmid.deriv[0].abs() * slopescl;
            return pmid.alpha;
        }
    }

    // out of iterations: the better bracket end if it improves on the start
    if p1.cost <= p2.cost && p1.cost < p0.cost {
        ctx.ls_slope = p1.deriv[0].abs() * slopescl;
        p1.alpha
    } else if p2.cost <= p1.cost && p2.cost < p0.cost {
        ctx.ls_slope = p2.deriv[0].abs() * slopescl;
        p2.alpha
    } else {
        0.0
    }
}
