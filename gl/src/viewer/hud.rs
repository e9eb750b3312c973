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

/// simulate's help: the keys, then what they do.
const HELP: (&str, &str) = (
    "Space\n+  -\nLeft / Right arrow\nTab / Shift-Tab\n[  ]\nEsc\nDouble-click\nPage Up\n\
     Right double-click\nCtrl Right double-click\nScroll, middle drag\nLeft drag\n\
     [Shift] right drag\nCtrl [Shift] drag\nCtrl [Shift] right drag\nF1\nF2\nF3\nF4\nF5\n\
     UI right-button hold\nUI title double-click",
    "Play / Pause\nSpeed Up / Down\nStep Back / Forward\nToggle Left / Right UI\n\
     Cycle cameras\nFree camera\nSelect\nSelect parent\nCenter camera\nTracking camera\n\
     Zoom\nView Orbit\nView Pan\nObject Rotate\nObject Translate\nHelp\nInfo\nProfiler\n\
     Sensors\nFull screen\nShow UI shortcuts\nExpand/collapse all",
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

/// Which overlays are on (simulate's option section).
#[derive(Clone, Copy, Debug, Default)]
pub struct Shown {
    pub help: bool,
    pub info: bool,
    pub profiler: bool,
    pub sensor: bool,
}

/// What the info overlay shows besides the data.
pub struct InfoExtra {
    pub fps: f64,
    /// Wall time of the last step.
    pub step_time: Duration,
}

/// The last message and the profiler's history.
#[derive(Default)]
pub struct Hud {
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
    #[allow(clippy::too_many_arguments)] // the overlays need all of it
    pub fn draw(
        &self,
        gl: &Gl,
        con: &Context,
        scene: Rect,
        m: &Model,
        d: &Data,
        shown: Shown,
        extra: &InfoExtra,
    ) {
        if scene.width <= 0 || scene.height <= 0 {
            return;
        }
        let (top, bottom) = (GridPos::TopLeft, GridPos::BottomLeft);
        if shown.help {
            render::overlay(gl, con, Font::Normal, top, scene, HELP.1, HELP.0);
        }
        if shown.info {
            let (title, content) = info_text(m, d, extra);
            render::overlay(gl, con, Font::Normal, bottom, scene, &title, &content);
        }
        if shown.profiler {
            self.profiler(gl, con, scene);
        }
        if shown.sensor && m.nsensordata > 0 {
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

/// simulate's info overlay (`UpdateInfoText`): time, constraints, CPU time of a step,
/// solver error (log 10) and iterations, frames per second, arena use; energy, the
/// forward-inverse comparison and islands when enabled.
fn info_text(m: &Model, d: &Data, extra: &InfoExtra) -> (String, String) {
    use mjrs_core::types::{ENBL_ENERGY, ENBL_FWDINV, ENBL_ISLAND, NISLAND};
    let nisland = d.solver_nisland.min(NISLAND);
    let mut solerr: f64 = 0.0;
    for i in 0..nisland {
        let n = d.solver_niter[i] as usize;
        if n == 0 {
            continue;
        }
        let stat = &d.solver[i * mjrs_core::types::NSOLVER + n.min(mjrs_core::types::NSOLVER) - 1];
        let mut e = stat.improvement.min(stat.gradient);
        if e == 0.0 {
            e = stat.improvement.max(stat.gradient);
        }
        solerr = solerr.max(e);
    }
    let solerr = solerr.max(mjrs_core::real::MINVAL).log10();
    let niter: i32 = d.solver_niter[..nisland].iter().sum();
    let fps = if extra.fps < 1.0 {
        format!("{:.1} ", extra.fps)
    } else {
        format!("{:.0} ", extra.fps)
    };
    let arena = d.arena.state.maxuse_arena as f64 / (m.narena.max(1)) as f64;
    let mut title = String::from("Time\nSize\nCPU\nSolver   \nFPS\nMemory");
    let mut content = format!(
        "{:<9.3}\n{}  ({} con)\n{:.3}\n{:.1}  ({} it)\n{fps}\n{} of {}",
        d.time,
        d.nefc,
        d.ncon,
        extra.step_time.as_secs_f64() * 1000.0,
        solerr,
        niter,
        super::panels::printf("%.2g", arena),
        num_bytes(m.narena)
    );
    let enabled = |f: i32| m.opt.enableflags & f != 0;
    if enabled(ENBL_ENERGY) {
        title.push_str("\nEnergy");
        content.push_str(&format!("\n{:.3}", d.energy[0] + d.energy[1]));
    }
    if enabled(ENBL_FWDINV) {
        let l = |x: f64| x.max(mjrs_core::real::MINVAL).log10();
        title.push_str("\nFwdInv");
        content.push_str(&format!(
            "\n{:.1} {:.1}",
            l(d.solver_fwdinv[0]),
            l(d.solver_fwdinv[1])
        ));
    }
    if enabled(ENBL_ISLAND) {
        title.push_str("\nIslands");
        content.push_str(&format!("\n{}", d.nisland));
    }
    (title, content)
}

/// A byte count with the largest binary unit that divides it (`mju_writeNumBytes`).
fn num_bytes(n: usize) -> String {
    const UNITS: [(u32, &str); 6] = [
        (60, "E"),
        (50, "P"),
        (40, "T"),
        (30, "G"),
        (20, "M"),
        (10, "K"),
    ];
    let n = n as u64;
    for (shift, suffix) in UNITS {
        let unit = 1u64 << shift;
        if n >= unit && n.is_multiple_of(unit) {
            return format!("{}{suffix}", n >> shift);
        }
    }
    n.to_string()
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
