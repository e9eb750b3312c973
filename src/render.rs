//! `mjrs render`: an offscreen image of a model's state, headless through EGL, with the same
//! options and meaning as `mjref render` (MuJoCo's Python `Renderer`): the default free camera
//! or a model camera by id or name, image size at most the model's offscreen buffer, and
//! segmentation images whose pixels encode the object under them as
//! `((objid + 1) & 255, (objid + 1) >> 8, objtype + 1)`, 0 where there is none.

use mjrs_core::name::name2id;
use mjrs_core::types::{OBJ_BODY, OBJ_CAMERA};
use mjrs_core::{Data, Model};
use mjrs_gl::render::{self, Context, Rect};
use mjrs_gl::vis::{self, camera_type, rnd, Camera, Perturb, Scene, VisOption};
use mjrs_gl::Headless;
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
    /// Visualization options (what is in the scene).
    pub vis: VisOption,
    /// Rendering flags (`mjtRndFlag`: shadows, wireframe...).
    pub rnd: [u8; rnd::N],
    /// Follow this body with a tracking camera instead of `camera` (name or id).
    pub track: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            camera: "-1".into(),
            width: 640,
            height: 480,
            segment: false,
            vis: VisOption::default(),
            rnd: rnd::DEFAULT,
            track: None,
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

/// Names of the rendering flags, in `mjtRndFlag` order (MuJoCo's `mjRNDSTRING`, lower case
/// without spaces).
pub const RND_NAMES: [&str; rnd::N] = [
    "shadow",
    "wireframe",
    "reflection",
    "additive",
    "skybox",
    "fog",
    "haze",
    "segment",
    "idcolor",
    "cullface",
];

/// MuJoCo's default rendering flags with the named ones switched on (`name` or `+name`) or off
/// (`-name`).
pub fn rnd_flags(names: &[String]) -> Result<[u8; rnd::N], String> {
    let mut flags = rnd::DEFAULT;
    for spec in names.iter().filter(|s| !s.is_empty()) {
        let (on, name) = match spec.strip_prefix('-') {
            Some(n) => (0, n),
            None => (1, spec.strip_prefix('+').unwrap_or(spec)),
        };
        let Some(k) = RND_NAMES.iter().position(|n| n.eq_ignore_ascii_case(name)) else {
            return Err(format!(
                "unknown rendering flag '{name}'; the flags are: {}",
                RND_NAMES.join(", ")
            ));
        };
        flags[k] = on;
    }
    Ok(flags)
}

