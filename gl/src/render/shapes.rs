//! Triangle lists for everything the renderer draws, built once per context: MuJoCo's builtin
//! shapes (tessellated with the model's `quality` settings), the grids of planes, meshes and
//! height fields. Pure geometry, no OpenGL, so it can be checked without a context.
//!
//! The tessellation follows MuJoCo's renderer vertex for vertex (same slices, stacks, grid
//! lines and winding), because segmentation images are compared with MuJoCo's pixel by pixel:
//! a different polygon outline would move silhouette pixels.

use core::f64::consts::PI;

/// One vertex: position, normal, 2D texture coordinate, colour (used by the haze only).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Vertex {
    /// Position in the shape's frame.
    pub pos: [f32; 3],
    /// Normal (not necessarily unit; the shader normalizes after transforming).
    pub normal: [f32; 3],
    /// Explicit texture coordinate (meshes with texcoords, skins).
    pub tex: [f32; 2],
    /// Per-vertex colour.
    pub color: [f32; 4],
    /// 0 on both ends of the hidden diagonal of a quad split into triangles, 1 elsewhere: the
    /// wireframe mode skips edges where it is 0, so quads show four edges as in MuJoCo.
    pub edge: f32,
}

/// Floats per vertex in the vertex buffer.
pub const VERTEX_FLOATS: usize = 13;

/// A triangle list under construction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shape {
    /// Three vertices per triangle, counter-clockwise seen from outside.
    pub verts: Vec<Vertex>,
}

const WHITE: [f32; 4] = [1.0; 4];

fn vertex(pos: [f32; 3], normal: [f32; 3]) -> Vertex {
    Vertex {
        pos,
        normal,
        tex: [0.0; 2],
        color: WHITE,
        edge: 1.0,
    }
}

impl Shape {
    fn tri(&mut self, a: Vertex, b: Vertex, c: Vertex) {
        self.verts.extend([a, b, c]);
    }

    /// A quad as two triangles sharing the first vertex (as OpenGL splits `GL_QUADS`); the
    /// shared diagonal a-c is marked hidden for the wireframe.
    fn quad(&mut self, a: Vertex, b: Vertex, c: Vertex, d: Vertex) {
        let hide = |v: Vertex| Vertex { edge: 0.0, ..v };
        let (a, c) = (hide(a), hide(c));
        self.verts.extend([a, b, c, a, c, d]);
    }

    /// A quad with one normal.
    fn flat_quad(&mut self, n: [f32; 3], p: [[f32; 3]; 4]) {
        let v = p.map(|p| vertex(p, n));
        self.quad(v[0], v[1], v[2], v[3]);
    }

    /// Append another shape.
    pub fn extend(&mut self, other: &Shape) {
        self.verts.extend_from_slice(&other.verts);
    }

    /// The vertex buffer contents: [`VERTEX_FLOATS`] floats per vertex.
    pub fn floats(&self) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.verts.len() * VERTEX_FLOATS);
        for v in &self.verts {
            out.extend_from_slice(&v.pos);
            out.extend_from_slice(&v.normal);
            out.extend_from_slice(&v.tex);
            out.extend_from_slice(&v.color);
            out.push(v.edge);
        }
        out
    }
}

/// Angle of slice `j` of `n` around the z axis (computed in double, stored in float, as the
/// reference does).
fn azimuth(j: usize, n: usize) -> f32 {
    (2.0 * PI * j as f64 / n as f64) as f32
}

/// Unit-sphere point at azimuth/elevation, shifted by `sign` along z, with its normal.
fn sphere_vertex(az: f32, el: f32, sign: f32) -> Vertex {
    let p = [az.cos() * el.cos(), az.sin() * el.cos(), sign + el.sin()];
    vertex(p, [p[0], p[1], p[2] - sign])
}

/// Elevation of stack `i` of `n` toward the pole `sign`.
fn elevation(i: usize, n: usize, sign: f32) -> f32 {
    (0.5 * PI * f64::from(sign) * i as f64 / n as f64) as f32
}

