//! Flexes (`mjsFlex`): deformable objects made of simplex elements whose vertices move with
//! bodies. Written in `<deformable>` or made by `<flexcomp>` in a body.

use mjrs_core::types::{NIMP, NREF};

use super::{Info, SOLIMP_DEFAULT, SOLREF_DEFAULT};

/// `mjFLEXSELF_AUTO`.
pub const FLEXSELF_AUTO: i32 = 4;

/// A flex (`mjsFlex`).
#[derive(Clone, Debug, PartialEq)]
pub struct Flex {
    /// Name.
    pub name: String,
    /// Material name.
    pub material: String,
    /// Contact type.
    pub contype: i32,
    /// Contact affinity.
    pub conaffinity: i32,
    /// Contact dimensionality.
    pub condim: i32,
    /// Contact priority.
    pub priority: i32,
    /// Sliding, torsional and rolling friction.
    pub friction: [f64; 3],
    /// Solver mixing with the other geom or flex.
    pub solmix: f64,
    /// Contact solver reference.
    pub solref: [f64; NREF],
    /// Contact solver impedance.
    pub solimp: [f64; NIMP],
    /// Contact margin.
    pub margin: f64,
    /// Contact gap.
    pub gap: f64,
    /// Element dimension: 1 (lines), 2 (triangles) or 3 (tetrahedra).
    pub dim: i32,
    /// Radius around the elements.
    pub radius: f64,
    /// Internal collisions.
    pub internal: bool,
    /// Flat shading of the skin.
    pub flatskin: bool,
    /// Self-collision mode (`mjFLEXSELF_*`).
    pub selfcollide: i32,
    /// Element layers taking part in collisions (3D).
    pub activelayers: i32,
    /// Visualisation group.
    pub group: i32,
    /// Edge spring stiffness.
    pub edgestiffness: f64,
    /// Edge damping.
    pub edgedamping: f64,
    /// Color.
    pub rgba: [f32; 4],
    /// Body of each vertex (one body: all vertices in it).
    pub vertbody: Vec<String>,
    /// Vertex positions in their bodies' frames (3 per vertex; empty: at the bodies' origins).
    pub vert: Vec<f64>,
    /// Element vertex ids (`dim + 1` per element).
    pub elem: Vec<i32>,
    /// Texture coordinates (2 per vertex).
    pub texcoord: Vec<f32>,
    /// Source line.
    pub info: Info,
}

impl Default for Flex {
    /// `mjs_defaultFlex`.
    fn default() -> Self {
        Self {
            name: String::new(),
            material: String::new(),
            contype: 1,
            conaffinity: 1,
            condim: 3,
            priority: 0,
            friction: [1.0, 0.005, 0.0001],
            solmix: 1.0,
            solref: SOLREF_DEFAULT,
            solimp: SOLIMP_DEFAULT,
            margin: 0.0,
            gap: 0.0,
            dim: 2,
            radius: 0.005,
            internal: true,
            flatskin: false,
            selfcollide: FLEXSELF_AUTO,
            activelayers: 1,
            group: 0,
            edgestiffness: 0.0,
            edgedamping: 0.0,
            rgba: [0.5, 0.5, 0.5, 1.0],
            vertbody: Vec::new(),
            vert: Vec::new(),
            elem: Vec::new(),
            texcoord: Vec::new(),
            info: Info::default(),
        }
    }
}
