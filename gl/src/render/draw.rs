//! `mjr_render`: the passes that turn an abstract scene into pixels, in MuJoCo's order —
//! segmentation (flat object colours) or: mirrored scene in reflective planes (stencil),
//! opaque geoms lit by the non-shadow lights, one additive pass per shadow-casting light
//! through its shadow map, the skybox and horizon haze, transparent geoms sorted by distance,
//! then the frame around the viewport.

use super::context::{Buffer, Builtin, Context, TEXTURE_2D, TEXTURE_SKYBOX};
use super::matrix::{self, Mat4, IDENTITY};
use super::shader::{Program, TexMode, MAXLIGHT, UNIT_2D, UNIT_CUBE, UNIT_SHADOW};
use super::shapes::{Shape, Vertex};
use super::{Rect, RenderError};
use crate::sys::Gl;
use crate::vis::{rnd, stereo, GlCamera, Scene, VisGeom, VisLight, CAT_DECOR};
use mjrs_core::math::misc::halton;
use mjrs_core::types::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Normal,
    ShadowMap,
    ShadowCast,
    Segment,
    IdColor,
}

/// Whether the viewer is on the back side of a plane through `pos` with normal = z column.
fn is_behind(head: [f32; 3], pos: &[f32; 3], mat: &[f32; 9]) -> bool {
    (head[0] - pos[0]) * mat[2] + (head[1] - pos[1]) * mat[5] + (head[2] - pos[2]) * mat[8] < 0.0
}

fn is_reflective(g: &VisGeom) -> bool {
    (g.type_ == GEOM_PLANE || g.type_ == GEOM_BOX) && g.transparent == 0 && g.reflectance > 0.0
}

/// Radius of a sphere bounding the geom (`mjv_rbound`).
fn rbound(g: &VisGeom) -> f32 {
    let s = &g.size;
    match g.type_ {
        GEOM_SPHERE => s[0],
        GEOM_CAPSULE => s[0] + s[2],
        GEOM_CYLINDER => (s[0] * s[0] + s[2] * s[2]).sqrt(),
        GEOM_BOX => (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt(),
        GEOM_ELLIPSOID => s[0].max(s[1]).max(s[2]),
        GEOM_MESH | GEOM_SDF | GEOM_HFIELD => g.modelrbound,
        _ => 0.0,
    }
}

/// The state of one `render` call.
struct Frame<'a> {
    gl: &'a Gl,
    con: &'a Context,
    p: &'a Program,
    scn: &'a Scene,
    head: [f32; 3],
    lighting: bool,
    cull_front: bool,
    view: Mat4,
    reflect: Mat4,
    /// Texture mapping of the geom being drawn.
    texmode: TexMode,
}

