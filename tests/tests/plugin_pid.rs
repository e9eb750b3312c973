//! `mujoco.pid` against MuJoCo 3.1.6's plugin library (`fixtures/generate-plugin.py`): MuJoCo's
//! own `model/plugin/actuator/pid.xml` and focused models (integral with and without `imax`,
//! `slewmax`, activation dynamics with `actearly`, strtod-style configuration), 1000 steps of
//! mjref's control law from MuJoCo's MJB, every 10th state compared bit for bit.

use mjrs_core::{io, mjb, plugin, Data};
use mjrs_tests::fixtures;
use serde_json::Value;

/// The fields the fixtures record, after `time`.
const FIELDS: [&str; 6] = [
    "qpos",
    "qvel",
    "act",
    "actuator_force",
    "sensordata",
    "plugin_state",
];

/// Rows of `plugin-models.txt` whose name starts with `prefix`: (name, XML path).
pub fn manifest(prefix: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(fixtures().join("plugin-models.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (cols[0].to_string(), cols[1].to_string())
        })
        .filter(|(n, _)| n.starts_with(prefix))
        .collect()
}

fn bits(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap(), 16).unwrap()
}

/// mjref's control law: a sine per actuator, spread over `ctrlrange` when limited.
fn control(m: &mjrs_core::Model, d: &mut Data) {
    for a in 0..m.nu {
        let s = (2.0 * d.time * (1.0 + 0.1 * a as f64) + a as f64).sin();
        d.ctrl[a] = if m.actuator_ctrllimited[a] != 0 {
            let (lo, hi) = (m.actuator_ctrlrange[2 * a], m.actuator_ctrlrange[2 * a + 1]);
            lo + (hi - lo) * (0.5 + 0.5 * s)
        } else {
            s
        };
    }
}

/// The values of `field` in `d`.
fn field<'a>(d: &'a Data, field: &str) -> &'a [f64] {
    match field {
        "qpos" => d.qpos,
        "qvel" => d.qvel,
        "act" => d.act,
        "actuator_force" => d.actuator_force,
        "sensordata" => d.sensordata,
        "plugin_state" => d.plugin_state,
        _ => unreachable!("{field}"),
    }
}

/// Runs fixture `name` and returns (values compared, mismatches as text).
pub fn compare_trajectory(name: &str) -> (usize, Vec<String>) {
    plugin::register_first_party();
    let dir = fixtures().join("plugin");
    let blob = std::fs::read(dir.join(format!("{name}.mjb"))).unwrap();
    let traj: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("{name}.traj.json"))).unwrap(),
    )
    .unwrap();
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    io::reset_data(&m, &mut d);
    let steps = traj["steps"].as_u64().unwrap() as usize;
    let every = traj["every"].as_u64().unwrap() as usize;
    let rec = &traj["records"];
    let (mut compared, mut bad) = (0, Vec::new());
    for step in 1..=steps {
        control(&m, &mut d);
        mjrs_core::step(&m, &mut d).unwrap_or_else(|e| panic!("{name} step {step}: {e}"));
        if step % every != 0 {
            continue;
        }
        let row = step / every - 1;
        let mut check = |what: &str, ours: &[f64], reference: &[Value]| {
            if ours.len() != reference.len() {
                bad.push(format!(
                    "{name} step {step}: {what} has {} values, MuJoCo {}",
                    ours.len(),
                    reference.len()
                ));
                return;
            }
            for (k, (o, r)) in ours.iter().zip(reference).enumerate() {
                compared += 1;
                if o.to_bits() != bits(r) && !(o.is_nan() && f64::from_bits(bits(r)).is_nan()) {
                    bad.push(format!(
                        "{name} step {step}: {what}[{k}] = {o:e}, MuJoCo {:e}",
                        f64::from_bits(bits(r))
                    ));
                }
            }
        };
        check("time", &[d.time], std::slice::from_ref(&rec["time"][row]));
        for f in FIELDS {
            check(f, field(&d, f), rec[f][row].as_array().unwrap());
        }
    }
    (compared, bad)
}

#[test]
fn pid_trajectories_match_mujoco_bit_for_bit() {
    let mut failures = Vec::new();
    for (name, _) in manifest("pid") {
        let (n, bad) = compare_trajectory(&name);
        println!(
            "{name:<16} {n} values over 1000 steps (every 10th), {} differ",
            bad.len()
        );
        assert!(n > 0, "{name}: nothing compared");
        failures.extend(bad.into_iter().take(5));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
