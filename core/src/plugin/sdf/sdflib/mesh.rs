//! What SdfLib derives from a mesh before building an octree: each triangle in its own frame
//! with the normals that sign distances (`TriangleUtils::calculateMeshTriangleData`, with its
//! repair of meshes that are not watertight: nearby vertices of lone edges merged), and the
//! bounding-sphere tree of the TriangleMeshDistance library that finds a point's nearest
//! triangle (`tmd::TriangleMeshDistance`, double precision).

use super::glm::{self, Mat3, Vec3};
use super::BuildError;

/// A triangle in its own frame (`TriangleUtils::TriangleData`): the first vertex at the
/// origin, the first edge along x, the normal along z.
#[derive(Clone, Copy, Debug, Default)]
pub struct TriangleData {
    origin: Vec3,
    /// World to triangle frame.
    transform: Mat3,
    /// Directions of the second and third edges in the triangle frame.
    b: [f32; 2],
    c: [f32; 2],
    /// x of the second vertex, x and y of the third.
    v2: f32,
    v3: [f32; 2],
    /// Normals of the edges and vertices (averaged over the triangles around them), in the
    /// triangle frame.
    edges_normal: [Vec3; 3],
    vertices_normal: [Vec3; 3],
}

impl TriangleData {
    fn new(v1: Vec3, v2: Vec3, v3: Vec3) -> Self {
        let sx = glm::normalize(glm::sub(v2, v1));
        let sz = glm::normalize(glm::cross(glm::sub(v2, v1), glm::sub(v3, v1)));
        let sy = glm::cross(sz, sx);
        let transform = glm::inverse(&[sx, sy, sz]);
        let in_frame = |v: Vec3| glm::mul(&transform, v);
        let b3 = in_frame(glm::sub(v3, v2));
        let c3 = in_frame(glm::sub(v1, v3));
        let v3f = in_frame(glm::sub(v3, v1));
        Self {
            origin: v1,
            transform,
            b: glm::normalize2([b3[0], b3[1]]),
            c: glm::normalize2([c3[0], c3[1]]),
            v2: in_frame(glm::sub(v2, v1))[0],
            v3: [v3f[0], v3f[1]],
            edges_normal: [[0.0, 0.0, 1.0]; 3],
            vertices_normal: [[0.0, 0.0, 1.0]; 3],
        }
    }

    /// The unit normal in world coordinates (`getTriangleNormal`).
    fn normal(&self) -> Vec3 {
        [
            self.transform[0][2],
            self.transform[1][2],
            self.transform[2][2],
        ]
    }

    /// `normalizeVector`: a unit vector, or the triangle's normal when that is NaN.
    fn unit_or_normal(&self, v: Vec3) -> Vec3 {
        let n = glm::normalize(v);
        if (n[0] + n[1] + n[2]).is_nan() {
            self.normal()
        } else {
            n
        }
    }

