//! Geoms as convex shapes for MPR (MuJoCo's `mjtCCD`, `mjccd_center` and `mjccd_support`):
//! support points of spheres, capsules, ellipsoids, cylinders, boxes and meshes, the latter by
//! hill climbing on the convex-hull graph (`mesh_graph`) or, without a graph, by trying every
//! vertex.
//!
//! A shape carries its own pose: MuJoCo moves `geom_xpos`/`geom_xmat` in place to perturb a geom
//! (multi-point contacts) or to express it in a height field's frame; here the pose is a copy.

use super::mpr::ConvexShape;
use crate::data::Data;
use crate::math::mat::{rot_vec_mat, rot_vec_mat_t};
use crate::math::misc::sign;
use crate::math::scalar::sqrt;
use crate::math::vec::{add_to3, normalize3};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::{v3, v9};
use crate::types::*;

/// A geom seen by MPR: its pose, and the margin that inflates it (`mjtCCD`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GeomShape<'m> {
    /// Geom id.
    pub geom: usize,
    /// Geom type and size, read once for the many support queries of a pair.
    ty: i32,
    size: [Real; 3],
    /// The geom's mesh (mesh and SDF geoms), found once per pair rather than per query.
    mesh: Option<MeshHull<'m>>,
    /// Position of the geom frame (normally `geom_xpos`).
    pub pos: [Real; 3],
    /// Orientation of the geom frame (normally `geom_xmat`).
    pub mat: [Real; 9],
    /// Every support point moves out by half of this along the direction.
    pub margin: Real,
    /// The last mesh support vertex: an index into the hull graph's vertices when the mesh has
    /// a graph, else a mesh vertex index; -1 before any mesh support query (`meshindex`).
    pub meshindex: i32,
}

impl<'m> GeomShape<'m> {
    /// Geom `g` at its pose in `d`, inflated by `margin`.
    pub fn new(m: &'m Model<'m>, d: &Data, g: usize, margin: Real) -> Self {
        let ty = m.geom_type[g];
        Self {
            geom: g,
            ty,
            size: v3(&m.geom_size)[g],
            mesh: matches!(ty, GEOM_MESH | GEOM_SDF).then(|| MeshHull::of_geom(m, g)),
            pos: v3(d.geom_xpos)[g],
            mat: v9(d.geom_xmat)[g],
            margin,
            meshindex: -1,
        }
    }

    /// Support point in the geom's frame along the local unit direction `dir`, before the
    /// margin.
    fn local_support(&mut self, dir: &[Real; 3]) -> [Real; 3] {
        let size = &self.size;
        match self.ty {
            GEOM_SPHERE => dir.map(|x| x * size[0]),
            GEOM_CAPSULE => {
                let mut res = dir.map(|x| x * size[0]);
                res[2] += sign(dir[2]) * size[1];
                res
            }
            GEOM_ELLIPSOID => {
                // the support of the unit sphere for the scaled direction, scaled back
                let mut res: [Real; 3] = core::array::from_fn(|i| dir[i] * size[i]);
                normalize3(&mut res);
                core::array::from_fn(|i| res[i] * size[i])
            }
            GEOM_CYLINDER => {
                let r = sqrt(dir[0] * dir[0] + dir[1] * dir[1]);
                let (x, y) = if r > MINVAL {
                    (dir[0] / r * size[0], dir[1] / r * size[0])
                } else {
                    (0.0, 0.0)
                };
                [x, y, sign(dir[2]) * size[1]]
            }
            GEOM_BOX => core::array::from_fn(|i| sign(dir[i]) * size[i]),
            // an SDF geom's support is that of the mesh the compiler made of it
            GEOM_MESH | GEOM_SDF => self.mesh_support(dir),
            // the collision table sends no other type here
            _ => [0.0; 3],
        }
    }

    /// Mesh vertex farthest along `dir` (local frame); records it in `meshindex`.
    fn mesh_support(&mut self, dir: &[Real; 3]) -> [Real; 3] {
        let Some(mesh) = &self.mesh else {
            return [0.0; 3];
        };
        let best = match &mesh.graph {
            Some(graph) => {
                // the fast build climbs from the last support vertex (the next direction is
                // mostly near the last), MuJoCo from vertex 0; on a convex hull both reach a
                // vertex of the largest projection, the same one unless several tie
                #[cfg(feature = "fast")]
                let start = usize::try_from(self.meshindex).unwrap_or(0);
                #[cfg(not(feature = "fast"))]
                let start = 0;
                let local = graph.hill_climb(mesh.vert, dir, start);
                self.meshindex = local as i32;
                Some(graph.globalid[local] as usize)
            }
            None => {
                let best = mesh.farthest_vertex(dir);
                self.meshindex = best.map_or(-1, |i| i as i32);
                best
            }
        };
        // a mesh without vertices (the compiler rejects them) has no support: the origin
        best.map_or([0.0; 3], |i| mesh.vertex(i))
    }
}

