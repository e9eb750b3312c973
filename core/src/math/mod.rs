//! MuJoCo's utility math (`mju_*`): vectors, matrices, quaternions, poses, decompositions and
//! solvers, spatial algebra and miscellaneous helpers.
//!
//! Names are MuJoCo's without the prefix, in snake case (`mju_rotVecQuat` → `quat::rot_vec_quat`,
//! `mjd_subQuat` → `quat::d_sub_quat`). Fixed-size arguments are arrays (`[Real; 3]` vectors,
//! `[Real; 4]` quaternions `[w, x, y, z]`, `[Real; 9]` row-major 3×3 matrices, `[Real; 6]` spatial
//! vectors `[rotation; translation]`) and results are returned by value; variable-size ones are
//! slices with MuJoCo's size arguments. Operations are evaluated in MuJoCo's order (including the
//! lane order of its AVX code), so results round exactly as in the reference build.

pub mod band;
pub mod boxqp;
pub mod chol;
pub mod eig3;
#[cfg(feature = "fast")]
pub mod fast;
#[cfg(feature = "fast")]
pub mod fast_chol;
pub mod mat;
pub mod misc;
pub mod pose;
pub mod qcqp;
pub mod quat;
pub mod scalar;
pub mod sparse;
pub mod spatial;
pub mod vec;
pub mod wrap;
