//! MuJoCo's renderer for Python: `GLContext` (headless EGL, `mujoco.egl.GLContext`),
//! `MjrRect`, `MjrContext` and the `mjr_*` functions, over `mjrs_gl::render`; the enums of
//! the visualization (`mjtCatBit`, `mjtRndFlag`, ...).
//!
//! As in MuJoCo, a `MjrContext` belongs to the OpenGL context current when it was made: the
//! `GLContext` made current last, or a context another library made current after it (glfw's
//! window, as Gymnasium's `render_mode="human"` does). A `GLContext` is bound to the thread
//! only while a function draws with it, so that glfw can make its own contexts current in
//! between (drivers refuse an EGL and a GLX context at once); the functions draw with their
//! `GLContext` whichever context is current (Gymnasium keeps one per render mode), and with
//! another library's context only while it is current. OpenGL contexts are bound to a
//! thread: these classes are usable only from the thread that made them.

use std::cell::RefCell;

use mjrs_gl::foreign::{self, Current, Foreign};
use mjrs_gl::render::{self, Context, DepthMap, Font, Framebuffer, GridPos, Rect};
use mjrs_gl::vis::{self, flag, rnd, stereo};
use mjrs_gl::{Gl, Headless};
use numpy::{PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::enums::Enum;
use crate::errors::FatalError;
use crate::model::MjModel;
use crate::scene::MjvScene;

thread_local! {
    /// The `GLContext` made current last on this thread, and the other library's context
    /// that was current then (a different one current now was made current after it).
    static CURRENT: RefCell<Option<(Py<GLContext>, Option<Current>)>> =
        const { RefCell::new(None) };
}

/// A headless OpenGL context through EGL (`mujoco.egl.GLContext`).
#[pyclass(module = "mjrs", name = "GLContext", unsendable)]
pub struct GLContext {
    headless: Option<Headless>,
}

#[pymethods]
impl GLContext {
    /// A new context; the sizes are accepted as MuJoCo's are and not used (rendering goes to
    /// the offscreen buffer of each `MjrContext`). As in MuJoCo, making one changes nothing
    /// until `make_current`.
    #[new]
    #[pyo3(signature = (max_width, max_height))]
    fn py_new(max_width: i64, max_height: i64) -> PyResult<Self> {
        let _ = (max_width, max_height);
        let headless = Headless::new_detached()
            .map_err(|e| PyRuntimeError::new_err(format!("Cannot create an EGL context: {e}")))?;
        Ok(Self {
            headless: Some(headless),
        })
    }

    /// Makes the context current on this thread.
    fn make_current(slf: &Bound<'_, Self>) -> PyResult<()> {
        if slf.borrow().headless.is_none() {
            return Err(PyRuntimeError::new_err("the GLContext was freed"));
        }
        let entry = (slf.clone().unbind(), foreign::current());
        CURRENT.with(|c| *c.borrow_mut() = Some(entry));
        Ok(())
    }

    /// Frees the context (again: nothing); contexts made in it cannot render afterwards.
    fn free(slf: &Bound<'_, Self>) {
        CURRENT.with(|c| {
            let mut current = c.borrow_mut();
            if current.as_ref().is_some_and(|(p, _)| p.is(slf)) {
                *current = None;
            }
        });
        slf.borrow_mut().headless = None;
    }
}

/// The OpenGL context a `MjrContext` was made in.
enum Owner {
    /// One of ours.
    Egl(Py<GLContext>),
    /// Another library's (glfw's window).
    Foreign(Foreign),
}

impl Owner {
    /// The context current on this thread (see the module's documentation); `what` names
    /// the function for the error when there is none.
    fn current(py: Python<'_>, what: &str) -> PyResult<Owner> {
        let ours = CURRENT.with(|c| {
            c.borrow()
                .as_ref()
                .map(|(p, shadowed)| (p.clone_ref(py), *shadowed))
        });
        match (foreign::current(), ours) {
            (Some(now), Some((context, shadowed))) if shadowed == Some(now) => {
                Ok(Owner::Egl(context))
            }
            (Some(_), _) => Foreign::adopt()
                .map(Owner::Foreign)
                .map_err(|e| fatal(what, e)),
            (None, Some((context, _))) => Ok(Owner::Egl(context)),
            (None, None) => Err(FatalError::new_err(format!(
                "{what}: no OpenGL context is current (make one current first: \
                 mujoco.GLContext(width, height).make_current(), or a glfw window's)"
            ))),
        }
    }

    /// Runs `f` with the OpenGL calls of the context: ours made current for the call,
    /// another library's only while it is current.
    fn with<R>(&self, py: Python<'_>, f: impl FnOnce(&Gl) -> PyResult<R>) -> PyResult<R> {
        match self {
            Owner::Egl(context) => {
                let this = context.borrow(py);
                let headless = this.headless.as_ref().ok_or_else(|| {
                    FatalError::new_err("the OpenGL context of this MjrContext was freed")
                })?;
                headless.with_current(f).map_err(|e| {
                    PyRuntimeError::new_err(format!("Failed to make the EGL context current: {e}"))
                })?
            }
            Owner::Foreign(context) => {
                let gl = context.gl().ok_or_else(|| {
                    FatalError::new_err(
                        "the OpenGL context this MjrContext was made in is not current on \
                         this thread (make it current again, e.g. glfw.make_context_current(window))",
                    )
                })?;
                f(gl)
            }
        }
    }

    /// Whether drawing with the context is possible now (freeing resources is skipped when
    /// not: they go with their context).
    fn usable(&self, py: Python<'_>) -> bool {
        match self {
            Owner::Egl(context) => context.borrow(py).headless.is_some(),
            Owner::Foreign(context) => context.is_current(),
        }
    }
}

/// Runs `f` with the OpenGL calls of the context current on this thread.
fn with_current<R>(py: Python<'_>, what: &str, f: impl FnOnce(&Gl) -> PyResult<R>) -> PyResult<R> {
    Owner::current(py, what)?.with(py, f)
}

/// A rectangle of the framebuffer in pixels, origin at the bottom left (`mjrRect`).
#[pyclass(module = "mjrs", name = "MjrRect")]
#[derive(Clone)]
pub struct MjrRect {
    #[pyo3(get, set)]
    left: i32,
    #[pyo3(get, set)]
    bottom: i32,
    #[pyo3(get, set)]
    width: i32,
    #[pyo3(get, set)]
    height: i32,
}

impl MjrRect {
    fn rect(&self) -> Rect {
        Rect {
            left: self.left,
            bottom: self.bottom,
            width: self.width,
            height: self.height,
        }
    }

    fn of(r: Rect) -> Self {
        Self {
            left: r.left,
            bottom: r.bottom,
            width: r.width,
            height: r.height,
        }
    }
}

#[pymethods]
impl MjrRect {
    #[new]
    #[pyo3(signature = (left, bottom, width, height))]
    fn py_new(left: i32, bottom: i32, width: i32, height: i32) -> Self {
        Self {
            left,
            bottom,
            width,
            height,
        }
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "MjrRect(left={}, bottom={}, width={}, height={})",
            self.left, self.bottom, self.width, self.height
        )
    }
}

