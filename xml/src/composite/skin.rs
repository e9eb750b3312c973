//! Composite skins (`MakeSkin2`, `MakeSkin2Subgrid`, `MakeSkin3` and their bones): a
//! two-sided sheet over a 2D grid or a cable, optionally refined by bicubic subgrid weights,
//! or the surface of a 3D shell, each vertex bound to the bodies it follows.

use std::collections::BTreeMap;

use mjrs_core::math::mat::mul_mat_mat;

use super::{CompType, Maker, SkinOptions};
use crate::spec::Skin;

/// `subW`: bicubic coefficients from values and derivatives at the corners.
#[rustfmt::skip]
const SUB_W: [f64; 256] = [
    1., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.,
    0., 0., 0., 0., 0., 0., 0., 0., 1., 0., 0., 0., 0., 0., 0., 0.,
    -3., 0., 0., 3., 0., 0., 0., 0., -2., 0., 0., -1., 0., 0., 0., 0.,
    2., 0., 0., -2., 0., 0., 0., 0., 1., 0., 0., 1., 0., 0., 0., 0.,
    0., 0., 0., 0., 1., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.,
    0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 1., 0., 0., 0.,
    0., 0., 0., 0., -3., 0., 0., 3., 0., 0., 0., 0., -2., 0., 0., -1.,
    0., 0., 0., 0., 2., 0., 0., -2., 0., 0., 0., 0., 1., 0., 0., 1.,
    -3., 3., 0., 0., -2., -1., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.,
    0., 0., 0., 0., 0., 0., 0., 0., -3., 3., 0., 0., -2., -1., 0., 0.,
    9., -9., 9., -9., 6., 3., -3., -6., 6., -6., -3., 3., 4., 2., 1., 2.,
    -6., 6., -6., 6., -4., -2., 2., 4., -3., 3., 3., -3., -2., -1., -1., -2.,
    2., -2., 0., 0., 1., 1., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.,
    0., 0., 0., 0., 0., 0., 0., 0., 2., -2., 0., 0., 1., 1., 0., 0.,
    -6., 6., -6., 6., -3., -3., 3., 3., -4., 4., 2., -2., -2., -2., -1., -1.,
    4., -4., 4., -4., 2., 2., -2., -2., 2., -2., -2., 2., 1., 1., 1., 1.,
];

/// One row of a derivative stencil: (bone of the 4x4 neighbourhood, weight) pairs.
type Row = &'static [(usize, f64)];

/// The 16 rows of the stencils (`subDxy`) giving the values and derivatives at the four
/// corners of a square from its 4x4 neighbourhood; `[dx][dy]` by position in the grid (0: at
/// the low edge, 1: inside, 2: at the high edge). The value rows are the same everywhere.
#[rustfmt::skip]
const SUB_D: [[[Row; 12]; 3]; 3] = {
    // f_x rows
    const X_LOW: [Row; 4] = [&[(5, -1.), (9, 1.)], &[(5, -0.5), (13, 0.5)], &[(6, -0.5), (14, 0.5)], &[(6, -1.), (10, 1.)]];
    const X_MID: [Row; 4] = [&[(1, -0.5), (9, 0.5)], &[(5, -0.5), (13, 0.5)], &[(6, -0.5), (14, 0.5)], &[(2, -0.5), (10, 0.5)]];
    const X_HIGH: [Row; 4] = [&[(1, -0.5), (9, 0.5)], &[(5, -1.), (9, 1.)], &[(6, -1.), (10, 1.)], &[(2, -0.5), (10, 0.5)]];
    // f_y rows
    const Y_LOW: [Row; 4] = [&[(5, -1.), (6, 1.)], &[(9, -1.), (10, 1.)], &[(9, -0.5), (11, 0.5)], &[(5, -0.5), (7, 0.5)]];
    const Y_MID: [Row; 4] = [&[(4, -0.5), (6, 0.5)], &[(8, -0.5), (10, 0.5)], &[(9, -0.5), (11, 0.5)], &[(5, -0.5), (7, 0.5)]];
    const Y_HIGH: [Row; 4] = [&[(4, -0.5), (6, 0.5)], &[(8, -0.5), (10, 0.5)], &[(9, -1.), (10, 1.)], &[(5, -1.), (6, 1.)]];
    const fn cat(x: [Row; 4], y: [Row; 4]) -> [Row; 12] {
        [x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3], &[], &[], &[], &[]]
    }
    [
        [cat(X_LOW, Y_LOW), cat(X_LOW, Y_MID), cat(X_LOW, Y_HIGH)],
        [cat(X_MID, Y_LOW), cat(X_MID, Y_MID), cat(X_MID, Y_HIGH)],
        [cat(X_HIGH, Y_LOW), cat(X_HIGH, Y_MID), cat(X_HIGH, Y_HIGH)],
    ]
};

