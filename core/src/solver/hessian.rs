//! The Newton solver's Hessian `H = M + J' D_active J` and its Cholesky factor (dense `L L'`,
//! or sparse reverse-order `L' L` when the Jacobian is sparse): computed directly
//! (`HessianDirect`), updated by rank-one changes when rows change state
//! (`HessianIncremental`), and, with elliptic cones in the middle zone, a copy with the cone
//! Hessians added (`HessianCone`).

use super::context::{Context, Hessian};
use super::Efc;
use crate::arena::Stack;
use crate::data::Data;
use crate::error::StepError;
use crate::math::chol::{chol_factor, chol_update, copy_lower};
use crate::math::mat::sqr_mat_td;
use crate::math::scalar::sqrt;
use crate::math::sparse::{
    chol_factor_sparse, chol_update_sparse, compress_sparse, sqr_mat_td_sparse,
    sqr_mat_td_uncompressed_init,
};
use crate::math::vec::{add_to_scl, scl};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::{add_m_dense, add_m_sparse, make_m_sparse};
use crate::types::*;

/// Computes and factors the Hessian from scratch (`HessianDirect`), then adds cones; counts
/// `nefc` updates.
pub(super) fn hessian_direct(
    m: &Model,
    d: &Data,
    efc: &Efc,
    ctx: &mut Context,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let (nv, nefc) = (m.nv, efc.nefc);
    let Some(h) = ctx.hessian.as_mut() else {
        return Ok(());
    };
    {
        let mut frame = stack.frame();

        // D of the rows in the quadratic state, 0 for the others
        let dq = frame.alloc::<Real>(nefc)?;
        for i in 0..nefc {
            dq[i] = if efc.state[i] == CNSTRSTATE_QUADRATIC {
                efc.D[i]
            } else {
                0.0
            };
        }

        if efc.jac.sparse {
            factor_sparse(m, d, efc, h, dq, &mut frame)?;
        } else {
            sqr_mat_td(h.h, efc.jac.J, Some(dq), nefc, nv);
            add_m_dense(m, d, h.h);
            factor_dense(h.h, nv);
            h.nnz = nv * nv;
        }
    }

    if ctx.ncone > 0 {
        hessian_cone(m, efc, ctx, stack)?;
    }
    ctx.nupdate = nefc as i32;
    Ok(())
}

/// Factors the dense symmetric Hessian in place (lower triangle): in the fast build, when it is
/// mostly zeros, by a right-looking kernel that skips them, which reads both triangles
/// (`sqr_mat_td` and `add_m_dense` set them).
fn factor_dense(h: &mut [Real], nv: usize) {
    #[cfg(feature = "fast")]
    if crate::math::fast_chol::mostly_zero(h, nv) {
        crate::math::fast_chol::chol_factor_rows(h, nv, MINVAL);
        return;
    }
    chol_factor(h, nv, MINVAL);
}

/// The sparse Hessian `M + J' diag(dq) J` in the uncompressed layout, factored, then
/// compressed.
fn factor_sparse(
    m: &Model,
    d: &Data,
    efc: &Efc,
    h: &mut Hessian,
    dq: &[Real],
    stack: &mut Stack,
) -> Result<(), StepError> {
    let nv = m.nv;
    let jac = &efc.jac;
    let mut frame = stack.frame();
    let nnz_m = m.nD;
    let m_rownnz = frame.alloc::<i32>(nv)?;
    let m_colind = frame.alloc::<i32>(nnz_m)?;
    let mat_m = frame.alloc::<Real>(nnz_m)?;
    make_m_sparse(m, d, mat_m, m_rownnz, m_colind);

    sqr_mat_td_uncompressed_init(h.rowadr, nv);
    sqr_mat_td_sparse(
        h.h,
        jac.J,
        jac.JT,
        Some(dq),
        nv,
        h.rownnz,
        h.rowadr,
        h.colind,
        jac.rownnz,
        jac.rowadr,
        jac.colind,
        jac.JT_rownnz,
        jac.JT_rowadr,
        jac.JT_colind,
        Some(jac.JT_rowsuper),
        &mut frame,
    )?;
    add_m_sparse(
        m, d, h.h, h.rownnz, h.rowadr, h.colind, mat_m, m_rownnz, m_colind, &mut frame,
    )?;

    #[cfg(feature = "fast")]
    let dense = crate::math::fast_chol::chol_factor_sparse_envelope(
        h.h, nv, MINVAL, h.rownnz, h.rowadr, h.colind, &mut frame,
    )?;
    #[cfg(not(feature = "fast"))]
    let dense = None;
    #[cfg(feature = "fast")]
    if let Some(order) = h.order.as_mut() {
        order.active = false;
        if dense.is_none() {
            let treeid = &m.dof_treeid[..nv];
            super::order::reorder(treeid, m.ntree, h.h, h.rownnz, h.colind, order, &mut frame)?;
        }
    }
    let rank = match dense {
        Some(rank) => rank,
        None => chol_factor_sparse(h.h, nv, MINVAL, h.rownnz, h.rowadr, h.colind, &mut frame)?,
    };
    if rank != nv {
        return Err(StepError::Numerical("rank-deficient Hessian"));
    }
    compress_sparse(h.h, nv, h.rownnz, h.rowadr, h.colind);
    h.nnz = h.rownnz[..nv].iter().map(|&n| n as usize).sum();
    if h.nnz > nv * nv {
        return Err(StepError::Numerical(
            "more non-zeros than elements in the sparse Hessian",
        ));
    }
    Ok(())
}

