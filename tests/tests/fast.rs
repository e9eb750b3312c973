//! The fast build's accuracy in one step (issue 25 item 3a): from states of MuJoCo 3.1.6's own
//! trajectories (`fixtures/fast/NAME.json`, from `fixtures/generate-fast.py`: the bench models
//! after 0 and 150 steps of the control law), one `forward` of mjrs gives MuJoCo's accelerations
//! to within
//! * `SMOOTH` relative on `qacc_smooth`, the acceleration without constraints (and on `qacc`
//!   where no constraint row exists);
//! * the model's solver tolerance (`opt.tolerance`, at least `SMOOTH`) relative on `qacc` where
//!   constraint rows exist: the solvers stop at that tolerance on the cost's improvement;
//! * MuJoCo's number of constraint rows (the same contacts).
//!
//! Relative: the largest difference over the largest magnitude of MuJoCo's vector. The exact
//! build meets the bounds with zero differences (the conformance suites check it bit for bit);
//! the point is the fast build, `cargo test --release -p mjrs-tests --features fast --test fast`,
//! whose arithmetic differs (`mjrs_core::math::fast`).

use serde_json::Value;
use std::path::Path;

/// Relative bound on the accelerations without constraints.
const SMOOTH: f64 = 1e-10;

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Largest `|a - b|` over the largest `|b|` (or the difference itself when `b` is zero).
fn relative(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    let diff = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    let scale = b.iter().map(|y| y.abs()).fold(0.0, f64::max);
    if scale > 0.0 {
        diff / scale
    } else {
        diff
    }
}

#[test]
fn one_forward_agrees_with_mujoco() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = mjrs_tests::fixtures().join("fast");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 18,
        "{} fixtures in {}",
        names.len(),
        dir.display()
    );
    let mut failures = Vec::new();
    println!("fast build: {}", cfg!(feature = "fast"));
    println!(
        "{:<24} step nefc active  qacc_smooth rel  qacc rel",
        "model"
    );
    for path in names {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let xml = fixture["xml"].as_str().unwrap();
        let mut owned = mjrs_xml::load_xml(root.join(xml), None)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .model;
        let m = owned.view();
        let mut data = mjrs_std::OwnedData::new(&m).unwrap();
        let mut d = data.view();
        for state in fixture["states"].as_array().unwrap() {
            d.time = state["time"].as_f64().unwrap();
            d.qpos.copy_from_slice(&floats(&state["qpos"]));
            d.qvel.copy_from_slice(&floats(&state["qvel"]));
            d.act.copy_from_slice(&floats(&state["act"]));
            d.qacc_warmstart
                .copy_from_slice(&floats(&state["qacc_warmstart"]));
            mjrs::control::sine(&m, &mut d);
            mjrs_core::forward(&m, &mut d).unwrap_or_else(|e| panic!("{name}: {e}"));
            let step = state["step"].as_u64().unwrap();
            let (nefc, nactive) = (
                state["nefc"].as_u64().unwrap(),
                state["nactive"].as_u64().unwrap(),
            );
            let smooth = relative(d.qacc_smooth, &floats(&state["qacc_smooth"]));
            let full = relative(d.qacc, &floats(&state["qacc"]));
            println!("{name:<24} {step:>4} {nefc:>4} {nactive:>6}  {smooth:>15.1e}  {full:>8.1e}");
            // the same contacts and rows: the fast build's own broad phase for a few bodies
            // (`collision::all_pairs`) may test other body pairs, never find other contacts
            if d.nefc as u64 != nefc {
                failures.push(format!(
                    "{name} step {step}: {} constraint rows, MuJoCo {nefc}",
                    d.nefc
                ));
            }
            let tolerance = fixture["tolerance"].as_f64().unwrap();
            let bound = if nefc == 0 {
                SMOOTH
            } else {
                tolerance.max(SMOOTH)
            };
            if smooth.is_nan() || smooth > SMOOTH {
                failures.push(format!(
                    "{name} step {step}: qacc_smooth {smooth:e} > {SMOOTH:e}"
                ));
            }
            if full.is_nan() || full > bound {
                failures.push(format!(
                    "{name} step {step} ({nefc} rows): qacc {full:e} > {bound:e}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
