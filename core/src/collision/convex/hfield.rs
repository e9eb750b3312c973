//! Height field against a convex geom (MuJoCo's `mjc_ConvexHField`) or a flex element
//! (`mjc_HFieldElem`): the other shape is expressed in the height field's frame, its bounding
//! box picks the grid cells under it, and each cell's two triangular prisms (from the base at
//! `-size[3]` up to the surface raised by the margin) are tested with MPR.

use super::mpr::{penetration, ConvexShape};
use super::normal::{fix_normal, PosedGeom};
use super::shape::{elem_vertices, flex_vertices, FlexShape, GeomShape};
use super::{mpr_settings, set_normal};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::mat::{mul_mat_t_mat3, mul_mat_t_vec, rot_vec_mat};
use crate::math::misc::{c_int, max, min};
use crate::math::scalar::{ceil, floor};
use crate::math::vec::{add_to3, sub3};
use crate::model::Model;
use crate::real::Real;
use crate::support::{v3, v9};
use crate::types::{GEOM_CAPSULE, GEOM_SPHERE, MAXCONPAIR};

/// A triangular prism of the height field (`mjtPrism`): vertices 0-2 on the base, 3-5 on the
/// surface above them, in the height field's frame.
#[derive(Clone, Copy, Debug, Default)]
struct Prism {
    v: [[Real; 3]; 6],
}

impl Prism {
    /// Shifts in a new grid point (`addVert`): the oldest base and surface vertices drop out.
    fn push(&mut self, x: Real, y: Real, z: Real) {
        self.v[0] = self.v[1];
        self.v[1] = self.v[2];
        self.v[3] = self.v[4];
        self.v[4] = self.v[5];
        self.v[2][0] = x;
        self.v[2][1] = y;
        self.v[5] = [x, y, z];
    }

    /// Whether the whole surface triangle is below `z`.
    fn top_below(&self, z: Real) -> bool {
        // without short-circuits: the outcome varies from prism to prism
        (self.v[3][2] < z) & (self.v[4][2] < z) & (self.v[5][2] < z)
    }
}

#[cfg(feature = "fast")]
impl Prism {
    /// Whether `obj` lies wholly above the plane of the surface triangle, by more than `margin`
    /// (which the surface already includes) and a rounding allowance. The prism lies below that
    /// plane (its base is under the surface), so MPR would find no contact: the fast build skips
    /// it for one support point instead of an MPR run (the terrain's geoms missed two thirds of
    /// the prisms under their boxes).
    fn above_surface(&self, obj: &mut impl ConvexShape, margin: Real) -> bool {
        use crate::math::vec::{cross, dot3, normalize3};
        let [a, b, c] = [self.v[3], self.v[4], self.v[5]];
        let mut n = cross(&sub3(&b, &a), &sub3(&c, &a));
        let len = normalize3(&mut n);
        if len.is_nan() || len < crate::real::MINVAL {
            return false;
        }
        // upward
        if n[2] < 0.0 {
            n = n.map(|x| -x);
        }
        let lowest = obj.support(&n.map(|x| -x));
        let gap = dot3(&n, &sub3(&lowest, &a));
        gap > margin + ABOVE_TOLERANCE * (1.0 + crate::math::scalar::abs(a[2]))
    }
}

/// Rounding allowance of [`Prism::above_surface`], relative to the surface's height.
#[cfg(feature = "fast")]
const ABOVE_TOLERANCE: Real = 1e-9;

impl ConvexShape for Prism {
    /// `prism_center`: the mean of the six vertices.
    fn center(&self) -> [Real; 3] {
        let mut c = [0.0; 3];
        for v in &self.v {
            add_to3(&mut c, v);
        }
        c.map(|x| x * (1.0 / 6.0))
    }

    /// `prism_support`: the best of the base (downward) or surface (upward) vertices.
    fn support(&mut self, dir: &[Real; 3]) -> [Real; 3] {
        let start = if dir[2] < 0.0 { 0 } else { 3 };
        let dot = |v: &[Real; 3]| v[0] * dir[0] + v[1] * dir[1] + v[2] * dir[2];
        let mut best = start;
        let mut best_dot = dot(&self.v[start]);
        for i in start + 1..start + 3 {
            // selected without a branch: which vertex is best varies with the direction, and
            // the branch mispredicted (the quadruped's feet on its height field)
            let p = dot(&self.v[i]);
            let better = p > best_dot;
            best = core::hint::select_unpredictable(better, i, best);
            best_dot = core::hint::select_unpredictable(better, p, best_dot);
        }
        self.v[best]
    }
}

