//! The renderer's resources on the GPU (`mjrContext`): the shader, the builtin shapes, every
//! plane grid, mesh, convex hull and height field of a model, its textures, the shadow map and
//! the offscreen framebuffer. Made once per model; scenes of that model are then rendered with
//! [`super::render`].

use super::shader::{self, Program};
use super::shapes::{self, Shape, VERTEX_FLOATS};
use super::RenderError;
use crate::sys::Gl;
use gl::types::GLuint;
use mjrs_core::Model;

/// A triangle list on the GPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Buffer {
    pub(crate) vao: GLuint,
    pub(crate) vbo: GLuint,
    pub(crate) count: usize,
}

/// Builtin shapes, indexed by [`Builtin`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// Unit sphere.
    Sphere,
    /// Upper half of a unit sphere centred at z = 1.
    SphereTop,
    /// Lower half centred at z = -1.
    SphereBottom,
    /// Closed cylinder.
    Cylinder,
    /// Open cylinder.
    CylinderOpen,
    /// The horizon haze.
    Haze,
    /// Unit box.
    Box,
    /// Closed cone.
    Cone,
    /// The unit plane grid.
    Plane,
}

const NBUILTIN: usize = 9;

/// Kinds of texture, as in `mjtTexture`.
pub const TEXTURE_2D: i32 = 0;
/// Skybox texture (a cube map drawn around the viewer).
pub const TEXTURE_SKYBOX: i32 = 2;

/// Where rendering goes (`mjtFramebuffer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framebuffer {
    /// The window's default framebuffer.
    Window,
    /// The offscreen framebuffer of the context.
    Offscreen,
}

/// The offscreen framebuffer: multisampled when the model asks for samples, with a
/// single-sample copy that pixels are read from.
#[derive(Debug, Default)]
pub(crate) struct Offscreen {
    pub(crate) fbo: GLuint,
    pub(crate) fbo_r: GLuint,
    pub(crate) rbos: Vec<GLuint>,
    pub(crate) width: i32,
    pub(crate) height: i32,
    /// Samples asked for and obtained.
    pub(crate) requested: i32,
    pub(crate) samples: i32,
}

/// Auxiliary buffers a context holds (`mjNAUX`).
pub const NAUX: usize = 10;

impl Offscreen {
    /// The framebuffer to read `rect` from: the single-sample copy, after resolving into it,
    /// when multisampled.
    pub(crate) fn resolved(&self, gl: &Gl, rect: super::Rect) -> GLuint {
        if self.fbo_r == 0 {
            return self.fbo;
        }
        gl.bind_framebuffer(gl::READ_FRAMEBUFFER, self.fbo);
        gl.bind_framebuffer(gl::DRAW_FRAMEBUFFER, self.fbo_r);
        let mask = gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT;
        gl.blit_rects(rect, rect, mask, gl::NEAREST);
        self.fbo_r
    }

    fn free(self, gl: &Gl) {
        gl.delete_framebuffers(&[self.fbo, self.fbo_r], &self.rbos);
    }
}

/// A framebuffer of `w x h` (colour RGBA8, depth and stencil), multisampled with up to
/// `samples` samples and then with a single-sample copy to read from.
fn framebuffer(
    gl: &Gl,
    w: i32,
    h: i32,
    samples: i32,
    what: &str,
) -> Result<Offscreen, RenderError> {
    let requested = samples;
    let samples = samples.clamp(0, gl.integer(gl::MAX_SAMPLES).max(0));
    let depth = gl::DEPTH32F_STENCIL8;
    let fbo = gl.new_framebuffer();
    let mut rbos = vec![gl.attach_renderbuffer(gl::COLOR_ATTACHMENT0, gl::RGBA8, samples, w, h)];
    let samples = gl.renderbuffer_samples();
    rbos.push(gl.attach_renderbuffer(gl::DEPTH_STENCIL_ATTACHMENT, depth, samples, w, h));
    check_complete(gl, what)?;
    let fbo_r = if samples > 0 {
        let f = gl.new_framebuffer();
        rbos.push(gl.attach_renderbuffer(gl::COLOR_ATTACHMENT0, gl::RGBA8, 0, w, h));
        rbos.push(gl.attach_renderbuffer(gl::DEPTH_STENCIL_ATTACHMENT, depth, 0, w, h));
        check_complete(gl, what)?;
        f
    } else {
        0
    };
    Ok(Offscreen {
        fbo,
        fbo_r,
        rbos,
        width: w,
        height: h,
        requested,
        samples,
    })
}

