//! The firmware's control task on the host: the same f32 blob, the same controller crate, the
//! same `libm` math, so every state must have the same bits as on the device.
//!
//! ```text
//! mjrs-firmware-host [lqr]         run the LQR task, print the log lines the device prints
//! mjrs-firmware-host [lqr] compare LOG
//!                                  run the task and compare its states with the device's log
//!                                  (defmt-print --log-format "{s}" output); exit 1 on any difference
//! mjrs-firmware-host pid [compare LOG]
//!                                  the same for the PID task (the `pid` firmware build)
//! mjrs-firmware-host mpc [compare LOG]
//!                                  the same for the MPC tasks (the `mpc` firmware build)
//! mjrs-firmware-host hopper[-long] [compare LOG]
//!                                  the same for the hopper tasks (the `hopper` firmware build;
//!                                  `-long` with the `long` feature: longer episodes)
//! mjrs-firmware-host mpc-check     the MPC's bad inputs: settings that do not fit the scratch or
//!                                  the step budget, a NaN cost, a planning model of another shape,
//!                                  each refused with an error code and zero control, no panic
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

/// Runs the MPC tasks (swing-up, push) on the plant with masses 10% off; returns the state
/// lines and a summary.
fn run_mpc() -> Result<(Vec<String>, String), task::Error> {
    use task::cartpole;
    let (mut plant_arena, mut plan_arena) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    let (pm, mut pd, _) = task::load(&cartpole::PLANT_BLOB.0, &mut plant_arena)?;
    let (mm, mut md, _) = task::load(&cartpole::PLAN_BLOB.0, &mut plan_arena)?;
    let mut scratch = [0.0; cartpole::SCRATCH];
    let mut planner = cartpole::planner(&mut scratch)?;
    let mut lines = Vec::new();
    let mut summary = String::new();
    let mut success = true;
    for t in [cartpole::Task::SwingUp, cartpole::Task::Push] {
        let o = cartpole::episode(
            t,
            &pm,
            &mut pd,
            &mm,
            &mut md,
            &mut planner,
            &cartpole::COST,
            || 0,
            |s| lines.push(line(t.tag(), s)),
        )?;
        success &= o.success;
        summary += &format!("{}: {o:?}\n", t.tag());
    }
    summary += if success {
        "task: success"
    } else {
        "task: FAILED"
    };
    Ok((lines, summary))
}

/// Runs the hopper tasks (stand, hop; short or `long`) on the plant with masses 10% off;
/// returns the state lines and a summary.
fn run_hopper(long: bool) -> Result<(Vec<String>, String), task::Error> {
    use task::hopper;
    let (mut plant_arena, mut plan_arena) = (vec![0u8; 1 << 17], vec![0u8; 1 << 17]);
    let (pm, mut pd, _) = task::load(&hopper::PLANT_BLOB.0, &mut plant_arena)?;
    let (mm, mut md, _) = task::load(&hopper::PLAN_BLOB.0, &mut plan_arena)?;
    let mut scratch = vec![0.0; hopper::SCRATCH];
    let mut planner = hopper::planner(&mut scratch)?;
    let mut lines = Vec::new();
    let mut summary = String::new();
    let mut success = true;
    for t in [hopper::Task::Stand, hopper::Task::Hop] {
        let o = hopper::episode(
            t,
            long,
            &pm,
            &mut pd,
            &mm,
            &mut md,
            &mut planner,
            t.cost(),
            || 0,
            |s| lines.push(line(t.tag(), s)),
        )?;
        success &= o.success;
        summary += &format!("{}: {o:?}\n", t.tag());
    }
    summary += if success {
        "task: success"
    } else {
        "task: FAILED"
    };
    Ok((lines, summary))
}

