//! The queries of MuJoCo's mesh distance field `mujoco.sdf.sdflib` (`plugin/sdf/sdflib.cc`): an
//! SdfLib octree (`sdflib::OctreeSdf` of SdfLib commit 1927bee) answers the distance at a point
//! by descending to the leaf holding the point and evaluating the leaf's tricubic polynomial;
//! MuJoCo's plugin first projects points outside the octree's cube onto it and adds the distance
//! of that projection, and differentiates by finite differences outside the cube.
//!
//! All octree arithmetic is single precision in SdfLib's order of operations (glm 0.9.8, no
//! fused multiply-add), so the numbers are MuJoCo's bit for bit; the plugin's own steps are in
//! [`Real`] as MuJoCo's are in `mjtNum`.
//!
//! The construction (SdfLib's breadth-first construction with the continuity rule) is
//! [`build`], the plugin and where the trees live [`plugin`].

use crate::real::Real;

pub mod build;
mod glm;
pub mod mesh;
pub mod plugin;
mod sort;
pub mod tricubic;

pub use tricubic::{interpolate_gradient, interpolate_value};

/// Why an octree cannot be built from a mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BuildError {
    /// The mesh has no triangles.
    NoFaces,
    /// A triangle names a vertex the mesh does not have.
    BadIndex,
    /// The mesh's vertices are not finite, or its box has no extent.
    Degenerate,
    /// A triangle has no area (SdfLib's frame of it, and its distances near it, are NaN).
    FlatTriangle,
    /// The caller's memory for the mesh data is smaller than [`build::BuildSizes`] asks.
    OutOfMemory,
    /// The octree or its node records outgrow the caller's memory.
    TooLarge,
    /// The construction met an inconsistent tree (a bug).
    Malformed,
    /// The table of built trees ([`plugin::MAX_TREES`] distinct meshes) is full.
    TableFull,
}

impl BuildError {
    /// What went wrong, in words.
    pub fn message(&self) -> &'static str {
        match self {
            BuildError::NoFaces => "the mesh of the SDF has no faces",
            BuildError::BadIndex => "a face of the SDF's mesh names a vertex it does not have",
            BuildError::Degenerate => "the SDF's mesh is degenerate (no extent or not finite)",
            BuildError::FlatTriangle => {
                "a triangle of the SDF's mesh has no area (its distances would be NaN)"
            }
            BuildError::OutOfMemory => "not enough memory for the SDF's mesh data",
            BuildError::TooLarge => "the SDF's octree does not fit the memory given for it",
            BuildError::Malformed => "internal error: inconsistent SDF octree",
            BuildError::TableFull => {
                "the table of SDF octrees is full (sdflib::plugin::MAX_TREES distinct meshes)"
            }
        }
    }
}

impl core::fmt::Display for BuildError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.message())
    }
}

/// The scalars of an octree (the fields of `sdflib::OctreeSdf` besides its nodes).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OctreeHeader {
    /// The cube's lower corner.
    pub min: [f32; 3],
    /// The cube's upper corner.
    pub max: [f32; 3],
    /// Cells of the start grid per axis.
    pub start_grid_size: i32,
    /// Edge of a start-grid cell.
    pub start_grid_cell_size: f32,
    /// The smallest polynomial value on the cube's faces.
    pub min_border_value: f32,
}

impl OctreeHeader {
    /// The cube MuJoCo's plugin gives SdfLib for a mesh with box `lo`, `hi`: the box grown by a
    /// tenth of its largest edge, made a cube about its centre; a start grid of `2^depth`
    /// cells per axis.
    pub fn new(lo: [f32; 3], hi: [f32; 3], depth: u32) -> Self {
        let size: [f32; 3] = core::array::from_fn(|i| hi[i] - lo[i]);
        let margin = 0.1 * glm::max(glm::max(size[0], size[1]), size[2]);
        let lo = lo.map(|v| v - margin);
        let hi = hi.map(|v| v + margin);
        let size: [f32; 3] = core::array::from_fn(|i| hi[i] - lo[i]);
        let max_size = glm::max(glm::max(size[0], size[1]), size[2]);
        let center: [f32; 3] = core::array::from_fn(|i| lo[i] + 0.5 * size[i]);
        let n = 1i32 << depth;
        Self {
            min: center.map(|c| c - 0.5 * max_size),
            max: center.map(|c| c + 0.5 * max_size),
            start_grid_size: n,
            start_grid_cell_size: max_size / n as f32,
            min_border_value: 0.0,
        }
    }

