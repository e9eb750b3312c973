//! Constraint solvers (MuJoCo's `engine_solver.c`, and the solver half of `mj_fwdConstraint`
//! in `engine_forward.c`): given the constraint rows of this step, find the constraint forces
//! `efc_force`, their joint-space sum `qfrc_constraint` and the constrained acceleration `qacc`
//! ("Computation › Constraint solver").
//!
//! * `update`: `mj_constraintUpdate`, the constraint states, forces and cost of the primal
//!   formulation at a given acceleration.
//! * `pgs`: the dual projected Gauss-Seidel solver (`mj_solPGS`), `noslip` its cousin that
//!   removes slip after the main solver (`mj_solNoSlip`).
//! * `cg_newton`: the primal solvers, conjugate gradient and Newton (`mj_solCG`,
//!   `mj_solNewton`), with their exact line search; `hessian` the Newton Hessian and its
//!   Cholesky factor, dense or sparse (its sparse kernels are in [`crate::math::sparse`]).
//!
//! Every function here works on [`Efc`], the constraint rows as the solvers see them.

mod cg_newton;
mod context;
mod hessian;
mod noslip;
#[cfg(feature = "fast")]
mod order;
mod pgs;
mod update;

use update::constraint_cost;
pub use update::constraint_update;

/// The sparse kernels of the Newton Hessian at the path the conformance tests use; they live
/// with the other sparse helpers in [`crate::math::sparse`].
pub mod sparse {
    pub use crate::math::sparse::{
        chol_factor_sparse, chol_solve_sparse, chol_update_sparse, compress_sparse,
        sqr_mat_td_sparse, sqr_mat_td_uncompressed_init,
    };
}

use crate::arena::{ArenaArraysMut, ArenaField, ArenaMask, ArenaTable, Detached, Stack};
use crate::constraint::{efc_jacobian, transposed, Jacobian};
use crate::data::{Contact, Data, SolverStat};
use crate::error::StepError;
use crate::math::mat::mul_mat_vec;
use crate::math::sparse::{dot_sparse, dot_sparse2, mul_mat_vec_sparse};
use crate::math::vec::{dot, sub_from};
use crate::model::Model;
use crate::real::Real;
use crate::support::{disabled, enabled, is_dual, is_sparse, mul_m};
use crate::types::*;

impl Jacobian<'_> {
    /// `res = J vec` on the rows and dofs of `sub` (`mj_mulJacVec_island`): `res` compressed,
    /// `vec` compressed too unless `vec_unc`.
    pub fn mul_vec_subset(&self, res: &mut [Real], vec: &[Real], vec_unc: bool, sub: &Subset) {
        if sub.island.is_none() {
            self.mul_vec(res, vec);
            return;
        }
        for (r, &row) in res.iter_mut().zip(sub.efcind) {
            let row = row as usize;
            *r = if self.sparse {
                let adr = self.rowadr[row] as usize;
                let end = adr + self.rownnz[row] as usize;
                dot_sparse2(
                    &self.J[adr..end],
                    &self.colind[adr..end],
                    vec,
                    sub.dofind,
                    vec_unc,
                )
            } else {
                let nv = self.nv;
                dot_sparse(vec, &self.J[row * nv..(row + 1) * nv], sub.dofind, vec_unc)
            };
        }
    }

    /// `res = J' vec` on the dofs and rows of `sub`, both uncompressed
    /// (`mj_mulJacTVec_island`); only the island's dofs of `res` are written.
    pub fn mul_t_vec_subset(&self, res: &mut [Real], vec: &[Real], sub: &Subset) {
        if sub.island.is_none() {
            self.mul_t_vec(res, vec);
            return;
        }
        for &row in sub.dofind {
            let row = row as usize;
            res[row] = if self.sparse {
                let adr = self.JT_rowadr[row] as usize;
                let end = adr + self.JT_rownnz[row] as usize;
                dot_sparse2(
                    &self.JT[adr..end],
                    &self.JT_colind[adr..end],
                    vec,
                    sub.efcind,
                    true,
                )
            } else {
                let nefc = self.nefc;
                dot_sparse(
                    vec,
                    &self.JT[row * nefc..(row + 1) * nefc],
                    sub.efcind,
                    true,
                )
            };
        }
    }
}