/// A model's resources on the GPU (`mjrContext`), made in the current OpenGL context.
#[pyclass(module = "mjrs", name = "MjrContext", unsendable)]
pub struct MjrContext {
    context: Option<Context>,
    owner: Owner,
}

impl MjrContext {
    /// Runs `f` with the OpenGL calls and the context.
    fn with<R>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&Gl, &mut Context) -> PyResult<R>,
    ) -> PyResult<R> {
        let context = self
            .context
            .as_mut()
            .ok_or_else(|| FatalError::new_err("the MjrContext was freed"))?;
        self.owner.with(py, |gl| f(gl, context))
    }

    fn context(&self) -> PyResult<&Context> {
        self.context
            .as_ref()
            .ok_or_else(|| FatalError::new_err("the MjrContext was freed"))
    }
}

fn fatal(what: &str, e: impl std::fmt::Display) -> PyErr {
    FatalError::new_err(format!("{what}: {e}"))
}

#[pymethods]
impl MjrContext {
    /// Uploads the model's meshes, textures and fonts (`mjr_makeContext`); `fontscale` is an
    /// `mjtFontScale`.
    #[new]
    #[pyo3(signature = (model, fontscale))]
    fn py_new(py: Python<'_>, model: PyRef<'_, MjModel>, fontscale: i32) -> PyResult<Self> {
        let owner = Owner::current(py, "mjr_makeContext")?;
        let context = owner.with(py, |gl| {
            Context::new(gl, model.model(), fontscale).map_err(|e| fatal("mjr_makeContext", e))
        })?;
        Ok(Self {
            context: Some(context),
            owner,
        })
    }

