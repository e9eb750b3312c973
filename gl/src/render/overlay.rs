//! 2D drawing over a rendered scene (`mjr_text`, `mjr_overlay`, `mjr_label`, `mjr_rectangle`):
//! text in the bundled fonts, translucent boxes of text at the corners and edges of a viewport,
//! labelled rectangles (buttons and panels of the viewer).

use super::matrix::{self, IDENTITY};
use super::shader::TexMode;
use super::shapes::{Shape, Vertex};
use super::text::{self, Font};
use super::{Context, Rect};
use crate::sys::Gl;

/// Where an overlay goes in its viewport (`mjtGridPos`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridPos {
    /// Top left corner.
    TopLeft,
    /// Top right corner.
    TopRight,
    /// Bottom left corner.
    BottomLeft,
    /// Bottom right corner.
    BottomRight,
    /// Top edge, centred.
    Top,
    /// Bottom edge, centred.
    Bottom,
    /// Left edge, centred.
    Left,
    /// Right edge, centred.
    Right,
}

/// Padding around overlay text, in pixels.
const PAD: i32 = 5;
/// Longest overlay text drawn, in bytes (`mjMAXOVERLAY`).
pub const MAXOVERLAY: usize = 500;

/// OpenGL state for 2D drawing in `viewport`, with a projection of `w x h` units over it.
pub(crate) fn begin_2d(gl: &Gl, con: &Context, viewport: Rect, w: f32, h: f32) {
    let p = &con.program;
    gl.use_program(p.id);
    gl.set(gl::DEPTH_TEST, false);
    gl.set(gl::CULL_FACE, false);
    gl.set(gl::CLIP_DISTANCE0, false);
    gl.set(gl::BLEND, false);
    gl.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    gl.polygon_mode(gl::FILL);
    gl.uniform_i(p.wireframe, 0);
    gl.viewport(
        viewport.left,
        viewport.bottom,
        viewport.width,
        viewport.height,
    );
    let proj = matrix::ortho(0.0, f64::from(w), 0.0, f64::from(h), -1.0, 1.0);
    gl.uniform_mat4(p.proj, &proj);
    gl.uniform_mat4(p.view, &IDENTITY);
    gl.uniform_mat4(p.model, &IDENTITY);
    gl.uniform_i(p.lighting, 0);
    gl.uniform_i(p.fog, 0);
    gl.uniform_i(p.shadow, 0);
    gl.uniform_i(p.alphatest, 0);
    gl.uniform_i(p.vertexcolor, 0);
    gl.uniform_i(p.texmode, TexMode::None as i32);
    gl.uniform_vec(p.clip, 4, &[0.0; 4]);
}

/// The unit square [0, 1]^2 with matching texture coordinates, as two triangles.
pub(crate) fn unit_quad() -> Shape {
    let v = |x: f32, y: f32| Vertex {
        pos: [x, y, 0.0],
        normal: [0.0, 0.0, 1.0],
        tex: [x, y],
        color: [1.0; 4],
        edge: 1.0,
    };
    Shape {
        verts: vec![
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(1.0, 1.0),
            v(0.0, 0.0),
            v(1.0, 1.0),
            v(0.0, 1.0),
        ],
    }
}

/// A filled, blended quad from (x0, y0) to (x1, y1) in the current 2D projection.
pub(crate) fn quad(gl: &Gl, con: &Context, x0: f32, y0: f32, x1: f32, y1: f32, rgba: [f32; 4]) {
    let v = |x: f32, y: f32| Vertex {
        pos: [x, y, 0.0],
        normal: [0.0, 0.0, 1.0],
        tex: [0.0; 2],
        color: [1.0; 4],
        edge: 1.0,
    };
    let shape = Shape {
        verts: vec![
            v(x0, y0),
            v(x1, y0),
            v(x1, y1),
            v(x0, y0),
            v(x1, y1),
            v(x0, y1),
        ],
    };
    gl.uniform_vec(con.program.color, 4, &rgba);
    gl.set(gl::BLEND, true);
    let b = con.stream(gl, &shape);
    gl.draw_arrays(b.vao, gl::TRIANGLES, 0, b.count);
    gl.set(gl::BLEND, false);
}

/// Text at relative position (x, y) in [0, 1] of the current viewport (`mjr_text`).
pub fn text(gl: &Gl, con: &Context, font: Font, txt: &str, x: f32, y: f32, rgb: [f32; 3]) {
    let [left, bottom, w, h] = gl.integer4(gl::VIEWPORT);
    let vp = Rect {
        left,
        bottom,
        width: w,
        height: h,
    };
    begin_2d(gl, con, vp, w as f32, h as f32);
    text::draw(gl, con, font, txt, x * w as f32, y * h as f32, rgb);
}

/// Text at pixel offset `x` from the left of `viewport`, vertically centred in it.
pub fn text_at(
    gl: &Gl,
    con: &Context,
    viewport: Rect,
    font: Font,
    txt: &str,
    x: i32,
    rgb: [f32; 3],
) {
    if viewport.width <= 0 || viewport.height <= 0 {
        return;
    }
    begin_2d(
        gl,
        con,
        viewport,
        viewport.width as f32,
        viewport.height as f32,
    );
    let y = (viewport.height - con.font.height(font)) / 2;
    text::draw(gl, con, font, txt, x as f32, y as f32, rgb);
}

/// A rectangle blended over `viewport` (`mjr_rectangle`).
pub fn rectangle(gl: &Gl, con: &Context, viewport: Rect, rgba: [f32; 4]) {
    if viewport.width <= 0 || viewport.height <= 0 {
        return;
    }
    begin_2d(gl, con, viewport, 1.0, 1.0);
    quad(gl, con, 0.0, 0.0, 1.0, 1.0, rgba);
}

