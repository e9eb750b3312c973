//! MuJoCo's renderer (`mjr_*`) on OpenGL 3.3 core: a [`Context`] holds a model's shapes,
//! textures, shadow map and offscreen framebuffer on the GPU; [`render`] draws an abstract
//! [`Scene`](crate::vis::Scene) with MuJoCo's look (lights, shadows, reflections, fog, haze,
//! skybox, transparency, wireframe, segmentation); [`read_pixels`] reads the result.
//!
//! OpenGL needs a current context: [`Headless`](crate::Headless) makes one without any
//! display (EGL); the viewer makes one for its window.

mod context;
mod draw;
pub mod matrix;
mod shader;
pub mod shapes;

pub use context::{Builtin, Context, Framebuffer};
pub use draw::render;

use crate::sys::Gl;

/// A rectangle of the framebuffer in pixels, origin at the bottom left (`mjrRect`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub left: i32,
    /// Bottom edge.
    pub bottom: i32,
    /// Width.
    pub width: i32,
    /// Height.
    pub height: i32,
}

impl Rect {
    /// The rectangle `width x height` at the origin.
    pub fn sized(width: i32, height: i32) -> Rect {
        Rect {
            left: 0,
            bottom: 0,
            width,
            height,
        }
    }
}

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

/// Read the colour (RGB, 3 bytes per pixel) and/or depth (one float per pixel, 1 near, 0 far:
/// reverse-Z) of `rect` from the current buffer, bottom row first (`mjr_readPixels`). A
/// multisampled offscreen buffer is resolved first.
pub fn read_pixels(
    gl: &Gl,
    con: &Context,
    rect: Rect,
    rgb: Option<&mut [u8]>,
    depth: Option<&mut [f32]>,
) -> Result<(), RenderError> {
    let (w, h) = (
        usize::try_from(rect.width).unwrap_or(0),
        usize::try_from(rect.height).unwrap_or(0),
    );
    if w == 0 || h == 0 {
        return Ok(());
    }
    if con.current == Framebuffer::Offscreen && con.off.fbo_r != 0 {
        gl.bind_framebuffer(gl::READ_FRAMEBUFFER, con.off.fbo);
        gl.bind_framebuffer(gl::DRAW_FRAMEBUFFER, con.off.fbo_r);
        let (x, y) = (rect.left, rect.bottom);
        gl.blit(
            x,
            y,
            rect.width,
            rect.height,
            gl::COLOR_BUFFER_BIT,
            gl::NEAREST,
        );
        gl.blit(
            x,
            y,
            rect.width,
            rect.height,
            gl::DEPTH_BUFFER_BIT,
            gl::NEAREST,
        );
        gl.bind_framebuffer(gl::READ_FRAMEBUFFER, con.off.fbo_r);
    }
    let result = (|| {
        if let Some(out) = rgb {
            gl.read_rgb(rect.left, rect.bottom, w, h, out)
                .map_err(RenderError::Size)?;
        }
        if let Some(out) = depth {
            gl.read_depth(rect.left, rect.bottom, w, h, out)
                .map_err(RenderError::Size)?;
        }
        Ok(())
    })();
    con.restore_buffer(gl);
    result
}
