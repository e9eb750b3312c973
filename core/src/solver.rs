//! Constraint solvers (MuJoCo's `engine_solver.c`): PGS, CG and Newton, and noslip.
//!
//! Not implemented yet: a step with constraint rows is refused with a clear error.

use crate::data::Data;
use crate::forward::StepError;
use crate::model::Model;

/// Solves for the constraint forces and the constrained acceleration (the solver part of
/// `mj_fwdConstraint`: `efc_b`, warmstart, the solver of `opt.solver`, noslip).
pub fn fwd_constraint_solve(_m: &Model, _d: &mut Data) -> Result<(), StepError> {
    Err(StepError::Unsupported("constraint solver"))
}