impl Frame<'_> {
    fn set_lighting(&mut self, on: bool) {
        self.lighting = on;
        self.gl.uniform_i(self.p.lighting, i32::from(on));
    }

    fn set_cull(&mut self, front: bool) {
        self.cull_front = front;
        self.gl.cull_face(if front { gl::FRONT } else { gl::BACK });
    }

    /// Position the lights for the current view (and mirror), and switch on those in `on`.
    fn lights(&self, on: &[bool]) {
        let (gl, p) = (self.gl, self.p);
        let lights: Vec<&VisLight> = self.scn.lights.iter().take(MAXLIGHT).collect();
        let mv = matrix::mul(&self.view, &self.reflect);
        let mut flags = [0i32; MAXLIGHT];
        let (mut pos, mut dir) = ([0.0f32; 4 * MAXLIGHT], [0.0f32; 3 * MAXLIGHT]);
        let (mut amb, mut dif, mut spec, mut att) = (
            [0.0; 3 * MAXLIGHT],
            [0.0; 3 * MAXLIGHT],
            [0.0; 3 * MAXLIGHT],
            [0.0; 3 * MAXLIGHT],
        );
        let (mut exp, mut cos) = ([0.0f32; MAXLIGHT], [-2.0f32; MAXLIGHT]);
        for (i, l) in lights.iter().enumerate() {
            flags[i] = i32::from(on.get(i).copied().unwrap_or(false));
            let (p4, d3) = if l.directional != 0 {
                let d = l.dir.map(|x| -x);
                (matrix::apply(&mv, [d[0], d[1], d[2], 0.0]), [0.0; 3])
            } else {
                let e = matrix::apply(&mv, [l.pos[0], l.pos[1], l.pos[2], 1.0]);
                let d = matrix::apply(&mv, [l.dir[0], l.dir[1], l.dir[2], 0.0]);
                exp[i] = l.exponent;
                cos[i] = if l.cutoff >= 180.0 {
                    -2.0
                } else {
                    l.cutoff.to_radians().cos()
                };
                att[3 * i..3 * i + 3].copy_from_slice(&l.attenuation);
                (e, [d[0], d[1], d[2]])
            };
            if l.directional != 0 {
                att[3 * i] = 1.0;
            }
            pos[4 * i..4 * i + 4].copy_from_slice(&p4);
            dir[3 * i..3 * i + 3].copy_from_slice(&d3);
            amb[3 * i..3 * i + 3].copy_from_slice(&l.ambient);
            dif[3 * i..3 * i + 3].copy_from_slice(&l.diffuse);
            spec[3 * i..3 * i + 3].copy_from_slice(&l.specular);
        }
        gl.uniform_iv(p.lighton, &flags);
        gl.uniform_vec(p.lightpos, 4, &pos);
        gl.uniform_vec(p.spotdir, 3, &dir);
        gl.uniform_vec(p.lightamb, 3, &amb);
        gl.uniform_vec(p.lightdif, 3, &dif);
        gl.uniform_vec(p.lightspec, 3, &spec);
        gl.uniform_vec(p.atten, 3, &att);
        gl.uniform_vec(p.spotexp, 1, &exp);
        gl.uniform_vec(p.spotcos, 1, &cos);
    }

    fn nlight(&self) -> usize {
        self.scn.lights.len().min(MAXLIGHT)
    }

    /// Draw a buffer with `model` (relative to the mirror, if any).
    fn draw(&self, b: &Buffer, model: &Mat4, mode: u32) {
        let m = matrix::mul(&self.reflect, model);
        self.gl.uniform_mat4(self.p.model, &m);
        let n = matrix::normal_matrix(&matrix::mul(&self.view, &m));
        self.gl.uniform_mat3(self.p.normalmat, &n);
        self.gl.draw_arrays(b.vao, mode, 0, b.count);
    }

    fn builtin(&self, which: Builtin, model: &Mat4) {
        self.draw(&self.con.builtin[which as usize], model, gl::TRIANGLES);
    }

    /// Set texture mapping for a geom in a shaded mode.
    fn texture(&self, g: &VisGeom) -> TexMode {
        let (gl, p) = (self.gl, self.p);
        let Some(&(tex, ty)) = usize::try_from(g.texid)
            .ok()
            .and_then(|t| self.con.textures.get(t))
        else {
            return TexMode::None;
        };
        let mode = if ty == TEXTURE_2D {
            gl.bind_texture(UNIT_2D, gl::TEXTURE_2D, tex);
            if g.texcoord != 0 {
                TexMode::Coord
            } else {
                TexMode::Plane
            }
        } else if g.texcoord != 0 {
            // explicit coordinates with a cube texture: nothing sensible to sample
            return TexMode::None;
        } else {
            gl.bind_texture(UNIT_CUBE, gl::TEXTURE_CUBE_MAP, tex);
            TexMode::Cube
        };
        let planes = match mode {
            TexMode::Plane => {
                let mut scl = g.texrepeat;
                for k in 0..2 {
                    if g.dataid >= 0 && g.size[k] > 0.0 {
                        scl[k] /= g.size[k].max(1e-15);
                    }
                    if g.texuniform != 0 && g.size[k] > 0.0 {
                        scl[k] *= g.size[k];
                    }
                }
                [
                    [0.5 * scl[0], 0.0, 0.0, -0.5],
                    [0.0, -0.5 * scl[1], 0.0, -0.5],
                    [0.0; 4],
                ]
            }
            _ => {
                let s = |k: usize| if g.texuniform != 0 { g.size[k] } else { 1.0 };
                [
                    [s(0), 0.0, 0.0, 0.0],
                    [0.0, s(1), 0.0, 0.0],
                    [0.0, 0.0, s(2), 0.0],
                ]
            }
        };
        gl.uniform_vec(p.tplane, 4, planes.as_flattened());
        mode
    }

    fn geom(&mut self, g: &VisGeom, mode: Mode) {
        if mode == Mode::ShadowCast && (g.type_ == GEOM_LINE || g.category == CAT_DECOR) {
            return;
        }
        let (gl, p) = (self.gl, self.p);
        let behind = is_behind(self.head, &g.pos, &g.mat);
        let shaded = matches!(mode, Mode::Normal | Mode::ShadowMap);
        let texmode = if shaded && g.texid >= 0 {
            self.texture(g)
        } else {
            TexMode::None
        };
        gl.uniform_i(p.texmode, texmode as i32);
        self.texmode = texmode;
        let mut rgba = g.rgba;
        if g.type_ == GEOM_PLANE && behind && mode == Mode::Normal {
            rgba[3] *= 0.3;
        }
        let e = if mode == Mode::Normal {
            g.emission
        } else {
            0.0
        };
        gl.uniform_vec(p.emission, 3, &[e * rgba[0], e * rgba[1], e * rgba[2]]);
        gl.uniform_vec(p.specular, 3, &[g.specular; 3]);
        gl.uniform_f(p.shininess, (g.shininess * 128.0).clamp(0.0, 128.0));
        let color = match mode {
            Mode::IdColor => {
                let id = (g.segid + 1) as u32;
                [id & 0xFF, (id >> 8) & 0xFF, (id >> 16) & 0xFF].map(|b| b as f32 / 255.0)
            }
            Mode::Segment => {
                let k = (g.segid + 10) as usize;
                [2, 3, 5].map(|b| 0.1 + 0.8 * halton(k, b) as f32)
            }
            _ => [rgba[0], rgba[1], rgba[2]],
        };
        let alpha = if matches!(mode, Mode::IdColor | Mode::Segment) {
            1.0
        } else {
            rgba[3]
        };
        gl.uniform_vec(p.color, 4, &[color[0], color[1], color[2], alpha]);
        self.shape(g, behind);
    }

    /// The geometry of a geom, with MuJoCo's composition of builtin shapes.
    fn shape(&mut self, g: &VisGeom, behind: bool) {
        let s = g.size;
        let pose = matrix::pose(&g.pos, &g.mat);
        let scaled = matrix::scale(&pose, s);
        match g.type_ {
            GEOM_PLANE => {
                let flip = behind && !self.cull_front;
                if flip {
                    self.set_cull(true);
                }
                match usize::try_from(g.dataid)
                    .ok()
                    .and_then(|k| self.con.planes.get(k))
                {
                    Some(b) => self.draw(b, &pose, gl::TRIANGLES),
                    None => self.builtin(Builtin::Plane, &matrix::scale(&pose, [s[0], s[1], 1.0])),
                }
                if flip {
                    self.set_cull(false);
                }
            }
            GEOM_HFIELD => {
                if let Some(b) = usize::try_from(g.dataid)
                    .ok()
                    .and_then(|k| self.con.hfields.get(k))
                {
                    self.draw(b, &pose, gl::TRIANGLES);
                }
            }
            GEOM_SPHERE | GEOM_ELLIPSOID => self.builtin(Builtin::Sphere, &scaled),
            GEOM_CAPSULE => {
                let av = 0.5 * (s[0] + s[1]);
                self.builtin(Builtin::CylinderOpen, &scaled);
                let m = matrix::scale(&scaled, [1.0, 1.0, av / s[2]]);
                let top = matrix::translate(&m, [0.0, 0.0, (s[2] - av) / av]);
                self.builtin(Builtin::SphereTop, &top);
                let bottom = matrix::translate(&top, [0.0, 0.0, 2.0 * (av - s[2]) / av]);
                self.builtin(Builtin::SphereBottom, &bottom);
            }
            GEOM_CYLINDER => self.builtin(Builtin::Cylinder, &scaled),
            GEOM_BOX => self.builtin(Builtin::Box, &scaled),
            GEOM_MESH | GEOM_SDF => {
                let mesh = usize::try_from(g.dataid)
                    .ok()
                    .and_then(|k| self.con.meshes.get(k));
                if let Some(Some(b)) = mesh {
                    self.draw(b, &pose, gl::TRIANGLES);
                }
            }
            GEOM_ARROW | GEOM_ARROW1 => {
                let m = matrix::translate(
                    &matrix::scale(&pose, [s[0], s[1], s[2] / 6.0]),
                    [0.0, 0.0, 1.0],
                );
                self.builtin(Builtin::Cylinder, &m);
                let mut head = matrix::translate(&m, [0.0, 0.0, 1.0]);
                if g.type_ == GEOM_ARROW {
                    head = matrix::scale(&head, [1.75, 1.75, 1.0]);
                }
                self.builtin(Builtin::Cone, &head);
            }
            GEOM_ARROW2 => {
                let m = matrix::scale(&pose, [s[0], s[1], s[2] / 3.0]);
                self.builtin(Builtin::CylinderOpen, &m);
                let m = matrix::scale(&m, [1.75, 1.75, 0.5]);
                let back = matrix::flip_x(&matrix::translate(&m, [0.0, 0.0, -2.0]));
                self.builtin(Builtin::Cone, &back);
                let front = matrix::translate(&matrix::flip_x(&back), [0.0, 0.0, 4.0]);
                self.builtin(Builtin::Cone, &front);
            }
            GEOM_LINE => self.lines(&pose, &[[0.0; 3], [0.0, 0.0, s[2]]], s[0]),
            GEOM_LINEBOX => {
                let c = |x: f32, y: f32, z: f32| [x * s[0], y * s[1], z * s[2]];
                let mut pts = Vec::with_capacity(24);
                for z in [-1.0, 1.0] {
                    let ring = [
                        c(-1.0, -1.0, z),
                        c(1.0, -1.0, z),
                        c(1.0, 1.0, z),
                        c(-1.0, 1.0, z),
                    ];
                    for k in 0..4 {
                        pts.extend([ring[k], ring[(k + 1) % 4]]);
                    }
                }
                for (x, y) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                    pts.extend([c(x, y, -1.0), c(x, y, 1.0)]);
                }
                self.lines(&pose, &pts, 1.5);
            }
            GEOM_TRIANGLE => {
                let v = |p: [f32; 3]| Vertex {
                    pos: p,
                    normal: [0.0, 0.0, 1.0],
                    tex: [0.0; 2],
                    color: [1.0; 4],
                    edge: 1.0,
                };
                let tri = Shape {
                    verts: vec![v([0.0; 3]), v([s[0], 0.0, 0.0]), v([0.0, s[1], 0.0])],
                };
                let b = self.con.stream(self.gl, &tri);
                self.draw(&b, &pose, gl::TRIANGLES);
            }
            GEOM_SKIN => self.skin(g),
            GEOM_FLEX => self.flex(g),
            _ => {}
        }
    }

    /// Unlit line segments (pairs of points) of `width` times the model's line width.
    fn lines(&mut self, model: &Mat4, pts: &[[f32; 3]], width: f32) {
        let lighting = self.lighting;
        self.set_lighting(false);
        self.gl
            .line_width((width * self.con.line_width).max(f32::MIN_POSITIVE));
        let shape = Shape {
            verts: pts
                .iter()
                .map(|&p| Vertex {
                    pos: p,
                    normal: [0.0, 0.0, 1.0],
                    tex: [0.0; 2],
                    color: [1.0; 4],
                    edge: 1.0,
                })
                .collect(),
        };
        let b = self.con.stream(self.gl, &shape);
        self.draw(&b, model, gl::LINES);
        self.gl.line_width(self.con.line_width);
        self.set_lighting(lighting);
    }

    /// A skin: triangles of the scene's skinned vertices, in world coordinates.
    fn skin(&mut self, g: &VisGeom) {
        let Some(k) = usize::try_from(g.objid).ok() else {
            return;
        };
        let Some(skin) = self.con.skins.get(k) else {
            return;
        };
        let adr = skin.vertadr;
        let (vert, normal) = (&self.scn.skinvert, &self.scn.skinnormal);
        let mut shape = Shape::default();
        for &f in &skin.faces {
            let (v, i) = (3 * (adr + f as usize), f as usize);
            let (Some(p), Some(n)) = (vert.get(v..v + 3), normal.get(v..v + 3)) else {
                return;
            };
            let tex = skin
                .texcoord
                .as_ref()
                .and_then(|t| t.get(2 * i..2 * i + 2))
                .map_or([0.0; 2], |t| [t[0], t[1]]);
            shape.verts.push(Vertex {
                pos: [p[0], p[1], p[2]],
                normal: [n[0], n[1], n[2]],
                tex,
                color: [1.0; 4],
                edge: 1.0,
            });
        }
        let b = self.con.stream(self.gl, &shape);
        self.draw(&b, &IDENTITY, gl::TRIANGLES);
    }
}

