//! The errors of the pipeline: [`StepError`], why a step or forward pass could not run, and
//! [`RayError`], why a ray query could not be answered, with the conversion of the second into
//! the first (a sensor's ray is part of a step). They sit below every stage so that each stage
//! can return them without importing the driver.

use crate::arena::ArenaError;

/// Why a step or forward pass could not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum StepError {
    /// The arena ran out (raise `<size memory>` / `narena`).
    Arena(ArenaError),
    /// The model needs a feature mjrs does not have yet; the text names it.
    Unsupported(&'static str),
    /// The data was made for a model of other sizes.
    ModelMismatch,
    /// A numerical failure MuJoCo treats as fatal (`mjERROR`); the text says which.
    Numerical(&'static str),
    /// A request MuJoCo itself refuses as fatal (`mjERROR`), such as discrete-time inverse
    /// dynamics with RK4; the text is MuJoCo's.
    Rejected(&'static str),
    /// A model option mjrs refuses because it could never be met or would run for hours
    /// (see `forward::check_options`); the text names the option and its valid range.
    InvalidOption(&'static str),
}

impl From<ArenaError> for StepError {
    fn from(e: ArenaError) -> Self {
        StepError::Arena(e)
    }
}

impl From<RayError> for StepError {
    fn from(e: RayError) -> Self {
        match e {
            RayError::Arena(e) => StepError::Arena(e),
            RayError::Sdf => StepError::Rejected("invalid plugin slot"),
            RayError::ShortVector => {
                StepError::Numerical("ray direction vector length is too small")
            }
            RayError::TreeTooDeep { .. } => StepError::Numerical("BVH stack depth exceeded"),
            RayError::GeomOutOfRange { .. }
            | RayError::WrongGeomType { .. }
            | RayError::UnsupportedGeomType(_)
            | RayError::LengthMismatch
            | RayError::FaceOutOfRange { .. }
            | RayError::FlexOutOfRange { .. } => {
                StepError::Numerical("ray query on an invalid geom")
            }
        }
    }
}

impl core::error::Error for StepError {}

impl core::fmt::Display for StepError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StepError::Arena(e) => write!(f, "{e}"),
            StepError::Unsupported(what) => write!(f, "not supported by mjrs yet: {what}"),
            StepError::ModelMismatch => f.write_str("data was made for a model of different sizes"),
            StepError::Numerical(what) => write!(f, "numerical failure: {what}"),
            StepError::Rejected(what) => f.write_str(what),
            StepError::InvalidOption(what) => write!(f, "invalid option: {what}"),
        }
    }
}

/// Why a ray query could not be answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RayError {
    /// The direction is shorter than `MINVAL` (MuJoCo: "vector length is too small").
    ShortVector,
    /// A geom id outside `0..ngeom`.
    GeomOutOfRange {
        /// The id given.
        id: usize,
        /// Number of geoms of the model.
        ngeom: usize,
    },
    /// The geom is not of the type the function handles (MuJoCo: "geom with mesh type
    /// expected", "geom with hfield type expected").
    WrongGeomType {
        /// The geom.
        id: usize,
        /// The type the function needs (`GEOM_MESH` or `GEOM_HFIELD`).
        expected: i32,
    },
    /// A shape type without a primitive ray test (`mju_rayGeom`: "unexpected geom type").
    UnsupportedGeomType(i32),
    /// An SDF geom whose plugin instance is not a registered SDF plugin, or whose attributes
    /// are not numbers (MuJoCo: 'invalid plugin slot', a fatal error).
    Sdf,
    /// A mesh's bounding-volume tree needs a deeper traversal stack than `MAXTREEDEPTH`
    /// (MuJoCo: "BVH stack depth exceeded").
    TreeTooDeep {
        /// The mesh geom.
        geom: usize,
    },
    /// `multi_ray`: the directions, distances and geom ids do not describe the same number of
    /// rays (`vec` holds 3 numbers per ray).
    LengthMismatch,
    /// `multi_ray` found no room in the arena for its scratch arrays.
    Arena(ArenaError),
    /// `ray_skin`: a face names a vertex that does not exist (MuJoCo would read past the
    /// vertex array).
    FaceOutOfRange {
        /// The face.
        face: usize,
        /// The vertex index it holds.
        vertex: i32,
        /// Number of vertices given.
        nvert: usize,
    },
    /// `ray_flex`: a flex id outside `0..nflex`.
    FlexOutOfRange {
        /// The id given.
        id: usize,
        /// Number of flexes of the model.
        nflex: usize,
    },
}

impl From<ArenaError> for RayError {
    fn from(e: ArenaError) -> Self {
        RayError::Arena(e)
    }
}

impl core::error::Error for RayError {}

impl core::fmt::Display for RayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            RayError::ShortVector => f.write_str("ray direction vector length is too small"),
            RayError::GeomOutOfRange { id, ngeom } => {
                write!(f, "geom id {id} out of range (ngeom = {ngeom})")
            }
            RayError::WrongGeomType { id, expected } => {
                write!(
                    f,
                    "geom {id} does not have the type {expected} the ray test needs"
                )
            }
            RayError::UnsupportedGeomType(t) => write!(f, "no ray test for geom type {t}"),
            RayError::Sdf => {
                f.write_str("SDF geom without a registered SDF plugin (invalid plugin slot)")
            }
            RayError::TreeTooDeep { geom } => {
                write!(
                    f,
                    "bounding-volume tree of mesh geom {geom} exceeds the stack depth"
                )
            }
            RayError::LengthMismatch => {
                f.write_str("multi_ray: vec, dist and geomid hold different numbers of rays")
            }
            RayError::Arena(e) => write!(f, "{e}"),
            RayError::FaceOutOfRange {
                face,
                vertex,
                nvert,
            } => write!(
                f,
                "ray_skin: face {face} names vertex {vertex}, but there are {nvert} vertices"
            ),
            RayError::FlexOutOfRange { id, nflex } => {
                write!(f, "flex id {id} out of range (nflex = {nflex})")
            }
        }
    }
}
