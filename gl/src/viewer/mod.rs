//! The interactive viewer (`mjrs view`), after MuJoCo's `simulate`: the simulation runs in real
//! time (or slowed down) in a window, with the mouse and keyboard conventions of `simulate`,
//! panels for options, physics and rendering flags on the left, joint and control sliders on
//! the right, and info, help, profiler and sensor overlays.
//!
//! Mouse: left drag rotates the camera (shift: about the other axis), right drag moves it
//! (shift: horizontally), middle drag or the wheel zooms; double-click left selects a body,
//! double-click right centres the camera on the point (with ctrl: tracks the body);
//! ctrl + left drag rotates the selected body, ctrl + right drag pulls it. Keys: space
//! pause, right arrow step, backspace reset, `-`/`=` slower/faster, `[`/`]` cameras, escape
//! free camera, tab / shift-tab panels, F1 help, F2 info, F3 profiler, F4 sensors, ctrl-Q
//! quit, and MuJoCo's shortcut letters for the visualization and rendering flags.

mod hud;
mod ui;

use crate::render::{self, Context, Framebuffer, Rect};
use crate::sys::window::WindowGl;
use crate::ui::simulate::DISABLESTRING;
use crate::vis::{self, camera_type, interact, Camera, Perturb, Scene, VisOption};
use mjrs_core::{Data, Model, Real};
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use ui::{Id, Item, Kind, Panel};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, ModifiersState, NamedKey};
use winit::window::WindowId;

/// How the viewer starts and, for scripted runs, when it stops.
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
}

/// Real-time factors offered, in percent (`simulate`'s list).
const SPEEDS: [f64; 31] = [
    100.0, 80.0, 66.0, 50.0, 40.0, 33.0, 25.0, 20.0, 16.0, 13.0, 10.0, 8.0, 6.6, 5.0, 4.0, 3.3,
    2.5, 2.0, 1.6, 1.3, 1.0, 0.8, 0.66, 0.5, 0.4, 0.33, 0.25, 0.2, 0.16, 0.13, 0.1,
];

/// Most simulated time advanced per frame, so that a slow model does not spiral.
const MAX_FRAME_SIM: f64 = 0.1;

/// The rendering flags offered (`mjRNDSTRING` without segmentation's two).
const RND: [usize; 8] = [
    vis::rnd::SHADOW,
    vis::rnd::WIREFRAME,
    vis::rnd::REFLECTION,
    vis::rnd::ADDITIVE,
    vis::rnd::SKYBOX,
    vis::rnd::FOG,
    vis::rnd::HAZE,
    vis::rnd::CULL_FACE,
];

/// Flags not offered: SDF iterations, which MuJoCo 3.1.6's scene update never reads.
const UNSHOWN: [usize; 1] = [vis::flag::SDFITER];

const ENABLE: [&str; 6] = [
    "Override",
    "Energy",
    "Fwdinv",
    "Invdiscrete",
    "Multiccd",
    "Island",
];
const INTEGRATORS: [&str; 4] = ["Euler", "RK4", "implicit", "implicitfast"];
const CONES: [&str; 2] = ["Pyramidal", "Elliptic"];
const SOLVERS: [&str; 3] = ["PGS", "CG", "Newton"];
const SECTIONS: [&str; 6] = [
    "Option",
    "Simulation",
    "Physics",
    "Rendering",
    "Visualization",
    "Groups",
];

/// Mouse state.
#[derive(Default)]
struct Mouse {
    pos: (f64, f64),
    left: bool,
    right: bool,
    middle: bool,
    last_press: Option<(Instant, MouseButton, (f64, f64))>,
    drag: Option<Drag>,
}

/// What a drag moves.
#[derive(Clone, Copy, PartialEq)]
enum Drag {
    Scene,
    Slider(Id, Rect, f64, f64),
}

/// The simulation clock.
struct Clock {
    paused: bool,
    speed: usize,
    last: Instant,
}

struct App<'m, 'a, 'b> {
    m: &'m mut Model<'a>,
    d: &'m mut Data<'b>,
    opts: Options,
    win: Option<WindowGl>,
    con: Option<Context>,
    scn: Scene,
    cam: Camera,
    vopt: VisOption,
    pert: Perturb,
    rnd: [u8; vis::rnd::N],
    clock: Clock,
    mouse: Mouse,
    mods: ModifiersState,
    left: Panel,
    right: Panel,
    show_left: bool,
    show_right: bool,
    closed: HashSet<u8>,
    hud: hud::Hud,
    key: i32,
    fontscale: i32,
    summary: Summary,
    error: Option<String>,
}

