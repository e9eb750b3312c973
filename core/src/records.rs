//! The plain structs of MuJoCo's `mjData` (`mjContact`, `mjWarningStat`, `mjTimerStat`,
//! `mjSolverStat`). They hold numbers only, so the arena, the layout table and the `Pod` views
//! can name them without depending on [`Data`](crate::Data).

use crate::real::Real;

/// One contact (`mjContact`), as produced by collision detection.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Distance between nearest points; negative: penetration.
    pub dist: Real,
    /// Position of contact point: midpoint between geoms.
    pub pos: [Real; 3],
    /// Contact frame; the normal is in `[0..3]` and points from geom 1 to geom 2.
    pub frame: [Real; 9],
    /// Include the contact if `dist < includemargin = margin - gap`.
    pub includemargin: Real,
    /// Friction: tangent1, tangent2, spin, roll1, roll2.
    pub friction: [Real; 5],
    /// Solver reference, normal direction.
    pub solref: [Real; 2],
    /// Solver reference, friction directions.
    pub solreffriction: [Real; 2],
    /// Solver impedance.
    pub solimp: [Real; 5],
    /// Friction of regularized cone.
    pub mu: Real,
    /// Cone Hessian.
    pub H: [Real; 36],
    /// Contact space dimensionality: 1, 3, 4 or 6.
    pub dim: i32,
    /// Id of geom 1 (deprecated in MuJoCo, use `geom[0]`).
    pub geom1: i32,
    /// Id of geom 2 (deprecated in MuJoCo, use `geom[1]`).
    pub geom2: i32,
    /// Geom ids; -1 for flex.
    pub geom: [i32; 2],
    /// Flex ids; -1 for geom.
    pub flex: [i32; 2],
    /// Element ids; -1 for geom or flex vertex.
    pub elem: [i32; 2],
    /// Vertex ids; -1 for geom or flex element.
    pub vert: [i32; 2],
    /// 0: include, 1: in gap, 2: fused, 3: no dofs.
    pub exclude: i32,
    /// Address in the constraint rows; -1: not included.
    pub efc_address: i32,
    /// Explicit padding, so that the struct has none (see the `pod` module).
    pub _pad: i32,
}

impl Default for Contact {
    fn default() -> Self {
        Self {
            dist: 0.0,
            pos: [0.0; 3],
            frame: [0.0; 9],
            includemargin: 0.0,
            friction: [0.0; 5],
            solref: [0.0; 2],
            solreffriction: [0.0; 2],
            solimp: [0.0; 5],
            mu: 0.0,
            H: [0.0; 36],
            dim: 0,
            geom1: 0,
            geom2: 0,
            geom: [0; 2],
            flex: [0; 2],
            elem: [0; 2],
            vert: [0; 2],
            exclude: 0,
            efc_address: 0,
            _pad: 0,
        }
    }
}

/// Warning statistics (`mjWarningStat`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarningStat {
    /// Info from the last warning.
    pub lastinfo: i32,
    /// How many times the warning was raised.
    pub number: i32,
}

/// Timer statistics (`mjTimerStat`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimerStat {
    /// Cumulative duration.
    pub duration: Real,
    /// How many times the timer was called.
    pub number: i32,
}

/// Per-iteration solver statistics (`mjSolverStat`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolverStat {
    /// Cost reduction, scaled by 1/trace(M(qpos0)).
    pub improvement: Real,
    /// Gradient norm (primal only, scaled).
    pub gradient: Real,
    /// Slope in linesearch.
    pub lineslope: Real,
    /// Number of active constraints.
    pub nactive: i32,
    /// Number of constraint state changes.
    pub nchange: i32,
    /// Number of cost evaluations in line search.
    pub neval: i32,
    /// Number of Cholesky updates in line search.
    pub nupdate: i32,
}