impl ConvexShape for GeomShape<'_> {
    /// `mjccd_center`: the geom's position.
    fn center(&self) -> [Real; 3] {
        self.pos
    }

    /// `mjccd_support`: the support point in the geom frame, pushed out by half the margin,
    /// mapped to the global frame.
    fn support(&mut self, dir: &[Real; 3]) -> [Real; 3] {
        let local_dir = rot_vec_mat_t(dir, &self.mat);
        let mut res = self.local_support(&local_dir);
        for (r, d) in res.iter_mut().zip(&local_dir) {
            *r += d * self.margin / 2.0;
        }
        let mut global = rot_vec_mat(&res, &self.mat);
        add_to3(&mut global, &self.pos);
        global
    }
}

/// The vertices of a mesh geom and, when the compiler made one, its convex-hull graph.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MeshHull<'m> {
    /// Vertex coordinates in the mesh (geom) frame.
    pub vert: &'m [[f32; 3]],
    /// The hull graph (`mesh_graph` at `mesh_graphadr`), if any.
    pub graph: Option<HullGraph<'m>>,
}

/// A convex-hull graph: the hull's vertices and each one's neighbours.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HullGraph<'m> {
    /// Start of each hull vertex's neighbour list in `edge_localid`.
    pub edgeadr: &'m [i32],
    /// Mesh vertex index of each hull vertex.
    pub globalid: &'m [i32],
    /// Neighbour lists (hull vertex indices), each ended by -1.
    pub localid: &'m [i32],
}

impl<'m> MeshHull<'m> {
    /// The mesh of geom `g` (a mesh geom: `geom_dataid` is a valid mesh id, checked by the
    /// validator, as are the vertex range and every graph index).
    pub fn of_geom(m: &'m Model<'m>, g: usize) -> Self {
        let mesh = m.geom_dataid[g] as usize;
        let adr = m.mesh_vertadr[mesh] as usize;
        let num = m.mesh_vertnum[mesh] as usize;
        let vert = &m.mesh_vert.as_chunks::<3>().0[adr..adr + num];
        let graph = usize::try_from(m.mesh_graphadr[mesh]).ok().map(|adr| {
            let g = &m.mesh_graph[adr..];
            let nv = g[0] as usize;
            let nedge = nv + 3 * g[1] as usize;
            HullGraph {
                edgeadr: &g[2..2 + nv],
                globalid: &g[2 + nv..2 + 2 * nv],
                localid: &g[2 + 2 * nv..2 + 2 * nv + nedge],
            }
        });
        Self { vert, graph }
    }

    /// Vertex `i` in `Real`.
    pub fn vertex(&self, i: usize) -> [Real; 3] {
        self.vert[i].map(Real::from)
    }

    /// `dir · vertex i`, summed as MuJoCo does.
    pub fn project(&self, i: usize, dir: &[Real; 3]) -> Real {
        project(&self.vert[i], dir)
    }

    /// The first vertex with the largest projection on `dir`, by exhaustive search.
    fn farthest_vertex(&self, dir: &[Real; 3]) -> Option<usize> {
        let mut best = None;
        let mut best_dot = -1e10;
        for (i, v) in self.vert.iter().enumerate() {
            let p = project(v, dir);
            if p > best_dot {
                best_dot = p;
                best = Some(i);
            }
        }
        best
    }
}

/// `dir · v` for a single-precision vertex, summed as MuJoCo does.
#[inline(always)]
fn project(v: &[f32; 3], dir: &[Real; 3]) -> Real {
    dir[0] * Real::from(v[0]) + dir[1] * Real::from(v[1]) + dir[2] * Real::from(v[2])
}

impl HullGraph<'_> {
    /// Neighbours (hull vertex indices) of hull vertex `local`.
    pub fn neighbours(&self, local: usize) -> impl Iterator<Item = usize> + '_ {
        self.localid[self.edgeadr[local] as usize..]
            .iter()
            .map_while(|&n| usize::try_from(n).ok())
    }

    /// Hull vertex farthest along `dir`: from hull vertex `start`, move to any better
    /// neighbour until none is better (MuJoCo takes every improvement while scanning a
    /// neighbour list). Terminates: every move strictly increases the projection.
    fn hill_climb(&self, vert: &[[f32; 3]], dir: &[Real; 3], start: usize) -> usize {
        // the hot loop of mesh collisions: one bounds check per index, none per coordinate
        let project = |local: usize| project(&vert[self.globalid[local] as usize], dir);
        let mut best = start;
        let mut best_dot = project(start);
        loop {
            // MuJoCo's change flag: an improvement always moves to another vertex (its
            // projection is strictly larger), so a moved `best` says the same without a
            // flag updated per neighbour
            let from = best;
            let start = self.edgeadr[from] as usize;
            for &n in self.localid.get(start..).unwrap_or(&[]) {
                let Ok(local) = usize::try_from(n) else {
                    break;
                };
                let p = project(local);
                if p > best_dot {
                    best_dot = p;
                    best = local;
                }
            }
            if best == from {
                return best;
            }
        }
    }
}