/// A tracking camera following body `spec` (name or id) at the default free camera's
/// distance and angles.
pub fn tracking_camera(m: &Model, spec: &str) -> Result<Camera, String> {
    let id = match spec.trim().parse::<i64>() {
        Ok(id) => id,
        Err(_) => name2id(m, OBJ_BODY, spec).map_or(-1, |id| id as i64),
    };
    if id < 0 || id >= m.nbody as i64 {
        return Err(format!("no body '{spec}' to track (bodies 0..{})", m.nbody));
    }
    Ok(Camera {
        type_: camera_type::TRACKING,
        trackbodyid: id as i32,
        ..Camera::default_free(m)
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
    pub(crate) opt: Options,
}

impl Renderer {
    /// Make the context and upload the model; fails with what is missing (no EGL, no GL 3.3)
    /// or when the image does not fit the model's offscreen buffer.
    pub fn new(m: &Model, opt: Options) -> Result<Renderer, String> {
        check_size(m, opt.width, opt.height)?;
        camera(m, &opt.camera)?;
        if let Some(body) = &opt.track {
            tracking_camera(m, body)?;
        }
        let gl = Headless::new().map_err(|e| format!("no headless OpenGL: {e}"))?;
        let con = Context::new(gl.gl(), m, FONTSCALE).map_err(|e| e.to_string())?;
        Ok(Renderer {
            gl,
            con,
            scn: Scene::new(MAXGEOM),
            opt,
        })
    }

    /// Render the current state of `d`: RGB bytes, top row first.
    pub fn image(&mut self, m: &Model, d: &mut Data) -> Result<Vec<u8>, String> {
        let mut cam = match &self.opt.track {
            Some(body) => tracking_camera(m, body)?,
            None => camera(m, &self.opt.camera)?,
        };
        vis::update_scene(
            m,
            d,
            &self.opt.vis,
            &Perturb::default(),
            &mut cam,
            vis::CAT_ALL,
            &mut self.scn,
        )
        .map_err(|e| e.to_string())?;
        self.scn.flags = self.opt.rnd;
        let segment = self.opt.segment;
        if segment {
            self.scn.flags[rnd::SEGMENT] = 1;
            self.scn.flags[rnd::IDCOLOR] = 1;
        }
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

pub use mjrs_gl::render::write_png;

/// Where `write_frames` put its output.
#[derive(Clone, Debug, PartialEq)]
pub struct Frames {
    /// Number of PNG frames written (`frame-000000.png`, ...).
    pub count: usize,
    /// The video, when `ffmpeg` was found and succeeded.
    pub video: Option<std::path::PathBuf>,
}

/// Frame rate of a video with one frame every `every` steps, in real time.
pub fn frame_rate(timestep: f64, every: usize) -> f64 {
    1.0 / (timestep * every.max(1) as f64)
}

/// `mjrs render --every k`: run `steps` steps of the control law, rendering the state (after a
/// forward pass) at step 0 and every `every` steps into numbered PNGs in `dir`, with a
/// progress bar; then, if `ffmpeg` is on the PATH, encode them as `dir/video.mp4` in real time.
/// `dir` must be new or empty; on failure the frames written are removed, and `dir` too if it
/// was made here.
pub fn write_frames(
    renderer: &mut Renderer,
    m: &Model,
    d: &mut Data,
    steps: usize,
    every: usize,
    dir: &Path,
) -> Result<Frames, String> {
    if every == 0 {
        return Err("--every must be at least 1".into());
    }
    let total = crate::limits::check_frames(steps, every)?;
    let frame_dir = FrameDir::claim(dir)?;
    let mut written = 0;
    let result = render_frames(renderer, m, d, every, total, dir, &mut written);
    if let Err(e) = result {
        frame_dir.clean_up(written);
        return Err(e);
    }
    let fps = frame_rate(m.opt.timestep, every);
    Ok(Frames {
        count: total,
        video: encode_video(dir, fps),
    })
}

/// The path of frame `k` in `dir`.
fn frame_path(dir: &Path, k: usize) -> std::path::PathBuf {
    dir.join(format!("frame-{k:06}.png"))
}

/// Renders `total` frames, `every` steps apart, into `dir` with a progress bar; `written`
/// counts the frames on disk, for the clean-up of a failure.
fn render_frames(
    renderer: &mut Renderer,
    m: &Model,
    d: &mut Data,
    every: usize,
    total: usize,
    dir: &Path,
    written: &mut usize,
) -> Result<(), String> {
    let bar = indicatif::ProgressBar::new(total as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "rendering [{bar:40}] {pos}/{len} frames ({per_sec}, eta {eta})",
        )
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    let (w, h) = (renderer.opt.width as u32, renderer.opt.height as u32);
    for k in 0..total {
        if k > 0 {
            crate::stepping::run_control(m, d, every)?;
        }
        mjrs_core::forward(m, d).map_err(|e| e.to_string())?;
        let img = renderer.image(m, d)?;
        write_png(&frame_path(dir, k), w, h, &img)?;
        *written = k + 1;
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}

/// The directory `render --every` writes into: new (made here) or empty, so that the frames
/// never mix with other files and a failure can remove exactly what was written.
struct FrameDir<'a> {
    dir: &'a Path,
    created: bool,
}

impl<'a> FrameDir<'a> {
    /// Makes `dir` if nothing is there (not its parents: the clean-up removes exactly what was
    /// made); takes it if it is an empty directory (not a link to one); refuses anything else.
    fn claim(dir: &'a Path) -> Result<Self, String> {
        let shown = dir.display();
        match std::fs::symlink_metadata(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir(dir).map_err(|e| format!("cannot create {shown}: {e}"))?;
                Ok(FrameDir { dir, created: true })
            }
            Err(e) => Err(format!("cannot use {shown}: {e}")),
            Ok(meta) if meta.is_dir() && is_empty(dir)? => Ok(FrameDir {
                dir,
                created: false,
            }),
            Ok(_) => Err(format!(
                "{shown} exists and is not an empty directory; render --every writes its \
                 frames into a new or empty directory"
            )),
        }
    }

    /// Removes the first `written` frames, then the directory if it was made here (only when
    /// empty: nothing else is ever removed).
    fn clean_up(&self, written: usize) {
        for k in 0..written {
            let _ = std::fs::remove_file(frame_path(self.dir, k));
        }
        if self.created {
            let _ = std::fs::remove_dir(self.dir);
        }
    }
}

/// Whether directory `dir` holds nothing.
fn is_empty(dir: &Path) -> Result<bool, String> {
    let mut entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    Ok(entries.next().is_none())
}

/// Encode `dir/frame-%06d.png` as an H.264 mp4 with `ffmpeg`, if it is installed; `None` when
/// it is not there or fails (the frames stay either way).
fn encode_video(dir: &Path, fps: f64) -> Option<std::path::PathBuf> {
    // a timestep of 0 has no frame rate
    if !(fps.is_finite() && fps > 0.0) {
        return None;
    }
    let out = dir.join("video.mp4");
    let status = std::process::Command::new("ffmpeg")
        .args([
            "-y",
            "-loglevel",
            "error",
            "-framerate",
            &format!("{fps}"),
            "-i",
        ])
        .arg(dir.join("frame-%06d.png"))
        .args([
            "-pix_fmt",
            "yuv420p",
            "-vf",
            "pad=ceil(iw/2)*2:ceil(ih/2)*2",
        ])
        .arg(&out)
        .status()
        .ok()?;
    status.success().then_some(out)
}