/// The renderer's resources for one model (`mjrContext`).
pub struct Context {
    pub(crate) program: Program,
    pub(crate) pixels: shader::PixelProgram,
    pub(crate) builtin: [Buffer; NBUILTIN],
    pub(crate) planes: Vec<Buffer>,
    pub(crate) meshes: Vec<Option<Buffer>>,
    pub(crate) hfields: Vec<Buffer>,
    pub(crate) textures: Vec<(GLuint, i32)>,
    pub(crate) skins: Vec<SkinStatic>,
    pub(crate) stream: Buffer,
    pub(crate) shadow: Option<(GLuint, GLuint, i32)>,
    pub(crate) off: Offscreen,
    pub(crate) aux: [Option<Offscreen>; NAUX],
    /// Where `render` draws.
    pub current: Framebuffer,
    /// How `read_pixels` maps depth.
    pub read_depth_map: super::DepthMap,
    pub(crate) window_doublebuffer: bool,
    pub(crate) fog: (f32, f32, [f32; 4]),
    pub(crate) shadow_clip: f32,
    pub(crate) shadow_scale: f32,
    pub(crate) line_width: f32,
    pub(crate) font: super::text::FontSet,
}

/// What a skin needs besides the scene's vertex positions and normals.
pub(crate) struct SkinStatic {
    pub(crate) vertadr: usize,
    pub(crate) faces: Vec<u32>,
    pub(crate) texcoord: Option<Vec<f32>>,
}

fn upload(gl: &Gl, shape: &Shape) -> Buffer {
    use shader::{ATTR_COLOR, ATTR_EDGE, ATTR_NORMAL, ATTR_POS, ATTR_TEX};
    let attribs = [
        (ATTR_POS, 3, 0),
        (ATTR_NORMAL, 3, 3),
        (ATTR_TEX, 2, 6),
        (ATTR_COLOR, 4, 8),
        (ATTR_EDGE, 1, 12),
    ];
    let (vao, vbo) = gl.vertex_array(&shape.floats(), VERTEX_FLOATS, &attribs);
    Buffer {
        vao,
        vbo,
        count: shape.verts.len(),
    }
}

fn count(n: i32) -> usize {
    usize::try_from(n).unwrap_or(0)
}

fn builtin_shapes(m: &Model) -> [Shape; NBUILTIN] {
    let q = &m.vis.quality;
    let (slices, stacks, quads) = (
        count(q.numslices).max(3),
        count(q.numstacks).max(2),
        count(q.numquads).max(1),
    );
    let haze_rgba = m.vis.rgba.haze;
    [
        shapes::sphere(slices, stacks),
        shapes::half_sphere(1.0, slices, stacks / 2),
        shapes::half_sphere(-1.0, slices, stacks / 2),
        shapes::cylinder(slices, stacks),
        shapes::cylinder_open(slices, stacks),
        shapes::haze(slices, m.vis.map.haze, haze_rgba),
        shapes::cube(quads),
        shapes::cone(slices, stacks),
        shapes::unit_plane(quads),
    ]
}

/// Grid of each plane geom, in plane order.
fn plane_shapes(m: &Model) -> Vec<Shape> {
    let zfar = f64::from(m.vis.map.zfar) * m.stat.extent;
    let mut out = Vec::new();
    for i in 0..m.ngeom {
        if m.geom_type[i] != mjrs_core::types::GEOM_PLANE {
            continue;
        }
        let size = &m.geom_size[3 * i..3 * i + 3];
        let matid = m.geom_matid[i];
        let cells: Vec<Vec<f64>> = (0..2)
            .map(|k| {
                let repeat = usize::try_from(matid)
                    .ok()
                    .map(|mat| f64::from(m.mat_texrepeat[2 * mat + k]));
                shapes::plane_cells(size[k], size[2], repeat, zfar)
            })
            .collect();
        out.push(shapes::grid(&cells[0], &cells[1]));
    }
    out
}

