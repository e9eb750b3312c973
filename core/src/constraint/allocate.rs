//! The constraint rows' place in the arena (`mj_clearEfc`, `mj_addContact`, `arenaAllocEfc`):
//! contacts at the bottom, then the `efc_*` arrays in the order of the layout table.

use crate::arena::{ArenaArraysMut, ArenaError, ArenaField, ArenaMask, Stack};
use crate::data::{Contact, Data};
use crate::model::Model;
use crate::support::is_dual;
use crate::support::warning;
use crate::types::*;

/// Drops the constraint rows and islands, keeping the contacts (MuJoCo's `mj_clearEfc` with
/// the arena pointer moved back to the end of the contact array).
pub fn clear_efc(d: &mut Data) {
    d.arena.keep_contacts(d.ncon);
    d.nefc = 0;
    d.nisland = 0;
}

/// Appends a contact to the contact array at the bottom of the arena (`mj_addContact`),
/// dropping any constraint rows. Returns `false`, with `WARN_CONTACTFULL`, when `nconmax`
/// contacts exist already or the arena is full.
pub fn add_contact(m: &Model, d: &mut Data, con: &Contact) -> bool {
    let full = m.nconmax != -1 && d.ncon as i64 >= i64::from(m.nconmax);
    let added = !full && {
        clear_efc(d);
        let pushed = d
            .arena
            .stack()
            .push::<Contact>(ArenaField::contact as usize, 1)
            .map(|dst| dst[0] = *con);
        pushed.is_ok()
    };
    if added {
        d.ncon += 1;
    } else {
        warning(d, WARN_CONTACTFULL, d.ncon as i32);
    }
    added
}

/// Pushes the arrays of `nefc` rows with `nnz` Jacobian non-zeros in table order: the primal
/// ones, then the dual ones when `dual` (`arenaAllocEfc`).
fn push_efc(
    stack: &mut Stack,
    m: &Model,
    nefc: usize,
    nnz: usize,
    dual: bool,
) -> Result<(), ArenaError> {
    use ArenaField as F;
    let (nv, ntendon) = (m.nv, m.ntendon);
    let nsq = if dual {
        nefc.checked_mul(nefc).ok_or(ArenaError::SizeOverflow)?
    } else {
        0
    };
    stack.push_each(|p| {
        p.push(F::efc_type, nefc)?;
        p.push(F::efc_id, nefc)?;
        p.push(F::efc_J_rownnz, nefc)?;
        p.push(F::efc_J_rowadr, nefc)?;
        p.push(F::efc_J_rowsuper, nefc)?;
        p.push(F::efc_J_colind, nnz)?;
        p.push(F::efc_JT_rownnz, nv)?;
        p.push(F::efc_JT_rowadr, nv)?;
        p.push(F::efc_JT_rowsuper, nv)?;
        p.push(F::efc_JT_colind, nnz)?;
        p.push(F::efc_J, nnz)?;
        p.push(F::efc_JT, nnz)?;
        p.push(F::efc_pos, nefc)?;
        p.push(F::efc_margin, nefc)?;
        p.push(F::efc_frictionloss, nefc)?;
        p.push(F::efc_diagApprox, nefc)?;
        p.push(F::efc_KBIP, 4 * nefc)?;
        p.push(F::efc_D, nefc)?;
        p.push(F::efc_R, nefc)?;
        p.push(F::tendon_efcadr, ntendon)?;
        p.push(F::efc_vel, nefc)?;
        p.push(F::efc_aref, nefc)?;
        p.push(F::efc_b, nefc)?;
        p.push(F::efc_force, nefc)?;
        p.push(F::efc_state, nefc)?;
        if dual {
            p.push(F::efc_AR_rownnz, nefc)?;
            p.push(F::efc_AR_rowadr, nefc)?;
            p.push(F::efc_AR_colind, nsq)?;
            p.push(F::efc_AR, nsq)?;
        }
        Ok(())
    })
}

/// Allocates the rows counted in `d.nefc` and `d.nnzJ` after the contacts; when the arena is
/// too small, raises `WARN_CNSTRFULL` and leaves no rows. Returns whether it succeeded.
pub(super) fn alloc_efc(m: &Model, d: &mut Data) -> bool {
    let (nefc, nnz) = (d.nefc, d.nnzJ);
    clear_efc(d);
    let ok = push_efc(&mut d.arena.stack(), m, nefc, nnz, is_dual(m)).is_ok();
    if ok {
        d.nefc = nefc;
    } else {
        let narena = d.arena.len();
        warning(d, WARN_CNSTRFULL, i32::try_from(narena).unwrap_or(i32::MAX));
        clear_efc(d);
    }
    ok
}

/// Runs `f` with the data, its arena arrays in `only` (writable, the others empty) and a
/// scratch frame. Inlined so that a constant `only` cuts out just its arrays; `f` borrows the
/// views, which are 39 slices, rather than taking a copy of them.
#[inline(always)]
pub(super) fn with_arrays<R>(
    d: &mut Data,
    only: ArenaMask,
    f: impl FnOnce(&Data, &mut ArenaArraysMut<'_>, &mut Stack<'_>) -> R,
) -> R {
    let mut detached = d.arena.detach();
    let r = {
        let (mut arrays, mut stack) = detached.arrays_mut_only_and_stack(d.arena.table(), only);
        f(d, &mut arrays, &mut stack)
    };
    d.arena.attach(detached);
    r
}
