//! Counting the rows before they are allocated (`mj_ne`, `mj_nf`, `mj_nl`, `mj_nc`), with the
//! Jacobian non-zeros when it is sparse.

use super::contact::{contact_count_bodies, contact_dim, MAX_CONTACT_BODIES};
use super::limit::{ball_limit, limit_dist, within_margin};
use super::row_jacobians::{jac_dif_pair_count, jac_sum_count};
use super::RowCounts;
use crate::arena::Stack;
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::model::Model;
use crate::support::{disabled, is_pyramidal, merge_chain};
use crate::types::*;

/// Rows a block of `size` rows with `nnz` Jacobian non-zeros per row takes
/// (`mj_addConstraintCount`): dense Jacobians count every block (when there are dofs),
/// sparse ones only blocks with non-zeros.
fn block_rows(m: &Model, sparse: bool, size: usize, nnz: usize) -> usize {
    let keep = if sparse { nnz > 0 } else { m.nv > 0 };
    if keep {
        size
    } else {
        0
    }
}

/// Counts the rows of every kind and, for sparse Jacobians, their non-zeros.
pub(super) fn count_rows(m: &Model, d: &mut Data, sparse: bool) -> Result<RowCounts, StepError> {
    let mut detached = d.arena.detach();
    let counted = {
        let (contacts, mut stack) = detached.contacts_and_stack(d.arena.table());
        count_with(m, d, sparse, contacts, &mut stack)
    };
    d.arena.attach(detached);
    counted
}

fn count_with(
    m: &Model,
    d: &Data,
    sparse: bool,
    contacts: &[Contact],
    stack: &mut Stack,
) -> Result<RowCounts, StepError> {
    let chain = stack.alloc::<i32>(m.nv)?;
    let bodychain = stack.alloc::<i32>(m.nv)?;
    let merged = stack.alloc::<i32>(m.nv)?;
    let mut c = RowCounts::default();
    count_equality(m, d, sparse, chain, &mut c);
    count_friction(m, d, sparse, &mut c);
    count_limits(m, d, sparse, &mut c);
    let ncon = d.ncon.min(contacts.len());
    let chains = [chain, bodychain, merged];
    count_contacts(m, &contacts[..ncon], sparse, chains, &mut c)?;
    Ok(c)
}

/// Equality rows (`mj_ne`). Like MuJoCo 3.1.6, a joint or tendon equality between two objects
/// counts two non-zeros, whatever their Jacobians.
fn count_equality(m: &Model, d: &Data, sparse: bool, chain: &mut [i32], c: &mut RowCounts) {
    if disabled(m, DSBL_EQUALITY) || m.nemax == 0 {
        return;
    }
    for i in (0..m.neq).filter(|&i| d.eq_active[i] != 0) {
        let (id1, id2) = (m.eq_obj1id[i], m.eq_obj2id[i]);
        let (size, nnz) = match m.eq_type[i] {
            EQ_CONNECT | EQ_WELD => {
                let size = if m.eq_type[i] == EQ_CONNECT { 3 } else { 6 };
                let nnz = if sparse {
                    jac_dif_pair_count(m, chain, id2 as usize, id1 as usize, sparse)
                } else {
                    0
                };
                (size, nnz)
            }
            EQ_JOINT | EQ_TENDON if sparse => {
                let nnz = if id2 >= 0 {
                    2
                } else if m.eq_type[i] == EQ_JOINT {
                    1
                } else {
                    d.ten_J_rownnz[id1 as usize] as usize
                };
                (1, nnz)
            }
            EQ_JOINT | EQ_TENDON => (1, 0),
            EQ_FLEX => {
                // the non-zeros are summed over the rows already
                let (size, nnz) = count_flex(m, id1 as usize, sparse, chain);
                c.ne += block_rows(m, sparse, size, nnz);
                c.nnz += nnz;
                continue;
            }
            // rejected by the validator (distance constraints were removed)
            _ => continue,
        };
        c.ne += block_rows(m, sparse, size, nnz);
        c.nnz += size * nnz;
    }
}