    /// Signed distance from `point` to the triangle with corners `v` and the gradient of the
    /// distance (`getSignedDistPointAndTriangle` with a normal): the sign comes from the normal
    /// of the nearest feature (face, edge or vertex).
    pub fn signed_distance(&self, point: Vec3, v: &[Vec3; 3]) -> (f32, Vec3) {
        let p = glm::mul(&self.transform, glm::sub(point, self.origin));
        let de1 = -p[1];
        let de2 = (p[0] - self.v2) * self.b[1] - p[1] * self.b[0];
        let de3 = p[0] * self.c[1] - p[1] * self.c[0];
        let at_vertex = |i: usize, q: Vec3| {
            let s = glm::sign(glm::dot(self.vertices_normal[i], q));
            let g = glm::scale(self.unit_or_normal(glm::sub(point, v[i])), s);
            (s * libm::sqrtf(glm::dot(q, q)), g)
        };
        let at_v2 = || at_vertex(1, [p[0] - self.v2, p[1], p[2]]);
        let at_v3 = || at_vertex(2, [p[0] - self.v3[0], p[1] - self.v3[1], p[2]]);
        let at_edge = |i: usize, sign_of: Vec3, dir: Vec3, de: f32| {
            let s = glm::sign(glm::dot(self.edges_normal[i], sign_of));
            let g = glm::scale(
                self.unit_or_normal(glm::mul_transpose(&self.transform, dir)),
                s,
            );
            (s * libm::sqrtf(de * de + p[2] * p[2]), g)
        };
        if de1 >= 0.0 {
            if p[0] <= 0.0 {
                at_vertex(0, p)
            } else if p[0] >= self.v2 {
                at_v2()
            } else {
                at_edge(0, p, [0.0, p[1], p[2]], de1)
            }
        } else if de2 >= 0.0 {
            if (p[0] - self.v2) * self.b[0] + p[1] * self.b[1] <= 0.0 {
                at_v2()
            } else if (p[0] - self.v3[0]) * self.b[0] + (p[1] - self.v3[1]) * self.b[1] >= 0.0 {
                at_v3()
            } else {
                let d = (p[0] - self.v2) * self.b[0] + p[1] * self.b[1];
                let dir = [(p[0] - self.v2) - d * self.b[0], p[1] - d * self.b[1], p[2]];
                at_edge(1, [p[0] - self.v2, p[1], p[2]], dir, de2)
            }
        } else if de3 >= 0.0 {
            if p[0] * self.c[0] + p[1] * self.c[1] >= 0.0 {
                at_vertex(0, p)
            } else if (p[0] - self.v3[0]) * self.c[0] + (p[1] - self.v3[1]) * self.c[1] <= 0.0 {
                at_v3()
            } else {
                let d = p[0] * self.c[0] + p[1] * self.c[1];
                let dir = [p[0] - d * self.c[0], p[1] - d * self.c[1], p[2]];
                at_edge(2, p, dir, de3)
            }
        } else {
            (p[2], self.normal())
        }
    }
}

/// Scratch of `triangle_data`: one entry per half edge.
pub type HalfEdge = (u64, u32);

/// A vertex in a cell of the vertex merge's grid: (cell key, vertex).
pub type GridEntry = (u32, u32);

/// Caller memory of `triangle_data`; each slice at least as long as noted.
pub struct MeshScratch<'a> {
    /// Three per triangle: the half edges sorted by edge.
    pub half_edges: &'a mut [HalfEdge],
    /// Three per triangle: the unmatched edges keyed by their merged vertices.
    pub merged_edges: &'a mut [HalfEdge],
    /// One per vertex: the vertex merge's parent of each vertex.
    pub parent: &'a mut [u32],
    /// One per vertex: the vertices of unmatched edges, ascending.
    pub loose: &'a mut [u32],
    /// One per vertex each: the vertex merge's two grids (the second offset by half a cell).
    pub grids: [&'a mut [GridEntry]; 2],
}

/// How a mesh's edges paired up in `triangle_data`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EdgeReport {
    /// Edges left without a partner face (one face, or an odd one out of more than two).
    pub unmatched: usize,
    /// Of those, the ones still without a partner after merging nearby vertices (SdfLib logs
    /// that they "cannot be merged" and keeps the triangles' own normals for them).
    pub unmerged: usize,
}

/// No parent: the vertex is a root of the merge (or was never merged).
const NO_PARENT: u32 = u32::MAX;

