//! The interactive viewer (`mjrs view`), MuJoCo's `simulate` on mjrs: the left panel (file,
//! option, simulation, watch, physics, rendering, visualization and group sections) and the
//! right one (joint and control sliders) of the UI framework [`crate::ui`], simulate's
//! keyboard shortcuts and mouse conventions, the physics on a thread of its own in real time
//! (or slowed down), and the scene drawn on the window's thread from a scene state
//! ([`SceneState`]) copied from the physics at each frame, as simulate does.
//!
//! Mouse: left drag rotates the camera (shift: about the other axis), right drag moves it
//! (shift: horizontally), the wheel or middle drag zooms; double-click selects a body,
//! right double-click centres the camera on the point (with ctrl: tracks the body); ctrl +
//! left drag rotates the selected body, ctrl + right drag pulls it. Keys: space run/pause,
//! right arrow step (or forward in the history), left arrow back in the history, page up
//! select the parent body, `-` / `=` slower / faster, `[` / `]` cameras, escape free camera,
//! tab / shift-tab the panels, F1-F5 help, info, profiler, sensors, full screen, F6 / F7
//! frames / labels, and the shortcuts the panels show while the right button is held on
//! them (alt + a letter opens a section; ctrl-Q quits).

mod events;
mod frame;
mod hud;
mod input;
mod panels;
pub mod passive;
mod physics;

use crate::render::{Context, FontMetrics, Framebuffer, Rect};
use crate::sys::window::WindowGl;
use crate::ui::simulate::Settings;
use crate::ui::{self, EventType, State, Ui};
use crate::vis::{Camera, Perturb, Scene, SceneState, VisOption};
use input::Raw;
use mjrs_core::{Data, Model};
use physics::{lock, Sim, PERCENT_REAL_TIME};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::WindowId;

pub use crate::ui::Button;
pub use input::Input;

/// Most geoms in the scene and the scene state (simulate's `kMaxGeom`).
const MAXGEOM: usize = 20_000;

/// How the viewer starts and, for scripted runs, what it is sent and when it stops.
#[derive(Clone, Debug)]
pub struct Options {
    /// Window title.
    pub title: String,
    /// Window size in pixels.
    pub size: (u32, u32),
    /// Start paused.
    pub paused: bool,
    /// Close after this many frames (scripted runs and tests).
    pub frames: Option<u64>,
    /// Save the last frame drawn as a PNG here.
    pub screenshot: Option<PathBuf>,
    /// Allow the event loop off the main thread (tests; X11 only).
    pub any_thread: bool,
    /// Inputs to handle before drawing frame N (0 the first), as if they came from the
    /// window (tests and demonstrations).
    pub script: Vec<(u64, Input)>,
    /// Writes the model as MJCF for the file section's "Save xml" (MuJoCo's `mj_saveLastXML`):
    /// the viewer has only the compiled model, so the program that loaded the MJCF provides it.
    pub save_xml: Option<SaveXml>,
    /// Loads the model's file again into the model for the simulation section's "Reload"
    /// (ctrl+L); the viewer keeps its window and buffers, so the model must keep its sizes.
    pub reload: Option<Reload>,
    /// Passive mode (MuJoCo's `launch_passive`): another thread steps its own model and data
    /// and syncs them through this mailbox; the viewer steps nothing and shows the copies.
    pub passive: Option<Arc<passive::Mailbox>>,
    /// Show the left and right panels at the start (tab and shift-tab toggle them).
    pub show_ui: (bool, bool),
}

/// Compiles the model's file again into the given model (see [`Options::reload`]).
#[derive(Clone)]
pub struct Reload(pub Arc<ReloadFn>);

/// What a [`Reload`] calls: `Err` says why the model was left as it was.
pub type ReloadFn = dyn Fn(&mut Model) -> Result<(), String> + Send + Sync;

impl core::fmt::Debug for Reload {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Reload(..)")
    }
}

/// The MJCF text of a model with its current values (see [`Options::save_xml`]).
#[derive(Clone)]
pub struct SaveXml(pub Arc<SaveXmlFn>);

/// What a [`SaveXml`] calls: the text, or why there is none.
pub type SaveXmlFn = dyn Fn(&Model) -> Result<Vec<u8>, String> + Send + Sync;

