//! The interactive viewer under a virtual X server (Xvfb): it opens a window, simulates on its
//! physics thread and draws N frames while a script of inputs (keys, the wheel, clicks at
//! rectangles computed from the UI's layout) changes the model's options, a control and the
//! run state through simulate's panels and shortcuts; it saves a screenshot of the last frame
//! and closes cleanly; without a display it says so. One test: a process can make only one
//! windowing event loop.

use mjrs_core::types::DSBL_GRAVITY;
use mjrs_core::{Data, Model};
use mjrs_gl::render::{FontMetrics, Rect};
use mjrs_gl::ui::simulate::{self, Settings};
use mjrs_gl::ui::{self, ItemType, Ui};
use mjrs_gl::viewer::{Button, Input};
use mjrs_gl::vis::{rnd, VisOption};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A virtual X server on a free display, killed when dropped.
struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Start Xvfb, returning it and its display name (":N").
fn xvfb() -> (Xvfb, String) {
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1024x768x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb is needed for the viewer test (Debian: apt-get install xvfb)");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let display = format!(":{}", line.trim());
    (Xvfb(child), display)
}

/// Window size of the scripted session.
const W: i32 = 720;
const H: i32 = 540;

/// The window pixel (origin top left) of a point of `r` (`at` of its width, half its
/// height), a rectangle of a UI shown at `left` in a window of height `H`, its top at the
/// window's top, scrolled by `scroll`.
fn window_point(u: &Ui, r: Rect, left: i32, scroll: i32, at: f64) -> (f64, f64) {
    let room = H - u.height + scroll;
    let x = f64::from(left + r.left) + at * f64::from(r.width);
    let y_up = f64::from(r.bottom + room) + f64::from(r.height) / 2.0;
    assert!(y_up > 0.0 && y_up < f64::from(H), "off screen: {r:?}");
    (x.round(), f64::from(H) - y_up.round())
}

/// The viewer's left panel after alt-P (physics open, the others closed) and its right panel
/// with the control section closed and open, laid out as the viewer lays them out (100 %
/// font).
fn panels(m: &Model, d: &Data) -> (Ui, Ui, Ui) {
    let con = FontMetrics::of_scale(100).unwrap();
    let vopt = VisOption::default();
    let settings = Settings::default();
    let mut left = Ui::new(ui::theme_spacing(0), ui::theme_color(0));
    left.add(&simulate::left_panel(
        m,
        &vopt,
        &rnd::DEFAULT,
        &settings,
        [1, 0, 0, 0],
    ))
    .unwrap();
    for s in &mut left.sect[..simulate::SECT_PHYSICS] {
        s.state = 0;
    }
    ui::resize(&mut left, &con);
    let right = |control| {
        let mut u = Ui::new(ui::theme_spacing(0), ui::theme_color(0));
        u.add(&simulate::right_panel(m, d, &vopt, [0, control]))
            .unwrap();
        ui::resize(&mut u, &con);
        u
    };
    (left, right(0), right(1))
}

/// A left click at (x, y), after a middle one there: clicks of the script can come within a
/// double click's 250 ms on a fast machine, and a double click on a title acts on all
/// sections; a press of another button in between makes the next press a single click.
fn click(script: &mut Vec<(u64, Input)>, frame: u64, (x, y): (f64, f64)) {
    script.push((frame, Input::Move(x, y)));
    script.push((frame, Input::Press(Button::Middle)));
    script.push((frame, Input::Release(Button::Middle)));
    script.push((frame, Input::Press(Button::Left)));
    script.push((frame, Input::Release(Button::Left)));
}