/// `calculateMeshTriangleData`: the frame of every triangle, and the edge and vertex normals
/// (angle-weighted) that decide the sign of distances. The two faces of an edge share the sum of
/// their normals; an edge without a partner face keeps the triangle's own normal, unless merging
/// vertices closer than SdfLib's tolerance finds it one ([`merge_loose_edges`]). A triangle
/// without area has no frame (SdfLib's is NaN, and so are the distances near it; its handling
/// of such triangles is switched off in the commit MuJoCo uses): an error here.
pub(super) fn triangle_data(
    vertices: &[Vec3],
    indices: &[u32],
    out: &mut [TriangleData],
    vertex_normals: &mut [Vec3],
    scratch: MeshScratch<'_>,
) -> Result<EdgeReport, BuildError> {
    let nface = indices.len() / 3;
    let vertex = |i: usize| vertices[indices[i] as usize];
    for t in 0..nface {
        out[t] = TriangleData::new(vertex(3 * t), vertex(3 * t + 1), vertex(3 * t + 2));
        if out[t].transform.iter().flatten().any(|x| !x.is_finite()) {
            return Err(BuildError::FlatTriangle);
        }
    }
    // vertex normals: the triangles' normals weighted by their angles, in triangle order
    vertex_normals.fill([0.0; 3]);
    for t in 0..nface {
        for k in 0..3 {
            let v1 = indices[3 * t + k] as usize;
            let v2 = indices[3 * t + (k + 1) % 3] as usize;
            let v3 = indices[3 * t + (k + 2) % 3] as usize;
            let e1 = glm::normalize(glm::sub(vertices[v2], vertices[v1]));
            let e2 = glm::normalize(glm::sub(vertices[v3], vertices[v1]));
            let angle = glm::acos(glm::min(glm::max(glm::dot(e1, e2), -1.0), 1.0));
            let n = glm::scale(out[t].normal(), angle);
            vertex_normals[v1] = glm::add(vertex_normals[v1], n);
        }
    }
    let half_edges = &mut scratch.half_edges[..3 * nface];
    for (h, e) in half_edges.iter_mut().enumerate() {
        let a = indices[h];
        let b = indices[if h % 3 == 2 { h - 2 } else { h + 1 }];
        *e = (edge_key(a, b), h as u32);
    }
    half_edges.sort_unstable();
    let unmatched = pair_edges(out, half_edges);
    let mut report = EdgeReport {
        unmatched,
        unmerged: 0,
    };
    if unmatched > 0 {
        report.unmerged = merge_loose_edges(
            vertices,
            out,
            vertex_normals,
            &half_edges[..unmatched],
            scratch.merged_edges,
            scratch.parent,
            scratch.loose,
            scratch.grids,
        )?;
    }
    for (i, &v) in indices.iter().enumerate() {
        let t = &mut out[i / 3];
        t.vertices_normal[i % 3] = glm::mul(&t.transform, vertex_normals[v as usize]);
    }
    Ok(report)
}

/// The key of the edge between vertices `a` and `b` (either way round).
fn edge_key(a: u32, b: u32) -> u64 {
    (u64::from(a.min(b)) << 32) | u64::from(a.max(b))
}

/// Gives the two faces of each pair of half edges with one key the sum of their normals, pairing
/// them in order as SdfLib's edge map does (the 1st with the 2nd, the 3rd with the 4th, ...).
/// `edges` is sorted by (key, half edge); the ones left over (the last of an odd group) are moved
/// to its front, in key order, and their number returned.
fn pair_edges(out: &mut [TriangleData], edges: &mut [HalfEdge]) -> usize {
    let mut loose = 0;
    let mut i = 0;
    while i < edges.len() {
        if edges.get(i + 1).is_some_and(|next| next.0 == edges[i].0) {
            let (h1, h2) = (edges[i].1 as usize, edges[i + 1].1 as usize);
            share_edge_normal(out, h1, h2);
            i += 2;
        } else {
            edges[loose] = edges[i];
            loose += 1;
            i += 1;
        }
    }
    loose
}

/// The normal of the edge of half edges `h1` and `h2`: the sum of their faces' normals, in each
/// face's frame.
fn share_edge_normal(out: &mut [TriangleData], h1: usize, h2: usize) {
    let (t1, t2) = (h1 / 3, h2 / 3);
    let n = glm::add(out[t2].normal(), out[t1].normal());
    out[t2].edges_normal[h2 % 3] = glm::mul(&out[t2].transform, n);
    out[t1].edges_normal[h1 % 3] = glm::mul(&out[t1].transform, n);
}