/// Mesh `k` (and its convex hull, when the mesh has a graph) as shapes.
fn mesh_shapes(m: &Model, k: usize) -> [Option<Shape>; 2] {
    let (vadr, vnum) = (count(m.mesh_vertadr[k]), count(m.mesh_vertnum[k]));
    let (fadr, fnum) = (count(m.mesh_faceadr[k]), count(m.mesh_facenum[k]));
    let vert = &m.mesh_vert[3 * vadr..3 * (vadr + vnum)];
    let nadr = count(m.mesh_normaladr[k]);
    let normal = &m.mesh_normal[3 * nadr..3 * (nadr + count(m.mesh_normalnum[k]))];
    let face = &m.mesh_face[3 * fadr..3 * (fadr + fnum)];
    let facenormal = &m.mesh_facenormal[3 * fadr..3 * (fadr + fnum)];
    let tex = usize::try_from(m.mesh_texcoordadr[k]).ok().map(|tadr| {
        let tnum = count(m.mesh_texcoordnum[k]);
        (
            &m.mesh_texcoord[2 * tadr..2 * (tadr + tnum)],
            &m.mesh_facetexcoord[3 * fadr..3 * (fadr + fnum)],
        )
    });
    let mesh = shapes::mesh(vert, normal, face, facenormal, tex);
    let hull = usize::try_from(m.mesh_graphadr[k])
        .ok()
        .map(|g| shapes::hull(vert, &m.mesh_graph[g..], tex.map(|t| t.0)));
    [Some(mesh), hull]
}

fn hfield_shape(m: &Model, k: usize) -> Shape {
    let (nrow, ncol) = (count(m.hfield_nrow[k]), count(m.hfield_ncol[k]));
    let adr = count(m.hfield_adr[k]);
    let size: [f32; 4] = core::array::from_fn(|j| m.hfield_size[4 * k + j] as f32);
    let quads = count(m.vis.quality.numquads).max(1);
    shapes::hfield(
        &m.hfield_data[adr..adr + nrow * ncol],
        nrow,
        ncol,
        size,
        quads,
    )
}

impl Context {
    /// Upload everything a model needs (`mjr_makeContext`). `fontscale` is a percentage
    /// (50 to 300 in steps of 50, MuJoCo's `mjtFontScale`).
    pub fn new(gl: &Gl, m: &Model, fontscale: i32) -> Result<Context, RenderError> {
        let program = Program::new(gl).map_err(RenderError::Gl)?;
        let pixels = shader::PixelProgram::new(gl).map_err(RenderError::Gl)?;
        let builtin = builtin_shapes(m).map(|s| upload(gl, &s));
        let planes = plane_shapes(m).iter().map(|s| upload(gl, s)).collect();
        let mut meshes = Vec::with_capacity(2 * m.nmesh);
        for k in 0..m.nmesh {
            for s in mesh_shapes(m, k) {
                meshes.push(s.map(|s| upload(gl, &s)));
            }
        }
        let hfields = (0..m.nhfield)
            .map(|k| upload(gl, &hfield_shape(m, k)))
            .collect();
        let stream = upload(gl, &Shape::default());
        let mut con = Context {
            program,
            pixels,
            builtin,
            planes,
            meshes,
            hfields,
            textures: Vec::new(),
            skins: skin_statics(m),
            stream,
            shadow: None,
            off: Offscreen::default(),
            aux: Default::default(),
            current: Framebuffer::Offscreen,
            read_depth_map: super::DepthMap::ZeroNear,
            window_doublebuffer: true,
            fog: (
                (m.stat.extent * f64::from(m.vis.map.fogstart)) as f32,
                (m.stat.extent * f64::from(m.vis.map.fogend)) as f32,
                m.vis.rgba.fog,
            ),
            shadow_clip: (m.stat.extent * f64::from(m.vis.map.shadowclip)) as f32,
            shadow_scale: m.vis.map.shadowscale,
            line_width: m.vis.global.linewidth,
            font: super::text::FontSet::new(gl, fontscale)?,
        };
        con.upload_textures(gl, m)?;
        con.make_shadow(gl, count(m.vis.quality.shadowsize))?;
        con.make_offscreen(
            gl,
            m.vis.global.offwidth,
            m.vis.global.offheight,
            m.vis.quality.offsamples,
        )?;
        con.set_buffer(gl, Framebuffer::Offscreen);
        Ok(con)
    }

