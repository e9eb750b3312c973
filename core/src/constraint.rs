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
//! Not supported: flex equality constraints and flex contacts (the pipeline refuses flexes),
//! and constraint islands (`ENBL_ISLAND` is refused when there are rows). The solvers' state
//! update (`mj_constraintUpdate`) lives in the module `solver`.

use crate::arena::{
    ArenaArrays, ArenaArraysMut, ArenaError, ArenaField, ArenaMask, PushItem, Stack,
};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::mat::{
    mul_mat_mat, mul_mat_t_vec, mul_mat_vec, rot_vec_mat, sqr_mat_td, transpose,
};
use crate::math::misc::{max, min};
use crate::math::quat::{mul_quat, mul_quat_axis, neg_quat, quat2vel};
use crate::math::scalar::{pow, sqrt};
use crate::math::sparse::{
    combine_sparse, mul_mat_vec_sparse, sqr_mat_td_sparse, sqr_mat_td_sparse_init, super_sparse,
    transpose_sparse, SparseMut,
};
use crate::math::vec::{add3, add_scl, add_to_scl, norm, normalize3, scl_in_place, sub, sub3};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::smooth::solve_m2;
pub use crate::support::is_dual;
use crate::support::{
    disabled, enabled, is_pyramidal, is_sparse, jac, jac_dif_pair, merge_chain, merge_chain_simple,
    v3, v4, v6, v9, warning,
};
use crate::types::*;

/// MuJoCo's fatal error when the counted rows and the rows made disagree (it occurs in MuJoCo
/// 3.1.6 too, for a sparse tendon equality between two tendons whose Jacobians do not have
/// two non-zeros together).
const MISALLOCATED: StepError = StepError::Numerical("constraint Jacobian mis-allocation");

// ------------------------------------------------------------------------------------------------
// the arena: contacts, then rows

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
fn alloc_efc(m: &Model, d: &mut Data) -> bool {
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
/// scratch frame.
fn with_arrays<R>(
    d: &mut Data,
    only: ArenaMask,
    f: impl FnOnce(&Data, ArenaArraysMut<'_>, &mut Stack<'_>) -> R,
) -> R {
    let fields = d.arena.fields;
    let mut detached = d.arena.detach();
    let r = {
        let (arrays, mut stack) = detached.arrays_mut_only_and_stack(&fields, only);
        f(d, arrays, &mut stack)
    };
    d.arena.attach(detached);
    r
}

// ------------------------------------------------------------------------------------------------
// making the rows

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
    let made = with_arrays(d, ROWS, |d, arrays, stack| {
        make_rows(m, d, sparse, arrays, stack)
    })?;
    check_allocation(d, sparse, &counted, &made)?;
    d.ne = made.ne;
    d.nf = made.nf;
    d.nl = made.nl;
    d.nefc = made.nefc;
    d.maxuse_con = d.maxuse_con.max(d.ncon);
    d.maxuse_efc = d.maxuse_efc.max(d.nefc);
    if d.nefc == 0 {
        return Ok(());
    }
    let (nefc, first_contact) = (d.nefc, d.ne + d.nf);
    let mut a = d.arena.arrays_mut_only(PARAMETERS);
    if sparse {
        transpose_rows(m, nefc, &mut a);
    } else if enabled(m, ENBL_ISLAND) {
        // the island solver reads the dense transpose too
        transpose(a.efc_JT, a.efc_J, nefc, m.nv);
    }
    diag_approx(m, nefc, &mut a)?;
    make_impedance(m, nefc, first_contact, &mut a);
    Ok(())
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
    arrays: ArenaArraysMut<'_>,
    stack: &mut Stack<'_>,
) -> Result<Made, StepError> {
    let mut rows = Rows::new(m, sparse, arrays);
    rows.tendon_efcadr.fill(-1);
    equality_rows(m, d, &mut rows, &mut stack.frame())?;
    friction_rows(m, d, &mut rows, &mut stack.frame())?;
    limit_rows(m, d, &mut rows, &mut stack.frame())?;
    contact_rows(m, d, &mut rows, &mut stack.frame())?;
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

/// The arena arrays of the stages after the rows are made: the transposed Jacobian and its
/// supernodes ([`transpose_rows`]), then [`diag_approx`] and [`make_impedance`].
const PARAMETERS: ArenaMask = JACOBIAN.union(ArenaMask::of(&[
    ArenaField::contact,
    ArenaField::efc_type,
    ArenaField::efc_id,
    ArenaField::efc_pos,
    ArenaField::efc_margin,
    ArenaField::efc_diagApprox,
    ArenaField::efc_KBIP,
    ArenaField::efc_D,
    ArenaField::efc_R,
]));

/// The arena arrays [`Rows`] fills.
const ROWS: ArenaMask = ArenaMask::of(&[
    ArenaField::contact,
    ArenaField::efc_type,
    ArenaField::efc_id,
    ArenaField::efc_J_rownnz,
    ArenaField::efc_J_rowadr,
    ArenaField::efc_J_colind,
    ArenaField::efc_J,
    ArenaField::efc_pos,
    ArenaField::efc_margin,
    ArenaField::efc_frictionloss,
    ArenaField::tendon_efcadr,
]);

/// The row arrays being filled, and the counts so far.
struct Rows<'r> {
    sparse: bool,
    nv: usize,
    nefc: usize,
    ne: usize,
    nf: usize,
    nl: usize,
    efc_type: &'r mut [i32],
    efc_id: &'r mut [i32],
    rownnz: &'r mut [i32],
    rowadr: &'r mut [i32],
    colind: &'r mut [i32],
    efc_J: &'r mut [Real],
    pos: &'r mut [Real],
    margin: &'r mut [Real],
    frictionloss: &'r mut [Real],
    tendon_efcadr: &'r mut [i32],
    contact: &'r mut [Contact],
}

impl<'r> Rows<'r> {
    fn new(m: &Model, sparse: bool, a: ArenaArraysMut<'r>) -> Self {
        Rows {
            sparse,
            nv: m.nv,
            nefc: 0,
            ne: 0,
            nf: 0,
            nl: 0,
            efc_type: a.efc_type,
            efc_id: a.efc_id,
            rownnz: a.efc_J_rownnz,
            rowadr: a.efc_J_rowadr,
            colind: a.efc_J_colind,
            efc_J: a.efc_J,
            pos: a.efc_pos,
            margin: a.efc_margin,
            frictionloss: a.efc_frictionloss,
            tendon_efcadr: a.tendon_efcadr,
            contact: a.contact,
        }
    }