/// `efc_AR = J M⁻¹ J' + R`, the regularized dual matrix (dense `nefc x nefc` or sparse); made
/// only for dual solvers (PGS, noslip).
pub struct DualMatrix<'a> {
    /// Sparse layout (`mj_isSparse`).
    pub sparse: bool,
    /// `efc_AR`.
    pub AR: &'a [Real],
    /// `efc_AR_rownnz` (sparse only).
    pub rownnz: &'a [i32],
    /// `efc_AR_rowadr` (sparse only).
    pub rowadr: &'a [i32],
    /// `efc_AR_colind` (sparse only).
    pub colind: &'a [i32],
}

impl DualMatrix<'_> {
    /// The non-zeros of row `i` and their columns (dense: the whole row, no columns).
    // inlined: PGS fetches one row per constraint per sweep, a call each was 22 instructions
    #[inline(always)]
    fn row(&self, i: usize, nefc: usize) -> (&[Real], &[i32]) {
        if self.sparse {
            let adr = self.rowadr[i] as usize;
            let end = adr + self.rownnz[i] as usize;
            (&self.AR[adr..end], &self.colind[adr..end])
        } else {
            (&self.AR[i * nefc..(i + 1) * nefc], &[])
        }
    }

    /// `res += scl * row i` (by symmetry, column `i`): the fast PGS's gradient update after a
    /// change of force `i`.
    #[cfg(feature = "fast")]
    #[inline(always)]
    fn add_row_scaled(&self, res: &mut [Real], i: usize, scl: Real) {
        let (values, colind) = self.row(i, res.len());
        if self.sparse {
            for (&v, &c) in values.iter().zip(colind) {
                res[c as usize] += v * scl;
            }
        } else {
            crate::math::vec::add_to_scl(res, values, scl);
        }
    }

    /// Row `i` times `vec`, in MuJoCo's summation order.
    // inlined: PGS takes one row product per constraint per sweep, and the call was a fifth of it
    #[inline(always)]
    fn dot_row(&self, i: usize, vec: &[Real]) -> Real {
        let (values, colind) = self.row(i, vec.len());
        if self.sparse {
            crate::math::sparse::dot_sparse(values, vec, colind, false)
        } else {
            dot(values, vec)
        }
    }

    /// `res = AR vec`.
    fn mul_vec(&self, res: &mut [Real], vec: &[Real]) {
        let nefc = vec.len();
        if self.sparse {
            mul_mat_vec_sparse(
                res,
                self.AR,
                vec,
                nefc,
                self.rownnz,
                self.rowadr,
                self.colind,
                None,
            );
        } else {
            mul_mat_vec(res, self.AR, vec, nefc, nefc);
        }
    }
}

/// The constraint rows of this step as the solvers see them: read-only inputs made by the
/// constraint stages, and the outputs `efc_b`, `efc_force`, `efc_state` and the contacts'
/// cone Hessians.
pub struct Efc<'a> {
    /// Equality rows (first).
    pub ne: usize,
    /// Friction-loss rows (next).
    pub nf: usize,
    /// All rows.
    pub nefc: usize,
    /// The Jacobian.
    pub jac: Jacobian<'a>,
    /// `efc_AR` (dual solvers only; empty otherwise).
    pub ar: DualMatrix<'a>,
    /// `efc_type` (`CNSTR_*`).
    pub efc_type: &'a [i32],
    /// `efc_id`: the object of each row (contact index for contacts).
    pub efc_id: &'a [i32],
    /// `efc_frictionloss`.
    pub frictionloss: &'a [Real],
    /// `efc_D`.
    pub D: &'a [Real],
    /// `efc_R`.
    pub R: &'a [Real],
    /// `efc_aref`.
    pub aref: &'a [Real],
    /// `efc_b = J qacc_smooth - aref`, set by the solve.
    pub b: &'a mut [Real],
    /// `efc_force`.
    pub force: &'a mut [Real],
    /// `efc_state` (`CNSTRSTATE_*`).
    pub state: &'a mut [i32],
    /// The contacts (`mu`, `friction`, `dim` are read; the cone Hessian `H` is written).
    pub contact: &'a mut [Contact],
    /// The constraint islands (`nisland` of them; empty without the island flag).
    pub islands: Islands<'a>,
}

