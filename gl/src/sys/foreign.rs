//! OpenGL contexts made by other libraries (glfw's window context, as MuJoCo's Python bindings
//! render into whatever context is current): which one is current on this thread, its OpenGL
//! calls, and releasing it for a moment while one of ours is used.
//!
//! GLX (libGL) and EGL (libEGL) are opened at run time with `dlopen`, as glfw opens them;
//! nothing is linked. Under libglvnd (and Mesa's own dispatch) the OpenGL entry points that
//! either API returns dispatch to the context current on the calling thread, so one set of
//! function pointers serves every context; a driver whose pointers are per context is not
//! supported.
//!
//! Drivers refuse to make an EGL context current while a GLX one is (and the other way round):
//! [`release_current`] unbinds the current foreign context and [`Released::restore`] binds it
//! again, around each use of a context of ours.

use super::Gl;
use core::ffi::{c_char, c_int, c_ulong, c_void};
use std::ffi::CString;
use std::sync::OnceLock;

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

/// `RTLD_LAZY` (glibc and musl): symbols resolved when first called; `RTLD_LOCAL` is 0.
const RTLD_LAZY: c_int = 1;

/// `EGL_DRAW` and `EGL_READ`.
const EGL_DRAW: c_int = 0x3059;
const EGL_READ: c_int = 0x305A;

type Ptr = *mut c_void;

/// The GLX functions used (libGL.so.1).
struct Glx {
    current_context: unsafe extern "C" fn() -> Ptr,
    current_display: unsafe extern "C" fn() -> Ptr,
    current_drawable: unsafe extern "C" fn() -> c_ulong,
    current_read: unsafe extern "C" fn() -> c_ulong,
    make_current: unsafe extern "C" fn(Ptr, c_ulong, c_ulong, Ptr) -> c_int,
    proc_address: unsafe extern "C" fn(*const u8) -> *const c_void,
}

/// The EGL functions used (libEGL.so.1).
struct Egl {
    current_context: unsafe extern "C" fn() -> Ptr,
    current_display: unsafe extern "C" fn() -> Ptr,
    current_surface: unsafe extern "C" fn(c_int) -> Ptr,
    make_current: unsafe extern "C" fn(Ptr, Ptr, Ptr, Ptr) -> u32,
    proc_address: unsafe extern "C" fn(*const c_char) -> *const c_void,
}

/// A symbol of `lib` as a function pointer of type `F`, or `None`.
///
/// # Safety
/// `F` must be an `unsafe extern "C" fn` type matching the symbol's C signature.
unsafe fn symbol<F: Copy>(lib: Ptr, name: &str) -> Option<F> {
    let c = CString::new(name).ok()?;
    // SAFETY: lib is a handle from dlopen and c is NUL-terminated.
    let p = unsafe { dlsym(lib, c.as_ptr()) };
    if p.is_null() {
        return None;
    }
    // SAFETY: a function pointer has the size of a data pointer on the platforms dlsym
    // exists on, and the caller guarantees the signature.
    Some(unsafe { core::mem::transmute_copy::<Ptr, F>(&p) })
}

/// `dlopen` of a library name, or `None` when it is not installed.
fn open(name: &str) -> Option<Ptr> {
    let c = CString::new(name).ok()?;
    // SAFETY: c is NUL-terminated; loading the system's libGL/libEGL runs their constructors,
    // as glfw's loading of them does.
    let lib = unsafe { dlopen(c.as_ptr(), RTLD_LAZY) };
    (!lib.is_null()).then_some(lib)
}

fn glx() -> Option<&'static Glx> {
    static GLX: OnceLock<Option<Glx>> = OnceLock::new();
    GLX.get_or_init(|| {
        let lib = open("libGL.so.1").or_else(|| open("libGLX.so.0"))?;
        // SAFETY: the types are GLX 1.3's signatures of these functions.
        unsafe {
            Some(Glx {
                current_context: symbol(lib, "glXGetCurrentContext")?,
                current_display: symbol(lib, "glXGetCurrentDisplay")?,
                current_drawable: symbol(lib, "glXGetCurrentDrawable")?,
                current_read: symbol(lib, "glXGetCurrentReadDrawable")?,
                make_current: symbol(lib, "glXMakeContextCurrent")?,
                proc_address: symbol(lib, "glXGetProcAddressARB")?,
            })
        }
    })
    .as_ref()
}

fn egl() -> Option<&'static Egl> {
    static EGL: OnceLock<Option<Egl>> = OnceLock::new();
    EGL.get_or_init(|| {
        let lib = open("libEGL.so.1")?;
        // SAFETY: the types are EGL 1.4's signatures of these functions.
        unsafe {
            Some(Egl {
                current_context: symbol(lib, "eglGetCurrentContext")?,
                current_display: symbol(lib, "eglGetCurrentDisplay")?,
                current_surface: symbol(lib, "eglGetCurrentSurface")?,
                make_current: symbol(lib, "eglMakeCurrent")?,
                proc_address: symbol(lib, "eglGetProcAddress")?,
            })
        }
    })
    .as_ref()
}

