//! `mjrs render`: an offscreen image of a model's state, headless through EGL, with the same
//! options and meaning as `mjref render` (MuJoCo's Python `Renderer`): the default free camera
//! or a model camera by id or name, image size at most the model's offscreen buffer, and
//! segmentation images whose pixels encode the object under them as
//! `((objid + 1) & 255, (objid + 1) >> 8, objtype + 1)`, 0 where there is none.

use mjrs_core::name::name2id;
use mjrs_core::types::OBJ_CAMERA;
use mjrs_core::{Data, Model};
use mjrs_gl::render::{self, Context, Rect};
use mjrs_gl::vis::{self, camera_type, rnd, Camera, Perturb, Scene, VisOption};
use mjrs_gl::{Gl, Headless};
use std::path::Path;

/// Geoms a scene holds (MuJoCo's `Renderer` default).
const MAXGEOM: usize = 10000;
/// Font scale of the context, in percent (the `Renderer`'s `mjFONTSCALE_150`).
pub const FONTSCALE: i32 = 150;

/// What to render.
#[derive(Clone, Debug)]
pub struct Options {
    /// Camera id, name, or -1 for the default free camera.
    pub camera: String,
    /// Image width in pixels.
    pub width: i32,
    /// Image height in pixels.
    pub height: i32,
    /// Segmentation image instead of colours.
    pub segment: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            camera: "-1".into(),
            width: 640,
            height: 480,
            segment: false,
        }
    }
}

/// The camera named by `spec` (an id, a name or -1), as the `Renderer` resolves it.
pub fn camera(m: &Model, spec: &str) -> Result<Camera, String> {
    let id: i64 = match spec.trim().parse() {
        Ok(id) => id,
        Err(_) => match name2id(m, OBJ_CAMERA, spec) {
            Some(id) => id as i64,
            None => return Err(format!("the camera \"{spec}\" does not exist")),
        },
    };
    if id < -1 || id >= m.ncam as i64 {
        return Err(format!(
            "the camera id {id} is out of range [-1, {})",
            m.ncam
        ));
    }
    if id == -1 {
        return Ok(Camera::default_free(m));
    }
    Ok(Camera {
        type_: camera_type::FIXED,
        fixedcamid: id as i32,
        ..Camera::default()
    })
}

/// Check the image fits the model's offscreen buffer, with the `Renderer`'s advice if not.
pub fn check_size(m: &Model, width: i32, height: i32) -> Result<(), String> {
    let (bw, bh) = (m.vis.global.offwidth, m.vis.global.offheight);
    if width <= 0 || height <= 0 {
        return Err(format!("image size {width}x{height} must be positive"));
    }
    if width > bw {
        return Err(format!(
            "image width {width} > framebuffer width {bw}: reduce the width or enlarge the \
             offscreen buffer in the model with <visual><global offwidth=\"{width}\"/></visual>"
        ));
    }
    if height > bh {
        return Err(format!(
            "image height {height} > framebuffer height {bh}: reduce the height or enlarge the \
             offscreen buffer in the model with <visual><global offheight=\"{height}\"/></visual>"
        ));
    }
    Ok(())
}

/// A headless renderer for one model: the GL context, the model's resources and a scene.
pub struct Renderer {
    gl: Headless,
    con: Context,
    scn: Scene,
    opt: Options,
}

impl Renderer {
    /// Make the context and upload the model; fails with what is missing (no EGL, no GL 3.3)
    /// or when the image does not fit the model's offscreen buffer.
    pub fn new(m: &Model, opt: Options) -> Result<Renderer, String> {
        check_size(m, opt.width, opt.height)?;
        camera(m, &opt.camera)?;
        let gl = Headless::new().map_err(|e| format!("no headless OpenGL: {e}"))?;
        let con = Context::new(gl.gl(), m, FONTSCALE).map_err(|e| e.to_string())?;
        Ok(Renderer {
            gl,
            con,
            scn: Scene::new(MAXGEOM),
            opt,
        })
    }

    fn gl(&self) -> &Gl {
        self.gl.gl()
    }

    /// Render the current state of `d`: RGB bytes, top row first.
    pub fn image(&mut self, m: &Model, d: &mut Data) -> Result<Vec<u8>, String> {
        let mut cam = camera(m, &self.opt.camera)?;
        let vopt = VisOption::default();
        vis::update_scene(
            m,
            d,
            &vopt,
            &Perturb::default(),
            &mut cam,
            vis::CAT_ALL,
            &mut self.scn,
        )
        .map_err(|e| e.to_string())?;
        let segment = self.opt.segment;
        self.scn.flags[rnd::SEGMENT] = u8::from(segment);
        self.scn.flags[rnd::IDCOLOR] = u8::from(segment);
        let rect = Rect::sized(self.opt.width, self.opt.height);
        let gl = self.gl.gl();
        render::render(gl, rect, &mut self.scn, &self.con).map_err(|e| e.to_string())?;
        let (w, h) = (self.opt.width as usize, self.opt.height as usize);
        let mut rgb = vec![0u8; w * h * 3];
        render::read_pixels(gl, &self.con, rect, Some(&mut rgb), None)
            .map_err(|e| e.to_string())?;
        let mut img = flip_rows(&rgb, w * 3);
        if segment {
            self.decode_segments(&mut img);
        }
        let _ = self.gl();
        Ok(img)
    }

    /// Replace segmentation colours (segid + 1) by the encoding of the object's id and type.
    fn decode_segments(&self, img: &mut [u8]) {
        let lookup: Vec<[u8; 3]> = core::iter::once([0, 0, 0])
            .chain(self.scn.geoms.iter().map(|g| {
                let id = (g.objid + 1) as u32;
                [(id & 255) as u8, (id >> 8) as u8, (g.objtype + 1) as u8]
            }))
            .collect();
        // segid i of the scene is geom i; its colour is i + 1
        for px in img.chunks_mut(3) {
            let seg = usize::from(px[0]) | usize::from(px[1]) << 8 | usize::from(px[2]) << 16;
            px.copy_from_slice(lookup.get(seg).unwrap_or(&[0, 0, 0]));
        }
    }
}

fn flip_rows(rgb: &[u8], stride: usize) -> Vec<u8> {
    rgb.chunks(stride).rev().flatten().copied().collect()
}

/// Write an 8-bit RGB PNG atomically (a temporary file renamed over the target).
pub fn write_png(path: &Path, width: u32, height: u32, rgb: &[u8]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let tmp = path.with_extension("png.tmp");
    {
        let file = std::fs::File::create(&tmp).map_err(|e| err(&e))?;
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), width, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| err(&e))?;
        writer.write_image_data(rgb).map_err(|e| err(&e))?;
        writer.finish().map_err(|e| err(&e))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(&e)
    })
}