/// The f_xy rows of the stencils, `[dx][dy]`, each (bone, weight) in MuJoCo's order.
#[rustfmt::skip]
const SUB_DXY: [[[Row; 4]; 3]; 3] = [
    [
        [&[(9, -1.), (6, -1.), (5, 1.), (10, 1.)], &[(13, -0.5), (6, -0.5), (5, 0.5), (14, 0.5)],
         &[(13, -0.25), (7, -0.25), (5, 0.25), (15, 0.25)], &[(9, -0.5), (7, -0.5), (5, 0.5), (11, 0.5)]],
        [&[(8, -0.5), (6, -0.5), (4, 0.5), (10, 0.5)], &[(12, -0.25), (6, -0.25), (4, 0.25), (14, 0.25)],
         &[(13, -0.25), (7, -0.25), (5, 0.25), (15, 0.25)], &[(9, -0.5), (7, -0.5), (5, 0.5), (11, 0.5)]],
        [&[(8, -0.5), (6, -0.5), (4, 0.5), (10, 0.5)], &[(12, -0.25), (6, -0.25), (4, 0.25), (14, 0.25)],
         &[(13, -0.5), (6, -0.5), (5, 0.5), (14, 0.5)], &[(9, -1.), (6, -1.), (5, 1.), (10, 1.)]],
    ],
    [
        [&[(9, -0.5), (2, -0.5), (1, 0.5), (10, 0.5)], &[(13, -0.5), (6, -0.5), (5, 0.5), (14, 0.5)],
         &[(13, -0.25), (7, -0.25), (5, 0.25), (15, 0.25)], &[(9, -0.25), (3, -0.25), (1, 0.25), (11, 0.25)]],
        [&[(8, -0.25), (2, -0.25), (0, 0.25), (10, 0.25)], &[(12, -0.25), (6, -0.25), (4, 0.25), (14, 0.25)],
         &[(13, -0.25), (7, -0.25), (5, 0.25), (15, 0.25)], &[(9, -0.25), (3, -0.25), (1, 0.25), (11, 0.25)]],
        [&[(8, -0.25), (2, -0.25), (0, 0.25), (10, 0.25)], &[(12, -0.25), (6, -0.25), (4, 0.25), (14, 0.25)],
         &[(13, -0.5), (6, -0.5), (5, 0.5), (14, 0.5)], &[(9, -0.5), (2, -0.5), (1, 0.5), (10, 0.5)]],
    ],
    [
        [&[(9, -0.5), (2, -0.5), (1, 0.5), (10, 0.5)], &[(9, -1.), (6, -1.), (5, 1.), (10, 1.)],
         &[(9, -0.5), (7, -0.5), (5, 0.5), (11, 0.5)], &[(9, -0.25), (3, -0.25), (1, 0.25), (11, 0.25)]],
        [&[(8, -0.25), (2, -0.25), (0, 0.25), (10, 0.25)], &[(8, -0.5), (6, -0.5), (4, 0.5), (10, 0.5)],
         &[(9, -0.5), (7, -0.5), (5, 0.5), (11, 0.5)], &[(9, -0.25), (3, -0.25), (1, 0.25), (11, 0.25)]],
        [&[(8, -0.25), (2, -0.25), (0, 0.25), (10, 0.25)], &[(8, -0.5), (6, -0.5), (4, 0.5), (10, 0.5)],
         &[(9, -1.), (6, -1.), (5, 1.), (10, 1.)], &[(9, -0.5), (2, -0.5), (1, 0.5), (10, 0.5)]],
    ],
];