    /// Frees the GPU resources (`mjr_freeContext`); safe to call again.
    fn free(&mut self, py: Python<'_>) -> PyResult<()> {
        let Some(context) = self.context.take() else {
            return Ok(());
        };
        // a freed (or no longer current) OpenGL context keeps or took the resources
        if self.owner.usable(py) {
            self.owner.with(py, |gl| {
                context.free(gl);
                Ok(())
            })?;
        }
        Ok(())
    }

    /// How `mjr_readPixels` maps depth (`mjtDepthMap`).
    #[getter(readDepthMap)]
    fn read_depth_map(&self) -> PyResult<i32> {
        Ok(match self.context()?.read_depth_map {
            DepthMap::ZeroNear => 0,
            DepthMap::ZeroFar => 1,
        })
    }

    #[setter(readDepthMap)]
    fn set_read_depth_map(&mut self, v: i32) -> PyResult<()> {
        let map = match v {
            0 => DepthMap::ZeroNear,
            1 => DepthMap::ZeroFar,
            _ => return Err(PyValueError::new_err(format!("invalid mjtDepthMap {v}"))),
        };
        self.context
            .as_mut()
            .ok_or_else(|| FatalError::new_err("the MjrContext was freed"))?
            .read_depth_map = map;
        Ok(())
    }

    /// Where rendering goes (`mjtFramebuffer`).
    #[getter(currentBuffer)]
    fn current_buffer(&self) -> PyResult<i32> {
        Ok(match self.context()?.current {
            Framebuffer::Window => 0,
            Framebuffer::Offscreen => 1,
        })
    }

    /// Width of the offscreen buffer.
    #[getter(offWidth)]
    fn off_width(&self) -> PyResult<i32> {
        Ok(self.context()?.offscreen_size().0)
    }

    /// Height of the offscreen buffer.
    #[getter(offHeight)]
    fn off_height(&self) -> PyResult<i32> {
        Ok(self.context()?.offscreen_size().1)
    }

    /// Font scale (`mjtFontScale`).
    #[getter(fontScale)]
    fn font_scale(&self) -> PyResult<i32> {
        Ok(self.context()?.font_scale())
    }
}

/// Directs rendering to the window or the offscreen buffer (`mjr_setBuffer`).
#[pyfunction]
#[pyo3(name = "mjr_setBuffer")]
pub fn mjr_set_buffer(
    py: Python<'_>,
    framebuffer: i32,
    mut con: PyRefMut<'_, MjrContext>,
) -> PyResult<()> {
    let target = match framebuffer {
        0 => Framebuffer::Window,
        1 => Framebuffer::Offscreen,
        _ => {
            return Err(PyValueError::new_err(format!(
                "invalid mjtFramebuffer {framebuffer}"
            )))
        }
    };
    con.with(py, |gl, c| {
        c.set_buffer(gl, target);
        Ok(())
    })
}

/// Resizes the offscreen buffer (`mjr_resizeOffscreen`).
#[pyfunction]
#[pyo3(name = "mjr_resizeOffscreen")]
pub fn mjr_resize_offscreen(
    py: Python<'_>,
    width: i32,
    height: i32,
    mut con: PyRefMut<'_, MjrContext>,
) -> PyResult<()> {
    con.with(py, |gl, c| {
        c.resize_offscreen(gl, width, height)
            .map_err(|e| fatal("mjr_resizeOffscreen", e))
    })
}