/// Which context is current on this thread: its API and handle (the context's address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Current {
    /// A GLX context.
    Glx(usize),
    /// An EGL context.
    Egl(usize),
}

/// The context current on this thread, GLX's first, or `None`.
pub fn current() -> Option<Current> {
    if let Some(g) = glx() {
        // SAFETY: no arguments; returns the calling thread's current context or null.
        let c = unsafe { (g.current_context)() };
        if !c.is_null() {
            return Some(Current::Glx(c as usize));
        }
    }
    let e = egl()?;
    // SAFETY: as above, for EGL (EGL_NO_CONTEXT is null).
    let c = unsafe { (e.current_context)() };
    (!c.is_null()).then_some(Current::Egl(c as usize))
}

/// A context another library made, current when it was adopted: its OpenGL calls may be made
/// while it is current.
pub struct Foreign {
    gl: Gl,
    context: Current,
}

impl Foreign {
    /// The context current on this thread, with its OpenGL functions loaded; an error when
    /// there is none or it lacks OpenGL 3.3.
    pub fn adopt() -> Result<Foreign, String> {
        let context = current().ok_or("no OpenGL context is current")?;
        let gl = match context {
            Current::Glx(_) => {
                let g = glx().ok_or("no GLX")?;
                Gl::load(|name| {
                    let c = CString::new(name).unwrap_or_default();
                    // SAFETY: c is NUL-terminated; the result is a function pointer or null.
                    unsafe { (g.proc_address)(c.as_ptr().cast()) }
                })?
            }
            Current::Egl(_) => {
                let e = egl().ok_or("no EGL")?;
                Gl::load(|name| {
                    let c = CString::new(name).unwrap_or_default();
                    // SAFETY: as above.
                    unsafe { (e.proc_address)(c.as_ptr()) }
                })?
            }
        };
        Ok(Foreign { gl, context })
    }

    /// Which context this is.
    pub fn context(&self) -> Current {
        self.context
    }

    /// Whether this context is current on this thread.
    pub fn is_current(&self) -> bool {
        current() == Some(self.context)
    }

    /// The OpenGL calls, while this context is current (`None` otherwise).
    pub fn gl(&self) -> Option<&Gl> {
        self.is_current().then_some(&self.gl)
    }
}

/// A foreign context unbound from this thread by [`release_current`].
#[must_use = "restore the released context"]
pub struct Released {
    api: Current,
    display: usize,
    draw: usize,
    read: usize,
}

/// Unbind the context current on this thread (GLX or EGL), returning what binds it again;
/// `None` when nothing is current.
pub fn release_current() -> Option<Released> {
    let api = current()?;
    match api {
        Current::Glx(_) => {
            let g = glx()?;
            // SAFETY: queries of the calling thread's binding; then unbinding with null
            // arguments, which GLX defines as releasing the current context.
            unsafe {
                let display = (g.current_display)();
                let (draw, read) = ((g.current_drawable)(), (g.current_read)());
                (g.make_current)(display, 0, 0, core::ptr::null_mut());
                Some(Released {
                    api,
                    display: display as usize,
                    draw: draw as usize,
                    read: read as usize,
                })
            }
        }
        Current::Egl(_) => {
            let e = egl()?;
            // SAFETY: queries of the calling thread's binding; EGL_NO_SURFACE and
            // EGL_NO_CONTEXT (null) release it.
            unsafe {
                let display = (e.current_display)();
                let (draw, read) = ((e.current_surface)(EGL_DRAW), (e.current_surface)(EGL_READ));
                let null = core::ptr::null_mut();
                (e.make_current)(display, null, null, null);
                Some(Released {
                    api,
                    display: display as usize,
                    draw: draw as usize,
                    read: read as usize,
                })
            }
        }
    }
}

impl Released {
    /// Bind the released context again (nothing of ours may be current).
    pub fn restore(self) {
        match self.api {
            Current::Glx(ctx) => {
                if let Some(g) = glx() {
                    // SAFETY: the display, drawables and context were current a moment ago on
                    // this thread and nothing on it destroyed them since.
                    unsafe {
                        (g.make_current)(
                            self.display as Ptr,
                            self.draw as c_ulong,
                            self.read as c_ulong,
                            ctx as Ptr,
                        )
                    };
                }
            }
            Current::Egl(ctx) => {
                if let Some(e) = egl() {
                    // SAFETY: as above, for EGL.
                    unsafe {
                        (e.make_current)(
                            self.display as Ptr,
                            self.draw as Ptr,
                            self.read as Ptr,
                            ctx as Ptr,
                        )
                    };
                }
            }
        }
    }
}