impl Frame<'_> {
    /// A flex from the scene's flex arrays, in world coordinates: untextured spheres at the
    /// vertices and open cylinders along the edges (each when its flag is on, the radius is
    /// positive and no skin is shown), then the faces in use.
    fn flex(&mut self, g: &VisGeom) {
        let Some(f) = usize::try_from(g.objid)
            .ok()
            .filter(|&f| f < self.scn.nflex)
        else {
            return;
        };
        let scn = self.scn;
        let radius = g.size[0];
        let skinned = scn.flexskinopt != 0 && scn.flexfaceused[f] != 0;
        let texmode = self.texmode;
        self.gl.uniform_i(self.p.texmode, TexMode::None as i32);
        let vert = |v: i32| -> Option<[f32; 3]> {
            let k = 3 * usize::try_from(scn.flexvertadr[f] + v).ok()?;
            scn.flexvert.get(k..k + 3).map(|p| [p[0], p[1], p[2]])
        };
        if radius > 0.0 && scn.flexvertopt != 0 && !skinned {
            for v in 0..scn.flexvertnum[f] {
                let Some(p) = vert(v) else { break };
                let m = matrix::scale(&matrix::translate(&IDENTITY, p), [radius; 3]);
                self.builtin(Builtin::Sphere, &m);
            }
        }
        if radius > 0.0 && scn.flexedgeopt != 0 && !skinned {
            let first = scn.flexedgeadr[f].max(0) as usize;
            for e in first..first + scn.flexedgenum[f].max(0) as usize {
                let Some(ends) = scn.flexedge.get(2 * e..2 * e + 2) else {
                    break;
                };
                let (Some(a), Some(b)) = (vert(ends[0]), vert(ends[1])) else {
                    break;
                };
                self.builtin(Builtin::CylinderOpen, &edge_pose(a, b, radius));
            }
        }
        self.gl.uniform_i(self.p.texmode, texmode as i32);
        self.flex_faces(f, texmode == TexMode::Coord);
    }

    /// The triangles of flex `f` in use, with their normals and (when `textured`) texture
    /// coordinates.
    fn flex_faces(&mut self, f: usize, textured: bool) {
        let scn = self.scn;
        let adr = scn.flexfaceadr[f].max(0) as usize;
        let n = scn.flexfaceused[f].max(0) as usize;
        let (Some(pos), Some(nrm)) = (
            scn.flexface.get(9 * adr..9 * (adr + n)),
            scn.flexnormal.get(9 * adr..9 * (adr + n)),
        ) else {
            return;
        };
        if n == 0 {
            return;
        }
        let tex = scn.flextexcoord.get(6 * adr..6 * (adr + n));
        let shape = Shape {
            verts: (0..3 * n)
                .map(|k| Vertex {
                    pos: [pos[3 * k], pos[3 * k + 1], pos[3 * k + 2]],
                    normal: [nrm[3 * k], nrm[3 * k + 1], nrm[3 * k + 2]],
                    tex: match tex {
                        Some(t) if textured => [t[2 * k], t[2 * k + 1]],
                        _ => [0.0; 2],
                    },
                    color: [1.0; 4],
                    edge: 1.0,
                })
                .collect(),
        };
        let b = self.con.stream(self.gl, &shape);
        self.draw(&b, &IDENTITY, gl::TRIANGLES);
    }
}

