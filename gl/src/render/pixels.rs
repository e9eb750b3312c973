//! Pixels in and out of the current framebuffer (`mjr_readPixels`, `mjr_drawPixels`), and PNG
//! files of them.

use super::context::{Context, Framebuffer};
use super::flat::unit_quad;
use super::{DepthMap, Rect, RenderError};
use crate::sys::Gl;
use std::path::Path;

/// Read the colour (RGB, 3 bytes per pixel) and/or depth (one float per pixel, mapped by
/// `con.read_depth_map`) of `rect` from the current buffer, bottom row first
/// (`mjr_readPixels`). A multisampled offscreen buffer is resolved first.
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
    if con.current == Framebuffer::Offscreen {
        let read = con.off.resolved(gl, rect);
        gl.bind_framebuffer(gl::READ_FRAMEBUFFER, read);
    }
    let result = (|| {
        if let Some(out) = rgb {
            gl.read_rgb(rect.left, rect.bottom, w, h, out)
                .map_err(RenderError::Size)?;
        }
        if let Some(out) = depth {
            gl.read_depth(rect.left, rect.bottom, w, h, out)
                .map_err(RenderError::Size)?;
            if con.read_depth_map == DepthMap::ZeroNear {
                out[..w * h].iter_mut().for_each(|d| *d = 1.0 - *d);
            }
        }
        Ok(())
    })();
    con.restore_buffer(gl);
    result
}

/// Write colour and/or depth (as [`read_pixels`] returns them, bottom row first) into `rect`
/// of the current buffer (`mjr_drawPixels`); without colour only depth is written, and the
/// other way round.
pub fn draw_pixels(
    gl: &Gl,
    con: &Context,
    rect: Rect,
    rgb: Option<&[u8]>,
    depth: Option<&[f32]>,
) -> Result<(), RenderError> {
    let (w, h) = (
        usize::try_from(rect.width).unwrap_or(0),
        usize::try_from(rect.height).unwrap_or(0),
    );
    if w == 0 || h == 0 || (rgb.is_none() && depth.is_none()) {
        return Ok(());
    }
    let color_tex = gl.new_texture(gl::TEXTURE_2D, 0);
    let depth_tex = gl.new_texture(gl::TEXTURE_2D, 1);
    let result = (|| {
        let black = vec![0u8; 3 * w * h];
        gl.bind_texture(0, gl::TEXTURE_2D, color_tex);
        gl.tex_image_u8(gl::TEXTURE_2D, w, h, 3, rgb.unwrap_or(&black))
            .map_err(RenderError::Size)?;
        nearest(gl);
        gl.bind_texture(1, gl::TEXTURE_2D, depth_tex);
        if let Some(depth) = depth {
            let stored: Vec<f32> = depth
                .iter()
                .take(w * h)
                .map(|&d| {
                    if con.read_depth_map == DepthMap::ZeroNear {
                        1.0 - d
                    } else {
                        d
                    }
                })
                .collect();
            gl.tex_image_f32(w, h, &stored).map_err(RenderError::Size)?;
            nearest(gl);
        }
        let p = &con.pixels;
        gl.use_program(p.id);
        gl.uniform_i(p.hasdepth, i32::from(depth.is_some()));
        gl.viewport(rect.left, rect.bottom, rect.width, rect.height);
        gl.set(gl::BLEND, false);
        gl.set(gl::CULL_FACE, false);
        gl.set(gl::DEPTH_TEST, depth.is_some());
        gl.depth(gl::ALWAYS, depth.is_some());
        gl.color_mask(rgb.is_some());
        gl.polygon_mode(gl::FILL);
        let quad = unit_quad();
        let b = con.stream(gl, &quad);
        gl.draw_arrays(b.vao, gl::TRIANGLES, 0, b.count);
        gl.color_mask(true);
        gl.depth(gl::GEQUAL, true);
        gl.use_program(con.program.id);
        Ok(())
    })();
    gl.delete_textures(&[color_tex, depth_tex]);
    result
}

fn nearest(gl: &Gl) {
    gl.tex_parameter(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST);
    gl.tex_parameter(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST);
}

/// Write an 8-bit RGB PNG atomically: the encoded image goes to a temporary file beside the
/// target, renamed over it when complete, so a failure never leaves a partial or clobbered
/// image.
pub fn write_png(path: &Path, width: u32, height: u32, rgb: &[u8]) -> Result<(), String> {
    let err = |e: &dyn core::fmt::Display| format!("cannot write {}: {e}", path.display());
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, width, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| err(&e))?;
        writer.write_image_data(rgb).map_err(|e| err(&e))?;
        writer.finish().map_err(|e| err(&e))?;
    }
    mjrs_std::write_file(path, &bytes).map_err(|e| err(&e))
}