/// Height field `g1` against convex geom `g2` (`mjc_ConvexHField`): up to `mjMAXCONPAIR`
/// contacts, one per intersecting prism, with normals fixed for smooth geoms.
pub fn convex_hfield(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> Result<usize, StepError> {
    let (pos1, mat1) = (&v3(d.geom_xpos)[g1], &v9(d.geom_xmat)[g1]);
    let hfield = HField::of_geom(m, g1);
    let size = &hfield.size;

    // geom 2's position in the height field frame, against its bounding sphere
    let mut pos = [0.0; 3];
    mul_mat_t_vec(&mut pos, mat1, &sub3(&v3(d.geom_xpos)[g2], pos1), 3, 3);
    let r2 = m.geom_rbound[g2];
    for i in 0..2 {
        if size[i] < pos[i] - r2 - margin || -size[i] > pos[i] + r2 + margin {
            return Ok(0);
        }
    }
    if size[2] < pos[2] - r2 - margin || -size[3] > pos[2] + r2 + margin {
        return Ok(0);
    }

    // geom 2 in the height field frame, against its bounding box
    let mut obj = GeomShape::new(m, d, g2, 0.0);
    obj.pos = pos;
    obj.mat = mul_mat_t_mat3(mat1, &v9(d.geom_xmat)[g2]);
    let bounds = local_aabb(&mut obj);
    if hfield.misses(&bounds, margin) {
        return Ok(0);
    }

    obj.margin = margin;
    let limit = MAXCONPAIR.min(con.len());
    // (the fast build's cull of prisms below the geom pays where MPR is dear: not for spheres
    // and capsules, whose misses MPR finds in a few support points; the quadruped's feet lost 3%)
    let cull = !matches!(m.geom_type[g2], GEOM_SPHERE | GEOM_CAPSULE);
    let cnt = collide_prisms(
        m,
        &hfield,
        &mut obj,
        &bounds,
        margin,
        cull,
        &mut con[..limit],
    );

    // back to the global frame for the normals
    let posed = [
        PosedGeom {
            geom: g1,
            pos: pos1,
            mat: mat1,
        },
        PosedGeom {
            geom: g2,
            pos: &v3(d.geom_xpos)[g2],
            mat: &v9(d.geom_xmat)[g2],
        },
    ];
    for c in &mut con[..cnt] {
        to_global(c, pos1, mat1);
        fix_normal(m, c, posed);
    }
    Ok(cnt)
}

/// Height field `g` against element `e` of flex `f` (`mjc_HFieldElem`): up to `mjMAXCONPAIR`
/// contacts, one per intersecting prism. Unlike a geom's, the element's bounding box (which
/// picks the grid cells and skips prisms below it) spans its vertices without the flex radius,
/// and the normals are left as MPR finds them.
pub(crate) fn hfield_elem(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g: usize,
    (f, e): (usize, usize),
    margin: Real,
) -> usize {
    let (hpos, hmat) = (&v3(d.geom_xpos)[g], &v9(d.geom_xmat)[g]);
    let hfield = HField::of_geom(m, g);
    let to_local = |p: &[Real; 3]| {
        let mut local = [0.0; 3];
        mul_mat_t_vec(&mut local, hmat, &sub3(p, hpos), 3, 3);
        local
    };

    // the element's vertices and box center in the height field frame
    let ids = elem_vertices(m, f, e);
    let vert = flex_vertices(m, d, f);
    let mut local = [[0.0; 3]; 4];
    for (l, &i) in local.iter_mut().zip(ids) {
        *l = to_local(&vert[i as usize]);
    }
    // dim + 1 <= 4 vertices (validated)
    let local = &local[..ids.len().min(4)];
    let aabb = &d.flexelem_aabb[6 * (m.flex_elemadr[f] as usize + e)..];
    let center = to_local(&[aabb[0], aabb[1], aabb[2]]);

    let bounds = vertex_bounds(local);
    if hfield.misses(&bounds, margin) {
        return 0;
    }
    let mut obj = FlexShape::posed(local, center, m.flex_radius[f], margin);
    let limit = MAXCONPAIR.min(con.len());
    let cnt = collide_prisms(
        m,
        &hfield,
        &mut obj,
        &bounds,
        margin,
        false,
        &mut con[..limit],
    );
    for c in &mut con[..cnt] {
        to_global(c, hpos, hmat);
    }
    cnt
}

/// Moves a contact found in the height field's frame (at `pos` with orientation `mat`) to the
/// global frame.
fn to_global(c: &mut Contact, pos: &[Real; 3], mat: &[Real; 9]) {
    c.pos = rot_vec_mat(&c.pos, mat);
    add_to3(&mut c.pos, pos);
    let normal = rot_vec_mat(&[c.frame[0], c.frame[1], c.frame[2]], mat);
    set_normal(c, &normal);
}

/// A height field's grid: size `[x, y, z_top, z_bottom]` and elevations in `[0, 1]`, row major.
struct HField<'m> {
    size: [Real; 4],
    nrow: usize,
    ncol: usize,
    data: &'m [f32],
}

impl<'m> HField<'m> {
    /// The height field of geom `g` (the validator guarantees `nrow, ncol >= 1` and that
    /// `nrow * ncol` elevations are inside `hfield_data`).
    fn of_geom(m: &'m Model<'m>, g: usize) -> Self {
        let h = m.geom_dataid[g] as usize;
        let (nrow, ncol) = (m.hfield_nrow[h] as usize, m.hfield_ncol[h] as usize);
        let adr = m.hfield_adr[h] as usize;
        let s = &m.hfield_size[4 * h..4 * h + 4];
        Self {
            size: [s[0], s[1], s[2], s[3]],
            nrow,
            ncol,
            data: &m.hfield_data[adr..adr + nrow * ncol],
        }
    }