/// A rectangle with `txt` centred in it (`mjr_label`).
pub fn label(
    gl: &Gl,
    con: &Context,
    viewport: Rect,
    font: Font,
    txt: &str,
    rgba: [f32; 4],
    rgb: [f32; 3],
) {
    if viewport.width <= 0 || viewport.height <= 0 {
        return;
    }
    let (w, h) = (viewport.width, viewport.height);
    begin_2d(gl, con, viewport, w as f32, h as f32);
    quad(gl, con, 0.0, 0.0, w as f32, h as f32, rgba);
    let font = if font == Font::Big {
        Font::Big
    } else {
        Font::Normal
    };
    let cx = ((w - con.font.width(font, txt)) / 2).max(0);
    let cy = (h - con.font.height(font)) / 2;
    text::draw(gl, con, font, txt, cx as f32, cy as f32, rgb);
}

/// One column of an overlay: a translucent box with the lines of `txt`; returns the width to
/// skip for the next column.
fn column(
    gl: &Gl,
    con: &Context,
    font: Font,
    viewport: Rect,
    skip: i32,
    pos: GridPos,
    rgb: [f32; 3],
    txt: &str,
) -> i32 {
    let line_h = con.font.height(font);
    let lines: Vec<&str> = txt.split('\n').collect();
    let widest = lines
        .iter()
        .map(|l| con.font.width(font, l))
        .max()
        .unwrap_or(0);
    let w = PAD + widest + 8;
    let h = PAD + line_h + (lines.len() as i32 - 1) * (PAD + line_h);
    let (vl, vb, vw, vh) = (
        viewport.left,
        viewport.bottom,
        viewport.width,
        viewport.height,
    );
    let (left, bottom) = match pos {
        GridPos::TopLeft => (vl + skip + PAD, vb + vh - 1 - PAD - h),
        GridPos::TopRight => (vl + vw - skip - 1 - PAD - w, vb + vh - 1 - PAD - h),
        GridPos::BottomLeft => (vl + skip + PAD, vb + PAD),
        GridPos::BottomRight => (vl + vw - skip - 1 - PAD - w, vb + PAD),
        GridPos::Top => (vl + (vw - skip - w) / 2 - 1 - PAD, vb + vh - 1 - PAD - h),
        GridPos::Bottom => (vl + (vw - skip - w) / 2 - 1 - PAD, vb + PAD),
        GridPos::Left => (vl + skip + PAD, vb + (vh - h) / 2 - 1 - PAD),
        GridPos::Right => (vl + vw - skip - 1 - PAD - w, vb + (vh - h) / 2 - 1 - PAD),
    };
    let rect = Rect {
        left,
        bottom,
        width: w,
        height: h,
    };
    begin_2d(gl, con, rect, (w - 1) as f32, (h - 1) as f32);
    quad(gl, con, 0.0, 0.0, w as f32, h as f32, [0.0, 0.0, 0.0, 0.5]);
    for (k, line) in lines.iter().enumerate() {
        let y = h - line_h - k as i32 * (PAD + line_h);
        text::draw(gl, con, font, line, 3.0, y as f32, rgb);
    }
    w - 2
}

/// Text in a translucent box at a corner or edge of `viewport` (`mjr_overlay`): lines split
/// at `\n`; with a second text, two columns, the first dimmed (names), the second bright
/// (values).
pub fn overlay(
    gl: &Gl,
    con: &Context,
    font: Font,
    pos: GridPos,
    viewport: Rect,
    txt: &str,
    txt2: &str,
) {
    if viewport.width <= 0 || viewport.height <= 0 {
        return;
    }
    let cut = |s: &str| {
        let mut end = s.len().min(MAXOVERLAY);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s[..end].to_string()
    };
    let (t1, t2) = (cut(txt), cut(txt2));
    let (dim, bright) = ([0.7; 3], [1.0; 3]);
    if t2.is_empty() {
        column(gl, con, font, viewport, 0, pos, bright, &t1);
    } else if matches!(pos, GridPos::TopLeft | GridPos::BottomLeft) {
        let skip = column(gl, con, font, viewport, 0, pos, dim, &t1);
        column(gl, con, font, viewport, skip, pos, bright, &t2);
    } else {
        let skip = column(gl, con, font, viewport, 0, pos, bright, &t2);
        column(gl, con, font, viewport, skip, pos, dim, &t1);
    }
}

/// The largest viewport of the current buffer (`mjr_maxViewport`): the offscreen size, or the
/// window's (its scissor box) when drawing to the window.
pub fn max_viewport(gl: &Gl, con: &Context) -> Rect {
    let (w, h) = con.offscreen_size();
    let mut r = Rect::sized(w, h);
    if con.current == super::Framebuffer::Window {
        let b = gl.integer4(gl::SCISSOR_BOX);
        r.width = b[2];
        r.height = b[3];
    }
    r
}

/// The first rectangle containing pixel (x, y) (`mjr_findRect`).
pub fn find_rect(x: i32, y: i32, rects: &[Rect]) -> Option<usize> {
    rects.iter().position(|r| {
        x >= r.left && x < r.left + r.width && y >= r.bottom && y < r.bottom + r.height
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_rect_takes_the_first_containing_rectangle() {
        let rects = [
            Rect::sized(10, 10),
            Rect {
                left: 5,
                bottom: 5,
                width: 10,
                height: 10,
            },
        ];
        assert_eq!(find_rect(7, 7, &rects), Some(0));
        assert_eq!(find_rect(12, 12, &rects), Some(1));
        assert_eq!(find_rect(10, 3, &rects), None);
        assert_eq!(find_rect(-1, 0, &rects), None);
    }
}
