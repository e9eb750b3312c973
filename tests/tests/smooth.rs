//! Smooth-dynamics conformance: for every model of `tests/fixtures/smooth-models*.txt`, mjrs
//! matches MuJoCo 3.1.6 (`mjref data`, `mjref traj`; see `fixtures/generate-smooth.sh`):
//! * after 20 steps of the control law and a forward pass, every Data field the smooth pipeline
//!   computes agrees to 1e-10 (absolute below 1, relative above);
//! * over 1000 steps, qpos, qvel and act agree to 1e-9, sensordata to 1e-8;
//! * the f32 build stays within 1e-3 of the reference over 100 steps.

use mjrs_tests::{compare, fixtures, read_json, Report};
use serde_json::Value;
use std::path::PathBuf;

/// A model of the manifest: fixture name and keyframe.
struct Case {
    name: String,
    key: Option<i32>,
}

/// The models of every manifest `tests/fixtures/smooth-models*.txt` (one per area, so that
/// areas add models independently).
fn cases() -> Vec<Case> {
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("smooth-models") && n.ends_with(".txt"))
        })
        .collect();
    manifests.sort();
    let text: String = manifests
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap() + "\n")
        .collect();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            Case {
                name: cols[0].to_string(),
                key: cols.get(2).and_then(|k| k.parse().ok()),
            }
        })
        .collect()
}

fn path(name: &str, ext: &str) -> PathBuf {
    fixtures().join("smooth").join(format!("{name}.{ext}"))
}

/// Fields outside the smooth pipeline (contacts, constraint rows, islands, solver statistics)
/// and bookkeeping that differs by design (memory use).
fn smooth_field(name: &str) -> bool {
    const SKIP_PREFIX: &[&str] = &["efc_", "island_", "contact.", "solver", "maxuse_"];
    const SKIP: &[&str] = &[
        "dof_island",
        "dof_islandind",
        "tendon_efcadr",
        "parena",
        "pstack",
        "pbase",
        "contact",
    ];
    !SKIP.contains(&name) && !SKIP_PREFIX.iter().any(|p| name.starts_with(p))
}

macro_rules! simulate {
    ($core:ident, $blob:expr, $key:expr, $steps:expr, |$m:ident, $d:ident| $after:expr) => {{
        use $core::{io, mjb, Data};
        let blob = $blob;
        let header = mjb::read_header(&blob).unwrap();
        let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
        let $m = mjb::load(&blob, &mut mbuf).unwrap();
        let mut dbuf = vec![0u8; Data::bytes_needed($m.sizes()).unwrap()];
        let mut $d = Data::new(&$m, &mut dbuf).unwrap();
        if let Some(k) = $key {
            io::reset_data_keyframe(&$m, &mut $d, k);
        }
        let mut out = Vec::new();
        for i in 0..$steps {
            // the control law of mjref (see mjrs::control::sine)
            for a in 0..$m.nu {
                let s = (2.0 * f64::from($d.time) * (1.0 + 0.1 * a as f64) + a as f64).sin();
                let c = if $m.actuator_ctrllimited[a] != 0 {
                    let (lo, hi) = (
                        f64::from($m.actuator_ctrlrange[2 * a]),
                        f64::from($m.actuator_ctrlrange[2 * a + 1]),
                    );
                    lo + (hi - lo) * (0.5 + 0.5 * s)
                } else {
                    s
                };
                $d.ctrl[a] = c as _;
            }
            $core::step(&$m, &mut $d).unwrap_or_else(|e| panic!("step {i}: {e}"));
            out.push((
                $d.time,
                $d.qpos.to_vec(),
                $d.qvel.to_vec(),
                $d.act.to_vec(),
                $d.sensordata.to_vec(),
            ));
        }
        #[allow(unused_variables)]
        let $d = &mut $d;
        let after = $after;
        (out, after)
    }};
}

