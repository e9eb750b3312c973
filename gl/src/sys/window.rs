//! An OpenGL 3.3 core context on a winit window (GLX or EGL on X11, whichever the display
//! offers), for the interactive viewer.

use super::Gl;
use glutin::config::{Config, ConfigTemplateBuilder, GlConfig};
use glutin::context::{
    ContextApi, ContextAttributesBuilder, GlProfile, PossiblyCurrentContext, Version,
};
use glutin::display::{GetGlDisplay, GlDisplay};
use glutin::prelude::{GlSurface, NotCurrentGlContext};
use glutin::surface::{Surface, SwapInterval, WindowSurface};
use glutin_winit::{DisplayBuilder, GlWindow};
use std::ffi::CString;
use std::num::NonZeroU32;
use winit::event_loop::ActiveEventLoop;
use winit::raw_window_handle::HasWindowHandle;
use winit::window::{Window, WindowAttributes};

/// A window with a current OpenGL context; drawing goes to its back buffer.
pub struct WindowGl {
    // field order: the token, then the surface and context before the window they draw on
    gl: Gl,
    surface: Surface<WindowSurface>,
    context: PossiblyCurrentContext,
    window: Window,
}

/// The configuration with the most samples (multisampled windows look like MuJoCo's).
fn pick(configs: Box<dyn Iterator<Item = Config> + '_>) -> Config {
    configs
        .reduce(|a, b| {
            if b.num_samples() > a.num_samples() {
                b
            } else {
                a
            }
        })
        .expect("glutin gives at least one configuration")
}

impl WindowGl {
    /// Open a window with `attrs` and make its context current. Errors name what is missing
    /// (no display, no OpenGL 3.3).
    pub fn new(event_loop: &ActiveEventLoop, attrs: WindowAttributes) -> Result<WindowGl, String> {
        let template = ConfigTemplateBuilder::new()
            .with_depth_size(24)
            .with_stencil_size(8)
            .with_multisampling(4);
        let (window, config) = DisplayBuilder::new()
            .with_window_attributes(Some(attrs))
            .build(event_loop, template, pick)
            .map_err(|e| format!("cannot open a window with OpenGL: {e}"))?;
        let window = window.ok_or("the display gave no window")?;
        let handle = window
            .window_handle()
            .map_err(|e| format!("no window handle: {e}"))?
            .as_raw();
        let display = config.display();
        let attrs = ContextAttributesBuilder::new()
            .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
            .with_profile(GlProfile::Core)
            .build(Some(handle));
        // SAFETY: the raw window handle is of `window`, which outlives the context (field
        // order above drops the context first).
        #[allow(unsafe_code)]
        let context = unsafe { display.create_context(&config, &attrs) }
            .map_err(|e| format!("no OpenGL 3.3 core context: {e}"))?;
        let size = window.inner_size();
        if size.width == 0 || size.height == 0 {
            return Err("the window has no area".into());
        }
        let surface_attrs = window
            .build_surface_attributes(Default::default())
            .map_err(|e| format!("no window surface: {e}"))?;
        // SAFETY: as above, the surface is dropped before the window it was made for.
        #[allow(unsafe_code)]
        let surface = unsafe { display.create_window_surface(&config, &surface_attrs) }
            .map_err(|e| format!("no window surface: {e}"))?;
        let context = context.make_current(&surface).map_err(|e| e.to_string())?;
        let interval = SwapInterval::Wait(NonZeroU32::MIN);
        // vsync is a preference; software displays may refuse it
        let _ = surface.set_swap_interval(&context, interval);
        let gl = Gl::load(|name| {
            let c = CString::new(name).unwrap_or_default();
            display.get_proc_address(&c)
        })?;
        Ok(WindowGl {
            gl,
            surface,
            context,
            window,
        })
    }

    /// The OpenGL calls of this context.
    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    /// The window.
    pub fn window(&self) -> &Window {
        &self.window
    }

    /// Show the back buffer.
    pub fn swap(&self) -> Result<(), String> {
        self.surface
            .swap_buffers(&self.context)
            .map_err(|e| e.to_string())
    }

    /// Wait for the display's refresh when swapping (vertical sync), or not.
    pub fn set_vsync(&self, on: bool) {
        let interval = if on {
            SwapInterval::Wait(NonZeroU32::MIN)
        } else {
            SwapInterval::DontWait
        };
        // a preference, as at creation
        let _ = self.surface.set_swap_interval(&self.context, interval);
    }

    /// Follow a window resize; a zero size is ignored (nothing is drawn then).
    pub fn resize(&self, width: u32, height: u32) {
        if let (Some(w), Some(h)) = (NonZeroU32::new(width), NonZeroU32::new(height)) {
            self.surface.resize(&self.context, w, h);
        }
    }
}