/// The island arrays of `mj_island` the island solver reads.
pub struct Islands<'a> {
    /// Number of islands.
    pub nisland: usize,
    /// Dofs per island.
    pub dofnum: &'a [i32],
    /// First entry of each island in `dofind`.
    pub dofadr: &'a [i32],
    /// Dofs, island by island.
    pub dofind: &'a [i32],
    /// Position of each dof within its island's dofs.
    pub dof_islandind: &'a [i32],
    /// Rows per island.
    pub efcnum: &'a [i32],
    /// First entry of each island in `efcind`.
    pub efcadr: &'a [i32],
    /// Rows, island by island.
    pub efcind: &'a [i32],
}

impl<'a> Islands<'a> {
    /// Whether the arrays hold `nisland` islands over `nv` dofs and `nefc` rows, with every
    /// index in range.
    fn valid(&self, nv: usize, nefc: usize) -> bool {
        let n = self.nisland;
        let sized = has(self.dofnum, n)
            && has(self.dofadr, n)
            && has(self.efcnum, n)
            && has(self.efcadr, n)
            && has(self.dofind, nv)
            && has(self.dof_islandind, nv)
            && has(self.efcind, nefc);
        let within = |adr: &[i32], num: &[i32], len: usize, ind: &[i32], bound: usize| {
            (0..n).all(|k| {
                let (a, c) = (adr[k], num[k]);
                a >= 0
                    && c >= 0
                    && (a + c) as usize <= len
                    && ind[a as usize..(a + c) as usize]
                        .iter()
                        .all(|&x| x >= 0 && (x as usize) < bound)
            })
        };
        sized
            && within(self.dofadr, self.dofnum, nv, self.dofind, nv)
            && within(self.efcadr, self.efcnum, nefc, self.efcind, nefc)
            && self.dof_islandind[..nv].iter().all(|&x| x < nv as i32)
    }

    /// The dofs and rows of island `k`.
    pub fn subset(&self, k: usize) -> Subset<'a> {
        let range = |adr: &[i32], num: &[i32]| {
            let a = adr[k] as usize;
            a..a + num[k] as usize
        };
        Subset {
            island: Some(k),
            dofind: &self.dofind[range(self.dofadr, self.dofnum)],
            efcind: &self.efcind[range(self.efcadr, self.efcnum)],
            dof_islandind: self.dof_islandind,
        }
    }
}

/// The dofs and rows one solve works on: all of them, or one island's. An island's vectors
/// are compressed: entry `c` of a dof vector is dof `dofind[c]`, of a row vector row
/// `efcind[c]`.
#[derive(Clone, Copy)]
pub struct Subset<'a> {
    /// The island, `None` for all dofs and rows.
    pub island: Option<usize>,
    /// The island's dofs, in increasing order (empty for all).
    pub dofind: &'a [i32],
    /// The island's rows, in increasing order (empty for all).
    pub efcind: &'a [i32],
    /// Position of each dof within its island.
    pub dof_islandind: &'a [i32],
}