impl core::fmt::Debug for SaveXml {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SaveXml(..)")
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            title: "mjrs".into(),
            size: (1200, 800),
            paused: false,
            frames: None,
            screenshot: None,
            any_thread: false,
            script: Vec::new(),
            save_xml: None,
            reload: None,
            passive: None,
            show_ui: (true, true),
        }
    }
}

/// What a viewer session did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Frames drawn.
    pub frames: u64,
    /// Simulation steps taken.
    pub steps: u64,
    /// Whether the simulation was running at the end.
    pub running: bool,
}

/// What the UI asked for, done at the next synchronization with the physics (simulate's
/// `pending_`).
#[derive(Default)]
struct Pending {
    reset: bool,
    align: bool,
    copy_pose: bool,
    load_key: bool,
    save_key: bool,
    zero_ctrl: bool,
    load_history: bool,
    save_xml: bool,
    reload: bool,
    save_mjb: bool,
    print_model: bool,
    print_data: bool,
    screenshot: bool,
    /// Perturbation to start (`interact::pert::*`), 0 none.
    newperturb: i32,
    /// A double click to select with (button, control, relative position, aspect ratio).
    select: Option<(Button, bool, f64, f64, f64)>,
}

struct App<'s, 'm, 'a, 'b> {
    sim: &'s Mutex<Sim<'m, 'a, 'b>>,
    opts: Options,
    win: Option<WindowGl>,
    con: Option<Context>,
    metrics: FontMetrics,
    state: SceneState,
    scn: Scene,
    cam: Camera,
    vopt: VisOption,
    pert: Perturb,
    uistate: State,
    raw: Raw,
    epoch: Instant,
    ui0: Ui,
    ui1: Ui,
    ui0_enable: bool,
    ui1_enable: bool,
    /// The UIs need simulate's `UiModify` (layout, buffer, full redraw).
    modify: [bool; 2],
    font_changed: bool,
    settings: Settings,
    paused: Arc<AtomicBool>,
    nkey: usize,
    nhistory: usize,
    body_parentid: Vec<i32>,
    pending: Pending,
    hud: hud::Hud,
    running: bool,
    step_time: std::time::Duration,
    frames: u64,
    fps: f64,
    fps_frames: u64,
    fps_since: Instant,
    measured_slowdown: f64,
    speed: usize,
    error: Option<String>,
    /// Passive mode: the mailbox of the program that steps the physics.
    passive: Option<passive::Link>,
    /// Geoms the passive program adds to the scene.
    user_geoms: Vec<crate::vis::VisGeom>,
}

/// Run the viewer on `m` and `d` until the window closes (or `opts.frames` frames). Errors
/// say what is missing when there is no display or no OpenGL.
pub fn run(m: &mut Model, d: &mut Data, opts: Options) -> Result<Summary, String> {
    let mut event_loop = event_loop(opts.any_thread)?;
    run_on(&mut event_loop, m, d, opts)
}

/// The windowing event loop viewer sessions run on ([`event_loop`], [`run_on`]).
pub type Windowing = EventLoop<()>;

/// An error naming what to do when there is no display to open windows on.
pub fn check_display() -> Result<(), String> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        return Err("no display: set DISPLAY (an X server, or Xvfb for a virtual one); `mjrs render` works without one".into());
    }
    Ok(())
}

/// The windowing event loop (one per process: [`run_on`] runs sessions on it one after the
/// other); `any_thread` allows it off the main thread (X11).
pub fn event_loop(any_thread: bool) -> Result<EventLoop<()>, String> {
    check_display()?;
    let mut builder = EventLoop::builder();
    if any_thread {
        use winit::platform::x11::EventLoopBuilderExtX11;
        builder.with_any_thread(true);
    }
    let event_loop = builder
        .build()
        .map_err(|e| format!("cannot connect to the display: {e}"))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    Ok(event_loop)
}

