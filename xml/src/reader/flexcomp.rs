//! `flexcomp` (`mjCFlexcomp::Make`, `user_flexcomp.cc`): a flex made from a grid, a box,
//! cylinder or ellipsoid surface, a square or disc, a mesh or gmsh file, or points and elements
//! given directly; with a body (and slider joints) per free vertex, the pinned vertices in the
//! parent body, and optionally an equality keeping the edge lengths.

use mjrs_core::math::quat::rot_vec_quat;
use mjrs_core::types::{EQ_FLEX, JNT_SLIDE, NIMP, NREF};

use super::Reader;
use crate::limits;
use crate::spec::{Body, Equality, Flex, Orientation, PluginRef, SOLIMP_DEFAULT, SOLREF_DEFAULT};
use crate::util::{cube_tetrahedra, normvec, EPS, MINVAL};

pub(super) const GRID: i32 = 0;
pub(super) const BOX: i32 = 1;
pub(super) const CYLINDER: i32 = 2;
pub(super) const ELLIPSOID: i32 = 3;
pub(super) const SQUARE: i32 = 4;
pub(super) const DISC: i32 = 5;
pub(super) const MESH: i32 = 6;
pub(super) const GMSH: i32 = 7;
pub(super) const DIRECT: i32 = 8;

/// A flexcomp as read (`mjCFlexcomp`), before it is made.
#[derive(Clone, Debug)]
pub(crate) struct Flexcomp {
    pub name: String,
    pub ftype: i32,
    pub count: [i32; 3],
    pub spacing: [f64; 3],
    pub scale: [f64; 3],
    pub mass: f64,
    pub inertiabox: f64,
    pub equality: bool,
    pub eq_solref: [f64; NREF],
    pub eq_solimp: [f64; NIMP],
    pub pos: [f64; 3],
    pub quat: [f64; 4],
    pub alt: Orientation,
    pub rigid: bool,
    pub point: Vec<f64>,
    pub element: Vec<i32>,
    pub texcoord: Vec<f32>,
    pub pinid: Vec<i32>,
    pub pinrange: Vec<i32>,
    pub pingrid: Vec<i32>,
    pub pingridrange: Vec<i32>,
    pub file: String,
    pub plugin: Option<PluginRef>,
    /// The flex's own attributes (the flexcomp's default class).
    pub flex: Flex,
}

impl Default for Flexcomp {
    fn default() -> Self {
        Self {
            name: String::new(),
            ftype: GRID,
            count: [10, 10, 10],
            spacing: [0.02; 3],
            scale: [1.0; 3],
            mass: 1.0,
            inertiabox: 0.005,
            equality: false,
            eq_solref: SOLREF_DEFAULT,
            eq_solimp: SOLIMP_DEFAULT,
            pos: [0.0; 3],
            quat: [1.0, 0.0, 0.0, 0.0],
            alt: Orientation::default(),
            rigid: false,
            point: Vec::new(),
            element: Vec::new(),
            texcoord: Vec::new(),
            pinid: Vec::new(),
            pinrange: Vec::new(),
            pingrid: Vec::new(),
            pingridrange: Vec::new(),
            file: String::new(),
            plugin: None,
            flex: Flex::default(),
        }
    }
}

/// Refuses generated shapes whose points (or elements: at most 24 ids per point, for the six
/// tetrahedra of a 3D grid cell) would not fit in one buffer.
fn check_points(npnt: i64) -> Result<usize, String> {
    let n = usize::try_from(npnt).map_err(|_| "Count too small".to_string())?;
    limits::check(n, 3 * size_of::<f64>(), "flexcomp points")?;
    limits::check(n, 24 * size_of::<i32>(), "flexcomp elements")?;
    Ok(n)
}

impl Flexcomp {
    fn radial(&self) -> bool {
        matches!(self.ftype, BOX | CYLINDER | ELLIPSOID)
    }

    fn direct(&self) -> bool {
        matches!(self.ftype, DIRECT | MESH | GMSH)
    }