impl Subset<'_> {
    /// Every dof and row.
    pub const ALL: Subset<'static> = Subset {
        island: None,
        dofind: &[],
        efcind: &[],
        dof_islandind: &[],
    };

    /// The dof of entry `c`.
    #[inline]
    pub fn dof(&self, c: usize) -> usize {
        if self.island.is_some() {
            self.dofind[c] as usize
        } else {
            c
        }
    }

    /// The row of entry `c`.
    #[inline]
    pub fn efc(&self, c: usize) -> usize {
        if self.island.is_some() {
            self.efcind[c] as usize
        } else {
            c
        }
    }

    /// Number of dofs (`nv` for all).
    pub fn nv(&self, nv: usize) -> usize {
        if self.island.is_some() {
            self.dofind.len()
        } else {
            nv
        }
    }

    /// Number of rows (`nefc` for all).
    pub fn nefc(&self, nefc: usize) -> usize {
        if self.island.is_some() {
            self.efcind.len()
        } else {
            nefc
        }
    }
}

/// Whether `a` has at least `n` elements.
fn has(a: &[impl Sized], n: usize) -> bool {
    a.len() >= n
}

impl<'a> Efc<'a> {
    /// The arena arrays the solvers read and write (the rest are not cut out for them).
    pub const ARRAYS: ArenaMask = crate::constraint::JACOBIAN.union(Self::ROWS);

    /// [`Efc::ARRAYS`] with the dense Jacobian alone, for a Jacobian without its transpose
    /// (see [`transposed`]).
    const ARRAYS_DENSE: ArenaMask = crate::constraint::JACOBIAN_DENSE.union(Self::ROWS);

    /// [`Efc::ARRAYS`] without the dual matrix and the islands: what the primal solvers read
    /// when neither a dual solver nor the island solver runs.
    const ARRAYS_PRIMAL: ArenaMask = crate::constraint::JACOBIAN.union(Self::PRIMAL_ROWS);

    /// [`Efc::ARRAYS_PRIMAL`] with the dense Jacobian alone.
    const ARRAYS_PRIMAL_DENSE: ArenaMask =
        crate::constraint::JACOBIAN_DENSE.union(Self::PRIMAL_ROWS);

