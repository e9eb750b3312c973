//! The error of the scene and interaction functions, and the check they all start with. It
//! sits on the ground floor of `vis` so that every module can return it without importing the
//! driver ([`update_scene`](super::update_scene)) that calls them.

use mjrs_core::{Data, Model};

/// What [`update_scene`](super::update_scene) and the interaction functions refuse; the text
/// names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneError {
    /// A category the options ask for, or the model needs, that mjrs does not draw yet.
    Unsupported(&'static str),
    /// A camera id or tracked body id outside the model (MuJoCo's fatal error).
    BadCamera(&'static str),
    /// A connector of a type that is not a capsule, cylinder, arrow or line.
    BadConnector(i32),
    /// A mouse action the function does not take.
    BadAction(i32),
    /// The data was made for a model of other sizes.
    ModelMismatch,
    /// The heap cannot hold a scene state's copy of the model and data.
    NoMemory,
}

impl core::fmt::Display for SceneError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SceneError::Unsupported(what) => write!(f, "the scene cannot show {what} yet"),
            SceneError::BadCamera(what) => write!(f, "{what}"),
            SceneError::BadConnector(t) => write!(f, "invalid geom type {t} for connector"),
            SceneError::BadAction(a) => write!(f, "unexpected mouse action {a}"),
            SceneError::ModelMismatch => {
                f.write_str("data was made for a model of different sizes")
            }
            SceneError::NoMemory => f.write_str("cannot allocate the scene state"),
        }
    }
}

impl std::error::Error for SceneError {}

/// The data must belong to the model: every index the scene reads comes from the model.
pub(super) fn check_match(m: &Model, d: &Data) -> Result<(), SceneError> {
    if d.sizes() == m.sizes() {
        Ok(())
    } else {
        Err(SceneError::ModelMismatch)
    }
}