    /// `GridID`: the point of grid coordinates `c` (2 or 3 of them).
    fn grid_id(&self, c: &[i32]) -> usize {
        let [_, n1, n2] = self.count.map(i64::from);
        let id = if c.len() == 2 {
            i64::from(c[0]) * n1 + i64::from(c[1])
        } else {
            i64::from(c[0]) * n1 * n2 + i64::from(c[1]) * n2 + i64::from(c[2])
        };
        id as usize
    }

    /// `MakeGrid`.
    fn make_grid(&mut self) -> Result<(), String> {
        let [c0, c1, c2] = self.count;
        let dim = self.flex.dim;
        let sp = self.spacing;
        let coord = |i: i32, n: i32, s: f64| s * (f64::from(i) - 0.5 * f64::from(n - 1));
        let npnt = match dim {
            1 => i64::from(c0),
            2 => i64::from(c0) * i64::from(c1),
            _ => i64::from(c0) * i64::from(c1) * i64::from(c2),
        };
        let n = check_points(npnt)?;
        limits::reserve(&mut self.point, 3 * n, "flexcomp points")?;
        // MuJoCo adds texture coordinates only when some were given (and after them)
        let addtex = !self.texcoord.is_empty();
        if dim == 1 {
            for ix in 0..c0 {
                self.point.extend([coord(ix, c0, sp[0]), 0.0, 0.0]);
                if ix < c0 - 1 {
                    self.element.extend([ix, ix + 1]);
                }
            }
        } else if dim == 2 {
            let id = |ix: i32, iy: i32| c2.wrapping_mul(c1).wrapping_mul(ix) + c2.wrapping_mul(iy);
            for ix in 0..c0 {
                for iy in 0..c1 {
                    let mut quad2tri = [[0, 1, 2], [0, 2, 3]];
                    let p = [coord(ix, c0, sp[0]), coord(iy, c1, sp[1])];
                    self.point.extend([p[0], p[1], 0.0]);
                    if addtex {
                        self.texcoord
                            .push((f64::from(ix) / f64::from((c0 - 1).max(1))) as f32);
                        self.texcoord
                            .push((f64::from(iy) / f64::from((c1 - 1).max(1))) as f32);
                    }
                    // a disc's triangles are flipped in two quadrants, for its projection
                    if self.ftype == DISC
                        && ((p[0] < -EPS && p[1] > -EPS) || (p[0] > -EPS && p[1] < -EPS))
                    {
                        quad2tri[0][2] = 3;
                        quad2tri[1][0] = 1;
                    }
                    if ix < c0 - 1 && iy < c1 - 1 {
                        let v = [
                            id(ix, iy),
                            id(ix + 1, iy),
                            id(ix + 1, iy + 1),
                            id(ix, iy + 1),
                        ];
                        for tri in quad2tri {
                            self.element.extend(tri.map(|k| v[k]));
                        }
                    }
                }
            }
        } else {
            let id = |ix: i32, iy: i32, iz: i32| c2 * c1 * ix + c2 * iy + iz;
            for ix in 0..c0 {
                for iy in 0..c1 {
                    for iz in 0..c2 {
                        self.point.extend([
                            coord(ix, c0, sp[0]),
                            coord(iy, c1, sp[1]),
                            coord(iz, c2, sp[2]),
                        ]);
                        if ix < c0 - 1 && iy < c1 - 1 && iz < c2 - 1 {
                            let v = [
                                id(ix, iy, iz),
                                id(ix + 1, iy, iz),
                                id(ix + 1, iy + 1, iz),
                                id(ix, iy + 1, iz),
                                id(ix, iy, iz + 1),
                                id(ix + 1, iy, iz + 1),
                                id(ix + 1, iy + 1, iz + 1),
                                id(ix, iy + 1, iz + 1),
                            ];
                            for t in cube_tetrahedra(v) {
                                self.element.extend(t);
                            }
                        }
                    }
                }
            }
        }
        if self.element.is_empty() {
            return Err("No elements were created in grid".into());
        }
        Ok(())
    }

