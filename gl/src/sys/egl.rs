//! Headless OpenGL through EGL's device platform: no display server, no window. On machines
//! without a GPU, Mesa's software device (llvmpipe) is preferred, as it is always there.

use super::{foreign, Gl};
use glutin::api::egl::{context::PossiblyCurrentContext, device::Device, display::Display};
use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::PossiblyCurrentGlContext;
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Version};
use glutin::display::GlDisplay;
use std::ffi::CString;

/// What to install when EGL or its software device is missing (`./test.sh` installs it).
const MESA: &str =
    "Mesa's EGL and software device: Debian packages libegl1 libegl-mesa0 libgl1-mesa-dri";

/// A surfaceless OpenGL 3.3 core context on an EGL device, current on the thread that made
/// it. Rendering goes to framebuffer objects.
pub struct Headless {
    // field order: the token first, the context before its display
    gl: Gl,
    context: PossiblyCurrentContext,
    _display: Display,
}

impl Headless {
    /// Create the context and make it current on this thread. The error says what is missing
    /// (no EGL library, no device, no OpenGL 3.3 configuration).
    pub fn new() -> Result<Headless, String> {
        let devices: Vec<Device> = Device::query_devices()
            .map_err(|e| {
                format!("no EGL devices (is libEGL with EGL_EXT_device_enumeration installed? {MESA}): {e}")
            })?
            .collect();
        // software first: it is the same everywhere, so images are reproducible
        let software = |d: &&Device| d.extensions().contains("EGL_MESA_device_software");
        let mut ordered: Vec<&Device> = devices.iter().filter(software).collect();
        ordered.extend(devices.iter().filter(|d| !software(d)));
        if ordered.is_empty() {
            return Err(format!("EGL found no devices to render on ({MESA})"));
        }
        let mut last = String::new();
        for device in ordered {
            match Self::on_device(device) {
                Ok(h) => return Ok(h),
                Err(e) => last = e,
            }
        }
        Err(format!(
            "no EGL device gave an OpenGL 3.3 core context: {last}"
        ))
    }

    fn on_device(device: &Device) -> Result<Headless, String> {
        // SAFETY: no raw display handle is passed, so there is no pointer to validate.
        #[allow(unsafe_code)]
        let display = unsafe { Display::with_device(device, None) }.map_err(|e| e.to_string())?;
        let template = ConfigTemplateBuilder::new()
            .with_surface_type(ConfigSurfaceTypes::empty())
            .with_api(glutin::config::Api::OPENGL)
            .build();
        // SAFETY: the template carries no native window handle.
        #[allow(unsafe_code)]
        let config = unsafe { display.find_configs(template) }
            .map_err(|e| e.to_string())?
            .next()
            .ok_or("no surfaceless OpenGL configuration")?;
        let attrs = ContextAttributesBuilder::new()
            .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
            .with_profile(GlProfile::Core)
            .build(None);
        // SAFETY: the attributes carry no raw window handle.
        #[allow(unsafe_code)]
        let context =
            unsafe { display.create_context(&config, &attrs) }.map_err(|e| e.to_string())?;
        let context = context
            .make_current_surfaceless()
            .map_err(|e| e.to_string())?;
        let gl = Gl::load(|name| {
            let c = CString::new(name).unwrap_or_default();
            display.get_proc_address(&c)
        })?;
        Ok(Headless {
            gl,
            context,
            _display: display,
        })
    }

    /// Make this context current on this thread again, after another one was made current
    /// (several headless contexts on one thread, as MuJoCo's `GLContext.make_current`).
    pub fn make_current(&self) -> Result<(), String> {
        self.context
            .make_current_surfaceless()
            .map_err(|e| e.to_string())
    }

    /// The OpenGL calls of this context.
    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    /// Create the context without changing what is current on this thread: a context another
    /// library made current (glfw's) stays current, and this one is used through
    /// [`Headless::with_current`] (programs that mix both, as MuJoCo's Python users do).
    pub fn new_detached() -> Result<Headless, String> {
        let released = foreign::release_current();
        let made = Self::new().and_then(|h| {
            h.context
                .make_not_current_in_place()
                .map_err(|e| e.to_string())?;
            Ok(h)
        });
        if let Some(r) = released {
            r.restore();
        }
        made
    }

    /// Run `f` with this context current, then unbind it and bind again the context that was
    /// current before (drivers refuse an EGL context while another library's GLX context is
    /// current, and that library cannot make its own current while ours is).
    pub fn with_current<R>(&self, f: impl FnOnce(&Gl) -> R) -> Result<R, String> {
        let released = foreign::release_current();
        let result = self
            .context
            .make_current_surfaceless()
            .map(|()| f(&self.gl))
            .map_err(|e| e.to_string());
        let _ = self.context.make_not_current_in_place();
        if let Some(r) = released {
            r.restore();
        }
        result
    }
}
