//! 2D drawing over a rendered scene (`mjr_text`, `mjr_overlay`, `mjr_label`, `mjr_rectangle`):
//! text in the bundled fonts, translucent boxes of text at the corners and edges of a viewport,
//! labelled rectangles (buttons and panels of the viewer).

use super::flat::{begin_2d, quad};
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