/// A flex element or vertex seen by MPR (`mjtCCD` with a flex): the element's vertices or the
/// vertex, thickened by the flex radius and half the margin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FlexShape<'a> {
    /// The flex's vertex positions (its part of `flexvert_xpos`).
    vert: &'a [[Real; 3]],
    /// The element's vertex indices within the flex, or the one vertex.
    ids: &'a [i32],
    /// The center MPR starts from: the element's box center, or the vertex.
    center: [Real; 3],
    /// Radius plus half the margin.
    inflate: Real,
}

impl<'a> FlexShape<'a> {
    /// Element `e` of flex `f`, inflated by `margin`.
    pub fn elem(m: &'a Model, d: &'a Data, f: usize, e: usize, margin: Real) -> Self {
        let aabb = &d.flexelem_aabb[6 * (m.flex_elemadr[f] as usize + e)..];
        Self {
            vert: flex_vertices(m, d, f),
            ids: elem_vertices(m, f, e),
            center: [aabb[0], aabb[1], aabb[2]],
            inflate: m.flex_radius[f] + 0.5 * margin,
        }
    }

    /// An element given by its vertices (`1..=4` of them, already placed where MPR needs
    /// them) and box center, of radius `radius`, inflated by `margin`.
    pub fn posed(vert: &'a [[Real; 3]], center: [Real; 3], radius: Real, margin: Real) -> Self {
        const IDS: [i32; 4] = [0, 1, 2, 3];
        Self {
            vert,
            ids: &IDS[..vert.len()],
            center,
            inflate: radius + 0.5 * margin,
        }
    }

    /// Vertex `v` of flex `f`, inflated by `margin`.
    pub fn vertex(m: &'a Model, d: &'a Data, f: usize, v: usize, margin: Real) -> Self {
        let vert = flex_vertices(m, d, f);
        Self {
            vert,
            ids: &[],
            center: vert[v],
            inflate: m.flex_radius[f] + 0.5 * margin,
        }
    }
}

/// The positions of flex `f`'s vertices.
pub(crate) fn flex_vertices<'a>(m: &Model, d: &'a Data, f: usize) -> &'a [[Real; 3]] {
    let adr = m.flex_vertadr[f] as usize;
    &v3(d.flexvert_xpos)[adr..adr + m.flex_vertnum[f] as usize]
}

/// The vertex indices (within the flex) of element `e` of flex `f`: `flex_dim + 1` of them.
pub(crate) fn elem_vertices<'a>(m: &'a Model, f: usize, e: usize) -> &'a [i32] {
    let n = m.flex_dim[f] as usize + 1;
    let adr = m.flex_elemdataadr[f] as usize + e * n;
    &m.flex_elem[adr..adr + n]
}

impl ConvexShape for FlexShape<'_> {
    fn center(&self) -> [Real; 3] {
        self.center
    }

    /// The element vertex with the largest projection on `dir` (the first of equals), or the
    /// vertex, moved out along `dir`.
    fn support(&mut self, dir: &[Real; 3]) -> [Real; 3] {
        let mut res = self.center;
        if let Some((&first, rest)) = self.ids.split_first() {
            res = self.vert[first as usize];
            let mut best = crate::math::vec::dot3(&res, dir);
            for &i in rest {
                let p = &self.vert[i as usize];
                let dot = crate::math::vec::dot3(p, dir);
                if dot > best {
                    best = dot;
                    res = *p;
                }
            }
        }
        crate::math::vec::add_to_scl3(&mut res, dir, self.inflate);
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A box's eight corners (`±1, ±2, ±0.5`) and its hull graph: corner `i` has the bits of
    /// `i` as its signs, and its neighbours differ from it in one bit.
    fn box_hull() -> ([[f32; 3]; 8], [i32; 8], [i32; 8], [i32; 32]) {
        let vert = core::array::from_fn(|i| {
            let s = |bit: usize| if i >> bit & 1 == 1 { 1.0 } else { -1.0 };
            [s(0), 2.0 * s(1), 0.5 * s(2)]
        });
        let edgeadr = core::array::from_fn(|i| 4 * i as i32);
        // hull vertex i is mesh vertex 7 - i: the hull's numbering need not be the mesh's
        let globalid = core::array::from_fn(|i| 7 - i as i32);
        let mut localid = [-1; 32];
        for i in 0..8 {
            for bit in 0..3 {
                localid[4 * i + bit] = (i ^ (1 << bit)) as i32;
            }
        }
        (vert, edgeadr, globalid, localid)
    }

    proptest! {
        /// From every start the climb ends at a vertex of the largest projection: the fast
        /// build starts from the last support vertex, MuJoCo from vertex 0.
        #[test]
        fn hill_climb_finds_the_farthest_vertex_from_any_start(
            dir in proptest::array::uniform3(-1.0..1.0f64),
        ) {
            let (vert, edgeadr, globalid, localid) = box_hull();
            let graph = HullGraph { edgeadr: &edgeadr, globalid: &globalid, localid: &localid };
            let dir = dir.map(|x| x as Real);
            let best = vert.iter().map(|v| project(v, &dir)).fold(Real::MIN, Real::max);
            for start in 0..8 {
                let local = graph.hill_climb(&vert, &dir, start);
                let reached = project(&vert[globalid[local] as usize], &dir);
                prop_assert_eq!(reached, best, "start {}", start);
            }
        }
    }
}
