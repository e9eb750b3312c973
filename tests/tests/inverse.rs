//! Inverse dynamics (`core/src/inverse.rs`) against MuJoCo 3.1.6: for every model of
//! `tests/fixtures/inverse-models.txt` (see `fixtures/generate-inverse.sh`), after its steps of
//! the control law, `forward` and `inverse`, the fields of `mjref inverse` (`qfrc_inverse`,
//! `efc_force`, `sensordata`, `cacc`, `cfrc_int`, `cfrc_ext`) agree bit for bit; with the
//! `fwdinv` flag the whole Data after those steps (with `solver_fwdinv`) agrees too. Then what
//! the fixtures cannot show: forward then inverse gives back the applied forces (continuous and
//! discrete time, both precisions), `fwdinv` leaves the forward results alone, RK4 refuses
//! discrete-time inverse as MuJoCo does, and a short arena is an error.

use mjrs_core::types::*;
use mjrs_tests::{compare, fixtures, read_json};
use serde_json::Value;
use std::path::PathBuf;

/// A model of the manifest: name, keyframe, steps of the control law, and whether it has a
/// data fixture.
struct Case {
    name: String,
    key: Option<i32>,
    steps: usize,
    data: bool,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(fixtures().join("inverse-models.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            Case {
                name: cols[0].to_string(),
                key: cols[2].parse().ok(),
                steps: cols[3].parse().unwrap(),
                data: cols.get(4) == Some(&"data"),
            }
        })
        .collect()
}

fn path(name: &str, ext: &str) -> PathBuf {
    fixtures().join("inverse").join(format!("{name}.{ext}"))
}

fn blob(name: &str) -> Vec<u8> {
    std::fs::read(path(name, "mjb")).unwrap()
}