/// `mpc-check`: every bad input of the planner gives its error, a safe control and no panic.
fn mpc_check() -> Result<(), String> {
    use task::cartpole::{self, NU, NX, SCRATCH};
    use task::mpc::{MpcError, Planner, Settings, State, NU_MAX, NX_MAX};
    let fail = |e: &dyn std::fmt::Debug| format!("{e:?}");
    let mut arena = vec![0u8; 1 << 16];
    let (mm, mut md, _) = task::load(&cartpole::PLAN_BLOB.0, &mut arena).map_err(|e| fail(&e))?;
    let s = cartpole::SETTINGS;
    let mut checks: Vec<(&str, Result<(), MpcError>, MpcError)> = Vec::new();
    let mut small = vec![0.0; SCRATCH - 1];
    checks.push((
        "scratch one real short",
        Planner::new(s, NX, NU, &mut small).map(|_| ()),
        MpcError::Scratch {
            needed: SCRATCH,
            available: SCRATCH - 1,
        },
    ));
    let mut scratch = vec![0.0; 4 * SCRATCH];
    let long = Settings { horizon: 12, ..s };
    checks.push((
        "horizon over the step budget",
        Planner::new(long, NX, NU, &mut scratch).map(|_| ()),
        MpcError::Budget {
            needed: long.steps_per_update(),
            budget: cartpole::STEP_BUDGET,
        },
    ));
    let searching = Settings {
        line_search: 3,
        ..s
    };
    checks.push((
        "line search over the step budget",
        Planner::new(searching, NX, NU, &mut scratch).map(|_| ()),
        MpcError::Budget {
            needed: searching.steps_per_update(),
            budget: cartpole::STEP_BUDGET,
        },
    ));
    for (what, bad) in [
        ("no horizon", Settings { horizon: 0, ..s }),
        (
            "no forward pass",
            Settings {
                line_search: 0,
                ..s
            },
        ),
        (
            "NaN regularization",
            Settings {
                regularization: f32::NAN,
                ..s
            },
        ),
        ("zero finite-difference step", Settings { fd_eps: 0.0, ..s }),
    ] {
        checks.push((
            what,
            Planner::new(bad, NX, NU, &mut scratch).map(|_| ()),
            MpcError::Settings,
        ));
    }
    checks.push((
        "a state of 14 dimensions",
        Planner::new(s, NX_MAX + 2, NU, &mut scratch).map(|_| ()),
        MpcError::Shape,
    ));
    checks.push((
        "5 controls",
        Planner::new(s, NX, NU_MAX + 1, &mut scratch).map(|_| ()),
        MpcError::Shape,
    ));
    let (qpos, qvel) = ([0.0, 0.0], [0.0, 0.0]);
    let x = State {
        time: 0.0,
        qpos: &qpos,
        qvel: &qvel,
    };
    let mut nan_cost = cartpole::COST;
    nan_cost.q[1] = f32::NAN;
    let mut planner = Planner::new(s, NX, NU, &mut scratch).map_err(|e| fail(&e))?;
    let mut u = [1.0];
    let nan = planner.update(&mm, &mut md, &x, &nan_cost, &mut u);
    let untouched = u == [1.0];
    checks.push(("NaN cost", nan, MpcError::NotFinite));
    let three = [0.0; 3];
    let wrong = State {
        time: 0.0,
        qpos: &three,
        qvel: &qvel,
    };
    checks.push((
        "state of another model",
        planner.update(&mm, &mut md, &wrong, &cartpole::COST, &mut u),
        MpcError::Shape,
    ));
    // a cost that is zero everywhere leaves nothing to descend: the previous plan (zero
    // controls) is kept and its control written
    let mut fresh = vec![0.0; SCRATCH];
    let mut flat = Planner::new(s, NX, NU, &mut fresh).map_err(|e| fail(&e))?;
    let zero_cost = task::mpc::Cost {
        q: [0.0; NX_MAX],
        r: [0.0; NU_MAX],
        qf: [0.0; NX_MAX],
        ..cartpole::COST
    };
    let mut uz = [1.0];
    let nd = flat.update(&mm, &mut md, &x, &zero_cost, &mut uz);
    let kept = uz == [0.0];
    checks.push(("a cost that is zero everywhere", nd, MpcError::NoDescent));
    let mut ok = untouched && kept;
    if !untouched {
        println!("mpc-check: FAILED: a failed update wrote a control");
    }
    if !kept {
        println!("mpc-check: FAILED: no descent did not keep the previous plan's control");
    }
    for (what, got, want) in checks {
        let pass = got == Err(want);
        ok &= pass;
        let code = got.err().map_or(0, |e| e.code());
        println!(
            "mpc-check: {what}: {got:?} (error code {code}){}",
            if pass { "" } else { "  UNEXPECTED" }
        );
    }
    // the closed loop's fallback: with a NaN cost every update fails, the plant gets zero
    // control and the episode runs to its end; a planning model of another shape is refused
    let mut parena = vec![0u8; 1 << 16];
    let (pm, mut pd, _) = task::load(&cartpole::PLANT_BLOB.0, &mut parena).map_err(|e| fail(&e))?;
    let mut tiny = vec![0.0; SCRATCH];
    let mut planner = Planner::new(s, NX, NU, &mut tiny).map_err(|e| fail(&e))?;
    let mut zero = true;
    let push = cartpole::Task::Push;
    let o = cartpole::episode(
        push,
        &pm,
        &mut pd,
        &mm,
        &mut md,
        &mut planner,
        &nan_cost,
        || 0,
        |x| {
            zero &= x.bits[5] == 0 && x.bits[7] == 6.0f32.to_bits();
        },
    )
    .map_err(|e| fail(&e))?;
    let fell_back = zero
        && o.updates.fallbacks == push.updates()
        && o.updates.first_error == Some(MpcError::NotFinite);
    println!(
        "mpc-check: NaN cost in closed loop: {} of {} updates fell back to zero control (error code 6){}",
        o.updates.fallbacks,
        push.updates(),
        if fell_back { "" } else { "  UNEXPECTED" }
    );
    ok &= fell_back;
    let mut other = vec![0u8; 1 << 16];
    let (dm, mut dd, _) = task::load(&task::BLOB.0, &mut other).map_err(|e| fail(&e))?;
    let shape = cartpole::episode(
        push,
        &pm,
        &mut pd,
        &dm,
        &mut dd,
        &mut planner,
        &cartpole::COST,
        || 0,
        |_| {},
    );
    let refused = matches!(shape, Err(task::Error::Shape));
    println!(
        "mpc-check: the double pendulum as planning model: {:?} (error code 3){}",
        shape.err(),
        if refused { "" } else { "  UNEXPECTED" }
    );
    ok &= refused;
    ok &= hopper_check()?;
    if ok {
        Ok(())
    } else {
        Err("a bad input was not refused as expected".into())
    }
}