    /// The buffer for geometry that changes every frame (lines, skins, overlays).
    pub(crate) fn stream(&self, gl: &Gl, shape: &Shape) -> Buffer {
        gl.buffer_data(self.stream.vbo, &shape.floats());
        Buffer {
            count: shape.verts.len(),
            ..self.stream
        }
    }

    fn upload_textures(&mut self, gl: &Gl, m: &Model) -> Result<(), RenderError> {
        for k in 0..m.ntex {
            let id = texture(gl, m, k)?;
            self.textures.push((id, m.tex_type[k]));
        }
        gl.set(gl::TEXTURE_CUBE_MAP_SEAMLESS, true);
        Ok(())
    }

    /// Upload texture `k` of `m` again after its pixels changed (`mjr_uploadTexture`).
    pub fn upload_texture(&mut self, gl: &Gl, m: &Model, k: usize) -> Result<(), RenderError> {
        let slot = self
            .textures
            .get(k)
            .map(|t| t.0)
            .ok_or_else(|| bad_index("texture", k))?;
        let id = texture(gl, m, k)?;
        gl.delete_textures(&[slot]);
        self.textures[k] = (id, m.tex_type[k]);
        Ok(())
    }

    /// Upload mesh `k` of `m` (and its convex hull) again after its vertices changed
    /// (`mjr_uploadMesh`).
    pub fn upload_mesh(&mut self, gl: &Gl, m: &Model, k: usize) -> Result<(), RenderError> {
        if k >= m.nmesh || 2 * k + 1 >= self.meshes.len() {
            return Err(bad_index("mesh", k));
        }
        for (slot, shape) in mesh_shapes(m, k).into_iter().enumerate() {
            let new = shape.map(|s| upload(gl, &s));
            if let Some(old) = std::mem::replace(&mut self.meshes[2 * k + slot], new) {
                gl.delete_arrays(&[old.vao], &[old.vbo]);
            }
        }
        Ok(())
    }

    /// Upload height field `k` of `m` again after its elevations changed
    /// (`mjr_uploadHField`).
    pub fn upload_hfield(&mut self, gl: &Gl, m: &Model, k: usize) -> Result<(), RenderError> {
        if k >= m.nhfield || k >= self.hfields.len() {
            return Err(bad_index("height field", k));
        }
        let old = std::mem::replace(&mut self.hfields[k], upload(gl, &hfield_shape(m, k)));
        gl.delete_arrays(&[old.vao], &[old.vbo]);
        Ok(())
    }

    fn make_shadow(&mut self, gl: &Gl, size: usize) -> Result<(), RenderError> {
        if size == 0 {
            return Ok(());
        }
        let fbo = gl.new_framebuffer();
        let tex = gl.new_texture(gl::TEXTURE_2D, shader::UNIT_SHADOW);
        gl.tex_depth(gl::DEPTH_COMPONENT32F, size);
        let t = gl::TEXTURE_2D;
        gl.tex_parameter(t, gl::TEXTURE_MIN_FILTER, gl::NEAREST);
        gl.tex_parameter(t, gl::TEXTURE_MAG_FILTER, gl::NEAREST);
        gl.tex_parameter(t, gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE);
        gl.tex_parameter(t, gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE);
        gl.tex_parameter(t, gl::TEXTURE_COMPARE_MODE, gl::COMPARE_REF_TO_TEXTURE);
        gl.tex_parameter(t, gl::TEXTURE_COMPARE_FUNC, gl::GEQUAL);
        gl.attach_texture(gl::DEPTH_ATTACHMENT, tex);
        gl.draw_read_buffer(gl::NONE, gl::NONE);
        let status = gl.framebuffer_status();
        gl.bind_framebuffer(gl::FRAMEBUFFER, 0);
        if status != gl::FRAMEBUFFER_COMPLETE {
            return Err(RenderError::Gl(format!(
                "shadow framebuffer incomplete (0x{status:x})"
            )));
        }
        self.shadow = Some((fbo, tex, size as i32));
        Ok(())
    }