/// Updates the factor for the rows that entered or left the quadratic state since `oldstate`
/// (`HessianIncremental`), by rank-one updates with `sqrt(D_i) J_i`; a loss of accuracy
/// (rank drop) recomputes it directly. Then adds cones.
pub(super) fn hessian_incremental(
    m: &Model,
    d: &Data,
    efc: &Efc,
    ctx: &mut Context,
    oldstate: &[i32],
    stack: &mut Stack,
) -> Result<(), StepError> {
    let (nv, nefc) = (m.nv, efc.nefc);
    let jac = &efc.jac;
    #[cfg(feature = "fast")]
    if refactor_cheaper(ctx, efc, oldstate, nv, stack)? {
        return hessian_direct(m, d, efc, ctx, stack);
    }
    ctx.nupdate = 0;
    let lost_accuracy = {
        let Some(h) = ctx.hessian.as_mut() else {
            return Ok(());
        };
        let mut frame = stack.frame();
        let vec = frame.alloc::<Real>(nv)?;
        let vec_ind = frame.alloc::<i32>(nv)?;
        let mut lost = false;
        // most rows keep their state: the search for the next change runs on two slices
        // checked once, not on indices checked (and reloaded around the updates) per row
        let quadratic = |s: i32| s == CNSTRSTATE_QUADRATIC;
        let changed = (oldstate[..nefc].iter().zip(&efc.state[..nefc]))
            .enumerate()
            .filter(|(_, (&was, &is))| quadratic(was) != quadratic(is));
        for (i, (_, &is)) in changed {
            let flg_plus = quadratic(is);
            let sqrt_d = sqrt(efc.D[i]);
            let rank = if jac.sparse {
                let (nnz, adr) = (jac.rownnz[i] as usize, jac.rowadr[i] as usize);
                scl(&mut vec[..nnz], &jac.J[adr..adr + nnz], sqrt_d);
                vec_ind[..nnz].copy_from_slice(&jac.colind[adr..adr + nnz]);
                #[cfg(feature = "fast")]
                if let Some(order) = &h.order {
                    order.map_sparse(vec, vec_ind, nnz);
                }
                chol_update_sparse(
                    h.h, vec, nv, flg_plus, h.rownnz, h.rowadr, h.colind, nnz, vec_ind, &mut frame,
                )?
            } else {
                scl(vec, &jac.J[i * nv..(i + 1) * nv], sqrt_d);
                chol_update(h.h, vec, nv, flg_plus)
            };
            ctx.nupdate += 1;
            if rank < nv {
                lost = true;
                break;
            }
        }
        lost
    };
    if lost_accuracy {
        return hessian_direct(m, d, efc, ctx, stack);
    }
    if ctx.ncone > 0 {
        hessian_cone(m, efc, ctx, stack)?;
    }
    Ok(())
}