/// The model matrix of a flex edge from `a` to `b`: an open unit cylinder centered between
/// them, its axis along the edge, `radius` wide and half the edge long.
fn edge_pose(a: [f32; 3], b: [f32; 3], radius: f32) -> Mat4 {
    let mut vec: [f64; 3] = core::array::from_fn(|k| f64::from(b[k] - a[k]));
    let len = mjrs_core::math::vec::normalize3(&mut vec);
    let rot = mjrs_core::math::quat::quat2mat(&mjrs_core::math::quat::quat_z2vec(&vec));
    let center = core::array::from_fn(|k| (a[k] + b[k]) * 0.5);
    let pose = matrix::pose(&center, &rot.map(|x| x as f32));
    matrix::scale(&pose, [radius, radius, (len * 0.5) as f32])
}

/// Camera matrices of one eye (or the average of both): projection and view.
fn camera_matrices(cam: &GlCamera, viewport: &Rect, scn: &Scene, zero_one: bool) -> (Mat4, Mat4) {
    let halfwidth = if cam.frustum_width != 0.0 {
        cam.frustum_width
    } else {
        0.5 * viewport.width as f32 / viewport.height as f32
            * (cam.frustum_top - cam.frustum_bottom)
    };
    let f = |x: f32| f64::from(x);
    let proj = matrix::mul(
        &matrix::reverse_z(zero_one),
        &matrix::frustum(
            f(cam.frustum_center - halfwidth),
            f(cam.frustum_center + halfwidth),
            f(cam.frustum_bottom),
            f(cam.frustum_top),
            f(cam.frustum_near),
            f(cam.frustum_far),
        ),
    );
    let mut view = matrix::look_at(cam.pos, cam.forward, cam.up);
    if scn.enabletransform != 0 {
        view = matrix::mul(
            &view,
            &matrix::model_transform(scn.translate, scn.rotate, scn.scale),
        );
    }
    (proj, view)
}