/// SdfLib's repair of unmatched edges: the vertices of `loose` edges closer to one another than
/// `1e-5` over the mesh's largest extent (SdfLib's tolerance, found through two grids of 2048
/// cells per axis, the second offset by half a cell) are merged; edges that then join the same
/// merged vertices pair up as in [`pair_edges`], and merged vertices share the sum of their
/// normals. Returns how many edges still have no partner.
#[allow(clippy::too_many_arguments)]
fn merge_loose_edges(
    vertices: &[Vec3],
    out: &mut [TriangleData],
    vertex_normals: &mut [Vec3],
    loose_edges: &[HalfEdge],
    merged_edges: &mut [HalfEdge],
    parent: &mut [u32],
    loose: &mut [u32],
    grids: [&mut [GridEntry]; 2],
) -> Result<usize, BuildError> {
    let nvert = vertices.len();
    // the vertices of the loose edges, ascending and once each
    let parent = &mut parent[..nvert];
    parent.fill(NO_PARENT);
    for &(key, _) in loose_edges {
        parent[(key >> 32) as usize] = 0;
        parent[(key & 0xffff_ffff) as usize] = 0;
    }
    let mut nloose = 0;
    for v in 0..nvert {
        if parent[v] == 0 {
            loose[nloose] = v as u32;
            nloose += 1;
        }
    }
    parent.fill(NO_PARENT);
    let loose = &loose[..nloose];
    let grid = MergeGrid::new(vertices);
    let [grid0, grid1] = grids;
    let mut grids = [&mut grid0[..nloose], &mut grid1[..nloose]];
    for (offset, cells) in [0.0, 0.5].into_iter().zip(grids.iter_mut()) {
        for (cell, &v) in cells.iter_mut().zip(loose) {
            *cell = (grid.key(vertices[v as usize], offset), v);
        }
        // a cell's vertices in the order SdfLib appended them (ascending)
        cells.sort_unstable();
    }
    for &v in loose {
        for (offset, cells) in [0.0, 0.5].into_iter().zip(grids.iter()) {
            let key = grid.key(vertices[v as usize], offset);
            let first = cells.partition_point(|c| c.0 < key);
            let near = cells[first..]
                .iter()
                .take_while(|c| c.0 == key)
                .map(|c| c.1)
                .find(|&w| {
                    let d = glm::sub(vertices[v as usize], vertices[w as usize]);
                    glm::dot(d, d) < grid.sq_threshold
                });
            if let Some(w) = near {
                let p1 = root(parent, v)?;
                let p2 = root(parent, w)?;
                if v == p1 {
                    parent[p1 as usize] = p1;
                }
                parent[p2 as usize] = p1;
            }
        }
    }
    // the loose edges again, between merged vertices: paired in the order of their old keys
    let merged = &mut merged_edges[..loose_edges.len()];
    for (j, (&(key, _), m)) in loose_edges.iter().zip(merged.iter_mut()).enumerate() {
        let a = root(parent, (key >> 32) as u32)?;
        let b = root(parent, (key & 0xffff_ffff) as u32)?;
        *m = (edge_key(a, b), j as u32);
    }
    merged.sort_unstable();
    for m in merged.iter_mut() {
        m.1 = loose_edges[m.1 as usize].1;
    }
    let unmerged = pair_edges(out, merged);
    // a merged vertex's normal is the sum over the vertices merged into it, in vertex order
    for &v in loose {
        let p = root(parent, v)?;
        if p != v {
            vertex_normals[p as usize] =
                glm::add(vertex_normals[p as usize], vertex_normals[v as usize]);
        }
    }
    for &v in loose {
        vertex_normals[v as usize] = vertex_normals[root(parent, v)? as usize];
    }
    Ok(unmerged)
}

/// The vertex `v` was merged into: the end of its chain of parents.
fn root(parent: &[u32], mut v: u32) -> Result<u32, BuildError> {
    for _ in 0..=parent.len() {
        match parent
            .get(v as usize)
            .copied()
            .ok_or(BuildError::Malformed)?
        {
            p if p == NO_PARENT || p == v => return Ok(v),
            p => v = p,
        }
    }
    Err(BuildError::Malformed)
}