    /// `BoxID`: the point of a box surface's grid coordinates.
    fn box_id(&self, ix: i32, iy: i32, iz: i32) -> i32 {
        let [c0, c1, c2] = self.count;
        if iz == 0 {
            ix * c1 + iy + 1
        } else if iz == c2 - 1 {
            c0 * c1 + ix * c1 + iy + 1
        } else if iy == 0 {
            2 * c0 * c1 + ix * (c2 - 2) + iz
        } else if iy == c1 - 1 {
            2 * c0 * c1 + c0 * (c2 - 2) + ix * (c2 - 2) + iz
        } else if ix == 0 {
            2 * c0 * c1 + 2 * c0 * (c2 - 2) + (iy - 1) * (c2 - 2) + iz
        } else {
            2 * c0 * c1 + 2 * c0 * (c2 - 2) + (c1 - 2) * (c2 - 2) + (iy - 1) * (c2 - 2) + iz
        }
    }

    /// `BoxProject`: a box surface point projected on the flexcomp's shape.
    fn box_project(&self, ix: i32, iy: i32, iz: i32) -> [f64; 3] {
        let [c0, c1, c2] = self.count;
        let mut pos = [
            2.0 * f64::from(ix) / f64::from(c0 - 1) - 1.0,
            2.0 * f64::from(iy) / f64::from(c1 - 1) - 1.0,
            2.0 * f64::from(iz) / f64::from(c2 - 1) - 1.0,
        ];
        let size = [
            0.5 * self.spacing[0] * f64::from(c0 - 1),
            0.5 * self.spacing[1] * f64::from(c1 - 1),
            0.5 * self.spacing[2] * f64::from(c2 - 1),
        ];
        match self.ftype {
            BOX => {}
            CYLINDER => {
                let l0 = pos[0].abs().max(pos[1].abs());
                normvec(&mut pos[..2]);
                pos[0] *= l0;
                pos[1] *= l0;
            }
            _ => {
                normvec(&mut pos);
            }
        }
        [pos[0] * size[0], pos[1] * size[1], pos[2] * size[2]]
    }

    /// `MakeSquare`: a 2D grid, projected on a disc for `disc`.
    fn make_square(&mut self) -> Result<(), String> {
        self.flex.dim = 2;
        self.make_grid()?;
        if self.ftype == DISC {
            let size = [
                0.5 * self.spacing[0] * f64::from(self.count[0] - 1),
                0.5 * self.spacing[1] * f64::from(self.count[1] - 1),
            ];
            for p in self.point.chunks_exact_mut(3) {
                let l0 = p[0].abs().max(p[1].abs());
                normvec(&mut p[..2]);
                p[0] *= size[0] * l0;
                p[1] *= size[1] * l0;
            }
        }
        Ok(())
    }