/// Renders the scene into the viewport of the current buffer (`mjr_render`).
#[pyfunction]
#[pyo3(name = "mjr_render")]
pub fn mjr_render(
    py: Python<'_>,
    viewport: PyRef<'_, MjrRect>,
    mut scn: PyRefMut<'_, MjvScene>,
    mut con: PyRefMut<'_, MjrContext>,
) -> PyResult<()> {
    let rect = viewport.rect();
    let scene = scn.synced(py)?;
    con.with(py, |gl, c| {
        render::render(gl, rect, scene, c).map_err(|e| fatal("mjr_render", e))
    })
}

/// Reads the viewport's colour (RGB bytes) and/or depth (floats) into the arrays, bottom row
/// first (`mjr_readPixels`). The arrays must be contiguous and hold the whole viewport.
#[pyfunction]
#[pyo3(name = "mjr_readPixels")]
pub fn mjr_read_pixels(
    py: Python<'_>,
    rgb: Option<Bound<'_, PyArrayDyn<u8>>>,
    depth: Option<Bound<'_, PyArrayDyn<f32>>>,
    viewport: PyRef<'_, MjrRect>,
    mut con: PyRefMut<'_, MjrContext>,
) -> PyResult<()> {
    let rect = viewport.rect();
    let pixels = i64::from(rect.width.max(0)) * i64::from(rect.height.max(0));
    let mut rgb = rgb.map(|a| a.try_readwrite()).transpose()?;
    let mut depth = depth.map(|a| a.try_readwrite()).transpose()?;
    let rgb = rgb.as_mut().map(|a| a.as_slice_mut()).transpose()?;
    let depth = depth.as_mut().map(|a| a.as_slice_mut()).transpose()?;
    check_room("rgb", rgb.as_deref().map(<[u8]>::len), 3 * pixels)?;
    check_room("depth", depth.as_deref().map(<[f32]>::len), pixels)?;
    con.with(py, |gl, c| {
        render::read_pixels(gl, c, rect, rgb, depth).map_err(|e| fatal("mjr_readPixels", e))
    })
}

/// An error unless an array of `len` elements holds `needed`.
fn check_room(name: &str, len: Option<usize>, needed: i64) -> PyResult<()> {
    match len {
        Some(n) if (n as i64) < needed => Err(PyValueError::new_err(format!(
            "mjr_readPixels: {name} holds {n} values, the viewport needs {needed}"
        ))),
        _ => Ok(()),
    }
}

/// Text as MuJoCo's bindings take it: `str` or `bytes`.
fn text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Ok(String::from_utf8_lossy(bytes.as_bytes()).into_owned());
    }
    value.extract()
}

/// Draws text at a corner or edge of the viewport (`mjr_overlay`).
#[pyfunction]
#[pyo3(name = "mjr_overlay")]
pub fn mjr_overlay(
    py: Python<'_>,
    font: i32,
    gridpos: i32,
    viewport: PyRef<'_, MjrRect>,
    overlay: &Bound<'_, PyAny>,
    overlay2: &Bound<'_, PyAny>,
    mut con: PyRefMut<'_, MjrContext>,
) -> PyResult<()> {
    // as in MuJoCo, any value but the shadow and big fonts is the normal font (Gymnasium's
    // window passes mjFONTSCALE_150)
    let font = match font {
        1 => Font::Shadow,
        2 => Font::Big,
        _ => Font::Normal,
    };
    let pos = [
        GridPos::TopLeft,
        GridPos::TopRight,
        GridPos::BottomLeft,
        GridPos::BottomRight,
        GridPos::Top,
        GridPos::Bottom,
        GridPos::Left,
        GridPos::Right,
    ];
    let pos = usize::try_from(gridpos)
        .ok()
        .and_then(|i| pos.get(i).copied())
        .ok_or_else(|| PyValueError::new_err(format!("invalid mjtGridPos {gridpos}")))?;
    let (t1, t2) = (text(overlay)?, text(overlay2)?);
    let rect = viewport.rect();
    con.with(py, |gl, c| {
        render::overlay(gl, c, font, pos, rect, &t1, &t2);
        Ok(())
    })
}