/// The dense 16x16 stencil `D` of position `[dx][dy]`.
fn stencil(dx: usize, dy: usize) -> [f64; 256] {
    let mut d = [0.0; 256];
    let value: [usize; 4] = [5, 9, 10, 6];
    for (r, &c) in value.iter().enumerate() {
        d[r * 16 + c] = 1.0;
    }
    for (r, row) in SUB_D[dx][dy][..8].iter().enumerate() {
        for &(c, w) in *row {
            d[(4 + r) * 16 + c] = w;
        }
    }
    for (r, row) in SUB_DXY[dx][dy].iter().enumerate() {
        for &(c, w) in *row {
            d[(12 + r) * 16 + c] = w;
        }
    }
    d
}

/// A skin under construction.
#[derive(Default)]
struct Build {
    skin: Skin,
}

impl Build {
    fn new(name: String, o: &SkinOptions, inflate: f32) -> Self {
        let skin = Skin {
            name,
            material: o.material.clone(),
            rgba: o.rgba,
            inflate,
            group: o.group,
            ..Skin::default()
        };
        Self { skin }
    }

    /// A bone on body `name` at `bindpos` (identity orientation).
    fn bone(&mut self, name: String, bindpos: [f32; 3], vertid: Vec<i32>, vertweight: Vec<f32>) {
        self.skin.bodyname.push(name);
        self.skin.bindpos.extend(bindpos);
        self.skin.bindquat.extend([1.0, 0.0, 0.0, 0.0]);
        self.skin.vertid.push(vertid);
        self.skin.vertweight.push(vertweight);
    }

    /// The two triangles of grid square (`i0`, `i1`) of a `c1`-wide sheet starting at vertex
    /// `base`, wound for `side`.
    fn square(&mut self, base: i32, c1: i32, i0: i32, i1: i32, side: bool) {
        let (s0, s1) = (i32::from(!side), i32::from(side));
        let f = &mut self.skin.face;
        f.extend([
            base + i0 * c1 + i1,
            base + (i0 + 1) * c1 + i1 + s1,
            base + (i0 + 1) * c1 + i1 + s0,
        ]);
        f.extend([
            base + i0 * c1 + i1,
            base + (i0 + s0) * c1 + i1 + 1,
            base + (i0 + s1) * c1 + i1 + 1,
        ]);
    }

    /// Both sides of a `c0` x `c1` sheet (vertices at the origin or at `pos`), with texture
    /// coordinates when asked.
    fn two_sides(&mut self, c0: i32, c1: i32, texcoord: bool, pos: impl Fn(i32, i32) -> [f32; 3]) {
        let n = c0 * c1;
        for side in 0..2 {
            for ix in 0..c0 {
                for iy in 0..c1 {
                    self.skin.vert.extend(pos(ix, iy));
                    if texcoord {
                        self.skin.texcoord.push(ix as f32 / (c0 - 1) as f32);
                        self.skin.texcoord.push(iy as f32 / (c1 - 1) as f32);
                    }
                    if ix < c0 - 1 && iy < c1 - 1 {
                        self.square(side * n, c1, ix, iy, side == 1);
                    }
                }
            }
        }
        self.rim(c0, c1);
    }