    /// The octree with these scalars over `nodes`.
    pub fn view<'a>(&self, nodes: &'a [u32]) -> OctreeSdf<'a> {
        OctreeSdf {
            min: self.min,
            max: self.max,
            start_grid_size: self.start_grid_size,
            start_grid_cell_size: self.start_grid_cell_size,
            min_border_value: self.min_border_value,
            nodes,
        }
    }
}

/// The 64 coefficients at `first`, read from their bit patterns (SdfLib keeps them in the node
/// array, a union of `u32` and `f32`).
fn leaf_coefficients(nodes: &[u32], first: u32) -> Option<[f32; NUM_COEFFICIENTS]> {
    let first = first as usize;
    let words = nodes.get(first..first.checked_add(NUM_COEFFICIENTS)?)?;
    let mut c = [0.0; NUM_COEFFICIENTS];
    for (c, &w) in c.iter_mut().zip(words) {
        *c = f32::from_bits(w);
    }
    Some(c)
}

/// Leaf flag of a node (`OctreeNode::IS_LEAF_MASK`).
pub(crate) const IS_LEAF: u32 = 1 << 31;
/// The bits of a node that index its children or its coefficients.
pub(crate) const CHILDREN_INDEX: u32 = !(IS_LEAF | (1 << 30));
/// Coefficients of a leaf's tricubic polynomial (`TriCubicInterpolation::NUM_COEFFICIENTS`).
pub const NUM_COEFFICIENTS: usize = 64;

/// An SdfLib octree: a cube split into a start grid of `start_grid_size`³ cells, each the root
/// of a subtree. `nodes` holds, from index 0, the start grid (x fastest), then groups of 8
/// children and the 64 coefficients of every leaf (stored as `f32` bits); an inner node holds
/// the index of its first child, a leaf `IS_LEAF` and the index of its coefficients.
#[derive(Clone, Copy, Debug)]
pub struct OctreeSdf<'a> {
    /// The cube's lower corner (`mBox.min`).
    pub min: [f32; 3],
    /// The cube's upper corner (`mBox.max`).
    pub max: [f32; 3],
    /// Cells of the start grid per axis (`mStartGridSize`).
    pub start_grid_size: i32,
    /// Edge of a start-grid cell (`mStartGridCellSize`).
    pub start_grid_cell_size: f32,
    /// The smallest value the polynomials take on the cube's faces (`mMinBorderValue`).
    pub min_border_value: f32,
    /// The nodes and coefficients.
    pub nodes: &'a [u32],
}