/// The largest viewport of the current buffer (`mjr_maxViewport`).
#[pyfunction]
#[pyo3(name = "mjr_maxViewport")]
pub fn mjr_max_viewport(py: Python<'_>, mut con: PyRefMut<'_, MjrContext>) -> PyResult<MjrRect> {
    con.with(py, |gl, c| Ok(MjrRect::of(render::max_viewport(gl, c))))
}

/// Waits until OpenGL has finished (`mjr_finish`), in the current context.
#[pyfunction]
#[pyo3(name = "mjr_finish")]
pub fn mjr_finish(py: Python<'_>) -> PyResult<()> {
    with_current(py, "mjr_finish", |gl| {
        render::finish(gl);
        Ok(())
    })
}

/// The oldest OpenGL error not yet reported, 0 for none (`mjr_getError`).
#[pyfunction]
#[pyo3(name = "mjr_getError")]
pub fn mjr_get_error(py: Python<'_>) -> PyResult<u32> {
    with_current(py, "mjr_getError", |gl| Ok(render::get_error(gl)))
}

/// An enum of the visualization with its members named in MuJoCo's way.
macro_rules! indexed {
    ($prefix:literal: $($name:ident),* ; $count:literal = $n:expr) => {
        &[$((concat!($prefix, stringify!($name)), flag_index::$name as i64),)* ($count, $n as i64)]
    };
}

/// The visualization flags' values by MuJoCo's names (`mjVIS_*`, `mjRND_*`).
#[allow(non_snake_case)]
mod flag_index {
    pub use super::flag::*;
    pub use super::rnd::{
        ADDITIVE, CULL_FACE, FOG, HAZE, IDCOLOR, REFLECTION, SEGMENT, SHADOW, SKYBOX, WIREFRAME,
    };
}