/// [`run`] on an event loop made by [`event_loop`]; the window closes at the end, the loop can
/// run the next session.
pub fn run_on(
    event_loop: &mut EventLoop<()>,
    m: &mut Model,
    d: &mut Data,
    opts: Options,
) -> Result<Summary, String> {
    use winit::platform::run_on_demand::EventLoopExtRunOnDemand;
    check_display()?;
    let mailbox = opts.passive.clone();
    if mailbox.is_none() {
        mjrs_core::forward(m, d).map_err(|e| e.to_string())?;
    }
    let mut state = SceneState::new(m, MAXGEOM).map_err(|e| e.to_string())?;
    state.update(m, d).map_err(|e| e.to_string())?;
    let (nkey, cam) = (m.nkey, Camera::default_free(m));
    let body_parentid = m.body_parentid.to_vec();
    let sim = Mutex::new(Sim::new(m, d, opts.paused && mailbox.is_none()));
    let nhistory = lock(&sim).history.len();
    let mut app = App::new(&sim, opts, state, cam, nkey, nhistory, body_parentid)?;
    let run = std::thread::scope(|s| {
        // passive: the program steps the physics
        let physics = mailbox.is_none().then(|| s.spawn(|| physics::run(&sim)));
        let run = event_loop.run_app_on_demand(&mut app);
        lock(&sim).exit = true;
        let joined = physics.map_or(Ok(()), |p| p.join());
        run.map_err(|e| e.to_string())
            .and(joined.map_err(|_| "the physics thread panicked".to_string()))
    });
    let (error, frames) = (app.error.take(), app.frames);
    drop(app);
    let error = run.err().or(error);
    if let Some(mailbox) = &mailbox {
        let mut ex = mailbox.lock();
        ex.closed = true;
        ex.error = error.clone();
    }
    if let Some(e) = error {
        return Err(e);
    }
    let s = lock(&sim);
    Ok(Summary {
        frames,
        steps: s.steps,
        running: s.run,
    })
}

impl<'s, 'm, 'a, 'b> App<'s, 'm, 'a, 'b> {
    #[allow(clippy::too_many_arguments)] // the pieces run() prepared
    fn new(
        sim: &'s Mutex<Sim<'m, 'a, 'b>>,
        opts: Options,
        state: SceneState,
        cam: Camera,
        nkey: usize,
        nhistory: usize,
        body_parentid: Vec<i32>,
    ) -> Result<Self, String> {
        let settings = Settings {
            run: i32::from(!opts.paused),
            pause_update: 1,
            vsync: 1,
            font: 1,
            field: "qpos".into(),
            enableactuator: [1; 6],
            ..Settings::default()
        };
        let is_passive = opts.passive.is_some();
        let paused = Arc::new(AtomicBool::new(opts.paused && !is_passive));
        let predicate = |p: Arc<AtomicBool>| -> ui::Predicate {
            // simulate's categories: 2 model, 3 model with keyframes, 4 paused, 5 managed
            Box::new(move |category| match category {
                3 => nkey > 0,
                4 => p.load(Ordering::Relaxed),
                5 => !is_passive,
                _ => true,
            })
        };
        let metrics = FontMetrics::of_scale(100).map_err(|e| e.to_string())?;
        let mut uistate = State {
            nrect: 1,
            ..State::default()
        };
        uistate.rect[0] = Rect::sized(opts.size.0 as i32, opts.size.1 as i32);
        Ok(App {
            sim,
            win: None,
            con: None,
            metrics,
            state,
            scn: Scene::new(MAXGEOM),
            cam,
            vopt: VisOption::default(),
            pert: Perturb::default(),
            uistate,
            raw: Raw::default(),
            epoch: Instant::now(),
            ui0: panels::empty_ui(0, 0, 1, predicate(paused.clone())),
            ui1: panels::empty_ui(0, 0, 2, predicate(paused.clone())),
            ui0_enable: opts.show_ui.0,
            ui1_enable: opts.show_ui.1,
            modify: [true, true],
            font_changed: false,
            settings,
            paused,
            nkey,
            nhistory,
            body_parentid,
            pending: Pending::default(),
            hud: hud::Hud::default(),
            running: !opts.paused || is_passive,
            step_time: std::time::Duration::ZERO,
            frames: 0,
            fps: 0.0,
            fps_frames: 0,
            fps_since: Instant::now(),
            measured_slowdown: 1.0,
            speed: 0,
            error: None,
            passive: opts.passive.clone().map(passive::Link::new),
            user_geoms: Vec::new(),
            opts,
        })
    }
}