    fn make_offscreen(&mut self, gl: &Gl, w: i32, h: i32, samples: i32) -> Result<(), RenderError> {
        if w <= 0 || h <= 0 {
            return Ok(());
        }
        self.off = framebuffer(gl, w, h, samples, "offscreen")?;
        Ok(())
    }

    /// Change the offscreen buffer's size (`mjr_resizeOffscreen`); its contents are lost.
    pub fn resize_offscreen(&mut self, gl: &Gl, w: i32, h: i32) -> Result<(), RenderError> {
        if w <= 0 || h <= 0 {
            return Err(RenderError::Size(format!(
                "offscreen size {w}x{h} must be positive"
            )));
        }
        let new = framebuffer(gl, w, h, self.off.requested, "offscreen")?;
        std::mem::replace(&mut self.off, new).free(gl);
        self.restore_buffer(gl);
        Ok(())
    }

    /// Make auxiliary buffer `index` (0..[`NAUX`]) of `w x h` with `samples` samples
    /// (`mjr_addAux`), replacing one there.
    pub fn add_aux(
        &mut self,
        gl: &Gl,
        index: usize,
        w: i32,
        h: i32,
        samples: i32,
    ) -> Result<(), RenderError> {
        if index >= NAUX {
            return Err(bad_index("auxiliary buffer", index));
        }
        if w <= 0 || h <= 0 {
            return Err(RenderError::Size(format!(
                "auxiliary buffer size {w}x{h} must be positive"
            )));
        }
        let new = framebuffer(gl, w, h, samples, "auxiliary")?;
        if let Some(old) = self.aux[index].replace(new) {
            old.free(gl);
        }
        self.restore_buffer(gl);
        Ok(())
    }

    /// Draw into auxiliary buffer `index` from now on, until `set_buffer` (`mjr_setAux`).
    pub fn set_aux(&self, gl: &Gl, index: usize) -> Result<(), RenderError> {
        let aux = self
            .aux
            .get(index)
            .and_then(Option::as_ref)
            .ok_or_else(|| bad_index("auxiliary buffer", index))?;
        gl.bind_framebuffer(gl::FRAMEBUFFER, aux.fbo);
        gl.draw_read_buffer(gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT0);
        Ok(())
    }

    /// Copy `src` of auxiliary buffer `index` to (left, bottom) of the current buffer
    /// (`mjr_blitAux`), resolving its samples.
    pub fn blit_aux(
        &self,
        gl: &Gl,
        index: usize,
        src: super::Rect,
        left: i32,
        bottom: i32,
    ) -> Result<(), RenderError> {
        let aux = self
            .aux
            .get(index)
            .and_then(Option::as_ref)
            .ok_or_else(|| bad_index("auxiliary buffer", index))?;
        let read = aux.resolved(gl, src);
        gl.bind_framebuffer(gl::READ_FRAMEBUFFER, read);
        gl.bind_framebuffer(gl::DRAW_FRAMEBUFFER, self.target_fbo());
        let dst = super::Rect {
            left,
            bottom,
            ..src
        };
        gl.blit_rects(src, dst, gl::COLOR_BUFFER_BIT, gl::NEAREST);
        self.restore_buffer(gl);
        Ok(())
    }

