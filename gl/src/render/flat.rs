//! OpenGL state for 2D drawing over a viewport, and the quads drawn in it: the floor under
//! text, overlays, figures and pixel copies, so none of them imports another for it.

use super::matrix::{self, IDENTITY};
use super::shader::TexMode;
use super::shapes::{Shape, Vertex};
use super::{Context, Rect};
use crate::sys::Gl;

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

/// Opaque triangles in the current 2D projection, three (x, y, rgb) corners each, colours
/// interpolated between corners (the UI's gradients and flat shapes).
pub(crate) fn triangles(gl: &Gl, con: &Context, corners: &[([f32; 2], [f32; 3])]) {
    if corners.len() < 3 {
        return;
    }
    let verts = corners
        .iter()
        .map(|&([x, y], [r, g, b])| Vertex {
            pos: [x, y, 0.0],
            normal: [0.0, 0.0, 1.0],
            tex: [0.0; 2],
            color: [r, g, b, 1.0],
            edge: 1.0,
        })
        .collect();
    let p = &con.program;
    gl.uniform_i(p.vertexcolor, 1);
    let b = con.stream(gl, &Shape { verts });
    gl.draw_arrays(b.vao, gl::TRIANGLES, 0, b.count - b.count % 3);
    gl.uniform_i(p.vertexcolor, 0);
}