    /// The thin triangles joining the two sides along the border.
    fn rim(&mut self, c0: i32, c1: i32) {
        let n = c0 * c1;
        let f = &mut self.skin.face;
        for ix in 0..c0 - 1 {
            f.extend([ix * c1, n + (ix + 1) * c1, (ix + 1) * c1]);
            f.extend([ix * c1, n + ix * c1, n + (ix + 1) * c1]);
        }
        for ix in 0..c0 - 1 {
            let e = c1 - 1;
            f.extend([ix * c1 + e, (ix + 1) * c1 + e, n + (ix + 1) * c1 + e]);
            f.extend([ix * c1 + e, n + (ix + 1) * c1 + e, n + ix * c1 + e]);
        }
        for iy in 0..c1 - 1 {
            f.extend([iy, iy + 1, n + iy + 1]);
            f.extend([iy, n + iy + 1, n + iy]);
        }
        for iy in 0..c1 - 1 {
            let e = (c0 - 1) * c1;
            f.extend([iy + e, n + iy + 1 + e, iy + 1 + e]);
            f.extend([iy + e, n + iy + e, n + iy + 1 + e]);
        }
    }
}

impl Maker<'_> {
    fn skin_options(&self) -> SkinOptions {
        self.c.skin.clone().unwrap_or_default()
    }

    fn skin_name(&self) -> String {
        format!("{}Skin", self.c.prefix)
    }

    /// The 2D skin of a particle sheet or grid, with or without subgrid.
    pub(super) fn skin2_any(&mut self) {
        let o = self.skin_options();
        if o.subgrid > 0 {
            self.skin2_subgrid(o.inflate);
        } else {
            self.skin2(o.inflate);
        }
    }

    /// The skin of a cable of boxes: a sheet two (three with subgrid) vertices wide.
    pub(super) fn cable_skin(&mut self, inflate: f64) {
        let extra = if self.skin_options().subgrid > 0 {
            2
        } else {
            1
        };
        self.c.count[1] += extra;
        if extra == 2 {
            self.skin2_subgrid(inflate as f32);
        } else {
            self.skin2(inflate as f32);
        }
        self.c.count[1] -= extra;
    }

    /// The name of the body of cable bone `ix`.
    fn cable_bone_body(&self, ix: i32) -> String {
        let pre = &self.c.prefix;
        if ix == 0 {
            format!("{pre}B_first")
        } else if ix >= self.c.count[0] - 2 {
            format!("{pre}B_last")
        } else {
            format!("{pre}B_{ix}")
        }
    }

    /// The name of the body of cloth bone (`ix`, `iy`).
    fn cloth_bone_body(&self, ix: i32, iy: i32) -> String {
        let pre = &self.c.prefix;
        if self.c.ctype == CompType::Grid {
            format!("{pre}B{ix}_{iy}")
        } else {
            format!("{pre}B{ix}_{iy}_0")
        }
    }

    /// `MakeSkin2`.
    fn skin2(&mut self, inflate: f32) {
        let o = self.skin_options();
        let mut b = Build::new(self.skin_name(), &o, inflate);
        if self.c.ctype == CompType::Particle && self.c.username.is_empty() {
            self.skin2_surface(&mut b);
            self.spec.skins.push(b.skin);
            return;
        }
        let [c0, c1, _] = self.c.count;
        let n = c0 * c1;
        b.two_sides(c0, c1, o.texcoord, |_, _| [0.0; 3]);
        let geom_size = self.c.def[0].geom.size;
        for ix in 0..c0 {
            for iy in 0..c1 {
                let ids = vec![ix * c1 + iy, n + ix * c1 + iy];
                match self.c.ctype {
                    CompType::Particle | CompType::Grid => {
                        b.bone(self.cloth_bone_body(ix, iy), [0.0; 3], ids, vec![1.0, 1.0]);
                    }
                    CompType::Cable => {
                        let x = if ix == c0 - 1 {
                            -2.0 * geom_size[0]
                        } else {
                            0.0
                        };
                        let y = if iy == 0 { -geom_size[1] } else { geom_size[1] };
                        let pos = [x as f32, y as f32, 0.0];
                        b.bone(self.cable_bone_body(ix), pos, ids, vec![1.0, 1.0]);
                    }
                    _ => {}
                }
            }
        }
        self.spec.skins.push(b.skin);
    }

    /// The two-sided skin of particles given as a user surface.
    fn skin2_surface(&self, b: &mut Build) {
        let face = crate::reader::attr::string_to_vec::<i32>(&self.c.userface);
        let nvert = (self.c.uservert.len() / 3) as i32;
        for side in 0..2 {
            for i in 0..nvert {
                b.skin.vert.extend([0.0; 3]);
                let name = format!("{}B{i}", self.c.prefix);
                b.bone(name, [0.0; 3], vec![side * nvert + i], vec![1.0]);
            }
            for t in face.chunks_exact(3) {
                let (p, q) = if side == 0 { (1, 2) } else { (2, 1) };
                b.skin.face.extend([
                    side * nvert + t[0],
                    side * nvert + t[p],
                    side * nvert + t[q],
                ]);
            }
        }
    }

    /// `MakeSkin2Subgrid`: a finer sheet whose vertices follow the 4x4 bones around their
    /// square with bicubic weights.
    fn skin2_subgrid(&mut self, inflate: f32) {
        let o = self.skin_options();
        let sub = o.subgrid;
        let n = ((2 + sub) * (2 + sub)) as usize;
        let weight = subgrid_weights(sub, n);
        let mut b = Build::new(self.skin_name(), &o, inflate);
        let [c0, c1, _] = self.c.count;
        let step = self.c.spacing / f64::from(1 + sub);
        let big0 = c0 + (c0 - 1) * sub;
        let big1 = c1 + (c1 - 1) * sub;
        let nn = big0 * big1;
        b.two_sides(big0, big1, o.texcoord, |ix, iy| {
            [
                (f64::from(ix) * step) as f32,
                (f64::from(iy) * step) as f32,
                0.0,
            ]
        });
        let geom_size = self.c.def[0].geom.size;
        for ix in 0..c0 {
            for iy in 0..c1 {
                match self.c.ctype {
                    CompType::Particle | CompType::Grid => {
                        let sp = self.c.spacing;
                        let pos = [
                            (f64::from(ix) * sp) as f32,
                            (f64::from(iy) * sp) as f32,
                            0.0,
                        ];
                        b.bone(self.cloth_bone_body(ix, iy), pos, vec![], vec![]);
                    }
                    CompType::Cable => {
                        let x = if ix == c0 - 1 {
                            -2.0 * geom_size[0]
                        } else {
                            0.0
                        };
                        let y = match iy {
                            0 => -geom_size[1],
                            2 => geom_size[1],
                            _ => 0.0,
                        };
                        let pos = [x as f32, y as f32, 0.0];
                        b.bone(self.cable_bone_body(ix), pos, vec![], vec![]);
                    }
                    _ => {}
                }
            }
        }
        let position = |i: i32, c: i32| {
            if i == 0 {
                0
            } else if i == c - 2 {
                2
            } else {
                1
            }
        };
        let (vertid, vertweight) = (&mut b.skin.vertid, &mut b.skin.vertweight);
        for ix in 0..c0 - 1 {
            for iy in 0..c1 - 1 {
                let d = 3 * position(ix, c0) + position(iy, c1);
                let mut boneid = [0i32; 16];
                for (k, id) in boneid.iter_mut().enumerate() {
                    let (dx, dy) = (k as i32 / 4 - 1, k as i32 % 4 - 1);
                    *id = (ix + dx) * c1 + (iy + dy);
                }
                for dx in 0..1 + sub + i32::from(ix == c0 - 2) {
                    for dy in 0..1 + sub + i32::from(iy == c1 - 2) {
                        let vid = (ix * (1 + sub) + dx) * big1 + iy * (1 + sub) + dy;
                        let row = (dx * (2 + sub) + dy) as usize;
                        for (bi, &bone) in boneid.iter().enumerate() {
                            let w = weight[d * n * 16 + row * 16 + bi];
                            // the stencils reach beyond the grid only with zero weights
                            let Ok(bone) = usize::try_from(bone) else {
                                continue;
                            };
                            if w != 0.0 && bone < vertid.len() {
                                vertid[bone].extend([vid, vid + nn]);
                                vertweight[bone].extend([w as f32, w as f32]);
                            }
                        }
                    }
                }
            }
        }
        self.spec.skins.push(b.skin);
    }

    /// `MakeSkin3`: the skin of a 3D shell (box and particles: flat faces; cylinder: smooth
    /// sides and flat caps; ellipsoid: smooth).
    pub(super) fn skin3(&mut self) {
        let o = self.skin_options();
        let mut b = Build::new(self.skin_name(), &o, o.inflate);
        let faces = shell_faces(&self.c.prefix, self.c.count);
        let tex = o.texcoord;
        let mut vcnt = 0;
        match self.c.ctype {
            CompType::Box | CompType::Particle => {
                for (c0, c1, side, name) in &faces {
                    box_face(&mut b, *c0, *c1, *side, &mut vcnt, tex, name);
                }
            }
            CompType::Cylinder => {
                let vmap = shell_vertices(&mut b, self.c.count, tex, false, &self.c.prefix);
                vcnt = vmap.len() as i32;
                for (c0, c1, side, name) in &faces[2..] {
                    smooth_face(&mut b, *c0, *c1, *side, &vmap, name);
                }
                for (c0, c1, side, name) in &faces[..2] {
                    box_face(&mut b, *c0, *c1, *side, &mut vcnt, tex, name);
                }
            }
            _ => {
                let vmap = shell_vertices(&mut b, self.c.count, tex, true, &self.c.prefix);
                for (c0, c1, side, name) in &faces {
                    smooth_face(&mut b, *c0, *c1, *side, &vmap, name);
                }
            }
        }
        self.spec.skins.push(b.skin);
    }
}

