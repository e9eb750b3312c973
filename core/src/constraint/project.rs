//! Projection for the dual solver (`mj_projectConstraint`): `efc_AR = J M⁻¹ J' + R`, dense or
//! sparse.

use super::allocate::with_arrays;
use super::jacobian::{JACOBIAN_DENSE, JACOBIAN_ROWS};
use crate::arena::{ArenaArraysMut, ArenaField, ArenaMask, Stack};
use crate::data::Data;
use crate::error::StepError;
#[cfg(not(feature = "fast"))]
use crate::math::mat::{sqr_mat_td, transpose};
use crate::math::sparse::{
    sqr_mat_td_sparse, sqr_mat_td_sparse_init, super_sparse, transpose_sparse, SparseMut,
};
use crate::model::Model;
use crate::real::Real;
#[cfg(not(feature = "fast"))]
use crate::smooth::solve_m2;
use crate::support::is_dual;
use crate::support::is_sparse;

/// Constraint-space inverse inertia plus regularizer for the dual solver, `efc_AR = J M^-1 J'
/// + diag(R)` (`mj_projectConstraint`), dense or sparse with `efc_AR_rownnz/rowadr/colind`.
/// Only for dual solvers (see [`is_dual`]).
pub fn project_constraint(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if d.nefc == 0 || !is_dual(m) {
        return Ok(());
    }
    let sparse = is_sparse(m);
    if sparse {
        with_arrays(d, JACOBIAN_ROWS.union(DUAL_SPARSE), |d, a, stack| {
            project_sparse(m, d, a, stack)
        })
    } else {
        with_arrays(d, JACOBIAN_DENSE.union(DUAL_DENSE), |d, a, stack| {
            project_dense(m, d, a, stack)
        })
    }
}

/// The arena arrays of the dense `efc_AR` besides the Jacobian's: `efc_R` and `efc_AR`.
const DUAL_DENSE: ArenaMask = ArenaMask::of(&[ArenaField::efc_R, ArenaField::efc_AR]);

/// The arena arrays of the sparse `efc_AR` besides the Jacobian's rows.
const DUAL_SPARSE: ArenaMask = DUAL_DENSE.union(ArenaMask::of(&[
    ArenaField::efc_AR_rownnz,
    ArenaField::efc_AR_rowadr,
    ArenaField::efc_AR_colind,
]));

/// Dense `efc_AR`: `JM2 = J L^-T D^-1/2` by rows, then `JM2 JM2'`.
#[cfg(not(feature = "fast"))]
fn project_dense(
    m: &Model,
    d: &Data,
    a: &mut ArenaArraysMut,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let (nefc, nv) = (d.nefc, m.nv);
    let jm2 = stack.alloc::<Real>(nefc * nv)?;
    solve_m2(m, d, jm2, &a.efc_J[..nefc * nv], nefc);
    let jm2t = stack.alloc::<Real>(nv * nefc)?;
    transpose(jm2t, jm2, nefc, nv);
    sqr_mat_td(a.efc_AR, jm2t, None, nv, nefc);
    add_regularizer(a.efc_AR, a.efc_R, nefc);
    Ok(())
}

/// Dense `efc_AR`, fast build: `J'` (rows padded to whole blocks) solved on all its columns at
/// once, one block update per entry of the factor, then `JM2 JM2'` in registers by blocks.
#[cfg(feature = "fast")]
fn project_dense(
    m: &Model,
    d: &Data,
    a: &mut ArenaArraysMut,
    stack: &mut Stack,
) -> Result<(), StepError> {
    use crate::math::fast;
    let (nefc, nv) = (d.nefc, m.nv);
    let stride = fast::padded(nefc);
    let jm2t = stack.alloc::<Real>(nv * stride)?;
    fast::transpose_padded(jm2t, &a.efc_J[..nefc * nv], nefc, nv, stride);
    fast::solve_m2_columns(
        jm2t,
        stride,
        d.qLD,
        &d.qLDiagSqrtInv[..nv],
        &m.dof_Madr[..nv],
        &m.dof_parentid[..nv],
        &m.dof_simplenum[..nv],
    );
    fast::gram(a.efc_AR, jm2t, nv, nefc, stride);
    add_regularizer(a.efc_AR, a.efc_R, nefc);
    Ok(())
}

/// `efc_AR += diag(efc_R)` on the dense `nefc × nefc` matrix.
fn add_regularizer(ar: &mut [Real], r: &[Real], nefc: usize) {
    for (i, &ri) in r[..nefc].iter().enumerate() {
        ar[i * (nefc + 1)] += ri;
    }
}