    /// Adds `size` rows of type `ty` for object `id` (`mj_addConstraint`). `jac` holds them
    /// row after row: `nv` columns when dense, else the columns of `chain`. `pos` and `margin`
    /// give one value per row, or are empty for zeros. Rows other than contacts are dropped
    /// when their Jacobian is empty (all zero when dense, no columns when sparse).
    fn add(
        &mut self,
        jac: &[Real],
        chain: &[i32],
        pos: &[Real],
        margin: &[Real],
        frictionloss: Real,
        size: usize,
        ty: i32,
        id: usize,
    ) -> Result<(), StepError> {
        let contact = matches!(
            ty,
            CNSTR_CONTACT_FRICTIONLESS | CNSTR_CONTACT_PYRAMIDAL | CNSTR_CONTACT_ELLIPTIC
        );
        let first = self.nefc;
        let len = size * self.nv;
        let empty = if self.sparse {
            chain.is_empty()
        } else {
            jac[..len].iter().all(|&x| x == 0.0)
        };
        if empty && !contact {
            return Ok(());
        }
        if first + size > self.efc_type.len() {
            return Err(MISALLOCATED);
        }
        if self.sparse {
            self.copy_sparse(jac, chain, size)?;
        } else {
            let start = first * self.nv;
            let dst = self.efc_J.get_mut(start..start + len).ok_or(MISALLOCATED)?;
            dst.copy_from_slice(&jac[..len]);
        }
        for i in 0..size {
            let r = first + i;
            self.pos[r] = pos.get(i).copied().unwrap_or(0.0);
            self.margin[r] = margin.get(i).copied().unwrap_or(0.0);
            self.frictionloss[r] = frictionloss;
            self.efc_type[r] = ty;
            self.efc_id[r] = id as i32;
        }
        self.nefc += size;
        match ty {
            CNSTR_EQUALITY => self.ne += size,
            CNSTR_FRICTION_DOF | CNSTR_FRICTION_TENDON => self.nf += size,
            CNSTR_LIMIT_JOINT | CNSTR_LIMIT_TENDON => self.nl += size,
            _ => {}
        }
        Ok(())
    }

    /// Writes `size` sparse rows with the columns of `chain`, right after the previous row.
    fn copy_sparse(&mut self, jac: &[Real], chain: &[i32], size: usize) -> Result<(), StepError> {
        let n = chain.len();
        for i in 0..size {
            let r = self.nefc + i;
            let adr = match r {
                0 => 0,
                _ => (self.rowadr[r - 1] + self.rownnz[r - 1]) as usize,
            };
            if adr + n > self.efc_J.len() {
                return Err(MISALLOCATED);
            }
            self.rowadr[r] = adr as i32;
            self.rownnz[r] = n as i32;
            self.colind[adr..adr + n].copy_from_slice(chain);
            self.efc_J[adr..adr + n].copy_from_slice(&jac[i * n..(i + 1) * n]);
        }
        Ok(())
    }