#[test]
fn data_after_steps_matches_reference() {
    let mut failures = Vec::new();
    for case in cases() {
        let blob = std::fs::read(path(&case.name, "mjb")).unwrap();
        let (_, ours) = simulate!(mjrs_core, blob, case.key, 20, |m, d| {
            mjrs_core::forward(&m, d).unwrap();
            serde_json::from_str::<Value>(&mjrs::dump::data_json(&m, d)).unwrap()
        });
        let reference = read_json(&path(&case.name, "data.json"));
        let mut report: Report = compare(&reference, &ours);
        report.retain(smooth_field);
        if !report.is_match(1e-10) {
            failures.push(format!("{}:\n{}", case.name, report.summary(1e-10)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One recorded step of mjrs: time, qpos, qvel, act, sensordata.
type Record = (f64, Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>);

/// The reference trajectory: per record, time and the named vectors.
fn reference_traj(name: &str) -> (usize, Vec<f64>, [Vec<Vec<f64>>; 4]) {
    let t = read_json(&path(name, "traj.json"));
    let every = t["every"].as_u64().unwrap() as usize;
    let nums = |v: &Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap_or(f64::NAN))
            .collect()
    };
    let rows = |k: &str| -> Vec<Vec<f64>> { t[k].as_array().unwrap().iter().map(nums).collect() };
    (
        every,
        nums(&t["time"]),
        [rows("qpos"), rows("qvel"), rows("act"), rows("sensordata")],
    )
}

/// Largest mixed (absolute below 1, relative above) difference over the recorded steps.
fn max_diff(ours: &[Vec<f64>], reference: &[Vec<f64>]) -> f64 {
    ours.iter()
        .zip(reference)
        .flat_map(|(a, b)| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs() / y.abs().max(1.0))
        })
        .fold(0.0, f64::max)
}

#[test]
fn trajectories_match_reference_for_1000_steps() {
    let mut failures = Vec::new();
    for case in cases() {
        let blob = std::fs::read(path(&case.name, "mjb")).unwrap();
        let (every, time, [qpos, qvel, act, sensordata]) = reference_traj(&case.name);
        let (run, ()) = simulate!(mjrs_core, blob, case.key, 1000, |m, d| ());
        let rec: Vec<_> = run.iter().skip(every - 1).step_by(every).collect();
        assert_eq!(rec.len(), time.len(), "{}", case.name);
        let pick =
            |f: fn(&Record) -> Vec<f64>| -> Vec<Vec<f64>> { rec.iter().map(|r| f(r)).collect() };
        let diffs = [
            (
                "time",
                max_diff(
                    &pick(|r| vec![r.0]),
                    &time.iter().map(|&t| vec![t]).collect::<Vec<_>>(),
                ),
            ),
            ("qpos", max_diff(&pick(|r| r.1.clone()), &qpos)),
            ("qvel", max_diff(&pick(|r| r.2.clone()), &qvel)),
            ("act", max_diff(&pick(|r| r.3.clone()), &act)),
            ("sensordata", max_diff(&pick(|r| r.4.clone()), &sensordata)),
        ];
        println!(
            "{:<28} {}",
            case.name,
            diffs
                .iter()
                .map(|(n, d)| format!("{n} {d:.1e}"))
                .collect::<Vec<_>>()
                .join("  ")
        );
        for (n, d) in diffs {
            let tol = if n == "sensordata" { 1e-8 } else { 1e-9 };
            if d.is_nan() || d > tol {
                failures.push(format!("{}: {n} differs by {d:e}", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn f32_build_stays_close_for_100_steps() {
    let mut failures = Vec::new();
    for case in cases() {
        let blob = std::fs::read(path(&case.name, "mjb")).unwrap();
        let (every, _, [qpos, qvel, act, _]) = reference_traj(&case.name);
        let (run, ()) = simulate!(mjrs_core_f32, blob, case.key, 100, |m, d| ());
        let widen = |v: &Vec<f32>| -> Vec<f64> { v.iter().map(|&x| f64::from(x)).collect() };
        for (k, rec) in run.iter().enumerate().skip(every - 1).step_by(every) {
            let row = (k + 1) / every - 1;
            for (n, ours, reference) in [
                ("qpos", &rec.1, &qpos[row]),
                ("qvel", &rec.2, &qvel[row]),
                ("act", &rec.3, &act[row]),
            ] {
                let d = max_diff(&[widen(ours)], std::slice::from_ref(reference));
                if d.is_nan() || d > 1e-3 {
                    failures.push(format!(
                        "{} step {}: f32 {n} differs by {d:e}",
                        case.name,
                        k + 1
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