/// The enums of the visualization and the renderer, MuJoCo's names and values.
pub const ENUMS: &[Enum] = &[
    (
        "mjtCatBit",
        &[
            ("mjCAT_STATIC", vis::CAT_STATIC as i64),
            ("mjCAT_DYNAMIC", vis::CAT_DYNAMIC as i64),
            ("mjCAT_DECOR", vis::CAT_DECOR as i64),
            ("mjCAT_ALL", vis::CAT_ALL as i64),
        ],
    ),
    (
        "mjtCamera",
        &[
            ("mjCAMERA_FREE", vis::camera_type::FREE as i64),
            ("mjCAMERA_TRACKING", vis::camera_type::TRACKING as i64),
            ("mjCAMERA_FIXED", vis::camera_type::FIXED as i64),
            ("mjCAMERA_USER", vis::camera_type::USER as i64),
        ],
    ),
    (
        "mjtMouse",
        &[
            ("mjMOUSE_NONE", vis::interact::mouse::NONE as i64),
            ("mjMOUSE_ROTATE_V", vis::interact::mouse::ROTATE_V as i64),
            ("mjMOUSE_ROTATE_H", vis::interact::mouse::ROTATE_H as i64),
            ("mjMOUSE_MOVE_V", vis::interact::mouse::MOVE_V as i64),
            ("mjMOUSE_MOVE_H", vis::interact::mouse::MOVE_H as i64),
            ("mjMOUSE_ZOOM", vis::interact::mouse::ZOOM as i64),
            ("mjMOUSE_SELECT", vis::interact::mouse::SELECT as i64),
        ],
    ),
    (
        "mjtPertBit",
        &[("mjPERT_TRANSLATE", 1), ("mjPERT_ROTATE", 2)],
    ),
    (
        "mjtVisFlag",
        indexed!("mjVIS_": CONVEXHULL, TEXTURE, JOINT, CAMERA, ACTUATOR, ACTIVATION, LIGHT,
            TENDON, RANGEFINDER, CONSTRAINT, INERTIA, SCLINERTIA, PERTFORCE, PERTOBJ,
            CONTACTPOINT, ISLAND, CONTACTFORCE, CONTACTSPLIT, TRANSPARENT, AUTOCONNECT, COM,
            SELECT, STATIC, SKIN, FLEXVERT, FLEXEDGE, FLEXFACE, FLEXSKIN, BODYBVH, FLEXBVH,
            MESHBVH, SDFITER; "mjNVISFLAG" = flag::N),
    ),
    (
        "mjtRndFlag",
        indexed!("mjRND_": SHADOW, WIREFRAME, REFLECTION, ADDITIVE, SKYBOX, FOG, HAZE, SEGMENT,
            IDCOLOR, CULL_FACE; "mjNRNDFLAG" = rnd::N),
    ),
    (
        "mjtStereo",
        &[
            ("mjSTEREO_NONE", stereo::NONE as i64),
            ("mjSTEREO_QUADBUFFERED", 1),
            ("mjSTEREO_SIDEBYSIDE", stereo::SIDEBYSIDE as i64),
        ],
    ),
    (
        "mjtLabel",
        &[
            ("mjLABEL_NONE", 0),
            ("mjLABEL_BODY", 1),
            ("mjLABEL_JOINT", 2),
            ("mjLABEL_GEOM", 3),
            ("mjLABEL_SITE", 4),
            ("mjLABEL_CAMERA", 5),
            ("mjLABEL_LIGHT", 6),
            ("mjLABEL_TENDON", 7),
            ("mjLABEL_ACTUATOR", 8),
            ("mjLABEL_CONSTRAINT", 9),
            ("mjLABEL_FLEX", 10),
            ("mjLABEL_SKIN", 11),
            ("mjLABEL_SELECTION", 12),
            ("mjLABEL_SELPNT", 13),
            ("mjLABEL_CONTACTPOINT", 14),
            ("mjLABEL_CONTACTFORCE", 15),
            ("mjLABEL_ISLAND", 16),
            ("mjNLABEL", 17),
        ],
    ),
    (
        "mjtFrame",
        &[
            ("mjFRAME_NONE", 0),
            ("mjFRAME_BODY", 1),
            ("mjFRAME_GEOM", 2),
            ("mjFRAME_SITE", 3),
            ("mjFRAME_CAMERA", 4),
            ("mjFRAME_LIGHT", 5),
            ("mjFRAME_CONTACT", 6),
            ("mjFRAME_WORLD", 7),
            ("mjNFRAME", 8),
        ],
    ),
    (
        "mjtGridPos",
        &[
            ("mjGRID_TOPLEFT", GridPos::TopLeft as i64),
            ("mjGRID_TOPRIGHT", GridPos::TopRight as i64),
            ("mjGRID_BOTTOMLEFT", GridPos::BottomLeft as i64),
            ("mjGRID_BOTTOMRIGHT", GridPos::BottomRight as i64),
            ("mjGRID_TOP", GridPos::Top as i64),
            ("mjGRID_BOTTOM", GridPos::Bottom as i64),
            ("mjGRID_LEFT", GridPos::Left as i64),
            ("mjGRID_RIGHT", GridPos::Right as i64),
        ],
    ),
    (
        "mjtFramebuffer",
        &[("mjFB_WINDOW", 0), ("mjFB_OFFSCREEN", 1)],
    ),
    (
        "mjtDepthMap",
        &[("mjDEPTH_ZERONEAR", 0), ("mjDEPTH_ZEROFAR", 1)],
    ),
    (
        "mjtFontScale",
        &[
            ("mjFONTSCALE_50", 50),
            ("mjFONTSCALE_100", 100),
            ("mjFONTSCALE_150", 150),
            ("mjFONTSCALE_200", 200),
            ("mjFONTSCALE_250", 250),
            ("mjFONTSCALE_300", 300),
        ],
    ),
    (
        "mjtFont",
        &[
            ("mjFONT_NORMAL", Font::Normal as i64),
            ("mjFONT_SHADOW", Font::Shadow as i64),
            ("mjFONT_BIG", Font::Big as i64),
        ],
    ),
];