    /// `MakeBox`: the surface points of a box, cylinder or ellipsoid and the center, with
    /// tetrahedra from each surface quad to the center.
    fn make_box(&mut self) -> Result<(), String> {
        self.flex.dim = 3;
        let [c0, c1, c2] = self.count;
        let npnt = 2 * i64::from(c0) * i64::from(c1)
            + 2 * i64::from(c0) * i64::from(c2)
            + 2 * i64::from(c1) * i64::from(c2)
            + 1;
        check_points(npnt)?;
        self.point.extend([0.0; 3]);
        // sides iz = 0 and iz = max
        for iz in [0, c2 - 1] {
            for ix in 0..c0 {
                for iy in 0..c1 {
                    let p = self.box_project(ix, iy, iz);
                    self.point.extend(p);
                    if ix < c0 - 1 && iy < c1 - 1 {
                        self.box_tets(
                            [ix, iy, iz],
                            [ix + 1, iy, iz],
                            [ix, iy + 1, iz],
                            [ix + 1, iy + 1, iz],
                        );
                    }
                }
            }
        }
        // sides iy = 0 and iy = max
        for iy in [0, c1 - 1] {
            for ix in 0..c0 {
                for iz in 0..c2 {
                    if iz > 0 && iz < c2 - 1 {
                        let p = self.box_project(ix, iy, iz);
                        self.point.extend(p);
                    }
                    if ix < c0 - 1 && iz < c2 - 1 {
                        self.box_tets(
                            [ix, iy, iz],
                            [ix + 1, iy, iz],
                            [ix, iy, iz + 1],
                            [ix + 1, iy, iz + 1],
                        );
                    }
                }
            }
        }
        // sides ix = 0 and ix = max
        for ix in [0, c0 - 1] {
            for iy in 0..c1 {
                for iz in 0..c2 {
                    if iz > 0 && iz < c2 - 1 && iy > 0 && iy < c1 - 1 {
                        let p = self.box_project(ix, iy, iz);
                        self.point.extend(p);
                    }
                    if iy < c1 - 1 && iz < c2 - 1 {
                        self.box_tets(
                            [ix, iy, iz],
                            [ix, iy + 1, iz],
                            [ix, iy, iz + 1],
                            [ix, iy + 1, iz + 1],
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// The two tetrahedra from the center to the surface quad `a`, `b`, `d` (diagonal), `c`.
    fn box_tets(&mut self, a: [i32; 3], b: [i32; 3], c: [i32; 3], d: [i32; 3]) {
        let id = |p: [i32; 3]| self.box_id(p[0], p[1], p[2]);
        let (a, b, c, d) = (id(a), id(b), id(c), id(d));
        self.element.extend([0, a, b, d, 0, a, c, d]);
    }

    /// The checks of `Make` before the points are made.
    fn check(&self) -> Result<(), String> {
        let dim = self.flex.dim;
        if !(1..=3).contains(&dim) {
            return Err("Invalid dim, must be between 1 and 3".into());
        }
        for &c in &self.count {
            if c < 1 || (self.radial() && c < 2 && dim == 3) {
                return Err("Count too small".into());
            }
        }
        let minspace = 2.0 * self.flex.radius + self.flex.margin;
        if !self.direct() && self.spacing.iter().any(|&s| s < minspace) {
            return Err("Spacing must be larger than geometry size".into());
        }
        if self.scale.iter().any(|&s| s < MINVAL) {
            return Err("Scale must be larger than mjMINVAL".into());
        }
        if self.mass < MINVAL || self.inertiabox < MINVAL {
            return Err("Mass and inertiabox must be larger than mjMINVAL".into());
        }
        Ok(())
    }

    /// The checks of the pins, points and elements, with the dimension given (`dim`), not
    /// the one a shape or file set.
    fn check_data(&self, dim: usize) -> Result<(), String> {
        if !self.pinrange.len().is_multiple_of(2) {
            return Err("Pin range number must be multiple of 2".into());
        }
        if !self.pingrid.len().is_multiple_of(dim) {
            return Err("Pin grid number must be multiple of dim".into());
        }
        if !self.pingridrange.len().is_multiple_of(2 * dim) {
            return Err("Pin grid range number of must be multiple of 2*dim".into());
        }
        let gridpins = !(self.pingrid.is_empty() && self.pingridrange.is_empty());
        if self.ftype != GRID && gridpins {
            return Err("Pin grid(range) can only be used with grid type".into());
        }
        if dim == 1 && gridpins {
            return Err("Pin grid(range) cannot be used with dim=1".into());
        }
        if self.point.is_empty() || self.element.is_empty() {
            return Err("Point and element required".into());
        }
        if !self.point.len().is_multiple_of(3) {
            return Err("Point size must be a multiple of 3".into());
        }
        if !self.element.len().is_multiple_of(dim + 1) {
            return Err("Element size must be a multiple of dim+1".into());
        }
        let npnt = self.point.len() / 3;
        for (i, &e) in self.element.iter().enumerate() {
            if e < 0 || e as usize >= npnt {
                return Err(format!(
                    "element {i} has point id {e}, number of points is {}",
                    npnt as i32
                ));
            }
        }
        Ok(())
    }

    /// The pinned points (`pinid`, `pinrange`, `pingrid`, `pingridrange`, the center of a
    /// radial shape); sets `rigid` when all are pinned. Returns the flags and whether none is.
    fn pins(&mut self, npnt: usize, dim: usize) -> Result<(Vec<bool>, bool), String> {
        let mut pinned = vec![self.rigid; npnt];
        if self.rigid {
            return Ok((pinned, false));
        }
        let inside = |i: i32| i >= 0 && (i as usize) < npnt;
        for &i in &self.pinid {
            if !inside(i) {
                return Err("pinid out of range".into());
            }
            pinned[i as usize] = true;
        }
        for r in self.pinrange.chunks_exact(2) {
            if !inside(r[0]) || !inside(r[1]) {
                return Err("pinrange out of range".into());
            }
            for k in r[0]..=r[1] {
                pinned[k as usize] = true;
            }
        }
        let ingrid = |v: &[i32]| {
            v.iter()
                .enumerate()
                .all(|(k, &c)| c >= 0 && c < self.count[k % dim])
        };
        for g in self.pingrid.chunks_exact(dim) {
            if !ingrid(g) {
                return Err("pingrid out of range".into());
            }
            pinned[self.grid_id(g)] = true;
        }
        for g in self.pingridrange.chunks_exact(2 * dim) {
            if !ingrid(g) {
                return Err("pingridrange out of range".into());
            }
            for ix in g[0]..=g[dim] {
                for iy in g[1]..=g[dim + 1] {
                    if dim == 2 {
                        pinned[self.grid_id(&[ix, iy])] = true;
                    } else {
                        for iz in g[2]..=g[5] {
                            pinned[self.grid_id(&[ix, iy, iz])] = true;
                        }
                    }
                }
            }
        }
        if self.radial() {
            pinned[0] = true;
        }
        let nopin = pinned.iter().all(|&p| !p);
        if pinned.iter().all(|&p| p) {
            self.rigid = true;
        }
        Ok((pinned, nopin))
    }

    /// The points the elements use; the elements renumbered without the others (direct
    /// types only: the generated shapes use every point).
    fn used_points(&mut self, npnt: usize) -> Vec<bool> {
        if !self.direct() {
            return vec![true; npnt];
        }
        let mut used = vec![false; npnt];
        for &e in &self.element {
            used[e as usize] = true;
        }
        let mut reindex = vec![0i32; npnt];
        let mut removed = 0;
        for i in 0..npnt {
            reindex[i] = -removed;
            if !used[i] {
                removed += 1;
            }
        }
        if removed > 0 {
            for e in &mut self.element {
                *e += reindex[*e as usize];
            }
        }
        used
    }
}

impl Reader<'_> {
    /// `mjCFlexcomp::Make`: the flex, the vertex bodies in `body` and the edge equality.
    pub(super) fn make_flexcomp(&mut self, mut fc: Flexcomp, body: usize) -> Result<(), String> {
        if self.spec.bodies[body].name.is_empty() {
            return Err("Parent body must have name".into());
        }
        fc.check()?;
        let dim = fc.flex.dim as usize;
        crate::compiler::orient::resolve(&mut fc.quat, self.spec.degree, &self.spec.euler, &fc.alt)
            .map_err(str::to_string)?;
        match fc.ftype {
            GRID => fc.make_grid()?,
            BOX | CYLINDER | ELLIPSOID => fc.make_box()?,
            SQUARE | DISC => fc.make_square()?,
            MESH => self.flexcomp_mesh(&mut fc)?,
            GMSH => self.flexcomp_gmsh(&mut fc)?,
            DIRECT => {}
            _ => return Err("Unknown flexcomp type".into()),
        }
        if matches!(fc.ftype, BOX | CYLINDER) || (fc.ftype == GRID && fc.flex.dim == 3) {
            fc.flex.flatskin = true;
        }
        fc.check_data(dim)?;
        let npnt = fc.point.len() / 3;
        if fc.direct() && fc.scale != [1.0; 3] {
            for p in fc.point.chunks_exact_mut(3) {
                for k in 0..3 {
                    p[k] *= fc.scale[k];
                }
            }
        }
        for p in fc.point.chunks_exact_mut(3) {
            let r = rot_vec_quat(&[p[0], p[1], p[2]], &fc.quat);
            for k in 0..3 {
                p[k] = r[k] + fc.pos[k];
            }
        }
        let (pinned, nopin) = fc.pins(npnt, dim)?;
        let centered = !fc.rigid && nopin;
        let used = fc.used_points(npnt);
        if !fc.rigid && !centered && used.iter().any(|&u| !u) {
            // MuJoCo 3.1.6 keeps such points among the vertices but gives them no body, and
            // reads past its list of vertex bodies
            return Err("points not used by any element need pins on every point or none".into());
        }
        self.add_flexcomp(fc, body, &pinned, &used, centered)
    }

    /// The flex, bodies and equality of a flexcomp whose points are final.
    fn add_flexcomp(
        &mut self,
        mut fc: Flexcomp,
        body: usize,
        pinned: &[bool],
        used: &[bool],
        centered: bool,
    ) -> Result<(), String> {
        let mut flex = fc.flex.clone();
        flex.info = Default::default();
        flex.name = fc.name.clone();
        flex.elem = std::mem::take(&mut fc.element);
        flex.texcoord = std::mem::take(&mut fc.texcoord);
        let parent = self.spec.bodies[body].name.clone();
        if fc.rigid {
            flex.vert = std::mem::take(&mut fc.point);
            flex.vertbody.push(parent);
            self.spec.flexes.push(flex);
            return Ok(());
        }
        let npnt = pinned.len();
        // a body per free point: the bodies must fit in one buffer as the points do
        limits::check(npnt, size_of::<Body>(), "flexcomp bodies")?;
        let bodymass = fc.mass / npnt as f64;
        let bodyinertia = bodymass * (2.0 * fc.inertiabox * fc.inertiabox) / 3.0;
        let plugin = fc.plugin.clone().inspect(|r| {
            if let Some(i) = r.implicit {
                if r.instance.is_empty() {
                    self.spec.plugins[i].name = format!("flexcomp_{}", fc.name);
                }
            }
        });
        let def = self.spec.bodies[body].default;
        for i in 0..npnt {
            if !used[i] {
                continue;
            }
            if pinned[i] {
                flex.vertbody.push(parent.clone());
                if plugin.is_some() {
                    self.spec.bodies[body].plugin = plugin.clone();
                }
                continue;
            }
            let id = self.spec.bodies.len();
            let mut b = Body::new(Some(body), def);
            b.name = format!("{}_{i}", fc.name);
            b.pos = [fc.point[3 * i], fc.point[3 * i + 1], fc.point[3 * i + 2]];
            b.ipos = [0.0; 3];
            b.mass = bodymass;
            b.inertia = [bodyinertia; 3];
            b.explicitinertial = true;
            b.plugin = plugin.clone();
            let axes: Vec<[f64; 3]> = if fc.radial() {
                let mut axis = b.pos;
                normvec(&mut axis);
                vec![axis]
            } else {
                vec![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
            };
            for axis in axes {
                let mut j = self.spec.defaults[def].joint.clone();
                j.classname = self.spec.defaults[def].name.clone();
                j.default = def;
                j.jtype = JNT_SLIDE;
                j.pos = [0.0; 3];
                j.axis = axis;
                b.joints.push(j);
            }
            flex.vertbody.push(b.name.clone());
            self.spec.bodies.push(b);
            self.spec.bodies[body].bodies.push(id);
            if !centered {
                fc.point[3 * i..3 * i + 3].fill(0.0);
            }
        }
        if !centered {
            flex.vert = std::mem::take(&mut fc.point);
        }
        self.spec.flexes.push(flex);
        self.flexcomp_equality(&fc);
        Ok(())
    }

    /// The flex equality of a flexcomp whose `edge` asks for one.
    fn flexcomp_equality(&mut self, fc: &Flexcomp) {
        if !fc.equality {
            return;
        }
        self.spec.equalities.push(Equality {
            classname: self.spec.defaults[0].name.clone(),
            etype: EQ_FLEX,
            active: true,
            name1: fc.name.clone(),
            solref: fc.eq_solref,
            solimp: fc.eq_solimp,
            ..Equality::default()
        });
    }
}