/// One hemisphere of the unit sphere, centred at `(0, 0, sign)` so that the capsule can place
/// it with a translation: triangles at the pole, quads elsewhere.
fn hemisphere(s: &mut Shape, sign: f32, center: f32, slices: usize, stacks: usize) {
    let el1 = elevation(stacks - 1, stacks, sign);
    for j in 0..slices {
        let (az1, az2) = (azimuth(j, slices), azimuth(j + 1, slices));
        let v1 = sphere_vertex(az1, el1, center);
        let v2 = sphere_vertex(az2, el1, center);
        let v3 = vertex([0.0, 0.0, center + sign], [0.0, 0.0, sign]);
        if sign > 0.0 {
            s.tri(v1, v2, v3);
        } else {
            s.tri(v3, v2, v1);
        }
    }
    for i in 0..stacks.saturating_sub(1) {
        let (el1, el2) = (elevation(i, stacks, sign), elevation(i + 1, stacks, sign));
        for j in 0..slices {
            let (az1, az2) = (azimuth(j, slices), azimuth(j + 1, slices));
            let v1 = sphere_vertex(az1, el1, center);
            let v2 = sphere_vertex(az2, el1, center);
            let v3 = sphere_vertex(az2, el2, center);
            let v4 = sphere_vertex(az1, el2, center);
            if sign > 0.0 {
                s.quad(v1, v2, v3, v4);
            } else {
                s.quad(v4, v3, v2, v1);
            }
        }
    }
}

/// Unit sphere: the bottom and top hemispheres, poles first as the reference emits them.
pub fn sphere(slices: usize, stacks: usize) -> Shape {
    let (mut poles, mut bands) = (Shape::default(), Shape::default());
    let half = stacks / 2;
    for sign in [-1.0f32, 1.0] {
        let mut h = Shape::default();
        hemisphere(&mut h, sign, 0.0, slices, half.max(1));
        // split the hemisphere's pole triangles from its bands to keep the reference order
        let npole = 3 * slices;
        poles.verts.extend_from_slice(&h.verts[..npole]);
        bands.verts.extend_from_slice(&h.verts[npole..]);
    }
    poles.extend(&bands);
    poles
}

/// Top (`sign` 1) or bottom (-1) half of a unit sphere centred at `(0, 0, sign)`: the caps of
/// a capsule.
pub fn half_sphere(sign: f32, slices: usize, stacks: usize) -> Shape {
    let mut s = Shape::default();
    hemisphere(&mut s, sign, sign, slices, stacks.max(1));
    s
}

fn disk_vertex(az: f32, r: f32, z: f32, n: [f32; 3]) -> Vertex {
    vertex([az.cos() * r, az.sin() * r, z], n)
}

/// A flat disk of radius 1 at height `sign`, facing `sign` (facing down at height 0 when
/// `sign` is 0: the base of a cone).
pub fn disk(sign: f32, slices: usize, stacks: usize) -> Shape {
    let mut s = Shape::default();
    let n = [0.0, 0.0, if sign == 0.0 { -1.0 } else { sign }];
    let stacks = stacks.max(1);
    let r1 = 1.0 / stacks as f32;
    for j in 0..slices {
        let (az1, az2) = (azimuth(j, slices), azimuth(j + 1, slices));
        let v1 = disk_vertex(az1, r1, sign, n);
        let v2 = disk_vertex(az2, r1, sign, n);
        let v3 = vertex([0.0, 0.0, sign], n);
        if sign > 0.0 {
            s.tri(v1, v2, v3);
        } else {
            s.tri(v3, v2, v1);
        }
    }
    for i in 0..stacks - 1 {
        let r1 = (i + 1) as f32 / stacks as f32;
        let r2 = (i + 2) as f32 / stacks as f32;
        for j in 0..slices {
            let (az1, az2) = (azimuth(j, slices), azimuth(j + 1, slices));
            let v1 = disk_vertex(az1, r2, sign, n);
            let v2 = disk_vertex(az2, r2, sign, n);
            let v3 = disk_vertex(az2, r1, sign, n);
            let v4 = disk_vertex(az1, r1, sign, n);
            if sign > 0.0 {
                s.quad(v1, v2, v3, v4);
            } else {
                s.quad(v4, v3, v2, v1);
            }
        }
    }
    s
}