/// Rows of a flex equality (its edges that are not rigid) and, when sparse, the non-zeros of
/// all of them. Like MuJoCo, the rows are counted as one block: all kept when any edge has
/// dofs, although an edge without dofs gets no row.
fn count_flex(m: &Model, f: usize, sparse: bool, chain: &mut [i32]) -> (usize, usize) {
    let (mut size, mut nnz) = (0, 0);
    let vbase = m.flex_vertadr[f] as usize;
    let start = m.flex_edgeadr[f] as usize;
    for e in start..start + m.flex_edgenum[f] as usize {
        if m.flexedge_rigid[e] != 0 {
            continue;
        }
        size += 1;
        if sparse {
            let body = |k: usize| m.flex_vertbodyid[vbase + m.flex_edge[2 * e + k] as usize];
            nnz += jac_dif_pair_count(m, chain, body(0) as usize, body(1) as usize, sparse);
        }
    }
    (size, nnz)
}

/// Friction-loss rows of dofs and tendons (`mj_nf`).
fn count_friction(m: &Model, d: &Data, sparse: bool, c: &mut RowCounts) {
    if disabled(m, DSBL_FRICTIONLOSS) {
        return;
    }
    let dofs = m.dof_frictionloss.iter().filter(|&&f| f > 0.0).count();
    c.nf += dofs * block_rows(m, sparse, 1, 1);
    c.nnz += dofs;
    for i in (0..m.ntendon).filter(|&i| m.tendon_frictionloss[i] > 0.0) {
        let nnz = d.ten_J_rownnz[i] as usize;
        c.nf += block_rows(m, sparse, 1, nnz);
        c.nnz += nnz;
    }
}

/// Joint and tendon limit rows (`mj_nl`).
fn count_limits(m: &Model, d: &Data, sparse: bool, c: &mut RowCounts) {
    if disabled(m, DSBL_LIMIT) {
        return;
    }
    for j in (0..m.njnt).filter(|&j| m.jnt_limited[j] != 0) {
        let margin = m.jnt_margin[j];
        match m.jnt_type[j] {
            JNT_SLIDE | JNT_HINGE => {
                let value = d.qpos[m.jnt_qposadr[j] as usize];
                for side in [-1, 1] {
                    if within_margin(
                        limit_dist(&m.jnt_range[2 * j..2 * j + 2], side, value),
                        margin,
                    ) {
                        c.nl += block_rows(m, sparse, 1, 1);
                        c.nnz += 1;
                    }
                }
            }
            JNT_BALL if within_margin(ball_limit(m, d, j).1, margin) => {
                c.nl += block_rows(m, sparse, 1, 3);
                c.nnz += 3;
            }
            _ => {}
        }
    }
    for i in (0..m.ntendon).filter(|&i| m.tendon_limited[i] != 0) {
        count_tendon_limits(m, d, sparse, i, c);
    }
}

/// Limit rows of tendon `i`; out of line, as few models limit tendons.
#[inline(never)]
fn count_tendon_limits(m: &Model, d: &Data, sparse: bool, i: usize, c: &mut RowCounts) {
    let value = d.ten_length[i];
    let nnz = d.ten_J_rownnz[i] as usize;
    for side in [-1, 1] {
        if within_margin(
            limit_dist(&m.tendon_range[2 * i..2 * i + 2], side, value),
            m.tendon_margin[i],
        ) {
            c.nl += block_rows(m, sparse, 1, nnz);
            c.nnz += nnz;
        }
    }
}

/// Rows of a contact of dimension `dim`: one per pyramid edge, per elliptic dimension, or one
/// (none for a dimension of zero, which only a hand-written contact has).
pub fn contact_rows_of(m: &Model, dim: usize) -> usize {
    if dim <= 1 {
        dim
    } else if is_pyramidal(m) {
        2 * (dim - 1)
    } else {
        dim
    }
}

/// Contact rows (`mj_nc`): for sparse Jacobians, contacts whose bodies no dof moves take none.
fn count_contacts(
    m: &Model,
    contacts: &[Contact],
    sparse: bool,
    [chain, bodychain, merged]: [&mut [i32]; 3],
    c: &mut RowCounts,
) -> Result<(), StepError> {
    if disabled(m, DSBL_CONTACT) {
        return Ok(());
    }
    for con in contacts.iter().filter(|con| con.exclude == 0) {
        let mut nnz = 0;
        if sparse {
            let mut body = [0; MAX_CONTACT_BODIES];
            let n = contact_count_bodies(m, con, &mut body)?;
            nnz = if m.nv == 0 {
                0
            } else if n == 2 {
                merge_chain(m, chain, body[0], body[1])
            } else {
                jac_sum_count(m, chain, (&mut *bodychain, &mut *merged), &body[..n])
            };
            if nnz == 0 {
                continue;
            }
        }
        let rows = contact_rows_of(m, contact_dim(con)?);
        c.nc += rows;
        c.nnz += rows * nnz;
    }
    Ok(())
}
