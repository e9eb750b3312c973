//! Constraints (MuJoCo's `engine_core_constraint.c`; "Computation › Constraint model" and
//! "Computation › Soft constraints"): the constraint rows `efc_*` of equality constraints,
//! friction loss, joint and tendon limits and contacts, their soft-constraint parameters, the
//! projections the dual solver needs, and the reference accelerations.
//!
//! The rows live at the bottom of the arena, right after the contacts, and are pushed in the
//! order of the layout table, as MuJoCo's `arenaAllocEfc` allocates them: first counted
//! (`mj_ne`, `mj_nf`, `mj_nl`, `mj_nc`), then allocated, then filled. An arena too small for them
//! raises `WARN_CNSTRFULL` and leaves no rows, as in MuJoCo.
//!
//! One file per step: `count` (`mj_ne`, `mj_nf`, `mj_nl`, `mj_nc`), `allocate` (the arena),
//! `rows` (the row writer) with the Jacobians of `row_jacobians`, one file per kind of row
//! (`equality`, `friction`, `limit`, `contact`), then `soft` (soft-constraint parameters),
//! `jacobian` (`efc_J` as the solvers see it), `project` (`efc_AR`) and `reference`
//! (`efc_aref`). This file makes the rows in that order (`mj_makeConstraint`).
//!
//! Flex equality constraints make one row per edge that is not rigid. Contacts on flex
//! elements act on the bodies of the element's vertices, weighted by inverse distance to the
//! contact point (`mj_elemBodyWeight`, `mj_jacSum`).
//!
//! Not supported: constraint islands (`ENBL_ISLAND` is refused when there are rows). The solvers' state
//! update (`mj_constraintUpdate`) lives in the module `solver`.

mod allocate;
mod contact;
mod count;
pub use count::contact_rows_of;
mod equality;
mod friction;
mod jacobian;
mod limit;
mod project;
mod reference;
mod row_jacobians;
mod rows;
mod soft;

use crate::arena::{ArenaArraysMut, ArenaField, ArenaMask, Stack};
use crate::data::Data;
use crate::error::StepError;
use crate::math::mat::transpose;
use crate::model::Model;
pub use crate::support::is_dual;
use crate::support::{disabled, enabled, is_sparse};
use crate::types::*;
pub use allocate::{add_contact, clear_efc};
use allocate::{alloc_efc, with_arrays};
use contact::contact_rows;
use count::count_rows;
use equality::equality_rows;
use friction::friction_rows;
use jacobian::transpose_rows;
pub(crate) use jacobian::{efc_jacobian, transposed, JACOBIAN, JACOBIAN_DENSE};
pub use jacobian::{mul_jac_t_vec, mul_jac_vec, Jacobian};
use limit::limit_rows;
pub use project::project_constraint;
pub use reference::reference_constraint;
use rows::Rows;
use soft::{diag_approx, make_impedance};

/// MuJoCo's fatal error when the counted rows and the rows made disagree (it occurs in MuJoCo
/// 3.1.6 too, for a sparse tendon equality between two tendons whose Jacobians do not have
/// two non-zeros together).
const MISALLOCATED: StepError = StepError::Numerical("constraint Jacobian mis-allocation");

/// Constraint rows (`mj_makeConstraint`): counts and allocates the rows of the active equality
/// constraints, friction loss, active limits and included contacts, fills their Jacobian
/// (dense, or sparse with its transpose and supernodes), type, id, position, margin and
/// friction loss, then their soft-constraint parameters. Writes `ne`, `nf`, `nl`, `nefc`,
/// `nnzJ`, the `efc_*` arrays up to `efc_R`, `tendon_efcadr`, and in the contacts
/// `efc_address`, `exclude` (3 for a contact without dofs) and `mu`.
pub fn make_constraint(m: &Model, d: &mut Data) -> Result<(), StepError> {
    d.ne = 0;
    d.nf = 0;
    d.nl = 0;
    d.nefc = 0;
    d.nnzJ = 0;
    if disabled(m, DSBL_CONSTRAINT) {
        return Ok(());
    }
    let sparse = is_sparse(m);
    let counted = count_rows(m, d, sparse)?;
    d.nefc = counted.nefc();
    d.nnzJ = if sparse { counted.nnz } else { d.nefc * m.nv };
    if !alloc_efc(m, d) {
        return Ok(());
    }
    // one view of the arena arrays for the rows and their parameters: the dense Jacobian alone
    // when it has no transpose
    let fill = |d: &Data, arrays: &mut ArenaArraysMut<'_>, stack: &mut Stack<'_>| {
        fill_rows(m, d, sparse, &counted, arrays, stack)
    };
    let made = if transposed(m) {
        with_arrays(d, JACOBIAN.union(ROWS), fill)
    } else {
        with_arrays(d, JACOBIAN_DENSE.union(ROWS), fill)
    }?;
    d.ne = made.ne;
    d.nf = made.nf;
    d.nl = made.nl;
    d.nefc = made.nefc;
    d.maxuse_con = d.maxuse_con.max(d.ncon);
    d.maxuse_efc = d.maxuse_efc.max(d.nefc);
    Ok(())
}