    /// The arena arrays of [`Efc::ARRAYS`] as writable views, and a scratch frame, cut from
    /// `detached`: with the dense Jacobian alone when it has no transpose, and without the dual
    /// matrix `efc_AR` and the island arrays unless a dual solver (PGS, noslip) or islands may
    /// read them (the others are empty). Each array cut costs a few dozen instructions, and the
    /// solver runs once per `mj_forward`; each mask is a constant so that the skipped cuts
    /// vanish.
    #[inline(always)]
    pub fn arrays_and_stack<'f>(
        m: &Model,
        detached: &'f mut Detached<'_>,
        fields: &ArenaTable,
    ) -> (ArenaArraysMut<'f>, Stack<'f>) {
        // one call per mask: a mask chosen at run time would test every array
        let all = is_dual(m) || enabled(m, ENBL_ISLAND);
        match (transposed(m), all) {
            (true, true) => detached.arrays_mut_only_and_stack(fields, Self::ARRAYS),
            (false, true) => detached.arrays_mut_only_and_stack(fields, Self::ARRAYS_DENSE),
            (true, false) => detached.arrays_mut_only_and_stack(fields, Self::ARRAYS_PRIMAL),
            (false, false) => detached.arrays_mut_only_and_stack(fields, Self::ARRAYS_PRIMAL_DENSE),
        }
    }

    /// The arena arrays of [`Efc::ARRAYS`] besides the Jacobian.
    const ROWS: ArenaMask = Self::PRIMAL_ROWS.union(ArenaMask::of(&[
        ArenaField::efc_AR_rownnz,
        ArenaField::efc_AR_rowadr,
        ArenaField::efc_AR_colind,
        ArenaField::efc_AR,
        ArenaField::island_dofnum,
        ArenaField::island_dofadr,
        ArenaField::island_dofind,
        ArenaField::dof_islandind,
        ArenaField::island_efcnum,
        ArenaField::island_efcadr,
        ArenaField::island_efcind,
    ]));

    /// The rows' arrays every solver reads or writes.
    const PRIMAL_ROWS: ArenaMask = ArenaMask::of(&[
        ArenaField::contact,
        ArenaField::efc_type,
        ArenaField::efc_id,
        ArenaField::efc_frictionloss,
        ArenaField::efc_D,
        ArenaField::efc_R,
        ArenaField::efc_aref,
        ArenaField::efc_b,
        ArenaField::efc_force,
        ArenaField::efc_state,
    ]);

    /// The rows of `d` (`ne`, `nf`, `nefc`) in the arena arrays `a`; `Err` when an array the
    /// solver reads was not made (a constraint stage that does not fill what MuJoCo fills).
    pub fn new(m: &Model, d: &Data, a: ArenaArraysMut<'a>) -> Result<Self, StepError> {
        let (nv, nefc) = (m.nv, d.nefc);
        let sparse = is_sparse(m);
        let ok = has(a.efc_type, nefc)
            && has(a.efc_id, nefc)
            && has(a.efc_frictionloss, nefc)
            && has(a.efc_D, nefc)
            && has(a.efc_R, nefc)
            && has(a.efc_aref, nefc)
            && has(a.efc_b, nefc)
            && has(a.efc_force, nefc)
            && has(a.efc_state, nefc)
            && has(a.contact, d.ncon)
            && d.ne + d.nf <= nefc
            && if sparse {
                has(a.efc_J_rownnz, nefc)
                    && has(a.efc_J_rowadr, nefc)
                    && has(a.efc_J_rowsuper, nefc)
                    && has(a.efc_JT_rownnz, nv)
                    && has(a.efc_JT_rowadr, nv)
                    && has(a.efc_JT_rowsuper, nv)
                    && has(a.efc_J, d.nnzJ)
                    && has(a.efc_JT, d.nnzJ)
                    && has(a.efc_J_colind, d.nnzJ)
                    && has(a.efc_JT_colind, d.nnzJ)
            } else {
                has(a.efc_J, nefc * nv)
            };
        if !ok {
            return Err(StepError::Unsupported(
                "constraint rows without the arrays the solver reads",
            ));
        }
        if !cones_match(&a.efc_type[..nefc], &a.efc_id[..nefc], &a.contact[..d.ncon]) {
            return Err(StepError::Unsupported(
                "elliptic-cone rows that do not match their contacts",
            ));
        }
        Ok(Efc {
            ne: d.ne,
            nf: d.nf,
            nefc,
            jac: efc_jacobian!(a, nefc, nv, sparse),
            ar: DualMatrix {
                sparse,
                AR: a.efc_AR,
                rownnz: a.efc_AR_rownnz,
                rowadr: a.efc_AR_rowadr,
                colind: a.efc_AR_colind,
            },
            efc_type: &a.efc_type[..nefc],
            efc_id: &a.efc_id[..nefc],
            frictionloss: &a.efc_frictionloss[..nefc],
            D: &a.efc_D[..nefc],
            R: &a.efc_R[..nefc],
            aref: &a.efc_aref[..nefc],
            b: &mut a.efc_b[..nefc],
            force: &mut a.efc_force[..nefc],
            state: &mut a.efc_state[..nefc],
            contact: &mut a.contact[..d.ncon],
            islands: Islands {
                nisland: d.nisland,
                dofnum: a.island_dofnum,
                dofadr: a.island_dofadr,
                dofind: a.island_dofind,
                dof_islandind: a.dof_islandind,
                efcnum: a.island_efcnum,
                efcadr: a.island_efcadr,
                efcind: a.island_efcind,
            },
        })
    }

    /// Whether the dual matrix `efc_AR` was made (dual solvers need it).
    fn has_dual(&self) -> bool {
        let n = self.nefc;
        if n == 0 {
            return true;
        }
        if self.ar.sparse {
            has(self.ar.rownnz, n) && has(self.ar.rowadr, n) && {
                let last = self.ar.rowadr[n - 1] as usize + self.ar.rownnz[n - 1] as usize;
                has(self.ar.AR, last) && has(self.ar.colind, last)
            }
        } else {
            has(self.ar.AR, n * n)
        }
    }

    /// The contact of elliptic-cone row `i`, whose rows are `i..i + dim`.
    fn cone(&self, i: usize) -> &Contact {
        &self.contact[self.efc_id[i] as usize]
    }

    /// Number of rows of the constraint starting at row `i`: the contact's `dim` for an
    /// elliptic cone, 1 otherwise.
    fn dim(&self, i: usize) -> usize {
        if self.efc_type[i] == CNSTR_CONTACT_ELLIPTIC {
            self.cone(i).dim as usize
        } else {
            1
        }
    }
}