fn cone_vertex(az: f32, r: f32) -> Vertex {
    let scale = 1.0 / 2.0f32.sqrt();
    vertex(
        [az.cos() * r, az.sin() * r, 1.0 - r],
        [az.cos() * scale, az.sin() * scale, scale],
    )
}

/// Open cone of height 1 and base radius 1, apex at `z = 1`.
fn cone_side(slices: usize, stacks: usize) -> Shape {
    let mut s = Shape::default();
    let stacks = stacks.max(1);
    let r1 = 1.0 / stacks as f32;
    for j in 0..slices {
        let (az1, az2) = (azimuth(j, slices), azimuth(j + 1, slices));
        let (v1, v2) = (cone_vertex(az1, r1), cone_vertex(az2, r1));
        let n = super::matrix::normalize([
            v1.normal[0] + v2.normal[0],
            v1.normal[1] + v2.normal[1],
            v1.normal[2] + v2.normal[2],
        ]);
        s.tri(v1, v2, vertex([0.0, 0.0, 1.0], n));
    }
    for i in 0..stacks - 1 {
        let r1 = (i + 1) as f32 / stacks as f32;
        let r2 = (i + 2) as f32 / stacks as f32;
        for j in 0..slices {
            let (az1, az2) = (azimuth(j, slices), azimuth(j + 1, slices));
            s.quad(
                cone_vertex(az1, r2),
                cone_vertex(az2, r2),
                cone_vertex(az2, r1),
                cone_vertex(az1, r1),
            );
        }
    }
    s
}

/// Closed cone: side and base (the arrow heads).
pub fn cone(slices: usize, stacks: usize) -> Shape {
    let mut s = cone_side(slices, stacks);
    s.extend(&disk(0.0, slices, stacks));
    s
}

fn cylinder_vertex(az: f32, h: f32) -> Vertex {
    let (x, y) = (az.cos(), az.sin());
    let len = (x * x + y * y).sqrt();
    vertex([x, y, h], [x / len, y / len, 0.0])
}

/// Open cylinder of radius 1 from `z = -1` to `z = 1`.
pub fn cylinder_open(slices: usize, stacks: usize) -> Shape {
    let mut s = Shape::default();
    let stacks = stacks.max(1);
    for i in 0..stacks {
        let h1 = 2.0 * i as f32 / stacks as f32 - 1.0;
        let h2 = 2.0 * (i + 1) as f32 / stacks as f32 - 1.0;
        for j in 0..slices {
            let (az1, az2) = (azimuth(j, slices), azimuth(j + 1, slices));
            s.quad(
                cylinder_vertex(az1, h1),
                cylinder_vertex(az2, h1),
                cylinder_vertex(az2, h2),
                cylinder_vertex(az1, h2),
            );
        }
    }
    s
}

/// Closed cylinder: bottom disk, side, top disk.
pub fn cylinder(slices: usize, stacks: usize) -> Shape {
    let mut s = disk(-1.0, slices, stacks / 2);
    s.extend(&cylinder_open(slices, stacks));
    s.extend(&disk(1.0, slices, stacks / 2));
    s
}

