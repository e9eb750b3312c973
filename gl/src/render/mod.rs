//! MuJoCo's renderer (`mjr_*`) on OpenGL 3.3 core: a [`Context`] holds a model's shapes,
//! textures, shadow map and offscreen framebuffer on the GPU; [`render`] draws an abstract
//! [`Scene`](crate::vis::Scene) with MuJoCo's look (lights, shadows, reflections, fog, haze,
//! skybox, transparency, wireframe, segmentation); [`read_pixels`] reads the result.
//!
//! OpenGL needs a current context: [`Headless`](crate::Headless) makes one without any
//! display (EGL); the viewer makes one for its window.

// Floors, bottom up: the plain types of this file; `matrix`, `shapes`, `shader`; `context`;
// `flat` (2D state and quads); `text`; `pixels`, `overlay`, `figure` and `draw`.
mod context;
mod draw;
pub mod figure;
pub(crate) mod flat;
pub mod matrix;
pub mod overlay;
mod pixels;
mod shader;
pub mod shapes;
pub mod text;

pub use context::{Builtin, Context, Framebuffer, NAUX};
pub use draw::render;
pub use figure::figure;
pub use overlay::{find_rect, label, max_viewport, overlay, rectangle, text, GridPos};
pub use pixels::{draw_pixels, read_pixels, write_png};
pub use text::{Font, FontMetrics, FONT_SCALES};

pub use crate::rect::Rect;
use crate::sys::Gl;

/// What went wrong while rendering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// The OpenGL implementation failed or lacks something (message from it).
    Gl(String),
    /// The model's resources cannot be uploaded (a texture shorter than its size says...).
    Model(String),
    /// The scene cannot be drawn (a camera whose near plane is at zero...).
    Scene(String),
    /// A rectangle or buffer does not fit.
    Size(String),
}

impl core::fmt::Display for RenderError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RenderError::Gl(m) => write!(f, "OpenGL: {m}"),
            RenderError::Model(m) => write!(f, "model resources: {m}"),
            RenderError::Scene(m) => write!(f, "scene: {m}"),
            RenderError::Size(m) => write!(f, "size: {m}"),
        }
    }
}

impl std::error::Error for RenderError {}

/// How [`read_pixels`] reports depth (`mjtDepthMap`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DepthMap {
    /// 0 at the near plane, 1 at the far plane (MuJoCo's default).
    #[default]
    ZeroNear,
    /// 1 at the near plane, 0 at the far plane (the reverse-Z buffer as stored).
    ZeroFar,
}

/// The oldest OpenGL error not yet reported, 0 when none (`mjr_getError`).
pub fn get_error(gl: &Gl) -> u32 {
    gl.error()
}

/// Wait until OpenGL has finished every command (`mjr_finish`).
pub fn finish(gl: &Gl) {
    gl.finish();
}
