//! `mjrs-xml`: the MJCF (and URDF) parser on `roxmltree`, the model compiler that turns the
//! parsed [`spec::Spec`] into a `Model`, the mesh/texture/height-field decoders, and the XML
//! writer.
//!
//! The pipeline is MuJoCo 3.1.6's (`mj_loadXML`): the reader checks the document against the
//! MJCF schema and fills a [`spec::Spec`] (defaults applied element by element), the compiler
//! resolves names, frames, inertias and assets and fills every `mjModel` field, then runs the
//! engine-side constant computations (`set_const`, length ranges).

pub mod asset;
pub mod bvh;
pub mod cxx;
pub mod error;
pub mod hfield;
pub mod mesh;
pub mod reader;
pub mod spec;
pub mod texture;
pub mod util;

pub use error::XmlError;
