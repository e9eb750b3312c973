//! `mjrs-gl`: visualization for mjrs, MuJoCo's `mjv_*` and `mjr_*` layers and its `simulate`
//! viewer.
//!
//! - [`vis`] is the abstract visualization (`mjv_*`): options, cameras, perturbation and the
//!   scene, a list of plain geoms and lights computed from a `Model` and `Data` without any
//!   graphics API, bit for bit MuJoCo's `mjvScene` (compared field by field with
//!   `mjref scene`); [`vis::interact`] moves the camera, the model and the perturbation with
//!   the mouse and picks what is under it.
//! - [`render`] is the OpenGL 3.3 renderer (`mjr_*`): a [`render::Context`] uploads a model's
//!   shapes and textures, [`render::render`] draws a scene with MuJoCo's look,
//!   [`render::read_pixels`] reads the image back, and the 2D calls draw text, overlays,
//!   rectangles and figures over it.
//! - [`Headless`] is an OpenGL context without a display (EGL's device platform, Mesa's
//!   software renderer when there is no GPU), for images from batch jobs and tests;
//!   [`WindowGl`] is one on a window. Both hand out the [`Gl`] token every OpenGL call goes
//!   through: the crate's only `unsafe` code sits behind it. [`foreign`] renders into a
//!   context another library made current (glfw's window, as MuJoCo's Python users do).
//! - [`ui`] is MuJoCo's UI framework (`mjui_*`): sections of buttons, check boxes, sliders,
//!   edits and more, laid out with MuJoCo's rectangles, driven by mouse and keyboard events
//!   and drawn with the renderer.
//! - [`viewer`] is the interactive viewer of `mjrs view`, MuJoCo's `simulate` on [`ui`]:
//!   [`viewer::run`] steps a model on a physics thread in real time and draws it from a scene
//!   state in a window, with `simulate`'s panels, mouse, keys and overlays.
//!
//! An image of a model, headless:
//!
//! ```no_run
//! use mjrs_core::{Data, Model};
//! use mjrs_gl::render::{self, Context, Rect};
//! use mjrs_gl::vis::{self, Camera, Perturb, Scene, VisOption};
//! use mjrs_gl::Headless;
//!
//! fn image(m: &Model, d: &mut Data) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
//!     let mut scn = Scene::new(1000);
//!     let (opt, pert) = (VisOption::default(), Perturb::default());
//!     let mut cam = Camera::default_free(m);
//!     vis::update_scene(m, d, &opt, &pert, &mut cam, vis::CAT_ALL, &mut scn)?;
//!     let headless = Headless::new()?;
//!     let gl = headless.gl();
//!     let con = Context::new(gl, m, 100)?;
//!     let rect = Rect::sized(640, 480);
//!     render::render(gl, rect, &mut scn, &con)?;
//!     let mut rgb = vec![0; 3 * 640 * 480];
//!     render::read_pixels(gl, &con, rect, Some(&mut rgb), None)?; // bottom row first
//!     Ok(rgb)
//! }
//! ```

// Floors, bottom up: `rect` (plain types), `sys` (OpenGL and its contexts), `vis` (no OpenGL),
// `render` (draws `vis` scenes through `sys`), `ui` (MuJoCo's UI framework, drawn by `render`),
// `viewer` (all of them in a window).
mod rect;
mod sys;
pub mod vis;

pub mod render;

pub mod ui;

pub mod viewer;

pub use sys::egl::Headless;
pub use sys::foreign;
pub use sys::window::WindowGl;
pub use sys::Gl;
