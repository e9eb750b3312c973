//! The bench models of issue 25 that no other suite steps (`fixtures/bench-models.txt`: a stack
//! of 28 boxes, a quadruped with rangefinders on a height field, a robot arm and a hand with
//! convex meshes and touch sensors, a muscle arm with wrapping tendons), compiled by mjrs from
//! their XML, follow MuJoCo 3.1.6's trajectories from MuJoCo's own compilation
//! (`fixtures/bench/NAME.traj.json`, from `fixtures/generate-bench.sh`) over 1000 steps of the
//! control law: time, qpos, qvel and act to 1e-9, sensordata to 1e-8 (the constraint suite's
//! tolerances). `bench/speed.py` times these models against MuJoCo; this is what makes the
//! comparison one of equal work.

use mjrs_tests::harness::{max_diff, Record, Suite};
use std::path::Path;

const BENCH: Suite = Suite {
    prefix: "bench-models",
    dir: "bench",
};

/// The model file of each case, from the manifest's second column.
fn model_paths() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(mjrs_tests::fixtures().join("bench-models.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (cols[0].to_string(), cols[1].to_string())
        })
        .collect()
}

/// MJB blob of mjrs's own compilation of `xml` (a path from the repository root).
fn compiled_blob(xml: &str) -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut owned = mjrs_xml::load_xml(root.join(xml), None)
        .unwrap_or_else(|e| panic!("{xml}: {e}"))
        .model;
    let m = owned.view();
    let mut blob = vec![0u8; mjrs_core::mjb::save_size(&m, 8)];
    mjrs_core::mjb::save(&m, &mut blob, 8).unwrap();
    blob
}

#[test]
fn bench_models_follow_mujoco_for_1000_steps() {
    let cases = model_paths();
    assert!(
        cases.len() >= 5,
        "{} bench models in the manifest",
        cases.len()
    );
    assert_eq!(BENCH.cases().len(), cases.len());
    let mut failures = Vec::new();
    for (name, xml) in cases {
        let (every, time, [qpos, qvel, act, sensordata]) = BENCH.reference_traj(&name);
        let (run, ()) =
            mjrs_tests::simulate!(mjrs_core, compiled_blob(&xml), None, 1000, |m, d| ());
        let rec: Vec<&Record> = run.iter().skip(every - 1).step_by(every).collect();
        assert_eq!(rec.len(), time.len(), "{name}");
        let pick =
            |f: fn(&Record) -> Vec<f64>| -> Vec<Vec<f64>> { rec.iter().map(|r| f(r)).collect() };
        let times: Vec<Vec<f64>> = time.iter().map(|&t| vec![t]).collect();
        for (field, d, tol) in [
            ("time", max_diff(&pick(|r| vec![r.0]), &times), 1e-9),
            ("qpos", max_diff(&pick(|r| r.1.clone()), &qpos), 1e-9),
            ("qvel", max_diff(&pick(|r| r.2.clone()), &qvel), 1e-9),
            ("act", max_diff(&pick(|r| r.3.clone()), &act), 1e-9),
            (
                "sensordata",
                max_diff(&pick(|r| r.4.clone()), &sensordata),
                1e-8,
            ),
        ] {
            println!("{name:<10} {field:<10} {d:.1e}");
            if d.is_nan() || d > tol {
                failures.push(format!("{name}: {field} differs by {d:e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