/// A face of a 3D shell: its two counts, its winding, and the body at each of its points.
type Face<'a> = (i32, i32, bool, Box<dyn Fn(i32, i32) -> String + 'a>);

/// The six faces of a 3D shell of `count` bodies in MuJoCo's order: z low and high, y low
/// and high, x low and high.
fn shell_faces(prefix: &str, count: [i32; 3]) -> [Face<'_>; 6] {
    let [c0, c1, c2] = count;
    let (l0, l1, l2) = (c0 - 1, c1 - 1, c2 - 1);
    [
        (
            c0,
            c1,
            true,
            Box::new(move |a, b| format!("{prefix}B{a}_{b}_0")),
        ),
        (
            c0,
            c1,
            false,
            Box::new(move |a, b| format!("{prefix}B{a}_{b}_{l2}")),
        ),
        (
            c0,
            c2,
            false,
            Box::new(move |a, b| format!("{prefix}B{a}_0_{b}")),
        ),
        (
            c0,
            c2,
            true,
            Box::new(move |a, b| format!("{prefix}B{a}_{l1}_{b}")),
        ),
        (
            c1,
            c2,
            true,
            Box::new(move |a, b| format!("{prefix}B0_{a}_{b}")),
        ),
        (
            c1,
            c2,
            false,
            Box::new(move |a, b| format!("{prefix}B{l0}_{a}_{b}")),
        ),
    ]
}