    /// Records `adr` as the first row of tendon `id` (`tendon_efcadr`), if none is recorded
    /// yet.
    fn note_tendon(&mut self, id: usize, adr: usize) {
        if self.tendon_efcadr[id] == -1 {
            self.tendon_efcadr[id] = adr as i32;
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Jacobians

/// The Jacobian of tendon `i` as a row: its `nv` values when dense, else its non-zeros and
/// their columns.
fn tendon_row<'d>(m: &Model, d: &'d Data, i: usize, sparse: bool) -> (&'d [Real], &'d [i32]) {
    if sparse {
        let adr = d.ten_J_rowadr[i] as usize;
        let n = d.ten_J_rownnz[i] as usize;
        (&d.ten_J[adr..adr + n], &d.ten_J_colind[adr..adr + n])
    } else {
        (&d.ten_J[i * m.nv..(i + 1) * m.nv], &[])
    }
}

/// The nearest ancestor-or-self of `body` with dofs (the world, 0, if none).
fn movable(m: &Model, mut body: usize) -> usize {
    while body != 0 && m.body_dofnum[body] == 0 {
        body = m.body_parentid[body] as usize;
    }
    body
}

/// Rotational Jacobian of `body` restricted to the dofs of `chain` (3 x n, the rotational part
/// of `mj_jacSparse`).
fn jac_sparse_rot(m: &Model, d: &Data, jacr: &mut [Real], body: usize, chain: &[i32]) {
    let n = chain.len();
    jacr[..3 * n].fill(0.0);
    let body = movable(m, body);
    if body == 0 {
        return;
    }
    let cdof = v6(d.cdof);
    let mut da = m.body_dofadr[body] + m.body_dofnum[body] - 1;
    let mut ci = n;
    while da >= 0 {
        while ci > 0 && chain[ci - 1] > da {
            ci -= 1;
        }
        // every dof of the body's chain is in the merged chain
        if ci == 0 || chain[ci - 1] != da {
            return;
        }
        let c = &cdof[da as usize];
        for r in 0..3 {
            jacr[ci - 1 + r * n] = c[r];
        }
        da = m.dof_parentid[da as usize];
    }
}

/// Writes `±` the rotational Jacobian of the simple `body` into columns `start..` of the
/// 3 x n `jacdifr` (the rotational part of `mj_jacSparseSimple`).
fn jac_sparse_simple_rot(
    m: &Model,
    d: &Data,
    jacdifr: &mut [Real],
    body: usize,
    second: bool,
    n: usize,
    start: usize,
) {
    let cdof = v6(d.cdof);
    let adr = m.body_dofadr[body].max(0) as usize;
    for k in 0..m.body_dofnum[body] as usize {
        let c = &cdof[adr + k];
        for r in 0..3 {
            jacdifr[start + k + r * n] = if second { c[r] } else { -c[r] };
        }
    }
}

/// Scratch for Jacobians of body pairs: per body, translation and rotation (3 x nv each).
struct PairScratch<'s> {
    jac1p: &'s mut [Real],
    jac2p: &'s mut [Real],
    jac1r: &'s mut [Real],
    jac2r: &'s mut [Real],
}

impl<'s> PairScratch<'s> {
    fn new(stack: &mut Stack<'s>, nv: usize) -> Result<Self, ArenaError> {
        Ok(PairScratch {
            jac1p: stack.alloc::<Real>(3 * nv)?,
            jac2p: stack.alloc::<Real>(3 * nv)?,
            jac1r: stack.alloc::<Real>(3 * nv)?,
            jac2r: stack.alloc::<Real>(3 * nv)?,
        })
    }
}

/// Jacobian difference `J(pos2 on b2) - J(pos1 on b1)` (`mj_jacDifPair`): translational into
/// `difp`, and rotational into `difr` if given; dense (3 x nv each), or over the merged dof
/// chain written to `chain` (3 x n each). Returns the number of columns.
fn jac_dif_pair_rot(
    m: &Model,
    d: &Data,
    sparse: bool,
    chain: &mut [i32],
    (b1, b2): (usize, usize),
    (pos1, pos2): (&[Real; 3], &[Real; 3]),
    s: &mut PairScratch,
    difp: &mut [Real],
    difr: Option<&mut [Real]>,
) -> usize {
    let n = jac_dif_pair(
        m, d, sparse, chain, b1, b2, pos1, pos2, s.jac1p, s.jac2p, difp,
    );
    let Some(difr) = difr else {
        return n;
    };
    if n == 0 {
        return 0;
    }
    if !sparse {
        jac(m, d, None, Some(&mut *s.jac1r), pos1, b1);
        jac(m, d, None, Some(&mut *s.jac2r), pos2, b2);
        sub(&mut difr[..3 * n], &s.jac2r[..3 * n], &s.jac1r[..3 * n]);
    } else if m.body_simple[b1] != 0 && m.body_simple[b2] != 0 {
        // the dofs of the lower body id come first in the chain
        let dofnum = |b: usize| m.body_dofnum[b] as usize;
        let start1 = if b1 < b2 { 0 } else { dofnum(b2) };
        let start2 = if b2 < b1 { 0 } else { dofnum(b1) };
        jac_sparse_simple_rot(m, d, difr, b1, false, n, start1);
        jac_sparse_simple_rot(m, d, difr, b2, true, n, start2);
    } else {
        jac_sparse_rot(m, d, s.jac1r, b1, &chain[..n]);
        jac_sparse_rot(m, d, s.jac2r, b2, &chain[..n]);
        sub(&mut difr[..3 * n], &s.jac2r[..3 * n], &s.jac1r[..3 * n]);
    }
    n
}

/// Number of columns of the Jacobian difference of two bodies (`mj_jacDifPairCount`).
fn jac_dif_pair_count(m: &Model, chain: &mut [i32], b1: usize, b2: usize, sparse: bool) -> usize {
    if m.nv == 0 {
        0
    } else if !sparse {
        m.nv
    } else if m.body_simple[b1] != 0 && m.body_simple[b2] != 0 {
        merge_chain_simple(m, chain, b1, b2)
    } else {
        merge_chain(m, chain, b1, b2)
    }
}

// ------------------------------------------------------------------------------------------------
// counting (mj_ne, mj_nf, mj_nl, mj_nc)

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
fn count_rows(m: &Model, d: &mut Data, sparse: bool) -> Result<RowCounts, StepError> {
    let fields = d.arena.fields;
    let mut detached = d.arena.detach();
    let counted = {
        let (contacts, mut stack) = detached.contacts_and_stack(&fields);
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
    let mut c = RowCounts::default();
    count_equality(m, d, sparse, chain, &mut c);
    count_friction(m, d, sparse, &mut c);
    count_limits(m, d, sparse, &mut c);
    let ncon = d.ncon.min(contacts.len());
    count_contacts(m, &contacts[..ncon], sparse, chain, &mut c)?;
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
            // rejected by the validator (flexes are refused, distance constraints removed)
            _ => continue,
        };
        c.ne += block_rows(m, sparse, size, nnz);
        c.nnz += size * nnz;
    }
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

/// Distance to the lower (`side` -1) or upper (`side` 1) limit of a value; negative when the
/// limit is violated.
fn limit_dist(range: &[Real], side: i32, value: Real) -> Real {
    let bound = if side < 0 { range[0] } else { range[1] };
    Real::from(side as i8) * (bound - value)
}

/// Rotation axis and distance to the limit of ball joint `j`: the limit is the larger of the
/// two range values, the distance negative when the rotation angle exceeds it.
fn ball_limit(m: &Model, d: &Data, j: usize) -> ([Real; 3], Real) {
    let adr = m.jnt_qposadr[j] as usize;
    let mut axis = quat2vel(&v4(&d.qpos[adr..adr + 4])[0], 1.0);
    let angle = normalize3(&mut axis);
    (
        axis,
        max(m.jnt_range[2 * j], m.jnt_range[2 * j + 1]) - angle,
    )
}

/// Whether a limit at distance `dist` is active: closer than its margin. A NaN distance (a
/// NaN position or tendon length) is never active, as in MuJoCo, so the row counter and the
/// row builder agree.
fn within_margin(dist: Real, margin: Real) -> bool {
    dist < margin
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
}

/// Rows of a contact of dimension `dim`: one per pyramid edge, per elliptic dimension, or one.
fn contact_rows_of(m: &Model, dim: usize) -> usize {
    if dim == 1 {
        1
    } else if is_pyramidal(m) {
        2 * (dim - 1)
    } else {
        dim
    }
}

/// The bodies of a contact between two geoms; flex contacts are refused.
fn contact_bodies(m: &Model, con: &Contact) -> Result<[usize; 2], StepError> {
    let body = |g: i32| {
        usize::try_from(g)
            .ok()
            .filter(|&g| g < m.ngeom)
            .map(|g| m.geom_bodyid[g] as usize)
            .ok_or(StepError::Unsupported("contacts involving flexes"))
    };
    Ok([body(con.geom[0])?, body(con.geom[1])?])
}

/// The dimension of a contact: 1, 3, 4 or 6.
fn contact_dim(con: &Contact) -> Result<usize, StepError> {
    match con.dim {
        1 | 3 | 4 | 6 => Ok(con.dim as usize),
        _ => Err(StepError::Numerical("contact with an invalid dimension")),
    }
}

/// Contact rows (`mj_nc`): for sparse Jacobians, contacts whose bodies no dof moves take none.
fn count_contacts(
    m: &Model,
    contacts: &[Contact],
    sparse: bool,
    chain: &mut [i32],
    c: &mut RowCounts,
) -> Result<(), StepError> {
    if disabled(m, DSBL_CONTACT) {
        return Ok(());
    }
    for con in contacts.iter().filter(|con| con.exclude == 0) {
        let mut nnz = 0;
        if sparse {
            let [b1, b2] = contact_bodies(m, con)?;
            nnz = if m.nv == 0 {
                0
            } else {
                merge_chain(m, chain, b1, b2)
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

// ------------------------------------------------------------------------------------------------
// instantiating (mj_instantiateEquality, ...Friction, ...Limit, ...Contact)

/// Scratch of the equality rows: Jacobians of the two objects and of their difference (6 x nv
/// each), two dof chains, and buffers for sparse sums.
struct EqScratch<'s> {
    jac0: &'s mut [Real],
    jac1: &'s mut [Real],
    jacdif: &'s mut [Real],
    chain: &'s mut [i32],
    chain2: &'s mut [i32],
    buf_ind: &'s mut [i32],
    buf: &'s mut [Real],
    pair: PairScratch<'s>,
}

impl<'s> EqScratch<'s> {
    fn new(stack: &mut Stack<'s>, nv: usize) -> Result<Self, ArenaError> {
        Ok(EqScratch {
            jac0: stack.alloc::<Real>(6 * nv)?,
            jac1: stack.alloc::<Real>(6 * nv)?,
            jacdif: stack.alloc::<Real>(6 * nv)?,
            chain: stack.alloc::<i32>(nv)?,
            chain2: stack.alloc::<i32>(nv)?,
            buf_ind: stack.alloc::<i32>(nv)?,
            buf: stack.alloc::<Real>(nv)?,
            pair: PairScratch::new(stack, nv)?,
        })
    }
}

/// Rows of the active equality constraints (`mj_instantiateEquality`).
fn equality_rows(m: &Model, d: &Data, rows: &mut Rows, stack: &mut Stack) -> Result<(), StepError> {
    if disabled(m, DSBL_EQUALITY) || m.nemax == 0 {
        return Ok(());
    }
    let mut s = EqScratch::new(stack, m.nv)?;
    for i in (0..m.neq).filter(|&i| d.eq_active[i] != 0) {
        match m.eq_type[i] {
            EQ_CONNECT => connect_rows(m, d, i, &mut s, rows)?,
            EQ_WELD => weld_rows(m, d, i, &mut s, rows)?,
            EQ_JOINT | EQ_TENDON => coupling_row(m, d, i, &mut s, rows)?,
            _ => return Err(StepError::Unsupported("flex equality constraints")),
        }
    }
    Ok(())
}

/// The global position of the point `local` of body `body`.
fn global_point(d: &Data, local: &[Real], body: usize) -> [Real; 3] {
    let local = [local[0], local[1], local[2]];
    add3(&rot_vec_mat(&local, &v9(d.xmat)[body]), &v3(d.xpos)[body])
}

/// Connect: the anchor of body 1 (`eq_data[0..3]`) and the point of body 2 (`eq_data[3..6]`)
/// coincide; three rows, position error `p1 - p2`.
fn connect_rows(
    m: &Model,
    d: &Data,
    i: usize,
    s: &mut EqScratch,
    rows: &mut Rows,
) -> Result<(), StepError> {
    let data = &m.eq_data[NEQDATA * i..NEQDATA * (i + 1)];
    let (b1, b2) = (m.eq_obj1id[i] as usize, m.eq_obj2id[i] as usize);
    let p1 = global_point(d, &data[0..3], b1);
    let p2 = global_point(d, &data[3..6], b2);
    let cpos = sub3(&p1, &p2);
    // Jacobian of the error: body 1 minus body 2
    let n = jac_dif_pair_rot(
        m,
        d,
        rows.sparse,
        s.chain,
        (b2, b1),
        (&p2, &p1),
        &mut s.pair,
        s.jacdif,
        None,
    );
    rows.add(
        &s.jacdif[..3 * n],
        &s.chain[..n],
        &cpos,
        &[],
        0.0,
        3,
        CNSTR_EQUALITY,
        i,
    )
}

/// Weld: body 2's frame at `eq_data[0..3]` and body 1's at `eq_data[3..6]` coincide, with
/// relative orientation `eq_data[6..10]`; six rows, the rotational ones scaled by
/// `torquescale` (`eq_data[10]`).
fn weld_rows(
    m: &Model,
    d: &Data,
    i: usize,
    s: &mut EqScratch,
    rows: &mut Rows,
) -> Result<(), StepError> {
    let nv = m.nv;
    let data = &m.eq_data[NEQDATA * i..NEQDATA * (i + 1)];
    let (b1, b2) = (m.eq_obj1id[i] as usize, m.eq_obj2id[i] as usize);
    let p1 = global_point(d, &data[3..6], b1);
    let p2 = global_point(d, &data[0..3], b2);
    let torquescale = data[10];
    let (difp, difr) = s.jacdif.split_at_mut(3 * nv);
    let n = jac_dif_pair_rot(
        m,
        d,
        rows.sparse,
        s.chain,
        (b2, b1),
        (&p2, &p1),
        &mut s.pair,
        difp,
        Some(difr),
    );
    // rows 0-2 translation, 3-5 rotation, each n wide
    let jac = &mut s.jac0[..6 * n];
    jac[..3 * n].copy_from_slice(&difp[..3 * n]);
    jac[3 * n..].copy_from_slice(&difr[..3 * n]);

    // orientation error: the axis part of neg(q2) * q1 * relpose
    let relpose = [data[6], data[7], data[8], data[9]];
    let quat = mul_quat(&v4(d.xquat)[b1], &relpose);
    let quat1 = neg_quat(&v4(d.xquat)[b2]);
    let err = mul_quat(&quat1, &quat);
    let mut cpos = [0.0; 6];
    cpos[..3].copy_from_slice(&sub3(&p1, &p2));
    for k in 0..3 {
        cpos[3 + k] = err[1 + k] * torquescale;
    }

    // rotational Jacobian of that error: 0.5 * neg(q2) * (jac1 - jac2) * q1 * relpose
    for j in 0..n {
        let axis = [jac[3 * n + j], jac[4 * n + j], jac[5 * n + j]];
        let q = mul_quat(&mul_quat_axis(&quat1, &axis), &quat);
        for k in 0..3 {
            jac[(3 + k) * n + j] = 0.5 * q[1 + k];
        }
    }
    scl_in_place(&mut jac[3 * n..], torquescale);
    rows.add(jac, &s.chain[..n], &cpos, &[], 0.0, 6, CNSTR_EQUALITY, i)
}

/// Position, reference position and Jacobian of the joint or tendon `id` of a coupling: the
/// Jacobian in `jac` (nv values when dense, else with its columns in `chain`); returns
/// `(pos, ref, width)`.
fn coupling_object(
    m: &Model,
    d: &Data,
    tendon: bool,
    id: usize,
    sparse: bool,
    jac: &mut [Real],
    chain: &mut [i32],
) -> (Real, Real, usize) {
    if tendon {
        let (row, cols) = tendon_row(m, d, id, sparse);
        jac[..row.len()].copy_from_slice(row);
        chain[..cols.len()].copy_from_slice(cols);
        return (d.ten_length[id], m.tendon_length0[id], row.len());
    }
    let adr = m.jnt_qposadr[id] as usize;
    let dof = m.jnt_dofadr[id];
    let width = if sparse {
        chain[0] = dof;
        jac[0] = 1.0;
        1
    } else {
        jac[..m.nv].fill(0.0);
        jac[dof as usize] = 1.0;
        m.nv
    };
    (d.qpos[adr], m.qpos0[adr], width)
}

/// Joint or tendon coupling: `x1 - x1ref = poly(x2 - x2ref)` with the quartic polynomial of
/// `eq_data[0..5]`, or `x1 = x1ref + eq_data[0]` without a second object; one row.
fn coupling_row(
    m: &Model,
    d: &Data,
    i: usize,
    s: &mut EqScratch,
    rows: &mut Rows,
) -> Result<(), StepError> {
    let data = &m.eq_data[NEQDATA * i..NEQDATA * (i + 1)];
    let tendon = m.eq_type[i] == EQ_TENDON;
    let sparse = rows.sparse;
    let id1 = m.eq_obj1id[i] as usize;
    let (pos1, ref1, mut n) = coupling_object(m, d, tendon, id1, sparse, s.jac0, s.chain);
    // MuJoCo 3.1.6 records the equality's index here, not its row
    if tendon {
        rows.note_tendon(id1, i);
    }
    let cpos = match usize::try_from(m.eq_obj2id[i]) {
        Ok(id2) => {
            let (pos2, ref2, n2) = coupling_object(m, d, tendon, id2, sparse, s.jac1, s.chain2);
            if tendon {
                rows.note_tendon(id2, i);
            }
            let dif = pos2 - ref2;
            let poly = data[1] * dif
                + data[2] * dif * dif
                + data[3] * dif * dif * dif
                + data[4] * dif * dif * dif * dif;
            let deriv = data[1]
                + 2.0 * data[2] * dif
                + 3.0 * data[3] * dif * dif
                + 4.0 * data[4] * dif * dif * dif;
            if sparse {
                n = combine_sparse(
                    s.jac0,
                    &s.jac1[..n2],
                    1.0,
                    -deriv,
                    n,
                    s.chain,
                    &s.chain2[..n2],
                    s.buf,
                    s.buf_ind,
                );
            } else {
                add_to_scl(&mut s.jac0[..m.nv], &s.jac1[..m.nv], -deriv);
            }
            pos1 - ref1 - data[0] - poly
        }
        Err(_) => pos1 - ref1 - data[0],
    };
    rows.add(
        &s.jac0[..n],
        &s.chain[..n],
        &[cpos],
        &[],
        0.0,
        1,
        CNSTR_EQUALITY,
        i,
    )
}

/// Friction-loss rows of dofs and tendons (`mj_instantiateFriction`).
fn friction_rows(m: &Model, d: &Data, rows: &mut Rows, stack: &mut Stack) -> Result<(), StepError> {
    if disabled(m, DSBL_FRICTIONLOSS) {
        return Ok(());
    }
    let nv = m.nv;
    let jac = stack.alloc::<Real>(nv)?;
    for i in (0..nv).filter(|&i| m.dof_frictionloss[i] > 0.0) {
        let floss = m.dof_frictionloss[i];
        if rows.sparse {
            jac[0] = 1.0;
            rows.add(
                &jac[..1],
                &[i as i32],
                &[],
                &[],
                floss,
                1,
                CNSTR_FRICTION_DOF,
                i,
            )?;
        } else {
            jac.fill(0.0);
            jac[i] = 1.0;
            rows.add(jac, &[], &[], &[], floss, 1, CNSTR_FRICTION_DOF, i)?;
        }
    }
    for i in (0..m.ntendon).filter(|&i| m.tendon_frictionloss[i] > 0.0) {
        let adr = rows.nefc;
        let (row, cols) = tendon_row(m, d, i, rows.sparse);
        let floss = m.tendon_frictionloss[i];
        rows.add(row, cols, &[], &[], floss, 1, CNSTR_FRICTION_TENDON, i)?;
        rows.note_tendon(i, adr);
    }
    Ok(())
}

/// Joint and tendon limit rows (`mj_instantiateLimit`): one per violated (or within-margin)
/// side, with a Jacobian pointing away from the limit.
fn limit_rows(m: &Model, d: &Data, rows: &mut Rows, stack: &mut Stack) -> Result<(), StepError> {
    if disabled(m, DSBL_LIMIT) {
        return Ok(());
    }
    let jac = stack.alloc::<Real>(m.nv)?;
    for j in (0..m.njnt).filter(|&j| m.jnt_limited[j] != 0) {
        match m.jnt_type[j] {
            JNT_SLIDE | JNT_HINGE => joint_limit_rows(m, d, j, jac, rows)?,
            JNT_BALL => ball_limit_row(m, d, j, jac, rows)?,
            _ => {}
        }
    }
    for i in (0..m.ntendon).filter(|&i| m.tendon_limited[i] != 0) {
        tendon_limit_rows(m, d, i, jac, rows)?;
    }
    Ok(())
}

/// Limit rows of a slide or hinge joint.
fn joint_limit_rows(
    m: &Model,
    d: &Data,
    j: usize,
    jac: &mut [Real],
    rows: &mut Rows,
) -> Result<(), StepError> {
    let margin = m.jnt_margin[j];
    let value = d.qpos[m.jnt_qposadr[j] as usize];
    let dof = m.jnt_dofadr[j];
    for side in [-1, 1] {
        let dist = limit_dist(&m.jnt_range[2 * j..2 * j + 2], side, value);
        if !within_margin(dist, margin) {
            continue;
        }
        let sign = -Real::from(side as i8);
        if rows.sparse {
            jac[0] = sign;
            rows.add(
                &jac[..1],
                &[dof],
                &[dist],
                &[margin],
                0.0,
                1,
                CNSTR_LIMIT_JOINT,
                j,
            )?;
        } else {
            jac.fill(0.0);
            jac[dof as usize] = sign;
            rows.add(jac, &[], &[dist], &[margin], 0.0, 1, CNSTR_LIMIT_JOINT, j)?;
        }
    }
    Ok(())
}

/// Limit row of a ball joint: on the rotation angle, along the rotation axis.
fn ball_limit_row(
    m: &Model,
    d: &Data,
    j: usize,
    jac: &mut [Real],
    rows: &mut Rows,
) -> Result<(), StepError> {
    let margin = m.jnt_margin[j];
    let (axis, dist) = ball_limit(m, d, j);
    if !within_margin(dist, margin) {
        return Ok(());
    }
    let dof = m.jnt_dofadr[j];
    let neg = axis.map(|a| -a);
    if rows.sparse {
        jac[..3].copy_from_slice(&neg);
        let chain = [dof, dof + 1, dof + 2];
        rows.add(
            &jac[..3],
            &chain,
            &[dist],
            &[margin],
            0.0,
            1,
            CNSTR_LIMIT_JOINT,
            j,
        )
    } else {
        jac.fill(0.0);
        let dof = dof as usize;
        jac[dof..dof + 3].copy_from_slice(&neg);
        rows.add(jac, &[], &[dist], &[margin], 0.0, 1, CNSTR_LIMIT_JOINT, j)
    }
}

/// Limit rows of a tendon.
fn tendon_limit_rows(
    m: &Model,
    d: &Data,
    i: usize,
    jac: &mut [Real],
    rows: &mut Rows,
) -> Result<(), StepError> {
    let value = d.ten_length[i];
    let margin = m.tendon_margin[i];
    let (row, cols) = tendon_row(m, d, i, rows.sparse);
    for side in [-1, 1] {
        let dist = limit_dist(&m.tendon_range[2 * i..2 * i + 2], side, value);
        if !within_margin(dist, margin) {
            continue;
        }
        let sign = -Real::from(side as i8);
        let jac = &mut jac[..row.len()];
        for (x, &t) in jac.iter_mut().zip(row) {
            *x = t * sign;
        }
        let adr = rows.nefc;
        rows.add(jac, cols, &[dist], &[margin], 0.0, 1, CNSTR_LIMIT_TENDON, i)?;
        rows.note_tendon(i, adr);
    }
    Ok(())
}

/// Rows of the included contacts (`mj_instantiateContact`): the Jacobian difference of the two
/// bodies at the contact point, in the contact frame, then one frictionless row, pairs of
/// pyramid edges, or the elliptic dimensions. A contact whose bodies no dof moves gets no
/// rows and `exclude` 3.
fn contact_rows(m: &Model, d: &Data, rows: &mut Rows, stack: &mut Stack) -> Result<(), StepError> {
    let nv = m.nv;
    let ncon = d.ncon.min(rows.contact.len());
    if disabled(m, DSBL_CONTACT) || ncon == 0 || nv == 0 {
        return Ok(());
    }
    let jac = stack.alloc::<Real>(6 * nv)?;
    let jacdif = stack.alloc::<Real>(6 * nv)?;
    let mut pair = PairScratch::new(stack, nv)?;
    let chain = stack.alloc::<i32>(nv)?;
    let pyramidal = is_pyramidal(m);
    for i in 0..ncon {
        let con = rows.contact[i];
        if con.exclude != 0 {
            continue;
        }
        let dim = contact_dim(&con)?;
        let [b1, b2] = contact_bodies(m, &con)?;
        rows.contact[i].efc_address = rows.nefc as i32;
        let (difp, difr) = jacdif.split_at_mut(3 * nv);
        let n = jac_dif_pair_rot(
            m,
            d,
            rows.sparse,
            chain,
            (b1, b2),
            (&con.pos, &con.pos),
            &mut pair,
            difp,
            (dim > 3).then_some(&mut *difr),
        );
        if n == 0 {
            rows.contact[i].efc_address = -1;
            rows.contact[i].exclude = 3;
            continue;
        }

        // rotate to the contact frame: normal first, then tangents, then rotations
        mul_mat_mat(jac, &con.frame, difp, if dim > 1 { 3 } else { 1 }, 3, n);
        if dim > 3 {
            mul_mat_mat(&mut jac[3 * n..], &con.frame, difr, dim - 3, 3, n);
        }
        let chain = &chain[..n];
        let (dist, margin) = (con.dist, con.includemargin);
        if dim == 1 {
            let ty = CNSTR_CONTACT_FRICTIONLESS;
            rows.add(&jac[..n], chain, &[dist], &[margin], 0.0, 1, ty, i)?;
        } else if pyramidal {
            // one pair of opposite pyramid edges per friction dimension
            for k in 1..dim {
                let mu = con.friction[k - 1];
                let (normal, along) = (&jac[..n], &jac[k * n..(k + 1) * n]);
                let (edge1, rest) = difp.split_at_mut(n);
                add_scl(edge1, normal, along, mu);
                add_scl(&mut rest[..n], normal, along, -mu);
                let ty = CNSTR_CONTACT_PYRAMIDAL;
                rows.add(
                    &difp[..2 * n],
                    chain,
                    &[dist; 2],
                    &[margin; 2],
                    0.0,
                    2,
                    ty,
                    i,
                )?;
            }
        } else {
            let mut cpos = [0.0; 6];
            let mut cmargin = [0.0; 6];
            cpos[0] = dist;
            cmargin[0] = margin;
            let ty = CNSTR_CONTACT_ELLIPTIC;
            let (jac, cpos, cmargin) = (&jac[..dim * n], &cpos[..dim], &cmargin[..dim]);
            rows.add(jac, chain, cpos, cmargin, 0.0, dim, ty, i)?;
        }
    }
    Ok(())
}

/// The transpose of the sparse Jacobian (`efc_JT*`) and the supernodes of both (rows with the
/// same pattern as the next ones), as MuJoCo's AVX build computes them.
fn transpose_rows(m: &Model, nefc: usize, a: &mut ArenaArraysMut) {
    let nv = m.nv;
    transpose_sparse(
        a.efc_JT,
        a.efc_J,
        nefc,
        nv,
        a.efc_JT_rownnz,
        a.efc_JT_rowadr,
        a.efc_JT_colind,
        a.efc_J_rownnz,
        a.efc_J_rowadr,
        a.efc_J_colind,
    );
    super_sparse(
        nefc,
        a.efc_J_rowsuper,
        a.efc_J_rownnz,
        a.efc_J_rowadr,
        a.efc_J_colind,
    );
    super_sparse(
        nv,
        a.efc_JT_rowsuper,
        a.efc_JT_rownnz,
        a.efc_JT_rowadr,
        a.efc_JT_colind,
    );
}

// ------------------------------------------------------------------------------------------------
// soft-constraint parameters (mj_diagApprox, mj_makeImpedance)

/// Approximate diagonal of the constraint-space inverse inertia, `efc_diagApprox`
/// (`mj_diagApprox`), from the inverse weights of the bodies, dofs and tendons at `qpos0`.
fn diag_approx(m: &Model, nefc: usize, a: &mut ArenaArraysMut) -> Result<(), StepError> {
    let da = &mut *a.efc_diagApprox;
    let body = |b: i32, k: usize| m.body_invweight0[2 * b as usize + k];
    let mut weldcnt = 0;
    let mut i = 0;
    while i < nefc {
        let id = a.efc_id[i] as usize;
        match a.efc_type[i] {
            CNSTR_EQUALITY => {
                let (o1, o2) = (m.eq_obj1id[id], m.eq_obj2id[id]);
                da[i] = match m.eq_type[id] {
                    EQ_CONNECT => body(o1, 0) + body(o2, 0),
                    EQ_WELD => {
                        // three translation rows, then three rotation rows
                        let k = usize::from(weldcnt > 2);
                        weldcnt = (weldcnt + 1) % 6;
                        body(o1, k) + body(o2, k)
                    }
                    EQ_JOINT | EQ_TENDON => {
                        let weight = |o: i32| {
                            if m.eq_type[id] == EQ_JOINT {
                                m.dof_invweight0[m.jnt_dofadr[o as usize] as usize]
                            } else {
                                m.tendon_invweight0[o as usize]
                            }
                        };
                        let mut w = weight(o1);
                        if o2 >= 0 {
                            w += weight(o2);
                        }
                        w
                    }
                    _ => return Err(StepError::Unsupported("flex equality constraints")),
                };
            }
            CNSTR_FRICTION_DOF => da[i] = m.dof_invweight0[id],
            CNSTR_LIMIT_JOINT => da[i] = m.dof_invweight0[m.jnt_dofadr[id] as usize],
            CNSTR_FRICTION_TENDON | CNSTR_LIMIT_TENDON => da[i] = m.tendon_invweight0[id],
            ty => {
                i += contact_diag_approx(m, &a.contact[id], ty, &mut da[i..])?;
                continue;
            }
        }
        i += 1;
    }
    Ok(())
}

/// `efc_diagApprox` of the rows of one contact, from the mean translational and rotational
/// inverse weights of its two bodies; returns the number of rows.
fn contact_diag_approx(
    m: &Model,
    con: &Contact,
    ty: i32,
    da: &mut [Real],
) -> Result<usize, StepError> {
    let dim = contact_dim(con)?;
    let mut tran = 0.0;
    let mut rot = 0.0;
    for b in contact_bodies(m, con)? {
        tran += m.body_invweight0[2 * b];
        rot += m.body_invweight0[2 * b + 1];
    }
    Ok(match ty {
        CNSTR_CONTACT_FRICTIONLESS => {
            da[0] = tran;
            1
        }
        CNSTR_CONTACT_ELLIPTIC => {
            for j in 0..dim {
                da[j] = if j < 3 { tran } else { rot };
            }
            dim
        }
        _ => {
            for j in 0..dim - 1 {
                let fri = con.friction[j];
                let w = tran + fri * fri * if j < 2 { tran } else { rot };
                da[2 * j] = w;
                da[2 * j + 1] = w;
            }
            2 * (dim - 1)
        }
    })
}

/// The solver parameters of row `i`: `solref`, `solreffriction` (contacts only) and `solimp`,
/// with MuJoCo's corrections: mixed-sign references replaced by the defaults, time constants at
/// least two timesteps (unless `refsafe` is disabled), impedances clamped (`getsolparam`).
fn sol_params(
    m: &Model,
    a: &ArenaArraysMut,
    i: usize,
) -> ([Real; NREF], [Real; NREF], [Real; NIMP]) {
    let id = a.efc_id[i] as usize;
    let pick_ref = |s: &[Real]| [s[NREF * id], s[NREF * id + 1]];
    let pick_imp = |s: &[Real]| -> [Real; NIMP] { core::array::from_fn(|k| s[NIMP * id + k]) };
    let mut friction = [0.0; NREF];
    let (mut solref, mut solimp) = match a.efc_type[i] {
        CNSTR_EQUALITY => (pick_ref(m.eq_solref), pick_imp(m.eq_solimp)),
        CNSTR_LIMIT_JOINT => (pick_ref(m.jnt_solref), pick_imp(m.jnt_solimp)),
        CNSTR_FRICTION_DOF => (pick_ref(m.dof_solref), pick_imp(m.dof_solimp)),
        CNSTR_LIMIT_TENDON => (pick_ref(m.tendon_solref_lim), pick_imp(m.tendon_solimp_lim)),
        CNSTR_FRICTION_TENDON => (pick_ref(m.tendon_solref_fri), pick_imp(m.tendon_solimp_fri)),
        _ => {
            let con = &a.contact[id];
            friction = con.solreffriction;
            (con.solref, con.solimp)
        }
    };
    let refsafe = !disabled(m, DSBL_REFSAFE);
    let min_timeconst = 2.0 * m.opt.timestep;
    // the standard (positive) and direct (negative) formats cannot be mixed
    if (solref[0] > 0.0) ^ (solref[1] > 0.0) {
        solref = [0.02, 1.0];
    }
    if refsafe && solref[0] > 0.0 {
        solref[0] = max(solref[0], min_timeconst);
    }
    if (friction[0] > 0.0) ^ (friction[1] > 0.0) {
        friction = [0.0; NREF];
    }
    if refsafe && friction[0] > 0.0 {
        friction[0] = max(friction[0], min_timeconst);
    }
    let clamp_imp = |x: Real| min(MAXIMP as Real, max(MINIMP as Real, x));
    solimp[0] = clamp_imp(solimp[0]);
    solimp[1] = clamp_imp(solimp[1]);
    solimp[2] = max(0.0, solimp[2]);
    solimp[3] = clamp_imp(solimp[3]);
    solimp[4] = max(1.0, solimp[4]);
    (solref, friction, solimp)
}

/// The position that sets the impedance of the constraint starting at row `i`, and its number
/// of rows (`getposdim`): connect and weld use the norm of their position errors, contacts
/// span their dimensions or pyramid edges.
fn pos_dim(m: &Model, a: &ArenaArraysMut, i: usize) -> (Real, usize) {
    let id = a.efc_id[i] as usize;
    match a.efc_type[i] {
        CNSTR_CONTACT_ELLIPTIC => (a.efc_pos[i], a.contact[id].dim as usize),
        CNSTR_CONTACT_PYRAMIDAL => (a.efc_pos[i], 2 * (a.contact[id].dim as usize - 1)),
        CNSTR_EQUALITY if m.eq_type[id] == EQ_WELD => (norm(&a.efc_pos[i..i + 6]), 6),
        CNSTR_EQUALITY if m.eq_type[id] == EQ_CONNECT => (norm(&a.efc_pos[i..i + 3]), 3),
        _ => (a.efc_pos[i], 1),
    }
}

/// `a^b`, exact for the common powers 1 and 2 (`power`).
fn power(a: Real, b: Real) -> Real {
    if b == 1.0 {
        a
    } else if b == 2.0 {
        a * a
    } else {
        pow(a, b)
    }
}

/// Impedance and its derivative with respect to the position (`getimpedance`): the sigmoid of
/// `solimp` = (dmin, dmax, width, midpoint, power) over `|pos - margin| / width`.
fn impedance(solimp: &[Real; NIMP], pos: Real, margin: Real) -> (Real, Real) {
    let [dmin, dmax, width, mid, p] = *solimp;
    if dmin == dmax || width <= MINVAL {
        return (0.5 * (dmin + dmax), 0.0);
    }
    let mut x = (pos - margin) / width;
    let mut sgn = 1.0;
    if x < 0.0 {
        x = -x;
        sgn = -1.0;
    }
    if x >= 1.0 || x <= 0.0 {
        return (if x >= 1.0 { dmax } else { dmin }, 0.0);
    }
    let (y, y_p) = if p == 1.0 {
        (x, 1.0)
    } else if x <= mid {
        let a = 1.0 / power(mid, p - 1.0);
        (a * power(x, p), p * a * power(x, p - 1.0))
    } else {
        let b = 1.0 / power(1.0 - mid, p - 1.0);
        (1.0 - b * power(1.0 - x, p), p * b * power(1.0 - x, p - 1.0))
    };
    (dmin + y * (dmax - dmin), y_p * sgn * (dmax - dmin) / width)
}

/// Soft-constraint parameters (`mj_makeImpedance`): `efc_R` from the impedance and
/// `efc_diagApprox`, `efc_KBIP` (stiffness, damping, impedance and its derivative), the
/// friction-cone adjustments of contacts (`efc_R` of friction rows, contact `mu`), `efc_D`,
/// and `efc_diagApprox` made consistent with `efc_R`.
fn make_impedance(m: &Model, nefc: usize, first_contact: usize, a: &mut ArenaArraysMut) {
    let mut i = 0;
    while i < nefc {
        let (solref, friction, solimp) = sol_params(m, a, i);
        let (pos, dim) = pos_dim(m, a, i);
        let (imp, imp_p) = impedance(&solimp, pos, a.efc_margin[i]);
        for j in 0..dim {
            let r = i + j;
            a.efc_R[r] = max(MINVAL, (1.0 - imp) * a.efc_diagApprox[r] / imp);
            let ty = a.efc_type[r];
            let elliptic_friction = ty == CNSTR_CONTACT_ELLIPTIC && j > 0;
            let refs = if elliptic_friction && (friction[0] != 0.0 || friction[1] != 0.0) {
                friction
            } else {
                solref
            };
            let kbip = &mut a.efc_KBIP[4 * r..4 * r + 4];
            kbip[0] =
                if ty == CNSTR_FRICTION_DOF || ty == CNSTR_FRICTION_TENDON || elliptic_friction {
                    0.0
                } else if refs[0] > 0.0 {
                    let (dmax, tc, dr) = (solimp[1], refs[0], refs[1]);
                    1.0 / max(MINVAL, dmax * dmax * tc * tc * dr * dr)
                } else {
                    -refs[0] / max(MINVAL, solimp[1] * solimp[1])
                };
            kbip[1] = if refs[1] > 0.0 {
                2.0 / max(MINVAL, solimp[1] * refs[0])
            } else {
                -refs[1] / max(MINVAL, solimp[1])
            };
            kbip[2] = imp;
            kbip[3] = imp_p;
        }
        i += dim;
    }
    contact_cone_r(m, a, first_contact, nefc);
    for i in 0..nefc {
        a.efc_D[i] = 1.0 / a.efc_R[i];
    }
    for i in 0..nefc {
        let imp = a.efc_KBIP[4 * i + 2];
        a.efc_diagApprox[i] = a.efc_R[i] * imp / (1.0 - imp);
    }
}

/// Friction cones of contacts: `R` of the first friction row is the normal's over `impratio`,
/// `mu` of the regularized cone follows; elliptic cones scale the other friction rows so that
/// `R[j] mu[j]^2` is the same for all, pyramids share one `R` matching the elliptic friction
/// impedance.
fn contact_cone_r(m: &Model, a: &mut ArenaArraysMut, first: usize, nefc: usize) {
    let r = &mut *a.efc_R;
    let mut i = first;
    while i < nefc {
        let ty = a.efc_type[i];
        if ty != CNSTR_CONTACT_PYRAMIDAL && ty != CNSTR_CONTACT_ELLIPTIC {
            i += 1;
            continue;
        }
        let con = &mut a.contact[a.efc_id[i] as usize];
        let dim = con.dim as usize;
        let friction = con.friction;
        r[i + 1] = r[i] / max(MINVAL, m.opt.impratio);
        con.mu = friction[0] * sqrt(r[i + 1] / r[i]);
        if ty == CNSTR_CONTACT_ELLIPTIC {
            for j in 1..dim - 1 {
                r[i + j + 1] = r[i + 1] * friction[0] * friction[0] / (friction[j] * friction[j]);
            }
            i += dim;
        } else {
            let rpy = 2.0 * con.mu * con.mu * r[i];
            r[i..i + 2 * (dim - 1)].fill(rpy);
            i += 2 * (dim - 1);
        }
    }
}

// ------------------------------------------------------------------------------------------------
// projection (mj_projectConstraint)

/// Constraint-space inverse inertia plus regularizer for the dual solver, `efc_AR = J M^-1 J'
/// + diag(R)` (`mj_projectConstraint`), dense or sparse with `efc_AR_rownnz/rowadr/colind`.
/// Only for dual solvers (see [`is_dual`]).
pub fn project_constraint(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if d.nefc == 0 || !is_dual(m) {
        return Ok(());
    }
    let sparse = is_sparse(m);
    with_arrays(d, ArenaMask::ALL, |d, a, stack| {
        if sparse {
            project_sparse(m, d, a, stack)
        } else {
            project_dense(m, d, a, stack)
        }
    })
}

/// Dense `efc_AR`: `JM2 = J L^-T D^-1/2` by rows, then `JM2 JM2'`.
fn project_dense(
    m: &Model,
    d: &Data,
    a: ArenaArraysMut,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let (nefc, nv) = (d.nefc, m.nv);
    let jm2 = stack.alloc::<Real>(nefc * nv)?;
    let jm2t = stack.alloc::<Real>(nv * nefc)?;
    solve_m2(m, d, jm2, &a.efc_J[..nefc * nv], nefc);
    transpose(jm2t, jm2, nefc, nv);
    sqr_mat_td(a.efc_AR, jm2t, None, nv, nefc);
    for r in 0..nefc {
        a.efc_AR[r * (nefc + 1)] += a.efc_R[r];
    }
    Ok(())
}

/// Sparse `efc_AR`: each row of `J` completed with the ancestors of its dofs (the fill-in of
/// the back-substitution), back-substituted with `L'` and scaled by `D^-1/2`, then multiplied
/// with its transpose.
fn project_sparse(
    m: &Model,
    d: &Data,
    a: ArenaArraysMut,
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
    let (ar_rownnz, ar_rowadr, ar_colind) = (a.efc_AR_rownnz, a.efc_AR_rowadr, a.efc_AR_colind);
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

// ------------------------------------------------------------------------------------------------
// reference accelerations (mj_referenceConstraint) and Jacobian products

/// The constraint Jacobian `efc_J` (dense `nefc x nv`, or sparse with its transpose `efc_JT`).
pub struct Jacobian<'a> {
    /// Degrees of freedom (columns).
    pub nv: usize,
    /// Constraint rows.
    pub nefc: usize,
    /// Sparse layout (`mj_isSparse`).
    pub sparse: bool,
    /// `efc_J`.
    pub J: &'a [Real],
    /// `efc_J_rownnz` (sparse only).
    pub rownnz: &'a [i32],
    /// `efc_J_rowadr` (sparse only).
    pub rowadr: &'a [i32],
    /// `efc_J_rowsuper` (sparse only).
    pub rowsuper: &'a [i32],
    /// `efc_J_colind` (sparse only).
    pub colind: &'a [i32],
    /// `efc_JT` (sparse only).
    pub JT: &'a [Real],
    /// `efc_JT_rownnz` (sparse only).
    pub JT_rownnz: &'a [i32],
    /// `efc_JT_rowadr` (sparse only).
    pub JT_rowadr: &'a [i32],
    /// `efc_JT_rowsuper` (sparse only).
    pub JT_rowsuper: &'a [i32],
    /// `efc_JT_colind` (sparse only).
    pub JT_colind: &'a [i32],
}

impl Jacobian<'_> {
    /// `res = J vec` (`mj_mulJacVec`).
    pub fn mul_vec(&self, res: &mut [Real], vec: &[Real]) {
        if self.nefc == 0 {
            return;
        }
        if self.sparse {
            mul_mat_vec_sparse(
                res,
                self.J,
                vec,
                self.nefc,
                self.rownnz,
                self.rowadr,
                self.colind,
                Some(self.rowsuper),
            );
        } else {
            mul_mat_vec(res, self.J, vec, self.nefc, self.nv);
        }
    }

    /// `res = J' vec` (`mj_mulJacTVec`).
    pub fn mul_t_vec(&self, res: &mut [Real], vec: &[Real]) {
        if self.nefc == 0 {
            return;
        }
        if self.sparse {
            mul_mat_vec_sparse(
                res,
                self.JT,
                vec,
                self.nv,
                self.JT_rownnz,
                self.JT_rowadr,
                self.JT_colind,
                Some(self.JT_rowsuper),
            );
        } else {
            mul_mat_t_vec(res, self.J, vec, self.nefc, self.nv);
        }
    }
}

/// Constraint velocities and reference accelerations (`mj_referenceConstraint`):
/// `efc_vel = J qvel`, `efc_aref = -B efc_vel - K I (efc_pos - efc_margin)`.
pub fn reference_constraint(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let nefc = d.nefc;
    if nefc == 0 {
        return Ok(());
    }
    let sparse = is_sparse(m);
    let a = d.arena.arrays_mut_only(REFERENCE);
    let jac = Jacobian {
        sparse,
        nefc,
        nv: m.nv,
        J: a.efc_J,
        rownnz: a.efc_J_rownnz,
        rowadr: a.efc_J_rowadr,
        colind: a.efc_J_colind,
        rowsuper: a.efc_J_rowsuper,
        JT: a.efc_JT,
        JT_rownnz: a.efc_JT_rownnz,
        JT_rowadr: a.efc_JT_rowadr,
        JT_colind: a.efc_JT_colind,
        JT_rowsuper: a.efc_JT_rowsuper,
    };
    jac.mul_vec(a.efc_vel, d.qvel);
    for i in 0..nefc {
        let kbip = &a.efc_KBIP[4 * i..4 * i + 4];
        a.efc_aref[i] =
            -kbip[1] * a.efc_vel[i] - kbip[0] * kbip[2] * (a.efc_pos[i] - a.efc_margin[i]);
    }
    Ok(())
}

/// The arena arrays of [`reference_constraint`]: the Jacobian and the rows' reference terms.
const REFERENCE: ArenaMask = JACOBIAN.union(ArenaMask::of(&[
    ArenaField::efc_pos,
    ArenaField::efc_margin,
    ArenaField::efc_KBIP,
    ArenaField::efc_vel,
    ArenaField::efc_aref,
]));

/// The constraint Jacobian of this step in the arena arrays `a`.
fn jacobian<'a>(m: &Model, nefc: usize, a: &ArenaArrays<'a>) -> Jacobian<'a> {
    Jacobian {
        sparse: is_sparse(m),
        nefc,
        nv: m.nv,
        J: a.efc_J,
        rownnz: a.efc_J_rownnz,
        rowadr: a.efc_J_rowadr,
        colind: a.efc_J_colind,
        rowsuper: a.efc_J_rowsuper,
        JT: a.efc_JT,
        JT_rownnz: a.efc_JT_rownnz,
        JT_rowadr: a.efc_JT_rowadr,
        JT_colind: a.efc_JT_colind,
        JT_rowsuper: a.efc_JT_rowsuper,
    }
}

/// The arena arrays of the constraint Jacobian and its transpose.
pub(crate) const JACOBIAN: ArenaMask = ArenaMask::of(&[
    ArenaField::efc_J_rownnz,
    ArenaField::efc_J_rowadr,
    ArenaField::efc_J_rowsuper,
    ArenaField::efc_J_colind,
    ArenaField::efc_JT_rownnz,
    ArenaField::efc_JT_rowadr,
    ArenaField::efc_JT_rowsuper,
    ArenaField::efc_JT_colind,
    ArenaField::efc_J,
    ArenaField::efc_JT,
]);

/// `res = J vec` with the constraint Jacobian of `d` (`mj_mulJacVec`); `res` has `nefc`
/// entries. Nothing without rows.
pub fn mul_jac_vec(m: &Model, d: &Data, res: &mut [Real], vec: &[Real]) {
    jacobian(m, d.nefc, &d.arena.arrays_only(JACOBIAN)).mul_vec(res, vec);
}

/// `res = J' vec` with the constraint Jacobian of `d` (`mj_mulJacTVec`); `res` has `nv`
/// entries. Nothing without rows.
pub fn mul_jac_t_vec(m: &Model, d: &Data, res: &mut [Real], vec: &[Real]) {
    jacobian(m, d.nefc, &d.arena.arrays_only(JACOBIAN)).mul_t_vec(res, vec);
}