/// The haze: a truncated cone from the horizon (radius 1 at `z = 0`) up to `z = 1`, fully
/// coloured at the transition height and transparent at both ends, blended over the skybox.
pub fn haze(slices: usize, r: f32, rgba: [f32; 4]) -> Shape {
    let alpha = 1.0f32.atan2(r);
    let beta = (0.75 * PI) as f32 - alpha;
    let h = 0.5f32.sqrt() * r * alpha.sin() / beta.sin();
    let mut s = Shape::default();
    for i in 0..2 {
        let (h1, h2) = if i == 0 { (0.0, h) } else { (h, 1.0) };
        let (c1, c2) = (
            if i == 1 { 1.0 } else { 0.0 },
            if i == 0 { 1.0 } else { 0.0 },
        );
        for j in 0..slices {
            let (az1, az2) = (azimuth(j, slices), azimuth(j + 1, slices));
            let at = |az: f32, h: f32, a: f32| Vertex {
                pos: [
                    az.cos() * (1.0 - r * (1.0 - h)),
                    az.sin() * (1.0 - r * (1.0 - h)),
                    h,
                ],
                normal: [0.0, 0.0, 1.0],
                tex: [0.0; 2],
                color: [rgba[0], rgba[1], rgba[2], a],
                edge: 1.0,
            };
            s.quad(
                at(az1, h1, c1),
                at(az2, h1, c1),
                at(az2, h2, c2),
                at(az1, h2, c2),
            );
        }
    }
    s
}

/// The unit box `[-1, 1]^3`, each face a `quads x quads` grid.
pub fn cube(quads: usize) -> Shape {
    let mut s = Shape::default();
    let d = 2.0 / quads as f32;
    let g = |k: usize| d * k as f32 - 1.0;
    for x in 0..quads {
        for y in 0..quads {
            let (x0, x1, y0, y1) = (g(x), g(x + 1), g(y), g(y + 1));
            let z = [0.0, 0.0, 1.0];
            s.flat_quad(
                z,
                [[x0, y0, 1.0], [x1, y0, 1.0], [x1, y1, 1.0], [x0, y1, 1.0]],
            );
            let z = [0.0, 0.0, -1.0];
            s.flat_quad(
                z,
                [
                    [x0, y1, -1.0],
                    [x1, y1, -1.0],
                    [x1, y0, -1.0],
                    [x0, y0, -1.0],
                ],
            );
            let n = [1.0, 0.0, 0.0];
            s.flat_quad(
                n,
                [[1.0, x0, y0], [1.0, x1, y0], [1.0, x1, y1], [1.0, x0, y1]],
            );
            let n = [-1.0, 0.0, 0.0];
            s.flat_quad(
                n,
                [
                    [-1.0, x0, y1],
                    [-1.0, x1, y1],
                    [-1.0, x1, y0],
                    [-1.0, x0, y0],
                ],
            );
            let n = [0.0, -1.0, 0.0];
            s.flat_quad(
                n,
                [
                    [x0, -1.0, y0],
                    [x1, -1.0, y0],
                    [x1, -1.0, y1],
                    [x0, -1.0, y1],
                ],
            );
            let n = [0.0, 1.0, 0.0];
            s.flat_quad(
                n,
                [[x0, 1.0, y1], [x1, 1.0, y1], [x1, 1.0, y0], [x0, 1.0, y0]],
            );
        }
    }
    s
}

/// A flat grid at `z = 0` facing up, over the cell boundaries `xs` by `ys`.
pub fn grid(xs: &[f64], ys: &[f64]) -> Shape {
    let mut s = Shape::default();
    let n = [0.0, 0.0, 1.0];
    for x in xs.windows(2) {
        for y in ys.windows(2) {
            let (x0, x1, y0, y1) = (x[0] as f32, x[1] as f32, y[0] as f32, y[1] as f32);
            s.flat_quad(
                n,
                [[x0, y0, 0.0], [x1, y0, 0.0], [x1, y1, 0.0], [x0, y1, 0.0]],
            );
        }
    }
    s
}

/// The unit plane `[-1, 1]^2` as a `quads x quads` grid (planes without their own grid).
pub fn unit_plane(quads: usize) -> Shape {
    let cells: Vec<f64> = (0..=quads)
        .map(|k| 2.0 * k as f64 / quads as f64 - 1.0)
        .collect();
    grid(&cells, &cells)
}

/// Most grid cells per plane side.
pub const MAXPLANEGRID: usize = 200;

