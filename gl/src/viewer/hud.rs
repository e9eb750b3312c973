//! What the viewer draws over the scene: the info box (time, sizes, solver, step cost), the
//! help, the profiler (solver iterations, constraint counts, step time as figures, like
//! `simulate`'s), the sensor bar plot, and the last message.

use crate::render::{self, Context, Font, GridPos, Rect};
use crate::sys::Gl;
use crate::vis::Figure;
use mjrs_core::{Data, Model};
use std::collections::VecDeque;
use std::time::Duration;

/// Steps kept for the profiler's plots.
const HISTORY: usize = 200;

const HELP: (&str, &str) = (
    "Space\nRight arrow\nBackspace\n- =\n[ ]\nEscape\nCtrl A\nTab, Shift Tab\nF1 F2 F3 F4\n\
     Left drag\nRight drag\nWheel, middle drag\nDouble-click left\nDouble-click right\n\
     Ctrl double-click right\nCtrl left drag\nCtrl right drag\n0-5\nCtrl Q",
    "Pause\nStep\nReset\nSlower, faster\nCameras\nFree camera\nAlign camera\nPanels\n\
     Help, info, profiler, sensors\nRotate (shift: other axis)\nMove (shift: horizontal)\nZoom\n\
     Select body\nLook at point\nTrack body\nRotate body\nPull body\nGeom groups\nQuit",
);

/// A named line of the profiler and how to read it from a sample.
type Series = (&'static str, fn(&Sample) -> f32);

/// One step's numbers for the profiler.
#[derive(Clone, Copy, Debug, Default)]
struct Sample {
    iterations: f32,
    ncon: f32,
    nefc: f32,
    millis: f32,
}

/// The overlays' switches and the profiler's history.
#[derive(Default)]
pub struct Hud {
    pub help: bool,
    pub info: bool,
    pub profiler: bool,
    pub sensor: bool,
    pub message: String,
    history: VecDeque<Sample>,
    step_time: Duration,
    steps: u64,
}

impl Hud {
    /// Forget the history (after a reset).
    pub fn clear(&mut self) {
        self.history.clear();
    }

    /// Note the cost and results of one step.
    pub fn record_step(&mut self, d: &Data, elapsed: Duration) {
        self.step_time = elapsed;
        self.steps += 1;
        let iterations = d
            .solver_niter
            .iter()
            .take(d.solver_nisland.max(1))
            .copied()
            .max()
            .unwrap_or(0);
        self.history.push_back(Sample {
            iterations: iterations as f32,
            ncon: d.ncon as f32,
            nefc: d.nefc as f32,
            millis: elapsed.as_secs_f32() * 1000.0,
        });
        if self.history.len() > HISTORY {
            self.history.pop_front();
        }
    }

    /// Draw the enabled overlays over the scene's viewport.
    pub fn draw(&self, gl: &Gl, con: &Context, scene: Rect, m: &Model, d: &Data, clock: &str) {
        if scene.width <= 0 || scene.height <= 0 {
            return;
        }
        if self.help {
            render::overlay(
                gl,
                con,
                Font::Normal,
                GridPos::TopLeft,
                scene,
                HELP.0,
                HELP.1,
            );
        }
        if self.info {
            let names = "Time\nSize\nStep\nSolver\nState";
            let iter = d.solver_niter.first().copied().unwrap_or(0);
            let values = format!(
                "{:.3} s\nnv {}  ncon {}  nefc {}\n{:.3} ms\n{} iterations\n{clock}",
                d.time,
                m.nv,
                d.ncon,
                d.nefc,
                self.step_time.as_secs_f64() * 1000.0,
                iter
            );
            render::overlay(
                gl,
                con,
                Font::Normal,
                GridPos::BottomLeft,
                scene,
                names,
                &values,
            );
        }
        if self.profiler {
            self.profiler(gl, con, scene);
        }
        if self.sensor && m.nsensordata > 0 {
            sensors(gl, con, scene, m, d);
        }
        if !self.message.is_empty() {
            render::overlay(
                gl,
                con,
                Font::Normal,
                GridPos::BottomRight,
                scene,
                &self.message,
                "",
            );
        }
    }

    /// Three stacked figures at the right of the scene: solver iterations, constraint counts
    /// and step time, over the last steps.
    fn profiler(&self, gl: &Gl, con: &Context, scene: Rect) {
        let w = scene.width / 3;
        let h = scene.height / 3;
        let series: [(&str, Vec<Series>); 3] = [
            ("Solver", vec![("iterations", |s| s.iterations)]),
            (
                "Dimensions",
                vec![("contacts", |s| s.ncon), ("constraints", |s| s.nefc)],
            ),
            ("CPU time (ms/step)", vec![("step", |s| s.millis)]),
        ];
        let first = self.steps.saturating_sub(self.history.len() as u64);
        for (k, (title, lines)) in series.iter().enumerate() {
            let mut fig = Figure {
                title: (*title).into(),
                flg_legend: true,
                figurergba: [0.0, 0.0, 0.0, 0.6],
                panergba: [0.1, 0.1, 0.1, 0.6],
                xformat: "%.0f".into(),
                range: [[0.0, 0.0], [0.0, 1.0]],
                gridsize: [3, 3],
                ..Figure::default()
            };
            for (n, (name, value)) in lines.iter().enumerate() {
                fig.linename[n] = (*name).into();
                fig.linedata[n] = self
                    .history
                    .iter()
                    .enumerate()
                    .map(|(i, s)| [(first + i as u64) as f32, value(s)])
                    .collect();
            }
            let vp = Rect {
                left: scene.left + scene.width - w,
                bottom: scene.bottom + scene.height - (k as i32 + 1) * h,
                width: w,
                height: h,
            };
            render::figure(gl, con, vp, &mut fig);
        }
    }
}

/// Sensor readings as bars, each scaled by its cutoff (or the largest reading).
fn sensors(gl: &Gl, con: &Context, scene: Rect, m: &Model, d: &Data) {
    let n = m.nsensordata;
    let largest = d.sensordata[..n]
        .iter()
        .fold(0.0f64, |a, &v| a.max(v.abs()))
        .max(1e-9);
    let mut fig = Figure {
        title: "Sensor data".into(),
        flg_barplot: true,
        flg_symmetric: true,
        flg_ticklabel: [false, true],
        figurergba: [0.0, 0.0, 0.0, 0.6],
        panergba: [0.1, 0.1, 0.1, 0.6],
        range: [[0.0, n as f32], [-1.0, 1.0]],
        flg_extend: false,
        ..Figure::default()
    };
    for s in 0..m.nsensor {
        let adr = m.sensor_adr[s] as usize;
        let dim = m.sensor_dim[s] as usize;
        let cutoff = m.sensor_cutoff[s];
        let scale = if cutoff > 0.0 { cutoff } else { largest };
        let line = s % 2;
        for k in adr..adr + dim {
            let v = (d.sensordata[k] / scale) as f32;
            fig.linedata[line].extend([[k as f32 + 0.5, 0.0], [k as f32 + 0.5, v]]);
        }
    }
    let vp = Rect {
        left: scene.left + scene.width / 3,
        bottom: scene.bottom,
        width: scene.width / 3,
        height: scene.height / 4,
    };
    render::figure(gl, con, vp, &mut fig);
}