/// Whether every elliptic-cone contact's rows name a contact of dimension 3 to 6 and fit in
/// the rows, so that walking the rows by cones stays in bounds.
fn cones_match(efc_type: &[i32], efc_id: &[i32], contact: &[Contact]) -> bool {
    let mut i = 0;
    while i < efc_type.len() {
        if efc_type[i] != CNSTR_CONTACT_ELLIPTIC {
            i += 1;
            continue;
        }
        let dim = usize::try_from(efc_id[i])
            .ok()
            .and_then(|id| contact.get(id))
            .and_then(|c| usize::try_from(c.dim).ok())
            .filter(|dim| (3..=6).contains(dim) && i + dim <= efc_type.len());
        match dim {
            Some(dim) => i += dim,
            None => return false,
        }
    }
    true
}

/// Records the statistics of iteration `iter` (`saveStats`, monolithic island 0); iterations
/// past `NSOLVER_STATS` are not recorded.
fn save_stats(stats: &mut [SolverStat], iter: usize, stat: SolverStat) {
    if iter < NSOLVER_STATS {
        stats[iter] = stat;
    }
}

/// Number of rows whose state differs between `old` and `new`.
fn count_changes(old: &[i32], new: &[i32]) -> i32 {
    old.iter().zip(new).filter(|(a, b)| a != b).count() as i32
}

/// Scale of improvements and gradients: `1 / (meaninertia * max(1, nv))`.
fn stat_scale(m: &Model) -> Real {
    1.0 / (m.stat.meaninertia * m.nv.max(1) as Real)
}

/// Solves for the constraint forces and the constrained acceleration (the solver part of
/// `mj_fwdConstraint`): `efc_b`, warmstart, the solver of `opt.solver`, `qacc_warmstart` for
/// the next step, then noslip. Writes `efc_b`, `efc_force`, `efc_state`, `qfrc_constraint`,
/// `qacc`, `qacc_warmstart`, the solver statistics and, for elliptic cones with Newton, the
/// contacts' cone Hessians. Needs `nefc > 0` rows made by the constraint stages.
pub fn fwd_constraint_solve(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let mut detached = d.arena.detach();
    let result = {
        let (arrays, mut stack) = Efc::arrays_and_stack(m, &mut detached, d.arena.table());
        // the rows (30 slices) are solved where `Efc::new` put them: moving them out of the
        // result cost a copy
        match &mut Efc::new(m, d, arrays) {
            Ok(efc) => solve(m, d, efc, &mut stack),
            Err(e) => Err(*e),
        }
    };
    d.arena.attach(detached);
    result
}