/// SdfLib's grid of the vertex merge: 2048 cells per axis over the mesh's box.
struct MergeGrid {
    start: Vec3,
    scale: f32,
    sq_threshold: f32,
}

/// Cells per axis of the vertex merge's grid.
const MERGE_CELLS: u32 = 2048;

impl MergeGrid {
    fn new(vertices: &[Vec3]) -> Self {
        let (lo, hi) = bounds(vertices);
        let size = glm::sub(hi, lo);
        let largest = glm::max(size[0], glm::max(size[1], size[2]));
        let threshold = (1e-5 / f64::from(largest)) as f32;
        Self {
            start: lo,
            scale: MERGE_CELLS as f32 / largest,
            sq_threshold: threshold * threshold,
        }
    }

    /// The key of the cell of `v` in the grid offset by `offset` cells: SdfLib's
    /// `x + 2048 y + 2048² z` in unsigned 32-bit arithmetic (it wraps: the key names a cell
    /// only up to that, the distance test decides).
    fn key(&self, v: Vec3, offset: f32) -> u32 {
        let id = glm::sub(v, self.start).map(|x| (x * self.scale + offset) as i32 as u32);
        id[0]
            .wrapping_add(id[1].wrapping_mul(MERGE_CELLS))
            .wrapping_add(id[2].wrapping_mul(MERGE_CELLS).wrapping_mul(MERGE_CELLS))
    }
}

/// `Mesh::computeBoundingBox`: the smallest and largest coordinates.
pub fn bounds(vertices: &[Vec3]) -> (Vec3, Vec3) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for v in vertices {
        for i in 0..3 {
            lo[i] = glm::min(lo[i], v[i]);
            hi[i] = glm::max(hi[i], v[i]);
        }
    }
    (lo, hi)
}

// ------------------------------------------------------------------------------------------------
// nearest triangle: TriangleMeshDistance's tree of bounding spheres

type Vec3d = [f64; 3];

fn sub_d(a: Vec3d, b: Vec3d) -> Vec3d {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot_d(a: Vec3d, b: Vec3d) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn norm_d(a: Vec3d) -> f64 {
    libm::sqrt(dot_d(a, a))
}

/// A node of the tree: bounding spheres (centre, radius) of its two children and their indices;
/// a leaf has `left == -1` and its triangle in `right`.
#[derive(Clone, Copy, Debug, Default)]
pub struct BvhNode {
    left_sphere: (Vec3d, f64),
    right_sphere: (Vec3d, f64),
    left: i32,
    right: i32,
}

/// The nearest-triangle tree of a mesh (`tmd::TriangleMeshDistance`).
pub struct Bvh<'a> {
    vertices: &'a [Vec3],
    indices: &'a [u32],
    nodes: &'a [BvhNode],
}

fn corner(vertices: &[Vec3], indices: &[u32], t: u32, k: usize) -> Vec3d {
    vertices[indices[3 * t as usize + k] as usize].map(f64::from)
}

/// Builds the tree into `nodes` (2 nface - 1 of them) with `order` (nface) as scratch.
pub fn build_bvh<'a>(
    vertices: &'a [Vec3],
    indices: &'a [u32],
    nodes: &'a mut [BvhNode],
    order: &mut [u32],
) -> Result<Bvh<'a>, BuildError> {
    let nface = indices.len() / 3;
    if nface == 0 {
        return Err(BuildError::NoFaces);
    }
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u32;
    }
    let mut count = 1;
    let mut root = (Vec3d::default(), 0.0);
    build_node(
        vertices, indices, nodes, &mut count, 0, &mut root, order, 0, nface,
    );
    Ok(Bvh {
        vertices,
        indices,
        nodes,
    })
}