/// Fast build: whether the rows that changed state since `oldstate` cost more in rank-one
/// updates than factoring afresh (`math::fast::refactor_cheaper_*`): dense, by their number;
/// sparse, by the factor rows each one touches, so that a model of independent bodies (the
/// pile, humanoid100) keeps its cheap updates and a coupled one (the stack) refactors.
#[cfg(feature = "fast")]
fn refactor_cheaper(
    ctx: &Context,
    efc: &Efc,
    oldstate: &[i32],
    nv: usize,
    stack: &mut Stack,
) -> Result<bool, StepError> {
    use crate::math::fast;
    let Some(h) = ctx.hessian.as_ref() else {
        return Ok(false);
    };
    let jac = &efc.jac;
    let quadratic = |s: i32| s == CNSTRSTATE_QUADRATIC;
    let changed = |i: usize| quadratic(oldstate[i]) != quadratic(efc.state[i]);
    if !jac.sparse {
        let nchange = (0..efc.nefc).filter(|&i| changed(i)).count();
        let nquad = efc.state[..efc.nefc]
            .iter()
            .filter(|&&s| quadratic(s))
            .count();
        return Ok(fast::refactor_cheaper_dense(
            nchange,
            nv,
            nquad * (nv * nv / 2),
        ));
    }
    let nchange = (0..efc.nefc).filter(|&i| changed(i)).count();
    if !fast::refactor_possible_sparse(nchange, h.nnz, nv) {
        return Ok(false);
    }
    let mut frame = stack.frame();
    let path = frame.alloc::<u64>(nv)?;
    fast::update_paths(h.rownnz, h.rowadr, h.colind, path);
    let mut update = 0;
    for i in (0..efc.nefc).filter(|&i| changed(i)) {
        let adr = jac.rowadr[i] as usize;
        let cols = &jac.colind[adr..adr + jac.rownnz[i] as usize];
        let column = |c: i32| h.order.as_ref().map_or(c, |order| order.column(c));
        update += fast::update_cost_sparse(cols.iter().map(|&c| column(c)), path);
    }
    let form = || {
        let len = &jac.rownnz[..efc.nefc];
        len.iter().map(|&k| k as u64 * k as u64 / 2).sum()
    };
    Ok(fast::refactor_cheaper_sparse(update, &h.rownnz[..nv], form))
}

/// `hcone` = the factor of `H` plus, for each elliptic cone in the middle zone, `J' Hc J` with
/// the contact's cone Hessian `Hc = L L'`, as `dim` rank-one updates with the rows of `L' J`
/// (`HessianCone`).
fn hessian_cone(
    m: &Model,
    efc: &Efc,
    ctx: &mut Context,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let (nv, nefc) = (m.nv, efc.nefc);
    let jac = &efc.jac;
    let Some(h) = ctx.hessian.as_mut() else {
        return Ok(());
    };
    let mut frame = stack.frame();
    let ltj = frame.alloc::<Real>(6 * nv)?;
    let ltj_row = frame.alloc::<Real>(nv)?;
    let ltj_ind = frame.alloc::<i32>(nv)?;

    // a dense factor's lower triangle only: the updates and solves read no more (MuJoCo copies
    // the whole matrix; the upper triangle it carries along is never read)
    if jac.sparse {
        h.hcone[..h.nnz].copy_from_slice(&h.h[..h.nnz]);
    } else {
        copy_lower(h.hcone, h.h, nv);
    }

    let mut i = 0;
    while i < nefc {
        if efc.state[i] != CNSTRSTATE_CONE {
            i += 1;
            continue;
        }
        let con = efc.cone(i);
        let dim = con.dim as usize;

        // Cholesky factor of the cone Hessian
        let mut local = [0.0; 36];
        local[..dim * dim].copy_from_slice(&con.H[..dim * dim]);
        chol_factor(&mut local, dim, MINVAL);

        // width of the contact's Jacobian rows: their non-zeros (sparse) or nv (dense)
        let width = if jac.sparse {
            jac.rownnz[i] as usize
        } else {
            nv
        };
        let ltj = &mut ltj[..dim * width];
        ltj.fill(0.0);
        for r in 0..dim {
            let jrow = if jac.sparse {
                let adr = jac.rowadr[i + r] as usize;
                &jac.J[adr..adr + width]
            } else {
                &jac.J[(i + r) * nv..(i + r + 1) * nv]
            };
            for c in 0..=r {
                add_to_scl(
                    &mut ltj[c * width..(c + 1) * width],
                    jrow,
                    local[r * dim + c],
                );
            }
        }

        for r in 0..dim {
            let row = &mut ltj[r * width..(r + 1) * width];
            if jac.sparse {
                // every row of a contact has the same pattern
                let adr = jac.rowadr[i + r] as usize;
                ltj_row[..width].copy_from_slice(row);
                ltj_ind[..width].copy_from_slice(&jac.colind[adr..adr + width]);
                #[cfg(feature = "fast")]
                if let Some(order) = &h.order {
                    order.map_sparse(ltj_row, ltj_ind, width);
                }
                chol_update_sparse(
                    h.hcone, ltj_row, nv, true, h.rownnz, h.rowadr, h.colind, width, ltj_ind,
                    &mut frame,
                )?;
            } else {
                chol_update(h.hcone, row, nv, true);
            }
        }
        ctx.nupdate += dim as i32;
        i += dim;
    }
    Ok(())
}