/// The weights of the subgrid points of a square on its 16 bones, for each of the 9
/// positions of a square in the grid: `XY * W * D`, with `n` subgrid points per square.
fn subgrid_weights(sub: i32, n: usize) -> Vec<f64> {
    let step = 1.0 / f64::from(1 + sub);
    let mut xy = vec![0.0; n * 16];
    let mut r = 0;
    for sx in 0..=1 + sub {
        for sy in 0..=1 + sub {
            let x = f64::from(sx) * step;
            let y = f64::from(sy) * step;
            let row = &mut xy[16 * r..16 * r + 16];
            row[..4].copy_from_slice(&[1.0, y, y * y, y * y * y]);
            for i in 1..4 {
                let p = power(i, x);
                row[4 * i..4 * i + 4].copy_from_slice(&[p, p * y, p * y * y, p * y * y * y]);
            }
            r += 1;
        }
    }
    let mut xy_w = vec![0.0; n * 16];
    mul_mat_mat(&mut xy_w, &xy, &SUB_W, n, 16, 16);
    let mut weight = vec![0.0; 9 * n * 16];
    for dx in 0..3 {
        for dy in 0..3 {
            let d = stencil(dx, dy);
            let at = (dx * 3 + dy) * n * 16;
            mul_mat_mat(&mut weight[at..at + n * 16], &xy_w, &d, n, 16, 16);
        }
    }
    weight
}

