//! The firmware's control task on the host: the same f32 blob, the same controller crate, the
//! same `libm` math, so every state must have the same bits as on the device.
//!
//! ```text
//! mjrs-firmware-host               run the task, print the log lines the device prints
//! mjrs-firmware-host compare LOG   run the task and compare its states with the device's log
//!                                  (defmt-print --log-format "{s}" output); exit 1 on any difference
//! mjrs-firmware-host pid [compare LOG]
//!                                  the same for the PID task (the `pid` firmware build)
//! mjrs-firmware-host distance DIR [BOUNDS]
//!                                  for every MJB in DIR: distance between the device's path (f32,
//!                                  libm, no std) and the desktop's bit-exact path (f64, the
//!                                  platform's math) over 1000 steps; exit 1 if one exceeds its
//!                                  bound in the BOUNDS file (lines `NAME BOUND`)
//! ```

use mjrs_firmware_control as task;
use std::process::ExitCode;

/// One state line in the device's format (`x TAG STEP BITS...`, hex without padding).
fn line(tag: &str, s: &task::Sample) -> String {
    let bits: Vec<String> = s.bits.iter().map(|b| format!("{b:x}")).collect();
    format!("x {tag} {} {}", s.step, bits.join(" "))
}

/// Runs the task; returns the state lines and a summary.
fn run() -> Result<(Vec<String>, String), task::Error> {
    let mut arena = vec![0u8; 1 << 20];
    let (m, mut d, fp) = task::load(&task::BLOB.0, &mut arena)?;
    let (k, iterations) = task::lqr_gains(&m, &mut d)?;
    let mut lines = Vec::new();
    let zero = task::episode(&m, &mut d, None, |s| lines.push(line("zero", s)))?;
    let lqr = task::episode(&m, &mut d, Some(&k), |s| lines.push(line("lqr", s)))?;
    let summary = format!(
        "host: Model {} B, Data {} B; K = {k:?} after {iterations} Riccati iterations\n\
         zero control: {zero:?}\nLQR: {lqr:?}\ntask: {}",
        fp.model_bytes,
        fp.data_bytes,
        if lqr.balanced && zero.fallen {
            "success"
        } else {
            "FAILED"
        }
    );
    Ok((lines, summary))
}

/// Runs the PID task (MuJoCo's PID plugin on the arm); returns the state lines and a summary.
fn run_pid() -> Result<(Vec<String>, String), task::Error> {
    task::pid::register();
    let mut arena = vec![0u8; 1 << 20];
    let (m, mut d, fp) = task::load(&task::pid::PID_BLOB.0, &mut arena)?;
    let mut lines = Vec::new();
    let tracking = task::pid::episode(&m, &mut d, |s| lines.push(line("pid", s)))?;
    let summary = format!(
        "host: Model {} B, Data {} B\nPID: {tracking:?}\ntask: {}",
        fp.model_bytes,
        fp.data_bytes,
        if tracking.tracked {
            "success"
        } else {
            "FAILED"
        }
    );
    Ok((lines, summary))
}

/// Compares the host's state lines with the `x` lines of a device log.
fn compare(host: &[String], log: &str) -> Result<usize, String> {
    let device: Vec<&str> = log.lines().filter(|l| l.starts_with("x ")).collect();
    for (i, (h, d)) in host.iter().zip(&device).enumerate() {
        if h != d {
            return Err(format!(
                "state {} differs:\n  host   {h}\n  device {d}",
                i + 1
            ));
        }
    }
    if host.len() != device.len() {
        return Err(format!(
            "the host logged {} states, the device {}",
            host.len(),
            device.len()
        ));
    }
    Ok(host.len())
}

/// Steps of the distance runs.
const DISTANCE_STEPS: usize = 1000;

/// Steps of the short distance column.
const SHORT_STEPS: usize = 100;

/// Largest distance between the f32 device path and the f64 desktop path over the first
/// [`SHORT_STEPS`] and over all [`DISTANCE_STEPS`] steps with zero controls: per step the
/// largest `|q32 - q64| / (1 + |q64|)` over `qpos`; `None` when a value is not finite.
fn distance(blob: &[u8]) -> Result<Option<(f64, f64)>, String> {
    use mjrs_core as c64;
    use task::mj as c32;
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let h64 = c64::mjb::read_header(blob).map_err(|e| err(&e))?;
    let mut mbuf64 = vec![0u8; h64.model_bytes().map_err(|e| err(&e))?];
    let m64 = c64::mjb::load(blob, &mut mbuf64).map_err(|e| err(&e))?;
    let mut dbuf64 = vec![0u8; c64::Data::bytes_needed(m64.sizes()).map_err(|e| err(&e))?];
    let mut d64 = c64::Data::new(&m64, &mut dbuf64).map_err(|e| err(&e))?;

    let mut blob32 = vec![0u8; c64::mjb::save_size(&m64, 4)];
    let n = c64::mjb::save(&m64, &mut blob32, 4).map_err(|e| err(&e))?;
    let mut arena = vec![0u8; 64 << 20];
    let (m32, mut d32, _) = task::load(&blob32[..n], &mut arena).map_err(|e| format!("{e:?}"))?;

    let (mut worst, mut short): (f64, f64) = (0.0, 0.0);
    for step in 0..DISTANCE_STEPS {
        if step == SHORT_STEPS {
            short = worst;
        }
        c64::step(&m64, &mut d64).map_err(|e| err(&e))?;
        c32::step(&m32, &mut d32).map_err(|e| err(&e))?;
        for (a, b) in d32.qpos.iter().zip(d64.qpos.iter()) {
            let gap = (f64::from(*a) - b).abs() / (1.0 + b.abs());
            if !gap.is_finite() {
                return Ok(None);
            }
            worst = worst.max(gap);
        }
    }
    Ok(Some((short, worst)))
}