/// Sort the transparent geoms by distance from the head (nearest first); return their indices.
fn transparent_order(scn: &mut Scene, head: [f32; 3]) -> Vec<usize> {
    let mut order = Vec::new();
    for (i, g) in scn.geoms.iter_mut().enumerate() {
        let back_plane = g.type_ == GEOM_PLANE && is_behind(head, &g.pos, &g.mat);
        if g.rgba[3] < 0.995 || back_plane {
            order.push(i);
            g.transparent = 1;
            let d = [0, 1, 2].map(|k| g.pos[k] - head[k]);
            g.camdist = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() - rbound(g);
            if g.type_ == GEOM_PLANE {
                g.camdist = 1e10;
            }
        } else {
            g.transparent = 0;
        }
    }
    let geoms = &scn.geoms;
    order.sort_by(|&a, &b| geoms[a].camdist.total_cmp(&geoms[b].camdist));
    order
}

/// Render the scene into `viewport` of the current buffer (`mjr_render`). The scene's
/// transparency flags, camera distances and reflectances are updated as MuJoCo does.
pub fn render(gl: &Gl, viewport: Rect, scn: &mut Scene, con: &Context) -> Result<(), RenderError> {
    if viewport.width <= 0 || viewport.height <= 0 {
        return Ok(());
    }
    let cam = crate::vis::interact::average_camera(&scn.camera[0], &scn.camera[1]);
    if cam.frustum_near < 1e-15 {
        return if scn.geoms.is_empty() {
            Ok(())
        } else {
            Err(RenderError::Scene("frustum_near too small".into()))
        };
    }
    let (hpos, _, _) = scn.camera_in_model();
    let head = hpos.map(|x| x as f32);
    let order = transparent_order(scn, head);
    let mut seen = false;
    for g in scn.geoms.iter_mut() {
        if seen {
            g.reflectance = 0.0;
        } else if is_reflective(g) {
            seen = true;
        }
    }
    let scn: &Scene = scn;
    let zero_one = gl.clip_control(gl::LOWER_LEFT, gl::ZERO_TO_ONE);
    let p = &con.program;
    gl.use_program(p.id);
    init_state(gl, p, scn, con);
    gl.viewport(
        viewport.left,
        viewport.bottom,
        viewport.width,
        viewport.height,
    );
    gl.scissor(
        viewport.left,
        viewport.bottom,
        viewport.width,
        viewport.height,
    );
    gl.set(gl::SCISSOR_TEST, true);
    gl.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    gl.set(gl::SCISSOR_TEST, false);
    let mut frame = Frame {
        gl,
        con,
        p,
        scn,
        head,
        lighting: true,
        cull_front: false,
        view: IDENTITY,
        reflect: IDENTITY,
        texmode: TexMode::None,
    };
    frame.set_lighting(true);
    let views: &[Option<usize>] = if scn.stereo == stereo::NONE {
        &[None]
    } else {
        &[Some(0), Some(1)]
    };
    let mut vp = viewport;
    if scn.stereo != stereo::NONE {
        vp.width /= 2;
    }
    for &view in views {
        if view == Some(1) {
            vp.left += vp.width;
        }
        gl.viewport(vp.left, vp.bottom, vp.width, vp.height);
        let eye = view.map_or_else(|| cam.clone(), |v| scn.camera[v].clone());
        let (proj, camview) = camera_matrices(&eye, &vp, scn, zero_one);
        gl.uniform_mat4(p.proj, &proj);
        gl.uniform_mat4(p.view, &camview);
        frame.view = camview;
        if scn.flags[rnd::SEGMENT] != 0 {
            segmentation(&mut frame);
            continue;
        }
        if scn.flags[rnd::REFLECTION] != 0 {
            reflections(&mut frame, &order);
        }
        opaque(&mut frame);
        if scn.flags[rnd::SHADOW] != 0 && con.shadow.is_some() {
            shadows(&mut frame, &cam, &proj, &vp, zero_one);
        }
        if scn.flags[rnd::SKYBOX] != 0 {
            skybox(&mut frame, &cam);
        }
        transparent(&mut frame, &order);
        labels(&frame, &proj, &camview, &vp);
    }
    draw_frame(gl, scn, &vp);
    gl.uniform_vec(p.clip, 4, &[0.0; 4]);
    con.restore_buffer(gl);
    Ok(())
}

/// Polygons as outlines (without the hidden diagonals of quads) or filled.
fn polygon(gl: &Gl, p: &Program, wire: bool) {
    gl.polygon_mode(if wire { gl::LINE } else { gl::FILL });
    gl.uniform_i(p.wireframe, i32::from(wire));
}