/// Sparse `efc_AR`: each row of `J` completed with the ancestors of its dofs (the fill-in of
/// the back-substitution), back-substituted with `L'` and scaled by `D^-1/2`, then multiplied
/// with its transpose.
fn project_sparse(
    m: &Model,
    d: &Data,
    a: &mut ArenaArraysMut,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let (nefc, nv) = (d.nefc, m.nv);
    let jm2 = SparseMut::new(stack, nefc, nefc * nv)?;
    let jm2t = SparseMut::new(stack, nv, nv * nefc)?;
    let rowsuper = stack.alloc::<i32>(nefc)?;
    for r in 0..nefc {
        let adr = match r {
            0 => 0,
            _ => (jm2.rowadr[r - 1] + jm2.rownnz[r - 1]) as usize,
        };
        let jadr = a.efc_J_rowadr[r] as usize;
        let jrow = &a.efc_J[jadr..jadr + a.efc_J_rownnz[r] as usize];
        let jcols = &a.efc_J_colind[jadr..jadr + jrow.len()];
        let nnz = fill_ancestors(m, jrow, jcols, &mut jm2.val[adr..], &mut jm2.colind[adr..]);
        jm2.rowadr[r] = adr as i32;
        jm2.rownnz[r] = nnz as i32;
        back_sub_m2(
            m,
            d,
            &mut jm2.val[adr..adr + nnz],
            &jm2.colind[adr..adr + nnz],
        );
    }
    transpose_sparse(
        jm2t.val,
        jm2.val,
        nefc,
        nv,
        jm2t.rownnz,
        jm2t.rowadr,
        jm2t.colind,
        jm2.rownnz,
        jm2.rowadr,
        jm2.colind,
    );
    super_sparse(nefc, rowsuper, jm2.rownnz, jm2.rowadr, jm2.colind);
    let (ar_rownnz, ar_rowadr, ar_colind) = (
        &mut *a.efc_AR_rownnz,
        &mut *a.efc_AR_rowadr,
        &mut *a.efc_AR_colind,
    );
    sqr_mat_td_sparse_init(ar_rownnz, ar_rowadr, nefc, &jm2t, &jm2, rowsuper, stack)?;
    sqr_mat_td_sparse(
        a.efc_AR,
        jm2t.val,
        jm2.val,
        None,
        nefc,
        ar_rownnz,
        ar_rowadr,
        ar_colind,
        jm2t.rownnz,
        jm2t.rowadr,
        jm2t.colind,
        jm2.rownnz,
        jm2.rowadr,
        jm2.colind,
        Some(rowsuper),
        stack,
    )?;
    for i in 0..nefc {
        let adr = ar_rowadr[i] as usize;
        let cols = &ar_colind[adr..adr + ar_rownnz[i] as usize];
        if let Some(k) = cols.iter().position(|&c| c as usize == i) {
            a.efc_AR[adr + k] += a.efc_R[i];
        }
    }
    Ok(())
}

/// Copies the sparse row (`jrow`, columns `jcols`) into `val`/`colind` completed with every
/// ancestor dof of its columns (as zeros), in increasing column order; returns the length.
fn fill_ancestors(
    m: &Model,
    jrow: &[Real],
    jcols: &[i32],
    val: &mut [Real],
    colind: &mut [i32],
) -> usize {
    let mut remain = jrow.len();
    let mut nnz = 0;
    loop {
        let prev_src = if remain > 0 { jcols[remain - 1] } else { -1 };
        let prev_dst = if nnz > 0 {
            m.dof_parentid[colind[nnz - 1] as usize]
        } else {
            -1
        };
        if prev_src < 0 && prev_dst < 0 {
            break;
        }
        if prev_src >= prev_dst {
            colind[nnz] = prev_src;
            val[nnz] = jrow[remain - 1];
            remain -= 1;
        } else {
            colind[nnz] = prev_dst;
            val[nnz] = 0.0;
        }
        nnz += 1;
    }
    colind[..nnz].reverse();
    val[..nnz].reverse();
    nnz
}

/// `x = D^-1/2 L^-T x` for a sparse row `x` whose pattern `colind` is closed under dof
/// ancestors (the sparse `mj_solveM2`).
fn back_sub_m2(m: &Model, d: &Data, x: &mut [Real], colind: &[i32]) {
    for i in (0..x.len()).rev() {
        let xi = x[i];
        if xi == 0.0 {
            continue;
        }
        let dof = colind[i] as usize;
        x[i] *= d.qLDiagSqrtInv[dof];
        let mut madr = m.dof_Madr[dof] as usize + 1;
        let mut j = m.dof_parentid[dof];
        let mut pi = i;
        while j >= 0 {
            while colind[pi] > j {
                pi -= 1;
            }
            x[pi] -= d.qLD[madr] * xi;
            madr += 1;
            j = m.dof_parentid[j as usize];
        }
    }
}
