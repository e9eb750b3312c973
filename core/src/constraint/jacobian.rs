//! The constraint Jacobian `efc_J` as the solvers see it, its products with vectors
//! (`mj_mulJacVec`, `mj_mulJacTVec`) and its sparse transpose with supernodes.

use crate::arena::{ArenaArraysMut, ArenaField, ArenaMask};
use crate::data::Data;
use crate::math::mat::{mul_mat_t_vec, mul_mat_vec};
use crate::math::sparse::{mul_mat_vec_sparse, super_sparse, transpose_sparse};
use crate::model::Model;
use crate::real::Real;
use crate::support::{enabled, is_sparse};
use crate::types::ENBL_ISLAND;

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
    // inlined into the solvers' island versions, which call it once per iteration
    #[inline]
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
    #[inline]
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

/// The [`Jacobian`] over the `efc_J*` and `efc_JT*` fields of arena arrays `$a`, shared or
/// mutable. A macro rather than a function: it names the fields one by one, so the caller keeps
/// borrowing the other arrays of `$a` (`efc_vel`, the dual matrix) beside it.
macro_rules! efc_jacobian {
    ($a:expr, $nefc:expr, $nv:expr, $sparse:expr) => {
        $crate::constraint::Jacobian {
            nv: $nv,
            nefc: $nefc,
            sparse: $sparse,
            J: $a.efc_J,
            rownnz: $a.efc_J_rownnz,
            rowadr: $a.efc_J_rowadr,
            rowsuper: $a.efc_J_rowsuper,
            colind: $a.efc_J_colind,
            JT: $a.efc_JT,
            JT_rownnz: $a.efc_JT_rownnz,
            JT_rowadr: $a.efc_JT_rowadr,
            JT_rowsuper: $a.efc_JT_rowsuper,
            JT_colind: $a.efc_JT_colind,
        }
    };
}
pub(crate) use efc_jacobian;

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

/// The arena arrays of the sparse Jacobian without its transpose: what `J vec` reads.
pub(crate) const JACOBIAN_ROWS: ArenaMask = ArenaMask::of(&[
    ArenaField::efc_J_rownnz,
    ArenaField::efc_J_rowadr,
    ArenaField::efc_J_rowsuper,
    ArenaField::efc_J_colind,
    ArenaField::efc_J,
]);

/// The one arena array of the Jacobian when it is dense and has no transpose (see
/// [`transposed`]): its other arrays are allocated but never written then.
pub(crate) const JACOBIAN_DENSE: ArenaMask = ArenaMask::of(&[ArenaField::efc_J]);

/// Whether the Jacobian comes with its transpose, and so needs every array of [`JACOBIAN`]:
/// when sparse (`efc_JT*` and the supernodes), or dense with islands (the dense `efc_JT`).
/// Otherwise views of the rows cut out [`JACOBIAN_DENSE`] only: each array cut costs a few dozen
/// instructions, and the rows are viewed several times per step.
pub(crate) fn transposed(m: &Model) -> bool {
    is_sparse(m) || enabled(m, ENBL_ISLAND)
}

/// `res = J vec` with the constraint Jacobian of `d` (`mj_mulJacVec`); `res` has `nefc`
/// entries. Nothing without rows.
pub fn mul_jac_vec(m: &Model, d: &Data, res: &mut [Real], vec: &[Real]) {
    let a = d.arena.arrays_only(JACOBIAN);
    efc_jacobian!(a, d.nefc, m.nv, is_sparse(m)).mul_vec(res, vec);
}

/// `res = J' vec` with the constraint Jacobian of `d` (`mj_mulJacTVec`); `res` has `nv`
/// entries. Nothing without rows.
pub fn mul_jac_t_vec(m: &Model, d: &Data, res: &mut [Real], vec: &[Real]) {
    let a = d.arena.arrays_only(JACOBIAN);
    efc_jacobian!(a, d.nefc, m.nv, is_sparse(m)).mul_t_vec(res, vec);
}

/// The transpose of the sparse Jacobian (`efc_JT*`) and the supernodes of both (rows with the
/// same pattern as the next ones), as MuJoCo's AVX build computes them.
pub(super) fn transpose_rows(m: &Model, nefc: usize, a: &mut ArenaArraysMut) {
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