/// OpenGL state at the start of a render: reverse-Z depth, culling, polygon mode, fog.
fn init_state(gl: &Gl, p: &Program, scn: &Scene, con: &Context) {
    gl.set(gl::MULTISAMPLE, true);
    gl.set(gl::BLEND, false);
    gl.set(gl::DEPTH_TEST, true);
    gl.depth(gl::GEQUAL, true);
    gl.set(gl::CULL_FACE, scn.flags[rnd::CULL_FACE] != 0);
    gl.cull_face(gl::BACK);
    gl.front_face(gl::CCW);
    gl.clear_color([0.0; 4]);
    gl.clear_depth_stencil(0.0, 0);
    polygon(gl, p, scn.flags[rnd::WIREFRAME] != 0);
    gl.line_width(con.line_width);
    gl.set(gl::CLIP_DISTANCE0, false);
    gl.uniform_vec(p.clip, 4, &[0.0; 4]);
    gl.uniform_i(p.fog, i32::from(scn.flags[rnd::FOG] != 0));
    gl.uniform_vec(p.fogrange, 2, &[con.fog.0, con.fog.1]);
    gl.uniform_vec(p.fogcolor, 4, &con.fog.2);
    gl.uniform_i(p.shadow, 0);
    gl.uniform_i(p.alphatest, 0);
    gl.uniform_i(p.vertexcolor, 0);
    gl.vertex_attrib4(super::shader::ATTR_COLOR, [1.0; 4]);
    let ambient = if scn.lights.is_empty() { 0.3 } else { 0.0 };
    gl.uniform_vec(p.ambient, 3, &[ambient; 3]);
}

fn segmentation(f: &mut Frame) {
    let (gl, p) = (f.gl, f.p);
    f.set_lighting(false);
    polygon(gl, p, false);
    gl.uniform_i(p.fog, 0);
    gl.set(gl::MULTISAMPLE, false);
    let mode = if f.scn.flags[rnd::IDCOLOR] != 0 {
        Mode::IdColor
    } else {
        Mode::Segment
    };
    for g in &f.scn.geoms {
        if g.segid >= 0 {
            f.geom(g, mode);
        }
    }
    gl.set(gl::MULTISAMPLE, true);
    f.set_lighting(true);
}

/// Mirror images: for each reflective geom facing the viewer, mark its pixels in the stencil
/// buffer, then draw the mirrored scene there, clipped to the front of the mirror and dimmed
/// by its reflectance.
fn reflections(f: &mut Frame, order: &[usize]) {
    let (gl, p, scn) = (f.gl, f.p, f.scn);
    let wire = scn.flags[rnd::WIREFRAME] != 0;
    for (i, g) in scn.geoms.iter().enumerate() {
        if !is_reflective(g) {
            continue;
        }
        let mut mirror = g.clone();
        if g.type_ == GEOM_BOX {
            mirror.type_ = GEOM_PLANE;
            for k in 0..3 {
                mirror.pos[k] += mirror.size[2] * mirror.mat[3 * k + 2];
            }
        }
        if is_behind(f.head, &mirror.pos, &mirror.mat) {
            continue;
        }
        gl.set(gl::DEPTH_TEST, false);
        gl.color_mask(false);
        gl.set(gl::STENCIL_TEST, true);
        gl.clear(gl::STENCIL_BUFFER_BIT);
        gl.stencil(gl::ALWAYS, 1, gl::REPLACE);
        polygon(gl, p, false);
        f.geom(&mirror, Mode::Normal);
        polygon(gl, p, wire);
        gl.set(gl::DEPTH_TEST, true);
        gl.color_mask(true);
        gl.stencil(gl::EQUAL, 1, gl::KEEP);
        let m = &mirror.mat;
        let n = [-m[2], -m[5], -m[8]];
        let d = mirror.pos[0] * m[2] + mirror.pos[1] * m[5] + mirror.pos[2] * m[8];
        gl.set(gl::CLIP_DISTANCE0, true);
        gl.uniform_vec(p.clip, 4, &[n[0], n[1], n[2], d]);
        gl.front_face(gl::CW);
        f.reflect = matrix::reflection(mirror.pos, &mirror.mat);
        let on = vec![true; f.nlight()];
        f.lights(&on);
        let dim = |g: &VisGeom| {
            let mut g = g.clone();
            for c in &mut g.rgba[..3] {
                *c *= mirror.reflectance;
            }
            g
        };
        for (j, other) in scn.geoms.iter().enumerate() {
            if other.transparent == 0 && i != j {
                f.geom(&dim(other), Mode::Normal);
            }
        }
        blend_transparent(f, true);
        for &j in order.iter().filter(|&&j| j != i) {
            f.geom(&dim(&scn.geoms[j]), Mode::Normal);
        }
        if scn.flags[rnd::ADDITIVE] == 0 {
            for &j in order.iter().rev().filter(|&&j| j != i) {
                f.geom(&dim(&scn.geoms[j]), Mode::Normal);
            }
        }
        blend_transparent(f, false);
        f.lights(&[]);
        gl.set(gl::STENCIL_TEST, false);
        gl.set(gl::CLIP_DISTANCE0, false);
        gl.uniform_vec(p.clip, 4, &[0.0; 4]);
        f.reflect = IDENTITY;
        gl.front_face(gl::CCW);
    }
}