/// Run the viewer on `m` and `d` until the window closes (or `opts.frames` frames). Errors
/// say what is missing when there is no display or no OpenGL.
pub fn run(m: &mut Model, d: &mut Data, opts: Options) -> Result<Summary, String> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        return Err("no display: set DISPLAY (an X server, or Xvfb for a virtual one); `mjrs render` works without one".into());
    }
    let mut builder = EventLoop::builder();
    if opts.any_thread {
        use winit::platform::x11::EventLoopBuilderExtX11;
        builder.with_any_thread(true);
    }
    let event_loop = builder
        .build()
        .map_err(|e| format!("cannot connect to the display: {e}"))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    mjrs_core::forward(m, d).map_err(|e| e.to_string())?;
    let cam = Camera::default_free(m);
    let mut app = App {
        clock: Clock {
            paused: opts.paused,
            speed: 0,
            last: Instant::now(),
        },
        m,
        d,
        opts,
        win: None,
        con: None,
        scn: Scene::new(10_000),
        cam,
        vopt: VisOption::default(),
        pert: Perturb::default(),
        rnd: vis::rnd::DEFAULT,
        mouse: Mouse::default(),
        mods: ModifiersState::empty(),
        left: Panel::default(),
        right: Panel::default(),
        show_left: true,
        show_right: true,
        closed: [2u8, 4, 5].into_iter().collect(),
        hud: hud::Hud::default(),
        key: -1,
        fontscale: 100,
        summary: Summary::default(),
        error: None,
    };
    event_loop.run_app(&mut app).map_err(|e| e.to_string())?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(app.summary),
    }
}

impl ApplicationHandler for App<'_, '_, '_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.win.is_some() {
            return;
        }
        let attrs = winit::window::Window::default_attributes()
            .with_title(self.opts.title.clone())
            .with_inner_size(PhysicalSize::new(self.opts.size.0, self.opts.size.1));
        let made = WindowGl::new(event_loop, attrs).and_then(|w| {
            let mut con =
                Context::new(w.gl(), self.m, self.fontscale).map_err(|e| e.to_string())?;
            con.set_buffer(w.gl(), Framebuffer::Window);
            Ok((w, con))
        });
        match made {
            Ok((w, con)) => {
                self.win = Some(w);
                self.con = Some(con);
                self.clock.last = Instant::now();
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                if let Some(w) = &self.win {
                    w.resize(size.width, size.height);
                }
            }
            WindowEvent::ModifiersChanged(m) => self.mods = m.state(),
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                self.key_pressed(event_loop, &event.logical_key);
            }
            WindowEvent::CursorMoved { position, .. } => self.mouse_moved((position.x, position.y)),
            WindowEvent::MouseInput { state, button, .. } => self.mouse_button(button, state),
            WindowEvent::MouseWheel { delta, .. } => {
                let dy = match delta {
                    MouseScrollDelta::LineDelta(_, y) => f64::from(y),
                    MouseScrollDelta::PixelDelta(p) => p.y / 40.0,
                };
                self.wheel(dy);
            }
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.frame(event_loop) {
                    self.fail(event_loop, e);
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(w) = &self.win {
            w.window().request_redraw();
        }
    }
}