/// Cell boundaries along one side of a plane geom: even-sized cells of `2 * spacing` with a
/// padding cell at each end for finite sides; for infinite sides (`size == 0`) cells of the
/// material's texture repeat (or a fraction of the far plane) reaching past the skybox.
pub fn plane_cells(size: f64, spacing: f64, texrepeat: Option<f64>, zfar: f64) -> Vec<f64> {
    if size > 0.0 {
        let sz2 = spacing.max(size / (MAXPLANEGRID - 2) as f64);
        let mut n = (size / sz2.max(1e-15)).floor() as usize;
        n -= n % 2;
        let pad = size - n as f64 * sz2;
        let n = n + 2;
        let mut cells = Vec::with_capacity(n + 1);
        for x in 0..n {
            let left = if x == 0 {
                -size
            } else {
                -size + pad + (x - 1) as f64 * sz2 * 2.0
            };
            let right = if x == 0 || x == n - 1 {
                left + pad
            } else {
                left + sz2 * 2.0
            };
            if x == 0 {
                cells.push(left);
            }
            cells.push(left.max(right));
        }
        cells
    } else {
        let step = match texrepeat {
            Some(r) if r > 0.0 => 2.0 / r,
            _ => 2.1 * zfar / (MAXPLANEGRID - 2) as f64,
        };
        let d = (2.1 * zfar + 2.0 * step) / MAXPLANEGRID as f64;
        (0..=MAXPLANEGRID)
            .map(|x| d * x as f64 - d * (MAXPLANEGRID / 2) as f64)
            .collect()
    }
}