/// `distance DIR [BOUNDS]`: the table, and the check against the bounds.
fn distances(dir: &str, bounds: Option<&str>) -> Result<bool, String> {
    let bounds: Vec<(String, f64)> = match bounds {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {path}: {e}"))?
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| {
                let mut it = l.split_whitespace();
                let name = it.next().unwrap_or_default().to_string();
                let bound = it.next().and_then(|b| b.parse().ok()).unwrap_or(f64::NAN);
                (name, bound)
            })
            .collect(),
        None => Vec::new(),
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {dir}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mjb"))
        .collect();
    files.sort();
    let mut ok = true;
    println!("model                     {SHORT_STEPS:>5} steps {DISTANCE_STEPS:>5} steps   bound");
    for path in files {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let blob = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let d = distance(&blob).map_err(|e| format!("{name}: {e}"))?;
        let bound = bounds.iter().find(|(n, _)| *n == name).map(|b| b.1);
        let within = match (d, bound) {
            (Some((_, d)), Some(b)) => d <= b,
            (_, None) => bounds.is_empty(),
            (None, Some(_)) => false,
        };
        ok &= within;
        let shown = d.map_or("not finite".to_string(), |(s, d)| {
            format!("{s:>11.3e} {d:>11.3e}")
        });
        let limit = bound.map_or("-".to_string(), |b| format!("{b:.0e}"));
        let verdict = if within { "" } else { "  EXCEEDED" };
        println!("{name:<24} {shown:>23}   {limit}{verdict}");
    }
    Ok(ok)
}

/// `footprint BLOB`: what an f32 blob needs: Model and Data bytes, and the peak of the Data's
/// arena over 1000 zero-control steps and one `transition_fd` (the smallest `<size memory>`).
fn footprint(path: &str) -> Result<(), String> {
    let blob = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut arena = vec![0u8; 256 << 20];
    let (m, mut d, fp) = task::load(&blob, &mut arena).map_err(|e| format!("{e:?}"))?;
    for _ in 0..DISTANCE_STEPS {
        task::mj::step(&m, &mut d).map_err(|e| e.to_string())?;
    }
    let nx = 2 * m.nv + m.na;
    let (mut a, mut b) = (vec![0.0; nx * nx], vec![0.0; nx * m.nu]);
    task::mj::transition_fd(
        &m,
        &mut d,
        task::FD_EPS,
        false,
        Some(&mut a),
        Some(&mut b),
        None,
        None,
    )
    .map_err(|e| format!("{e:?}"))?;
    let peak = d.arena.state.maxuse_arena;
    println!(
        "{path}: Model {} B, Data {} B with its arena of {} B; arena peak {peak} B, so Data {} B with memory = peak",
        fp.model_bytes,
        fp.data_bytes,
        m.narena,
        fp.data_bytes - m.narena + peak
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [cmd, path] = args.as_slice() {
        if cmd == "footprint" {
            return match footprint(path) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("footprint: {e}");
                    ExitCode::FAILURE
                }
            };
        }
    }
    if args.first().is_some_and(|a| a == "distance") {
        return match distances(
            args.get(1).map_or("../tests/fixtures/mjb", |s| s.as_str()),
            args.get(2).map(|s| s.as_str()),
        ) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("distance: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let pid = args.first().is_some_and(|a| a == "pid");
    if pid {
        args.remove(0);
    }
    let (lines, summary) = match if pid { run_pid() } else { run() } {
        Ok(r) => r,
        Err(e) => {
            eprintln!("host: error code {}: {e:?}", e.code());
            return ExitCode::FAILURE;
        }
    };
    match args.as_slice() {
        [] => {
            for l in &lines {
                println!("{l}");
            }
            println!("{summary}");
            ExitCode::SUCCESS
        }
        [cmd, path] if cmd == "compare" => {
            let log = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("cannot read {path}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            match compare(&lines, &log) {
                Ok(n) => {
                    println!("trajectories: {n} states, device and host bit-identical");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    println!("trajectories: NOT bit-identical: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!(
                "usage: mjrs-firmware-host [pid] [compare DEVICE_LOG] | distance DIR [BOUNDS] | footprint BLOB"
            );
            ExitCode::FAILURE
        }
    }
}