#[test]
fn viewer_runs_frames_under_xvfb_and_saves_a_screenshot() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/humanoid.xml");
    let mut owned = mjrs_xml::load_xml(&path, None).unwrap().model;
    let mut m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    let shot = std::env::temp_dir().join(format!("mjrs-viewer-{}.png", std::process::id()));
    // Reload compiles the file again into the model, as `mjrs view` does; the test counts the
    // calls and starts from a changed timestep that the reload must restore
    let reloads = Arc::new(AtomicUsize::new(0));
    let reload = {
        let (reloads, path) = (reloads.clone(), path.clone());
        mjrs_gl::viewer::Reload(Arc::new(move |m: &mut Model| {
            reloads.fetch_add(1, Ordering::SeqCst);
            let mut fresh = mjrs_xml::load_xml(&path, None).map_err(|e| e.to_string())?;
            let copied = m.copy_from(&fresh.model.view());
            copied.map_err(|_| "sizes changed".to_string())
        }))
    };
    let timestep = m.opt.timestep;
    let opts = |frames, script| mjrs_gl::viewer::Options {
        size: (W as u32, H as u32),
        frames: Some(frames),
        screenshot: Some(shot.clone()),
        any_thread: true,
        script,
        reload: Some(reload.clone()),
        ..Default::default()
    };

    // no display: a clear error, before any window is attempted
    std::env::remove_var("DISPLAY");
    std::env::remove_var("WAYLAND_DISPLAY");
    let err = mjrs_gl::viewer::run(&mut m, &mut d, opts(1, Vec::new())).unwrap_err();
    assert!(err.contains("no display"), "{err}");

    // the script: alt-P opens the physics section alone; the wheel scrolls it; a
    // click on its "Gravity" disable check box; a click on the right panel's "Control" title, then on the first control
    // slider at a quarter of its width; space pauses
    let (left, closed, right) = panels(&m, &d);
    let physics = &left.sect[simulate::SECT_PHYSICS];
    let gravity = physics
        .item
        .iter()
        .find(|it| it.name == "Gravity" && it.kind == ItemType::CheckInt)
        .unwrap();
    let control = &right.sect[simulate::SECT_CONTROL];
    let slider = &control.item[1];
    let right_left = W - right.width;
    let mut script = vec![];
    let alt = |on| Input::Modifiers {
        control: false,
        shift: false,
        alt: on,
    };
    let ctrl = |on| Input::Modifiers {
        control: on,
        shift: false,
        alt: false,
    };
    // ctrl+L is the Reload button's shortcut; then alt-P
    script.extend([
        (1, ctrl(true)),
        (1, Input::Key(i32::from(b'L'))),
        (1, ctrl(false)),
        (1, alt(true)),
        (1, Input::Key(i32::from(b'P'))),
        (1, alt(false)),
    ]);
    // the wheel scrolls the left panel to bring the check box to the middle
    let con = FontMetrics::of_scale(100).unwrap();
    let line = ui::scl(left.spacing.linescroll, &con);
    let lines = (left.height - gravity.rect.bottom - H / 2) / line;
    let scroll = (lines * line).min(left.height - H);
    assert!(lines > 0 && scroll > 0);
    let wheel = Input::Scroll(-f64::from(lines));
    script.extend([(2, Input::Move(50.0, 300.0)), (2, wheel)]);
    click(
        &mut script,
        2,
        window_point(&left, gravity.rect, 0, scroll, 0.5),
    );
    let title = closed.sect[simulate::SECT_CONTROL].rtitle;
    click(
        &mut script,
        3,
        window_point(&closed, title, right_left, 0, 0.5),
    );
    let at = window_point(&right, slider.rect, right_left, 0, 0.25);
    click(&mut script, 4, at);
    script.push((5, Input::Key(32)));

    let (_server, display) = xvfb();
    std::env::set_var("DISPLAY", &display);
    m.opt.timestep = 2.0 * timestep;
    let time0 = d.time;
    let started = std::time::Instant::now();
    let summary = mjrs_gl::viewer::run(&mut m, &mut d, opts(7, script)).unwrap();
    let wall = started.elapsed().as_secs_f64();
    eprintln!(
        "viewer session: {wall:.2} s, {:.3} s simulated",
        d.time - time0
    );
    assert_eq!(summary.frames, 7);
    assert!(summary.steps > 0 && d.time > time0, "{summary:?}");
    // real time: the simulation never runs ahead of the wall clock (by more than the 0.1 s
    // the physics tolerates before synchronizing again)
    assert!(
        d.time - time0 <= wall + 0.1,
        "{} s in {wall} s",
        d.time - time0
    );
    assert!(!summary.running, "space paused the simulation");
    assert_eq!(reloads.load(Ordering::SeqCst), 1, "ctrl+L reloads once");
    assert_eq!(m.opt.timestep, timestep, "the reloaded model's timestep");
    assert_ne!(
        m.opt.disableflags & DSBL_GRAVITY,
        0,
        "the gravity check box"
    );
    // the slider: its range at the nearest of its 200 divisions to the click
    let rx = (at.0 - f64::from(right_left + slider.rect.left)) / f64::from(slider.rect.width);
    let rx = (rx * 200.0).round() / 200.0;
    let [lo, hi] = slider.slider.range;
    let a = mjrs_core::name::name2id(&m, mjrs_core::types::OBJ_ACTUATOR, &slider.name).unwrap();
    assert_eq!(
        d.ctrl[a],
        lo * (1.0 - rx) + hi * rx,
        "control {}",
        slider.name
    );
    assert!(d.ctrl[a] < 0.0);

    let file = std::fs::File::open(&shot).unwrap();
    let mut reader = png::Decoder::new(BufReader::new(file)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (W as u32, H as u32));
    // panels at the sides, the scene (floor, humanoid) in the middle: many distinct colours
    let mut colours: Vec<&[u8]> = buf.chunks(3).collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 200, "{} colours", colours.len());
    std::fs::remove_file(&shot).unwrap();
}