/// Unit normal of a triangle (`+z` for a degenerate one).
pub fn face_normal(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> [f32; 3] {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    super::matrix::normalize([
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ])
}

/// A mesh's triangles: vertex normals where they are close to the face normal (cosine at
/// least 0.8; otherwise the face normal keeps sharp edges sharp), texture coordinates when the
/// mesh has them (then the vertex normals as given).
pub fn mesh(
    vert: &[f32],
    normal: &[f32],
    face: &[i32],
    facenormal: &[i32],
    tex: Option<(&[f32], &[i32])>,
) -> Shape {
    let mut s = Shape::default();
    let at3 = |a: &[f32], i: i32| {
        let i = 3 * i as usize;
        [a[i], a[i + 1], a[i + 2]]
    };
    for f in 0..face.len() / 3 {
        let p = [0, 1, 2].map(|k| at3(vert, face[3 * f + k]));
        let fnorm = face_normal(p[0], p[1], p[2]);
        for k in 0..3 {
            let n = at3(normal, facenormal[3 * f + k]);
            let mut v = vertex(p[k], n);
            match tex {
                Some((texcoord, facetex)) => {
                    let t = 2 * facetex[3 * f + k] as usize;
                    v.tex = [texcoord[t], texcoord[t + 1]];
                }
                None => {
                    let dot = n[0] * fnorm[0] + n[1] * fnorm[1] + n[2] * fnorm[2];
                    if dot < 0.8 {
                        v.normal = fnorm;
                    }
                }
            }
            s.verts.push(v);
        }
    }
    s
}

/// A mesh's convex hull from its graph (`mesh_graph`: numvert, numface, vertex ids, edge
/// data, then face vertex triples), flat shaded.
pub fn hull(vert: &[f32], graph: &[i32], tex: Option<&[f32]>) -> Shape {
    let mut s = Shape::default();
    let (numvert, numface) = (graph[0] as usize, graph[1] as usize);
    let faces = &graph[2 + 3 * numvert + 3 * numface..];
    let at3 = |i: i32| {
        let i = 3 * i as usize;
        [vert[i], vert[i + 1], vert[i + 2]]
    };
    for f in 0..numface {
        let ids = [faces[3 * f], faces[3 * f + 1], faces[3 * f + 2]];
        let p = ids.map(at3);
        let n = face_normal(p[0], p[1], p[2]);
        for k in 0..3 {
            let mut v = vertex(p[k], n);
            if let Some(t) = tex {
                let i = 2 * ids[k] as usize;
                v.tex = [t[i], t[i + 1]];
            }
            s.verts.push(v);
        }
    }
    s
}

/// A height field: the elevation surface as a triangle strip per row pair (flat shaded), the
/// four sides down to `-size[3]`, and the bottom as a `quads x quads` grid. A single row (or
/// column) has no surface but, as in MuJoCo, its two long sides and the bottom.
pub fn hfield(data: &[f32], nrow: usize, ncol: usize, size: [f32; 4], quads: usize) -> Shape {
    let mut s = Shape::default();
    if nrow == 0 || ncol == 0 {
        return s;
    }
    let width = 0.5 * (ncol - 1) as f32;
    let height = 0.5 * (nrow - 1) as f32;
    let x = |c: usize| size[0] * (c as f32 / width - 1.0);
    let y = |r: usize| size[1] * (r as f32 / height - 1.0);
    let z = |r: usize, c: usize| data[r * ncol + c] * size[2];
    for r in 0..nrow - 1 {
        let mut strip: Vec<[f32; 3]> = Vec::with_capacity(2 * ncol);
        for c in 0..ncol {
            strip.push([x(c), y(r + 1), z(r + 1, c)]);
            strip.push([x(c), y(r), z(r, c)]);
        }
        for k in 2..strip.len() {
            // alternate orientation so that every triangle faces up
            let (a, b, c) = if k % 2 == 0 {
                (strip[k - 2], strip[k - 1], strip[k])
            } else {
                (strip[k - 2], strip[k], strip[k - 1])
            };
            let n = face_normal(a, b, c);
            s.tri(vertex(a, n), vertex(b, n), vertex(c, n));
        }
    }
    let bottom = -size[3];
    for r in 0..nrow - 1 {
        let (y0, y1) = (y(r), y(r + 1));
        s.flat_quad(
            [-1.0, 0.0, 0.0],
            [
                [-size[0], y1, bottom],
                [-size[0], y0, bottom],
                [-size[0], y0, z(r, 0)],
                [-size[0], y1, z(r + 1, 0)],
            ],
        );
        let c = ncol - 1;
        s.flat_quad(
            [1.0, 0.0, 0.0],
            [
                [size[0], y0, bottom],
                [size[0], y1, bottom],
                [size[0], y1, z(r + 1, c)],
                [size[0], y0, z(r, c)],
            ],
        );
    }
    for c in 0..ncol - 1 {
        let (x0, x1) = (x(c), x(c + 1));
        s.flat_quad(
            [0.0, -1.0, 0.0],
            [
                [x0, -size[1], bottom],
                [x1, -size[1], bottom],
                [x1, -size[1], z(0, c + 1)],
                [x0, -size[1], z(0, c)],
            ],
        );
        let r = nrow - 1;
        s.flat_quad(
            [0.0, 1.0, 0.0],
            [
                [x1, size[1], bottom],
                [x0, size[1], bottom],
                [x0, size[1], z(r, c)],
                [x1, size[1], z(r, c + 1)],
            ],
        );
    }
    let half = 0.5 * quads as f32;
    let bx = |c: usize| size[0] * (c as f32 / half - 1.0);
    let by = |r: usize| size[1] * (r as f32 / half - 1.0);
    for r in 0..quads {
        for c in 0..quads {
            s.flat_quad(
                [0.0, 0.0, -1.0],
                [
                    [bx(c), by(r), bottom],
                    [bx(c), by(r + 1), bottom],
                    [bx(c + 1), by(r + 1), bottom],
                    [bx(c + 1), by(r), bottom],
                ],
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signed_volume(s: &Shape) -> f64 {
        s.verts
            .chunks(3)
            .map(|t| {
                let [a, b, c] = [t[0].pos, t[1].pos, t[2].pos].map(|p| p.map(f64::from));
                (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                    + a[2] * (b[0] * c[1] - b[1] * c[0]))
                    / 6.0
            })
            .sum()
    }

    #[test]
    fn closed_shapes_face_outward_and_have_their_volume() {
        // positive signed volume means counter-clockwise winding seen from outside
        let sphere = sphere(28, 16);
        assert_eq!(sphere.verts.len(), 3 * (2 * 28 + 2 * 2 * 28 * 7));
        let v = signed_volume(&sphere);
        assert!((v - 4.0 / 3.0 * PI).abs() < 0.05 * v, "{v}");
        let box_ = cube(4);
        assert!((signed_volume(&box_) - 8.0).abs() < 1e-5);
        let cyl = cylinder(28, 16);
        let v = signed_volume(&cyl);
        assert!((v - 2.0 * PI).abs() < 0.02 * v, "{v}");
        let cone = cone(28, 16);
        let v = signed_volume(&cone);
        assert!((v - PI / 3.0).abs() < 0.02 * v, "{v}");
    }

    #[test]
    fn capsule_caps_sit_on_the_cylinder_ends() {
        fn zs(s: &Shape) -> impl Iterator<Item = f32> + '_ {
            s.verts.iter().map(|v| v.pos[2])
        }
        let top = half_sphere(1.0, 28, 8);
        let bottom = half_sphere(-1.0, 28, 8);
        assert!(zs(&top).all(|z| (0.99..=2.0).contains(&z)));
        assert!(zs(&bottom).all(|z| (-2.0..=-0.99).contains(&z)));
        // moved down onto the bottom disk of the cylinder, the top cap closes a hemisphere
        let mut closed = top.clone();
        for v in &mut closed.verts {
            v.pos[2] -= 2.0;
        }
        closed.extend(&disk(-1.0, 28, 8));
        let v = signed_volume(&closed);
        assert!((v - 2.0 / 3.0 * PI).abs() < 0.02 * v, "{v}");
    }

    #[test]
    fn quads_hide_their_diagonal_and_triangles_hide_nothing() {
        let face = cube(1);
        // per face: triangles (a, b, c) and (a, c, d); a and c end the hidden diagonal
        for t in face.verts.chunks(3) {
            let hidden: Vec<bool> = t.iter().map(|v| v.edge == 0.0).collect();
            assert_eq!(hidden.iter().filter(|&&h| h).count(), 2, "{t:?}");
        }
        let data = [0.0; 4];
        let hf = hfield(&data, 2, 2, [1.0, 1.0, 1.0, 0.1], 1);
        assert!(hf.verts[..6].iter().all(|v| v.edge == 1.0));
    }

    #[test]
    fn finite_plane_cells_cover_the_plane_symmetrically() {
        let cells = plane_cells(5.0, 0.5, None, 100.0);
        assert_eq!(cells.first(), Some(&-5.0));
        assert!((cells.last().unwrap() - 5.0).abs() < 1e-12);
        assert!(cells.windows(2).all(|w| w[1] >= w[0]));
        // 10 cells of 1 plus two empty padding cells
        assert_eq!(cells.len(), 13);
        let inf = plane_cells(0.0, 0.5, Some(4.0), 10.0);
        assert_eq!(inf.len(), MAXPLANEGRID + 1);
        assert!(inf[0] < -10.0 && *inf.last().unwrap() > 10.0);
    }

    #[test]
    fn hfield_surface_faces_up() {
        let data = [0.0, 0.5, 1.0, 0.2, 0.3, 0.1, 0.9, 0.0, 0.4];
        let s = hfield(&data, 3, 3, [1.0, 1.0, 0.5, 0.1], 2);
        let surface = 2 * 2 * 2;
        assert!(s.verts[..3 * surface]
            .chunks(3)
            .all(|t| t[0].normal[2] > 0.0));
        assert!(signed_volume(&s) > 0.0);
    }

    #[test]
    fn mesh_keeps_smooth_normals_and_breaks_sharp_ones() {
        let vert = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        let normal = [0.0, 0.0, 1.0, 1.0, 0.0, 0.0];
        let s = mesh(&vert, &normal, &[0, 1, 2], &[0, 0, 1], None);
        assert_eq!(s.verts[0].normal, [0.0, 0.0, 1.0]);
        assert_eq!(s.verts[2].normal, [0.0, 0.0, 1.0]); // the face normal replaced +x
    }
}