/// `x` to the power `i` (1 to 3) as MuJoCo writes it: `x`, `x*x`, `x*x*x`.
fn power(i: usize, x: f64) -> f64 {
    match i {
        1 => x,
        2 => x * x,
        _ => x * x * x,
    }
}

/// `MakeSkin3Box`: a flat face of `c0` x `c1` vertices of its own, one bone each.
fn box_face(
    b: &mut Build,
    c0: i32,
    c1: i32,
    side: bool,
    vcnt: &mut i32,
    texcoord: bool,
    name: &dyn Fn(i32, i32) -> String,
) {
    for i0 in 0..c0 {
        for i1 in 0..c1 {
            b.skin.vert.extend([0.0; 3]);
            if texcoord {
                b.skin.texcoord.push(i0 as f32 / (c0 - 1) as f32);
                b.skin.texcoord.push(i1 as f32 / (c1 - 1) as f32);
            }
            if i0 < c0 - 1 && i1 < c1 - 1 {
                b.square(*vcnt, c1, i0, i1, side);
            }
            b.bone(
                name(i0, i1),
                [0.0; 3],
                vec![*vcnt + i0 * c1 + i1],
                vec![1.0],
            );
        }
    }
    *vcnt += c0 * c1;
}

/// The shared vertices of a smooth shell, one per body on the sides (and on the caps when
/// `caps`), by body name.
fn shell_vertices(
    b: &mut Build,
    count: [i32; 3],
    texcoord: bool,
    caps: bool,
    prefix: &str,
) -> BTreeMap<String, i32> {
    let [c0, c1, c2] = count;
    let mut vmap = BTreeMap::new();
    let frac = |i: i32, c: i32| i as f32 / (c - 1) as f32;
    for ix in 0..c0 {
        for iy in 0..c1 {
            for iz in 0..c2 {
                let xedge = ix == 0 || ix == c0 - 1;
                let yedge = iy == 0 || iy == c1 - 1;
                let zedge = iz == 0 || iz == c2 - 1;
                if !(xedge || yedge || (caps && zedge)) {
                    continue;
                }
                b.skin.vert.extend([0.0; 3]);
                if texcoord {
                    let (x, y) = if xedge {
                        (frac(iy, c1), frac(iz, c2))
                    } else if yedge {
                        (frac(ix, c0), frac(iz, c2))
                    } else {
                        (frac(ix, c0), frac(iy, c1))
                    };
                    b.skin.texcoord.extend([x, y]);
                }
                let id = vmap.len() as i32;
                vmap.insert(format!("{prefix}B{ix}_{iy}_{iz}"), id);
            }
        }
    }
    vmap
}

/// `MakeSkin3Smooth`: a face over the shared vertices, one bone per vertex of the face.
fn smooth_face(
    b: &mut Build,
    c0: i32,
    c1: i32,
    side: bool,
    vmap: &BTreeMap<String, i32>,
    name: &dyn Fn(i32, i32) -> String,
) {
    let v = |i0: i32, i1: i32| vmap[&name(i0, i1)];
    for i0 in 0..c0 {
        for i1 in 0..c1 {
            if i0 < c0 - 1 && i1 < c1 - 1 {
                let (v00, v01, v10, v11) =
                    (v(i0, i1), v(i0, i1 + 1), v(i0 + 1, i1), v(i0 + 1, i1 + 1));
                if side {
                    b.skin.face.extend([v00, v01, v11, v00, v11, v10]);
                } else {
                    b.skin.face.extend([v00, v10, v11, v00, v11, v01]);
                }
            }
            b.bone(name(i0, i1), [0.0; 3], vec![v(i0, i1)], vec![1.0]);
        }
    }
}