/// The hopper's bad inputs (three controls): a horizon that does not fit the scratch sized for
/// the task's, a horizon over the step budget, a singular `Q_uu`, a state of another model,
/// and a NaN cost in closed loop, which falls back to zero torques to the episode's end.
fn hopper_check() -> Result<bool, String> {
    use task::hopper::{self, NU, NX, SCRATCH, SETTINGS};
    use task::mpc::{MpcError, Planner, Settings, State, Wave, NU_MAX, NX_MAX};
    let fail = |e: &dyn std::fmt::Debug| format!("{e:?}");
    let (mut parena, mut marena) = (vec![0u8; 1 << 17], vec![0u8; 1 << 17]);
    let (pm, mut pd, _) = task::load(&hopper::PLANT_BLOB.0, &mut parena).map_err(|e| fail(&e))?;
    let (mm, mut md, _) = task::load(&hopper::PLAN_BLOB.0, &mut marena).map_err(|e| fail(&e))?;
    let mut scratch = vec![0.0; SCRATCH];
    let mut checks: Vec<(&str, Result<(), MpcError>, MpcError)> = Vec::new();
    let longer = Settings {
        horizon: 30,
        step_budget: 30 * (SETTINGS.line_search + 1 + SETTINGS.fd_steps),
        ..SETTINGS
    };
    checks.push((
        "hopper: a 30-knot horizon in the 20-knot scratch",
        Planner::new(longer, NX, NU, &mut scratch).map(|_| ()),
        MpcError::Scratch {
            needed: longer.scratch_needed(NX, NU),
            available: SCRATCH,
        },
    ));
    let over = Settings {
        horizon: 21,
        ..SETTINGS
    };
    checks.push((
        "hopper: a 21-knot horizon over the step budget",
        Planner::new(over, NX, NU, &mut scratch).map(|_| ()),
        MpcError::Budget {
            needed: over.steps_per_update(),
            budget: hopper::STEP_BUDGET,
        },
    ));
    let (qpos, qvel) = ([0.0; 6], [0.0; 6]);
    let mut qpos_up = qpos;
    qpos_up[1] = hopper::STAND_HEIGHT;
    let x = State {
        time: 0.0,
        qpos: &qpos_up,
        qvel: &qvel,
    };
    let flat = task::mpc::Cost {
        target: [0.0; NX_MAX],
        q: [0.0; NX_MAX],
        r: [0.0; NU_MAX],
        qf: [0.0; NX_MAX],
        wave: Wave::NONE,
    };
    let unregularized = Settings {
        regularization: 0.0,
        ..SETTINGS
    };
    let mut planner = Planner::new(unregularized, NX, NU, &mut scratch).map_err(|e| fail(&e))?;
    let mut u = [1.0; NU];
    checks.push((
        "hopper: a zero cost without regularization (Q_uu singular)",
        planner.update(&mm, &mut md, &x, &flat, &mut u),
        MpcError::NotFinite,
    ));
    let untouched = u == [1.0; NU];
    let two = [0.0; 2];
    let wrong = State {
        time: 0.0,
        qpos: &two,
        qvel: &two,
    };
    checks.push((
        "hopper: the cart-pole's state",
        planner.update(&mm, &mut md, &wrong, &hopper::STAND_COST, &mut u),
        MpcError::Shape,
    ));
    let mut ok = untouched;
    if !untouched {
        println!("mpc-check: FAILED: a failed hopper update wrote a control");
    }
    for (what, got, want) in checks {
        let pass = got == Err(want);
        ok &= pass;
        let code = got.err().map_or(0, |e| e.code());
        println!(
            "mpc-check: {what}: {got:?} (error code {code}){}",
            if pass { "" } else { "  UNEXPECTED" }
        );
    }
    let mut nan_cost = hopper::STAND_COST;
    nan_cost.q[1] = f32::NAN;
    let mut planner = hopper::planner(&mut scratch).map_err(|e| fail(&e))?;
    let stand = hopper::Task::Stand;
    let mut zero = true;
    let mut line = 0;
    let o = hopper::episode(
        stand,
        false,
        &pm,
        &mut pd,
        &mm,
        &mut md,
        &mut planner,
        &nan_cost,
        || 0,
        |x| {
            // the second line holds ctrl[0..2], the third ctrl[2] and the error code
            match line % 3 {
                1 => zero &= x.bits[6] == 0 && x.bits[7] == 0,
                2 => zero &= x.bits[0] == 0 && x.bits[1] == 6.0f32.to_bits(),
                _ => {}
            }
            line += 1;
        },
    )
    .map_err(|e| fail(&e))?;
    let fell_back = zero
        && o.updates.fallbacks == stand.updates(false)
        && o.updates.first_error == Some(MpcError::NotFinite);
    println!(
        "mpc-check: hopper: NaN cost in closed loop: {} of {} updates fell back to zero torques (error code 6){}",
        o.updates.fallbacks,
        stand.updates(false),
        if fell_back { "" } else { "  UNEXPECTED" }
    );
    Ok(ok && fell_back)
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
    for step in 1..=DISTANCE_STEPS {
        task::mj::step(&m, &mut d).map_err(|e| e.to_string())?;
        if step == task::FOOTPRINT_STEPS as usize {
            // the line the device's footprint program logs, for run.sh to compare
            println!(
                "footprint: digest after {step} steps {:08x}",
                task::digest(&d)
            );
        }
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
    if args.first().is_some_and(|a| a == "mpc-check") {
        return match mpc_check() {
            Ok(()) => {
                println!("mpc-check: every bad input refused with its error code, no panic");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("mpc-check: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().cloned().unwrap_or_default();
    let program = match which.as_str() {
        "lqr" | "pid" | "mpc" | "hopper" | "hopper-long" => {
            args.remove(0);
            which.as_str()
        }
        _ => "lqr",
    };
    let result = match program {
        "pid" => run_pid(),
        "mpc" => run_mpc(),
        "hopper" => run_hopper(false),
        "hopper-long" => run_hopper(true),
        _ => run(),
    };
    let (lines, summary) = match result {
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
                "usage: mjrs-firmware-host [lqr|pid|mpc|hopper|hopper-long] [compare DEVICE_LOG] | mpc-check | distance DIR [BOUNDS] | footprint BLOB"
            );
            ExitCode::FAILURE
        }
    }
}
