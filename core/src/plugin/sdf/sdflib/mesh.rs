//! What SdfLib derives from a mesh before building an octree: each triangle in its own frame
//! with the normals that sign distances (`TriangleUtils::calculateMeshTriangleData`), and the
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

/// Scratch of [`triangle_data`]: one entry per half edge.
pub type HalfEdge = (u64, u32);

/// `calculateMeshTriangleData`: the frame of every triangle, and the edge and vertex normals
/// (angle-weighted) that decide the sign of distances. SdfLib repairs meshes with unmatched or
/// over-shared edges by merging nearby vertices; that repair is not implemented, so such a mesh
/// is an error.
pub fn triangle_data(
    vertices: &[Vec3],
    indices: &[u32],
    out: &mut [TriangleData],
    vertex_normals: &mut [Vec3],
    half_edges: &mut [HalfEdge],
) -> Result<(), BuildError> {
    let nface = indices.len() / 3;
    let vertex = |i: usize| vertices[indices[i] as usize];
    for t in 0..nface {
        out[t] = TriangleData::new(vertex(3 * t), vertex(3 * t + 1), vertex(3 * t + 2));
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
    // edge normals: the half edges of each edge paired in order, as SdfLib's map pairs them
    for (h, e) in half_edges.iter_mut().enumerate() {
        let a = indices[h];
        let b = indices[if h % 3 == 2 { h - 2 } else { h + 1 }];
        *e = ((u64::from(a.min(b)) << 32) | u64::from(a.max(b)), h as u32);
    }
    half_edges.sort_unstable();
    let mut i = 0;
    while i < half_edges.len() {
        let matched = half_edges
            .get(i + 1)
            .is_some_and(|next| next.0 == half_edges[i].0);
        if !matched {
            return Err(BuildError::NotWatertight);
        }
        let (h1, h2) = (half_edges[i].1 as usize, half_edges[i + 1].1 as usize);
        let (t1, t2) = (h1 / 3, h2 / 3);
        let n = glm::add(out[t2].normal(), out[t1].normal());
        out[t2].edges_normal[h2 % 3] = glm::mul(&out[t2].transform, n);
        out[t1].edges_normal[h1 % 3] = glm::mul(&out[t1].transform, n);
        i += 2;
    }
    for (i, &v) in indices.iter().enumerate() {
        let t = &mut out[i / 3];
        t.vertices_normal[i % 3] = glm::mul(&t.transform, vertex_normals[v as usize]);
    }
    Ok(())
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