/// The solve on the rows `efc` (see [`fwd_constraint_solve`]).
fn solve(m: &Model, d: &mut Data, efc: &mut Efc, stack: &mut Stack) -> Result<(), StepError> {
    if is_dual(m) && !efc.has_dual() {
        return Err(StepError::Unsupported(
            "dual solver without the constraint matrix efc_AR",
        ));
    }

    // efc_b = J qacc_smooth - aref
    efc.jac.mul_vec(efc.b, d.qacc_smooth);
    sub_from(efc.b, efc.aref);

    // MuJoCo solves island by island only with CG and without noslip; the other solvers see
    // all rows at once, islands or not
    let by_island = enabled(m, ENBL_ISLAND)
        && d.nisland > 0
        && m.opt.solver == SOL_CG
        && m.opt.noslip_iterations == 0;
    // CG and Newton on all rows take the warmstart's vectors as their own: allocated in this
    // frame, below the solver's scratch, they add nothing to the stack's peak
    let mut frame = stack.frame();
    let stack = &mut frame;
    let hand_over = !by_island && m.opt.solver != SOL_PGS;
    let start = warmstart(m, d, efc, stack, hand_over)?;
    d.solver_niter = [0; NISLAND];

    let maxiter = m.opt.iterations.max(0) as usize;
    if by_island {
        solve_islands(m, d, efc, stack, maxiter)?;
    } else {
        match m.opt.solver {
            SOL_PGS => pgs::sol_pgs(m, d, efc, stack, maxiter)?,
            SOL_CG => cg_newton::sol_cg(m, d, efc, stack, maxiter, start)?,
            SOL_NEWTON => cg_newton::sol_newton(m, d, efc, stack, maxiter, start)?,
            _ => return Err(StepError::Numerical("unknown solver type")),
        }
        d.solver_nisland = 1;
    }

    d.qacc_warmstart.copy_from_slice(d.qacc);

    if m.opt.noslip_iterations > 0 {
        noslip::sol_noslip(m, d, efc, stack, m.opt.noslip_iterations as usize)?;
    }
    Ok(())
}

/// CG island by island (see [`solve`]). Not inlined: models without islands, which most are,
/// keep its code and stack out of the solver's frame.
#[inline(never)]
fn solve_islands(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    stack: &mut Stack,
    maxiter: usize,
) -> Result<(), StepError> {
    let (nv, nefc) = (m.nv, efc.nefc);
    let transposed = efc.jac.sparse || has(efc.jac.JT, nefc * nv);
    if !transposed || !efc.islands.valid(nv, nefc) {
        return Err(StepError::Unsupported(
            "island arrays that do not match the constraint rows",
        ));
    }
    // each island writes its own dofs; no row acts on the others
    d.qfrc_constraint.fill(0.0);
    for island in 0..d.nisland {
        cg_newton::sol_cg_island(m, d, efc, stack, maxiter, island)?;
    }
    d.solver_nisland = d.nisland;
    Ok(())
}

/// What [`warmstart`] computed at the `qacc` it chose, which CG and Newton on all rows take as
/// their start instead of computing it again.
pub(super) struct Start<'s> {
    /// `J qacc - aref` (nefc).
    pub jaref: &'s mut [Real],
    /// `M qacc` (nv).
    pub ma: &'s mut [Real],
    /// The constraint cost at `qacc`, where the rows hold its states and forces (without cone
    /// Hessians).
    pub constraints: Option<Real>,
}

/// Initial `qacc` and forces (`warmstart`). With warmstart, the better of `qacc_warmstart` and
/// `qacc_smooth` by the primal cost, or for PGS the forces at `qacc_warmstart` unless zero
/// forces are better; without, `qacc_smooth` and zero forces. With `hand_over` (CG or Newton
/// on all rows, warmstart enabled) its products at the chosen `qacc` are returned in `stack`'s
/// frame; otherwise its scratch is released. Its costs leave `qfrc_constraint` to the solver,
/// which writes it afresh (MuJoCo's warmstart writes it twice, for nothing).
fn warmstart<'s>(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    stack: &mut Stack<'s>,
    hand_over: bool,
) -> Result<Option<Start<'s>>, StepError> {
    if disabled(m, DSBL_WARMSTART) {
        d.qacc.copy_from_slice(d.qacc_smooth);
        efc.force.fill(0.0);
        return Ok(None);
    }
    if hand_over {
        let jar = stack.alloc::<Real>(efc.nefc)?;
        let ma = stack.alloc::<Real>(m.nv)?;
        return primal_start(m, d, efc, jar, ma, stack).map(Some);
    }
    let mut frame = stack.frame();
    let jar = frame.alloc::<Real>(efc.nefc)?;
    if m.opt.solver == SOL_PGS {
        warmstart_forces(m, d, efc, jar, &mut frame)?;
    } else {
        let ma = frame.alloc::<Real>(m.nv)?;
        primal_start(m, d, efc, jar, ma, &mut frame)?;
    }
    Ok(None)
}