    /// Copy `src` of the current buffer to `dst` of the other one (offscreen to window or
    /// the reverse), colour and/or depth, scaling colour linearly when the sizes differ
    /// (`mjr_blitBuffer`).
    pub fn blit_buffer(
        &self,
        gl: &Gl,
        src: super::Rect,
        dst: super::Rect,
        color: bool,
        depth: bool,
    ) -> Result<(), RenderError> {
        let mask = if color { gl::COLOR_BUFFER_BIT } else { 0 }
            | if depth { gl::DEPTH_BUFFER_BIT } else { 0 };
        if mask == 0 {
            return Ok(());
        }
        let scaled = src.width != dst.width || src.height != dst.height;
        let filter = if scaled && !depth {
            gl::LINEAR
        } else {
            gl::NEAREST
        };
        let (read, draw) = match self.current {
            Framebuffer::Offscreen => (self.off.resolved(gl, src), 0),
            Framebuffer::Window => {
                if self.off.samples > 0 {
                    return Err(RenderError::Size(
                        "cannot blit into a multisampled offscreen buffer".into(),
                    ));
                }
                (0, self.off.fbo)
            }
        };
        gl.bind_framebuffer(gl::READ_FRAMEBUFFER, read);
        gl.bind_framebuffer(gl::DRAW_FRAMEBUFFER, draw);
        gl.blit_rects(src, dst, mask, filter);
        self.restore_buffer(gl);
        Ok(())
    }

    /// The framebuffer object of the current target.
    fn target_fbo(&self) -> GLuint {
        match self.current {
            Framebuffer::Window => 0,
            Framebuffer::Offscreen => self.off.fbo,
        }
    }

    /// Switch the fonts to another scale in percent (`mjr_changeFont`).
    pub fn change_font(&mut self, gl: &Gl, fontscale: i32) -> Result<(), RenderError> {
        let font = super::text::FontSet::new(gl, fontscale)?;
        std::mem::replace(&mut self.font, font).free(gl);
        Ok(())
    }

    /// The font scale in percent.
    pub fn font_scale(&self) -> i32 {
        self.font.scale
    }

    /// The font metrics (`charWidth`, `charHeight`... of `mjrContext`).
    pub fn font_metrics(&self) -> super::text::FontMetrics {
        self.font.metrics()
    }

    /// Width in pixels of `text` in `font` (as overlays measure it).
    pub fn text_width(&self, font: super::text::Font, text: &str) -> i32 {
        self.font.width(font, text)
    }

    /// Height in pixels of a line of `font`.
    pub fn text_height(&self, font: super::text::Font) -> i32 {
        self.font.height(font)
    }

    /// Offscreen buffer size (width, height) in pixels.
    pub fn offscreen_size(&self) -> (i32, i32) {
        (self.off.width, self.off.height)
    }

    /// Direct rendering to the window or the offscreen buffer (`mjr_setBuffer`). Without an
    /// offscreen buffer, the window is used.
    pub fn set_buffer(&mut self, gl: &Gl, target: Framebuffer) {
        self.current = if self.off.fbo == 0 {
            Framebuffer::Window
        } else {
            target
        };
        self.restore_buffer(gl);
    }

    /// Bind the current target again after other framebuffers were used.
    pub(crate) fn restore_buffer(&self, gl: &Gl) {
        match self.current {
            Framebuffer::Window => {
                gl.bind_framebuffer(gl::FRAMEBUFFER, 0);
                gl.draw_read_buffer(
                    if self.window_doublebuffer {
                        gl::BACK
                    } else {
                        gl::FRONT
                    },
                    if self.window_doublebuffer {
                        gl::BACK
                    } else {
                        gl::FRONT
                    },
                );
            }
            Framebuffer::Offscreen => {
                gl.bind_framebuffer(gl::FRAMEBUFFER, self.off.fbo);
                gl.draw_read_buffer(gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT0);
            }
        }
    }