/// `_build_tree`: node `id` over the triangles `order[begin..end]`, its bounding sphere into
/// `sphere`.
#[allow(clippy::too_many_arguments)]
fn build_node(
    vertices: &[Vec3],
    indices: &[u32],
    nodes: &mut [BvhNode],
    count: &mut usize,
    id: usize,
    sphere: &mut (Vec3d, f64),
    order: &mut [u32],
    begin: usize,
    end: usize,
) {
    let corner = |t: u32, k: usize| corner(vertices, indices, t, k);
    if end - begin == 1 {
        let t = order[begin];
        nodes[id].left = -1;
        nodes[id].right = t as i32;
        let (a, b, c) = (corner(t, 0), corner(t, 1), corner(t, 2));
        let center: Vec3d = core::array::from_fn(|i| (a[i] + b[i] + c[i]) / 3.0);
        let ra = norm_d(sub_d(a, center));
        let rb = norm_d(sub_d(b, center));
        let rc = norm_d(sub_d(c, center));
        *sphere = (center, max_d(max_d(ra, rb), rc));
        return;
    }
    let mut top = [f64::MIN; 3];
    let mut bottom = [f64::MAX; 3];
    let mut center = [0.0; 3];
    for &t in &order[begin..end] {
        for k in 0..3 {
            let p = corner(t, k);
            for i in 0..3 {
                center[i] += p[i];
                top[i] = max_d(top[i], p[i]);
                bottom[i] = min_d(bottom[i], p[i]);
            }
        }
    }
    let n = (3 * (end - begin)) as f64;
    center = center.map(|c| c / n);
    let diagonal = sub_d(top, bottom);
    let mut split = 0;
    for i in 1..3 {
        if diagonal[split] < diagonal[i] {
            split = i;
        }
    }
    let mut radius_sq: f64 = 0.0;
    for &t in &order[begin..end] {
        for k in 0..3 {
            let d = sub_d(center, corner(t, k));
            radius_sq = max_d(radius_sq, dot_d(d, d));
        }
    }
    *sphere = (center, libm::sqrt(radius_sq));
    let key = |t: u32| corner(t, 0)[split];
    super::sort::sort(&mut order[begin..end], &|a, b| key(a) < key(b));
    let mid = (0.5 * (begin + end) as f64) as usize;
    let left = *count;
    nodes[id].left = left as i32;
    *count += 1;
    let mut s = nodes[id].left_sphere;
    build_node(
        vertices, indices, nodes, count, left, &mut s, order, begin, mid,
    );
    nodes[id].left_sphere = s;
    let right = *count;
    nodes[id].right = right as i32;
    *count += 1;
    let mut s = nodes[id].right_sphere;
    build_node(
        vertices, indices, nodes, count, right, &mut s, order, mid, end,
    );
    nodes[id].right_sphere = s;
}

/// `std::max` of doubles: the first unless it is less than the second.
fn max_d(a: f64, b: f64) -> f64 {
    if a < b {
        b
    } else {
        a
    }
}

/// `std::min` of doubles: the first unless the second is less.
fn min_d(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

impl Bvh<'_> {
    /// The nearest triangle to `point` (`signed_distance(...).triangle_id`): the first one found
    /// at the smallest distance, descending into the nearer sphere first.
    pub fn nearest_triangle(&self, point: Vec3) -> u32 {
        let p = point.map(f64::from);
        let mut best = (f64::MAX, 0u32);
        self.query(&mut best, 0, p);
        best.1
    }

    fn query(&self, best: &mut (f64, u32), id: usize, p: Vec3d) {
        let node = &self.nodes[id];
        if node.left == -1 {
            let t = node.right as u32;
            let v: [Vec3d; 3] = core::array::from_fn(|k| corner(self.vertices, self.indices, t, k));
            let d2 = point_triangle_sq(p, &v);
            if d2 < best.0 * best.0 {
                *best = (libm::sqrt(d2), t);
            }
            return;
        }
        let d_left = norm_d(sub_d(p, node.left_sphere.0)) - node.left_sphere.1;
        let d_right = norm_d(sub_d(p, node.right_sphere.0)) - node.right_sphere.1;
        let (left, right) = (node.left as usize, node.right as usize);
        if d_left < d_right {
            if d_left < best.0 {
                self.query(best, left, p);
            }
            if d_right < best.0 {
                self.query(best, right, p);
            }
        } else {
            if d_right < best.0 {
                self.query(best, right, p);
            }
            if d_left < best.0 {
                self.query(best, left, p);
            }
        }
    }
}