impl OctreeSdf<'_> {
    /// Centre of the cube (`BoundingBox::getCenter`).
    fn center(&self) -> [f32; 3] {
        core::array::from_fn(|i| self.min[i] + 0.5 * (self.max[i] - self.min[i]))
    }

    /// Edges of the cube (`BoundingBox::getSize`).
    fn size(&self) -> [f32; 3] {
        core::array::from_fn(|i| self.max[i] - self.min[i])
    }

    /// Distance to the cube (`BoundingBox::getDistance`): exact outside, the deepest face
    /// distance inside.
    fn box_distance(&self, p: [f32; 3]) -> f32 {
        let (c, s) = (self.center(), self.size());
        let q: [f32; 3] = core::array::from_fn(|i| (p[i] - c[i]).abs() - 0.5 * s[i]);
        glm::length(q.map(|v| glm::max(v, 0.0)))
            + glm::min(glm::max(q[0], glm::max(q[1], q[2])), 0.0)
    }

    /// SdfLib's gradient of the cube distance (`BoundingBox::getDistance` with a gradient),
    /// which measures from the origin rather than the centre; components it does not set are 0.
    fn box_gradient(&self, p: [f32; 3]) -> [f32; 3] {
        let s = self.size();
        let a: [f32; 3] = core::array::from_fn(|i| p[i].abs() - s[i]);
        let k = if a[0] > a[1] { 0 } else { 1 };
        let l = if a[2] > a[k] { 2 } else { k };
        let mut g = [0.0; 3];
        if a[l] < 0.0 {
            g[l] = p[l] / p[l].abs();
        } else {
            let b = a.map(|v| glm::max(v, 0.0));
            let c = glm::length(b);
            for i in 0..3 {
                g[i] = if a[i] > 0.0 {
                    b[i] / c * p[i] / p[i].abs()
                } else {
                    0.0
                };
            }
        }
        g
    }

    /// The coefficients of the leaf holding `sample` and the point's coordinates in that leaf,
    /// or `None` when the point is outside the start grid (or the tree is malformed).
    fn leaf(&self, sample: [f32; 3]) -> Option<([f32; NUM_COEFFICIENTS], [f32; 3])> {
        let mut frac: [f32; 3] =
            core::array::from_fn(|i| (sample[i] - self.min[i]) / self.start_grid_cell_size);
        let cell = frac.map(|v| libm::floorf(v) as i32);
        frac = frac.map(glm::fract);
        let n = self.start_grid_size;
        if cell.iter().any(|&c| c < 0 || c >= n) {
            return None;
        }
        let start = (cell[2] * n * n + cell[1] * n + cell[0]) as usize;
        let mut node = *self.nodes.get(start)?;
        while node & IS_LEAF == 0 {
            let child = (u32::from(frac[2] >= 0.5) << 2)
                + (u32::from(frac[1] >= 0.5) << 1)
                + u32::from(frac[0] >= 0.5);
            node = *self.nodes.get(((node & CHILDREN_INDEX) + child) as usize)?;
            frac = frac.map(|v| glm::fract(2.0 * v));
        }
        Some((leaf_coefficients(self.nodes, node & CHILDREN_INDEX)?, frac))
    }

    /// `OctreeSdf::getDistance`: the leaf polynomial inside the start grid, else the cube
    /// distance plus the smallest border value. NaN for a malformed tree.
    pub fn distance(&self, sample: [f32; 3]) -> f32 {
        match self.leaf(sample) {
            Some((c, f)) => interpolate_value(&c, f),
            None if self.inside_grid(sample) => f32::NAN,
            None => self.box_distance(sample) + self.min_border_value,
        }
    }

    /// `OctreeSdf::getDistance` with the gradient: the normalized polynomial gradient (in cell
    /// coordinates, as SdfLib) and the distance.
    pub fn distance_gradient(&self, sample: [f32; 3]) -> (f32, [f32; 3]) {
        match self.leaf(sample) {
            Some((c, f)) => (
                interpolate_value(&c, f),
                glm::normalize(interpolate_gradient(&c, f)),
            ),
            None if self.inside_grid(sample) => (f32::NAN, [0.0; 3]),
            None => (
                self.box_distance(sample) + self.min_border_value,
                self.box_gradient(sample),
            ),
        }
    }

    /// Whether `sample` falls in a start-grid cell (then a failed lookup means a bad tree).
    fn inside_grid(&self, sample: [f32; 3]) -> bool {
        (0..3).all(|i| {
            let c = libm::floorf((sample[i] - self.min[i]) / self.start_grid_cell_size) as i32;
            (0..self.start_grid_size).contains(&c)
        })
    }

    /// MuJoCo's `boxProjection`: for a point outside the cube, its distance to the cube, and
    /// the point moved just inside (1e-6 past each face it is beyond); for a point inside, the
    /// largest (non-positive) face distance, the point unchanged.
    fn box_projection(&self, point: &mut [f32; 3]) -> Real {
        let (c, s) = (self.center(), self.size());
        let r: [f32; 3] = core::array::from_fn(|i| point[i] - c[i]);
        let q: [f32; 3] = core::array::from_fn(|i| r[i].abs() - 0.5 * s[i]);
        if q.iter().all(|&v| v <= 0.0) {
            return Real::from(glm::max(q[0], glm::max(q[1], q[2])));
        }
        const EPS: Real = 1e-6;
        let mut dist_sqr: Real = 0.0;
        for i in 0..3 {
            if q[i] >= 0.0 {
                dist_sqr += Real::from(q[i] * q[i]);
                let step = Real::from(q[i]) + EPS;
                let moved = if r[i] > 0.0 { step } else { -step };
                point[i] = (Real::from(point[i]) - moved) as f32;
            }
        }
        crate::math::scalar::sqrt(dist_sqr)
    }

    /// The plugin's distance (`SdfLib::Distance`): the octree at the point projected into the
    /// cube, plus the distance of the projection.
    #[allow(clippy::unnecessary_cast)] // Real is f32 in the f32 build
    pub fn plugin_distance(&self, p: &[Real; 3]) -> Real {
        let mut point = p.map(|v| v as f32);
        let box_distance = self.box_projection(&mut point);
        let inside = Real::from(self.distance(point));
        inside
            + if box_distance <= 0.0 {
                0.0
            } else {
                box_distance
            }
    }

    /// The plugin's gradient (`SdfLib::Gradient`): the octree's inside the cube, forward
    /// differences of [`OctreeSdf::plugin_distance`] outside.
    #[allow(clippy::unnecessary_cast)] // Real is f32 in the f32 build
    pub fn plugin_gradient(&self, p: &[Real; 3]) -> [Real; 3] {
        let mut point = p.map(|v| v as f32);
        if self.box_projection(&mut point) <= 0.0 {
            return self.distance_gradient(point).1.map(Real::from);
        }
        super::forward_difference(|x| self.plugin_distance(x), p)
    }
}

