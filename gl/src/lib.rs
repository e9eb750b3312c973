//! `mjrs-gl`: visualization for mjrs.
//!
//! [`vis`] is MuJoCo's abstract visualization (`mjv_*`): options, cameras, perturbation and the
//! scene, a list of plain geoms and lights computed from a `Model` and `Data` without any
//! graphics API, comparable field by field with `mjref scene`. The OpenGL renderer (`mjr_*`)
//! and the interactive viewer are not there yet.
mod rect;
pub mod render;
mod sys;
pub mod vis;

pub use sys::egl::Headless;
pub use sys::window::WindowGl;
pub use sys::Gl;
pub mod viewer;