impl ApplicationHandler for App<'_, '_, '_, '_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.win.is_some() {
            return;
        }
        let attrs = winit::window::Window::default_attributes()
            .with_title(self.opts.title.clone())
            .with_inner_size(PhysicalSize::new(self.opts.size.0, self.opts.size.1));
        let fontscale = 50 * (self.settings.font + 1);
        let made = WindowGl::new(event_loop, attrs).and_then(|w| {
            let model = self.state.model();
            let mut con = Context::new(w.gl(), &model, fontscale).map_err(|e| e.to_string())?;
            con.set_buffer(w.gl(), Framebuffer::Window);
            Ok((w, con))
        });
        match made {
            Ok((w, con)) => {
                self.metrics = con.font_metrics();
                self.win = Some(w);
                self.con = Some(con);
                self.window_resized();
                if let Some(link) = &self.passive {
                    link.mailbox.lock().opened = true;
                }
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let input = match event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                return;
            }
            WindowEvent::Resized(size) => {
                if let Some(w) = &self.win {
                    w.resize(size.width, size.height);
                }
                self.window_resized();
                return;
            }
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.frame(event_loop) {
                    self.fail(event_loop, e);
                }
                return;
            }
            WindowEvent::ModifiersChanged(m) => {
                let m = m.state();
                Input::Modifiers {
                    control: m.control_key(),
                    shift: m.shift_key(),
                    alt: m.alt_key(),
                }
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                let PhysicalKey::Code(code) = event.physical_key else {
                    return;
                };
                let Some(key) = input::key_code(code) else {
                    return;
                };
                Input::Key(key)
            }
            WindowEvent::CursorMoved { position, .. } => Input::Move(position.x, position.y),
            WindowEvent::MouseInput { state, button, .. } => {
                let b = match button {
                    MouseButton::Left => Button::Left,
                    MouseButton::Right => Button::Right,
                    MouseButton::Middle => Button::Middle,
                    _ => return,
                };
                if state == ElementState::Pressed {
                    Input::Press(b)
                } else {
                    Input::Release(b)
                }
            }
            WindowEvent::MouseWheel { delta, .. } => Input::Scroll(match delta {
                MouseScrollDelta::LineDelta(_, y) => f64::from(y),
                MouseScrollDelta::PixelDelta(p) => p.y / 40.0,
            }),
            _ => return,
        };
        self.input(event_loop, input);
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(w) = &self.win {
            w.window().request_redraw();
        }
    }
}

impl App<'_, '_, '_, '_> {
    fn fail(&mut self, event_loop: &ActiveEventLoop, e: String) {
        self.error.get_or_insert(e);
        event_loop.exit();
    }

    /// The window's size changed (or it opened): the whole-window rectangle and the layout.
    fn window_resized(&mut self) {
        let Some(w) = &self.win else {
            return;
        };
        let s = w.window().inner_size();
        self.uistate.rect[0] = Rect::sized(s.width as i32, s.height as i32);
        self.layout();
        self.uistate.kind = EventType::Resize;
        self.uistate.dragbutton = Button::None;
        self.uistate.dragrect = 0;
        for u in [&mut self.ui0, &mut self.ui1] {
            ui::event(u, &mut self.uistate, &self.metrics);
        }
    }

    /// The window's rectangles (`UiLayout`): 1 the left panel, 2 the right one, 3 the scene.
    fn layout(&mut self) {
        let r = &mut self.uistate.rect;
        let (w, h) = (r[0].width, r[0].height);
        let w1 = if self.ui0_enable { self.ui0.width } else { 0 };
        let w2 = if self.ui1_enable { self.ui1.width } else { 0 };
        r[1] = Rect {
            left: 0,
            bottom: 0,
            width: w1,
            height: h,
        };
        r[2] = Rect {
            left: (w - w2).max(0),
            bottom: 0,
            width: w2,
            height: h,
        };
        r[3] = Rect {
            left: w1,
            bottom: 0,
            width: (w - w1 - w2).max(0),
            height: h,
        };
        self.uistate.nrect = 4;
    }
}
