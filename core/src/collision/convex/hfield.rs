//! Height field against a convex geom (MuJoCo's `mjc_ConvexHField`): the geom is expressed in
//! the height field's frame, its bounding box picks the grid cells under it, and each cell's
//! two triangular prisms (from the base at `-size[3]` up to the surface raised by the margin)
//! are tested with MPR.

use super::mpr::{penetration, ConvexShape};
use super::normal::{fix_normal, PosedGeom};
use super::shape::GeomShape;
use super::{mpr_settings, set_normal};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::mat::{mul_mat_t_mat3, mul_mat_t_vec, rot_vec_mat};
use crate::math::scalar::{ceil, floor};
use crate::math::vec::{add_to3, sub3};
use crate::model::Model;
use crate::real::Real;
use crate::support::{v3, v9};
use crate::types::MAXCONPAIR;

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
        self.v[3][2] < z && self.v[4][2] < z && self.v[5][2] < z
    }
}

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
            let p = dot(&self.v[i]);
            if p > best_dot {
                best = i;
                best_dot = p;
            }
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
    let [xmin, xmax, ymin, ymax, zmin, zmax] = bounds;
    if xmin - margin > size[0]
        || xmax + margin < -size[0]
        || ymin - margin > size[1]
        || ymax + margin < -size[1]
        || zmin - margin > size[2]
        || zmax + margin < -size[3]
    {
        return Ok(0);
    }

    obj.margin = margin;
    let limit = MAXCONPAIR.min(con.len());
    let cnt = collide_prisms(m, &hfield, &mut obj, &bounds, margin, &mut con[..limit]);

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
        c.pos = rot_vec_mat(&c.pos, mat1);
        add_to3(&mut c.pos, pos1);
        let normal = rot_vec_mat(&[c.frame[0], c.frame[1], c.frame[2]], mat1);
        set_normal(c, &normal);
        fix_normal(m, c, posed);
    }
    Ok(cnt)
}

/// A height field's grid: size `[x, y, z_top, z_bottom]` and elevations in `[0, 1]`, row major.
struct HField<'m> {
    size: [Real; 4],
    nrow: usize,
    ncol: usize,
    data: &'m [f32],
}

impl<'m> HField<'m> {
    /// The height field of geom `g` (the validator guarantees `nrow, ncol >= 2` and that
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

    /// Grid index range `[lo, hi]` covering `[min, max]` on an axis of half size `half` with
    /// `n` grid points; `lo >= 0` and `hi <= n - 1` (an empty range when the span misses the
    /// grid).
    fn cover(min: Real, max: Real, half: Real, n: usize) -> (i64, i64) {
        let steps = (n - 1) as Real;
        // float-to-int casts saturate (NaN gives 0)
        let lo = floor((min + half) / (2.0 * half) * steps) as i64;
        let hi = ceil((max + half) / (2.0 * half) * steps) as i64;
        (lo.max(0), hi.min(n as i64 - 1))
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

/// MPR of every prism of the grid cells under `bounds` against `obj` (both in the height
/// field's frame); contacts in that frame. Stops when `con` is full. Returns the count.
fn collide_prisms(
    m: &Model,
    hf: &HField,
    obj: &mut GeomShape,
    bounds: &[Real; 6],
    margin: Real,
    con: &mut [Contact],
) -> usize {
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