/// Makes the rows ([`make_rows`]), checks them against the count, then adds the Jacobian's
/// transpose and the rows' soft-constraint parameters. Out of line, one copy for both views of
/// the arena.
#[inline(never)]
fn fill_rows(
    m: &Model,
    d: &Data,
    sparse: bool,
    counted: &RowCounts,
    a: &mut ArenaArraysMut<'_>,
    stack: &mut Stack<'_>,
) -> Result<Made, StepError> {
    let made = make_rows(m, d, sparse, a, stack)?;
    check_allocation(d, sparse, counted, &made)?;
    let nefc = made.nefc;
    if nefc == 0 {
        return Ok(made);
    }
    if sparse {
        transpose_rows(m, nefc, a);
    } else if enabled(m, ENBL_ISLAND) {
        // the island solver reads the dense transpose too
        transpose(a.efc_JT, a.efc_J, nefc, m.nv);
    }
    diag_approx(m, d.flexvert_xpos, nefc, a)?;
    make_impedance(m, nefc, made.ne + made.nf, a);
    Ok(made)
}

/// Rows and Jacobian non-zeros of each kind, as counted before allocation or as made.
#[derive(Clone, Copy, Debug, Default)]
struct RowCounts {
    ne: usize,
    nf: usize,
    nl: usize,
    nc: usize,
    nnz: usize,
}

impl RowCounts {
    fn nefc(&self) -> usize {
        self.ne + self.nf + self.nl + self.nc
    }
}

/// The rows made, with the total `nefc`.
struct Made {
    ne: usize,
    nf: usize,
    nl: usize,
    nefc: usize,
    nnz: usize,
}

/// MuJoCo's checks after making the rows: with a sparse Jacobian every count must be exact;
/// with a dense one the count may only be too large (rows with an all-zero Jacobian are
/// dropped).
fn check_allocation(
    d: &Data,
    sparse: bool,
    counted: &RowCounts,
    made: &Made,
) -> Result<(), StepError> {
    let exact = made.ne == counted.ne
        && made.nf == counted.nf
        && made.nl == counted.nl
        && made.nefc == counted.nefc()
        && (made.nefc == 0 || made.nnz == d.nnzJ);
    if (sparse && !exact) || made.nefc > counted.nefc() {
        return Err(MISALLOCATED);
    }
    Ok(())
}

/// Fills the allocated rows: equality, friction, limits, contacts, in that order.
fn make_rows(
    m: &Model,
    d: &Data,
    sparse: bool,
    arrays: &mut ArenaArraysMut<'_>,
    stack: &mut Stack<'_>,
) -> Result<Made, StepError> {
    let mut rows = Rows::new(m, sparse, arrays);
    rows.tendon_efcadr.fill(-1);
    // equality and contact rows open their frames only when they have rows to make
    equality_rows(m, d, &mut rows, stack)?;
    friction_rows(m, d, &mut rows, &mut stack.frame())?;
    limit_rows(m, d, &mut rows, &mut stack.frame())?;
    contact_rows(m, d, &mut rows, stack)?;
    // a dense Jacobian leaves the sparse structure unwritten
    let nnz = match rows.nefc {
        n if n > 0 && sparse => (rows.rowadr[n - 1] + rows.rownnz[n - 1]) as usize,
        n => n * m.nv,
    };
    Ok(Made {
        ne: rows.ne,
        nf: rows.nf,
        nl: rows.nl,
        nefc: rows.nefc,
        nnz,
    })
}

/// The arena arrays the rows and their parameters are written to, besides the Jacobian
/// ([`JACOBIAN`] with its transpose, or [`JACOBIAN_DENSE`]): what [`Rows`] fills, then
/// [`diag_approx`] and [`make_impedance`].
const ROWS: ArenaMask = ArenaMask::of(&[
    ArenaField::contact,
    ArenaField::efc_type,
    ArenaField::efc_id,
    ArenaField::efc_pos,
    ArenaField::efc_margin,
    ArenaField::efc_frictionloss,
    ArenaField::efc_diagApprox,
    ArenaField::efc_KBIP,
    ArenaField::efc_D,
    ArenaField::efc_R,
    ArenaField::tendon_efcadr,
]);
