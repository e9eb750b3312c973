//! The interactive viewer under a virtual X server (Xvfb): it opens a window, simulates and
//! draws N frames, saves a screenshot of the last one and closes cleanly; without a display it
//! says so. One test: a process can make only one windowing event loop.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

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

#[test]
fn viewer_runs_frames_under_xvfb_and_saves_a_screenshot() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/humanoid.xml");
    let mut owned = mjrs_xml::load_xml(&path, None).unwrap().model;
    let mut m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    let shot = std::env::temp_dir().join(format!("mjrs-viewer-{}.png", std::process::id()));
    let opts = |frames| mjrs_gl::viewer::Options {
        size: (640, 480),
        frames: Some(frames),
        screenshot: Some(shot.clone()),
        any_thread: true,
        ..Default::default()
    };

    // no display: a clear error, before any window is attempted
    std::env::remove_var("DISPLAY");
    std::env::remove_var("WAYLAND_DISPLAY");
    let err = mjrs_gl::viewer::run(&mut m, &mut d, opts(1)).unwrap_err();
    assert!(err.contains("no display"), "{err}");

    let (_server, display) = xvfb();
    std::env::set_var("DISPLAY", &display);
    let time0 = d.time;
    let summary = mjrs_gl::viewer::run(&mut m, &mut d, opts(8)).unwrap();
    assert_eq!(summary.frames, 8);
    assert!(summary.steps > 0 && d.time > time0, "{summary:?}");
    let file = std::fs::File::open(&shot).unwrap();
    let mut reader = png::Decoder::new(BufReader::new(file)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (640, 480));
    // panels at the sides, the scene (floor, humanoid) in the middle: many distinct colours
    let mut colours: Vec<&[u8]> = buf.chunks(3).collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 200, "{} colours", colours.len());
    std::fs::remove_file(&shot).unwrap();
}
