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
//! Only the queries are here: building the octree from a mesh (SdfLib's breadth-first
//! construction with the continuity rule) is not implemented yet, so the plugin itself is not
//! registered and models that use it are refused.

use crate::real::Real;

/// Leaf flag of a node (`OctreeNode::IS_LEAF_MASK`).
const IS_LEAF: u32 = 1 << 31;
/// The bits of a node that index its children or its coefficients.
const CHILDREN_INDEX: u32 = !(IS_LEAF | (1 << 30));
/// Coefficients of a leaf's tricubic polynomial (`TriCubicInterpolation::NUM_COEFFICIENTS`).
pub const NUM_COEFFICIENTS: usize = 64;

/// An SdfLib octree: a cube split into a start grid of `start_grid_size`³ cells, each the root
/// of a subtree. `nodes` holds, from index 0, the start grid (x fastest), then groups of 8
/// children and the 64 coefficients of every leaf (stored as `f32` bits); an inner node holds
/// the index of its first child, a leaf [`IS_LEAF`] and the index of its coefficients.
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

/// `glm::fract`.
fn fract(x: f32) -> f32 {
    x - libm::floorf(x)
}

/// `glm::max` of two floats.
fn fmax(a: f32, b: f32) -> f32 {
    if a < b {
        b
    } else {
        a
    }
}

/// `glm::min` of two floats.
fn fmin(a: f32, b: f32) -> f32 {
    if b < a {
        b
    } else {
        a
    }
}

/// `glm::dot` of two 3-vectors: the products summed left to right.
fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `glm::length`.
fn length(a: [f32; 3]) -> f32 {
    libm::sqrtf(dot(a, a))
}

/// `glm::normalize`: times the inverse square root, as glm computes it.
fn normalize(a: [f32; 3]) -> [f32; 3] {
    let inv = 1.0 / libm::sqrtf(dot(a, a));
    a.map(|x| x * inv)
}

/// The monomial `c * x^a * y^b * z^c`, multiplied in SdfLib's order: coefficient first, then
/// the powers of x, y and z one factor at a time.
fn monomial(c: f32, f: [f32; 3], powers: [usize; 3]) -> f32 {
    let mut t = c;
    for (axis, &n) in powers.iter().enumerate() {
        for _ in 0..n {
            t *= f[axis];
        }
    }
    t
}

/// Exponents of x, y and z of coefficient `k`: x fastest.
fn powers(k: usize) -> [usize; 3] {
    [k % 4, (k / 4) % 4, k / 16]
}

/// `TriCubicInterpolation::interpolateValue`: the polynomial at `f` (cell coordinates in
/// [0, 1]³), the 64 terms summed in order after a leading 0.
pub fn interpolate_value(c: &[f32; NUM_COEFFICIENTS], f: [f32; 3]) -> f32 {
    let mut sum = 0.0;
    for (k, &ck) in c.iter().enumerate() {
        sum += monomial(ck, f, powers(k));
    }
    sum
}

/// `TriCubicInterpolation::interpolateGradient`: the polynomial's derivatives along x, y and z
/// at `f`; each sum starts at its first term, which is `exponent * coefficient`.
pub fn interpolate_gradient(c: &[f32; NUM_COEFFICIENTS], f: [f32; 3]) -> [f32; 3] {
    core::array::from_fn(|axis| {
        let mut sum: Option<f32> = None;
        for (k, &ck) in c.iter().enumerate() {
            let mut p = powers(k);
            if p[axis] == 0 {
                continue;
            }
            let scale = p[axis] as f32;
            p[axis] -= 1;
            let t = monomial(scale * ck, f, p);
            sum = Some(sum.map_or(t, |s| s + t));
        }
        sum.unwrap_or(0.0)
    })
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
        length(q.map(|v| fmax(v, 0.0))) + fmin(fmax(q[0], fmax(q[1], q[2])), 0.0)
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
            let b = a.map(|v| fmax(v, 0.0));
            let c = length(b);
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
        frac = frac.map(fract);
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
            frac = frac.map(|v| fract(2.0 * v));
        }
        let first = (node & CHILDREN_INDEX) as usize;
        // SdfLib keeps the coefficients in the node array (a union of `u32` and `f32`)
        let words = self.nodes.get(first..first + NUM_COEFFICIENTS)?;
        let mut coefficients = [0.0; NUM_COEFFICIENTS];
        for (c, &w) in coefficients.iter_mut().zip(words) {
            *c = f32::from_bits(w);
        }
        Some((coefficients, frac))
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
                normalize(interpolate_gradient(&c, f)),
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
            return Real::from(fmax(q[0], fmax(q[1], q[2])));
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
