//! The state of a CG or Newton solve (MuJoCo's `mjCGContext`), shared by the solvers in
//! `cg_newton` and the Newton Hessian in `hessian`: the vectors of the line search and the
//! Hessian's factor.

use super::Subset;
use crate::real::Real;

/// The state of a CG or Newton solve (`mjCGContext`). On one island, the vectors are
/// compressed to its dofs and rows (see [`Subset`]).
pub(super) struct Context<'s, 'i> {
    /// The dofs and rows solved for.
    pub sub: Subset<'i>,
    /// `J qacc - aref` (nefc).
    pub jaref: &'s mut [Real],
    /// `J search` (nefc).
    pub jv: &'s mut [Real],
    /// `M qacc` (nv).
    pub ma: &'s mut [Real],
    /// `M search` (nv).
    pub mv: &'s mut [Real],
    /// Gradient of the cost (nv).
    pub grad: &'s mut [Real],
    /// Preconditioned gradient, `M⁻¹ grad` or `H⁻¹ grad` (nv).
    pub mgrad: &'s mut [Real],
    /// Search direction (nv).
    pub search: &'s mut [Real],
    /// Per row, the cost along the search line as a quadratic polynomial in the step; an
    /// elliptic cone keeps 9 numbers in its rows' slots (3 per row).
    pub quad: &'s mut [Real],
    /// The Hessian and its factor (Newton only).
    pub hessian: Option<Hessian<'s>>,
    /// Constraint cost plus Gauss cost.
    pub cost: Real,
    /// The Gauss cost along the search line as a quadratic polynomial.
    pub quad_gauss: [Real; 3],
    /// Scale of improvement and gradient statistics.
    pub scale: Real,
    /// Rows not satisfied.
    pub nactive: i32,
    /// Rows in the cone state.
    pub ncone: i32,
    /// Cholesky updates in the last Hessian update.
    pub nupdate: i32,
    /// Cost evaluations in the last line search.
    pub ls_iter: i32,
    /// Slope at the line search's result, scaled (1: not computed).
    pub ls_slope: Real,
    /// f32 only: `|qfrc_smooth|` over the dofs solved for (fixed for the solve), part of
    /// `forces`.
    pub smooth_norm: Real,
    /// f32 only: `|M qacc| + |qfrc_smooth|` at the current point, the size of the forces whose
    /// difference the gradient is (`cg_newton::gradient_terms`), from the last gradient update.
    pub forces: Real,
    /// Whether rows may be elliptic cones (cone type elliptic); with pyramidal cones every
    /// contact row is a plain inequality.
    pub elliptic: bool,
}

/// The Hessian's factor: dense `nv x nv`, or sparse in compressed rows `rownnz`, `rowadr`,
/// `colind` (room for `nv x nv`).
pub(super) struct Hessian<'s> {
    /// Non-zeros of the factor (`nv * nv` when dense).
    pub nnz: usize,
    /// Factor of `M + J' D J` over the quadratic rows.
    pub h: &'s mut [Real],
    /// Factor with the cone Hessians added (used while any row is in the cone state).
    pub hcone: &'s mut [Real],
    /// Sparse rows: non-zeros.
    pub rownnz: &'s mut [i32],
    /// Sparse rows: addresses.
    pub rowadr: &'s mut [i32],
    /// Sparse rows: column indices.
    pub colind: &'s mut [i32],
    /// Fast build: the order of a sparse factor's rows (`None` when dense or without room).
    #[cfg(feature = "fast")]
    pub order: Option<super::order::Order<'s>>,
}
