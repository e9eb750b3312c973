//! MuJoCo's utility math (`mju_*`): vectors, matrices, quaternions, poses, decompositions and
//! solvers, spatial algebra and miscellaneous helpers.