    /// Free the GPU resources (`mjr_freeContext`); the context must not be used afterwards.
    pub fn free(self, gl: &Gl) {
        let mut vaos = Vec::new();
        let mut vbos = Vec::new();
        let all = self
            .builtin
            .iter()
            .chain(&self.planes)
            .chain(self.meshes.iter().flatten());
        for b in all.chain(&self.hfields).chain([&self.stream]) {
            vaos.push(b.vao);
            vbos.push(b.vbo);
        }
        gl.delete_arrays(&vaos, &vbos);
        let mut tex: Vec<GLuint> = self.textures.iter().map(|t| t.0).collect();
        if let Some((fbo, t, _)) = self.shadow {
            tex.push(t);
            gl.delete_framebuffers(&[fbo], &[]);
        }
        gl.delete_textures(&tex);
        self.off.free(gl);
        for aux in self.aux.into_iter().flatten() {
            aux.free(gl);
        }
        self.font.free(gl);
    }
}

fn bad_index(what: &str, k: usize) -> RenderError {
    RenderError::Model(format!("invalid {what} index {k}"))
}

/// Upload texture `k`: a 2D image, or a cube map whose six faces are one square image
/// repeated or six stacked ones.
fn texture(gl: &Gl, m: &Model, k: usize) -> Result<GLuint, RenderError> {
    let (w, h) = (count(m.tex_width[k]), count(m.tex_height[k]));
    let data = m.tex_rgb.get(count(m.tex_adr[k])..).unwrap_or(&[]);
    if m.tex_type[k] == TEXTURE_2D {
        let t = gl.new_texture(gl::TEXTURE_2D, shader::UNIT_2D);
        gl.tex_image_u8(gl::TEXTURE_2D, w, h, 3, data)
            .map_err(RenderError::Model)?;
        filtering(gl, gl::TEXTURE_2D, gl::REPEAT);
        return Ok(t);
    }
    let t = gl.new_texture(gl::TEXTURE_CUBE_MAP, shader::UNIT_CUBE);
    let stacked = w != h;
    for face in 0..6 {
        let offset = if stacked { face * 3 * w * w } else { 0 };
        let target = gl::TEXTURE_CUBE_MAP_POSITIVE_X + face as u32;
        let bytes = data.get(offset..).unwrap_or(&[]);
        gl.tex_image_u8(target, w, w, 3, bytes)
            .map_err(RenderError::Model)?;
    }
    filtering(gl, gl::TEXTURE_CUBE_MAP, gl::CLAMP_TO_EDGE);
    Ok(t)
}

fn filtering(gl: &Gl, target: gl::types::GLenum, wrap: gl::types::GLenum) {
    gl.tex_parameter(target, gl::TEXTURE_WRAP_S, wrap);
    gl.tex_parameter(target, gl::TEXTURE_WRAP_T, wrap);
    if target == gl::TEXTURE_CUBE_MAP {
        gl.tex_parameter(target, gl::TEXTURE_WRAP_R, wrap);
    }
    gl.tex_parameter(target, gl::TEXTURE_MAG_FILTER, gl::LINEAR);
    gl.tex_parameter(target, gl::TEXTURE_MIN_FILTER, gl::LINEAR_MIPMAP_LINEAR);
    gl.generate_mipmap(target);
}

fn check_complete(gl: &Gl, what: &str) -> Result<(), RenderError> {
    let status = gl.framebuffer_status();
    if status == gl::FRAMEBUFFER_COMPLETE {
        Ok(())
    } else {
        Err(RenderError::Gl(format!(
            "{what} framebuffer incomplete (0x{status:x})"
        )))
    }
}

fn skin_statics(m: &Model) -> Vec<SkinStatic> {
    (0..m.nskin)
        .map(|k| {
            let (fadr, fnum) = (count(m.skin_faceadr[k]), count(m.skin_facenum[k]));
            let faces = m.skin_face[3 * fadr..3 * (fadr + fnum)]
                .iter()
                .map(|&f| u32::try_from(f).unwrap_or(0))
                .collect();
            let texcoord = usize::try_from(m.skin_texcoordadr[k]).ok().map(|t| {
                let n = count(m.skin_vertnum[k]);
                m.skin_texcoord[2 * t..2 * (t + n)].to_vec()
            });
            SkinStatic {
                vertadr: count(m.skin_vertadr[k]),
                faces,
                texcoord,
            }
        })
        .collect()
}