/// Depth writes off and blending on for transparent geoms (or back to normal).
fn blend_transparent(f: &Frame, on: bool) {
    let gl = f.gl;
    gl.depth(gl::GEQUAL, !on);
    gl.set(gl::BLEND, on);
    if on {
        if f.scn.flags[rnd::ADDITIVE] != 0 {
            gl.blend_func(gl::SRC_ALPHA, gl::ONE);
        } else {
            gl.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
        }
    }
}

/// Opaque geoms with every light that casts no shadow (shadow casters come in their own
/// passes); the reflective geom is added on top of its mirror image.
fn opaque(f: &mut Frame) {
    let (gl, scn) = (f.gl, f.scn);
    let shadows = scn.flags[rnd::SHADOW] != 0 && f.con.shadow.is_some();
    let on: Vec<bool> = scn
        .lights
        .iter()
        .take(MAXLIGHT)
        .map(|l| l.castshadow == 0 || !shadows)
        .collect();
    f.lights(&on);
    gl.set(gl::BLEND, true);
    gl.blend_func(gl::ONE, gl::ONE);
    for g in scn.geoms.iter().filter(|g| is_reflective(g)) {
        f.geom(g, Mode::Normal);
    }
    gl.set(gl::BLEND, false);
    for g in scn
        .geoms
        .iter()
        .filter(|g| g.transparent == 0 && !is_reflective(g))
    {
        f.geom(g, Mode::Normal);
    }
    f.lights(&[]);
}

/// Bias from clip coordinates to shadow-map texture coordinates (x, y to [0, 1]; depth
/// already in [0, 1] with clip control, else mapped too).
fn shadow_bias(zero_one: bool) -> Mat4 {
    let z = if zero_one { (1.0, 0.0) } else { (0.5, 0.5) };
    [
        0.5, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0, z.0, 0.0, 0.5, 0.5, z.1, 1.0,
    ]
}

/// One pass per shadow-casting light: depth from the light into the shadow map, then the
/// opaque geoms again, lit by that light only where the map says it reaches, added on top.
fn shadows(f: &mut Frame, cam: &GlCamera, camproj: &Mat4, vp: &Rect, zero_one: bool) {
    let (gl, p, scn, con) = (f.gl, f.p, f.scn, f.con);
    let Some((fbo, tex, size)) = con.shadow else {
        return;
    };
    gl.uniform_vec(p.fogcolor, 4, &[0.0; 4]);
    for (i, light) in scn.lights.iter().enumerate().take(MAXLIGHT) {
        if light.castshadow == 0 {
            continue;
        }
        let up = matrix::ortho_vec(light.dir);
        let (near, far) = (f64::from(cam.frustum_near), f64::from(cam.frustum_far));
        let lproj = if light.directional != 0 {
            let c = f64::from(con.shadow_clip);
            matrix::ortho(-c, c, -c, c, near, far)
        } else {
            let fovy = (2.0 * light.cutoff * con.shadow_scale).min(160.0);
            matrix::perspective(fovy, 1.0, cam.frustum_near, cam.frustum_far)
        };
        let lproj = matrix::mul(&matrix::reverse_z(zero_one), &lproj);
        let lview = matrix::look_at(light.pos, light.dir, up);
        gl.bind_framebuffer(gl::FRAMEBUFFER, fbo);
        gl.draw_buffer(gl::NONE);
        gl.clear(gl::DEPTH_BUFFER_BIT);
        gl.viewport(1, 1, size - 2, size - 2);
        f.set_cull(true);
        f.set_lighting(false);
        gl.color_mask(false);
        gl.uniform_mat4(p.proj, &lproj);
        gl.uniform_mat4(p.view, &lview);
        let saved_view = f.view;
        f.view = lview;
        for g in &scn.geoms {
            f.geom(g, Mode::ShadowCast);
        }
        f.view = saved_view;
        con.restore_buffer(gl);
        gl.viewport(vp.left, vp.bottom, vp.width, vp.height);
        f.set_cull(false);
        f.set_lighting(true);
        gl.color_mask(true);
        gl.uniform_mat4(p.proj, camproj);
        gl.uniform_mat4(p.view, &f.view);
        let texmat = matrix::mul(&shadow_bias(zero_one), &matrix::mul(&lproj, &lview));
        gl.bind_texture(UNIT_SHADOW, gl::TEXTURE_2D, tex);
        gl.uniform_mat4(p.shadowmat, &texmat);
        gl.uniform_i(p.shadow, 1);
        gl.uniform_i(p.alphatest, 1);
        gl.set(gl::BLEND, true);
        gl.blend_func(gl::ONE, gl::ONE);
        let mut on = vec![false; f.nlight()];
        on[i] = true;
        f.lights(&on);
        for g in scn.geoms.iter().filter(|g| g.transparent == 0) {
            f.geom(g, Mode::ShadowMap);
        }
        f.lights(&[]);
        gl.set(gl::BLEND, false);
        gl.uniform_i(p.alphatest, 0);
        gl.uniform_i(p.shadow, 0);
    }
    gl.uniform_vec(p.fogcolor, 4, &con.fog.2);
}