/// PGS's warmstart: the primal forces at `qacc_warmstart` (residual `jar`), or zero forces
/// where those have a positive dual cost.
fn warmstart_forces(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    jar: &mut [Real],
    stack: &mut Stack,
) -> Result<(), StepError> {
    warm_residual(d, efc, jar);
    constraint_cost(m, efc, jar);
    let mut frame = stack.frame();
    let arf = frame.alloc::<Real>(efc.nefc)?;
    let mut pgs_warmstart = dot(efc.force, efc.b);
    efc.ar.mul_vec(arf, efc.force);
    pgs_warmstart += 0.5 * dot(efc.force, arf);
    if pgs_warmstart > 0.0 {
        efc.force.fill(0.0);
    }
    Ok(())
}

/// `qacc = qacc_warmstart` and its residual `jar = J qacc - aref`.
fn warm_residual(d: &mut Data, efc: &Efc, jar: &mut [Real]) {
    d.qacc.copy_from_slice(d.qacc_warmstart);
    efc.jac.mul_vec(jar, d.qacc_warmstart);
    sub_from(jar, efc.aref);
}

/// CG's and Newton's warmstart: `qacc_warmstart` unless `qacc_smooth` has the lower primal
/// cost, with `J qacc - aref` in `jar` and `M qacc` in `ma` at the one chosen.
fn primal_start<'s>(
    m: &Model,
    d: &mut Data,
    efc: &mut Efc,
    jar: &'s mut [Real],
    ma: &'s mut [Real],
    stack: &mut Stack,
) -> Result<Start<'s>, StepError> {
    let nv = m.nv;
    warm_residual(d, efc, jar);
    // cost of qacc_smooth: only constraints (jar = efc_b there); taken first, so that the
    // rows hold the warmstart's states and forces after it, which are most often kept
    let cost_smooth = {
        let mut frame = stack.frame();
        let jar_smooth = frame.alloc::<Real>(efc.nefc)?;
        jar_smooth.copy_from_slice(efc.b);
        constraint_cost(m, efc, jar_smooth)
    };

    let constraints = constraint_cost(m, efc, jar);
    let mut cost_warmstart = constraints;
    // add the Gauss term to the constraint cost of qacc_warmstart
    mul_m(m, d, ma, d.qacc_warmstart);
    // slices cut to nv: the loop carries no bounds checks
    let forces = ma.iter().zip(&d.qfrc_smooth[..nv]);
    let accs = d.qacc_warmstart[..nv].iter().zip(&d.qacc_smooth[..nv]);
    for ((&ma, &smooth), (&warm, &acc_smooth)) in forces.zip(accs) {
        cost_warmstart += 0.5 * (ma - smooth) * (warm - acc_smooth);
    }

    if cost_warmstart > cost_smooth {
        // the products at qacc_smooth, as the solver's start would take them
        d.qacc.copy_from_slice(d.qacc_smooth);
        jar.copy_from_slice(efc.b);
        mul_m(m, d, ma, d.qacc_smooth);
        return Ok(Start {
            jaref: jar,
            ma,
            constraints: None,
        });
    }
    Ok(Start {
        jaref: jar,
        ma,
        constraints: Some(constraints),
    })
}
