//! Convex collisions (MuJoCo's `engine_collision_convex.c` with libccd's MPR): pairs of convex
//! geoms including meshes, planes against meshes, height fields.
//!
//! Not implemented yet: every function refuses with a clear error.

use crate::data::{Contact, Data};
use crate::forward::StepError;
use crate::model::Model;
use crate::real::Real;

/// General convex-convex collision (`mjc_Convex`).
pub fn convex(
    _m: &Model,
    _d: &Data,
    _con: &mut [Contact],
    _g1: usize,
    _g2: usize,
    _margin: Real,
) -> Result<usize, StepError> {
    Err(StepError::Unsupported("convex collisions (MPR)"))
}

/// Plane against a convex geom given by its vertices (`mjc_PlaneConvex`).
pub fn plane_convex(
    _m: &Model,
    _d: &Data,
    _con: &mut [Contact],
    _g1: usize,
    _g2: usize,
    _margin: Real,
) -> Result<usize, StepError> {
    Err(StepError::Unsupported("plane-mesh collisions"))
}

/// Height field against a convex geom (`mjc_ConvexHField`).
pub fn convex_hfield(
    _m: &Model,
    _d: &Data,
    _con: &mut [Contact],
    _g1: usize,
    _g2: usize,
    _margin: Real,
) -> Result<usize, StepError> {
    Err(StepError::Unsupported("height-field collisions"))
}