    /// Whether the box `[xmin, xmax, ymin, ymax, zmin, zmax]` (in the height field's frame),
    /// grown by `margin`, misses the height field's box.
    fn misses(&self, bounds: &[Real; 6], margin: Real) -> bool {
        let [xmin, xmax, ymin, ymax, zmin, zmax] = *bounds;
        let size = &self.size;
        xmin - margin > size[0]
            || xmax + margin < -size[0]
            || ymin - margin > size[1]
            || ymax + margin < -size[1]
            || zmin - margin > size[2]
            || zmax + margin < -size[3]
    }

    /// Grid index range `[lo, hi]` covering `[min, max]` on an axis of half size `half` with
    /// `n` grid points; `lo >= 0` and `hi <= n - 1` (an empty range when the span misses the
    /// grid).
    #[allow(clippy::useless_conversion)] // Real is f32 in the f32 build
    fn cover(min: Real, max: Real, half: Real, n: usize) -> (i64, i64) {
        let steps = (n - 1) as Real;
        // MuJoCo's (int) casts: a NaN or a span past 2^31 cells gives INT_MIN, so an empty range
        let lo = c_int(f64::from(floor((min + half) / (2.0 * half) * steps)));
        let hi = c_int(f64::from(ceil((max + half) / (2.0 * half) * steps)));
        (i64::from(lo).max(0), i64::from(hi).min(n as i64 - 1))
    }
}

/// Bounding box `[xmin, xmax, ymin, ymax, zmin, zmax]` of a shape from its support points
/// along the axes.
fn local_aabb(obj: &mut GeomShape) -> [Real; 6] {
    let mut b = [0.0; 6];
    for axis in 0..3 {
        let mut dir = [0.0; 3];
        dir[axis] = 1.0;
        b[2 * axis + 1] = obj.support(&dir)[axis];
        dir[axis] = -1.0;
        b[2 * axis] = obj.support(&dir)[axis];
    }
    b
}

/// Bounding box `[xmin, xmax, ymin, ymax, zmin, zmax]` of points (at least one), with
/// `mju_min`'s and `mju_max`'s handling of NaN.
fn vertex_bounds(points: &[[Real; 3]]) -> [Real; 6] {
    let first = points[0];
    let mut b = [first[0], first[0], first[1], first[1], first[2], first[2]];
    for p in &points[1..] {
        for axis in 0..3 {
            b[2 * axis] = min(b[2 * axis], p[axis]);
            b[2 * axis + 1] = max(b[2 * axis + 1], p[axis]);
        }
    }
    b
}

/// MPR of every prism of the grid cells under `bounds` against `obj` (both in the height
/// field's frame); contacts in that frame. Stops when `con` is full. Returns the count. With
/// `cull`, the fast build first skips the prisms whose surface `obj` lies wholly above.
fn collide_prisms(
    m: &Model,
    hf: &HField,
    obj: &mut impl ConvexShape,
    bounds: &[Real; 6],
    margin: Real,
    cull: bool,
    con: &mut [Contact],
) -> usize {
    #[cfg(not(feature = "fast"))]
    let _ = cull;
    let size = &hf.size;
    let (cmin, cmax) = HField::cover(bounds[0], bounds[1], size[0], hf.ncol);
    let (rmin, rmax) = HField::cover(bounds[2], bounds[3], size[1], hf.nrow);
    let zmin = bounds[4];
    let settings = mpr_settings(m);
    let dx = (2.0 * size[0]) / (hf.ncol - 1) as Real;
    let dy = (2.0 * size[1]) / (hf.nrow - 1) as Real;

    let mut prism = Prism::default();
    for v in &mut prism.v[..3] {
        v[2] = -size[3];
    }
    let mut cnt = 0;
    // within the grid: 0 <= rmin, r + 1 <= rmax <= nrow - 1, 0 <= cmin, cmax <= ncol - 1
    for r in rmin..rmax {
        let mut nvert = 0;
        for c in cmin..=cmax {
            let c = c as usize;
            // the upper row first, then the lower: two triangles per cell
            for row in [r as usize + 1, r as usize] {
                let z = Real::from(hf.data[row * hf.ncol + c]) * size[2] + margin;
                prism.push(dx * c as Real - size[0], dy * row as Real - size[1], z);
                nvert += 1;
                if nvert <= 2 || prism.top_below(zmin) {
                    continue;
                }
                #[cfg(feature = "fast")]
                if cull && prism.above_surface(obj, margin) {
                    continue;
                }
                let Some(p) = penetration(&mut prism, obj, &settings) else {
                    continue;
                };
                if super::mpr::is_origin(&p.dir) {
                    continue;
                }
                let Some(slot) = con.get_mut(cnt) else {
                    return cnt;
                };
                slot.dist = -p.depth;
                slot.pos = p.pos;
                set_normal(slot, &p.dir);
                cnt += 1;
                if cnt >= con.len() {
                    return cnt;
                }
            }
        }
    }
    cnt
}