impl App<'_, '_, '_> {
    fn fail(&mut self, event_loop: &ActiveEventLoop, e: String) {
        self.error.get_or_insert(e);
        event_loop.exit();
    }

    fn window_size(&self) -> (i32, i32) {
        self.win.as_ref().map_or((0, 0), |w| {
            let s = w.window().inner_size();
            (s.width as i32, s.height as i32)
        })
    }

    /// Panels and the scene's viewport for the current window size.
    fn layout(&mut self) -> Rect {
        let (w, h) = self.window_size();
        let pw = self
            .con
            .as_ref()
            .map_or(250, |c| c.text_width(render::Font::Normal, "M") * 22);
        let pw = pw.min(w / 3);
        self.left.rect = if self.show_left {
            Rect {
                left: 0,
                bottom: 0,
                width: pw,
                height: h,
            }
        } else {
            Rect::default()
        };
        self.right.rect = if self.show_right {
            Rect {
                left: w - pw,
                bottom: 0,
                width: pw,
                height: h,
            }
        } else {
            Rect::default()
        };
        let left = self.left.rect.width;
        Rect {
            left,
            bottom: 0,
            width: (w - left - self.right.rect.width).max(0),
            height: h,
        }
    }

    // ------------------------------------------------------------------ simulation

    fn reset(&mut self) {
        if self.key >= 0 {
            mjrs_core::io::reset_data_keyframe(self.m, self.d, self.key);
        } else {
            mjrs_core::io::reset_data(self.m, self.d);
        }
        self.pert.active = 0;
        let _ = mjrs_core::forward(self.m, self.d);
        self.hud.clear();
    }

    fn step_once(&mut self) -> Result<(), String> {
        self.d.xfrc_applied.fill(0.0);
        let (m, d) = (&*self.m, &mut *self.d);
        interact::apply_perturb_pose(m, d, &self.pert, false).map_err(|e| e.to_string())?;
        interact::apply_perturb_force(m, d, &self.pert).map_err(|e| e.to_string())?;
        let t = Instant::now();
        let result = mjrs_core::step(m, d);
        self.hud.record_step(d, t.elapsed());
        self.summary.steps += 1;
        // a diverged state is reset, as simulate does, rather than stopping the viewer
        if let Err(e) = result {
            self.hud.message = format!("simulation reset: {e}");
            self.reset();
        }
        Ok(())
    }

    /// Advance the simulation to keep pace with the wall clock (times the speed).
    fn advance(&mut self) -> Result<(), String> {
        let now = Instant::now();
        let wall = now.duration_since(self.clock.last).as_secs_f64();
        self.clock.last = now;
        if self.clock.paused {
            if self.pert.active != 0 {
                interact::apply_perturb_pose(self.m, self.d, &self.pert, true)
                    .map_err(|e| e.to_string())?;
                mjrs_core::forward(self.m, self.d).map_err(|e| e.to_string())?;
            }
            return Ok(());
        }
        let dt = self.m.opt.timestep.max(1e-9);
        let target = (wall * SPEEDS[self.clock.speed] / 100.0).min(MAX_FRAME_SIM);
        let steps = (target / dt).round().max(1.0) as usize;
        for _ in 0..steps {
            self.step_once()?;
        }
        Ok(())
    }

    // ------------------------------------------------------------------ frame

    fn frame(&mut self, event_loop: &ActiveEventLoop) -> Result<(), String> {
        let (w, h) = self.window_size();
        if self.win.is_none() || w <= 0 || h <= 0 {
            return Ok(());
        }
        self.advance()?;
        let scene_rect = self.layout();
        self.vopt.flags[vis::flag::SELECT] = u8::from(self.pert.select > 0);
        vis::update_scene(
            self.m,
            self.d,
            &self.vopt,
            &self.pert,
            &mut self.cam,
            vis::CAT_ALL,
            &mut self.scn,
        )
        .map_err(|e| e.to_string())?;
        self.scn.flags = self.rnd;
        let (left_items, right_items) = (self.left_items(), self.right_items());
        let (Some(win), Some(con)) = (&self.win, &self.con) else {
            return Ok(());
        };
        let gl = win.gl();
        render::rectangle(gl, con, Rect::sized(w, h), [0.0, 0.0, 0.0, 1.0]);
        render::render(gl, scene_rect, &mut self.scn, con).map_err(|e| e.to_string())?;
        self.hud
            .draw(gl, con, scene_rect, self.m, self.d, &self.clock_text());
        self.left.draw(gl, con, left_items);
        self.right.draw(gl, con, right_items);
        self.summary.frames += 1;
        let last = self.opts.frames.is_some_and(|n| self.summary.frames >= n);
        if last {
            if let Some(path) = self.opts.screenshot.clone() {
                let full = Rect::sized(w, h);
                let mut rgb = vec![0u8; (w * h * 3) as usize];
                render::read_pixels(gl, con, full, Some(&mut rgb), None)
                    .map_err(|e| e.to_string())?;
                let top_down: Vec<u8> = rgb
                    .chunks((w * 3) as usize)
                    .rev()
                    .flatten()
                    .copied()
                    .collect();
                render::write_png(&path, w as u32, h as u32, &top_down)?;
            }
        }
        win.swap()?;
        if last {
            event_loop.exit();
        }
        Ok(())
    }

    fn clock_text(&self) -> String {
        let state = if self.clock.paused {
            "paused"
        } else {
            "running"
        };
        format!("{state}, {}% real time", SPEEDS[self.clock.speed])
    }

    // ------------------------------------------------------------------ panels

    fn section(&self, items: &mut Vec<Item>, k: u8) -> bool {
        let open = !self.closed.contains(&k);
        items.push(Item::new(
            Id::Section(k),
            SECTIONS[k as usize],
            Kind::Section(open),
        ));
        open
    }

    fn left_items(&self) -> Vec<Item> {
        let (m, h) = (&*self.m, &self.hud);
        let mut v = Vec::new();
        let check = |id, label: &str, on: bool| Item::new(id, label, Kind::Check(on));
        let choice =
            |id, label: &str, value: &str| Item::new(id, label, Kind::Choice(value.into()));
        if self.section(&mut v, 0) {
            v.push(check(Id::Help, "Help (F1)", h.help));
            v.push(check(Id::Info, "Info (F2)", h.info));
            v.push(check(Id::Profiler, "Profiler (F3)", h.profiler));
            v.push(check(Id::Sensor, "Sensor (F4)", h.sensor));
            v.push(choice(Id::Font, "Font", &format!("{}%", self.fontscale)));
        }
        if self.section(&mut v, 1) {
            let run = if self.clock.paused {
                "Run (space)"
            } else {
                "Pause (space)"
            };
            v.push(Item::new(Id::Run, run, Kind::Button));
            v.push(Item::new(Id::Step, "Step (right arrow)", Kind::Button));
            v.push(Item::new(Id::Reset, "Reset (backspace)", Kind::Button));
            v.push(choice(
                Id::Speed,
                "Speed (-/=)",
                &format!("{}%", SPEEDS[self.clock.speed]),
            ));
            let key = if self.key < 0 {
                "none".to_string()
            } else {
                self.key.to_string()
            };
            v.push(choice(Id::Key, "Reset to key", &key));
        }
        if self.section(&mut v, 2) {
            let o = &m.opt;
            let pick =
                |names: &[&str], i: i32| names.get(i as usize).copied().unwrap_or("?").to_string();
            v.push(choice(
                Id::Integrator,
                "Integrator",
                &pick(&INTEGRATORS, o.integrator),
            ));
            v.push(choice(Id::Cone, "Cone", &pick(&CONES, o.cone)));
            v.push(choice(Id::Solver, "Solver", &pick(&SOLVERS, o.solver)));
            v.push(Item::new(
                Id::Iterations,
                "Iterations",
                Kind::Slider {
                    value: f64::from(o.iterations),
                    min: 0.0,
                    max: 1000.0,
                },
            ));
            for (k, name) in DISABLESTRING.iter().enumerate() {
                v.push(check(
                    Id::Disable(k as u8),
                    &format!("Disable {name}"),
                    o.disableflags & (1 << k) != 0,
                ));
            }
            for (k, name) in ENABLE.iter().enumerate() {
                v.push(check(
                    Id::Enable(k as u8),
                    &format!("Enable {name}"),
                    o.enableflags & (1 << k) != 0,
                ));
            }
        }
        if self.section(&mut v, 3) {
            v.push(choice(Id::Camera, "Camera ([ ])", &self.camera_name()));
            let label = crate::vis::label_name(self.vopt.label);
            v.push(choice(Id::Label, "Label", label));
            v.push(choice(
                Id::Frame,
                "Frame",
                crate::vis::frame_name(self.vopt.frame),
            ));
            for (k, &flag) in RND.iter().enumerate() {
                let (name, key) = vis::rnd::STRINGS[flag];
                let text = if key.is_empty() {
                    name.to_string()
                } else {
                    format!("{name} ({key})")
                };
                v.push(check(Id::Rnd(k as u8), &text, self.rnd[flag] != 0));
            }
        }
        if self.section(&mut v, 4) {
            for (k, (name, key)) in vis::flag::STRINGS.iter().enumerate() {
                if UNSHOWN.contains(&k) {
                    continue;
                }
                let text = if key.is_empty() {
                    name.to_string()
                } else {
                    format!("{name} ({key})")
                };
                v.push(check(Id::Vis(k as u8), &text, self.vopt.flags[k] != 0));
            }
        }
        if self.section(&mut v, 5) {
            for g in 0..6u8 {
                v.push(check(
                    Id::GeomGroup(g),
                    &format!("Geom group {g} ({g})"),
                    self.vopt.geomgroup[g as usize] != 0,
                ));
            }
            for g in 0..6u8 {
                v.push(check(
                    Id::SiteGroup(g),
                    &format!("Site group {g}"),
                    self.vopt.sitegroup[g as usize] != 0,
                ));
            }
            // flex groups and the layer of 3D flexes, for models that have flexes
            if self.m.nflex > 0 {
                for g in 0..6u8 {
                    v.push(check(
                        Id::FlexGroup(g),
                        &format!("Flex group {g}"),
                        self.vopt.flexgroup[g as usize] != 0,
                    ));
                }
                let layer = self.vopt.flex_layer.to_string();
                v.push(choice(Id::FlexLayer, "Flex layer", &layer));
            }
        }
        v
    }

    fn right_items(&self) -> Vec<Item> {
        let (m, d) = (&*self.m, &*self.d);
        let mut v = vec![Item::new(Id::Section(100), "Joint", Kind::Section(true))];
        for j in 0..m.njnt {
            let ty = m.jnt_type[j];
            if ty != mjrs_core::types::JNT_HINGE && ty != mjrs_core::types::JNT_SLIDE {
                continue;
            }
            let (min, max) = if m.jnt_limited[j] != 0 {
                (m.jnt_range[2 * j], m.jnt_range[2 * j + 1])
            } else if ty == mjrs_core::types::JNT_HINGE {
                (-mjrs_core::real::PI, mjrs_core::real::PI)
            } else {
                (-1.0, 1.0)
            };
            let name = name_or(m, mjrs_core::types::OBJ_JOINT, j, "joint");
            let value = d.qpos[m.jnt_qposadr[j] as usize];
            v.push(Item::new(
                Id::Joint(j),
                name,
                Kind::Slider { value, min, max },
            ));
        }
        v.push(Item::new(Id::Section(101), "Control", Kind::Section(true)));
        v.push(Item::new(Id::ClearCtrl, "Clear all", Kind::Button));
        for a in 0..m.nu {
            let (min, max) = if m.actuator_ctrllimited[a] != 0 {
                (m.actuator_ctrlrange[2 * a], m.actuator_ctrlrange[2 * a + 1])
            } else {
                (-1.0, 1.0)
            };
            let name = name_or(m, mjrs_core::types::OBJ_ACTUATOR, a, "actuator");
            v.push(Item::new(
                Id::Ctrl(a),
                name,
                Kind::Slider {
                    value: d.ctrl[a],
                    min,
                    max,
                },
            ));
        }
        v
    }

    fn camera_name(&self) -> String {
        match self.cam.type_ {
            camera_type::FIXED => name_or(
                self.m,
                mjrs_core::types::OBJ_CAMERA,
                self.cam.fixedcamid as usize,
                "camera",
            ),
            camera_type::TRACKING => "Tracking".into(),
            _ => "Free".into(),
        }
    }

    /// Cycle the camera: free, then each model camera (`]` forward, `[` back).
    fn cycle_camera(&mut self, forward: bool) {
        let n = self.m.ncam as i32;
        let current = if self.cam.type_ == camera_type::FIXED {
            self.cam.fixedcamid
        } else {
            -1
        };
        let next = if forward { current + 1 } else { current - 1 };
        let next = if next >= n {
            -1
        } else if next < -1 {
            n - 1
        } else {
            next
        };
        if next < 0 {
            self.cam.type_ = camera_type::FREE;
        } else {
            self.cam.type_ = camera_type::FIXED;
            self.cam.fixedcamid = next;
        }
    }

    /// A panel row was clicked (`step` +1: next choice, -1: previous) or a slider set to `t`.
    fn activate(&mut self, id: Id, step: i32, t: Option<f64>) {
        let cycle = |v: i32, n: i32| (v + step).rem_euclid(n.max(1));
        match id {
            Id::Section(k) => {
                if !self.closed.remove(&k) {
                    self.closed.insert(k);
                }
            }
            Id::Help => self.hud.help ^= true,
            Id::Info => self.hud.info ^= true,
            Id::Profiler => self.hud.profiler ^= true,
            Id::Sensor => self.hud.sensor ^= true,
            Id::Font => {
                let scales = render::FONT_SCALES;
                let k = scales
                    .iter()
                    .position(|&s| s == self.fontscale)
                    .unwrap_or(1) as i32;
                self.fontscale = scales[cycle(k, scales.len() as i32) as usize];
                if let (Some(w), Some(con)) = (&self.win, &mut self.con) {
                    let _ = con.change_font(w.gl(), self.fontscale);
                }
            }
            Id::Run => self.clock.paused ^= true,
            Id::Step => {
                self.clock.paused = true;
                if let Err(e) = self.step_once() {
                    self.hud.message = e;
                }
            }
            Id::Reset => self.reset(),
            Id::Speed => {
                self.clock.speed = cycle(self.clock.speed as i32, SPEEDS.len() as i32) as usize
            }
            Id::Key => self.key = cycle(self.key + 1, self.m.nkey as i32 + 1) - 1,
            Id::Integrator => self.m.opt.integrator = cycle(self.m.opt.integrator, 4),
            Id::Cone => self.m.opt.cone = cycle(self.m.opt.cone, 2),
            Id::Solver => self.m.opt.solver = cycle(self.m.opt.solver, 3),
            Id::Iterations => {
                if let Some(t) = t {
                    self.m.opt.iterations = (t * 1000.0).round() as i32;
                }
            }
            Id::Disable(k) => self.m.opt.disableflags ^= 1 << k,
            Id::Enable(k) => self.m.opt.enableflags ^= 1 << k,
            Id::Camera => self.cycle_camera(step > 0),
            Id::Label => self.vopt.label = cycle(self.vopt.label, crate::vis::label::COUNT),
            Id::Frame => self.vopt.frame = cycle(self.vopt.frame, crate::vis::frame::COUNT),
            Id::Rnd(k) => {
                let flag = RND[k as usize];
                self.rnd[flag] ^= 1;
            }
            Id::Vis(k) => self.vopt.flags[k as usize] ^= 1,
            Id::GeomGroup(g) => self.vopt.geomgroup[g as usize] ^= 1,
            Id::SiteGroup(g) => self.vopt.sitegroup[g as usize] ^= 1,
            Id::FlexGroup(g) => self.vopt.flexgroup[g as usize] ^= 1,
            // MuJoCo's simulate offers layers 0 to 10
            Id::FlexLayer => self.vopt.flex_layer = cycle(self.vopt.flex_layer, 11),
            Id::Joint(j) => {
                if let Some(t) = t {
                    self.set_joint(j, t);
                }
            }
            Id::Ctrl(a) => {
                if let Some(t) = t {
                    let (min, max) = self.ctrl_range(a);
                    self.d.ctrl[a] = min + t * (max - min);
                }
            }
            Id::ClearCtrl => self.d.ctrl.fill(0.0),
        }
    }

    fn ctrl_range(&self, a: usize) -> (Real, Real) {
        if self.m.actuator_ctrllimited[a] != 0 {
            (
                self.m.actuator_ctrlrange[2 * a],
                self.m.actuator_ctrlrange[2 * a + 1],
            )
        } else {
            (-1.0, 1.0)
        }
    }

    /// Move joint `j` to relative position `t` of its slider; the state is recomputed.
    fn set_joint(&mut self, j: usize, t: f64) {
        let Some(item) = self
            .right_items()
            .into_iter()
            .find(|i| i.id == Id::Joint(j))
        else {
            return;
        };
        if let Kind::Slider { min, max, .. } = item.kind {
            self.d.qpos[self.m.jnt_qposadr[j] as usize] = min + t * (max - min);
            let _ = mjrs_core::forward(self.m, self.d);
        }
    }

    // ------------------------------------------------------------------ input

    fn key_pressed(&mut self, event_loop: &ActiveEventLoop, key: &Key) {
        let ctrl = self.mods.control_key();
        let shift = self.mods.shift_key();
        match key {
            Key::Named(NamedKey::Space) => self.clock.paused ^= true,
            Key::Named(NamedKey::ArrowRight) => self.activate(Id::Step, 1, None),
            Key::Named(NamedKey::Backspace) => self.reset(),
            Key::Named(NamedKey::Escape) => {
                self.cam.type_ = camera_type::FREE;
            }
            Key::Named(NamedKey::Tab) if shift => self.show_right ^= true,
            Key::Named(NamedKey::Tab) => self.show_left ^= true,
            Key::Named(NamedKey::F1) => self.hud.help ^= true,
            Key::Named(NamedKey::F2) => self.hud.info ^= true,
            Key::Named(NamedKey::F3) => self.hud.profiler ^= true,
            Key::Named(NamedKey::F4) => self.hud.sensor ^= true,
            Key::Character(c) => {
                let c = c.to_uppercase();
                if ctrl && c == "Q" {
                    event_loop.exit();
                } else if ctrl && c == "A" {
                    self.cam = Camera::default_free(self.m);
                } else if !ctrl {
                    self.shortcut(&c);
                }
            }
            _ => {}
        }
    }

    fn shortcut(&mut self, c: &str) {
        match c {
            "-" => self.clock.speed = (self.clock.speed + 1).min(SPEEDS.len() - 1),
            "=" | "+" => self.clock.speed = self.clock.speed.saturating_sub(1),
            "[" => self.cycle_camera(false),
            "]" => self.cycle_camera(true),
            _ => {
                if let Some(g) = c.parse::<usize>().ok().filter(|&g| g < 6) {
                    self.vopt.geomgroup[g] ^= 1;
                } else if let Some(&flag) = RND.iter().find(|&&r| vis::rnd::STRINGS[r].1 == c) {
                    self.rnd[flag] ^= 1;
                } else if let Some(k) =
                    (vis::flag::STRINGS.iter()).position(|v| v.1 == c && !v.1.is_empty())
                {
                    self.vopt.flags[k] ^= 1;
                }
            }
        }
    }

    fn panel_at(&self, x: i32, y: i32) -> Option<&Panel> {
        [&self.left, &self.right]
            .into_iter()
            .find(|p| p.contains(x, y))
    }

    /// Window pixel (origin bottom left) of the mouse.
    fn pixel(&self) -> (i32, i32) {
        let (_, h) = self.window_size();
        (self.mouse.pos.0 as i32, h - 1 - self.mouse.pos.1 as i32)
    }

    fn mouse_button(&mut self, button: MouseButton, state: ElementState) {
        let pressed = state == ElementState::Pressed;
        match button {
            MouseButton::Left => self.mouse.left = pressed,
            MouseButton::Right => self.mouse.right = pressed,
            MouseButton::Middle => self.mouse.middle = pressed,
            _ => return,
        }
        if !pressed {
            if !(self.mouse.left || self.mouse.right || self.mouse.middle) {
                self.mouse.drag = None;
                self.pert.active = 0;
            }
            return;
        }
        let (x, y) = self.pixel();
        if let Some(panel) = self.panel_at(x, y) {
            if let Some((item, t)) = panel.hit(x, y) {
                let (id, kind) = (item.id, item.kind.clone());
                let rect = panel
                    .rows
                    .iter()
                    .find(|r| r.1.id == id)
                    .map(|r| r.0)
                    .unwrap_or_default();
                match kind {
                    Kind::Slider { .. } => {
                        self.mouse.drag = Some(Drag::Slider(id, rect, 0.0, 0.0));
                        self.activate(id, 0, Some(t.clamp(0.0, 1.0)));
                    }
                    _ => self.activate(id, if button == MouseButton::Right { -1 } else { 1 }, None),
                }
            }
            return;
        }
        self.mouse.drag = Some(Drag::Scene);
        let now = Instant::now();
        let double = self.mouse.last_press.is_some_and(|(t, b, p)| {
            b == button
                && now - t < Duration::from_millis(400)
                && (p.0 - self.mouse.pos.0).abs() < 5.0
        });
        self.mouse.last_press = Some((now, button, self.mouse.pos));
        if double {
            self.double_click(button);
        } else if self.mods.control_key() && self.pert.select > 0 {
            let kind = if button == MouseButton::Right {
                interact::pert::TRANSLATE
            } else {
                interact::pert::ROTATE
            };
            if interact::init_perturb(self.m, self.d, &self.scn, &mut self.pert).is_ok() {
                self.pert.active = kind;
            }
        }
    }

    /// Double click: select (left) or look at / track (right) what is under the mouse.
    fn double_click(&mut self, button: MouseButton) {
        let scene = self.layout();
        let (x, y) = self.pixel();
        if scene.width <= 0 || scene.height <= 0 {
            return;
        }
        let relx = f64::from(x - scene.left) / f64::from(scene.width);
        let rely = f64::from(y - scene.bottom) / f64::from(scene.height);
        let aspect = f64::from(scene.width) / f64::from(scene.height);
        let hit = interact::select(self.m, self.d, &self.vopt, aspect, relx, rely, &self.scn)
            .ok()
            .flatten();
        match (button, hit) {
            (MouseButton::Left, Some(s)) => {
                self.pert.select = s.body;
                self.pert.flexselect = s.flex;
                self.pert.skinselect = s.skin;
                let b = s.body as usize;
                // the selection point in the body's frame
                let p: [Real; 3] = core::array::from_fn(|k| s.point[k] - self.d.xpos[3 * b + k]);
                let r = &self.d.xmat[9 * b..9 * b + 9];
                self.pert.localpos =
                    core::array::from_fn(|k| r[k] * p[0] + r[3 + k] * p[1] + r[6 + k] * p[2]);
                self.pert.active = 0;
            }
            (MouseButton::Left, None) => {
                self.pert.select = 0;
                self.pert.flexselect = -1;
                self.pert.skinselect = -1;
            }
            (MouseButton::Right, Some(s)) => {
                self.cam.lookat = s.point;
                if self.mods.control_key() && s.body > 0 {
                    self.cam.type_ = camera_type::TRACKING;
                    self.cam.trackbodyid = s.body;
                    self.cam.fixedcamid = -1;
                }
            }
            _ => {}
        }
    }

    fn mouse_moved(&mut self, pos: (f64, f64)) {
        let (dx, dy) = (pos.0 - self.mouse.pos.0, pos.1 - self.mouse.pos.1);
        self.mouse.pos = pos;
        match self.mouse.drag {
            Some(Drag::Slider(id, rect, _, _)) => {
                let (x, _) = self.pixel();
                let t = f64::from(x - rect.left) / f64::from(rect.width.max(1));
                self.activate(id, 0, Some(t.clamp(0.0, 1.0)));
            }
            Some(Drag::Scene) => {
                let (_, h) = self.window_size();
                let shift = self.mods.shift_key();
                let action = if self.mouse.right {
                    if shift {
                        interact::mouse::MOVE_H
                    } else {
                        interact::mouse::MOVE_V
                    }
                } else if self.mouse.left {
                    if shift {
                        interact::mouse::ROTATE_H
                    } else {
                        interact::mouse::ROTATE_V
                    }
                } else {
                    interact::mouse::ZOOM
                };
                let (rx, ry) = (dx / f64::from(h.max(1)), dy / f64::from(h.max(1)));
                let result = if self.pert.active != 0 {
                    interact::move_perturb(
                        self.m,
                        self.d,
                        action,
                        rx,
                        ry,
                        &self.scn,
                        &mut self.pert,
                    )
                } else {
                    interact::move_camera(self.m, action, rx, ry, &self.scn, &mut self.cam)
                };
                if let Err(e) = result {
                    self.hud.message = e.to_string();
                }
            }
            None => {}
        }
    }

    fn wheel(&mut self, dy: f64) {
        let (x, y) = self.pixel();
        let h = Panel::row_height_hint(self.con.as_ref());
        for panel in [&mut self.left, &mut self.right] {
            if panel.contains(x, y) {
                panel.scroll -= (dy * f64::from(3 * h)) as i32;
                return;
            }
        }
        let _ = interact::move_camera(
            self.m,
            interact::mouse::ZOOM,
            0.0,
            -0.05 * dy,
            &self.scn,
            &mut self.cam,
        );
    }
}

impl Panel {
    fn row_height_hint(con: Option<&Context>) -> i32 {
        con.map_or(20, Panel::row_height)
    }
}

fn name_or(m: &Model, ty: i32, id: usize, what: &str) -> String {
    mjrs_core::name::id2name(m, ty, id)
        .filter(|n| !n.is_empty())
        .map_or_else(|| format!("{what} {id}"), str::to_string)
}