#[test]
fn inverse_matches_reference_bit_for_bit() {
    let mut failures = Vec::new();
    for case in cases() {
        let (_, ours) =
            mjrs_tests::simulate!(mjrs_core, blob(&case.name), case.key, case.steps, |m, d| {
                mjrs_core::forward(&m, d).unwrap();
                mjrs_core::inverse(&m, d).unwrap();
                serde_json::from_str::<Value>(&mjrs::dump::inverse_json(&m, d)).unwrap()
            });
        let reference = read_json(&path(&case.name, "inverse.json"));
        let report = compare(&reference, &ours);
        let worst = report.worst().map_or(0.0, |f| f.max_mixed);
        let nefc = reference["efc_force"].as_array().unwrap().len();
        println!(
            "{:<38} nefc {nefc:>3}  largest difference {worst:.1e}",
            case.name
        );
        if !report.is_match(0.0) {
            failures.push(format!("{}:\n{}", case.name, report.summary(0.0)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn f32_build_stays_close_to_reference() {
    // The f32 state after the steps differs from MuJoCo's by float rounding amplified by the
    // dynamics, and the inverse forces follow it: 1e-2 (absolute below 1, relative above) for
    // most models (measured: at most 4e-3). Stiff constraints turn state differences into
    // large force differences: the equality chain, the sparse tendon limits and the robot with
    // a CG solve (measured 2e-2, 0.14, 1.3e-2) are held to 0.3.
    let mut failures = Vec::new();
    for case in cases() {
        let (_, ours) = mjrs_tests::simulate!(
            mjrs_core_f32,
            blob(&case.name),
            case.key,
            case.steps,
            |m, d| {
                mjrs_core_f32::forward(&m, d).unwrap();
                mjrs_core_f32::inverse(&m, d).unwrap();
                let w = |v: &[f32]| v.iter().map(|&x| f64::from(x)).collect::<Vec<f64>>();
                serde_json::json!({
                    "qfrc_inverse": w(d.qfrc_inverse),
                    "sensordata": w(d.sensordata),
                    "cfrc_int": w(d.cfrc_int),
                })
            }
        );
        let reference = read_json(&path(&case.name, "inverse.json"));
        let mut report = compare(&reference, &ours);
        report.retain(|f| ours.get(f).is_some());
        let worst = report.worst().map_or(0.0, |f| f.max_mixed);
        println!("{:<38} f32 largest difference {worst:.1e}", case.name);
        const STIFF: &[&str] = &[
            "rows_equality",
            "rows_tendon_sparse",
            "inverse_robot_sparse",
        ];
        let tol = if STIFF.contains(&case.name.as_str()) {
            0.3
        } else {
            1e-2
        };
        if !report.is_match(tol) {
            failures.push(format!("{}:\n{}", case.name, report.summary(tol)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Data fields the fwdinv comparison cannot be judged on: memory bookkeeping, islands (off),
/// `efc_AR*` (MuJoCo allocates it only for dual solvers and leaves it uninitialized otherwise)
/// and the sparse structure of dense Jacobians (allocated, never written by MuJoCo).
fn judged(name: &str) -> bool {
    const SKIP_PREFIX: &[&str] = &["island_", "maxuse_", "efc_AR", "efc_J_", "efc_JT"];
    const SKIP: &[&str] = &[
        "dof_island",
        "dof_islandind",
        "efc_island",
        "parena",
        "pstack",
        "pbase",
    ];
    !SKIP.contains(&name) && !SKIP_PREFIX.iter().any(|p| name.starts_with(p))
}

#[test]
fn fwdinv_statistics_match_reference() {
    let mut checked = 0;
    for case in cases().into_iter().filter(|c| c.data) {
        let (_, ours) =
            mjrs_tests::simulate!(mjrs_core, blob(&case.name), case.key, case.steps, |m, d| {
                assert!(m.opt.enableflags & ENBL_FWDINV != 0, "{}", case.name);
                mjrs_core::forward(&m, d).unwrap();
                serde_json::from_str::<Value>(&mjrs::dump::data_json(&m, d)).unwrap()
            });
        let reference = read_json(&path(&case.name, "data.json"));
        let fwdinv = &reference["solver_fwdinv"];
        // the comparison ran on constraint rows and found forward and inverse apart
        assert!(fwdinv[0].as_f64().unwrap() > 0.0, "{}", case.name);
        assert_eq!(&ours["solver_fwdinv"], fwdinv, "{}", case.name);
        let mut report = compare(&reference, &ours);
        report.retain(judged);
        report.assert_match(0.0, &case.name);
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// Loads an MJB into a buffer; the model is viewed with `Model::view`.
fn load(blob: &[u8]) -> (Vec<u8>, mjrs_core::ModelHeader) {
    let mut buf = vec![
        0u8;
        mjrs_core::mjb::read_header(blob)
            .unwrap()
            .model_bytes()
            .unwrap()
    ];
    let header = mjrs_core::mjb::load(blob, &mut buf).unwrap().header();
    (buf, header)
}

#[test]
fn fwdinv_leaves_forward_results_alone() {
    // the same model without and with the flag: 200 steps give identical states
    let run = |name: &str| {
        let (traj, ()) = mjrs_tests::simulate!(mjrs_core, blob(name), Some(0), 200, |m, d| ());
        traj
    };
    let (plain, checked) = (run("inverse_robot"), run("inverse_robot_fwdinv"));
    for (k, (a, b)) in plain.iter().zip(&checked).enumerate() {
        assert!(a == b, "step {k} differs with fwdinv");
    }
}

/// Sets applied forces, controls and velocities from a fixed pattern, runs forward with the
/// constraints disabled, and returns the largest `|qfrc_inverse - (qfrc_applied +
/// qfrc_actuator + J' xfrc_applied)|` after inverse, scaled by the largest of those forces.
macro_rules! round_trip_error {
    ($core:ident, $name:expr, $real:ty) => {{
        use $core::{Data, Model};
        let (mut buf, header) = {
            let blob = blob($name);
            let mut buf = vec![
                0u8;
                $core::mjb::read_header(&blob)
                    .unwrap()
                    .model_bytes()
                    .unwrap()
            ];
            let header = $core::mjb::load(&blob, &mut buf).unwrap().header();
            (buf, header)
        };
        let mut m = Model::view(&header, &mut buf).unwrap();
        m.opt.disableflags |= DSBL_CONSTRAINT;
        let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data::new(&m, &mut dbuf).unwrap();
        $core::io::reset_data_keyframe(&m, &mut d, 0);
        let wave = |i: usize, k: f64| ((i as f64 * k).sin()) as $real;
        for i in 0..m.nv {
            d.qfrc_applied[i] = wave(i, 1.3);
            d.qvel[i] += wave(i, 0.7);
        }
        for i in 0..m.nu {
            d.ctrl[i] = wave(i, 2.1) * 0.5;
        }
        for (i, x) in d.xfrc_applied.iter_mut().enumerate().skip(6) {
            *x = wave(i, 0.9);
        }
        $core::forward(&m, &mut d).unwrap();
        assert_eq!(d.nefc, 0);
        let nv = m.nv;
        let mut expected = vec![0.0 as $real; nv];
        for i in 0..nv {
            expected[i] = d.qfrc_applied[i] + d.qfrc_actuator[i];
        }
        d.with_stack(|d, stack| {
            $core::support::xfrc_accumulate(&m, d, &mut expected, stack).unwrap()
        });
        $core::inverse(&m, &mut d).unwrap();
        let scale = expected.iter().fold(1.0 as $real, |a, &x| a.max(x.abs()));
        let err = (0..nv).fold(0.0 as $real, |a, i| {
            a.max((d.qfrc_inverse[i] - expected[i]).abs())
        });
        f64::from(err / scale)
    }};
}

#[test]
fn forward_then_inverse_gives_back_the_applied_forces() {
    // rounding only: a few hundred ulps of the largest force, in either precision
    let e64 = round_trip_error!(mjrs_core, "inverse_robot", f64);
    assert!(e64 < 1e3 * f64::EPSILON, "f64: {e64:e}");
    let e32 = round_trip_error!(mjrs_core_f32, "inverse_robot", f32);
    assert!(e32 < 1e3 * f64::from(f32::EPSILON), "f32: {e32:e}");
    println!("round trip: f64 {e64:.1e}, f32 {e32:.1e}");
}

/// With `invdiscrete`, the acceleration the integrator actually applied, `(qvel' - qvel) / h`,
/// maps back to the applied forces: the inverse undoes the implicit (or damped Euler) solve.
/// With `discrete` false, the same acceleration goes through the continuous-time inverse.
fn discrete_round_trip(name: &str, discrete: bool) -> f64 {
    let (mut buf, header) = load(&blob(name));
    let mut m = mjrs_core::Model::view(&header, &mut buf).unwrap();
    m.opt.disableflags |= DSBL_CONSTRAINT;
    assert!(m.opt.enableflags & ENBL_INVDISCRETE != 0);
    let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
    mjrs_core::io::reset_data_keyframe(&m, &mut d, 0);
    for i in 0..m.nu {
        d.ctrl[i] = (i as f64).cos();
    }
    for i in 0..m.nv {
        d.qfrc_applied[i] = (i as f64 * 1.7).sin();
    }
    let (qpos, qvel) = (d.qpos.to_vec(), d.qvel.to_vec());
    mjrs_core::step(&m, &mut d).unwrap();
    let h = m.opt.timestep;
    let qacc: Vec<f64> = d.qvel.iter().zip(&qvel).map(|(a, b)| (a - b) / h).collect();
    d.qpos.copy_from_slice(&qpos);
    d.qvel.copy_from_slice(&qvel);
    d.time -= h;
    mjrs_core::forward(&m, &mut d).unwrap();
    let expected: Vec<f64> = (0..m.nv)
        .map(|i| d.qfrc_applied[i] + d.qfrc_actuator[i])
        .collect();
    d.qacc.copy_from_slice(&qacc);
    if !discrete {
        m.opt.enableflags &= !ENBL_INVDISCRETE;
    }
    mjrs_core::inverse(&m, &mut d).unwrap();
    // the inverse restores the discrete-time qacc it was given
    assert_eq!(d.qacc, &qacc[..]);
    let scale = expected.iter().fold(1.0f64, |a, &x| a.max(x.abs()));
    let worst = (0..m.nv).fold(0.0f64, |a, i| {
        a.max((d.qfrc_inverse[i] - expected[i]).abs())
    });
    worst / scale
}

#[test]
fn discrete_inverse_undoes_each_integrator() {
    // the finite difference (qvel' - qvel) / h loses about |qvel| eps / h; the continuous-time
    // inverse of the same qacc is far off, which shows the conversion matters
    for name in [
        "inverse_robot_euler_discrete",
        "inverse_robot_implicit_discrete",
        "inverse_robot_implicitfast_discrete",
    ] {
        let e = discrete_round_trip(name, true);
        let continuous = discrete_round_trip(name, false);
        println!("{name:<38} {e:.1e} (continuous-time: {continuous:.1e})");
        assert!(e < 1e-9, "{name}: {e:e}");
        assert!(continuous > 1e-4, "{name}: {continuous:e}");
    }
}

#[test]
fn rk4_refuses_discrete_inverse_as_mujoco_does() {
    let (mut buf, header) = load(&blob("inverse_robot_rk4"));
    let mut m = mjrs_core::Model::view(&header, &mut buf).unwrap();
    let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
    mjrs_core::forward(&m, &mut d).unwrap();
    mjrs_core::inverse(&m, &mut d).unwrap();
    m.opt.enableflags |= ENBL_INVDISCRETE;
    let err = mjrs_core::inverse(&m, &mut d).unwrap_err();
    assert!(
        matches!(err, mjrs_core::StepError::Rejected(w) if w.contains("RK4")),
        "{err:?}"
    );
}

#[test]
fn short_arenas_are_errors_never_panics() {
    // every arena size up to the model's: inverse and the fwdinv step either succeed with the
    // full-size results or report the arena
    let full = blob("inverse_robot_fwdinv_implicit");
    let at = 4 * (5 + 76); // narena, the size_t after the 76 int sizes of the MJB header
    let narena = u64::from_le_bytes(full[at..at + 8].try_into().unwrap());
    let run = |size: u64| -> Result<(Vec<f64>, [f64; 2]), mjrs_core::StepError> {
        let mut blob = full.clone();
        blob[at..at + 8].copy_from_slice(&size.to_le_bytes());
        let (mut buf, header) = load(&blob);
        let m = mjrs_core::Model::view(&header, &mut buf).unwrap();
        let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
        mjrs_core::io::reset_data_keyframe(&m, &mut d, 0);
        mjrs_core::step(&m, &mut d)?;
        mjrs_core::inverse(&m, &mut d)?;
        Ok((d.qfrc_inverse.to_vec(), d.solver_fwdinv))
    };
    let reference = run(narena).unwrap();
    let (mut ok, mut short) = (0, 0);
    for k in 0..=64 {
        match run(narena * k / 64 / 8 * 8) {
            Ok(r) => {
                assert_eq!(r, reference);
                ok += 1;
            }
            Err(mjrs_core::StepError::Arena(_)) => short += 1,
            Err(e) => panic!("arena of {k}/64: {e}"),
        }
    }
    assert!(ok > 0 && short > 0, "{ok} ok, {short} short");
}

#[test]
fn split_step_runs_fwdinv_like_step() {
    // step1 + step2 with Euler is step: same state and the same fwdinv statistics
    let run = |split: bool| {
        let (mut buf, header) = load(&blob("inverse_robot_fwdinv"));
        let m = mjrs_core::Model::view(&header, &mut buf).unwrap();
        let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
        mjrs_core::io::reset_data_keyframe(&m, &mut d, 0);
        let mut fwdinv = Vec::new();
        for _ in 0..20 {
            mjrs::control::sine(&m, &mut d);
            if split {
                mjrs_core::step1(&m, &mut d).unwrap();
                mjrs_core::step2(&m, &mut d).unwrap();
            } else {
                mjrs_core::step(&m, &mut d).unwrap();
            }
            fwdinv.push(d.solver_fwdinv);
        }
        (fwdinv, d.qpos.to_vec(), d.qvel.to_vec())
    };
    let (whole, split) = (run(false), run(true));
    assert!(whole.0.iter().all(|f| f[0] > 0.0 && f[1] > 0.0));
    assert_eq!(whole, split);
}
