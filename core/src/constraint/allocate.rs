//! The constraint rows' place in the arena (`mj_clearEfc`, `mj_addContact`, `arenaAllocEfc`):
//! contacts at the bottom, then the `efc_*` arrays in the order of the layout table.

use crate::arena::{ArenaArraysMut, ArenaError, ArenaField, ArenaMask, PushItem, Stack};
use crate::data::{Contact, Data};
use crate::model::Model;
use crate::real::Real;
use crate::support::is_dual;
use crate::support::warning;
use crate::types::*;

/// Drops the constraint rows and islands, keeping the contacts (MuJoCo's `mj_clearEfc` with
/// the arena pointer moved back to the end of the contact array).
pub fn clear_efc(d: &mut Data) {
    let contact = ArenaField::contact as usize;
    let (off, n) = d.arena.fields[contact];
    let n = n.min(d.ncon);
    d.arena.fields = [(0, 0); crate::arena::N_ARENA_FIELDS];
    if n > 0 {
        d.arena.fields[contact] = (off, n);
        d.arena.state.parena = off + n * core::mem::size_of::<Contact>();
    } else {
        d.arena.state.parena = 0;
    }
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
    let int = PushItem::new::<i32>;
    let num = PushItem::new::<Real>;
    stack.push_all(&[
        int(F::efc_type, nefc),
        int(F::efc_id, nefc),
        int(F::efc_J_rownnz, nefc),
        int(F::efc_J_rowadr, nefc),
        int(F::efc_J_rowsuper, nefc),
        int(F::efc_J_colind, nnz),
        int(F::efc_JT_rownnz, nv),
        int(F::efc_JT_rowadr, nv),
        int(F::efc_JT_rowsuper, nv),
        int(F::efc_JT_colind, nnz),
        num(F::efc_J, nnz),
        num(F::efc_JT, nnz),
        num(F::efc_pos, nefc),
        num(F::efc_margin, nefc),
        num(F::efc_frictionloss, nefc),
        num(F::efc_diagApprox, nefc),
        num(F::efc_KBIP, 4 * nefc),
        num(F::efc_D, nefc),
        num(F::efc_R, nefc),
        int(F::tendon_efcadr, ntendon),
        num(F::efc_vel, nefc),
        num(F::efc_aref, nefc),
        num(F::efc_b, nefc),
        num(F::efc_force, nefc),
        int(F::efc_state, nefc),
    ])?;
    if dual {
        let nsq = nefc.checked_mul(nefc).ok_or(ArenaError::SizeOverflow)?;
        stack.push_all(&[
            int(F::efc_AR_rownnz, nefc),
            int(F::efc_AR_rowadr, nefc),
            int(F::efc_AR_colind, nsq),
            num(F::efc_AR, nsq),
        ])?;
    }
    Ok(())
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
        let (mut arrays, mut stack) = detached.arrays_mut_only_and_stack(&d.arena.fields, only);
        f(d, &mut arrays, &mut stack)
    };
    d.arena.attach(detached);
    r
}