/// Squared distance from `p` to a triangle (`point_triangle_sq_unsigned`, Eberly's regions).
fn point_triangle_sq(p: Vec3d, v: &[Vec3d; 3]) -> f64 {
    let diff = sub_d(v[0], p);
    let edge0 = sub_d(v[1], v[0]);
    let edge1 = sub_d(v[2], v[0]);
    let a00 = dot_d(edge0, edge0);
    let a01 = dot_d(edge0, edge1);
    let a11 = dot_d(edge1, edge1);
    let b0 = dot_d(diff, edge0);
    let b1 = dot_d(diff, edge1);
    let c = dot_d(diff, diff);
    let det = (a00 * a11 - a01 * a01).abs();
    let s = a01 * b1 - a11 * b0;
    let t = a01 * b0 - a00 * b1;
    // the squared distance at (s, t) inside the triangle's parameter range
    let interior = |s: f64, t: f64| {
        s * (a00 * s + a01 * t + 2.0 * b0) + t * (a01 * s + a11 * t + 2.0 * b1) + c
    };
    let vertex1 = a00 + 2.0 * b0 + c;
    let vertex2 = a11 + 2.0 * b1 + c;
    // nearest on the edge from v0 along edge0 (t = 0), or along edge1 (s = 0)
    let edge_01 = || {
        if b0 >= 0.0 {
            c
        } else if -b0 >= a00 {
            vertex1
        } else {
            b0 * (-b0 / a00) + c
        }
    };
    let edge_02 = || {
        if b1 >= 0.0 {
            c
        } else if -b1 >= a11 {
            vertex2
        } else {
            b1 * (-b1 / a11) + c
        }
    };
    let d2 = if s + t <= det {
        if s < 0.0 {
            if t < 0.0 {
                // region 4
                if b0 < 0.0 {
                    if -b0 >= a00 {
                        vertex1
                    } else {
                        b0 * (-b0 / a00) + c
                    }
                } else {
                    edge_02()
                }
            } else {
                edge_02() // region 3
            }
        } else if t < 0.0 {
            edge_01() // region 5
        } else {
            let inv = 1.0 / det; // region 0
            interior(s * inv, t * inv)
        }
    } else {
        let denom = a00 - 2.0 * a01 + a11;
        if s < 0.0 {
            // region 2
            let (tmp0, tmp1) = (a01 + b0, a11 + b1);
            if tmp1 > tmp0 {
                let numer = tmp1 - tmp0;
                if numer >= denom {
                    vertex1
                } else {
                    let s = numer / denom;
                    interior(s, 1.0 - s)
                }
            } else if tmp1 <= 0.0 {
                vertex2
            } else if b1 >= 0.0 {
                c
            } else {
                b1 * (-b1 / a11) + c
            }
        } else if t < 0.0 {
            // region 6
            let (tmp0, tmp1) = (a01 + b1, a00 + b0);
            if tmp1 > tmp0 {
                let numer = tmp1 - tmp0;
                if numer >= denom {
                    vertex2
                } else {
                    let t = numer / denom;
                    interior(1.0 - t, t)
                }
            } else if tmp1 <= 0.0 {
                vertex1
            } else if b0 >= 0.0 {
                c
            } else {
                b0 * (-b0 / a00) + c
            }
        } else {
            // region 1
            let numer = a11 + b1 - a01 - b0;
            if numer <= 0.0 {
                vertex2
            } else if numer >= denom {
                vertex1
            } else {
                let s = numer / denom;
                interior(s, 1.0 - s)
            }
        }
    };
    if d2 < 0.0 {
        0.0
    } else {
        d2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_triangle_of_a_tetrahedron() {
        let vertices = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        let indices = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
        let mut nodes = [BvhNode::default(); 7];
        let mut order = [0; 4];
        let bvh = build_bvh(&vertices, &indices, &mut nodes, &mut order).unwrap();
        assert_eq!(bvh.nearest_triangle([0.2, 0.2, -1.0]), 0);
        assert_eq!(bvh.nearest_triangle([0.2, -1.0, 0.2]), 1);
        assert_eq!(bvh.nearest_triangle([1.0, 1.0, 1.0]), 3);
    }
}

#[cfg(test)]
mod edge_tests {
    use super::*;

    const TETRAHEDRON: [Vec3; 4] = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    const FACES: [u32; 12] = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];

    /// [`triangle_data`] of a mesh of at most 12 vertices and 6 triangles.
    fn report(vertices: &[Vec3], indices: &[u32]) -> Result<EdgeReport, BuildError> {
        let nface = indices.len() / 3;
        let mut out = [TriangleData::default(); 6];
        let mut normals = [[0.0; 3]; 12];
        let mut half_edges = [(0, 0); 18];
        let mut merged = [(0, 0); 18];
        let (mut parent, mut loose) = ([0; 12], [0; 12]);
        let (mut g0, mut g1) = ([(0, 0); 12], [(0, 0); 12]);
        triangle_data(
            vertices,
            indices,
            &mut out[..nface],
            &mut normals[..vertices.len()],
            MeshScratch {
                half_edges: &mut half_edges,
                merged_edges: &mut merged,
                parent: &mut parent,
                loose: &mut loose,
                grids: [&mut g0, &mut g1],
            },
        )
    }

    #[test]
    fn a_closed_mesh_pairs_every_edge() {
        let r = report(&TETRAHEDRON, &FACES).unwrap();
        assert_eq!(r, EdgeReport::default());
    }

    #[test]
    fn an_open_mesh_keeps_its_lone_edges() {
        let r = report(&TETRAHEDRON, &FACES[3..]).unwrap();
        assert_eq!(
            r,
            EdgeReport {
                unmatched: 3,
                unmerged: 3
            }
        );
    }

    #[test]
    fn copies_of_vertices_are_merged_within_the_tolerance() {
        // the last face on copies of its vertices: exact, within 1e-5 (the extent is 1), beyond
        let mut vertices = [[0.0; 3]; 7];
        vertices[..4].copy_from_slice(&TETRAHEDRON);
        vertices[4] = TETRAHEDRON[1];
        vertices[5] = [0.0, 1.0 + 4e-6, 0.0];
        vertices[6] = TETRAHEDRON[3];
        let mut faces = FACES;
        faces[9..].copy_from_slice(&[4, 5, 6]);
        let merged = report(&vertices, &faces).unwrap();
        assert_eq!(
            merged,
            EdgeReport {
                unmatched: 6,
                unmerged: 0
            }
        );
        vertices[5] = [0.0, 1.0 + 4e-5, 0.0];
        let apart = report(&vertices, &faces).unwrap();
        assert_eq!(
            apart,
            EdgeReport {
                unmatched: 6,
                unmerged: 4
            }
        );
    }

    #[test]
    fn an_edge_of_three_faces_pairs_the_first_two() {
        // a fin on edge 0-1: the first face and the fin pair, the second face's edge is left
        let mut vertices = [[0.0; 3]; 5];
        vertices[..4].copy_from_slice(&TETRAHEDRON);
        vertices[4] = [0.5, -1.0, -1.0];
        let faces = [0, 2, 1, 0, 1, 4, 0, 1, 3, 0, 3, 2, 1, 2, 3];
        let r = report(&vertices, &faces).unwrap();
        assert_eq!(
            r,
            EdgeReport {
                unmatched: 3,
                unmerged: 3
            }
        );
    }

    #[test]
    fn a_triangle_without_area_is_an_error() {
        let mut faces = FACES;
        faces[2] = 0;
        assert_eq!(report(&TETRAHEDRON, &faces), Err(BuildError::FlatTriangle));
    }
}