#[cfg(test)]
mod tests {
    use super::super::GRADIENT_STEP;
    use super::*;

    #[test]
    fn the_step_of_the_differences_is_mujocos() {
        // MuJoCo's plugin differences with 1e-8 in double precision
        if core::mem::size_of::<Real>() == 8 {
            assert_eq!(GRADIENT_STEP, 1e-8);
        }
    }

    /// A one-cell tree whose single leaf is the polynomial `x + 2y + 3z` (in cell coordinates).
    fn linear() -> [u32; 1 + NUM_COEFFICIENTS] {
        let mut nodes = [0u32; 1 + NUM_COEFFICIENTS];
        nodes[0] = IS_LEAF | 1;
        let mut c = [0.0f32; NUM_COEFFICIENTS];
        c[1] = 1.0; // x
        c[4] = 2.0; // y
        c[16] = 3.0; // z
        for (w, v) in nodes[1..].iter_mut().zip(c) {
            *w = v.to_bits();
        }
        nodes
    }

    #[test]
    fn a_leaf_polynomial_and_its_gradient() {
        let nodes = linear();
        let t = OctreeSdf {
            min: [0.0; 3],
            max: [2.0; 3],
            start_grid_size: 1,
            start_grid_cell_size: 2.0,
            min_border_value: 0.5,
            nodes: &nodes,
        };
        assert_eq!(t.distance([1.0, 1.0, 1.0]), 0.5 + 1.0 + 1.5);
        let (d, g) = t.distance_gradient([0.5, 0.5, 0.5]);
        assert_eq!(d, 0.25 + 0.5 + 0.75);
        let n = libm::sqrtf(14.0);
        assert!((g[0] - 1.0 / n).abs() < 1e-6 && (g[2] - 3.0 / n).abs() < 1e-6);
        // outside the cube: the cube's distance plus the border value
        assert_eq!(t.distance([3.0, 1.0, 1.0]), 1.0 + 0.5);
        // the plugin projects onto the cube and adds the distance of the projection
        let outside = t.plugin_distance(&[3.0, 1.0, 1.0]);
        // (x + 2y + 3z at the cell coordinates (1, 0.5, 0.5), plus 1 beyond the face)
        assert!(
            (outside - (1.0 + 1.0 + 1.5 + 1.0)).abs() < 1e-5,
            "{outside}"
        );
        // outside, forward differences of values computed in single precision: MuJoCo's step
        // of 1e-8 does not move the point's f32 coordinates, so the gradient there is 0
        let g = t.plugin_gradient(&[3.0, 1.0, 1.0]);
        if core::mem::size_of::<Real>() == 8 {
            assert_eq!(g, [0.0; 3]);
        } else {
            assert!((g[0] - 1.0).abs() < 1e-2, "{g:?}");
        }
        // inside, the normalized polynomial gradient
        let g = t.plugin_gradient(&[0.5, 0.5, 0.5]);
        assert!((g[1] - Real::from(2.0 / n)).abs() < 1e-6, "{g:?}");
    }

    #[test]
    fn a_malformed_tree_gives_nan_not_a_panic() {
        let nodes = [IS_LEAF | 7u32];
        let t = OctreeSdf {
            min: [0.0; 3],
            max: [1.0; 3],
            start_grid_size: 1,
            start_grid_cell_size: 1.0,
            min_border_value: 0.0,
            nodes: &nodes,
        };
        assert!(t.distance([0.5; 3]).is_nan());
        assert!(t.distance_gradient([0.5; 3]).0.is_nan());
    }
}