/// The first skybox texture on a large cylinder around the head, and the haze where the
/// first infinite plane meets it.
fn skybox(f: &mut Frame, cam: &GlCamera) {
    let (gl, p, scn, con) = (f.gl, f.p, f.scn, f.con);
    let Some(&(tex, _)) = con.textures.iter().find(|t| t.1 == TEXTURE_SKYBOX) else {
        return;
    };
    polygon(gl, p, false);
    f.set_lighting(false);
    f.set_cull(true);
    let mut dst = cam.frustum_far * 0.70;
    if scn.enabletransform != 0 {
        dst /= scn.scale;
    }
    let m = matrix::scale(&matrix::translate(&IDENTITY, f.head), [dst; 3]);
    gl.bind_texture(UNIT_CUBE, gl::TEXTURE_CUBE_MAP, tex);
    gl.uniform_i(p.texmode, TexMode::Cube as i32);
    // the skybox is stored with z up in its image: rotate 90 degrees about x
    gl.uniform_vec(
        p.tplane,
        4,
        &[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0],
    );
    gl.uniform_vec(p.color, 4, &[1.0; 4]);
    gl.uniform_vec(p.emission, 3, &[0.0; 3]);
    f.builtin(Builtin::Cylinder, &m);
    gl.uniform_i(p.texmode, TexMode::None as i32);
    if scn.flags[rnd::HAZE] != 0 {
        haze(f, &m, dst);
    }
    f.set_lighting(true);
    f.set_cull(false);
    polygon(gl, p, scn.flags[rnd::WIREFRAME] != 0);
}

fn haze(f: &mut Frame, sky: &Mat4, dst: f32) {
    let (gl, p) = (f.gl, f.p);
    let Some(plane) = f
        .scn
        .geoms
        .iter()
        .find(|g| g.type_ == GEOM_PLANE && g.size[0] == 0.0 && g.size[1] == 0.0)
    else {
        return;
    };
    let mat = &plane.mat;
    let d = [0, 1, 2].map(|k| f.head[k] - plane.pos[k]);
    let elevation = (d[0] * mat[2] + d[1] * mat[5] + d[2] * mat[8]) / dst;
    if elevation < 0.0 {
        return;
    }
    let rot = matrix::pose(&[0.0; 3], mat);
    let m = matrix::mul(sky, &rot);
    let m = matrix::scale(
        &matrix::translate(&m, [0.0, 0.0, -elevation]),
        [1.0, 1.0, elevation],
    );
    gl.set(gl::BLEND, true);
    gl.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    gl.uniform_i(p.vertexcolor, 1);
    f.builtin(Builtin::Haze, &m);
    gl.uniform_i(p.vertexcolor, 0);
    gl.set(gl::BLEND, false);
}

/// Transparent geoms, all lights on, depth writes off: nearest first, then (unless
/// additive) farthest first, so that both orders contribute.
fn transparent(f: &mut Frame, order: &[usize]) {
    let scn = f.scn;
    let on = vec![true; f.nlight()];
    f.lights(&on);
    blend_transparent(f, true);
    for &i in order {
        f.geom(&scn.geoms[i], Mode::Normal);
    }
    if scn.flags[rnd::ADDITIVE] == 0 {
        for &i in order.iter().rev() {
            f.geom(&scn.geoms[i], Mode::Normal);
        }
    }
    blend_transparent(f, false);
    f.lights(&[]);
}

/// Each geom's label in the shadow font at the geom's position, over everything.
fn labels(f: &Frame, proj: &Mat4, view: &Mat4, vp: &Rect) {
    let (gl, con) = (f.gl, f.con);
    let pv = matrix::mul(proj, view);
    let mut drawn = false;
    for g in f.scn.geoms.iter().filter(|g| !g.label.is_empty()) {
        let c = matrix::apply(&pv, [g.pos[0], g.pos[1], g.pos[2], 1.0]);
        // a position outside the view volume is not drawn (an invalid raster position)
        let inside = c[3] > 0.0 && c[..3].iter().all(|x| x.abs() <= c[3]);
        if !inside {
            continue;
        }
        if !drawn {
            super::flat::begin_2d(gl, con, *vp, vp.width as f32, vp.height as f32);
            drawn = true;
        }
        let x = (c[0] / c[3] + 1.0) * 0.5 * vp.width as f32;
        let y = (c[1] / c[3] + 1.0) * 0.5 * vp.height as f32;
        super::text::draw(gl, con, super::text::Font::Shadow, &g.label, x, y, [1.0; 3]);
    }
    if drawn {
        gl.set(gl::DEPTH_TEST, true);
        gl.set(gl::CULL_FACE, f.scn.flags[rnd::CULL_FACE] != 0);
        gl.uniform_i(f.p.lighting, i32::from(f.lighting));
        gl.uniform_i(f.p.fog, i32::from(f.scn.flags[rnd::FOG] != 0));
        polygon(gl, f.p, f.scn.flags[rnd::WIREFRAME] != 0);
    }
}

/// The coloured frame around the viewport, `framewidth` pixels wide.
fn draw_frame(gl: &Gl, scn: &Scene, vp: &Rect) {
    let w = scn.framewidth;
    if w <= 0 {
        return;
    }
    let c = scn.framergb;
    gl.clear_color([c[0], c[1], c[2], 0.0]);
    gl.set(gl::SCISSOR_TEST, true);
    for (x, y, ww, hh) in [
        (vp.left, vp.bottom, vp.width, w),
        (vp.left, vp.bottom + vp.height - w, vp.width, w),
        (vp.left, vp.bottom, w, vp.height),
        (vp.left + vp.width - w, vp.bottom, w, vp.height),
    ] {
        gl.scissor(x, y, ww, hh);
        gl.clear(gl::COLOR_BUFFER_BIT);
    }
    gl.set(gl::SCISSOR_TEST, false);
    gl.clear_color([0.0; 4]);
}
